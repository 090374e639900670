"""Write kg/nlp/data/specificity/generic_words.json: words so common in ML abstracts that a phrase made only of them
names no specific concept ("deep neural network models", "efficient learning framework").

usage: python tools/vocab/generic_words.py [--corpus FILE.jsonl ...] [--min-df 0.15]

A word is generic when it occurs in at least ``--min-df`` of the background abstracts (title and text). The default
background is the unlabeled NeurIPS 2022 corpus beside the checkout (``../shared/data/neurips2022-corpus.jsonl``)
and the example corpus; no gold annotation is read. The file records the corpora, their sizes and the threshold.
"""
from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "kg" / "nlp" / "data" / "specificity" / "generic_words.json"
DEFAULT_CORPORA = [ROOT.parent / "shared" / "data" / "neurips2022-corpus.jsonl"]
WORD = re.compile(r"[a-z][a-z]+")


def texts(path: Path, titles: bool = True) -> list[str]:
    """Title (unless ``titles`` is false) plus text of every record of a JSONL corpus."""
    with path.open(encoding="utf-8") as f:
        return [f"{d.get('title', '') if titles else ''} {d.get('text') or d.get('abstract') or ''}".strip()
                for d in map(json.loads, f)]


def document_frequency(docs: list[str], words: re.Pattern) -> Counter:
    """How many of ``docs`` hold each word that ``words`` finds."""
    df: Counter = Counter()
    for text in docs:
        df.update(set(words.findall(text)))
    return df


def example_texts() -> list[str]:
    """The abstracts of the example corpus (blank-line separated blocks after a header line)."""
    out = []
    for path in sorted((ROOT / "examples" / "icml").glob("*.txt")):
        blocks = path.read_text(encoding="utf-8").split("\n\n")
        out += [b for b in blocks[1:] if b.strip()]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, action="append")
    ap.add_argument("--min-df", type=float, default=0.15)
    args = ap.parse_args()
    corpora = args.corpus or DEFAULT_CORPORA
    docs = [t for c in corpora for t in texts(c)] + example_texts()
    df = document_frequency([text.lower() for text in docs], WORD)
    words = sorted(w for w, n in df.items() if n / len(docs) >= args.min_df)
    OUT.write_text(json.dumps({
        "source": f"document frequency >= {args.min_df} over {len(docs)} unlabeled abstracts "
                  f"({', '.join(c.name for c in corpora)} and the example corpus); tools/vocab/generic_words.py",
        "words": words}, indent=1) + "\n", encoding="utf-8")
    print(f"{len(words)} generic words -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
