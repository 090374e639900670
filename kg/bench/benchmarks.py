"""Benchmarks outside the default test run: ``kg bench`` (extraction and build on a synthetic corpus),
``kg bench load`` (Neo4j and the embedded store) and ``kg bench related`` (precision of the related-work ranking
against gold datasets). Their options are parsed in :mod:`kg.cli.bench`."""
from __future__ import annotations

import itertools
import json
import tempfile
import time
from pathlib import Path

import networkx as nx
import numpy

from kg import compiled, schema
from kg.store.embedded import write_ladybug
from kg.store.neo4j_store import Neo4jConfig, connect, counts, load_graph_into, wipe
from kg.bench.synthetic import synthetic_graph


def _sample(g: nx.MultiDiGraph, rels: int) -> nx.MultiDiGraph:
    """The first papers of ``g`` with their concepts, until about ``rels`` relationships."""
    keep: set = set()
    n = 0
    for p, d in g.nodes(data=True):
        if d["type"] != "Paper":
            continue
        out = list(g.out_edges(p, keys=True))
        keep.add(p)
        keep.update(v for _, v, _ in out)
        n += len(out)
        if n >= rels:
            break
    return g.subgraph(keep).copy()


def bench_load(papers: int, cfg: Neo4jConfig, *, batch_size: int = 1000, per_row_rels: int = 2000, seed: int = 0) -> dict:
    """Load a synthetic graph batched (twice: into a server that has just started, then again into the wiped
    database, once the server's code is warm), a sample of it one MERGE per row, and build the embedded store."""
    t = time.perf_counter()
    g = synthetic_graph(papers, seed)
    gen_s = time.perf_counter() - t
    driver = connect(cfg)
    try:
        wipe(driver, cfg.database)
        t = time.perf_counter()
        load_graph_into(driver, g, database=cfg.database, batch_size=batch_size)
        batched_s = time.perf_counter() - t
        assert counts(driver, cfg.database) == (g.number_of_nodes(), g.number_of_edges())
        wipe(driver, cfg.database)
        t = time.perf_counter()
        load_graph_into(driver, g, database=cfg.database, batch_size=batch_size)
        warm_s = time.perf_counter() - t
        sample = _sample(g, per_row_rels)
        wipe(driver, cfg.database)
        t = time.perf_counter()
        load_graph_into(driver, sample, database=cfg.database, per_row=True)
        per_row_s = time.perf_counter() - t
        wipe(driver, cfg.database)
        t = time.perf_counter()
        load_graph_into(driver, sample, database=cfg.database, batch_size=batch_size)
        sample_batched_s = time.perf_counter() - t
        wipe(driver, cfg.database)
    finally:
        driver.close()
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        write_ladybug(g, Path(tmp) / "graph.lbug")
        lbug_s = time.perf_counter() - t
    return {
        "papers": papers, "nodes": g.number_of_nodes(), "relationships": g.number_of_edges(), "generate_s": round(gen_s, 2),
        "batch_size": batch_size, "batched_load_s": round(batched_s, 2),
        "batched_rels_per_s": round(g.number_of_edges() / batched_s), "warm_load_s": round(warm_s, 2),
        "warm_rels_per_s": round(g.number_of_edges() / warm_s), "per_row_sample_rels": sample.number_of_edges(),
        "per_row_load_s": round(per_row_s, 2), "per_row_rels_per_s": round(sample.number_of_edges() / per_row_s),
        "sample_batched_rels_per_s": round(sample.number_of_edges() / sample_batched_s),
        "embedded_store_s": round(lbug_s, 2),
    }


SINKS = ("export_json", "export_graphml", "export_csv", "export_related", "export_embedded_store")


class TreeMemory:
    """Peak memory of this process and all its descendants together (extraction workers, the CSV and store writer, view
    writers), sampled every ``interval`` seconds from Linux ``/proc``: the sum of their PSS (shared pages divided
    among the processes that share them), so forked copies are not counted twice."""

    def __init__(self, interval: float = 1.0) -> None:
        import threading

        self.interval, self.peak_mb, self.peak_child_mb, self.samples = interval, 0.0, 0.0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "TreeMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            total, child = tree_pss_mb()
            if total:
                self.peak_mb, self.samples = max(self.peak_mb, total), self.samples + 1
                self.peak_child_mb = max(self.peak_child_mb, child)
            self._stop.wait(self.interval)


def tree_pss_mb(root: int | None = None) -> tuple[float, float]:
    """The PSS of process ``root`` (this one) and its descendants summed, and the largest of one descendant
    alone (an extraction worker, the CSV and store writer), in MB; 0 where /proc has no PSS."""
    import os

    root = root or os.getpid()
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    ppid = int(fh.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, largest, todo = 0, 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as fh:
                for line in fh:
                    if line.startswith(b"Pss:"):
                        kb = int(line.split()[1])
                        total += kb
                        largest = max(largest, kb) if pid != root else largest
                        break
        except OSError:
            continue
    return total / 1024, largest / 1024


PAIRED_DOCS = 2000
PAIRED_CHUNK = 500  # two of the pipeline's batches (kg.nlp.extract.BATCH_SIZE = 256), the last one partial


def paired_ratio(corpus: str, docs: int = PAIRED_DOCS, batch_size: int | None = None, mode: str = "default") -> dict:
    """Blank-tokenizer time over extraction time for the first ``docs`` texts of a JSONL ``corpus``, timed chunk
    by chunk in turn (tokenizer, then the default pipeline, on the same ``PAIRED_CHUNK`` texts, after one untimed
    pass of each): on a machine whose speed drifts (a shared VM varies 10-20% between runs) both figures see the
    same conditions. ``batch_size``: both sides' (default: the pipeline's, ``kg.nlp.extract.BATCH_SIZE``)."""
    import spacy

    from kg.model import Paper
    from kg.nlp.extract import BATCH_SIZE, extract
    from kg.nlp.pipeline import config_path, load_pipeline

    batch_size = batch_size or BATCH_SIZE

    with open(corpus, encoding="utf-8") as fh:
        records = [json.loads(line) for line in itertools.islice(fh, docs)]
    texts = [r["text"] for r in records]
    # kg also reads the titles when the corpus has them (the tokenizer's side stays the abstracts alone)
    papers = [Paper(id=str(i), text=r["text"], title=r.get("title")) for i, r in enumerate(records)]
    blank, nlp = spacy.blank("en"), load_pipeline(config_path(mode))
    # Both read the whole sample once first: the timed pass compares warm tokenizer caches (a cold cache alone
    # slows the blank tokenizer by a third on a 2,000-text sample, which would flatter the ratio).
    for _ in blank.pipe(texts, batch_size=batch_size):
        pass
    for _ in extract(papers, nlp, batch_size=batch_size):
        pass
    tok_s = ext_s = 0.0
    for at in range(0, len(papers), PAIRED_CHUNK):
        t = time.perf_counter()
        for _ in blank.pipe(texts[at : at + PAIRED_CHUNK], batch_size=batch_size):
            pass
        tok_s += time.perf_counter() - t
        t = time.perf_counter()
        for _ in extract(papers[at : at + PAIRED_CHUNK], nlp, batch_size=batch_size):
            pass
        ext_s += time.perf_counter() - t
    return {"docs": len(papers), "ratio": round(tok_s / ext_s, 4) if ext_s else 0.0}


EMBED_DOCS = 1000  # texts whose embedding the bench times


def embed_docs_per_s(texts: list[str]) -> float | None:
    """Texts embedded per second as ``kg build`` embeds them (:func:`kg.related.semantic.embed`, numpy on every
    core), after one untimed batch; None without the encoder."""
    from kg.related import semantic

    if not texts or not semantic.available():
        return None
    semantic.embed(texts[:semantic.BATCH])
    t = time.perf_counter()
    semantic.embed(texts)
    return round(len(texts) / (time.perf_counter() - t), 1)


def _in_fresh_process(fn, *args):
    """``fn(*args)`` in a new interpreter, so the measurement starts from the same state whatever the build left
    in this process (its warmed pipeline, its heap)."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        return pool.submit(fn, *args).result()


def bench_pipeline(docs: int, seed: int = 0, workers: int = 1, mode: str = "default") -> dict:
    """The blank tokenizer's throughput on a synthetic corpus, then ``kg build`` of that corpus (one process, or
    ``workers`` extraction processes) with seconds and memory per stage: reading, extraction, resolution, one
    streaming pass writing every export, and the views. ``mode``: the extraction mode (fast, default, accurate).
    The tokenizer takes batches of the extraction's size (``kg.nlp.extract.BATCH_SIZE``)."""
    import spacy

    from kg.build.builder import Clock, build
    from kg.build.memory import current_rss_mb, peak_rss_mb
    from kg.bench.synthetic import synthetic_corpus
    from kg.nlp.extract import BATCH_SIZE

    with tempfile.TemporaryDirectory(prefix="kg-bench-") as tmp:
        corpus = Path(tmp) / "corpus.jsonl"
        chars = 0
        with corpus.open("w", encoding="utf-8") as fh:  # streamed: the bench holds no corpus of its own
            for p in synthetic_corpus(docs, seed):
                chars += len(p.text)
                fh.write(json.dumps({"id": p.id, "text": p.text}) + "\n")

        def texts():
            with corpus.open(encoding="utf-8") as fh:
                for line in fh:
                    yield json.loads(line)["text"]

        blank = spacy.blank("en")
        list(blank.pipe(itertools.islice(texts(), 50)))  # first-call costs out of the timing
        t = time.perf_counter()
        for _ in blank.pipe(texts(), batch_size=BATCH_SIZE):
            pass
        tok_s = time.perf_counter() - t
        clock = Clock()
        clock.rss_mb["start"] = current_rss_mb()
        t = time.perf_counter()
        with TreeMemory() as tree:  # the texts' embeddings are timed on their own (embed_rate)
            report = build([str(corpus)], Path(tmp) / "out", workers=workers, clock=clock, mode=mode,
                           embeddings=False)
        total_s = time.perf_counter() - t
        paired = _in_fresh_process(paired_ratio, str(corpus), PAIRED_DOCS, BATCH_SIZE, mode)
        embed_rate = embed_docs_per_s(list(itertools.islice(texts(), EMBED_DOCS))) if mode != "fast" else None
    sec = clock.seconds
    ext_s = sec["extract"] - sec["cache_write"] - sec["cache_read"] - sec["resolve"]  # the pipeline's own time
    resolve_s = sec["resolve"] + sec["resolve_finish"]
    exports = {f"{k}_s": round(sec[k], 2) for k in SINKS}
    counts = report.counts()
    return {
        "docs": docs, "workers": workers, "mode": mode, "chars_per_doc": round(chars / max(docs, 1)),
        "compiled": compiled.in_use(),  # the Cython-compiled rules (kg/compiled.py), or their Python source
        "extract_docs_per_s_per_core": round(docs / ext_s / workers, 1),
        "tokenizer_docs_per_s_per_core": round(docs / tok_s, 1), "ratio": round(tok_s / (ext_s * workers), 4),
        # the same ratio from alternating chunks of one sample, so that drifting machine speed cancels out
        "paired_ratio": paired["ratio"], "paired_docs": paired["docs"],
        # a default build also embeds every text for related work (kg.related.semantic), on every core: what
        # that adds to the build above, which leaves it out; None in --fast or without the encoder
        "embed_docs_per_s": embed_rate, "embed_s": round(docs / embed_rate, 1) if embed_rate else None,
        "read_s": round(sec["read"], 2), "extract_s": round(ext_s, 2), "cache_write_s": round(sec["cache_write"], 2),
        # "graph build": resolving concepts plus making the elements (the streaming pass minus the sinks' time)
        "build_s": round(resolve_s + sec["stream"] - sum(sec[f"{k}_elements"] for k in SINKS), 2),
        "resolve_s": round(resolve_s, 2), "stream_s": round(sec["stream"], 2), **exports,
        "views_s": round(sec["views"], 2), "cache_save_s": round(sec["cache_save"], 2), "total_s": round(total_s, 2),
        "nodes": sum(counts.get(t.label, 0) for t in schema.NODE_TYPES),
        "edges": sum(counts.get(r.name, 0) for r in schema.REL_TYPES),
        "peak_rss_mb": round(peak_rss_mb(), 1), "peak_child_pss_mb": round(tree.peak_child_mb, 1),
        # all processes of the build together (sum of PSS, sampled each second; 0 without Linux /proc)
        "peak_total_pss_mb": round(tree.peak_mb, 1),
        # where memory goes: resident MB at the end of each stage, and the peak so far at that point
        "rss_mb": {k: round(v, 1) for k, v in clock.rss_mb.items()},
        "peak_mb": {k: round(v, 1) for k, v in clock.peak_mb.items()},
    }


def related_latency(papers: int, seed: int = 0) -> dict:
    """Seconds ``kg related`` spends on a synthetic graph of ``papers`` papers, answered from the index a build
    writes (``related/``: writing it, then loading it and a query, then a warm query) and from graph.json (reading
    it, the first query, which builds the text index, and a warm one); as through the Python API."""
    import networkx as nx

    from kg.build.jsontext import dumpb
    from kg.related import related, semantic
    from kg.related.index import RelatedIndex
    from kg.sinks.base import feed
    from kg.sinks.related_index import RelatedIndexSink
    from kg.store.rows import load_graph

    def timed(fn):
        t = time.perf_counter()
        fn()
        return round(time.perf_counter() - t, 3)

    g = synthetic_graph(papers, seed)
    ids = sorted(n for n, d in g.nodes(data=True) if d["type"] == "Paper")
    vectors = numpy.random.default_rng(seed).standard_normal((len(ids), semantic.WIDTH)).astype(numpy.float32)
    for p, v in zip(ids, vectors / numpy.linalg.norm(vectors, axis=1, keepdims=True)):  # random text embeddings
        g.nodes[p]["embedding"] = semantic.pack(v)
    out: dict = {"papers": papers}
    with tempfile.TemporaryDirectory() as tmp:
        index_dir = Path(tmp) / "related"
        out["write_index_s"] = timed(lambda: feed(g, RelatedIndexSink(index_dir)))
        out["index_mb"] = round(sum(f.stat().st_size for f in index_dir.iterdir()) / 1e6, 1)
        out["index_load_and_query_s"] = timed(lambda: RelatedIndex.load(index_dir).related(ids[0]))
        index = RelatedIndex.load(index_dir)
        out["index_warm_query_s"] = timed(lambda: index.related(ids[len(ids) // 2]))
        path = Path(tmp) / "graph.json"
        path.write_bytes(dumpb(nx.node_link_data(g, edges="links")))
        out["graph_json_mb"] = round(path.stat().st_size / 1e6, 1)
        t = time.perf_counter()
        g = load_graph(Path(tmp))
        out["load_graph_json_s"] = round(time.perf_counter() - t, 2)
    out["graph_first_query_s"] = timed(lambda: related(g, ids[0]))
    out["graph_warm_query_s"] = timed(lambda: related(g, ids[len(ids) // 2]))
    return out


def related_precision(gold_path: Path, k: int = 5, by: list[str] | None = None,
                      text_weight: float | None = None) -> dict:
    """Precision@k of ``kg related`` on a gold file: a hit is relevant when its gold datasets share one with the query's.

    Papers are built into a graph with kg's own extraction; gold is used only to judge the ranking.
    """
    from kg.build.builder import build
    from kg.train.scorer import normalise
    from kg.related import TEXT_WEIGHT, related, weights_for

    text_weight = TEXT_WEIGHT if text_weight is None else text_weight

    gold = {}
    for line in Path(gold_path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            gold[str(d["id"])] = {normalise(a) for grp in d.get("entities", {}).get("DATASET", []) for a in grp} - {""}
    g = build([str(gold_path)]).graph
    weights = weights_for(by)
    precisions, random_base = [], []
    papers = [n for n, d in g.nodes(data=True) if d["type"] == "Paper"]
    for p in papers:
        pid = p.split(":", 1)[1]
        mine = gold.get(pid, set())
        relevant = {q for q in papers if q != p and gold.get(q.split(":", 1)[1], set()) & mine}
        if not relevant:
            continue
        hits = related(g, p, top=k, weights=weights, text_weight=text_weight, shared_only=by is not None)
        precisions.append(sum(h.paper in relevant for h in hits) / k)
        random_base.append(len(relevant) / (len(papers) - 1))
    return {"gold": str(gold_path), "k": k, "queries": len(precisions), "text_weight": text_weight,
            f"precision_at_{k}": round(sum(precisions) / max(len(precisions), 1), 4),
            "random_precision": round(sum(random_base) / max(len(random_base), 1), 4)}

