"""Run the pipeline over papers: cleaned text in, mentions with raw-text offsets out."""
from __future__ import annotations

import gc
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from spacy.language import Language
from spacy.util import minibatch

from kg.corpus.clean import CleanText, clean
from kg.model import Extraction, Mention, Paper, Result, Span
from kg.nlp.candidates import FORMULAS, MENTIONS, RESULTS, TEXT, TITLE
from kg.nlp.pipeline import load_pipeline

# Abstracts per batch: each component runs over the whole batch in turn, and larger batches keep its code and data
# in the CPU's caches longer. Against 64, 256 took 0.90-0.91x the time per abstract (synthetic abstracts, batch
# sizes alternating on the same 500-text chunks; 512: 0.84-0.88x) for ~31 MB more memory per process (512: ~70
# MB); spaCy's blank tokenizer, the speed it is compared with, does not change with the batch size.
BATCH_SIZE = 256
# The longest evidence kept for a mention, in characters: a longer "sentence" (a text without sentence punctuation)
# gives the window of this size around the mention, so one such text cannot repeat itself into every link.
MAX_EVIDENCE = 1000


_TITLE_WORD = re.compile(r"(?<![\w-])[A-Z][a-z]+(?=[\s:,;!?-]|$)")


def _lower(m: re.Match) -> str:
    """A match in lower case (for ``re.sub``)."""
    return m.group().lower()


def sentence_case(title: str) -> str:
    """A title in the case of a sentence, for the rules and the tagger, which read capitals as names: each
    capitalised plain word in lower case ("Robust Semantic Segmentation with ViTs" -> "robust semantic
    segmentation with ViTs"); acronyms and names with inner capitals or digits stay. Same length, so offsets hold."""
    return _TITLE_WORD.sub(_lower, title)


# A title's capitalised word after a hyphen, which sentence_case leaves ("Multi-Object" -> "multi-Object"): in a
# concept's name, in lower case as the rest ("multi-object navigation", "best-of-both-worlds")
_HYPHEN_CAPITAL = re.compile(r"(?<=[a-z]-)[A-Z][a-z]+(?=[\s-]|$)")


# What a title's mentions may come from, but for tasks: vocabularies, the paper's name, the trained tagger.
_TITLE_EXTRACTORS = frozenset({"gazetteer", "proposed", "abbreviation", "model", "model_phrase", "model_extension",
                               "title_means"})


def with_title(paper: Paper) -> tuple[str, int, int]:
    """The text the pipeline reads for ``paper``: its title (in the case of a sentence) as a first sentence, then
    the abstract; with the title's length and the abstract's offset in that text (0, 0 without a title)."""
    title = paper.title or ""
    if not title.strip():
        return paper.text, 0, 0
    head = sentence_case(title)
    sep = "\n\n" if head.rstrip()[-1:] in (".", "?", "!") else ".\n\n"
    return head + sep + paper.text, len(head), len(head) + len(sep)


def _to_extraction(paper: Paper, ct: CleanText, doc, title_end: int = 0, offset: int = 0) -> Extraction:
    """The extraction of ``paper`` from its doc. Offsets go back to the raw input: a mention in the title
    (``title_end`` characters before the abstract, which starts at ``offset``) points into the title and is
    marked ``in_title``; one in the abstract points into the abstract."""
    ex = Extraction(paper.id)
    aliases: dict[str, dict[str, None]] = {}
    sentences: dict[tuple[int, int], Span] = {}  # a sentence's raw span, made once for all of its mentions
    shift = ct.shift  # a text cleaned as one copied run maps by one shift, decided once per paper (~15 mentions)
    whole_title = Span(0, title_end) if offset else None  # (the evidence of a title's mentions)
    for m in doc.user_data.get(MENTIONS) or []:
        if shift is not None and m.start < m.end:
            start, end = m.start + shift, m.end + shift
        else:
            start, end = ct.to_raw(m.start, m.end)
        if offset:
            if end <= title_end:  # in the title
                if m.generic or (m.extractor not in _TITLE_EXTRACTORS and m.label != "TASK"):
                    continue  # a title's capitals fool the rules that read capitals ("Stealthy Dataset")
                canonical = m.canonical if m.proposed else _HYPHEN_CAPITAL.sub(_lower, m.canonical)  # "multi-Object
                # navigation" of sentence_case; the paper's own name as the title writes it ("Multi-Game ...")
                ex.mentions.append(Mention(start, end, m.label, paper.title[start:end], canonical, m.extractor,
                                           whole_title, m.proposed, m.benchmark, m.confidence, in_title=True))
                if m.text != canonical:
                    aliases.setdefault(canonical, {})[paper.title[start:end]] = None
                continue
            if start < offset:
                continue  # across the title's end: no such name
            start, end = start - offset, end - offset
        sent = sentences.get((m.sent_start, m.sent_end))
        if sent is None:
            s, e = _sentence_to_raw(ct, shift, m.sent_start, m.sent_end)
            sent = sentences[m.sent_start, m.sent_end] = Span(s - offset if s > offset else 0, e - offset)
        if sent.end - sent.start > MAX_EVIDENCE:  # a "sentence" without punctuation: the text around the mention
            half = (MAX_EVIDENCE - (end - start)) // 2
            lo = max(sent.start, min(start - max(half, 0), sent.end - MAX_EVIDENCE))
            sent = Span(lo, min(sent.end, lo + max(MAX_EVIDENCE, end - start)))
        mention = Mention(start, end, m.label, m.text, m.canonical, m.extractor, sent, m.proposed, m.benchmark,
                          m.confidence)
        if m.generic:
            ex.generic.append(mention)
            continue
        ex.mentions.append(mention)
        if m.text != m.canonical and any(map(str.isalpha, m.text)):  # ("100" of "CIFAR-10/100" is no alias)
            aliases.setdefault(m.canonical, {})[m.text] = None
    for r in doc.user_data.get(RESULTS) or []:
        s, e = _sentence_to_raw(ct, shift, r.sent_start, r.sent_end)
        if s >= offset:
            ex.results.append(Result(r.value, r.method, r.dataset, r.metric, Span(s - offset, e - offset)))
    ex.aliases = {k: list(v) for k, v in aliases.items()}
    return ex


def _sentence_to_raw(ct: CleanText, shift: int | None, start: int, end: int) -> tuple[int, int]:
    """``ct.sentence_to_raw(start, end)``, by ``shift`` where the text is one copied run (``ct.shift``): nothing dropped
    before the sentence, its characters where they were moved to."""
    if shift is not None and start < end:
        return start + shift, end + shift
    return ct.sentence_to_raw(start, end)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for a block (if it was on). A batch allocates thousands of objects
    that live until it ends (candidates, spans, mentions), each few hundred of which set off a collection walking
    them all: 0.12-0.23 ms per abstract (``gc.callbacks``, one process), 9-18% of extraction. The batch makes no
    cyclic garbage once its docs' user_data is cleared (below), so nothing waits for the collector meanwhile."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def extract(papers: Iterable[Paper], nlp: Language | None = None, *, batch_size: int = BATCH_SIZE,
            n_process: int = 1, config: str = "") -> Iterator[tuple[Paper, Extraction]]:
    """Extract concepts from each paper, streaming in batches (memory does not grow with the corpus);
    ``n_process`` > 1 runs worker processes, each parsing the pipeline once; ``config`` picks the pipeline
    (a config.cfg path; the packaged default when empty)."""
    if n_process > 1:
        yield from _extract_in_processes(papers, n_process, batch_size, config)
        return
    nlp = nlp or load_pipeline(config)
    steps = [getattr(proc, "pipe", None) or proc for _, proc in nlp.pipeline]
    batched = [hasattr(proc, "pipe") for _, proc in nlp.pipeline]
    # ``nlp.pipe`` does the same with a chain of generators per component and per-doc context handling; batch by
    # batch, components with a ``pipe`` (the trained NER) still see whole batches, and the rest are plain calls.
    for batch in minibatch(papers, batch_size):
        with _collector_paused():
            # The title, when there is one, is read as the first sentence (kg.nlp.extract.with_title).
            read = [with_title(p) for p in batch]
            cleaned = [clean(text) for text, _, _ in read]
            docs = [nlp.make_doc(ct.text) for ct in cleaned]
            for doc, ct, paper in zip(docs, cleaned, batch):
                doc.user_data[TEXT] = ct.text  # the rules cut names out of it (kg.nlp.candidates.span_text)
                if paper.title:
                    doc.user_data[TITLE] = paper.title  # "NAME: ..." names the proposed method (kg.nlp.components.title)
                if ct.formulas:
                    doc.user_data[FORMULAS] = ct.formulas  # no names but metrics' in them (kg.nlp.components.mentions)
            for step, whole in zip(steps, batched):
                docs = list(step(docs, batch_size=batch_size)) if whole else [step(doc) for doc in docs]
            out = [_to_extraction(paper, ct, doc, title_end, offset)
                   for paper, ct, doc, (_, title_end, offset) in zip(batch, cleaned, docs, read)]
            for doc in docs:
                # The rules' state in user_data holds Spans, and so the Doc: a cycle of ~90 objects per doc that
                # only the collector would free. Cleared, each doc goes with its last reference.
                doc.user_data.clear()
        yield from zip(batch, out)


def _extract_chunk(chunk: list[Paper], config: str = "", batch_size: int = BATCH_SIZE) -> list[Extraction]:
    return [ex for _, ex in extract(chunk, config=config, batch_size=batch_size)]


def _extract_in_processes(papers: Iterable[Paper], n_process: int, batch_size: int,
                          config: str = "") -> Iterator[tuple[Paper, Extraction]]:
    """Chunks of papers to a process pool; results come back in order as plain records (our Doc extensions hold
    Python objects that spaCy's own multiprocessing cannot serialise, so conversion happens in the worker).

    Workers come from a fork server that has imported kg and spaCy but holds no corpus: forked from a build that
    has read a million papers, each worker carried (and, as its garbage collector touched them, copied) them."""
    import collections
    import functools
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["kg.nlp.extract"])
    # At most IN_FLIGHT chunks per worker are sent ahead of the one the build is reading: a consumer slower than
    # the workers (the build embedding the texts) does not make every extraction wait in memory.
    work = functools.partial(_extract_chunk, config=config, batch_size=batch_size)
    pending: collections.deque = collections.deque()
    with context.Pool(n_process) as pool:
        for chunk in minibatch(papers, batch_size):  # one batch per task
            pending.append((chunk, pool.apply_async(work, (chunk,))))
            if len(pending) > IN_FLIGHT * n_process:
                chunk, result = pending.popleft()
                yield from zip(chunk, result.get())
        while pending:
            chunk, result = pending.popleft()
            yield from zip(chunk, result.get())


IN_FLIGHT = 2  # chunks per extraction process sent ahead of the build's reading
