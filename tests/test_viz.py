"""Specifications of kg.viz: offline, escaped, capped, legible pyvis views of a kg graph."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import networkx as nx
import pytest

from kg.viz import ViewInfo, render_site, render_view
from kg.viz.layout import layout
from kg.viz.views import script_json

SCRIPT_ATTACK = "<script>alert(1)</script>"
ATTR_ATTACK = '"><img src=x onerror=alert(1)>'


def add_paper(g: nx.MultiDiGraph, pid: str, title: str | None, abstract: str, **extra: object) -> str:
    node = f"paper:{pid}"
    g.add_node(node, type="Paper", name=title or pid, title=title, venue="ICML", year=2024,
               authors=["A. Author", "B. Author"], url=f"https://example.org/{pid}", source=[f"papers.txt:{pid}"],
               abstract=abstract, **extra)
    return node


def add_concept(g: nx.MultiDiGraph, label: str, key: str, name: str, aliases: tuple[str, ...] = ()) -> str:
    node = f"{label.lower()}:{key}"
    g.add_node(node, type=label, name=name, aliases=list(aliases), papers=0, benchmark=label == "Dataset")
    return node


def link(g: nx.MultiDiGraph, paper: str, concept: str, rel: str, sentence: str = "We use it.") -> None:
    mention = g.nodes[concept]["name"]
    g.add_edge(paper, concept, key=rel, type=rel, sentence=sentence, start=0, end=len(mention), extractor="gazetteer",
               confidence=0.9, count=1, evidence=[{"sentence": sentence, "start": 0, "end": 3, "text": mention,
                                                   "extractor": "gazetteer"}])
    g.nodes[concept]["papers"] = len({u for u in g.predecessors(concept) if u.startswith("paper:")})


@pytest.fixture
def graph() -> nx.MultiDiGraph:
    """Three papers, shared and one-paper concepts, one result, and hostile text in an abstract and a sentence."""
    g = nx.MultiDiGraph()
    p1 = add_paper(g, "p1", "LoRA for Person Search", f"We propose LoRA-PS {SCRIPT_ATTACK} on CUHK-SYSU.")
    p2 = add_paper(g, "p2", None, "Domain adaptation on Office-31 with a new method, " + "word " * 40)
    p3 = add_paper(g, "p3", f"Attack {ATTR_ATTACK}", "Person search again.")
    lora = add_concept(g, "Method", "loraps", "LoRA-PS")
    cuhk = add_concept(g, "Dataset", "cuhksysu", "CUHK-SYSU", ("CUHK SYSU",))
    office = add_concept(g, "Dataset", "office31", "Office-31", ("Office31",))
    task = add_concept(g, "Task", "personsearch", "person search")
    map_ = add_concept(g, "Metric", "map", "mAP")
    lonely = add_concept(g, "Method", "lonely", "Lonely Net")
    link(g, p1, lora, "PROPOSES", f"We propose LoRA-PS {SCRIPT_ATTACK}.")
    link(g, p1, cuhk, "EVALUATES_ON", f"Experiments on CUHK-SYSU {ATTR_ATTACK}.")
    link(g, p1, task, "ADDRESSES")
    link(g, p1, map_, "REPORTS")
    link(g, p2, office, "EVALUATES_ON")
    link(g, p2, lonely, "PROPOSES")
    link(g, p2, lora, "USES")
    link(g, p3, cuhk, "EVALUATES_ON")
    link(g, p3, task, "ADDRESSES")
    result = "result:p1#0"
    g.add_node(result, type="Result", name="93.2 mAP", value="93.2", method="LoRA-PS", dataset="CUHK-SYSU",
               metric="mAP", sentence="LoRA-PS reaches 93.2 mAP on CUHK-SYSU.")
    for u, v, rel in ((p1, result, "HAS_RESULT"), (result, lora, "FOR_METHOD"), (result, cuhk, "ON_DATASET"),
                      (result, map_, "IN_METRIC")):
        g.add_edge(u, v, key=rel, type=rel)
    return g


class Page(HTMLParser):
    """Collects attributes, element ids and the text of the embedded JSON data."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.attrs: list[tuple[str, str, str]] = []
        self.ids: set[str] = set()
        self.data_json = ""
        self._in_data = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            self.attrs.append((tag, name, value or ""))
            if name == "id":
                self.ids.add(value or "")
        self._in_data = tag == "script" and ("id", "kg-data") in attrs

    def handle_endtag(self, tag: str) -> None:
        self._in_data = False

    def handle_data(self, data: str) -> None:
        if self._in_data:
            self.data_json += data


def parse(path: Path) -> tuple[Page, dict]:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page, json.loads(page.data_json)


def test_view_is_offline(graph, tmp_path):
    info = render_view(graph, tmp_path / "o.html")
    html = info.path.read_text(encoding="utf-8")
    page, _ = parse(info.path)
    assert not [(t, n, v) for t, n, v in page.attrs if n in ("src", "href") and re.match(r"\s*(https?:)?//", v)]
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.IGNORECASE)
    assert "vis.Network" in html and "TomSelect" in html  # the libraries are inlined, not fetched


def test_hostile_text_is_escaped_everywhere(graph, tmp_path):
    for info in [render_view(graph, tmp_path / "o.html"),
                 render_view(graph, tmp_path / "p.html", kind="paper", focus="paper:p3"),
                 render_view(graph, tmp_path / "d.html", kind="dataset", focus="CUHK-SYSU")]:
        html = info.path.read_text(encoding="utf-8")
        assert "<script>alert(1)" not in html
        assert "<img src=x onerror" not in html
        page, data = parse(info.path)
        assert not [(t, n) for t, n, _ in page.attrs if n.startswith("on") or t == "img"]
        texts = json.dumps(data, ensure_ascii=False)
        assert "alert(1)" in texts  # the text is kept, as data, for textContent


def test_embedded_data_loads_and_counts_match(graph, tmp_path):
    info = render_view(graph, tmp_path / "o.html")
    _, data = parse(info.path)
    assert (info.nodes, info.edges) == (len(data["nodes"]), len(data["edges"]))
    assert data["options"]["physics"] == {"enabled": False}  # positions are precomputed: the view opens still
    assert all(isinstance(n["x"], float) and isinstance(n["y"], float) for n in data["nodes"])
    assert {e["from"] for e in data["edges"]} | {e["to"] for e in data["edges"]} <= {n["id"] for n in data["nodes"]}


def test_overview_leaves_out_results_and_says_so(graph, tmp_path):
    info = render_view(graph, tmp_path / "o.html")
    _, data = parse(info.path)
    assert "result:p1#0" not in {n["id"] for n in data["nodes"]}
    assert info.omitted_nodes == 1 and info.omitted_edges == 4
    assert "1 result nodes" in info.path.read_text(encoding="utf-8")


def test_cap_keeps_papers_and_shared_concepts_and_states_what_is_hidden(graph, tmp_path):
    info = render_view(graph, tmp_path / "o.html", max_nodes=6)
    _, data = parse(info.path)
    ids = {n["id"] for n in data["nodes"]}
    assert info.nodes == len(ids) == 6 and info.omitted_nodes == graph.number_of_nodes() - 6
    assert {"paper:p1", "paper:p2", "paper:p3", "dataset:cuhksysu", "task:personsearch", "method:loraps"} == ids
    html = info.path.read_text(encoding="utf-8")
    assert f"Showing 6 of {graph.number_of_nodes()} nodes" in html
    assert "3 concepts used by one paper" in html


def test_legend_lists_every_node_type_of_the_graph(graph, tmp_path):
    for info in [render_view(graph, tmp_path / "o.html"),
                 render_view(graph, tmp_path / "d.html", kind="dataset", focus="cuhksysu")]:
        page, data = parse(info.path)
        legend = {v for t, n, v in page.attrs if n == "data-kind"}
        assert {n["kind"] for n in data["nodes"]} <= legend
    assert legend == {"Paper", "Method", "Task", "Dataset", "Metric", "Result"}


def test_dataset_view_shows_its_papers_and_their_other_concepts(graph, tmp_path):
    info = render_view(graph, tmp_path / "d.html", kind="dataset", focus="cuhk sysu")
    _, data = parse(info.path)
    ids = {n["id"] for n in data["nodes"]}
    assert {"dataset:cuhksysu", "paper:p1", "paper:p3", "method:loraps", "task:personsearch", "result:p1#0"} <= ids
    assert "paper:p2" not in ids  # it never evaluates on CUHK-SYSU
    assert [n["id"] for n in data["nodes"] if n.get("focus")] == ["dataset:cuhksysu"]


def test_a_concept_view_shows_its_variants_and_subtasks_and_their_papers(graph, tmp_path):
    variant = add_concept(graph, "Dataset", "cuhksysuc", "CUHK-SYSU-C")
    graph.add_edge(variant, "dataset:cuhksysu", key="VARIANT_OF", type="VARIANT_OF")
    link(graph, "paper:p2", variant, "EVALUATES_ON")
    subtask = add_concept(graph, "Task", "videopersonsearch", "video person search")
    graph.add_edge(subtask, "task:personsearch", key="SUBTASK_OF", type="SUBTASK_OF")
    link(graph, "paper:p2", subtask, "ADDRESSES")
    for kind, focus, child in (("dataset", "CUHK-SYSU", variant), ("task", "person search", subtask)):
        info = render_view(graph, tmp_path / f"{kind}.html", kind=kind, focus=focus)
        _, data = parse(info.path)
        ids = {n["id"] for n in data["nodes"]}
        assert {child, "paper:p2"} <= ids, kind  # p2 reaches the concept through its variant or subtask only
        assert any(e["from"] == child for e in data["edges"]), kind


def test_paper_view_shows_its_concepts_and_papers_sharing_them(graph, tmp_path):
    info = render_view(graph, tmp_path / "p.html", kind="paper", focus="LoRA for person search")
    ids = {n["id"] for n in parse(info.path)[1]["nodes"]}
    assert {"paper:p1", "method:loraps", "dataset:cuhksysu", "metric:map", "paper:p2", "paper:p3"} <= ids
    assert "dataset:office31" not in ids


def test_focused_view_is_capped_nearest_first(graph, tmp_path):
    info = render_view(graph, tmp_path / "d.html", kind="dataset", focus="dataset:cuhksysu", max_nodes=3)
    ids = [n["id"] for n in parse(info.path)[1]["nodes"]]
    assert ids[0] == "dataset:cuhksysu" and len(ids) == 3 and info.omitted_nodes > 0
    assert "paper:p1" in ids  # it proposes a method, so it ranks first among CUHK-SYSU's papers


def test_unknown_focus_raises_with_close_matches(graph, tmp_path):
    with pytest.raises(ValueError, match="did you mean Office-31"):
        render_view(graph, tmp_path / "x.html", kind="dataset", focus="Ofice-31")
    with pytest.raises(ValueError, match="not a Dataset"):
        render_view(graph, tmp_path / "x.html", kind="dataset", focus="paper:p1")
    with pytest.raises(ValueError, match="unknown view kind"):
        render_view(graph, tmp_path / "x.html", kind="venue", focus="ICML")


def test_site_links_every_view_and_each_exists(graph, tmp_path):
    infos = render_site(graph, tmp_path / "site")
    assert all(isinstance(i, ViewInfo) and i.path.exists() for i in infos)
    assert len(infos) == 1 + 2 + 2  # overview, CUHK-SYSU and Office-31, LoRA-PS and Lonely Net
    page = Page()
    page.feed((tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
    hrefs = {v for _, n, v in page.attrs if n == "href"}
    assert {i.path.relative_to(tmp_path / "site").as_posix() for i in infos} <= hrefs
    for info in infos:
        view, data = parse(info.path)
        assets = [v for _, n, v in view.attrs if n in ("src", "href") and "assets/" in v]
        if info.path.name == "overview.html":  # the overview stands alone: everything inlined
            assert not [v for _, n, v in view.attrs if n == "src"]
        else:
            assert assets and all((info.path.parent / a).exists() for a in assets)
        assert all((info.path.parent / href).exists() for href in data["views"].values())


def test_site_writes_views_of_the_most_used_only_and_says_how_to_get_the_others(graph, tmp_path):
    infos = render_site(graph, tmp_path / "site", max_views=1)
    assert len(infos) == 1 + 1 + 1  # overview, the most used dataset, the first proposed method
    assert infos[1].path.name == "cuhksysu.html"  # two papers use CUHK-SYSU, one Office-31
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "kg viz OUT --kind dataset --focus NAME" in index and "(2)" in index
    for info in infos:  # no link to a view that was not written
        assert all((info.path.parent / href).exists() for href in parse(info.path)[1]["views"].values())


def test_script_json_cannot_close_the_script_element():
    text = script_json({"a": "</script><!-- \u2028 & >"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!-- \u2028 & >"}


def test_focus_matches_aliases_and_titles_case_insensitively(graph, tmp_path):
    assert render_view(graph, tmp_path / "a.html", kind="dataset", focus="OFFICE31").nodes == 3
    assert render_view(graph, tmp_path / "b.html", kind="method", focus="lora-ps").nodes > 1
    assert render_view(graph, tmp_path / "c.html", kind="paper", focus="p2").nodes > 1


def test_overview_spreads_one_paper_concepts_across_papers(graph, tmp_path):
    add_paper(graph, "p4", "Fourth", "Nothing shared.")
    for i in range(3):
        link(graph, "paper:p4", add_concept(graph, "Task", f"t{i}", f"Task {i}"), "ADDRESSES")
    info = render_view(graph, tmp_path / "o.html", max_nodes=10)  # 4 papers, 3 shared concepts, 3 slots left
    ids = {n["id"] for n in parse(info.path)[1]["nodes"]}
    assert {"metric:map", "method:lonely", "task:t0"} <= ids  # one for each paper, its proposal first
    assert not {"dataset:office31", "task:t1", "task:t2"} & ids


def test_empty_graph_renders_an_empty_view(tmp_path):
    info = render_view(nx.MultiDiGraph(), tmp_path / "e.html")
    assert (info.nodes, info.edges) == (0, 0) and "Showing all 0 nodes" in info.path.read_text(encoding="utf-8")


def test_site_file_names_are_safe_and_names_escaped(graph, tmp_path):
    add_concept(graph, "Dataset", "evil", f"../{SCRIPT_ATTACK}")
    link(graph, "paper:p1", "dataset:evil", "EVALUATES_ON")
    infos = render_site(graph, tmp_path / "site")
    names = [i.path.name for i in infos]
    assert all(re.fullmatch(r"[a-z0-9-]+\.html", n) for n in names)
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert(1)" not in index and "&lt;script&gt;alert(1)" in index


def test_layout_is_deterministic_and_keeps_islands_near():
    nodes = ["a", "b", "c", "d", "lonely"]
    edges = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
    first, again = layout(nodes, edges), layout(nodes, edges)
    assert first == again
    span = max(abs(v) for xy in first.values() for v in xy)
    assert span < 1000  # the unconnected node is packed beside the rest, not flung away


def test_overview_names_papers_briefly_and_weights_lines_by_relation(graph, tmp_path):
    graph.nodes["paper:p2"]["name"] = "Lonely Net"  # as the builder names an untitled paper: by its proposal
    _, data = parse(render_view(graph, tmp_path / "o.html").path)
    labels = {n["id"]: n["label"] for n in data["nodes"]}
    assert labels["paper:p1"] == "LoRA for Person Search" and labels["paper:p2"] == "Lonely Net"
    _, focused = parse(render_view(graph, tmp_path / "m.html", kind="method", focus="Lonely Net").path)
    assert {n["id"]: n["label"] for n in focused["nodes"]}["paper:p2"] == "Lonely Net (paper)"  # beside the method
    width = {e["rel"]: e["px"] for e in data["edges"]}
    assert width["PROPOSES"] > width["EVALUATES_ON"] > width["USES"]
    frame = data["frame"]
    assert frame["x0"] <= min(n["x"] for n in data["nodes"]) and frame["x1"] >= max(n["x"] for n in data["nodes"])


def test_layout_keeps_each_hubs_leaves_apart_and_clear_of_its_label():
    hubs = ["a", "b", "c"]
    edges = [("a", "b"), ("b", "c")] + [(h, f"{h}{i}") for h in hubs for i in range(8)]
    nodes = hubs + [v for _, v in edges[2:]]
    pos = layout(nodes, edges)
    gaps = [((pos[u][0] - pos[v][0]) ** 2 + (pos[u][1] - pos[v][1]) ** 2) ** 0.5
            for i, u in enumerate(nodes) for v in nodes[i + 1:]]
    assert min(gaps) > 40  # no two nodes (150 px of room each) on top of one another
    for h in hubs:  # nothing straight under a hub, where vis-network draws its label
        x, y = pos[h]
        assert not [n for n in nodes if n != h and abs(pos[n][0] - x) < 30 and 0 < pos[n][1] - y < 80]


def test_edge_kinds_counts_what_the_induced_subgraph_holds(graph):
    from collections import Counter

    from kg.viz.views import edge_kinds, induced

    for nodes in (list(graph), [n for n in graph if n.startswith(("paper:", "dataset:"))], []):
        sub = induced(graph, nodes)
        assert edge_kinds(graph, set(nodes)) == Counter(str(k) for _, _, k in sub.edges(keys=True))


def test_overlap_removal_separates_crowded_hubs():
    import numpy as np

    from kg.viz.layout import _separate

    pos = np.random.default_rng(0).uniform(-50, 50, (60, 2))
    reach = np.full(60, 40.0)
    _separate(pos, reach, rounds=400)
    dist = np.sqrt(((pos[:, None, :] - pos[None, :, :]) ** 2).sum(axis=2)) + np.eye(60) * 1e9
    assert dist.min() > 0.95 * 80  # every pair of discs (radius 40) pushed (almost) clear of each other


def test_a_views_concept_focus_is_named_as_kg_related_names_it(graph, tmp_path):
    """One way to name a concept: an alias two nodes carry lists both, as `kg related` does."""
    from kg.concept_names import AmbiguousConcept

    add_concept(graph, "Dataset", "zinc250k", "ZINC250k", aliases=("ZINC",))
    add_concept(graph, "Dataset", "zinc15", "ZINC15", aliases=("ZINC",))
    with pytest.raises(AmbiguousConcept):
        render_view(graph, tmp_path / "x.html", kind="dataset", focus="zinc")


def test_evidence_and_abstracts_show_as_they_read_not_as_latex(graph):
    from kg.viz.style import _evidence, _paper_tip

    item = {"sentence": r"We propose $\alpha$-Net, trained on *CIFAR-10*.", "text": r"$\alpha$-Net"}
    assert _evidence({"evidence": [item]}) == [["We propose ", "α-Net", ", trained on CIFAR-10."]]
    graph.nodes["paper:p1"]["abstract"] = r"We propose $\alpha$-Net with \textbf{bold} claims."
    assert _paper_tip(graph, "paper:p1")["detail"] == "We propose α-Net with bold claims."


def test_a_papers_tooltip_lists_the_ids_that_name_it(graph):
    from kg.viz.style import _paper_tip

    graph.nodes["paper:p1"].update(doi="10.5555/pub.1", arxiv_id="2401.12345", other_ids=["10.1101/pre.1"])
    assert "Ids: 10.5555/pub.1, arXiv:2401.12345, 10.1101/pre.1" in _paper_tip(graph, "paper:p1")["lines"]


def test_a_results_sentence_shows_as_it_reads_not_as_latex(graph):
    from kg.viz.style import node_options

    graph.nodes["result:p1#0"]["sentence"] = r"LoRA-PS reaches $93.2\%$ mAP, a $4 \times$ speedup, on CUHK-SYSU."
    tip = node_options(graph, "result:p1#0", 1.0, None)["tip"]
    assert tip["detail"] == "LoRA-PS reaches 93.2% mAP, a 4 × speedup, on CUHK-SYSU."


def test_an_overview_shows_no_paper_linked_to_nothing_it_shows():
    from kg.viz.selection import select_overview

    g = nx.MultiDiGraph()
    shared = add_concept(g, "Dataset", "d", "D")
    for i in range(4):
        link(g, add_paper(g, f"p{i}", f"Paper {i}", "x"), shared, "EVALUATES_ON")
    lone = add_paper(g, "lone", "Lone", "x")  # its only concept is its own, and the cap leaves it out
    link(g, lone, add_concept(g, "Method", "own", "Own"), "PROPOSES")
    selection = select_overview(g, 6)
    assert lone not in selection.nodes and shared in selection.nodes and len(selection.nodes) == 5
    assert selection.hidden["papers with the fewest shared concepts"] == 1


def test_a_crowded_overview_labels_more_than_its_few_biggest_nodes():
    from kg.bench.synthetic import synthetic_graph
    from kg.viz.labels import SHOWN_PX, fitting_zoom
    from kg.viz.selection import select_overview
    from kg.viz.views import network_data

    g = synthetic_graph(3000)
    nodes, _, _, frame = network_data(g, select_overview(g, 1500))
    shown = [n for n in nodes if n["font"]["size"] * frame["zoom"] >= SHOWN_PX - 0.5]
    # (21 when labels kept clear of the biggest tenth; 34 or 38 as OpenBLAS sums the layout's float32 products
    # with one thread, as the --accurate NER sets it, or with two)
    assert len(nodes) > 1000 and len(shown) >= 30
