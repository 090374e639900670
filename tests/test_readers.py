"""Reading inputs: paper lists, JSON lines, arXiv metadata, CSV, stdin and directories; bad input becomes problems."""
from __future__ import annotations

import gzip
import io
import json
from array import array
from pathlib import Path

import pytest

from kg.corpus import content_id, iter_records, read_corpus
from kg.errors import InputError, InputWarning, Problem
from kg.model import Paper, Source

ROOT = Path(__file__).parents[1]
SEEDS = sorted((ROOT / "examples" / "icml").glob("*.txt"))
FIXTURES = Path(__file__).parent / "fixtures"
GOLD_SEEDS = FIXTURES / "gold" / "seeds-icml2025.jsonl"  # a gold file as kg train and kg eval read it


def write(path: Path, content: str | bytes) -> str:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def jsonl(path: Path, *records: object) -> str:
    return write(path, "".join(json.dumps(r) + "\n" for r in records))


def messages(corpus) -> list[str]:
    return [str(p) for p in corpus.problems]


# --- paper lists ---------------------------------------------------------------------------------------------------

def test_seed_lists_give_38_icml_papers_from_2025_and_2026():
    corpus = read_corpus([str(p) for p in SEEDS])
    assert corpus.problems == []
    assert len(corpus.papers) == 38
    assert {p.venue for p in corpus.papers} == {"ICML"}
    assert sorted(p.year for p in corpus.papers) == [2025] * 19 + [2026] * 19


def test_paper_list_header_names_venue_and_year(tmp_path):
    corpus = read_corpus([write(tmp_path / "n.txt", "NeurIPS 2024 papers\n\nFirst abstract.\n\nSecond abstract.\n")])
    assert [(p.text, p.venue, p.year) for p in corpus.papers] == [
        ("First abstract.", "NeurIPS", 2024), ("Second abstract.", "NeurIPS", 2024)]


@pytest.mark.parametrize("text, expected", [
    ("NeurIPS 2024\nFirst abstract.\n\nSecond abstract.\n",  # no blank line after the header
     [("First abstract.", "NeurIPS", 2024, 2), ("Second abstract.", "NeurIPS", 2024, 4)]),
    ("Reading list: RLHF and LLM alignment\n\nFirst abstract.\n",  # no venue, no sentence: no abstract (reported)
     [("First abstract.", None, None, 3)]),
    ("Short abstract: SimCLR on CIFAR-10 is fine.\n\nSecond abstract.\n",
     [("Short abstract: SimCLR on CIFAR-10 is fine.", None, None, 1), ("Second abstract.", None, None, 3)]),
    ("We present the winning solution of the NeurIPS 2023\nLLM Efficiency Challenge.\n",  # a wrapped first line
     [("We present the winning solution of the NeurIPS 2023\nLLM Efficiency Challenge.", None, None, 1)]),
])
def test_a_header_is_a_venue_line_and_no_abstract_is_taken_for_one(tmp_path, text, expected):
    corpus = read_corpus([write(tmp_path / "n.txt", text)])
    assert [(p.text, p.venue, p.year, p.sources[0].line) for p in corpus.papers] == expected


def test_paper_list_without_header_starts_with_an_abstract(tmp_path):
    corpus = read_corpus([write(tmp_path / "a.txt", "We study CNNs in 2024.\n\nSecond abstract.\n")])
    assert [p.text for p in corpus.papers] == ["We study CNNs in 2024.", "Second abstract."]
    assert corpus.papers[0].venue is None


def test_block_line_is_its_first_line_and_text_keeps_inner_newlines(tmp_path):
    path = write(tmp_path / "a.txt", "ICML 2026\n\n\nline one\nline two\n\n  \nnext.\n")
    papers = read_corpus([path]).papers
    assert [(p.text, p.sources) for p in papers] == [
        ("line one\nline two", [Source(path, 4)]), ("next.", [Source(path, 8)])]


def _seed_abstracts(n: int) -> list[str]:
    """The first ``n`` abstracts of the seed lists, each one line."""
    blocks = SEEDS[0].read_text(encoding="utf-8").split("\n\n")[1:]
    return [" ".join(b.split()) for b in blocks[:n]]


@pytest.mark.parametrize("header", ["", "ICML 2026\n"])
def test_a_list_with_an_abstract_per_line_is_a_paper_a_line(tmp_path, header):
    abstracts = _seed_abstracts(5)
    path = write(tmp_path / "a.txt", header + "\n".join(abstracts) + "\n")
    corpus = read_corpus([path])
    first = 1 + bool(header)
    assert [(p.text, p.sources) for p in corpus.papers] == [
        (a, [Source(path, first + k)]) for k, a in enumerate(abstracts)]
    assert corpus.problems == [] and {p.venue for p in corpus.papers} == {"ICML" if header else None}


def test_a_hard_wrapped_abstract_is_one_paper_at_any_width(tmp_path):
    import textwrap

    abstract = _seed_abstracts(1)[0]
    for width in (60, 80, 120, 180):
        wrapped = textwrap.fill(abstract, width)
        assert [p.text for p in read_corpus([write(tmp_path / "a.txt", wrapped + "\n")]).papers] == [wrapped]
    by_sentence = abstract.replace(". ", ".\n")  # one sentence a line: no line a whole abstract
    assert len(read_corpus([write(tmp_path / "b.txt", by_sentence + "\n")]).papers) == 1


def test_an_unreadable_line_of_a_list_with_an_abstract_per_line_costs_only_itself(tmp_path):
    abstracts = _seed_abstracts(3)
    lines = [abstracts[0].encode(), b"\xff\x01" + abstracts[1].encode(), abstracts[2].encode()]  # (binary data)
    path = write(tmp_path / "a.txt", b"\n".join(lines) + b"\n")
    corpus = read_corpus([path])
    assert [p.text for p in corpus.papers] == [abstracts[0], abstracts[2]]
    assert [p.source.line for p in corpus.problems] == [2]


def test_paper_ids_are_content_hashes(tmp_path):
    paper = read_corpus([write(tmp_path / "a.txt", "An abstract.\n")]).papers[0]
    assert paper.id == content_id("An abstract.") and not paper.has_input_id


def test_content_id_ignores_case_spacing_and_compatibility_forms():
    assert content_id("Deep  Learning\n") == content_id(" deep learning") == content_id("Deep\u00a0Learning")
    assert content_id("ﬁne") == content_id("fine")
    assert len(content_id("x")) == 16


# --- JSON lines and arXiv --------------------------------------------------------------------------------------------

def test_jsonl_record_fields(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", {"id": 7, "title": "T", "abstract": "Abs.", "venue": "ICLR", "year": "2024",
                                        "authors": ["A. B", "C. D"], "url": "http://x"})
    paper = read_corpus([path]).papers[0]
    assert paper == Paper("7", "Abs.", "T", "ICLR", 2024, ["A. B", "C. D"], "http://x", [Source(path, 1)], True)


def test_jsonl_text_is_kept_exactly_so_gold_offsets_hold(tmp_path):
    text = "  LaTeX $x$ and\nnewline  "
    assert read_corpus([jsonl(tmp_path / "a.jsonl", {"text": text})]).papers[0].text == text


def test_gold_file_is_valid_input():
    corpus = read_corpus([str(GOLD_SEEDS)])
    assert corpus.problems == [] and len(corpus.papers) == 8
    first = corpus.papers[0]
    assert (first.id, first.venue, first.year, first.has_input_id) == ("seeds-icml2025:1", "ICML", 2025, True)


def test_arxiv_snapshot_records_read_as_they_are():
    lora, old = read_corpus([str(FIXTURES / "arxiv-snapshot.json")]).papers
    assert (lora.id, lora.venue, lora.year) == ("2106.09685", "arXiv", 2021)
    assert lora.url == "https://arxiv.org/abs/2106.09685"
    assert lora.title == "LoRA: Low-Rank Adaptation of Large Language Models"
    assert lora.authors[:2] == ["Edward J. Hu", "Yelong Shen"] and len(lora.authors) == 8
    assert lora.text.startswith("  We propose Low-Rank Adaptation")
    assert (old.id, old.year) == ("hep-th/9901001", 1999)


def test_arxiv_year_falls_back_to_update_date(tmp_path):
    record = {"id": "odd-id", "abstract": "A.", "categories": "cs.LG", "update_date": "2019-03-02"}
    path = jsonl(tmp_path / "a.jsonl", record)
    assert read_corpus([path]).papers[0].year == 2019


def test_author_string_is_split_on_commas_and_and(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", {"text": "A.", "authors": "A. Smith, B. Jones and C. Lee"})
    assert read_corpus([path]).papers[0].authors == ["A. Smith", "B. Jones", "C. Lee"]


def test_json_array_file_reports_each_record_line(tmp_path):
    path = write(tmp_path / "a.json", '[\n  {"text": "one"},\n  {"text": "two"},\n  3\n]\n')
    corpus = read_corpus([path])
    assert [(p.text, p.sources[0].line) for p in corpus.papers] == [("one", 2), ("two", 3)]
    assert messages(corpus) == [f"{path}:4: expected a JSON object, got a number"]


def test_a_json_array_cut_short_is_one_problem_after_the_records_read(tmp_path):
    path = write(tmp_path / "a.json", '[\n  {"text": "one"},\n  {"text": "two"}\n')
    corpus = read_corpus([path])
    assert [p.text for p in corpus.papers] == ["one", "two"]
    assert messages(corpus) == [f"{path}:3: the JSON array ends without its ']': the file may be cut short; the "
                                "records before are read"]


# --- CSV -----------------------------------------------------------------------------------------------------------

def test_csv_rows_become_papers_with_their_starting_line(tmp_path):
    path = write(tmp_path / "a.csv",
                 'id,title,abstract,year,authors\n1,A,"multi\nline",2020,"X, Y and Z"\n\n2,B,two,,\n')
    corpus = read_corpus([path])
    assert corpus.problems == []
    assert [(p.id, p.text, p.year, p.sources[0].line) for p in corpus.papers] == [
        ("1", "multi\nline", 2020, 2), ("2", "two", None, 5)]
    assert corpus.papers[0].authors == ["X", "Y", "Z"]


def test_csv_without_text_column_is_one_problem(tmp_path):
    path = write(tmp_path / "a.csv", "id,title\n1,A\n2,B\n")
    assert messages(read_corpus([path])) == [
        f"{path}:1: CSV header has no 'text' or 'abstract' column (columns: id, title; --map text=COLUMN names the "
        "abstract's)"]


def test_csv_row_with_extra_fields_is_skipped(tmp_path):
    path = write(tmp_path / "a.csv", "id,text\n1,one, with a comma\n2,two\n")
    corpus = read_corpus([path])
    assert messages(corpus) == [f"{path}:2: row has 3 fields; the header has 2"]
    assert [p.text for p in corpus.papers] == ["two"]



def test_csv_rows_ending_in_a_separator_are_read(tmp_path):
    # some spreadsheets end every data row with a separator the header does not have
    path = write(tmp_path / "a.csv", "id,text\n1,one,\n2,two,,\n")
    corpus = read_corpus([path])
    assert messages(corpus) == []
    assert [p.text for p in corpus.papers] == ["one", "two"]


def test_a_short_csv_row_is_read_with_its_text_and_said_short_without_it(tmp_path):
    path = write(tmp_path / "a.csv", "id,title,text,year\n1,A,one\n2,B\n")
    corpus = read_corpus([path])
    assert messages(corpus) == [f"{path}:3: row has 2 fields; the header has 4"]
    assert [p.text for p in corpus.papers] == ["one"]


def test_a_paper_list_block_opening_with_a_title_line_has_that_title(tmp_path):
    path = write(tmp_path / "a.txt",
                 "Attention Is All You Need\nWe propose the Transformer, based solely on attention, and train it on\n"
                 "WMT 2014 English-German.\n\n"
                 "DiffCSE: contrastive learning of sentence embeddings\nWe present DiffCSE, a framework.\n\n"
                 "We propose a new method for image\nclassification that beats ResNet-50 on ImageNet.\n")
    papers = read_corpus([path]).papers
    assert [p.title for p in papers] == ["Attention Is All You Need",
                                         "DiffCSE: contrastive learning of sentence embeddings", None]
    assert papers[0].text.startswith("We propose the Transformer") and papers[2].text.startswith("We propose a new")


def test_a_paper_list_title_in_sentence_case_is_told_by_the_lines_after_it(tmp_path):
    wrapped = ("We propose a new method for multi-hop question answering over knowledge graphs. Our model,\n"
               "GraphReasoner, uses a transformer encoder over paths and reaches state-of-the-art accuracy on\n"
               "WebQSP and MetaQA.\n")
    paragraph = ("Sparse mixture-of-experts models scale language models at constant compute. We study load "
                 "balancing and propose a router that lowers perplexity on C4 while training 20% faster than the "
                 "Switch Transformer.\n")
    long_title = "A study of the effect of label noise on the calibration of deep image classifiers in the wild"
    path = write(tmp_path / "a.txt",
                 f"Learning to reason over knowledge graphs\n{wrapped}\n"  # hard-wrapped wider than the title
                 f"Efficient training of sparse mixture of experts\n{paragraph}\n"  # an abstract on one line
                 f"{long_title}\nWe study label noise on CIFAR-10 and ImageNet and show\n"  # wrapped narrower
                 "that simple loss corrections are competitive.\n\n"
                 # a first line that the wrapping filled is the abstract's, capital after it or not
                 "Our method for multi-hop question answering over knowledge graphs uses a new\n"
                 "Transformer encoder over paths and reaches state-of-the-art accuracy on WebQSP\n"
                 "and MetaQA.\n")
    papers = read_corpus([path]).papers
    assert [p.title for p in papers] == ["Learning to reason over knowledge graphs",
                                         "Efficient training of sparse mixture of experts", long_title, None]
    assert papers[0].text.startswith("We propose") and papers[1].text.startswith("Sparse mixture")
    assert papers[3].text.startswith("Our method for")


def test_a_paper_lists_first_line_that_stops_at_a_function_word_is_no_title(tmp_path):
    # hand-wrapped before a name: the first line goes on in the next one
    path = write(tmp_path / "a.txt", "We evaluate our new retrieval method on\n"
                                     "ImageNet, COCO and Flickr30k, where it beats the strongest baselines by a wide "
                                     "margin in recall\nand in precision.\n")
    [paper] = read_corpus([path]).papers
    assert paper.title is None and paper.text.startswith("We evaluate our new retrieval method on")


# --- stdin and directories -----------------------------------------------------------------------------------------

def test_stdin_paper_list():
    corpus = read_corpus(["-"], stdin=io.StringIO("ICLR 2025\n\nAn abstract.\n"))
    assert [(p.text, p.venue, p.year, p.sources) for p in corpus.papers] == [
        ("An abstract.", "ICLR", 2025, [Source("-", 3)])]


def test_stdin_json_lines():
    corpus = read_corpus(["-"], stdin=io.StringIO('{"id": "a", "text": "One."}\n{"id": "b", "text": "Two."}\n'))
    assert [p.id for p in corpus.papers] == ["a", "b"]


def test_stdin_csv():
    corpus = read_corpus(["-"], stdin=io.StringIO("id,abstract\nx,Some text.\n"))
    assert [(p.id, p.text) for p in corpus.papers] == [("x", "Some text.")]


def test_directory_reads_supported_files_in_name_order(tmp_path):
    write(tmp_path / "b.txt", "Second.\n")
    jsonl(tmp_path / "a.jsonl", {"text": "First."})
    write(tmp_path / "notes.md", "Not an input.\n")
    assert [p.text for p in read_corpus([str(tmp_path)]).papers] == ["First.", "Second."]


def test_directory_reads_its_subdirectories_but_not_hidden_ones_or_a_builds_output(tmp_path):
    import gzip

    nested = tmp_path / "works" / "updated_date=2024-01-01"
    nested.mkdir(parents=True)
    (nested / "part_000.gz").write_bytes(gzip.compress(b'{"id": "W1", "abstract": "We study nesting."}\n'))
    jsonl(tmp_path / "top.jsonl", {"id": "t", "text": "We study the top."})
    (tmp_path / ".cache").mkdir()
    jsonl(tmp_path / ".cache" / "h.jsonl", {"text": "A hidden folder's file."})
    out = tmp_path / "out"  # a build's output folder: its files are outputs, not inputs
    (out / "cache").mkdir(parents=True)
    jsonl(out / "cache" / "papers.jsonl", {"id": "o", "text": "An output."})
    for tools in (tmp_path / "node_modules", tmp_path / "env"):  # tools' folders and a virtual environment
        tools.mkdir()
        jsonl(tools / "package.json", {"text": "A tool's file."})
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    corpus = read_corpus([str(tmp_path)])
    assert [p.id for p in corpus.papers] == ["t", "W1"] and not corpus.problems


def test_directory_skips_licence_and_readme_files(tmp_path):
    write(tmp_path / "LICENSE.txt", "Permission is hereby granted.\n")
    write(tmp_path / "README.txt", "Data files.\n")
    write(tmp_path / "papers.txt", "An abstract.\n")
    assert [p.text for p in read_corpus([str(tmp_path)]).papers] == ["An abstract."]


def test_directory_without_supported_files(tmp_path):
    write(tmp_path / "notes.md", "x")
    expected = (f"{tmp_path}: no input files in directory (expected .txt, .jsonl, .json, .csv, .tsv, .bib or .ris, "
                "gzipped or not)")
    assert messages(read_corpus([str(tmp_path)])) == [expected]


# --- deduplication -------------------------------------------------------------------------------------------------

def test_same_abstract_in_two_files_is_one_paper_with_two_sources(tmp_path):
    a = write(tmp_path / "a.txt", "ICML 2025\n\nShared abstract.\n\nOnly in a.\n")
    b = jsonl(tmp_path / "b.jsonl", {"text": "Shared  abstract.\n", "title": "Shared"})
    corpus = read_corpus([a, b])
    assert [p.text for p in corpus.papers] == ["Shared abstract.", "Only in a."]
    shared = corpus.papers[0]
    assert shared.sources == [Source(a, 3), Source(b, 1)]
    assert (shared.venue, shared.year, shared.title) == ("ICML", 2025, "Shared")


def test_same_explicit_id_merges_keeping_first_fields_and_filling_gaps(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", {"id": "p1", "text": "First.", "year": 2020},
                 {"id": "p1", "text": "Other.", "year": 2021, "venue": "ICML"})
    (paper,) = read_corpus([path]).papers
    assert (paper.text, paper.year, paper.venue) == ("First.", 2020, "ICML")
    assert paper.sources == [Source(path, 1), Source(path, 2)]


def test_explicit_id_replaces_content_hash_when_merging(tmp_path):
    a = write(tmp_path / "a.txt", "Abstract.\n")
    b = jsonl(tmp_path / "b.jsonl", {"id": "gold:1", "text": "Abstract."})
    (paper,) = read_corpus([a, b]).papers
    assert (paper.id, paper.has_input_id) == ("gold:1", True)


def test_different_explicit_ids_stay_apart_even_with_the_same_abstract(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", {"id": "x", "text": "Same."}, {"id": "y", "text": "Same."})
    assert [p.id for p in read_corpus([path]).papers] == ["x", "y"]


def test_streaming_reader_keeps_the_papers_read_corpus_keeps(tmp_path):
    from kg.corpus.readers import iter_papers

    path = jsonl(tmp_path / "a.jsonl", {"id": "x", "text": "Same."}, {"id": "y", "text": "Same."},
                 {"id": "x", "text": "Other."}, {"text": "Same."}, {"text": "Plain."}, {"text": "Plain."})
    streamed = [p.id for p in iter_papers([path])]
    assert streamed == [p.id for p in read_corpus([path]).papers]
    assert streamed[:2] == ["x", "y"] and len(streamed) == 3


def test_papers_kept_on_disk_are_deduplicated_and_merged_as_in_memory(tmp_path):
    from kg.build.cache import PaperSpool
    from kg.corpus.readers import PaperSet

    a = write(tmp_path / "a.txt", "ICML 2025\n\nShared abstract.\n\nOnly in a.\n\nAbstract.\n")
    b = jsonl(tmp_path / "b.jsonl", {"text": "Shared  abstract.\n", "title": "Shared"}, {"id": "gold:1", "text": "Abstract."},
              {"id": "x", "text": "Same."}, {"id": "y", "text": "Same."}, {"id": "x", "text": "Other.", "url": "u"})
    spool = PaperSpool(tmp_path)
    try:
        on_disk = read_corpus([a, b], into=PaperSet(spool)).papers
        assert on_disk is spool and list(spool) == read_corpus([a, b]).papers
    finally:
        spool.close()


def test_paper_spool_is_a_sequence_that_two_threads_can_read_at_once(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from kg.build.cache import PaperSpool, PaperSubset

    papers = [Paper(id=f"p{i}", text=f"Abstract number {i}, é.", title=f"T{i}") for i in range(500)]
    spool = PaperSpool(tmp_path)
    try:
        for p in papers:
            spool.append(p)
        spool[3] = Paper(id="p3", text="Replaced.")
        papers[3] = Paper(id="p3", text="Replaced.")
        assert len(spool) == 500 and spool[7] == papers[7] and spool[10:13] == papers[10:13]
        with ThreadPoolExecutor(2) as pool:
            reads = list(pool.map(lambda _: list(spool), range(4)))
        assert all(r == papers for r in reads)
        subset = PaperSubset(spool, array("q", [5, 3, 9]))
        assert len(subset) == 3 and list(subset) == [papers[5], papers[3], papers[9]] and subset[1:] == [papers[3], papers[9]]
    finally:
        spool.close()


def test_iter_records_does_not_deduplicate(tmp_path):
    path = write(tmp_path / "a.txt", "Same.\n\nSame.\n")
    assert len([r for r in iter_records([path]) if isinstance(r, Paper)]) == 2


# --- bad input -----------------------------------------------------------------------------------------------------

def test_missing_file(tmp_path):
    path = str(tmp_path / "nope.txt")
    assert messages(read_corpus([path])) == [f"{path}: no such file"]  # the file as a whole: no line


def test_unsupported_file_type(tmp_path):
    path = write(tmp_path / "a.pdf", "x")
    expected = (f"{path}: unsupported file type '.pdf'; expected .txt, .jsonl, .json, .csv, .tsv, .bib or .ris, "
                "gzipped or not")
    assert messages(read_corpus([path])) == [expected]


@pytest.mark.parametrize("name", ["a.txt", "a.jsonl", "a.csv"])
def test_empty_file(tmp_path, name):
    path = write(tmp_path / name, "\n  \n")
    assert messages(read_corpus([path])) == [f"{path}: empty file"]


CP1252 = "; read as Windows-1252 (cp1252), as are any later lines that are not UTF-8"


def test_non_utf8_line_in_jsonl_is_read_as_cp1252_with_a_warning(tmp_path):
    path = write(tmp_path / "a.jsonl", b'{"text": "one"}\n{"text": "caf\xe9"}\n{"text": "three"}\n')
    corpus = read_corpus([path])
    assert messages(corpus) == [f"{path}:2: warning: not UTF-8 text: byte 0xe9 at column 14" + CP1252]
    assert [p.text for p in corpus.papers] == ["one", "café", "three"]


def test_binary_line_in_csv_costs_only_its_row(tmp_path):
    path = write(tmp_path / "a.csv", b'id,text\n1,"one\ncontinued"\n2,caf\xe9\x01\n3,three\n')
    corpus = read_corpus([path])
    assert messages(corpus) == [f"{path}:4: not UTF-8 text: byte 0xe9 at column 6"]
    assert [p.id for p in corpus.papers] == ["1", "3"]


def test_binary_line_in_paper_list_costs_only_its_block(tmp_path):
    path = write(tmp_path / "a.txt", b"One.\n\nTwo \xff\x02 bad\nstill two.\n\nThree.\n")
    corpus = read_corpus([path])
    assert messages(corpus) == [f"{path}:3: not UTF-8 text: byte 0xff at column 5"]
    assert [p.text for p in corpus.papers] == ["One.", "Three."]


def test_excel_cp1252_csv_keeps_every_row_with_one_warning(tmp_path):
    rows = ("id,title,abstract\r\ne1,Régularisation – naïve “café”,We propose Ré.\r\n"
            "e2,Crème,We study ‘brûlée’.\r\n")
    path = write(tmp_path / "a.csv", rows.encode("cp1252"))
    corpus = read_corpus([path])
    assert messages(corpus) == [f"{path}:2: warning: not UTF-8 text: byte 0xe9 at column 5" + CP1252]
    assert [(p.title, p.text) for p in corpus.papers] == [("Régularisation – naïve “café”", "We propose Ré."),
                                                          ("Crème", "We study ‘brûlée’.")]


def test_bytes_cp1252_leaves_undefined_are_read_as_latin1_and_utf8_lines_as_utf8(tmp_path):
    path = write(tmp_path / "a.txt", "Ünïcode line.\n\n".encode() + b"Bad \x81 byte.\n")
    corpus = read_corpus([path])
    assert messages(corpus) == [f"{path}:3: warning: not UTF-8 text: byte 0x81 at column 5; read as Latin-1, as are "
                                "any later lines that are not UTF-8"]
    assert [p.text for p in corpus.papers] == ["Ünïcode line.", "Bad \x81 byte."]


def test_binary_file_is_one_problem(tmp_path):
    path = write(tmp_path / "a.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert messages(read_corpus([path])) == [f"{path}:1: binary data (NUL bytes), not UTF-8 text"]


def test_binary_line_after_valid_records_costs_only_that_line(tmp_path):
    path = write(tmp_path / "a.jsonl", b'{"text": "one"}\n\xff\xfe\x00binary\n{"text": "three"}\n')
    corpus = read_corpus([path])
    assert messages(corpus) == [f"{path}:2: not UTF-8 text: byte 0xff at column 1"]
    assert [p.text for p in corpus.papers] == ["one", "three"]


def test_utf16_file_is_one_problem(tmp_path):
    path = write(tmp_path / "a.txt", "An abstract.\n".encode("utf-16"))
    assert messages(read_corpus([path])) == [f"{path}:1: UTF-16 text; convert the file to UTF-8"]


def test_too_many_undecodable_lines_stop_the_file(tmp_path):
    path = write(tmp_path / "a.txt", b"\xff\x01\n" * 20)
    assert len(read_corpus([path]).problems) == 5


def test_utf8_byte_order_mark_is_ignored(tmp_path):
    path = write(tmp_path / "a.csv", b"\xef\xbb\xbfid,text\n1,one\n")
    assert [p.id for p in read_corpus([path]).papers] == ["1"]


def test_broken_json_line(tmp_path):
    path = write(tmp_path / "a.jsonl", '{"text": "ok"}\n{"text": "no end\n')
    corpus = read_corpus([path])
    assert messages(corpus) == [f"{path}:2: invalid JSON: Unterminated string starting at (column 10)"]
    assert len(corpus.papers) == 1


def test_json_line_that_is_not_an_object(tmp_path):
    path = write(tmp_path / "a.jsonl", '["text", "x"]\n')
    assert messages(read_corpus([path])) == [f"{path}:1: expected a JSON object, got an array"]


def test_record_without_text(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", {"id": "1", "title": "Only a title"}, {"text": "   "}, {"abstract": ""})
    assert messages(read_corpus([path])) == [f"{path}:1: record has no 'text' or 'abstract'",
                                             f"{path}:2: record has an empty abstract",
                                             f"{path}:3: record has an empty abstract"]


def test_abstract_over_the_limit(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", {"text": "x" * 11}, {"text": "short"})
    corpus = read_corpus([path], max_chars=10)
    assert messages(corpus) == [f"{path}:1: abstract is 11 characters; the limit is 10"]
    assert [p.text for p in corpus.papers] == ["short"]


@pytest.mark.parametrize("year", ["20x4", 99999, True, [2020]])
def test_bad_year_is_reported_and_the_paper_kept_without_it(tmp_path, year):
    path = jsonl(tmp_path / "a.jsonl", {"text": "A.", "year": year})
    corpus = read_corpus([path])
    assert len(corpus.problems) == 1 and corpus.problems[0].message.startswith("bad year ")
    assert corpus.papers[0].year is None
    assert isinstance(corpus.problems[0], InputWarning)  # the record is read all the same
    assert str(corpus.problems[0]).startswith(f"{path}:1: warning: bad year ")


def test_unpaired_surrogate_escape_is_rejected(tmp_path):
    path = write(tmp_path / "a.jsonl", '{"text": "bad \\udc80"}\n')
    assert messages(read_corpus([path])) == [f"{path}:1: abstract holds an unpaired surrogate escape (\\ud800-\\udfff)"]


def test_paper_list_with_only_a_header_has_no_abstracts(tmp_path):
    path = write(tmp_path / "a.txt", "ICML 2026 论文列表\n")
    assert messages(read_corpus([path])) == [f"{path}: no abstracts in file"]


def test_strict_mode_raises_at_the_first_problem(tmp_path):
    path = write(tmp_path / "a.jsonl", '{"text": "ok"}\nnot json\n')
    with pytest.raises(InputError) as raised:
        read_corpus([path], strict=True)
    assert raised.value.problem.source == Source(path, 2)
    assert str(raised.value).startswith(f"{path}:2: invalid JSON")


def test_problem_reads_file_line_message():
    assert str(Problem(Source("a.jsonl", 3), "invalid JSON: x")) == "a.jsonl:3: invalid JSON: x"


def test_every_problem_message_is_one_line(tmp_path):
    path = write(tmp_path / "a.jsonl",
                 b'{\n\xff\x01\n[1]\n{"text": 5}\n{"text": "x", "id": {"a": 1}, "title": ["t"]}\n')
    corpus = read_corpus([path])
    assert len(corpus.problems) == 6
    assert all("\n" not in str(p) for p in corpus.problems)


def test_nul_byte_in_a_later_line_costs_only_that_line(tmp_path):
    path = write(tmp_path / "a.jsonl", b'{"text": "one"}\n{"te\x00xt": 1}\n')
    corpus = read_corpus([path])
    assert messages(corpus) == [f"{path}:2: binary data (NUL byte at column 5), not UTF-8 text"]
    assert [p.text for p in corpus.papers] == ["one"]


def test_surrogate_escapes_outside_the_abstract_are_left_out_and_reported(tmp_path):
    path = write(tmp_path / "a.jsonl",
                 '{"id": "s1", "title": "Bad \\udc80 title", "authors": ["A \\udc81 B", "C D"], "text": "One."}\n'
                 '{"id": "s\\udc802", "text": "Two."}\n')
    corpus = read_corpus([path])
    assert [(p.id, p.title, p.authors) for p in corpus.papers] == [
        ("s1", None, ["C D"]), (content_id("Two."), None, [])]
    assert [m.split(": warning: ", 1)[1].split(" (")[0] for m in messages(corpus)] == [
        "title holds an unpaired surrogate escape", "1 author name(s) hold an unpaired surrogate escape; left out",
        "id holds an unpaired surrogate escape"]


def test_csv_with_an_unclosed_quote_is_a_problem_not_one_long_field(tmp_path):
    path = write(tmp_path / "a.csv", 'id,text\n1,First.\n2,"Unclosed quote\n3,Third.\n')
    corpus = read_corpus([path])
    assert [p.text for p in corpus.papers] == ["First."]
    assert messages(corpus) == [f"{path}:3: invalid CSV: unexpected end of data"]


def test_stdin_one_column_csv():
    corpus = read_corpus(["-"], stdin=io.StringIO("abstract\nFirst abstract.\nSecond abstract.\n"))
    assert [p.text for p in corpus.papers] == ["First abstract.", "Second abstract."]
    listed = read_corpus(["-"], stdin=io.StringIO("Abstract\nWe propose FooNet.\n"))  # a list, not a CSV
    assert len(listed.papers) == 1


def test_common_column_names_of_scraped_csvs_are_recognised(tmp_path):
    from kg.corpus.readers import read_corpus

    src = tmp_path / "neurips.csv"
    src.write_text("paper_id,title,link,keywords,abstract\n"
                   "abc123,A Title,https://openreview.net/forum?id=abc123,graphs,We study graph learning on GNNs.\n",
                   encoding="utf-8")
    corpus = read_corpus([str(src)])
    (paper,) = corpus.papers
    assert (paper.id, paper.url, paper.title) == ("abc123", "https://openreview.net/forum?id=abc123", "A Title")


def test_a_records_own_kg_name_wins_over_another_name():
    from kg.corpus.records import with_kg_names

    assert with_kg_names({"id": "mine", "paper_id": "other", "link": "u"}) == {"id": "mine", "paper_id": "other",
                                                                            "link": "u", "url": "u"}
    assert with_kg_names({"abstract": "a", "summary": "s"}) == {"abstract": "a", "summary": "s"}


def test_a_csv_abstract_column_named_by_map_or_as_zotero_names_it(tmp_path):
    from kg.corpus import columns

    path = write(tmp_path / "mine.csv", 'paper,summary_text\nDropout,"We study dropout on CIFAR-10."\n')
    with columns.reading({"text": "summary_text", "title": "paper"}):
        corpus = read_corpus([path])
    assert [(p.title, p.text) for p in corpus.papers] == [("Dropout", "We study dropout on CIFAR-10.")]
    zotero = write(tmp_path / "zotero.csv", '"Key","Publication Year","Author","Title","Abstract Note"\n'
                   '"K1","2017","Vaswani, Ashish; Shazeer, Noam","Attention","We propose the Transformer."\n')
    [paper] = read_corpus([zotero]).papers
    assert (paper.year, paper.authors) == (2017, ["Ashish Vaswani", "Noam Shazeer"])
    assert paper.text == "We propose the Transformer."


@pytest.mark.parametrize("authors, names", [
    ("Zhu, Lianghui and Liao, Bencheng", ["Lianghui Zhu", "Bencheng Liao"]),  # "Last, First" pairs
    ("Yutao Sun, Li Dong & Shaohan Huang", ["Yutao Sun", "Li Dong", "Shaohan Huang"]),
    ("A. Smith, B. Jones and C. Lee", ["A. Smith", "B. Jones", "C. Lee"]),
    ("Yann LeCun, Yoshua Bengio", ["Yann LeCun", "Yoshua Bengio"]),  # two whole names, not "Last, First"
    ("Smith, J. R.", ["J. R. Smith"]),
    (["Gu, Albert", "Tri Dao"], ["Albert Gu", "Tri Dao"]),  # as BibTeX names them
])
def test_author_strings_and_lists_give_first_last_names(tmp_path, authors, names):
    path = jsonl(tmp_path / "a.jsonl", {"id": "1", "text": "We study attention.", "authors": authors})
    assert read_corpus([path]).papers[0].authors == names


def test_a_json_document_wrapped_or_indented_is_one_document_not_json_lines(tmp_path):
    notes = [{"id": f"n{i}", "forum": f"n{i}", "content": {"title": {"value": f"Net {i}"},
                                                           "abstract": {"value": f"We propose Net {i}."}}}
             for i in range(2)]
    path = write(tmp_path / "notes.json", '{"notes": [\n' + ",\n".join(json.dumps(n) for n in notes) + "\n]}\n")
    corpus = read_corpus([path])
    assert [p.title for p in corpus.papers] == ["Net 0", "Net 1"] and not corpus.problems


def test_a_ris_export_saved_as_txt_is_read_as_ris(tmp_path):
    path = write(tmp_path / "endnote.txt", "TY  - CONF\nTI  - Denoising Diffusion\nAU  - Ho, Jonathan\nPY  - 2020\n"
                 "AB  - We present image synthesis with diffusion models.\nER  - \n")
    [paper] = read_corpus([path]).papers
    assert (paper.title, paper.authors, paper.year) == ("Denoising Diffusion", ["Jonathan Ho"], 2020)


@pytest.mark.parametrize("content, line", [
    ('Title;Authors;Abstract\nFooNet;"Smith, John";"We propose FooNet, a network."\n', 2),  # decimal-comma locales
    ('sep=,\nTitle,Authors,Abstract\nFooNet,"Smith, John","We propose FooNet, a network."\n', 3),  # Excel's line
    ('Title\tAuthors\tAbstract\nFooNet\tSmith, John\tWe propose FooNet, a network.\n', 2),
])
def test_csv_separators_spreadsheets_write(tmp_path, content, line):
    corpus = read_corpus([write(tmp_path / "sheet.csv", content)])
    [paper] = corpus.papers
    assert (paper.title, paper.authors, paper.text, paper.sources[0].line) == (
        "FooNet", ["John Smith"], "We propose FooNet, a network.", line) and not corpus.problems


@pytest.mark.parametrize("separator", [";", "\t"])
def test_stdin_csv_with_semicolons_or_tabs_is_told_as_a_file_is(separator):
    rows = ["id;title;abstract", "e1;FooNet;We propose FooNet for node classification on Cora.",
            "e2;BarNet;We introduce BarNet for image classification on CIFAR-10."]
    corpus = read_corpus(["-"], stdin=io.StringIO("".join(r.replace(";", separator) + "\n" for r in rows)))
    assert [(p.id, p.title) for p in corpus.papers] == [("e1", "FooNet"), ("e2", "BarNet")] and not corpus.problems


def test_stdin_csv_opening_with_excels_separator_line():
    corpus = read_corpus(["-"], stdin=io.StringIO("sep=;\nid;abstract\ne1;We propose FooNet, a network.\n"))
    assert [(p.id, p.text) for p in corpus.papers] == [("e1", "We propose FooNet, a network.")]


@pytest.mark.parametrize("name", ["sheet.tsv", "sheet.tab", "sheet.tsv.gz"])
def test_tab_separated_files_are_read_on_tabs_even_with_commas_in_the_header(tmp_path, name):
    content = "id\ttitle, subtitle\tabstract\ne1\tFooNet, a net\tWe propose FooNet, a network.\n".encode()
    path = write(tmp_path / name, gzip.compress(content) if name.endswith(".gz") else content)
    corpus = read_corpus([path])
    assert [(p.id, p.text) for p in corpus.papers] == [("e1", "We propose FooNet, a network.")]
    assert not corpus.problems


def test_a_mapped_column_no_record_has_is_a_warning_naming_the_file(tmp_path):
    from kg.corpus import columns

    csv_path = write(tmp_path / "a.csv", "id,title,abstract\ne1,FooNet,We propose FooNet.\n")
    json_path = jsonl(tmp_path / "b.jsonl", {"id": "j1", "text": "We propose BarNet.", "conf": "ICML"})
    bib = write(tmp_path / "c.bib", "@misc{k, title = {Baz}, abstract = {We propose BazNet.}}\n")
    with columns.reading({"venue": "Conf", "title": "TITLE"}):
        corpus = read_corpus([csv_path, json_path, bib])
    assert len(corpus.papers) == 3 and corpus.papers[1].venue == "ICML"
    assert messages(corpus) == [f"{csv_path}: warning: --map venue=Conf: no record has that column; not used",
                                f"{json_path}: warning: --map title=TITLE: no record has that column; not used"]
    assert all(isinstance(p, InputWarning) for p in corpus.problems)  # (a BibTeX file has no columns to map)


def test_an_empty_column_the_csv_header_names_is_no_missing_column(tmp_path):
    from kg.corpus import columns

    path = write(tmp_path / "a.csv", "id,conf,abstract\ne1,,We propose FooNet.\n")
    with columns.reading({"venue": "conf"}):
        assert not read_corpus([path]).problems


PREPRINT = {"id": "1810.04805", "title": "BERT", "abstract": "We introduce BERT.", "categories": "cs.CL"}
PUBLISHED = {"doi": "10.18653/v1/N19-1423", "arxiv_id": "1810.04805", "title": "BERT", "venue": "NAACL",
             "year": 2019, "text": "We introduce BERT."}


@pytest.mark.parametrize("order", [(PREPRINT, PUBLISHED), (PUBLISHED, PREPRINT)])
def test_a_published_records_venue_and_year_win_over_the_preprints_in_either_order(tmp_path, order):
    (paper,) = read_corpus([jsonl(tmp_path / "a.jsonl", order[0]), jsonl(tmp_path / "b.jsonl", order[1])]).papers
    assert (paper.id, paper.arxiv_id, paper.venue, paper.year) == ("10.18653/v1/n19-1423", "1810.04805", "NAACL", 2019)


def test_a_repeated_id_with_another_title_is_a_warning(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", {"id": "p1", "title": "FooNet", "text": "We propose FooNet."},
                 {"id": "p1", "title": "FooNet (v2)", "text": "We propose FooNet, v2."},
                 {"id": "p1", "title": "fooNet ", "text": "We propose FooNet."})
    corpus = read_corpus([path])
    assert [p.title for p in corpus.papers] == ["FooNet"]
    assert messages(corpus) == [f"{path}:2: warning: paper p1 (first read at {path}:1) again, with another title: "
                                "'FooNet (v2)', not 'FooNet'; the first is kept"]
    with pytest.raises(InputError):
        read_corpus([path], strict=True)
