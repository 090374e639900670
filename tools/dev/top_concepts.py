"""The most-linked concepts of each type in a built graph: what a user sees first, and where junk shows.

usage: python tools/dev/top_concepts.py OUT_DIR [--top 30]

OUT_DIR is a ``kg build`` output directory (its graph.json). Concepts are ranked by the papers that link to them.
For the NeurIPS 2022 corpus: ``kg build ../shared/data/neurips2022-corpus.jsonl --out /tmp/nips`` first.
"""
from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

TYPES = ("Task", "Method", "Dataset", "Metric")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    graph = json.loads((args.out / "graph.json").read_text(encoding="utf-8"))
    by_type: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for node in graph["nodes"]:
        if node.get("type") in TYPES:
            by_type[node["type"]].append((node["papers"], node["name"]))
    for kind in TYPES:
        ranked = sorted(by_type[kind], key=lambda t: (-t[0], t[1]))
        print(f"{kind} ({len(ranked)} concepts): " + "; ".join(f"{name} {n}" for n, name in ranked[:args.top]))


if __name__ == "__main__":
    main()
