"""One way to name a concept (a dataset, task, method or metric) in ``kg related --dataset/--task/--method`` and in
the concept parameters of the saved queries (``kg query``): its id (``task:reinforcementlearning``), its name or an
alias, names compared as concept keys (:func:`kg.schema.concept_key`: case, spacing, punctuation, a plural and a
trailing "dataset" do not matter, so "CIFAR 10" names CIFAR-10, and "snns" SNN as "SNNs" does).

A name spelled as one of two concepts that differ only in case is written ("SnAKe" beside "SNAKE", keyed by
:func:`kg.schema.cased_key`) names that one, and one spelled as neither ("snake") lists them. Otherwise the ways
are tried in that order (id, the key of an id, name, alias) and the first that some concept answers to
decides: one concept is the answer, several raise :class:`AmbiguousConcept` listing them (nothing is picked
silently; "RL" is an alias of reinforcement learning and of offline reinforcement learning), none a ValueError
naming the closest names. A name that may stand for a concept of any type ("concept") is looked for by the key of
an id, name and alias at once: "SSL", the name of a method and an alias of two tasks, lists all three. The
concepts come from a graph or the related index (:func:`match_concept`) or from a
store through Cypher (:func:`resolve_in_store`, the same on Ladybug and Neo4j).

>>> tasks = [(i, i, n, a) for i, n, a in [("task:reinforcementlearning", "reinforcement learning", ["RL"]),
...     ("task:offlinereinforcementlearning", "offline reinforcement learning", ["offline RL", "RL"])]]
>>> match_concept(tasks, "Task", "Reinforcement-Learning"), match_concept(tasks, "Task", "offline rl")
('task:reinforcementlearning', 'task:offlinereinforcementlearning')
>>> try:
...     match_concept(tasks, "Task", "RL")
... except AmbiguousConcept as exc:
...     for line in exc.lines():
...         print(line)
task:offlinereinforcementlearning  offline reinforcement learning
task:reinforcementlearning  reinforcement learning
"""
from __future__ import annotations

import difflib
import functools
import json
from collections.abc import Iterable, Iterator
from typing import TypeVar

from kg import schema
from kg.nlp.lexicon import GAZETTEER
from kg.paper_names import AmbiguousName, Candidate, Run

K = TypeVar("K")

CONCEPT = "concept"  # a concept of any of the four types
CONCEPT_TYPES = (schema.DATASET, schema.TASK, schema.METHOD, schema.METRIC)
# the kinds of concept a name may stand for (as ``// params:`` headers write them) -> the node labels they cover
LABELS: dict[str, tuple[str, ...]] = {**{t.label.lower(): (t.label,) for t in CONCEPT_TYPES},
                                      CONCEPT: tuple(t.label for t in CONCEPT_TYPES)}


class AmbiguousConcept(AmbiguousName):
    """A name that several concepts answer to equally well; ``candidates`` lists them (id and name)."""


def _by_id(wanted: str, key: str, node: str, name: str, aliases: Iterable[str]) -> bool:
    return node == wanted


def _by_id_key(wanted: str, key: str, node: str, name: str, aliases: Iterable[str]) -> bool:
    return node.split(":", 1)[-1] == key


def _by_name(wanted: str, key: str, node: str, name: str, aliases: Iterable[str]) -> bool:
    return schema.concept_key(str(name)) == key


def _by_alias(wanted: str, key: str, node: str, name: str, aliases: Iterable[str]) -> bool:
    return any(schema.concept_key(str(a)) == key for a in aliases)


# The ways a name names a concept, the surest first (a concept's id is its type and its name's key, or its cased
# key for names apart by case, which match_concept tries first; so the cheap second way finds every other name of a
# graph kg built; the names and aliases are read only when it finds none).
_WAYS = (_by_id, _by_id_key, _by_name, _by_alias)
# For a concept of any type, all but the id at once: a type's name is no surer than another type's alias.
_ANY_TYPE_WAYS = ((_by_id,), (_by_id_key, _by_name, _by_alias))


def _ways(node_type: str) -> tuple[tuple, ...]:
    """The groups of ways tried in turn for a concept of ``node_type`` (a label, or "concept": any type)."""
    return _ANY_TYPE_WAYS if node_type == CONCEPT else tuple((way,) for way in _WAYS)


def keys(name: str) -> list[str]:
    """The concept keys ``name`` may stand for: its own, then, for a name ending in "s" that its key keeps (a
    plural acronym in lower case: "snns", "llms"), the key without it, and the key of the name in capitals (a name
    in lower case whose last "s" is a letter of it: "lora-ps").

    >>> keys("snns"), keys("SNNs"), keys("lora-ps"), keys("")
    (['snns', 'snn'], ['snn', 'snns'], ['lorap', 'loraps'], [])
    """
    name = name.strip()
    found = [schema.concept_key(name)] if name else []
    if name[-1:] in ("s", "S") and found and found[0].endswith("s"):
        found.append(schema.concept_key(name[:-1]))
    if name and name != name.upper():  # "lora-ps" as "LoRA-PS" is written: its "s" is no plural
        found.append(schema.concept_key(name.upper()))
    return [k for k in dict.fromkeys(found) if k]


def match_concept(concepts: Iterable[tuple[K, str, str, Iterable[str]]], node_type: str, name: str,
                  others: Iterable[tuple[str, str, Iterable[str]]] = ()) -> K:
    """The key of the concept of ``concepts`` (key, node id, name, aliases; all of ``node_type``, or of any type for
    "concept") that ``name`` names: by its id, else its name, else an alias (the first way some concept answers to
    decides; for "concept", name and alias are one way), by each of its :func:`keys` in turn; else, for a name the
    vocabulary knows, by the vocabulary's other names of it ("MS-COCO" names COCO in a graph whose papers write
    only "COCO"). Raises :class:`AmbiguousConcept` when several answer to it that way, and ValueError with the
    closest names when none does, and the concepts of other types it names (``others``: type, name and aliases of
    the graph's other concepts; the vocabulary's otherwise)."""
    concepts = list(concepts)
    found = _match(concepts, node_type, name)
    for other in _vocabulary_names(name, node_type) if found is None else ():
        found = _match(concepts, node_type, other)
        if found is not None:
            break
    if found is None:
        raise ValueError(not_found([str(c[2]) for c in concepts], node_type, name) + _other_type(name, node_type,
                                                                                                 others))
    return found[0]


def _other_type(name: str, node_type: str, others: Iterable[tuple[str, str, Iterable[str]]]) -> str:
    """A note naming the concepts of other types than ``node_type`` that ``name`` names ("SSL" asked for as a
    dataset names tasks), those of ``others`` (type, name, aliases), else the vocabulary's; "" if none."""
    key = schema.concept_key(name)
    found = sorted({(t, str(n)) for t, n, aliases in others
                    if key in {schema.concept_key(str(f)) for f in (n, *aliases)}})
    if not found:
        labels = LABELS.get(node_type.lower(), (node_type,))
        found = sorted({(t, names[0]) for t, names in _vocabulary().get(key, ()) if t not in labels})
    if not found:
        return ""
    kinds = " or ".join(dict.fromkeys(t.lower() for t, _ in found))
    return f" ('{name}' names a {kinds}: {', '.join(n for _, n in found[:3])}" \
           f"{', ...' if len(found) > 3 else ''})"


def _match(concepts: list[tuple[K, str, str, Iterable[str]]], node_type: str, name: str) -> tuple[K] | None:
    """:func:`match_concept` by the graph's names alone: the key found (in a tuple), or None."""
    wanted = name.strip()
    cased = schema.cased_key(wanted)  # "SnAKe" where "SNAKE" is another concept (kg.build.resolve)
    found_cased = [k for k, node, _, _ in concepts if node.split(":", 1)[-1] == cased]
    if len(found_cased) == 1:
        return (found_cased[0],)
    apart = _apart_by_case(concepts, wanted)
    if apart:
        raise AmbiguousConcept(wanted, [Candidate(node, str(cname)) for _, node, cname, _ in apart], node_type.lower())
    for key in keys(wanted):
        for ways in _ways(node_type):
            found = {node: (k, cname) for k, node, cname, aliases in concepts
                     if any(way(wanted, key, node, cname, aliases) for way in ways)}
            if len(found) == 1:
                return (next(iter(found.values()))[0],)
            if found:
                raise AmbiguousConcept(wanted, [Candidate(n, str(c)) for n, (_, c) in found.items()],
                                       node_type.lower())
    return None


@functools.lru_cache(maxsize=1)
def _vocabulary() -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """The vocabulary's entries by the concept key of each of their names: (node label, the entry's names, its own
    name first), read once (~50 ms)."""
    out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for path in sorted(GAZETTEER.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for entry in map(json.loads, fh):
                node = schema.NODE_FOR_LABEL.get(entry.get("label", ""))
                if node is None:
                    continue
                names = (entry["name"], *entry.get("aliases", ()))
                for n in names:
                    out.setdefault(schema.concept_key(n), []).append((node.label, names))
    return out


def _vocabulary_names(name: str, node_type: str) -> list[str]:
    """The vocabulary's other names of the concept ``name`` names (of ``node_type``, or any type for "concept"),
    its own name first."""
    labels = LABELS.get(node_type.lower(), (node_type,))
    out = [n for label, names in _vocabulary().get(schema.concept_key(name), ()) if label in labels for n in names]
    return [n for n in dict.fromkeys(out) if schema.concept_key(n) != schema.concept_key(name)]


def _apart_by_case(concepts: list[tuple], wanted: str) -> list[tuple]:
    """The concepts of ``wanted``'s key and those of that key apart by case (``snake`` and ``snake-SnAKe``), when
    there are such and ``wanted`` is spelled as none of them ("snake" of "SNAKE" and "SnAKe"): nothing is picked
    silently. Empty otherwise."""
    key = schema.concept_key(wanted)
    plain = [c for c in concepts if c[1].split(":", 1)[-1] == key]
    siblings = [c for c in concepts if c[1].split(":", 1)[-1].startswith(key + "-")]
    if not siblings or any(schema.cased_key(str(c[2])) == schema.cased_key(wanted) for c in plain):
        return []
    return plain + siblings


def not_found(names: list[str], node_type: str, name: str) -> str:
    """The message for a name that no concept of ``names`` answers to, with the closest of them."""
    key = schema.concept_key(name)
    names = list(dict.fromkeys(names))
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    close += [n for n in sorted(names, key=str.casefold) if key and key in schema.concept_key(n) and n not in close]
    if close:  # (a name close to it, or one with it inside: "ImageNet" for ImageNet-1K)
        hint = f"; did you mean {', '.join(close[:5])}?"
    else:
        shown = sorted(names, key=str.casefold)
        hint = f"; the graph has {len(shown)} {node_type} names, e.g. {', '.join(shown[:5])}" if shown else ""
    return f"no {node_type} named '{name}' in the graph{hint}"


def resolve_in_store(run: Run, kind: str, name: str) -> str:
    """The id of the concept of ``kind`` (a key of :data:`LABELS`) that ``name`` names in a store, through ``run``
    (Cypher on Ladybug or Neo4j), as :func:`match_concept` finds it. One lookup of a few ids finds a concept by its
    id or its name; only a name that is neither, or one that may stand for a concept of any type and is no id (the
    aliases of the other types count as much), reads every concept of the kind."""
    labels = LABELS[kind]
    ids = [name.strip(), *(schema.node_id(label, key) for key in [*keys(name), schema.cased_key(name)]
                           for label in labels)]
    rows = _concepts(run, labels, "WHERE c.id IN $ids", {"ids": ids})
    key = schema.concept_key(name)
    if key and any(r[0].split(":", 1)[-1] == key for r in rows):  # the concepts of its key apart by case too
        rows += [r for label in labels for r in _concepts(run, (label,), "WHERE c.id STARTS WITH $p",
                                                            {"p": schema.node_id(label, key) + "-"}) if r not in rows]
    if not rows or (kind == CONCEPT and all(r[0] != name.strip() for r in rows)):
        rows = _concepts(run, labels, "", {})
    node_type = labels[0] if len(labels) == 1 else kind
    return match_concept(((r[0], r[0], r[1], r[2] or ()) for r in rows), node_type, name,
                         _other_concepts(run, labels))


def _other_concepts(run: Run, labels: tuple[str, ...]) -> Iterator[tuple[str, str, Iterable[str]]]:
    """(type, name, aliases) of the store's concepts of the types not in ``labels``, read only when iterated (a name
    no concept of ``labels`` has)."""
    for t in CONCEPT_TYPES:
        if t.label not in labels:
            yield from ((t.label, r[1], r[2] or ()) for r in _concepts(run, (t.label,), "", {}))


def _concepts(run: Run, labels: tuple[str, ...], where: str, params: dict) -> list[list]:
    """(id, name, aliases) of each concept of ``labels`` that ``where`` keeps (labels come from kg.schema only)."""
    return [row for label in labels
            for row in run(f"MATCH (c:{label}) {where} RETURN c.id, c.name, c.aliases", params)]
