"""The saved query library (``cypher/*.cypher``) and running Cypher on either engine.

Each file starts with a header of ``// key: value`` lines (name, purpose, params, example; ``papers``: the
parameters that name a paper, which ``kg query`` resolves to its id, see kg.paper_names). A query whose dialects differ has one file per engine: ``NAME.neo4j.cypher`` and ``NAME.lbug.cypher``.
"""
from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

_KG = Path(__file__).resolve().parents[1]
# cypher/ at the top of a source checkout; kg/cypher in an installed wheel (pyproject.toml maps it there)
CYPHER_DIR = _KG / "cypher" if (_KG / "cypher").is_dir() else _KG.parent / "cypher"
ENGINES = ("lbug", "neo4j")


@dataclass
class SavedQuery:
    name: str
    purpose: str
    params: str
    example: str
    text: dict[str, str] = field(default_factory=dict)  # engine -> Cypher
    papers: tuple[str, ...] = ()  # parameters that name a paper (id, title or proposed method)

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


def load_queries(directory: Path = CYPHER_DIR) -> dict[str, SavedQuery]:
    """Every saved query in ``directory`` by name (``schema.cypher`` is not a query)."""
    out: dict[str, SavedQuery] = {}
    for path in sorted(Path(directory).glob("*.cypher")):
        if path.name == "schema.cypher":
            continue
        text = path.read_text(encoding="utf-8")
        head = _header(text)
        stem = path.name[: -len(".cypher")]
        name, _, engine = stem.partition(".")
        papers = tuple(p.strip() for p in head.get("papers", "").split(",") if p.strip())
        q = out.setdefault(name, SavedQuery(head.get("name", name), head.get("purpose", ""), head.get("params", ""),
                                            head.get("example", ""), papers=papers))
        q.text[engine or "any"] = text
    return out


def format_listing(queries: dict[str, SavedQuery]) -> str:
    """The saved queries as ``kg query --list`` shows them: name, purpose, parameters and a runnable example."""
    return "\n".join(f"{q.name:24} {q.purpose}\n{'':24} params: {q.params or '-'}\n{'':24} e.g. {q.example}"
                     for q in queries.values())


INT64 = (-2**63, 2**63 - 1)  # the integers both engines hold


def parse_params(pairs: list[str]) -> dict[str, object]:
    """``["year=2026", "venue=ICML"]`` -> ``{"year": 2026, "venue": "ICML"}`` (integers and finite floats are
    converted).
    Raises ValueError for a pair without ``=`` and for an integer outside the 64-bit range."""
    out: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--param takes key=value, got {pair!r}")
        out[key] = value
        for conv in (int, float):
            try:
                number = conv(value)
            except ValueError:
                continue
            if math.isfinite(number):  # "nan", "inf" and "1e999" stay text
                out[key] = number
            break
        if isinstance(out[key], int) and not INT64[0] <= out[key] <= INT64[1]:
            raise ValueError(f"--param {key}: {value} is outside the 64-bit integer range the stores hold")
    return out


class QueryError(Exception):
    """The engine refused a query (syntax, a missing or mistyped parameter, an unsupported pattern): bad input. With
    ``store``, the store could not answer it (a big graph's forward-only store, an engine or I/O failure)."""

    def __init__(self, message: str, store: bool = False) -> None:
        super().__init__(message)
        self.store = store


_REFUSED = ("Binder exception", "Parser exception", "Catalog exception")  # Ladybug's words for a query it refuses


def missing_params(cypher: str, params: dict) -> list[str]:
    """The ``$names`` the query reads (outside ``//`` comments) that ``params`` does not give."""
    body = "\n".join(line for line in cypher.splitlines() if not line.lstrip().startswith("//"))
    return sorted({m for m in re.findall(r"\$([A-Za-z_]\w*)", body) if m not in params})


def run_embedded(conn, cypher: str, params: dict) -> tuple[list[str], list[list]]:
    """Run on a Ladybug connection: (column names, rows). Raises :class:`QueryError` when Ladybug refuses it."""
    try:
        result = conn.execute(cypher, params)
    except RuntimeError as e:  # Ladybug's errors are RuntimeErrors
        if "storage type 'fwd'" in str(e) or "storage direction" in str(e):
            raise QueryError(f"{e}\nThis embedded store holds a big graph, so its relationships are stored forward "
                             "only (paper -> concept); undirected patterns and subqueries that start from a "
                             "concept need both directions. Run the query on Neo4j (`kg load`, then "
                             "`kg query --neo4j`).", store=True) from None
        raise QueryError(str(e), store=not str(e).startswith(_REFUSED)) from None
    columns = result.get_column_names()
    rows = []
    while result.has_next():
        rows.append(result.get_next())
    return columns, rows


def run_neo4j(driver, cypher: str, params: dict, database: str = "neo4j") -> tuple[list[str], list[list]]:
    """Run on Neo4j: (column names, rows). Raises :class:`QueryError` when Neo4j refuses the query (a client
    error: syntax, a parameter, a missing procedure); a server that is down or refuses the login raises as it is."""
    from neo4j.exceptions import ClientError

    try:
        records, _, keys = driver.execute_query(cypher, params, database_=database)
    except ClientError as e:
        if e.code and (".Security." in e.code or ".Database.DatabaseNotFound" in e.code):
            raise  # (the store's problem, not the query's)
        raise QueryError(e.message or str(e)) from None
    return list(keys), [list(r.values()) for r in records]


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


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.3f}"
    if isinstance(v, list):
        return ", ".join(_cell(x) for x in v)
    return str(v).replace("\n", " ")
