"""Regenerate the README screenshots from the seed corpus: docs/overview.png and docs/dataset-view.png.

    .venv/bin/python docs/make_screenshots.py

Needs what the browser tests need: Debian's chromium (scripts/ensure-chromium.sh) and Playwright for Python
(the test extras); Playwright's own browser downloads are never used.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

import kg

ROOT = Path(__file__).resolve().parents[1]
SHOTS = {"overview.png": "overview.html", "dataset-view.png": "datasets/cuhksysu.html"}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]
MAX_BYTES = 400_000


def main() -> int:
    chromium = shutil.which("chromium")
    if chromium is None:
        print("no chromium on PATH: run scripts/ensure-chromium.sh", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        kg.build([str(ROOT / "examples" / "icml")], Path(tmp))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            for name, view in SHOTS.items():
                page.goto((Path(tmp) / "views" / view).as_uri())
                page.wait_for_function("document.documentElement.dataset.kgDrawn === '1'")
                page.wait_for_timeout(300)
                out = ROOT / "docs" / name
                page.screenshot(path=str(out))
                shrink(out)
                print(f"wrote {out.relative_to(ROOT)} ({out.stat().st_size // 1000} KB)")
            browser.close()
    return 0


def shrink(path: Path) -> None:
    """A 256-colour palette keeps a flat UI screenshot sharp at a fraction of the size."""
    image = Image.open(path).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)
    if path.stat().st_size > MAX_BYTES:
        raise SystemExit(f"{path} is {path.stat().st_size} bytes, over {MAX_BYTES}")


if __name__ == "__main__":
    raise SystemExit(main())
