"""Write ``kg/data/synthetic_sources.jsonl.gz``, the real text whose sentences :func:`kg.bench.synthetic.synthetic_corpus`
recombines, one JSON object a line (``source``, ``abstract``, ``text``):

- abstracts (``abstract``: true; they give the lengths of the synthetic abstracts, and sentences): every
  abstract of ``examples/icml`` (the project's own examples), and the title and abstract of each SciREX document;
- more sentences (``abstract``: false): the sections of each SciREX document after its abstract, and each TDMSci
  sentence, so that the corpus has a vocabulary nearer a real one's.

SciREX and TDMSci are under the Apache License 2.0; their licences ship beside the file (``LICENSE.SciREX.txt``,
``LICENSE.science-result-extractor.txt``).

    .venv/bin/python tools/dev/synthetic_sources.py [--data ../shared/data]

Changes to the SciREX text: each document is cut into its title and abstract (before its first ``section:``) and
its sections; the ``document: `` prefix, each section's first sentence (it holds the section's title) and every
sentence holding a placeholder (``[reference]``, ``[table]``) or a citation key (``vaswani2017attention``) are
left out, and so are abstracts of 200 characters or fewer. Running it again on the same inputs writes the same file.
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "kg" / "data"
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")  # kg.bench.synthetic's sentence split
ARTEFACT = re.compile(r"\[[a-z]+\]|\b[a-z]+(?:19|20)\d\d[a-z]*\b")  # placeholders and citation keys
LICENCES = ("LICENSE.SciREX.txt", "LICENSE.science-result-extractor.txt")


def icml() -> list[dict]:
    """The abstracts of ``examples/icml`` (blank-line separated blocks longer than 200 characters)."""
    rows = []
    for f in sorted((ROOT / "examples" / "icml").glob("*.txt")):
        blocks = [b.strip() for b in f.read_text(encoding="utf-8").split("\n\n")]
        rows += [{"source": f"examples/icml/{f.name}", "abstract": True, "text": b} for b in blocks if len(b) > 200]
    return rows


def _clean(sentences: list[str]) -> str:
    return " ".join(s for s in sentences if not ARTEFACT.search(s))


def scirex(path: Path) -> list[dict]:
    """Each SciREX document's title and abstract, then the sentences of its sections."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        head, *sections = record["text"].split("\nsection:")
        abstract = _clean(SENTENCE.split(head.removeprefix("document: ").strip()))
        if len(abstract) > 200:
            rows.append({"source": str(record["id"]), "abstract": True, "text": abstract})
        body = _clean([s for section in sections for s in SENTENCE.split(section.strip())[1:]])
        if body:
            rows.append({"source": str(record["id"]), "abstract": False, "text": body})
    return rows


def tdmsci(path: Path) -> list[dict]:
    """TDMSci's sentences, one a row."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [{"source": str(r["id"]), "abstract": False, "text": r["text"].strip()} for r in records
            if not ARTEFACT.search(r["text"])]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data",
                    help="directory holding scirex-abstracts-train.jsonl, tdmsci-train.jsonl and their licences "
                         "(default: ../shared/data beside the checkout)")
    args = ap.parse_args()
    rows = icml() + scirex(args.data / "scirex-abstracts-train.jsonl") + tdmsci(args.data / "tdmsci-train.jsonl")
    OUT.mkdir(parents=True, exist_ok=True)
    out = OUT / "synthetic_sources.jsonl.gz"
    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as fh:
        fh.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8"))
    for name in LICENCES:
        shutil.copyfile(args.data / name, OUT / name)
    print(f"{sum(r['abstract'] for r in rows)} abstracts and {sum(not r['abstract'] for r in rows)} other texts "
          f"in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
