"""kg.nlp._doc reads and writes a Doc's token array with the values spaCy's to_array/from_array give and take."""
from __future__ import annotations

import random

import numpy
import pytest
from spacy.attrs import (ENT_ID, ENT_IOB, ENT_KB_ID, ENT_TYPE, IDX, IS_PUNCT, LIKE_NUM, LOWER, ORTH, PREFIX, SENT_START,
                         SHAPE, SUFFIX)

from kg.bench.synthetic import synthetic_corpus
from kg.nlp import _doc
from kg.nlp.pipeline import config_path, load_pipeline

ATTRS = (ORTH, LOWER, SHAPE, SUFFIX, PREFIX, LIKE_NUM, IS_PUNCT, IDX, SENT_START, ENT_IOB, ENT_TYPE)
TEXTS = ["", "One.", "We propose Foo-Net (FN), which beats GPT-4 by 3.5% on ImageNet-C! Really? Yes... ok",
         *(p.text for p in synthetic_corpus(20, 3))]


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline(config_path("default"))


def test_columns_are_to_arrays_columns(nlp):
    for text in TEXTS:
        for doc in (nlp.make_doc(text), nlp(text)):  # no annotation yet, then sentences and entities set
            expected = doc.to_array(list(ATTRS)).reshape(len(doc), len(ATTRS)).T.tolist()
            for attr, values in zip(ATTRS, expected):
                col = _doc.Column(doc, attr)
                assert list(col) == values and col == values and len(col) == len(values)
                assert [col[i] for i in range(-len(values), len(values))] == values + values
                assert col[2:7] == values[2:7] and col[::-3] == values[::-3] and col[-4:] == values[-4:]
                for outside in (len(values), -len(values) - 1):
                    with pytest.raises(IndexError):
                        col[outside]
            assert list(_doc.Column(doc, -1)) == [t.idx + len(t.text) for t in doc]  # token ends


def test_fill_rows_writes_to_arrays_rows_at_an_offset(nlp):
    for text in TEXTS:
        doc = nlp(text)
        out = numpy.full((5, len(doc) + 7), 9, dtype=numpy.uint64)
        _doc.fill_rows(doc, (LOWER, SHAPE, SUFFIX, SENT_START), out, 3)
        expected = numpy.full_like(out, 9)
        expected[:4, 3:3 + len(doc)] = doc.to_array([LOWER, SHAPE, SUFFIX, SENT_START]).reshape(len(doc), 4).T
        assert (out == expected).all()
    with pytest.raises(IndexError):
        _doc.fill_rows(nlp.make_doc("a b c"), (LOWER,), numpy.zeros((1, 4), dtype=numpy.uint64), 2)


def _state(doc) -> list:
    return [doc.to_array([SENT_START, ENT_IOB, ENT_TYPE, ENT_ID, ENT_KB_ID]).tolist(),
            [(s.start, s.end) for s in doc.sents] if len(doc) else [], [(e.start, e.end, e.label_) for e in doc.ents],
            doc.has_annotation("SENT_START"), doc.has_annotation("ENT_IOB")]


def test_writes_leave_the_doc_as_from_array_does(nlp):
    for text in TEXTS[1:]:
        ours, theirs = nlp.make_doc(text), nlp.make_doc(text)
        n = len(ours)
        starts = sorted({0, *range(3, n, 7)})
        marks = numpy.full((n, 1), -1, dtype="int32")
        marks[starts, 0] = 1
        theirs.from_array([SENT_START], marks.astype("uint64"))
        _doc.set_sentence_starts(ours, starts)
        ents = [(k, min(k + 2, n), "METHOD" if k % 2 else "TASK") for k in range(1, n, 5)]
        iob, types = [2] * n, [0] * n
        for s, e, label in ents:
            iob[s], types[s] = 3, theirs.vocab.strings.add(label)
            for k in range(s + 1, e):
                iob[k], types[k] = 1, types[s]
        theirs.from_array([ENT_IOB, ENT_TYPE], numpy.array([iob, types], dtype=numpy.uint64).T)
        _doc.set_entities(ours, [(s, e, ours.vocab.strings.add(label)) for s, e, label in ents])
        assert _state(ours) == _state(theirs)


def test_writes_outside_the_doc_are_refused(nlp):
    doc = nlp.make_doc("a b c")
    with pytest.raises(IndexError):
        _doc.set_sentence_starts(doc, [0, 3])
    with pytest.raises(IndexError):
        _doc.set_entities(doc, [(2, 4, 1)])
    with pytest.raises(IndexError):
        _doc.set_entities(doc, [(2, 2, 1)])


def test_id_sets_hold_what_was_added_zero_included_and_grow():
    ids = _doc.IdSet(range(1, 1000, 7))
    assert all(h in ids for h in range(1, 1000, 7)) and not any(h in ids for h in range(2, 1000, 7))
    assert 0 not in ids and len(ids) == len(range(1, 1000, 7))
    ids.add(0)
    ids.add(2**64 - 1)
    ids.add(8)  # already there
    assert 0 in ids and 2**64 - 1 in ids and len(ids) == len(range(1, 1000, 7)) + 2
    rng = random.Random(0)  # 64-bit ids (string hashes), enough to fill the set's 4,096-bit filter
    held = {rng.getrandbits(64) for _ in range(10_000)}
    others = {rng.getrandbits(64) for _ in range(10_000)} - held
    big = _doc.IdSet(held)
    assert all(h in big for h in held) and not any(h in big for h in others) and len(big) == len(held)


def test_phrase_index_finds_what_the_phrase_matcher_finds(nlp):
    from spacy.matcher import PhraseMatcher

    rng = random.Random(1)
    docs = [nlp.make_doc(t) for t in TEXTS]
    words = sorted({t.text for d in docs for t in d})
    # patterns cut from the texts (nested, overlapping, at a doc's end) and random word sequences, one key each
    patterns = [d[a:a + k].text for d in docs for a in range(0, len(d), 3) for k in (1, 2, 4) if a + k <= len(d)]
    patterns += [" ".join(rng.sample(words, rng.randint(1, 3))) for _ in range(3000)]
    for attr, name in ((LOWER, "LOWER"), (ORTH, "ORTH")):
        ours, theirs = _doc.PhraseIndex(attr), PhraseMatcher(nlp.vocab, attr=name)
        for i, text in enumerate(patterns):
            key = nlp.vocab.strings.add(f"p{i}")
            pattern = nlp.make_doc(text.upper() if i % 5 == 0 else text)
            ours.add(key, [t.lower if attr == LOWER else t.orth for t in pattern])
            theirs.add(f"p{i}", [pattern])
        assert ours.attr == attr and len(ours) == len({tuple(t.lower_ if attr == LOWER else t.text
                                                             for t in nlp.make_doc(p.upper() if i % 5 == 0 else p))
                                                       for i, p in enumerate(patterns)})
        found = 0
        for doc in docs:  # the same matches in the same order of spans (the keys of one span: see below)
            mine, spacys = ours(doc), theirs(doc)
            assert [m[1:] for m in mine] == [m[1:] for m in spacys] and sorted(mine) == sorted(spacys)
            found += len(mine)
        assert found > 1000


def test_phrase_index_keys_of_one_sequence_come_in_the_order_added(nlp):
    index = _doc.PhraseIndex(LOWER)
    index.add(7, [])  # an empty pattern matches nothing
    tokens = [t.lower for t in nlp.make_doc("graph neural network")]
    for key in (9, 3, 9, 5):  # a key added twice is held once
        index.add(key, tokens)
    index.add(4, tokens[:2])
    doc = nlp.make_doc("A Graph Neural Network.")
    assert index(doc) == [(4, 1, 3), (9, 1, 4), (3, 1, 4), (5, 1, 4)] and len(index) == 2
    assert index(nlp.make_doc("")) == [] and _doc.PhraseIndex(ORTH)(doc) == []


def test_scans_and_offsets_agree_with_tokens(nlp):
    from kg.nlp.candidates import positions, positions_of, span_text

    for text in TEXTS:
        doc = nlp(text)
        words = frozenset(t.lower_ for t in list(doc)[::3])
        assert positions(doc, words) == [t.i for t in doc if t.lower_ in words]
        assert positions_of(doc, ["(", "GPT-4"]) == [t.i for t in doc if t.text in ("(", "GPT-4")]
        some = {t.shape for t in list(doc)[::4]} | {t.idx for t in list(doc)[::5]}
        for attr, value in ((SHAPE, lambda t: t.shape), (IDX, lambda t: t.idx)):  # a lexeme's and a token's field
            assert _doc.where(doc, attr, _doc.IdSet(some)) == [t.i for t in doc if value(t) in some]
        shapes = _doc.IdSet()
        seen = _doc.distinct_missing(doc, SHAPE, shapes)
        assert seen == list(dict.fromkeys(t.shape for t in doc))
        if seen:
            shapes.add(seen[0])
            assert _doc.distinct_missing(doc, SHAPE, shapes) == seen[1:]
        for a in range(len(doc)):
            for b in range(a, min(a + 6, len(doc)) + 1):
                assert span_text(doc, a, b) == doc[a:b].text == _doc.span_text(doc, doc.text, a, b)
            assert span_text(doc, a + 1, a) == ""
        for a, b in ((-1, 1), (0, len(doc) + 1)):
            with pytest.raises(IndexError):
                _doc.span_text(doc, doc.text, a, b)


def test_sentence_start_flags(nlp):
    for text in TEXTS[1:]:
        doc = nlp(text)
        flags = numpy.zeros((2, len(doc) + 2), dtype=numpy.uint64)
        _doc.fill_starts(doc, flags, 1, 1)
        expected = [int(t.i == 0 or t.is_sent_start is True) for t in doc]
        assert flags[1, 1:-1].tolist() == expected and flags[0].sum() == 0 and flags[1, 0] == flags[1, -1] == 0


def test_tokenize_gives_the_tokenizers_tokens_again_and_again(nlp):
    """kg's tokenizer (kg.nlp._doc.tokenize: chunks after a special case enter the cache) gives spaCy's tokens,
    whether a chunk was cached or not: after "e.g.," and "(i.e.," too, and on a second reading."""
    from spacy.tokenizer import Tokenizer

    tokenizer = nlp.tokenizer
    texts = [*TEXTS, "Models (e.g., ResNet-50) and GPT-4, i.e., LLMs (i.e. GPT-4o): can't \u201cwin\u201d.\n\nNext  x ",
             " (e.g., CIFAR-10/100) ImageNet-1K. SimplE.", *(("ab " * 40)[:n] for n in range(76, 92)),
             # characters of two, three and four bytes in UTF-8 (the chunks' keys hash byte ranges of the text's
             # encoding) and whitespace other than spaces
             "Caf\u00e9 3\u00d74 \u201cViT\u201d \u2014 \u4e2d\u6587 \U0001d6fc-net \U0001f600 x\u00a0y\u2009z\tw\n é",
             "\U0001d6fc-net \u00e9 Caf\u00e9 ViT"]  # (sizes around the doc's first allocation: room is made ahead
    # for long texts only)
    for _ in range(2):
        for text in texts:
            ours = _doc.tokenize(tokenizer, text)
            spacys = Tokenizer.__call__(tokenizer, text)
            assert [(t.text, t.whitespace_, t.idx) for t in ours] == [(t.text, t.whitespace_, t.idx) for t in spacys]
            assert [(t.text, t.whitespace_) for t in nlp.make_doc(text)] == [(t.text, t.whitespace_) for t in ours]
