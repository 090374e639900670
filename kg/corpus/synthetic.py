"""A realistic synthetic corpus: abstracts recombined from the sentences of real ones (deterministic for a seed).

Sentences keep their own names (datasets, methods, metrics), so the name distribution is that of real abstracts;
abstract lengths follow the sentence counts of the source abstracts.
"""
from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

from kg.model import Paper

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "examples" / "icml", ROOT.parent / "shared" / "data"]
_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _abstracts(paths: list[Path]) -> list[str]:
    texts = []
    for root in paths:
        files = sorted(root.glob("*.txt")) + sorted(root.glob("*.jsonl")) if root.is_dir() else []
        files = [f for f in files if not f.name.upper().startswith("LICENSE")]  # ../shared/data holds licences
        for f in files:
            if f.suffix == ".txt":
                blocks = [b.strip() for b in f.read_text(encoding="utf-8").split("\n\n")]
                texts += [b for b in blocks if len(b) > 200]
            elif "tdmsci" not in f.name:  # TDMSci holds single sentences, not abstracts
                for line in f.read_text(encoding="utf-8").splitlines():
                    if line.strip():
                        texts.append(json.loads(line)["text"][:2500])
    return texts


def synthetic_corpus(n: int, seed: int = 0, sources: list[Path] | None = None) -> Iterator[Paper]:
    """``n`` synthetic papers; each abstract has as many sentences as a random real one, drawn from all of them."""
    texts = _abstracts(sources or SOURCES)
    if not texts:
        raise FileNotFoundError("no source abstracts for the synthetic corpus in " + ", ".join(map(str, sources or SOURCES))
                                + " (it is made from a source checkout's examples/icml and the ../shared/data beside it)")
    sentences = [s for t in texts for s in _SENT.split(t) if 30 <= len(s) <= 600]
    lengths = [max(3, len(_SENT.split(t))) for t in texts]
    rng = random.Random(seed)
    venues = ["ICML", "NeurIPS", "ICLR", "ACL", "CVPR"]
    for i in range(n):
        k = min(rng.choice(lengths), 14)
        text = " ".join(rng.choice(sentences) for _ in range(k))
        yield Paper(id=f"syn-{i:07d}", text=text, venue=rng.choice(venues), year=rng.randint(2019, 2026), has_input_id=True)
