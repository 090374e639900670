"""The saved query library (``cypher/*.cypher``) and running Cypher on either engine.

Each file starts with a header of ``// key: value`` lines: name, purpose, params, example. ``params`` declares each
parameter with its kind and, optionally, its default: ``a, b: paper (ids, titles or proposed methods, e.g. "FML"),
limit: integer = 20 (rows to return)``. A kind after a name is also that of the names before it back to the last one
described; the kinds are in :data:`KINDS`. A default is one word, or text in double quotes (a JSON string: ``venue:
text = "NeurIPS 2022"``); ``kg query`` gives a parameter its default when ``--param`` does not. A query whose
dialects differ has one file per engine, ``NAME.neo4j.cypher`` and ``NAME.lbug.cypher``, with one header.
"""
from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from kg.concept_names import LABELS

_KG = Path(__file__).resolve().parents[1]
# cypher/ at the top of a source checkout; kg/cypher in an installed wheel (pyproject.toml maps it there)
CYPHER_DIR = _KG / "cypher" if (_KG / "cypher").is_dir() else _KG.parent / "cypher"
ENGINES = ("lbug", "neo4j")

PAPER, TEXT, INTEGER, YEAR, NUMBER, TYPE, VENUE = "paper", "text", "integer", "year", "number", "type", "venue"
VALUE = "value"  # no kind declared: typed from its text, as the parameters of --cypher are
# What a parameter of each kind is: a paper (id, title or proposed method, which kg query resolves to its id,
# kg.paper_names), a concept of a type or of any (name, alias or id, resolved to its id, kg.concept_names), other
# text, a venue (text that kg query warns about when no paper has it, in any case), a whole number, a year (a whole
# number that kg query warns about when no paper has it), a number (always a float), or a concept type (dataset,
# task, method or metric, in any case and number: "Datasets" is dataset).
KINDS = (PAPER, *LABELS, TEXT, VENUE, INTEGER, YEAR, NUMBER, TYPE)
CONCEPT_TYPES = tuple(label for label in LABELS if label != "concept")  # the values of a TYPE parameter
NAMES = (PAPER, *LABELS)  # the kinds kg query resolves to a node id


@dataclass
class SavedQuery:
    name: str
    purpose: str
    params: str
    example: str
    text: dict[str, str] = field(default_factory=dict)  # engine -> Cypher
    kinds: dict[str, str] = field(default_factory=dict)  # parameter -> its kind (KINDS, or VALUE)
    defaults: dict[str, object] = field(default_factory=dict)  # parameter -> its value when --param gives none

    def for_engine(self, engine: str) -> str:
        return self.text.get(engine) or self.text["any"]


def _header(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        if not line.startswith("//"):
            break
        key, _, value = line[2:].partition(":")
        out.setdefault(key.strip(), value.strip())
    return out


# One declared parameter: its name, an optional ": kind", an optional "= default" (a word, or a JSON string) and an
# optional "(description)" (one level of nested parentheses), up to the comma before the next.
_DECLARED = re.compile(r"\s*([A-Za-z_]\w*)\s*(?::\s*(\w+))?\s*(?:=\s*(\"(?:[^\"\\]|\\.)*\"|[^\s,()\"]+(?!\()))?\s*"
                       r"(\((?:[^()]|\([^()]*\))*\))?\s*(?:,|$)")


def _declarations(declared: str) -> list[tuple[str, str, str | None]]:
    """``(name, kind, default text or None)`` of each parameter a ``// params:`` header declares, in order. A kind
    (or a default) after a name is also that of the names before it back to the last one described. ValueError for
    a header that is not such a list, or names a kind not in :data:`KINDS`."""
    out: list[tuple[str, str, str | None]] = []
    pending: list[str] = []
    text, at = declared.strip(), 0
    while text not in ("", "-") and at < len(text):
        m = _DECLARED.match(text, at)
        if m is None:
            raise ValueError(f"cannot read the parameters at {text[at:at + 30]!r} (NAME: KIND = DEFAULT (what), ...)")
        name, kind, default, described = m.groups()
        if kind is not None and kind not in KINDS:
            raise ValueError(f"parameter {name} has kind {kind!r}, not one of {', '.join(KINDS)}")
        pending.append(name)
        if kind or default or described:
            out.extend((each, kind or VALUE, default) for each in pending)
            pending = []
        at = m.end()
    return out + [(each, VALUE, None) for each in pending]


def param_kinds(declared: str) -> dict[str, str]:
    """The parameters a ``// params:`` header declares, with their kinds: ``a, b: paper (e.g. "FML"), top: integer``
    -> ``{"a": "paper", "b": "paper", "top": "integer"}`` ("" or "-": none). A name given no kind is VALUE.
    ValueError as :func:`_declarations`."""
    return {name: kind for name, kind, _ in _declarations(declared)}


def param_defaults(declared: str) -> dict[str, object]:
    """The defaults a ``// params:`` header gives, each typed by its parameter's kind: ``top: integer = 10`` ->
    ``{"top": 10}``, ``venue: text = "NeurIPS 2022"`` -> ``{"venue": "NeurIPS 2022"}``. ValueError as
    :func:`_declarations`, and for a default its kind does not take."""
    return _defaults(_declarations(declared))


def _defaults(declarations: list[tuple[str, str, str | None]]) -> dict[str, object]:
    """The typed defaults of :func:`_declarations`' parameters that have one."""
    out: dict[str, object] = {}
    for name, kind, default in declarations:
        if default is not None:
            text = json.loads(default) if default.startswith('"') else default
            out[name] = _typed(name, text, kind, what=f"the default of {name}")
    return out


def load_queries(directory: Path = CYPHER_DIR) -> dict[str, SavedQuery]:
    """Every saved query in ``directory`` by name (``schema.cypher`` is not a query). ValueError naming the file
    whose ``// params:`` header cannot be read."""
    out: dict[str, SavedQuery] = {}
    for path in sorted(Path(directory).glob("*.cypher")):
        if path.name == "schema.cypher":
            continue
        text = path.read_text(encoding="utf-8")
        head = _header(text)
        stem = path.name[: -len(".cypher")]
        name, _, engine = stem.partition(".")
        try:
            declarations = _declarations(head.get("params", ""))
            kinds, defaults = {n: k for n, k, _ in declarations}, _defaults(declarations)
        except ValueError as exc:
            raise ValueError(f"{path}: // params: {exc}") from None
        q = out.setdefault(name, SavedQuery(head.get("name", name), head.get("purpose", ""), head.get("params", ""),
                                            head.get("example", ""), kinds=kinds, defaults=defaults))
        if (q.kinds, q.defaults) != (kinds, defaults):
            raise ValueError(f"{path}: // params: not those of the query's other dialect file ({q.params})")
        q.text[engine or "any"] = text
    return out


def format_listing(queries: dict[str, SavedQuery]) -> str:
    """The saved queries as ``kg query --list`` shows them: name, purpose, parameters and a runnable example."""
    return "\n".join(f"{q.name:24} {q.purpose}\n{'':24} params: {q.params or '-'}\n{'':24} e.g. {q.example}"
                     for q in queries.values())


INT64 = (-2**63, 2**63 - 1)  # the integers both engines hold


def parse_params(pairs: list[str], kinds: dict[str, str] | None = None) -> dict[str, object]:
    """``["year=2026", "venue=ICML"]`` -> ``{"year": 2026, "venue": "ICML"}``: each value as the kind of its
    parameter (``kinds``, from a saved query's header) takes it: papers, concepts and text as the user wrote them
    (``paper=2106.09680`` stays text), a whole number, a number (a float); a parameter of no declared kind is typed
    from its text (integers and finite floats are converted).
    Raises ValueError for a pair without ``=``, a value its kind does not take, and an integer outside the 64-bit
    range."""
    out: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--param takes key=value, got {pair!r}")
        out[key] = _typed(key, value, (kinds or {}).get(key, VALUE))
    return out


def _typed(key: str, value: str, kind: str, what: str = "") -> object:
    """``value`` as parameter ``key`` of ``kind`` takes it; ``what`` names the value in an error (default:
    ``--param KEY``)."""
    what = what or f"--param {key}"
    if kind == TYPE:
        one = value.strip().lower()
        one = one[:-1] if one.endswith("s") else one
        if one not in CONCEPT_TYPES:
            raise ValueError(f"{what}: one of {', '.join(CONCEPT_TYPES)}, not {value!r}")
        return one
    if kind not in (INTEGER, YEAR, NUMBER, VALUE):
        return value
    number = _number(value)
    if kind in (INTEGER, YEAR) and not isinstance(number, int):
        raise ValueError(f"{what}: needs a whole number, not {value!r}")
    if kind == NUMBER:
        if number is None:
            raise ValueError(f"{what}: needs a number, not {value!r}")
        return float(number)
    if isinstance(number, int) and not INT64[0] <= number <= INT64[1]:
        raise ValueError(f"{what}: {value} is outside the 64-bit integer range the stores hold")
    return value if number is None else number


def _number(text: str) -> int | float | None:
    """``text`` as an integer or a finite float ("nan", "inf" and "1e999" are none), else None."""
    for conv in (int, float):
        try:
            number = conv(text)
        except ValueError:
            continue
        return number if math.isfinite(number) else None
    return None


class QueryError(Exception):
    """The engine refused a query (syntax, a missing or mistyped parameter, an unsupported pattern, a value it cannot
    compute with, a write): bad input. With ``store``, the store could not answer it (a big graph's forward-only
    store, an engine or I/O failure)."""

    def __init__(self, message: str, store: bool = False) -> None:
        super().__init__(message)
        self.store = store


# What is not code in a query: string literals ('...', "...", with backslash escapes), quoted names (`...`) and
# comments (// to the end of the line, /* ... */); and a parameter ($name).
_LEXEME = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?(?:\*/|\Z)|\$([A-Za-z_]\w*)",
                     re.DOTALL)


def _code(cypher: str) -> str:
    """``cypher`` with its string literals, quoted names and comments blanked out."""
    return _LEXEME.sub(lambda m: m.group(0) if m.group(1) else " ", cypher)


def query_params(cypher: str) -> set[str]:
    """The ``$names`` the query reads (not those inside strings, quoted names or comments)."""
    return set(re.findall(r"\$([A-Za-z_]\w*)", _code(cypher)))


def missing_params(cypher: str, params: dict) -> list[str]:
    """The ``$names`` the query reads that ``params`` does not give."""
    return sorted(query_params(cypher) - set(params))


WRITES = "the query writes to the graph, and kg query only reads it (kg build writes the embedded store, kg load Neo4j)"
# Ladybug's words for a failure of the store rather than of the query (exit code 3); any other error is the query's
_STORE_FAILURES = ("IO exception", "Storage exception", "Buffer manager", "Checkpoint failed")
# A read-only Ladybug store runs CHECKPOINT instead of refusing it, and is then left needing recovery (no read-only
# open succeeds until a writer has opened it), so it never reaches the engine.
_CHECKPOINT = re.compile(r"(?:^|;)\s*CHECKPOINT\b", re.IGNORECASE)


def schema_property(message: str) -> bool:
    """Whether an engine's "Cannot find property P" names a property of kg's schema (:mod:`kg.schema`): one a
    store written by an older kg lacks, not a user's typo."""
    from kg import schema

    found = re.search(r"Cannot find property (\w+)", message)
    return found is not None and any(found.group(1) in t.properties for t in schema.NODE_TYPES)


# Neo4j's functions that Ladybug spells another way (what its "function X does not exist" is told), and its exists()
NEO4J_SPELLINGS = {
    "type": "label(r)", "elementId": "id(n)", "startNode": "start_node(r)", "endNode": "end_node(r)",
    "toString": "to_string(x)", "toInteger": "to_int64(x)", "toFloat": "to_double(x)", "split": "string_split(s, sep)",
    "head": "list[1] (lists count from 1)", "last": "list[-1]", "timestamp": "current_timestamp()",
    "date": "current_date()",
}
_BY_UPPER = {name.upper(): name for name in NEO4J_SPELLINGS}
_NO_ARGUMENTS = ("TIMESTAMP", "DATE")  # Ladybug has these, taking arguments Neo4j's do not
_EXISTS = re.compile(r"Invalid input <.*\bexists\(>", re.IGNORECASE | re.DOTALL)
_MISSING_FUNCTION = re.compile(r"function (\w+) does not exist|Function (\w+) did not receive correct arguments")


def ladybug_hint(message: str) -> str:
    """How Ladybug spells the Neo4j function its error ``message`` says it lacks ("" when it names none kg knows)."""
    if _EXISTS.search(message):  # (Ladybug quotes the query up to where it stopped: "Invalid input <... exists(>")
        return " The embedded store writes exists(n.p) as n.p IS NOT NULL."
    found = _MISSING_FUNCTION.search(message)
    if found is None:
        return ""
    upper = (found.group(1) or found.group(2)).upper()
    name = _BY_UPPER.get(upper)
    if name is None or found.group(2) and upper not in _NO_ARGUMENTS:
        return ""
    return f" The embedded store spells {name}() {NEO4J_SPELLINGS[name]} (or run the query on Neo4j: --neo4j)."


def run_embedded(conn, cypher: str, params: dict) -> tuple[list[str], list[list]]:
    """Run on a Ladybug connection: (column names, rows). Raises :class:`QueryError` when Ladybug refuses it."""
    if _CHECKPOINT.search(_code(cypher)):
        raise QueryError(WRITES)
    try:
        result = conn.execute(cypher, params)
    except RuntimeError as e:  # Ladybug's errors are RuntimeErrors
        message = str(e)
        if "storage type 'fwd'" in message or "storage direction" in message:
            raise QueryError(f"{message}\nThis embedded store holds a big graph, so its relationships are stored "
                             "forward only (paper -> concept); undirected patterns and subqueries that start from a "
                             "concept need both directions. Run the query on Neo4j (`kg load`, then "
                             "`kg query --neo4j`).", store=True) from None
        if "read-only database" in message:
            raise QueryError(WRITES) from None
        if schema_property(message):
            raise QueryError(f"{message} This store was built by an older kg, before the property was in the "
                             "schema: rebuild it with `kg build`.") from None
        raise QueryError(message + ladybug_hint(message), store=message.startswith(_STORE_FAILURES)) from None
    columns = result.get_column_names()
    rows = []
    while result.has_next():
        rows.append(result.get_next())
    return columns, rows


def run_neo4j(driver, cypher: str, params: dict, database: str = "neo4j") -> tuple[list[str], list[list]]:
    """Run on Neo4j in a read transaction: (column names, rows), with nodes, relationships and paths as the embedded
    store gives them (:func:`kg.store.neo4j_values.plain`). Raises :class:`QueryError` when Neo4j refuses the query (a
    client error: syntax, a parameter, a write, a missing procedure); a server that is down or refuses the login
    raises as it is."""
    from neo4j import RoutingControl
    from neo4j.exceptions import ClientError

    from kg.store.neo4j_values import plain

    try:
        records, _, keys = driver.execute_query(cypher, params, database_=database, routing_=RoutingControl.READ)
    except ClientError as e:
        if e.code and (".Security." in e.code or ".Database.DatabaseNotFound" in e.code):
            raise  # (the store's problem, not the query's)
        raise QueryError(WRITES if e.code == "Neo.ClientError.Statement.AccessMode" else e.message or str(e)) from None
    return list(keys), [[plain(v) for v in r.values()] for r in records]


def format_rows(columns: list[str], rows: list[list], fmt: str = "table") -> str:
    """Render rows as an aligned table, JSON (a list of objects) or CSV."""
    if fmt == "json":
        return json.dumps([dict(zip(columns, r)) for r in rows], ensure_ascii=False, indent=1, default=str)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(columns)
        w.writerows([[json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v for v in r] for r in rows])
        return buf.getvalue()
    cells = [[_cell(v) for v in r[:-1]] + [_last_cell(r[-1])] for r in rows]
    # a column is at most 60 characters wide, the last (which aligns nothing after it) 160, and a list there (a
    # path's chain) is shown whole up to LIST_CHARS; a cut cell ends in "..."
    whole = bool(rows) and all(isinstance(r[-1], list) for r in rows)
    caps = [60] * (len(columns) - 1) + [10**6 if whole else 160]
    widths = [min(cap, max([len(c)] + [len(r[i]) for r in cells])) for i, (c, cap) in enumerate(zip(columns, caps))]
    cut = lambda v, w: v if len(v) <= w else v[:w - 3] + "..."
    line = lambda vals: "  ".join(cut(v, w).ljust(w) for v, w in zip(vals, widths)).rstrip()
    rule = [min(w, 60) for w in widths]
    out = [line(columns), "  ".join("-" * w for w in rule)] + [line(r) for r in cells]
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out)


LIST_CHARS = 400  # of a list in a table's last column, before it says how many items are left out


def _last_cell(v) -> str:
    """A table's last cell: a list's items up to LIST_CHARS, then how many more there are."""
    if not isinstance(v, list):
        return _cell(v)
    shown: list[str] = []
    for i, x in enumerate(v):
        text = _cell(x)
        if shown and sum(len(t) + 2 for t in shown) + len(text) > LIST_CHARS:
            return ", ".join(shown) + f", ... ({len(v) - i} more)"
        shown.append(text)
    return ", ".join(shown)


# a node's id inside a text ("paper:neurips2022:--aQNMdJc9x"), which cleaning must not touch ("--" is a LaTeX dash)
_NODE_ID = re.compile(r"\b(?:paper|method|task|dataset|metric|result):\S*[^\s).,;]")


def _cell(v) -> str:
    """A table's cell: text with spaces in it (a title, an evidence sentence) as kg shows text, LaTeX and markdown
    cleaned (``$79.2\\%$`` -> 79.2%, as the raw sentence is stored to keep its offsets); ids and names as they are,
    inside a text too, and a map's keys and values each as a cell (a node's title cleaned, its id not)."""
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.3f}"
    if isinstance(v, list):
        return ", ".join(_cell(x) for x in v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_inner(x)}" for k, x in v.items()) + "}"
    text = str(v).replace("\n", " ")
    if " " in text.strip() and text.isprintable():  # (control characters stay, for the output to show them escaped)
        return _cleaned_around_ids(text)
    return text


def _inner(v) -> str:
    """A value inside a map: as a cell, a list in brackets (a path's nodes)."""
    return "[" + ", ".join(_inner(x) for x in v) + "]" if isinstance(v, list) else _cell(v)


def _cleaned_around_ids(text: str) -> str:
    """``text`` cleaned as kg shows text, but for the node ids in it, kept as they are."""
    from kg.corpus.clean import clean_text

    out, at = [], 0
    for m in _NODE_ID.finditer(text):
        out += [_cleaned_part(text[at:m.start()], clean_text), m.group()]
        at = m.end()
    out.append(_cleaned_part(text[at:], clean_text))
    return "".join(out)


def _cleaned_part(part: str, clean_text) -> str:
    """A part of a text cleaned, with the spaces at its ends kept (they join it to the ids around it)."""
    core = part.strip(" ")
    if not core:
        return part
    lead = part[:len(part) - len(part.lstrip(" "))]
    return lead + clean_text(core) + part[len(lead) + len(core):]
