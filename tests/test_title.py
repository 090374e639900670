"""A title "NAME: description" names the paper's proposed method or dataset."""
from __future__ import annotations

import json

import pytest

from kg.model import Paper
from kg.nlp.extract import extract
from kg.nlp.components.title import title_name


@pytest.mark.parametrize("title,expected", [
    ("GraphDE: A Generative Framework for Debiased Learning", ("GraphDE", "METHOD", False)),
    ("DPM-Solver: A Fast ODE Solver for Diffusion Probabilistic Model Sampling", ("DPM-Solver", "METHOD", False)),
    ("Natural Color Fool: Towards Boosting Black-box Unrestricted Attacks", ("Natural Color Fool", "METHOD", True)),
    ("CEBaB: Estimating the Causal Effects of Real-World Concepts", ("CEBaB", "METHOD", False)),
    ("OpenOOD: Benchmarking Generalized Out-of-Distribution Detection", ("OpenOOD", "METHOD", False)),
    ("LAION-5B: An open large-scale dataset for training next generation image-text models", ("LAION-5B", "DATASET", False)),
])
def test_title_names(title, expected):
    assert title_name(title) == expected


@pytest.mark.parametrize("title", [
    "Why neural networks find simple solutions: the many regularizers of geometric complexity",
    "M$^4$I: Multi-modal Models Membership Inference",  # LaTeX in the name
    "Learning to Sample and Aggregate: Few-shot Reasoning over Temporal Knowledge Graphs",
    "Towards Effective Interpretability",  # no colon
])
def test_titles_without_a_name(title):
    assert title_name(title) is None


def test_the_abstracts_occurrences_of_the_title_name_are_proposed():
    paper = Paper("p1", "Out-of-distribution detection on graphs is hard. We introduce a generative framework that "
                        "models both. Experiments show that GraphDE outperforms prior work.",
                  title="GraphDE: A Generative Framework for Debiased Learning and Out-of-Distribution Detection")
    (_, ex), = extract([paper])
    assert "GraphDE" in ex.proposed
    untitled = Paper("p2", paper.text)
    (_, ex2), = extract([untitled])
    assert "GraphDE" not in ex2.proposed


def test_a_topic_in_title_case_is_not_proposed_when_the_abstract_writes_it_in_lower_case():
    paper = Paper("p3", "Knowledge distillation trains a student from a teacher. We show that knowledge distillation "
                        "from bad teachers helps.", title="Knowledge Distillation: Bad Models Can Be Good Role Models")
    (_, ex), = extract([paper])
    assert ex.proposed == []


def test_concepts_named_only_in_the_title_are_extracted_with_title_offsets():
    from kg.sinks.predictions import prediction

    title = "Robust Semantic Segmentation with Vision Transformers"
    paper = Paper("p4", "We study corruptions of street scenes. Our model is trained on Cityscapes.", title=title)
    (_, ex), = extract([paper])
    titled = [m for m in ex.mentions if m.in_title]
    assert {m.canonical.lower() for m in titled} >= {"semantic segmentation"}
    for m in titled:
        assert title[m.start:m.end] == m.text and (m.sentence.start, m.sentence.end) == (0, len(title))
    pred = prediction(paper, ex)
    assert any(n.lower() == "semantic segmentation" for n in pred["concepts"]["TASK"])
    # mention offsets in the prediction point into the abstract only
    assert all(paper.text[m["start"]:m["end"]] for m in pred["mentions"])
    assert not any(m["text"].lower() == "semantic segmentation" for m in pred["mentions"])


def test_title_evidence_in_the_graph_names_the_title_field(tmp_path):
    import kg
    import networkx as nx

    src = tmp_path / "p.jsonl"
    src.write_text(json.dumps({"id": "t1", "title": "Semantic Segmentation of Street Scenes",
                               "text": "We train a network on Cityscapes and report mIoU."}) + "\n", encoding="utf-8")
    kg.build([str(src)], tmp_path / "out")
    g = nx.node_link_graph(json.loads((tmp_path / "out" / "graph.json").read_text()), edges="links")
    (data,) = [d for _, _, k, d in g.out_edges("paper:t1", keys=True, data=True) if k == "ADDRESSES"]
    assert data["evidence"][0]["field"] == "title" and data["sentence"] == "Semantic Segmentation of Street Scenes"
    assert g.nodes["paper:t1"]["name"] == "Semantic Segmentation of Street Scenes"

