"""Score a tagger recipe end to end: train the full tagger, score it on SciERC dev and the seeds, then 5-fold
cross-validate it on TDMSci and SciREX. Run it from a git worktree holding the variant, so the shipped tagger and
other experiments stay untouched (each run takes ~9 min on one core). From the main checkout:

    git worktree add --detach ../variant HEAD   # edit the variant there
    (cd ../variant && ../main/.venv/bin/python tools/dev/build_ext.py)   # the tagger's C loops, in place
    (cd ../variant && PYTHONPATH=. ../main/.venv/bin/python tools/dev/tagger_variant.py ../variant-run)

(with the main checkout in ``main/``; the gold data defaults to ``../shared/data`` beside the checkout the script
runs from, ``--data DIR`` names another.)

Prints one line: SciERC dev strict mention F1, seeds document F1 of METHOD and TASK, 5-fold TDMSci and SciREX
strict mention F1 and SciREX document recall of DATASET. The models and predictions stay in OUT.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kg.train import tagger

ROOT = Path(__file__).resolve().parents[2]  # the checkout this script is in


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path, metavar="OUT", help="directory for the models and predictions")
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data",
                    help="gold data directory (default: ../shared/data beside the checkout)")
    args = ap.parse_args()
    out, data = args.out, args.data
    if not data.is_dir():
        ap.error(f"no gold data directory {data} (--data DIR)")
    quiet = lambda *_: None  # noqa: E731
    tagger.build(out / "full", data_dir=data, log=quiet)
    ev = tagger.evaluate(out / "full", data)
    cv = tagger.crossval(work_dir=out / "cv", data_dir=data, log=quiet)
    dev, seeds = ev["scierc-dev"]["full"], ev["seeds-icml2025"]["full"]
    tdm, scx = cv["tdmsci"]["full"], cv["scirex"]["full"]
    print(f"SciERC dev {dev['mention_ALL']['strict']['f1']:.3f} | seeds METHOD {seeds['document_METHOD']['f1']:.3f} "
          f"TASK {seeds['document_TASK']['f1']:.3f} | TDMSci {tdm['mention_ALL']['strict']['f1']:.3f} "
          f"SciREX {scx['mention_ALL']['strict']['f1']:.3f} (DATASET doc recall {scx['document_DATASET']['r']:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
