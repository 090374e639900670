"""The command line as a user runs it: outputs, messages naming FILE:LINE, exit codes, no tracebacks."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kg.cli import main

ROOT = Path(__file__).resolve().parents[1]
GOOD = "We propose COBRA, a principled framework, and evaluate it on the GLUE benchmark with accuracy."


@pytest.fixture(autouse=True)
def _capture(capsys, monkeypatch):
    global _CAPSYS, _MONKEYPATCH
    _CAPSYS, _MONKEYPATCH = capsys, monkeypatch


def kg(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run ``kg`` in this process (the pipeline loads once for the whole module)."""
    if stdin is not None:
        _MONKEYPATCH.setattr(sys, "stdin", io.StringIO(stdin))
    _CAPSYS.readouterr()
    code = main(list(args))
    out, err = _CAPSYS.readouterr()
    return subprocess.CompletedProcess(args, code, out, err)


def kg_process(*args: str) -> subprocess.CompletedProcess:
    """Run ``kg`` as a real process, as a user does."""
    return subprocess.run([sys.executable, "-m", "kg.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def assert_no_traceback(proc):
    assert "Traceback" not in proc.stderr, proc.stderr


def test_extract_writes_one_prediction_per_paper(tmp_path):
    out = tmp_path / "pred.jsonl"
    proc = kg("extract", str(ROOT / "examples" / "icml"), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == 38
    assert any("DomED" in r["proposed"] for r in rows)


def test_extract_keeps_input_ids(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "p-1", "abstract": GOOD}) + "\n")
    out = tmp_path / "pred.jsonl"
    assert kg("extract", str(src), "--out", str(out)).returncode == 0
    row = json.loads(out.read_text())
    assert row["id"] == "p-1" and row["proposed"] == ["COBRA"] and "GLUE" in row["concepts"]["DATASET"]



def test_extract_to_standard_output(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "p-1", "abstract": GOOD}) + "\n")
    proc = kg("extract", str(src), "--out", "-")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["proposed"] == ["COBRA"]
    assert "-> standard output" in proc.stderr and not (tmp_path / "-").exists()

def test_extract_offsets_point_into_the_raw_text(tmp_path):
    raw = r"We propose \emph{FooNet}, a novel model. FooNet reaches 90\% accuracy on the **BarSet** dataset."
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "x", "text": raw}) + "\n")
    out = tmp_path / "pred.jsonl"
    kg("extract", str(src), "--out", str(out))
    row = json.loads(out.read_text())
    spans = {raw[m["start"]:m["end"]] for m in row["mentions"]}
    assert "FooNet" in spans and ("BarSet" in spans or "BarSet** dataset" in spans)  # with its head word or not


def test_fast_mode_is_the_rules_alone_and_the_default_adds_the_tagger(tmp_path):
    text = ("We address dense reconstruction of textured surfaces from sparse views with a probabilistic "
            "regression model, evaluated on ImageNet with top-1 accuracy.")
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "x", "text": text}) + "\n")
    rows = {}
    for mode in ("--fast", None):
        out = tmp_path / f"{mode or 'default'}.jsonl"
        assert kg("extract", str(src), "--out", str(out), *([mode] if mode else [])).returncode == 0
        rows[mode] = json.loads(out.read_text())
    extractors = {mode: {m["extractor"] for m in row["mentions"]} for mode, row in rows.items()}
    assert not any(e.startswith("model") for e in extractors["--fast"])
    assert any(e.startswith("model") for e in extractors[None])
    assert "ImageNet" in rows["--fast"]["concepts"]["DATASET"] and "ImageNet" in rows[None]["concepts"]["DATASET"]
    both = kg_process("extract", str(src), "--out", str(tmp_path / "x.jsonl"), "--fast", "--accurate")
    assert both.returncode == 2 and "not allowed with" in both.stderr


def test_stdin_input(tmp_path):
    out = tmp_path / "pred.jsonl"
    proc = kg("extract", "-", "--out", str(out), stdin=json.dumps({"id": "s", "text": GOOD}) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["id"] == "s"


def test_stdin_semicolon_csv_from_excel_in_cp1252_gives_every_paper_and_exit_1_for_the_warning(tmp_path):
    out = tmp_path / "pred.jsonl"
    sheet = f"id;title;abstract\r\ne1;Café;{GOOD}\r\ne2;Naïve;We study naïve Bayes on MNIST.\r\n".encode("cp1252")
    proc = subprocess.run([sys.executable, "-m", "kg.cli", "extract", "-", "--out", str(out)], input=sheet,
                          capture_output=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.decode().splitlines()[0] == ("-:2: warning: not UTF-8 text: byte 0xe9 at column 7; read as "
                                                    "Windows-1252 (cp1252), as are any later lines that are not UTF-8")
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["e1", "e2"]


def test_build_prints_a_summary_and_writes_outputs(tmp_path):
    proc = kg("build", str(ROOT / "examples" / "icml"), "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    # progress on stderr, a line per stage when it is not a terminal; a stage that took a second or more says
    # how long (" in 0:01"), so the time is cut off before comparing
    lines = [re.sub(r" in \d+(:\d\d)+$", "", line) for line in proc.stderr.splitlines()]
    for line in ("reading 38/38 papers", "extracting 38/38 papers", "writing 38/38 papers", "views done",
                 "embedded store done"):
        assert line in lines, proc.stderr
    quiet = kg("build", str(ROOT / "examples" / "icml"), "--out", str(tmp_path / "out"), "--quiet")
    assert quiet.returncode == 0 and "papers" not in quiet.stderr and "papers      38" in quiet.stdout
    assert "papers      38" in proc.stdout and "dataset" in proc.stdout and "edges" in proc.stdout
    assert (tmp_path / "out" / "views" / "overview.html").is_file()
    # the README's tour shows this summary: it stays the real one
    summary = "\n".join(line for line in proc.stdout.splitlines() if not line.startswith("wrote "))
    assert summary in (ROOT / "README.md").read_text(encoding="utf-8"), f"update the README's tour:\n{summary}"


def test_missing_file_is_named_and_exits_2(tmp_path):
    proc = kg_process("extract", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "p.jsonl"))
    assert proc.returncode == 2
    assert f"{tmp_path / 'nope.jsonl'}:" in proc.stderr
    assert_no_traceback(proc)


@pytest.mark.parametrize("content, line", [
    (b"", None),
    (b'{"id": "a", "text": "' + GOOD.encode() + b'"}\n{broken\n', 2),
    (b'{"id": "a", "text": "' + GOOD.encode() + b'"}\n{"id": "b", "title": "no text"}\n', 2),
    (b'{"id": "a", "text": "' + GOOD.encode() + b'"}\n\xff\xfe\x00binary\n', 2),
])
def test_bad_records_are_reported_with_file_and_line(tmp_path, content, line):
    src = tmp_path / "in.jsonl"
    src.write_bytes(content)
    out = tmp_path / "pred.jsonl"
    proc = kg("extract", str(src), "--out", str(out))
    assert_no_traceback(proc)
    if line is None:
        assert proc.returncode == 2 and f"{src}:" in proc.stderr
    else:
        assert f"{src}:{line}:" in proc.stderr
        assert proc.returncode == 1, "valid records are processed, the run reports skipped ones"
        assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["a"]


def test_a_one_megabyte_abstract_is_rejected_and_the_rest_kept(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "big", "text": "word " * 210_000}) + "\n" + json.dumps({"id": "ok", "text": GOOD}) + "\n")
    out = tmp_path / "pred.jsonl"
    proc = kg("extract", str(src), "--out", str(out))
    assert proc.returncode == 1 and f"{src}:1:" in proc.stderr
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["ok"]


def test_a_bad_field_is_a_warning_the_summary_does_not_count_as_a_skipped_record(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "a", "text": GOOD, "year": "20x2"}) + "\n")
    proc = kg("build", str(src), "--out", str(tmp_path / "out"), "--fast", "--quiet", "--max-views", "0")
    assert_no_traceback(proc)
    assert f"{src}:1: warning: bad year '20x2': expected a four-digit year; left out" in proc.stderr
    assert re.search(r"^papers +1$", proc.stdout, re.M) and re.search(r"^warnings +1 ", proc.stdout, re.M)
    assert "skipped" not in proc.stdout
    assert proc.returncode == 1, "bad input: exit 1, though no record is lost"


def test_help_says_what_each_exit_code_means(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for code in (0, 1, 2, 3, 130, 143):
        assert re.search(rf"^  {code} +\w", out, re.M), code


def test_strict_stops_at_the_first_problem(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text("{broken\n" + json.dumps({"id": "ok", "text": GOOD}) + "\n")
    out = tmp_path / "pred.jsonl"
    proc = kg("extract", str(src), "--out", str(out), "--strict")
    assert proc.returncode == 2 and f"{src}:1:" in proc.stderr
    assert not out.exists()
    assert_no_traceback(proc)


def test_only_bad_records_exit_2(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text("{broken\n")
    proc = kg_process("build", str(src), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and f"{src}:1:" in proc.stderr
    assert_no_traceback(proc)


def test_viz_writes_a_focused_view(tmp_path, seed_build):
    out = tmp_path / "cuhk.html"
    proc = kg("viz", str(seed_build[1]), "--kind", "dataset", "--focus", "cuhk-sysu", "--out", str(out))
    assert proc.returncode == 0 and out.is_file() and "nodes" in proc.stdout
    bad = kg("viz", str(seed_build[1]), "--kind", "dataset", "--focus", "Ofice-31", "--out", str(tmp_path / "x.html"))
    assert bad.returncode == 2 and "Office-31" in bad.stderr


def test_query_and_related_on_a_missing_build_exit_3(tmp_path):
    for args in (["query", "top_datasets", "--param", "limit=3", "--graph", str(tmp_path)], ["related", "X", "--graph", str(tmp_path)]):
        proc = kg(*args)
        assert proc.returncode == 3 and "kg build" in proc.stderr and "--graph DIR" in proc.stderr


def test_a_refused_query_is_one_line_and_exit_2(seed_build):
    for cypher, reason in (("MATCH (p:Paper RETURN p", "Parser exception"), ("MATCH (n:Foo) RETURN n", "Foo")):
        proc = kg("query", "--graph", str(seed_build[1]), "--cypher", cypher)
        assert proc.returncode == 2 and proc.stderr.startswith("kg: query failed:") and reason in proc.stderr
        assert "Traceback" not in proc.stderr


def test_a_saved_query_without_its_parameter_says_which_and_exits_2(seed_build):
    proc = kg("query", "papers_on_dataset", "--graph", str(seed_build[1]))
    assert proc.returncode == 2 and "--param dataset=..." in proc.stderr


def test_an_out_path_that_cannot_be_written_is_one_line_and_exit_2(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("")
    seeds = str(ROOT / "examples" / "icml" / "002_66f4c0e3e087f8bd.txt")
    for args in (["build", seeds, "--out", str(afile)], ["extract", seeds, "--out", str(tmp_path)]):
        proc = kg(*args)
        assert proc.returncode == 2 and proc.stderr.startswith("kg: ") and "Traceback" not in proc.stderr
        assert len(proc.stderr.splitlines()) == 1, proc.stderr  # before any work: no progress lines either


def test_progress_redraws_one_line_per_stage_on_a_terminal():
    import io

    from kg.build.progress import StageProgress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    progress = StageProgress(screen, every=0)
    for done in (0, 256, 512):
        progress("extracting", done, 512)
    progress("views", 0, 1)
    progress.close()
    first, second, rest = screen.getvalue().split("\n")
    draws = first.split("\r")[1:]  # each redraw returns to the start of the same line
    assert [d.split("  ")[0].strip() for d in draws] == ["extracting 0/512 papers", "extracting 256/512 papers",
                                                         "extracting 512/512 papers"]
    assert "/s" in draws[1] and "to go" in draws[1]
    assert second == "\rviews ..." and rest == ""  # a stage left unfinished is ended by close()


def test_out_and_quiet_have_short_forms(tmp_path):
    proc = kg("build", str(ROOT / "examples" / "icml"), "-o", str(tmp_path / "out"), "-q")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "" and "papers      38" in proc.stdout and (tmp_path / "out" / "graph.json").is_file()
