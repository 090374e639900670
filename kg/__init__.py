"""kg: knowledge graphs of machine-learning literature.

>>> import kg
>>> report = kg.build(["examples/icml"], "out")   # doctest: +SKIP
>>> report.graph                                   # a networkx.MultiDiGraph  # doctest: +SKIP
"""
from __future__ import annotations

from kg.compiled import install as _install_compiled
from kg.version import __version__

# What each compiled module runs: the compiled file, or its Python twin when the file is missing or older than its
# source, or when KG_PURE_PYTHON asks (kg/compiled.py)
_install_compiled()


def build(*args, **kwargs):
    """Build a graph; see :func:`kg.builder.build` (imported lazily so ``import kg`` stays fast)."""
    from kg.builder import build as _build

    return _build(*args, **kwargs)
