"""kg's compiled modules, and the Python that runs in their place when they cannot.

Two C extensions are built by default when a C compiler is present: ``kg.nlp._tagger`` (``_tagger.c``: the linear
tagger's feature hashing, weight sums and Viterbi decoding) and ``kg.nlp._doc`` (``_doc.pyx``: typed access to a
spaCy ``Doc``'s token array). Each has a pure-Python twin with the same functions and the same results
(``_tagger_py.py``, ``_doc_py.py``), so an install without a compiler runs, only slower. ``KG_NO_EXT=1`` at build
time skips them.

The plain modules listed in :data:`COMPILED` (the extraction rules, and what writes each paper's elements) are
compiled by Cython as they are; their ``.py`` files are their own twins. Which ones, at build time (``make
install``, ``pip install``, a wheel build):

- by default, the nine of :data:`HOT`, where the default extraction spends most of its Python time, as optional
  extensions (without a C compiler their sources run). gcc builds them at ``-O1``: 31 s of CPU, against 53 s at
  ``-O2`` and 68 s at ``-O3``, which extract no faster (paired ratios within 1% of each other). They make the
  default extraction ~1.2x as fast (``kg bench``'s paired ratio, docs/extraction.md);
- ``KG_COMPILE=1``: all of :data:`COMPILED` (not optional: asked for), for the build's export path: extraction
  runs as many instructions as with :data:`HOT` alone;
- ``KG_COMPILE=0``: none, the C extensions only.

At ``import kg``, :func:`install` decides what each module runs, and puts a finder first on ``sys.meta_path`` that
makes Python import the Python file instead of the compiled one where it must:

- ``KG_PURE_PYTHON=1``: every compiled module runs its Python twin (a comma-separated list of module names: those).
- a C extension that is not built runs its twin;
- in a source tree (a checkout, with ``setup.py`` beside ``kg/``), a compiled module older than its source
  (``.py``, ``_tagger.c``, ``_doc.pyx``, or a ``.pxd`` it is compiled with: the state after ``git pull`` or an edit)
  runs the Python, since the compiled copy would not hold the edit; and a compiled file of a module this file does
  not list (left by a build of another commit) is ignored;
- a compiled module of :data:`NEEDS` runs its Python when a module whose records it reads runs as Python.

Each of these but the first (and the last, following the first) prints one line to stderr, once (not again in the
processes kg starts):
``kg: kg/nlp/components/mentions.py changed after it was compiled; running the Python source (make install recompiles)``.

``setup.py`` and ``tools/dev/build_ext.py`` read :func:`extensions` from this file without importing kg.
"""
from __future__ import annotations

import os
import sys
import zlib
from dataclasses import dataclass, field
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, SourceFileLoader
from importlib.util import spec_from_file_location
from pathlib import Path

# The C extensions: module -> (its source, its Python twin), relative to ROOT.
EXTENSIONS = {
    "kg.nlp._tagger": ("kg/nlp/_tagger.c", "kg/nlp/_tagger_py.py"),
    "kg.nlp._doc": ("kg/nlp/_doc.pyx", "kg/nlp/_doc_py.py"),
}
# Compiled by Cython with KG_COMPILE=1: the extraction pipeline's components and what they call per token or per
# candidate; and the streaming export's per-paper path (build cache reads, resolution lookups, elements, sinks).
COMPILED = (
    tuple(f"kg.nlp.{name}" for name in ("candidates", "combine", "extract", "tokenizer"))
    + tuple(f"kg.nlp.components.{name}" for name in ("abbreviations", "context", "gazetteer", "mentions", "model",
                                                     "proposed", "results", "sentences", "specificity", "tagger"))
    + ("kg.build.cache", "kg.build.elements", "kg.build.jsontext", "kg.build.resolve", "kg.sinks.graphml", "kg.sinks.json",
       "kg.sinks.neo4j_csv", "kg.sinks.predictions"))
# Compiled by default: the modules whose compiled copies save the most of the default extraction's instructions
# (tools/dev/instructions.py --docs 300 with everything compiled and one module run as Python, at 3d2997a: 0.06-0.12M
# of ~5.8M per abstract each, 0.03M for abbreviations; the others 0.02M or less, and the tokenizer and extract run
# more instructions compiled than as Python). The gazetteer since 06740ed: 3.783M -> 3.764M on 1,000 abstracts.
HOT = tuple(f"kg.nlp.{name}" for name in ("candidates", "combine")) + tuple(
    f"kg.nlp.components.{name}" for name in ("abbreviations", "context", "gazetteer", "mentions", "proposed",
                                             "results", "specificity"))
# Compiled modules whose .pxd cimports the extension types of others (their records, read as C structs): each runs
# compiled only where those run compiled too, and as Python where one of them does. Their .pxd files are sources of
# both: an edit to kg/nlp/candidates.pxd makes both stale.
NEEDS = {name: ("kg.nlp.candidates",) for name in ("kg.nlp.combine", "kg.nlp.components.mentions")}
# gcc flags of the Cython-compiled modules, after Python's own (-O3): -O1 compiles them ~2.2x faster than -O3 (31 s
# of CPU for HOT against 68 s) and extraction runs as fast (+1% instructions, paired ratios within the noise).
PLAIN_FLAGS = ["-O1", "-g0"]
ROOT = Path(__file__).resolve().parents[1]  # the directory holding the kg package
_WARNED = "KG_COMPILED_WARNED"  # set to the warning's checksum once printed, so that child processes stay quiet


def _source(module: str) -> str:
    """A plain module's source file, relative to ``ROOT``."""
    return module.replace(".", "/") + ".py"


def _inputs(module: str, source: str) -> list[str]:
    """The files a compiled module is made from, relative to ROOT: its source, its .pxd when a plain module has one
    (Cython reads it beside the .py), and the .pxd files of the modules it needs (:data:`NEEDS`)."""
    pxds = [_source(name)[:-3] + ".pxd" for name in (module, *NEEDS.get(module, ())) if name in COMPILED]
    return [source, *pxds]


def modules() -> dict[str, tuple[str, str]]:
    """Every module kg may compile -> (its source, the Python file that runs in its place), relative to ROOT."""
    return {**EXTENSIONS, **{name: (_source(name), _source(name)) for name in COMPILED}}


def _flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def plain() -> tuple[str, ...]:
    """The plain modules a build compiles: :data:`HOT` by default, all of :data:`COMPILED` with ``KG_COMPILE=1``,
    none with ``KG_COMPILE=0`` (or with ``KG_NO_EXT``)."""
    if _flag("KG_NO_EXT"):
        return ()
    value = os.environ.get("KG_COMPILE", "")
    return HOT if value == "" else () if value == "0" else COMPILED


def extensions() -> list:
    """setuptools Extensions to build: the C extensions (optional: a failed compile leaves their twins to run),
    unless ``KG_NO_EXT`` is set; and the plain modules of :func:`plain`: optional by default, not with
    ``KG_COMPILE=1`` (asked for). Needs setuptools, and Cython, spaCy and numpy for ``_doc.pyx`` and the plain
    modules (the build requirements)."""
    if _flag("KG_NO_EXT"):
        return []
    from setuptools import Extension

    # The tagger's float sums must stay bit-identical to numpy's: no -ffast-math, no contraction into FMA. (-Wno-psabi:
    # its 32-byte vectors are passed only between inline functions, where the AVX calling convention does not matter.)
    tagger = Extension("kg.nlp._tagger", ["kg/nlp/_tagger.c"], extra_compile_args=["-ffp-contract=off", "-Wno-psabi"],
                       optional=True)
    try:
        import numpy
        from Cython.Build import cythonize
    except ImportError as e:  # a build outside the declared build requirements (--no-build-isolation)
        print(f"kg: not compiling kg/nlp/_doc.pyx and the rules ({e}); their Python runs", file=sys.stderr)
        return [tagger]
    # Typed access to a Doc's token array: cimports spaCy's .pxd files, which need C++ and numpy's headers.
    doc = Extension("kg.nlp._doc", ["kg/nlp/_doc.pyx"], include_dirs=[numpy.get_include()], language="c++",
                    extra_compile_args=["-g0"], optional=True)
    names = plain()
    missing = [_source(name) for name in names if not Path(_source(name)).exists()]
    if missing:
        raise FileNotFoundError(f"kg/compiled.py lists modules that are not there: {', '.join(missing)}")
    rules = [Extension(name, [_source(name)], extra_compile_args=PLAIN_FLAGS) for name in names]
    # Cython regenerates a module's C when its source changed; a change to these settings must regenerate (and so
    # recompile) the C written before it, which is deleted for that. Other modules are left alone.
    for c in (Path("build/cython", _source(e.name)[:-3] + ".c") for e in rules):
        if c.exists() and c.stat().st_mtime < Path(__file__).stat().st_mtime:
            c.unlink()
    # annotation_typing off: annotations stay documentation, as in Python (Cython would make ``x: float`` a C double)
    out = [tagger, *cythonize([doc, *rules], build_dir="build/cython", nthreads=2, quiet=True,
                              compiler_directives={"language_level": 3, "annotation_typing": False})]
    required = set(names) if _flag("KG_COMPILE") else set()
    for ext in out:  # cythonize makes new Extensions, without ``optional``
        ext.optional = ext.name not in required
    return out


def compiled_file(module: str, root: Path | None = None) -> Path | None:
    """The compiled file of ``module`` (dotted: ``kg.nlp.components.mentions``) for this interpreter, or None when there is
    none."""
    stem = (root or ROOT) / module.replace(".", "/")
    for suffix in EXTENSION_SUFFIXES:
        path = stem.with_name(stem.name + suffix)
        if path.exists():
            return path
    return None


def _source_tree(root: Path) -> bool:
    """Whether ``root`` is a source tree (a checkout, an unpacked sdist), where file times tell edits apart; an
    installed wheel's files carry the install's times."""
    return (root / "setup.py").exists()


def stale(root: Path | None = None) -> list[str]:
    """In a source tree, the sources (relative to ``root``) edited after their module was compiled."""
    root = root or ROOT
    if not _source_tree(root):
        return []
    out = []
    for module, (source, _) in modules().items():
        built = compiled_file(module, root)
        if built is None or not (root / source).exists():
            continue
        made = built.stat().st_mtime
        out += [name for name in _inputs(module, source)
                if (root / name).exists() and (root / name).stat().st_mtime > made]
    return out


def unlisted(root: Path | None = None) -> list[str]:
    """In a source tree, compiled files in the package (relative to ``root``) of modules kg does not compile:
    left by a build of another commit, they would run instead of their sources, or of nothing."""
    root = root or ROOT
    if not _source_tree(root):
        return []
    known, out = modules(), []
    for folder, dirs, files in os.walk(root / "kg"):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            suffix = max((s for s in EXTENSION_SUFFIXES if name.endswith(s)), key=len, default=None)
            if suffix is None:
                continue
            path = Path(folder, name).relative_to(root)
            if ".".join(path.with_name(name[:-len(suffix)]).parts) not in known:
                out.append(path.as_posix())
    return out


@dataclass
class Plan:
    """What runs in place of compiled files: ``python`` maps a module to the Python file it is imported from;
    ``blocked`` holds modules whose only file is an unlisted compiled one (importing them fails, as if it were
    not there); ``warning`` is the line to print, if any."""

    python: dict[str, Path] = field(default_factory=dict)
    blocked: set[str] = field(default_factory=set)
    warning: str = ""


def _pure_modules() -> set[str] | None:
    """The modules ``KG_PURE_PYTHON`` asks to run as Python: None for all ("1"), else the names it lists."""
    value = os.environ.get("KG_PURE_PYTHON", "").strip()
    if value in ("", "0"):
        return set()
    if value == "1":
        return None
    return {name.strip() for name in value.split(",") if name.strip()}


def plan(root: Path | None = None) -> Plan:
    """Decide what each compiled module runs (see the module's docstring), and the one warning line."""
    root = root or ROOT
    pure = _pure_modules()
    out, missing, changed, edited = Plan(), [], [], set(stale(root))
    for module, (source, twin) in modules().items():
        if pure is None or module in pure:
            out.python[module] = root / twin
        elif module in EXTENSIONS and compiled_file(module, root) is None:
            out.python[module] = root / twin
            missing.append(source)
        elif found := [name for name in _inputs(module, source) if name in edited]:
            out.python[module] = root / twin
            changed += [name for name in found if name not in changed]
    following = []  # compiled modules that need one running as Python (NEEDS)
    for module, needed in NEEDS.items():
        if module not in out.python and compiled_file(module, root) is not None \
                and any(name in out.python or compiled_file(name, root) is None for name in needed):
            out.python[module] = root / _source(module)
            if pure is not None and module not in pure:
                following.append(_source(module))
    ignored = unlisted(root)
    for path in ignored:
        stem = path[:-len(max((s for s in EXTENSION_SUFFIXES if path.endswith(s)), key=len))]
        if (root / (stem + ".py")).exists():
            out.python[stem.replace("/", ".")] = root / (stem + ".py")
        else:
            out.blocked.add(stem.replace("/", "."))
    parts = []
    if changed:
        parts.append(f"{', '.join(changed)} changed after {'it was' if len(changed) == 1 else 'they were'} compiled; "
                     "running the Python source (make install recompiles)")
    if following:
        parts.append(f"running the Python source of {', '.join(following)} too (compiled, "
                     f"{'it reads' if len(following) == 1 else 'they read'} the records of a module run as Python)")
    if missing:
        parts.append(f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not compiled; running the Python "
                     f"twin{'' if len(missing) == 1 else 's'} (slower; an install with a C compiler builds "
                     f"{'it' if len(missing) == 1 else 'them'})")
    if ignored:
        parts.append(f"ignoring {', '.join(ignored)}: compiled {'copy' if len(ignored) == 1 else 'copies'} of no "
                     "module kg compiles (left by another build; delete them)")
    out.warning = "kg: " + "; ".join(parts) if parts else ""
    return out


class _Finder(MetaPathFinder):
    """Imports the plan's modules from their Python files, and refuses the blocked ones."""

    def __init__(self, chosen: Plan) -> None:
        self.plan = chosen

    def find_spec(self, fullname: str, path=None, target=None) -> ModuleSpec | None:
        source = self.plan.python.get(fullname)
        if source is not None:
            return spec_from_file_location(fullname, source, loader=SourceFileLoader(fullname, str(source)))
        if fullname in self.plan.blocked:
            raise ModuleNotFoundError(f"No module named {fullname!r} (only a stale compiled copy, ignored)",
                                      name=fullname)
        return None


def install() -> Plan:
    """Put the finder of :func:`plan` first on ``sys.meta_path`` (replacing one installed before) and print its
    warning, once per process tree. Returns the plan."""
    chosen = plan()
    sys.meta_path[:] = [f for f in sys.meta_path if (type(f).__module__, type(f).__name__) != (__name__, "_Finder")]
    if chosen.python or chosen.blocked:
        sys.meta_path.insert(0, _Finder(chosen))
    if chosen.warning:
        mark = str(zlib.crc32(chosen.warning.encode()))
        if os.environ.get(_WARNED) != mark:
            print(chosen.warning, file=sys.stderr)
            os.environ[_WARNED] = mark
    return chosen


def in_use() -> bool:
    """Whether the C extensions are what runs (built for this interpreter, not replaced by their twins)."""
    from importlib import import_module

    return all(str(import_module(name).__file__).endswith(tuple(EXTENSION_SUFFIXES)) for name in EXTENSIONS)
