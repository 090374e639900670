"""Smoke test of the benchmark command (the real runs are outside the test suite; see the README)."""
from __future__ import annotations

import json

from kg.cli import main


def test_bench_runs_on_200_documents_and_reports_every_figure(capsys):
    assert main(["bench", "--docs", "200", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("docs", "extract_docs_per_s_per_core", "tokenizer_docs_per_s_per_core", "ratio", "build_s", "peak_rss_mb"):
        assert key in result
    assert result["docs"] == 200 and result["nodes"] > 200
    assert 0 < result["ratio"] < 1 and result["extract_docs_per_s_per_core"] > 0
    for key in ("export_json_s", "export_graphml_s", "export_csv_s", "export_embedded_store_s", "views_s"):
        assert result[key] > 0
    stages = result["rss_mb"]
    assert {"start", "read", "extract", "resolve", "stream", "views"} <= set(stages)
    assert all(v > 0 for v in stages.values()) and max(stages.values()) <= result["peak_rss_mb"] + 1
