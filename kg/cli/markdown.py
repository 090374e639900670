"""Text and links for markdown output (``kg related --format markdown``): what the papers say is shown as text, never
read as markup or HTML, and a link goes to an http(s) address only.

>>> text("<b>Nets</b> *fast* [1]")
'\\\\<b\\\\>Nets\\\\</b\\\\> \\\\*fast\\\\* \\\\[1\\\\]'
>>> link("A (b)", "https://x.org/a b"), link("A", "javascript:alert(1)")
('[A (b)](https://x.org/a%20b)', 'A')
"""
from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

# Characters markdown (CommonMark and GitHub's) or HTML read as markup in running text; each is shown as itself
# after a backslash. ( and ) need none: only after "]", which is escaped, do they make a link.
_MARKUP = re.compile(r"([\\`*_\[\]<>&|~$#!])")
# What stays as it is in a link's address: RFC 3986's unreserved and reserved characters but the brackets and
# parentheses, and "%" (an address's own escapes); the rest (spaces, quotes, <, >, non-ASCII) is percent-encoded.
_URL_SAFE = "/:?#@!$&'*+,;=%~-._"


def text(value: object) -> str:
    """``value`` as markdown text on one line: whitespace collapsed, markup characters escaped."""
    return _MARKUP.sub(r"\\\1", " ".join(str(value).split()))


def url(address: object) -> str | None:
    """``address`` fit for a markdown link: an http(s) URL with a host, percent-encoded where markdown or HTML would
    read it otherwise; None for any other (``javascript:``, relative, empty)."""
    raw = str(address or "").strip()
    parts = urlsplit(raw)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return quote(raw, safe=_URL_SAFE)


def link(title: object, address: object) -> str:
    """``title`` as text, linked to ``address`` when it is an http(s) URL."""
    target = url(address)
    return f"[{text(title)}]({target})" if target else text(title)
