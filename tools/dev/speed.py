"""Abstracts/s per core of each extraction mode next to spaCy's blank tokenizer, in one process, the modes taking
turns on the same 20-text chunks (so the VM's drift hits all alike), after one untimed pass over other texts.

    python tools/dev/speed.py [--accurate] [--files seeds-icml2025,scierc-dev,scierc-train]
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import spacy  # noqa: E402

from kg.corpus.clean import clean  # noqa: E402
from kg.nlp.pipeline import config_path, load_pipeline  # noqa: E402
from kg.train.data import gold_data_dir  # noqa: E402

os.environ.setdefault("KG_TRAIN_DATA", str(Path(__file__).resolve().parents[3] / "shared" / "data"))  # ../shared/data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", default="seeds-icml2025,scierc-dev,scierc-train", help="gold files to time on")
    ap.add_argument("--accurate", action="store_true", help="also time --accurate (~1 min more)")
    args = ap.parse_args()
    data = gold_data_dir()
    read = lambda name: [clean(json.loads(line)["text"]).text for line in (data / f"{name}.jsonl").open()]  # noqa: E731
    texts = [t for name in args.files.split(",") for t in read(name)]
    warm = read("scirex-abstracts-train")
    pipes = {"blank": spacy.blank("en"), **{m: load_pipeline(config_path(m)) for m in ("fast", "default")}}
    if args.accurate:
        pipes["accurate"] = load_pipeline(config_path("accurate"))
    for name, nlp in pipes.items():
        for _ in nlp.pipe(warm if name != "accurate" else warm[:20]):
            pass
    seconds = dict.fromkeys(pipes, 0.0)
    for at in range(0, len(texts), 20):
        for name, nlp in pipes.items():
            t = time.perf_counter()
            for _ in nlp.pipe(texts[at:at + 20]):
                pass
            seconds[name] += time.perf_counter() - t
    rates = {name: round(len(texts) / s, 1) for name, s in seconds.items()}
    print(json.dumps({"docs": len(texts), "docs_per_s": rates,
                      "time_vs_fast": {n: round(seconds[n] / seconds["fast"], 2) for n in pipes if n != "blank"}}))


if __name__ == "__main__":
    main()
