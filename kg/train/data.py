"""Gold JSONL (one document a line: ``id``, ``text``, ``spans``, ``entities``; the format ``kg eval`` reads) ->
spaCy ``DocBin`` training data, with partial annotation kept partial.

Each corpus annotates only some of our labels; a word it leaves unlabelled is "not an entity" only for the
labels it annotates. spaCy's NER learns nothing from a token whose entity annotation is *missing* (IOB ``-``,
empty), so for a corpus that lacks a label we mark as missing every token that could plausibly carry it:

- SciERC (METHOD, TASK, METRIC; no DATASET): its ``MATERIAL`` spans (they mix dataset names with generic material
  such as "images") and every DATASET-gazetteer match;
- TDMSci (TASK, DATASET, METRIC; no METHOD): every METHOD-gazetteer match and every model-shaped token
  (mixed case inside a word or letters with digits: ``BiLSTM-CRF``, ``word2vec``, ``GPT-2``);
- SciREX: annotates all four labels; nothing is marked missing.

Everything else outside a gold span is ``O``; a missing region never overrides a gold span.

Text is cleaned exactly as at prediction time (:func:`kg.corpus.clean.clean`: SciERC's ``-LRB-`` becomes ``(``),
gold offsets are mapped from raw to cleaned text, and the doc is tokenised by kg's own tokenizer
(``kg.ml_tokenizer.v1``), so the model sees the tokens the rules see. A gold span whose boundary falls inside a
token (``LSTMs`` in ``Coupled-LSTMs``) cannot be represented; :data:`ALIGNMENT` decides what to do with it:
``missing`` (default: its tokens are marked missing, neither entity nor ``O``), ``expand`` or ``contract``
(``Doc.char_span`` alignment modes). :func:`alignment_report` counts each case.
"""
from __future__ import annotations

import bisect
import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import spacy
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, DocBin, Span
from spacy.util import filter_spans

from kg.corpus.clean import clean
from kg.nlp.candidates import is_namelike
from kg.nlp.components.gazetteer import load_gazetteer
from kg.nlp.tokenizer import create_ml_tokenizer

LABELS = ("METHOD", "TASK", "DATASET", "METRIC")
ALIGNMENT = "missing"


@dataclass(frozen=True)
class Corpus:
    """One gold file and how its labels are to be read."""

    file: str
    labels: tuple[str, ...]  # labels annotated exhaustively in this corpus
    missing_spans: tuple[str, ...] = ()  # gold labels whose spans are marked missing (SciERC's MATERIAL)
    model_shaped_missing: bool = False  # model-shaped tokens are marked missing (no METHOD annotation)

    @property
    def unannotated(self) -> tuple[str, ...]:
        """Our labels this corpus does not annotate."""
        return tuple(lab for lab in LABELS if lab not in self.labels)

    def describe(self) -> str:
        parts = [f"annotates {', '.join(self.labels)}"]
        if self.unannotated:
            how = [f"{'/'.join(self.unannotated)}-gazetteer matches"] + [f"{s} spans" for s in self.missing_spans]
            if self.model_shaped_missing:
                how.append("model-shaped tokens")
            parts.append(f"no {', '.join(self.unannotated)}: marked missing: {', '.join(how)}")
        return "; ".join(parts)


CORPORA = {
    "scierc": Corpus("scierc-train.jsonl", ("METHOD", "TASK", "METRIC"), missing_spans=("MATERIAL",)),
    "scierc-dev": Corpus("scierc-dev.jsonl", ("METHOD", "TASK", "METRIC"), missing_spans=("MATERIAL",)),
    "tdmsci": Corpus("tdmsci-train.jsonl", ("TASK", "DATASET", "METRIC"), model_shaped_missing=True),
    "scirex": Corpus("scirex-abstracts-train.jsonl", LABELS),
}
TRAIN_CORPORA = ("scierc", "tdmsci", "scirex")
DEV_CORPUS = "scierc-dev"


DATA_ENV = "KG_TRAIN_DATA"  # the gold data directory when no ``data_dir`` is given (``kg train --data DIR``)


def gold_data_dir() -> Path:
    """The gold data directory named by ``KG_TRAIN_DATA``: the corpora's files (:data:`CORPORA`), and optionally
    ``seeds-icml2025.jsonl``. kg ships no gold data; a missing setting is a :class:`FileNotFoundError`."""
    import os

    env = os.environ.get(DATA_ENV)
    if not env:
        raise FileNotFoundError(f"no gold data directory: pass data_dir, or set {DATA_ENV} (kg train --data DIR)")
    return Path(env)


def read_gold(path: Path) -> list[dict]:
    """The records of a gold JSONL file; a line that is not a JSON object with ``id`` and ``text`` is an
    :class:`~kg.errors.InputError` naming the file and line."""
    from kg.errors import InputError, Problem
    from kg.model import Source

    out = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(Problem(Source(str(path), number), f"not JSON: {exc.msg}")) from None
            if not isinstance(record, dict) or "id" not in record or not isinstance(record.get("text"), str):
                raise InputError(Problem(Source(str(path), number), "a gold record needs an 'id' and a 'text'"))
            out.append(record)
    return out


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_tokenizer_nlp() -> Language:
    """A blank English pipeline with kg's tokenizer (what the trained model is built on)."""
    nlp = spacy.blank("en")
    nlp.tokenizer = create_ml_tokenizer()(nlp)
    return nlp


@dataclass
class Stats:
    """What the conversion did, per corpus."""

    docs: int = 0
    spans: int = 0
    counts: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict:
        return {"docs": self.docs, "spans": self.spans, **dict(sorted(self.counts.items()))}


class Converter:
    """Turns gold records into ``Doc`` objects with entity annotation and missing regions."""

    def __init__(self, nlp: Language | None = None, alignment: str = ALIGNMENT) -> None:
        if alignment not in {"missing", "expand", "contract"}:
            raise ValueError(f"alignment must be missing, expand or contract, not {alignment!r}")
        self.nlp = nlp or make_tokenizer_nlp()
        self.alignment = alignment
        self._matchers: dict[str, tuple[PhraseMatcher, PhraseMatcher]] = {}
        for e in load_gazetteer().entries:
            lower, exact = self._matchers.setdefault(
                e.label, (PhraseMatcher(self.nlp.vocab, attr="LOWER"), PhraseMatcher(self.nlp.vocab, attr="ORTH")))
            (exact if e.case_sensitive else lower).add(e.label, [self.nlp.make_doc(f) for f in dict.fromkeys((e.name, *e.aliases))])

    def _gazetteer_spans(self, doc: Doc, labels: Iterable[str]) -> list[Span]:
        """Every match of a gazetteer name with one of ``labels`` (no context conditions: over-marking is harmless)."""
        out = []
        for label in labels:
            for matcher in self._matchers.get(label, ()):
                out += [doc[s:e] for _, s, e in matcher(doc)]
        return out

    @staticmethod
    def _model_shaped(doc: Doc) -> list[Span]:
        out = []
        for tok in doc:
            t = tok.text
            if not is_namelike(tok):
                continue
            mixed = any(any(c.isupper() for c in p[1:]) for p in t.split("-") if p)
            digits = any(c.isdigit() for c in t) and any(c.isalpha() for c in t)
            if mixed or digits:
                out.append(doc[tok.i : tok.i + 1])
        return out

    def _span(self, doc: Doc, start: int, end: int, label: str, stats: Stats) -> tuple[Span | None, Span | None]:
        """(entity span, missing span) for cleaned char offsets."""
        span = doc.char_span(start, end, label=label)
        if span is not None:
            return span, None
        stats.counts["misaligned"] += 1
        wide = doc.char_span(start, end, label=label, alignment_mode="expand")
        if self.alignment == "expand":
            return wide, None
        if self.alignment == "contract":
            narrow = doc.char_span(start, end, label=label, alignment_mode="contract")
            if narrow is None or len(narrow) == 0:
                stats.counts["misaligned_lost"] += 1
                return None, None
            return narrow, None
        return None, wide

    def convert(self, record: dict, corpus: Corpus, stats: Stats | None = None) -> Doc:
        """One gold record -> a Doc whose ``ents`` are the gold spans and whose unknown tokens are missing."""
        stats = stats if stats is not None else Stats()
        ct = clean(record["text"])
        doc = self.nlp.make_doc(ct.text)
        offsets = ct.offsets
        n = len(ct.text)
        ents: list[Span] = []
        missing: list[Span] = []
        for s in record.get("spans", []):
            start = bisect.bisect_left(offsets, s["start"], 0, n)
            end = bisect.bisect_left(offsets, s["end"], 0, n)
            if end <= start:
                continue
            stats.spans += 1
            label = s["label"]
            if label in corpus.missing_spans or label not in corpus.labels:
                span = doc.char_span(start, end, alignment_mode="expand")
                if span is not None:
                    missing.append(span)
                    stats.counts[f"missing_{label}"] += 1
                continue
            ent, miss = self._span(doc, start, end, label, stats)
            if ent is not None and len(ent):
                ents.append(ent)
            if miss is not None and len(miss):
                missing.append(miss)
        kept = filter_spans(ents)
        stats.counts["overlapping_gold_dropped"] += len(ents) - len(kept)
        ents = kept
        if corpus.unannotated:
            extra = self._gazetteer_spans(doc, corpus.unannotated)
            stats.counts["missing_gazetteer"] += len(extra)
            missing += extra
        if corpus.model_shaped_missing:
            shaped = self._model_shaped(doc)
            stats.counts["missing_model_shaped"] += len(shaped)
            missing += shaped
        in_gold = set()
        for e in ents:
            in_gold.update(range(e.start, e.end))
        missing_tokens = sorted({i for m in missing for i in range(m.start, m.end)} - in_gold)
        stats.counts["missing_tokens"] += len(missing_tokens)
        missing_spans = [doc[i : i + 1] for i in missing_tokens]
        doc.set_ents(ents, missing=missing_spans, default="outside")
        stats.docs += 1
        return doc


def convert_file(path: Path, corpus: Corpus, converter: Converter,
                 exclude: set[str] | None = None) -> tuple[list[Doc], Stats]:
    """Docs of ``path`` (optionally without the records whose id is in ``exclude``)."""
    stats = Stats()
    docs = []
    for rec in read_gold(path):
        rid = str(rec["id"])
        if exclude is not None and rid in exclude:
            continue
        docs.append(converter.convert(rec, corpus, stats))
    return docs, stats


def write_docbin(docs: Iterable[Doc], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    DocBin(attrs=["ORTH", "ENT_IOB", "ENT_TYPE"], docs=docs).to_disk(path)
    return path


def alignment_report(data_dir: Path | None = None) -> dict[str, dict[str, int]]:
    """Per corpus: gold spans, spans not on token boundaries, and what ``contract`` would lose."""
    data_dir = data_dir or gold_data_dir()
    nlp = make_tokenizer_nlp()
    out = {}
    for name, corpus in CORPORA.items():
        counts = Counter()
        for rec in read_gold(data_dir / corpus.file):
            ct = clean(rec["text"])
            doc = nlp.make_doc(ct.text)
            n, offsets = len(ct.text), ct.offsets
            for s in rec.get("spans", []):
                a = bisect.bisect_left(offsets, s["start"], 0, n)
                b = bisect.bisect_left(offsets, s["end"], 0, n)
                counts["spans"] += 1
                if doc.char_span(a, b) is None:
                    counts["misaligned"] += 1
                    narrow = doc.char_span(a, b, alignment_mode="contract")
                    counts["contract_lost" if narrow is None or not len(narrow) else "contract_shortened"] += 1
                    counts["expand_lengthened"] += 1
        out[name] = dict(counts)
    return out
