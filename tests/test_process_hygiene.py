"""A killed ``kg build`` leaves no process behind and nothing writing into --out: real builds, real signals.

The build runs in a session of its own, so every process it starts (the fork server, the resource tracker, the
extraction workers, the process loading the store, the forked view writers) is found by its session id in /proc,
whatever its parent is now.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kg.bench.synthetic import synthetic_corpus
from kg.build.cache import paper_line

ROOT = Path(__file__).resolve().parents[1]
# kg build as a user runs it, with the store loaded beside the views (as from 5,000 papers) on a small corpus
BUILD = ("import sys\nimport kg.build.builder as b\nb.PARALLEL_PAPERS = 1\nfrom kg.cli import main\n"
         "sys.exit(main(sys.argv[1:]))")
PAPERS = 250

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the processes")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "papers.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for p in synthetic_corpus(PAPERS, seed=3):
            fh.write(paper_line(p))
    return path


def session(sid: int) -> list[tuple[int, str]]:
    """The live processes of session ``sid``: (pid, command line)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, session, ...
            if int(fields[3]) == sid and fields[0] not in "ZX":
                found.append((int(name), Path(f"/proc/{name}/cmdline").read_text().replace("\0", " ")))
        except (OSError, ValueError):
            continue
    return found


def files(out: Path) -> dict[str, tuple[int, int]]:
    return {str(f.relative_to(out)): (f.stat().st_size, f.stat().st_mtime_ns)
            for f in out.rglob("*") if f.is_file()}


def start(corpus: Path, out: Path, workers: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", BUILD, "build", str(corpus), "--out", str(out), "--workers",
                             str(workers), "--max-views", "0"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


def wait_for(proc: subprocess.Popen, stage: str) -> None:
    for line in proc.stderr:
        if line.startswith(stage):
            return
    pytest.fail(f"the build ended before {stage!r}")


@pytest.mark.parametrize("stage, delay, signum, workers, group", [
    ("extracting", 1.5, signal.SIGKILL, 2, False),  # the fork server, its extraction workers, the resource tracker
    ("views", 0.5, signal.SIGKILL, 1, False),  # ... the process loading the store, the forked view writer
    ("views", 0.5, signal.SIGTERM, 1, False),  # as kill: the build ends them, then exits (143)
    ("extracting", 1.5, signal.SIGTERM, 2, True),  # as timeout or systemd: to every process of the build at once
    ("views", 0.5, signal.SIGINT, 1, False),  # as Ctrl-C, to the build alone: it ends them
])
def test_no_process_outlives_a_killed_build(corpus, tmp_path, stage, delay, signum, workers, group):
    out = tmp_path / "out"
    proc = start(corpus, out, workers)
    try:
        wait_for(proc, stage)
        time.sleep(delay)
        assert len(session(proc.pid)) > 2, "the build has no child processes to kill yet"
        (os.killpg if group else os.kill)(proc.pid, signum)  # (the build leads its own session and group)
        proc.wait(timeout=20)
        polite = signum != signal.SIGKILL  # the build ends what it started, then exits
        before = files(out) if polite else None
        deadline = time.monotonic() + 5
        while session(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert session(proc.pid) == [], "processes outlived the build"
        if not polite:  # the kernel ends the children a moment after the build: from then on nothing writes
            before = files(out)
        time.sleep(0.5)
        assert files(out) == before, "something wrote into --out after the build had gone"
        assert not (out / "graph.json").exists()  # an unfinished build publishes nothing
        if polite:
            assert not list(out.glob(".kg-new-*")), "the build left its unpublished output"
            assert proc.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[signum]
            err = proc.stderr.read()
            assert "Traceback" not in err and "Warning" not in err, err
    finally:
        for pid, _ in session(proc.pid):
            os.kill(pid, signal.SIGKILL)
        proc.stderr.close()


def test_ctrl_c_as_extraction_workers_start_is_quiet(corpus, tmp_path):
    """Ctrl-C reaches every process of the terminal's group: the fork server and its workers leave it to the build,
    and a worker that starts as the build ends says nothing (it printed tracebacks)."""
    proc = start(corpus, tmp_path / "out", 2)
    try:
        wait_for(proc, "extracting")
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)
        err = proc.stderr.read()
        assert proc.wait(timeout=20) == 130
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
        deadline = time.monotonic() + 5
        while session(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert session(proc.pid) == []
    finally:
        for pid, _ in session(proc.pid):
            os.kill(pid, signal.SIGKILL)
        proc.stderr.close()


def test_a_build_ending_in_the_middle_of_a_request_leaves_the_fork_server_quiet():
    """A build that ends as it asks the fork server for a process (a pool replacing the workers the build has just
    ended) leaves the server half a request: it ends as the build has, without a traceback on the build's terminal."""
    script = ("import os, socket, time\nfrom multiprocessing import forkserver\n"
              "from kg.build.lifeline import start_forkserver\nstart_forkserver(['kg'])\n"
              "s = socket.socket(socket.AF_UNIX)\ns.connect(forkserver._forkserver._forkserver_address)\n"
              "time.sleep(0.3)\nos._exit(0)\n")  # (the server has taken the request and waits for what it holds)
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          start_new_session=True)  # (returns once the server, which shares stderr, has ended too)
    assert proc.returncode == 0
    assert proc.stderr == ""
