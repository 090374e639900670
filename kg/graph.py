"""The knowledge graph: papers linked to resolved concepts, with the evidence for every link.

Node and relationship types come from ``kg.schema``. One edge per (paper, concept, relation) carries the
first evidence sentence as flat attributes and every occurrence in ``evidence``.
"""
from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from kg import schema
from kg.corpus.clean import clean
from kg.model import Extraction, Paper
from kg.resolve import Resolution, resolve

FIRST_WORDS = 8


def paper_node_id(paper_id: str) -> str:
    return schema.node_id(schema.PAPER.label, paper_id)


def concept_node_id(label: str, key: str) -> str:
    return schema.node_id(schema.NODE_FOR_LABEL[label].label, key)


def _first_words(text: str, n: int = FIRST_WORDS) -> str:
    words = text.split()
    return " ".join(words[:n]) + (" …" if len(words) > n else "")


def _paper_attrs(paper: Paper, ex: Extraction) -> dict:
    proposed = ex.proposed
    return {
        "type": schema.PAPER.label,
        "name": proposed[0] if proposed else _first_words(clean(paper.text).text),
        "title": paper.title,
        "venue": paper.venue,
        "year": paper.year,
        "authors": list(paper.authors),
        "url": paper.url,
        "source": [str(s) for s in paper.sources],
        "abstract": paper.text,
    }


def build_graph(items: Iterable[tuple[Paper, Extraction]]) -> nx.MultiDiGraph:
    """Build the graph from extracted papers."""
    pairs = list(items)
    res: Resolution = resolve(ex for _, ex in pairs)
    g = nx.MultiDiGraph(schema_version=1)
    n_papers = len({p.id for p, _ in pairs})
    for c in res.concepts.values():
        g.add_node(concept_node_id(c.label, c.key), type=schema.NODE_FOR_LABEL[c.label].label, name=c.name,
                   aliases=c.aliases, papers=len(c.papers), idf=schema.idf(n_papers, len(c.papers)), benchmark=c.benchmark)
    for paper, ex in pairs:
        pid = paper_node_id(paper.id)
        g.add_node(pid, **_paper_attrs(paper, ex))
        proposed = {res.concept_for("METHOD", n).key for n in ex.proposed}
        sentences: dict[tuple[int, int], str] = {}  # one string per sentence, shared by all its mentions
        for m in ex.mentions:
            concept = res.concept_for(m.label, m.canonical)
            rel = schema.PROPOSES if m.label == "METHOD" and concept.key in proposed else schema.REL_FOR_LABEL[m.label]
            target = concept_node_id(m.label, concept.key)
            span = (m.sentence.start, m.sentence.end)
            sentence = sentences.get(span) or sentences.setdefault(span, paper.text[span[0]:span[1]])
            occurrence = {"sentence": sentence, "start_char": m.start, "end_char": m.end,
                          "text": m.text, "extractor": m.extractor, "confidence": m.confidence}
            if g.has_edge(pid, target, key=rel.name):
                e = g.edges[pid, target, rel.name]
                e["evidence"].append(occurrence)
                e["count"] += 1
                e["confidence"] = max(e["confidence"], m.confidence)
                if m.proposed and e["extractor"] != "proposed":  # the proposal sentence is the best evidence
                    e.update({k: occurrence[k] for k in ("sentence", "start_char", "end_char", "extractor")})
            else:
                g.add_edge(pid, target, key=rel.name, type=rel.name, count=1, evidence=[occurrence],
                           **{k: occurrence[k] for k in ("sentence", "start_char", "end_char", "extractor", "confidence")})
        for n, r in enumerate(ex.results, 1):
            rid = schema.node_id(schema.RESULT.label, f"{paper.id}#{n}")
            sentence = paper.text[r.sentence.start:r.sentence.end]
            g.add_node(rid, type=schema.RESULT.label, name=f"{r.value} {r.metric or ''}".strip(), value=r.value,
                       method=r.method, dataset=r.dataset, metric=r.metric, sentence=sentence,
                       start_char=r.sentence.start, end_char=r.sentence.end)
            g.add_edge(pid, rid, key=schema.HAS_RESULT.name, type=schema.HAS_RESULT.name)
            for label, name, rel in (("METHOD", r.method, schema.RESULT_METHOD), ("DATASET", r.dataset, schema.RESULT_DATASET),
                                     ("METRIC", r.metric, schema.RESULT_METRIC)):
                if name is not None and (label, schema.concept_key(name)) in res.index:
                    target = concept_node_id(label, res.concept_for(label, name).key)
                    g.add_edge(rid, target, key=rel.name, type=rel.name)
    return g
