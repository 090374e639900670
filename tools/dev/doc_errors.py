"""Per-document false positives and misses of predicted concepts against document-level gold.

usage: python tools/dev/doc_errors.py GOLD.jsonl PRED.jsonl [--labels METHOD,TASK] [--summary]

Names are compared after the shared scorer's normalisation (case, punctuation, a trailing "dataset"/"benchmark",
plural s), so what it lists is what the scorer counts. ``--summary`` prints the most frequent false positives and
misses over all documents instead of each document.
"""
from __future__ import annotations

import argparse
import json
import re
from collections import Counter


def norm(name: str) -> str:
    """The scorer's name normalisation."""
    s = name.lower().replace("\u2019", "'")
    s = re.sub(r"\b(data ?sets?|benchmarks?|corpus|corpora)\b", " ", s)
    s = re.sub(r"[^0-9a-z+#]+", "", s)
    return s[:-1] if s.endswith("s") and len(s) > 4 else s


def _load(path: str) -> dict[str, dict]:
    with open(path, encoding="utf-8") as f:
        return {str(d["id"]): d for d in map(json.loads, filter(str.strip, f))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gold")
    ap.add_argument("pred")
    ap.add_argument("--labels", default="METHOD,TASK,DATASET,METRIC,PROPOSED")
    ap.add_argument("--summary", action="store_true")
    args = ap.parse_args()
    gold, pred = _load(args.gold), _load(args.pred)
    fps: Counter = Counter()
    fns: Counter = Counter()
    for doc_id, g in gold.items():
        p = pred.get(doc_id, {})
        lines = []
        for label in args.labels.split(","):
            groups = g.get("entities", {}).get(label, [])
            names = p.get("proposed", []) if label == "PROPOSED" else p.get("concepts", {}).get(label, [])
            gold_forms = {norm(form) for group in groups for form in group}
            fp = [n for n in names if norm(n) not in gold_forms]
            predicted = {norm(n) for n in names}
            fn = [group[0] for group in groups if not {norm(f) for f in group} & predicted]
            fps.update(f"{label}: {n.lower()}" for n in fp)
            fns.update(f"{label}: {n.lower()}" for n in fn)
            if fp or fn:
                lines.append(f"  {label:8} FP {fp}\n  {'':8} FN {fn}")
        if lines and not args.summary:
            print(f"{doc_id}  {g.get('title', '')[:90]}")
            print("\n".join(lines))
    if args.summary:
        print("most frequent false positives:")
        for name, n in fps.most_common(40):
            print(f"  {n:3}  {name}")
        print("most frequent misses:")
        for name, n in fns.most_common(40):
            print(f"  {n:3}  {name}")


if __name__ == "__main__":
    main()
