"""Training kg's NER: the library behind ``kg train`` (whose options :mod:`kg.cli.train` parses).

The pipeline's rules know names (gazetteers, abbreviations, "we propose X"); the trained model adds the open
vocabulary of tasks and methods. It is a spaCy NER trained with ``spacy train`` and ``kg/train/config.cfg`` on
gold corpora (SciERC, TDMSci, SciREX, in a directory given as ``kg train --data DIR``; kg ships none), each of which
annotates only some of our labels:
see :mod:`kg.train.data` for how the missing labels are kept out of the loss. The result is shipped in
``kg/nlp/trained`` and run by the ``kg_model`` component (:mod:`kg.nlp.components.model`).

>>> from kg.train import prepare, train, crossval   # doctest: +SKIP
>>> best = train("out/train", seed=0, data_dir=Path("gold"))   # doctest: +SKIP
>>> crossval(5, data_dir=Path("gold"))["tdmsci"]["full"]        # doctest: +SKIP
"""
from __future__ import annotations

__all__ = ["prepare", "train", "crossval", "evaluate", "install"]


def __getattr__(name: str):
    """The training functions, imported on first use: ``kg train --threads N`` sets the BLAS thread count
    before numpy is loaded, which importing :mod:`kg.train.run` here would do."""
    if name in __all__:
        from kg.train import run

        return getattr(run, name)
    raise AttributeError(f"module 'kg.train' has no attribute {name!r}")
