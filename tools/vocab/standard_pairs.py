"""Write kg/nlp/data/specificity/standard_pairs.json: abbreviations the field defines the same way in many papers
("Markov decision process (MDP)", "ordinary differential equation (ODE)"), which a paper uses and does not coin.

usage: python tools/vocab/standard_pairs.py [--corpus FILE.jsonl ...] [--min-papers 3]

Runs kg's own sentence and abbreviation components over the background abstracts (title and text, as ``kg extract``
reads them) and keeps each pair of a long form and a short form (by their concept keys) that at least
``--min-papers`` of them define. The default background is the unlabeled NeurIPS 2022 corpus beside the checkout
(``../shared/data/neurips2022-corpus.jsonl``) and the example corpus; no gold annotation is read. The file records
the corpora, their sizes and the threshold.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generic_words import DEFAULT_CORPORA, ROOT, example_texts  # noqa: E402

sys.path.insert(0, str(ROOT))  # the checkout's kg, run as a script

from kg.model import Paper  # noqa: E402
from kg.nlp.candidates import TEXT, TITLE, abbreviations  # noqa: E402
from kg.nlp.extract import clean, with_title  # noqa: E402
from kg.nlp.pipeline import config_path, load_pipeline  # noqa: E402
from kg.schema import concept_key  # noqa: E402

OUT = ROOT / "kg" / "nlp" / "data" / "specificity" / "standard_pairs.json"
STEPS = ("kg_sentencizer", "kg_abbreviations")  # what defines a document's abbreviations


def papers(path: Path) -> list[Paper]:
    """The records of a JSONL corpus as papers (title and text)."""
    with path.open(encoding="utf-8") as f:
        return [Paper(id=str(d.get("id", n)), title=d.get("title") or "", text=d.get("text") or d.get("abstract") or "")
                for n, d in enumerate(map(json.loads, f))]


def pair_papers(corpus: list[Paper]) -> dict[tuple[str, str], set[str]]:
    """Per (long form key, short form key), the papers that define that pair."""
    nlp = load_pipeline(config_path("default"))
    steps = [nlp.get_pipe(name) for name in STEPS]
    seen: dict[tuple[str, str], set[str]] = defaultdict(set)
    for paper in corpus:
        cleaned = clean(with_title(paper)[0])
        doc = nlp.make_doc(cleaned.text)
        doc.user_data[TEXT] = cleaned.text
        if paper.title:
            doc.user_data[TITLE] = paper.title
        for step in steps:
            doc = step(doc)
        for a in abbreviations(doc):
            seen[concept_key(a.long_text(doc)), concept_key(a.short_text(doc))].add(paper.id)
        doc.user_data.clear()
    return seen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, action="append")
    ap.add_argument("--min-papers", type=int, default=3)
    args = ap.parse_args()
    corpora = args.corpus or DEFAULT_CORPORA
    corpus = [p for path in corpora for p in papers(path)]
    corpus += [Paper(id=f"example:{n}", text=text) for n, text in enumerate(example_texts())]
    seen = pair_papers(corpus)
    pairs = sorted([long, short] for (long, short), ids in seen.items() if len(ids) >= args.min_papers)
    OUT.write_text(json.dumps({
        "about": "abbreviations defined alike (long form, short form; concept keys) in at least min_papers "
                 "background abstracts: the field's, not a paper's own (tools/vocab/standard_pairs.py)",
        "corpora": [p.name for p in corpora] + ["examples/icml"], "abstracts": len(corpus),
        "min_papers": args.min_papers, "pairs": pairs}, indent=1) + "\n", encoding="utf-8")
    print(f"{len(pairs)} pairs from {len(corpus)} abstracts -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
