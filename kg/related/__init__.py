"""Related work: papers ranked by the concepts they share with a paper, a text or a concept, weighted by rarity,
and by how alike their texts are (:mod:`kg.related.ranking`; TF-IDF cosine of titles and abstracts in
:mod:`kg.related.textsim`, blended with the cosine of their MiniLM embeddings, :mod:`kg.related.semantic`). ``kg related`` prints the ranking; ``kg.related.related(graph, paper)`` returns it.
``find_paper`` names a paper as everywhere in kg (:mod:`kg.paper_names`)."""
from __future__ import annotations

from kg.paper_names import AmbiguousPaper, find_paper
from kg.related.ranking import (
    DEFAULT_WEIGHTS,
    TEXT_WEIGHT,
    ConceptReport,
    Hit,
    Shared,
    around_concept,
    concepts_from_text,
    find_concept,
    rank,
    related,
    text_index,
    weights_for,
)

__all__ = ["DEFAULT_WEIGHTS", "TEXT_WEIGHT", "AmbiguousPaper", "ConceptReport", "Hit", "Shared", "around_concept",
           "concepts_from_text", "find_concept", "find_paper", "rank", "related", "text_index", "weights_for"]
