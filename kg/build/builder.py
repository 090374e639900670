"""The main job: inputs -> papers -> extractions -> graph -> files and views."""
from __future__ import annotations

import errno
import itertools
import os
import shutil
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from kg import schema
from kg.build.cache import BuildCache, EmbeddingCache, PaperSpool, PaperSubset
from kg.build.elements import Edge, Node, concept_edges, concept_nodes, paper_elements
from kg.build.graph import add_elements, build_graph, new_graph
from kg.build.lifeline import die_with, start_forkserver
from kg.build.memory import build_collector, current_rss_mb, peak_rss_mb, release_memory
from kg.build.outdir import Staging, locked
from kg.build.resolve import Resolution, Resolver
from kg.corpus.readers import PaperSet, read_corpus
from kg.errors import InputWarning, Problem
from kg.model import Extraction, Paper
from kg.nlp.extract import BATCH_SIZE, extract
from kg.nlp.pipeline import config_path
from kg.related import semantic
from kg.sinks import open_sinks
from kg.sinks.base import GraphSink
from kg.viz.website import MAX_VIEWS


# Builds of more papers than this draw their views from a sample; every file still holds the whole graph.
VIEW_PAPERS = 20_000
# From this many papers on, a second process writes the Neo4j CSVs and loads the embedded store while this one
# writes the other files and the views.
PARALLEL_PAPERS = 5_000
# In a sample, each of the most used concepts brings in at most this many of its papers.
SAMPLE_SHARE = 100
Progress = Callable[[str, int, int], None]  # (stage, done, total): how far a build has come


class Clock:
    """Seconds and resident memory per stage of a build (``kg bench`` reads them)."""

    def __init__(self) -> None:
        self.seconds: Counter = Counter()
        self.rss_mb: dict[str, float] = {}
        self.peak_mb: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Seconds, and memory at the end of the stage."""
        try:
            with self.lap(name):
                yield
        finally:
            self.rss_mb[name] = current_rss_mb()
            self.peak_mb[name] = peak_rss_mb()

    @contextmanager
    def lap(self, name: str) -> Iterator[None]:
        """Seconds only, for steps taken once per paper (reading memory each time would cost as much as the step)."""
        t = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] += time.perf_counter() - t


class _Timed(GraphSink):
    """A sink whose time goes to a clock stage."""

    def __init__(self, sink: GraphSink, clock: Clock, name: str) -> None:
        self.sink, self.clock, self.name = sink, clock, name
        self.elements = sink.elements
        self.seconds = 0.0

    def node(self, n: str, d: dict) -> None:
        t = time.perf_counter()
        self.sink.node(n, d)
        self.seconds += time.perf_counter() - t

    def edge(self, u: str, v: str, k: str, d: dict) -> None:
        t = time.perf_counter()
        self.sink.edge(u, v, k, d)
        self.seconds += time.perf_counter() - t

    def paper(self, paper: Paper, ex: Extraction) -> None:
        t = time.perf_counter()
        self.sink.paper(paper, ex)
        self.seconds += time.perf_counter() - t

    def boundary(self) -> bool:
        return self.sink.boundary()

    def close(self) -> list[Path]:
        with self.clock.stage(self.name):
            files = self.sink.close()
        self.clock.seconds[self.name] += self.seconds
        self.clock.seconds[self.name + "_elements"] += self.seconds
        return files


@dataclass
class BuildReport:
    """What a build read, made and wrote. ``graph`` is the whole graph, except for builds of more than
    ``VIEW_PAPERS`` papers into a directory, where it is the sample the views draw (``sampled``)."""

    graph: nx.MultiDiGraph
    papers: int
    problems: list[Problem] = field(default_factory=list)
    extracted: int = 0  # papers extracted by this build (the others came from the cache)
    files: list[Path] = field(default_factory=list)
    totals: Counter | None = None  # nodes per type and edges per type of the whole graph, when counted while written
    sampled: bool = False
    kept: int = 0  # papers of earlier builds into the same directory that this build's inputs do not have

    def counts(self) -> dict[str, int]:
        """Nodes per type and relationships per type (``"benchmark"``: datasets that are benchmarks)."""
        if self.totals is not None:
            return dict(self.totals)
        c = Counter(d.get("type") for _, d in self.graph.nodes(data=True))
        c.update(k for _, _, k in self.graph.edges(keys=True))
        c["benchmark"] = sum(1 for _, d in self.graph.nodes(data=True) if d.get("benchmark"))
        return dict(c)

    def summary(self) -> str:
        c = self.counts()
        concept_types = [t.label for t in schema.NODE_TYPES if t is not schema.PAPER]
        lines = [f"papers      {self.papers}"]
        lines += [f"{t.lower():11} {c.get(t, 0)}" for t in concept_types]
        lines.append(f"benchmarks  {c.get('benchmark', 0)}")
        edges = sum(c.get(r.name, 0) for r in schema.REL_TYPES)
        lines.append(f"edges       {edges}  (" + ", ".join(
            f"{r.name} {c.get(r.name, 0)}" for r in schema.REL_TYPES if c.get(r.name)) + ")")
        if self.extracted != self.papers:
            lines.append(f"extracted   {self.extracted} new or changed abstract(s); {self.papers - self.extracted} from the cache")
        if self.kept:
            lines.append(f"kept        {self.kept} paper(s) of earlier builds that these inputs do not have "
                         "(--prune drops them)")
        skipped = sum(not isinstance(p, InputWarning) for p in self.problems)
        if skipped:
            lines.append(f"problems    {skipped} input record(s) skipped")
        if len(self.problems) > skipped:
            lines.append(f"warnings    {len(self.problems) - skipped} (records read all the same)")
        if self.sampled:
            lines.append(f"views       drawn from a sample of {self.graph.graph.get('sample_papers', 0)} papers")
        return "\n".join(lines)


def iter_extractions(papers: Sequence[Paper], *, workers: int = 1, dask: str | None = None,
                     batch_size: int = BATCH_SIZE, config: str = "") -> Iterator[tuple[Paper, Extraction]]:
    """Run extraction over papers, in input order: in this process, in ``workers`` processes, or on Dask."""
    if dask:
        from kg.build.distributed import extract_on_dask

        yield from extract_on_dask(papers, dask, batch_size=batch_size, config=config)
        return
    if workers > 1 and len(papers):  # the workers' fork server, ignoring Ctrl-C (the build ends its processes)
        start_forkserver(["kg.nlp.extract"])
    yield from extract(papers, batch_size=batch_size, n_process=workers, config=config)


@build_collector()
def build(inputs: Sequence[str], out: str | Path | None = None, *, strict: bool = False, max_nodes: int = 1500,
          max_views: int = MAX_VIEWS, prune: bool = False, workers: int = 1, dask: str | None = None, mode: str = "default",
          view_papers: int = VIEW_PAPERS, on_problem: Callable[[Problem], None] | None = None,
          clock: Clock | None = None, parallel: bool | None = None, progress: Progress | None = None,
          config: str | None = None, embeddings: bool = True) -> BuildReport:
    """Build the knowledge graph of ``inputs``; with ``out``, also write every output file there.

    Building into a directory that holds an earlier build adds the new papers to the earlier ones and extracts
    only abstracts it has not seen (``prune`` drops earlier papers that are not in ``inputs``). The result is
    the same as a build from scratch of all those papers.

    The papers wait in a spool on disk (:class:`kg.build.cache.PaperSpool`). With ``out``, extractions stream to the build
    cache on disk and the graph streams from there into every file, so memory grows with the papers' ids and the
    concepts, not with the texts or the graph; only the views need a
    graph in memory, which is a sample when there are more than ``view_papers`` papers. ``clock`` collects
    seconds and memory per stage. ``mode``: the extraction pipeline, ``fast`` (rules only), ``default`` (rules and
    the linear tagger) or ``accurate`` (rules and the MiniLM-fed NER). ``parallel``: load the embedded store in a
    second process, slice by slice as the Neo4j CSVs are written, then beside the views (default: for
    ``PARALLEL_PAPERS`` papers or more). ``progress(stage, done, total)`` hears how far each stage has come
    (``kg build`` prints it). ``embeddings``: keep each paper's text embedding for related work
    (:mod:`kg.related.semantic`; never in ``fast`` mode, nor without the encoder installed).

    One build at a time writes into ``out``: a build holds its lock (:func:`kg.build.outdir.locked`; another one
    still holding it after a few seconds raises :class:`kg.errors.OutputLocked`), and publishes its files only once
    all are complete (:class:`kg.build.outdir.Staging`).

    >>> report = build(["examples/icml"])          # doctest: +SKIP
    >>> report.graph.number_of_nodes() > 38         # doctest: +SKIP
    True
    """
    stage = clock.stage if clock is not None else (lambda name: nullcontext())
    if out is not None and Path(out).exists() and not Path(out).is_dir():  # before reading or extracting anything
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(out))
    # The papers wait on disk (a spool), not in memory: a million abstracts are about 2.5 GB as objects.
    spools = [PaperSpool()]
    try:
        with stage("read"):
            current = PaperSet(spools[0])
            corpus = read_corpus(inputs, strict=strict, into=current)
        for p in corpus.problems:
            if on_problem:
                on_problem(p)
        if not corpus.papers:  # nothing usable read: an earlier build in ``out`` stays as it was
            return BuildReport(nx.MultiDiGraph(), 0, list(corpus.problems), extracted=0)
        if progress is not None:  # (not "reading 0/0 papers" after the problem that says why)
            progress("reading", len(corpus.papers), len(corpus.papers))
        config = config or config_path(mode)
        embed = embeddings and mode != "fast" and semantic.available()
        if out is None:
            items = list(iter_extractions(current.papers, workers=workers, dask=dask, config=config))
            if embed:
                semantic.embed_extractions(items)
            return BuildReport(build_graph(items), len(current.papers), list(corpus.problems), extracted=len(items))
        with locked(Path(out)):  # one build at a time into a directory (kg.build.outdir)
            return _build_into(Path(out), current, corpus.problems, spools, prune=prune, workers=workers, dask=dask,
                               config=config, embed=embed, max_nodes=max_nodes, max_views=max_views, view_papers=view_papers,
                               parallel=parallel, clock=clock, progress=progress)
    finally:
        for spool in spools:
            spool.close()


def _build_into(out: Path, current: PaperSet, problems: list, spools: list[PaperSpool], *, prune: bool, workers: int,
                dask: str | None, config: str, embed: bool, max_nodes: int, max_views: int, view_papers: int | None,
                parallel: bool | None, clock: Clock | None, progress: Progress | None) -> BuildReport:
    """The papers read, with those of the earlier build in ``out`` (unless ``prune``), built into ``out``."""
    stage = clock.stage if clock is not None else (lambda name: nullcontext())
    cache = BuildCache(out, config)
    papers, kept = current, 0
    with stage("read"):
        previous = cache.saved_papers() if not prune else iter(())
        first = next(previous, None)
        if first is not None:
            # Earlier papers first, as before, but not those the inputs have again: a paper is read as it is
            # now (its text, title, sources), not as the earlier build saw it.
            spools.append(PaperSpool())
            papers = PaperSet(spools[1])
            for p in itertools.chain([first], previous):
                if current.find(p) is None:
                    papers.add(p)
            kept = len(papers.papers)
            for p in current.papers:
                papers.add(p)
    report = _build_cached(papers.papers, cache, problems, out=out, workers=workers, dask=dask,
                           config=config, embed=embed, max_nodes=max_nodes, max_views=max_views,
                           view_papers=view_papers, parallel=parallel, clock=clock, progress=progress)
    report.kept = kept
    return report


def _build_cached(papers: PaperSpool, cache: BuildCache, problems: list, *, out: Path, workers: int,
                  dask: str | None, config: str, embed: bool, max_nodes: int, max_views: int, view_papers: int | None,
                  parallel: bool | None, clock: Clock | None, progress: Progress | None = None) -> BuildReport:
    """Extract what the cache does not hold, resolve in paper order, and write every output into ``out``."""
    stage = clock.stage if clock is not None else (lambda name: nullcontext())
    tell = _Teller(progress)
    lap = clock.lap if clock is not None else (lambda name: nullcontext())
    # (an empty cache holds none of them: no need to read and hash every paper to know, ~9.5 s per million)
    todo = array("q", range(len(papers)) if not cache.offsets else (i for i, p in enumerate(papers) if p not in cache))
    n_papers = len(papers)
    fresh = bytearray(n_papers)
    for i in todo:
        fresh[i] = 1
    resolver = Resolver()
    embeddings = EmbeddingCache(out) if embed else None  # (texts embedded after extraction: kg.related.semantic)
    try:
        with stage("extract"):  # resolution goes along, in paper order, as extractions arrive or are read
            extracted = iter_extractions(PaperSubset(papers, todo), workers=workers, dask=dask, config=config)
            try:
                for i, p in enumerate(papers):
                    tell("extracting", i, n_papers)
                    if fresh[i]:
                        _, ex = next(extracted)
                        with lap("cache_write"):
                            cache.put(p, ex)
                    else:
                        with lap("cache_read"):
                            ex = cache.get(p)
                    with lap("resolve"):
                        resolver.add(ex)
                    if embeddings is not None:
                        with lap("embed"):
                            embeddings.want(p)
                if embeddings is not None:
                    with lap("embed"):
                        embeddings.flush()
            finally:
                extracted.close()  # ends the worker processes now, not when the build is over
            tell("extracting", n_papers, n_papers, last=True)
        with stage("resolve_finish"):
            res = resolver.finish()
        with stage("cache_save"):
            cache.close()  # flushed: the papers come back from its files
            cache.save_papers(papers)
        n_extracted = len(todo)
        if parallel is None:
            parallel = n_papers >= PARALLEL_PAPERS
        # From here on the papers come back one at a time from the cache's pending papers file.
        del todo, fresh
        release_memory()
        pending = cache.saved_papers(pending=True)
        written = write_outputs(res, _embedded(((p, cache.get(p)) for p in pending), embeddings), out,
                                max_nodes=max_nodes, max_views=max_views, view_papers=view_papers, clock=clock,
                                parallel=parallel, progress=progress, papers=n_papers)
    finally:
        cache.close()
    with stage("cache_save"):
        cache.commit_papers()  # (only now: a build stopped before leaves the earlier build's papers)
        cache.compact(cache.saved_papers())
        if embeddings is not None:
            embeddings.keep(cache.saved_papers())
    return BuildReport(written.graph, n_papers, list(problems), extracted=n_extracted,
                       files=written.files, totals=written.totals, sampled=written.sampled)


def _embedded(items: Iterator[tuple[Paper, Extraction]],
              embeddings: EmbeddingCache | None) -> Iterator[tuple[Paper, Extraction]]:
    """``items`` with each extraction's ``embedding``: its paper's text embedding from ``embeddings``, or none."""
    for p, ex in items:
        ex.embedding = embeddings.get(p) if embeddings is not None else None
        yield p, ex


class _Teller:
    """Passes a stage's progress on, every 256 items at most (a million calls would cost a second)."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress

    def __call__(self, stage: str, done: int, total: int, last: bool = False) -> None:
        if self.progress is not None and (last or not done & 255):
            self.progress(stage, done, total)


@dataclass
class Written:
    """What :func:`write_outputs` wrote and counted, and the graph its views drew."""

    files: list[Path]
    totals: Counter
    graph: nx.MultiDiGraph
    sampled: bool


class _Tally(GraphSink):
    """Counts nodes and edges per type (and benchmark datasets) as they stream by."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()

    def node(self, n: str, d: dict) -> None:
        self.counts[d["type"]] += 1
        if d.get("benchmark"):
            self.counts["benchmark"] += 1

    def edge(self, u: str, v: str, k: str, d: dict) -> None:
        self.counts[k] += 1

    def close(self) -> list[Path]:
        return []


class ViewSample:
    """The graph the views draw: the whole graph up to ``limit`` papers; beyond, a sample of at most ``limit``
    papers, each taken because it links to one of the most used concepts (per type, as many as views are
    written) that has brought in fewer than ``share`` papers so far."""

    def __init__(self, res: Resolution, limit: int, max_views: int, share: int = SAMPLE_SHARE) -> None:
        self.graph = new_graph()
        self.limit = limit
        self.sampled = res.papers > limit
        self.taken = 0
        if not self.sampled:
            add_elements(self.graph, concept_nodes(res), concept_edges(res))
            return
        self.concepts = dict(concept_nodes(res))
        by_type: dict[str, list[str]] = {}
        for n, d in self.concepts.items():
            by_type.setdefault(d["type"], []).append(n)
        top = max(max_views, 100)
        self.quota = {n: share for nodes in by_type.values()
                      for n in sorted(nodes, key=lambda n: -self.concepts[n]["papers"])[:top]}

    def add(self, nodes: list[Node], edges: list[Edge]) -> None:
        if not self.sampled:
            add_elements(self.graph, nodes, edges)
            return
        wanted = {v for _, v, _, _ in edges if self.quota.get(v, 0) > 0}
        if not wanted or self.taken >= self.limit:
            return
        self.taken += 1
        for v in wanted:
            self.quota[v] -= 1
        for _, v, _, _ in edges:
            if v not in self.graph and v in self.concepts:
                self.graph.add_node(v, **self.concepts[v])
        add_elements(self.graph, nodes, edges)
        self.graph.graph["sample_papers"] = self.taken


def _load_store(inbox, csv_dir: Path, path: Path, forward_only: bool) -> tuple[list[Path], dict[str, float]]:
    """In another process: load the embedded store ``path`` slice by slice as the build writes the Neo4j CSVs
    into ``csv_dir``; each message from ``inbox`` is a slice, None the end. (files, seconds spent loading)."""
    from kg.store.embedded import StoreLoader

    t = time.perf_counter()
    try:
        with StoreLoader(csv_dir, path, forward_only, growing=True) as loader:
            busy = time.perf_counter() - t
            while (part := inbox.recv()) is not None:
                t = time.perf_counter()
                loader.add(part)
                busy += time.perf_counter() - t
            t = time.perf_counter()
            loader.finish()
            busy += time.perf_counter() - t
    finally:
        inbox.close()
    return [path], {"export_embedded_store": busy}


def _send(sinks: Sequence[GraphSink], nodes: Iterable[Node], edges: Iterable[Edge] = ()) -> None:
    """Elements into every sink, element by element (so every sink reuses the evidence's JSON, ``json_text``)."""
    for n, d in nodes:
        for s in sinks:
            s.node(n, d)
    for u, v, k, d in edges:
        for s in sinks:
            s.edge(u, v, k, d)


@build_collector()
def _run_side(send, owner: int, fn: Callable, *args) -> None:
    """The body of a :class:`SideJob`'s process: ``fn(*args)``'s result or exception goes back through ``send``.
    It ends as soon as the process that started it (``owner``, the build) ends."""
    die_with(owner)  # its parent is the fork server, which outlives the build for a moment
    try:
        result = (True, fn(*args))
    except BaseException as e:  # noqa: BLE001 - re-raised in the parent
        import traceback

        result = (False, RuntimeError(f"{type(e).__name__}: {e}\n{traceback.format_exc()}"))
    send.send(result)
    send.close()


class SideJob:
    """``fn(*args)`` in a process started by the fork server (a fork of this process would carry, and copy, all
    it holds), with its result sent back through a pipe. Unlike a process pool, it leaves no thread behind in
    this process, which can then still fork its own workers (the views'). With ``inbox``, ``fn`` gets the
    receiving end of another pipe as its first argument, and :meth:`send` writes to it."""

    def __init__(self, fn: Callable, *args, inbox: bool = False) -> None:
        from multiprocessing import get_context

        start_forkserver(["kg.build.builder"])  # (when extraction has not started it)
        context = get_context("forkserver")
        self.receive, send = context.Pipe(duplex=False)
        self.inbox = None
        if inbox:
            inbox_end, self.inbox = context.Pipe(duplex=False)
            args = (inbox_end, *args)
        self.process = context.Process(target=_run_side, args=(send, os.getpid(), fn, *args), daemon=True)
        self.process.start()
        send.close()
        if inbox:
            inbox_end.close()

    def send(self, message) -> None:
        """``message`` into the job's inbox; the job's error, when it has ended with one, is raised here."""
        try:
            self.inbox.send(message)
        except OSError:  # the job has closed its end: it has ended
            self.result()
            raise RuntimeError("a build process ended before it had all its input") from None

    def result(self):
        """Wait for the result; an exception in the job is raised here."""
        try:
            ok, value = self.receive.recv()
        except EOFError:
            self.process.join()
            raise RuntimeError(f"a build process ended without a result (exit code {self.process.exitcode})") from None
        self.process.join()
        if not ok:
            raise value
        return value

    def cancel(self, grace: float = 0.2) -> None:
        """Stop the job if it still runs (after an error or Ctrl-C in this process): its inbox is closed first, so a
        job reading it ends its input; killed after ``grace`` seconds (what it wrote is in the build's staging
        folder, which goes with it)."""
        if self.inbox is not None:
            self.inbox.close()
        self.process.join(grace)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.receive.close()


def write_outputs(res: Resolution, items: Iterable[tuple[Paper, Extraction]], out: Path, *, max_nodes: int,
                  max_views: int = MAX_VIEWS, view_papers: int = VIEW_PAPERS, clock: Clock | None = None,
                  parallel: bool = False, progress: Progress | None = None, papers: int = 0) -> Written:
    """Write graph.json, graph.graphml, mentions.jsonl, neo4j/*.csv, graph.lbug and views/ into ``out``, streaming
    the graph's elements from ``items`` into every file in one pass. ``parallel``: another process loads the
    embedded store from the Neo4j CSVs a slice at a time as this one writes them, then beside the views (in two
    processes); else the store is loaded after the pass. ``progress`` hears how many of the ``papers`` have been
    written, then of the views. Relationships are stored forward only from ``FORWARD_ONLY_PAPERS`` papers.

    Everything is written into a staging folder of ``out`` and moved into place once complete
    (:class:`kg.build.outdir.Staging`): until then ``out`` holds the earlier build's files, and a failed or
    stopped build leaves them as they were."""
    from kg.store.embedded import FORWARD_ONLY_PAPERS

    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("kg-lbug-*"):  # what a load stopped by an earlier version left
        shutil.rmtree(stale, ignore_errors=True)
    staging = Staging(out)
    new = staging.dir  # where the files go until they are complete
    graph_attrs = new_graph().graph
    tally = _Tally()
    side = None
    published = False
    try:
        named = open_sinks(new, graph_attrs)
        store, forward_only = new / "graph.lbug", papers >= FORWARD_ONLY_PAPERS
        side = SideJob(_load_store, new / "neo4j", store, forward_only, inbox=True) if parallel else None
        written = _write_all(res, items, new, named, tally, side, store, forward_only, max_nodes=max_nodes,
                             max_views=max_views, view_papers=view_papers, clock=clock, progress=progress,
                             papers=papers)
        side = None  # it has ended
        staging.publish()
        published = True
    finally:
        if side is not None:
            side.cancel()
        if not published:
            staging.discard()
    written.files = [staging.final(f) for f in written.files]
    return written


def _write_all(res: Resolution, items: Iterable[tuple[Paper, Extraction]], out: Path, named: dict[str, GraphSink],
               tally: _Tally, side: SideJob | None, store: Path, forward_only: bool, *, max_nodes: int, max_views: int,
               view_papers: int, clock: Clock | None, progress: Progress | None, papers: int) -> Written:
    """The body of :func:`write_outputs`, writing into ``out`` (its staging folder): every sink of ``named``, the
    store (in ``side``, when given) and the views."""
    from kg.store.embedded import load_ladybug
    from kg.viz import render_site
    from kg.viz.website import Totals

    csv_sink = named["csv"]  # the embedded store is loaded from its slices
    stage = clock.stage if clock is not None else (lambda name: nullcontext())
    sent = 0  # slices of the CSVs handed to the other process

    def hand_over() -> None:
        nonlocal sent
        for part in csv_sink.slices[sent:]:
            side.send(part)
        sent = len(csv_sink.slices)

    tell = _Teller(progress)
    sinks = [_Timed(s, clock, f"export_{name}") if clock is not None else s for name, s in named.items()]
    element_sinks = [s for s in sinks if s.elements] + [tally]
    views = ViewSample(res, view_papers, max_views)
    with stage("stream"):
        _send(element_sinks, concept_nodes(res), concept_edges(res))
        for i, (paper, ex) in enumerate(items):
            tell("writing", i, papers)
            nodes, edges = paper_elements(paper, ex, res)
            _send(element_sinks, nodes, edges)
            if csv_sink.boundary() and side is not None:
                hand_over()
            views.add(nodes, edges)
            for s in sinks:
                s.paper(paper, ex)
    tell("writing", papers, papers, last=True)
    files = []
    for s in [*sinks, tally]:
        files += s.close()
    if side is not None:
        hand_over()
        side.send(None)
    else:
        tell("store", 0, 1, last=True)
        with stage("export_embedded_store"):
            release_memory()  # the stream's buffers, before the engine takes its own
            files.append(load_ladybug(out / "neo4j", store, csv_sink.slices, forward_only))
        tell("store", 1, 1, last=True)
    totals = Totals(tally.counts[schema.PAPER.label], sum(tally.counts[t.label] for t in schema.NODE_TYPES),
                    sum(tally.counts[r.name] for r in schema.REL_TYPES)) if views.sampled else None
    tell("views", 0, 1, last=True)
    with stage("views"):  # while the other process loads the store; the view writers fork from this one
        files += [v.path for v in render_site(views.graph, out / "views", max_nodes=max_nodes,
                                              max_views=max_views, totals=totals,
                                              workers=2 if side is not None else 1)]
    tell("views", 1, 1, last=True)
    if side is not None:
        tell("store", 0, 1, last=True)
        with stage("wait_side"):
            side_files, seconds = side.result()
        files += side_files
        if clock is not None:
            clock.seconds.update(seconds)
        tell("store", 1, 1, last=True)
    return Written(files, tally.counts, views.graph, views.sampled)
