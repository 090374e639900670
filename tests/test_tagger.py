"""The default pipeline's linear tagger: exact decoding, features independent of batching, a perceptron that
learns and ignores missing labels, a round trip through disk, and the shipped tagger inside the default pipeline."""
from __future__ import annotations

import itertools
import json
import warnings
from pathlib import Path

import numpy
import pytest

from kg.nlp.pipeline import load_pipeline
from kg.nlp.components.tagger import (DEFAULT_DIR, FORBIDDEN, FORBIDDEN_END, N_TAGS, TAGS, TEMPLATES, LinearTagger, decode,
                           feature_ids, spans, viterbi)

needs_tagger = pytest.mark.skipif(not (DEFAULT_DIR / "weights.npz").exists(),
                                  reason="no tagger in kg/nlp/trained_tagger")
GOLD = Path(__file__).parent / "fixtures" / "gold"  # small made-up gold files (tests/fixtures/gold/make_gold.py)


def brute_force(em: numpy.ndarray, trans: numpy.ndarray, allowed: numpy.ndarray | None) -> list[int]:
    step = trans + FORBIDDEN
    best, arg = -numpy.inf, None
    for path in itertools.product(range(N_TAGS), repeat=len(em)):
        if allowed is not None and not all(allowed[i, t] for i, t in enumerate(path)):
            continue
        s = step[N_TAGS, path[0]] + em[0, path[0]] + sum(
            step[path[i - 1], path[i]] + em[i, path[i]] for i in range(1, len(em))) + FORBIDDEN_END[path[-1]]
        if s > best:
            best, arg = s, list(path)
    return arg


def test_viterbi_finds_the_best_allowed_path_for_sequences_of_different_lengths():
    rng = numpy.random.default_rng(3)
    for _ in range(12):
        trans = rng.standard_normal((N_TAGS + 1, N_TAGS)).astype(numpy.float32)
        ems = [rng.standard_normal((int(n), N_TAGS)).astype(numpy.float32) for n in rng.integers(1, 4, size=4)]
        masks = [rng.random(e.shape) > 0.5 for e in ems]
        for m in masks:
            m[:, 0] = True  # "O" is always possible, so an allowed path exists
        for got, em, mask in zip(viterbi(ems, trans, masks), ems, masks):
            assert list(got) == brute_force(em, trans, mask)
        for got, em in zip(viterbi(ems, trans), ems):
            assert list(got) == brute_force(em, trans, None)


def test_decoding_sequences_in_place_leaves_rows_between_them_outside():
    rng = numpy.random.default_rng(5)
    trans = rng.standard_normal((N_TAGS + 1, N_TAGS)).astype(numpy.float32)
    rows = rng.standard_normal((12, N_TAGS)).astype(numpy.float32) + 3.0  # every tag beats "O"
    tags = decode(rows, [1, 5, 9], [3, 0, 2], trans)
    assert tags[[0, 4, 5, 6, 7, 8, 11]].tolist() == [0] * 7
    assert tags[1:4].tolist() == list(viterbi([rows[1:4]], trans)[0])
    assert tags[9:11].tolist() == list(viterbi([rows[9:11]], trans)[0])


def test_an_inside_tag_never_starts_an_entity_or_follows_another_label():
    trans = numpy.zeros((N_TAGS + 1, N_TAGS), dtype=numpy.float32)
    em = numpy.zeros((3, N_TAGS), dtype=numpy.float32)
    em[:, TAGS.index("I-TASK")] = 5.0  # the emissions want I-TASK everywhere
    em[1, TAGS.index("B-METHOD")] = 1.0
    path = viterbi([em], trans)[0]
    assert TAGS[path[0]] != "I-TASK" and TAGS[path[-1]] != "I-TASK"  # no entity starts or ends on I-
    assert spans(path) and all(lab == "TASK" for _, _, lab in spans(path))


def test_spans_read_bilou_tags():
    tags = ["O", "B-TASK", "L-TASK", "U-TASK", "O", "B-METHOD", "I-METHOD", "L-METHOD", "U-METRIC"]
    path = numpy.array([TAGS.index(t) for t in tags])
    assert spans(path) == [(1, 3, "TASK"), (3, 4, "TASK"), (5, 8, "METHOD"), (8, 9, "METRIC")]
    assert spans(numpy.array([], dtype=numpy.int64)) == []


def test_features_of_a_doc_do_not_depend_on_the_docs_batched_with_it():
    nlp = load_pipeline()
    texts = ["We propose FooNet for semantic segmentation on Cityscapes.", "",
             "Accuracy improves.", "BLEU on WMT14 English-German rises by 2 points with our LoRA variant."]
    docs = list(nlp.pipe(texts))
    together = feature_ids(docs, 20)
    for doc, ids in zip(docs, together):
        assert ids.shape == (len(doc), len(TEMPLATES))
        assert numpy.array_equal(ids, feature_ids([doc], 20)[0])
        assert ids.size == 0 or (ids.min() >= 0 and ids.max() < 2 ** 20)
    # "on" in both docs: the same word feature, other context features
    word = [name for name, _ in TEMPLATES].index("w")
    on_a, on_b = (together[k][[t.text for t in docs[k]].index("on")] for k in (0, 3))
    assert on_a[word] == on_b[word] and not numpy.array_equal(on_a, on_b)


def test_the_perceptron_learns_its_training_documents_and_ignores_missing_labels(tmp_path):
    from kg.train.data import Converter
    from kg.train.tagger import examples, rules_pipeline, span_f1, train_tagger

    nlp, conv = rules_pipeline(), Converter()
    docs = examples(("scierc-dev",), 18, data_dir=GOLD, nlp=nlp, converter=conv)[:25]
    tagger, record = train_tagger(docs, docs, epochs=8, bits=18, log=lambda *_: None)
    assert span_f1(tagger, docs, ("METHOD", "TASK", "METRIC"))["all"]["f"] > 0.8
    assert record["history"][-1]["mistakes"] < record["history"][0]["mistakes"]
    # every label missing: any path is consistent with the gold, so nothing is learned
    blind = [type(d)(d.ids, numpy.ones_like(d.allowed), d.gold, d.units) for d in docs]
    untouched, rec = train_tagger(blind, docs, epochs=2, bits=18, log=lambda *_: None)
    assert not untouched.weights.any() and not untouched.trans.any()
    assert all(h["mistakes"] == 0 for h in rec["history"])
    # a round trip through disk predicts the same
    tagger.to_disk(tmp_path / "t")
    again = LinearTagger.from_disk(tmp_path / "t")
    sample = list(nlp.pipe([d["text"] for d in map(json.loads, (GOLD / "scierc-dev.jsonl").open())][:5]))
    assert tagger.predict(sample) == again.predict(sample)


def test_a_tagger_with_other_features_is_refused(tmp_path):
    LinearTagger(bits=8).to_disk(tmp_path)
    meta = json.loads((tmp_path / "meta.json").read_text())
    meta["templates"] = meta["templates"][:-1]
    (tmp_path / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="rebuild it with `kg train`"):
        LinearTagger.from_disk(tmp_path)


@needs_tagger
def test_the_default_pipeline_tags_open_vocabulary_tasks_and_methods_the_rules_miss():
    from kg.train.evaluate import pipeline

    text = ("We address the problem of dense reconstruction of textured surfaces from sparse views. "
            "Our approach combines a probabilistic regression model with a graph-based smoothing algorithm.")
    nlp = load_pipeline()
    assert "kg_tagger" in nlp.pipe_names
    found = {(m.text, m.label) for m in nlp(text)._.kg_mentions}
    rules = {(m.text, m.label) for m in pipeline(model=False)(text)._.kg_mentions}
    assert found - rules, "the tagger added nothing the rules did not find"
    assert any(lab in ("TASK", "METHOD") for _, lab in found - rules)
    meta = json.loads((DEFAULT_DIR / "meta.json").read_text())
    assert meta["kg_training"]["train_corpora"] and meta["kg_training"]["data"]
    assert (DEFAULT_DIR / "weights.npz").stat().st_size < 10 * 2 ** 20


def test_the_default_pipeline_runs_on_the_rules_alone_without_a_tagger(tmp_path):
    from kg.train.evaluate import tagger_pipeline

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nlp = tagger_pipeline(tmp_path / "absent")
    assert any("no trained tagger" in str(w.message) for w in caught)
    doc = nlp("We evaluate on ImageNet and report top-1 accuracy.")
    assert {m.label for m in doc._.kg_mentions} >= {"DATASET", "METRIC"}


def test_kg_train_only_tagger_rebuilds_the_same_tagger_and_records_how(tmp_path):
    from kg.cli import main

    data = tmp_path / "data"
    data.mkdir()
    for f in GOLD.glob("*.jsonl"):
        (data / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["train", "--only", "tagger", "--data", str(data), "--out", str(tmp_path / "out"), "--no-install",
                 "--max-epochs", "2"]) == 0
    built = tmp_path / "out" / "tagger"
    meta = json.loads((built / "meta.json").read_text())
    assert meta["kg_training"]["epochs_run"] == 2 and meta["kg_training"]["seed"] == 0
    assert "scierc-dev" in meta["kg_scores"]["shared_scorer"]
    first = LinearTagger.from_disk(built)
    assert first.bits == 20 and first.weights.any()
    # the same seed rebuilds the same tagger
    assert main(["train", "--only", "tagger", "--data", str(data), "--out", str(tmp_path / "again"),
                 "--no-install", "--max-epochs", "2"]) == 0
    again = LinearTagger.from_disk(tmp_path / "again" / "tagger")
    assert numpy.array_equal(first.weights, again.weights) and numpy.array_equal(first.trans, again.trans)
    # a data directory without the training files is bad input, not a traceback
    (data / "tdmsci-train.jsonl").unlink()
    assert main(["train", "--only", "tagger", "--data", str(data), "--out", str(tmp_path / "x"), "--no-install"]) == 2


def test_gold_becomes_bilou_tags_with_missing_labels_free_and_cut_entities_closable():
    import spacy
    from spacy.tokens import Doc

    from kg.train.tagger import _allowed, _cut_at

    words = "we use the Penn Treebank . Tree bank here".split()
    iob = ["O", "O", None, "B-DATASET", "I-DATASET", "I-DATASET", "I-DATASET", None, "B-TASK"]
    gold = Doc(spacy.blank("en").vocab, words=words, ents=iob)
    allowed = _cut_at(_allowed(gold), [(0, 6), (6, 9)])  # a sentence boundary after "."
    tags = [sorted(TAGS[k] for k in row.nonzero()[0]) for row in allowed]
    assert tags[0] == tags[1] == ["O"]
    assert len(tags[2]) == len(tags[7]) == N_TAGS  # missing: any tag
    assert tags[3:5] == [["B-DATASET"], ["I-DATASET"]]
    assert tags[5] == ["I-DATASET", "L-DATASET"]  # the first unit may close the entity it cannot finish
    assert tags[6] == ["L-DATASET", "U-DATASET"]  # and the next may open it again
    assert tags[8] == ["U-TASK"]
