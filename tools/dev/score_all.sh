#!/bin/bash
# Extraction quality on the public dev sets in each mode: --fast, default, --accurate (scores of ../shared/tools/score.py).
# Usage (from the project root, after `make install`): bash tools/dev/score_all.sh
set -euo pipefail
data=../shared/data
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for mode in "--fast" "" "--accurate"; do
  echo "== ${mode:-default}"
  .venv/bin/kg extract $mode "$data/scierc-dev.jsonl" --out "$out/scierc.jsonl" > /dev/null
  .venv/bin/kg extract $mode "$data/seeds-icml2025.jsonl" --out "$out/seeds.jsonl" > /dev/null
  .venv/bin/python ../shared/tools/score.py "$data/scierc-dev.jsonl" "$out/scierc.jsonl" --labels METHOD,TASK,METRIC | grep "^mention"
  .venv/bin/python ../shared/tools/score.py "$data/seeds-icml2025.jsonl" "$out/seeds.jsonl" --labels METHOD,TASK,DATASET,METRIC | grep "^document"
done
echo "TDMSci and SciREX are cross-validated: .venv/bin/kg train [--only tagger|ner] --n-folds 5"
