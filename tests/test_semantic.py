"""Text embeddings for related work: what they are, that builds keep them, and that the ranking blends them."""
from __future__ import annotations

import json
from pathlib import Path

import numpy
import pytest

import kg
from kg.cli import main
from kg.nlp import minilm
from kg.related import related, semantic
from kg.related.index import DIRECTORY, RelatedIndex

TEXTS = ["We estimate the pose of human bodies from single images.",
         "Keypoint localisation of people in images with a heatmap network.",
         "Forecasting stock market volatility from satellite images.",
         "A short one.",
         "We propose FooNet."]


def test_the_constants_are_the_encoders():
    assert semantic.PACKAGE == minilm.PACKAGE and semantic.WIDTH == minilm.WIDTH


def test_an_embedding_is_the_same_bits_whatever_else_is_embedded_with_it():
    together = semantic.embed(TEXTS + TEXTS[:2])
    alone = numpy.array([semantic.embed([t])[0] for t in TEXTS])
    assert together.dtype == numpy.float16 and together.shape == (len(TEXTS) + 2, semantic.WIDTH)
    assert (together[:len(TEXTS)] == alone).all() and (together[len(TEXTS):] == alone[:2]).all()
    assert numpy.linalg.norm(alone.astype(float), axis=1) == pytest.approx(1.0, abs=1e-3)


def test_embeddings_are_the_models_sentence_embeddings_of_the_start_of_the_text():
    long = " ".join(["graph neural networks for molecule property prediction"] * 40)
    encoder = minilm.shared()
    want = encoder.embed([long], pieces=semantic.PIECES)[0]
    assert semantic.embed([long])[0] == pytest.approx(want, abs=1e-3)
    assert semantic.embed([long])[0].tolist() != pytest.approx(encoder.sentence_embedding(long).tolist(), abs=1e-6)


def test_meaning_is_closer_than_words_say():
    e = semantic.embed(TEXTS[:3]).astype(float)
    pose, keypoints, stocks = e
    assert pose @ keypoints > pose @ stocks + 0.2


def test_pack_and_unpack_keep_every_bit():
    v = semantic.embed(TEXTS[:1])[0]
    text = semantic.pack(v)
    assert len(text) == 1024 and (semantic.unpack(text) == v).all()


def _corpus(path: Path) -> str:
    records = [{"id": f"p{i}", "title": t.split(" with ")[0][:40], "text": t} for i, t in enumerate(TEXTS[:3])]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def test_a_default_build_keeps_each_papers_embedding_and_a_fast_one_none(tmp_path):
    out = tmp_path / "default"
    report = kg.build([_corpus(tmp_path / "papers.jsonl")], out)
    papers = [d for _, d in report.graph.nodes(data=True) if d["type"] == "Paper"]
    assert all(len(semantic.unpack(d["embedding"])) == semantic.WIDTH for d in papers)
    on_disk = {n["id"]: n for n in json.loads((out / "graph.json").read_text())["nodes"]}
    assert on_disk["paper:p0"]["embedding"] == report.graph.nodes["paper:p0"]["embedding"]
    assert numpy.load(out / DIRECTORY / "embeddings.npy").shape == (3, semantic.WIDTH)
    assert "embedding" not in (out / "graph.graphml").read_text()
    assert not any("embedding" in f.read_text() for f in (out / "neo4j").glob("*.csv"))

    fast = tmp_path / "fast"
    report = kg.build([str(tmp_path / "papers.jsonl")], fast, mode="fast")
    assert not any("embedding" in d for _, d in report.graph.nodes(data=True))
    assert not (fast / DIRECTORY / "embeddings.npy").exists()
    hits = related(report.graph, "paper:p0")
    assert hits and all(h.semantic is None and h.similarity == h.tfidf for h in hits)


def test_without_the_encoder_a_build_ranks_by_words_alone(tmp_path, monkeypatch):
    monkeypatch.setattr(semantic, "available", lambda: False)
    report = kg.build([_corpus(tmp_path / "papers.jsonl")], tmp_path / "out")
    assert not any("embedding" in d for _, d in report.graph.nodes(data=True))
    assert all(h.semantic is None for h in related(report.graph, "paper:p0"))


def test_the_ranking_blends_meaning_into_the_texts_similarity(tmp_path):
    out = tmp_path / "out"
    report = kg.build([_corpus(tmp_path / "papers.jsonl")], out)
    hits = related(report.graph, "paper:p0")
    assert [h.paper for h in hits] == ["paper:p1", "paper:p2"]  # both share "images" with it
    keypoints, stocks = hits
    assert keypoints.semantic > stocks.semantic
    for h in hits:
        assert h.similarity == pytest.approx(semantic.blend(h.tfidf, h.semantic))
    index = RelatedIndex.load(out / DIRECTORY)
    assert [(h.paper, h.semantic) for h in index.related("paper:p0")] == [(h.paper, h.semantic) for h in hits]


def test_kg_related_says_how_alike_the_meanings_are(tmp_path, capsys):
    out = tmp_path / "out"
    kg.build([_corpus(tmp_path / "papers.jsonl")], out)
    assert main(["related", "p0", "--graph", str(out)]) == 0
    assert "(meaning 0." in capsys.readouterr().out
    assert main(["related", "human pose estimation in photos", "--graph", str(out), "--format", "json"]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    assert hits[0]["paper"] in ("paper:p0", "paper:p1") and hits[0]["semantic"] > 0.3


def test_only_the_best_candidates_by_concepts_and_words_are_compared_by_meaning_alike_in_graph_and_index(
        seed_build, monkeypatch):
    monkeypatch.setattr(semantic, "RERANK", 3)
    report, out = seed_build
    g, index = report.graph, RelatedIndex.load(out / DIRECTORY)
    compared = 0
    for p in sorted(n for n, d in g.nodes(data=True) if d["type"] == "Paper"):
        want, got = related(g, p, top=5), index.related(p, top=5)
        assert [(h.paper, h.semantic) for h in got] == [(h.paper, h.semantic) for h in want], p
        assert [h.score for h in got] == pytest.approx([h.score for h in want], abs=1e-5), p
        compared += sum(h.semantic > 0 for h in want)
        assert sum(h.semantic > 0 for h in want) <= 5
    assert compared  # (the best by concepts and words still have theirs)


def test_reranked_keeps_the_best_in_the_rankings_order():
    scores = numpy.array([1.0, 3.0, 3.0, 2.0, 3.0])
    tfidf = numpy.array([0.0, 0.1, 0.2, 0.0, 0.1])
    place = numpy.array([4, 3, 2, 1, 0])
    assert semantic.reranked(scores, tfidf, place, top=2).tolist() == list(range(5))  # (fewer than RERANK)
    old = semantic.RERANK
    try:
        semantic.RERANK = 2
        assert semantic.reranked(scores, tfidf, place, top=1).tolist() == [2, 4]  # ties: cosine, then place
        assert semantic.reranked(scores, tfidf, place, top=3).tolist() == [1, 2, 4]
    finally:
        semantic.RERANK = old


def test_the_index_reads_only_the_embeddings_a_query_needs_and_names_a_damaged_file(tmp_path):
    from kg.errors import InputError
    from kg.related.index import _read, _Rows

    path = tmp_path / "embeddings.npy"
    values = semantic.embed(TEXTS)
    numpy.save(path, values)
    rows = _Rows(path)
    assert len(rows) == len(TEXTS) and (rows[3] == values[3]).all()
    assert (rows[numpy.array([4, 0, 2])] == values[[4, 0, 2]]).all()
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(InputError, match="embeddings.npy: not an index file kg wrote"):
        _read(path, _Rows)


def _jsonl(path: Path, records: list[dict]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def _embeddings(out: Path) -> dict[str, str | None]:
    return {n["id"]: n.get("embedding") for n in json.loads((out / "graph.json").read_text())["nodes"]
            if n["type"] == "Paper"}


def test_two_papers_with_one_abstract_keep_their_own_embeddings_build_after_build(tmp_path):
    text = "We propose FooNet for image classification on CIFAR-10."
    papers = [{"id": "a", "title": "Cats and dogs", "text": text}, {"id": "b", "title": "Protein folding", "text": text}]
    inputs = _jsonl(tmp_path / "papers.jsonl", papers)
    want = {f"paper:{p['id']}": semantic.pack(semantic.embed([semantic.paper_text(p["title"], text)])[0])
            for p in papers}
    for _ in range(3):  # (the second and third builds extract and embed nothing)
        kg.build([inputs], tmp_path / "out")
        assert _embeddings(tmp_path / "out") == want


def test_a_build_without_embeddings_into_a_build_with_them_has_none(tmp_path):
    inputs = _corpus(tmp_path / "papers.jsonl")
    kg.build([inputs], tmp_path / "out")
    assert all(_embeddings(tmp_path / "out").values())
    report = kg.build([inputs], tmp_path / "out", embeddings=False)
    assert report.extracted == 0 and not any(_embeddings(tmp_path / "out").values())
    assert not (tmp_path / "out" / DIRECTORY / "embeddings.npy").exists()


def test_the_embedding_cache_keeps_what_the_papers_still_need_and_survives_a_cut_record(tmp_path):
    from kg.build.cache import EmbeddingCache
    from kg.model import Paper

    papers = [Paper(id=f"p{i}", title=f"T{i}", text=t) for i, t in enumerate(TEXTS)]
    cache = EmbeddingCache(tmp_path)
    for p in papers:
        cache.want(p)
    cache.flush()
    got = [cache.get(p) for p in papers]
    assert all(got) and semantic.unpack(got[0]).tolist() == semantic.embed([semantic.paper_text("T0", TEXTS[0])])[0].tolist()
    cache.keep(papers[:2])
    again = EmbeddingCache(tmp_path)
    assert [again.get(p) for p in papers] == got[:2] + [None] * (len(papers) - 2)
    with again.path.open("ab") as f:
        f.write(b"cut short")
    assert [EmbeddingCache(tmp_path).get(p) for p in papers[:2]] == got[:2]


def test_the_encoder_is_available_only_with_its_weights(monkeypatch, tmp_path):
    import importlib.util
    from types import SimpleNamespace

    assert semantic.available()
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: SimpleNamespace(origin=str(tmp_path / "x.py")))
    assert not semantic.available()  # (a package without model/model.safetensors)


def test_a_paper_is_embedded_as_it_reads_without_latex():
    from kg.related.semantic import paper_text

    assert paper_text(r"The $\alpha$-Net", r"A map $f: \mathbb{R}^n \to \mathbb{R}$ of \textbf{kernels}.") == \
        "The α-Net. A map f: Rⁿ → R of kernels."
