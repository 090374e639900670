"""Train the default pipeline's linear tagger (:mod:`kg.nlp.components.tagger`): an averaged structured perceptron.

Training data are the NER's (:mod:`kg.train.data`: SciERC train, TDMSci, SciREX, partial labels kept partial).
Each text is also run through the default pipeline's rule components, whose candidates are features. Where a
corpus does not annotate a label, the tokens marked missing may take any tag: an update moves the weights from
the predicted path towards the best path consistent with the known tags (latent structured perceptron). The
predicted path is decoded with a margin (each tag the gold rules out scores :data:`MARGIN` more), so training goes
on until the gold wins by its number of wrong tags.
The number of epochs is chosen on SciERC dev (exact-span F1 of the tagger alone over METHOD, TASK, METRIC).
Deterministic: documents are shuffled with the seed, and nothing else is random.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy
from spacy.language import Language
from spacy.tokens import Doc

from kg.model import LABELS
from kg.nlp.components.tagger import N_TAGS, TAGS, LinearTagger, feature_ids, sentences, spans, viterbi
from kg.train.data import CORPORA, DEV_CORPUS, TRAIN_CORPORA, Converter, gold_data_dir, read_gold
from kg.corpus.clean import clean

EPOCHS = 15
MARGIN = 1.0
BITS = 20
RULES = ("kg_sentencizer", "kg_abbreviations", "kg_gazetteer", "kg_context", "kg_proposed")


@dataclass
class Example:
    ids: numpy.ndarray  # (n, templates) feature rows
    allowed: numpy.ndarray  # (n, N_TAGS) tags each token may take
    gold: list[tuple[int, int, str]]  # gold entities (token ranges)
    units: list[tuple[int, int]]  # sentences: what one update sees


def rules_pipeline() -> Language:
    """The default pipeline, cut after the rule components the tagger reads."""
    import spacy

    from kg.nlp.pipeline import DEFAULT_CONFIG

    cfg = spacy.util.load_config(DEFAULT_CONFIG)
    cfg["nlp"]["pipeline"] = list(RULES)
    for name in list(cfg["components"]):
        if name not in RULES:
            del cfg["components"][name]
    return spacy.util.load_model_from_config(cfg, auto_fill=True, validate=True)


def _allowed(gold: Doc) -> numpy.ndarray:
    """Per token, the BILOU tags the gold allows: its own tag inside a gold entity, O where the corpus annotates
    every label there, any tag where a label is missing (``ent_iob_`` unset)."""
    out = numpy.zeros((len(gold), N_TAGS), dtype=bool)
    for tok in gold:
        if tok.ent_iob_ == "":
            out[tok.i] = True
        elif tok.ent_iob_ == "O":
            out[tok.i, 0] = True
    for ent in gold.ents:
        lab = ent.label_
        if len(ent) == 1:
            out[ent.start, TAGS.index("U-" + lab)] = True
        else:
            out[ent.start, TAGS.index("B-" + lab)] = True
            out[ent.start + 1:ent.end - 1, TAGS.index("I-" + lab)] = True
            out[ent.end - 1, TAGS.index("L-" + lab)] = True
    return out


_CUT = {f"{p}-{lab}": f"{q}-{lab}" for lab in LABELS for p, q in (("B", "U"), ("I", "L"))}
_JOIN = {f"{p}-{lab}": f"{q}-{lab}" for lab in LABELS for p, q in (("I", "B"), ("L", "U"))}


def _cut_at(allowed: numpy.ndarray, units: list[tuple[int, int]]) -> numpy.ndarray:
    """A gold entity that a sentence boundary cuts ("... the Penn. Treebank") goes on into the next unit, and
    each unit decodes on its own: where a unit may end on B-X or I-X, it may end on U-X or L-X too, and where the
    next may start on I-X or L-X, it may start on B-X or U-X (else no path fits the gold)."""
    for a, _ in units[1:]:
        for k, tag in enumerate(TAGS):
            if tag in _CUT and allowed[a - 1, k]:
                allowed[a - 1, TAGS.index(_CUT[tag])] = True
            if tag in _JOIN and allowed[a, k]:
                allowed[a, TAGS.index(_JOIN[tag])] = True
    return allowed


def examples(corpora: tuple[str, ...], bits: int, *, data_dir: Path | None = None,
             exclude: dict[str, set[str]] | None = None, nlp: Language | None = None,
             converter: Converter | None = None) -> list[Example]:
    """Featurised gold documents of ``corpora`` (minus the ids in ``exclude``)."""
    data_dir = data_dir or gold_data_dir()
    nlp = nlp or rules_pipeline()
    conv = converter or Converter()
    out = []
    for name in corpora:
        corpus = CORPORA[name]
        skip = (exclude or {}).get(name, set())
        for rec in read_gold(data_dir / corpus.file):
            if str(rec["id"]) in skip:
                continue
            gold = conv.convert(rec, corpus)
            doc = nlp(clean(rec["text"]).text)
            if [t.text for t in doc] != [t.text for t in gold]:
                raise ValueError(f"{corpus.file}: record {rec['id']}: tokenisation differs from the training data's")
            units = sentences(doc)
            out.append(Example(feature_ids([doc], bits)[0], _cut_at(_allowed(gold), units),
                               [(e.start, e.end, e.label_) for e in gold.ents], units))
    return out


def span_f1(tagger: LinearTagger, docs: list[Example], labels: tuple[str, ...]) -> dict[str, dict[str, float]]:
    """Exact-span precision, recall and F1 per label (and ``all``) of the tagger alone."""
    counts = {lab: [0, 0, 0] for lab in (*labels, "all")}  # tp, predicted, gold
    for ex in docs:
        scores = tagger.scores(ex.ids)
        paths = viterbi([scores[a:b] for a, b in ex.units], tagger.trans)
        pred = {(a + x, a + y, lab) for (a, _), path in zip(ex.units, paths)
                for x, y, lab in spans(path) if lab in labels}
        gold = {s for s in ex.gold if s[2] in labels}
        for lab in labels:
            p = {s for s in pred if s[2] == lab}
            g = {s for s in gold if s[2] == lab}
            for key in (lab, "all"):
                counts[key][0] += len(p & g)
                counts[key][1] += len(p)
                counts[key][2] += len(g)
    out = {}
    for lab, (tp, np_, ng) in counts.items():
        p = tp / np_ if np_ else 0.0
        r = tp / ng if ng else 0.0
        out[lab] = {"p": round(p, 4), "r": round(r, 4), "f": round(2 * p * r / (p + r) if p + r else 0.0, 4)}
    return out


def train_tagger(train: list[Example], dev: list[Example], *, epochs: int = EPOCHS, bits: int = BITS, seed: int = 0,
                 margin: float = MARGIN,
                 log=print) -> tuple[LinearTagger, dict]:
    """Averaged structured perceptron; returns the averaged weights of the epoch best on ``dev`` and a record."""
    weights = numpy.zeros((1 << bits, N_TAGS), dtype=numpy.float32)
    wsum = numpy.zeros_like(weights)  # sum of (step * update): averaged = weights - wsum / step
    trans = numpy.zeros((N_TAGS + 1, N_TAGS), dtype=numpy.float32)
    tsum = numpy.zeros_like(trans)
    rng = numpy.random.default_rng(seed)
    step = 1
    dev_labels = CORPORA[DEV_CORPUS].labels
    best: tuple[float, int, LinearTagger | None] = (-1.0, 0, None)
    history = []
    units = [(d, a, b) for d, ex in enumerate(train) for a, b in ex.units]
    started = time.perf_counter()
    for epoch in range(1, epochs + 1):
        mistakes = 0
        for k in rng.permutation(len(units)):
            d, a, b = units[k]
            ex = train[d]
            ids, allowed = ex.ids[a:b], ex.allowed[a:b]
            scores = LinearTagger(bits, weights, trans).scores(ids)
            pred = viterbi([scores + numpy.float32(margin) * ~allowed], trans)[0]
            if allowed[numpy.arange(b - a), pred].all():
                step += 1
                continue
            gold = viterbi([scores], trans, [allowed])[0]
            mistakes += 1
            wrong = numpy.flatnonzero(pred != gold)
            rows = ids[wrong]
            for tags, sign in ((gold, 1.0), (pred, -1.0)):
                cols = numpy.broadcast_to(tags[wrong][:, None], rows.shape)
                numpy.add.at(weights, (rows, cols), sign)
                numpy.add.at(wsum, (rows, cols), sign * step)
                prev = numpy.concatenate([[N_TAGS], tags[:-1]])
                numpy.add.at(trans, (prev, tags), sign)
                numpy.add.at(tsum, (prev, tags), sign * step)
            step += 1
        averaged = LinearTagger(bits, weights - wsum / step, trans - tsum / step)
        score = span_f1(averaged, dev, dev_labels)
        history.append({"epoch": epoch, "mistakes": mistakes, "dev": score["all"],
                        "seconds": round(time.perf_counter() - started, 1)})
        log(f"epoch {epoch}: {mistakes} sentences with mistakes, dev {score['all']}")
        if score["all"]["f"] > best[0]:
            best = (score["all"]["f"], epoch, averaged)
    tagger = best[2]
    dev_scores = span_f1(tagger, dev, dev_labels)
    record = {"epochs_run": epochs, "best_epoch": best[1], "history": history,
              "dev": {"file": CORPORA[DEV_CORPUS].file, "scorer": "exact span and label, tagger alone",
                      "per_label": {lab: dev_scores[lab] for lab in dev_labels}, "all": dev_scores["all"]},
              "train_docs": len(train), "seconds": round(time.perf_counter() - started, 1)}
    return tagger, record


def build(out: Path, *, seed: int = 0, epochs: int = EPOCHS, bits: int = BITS, data_dir: Path | None = None,
          exclude: dict[str, set[str]] | None = None, log=print) -> Path:
    """Featurise, train and write a tagger to ``out`` (with its training record in ``meta.json``); returns ``out``."""
    data_dir = data_dir or gold_data_dir()
    nlp = rules_pipeline()
    conv = Converter()
    started = time.perf_counter()
    train = examples(TRAIN_CORPORA, bits, data_dir=data_dir, exclude=exclude, nlp=nlp, converter=conv)
    dev = examples((DEV_CORPUS,), bits, data_dir=data_dir, nlp=nlp, converter=conv)
    log(f"featurised {len(train)} training and {len(dev)} dev documents in {time.perf_counter() - started:.1f}s")
    tagger, record = train_tagger(train, dev, epochs=epochs, bits=bits, seed=seed, log=log)
    from kg.train.folds import data_files, label_handling

    tagger.to_disk(Path(out), {"kg_training": {
        "seed": seed,
        "algorithm": "averaged structured perceptron, BILOU tags, Viterbi, latent gold path under missing labels",
        "train_corpora": list(TRAIN_CORPORA), "dev_corpus": DEV_CORPUS, "data": data_files(data_dir),
        "label_handling": label_handling(), "excluded_ids": {k: len(v) for k, v in (exclude or {}).items()},
        **record}})
    return Path(out)


def evaluate(tagger_dir: Path, data_dir: Path | None = None) -> dict:
    """Scores (:mod:`kg.train.scorer`) of the default pipeline with this tagger: SciERC dev (mentions,
    METHOD/TASK/METRIC) and the seed abstracts (document level, all labels; also by the rules alone)."""
    from kg.train.evaluate import SCORER, pipeline, predict, score, summary, tagger_pipeline

    data_dir = data_dir or gold_data_dir()
    nlp = tagger_pipeline(tagger_dir)
    dev = read_gold(data_dir / CORPORA[DEV_CORPUS].file)
    out: dict = {"scorer": SCORER,
                 DEV_CORPUS: {"full": summary(score(dev, predict(dev, nlp), CORPORA[DEV_CORPUS].labels))}}
    seeds_path = data_dir / "seeds-icml2025.jsonl"
    if seeds_path.exists():
        seeds = read_gold(seeds_path)
        labels = ["METHOD", "TASK", "DATASET", "METRIC"]
        out["seeds-icml2025"] = {mode: summary(score(seeds, predict(seeds, p), labels))
                                 for mode, p in (("full", nlp), ("rules_only", pipeline(model=False)))}
    return out


def code_hash() -> str:
    """A hash of what a tagger is made from besides the data: the rule components' code, the tagger's feature code
    (its C loops too), the gazetteer, the text cleaning, the labels and the training code (a fold tagger made another
    way is trained again)."""
    import hashlib

    kg_dir = Path(__file__).resolve().parents[1]
    nlp_dir = kg_dir / "nlp"
    sources = sorted(nlp_dir.glob("*.py")) + sorted(nlp_dir.glob("*.c")) + [
        nlp_dir / "data" / "gazetteer" / "manifest.json", kg_dir / "train" / "tagger.py", kg_dir / "train" / "data.py",
        kg_dir / "corpus" / "clean.py", kg_dir / "model.py"]
    h = hashlib.sha256()
    for path in sources:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def fold_tagger(work: Path, k: int, i: int, fold: dict[str, set[str]], *, seed: int = 0, data_dir: Path,
                epochs: int = EPOCHS, reuse: bool = False, held_out: Sequence[str], log=print) -> Path:
    """The directory of cross-validation fold ``i``'s tagger (trained without the ``fold`` records) under ``work``,
    trained first unless one from the same split, seed, epochs, data and code is there (with ``reuse``: any)."""
    from kg.train.folds import fold_is_current, fold_signature, mark_fold

    path = work / f"fold{i}"
    signature = fold_signature(k, seed, i, data_dir, epochs=epochs, bits=BITS, code=code_hash(),
                               held_out=list(held_out))
    if not ((path / "weights.npz").exists() and (reuse or fold_is_current(path, signature))):
        log(f"fold {i}: training")
        build(path, seed=seed, epochs=epochs, data_dir=data_dir, exclude=fold, log=log)
        mark_fold(path, signature)
    return path


def crossval(k: int = 5, *, seed: int = 0, work_dir: str | Path = "out/train/crossval-tagger",
             data_dir: Path | None = None, epochs: int = EPOCHS, reuse: bool = False,
             held_out: Sequence[str] | None = None, log=print) -> dict:
    """K-fold cross-validated scores of the default pipeline on TDMSci and SciREX (or the ``held_out`` corpora, e.g.
    ``("scierc",)``), with the NER's folds (:func:`kg.train.folds.folds`): each fold's tagger is trained without the
    fold and predicts it. A fold whose tagger exists in ``work_dir`` from the same split, seed, epochs, data and code
    is not retrained; with ``reuse``, no existing fold tagger is (for a change to code that runs after the tagger and
    cannot change its weights)."""
    from kg.train.evaluate import predict, tagger_pipeline
    from kg.train.folds import HELD_OUT, folds, score_folds

    data_dir = data_dir or gold_data_dir()
    held_out = tuple(held_out or HELD_OUT)
    work = Path(work_dir)
    gold = {name: read_gold(data_dir / CORPORA[name].file) for name in held_out}
    preds: dict[str, dict[str, list[dict]]] = {"full": {name: [] for name in held_out}}
    started = time.perf_counter()
    for i, fold in enumerate(folds(k, seed, data_dir, held_out)):
        nlp = tagger_pipeline(fold_tagger(work, k, i, fold, seed=seed, data_dir=data_dir, epochs=epochs,
                                          reuse=reuse, held_out=held_out, log=log))
        for name in held_out:
            preds["full"][name] += predict([r for r in gold[name] if str(r["id"]) in fold[name]], nlp)
    result = {"folds": k, "seed": seed, "epochs": epochs, "seconds": round(time.perf_counter() - started, 1)}
    return score_folds(result, gold, preds, work)
