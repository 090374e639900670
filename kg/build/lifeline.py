"""Child processes die with their parent.

A build's children (the fork server's extraction workers, the process loading the embedded store, the forked
view writers) would otherwise outlive a build that is killed: orphans that hold memory and go on writing into its
output directory. :func:`install` (run on ``import kg``) has every process forked from this one, by kg or by
multiprocessing, ask the kernel to kill it when its parent ends (Linux's ``PR_SET_PDEATHSIG``), or, where that
is missing, watch its parent from a thread. The fork server, which multiprocessing starts by ``exec``, ends by
itself once the build and its forks are gone; the processes it forks then die with it.

- :func:`die_with`: a process the fork server forked (a pool's worker too) ends with the build itself, not a moment
  after the server;
- the fork server and what it forks are a process group of their own: a signal to the build's whole group (as
  ``timeout`` or systemd send it) reaches the build, which ends them (kg.cli.guard), and never a worker holding its
  pool's lock;
- :func:`start_forkserver`: the fork server, and what it forks, leave Ctrl-C to the build (which ends them);
- a process the fork server starts after the build has gone fails to start without a traceback, and the fork
  server, left with half a request by a build that ended, ends without one.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType

PR_SET_PDEATHSIG = 1
POLL_SECONDS = 0.5  # how often a watching thread looks at its parent

_prctl: list = []  # libc's prctl, once looked up (None: not on this system)
# the forking process, whether its main thread forks, whether it is the fork server (set before each fork)
_forking = {"pid": 0, "main": True, "server": False}
_STARTED_BY = os.getppid()  # in the fork server, which imports kg as it starts: the build that started it
_installed = False


def install() -> None:
    """Make every later fork of this process (and of its forks) die with its parent. Idempotent."""
    global _installed
    if _installed or not hasattr(os, "register_at_fork"):
        return
    os.register_at_fork(before=_before_fork, after_in_child=_after_fork_in_child)
    _installed = True
    if _in_fork_server(1):  # (its preload imports kg) a group of its own for it and the workers it forks: a signal
        _own_process_group()  # to the build's whole group (timeout, systemd) reaches the build, which ends them
        # a build ended while it asked for a process (a pool replacing the workers the build had just ended) leaves
        # the server reading a request that never comes: it ends quietly, as the build has
        sys.excepthook = _StartFailure(_STARTED_BY, sys.excepthook)


def _before_fork() -> None:
    _libc_prctl()  # looked up once, here, not in every child
    _forking["pid"] = os.getpid()
    _forking["main"] = threading.current_thread() is threading.main_thread()
    _forking["server"] = _in_fork_server()


def _after_fork_in_child() -> None:
    die_with_parent(_forking["pid"], forked_by_main_thread=_forking["main"])
    if _forking["server"]:  # (its error hook is the server's: quiet when the build has gone)
        if _STARTED_BY > 1:  # a pool's worker too ends with the build, not when the fork server notices it has gone:
            die_with(_STARTED_BY)  # it holds the server's alive pipe, which keeps the server waiting for it


def _own_process_group() -> None:
    """Put this process in a process group of its own (where the system allows it). A worker that a group-wide
    SIGTERM killed while it held its pool's lock left the build hanging in the pool's shutdown."""
    try:
        os.setpgid(0, 0)
    except (AttributeError, OSError):
        pass


def _in_fork_server(depth: int = 1) -> bool:
    """Whether this process is multiprocessing's fork server, in its loop or importing its preload modules (the
    caller's caller looked at first, ``depth`` frames up)."""
    from_server = sys.modules.get("multiprocessing.forkserver")
    if from_server is None:
        return False
    frame = sys._getframe(depth)
    while frame is not None:
        if frame.f_code is from_server.main.__code__:
            return True
        frame = frame.f_back
    return False


class _StartFailure:
    """The error hook of the fork server and of the processes it forks, for an error while they start or serve
    (a process's work has its own handler): silent when the build ends within ``wait`` seconds (Ctrl-C came as a
    process started, and the build took its shared objects with it; the build ended in the middle of a request),
    else the usual traceback."""

    def __init__(self, build: int, hook: Callable, wait: float = 1.0) -> None:
        self.build, self.hook, self.wait = build, hook, wait

    def __call__(self, kind: type, value: BaseException, tb: TracebackType | None) -> None:
        if not (self.build > 1 and _ends_within(self.build, self.wait)):
            self.hook(kind, value, tb)


def _ends_within(pid: int, seconds: float) -> bool:
    """Whether process ``pid`` has ended (a zombie counts) or ends within ``seconds``."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    except (AttributeError, OSError):  # no pidfd: look now and then (a zombie looks alive)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return True
            except PermissionError:
                return False
            time.sleep(0.05)
        return False
    try:
        return _readable(fd, seconds)
    finally:
        os.close(fd)


def die_with_parent(parent: int, *, forked_by_main_thread: bool = True) -> None:
    """End this process as soon as ``parent`` (its parent's pid) has ended, now included.

    The kernel's parent-death signal fires when the thread that forked ends, so it serves only for forks made by the
    parent's main thread (it then ends with the parent itself); other forks are watched from a thread."""
    if not (forked_by_main_thread and _parent_death_signal(signal.SIGKILL)):
        threading.Thread(target=_watch, args=(parent,), name="kg-parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent ended before this process could ask
        _die()


def _libc_prctl() -> Callable | None:
    """libc's ``prctl`` on Linux, else None."""
    if not _prctl:
        fn = None
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                fn = ctypes.CDLL(None, use_errno=True).prctl  # libc is in the program's own symbols
            except (OSError, AttributeError):
                fn = None
        _prctl.append(fn)
    return _prctl[0]


def _parent_death_signal(signum: int) -> bool:
    """Ask Linux to send ``signum`` to this process when its parent ends; False where that is not available."""
    prctl = _libc_prctl()
    return prctl is not None and prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0


def _watch(parent: int) -> None:
    """A thread's loop: end the process once its parent is no longer ``parent`` (it ended; init adopted us)."""
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    _die()


def _die() -> None:
    """End at once, as the parent-death signal would: no clean-up that could write anywhere."""
    os.kill(os.getpid(), signal.SIGKILL)


def die_with(pid: int) -> None:
    """End this process as soon as process ``pid`` (an ancestor other than its parent: the build, for a process the
    fork server forked) has ended, now included. A thread waits on the process (a pidfd), or looks every
    ``POLL_SECONDS`` where there is none."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        _die()
    except (AttributeError, OSError):  # no pidfd here: look now and then
        threading.Thread(target=_poll, args=(pid,), name="kg-owner-watch", daemon=True).start()
    else:
        threading.Thread(target=_wait, args=(fd,), name="kg-owner-watch", daemon=True).start()


def _wait(fd: int) -> None:
    """A thread's wait: end this process once the process of the pidfd ``fd`` has ended."""
    _readable(fd, None)
    _die()


def _readable(fd: int, seconds: float | None) -> bool:
    """Whether ``fd`` becomes readable within ``seconds`` (None: however long it takes)."""
    import select

    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(None if seconds is None else int(seconds * 1000)))


def _poll(pid: int) -> None:
    """A thread's loop where there is no pidfd: end this process once process ``pid`` has gone."""
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            _die()
        except PermissionError:
            pass
        time.sleep(POLL_SECONDS)


# A build ended by a signal leaves its pools' semaphores to multiprocessing's resource tracker, which removes them
# and would say so on the terminal ("There appear to be 6 leaked semaphore objects"): nothing a user can act on.
_QUIET_TRACKER = "ignore:resource_tracker:UserWarning"


def start_forkserver(preload: list[str]) -> None:
    """Start multiprocessing's fork server (when it does not run yet), importing ``preload``, with Ctrl-C ignored:
    it and the processes it forks leave Ctrl-C to the build, which ends them (a Ctrl-C while it imports spaCy
    printed a traceback)."""
    import multiprocessing
    from multiprocessing import forkserver

    if _QUIET_TRACKER not in sys.warnoptions:  # (passed on as -W to the resource tracker and the fork server)
        sys.warnoptions.append(_QUIET_TRACKER)
    multiprocessing.get_context("forkserver").set_forkserver_preload(preload)
    if threading.current_thread() is not threading.main_thread():
        forkserver.ensure_running()
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # kept, as ignored, across the exec
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)
