"""The build: papers in, graph out, in stages.

- :mod:`kg.build.builder`: the whole job, stage by stage (read, extract, resolve, write, views);
- :mod:`kg.build.cache`: what a build remembers in ``DIR/cache/`` (extractions by abstract hash, the papers read);
- :mod:`kg.build.distributed`: extraction on a Dask cluster;
- :mod:`kg.build.resolve`, :mod:`kg.build.hierarchy`: concepts across papers, and the links between them;
- :mod:`kg.build.elements`, :mod:`kg.build.graph`: a paper's nodes and relationships, and the networkx graph;
- :mod:`kg.build.memory`, :mod:`kg.build.progress`, :mod:`kg.build.jsontext`: the garbage collector and memory
  handed back, progress lines, fast JSON text;
- :mod:`kg.build.lifeline`: child processes that die with their parent.

The files are written by the sinks of :mod:`kg.sinks`. ``kg.build`` is also callable: ``kg.build(inputs, out)``
is :func:`kg.build.builder.build`, imported when first called so that ``import kg`` stays fast.
"""
from __future__ import annotations

import sys
from types import ModuleType


class _CallablePackage(ModuleType):
    """This package, callable as :func:`kg.build.builder.build`."""

    def __call__(self, *args, **kwargs):
        """Build a graph: see :func:`kg.build.builder.build`."""
        from kg.build.builder import build

        return build(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage

# Every process forked from one that imported kg dies with its parent (kg/build/lifeline.py)
from kg.build.lifeline import install as _install_lifeline  # noqa: E402

_install_lifeline()
