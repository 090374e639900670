"""A browsable folder of views: an overview, one view per dataset and per proposed method, and an index."""
from __future__ import annotations

import gc
import hashlib
import re
import signal
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import networkx as nx

from kg.schema import DATASET, METHOD, PAPER, PROPOSES
from kg.viz.selection import node_type, paper_usage
from kg.viz.style import display_name
from kg.viz.views import TEMPLATES, PageContext, ViewInfo, write_assets, write_view

SLUG_CHARS = 60


MAX_VIEWS = 200


@dataclass(frozen=True)
class Totals:
    """The whole graph's size, when ``render_site`` draws a sample of it."""

    papers: int
    nodes: int
    edges: int


def render_site(graph: nx.MultiDiGraph, out_dir: Path, *, max_nodes: int = 1500,
                max_views: int = MAX_VIEWS, totals: Totals | None = None, workers: int = 1) -> list[ViewInfo]:
    """Write ``overview.html``, a view per dataset and per proposed method, and ``index.html`` linking them.

    ``max_views`` caps the focused views of each kind to the most used datasets and methods (0: no cap), so the
    site of a big corpus is written in bounded time; ``kg viz`` writes a view of any other.

    The overview inlines vis-network and tom-select, so that one file opens anywhere offline; the many
    focused views share one copy in ``out_dir/assets`` (a local folder, never a CDN), so a site with
    thousands of views stays small. The overview comes first in the returned list.

    ``totals``: ``graph`` is a sample of a bigger graph of that size (the index page says so). ``workers`` > 1
    writes the focused views in that many processes (forked: they read the graph this one holds; they die with
    this one, and an error here ends them at once).
    """
    out_dir = Path(out_dir)
    write_assets(out_dir / "assets")
    all_datasets = sorted((n for n in graph if node_type(graph, n) == DATASET.label), key=lambda n: _sort_key(graph, n))
    all_methods = sorted({v for _, v, k in graph.edges(keys=True) if k == PROPOSES.name
                          and node_type(graph, v) == METHOD.label}, key=lambda n: _sort_key(graph, n))
    datasets = all_datasets[:max_views] if max_views > 0 else all_datasets
    methods = all_methods[:max_views] if max_views > 0 else all_methods
    files = {**view_files(datasets, out_dir / "datasets"), **view_files(methods, out_dir / "methods")}
    context = PageContext(assets=out_dir / "assets", index=out_dir / "index.html", views=files)

    standalone = PageContext(assets=None, index=context.index, views=files)
    jobs = [(kind, n) for kind, nodes in (("dataset", datasets), ("method", methods)) for n in nodes]
    _FORKED.update(graph=graph, files=files, context=context, max_nodes=max_nodes, jobs=jobs)
    forked = workers > 1 and len(jobs) >= 2 * workers
    shares: list[_Share] = []
    if forked:  # the other shares of the views, in forked processes
        gc.freeze()  # their garbage collector then leaves what they inherit alone (touching it would copy it)
    try:
        shares += [_Share(i, workers) for i in range(1, workers if forked else 1)]
        infos = [write_view(graph, out_dir / "overview.html", kind="overview", focus=None, max_nodes=max_nodes,
                            title=None, context=standalone)]
        written = dict(_write_views(0, workers if forked else 1))
        for share in shares:
            written.update(share.result())
    finally:
        _FORKED.clear()
        for share in shares:
            share.end()
        if forked:
            gc.unfreeze()
    rows: dict[str, list[dict[str, object]]] = {"dataset": [], "method": []}
    for i, (kind, n) in enumerate(jobs):
        infos.append(written[i])
        rows[kind].append(_row(graph, n, written[i], out_dir, kind))
    sections = [{"heading": "Datasets", "extra": "Nodes in view", "rows": rows["dataset"], "total": len(all_datasets),
                 "kind": "dataset"},
                {"heading": "Proposed methods", "extra": "Proposed by", "rows": rows["method"], "total": len(all_methods),
                 "kind": "method"}]
    papers = sum(1 for n in graph if node_type(graph, n) == PAPER.label)
    sample = None if totals is None else papers
    if totals is None:
        totals = Totals(papers, graph.number_of_nodes(), graph.number_of_edges())
    page = TEMPLATES.get_template("index.html").render(
        overview=infos[0], papers=totals.papers, graph_nodes=totals.nodes, graph_edges=totals.edges, sections=sections,
        sample=sample,
    )
    (out_dir / "index.html").write_text(page, encoding="utf-8")
    return infos


_FORKED: dict = {}  # what forked view writers inherit (set just before the fork)


def _write_views(share: int, shares: int) -> list[tuple[int, ViewInfo]]:
    """Write every ``shares``-th focused view, starting at ``share``; (job number, info) pairs."""
    f = _FORKED
    return [(i, write_view(f["graph"], f["files"][n], kind=kind, focus=n, max_nodes=f["max_nodes"], title=None,
                           context=f["context"]))
            for i, (kind, n) in enumerate(f["jobs"]) if i % shares == share]


class _Share:
    """Every ``shares``-th focused view from ``share`` on, written by a forked process; :meth:`result` is its
    (job number, info) pairs."""

    def __init__(self, share: int, shares: int) -> None:
        context = get_context("fork")
        self.receive, send = context.Pipe(duplex=False)
        self.process = context.Process(target=_write_share, args=(send, share, shares), daemon=True)
        self.process.start()
        send.close()

    def result(self) -> list[tuple[int, ViewInfo]]:
        """Wait for the views; the writer's error is raised here."""
        try:
            ok, value = self.receive.recv()
        except EOFError:
            self.process.join()
            raise RuntimeError(f"a view writer ended without its views (exit code {self.process.exitcode})") from None
        if not ok:
            raise RuntimeError(value)
        return value

    def end(self) -> None:
        """Kill the writer if it still runs (after an error in this process, or Ctrl-C): it writes no more."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.receive.close()


def _write_share(send, share: int, shares: int) -> None:
    """A forked view writer's body: its views, or its error as text, go back through ``send``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it ends this process
    try:
        result = (True, _write_views(share, shares))
    except Exception as e:  # noqa: BLE001 - raised again in the parent
        result = (False, f"a view writer failed: {type(e).__name__}: {e}")
    send.send(result)
    send.close()


def view_files(nodes: list[str], folder: Path) -> dict[str, Path]:
    """A distinct, filesystem-safe ``.html`` path in ``folder`` for each node id."""
    files: dict[str, Path] = {}
    taken: set[str] = set()
    for n in nodes:
        slug = safe_slug(n.split(":", 1)[-1])
        if slug in taken:
            slug = f"{slug}-{hashlib.sha1(n.encode()).hexdigest()[:8]}"
        taken.add(slug)
        files[n] = folder / f"{slug}.html"
    return files


def safe_slug(text: str) -> str:
    """Lowercase ASCII letters, digits and dashes only; never empty, never a dot file."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:SLUG_CHARS].strip("-")
    return slug or "node"


def _sort_key(graph: nx.MultiDiGraph, n: str) -> tuple[int, str]:
    return -paper_usage(graph, n), display_name(graph, n).casefold()


def _row(graph: nx.MultiDiGraph, n: str, info: ViewInfo, out_dir: Path, kind: str) -> dict[str, object]:
    data = graph.nodes[n]
    aliases = [str(a) for a in data.get("aliases") or [] if str(a) != data.get("name")]
    proposers = sum(1 for _, _, k in graph.in_edges(n, keys=True) if k == PROPOSES.name)
    return {"name": display_name(graph, n), "href": info.path.relative_to(out_dir).as_posix(),
            "papers": paper_usage(graph, n), "aliases": ", ".join(aliases[:6]),
            "benchmark": bool(data.get("benchmark")), "extra": proposers if kind == "method" else info.nodes}
