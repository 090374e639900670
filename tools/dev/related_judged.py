"""Precision@5 and recall@10 of ``kg related`` against papers a reader judged related, for 135 NeurIPS 2022 queries.

``tools/dev/annotations/related-neurips2022-135.jsonl`` holds, per query paper, up to 10 papers of the NeurIPS 2022
corpus that its authors would plausibly cite or read as related work (same problem, specific method family or
setting; a shared broad area is not enough), found by a reader searching the whole corpus. The dev half (choose
recipes here): 30 queries (``random.Random(2027).sample`` of its sorted ids) and 40 more (``random.Random(2028)``,
those left). The report half (report here): the 25 that docs/related.md reads (``random.Random(2026)``) and 40
more (``random.Random(2029)``). Each batch of queries had its own reader; a judgement, not gold: it says where the
related papers are, whatever the ranking put first.

usage: python tools/dev/related_judged.py OUT_DIR [--split dev|report] [--text-weight W]

OUT_DIR is a ``kg build ../shared/data/neurips2022-corpus.jsonl --out OUT_DIR``.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from kg.related import TEXT_WEIGHT, related
from kg.store.rows import load_graph

JUDGED = Path(__file__).resolve().parent / "annotations" / "related-neurips2022-135.jsonl"


def judged(split: str, path: Path = JUDGED) -> dict[str, set[str]]:
    """Query paper id -> the paper ids judged related to it, for the queries of ``split`` that have any."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {r["query"]: set(r["related"]) for r in rows if r["split"] == split and r["related"]}  # (one has none)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--split", choices=("dev", "report"), default="dev")
    ap.add_argument("--text-weight", type=float, default=TEXT_WEIGHT)
    args = ap.parse_args()
    g = load_graph(args.out)
    truth = judged(args.split)
    p5 = r10 = 0.0
    three = 0
    for q, rel in sorted(truth.items()):
        hits = [h.paper for h in related(g, q, top=10, text_weight=args.text_weight)]
        found = sum(h in rel for h in hits[:5])
        p5 += found / 5
        three += found >= 3
        r10 += sum(h in rel for h in hits) / min(10, len(rel))
    n = len(truth)
    print(json.dumps({"split": args.split, "queries": n, "p_at_5": round(p5 / n, 4), "r_at_10": round(r10 / n, 4),
                      "queries_with_3_of_5": three}))


if __name__ == "__main__":
    main()
