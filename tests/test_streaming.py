"""The streaming build: files written in one pass from the build cache hold exactly the in-memory graph; big
builds draw their views from a sample; the cache survives a torn write; views are the same from run to run."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx

import kg
from kg.build.cache import BuildCache
from kg.build.jsontext import dumps
from kg.model import Extraction, Mention, Span
from kg.build.resolve import resolve

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "examples" / "icml"


def test_streamed_files_hold_exactly_the_in_memory_graph(seed_build):
    _, out = seed_build
    memory = kg.build([str(SEEDS)]).graph  # no output directory: networkx only
    streamed = nx.node_link_graph(json.loads((out / "graph.json").read_text()), edges="links")
    assert list(streamed.nodes(data=True)) == list(memory.nodes(data=True))
    assert list(streamed.edges(keys=True, data=True)) == list(memory.edges(keys=True, data=True))
    graphml = nx.read_graphml(out / "graph.graphml", force_multigraph=True)
    assert list(graphml.nodes) == list(memory.nodes) and graphml.number_of_edges() == memory.number_of_edges()


def test_views_of_a_build_over_the_limit_draw_a_sample_and_the_files_keep_everything(tmp_path):
    report = kg.build([str(SEEDS)], tmp_path, view_papers=10)
    assert report.sampled
    sample = [n for n, d in report.graph.nodes(data=True) if d["type"] == "Paper"]
    assert 0 < len(sample) <= 10
    whole = json.loads((tmp_path / "graph.json").read_text())
    assert sum(n["type"] == "Paper" for n in whole["nodes"]) == 38
    assert report.counts()["Paper"] == 38 and "papers      38" in report.summary()
    assert f"sample of {len(sample)} papers" in report.summary()
    index = (tmp_path / "views" / "index.html").read_text()
    assert "38 papers" in index and f"sample of {len(sample)} papers" in index
    overview = (tmp_path / "views" / "overview.html").read_text()
    assert f"of a sample of {len(sample)} papers" in overview and "of the whole graph" not in overview
    # every edge of the sample ends at a node it holds, with the whole corpus's paper counts on concepts
    assert all(v in report.graph for _, v in report.graph.edges())
    names = {n["id"]: n for n in whole["nodes"]}
    assert all(report.graph.nodes[n]["papers"] == names[n]["papers"] for n in report.graph
               if report.graph.nodes[n]["type"] != "Paper" and "papers" in report.graph.nodes[n])


def test_a_torn_cache_record_is_dropped_and_the_rest_kept(tmp_path):
    kg.build([str(SEEDS)], tmp_path)
    path = BuildCache(tmp_path).path
    records = len(path.read_text().splitlines())
    with path.open("a", encoding="utf-8") as fh:
        fh.write('["' + "ab" * 32 + '", {"mentions": [')  # a build stopped mid-write
    cache = BuildCache(tmp_path)
    assert len(cache.offsets) == records and path.read_text().endswith("\n")
    again = kg.build([str(SEEDS)], tmp_path)
    assert again.extracted == 0 and again.papers == 38


def _mention(text: str, canonical: str) -> Mention:
    return Mention(0, len(text), "METHOD", text, canonical, "gazetteer", Span(0, len(text)))


def test_a_paper_naming_a_concept_two_ways_counts_once_after_merging():
    # paper a names both forms without defining the pair; paper b defines it, which merges the two names
    a = Extraction("a", [_mention("LoRA", "LoRA"), _mention("low-rank adaptation", "low-rank adaptation")])
    b = Extraction("b", [_mention("low-rank adaptation", "low-rank adaptation")], aliases={"low-rank adaptation": ["LoRA"]})
    res = resolve([a, b])
    assert len(res.concepts) == 1 and res.papers == 2
    (concept,) = res.concepts.values()
    assert concept.papers == 2


def test_a_view_is_the_same_file_whatever_the_string_hashing(seed_build, tmp_path):
    _, out = seed_build
    pages = []
    for seed in ("1", "2"):
        page = tmp_path / f"cuhk-{seed}.html"
        subprocess.run([str(Path(sys.executable).with_name("kg")), "viz", str(out), "--kind", "dataset", "--focus", "CUHK-SYSU",
                        "--out", str(page)], check=True, env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True)
        pages.append(page.read_bytes())
    assert pages[0] == pages[1]


def test_csvs_and_store_written_by_a_second_process_are_the_same(seed_build, tmp_path):
    from kg.store.embedded import connect

    _, serial = seed_build  # 38 papers: written in this process
    kg.build([str(SEEDS)], tmp_path, parallel=True)
    csvs = sorted(p.name for p in (serial / "neo4j").iterdir())
    assert csvs == sorted(p.name for p in (tmp_path / "neo4j").iterdir()) and "rels_USES.csv" in csvs
    for name in ["graph.graphml", "graph.json", "mentions.jsonl"] + [f"neo4j/{n}" for n in csvs]:
        assert (tmp_path / name).read_bytes() == (serial / name).read_bytes(), name
    query = "MATCH (p:Paper)-[r]->(c) RETURN label(r) AS rel, count(*) AS n ORDER BY rel"
    rows = [connect(d / "graph.lbug").execute(query).get_all() for d in (serial, tmp_path)]
    assert rows[0] == rows[1] and rows[0]


STORE_QUERIES = ("MATCH (n) RETURN n.id, n.name ORDER BY n.id",
                 "MATCH (a)-[e]->(b) RETURN a.id, b.id, label(e), e.evidence, e.count ORDER BY a.id, b.id, label(e)",
                 "MATCH (p:Paper) RETURN p.id, p.authors, p.source, p.abstract ORDER BY p.id")


def test_a_store_loaded_slice_by_slice_while_the_build_writes_holds_the_same_graph(seed_build, tmp_path, monkeypatch):
    import kg.build.builder
    import kg.sinks.neo4j_csv
    from kg.store.embedded import connect
    from kg.store.queries import run_embedded

    _, serial = seed_build
    monkeypatch.setattr(kg.sinks.neo4j_csv, "PART_BYTES", 4096)  # a slice every few papers, each loaded as it is cut
    monkeypatch.setattr(kg.sinks.neo4j_csv, "PART_CHECK", 1)
    cut = []
    boundary = kg.sinks.neo4j_csv.Neo4jCsvSink.boundary
    monkeypatch.setattr(kg.sinks.neo4j_csv.Neo4jCsvSink, "boundary", lambda self: cut.append(boundary(self)) or cut[-1])
    sent = []  # boundaries seen when each slice went to the other process
    send = kg.build.builder.SideJob.send
    monkeypatch.setattr(kg.build.builder.SideJob, "send", lambda self, message: sent.append(len(cut)) or send(self, message))
    kg.build([str(SEEDS)], tmp_path, parallel=True)
    assert sum(cut) > 5
    assert sent[0] < len(cut) and len(sent) > sum(cut)  # slices went over while the pass was writing
    for name in ["graph.json"] + [f"neo4j/{p.name}" for p in (serial / "neo4j").iterdir()]:
        assert (tmp_path / name).read_bytes() == (serial / name).read_bytes(), name
    built, expected = connect(tmp_path / "graph.lbug"), connect(serial / "graph.lbug")
    try:
        for q in STORE_QUERIES:
            assert run_embedded(built, q, {}) == run_embedded(expected, q, {})
    finally:
        built.close()
        expected.close()


def _fail(x: int) -> None:
    raise ValueError(f"bad {x}")


def test_a_side_job_returns_its_result_and_raises_its_error_here():
    import pytest

    from kg.build.builder import SideJob

    assert SideJob(pow, 2, 10).result() == 1024
    with pytest.raises(RuntimeError, match="ValueError: bad 3"):
        SideJob(_fail, 3).result()


def _total(inbox, start: int) -> int:
    total = start
    while (x := inbox.recv()) is not None:
        if x < 0:
            raise ValueError(f"negative {x}")
        total += x
    return total


def test_a_side_job_reads_its_inbox_and_an_error_there_stops_the_sender():
    import pytest

    from kg.build.builder import SideJob

    job = SideJob(_total, 100, inbox=True)
    for x in range(10):
        job.send(x)
    job.send(None)
    assert job.result() == 145
    job = SideJob(_total, 0, inbox=True)
    job.send(-1)
    with pytest.raises(RuntimeError, match="ValueError: negative -1"):
        for _ in range(100_000):  # until the pipe says the job has gone
            job.send(1)


def test_cache_records_round_trip_every_field():
    from kg.build.cache import extraction_from_json, extraction_to_json
    from kg.model import Result

    ex = Extraction("p", [Mention(3, 9, "DATASET", "CIFAR", "CIFAR-10", "gazetteer", Span(0, 20), False, True, 0.75)],
                    [Result("91.2", "ResNet", "CIFAR-10", "accuracy", Span(0, 20)), Result("3", None, None, None, Span(1, 2))],
                    {"CIFAR-10": ["CIFAR"]}, [Mention(0, 2, "METHOD", "linear models", "linear models", "model", Span(0, 20))])
    back = extraction_from_json("p", json.loads(json.dumps(extraction_to_json(ex))))
    assert back == ex


def test_views_written_by_two_processes_are_the_same_files(seed_build, tmp_path):
    from kg.viz import render_site

    graph = seed_build[0].graph
    render_site(graph, tmp_path / "one", max_views=5)
    render_site(graph, tmp_path / "two", max_views=5, workers=2)
    pages = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    assert len(pages) > 10
    assert pages == sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*") if p.is_file())
    for page in pages:
        assert (tmp_path / "one" / page).read_bytes() == (tmp_path / "two" / page).read_bytes(), page


def test_the_embedded_store_loaded_slice_by_slice_holds_the_same_graph(seed_build, tmp_path, monkeypatch):
    import kg.sinks.neo4j_csv
    from kg.store.embedded import connect, write_ladybug
    from kg.store.queries import run_embedded

    report, out = seed_build
    monkeypatch.setattr(kg.sinks.neo4j_csv, "PART_BYTES", 2048)  # many slices
    monkeypatch.setattr(kg.sinks.neo4j_csv, "PART_CHECK", 1)
    sink = kg.sinks.neo4j_csv.Neo4jCsvSink(tmp_path / "csv")
    kg.sinks.neo4j_csv.feed(report.graph, sink)
    assert len(sink.slices) > 5
    for name in sink.slices[0]:  # every file cut at the same boundaries, from its header line to its end
        ranges = [part[name] for part in sink.slices]
        data = (tmp_path / "csv" / name).read_bytes()
        assert ranges[0][0] == data.index(b"\n") + 1 and ranges[-1][1] == len(data)
        assert all(a[1] == b[0] and a[0] <= a[1] for a, b in zip(ranges, ranges[1:]))
    write_ladybug(report.graph, tmp_path / "sliced.lbug")
    for q in STORE_QUERIES:
        assert run_embedded(connect(tmp_path / "sliced.lbug"), q, {}) == run_embedded(connect(out / "graph.lbug"), q, {})


def test_a_paper_is_named_by_the_opening_of_its_cleaned_abstract_even_with_markup_across_the_cut():
    from kg.corpus.clean import clean
    from kg.build.elements import PREFIX_CHARS, _first_words, _opening

    words = "word " * (PREFIX_CHARS // 5 - 3)
    for raw in ("We study \\emph{robust} **learning** of $\\mathcal{O}(n)$ maps " + words,
                words + "\\emph{a very long emphasis that runs " + words + "past the cut}",
                words + "$x + y = z$ and more text after it " * 3,
                "Short \\textbf{abstract}."):
        assert _opening(raw) == _first_words(clean(raw).text)


def test_a_load_that_runs_out_of_buffer_pool_starts_again_with_more(seed_build, tmp_path, monkeypatch):
    import kg.sinks.neo4j_csv
    from kg.store import embedded
    from kg.store.queries import run_embedded

    report, out = seed_build
    monkeypatch.setattr(kg.sinks.neo4j_csv, "PART_BYTES", 16384)  # a few slices: a later one runs out, the first ones reload
    monkeypatch.setattr(kg.sinks.neo4j_csv, "PART_CHECK", 1)
    sink = kg.sinks.neo4j_csv.Neo4jCsvSink(tmp_path / "csv")
    kg.sinks.neo4j_csv.feed(report.graph, sink)
    pools = []
    database = embedded.ladybug.Database
    monkeypatch.setattr(embedded, "LOAD_BUFFER_POOL", 4 << 20)  # too small for the seed graph
    monkeypatch.setattr(embedded.ladybug, "Database", lambda path, buffer_pool_size: pools.append(buffer_pool_size)
                        or database(path, buffer_pool_size=buffer_pool_size))
    embedded.load_ladybug(tmp_path / "csv", tmp_path / "grown.lbug", sink.slices)
    monkeypatch.undo()
    assert len(sink.slices) > 1 and len(pools) > 1 and pools == [4 << 20 << i for i in range(len(pools))]
    q = "MATCH (a)-[e]->(b) RETURN a.id, b.id, label(e), e.evidence ORDER BY a.id, b.id, label(e)"
    assert run_embedded(embedded.connect(tmp_path / "grown.lbug"), q, {}) == \
        run_embedded(embedded.connect(out / "graph.lbug"), q, {})


def test_a_last_checkpoint_that_runs_out_of_buffer_pool_loads_again_with_more(seed_build, tmp_path, monkeypatch):
    import kg.sinks.neo4j_csv
    from kg.store import embedded
    from kg.store.queries import run_embedded

    report, out = seed_build
    sink = kg.sinks.neo4j_csv.Neo4jCsvSink(tmp_path / "csv")
    kg.sinks.neo4j_csv.feed(report.graph, sink)
    loader = embedded.StoreLoader(tmp_path / "csv", tmp_path / "s.lbug", forward_only=False)
    for part in sink.slices:
        loader.add(part)
    first, failed = loader.conn, []
    execute = embedded.ladybug.Connection.execute

    def checkpoint_fails_once(self, query, *args, **kwargs):  # the engine's error, which seed data cannot provoke
        if query == "CHECKPOINT" and not failed:
            failed.append(self)
            raise RuntimeError("Buffer manager exception: Unable to allocate memory! The buffer pool is full and no "
                               "memory could be freed!")
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(embedded.ladybug.Connection, "execute", checkpoint_fails_once)
    loader.finish()
    monkeypatch.undo()
    assert failed == [first] and loader.pool == 2 * embedded.LOAD_BUFFER_POOL and loader.conn is None
    loader.close()  # closing again does nothing
    q = "MATCH (a)-[e]->(b) RETURN a.id, b.id, label(e), e.evidence ORDER BY a.id, b.id, label(e)"
    built, expected = embedded.connect(tmp_path / "s.lbug"), embedded.connect(out / "graph.lbug")
    try:
        assert run_embedded(built, q, {}) == run_embedded(expected, q, {})
    finally:
        built.close()
        expected.close()


def test_a_load_that_fails_closes_its_store(tmp_path, monkeypatch):
    import pytest

    from kg.store import embedded

    (tmp_path / "csv").mkdir()
    (tmp_path / "csv" / "nodes_Paper.csv").write_text("id:ID\nbroken,row,\"\n")
    closed = []
    close = embedded.StoreLoader.close
    monkeypatch.setattr(embedded.StoreLoader, "close", lambda self: closed.append(self.conn is not None) or close(self))
    with pytest.raises(RuntimeError):
        embedded.load_ladybug(tmp_path / "csv", tmp_path / "s.lbug", forward_only=False)
    assert closed and closed[0]


def test_csv_lines_are_what_the_csv_module_writes():
    import csv
    import io

    from kg.sinks.neo4j_csv import csv_line

    rows = [["plain", "", "with, comma", 'say "hi"', "line\nbreak", "carriage\rreturn", "crlf\r\n", '"', ",", "é ü ∑"],
            ['[{"sentence": "A, B \\"C\\"", "start_char": 3}]', "paper:x", "method:y", "USES"], ["", "", ""], [""],
            ["", "x"]]
    expected = io.StringIO()
    writer = csv.writer(expected)
    for row in rows:
        writer.writerow(row)
    assert "".join(csv_line(row) for row in rows) == expected.getvalue()


def test_json_links_keep_evidence_that_holds_the_sinks_own_marker(tmp_path):
    from kg.sinks.json import JsonSink

    odd = "A sentence with \x00kg:evidence\x00 in it."
    links = [{"type": "USES", "count": 1, "evidence": [{"sentence": odd, "start_char": 0}], "sentence": odd},
             {"type": "USES", "count": 2, "evidence": [{"sentence": "plain, \"quoted\""}, {"sentence": "é"}]},
             {"type": "IN_METRIC"},
             {"type": "\x00kg:evidence\x00", "evidence": [{"sentence": "\x00kg:evidence\x00"}], "sentence": "\x00kg:evidence\x00"}]
    sink = JsonSink(tmp_path / "g.json", {})
    for i, d in enumerate(links):
        sink.node(f"n{i}", {"type": "Paper"})
        sink.edge(f"n{i}", "m", d["type"], d)
    sink.close()
    data = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert [{k: v for k, v in link.items() if k not in ("source", "target", "key")} for link in data["links"]] == links
    text = (tmp_path / "g.json").read_text(encoding="utf-8")
    lines = text[text.index('"links": [') + len('"links": ['):text.rindex("]}")].strip().split(",\n")
    assert lines == [dumps({**d, "source": f"n{i}", "target": "m", "key": d["type"]}) for i, d in enumerate(links)]


def test_csv_rows_of_a_graph_with_other_than_string_ids(tmp_path):
    from kg.sinks.neo4j_csv import write_neo4j_csv

    g = nx.MultiDiGraph()
    g.add_node(1, type="Paper", name="one")
    g.add_node(2, type="Method", name="two")
    g.add_edge(1, 2, key="USES", type="USES", count=1)
    write_neo4j_csv(g, tmp_path)
    assert (tmp_path / "nodes_Paper.csv").read_text(encoding="utf-8").splitlines()[1].startswith("1,one,")
    assert (tmp_path / "rels_USES.csv").read_text(encoding="utf-8").splitlines()[1].startswith("1,2,USES,")


def test_json_text_reads_back_as_the_standard_library_writes_it():
    import numpy

    value = {"a": [1, 2.5, None, True], "é": "line\nbreak \u2028 \x00", 3: "number key", "np": numpy.float64(0.25),
             "n32": numpy.float32(0.5), "tuple": (1, "x")}
    assert json.loads(dumps(value)) == json.loads(json.dumps({**value, "np": 0.25, "n32": 0.5}))


def test_plain_text_is_what_the_xml_escape_regex_leaves_alone():
    from kg.sinks.graphml import _XML_SPECIAL, _plain_text

    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        for text in (chr(cp), f"a sentence with {chr(cp)} in it", f"{chr(cp)}\n{chr(cp)}"):
            assert _plain_text(text) == (_XML_SPECIAL.search(text) is None), hex(cp)
