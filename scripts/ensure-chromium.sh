#!/usr/bin/env bash
# Make sure a headless Chromium is on PATH for the browser tests (tests/test_browser.py).
# Uses Debian's `chromium` package; never downloads a browser build of its own.
# Exits 0 when chromium is present or was installed, non-zero with a message otherwise.
set -uo pipefail

if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: chromium is not installed and apt-get is not available; install Chromium by hand" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "ensure-chromium: chromium is missing; run 'apt-get install -y chromium' as root" >&2
        exit 1
    fi
fi
echo "ensure-chromium: installing Debian's chromium package (for the browser tests)..." >&2
log="$(mktemp)"
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core fonts-liberation; } >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    rm -f "$log"
    echo "ensure-chromium: could not install chromium with apt-get" >&2
    exit 1
fi
rm -f "$log"
if ! command -v chromium >/dev/null 2>&1; then
    echo "ensure-chromium: apt-get finished but chromium is still not on PATH" >&2
    exit 1
fi
exit 0
