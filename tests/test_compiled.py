"""The Cython-compiled modules (kg/compiled.py): built by the install and in use, and refused when a
source was edited after its compiled copy was built."""
from __future__ import annotations

import importlib
import os
from importlib.machinery import EXTENSION_SUFFIXES

import pytest

from kg import compiled


def test_the_install_compiled_every_listed_module_and_python_imports_the_compiled_copies():
    assert compiled.in_use(), [n for n in compiled.COMPILED if compiled.compiled_file(n) is None]
    for name in compiled.COMPILED:
        module = importlib.import_module(name)
        assert module.__file__.endswith(tuple(EXTENSION_SUFFIXES)), module.__file__
    assert compiled.stale() == []


def _layout(tmp_path, monkeypatch, git: bool):
    """A checkout (or an install) in ``tmp_path`` with every listed module and its compiled copy, built later."""
    (tmp_path / "kg" / "nlp").mkdir(parents=True)
    if git:
        (tmp_path / ".git").mkdir()
    monkeypatch.setattr(compiled, "ROOT", tmp_path)
    for name in compiled.COMPILED:
        stem = tmp_path / name.replace(".", "/")
        source, built = stem.with_suffix(".py"), stem.with_name(stem.name + EXTENSION_SUFFIXES[0])
        source.write_text("")
        built.write_bytes(b"")
        os.utime(source, (1_000, 1_000))
        os.utime(built, (2_000, 2_000))
    return tmp_path


def test_a_source_edited_after_its_compiled_copy_is_refused_with_the_way_to_rebuild(tmp_path, monkeypatch):
    root = _layout(tmp_path, monkeypatch, git=True)
    compiled.check()  # all compiled after their sources
    os.utime(root / "kg/nlp/mentions.py", (3_000, 3_000))
    os.utime(root / "kg/export.py", (3_000, 3_000))
    assert compiled.stale() == ["kg/nlp/mentions.py", "kg/export.py"]
    with pytest.raises(ImportError, match=r"kg/nlp/mentions.py, kg/export.py changed after it was compiled.*make install"):
        compiled.check()


def test_an_installed_copy_outside_a_checkout_is_not_checked(tmp_path, monkeypatch):
    root = _layout(tmp_path, monkeypatch, git=False)
    os.utime(root / "kg/nlp/mentions.py", (3_000, 3_000))  # a wheel's files carry the install's times
    assert compiled.stale() == []


def test_without_compiled_copies_the_sources_run_and_nothing_is_stale(tmp_path, monkeypatch):
    root = _layout(tmp_path, monkeypatch, git=True)
    for path in root.rglob(f"*{EXTENSION_SUFFIXES[0]}"):
        path.unlink()
    assert not compiled.in_use() and compiled.stale() == []


def test_a_compiled_copy_of_a_module_no_longer_listed_is_refused(tmp_path, monkeypatch):
    root = _layout(tmp_path, monkeypatch, git=True)
    (root / "kg" / "store").mkdir()
    (root / "kg" / "store" / "embedded.py").write_text("")
    (root / "kg" / "store" / ("embedded" + EXTENSION_SUFFIXES[0])).write_bytes(b"")  # as another commit built it
    (root / "kg" / "nlp" / ("_tagger" + EXTENSION_SUFFIXES[0])).write_bytes(b"")  # always compiled: fine
    assert compiled.unlisted() == ["kg/store/embedded" + EXTENSION_SUFFIXES[0]]
    with pytest.raises(ImportError, match=r"kg/store/embedded\..*kg/compiled.py does not list.*delete them"):
        compiled.check()
