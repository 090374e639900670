"""Write the ``object_verbs`` list of kg/nlp/data/lexicon/cues.json: words that in ML abstracts are verbs taking an
object ("conducting", "covers", "approximate"), so that a trained model's entity never starts with one
("conducting self-supervised learning" names "self-supervised learning").

usage: python tools/vocab/object_verbs.py [--corpus FILE.jsonl ...] [--min-uses 8] [--min-share 0.4]
                                         [--min-uses-ing 5] [--min-share-ing 0.2]

A word is such a verb when at least ``--min-share`` of its ``--min-uses`` or more uses in the background abstracts are
followed by a determiner ("the", "a", "our", ...), it is no function word or preposition, and no multi-word name of
the gazetteer starts with it. A word ending in "-ing" needs less (``--min-share-ing`` of ``--min-uses-ing``), unless
the vocabulary names it or ends a name with it ("boosting", "decision making") or a third of its uses go before one
word ("bounding box"): read as a noun or a modifier
("spiking", "denoising", "clustering", "sampling") such a word is rarely followed by a determiner (0-5%
of its uses in the NeurIPS 2022 abstracts), read as a verb ("conducting", "deploying", "identifying") in 20-40%, the
rest going to objects without one ("deploying RL agents"). The default background is the unlabeled NeurIPS 2022
corpus beside the checkout (``../shared/data/neurips2022-corpus.jsonl``); no gold annotation is read.
"""
from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CUES = ROOT / "kg" / "nlp" / "data" / "lexicon" / "cues.json"
DEFAULT_CORPORA = [ROOT.parent / "shared" / "data" / "neurips2022-corpus.jsonl"]
DETERMINERS = frozenset("the a an our this these its their such each any both".split())
WORD = re.compile(r"[A-Za-z][A-Za-z\-]*")


def dump_lexicon(data: dict) -> str:
    """A lexicon file as kg/nlp/data/lexicon keeps them: two-space indents, each list's words wrapped at 120."""
    out = ["{", f'  "about": {json.dumps(data["about"], ensure_ascii=False)},', '  "lists": {']
    names = list(data["lists"])
    for n, name in enumerate(names):
        entry = data["lists"][name]
        key = "words" if "words" in entry else "ordered"  # a set of words, or a list whose order counts
        out += [f"    {json.dumps(name)}: {{", f'      "about": {json.dumps(entry["about"], ensure_ascii=False)},',
                f'      "{key}": [']
        line = "       "
        for word in entry[key]:
            item = " " + json.dumps(word, ensure_ascii=False) + ","
            if len(line) + len(item) > 120:
                out.append(line)
                line = "       "
            line += item
        out += [line.rstrip(","), "      ]", "    }" + ("," if n < len(names) - 1 else "")]
    return "\n".join(out + ["  }", "}"]) + "\n"


def main() -> None:
    import sys

    sys.path.insert(0, str(ROOT))
    from kg.corpus.clean import clean_text
    from kg.nlp import lexicon
    from kg.nlp.components.gazetteer import load_gazetteer

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, nargs="*", default=DEFAULT_CORPORA)
    ap.add_argument("--min-uses", type=int, default=8)
    ap.add_argument("--min-share", type=float, default=0.4)
    ap.add_argument("--min-uses-ing", type=int, default=5)
    ap.add_argument("--min-share-ing", type=float, default=0.2)
    args = ap.parse_args()
    uses, before_det, pairs, docs = Counter(), Counter(), Counter(), 0
    for path in args.corpus:
        with path.open(encoding="utf-8") as f:
            for record in map(json.loads, f):
                docs += 1
                words = WORD.findall(clean_text(record.get("text") or record.get("abstract") or ""))
                for a, b in zip(words, words[1:]):
                    uses[a.lower()] += 1
                    before_det[a.lower()] += b.lower() in DETERMINERS
                    if a.lower().endswith("ing"):
                        pairs[a.lower(), re.sub(r"(?:es|s)$", "", b.lower())] += 1  # "box" and "boxes" alike
    closed = lexicon.words("function_words") | lexicon.words("prepositions") | DETERMINERS
    compound = Counter()  # per gerund, the uses before its most frequent next noun ("bounding box": 11 of 31)
    for (a, b), n in pairs.items():
        if b not in closed:
            compound[a] = max(compound[a], n)
    entries = load_gazetteer().entries
    name_starts = {e.name.split()[0].lower() for e in entries if " " in e.name}
    name_ends = {e.name.split()[-1].lower() for e in entries if " " in e.name}
    names = {e.name.lower() for e in entries} | {a.lower() for e in entries for a in e.aliases}

    def is_verb(w: str, n: int) -> bool:
        if n >= args.min_uses and before_det[w] / n >= args.min_share:
            return True
        # a gerund ("bring", "thing" are none) that is no name nor a name's head ("boosting", "decision making"),
        # nor the first word of a fixed compound ("bounding box"): a third or more of its uses before one word
        return w.endswith("ing") and len(w) > 5 and w not in names and w not in name_ends \
            and compound[w] < n / 3 and n >= args.min_uses_ing and before_det[w] / n >= args.min_share_ing

    verbs = sorted(w for w, n in uses.items() if is_verb(w, n) and w not in closed and w not in name_starts)
    cues = json.loads(CUES.read_text(encoding="utf-8"))
    cues["lists"]["object_verbs"] = {
        "about": "Verbs taking an object, which a trained model's entity never starts with ('conducting X', 'covers "
                 "X'): words followed by a determiner in at least {:.0%} of their {}+ uses in {} unlabeled abstracts "
                 "({}; words in -ing: {:.0%} of {}+ uses), not function words, prepositions or the first word of a "
                 "vocabulary name; written by tools/vocab/object_verbs.py.".format(
                     args.min_share, args.min_uses, docs, ", ".join(p.name for p in args.corpus), args.min_share_ing,
                     args.min_uses_ing),
        "words": verbs,
    }
    CUES.write_text(dump_lexicon(cues), encoding="utf-8")
    print(f"{len(verbs)} object verbs from {docs} abstracts -> {CUES}")


if __name__ == "__main__":
    main()
