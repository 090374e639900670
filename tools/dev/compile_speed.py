"""The default extraction's speed relative to spaCy's blank tokenizer (kg.bench.benchmarks.paired_ratio) with what
kg/compiled.py compiles and without it, each variant in a fresh process, taking turns round after round so that
the machine's drift hits all alike:

- ``all``: the C extensions and the Cython-compiled plain modules, as built (``make install``: kg/compiled.py's
  ``HOT``; ``KG_COMPILE=1 make install``, or ``KG_COMPILE=1 python tools/dev/build_ext.py`` in a worktree run with
  ``PYTHONPATH``: all of them);
- ``extensions``: the C extensions, the plain modules as Python (``KG_COMPILE=0 make install``);
- ``python``: every module as Python, the twins of the C extensions included (an install without a compiler).

    python tools/dev/compile_speed.py [--rounds 2] [--docs 2000]

Prints one JSON line per run and, last, the median ratio of each variant and each one's speed relative to ``all``
(or to ``extensions`` when the plain modules are not compiled).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_RUN = """
import json, sys
from kg import compiled
from kg.bench.benchmarks import paired_ratio
result = paired_ratio(sys.argv[1], int(sys.argv[2]))
result["compiled"] = sorted(name for name in compiled.modules()
                            if str(__import__(name, fromlist=["_"]).__file__).endswith(compiled.EXTENSION_SUFFIXES[0]))
print(json.dumps(result))
"""


def main() -> int:
    """Write the synthetic corpus, then time the variants in turn."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2, help="runs of each variant (default 2)")
    ap.add_argument("--docs", type=int, default=2000, help="abstracts per run (default 2000)")
    args = ap.parse_args()
    from kg import compiled
    from kg.bench.synthetic import synthetic_corpus

    plain_built = any(compiled.compiled_file(name) for name in compiled.COMPILED) and not compiled.stale()
    variants = {"all": "", "extensions": ",".join(compiled.COMPILED), "python": "1"}
    if not plain_built:
        print("the plain modules are not compiled (or older than their sources): timing extensions and python only",
              file=sys.stderr)
        del variants["all"]
    ratios: dict[str, list[float]] = {name: [] for name in variants}
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.jsonl"
        with corpus.open("w") as fh:
            for paper in synthetic_corpus(args.docs, 0):
                fh.write(json.dumps({"id": paper.id, "text": paper.text}) + "\n")
        for round_ in range(args.rounds):
            order = list(variants) if round_ % 2 == 0 else list(reversed(variants))
            for name in order:
                env = {**os.environ, "KG_PURE_PYTHON": variants[name], "OPENBLAS_NUM_THREADS": "1"}
                run = subprocess.run([sys.executable, "-c", _RUN, str(corpus), str(args.docs)], env=env,
                                     capture_output=True, text=True, check=True)
                result = json.loads(run.stdout)
                ratios[name].append(result["ratio"])
                print(json.dumps({"variant": name, "ratio": result["ratio"], "docs": result["docs"],
                                  "compiled": result["compiled"]}), flush=True)
    medians = {name: statistics.median(r) for name, r in ratios.items()}
    base = medians[next(iter(medians))]
    print(json.dumps({"median_ratio": medians, "speed_vs_" + next(iter(medians)):
                      {name: round(m / base, 3) for name, m in medians.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
