"""The Cython-compiled extraction modules (kg/compiled.py): built by the install and in use, and refused when a
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
        module = importlib.import_module(f"kg.nlp.{name}")
        assert module.__file__.endswith(tuple(EXTENSION_SUFFIXES)), module.__file__
    assert compiled.stale() == []


def _layout(tmp_path, monkeypatch, git: bool):
    nlp = tmp_path / "kg" / "nlp"
    nlp.mkdir(parents=True)
    if git:
        (tmp_path / ".git").mkdir()
    monkeypatch.setattr(compiled, "NLP", nlp)
    for name in compiled.COMPILED:
        (nlp / f"{name}.py").write_text("")
        (nlp / f"{name}{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
        os.utime(nlp / f"{name}.py", (1_000, 1_000))
        os.utime(nlp / f"{name}{EXTENSION_SUFFIXES[0]}", (2_000, 2_000))
    return nlp


def test_a_source_edited_after_its_compiled_copy_is_refused_with_the_way_to_rebuild(tmp_path, monkeypatch):
    nlp = _layout(tmp_path, monkeypatch, git=True)
    compiled.check()  # all compiled after their sources
    os.utime(nlp / "mentions.py", (3_000, 3_000))
    assert compiled.stale() == ["kg/nlp/mentions.py"]
    with pytest.raises(ImportError, match=r"kg/nlp/mentions.py changed after it was compiled.*make install"):
        compiled.check()


def test_an_installed_copy_outside_a_checkout_is_not_checked(tmp_path, monkeypatch):
    nlp = _layout(tmp_path, monkeypatch, git=False)
    os.utime(nlp / "mentions.py", (3_000, 3_000))  # a wheel's files carry the install's times
    assert compiled.stale() == []


def test_without_compiled_copies_the_sources_run_and_nothing_is_stale(tmp_path, monkeypatch):
    nlp = _layout(tmp_path, monkeypatch, git=True)
    for path in nlp.glob(f"*{EXTENSION_SUFFIXES[0]}"):
        path.unlink()
    assert not compiled.in_use() and compiled.stale() == []
