"""The synthetic inputs of the benchmarks: made from packaged data only, the same for the same seed, and shaped
like the real abstracts they are made from."""
from __future__ import annotations

import statistics
import tomllib
from pathlib import Path

import pytest

import kg
from kg.bench.synthetic import SOURCES, _SENT, sentences_of, source_abstracts, source_texts, synthetic_corpus, synthetic_graph

ROOT = Path(kg.__file__).resolve().parents[1]


def test_the_sources_are_package_data_with_the_licences_of_what_they_hold():
    assert SOURCES.resolve().is_relative_to(Path(kg.__file__).resolve().parent)
    assert len(source_abstracts()) == 250 and len(source_texts()) > 1000
    for licence in ("LICENSE.SciREX.txt", "LICENSE.science-result-extractor.txt"):
        assert "Apache License" in (SOURCES.parent / licence).read_text(encoding="utf-8")
    pyproject = ROOT / "pyproject.toml"
    if pyproject.is_file():  # a source checkout: the files are declared package data, so a wheel holds them
        declared = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["kg"]
        assert "data/*" in declared


def test_the_same_seed_gives_the_same_corpus_and_another_seed_another(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing is read relative to the working directory
    first = [(p.id, p.text, p.venue, p.year) for p in synthetic_corpus(50, seed=7)]
    assert first == [(p.id, p.text, p.venue, p.year) for p in synthetic_corpus(50, seed=7)]
    assert [t for _, t, _, _ in first] != [p.text for p in synthetic_corpus(50, seed=8)]
    assert [p.id for p in synthetic_corpus(3)] == ["syn-0000000", "syn-0000001", "syn-0000002"]


def test_abstracts_are_real_sentences_with_the_lengths_of_real_abstracts():
    sources = source_abstracts()
    sentences = set(sentences_of(sources) + sentences_of(source_texts()))
    papers = list(synthetic_corpus(2000, seed=0))
    assert all(p.text in sentences or any(p.text.startswith(s + " ") for s in sentences) for p in papers[:100])
    for measure in (len, lambda text: len(_SENT.split(text))):  # characters, sentences
        real = [measure(t) for t in sources]
        synthetic = [measure(p.text) for p in papers]
        assert abs(statistics.mean(synthetic) - statistics.mean(real)) < 0.05 * statistics.mean(real)
        assert abs(statistics.median(synthetic) - statistics.median(real)) < 0.1 * statistics.median(real)


def test_other_sources_can_be_given_and_none_usable_is_an_error():
    text = ("A first sentence of this abstract is here. A second sentence follows it here. "
            "And a third sentence of it ends the abstract.")
    more = "Another sentence comes from elsewhere."
    papers = list(synthetic_corpus(20, abstracts=[text], texts=[more]))
    assert set().union(*(_SENT.split(p.text) for p in papers)) == set(_SENT.split(text)) | {more}
    assert all(abs(len(p.text) - len(text)) < 60 for p in papers)
    with pytest.raises(ValueError, match="needs abstracts"):
        list(synthetic_corpus(1, abstracts=["Too short."]))


def test_the_synthetic_graph_is_the_same_for_the_same_seed():
    a, b = synthetic_graph(200, seed=1), synthetic_graph(200, seed=1)
    assert sorted(a.nodes) == sorted(b.nodes) and sorted(a.edges(keys=True)) == sorted(b.edges(keys=True))
    assert sum(d["type"] == "Paper" for _, d in a.nodes(data=True)) == 200
    assert sorted(a.nodes) != sorted(synthetic_graph(200, seed=2).nodes)
