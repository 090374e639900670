"""The views in a real headless Chromium: drawn, still, offline, free of console errors, and escaped.

Chromium is Debian's ``chromium`` package (``scripts/ensure-chromium.sh`` installs it), driven by Playwright
for Python with ``executable_path``: Playwright's own browser downloads are never used. Without Chromium or
Playwright the tests are skipped on a laptop and fail in CI (``CI`` set). A screenshot of every view is
saved under ``test-artifacts/screenshots/``.
"""
from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from kg.bench.synthetic import synthetic_graph
from kg.viz import render_view

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-dev-shm-usage"]
VIEWPORT = {"width": 1400, "height": 900}
STILL_WITHIN_S = 5.0
SCRIPT_ATTACK = "<script>alert(1)</script>"
ATTR_ATTACK = '"><img src=x onerror=alert(1)>'
PAPER_RGB = (0x4E, 0x79, 0xA7)  # kg.schema.PAPER.color

# Share of painted pixels, and of pixels in the paper colour, in the graph canvas.
CANVAS_STATS = """() => {
  const c = document.querySelector("#kg-graph canvas");
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let painted = 0, paper = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] === 0) continue;
    painted++;
    if (Math.abs(d[i] - %d) < 20 && Math.abs(d[i + 1] - %d) < 20 && Math.abs(d[i + 2] - %d) < 20) paper++;
  }
  return {painted: painted / (c.width * c.height), paper: paper, width: c.width, height: c.height};
}""" % PAPER_RGB
# Node positions, the number of nodes vis holds, whether physics is off, and how many nodes the fitted view shows.
NETWORK_STATE = """() => {
  const net = window.kgNetwork, ids = net.body.data.nodes.getIds(), pos = net.getPositions(ids);
  const box = document.querySelector("#kg-graph canvas").getBoundingClientRect();
  const inside = ids.filter(id => {
    const p = net.canvasToDOM(pos[id]);
    return p.x >= 0 && p.y >= 0 && p.x <= box.width && p.y <= box.height;
  }).length;
  return {positions: JSON.stringify(pos), nodes: ids.length, inside: inside,
          physics: net.physics.options.enabled, scale: net.getScale()};
}"""
NODE_ON_PAGE = """(id) => {
  const p = window.kgNetwork.canvasToDOM(window.kgNetwork.getPosition(id));
  const box = document.querySelector("#kg-graph canvas").getBoundingClientRect();
  return {x: box.left + p.x, y: box.top + p.y};
}"""


def chromium_path() -> str | None:
    """``$KG_CHROMIUM``, else ``chromium`` on PATH (Debian's package), else None."""
    found = os.environ.get("KG_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    return found if found and Path(found).exists() else None


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests need Chromium and Playwright in CI: {reason}")
    pytest.skip(f"{reason}; run scripts/ensure-chromium.sh and pip install -e '.[test]'")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        unavailable(f"Playwright for Python is not installed ({exc})")
    path = chromium_path()
    if path is None:
        unavailable("no chromium executable (Debian package 'chromium') on PATH")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class Visit:
    """A page opened in its own browser context, with everything it logged, requested or popped up."""

    page: Any
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)  # every URL that is not a local file or inline data
    failed: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    seconds: float = 0.0  # from navigation to the first drawn frame


def visit(browser: Any, path: Path, *, graph: bool = True) -> Visit:
    """Open ``path``; with ``graph``, wait until the network has drawn its first frame."""
    context = browser.new_context(viewport=VIEWPORT, service_workers="block")
    page = context.new_page()
    v = Visit(page)

    def refuse(route: Any) -> None:  # nothing leaves the machine, even if a page tried
        v.requests.append(route.request.url)
        route.abort()

    context.route(re.compile(r"^(https?|wss?|ftp):", re.IGNORECASE), refuse)
    page.on("console", lambda m: v.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: v.errors.append(f"uncaught: {e}"))
    page.on("request", lambda r: None if r.url.startswith(("file:", "data:", "blob:", "about:"))
            else v.requests.append(r.url))
    page.on("requestfailed", lambda r: v.failed.append(f"{r.url}: {r.failure}"))
    page.on("dialog", lambda d: (v.dialogs.append(f"{d.type}: {d.message}"), d.dismiss()))
    start = time.perf_counter()
    page.goto(path.as_uri(), wait_until="load")
    if graph:
        page.wait_for_function("document.documentElement.dataset.kgDrawn === '1'", timeout=15_000)
    v.seconds = time.perf_counter() - start
    return v


def screenshot(v: Visit, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / f"{name}.png"
    v.page.screenshot(path=str(shot))
    return shot


def assert_clean(v: Visit) -> None:
    assert v.errors == [], "console errors"
    assert v.requests == [], "the page made network requests"
    assert v.failed == [], "requests failed (a missing local asset?)"
    assert v.dialogs == [], "a dialog fired"


def assert_drawn_and_still(v: Visit) -> dict[str, Any]:
    """The canvas shows the graph, every node sits inside the fitted view, and nothing moves any more."""
    first = v.page.evaluate(NETWORK_STATE)
    v.page.wait_for_timeout(400)
    again = v.page.evaluate(NETWORK_STATE)
    assert first["physics"] is False and again["positions"] == first["positions"], "the network is still moving"
    assert first["nodes"] > 0 and first["inside"] == first["nodes"], "nodes lie outside the fitted view"
    canvas = v.page.evaluate(CANVAS_STATS)
    assert canvas["width"] >= 600 and canvas["height"] >= 400, canvas
    assert canvas["painted"] > 0.003, f"the canvas is (nearly) blank: {canvas}"
    assert canvas["paper"] > 30, f"no paper node is drawn: {canvas}"
    return {**first, **canvas}


@pytest.fixture(scope="module")
def seed(seed_build, tmp_path_factory) -> dict[str, Path]:
    """The seed build's site, plus a paper view (render_view only: the site has none)."""
    report, out = seed_build
    views = out / "views"
    domed = paper_named(report.graph, "DomED")
    paper = render_view(report.graph, tmp_path_factory.mktemp("paper-view") / "domed.html", kind="paper", focus=domed)
    return {"overview": views / "overview.html", "dataset-cuhk-sysu": views / "datasets" / "cuhksysu.html",
            "method-domed": views / "methods" / "domed.html", "paper-domed": paper.path, "index": views / "index.html"}


def paper_named(graph: nx.MultiDiGraph, name: str) -> str:
    hits = [n for n, d in graph.nodes(data=True) if d.get("type") == "Paper" and d.get("name") == name]
    assert len(hits) == 1, hits
    return hits[0]


@pytest.mark.parametrize("name", ["overview", "dataset-cuhk-sysu", "method-domed", "paper-domed"])
def test_seed_view_is_drawn_still_offline_and_error_free(browser, seed, name):
    v = visit(browser, seed[name])
    screenshot(v, name)
    assert_clean(v)
    assert_drawn_and_still(v)
    assert v.page.locator("#kg-legend input[data-kind]").count() >= 2
    if name != "overview":  # a focused view marks its focus, and sends the reader back to the index or on
        assert v.page.evaluate("window.kgNetwork.body.data.nodes.get({filter: n => n.focus}).length") == 1


def test_index_opens_offline_and_links_to_existing_views(browser, seed):
    v = visit(browser, seed["index"], graph=False)
    screenshot(v, "index")
    assert_clean(v)
    hrefs = v.page.eval_on_selector_all("a[href]", "links => links.map(a => a.getAttribute('href'))")
    assert "overview.html" in hrefs and len(hrefs) > 20
    assert all((seed["index"].parent / h).exists() for h in hrefs if not h.startswith("#"))
    v.page.fill("#filter", "cuhk")
    assert v.page.locator("tr[data-search]:visible").count() == 1


def test_1500_node_overview_is_drawn_and_still_within_5_seconds(browser, tmp_path):
    graph = synthetic_graph(1200)
    info = render_view(graph, tmp_path / "big.html", max_nodes=1500)
    assert info.nodes == 1500
    v = visit(browser, info.path)
    screenshot(v, "synthetic-1500")
    assert_clean(v)
    state = assert_drawn_and_still(v)
    assert state["nodes"] == 1500
    assert v.seconds < STILL_WITHIN_S, f"first frame after {v.seconds:.1f} s"


@pytest.fixture(scope="module")
def hostile(seed_build, tmp_path_factory) -> tuple[Path, Path, str]:
    """The seed graph with attacks in one paper's title and abstract: its paper view and the overview."""
    graph = seed_build[0].graph.copy()
    victim = paper_named(graph, "DomED")
    graph.nodes[victim]["title"] = f"DomED {ATTR_ATTACK} {SCRIPT_ATTACK}"
    graph.nodes[victim]["abstract"] = f"{SCRIPT_ATTACK} We propose DomED {ATTR_ATTACK} for domain generalization."
    folder = tmp_path_factory.mktemp("hostile")
    paper = render_view(graph, folder / "paper.html", kind="paper", focus=victim)
    overview = render_view(graph, folder / "overview.html")
    return paper.path, overview.path, victim


def assert_no_injected_markup(v: Visit) -> None:
    assert v.dialogs == [], "an alert fired"
    assert v.page.evaluate("document.querySelectorAll('img').length") == 0
    code = v.page.evaluate("[...document.scripts].filter(s => s.type !== 'application/json')"
                           ".filter(s => s.textContent.includes('alert(1)')).length")
    assert code == 0, "hostile text became a script"


def test_hostile_abstract_renders_as_text(browser, hostile):
    paper, overview, victim = hostile
    v = visit(browser, paper)
    assert_clean(v)
    where = v.page.evaluate(NODE_ON_PAGE, victim)
    v.page.mouse.move(where["x"], where["y"])  # the tooltip
    v.page.wait_for_function("(document.querySelector('div.vis-tooltip') || {style: {}}).style.visibility"
                             " === 'visible'", timeout=5_000)
    tip = v.page.inner_text("div.vis-tooltip")
    assert SCRIPT_ATTACK in tip and ATTR_ATTACK in tip
    v.page.mouse.click(where["x"], where["y"])  # the details panel
    panel = v.page.locator("#kg-details")
    panel.wait_for(state="visible", timeout=5_000)
    text = panel.inner_text()
    assert text.count(SCRIPT_ATTACK) >= 2 and ATTR_ATTACK in text  # title and abstract, verbatim
    assert ATTR_ATTACK in v.page.inner_text("h1")
    v.page.click("#kg-search-ts-control")  # the search box lists the title too
    v.page.keyboard.type("DomED")
    v.page.locator(".ts-dropdown .option").first.wait_for(timeout=5_000)
    assert SCRIPT_ATTACK in v.page.inner_text(".ts-dropdown")
    screenshot(v, "hostile-paper")
    assert_no_injected_markup(v)
    assert_clean(v)

    v = visit(browser, overview)
    assert_clean(v)
    assert_drawn_and_still(v)
    assert_no_injected_markup(v)


def test_chromium_lookup_honours_override(monkeypatch, tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("")
    monkeypatch.setenv("KG_CHROMIUM", str(fake))
    assert chromium_path() == str(fake)
    monkeypatch.setenv("KG_CHROMIUM", str(tmp_path / "missing"))
    assert chromium_path() is None
