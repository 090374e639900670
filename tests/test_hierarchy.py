"""The concept hierarchy: tasks under their parent tasks, dataset variants and splits under their dataset."""
from __future__ import annotations

import json

import pytest

import kg
from kg.related import around_concept

ABSTRACTS = [
    {"id": "a", "title": "Lifting 2D keypoints", "text": "We study 3D human pose estimation from monocular video and "
     "report results on Human3.6M."},
    {"id": "b", "title": "Hands", "text": "This paper addresses hand pose estimation with a new graph network."},
    {"id": "c", "title": "Corruptions", "text": "We measure robustness on ImageNet-C and report accuracy on ImageNet."},
    {"id": "d", "title": "Detection", "text": "Our detector reaches 50.1 AP on COCO test-dev for object detection."},
    {"id": "e", "title": "Poses", "text": "Our model reaches 43.6 AP on MS COCO mini-val set for instance segmentation."},
    {"id": "f", "title": "Inverse", "text": "We study the linear inverse problem of recovering a sparse signal."},
    {"id": "g", "title": "Priors", "text": "Learned priors help to solve inverse problems in imaging."},
    {"id": "h", "title": "Birds", "text": "We report fine-grained accuracy on CUB-200-2011 (CUB-200) and on JFT-300M."},
    {"id": "i", "title": "Offline", "text": "We study offline reinforcement learning and evaluate on D4RL."},
    {"id": "j", "title": "Patches", "text": "We train a Vision Transformer and compare it with a Transformer on ImageNet."},
    {"id": "k", "title": "Federated", "text": "We study personalized FL with a focal loss (FL) for detection."},
    {"id": "l", "title": "Graphs", "text": "We train graph Transformers for node classification on Cora."},
    {"id": "m", "title": "Segments", "text": "Our model reaches 40.2 AP on the COCO minival split for instance "
     "segmentation."},
    {"id": "o", "title": "Trackers", "text": "We study object tracking in crowded videos."},
    {"id": "p", "title": "Crowds", "text": "We study multi-object tracking in crowded videos."},
    {"id": "q", "title": "Activities", "text": "We study activity recognition in videos."},
    {"id": "r", "title": "Concurrent", "text": "We study concurrent activity recognition in smart homes."},
    {"id": "n", "title": "Samplers", "text": "Our sampler reaches an FID of 3.2 on CIFAR-10 in a tenth of the running "
     "time."},
]


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hier")
    src = tmp / "papers.jsonl"
    src.write_text("".join(json.dumps(a) + "\n" for a in ABSTRACTS), encoding="utf-8")
    kg.build([str(src)], tmp / "out")
    import networkx as nx

    return nx.node_link_graph(json.loads((tmp / "out" / "graph.json").read_text()), edges="links")


def test_tasks_link_to_their_parent_task_even_when_no_paper_names_it(graph):
    assert graph.has_edge("task:3dhumanposeestimation", "task:poseestimation", key="SUBTASK_OF")
    assert graph.has_edge("task:handposeestimation", "task:poseestimation", key="SUBTASK_OF")
    assert graph.nodes["task:poseestimation"]["papers"] == 0
    assert graph.nodes["task:3dhumanposeestimation"]["area"] == "Computer Vision"


def test_a_parent_the_vocabulary_calls_general_x_is_x(graph):
    # the vocabulary puts offline RL under "general reinforcement learning"
    assert graph.has_edge("task:offlinereinforcementlearning", "task:reinforcementlearning", key="SUBTASK_OF")
    assert "task:generalreinforcementlearning" not in graph


def test_the_vocabulary_reads_general_x_as_x_once_when_it_is_read():
    from kg.build.hierarchy import TASKS, _vocabulary
    from kg.schema import concept_key

    tree = _vocabulary(TASKS)
    assert tree[concept_key("offline reinforcement learning")]["parents"] == ["reinforcement learning"]
    assert tree[concept_key("general reinforcement learning")]["name"] == "general reinforcement learning"


def test_a_method_named_as_a_kind_of_another_is_a_kind_of_it(graph):
    kinds = {(graph.nodes[u]["name"], graph.nodes[v]["name"]) for u, v, k in graph.edges(keys=True) if k == "KIND_OF"}
    assert ("Vision Transformer", "Transformer") in kinds and ("Graph Transformer", "Transformer") in kinds
    assert not any(parent == "focal loss" for _, parent in kinds)  # a short form names other things too
    report = around_concept(graph, "Method", "Transformer")
    assert "Vision Transformer" in report.included


@pytest.mark.parametrize("child, parent, linked", [
    ("hypergraph Transformers", "Transformer", True),  # a one-word name in the plural
    ("conditional GANs", "GAN", True),
    ("local gradient", "GRADIENT", False),  # an acronym is not the word
])
def test_a_one_word_method_name_heads_its_kinds_in_either_number_but_not_as_another_word(child, parent, linked):
    from types import SimpleNamespace

    from kg.build.hierarchy import Hierarchy, _method_kinds
    from kg.build.resolve import Concept
    from kg.schema import concept_key

    concepts = {("METHOD", concept_key(n)): Concept("METHOD", concept_key(n), n, [], False, 1) for n in (child, parent)}
    h = Hierarchy()
    _method_kinds(SimpleNamespace(concepts=concepts), h)
    assert bool(h.links) == linked


def test_a_method_the_vocabulary_places_in_a_family_is_a_kind_of_it_even_where_no_paper_names_the_family():
    from types import SimpleNamespace

    from kg.build.hierarchy import Hierarchy, _method_kinds
    from kg.build.resolve import Concept
    from kg.schema import concept_key

    # ("GCN" first: "sparse RNN" meets the family node "RNN" that "LSTM" makes before it)
    names = ("DDPM", "GCN", "graph neural networks", "LSTM", "denoising diffusion probabilistic models", "sparse RNN")
    concepts = {("METHOD", concept_key(n)): Concept("METHOD", concept_key(n), n, [], False, 1) for n in names}
    h = Hierarchy()
    _method_kinds(SimpleNamespace(concepts=concepts), h)
    links = {(c[1], p[1]) for c, p, kind in h.links if kind == "KIND_OF"}
    assert {("ddpm", "diffusionmodel"), ("gcn", "graphneuralnetwork"), ("lstm", "rnn"), ("sparsernn", "rnn")} <= links
    # the families no paper names are nodes of their own; a name that is only an alias of the entry has no family
    assert {c.name for c in h.nodes.values()} == {"diffusion models", "RNN"}
    assert not any(c == concept_key("denoising diffusion probabilistic models") for c, _ in links)


def test_dataset_variants_and_splits_link_to_their_dataset(graph):
    assert graph.has_edge("dataset:imagenetc", "dataset:imagenet", key="VARIANT_OF")
    assert graph.has_edge("dataset:cocotestdev", "dataset:coco", key="VARIANT_OF")
    assert not graph.has_edge("dataset:imagenet", "dataset:imagenetc")
    # a split named by another name of its dataset ("MS COCO") links to that dataset, not to a second COCO, and
    # is one split however papers write it ("MS COCO mini-val set", "the COCO minival split")
    (split,) = [n for n, d in graph.nodes(data=True) if d.get("name") == "COCO minival"]
    assert graph.has_edge(split, "dataset:coco", key="VARIANT_OF")
    assert {u for u, v, k in graph.in_edges(split, keys=True) if k == "EVALUATES_ON"} == {"paper:e", "paper:m"}
    assert [n for n, d in graph.nodes(data=True) if d.get("name") == "COCO"] == ["dataset:coco"]
    # no dataset is a variant of itself, even where its base name is one of its own names
    assert not [u for u, v, k in graph.edges(keys=True) if k == "VARIANT_OF" and u == v]


def test_a_parent_task_reaches_the_papers_of_its_subtasks_and_says_which(graph):
    report = around_concept(graph, "Task", "pose estimation")
    assert {p for p, _, _ in report.papers} == {"paper:a", "paper:b"}
    assert report.included == ["3D human pose estimation", "hand pose estimation"]
    assert around_concept(graph, "Task", "pose estimation", hierarchy=False).papers == []


def test_a_dataset_reaches_its_splits(graph):
    report = around_concept(graph, "Dataset", "COCO")
    assert [p for p, _, _ in report.papers] == ["paper:d", "paper:e", "paper:m"]
    assert report.included == ["COCO minival", "COCO test-dev"]


def test_a_task_the_vocabulary_does_not_place_goes_under_the_task_its_name_ends_with(graph):
    assert graph.has_edge("task:linearinverseproblem", "task:inverseproblem", key="SUBTASK_OF")
    report = around_concept(graph, "Task", "inverse problems")
    assert {p for p, _, _ in report.papers} == {"paper:f", "paper:g"}
    assert report.included == ["linear inverse problem"]


@pytest.mark.parametrize("name, head", [
    ("robust sparse mean estimation", "sparse mean estimation"),
    ("linear inverse problem", "inverse problem"),
    ("transfer learning of visual recognition", None),  # the head is not the last word
    ("novel view synthesis", "view synthesis"),
])
def test_the_known_task_a_name_ends_with(name, head):
    from kg.build.hierarchy import _known_head
    from kg.schema import concept_key

    known = {concept_key(n) for n in ("sparse mean estimation", "inverse problems", "visual recognition",
                                      "view synthesis", "synthesis")}
    assert _known_head(name, known.__contains__) == head


def test_no_parent_task_under_a_name_the_graph_has_as_a_method():
    from kg.build.hierarchy import _build
    from kg.build.resolve import Concept, Resolution

    concepts = {("METHOD", "knowledgedistillation"): Concept("METHOD", "knowledgedistillation", "knowledge distillation"),
                ("TASK", "datafreeknowledgedistillation"): Concept("TASK", "datafreeknowledgedistillation",
                                                                   "data-free knowledge distillation", papers=1)}
    h = _build(Resolution(concepts, {k: k for k in concepts}))
    assert ("TASK", "knowledgedistillation") not in h.nodes
    assert not [link for link in h.links if link[1] == ("TASK", "knowledgedistillation")]
    # without the method, the tree's parent is a Task node of its own, as before
    h = _build(Resolution({k: c for k, c in concepts.items() if k[0] == "TASK"}, {}))
    assert (("TASK", "datafreeknowledgedistillation"), ("TASK", "knowledgedistillation"), "SUBTASK_OF") in h.links


def test_a_method_typed_parent_hands_its_place_to_its_own_parents():
    from kg.build.hierarchy import _build
    from kg.build.resolve import Concept, Resolution

    # the task tree: "video anomaly detection" -> "3D anomaly detection" -> "anomaly detection"
    concepts = {("TASK", "videoanomalydetection"): Concept("TASK", "videoanomalydetection", "video anomaly detection",
                                                           papers=1),
                ("METHOD", "3danomalydetection"): Concept("METHOD", "3danomalydetection", "3D anomaly detection")}
    h = _build(Resolution(concepts, {k: k for k in concepts}))
    assert (("TASK", "videoanomalydetection"), ("TASK", "anomalydetection"), "SUBTASK_OF") in h.links
    assert ("TASK", "3danomalydetection") not in h.nodes


def test_a_parent_no_paper_names_and_the_tree_leaves_alone_goes_under_the_task_its_name_ends_with():
    from kg.build.hierarchy import _build
    from kg.build.resolve import Concept, Resolution

    # the tree puts "semi-supervised object detection" under "2D object detection", which has no parent of its own
    concepts = {("TASK", "semisupervisedobjectdetection"): Concept(
        "TASK", "semisupervisedobjectdetection", "semi-supervised object detection", papers=1)}
    h = _build(Resolution(concepts, {k: k for k in concepts}))
    assert (("TASK", "semisupervisedobjectdetection"), ("TASK", "2dobjectdetection"), "SUBTASK_OF") in h.links
    assert (("TASK", "2dobjectdetection"), ("TASK", "objectdetection"), "SUBTASK_OF") in h.links
    assert h.nodes[("TASK", "objectdetection")].papers == 0


def test_a_metric_says_whether_lower_is_better_as_the_vocabulary_does(graph):
    metrics = {d["name"]: d["lower_is_better"] for _, d in graph.nodes(data=True) if d["type"] == "Metric"}
    assert metrics["FID"] and metrics["running time"] and not metrics["accuracy"] and not metrics["AP"]


def test_a_parent_the_papers_write_as_another_tasks_alias_is_that_task_not_an_empty_node(graph):
    """The vocabulary's "visual object tracking" has the alias "object tracking" and that parent: papers writing
    "object tracking" name the one concept, which "multi-object tracking" goes under (there was also an empty
    "object tracking" node, linked to nothing, that `kg related --task "object tracking"` found with 0 papers)."""
    linked = {n for e in graph.edges for n in e[:2]}
    assert not [n for n, d in graph.nodes(data=True) if d["type"] != "Paper" and n not in linked]
    report = around_concept(graph, "Task", "object tracking")
    assert {p for p, _, _ in report.papers} == {"paper:o", "paper:p"}
    # the same by an alias that is not the concept's root: "activity recognition" is action recognition's
    assert {p for p, _, _ in around_concept(graph, "Task", "activity recognition").papers} >= {"paper:q", "paper:r"}
