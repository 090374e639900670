"""``kg eval``: extraction scored on a gold JSONL file (mention and document level P/R/F1)."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from kg.cli.common import EXIT_BAD_INPUT, EXIT_OK, add_command, add_modes, pipeline_config
from kg.cli.output import error, safe


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``kg eval``."""
    p = add_command(subparsers, "eval",
                    help="score extraction on a gold JSONL file (mention and document level P/R/F1)",
                    description="Example: kg eval gold.jsonl --labels METHOD,TASK,METRIC")
    p.add_argument("gold", help='gold file: one JSON object a line with "id", "text", and "entities" (per label, '
                                'each concept\'s surface forms: {"METHOD": [["LoRA", "Low-Rank Adaptation"]]}) '
                                'and/or "spans" ([{"start": 0, "end": 4, "label": "METHOD"}])')
    p.add_argument("--labels", default="METHOD,TASK,DATASET,METRIC", help="labels to score (default all four)")
    p.add_argument("--pred", help="score this prediction file instead of running kg")
    p.add_argument("--json", action="store_true", help="one JSON object")
    add_modes(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Score and print the table (or JSON)."""
    from kg.train.scorer import evaluate, render

    labels = [x.strip().upper() for x in args.labels.split(",") if x.strip()]
    try:
        result = evaluate(Path(args.gold), labels, Path(args.pred) if args.pred else None, pipeline_config(args))
    except (OSError, ValueError) as exc:
        error(exc)
        return EXIT_BAD_INPUT
    print(json.dumps(result) if args.json else safe(render(result), multiline=True))
    return EXIT_OK
