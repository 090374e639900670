"""The build's memory: the cyclic garbage collector's thresholds while it runs, memory handed back to the OS
between stages, and the process's resident memory (for the stage timings)."""
from __future__ import annotations

import ctypes
import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# The cyclic collector's thresholds during a build: a generation-0 pass per 100,000 new objects, not 700. A build
# keeps millions of objects alive (ids, resolution, extractions on their way) while it makes and drops millions
# more, and every few hundred of those set off a pass, every tenth of them a wider one, and now and then one over
# the whole heap: at the defaults, 7.1 s of collection in the main process of a 20,000-paper build (10% of it),
# 0.95 s at these. Reference cycles (networkx graphs and their views) are still freed when they are young.
BUILD_GC_THRESHOLD = (100_000, 20, 10)


@contextmanager
def build_collector() -> Iterator[None]:
    """The cyclic garbage collector at :data:`BUILD_GC_THRESHOLD` for a block (a function, as a decorator), then as
    it was."""
    before = gc.get_threshold()
    gc.set_threshold(*BUILD_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def release_memory() -> None:
    """Return memory the build no longer uses to the OS: glibc keeps freed heap pages in the process otherwise (at
    300,000 papers, 620 MB stayed resident after the papers were freed; ``malloc_trim`` gave them back). A no-op
    where there is no glibc."""
    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError, TypeError):  # no glibc (macOS), or no process handle (Windows)
        pass


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    """Resident memory of this process now (Linux ``/proc``; the peak so far elsewhere), in MB."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return peak_rss_mb()
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
