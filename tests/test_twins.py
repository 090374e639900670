"""The Python twins of the C extensions (kg/nlp/_tagger_py.py, kg/nlp/_doc_py.py) give what the compiled modules
give: the same arrays bit for bit, the same values, the same writes to a doc, the same errors."""
from __future__ import annotations

import importlib
import random
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import numpy
import pytest
from spacy.attrs import (ENT_IOB, ENT_TYPE, IDX, IS_PUNCT, LENGTH, LIKE_NUM, LOWER, ORTH, PREFIX, SENT_START, SHAPE,
                         SUFFIX)

import kg.nlp._doc_py as doc_twin
import kg.nlp._tagger_py as tagger_twin

U64 = numpy.uint64
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "icml"


def _compiled(name: str):
    """The compiled extension ``name`` (skip when this install has none: its twin is what runs, and the
    extraction tests cover it)."""
    module = importlib.import_module(name)
    if not str(module.__file__).endswith(tuple(EXTENSION_SUFFIXES)):
        pytest.skip(f"{name} is not compiled here ({module.__file__})")
    return module


@pytest.fixture(scope="module")
def c_tagger():
    return _compiled("kg.nlp._tagger")


@pytest.fixture(scope="module")
def c_doc():
    return _compiled("kg.nlp._doc")


def _same_error(call_c, call_py) -> None:
    """Both calls fail, with the same exception type."""
    with pytest.raises(Exception) as c_error:
        call_c()
    with pytest.raises(Exception) as py_error:
        call_py()
    assert type(py_error.value) is type(c_error.value), (c_error.value, py_error.value)


# ---------------------------------------------------------------------------------------------- the tagger's loops

def _templates(rng: numpy.random.Generator, n_columns: int, pad: int):
    templates = [[(int(rng.integers(0, n_columns)), int(rng.integers(-pad, pad + 1)))
                  for _ in range(int(rng.integers(0, 4)))] for _ in range(int(rng.integers(1, 35)))]
    parts = numpy.array([p for t in templates for p in t], dtype=numpy.int64).reshape(-1, 2)
    ends = numpy.cumsum([len(t) for t in templates], dtype=numpy.int64)
    seeds = rng.integers(0, 2 ** 64, size=len(templates), dtype=U64)
    return seeds, parts, ends


def test_feature_hashing_is_the_same(c_tagger):
    rng = numpy.random.default_rng(10)
    for trial in range(30):
        pad, n_columns = int(rng.integers(0, 4)), int(rng.integers(1, 10))
        seeds, parts, ends = _templates(rng, n_columns, pad)
        whole = rng.integers(0, 2 ** 64, size=(n_columns, int(rng.integers(0, 400)) + 2 * pad), dtype=U64)
        whole[:, ::5] = rng.integers(0, 3, size=whole[:, ::5].shape, dtype=U64)
        bits = int(rng.integers(0, 64))
        outs = [numpy.full((whole.shape[1] - 2 * pad, len(seeds)), -7, dtype=numpy.int64) for _ in range(2)]
        c_tagger.feature_ids(whole, seeds, parts, ends, pad, bits, outs[0])
        tagger_twin.feature_ids(whole, seeds, parts, ends, pad, bits, outs[1])
        assert numpy.array_equal(outs[0], outs[1]), trial


def test_emission_sums_are_bit_identical(c_tagger):
    rng = numpy.random.default_rng(11)
    for n_tags in (1, 7, 8, 17, 33):
        scale = 10.0 ** rng.integers(-4, 5, size=(500, 1))  # many magnitudes: the order of the additions shows
        weights = (rng.standard_normal((500, n_tags)) * scale).astype(numpy.float32)
        ids = rng.integers(0, 500, size=(300, int(rng.integers(1, 40))))
        outs = [numpy.empty((300, n_tags), dtype=numpy.float32) for _ in range(2)]
        c_tagger.scores(weights, ids, outs[0])
        tagger_twin.scores(weights, ids, outs[1])
        assert numpy.array_equal(outs[0].view(numpy.uint32), outs[1].view(numpy.uint32)), n_tags


def _batch(rng: numpy.random.Generator, n_tags: int, ties: bool):
    lens = rng.integers(0, 30, size=int(rng.integers(1, 80)))
    gaps = rng.integers(0, 3, size=len(lens))
    starts = numpy.cumsum(numpy.concatenate([[0], (lens + gaps)[:-1]])).astype(numpy.int64)
    rows = int((lens + gaps).sum())
    if ties:  # small integers: paths tie, and the lowest-numbered predecessor must win
        em = rng.integers(-3, 4, size=(rows, n_tags)).astype(numpy.float32)
        step = rng.integers(-2, 3, size=(n_tags + 1, n_tags)).astype(numpy.float32)
        end = rng.integers(-1, 1, size=n_tags).astype(numpy.float32)
    else:
        em = (rng.standard_normal((rows, n_tags)) * 5).astype(numpy.float32)
        step = rng.standard_normal((n_tags + 1, n_tags)).astype(numpy.float32)
        end = rng.standard_normal(n_tags).astype(numpy.float32)
    return em, step, end, starts, lens.astype(numpy.int64), rng.random(em.shape) > 0.3


def test_decoding_is_the_same_for_any_number_of_tags_with_and_without_a_mask(c_tagger):
    rng = numpy.random.default_rng(12)
    for n_tags in (1, 2, 5, 8, 9, 17, 24, 25, 40):
        for ties in (True, False):
            em, step, end, starts, lens, mask = _batch(rng, n_tags, ties)
            for allowed in (None, mask):
                tags = [numpy.full(len(em), -1, dtype=numpy.int64) for _ in range(2)]
                c_tagger.viterbi(em, step, end, starts, lens, allowed, tags[0])
                tagger_twin.viterbi(em, step, end, starts, lens, allowed, tags[1])
                assert numpy.array_equal(tags[0], tags[1]), (n_tags, ties, allowed is None)


def test_prediction_in_one_pass_is_the_same(c_tagger):
    rng = numpy.random.default_rng(13)
    for trial in range(24):
        pad, n_columns, n_tags, bits = 2, 8, int(rng.choice([3, 17, 20])), int(rng.integers(4, 12))
        seeds, parts, ends = _templates(rng, n_columns, pad)
        kept = int(rng.integers(1, 200))
        index = rng.integers(0, kept + 1, size=1 << bits).astype(numpy.uint32)
        scale = 10.0 ** rng.integers(-3, 4, size=(kept + 1, 1))
        table = (rng.standard_normal((kept + 1, n_tags)) * scale).astype(numpy.float16 if trial % 4 < 2
                                                                          else numpy.float32)
        table[0] = 0
        em, step, end, starts, lens, _ = _batch(rng, n_tags, trial % 2 == 0)
        whole = rng.integers(1, 40, size=(n_columns, len(em) + 2 * pad)).astype(U64)
        tags = [numpy.full(len(em), -1, dtype=numpy.int64) for _ in range(2)]
        for module, out in ((c_tagger, tags[0]), (tagger_twin, tags[1])):
            module.predict(whole, seeds, parts, ends, pad, bits, index, table, step, end, starts, lens, out)
        assert numpy.array_equal(tags[0], tags[1]), trial


def test_float16_weights_are_float32_exactly_and_sum_the_same(c_tagger):
    """Every float16 bit pattern (subnormals, infinities, both zeros) as a weight row's entry converts to the
    float32 numpy gives, in rows of 17 tags (the shipped tagger's: F16C where the CPU has it) and of others (the
    portable conversion); a NaN stays a NaN (F16C quiets a signalling one); sums of several rows are the twin's."""
    every = numpy.arange(1 << 16, dtype=numpy.uint16).view(numpy.float16)
    rng = numpy.random.default_rng(16)
    for n_tags in (17, 16, 3, 20):
        table = numpy.resize(every, ((1 << 16) + n_tags - 1) // n_tags * n_tags).reshape(-1, n_tags)
        one = numpy.arange(len(table), dtype=numpy.int64)[:, None]
        out = numpy.empty(table.shape, dtype=numpy.float32)
        c_tagger.scores(table, one, out)
        nan = numpy.isnan(table)
        assert numpy.isnan(out[nan]).all(), n_tags
        assert numpy.array_equal(out[~nan].view(numpy.uint32), table[~nan].astype(numpy.float32).view(numpy.uint32))
        finite = table[numpy.isfinite(table).all(axis=1)]
        ids = rng.integers(0, len(finite), size=(500, 30))
        sums = [numpy.empty((500, n_tags), dtype=numpy.float32) for _ in range(2)]
        c_tagger.scores(finite, ids, sums[0])
        tagger_twin.scores(finite, ids, sums[1])
        assert numpy.array_equal(sums[0].view(numpy.uint32), sums[1].view(numpy.uint32)), n_tags


def test_the_affix_table_fills_and_answers_the_same(c_tagger):
    rng = numpy.random.default_rng(14)
    tables = [[numpy.zeros(256, dtype=U64) for _ in range(3)] for _ in range(2)]
    for step in range(20):
        words = rng.integers(0, 400, size=int(rng.integers(1, 40))).astype(U64) * U64(2 ** 40 + 1)
        answers = []
        for module, (keys, first, last) in ((c_tagger, tables[0]), (tagger_twin, tables[1])):
            n = len(words)
            got = [numpy.full(n, 5, dtype=U64), numpy.full(n, 5, dtype=U64), numpy.full(n, -1, dtype=numpy.int64)]
            k = module.affix_lookup(words, keys, first, last, *got)
            new = numpy.unique(words[got[2][:k]])
            new = new[new != 0][: max(0, 120 - int((keys != 0).sum()))]  # at most half full
            added = module.affix_insert(new, new + U64(1), new + U64(2), keys, first, last)
            answers.append((k, [g.tolist() for g in got], added))
        assert answers[0] == answers[1], step
        assert all(numpy.array_equal(a, b) for a, b in zip(*tables)), step


def test_the_same_calls_are_refused_the_same_way(c_tagger):
    whole = numpy.zeros((2, 10), dtype=U64)
    seeds, ends = numpy.zeros(1, dtype=U64), numpy.array([1], dtype=numpy.int64)
    out = numpy.empty((6, 1), dtype=numpy.int64)
    weights = numpy.zeros((8, 4), dtype=numpy.float32)
    em = numpy.zeros((5, 4), dtype=numpy.float32)
    step, end = numpy.zeros((5, 4), dtype=numpy.float32), numpy.zeros(4, dtype=numpy.float32)
    keys = numpy.zeros(4, dtype=U64)
    one = numpy.ones(1, dtype=U64)
    bad_calls = [
        ("feature_ids", (whole, seeds, numpy.array([[2, 0]]), ends, 2, 20, out)),  # no such column
        ("feature_ids", (whole, seeds, numpy.array([[0, 3]]), ends, 2, 20, out)),  # beyond the padding
        ("feature_ids", (whole.astype(numpy.int64), seeds, numpy.array([[0, 0]]), ends, 2, 20, out)),
        ("feature_ids", (whole, seeds, numpy.array([[0, 0]]), ends, 2, 64, out)),
        ("feature_ids", (whole, seeds, numpy.array([[0, 0]]), ends, 2, 20, out[:5])),
        ("scores", (weights, numpy.array([[0, 8]]), numpy.empty((1, 4), dtype=numpy.float32))),
        ("scores", (weights, numpy.array([[0, -1]]), numpy.empty((1, 4), dtype=numpy.float32))),
        ("scores", (weights.astype(numpy.float64), numpy.array([[0, 1]]), numpy.empty((1, 4), dtype=numpy.float32))),
        ("viterbi", (em, step, end, numpy.array([4]), numpy.array([2]), None, numpy.zeros(5, dtype=numpy.int64))),
        ("viterbi", (em, step[:4], end, numpy.array([0]), numpy.array([2]), None, numpy.zeros(5, dtype=numpy.int64))),
        ("viterbi", (em, step, end, numpy.array([0]), numpy.array([2]), numpy.ones((5, 3), dtype=bool),
                     numpy.zeros(5, dtype=numpy.int64))),
        ("affix_insert", (one, one, one, numpy.zeros(3, dtype=U64), keys[:3], keys[:3])),
        ("affix_insert", (numpy.zeros(1, dtype=U64), one, one, keys, keys.copy(), keys.copy())),
        ("affix_insert", (numpy.arange(1, 6, dtype=U64),) * 3 + (keys, keys.copy(), keys.copy())),
    ]
    for name, args in bad_calls:
        _same_error(lambda: getattr(c_tagger, name)(*args), lambda: getattr(tagger_twin, name)(*args))


# ---------------------------------------------------------------------------------------------- a doc's token array

@pytest.fixture(scope="module")
def docs():
    from kg.nlp.pipeline import config_path, load_pipeline

    texts = ["", "One.", "We propose Foo-Net (FN), which beats GPT-4 by 3.5% on ImageNet-C! Really? Yes... ok",
             "A (dangling bracket and a closed one) then [more] text ) here."]
    texts += [p for f in sorted(EXAMPLES.glob("*.txt")) for p in f.read_text().split("\n") if len(p) > 200][:12]
    nlp = load_pipeline(config_path("default"))
    return nlp, [nlp.make_doc(t) for t in texts] + list(nlp.pipe(texts))


def test_columns_scans_and_offsets_are_the_same(c_doc, docs):
    _, all_docs = docs
    for doc in all_docs:
        for attr in (ORTH, LOWER, SHAPE, SUFFIX, PREFIX, LENGTH, LIKE_NUM, IS_PUNCT, IDX, SENT_START, ENT_IOB,
                     ENT_TYPE, -1):
            c, py = c_doc.Column(doc, attr), doc_twin.Column(doc, attr)
            assert list(c) == list(py) and len(c) == len(py) and py == list(c), attr
            assert [py[i] for i in range(-len(c), len(c))] == [c[i] for i in range(-len(c), len(c))]
            for cut in (slice(1, 9, 3), slice(None, None, -1), slice(-3, None), slice(7, 2, -2), slice(5, 2),
                        slice(-100, 100), slice(100, -100, -3), slice(None, 4)):
                assert py[cut] == c[cut] == list(c)[cut], cut
            _same_error(lambda: c[::0], lambda: py[::0])
            _same_error(lambda: c["a":], lambda: py["a":])
            some = list(c)[::3]
            assert doc_twin.where(doc, attr, doc_twin.IdSet(some)) == c_doc.where(doc, attr, c_doc.IdSet(some))
            known = list(c)[::4]
            assert doc_twin.distinct_missing(doc, attr, doc_twin.IdSet(known)) == \
                c_doc.distinct_missing(doc, attr, c_doc.IdSet(known))
        finals = [doc.vocab.strings.add(c) for c in ".!?"]
        assert doc_twin.sentence_starts(doc, doc_twin.IdSet(finals)) == c_doc.sentence_starts(doc, c_doc.IdSet(finals))
        for a in range(0, len(doc), 3):
            for b in range(a - 1, min(a + 7, len(doc)) + 1):
                assert doc_twin.span_text(doc, doc.text, a, b) == c_doc.span_text(doc, doc.text, a, b)


def test_tokenizing_gives_the_same_tokens(c_doc, docs):
    nlp, all_docs = docs
    for text in [doc.text for doc in all_docs] + ["Models (e.g., ResNet-50) and LLMs, i.e., GPT-4.\n\nNext  x "]:
        c, py = c_doc.tokenize(nlp.tokenizer, text), doc_twin.tokenize(nlp.tokenizer, text)
        assert [(t.text, t.whitespace_) for t in c] == [(t.text, t.whitespace_) for t in py]


def test_writes_and_rows_are_the_same(c_doc, docs):
    nlp, all_docs = docs
    label = nlp.vocab.strings.add("METHOD")
    for doc in all_docs:
        n = len(doc)
        state = []
        for module in (c_doc, doc_twin):
            ours = nlp.make_doc(doc.text)
            module.set_sentence_starts(ours, sorted({0, *range(2, n, 5)}) if n else [])
            module.set_entities(ours, [(k, min(k + 2, n), label) for k in range(1, n, 6)])
            out = numpy.full((8, n + 5), 9, dtype=U64)
            module.fill_rows(ours, (LOWER, SHAPE, SUFFIX, SENT_START), out, 2)
            module.fill_starts(ours, out, 6, 3)
            state.append((ours.to_array([SENT_START, ENT_IOB, ENT_TYPE]).tolist(), out.tolist(),
                          ours.has_annotation("SENT_START"), [(e.start, e.end, e.label_) for e in ours.ents]))
        assert state[0] == state[1], doc.text[:40]


def test_writes_outside_the_doc_and_rows_that_do_not_fit_are_refused_the_same_way(c_doc, docs):
    nlp, _ = docs
    for bad in (lambda m, d: m.set_sentence_starts(d, [0, 3]), lambda m, d: m.set_entities(d, [(2, 4, 1)]),
                lambda m, d: m.set_entities(d, [(2, 2, 1)]), lambda m, d: m.span_text(d, d.text, -1, 1),
                lambda m, d: m.fill_rows(d, (LOWER,), numpy.zeros((1, 4), dtype=U64), 2),
                lambda m, d: m.fill_rows(d, (LOWER,), numpy.zeros((1, 4), dtype=numpy.int32), 0),
                lambda m, d: m.fill_starts(d, numpy.zeros((2, 4), dtype=U64), 2, 0),
                lambda m, d: m.Column(d, ORTH)[3], lambda m, d: m.IdSet([-1])):
        _same_error(lambda: bad(c_doc, nlp.make_doc("a b c")), lambda: bad(doc_twin, nlp.make_doc("a b c")))


def test_id_sets_hold_the_same_ids(c_doc):
    rng = random.Random(2)
    held = [rng.getrandbits(64) for _ in range(3000)] + [0, 2 ** 64 - 1, 5, 5]
    others = [rng.getrandbits(64) for _ in range(3000)] + [1, 6]
    c_set = c_doc.IdSet(held)
    py_set = doc_twin.IdSet(held)
    assert len(c_set) == len(py_set) == len(set(held))
    assert [h in c_set for h in held + others] == [h in py_set for h in held + others]


def test_phrase_index_finds_the_same(c_doc, docs):
    nlp, all_docs = docs
    rng = random.Random(3)
    words = sorted({t.text for d in all_docs for t in d})
    patterns = [d[a:a + k].text for d in all_docs[:8] for a in range(0, len(d), 2) for k in (1, 2, 3) if a + k <= len(d)]
    patterns += [" ".join(rng.sample(words, rng.randint(1, 3))) for _ in range(1000)] + [""]
    for attr in (LOWER, ORTH):
        indexes = c_doc.PhraseIndex(attr), doc_twin.PhraseIndex(attr)
        for i, text in enumerate(patterns):
            tokens = [t.lower if attr == LOWER else t.orth for t in nlp.make_doc(text.upper() if i % 4 else text)]
            for index in indexes:
                index.add(i % 700, tokens)
        assert len(indexes[0]) == len(indexes[1]) and indexes[1].attr == attr
        for doc in all_docs:
            assert indexes[0](doc) == indexes[1](doc)


def test_trimming_gives_the_same_ranges(c_doc, docs):
    nlp, all_docs = docs
    ids = nlp.vocab.strings.add
    sets = ([ids(w) for w in ("the", "of", "and", "a")], [ids(w) for w in ("our", "novel", "(")],
            [ids(w) for w in ("model", "method", "ok")], [ids(w) for w in ("(", "[")], [ids(w) for w in (")", "]")],
            [ids(w) for w in "()[]"])
    trimmers = c_doc.Trimmer(*map(c_doc.IdSet, sets)), doc_twin.Trimmer(*map(doc_twin.IdSet, sets))
    for doc in all_docs:
        for start in range(0, len(doc), 2):
            for end in range(start, min(start + 12, len(doc)) + 1):
                assert trimmers[0].trim(doc, start, end) == trimmers[1].trim(doc, start, end), (start, end)
        _same_error(lambda: trimmers[0].trim(doc, 0, len(doc) + 1), lambda: trimmers[1].trim(doc, 0, len(doc) + 1))


def test_rule_spans_find_the_same_rules(c_doc):
    """Rules overlapping a range, in their order (empty rules and ranges included), and exact names, as a scan of
    every rule finds them."""
    from kg.nlp.candidates import Candidate

    rng = random.Random(17)
    labels, extractors = ("METHOD", "TASK"), ("gazetteer", "context", "name", "proposed")
    for trial in range(50):
        rules = []
        for _ in range(rng.randrange(0, 30)):
            a = rng.randrange(0, 40)
            rules.append(Candidate(a, a + rng.randrange(0, 5), rng.choice(labels), rng.choice(extractors)))
        named_by = frozenset({"gazetteer", "context"})
        spans = (c_doc.RuleSpans(rules, named_by), doc_twin.RuleSpans(rules, named_by))
        for start in range(0, 42, 3):
            for end in range(start, start + 8):
                expected = [c for c in rules if c.start < end and start < c.end]
                for s in spans:
                    assert s.overlapping(start, end) == expected and all(
                        x is y for x, y in zip(s.overlapping(start, end), expected)), trial
                for label in labels:
                    named = any((c.start, c.end, c.label) == (start, end, label) and c.extractor in named_by
                                for c in rules)
                    assert [s.named(start, end, label) for s in spans] == [named, named], trial
    for module in (c_doc, doc_twin):
        assert module.RuleSpans([]).overlapping(0, 5) == [] and not module.RuleSpans([]).named(0, 1, "METHOD")
    _same_error(lambda: c_doc.RuleSpans(None), lambda: doc_twin.RuleSpans(None))
    _same_error(lambda: c_doc.RuleSpans([object()]), lambda: doc_twin.RuleSpans([object()]))


def test_candidate_columns_are_the_same(c_doc):
    """The tagger's candidate codes: the highest-priority candidate per token (the first of equal ones), model
    candidates left out, ranges beyond the doc cut, every other value left alone; the same errors."""
    from kg.nlp.candidates import Candidate

    rng = random.Random(18)
    priority = {"gazetteer": 3, "context": 2, "name": 1}
    extractors = ("gazetteer", "context", "name", "proposed", "model", "model_phrase")

    def codes(label, extractor, proposed):
        return tuple((hash((label, extractor, proposed, pos, 1)) % 2 ** 64, hash((label, pos)) % 2 ** 64)
                     for pos in "UBIL")

    for trial in range(40):
        n = rng.randrange(0, 30)
        cands = []
        for _ in range(rng.randrange(0, 25)):
            a = rng.randrange(0, n + 3)
            cands.append(Candidate(a, a + rng.randrange(0, 5), rng.choice(("METHOD", "TASK")), rng.choice(extractors),
                                   proposed=rng.random() < 0.2))
        outs = [numpy.full((8, n + 6), 7, dtype=U64) for _ in range(2)]
        for module, out in ((c_doc, outs[0]), (doc_twin, outs[1])):
            module.fill_candidates(cands, out, 5, 6, 3, n, priority, codes)
        assert numpy.array_equal(outs[0], outs[1]), trial
        assert (outs[0][:5] == 7).all() and (outs[0][7] == 7).all() and (outs[0][5:7, :3] == 7).all()
    _same_error(lambda: c_doc.fill_candidates([], numpy.zeros((7, 4), dtype=U64), 5, 6, 0, 5, priority, codes),
                lambda: doc_twin.fill_candidates([], numpy.zeros((7, 4), dtype=U64), 5, 6, 0, 5, priority, codes))
    _same_error(lambda: c_doc.fill_candidates(None, numpy.zeros((7, 4), dtype=U64), 5, 6, 0, 1, priority, codes),
                lambda: doc_twin.fill_candidates(None, numpy.zeros((7, 4), dtype=U64), 5, 6, 0, 1, priority, codes))


def _outcome(func, text: str):
    """What ``func(text)`` gives: its value and the value's type, or the type of the exception it raises."""
    try:
        value = func(text)
    except Exception as error:  # noqa: BLE001 (an empty string's IndexError is part of a function's behaviour)
        return "raises", type(error)
    return value, type(value)


def test_compiled_lexeme_attributes_are_spacys(c_doc):
    """The compiled copies of spaCy's lexeme attribute functions give what spaCy's give (values and their types,
    or the same exception), over English's vocabulary, characters from every plane and random strings; the twin
    keeps spaCy's own."""
    import spacy

    getters = spacy.blank("en").vocab.lex_attr_getters
    compiled = c_doc.lexeme_getters(getters)
    assert list(compiled) == list(getters) and all(compiled[a] is not getters[a] for a in getters)
    assert doc_twin.lexeme_getters(getters) == getters
    rng = random.Random(19)
    alphabet = "aZ09.,:/@-+±~'\"()[]$€%_ \t\n½²³٣ΣσßİﬁǅⅫ①…«»" + "".join(chr(rng.randrange(0x110000)) for _ in range(40))
    texts = list(spacy.blank("en").vocab.strings) + [chr(c) for c in range(0, 0x110000, 37)] + [chr(c) for c in
                                                                                                range(0x3000)]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12))) for _ in range(20000)]
    texts += ["http://x", "https://a.b", "www.a", "www.", "a.com", "a.com/", "a.b:80", "x@y.z", "a@b", "1,000.5",
              "+3/4", "-12th", "twenty", "Third", "1st", "a" * 99, "a" * 100, "AAAAAB", "e.g.", ".a", "a.", "2/3/4"]
    for attr, func in getters.items():
        assert [_outcome(compiled[attr], t) for t in texts] == [_outcome(func, t) for t in texts], attr
    _same_error(lambda: c_doc.lexeme_getters(None), lambda: doc_twin.lexeme_getters(None))



def test_compiled_lexemes_are_spacys(c_doc):
    """A vocab whose new lexemes the compiled copy of spaCy's method makes (``fast_lexemes``) gets the lexemes of one
    whose spaCy's method makes, and the same strings in the same order, with compiled, Python and None-giving
    attribute functions; a vocab of a subclass keeps spaCy's method; the compiled lexeme functions pickle."""
    import pickle

    import spacy
    from spacy.attrs import NORM
    from spacy.vocab import Vocab

    vocabs = [spacy.blank("en").vocab for _ in range(2)]
    for vocab in vocabs:
        getters = c_doc.lexeme_getters(vocab.lex_attr_getters)
        getters[NORM] = lambda s: s[:2] + "|"  # a Python function, ...
        getters[60] = lambda s: None  # ... one giving None (spaCy leaves the attribute: here a flag no one sets)
        vocab.lex_attr_getters = getters
    fast, plain = vocabs
    c_doc.fast_lexemes(fast)
    c_doc.fast_lexemes(fast)  # (again: no change)
    doc_twin.fast_lexemes(plain)  # (the twin leaves spaCy's method)
    rng = random.Random(23)
    alphabet = "aZ09.,:/@-+±~'\"()[]$€%_ \t½²³٣ΣσßİﬁǅⅫ①…«»"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 12))) for _ in range(5000)]
    texts += ["the", "The", "e.g.", "https://a.b", "1st", "twenty", "a" * 120, "ORTH", "\U0001F600"]
    fields = ("orth", "lower", "norm", "shape", "prefix", "suffix", "lang", "rank", "flags", "orth_", "norm_")
    for text in texts:
        assert [getattr(fast[text], f) for f in fields] == [getattr(plain[text], f) for f in fields], text
    assert list(fast.strings) == list(plain.strings) and len(fast) == len(plain)
    assert pickle.loads(pickle.dumps(fast))["zq0"].shape_ == "xxd"

    class Sub(Vocab):
        pass

    sub = Sub(lex_attr_getters=plain.lex_attr_getters)
    c_doc.fast_lexemes(sub)
    assert [getattr(sub["word"], f) for f in fields] == [getattr(plain["word"], f) for f in fields]
    _same_error(lambda: c_doc.fast_lexemes(None), lambda: doc_twin.fast_lexemes(None))



def test_url_match_matches_what_its_expression_matches(c_doc, monkeypatch):
    """The tokenizer's URL match (kg.nlp.tokenizer.url_match), compiled and twin, matches what spaCy's URL expression
    matches, and other expressions' matches stay themselves unless every match holds a "."."""
    import re

    from spacy.lang.en import English

    import kg.nlp.tokenizer as tokenizer

    rng = random.Random(21)
    alphabet = "aZ09.,:/@-+_?#%~ \nαé.:/wth"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 16))) for _ in range(5000)]
    texts += ["https://arxiv.org/abs/1", "www.x.com", "a.b", "arxiv.org", "10.0.0.1", "1.2.3.4", "ab", "", "x@y.io",
              "http://localhost", "ftp://a.bc:80/p?q#f", "models", "e.g.", "Fig.", "U.S.", "a..b", "é.com"]
    spacy_match = English.Defaults.url_match
    for module in (c_doc, doc_twin):
        monkeypatch.setattr(tokenizer, "_doc", module)
        match = tokenizer.url_match(spacy_match)
        assert isinstance(match.__self__, module.MatchNeeding)
        assert [m and m.span() for m in map(match, texts)] == [m and m.span() for m in map(spacy_match, texts)]
        for pattern, kept in ((r"a\.|b", True), (r"(?:a\.)?b", True), (r"[.,]x", True), (r"[.]x", False),
                              (r"(?i)x\.", True), (r"(?:a\.|b\.)+", False), (r"x(?:y\.){2}", False)):
            expression = re.compile(pattern)
            assert (tokenizer.url_match(expression.match) == expression.match) == kept, pattern
            assert [bool(tokenizer.url_match(expression.match)(t)) for t in texts] == \
                [bool(expression.match(t)) for t in texts]
        assert tokenizer.url_match(None) is None
        _same_error(lambda: module.MatchNeeding(spacy_match, "ab"), lambda: doc_twin.MatchNeeding(spacy_match, ""))
        # spaCy saves a tokenizer with its URL expression's pattern (spacy train writes the model so)
        assert match.__self__.pattern == spacy_match.__self__.pattern


def test_kgs_tokenizer_saves_and_loads_as_spacys():
    import spacy

    from kg.nlp.pipeline import config_path, load_pipeline

    nlp = load_pipeline(config_path("fast"))
    other = spacy.blank("en").tokenizer
    other.from_bytes(nlp.tokenizer.to_bytes())
    text = "See https://github.com/a/b and www.x.org, e.g. 3.5% of ResNet-50 (ours) vs. GPT-3."
    assert [t.text for t in other(text)] == [t.text for t in nlp.tokenizer(text)]


def test_affix_searches_find_what_their_expressions_find(c_doc, monkeypatch):
    """The tokenizer's prefix and suffix searches and infix finder (kg.nlp.tokenizer.prefix_search, suffix_search,
    infix_finditer), compiled and twin, give the spans of the expressions they stand for: kg's rules, and rules that
    match empty, fold case, join alternatives inside a piece or look behind them."""
    from spacy.lang.en import English
    from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

    import kg.nlp.tokenizer as tokenizer

    suffixes = [tokenizer._unit_suffix(p) for p in English.Defaults.suffixes]
    suffixes += [r"’$", r"'$", tokenizer._NAME_FULL_STOP]
    infixes = [p for p in English.Defaults.infixes if not tokenizer._is_hyphen_infix(p)]
    infixes += [tokenizer._GLUED_PAREN, tokenizer._CLOSE_PAREN_INSIDE, tokenizer._SYMBOL_HYPHEN,
                tokenizer._SIBLING_SLASH]
    others = [[r"(?i)ab", r"x*", r"\.\.+", r"[^a]b", r"c|d", " ", r"(?<=1)e{2,}"], [r"(?:(?<=q)|(?<=r))s", r"t?u"],
              [r"(?<=[0-9])km", r"(?<=a)b", r"'s", r"(?<=[0-9])(?<!a1)m", r"(?<=\d)[A-Z]"],
              [r"(?<=[a-z]1)c", r"(?<=1|2)d", r"(?<=(?i:k))m", r"(?<=…)s", r"(?<=[^a])t"],
              [r"(?:(?<=[α-ω])|(?<=[α-ω]\)))-(?=[a-z])", r"(?<=a-\d)/|(?<=[A-Z]\d)/", r"(?i:(?<=a))b", r"(?<=\b)c"]]
    prefixes = [English.Defaults.prefixes, [r"ab", r"\.\.+", r"[^a]b", r"c|d", r"(?<=a)b", "é", r"(?=x)xy", " "],
                [r"x*", "a"], [r"(?i:u)s", "t"]]
    rng = random.Random(20)
    alphabet = "aZ09.,:/@-+±~'\"()[]$€%_ \n½²³°FCkmgs–—’…αKMBT1ABcdeqrstux"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12))) for _ in range(6000)]
    texts += ["a..", "....", "a....b....", "10km", "A-10km", "x\n", "\n\n", "", "e.g.", "5°C.", "US$", "GSM8K.", "ab's"]
    texts += ["km", "1km", "\x80km", "αkm", "1m", "a1m", "b", "ab", "…s", "\x80t", "t", "1d", "Km"]
    texts += ["α-bcd", "α)-bcd", "a-bcd", "a)-bcd", "A-1/2", "A1/2", "1/2", "a,b", "a.B", "°F.", "5°F.", "-", "/2"]
    for module in (c_doc, doc_twin):
        monkeypatch.setattr(tokenizer, "_doc", module)
        for pieces in (suffixes, *others):
            search, expression = tokenizer.suffix_search(pieces), compile_suffix_regex(pieces)
            assert search.__self__.pattern == expression.pattern
            assert pieces is not suffixes or isinstance(search.__self__, module.SuffixSearch)  # (kg's: the fast one)
            assert [m and m.span() for m in map(search, texts)] == [m and m.span() for m in map(expression.search,
                                                                                              texts)], pieces
        for pieces in prefixes:
            search, expression = tokenizer.prefix_search(pieces), compile_prefix_regex(pieces)
            assert search.__self__.pattern == expression.pattern
            assert pieces is not prefixes[0] or isinstance(search.__self__, module.PrefixSearch)  # (kg's: the fast one)
            assert [m and m.span() for m in map(search, texts)] == [m and m.span() for m in map(expression.search,
                                                                                              texts)], pieces
        for pieces in (infixes, *others):
            finditer, expression = tokenizer.infix_finditer(pieces), compile_infix_regex(pieces)
            assert [[m.span() for m in finditer(t)] for t in texts] == [[m.span() for m in expression.finditer(t)]
                                                                        for t in texts], pieces
    for module in (c_doc, doc_twin):
        with pytest.raises(ValueError):
            module.InfixFinder(compile_infix_regex(infixes), b"\x01" * 127)
        with pytest.raises(ValueError):
            module.SuffixSearch(compile_suffix_regex(suffixes), None, [None], [None, None])
        with pytest.raises(ValueError):
            module.PrefixSearch(compile_prefix_regex(prefixes[0]), b"\x01" * 129)
        with pytest.raises(ValueError):
            module.SuffixSearch(compile_suffix_regex(suffixes), None, [None, None], [None, b"\x01" * 128])
