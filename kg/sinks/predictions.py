"""mentions.jsonl: one line per paper in the prediction format that ``kg eval`` scores (also what ``kg extract``
writes): its mentions as the scored corpora annotate them, its concepts by label, what it proposes, its results."""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from kg.build.jsontext import dumps
from kg.model import Extraction, Mention, Paper
from kg.schema import concept_key, spaced
from kg.sinks.base import GraphSink


_OPEN = re.compile(r"\s*(?:\(|-LRB-)\s*")
_CLOSE = re.compile(r"\s*(?:\)|-RRB-)")
_HEADS = {"METHOD": re.compile(r" (?:methods?|models?|algorithms?|approach(?:es)?|frameworks?|systems?|techniques?"
                               r"|networks?)\b"),
          "TASK": re.compile(r" (?:tasks?|problems?)\b"),
          "DATASET": re.compile(r" (?:datasets?|data sets?|corpus|corpora|benchmarks?|treebanks?)\b")}


def defined_spans(text: str, mentions: list[Mention]) -> Iterator[tuple[Mention, int, int]]:
    """Mention spans as the scored corpora annotate them. An abbreviation defined in brackets is one mention with
    its definition ("Markov random field (MRF)": SciERC and TDMSci mark 121 and 103 such spans whole, 2 and 3
    split), and a mention takes the head noun that follows it: "task"/"problem" for a task (inside the span 80 of
    80 times in SciERC, 453 of 477 in SciREX, 52 of 106 in TDMSci), "model", "method", "algorithm"... for a method
    (529 of 530 in SciERC, 1,724 of 1,818 in SciREX), "dataset", "corpus", "benchmark"... for a dataset (139 of 144
    in TDMSci, 142 of 177 in SciREX). (Not "score" for a metric: TDMSci splits it too often, 44 in to 33 out, and
    its CV score went down.) The graph keeps the names as concepts ("vehicle routing", "MRF" an alias of "Markov
    random field"); this is how mentions are reported (``kg extract``, ``mentions.jsonl``)."""
    i = 0
    while i < len(mentions):
        m, end, step = mentions[i], mentions[i].end, 1
        if i + 1 < len(mentions):
            n = mentions[i + 1]
            opening = _OPEN.fullmatch(text, m.end, n.start)
            closing = _CLOSE.match(text, n.end)
            if opening and closing and (n.label, n.canonical) == (m.label, m.canonical):
                end, step = closing.end(), 2
        heads = _HEADS.get(m.label)
        head = heads.match(text, end) if heads else None
        if head and i + step < len(mentions) and head.end() > mentions[i + step].start:
            head = None  # the next mention begins there: spans do not overlap
        yield m, m.start, head.end() if head else end
        i += step


_ASIDE = re.compile(r"\s+\([^()]{1,24}\)")  # "reinforcement learning (RL) agents" writes "reinforcement learning agents"
_INNER_ASIDE = re.compile(r"\s+\([^()]{1,24}\)\s+\w")  # an aside inside a name, not after it
_TASK_HEAD = re.compile(r"\s+tasks?$", re.I)
_DATASET_HEAD = re.compile(r"\s+(?:data ?sets?|benchmarks?|corpus|corpora|suite|collection|games?|environments?|tasks?)$", re.I)


def document_names(text: str, ex: Extraction, title: str = "") -> dict[tuple[str, str], str]:
    """The name of each (label, canonical name) concept of a paper as the paper writes it: the canonical name where
    a mention spells it (in any case) or the text has it as whole words (line breaks taken as spaces, a plural
    ending allowed and a plural name's singular, a short aside in brackets skipped: "out-of-distribution (OOD)
    detection"), else the paper's first spelling (a gazetteer's "image colorization" is "colorization" for a paper
    that only says "colorization"), but the canonical name for the first of two names sharing a last word ("image"
    of "image and video classification"). In order of first mention."""
    first: dict[tuple[str, str], str] = {}
    spelled: set[tuple[str, str]] = set()
    spans: dict[tuple[str, str], list[tuple[int, int]]] = {}
    shared_head: set[tuple[str, str]] = set()
    for m in ex.mentions:
        key = (m.label, m.canonical)
        first.setdefault(key, m.text)
        if (title if m.in_title else text).startswith((" and ", " or "), m.end) \
                and m.canonical.lower().startswith(m.text.lower() + " "):
            shared_head.add(key)  # (kg.nlp.components.gazetteer's shared heads)
        if m.text.lower() == m.canonical.lower():
            spelled.add(key)
        elif m.label == "DATASET" and not m.in_title and \
                _DATASET_HEAD.sub("", m.text).lower() != m.canonical.lower():  # "GLUE benchmark" is GLUE
            spans.setdefault(key, []).append((m.start, m.end))
        elif m.label != "DATASET" and not m.in_title and m.text.lower().endswith(" " + m.canonical.lower()):
            spans.setdefault(key, []).append((m.start, m.end))  # "speech recognition" inside the paper's
            # "automatic speech recognition" is that paper's "automatic speech recognition"
    out: dict[tuple[str, str], str] = {}
    for key, spelling in first.items():
        if key not in spelled:
            # A dataset's name must stand on its own: "COCO" inside the paper's "MS COCO" is that paper's "MS COCO".
            own = list(text)
            for a, b in spans.get(key, ()):
                own[a:b] = " " * (b - a)
            written = " ".join("".join(own).split()).lower()
            tail = _written(key[1].lower(), written)
            if tail is None and (apart := spaced(key[1])) and (tail := _written(apart.lower(), written)) is not None:
                out[key] = apart + tail  # a paper that writes "meta reinforcement learning" names it so
                continue
            if tail is None and _singular(key[1]) and _written(_singular(key[1]).lower(), written) == "":
                tail = ""  # a paper that writes "a multi-armed bandit problem" names multi-armed bandits so
            if tail is None:
                tail = _written(key[1].lower(), _ASIDE.sub("", written))
                if tail is not None and _INNER_ASIDE.search(spelling):
                    out[key] = spelling  # "out-of-distribution (OOD) generalization": as written, aside and all
                    continue
            if tail is None and not any(c.isalpha() for c in spelling):
                out[key] = key[1]  # "100" of "CIFAR-10/100" is CIFAR-100: a number alone names nothing
                continue
            if tail is None and key in shared_head:
                out[key] = key[1]  # "image" of "image and video classification" names image classification
                continue
            if tail is None:
                name = _ASIDE.sub("", spelling) or spelling  # "pretrained language models (LMs)": no aside
                if key[0] == "TASK":
                    name = _TASK_HEAD.sub("", name) or name  # "object tracking task" names object tracking
                out[key] = name
                continue
            out[key] = key[1] + tail  # a paper that writes only "GANs" names GAN so
            continue
        out[key] = key[1]
    # One concept, one name: canonical names that differ only in case or punctuation are one concept, as in the
    # graph ("out-of-distribution detection" of the title and "Out-of-distribution (OOD) detection" of the text).
    # The first name, but the paper's own name as it proposes it ("Inception Transformer" over the title's), and a
    # name in words over a short form ("Monte-Carlo tree search" over the title's "MCTS").
    proposed = {(m.label, m.canonical) for m in ex.mentions if m.proposed}
    chosen: dict[tuple[str, str], str] = {}
    ranked = sorted(out.items(), key=lambda item: (item[0] not in proposed, " " not in item[1]))
    for (label, canonical), name in ranked:
        chosen.setdefault((label, concept_key(canonical)), name)
    return {(label, canonical): chosen[(label, concept_key(canonical))] for label, canonical in out}


def _singular(name: str) -> str:
    """A plural name's singular ("multi-armed bandits" -> "multi-armed bandit"), "" for a name not plural in its last
    word (nor a short form: "MAML"; nor "robotics", "dynamics")."""
    last = name.rsplit(" ", 1)[-1]
    if len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is", "ics")) and last[:-1].islower():
        return name[:-1]
    return ""


def _written(name: str, text: str) -> str | None:
    """How ``name`` occurs in ``text`` as whole words ("gan" not inside "organ" or "gang"): ``""`` as itself, else
    the plural ending it takes there (``"s"`` for "gans"); None if it does not."""
    at = text.find(name) if name else -1
    plural = None
    while at >= 0:
        end = at + len(name)
        if at == 0 or not text[at - 1].isalnum():
            for tail in ("", "s", "es"):
                stop = end + len(tail)
                if text.startswith(tail, end) and (stop == len(text) or not text[stop].isalnum()):
                    if not tail:
                        return ""
                    plural = plural or tail
        at = text.find(name, at + 1)
    return plural


def _by_label(names: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """(label, name) pairs -> names per label, each concept once (:func:`_once`), in order."""
    out: dict[str, list[str]] = {}
    for label, name in names:
        out.setdefault(label, []).append(name)
    return {label: _once(names) for label, names in out.items()}


def _once(names: Iterable[str]) -> list[str]:
    """Each concept's first name, in order (one concept: one key)."""
    out: dict[str, str] = {}
    for name in names:
        out.setdefault(concept_key(name), name)
    return list(out.values())


def prediction(paper: Paper, ex: Extraction) -> dict:
    """One paper in the prediction format that ``kg eval`` scores (:mod:`kg.train.scorer`; also what ``kg extract``
    writes): ``id``, ``mentions`` (``start``, ``end``, ``label``: offsets into the abstract), ``title_mentions``
    (offsets into the title), ``concepts`` (names by label), ``proposed``, ``results``."""
    names = document_names(paper.text, ex, paper.title or "")
    concepts = _by_label((label, name) for (label, _), name in names.items())
    bench = _by_label(("BENCHMARK", names[("DATASET", m.canonical)]) for m in ex.mentions
                      if m.label == "DATASET" and m.benchmark)
    concepts.update(bench)
    return {
        "id": paper.id,
        "mentions": [{"start": s, "end": e, "label": m.label, "text": m.text if e == m.end else paper.text[s:e],
                      "canonical": m.canonical, "extractor": m.extractor, "proposed": m.proposed}
                     for m, s, e in defined_spans(paper.text, [m for m in ex.mentions if not m.in_title])]
                    + [{"start": m.start, "end": m.end, "label": m.label, "text": m.text, "generic": True,
                        "extractor": m.extractor} for m in ex.generic],
        "title_mentions": [{"start": m.start, "end": m.end, "label": m.label, "text": m.text, "canonical": m.canonical,
                            "extractor": m.extractor, "proposed": m.proposed} for m in ex.mentions if m.in_title],
        "concepts": concepts,
        "proposed": _once(names[(m.label, m.canonical)] for m in ex.mentions if m.proposed),
        "results": [{"method": r.method, "dataset": r.dataset, "metric": r.metric, "value": r.value} for r in ex.results],
    }


def write_predictions(items: Iterable[tuple[Paper, Extraction]], path: Path | TextIO) -> int:
    """Write one prediction line per paper to a file (or an open text stream: standard output); returns the number
    written."""
    if not isinstance(path, Path):
        return _write_lines(items, path)
    with path.open("w", encoding="utf-8") as fh:
        return _write_lines(items, fh)


def _write_lines(items: Iterable[tuple[Paper, Extraction]], fh: TextIO) -> int:
    n = 0
    for paper, ex in items:
        fh.write(dumps(prediction(paper, ex)) + "\n")
        n += 1
    return n


class PredictionSink(GraphSink):
    """``mentions.jsonl``: a prediction line per paper (:func:`prediction`), in the order the papers come."""

    elements = False

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.fh = self.path.open("w", encoding="utf-8")

    def paper(self, paper: Paper, ex: Extraction) -> None:
        self.fh.write(dumps(prediction(paper, ex)) + "\n")

    def close(self) -> list[Path]:
        self.fh.close()
        return [self.path]
