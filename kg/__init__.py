"""kg: knowledge graphs of machine-learning literature.

>>> import kg
>>> report = kg.build(["examples/icml"], "out")   # doctest: +SKIP
>>> report.graph                                   # a networkx.MultiDiGraph  # doctest: +SKIP
"""
from __future__ import annotations

from kg.compiled import check as _check_compiled

__version__ = "0.1.0"

_check_compiled()  # a compiled module older than its source would shadow the edit (kg/compiled.py)


def build(*args, **kwargs):
    """Build a graph; see :func:`kg.builder.build` (imported lazily so ``import kg`` stays fast)."""
    from kg.builder import build as _build

    return _build(*args, **kwargs)
