"""A fast trained tagger for the default pipeline: a linear BILOU sequence model over hashed features.

The transformer-fed NER of ``--accurate`` (:mod:`kg.nlp.components.model`) runs at ~9 abstracts/s per core, and even the
smallest spaCy NER tried here (hash embeddings, width 32, CNN depth 2) costs ~3.5 ms per abstract, more than the
whole rule pipeline. This tagger is what the default pipeline can afford: per token, ~30 hashed features (the
word and its neighbours, shapes, affixes, and the rule candidates around it: gazetteer, context, proposed-method,
abbreviation and name-shape matches), one weight row per feature and tag, summed, then Viterbi decoding over BILOU
tags with learned transitions. Feature hashing, the sums and the decoding run over whole batches in a small C
extension (``kg/nlp/_tagger.c``, bit-identical to the numpy code it replaced, which is its Python twin
``kg/nlp/_tagger_py.py``), so its cost per abstract is a fraction of a millisecond.

It is trained (``kg train``, :mod:`kg.train.tagger`) as an averaged structured perceptron on the same gold data
as the NER, with partial annotation handled as latent structure: a token a corpus leaves unlabelled for a label it
does not annotate (see :mod:`kg.train.data`) may take any tag, and the "gold" path of an update is the best path
the current weights find among those consistent with the known tags.

Its entities go through the same combination with the rules as the NER's (:class:`kg.nlp.combine.Combiner`).
"""
from __future__ import annotations

import json
import warnings
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import chain
from pathlib import Path

import numpy
from spacy.attrs import LOWER, SHAPE, SUFFIX
from spacy.language import Language
from spacy.strings import get_string_id
from spacy.tokens import Doc

from kg.model import LABELS
from kg.nlp import _doc, _tagger  # compiled, or their Python twins (kg/compiled.py)
from kg.nlp.candidates import PRIORITY, candidates, sentence_starts
from kg.nlp.combine import Combiner

DEFAULT_DIR = Path(__file__).parents[1] / "trained_tagger"
TAGS = ("O",) + tuple(f"{p}-{lab}" for lab in LABELS for p in "BILU")
N_TAGS = len(TAGS)
# BILOU: B(egin), I(nside) and L(ast) token of a longer entity, U(nit) entity of one token, O(utside).
_KIND = numpy.array([t[0] for t in TAGS])
_OPEN = numpy.isin(_KIND, ("B", "I"))  # an entity goes on after these
_CLOSED = numpy.flatnonzero(~_OPEN)  # O, L-, U-: what O, B- and U- may follow
_OPENING = numpy.flatnonzero(numpy.isin(_KIND, ("O", "B", "U")))
_BEGINS, _ENDS = numpy.isin(_KIND, ("B", "U")), numpy.isin(_KIND, ("L", "U"))
_LABEL_OF = numpy.array(["", *(t[2:] for t in TAGS[1:])], dtype=object)  # each tag's label ("" for O)
_B, _I, _L = (numpy.array([TAGS.index(f"{p}-{lab}") for lab in LABELS]) for p in "BIL")
# allowed[a, b]: tag b may follow tag a (an entity's B- and I- go on with its own I- or L-; O, L- and U- with O, B- or
# U-); row N_TAGS: the start. A sequence may end on O, L- or U- only.
_ALLOWED = numpy.zeros((N_TAGS + 1, N_TAGS), dtype=bool)
_ALLOWED[numpy.ix_([*_CLOSED, N_TAGS], _OPENING)] = True
_ALLOWED[_B, _I] = _ALLOWED[_I, _I] = _ALLOWED[_B, _L] = _ALLOWED[_I, _L] = True
FORBIDDEN = numpy.where(_ALLOWED, 0.0, -1e9).astype(numpy.float32)
FORBIDDEN_END = numpy.where(_OPEN, -1e9, 0.0).astype(numpy.float32)

_U = numpy.uint64
_MIX1, _MIX2 = _U(0xBF58476D1CE4E5B9), _U(0x94D049BB133111EB)
_PAD = 2  # sentinel tokens on each side of a doc


def _mix(h: numpy.ndarray) -> numpy.ndarray:
    """splitmix64's finaliser: spreads every input bit over the output (uint64 arithmetic wraps)."""
    h = (h ^ (h >> _U(30))) * _MIX1
    h = (h ^ (h >> _U(27))) * _MIX2
    return h ^ (h >> _U(31))


class AffixCache:
    """The hashes of each word's first and last four characters (of "p:" + word[:4] and "s:" + word[-4:]) by its
    lower-case id, made once per distinct word. They live in an open-addressing table that the C code reads for a
    whole batch at once (``kg.nlp._tagger.affix_lookup``); it grows up to ``max_size`` slots (kept at most half
    full) and then starts again empty. The hashes of the affix strings themselves are kept too (many words share
    an affix), by string, and start again with the table."""

    def __init__(self, size: int = 1 << 16, max_size: int = 1 << 21) -> None:
        self.max_size = max_size
        self._clear(size)

    def _clear(self, size: int) -> None:
        self.keys, self.first, self.last = (numpy.zeros(size, dtype=numpy.uint64) for _ in range(3))
        self.count = 0
        self.affix_ids: dict[str, int] = {}

    def lookup(self, words: numpy.ndarray, strings) -> tuple[numpy.ndarray, numpy.ndarray]:
        """The two hashes of each of ``words`` (uint64 lower-case ids; ``strings``: the vocab's string store)."""
        words = numpy.ascontiguousarray(words, dtype=numpy.uint64)
        n = len(words)
        first, last = numpy.empty(n, dtype=numpy.uint64), numpy.empty(n, dtype=numpy.uint64)
        missing = numpy.empty(n, dtype=numpy.int64)
        k = _tagger.affix_lookup(words, self.keys, self.first, self.last, first, last, missing)
        if k:
            at = missing[:k]
            new = numpy.unique(words[at])
            texts = [strings[h] for h in new.tolist()]
            new_first = self._ids(["p:" + w[:4] for w in texts])
            new_last = self._ids(["s:" + w[-4:] for w in texts])
            where = numpy.searchsorted(new, words[at])
            first[at], last[at] = new_first[where], new_last[where]
            keep = new != 0  # 0 marks an empty slot (and is no word's id)
            self._add(new[keep], new_first[keep], new_last[keep])
        return first, last

    def _ids(self, affixes: list[str]) -> numpy.ndarray:
        """The string ids of ``affixes`` (uint64), each string hashed once while the table lasts."""
        known, out = self.affix_ids, []
        for affix in affixes:
            h = known.get(affix)
            if h is None:
                h = known[affix] = get_string_id(affix)
            out.append(h)
        return numpy.array(out, dtype=numpy.uint64)

    def _add(self, words: numpy.ndarray, first: numpy.ndarray, last: numpy.ndarray) -> None:
        size = len(self.keys)
        while 2 * (self.count + len(words)) > size and size < self.max_size:
            size *= 2
        if size != len(self.keys):  # grown: the words held so far go into the larger table
            held = self.keys != 0
            old = self.keys[held], self.first[held], self.last[held]
            self._clear(size)
            self.count = _tagger.affix_insert(*old, self.keys, self.first, self.last)
        if 2 * (self.count + len(words)) > size:
            self._clear(size)  # full at the largest size: start again
        self.count += _tagger.affix_insert(words, first, last, self.keys, self.first, self.last)


_AFFIXES = AffixCache()


@lru_cache(maxsize=1024)
def _cand_codes(label: str, extractor: str, proposed: bool) -> tuple[tuple[int, int], ...]:
    """The codes of a candidate's tokens, (label, extractor, B/I/L/U) and (label, B/I/L/U), for U, B, I and L in
    that order."""
    kind = extractor + ("+p" if proposed else "")
    return tuple((get_string_id(f"c:{label}|{kind}|{pos}"), get_string_id(f"l:{label}|{pos}")) for pos in "UBIL")


# Feature templates: (name, [(column, offset), ...]); a feature is the hash of the template and its values.
COLUMNS = ("lower", "shape", "suffix", "pre4", "suf4", "cand", "clab", "start")
TEMPLATES: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = (
    ("bias", ()),
    ("w", (("lower", 0),)), ("w-1", (("lower", -1),)), ("w+1", (("lower", 1),)),
    ("w-2", (("lower", -2),)), ("w+2", (("lower", 2),)),
    ("w-1w", (("lower", -1), ("lower", 0))), ("ww+1", (("lower", 0), ("lower", 1))),
    ("w+1w+2", (("lower", 1), ("lower", 2))), ("w-2w-1", (("lower", -2), ("lower", -1))),
    ("s", (("shape", 0),)), ("s-1s", (("shape", -1), ("shape", 0))), ("ss+1", (("shape", 0), ("shape", 1))),
    ("s-1ss+1", (("shape", -1), ("shape", 0), ("shape", 1))),
    ("w-1s", (("lower", -1), ("shape", 0))), ("sw+1", (("shape", 0), ("lower", 1))),
    ("suf3", (("suffix", 0),)), ("pre4", (("pre4", 0),)), ("suf4", (("suf4", 0),)),
    ("suf4-1", (("suf4", -1),)), ("suf4+1", (("suf4", 1),)),
    ("c", (("cand", 0),)), ("c-1", (("cand", -1),)), ("c+1", (("cand", 1),)),
    ("cw", (("clab", 0), ("lower", 0))), ("c-1c", (("clab", -1), ("clab", 0))), ("cc+1", (("clab", 0), ("clab", 1))),
    ("start", (("start", 0), ("shape", 0))), ("start-w", (("start", 0), ("lower", 0))),
    ("w-1w+1", (("lower", -1), ("lower", 1))),
)
# one seed per template (numpy arrays wrap on overflow silently, scalars warn)
_SEEDS = _mix(numpy.array([get_string_id("t:" + name) for name, _ in TEMPLATES], dtype=numpy.uint64))
_COL = {name: i for i, name in enumerate(COLUMNS)}
# the templates as the C code reads them: every (column, offset) part, and where each template's parts end
_PARTS = numpy.array([(_COL[name], offset) for _, parts in TEMPLATES for name, offset in parts],
                     dtype=numpy.int64).reshape(-1, 2)
_PART_ENDS = numpy.cumsum([len(parts) for _, parts in TEMPLATES], dtype=numpy.int64)
_BOUNDS = (_U(get_string_id("<s>")), _U(get_string_id("</s>")))


def sentences(doc: Doc) -> list[tuple[int, int]]:
    """Token ranges of the doc's sentences (``kg_sentencizer``'s boundaries; the whole doc if none are set)."""
    bounds = [0, *filter(None, sentence_starts(doc)), len(doc)]  # (the starts after token 0)
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def _sequences(docs: Sequence[Doc], starts: list[int]) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The rows where the batch's sentences (:func:`sentences`) start and their lengths (int64 arrays), docs laid out
    from rows ``starts``. A doc's sentence starts are sorted, 0 first (none in an empty doc): a sentence ends where
    the next one starts, the last at the doc's end."""
    firsts = [sentence_starts(doc) for doc in docs]
    counts = numpy.array([len(f) for f in firsts], dtype=numpy.int64)
    total = int(counts.sum())
    begins = numpy.fromiter(chain.from_iterable(firsts), dtype=numpy.int64, count=total) \
        + numpy.repeat(numpy.asarray(starts, dtype=numpy.int64), counts)
    ends = numpy.empty(total, dtype=numpy.int64)
    ends[:-1] = begins[1:]
    full = counts > 0
    ends[counts.cumsum()[full] - 1] = (numpy.asarray(starts, dtype=numpy.int64)
                                       + numpy.array([len(doc) for doc in docs], dtype=numpy.int64))[full]
    return begins, ends - begins


def feature_ids(docs: Sequence[Doc], bits: int) -> list[numpy.ndarray]:
    """Per doc, ``(len(doc), len(TEMPLATES))`` row indices into a weight table of ``2**bits`` rows."""
    ids, starts = _batch_ids(docs, bits)
    return [ids[a:a + len(doc)] for doc, a in zip(docs, starts)]


def _batch_columns(docs: Sequence[Doc]) -> tuple[numpy.ndarray, list[int]]:
    """The docs' feature columns laid end to end (uint64, one row per column of :data:`COLUMNS`, one column per
    token), with :data:`_PAD` sentinels around each doc, so that features read across a doc's edges see sentinels.
    Returns them and the row where each doc starts (row ``i`` being column ``_PAD + i``: the first doc starts at
    row ``_PAD``)."""
    whole, firsts, lengths = _layout(docs)
    for doc, c, n in zip(docs, firsts.tolist(), lengths.tolist()):
        if n:
            _doc.fill_rows(doc, (LOWER, SHAPE, SUFFIX), whole, c)
            # per token, the codes of the highest-priority rule candidate covering it (_cand_codes), 0 where none does
            _doc.fill_candidates(candidates(doc), whole, 5, 6, c, n, PRIORITY, _cand_codes)
            _doc.fill_starts(doc, whole, 7, c)
    if len(docs):
        # every doc's token columns, in order: token k of the batch is column k plus the sentinels before its doc
        cols = numpy.arange(int(lengths.sum()), dtype=numpy.int64) + numpy.repeat(firsts - (lengths.cumsum() - lengths),
                                                                                  lengths)
        whole[3, cols], whole[4, cols] = _AFFIXES.lookup(whole[0, cols], docs[0].vocab.strings)
    return whole, (firsts - _PAD).tolist()


def _layout(docs: Sequence[Doc]) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """The columns of :func:`_batch_columns` with their sentinels written, each doc's first column and each doc's
    length (int64 arrays). Doc ``d`` takes its tokens and ``2 * _PAD`` sentinels: ``_PAD`` "<s>" columns before it
    and ``_PAD`` "</s>" after it (so does the batch's start: "</s>" "<s>" before the first doc)."""
    lengths = numpy.array([len(doc) for doc in docs], dtype=numpy.int64)
    taken = (lengths + 2 * _PAD).cumsum()
    firsts = taken - lengths  # (the first doc's first column is 2 * _PAD)
    whole = numpy.full((len(COLUMNS), int(taken[-1]) + 2 * _PAD if len(docs) else 2 * _PAD), _BOUNDS[0],
                       dtype=numpy.uint64)
    whole[:, :_PAD] = _BOUNDS[1]
    whole[:, (firsts + lengths)[:, None] + numpy.arange(_PAD)] = _BOUNDS[1]
    return whole, firsts, lengths


def _batch_ids(docs: Sequence[Doc], bits: int) -> tuple[numpy.ndarray, list[int]]:
    """Feature rows of a batch, hashed together over :func:`_batch_columns` (sentinel rows included). Returns the
    rows and the row where each doc starts."""
    whole, starts = _batch_columns(docs)
    ids = numpy.empty((whole.shape[1] - 2 * _PAD, len(TEMPLATES)), dtype=numpy.int64)
    _tagger.feature_ids(whole, _SEEDS, _PARTS, _PART_ENDS, _PAD, bits, ids)
    return ids, starts


def _step(trans: numpy.ndarray) -> numpy.ndarray:
    """Move scores for decoding: the transition weights plus :data:`FORBIDDEN`, in float32."""
    return (trans + FORBIDDEN).astype(numpy.float32)


def decode(scores: numpy.ndarray, starts: Sequence[int], lengths: Sequence[int], trans: numpy.ndarray,
           allowed: numpy.ndarray | None = None) -> numpy.ndarray:
    """Viterbi decoding of many sequences at once. ``scores``: ``(rows, N_TAGS)`` float32 emission scores;
    sequence ``s`` is rows ``starts[s]`` to ``starts[s] + lengths[s]``; ``trans``: ``(N_TAGS + 1, N_TAGS)``
    transition weights (last row: from the start); ``allowed``: an optional ``(rows, N_TAGS)`` mask of the tags a
    row may take (partial gold; a tag it rules out scores -1e9 more). Returns the best tag of every row (0, "O", for
    rows in no sequence). Ties go to the lowest-numbered tag, as numpy's argmax."""
    tags = numpy.zeros(len(scores), dtype=numpy.int64)
    mask = None if allowed is None else numpy.ascontiguousarray(allowed, dtype=bool)
    _tagger.viterbi(numpy.ascontiguousarray(scores, dtype=numpy.float32), _step(trans), FORBIDDEN_END,
                    numpy.asarray(starts, dtype=numpy.int64), numpy.asarray(lengths, dtype=numpy.int64), mask, tags)
    return tags


def viterbi(scores: list[numpy.ndarray], trans: numpy.ndarray,
            allowed: list[numpy.ndarray] | None = None) -> list[numpy.ndarray]:
    """:func:`decode` for a list of sequences (``(n, N_TAGS)`` emission scores each, optional ``(n, N_TAGS)``
    masks); returns the best tag sequence of each."""
    if not scores:
        return []
    lens = [len(s) for s in scores]
    starts = numpy.concatenate([[0], numpy.cumsum(lens)[:-1]]).astype(numpy.int64)
    flat = numpy.concatenate(scores) if sum(lens) else numpy.zeros((0, N_TAGS), dtype=numpy.float32)
    mask = None
    if allowed is not None:
        mask = numpy.concatenate([a if a is not None else numpy.ones((n, N_TAGS), dtype=bool)
                                  for a, n in zip(allowed, lens)]) if sum(lens) else None
    tags = decode(flat, starts, lens, trans, mask)
    return [tags[a:a + n] for a, n in zip(starts.tolist(), lens)]


def flat_spans(path: numpy.ndarray) -> list[tuple[int, int]]:
    """``(start, end)`` of each entity in a decoded tag sequence: from a B- tag to the next L- tag, or a U- tag
    alone (decoding allows no other order)."""
    begins, ends = _entity_bounds(path)
    return list(zip(begins.tolist(), ends.tolist()))


def _entity_bounds(path: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The starts and the ends (exclusive) of the entities of a decoded tag sequence, as arrays."""
    begins = numpy.flatnonzero(_BEGINS[path])
    if not len(begins):
        return begins, begins
    ends = numpy.flatnonzero(_ENDS[path])
    return begins, ends[numpy.searchsorted(ends, begins)] + 1


def spans(path: numpy.ndarray) -> list[tuple[int, int, str]]:
    """BILOU tag indices -> ``(start, end, label)`` token ranges."""
    return [(a, b, TAGS[path[a]][2:]) for a, b in flat_spans(numpy.asarray(path))]


def _compact(kept: numpy.ndarray, values: numpy.ndarray, bits: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The compact table of :meth:`LinearTagger.compact` whose non-zero rows are ``kept``, with ``values`` (one row
    each, float32 or float16, as ``weights.npz`` holds them). Float16 values stay float16 (half the memory: the
    prediction's reads of random rows wait on the caches less); the C code converts them to float32 exactly."""
    index = numpy.zeros(1 << bits, dtype=numpy.uint32)
    index[kept] = numpy.arange(1, len(kept) + 1, dtype=numpy.uint32)
    dtype = numpy.float16 if values.dtype == numpy.float16 else numpy.float32
    rows = numpy.zeros((len(kept) + 1, N_TAGS), dtype=dtype)
    rows[1:] = values
    return index, rows


class LinearTagger:
    """Weights of the tagger: a ``(2**bits, N_TAGS)`` table and ``(N_TAGS + 1, N_TAGS)`` transitions.

    Prediction reads the table without its zero rows (:meth:`compact`); a tagger loaded from disk holds only that
    (13 MB for the shipped one, its rows float16 as stored, against 71 MB for the whole float32 table), and makes
    the whole table if something asks for :attr:`weights` (training, tests)."""

    def __init__(self, bits: int = 20, weights: numpy.ndarray | None = None, trans: numpy.ndarray | None = None,
                 meta: dict | None = None, compact: tuple[numpy.ndarray, numpy.ndarray] | None = None) -> None:
        self.bits = bits
        if weights is None and compact is None:
            weights = numpy.zeros((1 << bits, N_TAGS), dtype=numpy.float32)
        self._weights, self._compact = weights, compact
        self.trans = trans if trans is not None else numpy.zeros((N_TAGS + 1, N_TAGS), dtype=numpy.float32)
        self.meta = meta or {}

    @property
    def weights(self) -> numpy.ndarray:
        """The whole ``(2**bits, N_TAGS)`` float32 table."""
        if self._weights is None:
            index, rows = self._compact
            self._weights = rows[index].astype(numpy.float32, copy=False)
        return self._weights

    def compact(self) -> tuple[numpy.ndarray, numpy.ndarray]:
        """The weights without their zero rows, as prediction reads them: ``index`` (uint32, one entry per feature
        row: its row in ``rows``) and ``rows`` (row 0 all zeros, then each non-zero row; float16 in a tagger read
        from disk, as stored, float32 otherwise). Made on first use and kept: prediction takes the weights as they
        were then (training makes a new tagger per epoch)."""
        if self._compact is None:
            kept = numpy.flatnonzero(self.weights.any(axis=1))
            self._compact = _compact(kept, self.weights[kept], self.bits)
        return self._compact

    def scores(self, ids: numpy.ndarray) -> numpy.ndarray:
        """``(n, N_TAGS)`` float32 emission scores of ``n`` tokens' feature rows: per token, its templates' weight
        rows added in template order."""
        out = numpy.empty((len(ids), self.weights.shape[1]), dtype=numpy.float32)
        _tagger.scores(self.weights, numpy.ascontiguousarray(ids, dtype=numpy.int64), out)
        return out

    def predict(self, docs: Sequence[Doc]) -> list[list[tuple[int, int, str]]]:
        """Entities per doc, as token ranges (each sentence decoded on its own, as in training)."""
        whole, starts = _batch_columns(docs)
        seq_starts, seq_lens = _sequences(docs, starts)
        tags = numpy.zeros(whole.shape[1] - 2 * _PAD, dtype=numpy.int64)
        # feature_ids, scores and decode in one pass, a sentence at a time
        _tagger.predict(whole, _SEEDS, _PARTS, _PART_ENDS, _PAD, self.bits, *self.compact(), _step(self.trans),
                        FORBIDDEN_END, seq_starts, seq_lens, tags)
        begins, ends = _entity_bounds(tags)
        # each entity's doc, its range in the doc and its label, for all of them at once; then each doc's share
        at = numpy.searchsorted(starts, begins, side="right") - 1
        offsets = numpy.asarray(starts, dtype=numpy.int64)[at]
        found = list(zip((begins - offsets).tolist(), (ends - offsets).tolist(), _LABEL_OF[tags[begins]].tolist()))
        cuts = numpy.searchsorted(at, numpy.arange(len(docs) + 1)).tolist()
        return [found[a:b] for a, b in zip(cuts, cuts[1:])]

    def to_disk(self, path: Path, meta: dict | None = None) -> None:
        """Non-zero weight rows only (most of the table stays zero), as float16, plus ``meta.json``."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        rows = numpy.flatnonzero(numpy.abs(self.weights).max(axis=1) > 0).astype(numpy.uint32)
        numpy.savez_compressed(path / "weights.npz", bits=numpy.array(self.bits), rows=rows,
                               values=self.weights[rows].astype(numpy.float16), trans=self.trans)
        self.meta = {**self.meta, **(meta or {}), "templates": [name for name, _ in TEMPLATES], "tags": list(TAGS),
                     "bits": self.bits, "nonzero_rows": int(len(rows))}
        (path / "meta.json").write_text(json.dumps(self.meta, indent=2, ensure_ascii=False) + "\n")

    @classmethod
    def from_disk(cls, path: Path) -> "LinearTagger":
        path = Path(path)
        meta = json.loads((path / "meta.json").read_text())
        if meta.get("templates") != [name for name, _ in TEMPLATES] or meta.get("tags") != list(TAGS):
            raise ValueError(f"{path}: tagger trained with other features or tags; rebuild it with `kg train`")
        with numpy.load(path / "weights.npz") as z:
            bits = int(z["bits"])
            compact = _compact(z["rows"], z["values"], bits)
            trans = z["trans"].astype(numpy.float32)
        return cls(bits, None, trans, meta, compact)


def tagger_path(tagger_dir: str = "") -> Path:
    return Path(tagger_dir) if tagger_dir else DEFAULT_DIR


NO_TAGGER = "kg_tagger: no trained tagger in {path} (run `kg train`); using the rules only"


def load_tagger(tagger_dir: str = "", missing: str = NO_TAGGER) -> LinearTagger | None:
    """The tagger in ``tagger_dir`` (default: the packaged one), or None with the warning ``missing`` (``{path}``:
    the directory) if there is none."""
    path = tagger_path(tagger_dir)
    if not (path / "weights.npz").exists():
        warnings.warn(missing.format(path=path), stacklevel=2)
        return None
    return LinearTagger.from_disk(path)


class TaggerCandidates(Combiner):
    """Pipeline component ``kg_tagger``: the linear tagger's entities as candidates, combined with the rules as
    the NER's are (:class:`kg.nlp.combine.Combiner`)."""

    of_describes = True

    def __init__(self, name: str, tagger_dir: str = "", labels: Iterable[str] = LABELS, extend: bool = True,
                 need_support: Iterable[str] = ("DATASET", "METRIC"), need_name: Iterable[str] = (),
                 max_tokens: int = 12) -> None:
        super().__init__(name, labels, extend, need_support, need_name, max_tokens)
        self.tagger = load_tagger(tagger_dir)
        if self.tagger is not None:
            self.set_confidence((self.tagger.meta.get("kg_training") or {}).get("dev"))

    @property
    def loaded(self) -> bool:
        return self.tagger is not None

    def entities(self, batch: list[Doc]) -> list[list[tuple[int, int, str]]]:
        return self.tagger.predict(batch)


@Language.factory("kg_tagger", default_config={"tagger_dir": "", "labels": list(LABELS), "extend": True,
                                               "need_support": ["DATASET", "METRIC"], "need_name": [],
                                               "max_tokens": 12})
def make_tagger(nlp: Language, name: str, tagger_dir: str, labels: list[str], extend: bool, need_support: list[str],
                need_name: list[str], max_tokens: int) -> TaggerCandidates:
    """``tagger_dir``: a tagger written by ``kg train`` (default: the packaged ``kg/nlp/trained_tagger``)."""
    return TaggerCandidates(name, tagger_dir, labels, extend, need_support, need_name, max_tokens)
