"""The knowledge graph as a stream of elements: papers linked to resolved concepts, with the evidence for every link.

Node and relationship types come from ``kg.schema``. One edge per (paper, concept, relation) carries the
first evidence sentence as flat attributes and every occurrence in ``evidence``: its offsets, and the text of its
sentence for the first ``EVIDENCE_SENTENCES`` distinct sentences only (a sentence's text is capped at
``kg.nlp.extract.MAX_EVIDENCE`` characters; an abstract that names one concept hundreds of times does not repeat
its text hundreds of times in every file).

The same elements feed ``kg.build.graph.build_graph`` (a networkx graph) and the streaming file sinks of
``kg.sinks``, so a graph in memory and the files of a corpus too big for one are the same graph. Elements come
in networkx's own order: concept nodes first, then per paper its node and result nodes; per paper its edges
(links to concepts in first-mention order, then ``HAS_RESULT``), then its results' edges.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from kg import schema
from kg.nlp import lexicon
from kg.corpus.clean import clean
from kg.corpus.ids import normalise_id
from kg.model import Extraction, Paper
from kg.build.hierarchy import hierarchy
from kg.build.resolve import Resolution, defined_short_forms, mention_key, short_form

FIRST_WORDS = 8
PREFIX_CHARS = 300
EVIDENCE_SENTENCES = 3  # distinct sentences whose text an edge's evidence holds; later occurrences hold offsets
Node = tuple[str, dict]
Edge = tuple[str, str, str, dict]


def paper_node_id(paper_id: str) -> str:
    return schema.node_id(schema.PAPER.label, paper_id)


def concept_node_id(label: str, key: str) -> str:
    return schema.node_id(schema.NODE_FOR_LABEL[label].label, key)


def _first_words(text: str, n: int = FIRST_WORDS) -> str:
    words = text.split()
    return " ".join(words[:n]) + (" …" if len(words) > n else "")


def _opening(raw: str, n: int = FIRST_WORDS) -> str:
    """The first ``n`` words of the cleaned abstract. Cleaning all of it only for these was a third of the cost
    of a paper's elements: a prefix is cleaned instead when it cuts at a space with no markup left open."""
    cut = raw.find(" ", PREFIX_CHARS)
    prefix = raw[:cut] if cut > 0 else raw
    if cut > 0 and prefix.count("{") == prefix.count("}") and prefix.count("$") % 2 == 0 and "\\begin" not in prefix:
        words = clean(prefix).text.split()
        if len(words) > n:
            return " ".join(words[:n]) + " …"
    return _first_words(clean(raw).text, n)


def other_ids(paper: Paper) -> list[str]:
    """The paper's other identifiers as its node keeps them (:func:`kg.corpus.ids.normalise_id`: a DOI in lower
    case, an arXiv id without version), each once, none that is its id, DOI or arXiv id: a preprint's DOI, a second
    input id, a source's own id (OpenAlex, Semantic Scholar). They name the paper too (:mod:`kg.paper_names`)."""
    own = (paper.id, paper.doi, paper.arxiv_id)
    return [i for i in dict.fromkeys(normalise_id(str(i)) for i in paper.other_ids) if i and i not in own]


def _link(arxiv: str | None, doi: str | None) -> str | None:
    """A paper's address from its identifiers, where no record of it gives one: its arXiv page, else its DOI's."""
    return f"https://arxiv.org/abs/{arxiv}" if arxiv else f"https://doi.org/{doi}" if doi else None


def _paper_attrs(paper: Paper, ex: Extraction) -> dict:
    proposed = ex.proposed
    attrs = {
        "type": schema.PAPER.label,
        "name": paper.title or (proposed[0] if proposed else _opening(paper.text)),
        "title": paper.title,
        "venue": paper.venue,
        "year": paper.year,
        "authors": list(paper.authors),
        "url": paper.url or _link(paper.arxiv_id, paper.doi),
        "doi": paper.doi,
        "arxiv_id": paper.arxiv_id,
        "other_ids": other_ids(paper),
        "keywords": list(paper.keywords),
        "source": [str(s) for s in paper.sources],
        "abstract": paper.text,
    }
    if ex.embedding is not None:  # the text's embedding (kg.related.semantic): graph.json and related/ only
        attrs["embedding"] = ex.embedding
    return attrs


_KIND_TAILS = lexicon.words("generic_heads") | lexicon.words("method_name_heads") | lexicon.words("task_heads") \
    | lexicon.words("setting_heads")
_BRACKETED = re.compile(r"\s*\([^()]*\)")


def display_aliases(name: str, aliases: list[str], others: frozenset[str] = frozenset()) -> list[str]:
    """The other names of a concept called ``name``, as a node shows them and ``kg related`` finds it by: each
    surface form without a bracketed short form and a trailing kind word its name lacks ("reinforcement learning
    (RL) algorithms" is no other name of reinforcement learning; "Recurrent neural networks" is one of RNN),
    leaving out the name itself, repeats, forms that only add modifiers to a name of several words ("Offline
    reinforcement learning (RL) methods"), and names of other concepts written out, keys in ``others`` ("accuracy"
    is no name of test accuracy, where accuracy is a node of its own; "BO" stays one of Bayesian optimization)."""
    out: dict[str, str] = {}
    lowered, last = f" {name.lower()} ", schema.concept_key(name.split()[-1]) if name.split() else ""
    for form in aliases:
        words = _BRACKETED.sub("", form).split() or form.split()
        while len(words) > 1 and words[-1].lower() in _KIND_TAILS and schema.concept_key(words[-1]) != last \
                and (" " in name.strip() or len(words) == 2):  # (a short form's long form keeps its head word)
            words.pop()
        alias = " ".join(words)
        modified = " " in name.strip() and lowered in f" {alias.lower()} "  # ("MS COCO" is a name of COCO)
        named_apart = schema.concept_key(alias) in others and not short_form(alias)  # ("DP" names two things)
        if alias.lower() != name.lower() and not modified and not named_apart and not _spells_a_tail(alias, name):
            out.setdefault(alias.lower(), alias)  # (spellings of the name's key stay: Cypher matches names as written)
    return list(out.values())


def _spells_a_tail(alias: str, name: str) -> bool:
    """Whether a short form spells only the last words of a longer name: "RL" of offline reinforcement learning
    (written "Offline reinforcement learning (RL)"), which names reinforcement learning."""
    if not short_form(alias):
        return False
    letters = "".join(c for c in alias.removesuffix("s") if c.isalpha()).upper()
    first_letters = schema.initials(name)
    return 0 < len(letters) < len(first_letters) and first_letters.endswith(letters)


def concept_nodes(res: Resolution) -> Iterator[Node]:
    """One node per resolved concept, with its paper count and IDF over ``res.papers`` papers; and the parent
    tasks and base datasets the hierarchy adds (``kg.build.hierarchy``), which no paper names."""
    h = hierarchy(res)
    concepts = [*res.concepts.items(), *h.nodes.items()]
    keys = frozenset(c.key for _, c in concepts)
    for root, c in concepts:
        attrs = {"type": schema.NODE_FOR_LABEL[c.label].label, "name": c.name,
                 "aliases": display_aliases(c.name, c.aliases, keys - {c.key}),
                 "papers": c.papers, "idf": schema.idf(res.papers, c.papers), "benchmark": c.benchmark}
        if root in h.areas:
            attrs["area"] = h.areas[root]
        if c.label == "METRIC":
            attrs["lower_is_better"] = root in h.lower_is_better
        yield concept_node_id(c.label, c.key), attrs


def concept_edges(res: Resolution) -> Iterator[Edge]:
    """The hierarchy's links between concepts: SUBTASK_OF and VARIANT_OF (``kg.build.hierarchy``)."""
    h = hierarchy(res)
    for child, parent, rel in h.links:
        a = res.concepts.get(child) or h.nodes[child]
        b = res.concepts.get(parent) or h.nodes[parent]
        yield concept_node_id(a.label, a.key), concept_node_id(b.label, b.key), rel, {"type": rel}


# superscript digits and signs, and a minus sign ("−9.5"), as ASCII
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺\u2212", "0123456789-+-")
_VALUE = re.compile(r"(-?\d+(?:\.\d+)?)\s*(?:(%)|[x×](?:\s*10\^?([-+]?\d+))?)?")  # (signed: "-9.5")


def value_score(value: str) -> tuple[float | None, str]:
    """A result's value as a number and its unit, to sort and compare by: "94.4%" -> (94.4, "%"), "6.3x" ->
    (6.3, "x"), "1.897×10⁻³" -> (0.001897, ""), "0.91" -> (0.91, ""), "-9.5" -> (-9.5, ""); (None, "") for what is
    no number."""
    m = _VALUE.fullmatch(value.strip().translate(_SUPERSCRIPTS))
    if m is None:
        return None, ""
    number, percent, power = m.groups()
    if power is not None:
        return float(number) * 10.0 ** int(power), ""
    return float(number), "%" if percent else ("x" if m.end(1) < len(m.group()) else "")


def paper_elements(paper: Paper, ex: Extraction, res: Resolution) -> tuple[list[Node], list[Edge]]:
    """A paper's nodes (itself, its results) and edges (to concepts, to results, results to concepts)."""
    pid = paper_node_id(paper.id)
    nodes: list[Node] = [(pid, _paper_attrs(paper, ex))]
    links: dict[tuple[str, str], dict] = {}  # (target, relation) -> edge attributes, in first-mention order
    defined = defined_short_forms(ex)
    proposed = {res.concept_for("METHOD", m.canonical, defined).key for m in ex.mentions
                if m.proposed and m.label == "METHOD"}
    sentences: dict[tuple[int, int], str] = {}  # one string per sentence, shared by all its mentions
    quoted: dict[tuple[str, str], set[str]] = {}  # (target, relation) -> the sentences its evidence holds
    for m in ex.mentions:
        concept = res.concept_for(m.label, m.canonical, defined)  # of the label the corpus voted for
        rel = schema.PROPOSES if concept.label == "METHOD" and concept.key in proposed else schema.REL_FOR_LABEL[concept.label]
        target = concept_node_id(concept.label, concept.key)
        if m.in_title:
            sentence = paper.title or ""
        else:
            span = (m.sentence.start, m.sentence.end)
            sentence = sentences.get(span) or sentences.setdefault(span, paper.text[span[0]:span[1]])
        said = quoted.setdefault((target, rel.name), set())
        occurrence = {"sentence": sentence} if sentence not in said and len(said) < EVIDENCE_SENTENCES else {}
        said.add(sentence)
        occurrence.update({"start_char": m.start, "end_char": m.end, "text": m.text, "extractor": m.extractor,
                           "confidence": m.confidence})
        if m.in_title:
            occurrence["field"] = "title"  # offsets into the title
        if m.label != concept.label:
            occurrence["read_as"] = m.label  # the paper's own reading, outvoted over the corpus
        e = links.get((target, rel.name))
        if e is not None:
            e["evidence"].append(occurrence)
            e["count"] += 1
            e["confidence"] = max(e["confidence"], m.confidence)
            if m.proposed and e["extractor"] != "proposed":  # the proposal sentence is the best evidence
                e.update({"sentence": sentence, **{k: occurrence[k] for k in ("start_char", "end_char", "extractor")}})
        else:
            links[target, rel.name] = {"type": rel.name, "count": 1, "evidence": [occurrence], "sentence": sentence,
                                       **{k: occurrence[k] for k in ("start_char", "end_char", "extractor",
                                                                     "confidence")}}
    edges: list[Edge] = [(pid, target, rel, d) for (target, rel), d in links.items()]
    result_edges: list[Edge] = []
    for n, r in enumerate(ex.results, 1):
        rid = schema.node_id(schema.RESULT.label, f"{paper.id}#{n}")
        sentence = paper.text[r.sentence.start:r.sentence.end]
        score, unit = value_score(r.value)
        nodes.append((rid, {"type": schema.RESULT.label, "name": f"{r.value} {r.metric or ''}".strip(), "value": r.value,
                            "score": score, "unit": unit, "method": r.method, "dataset": r.dataset, "metric": r.metric, "sentence": sentence,
                            "start_char": r.sentence.start, "end_char": r.sentence.end}))
        edges.append((pid, rid, schema.HAS_RESULT.name, {"type": schema.HAS_RESULT.name}))
        for label, name, rel in (("METHOD", r.method, schema.RESULT_METHOD), ("DATASET", r.dataset, schema.RESULT_DATASET),
                                 ("METRIC", r.metric, schema.RESULT_METRIC)):
            if name is not None and mention_key(label, name, defined) in res.index:  # a defined short form too
                concept = res.concept_for(label, name, defined)
                if concept.label == label:
                    result_edges.append((rid, concept_node_id(label, concept.key), rel.name, {"type": rel.name}))
    return nodes, edges + result_edges
