"""Extraction on a Dask cluster (``kg build ... --dask tcp://scheduler:8786`` or ``--dask local:N``).

The corpus is split into partitions; each worker parses the spaCy pipeline once (it is cached per process)
and extracts its partitions. Results stream back as JSONL shards, written next to the client when the cluster
is local, else returned through Dask, and are merged in input order, so the graph is identical to a local run.
A few partitions per worker are in flight at a time, so the client holds neither the corpus nor all results.
Workers need kg installed (``pip install kg``; the pipeline and gazetteers ship inside the package): a packaged
mode's pipeline is named to them by mode, and each worker reads it from its own installation.
"""
from __future__ import annotations

import collections
import json
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from kg.build.cache import extraction_from_json, extraction_to_json
from kg.errors import ClusterError
from kg.model import Extraction, Paper
from kg.nlp.settings import config_settings, with_settings

PARTITION = 256
CONNECT_TIMEOUT = "20s"


def portable_config(config: str) -> str:
    """``mode:NAME`` for a packaged mode's config (a worker finds it in its own installation, wherever that
    is), else the path itself (a config of the user's own must then be at that path on every worker), with the
    settings over it (:mod:`kg.nlp.settings`: the files a ``--stoplist`` or ``--types`` names must be
    at their paths on every worker too)."""
    from kg.nlp.pipeline import MODES

    path, settings = config_settings(config)
    for mode, packaged in MODES.items():
        if path and Path(path).resolve() == Path(packaged).resolve():
            return with_settings(f"mode:{mode}", settings)
    return config


def _local_config(config: str) -> str:
    from kg.nlp.pipeline import config_path

    path, settings = config_settings(config)
    return with_settings(config_path(path[len("mode:"):]), settings) if path.startswith("mode:") else config


def _extract_partition(papers: list[Paper], shard: str | None, config: str = "",
                       batch_size: int | None = None) -> str | list[dict]:
    """Runs on a worker: extract a partition; write it as a JSONL shard (returned by path) or return the records.
    ``batch_size``: abstracts per batch (default: ``kg.nlp.extract.BATCH_SIZE``)."""
    from kg.nlp.extract import BATCH_SIZE, extract

    records = [extraction_to_json(ex) for _, ex in extract(papers, batch_size=batch_size or BATCH_SIZE,
                                                            config=_local_config(config))]
    if shard is None:
        return records
    with open(shard, "w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    return shard


def _client(address: str):
    from dask.distributed import Client, LocalCluster

    if address.startswith("local:"):
        n = address.split(":", 1)[1] or "2"
        if not n.isdigit() or int(n) < 1:
            raise ClusterError(f"--dask {address}: local:N takes a number of workers, 1 or more")
        cluster = LocalCluster(n_workers=int(n), threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster), cluster
    try:
        return Client(address, timeout=CONNECT_TIMEOUT), None
    except (OSError, ValueError, TypeError) as exc:  # no scheduler there, or not an address
        raise ClusterError(f"--dask {address}: no Dask scheduler answers there ({str(exc).splitlines()[0]})") from None


def extract_on_dask(papers: Sequence[Paper], address: str, *, partition: int = PARTITION,
                    batch_size: int | None = None, config: str = "") -> Iterator[tuple[Paper, Extraction]]:
    """Extract ``papers`` on the Dask scheduler at ``address`` (or a local cluster ``local:N``), yielding them in
    input order as their partitions finish. A few partitions per worker are in flight at a time: the client never
    holds more of the corpus than those, nor more results than one partition's."""
    if not len(papers):
        return
    client, cluster = _client(address)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        partition = max(1, min(partition, -(-len(papers) // (2 * workers))))  # at least two partitions per worker
        starts = iter(range(0, len(papers), partition))
        with tempfile.TemporaryDirectory(prefix="kg-shards-") as tmp:
            local = cluster is not None  # shards on a shared disk only when the workers are on this machine
            spec = portable_config(config)
            in_flight: collections.deque = collections.deque()

            def submit() -> None:
                start = next(starts, None)
                if start is None:
                    return
                part = list(papers[start : start + partition])
                shard = str(Path(tmp) / f"part-{start:010d}.jsonl") if local else None
                in_flight.append((part, client.submit(_extract_partition, part, shard, spec, batch_size, pure=False)))

            for _ in range(2 * workers + 1):
                submit()
            while in_flight:  # in order; each result is read as soon as it is done, and another partition goes out
                part, future = in_flight.popleft()
                result = future.result()
                submit()
                records = result if isinstance(result, list) else [
                    json.loads(line) for line in Path(result).read_text(encoding="utf-8").splitlines() if line.strip()]
                if not isinstance(result, list):
                    Path(result).unlink()
                for p, r in zip(part, records):
                    yield p, extraction_from_json(p.id, r)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
