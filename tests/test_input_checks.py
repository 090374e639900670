"""Input that reads as valid but is not what kg expects: one abstract under two ids, a paper list's block that is
a heading or a title alone, abstracts not in English. Each is a FILE:LINE problem; nothing valid is lost."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import kg
from kg.corpus import content_id, read_corpus
from kg.corpus.readers import MissingText, iter_papers
from kg.corpus.script import foreign_script
from kg.errors import InputWarning

from .helpers import run

ABSTRACT = ("We propose FooNet, a convolutional network for image classification. FooNet reaches 81.2% top-1 "
            "accuracy on ImageNet with half the parameters of ResNet-50, and transfers to object detection on COCO.")
CHINESE = "我们提出了一种用于图像分类的新型卷积神经网络，在多个基准数据集上取得了最好的结果。实验表明该方法有效。"


def jsonl(path: Path, *records: dict) -> str:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return str(path)


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def messages(corpus) -> list[str]:
    return [str(p) for p in corpus.problems]


# --- one abstract under two ids ------------------------------------------------------------------------------------

def test_one_title_and_abstract_under_two_dois_is_one_paper_keeping_both_ids(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", {"doi": "10.1000/a1", "title": "FooNet: fast nets", "abstract": ABSTRACT},
                 {"doi": "10.2000/b2", "title": "FooNet: Fast Nets ", "abstract": ABSTRACT.replace(". ", ".\n  ")})
    corpus = read_corpus([path])
    (paper,) = corpus.papers
    assert (paper.id, paper.other_ids, [s.line for s in paper.sources]) == ("10.1000/a1", ["10.2000/b2"], [1, 2])
    assert messages(corpus) == [f"{path}:2: warning: 10.2000/b2 has the title and abstract of 10.1000/a1 (read at "
                                f"{path}:1): one paper, 10.1000/a1, with 10.2000/b2 kept as an alternate id"]
    assert isinstance(corpus.problems[0], InputWarning)


def test_one_abstract_under_two_ids_is_one_paper_after_latex_and_markdown_cleaning(tmp_path):
    latex = ABSTRACT.replace("FooNet,", "$\\alpha$-Net,").replace("81.2%", "81.2\\%").replace("COCO", "**COCO**")
    plain = ABSTRACT.replace("FooNet,", "α-Net,")
    path = jsonl(tmp_path / "a.jsonl", {"id": "openreview:1", "title": "$\\alpha$-Net", "abstract": latex},
                 {"id": "openreview:2", "title": "α-Net", "abstract": plain},
                 {"arxiv_id": "2401.12345", "title": "α-Net", "abstract": plain})  # (no conflict: merged silently)
    corpus = read_corpus([path])
    assert [(p.id, p.other_ids) for p in corpus.papers] == [("2401.12345", ["openreview:1", "openreview:2"])]
    assert [p.source.line for p in corpus.problems] == [2]


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_the_published_version_names_the_paper_merged_with_its_preprint(tmp_path, order):
    records = [{"doi": "10.1101/2024.01.01.000001", "venue": "bioRxiv", "year": 2023, "title": "FooNet",
                "abstract": ABSTRACT},
               {"doi": "10.1038/s41586-024-00001-x", "venue": "Nature", "year": 2024, "title": "FooNet",
                "abstract": ABSTRACT}]
    corpus = read_corpus([jsonl(tmp_path / "a.jsonl", *(records[i] for i in order))])
    (paper,) = corpus.papers
    assert (paper.id, paper.venue, paper.year) == ("10.1038/s41586-024-00001-x", "Nature", 2024)
    assert paper.other_ids == ["10.1101/2024.01.01.000001"]
    assert len(corpus.problems) == 1 and "one paper, 10.1038/s41586-024-00001-x" in str(corpus.problems[0])


def test_one_abstract_under_two_titles_stays_two_papers_with_a_warning(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", {"id": "x", "title": "FooNet", "abstract": ABSTRACT},
                 {"id": "y", "title": "BarNet for detection", "abstract": ABSTRACT})
    corpus = read_corpus([path])
    assert [p.id for p in corpus.papers] == ["x", "y"]
    assert messages(corpus) == [f"{path}:2: warning: y has the abstract of x (read at {path}:1) under another title, "
                                "'BarNet for detection', not 'FooNet'; kept as two papers"]


def test_a_short_shared_abstract_tells_nothing(tmp_path):
    placeholder = "No abstract available."
    path = jsonl(tmp_path / "a.jsonl", {"doi": "10.1000/e1", "title": "Editorial", "abstract": placeholder},
                 {"doi": "10.1000/e2", "title": "Editorial", "abstract": placeholder})
    corpus = read_corpus([path])
    assert [p.id for p in corpus.papers] == ["10.1000/e1", "10.1000/e2"] and corpus.problems == []


def test_the_streaming_reader_keeps_the_papers_read_corpus_keeps_and_warns_alike(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", {"id": "x", "title": "FooNet", "abstract": ABSTRACT},
                 {"id": "y", "title": "fooNet", "abstract": ABSTRACT},
                 {"id": "z", "title": "BarNet", "abstract": ABSTRACT},
                 {"id": "w", "abstract": ABSTRACT})
    problems: list = []
    streamed = [p.id for p in iter_papers([path], on_problem=problems.append)]
    corpus = read_corpus([path])
    assert streamed == [p.id for p in corpus.papers] == ["x", "z"]
    assert [p.source.line for p in problems] == [p.source.line for p in corpus.problems] == [2, 3, 4]


def test_the_streaming_reader_warns_of_an_id_read_again_with_another_title_as_read_corpus_does(tmp_path):
    other = "We study graph neural networks for node classification on citation graphs with few labels at all."
    path = jsonl(tmp_path / "a.jsonl", {"id": "n1", "title": "FooNet", "abstract": ABSTRACT},
                 {"id": "n1", "title": "Another Paper", "abstract": other},
                 {"id": "n1", "title": "fooNet.", "abstract": ABSTRACT})  # the same title: a plain repeat
    problems: list = []
    streamed = [p.id for p in iter_papers([path], on_problem=problems.append)]
    corpus = read_corpus([path])
    assert streamed == [p.id for p in corpus.papers] == ["n1"]
    assert [p.source.line for p in problems] == [p.source.line for p in corpus.problems] == [2]
    assert "another title: 'Another Paper'" in str(problems[0]) and str(problems[0]).count("warning") == 1


def test_an_incremental_build_keeps_one_paper_for_one_abstract_under_two_ids(tmp_path):
    first = jsonl(tmp_path / "a.jsonl", {"doi": "10.1000/a1", "title": "FooNet", "abstract": ABSTRACT})
    second = jsonl(tmp_path / "b.jsonl", {"doi": "10.2000/b2", "title": "FooNet", "abstract": ABSTRACT})
    out = tmp_path / "out"
    kg.build([first], out, embeddings=False)
    grown = kg.build([second], out, embeddings=False)
    assert (grown.papers, grown.extracted) == (1, 0), "one paper, its extraction read from the cache"
    again = kg.build([first, second], out, embeddings=False)
    assert (again.papers, again.extracted) == (1, 0) and len(again.problems) == 1
    assert [n for n in again.graph.nodes if n.startswith("paper:")] == ["paper:10.1000/a1"]


# --- a paper list's block of one short line ------------------------------------------------------------------------

def test_a_block_of_one_short_line_is_no_abstract_and_is_skipped_with_its_line(tmp_path):
    path = write(tmp_path / "list.txt", f"ICML 2026\n\nOral session 3\n\n{ABSTRACT}\n\nAttention Is All You Need\n\n"
                                        "Do Transformers Really Perform Bad for Graph Representation?\n\n"
                                        "A short abstract: we propose FooNet.\n")
    corpus = read_corpus([path])
    assert [(p.text, p.venue, p.sources[0].line) for p in corpus.papers] == [
        (ABSTRACT, "ICML", 5), ("A short abstract: we propose FooNet.", "ICML", 11)]
    assert all(isinstance(p, MissingText) and not isinstance(p, InputWarning) for p in corpus.problems)
    assert messages(corpus) == [
        f"{path}:3: block is one short line with no sentence ('Oral session 3'): a heading, or a title without its "
        "abstract; skipped",
        f"{path}:7: block is one short line with no sentence ('Attention Is All You Need'): a heading, or a title "
        "without its abstract; skipped",
        f"{path}:9: block is one short line with no sentence ('Do Transformers Really Perform Bad for Graph "
        "Representation?'): a heading, or a title without its abstract; skipped"]


def test_many_title_lines_are_summed_up_as_records_without_an_abstract_are(tmp_path):
    titles = "\n\n".join(f"Title number {i}" for i in range(6))
    corpus = read_corpus([write(tmp_path / "list.txt", f"{titles}\n\n{ABSTRACT}\n")])
    assert len(corpus.papers) == 1
    assert [p.source.line for p in corpus.problems] == [1, 3, 5, 7]
    assert str(corpus.problems[-1]).endswith("3 more records without an abstract (lines 7, 9, 11); skipped")


# --- abstracts not in English --------------------------------------------------------------------------------------

def test_abstracts_not_in_english_are_kept_with_one_warning_per_file(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", {"id": "zh1", "abstract": CHINESE}, {"id": "en", "abstract": ABSTRACT},
                 {"id": "zh2", "abstract": CHINESE + "我们在ImageNet上进行了实验。"},
                 {"id": "ru", "abstract": "Мы предлагаем новую сверточную сеть для классификации изображений."})
    corpus = read_corpus([path])
    assert [p.id for p in corpus.papers] == ["zh1", "en", "zh2", "ru"]
    assert messages(corpus) == [f"{path}:1: warning: 3 abstracts (lines 1, 3, 4) are not in English (CJK, Cyrillic "
                                "scripts; kg extracts from English text): their papers are kept, with few or "
                                "no concepts"]


def test_one_abstract_not_in_english_in_a_paper_list(tmp_path):
    path = write(tmp_path / "list.txt", f"ICML 2026 论文列表\n\n{ABSTRACT}\n\n{CHINESE}\n")
    corpus = read_corpus([path])
    assert len(corpus.papers) == 2
    assert messages(corpus) == [f"{path}:5: warning: abstract is not in English (CJK script; kg extracts from "
                                "English text): its paper is kept, with few or no concepts"]


@pytest.mark.parametrize("text", [
    ABSTRACT,
    "Nous proposons un réseau convolutif léger pour la classification d'images à grande échelle.",  # (Latin script)
    "We bound the error by $\\alpha \\le \\beta$: α ≤ β ≤ γ for all λ, with μ-strong convexity (Schrödinger).",
    "模型",  # (too few letters to tell)
])
def test_english_latin_script_and_short_texts_are_not_flagged(text):
    assert foreign_script(text) is None


def test_kg_build_keeps_the_paper_and_reports_every_problem_on_one_line(tmp_path, capsys):
    records = jsonl(tmp_path / "a.jsonl", {"doi": "10.1000/a1", "title": "FooNet", "abstract": ABSTRACT},
                    {"doi": "10.2000/b2", "title": "FooNet", "abstract": ABSTRACT},
                    {"id": "zh", "title": "卷积网络", "abstract": CHINESE})
    listing = write(tmp_path / "list.txt", "Oral session 3\n\nWe study BERT on the GLUE benchmark.\n")
    code, out, err = run(capsys, "build", records, listing, "--out", str(tmp_path / "out"), "--no-embeddings")
    assert code == 1 and "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith(str(tmp_path))]
    assert [line.split(": ")[0] + ": " + line.split(": ")[1][:7] for line in lines] == [
        f"{records}:2: warning", f"{records}:3: warning", f"{listing}:1: block i"]
    graph = json.loads((tmp_path / "out" / "graph.json").read_text(encoding="utf-8"))
    assert sorted(n["id"] for n in graph["nodes"] if n["type"] == "Paper") == [
        "paper:10.1000/a1", f"paper:{content_id('We study BERT on the GLUE benchmark.')}", "paper:zh"]
