"""The extraction pipeline on small real sentences: each rule, one behaviour per test."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.model import Paper
from kg.nlp.pipeline import load_pipeline
from kg.nlp.extract import extract

SEEDS = sorted((Path(__file__).parents[1] / "examples" / "icml").glob("*.txt"))


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


def mentions(nlp, text):
    return nlp(text)._.kg_mentions


def by_label(nlp, text, label):
    return {m.canonical for m in mentions(nlp, text) if m.label == label}


def proposed(nlp, text):
    return {m.canonical for m in mentions(nlp, text) if m.proposed}


@pytest.mark.parametrize("name", ["NTK-Selector", "Llama3-8B-Instruct", "COCO-C", "E-SUOT", "DeR-Mamba", "LinearTCA+", "Office31",
                                  "COCO-Stuff-10K", "ADE20K", "LAION-400M", "YOLOv5m"])
def test_tokenizer_keeps_ml_names_whole(nlp, name):
    doc = nlp.make_doc(f"We compare {name}, which is strong.")
    assert name in [t.text for t in doc]


@pytest.mark.parametrize("name", ["ImageNet-C", "CIFAR-10-C", "GSM8K", "ImageNet-1K", "SimplE"])
def test_the_tokenizer_splits_a_full_stop_after_a_name_ending_in_a_capital(nlp, name):
    tokens = [t.text for t in nlp.make_doc(f"We evaluate on {name}. It is hard.")]
    stop = tokens.index(".")
    assert tokens[3:stop] == [name] and tokens[stop + 1] == "It"


def test_a_unit_after_a_bare_number_is_split_but_not_inside_a_name(nlp):
    tokens = [t.text for t in nlp.make_doc("We train on 10K images with 4GB, then test on COCO-Stuff-10K.")]
    assert tokens[3:5] == ["10", "K"] and tokens[7:9] == ["4", "GB"] and "COCO-Stuff-10K" in tokens


def test_a_known_name_with_its_unit_written_apart_is_found(nlp):
    doc = nlp("We train on an even larger dataset, JFT-300 M, and on JFT-300M again.")
    assert [(e.text, e.label_) for e in doc.ents] == [("JFT-300 M", "DATASET"), ("JFT-300M", "DATASET")]


@pytest.mark.parametrize("text, mention, name", [
    ("Results on WMT2014 English-French are strong.", "WMT2014 English-French", "WMT14 En-Fr"),
    ("On WMT 2014 English to German, it is best.", "WMT 2014 English to German", "WMT14 En-De"),
    ("We also report WMT16 English-Czech.", "WMT16 English-Czech", "WMT16 En-Cs"),  # not in the vocabulary
    ("We also report WMT17 en-de.", "WMT17 en-de", "WMT17 En-De"),  # named one way however written
    ("We use WMT 2014 English–German here.", "WMT 2014 English–German", "WMT14 En-De"),
    ("We also report WMT14 En/De.", "WMT14 En/De", "WMT14 En-De"),
])
def test_a_dataset_with_its_language_pair_is_one_dataset(nlp, text, mention, name):
    found = [(m.text, m.canonical) for m in nlp(text)._.kg_mentions if m.label == "DATASET"]
    assert found == [(mention, name)]


@pytest.mark.parametrize("text, found", [
    ("On the WMT 2014 English-to-French translation task, our model establishes a new state of the art.",
     {("WMT14 En-Fr", "DATASET")}),  # (translation alone is no concept)
    ("We evaluate on the MNIST digit recognition task.", {("MNIST", "DATASET"), ("digit recognition", "TASK")}),
    ("It pushes SQuAD v1.1 question answering Test F1 to 93.2.",  # (not a task "v1.1 question answering")
     {("SQuAD 1.1", "DATASET"), ("question answering", "TASK"), ("F1 score", "METRIC")}),
    ("We report results on the COCO object detection dataset.", {("COCO", "DATASET"), ("object detection", "TASK")}),
])
def test_a_known_dataset_before_its_task_is_the_dataset_then_the_task(nlp, text, found):
    assert {(m.canonical, m.label) for m in nlp(text)._.kg_mentions if not m.generic} == found


def test_a_concept_read_as_method_and_task_takes_the_vocabularys_label(nlp):
    doc = nlp("Recursive Reinforcement Learning. As state-of-the-art reinforcement learning (RL) algorithms cannot "
              "directly reason about recursion, they must rely on the practitioner's ingenuity. We develop RL "
              "algorithms capable of computing optimal policies in environments described as a collection of Markov "
              "decision processes.")
    labels = {m.label for m in doc._.kg_mentions if m.canonical == "reinforcement learning" and not m.generic}
    assert labels == {"TASK"}
    assert [(e.start_char, e.label_) for e in doc.ents] == [(m.start, m.label) for m in doc._.kg_mentions]  # as
    # the mentions end up labelled


def test_a_short_form_used_without_definition_names_the_concept_the_paper_spells_out(nlp):
    from kg.model import Paper
    from kg.nlp.extract import extract

    def concepts(title: str, text: str) -> tuple[set[tuple[str, str]], set[str]]:
        [(_, ex)] = list(extract([Paper("p", text, title=title)], nlp))
        return {(m.canonical, m.label) for m in ex.mentions}, {m.canonical for m in ex.mentions if m.proposed}

    found, own = concepts("RSA: Reducing Semantic Shift for Self-supervised Learning",
                          "To address this problem, we propose a new SSL paradigm that counteracts semantic shift.")
    assert ("self-supervised learning", "TASK") in found and "SSL" not in {n for n, _ in found} and "SSL" not in own
    found, _ = concepts("FooNet", "We train FooNet with stochastic gradient directions and report SGD results.")
    assert ("SGD", "METHOD") in found  # the vocabulary's SGD, against a phrase it does not know


def test_a_known_word_in_an_idiom_names_nothing(nlp):
    found = {m.canonical for m in nlp("Optimal transport has gained momentum in the community.")._.kg_mentions}
    assert "momentum" not in found and "optimal transport" in found
    assert "momentum" in {m.canonical for m in nlp("We train it with SGD and momentum.")._.kg_mentions}


@pytest.mark.parametrize("text, task", [
    ("Chinchilla outperforms Gopher (280B) and Megatron-Turing NLG (530B) on many tasks.", None),
    ("It beats Jurassic-1 NLG and GPT-3 on many tasks.", None),
    ("Off-Policy RL is hard when rewards are sparse.", "Off-Policy RL"),  # capitalised common words: a kind of RL
    ("Our model improves English-German NMT quality.", "neural machine translation"),  # languages
    ("It improves Chinese NER and parsing.", "named entity recognition"),
    ("We train Kazakh-English NMT systems on low-resource data.", "neural machine translation"),  # one known language
    ("We study Monte Carlo RL for continuous control.", "reinforcement learning"),  # after a known name
])
def test_a_tasks_short_form_ending_a_proper_name_is_the_names(nlp, text, task):
    tasks = by_label(nlp, text, "TASK")
    assert "natural language generation" not in tasks
    assert task is None or task in tasks


def test_a_titles_verb_before_the_task_it_helps_names_no_method(nlp):
    from kg.model import Paper
    from kg.nlp.extract import extract

    def methods(title: str) -> set[str]:
        [(_, ex)] = list(extract([Paper("p", "We study it on benchmarks.", title=title)], nlp))
        return {m.canonical for m in ex.mentions if m.label == "METHOD"}

    assert "boosting" not in methods("MoGDE: Boosting Mobile Monocular 3D Object Detection with Ground Depth")
    assert "boosting" not in methods("Boosting Out-of-distribution Detection with Typical Features")
    assert "boosting" in methods("A Boosting Approach to Reinforcement Learning")
    assert "pre-training" in methods("Large-scale Pretraining for Text-to-Video Generation")  # a noun there


def test_a_bracketed_aside_opens_no_name(nlp):
    text = "Search methods combined with Deep Neural Networks' (DNN) heuristics have shown promising progress."
    assert not any(m.text.startswith("(") for m in nlp(text)._.kg_mentions)


def test_an_unknown_name_with_a_unit_is_one_dataset(nlp):
    doc = nlp("Comprehensive experiments on the challenging COCO-Stuff-10K and ADE20K datasets show it.")
    assert {(e.text, e.label_) for e in doc.ents} >= {("COCO-Stuff-10K", "DATASET"), ("ADE20K", "DATASET")}


def test_tokenizer_splits_a_parenthesis_glued_to_a_name(nlp):
    assert [t.text for t in nlp.make_doc("ScanObjectNN(PB-T50-RS)")] == ["ScanObjectNN", "(", "PB-T50-RS", ")"]


@pytest.mark.parametrize("text, name", [
    ("Our algorithms satisfy ε-differential privacy.", "differential privacy"),
    ("Both satisfy (ε, δ)-differential privacy under composition.", "differential privacy"),
    ("We analyse ε-greedy exploration in deep RL.", "ε-greedy"),  # a name with its symbol stays whole
])
def test_a_symbol_glued_by_a_hyphen_leaves_the_name_after_it_readable(nlp, text, name):
    found = {m.canonical for m in nlp(text)._.kg_mentions if m.label == "METHOD"}
    assert any(f == name or f.startswith(name + " ") for f in found), found


@pytest.mark.parametrize("text, found", [
    ("We evaluate on semantic and instance segmentation.", {"semantic segmentation", "instance segmentation"}),
    ("It unifies reinforcement and imitation learning.", {"reinforcement learning", "imitation learning"}),
    ("We report top-1 and top-5 accuracy of 80.1% and 95.2%.", {"top-1 accuracy", "top-5 accuracy"}),
    # the second name is no known name of the same kind: no shared word
    ("We keep data decentralized and pushing the learning of bandit models to clients.", set()),
    ("We look at the difference between the language and the summarization model.", set()),
])
def test_two_names_sharing_their_last_word_are_both_found(nlp, text, found):
    names = {m.canonical for m in nlp(text)._.kg_mentions if not m.generic and m.label != "DATASET"}
    assert names & {"semantic segmentation", "instance segmentation", "reinforcement learning", "imitation learning",
                    "top-1 accuracy", "top-5 accuracy", "decentralized learning", "language models"} == found


def test_abbreviation_pair_is_one_concept_with_both_forms(nlp):
    doc = nlp("Our proposed method, Domain-aware Ensemble Distillation (DomED), is evaluated widely. DomED is fast.")
    ms = [m for m in doc._.kg_mentions if m.canonical == "DomED"]
    assert {m.text for m in ms} == {"Domain-aware Ensemble Distillation", "DomED"}
    assert len(ms) == 3


@pytest.mark.parametrize("text, pair", [
    ("We propose Automated Auxiliary Loss Search (A2LS) for RL.", ("A2LS", "Automated Auxiliary Loss Search")),
    ("We propose a Low-Level Layer Lifting Attack (L4A) here.", ("L4A", "Low-Level Layer Lifting Attack")),
    ("We present Paraphrasing-to-Captioning (P2C), a two-stage approach.", ("P2C", "Paraphrasing-to-Captioning")),
    ("We propose Plan To Predict (P2P), a method.", ("P2P", "Plan To Predict")),  # the shortest reading
    ("It lowers the false positive rate (FPR95) by half.", ("FPR95", "false positive rate")),
    ("We propose a novel Multi-modal Grouping Network, namely MGN, for grouping.",
     ("MGN", "Multi-modal Grouping Network")),
    ("We thus propose a novel semantic FIeld REepresentation, called FIRE, for words.",
     ("FIRE", "FIeld REepresentation")),
    ("We design a novel Subgraph GNN dubbed SUN, which works.", None),  # its capitals spell no SUN
    ("We evaluate on text (Text8) and more.", None),  # a name with a number, not an acronym numbered
    ("It is the matching problem of Feng, Niazadeh, and Saberi (SODA '21) in a new setting.", None),
    ("We propose a dataset named Glass Surface Detection - Semantics ('GSD-S'), which has 4,519 images.",
     ("GSD-S", "Glass Surface Detection - Semantics")),  # the short form without its quotes
    ("We find the General grAph augMEntation (GAME) rule for GCL.", ("GAME", "General grAph augMEntation")),
    ("Generally, DT methods exquisitely design delta modules (DT modules) for PTMs.", ("DT modules", "delta modules")),
])
def test_an_abbreviation_with_digits_or_a_naming_word(nlp, text, pair):
    doc = nlp(text)
    pairs = [(a.short(doc).text, a.long(doc).text) for a in doc._.kg_abbreviations]
    assert pairs == ([pair] if pair else [])


def test_the_papers_own_short_form_is_not_the_vocabularys_concept_of_those_letters(nlp):
    doc = nlp("We thus propose a novel semantic FIeld REepresentation, called FIRE, for words. FIRE is fast.")
    named = {(m.canonical, m.label) for m in doc._.kg_mentions if not m.generic}
    assert ("FIRE", "METHOD") in named and ("FIRE", "DATASET") not in named


def test_reversed_abbreviation_short_form_first(nlp):
    doc = nlp("Here, we introduce sciLaMA (single-cell interpretable Language Model Adapter), a novel framework.")
    pairs = [(a.short(doc).text, a.long(doc).text) for a in doc._.kg_abbreviations]
    assert ("sciLaMA", "single-cell interpretable Language Model Adapter") in pairs


@pytest.mark.parametrize("text, name", [
    ("To address this challenge, we propose COBRA, a principled framework for rank allocation.", "COBRA"),
    ("Moreover, we propose a novel method, OTP, which learns both maps.", "OTP"),
    ("In this paper, we propose a frustratingly easy UVDA method, called MetaTrans.", "MetaTrans"),
    ("We develop Latent Exploration Score (LES) to mitigate over-exploration.", "LES"),
    ("We utilize frozen models and design a new Hybrid Attention Adapter to fuse cues.", "Hybrid Attention Adapter"),
    ("We introduce TabICL, a tabular foundation model for classification.", "TabICL"),
    # "called" names the algorithm, not the problem of the phrase that closes it
    ("We propose an upper-confidence bound LP-style algorithm for this problem, called UCB-LP, and prove it.", "UCB-LP"),
    ("In this work we introduce a novel attention procedure called staircase attention that operates across time.",
     "staircase attention"),  # a plain lower-case name after a method's head word
    ("Beyond truncation, our approximate gradient-based update rule, ModProp, propagates credit.", "ModProp"),
    ("In this paper, we build the Recommender Transformer (RETR) with a novel Pathway Attention mechanism.",
     "Pathway Attention"),
    ("We learn unified VL representations with our modality mixer (ModaMixer) and a ConvNet search.", "ModaMixer"),
    ("We propose a novel framework, FEDerated Personalized sUBgraph learning (FED-PUB), which improves GNNs.",
     "FED-PUB"),
    ("To train them, we propose differentiable logic gate networks, an architecture that combines real-valued logics.",
     "differentiable logic gate networks"),
    ("To alleviate these issues, we propose a difficulty and diversity aware attacker, namely DADA. DADA works.", "DADA"),
    ("We propose a novel framework to address this issue, which we call Recurrent Skill Training (ReST).", "ReST"),
    ("It generalizes Swish, and thus we denoted it as Adaptive SwisH (ASH). ASH highlights features.", "ASH"),
    ("We propose a zero-shot module for HGNNs called a Knowledge Transfer Network (KTN) that transfers knowledge.",
     "KTN"),
    ("We propose, OPEN, an algorithm that uses a double application of counterfactual reasoning.", "OPEN"),
    ("In this paper, we propose a faster gradient variant called quadratic gradient to implement it.",
     "quadratic gradient"),  # a variant is a method
    ("We instantiate private extensions of UCB and KL-UCB algorithms, namely AdaP-UCB and AdaP-KLUCB.", "AdaP-UCB"),
    ("We show that they approximate a different object we term the proximal Bregman response function (PBRF).",
     "PBRF"),
    ("We propose a new optimistic upper confidence bound, which we call KL-UCB++, for bandits.", "KL-UCB++"),
    ("Dubbed FooNet, our model beats baselines on ImageNet. We also prove a theorem", "FooNet"),
    ("We propose a novel score function for OOD detection, referred to as Adaptive Likelihood Ratio. It works.",
     "Adaptive Likelihood Ratio"),
    ("We propose a new loss for sparse labels, which we refer to as MagicLoss.", "MagicLoss"),
    ("This paper proposes Branch & Learn, a framework for Predict+Optimize.", "Branch & Learn"),
    ("Our main contribution is Matryoshka Representation Learning (MRL) which encodes information.", "MRL"),
    ("Our primary contribution is an exponentially faster algorithm, Barbarik3, that has a linear query complexity.",
     "Barbarik3"),
])
def test_proposed_method_patterns(nlp, text, name):
    assert name in proposed(nlp, text)


@pytest.mark.parametrize("text", [
    "To answer these, we introduce a concept called markdown dimension that measures the complexity.",
    "We propose a protocol for devices (called clients) to train a model.",
    "We propose a new assumption named unilateral concentration and design an algorithm.",
    "We present a unified analysis of two popular sampling strategies, namely Random Reshuffling (RR), which helps.",
    "For three popular graph augmentation methods, namely GAUG, MVGRL and GraphAug, we show gains.",
    "When the order is controlled by an adversary, it is called an Online Contention Resolution Scheme (OCRS).",
    "It is effective by using a prescribed state matrix called the HiPPO matrix.",
    "The method does not call the ILP solver at all at training time.",
    "Gaussian matrices satisfy a concentration inequality which we term Range Restricted WDC (R2WDC).",  # a result
    "The learned model adapts to the data in the long term without supervision.",
    "We construct Markov Decision Processes where Q-learning fails.",  # "construct" proposes only a new pair
    "We instantiate the Gumbel-Softmax Trick for discrete variables.",
])
def test_plain_words_after_called_name_no_method_unless_a_method_is_named(nlp, text):
    assert proposed(nlp, text) == set()


def test_colon_list_of_proposed_methods(nlp):
    assert proposed(nlp, "Based on this, we propose two simple yet effective algorithms: LinearTCA and LinearTCA+.") == {
        "LinearTCA", "LinearTCA+"}


@pytest.mark.parametrize("text", [
    "To address this issue, we propose a two-stage kernel ridge regression method.",
    "In this work, we propose a novel kernel-based method to align CLIP's visual representation with DINOv2.",
    "Existing methods propose COBRA for this.",
    "We propose a new Bayesian approach to active learning.",  # a modifier before the head word, not a name
    "We optimize the weights using a novel quasi-Newton method.",
    "We propose a novel MixUp-based method for calibration.",
    "Our graph neural network (GNN) is trained with Adam.",  # a known pair after "our"
    "Their main contribution is FooNet, a network for tabular data.",  # others' contribution
    "Our main contribution is to show that FooNet converges.",  # a result
    "This paper presents a novel search algorithm achieving TPU (Google Tensor Processing Unit) peak performance.",
])
def test_unnamed_or_foreign_proposals_are_not_proposed(nlp, text):
    assert proposed(nlp, text) == set()


def test_problem_introduced_by_the_authors_is_a_task_not_a_method(nlp):
    doc = nlp("Based on this, we formulate a novel problem termed Semi-Supervised Noise Adaptation (SSNA), which helps.")
    assert not any(m.proposed for m in doc._.kg_mentions)
    assert "Semi-Supervised Noise Adaptation" in {m.canonical for m in doc._.kg_mentions if m.label == "TASK"}


def test_a_list_with_two_datasets_named_in_the_abstract_names_datasets(nlp):
    text = ("Our method gains +10.22 AUROC on cross-domain evaluation over Chameleon, AIGIBench, Community Forensics, "
            "and GenImage. Results on AIGIBench and Chameleon show it.")
    datasets = {m.canonical for m in mentions(nlp, text) if m.label == "DATASET" and not m.generic}
    assert {"Community Forensics", "GenImage"} <= datasets  # AIGIBench is a dataset by the sentence after


def test_datasets_from_context_list(nlp):
    text = "Extensive experiments conducted on datasets including ScanObjectNN, ModelNet40, and ShapeNetPart demonstrate it."
    assert {"ScanObjectNN", "ModelNet40", "ShapeNetPart"} <= by_label(nlp, text, "DATASET")


def test_datasets_before_a_plural_head(nlp):
    assert {"Foo-7", "BarSet"} <= by_label(nlp, "Results on the Foo-7 and BarSet datasets are strong.", "DATASET")
    # a task's name between the list and its head word
    text = "We beat the state of the art on the challenging Nr3D, Sr3D and ScanRefer 3D object grounding datasets."
    assert {"Nr3D", "Sr3D", "ScanRefer"} <= by_label(nlp, text, "DATASET")
    # one name there says which data the task reads, and settings the text defines are no datasets
    assert "NIR-VIS" not in by_label(nlp, "We fine-tune on the target NIR-VIS face recognition datasets.", "DATASET")
    text = ("We study Universal Domain Adaptation (UniDA). We excel on three standard UniDA and Open-Set DA object "
            "recognition benchmarks.")
    assert not by_label(nlp, text, "DATASET")


def test_generic_dataset_phrases_are_not_names(nlp):
    assert by_label(nlp, "We evaluate on real-world datasets and synthetic datasets across domains.", "DATASET") == set()


def test_result_tuple_from_a_sentence(nlp):
    doc = nlp("We propose SCALE, a framework. SCALE achieves 82.3% mAP and 84.0% top-1 on the CUHK-SYSU dataset.")
    got = {(r.value, r.method, r.dataset, r.metric) for r in doc._.kg_results}
    assert ("82.3%", "SCALE", "CUHK-SYSU", "mAP") in got


@pytest.mark.parametrize("text, expected", [
    # a number in scientific notation is one value; the compared method's value after "than" is none of ours
    (r"On ImageNet, FooNet achieves an MAE of $1.897\times 10^{-3}$, better than the transformer-based approach "
     r"(MAE: $27.074\times 10^{-3}$).", {("1.897×10⁻³", "MAE")}),
    ("FooNet reaches 81.2% top-1 accuracy on ImageNet, versus 79.1% top-1 accuracy for ResNet-50.",
     {("81.2%", "top-1 accuracy")}),
    ("FooNet has 30 times fewer parameters than BigGAN on CIFAR-10, and it reaches an FID of 10.17.",
     {("10.17", "FID")}),  # "than" in another clause
    ("FooNet reaches more than 90.1% accuracy on CIFAR-10.", {("90.1%", "accuracy")}),  # a bound, not a baseline
    # drops and savings are differences
    ("On VOC, FooNet improves throughput with only a 0.56 mAP drop, while saving 50% FLOPs on ImageNet.", set()),
    # a value reached after a difference is a result; a change's starting value is none
    ("FooNet raises it by 2.1% to 85.3% accuracy on CIFAR-10.", {("85.3%", "accuracy")}),
    ("FooNet improves accuracy from 70.1% to 75.3% on CIFAR-10.", {("75.3%", "accuracy")}),
    # "than" in a clause before the value's, joined by "and"
    ("FooNet is faster than prior work and achieves 91.2% accuracy on CIFAR-10.", {("91.2%", "accuracy")}),
    (r"On ImageNet, FooNet reaches an MAE of $1.897\times10^{-3}$.", {("1.897×10⁻³", "MAE")}),
    # values listed after a difference are differences too
    ("FooNet outperforms prior defenses on CIFAR-10 by up to 20.57%, 9.80%, and 13.72% attack success rate.", set()),
    ("Our algorithm gives significant gains (e.g., +1.6 – 3.2 AP) on the COCO dataset.", set()),
    # a fall is an effect the paper shows; other work's figures; a share of a model's cost
    (r"On Imagenet with a resnet50, the classification test accuracy falls from $68\%$ to $46\%$ by random crops.",
     set()),
    ("We focus on the multi-label subset of ImageNet, where today's best models achieve upwards of 97% top-1 "
     "accuracy.", set()),
    ("On ImageNet, our models achieve an IS of 166.5, improving over the previous best IS of 52.52.",
     {("166.5", "IS")}),
    ("On COCO, we show that 70% FLOPs of FasterRCNN with ViT backbone can be removed with a small mAP drop.", set()),
    ("On ImageNet, existing methods such as ResNet-50 reach 76.1% top-1 accuracy.", {("76.1%", "top-1 accuracy")}),
])
def test_results_are_the_methods_own_values(nlp, text, expected):
    from kg.corpus.clean import clean_text

    got = {(r.value, r.metric) for r in nlp(clean_text(text))._.kg_results}
    assert got == expected


@pytest.mark.parametrize("text, expected", [
    ("FooNet achieves 94.4% and 86.7% accuracy on ModelNet40 and ScanObjectNN, respectively.",
     {("94.4%", "ModelNet40"), ("86.7%", "ScanObjectNN")}),
    ("Our models reach the state of the art on CIFAR10/100 and ImageNet with accuracy of 95.50%, 76.25% and 68.64%.",
     {("95.50%", "CIFAR-10"), ("76.25%", "CIFAR-100"), ("68.64%", "ImageNet")}),
    ("On ScanObjectNN and ModelNet40, FooNet achieves 86.7% and 94.4% accuracy, beating prior ScanObjectNN results.",
     {("86.7%", "ScanObjectNN"), ("94.4%", "ModelNet40")}),  # each dataset where the sentence first names it
])
def test_values_listed_with_as_many_datasets_pair_in_order(nlp, text, expected):
    assert {(r.value, r.dataset) for r in nlp(text)._.kg_results} == expected


@pytest.mark.parametrize("text, expected", [
    ("BERT pushes MultiNLI accuracy to 86.7% (4.6% absolute improvement), SQuAD v1.1 question answering Test F1 to "
     "93.2 (1.5 point absolute improvement) and SQuAD v2.0 Test F1 to 83.1.",
     {("86.7%", "MNLI"), ("93.2", "SQuAD 1.1"), ("83.1", "SQuAD 2.0")}),  # (its version, not a task "v1.1 ...")
    ("FooNet reaches an ImageNet top-1 accuracy of 80.2% and transfers to COCO.", {("80.2%", "ImageNet")}),
    ("FooNet achieves 82.3% mAP on the CUHK-SYSU dataset, 41.7% mAP on the PRW dataset.",
     {("82.3%", "CUHK-SYSU"), ("41.7%", "PRW")}),  # a value between a dataset and the next metric
    ("On CIFAR-10, FooGAN reaches an FID of 2.10, and on the ImageNet dataset it matches prior work.",
     {("2.10", "CIFAR-10")}),  # the next dataset is the next clause's
])
def test_a_dataset_named_before_a_metric_is_the_results(nlp, text, expected):
    assert {(r.value, r.dataset) for r in nlp(text)._.kg_results} == expected


def test_a_result_is_not_the_compared_methods():
    from kg.model import Paper
    from kg.nlp.extract import extract

    [(_, ex)] = list(extract([Paper("p", "FooNet has fewer parameters than ResNet-50 and obtains 80.2% top-1 accuracy "
                                         "on ImageNet.")]))
    assert [(r.method, r.value) for r in ex.results] == [("FooNet", "80.2%")]


def test_values_in_brackets_after_another_model_are_not_the_papers(nlp):
    from kg.model import Paper
    from kg.nlp.extract import extract

    text = (r"We propose EfficientFormer. Our fastest model, EfficientFormer-L1, achieves $79.2\%$ top-1 accuracy on "
            r"ImageNet-1K, which runs as fast as MobileNetV2$\times 1.4$ ($1.6$ ms, $74.7\%$ top-1), and our largest "
            r"model, EfficientFormer-L7, obtains $83.3\%$ accuracy with only $7.0$ ms latency.")
    [(_, ex)] = list(extract([Paper("p", text, title="EfficientFormer: Vision Transformers at MobileNet Speed")]))
    got = [(r.method, r.value) for r in ex.results]
    assert got == [("EfficientFormer-L1", "79.2%"), ("EfficientFormer-L7", "83.3%")]
    assert {"EfficientFormer-L1", "EfficientFormer-L7"} <= set(ex.proposed)  # each "our ... model, NAME,"
    [(_, ex)] = list(extract([Paper("p", "We propose FooNet. FooNet outperforms ResNet-50 (76.1% top-1 accuracy) on "
                                         "ImageNet with 80.2% top-1 accuracy.", title="FooNet")]))
    assert [(r.method, r.value) for r in ex.results] == [("ResNet-50", "76.1%"), ("FooNet", "80.2%")]


def test_urls_are_not_names(nlp):
    assert not any("github" in m.text for m in mentions(nlp, "Code: https://github.com/youlj109/TCA is public."))


def test_ambiguous_measure_is_a_metric_only_next_to_a_number(nlp):
    assert "speedup" not in by_label(nlp, "Our bound reveals a distinct multi-agent speedup pattern.", "METRIC")
    assert "speedup" in by_label(nlp, "It gives a 3.2x speedup over the baseline.", "METRIC")


def test_token_positions_find_words_that_spacy_stores_as_symbols(nlp):
    from spacy.attrs import ORTH

    from kg.nlp.candidates import positions

    doc = nlp.make_doc("The POS tagger and the pos tags on ORTH")
    assert positions(doc, frozenset({"POS", "ORTH"}), ORTH) == [1, 8]
    assert positions(doc, frozenset({"pos", "on"})) == [1, 5, 7]


def test_each_value_gets_its_own_metric_dataset_and_our_method(nlp):
    text = ("To address this, we propose SCALE, a framework. Relying on pseudo-labeling, our approach achieves "
            "82.3% mAP and 84.0% top-1 on the CUHK-SYSU dataset, 41.7% mAP and 82.4% top-1 on the PRW dataset.")
    got = {(r.value, r.method, r.dataset, r.metric) for r in nlp(text)._.kg_results}
    assert got == {("82.3%", "SCALE", "CUHK-SYSU", "mAP"), ("84.0%", "SCALE", "CUHK-SYSU", "top-1 accuracy"),
                   ("41.7%", "SCALE", "PRW", "mAP"), ("82.4%", "SCALE", "PRW", "top-1 accuracy")}


def test_a_dataset_name_with_a_year_or_version_is_that_release(nlp):
    assert by_label(nlp, "We evaluate on BRATS 2015 and on ImageNet v2.", "DATASET") == {"BraTS 2015", "ImageNet-V2"}  # the gazetteer knows this release
    # a year in the next sentence, or a year that is not right after the name, is not part of it
    assert by_label(nlp, "We use ImageNet. 2015 was a good year.", "DATASET") == {"ImageNet"}
    assert by_label(nlp, "Results on COCO in 2017 are good.", "DATASET") == {"COCO"}


def test_a_language_is_not_a_dataset(nlp):
    assert by_label(nlp, "We release English and Chinese datasets.", "DATASET") == set()
    assert by_label(nlp, "Experiments on the English-Spanish corpus.", "DATASET") == set()
    found = by_label(nlp, "We evaluate on the English Gigaword corpus and the SemEval datasets.", "DATASET")
    assert "SemEval" in found and "English" not in found


def test_coordinated_years_name_one_release_each(nlp):
    doc = nlp("Experiments on the challenging PASCAL VOC 2007 and 2012 benchmarks.")
    assert {(m.text, m.canonical) for m in doc._.kg_mentions if m.label == "DATASET"} == {
        ("PASCAL VOC 2007", "PASCAL VOC 2007"), ("2012", "PASCAL VOC 2012")}
    assert by_label(nlp, "We use BRATS 2013, 2015 and ImageNet.", "DATASET") == {"BraTS 2013", "BraTS 2015", "ImageNet"}


def test_a_later_use_of_a_short_form_does_not_cut_a_longer_known_name(nlp):
    text = "The Brain Tumor Segmentation Challenge (BraTS) evaluates methods. We won the BraTS 2018 challenge."
    assert "BraTS 2018" in by_label(nlp, text, "DATASET")


def test_a_named_challenge_is_a_benchmark(nlp):
    doc = nlp("Our approach won first place in the MICCAI iSEG-2017 Challenge.")
    ms = [m for m in doc._.kg_mentions if m.label == "DATASET"]
    assert [(m.text, m.benchmark) for m in ms] == [("MICCAI iSEG-2017", True)]
    assert by_label(nlp, "A key challenge is scale.", "DATASET") == set()


def test_a_dataset_named_after_a_task_is_the_dataset(nlp):
    assert by_label(nlp, "We report results on the VQA v2.0 dataset.", "TASK") == set()
    assert by_label(nlp, "We report results on the VQA v2.0 dataset.", "DATASET") != set()


def test_sentence_boundaries_are_those_of_spacys_sentencizer(nlp):
    from spacy.pipeline import Sentencizer

    from kg.nlp.candidates import SENTENCE_STARTS
    from kg.nlp.components.sentences import set_sentences

    texts = [b for f in SEEDS for b in f.read_text(encoding="utf-8").split("\n\n")]
    texts += ["", "...", "Hello!!! World? Yes.", "a.", ". a", "It works (see Fig. 2). Then [1]. 'Quoted.' Next", "e.g. BERT"]
    spacy_sentencizer = Sentencizer()
    for text in texts:
        ours, theirs = set_sentences(nlp.make_doc(text)), spacy_sentencizer(nlp.make_doc(text))
        assert [t.is_sent_start for t in ours] == [t.is_sent_start for t in theirs], text
        assert ours.user_data.get(SENTENCE_STARTS, []) == [t.i for t in ours if t.is_sent_start], text


def test_sentences_made_before_new_boundaries_are_forgotten(nlp):
    from kg.nlp.candidates import sentence
    from kg.nlp.components.sentences import set_sentences

    doc = nlp.make_doc("One two. Three four.")
    doc[0].is_sent_start = True
    for t in doc[1:]:
        t.is_sent_start = False
    assert sentence(doc, 3).text == "One two. Three four."
    set_sentences(doc)
    assert (sentence(doc, 0).text, sentence(doc, 3).text) == ("One two.", "Three four.")


def test_tokenizer_caches_more_chunks_than_a_corpus_vocabulary_fills(nlp):
    # spaCy's default (10,000 chunks) is half full with the gazetteer's own phrases before any abstract is read
    assert nlp.tokenizer.max_cache_size >= 100_000


def test_gazetteer_names_match_in_the_plural(nlp):
    # the gazetteer lists "word error rate" (an alias of WER) in the singular only
    assert by_label(nlp, "We report word error rates on two corpora.", "METRIC") == {"WER"}
    from kg.nlp.components.gazetteer import plural

    assert [plural(w) for w in ("word error rate", "accuracy", "GAN", "LoRAs", "CIFAR-10")] == [
        "word error rates", "accuracies", "GANs", "", ""]
    assert [plural(w) for w in ("test loss", "Gaussian process", "beam search", "softmax")] == [
        "test losses", "Gaussian processes", "beam searches", "softmaxes"]  # (a noun in a sibilant takes "es")
    assert by_label(nlp, "The measures are highly correlated to final test losses.", "METRIC") == {"test loss"}


def test_a_metric_mention_is_its_name_without_a_task_or_score_word():
    # TDMSci, the corpus that annotates metric mentions most, marks "accuracy" in "classification accuracy" (27 of
    # 28 times) and "BLEU" in "BLEU scores" (21 of 25): the gazetteer's match is the name alone
    from kg.nlp.pipeline import config_path

    rules = load_pipeline(config_path("fast"))
    found = {(m.text, m.canonical) for m in mentions(rules, "We report BLEU scores and the classification accuracy "
                                                            "and prediction accuracy of ROUGE score tuning.")
             if m.label == "METRIC"}
    # the spans are the metric's own words; the concept names which accuracy it is
    assert found == {("BLEU", "BLEU"), ("accuracy", "classification accuracy"), ("accuracy", "prediction accuracy"),
                     ("ROUGE", "ROUGE")}


def test_memory_overhead_is_a_metric_only_when_measured(nlp):
    assert not by_label(nlp, "These models face significant memory overheads, limiting their use.", "METRIC")
    assert by_label(nlp, "It cuts the memory overhead by 40% on ImageNet.", "METRIC") == {"memory footprint"}


def test_one_word_before_task_is_a_task_only_as_a_noun_of_doing_or_an_acronym(nlp):
    text = "We enter the shared task and a binary task, then the parsing task and the RM task."
    tasks = by_label(nlp, text, "TASK")
    assert {"parsing", "RM"} <= tasks
    assert not tasks & {"shared", "binary"}


@pytest.mark.parametrize("text, task", [
    ("This remains a largely unsolved problem.", None),  # an adverb and the word it modifies are no task
    ("We study the highly ill-posed inverse problem.", None),
    ("It tackles sequential decision making problems.", "sequential decision making"),  # a verb before the task
    ("The corresponding regression task is easy.", "regression"),
    ("Anomaly detection tasks are hard.", "Anomaly detection"),  # -ly nouns are no adverbs
    ("Graph homophily problems arise.", "Graph homophily"),
    ("It is an emerging interdisciplinary research problem.", None),
])
def test_the_task_context_rule_leaves_out_verbs_adverbs_and_judgements(text, task):
    from kg.nlp.pipeline import config_path

    doc = load_pipeline(config_path("fast"))(text)
    found = [doc[c.start:c.end].text for c in doc._.kg_candidates if c.extractor == "context" and c.label == "TASK"]
    assert found == ([task] if task else [])


def test_has_number_agrees_with_the_token_attributes(nlp):
    from kg.nlp.candidates import has_number

    url = "https://example.org/" + "a" * 90 + "/v2"  # 100 characters or more: spaCy's shape is "LONG"
    doc = nlp.make_doc(f"GPT-4 gets 3.5 points , ten more ; x² and BERT-base or dx and abc-d. See {url} and {url[:-1]}x")
    assert url in [t.text for t in doc]
    for start in range(len(doc)):
        for end in range(start, len(doc) + 1):
            expected = any(t.like_num or any(c.isdigit() for c in t.text) for t in doc[start:end])
            assert has_number(doc, start, end) == expected, doc[start:end].text


def test_the_rules_read_their_extensions_where_spacy_keeps_them(nlp):
    from kg.nlp.candidates import abbreviations, candidates, model_entities

    doc = nlp("We propose Low-Rank Adaptation (LoRA) and test it on ImageNet.")
    assert abbreviations(doc) and abbreviations(doc) is doc._.kg_abbreviations
    assert candidates(doc) and candidates(doc) is doc._.kg_candidates
    assert model_entities(doc) is doc._.kg_model_ents and isinstance(model_entities(doc), list)  # the tagger's
    from kg.train.evaluate import pipeline

    assert model_entities(pipeline(model=False)("We propose LoRA.")) is None  # no model ran
    doc._.kg_model_ents = [(0, 1, "METHOD")]
    assert model_entities(doc) == [(0, 1, "METHOD")]


def test_span_text_is_the_text_spacy_gives(nlp):
    from kg.nlp.candidates import span_text

    doc = nlp("Low-Rank Adaptation (LoRA)  beats GPT-4 on  ImageNet-1k: 82.3% top-1.\nNext line ends here ")
    for start in range(len(doc) + 1):
        for end in range(start, len(doc) + 1):
            assert span_text(doc, start, end) == doc[start:end].text


@pytest.mark.parametrize("mode", ["fast", "default"])
def test_doc_ents_are_the_selected_mentions(mode):
    from kg.nlp.candidates import model_entities
    from kg.nlp.pipeline import config_path

    doc = load_pipeline(config_path(mode))("We evaluate BERT on ImageNet and report accuracy on image classification.")
    assert [(e.start_char, e.end_char, e.label_) for e in doc.ents] == [
        (m.start, m.end, m.label) for m in doc._.kg_mentions]
    assert {e.text for e in doc.ents} >= {"BERT", "ImageNet", "accuracy", "image classification"}
    # the trained model's own entities stay token ranges (kg_mentions once appended its spans to them)
    assert all(isinstance(e, tuple) and len(e) == 3 for e in model_entities(doc) or [])


def results_of(nlp, text):
    return {(r.value, r.dataset, r.metric) for r in nlp(text)._.kg_results}


def test_a_long_metric_name_before_the_value_is_its_metric(nlp):
    assert results_of(nlp, "It reaches a top-1 accuracy of 82.3% on ImageNet.") == {("82.3%", "ImageNet", "top-1 accuracy")}


def test_a_multiplier_written_as_one_token_is_a_value(nlp):
    assert results_of(nlp, "It achieves 15x speedup on ImageNet.") == {("15x", "ImageNet", "speedup")}


def test_the_naming_word_of_a_known_name_names_nothing(nlp):
    ms = mentions(nlp, "We study named entity recognition (NER) in tweets.")
    assert {(m.text, m.label) for m in ms} == {("named entity recognition", "TASK"), ("NER", "TASK")}
    assert not any(m.proposed for m in ms)


@pytest.mark.parametrize("text, label, name", [
    ("The Kullback-Leibler (KL) divergence drops by 0.3 nats.", "METRIC", "KL divergence"),  # a measure: a number
    ("We study temporal difference (TD) learning with linear features.", "METHOD", "temporal difference learning"),
    ("The out-of-distribution (OOD) generalization challenge is open.", "TASK", "out-of-distribution generalization"),
])
def test_a_known_name_with_its_short_form_inside_is_that_name(nlp, text, label, name):
    found = {m.canonical.lower() for m in nlp(text)._.kg_mentions if m.label == label and not m.generic}
    assert name.lower() in found


def test_a_measure_with_its_short_form_inside_and_no_number_is_only_a_mention(nlp):
    ms = nlp("Minimizing the inclusive Kullback-Leibler (KL) divergence with MCMC.")._.kg_mentions
    assert not any(m.label == "METRIC" and not m.generic for m in ms)
    assert not any(m.label == "TASK" for m in ms)  # nor is "Kullback-Leibler" a task
    # nor its short form, where the tagger reads it as one, there or later
    ms = nlp("Trust region methods perform policy updates. These usually rely on the Kullback-Leibler (KL) divergence "
             "to limit the change in the policy. We use the KL divergence.")._.kg_mentions
    assert ("Kullback-Leibler (KL) divergence", True) in {(m.text, m.generic) for m in ms}
    assert all(m.generic for m in ms if "KL" in m.text)


def test_the_short_form_inside_a_known_name_names_that_name(nlp):
    ms = nlp("We report the Kullback-Leibler (KL) divergence of 0.3 and the KL of 0.2.")._.kg_mentions
    assert {(m.text, m.label, m.canonical) for m in ms if m.text == "KL"} == {("KL", "METRIC", "KL divergence")}
    assert not any(m.label == "TASK" for m in ms)


def test_an_example_in_brackets_is_no_short_form_inside_a_name(nlp):
    found = {m.canonical for m in nlp("Milestones in text-to-image (DALL-E) generation.")._.kg_mentions}
    assert "DALL-E" in found


@pytest.mark.parametrize("text, long", [
    ("We use the New York Times (NYT) corpus.", "New York Times"),
    ("We build on A Lite BERT (ALBERT) for speed.", "A Lite BERT"),
    ("We apply \u201csign random projections\u201d (SignRP) to them.", "sign random projections"),  # not the quote
    ('The "Patient Instruction" (PI) is written.', "Patient Instruction"),
    # the capitals one word each, where the letters alone fit in one word ("SParSe"): the whole name
    ("We propose an operator named spatial pruned sparse convolution (SPS-Conv), which is fast.",
     "spatial pruned sparse convolution"),
    ("We study Synchronous Stochastic Gradient Descent (SSGD) here.", "Synchronous Stochastic Gradient Descent"),
    ("We measure the total treatment effect (TTE) here.", "total treatment effect"),
    ("We train with deep reinforcement learning (RL) here.", "reinforcement learning"),  # no capital for "deep"
    # articles and prepositions spell nothing: not "of uncertainty", whose "of" has both the O and the F
    ("Optimism in the face of uncertainty (OFU) is a successful strategy.", "Optimism in the face of uncertainty"),
])
def test_an_abbreviations_long_form_keeps_the_word_its_first_letter_is_from(nlp, text, long):
    from kg.nlp.candidates import abbreviations

    doc = nlp(text)
    assert [a.long(doc).text for a in abbreviations(doc)] == [long]


def test_a_known_name_after_a_proposal_verb_is_new_only_where_a_description_introduces_it(nlp):
    """A vocabulary may know a paper's own name from the paper itself (Papers with Code lists Imagen, DrawBench):
    the description after it says the authors introduce it; without one it is a known name, and its tail nothing."""
    ms = mentions(nlp, "In this paper, we introduce Random Erasing into the training of CNNs.")
    assert not any(m.proposed for m in ms) and "Erasing" not in {m.text for m in ms}
    ms = mentions(nlp, "In this paper, we introduce Random Erasing, a new data augmentation method for CNNs.")
    assert [(m.canonical, m.label) for m in ms if m.proposed] == [("random erasing", "METHOD")]
    ms = mentions(nlp, "We introduce DrawBench, a comprehensive and challenging benchmark for text-to-image models.")
    assert [(m.text, m.label) for m in ms if m.proposed] == [("DrawBench", "DATASET")]
    ms = mentions(nlp, "We present Science Question Answering (ScienceQA), a new benchmark of 21k questions.")
    assert {(m.canonical, m.label) for m in ms if m.proposed} == {("ScienceQA", "DATASET")}


@pytest.mark.parametrize("text, label", [
    ("We introduce Wild6D, a new unlabeled RGBD object video dataset with diverse instances.", "DATASET"),  # 6 words
    ("We introduce GridNav, a new scalable dataset construction pipeline for navigation.", "METHOD"),  # its last head
])
def test_a_description_after_an_own_name_types_it_by_its_last_head_word(nlp, text, label):
    name = text.split()[2].rstrip(",")
    assert [(m.text, m.label) for m in mentions(nlp, text) if m.proposed] == [(name, label)]


def test_pairs_a_proposal_lists_after_its_first_own_name_are_the_papers_too(nlp):
    text = ("We propose task-aware dynamic masking (TDM) to learn a sparse network, dynamic data removal (DDR) to "
            "remove less informative data, and dynamic gradient masking (DGM) to sparsify the updates.")
    assert {m.text for m in mentions(nlp, text) if m.proposed} >= {"TDM", "DDR", "DGM"}
    for text in ("We propose a multi-head model (MHM) for models such as Linear Quadratic Gaussian (LQG) systems.",
                 "We compare our proposed SignRP with SignRP, KLSH (kernel LSH), and random projections.",
                 "We propose Unified Prompt Learning (UPL), which generalizes Context Prompt Networks (CPN), Prompt "
                 "Ensemble Learning (PEL), and Adapter Fusion Tuning (AFT)."):
        assert not {"LQG", "KLSH", "PEL", "AFT"} & {m.text for m in mentions(nlp, text) if m.proposed}  # others'


@pytest.mark.parametrize("text", [
    "We propose focal modulation networks (FocalNets in short), which replace self-attention.",
    "We propose a learning framework StructureViT (SViT for short), which uses images.",
])
def test_a_short_form_for_short_or_in_short_is_defined(nlp, text):
    doc = nlp(text)
    assert [a.short(doc).text for a in doc._.kg_abbreviations] == [text.split("(")[1].split()[0]]


def test_a_long_form_never_spans_a_clause(nlp):
    text = ("To account for the training dynamics, we propose a theory-driven deep active learning method (dynamicAL) "
            "which selects samples.")
    doc = nlp(text)
    assert all("we propose" not in a.long(doc).text for a in doc._.kg_abbreviations)
    doc = nlp("To account for the training dynamics, this paper proposes a theory-driven deep active learning method "
              "(dynamicAL) which selects samples.")
    assert all("proposes" not in a.long(doc).text for a in doc._.kg_abbreviations)
    doc = nlp("What You See Is What You Get (WYSIWYG) editors are common.")  # a name with a capital "Is"
    assert [a.long(doc).text for a in doc._.kg_abbreviations] == ["What You See Is What You Get"]


def test_people_a_pair_names_after_by_are_neither_own_names_nor_concepts(nlp):
    text = ("We propose a Graph Structure-aware eXplanation (GStarX) method. We define a scoring function based on a "
            "value from cooperative game theory proposed by Hamiache and Navarro (HN).")
    ms = mentions(nlp, text)
    assert {m.text for m in ms if m.proposed} == {"Graph Structure-aware eXplanation", "GStarX"}
    assert "Hamiache and Navarro" not in {m.canonical for m in ms}
    text = ("We propose Generative Semantic Refinement (GSR). Adaptation is driven by Exclusion-Guided Proxy "
            "Contrastive Learning (EPCL), which imposes negative constraints.")  # a means after "by", no people
    assert "EPCL" in {m.text for m in mentions(nlp, text) if m.proposed}
    ms = mentions(nlp, "Our method is achieved by Global and Local Alignment (GLA) of features.")
    assert "Global and Local Alignment" in {m.canonical for m in ms}  # a method's name joined by "and"


def test_later_uses_of_a_short_form_follow_the_pair(nlp):
    ms = mentions(nlp, "Few-Shot Keyword Spotting (FewKWS) is studied. We show that FewKWS is hard.")
    assert {m.canonical for m in ms} == {"Few-Shot Keyword Spotting"} and len(ms) == 3


def test_later_uses_of_a_short_form_in_the_other_number_follow_the_pair(nlp):
    ms = mentions(nlp, "Pretrained language models (LMs) are strong. We treat the code-generating LM as an actor.")
    lm = [m for m in ms if m.text == "LM"]
    assert lm and {m.canonical for m in lm} == {"language models"}


def test_a_short_form_of_two_tokens_is_followed_too(nlp):
    ms = mentions(nlp, "We propose Scale-Aware Fast R-CNN (SAF R-CNN). On Caltech, SAF R-CNN outperforms Fast R-CNN.")
    later = [m for m in ms if m.text == "SAF R-CNN"]
    assert len(later) == 2 and {m.canonical for m in later} == {"SAF R-CNN"}


@pytest.mark.parametrize("text, short, canonical, label", [
    ("We pretrain Masked Autoencoders (MAE) on ImageNet. MAE scales well.", "MAE", "Masked Autoencoder", "METHOD"),
    ("We evolve programs with Genetic Programming (GP).", "GP", "genetic programming", "METHOD"),  # the vocabulary's name
    ("We apply Sharpness-Aware Minimization (SAM). SAM improves generalization.", "SAM", "Sharpness-Aware Minimization",
     "METHOD"),
    ("We report the mean absolute error (MAE) on QM9.", "MAE", "MAE", "METRIC"),
    ("We study masked autoencoding (MAE) for vision. MAE learns features.", "MAE", "masked autoencoding", "METHOD"),
    ("We report the area under ROC curve (AUC) on all tasks.", "area under ROC curve", "AUC", "METRIC"),
    ("We fine-tune with Low-Rank Adaptation (LoRA); LoRA is cheap.", "LoRA", "LoRA", "METHOD"),
])
def test_a_defined_short_form_names_what_its_long_form_says(nlp, text, short, canonical, label):
    uses = [m for m in mentions(nlp, text) if m.text == short]
    assert uses and {(m.canonical, m.label) for m in uses} == {(canonical, label)}


def test_a_known_short_form_whose_names_all_hold_short_forms_is_checked_against_them(nlp):
    # the ARC dataset's only spelled-out name, "AI2 Reasoning Challenge", still tells another ARC apart
    text = "We compute Adversarial Response Characteristics (ARC) features. ARC detects attacks."
    uses = [m for m in mentions(nlp, text) if m.text == "ARC"]
    assert uses and {m.canonical for m in uses} == {"Adversarial Response Characteristics"}


@pytest.mark.parametrize("text, name", [
    ("We fine-tune Llama 2-Chat on dialogues.", "Llama 2-Chat"),
    ("We compare with Gemini 1.5 Flash and others.", "Gemini 1.5 Flash"),
    ("We prompt GPT-3 13B with few examples.", "GPT-3 13B"),
    ("We ask Claude 3 Haiku to rate answers.", "Claude 3 Haiku"),
])
def test_a_known_models_version_size_or_variant_is_part_of_its_name(nlp, text, name):
    assert name in by_label(nlp, text, "METHOD")


@pytest.mark.parametrize("text, name, canonical", [
    ("We use the frames of FrameNet 1.5 for training.", "FrameNet 1.5", "FrameNet"),
    ("Titles come from Wikipedia 1 and news.", "Wikipedia", "Wikipedia"),
])
def test_a_known_datasets_release_or_language_is_part_of_its_mention(nlp, text, name, canonical):
    ms = [m for m in mentions(nlp, text) if m.label == "DATASET"]
    assert [(m.text, m.canonical) for m in ms] == [(name, canonical)]


@pytest.mark.parametrize("text, name", [
    ("Agreement is measured by the kappa coefficient (κ) on all items.", "kappa coefficient (κ)"),
    ("We report labeled recall (lr) for each parser.", "recall (lr)"),
    ("Grammaticality (Q1) and accuracy (%) are reported.", "accuracy"),
])
def test_a_metrics_symbol_in_brackets_is_part_of_its_mention(nlp, text, name):
    assert name in {m.text for m in mentions(nlp, text) if m.label == "METRIC"}


@pytest.mark.parametrize("text, metric", [
    ("On LaSOT, SwinTrack sets a new record with 0.713 SUC score.", "SUC"),  # a tracker's success score
    ("Our method improves the training speed of video classification.", "training speed"),
    ("Our linear-time tests match the statistical power of quadratic-time tests.", "statistical power"),
    ("It beats them by a factor of 3 in terms of structural Hamming distance.", "structural Hamming distance"),
])
def test_measures_of_trackers_training_tests_and_causal_graphs_are_metrics(nlp, text, metric):
    assert {m.canonical for m in mentions(nlp, text) if m.label == "METRIC" and not m.generic} == {metric}


@pytest.mark.parametrize("text, method", [
    ("We show that a well-calibrated classifier can still be unfair on minority groups.", None),
    ("We attack the pre-trained classifier with universal perturbations.", None),
    ("We train a linear classifier on frozen features of the encoder.", "linear classifier"),
    ("The Bayes optimal classifier is unknown in practice.", "Bayes-optimal classifier"),
])
def test_a_classifier_named_by_its_properties_is_no_method(nlp, text, method):
    found = {m.canonical for m in mentions(nlp, text) if m.label == "METHOD" and not m.generic}
    assert found == ({method} if method else set())


def test_test_as_a_verb_before_power_names_no_metric(nlp):
    assert not [m for m in mentions(nlp, "We test power consumption of the accelerator on three boards.")
                if m.label == "METRIC" and not m.generic]


def test_a_metric_reduction_is_the_measure_and_a_metric_before_training_is_none(nlp):
    assert "error rate reductions" in {m.text for m in mentions(nlp, "This leads to large error rate reductions.")
                                       if m.label == "METRIC"}
    assert not {m.text for m in mentions(nlp, "Weights are tuned by minimum error rate training on the dev set.")
                if m.label == "METRIC"}


def test_a_method_abbreviation_before_a_dataset_head_names_the_dataset(nlp):
    ms = mentions(nlp, "We use Amazon Mechanical Turk (AMT) to collect labels. We apply our methods to the AMT dataset "
                       "with two goals.")
    assert [m.label for m in ms if m.text == "AMT"] == ["METHOD", "DATASET"]


@pytest.mark.parametrize("text, name", [
    ("We ran BERT 3 times with different seeds.", "BERT"),
    ("BERT 2019 results are reproduced.", "BERT"),
])
def test_a_count_or_a_year_after_a_model_is_not_its_version(nlp, text, name):
    assert by_label(nlp, text, "METHOD") == {name}


@pytest.mark.parametrize("name", ["GSM8K", "ImageNet-1K", "SimplE"])
def test_a_full_stop_after_a_name_ending_in_a_capital_ends_the_sentence(nlp, name):
    doc = nlp(f"We evaluate on {name}. We then stop.")
    assert [s.text for s in doc.sents] == [f"We evaluate on {name}.", "We then stop."]
    assert "We" not in {w for m in doc._.kg_mentions for w in m.text.split()}


def test_a_capitalised_function_word_is_no_dataset_name(nlp):
    text = "Shape Robust Text Detection with Progressive Scale Expansion Network The challenges of text detection lie here."
    assert "The" not in {m.text for m in mentions(nlp, text)}


@pytest.mark.parametrize("text, short", [
    ("We compare shortcut connections (e.g., DenseNet), and hierarchical layer aggregation (e.g., DLA).", "DLA"),
    ("As shown in Figure 2, the classification (i.e., FC) layer matches the representation.", "FC"),
    ("It builds on the successor representation [SR; ][] Dayan93. The SR generalizes.", ";"),
])
def test_an_example_in_brackets_is_no_abbreviation(nlp, text, short):
    from kg.nlp.candidates import abbreviations

    doc = nlp(text)
    assert not any(short in a.short(doc).text for a in abbreviations(doc))


@pytest.mark.parametrize("text, short", [
    ("Our approach recovers a maximizer of the AF (an often-neglected requisite for commonly used BO regret bounds).",
     "AF"),
    ("It incorporates SE(3)/E(3)-equivariant features based on irreducible representations (irreps).", "3)/E"),
])
def test_a_bracketed_aside_after_a_short_word_is_no_long_form(nlp, text, short):
    from kg.nlp.candidates import abbreviations

    doc = nlp(text)
    assert short not in {a.short(doc).text for a in abbreviations(doc)}
    assert not [m for m in doc._.kg_mentions if m.extractor == "abbreviation"]


@pytest.mark.parametrize("text, short", [
    ("In addition, we also establish the first optimal rate when non-convex loss functions further satisfy the "
     "Polyak-Lojasiewicz (PL) condition. Under the PL condition, GD converges.", "PL"),
    ("Having similar behavior at training and test time, what we call a \u201cWhat You See Is What You Get\u201d "
     "(WYSIWYG) property, is desirable. We show that DP training ensures WYSIWYG.", "WYSIWYG"),
    ("We discover a novel triggering probability and variance modulated (TPVM) condition. Under the TPVM condition, "
     "we propose BCUCB-T.", "TPVM"),
])
def test_a_condition_or_property_defined_by_a_pair_is_no_concept(nlp, text, short):
    doc = nlp(text)
    named = {m.text for m in doc._.kg_mentions if not m.generic}
    assert short not in named and not {m.text for m in doc._.kg_mentions if m.proposed} & {short}
    assert any(m.text == short and m.generic for m in doc._.kg_mentions)


def test_a_head_word_of_a_condition_that_goes_on_is_no_condition(nlp):
    doc = nlp("We propose the Deep Kernel Two-Sample (DKTS) hypothesis test, which detects distribution shift. "
              "DKTS is fast.")
    assert "DKTS" in {m.canonical for m in doc._.kg_mentions if m.proposed and not m.generic}


def test_a_generic_short_form_leaves_a_longer_name_around_it(nlp):
    doc = nlp("Trust region methods rely on the Kullback-Leibler (KL) divergence. We propose KL guided sampling, a "
              "method that beats KL regularization.")
    assert "KL guided sampling" in {m.text for m in doc._.kg_mentions if not m.generic}


def test_a_long_form_does_not_reach_back_over_another_parenthesis(nlp):
    from kg.nlp.candidates import abbreviations

    doc = nlp("It is powered by a restricted Boltzmann machine (SNN-RBM) or a sampling-based denoising auto-encoder (SNN-DAE).")
    assert all("(" not in a.long(doc).text and ")" not in a.long(doc).text for a in abbreviations(doc))


@pytest.mark.parametrize("text, release", [
    ("We report results on span SRL (CoNLL 2005, 2012).", "CoNLL-2012"),
    ("We detect objects on PASCAL VOC 2007, 2012, and COCO.", "PASCAL VOC 2012"),
])
def test_a_coordinated_year_after_a_hyphenated_release_names_its_own_release(nlp, text, release):
    assert release in by_label(nlp, text, "DATASET")


def test_a_one_character_token_is_no_name(nlp):
    ms = mentions(nlp, "ImageNet has more than 375 M noisy labels for 300 M images and more.")
    assert "M" not in {m.text for m in ms}


@pytest.mark.parametrize("text, name", [
    ("We use Sinkhorn's algorithm to solve it.", "Sinkhorn algorithm"),  # the vocabulary's name for it
    ("The VAE ’s latent space is small.", "VAE"),
])
def test_a_possessive_is_not_part_of_a_name(nlp, text, name):
    assert name in by_label(nlp, text, "METHOD")
    assert not any(m.text.endswith(("'s", "’s")) or m.canonical.endswith(("'s", "’s")) for m in mentions(nlp, text))


def test_a_part_of_the_paper_is_no_dataset(nlp):
    text = "It was evaluated on the Extended Cohn-Kanade Dataset (Section 4) and the MMI Dataset (Section 5)."
    assert not any("Section" in m.text for m in mentions(nlp, text))


@pytest.mark.parametrize("text, key", [
    ("RNN language models do well on various benchmarks merity2017regularizing, melis2017state, krause2017dynamic.",
     "merity2017regularizing"),
    ("The success of CNNs in the ImageNet challenge Krizhevsky_NIPS2012 has stimulated research.", "Krizhevsky_NIPS2012"),
    # math a formula left as text: a superscript beside an underscore
    (r"We use the integrated partial derivative $\Psi_j = \Vert \frac{\partial}{\partial \mathbf{x}^j} f(\mathbf{x})"
     r"\Vert^2_{P_\mathcal{X}}$. We then provide a principled estimator.", "Vert²_P_X"),
])
def test_a_citation_key_is_no_name(nlp, text, key):
    assert key not in {m.text for m in mentions(nlp, text)}


def test_a_capitalised_word_before_the_noun_it_modifies_is_no_dataset(nlp):
    ms = mentions(nlp, "The results based on the Euclidean distance are poor. We test on Cityscapes.")
    assert {m.text for m in ms if m.label == "DATASET"} == {"Cityscapes"}
    ms = mentions(nlp, "Finally, we use simulated settings and experiments on the US census data to show it.")
    assert not {m.text for m in ms if m.label == "DATASET"}  # a short acronym modifies the noun too


@pytest.mark.parametrize("text, names", [
    ("MOBA games, e.g., Dota2 and Honor of Kings, have been actively used as the testbed for AI research.",
     {"Dota2", "Honor of Kings"}),  # not "MOBA": what kind of games
    ("We consider games such as Go, certain classes of PSPACE-hard planning problems.", {"Go"}),
    ("It generalizes to unseen environments (NetHack, ALFWorld, RTFM, Messenger, and Touchdown).",
     {"RTFM", "Messenger", "Touchdown"}),
    ("We study Markov Potential Games (MPGs) with many agents.", set()),  # a class of games, named in capitals
    ("Our results on the Attributes of People and Taskonomy datasets reflect an improved trade-off.",
     {"Attributes of People", "Taskonomy"}),  # a name with "of" inside, before its head
    # an appositive says what a name is
    ("We study this approach for offline RL in 9x9 Go, a challenging game for which the state space is vast.",
     {"9x9 Go"}),
    ("Agents are tested on DM-HARD-8, a challenging partially-observable continuous-action benchmark.", {"DM-HARD-8"}),
    ("Second, a new dataset is collected.", set()),  # a common word that starts its sentence
    # the head modifies what follows, or the appositive goes on: no dataset
    ("We compare against KIP, a dataset distillation method, and others.", set()),
    ("Our solver outperforms CFR+, a game solving algorithm, on poker.", set()),
    ("Using FooCLIP, a dataset of 400 million pairs is filtered.", set()),
    # a citation or a capitalised modifier in brackets after "games"
    ("We study potential games (Monderer and Shapley, 1996) with many players.", set()),
    ("We study zero-sum games (e.g., Nash equilibria) in this work.", set()),
])
def test_games_and_environments_listed_after_an_opener_are_datasets(nlp, text, names):
    assert {m.canonical for m in mentions(nlp, text) if m.label == "DATASET" and not m.generic} >= names
    if not names:
        assert not by_label(nlp, text, "DATASET")


def test_a_name_before_a_method_head_after_on_is_no_dataset(nlp):
    text = ("We use a spectral characterization (Montanari & Zhong, 2020) and build on the QuadNTK approach. "
            "We test on Cityscapes.")
    assert {m.text for m in mentions(nlp, text) if m.label == "DATASET"} == {"Cityscapes"}


@pytest.mark.parametrize("text", [
    "Our tagger is very near the state-of-the-art in English without any hand-engineered features.",
    "We build translation systems for four language pairs: English Czech, English German and English Romanian.",
])
def test_a_language_named_alone_is_no_dataset(nlp, text):
    assert not by_label(nlp, text, "DATASET")


def test_the_pipelines_entities_are_its_mentions_as_doc_ents_would_set_them(nlp):
    from spacy.attrs import ENT_IOB, ENT_TYPE
    from spacy.tokens import Span

    doc = nlp("We propose FooNet, a transformer for machine translation, and evaluate it on WMT14 with BLEU.")
    got = doc.to_array([ENT_IOB, ENT_TYPE]).tolist()
    spans = [doc.char_span(m.start, m.end, label=m.label) for m in doc._.kg_mentions]
    assert len(spans) >= 3 and all(s is not None for s in spans)
    assert [(e.start_char, e.end_char, e.label_) for e in doc.ents] == [(s.start_char, s.end_char, s.label_) for s in spans]
    doc.ents = [Span(doc, s.start, s.end, label=s.label_) for s in spans]  # spaCy's own setter, for comparison
    assert doc.to_array([ENT_IOB, ENT_TYPE]).tolist() == got


def test_extraction_leaves_no_cyclic_garbage_and_restores_the_collector(nlp):
    """Each doc is freed by reference counting once extracted (the rules' state in user_data would otherwise tie
    it into a cycle that only the collector frees), and the collector is on again between batches."""
    import gc

    from kg.corpus.readers import read_corpus
    from kg.nlp.extract import extract

    papers = read_corpus([str(SEEDS[0])]).papers[:20]
    list(extract(papers[:2], nlp))  # first-use caches out of the way
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        seen = []
        for _ in extract(papers, nlp, batch_size=8):
            seen.append(gc.isenabled())
        assert gc.collect() == 0, sorted({type(o).__name__ for o in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert seen == [False] * len(papers)  # left as the caller had it (off here)
    for _ in extract(papers[:9], nlp, batch_size=8):
        assert gc.isenabled()


@pytest.mark.parametrize("text,expected", [
    ("We evaluate on CIFAR-10/100 and ImageNet.", [("CIFAR-10", "CIFAR-10"), ("100", "CIFAR-100"), ("ImageNet", "ImageNet")]),
    ("Forecasts on ETTh1/2 are reported.", [("ETTh1", "ETTh1"), ("2", "ETTh2")]),
    ("We use CIFAR-10/CIFAR-100 and SVHN.", [("CIFAR-10", "CIFAR-10"), ("CIFAR-100", "CIFAR-100"), ("SVHN", "SVHN")]),
    ("It reaches 49.8 AP and 45.7 AP on YouTube-VIS 2019 & 2021.",  # releases joined by "&"
     [("YouTube-VIS 2019", "YouTube-VIS 2019"), ("2021", "YouTube-VIS 2021")]),
])
def test_a_slash_between_numbered_names_names_two_datasets(nlp, text, expected):
    assert [(m.text, m.canonical) for m in mentions(nlp, text) if m.label == "DATASET"] == expected


def test_the_number_after_a_slash_is_no_alias_of_the_dataset():
    from kg.model import Paper
    from kg.nlp.extract import extract

    from kg.build.resolve import resolve

    (_, ex), = extract([Paper("p1", "We evaluate on CIFAR-10/100 and ImageNet.")])
    assert "100" not in ex.aliases.get("CIFAR-100", [])
    concepts = {c.name: c for c in resolve([ex]).concepts.values()}
    assert "CIFAR-100" in concepts and "100" not in concepts["CIFAR-100"].aliases


def test_kg_extract_names_the_dataset_after_a_slash_in_full():
    from kg.model import Paper
    from kg.nlp.extract import extract
    from kg.sinks.predictions import prediction

    [(paper, ex)] = list(extract([Paper("p1", "We evaluate on CIFAR-10/100 and ImageNet.")]))
    assert set(prediction(paper, ex)["concepts"]["DATASET"]) == {"CIFAR-10", "CIFAR-100", "ImageNet"}


@pytest.mark.parametrize("text, expected", [
    ("Our experiments on MNIST, CIFAR- 10  and SVHN show gains.", {"MNIST", "CIFAR-10", "SVHN"}),  # a broken line
    ("Our experiments on CIFAR- and more show gains.", set()),  # a name ending in a hyphen names nothing
    ("Our experiments on MNIST, ImageNet- 1K and SVHN show gains.", {"MNIST", "ImageNet-1K", "SVHN"}),
    ("Our experiments on MNIST, CIFAR- 10/100 and SVHN show gains.", {"MNIST", "SVHN"}),  # not one "CIFAR-10/100"
    ("Results on MNIST, CIFAR- ten and SVHN.", {"MNIST", "SVHN"}),
])
def test_a_dataset_name_broken_after_its_hyphen_is_joined(nlp, text, expected):
    assert {m.canonical for m in mentions(nlp, text) if m.label == "DATASET"} == expected


def test_a_slash_between_plain_numbers_is_not_split(nlp):
    assert "72.5/80.1" in [t.text for t in nlp.make_doc("It scores 72.5/80.1 on both.")]


@pytest.mark.parametrize("text", [
    "Our model improves BERT by 5.9% accuracy on GLUE.",
    "On ImageNet it reaches a 1.4% top-1 accuracy gain over ResNet-50.",
    "It outperforms the baseline by up to 3.2% accuracy on CIFAR-10.",
    "MinVIS outperforms the previous best result on the Occluded VIS dataset by over 10% AP.",
    "It beats the baseline by more than 2% accuracy on ImageNet.",
])
def test_an_improvement_is_not_a_score(nlp, text):
    assert results_of(nlp, text) == set()


def test_values_given_respectively_to_unnamed_things_are_no_results(nlp):
    text = ("We improve on the Waterbirds, CelebA hair color prediction and WILDS-FMOW problems, achieving 97%, 92% "
            "and 50% worst-group accuracies, respectively.")
    assert results_of(nlp, text) == set()  # (one dataset named for three values)
    assert results_of(nlp, "PointMLP achieves 94.4% and 86.7% accuracy on ModelNet40 and ScanObjectNN, respectively.") \
        == {("94.4%", "ModelNet40", "accuracy"), ("86.7%", "ScanObjectNN", "accuracy")}
    both = "RetinaNet and FCOS achieve 41.5% and 43.9% mAP on COCO, respectively."  # (the methods are listed)
    assert ("43.9%", "COCO", "mAP") in results_of(nlp, both)


@pytest.mark.parametrize("value", ["-9.5", "\u22129.5", "\u20139.5", "$-9.5$"])
def test_a_value_with_a_minus_sign_is_negative(nlp, value):
    # a hyphen, a minus sign, or an en dash written for one, glued to the number
    text = f"MolDock achieves a Vina score of {value} on the CrossDocked dataset."
    assert results_of(nlp, text) == {("-9.5", "CrossDocked", "Vina score")}


def test_a_dash_between_two_numbers_is_no_sign(nlp):
    text = "MolDock achieves Vina scores of 4.2 \u20139.5 on the CrossDocked dataset."
    assert ("-9.5", "CrossDocked", "Vina score") not in results_of(nlp, text)


def test_a_percentage_of_a_metric_is_a_share_not_its_value(nlp):
    # "2% of AUC" is a gain here; elsewhere "retain 95% of accuracy", "save 40% of GPU memory": a share of the measure
    text = ("Experiments show state-of-the-art performance (e.g., over 2% of AUC in Camelyon16, 5% of F1 score in "
            "BRACS, and 3% of AUC in DiagSet).")
    assert results_of(nlp, text) == set()
    text = "We reach state-of-the-art results (e.g., an AUC of 92% in Camelyon16, 75% F1 score in BRACS)."
    assert results_of(nlp, text) == {("92%", "Camelyon16", "AUC"), ("75%", "BRACS", "F1 score")}
    listed = "It achieves 68.96 and 65.21 of execution accuracy and program accuracy on the FinQA dataset."
    assert results_of(nlp, listed) == set()  # (two metrics listed: which value is whose is not said in order)


def test_a_metric_after_a_value_and_a_word_that_says_which_is_the_values(nlp):
    assert results_of(nlp, "SemMAE achieves 84.5% fine-tuning accuracy on ImageNet-1k, beating the vanilla MAE.") \
        == {("84.5%", "ImageNet", "fine-tuning accuracy")}  # (the metric's concept: the word that says which)
    assert results_of(nlp, "It reaches 71.2% linear probing accuracy on ImageNet.") \
        == {("71.2%", "ImageNet", "linear probing accuracy")}
    assert results_of(nlp, "LIMoE-L/16 achieves 77.9% zero-shot ImageNet accuracy.") \
        == {("77.9%", "ImageNet", "accuracy")}
    assert results_of(nlp, "It reaches 57.6 validation mIoU on ADE20K.") == {("57.6", "ADE20K", "mIoU")}
    assert results_of(nlp, "It runs at 7.0 ms latency on ImageNet.") == set()  # (ms: the number's unit)
    assert results_of(nlp, "The pruned network reaches 75% sparsity maintaining accuracy on ImageNet.") == set()
    assert results_of(nlp, "It is 2.1% higher accuracy on ImageNet than ResNet.") == set()  # a difference
    assert results_of(nlp, "It keeps 50% of the accuracy on ImageNet.") == set()  # not across a function word


def test_a_second_value_on_another_dataset_keeps_the_first_values_metric(nlp):
    text = "We achieve 96.7% accuracy on CIFAR10 and 83.0% on CIFAR100 at a privacy budget of 1."
    assert results_of(nlp, text) == {("96.7%", "CIFAR-10", "accuracy"), ("83.0%", "CIFAR-100", "accuracy")}
    assert results_of(nlp, "It gets 76.9% accuracy on ImageNet and 9.5% of the parameters.") \
        == {("76.9%", "ImageNet", "accuracy")}
    assert results_of(nlp, "It reaches a mIoU of 80.1% on Cityscapes and 75.9% on PASCAL VOC 2012.") \
        == {("80.1%", "Cityscapes", "mIoU"), ("75.9%", "PASCAL VOC 2012", "mIoU")}


def test_a_measure_on_a_dataset_changing_from_one_value_to_another(nlp):
    text = "It raises the accuracy on MultiArith from 17.7% to 78.7% and GSM8K from 10.4% to 40.7% with InstructGPT."
    assert results_of(nlp, text) == {("78.7%", "MultiArith", "accuracy")}  # (GSM8K's measure is not said again)
    assert results_of(nlp, "It reaches an accuracy on CIFAR-10 of 95.1% and beats ResNet.") \
        == {("95.1%", "CIFAR-10", "accuracy")}


def test_a_result_obtained_using_a_method_named_after_it_is_that_methods(nlp):
    text = ("To show the significance of efficient DP training, we achieve 96.7% accuracy on CIFAR-10 and 83.0% on "
            "CIFAR-100 using BEiT.")
    assert {(r.method, r.value) for r in nlp(text)._.kg_results} == {("BEiT", "96.7%"), ("BEiT", "83.0%")}
    other = ("Semi-ViT-Huge achieves 80% top-1 accuracy on ImageNet using only 1% labels, which is comparable with "
             "Inception-v4 using 100% ImageNet labels.")
    assert {r.method for r in nlp(other)._.kg_results} == {"Semi-ViT-Huge"}
    own = "ViT-B reaches 81.2% top-1 accuracy on ImageNet when trained using RandAugment."  # the value's subject
    assert {r.method for r in nlp(own)._.kg_results} == {"ViT-B"}


def test_a_pair_the_context_reads_as_data_is_the_vocabularys_task_or_method_where_it_knows_the_long_form(nlp):
    text = "Most existing results on Federated Learning (FL) assume the clients have ground-truth labels."
    assert "Federated Learning" not in by_label(nlp, text, "DATASET")
    assert "RAFT" in by_label(nlp, "We apply T-Few to the RAFT benchmark and report results.", "DATASET")


def test_a_value_needs_a_metric_and_a_dataset(nlp):
    assert results_of(nlp, "It obtains 90.1% on ImageNet.") == set()
    assert results_of(nlp, "It obtains 90.1% accuracy.") == set()
    assert results_of(nlp, "It obtains 90.1% accuracy on ImageNet.") == {("90.1%", "ImageNet", "accuracy")}


def test_a_coined_name_in_brackets_after_a_titled_object_is_the_proposal(nlp):
    text = "We propose the Transformer with a Finite Admixture of Shared Heads (FiSHformers), a class of transformers."
    assert "FiSHformers" in proposed(nlp, text)
    assert "PromptGen" in proposed(nlp, "We propose Generative Visual Prompt (PromptGen), a framework for control.")
    assert not proposed(nlp, "We introduce Vision Transformers (ViT) to the task.")  # a known name
    named = "We propose a simple method in this paper, named Mining unseen Classes via Regional Objectness (MicroSeg)."
    assert "MicroSeg" in proposed(nlp, named)
    task = "We pose an extended task without the consensus assumption, named Robust Referring Segmentation (R2-VOS)."
    assert "R2-VOS" not in proposed(nlp, task)  # a task the paper names, not its method
    assert not proposed(nlp, "We propose a method for Multi Agent Reinforcement Learning (MARL) tasks.")


def test_a_coined_name_in_brackets_after_our_head_word_is_the_proposal(nlp):
    text = "To show the efficacy of our approach (RegMixup), we provide thorough analyses on vision datasets."
    assert "RegMixup" in proposed(nlp, text)
    assert not proposed(nlp, "To show the efficacy of our approach (ResNet), we provide analyses.")  # a known name
    assert "TDPO" in proposed(nlp, "Our policy gradient method (TDPO) outperforms existing methods.")
    assert not proposed(nlp, "We compare our method with the strong baseline network (HRFormerX) on COCO.")
    assert not proposed(nlp, "Our model outperforms the strongest existing method (DualNetX) on COCO.")


def test_a_known_name_the_authors_give_a_new_thing_is_the_papers_own(nlp):
    """The paper that made a name known is in a corpus too: "We propose a new detector, called DETR"."""
    assert "DETR" in proposed(nlp, "We propose a new detector, called DETR, based on a set-based global loss.")
    assert "random erasing" in proposed(nlp, "We present a new method, termed Random Erasing, for training CNNs.")
    assert not proposed(nlp, "We propose to use a model called BERT for the task.")  # nothing new
    assert not proposed(nlp, "Many works use a new variant, called PPO, for control.")  # no proposal of theirs
    assert not proposed(nlp, "We present a novel analysis of the popular optimizer called Adam.")  # what "of" adds
    assert not proposed(nlp, "We introduce a new regularizer for the widely used detector called DETR.")
    assert "Sequential Neural Coding Network" in proposed(
        nlp, "We propose a new kind of connectionist architecture, the Sequential Neural Coding Network, that is "
             "robust to forgetting.")


def test_a_name_given_in_a_sentence_about_others_work_is_not_the_papers_own(nlp):
    text = ("Many UDA works attempt to vanish the domain gap gradually via intermediate spaces, dubbed domain "
            "bridging (DB). We propose a new model.")
    assert "DB" not in proposed(nlp, text)
    assert "DB" in proposed(nlp, "Unlike existing works, we attempt this via intermediate spaces, dubbed domain "
                                 "bridging (DB).")  # the authors' sentence
    assert "SpecMixNet" in proposed(nlp, "Unlike previous methods, our framework, called SpecMixNet, is fast.")


@pytest.mark.parametrize("text, name, own", [
    ("Prior work has proposed a simple strategy for reinforcement learning, dubbed GCSL. We show it fails.", "GCSL",
     False),
    ("A recent study introduced a sampler, called FooSampler, for diffusion models.", "FooSampler", False),
    ("Recent work proposes FooSampler, a sampler for diffusion models.", "FooSampler", False),
    ("This paper proposes a new sampler, called FooSampler, for diffusion models.", "FooSampler", True),
    ("Our work introduces FooSampler, a sampler for diffusion models.", "FooSampler", True),
    ("A comprehensive empirical study confirms that the proposed training strategy, termed as DynamicD, helps.",
     "DynamicD", True),  # the authors' "the proposed"
    ("This short paper introduces a new sampler, called FooSampler, for diffusion models.", "FooSampler", True),
    ("The current paper proposes a new method, called BarNet, for image retrieval.", "BarNet", True),
    # "work" and "study" as verbs are no paper
    ("To make it work at scale, a new framework, termed FooNet, is designed for retrieval.", "FooNet", True),
    ("To study this question, a new benchmark, called QuxBench, is built from web pages.", "QuxBench", True),
])
def test_a_paper_is_the_authors_only_where_a_word_points_at_it_as_theirs(nlp, text, name, own):
    assert (name in proposed(nlp, text)) == own


def test_a_known_short_form_defined_by_another_titled_long_form_is_the_papers_own_name(nlp):
    text = ("We propose the Dynamics-Aware Hybrid Offline-and-Online Reinforcement Learning (H2O) framework to provide "
            "an answer. H2O beats the baselines.")
    ms = [m for m in mentions(nlp, text) if m.text == "H2O"]
    assert ms and all(m.label == "METHOD" for m in ms) and ms[0].proposed  # not the vocabulary's dataset H2O
    assert "MLP" not in proposed(nlp, "Each level, denoted by a Multi-Layer Perception (MLP), takes a point.")  # a typo
    assert not proposed(nlp, "We build on the Deep Residual Learning Framework (ResNet) and propose more.")


@pytest.mark.parametrize("text, name", [
    ("In this paper, we propose a method (BeamCLIP) that can effectively transfer.", "BeamCLIP"),
    ("Based on this observation, we propose a model ('GlassSemNet') that integrates the context.", "GlassSemNet"),
    ("We also propose a stochastic bilevel optimization method (SBiO-BreD) to solve it.", "SBiO-BreD"),
    ("We release a new dataset (FooBench2) for testing it.", "FooBench2"),
])
def test_a_coined_name_in_brackets_after_a_proposals_head_word_is_the_proposal(nlp, text, name):
    assert name in proposed(nlp, text)


@pytest.mark.parametrize("text", [
    "We propose a new loss (MSE) for this.",  # a known name
    "We propose a model (Transformer) for this.",  # no coined name
    "We propose a model that works well (ours) here.",  # a clause before the bracket
])
def test_no_proposal_in_brackets_after_a_head_word_but_a_coined_unknown_name(nlp, text):
    assert not proposed(nlp, text)


@pytest.mark.parametrize("text, name", [
    ("We call our approach Simmer (Safe policy IMproveMEnt for RL) to reflect this.", "Simmer"),
    ("We call this NeRF-RL.", "NeRF-RL"),
    ("We call it GraphDE, and it works.", "GraphDE"),
    ("We call our algorithm MVP, short for MultiValid Prediction.", "MVP"),
    ("We call the resulting models InstructGPT.", "InstructGPT"),  # the paper's own, though a vocabulary knows it
    ("We call the resulting dataset FooSet.", "FooSet"),
    ("We call the resulting tests MMDAggInc, HSICAggInc and KSDAggInc.", "KSDAggInc"),  # any noun after "resulting"
    ("At its core is a novel self-attention mechanism, which we dub HiLo.", "HiLo"),
    # "and" after the authors' own clause: their naming too
    ("We instantiate our method using the proposed pyramid attention and name it PA-former, which is evaluated.",
     "PA-former"),
    # a problem's head word ("paradigm") in the object, but a name that says what does it: a method
    ("We show that value iteration is a convolution, and name the resulting paradigm Symmetric Planner (SymPlan).",
     "SymPlan"),
])
def test_we_call_an_object_by_a_name_proposes_it(nlp, text, name):
    assert name in proposed(nlp, text)


@pytest.mark.parametrize("text, name", [
    ("In this work, we introduce a new method\u2014sparse Hamiltonian flows\u2014that addresses these limitations.",
     "sparse Hamiltonian flows"),
    ("Our proposed method\u2014multi-domain temperature scaling\u2014uses the heterogeneity in the domains.",
     "multi-domain temperature scaling"),
    ("We propose (i) a contrastive objective, and (ii) a decoding method\u2014contrastive search\u2014to encourage it.",
     "contrastive search"),
])
def test_a_name_between_dashes_after_a_proposals_head_word_is_the_proposal(nlp, text, name):
    assert name in proposed(nlp, text)


@pytest.mark.parametrize("text", [
    "We created a series of adversarial training techniques\u2014including a tool that assists humans\u2014to find bugs.",
    "However, the proposed method\u2014when applied on the threat model specifically\u2014enables us to do more.",
    "Prior work used a decoding method\u2014contrastive search\u2014to encourage diversity.",  # not the authors'
])
def test_no_proposal_between_dashes_but_a_name(nlp, text):
    assert not proposed(nlp, text)


def test_a_dataset_the_authors_collect_or_curate_is_theirs(nlp):
    assert "Wild6D" in proposed(nlp, "In this paper, we collect Wild6D, a new unlabeled RGBD object video dataset.")
    assert "ImageNet-Major" in proposed(nlp, "We curate ImageNet-Major: a 68-example slice of obvious mistakes.")
    assert not proposed(nlp, "We collect labels from crowd workers for the images.")


def test_a_naming_verb_after_and_is_the_authors_only_in_their_sentence(nlp):
    assert not proposed(nlp, "Prior methods decompose the problem and name it ParaNet, which we improve.")
    assert "Open Learning" not in proposed(nlp, "We call this new setting Open Learning.")  # a task: named, not proposed


@pytest.mark.parametrize("text, name", [
    ("We propose a new family of topologies, EquiTopo, which has an almost constant degree.", "EquiTopo"),
    ("We then propose a novel episodic memory, LeGEM, for model-free MARL algorithms.", "LeGEM"),
    ("We propose a novel method, OTP, which works.", "OTP"),  # (with a head word, as before)
])
def test_a_coined_name_in_apposition_to_a_proposals_object_is_the_proposal(nlp, text, name):
    assert name in proposed(nlp, text)
    assert not proposed(nlp, text.replace("propose", "study", 1))  # (an authors' proposal only)


def test_new_names_joined_after_a_proposal_verb_are_the_proposals(nlp):
    assert proposed(nlp, "We first design S-IBP and S-CROWN that tackle the non-linear functions.") \
        == {"S-IBP", "S-CROWN"}
    assert not proposed(nlp, "We design CNN and RNN variants that work.")  # known names
    text = "We introduce SignNet and BasisNet\u2014new neural architectures that are invariant to sign flips."
    assert proposed(nlp, text) == {"SignNet", "BasisNet"}  # (the dash ends the names: no list after it)
    text = "We propose Transformers with conditional queries for SGG, namely, TraCQ with a new formulation."
    assert "TraCQ" in proposed(nlp, text)  # "namely" and a comma


def test_we_call_a_problem_by_a_name_names_a_task(nlp):
    text = "We call this problem Vertically Federated Participant Selection, and model it."
    assert ("Vertically Federated Participant Selection", "TASK") in {
        (m.canonical, m.label) for m in mentions(nlp, text)}
    assert not proposed(nlp, text)  # a task is named, no method proposed
    assert not proposed(nlp, "We call this the curse of depth.")  # no name


def test_a_new_pair_after_a_colon_that_ends_the_proposals_description(nlp):
    text = ("We present a new technique for the accelerated training of PINNs that combines scientific computing "
            "with machine learning: discretely-trained PINNs (DT-PINNs).")
    assert proposed(nlp, text) & {"DT-PINNs", "discretely-trained PINNs"}
    known = "We present a new technique for training that combines two methods: stochastic gradient descent (SGD)."
    assert not proposed(nlp, known)


def test_a_past_proposal_verb_after_we_proposes(nlp):
    text = "To address it, we proposed Redundancy-Free Graph Neural Network (RFGNN), in which paths are propagated."
    assert proposed(nlp, text) >= {"RFGNN"} or proposed(nlp, text) >= {"Redundancy-Free Graph Neural Network"}
    assert not proposed(nlp, "The proposed Graph Isomorphism Network (GIN) is evaluated on molecules.")
    assert not proposed(nlp, "Recently, Smith et al. proposed Graph Mixing Networks (GMN) for molecules.")


def test_a_known_short_form_defined_with_a_new_long_form_is_a_proposal(nlp):
    # "NCF" is a known method (neural collaborative filtering); this paper defines its own NCF
    assert proposed(nlp, "We propose a novel Natural Color Fool (NCF) attack to fool classifiers.") >= {"NCF"} or \
        proposed(nlp, "We propose a novel Natural Color Fool (NCF) attack to fool classifiers.") >= {"Natural Color Fool"}
    assert not proposed(nlp, "We propose Low-Rank Adaptation (LoRA) for tuning.")


@pytest.mark.parametrize("text, name", [
    ("In this paper, we avoid this problem by proposing a Discrete Mode Learning (DML) paradigm for image captioning.",
     "DML"),
    ("Our approach, titled Scalable Polynomial Additive Models (SPAM) is scalable.", "SPAM"),
])
def test_proposals_by_a_gerund_or_a_title_word(nlp, text, name):
    assert name in proposed(nlp, text)


def test_a_local_definition_of_a_known_short_name_wins():
    """MCC is a metric in the gazetteer; "dubbed MCC" after the authors' framework makes it their method."""
    nlp = load_pipeline()
    text = ("We propose to let humans and agents collaborate by designing an interpretable Meta-Command "
            "Communication-based framework, dubbed MCC, for human-AI collaboration. The MCC framework has two modules.")
    assert proposed(nlp, text) == {"MCC"}
    assert {m.label for m in mentions(nlp, text) if m.text == "MCC"} == {"METHOD"}
    assert proposed(nlp, "We score models with the Matthews correlation coefficient, called MCC.") == set()


@pytest.mark.parametrize("text", [
    # a short form the abstract defined earlier names an existing thing
    "Semi-supervised learning and active learning (AL) reduce labels. In this work, we focus on designing an AL algorithm.",
    # what a framework is based on is not its name
    "We design an interpretable Meta-Command Communication-based framework for collaboration.",
])
def test_known_or_modifier_names_after_a_proposal_are_not_proposed(nlp, text):
    assert proposed(nlp, text) == set()


@pytest.mark.parametrize("text, own", [
    # the field's abbreviations (standard_pairs.json: defined alike in many background abstracts) after a proposal
    ("We propose a quantum Hamiltonian term (H-term) for policies. First, we make a novel analogy between a Markov "
     "Decision Process (MDP) and a quantum K-spin Ising model.", {"H-term"}),
    ("For a range of activation functions, we establish super-polynomial Statistical Query (SQ) lower bounds.", set()),
    # a short form of the field's defined with a long form of the paper's own is the paper's
    ("We revisit GCL and introduce a new learning paradigm for self-supervised graph representation learning, "
     "namely, Group Discrimination (GD), and propose a novel GD-based method called Graph Group Discrimination (GGD).",
     {"GD", "GGD"}),
])
def test_the_fields_abbreviations_are_not_a_papers_own(nlp, text, own):
    assert proposed(nlp, text) == own


@pytest.mark.parametrize("text, own", [
    ("In this paper, we present a novel one-shot generative domain adaption method, i.e., DiFa, for diverse "
     "generation and faithful adaptation.", {"DiFa"}),
    ("We propose an efficient module for constructing hierarchical propagation, i.e., Gated Propagation Module, "
     "which is designed with single-head attention.", {"Gated Propagation Module"}),
    # a restatement in plain words names nothing
    ("In response, we present an alternative training strategy that is solver-free, i.e., does not call the ILP "
     "solver at all at training time.", set()),
])
def test_a_name_restated_after_the_proposals_object_is_the_proposal(nlp, text, own):
    assert proposed(nlp, text) == own


def test_a_new_pair_in_apposition_to_a_novel_object_without_a_head_word_is_the_proposal(nlp):
    text = ("Additionally, we introduce a novel differentiable spike activity estimation, Evolutionary Surrogate "
            "Gradients (ESG) in SNNs.")
    assert proposed(nlp, text) == {"ESG"}


@pytest.mark.parametrize("text, own", [
    ("Boob et al. recently gave a fast iterative algorithm called Greedy++ for DSG. We study it.", set()),
    ("Hamiltonian mechanics models the time evolution of systems with conserved quantities (called Hamiltonian).",
     set()),
    ("Our encoder is a novel attention based graph neural network architecture called Topoformer which uses "
     "topological transforms.", {"Topoformer"}),
])
def test_a_plain_word_named_in_a_sentence_about_others_work_is_not_a_proposal(nlp, text, own):
    assert proposed(nlp, text) == own


def test_a_placeholder_for_the_papers_own_name_is_no_name(nlp):
    paper = Paper("z", "We present an efficient post-training quantization approach, termed as \\OURS. \\OURS is an "
                       "end-to-end quantization pipeline.", title="ZeroQuant: Efficient Post-Training Quantization")
    (_, ex), = extract([paper], nlp)
    assert ex.proposed == ["ZeroQuant"]
    assert not [m for m in ex.mentions if m.text.lower() == "ours" and not m.generic]


def test_pairs_of_others_work_after_the_proposal_are_not_its_parts(nlp):
    text = ("In this paper, we design and propose a new uncertainty measure, Balanced Entropy Acquisition "
            "(BalEntAcq), which captures the information balance. BalEntAcq captures a well-diversified selection, "
            "unlike other existing uncertainty measures such as BALD, Entropy, or Mean Standard Deviation (MeanSD). "
            "Moreover, we also compare with Curriculum by Smoothing (CBS), a state-of-the-art data-free method.")
    assert proposed(nlp, text) == {"BalEntAcq"}


def test_standard_pairs_come_from_background_abstracts_and_hold_the_fields_abbreviations():
    from kg.nlp.components.specificity import DATA, standard_pairs
    from kg.schema import concept_key
    data = json.loads((DATA / "standard_pairs.json").read_text(encoding="utf-8"))
    assert data["corpora"][0] == "neurips2022-corpus.jsonl" and data["min_papers"] >= 3
    assert not [c for c in data["corpora"] if "gold" in c or "seeds" in c]  # unlabeled abstracts only
    pairs = standard_pairs()
    assert concept_key("Markov decision processes") in pairs[concept_key("MDPs")]
    assert concept_key("group discrimination") not in pairs[concept_key("GD")]


def test_a_known_task_with_a_trailing_phrase_or_a_non_task_head_stays_the_known_task(nlp):
    text = ("We study node classification on large graphs with a new transformer. Offline RL agents are trained with a "
            "federated learning process. Existing works suffer from the so-called mode collapse problem.")
    tasks = by_label(nlp, text, "TASK")
    assert {"node classification", "federated learning", "mode collapse"} <= tasks
    assert not any(" on " in t or t.endswith(("agents", "process")) or t.startswith("so-called") for t in tasks)


def test_pruning_and_quantization_are_methods_as_the_vocabularys_named_kinds_of_them_are(nlp):
    text = "We compress BERT with quantization and magnitude pruning, then apply network pruning to ResNet-50."
    assert {"network quantization", "magnitude pruning", "network pruning"} <= by_label(nlp, text, "METHOD")


@pytest.mark.parametrize("name, task", [
    ("image generation", True), ("neural architecture search", True), ("style transfer", True),
    ("semantic textual similarity", True), ("sentiment analysis", True), ("re-ranking", True),
    ("computational efficiency", False), ("word embeddings", False), ("3D geometry", False), ("video games", False),
])
def test_a_task_name_has_a_task_head(name, task):
    from kg.nlp.labels import names_a_task

    assert names_a_task(name) is task


@pytest.mark.parametrize("text", [
    "We experiment on the WILDS 2.0 datasets Sagawa et al., which are hard.",  # a citation
    "We run experiments on 50 datasets (Tabular, Image, NLP).",  # kinds of data
    "We evaluate on EEG datasets and on GBDT-friendly benchmarks.",
    "In stage 1, we leverage non-RL datasets to learn representations.",
    "Our model runs 6.6x faster on Apple M1 Pro CPU and on iPhone 12 in FP32.",  # devices and number formats
])
def test_citations_data_kinds_modifiers_and_devices_are_no_datasets(nlp, text):
    concepts = {m.canonical for m in mentions(nlp, text) if not m.generic}  # a generic mention names no concept
    assert {m.canonical for m in mentions(nlp, text) if m.label == "DATASET" and not m.generic} <= {"WILDS 2.0"}
    assert not concepts & {
        "Sagawa", "Tabular", "Image", "EEG", "GBDT-friendly", "non-RL", "Apple M1 Pro CPU", "iPhone", "FP32"}


def test_variant_names_with_a_letter_suffix_stay_datasets(nlp):
    found = [m for m in mentions(nlp, "We evaluate robustness on ImageNet-C and CIFAR10-C benchmarks.") if m.label == "DATASET"]
    assert {m.text for m in found} == {"ImageNet-C", "CIFAR10-C"} and not any(m.generic for m in found)


def test_a_proposed_dataset_is_proposed_too(nlp):
    doc = nlp("We design the FactualityPrompts test set and metrics to measure the factuality of LM generations.")
    assert [(m.canonical, m.label) for m in doc._.kg_mentions if m.proposed] == [("FactualityPrompts", "DATASET")]


@pytest.mark.parametrize("text", [
    "We establish a functional central limit theorem (FCLT) for it under weaker conditions.",  # a result
    "Artificial neural networks (ANNs) forget. Furthermore, we present a novel ANN architecture based on splines.",
])
def test_theorems_and_plural_short_forms_defined_before_are_not_proposed(nlp, text):
    assert proposed(nlp, text) == set()


@pytest.mark.parametrize("text, name", [
    ("We scale to T5-3B and compare with Swin-B on ImageNet.", {"T5-3B", "Swin-B"}),
    ("We compare ViT-B16 with ResNet-50.", {"ViT-B/16"}),  # the vocabulary's writing of that size
    ("We fine-tune OPT-1.3B with LoRA.", {"OPT-1.3B"}),
])
def test_a_known_model_with_a_size_the_vocabulary_lacks_is_a_method(nlp, text, name):
    found = {m.canonical for m in nlp(text)._.kg_mentions if m.label == "METHOD" and not m.generic}
    assert name <= found


@pytest.mark.parametrize("text, label, name", [
    ("It reaches an Inception score of 9.68 on CIFAR-10.", "METRIC", "IS"),  # a short form in capitals is a name
    ("We insert a temporal shift module into each block.", "METHOD", "TSM"),  # a spelled-out name in lower case
    ("We report the kernel inception distance of the samples.", "METRIC", "KID"),
    ("We model it with a Gaussian Process surrogate.", "METHOD", "Gaussian processes"),  # title case of "Gaussian process"
])
def test_a_spelled_out_metric_or_method_matches_in_any_case(nlp, text, label, name):
    found = {m.canonical for m in nlp(text)._.kg_mentions if m.label == label and not m.generic}
    assert name in found


@pytest.mark.parametrize("text, task", [
    ("Recommender systems are vulnerable to injective attacks.", "injective attacks"),
    ("We study data-ordering attacks on SGD.", "data-ordering attacks"),
    ("Defending against decision-based attacks is hard.", "decision-based attacks"),
    ("The models resist weak attacks and novel attacks.", None),  # how strong or new, not what kind
    ("Stochastic defenses invalidate attacks in practice.", None),  # a verb, not a kind
    ("We measure the attack success rate.", None),  # "attack" as a modifier
])
def test_the_kind_before_attacks_names_a_task_with_its_head(nlp, text, task):
    tasks = {m.canonical for m in mentions(nlp, text) if m.label == "TASK" and not m.generic}
    assert (task in tasks) if task else not any("attack" in t for t in tasks)


@pytest.mark.parametrize("text, task", [
    ("We conduct data hyper-cleaning tasks on MNIST.", "data hyper-cleaning"),  # not the verb before it
    ("We use a scale-invariant inverse problem solver.", None),  # "problem" modifies "solver"
    ("The model adapts to a given few-shot task quickly.", None),  # which task, not what task
    ("This is the change point problem that we study.", "change point"),
    ("Such models promote trust by conditioning classification tasks on concepts.", None),  # a verb after "by"
])
def test_a_task_named_by_its_head_word_starts_after_verbs_and_ends_at_the_head(nlp, text, task):
    tasks = {m.canonical for m in mentions(nlp, text) if m.label == "TASK" and not m.generic and m.extractor == "context"}
    assert tasks == ({task} if task else set())


@pytest.mark.parametrize("text, tasks", [
    ("Our method helps in tasks such as hierarchical multi-label classification, pathfinding and preference learning.",
     {"hierarchical multi-label classification", "pathfinding", "preference learning"}),
    ("It enables applications such as texture transfer and scale-space interpolation. Code is available.",
     {"texture transfer", "scale-space interpolation"}),
    ("We apply it to problems like bipartite matching, ski-rental and job scheduling.",
     {"bipartite matching"}),  # the list ends at an item that names no task's head ("ski-rental")
    ("It has applications such as biology, neuroscience and finance.", set()),  # fields, not tasks
    ("It helps in tasks such as parking a car or landing an aircraft.", set()),  # clauses
    ("The signal supports applications such as interpolation and encoding.", set()),  # words most abstracts use
    ("We test on tasks, including action recognition, long-term action anticipation, and video alignment.",
     {"action recognition", "long term action anticipation", "video alignment"}),  # a known task, hyphen or not
])
def test_tasks_given_as_examples_of_tasks_or_applications_are_tasks(nlp, text, tasks):
    assert {m.canonical for m in mentions(nlp, text) if m.label == "TASK" and not m.generic} == tasks


@pytest.mark.parametrize("text, metrics", [
    ("It outperforms RL approaches in all key performance metrics, including wirelength, congestion, and density.",
     {"wirelength", "congestion", "density"}),
    ("We compare layers with feature based distance metrics like SVCCA, PWCCA, CKA, and OPD. It holds.",
     {"SVCCA", "PWCCA", "CKA", "OPD"}),
    ("Fairness measures such as parking a car matter.", set()),  # a clause
])
def test_measures_listed_as_a_papers_metrics_are_metrics(nlp, text, metrics):
    assert {m.canonical for m in mentions(nlp, text) if m.label == "METRIC" and not m.generic} == metrics


@pytest.mark.parametrize("text, name", [
    ("We compare against CNN-based models on images.", "CNN"),
    ("Our MLP-based approach is fast.", "MLP"),
    ("We compare ConvNet-based models on images.", "CNN"),  # the vocabulary's name
    ("Our MoCo-based model is fast.", "MoCo"),  # a coined name the vocabulary does not know
    ("Unlike regression-based methods, we use trees.", None),  # a plain word before "-based" names nothing
    ("Regression-based methods fail on this benchmark.", None),  # capitalised only at the sentence's start
    ("We compare with RL-based approaches for chip placement.", None),  # a known name of another kind
    ("We outperform ImageNet-based models on transfer.", None),
    # a plain word the vocabulary knows, longer names, other family words and heads
    ("We compare transformer-based models with ours.", "Transformer"),
    ("These are weaker than dynamic programming-based algorithms.", "dynamic programming"),
    ("We develop a novel MixUp-based strategy to increase replay variation.", "mixup"),
    ("It beats UCB-style algorithms.", "UCB"),
    ("It beats the best non-IMLE-based general-purpose methods.", None),  # built on something else
])
def test_a_name_based_method_class_names_what_it_is_based_on(nlp, text, name):
    found = {m.canonical for m in mentions(nlp, text) if m.label == "METHOD" and not m.generic}
    assert found == ({name} if name else set())


def test_a_family_phrase_is_a_mention_of_the_method_it_is_built_on(nlp):
    text = "The accuracy is below that of recurrent neural network-like learning approaches."
    found = [(m.text, m.canonical) for m in mentions(nlp, text) if m.label == "METHOD" and not m.generic]
    assert found == [("recurrent neural network", "RNN")]  # the words that name it, as the evidence
    text = "We use the GPU-based linear solver FALKON."  # a name after the family word names the phrase
    assert "GPU" not in {m.canonical for m in mentions(nlp, text)}


@pytest.mark.parametrize("text, found", [
    # a family word alone, which the tagger need not find: the method in it, its name as evidence
    ("We propose an approach where an AlphaZero-style agent proves theorems.", [("AlphaZero", "AlphaZero")]),
    ("GAN-like and VAE-like models fall on opposite sides.", [("GAN", "GAN"), ("VAE", "VAE")]),
    ("ReLU-based policies partition the input space.", [("ReLU", "ReLU")]),
    # the abstract's own short form: its long form names it, not the vocabulary's
    ("We study Group Discrimination (GD) and propose a novel GD-based method.",
     [("Group Discrimination", "Group Discrimination"), ("GD", "Group Discrimination")]),
    # a longer known name ending in the word
    ("We propose ProtoVAE, a variational autoencoder-based framework.", [("variational autoencoder", "VAE")]),
    # in any case; and a tagger's phrase around family words is no name of its own
    ("We compare CNN-Based models with AlphaZero-Style agents.", [("CNN", "CNN"), ("AlphaZero", "AlphaZero")]),
    ("Our MAML-based meta-learner beats PPO-style baselines.", [("MAML", "MAML"), ("PPO", "PPO")]),
])
def test_a_family_word_names_the_known_method_in_it(nlp, text, found):
    assert [(m.text, m.canonical) for m in mentions(nlp, text)
            if m.label == "METHOD" and not m.generic and not m.proposed] == found


def test_family_words_are_found_wherever_the_text_has_them():
    from kg.nlp.components.gazetteer import _family_words

    assert [w for _, _, w in _family_words("-like GAN-like models, non-IMLE-based and X.Y-Style nets")] == ["GAN", "X.Y"]


def test_a_task_name_before_a_part_of_a_model_names_no_task(nlp):
    text = "We characterize the effect of the trainable, but identity-initialized prediction head on learning."
    assert not [m for m in mentions(nlp, text) if m.label == "TASK" and not m.generic]
    text = "We introduce a handwritten mathematical expression recognition decoder."
    assert [m for m in mentions(nlp, text) if m.label == "TASK" and m.generic]  # a mention still, with its evidence


@pytest.mark.parametrize("text, found", [
    ("We apply it to real-world anomaly detection.", [("anomaly detection", "anomaly detection")]),
    ("It helps downstream speech recognition tasks.", [("speech recognition tasks", "speech recognition")]),
    ("This enables large-scale Bayesian inference.", [("Bayesian inference", "bayesian inference")]),
])
def test_words_that_judge_a_known_task_are_no_part_of_its_name(nlp, text, found):
    assert [(m.text, m.canonical) for m in mentions(nlp, text) if m.label == "TASK" and not m.generic] == found


def test_a_known_task_and_a_setting_word_name_the_known_task(nlp):
    found = {(m.canonical, m.label) for m in mentions(nlp, "We analyse the federated learning setting with "
                                                            "heterogeneous clients.") if not m.generic}
    assert found == {("federated learning", "TASK")}


def test_an_extension_of_a_name_known_whole_is_that_name(nlp):
    text = "Convolution is integrated into patch embedding and multi-layer perceptron module, forcing the model to fit."
    found = {m.canonical for m in mentions(nlp, text) if m.label == "METHOD" and not m.generic}
    assert "perceptron" not in found and found & {"MLP", "multi-layer perceptron"}  # not a perceptron of some size


@pytest.mark.parametrize("text, name", [
    ("Agents trained by self-play reach expert level.", "self-play"),
    ("We seed the centers with k-means++ and refine them.", "k-means++"),
    ("The iterates of gradient ascent on the dual converge.", "gradient ascent"),
    ("A tensor-train decomposition compresses the layer.", "tensor-train decomposition"),
    ("The policy follows the perturbed leader: follow-the-perturbed-leader (FTPL) has low regret.",
     "follow-the-perturbed-leader"),
])
def test_classic_methods_are_in_the_vocabulary(nlp, text, name):
    assert name in {m.canonical for m in mentions(nlp, text) if m.label == "METHOD" and not m.generic}


@pytest.mark.parametrize("text", [
    "We investigate an online prediction strategy named as Discounted-Normal-Predictor [Kapralov and Panigrahy, 2010] "
    "for smoothed online convex optimization.",
    "We study a sampler called GibbsNet [12] in this setting.",
    "We revisit a procedure named HopNet (Smith et al., 2020) for graphs.",
])
def test_a_name_given_with_its_citation_is_not_the_papers_own(nlp, text):
    assert proposed(nlp, text) == set()


@pytest.mark.parametrize("text, own", [
    ("We study a sampler called GibbsNet [5-7] in this setting.", set()),  # reference numbers, one token
    ("We investigate a strategy named as Discounted Normal Predictor (DNP) [Kapralov and Panigrahy, 2010] for it.",
     set()),  # a pair, then its citation
    ("We introduce a new dataset, called ChronoQuestions (covering events from 1990 to 2020), for QA.",
     {"ChronoQuestions"}),  # years, but no citation
    ("We release a new benchmark called CodeBench (2024) for code models.", {"CodeBench"}),
    ("We propose a normalization, called UnitNorm [0, 1], for deep nets.", {"UnitNorm"}),  # an interval
])
def test_a_bracket_after_an_own_name_is_a_citation_only_when_it_cites(nlp, text, own):
    assert proposed(nlp, text) == own


@pytest.mark.parametrize("text, names", [
    ("The resultant agents, called DQN Pro and Rainbow Pro, exhibit large gains.", {"DQN Pro", "Rainbow Pro"}),
    ("This leads to a novel contrastive MI estimator we name FLO. We show that it is tight.", {"FLO"}),
    ("We present the first distributed methods for variational inequalities with compressed communication: "
     "MASHA1 and MASHA2. Our theory holds.", {"MASHA1", "MASHA2"}),
    ("We propose a procedure coined Faster-Fast and Free Memory Method (F3M) for kernel products.", {"F3M"}),
    ("We also give the name of the authors.", set()),  # "name" as a noun
    ("We propose a method, which we call GraphDE, and Theorem 1 shows its convergence.", {"GraphDE"}),
])
def test_own_names_in_lists_and_after_we_name(nlp, text, names):
    found = proposed(nlp, text)
    assert found >= names and not (names == set() and found) and "Theorem" not in found


@pytest.mark.parametrize("text, names", [
    # a name before a colon is the proposal; what follows the colon describes it
    ("In this work, we introduce Partial G-CNNs: G-CNNs able to learn partial equivariance.", {"Partial G-CNNs"}),
    ("We introduce the kNNxKDE algorithm: a hybrid method for conditional density estimation.", {"kNNxKDE"}),
    # a phrase after a colon, capitalised only because it starts there, is named by its short form
    ("We propose a novel IRL algorithm: Active exploration for Inverse Reinforcement Learning (AceIRL), which "
     "explores.", {"AceIRL"}),
    ("We present two algorithms: LinearTCA and LinearTCA+.", {"LinearTCA", "LinearTCA+"}),
    ("We propose two new algorithms—FooNet and BarNet—for graph matching.", {"FooNet", "BarNet"}),  # a dash too
    # a list going on with names the vocabulary knows lists existing resources
    ("In this work, we introduce a testbed of six publicly available data sources—YFCC, LAION, Conceptual "
     "Captions, WIT, RedCaps, Shutterstock—to investigate robustness.", set()),
    ("We introduce a testbed of six data sources: YFCC, LAION, Conceptual Captions and RedCaps.", set()),
    ("We propose two variants: FooNet and BarNet, and BERT serves as the teacher.", {"FooNet", "BarNet"}),  # a clause
    # a title-cased name runs on over "of"
    ("We propose a novel approach, called Self-supervised Aggregation of Diverse Experts, which has two parts.",
     {"Self-supervised Aggregation of Diverse Experts"}),
    ("We propose a new approach for a mixture model, namely the Online Discrepancy Distance Learning (ODDL). ODDL "
     "estimates the discrepancy.", {"ODDL"}),
    # a name already in use is no new one
    ("Learning from data streams, also called Task-Free Continual Learning (TFCL) remains challenging.", set()),
    # after an article, a name that modifies a noun names a quantity, not a method
    ("The gap, which we call the QoS regret, behaves like a queue.", set()),
    ("Our algorithm called HCSE outputs a cluster tree.", {"HCSE"}),
    # one-word names listed after a colon are names, not words starting a phrase
    ("We present two new algorithms: Hydra and Medusa.", {"Hydra", "Medusa"}),
    ("We present the first distributed methods for variational inequalities: Hydra and Medusa.", {"Hydra", "Medusa"}),
    # a modifier before the colon is no name: the list after it names the proposal
    ("We propose a Bayesian algorithm: BOSS, which scales to high dimensions.", {"BOSS"}),
    ("We propose GNN-based methods: GraphA and GraphB, which scale.", {"GraphA", "GraphB"}),
    ("We propose a new Hessian-free optimizer: HFO, which needs no second derivatives.", {"HFO"}),
    # after "as", a name followed by a word is still a name
    ("We propose a new estimator, denoted as DRE hereafter.", {"DRE"}),
    # a known name carried on over "of" is no new one; a problem so named is a task
    ("We identify a training regime, which we call Edge of Stability, where sharpness hovers.", set()),
    ("We study scheduling problems called the multi-robot reward collection problem (MRRC).", set()),
    # a pair defined before a later colon names the proposal
    ("We propose a RECtified Online Optimization algorithm (RECOO) and consider two settings: fixed and varying.",
     {"RECOO"}),
])
def test_own_names_around_colons_and_naming_words(nlp, text, names):
    assert proposed(nlp, text) == names


@pytest.mark.parametrize("text, label", [
    ("We propose FooBench, a new benchmark for reasoning.", "DATASET"),
    ("This paper introduces The Neural Testbed: an open source benchmark for evaluating agents.", "DATASET"),
    ("We create EgoClip, a 1st-person video-text pretraining dataset of clips.", "DATASET"),
    ("We propose FooNet, a method for learning from datasets.", "METHOD"),  # the description's head is "method"
])
def test_an_own_name_takes_the_label_its_description_gives(nlp, text, label):
    assert {m.label for m in mentions(nlp, text) if m.proposed} == {label}


@pytest.mark.parametrize("text", [
    "We propose Rendering, which improves pose estimation.",
    "We propose a novel IRL algorithm: Active exploration for inverse reinforcement learning, which explores.",
])
def test_one_common_word_is_never_a_proposed_name(nlp, text):
    assert not proposed(nlp, text)


def test_common_words_come_from_lower_case_uses():
    from kg.nlp.components.specificity import load_specificity

    spec = load_specificity()
    assert spec.plain_word("Rendering") and spec.plain_word("direct")
    assert not spec.plain_word("Flamingo") and not spec.plain_word("LOG") and not spec.plain_word("ModaMixer")


def test_a_title_long_name_with_its_short_form_is_named_by_the_short_form():
    from kg.nlp.components.title import title_name

    assert title_name("Video PreTraining (VPT): Learning to Act by Watching Unlabeled Online Videos") == \
        ("VPT", "METHOD", False)
    assert title_name("Long Range Arena (LRA): A Benchmark for Efficient Transformers") == ("LRA", "DATASET", False)
    assert title_name("Sparse Mixture of Experts (SMoE): Routing at Scale")[0] == "SMoE"  # "of" spells nothing
    assert (title_name("Learning from Mistakes (XY): on robustness") or ("",))[0] != "XY"  # capitals spelling nothing


def test_an_ambiguous_measure_is_a_metric_next_to_a_number_or_a_comparison(nlp):
    assert "model size" in by_label(nlp, "We match it with a significantly smaller model size.", "METRIC")
    assert "model size" in by_label(nlp, "Our model size is 12 MB.", "METRIC")
    assert "model size" not in by_label(nlp, "We study how model size affects robustness.", "METRIC")


@pytest.mark.parametrize("text, datasets", [
    ("We evaluate our agents in the VirtualHome environment.", {"VirtualHome"}),
    ("Experiments in the Reacher and Scavenger environments show gains.", {"Reacher", "Scavenger"}),
    ("We propose a QD environment generation algorithm.", set()),  # "environment" modifies "generation"
    ("Greed runs fast even in a CPU-only environment.", set()),  # a kind, not a name
    ("We solve a benchmark with visually rich 3-D environments.", set()),
    ("Agents act in 2.5D environments.", set()),
])
def test_a_name_before_environment_is_a_dataset(nlp, text, datasets):
    assert by_label(nlp, text, "DATASET") == datasets


def test_an_adjectival_long_form_names_the_concept_of_its_noun(nlp):
    text = "We study the differentially private (DP) k-means problem. Our DP algorithms are fast."
    ms = [m for m in mentions(nlp, text) if m.text in ("differentially private", "DP")]
    assert ms and {m.canonical for m in ms} == {"differential privacy"} and not any(m.generic for m in ms)


def test_a_lemma_or_theorem_is_no_method(nlp):
    text = ("Our results are developed based on a novel arm-trapping lemma. This generic complexity result shows that "
            "any algorithm to find the best arm needs many samples.")
    assert not any("lemma" in m.canonical for m in mentions(nlp, text) if not m.generic)


def test_a_word_that_judges_is_no_part_of_a_name(nlp):
    methods = by_label(nlp, "Our method converges faster than vanilla SGD and vanilla Adam on CIFAR-10.", "METHOD")
    assert {"SGD", "Adam"} <= methods and not any("vanilla" in m for m in methods)


@pytest.mark.parametrize("text, task, fragment", [
    ("We solve a constrained convex problem with iterative solutions.", None, "constrained convex"),
    ("We study the linear inverse problem of recovering signals.", "linear inverse problem", "linear inverse"),
])
def test_a_task_name_ending_in_an_adjective_keeps_its_head_or_is_none(nlp, text, task, fragment):
    tasks = {m.canonical for m in mentions(nlp, text) if m.label == "TASK" and not m.generic}
    assert fragment not in tasks and (task is None or task in tasks)


def test_a_task_head_before_an_adjective_still_ends_the_name(nlp):
    from kg.nlp.components.context import task_candidates

    doc = nlp("Our bound makes the subset selection problem tractable.")
    assert "subset selection" in {doc[c.start:c.end].text for c in task_candidates(doc, frozenset())}


@pytest.mark.parametrize("text, names", [
    ("Experiments show clear improvements of our proposed Brain Network Transformer on ABIDE.",
     {"Brain Network Transformer"}),
    ("Our proposed Sparse Interaction Additive Networks (SIAN) construct a bridge between the two.", {"SIAN"}),
    ("It improves further with our proposed GSD-S dataset.", {"GSD-S"}),
    ("We validate our proposed MCMC algorithm with simulations.", set()),  # a known name
    ("The momentum distribution of our Fixed-Distance HMC (FDHMC) is not Gaussian.", {"FDHMC"}),
    ("In this paper we show that our Machine Learning (ML) model is fast.", set()),  # an umbrella term
    ("Our new Bayesian approach scales well.", set()),  # a modifier before a method's head word
    ("Our proposed Transformer-based model wins.", set()),  # what it is based on
    ("It helps speech models via our proposed S3-Router framework.", {"S3-Router"}),  # a digit: a name
    # superscripts in a name ("M³ViT"; in a word, the cleaner writes "S$^3$Delta" plain)
    ("We automatically search sparse structures, and we propose S³Delta for it.", {"S³Delta"}),
    ("To address this, we propose the Re³Writer, which imitates the working patterns of physicians.", {"Re³Writer"}),
    ("We build on Influence Function (IF) and propose source-aware IF, which leverages the sources.",
     {"source-aware IF"}),  # a variant of a name defined before it
    ("These are Markov chain score ascent (MCSA) methods. We develop a novel MCSA scheme, parallel MCSA (pMCSA), "
     "that achieves a tighter bound.", {"pMCSA"}),  # the appositive names it, not the defined MCSA
    ("Objects are bags in multiple instance learning (MIL), and our novel MIL models reconstruct rewards.", set()),
    # "the proposed" names the paper's own too, when the name is coined
    ("The proposed Neural SPDE model provides an extension to two popular classes.", {"Neural SPDE"}),
    ("Experiments show the proposed IB-GP model performs competitively.", {"IB-GP"}),
    ("The proposed Implicit Nonlinear Diffusion Model (INDM) learns by combining flows.", {"INDM"}),
    ("We study conditional independence (CI) and show the power of the proposed CI test.", set()),  # described
    ("We show that the proposed Gaussian noise-based distillation works.", set()),  # no name
    ("Li et al. introduced TreeNet for parsing. We show that the proposed TreeNet model is biased.", set()),  # others'
])
def test_own_names_after_our_proposed_and_variants_of_defined_names(nlp, text, names):
    assert proposed(nlp, text) == names


@pytest.mark.parametrize("text, metric", [
    ("To fix these issues, we propose a novel metric named OpenAUC. Compared with existing metrics, it is better.",
     "OpenAUC"),
    ("We introduce a new metric, called Rashomon Capacity, to measure predictive multiplicity.", "Rashomon Capacity"),
    # a description after the name says it is a measure
    ("In this paper, we propose second-split forgetting time (SSFT), a complementary metric that tracks the epoch.",
     "second-split forgetting time"),
    ("First, we introduce effective invariance (EI), a simple and reasonable measure of model invariance.",
     "effective invariance"),
])
def test_a_newly_named_measure_is_a_metric_not_a_proposed_method(nlp, text, metric):
    found = mentions(nlp, text)
    assert any(m.canonical == metric and m.label == "METRIC" for m in found) and not proposed(nlp, text)


def test_the_names_defined_after_a_new_metric_are_the_authors_methods(nlp):
    text = ("We propose a novel metric called the Unified Diversity Measure (UDM). Based on UDM, we design the "
            "UDM-Fictitious Play (UDM-FP) and UDM-Policy Space Response Oracle (UDM-PSRO) algorithms.")
    assert proposed(nlp, text) == {"UDM-FP", "UDM-PSRO"}
    # a measure's noun earlier in the clause does not make the name a metric
    assert proposed(nlp, "We predict maps from the input measures, which we call Meta OT.") == {"Meta OT"}


@pytest.mark.parametrize("text, verb", [
    ("This paper studies the problem of conducting self-supervised learning for node representation learning on "
     "graphs.", "conducting"),
    ("One of the key challenges in deploying RL to real-world applications is to adapt to variations.", "deploying"),
    ("These highlight opportunities in equipping language models with the ability to generalize.", "equipping"),
])
def test_no_name_starts_with_a_verb_taking_its_object(nlp, text, verb):
    starts = {m.text.split()[0].lower() for m in mentions(nlp, text) if not m.generic}
    assert verb not in starts


@pytest.mark.parametrize("text, name", [
    ("We train spiking neural networks on event data.", "spiking"),
    ("We study streaming speech recognition.", "streaming"),
    ("Boosting decision trees is a strong baseline on tabular data.", "boosting"),  # a name of its own
])
def test_a_gerund_that_names_a_kind_still_starts_a_name(nlp, text, name):
    assert any(m.text.lower().startswith(name) for m in mentions(nlp, text) if not m.generic)


@pytest.mark.parametrize("text, name", [
    ("We revisit Oja’s rule for streaming PCA.", "Oja's rule"),
    ("The estimator relies on Hutchinson's estimator of the trace.", "Hutchinson's estimator"),
    ("We analyze Polyak's classical averaging scheme.", "Polyak's classical averaging scheme"),
    ("We analyze Goldstein's classical subgradient method.", None),  # the vocabulary's subgradient method, first
    ("We speed up Sinkhorn's algorithm.", "Sinkhorn algorithm"),  # as the vocabulary names it
    ("Today's best performing algorithm is slow.", None),  # a common word, no person's name
    ("We tighten Hoeffding's inequality.", None),  # a theory result, no method
    ("Oja's update rule converges.", "Oja's update rule"),  # the last head word
    ("We use the 'Hutchinson' estimator for traces.", None),  # a closing quote, no possessive
    ("Erdos' probabilistic method gives a bound.", "Erdos' probabilistic method"),
])
def test_a_method_named_after_a_person_is_found_whole(nlp, text, name):
    found = {m.canonical for m in mentions(nlp, text) if m.label == "METHOD" and m.extractor == "context"}
    assert found == ({name} if name else set())


def test_parts_of_the_proposed_method_with_coined_short_forms_are_proposed(nlp):
    text = ("We propose AFNet for dense prediction. It stacks an adaptive fusion block (AFuB) and an adaptive feature "
            "block (AFeB) over a backbone. It reaches the state of the art (SotA) on three benchmarks.")
    assert proposed(nlp, text) == {"AFNet", "AFuB", "AFeB"}  # not a phrase every abstract uses ("SotA")
    text = "We propose DrugNet. We run Mechanism-Of-Action (MoA) classification on JUMP-CP."
    assert proposed(nlp, text) == {"DrugNet"}  # what a task is of
    text = "We propose FooNet. It runs on a system-on-chip (SoC) and tracks the center of mass (CoM) of the robot."
    assert proposed(nlp, text) == {"FooNet"}  # the lower case of a function word's letter
    text = ("We propose FooNet for retrieval. It contains a Cross Modal Grouping Network, namely CMGN. It also uses an "
            "adaptive fusion block (AFuB).")
    assert {"CMGN", "AFuB"} <= proposed(nlp, text)


def test_a_construction_verb_proposes_too(nlp):
    text = "Thus, we construct polynomial integer neural networks (PINNs) to enable our framework."
    assert "PINNs" in proposed(nlp, text)
    # the paper's own ARC, named by its short form as proposed methods are, is no vocabulary's ARC dataset
    text = "We construct Adversarial Response Characteristics (ARC) features. ARC detects attacks."
    assert {(m.canonical, m.label) for m in mentions(nlp, text) if m.text == "ARC"} == {("ARC", "METHOD")}


@pytest.mark.parametrize("text, names", [
    ("We develop the first adversarial attack on Go AIs that searches the states.", set()),  # "first" is no result
    ("It reaches 71.3 mIoU on Foo-Seg and more.", {"Foo-Seg"}),  # a number in digits before "on" is one
    # a part or a property of something is none
    ("This convergence is achieved without any assumption on the Jacobian of the operator.", set()),
])
def test_a_dataset_after_on_needs_an_evaluation_word_or_a_number_in_digits(nlp, text, names):
    found = {m.text for m in mentions(nlp, text) if m.label == "DATASET" and m.extractor == "context"}
    assert found == names


def test_a_list_that_names_known_datasets_names_datasets(nlp):
    text = ("We introduce a testbed of six publicly available data sources: YFCC, LAION, Conceptual Captions, WIT, "
            "RedCaps, Shutterstock.")
    assert {"YFCC", "WIT", "RedCaps", "Shutterstock"} <= by_label(nlp, text, "DATASET")
    # the name after "and" ends the list; a name the paper gives its method stays a method
    text = ("We propose FooFormer. On the WikiText-103, IWSLT'14 De-En and WMT'14 En-De, FooFormers use fewer "
            "parameters.")
    assert "FooFormers" not in by_label(nlp, text, "DATASET")
    text = "We compare SimCLR, BYOL and MoCo on ImageNet and CIFAR-10."  # one known dataset in a list of methods
    assert by_label(nlp, text, "DATASET") == {"ImageNet", "CIFAR-10"}


def test_a_list_that_names_known_methods_names_methods(nlp):
    text = "We compare with UCB, Thompson Sampling, Input Perturbation and StabL on many real-world tasks."
    assert {"Input Perturbation", "StabL"} <= by_label(nlp, text, "METHOD")
    text = "It unifies explanation methods (LIME, C-LIME, SHAP, Vanilla Gradients, Gradients x Input) in one view."
    found = by_label(nlp, text, "METHOD")
    assert {"C-LIME", "Vanilla Gradients"} <= found and "Gradients" not in found  # not an everyday word alone


def test_datasets_of_a_defined_task_are_no_dataset_of_its_short_form(nlp):
    text = ("We study object-goal navigation (ObjectNav). We evaluate our agents on three ObjectNav datasets (Gibson, "
            "HM3D, and MP3D) and observe gains.")
    assert by_label(nlp, text, "DATASET") == {"Gibson", "HM3D", "MP3D"}
    text = "We collect labels with Amazon Mechanical Turk (AMT). The AMT dataset is large."
    assert "Amazon Mechanical Turk" in by_label(nlp, text, "DATASET")  # a named long form names a dataset


def test_data_of_a_kind_the_vocabulary_names_after_a_person_is_no_dataset(nlp):
    # an eponym the vocabulary writes in a method's name ("hidden Markov model", "Gaussian processes")
    text = "We derive bounds for deep neural networks with Markov datasets and with Gaussian data."
    assert by_label(nlp, text, "DATASET") == set()
    assert by_label(nlp, "We also evaluate on the Traffic dataset and on the Cora dataset.", "DATASET") \
        == {"Traffic", "Cora"}


def test_benchmarks_named_by_the_initials_of_the_papers_task_are_no_dataset(nlp):
    text = ("We unify information extraction with one model. It is used in the IE community. Over 12 IE "
            "benchmarks and the ZQRB benchmark, our system shows significant improvements.")
    assert by_label(nlp, text, "DATASET") == {"ZQRB"}


def test_a_name_a_value_measures_ends_a_list_of_places(nlp):
    # "and NAME by a value" after the places of a result: a new clause's object
    text = ("Our method reduces the latency of DDIM by 3.0x on RTX 3090 and 6.6x on Apple M1 Pro CPU, and GauGAN "
            "by 4.2x on RTX 3090.")
    assert "GauGAN" not in by_label(nlp, text, "DATASET")
    assert by_label(nlp, "It achieves 91.2% accuracy on FooBench, BarSet and BazData.", "DATASET") \
        == {"FooBench", "BarSet", "BazData"}
    # the places a gain is measured on: "on X by 2.1%" (no value before "on")
    assert by_label(nlp, "Our method outperforms the previous state of the art on Zorblax by 2.1% in accuracy.",
                    "DATASET") == {"Zorblax"}
    assert by_label(nlp, "Our method outperforms prior work on FooBench and BarSet by 3.4% and 2.2%.",
                    "DATASET") == {"FooBench", "BarSet"}


def test_a_bracket_inside_a_formula_defines_no_short_form():
    from kg.model import Paper
    from kg.nlp.extract import extract

    text = ("Then we design a procedure that provably learns a near-optimal policy with "
            "$O(\\poly(A) + \\poly(M,H)^{\\min(M,H)})$ interactions. It works.")
    [(_, ex)] = list(extract([Paper(id="p", text=text)]))
    assert not [m for m in ex.mentions if "provably" in m.text]


def test_the_head_word_nearest_the_naming_word_says_what_is_named(nlp):
    ms = mentions(nlp, "As we show on manipulation tasks, our method referred to as latent-variable advantage-weighted "
                       "policy optimization (LAPO), improves the performance.")
    assert {(m.canonical, m.label) for m in ms if m.proposed} == {("LAPO", "METHOD")}
    ms = mentions(nlp, "To distill a dataset, we propose a novel dataset factorization approach, termed HaBa, which "
                       "works.")
    assert {(m.canonical, m.label) for m in ms if m.proposed} == {("HaBa", "METHOD")}
    ms = mentions(nlp, "We build a new simulation environment called GridWorldX for testing agents.")
    assert {(m.canonical, m.label) for m in ms if m.proposed} == {("GridWorldX", "DATASET")}  # an environment
    ms = mentions(nlp, "We study new problems called Foo Bar Matching, which are hard.")
    assert {(m.canonical, m.label) for m in ms if m.text == "Foo Bar Matching"} == {("Foo Bar Matching", "TASK")}


def test_a_pair_the_authors_call_novel_after_their_proposal_is_part_of_it(nlp):
    text = ("We propose FSD, a fully sparse detector. FSD is built upon the general sparse voxel encoder and a novel "
            "sparse instance recognition (SIR) module. SIR first groups the points.")
    assert proposed(nlp, text) == {"FSD", "SIR"}
    text = "We propose FSD, a fully sparse detector. Prior work used a sparse instance recognition (SIR) module."
    assert proposed(nlp, text) == {"FSD"}


@pytest.mark.parametrize("text", [
    "We present ImageNet, a large-scale image dataset, as the testbed and evaluate our new pruning method.",
    "We propose the use of ImageNet, a large dataset, for pretraining FooNet.",
    "We introduce BERT, a pretrained language model, into the retrieval pipeline for ranking.",
    "In this work we propose a new training scheme. We introduce Adam, an adaptive optimizer, to train it.",
    "We build on a method referred to as Model-Agnostic Meta-Learning (MAML) and propose a faster variant.",
    "We propose FooNet & BarNet, two new networks for vision.",  # two coined names, not one
])
def test_known_names_an_aside_describes_or_others_named_are_not_proposed(nlp, text):
    assert not {"ImageNet", "BERT", "Adam", "MAML", "FooNet & BarNet"} & proposed(nlp, text)


def test_the_abstracts_lower_case_use_of_a_proposed_long_form_is_not_the_proposal(nlp):
    ms = mentions(nlp, "We propose a new Attention Process (AP) model. The attention processes in the brain differ.")
    assert "AP" in {m.canonical for m in ms if m.proposed}
    assert not any(m.canonical == "AP" for m in ms if m.text.startswith("attention process"))


def test_the_papers_own_name_has_one_label():
    """A dataset or a metric where a proposal rule reads the own name so (the title's name alone reads as a method),
    else a method: never two readings of one thing the paper introduces."""
    from kg.model import Paper
    from kg.nlp.extract import extract

    paper = Paper("h", "To fill in the gap, we propose a large-scale and semantic-rich synthetic HSI dataset, "
                       "denoted as HUMANISE, by aligning motions with scenes.",
                  title="HUMANISE: Language-conditioned Human Motion Generation in 3D Scenes")
    (_, ex), = extract([paper])
    assert {m.label for m in ex.mentions if m.canonical == "HUMANISE"} == {"DATASET"}
    paper = Paper("s", "To this end, a novel unsupervised paradigm named SNAKE is proposed, which is short for "
                       "shape-aware neural 3D keypoint field. We show that SNAKE detects keypoints. SNAKE is fast.",
                  title="SNAKE: Shape-aware Neural 3D Keypoint Field")
    (_, ex), = extract([paper])
    assert {m.label for m in ex.mentions if m.canonical == "SNAKE"} == {"METHOD"}


def test_a_longer_name_found_once_names_every_place_that_writes_its_words():
    """The tagger extends "text generation" to "open-ended text generation" in one sentence, not in the next; the
    paper names one task throughout. The title's own name and another kind read in place keep theirs."""
    paper = Paper("p1", "In this work we measure the factual accuracy of large-scale LMs for open-ended text generation. "
                        "Popular sampling algorithms (e.g., top-p) in open-ended text generation can harm the factuality.",
                  title="Factuality Enhanced Language Models for Open-Ended Text Generation")
    (_, ex), = extract([paper])
    tasks = {m.canonical.lower() for m in ex.mentions if m.label == "TASK"}
    assert "open-ended text generation" in tasks and "text generation" not in tasks
    paper = Paper("p2", "Despite the core role of sparse logistic regression in statistics, it lacks a good solution.",
                  title="A Conditional Randomization Test for Sparse Logistic Regression in High-Dimension")
    (_, ex), = extract([paper])
    assert {(m.label, m.in_title) for m in ex.mentions if m.canonical == "sparse logistic regression"} == {
        ("TASK", True), ("METHOD", False)}


def test_a_longer_name_without_its_head_word_names_the_title_too():
    paper = Paper("p1", "We study the phase retrieval problem. We then address the misspecified phase retrieval problem.",
                  title="Misspecified Phase Retrieval with Generative Priors")
    (_, ex), = extract([paper])
    assert {m.canonical.lower() for m in ex.mentions if m.label == "TASK" and m.in_title} == {
        "misspecified phase retrieval"}


def test_a_problem_named_by_its_letters_drops_the_head_word_they_leave_out(nlp):
    doc = nlp("We study the densest subgraph problem (DSG) and the densest subgraph local decomposition problem "
              "(DSG-LD) in undirected graphs. Greedy++ solves DSG.")
    assert {m.canonical for m in doc._.kg_mentions if m.label == "TASK"} == {
        "densest subgraph", "densest subgraph local decomposition"}


def _methods(nlp, text):
    return {m.canonical for m in mentions(nlp, text) if m.label == "METHOD" and not m.generic}


@pytest.mark.parametrize("text,name", [
    ("We propose a factuality-enhanced training method that uses TopicPrefix for better awareness of facts.",
     "TopicPrefix"),
    ("Their results are consistent with the recent text-to-image model CogView2 on all prompts.", "CogView2"),
])
def test_a_name_in_mixed_case_is_a_method_without_the_taggers_support(nlp, text, name):
    assert name in _methods(nlp, text)


@pytest.mark.parametrize("text,name", [
    ("The softmax parameterization makes it difficult for gradient-based algorithms in seeking NEs.", "NEs"),
    ("This solves an open question by DeVore et al. (2021) on approximation.", "DeVore"),
    ("We extend the recent result of Bubeck and Sellke [NeurIPS'2021] on robust models.", "NeurIPS'2021"),
    ("Our theory improves the results by [Huang et al. NeurIPS21; Wu et al. NeurIPS21] on overparameterization.",
     "NeurIPS21"),
    ("See the implementation of DBLP: journals / corr / ZarembaSV14, for an example of the recipe.", "ZarembaSV14"),
    ("We thank RonJ.Weiss1 for the discussions of the vocoder on the recordings.", "RonJ.Weiss1"),
])
def test_plural_acronyms_people_venues_and_citation_keys_are_no_methods(nlp, text, name):
    assert name not in _methods(nlp, text)


def test_the_long_form_of_the_papers_own_short_name_names_it_too(nlp):
    paper = Paper(id="p", title="NeMF: Neural Motion Fields for Kinematic Animation",
                  text="We express the vast motion space as a continuous function over time, hence the name Neural "
                       "Motion Fields (NeMF). NeMF uses a neural network to learn this function.")
    (_, ex), = extract([paper], nlp)
    names = {(m.text, m.canonical, m.proposed) for m in ex.mentions if not m.in_title}
    assert ("Neural Motion Fields", "NeMF", True) in names and ("NeMF", "NeMF", True) in names
    assert ex.aliases.get("NeMF") == ["Neural Motion Fields"]  # one concept, the long form its alias


def test_a_title_that_spells_out_the_papers_own_name_names_it_once(nlp):
    paper = Paper(id="p", title="CoNT: Contrastive Neural Text Generation",
                  text="We propose a new Contrastive Neural Text generation framework, CoNT. CoNT addresses the "
                       "bottlenecks of contrastive learning for text generation.")
    (_, ex), = extract([paper], nlp)
    methods = {m.canonical for m in ex.mentions if m.label == "METHOD"}
    assert "CoNT" in methods and not {"Contrastive Neural Text generation",
                                      "Contrastive Neural Text Generation"} & methods


def test_the_title_long_form_reads_the_names_initials():
    from kg.nlp.components.title import title_long_form

    assert title_long_form("MsSVT: Mixed-scale Sparse Voxel Transformer for 3D Object Detection") == (
        "MsSVT", "Mixed-scale Sparse Voxel Transformer")
    assert title_long_form("GraphDE: A Generative Framework for Debiased Learning") is None
    assert title_long_form("Flamingo: a Visual Language Model for Few-Shot Learning") is None


@pytest.mark.parametrize("text,others,own", [
    ("We propose a variation of the Hamiltonian Monte Carlo sampling (HMC) where the equations of motion are "
     "simulated for a fixed distance.", {"HMC"}, set()),
    ("We develop a variant of the MASTER algorithm that adapts to drifting rewards.", {"MASTER"}, set()),
    ("We further propose an accelerated version of the SBiO-BreD method (ASBiO-BreD) using variance reduction.",
     set(), {"ASBiO-BreD"}),
])
def test_a_variant_of_a_method_is_the_papers_own_but_the_method_is_not(nlp, text, others, own):
    found = proposed(nlp, text)
    assert not others & found and own <= found


@pytest.mark.parametrize("text, label, name", [
    ("We train the network with gradient-descent and data-augmentation.", "METHOD", "gradient descent"),
    ("We train the network with gradient-descent and data-augmentation.", "METHOD", "data augmentation"),
    ("The planner runs Monte-Carlo tree search at every step.", "METHOD", "Monte Carlo tree search"),
    ("Graph networks rely on message-passing.", "METHOD", "message passing"),
    # and a hyphenated name written with spaces
    ("In meta reinforcement learning, an agent adapts to new tasks.", "TASK", "meta-reinforcement learning"),
    ("We study class incremental learning with rehearsal.", "TASK", "class-incremental learning"),
    ("Test time adaptation adapts a model during inference.", "TASK", "test-time adaptation"),
    ("Chain of thought prompting elicits reasoning.", "METHOD", "chain-of-thought prompting"),
])
def test_a_known_name_written_with_hyphens_or_spaces_for_them_is_that_name(nlp, text, label, name):
    assert name in by_label(nlp, text, label)


@pytest.mark.parametrize("text, label, name", [
    ("We show results on image colourization and image decompression.", "TASK", "image colorization"),
    ("We show results on image colourisation and image decompression.", "TASK", "image colorization"),
    ("The encoder is pre-trained with masked image modelling.", "METHOD", "masked image modeling"),
    ("We study implicit regularisation in deep networks.", "TASK", "implicit regularization"),
    ("The agent learns by behavioural cloning from demonstrations.", "METHOD", "behavior cloning"),
])
def test_a_known_name_in_british_spelling_is_that_name(nlp, text, label, name):
    assert name in by_label(nlp, text, label)


def test_british_spellings_of_a_name():
    from kg.nlp.components.gazetteer import british

    assert british("image colorization") == ["image colourization", "image colourisation"]  # Oxford's and British
    assert british("language modeling") == ["language modelling"]
    assert british("k-nearest neighbor") == ["k-nearest neighbour"]
    assert british("analyze") == ["analyse"]
    assert [british(w) for w in ("size", "sampling", "tensor", "feeling")] == [[], [], [], []]


@pytest.mark.parametrize("text, name", [
    ("We speed up training by a factor of two.", "speed-up"),  # one hyphenated word spaced: a phrase of its own
    ("TPU-KNN: K Nearest Neighbor Search at Peak FLOP/s. We search for neighbors fast.", "k-nearest neighbor"),
])
def test_a_spaced_name_is_no_hyphenated_word_nor_a_letter_alone(nlp, text, name):
    assert name not in {m.canonical for m in mentions(nlp, text)}


def test_a_pair_with_a_known_long_form_names_its_short_form_wherever_it_stands(nlp):
    text = ("In meta-reinforcement learning (meta RL), an agent learns from a set of training tasks. The optimal "
            "meta RL policy is well defined.")
    found = {(m.text, m.canonical) for m in mentions(nlp, text) if not m.generic}
    assert ("meta RL", "meta-reinforcement learning") in found  # not a concept "meta RL" of the tagger's
    assert {c for t, c in found if t == "meta RL"} == {"meta-reinforcement learning"}


@pytest.mark.parametrize("text, name", [
    ("We exchange features in a privacy-preserving way.", "privacy preserving"),
    ("We design a privacy-preserving SplitNN solution.", "privacy preserving"),
])
def test_a_known_name_written_with_hyphens_before_a_word_modifies_it(nlp, text, name):
    assert name not in {m.canonical for m in mentions(nlp, text)}


def test_a_pair_before_a_word_and_a_methods_head_is_a_method(nlp):
    text = ("We extend to reinforcement learning the computationally appealing Indexed Minimum Empirical Divergence "
            "(IMED) bandit algorithm.")
    assert ("Indexed Minimum Empirical Divergence", "METHOD") in {(m.canonical, m.label) for m in mentions(nlp, text)}


def test_a_name_after_a_metric_and_on_is_a_dataset(nlp):
    text = ("Our model achieves over 3% enhancement in contact prediction accuracy across 8 scenarios on Physion and "
            "a lower rollout MSE on RigidFall compared with state-of-the-art GNN simulators.")
    assert ("RigidFall", "DATASET") in {(m.canonical, m.label) for m in mentions(nlp, text)}


def test_an_authors_name_before_a_cited_year_is_no_method(nlp):
    text = ("Belanger & McCallum (2016) and Gygli et al. (2017) have shown that an energy network can capture "
            "arbitrary dependencies amongst the output variables in structured prediction.")
    assert "McCallum" not in {m.canonical for m in mentions(nlp, text)}
    assert "BERT" in {m.canonical for m in mentions(nlp, "We fine-tune BERT (2019) on it.")}  # a known name stays


def test_the_plane_in_blackboard_bold_is_no_metric():
    from kg.model import Paper
    from kg.nlp.extract import extract

    paper = Paper("p", r"We study networks connecting sources and sinks in $\mathbb{R}^2$. We reach an $R^2$ of 0.9.")
    [(paper, ex)] = list(extract([paper]))
    metrics = [m for m in ex.mentions if m.label == "METRIC"]
    assert [paper.text[m.start:m.end] for m in metrics] == ["R^2"]  # the measure, not the plane


def test_a_titles_clause_is_no_name():
    from kg.model import Paper
    from kg.nlp.extract import extract
    from kg.sinks.predictions import prediction

    paper = Paper("p", "We study deep learning for nonparametric regression with few samples.",
                  title="When Deep Learning Meets Nonparametric Regression")
    [(paper, ex)] = list(extract([paper]))
    names = [n for names in prediction(paper, ex)["concepts"].values() for n in names]
    assert not [n for n in names if "meets" in n.lower()]


def test_a_hyphenated_spelling_another_entry_owns_is_that_entrys_alone(nlp, tmp_path):
    import json

    from kg.nlp.candidates import candidates
    from kg.nlp.components.gazetteer import GazetteerMatcher

    rows = [{"name": "Monte Carlo", "label": "METHOD"}, {"name": "Monte-Carlo dropout", "label": "METHOD",
                                                           "aliases": ["Monte-Carlo"]}]
    (tmp_path / "methods.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    matcher = GazetteerMatcher(nlp, "test_gazetteer", str(tmp_path))
    doc = nlp.make_doc("We average Monte-Carlo.")
    for name in ("kg_sentencizer", "kg_abbreviations"):
        doc = nlp.get_pipe(name)(doc)
    found = [c.canonical for c in candidates(matcher(doc)) if c.extractor == "gazetteer"]
    assert found == ["Monte-Carlo dropout"]



@pytest.mark.parametrize("text, name, label", [
    ("We fine-tune LLaMA-7B on the Alpaca dataset with LoRA.", "Alpaca", "DATASET"),  # the model's name: its data
    ("We apply T-Few to the RAFT benchmark and reach super-human performance.", "RAFT", "DATASET"),
    # a short form the abstract defines stays what it names
    ("Test-time training (TTT) adapts models. We compare TTT methods on standard TTT benchmarks.", "TTT", "METHOD"),
])
def test_a_known_methods_name_right_before_a_dataset_head_is_a_dataset(nlp, text, name, label):
    assert {m.label for m in mentions(nlp, text) if m.text == name and not m.generic} == {label}


def test_a_known_dataset_before_a_setting_word_is_that_dataset(nlp):
    # "domain" names where a known environment is used, as "setting" does for a task
    assert "Atari" in by_label(nlp, "Experiments on the Atari domain show gains over PPO.", "DATASET")
    assert "Atari domain" not in by_label(nlp, "Experiments on the Atari domain show gains over PPO.", "DATASET")


@pytest.mark.parametrize("text, label, name", [
    ("We present a generalization of contrastive Hebbian learning to meta-learning.", "METHOD",
     "contrastive Hebbian learning"),
])
def test_a_variants_noun_and_of_open_no_name(nlp, text, label, name):
    found = by_label(nlp, text, label)
    assert name in found and not any(n.lower().startswith("generalization") for n in found)


def test_a_kind_of_data_defined_inside_a_task_name_is_no_concept(nlp):
    text = ("Weakly-supervised whole-slide image (WSI) classification is a challenging task where many unlabeled "
            "patches exist within each WSI while only a slide label is given.")
    found = {(m.canonical, m.label) for m in mentions(nlp, text) if not m.generic}
    assert ("weakly-supervised whole-slide image classification", "TASK") in found or \
        ("whole-slide image classification", "TASK") in found
    assert not any(name.lower() == "whole-slide image" for name, _ in found)


def test_is_namelike_reads_each_word_by_its_id_the_same_way_every_time(nlp):
    """kg.nlp.candidates.is_namelike keeps each word's shape by its ORTH id: a capitalised plain word is a name
    inside a sentence only, a mixed-case one anywhere, a citation key or a URL never, on every reading."""
    from kg.nlp import candidates

    doc = nlp.make_doc("Walrus beats TabPFNv2. We cite merity2017regularizing and https://example.com for Walrus.")
    doc[0].is_sent_start = True
    for k in range(1, len(doc)):
        doc[k].is_sent_start = doc[k - 1].text == "."
    for _ in range(2):
        found = [t.text for t in doc if candidates.is_namelike(t)]
        assert found == ["TabPFNv2", "Walrus"]


def test_a_description_that_starts_with_a_measures_noun_of_a_longer_head_is_no_metric(nlp):
    found = mentions(nlp, "We propose FooNet, a metric learning approach for retrieval.")
    assert any(m.canonical == "FooNet" and m.label == "METHOD" and m.proposed for m in found)
