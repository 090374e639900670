"""The documentation stays true: the CLI reference equals ``--help``, and no text speaks of how the project was made."""
from __future__ import annotations

import difflib
import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _cli_reference():
    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "tools" / "dev" / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_equals_help():
    ref = _cli_reference()
    expected = ref.render()
    actual = ref.OUT.read_text() if ref.OUT.is_file() else ""
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(actual.splitlines(True), expected.splitlines(True),
                                                 "docs/cli.md", "--help", n=1))[:40])
        pytest.fail(f"docs/cli.md differs from --help: run python tools/dev/cli_reference.py\n{diff}")


def test_cli_reference_does_not_depend_on_the_terminal(monkeypatch):
    ref = _cli_reference()
    monkeypatch.setenv("COLUMNS", "40")
    narrow = ref.render()
    monkeypatch.setenv("COLUMNS", "250")
    assert ref.render() == narrow
    assert "## kg build" in narrow and "## kg query" in narrow  # found from the parser, not a list


def test_mode_speeds_in_help_agree_with_the_docs():
    ref = _cli_reference()
    with ref.fixed_width():
        text, _ = ref.help_of(ref.entry_point(), ["build"])
    figures = re.findall(r"~[\d.]+x (?:faster|slower)", " ".join(text.split()))
    assert len(figures) == 2, ("kg build --help should give --fast's and --accurate's speed as '~Nx faster' and "
                               f"'~Nx slower' (as measured in docs/extraction.md), found {figures}")
    for path in (ROOT / "README.md", ROOT / "docs" / "extraction.md"):
        text = " ".join(path.read_text().split())
        for figure in figures:
            assert figure in text, f"--help says {figure!r}, {path.relative_to(ROOT)} does not"


def test_readme_schema_is_kg_schema():
    from kg import schema

    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Graph schema", 1)[1].split("```", 2)[1]
    nodes = {label: tuple(p.strip() for p in props.split(",")) for label, props in
             re.findall(r"\(:(\w+)\s*\{([^}]*)\}\)", block)}
    rels = set(re.findall(r"\(:(\w+)\)-\[:(\w+)\]->\(:(\w+)\)", block))
    hint = "the README's graph schema differs from kg/schema.py: update the README"
    assert nodes == {t.label: t.properties for t in schema.NODE_TYPES}, hint
    assert rels == {(r.source, r.name, r.target) for r in schema.REL_TYPES}, hint
    for prop in {p for r in schema.REL_TYPES for p in r.properties}:
        assert f"`{prop}`" in readme, f"{hint}: relationship property {prop} is not described"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_links_in_the_docs_lead_somewhere():
    broken = []
    for page in [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and file.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", file.read_text(), re.MULTILINE)
                if anchor not in {_anchor(h) for h in headings}:
                    broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


# How the project was made belongs in git history and CHANGELOG.md, not in its text. (A Neo4j driver's `session`
# object is fine: these match narration only.)
NARRATION = re.compile(
    r"\bsessions?[ -]\d+|\b(this|that|the|each|earlier|a later|an earlier|previous|next) sessions?\b|\bsession's\b"
    r"|\b(slow|slower|slowest|fast|faster|quiet) day\b|\bthrow-?away script\b|\bthrow-away\b|\bwho tried\b",
    re.IGNORECASE)
TEXT_SUFFIXES = {".md", ".py", ".pyx", ".c", ".h", ".cfg", ".sh", ".txt", ".toml", ".yml", ".yaml", ".cypher",
                 ".html", ".js", ".css", ".ipynb", ""}


def _checked_files() -> list[Path]:
    roots = ["README.md", "docs", "kg", "tools"]
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", *roots],
                                cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
        files = [ROOT / f for f in listed if f]
    except (OSError, subprocess.CalledProcessError):
        files = [ROOT / "README.md", *(p for r in roots[1:] for p in (ROOT / r).rglob("*"))]
    return sorted(p for p in files if p.is_file() and p.suffix in TEXT_SUFFIXES)


def test_no_narration_of_how_the_project_was_made():
    found = []
    for path in _checked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if m := NARRATION.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {m.group(0)!r} in {line.strip()[:100]}")
    assert not found, ("these lines narrate how the project was made (say what is, and leave the history to git "
                       "and CHANGELOG.md):\n" + "\n".join(found))


def test_narration_pattern_spares_technical_uses():
    assert not NARRATION.search("with driver.session(database=database) as session:")
    assert not NARRATION.search("session.execute_write(lambda tx: tx.run(query))")
    for line in ("measured in session 18", "Sessions 24-26 compared recipes", "on a slow day for the VM",
                 "a throw-away script", "this session's rows", "a session-26 fold model"):
        assert NARRATION.search(line), line


def readme_transcripts() -> list[tuple[str, str]]:
    """The README's ``$ kg related ...`` and ``$ kg query ...`` commands with the output it shows after each."""
    out, block = [], None
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("$ kg related ") or line.startswith("$ kg query "):
            block = [line[2:], []]
            out.append(block)
        elif block is not None and line.strip() and not line.startswith(("$ ", "```")):
            block[1].append(line)
        else:
            block = None
    return [(cmd, "\n".join(lines)) for cmd, lines in out]


@pytest.mark.parametrize("command, shown", readme_transcripts())
def test_the_readmes_related_and_query_transcripts_are_real_output(seed_build, capsys, command, shown):
    import shlex

    from kg.cli import main

    capsys.readouterr()
    code = main([*shlex.split(command)[1:], "--graph", str(seed_build[1])])
    out = capsys.readouterr().out
    assert code == 0
    assert out.rstrip("\n") == shown, f"update the README's output of `{command}`:\n{out}"


def test_the_readmes_build_transcript_is_the_example_builds_summary(seed_build):
    report, _ = seed_build
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("$ kg build examples/icml --out out") + 1
    shown = lines[start:lines.index("```", start)]
    real = [*report.summary().splitlines(), f"wrote {len(report.files)} files to out/ (open out/views/index.html)"]
    assert shown == real, "update the README's output of `kg build examples/icml --out out`:\n" + "\n".join(real)
