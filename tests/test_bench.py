"""Smoke test of the benchmark command (the real runs are outside the test suite; see the README)."""
from __future__ import annotations

import json

from kg.cli import main


def test_bench_runs_on_200_documents_and_reports_every_figure(capsys):
    assert main(["bench", "--docs", "200", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("docs", "extract_docs_per_s_per_core", "tokenizer_docs_per_s_per_core", "ratio", "build_s", "peak_rss_mb"):
        assert key in result
    assert result["docs"] == 200 and result["nodes"] > 200 and result["compiled"] is True
    assert 0 < result["ratio"] < 1 and result["extract_docs_per_s_per_core"] > 0
    assert 0 < result["paired_ratio"] < 1 and result["paired_docs"] == min(result["docs"], 2000)
    # the embeddings of related work, timed apart from the extraction (make install installs the encoder)
    assert result["embed_docs_per_s"] > 0 and result["embed_s"] == round(200 / result["embed_docs_per_s"], 1)
    for key in ("export_json_s", "export_graphml_s", "export_csv_s", "export_embedded_store_s", "views_s"):
        assert result[key] > 0
    stages = result["rss_mb"]
    assert {"start", "read", "extract", "resolve_finish", "stream", "views"} <= set(stages)
    assert all(v > 0 for v in stages.values()) and max(stages.values()) <= result["peak_rss_mb"] + 1
    assert result["peak_total_pss_mb"] > 0 and result["peak_child_pss_mb"] < result["peak_total_pss_mb"]


def test_bench_refuses_no_documents_or_no_workers_and_its_help_shows_its_options(capsys):
    import pytest

    for args in (["--docs", "0"], ["--workers", "0"]):
        with pytest.raises(SystemExit) as exit_:
            main(["bench", *args])
        assert exit_.value.code == 2
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    out = capsys.readouterr().out
    assert "--docs" in out and "--json" in out and "kg bench load" in out


def test_bench_load_help_says_it_deletes_everything_in_the_database(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["bench", "load", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "deletes everything in that database" in out and "--yes" in out


def test_tree_memory_counts_child_processes():
    import subprocess
    import sys
    import time

    from kg.bench.benchmarks import tree_pss_mb

    before, _ = tree_pss_mb()
    child = subprocess.Popen([sys.executable, "-c", "import sys, time; x = b'x' * 300_000_000; print(1, flush=True); "
                              "time.sleep(30)"], stdout=subprocess.PIPE)
    try:
        child.stdout.readline()  # the child holds its 300 MB now
        time.sleep(0.2)
        total, largest_child = tree_pss_mb()
        assert total - before > 250 and 250 < largest_child < total
    finally:
        child.kill()
        child.wait()


def test_bench_related_times_a_synthetic_graph(capsys):
    assert main(["bench", "related", "--papers", "300"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["papers"] == 300 and result["index_warm_query_s"] >= 0 and result["graph_warm_query_s"] >= 0
    assert main(["bench", "related"]) == 2  # neither a gold file nor --papers
