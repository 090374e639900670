"""Links between concepts: tasks under their parent tasks, dataset variants and splits under their dataset.

- ``(:Task)-[:SUBTASK_OF]->(:Task)``: from the vocabulary's parent tasks (the Papers with Code task tree,
  ``kg/nlp/data/gazetteer/tasks.jsonl``); a task the tree does not place goes under the task its name ends with
  ("robust sparse mean estimation" under "sparse mean estimation"). Parents no paper names still become Task nodes (``papers`` 0), so a
  question about "pose estimation" reaches the papers on "3D human pose estimation"; not a parent the graph has as
  another type (papers use "knowledge distillation" as a method: no Task node of that name; its own parents take its
  place). A
  task's area ("Computer Vision") is a property of its node.
- ``(:Dataset)-[:VARIANT_OF]->(:Dataset)``: a dataset whose name is another dataset's name plus a variant, split
  or release ("ImageNet-C", "COCO test-dev", "ImageNet val", "SQuAD 2.0") is linked to it; both stay nodes.
- ``(:Method)-[:KIND_OF]->(:Method)``: a method whose name ends with another method's name ("Vision Transformer",
  "latent diffusion models"), both in the graph; and a method the vocabulary places in a family (``kind_of`` in
  ``kg/nlp/data/gazetteer/methods.jsonl``: DDPM among diffusion models, GCN among graph neural networks), the
  family a node of its own where no paper names it, as a task's parents are.

A metric's direction is the vocabulary's too: ``lower_is_better`` on the Metric nodes of error rates, distances,
losses, costs and times ("FID", "WER", "running time"), false on the others, so that results sort best first.

Computed once per resolution from the concepts' names, after cross-paper resolution.
"""
from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kg.build.resolve import Concept, Key, Resolution
from kg.nlp import lexicon
from kg.schema import concept_key

TASKS = lexicon.GAZETTEER / "tasks.jsonl"
DATASETS = lexicon.GAZETTEER / "datasets.jsonl"
METHODS = lexicon.GAZETTEER / "methods.jsonl"
METRICS = lexicon.GAZETTEER / "metrics.jsonl"
# A variant, split or release after a dataset's name: "-C", "-LT", " test-dev", " val set", " 2.0", "-v2", "-21K".
_VARIANT = re.compile(r"^(?P<base>.+?)[\s\-_]+(?P<suffix>[A-Z]{1,2}|v?\d+(?:\.\d+)*[KkMmBb]?|"
                      r"(?:train|training|val|valid|validation|test|testing|dev|test-dev|test-std|test-challenge|"
                      r"mini-?val|minival|trainval|held-out)(?:[\s\-](?:set|split))?)$")


@dataclass
class Hierarchy:
    """Concept nodes the links need that no paper names, each task's area, the metrics where lower is better, and
    the links."""

    nodes: dict[Key, Concept] = field(default_factory=dict)
    areas: dict[Key, str] = field(default_factory=dict)
    lower_is_better: set[Key] = field(default_factory=set)  # metrics the vocabulary says so of (error, FID, WER)
    links: list[tuple[Key, Key, str]] = field(default_factory=list)  # (child, parent, relationship type)


@lru_cache(maxsize=4)
def _vocabulary(path: Path) -> dict[str, dict]:
    """Folded name (and alias) of each entry of a vocabulary file -> the entry (its name, parents, area), the file
    read once; a parent it calls "general X" is X where it has X (:func:`_general`)."""
    out: dict[str, dict] = {}
    rows = []
    with path.open(encoding="utf-8") as f:
        for row in map(json.loads, f):
            rows.append(row)
            for name in (row["name"], *row.get("aliases", ())):
                out.setdefault(concept_key(name), row)
    for row in rows:
        if "parents" in row:
            row["parents"] = [_general(parent, out) for parent in row["parents"]]
    return out


_JOINING = lexicon.words("prepositions") | {"and", "or"}


def _known_head(name: str, known: Callable[[str], bool]) -> str | None:
    """The longest task name a task's name ends with, after words that narrow it ("robust sparse mean estimation"
    under "sparse mean estimation", "linear inverse problem" under "inverse problems"), or None. ``known`` tests a
    folded name (:func:`kg.schema.concept_key`)."""
    words = name.split()
    for k in range(1, len(words)):
        if words[k - 1].lower() in _JOINING:
            return None  # "transfer learning of visual recognition": the head is not the last word
        tail = " ".join(words[k:])
        if known(concept_key(tail)):
            return tail
    return None


def _general(name: str, tree: dict[str, dict]) -> str:
    """A parent the vocabulary calls "general X" is the task X where the vocabulary has it: offline reinforcement
    learning sits under "general reinforcement learning", which is reinforcement learning."""
    if name.lower().startswith("general ") and (row := tree.get(concept_key(name[len("general "):]))):
        return row["name"]
    return name


def _by_alias(res: Resolution, label: str) -> dict[str, Key]:
    """The concepts of ``label`` by the keys of their names in words ("object tracking"; not short forms, which name
    several things) and of their roots (the name a concept's first mention wrote)."""
    out: dict[str, Key] = {}
    for root, c in res.concepts.items():
        if root[0] == label:
            out.setdefault(root[1], root)
            for form in c.aliases:
                if " " in form.strip():
                    out.setdefault(concept_key(form), root)
    return out


def hierarchy(res: Resolution) -> Hierarchy:
    """The links among ``res``'s concepts (computed once and kept on ``res``)."""
    if res.hierarchy is None:
        res.hierarchy = _build(res)
    return res.hierarchy


def _build(res: Resolution) -> Hierarchy:
    h = Hierarchy()
    tasks = {key: c for (label, key), c in res.concepts.items() if label == "TASK"}
    by_name = {c.key: root for root, c in res.concepts.items() if root[0] == "TASK"}
    by_alias = _by_alias(res, "TASK")
    other_types = {c.key for root, c in res.concepts.items() if root[0] != "TASK"}
    tree = _vocabulary(TASKS)

    def task_root(name: str) -> Key | None:
        """The task named ``name``, a new node when no paper names it; None when the graph has it as a method
        (or another type): a name has one type per graph."""
        key = concept_key(name)
        root = by_name.get(key) or by_alias.get(key)  # a name the papers write for a task named otherwise: the
        # vocabulary's parent "object tracking" is the concept "visual object tracking", of that alias
        if root is None and key in other_types:
            return None
        if root is None:
            root = ("TASK", key)
            if root not in h.nodes:
                h.nodes[root] = Concept("TASK", key, name, [], False, 0)
                visit(root, name)
            by_name[key] = root
        return root

    def visit(root: Key, name: str) -> None:
        row = tree.get(concept_key(name), {})
        parents, area = list(row.get("parents", ())), row.get("area")
        if area:
            h.areas[root] = area
        seen = {concept_key(name)}
        while parents:
            parent = parents.pop(0)
            if concept_key(parent) in seen:
                continue
            seen.add(concept_key(parent))
            parent_root = task_root(parent)
            if parent_root is None:  # the graph has it as a method: its own parents take its place
                parents += tree.get(concept_key(parent), {}).get("parents", ())
            elif parent_root != root:
                h.links.append((root, parent_root, "SUBTASK_OF"))

    for key, c in list(tasks.items()):
        visit(("TASK", key), c.name)
    linked = {(child, parent) for child, parent, _ in h.links}
    parented = {child for child, _ in linked}
    named = dict(by_name)  # every name of the graph's tasks, and the vocabulary's names by any of theirs
    for key, c in tasks.items():
        for form in c.aliases:
            named.setdefault(concept_key(form), ("TASK", key))
    # then a narrower name under the task it ends with: the papers' tasks, and the parents no paper names that the
    # tree leaves without one ("2D object detection", the tree's parent of "semi-supervised object detection", under
    # object detection), those this adds in turn too
    pending = deque([*((("TASK", key), c) for key, c in tasks.items()),
                     *((r, c) for r, c in h.nodes.items() if r[0] == "TASK")])
    done: set[Key] = set()
    while pending:
        root, c = pending.popleft()
        if root in parented or root in done:
            continue
        done.add(root)
        head = _known_head(c.name, lambda k: k in named or k in tree)
        if head is None:
            continue
        folded = concept_key(head)
        if " " not in head.strip() and folded not in by_name and concept_key(tree.get(folded, {}).get("name", "")) != folded:
            continue  # one word names a task by its own name only, not as another's alias ("detection")
        n_nodes, n_links = len(h.nodes), len(h.links)
        parent_root = named.get(folded) or task_root(tree[folded]["name"])
        # (a new parent node came with the tree's links of its own: those it has need no name's)
        parented.update(child for child, _, _ in h.links[n_links:])
        if parent_root is not None and parent_root != root and (parent_root, root) not in linked:  # (no two-task cycle through aliases)
            h.links.append((root, parent_root, "SUBTASK_OF"))
            linked.add((root, parent_root))
        if len(h.nodes) > n_nodes:  # (dicts keep their order: the nodes added just now; rarely any)
            pending += list(h.nodes.items())[n_nodes:]
    datasets = {c.key: root for root, c in res.concepts.items() if root[0] == "DATASET"}
    for root, c in res.concepts.items():  # then their other names: "MS COCO test-dev" is a variant of COCO
        if root[0] == "DATASET":
            for form in c.aliases:
                datasets.setdefault(concept_key(form), root)
    known = _vocabulary(DATASETS)
    for root, c in list(res.concepts.items()):
        if root[0] != "DATASET":
            continue
        m = _VARIANT.match(c.name)
        if m is None:
            continue
        base_key = concept_key(m.group("base"))
        if base_key == c.key:
            continue
        base = datasets.get(base_key)
        if base is None and base_key in known:  # the vocabulary's dataset, by its own name ("MS COCO" is COCO)
            name = known[base_key]["name"]
            base = datasets.get(concept_key(name)) or ("DATASET", concept_key(name))
            if base not in res.concepts:
                h.nodes.setdefault(base, Concept("DATASET", concept_key(name), name, [], False, 0))
            datasets[base_key] = datasets[concept_key(name)] = base
        if base is not None and base != root:  # (a base that is one of its own names: "CUB-200" of CUB-200-2011)
            h.links.append((root, base, "VARIANT_OF"))
    _method_kinds(res, h)
    metrics = _vocabulary(METRICS)
    h.lower_is_better = {root for root, c in res.concepts.items()
                         if root[0] == "METRIC" and metrics.get(c.key, {}).get("lower_is_better")}
    return h


def _method_kinds(res: Resolution, h: Hierarchy) -> None:
    """A method whose name ends with another method's name, after words that narrow it, is a kind of it ("Vision
    Transformer", "latent diffusion models", "natural policy gradient"): by the other's own name, not an alias (a
    short form names several things: "personalized FL" is no focal loss), and a one-word name as it is written
    (the name "GRADIENT" is not the word "gradient"). And a vocabulary entry's family (``kind_of``), a new node
    where no paper names it."""
    methods = {c.key: root for root, c in res.concepts.items() if root[0] == "METHOD"}
    other_types = {c.key for root, c in res.concepts.items() if root[0] != "METHOD"}
    families = _vocabulary(METHODS)
    by_alias = _by_alias(res, "METHOD")
    for root, c in list(res.concepts.items()):
        if root[0] != "METHOD":
            continue
        linked = set()
        head = _known_head(c.name, lambda k: k in methods and methods[k] != root)
        if head is not None:
            parent = methods[concept_key(head)]
            name = (res.concepts.get(parent) or h.nodes[parent]).name  # (a family node no paper names, too)
            one, named = head.strip().removesuffix("s"), name.removesuffix("s")  # ("Transformers", "GANs")
            if " " in head.strip() or one == named or one.lower() == named.lower() and not name.isupper():
                h.links.append((root, parent, "KIND_OF"))
                linked.add(parent)
        row = families.get(c.key)
        # the vocabulary's family of the entry this concept is (by its name: a short form names several things)
        for family in row.get("kind_of", ()) if row is not None and concept_key(row["name"]) == c.key else ():
            key = concept_key(family)
            if key in other_types:
                continue  # the graph has the name as another type
            parent = methods.get(key) or by_alias.get(key)  # (a name the papers write for a method named otherwise)
            if parent is None:
                parent = methods[key] = ("METHOD", key)
                h.nodes.setdefault(parent, Concept("METHOD", key, family, [], False, 0))
            if parent != root and parent not in linked:
                h.links.append((root, parent, "KIND_OF"))
                linked.add(parent)
