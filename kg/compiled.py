"""kg's compiled modules: the tagger's C loops, typed access to a Doc's token array (``_doc.pyx``), and the
pure-Python modules that Cython compiles: the extraction pipeline's rules, and what writes every paper's elements
into the output files.

Those modules are plain Python, and they are compiled as they are (no type declarations, no ``.pyx``): Cython
turns each module into C that calls the same CPython operations without the interpreter's dispatch. For the rules,
~10% fewer instructions and 8-19% less time per abstract; for the streaming export (the build cache's reads, the
elements, the sinks), 14-20% less time per paper. The ``.py`` files stay the source; ``pip install -e .``
(``make install``) compiles them in place, and CPython imports a compiled module (``x.cpython-311-*.so``) before
the ``.py`` beside it. Without their compiled files (deleted, or a checkout run with ``PYTHONPATH`` before
``tools/dev/build_ext.py``) these modules run as Python, only slower; the tagger's C loops (``_tagger``) and
``_doc`` are always needed.

Because a compiled module shadows its source, an edit to one of these ``.py`` files (or to ``_doc.pyx``) would
silently not run: :func:`check` refuses that in a git checkout (``import kg`` fails, naming the files and how to
rebuild).

``setup.py`` and ``tools/dev/build_ext.py`` read :func:`extensions` from this file without importing kg.
"""
from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

# Compiled with Cython: the extraction pipeline's components and what they call per token or per candidate; and
# the streaming export's per-paper path (build cache reads, resolution lookups, elements, the file sinks).
COMPILED = tuple(f"kg.nlp.{name}" for name in (
    "abbreviations", "candidates", "context", "extract", "gazetteer", "mentions", "model", "proposed", "results",
    "sentences", "tagger", "tokenizer")) + ("kg.cache", "kg.elements", "kg.export", "kg.jsontext", "kg.resolve")
ROOT = Path(__file__).resolve().parents[1]  # the directory holding the kg package


def _source(module: str) -> str:
    """A listed module's source file, relative to ``ROOT``."""
    return module.replace(".", "/") + ".py"


def extensions() -> list:
    """setuptools Extensions for every compiled module (needs setuptools, and Cython, installed)."""
    from Cython.Build import cythonize
    from setuptools import Extension

    # The tagger's float sums must stay bit-identical to numpy's: no -ffast-math, no contraction into FMA. (-Wno-psabi:
    # its 32-byte vectors are passed only between inline functions, where the AVX calling convention does not matter.)
    tagger = Extension("kg.nlp._tagger", ["kg/nlp/_tagger.c"], extra_compile_args=["-ffp-contract=off", "-Wno-psabi"])
    # Typed access to a Doc's token array: cimports spaCy's .pxd files, which need C++ and numpy's headers.
    import numpy

    doc = Extension("kg.nlp._doc", ["kg/nlp/_doc.pyx"], include_dirs=[numpy.get_include()], language="c++",
                    extra_compile_args=["-g0"])
    rules = [Extension(name, [_source(name)], extra_compile_args=["-g0"]) for name in COMPILED]
    # Cython regenerates a module's C when its .py changed; a change to these settings must regenerate all of them.
    force = any(not c.exists() or c.stat().st_mtime < Path(__file__).stat().st_mtime
                for c in (Path("build/cython", _source(name)[:-3] + ".c") for name in COMPILED))
    # annotation_typing off: annotations stay documentation, as in Python (Cython would make ``x: float`` a C double)
    return [tagger, *cythonize([doc, *rules], build_dir="build/cython", nthreads=2, quiet=True, force=force,
                               compiler_directives={"language_level": 3, "annotation_typing": False})]


def compiled_file(module: str) -> Path | None:
    """The compiled file of ``module`` (dotted: ``kg.nlp.mentions``) for this interpreter, or None when it was not
    built."""
    stem = ROOT / module.replace(".", "/")
    for suffix in EXTENSION_SUFFIXES:
        path = stem.with_name(stem.name + suffix)
        if path.exists():
            return path
    return None


def stale() -> list[str]:
    """The compiled modules' ``.py`` files edited after their compiled file was built (in a git checkout only:
    an installed wheel's files carry the install's times)."""
    if not (ROOT / ".git").exists():
        return []
    out = []
    for module, source in [(name, _source(name)) for name in COMPILED] + [("kg.nlp._doc", "kg/nlp/_doc.pyx")]:
        built = compiled_file(module)
        if built is not None and (ROOT / source).stat().st_mtime > built.stat().st_mtime:
            out.append(source)
    return out


def unlisted() -> list[str]:
    """Compiled files in the package of modules this file does not list (in a git checkout only): left by a
    build of another commit, they would still shadow their sources."""
    if not (ROOT / ".git").exists():
        return []
    known = {*COMPILED, "kg.nlp._tagger", "kg.nlp._doc"}
    out = []
    for path in sorted((ROOT / "kg").rglob("*.so")):
        suffix = max((s for s in EXTENSION_SUFFIXES if path.name.endswith(s)), key=len, default=None)
        if suffix is None:
            continue
        module = ".".join(path.relative_to(ROOT).with_name(path.name[:-len(suffix)]).parts)
        if module not in known:
            out.append(path.relative_to(ROOT).as_posix())
    return out


def in_use() -> bool:
    """Whether the compiled modules are what runs (they are built for this interpreter)."""
    return all(compiled_file(name) is not None for name in COMPILED)


def check() -> None:
    """Raise ImportError when a compiled module is older than its source (the source would not run), or is not
    one this checkout compiles."""
    extra = unlisted()
    if extra:
        raise ImportError(f"{', '.join(extra)}: compiled copies of modules kg/compiled.py does not list (left by a "
                          "build of another commit); they would run instead of their sources: delete them")
    edited = stale()
    if edited:
        raise ImportError(f"{', '.join(edited)} changed after it was compiled, and the compiled copy is what would "
                          "run: rebuild with `make install` (or `python tools/dev/build_ext.py`), or delete their "
                          "compiled copies (<module>.cpython-*.so beside them, not _tagger's) to run the Python source")
