"""Shared fixtures: the seed graph (built once per session) and a real Neo4j server for tests marked ``neo4j``."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "examples" / "icml"


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory):
    """``kg build examples/icml`` into a temporary directory: (report, out dir)."""
    import kg

    out = tmp_path_factory.mktemp("seed-out")
    return kg.build([str(SEEDS)], out), out


@pytest.fixture(scope="session")
def neo4j_config():
    """Settings of the Neo4j that ``make test`` starts (scripts/neo4j-up.sh). In CI a missing server fails the
    tests; on a laptop without Java they are skipped with a message."""
    from kg.store.neo4j_store import Neo4jConfig, StoreError, connect

    cfg = Neo4jConfig.from_env(dict(os.environ), uri=os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687"))
    try:
        connect(cfg).close()
    except StoreError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"Neo4j is required in CI and did not answer: {exc}")
        pytest.skip(f"no Neo4j server ({exc}); `make test` starts one with scripts/neo4j-up.sh")
    return cfg


@pytest.fixture
def neo4j_driver(neo4j_config):
    """A driver on an empty database (wiped before each test)."""
    from kg.store.neo4j_store import connect, wipe

    driver = connect(neo4j_config)
    wipe(driver, neo4j_config.database)
    yield driver
    driver.close()


SYNTHETIC_PAPERS = 2000  # enough for ties, long lists and the hierarchy to show; written in about a second


@pytest.fixture(scope="session")
def synthetic_store(tmp_path_factory):
    """A synthetic graph of SYNTHETIC_PAPERS papers (kg.bench.synthetic) and its embedded store: (graph, store path)."""
    from kg.bench.synthetic import synthetic_graph
    from kg.store.embedded import write_ladybug

    g = synthetic_graph(SYNTHETIC_PAPERS)
    return g, write_ladybug(g, tmp_path_factory.mktemp("synthetic") / "graph.lbug")
