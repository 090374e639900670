"""Write kg/nlp/data/specificity/common_words.json: English words that ML abstracts write in lower case, so that
one of them capitalised ("Rendering", "Direct", "Mining") is a plain word and never the name of a paper's own
method.

usage: python tools/vocab/common_words.py [--corpus FILE.jsonl ...] [--min-docs 10]

A word is common when it is written in lower case in at least ``--min-docs`` of the background abstracts (their
text, not their titles, whose words are capitalised). The default background is the unlabeled NeurIPS 2022 corpus
beside the checkout (``../shared/data/neurips2022-corpus.jsonl``); no gold annotation and no scored text (the
example corpus holds the ICML 2025 seeds) is read. The file records the corpora, their sizes and the threshold.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from generic_words import DEFAULT_CORPORA, ROOT, document_frequency, texts

OUT = ROOT / "kg" / "nlp" / "data" / "specificity" / "common_words.json"
LOWER_WORD = re.compile(r"(?<![\w\\/.-])[a-z]{3,}(?![\w/-])")  # not a LaTeX command ("\\frac") or a URL's part


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, action="append")
    ap.add_argument("--min-docs", type=int, default=10)
    args = ap.parse_args()
    corpora = args.corpus or DEFAULT_CORPORA
    docs = [t for c in corpora for t in texts(c, titles=False)]
    df = document_frequency(docs, LOWER_WORD)
    words = sorted(w for w, n in df.items() if n >= args.min_docs)
    OUT.write_text(json.dumps({
        "source": f"words of three letters or more written in lower case in >= {args.min_docs} of {len(docs)} "
                  f"unlabeled abstracts ({', '.join(c.name for c in corpora)}); "
                  "tools/vocab/common_words.py",
        "words": words}, indent=1) + "\n", encoding="utf-8")
    print(f"{len(words)} common words -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
