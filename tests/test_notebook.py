"""The walkthrough notebook runs top to bottom (outputs are not committed)."""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def executed() -> nbformat.NotebookNode:
    """The notebook, run in a kernel that has this process's environment."""
    nb = nbformat.read(ROOT / "notebooks" / "explore.ipynb", as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "commit the notebook without outputs"
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    return nb


def printed(nb: nbformat.NotebookNode) -> str:
    return "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))


def test_explore_notebook_executes(tmp_path):
    nb = executed()
    text = printed(nb)
    assert "papers      38" in text
    assert "EVALUATES_ON  CUHK-SYSU" in text
    assert "LinearTCA" in text and "shares task test-time adaptation" in text  # kg.related
    assert "SCALE" in text and "(1 row)" in text  # saved Cypher on the embedded store
    frame = "".join(o.get("data", {}).get("text/html", "") for o in nb.cells[-1].get("outputs", []))
    assert 'src="../out/notebook/views/overview.html"' in frame  # relative to the notebook: Jupyter serves it


@pytest.mark.neo4j
def test_the_notebook_writes_into_an_empty_neo4j_database_only(neo4j_driver, neo4j_config, monkeypatch):
    """A database that holds another graph is queried as it is; an empty one gets the example graph."""
    import networkx as nx

    from kg.store.neo4j_store import counts, load_graph_into

    db = neo4j_config.database
    for name, value in (("NEO4J_URI", neo4j_config.uri), ("NEO4J_USER", neo4j_config.user),
                        ("NEO4J_PASSWORD", neo4j_config.password or ""), ("NEO4J_DATABASE", db)):
        monkeypatch.setenv(name, value)
    other = nx.MultiDiGraph()
    other.add_node("paper:other", type="Paper", name="Other", authors=["A. Author"], source=[])
    other.add_node("dataset:coco", type="Dataset", name="COCO", aliases=["MS COCO"], papers=1, idf=2.5)
    other.add_edge("paper:other", "dataset:coco", key="EVALUATES_ON", sentence="We evaluate on COCO.")
    load_graph_into(neo4j_driver, other, database=db)
    query = "MATCH (d:Dataset {id: 'dataset:coco'}) RETURN d.papers AS papers, d.aliases AS aliases"
    text = printed(executed())
    assert counts(neo4j_driver, db) == (2, 1) and "holds 2 nodes: querying them as they are" in text
    records, _, _ = neo4j_driver.execute_query(query, database_=db)
    assert (records[0]["papers"], records[0]["aliases"]) == (1, ["MS COCO"])
    neo4j_driver.execute_query("MATCH (n) DETACH DELETE n", database_=db)
    text = printed(executed())
    assert "loaded the example graph into the empty database" in text and "SCALE" in text
    records, _, _ = neo4j_driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n", database_=db)
    assert records[0]["n"] == 38
