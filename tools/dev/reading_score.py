"""Score an extraction of a read sample with a reader's verdicts: precision and recall per label.

A reading (``tools/dev/annotations/reading-neurips2022-41.jsonl``: 40 NeurIPS 2022 papers, ``random.Random(41)``,
docs/extraction.md) holds per paper each concept an extraction gave with the reader's verdict (right, wrong, wrong
type) and the concepts the reader missed. This scores another extraction of the same papers with those verdicts: a
concept the reading did not judge is counted apart (``unjudged``) and left out of precision; a concept the reader
listed as missing counts as right once extracted; one judged right and no longer extracted counts as missing. A
missing entry may be a list of surface forms of one concept (``["area under the ROC curve", "AUC"]``): any of them
extracted finds it, and it counts once.

usage: python tools/dev/reading_score.py PRED.jsonl [--reading FILE] [--labels METRIC,...]
       (PRED: ``kg extract`` of the read papers; their texts: ``python tools/dev/reading_score.py --texts OUT.jsonl``)
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from kg.train.scorer import SAME_AS, normalise as norm  # noqa: E402  (the checkout's kg, run as a script)

READING = Path(__file__).resolve().parent / "annotations" / "reading-neurips2022-41.jsonl"
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "neurips2022-corpus.jsonl"
LABELS = ("METHOD", "TASK", "DATASET", "METRIC", "PROPOSED")


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def score(pred: list[dict], reading: dict[str, dict]) -> dict[str, Counter]:
    """Per label: extracted, right, wrong, wrong type, unjudged, found and missing counts (the reading's papers;
    found and missing count concepts, right counts names: two forms of one concept extracted are two right names)."""
    out: dict[str, Counter] = defaultdict(Counter)
    pred = {p["id"]: p for p in pred}
    unread = sorted(set(pred) - set(reading))
    if unread:
        raise SystemExit(f"{len(unread)} predicted papers are not in the reading, e.g. {unread[0]}")
    for doc_id, judged in reading.items():
        p = pred.get(doc_id, {"concepts": {}, "proposed": []})  # (a paper not predicted: all it should have is missed)
        verdict = {(j["label"], norm(j["name"])): j["verdict"] for j in judged["judged"]}
        groups = {label: [frozenset(norm(f) for f in ([n] if isinstance(n, str) else n)) for n in names]
                  for label, names in judged["missing"].items()}
        missing = {label: set().union(*gs) for label, gs in groups.items()}
        seen = {(SAME_AS.get(label.upper(), label.upper()), norm(n)) for label, names in p["concepts"].items()
                for n in names} \
            | {("PROPOSED", norm(n)) for n in p.get("proposed") or []}
        for label, key in seen:
            v = verdict.get((label, key)) or ("right" if key in missing.get(label, ()) else "unjudged")
            out[label]["extracted"] += 1
            out[label][v] += 1
        for label, gs in groups.items():
            found = sum(any((label, k) in seen for k in g) for g in gs)
            out[label]["found"] += found
            out[label]["missing"] += len(gs) - found
        for (label, key), v in verdict.items():
            if v == "right" and key not in missing.get(label, ()):
                out[label]["found" if (label, key) in seen else "missing"] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pred", type=Path, nargs="?")
    ap.add_argument("--reading", type=Path, default=READING)
    ap.add_argument("--labels", default=",".join(LABELS), help="comma-separated labels to print (default: all)")
    ap.add_argument("--texts", type=Path, help="write the read papers' titles and abstracts here (JSONL) and stop")
    args = ap.parse_args()
    reading = {r["id"]: r for r in read(args.reading)}
    if args.texts:
        papers = {r["id"]: r for r in read(CORPUS)}
        args.texts.write_text("".join(json.dumps({"id": i, "title": papers[i].get("title"), "text": papers[i]["text"]})
                                      + "\n" for i in reading), encoding="utf-8")
        return
    if args.pred is None:
        ap.error("give PRED.jsonl, or --texts OUT.jsonl")
    counts = score(read(args.pred), reading)
    print("label      extracted  right  wrong  wrong-type  unjudged  precision  missing  recall")
    for label in args.labels.upper().split(","):
        c = counts[label]
        judged = c["extracted"] - c["unjudged"]
        precision, recall = c["right"] / max(judged, 1), c["found"] / max(c["found"] + c["missing"], 1)
        print(f"{label:9s} {c['extracted']:10d} {c['right']:6d} {c['wrong']:6d} {c['wrong type']:11d} "
              f"{c['unjudged']:9d} {precision:10.2f} {c['missing']:8d} {recall:7.2f}")


if __name__ == "__main__":
    main()
