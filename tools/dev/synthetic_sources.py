"""Write ``kg/data/abstracts.jsonl``, the real abstracts whose sentences :func:`kg.synthetic.synthetic_corpus`
recombines: every abstract of ``examples/icml`` (the project's own examples) and the title and abstract of every
SciREX document (Apache-2.0; its licence ships beside the file as ``kg/data/LICENSE.SciREX.txt``).

    .venv/bin/python tools/dev/synthetic_sources.py [--data ../shared/data]

The SciREX text is cut where its first section starts and its ``document: `` prefix is removed. Documents of 200
characters or fewer are left out. Running it again on the same inputs writes the same file.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "kg" / "data"


def icml() -> list[dict]:
    """The abstracts of ``examples/icml`` (blank-line separated blocks longer than 200 characters)."""
    rows = []
    for f in sorted((ROOT / "examples" / "icml").glob("*.txt")):
        blocks = [b.strip() for b in f.read_text(encoding="utf-8").split("\n\n")]
        rows += [{"source": f"examples/icml/{f.name}", "text": b} for b in blocks if len(b) > 200]
    return rows


def scirex(path: Path) -> list[dict]:
    """Title and abstract of each SciREX document (the text before its first ``section:``)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            text = record["text"].split("\nsection:")[0].removeprefix("document: ").strip()
            if len(text) > 200:
                rows.append({"source": str(record["id"]), "text": text})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data",
                    help="directory holding scirex-abstracts-train.jsonl and LICENSE.SciREX.txt "
                         "(default: ../shared/data beside the checkout)")
    args = ap.parse_args()
    rows = icml() + scirex(args.data / "scirex-abstracts-train.jsonl")
    OUT.mkdir(parents=True, exist_ok=True)
    with (OUT / "abstracts.jsonl").open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    shutil.copyfile(args.data / "LICENSE.SciREX.txt", OUT / "LICENSE.SciREX.txt")
    print(f"{len(rows)} abstracts in {OUT / 'abstracts.jsonl'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
