"""A title "NAME: description" names the paper's proposed method or dataset."""
from __future__ import annotations

import pytest

from kg.model import Paper
from kg.nlp.extract import extract
from kg.nlp.title import title_name


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
