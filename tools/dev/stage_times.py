"""Time per abstract of each stage of an extraction mode, and of spaCy's blank tokenizer on the same texts: where the
default extraction's time goes (docs/extraction.md, speed).

    python tools/dev/stage_times.py [--docs 2000] [--rounds 3] [--mode default|fast|accurate]

Runs the stages as ``kg.nlp.extract.extract`` does (batches of ``BATCH_SIZE``: reading and cleaning, the tokenizer,
each pipeline component in turn, the extraction records) over ``kg bench``'s synthetic abstracts, warm (a first
round untimed), with the collector off, and prints each stage's best time over the rounds in microseconds per
abstract, its share, and the blank tokenizer's time over the total (``kg bench``'s ratio, measured per stage).
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout's kg, run as a script


def main() -> int:
    import spacy
    from spacy.util import minibatch

    from kg.bench.synthetic import synthetic_corpus
    from kg.nlp.candidates import FORMULAS, TEXT, TITLE
    from kg.nlp.extract import BATCH_SIZE, _to_extraction, clean, with_title
    from kg.nlp.pipeline import config_path, load_pipeline

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mode", default="default", choices=("fast", "default", "accurate"))
    args = ap.parse_args()
    papers = list(synthetic_corpus(args.docs))
    nlp, blank = load_pipeline(config_path(args.mode)), spacy.blank("en")
    names = ["blank tokenizer", "reading and cleaning", "tokenizer", *(n for n, _ in nlp.pipeline), "records"]
    best = dict.fromkeys(names, float("inf"))
    gc.disable()
    for r in range(args.rounds + 1):
        spent = dict.fromkeys(names, 0.0)
        for batch in minibatch(papers, BATCH_SIZE):
            t = time.perf_counter()
            for _ in blank.pipe([p.text for p in batch], batch_size=BATCH_SIZE):
                pass
            spent["blank tokenizer"] += time.perf_counter() - t
            t = time.perf_counter()
            read = [with_title(p) for p in batch]
            cleaned = [clean(text) for text, _, _ in read]
            spent["reading and cleaning"] += time.perf_counter() - t
            t = time.perf_counter()
            docs = [nlp.make_doc(ct.text) for ct in cleaned]
            for doc, ct, paper in zip(docs, cleaned, batch):
                doc.user_data[TEXT] = ct.text
                if paper.title:
                    doc.user_data[TITLE] = paper.title
                if ct.formulas:
                    doc.user_data[FORMULAS] = ct.formulas
            spent["tokenizer"] += time.perf_counter() - t
            for name, proc in nlp.pipeline:
                t = time.perf_counter()
                whole = hasattr(proc, "pipe")
                docs = list(proc.pipe(docs, batch_size=BATCH_SIZE)) if whole else [proc(d) for d in docs]
                spent[name] += time.perf_counter() - t
            t = time.perf_counter()
            for paper, ct, doc, (_, title_end, offset) in zip(batch, cleaned, docs, read):
                _to_extraction(paper, ct, doc, title_end, offset)
            spent["records"] += time.perf_counter() - t
            for doc in docs:
                doc.user_data.clear()
            gc.collect()
        if r:  # (the first round warms the caches)
            best = {n: min(best[n], spent[n]) for n in names}
    total = sum(v for n, v in best.items() if n != "blank tokenizer")
    for n in names:
        share = "" if n == "blank tokenizer" else f"{best[n] / total:6.1%}"
        print(f"{n:22s} {best[n] / args.docs * 1e6:8.1f} us  {share}")
    ratio = best["blank tokenizer"] / total
    print(f"{'extraction':22s} {total / args.docs * 1e6:8.1f} us   blank tokenizer / extraction {ratio:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
