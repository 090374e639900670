"""Compile kg's C extensions in place, for a checkout run with ``PYTHONPATH`` and another checkout's interpreter.

    git worktree add --detach /tmp/variant HEAD
    cd /tmp/variant && /work/main/.venv/bin/python tools/dev/build_ext.py
    PYTHONPATH=/tmp/variant /work/main/.venv/bin/python tools/dev/extraction_digest.py

``pip install -e .`` builds them too, but it would point the interpreter's kg at this checkout. The extensions are
those of ``[tool.setuptools] ext-modules`` in pyproject.toml, built with the interpreter's setuptools whatever its
version (setuptools reads that table from 74.1 on).
"""
from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from setuptools import Distribution, Extension
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    os.chdir(ROOT)  # the sources and the in-place outputs are relative to the checkout
    with (ROOT / "pyproject.toml").open("rb") as f:
        specs = tomllib.load(f)["tool"]["setuptools"]["ext-modules"]
    modules = [Extension(s["name"], s["sources"], extra_compile_args=s.get("extra-compile-args", [])) for s in specs]
    cmd = build_ext(Distribution({"ext_modules": modules, "script_name": "build_ext.py"}))
    cmd.inplace = True
    cmd.build_temp = "build/temp"
    cmd.ensure_finalized()
    cmd.run()
    print("\n".join(cmd.get_ext_fullpath(m.name) for m in modules))
    return 0


if __name__ == "__main__":
    sys.exit(main())
