"""Write kg's own annotated NeurIPS 2022 abstracts as a gold file the project scorer reads.

usage: python tools/dev/annotated.py OUT.jsonl [--split dev|train|all] [--corpus FILE.jsonl]

``tools/dev/annotations/neurips2022-corpus-320.jsonl`` holds document-level concepts (PROPOSED, METHOD, TASK,
DATASET, METRIC, each as the surface forms the title or abstract writes) for 320 abstracts of the unlabeled NeurIPS
2022 corpus (``random.Random(2027).sample`` of its ids, without the 80 papers read for docs/extraction.md),
annotated by ANNOTATION.md (``../shared/data``). Annotators left notes on hard calls. ``split``: ``dev`` (80
abstracts) measures; ``train`` (240) is for training experiments. The annotators read the guideline more strictly
than the public gold's annotator in places (they leave out "regret" and most measures that are not reported
results), so the figures here are lower than on the public 40 and move with rules rather than conventions.

The abstracts' texts are not kept here: they are joined from the corpus (default
``../shared/data/neurips2022-corpus.jsonl``). Each line of OUT has ``id``, ``title``, ``text``, ``entities`` and
``spans`` (every occurrence of each surface form in the abstract, longest first, for mention-level use).
Score with ``python ../shared/tools/score.py OUT.jsonl PRED.jsonl`` after ``kg extract OUT.jsonl --out PRED.jsonl``.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ANNOTATIONS = Path(__file__).with_name("annotations") / "neurips2022-corpus-320.jsonl"
CORPUS = ROOT.parent / "shared" / "data" / "neurips2022-corpus.jsonl"
LABELS = ("METHOD", "TASK", "DATASET", "METRIC")


def spans(text: str, entities: dict[str, list[list[str]]]) -> list[dict]:
    """Every occurrence in ``text`` of each surface form (a plural "s" or "es" taken in; case ignored unless the
    form has a capital after its first letter), longest first and without overlaps, as raw character offsets."""
    found = []
    for label in LABELS:
        for form in {f.strip() for group in entities.get(label, []) for f in group if len(f.strip()) >= 2}:
            flags = 0 if any(c.isupper() for c in form[1:]) else re.I  # "mAP", "GAN": not "maps", "gan"
            for m in re.finditer(r"(?<![\w-])" + re.escape(form) + r"(?:e?s)?(?![\w-])", text, flags):
                found.append((m.start(), m.end(), label))
    found.sort(key=lambda s: (s[0] - s[1], s[0]))
    taken: list[tuple[int, int, str]] = []
    for a, b, label in found:
        if not any(a < y and x < b for x, y, _ in taken):
            taken.append((a, b, label))
    return [{"start": a, "end": b, "label": label} for a, b, label in sorted(taken)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--split", choices=("dev", "train", "all"), default="dev")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    args = ap.parse_args()
    with args.corpus.open(encoding="utf-8") as f:
        papers = {d["id"]: d for d in map(json.loads, f)}
    n = 0
    with args.out.open("w", encoding="utf-8") as out:
        for line in ANNOTATIONS.read_text(encoding="utf-8").splitlines():
            a = json.loads(line)
            if args.split != "all" and a["split"] != args.split:
                continue
            paper = papers[a["id"]]
            record = {"id": a["id"], "source": "neurips2022", "title": paper.get("title", ""), "text": paper["text"],
                      "entities": a["entities"], "spans": spans(paper["text"], a["entities"])}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            n += 1
    print(f"{n} annotated abstracts ({args.split}) -> {args.out}")


if __name__ == "__main__":
    main()
