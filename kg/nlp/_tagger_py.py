"""The Python twin of ``kg/nlp/_tagger.c``: the linear tagger's inner loops in numpy, with the C module's functions,
arguments, checks and results.

kg imports it as ``kg.nlp._tagger`` when the C extension is not built, is older than ``_tagger.c``, or
``KG_PURE_PYTHON`` asks for Python (:mod:`kg.compiled`). The results are bit-identical to the C code's: uint64
hashing that wraps, float32 sums of weight rows added one row at a time in template order (each tag's sum is the
same sequence of float32 additions as in C, which contracts nothing into an FMA), and maxima whose ties go to the
lowest index (numpy's ``argmax``, the C code's strict ``>``). tests/test_twins.py holds the two to each other.
"""
from __future__ import annotations

import operator

import numpy

FORBIDDEN_TAG = numpy.float32(-1e9)  # added to the emission of a tag the ``allowed`` mask rules out
_U = numpy.uint64
_MIX1, _MIX2 = _U(0xBF58476D1CE4E5B9), _U(0x94D049BB133111EB)
_KINDS = {"i": "signed integer", "u": "unsigned integer", "f": "float", "?": "bool"}


def _kind(fmt: str) -> str | None:
    """The element kind of a buffer format, as the C module reads it: 'i', 'u', 'f' or '?'; None if unknown or not
    in native byte order."""
    if fmt[:1] in "@=":
        fmt = fmt[1:]
    elif fmt[:1] in "<>!":
        if (fmt[0] == "<") != (numpy.little_endian):
            return None
        fmt = fmt[1:]
    if len(fmt) != 1:
        return None
    if fmt in "bhilqn":
        return "i"
    if fmt in "BHILQN":
        return "u"
    if fmt in "efd":
        return "f"
    return "?" if fmt == "?" else None


def _array(obj, name: str, kind: str, itemsize: int, ndim: int, writable: bool = False) -> numpy.ndarray:
    """``obj`` as a numpy array sharing its memory, if it is a C-contiguous buffer of ``ndim`` dimensions whose items
    are ``kind`` and ``itemsize`` bytes (0: floats of 2 or 4 bytes; a '?' buffer also takes uint8); TypeError
    otherwise, as the C module."""
    view = memoryview(obj)
    if writable and view.readonly:
        raise TypeError(f"{name}: the buffer is read-only")
    if not view.c_contiguous:
        raise ValueError(f"{name}: not C-contiguous")
    got = _kind(view.format)
    if kind == "?" and got == "u":
        got = "?"
    size_ok = view.itemsize == itemsize if itemsize else view.itemsize in (2, 4)
    if got != kind or not size_ok or view.ndim != ndim:
        size = f"{itemsize}-byte" if itemsize else "2- or 4-byte"
        raise TypeError(f"{name}: expected a {ndim}-d array of {size} {_KINDS[kind]}, got format "
                        f"'{view.format}', {view.ndim}-d")
    return numpy.asarray(view)


def _check(ok: bool, error: type[Exception], message: str) -> None:
    if not ok:
        raise error(message)


def _mix(h: numpy.ndarray) -> numpy.ndarray:
    """splitmix64's finaliser (uint64 arithmetic wraps)."""
    h = (h ^ (h >> _U(30))) * _MIX1
    h = (h ^ (h >> _U(27))) * _MIX2
    return h ^ (h >> _U(31))


def _features(whole, seeds, parts, ends, pad, bits) -> tuple:
    """The checked arguments that describe the features: ``(whole, seeds, parts, ends, pad, mask, rows)``."""
    whole = _array(whole, "whole", "u", 8, 2)
    seeds = _array(seeds, "seeds", "u", 8, 1)
    parts = _array(parts, "parts", "i", 8, 2)
    ends = _array(ends, "ends", "i", 8, 1)
    pad, bits = operator.index(pad), operator.index(bits)
    n_columns, width = whole.shape
    _check(0 <= bits <= 63, ValueError, "bits: 0 to 63")
    _check(pad >= 0 and width >= 2 * pad, ValueError, "whole: fewer columns than twice the padding")
    _check(parts.shape[1] == 2, ValueError, "parts: (column, offset) pairs")
    _check(len(ends) == len(seeds), ValueError, "ends: one per template")
    previous = 0
    for e in ends.tolist():
        _check(previous <= e <= len(parts), ValueError, "ends: non-decreasing, at most the number of parts")
        previous = e
    for column, offset in parts.tolist():
        _check(0 <= column < n_columns, ValueError, "parts: no such column")
        _check(-pad <= offset <= pad, ValueError, "parts: offset beyond the padding")
    return whole, seeds, parts, ends, pad, _U((1 << bits) - 1), width - 2 * pad


def _hash(whole: numpy.ndarray, seeds: numpy.ndarray, parts: numpy.ndarray, ends: numpy.ndarray, pad: int,
          mask: numpy.uint64, rows: int) -> numpy.ndarray:
    """Feature rows (int64, rows x templates): per template, its seed mixed with each part's value in turn."""
    out = numpy.empty((rows, len(seeds)), dtype=numpy.int64)
    begin = 0
    for t, (seed, end) in enumerate(zip(seeds, ends.tolist())):
        h = numpy.full(rows, seed, dtype=numpy.uint64)
        for column, offset in parts[begin:end].tolist():
            h = _mix(h ^ whole[column, pad + offset:pad + offset + rows])
        out[:, t] = (h & mask).view(numpy.int64)
        begin = end
    return out


def feature_ids(whole, seeds, parts, ends, pad: int, bits: int, out) -> None:
    """Feature rows of every real row of ``whole`` (uint64, columns x (rows + 2 * pad)) into ``out`` (int64,
    rows x templates): per template t, h = seeds[t], then h = mix(h ^ whole[column, pad + i + offset]) for each of
    its parts (``parts`` rows ends[t - 1] to ends[t] - 1: column, offset), masked to ``bits`` bits."""
    whole, seeds, parts, ends, pad, mask, rows = _features(whole, seeds, parts, ends, pad, bits)
    out = _array(out, "out", "i", 8, 2, writable=True)
    _check(out.shape == (rows, len(seeds)), ValueError, "out: rows x templates")
    out[...] = _hash(whole, seeds, parts, ends, pad, mask, rows)


def _sum_rows(table: numpy.ndarray, at: numpy.ndarray) -> numpy.ndarray:
    """Per row i, the rows ``table[at[i, 0]]``, ``table[at[i, 1]]``, ... added in that order (float32; a float16
    table's rows are converted to float32, exactly, before the adds)."""
    out = table.take(at[:, 0], axis=0).astype(numpy.float32, copy=False)
    for k in range(1, at.shape[1]):
        out += table.take(at[:, k], axis=0)
    return out


def scores(weights, ids, out) -> None:
    """Emission scores into ``out`` (float32, n x tags): per row i, the sum of the ``weights`` rows (float32 or
    float16, table x tags) ids[i, 0], ids[i, 1], ... (``ids``: int64, n x templates, at least one), added in that
    order (float16 rows converted to float32 exactly first)."""
    weights = _array(weights, "weights", "f", 0, 2)
    ids = _array(ids, "ids", "i", 8, 2)
    out = _array(out, "out", "f", 4, 2, writable=True)
    _check(ids.shape[1] >= 1, ValueError, "ids: at least one template")
    _check(out.shape == (ids.shape[0], weights.shape[1]), ValueError, "out: n x tags")
    _check(not ids.size or (0 <= ids.min() and ids.max() < len(weights)), IndexError,
           "ids: a row beyond the weight table")
    if len(ids):
        out[...] = _sum_rows(weights, ids)


def _sequences(starts, lengths, rows: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    starts = _array(starts, "starts", "i", 8, 1)
    lengths = _array(lengths, "lengths", "i", 8, 1)
    _check(len(starts) == len(lengths), ValueError, "starts and lengths: one each per sequence")
    _check(bool(numpy.all((starts >= 0) & (lengths >= 0) & (starts <= rows) & (lengths <= rows - starts))),
           IndexError, "a sequence beyond the rows")
    return starts, lengths


def _decoder(step, end, n_tags: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    step = _array(step, "step", "f", 4, 2)
    end = _array(end, "end", "f", 4, 1)
    _check(1 <= n_tags <= 256, ValueError, "1 to 256 tags")
    _check(step.shape == (n_tags + 1, n_tags), ValueError, "step: (tags + 1) x tags")
    _check(len(end) == n_tags, ValueError, "end: one per tag")
    return step, end


def _decode(em: numpy.ndarray, starts: numpy.ndarray, lengths: numpy.ndarray, step: numpy.ndarray,
            end: numpy.ndarray, tags: numpy.ndarray) -> None:
    """The best tags of each sequence (rows ``starts[s]`` to ``starts[s] + lengths[s] - 1`` of the emissions
    ``em``) into ``tags``, all sequences stepping together, longest first. As the C code: score = step[start] +
    em[0]; per row, the best of score[from] + step[from, to] (the lowest ``from`` on ties), + em[i]; the last tag
    is the argmax of score + end; then back along the best predecessors."""
    keep = lengths > 0
    first, lens = starts[keep], lengths[keep]
    if not len(lens):
        return
    order = numpy.argsort(-lens, kind="stable")
    first, lens = first[order], lens[order]
    n_tags = em.shape[1]
    moves = step[:n_tags][None, :, :]  # [from, to]
    # live[i]: how many sequences (the longest ones, first) have a row i
    live = numpy.searchsorted(-lens, -numpy.arange(int(lens[0]) + 1), side="left")
    score = step[n_tags][None, :] + em[first]
    back = [None]
    for i in range(1, int(lens[0])):
        k = int(live[i])
        total = score[:k, :, None] + moves  # (sequence, from, to)
        arg = total.argmax(axis=1)
        back.append(arg.astype(numpy.uint8))
        score[:k] = total.max(axis=1) + em[first[:k] + i]
    tag = (score + end[None, :]).argmax(axis=1)
    for i in range(int(lens[0]) - 1, -1, -1):
        k, inner = int(live[i]), int(live[i + 1])
        if inner:  # sequences that go on past row i: their tag at i is the best predecessor of their tag at i + 1
            tag[:inner] = back[i + 1][numpy.arange(inner), tag[:inner]]
        tags[first[:k] + i] = tag[:k]


def viterbi(emissions, step, end, starts, lengths, allowed, tags) -> None:
    """Best tags of each sequence (rows starts[s] to starts[s] + lengths[s] - 1 of ``emissions``: float32, rows x N)
    into ``tags`` (int64, rows; other rows are left alone). ``step``: float32 (N + 1) x N move scores [from, to],
    last row from the start; ``end``: float32 N; ``allowed``: None or a bool rows x N mask (a tag it rules out scores
    -1e9 more)."""
    em = _array(emissions, "emissions", "f", 4, 2)
    tags = _array(tags, "tags", "i", 8, 1, writable=True)
    _check(len(tags) == len(em), ValueError, "tags: one per row")
    starts, lengths = _sequences(starts, lengths, len(em))
    step, end = _decoder(step, end, em.shape[1])
    if allowed is not None:
        mask = _array(allowed, "allowed", "?", 1, 2).view(numpy.uint8)
        _check(mask.shape == em.shape, ValueError, "allowed: rows x tags")
        em = em + numpy.where(mask != 0, numpy.float32(0.0), FORBIDDEN_TAG)
    _decode(em, starts, lengths, step, end, tags)


def predict(whole, seeds, parts, ends, pad: int, bits: int, index, rows, step, end, starts, lengths, tags) -> None:
    """feature_ids, scores and viterbi in one pass over each sequence: the best tags of the sequences' rows of
    ``whole`` into ``tags`` (int64, rows; other rows are left alone). The weights are a compact table: feature row h
    is row index[h] of ``rows`` (``index``: uint32, 2**bits; ``rows``: float32 or float16, kept x tags, row 0 the
    zero row; float16 rows are converted to float32 exactly before the same float32 sums)."""
    whole, seeds, parts, ends, pad, mask, n_rows = _features(whole, seeds, parts, ends, pad, bits)
    index = _array(index, "index", "u", 4, 1)
    table = _array(rows, "rows", "f", 0, 2)
    _check(len(table) >= 1, ValueError, "rows: at least the zero row")
    tags = _array(tags, "tags", "i", 8, 1, writable=True)
    _check(len(tags) == n_rows, ValueError, "tags: one per row")
    _check(len(seeds) >= 1, ValueError, "at least one template")
    starts, lengths = _sequences(starts, lengths, n_rows)
    step, end = _decoder(step, end, table.shape[1])
    # the rows of the sequences, one after another, and where each sequence starts among them
    counts = lengths.astype(numpy.int64)
    local = numpy.concatenate([[0], numpy.cumsum(counts)[:-1]]).astype(numpy.int64) if len(counts) else counts
    taken = numpy.repeat(starts - local, counts) + numpy.arange(int(counts.sum()), dtype=numpy.int64)
    ids = _hash(whole, seeds, parts, ends, pad, mask, n_rows)[taken]
    _check(not ids.size or int(ids.max()) < len(index), IndexError, "bits: feature rows beyond the weight table")
    at = index[ids]
    _check(not at.size or int(at.max()) < len(table), IndexError, "bits: feature rows beyond the weight table")
    em = _sum_rows(table, at) if len(at) else numpy.zeros((0, table.shape[1]), dtype=numpy.float32)
    out = numpy.zeros(len(taken), dtype=numpy.int64)
    _decode(em, local, counts, step, end, out)
    tags[taken] = out


def _affix_table(keys, first, last, writable: bool) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    keys = _array(keys, "keys", "u", 8, 1, writable)
    first = _array(first, "first", "u", 8, 1, writable)
    last = _array(last, "last", "u", 8, 1, writable)
    n = len(keys)
    _check(n > 0 and n & (n - 1) == 0 and len(first) == n and len(last) == n, ValueError,
           "keys, first, last: one size, a power of two")
    return keys, first, last


def affix_lookup(words, keys, first, last, out_first, out_last, missing) -> int:
    """Per item of ``words`` (uint64), the table's two values into ``out_first`` and ``out_last`` (uint64, as many);
    the positions of words the table does not hold (and of 0) go into ``missing`` (int64, as many), their values
    left alone. Returns how many are missing."""
    keys, first, last = _affix_table(keys, first, last, False)
    words = _array(words, "words", "u", 8, 1)
    out_first = _array(out_first, "out_first", "u", 8, 1, writable=True)
    out_last = _array(out_last, "out_last", "u", 8, 1, writable=True)
    missing = _array(missing, "missing", "i", 8, 1, writable=True)
    n = len(words)
    _check(len(out_first) == n and len(out_last) == n and len(missing) == n, ValueError,
           "out_first, out_last, missing: one item per word")
    mask = _U(len(keys) - 1)
    pending = numpy.flatnonzero(words != 0)
    at = (words[pending] & mask).astype(numpy.int64)
    lost = [numpy.flatnonzero(words == 0)]
    for _ in range(len(keys)):  # linear probing, all pending words a slot further each round
        if not len(pending):
            break
        held = keys[at]
        hit = held == words[pending]
        out_first[pending[hit]] = first[at[hit]]
        out_last[pending[hit]] = last[at[hit]]
        lost.append(pending[held == 0])
        going = ~hit & (held != 0)
        pending, at = pending[going], (at[going] + 1) & int(mask)
    lost.append(pending)  # a full table that holds none of them
    gone = numpy.sort(numpy.concatenate(lost))
    missing[:len(gone)] = gone
    return len(gone)


def affix_insert(words, first, last, keys, table_first, table_last) -> int:
    """Puts each of ``words`` (uint64, not 0) with its values ``first[i]``, ``last[i]`` into the table (a word it
    holds already keeps its values). Returns how many were new. The caller keeps the table at most half full."""
    keys, table_first, table_last = _affix_table(keys, table_first, table_last, True)
    words = _array(words, "words", "u", 8, 1)
    first = _array(first, "first", "u", 8, 1)
    last = _array(last, "last", "u", 8, 1)
    n = len(words)
    _check(len(first) == n and len(last) == n, ValueError, "first, last: one item per word")
    mask = len(keys) - 1
    added = 0
    for i, key in enumerate(words.tolist()):
        _check(key != 0, ValueError, "words: 0 marks an empty slot")
        at, probes = key & mask, 0
        while keys[at] != 0 and keys[at] != key:
            at = (at + 1) & mask
            probes += 1
            _check(probes <= mask, ValueError, "the affix table is full")
        if keys[at] == 0:
            keys[at], table_first[at], table_last[at] = key, first[i], last[i]
            added += 1
    return added
