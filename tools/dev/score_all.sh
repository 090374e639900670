#!/bin/bash
# Extraction quality on the public dev sets in each mode: --fast, default, --accurate (scores of ../shared/tools/score.py).
# NeurIPS 2022 public 40, kg's own 80 annotated NeurIPS 2022 abstracts and the ICML 2025 seeds: document level, by
# the annotation guideline; SciERC dev: strict
# mentions; SciREX train abstracts: document recall of DATASET (the tagger trained on them: a ceiling, not a
# held-out figure).
# Usage (from the project root, after `make install`): bash tools/dev/score_all.sh
set -euo pipefail
data=../shared/data
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
score() { .venv/bin/python ../shared/tools/score.py "$@"; }
.venv/bin/python tools/dev/annotated.py "$out/annotated-dev.jsonl" > /dev/null  # kg's own 80 (tools/dev/annotations)
for mode in "--fast" "" "--accurate"; do
  echo "== ${mode:-default}"
  for set in neurips2022-gold seeds-icml2025 scierc-dev scirex-abstracts-train; do
    .venv/bin/kg extract $mode "$data/$set.jsonl" --out "$out/$set.jsonl" > /dev/null
  done
  .venv/bin/kg extract $mode "$out/annotated-dev.jsonl" --out "$out/annotated-pred.jsonl" > /dev/null
  echo "-- NeurIPS 2022 public 40"; score "$data/neurips2022-gold.jsonl" "$out/neurips2022-gold.jsonl" | grep "^document"
  echo "-- NeurIPS 2022, kg's own annotated 80 (tools/dev/annotated.py)"
  score "$out/annotated-dev.jsonl" "$out/annotated-pred.jsonl" | grep "^document"
  echo "-- ICML 2025 seeds"; score "$data/seeds-icml2025.jsonl" "$out/seeds-icml2025.jsonl" | grep "^document"
  echo "-- SciERC dev"; score "$data/scierc-dev.jsonl" "$out/scierc-dev.jsonl" --labels METHOD,TASK,METRIC | grep "^mention"
  echo "-- SciREX train"; score "$data/scirex-abstracts-train.jsonl" "$out/scirex-abstracts-train.jsonl" --labels DATASET \
    | grep "^document"
done
echo "TDMSci and SciREX are cross-validated: .venv/bin/kg train --data ../shared/data [--only tagger|ner] --n-folds 5"
