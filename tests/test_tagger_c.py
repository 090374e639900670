"""The tagger's C loops (kg/nlp/_tagger.c) against the numpy code they replaced, kept here as the oracle: feature
hashing, emission sums and Viterbi decoding give bit-identical results on random inputs (ties included) and on
real documents, for the shipped templates and tags and for others."""
from __future__ import annotations

from collections.abc import Sequence

import numpy
import pytest

import kg.nlp.components.tagger as tg
from kg.nlp import _tagger
from kg.nlp.components.tagger import FORBIDDEN, FORBIDDEN_END, N_TAGS, TEMPLATES, LinearTagger

U = numpy.uint64


# ---------------------------------------------------------------------------------------------- numpy oracle

def numpy_ids(whole: numpy.ndarray, bits: int, templates: Sequence[Sequence[tuple[int, int]]],
              seeds: numpy.ndarray, pad: int) -> numpy.ndarray:
    """Feature rows as the numpy code hashed them: per template, the seed, then ``_mix(h ^ column at offset)``."""
    total = whole.shape[1] - 2 * pad
    ids = numpy.empty((total, len(templates)), dtype=numpy.int64)
    for t, (parts, seed) in enumerate(zip(templates, seeds)):
        h = numpy.full(total, seed, dtype=numpy.uint64)
        for col, offset in parts:
            h = tg._mix(h ^ whole[col, pad + offset:pad + offset + total])
        ids[:, t] = h & U((1 << bits) - 1)
    return ids


def numpy_scores(weights: numpy.ndarray, ids: numpy.ndarray) -> numpy.ndarray:
    out = weights.take(ids[:, 0], axis=0)
    for k in range(1, ids.shape[1]):
        out += weights.take(ids[:, k], axis=0)
    return out


def numpy_decode(scores: numpy.ndarray, starts: Sequence[int], lengths: Sequence[int], trans: numpy.ndarray,
                 allowed: numpy.ndarray | None = None, dense_below: int = 64) -> numpy.ndarray:
    """The numpy Viterbi decoding: sequences advance together, longest first; a step over fewer than
    ``dense_below`` sequences scores all moves, a bigger one the allowed moves only."""
    closed, opening, b_, i_, l_ = tg._CLOSED, tg._OPENING, tg._B, tg._I, tg._L
    tags = numpy.zeros(len(scores), dtype=numpy.int64)
    lens = numpy.asarray(lengths, dtype=numpy.int64)
    if not len(lens) or lens.max() == 0:
        return tags
    order = numpy.argsort(-lens, kind="stable")
    lens, first = lens[order], numpy.asarray(starts, dtype=numpy.int64)[order]
    width = int(lens[0])
    live = numpy.arange(width)[None, :] < lens[:, None]
    rows = numpy.where(live, first[:, None] + numpy.arange(width)[None, :], 0)
    em = scores if allowed is None else scores + numpy.where(allowed, 0.0, -1e9).astype(numpy.float32)
    em = em.astype(numpy.float32, copy=False)[rows]
    step = (trans + FORBIDDEN).astype(numpy.float32)
    moves = numpy.ascontiguousarray(step[:N_TAGS].T)[None, :, :]
    opening_moves = numpy.ascontiguousarray(step[numpy.ix_(closed, opening)].T)[None, :, :]
    b_i, i_i, b_l, i_l = step[b_, i_], step[i_, i_], step[b_, l_], step[i_, l_]
    back = numpy.zeros((len(lens), width, N_TAGS), dtype=numpy.int8)
    score = step[N_TAGS][None, :] + em[:, 0]
    best = numpy.empty_like(score)
    running = numpy.searchsorted(-lens, -numpy.arange(width + 1), side="left")
    for i in range(1, width):
        k = running[i]
        if k < dense_below:
            total = score[:k, None, :] + moves
            back[:k, i] = total.argmax(axis=2)
            score[:k] = total.max(axis=2) + em[:k, i]
            continue
        total = score[:k, None, closed] + opening_moves
        arg = total.argmax(axis=2)
        best[:k, opening] = numpy.take_along_axis(total, arg[:, :, None], axis=2)[:, :, 0]
        back[:k, i, opening] = closed[arg]
        from_b, from_i = score[:k, b_], score[:k, i_]
        for to, via_b, via_i in ((i_, b_i, i_i), (l_, b_l, i_l)):
            x, y = from_b + via_b, from_i + via_i
            inside = y > x
            best[:k, to] = numpy.where(inside, y, x)
            back[:k, i, to] = numpy.where(inside, i_, b_)
        score[:k] = best[:k] + em[:k, i]
    paths = numpy.zeros((len(lens), width), dtype=numpy.int64)
    tag = (score + FORBIDDEN_END).argmax(axis=1)
    for i in range(width - 1, -1, -1):
        k, inner = running[i], running[i + 1]
        if inner:
            tag[:inner] = back[numpy.arange(inner), i + 1, tag[:inner]]
        paths[:k, i] = tag[:k]
    tags[rows[live]] = paths[live]
    return tags


def numpy_viterbi_one(em: numpy.ndarray, step: numpy.ndarray, end: numpy.ndarray) -> list[int]:
    """All-pairs Viterbi of one sequence over any number of tags (``step``: (N + 1, N), last row the start)."""
    n_tags = em.shape[1]
    score = step[n_tags] + em[0]
    back = []
    for row in em[1:]:
        total = score[:, None] + step[:n_tags]  # [from, to]
        back.append(total.argmax(axis=0))
        score = total.max(axis=0) + row
    path = [int((score + end).argmax())]
    for arg in reversed(back):
        path.append(int(arg[path[-1]]))
    return path[::-1]


# ---------------------------------------------------------------------------------------------- features

def random_whole(rng: numpy.random.Generator, n_columns: int, total: int, pad: int) -> numpy.ndarray:
    whole = rng.integers(0, 2 ** 64, size=(n_columns, total + 2 * pad), dtype=numpy.uint64)
    whole[:, ::7] = rng.integers(0, 4, size=whole[:, ::7].shape, dtype=numpy.uint64)  # small values too
    return whole


def c_ids(whole: numpy.ndarray, bits: int, templates: Sequence[Sequence[tuple[int, int]]], seeds: numpy.ndarray,
          pad: int) -> numpy.ndarray:
    parts = numpy.array([p for t in templates for p in t], dtype=numpy.int64).reshape(-1, 2)
    ends = numpy.cumsum([len(t) for t in templates], dtype=numpy.int64)
    out = numpy.empty((whole.shape[1] - 2 * pad, len(templates)), dtype=numpy.int64)
    _tagger.feature_ids(whole, seeds, parts, ends, pad, bits, out)
    return out


def test_feature_hashing_is_the_numpy_hashing_for_the_shipped_templates():
    rng = numpy.random.default_rng(0)
    templates = [[(tg._COL[name], offset) for name, offset in parts] for _, parts in TEMPLATES]
    for bits in (1, 20, 63):
        whole = random_whole(rng, len(tg.COLUMNS), 500, tg._PAD)
        assert numpy.array_equal(c_ids(whole, bits, templates, tg._SEEDS, tg._PAD),
                                 numpy_ids(whole, bits, templates, tg._SEEDS, tg._PAD))


def test_feature_hashing_takes_any_columns_and_templates():
    rng = numpy.random.default_rng(1)
    for trial in range(20):
        pad = int(rng.integers(0, 4))
        n_columns = int(rng.integers(1, 12))
        templates = [[(int(rng.integers(0, n_columns)), int(rng.integers(-pad, pad + 1)))
                      for _ in range(int(rng.integers(0, 5)))] for _ in range(int(rng.integers(1, 40)))]
        seeds = rng.integers(0, 2 ** 64, size=len(templates), dtype=numpy.uint64)
        whole = random_whole(rng, n_columns, int(rng.integers(0, 300)), pad)
        bits = int(rng.integers(0, 64))
        assert numpy.array_equal(c_ids(whole, bits, templates, seeds, pad),
                                 numpy_ids(whole, bits, templates, seeds, pad)), trial


def test_features_of_real_docs_are_the_numpy_ones():
    from kg.nlp.pipeline import load_pipeline

    nlp = load_pipeline()
    texts = ["We propose FooNet for semantic segmentation on Cityscapes.", "", "Accuracy improves.",
             "BLEU on WMT14 English-German rises by 2 points with our LoRA variant (Hu et al., 2021)."]
    docs = list(nlp.pipe(texts))
    whole, starts = tg._batch_columns(docs)
    ids, same_starts = tg._batch_ids(docs, 20)
    templates = [[(tg._COL[name], offset) for name, offset in parts] for _, parts in TEMPLATES]
    assert same_starts == starts
    assert numpy.array_equal(ids, numpy_ids(whole, 20, templates, tg._SEEDS, tg._PAD))


def test_feature_hashing_refuses_what_it_cannot_read():
    whole = numpy.zeros((2, 10), dtype=numpy.uint64)
    seeds = numpy.zeros(1, dtype=numpy.uint64)
    out = numpy.empty((6, 1), dtype=numpy.int64)
    ends = numpy.array([1], dtype=numpy.int64)
    for parts, error in (([[2, 0]], ValueError), ([[0, 3]], ValueError), ([[0, -3]], ValueError)):
        with pytest.raises(error):
            _tagger.feature_ids(whole, seeds, numpy.array(parts, dtype=numpy.int64), ends, 2, 20, out)
    with pytest.raises(TypeError):  # int64 columns
        _tagger.feature_ids(whole.astype(numpy.int64), seeds, numpy.array([[0, 0]]), ends, 2, 20, out)
    with pytest.raises(ValueError):  # out of the wrong shape
        _tagger.feature_ids(whole, seeds, numpy.array([[0, 0]]), ends, 2, 20, out[:5])


# ---------------------------------------------------------------------------------------------- scores

def test_emission_sums_are_bit_identical_to_numpys():
    rng = numpy.random.default_rng(2)
    for n_tags in (N_TAGS, 1, 4, 33):
        # weights of many magnitudes, so that the order of the additions shows in the roundings
        scale = 10.0 ** rng.integers(-3, 4, size=(1000, 1))
        weights = (rng.standard_normal((1000, n_tags)) * scale).astype(numpy.float32)
        ids = rng.integers(0, 1000, size=(400, int(rng.integers(1, 35))))
        out = numpy.empty((400, n_tags), dtype=numpy.float32)
        _tagger.scores(weights, ids, out)
        assert numpy.array_equal(out.view(numpy.uint32), numpy_scores(weights, ids).view(numpy.uint32))
    tagger = LinearTagger(bits=10, weights=rng.standard_normal((1024, N_TAGS)).astype(numpy.float32))
    ids = rng.integers(0, 1024, size=(50, len(TEMPLATES)))
    assert numpy.array_equal(tagger.scores(ids).view(numpy.uint32),
                             numpy_scores(tagger.weights, ids).view(numpy.uint32))
    assert tagger.scores(ids[:0]).shape == (0, N_TAGS)


def test_emission_sums_refuse_rows_beyond_the_table():
    weights = numpy.zeros((8, N_TAGS), dtype=numpy.float32)
    out = numpy.empty((1, N_TAGS), dtype=numpy.float32)
    for bad in (8, -1):
        with pytest.raises(IndexError):
            _tagger.scores(weights, numpy.array([[0, bad]]), out)
    with pytest.raises(TypeError):
        _tagger.scores(weights.astype(numpy.float64), numpy.array([[0, 1]]), out)


# ---------------------------------------------------------------------------------------------- decoding

def random_batch(rng: numpy.random.Generator, ties: bool, sequences: int, longest: int):
    """Emission rows of a batch of sequences (and the sequences, a mask, transitions); with ``ties``, small
    integers everywhere, so that paths tie and the lowest-numbered predecessor must win."""
    lens = rng.integers(0, longest, size=sequences)
    gaps = rng.integers(0, 3, size=sequences)  # rows in no sequence after each
    starts = numpy.cumsum(numpy.concatenate([[0], (lens + gaps)[:-1]]))
    rows = int((lens + gaps).sum())
    if ties:
        trans = rng.integers(-2, 3, size=(N_TAGS + 1, N_TAGS)).astype(numpy.float32)
        em = rng.integers(-3, 4, size=(rows, N_TAGS)).astype(numpy.float32)
    else:
        trans = rng.standard_normal((N_TAGS + 1, N_TAGS)).astype(numpy.float32)
        em = (rng.standard_normal((rows, N_TAGS)) * 5).astype(numpy.float32)
    mask = rng.random(em.shape) > 0.4
    mask[:, 0] = True  # "O" is always possible, so an allowed path exists
    return em, starts, lens, trans, mask


@pytest.mark.parametrize("ties", [True, False], ids=["ties", "no-ties"])
def test_decoding_is_the_numpy_decoding_both_ways_it_stepped(ties):
    rng = numpy.random.default_rng(3)
    for trial in range(12):
        em, starts, lens, trans, mask = random_batch(rng, ties, int(rng.integers(1, 300)), 40)
        for allowed in (None, mask):
            got = tg.decode(em, starts, lens, trans, allowed)
            for dense_below in (0, 10 ** 9):  # every step over the allowed moves only; every step over all
                assert numpy.array_equal(got, numpy_decode(em, starts, lens, trans, allowed, dense_below)), trial


def test_decoding_is_the_numpy_decoding_of_training():
    """Training decodes one sentence at a time, with a margin or a mask, all moves scored."""
    rng = numpy.random.default_rng(4)
    for trial in range(200):
        em, _, _, trans, mask = random_batch(rng, trial % 2 == 0, 4, 30)
        n = int(rng.integers(1, len(em) + 1))
        em, mask = em[:n], mask[:n]
        margin = em + numpy.float32(1.0) * ~mask
        assert numpy.array_equal(tg.viterbi([margin], trans)[0], numpy_decode(margin, [0], [len(em)], trans))
        assert numpy.array_equal(tg.viterbi([em], trans, [mask])[0],
                                 numpy_decode(em, [0], [len(em)], trans, mask)), trial


def test_decoding_takes_any_number_of_tags():
    rng = numpy.random.default_rng(5)
    for n_tags in (1, 2, 3, 4, 5, 8, 9, 17, 20, 24, 31, 200):
        for ties in (True, False):
            n = int(rng.integers(1, 12))
            if ties:
                em = rng.integers(-2, 3, size=(n, n_tags)).astype(numpy.float32)
                step = rng.integers(-2, 3, size=(n_tags + 1, n_tags)).astype(numpy.float32)
            else:
                em = rng.standard_normal((n, n_tags)).astype(numpy.float32)
                step = rng.standard_normal((n_tags + 1, n_tags)).astype(numpy.float32)
            end = rng.integers(-1, 1, size=n_tags).astype(numpy.float32)
            tags = numpy.full(n + 2, -1, dtype=numpy.int64)
            _tagger.viterbi(numpy.vstack([em[:1], em, em[:1]]), step, end, numpy.array([1]), numpy.array([n]),
                            None, tags)
            assert tags[[0, -1]].tolist() == [-1, -1]  # rows in no sequence are left alone
            assert tags[1:-1].tolist() == numpy_viterbi_one(em, step, end), (n_tags, ties)


def test_decoding_refuses_sequences_beyond_the_rows():
    em = numpy.zeros((5, N_TAGS), dtype=numpy.float32)
    for starts, lens in (([4], [2]), ([-1], [1]), ([0], [-1])):
        with pytest.raises(IndexError):
            tg.decode(em, starts, lens, numpy.zeros((N_TAGS + 1, N_TAGS), dtype=numpy.float32))


# ---------------------------------------------------------------------------------------------- prediction

def test_prediction_in_one_pass_is_the_numpy_pipeline_on_real_abstracts():
    from kg.corpus.clean import clean
    from kg.bench.synthetic import synthetic_corpus
    from kg.nlp.pipeline import load_pipeline

    nlp = load_pipeline()
    tagger = nlp.get_pipe("kg_tagger").tagger
    if tagger is None:
        pytest.skip("no tagger in kg/nlp/trained_tagger")
    rules = nlp.pipe_names[:nlp.pipe_names.index("kg_tagger")]
    with nlp.select_pipes(enable=rules):
        docs = list(nlp.pipe([clean(p.text).text for p in synthetic_corpus(130, 0)]))
    templates = [[(tg._COL[name], offset) for name, offset in parts] for _, parts in TEMPLATES]
    for batch in (docs[:1], docs[1:65], docs[65:]):  # the numpy decoding stepped over all moves, then allowed ones
        whole, starts = tg._batch_columns(batch)
        ids = numpy_ids(whole, tagger.bits, templates, tg._SEEDS, tg._PAD)
        seq = [(at + a, b - a) for doc, at in zip(batch, starts) for a, b in tg.sentences(doc)]
        tags = numpy_decode(numpy_scores(tagger.weights, ids), [s for s, _ in seq], [n for _, n in seq],
                            tagger.trans)
        expected: list[list[tuple[int, int, str]]] = [[] for _ in batch]
        for a, b in tg.flat_spans(tags):
            d = max(k for k, s in enumerate(starts) if s <= a)
            expected[d].append((a - starts[d], b - starts[d], tg.TAGS[tags[a]][2:]))
        assert tagger.predict(batch) == expected


def test_prediction_from_the_compact_table_is_the_numpy_pipeline_on_the_whole_table():
    """Random columns, templates of the shipped kind and a table three quarters zero, of many magnitudes (so that
    the order of the additions shows in the roundings): the prediction that reads the table without its zero rows
    decodes what the whole table's numpy scores decode."""
    rng = numpy.random.default_rng(5)
    bits, pad, rows = 12, tg._PAD, 900
    scale = 10.0 ** rng.integers(-3, 4, size=(1 << bits, 1))
    weights = (rng.standard_normal((1 << bits, N_TAGS)) * scale).astype(numpy.float32)
    weights[rng.random(1 << bits) < 0.75] = 0.0
    tagger = LinearTagger(bits, weights, rng.standard_normal((N_TAGS + 1, N_TAGS)).astype(numpy.float32))
    index, table = tagger.compact()
    assert table.shape == (1 + int(weights.any(axis=1).sum()), N_TAGS) and not table[0].any()
    assert numpy.array_equal(table[index], weights)
    whole = rng.integers(1, 50, size=(len(tg.COLUMNS), rows + 2 * pad)).astype(numpy.uint64)
    starts, lens = numpy.array([0, 7, 300, 301], dtype=numpy.int64), numpy.array([7, 290, 0, 599], dtype=numpy.int64)
    templates = [[(tg._COL[name], offset) for name, offset in parts] for _, parts in TEMPLATES]
    ids = numpy_ids(whole, bits, templates, tg._SEEDS, pad)
    expected = numpy_decode(numpy_scores(weights, ids), starts, lens, tagger.trans)
    tags = numpy.zeros(rows, dtype=numpy.int64)
    _tagger.predict(whole, tg._SEEDS, tg._PARTS, tg._PART_ENDS, pad, bits, index, table, tg._step(tagger.trans),
                    FORBIDDEN_END, starts, lens, tags)
    assert numpy.array_equal(tags, expected)


def test_prediction_refuses_a_compact_table_it_cannot_read(tmp_path):
    rng = numpy.random.default_rng(6)
    whole = rng.integers(1, 50, size=(len(tg.COLUMNS), 10 + 2 * tg._PAD)).astype(numpy.uint64)
    step, one = tg._step(numpy.zeros((N_TAGS + 1, N_TAGS), dtype=numpy.float32)), numpy.array([10])
    table = numpy.zeros((3, N_TAGS), dtype=numpy.float32)

    def predict(index, rows=table, bits=8):
        _tagger.predict(whole, tg._SEEDS, tg._PARTS, tg._PART_ENDS, tg._PAD, bits, index, rows, step, FORBIDDEN_END,
                        numpy.array([0]), one, numpy.zeros(10, dtype=numpy.int64))

    predict(numpy.full(256, 2, dtype=numpy.uint32))
    with pytest.raises(IndexError):
        predict(numpy.full(16, 2, dtype=numpy.uint32))  # feature rows of 8 bits beyond an index of 16
    with pytest.raises(IndexError):
        predict(numpy.full(256, 3, dtype=numpy.uint32))  # an entry beyond the rows
    with pytest.raises(ValueError):
        predict(numpy.zeros(256, dtype=numpy.uint32), rows=table[:0])  # not even the zero row
    with pytest.raises(TypeError):
        predict(numpy.zeros(256, dtype=numpy.int64))


def test_a_tagger_read_from_disk_holds_the_compact_table_and_gives_the_whole_one_on_demand(tmp_path):
    rng = numpy.random.default_rng(7)
    weights = rng.standard_normal((1 << 10, N_TAGS)).astype(numpy.float16).astype(numpy.float32)
    weights[rng.random(1 << 10) < 0.5] = 0.0
    LinearTagger(10, weights, rng.standard_normal((N_TAGS + 1, N_TAGS)).astype(numpy.float32)).to_disk(tmp_path)
    again = LinearTagger.from_disk(tmp_path)
    assert again._weights is None  # only the compact table until asked
    index, rows = again.compact()
    assert len(rows) == 1 + int(weights.any(axis=1).sum()) and rows.dtype == numpy.float16  # as stored
    assert again.weights.dtype == numpy.float32
    assert numpy.array_equal(again.weights, weights) and numpy.array_equal(rows[index], weights)


# ---------------------------------------------------------------------------------------------- feature columns

def token_columns(doc) -> numpy.ndarray:
    """A doc's columns read token by token (the oracle of the batched, cached columns)."""
    from spacy.strings import get_string_id

    from kg.nlp.candidates import candidates

    n = len(doc)
    full, short, prio = [0] * n, [0] * n, [-1] * n  # the highest-priority rule candidate's codes, token by token
    for c in candidates(doc):
        if not c.extractor.startswith("model"):
            codes = tg._cand_codes(c.label, c.extractor, c.proposed)
            for k in range(c.start, min(c.end, n)):
                if c.priority > prio[k]:
                    full[k], short[k] = codes[0 if c.end - c.start == 1 else 1 if k == c.start else
                                              3 if k == c.end - 1 else 2]
                    prio[k] = c.priority
    rows = [[t.lower, t.shape, t.suffix, get_string_id("p:" + t.lower_[:4]), get_string_id("s:" + t.lower_[-4:]),
             full[t.i], short[t.i], int(t.i == 0 or t.is_sent_start is True)] for t in doc]
    return numpy.array(rows, dtype=numpy.uint64).reshape(len(doc), len(tg.COLUMNS)).T


def test_batch_columns_are_each_docs_token_columns_between_sentinels():
    from kg.nlp.pipeline import load_pipeline

    nlp = load_pipeline()
    texts = ["We propose FooNet for semantic segmentation on Cityscapes. It beats DeepLab.", "", "Accuracy improves.",
             "BLEU on WMT14 English-German rises by 2 points with our LoRA variant (Hu et al., 2021)."]
    docs = list(nlp.pipe(texts))
    for batch in (docs, docs[1:2], docs[::-1]):
        whole, starts = tg._batch_columns(batch)
        pad = tg._PAD
        close = numpy.full((len(tg.COLUMNS), pad), tg._BOUNDS[1], dtype=numpy.uint64)
        open_ = numpy.full((len(tg.COLUMNS), pad), tg._BOUNDS[0], dtype=numpy.uint64)
        expected = numpy.concatenate([close, open_] + [x for d in batch for x in (token_columns(d), close, open_)],
                                     axis=1)
        assert numpy.array_equal(whole, expected)
        assert starts == [pad + sum(len(d) + 2 * pad for d in batch[:k]) for k in range(len(batch))]


def test_the_affix_cache_grows_starts_again_when_full_and_always_answers_the_same():
    from spacy.strings import StringStore, get_string_id

    strings = StringStore([f"w{i:04d}" for i in range(300)] + [""])
    words = numpy.array([get_string_id(f"w{i:04d}") for i in range(300)] + [0], dtype=numpy.uint64)
    expected_first = numpy.array([get_string_id("p:" + strings[int(h)][:4]) for h in words], dtype=numpy.uint64)
    expected_last = numpy.array([get_string_id("s:" + strings[int(h)][-4:]) for h in words], dtype=numpy.uint64)
    cache = tg.AffixCache(size=16, max_size=256)
    sizes = []
    for at in range(0, 301, 40):  # new words, then the same again (from the table)
        for _ in range(2):
            first, last = cache.lookup(words[at:at + 40], strings)
            assert numpy.array_equal(first, expected_first[at:at + 40])
            assert numpy.array_equal(last, expected_last[at:at + 40])
            assert cache.count <= len(cache.keys) // 2
            sizes.append(len(cache.keys))
    assert sizes[0] == 128 and max(sizes) == 256 and cache.count < 300  # grown, then emptied once at the top size
    first, last = cache.lookup(words[::-1], strings)
    assert numpy.array_equal(first, expected_first[::-1]) and numpy.array_equal(last, expected_last[::-1])


def test_the_affix_table_refuses_what_it_cannot_hold():
    keys = numpy.zeros(4, dtype=numpy.uint64)
    one = numpy.ones(1, dtype=numpy.uint64)
    with pytest.raises(ValueError, match="power of two"):
        _tagger.affix_insert(one, one, one, numpy.zeros(3, dtype=numpy.uint64), keys[:3], keys[:3])
    with pytest.raises(ValueError, match="empty slot"):
        _tagger.affix_insert(numpy.zeros(1, dtype=numpy.uint64), one, one, keys, keys.copy(), keys.copy())
    words = numpy.arange(1, 6, dtype=numpy.uint64)
    with pytest.raises(ValueError, match="full"):
        _tagger.affix_insert(words, words, words, keys, keys.copy(), keys.copy())
