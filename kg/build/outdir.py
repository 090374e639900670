"""A build's output directory: one build at a time, and readers see the last build or the new one, never a mix.

- :func:`locked`: an exclusive lock on ``DIR/.kg.lock`` for the length of a build; a second build into DIR waits
  ``LOCK_WAIT`` seconds for it, then says another build is writing DIR (it never writes there meanwhile).
- :class:`Staging`: the build writes its files and folders into a hidden folder of DIR (same file system), then
  moves each into place when all are complete (a file by ``os.replace``, a folder by an atomic exchange where
  Linux has one), so a reader opens a whole file of either build. A build ended by SIGTERM removes its staging
  folder (:func:`remove_pending`); what a build killed otherwise left there goes at the start of the next one.
"""
from __future__ import annotations

import errno
import os
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kg.errors import OutputLocked, OutputUnusable

LOCK = ".kg.lock"  # (kg.corpus.readers knows this name: a folder holding it is a build's output)
STAGING = ".kg-new-"  # + the building process's id
LOCK_WAIT = 3.0  # seconds a build waits for another to finish writing the same directory
WITH_SIDE_FILES = ("graph.lbug",)  # outputs whose engine keeps NAME.* files beside them (the embedded store)
RENAME_EXCHANGE = 2  # renameat2's flag
AT_FDCWD = -100


@contextmanager
def locked(out: Path, wait: float = LOCK_WAIT) -> Iterator[None]:
    """Hold the exclusive lock of the output directory ``out`` (created if need be); :class:`OutputLocked` when
    another build still holds it after ``wait`` seconds, :class:`OutputUnusable` when it cannot be made or written.
    Forked processes share the lock: it ends with the last."""
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputUnusable(f"--out {out}: {exc.strerror or exc}") from exc
    try:
        import fcntl
    except ImportError:  # no flock on this system: builds are not serialised
        yield
        return
    fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise OutputLocked(f"another kg build is writing {out}") from None
                time.sleep(0.1)
        yield
    finally:
        os.close(fd)


PENDING: set[Path] = set()  # staging folders and files of this process not yet published: SIGTERM removes them


def remove_pending() -> None:
    """Remove every staging folder or file of this process (kg.cli.guard, on SIGTERM, once its workers are gone)."""
    for path in list(PENDING):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
        PENDING.discard(path)


class Staging:
    """The outputs of one build into ``out``, written into ``out/.kg-new-PID/`` and published together."""

    def __init__(self, out: Path) -> None:
        self.out = Path(out)
        clear_leftovers(self.out)
        self.dir = self.out / f"{STAGING}{os.getpid()}"
        self.dir.mkdir(parents=True)
        PENDING.add(self.dir)

    def final(self, path: Path) -> Path:
        """Where ``path``, written into the staging folder, is once published."""
        return self.out / Path(path).relative_to(self.dir)

    def publish(self) -> None:
        """Move every file and folder of the staging folder into place, then remove what it replaced."""
        for entry in sorted(self.dir.iterdir()):
            target = self.out / entry.name
            if entry.is_dir() and target.is_dir():
                exchange(entry, target)  # the old folder is now in the staging folder
                continue
            if target.is_dir():
                shutil.rmtree(target)
            if entry.name in WITH_SIDE_FILES:  # an old store's write-ahead log and friends go with it
                for extra in self.out.glob(glob_escape(entry.name) + ".*"):
                    if extra.is_file():
                        extra.unlink()
            os.replace(entry, target)
        self.discard()

    def discard(self) -> None:
        """Remove the staging folder and what it holds (the build failed, or its old folders after publishing)."""
        shutil.rmtree(self.dir, ignore_errors=True)
        PENDING.discard(self.dir)


def glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def clear_leftovers(out: Path) -> None:
    """Remove what builds killed while writing ``out`` left in it (call with the lock held)."""
    for path in Path(out).glob(STAGING + "*"):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def exchange(a: Path, b: Path) -> None:
    """Swap two folders' names: atomically where Linux has renameat2, else by two renames (a reader may then
    find no ``b`` for an instant)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
            if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
                return
            if ctypes.get_errno() not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
                err = ctypes.get_errno()
                raise OSError(err, os.strerror(err), str(b))
        except AttributeError:  # a libc without renameat2
            pass
    old = a.with_name(a.name + ".old")
    os.rename(b, old)
    os.rename(a, b)
    os.rename(old, a)
