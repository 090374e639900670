"""Cross-paper resolution: one concept per real thing. Each row puts two spellings in two abstracts and checks
whether the built graph links both papers to the same concept node."""
from __future__ import annotations

import json

import pytest

import kg

TEMPLATES = {
    "DATASET": "Experiments on the {} dataset show consistent gains over strong baselines.",
    "METHOD": "We compare our approach against {} in all settings and report the results.",
    "METRIC": "Our model reaches 91.2 {} on the held-out test set.",
    "TASK": "This paper studies {} in realistic settings.",
}
NODE = {"DATASET": "Dataset", "METHOD": "Method", "METRIC": "Metric", "TASK": "Task"}

MERGE = [
    ("DATASET", "Office-31", "Office31"), ("DATASET", "CIFAR10", "CIFAR-10"), ("DATASET", "CIFAR-100", "CIFAR100"),
    ("DATASET", "ImageNet", "ILSVRC-2012"), ("DATASET", "ImageNet", "ImageNet-1K"), ("DATASET", "MS COCO", "COCO"),
    ("DATASET", "ModelNet40", "ModelNet-40"), ("DATASET", "WikiText-103", "WikiText103"), ("DATASET", "Market-1501", "Market1501"),
    ("DATASET", "Penn Treebank", "PTB"), ("DATASET", "SQuAD 2.0", "SQuAD2.0"), ("DATASET", "CUHK-SYSU", "CUHK-SYSU benchmark"),
    ("DATASET", "CNN/DailyMail", "CNN and Daily Mail"),
    ("METHOD", "LoRA", "Low-Rank Adaptation"), ("METHOD", "GPT-4", "GPT4"), ("METHOD", "ResNet-50", "ResNet50"),
    ("METHOD", "Transformers", "Transformer"), ("METHOD", "LLMs", "large language models"),
    ("METHOD", "GNNs", "graph neural networks"), ("METHOD", "ViT", "Vision Transformer"),
    ("METHOD", "PPO", "Proximal Policy Optimization"), ("METHOD", "knowledge distillation", "Knowledge Distillation"),
    ("METHOD", "diffusion models", "diffusion probabilistic models"),
    ("METRIC", "mAP", "mean average precision"), ("METRIC", "top-1 accuracy", "Top-1 Accuracy"),
    ("METRIC", "FID", "Fréchet Inception Distance"), ("TASK", "VQA", "visual question answering"),
    ("TASK", "NER", "named entity recognition"), ("TASK", "OOD detection", "out-of-distribution detection"),
]
APART = [
    ("DATASET", "ImageNet", "ImageNet-C"), ("DATASET", "COCO", "COCO-C"), ("DATASET", "CIFAR-10", "CIFAR-100"),
    ("DATASET", "CIFAR-10", "CIFAR-10-C"), ("DATASET", "SQuAD 1.1", "SQuAD 2.0"), ("DATASET", "ImageNet", "ImageNet-21K"),
    ("DATASET", "ETTh1", "ETTh2"), ("DATASET", "MNIST", "Fashion-MNIST"), ("DATASET", "GLUE", "SuperGLUE"),
    ("DATASET", "Office-31", "Office-Home"), ("METHOD", "GPT-3", "GPT-4"), ("METHOD", "BERT", "RoBERTa"),
    ("METHOD", "ResNet-50", "ResNet-101"), ("METHOD", "Llama 2", "Llama 3"), ("METHOD", "GPT-2", "GPT-3"),
    ("METHOD", "PPO", "DPO"), ("METHOD", "T5", "mT5"), ("METRIC", "ROUGE-1", "ROUGE-L"),
    ("METRIC", "top-1 accuracy", "top-5 accuracy"), ("METRIC", "AP50", "AP75"),
    ("METHOD", "GPT-3.5", "GPT-3"), ("METHOD", "Llama 2", "Llama 2-Chat"), ("METHOD", "Gemini 1.5 Pro", "Gemini 1.5 Flash"),
    ("METHOD", "GPT-3", "GPT-3 13B"),
]


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    rows = []
    for n, (label, a, b) in enumerate(MERGE + APART):
        rows.append({"id": f"{n}a", "text": TEMPLATES[label].format(a)})
        rows.append({"id": f"{n}b", "text": TEMPLATES[label].format(b)})
    src = tmp_path_factory.mktemp("res") / "pairs.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return kg.build([str(src)]).graph


def concepts(g, paper: str, label: str) -> set[str]:
    return {v for _, v in g.out_edges(f"paper:{paper}") if g.nodes[v]["type"] == NODE[label]}


def test_the_table_has_at_least_40_rows():
    assert len(MERGE) + len(APART) >= 40


@pytest.mark.parametrize("n, label, a, b", [(n, *row) for n, row in enumerate(MERGE)])
def test_spelling_and_abbreviation_variants_merge(graph, n, label, a, b):
    ca, cb = concepts(graph, f"{n}a", label), concepts(graph, f"{n}b", label)
    assert ca and cb, f"{a!r} or {b!r} was not extracted as {label}"
    assert ca == cb


@pytest.mark.parametrize("n, label, a, b", [(n + len(MERGE), *row) for n, row in enumerate(APART)])
def test_different_things_stay_apart(graph, n, label, a, b):
    ca, cb = concepts(graph, f"{n}a", label), concepts(graph, f"{n}b", label)
    assert ca and cb, f"{a!r} or {b!r} was not extracted as {label}"
    assert not ca & cb


@pytest.mark.parametrize("a, b, same", [
    ("OPT-1.3B", "OPT-13B", False), ("Qwen2.5-7B", "Qwen2-57B", False), ("SQuAD 1.1", "SQuAD1.1", True),
    ("DeiT-S", "DeiT", False), ("YOLOv5s", "YOLOv5", False), ("ConvNeXt-S", "ConvNeXt", False),
    ("ResNets", "ResNet", True), ("LLMs", "LLM", True), ("Transformers", "transformer", True),
    ("Polyak-Łojasiewicz", "Polyak-Lojasiewicz", True), ("Gödel", "Godel", True),  # (Ł has no decomposition)
    # Unicode's dashes, quotes and spaces are punctuation as ASCII's are; other scripts' letters stay
    ("Hamilton–Jacobi–Bellman", "Hamilton-Jacobi-Bellman", True), ("Q\u2010learning", "Q-learning", True),
    ("\u201cBERT\u201d", "BERT", True), ("θ-learning", "learning", False), ("ResNet\u221250", "ResNet-50", True),
    ("Fisher\u2019s", "Fisher's", True), ("1\u00b75", "15", False),
])
def test_concept_keys_keep_number_dots_and_size_letters(a, b, same):
    from kg.schema import concept_key

    assert (concept_key(a) == concept_key(b)) is same



def _ex(pid: str, label: str, name: str, extractor: str = "model"):
    from kg.model import Extraction, Mention, Span

    return Extraction(pid, [Mention(0, len(name), label, name, name, extractor, Span(0, len(name)))])


def test_a_name_ending_in_a_short_form_is_the_concept_that_spells_it_out():
    from kg.build.resolve import resolve

    from kg.model import Extraction, Mention, Span

    rl = Extraction("a", [Mention(0, 22, "TASK", "reinforcement learning", "reinforcement learning", "gazetteer",
                                  Span(0, 30)),
                          Mention(24, 26, "TASK", "RL", "reinforcement learning", "abbreviation", Span(0, 30))])
    exs = [rl, _ex("b", "TASK", "multi-agent RL"), _ex("c", "METHOD", "multi-agent reinforcement learning"),
           _ex("d", "TASK", "multi-agent reinforcement learning"), _ex("e", "TASK", "multi-agent systems")]
    res = resolve(exs)
    joined = res.concept_for("TASK", "multi-agent RL")
    assert joined is res.concept_for("TASK", "multi-agent reinforcement learning") and joined.papers == 3
    assert res.concept_for("TASK", "multi-agent systems") is not joined


@pytest.mark.parametrize("named, headed, kept", [
    ("expectation-maximization", "expectation-maximization algorithm", "expectation-maximization"),
    ("CTC", "CTC Loss", "CTC"), ("Mixture of Experts", "mixture of expert models", "Mixture of Experts"),
    ("cross-entropy loss", "cross entropy", "cross-entropy loss"),  # (the name of most papers keeps both)
    ("expectation\u2013maximization", "expectation-maximization algorithm", "expectation\u2013maximization"),
])
def test_a_name_with_a_kind_word_after_it_is_the_concept_without_it(named, headed, kept):
    from kg.build.resolve import resolve

    exs = [_ex("a", "METHOD", named), _ex("b", "METHOD", headed)]
    if kept == "cross-entropy loss":
        exs.append(_ex("c", "METHOD", named))
    res = resolve(exs)
    joined = res.concept_for("METHOD", named)
    assert joined is res.concept_for("METHOD", headed) and joined.name == kept


@pytest.mark.parametrize("a, b", [("ReLU", "ReLU networks"), ("value iteration", "Value Iteration Networks"),
                                  ("LLM", "LLM agents"), ("PCs", "PC algorithm"),
                                  ("LoCaL", "local training")])
def test_a_thing_built_on_a_method_and_another_spelling_stay_apart(a, b):
    from kg.build.resolve import resolve

    res = resolve([_ex("a", "METHOD", a), _ex("b", "METHOD", b)])
    assert res.concept_for("METHOD", a) is not res.concept_for("METHOD", b)


def test_a_name_read_as_two_labels_gets_the_label_most_papers_give_it():
    from kg.build.resolve import resolve

    exs = [_ex("a", "TASK", "reinforcement learning"), _ex("b", "TASK", "reinforcement learning"),
           _ex("c", "METHOD", "reinforcement learning")]
    res = resolve(exs)
    assert res.concept_for("METHOD", "reinforcement learning") is res.concept_for("TASK", "reinforcement learning")
    concept = res.concept_for("METHOD", "reinforcement learning")
    assert (concept.label, concept.papers) == ("TASK", 3)


def test_the_vocabularys_reading_outweighs_more_papers():
    from kg.build.resolve import resolve

    exs = [_ex("a", "TASK", "dropout"), _ex("b", "TASK", "dropout"), _ex("c", "METHOD", "dropout", "gazetteer")]
    assert resolve(exs).concept_for("TASK", "dropout").label == "METHOD"


def test_a_short_name_and_a_spelled_out_one_of_two_labels_vote_when_their_forms_meet():
    from kg.model import Extraction, Mention, Span
    from kg.build.resolve import resolve

    def uses(pid, label, text, canonical):
        return Extraction(pid, [Mention(0, len(text), label, text, canonical, "gazetteer", Span(0, len(text)))])

    # "MDP" as a method, once written out as "Markov decision process"; "Markov decision processes" as a task
    exs = [uses("a", "METHOD", "MDP", "MDP"), uses("b", "METHOD", "Markov decision process", "MDP"),
           uses("c", "METHOD", "MDP", "MDP"), uses("d", "TASK", "Markov decision processes", "Markov decision processes"),
           uses("e", "METRIC", "MAE", "mean absolute error"), uses("f", "METHOD", "MAE", "Masked Autoencoder")]
    res = resolve(exs)
    mdp = res.concept_for("METHOD", "MDP")
    assert res.concept_for("TASK", "Markov decision processes") is mdp and (mdp.label, mdp.papers) == ("METHOD", 4)
    metric, method = res.concept_for("METRIC", "mean absolute error"), res.concept_for("METHOD", "Masked Autoencoder")
    assert "MAE" in metric.aliases and "MAE" in method.aliases and metric is not method  # a short form alone: apart


def test_a_benchmark_named_after_its_task_is_not_the_task():
    from kg.model import Extraction, Mention, Span
    from kg.build.resolve import resolve

    long = "Science Question Answering"
    benchmark = Extraction("a", [Mention(0, len(long), "DATASET", long, "ScienceQA", "proposed", Span(0, 40)),
                                 Mention(28, 37, "DATASET", "ScienceQA", "ScienceQA", "proposed", Span(0, 40))])
    exs = [benchmark, _ex("b", "TASK", "science question answering"), _ex("c", "TASK", "science question answering")]
    res = resolve(exs)
    dataset, task = res.concept_for("DATASET", "ScienceQA"), res.concept_for("TASK", "science question answering")
    assert dataset is not task and (dataset.label, task.label) == ("DATASET", "TASK")


def test_outvoted_mentions_link_to_the_winning_concept_with_their_reading_in_the_evidence():
    from kg.build.elements import paper_elements
    from kg.model import Paper
    from kg.build.resolve import resolve

    exs = [_ex("a", "TASK", "reinforcement learning"), _ex("b", "TASK", "reinforcement learning"),
           _ex("c", "METHOD", "reinforcement learning")]
    res = resolve(exs)
    _, edges = paper_elements(Paper("c", "reinforcement learning"), exs[2], res)
    (_, target, rel, data), = edges
    assert (target, rel) == ("task:reinforcementlearning", "ADDRESSES")
    assert data["evidence"][0]["read_as"] == "METHOD"


def test_a_reading_from_a_words_shape_alone_loses_the_vote_to_any_other():
    from kg.model import Extraction, Mention, Span
    from kg.build.resolve import resolve

    def read(pid, label, extractor):
        return Extraction(pid, [Mention(0, 4, label, "Sr3D", "Sr3D", extractor, Span(0, 4))])

    # "Sr3D" a dataset by the context of one paper, a method by its shape alone in another ("Nr3D, Sr3D, ...")
    res = resolve([read("a", "METHOD", "name"), read("b", "DATASET", "context")])
    assert res.concept_for("METHOD", "Sr3D").label == "DATASET"
    res = resolve([read("a", "METHOD", "name"), read("b", "METHOD", "name"), read("c", "DATASET", "context")])
    assert res.concept_for("METHOD", "Sr3D").label == "DATASET"  # however many papers the shape has
    res = resolve([read("a", "METHOD", "model"), read("b", "DATASET", "context")])
    assert res.concept_for("METHOD", "Sr3D").label == "METHOD"  # (a tie of two readings: the label's order)


def test_one_short_form_with_two_long_forms_of_two_labels_stays_two_concepts():
    from kg.model import Extraction, Mention, Span
    from kg.build.resolve import resolve

    def defined(pid, label, long):
        ex = Extraction(pid, [Mention(0, 2, label, "DA", long, "abbreviation", Span(0, 2)),
                              Mention(3, 3 + len(long), label, long, long, "abbreviation", Span(0, 2))])
        ex.aliases = {long: ["DA"]}
        return ex

    res = resolve([defined("a", "METHOD", "data augmentation"), defined("b", "TASK", "domain adaptation"),
                   defined("c", "TASK", "domain adaptation")])
    assert res.concept_for("METHOD", "data augmentation").name == "data augmentation"
    assert res.concept_for("TASK", "domain adaptation").name == "domain adaptation"
    assert res.concept_for("METHOD", "data augmentation") is not res.concept_for("TASK", "domain adaptation")


def test_long_forms_of_one_short_form_written_with_another_ending_are_one_concept():
    from kg.build.resolve import resolve
    from kg.model import Extraction, Mention, Span

    def defined(pid, label, long, short):
        ex = Extraction(pid, [Mention(0, 2, label, short, long, "abbreviation", Span(0, 2)),
                              Mention(3, 3 + len(long), label, long, long, "abbreviation", Span(0, 2))])
        ex.aliases = {long: [short]}
        return ex

    def names(*papers):
        return sorted((c.name, c.papers) for c in resolve(list(papers)).concepts.values())

    assert len(names(defined("a", "METHOD", "generalized advantage estimator", "GAE"),
                     defined("b", "METHOD", "generalized advantage estimation", "GAE"))) == 1
    assert len(names(defined("a", "METHOD", "Markov Decisions Processes", "MDP"),
                     defined("b", "METHOD", "Markov decision processes", "MDP"))) == 1
    # other words: two things (one short form for both)
    assert len(names(defined("a", "TASK", "semi-supervised learning", "SSL"),
                     defined("b", "TASK", "self-supervised learning", "SSL"))) == 2
    assert len(names(defined("a", "TASK", "offline reinforcement learning", "RL"),
                     defined("b", "TASK", "reinforcement learning", "RL"))) == 2
    assert len(names(defined("a", "METRIC", "in-distribution accuracy", "ID"),
                     defined("b", "METRIC", "out-of-distribution accuracy", "ID"))) == 2


def test_a_papers_definition_of_a_vocabulary_short_form_as_another_thing_is_another_concept():
    """Q-ViT's "information rectification module (IRM)" is not the vocabulary's IRM, Invariant Risk Minimization,
    which two other papers name; a paper spelling the letters as the vocabulary does ("Physics-Informed Neural
    Network (PINN)") joins the vocabulary's concept however another paper defines them ("polynomial integer neural
    networks (PINNs)")."""
    from kg.model import Extraction, Mention, Span
    from kg.build.resolve import resolve

    def named(pid, short, long, extractor, proposed=False):
        ex = Extraction(pid, [Mention(0, len(short), "METHOD", short, short, extractor, Span(0, 9), proposed)])
        ex.aliases = {short: [long]} if long else {}
        return ex

    def papers(res):
        return {c.name: c.papers for c in res.concepts.values()}

    res = resolve([named("qvit", "IRM", "information rectification module", "proposed", True),
                   named("b", "IRM", "Invariant Risk Minimization", "gazetteer"), named("c", "IRM", "", "gazetteer")])
    assert papers(res) == {"IRM": 2, "information rectification module": 1}
    res = resolve([named("a", "PINNs", "polynomial integer neural networks", "proposed", True),
                   named("b", "PINN", "Physics-Informed Neural Network", "abbreviation"),
                   named("c", "PINN", "", "gazetteer")])
    assert papers(res) == {"Physics-Informed Neural Network": 2, "polynomial integer neural networks": 1}


def _own(pid: str, short: str, long: str, *, other: str = ""):
    """A paper defining its own short form: "Ladder Side-Tuning (LST) ... LST", optionally mentioning ``other``."""
    from kg.model import Extraction, Mention, Span

    mentions = [Mention(0, len(long), "METHOD", long, short, "proposed", Span(0, 9), proposed=True),
                Mention(20, 23, "METHOD", short, short, "proposed", Span(0, 9), proposed=True)]
    if other:
        mentions.append(Mention(30, 30 + len(other), "METHOD", other, other, "model", Span(0, 9)))
    ex = Extraction(pid, mentions)
    ex.aliases = {short: [long]}
    return ex


def test_two_long_forms_of_one_short_form_are_two_concepts_named_by_their_long_forms():
    from kg.build.elements import paper_elements
    from kg.build.resolve import defined_short_forms, resolve
    from kg.model import Paper

    a, b = _own("a", "LST", "Ladder Side-Tuning"), _own("b", "LST", "Local Sequence Transformer")
    res = resolve([a, b])
    la = res.concept_for("METHOD", "LST", defined_short_forms(a))
    lb = res.concept_for("METHOD", "LST", defined_short_forms(b))
    assert la is not lb and (la.name, lb.name) == ("Ladder Side-Tuning", "Local Sequence Transformer")
    _, edges = paper_elements(Paper("a", "x"), a, res)
    assert [(t, r) for _, t, r, _ in edges] == [("method:laddersidetuning", "PROPOSES")]


def test_a_short_form_defined_one_way_is_one_concept_with_the_papers_that_only_use_it():
    from kg.build.resolve import defined_short_forms, resolve

    a = _own("a", "LST", "Ladder Side-Tuning")
    c = _ex("c", "METHOD", "LST")
    res = resolve([a, c, _own("d", "LST", "ladder side-tuning")])
    concept = res.concept_for("METHOD", "LST", defined_short_forms(a))
    assert concept is res.concept_for("METHOD", "LST") and concept.papers == 3 and concept.name == "LST"


def test_a_short_form_written_in_another_case_than_a_vocabulary_name_is_another_concept():
    from kg.build.resolve import defined_short_forms, resolve

    adam = _own("a", "AdAM", "Adaptation-Aware kernel Modulation")
    lora = _own("d", "LoRA", "Low-Rank Adaptation")  # written as the vocabulary writes it: the entry
    exs = [adam, _ex("b", "METHOD", "Adam", "gazetteer"), _ex("c", "METHOD", "Adam", "gazetteer"), lora,
           _ex("e", "METHOD", "LoRA", "gazetteer")]
    res = resolve(exs)
    own, optimizer = res.concept_for("METHOD", "AdAM", defined_short_forms(adam)), res.concept_for("METHOD", "Adam")
    assert own is not optimizer and (own.name, own.papers, optimizer.papers) == (
        "Adaptation-Aware kernel Modulation", 1, 2)
    assert res.concept_for("METHOD", "LoRA", defined_short_forms(lora)) is res.concept_for("METHOD", "LoRA")


def _proposes(pid: str, name: str):
    """A paper proposing ``name`` without spelling it out (a title's "SnAKe: Bayesian Optimization with ...")."""
    from kg.model import Extraction, Mention, Span

    return Extraction(pid, [Mention(0, len(name), "METHOD", name, name, "proposed", Span(0, 9), proposed=True)])


def test_a_short_form_a_paper_proposes_is_no_other_papers_definition_of_its_letters():
    from kg.build.elements import paper_elements
    from kg.build.resolve import defined_short_forms, resolve
    from kg.model import Paper

    cup = _own("a", "CUP", "Critic-Guided Policy Reuse")
    other = _proposes("b", "CUP")  # another method, whose abstract never spells it out
    res = resolve([cup, other])
    assert res.concept_for("METHOD", "CUP", defined_short_forms(cup)).name == "Critic-Guided Policy Reuse"
    assert res.concept_for("METHOD", "CUP", defined_short_forms(other)).name == "CUP"
    _, edges = paper_elements(Paper("b", "x"), other, res)
    assert [(t, r) for _, t, r, _ in edges] == [("method:cup", "PROPOSES")]


def test_two_papers_own_names_in_other_case_are_two_concepts_and_each_name_finds_its_own():
    from kg.build.elements import paper_elements
    from kg.build.resolve import defined_short_forms, resolve
    from kg.concept_names import AmbiguousConcept, match_concept
    from kg.model import Paper

    snake, bo = _proposes("a", "SNAKE"), _proposes("b", "SnAKe")
    gans = [_proposes("c", "GANs"), _proposes("d", "GAN")]  # a plural is the same name
    res = resolve([snake, bo, *gans])
    a, b = (res.concept_for("METHOD", n, defined_short_forms(e)) for n, e in (("SNAKE", snake), ("SnAKe", bo)))
    assert a is not b and {a.key, b.key} == {"snake", "snake-SnAKe"}
    ids = {ex.paper_id: [t for _, t, _, _ in paper_elements(Paper(ex.paper_id, "x"), ex, res)[1]]
           for ex in (snake, bo)}
    assert ids == {"a": ["method:snake"], "b": ["method:snake-SnAKe"]}
    concepts = [(c.key, f"method:{c.key}", c.name, c.aliases) for c in res.concepts.values()]
    assert match_concept(concepts, "Method", "SnAKe") == "snake-SnAKe"
    assert match_concept(concepts, "Method", "SNAKE") == "snake"
    with pytest.raises(AmbiguousConcept):  # spelled as neither: both listed
        match_concept(concepts, "Method", "snake")
    assert len({res.concept_for("METHOD", n, defined_short_forms(e)).key for n, e in zip(("GANs", "GAN"), gans)}) == 1
    # two papers' SNAKE and one paper's SnAKe: one concept per spelling, the one of most papers keyed plainly, in
    # any order of the papers
    for order in ([bo, snake, _proposes("e", "SNAKE")], [_proposes("e", "SNAKE"), snake, bo]):
        res = resolve(order)
        keys = {c.name: (c.key, c.papers) for c in res.concepts.values()}
        assert keys == {"SNAKE": ("snake", 2), "SnAKe": ("snake-SnAKe", 1)}


def test_long_forms_joined_by_hyphens_or_holding_the_short_forms_letters_define_it():
    """"Meta-Auto-Decoder (MAD)" and "Momentum Adversarial Distillation (MAD)" ("momentuMADversarial") are two
    concepts; a title's "Meta-Reward-Net" and the abstract's "Meta-Reward-Net (MRN)" are one."""
    from kg.build.resolve import defined_short_forms, resolve

    a, b = _own("a", "MAD", "Meta-Auto-Decoder"), _own("b", "MAD", "Momentum Adversarial Distillation")
    assert defined_short_forms(a) and defined_short_forms(b)
    res = resolve([a, b])
    assert {res.concept_for("METHOD", "MAD", defined_short_forms(x)).name for x in (a, b)} == {
        "Meta-Auto-Decoder", "Momentum Adversarial Distillation"}
    titled = _own("c", "MRN", "Meta-Reward-Net", other="Meta-Reward-Net")
    titled.aliases["Meta-Reward-Net"] = ["Meta-Reward-Net"]  # (the title's mention, its own only form)
    res = resolve([titled])
    assert res.concept_for("METHOD", "MRN", defined_short_forms(titled)) is res.concept_for("METHOD", "Meta-Reward-Net")
    assert len(res.concepts) == 1


def test_a_short_form_with_a_word_attached_is_no_long_form():
    from kg.build.resolve import _spelled_out

    assert _spelled_out("Meta-Auto-Decoder") and _spelled_out("Ladder Side-Tuning")
    assert not _spelled_out("SPS-Conv") and not _spelled_out("GPT-3") and not _spelled_out("Ladder (LST)")


def test_concepts_named_alike_are_one_node():
    """A node's id is its label and its name's key, so two concepts never share a name. "IRM" has two long forms in
    the corpus; the paper that defines it as "invariant risk minimization" and the paper whose vocabulary entry
    IRM is spelled "Invariant Risk Minimization" name one concept."""
    from kg.build.resolve import defined_short_forms, resolve
    from kg.model import Extraction, Mention, Span

    def uses(pid, text, extractor, long):
        ex = Extraction(pid, [Mention(0, len(text), "METHOD", text, "IRM", extractor, Span(0, 9))])
        ex.aliases = {"IRM": [long]}
        return ex

    own = _own("a", "IRM", "information rectification module")
    defines = uses("b", "invariant risk minimization", "abbreviation", "invariant risk minimization")
    knows = uses("c", "Invariant Risk Minimization", "gazetteer", "Invariant Risk Minimization")
    res = resolve([own, defines, knows])
    ids = [(c.label, c.key) for c in res.concepts.values()]
    assert len(ids) == len(set(ids))
    joined = res.concept_for("METHOD", "IRM", defined_short_forms(defines))
    assert joined is res.concept_for("METHOD", "IRM", defined_short_forms(knows)) and joined.papers == 2
    assert res.concept_for("METHOD", "IRM", defined_short_forms(own)) is not joined


def test_a_name_capitalised_by_its_sentence_is_shown_in_lower_case():
    from kg.build.resolve import without_sentence_capital

    assert without_sentence_capital("Online imitation learning") == "online imitation learning"
    assert without_sentence_capital("Single-cell RNA sequencing") == "single-cell RNA sequencing"
    assert without_sentence_capital("Gradual domain adaptation") == "gradual domain adaptation"  # an adjective few abstracts use
    for name in ("Gaussian processes", "Thompson sampling", "Knowledge Transfer", "Okapi", "Linear Time-Invariant",
                 "Euclidean k-means", "Dirichlet processes", "Arabic text classification"):  # (a people's, a language's)
        assert without_sentence_capital(name) == name  # names keep their capitals


def test_a_name_mixing_a_titles_capitals_with_lower_case_is_shown_in_lower_case():
    from kg.build.resolve import without_title_case

    assert without_title_case("cross-silo Federated Learning") == "cross-silo federated learning"
    assert without_title_case("hierarchical Optimal Transport") == "hierarchical optimal transport"
    assert without_title_case("Reinforcement Learning formulation") == "reinforcement learning formulation"
    assert without_title_case("Cross-Entropy loss function") == "cross-entropy loss function"
    for name in ("Markov Chain Monte Carlo sampling", "localized Gaussian Processes",  # a name's capitals stay
                 "Mixture of Experts", "Federated Learning", "Temporal U-Net", "GAN training",  # no lower-case word
                 "Mean Teacher model", "multi-scale vision Transformer",  # names the vocabulary writes so
                 "SHAdow Knowledge transfer", "common source CoordInated GAN"):  # capitals spelling a short form
        assert without_title_case(name) == name


def test_a_concept_written_in_a_titles_capitals_is_named_in_lower_case_in_the_graph():
    from kg.build.resolve import resolve

    res = resolve([_ex("p", "METHOD", "Functional Linear Regression model")])
    assert [c.name for c in res.concepts.values()] == ["functional linear regression model"]


def test_resolution_loads_no_spacy_component():
    import subprocess
    import sys
    from pathlib import Path

    code = "import sys, kg.build.resolve; print([m for m in sys.modules if m.split('.')[0] == 'spacy'])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parents[1]).stdout
    assert out.strip() == "[]"  # (the specificity component costs spaCy's import, ~0.5 s)


def test_the_lexicons_adjective_test_is_the_specificity_components():
    from kg.nlp import lexicon
    from kg.nlp.components.specificity import load_specificity

    spec = load_specificity()
    words = {*spec.adjective_nouns, *spec.adjective_words, *spec.common_words, *spec.generic_words}
    words |= {"x" + ending for ending in spec.adjective_endings}
    assert [w for w in sorted(words) if lexicon.adjective(w) != spec.adjective(w)] == []
    assert lexicon.adjective("convex") and not lexicon.adjective("retrieval")


def test_a_vocabulary_name_keeps_its_spelling_at_a_sentence_start():
    from kg.build.resolve import resolve

    names = {c.name for c in resolve([_ex("p", "METHOD", "Mask R-CNN", "gazetteer"),
                                      _ex("q", "TASK", "Online imitation learning")]).concepts.values()}
    assert names == {"Mask R-CNN", "online imitation learning"}


def test_a_word_list_file_with_a_key_given_twice_is_refused(tmp_path, monkeypatch):
    from kg.nlp import lexicon

    (tmp_path / "x.json").write_text('{"lists": {"a": {"about": "", "words": []}, "a": {"about": "", "words": []}}}')
    monkeypatch.setattr(lexicon, "DATA", tmp_path)
    lexicon._lists.cache_clear()
    try:
        with pytest.raises(ValueError, match="given twice"):
            lexicon._lists()
    finally:
        lexicon._lists.cache_clear()


def test_a_long_form_spelling_its_letters_in_capitals_is_shown_as_a_sentence_writes_it():
    from kg.build.resolve import resolve

    res = resolve([_ex("a", "METHOD", "local impliCit functiOns"), _ex("b", "METHOD", "itErative Active SEt"),
                   _ex("c", "METHOD", "iFormer"), _ex("d", "TASK", "Trigonometry-Aware Neural networKs")])
    assert sorted(c.name for c in res.concepts.values()) == [
        "Trigonometry-Aware Neural networks", "iFormer", "iterative active set", "local implicit functions"]


@pytest.mark.parametrize("name, expected", [
    ("meta-reinforcement learning", "meta reinforcement learning"),
    ("chain-of-thought prompting", "chain of thought prompting"),
    ("speed-up", ""),  # one word: "speed up" is a verb phrase
    ("k-nearest neighbor", ""),  # a letter alone
    ("Mask R-CNN", ""),
    ("gradient descent", ""),  # no hyphen
])
def test_a_hyphenated_name_of_several_words_is_spaced(name, expected):
    from kg.schema import spaced

    assert spaced(name) == expected
