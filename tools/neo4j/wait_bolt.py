"""Wait until a Neo4j server answers on Bolt; used by scripts/neo4j-up.sh.

    python wait_bolt.py URI TIMEOUT_SECONDS [PID]

With the ``neo4j`` driver importable, "ready" means a real ``RETURN 1`` on the default
database succeeded (user ``neo4j``, password from ``NEO4J_PASSWORD``, no auth if unset).
Without it, a raw Bolt handshake must be accepted.

Exit codes: 0 ready, 2 timed out, 3 authentication rejected, 4 server process died.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from urllib.parse import urlparse


def _alive(pid: int | None) -> bool:
    if pid is None:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _handshake(host: str, port: int) -> bool:
    """Bolt preamble + four version proposals (5.0-5.4, 4.4); True if the server agrees on one."""
    proposal = bytes.fromhex("6060B017" "00040405" "00000404" "00000000" "00000000")
    with socket.create_connection((host, port), timeout=2) as s:
        s.settimeout(2)
        s.sendall(proposal)
        reply = b""
        while len(reply) < 4:
            chunk = s.recv(4 - len(reply))
            if not chunk:
                return False
            reply += chunk
    return reply != b"\x00\x00\x00\x00"


def main() -> int:
    uri, timeout = sys.argv[1], float(sys.argv[2])
    pid = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else None
    parsed = urlparse(uri)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or 7687
    password = os.environ.get("NEO4J_PASSWORD") or None

    try:
        import logging

        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError

        logging.getLogger("neo4j").setLevel(logging.CRITICAL)
        use_driver = True
    except ImportError:
        use_driver = False

    deadline = time.monotonic() + timeout
    last_error = "no attempt yet"
    while True:
        if not _alive(pid):
            print(f"server process {pid} exited while waiting for {uri}", file=sys.stderr)
            return 4
        try:
            if use_driver:
                auth = ("neo4j", password) if password else None
                with GraphDatabase.driver(uri, auth=auth, connection_timeout=3,
                                          connection_acquisition_timeout=5) as driver:
                    with driver.session() as session:
                        value = session.run("RETURN 1 AS ok").single()["ok"]
                if value == 1:
                    return 0
            elif _handshake(host, port):
                return 0
        except Exception as exc:  # noqa: BLE001 - anything but auth means "not ready yet"
            if use_driver and isinstance(exc, AuthError):
                print(f"authentication rejected by {uri}: {exc}", file=sys.stderr)
                return 3
            last_error = f"{type(exc).__name__}: {exc}"
        if time.monotonic() >= deadline:
            print(f"timed out after {timeout:.0f}s waiting for {uri} (last error: {last_error})",
                  file=sys.stderr)
            return 2
        time.sleep(0.5)


if __name__ == "__main__":
    sys.exit(main())
