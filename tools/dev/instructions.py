"""Instructions per abstract spent by the default extraction pipeline: a speed measure that a noisy machine does not
move (wall-clock time on the shared 2-core VM varies 10-20% between identical runs; this varies well under 0.1%).

    python tools/dev/instructions.py [--docs 1000] [--mode fast|default|accurate|blank]
    PYTHONPATH=/path/to/other/checkout python tools/dev/instructions.py ...   # the same for another tree

Runs itself under ``valgrind --tool=callgrind`` with instrumentation off while Python, spaCy and the pipeline
load and 200 abstracts warm the caches, switches it on (``callgrind_control -i on``) for the next ``--docs``
synthetic abstracts, exits without the interpreter's teardown, and prints instructions per abstract. About 1.5
minutes for 1,000 abstracts. ``--mode blank`` counts spaCy's blank English tokenizer on the same raw texts, the
baseline of ``kg bench``'s ratio. Instructions are not time (cache misses, allocation), but a change that removes
work shows up here when timings cannot show it.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

WARM = 200


def child(docs: int, mode: str) -> None:
    from kg.bench.synthetic import synthetic_corpus
    from kg.nlp.extract import extract
    from kg.nlp.pipeline import config_path, load_pipeline

    papers = list(synthetic_corpus(WARM + docs, 0))
    if mode == "blank":
        import spacy

        blank = spacy.blank("en")
        run = lambda part: blank.pipe([p.text for p in part])  # noqa: E731
    else:
        nlp = load_pipeline(config_path(mode))
        run = lambda part: extract(part, nlp)  # noqa: E731
    for _ in run(papers[:WARM]):
        pass
    print("READY", flush=True)
    sys.stdin.readline()  # the parent has switched instrumentation on
    for _ in run(papers[WARM:]):
        pass
    os._exit(0)  # not the interpreter's teardown (its garbage collections would count as the pipeline's work)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--mode", default="default", choices=("fast", "default", "accurate", "blank"))
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.docs, args.mode)
        return 0
    if not shutil.which("valgrind") or not shutil.which("callgrind_control"):
        print("needs valgrind (callgrind) on PATH", file=sys.stderr)
        return 2
    cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=/dev/null",
           sys.executable, __file__, "--child", "--docs", str(args.docs)] + ["--mode", args.mode]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        if line.strip() == "READY":
            break
    subprocess.run(["callgrind_control", "-i", "on", str(proc.pid)], check=True, capture_output=True)
    _, err = proc.communicate("go\n")
    found = re.search(r"Collected\s*:\s*(\d+)", err)
    if proc.returncode or not found:
        print(err[-2000:], file=sys.stderr)
        return 1
    total = int(found.group(1))
    print(f"{total / args.docs / 1e6:.3f}M instructions per abstract ({total:,} for {args.docs} abstracts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
