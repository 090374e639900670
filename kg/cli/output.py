"""What the commands print: terminal-safe text, URIs without their secrets, one-line errors, quiet closed pipes."""
from __future__ import annotations

import os
import re
import sys

# C0 controls, DEL and C1 controls (ESC, CSI and OSC sequences start with them), and the Unicode line separators
# and bidirectional overrides, which also rearrange what a terminal shows.
_CONTROL = "\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_ONE_LINE = re.compile(f"[\t\n{_CONTROL}]")
_MULTI_LINE = re.compile(f"[{_CONTROL}]")
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^\s@/:]*(?::\S*)?@")  # a password may hold "@" or "/"


def _escape(match: re.Match) -> str:
    n = ord(match.group())
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def _json_escape(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"


def safe(text: object, multiline: bool = False) -> str:
    """``text`` with terminal control characters written as ``\\xNN`` / ``\\uNNNN`` escapes, so data cannot move the
    cursor, clear the screen or retitle the window; newline and tab are kept when ``multiline``."""
    return (_MULTI_LINE if multiline else _ONE_LINE).sub(_escape, str(text))


def safe_json(text: str) -> str:
    """JSON text with the control characters that ``json.dumps(ensure_ascii=False)`` leaves raw (DEL, C1,
    separators, bidirectional overrides) written as ``\\uNNNN``: still valid JSON, and the same data."""
    return _MULTI_LINE.sub(_json_escape, text)


def redact(text: object) -> str:
    """``text`` with the user and password of every URI in it replaced: ``bolt://neo4j:PASS@host`` becomes
    ``bolt://***@host``."""
    return _USERINFO.sub(r"\1***@", str(text))


def error(message: object, prefix: str = "kg") -> None:
    """Print ``prefix: message`` on standard error as one safe line, secrets redacted."""
    print(f"{prefix}: {safe(redact(message))}", file=sys.stderr)


def silence_stdout() -> None:
    """Point standard output at /dev/null, after a reader closed the pipe: what is still buffered, and the flush
    at exit, go nowhere instead of raising BrokenPipeError again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor behind sys.stdout (a test's capture)
        pass
