"""Papers from where researchers keep them: BibTeX, RIS, CSL-JSON, OpenAlex, Semantic Scholar, OpenReview, gzipped or
not; ids that survive across sources; ``--map`` and the notice of columns not used; titles cleaned for display.

The fixtures in ``tests/fixtures/formats/`` are one made-up library of 24 papers written in each format as the
real exports shape it (Zotero, Mendeley and ACL Anthology BibTeX, Zotero RIS and CSL-JSON, an OpenAlex snapshot
part, a Semantic Scholar API response, OpenReview API v1 and v2 notes, arXiv snapshot lines), each with a few
broken or incomplete records.
"""
from __future__ import annotations

import gzip
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kg.cli import main
from kg.corpus import read_corpus
from kg.corpus.columns import parse_map, reading
from kg.corpus.ids import normalise_arxiv, normalise_doi
from kg.corpus.readers import iter_papers

FORMATS = Path(__file__).parent / "fixtures" / "formats"
BIB, RIS, CSL = FORMATS / "library.bib", FORMATS / "library.ris", FORMATS / "library-csl.json"
OPENALEX, S2 = FORMATS / "openalex-works.jsonl", FORMATS / "semantic-scholar.json"
OPENREVIEW_V1, OPENREVIEW_V2, ARXIV = FORMATS / "openreview-v1.json", FORMATS / "openreview-v2.jsonl", FORMATS / "arxiv.jsonl"
ALL = (BIB, RIS, CSL, OPENALEX, S2, OPENREVIEW_V1, OPENREVIEW_V2, ARXIV)
GRAPHMIX = "GraphMix: Simple Image Classification with Low-Rank Updates in O(n log n) Time"


def read(*paths: Path | str):
    return read_corpus([str(p) for p in paths])


def problems(corpus) -> list[str]:
    return [str(p) for p in corpus.problems]


def by_title(corpus) -> dict:
    return {p.title: p for p in corpus.papers}


# --- each format -----------------------------------------------------------------------------------------------------

# (file, papers kept, the problems as FILE:LINE: message)
EXPECTED = {
    BIB: (23, ["147: BibTeX entry 'lefevre2022flowmatchx' has no abstract",
               "241: invalid BibTeX entry '@article{broken2021,': unbalanced braces or quotes, or a missing comma"]),
    RIS: (23, ["62: RIS record has no abstract",
               "185: text outside a record (a RIS record starts with 'TY  - '); skipped"]),
    CSL: (23, ["307: CSL-JSON item has no abstract"]),
    OPENALEX: (23, ["6: OpenAlex work has no abstract", "19: invalid JSON: Unterminated string starting at (column 148)"]),
    S2: (23, ["398: Semantic Scholar paper has no abstract"]),
    OPENREVIEW_V1: (21, ["273: OpenReview note has no abstract"]),
    OPENREVIEW_V2: (21, ["7: OpenReview note has no abstract", "11: invalid JSON: Expecting ',' delimiter (column 67)"]),
}


@pytest.mark.parametrize("path", list(EXPECTED), ids=lambda p: p.name)
def test_each_format_keeps_its_valid_records_and_reports_the_broken_ones_at_their_line(path):
    corpus = read(path)
    papers, expected = EXPECTED[path]
    assert len(corpus.papers) == papers >= 20
    assert problems(corpus) == [f"{path}:{p}" for p in expected]
    assert all(p.title and p.year and p.authors for p in corpus.papers)


def test_bibtex_fields_decoded_from_zotero_mendeley_and_acl_anthology_shapes():
    papers = by_title(read(BIB))
    zotero = papers[GRAPHMIX]
    assert (zotero.id, zotero.doi, zotero.arxiv_id, zotero.year) == ("10.5555/graphmix.2019.100", "10.5555/graphmix.2019.100",
                                                                     "1901.10000", 2019)
    assert zotero.authors == ["Ana Müller", "Jérôme García"]  # M{\"u}ller, Garc{\'i}a
    assert zotero.venue == "NeurIPS"  # "Advances in Neural Information Processing Systems" (kg/data/venues.json)
    assert zotero.keywords == ["Image Classification", "Benchmarks"]
    assert "2.1% over" in zotero.text and r"$\alpha \leq 0.1$" in zotero.text  # Zotero's \% and {\textbackslash}
    mendeley = papers["SparseFormer: Robust Machine Translation with Low-Rank Updates"]  # title = {{...}}
    assert (mendeley.id, mendeley.venue) == ("2002.10137", "ICML")  # "Proceedings of the 40th International ..."
    acl = papers["TokenDrop: Efficient Node Classification with Sparse Attention"]  # "{TokenDrop}: ..."
    assert acl.url == "https://aclanthology.org/2021.acl-long.102" and acl.authors[-1] == "Sofía Ødegaard"
    arxiv_only = next(p for p in papers.values() if p.id == "2210.12877")  # @misc, doi = 10.48550/arXiv....
    assert (arxiv_only.doi, arxiv_only.arxiv_id, arxiv_only.venue) == ("10.48550/arxiv.2210.12877", "2210.12877",
                                                                        "arXiv")


@pytest.mark.parametrize("written, shown", [
    ("Proceedings of the 2019 Conference of the North American Chapter of the Association for Computational "
     "Linguistics: Human Language Technologies, Volume 1 (Long and Short Papers)", "NAACL"),
    ("Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics", "ACL"),
    ("Advances in Neural Information Processing Systems 35 (NeurIPS 2022)", "NeurIPS"),
    ("IEEE/CVF International Conference on Computer Vision", "ICCV"),
    ("arXiv preprint arXiv:2005.14165", "arXiv"),
    ("NeurIPS 2022", "NeurIPS"),  # the year is the paper's own field
    ("IEEE/CVF Conference on Computer Vision and Pattern Recognition", "CVPR"),  # a publisher's acronym
    ("Neural Computation", "Neural Computation"),  # a venue kg does not know
    ("International Conference on Machine Learning and Applications", "International Conference on Machine Learning "
                                                                      "and Applications"),  # a name that goes on
    ("ICMLA 2020", "ICMLA 2020"),  # another acronym
    ("International Conference on Computer Vision Theory and Applications",
     "International Conference on Computer Vision Theory and Applications"),
    ("Pacific-Asia Conference on Knowledge Discovery and Data Mining", "PAKDD"),
    ("NeurIPS 2022 Workshop on Distribution Shifts", "NeurIPS 2022 Workshop on Distribution Shifts"),
])
def test_a_venue_written_out_is_shown_by_its_acronym(written, shown):
    from kg.corpus.records import venue_name

    assert venue_name(written) == shown


def test_a_google_scholar_arxiv_journal_gives_the_preprints_id_and_address(tmp_path):
    bib = tmp_path / "s.bib"
    bib.write_text("@article{brown2020, title={Language models are few-shot learners}, year={2020}, "
                   "journal={arXiv preprint arXiv:2005.14165.}, abstract={We train GPT-3.}}\n", encoding="utf-8")
    (paper,) = read_corpus([str(bib)]).papers
    assert (paper.venue, paper.arxiv_id) == ("arXiv", "2005.14165")  # (the full stop after the id left out)


def test_a_paper_without_an_address_links_to_its_arxiv_or_doi_page_and_a_records_own_address_wins(tmp_path):
    from kg.build.elements import _paper_attrs
    from kg.model import Extraction

    first = tmp_path / "a.jsonl"
    records = [{"arxiv_id": "1810.04805", "title": "BERT", "abstract": "We introduce BERT."},
               {"doi": "10.5555/other.1", "title": "Other", "abstract": "We study other things."}]
    first.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    second = tmp_path / "b.jsonl"
    second.write_text(json.dumps({"arxiv_id": "1810.04805", "title": "BERT", "abstract": "We introduce BERT.",
                                  "url": "https://aclanthology.org/N19-1423"}) + "\n", encoding="utf-8")
    papers = {p.title: p for p in read_corpus([str(first), str(second)]).papers}
    assert papers["BERT"].url == "https://aclanthology.org/N19-1423"  # the record's, not a link made before merging
    urls = {t: _paper_attrs(p, Extraction(p.id))["url"] for t, p in papers.items()}
    assert urls == {"BERT": "https://aclanthology.org/N19-1423", "Other": "https://doi.org/10.5555/other.1"}
    alone = read_corpus([str(first)]).papers[0]
    assert alone.url is None and _paper_attrs(alone, Extraction(alone.id))["url"] == "https://arxiv.org/abs/1810.04805"


def test_ris_csl_openalex_semantic_scholar_and_openreview_fields():
    ris = by_title(read(RIS))[GRAPHMIX]
    assert (ris.id, ris.arxiv_id, ris.year, ris.authors, ris.keywords) == (
        "10.5555/graphmix.2019.100", "1901.10000", 2019, ["Ana Müller", "Jérôme García"],
        ["image classification", "benchmarks"])
    csl = by_title(read(CSL))[GRAPHMIX]
    assert (csl.id, csl.arxiv_id, csl.venue, csl.year) == ("10.5555/graphmix.2019.100", "1901.10000", "NeurIPS", 2019)
    work = by_title(read(OPENALEX))[GRAPHMIX]
    assert work.text.startswith("We propose GraphMix, a method for image classification")  # from the inverted index
    assert (work.id, work.arxiv_id, work.other_ids, work.year) == ("10.5555/graphmix.2019.100", "1901.10000",
                                                                   ["W4300000000"], 2019)
    assert work.keywords == ["image classification", "Artificial intelligence", "Computer science"]  # score >= 0.3
    s2 = by_title(read(S2))[GRAPHMIX]
    assert (s2.id, s2.arxiv_id, s2.other_ids[1]) == ("10.5555/graphmix.2019.100", "1901.10000", "CorpusId:250000000")
    v1, v2 = by_title(read(OPENREVIEW_V1))[GRAPHMIX], by_title(read(OPENREVIEW_V2))[GRAPHMIX]
    assert (v1.id, v1.venue, v1.year, v1.url) == (v2.id, "NeurIPS", 2019, f"https://openreview.net/forum?id={v1.id}")
    assert v1.keywords == v2.keywords == ["image classification", "benchmarks"] and v1.authors == v2.authors


def test_openalex_inverted_index_puts_repeated_words_back_in_place(tmp_path):
    work = {"id": "https://openalex.org/W1", "title": "T", "abstract_inverted_index": {"the": [0, 3], "model": [1],
                                                                                       "beats": [2], "baseline.": [4]}}
    path = tmp_path / "w.jsonl"
    path.write_text(json.dumps(work) + "\n" + json.dumps({**work, "id": "https://openalex.org/W2",
                                                          "abstract_inverted_index": {"x": "0"}}) + "\n")
    corpus = read(path)
    assert [(p.id, p.text) for p in corpus.papers] == [("W1", "the model beats the baseline.")]
    assert problems(corpus) == [f"{path}:2: abstract_inverted_index['x'] is not a list of word positions"]


def test_api_responses_that_wrap_records_give_each_record_its_line():
    corpus = read(S2)  # {"total": 24, "offset": 0, "next": 24, "data": [ ... ]}
    lines = [p.sources[0].line for p in corpus.papers]
    assert lines[0] == 6 and lines == sorted(lines) and len(set(lines)) == len(lines)


# --- identity across sources -----------------------------------------------------------------------------------------

def test_the_same_paper_gets_the_same_id_from_every_format_that_knows_its_doi_or_arxiv_id():
    ids = {path.name: {p.title: p.id for p in read(path).papers} for path in (BIB, RIS, CSL, OPENALEX, S2)}
    known = {p.title for p in read(OPENALEX).papers if p.doi or p.arxiv_id}
    common = set.intersection(*(set(t) for t in ids.values())) & known
    assert len(common) >= 15
    for title in common:
        assert len({ids[name][title] for name in ids}) == 1, title
    arxiv = {p.title: p.id for p in read(ARXIV).papers}
    assert arxiv["SparseFormer: Robust Machine Translation with Low-Rank Updates"] == ids["library.bib"][
        "SparseFormer: Robust Machine Translation with Low-Rank Updates"] == "2002.10137"


def test_all_formats_together_are_one_node_per_paper_recording_every_source():
    corpus = read(*ALL)
    assert len(corpus.papers) == 24
    graphmix = by_title(corpus)[GRAPHMIX]
    assert graphmix.id == "10.5555/graphmix.2019.100"  # the DOI beats the arXiv id the arXiv record gives
    assert {Path(s.path).name for s in graphmix.sources} == {p.name for p in ALL}
    assert "W4300000000" in graphmix.other_ids and "CorpusId:250000000" in graphmix.other_ids
    assert len(list(iter_papers([str(p) for p in ALL]))) == 24  # kg extract's streaming reader keeps the same
    ids = {p.id for p in corpus.papers if p.doi or p.arxiv_id}
    assert len(ids) == 22 and ids <= {p.id for p in read(*reversed(ALL)).papers}  # in any order (a source's own id
    # names a paper only where no DOI or arXiv id does: then the first read of them)


def test_id_precedence_is_doi_then_arxiv_then_source_id_then_hash_in_any_order(tmp_path):
    arxiv = tmp_path / "a.jsonl"
    arxiv.write_text(json.dumps({"id": "2401.00001v2", "abstract": "Arxiv text.", "categories": "cs.LG"}) + "\n")
    bib = tmp_path / "b.bib"
    bib.write_text("@inproceedings{k,\n title={T},\n doi={https://doi.org/10.1234/ABC},\n eprint={arXiv:2401.00001},"
                   "\n archivePrefix={arXiv},\n abstract={Published text.}\n}\n")
    for order in ((arxiv, bib), (bib, arxiv)):
        [paper] = read(*order).papers
        assert (paper.id, paper.doi, paper.arxiv_id) == ("10.1234/abc", "10.1234/abc", "2401.00001")
        assert len(paper.sources) == 2


def test_same_abstract_under_ids_of_different_kinds_is_one_paper_but_two_ids_of_one_kind_are_two(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (
        {"id": "2401.00001", "text": "Same text."},
        {"id": "noteid123", "forum": "noteid123", "content": {"title": "T", "abstract": "Same text."}},
        {"id": "2402.00002", "text": "Same text."})))
    assert [(p.id, p.other_ids) for p in read(path).papers] == [("2401.00001", ["noteid123"]), ("2402.00002", [])]


def test_an_arxiv_doi_is_kept_beside_the_arxiv_id_it_gives_and_gives_way_to_a_published_doi(tmp_path):
    bib = tmp_path / "a.bib"
    bib.write_text("@inproceedings{kwon2022fast,\n title = {A Fast Post-Training Pruning Framework},\n"
                   " doi = {10.48550/arXiv.2204.09656},\n abstract = {We prune Transformers.}\n}\n")
    [paper] = read(bib).papers
    assert (paper.id, paper.doi, paper.arxiv_id) == ("2204.09656", "10.48550/arxiv.2204.09656", "2204.09656")
    published = tmp_path / "b.jsonl"  # the same abstract under a publisher's DOI, without an arXiv id
    published.write_text(json.dumps({"doi": "10.5555/prune.2022", "text": "We prune Transformers."}) + "\n")
    for order in ((bib, published), (published, bib)):
        [paper] = read(*order).papers
        assert (paper.id, paper.doi, paper.arxiv_id) == ("10.5555/prune.2022", "10.5555/prune.2022", "2204.09656")


@pytest.mark.parametrize("ref, venue, year", [
    ("Advances in Neural Information Processing Systems 37 (NeurIPS 2024)", "NeurIPS", 2024),
    ("ICLR 2023", "ICLR", 2023),
    ("Phys. Rev. D 76, 013009 (2007)", "arXiv", 2024),  # no venue kg knows: the preprint's
])
def test_an_arxiv_record_published_at_a_known_venue_takes_that_venue(tmp_path, ref, venue, year):
    path = tmp_path / "snapshot.json"
    path.write_text(json.dumps({"id": "2401.00001", "abstract": "We prune Transformers.", "journal-ref": ref,
                                "categories": "cs.LG", "update_date": "2024-01-02"}) + "\n")
    [paper] = read(path).papers
    assert (paper.venue, paper.year) == (venue, year)


@pytest.mark.parametrize("raw, doi", [("https://doi.org/10.18653/V1/N19-1423", "10.18653/v1/n19-1423"),
                                      ("doi:10.1145/3292500.3330701", "10.1145/3292500.3330701"),
                                      ("http://dx.doi.org/10.1000/XYZ.", "10.1000/xyz"), ("n/a", None)])
def test_doi_normalised(raw, doi):
    assert normalise_doi(raw) == doi


@pytest.mark.parametrize("raw, arxiv", [("arXiv:1706.03762v7", "1706.03762"), ("https://arxiv.org/abs/1706.03762", "1706.03762"),
                                        ("http://arxiv.org/pdf/2401.12345v2.pdf", "2401.12345"),
                                        ("10.48550/arXiv.2401.12345", "2401.12345"), ("hep-th/9901001v1", "hep-th/9901001"),
                                        ("1706", None)])
def test_arxiv_id_normalised(raw, arxiv):
    assert normalise_arxiv(raw) == arxiv


# --- gzip ------------------------------------------------------------------------------------------------------------

def test_gzipped_inputs_by_suffix_and_by_magic_bytes(tmp_path):
    for source, name in ((BIB, "library.bib.gz"), (OPENALEX, "works.jsonl.gz"), (RIS, "library.ris"),
                         (OPENALEX, "part_000.gz")):
        (tmp_path / name).write_bytes(gzip.compress(source.read_bytes()))  # library.ris: gzipped, not named so
    for name, n in (("library.bib.gz", 23), ("works.jsonl.gz", 23), ("library.ris", 23), ("part_000.gz", 23)):
        assert len(read(tmp_path / name).papers) == n, name
    assert len(read(tmp_path).papers) == 24  # a directory: .gz files too, deduplicated across them


def test_corrupt_or_truncated_gzip_is_one_problem_after_the_records_read(tmp_path):
    data = gzip.compress(OPENALEX.read_bytes())
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(data[: len(data) // 2])
    corpus = read(cut)
    assert 5 < len(corpus.papers) < 23
    assert "corrupt or truncated gzip data" in problems(corpus)[-1] and "cannot read further" in problems(corpus)[-1]
    fake = tmp_path / "fake.bib.gz"
    fake.write_text("@misc{a, abstract={x}}")
    assert problems(read(fake)) == [f"{fake}: not gzip data, though the name ends in .gz"]


# --- bad records -----------------------------------------------------------------------------------------------------

def test_many_records_without_an_abstract_are_summarised_in_one_line(tmp_path):
    path = tmp_path / "z.bib"
    path.write_text("".join(f"@misc{{k{i},\n  title = {{Paper {i}}},\n}}\n" for i in range(8))
                    + "@misc{ok,\n  title={T},\n  abstract={An abstract.}\n}\n")
    corpus = read(path)
    assert len(corpus.papers) == 1
    assert problems(corpus) == [f"{path}:{1 + 3 * i}: BibTeX entry 'k{i}' has no abstract" for i in range(3)] + [
        f"{path}:10: 5 more records without an abstract (lines 10, 13, 16, 19, 22); skipped"]


def test_ris_record_without_end_is_read_and_reported(tmp_path):
    path = tmp_path / "a.ris"
    path.write_text("TY  - JOUR\nTI  - One\nAB  - First.\nTY  - JOUR\nTI  - Two\nAB  - Second.\n")
    corpus = read(path)
    assert [p.title for p in corpus.papers] == ["One", "Two"]
    assert problems(corpus) == [
        f"{path}:1: warning: record has no 'ER  -' line before the next 'TY  -'; read as it is",
        f"{path}:4: warning: record has no 'ER  -' line at the end of the file; read as it is"]


def test_stdin_bibtex_and_ris_are_told_by_their_first_line():
    for text in ("@article{a,\n abstract = {From stdin.}\n}\n", "TY  - JOUR\nAB  - From stdin.\nER  - \n"):
        assert [p.text for p in read_corpus(["-"], stdin=io.StringIO(text)).papers] == ["From stdin."]


# --- titles ----------------------------------------------------------------------------------------------------------

def test_titles_and_names_are_cleaned_of_latex_and_markdown_for_display(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"title": r"$\alpha$-Net: \textbf{Fast} **Sparse** Attention", "text": "A.",
                                "authors": [r"J{\'e}r{\^o}me M{\"u}ller"], "venue": r"\emph{NeurIPS}"}) + "\n")
    [paper] = read(path).papers
    assert (paper.title, paper.authors, paper.venue) == ("α-Net: Fast Sparse Attention", ["Jérôme Müller"], "NeurIPS")


# --- column mapping --------------------------------------------------------------------------------------------------

SCRAPED = ("paper_id,title,link,keywords,abstract,session\n"
           '101,First,https://nips.cc/101,"vision, cnn",We propose AlphaNet for image classification.,Poster 1\n'
           "102,Second,https://nips.cc/102,nlp,We study BERT on GLUE.,Poster 2\n")


def test_common_names_of_a_scraped_csv_are_used_and_the_rest_named_once(tmp_path):
    path = tmp_path / "neurips.csv"
    path.write_text(SCRAPED)
    with reading() as options:
        papers = read(path).papers
    assert [(p.id, p.url, p.keywords) for p in papers] == [("101", "https://nips.cc/101", ["vision", "cnn"]),
                                                           ("102", "https://nips.cc/102", ["nlp"])]
    assert options.notice() == (f"kg: note: input columns not used: session ({path}); "
                                "name one with --map FIELD=COLUMN")


def test_map_names_the_columns_of_kg_fields_and_wins_over_the_common_names(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"paper_id": "p1", "Conference": "ICLR", "body": "Text.", "ref": "10.1234/x"}) + "\n")
    with reading(parse_map("id=paper_id,venue=conference,text=body,doi=ref")) as options:
        [paper] = read(path).papers
    assert (paper.id, paper.venue, paper.text, paper.other_ids) == ("10.1234/x", "ICLR", "Text.", ["p1"])
    assert options.notice() is None


def test_gold_files_and_arxiv_snapshot_lines_have_no_columns_kg_did_not_use():
    gold = Path(__file__).parent / "fixtures" / "gold" / "seeds-icml2025.jsonl"
    with reading() as options:
        read(gold, ARXIV)
    assert options.notice() is None


def test_semantic_scholar_dataset_lines(tmp_path):
    path = tmp_path / "abstracts.jsonl"
    path.write_text(json.dumps({"corpusid": 42, "openaccessinfo": {"externalids": {"DOI": "10.1234/S2", "ArXiv": None},
                                                                     "url": "https://x.org/p.pdf"},
                                "abstract": "From the abstracts dataset."}) + "\n" +
                    json.dumps({"corpusid": 43, "externalids": {"ArXiv": "2301.00001", "CorpusId": "43"}, "title": "T",
                                "authors": [{"authorId": "1", "name": "A. Author"}], "year": 2023,
                                "venue": "arXiv.org", "abstract": "From the papers endpoint."}) + "\n")
    first, second = read(path).papers
    assert (first.id, first.other_ids, first.url) == ("10.1234/s2", ["CorpusId:42"], "https://x.org/p.pdf")
    assert (second.id, second.other_ids, second.authors) == ("2301.00001", ["CorpusId:43"], ["A. Author"])


@pytest.mark.parametrize("text, message", [("id", "'id' is not FIELD=COLUMN"), ("name=x", "unknown field 'name'"),
                                           ("", "needs FIELD=COLUMN pairs")])
def test_bad_map_is_a_one_line_error(text, message):
    with pytest.raises(ValueError, match=message):
        parse_map(text)


# --- kg build --------------------------------------------------------------------------------------------------------

def test_kg_build_reads_every_format_into_one_graph(tmp_path, capsys):
    inputs = tmp_path / "library"
    shutil.copytree(FORMATS, inputs)
    (inputs / "neurips.csv").write_text(SCRAPED)
    code = main(["build", str(inputs), "--out", str(tmp_path / "out"), "--fast", "--quiet", "--max-views", "1",
                 "--map", "venue=session"])
    out, err = capsys.readouterr()
    assert code == 1, err  # finished, some records skipped
    assert "Traceback" not in err
    assert f"{inputs / 'library.bib'}:241: invalid BibTeX entry" in err
    assert err.count("kg: note: input columns not used") == 0  # --map took the one column left
    graph = json.loads((tmp_path / "out" / "graph.json").read_text())
    papers = {n["id"]: n for n in graph["nodes"] if n["type"] == "Paper"}
    assert len(papers) == 24 + 2, sorted(papers)  # the library, and the two papers of the CSV
    graphmix = papers["paper:10.5555/graphmix.2019.100"]
    assert graphmix["title"] == GRAPHMIX and len(graphmix["source"]) == len(ALL)
    assert graphmix["doi"] == "10.5555/graphmix.2019.100"  # the identifiers and keywords are the node's too
    assert any(p["arxiv_id"] for p in papers.values()) and any(p["keywords"] for p in papers.values())
    assert papers["paper:101"]["venue"] == "Poster 1"


def test_kg_extract_bad_map_exits_2_without_traceback(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "kg.cli", "extract", str(BIB), "--out", str(tmp_path / "o.jsonl"),
                           "--map", "nope=x"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "kg extract: error: argument --map: unknown field 'nope'; kg's fields are id, text, title, venue, year, "
        "authors, url, doi, arxiv_id, keywords (see kg extract --help)"]


# --- never a traceback -----------------------------------------------------------------------------------------------

def test_records_of_a_known_shape_with_fields_of_another_shape_are_problems(tmp_path):
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps({"id": "https://openalex.org/W9", "abstract_inverted_index": {"a": [0]}, "locations": 5})
                    + "\n" + json.dumps({"paperId": "abc", "externalIds": 7, "abstract": "Kept.", "authors": "A. B"})
                    + "\n")
    corpus = read(path)
    assert [p.id for p in corpus.papers] == ["abc"]
    assert problems(corpus)[0].startswith(f"{path}:1: OpenAlex work with a field of an unexpected shape: ")


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_cut_or_damaged_files_give_problems_and_papers_never_an_exception(tmp_path, path):
    data = path.read_bytes()
    for k, cut in enumerate(range(len(data) // 7, len(data), len(data) // 7)):
        damaged = bytearray(data[:cut])
        for at in range(len(damaged) // 5, len(damaged), len(damaged) // 5 or 1):
            damaged[at] = b"{}\"\\@,"[at % 6]
        target = tmp_path / f"{k}{path.suffix}"
        target.write_bytes(bytes(damaged))
        corpus = read(target)
        assert corpus.papers or corpus.problems


def test_gzipped_standard_input(monkeypatch):
    class Stdin:
        buffer = io.BufferedReader(io.BytesIO(gzip.compress(RIS.read_bytes())))

    monkeypatch.setattr(sys, "stdin", Stdin())
    assert len(read_corpus(["-"]).papers) == 23


def test_bibtex_joined_values_accents_on_dotless_i_spaced_accents_and_others(tmp_path):
    from kg.corpus import read_corpus

    bib = tmp_path / "refs.bib"
    bib.write_text(r"""@string{pre = "Proceedings of "}
@string{acl = "ACL"}
@inproceedings{a, title={Attention}, booktitle = pre # "NAACL-HLT 2019", year={2019},
  author={Garc{\'\i}a, Juan and Dvo{\v r}{\'a}k, Jan and Ming{-}Wei Chang and others},
  abstract={We study attention for machine translation.}}
@inproceedings{b, title={Second}, booktitle = pre # acl # " 2022", year={2022}, abstract={We study parsing.}}
@inproceedings{b, title={Third}, year = {2021}, abstract={We study tagging.}}
""", encoding="utf-8")
    corpus = read_corpus([str(bib)])
    got = {p.title: (p.venue, p.year, p.authors) for p in corpus.papers}
    assert got["Attention"] == ("NAACL", 2019,  # "Proceedings of NAACL-HLT 2019", joined from @string
                                ["Juan García", "Jan Dvořák", "Ming-Wei Chang"])
    assert got["Second"][:2] == ("ACL", 2022)
    assert got["Third"][1] == 2021 and not corpus.problems  # a repeated key keeps its year


def test_a_bibtex_entry_with_a_repeated_key_or_field_is_read_as_any_other(tmp_path):
    from kg.corpus import read_corpus

    bib = tmp_path / "refs.bib"
    bib.write_text("""@string{acl = "ACL"}
@inproceedings{b, title={Second}, booktitle=acl, author={Smith, Jane and Doe, Alan}, abstract={We study parsing.}}
@inproceedings{b, title={Third}, booktitle=acl, author={Smith, Jane and Doe, Alan}, Abstract={We study tagging.}}
@inproceedings{c, title={Fourth}, year={2020}, year={2021}, author={Lee, Kim}, abstract={We study chunking.}}
""", encoding="utf-8")
    corpus = read_corpus([str(bib)])
    got = {p.title: (p.venue, p.year, p.authors) for p in corpus.papers}
    both = ["Jane Smith", "Alan Doe"]  # a repeated key's entry as the first's: authors split, macros resolved
    assert got == {"Second": ("ACL", None, both), "Third": ("ACL", None, both), "Fourth": (None, 2021, ["Kim Lee"])}
    assert [str(p) for p in corpus.problems] == [
        f"{bib}:4: warning: BibTeX entry 'c' gives year twice; the last is read"]  # (read, not lost)


@pytest.mark.parametrize("content, venue", [
    ({"venue": {"value": "Submitted to ICLR 2023"},
      "venueid": {"value": "ICLR.cc/2023/Conference/Rejected_Submission"}}, ("Submitted to ICLR 2023", 2023)),
    ({"venue": {"value": "ICLR 2024 Conference Withdrawn Submission"},
      "venueid": {"value": "ICLR.cc/2024/Conference/Withdrawn_Submission"}},
     ("ICLR 2024 Conference Withdrawn Submission", 2024)),
    ({"venue": {"value": "NeurIPS 2023 Workshop on Robustness"}}, ("NeurIPS 2023 Workshop on Robustness", 2023)),
    ({"venue": {"value": "ICLR 2024 poster"}, "venueid": {"value": "ICLR.cc/2024/Conference"}}, ("ICLR", 2024)),
    ({"venue": "Submitted to NeurIPS 2019", "venueid": "NeurIPS.cc/2019/Conference"}, ("NeurIPS", 2019)),  # venueid
])
def test_an_openreview_submission_the_conference_did_not_take_keeps_its_own_venue(content, venue):
    from kg.corpus.formats.openreview import to_record

    note = {"id": "n1", "forum": "n1", "content": {"title": {"value": "T"}, "abstract": {"value": "We study X."},
                                                   **content}}
    record = to_record(note)
    assert (record["venue"], record["year"]) == venue
