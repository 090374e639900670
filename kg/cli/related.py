"""``kg related``: papers related through shared datasets, tasks and methods, ranked and explained."""
from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kg.cli import markdown as md
from kg.cli.common import EXIT_BAD_INPUT, EXIT_OK, add_command, positive_int, report_ambiguous
from kg.cli.output import error, safe

if TYPE_CHECKING:
    from kg.related.ranking import ConceptReport, Hit, PaperFacts


FORMATS = ("text", "json", "markdown")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``kg related``."""
    p = add_command(subparsers, "related",
                    help="find related papers through shared datasets, tasks, methods (ranked, explained)",
                    description="Examples: kg related SCALE; kg related DomED --by dataset,task; "
                                "kg related 'person search on CUHK-SYSU'; kg related --dataset CUHK-SYSU; "
                                "kg related SCALE --format markdown")
    p.add_argument("query", nargs="*",
                   help="a paper (id, paper:id, title or proposed method's name), or words from an abstract")
    p.add_argument("--top", type=positive_int, default=10, help="how many papers (default 10)")
    p.add_argument("--by", type=by_kinds, metavar="KIND,...",
                   help="only papers sharing a concept of these kinds, comma-separated: dataset,task,method,metric "
                        "(the texts' similarity still adds to their scores; without --by a paper sharing only words "
                        "is a hit too). A concept is shared as itself, not through its subtasks and variants as in "
                        "the saved query related_by")
    concept = p.add_mutually_exclusive_group()
    concept.add_argument("--dataset", help="papers using this dataset, and the datasets used with it")
    concept.add_argument("--task", help="papers addressing this task, and their datasets")
    concept.add_argument("--method", help="papers proposing or using this method, and their datasets")
    p.add_argument("--graph", default="out", help="directory written by kg build (default out)")
    formats = p.add_mutually_exclusive_group()
    formats.add_argument("--format", choices=FORMATS, default="text",
                         help="text (default); json, machine-readable; markdown, a related-work list: title linked "
                              "to its url, venue, year and why, one line per paper")
    formats.add_argument("--json", dest="format", action="store_const", const="json",
                         help="the same as --format json")
    formats.add_argument("--markdown", dest="format", action="store_const", const="markdown",
                         help="the same as --format markdown")
    p.set_defaults(run=run)


def by_kinds(text: str) -> list[str]:
    """An argparse type: ``--by dataset,task`` as ``["dataset", "task"]`` (any case and number, spaces aside),
    refusing an empty or unknown kind."""
    from kg.related.ranking import KINDS

    kinds = [k.strip().lower() for k in text.split(",")]
    kinds = [k[:-1] if k.endswith("s") and k[:-1] in KINDS else k for k in kinds]  # "datasets", as related_by takes
    if "" in kinds:
        raise argparse.ArgumentTypeError(f"needs kinds separated by commas, e.g. dataset,task; {text!r} has an "
                                         "empty one")
    if unknown := [k for k in kinds if k not in KINDS]:
        raise argparse.ArgumentTypeError(f"unknown kind(s) {', '.join(map(repr, unknown))}; choose from "
                                         f"{', '.join(KINDS)}")
    return kinds


def run(args: argparse.Namespace) -> int:
    """Print the papers around a concept, or the papers related to a paper or a text."""
    from kg.related import ranking as rel
    from kg.store.rows import load_graph

    concept = next(((k, v) for k, v in (("Dataset", args.dataset), ("Task", args.task), ("Method", args.method))
                    if v is not None), None)
    query = " ".join(args.query).strip()
    if concept is not None and not concept[1].strip():
        error(f"--{concept[0].lower()} needs a name")
        return EXIT_BAD_INPUT
    if concept is None and not query:
        error("give a paper id, a method name or abstract words, or --dataset/--task/--method NAME")
        return EXIT_BAD_INPUT
    if concept is not None and query:
        error(f"give a paper (or words) or --{concept[0].lower()} NAME, not both: '{query}' and "
              f"--{concept[0].lower()} {concept[1]}")
        return EXIT_BAD_INPUT
    if concept is not None and args.by:
        error(f"--by ranks the papers related to a paper or words; --{concept[0].lower()} lists a concept's papers: "
              "give one of them")
        return EXIT_BAD_INPUT
    weights = rel.weights_for(args.by)
    index = _index(args)  # the build's index answers without reading graph.json
    if index is not None:
        if concept:
            return _around_concept(lambda **kw: index.around_concept(*concept, **kw), index.facts, concept[0], args)
        return _from_index(args, index, query, weights)
    g = load_graph(Path(args.graph))
    if concept:
        return _around_concept(lambda **kw: rel.around_concept(g, *concept, **kw), lambda p: rel.paper_facts(g, p),
                               concept[0], args)
    return _from_graph(args, g, query, weights)


def _index(args: argparse.Namespace):
    """The index the build wrote (``related/``), or None when it has none or one an older kg wrote."""
    from kg.related.index import DIRECTORY, RelatedIndex

    path = Path(args.graph) / DIRECTORY
    if RelatedIndex.complete(path):
        return RelatedIndex.load(path)
    if path.is_dir():
        error(f"{path} was written by an older kg; answering from graph.json (kg build again for faster answers)",
              prefix="kg related")
    return None


def _from_graph(args: argparse.Namespace, g, query: str, weights: dict[str, float]) -> int:
    """``kg related`` for a paper or a text, on the graph read from ``graph.json`` (a build without an index)."""
    from kg.paper_names import GraphPapers
    from kg.related import ranking as rel

    papers = GraphPapers(g)
    paper = _resolve(papers, query)
    if isinstance(paper, int):
        return paper
    if paper:
        hits = rel.related(g, paper, top=args.top, weights=weights, shared_only=bool(args.by))
        label, concepts = f"{g.nodes[paper]['name']} [{paper}]", rel.paper_concepts(g, paper)
    else:
        concepts, texts = rel.concepts_from_text(g, query), rel.text_index(g)
        vector = texts.vector_of_text(query)
        hits = rel.rank(g, concepts, top=args.top, weights=weights, similarity=texts.similar_to_text(query),
                        query_vector=vector, embedding=rel.text_embedding(g, query), shared_only=bool(args.by))
        label = "the text"
    named = sorted((g.nodes[c]["type"], g.nodes[c]["name"]) for c in concepts)
    return _print_hits(args, query, paper, label, weights, hits, lambda p: rel.paper_facts(g, p), named)


def _from_index(args: argparse.Namespace, index, query: str, weights: dict[str, float]) -> int:
    """``kg related`` for a paper (id, title or proposed method) or a text, from the index the build wrote
    (``related/``)."""
    from kg.related.index import IndexPapers

    paper = _resolve(IndexPapers(index), query)
    if isinstance(paper, int):
        return paper
    if paper:
        hits = index.related(paper, top=args.top, weights=weights, shared_only=bool(args.by))
        label, named = f"{index.name(index.number_of(paper))} [{paper}]", index.concepts_of(paper)
    else:
        hits, named = index.related_to_text(query, top=args.top, weights=weights, shared_only=bool(args.by))
        label = "the text"
    return _print_hits(args, query, paper, label, weights, hits, index.facts, named)


def _resolve(papers, query: str) -> str | int | None:
    """The paper ``query`` names, None for words to search for, or an exit code when it names none or several."""
    from kg.paper_names import AmbiguousPaper, looks_like_id, not_found, resolve

    try:
        paper = resolve(papers, query)
    except AmbiguousPaper as exc:
        return report_ambiguous(exc)
    if paper is None and looks_like_id(query):  # an id (paper:..., a DOI, an arXiv id), not words to search for
        error(not_found(papers, query))
        return EXIT_BAD_INPUT
    return paper


_TITLES = ("", ", in a title", ", in both titles")  # how many of the two papers' titles name a shared concept


def _print_hits(args: argparse.Namespace, query: str, paper: str | None, label: str, weights: dict[str, float],
                hits: list, facts: Callable[[str], PaperFacts], named: list[tuple[str, str]]) -> int:
    """Print ranked hits as text, JSON or a markdown list; ``facts(paper)`` gives a hit's title, url, venue, year;
    ``named``: the query's concepts, (type, name) each."""
    if args.format == "json":
        print(json.dumps({"query": query, "paper": paper, "weights": weights,
                          "query_concepts": [{"type": t, "name": n} for t, n in named],
                          "hits": [{**h.to_json(), **facts(h.paper).to_json()} for h in hits]}, indent=1))
        return EXIT_OK
    if args.format == "markdown":
        print(safe(markdown_list(facts, label, hits), multiline=True))
        return EXIT_OK
    weighted = [(t, n) for t, n in named if weights.get(t)]
    if paper is None:  # what the extractor found in the words, so that a reader sees what the ranking stands on
        label += f" (known concepts: {', '.join(f'{t.lower()} {n}' for t, n in weighted)})" if weighted else \
            " (no known concept" + (" of those kinds)" if args.by else ")")
    print(f"related to {safe(label)}, weights " + ", ".join(f"{k.lower()} {v:g}" for k, v in weights.items()))
    if not hits:
        kinds = " or ".join(t.lower() for t, w in weights.items() if w)
        print(f"  (it names no {kinds} concept)" if args.by and not weighted else
              "  (no paper shares a weighted concept or words with it)")
    for i, h in enumerate(hits, 1):
        f = facts(h.paper)
        where = " ".join(str(x) for x in (f.venue, f.year) if x)
        print(safe(f"{i:3}. {h.score:6.2f}  {h.name}" + (f"  ({where})" if where else "") + f"  [{h.paper}]"))
        shares = "; ".join(f"{s.type.lower()} {s.name} ({s.weight:.2f}{_TITLES[s.titles]})" for s in h.shared[:6]) \
            + (f"; +{len(h.shared) - 6} more" if len(h.shared) > 6 else "")
        print(safe(f"        {similarity_text(h)}" + (f"; shares {shares}" if shares else "")))
        if h.keywords:
            print(safe("        keywords in common: " + ", ".join(h.keywords[:6])))
        evidence = next((x for x in h.shared if x.sentence and x.type in _EVIDENCE_FIRST), None) \
            or next((x for x in h.shared if x.sentence), None)
        if evidence is not None:  # where the hit names its heaviest shared dataset or task
            print(safe(f"        {evidence.name}: \"{snippet(evidence.sentence, [evidence.name])}\""))
    return EXIT_OK


SNIPPET = 160  # characters of an evidence sentence a line shows


_MARKUP = frozenset("$\\*_{}`~^")


def readable(sentence: str) -> str:
    """An evidence sentence as it reads: ``$\\ell_2$-regularized`` as ``ℓ_2-regularized`` (kg.corpus.clean, imported
    only for a sentence with markup in it)."""
    if _MARKUP.isdisjoint(sentence):
        return sentence
    from kg.corpus.clean import clean_text

    return clean_text(sentence)


def snippet(sentence: str, names: list[str], width: int = SNIPPET) -> str:
    """``sentence`` as it reads (LaTeX and markdown cleaned, :func:`readable`) in at most ``width`` characters
    around the first of ``names`` it writes (any case), cut at word boundaries with "..." where it is cut, so a long
    sentence still shows the name it is evidence for."""
    text = " ".join(readable(sentence).split())
    if len(text) <= width:
        return text
    low = text.lower()
    at, name = min(((low.find(n.lower()), n) for n in names if n and n.lower() in low), default=(0, ""))
    room = width - 6  # the two "..."
    start = 0 if at + len(name) <= width - 3 else max(0, min(at - (room - len(name)) // 2, len(text) - room))
    if start:
        start = text.find(" ", start) + 1 or start  # (a word boundary)
    end = start + (width - 3 if start == 0 else room)
    if end < len(text):
        end = text.rfind(" ", start, end) if text.rfind(" ", start, end) > max(at + len(name), start) else end
    return ("..." if start else "") + text[start:end].rstrip(" ,;:") + ("..." if end < len(text) else "")


_EVIDENCE_FIRST = ("Dataset", "Task")  # whose sentence a hit shows first


def _around_concept(around: Callable[..., ConceptReport], facts: Callable[[str], PaperFacts], kind: str,
                    args: argparse.Namespace) -> int:
    """Print the papers of one dataset, task or method, and the datasets used with it (``around(top=, shown=)``
    reports them, from the graph or the index; ``facts(paper)`` gives a paper's title, url, venue and year)."""
    from kg.paper_names import AmbiguousName

    try:
        report = around(top=args.top, shown=args.top)
    except AmbiguousName as exc:  # a name several concepts answer to: they are listed
        return report_ambiguous(exc)
    except ValueError as exc:  # no such concept: the message names the closest
        error(exc)
        return EXIT_BAD_INPUT
    shown = report.papers
    if args.format == "json":
        print(json.dumps({"concept": report.concept, "name": report.name, "papers_total": report.total,
                          "papers": [{"paper": p, "name": n, **facts(p).to_json(), "evidence": e}
                                     for p, n, e in shown],
                          "datasets_used_with": [{"name": n, "papers": c} for n, c in report.co_used],
                          "datasets_used_with_total": report.co_total,
                          "included": report.included}, indent=1))
        return EXIT_OK
    if args.format == "markdown":
        print(safe(concept_markdown(facts, kind, report, shown), multiline=True))
        return EXIT_OK
    print(safe(f"{kind} {report.name}: {report.total} paper(s)"))
    if report.included:
        print(safe("  including " + ", ".join(report.included)))
    for p, n, e in shown:
        print(safe(f"  {n}  [{p}]"))
        print("      " + safe(snippet(e, [report.name, *report.included])))
    if report.total > len(shown):
        print(f"  ... and {report.total - len(shown)} more (--top N shows N)")
    if report.co_used:
        more = report.co_total - len(report.co_used)
        print(safe("datasets most often used with it: " + ", ".join(f"{n} ({c})" for n, c in report.co_used)
                   + (f", ... and {more} more (--top N shows N)" if more > 0 else "")))
    return EXIT_OK


def similarity_text(h: Hit, words: bool = True) -> str:
    """A hit's text similarity in words: the blend the ranking used, then the embedding cosine ("meaning", in a
    build with embeddings) and the words adding most to the TF-IDF cosine."""
    parts = [f"meaning {h.semantic:.2f}"] if h.semantic is not None else []
    if words and h.words:
        parts.append(", ".join(h.words))
    return f"text similarity {h.similarity:.2f}" + (f" ({'; '.join(parts)})" if parts else "")


def markdown_list(facts: Callable[[str], PaperFacts], label: str, hits: list) -> str:
    """A related-work list in markdown: each paper's title (linked to its url), venue and year, and the reason in
    one line (the shared concepts, heaviest first, and the texts' similarity)."""
    lines = [f"Related to {md.text(label)}:", ""]
    for h in hits:
        shared = ", ".join([*(f"{s.type.lower()} {md.text(s.name)}" for s in h.shared[:4]),
                            *(f"keyword {md.text(k)}" for k in h.keywords[:2])])
        why = (f"shares {shared}; " if shared else "") + similarity_text(h, words=False)
        lines.append(f"- {_markdown_paper(facts(h.paper))}: {why}")
    return "\n".join(lines)


def concept_markdown(facts: Callable[[str], PaperFacts], kind: str, report: ConceptReport,
                     shown: list[tuple[str, str, str]]) -> str:
    """The papers of a dataset, task or method in markdown: title (linked), venue and year, and the sentence that
    links each; the subtasks and variants included are named first."""
    included = f" (including {', '.join(map(md.text, report.included))})" if report.included else ""
    lines = [f"Papers on {kind.lower()} {md.text(report.name)}{included}:", ""]
    for p, n, e in shown:
        sentence = md.text(readable(e)) if e else e
        lines.append(f"- {_markdown_paper(facts(p))}" + (f": \"{sentence}\"" if sentence else ""))
    if report.total > len(shown):
        lines.append(f"- ... and {report.total - len(shown)} more")
    return "\n".join(lines)


def _markdown_paper(f: PaperFacts) -> str:
    """A paper's title linked to its url (an http(s) one), then its venue and year, as markdown text."""
    where = md.text(", ".join(str(x) for x in (f.venue, f.year) if x))
    return md.link(f.title, f.url) + (f" ({where})" if where else "")
