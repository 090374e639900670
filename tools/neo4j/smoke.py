"""Smoke test of the server started by scripts/neo4j-up.sh (not part of the pytest suite).

    .venv/bin/python tools/neo4j/smoke.py [bolt://127.0.0.1:7687]

Uses NEO4J_PASSWORD (user neo4j) when set. Checks the version, writes in a transaction,
rolls one back, and checks that a uniqueness constraint rejects a duplicate. Leaves the
database as it found it (only nodes labelled _KgSmoke and the constraint it created).
"""

from __future__ import annotations

import os
import sys

from neo4j import GraphDatabase
from neo4j.exceptions import ConstraintError


def main() -> int:
    uri = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687")
    password = os.environ.get("NEO4J_PASSWORD") or None
    auth = ("neo4j", password) if password else None
    with GraphDatabase.driver(uri, auth=auth) as driver:
        driver.verify_connectivity()
        components = driver.execute_query("CALL dbms.components() YIELD name, versions, edition "
                                          "RETURN name, versions, edition").records
        name, versions, edition = components[0]["name"], components[0]["versions"], components[0]["edition"]
        print(f"server: {name} {versions[0]} {edition}")
        assert versions[0].startswith("5.26."), versions
        assert edition == "community", edition

        driver.execute_query("MATCH (n:_KgSmoke) DETACH DELETE n")
        driver.execute_query("CREATE CONSTRAINT kg_smoke_id IF NOT EXISTS "
                             "FOR (p:_KgSmoke) REQUIRE p.id IS UNIQUE")
        with driver.session() as session:
            with session.begin_transaction() as tx:
                tx.run("CREATE (:_KgSmoke {id: 'a'}), (:_KgSmoke {id: 'b'})")
                tx.commit()
            with session.begin_transaction() as tx:
                tx.run("CREATE (:_KgSmoke {id: 'rolled-back'})")
                tx.rollback()
            count = session.run("MATCH (n:_KgSmoke) RETURN count(n) AS c").single()["c"]
            assert count == 2, count
            try:
                session.run("CREATE (:_KgSmoke {id: 'a'})").consume()
            except ConstraintError:
                print("uniqueness constraint: duplicate rejected")
            else:
                raise AssertionError("duplicate id was accepted")
        driver.execute_query("MATCH (n:_KgSmoke) DETACH DELETE n")
        driver.execute_query("DROP CONSTRAINT kg_smoke_id IF EXISTS")
    print(f"ok: {uri} (node count {count}, transactions, rollback, constraint)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
