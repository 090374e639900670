"""kg: knowledge graphs of machine-learning literature.

>>> import kg
>>> report = kg.build(["examples/icml"], "out")   # doctest: +SKIP
>>> report.graph                                   # a networkx.MultiDiGraph  # doctest: +SKIP
"""
from __future__ import annotations

__version__ = "0.1.0"


def build(*args, **kwargs):
    """Build a graph; see :func:`kg.builder.build` (imported lazily so ``import kg`` stays fast)."""
    from kg.builder import build as _build

    return _build(*args, **kwargs)
