"""Build kg: its packages, found under kg/ (the data folders too, as namespace packages, so that setuptools installs
their files without warnings), cypher/ as kg.cypher, and its compiled modules (kg/compiled.py: the C extensions,
optional, and with KG_COMPILE=1 the Cython-compiled plain modules). Everything else is in pyproject.toml."""
import runpy
import warnings

from setuptools import find_namespace_packages, setup

# An editable install of this layout (cypher/ installed as kg.cypher) imports kg through a finder; setuptools' note
# that a folder named kg in the working directory would come first is no warning here: that folder is the package.
warnings.filterwarnings("ignore", message="Editable installation", module="setuptools")
packages = find_namespace_packages(include=["kg", "kg.*"], exclude=["*.__pycache__", "*.__pycache__.*"])
# kg/compiled.py is read as a file: the package is not importable while it is being built.
setup(packages=[*packages, "kg.cypher"], ext_modules=runpy.run_path("kg/compiled.py")["extensions"](),
      options={"build_ext": {"parallel": 2}})
