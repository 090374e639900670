"""What a build remembers in ``DIR/cache/`` so the next build into DIR redoes only what changed.

- ``papers.jsonl``: every paper of the last build (a later build adds to them; ``--prune`` drops those not in its inputs);
- ``extractions-<fingerprint>.jsonl``: extraction results keyed by the SHA-256 of the abstract. The fingerprint
  covers the pipeline config, the gazetteers, the trained model and kg's version, so changing any of them
  re-extracts everything instead of mixing old and new results.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, fields
from pathlib import Path

import kg
from kg.model import Extraction, Mention, Paper, Result, Source, Span

CACHE = "cache"


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def pipeline_fingerprint(config: str = "") -> str:
    """A short hash of everything that determines extraction output (``config``: the pipeline's config.cfg)."""
    from kg.nlp import pipeline

    nlp_dir = Path(pipeline.__file__).parent
    h = hashlib.sha256(kg.__version__.encode())
    files = [Path(config) if config else pipeline.DEFAULT_CONFIG, *sorted((nlp_dir / "data").rglob("*.json*")), *sorted(nlp_dir.glob("*.py")),
             *sorted((nlp_dir / "trained").rglob("meta.json"))]
    for f in files:
        if f.is_file():
            h.update(f.name.encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def paper_to_json(p: Paper) -> dict:
    d = asdict(p)
    d["sources"] = [[s.path, s.line] for s in p.sources]
    return d


def paper_from_json(d: dict) -> Paper:
    return Paper(**{**d, "sources": [Source(path, line) for path, line in d["sources"]]})


_MENTION_FIELDS = tuple(f.name for f in fields(Mention) if f.name != "sentence")
_RESULT_FIELDS = tuple(f.name for f in fields(Result) if f.name != "sentence")


def _record(obj, names: tuple[str, ...]) -> dict:
    # Field by field: dataclasses.asdict deep-copies and was most of the cost of caching a build.
    d = {name: getattr(obj, name) for name in names}
    d["sentence"] = [obj.sentence.start, obj.sentence.end]
    return d


def extraction_to_json(ex: Extraction) -> dict:
    return {"mentions": [_record(m, _MENTION_FIELDS) for m in ex.mentions],
            "results": [_record(r, _RESULT_FIELDS) for r in ex.results],
            "aliases": ex.aliases,
            "generic": [_record(m, _MENTION_FIELDS) for m in ex.generic]}


def extraction_from_json(paper_id: str, d: dict) -> Extraction:
    return Extraction(
        paper_id,
        [Mention(**{**m, "sentence": Span(*m["sentence"])}) for m in d["mentions"]],
        [Result(**{**r, "sentence": Span(*r["sentence"])}) for r in d["results"]],
        d["aliases"],
        [Mention(**{**m, "sentence": Span(*m["sentence"])}) for m in d.get("generic", [])],
    )


class BuildCache:
    """The papers and extractions of earlier builds into one output directory."""

    def __init__(self, out: Path, config: str = "") -> None:
        self.dir = Path(out) / CACHE
        self.fingerprint = pipeline_fingerprint(config)
        self.extractions: dict[str, dict] = {}
        path = self._extractions_path()
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    key, value = json.loads(line)
                    self.extractions[key] = value

    def _extractions_path(self) -> Path:
        return self.dir / f"extractions-{self.fingerprint}.jsonl"

    def previous_papers(self) -> list[Paper]:
        path = self.dir / "papers.jsonl"
        if not path.is_file():
            return []
        return [paper_from_json(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

    def get(self, paper: Paper) -> Extraction | None:
        hit = self.extractions.get(text_key(paper.text))
        return extraction_from_json(paper.id, hit) if hit is not None else None

    def put(self, paper: Paper, ex: Extraction) -> None:
        self.extractions[text_key(paper.text)] = extraction_to_json(ex)

    def save(self, papers: list[Paper]) -> None:
        """Keep these papers and their extractions (entries of other papers and other pipelines are dropped)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in self.dir.glob("extractions-*.jsonl"):
            if old != self._extractions_path():
                old.unlink()
        keep = {text_key(p.text) for p in papers}
        tmp = self._extractions_path().with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            for key, value in self.extractions.items():
                if key in keep:
                    fh.write(json.dumps([key, value], ensure_ascii=False) + "\n")
        tmp.replace(self._extractions_path())
        tmp = self.dir / "papers.tmp"
        with tmp.open("w", encoding="utf-8") as fh:
            for p in papers:
                fh.write(json.dumps(paper_to_json(p), ensure_ascii=False) + "\n")
        tmp.replace(self.dir / "papers.jsonl")
