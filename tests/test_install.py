"""``python -m build`` on a machine without a C compiler (CC=/bin/false) makes a wheel, warning only that the C
extensions and the Cython-compiled modules (kg/compiled.py's HOT) were not built; the wheel installs into a new
venv and ``kg build`` runs there on the Python twins and sources, with the output of the checkout's compiled build.
The venv gets its dependencies from this interpreter's site-packages through a .pth file (kg's own files left
out), so nothing is downloaded."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from kg import compiled

ROOT = Path(__file__).resolve().parents[1]
NO_COMPILER = {"CC": "/bin/false", "CXX": "/bin/false", "LDSHARED": "/bin/false"}

pytestmark = pytest.mark.install


def _env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "KG_PURE_PYTHON", "KG_COMPILED_WARNED", "KG_NO_EXT", "KG_COMPILE")}
    return {**base, **extra}


def _run(args: list, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    run = subprocess.run([str(a) for a in args], cwd=cwd, env=_env(**env), capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, f"{args}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return run


def _source_copy(target: Path) -> Path:
    """The checkout's files (tracked, and new ones git does not ignore) copied to ``target``."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("needs a git checkout to know the project's files")
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


def _dependencies(folder: Path) -> Path:
    """A folder of links to this interpreter's installed packages, without kg's."""
    folder.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        name = entry.name
        if name == "kg" or name.startswith(("kg-", "__editable__", "__pycache__")) or name.endswith(".pth"):
            continue
        (folder / name).symlink_to(entry)
    return folder


def test_a_wheel_built_without_a_compiler_installs_and_builds_a_graph(tmp_path):
    source = _source_copy(tmp_path / "source")
    dist = tmp_path / "dist"
    build = _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, source], tmp_path,
                 **NO_COMPILER)  # an sdist, then the wheel from it
    warnings = [line for line in (build.stdout + build.stderr).splitlines() if "warn" in line.lower()]
    failed = [f'building extension "{name}" failed' for name in (*compiled.EXTENSIONS, *compiled.HOT)]
    assert [w for w in warnings if not any(e in w for e in (*failed, "byte-compiling is disabled"))] == []
    assert sum(any(e in w for e in failed) for w in warnings) == len(failed)
    (wheel,) = dist.glob("kg-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c", ".cpp", ".pyx"))]
    for needed in ("kg/nlp/_tagger_py.py", "kg/nlp/_doc_py.py", "kg/nlp/trained_tagger/weights.npz",
                   "kg/nlp/trained/meta.json", "kg/cypher/schema.cypher", "kg/viz/templates/"):
        assert any(n.startswith(needed) for n in names), needed

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", venv], tmp_path)
    python = venv / "bin" / "python"
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path)
                .stdout.strip())
    (site / "kg-dependencies.pth").write_text(f"{_dependencies(tmp_path / 'dependencies')}\n")
    _run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", wheel], tmp_path, **NO_COMPILER)
    where = json.loads(_run([python, "-c", "import json, kg, kg.nlp._tagger as t; "
                                           "print(json.dumps([kg.__file__, t.__file__]))"], tmp_path).stdout)
    assert all(Path(f).is_relative_to(site) for f in where) and where[1].endswith("_tagger_py.py"), where

    installed = _run([venv / "bin" / "kg", "build", ROOT / "examples/icml", "--out", tmp_path / "installed",
                      "--quiet"], tmp_path, **NO_COMPILER)
    assert installed.stderr.splitlines()[0] == ("kg: kg/nlp/_tagger.c, kg/nlp/_doc.pyx are not compiled; running "
                                                "the Python twins (slower; an install with a C compiler builds them)")
    checkout = _run([sys.executable, "-c", "import sys; from kg.cli import main; sys.exit(main(sys.argv[1:]))",
                     "build", ROOT / "examples/icml", "--out", tmp_path / "checkout", "--quiet"], tmp_path)
    assert checkout.returncode == 0
    for name in ("mentions.jsonl", "graph.json"):  # the packaged data and models all there
        assert (tmp_path / "installed" / name).read_bytes() == (tmp_path / "checkout" / name).read_bytes(), name
    assert len((tmp_path / "installed" / "mentions.jsonl").read_text().splitlines()) == 38
