"""Build kg's compiled modules (kg/compiled.py lists them); everything else is in pyproject.toml."""
import runpy

from setuptools import setup

# kg/compiled.py is read as a file: the package is not importable while it is being built.
setup(ext_modules=runpy.run_path("kg/compiled.py")["extensions"](), options={"build_ext": {"parallel": 2}})
