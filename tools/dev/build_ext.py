"""Compile kg's compiled modules (kg/compiled.py: the tagger's C loops and the Cython-compiled modules)
in place, with this interpreter: ``make`` runs it after an edit to one of them, and a checkout run with
``PYTHONPATH`` and another checkout's interpreter needs it once.

    git worktree add --detach ../variant HEAD        # from the main checkout, main/
    (cd ../variant && ../main/.venv/bin/python tools/dev/build_ext.py)
    (cd ../variant && PYTHONPATH=. ../main/.venv/bin/python tools/dev/extraction_digest.py)

``pip install -e .`` builds them too, but it would point the interpreter's kg at this checkout. Cython
regenerates the C of changed modules only, and only changed C is compiled again.
"""
from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

from setuptools import Distribution
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    os.chdir(ROOT)  # the sources and the in-place outputs are relative to the checkout
    modules = runpy.run_path("kg/compiled.py")["extensions"]()
    cmd = build_ext(Distribution({"ext_modules": modules, "script_name": "build_ext.py"}))
    cmd.inplace = True
    cmd.parallel = 2
    cmd.build_temp = "build/temp"
    cmd.ensure_finalized()
    cmd.run()
    print(f"{len(modules)} compiled modules up to date in {ROOT / 'kg'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
