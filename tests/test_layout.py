"""The package's layout: no two kg modules import each other, directly or through others.

Every import counts, at module level or inside a function: a function-level import that closes a cycle still ties
the two modules together (neither can be understood, moved or compiled without the other).
"""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

KG = Path(__file__).resolve().parents[1] / "kg"

def modules() -> dict[str, Path]:
    """Every module of the kg package by its dotted name (a package by its ``__init__.py``)."""
    out = {}
    for path in KG.rglob("*.py"):
        parts = list(path.relative_to(KG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The kg modules that module ``name`` (at ``path``) imports anywhere in its code. ``from package import
    name`` counts as an import of the submodule when ``name`` is one, else of the package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            subs = {f"{base}.{alias.name}" for alias in node.names} & known.keys()
            out.update(subs or {base})
    return {m for m in out if m in known and m != name}


def import_graph() -> nx.DiGraph:
    """module -> the kg modules it imports."""
    known = modules()
    g = nx.DiGraph()
    g.add_nodes_from(known)
    for name, path in known.items():
        g.add_edges_from((name, target) for target in imported(name, path, known))
    return g


def test_the_graph_sees_function_level_imports():
    known = modules()
    assert "kg.build.builder" in imported("kg.build", known["kg.build"], known)  # inside a function


def test_no_import_cycles():
    cycles = list(nx.simple_cycles(import_graph()))
    assert not cycles, "import cycles between kg modules:\n" + "\n".join(" -> ".join([*c, c[0]]) for c in cycles)

