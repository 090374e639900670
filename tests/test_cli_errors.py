"""How the command line fails, as a user sees it from real processes: one line and an exit code, never a
traceback; quiet closed pipes; options checked by the parser; no secrets and no terminal control characters in
what it prints."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kg.cli.output import redact, safe, safe_json
from kg.store.neo4j_store import Neo4jConfig, StoreError, check_uri, redact_uri

ROOT = Path(__file__).resolve().parents[1]
KG = Path(sys.executable).with_name("kg")  # the console script pip installed beside this interpreter
SEED = str(ROOT / "examples" / "icml" / "002_66f4c0e3e087f8bd.txt")
HINT = "(run with --debug for the traceback)"


def kg(*args: str, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    """``kg ARGS`` as a user runs it."""
    return subprocess.run([str(KG), *args], capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={**os.environ, **(env or {})}, **kw)


def kg_patched(patch: str, *args: str) -> subprocess.CompletedProcess:
    """``kg ARGS`` in a process where ``patch`` (Python) ran first: a way to make a command meet a bug."""
    code = f"import sys\n{patch}\nfrom kg.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def one_line(proc: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.splitlines()) == 1, proc.stderr
    return proc.stderr.rstrip("\n")


def test_the_console_script_is_there():
    assert KG.is_file(), f"{KG}: pip install -e . writes it"


# --- the top-level guard ---------------------------------------------------------------------------------------

BUG = ("import kg.store.rows\n"
       "def load_graph(path):\n"
       "    raise RuntimeError('boom at bolt://neo4j:SECRET@db:7687 \\x1b]0;title\\x07\\nsecond line')\n"
       "kg.store.rows.load_graph = load_graph")


def test_an_unexpected_error_is_one_line_with_a_hint_and_exit_2():
    proc = kg_patched(BUG, "related", "SCALE", "--graph", "nowhere")
    assert proc.returncode == 2
    line = one_line(proc)
    assert line == f"kg: error: RuntimeError: boom at bolt://***@db:7687 \\x1b]0;title\\x07 {HINT}"


@pytest.mark.parametrize("where", ["before", "after"])
def test_debug_shows_the_traceback_still_without_the_password(where):
    args = ["related", "SCALE", "--graph", "nowhere"]
    args = ["--debug", *args] if where == "before" else [*args, "--debug"]
    proc = kg_patched(BUG, *args)
    assert proc.returncode == 2
    assert "Traceback (most recent call last)" in proc.stderr and "load_graph" in proc.stderr
    assert "SECRET" not in proc.stderr and "\x1b" not in proc.stderr
    assert proc.stderr.splitlines()[-1] == "kg: error: RuntimeError: boom at bolt://***@db:7687 \\x1b]0;title\\x07"


def test_ctrl_c_in_a_command_exits_130_quietly(tmp_path):
    (tmp_path / "graph.json").write_text("{}")  # a build without a related index: the command reads the graph
    proc = kg_patched("import kg.store.rows\n"
                      "def load_graph(path):\n"
                      "    raise KeyboardInterrupt\n"
                      "kg.store.rows.load_graph = load_graph", "related", "SCALE", "--graph", str(tmp_path))
    assert proc.returncode == 130 and proc.stderr == "" and proc.stdout == ""


def _blocked_reading(pid: int) -> bool:
    """Whether process ``pid`` sleeps with the pipeline's modules loaded (so it waits on standard input)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state == "S" and "_tagger" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux /proc to see the process wait")
def test_a_real_sigint_while_reading_exits_130_without_a_traceback(tmp_path):
    # (Ctrl-C's default action restored in the child: a test run started in the background by a shell has SIGINT
    # ignored, and an ignored signal stays ignored across exec)
    proc = subprocess.Popen([str(KG), "extract", "-", "--out", str(tmp_path / "p.jsonl")], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        steady = 0
        while steady < 5 and time.monotonic() < deadline:  # asleep on the same wait for half a second
            steady = steady + 1 if _blocked_reading(proc.pid) else 0
            time.sleep(0.1)
        assert steady == 5, "kg extract - never waited for its input"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "Traceback" not in err and out == "", (proc.returncode, err, out)


# --- closed pipes --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["query", "--list"], ["related", "SCALE", "--graph", "OUT"],
                                  ["query", "top_datasets", "--param", "limit=5", "--graph", "OUT"]])
def test_a_pipe_closed_before_the_first_line_ends_quietly(seed_build, args):
    args = [str(seed_build[1]) if a == "OUT" else a for a in args]
    proc = subprocess.Popen([str(KG), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.close()  # the reader is gone before kg has started: its first write meets a closed pipe
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0
    assert err == ""


@pytest.mark.parametrize("command", [  # 1.4 MB and more: head is gone long before the end
    "kg query --graph OUT --cypher 'UNWIND range(1, 200000) AS i RETURN i'",
    "kg query --graph OUT --format json --cypher 'UNWIND range(1, 200000) AS i RETURN i'",
])
def test_piping_into_head_prints_one_line_and_no_traceback(seed_build, command):
    script = f"set -o pipefail; {command.replace('OUT', str(seed_build[1]))} | head -1"
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PATH": f"{KG.parent}:{os.environ['PATH']}"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "" and len(proc.stdout.splitlines()) == 1


# --- --dask without dask -------------------------------------------------------------------------------------------

def test_dask_without_dask_installed_says_how_to_install_it_and_exits_2(tmp_path):
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text("import sys\nsys.modules['dask'] = sys.modules['distributed'] = None\n")
    out = tmp_path / "out"
    proc = kg("build", SEED, "--out", str(out), "--dask", "local:2", env={"PYTHONPATH": str(hide)})
    assert proc.returncode == 2
    assert one_line(proc) == "kg: --dask needs dask: pip install 'kg[dask]'"
    assert not out.exists()  # said before any work


# --- option values -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, option", [
    (["related", "SCALE", "--top", "0"], "--top"),
    (["related", "SCALE", "--top", "-3"], "--top"),
    (["related", "SCALE", "--top", "ten"], "--top"),
    (["load", "out", "--batch-size", "0"], "--batch-size"),
    (["load", "out", "--batch-size", "-5"], "--batch-size"),
    (["build", SEED, "--out", "OUT", "--max-nodes", "0"], "--max-nodes"),
    (["build", SEED, "--out", "OUT", "--max-views", "-1"], "--max-views"),
    (["build", SEED, "--out", "OUT", "--workers", "0"], "--workers"),
    (["extract", SEED, "--out", "OUT", "--workers", "-2"], "--workers"),
    (["viz", "out", "--out", "x.html", "--max-nodes", "0"], "--max-nodes"),
    (["bench", "load", "--papers", "0"], "--papers"),
    (["bench", "related", "gold.jsonl", "--k", "0"], "--k"),
    (["train", "--max-epochs", "0"], "--max-epochs"),
    (["train", "--n-folds", "-1"], "--n-folds"),
])
def test_invalid_option_values_are_refused_by_the_parser_in_one_line(tmp_path, args, option):
    out = tmp_path / "out"
    args = [str(out) if a == "OUT" else a for a in args]
    proc = kg(*args)
    assert proc.returncode == 2
    line = one_line(proc)
    assert line.startswith(f"kg {args[0]}") and f"error: argument {option}" in line and "whole number" in line
    assert not out.exists()


@pytest.mark.parametrize("command", ["build", "extract", "viz"])
def test_an_empty_output_path_is_refused_not_taken_as_the_current_directory(tmp_path, command):
    proc = subprocess.run([str(KG), command, SEED if command != "viz" else "out", "--out", ""], capture_output=True,
                          text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 2 and "argument -o/--out: needs a path" in one_line(proc)
    assert not any(tmp_path.iterdir())


def test_options_that_contradict_each_other_are_refused():
    for args in (["--wipe", "--bulk"], ["--bulk", "--schema-only"]):
        proc = kg("load", "out", *args)
        assert proc.returncode == 2 and "not allowed with" in one_line(proc)


@pytest.mark.parametrize("args, message", [
    (["related", "SCALE", "--json", "--markdown"], "argument --markdown: not allowed with argument --json"),
    (["related", "SCALE", "--format", "json", "--markdown"], "argument --markdown: not allowed with argument --format"),
    (["related", "--dataset", "CIFAR-10", "--task", "RL"], "argument --task: not allowed with argument --dataset"),
    (["related", "--dataset", "PRW", "--by", "task"], "--by ranks the papers related to a paper or words"),
    (["related", "SCALE", "--by", "dataset,"], "argument --by: needs kinds separated by commas, e.g. dataset,task; "
                                               "'dataset,' has an empty one"),
    (["related", "SCALE", "--by", "colour"], "argument --by: unknown kind(s) 'colour'; choose from dataset, task"),
    (["query", "top_datasets", "--param", "limit=3", "--cypher", "RETURN 1 AS a"],
     "kg: give one of a saved query's name, --cypher and --list, not the saved query 'top_datasets' and --cypher"),
    (["query", "top_datasets", "--list"], "not the saved query 'top_datasets' and --list"),
    (["query", "--cypher", ""], "kg: --cypher needs a query"),
    (["query", "--cypher", "  "], "kg: --cypher needs a query"),
    (["viz", "GRAPH", "--kind", "overview", "--focus", "SCALE", "--out", "V"],
     "kg: an overview has no focus; --focus needs --kind paper, dataset, task or method"),
])
def test_options_that_conflict_are_refused_in_one_line_not_one_ignored(seed_build, tmp_path, args, message):
    args = [str(seed_build[1]) if a == "GRAPH" else str(tmp_path / "v.html") if a == "V" else a for a in args]
    graph = ["--graph", str(seed_build[1])] if args[0] != "viz" else []
    proc = kg(*args, *graph)
    assert proc.returncode == 2 and proc.stdout == "" and message in one_line(proc)
    assert not (tmp_path / "v.html").exists()


@pytest.mark.parametrize("out", ["/proc/kg-nope", "FILE/below"])
def test_an_output_directory_that_cannot_be_made_is_bad_input(tmp_path, out):
    (tmp_path / "file").write_text("x")
    out = out.replace("FILE", str(tmp_path / "file"))
    proc = kg("build", SEED, "--out", out, "--quiet")
    assert proc.returncode == 2 and one_line(proc).startswith(f"kg: --out {out}: ")


def test_wipe_with_schema_only_wipes_then_creates_the_schema(monkeypatch, capsys):
    """What a user expects of ``kg load --wipe --schema-only``: an empty database with the schema (the wipe was
    silently skipped once); unconfirmed, nothing is done."""
    import kg.store.neo4j_store as store
    from kg.cli import main

    calls: list[str] = []

    class Driver:
        def close(self) -> None:
            calls.append("close")

    monkeypatch.setattr(store, "connect", lambda cfg: Driver())
    monkeypatch.setattr(store, "wipe", lambda driver, database="neo4j": calls.append("wipe") or 7)
    monkeypatch.setattr(store, "apply_schema", lambda driver, database="neo4j": calls.append("schema"))
    monkeypatch.setattr(store, "counts", lambda driver, database="neo4j": (0, 0))
    monkeypatch.setattr(store, "fill_empty_lists", lambda driver, database="neo4j": 0)
    assert main(["load", "out", "--wipe", "--schema-only", "--yes"]) == 0
    assert calls == ["wipe", "schema", "close"]
    assert "wiped 7 nodes" in capsys.readouterr().err
    calls.clear()
    monkeypatch.setattr("sys.stdin", None)  # no terminal to answer: not confirmed, the user's choice (not a store's)
    assert main(["load", "out", "--wipe", "--schema-only"]) == 2
    assert calls == ["close"] and "wipe not confirmed" in capsys.readouterr().err


def test_an_empty_query_is_an_error_not_a_ranking(seed_build):
    for args in (["related", ""], ["related", "  "], ["related", "--dataset", ""]):
        proc = kg(*args, "--graph", str(seed_build[1]))
        assert proc.returncode == 2 and proc.stdout == ""
        one_line(proc)


def test_a_paper_and_a_concept_together_are_refused_not_one_ignored(seed_build):
    proc = kg("related", "SCALE", "--dataset", "PRW", "--graph", str(seed_build[1]))
    assert proc.returncode == 2 and proc.stdout == "" and "not both" in one_line(proc)


@pytest.mark.parametrize("name, hint", [
    ("Penn Treebank", "Dataset names, e.g. AIGIBench, Chameleon"),  # nothing close: some of what there is
    ("ImageNet", "did you mean GenImage?"),
    ("COCO-D", "did you mean COCO-C, COCO?"),
    ("Flickr", "did you mean Flickr-C?"),  # a name with it inside
])
def test_an_unknown_concept_names_what_the_graph_has(seed_build, name, hint):
    proc = kg("related", "--dataset", name, "--graph", str(seed_build[1]))
    assert proc.returncode == 2 and hint in one_line(proc)


def test_an_unknown_view_focus_names_nodes_by_their_names_not_their_keys(seed_build, tmp_path):
    proc = kg("viz", str(seed_build[1]), "--kind", "dataset", "--focus", "Nope", "--out", str(tmp_path / "v.html"))
    message = one_line(proc)
    assert proc.returncode == 2 and "COCO-C" in message and "cococ" not in message
    proc = kg("viz", str(seed_build[1]), "--kind", "dataset", "--out", str(tmp_path / "v.html"))
    assert proc.returncode == 2 and "--focus" in one_line(proc)


def test_messages_about_files_and_counts_read_right(tmp_path):
    missing = kg("extract", str(tmp_path / "nothere.jsonl"), "--out", str(tmp_path / "x.jsonl"))
    assert f"{tmp_path / 'nothere.jsonl'}: no such file" in missing.stderr and ":0:" not in missing.stderr
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps({"id": "a", "text": "We propose FooNet for image classification."}) + "\n")
    proc = kg("extract", str(one), "--out", str(tmp_path / "x.jsonl"))
    assert proc.returncode == 0 and "extracted 1 paper ->" in proc.stderr


def test_a_missing_input_is_said_once_without_a_count_of_nothing(tmp_path):
    proc = kg("build", str(tmp_path / "nothere.jsonl"), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and proc.stderr.splitlines() == [f"{tmp_path / 'nothere.jsonl'}: no such file",
                                                                 "kg: no usable records in the input"]


def test_a_param_written_as_two_words_is_told_how_to_write_it(seed_build):
    proc = kg("query", "papers_on_dataset", "--param", "dataset", "PRW", "--graph", str(seed_build[1]))
    assert proc.returncode == 2 and "--param takes KEY=VALUE in one word" in one_line(proc)
    proc = kg("query", "papers_on_dataset", "--param", "dataset=PRW", "extra", "--graph", str(seed_build[1]))
    assert proc.returncode == 2 and "KEY=VALUE" not in one_line(proc)


def test_by_takes_a_kind_in_the_plural_as_related_by_does(seed_build):
    proc = kg("related", "SCALE", "--by", "Datasets", "--graph", str(seed_build[1]), "--format", "json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["weights"] == {"Dataset": 3.0, "Task": 0.0, "Method": 0.0,
                                                                           "Metric": 0.0}


def test_a_parameter_beyond_64_bits_is_refused(seed_build):
    proc = kg("query", "top_datasets", "--param", "limit=" + "9" * 30, "--graph", str(seed_build[1]))
    assert proc.returncode == 2 and "64-bit" in one_line(proc)


def test_extract_refuses_to_overwrite_its_input(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "a", "text": "We propose FooNet."}) + "\n")
    proc = kg("extract", str(src), "--out", str(src))
    assert proc.returncode == 2 and "one of the inputs" in one_line(proc)
    proc = kg("extract", str(src), "--out", str(tmp_path))
    assert proc.returncode == 2 and "is a directory" in one_line(proc) and "kg-new" not in proc.stderr
    assert json.loads(src.read_text())["id"] == "a"


# --- secrets -------------------------------------------------------------------------------------------------------

def test_a_password_in_neo4j_uri_is_never_printed(seed_build):
    env = {"NEO4J_URI": "bolt://neo4j:S3CRET-PASS@127.0.0.1:1", "NEO4J_PASSWORD": ""}
    proc = kg("load", str(seed_build[1]), "--quiet", env=env)
    assert proc.returncode == 3
    line = one_line(proc)
    assert "S3CRET" not in line and "127.0.0.1:1" in line
    proc = kg("query", "top_datasets", "--param", "limit=3", "--neo4j", "neo4j://u:S3CRET@127.0.0.1:1")
    assert proc.returncode == 3 and "S3CRET" not in one_line(proc)


def test_an_unsupported_uri_scheme_names_the_supported_ones(seed_build):
    proc = kg("load", str(seed_build[1]), "--quiet", env={"NEO4J_URI": "http://neo4j:S3CRET@127.0.0.1:7474"})
    assert proc.returncode == 3
    line = one_line(proc)
    assert "S3CRET" not in line and "http://127.0.0.1:7474" in line and "bolt://" in line and "neo4j+s://" in line


def test_credentials_in_the_uri_become_the_connection_settings():
    cfg = Neo4jConfig.from_env({"NEO4J_URI": "bolt://alice:p%40ss@db:7687", "NEO4J_PASSWORD": "other"})
    assert (cfg.uri, cfg.user, cfg.password) == ("bolt://db:7687", "alice", "p@ss")
    assert "p@ss" not in repr(cfg)
    explicit = Neo4jConfig.from_env({"NEO4J_URI": "bolt://alice:x@db"}, user="bob", password="y")
    assert (explicit.uri, explicit.user, explicit.password) == ("bolt://db", "bob", "y")
    assert Neo4jConfig(uri="neo4j://a:b@h").uri == "neo4j://h"
    assert redact_uri("bolt://u:p@ss/w@h:1") == "bolt://***@h:1" and redact_uri("bolt://h:1") == "bolt://h:1"
    with pytest.raises(StoreError, match="not a valid URI"):
        check_uri("bolt://h:99999")


def test_redact_and_safe():
    assert redact("at bolt://neo4j:PASS@h:7687 and neo4j+s://x@y") == "at bolt://***@h:7687 and neo4j+s://***@y"
    assert redact("bolt://localhost:7687/db, mail a@b") == "bolt://localhost:7687/db, mail a@b"
    assert safe("a\x1b[2Jb\x07c\u009b\u202ed") == "a\\x1b[2Jb\\x07c\\x9b\\u202ed"
    assert safe("one\ntwo\tthree") == "one\\x0atwo\\x09three"
    assert safe("one\ntwo\tthree\r", multiline=True) == "one\ntwo\tthree\\x0d"
    text = json.dumps({"k": "x\x1b\x9b\u2028y"}, ensure_ascii=False)
    assert "\x9b" in text and json.loads(safe_json(text)) == {"k": "x\x1b\x9b\u2028y"}
    assert "\x9b" not in safe_json(text) and "\u2028" not in safe_json(text)


# --- terminal control characters -----------------------------------------------------------------------------------

EVIL = "We propose FooNet\x1b]0;pwned\x07\x1b[2J, a new network, and evaluate it on the ImageNet dataset with accuracy."


@pytest.fixture(scope="module")
def evil_build(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("evil")
    src = tmp / "c.jsonl"
    src.write_text(json.dumps({"id": "e1", "text": EVIL}) + "\n"
                   + json.dumps({"id": "e2", "text": "We evaluate ResNet on ImageNet with top-1 accuracy."}) + "\n")
    proc = kg("build", str(src), "--out", str(tmp / "out"), "--quiet")
    assert proc.returncode == 0, proc.stderr
    graph = (tmp / "out" / "graph.json").read_text()
    assert "\\u001b]0;pwned" in graph  # the data does hold the sequence: what follows tests kg's printing
    return tmp / "out"


@pytest.mark.parametrize("args", [
    ["related", "--dataset", "ImageNet"],
    ["query", "papers_on_dataset", "--param", "dataset=ImageNet"],
    ["query", "papers_on_dataset", "--param", "dataset=ImageNet", "--format", "csv"],
    ["query", "paper_concepts", "--param", "paper=paper:e1"],
])
def test_control_characters_from_the_data_are_escaped(evil_build, args):
    proc = kg(*args, "--graph", str(evil_build))
    assert proc.returncode == 0, proc.stderr
    assert "FooNet" in proc.stdout and "\\x1b]0;pwned\\x07" in proc.stdout
    assert not any(c in proc.stdout for c in "\x1b\x07\x9b")


def test_json_output_keeps_the_data_and_stays_json(evil_build):
    proc = kg("query", "papers_on_dataset", "--param", "dataset=ImageNet", "--format", "json",
              "--graph", str(evil_build))
    assert proc.returncode == 0 and "\x1b" not in proc.stdout
    assert any("\x1b]0;pwned\x07" in row["evidence"] for row in json.loads(proc.stdout))


def test_a_file_name_with_a_newline_stays_on_one_line(tmp_path):
    src = tmp_path / "bad\n\x1b[2Jname.jsonl"
    src.write_text("{broken\n")
    proc = kg("extract", str(src), "--out", str(tmp_path / "p.jsonl"))
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert lines[0].startswith(str(tmp_path) + "/bad\\x0a\\x1b[2Jname.jsonl:1: ")
    assert "\x1b" not in proc.stderr and "Traceback" not in proc.stderr


_TERMINATED = """
import multiprocessing, os, sys, time
from kg.cli.guard import run_guarded

def command(args):
    child = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(60,), daemon=False)
    child.start()
    print(child.pid, flush=True)
    time.sleep(60)
    return 0

if __name__ == "__main__":
    sys.exit(run_guarded(command, None))
"""


def test_sigterm_ends_what_a_command_started_then_the_command_at_once(tmp_path):
    script = tmp_path / "terminated.py"
    script.write_text(_TERMINATED, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    child = int(proc.stdout.readline())
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 143 and time.monotonic() - started < 10
    assert "Traceback" not in proc.stderr.read()
    with pytest.raises(ProcessLookupError):  # the child was ended, and reaped, before the command exited
        os.kill(child, 0)


def test_a_command_leaves_the_callers_sigterm_handler_as_it_was():
    import argparse

    from kg.cli.guard import run_guarded

    def mine(signum, frame) -> None:
        raise AssertionError("not called")

    previous = signal.signal(signal.SIGTERM, mine)
    try:
        seen = []
        assert run_guarded(lambda args: seen.append(signal.getsignal(signal.SIGTERM)) or 0, argparse.Namespace()) == 0
        assert seen[0] is not mine and signal.getsignal(signal.SIGTERM) is mine  # its own while it runs
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a caller that ignores SIGTERM keeps ignoring it
        assert run_guarded(lambda args: seen.append(signal.getsignal(signal.SIGTERM)) or 0, argparse.Namespace()) == 0
        assert seen[1] == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, previous)
