"""The accurate mode's NER as a source of candidate mentions (``kg/nlp/trained``, built by ``kg train``); its
entities combine with the rules as :mod:`kg.nlp.combine` says, like the default mode's linear tagger
(:mod:`kg.nlp.components.tagger`).

The accurate mode's NER also reads the default mode's tagger (``tagger_dir``; default the packaged one), a model
of another kind (a linear tagger over words and rule candidates, against a CNN over frozen encoder features) whose
errors are not the NER's: ``from_tagger`` labels (DATASET) are the tagger's entities instead of the NER's (the NER
stops early on SciERC dev, which has no datasets), and ``confirm`` labels (TASK) keep only the NER's entities that
the tagger also sees as that label, overlapping (:func:`merge_entities`; measured in docs/extraction.md). The others
stay ``generic`` mentions, reported but making no concept, where no rule or abbreviation pair lies under them
(:func:`unconfirmed`, :meth:`Combiner._unlinked`; one under a method's head word is a METHOD mention, as the rules
above make it): a paper's task list keeps the precision of the check, its mentions the NER's recall.

``need_name`` (default none) keeps only model entities that contain a name-like token or overlap a rule: it
trades the open-vocabulary METHODs ("generation algorithm") for precision on named ones.

Without a trained model directory the pipeline still loads: the component warns once and adds nothing.
"""
from __future__ import annotations

import ctypes
import warnings
from collections.abc import Iterable
from pathlib import Path

import numpy
import spacy
from spacy.attrs import ENT_IOB, ENT_TYPE
from spacy.language import Language
from spacy.tokens import Doc
from thinc.api import NumpyOps

from kg.model import LABELS
from kg.nlp import minilm, tokenizer  # noqa: F401  (the trained pipeline's config names their architectures)
from kg.nlp.combine import Combiner, Entity

DEFAULT_DIR = Path(__file__).parents[1] / "trained"


def model_path(model_dir: str = "") -> Path:
    return Path(model_dir) if model_dir else DEFAULT_DIR


class MatmulOps(NumpyOps):
    """thinc's CPU ops with matrix products by numpy's BLAS (OpenBLAS), ~1.5x faster than blis on our CPUs."""

    name = "kg_matmul"

    def gemm(self, x, y, out=None, trans1=False, trans2=False):
        a = x.T if trans1 else x
        b = y.T if trans2 else y
        if out is None:
            return numpy.matmul(a, b)
        numpy.matmul(a, b, out=out)
        return out


def set_blas_threads(n: int) -> bool:
    """Limit numpy's OpenBLAS to ``n`` threads for this process; False if that BLAS cannot be found."""
    libs = Path(numpy.__file__).parent.parent / "numpy.libs"
    for lib in sorted(libs.glob("libscipy_openblas*.so*")) if libs.is_dir() else []:
        try:
            handle = ctypes.CDLL(str(lib))
        except OSError:
            continue
        for symbol in ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads", "openblas_set_num_threads"):
            fn = getattr(handle, symbol, None)
            if fn is not None:
                fn(ctypes.c_int(n))
                return True
    return False


class ModelCandidates(Combiner):
    """Pipeline component ``kg_model``: the trained NER's entities (``--accurate``) as candidates."""

    def __init__(self, nlp: Language, name: str, model_dir: str = "", labels: Iterable[str] = LABELS,
                 extend: bool = True, need_support: Iterable[str] = ("DATASET", "METRIC"), need_name: Iterable[str] = (),
                 max_tokens: int = 12, blas_threads: int = 1, tagger_dir: str = "", from_tagger: Iterable[str] = (),
                 confirm: Iterable[str] = ()) -> None:
        super().__init__(name, labels, extend, need_support, need_name, max_tokens)
        self.path = model_path(model_dir)
        self.ner = None
        self.from_tagger, self.confirm = frozenset(from_tagger), frozenset(confirm)
        self.tagger = None
        if self.from_tagger or self.confirm:
            from kg.nlp.components.tagger import load_tagger  # that module builds on this one

            self.tagger = load_tagger(tagger_dir, f"{name}: no trained tagger in {{path}} (run `kg train`); "
                                                  "the NER's entities are used without it")
        if not (self.path / "config.cfg").exists():
            warnings.warn(f"kg_model: no trained model in {self.path} (run `kg train`); using the rules only",
                          stacklevel=2)
            return
        minilm.check_installed(self.path / "config.cfg")
        # Share the main pipeline's vocab so labels and lexemes are the same objects.
        sub = spacy.load(self.path, vocab=nlp.vocab)
        self.ner = sub.get_pipe("ner")
        # One pipeline per core (parallelism comes from nlp.pipe(n_process=...)): a single-threaded numpy BLAS
        # is faster than thinc's blis for these small matrices; the results are the same.
        if blas_threads > 0 and set_blas_threads(blas_threads):
            ops = MatmulOps()
            for node in self.ner.model.walk():
                node.ops = ops
        self.set_confidence((sub.meta.get("kg_scores") or {}).get("dev"))

    @property
    def loaded(self) -> bool:
        return self.ner is not None

    def entities(self, batch: list[Doc]) -> list[list[Entity]]:
        """The model's entities per doc, as token ranges; ``doc.ents`` is left as it was."""
        return self.unlinked_entities(batch)[0]

    def unlinked_entities(self, batch: list[Doc]) -> tuple[list[list[Entity]], list[list[Entity]]]:
        """The entities per doc, merged with the tagger's (:func:`merge_entities`), and the NER's entities of a
        ``confirm`` label that the tagger did not confirm, to report as mentions that make no concept."""
        # The NER writes doc.ents; keep whatever was there and put it back after reading the entities.
        saved = [doc.to_array([ENT_IOB, ENT_TYPE]) for doc in batch]
        self.ner.set_annotations(batch, self.ner.predict(batch))
        out = []
        for doc, arr in zip(batch, saved):
            out.append([(e.start, e.end, e.label_) for e in doc.ents])
            doc.from_array([ENT_IOB, ENT_TYPE], arr)
        if self.tagger is None:
            return out, [[] for _ in batch]
        merged = [merge_entities(n, t, self.from_tagger, self.confirm) for n, t in zip(out, self.tagger.predict(batch))]
        return merged, [unconfirmed(n, m, self.confirm) for n, m in zip(out, merged)]


def unconfirmed(ner: list[Entity], merged: list[Entity], confirm: frozenset[str]) -> list[Entity]:
    """The NER's entities of a ``confirm`` label that :func:`merge_entities` left out, where no merged entity lies."""
    return [e for e in ner if e[2] in confirm and not any(s < e[1] and e[0] < t for s, t, _ in merged)]


def merge_entities(ner: list[Entity], tagger: list[Entity], from_tagger: frozenset[str],
                   confirm: frozenset[str]) -> list[Entity]:
    """One doc's NER entities combined with the tagger's: the ``from_tagger`` labels come from the tagger (where they
    overlap no NER entity kept), and a ``confirm`` label is kept only where a tagger entity of that label overlaps."""
    kept = [e for e in ner if e[2] not in from_tagger
            and (e[2] not in confirm or any(s < e[1] and e[0] < t and lab == e[2] for s, t, lab in tagger))]
    kept += [e for e in tagger if e[2] in from_tagger and not any(s < e[1] and e[0] < t for s, t, _ in kept)]
    return sorted(kept)




@Language.factory("kg_model", default_config={"model_dir": "", "labels": list(LABELS), "extend": True,
                                              "need_support": ["DATASET", "METRIC"], "need_name": [], "max_tokens": 12,
                                              "blas_threads": 1, "tagger_dir": "", "from_tagger": [],
                                              "confirm": []})
def make_model(nlp: Language, name: str, model_dir: str, labels: list[str], extend: bool, need_support: list[str],
               need_name: list[str], max_tokens: int, blas_threads: int, tagger_dir: str, from_tagger: list[str],
               confirm: list[str]) -> ModelCandidates:
    """``model_dir``: a pipeline written by ``kg train`` (default: the packaged ``kg/nlp/trained``).
    ``blas_threads``: numpy BLAS threads for the model's matrix products (1: one core per pipeline, fastest per
    core; 0: leave BLAS alone and use thinc's default ops). ``tagger_dir`` (default: the packaged tagger),
    ``from_tagger``, ``confirm``: the labels taken from the default mode's tagger, and those the NER keeps only
    where the tagger agrees (:func:`merge_entities`)."""
    return ModelCandidates(nlp, name, model_dir, labels, extend, need_support, need_name, max_tokens, blas_threads,
                           tagger_dir, from_tagger, confirm)
