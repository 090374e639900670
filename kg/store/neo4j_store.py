"""Load a kg graph into Neo4j: schema first, then ``UNWIND`` batches of ``CREATE`` for what is new and ``MERGE``
for the rest.

Idempotent: nodes merge on ``id``, relationships on (start, type, end), so a second load changes nothing and a
load interrupted half way can simply be run again. Values always travel as query parameters; labels and
relationship types are interpolated only from ``kg.schema``, never from data.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import networkx as nx
from neo4j import Driver, GraphDatabase
from neo4j.exceptions import AuthError, ClientError, Neo4jError, ServiceUnavailable

from kg import schema
from kg.store.queries import CYPHER_DIR
from kg.store.rows import batches, node_rows, rel_rows

SCHEMA_FILE = CYPHER_DIR / "schema.cypher"
SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")  # what kg connects with (Bolt)


class StoreError(Exception):
    """A store problem with a one-line message for the user (server down, bad credentials, unknown database)."""


@dataclass
class LoadStats:
    nodes_created: int = 0
    nodes_matched: int = 0
    rels_created: int = 0
    rels_matched: int = 0
    per_type: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        return (f"nodes: {self.nodes_created} created, {self.nodes_matched} matched; "
                f"relationships: {self.rels_created} created, {self.rels_matched} matched")


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
        raise StoreError(f"cannot reach Neo4j at {where}: {str(exc).splitlines()[0]}") from None
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
    extra = f", n:{schema.BENCHMARK_LABEL}" if benchmark else ""
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


def load_graph_into(driver: Driver, g: nx.MultiDiGraph, *, database: str = "neo4j", batch_size: int = 1000,
                    per_row: bool = False, progress: Callable[[str, int, int], None] | None = None) -> LoadStats:
    """Apply the schema and merge every node and relationship of ``g``; returns created/matched counts.

    Nodes that the database does not hold yet (one lookup of their ids first) are created, and so are the
    relationships that touch one of them, since none can exist yet; only the rest go through ``MERGE``. A node
    that another load creates in between fails the uniqueness constraint, so nothing is ever duplicated.
    ``per_row``: one ``MERGE`` statement per row instead (the slow baseline of ``kg bench load``)."""
    stats = LoadStats()
    apply_schema(driver, database)
    nodes, rels = node_rows(g), rel_rows(g)
    new: set[str] = set()
    if not per_row:
        for nr in nodes:
            ids = [r["id"] for r in nr.rows]
            new.update(set(ids) - existing_ids(driver, nr.type.label, ids, database=database))
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
    ends up exactly like a fresh load of ``g``; returns (nodes deleted, relationships deleted)."""
    nodes_deleted = rels_deleted = 0
    with driver.session(database=database) as session:
        for nt in schema.NODE_TYPES:
            ids = [r["id"] for r in session.run(f"MATCH (n:{nt.label}) RETURN n.id AS id")]
            gone = [i for i in ids if not (i in g and g.nodes[i].get("type") == nt.label)]
            for chunk in batches(gone, batch_size):
                session.execute_write(lambda tx: tx.run(
                    f"UNWIND $ids AS id MATCH (n:{nt.label} {{id: id}}) DETACH DELETE n", ids=chunk).consume())
            nodes_deleted += len(gone)
        for rt in schema.REL_TYPES:
            pairs = [(r["a"], r["b"]) for r in session.run(
                f"MATCH (a:{rt.source})-[:{rt.name}]->(b:{rt.target}) RETURN a.id AS a, b.id AS b")]
            gone = [{"a": a, "b": b} for a, b in pairs if not g.has_edge(a, b, key=rt.name)]
            for chunk in batches(gone, batch_size):
                session.execute_write(lambda tx: tx.run(
                    f"UNWIND $rows AS row MATCH (:{rt.source} {{id: row.a}})-[r:{rt.name}]->(:{rt.target} {{id: row.b}}) "
                    "DELETE r", rows=chunk).consume())
            rels_deleted += len(gone)
    return nodes_deleted, rels_deleted


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
    """A one-line progress bar on stderr."""
    width = 30
    filled = int(width * done / max(total, 1))
    end = "\n" if done >= total else ""
    print(f"\rloading [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label:<12}", end=end, file=sys.stderr, flush=True)
