"""The top-level guard: whatever a command raises becomes one line on standard error and an exit code, never a
traceback (``--debug`` shows it); Ctrl-C exits 130 once the command has ended the processes it started; a
termination signal (``kill``) ends them and exits 143 at once; a reader closing the pipe ends the output quietly."""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable

from kg.cli.common import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_STORE, EXIT_TERMINATED
from kg.cli.output import error, redact, safe, silence_stdout

HINT = "(run with --debug for the traceback)"


def run_guarded(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """``command(args)``'s exit code, or the exit code of what it raised, after one line on standard error."""
    debug = bool(getattr(args, "debug", False))
    previous = _end_children_on_sigterm()
    try:
        code = command(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's flush at exit
        return code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        return EXIT_OK
    except Exception as exc:
        if debug:
            print(safe(redact(traceback.format_exc()), multiline=True), end="", file=sys.stderr)
        message, code = describe(exc)
        error(message if code is not None else f"error: {message}" if debug else f"error: {message} {HINT}")
        return EXIT_BAD_INPUT if code is None else code
    finally:
        if previous is not None:  # (kg.cli.main called from a program: its own handler again)
            signal.signal(signal.SIGTERM, previous)


def _end_children_on_sigterm() -> Callable | int | None:
    """While a command runs, SIGTERM ends the processes it started (extraction workers, the process loading the
    store, view writers), waits for them, removes the output it had not yet published (kg.build.outdir.PENDING),
    then ends this process at once with exit code 143: nothing it started writes into its output after it has gone,
    and no other clean-up runs that a worker the signal also reached could block (a pool whose worker died holding
    the pool's lock never shuts down). The handler it replaced, to restore; None
    where it installs none: off the main thread, or where the caller ignores SIGTERM or set a handler from C."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGTERM)
    if previous is None or previous == signal.SIG_IGN:
        return None
    owner = os.getpid()

    def end(signum: int, frame) -> None:
        if os.getpid() == owner:
            _end_children()
            if (outdir := sys.modules.get("kg.build.outdir")) is not None:
                outdir.remove_pending()  # a build's or kg extract's unpublished output
            os._exit(EXIT_TERMINATED)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a fork that kept the handler ends as by default
        os.kill(os.getpid(), signal.SIGTERM)

    signal.signal(signal.SIGTERM, end)
    return previous


def _end_children(wait: float = 5.0) -> None:
    """Kill every process multiprocessing started from this one (those the fork server forked for it included)
    and wait up to ``wait`` seconds for them to be gone."""
    import multiprocessing

    children = multiprocessing.active_children()
    for p in children:
        try:
            p.kill()
        except (OSError, ValueError):
            pass  # ended meanwhile, or closed
    for p in children:
        try:
            p.join(wait)
        except (OSError, ValueError, AssertionError):
            pass


def _is(exc: BaseException, module: str, name: str) -> bool:
    """Whether ``exc`` is ``module.name``; a module not imported yet cannot have raised it."""
    mod = sys.modules.get(module)
    return mod is not None and isinstance(exc, getattr(mod, name))


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else ""


def describe(exc: Exception) -> tuple[str, int | None]:
    """The one-line message for ``exc`` and its exit code; None for an unexpected error (a bug)."""
    from kg.errors import ClusterError, EncoderMissing, InputError, OutputLocked, OutputUnusable, StoreError

    if isinstance(exc, (InputError, OutputUnusable)):  # FILE:LINE: what is wrong; a bad --out
        return str(exc), EXIT_BAD_INPUT
    if isinstance(exc, FileNotFoundError):  # no built graph, or a file named in the options
        return str(exc) if exc.filename is None else f"{exc.filename}: {exc.strerror}", EXIT_STORE
    if isinstance(exc, OSError) and exc.strerror:  # read-only, full disk, permissions, a file where a folder goes
        return f"{exc.filename}: {exc.strerror}" if exc.filename is not None else exc.strerror, EXIT_BAD_INPUT
    if isinstance(exc, (ClusterError, EncoderMissing, OutputLocked)):
        return str(exc), EXIT_BAD_INPUT
    if isinstance(exc, StoreError):
        return str(exc), EXIT_STORE
    if _is(exc, "kg.store.queries", "QueryError"):  # the engine's reason, and what to do where kg knows: a refused
        # query is bad input, a store that cannot answer it a store problem
        return "query failed: " + " ".join(str(exc).splitlines()), EXIT_STORE if exc.store else EXIT_BAD_INPUT
    if type(exc).__module__.startswith(("ladybug", "neo4j")):
        return f"query failed: {_first_line(exc)}", EXIT_STORE
    what = _first_line(exc)
    return f"{type(exc).__name__}: {what}" if what else type(exc).__name__, None
