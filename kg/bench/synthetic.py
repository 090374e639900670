"""Synthetic inputs for benchmarks and tests, deterministic for a seed, made from packaged data only.

- :func:`synthetic_corpus`: papers whose abstracts recombine the sentences of real text
  (``kg/data/synthetic_sources.jsonl.gz``: the abstracts of ``examples/icml``, and SciREX's titles, abstracts and
  sections and TDMSci's sentences; see ``kg/data/README.md``). Sentences keep their own names (datasets, methods,
  metrics), so the name distribution is that of real papers; abstract lengths (in characters) follow those of the
  real abstracts. ``kg bench`` builds it.
- :func:`synthetic_graph`: a kg-schema graph with a realistic shape, for load and query benchmarks. Concept
  popularity follows a Zipf law (a few datasets such as ImageNet are everywhere, most appear once); names come from
  the packaged gazetteers, extended with numbered variants when a graph needs more. Concepts are put under more
  popular ones (SUBTASK_OF, VARIANT_OF, KIND_OF, at times two deep or under two), and papers report results of a
  few values, so the saved queries meet the hierarchy and ties as on a real graph.
"""
from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path

import networkx as nx

from kg import schema
from kg.model import Paper
from kg.nlp.components.gazetteer import load_gazetteer

SOURCES = Path(__file__).parents[1] / "data" / "synthetic_sources.jsonl.gz"
_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
VENUES = ["ICML", "NeurIPS", "ICLR", "ACL", "CVPR"]


@lru_cache(maxsize=1)
def _sources() -> tuple[tuple[str, ...], tuple[str, ...]]:
    abstracts, other = [], []
    with gzip.open(SOURCES, "rt", encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            (abstracts if record["abstract"] else other).append(record["text"])
    return tuple(abstracts), tuple(other)


def source_abstracts() -> tuple[str, ...]:
    """The packaged real abstracts: the lengths of the synthetic abstracts, and sentences."""
    return _sources()[0]


def source_texts() -> tuple[str, ...]:
    """The packaged real text besides the abstracts (paper sections, single sentences): more sentences."""
    return _sources()[1]


def sentences_of(texts: Sequence[str]) -> list[str]:
    """The sentences of ``texts`` that :func:`synthetic_corpus` draws from (30 to 600 characters)."""
    return [s for t in texts for s in _SENT.split(t) if 30 <= len(s) <= 600]


def synthetic_corpus(n: int, seed: int = 0, abstracts: Sequence[str] | None = None,
                     texts: Sequence[str] | None = None) -> Iterator[Paper]:
    """``n`` synthetic papers. Each abstract is as long as a random real abstract (in characters, to the nearest
    whole sentence), of sentences drawn from all the abstracts and texts. ``abstracts``, ``texts``: others to draw
    from (default: the packaged ones; with ``abstracts`` given, ``texts`` defaults to none)."""
    if abstracts is None:
        abstracts, texts = source_abstracts(), source_texts() if texts is None else texts
    sentences = sentences_of(abstracts) + sentences_of(texts or ())
    if not sentences or not abstracts:
        raise ValueError("the synthetic corpus needs abstracts with sentences of 30 to 600 characters")
    lengths = [len(t) for t in abstracts]
    rng = random.Random(seed)
    for i in range(n):
        target, parts, size = rng.choice(lengths), [], -1
        while True:
            sentence = rng.choice(sentences)
            if parts and size + 1 + len(sentence) - target > target - size:  # nearer the target without it
                break
            parts.append(sentence)
            size += 1 + len(sentence)
        yield Paper(id=f"syn-{i:07d}", text=" ".join(parts), venue=rng.choice(VENUES), year=rng.randint(2019, 2026),
                    has_input_id=True)


# label -> (distinct concepts per 100k papers, (min, max) links per paper)
SHAPE = {"DATASET": (6_000, (0, 4)), "METHOD": (25_000, (2, 8)), "TASK": (4_000, (1, 3)), "METRIC": (400, (0, 3))}
SENTENCE = "We evaluate {name} in a setting where it is commonly used, and report the results in detail."
# concept type -> (hierarchy relationship, share of the type's concepts put under a more popular one)
HIERARCHY = {"Task": ("SUBTASK_OF", 0.3), "Dataset": ("VARIANT_OF", 0.2), "Method": ("KIND_OF", 0.1)}
TWO_PARENTS = 0.1  # of the concepts put under another, those put under two
RESULT_SHARE = 0.3  # papers that report results (1 to 3), of their own methods, datasets and metrics
VALUES = ("50.0", "76.3", "85.0", "90.1", "99.9")  # few, so that results tie as real ones do


def _names(label: str, n: int, rng: random.Random) -> list[str]:
    base = [e.name for e in load_gazetteer().entries if e.label == label] or [label.title()]
    out = list(base)
    i = 0
    while len(out) < n:
        out.append(f"{base[i % len(base)]}-v{i // len(base) + 2}")
        i += 1
    rng.shuffle(out)
    return out[:n]


def synthetic_graph(papers: int, seed: int = 0) -> nx.MultiDiGraph:
    """A kg-schema graph of ``papers`` papers and Zipf-distributed concepts."""
    rng = random.Random(seed)
    g = nx.MultiDiGraph(schema_version=1)
    pools = {}
    for label, (per_100k, _) in SHAPE.items():
        n = max(20, per_100k * papers // 100_000)
        names = _names(label, n, rng)
        weights = [1.0 / (k + 1) for k in range(n)]
        pools[label] = (names, weights)
        node_type = schema.NODE_FOR_LABEL[label].label
        for k, name in enumerate(names):
            g.add_node(schema.node_id(node_type, schema.concept_key(name)), type=node_type, name=name, aliases=[],
                       papers=0, idf=0.0, benchmark=label == "DATASET" and rng.random() < 0.2)
            if label == "METRIC":  # a third of the metrics are errors, distances or times (no draw: same graph)
                g.nodes[schema.node_id(node_type, schema.concept_key(name))]["lower_is_better"] = k % 3 == 1
    for i in range(papers):
        pid = schema.node_id("Paper", f"syn{i:07d}")
        g.add_node(pid, type="Paper", name=f"Method{i}", title=f"Synthetic paper {i}", venue=rng.choice(["ICML", "NeurIPS", "ICLR"]),
                   year=rng.randint(2019, 2026), authors=[f"Author {rng.randint(1, 50_000)}"], url=None, source=[], abstract="")
        for label, (_, (lo, hi)) in SHAPE.items():
            names, weights = pools[label]
            picks = set(rng.choices(range(len(names)), weights=weights, k=rng.randint(lo, hi)))
            node_type = schema.NODE_FOR_LABEL[label].label
            for k in picks:
                target = schema.node_id(node_type, schema.concept_key(names[k]))
                rel = schema.REL_FOR_LABEL[label].name
                sentence = SENTENCE.format(name=names[k])
                g.add_edge(pid, target, key=rel, type=rel, sentence=sentence, start_char=12, end_char=12 + len(names[k]),
                           extractor="synthetic", confidence=1.0, count=1, evidence=[])
                g.nodes[target]["papers"] += 1
    isolated = [n for n, d in g.nodes(data=True) if d["type"] != "Paper" and d["papers"] == 0]
    g.remove_nodes_from(isolated)
    for n, d in g.nodes(data=True):
        if d["type"] != "Paper":
            d["idf"] = schema.idf(papers, d["papers"])
    _add_hierarchy(g, rng)
    _add_results(g, rng)
    return g


def _add_hierarchy(g: nx.MultiDiGraph, rng: random.Random) -> None:
    """Put a share of each type's concepts (:data:`HIERARCHY`) under one or two more popular ones: a DAG."""
    for node_type, (rel, share) in HIERARCHY.items():
        ranked = sorted((n for n, d in g.nodes(data=True) if d["type"] == node_type),
                        key=lambda n: (-g.nodes[n]["papers"], n))
        for i, child in enumerate(ranked[1:], 1):
            if rng.random() < share:
                parents = {rng.choice(ranked[:i]) for _ in range(2 if rng.random() < TWO_PARENTS else 1)}
                for parent in sorted(parents):
                    g.add_edge(child, parent, key=rel, type=rel)


def _add_results(g: nx.MultiDiGraph, rng: random.Random) -> None:
    """Results for a share of the papers (:data:`RESULT_SHARE`): 1 to 3 each, of the paper's own concepts."""
    papers = [n for n, d in g.nodes(data=True) if d["type"] == "Paper"]
    for pid in papers:
        linked = {rel: sorted(v for _, v, k in g.out_edges(pid, keys=True) if k == rel)
                  for rel in (schema.USES.name, schema.EVALUATES_ON.name, schema.REPORTS.name)}
        if rng.random() < RESULT_SHARE and linked[schema.EVALUATES_ON.name]:
            for n in range(1, rng.randint(1, 3) + 1):
                _add_result(g, pid, n, linked, rng)


def _add_result(g: nx.MultiDiGraph, pid: str, n: int, linked: dict[str, list[str]], rng: random.Random) -> None:
    """Result ``n`` of paper ``pid``: a value on one of its datasets (``linked``: the paper's concepts by
    relationship), most with one of its methods and metrics."""
    value = rng.choice(VALUES)
    ends = {schema.RESULT_DATASET: rng.choice(linked[schema.EVALUATES_ON.name])}
    for rel, via in ((schema.RESULT_METHOD, schema.USES), (schema.RESULT_METRIC, schema.REPORTS)):
        links = linked[via.name]
        if links and rng.random() < 0.7:
            ends[rel] = rng.choice(links)
    method, dataset, metric = (g.nodes[ends[r]]["name"] if r in ends else None
                               for r in (schema.RESULT_METHOD, schema.RESULT_DATASET, schema.RESULT_METRIC))
    rid = schema.node_id(schema.RESULT.label, f"{pid.split(':', 1)[1]}#{n}")
    sentence = f"{method or 'It'} reaches {value} {metric or ''} on {dataset}."
    g.add_node(rid, type=schema.RESULT.label, name=f"{value} {metric or ''}".strip(), value=value, score=float(value),
               unit=None, method=method, dataset=dataset, metric=metric, sentence=sentence, start_char=0,
               end_char=len(sentence))
    g.add_edge(pid, rid, key=schema.HAS_RESULT.name, type=schema.HAS_RESULT.name)
    for rel, v in ends.items():
        g.add_edge(rid, v, key=rel.name, type=rel.name)
