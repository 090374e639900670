"""How far a long job has come, on stderr: a line redrawn in place on a terminal, else a line per stage and one a
minute (logs of a batch job stay short)."""
from __future__ import annotations

import sys
import time
from typing import TextIO

UNITS = {"reading": "papers", "extracting": "papers", "writing": "papers", "views": "", "store": ""}
LABELS = {"store": "embedded store"}


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600 else f"{seconds // 60}:{seconds % 60:02d}"


class StageProgress:
    """A ``progress(stage, done, total)`` callback (see :func:`kg.build.builder.build`) that prints what it hears."""

    def __init__(self, stream: TextIO | None = None, every: float | None = None) -> None:
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = every if every is not None else (0.25 if self.tty else 60.0)
        self.stage: str | None = None
        self.started = self.last = 0.0
        self.width = 0  # of the line drawn last, on a terminal

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if stage != self.stage:
            self._end_line()
            self.stage, self.started, self.last = stage, now, float("-inf")
        final = done >= total
        if not final and now - self.last < self.every:
            return
        self.last = now
        self._show(self.line(stage, done, total, now - self.started), final)

    def line(self, stage: str, done: int, total: int, seconds: float) -> str:
        """``extracting 12,288/100,000 papers  611/s  1:20, 2:24 to go``; a stage without units: done or not."""
        label = LABELS.get(stage, stage)
        unit = UNITS.get(stage, "items")
        if not unit:
            return f"{label} {'done' if done >= total else '...'}" + (f" in {_clock(seconds)}" if done >= total
                                                                       and seconds >= 1 else "")
        text = f"{label} {done:,}/{total:,} {unit}"
        rate = done / seconds if seconds > 0 else 0.0
        if rate and done < total:
            text += f"  {rate:,.0f}/s  {_clock(seconds)}, {_clock((total - done) / rate)} to go"
        elif done >= total and seconds >= 1:
            text += f" in {_clock(seconds)}"
        return text

    def _show(self, text: str, final: bool) -> None:
        if self.tty:
            self.stream.write("\r" + text + " " * max(0, self.width - len(text)))
            self.width = 0 if final else len(text)
            if final:
                self.stream.write("\n")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def _end_line(self) -> None:
        if self.tty and self.width:
            self.stream.write("\n")
            self.width = 0

    def close(self) -> None:
        """End a line left open (a stage that did not finish)."""
        self._end_line()
