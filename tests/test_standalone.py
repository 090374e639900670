"""The package and its tests stand alone: no file under ``kg/`` or ``tests/`` refers to the ``shared`` directory
that a development checkout may have beside it (a user's clone has none; only ``tools/`` may use it)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = "sha" + "red"  # spelt in pieces, so that this file names no such directory itself
# a relative path into it, its data folder, or a path joined from a quoted component of that name
SHARED = re.compile(rf"""\.\./{NAME}|{NAME}/data|["']{NAME}["']\s*/|/\s*["']{NAME}["']""".encode())


def references(folder: Path, base: Path) -> list[str]:
    """``file:line: text`` (``file`` relative to ``base``) of each line under ``folder`` that refers to the shared
    directory; this file, binary files (holding a NUL byte) and ``__pycache__`` are skipped."""
    found = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path == Path(__file__).resolve():
            continue
        data = path.read_bytes()
        if b"\0" in data or not SHARED.search(data):
            continue
        for number, line in enumerate(data.splitlines(), 1):
            if SHARED.search(line):
                found.append(f"{path.relative_to(base)}:{number}: {line.decode(errors='replace').strip()}")
    return found


def test_the_pattern_finds_each_way_of_naming_the_shared_directory(tmp_path):
    name = NAME
    (tmp_path / "a.py").write_text(f'A = ROOT.parent / "{name}" / "data"\nB = "x"\n')
    (tmp_path / "b.md").write_text(f"run `score.py` from ../{name}/tools\n")
    (tmp_path / "c.txt").write_text(f"the {name} task; rows['{name}']\nsee {name}/data/README.md\n")
    (tmp_path / "d.bin").write_bytes(f"\0../{name}".encode())
    hits = [h.split(": ", 1)[0] for h in references(tmp_path, tmp_path)]
    assert hits == ["a.py:1", "b.md:1", "c.txt:2"]


def test_neither_the_package_nor_the_tests_read_the_shared_directory():
    found = references(ROOT / "kg", ROOT) + references(ROOT / "tests", ROOT)
    assert not found, "only tools/ may use the shared directory beside the checkout; these refer to it:\n" + "\n".join(found)
