"""What each compiled module runs (kg/compiled.py): the compiled file when it is there and newer than its source,
else its Python source or twin with one warning line, never a refusal; every twin with KG_PURE_PYTHON=1; and the
same extraction on both paths. Runs that need a changed file work on a copy of the package in a temporary
directory, so the checkout's files keep their times."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from kg import compiled

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = EXTENSION_SUFFIXES[0]
T0 = 1_700_000_000  # the copy's sources; its compiled files are 100 s newer
CODE = (".py", ".c", ".pyx", ".pxd", *EXTENSION_SUFFIXES)


def _built(module: str) -> Path:
    path = compiled.compiled_file(module)
    if path is None:
        pytest.skip(f"{module} is not compiled in this checkout (no C compiler at install)")
    return path


def _copy(tmp_path: Path, extensions: bool = True) -> Path:
    """A source tree in ``tmp_path``: kg's code copied (the C extensions' compiled files too, when ``extensions``),
    its data linked, and setup.py; sources at T0, compiled files at T0 + 100."""
    root = tmp_path / "tree"
    built = {_built(name).name for name in compiled.EXTENSIONS} if extensions else set()
    for path in sorted((ROOT / "kg").rglob("*")):
        target = root / path.relative_to(ROOT)
        if path.is_dir() or "__pycache__" in path.parts:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.name.endswith(tuple(EXTENSION_SUFFIXES)):
            if path.name in built:
                shutil.copyfile(path, target)
                os.utime(target, (T0 + 100, T0 + 100))
        elif path.suffix in CODE:
            shutil.copyfile(path, target)
            os.utime(target, (T0, T0))
        else:
            target.symlink_to(path)
    shutil.copyfile(ROOT / "setup.py", root / "setup.py")
    return root


def _run(root: Path, code: str, **env: str) -> subprocess.CompletedProcess:
    """``python -c code`` importing kg from ``root``, without a warning printed before."""
    base = {k: v for k, v in os.environ.items() if k not in ("KG_PURE_PYTHON", "KG_COMPILED_WARNED", "PYTHONPATH")}
    return subprocess.run([sys.executable, "-c", code], cwd=root, env={**base, **env}, capture_output=True,
                          text=True, timeout=300)


def _fake_compiled(root: Path, module: str, at: int) -> Path:
    """A compiled file of ``module`` that cannot load (it is no shared library), dated ``at``: if Python imported
    it, the import would fail."""
    path = root / (module.replace(".", "/") + SUFFIX)
    path.write_bytes(b"not a shared library")
    os.utime(path, (at, at))
    return path


def _files(root: Path, modules: list[str]) -> subprocess.CompletedProcess:
    code = ("import importlib, json; print(json.dumps({m: importlib.import_module(m).__file__ for m in "
            f"{modules!r}}}))")
    return _run(root, code)


def test_a_fresh_build_runs_the_compiled_extensions_and_says_nothing(tmp_path):
    root = _copy(tmp_path)
    run = _files(root, list(compiled.EXTENSIONS))
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert all(f.endswith(SUFFIX) for f in json.loads(run.stdout).values())


def test_a_plain_module_edited_after_it_was_compiled_runs_its_source_with_one_warning_line(tmp_path):
    root = _copy(tmp_path)
    _fake_compiled(root, "kg.nlp.components.mentions", T0 + 100)
    os.utime(root / "kg/nlp/components/mentions.py", (T0 + 200, T0 + 200))  # compiled, then mentions.py edited
    run = _files(root, ["kg.nlp.components.mentions"])
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["kg.nlp.components.mentions"] == str(root / "kg/nlp/components/mentions.py")
    assert run.stderr == ("kg: kg/nlp/components/mentions.py changed after it was compiled; running the Python source "
                          "(make install recompiles)\n")


def test_a_module_that_reads_the_records_of_one_run_as_python_runs_its_source_too(tmp_path):
    root = _copy(tmp_path)
    _fake_compiled(root, "kg.nlp.candidates", T0 + 100)
    _fake_compiled(root, "kg.nlp.components.mentions", T0 + 100)  # fresh, but compiled against the other's records
    os.utime(root / "kg/nlp/candidates.py", (T0 + 200, T0 + 200))  # compiled, then candidates.py edited
    run = _files(root, ["kg.nlp.candidates", "kg.nlp.components.mentions"])
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"kg.nlp.candidates": str(root / "kg/nlp/candidates.py"),
                                      "kg.nlp.components.mentions": str(root / "kg/nlp/components/mentions.py")}
    assert run.stderr == ("kg: kg/nlp/candidates.py changed after it was compiled; running the Python source (make "
                          "install recompiles); running the Python source of kg/nlp/components/mentions.py too "
                          "(compiled, it reads the records of a module run as Python)\n")
    os.utime(root / "kg/nlp/candidates.py", (T0, T0))
    os.utime(root / "kg/nlp/candidates.pxd", (T0 + 200, T0 + 200))  # the records' declaration edited: both stale
    assert compiled.stale(root) == ["kg/nlp/candidates.pxd"] * 2
    run = _files(root, ["kg.nlp.components.mentions"])
    assert run.returncode == 0 and run.stderr == ("kg: kg/nlp/candidates.pxd changed after it was compiled; running "
                                                  "the Python source (make install recompiles)\n"), run.stderr


def test_needs_lists_what_each_pxd_cimports():
    found = {}
    for pxd in sorted((ROOT / "kg").rglob("*.pxd")):
        module = ".".join(pxd.relative_to(ROOT).with_suffix("").parts)
        cimported = tuple(re.findall(r"^from (kg[\w.]*) cimport", pxd.read_text(), re.M))
        if cimported:
            found[module] = cimported
    assert found == compiled.NEEDS


def test_an_edit_to_tagger_c_runs_the_tagger_s_python_twin(tmp_path):
    root = _copy(tmp_path)
    os.utime(root / "kg/nlp/_tagger.c", (T0 + 200, T0 + 200))
    code = ("import numpy; from kg.nlp import _tagger; out = numpy.empty((1, 2), dtype=numpy.float32); "
            "_tagger.scores(numpy.ones((3, 2), dtype=numpy.float32), numpy.array([[0, 2]]), out); "
            "print(_tagger.__file__, out.tolist())")
    run = _run(root, code)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [str(root / "kg/nlp/_tagger_py.py"), "[[2.0,", "2.0]]"]
    assert run.stderr == ("kg: kg/nlp/_tagger.c changed after it was compiled; running the Python source "
                          "(make install recompiles)\n")


def test_extensions_that_are_not_built_run_their_twins_with_one_warning_line(tmp_path):
    root = _copy(tmp_path, extensions=False)
    run = _files(root, list(compiled.EXTENSIONS))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {name: str(root / twin) for name, (_, twin) in compiled.EXTENSIONS.items()}
    assert run.stderr == ("kg: kg/nlp/_tagger.c, kg/nlp/_doc.pyx are not compiled; running the Python twins "
                          "(slower; an install with a C compiler builds them)\n")


def test_compiled_files_of_modules_kg_does_not_compile_are_ignored(tmp_path):
    root = _copy(tmp_path)
    (root / "kg/leftover.py").write_text("WHERE = 'source'\n")
    _fake_compiled(root, "kg.leftover", T0 + 500)  # newer than its source, but not a module kg compiles
    _fake_compiled(root, "kg.nlp.gone", T0)  # its source was moved away
    code = ("import kg.leftover\ntry:\n    import kg.nlp.gone\nexcept ModuleNotFoundError as e:\n    print('no', e.name)\n"
            "print(kg.leftover.WHERE)")
    run = _run(root, code)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["no", "kg.nlp.gone", "source"]
    assert run.stderr == (f"kg: ignoring kg/leftover{SUFFIX}, kg/nlp/gone{SUFFIX}: compiled copies of no module kg "
                          "compiles (left by another build; delete them)\n")


def test_every_problem_at_once_is_one_line_and_the_processes_kg_starts_stay_quiet(tmp_path):
    root = _copy(tmp_path, extensions=False)
    _fake_compiled(root, "kg.sinks.json", T0 - 1)
    _fake_compiled(root, "kg.nlp.gone", T0)
    code = ("import subprocess, sys, kg.sinks.json; "
            "subprocess.run([sys.executable, '-c', 'import kg.sinks.json'], check=True)")
    run = _run(root, code)
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kg: kg/sinks/json.py changed after it was compiled;"), lines
    assert "_tagger.c, kg/nlp/_doc.pyx are not compiled" in lines[0] and f"ignoring kg/nlp/gone{SUFFIX}" in lines[0]


def test_kg_pure_python_runs_every_twin_and_every_source_without_a_word(tmp_path):
    root = _copy(tmp_path)
    _fake_compiled(root, "kg.nlp.components.tagger", T0 + 100)  # fresh: it would run, and fail to load, without the flag
    modules = [*compiled.EXTENSIONS, "kg.nlp.components.tagger"]
    run = _run(root, f"import importlib, json; print(json.dumps({{m: importlib.import_module(m).__file__ "
                     f"for m in {modules!r}}}))", KG_PURE_PYTHON="1")
    assert run.returncode == 0 and run.stderr == "", run.stderr
    files = json.loads(run.stdout)
    assert files == {**{name: str(root / twin) for name, (_, twin) in compiled.EXTENSIONS.items()},
                     "kg.nlp.components.tagger": str(root / "kg/nlp/components/tagger.py")}
    only = _run(root, "import kg.nlp._doc as d, kg.nlp._tagger as t; print(d.__file__, t.__file__)",
                KG_PURE_PYTHON="kg.nlp._doc")  # a list of modules: those only
    assert only.stdout.split() == [str(root / "kg/nlp/_doc_py.py"), str(root / ("kg/nlp/_tagger" + SUFFIX))]


def _layout(root: Path, source_tree: bool) -> None:
    """Every module of kg/compiled.py with a compiled file built after its source, as files only."""
    for module, (source, twin) in compiled.modules().items():
        for name in {source, twin}:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text("")
            os.utime(root / name, (T0, T0))
        _fake_compiled(root, module, T0 + 100)
    if source_tree:
        (root / "setup.py").write_text("")


def test_the_plan_compares_times_in_a_source_tree_only(tmp_path, monkeypatch):
    monkeypatch.delenv("KG_PURE_PYTHON", raising=False)
    tree, installed = tmp_path / "tree", tmp_path / "site-packages"
    _layout(tree, source_tree=True)
    _layout(installed, source_tree=False)
    for root in (tree, installed):
        assert compiled.plan(root).python == {} and compiled.plan(root).warning == ""
        os.utime(root / "kg/build/resolve.py", (T0 + 200, T0 + 200))  # an installed wheel's files carry any times
        _fake_compiled(root, "kg.old", T0)
    assert compiled.stale(tree) == ["kg/build/resolve.py"] and compiled.unlisted(tree) == [f"kg/old{SUFFIX}"]
    assert compiled.plan(tree).python == {"kg.build.resolve": tree / "kg/build/resolve.py"}
    assert compiled.plan(tree).blocked == {"kg.old"}
    assert compiled.stale(installed) == compiled.unlisted(installed) == []
    assert compiled.plan(installed).python == {} and compiled.plan(installed).warning == ""


def test_every_listed_module_and_twin_is_there():
    """A module moved without kg/compiled.py following would be compiled (KG_COMPILE=1) or checked no more."""
    for module, (source, twin) in compiled.modules().items():
        assert (ROOT / source).is_file() and (ROOT / twin).is_file(), module


def test_a_build_compiles_the_hot_modules_by_default_all_with_kg_compile_1_and_none_with_0(monkeypatch):
    assert set(compiled.HOT) < set(compiled.COMPILED)
    for value, expected in (("", compiled.HOT), ("0", ()), ("1", compiled.COMPILED)):
        monkeypatch.setenv("KG_COMPILE", value)
        assert compiled.plain() == expected, value
    monkeypatch.setenv("KG_NO_EXT", "1")
    assert compiled.plain() == ()


def _build(out: Path, **env: str) -> subprocess.CompletedProcess:
    code = "import sys; from kg.cli import main; sys.exit(main(sys.argv[1:]))"
    base = {k: v for k, v in os.environ.items() if k not in ("KG_PURE_PYTHON", "KG_COMPILED_WARNED")}
    return subprocess.run([sys.executable, "-c", code, "build", str(ROOT / "examples/icml"), "--out", str(out),
                           "--quiet"], cwd=out.parent, env={**base, **env}, capture_output=True, text=True, timeout=600)


def test_extraction_on_the_example_corpus_is_the_same_compiled_and_in_pure_python(tmp_path):
    for name in compiled.EXTENSIONS:
        _built(name)
    edited = [source for source, _ in compiled.EXTENSIONS.values() if source in compiled.stale()]
    assert not edited, f"{edited} changed after they were compiled: `make install` compiles them again"
    runs = {"compiled": _build(tmp_path / "compiled"), "python": _build(tmp_path / "python", KG_PURE_PYTHON="1")}
    for name, run in runs.items():
        assert run.returncode == 0, (name, run.stderr)
    outputs = {}
    for name in runs:
        out = tmp_path / name
        (extractions,) = (out / "cache").glob("extractions-*.jsonl")  # named by the pipeline's fingerprint
        outputs[name] = {f: (out / f).read_bytes() for f in ("mentions.jsonl", "graph.json", "graph.graphml")}
        outputs[name]["extractions"] = extractions.read_bytes()
    assert len(outputs["compiled"]["extractions"].splitlines()) == 38  # every paper's predictions
    for f, data in outputs["compiled"].items():
        assert outputs["python"][f] == data, f
