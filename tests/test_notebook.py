"""The walkthrough notebook runs top to bottom (outputs are not committed)."""
from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def test_explore_notebook_executes(tmp_path):
    nb = nbformat.read(ROOT / "notebooks" / "explore.ipynb", as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "commit the notebook without outputs"
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    text = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "papers      38" in text
    assert "EVALUATES_ON  CUHK-SYSU" in text
    assert "LinearTCA" in text and "shares task test-time adaptation" in text  # kg.related
    assert "SCALE" in text and "(1 row)" in text  # saved Cypher on the embedded store
    frame = "".join(o.get("data", {}).get("text/html", "") for o in nb.cells[-1].get("outputs", []))
    assert 'src="../out/notebook/views/overview.html"' in frame  # relative to the notebook: Jupyter serves it
