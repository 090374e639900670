"""The graph schema, defined once and used by networkx, file exports, Neo4j, the embedded store and pyvis."""
from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True)
class NodeType:
    label: str  # Neo4j label, networkx ``type`` attribute
    color: str  # pyvis colour
    properties: tuple[str, ...]


@dataclass(frozen=True)
class RelType:
    name: str  # Neo4j relationship type, networkx edge key
    source: str  # node label
    target: str  # node label
    color: str
    properties: tuple[str, ...]


CONCEPT_PROPS = ("id", "name", "aliases", "papers", "idf", "benchmark")
# start_char/end_char: raw offsets of the mention ("end" is a reserved word in some Cypher dialects).
EVIDENCE_PROPS = ("sentence", "start_char", "end_char", "extractor", "confidence", "count", "evidence")

# other_ids: the paper's other identifiers (a preprint's DOI, a second input id: kg.build.elements.other_ids)
PAPER = NodeType("Paper", "#4e79a7", ("id", "name", "title", "venue", "year", "authors", "url", "doi", "arxiv_id",
                                      "other_ids", "keywords", "source", "abstract"))
METHOD = NodeType("Method", "#f28e2b", CONCEPT_PROPS)
TASK = NodeType("Task", "#59a14f", CONCEPT_PROPS + ("area",))  # area: the vocabulary's research area
DATASET = NodeType("Dataset", "#e15759", CONCEPT_PROPS)
METRIC = NodeType("Metric", "#b07aa1", CONCEPT_PROPS + ("lower_is_better",))  # its results sort lowest first
RESULT = NodeType("Result", "#9c755f", ("id", "name", "value", "score", "unit", "method", "dataset", "metric", "sentence",
                                        "start_char", "end_char"))
NODE_TYPES: tuple[NodeType, ...] = (PAPER, METHOD, TASK, DATASET, METRIC, RESULT)
BENCHMARK_LABEL = "Benchmark"

# Property types that are not strings (the same names in every store). Lists are lists of strings;
# ``evidence`` (a list of records) is stored as a JSON string outside networkx.
PROPERTY_TYPES: dict[str, str] = {
    "year": "int", "start_char": "int", "end_char": "int", "count": "int", "papers": "int",
    "confidence": "float", "idf": "float", "score": "float", "benchmark": "bool",
    "lower_is_better": "bool",
    "aliases": "list", "authors": "list", "source": "list", "keywords": "list", "other_ids": "list",
}  # extra Neo4j label on Dataset nodes that are called benchmarks

PROPOSES = RelType("PROPOSES", "Paper", "Method", "#f28e2b", EVIDENCE_PROPS)
USES = RelType("USES", "Paper", "Method", "#f1ce63", EVIDENCE_PROPS)
ADDRESSES = RelType("ADDRESSES", "Paper", "Task", "#59a14f", EVIDENCE_PROPS)
EVALUATES_ON = RelType("EVALUATES_ON", "Paper", "Dataset", "#e15759", EVIDENCE_PROPS)
REPORTS = RelType("REPORTS", "Paper", "Metric", "#b07aa1", EVIDENCE_PROPS)
HAS_RESULT = RelType("HAS_RESULT", "Paper", "Result", "#9c755f", ())
RESULT_METHOD = RelType("FOR_METHOD", "Result", "Method", "#bab0ac", ())
RESULT_DATASET = RelType("ON_DATASET", "Result", "Dataset", "#bab0ac", ())
RESULT_METRIC = RelType("IN_METRIC", "Result", "Metric", "#bab0ac", ())
SUBTASK_OF = RelType("SUBTASK_OF", "Task", "Task", "#8cd17d", ())  # a task under its parent (kg.build.hierarchy)
VARIANT_OF = RelType("VARIANT_OF", "Dataset", "Dataset", "#ff9d9a", ())  # a variant, split or release of a dataset
KIND_OF = RelType("KIND_OF", "Method", "Method", "#ffbe7d", ())  # a kind of a method ("Vision Transformer")
# The child -> parent links of the concept hierarchy (kg.build.hierarchy): what lies below a concept follows them.
HIERARCHY: frozenset[str] = frozenset({SUBTASK_OF.name, VARIANT_OF.name, KIND_OF.name})
REL_TYPES: tuple[RelType, ...] = (
    PROPOSES, USES, ADDRESSES, EVALUATES_ON, REPORTS, HAS_RESULT, RESULT_METHOD, RESULT_DATASET, RESULT_METRIC,
    SUBTASK_OF, VARIANT_OF, KIND_OF,
)


K = TypeVar("K")


def below(g: nx.MultiDiGraph, concept: str) -> list[str]:
    """The subtasks, dataset variants and method kinds under ``concept`` in a networkx graph (:data:`HIERARCHY`), at
    any depth, nearest first (then by id)."""
    return descendants(concept, lambda c: (u for u, _, k in g.in_edges(c, keys=True) if k in HIERARCHY))


def descendants(concept: K, children: Callable[[K], Iterable[K]]) -> list[K]:
    """Everything under ``concept`` by ``children``, at any depth: nearest first, then in sorted order."""
    out: list[K] = []
    seen, level = {concept}, [concept]
    while level:
        nxt = sorted({u for c in level for u in children(c) if u not in seen})
        seen.update(nxt)
        out += nxt
        level = nxt
    return out

# Extraction label -> concept node type, and the paper->concept relationship it induces.
NODE_FOR_LABEL: dict[str, NodeType] = {"METHOD": METHOD, "TASK": TASK, "DATASET": DATASET, "METRIC": METRIC}
REL_FOR_LABEL: dict[str, RelType] = {"METHOD": USES, "TASK": ADDRESSES, "DATASET": EVALUATES_ON, "METRIC": REPORTS}
NODE_TYPE_BY_LABEL: dict[str, NodeType] = {t.label: t for t in NODE_TYPES}
REL_TYPE_BY_NAME: dict[str, RelType] = {r.name: r for r in REL_TYPES}


_SUFFIX = re.compile(r"\s+(data ?sets?|benchmarks?|corpus|corpora)$")


# Latin letters that Unicode does not decompose into a base letter and a mark ("Łojasiewicz", "Ørsted")
_UNDECOMPOSED = str.maketrans({"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "ß": "ss", "Æ": "AE",
                               "æ": "ae", "Œ": "OE", "œ": "oe", "ı": "i"})


# Unicode punctuation that has an ASCII twin: dashes and the minus sign, quotes, the middle dot (a decimal point in
# "1·5"), and spaces
_AS_ASCII = str.maketrans({**dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
                           **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"),
                           **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'), "\u00b7": ".",
                           **dict.fromkeys("\u00a0\u2002\u2003\u2009\u200a\u202f", " ")})


@functools.lru_cache(maxsize=1 << 18)
def concept_key(name: str) -> str:
    """The identity of a concept name: case, spacing, punctuation (Unicode's dashes and quotes too), a plural ``s``
    and a trailing "dataset"/"benchmark" folded (``Office-31`` == ``Office31``, ``LLMs`` == ``LLM``), digits, dots
    inside numbers and suffix letters kept (``ImageNet`` != ``ImageNet-C``, ``GPT-3`` != ``GPT-4``, ``OPT-1.3B``
    != ``OPT-13B``, ``DeiT-S`` != ``DeiT``)."""
    raw = name.strip()
    if not raw.isascii():  # ASCII (nearly every name) has nothing to decompose: a third less time per uncached name
        # Unicode's dashes, quotes, dots and spaces are ASCII's ("Hamilton–Jacobi–Bellman" with en dashes is
        # Hamilton-Jacobi-Bellman, "ResNet−50" ResNet-50, "Fisher’s" Fisher's); marks go, and so does other
        # punctuation; letters of other scripts stay ("θ-learning")
        raw = "".join(c for c in unicodedata.normalize("NFKD", raw.translate(_UNDECOMPOSED).translate(_AS_ASCII))
                      if c.isascii() or not (unicodedata.combining(c) or unicodedata.category(c)[0] in "PZ"))
    acronym_plural = len(raw) >= 3 and raw.endswith("s") and raw[-2].isupper()  # LLMs, MDPs, GNNs
    # a lower-case "s" after a letter may be a plural; not "DeiT-S" or "YOLOv5s", where it is the model size
    word_plural = len(raw) >= 2 and raw.endswith("s") and raw[-2].isalpha()
    s = _SUFFIX.sub("", raw.lower().replace("’", "'"))
    s = re.sub(r"(?<=\d)\.(?=\d)", "\x00", s)  # a dot inside a number stays: OPT-1.3B is not OPT-13B
    folded = re.sub(r"[^0-9a-z+#\x00\u0370-\uffff]+", "", s).replace("\x00", ".")
    if folded.endswith("sses"):
        folded = folded[:-2]
    elif acronym_plural or (word_plural and len(folded) > 4 and folded.endswith("s")
                            and not folded.endswith(("ss", "us", "is"))):
        folded = folded[:-1]
    return folded or s.replace("\x00", ".")


def spelling(name: str) -> str:
    """A name's ASCII letters and digits as written, in their case ("SnAKe" of "SnAKe:", "R2VOS" of "R²-VOS")."""
    return re.sub(r"[^0-9A-Za-z]+", "", name)


def cased_key(name: str) -> str:
    """The key of a concept kept apart from another whose name differs from it only in case ("SnAKe" and "SNAKE",
    "STaR" and "Stars", two papers' own names): the name's key, a dash and its :func:`spelling`
    (``snake-SnAKe``; a dash is in no :func:`concept_key`)."""
    return f"{concept_key(name)}-{spelling(name)}"


def initials(name: str) -> str:
    """The first letters of a name's words, hyphenated parts apart, in upper case ("multi-agent RL": "MAR")."""
    return "".join(w[0] for w in name.replace("-", " ").split() if w[0].isalpha()).upper()


_LETTER_HYPHEN = re.compile(r"(?<=[A-Za-z])-(?=[A-Za-z])")
_LETTER_ALONE = re.compile(r"(?<![\w-])[A-Za-z]-|-[A-Za-z](?![\w-])")  # "k-nearest", "t-SNE", "Mask R-CNN"


def spaced(name: str) -> str:
    """A name of two words or more with hyphens between letters as papers also write it, with spaces ("meta
    reinforcement learning", "test time adaptation", "chain of thought prompting"); "" for other names: one
    hyphenated word spaced is a phrase of its own ("speed up", "part of"), and a letter alone a word of the
    sentence (a title's "K Nearest Neighbor Search")."""
    if " " not in name or not _LETTER_HYPHEN.search(name) or _LETTER_ALONE.search(name):
        return ""
    return _LETTER_HYPHEN.sub(" ", name)


def idf(n_papers: int, concept_papers: int) -> float:
    """Rarity of a concept: ``ln(1 + N / papers)``; a name every paper shares weighs little, a rare one much."""
    return round(math.log1p(n_papers / max(concept_papers, 1)), 6)


def node_id(label: str, key: str) -> str:
    """Graph node id of a concept (``dataset:cuhksysu``) or paper (``paper:<id>``)."""
    return f"{label.lower()}:{key}"


def cypher_schema() -> str:
    """Neo4j 5 constraints and indexes for this schema (the text of ``cypher/schema.cypher``)."""
    lines = ["// Generated from kg/schema.py by `python -m kg.schema > cypher/schema.cypher`; a test keeps them in sync.",
             "// Uniqueness constraints (which also index the key) first, then lookup indexes."]
    for t in NODE_TYPES:
        lines.append(f"CREATE CONSTRAINT {t.label.lower()}_id IF NOT EXISTS FOR (n:{t.label}) REQUIRE n.id IS UNIQUE;")
    for t in NODE_TYPES:
        lines.append(f"CREATE INDEX {t.label.lower()}_name IF NOT EXISTS FOR (n:{t.label}) ON (n.name);")
    lines.append("CREATE INDEX paper_venue_year IF NOT EXISTS FOR (n:Paper) ON (n.venue, n.year);")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(cypher_schema(), end="")
