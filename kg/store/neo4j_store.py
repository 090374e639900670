"""Load a kg graph into Neo4j: schema first, then ``UNWIND`` batches of ``CREATE`` for what is new and ``MERGE``
for the rest.

Idempotent: nodes merge on ``id``, relationships on (start, type, end), so a second load changes nothing and a
load interrupted half way can simply be run again. A paper of the build is the truth for its own links and results:
each Paper keeps a fingerprint of them (``links_fingerprint``), and a load that finds it changed first deletes what
the paper no longer has. Values always travel as query parameters; labels and relationship types are interpolated
only from ``kg.schema``, never from data.
"""
from __future__ import annotations

import hashlib
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import networkx as nx
from neo4j import Driver, GraphDatabase, Session
from neo4j.exceptions import AuthError, ClientError, Neo4jError, ServiceUnavailable

from kg import schema
from kg.errors import StoreError
from kg.store.queries import CYPHER_DIR
from kg.store.rows import NodeRows, RelRows, batches, node_rows, rel_rows

SCHEMA_FILE = CYPHER_DIR / "schema.cypher"
SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")  # what kg connects with (Bolt)
FINGERPRINT = "links_fingerprint"  # a Paper property in Neo4j only: the digest of its links the last load wrote


@dataclass
class LoadStats:
    nodes_created: int = 0
    nodes_matched: int = 0
    rels_created: int = 0
    rels_matched: int = 0
    per_type: dict[str, int] = field(default_factory=dict)
    stale_rels: int = 0  # relationships of revised papers and of their results that the build no longer has
    stale_results: int = 0  # Result nodes of revised papers that the build no longer has

    def summary(self) -> str:
        text = (f"nodes: {self.nodes_created} created, {self.nodes_matched} matched; "
                f"relationships: {self.rels_created} created, {self.rels_matched} matched")
        if self.stale_rels or self.stale_results:
            results = f"{self.stale_results} result{'' if self.stale_results == 1 else 's'}"
            text += f"; deleted {self.stale_rels} relationships and {results} that revised papers no longer have"
        return text


def split_userinfo(uri: str) -> tuple[str, str | None, str | None]:
    """``bolt://user:pass@host:7687`` -> (``bolt://host:7687``, user, password); a URI without them is returned as
    it is, with None for both."""
    try:
        parts = urlsplit(uri)
    except ValueError:  # not a URI (check_uri says so): only its secrets go
        return redact_uri(uri), None, None
    if "@" not in parts.netloc:
        return uri, None, None
    userinfo, _, host = parts.netloc.rpartition("@")
    user, sep, password = userinfo.partition(":")
    return parts._replace(netloc=host).geturl(), unquote(user) or None, unquote(password) if sep else None


def redact_uri(uri: str) -> str:
    """``uri`` safe to print: ``bolt://neo4j:PASS@host`` -> ``bolt://***@host`` (everything up to the last ``@``
    goes, so a password holding ``@`` or ``/``, or a URI too broken to parse, shows nothing of it either)."""
    return re.sub(r"://.*@", "://***@", uri, count=1, flags=re.DOTALL)


@dataclass(frozen=True)
class Neo4jConfig:
    """Where and as whom to connect. A user and password written in the URI (``bolt://user:pass@host``) are taken
    out of it into ``user`` and ``password``, so no message that names the URI can show them."""

    uri: str = "bolt://localhost:7687"
    user: str = "neo4j"
    password: str | None = field(default=None, repr=False)
    database: str = "neo4j"

    def __post_init__(self) -> None:
        bare, user, password = split_userinfo(self.uri)
        if bare != self.uri:
            object.__setattr__(self, "uri", bare)
            if self.password is None:
                object.__setattr__(self, "user", user or self.user)
                object.__setattr__(self, "password", password)

    @property
    def shown_uri(self) -> str:
        """The URI for messages (it never holds credentials)."""
        return redact_uri(self.uri)

    @classmethod
    def from_env(cls, env: dict[str, str], **overrides: str | None) -> "Neo4jConfig":
        """From ``NEO4J_URI``/``NEO4J_USER``/``NEO4J_PASSWORD``/``NEO4J_DATABASE``, overridden by non-None arguments.
        Credentials in the URI come before the variables, and after ``user``/``password`` arguments."""
        uri = overrides.get("uri") or env.get("NEO4J_URI", cls.uri)
        bare, uri_user, uri_password = split_userinfo(uri)
        base = {"uri": bare, "user": uri_user or env.get("NEO4J_USER", cls.user),
                "password": uri_password if uri_password is not None else env.get("NEO4J_PASSWORD"),
                "database": env.get("NEO4J_DATABASE", cls.database)}
        base.update({k: v for k, v in overrides.items() if v is not None and k != "uri"})
        return cls(**base)


def check_uri(uri: str) -> None:
    """Raise StoreError, naming the schemes kg connects with, when ``uri`` is not a Bolt or Neo4j URI."""
    scheme = uri.partition("://")[0].lower() if "://" in uri else ""
    if scheme not in SCHEMES:
        raise StoreError(f"{redact_uri(uri)}: kg connects to Neo4j over Bolt; use a URI starting with "
                         + ", ".join(f"{s}://" for s in SCHEMES))
    try:
        urlsplit(uri).port  # noqa: B018 (parses the host and port)
    except ValueError as exc:
        raise StoreError(f"{redact_uri(uri)}: not a valid URI ({exc})") from None


_REASON = re.compile(r"reason (?:\[Errno \d+\] )?(.+?)\)?$")


def _unreachable(exc: Exception) -> str:
    """Why the driver reached no server, in a few words ("Connection refused"), from its message of several lines
    ("Couldn't connect to ... (resolved to ...):" then "Failed to establish connection ... (reason ...)")."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    found = next((m.group(1) for line in reversed(lines) if (m := _REASON.search(line))), None)
    return found or (lines[0].rstrip(":") if lines else type(exc).__name__)


def connect(cfg: Neo4jConfig) -> Driver:
    """An open, verified driver; raises StoreError with a one-line reason (never the password)."""
    check_uri(cfg.uri)
    where = cfg.shown_uri
    auth = (cfg.user, cfg.password) if cfg.password else None
    try:
        driver = GraphDatabase.driver(cfg.uri, auth=auth, connection_timeout=10, max_transaction_retry_time=15)
        driver.verify_connectivity()
        driver.execute_query("RETURN 1", database_=cfg.database)  # wrong database names fail here
        return driver
    except AuthError:
        raise StoreError(f"Neo4j at {where} refused the credentials of user '{cfg.user}'") from None
    except ServiceUnavailable as exc:
        raise StoreError(f"cannot reach Neo4j at {where}: {_unreachable(exc)}") from None
    except ClientError as exc:
        if "DatabaseNotFound" in (exc.code or ""):
            raise StoreError(f"Neo4j at {where} has no database '{cfg.database}'") from None
        raise StoreError(f"Neo4j at {where}: {exc.message}") from None
    except (ValueError, Neo4jError) as exc:
        raise StoreError(f"Neo4j at {where}: {str(exc).splitlines()[0]}") from None


def schema_statements(path: Path = SCHEMA_FILE) -> list[str]:
    """The statements of ``cypher/schema.cypher`` (comments dropped)."""
    text = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if not line.strip().startswith("//"))
    return [s.strip() for s in text.split(";") if s.strip()]


def _node_query(label: str, benchmark: bool, create: bool = False) -> str:
    """Create or merge nodes of ``label``; a benchmark gets the ``:Benchmark`` label, and a merged node that is
    none loses it, so the label follows the ``benchmark`` property (:func:`kg.store.rows.node_rows` sets it for
    datasets only)."""
    if benchmark:
        extra = f", n:{schema.BENCHMARK_LABEL}"
    else:
        extra = "" if create else f" REMOVE n:{schema.BENCHMARK_LABEL}"
    return f"UNWIND $rows AS row {'CREATE' if create else 'MERGE'} (n:{label} {{id: row.id}}) SET n += row.props{extra}"


def _rel_query(rt: schema.RelType, create: bool = False) -> str:
    match = (f"UNWIND $rows AS row MATCH (a:{rt.source} {{id: row.src}}) MATCH (b:{rt.target} {{id: row.dst}}) ")
    if create:
        return match + f"CREATE (a)-[r:{rt.name}]->(b) SET r = row.props"
    return match + f"MERGE (a)-[r:{rt.name}]->(b) SET r += row.props"


def _per_row_query(query: str) -> str:
    """The same statement for a single row (the slow baseline the benchmark compares against)."""
    return query.replace("UNWIND $rows AS row ", "WITH $row AS row ")


def existing_ids(driver: Driver, label: str, ids: list[str], *, database: str = "neo4j",
                 batch_size: int = 10000) -> set[str]:
    """Those of ``ids`` that a node of ``label`` already has in the database (one index seek each)."""
    found: set[str] = set()
    query = f"UNWIND $ids AS id MATCH (n:{label} {{id: id}}) RETURN id"
    with driver.session(database=database) as session:
        for chunk in batches(ids, batch_size):
            found.update(session.execute_read(lambda tx: [r["id"] for r in tx.run(query, ids=chunk)]))
    return found


def link_fingerprints(papers: list[str], rels: list[RelRows]) -> dict[str, str]:
    """Each paper's fingerprint: a digest of the type and end of its links and of its results' links (not of their
    properties, which every load sets anyway)."""
    lines: dict[str, list[str]] = {p: [] for p in papers}
    owner = {r["dst"]: r["src"] for rr in rels if rr.type is schema.HAS_RESULT for r in rr.rows}
    for rr in rels:
        name = rr.type.name
        if rr.type.source == schema.PAPER.label:
            for r in rr.rows:
                lines[r["src"]].append(f"{name}\t{r['dst']}")
        elif rr.type.source == schema.RESULT.label:
            for r in rr.rows:
                if (paper := owner.get(r["src"])) in lines:
                    lines[paper].append(f"{r['src']}\t{name}\t{r['dst']}")
    return {p: hashlib.blake2b("\n".join(sorted(ls)).encode(), digest_size=16).hexdigest() for p, ls in lines.items()}


def stored_fingerprints(driver: Driver, ids: list[str], *, database: str = "neo4j",
                        batch_size: int = 10000) -> dict[str, str | None]:
    """Those of ``ids`` that a Paper in the database has, each with the fingerprint of its links the last load wrote
    (None: imported by ``neo4j-admin``, or loaded by a kg that wrote none)."""
    found: dict[str, str | None] = {}
    # p[$key]: a database that never held the property warns of an unknown one when the query names it
    query = f"UNWIND $ids AS id MATCH (p:{schema.PAPER.label} {{id: id}}) RETURN id, p[$key] AS fp"
    with driver.session(database=database) as session:
        for chunk in batches(ids, batch_size):
            found.update(session.execute_read(
                lambda tx: {r["id"]: r["fp"] for r in tx.run(query, ids=chunk, key=FINGERPRINT)}))
    return found


# kg's relationships from papers and from their results, as (start id, type, end id)
_HELD_LINKS = ("UNWIND $ids AS id MATCH (p:Paper {id: id})-[r]->(x) RETURN p.id AS a, type(r) AS t, x.id AS b "
               "UNION ALL UNWIND $ids AS id MATCH (:Paper {id: id})-[:HAS_RESULT]->(x:Result)-[r]->(y) "
               "RETURN x.id AS a, type(r) AS t, y.id AS b")


def delete_stale(driver: Driver, g: nx.MultiDiGraph, papers: list[str], *, database: str = "neo4j",
                 batch_size: int = 5000) -> tuple[int, int]:
    """Delete what the database holds of ``papers`` that ``g`` no longer has: their Result nodes and the
    relationships of kg's types from them and from their results; returns (relationships, results) deleted."""
    rels = results = 0
    with driver.session(database=database) as session:
        for chunk in batches(papers, batch_size):
            held = session.execute_read(lambda tx: [(r["a"], r["t"], r["b"]) for r in tx.run(_HELD_LINKS, ids=chunk)])
            gone_results = {b for _, t, b in held if t == schema.HAS_RESULT.name and b not in g}
            n, r = _delete_nodes(session, schema.RESULT.label, sorted(gone_results), batch_size)
            gone = [(a, t, b) for a, t, b in held if t in schema.REL_TYPE_BY_NAME and not g.has_edge(a, b, key=t)
                    and a not in gone_results and b not in gone_results]
            results += n
            rels += r + _delete_links(session, gone, batch_size)
    return rels, results


def _delete_nodes(session: Session, label: str, ids: list[str], batch_size: int) -> tuple[int, int]:
    """``DETACH DELETE`` the nodes of ``label`` with these ids; returns (nodes, relationships) deleted."""
    nodes = rels = 0
    query = f"UNWIND $ids AS id MATCH (n:{label} {{id: id}}) DETACH DELETE n"
    for chunk in batches(ids, batch_size):
        c = session.execute_write(lambda tx: tx.run(query, ids=chunk).consume()).counters
        nodes, rels = nodes + c.nodes_deleted, rels + c.relationships_deleted
    return nodes, rels


def _delete_links(session: Session, links: list[tuple[str, str, str]], batch_size: int) -> int:
    """Delete the relationships (start id, type, end id) of kg's types; returns how many went."""
    deleted = 0
    for rt in schema.REL_TYPES:
        rows = [{"a": a, "b": b} for a, t, b in links if t == rt.name]
        query = (f"UNWIND $rows AS row MATCH (:{rt.source} {{id: row.a}})-[r:{rt.name}]->(:{rt.target} {{id: row.b}}) "
                 "DELETE r")
        for chunk in batches(rows, batch_size):
            summary = session.execute_write(lambda tx: tx.run(query, rows=chunk).consume())
            deleted += summary.counters.relationships_deleted
    return deleted


def _new_ids_after_stale(driver: Driver, g: nx.MultiDiGraph, nodes: list[NodeRows], fingerprints: dict[str, str],
                         stats: LoadStats, database: str) -> set[str]:
    """The ids of ``nodes`` that the database lacks, once the papers whose stored fingerprint differs from
    ``fingerprints`` have lost what ``g`` no longer gives them (counted in ``stats``)."""
    new: set[str] = set()
    for nr in nodes:
        ids = [r["id"] for r in nr.rows]
        if nr.type is schema.PAPER:
            stored = stored_fingerprints(driver, ids, database=database)
            new.update(set(ids) - stored.keys())
            revised = [p for p, fp in stored.items() if fp != fingerprints[p]]
            stats.stale_rels, stats.stale_results = delete_stale(driver, g, revised, database=database)
        else:
            new.update(set(ids) - existing_ids(driver, nr.type.label, ids, database=database))
    return new


def load_graph_into(driver: Driver, g: nx.MultiDiGraph, *, database: str = "neo4j", batch_size: int = 1000,
                    per_row: bool = False, progress: Callable[[str, int, int], None] | None = None) -> LoadStats:
    """Apply the schema and merge every node and relationship of ``g``; returns created/matched counts.

    Nodes that the database does not hold yet (one lookup of their ids first) are created, and so are the
    relationships that touch one of them, since none can exist yet; only the rest go through ``MERGE``. A node
    that another load creates in between fails the uniqueness constraint, so nothing is ever duplicated. A paper
    whose fingerprint (:func:`link_fingerprints`) differs from the one the database holds first loses what ``g``
    no longer gives it (:func:`delete_stale`); its new fingerprint is written with the nodes, after that.
    ``per_row``: one ``MERGE`` statement per row and no lookup (the slow baseline of ``kg bench load``, into an
    empty database)."""
    stats = LoadStats()
    apply_schema(driver, database)
    nodes, rels = node_rows(g), rel_rows(g)
    papers = next(nr for nr in nodes if nr.type is schema.PAPER).rows
    fingerprints = link_fingerprints([r["id"] for r in papers], rels)
    for row in papers:
        row["props"][FINGERPRINT] = fingerprints[row["id"]]
    new = set() if per_row else _new_ids_after_stale(driver, g, nodes, fingerprints, stats, database)
    with driver.session(database=database) as session:

        def run(query: str, rows: list[dict], kind: str, label: str, total: int, done: int) -> int:
            for chunk in (batches(rows, batch_size) if not per_row else ([r] for r in rows)):
                if per_row:
                    summary = session.execute_write(lambda tx: tx.run(_per_row_query(query), row=chunk[0]).consume())
                else:
                    summary = session.execute_write(lambda tx: tx.run(query, rows=chunk).consume())
                c = summary.counters
                if kind == "node":
                    stats.nodes_created += c.nodes_created
                    stats.nodes_matched += len(chunk) - c.nodes_created
                else:
                    stats.rels_created += c.relationships_created
                    stats.rels_matched += len(chunk) - c.relationships_created
                done += len(chunk)
                stats.per_type[label] = stats.per_type.get(label, 0) + len(chunk)
                if progress:
                    progress(label, done, total)
            return done

        total = sum(len(n.rows) for n in nodes) + sum(len(r.rows) for r in rels)
        done = 0
        try:
            for nr in nodes:
                for bench in (False, True):
                    for create in (True, False):
                        rows = [{"id": r["id"], "props": r["props"]} for r in nr.rows
                                if r["benchmark"] == bench and (r["id"] in new) == create]
                        done = run(_node_query(nr.type.label, bench, create), rows, "node", nr.type.label, total, done)
            for rr in rels:
                for create in (True, False):
                    rows = [r for r in rr.rows if (r["src"] in new or r["dst"] in new) == create]
                    done = run(_rel_query(rr.type, create), rows, "rel", rr.type.name, total, done)
        except ClientError as exc:
            if "ConstraintValidationFailed" in (exc.code or ""):
                raise StoreError("another load created some of these nodes at the same time; run this load "
                                 "again to complete it") from None
            raise
    return stats


def prune(driver: Driver, g: nx.MultiDiGraph, *, database: str = "neo4j", batch_size: int = 5000) -> tuple[int, int]:
    """Delete the nodes and relationships of kg's labels and types that ``g`` no longer has, so the database
    ends up exactly like a fresh load of ``g``; returns (nodes deleted, relationships deleted), those that went
    with a deleted node included."""
    nodes_deleted = rels_deleted = 0
    with driver.session(database=database) as session:
        for nt in schema.NODE_TYPES:
            ids = [r["id"] for r in session.run(f"MATCH (n:{nt.label}) RETURN n.id AS id")]
            gone = [i for i in ids if not (i in g and g.nodes[i].get("type") == nt.label)]
            n, r = _delete_nodes(session, nt.label, gone, batch_size)
            nodes_deleted, rels_deleted = nodes_deleted + n, rels_deleted + r
        for rt in schema.REL_TYPES:
            pairs = [(r["a"], r["b"]) for r in session.run(
                f"MATCH (a:{rt.source})-[:{rt.name}]->(b:{rt.target}) RETURN a.id AS a, b.id AS b")]
            rels_deleted += _delete_links(session, [(a, rt.name, b) for a, b in pairs
                                                    if not g.has_edge(a, b, key=rt.name)], batch_size)
    return nodes_deleted, rels_deleted


def held_beyond(driver: Driver, g: nx.MultiDiGraph, database: str = "neo4j") -> tuple[int, int]:
    """(papers, other nodes of kg's labels) that the database holds besides those of ``g``, once ``g`` is loaded."""
    in_g = Counter(d["type"] for _, d in g.nodes(data=True))
    papers = others = 0
    with driver.session(database=database) as session:
        for nt in schema.NODE_TYPES:
            held = session.run(f"MATCH (n:{nt.label}) RETURN count(n) AS n").single()["n"]
            extra = max(held - in_g[nt.label], 0)
            if nt is schema.PAPER:
                papers = extra
            else:
                others += extra
    return papers, others


def fill_empty_lists(driver: Driver, database: str = "neo4j", batch_size: int = 10000) -> int:
    """Give each of kg's nodes that lacks a list property the empty list ``kg load`` stores for it (``neo4j-admin
    database import`` reads an empty list as no value); returns how many properties it set."""
    filled = 0
    with driver.session(database=database) as session:
        for nt in schema.NODE_TYPES:
            for prop in (p for p in nt.properties if schema.PROPERTY_TYPES.get(p) == "list"):
                query = (f"MATCH (n:{nt.label}) WHERE n[$key] IS NULL WITH n LIMIT $limit SET n.{prop} = [] "
                         "RETURN count(*) AS n")  # (n[$key]: no warning where no node has the property yet)
                while done := session.execute_write(
                        lambda tx: tx.run(query, key=prop, limit=batch_size).single()["n"]):
                    filled += done
    return filled


def bulk_import(csv_dir: Path, *, database: str = "neo4j", neo4j_admin: str = "neo4j-admin") -> str:
    """First load of a big graph: ``neo4j-admin database import full`` on the CSVs that ``kg build`` wrote to
    ``DIR/neo4j`` (the server must be stopped; the database is replaced). Returns the tool's output."""
    import shutil
    import subprocess

    from kg.sinks.neo4j_csv import IMPORT_OPTIONS

    exe = shutil.which(neo4j_admin) or neo4j_admin
    if not Path(exe).is_file():
        raise StoreError(f"no neo4j-admin at '{neo4j_admin}' (set --neo4j-admin or NEO4J_ADMIN)")
    args = [exe, "database", "import", "full", database, *IMPORT_OPTIONS]
    args += [f"--nodes={f.name}" for f in sorted(csv_dir.glob("nodes_*.csv"))]
    args += [f"--relationships={f.name}" for f in sorted(csv_dir.glob("rels_*.csv"))]
    proc = subprocess.run(args, cwd=csv_dir, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise StoreError(f"neo4j-admin import failed (is the server stopped?): {' | '.join(tail)}")
    return proc.stdout


def apply_schema(driver: Driver, database: str = "neo4j") -> None:
    """Create the constraints and indexes of ``cypher/schema.cypher`` (idempotent)."""
    with driver.session(database=database) as session:
        for stmt in schema_statements():
            session.run(stmt).consume()


def wipe(driver: Driver, database: str = "neo4j") -> int:
    """Delete every node and relationship (in batches); returns the number of nodes deleted."""
    deleted = 0
    with driver.session(database=database) as session:
        while True:
            n = session.run("MATCH (n) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS n").single()["n"]
            deleted += n
            if n == 0:
                return deleted


def counts(driver: Driver, database: str = "neo4j") -> tuple[int, int]:
    """(nodes, relationships) in the database."""
    with driver.session(database=database) as session:
        n = session.run("MATCH (n) RETURN count(n) AS n").single()["n"]
        r = session.run("MATCH ()-[r]->() RETURN count(r) AS n").single()["n"]
    return n, r


def progress_bar(label: str, done: int, total: int) -> None:
    """A one-line progress bar on stderr; where stderr is no terminal (a log file), one plain line per finished
    kind instead of the bar's redrawn frames."""
    if not sys.stderr.isatty():
        if done >= total:
            print(f"loading {label}: {done}/{total}", file=sys.stderr, flush=True)
        return
    width = 30
    filled = int(width * done / max(total, 1))
    end = "\n" if done >= total else ""
    print(f"\rloading [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label:<12}", end=end, file=sys.stderr,
          flush=True)
