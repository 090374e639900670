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


# kg.build(inputs, out): the build package, callable as its builder's build (kg/build/__init__.py)
from kg import build  # noqa: E402
