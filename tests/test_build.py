"""End to end on the committed seed corpus: real facts of the seed graph and every output file."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import networkx as nx
import pytest

import kg
from kg import schema

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "examples" / "icml"


@pytest.fixture(scope="module")
def built(seed_build):
    return seed_build


@pytest.fixture(scope="module")
def graph(built):
    return built[0].graph


def paper_by_name(g, name):
    hits = [n for n, d in g.nodes(data=True) if d["type"] == "Paper" and d["name"] == name]
    assert len(hits) == 1, f"expected one paper named {name}, got {hits}"
    return hits[0]


def targets(g, node, rel):
    return {g.nodes[v]["name"] for _, v, k in g.out_edges(node, keys=True) if k == rel}


def test_all_38_seed_papers_are_in_the_graph(graph):
    papers = [d for _, d in graph.nodes(data=True) if d["type"] == "Paper"]
    assert len(papers) == 38


def test_venue_and_years_come_from_the_list_headers(graph):
    papers = [d for _, d in graph.nodes(data=True) if d["type"] == "Paper"]
    assert {d["venue"] for d in papers} == {"ICML"}
    assert sorted({d["year"] for d in papers}) == [2025, 2026]
    assert sum(d["year"] == 2025 for d in papers) == 19


def test_scale_paper_evaluates_on_cuhk_sysu_and_prw_and_reports_map(graph):
    p = paper_by_name(graph, "SCALE")
    assert {"CUHK-SYSU", "PRW"} <= targets(graph, p, "EVALUATES_ON")
    assert "mAP" in targets(graph, p, "REPORTS")


def test_domed_is_proposed(graph):
    p = paper_by_name(graph, "DomED")
    assert "DomED" in targets(graph, p, "PROPOSES")
    assert "DomED" not in targets(graph, p, "USES")


def test_glue_links_to_the_cobra_paper(graph):
    p = paper_by_name(graph, "COBRA")
    assert "GLUE" in targets(graph, p, "EVALUATES_ON")


def test_every_paper_concept_edge_has_evidence_inside_the_raw_abstract(graph):
    for u, v, k, d in graph.edges(keys=True, data=True):
        if k in {r.name for r in schema.REL_FOR_LABEL.values()} | {"PROPOSES"}:
            abstract = graph.nodes[u]["abstract"]
            assert d["sentence"] and d["sentence"] in abstract
            assert abstract.find(d["sentence"]) <= d["start_char"] < d["end_char"] <= abstract.find(d["sentence"]) + len(d["sentence"])


def test_result_links_method_dataset_and_metric(graph):
    results = [(n, d) for n, d in graph.nodes(data=True) if d["type"] == "Result"]
    assert any(d["dataset"] == "ModelNet40" and d["metric"] == "accuracy" and d["value"] == "95.6%"
               and (d["score"], d["unit"]) == (95.6, "%") for _, d in results)
    for n, _ in results:
        assert all(graph.nodes[v]["type"] in {"Method", "Dataset", "Metric"} for v in graph.successors(n))


@pytest.mark.parametrize("value, score", [("94.4%", (94.4, "%")), ("94.4 %", (94.4, "%")), ("6.3x", (6.3, "x")),
                                          ("4 ×", (4.0, "x")), ("1.897×10⁻³", (0.001897, "")), ("2.10", (2.1, "")),
                                          ("-9.5", (-9.5, "")), ("\u22129.5", (-9.5, "")), ("n/a", (None, ""))])
def test_a_results_value_has_a_number_to_sort_by(value, score):
    from kg.build.elements import value_score

    assert value_score(value) == score


@pytest.mark.parametrize("name, forms, aliases", [
    ("reinforcement learning", ["Offline reinforcement learning (RL) methods", "RL problems", "RL",
                                "reinforcement learning (RL) algorithms", "Reinforcement Learning"], ["RL"]),
    ("COCO", ["MS COCO", "COCO dataset", "Microsoft COCO", "MS-COCO"], ["MS COCO", "Microsoft COCO", "MS-COCO"]),
    ("PFGM", ["Poisson Flow Generative Models (PFGM)"], ["Poisson Flow Generative Models"]),  # a long form's head
    ("Gaussian mixture model", ["uniform Gaussian mixture model (GMM)", "Gaussian mixture models"],
     ["Gaussian mixture models"]),
    ("Office-31", ["Office31"], ["Office31"]),  # a spelling Cypher matches as written
    ("offline reinforcement learning", ["Offline reinforcement learning (RL)", "RL", "offline RL"], ["offline RL"]),
    ("Deep Q-Network", ["DQN", "DQNs"], ["DQN", "DQNs"]),  # (the initials of every word)
    ("OR", ["operations research"], ["operations research"]),  # "research" is a field's word, and the name's own
])
def test_a_concepts_aliases_are_its_other_names(name, forms, aliases):
    from kg.build.elements import display_aliases

    assert display_aliases(name, forms) == aliases


def test_no_alias_is_the_name_of_another_concept():
    from kg.build.elements import display_aliases
    from kg.schema import concept_key

    others = frozenset(map(concept_key, ["accuracy", "text summarization"]))
    assert display_aliases("test accuracy", ["accuracy", "test-accuracy"], others) == ["test-accuracy"]
    assert display_aliases("summarization", ["text summarization", "summarisation"], others) == ["summarisation"]
    assert display_aliases("Bayesian optimization", ["BO"], frozenset({"bo"})) == ["BO"]  # (a short form of two)


def test_a_result_of_a_method_named_by_its_defined_short_form_links_to_it(tmp_path):
    f = tmp_path / "pfgm.jsonl"
    f.write_text(json.dumps({"id": "p1", "title": "Poisson Flow Generative Models", "text": (
        "We propose a new generative model, Poisson Flow Generative Models (PFGM). On CIFAR-10, PFGM achieves an FID "
        "of 2.35, the best among normalizing flow models.")}) + "\n", encoding="utf-8")
    g = kg.build([str(f)]).graph
    [result] = [n for n, d in g.nodes(data=True) if d["type"] == "Result"]
    assert targets(g, result, "FOR_METHOD") == {"PFGM"} and targets(g, result, "ON_DATASET") == {"CIFAR-10"}


def test_papers_without_concepts_still_appear(tmp_path):
    f = tmp_path / "plain.txt"
    f.write_text("We thank the reviewers for their patience with this note.\n", encoding="utf-8")
    g = kg.build([str(f)]).graph
    assert [d["type"] for _, d in g.nodes(data=True)] == ["Paper"]


def test_output_files_are_written(built):
    _, out = built
    for name in ["graph.json", "graph.graphml", "mentions.jsonl", "views/overview.html", "views/index.html", "graph.lbug",
                 "neo4j/nodes_Paper.csv", "neo4j/rels_EVALUATES_ON.csv", "neo4j/import.sh"]:
        assert (out / name).is_file(), name


def test_json_and_graphml_round_trip(built, graph):
    _, out = built
    g2 = nx.node_link_graph(json.loads((out / "graph.json").read_text()), edges="links")
    assert g2.number_of_nodes() == graph.number_of_nodes() and g2.number_of_edges() == graph.number_of_edges()
    g3 = nx.read_graphml(out / "graph.graphml")
    assert g3.number_of_nodes() == graph.number_of_nodes() and g3.number_of_edges() == graph.number_of_edges()


def test_neo4j_csvs_have_admin_import_headers_and_all_rows(built, graph):
    _, out = built
    with (out / "neo4j" / "nodes_Paper.csv").open(newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0][0] == "id:ID" and rows[0][-1] == ":LABEL" and "year:int" in rows[0]
    assert len(rows) - 1 == 38
    total = 0
    for rt in schema.REL_TYPES:
        with (out / "neo4j" / f"rels_{rt.name}.csv").open(newline="") as fh:
            rel_rows = list(csv.reader(fh))
        assert rel_rows[0][:3] == [":START_ID", ":END_ID", ":TYPE"]
        total += len(rel_rows) - 1
        if "evidence" in rel_rows[0]:  # JSON text, as kg load stores it, not a Python repr
            at = rel_rows[0].index("evidence")
            for row in rel_rows[1:]:
                assert json.loads(row[at]) == graph.edges[row[0], row[1], row[2]]["evidence"]
    assert total == graph.number_of_edges()


def test_only_a_dataset_gets_the_benchmark_label_in_the_csvs(tmp_path):
    from kg.sinks.neo4j_csv import write_neo4j_csv

    g = nx.MultiDiGraph()
    g.add_node("dataset:glue", type="Dataset", name="GLUE", benchmark=True)
    g.add_node("dataset:coco", type="Dataset", name="COCO", benchmark=False)
    g.add_node("method:srbench", type="Method", name="SRBench", benchmark=True)  # the property stays, the label not
    write_neo4j_csv(g, tmp_path)
    labels = {}
    for label in ("Dataset", "Method"):
        with (tmp_path / f"nodes_{label}.csv").open(newline="") as fh:
            rows = list(csv.reader(fh))
        labels.update({r[0]: r[-1] for r in rows[1:]})
    assert labels == {"dataset:glue": "Dataset|Benchmark", "dataset:coco": "Dataset", "method:srbench": "Method"}


def test_mentions_file_is_in_the_scorer_prediction_format(built):
    _, out = built
    lines = [json.loads(x) for x in (out / "mentions.jsonl").read_text().splitlines()]
    assert len(lines) == 38
    for d in lines:
        assert set(d) >= {"id", "mentions", "concepts", "proposed", "results"}
        for m in d["mentions"]:  # a generic class phrase ("linear models") is a mention without a concept
            assert {"start", "end", "label", "text", "canonical" if not m.get("generic") else "generic"} <= set(m)


def test_schema_cypher_file_is_generated_from_the_schema():
    assert (ROOT / "cypher" / "schema.cypher").read_text() == schema.cypher_schema()


def test_streamed_json_and_graphml_hold_exactly_the_graph(tmp_path):
    from kg.sinks.graphml import write_graphml
    from kg.sinks.json import write_json

    g = nx.MultiDiGraph(schema_version=1)
    hostile = 'a <b> & "c" \'d\'\nline\x01 ü'
    g.add_node("p1", type="Paper", name=hostile, authors=["Smith, J.", "Ö"], year=2025, score=0.5, flag=True, none=None)
    g.add_node("m1", type="Method", name="X")
    g.add_edge("p1", "m1", key="USES", count=2, evidence=[{"sentence": hostile, "start_char": 1}])
    g.add_edge("p1", "m1", key="PROPOSES", count=1)
    odd = ['q "1" & <x>\tend', "it's", 'both \' and "', "p\nq", "c\x01d"]  # ids needing quoteattr's escapes and quotes
    for i, name in enumerate(odd):
        g.add_edge(name, "m1", key=odd[-1 - i])
    write_json(g, tmp_path / "g.json")
    assert json.loads((tmp_path / "g.json").read_text()) == nx.node_link_data(g, edges="links")
    write_graphml(g, tmp_path / "g.graphml")
    h = nx.read_graphml(tmp_path / "g.graphml", force_multigraph=True)
    assert h.nodes["p1"]["name"] == hostile.replace("\x01", "\ufffd")
    assert json.loads(h.nodes["p1"]["authors"]) == ["Smith, J.", "Ö"]
    assert (h.nodes["p1"]["year"], h.nodes["p1"]["score"], h.nodes["p1"]["flag"]) == (2025, 0.5, True)
    assert "none" not in h.nodes["p1"]
    xml_safe = lambda x: x.replace("\x01", "\ufffd")  # noqa: E731 (XML 1.0 has no U+0001, even escaped)
    assert {k for _, _, k in h.edges(keys=True)} == {"USES", "PROPOSES", *map(xml_safe, odd)}
    assert set(h.nodes) == set(map(xml_safe, g.nodes)) and {(u, k) for u, _, k in h.in_edges("m1", keys=True)} == \
        {(xml_safe(u), xml_safe(k)) for u, _, k in g.in_edges("m1", keys=True)}
    assert json.loads(h.edges["p1", "m1", "USES"]["evidence"])[0]["sentence"] == hostile  # JSON escapes it


def test_a_defined_abbreviation_is_one_mention_in_the_predictions():
    from kg.sinks.predictions import prediction
    from kg.model import Paper
    from kg.nlp.extract import extract

    text = ("We use a Markov random field (MRF) model for segmentation. "
            "Training a Markov random field is hard; the MRF is then pruned.")
    paper, ex = next(extract([Paper(id="p", text=text)]))
    spans = [text[m["start"]:m["end"]] for m in prediction(paper, ex)["mentions"] if m["label"] == "METHOD"]
    assert spans[0] == "Markov random field (MRF) model"  # as SciERC and TDMSci annotate it, head noun included
    assert "MRF" in spans[1:]  # later uses stay single mentions
    # the graph keeps both names: the concept is the long form, the short form its alias
    assert {m.canonical for m in ex.mentions if m.label == "METHOD"} == {"Markov random field"}
    assert "MRF" in ex.aliases["Markov random field"]


def test_task_and_dataset_mentions_are_reported_with_their_head_noun():
    from kg.sinks.predictions import prediction
    from kg.model import Paper
    from kg.nlp.extract import extract

    text = "We study the machine translation task and report BLEU on the WMT14 dataset."
    paper, ex = next(extract([Paper(id="p", text=text)]))
    pred = prediction(paper, ex)
    reported = {(text[m["start"]:m["end"]], m["label"]) for m in pred["mentions"]}
    assert {("machine translation task", "TASK"), ("WMT14 dataset", "DATASET"), ("BLEU", "METRIC")} <= reported
    assert "machine translation" in pred["concepts"]["TASK"]  # the concept is the task's name
    assert "WMT14" in pred["concepts"]["DATASET"]


def _mention(text: str, phrase: str, label: str, canonical: str, extractor: str = "gazetteer", **kw):
    """A mention of ``phrase`` (its first place in ``text``), with the whole text as its sentence."""
    from kg.model import Mention, Span

    a = text.index(phrase)
    return Mention(a, a + len(phrase), label, phrase, canonical, extractor, Span(0, len(text)), **kw)


def test_a_document_names_a_concept_as_it_spells_it_when_the_canonical_name_is_absent():
    from kg.sinks.predictions import document_names, prediction
    from kg.model import Extraction, Paper

    text = ("We colorize images (colorization) with convolutional neural networks, then a CNN, compare\nimage "
            "segmentation models and VAEs on the Variational Autoencoders, and train generative adversarial "
            "networks on organ scans of a gang. GLUE results follow.")

    def mention(phrase: str, label: str, canonical: str, benchmark: bool = False):
        return _mention(text, phrase, label, canonical, benchmark=benchmark)

    ex = Extraction("p")
    ex.mentions = [
        mention("colorization", "TASK", "image colorization"),  # written nowhere: the paper's spelling
        mention("convolutional neural networks", "METHOD", "CNN"),  # "CNN" is written later: the canonical name
        mention("CNN", "METHOD", "CNN"),
        mention("segmentation", "TASK", "image segmentation"),  # written across a line break
        mention("Variational Autoencoders", "METHOD", "VAE"),  # written only in the plural: "VAEs", as the paper does
        mention("generative adversarial networks", "METHOD", "GAN"),  # "gan" only inside "organ" and "gang"
        mention("GLUE", "DATASET", "General Language Understanding Evaluation", benchmark=True),
        mention("Colorization".lower(), "TASK", "Colorization"),  # the same name in another case: once
    ]
    names = document_names(text, ex)
    assert names[("TASK", "image colorization")] == "colorization"
    assert names[("METHOD", "CNN")] == "CNN"
    assert names[("TASK", "image segmentation")] == "image segmentation"
    assert names[("METHOD", "VAE")] == "VAEs"  # the scorer reads "VAEs" and "VAE" as two names
    assert names[("METHOD", "GAN")] == "generative adversarial networks"
    row = prediction(Paper(id="p", text=text), ex)
    assert row["concepts"] == {"TASK": ["colorization", "image segmentation"],
                               "METHOD": ["CNN", "VAEs", "generative adversarial networks"],
                               "DATASET": ["GLUE"], "BENCHMARK": ["GLUE"]}


def test_a_document_names_a_concept_by_its_modified_name_when_the_canonical_is_only_inside_it():
    from kg.sinks.predictions import document_names
    from kg.model import Extraction

    text = "We run automatic speech recognition, then speech recognition models; we also report MCMC methods."
    ex = Extraction("p")
    ex.mentions = [_mention(text, "automatic speech recognition", "TASK", "speech recognition"),
                   _mention(text, "MCMC methods", "METHOD", "MCMC")]
    assert document_names(text, ex)[("TASK", "speech recognition")] == "speech recognition"  # written alone too
    text = "We run automatic speech recognition and report MCMC methods."
    ex.mentions = [_mention(text, "automatic speech recognition", "TASK", "speech recognition"),
                   _mention(text, "MCMC methods", "METHOD", "MCMC")]
    names = document_names(text, ex)
    assert names[("TASK", "speech recognition")] == "automatic speech recognition"  # the paper's name for it
    assert names[("METHOD", "MCMC")] == "MCMC"  # a kind word after the name is no part of it
    text = "We also evaluate on the object tracking task."
    ex.mentions = [_mention(text, "object tracking task", "TASK", "visual object tracking")]
    assert document_names(text, ex)[("TASK", "visual object tracking")] == "object tracking"  # not the word "task"


def test_a_plural_canonical_name_written_in_the_singular_names_the_concept():
    from kg.sinks.predictions import document_names
    from kg.model import Extraction, Mention, Span

    title, text = "Episodic Latent MABs", "We consider a multi-armed bandit problem, and a class of GANs."
    ex = Extraction("p")
    ex.mentions = [Mention(16, 20, "TASK", "MABs", "multi-armed bandits", "gazetteer", Span(0, 20), in_title=True),
                   _mention(text, "multi-armed bandit problem", "TASK", "multi-armed bandits"),
                   _mention(text, "class", "METHOD", "class"),  # "clas" is no singular
                   _mention(text, "GANs", "METHOD", "GAN")]
    names = document_names(text, ex, title)
    assert names[("TASK", "multi-armed bandits")] == "multi-armed bandits"  # not the title's short form
    assert names[("METHOD", "GAN")] == "GANs"


def test_a_hyphenated_canonical_name_written_with_spaces_names_the_concept_as_written():
    from kg.sinks.predictions import document_names
    from kg.model import Extraction

    text = "In meta reinforcement learning tasks, agents adapt fast."
    ex = Extraction("p")
    ex.mentions = [_mention(text, "meta reinforcement learning tasks", "TASK", "meta-reinforcement learning")]
    assert document_names(text, ex)[("TASK", "meta-reinforcement learning")] == "meta reinforcement learning"


def test_the_first_of_two_names_sharing_a_last_word_is_named_in_full():
    from kg.sinks.predictions import prediction
    from kg.model import Extraction, Mention, Paper, Span

    title, text = "Linear and ReLU Networks", "We train Swin models on image and video classification."
    ex = Extraction("p")
    ex.mentions = [_mention(text, "image", "TASK", "image classification", "gazetteer"),
                   _mention(text, "video classification", "TASK", "video classification", "gazetteer"),
                   _mention(text, "Swin", "METHOD", "Swin Transformer", "gazetteer"),  # an alias: as written
                   Mention(0, 6, "METHOD", "Linear", "linear networks", "gazetteer", Span(0, 24), in_title=True)]
    concepts = prediction(Paper(id="p", title=title, text=text), ex)["concepts"]
    assert concepts == {"TASK": ["image classification", "video classification"],
                        "METHOD": ["Swin", "linear networks"]}


def test_a_document_name_skips_a_short_form_in_brackets():
    from kg.sinks.predictions import document_names
    from kg.model import Extraction

    text = "We train reinforcement learning (RL) agents and pretrained language models (LMs) for OOD detection."

    def mention(phrase: str, canonical: str):
        return _mention(text, phrase, "METHOD", canonical, "model")

    ex = Extraction("p")
    ex.mentions = [mention("reinforcement learning (RL) agents", "reinforcement learning agents"),
                   mention("pretrained language models (LMs)", "pre-trained language models")]
    names = document_names(text, ex)
    # an aside inside the name stays, as the text writes it (the guideline's surface form); one after it goes
    assert names[("METHOD", "reinforcement learning agents")] == "reinforcement learning (RL) agents"
    assert names[("METHOD", "pre-trained language models")] == "pretrained language models"  # its spelling, no aside


def test_reported_spans_never_overlap_the_next_mention():
    from kg.sinks.predictions import defined_spans
    from kg.model import Mention, Span

    text = "We train BERT models on data."

    def mention(a: int, b: int) -> Mention:
        return Mention(a, b, "METHOD", text[a:b], text[a:b], "gazetteer", Span(0, len(text)))

    assert [text[s:e] for _, s, e in defined_spans(text, [mention(9, 13)])] == ["BERT models"]
    assert [text[s:e] for _, s, e in defined_spans(text, [mention(9, 13), mention(14, 20)])] == ["BERT", "models"]


def test_a_build_runs_at_the_build_collector_thresholds_and_restores_the_callers(tmp_path, monkeypatch):
    import gc

    from kg.build import builder
    from kg.build.memory import BUILD_GC_THRESHOLD

    seen = []
    real = builder.read_corpus
    monkeypatch.setattr(builder, "read_corpus", lambda *a, **k: (seen.append(gc.get_threshold()), real(*a, **k))[1])
    before = gc.get_threshold()
    gc.set_threshold(1234, 5, 6)
    try:
        assert builder.build([str(sorted(SEEDS.glob("*.txt"))[0])]).graph.number_of_nodes() > 0
        assert seen == [BUILD_GC_THRESHOLD]
        assert gc.get_threshold() == (1234, 5, 6)
    finally:
        gc.set_threshold(*before)


def test_a_dataset_written_with_a_kind_word_is_named_without_it():
    from kg.sinks.predictions import document_names
    from kg.model import Extraction

    text = "Agents play Atari games and MuJoCo environments; the MS COCO images follow."

    def mention(phrase: str, canonical: str):
        return _mention(text, phrase, "DATASET", canonical)

    ex = Extraction("p")
    ex.mentions = [mention("Atari games", "Atari"), mention("MuJoCo environments", "MuJoCo"),
                   mention("MS COCO", "COCO")]
    names = document_names(text, ex)
    assert names[("DATASET", "Atari")] == "Atari" and names[("DATASET", "MuJoCo")] == "MuJoCo"
    assert names[("DATASET", "COCO")] == "MS COCO"  # a longer name is the paper's own


def test_a_document_names_each_concept_once_whatever_its_spellings():
    from kg.model import Paper
    from kg.nlp.extract import extract
    from kg.sinks.predictions import prediction

    paper = Paper("p", "Domain adaptation needs target labels. We start by proposing a distribution-informed neural "
                       "network, which aims to build distribution-aware relationships between inputs.",
                  title="Distribution-Informed Neural Networks for Domain Adaptation Regression")
    [(paper, ex)] = list(extract([paper]))
    out = prediction(paper, ex)  # the title's "Distribution-informed Neural Networks", the text's singular
    keys = [n.lower().rstrip("s") for n in out["concepts"]["METHOD"]]
    assert len(keys) == len(set(keys)) and len(out["proposed"]) == 1


def test_canonical_names_that_differ_only_in_case_or_an_aside_are_one_concept_with_one_name():
    from kg.model import Extraction, Paper
    from kg.sinks.predictions import document_names, prediction

    title = "Watermarking for Out-of-distribution Detection"
    text = "Out-of-distribution (OOD) detection aims to identify OOD data."
    ex = Extraction("p")
    ex.mentions = [_mention(text, "Out-of-distribution (OOD) detection", "TASK", "Out-of-distribution detection",
                            "model_phrase")]
    t = _mention(title, "Out-of-distribution Detection", "TASK", "out-of-distribution detection")
    t.in_title = True
    ex.mentions.insert(0, t)
    names = document_names(text, ex, title)
    assert names[("TASK", "Out-of-distribution detection")] == names[("TASK", "out-of-distribution detection")]
    assert prediction(Paper("p", text, title=title), ex)["concepts"]["TASK"] == ["out-of-distribution detection"]


def test_a_concepts_one_name_is_the_papers_proposed_spelling_or_its_words_over_a_short_form():
    from kg.model import Extraction, Paper
    from kg.sinks.predictions import prediction

    title = "Inception transformer with MCTS"
    text = "We propose the Inception Transformer. It plans with Monte-Carlo tree search."
    ex = Extraction("p")
    first = _mention(title, "Inception transformer", "METHOD", "inception transformer")
    short = _mention(title, "MCTS", "METHOD", "MCTS")
    for m in (first, short):
        m.in_title = True
    ex.mentions = [first, short, _mention(text, "Inception Transformer", "METHOD", "Inception Transformer",
                                          "proposed", proposed=True),
                   _mention(text, "Monte-Carlo tree search", "METHOD", "Monte-Carlo tree search")]
    ex.mentions[1].canonical = "Monte Carlo tree search"  # (the title's short form, linked by the vocabulary)
    row = prediction(Paper("p", text, title=title), ex)
    assert row["concepts"]["METHOD"] == ["Inception Transformer", "Monte-Carlo tree search"]
    assert row["proposed"] == ["Inception Transformer"]
