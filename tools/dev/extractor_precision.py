"""Document-level precision of each extractor's concepts against document-level gold (which rules to trust).

usage: python tools/dev/extractor_precision.py GOLD.jsonl PRED.jsonl

A predicted concept counts once per document, under the extractor of its first mention; it is right when its
name or surface form equals a gold surface form of its label after the scorer's normalisation.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doc_errors import norm  # noqa: E402


def main() -> None:
    gold_path, pred_path = sys.argv[1:3]
    gold = {d["id"]: d for d in map(json.loads, open(gold_path, encoding="utf-8"))}
    stats: Counter = Counter()
    for d in map(json.loads, open(pred_path, encoding="utf-8")):
        g, seen = gold.get(d["id"]), set()
        if g is None:
            continue
        for m in d["mentions"]:
            if m.get("generic") or m["label"] not in ("METHOD", "TASK", "METRIC", "DATASET"):
                continue
            name = m.get("canonical") or m["text"]
            if (m["label"], norm(name)) in seen:
                continue
            seen.add((m["label"], norm(name)))
            forms = {norm(f) for group in g["entities"].get(m["label"], []) for f in group}
            stats[(m["label"], m["extractor"], norm(name) in forms or norm(m["text"]) in forms)] += 1
    for label, extractor in sorted({k[:2] for k in stats}):
        right, wrong = stats[(label, extractor, True)], stats[(label, extractor, False)]
        print(f"{label:8} {extractor:16} right {right:3}  wrong {wrong:3}  precision {right / (right + wrong):.2f}")


if __name__ == "__main__":
    main()
