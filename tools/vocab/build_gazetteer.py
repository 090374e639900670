"""Rebuild kg's gazetteer (kg/nlp/data/gazetteer) from independent vocabularies, with a source on every entry.

usage: python tools/vocab/build_gazetteer.py [--pwc DIR] [--gold FILE ...] [--check]

Inputs:
- the gazetteer's own hand-curated entries (source ``kg``), as they are in the checkout;
- the Papers with Code archive's lists (``../shared/data/pwc``, CC-BY-SA 4.0; source ``pwc``): dataset and
  benchmark names, task names with their parent tasks and areas, method names with full names.

Every entry lists its sources. A hand-curated entry that names something an evaluation gold file labels (``--gold``:
SciREX and TDMSci train mentions and document entities) is dropped unless independent evidence supports it: a PwC
entry of the same kind (by name, alias, or the name without its version or size: "ResNet-50" -> "ResNet"), or use
in unlabeled abstracts (``--background``, the NeurIPS 2022 corpus: the name is current vocabulary of the field).
Otherwise its only evidence would be the gold file, and a vocabulary fed by gold measures memory, not extraction. The gold files are
read for that audit only; nothing from them is written. ``--check`` writes nothing and exits 1 when such an entry is
still in the gazetteer.

PwC names are filtered before they become entries: junk (quotes, code, very long names), names that are ordinary
words or umbrella terms, and names PwC gives two kinds (a task that is also a dataset) stay out; a PwC task's
head word must name a task (``kg.nlp.labels.names_a_task``: "computational efficiency" and "word embeddings" are
not tasks); PwC-only datasets match case-sensitively, and short acronyms need a digit.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from kg.nlp.labels import names_a_task  # noqa: E402  (the checkout's kg, run as a script)

GAZ = ROOT / "kg" / "nlp" / "data" / "gazetteer"
SPEC = ROOT / "kg" / "nlp" / "data" / "specificity"
SHARED = ROOT.parent / "shared" / "data"
DEFAULT_BACKGROUND = [SHARED / "neurips2022-corpus.jsonl"]
DEFAULT_GOLD = [SHARED / "scirex-abstracts-train.jsonl", SHARED / "tdmsci-train.jsonl"]
FILES = {"DATASET": "datasets.jsonl", "TASK": "tasks.jsonl", "METRIC": "metrics.jsonl", "METHOD": "methods.jsonl"}
_JUNK = re.compile(r"[\"'=*;<>{}\[\]|\\$@%#~^`]|https?:|\.(?:com|org|net)\b")


def key(name: str) -> str:
    """A name folded for comparison: case, punctuation and spacing, a plural s."""
    s = re.sub(r"[^0-9a-z+]+", "", name.lower())
    return s[:-1] if s.endswith("s") and len(s) > 4 else s


def read_jsonl(path: Path) -> list[dict]:
    """Every object of a JSON Lines file."""
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _words() -> tuple[set[str], set[str]]:
    """Umbrella terms and class heads, and the background words (kg/nlp/data/specificity)."""
    umbrella = json.loads((SPEC / "umbrella.json").read_text(encoding="utf-8"))
    terms = {t.lower() for ts in umbrella["labels"].values() for t in ts} | {
        t.lower() for t in umbrella["class_heads"]["terms"]} | {t.lower() for t in umbrella["not_metrics"]["terms"]}
    generic = set(json.loads((SPEC / "generic_words.json").read_text(encoding="utf-8"))["words"])
    terms |= {r["name"].lower() for r in read_jsonl(GAZ / "generic.jsonl")}  # "SOTA", "baseline": never a name
    return terms, generic


def _clean(name: str) -> str | None:
    name = " ".join(re.sub(r"\s*\([^)]*\)", "", name).split())  # "Reinforcement Learning (RL)" -> its name
    if not (3 <= len(name) <= 50) or _JUNK.search(name) or not name[0].isalnum() or len(name.split()) > 6:
        return None
    return name


def pwc_forms(pwc: Path) -> dict[str, set[str]]:
    """Folded names of every PwC entry per label (for confirming hand-curated entries)."""
    out: dict[str, set[str]] = defaultdict(set)
    for r in read_jsonl(pwc / "datasets.jsonl"):
        out["DATASET"].update(key(n) for n in (r["name"], *r.get("aliases", ())))
    for r in read_jsonl(pwc / "tasks.jsonl"):
        out["TASK"].update(key(n) for n in (r["name"], *r.get("aliases", ())))
    for r in read_jsonl(pwc / "metrics.jsonl"):
        out["METRIC"].update(key(n) for n in (r["name"], *r.get("aliases", ())))
    for r in read_jsonl(pwc / "methods.jsonl"):
        out["METHOD"].update(key(n) for n in (r["name"], r.get("full_name") or "", *r.get("aliases", ())) if n)
    return out


def base(name: str) -> str:
    """A name without a trailing version, size or year ("ResNet-50" -> "ResNet", "FlowNet 2.0" -> "FlowNet")."""
    return re.sub(r"[\s\-_]*(?:v?\d+(?:\.\d+)*[a-zA-Z]?|[xX]?[LlBbMmKk])$", "", name).strip() or name


def attested(paths: list[Path]) -> str:
    """The unlabeled background abstracts, lower-cased and joined (titles included)."""
    parts = []
    for path in paths:
        if path.exists():
            parts += [f"{d.get('title', '')} {d.get('text', '')}".lower() for d in read_jsonl(path)]
    return "\n".join(parts)


def used_in(text: str, forms: list[str]) -> bool:
    """Whether any form occurs as whole words in ``text`` (lower-cased)."""
    return any(re.search(rf"(?<![\w-]){re.escape(f.lower())}(?![\w-])", text) for f in forms if len(f) >= 3)


def gold_names(paths: list[Path]) -> set[str]:
    """Folded names that the gold files label (mention texts and document entities), for the audit only."""
    out: set[str] = set()
    for path in paths:
        if not path.exists():
            continue
        for d in read_jsonl(path):
            text = d.get("text", "")
            out.update(key(text[s["start"]:s["end"]]) for s in d.get("spans", ()))
            out.update(key(f) for groups in d.get("entities", {}).values() for g in groups for f in g)
    return out


def task_case(name: str) -> str:
    """A PwC task name in the case abstracts write it: words lower-cased but acronyms and names with a digit
    ("3D Human Pose Estimation" -> "3D human pose estimation", "Visual Question Answering (VQA)" keeps "VQA")."""
    return " ".join(w if sum(c.isupper() for c in w) >= 2 or re.search(r"\d", w) else w.lower() for w in name.split())


def pwc_datasets(pwc: Path, taken: set[str], blocked: set[str], generic: set[str], background: str) -> list[dict]:
    """Entries for PwC dataset and benchmark names that look like names and are not taken or ambiguous."""
    out = []
    for r in read_jsonl(pwc / "datasets.jsonl"):
        name = _clean(r["name"])
        if name is None or key(name) in taken or key(name) in blocked or name.lower() in generic:
            continue
        if not re.search(r"[A-Z0-9]", name):
            continue  # all lower case: an ordinary phrase more often than a name
        words = name.split()
        if len(words) == 1 and re.fullmatch(r"[A-Z][a-z]+", name) and used_in(background, [name]):
            continue  # a capitalised ordinary word ("Supervised"): the abstracts use it as a word
        letters = re.sub(r"[^A-Za-z]", "", name)
        if len(letters) <= 3 and not re.search(r"\d", name):
            continue  # short acronyms without a digit are too ambiguous to match everywhere
        kinds = set(r.get("kinds", ()))
        out.append({"name": name, "aliases": [], "label": "DATASET", "benchmark": kinds == {"benchmark"},
                    "case_sensitive": True, "sources": ["pwc"]})
        taken.add(key(name))
    return out


def pwc_tasks(pwc: Path, taken: set[str], blocked: set[str], umbrella: set[str]) -> tuple[list[dict], dict]:
    """Entries for PwC task names of two or more words, and every PwC task's parents (by folded name)."""
    out, parents = [], {}
    for r in read_jsonl(pwc / "tasks.jsonl"):
        name = _clean(r["name"])
        if name is None:
            continue
        parents[key(name)] = {"parents": [task_case(c) for c in map(_clean, r.get("parents", ()))
                                          if c and c.lower() not in umbrella and len(c.split()) > 1],
                              "area": r.get("area")}  # a one-word parent ("Video") is an umbrella, not a task
        if key(name) in taken or key(name) in blocked or name.lower() in umbrella or len(name.split()) < 2:
            continue
        if re.search(r"\d", name) and not re.search(r"\b\d+D\b", name):
            continue  # "10-shot image generation": benchmark settings, not tasks as abstracts name them
        if not names_a_task(name):
            continue  # "computational efficiency", "word embeddings", "translation eng-fra": no task's head word
        out.append({"name": task_case(name), "aliases": [],
                    "label": "TASK", "benchmark": False, "case_sensitive": False, "sources": ["pwc"]})
        taken.add(key(name))
    return out, parents


def pwc_methods(pwc: Path, taken: set[str], blocked: set[str], background: str) -> list[dict]:
    """Entries for PwC methods used by at least three papers: the name (case-sensitive when it is one word) and
    the full name as an alias; ordinary words, umbrella terms and names of other kinds stay out."""
    out = []
    for r in read_jsonl(pwc / "methods.jsonl"):
        name = _clean(r["name"])
        if name is None or (r.get("num_papers") or 0) < 3 or key(name) in taken or key(name) in blocked:
            continue
        words = name.split()
        if len(words) == 1:
            if re.fullmatch(r"[A-Z]?[a-z]+", name) and used_in(background, [name]):
                continue  # an ordinary word ("Dropout" stays: the abstracts write it as the method)
            letters = re.sub(r"[^A-Za-z]", "", name)
            if len(letters) <= 3 and not re.search(r"\d", name):
                continue  # "AMP", "PGM": short acronyms name too many things
        elif all(w.lower() in blocked or len(w) <= 2 for w in words):
            continue
        full = _clean(r.get("full_name") or "")
        aliases = [full] if full and key(full) != key(name) and key(full) not in taken and len(full.split()) > 1 \
            and key(full) not in blocked else []
        out.append({"name": name, "aliases": aliases, "label": "METHOD", "benchmark": False,
                    "case_sensitive": len(words) == 1, "sources": ["pwc"]})
        taken.update(key(f) for f in (name, *aliases))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pwc", type=Path, default=SHARED / "pwc")
    ap.add_argument("--gold", type=Path, action="append")
    ap.add_argument("--background", type=Path, action="append")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    umbrella, generic = _words()
    confirmed = pwc_forms(args.pwc)
    gold = gold_names(args.gold or DEFAULT_GOLD)
    background = attested(args.background or DEFAULT_BACKGROUND)
    entries: dict[str, list[dict]] = {}
    dropped = []
    for label, file in FILES.items():
        rows = [r for r in read_jsonl(GAZ / file) if "kg" in r.get("sources", ["kg"])]  # PwC rows are made anew
        kept = []
        for row in rows:
            names = [row["name"], *row.get("aliases", ())]
            forms = {key(f) for f in names} | {key(base(f)) for f in names}
            sources = [s for s in row.get("sources", ["kg"]) if s != "pwc"]
            if forms & confirmed[label]:
                sources.append("pwc")
            if sources == ["kg"] and {key(f) for f in names} & gold and not used_in(background, names):
                dropped.append(f"{label}: {row['name']}")
                continue
            kept.append({**row, "sources": sources})
        entries[label] = kept
    if args.check:
        for d in dropped:
            print(f"only a gold file supports {d}")
        return 1 if dropped else 0
    taken = {key(f) for rows in entries.values() for r in rows for f in (r["name"], *r.get("aliases", ()))}
    blocked = {key(r["name"]) for r in read_jsonl(args.pwc / "methods.jsonl")} | {key(w) for w in umbrella}
    task_names = {key(r["name"]) for r in read_jsonl(args.pwc / "tasks.jsonl")}
    new_datasets = pwc_datasets(args.pwc, set(taken), blocked | task_names, generic | umbrella, background)
    new_tasks, parents = pwc_tasks(args.pwc, set(taken) | {key(d["name"]) for d in new_datasets},
                                   blocked | {key(r["name"]) for r in read_jsonl(args.pwc / "datasets.jsonl")},
                                   umbrella)
    new_methods = pwc_methods(args.pwc, set(taken) | {key(d["name"]) for d in new_datasets + new_tasks},
                              {key(w) for w in umbrella | generic}, background)
    entries["DATASET"] += new_datasets
    entries["TASK"] += new_tasks
    entries["METHOD"] += new_methods
    for row in entries["TASK"]:
        row.pop("parents", None)
        row.pop("area", None)
        info = next((parents[k] for k in (key(f) for f in (row["name"], *row.get("aliases", ()))) if k in parents),
                    None)
        if info and info["parents"]:
            row["parents"] = info["parents"]
        if info and info["area"]:
            row["area"] = info["area"]
    for label, file in FILES.items():
        with (GAZ / file).open("w", encoding="utf-8") as f:
            for row in entries[label]:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    manifest_path = GAZ / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["sources"] = {
        "kg": "hand-curated for kg from general knowledge of the machine-learning literature; surface-form variants "
              "expanded mechanically",
        "pwc": "Papers with Code archive (tasks with parents and areas, datasets and benchmarks, metrics, methods), "
               "CC-BY-SA 4.0, https://paperswithcode.com; see ATTRIBUTION.md",
    }
    manifest["inputs"] = ["kg (the gazetteer's hand-curated entries)", "pwc/datasets.jsonl", "pwc/tasks.jsonl",
                          "pwc/metrics.jsonl", "pwc/methods.jsonl"]
    manifest_path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"dropped {len(dropped)} hand-curated entries that only a gold file supports")
    for d in dropped:
        print(f"  {d}")
    print(f"added {len(new_datasets)} PwC datasets, {len(new_tasks)} tasks and {len(new_methods)} methods")
    sys.path.insert(0, str(ROOT))
    from kg.nlp.components.gazetteer import write_manifest

    write_manifest(GAZ)
    return 0


if __name__ == "__main__":
    sys.exit(main())
