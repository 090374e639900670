"""``kg eval``: extraction quality on a gold file in the shared JSONL format (``text``, ``spans``, ``entities``).

Definitions follow the project's scorer (``shared/tools/score.py``), so numbers agree (a test checks):
- mention level, micro-averaged: strict = same span and label; partial = overlapping span, same label;
- document level: a predicted name is right when, normalised (case, punctuation, a trailing "dataset"/"benchmark",
  a plural "s"), it equals a surface form of a gold concept with that label; recall counts gold concepts found;
- ``MODEL`` counts as METHOD and ``BENCHMARK`` as DATASET; PROPOSED is scored on the ``proposed`` list.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kg.model import LABELS

SAME_AS = {"MODEL": "METHOD", "BENCHMARK": "DATASET"}


def normalise(name: str) -> str:
    s = name.lower().replace("’", "'")
    s = re.sub(r"\b(data ?sets?|benchmarks?|corpus|corpora)\b", " ", s)
    s = re.sub(r"[^0-9a-z+#]+", "", s)
    return s[:-1] if s.endswith("s") and len(s) > 4 else s


@dataclass
class PRF:
    correct_pred: int = 0
    pred: int = 0
    correct_gold: int = 0
    gold: int = 0

    @property
    def p(self) -> float:
        return self.correct_pred / self.pred if self.pred else 0.0

    @property
    def r(self) -> float:
        return self.correct_gold / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        return 2 * self.p * self.r / (self.p + self.r) if self.p + self.r else 0.0

    def as_dict(self) -> dict:
        return {"p": round(self.p, 4), "r": round(self.r, 4), "f1": round(self.f1, 4), "pred": self.pred, "gold": self.gold}


def _label(label: str) -> str:
    return SAME_AS.get(label.upper(), label.upper())


def score(gold: dict[str, dict], pred: dict[str, dict], labels: list[str]) -> dict:
    """Mention-level (when the gold has spans) and document-level scores per label."""
    out: dict = {"docs": len(gold), "missing_predictions": sorted(set(gold) - set(pred))}
    spanned = {doc_id: g for doc_id, g in gold.items() if "spans" in g}  # (mention level: the documents with spans)
    if any(g["spans"] for g in spanned.values()):
        mention = {}
        for lab in [*labels, "ALL"]:
            strict, partial = PRF(), PRF()
            for doc_id, g in spanned.items():
                want = lambda L: L in labels and (lab == "ALL" or L == lab)  # noqa: E731
                gs = {(s["start"], s["end"], s["label"]) for s in g["spans"] if want(s["label"])}
                ps = {(m["start"], m["end"], _label(m["label"])) for m in pred.get(doc_id, {}).get("mentions", [])
                      if want(_label(m["label"]))}
                hit = len(gs & ps)
                strict.correct_pred += hit; strict.pred += len(ps); strict.correct_gold += hit; strict.gold += len(gs)
                overlaps = lambda a, b: a[0] < b[1] and b[0] < a[1] and a[2] == b[2]  # noqa: E731
                partial.correct_pred += sum(any(overlaps(p, q) for q in gs) for p in ps); partial.pred += len(ps)
                partial.correct_gold += sum(any(overlaps(q, p) for p in ps) for q in gs); partial.gold += len(gs)
            mention[lab] = {"strict": strict.as_dict(), "partial": partial.as_dict()}
        out["mention"] = mention
    document = {}
    for lab in [*labels, "PROPOSED"]:
        prf = PRF()
        for doc_id, g in gold.items():
            groups = [{normalise(a) for a in grp} - {""} for grp in g.get("entities", {}).get(lab, [])]
            p = pred.get(doc_id, {})
            names = p.get("proposed", []) if lab == "PROPOSED" else [
                n for k, v in p.get("concepts", {}).items() if _label(k) == lab for n in v]
            found = {normalise(n) for n in names} - {""}
            prf.pred += len(found); prf.gold += len(groups)
            prf.correct_pred += sum(any(n in grp for grp in groups) for n in found)
            prf.correct_gold += sum(bool(grp & found) for grp in groups)
        if prf.gold:
            document[lab] = prf.as_dict()
    out["document"] = document
    return out


GOLD_FORMAT = ('one JSON object a line: "id", "text", and "entities" ({"METHOD": [["LoRA", "Low-Rank Adaptation"], '
               '...], ...}: each concept\'s surface forms) and/or "spans" '
               '([{"start": 0, "end": 4, "label": "METHOD"}])')


def read_jsonl(path: Path) -> dict[str, dict]:
    """Records by id: a gold file (:data:`GOLD_FORMAT`) or a prediction file (``kg extract``'s lines). ValueError
    naming the file and line of a record that is not a JSON object with an "id"."""
    out = {}
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: not JSON ({exc.msg}, column {exc.colno})") from None
        if not isinstance(d, dict) or d.get("id") is None:
            raise ValueError(f"{path}:{n}: a record needs an \"id\" ({GOLD_FORMAT})")
        out[str(d["id"])] = d
    return out


def read_gold(path: Path) -> dict[str, dict]:
    """The gold records of ``path``; ValueError when none holds an annotation (``entities`` or ``spans``)."""
    gold = read_jsonl(path)
    if not any(g.get("entities") or g.get("spans") for g in gold.values()):
        raise ValueError(f"{path}: no annotations to score against ({GOLD_FORMAT})")
    return gold


def predict(gold: dict[str, dict], config: str = "") -> dict[str, dict]:
    """kg's predictions for every gold document (extracted from its ``text``)."""
    from kg.sinks.predictions import prediction
    from kg.model import Paper
    from kg.nlp.extract import extract

    papers = [Paper(id=i, text=g["text"]) for i, g in gold.items()]
    return {p.id: prediction(p, ex) for p, ex in extract(papers, config=config)}


def render(result: dict) -> str:
    """The scores as the table ``kg eval`` prints (a label with neither gold nor predicted mentions: n/a)."""
    lines = [f"docs {result['docs']}  missing predictions: {len(result['missing_predictions'])}"]
    for lab, v in result.get("mention", {}).items():
        s, p = v["strict"], v["partial"]
        if not s["gold"] and not s["pred"]:
            lines.append(f"mention  {lab:8} n/a  (gold 0, pred 0)")
            continue
        lines.append(f"mention  {lab:8} strict P {s['p']:.3f} R {s['r']:.3f} F1 {s['f1']:.3f} | partial P {p['p']:.3f} "
                     f"R {p['r']:.3f} F1 {p['f1']:.3f}  (gold {s['gold']}, pred {s['pred']})")
    for lab, v in result["document"].items():
        lines.append(f"document {lab:8} P {v['p']:.3f} R {v['r']:.3f} F1 {v['f1']:.3f}  (gold {v['gold']}, pred {v['pred']})")
    return "\n".join(lines)


def evaluate(gold_path: Path, labels: Iterable[str] = LABELS, pred_path: Path | None = None, config: str = "") -> dict:
    """Score kg (or a prediction file) on a gold file."""
    gold = read_gold(gold_path)
    pred = read_jsonl(pred_path) if pred_path else predict(gold, config)
    return score(gold, pred, list(labels))
