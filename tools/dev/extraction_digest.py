"""A digest of everything extraction produces on a fixed corpus, to check that a speed change keeps the output.

    python tools/dev/extraction_digest.py [--mode fast|default|accurate] [--docs N]
    PYTHONPATH=/path/to/other/checkout python tools/dev/extraction_digest.py ...   # the same for another tree

The corpus is the first N synthetic abstracts (``kg.bench.synthetic``, seed 0) plus every gold file in
``../shared/data``; equal digests mean equal extractions (mentions, results, aliases, generic mentions).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from kg.bench.synthetic import synthetic_corpus
from kg.model import Paper
from kg.nlp.extract import extract
from kg.nlp.pipeline import config_path

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=3000, help="synthetic abstracts (default 3000)")
    ap.add_argument("--mode", default="default", choices=("fast", "default", "accurate"))
    args = ap.parse_args()
    papers = list(synthetic_corpus(args.docs, 0))
    for f in sorted(SHARED.glob("*.jsonl")):
        papers += [Paper(id=r["id"], text=r["text"]) for r in map(json.loads, f.open(encoding="utf-8"))]
    digest = hashlib.sha256()
    t = time.perf_counter()
    for paper, ex in extract(papers, config=config_path(args.mode)):
        digest.update(json.dumps([paper.id, repr(ex)]).encode())
    seconds = time.perf_counter() - t
    print(f"{digest.hexdigest()}  {len(papers)} docs in {seconds:.1f} s ({len(papers) / seconds:.0f} docs/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
