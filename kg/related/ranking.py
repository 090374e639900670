"""Related work: rank papers by the concepts they share with a query, weighted by rarity, and by how alike the
texts are.

concepts(q) = sum over shared concepts c of  weight(type of c) * idf(c) * titled(c),   idf(c) = ln(1 + N / papers(c))
score(q)    = concepts(q)  +  TEXT_WEIGHT * max over candidates of concepts * text(q)
text(q)     = (1 - SEMANTIC_WEIGHT) * TF-IDF cosine + SEMANTIC_WEIGHT * embedding cosine   (kg.related.semantic)

so a shared rare dataset counts far more than a shared "accuracy", datasets weigh most by default, and umbrella
terms, which are no concepts (kg.nlp.components.specificity), weigh nothing. ``titled(c)`` is TITLE_FACTOR for each
of the two papers whose title names c (a title says what a paper is about), else 1. The texts' cosine is TF-IDF
over title, abstract and the keywords authors give (kg.related.textsim), blended with that of their MiniLM
embeddings where the build kept them. TEXT_WEIGHT was chosen on the dev half of the NeurIPS 2022 corpus judged by
readers' related papers (tools/dev/related_judged.py) and its authors' keywords (tools/dev/related_keywords.py),
and checked on SciREX train abstracts (``kg bench related``), docs/related.md. Ties go to the more similar text,
then the paper id. The concept part alone is the saved query
``cypher/related_papers.*.cypher``.

>>> from kg.bench.synthetic import synthetic_graph
>>> g = synthetic_graph(50)
>>> hits = related(g, "paper:syn0000000", top=3)
>>> len(hits) <= 3 and all(h.score > 0 for h in hits)
True
"""
from __future__ import annotations

import re

import weakref
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

import networkx as nx
import numpy

from kg import schema
from kg.concept_names import match_concept
from kg.schema import below, descendants  # (the concept hierarchy, kg.build.hierarchy)
from kg.related.semantic import WIDTH, available, cosines, embed, reranked, unpack
from kg.related.semantic import blend as semantic_blend
from kg.related.textsim import TextIndex, paper_text, shared_words

DEFAULT_WEIGHTS = {"Dataset": 3.0, "Task": 1.5, "Method": 1.0, "Metric": 0.25}
TEXT_WEIGHT = 10.0
TITLE_FACTOR = 2.0  # chosen on the dev half of the NeurIPS 2022 corpus (docs/related.md)
KINDS = {"dataset": "Dataset", "task": "Task", "method": "Method", "metric": "Metric"}
LINKS = {r.name for r in (schema.PROPOSES, *schema.REL_FOR_LABEL.values())}


@dataclass
class Shared:
    name: str
    type: str
    weight: float
    titles: int = 0  # how many of the two papers' titles name it (each doubles its weight)
    concept: str = ""  # its node id
    sentence: str = ""  # the hit's sentence that links it to the concept (its first link's evidence)


@dataclass
class Hit:
    paper: str
    name: str
    score: float
    shared: list[Shared] = field(default_factory=list)
    similarity: float = 0.0  # the texts' similarity: TF-IDF and embedding cosines blended (kg.related.semantic)
    words: list[str] = field(default_factory=list)  # the words adding most to the TF-IDF cosine
    tfidf: float = 0.0  # cosine of the two texts' TF-IDF vectors (kg.related.textsim)
    semantic: float | None = None  # cosine of their embeddings (None: a build without them)
    keywords: list[str] = field(default_factory=list)  # the authors' keywords both papers carry (the hit's spelling)

    def to_json(self) -> dict:
        return {"paper": self.paper, "name": self.name, "score": round(self.score, 6),
                "similarity": round(self.similarity, 4), "tfidf": round(self.tfidf, 4),
                "semantic": None if self.semantic is None else round(self.semantic, 4), "words": self.words,
                "keywords": self.keywords,
                "shared": [{"name": s.name, "type": s.type, "weight": round(s.weight, 6), "titles": s.titles,
                            "concept": s.concept, "sentence": s.sentence} for s in self.shared]}


class PaperFacts(NamedTuple):
    """What a reference to a paper shows: its title, or its name where it has none (``titled`` false)."""

    title: str
    url: str | None
    venue: str | None
    year: int | None
    titled: bool = True

    def to_json(self) -> dict:
        """The facts as JSON gives them: no title for a paper without one (its name is the hit's ``name``)."""
        return {"title": self.title if self.titled else None, "url": self.url, "venue": self.venue, "year": self.year}


def paper_facts(g: nx.MultiDiGraph, paper: str) -> PaperFacts:
    """A paper node's title (else its name), url, venue and year."""
    d = g.nodes[paper]
    return PaperFacts(str(d.get("title") or d.get("name") or paper), d.get("url"), d.get("venue"), d.get("year"),
                      bool(d.get("title")))


def keyword_key(keyword: str) -> str:
    """A keyword as two papers' keywords are compared: lower case, single spaces, hyphens as spaces."""
    return " ".join(keyword.lower().replace("-", " ").split())


def shared_keywords(query: Iterable[str] | None, hit: Iterable[str] | None, named: Iterable[Shared] = ()) -> list[str]:
    """The keywords of ``hit`` (its spelling, its order) that the query's keywords hold too, but for those that
    name a shared concept the explanation ``named`` already."""
    wanted = {keyword_key(k) for k in query or ()} - {keyword_key(s.name) for s in named}
    out: dict[str, str] = {}
    for k in hit or () if wanted else ():
        if keyword_key(k) in wanted:
            out.setdefault(keyword_key(k), k)  # (one spelling per keyword: "neural-collapse", "Neural Collapse")
    return list(out.values())


def weights_for(by: list[str] | None) -> dict[str, float]:
    """Type weights, restricted to the kinds in ``by`` (``["dataset", "task"]``) when given."""
    if not by:
        return dict(DEFAULT_WEIGHTS)
    unknown = [b for b in by if b not in KINDS]
    if unknown:
        raise ValueError(f"unknown --by kind(s) {', '.join(map(repr, unknown))}; choose from {', '.join(KINDS)}")
    return {t: (w if any(KINDS[b] == t for b in by) else 0.0) for t, w in DEFAULT_WEIGHTS.items()}


def paper_concepts(g: nx.MultiDiGraph, paper: str) -> set[str]:
    """Concept nodes a paper links to (proposes, uses, addresses, evaluates on, reports)."""
    return {v for _, v, k in g.out_edges(paper, keys=True) if k in LINKS}


def in_title(link: dict) -> bool:
    """Whether a paper-concept link's evidence includes the paper's title."""
    return any(e.get("field") == "title" for e in link.get("evidence") or ())


def link_sentence(link: dict) -> str:
    """A paper-concept link's sentence (its best evidence: where the paper proposes it, else its first), on one line;
    where that is the title, the abstract's first sentence naming it, if any: a reference shows the title already."""
    sentence = link.get("sentence") or ""
    evidence = link.get("evidence") or ()
    if any(e.get("field") == "title" and e.get("sentence") == sentence for e in evidence):
        sentence = next((e["sentence"] for e in evidence if e.get("field") != "title" and e.get("sentence")),
                        sentence)
    return " ".join(str(sentence).split())


def titled_concepts(g: nx.MultiDiGraph, paper: str) -> set[str]:
    """The concept nodes a paper's title names."""
    return {v for _, v, k, d in g.out_edges(paper, keys=True, data=True) if k in LINKS and in_title(d)}


def text_index(g: nx.MultiDiGraph) -> TextIndex:
    """The TF-IDF index of the graph's papers (title and abstract), built once per graph object."""
    index = _TEXT_INDEXES.get(g)
    if index is None:
        index = _TEXT_INDEXES[g] = TextIndex((n, paper_text(d.get("title"), d.get("abstract"), d.get("keywords")))
                                             for n, d in g.nodes(data=True) if d.get("type") == schema.PAPER.label)
    return index


_TEXT_INDEXES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # graph -> its TextIndex, gone with the graph


def rank(g: nx.MultiDiGraph, concepts: set[str], *, exclude: str | None = None, top: int = 10,
         weights: dict[str, float] | None = None, similarity: dict[str, float] | None = None,
         text_weight: float = TEXT_WEIGHT, titled: set[str] = frozenset(),
         query_vector: dict[str, float] | None = None, embedding: numpy.ndarray | None = None,
         keywords: Iterable[str] = (), shared_only: bool = False) -> list[Hit]:
    """Papers ranked by the weighted rarity of the ``concepts`` they share (those of the query's title, ``titled``,
    and those of a candidate's title count :data:`TITLE_FACTOR` times), plus ``text_weight`` times the
    ``similarity`` of their texts to the query's (paper id -> TF-IDF cosine; none: concepts alone), blended with
    the cosine of the candidates' embeddings to the query's ``embedding`` (kg.related.semantic). With the query's
    ``query_vector``, each hit names the words its text shares most with the query's, and with the query's
    ``keywords`` the authors' keywords it carries too. A paper sharing only words with the query is a hit too,
    unless ``shared_only`` (``kg related --by``: only papers sharing a concept of positive weight)."""
    weights = weights or DEFAULT_WEIGHTS
    similarity = similarity or {}
    scores: dict[str, list[Shared]] = defaultdict(list)
    for c in concepts:
        d = g.nodes[c]
        w = weights.get(d["type"], 0.0) * float(d.get("idf", 0.0)) * (TITLE_FACTOR if c in titled else 1.0)
        if w <= 0:
            continue
        seen = set()
        for q, _, k in g.in_edges(c, keys=True):
            if k in LINKS and q != exclude and q not in seen:  # (one share per paper, however many links)
                seen.add(q)
                links = [x for j, x in g.get_edge_data(q, c).items() if j in LINKS]
                titles = any(in_title(x) for x in links)
                scores[q].append(Shared(d["name"], d["type"], w * (TITLE_FACTOR if titles else 1.0),
                                        (c in titled) + titles, c, link_sentence(links[0])))
    # The texts' part on the concepts' scale: the best concept score counts as much as a cosine of 1/TEXT_WEIGHT.
    concept = {q: sum(s.weight for s in shared) for q, shared in scores.items()}  # each candidate's concept score
    scale = text_weight * (max(concept.values(), default=0.0) or 1.0)
    candidates = set(scores)
    if text_weight and not shared_only:  # a paper sharing only words with the query
        candidates |= {q for q, v in similarity.items() if v > 0 and q != exclude}
    semantic = None
    if embedding is not None:  # the meanings of the best candidates by concepts and words (kg.related.semantic)
        order = sorted(candidates, key=lambda q: (g.nodes[q]["name"], q))
        tf = numpy.array([similarity.get(q, 0.0) for q in order], dtype=numpy.float64)
        words_only = numpy.array([concept.get(q, 0.0) for q in order]) + \
            scale * semantic_blend(tf, 0.0)
        chosen = reranked(words_only, tf, numpy.arange(len(order)), top)
        semantic = semantic_similarity(g, embedding, [order[i] for i in chosen])
    hits = []
    for q in candidates:
        shared = scores.get(q, [])
        tfidf = similarity.get(q, 0.0)
        meaning = None if semantic is None else semantic.get(q, 0.0)
        sim = tfidf if meaning is None else semantic_blend(tfidf, meaning)
        score = concept.get(q, 0.0) + scale * sim
        hits.append(Hit(q, g.nodes[q]["name"], score, sorted(shared, key=lambda s: (-s.weight, s.name)), sim,
                        tfidf=tfidf, semantic=meaning))
    hits = best(hits, top)
    if query_vector:
        vectors = text_index(g).vectors
        for h in hits:
            h.words = shared_words(query_vector, vectors.get(h.paper, {}))
    for h in hits:
        h.keywords = shared_keywords(keywords, g.nodes[h.paper].get("keywords"), h.shared)
    return hits


def best(hits: list[Hit], top: int) -> list[Hit]:
    """The ``top`` best hits: higher score first, then the more similar text, then name and id (a fixed order)."""
    hits.sort(key=lambda h: (-round(h.score, 9), -round(h.similarity, 9), h.name, h.paper))
    return hits[:top]


def related(g: nx.MultiDiGraph, paper: str, *, top: int = 10, weights: dict[str, float] | None = None,
            text_weight: float = TEXT_WEIGHT, shared_only: bool = False) -> list[Hit]:
    """Papers related to ``paper`` (a node id) through shared concepts and similar text (only those sharing a
    weighted concept with ``shared_only``, as :func:`rank`)."""
    similarity = text_index(g).similar(paper) if text_weight else None
    embedding = g.nodes[paper].get("embedding")
    return rank(g, paper_concepts(g, paper), exclude=paper, top=top, weights=weights, similarity=similarity,
                text_weight=text_weight, titled=titled_concepts(g, paper),
                query_vector=text_index(g).vectors.get(paper) if text_weight else None,
                embedding=unpack(embedding) if text_weight and embedding else None,
                keywords=g.nodes[paper].get("keywords") or (), shared_only=shared_only)


def semantic_similarity(g: nx.MultiDiGraph, vector: numpy.ndarray, papers: Iterable[str]) -> dict[str, float]:
    """Embedding cosine of ``vector`` to each of ``papers`` that has an embedding (kg.related.semantic)."""
    row, matrix = _semantic_matrix(g)
    mine = sorted((row[q], q) for q in papers if q in row)
    if not mine:
        return {}
    return dict(zip((q for _, q in mine), cosines(matrix[[r for r, _ in mine]], vector).tolist()))


def text_embedding(g: nx.MultiDiGraph, text: str) -> numpy.ndarray | None:
    """A free text's embedding, or None: a graph without embeddings, or no encoder here."""
    if not available() or not _semantic_matrix(g)[0]:
        return None
    return embed([text])[0]


def _semantic_matrix(g: nx.MultiDiGraph) -> tuple[dict[str, int], numpy.ndarray]:
    """Each paper with an embedding -> its row, and the embeddings as rows, made once per graph object."""
    found = _SEMANTIC.get(g)
    if found is None:
        papers = [n for n, d in g.nodes(data=True) if d.get("type") == schema.PAPER.label and d.get("embedding")]
        matrix = numpy.array([unpack(g.nodes[n]["embedding"]) for n in papers]).reshape(len(papers), WIDTH)
        found = _SEMANTIC[g] = ({n: i for i, n in enumerate(papers)}, matrix)
    return found


_SEMANTIC: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # graph -> ({paper: row}, embeddings)


def find_concept(g: nx.MultiDiGraph, node_type: str, name: str) -> str:
    """A concept node of ``node_type`` by id, name or alias (kg.concept_names); ValueError with suggestions if none,
    AmbiguousConcept listing the concepts a name shared by several could mean."""
    return match_concept(((n, n, d["name"], d.get("aliases", ())) for n, d in g.nodes(data=True)
                          if d.get("type") == node_type), node_type, name,
                         ((d["type"], d["name"], d.get("aliases", ())) for _, d in g.nodes(data=True)
                          if d.get("type") in DEFAULT_WEIGHTS and d["type"] != node_type))


@dataclass
class ConceptReport:
    concept: str
    name: str
    papers: list[tuple[str, str, str]]  # (paper id, name, evidence sentence), by name then id; maybe the first few
    co_used: list[tuple[str, int]]  # (dataset name, papers using both), the first few
    included: list[str] = field(default_factory=list)  # names of the subtasks and variants whose papers count too
    total: int = -1  # how many papers in all (-1: as many as ``papers`` lists)
    co_total: int = -1  # how many datasets are used with it in all (-1: as many as ``co_used`` lists)

    def __post_init__(self) -> None:
        if self.total < 0:
            self.total = len(self.papers)
        if self.co_total < 0:
            self.co_total = len(self.co_used)




def around_concept(g: nx.MultiDiGraph, node_type: str, name: str, *, top: int = 10,
                   hierarchy: bool = True, shown: int | None = None) -> ConceptReport:
    """Papers linked to a concept, and the datasets most often used with it. With ``hierarchy``, the papers of
    its subtasks and dataset variants ("3D human pose estimation" under "pose estimation", "COCO test-dev" under
    "COCO") count too, and the report names them. Papers whose title names it come first, then the others, each
    group by how often the paper names it (its links' mentions), then by name. ``shown``: list only the first so
    many papers."""
    c = find_concept(g, node_type, name)
    nodes = [c, *below(g, c)] if hierarchy else [c]
    by_paper: dict[str, tuple[str, str, str]] = {}
    titled: set[str] = set()  # the papers whose title names it (or a subtask or variant): about it, listed first
    named: Counter[str] = Counter()  # paper -> how often it names them: a paper that reports on it, before a mention
    for node in nodes:
        for q, _, k, d in g.in_edges(node, keys=True, data=True):
            if k in LINKS:
                if q not in by_paper:
                    by_paper[q] = (q, g.nodes[q]["name"], link_sentence(d))
                named[q] += min(max(int(d.get("count") or 1), 1), 65535)  # (as the index keeps it)
                if in_title(d):
                    titled.add(q)
    papers = sorted(by_paper.values(), key=lambda t: (t[0] not in titled, -named[t[0]], t[1], t[0]))
    co: Counter[str] = Counter()
    for q, _, _ in papers:
        for v in paper_concepts(g, q):
            if v not in nodes and g.nodes[v]["type"] == schema.DATASET.label:
                co[g.nodes[v]["name"]] += 1
    included = [g.nodes[n]["name"] for n in nodes[1:] if any(k in LINKS for _, _, k in g.in_edges(n, keys=True))]
    return ConceptReport(c, g.nodes[c]["name"], papers[:shown],
                         sorted(co.items(), key=lambda kv: (-kv[1], kv[0]))[:top],
                         included, total=len(papers), co_total=len(co))


TITLE_WORDS = 25  # a query of at most so many words and one sentence is read as a title
_SENTENCE_BREAK = re.compile(r"[.!?]\s+\S")


def text_concept_keys(text: str) -> set[tuple[str, str]]:
    """The (node type, concept key) of each concept kg's extractor finds in a piece of text (e.g. an abstract). A
    text of one short sentence is read as a title: its capitals are a title's ("Proximal Point Imitation Learning."
    names the proximal point method and imitation learning, not a "Point Imitation Learning")."""
    from kg.model import Paper
    from kg.nlp.extract import extract

    text = text.strip()
    short = len(text.split()) <= TITLE_WORDS and not _SENTENCE_BREAK.search(text)
    [(_, ex)] = list(extract([Paper(id="query", title=text, text="") if short else Paper(id="query", text=text)]))
    return {(schema.NODE_FOR_LABEL[m.label].label, schema.concept_key(m.canonical)) for m in ex.mentions}


def concepts_from_text(g: nx.MultiDiGraph, text: str) -> set[str]:
    """The graph's concept nodes that a piece of text (e.g. an abstract) mentions, found by kg's extractor."""
    wanted = text_concept_keys(text)
    return {n for n, d in g.nodes(data=True)
            if d.get("type") in DEFAULT_WEIGHTS and named_in(wanted, d["type"], [d["name"], *d.get("aliases", [])])}


def named_in(wanted: set[tuple[str, str]], kind: str, forms: Iterable[object]) -> bool:
    """Whether a concept of type ``kind`` with these names is among ``wanted`` (:func:`text_concept_keys`)."""
    return any((kind, schema.concept_key(str(f))) in wanted for f in forms)
