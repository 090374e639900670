"""Precision@5 of ``kg related`` judged by authors' keywords: a hit is relevant when it shares with the query paper a
keyword that at most ``--max-df`` papers of the corpus carry (a specific one: "human pose estimation", not "deep
learning"). The ranking reads the keywords too (in its texts' TF-IDF, kg.related.textsim), so it is judged on a
copy of the graph without them; and the keywords kg's vocabulary took as concepts
(``tools/vocab/keyword_types.jsonl``, typed as a concept or an alias) judge nothing, so the judge stays independent
of what the graph links by.

usage: python tools/dev/related_keywords.py OUT_DIR [--max-df 30] [--split dev|report|all]

OUT_DIR is a ``kg build`` of a corpus with keywords, e.g. ``kg build ../shared/data/neurips2022-corpus.jsonl --out
/tmp/nips``. Papers split by a hash of their id into ``dev`` (choose recipes here) and ``report`` (report here).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import networkx as nx

from kg.related import related
from kg.store.rows import load_graph


def split_of(paper: str) -> str:
    """``dev`` or ``report``, fixed by the paper id."""
    return "dev" if hashlib.sha1(paper.encode()).digest()[0] % 2 == 0 else "report"


def keywords(g: nx.MultiDiGraph) -> dict[str, set[str]]:
    """Each paper's keywords, lower-cased."""
    out = {}
    for n, d in g.nodes(data=True):
        if d.get("type") == "Paper":
            raw = d.get("keywords") or []
            if isinstance(raw, str):
                raw = raw.split(",")
            out[n] = {" ".join(str(k).lower().split()) for k in raw} - {""}
    return out


TYPED = Path(__file__).resolve().parents[1] / "vocab" / "keyword_types.jsonl"


def folded(keyword: str) -> str:
    """A keyword folded as the vocabulary builder folds names (case, punctuation, a plural s)."""
    s = re.sub(r"[^0-9a-z+]+", "", keyword.lower())
    return s[:-1] if s.endswith("s") and len(s) > 4 else s


def vocabulary_keywords(path: Path = TYPED) -> set[str]:
    """The keywords (folded) that kg's vocabulary holds as concepts or aliases."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {folded(r["name"]) for r in rows if r["label"] != "NONE"}


def evaluate(g: nx.MultiDiGraph, rank: Callable[[str], list[str]], *, max_df: int = 30, split: str = "dev",
             k: int = 5) -> dict:
    """P@k of ``rank(paper) -> paper ids`` over the papers of ``split`` that have a specific keyword."""
    kw = keywords(g)
    df = Counter(w for ws in kw.values() for w in ws)
    taken = vocabulary_keywords()
    specific = {p: {w for w in ws if 2 <= df[w] <= max_df and folded(w) not in taken} for p, ws in kw.items()}
    precisions = []
    for p in sorted(specific):
        if not specific[p] or (split != "all" and split_of(p) != split):
            continue
        hits = rank(p)[:k]
        precisions.append(sum(bool(specific.get(q, set()) & specific[p]) for q in hits) / k)
    return {"split": split, "max_df": max_df, "queries": len(precisions),
            f"p_at_{k}": round(sum(precisions) / max(len(precisions), 1), 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--max-df", type=int, default=30)
    ap.add_argument("--split", choices=("dev", "report", "all"), default="dev")
    args = ap.parse_args()
    g = load_graph(args.out)
    blind = g.copy()  # (the judge's keywords hidden from the ranking)
    for _, d in blind.nodes(data=True):
        d.pop("keywords", None)
    print(json.dumps(evaluate(g, lambda p: [h.paper for h in related(blind, p, top=5)], max_df=args.max_df,
                              split=args.split)))


if __name__ == "__main__":
    main()
