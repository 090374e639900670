"""Compile kg's compiled modules in place (kg/compiled.py), with this interpreter: the C extensions ``_tagger`` and
``_doc`` and the Cython-compiled plain modules of ``kg.compiled.plain()`` (by default ``HOT``; all of ``COMPILED``
with ``KG_COMPILE=1``, none with ``KG_COMPILE=0``), each skipped, leaving its Python to run, when there is no C
compiler. It deletes the compiled copies of the other plain modules in place, and so it does compiled files of
modules kg no longer compiles (a build of another commit left them), so that the sources run.

``make install`` runs it after an edit to one of the compiled sources. A checkout run with ``PYTHONPATH`` and
another checkout's interpreter needs it once (or runs the Python twins):

    git worktree add --detach /tmp/variant HEAD
    cd /tmp/variant && python tools/dev/build_ext.py      # the interpreter of a kg venv
    PYTHONPATH=/tmp/variant python tools/dev/extraction_digest.py

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
    """Build, delete what must not shadow its source, and say what runs compiled; 0 unless a build asked for
    (``KG_COMPILE=1``) fails."""
    os.chdir(ROOT)  # the sources and the in-place outputs are relative to the checkout
    compiled = runpy.run_path("kg/compiled.py")
    modules = compiled["extensions"]()
    if modules:
        cmd = build_ext(Distribution({"ext_modules": modules, "script_name": "build_ext.py"}))
        cmd.inplace = True
        cmd.parallel = 2
        cmd.build_temp = "build/temp"
        cmd.ensure_finalized()
        cmd.run()
    chosen = set(compiled["plain"]())
    gone = list(compiled["unlisted"](ROOT))
    gone += [path.relative_to(ROOT).as_posix() for path in map(compiled["compiled_file"],
                                                               set(compiled["COMPILED"]) - chosen) if path is not None]
    gone.sort()
    for path in gone:
        (ROOT / path).unlink()
    if gone:
        print(f"deleted {len(gone)} compiled files of modules not compiled now: {', '.join(gone)}")
    edited = set(compiled["stale"](ROOT))  # a failed build leaves the old compiled file, older than its source
    built = [name for name, (source, _) in compiled["modules"]().items()
             if compiled["compiled_file"](name) and source not in edited]
    twins = [name for name in compiled["EXTENSIONS"] if name not in built]
    print(f"{len(built)} compiled modules up to date in {ROOT / 'kg'}"
          + (f"; not built: {', '.join(twins)} (Python twins run instead)" if twins else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
