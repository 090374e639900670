"""The extractors' word lists are data (kg/nlp/data/lexicon), each described and used, and no module of kg/nlp keeps
a word list of its own in code."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from kg.nlp import lexicon

NLP = Path(lexicon.__file__).parent
# Module-level string collections in kg/nlp that are configuration, not vocabulary: the config's extractor names,
# feature templates and columns, array dtypes, labels.
CONFIGURATION = {"PRIORITY", "COLUMNS", "TEMPLATES", "_KINDS", "LABELS", "_TITLE_EXTRACTORS", "MODES", "EXTENDABLE",
                 "_DTYPES", "CONCEPT_FILES", "TAGS"}


def _word_strings(node: ast.AST) -> int:
    """How many words ``node`` lists: string items of set, list and tuple literals, and the words of a
    ``"a b c".split()``."""
    count = 0
    for n in ast.walk(node):
        if isinstance(n, (ast.Set, ast.List, ast.Tuple)):
            count += sum(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in n.elts)
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "split"
              and isinstance(n.func.value, ast.Constant) and isinstance(n.func.value.value, str)):
            count += len(n.func.value.value.split())
    return count


def test_every_list_is_described_and_named_once():
    seen: dict[str, str] = {}
    for path in sorted(lexicon.DATA.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["about"], path
        for key, entry in data["lists"].items():
            assert key not in seen, f"{key} in {path.name} and {seen[key]}"
            seen[key] = path.name
            assert entry["about"].strip(), (path.name, key)
            values = entry.get("words", entry.get("ordered"))
            assert values and all(isinstance(w, str) and w == w.strip() and w for w in values), (path.name, key)
            assert len(set(values)) == len(values), f"{key}: a word listed twice"
    assert sorted(seen) == lexicon.keys()


def test_every_list_is_used():
    code = "\n".join(p.read_text(encoding="utf-8") for p in NLP.parent.rglob("*.py"))  # (kg.build reads some too)
    unused = [key for key in lexicon.keys() if not re.search(rf"""lexicon\.(words|ordered)\(["']{key}["']\)""", code)]
    assert not unused, f"word lists no code reads: {unused}"


def test_lists_read_as_sets_or_sequences():
    assert "dataset" in lexicon.words("dataset_heads")
    assert lexicon.ordered("modifier_suffixes")[0].startswith("-")
    with pytest.raises(KeyError):
        lexicon.words("no such list")


def test_no_word_list_in_code():
    """A module-level collection of five or more words in kg/nlp belongs in the lexicon (or is configuration)."""
    found = []
    for path in sorted(NLP.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                name = ast.unparse(target)
                if name not in CONFIGURATION and _word_strings(node.value) >= 5:
                    found.append(f"{path.relative_to(NLP)}:{node.lineno} {name}")
    assert not found, f"word lists in code (move them to kg/nlp/data/lexicon): {found}"
