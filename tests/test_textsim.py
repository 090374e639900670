"""TF-IDF similarity of paper texts, and its part in the related-work ranking."""
from __future__ import annotations

import networkx as nx

from kg.related import related
from kg.related.textsim import TextIndex, paper_text, words

DOCS = [("a", "Pose estimation of hands from monocular depth images with graph networks."),
        ("b", "We estimate 3D hand pose from a single depth image using a graph convolutional network."),
        ("c", "A study of optimal transport for domain adaptation in speech recognition."),
        ("d", "Speech recognition systems adapt across domains with optimal transport maps.")]


def test_words_drop_stop_and_abstract_words():
    assert words("We propose a novel method for Pose-Estimation of hands.") == ["pose-estimation", "hands"]


def test_the_most_similar_text_ranks_first_and_unrelated_texts_score_nothing():
    index = TextIndex(DOCS)
    sims = index.similar("a")
    assert max(sims, key=sims.get) == "b" and sims.get("c", 0.0) == 0.0 and "a" not in sims
    assert max(index.similar_to_text("optimal transport speech"), key=index.similar_to_text(
        "optimal transport speech").get) in {"c", "d"}


def test_related_explains_text_similarity_and_orders_ties_by_it():
    g = nx.MultiDiGraph()
    for key, text in DOCS:
        g.add_node(f"paper:{key}", type="Paper", name=key, abstract=text, title="")
    g.add_node("dataset:x", type="Dataset", name="X", idf=1.0)
    for key in "abc":
        g.add_edge(f"paper:{key}", "dataset:x", key="EVALUATES_ON")
    hits = related(g, "paper:a", top=3)
    # b and c share X equally; b's text is the closer one, so it ranks first; d shares only words with a (none here)
    assert [h.paper for h in hits] == ["paper:b", "paper:c"] and hits[0].similarity > hits[1].similarity == 0.0
    assert [h.paper for h in related(g, "paper:a", top=3, text_weight=0)] == ["paper:b", "paper:c"]


def test_a_formulas_commands_are_no_words_of_a_text():
    latex = [("m1", r"Phase retrieval of $\mathbf{x} \in \mathbb{R}^n$ from $\mathcal{O}(\frac{1}{n})$ samples."),
             ("m2", r"Kernel ridge regression on $\mathbb{R}^d$ with $\mathcal{H}$ norms $\|\mathbf{f}\|$."),
             ("m3", r"Spiking networks reach $77.35\%$ on \textbf{phase} images.")]
    index = TextIndex((key, paper_text(None, text)) for key, text in latex)
    assert not {"mathbf", "mathbb", "mathcal", "frac", "textbf"} & set(index.idf)
    assert index.similar("m1") == {"m3": index.similar("m1")["m3"]}  # "phase", not the shared commands
    assert "m2" not in index.similar_to_text(r"a set $\mathcal{S} \subset \mathbb{R}^n$")
