"""Umbrella terms, tools and settings are generic mentions, never concepts; specific names stay concepts."""
from __future__ import annotations

import pytest

from kg.nlp.candidates import MENTIONS
from kg.nlp.pipeline import load_pipeline
from kg.nlp.components.specificity import load_specificity


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


def concepts(nlp, text: str) -> dict[str, set[str]]:
    doc = nlp(text)
    out: dict[str, set[str]] = {}
    for m in doc.user_data[MENTIONS]:
        if not m.generic:
            out.setdefault(m.label, set()).add(m.canonical)
    return out


@pytest.mark.parametrize("name,label", [
    ("inference", "TASK"), ("deep neural networks", "METHOD"), ("machine learning models", "METHOD"),
    ("NVIDIA V100", "DATASET"), ("GPUs", "METHOD"), ("PyTorch", "METHOD"), ("learning rate", "METRIC"),
    ("sample complexity", "METRIC"), ("efficient training method", "METHOD"), ("Megatron-LM", "METHOD"),
    ("scikit-learn", "METHOD"), ("OpenAI", "METHOD"), ("DeepMind", "METHOD"),
    ("eBay", "METHOD"), ("OpenWhisk", "METHOD"),  # a market and a serverless platform ("markets ... like eBay")
    ("distribution shift", "TASK"), ("spurious correlations", "TASK"), ("implicit bias", "TASK"),  # phenomena
    ("AI models", "METHOD"), ("ML systems", "METHOD"), ("DNN classifier", "METHOD"),  # umbrella word and class noun
    ("learning machine", "METHOD"),  # "generalizing a learning machine": a model in general
    ("fairness", "TASK"),  # a property, as "robustness" (the vocabulary's alias of algorithmic fairness)
    ("real world", "TASK"),
    ("neural processing units", "METHOD"), ("Unmanned Aerial Vehicle", "METHOD"),  # devices spelled out
    ("NNs", "METHOD"), ("DL", "METHOD"),  # umbrella terms' short forms, as DNN
    ("PAC", "METHOD"), ("NP-hard", "DATASET"),  # a learning-theory framework and a complexity class as modifiers
    ("PyTorch implementation", "METHOD"), ("JAX implementation", "METHOD"),  # software, however it is written
    ("NeurIPS", "METHOD"), ("NeurIPS'21", "METHOD"), ("COLT21", "METHOD"), ("ICML 2020", "DATASET"),  # venues
])
def test_names_that_are_no_concept(name, label):
    assert load_specificity().reason(name, label) is not None


@pytest.mark.parametrize("name,label", [
    ("image classification", "TASK"), ("graph neural networks", "METHOD"), ("ResNet-50", "METHOD"),
    ("top-1 accuracy", "METRIC"), ("regret", "METRIC"), ("CIFAR-10", "DATASET"), ("Transformer", "METHOD"),
    ("optimal transport", "METHOD"), ("large language models", "METHOD"), ("GPT-3", "METHOD"),
    ("LM", "METHOD"),  # a word of a tool's name ("Megatron-LM") is no tool alone
    ("DeepMind Control Suite", "DATASET"), ("Google Research Football", "DATASET"),
    ("domain adaptation", "TASK"), ("bias mitigation", "TASK"),  # what a paper does about a phenomenon is a task
    ("Transformer models", "METHOD"), ("text classification", "TASK"), ("algorithmic fairness", "TASK"),
    ("Memory Networks", "METHOD"),  # a plain umbrella noun before a class noun is a name's word
    ("detecting covariate shift", "TASK"), ("detection of distribution shift", "TASK"),  # what is done about one
    ("multi-class classification", "TASK"), ("supervised learning", "TASK"),  # a kind, not a judgement, of it
])
def test_specific_names_stay(name, label):
    assert load_specificity().reason(name, label) is None


def test_tagger_descriptions_with_a_class_head_are_not_methods():
    spec = load_specificity()
    assert spec.weak_description("pointwise and group-wise convolutions", "METHOD", "model")  # two methods
    assert spec.weak_description("self-attention into convolution", "METHOD", "model")
    assert not spec.weak_description("Q/K/V projection", "METHOD", "gazetteer")
    assert spec.weak_description("unified probabilistic model", "METHOD", "model")
    assert not spec.weak_description("unified probabilistic model", "METHOD", "gazetteer")
    assert not spec.weak_description("Concept Embedding Models", "METHOD", "model")  # a name: capitals
    assert not spec.weak_description("binary search", "METHOD", "model")
    for part in ("text encoder", "detection decoder", "convolutional blocks", "linear classification head",
                 "learning agents", "robust learners"):  # parts and agents of a method, not a method
        assert spec.weak_description(part, "METHOD", "model")
    assert not spec.weak_description("VQ-VAE decoder", "METHOD", "model")  # a name inside
    assert spec.weak_description("deep nonlinear ones", "METHOD", "model")  # "ones" stands for a class noun
    assert spec.weak_description("self-supervised way", "METHOD", "model")  # how, not what: "in a ... way"


@pytest.mark.parametrize("name", ["3D networks", "2D prediction pipeline", "3D representation", "2.5D scene encoder"])
def test_a_dimension_makes_no_description_a_name(name):
    assert load_specificity().weak_description(name, "METHOD", "model")  # the data's dimensions, not a name's digit


@pytest.mark.parametrize("name, label", [("3D CNNs", "METHOD"), ("3D convolutions", "METHOD"),
                                         ("3D reconstruction", "TASK"), ("3D pose estimation", "TASK")])
def test_a_dimension_before_a_method_or_a_task_keeps_it(name, label):
    assert not load_specificity().weak_description(name, label, "model")


def test_pipeline_keeps_umbrella_words_out_of_the_concepts(nlp):
    found = concepts(nlp, "We train deep neural networks on 8 NVIDIA V100 GPUs with PyTorch and evaluate image "
                          "classification on CIFAR-10, where ResNet-50 reaches 95% top-1 accuracy.")
    names = {n for names in found.values() for n in names}
    assert {"CIFAR-10", "ResNet-50", "image classification"} <= names
    assert not names & {"deep neural networks", "NVIDIA V100", "GPUs", "PyTorch", "V100"}


def test_a_tool_spelled_out_is_no_concept_either_in_any_order(nlp):
    """Each mention is judged by its own words too, whatever came before it in the process: "GPUs" is hardware
    after "graphics processing units" as before it, and so is the name it abbreviates."""
    first = "We train on graphics processing units (GPUs) with a new scheduler. Our GPUs are fast."
    second = "Our GPUs are fast. We train on graphics processing units (GPUs) with a new scheduler."
    for text in (first, second, first):
        doc = nlp(text)
        assert all(m.generic for m in doc.user_data[MENTIONS]), [(m.text, m.generic) for m in doc.user_data[MENTIONS]]


def test_a_short_form_the_text_redefines_takes_its_own_label(nlp):
    """"ARC" is a dataset in the vocabulary; "Adversarial Response Characteristics (ARC)" is the paper's feature."""
    found = concepts(nlp, "Thus, we compute Adversarial Response Characteristics (ARC) features to reflect the "
                          "model gradient consistency around the input. ARC feature can be used for attack detection.")
    assert "Adversarial Response Characteristics" in found.get("METHOD", set())
    assert not {"ARC", "Adversarial Response Characteristics"} & found.get("DATASET", set())


def test_a_local_definition_wins_over_the_vocabularys_expansion(nlp):
    doc = nlp("We propose Level k Gradient Play (Lv.k GP), a new learning dynamic. Lv.k GP converges and GP wins.")
    gp = [m for m in doc.user_data[MENTIONS] if m.text == "GP"]
    assert gp and all(m.generic for m in gp)
    assert "Gaussian processes" not in concepts(nlp, doc.text).get("METHOD", set())
    # the vocabulary's reading stays where the abstract means it
    assert "Gaussian processes" in concepts(nlp, "Gaussian processes (GPs) are flexible. A GP prior is used.")["METHOD"]


@pytest.mark.parametrize("name,label,extractor,weak", [
    ("data collection", "TASK", "model", True),  # no task head
    ("training procedure", "TASK", "model", True),
    ("retrieval", "TASK", "model", True),  # a bare head
    ("ownership verification", "TASK", "model", False),
    ("kernel similarity matching", "TASK", "model", False),
    ("object-level visual", "TASK", "model_extension", True),  # ends in an adjective
    ("robust statistical", "TASK", "context", True),
    ("policy retrieval", "TASK", "model_extension", False),
    ("data collection", "TASK", "gazetteer", False),  # a vocabulary's entry stays
    ("Lagrange decomposition based", "METHOD", "model", True),  # ends in a participle
    ("stochastic bilevel", "TASK", "model", True),
    ("noise-free", "METHOD", "model", True),  # ends in an adjective of no adjective ending
    ("adaptive online", "METHOD", "model", True),  # "adaptive online algorithms" without their head
    ("generalization capabilities", "METHOD", "model", True),  # a property of a method
    ("regularization parameter", "METHOD", "model_extension", True),  # a quantity of one
    ("fine-tuning stage", "METHOD", "model", True),  # a phase of one
    ("closed-form implementation", "METHOD", "model", True),  # how one is realised
    ("deterministic truthful", "METHOD", "model", True),  # ends in an adjective in -ful
    ("feature extractor", "METHOD", "model", True),  # a part of one
    ("temporal-consistency condition", "METHOD", "model", True), ("multi-hop assumption", "METHOD", "model", True),
    # a method's outputs, parameters or formulas, or instances of a problem
    ("logistic regression coefficients", "METHOD", "model", True), ("model predictions", "METHOD", "model", True),
    ("closed-form expression", "METHOD", "model", True), ("linear regression instances", "METHOD", "model", True),
    ("multi-step prediction", "METHOD", "model", False),  # (a process noun: what the tagger calls a method stays)
    ("nice prediction", "TASK", "model", True), ("mainstream vision", "TASK", "model_extension", True),
    # a dimension or an umbrella term's short form makes no name of a phrase the tagger alone reads as a task
    ("3D indoor scenes", "TASK", "model", True), ("3D vision", "TASK", "model", True),
    ("ML applications", "TASK", "model", True), ("AI vision", "TASK", "model", True),
    ("3D reconstruction", "TASK", "model", False), ("3D volume rendering", "TASK", "model", False),
    ("3D human pose estimation", "TASK", "model", False),
    ("statistical ML models", "METHOD", "model", True), ("customized AI models", "METHOD", "model", True),
    ("high-quality generation", "TASK", "model", True),  # a judged umbrella term
    ("theoretical understanding", "TASK", "model_extension", True), ("fast adaptation", "TASK", "context", True),
    ("large-scale machine learning", "TASK", "model", True), ("downstream classification", "TASK", "model", True),
    ("enormous machine learning", "TASK", "model_extension", True), ("principled deep learning", "TASK", "model", True),
    ("complex query answering", "TASK", "model", False),  # a task of its own, not a judged one
    ("efficient exploration", "TASK", "gazetteer", False),  # the vocabulary's name stays
    ("Bregman-type", "METHOD", "model", True),
    ("SBiO-BreD", "METHOD", "model", False),  # a name
    ("adaptive speed", "METHOD", "model_extension", False),  # a noun in -ed
    ("task-agnostic statistical", "METRIC", "model", True),  # a metric's words cut before its noun
    ("top-1 accuracy", "METRIC", "model", False), ("Frobenius error", "METRIC", "model", False),
])
def test_what_the_tagger_alone_proposes_as_a_task_needs_a_task_head(name, label, extractor, weak):
    assert load_specificity().weak_description(name, label, extractor) is weak


@pytest.mark.parametrize("text,fuller", [
    ("It improves the test accuracy by far.", "test accuracy"),
    ("We report classification accuracy on ImageNet.", "classification accuracy"),
    ("It keeps the worst-group accuracy high.", "worst-group accuracy"),
    ("It reaches high accuracy quickly.", "accuracy"),  # a judgement, not which accuracy
    ("It reaches significantly better accuracy.", "accuracy"),
    ("It has 5 points accuracy gain.", "accuracy"),
    ("It reaches state of the art accuracy on GSM8K.", "accuracy"),  # not "art accuracy"
    ("Optimal binary classification beyond accuracy.", "accuracy"),
    ("It is necessary to achieve optimal accuracy here.", "accuracy"),
    ("Models provide accuracy and speed.", "accuracy"), ("It costs negligible accuracy.", "accuracy"),
    ("It reaches human-level accuracy.", "accuracy"),
    ("SCINet achieves significant forecasting accuracy improvements.", "forecasting accuracy"),  # what was done
    ("It improves the training accuracy by 3.6%.", "training accuracy"),
    ("It scales while maintaining accuracy.", "accuracy"), ("It is faster without losing accuracy.", "accuracy"),
    ("It reaches 75.6% linear evaluation accuracy.", "linear evaluation accuracy"),  # a known task's name whole
    ("It shows better structure learning accuracy.", "structure learning accuracy"),
    # a verb in -ing after a word that makes it one
    ("It runs 2x faster while matching accuracy of the dense model.", "accuracy"),
    ("The knob allows trading accuracy for speed.", "accuracy"),
    ("Replay prevents forgetting accuracy on old tasks.", "accuracy"),
])
def test_a_metric_takes_the_word_that_says_which_accuracy_it_is(text, fuller):
    from kg.nlp.components.specificity import fuller_metric_name

    at = text.index("accuracy")
    assert text[fuller_metric_name(text, at, "accuracy"):at + len("accuracy")] == fuller


def test_resource_measures_stay_metrics():
    assert load_specificity().reason("GPU memory", "METRIC") is None


@pytest.mark.parametrize("name,weak", [
    ("Communication-based framework", True),  # a sentence's first capital makes no name
    ("regularized", True),  # one plain word
    ("SQIL", False), ("TreeShap", False), ("Concept Embedding Models", False), ("binary search", False),
])
def test_what_the_tagger_alone_calls_a_method(name, weak):
    assert load_specificity().weak_description(name, "METHOD", "model") is weak


def test_the_vocabulary_says_which_words_end_a_methods_name():
    from kg.nlp.components.gazetteer import load_gazetteer

    heads = load_gazetteer().head_words("METHOD")
    assert {"regression", "kernel", "kernels", "attention", "descent", "loss"} <= heads
    assert not {"graphs", "time", "game", "formula", "detector"} & heads


@pytest.mark.parametrize("name,weak", [
    ("random graphs", True), ("discrete time", True), ("stochastic game", True), ("recursive formula", True),
    ("computer programs", True),  # objects, settings and results, not methods
    ("sparse variational kernels", False), ("Poisson regression", False), ("majority voting", False),
    ("dynamic routing", False), ("progressive latent fusion", False), ("test-time attention intervention", False),
    ("B-splines", False), ("TangentProp", False),  # names
])
def test_a_tagger_method_in_plain_words_ends_as_the_vocabularys_methods_or_in_a_process(name, weak):
    import dataclasses

    from kg.nlp.components.gazetteer import load_gazetteer

    spec = dataclasses.replace(load_specificity(), method_heads=load_gazetteer().head_words("METHOD"))
    assert spec.weak_description(name, "METHOD", "model") is weak
    assert not spec.weak_description(name, "METHOD", "gazetteer")  # the vocabulary's own names stand


def test_the_pipeline_reads_method_heads_from_its_vocabulary(nlp):
    found = concepts(nlp, "Even for a stochastic game with identical interest, there can be multiple Nash Equilibria "
                          "(NEs). We analyze gossip averaging protocols on fixed and random communication graphs.")
    assert "stochastic game" not in found.get("METHOD", set())
    assert "random communication graphs" not in found.get("METHOD", set())


@pytest.mark.parametrize("name,core", [
    ("Transformer networks", "Transformer"), ("one-layer convolutional neural network", "CNN"),
    ("graph attention networks", None), ("BERT-based retrieval", None),
    ("pretrained CLIP model", "CLIP"), ("overparameterized linear regression model", "linear regression"),
    ("Riemannian gradient descent", None),  # a modifier that names another method
])
def test_a_tagger_extension_that_only_describes_a_known_method_is_that_method(name, core):
    from kg.nlp.components.gazetteer import load_gazetteer

    known = {form: e.name for form, e in load_gazetteer().lookup().items() if e.label == "METHOD"}
    assert load_specificity().known_core(name, known) == core


def test_a_tagger_extension_of_a_known_method_is_reported_as_the_known_words(nlp):
    """"1 layer recurrent neural network" names RNN, and a paper that never writes "RNN" calls it "recurrent neural
    network", not by the extension's words."""
    from kg.model import Paper
    from kg.nlp.extract import extract
    from kg.sinks.predictions import prediction

    text = "We prove that a 1 layer recurrent neural network can learn any such sequence with few samples."
    [(paper, ex)] = list(extract([Paper(id="p", text=text)]))
    rnn = [m for m in ex.mentions if m.canonical == "RNN"]
    if rnn and rnn[0].extractor == "model_extension":
        assert rnn[0].text == "recurrent neural network" == text[rnn[0].start:rnn[0].end]
    assert "recurrent neural network" in prediction(paper, ex)["concepts"]["METHOD"]


@pytest.mark.parametrize("text, name", [
    ("We train a GNN model on the molecules and compare it with kernels.", "GNN"),  # the vocabulary's short form
    ("We train recurrent neural network models on the sequences.", "recurrent neural network"),
])
def test_a_known_method_and_a_class_noun_is_reported_as_the_known_words(nlp, text, name):
    """A class noun after a known method's name ("model", "methods", "algorithm") is no part of the paper's name
    for it, however the concept was named."""
    from kg.model import Paper
    from kg.nlp.extract import extract
    from kg.sinks.predictions import prediction

    [(paper, ex)] = list(extract([Paper(id="p", text=text)]))
    assert name in prediction(paper, ex)["concepts"]["METHOD"]


def test_a_one_word_task_in_the_plural_names_its_outputs_not_the_task(nlp):
    def tasks(text):
        return {m.text for m in nlp(text).user_data[MENTIONS] if m.label == "TASK" and not m.generic}

    assert tasks("Agents follow the algorithm's recommendations.") == set()
    assert tasks("We study recommendation with graph networks.") == {"recommendation"}


@pytest.mark.parametrize("text, metric", [
    ("We estimate the precision matrix of the latent normal.", False),
    ("Gradients are compressed into lower precision.", False),
    ("The goal is to maximize either precision or recall of the top predictions.", True),
    ("It improves precision by 8.4% on EMG data.", True),
])
def test_precision_is_a_metric_where_its_sentence_reports_a_measure(nlp, text, metric):
    found = {m.canonical for m in nlp(text).user_data[MENTIONS] if m.label == "METRIC" and not m.generic}
    assert ("precision" in found) is metric


@pytest.mark.parametrize("text, word, metric", [
    ("We bound the precision matrix's error with a convergence rate of 1/n.", "precision", False),  # a modifier
    ("We analyze the storage and recall of factual associations in transformers.", "recall", False),
    ("With them the student can recall the past knowledge, reaching 95% accuracy.", "recall", False),  # a verb
    ("The precision and recall of the attack are 90% and 85%.", "recall", True),
    ("We report precision scores of 0.9 on COCO.", "precision", True),
    ("The preconditioned SGD converges to ε-accuracy in O(log(1/ε)) iterations.", "accuracy", False),  # a tolerance
    ("Its gradient complexity to achieve an ε-precision is O(n).", "precision", False),
])
def test_precision_and_recall_are_metrics_only_in_their_metric_sense(nlp, text, word, metric):
    found = {m.canonical.lower() for m in nlp(text).user_data[MENTIONS] if m.label == "METRIC" and not m.generic}
    assert any(word in f for f in found) is metric


@pytest.mark.parametrize("text, metric", [
    ("We detect OOD inputs by removing the rank-1 matrix composed of the largest singular vectors.", False),
    ("Almost all local minima are global and rank-1, recovering optimal PCA solutions.", False),
    ("Our model reaches 95.1% Rank-1 accuracy on Market-1501.", True),
])
def test_rank_1_is_a_metric_where_its_sentence_reports_a_measure(nlp, text, metric):
    found = {m.canonical.lower() for m in nlp(text).user_data[MENTIONS] if m.label == "METRIC" and not m.generic}
    assert bool(found & {"rank-1", "rank-1 accuracy"}) is metric


def test_an_equation_is_no_method_but_a_method_built_on_one_is(nlp):
    found = concepts(nlp, "We model the dynamics with ordinary differential equations (ODEs) and solve the ODEs.")
    assert not found.get("METHOD")
    assert "Neural ODE" in concepts(nlp, "We propose neural ODEs with adaptive solvers.")["METHOD"]
    ms = [m for m in nlp("We propose Equation Learner (EQL) networks for extrapolation.").user_data[MENTIONS]
          if m.text == "Equation Learner"]
    assert ms and not any(m.generic for m in ms)  # a method named by an equation


@pytest.mark.parametrize("name", ["canonical noise distribution", "adversarial Natarajan dimension",
                                  "Gaussian matrices", "Dirichlet random vector"])
def test_a_mathematical_object_is_no_method(name):
    from kg.nlp.components.specificity import load_specificity

    assert load_specificity().reason(name, "METHOD") == "a mathematical object"


def test_a_method_word_used_as_a_verb_with_its_object_is_no_method(nlp):
    assert "boosting" not in concepts(nlp, "It trains an auxiliary head, thereby boosting the performance.").get(
        "METHOD", set())
    assert "boosting" in concepts(nlp, "Recent results on boosting operate on convex losses.")["METHOD"]


def test_a_name_the_tagger_reads_before_a_theory_word_is_no_method(nlp):
    found = concepts(nlp, "We bound the error in terms of the VC dimension of the class, using the Johnson-Lindenstrauss "
                          "lemma.").get("METHOD", set())
    assert not {"VC", "Johnson-Lindenstrauss"} & found


def test_a_theory_result_the_abstract_names_with_a_short_form_is_no_method(nlp):
    found = concepts(nlp, "We establish a functional central limit theorem (FCLT) for the iterates. The FCLT holds.")
    assert not found.get("METHOD")


def test_a_rate_only_the_tagger_calls_a_metric_is_a_setting_but_the_vocabularys_rates_stay(nlp):
    found = concepts(nlp, "VideoMAE uses an extremely high masking ratio (90% to 95%) and still reaches 87.4% top-1 "
                          "accuracy on Kinetics-400, while the error rate drops by 3%.")
    assert "masking ratio" not in found.get("METRIC", set())
    assert {"top-1 accuracy", "error rate"} <= found["METRIC"]


def test_a_kind_of_measure_only_the_tagger_calls_a_metric_names_none(nlp):
    text = ("We provide new insights on eluder dimension, a complexity measure that has been extensively used to bound "
            "the regret of algorithms for online bandits and reinforcement learning with function approximation. We "
            "report 87.4% top-1 accuracy.")
    found = concepts(nlp, text).get("METRIC", set())
    assert "complexity measure" not in found and "top-1 accuracy" in found


@pytest.mark.parametrize("text, reported", [
    ("In a first-of-its-kind attempt, we also provide deterministic bounds on the cumulative reconstruction error.",
     False),  # a quantity analysed
    ("We derive the upper bounds on prediction error between the mean from the cloud-based aggregated GPR and the "
     "target function.", False),
    ("AMP is outperformed by the Bayes estimator in terms of mean-square error.", True),  # compared: a measure
    ("Our model reduces the reconstruction error to 0.012 on the test set.", True),  # a value: a measure reported
    ("We bound the Bellman error and the discretization error of the scheme.", False),  # no support from each other
    ("We give a bound on the L2 error of the estimator.", False),  # a digit in the name is no value
])
def test_an_error_the_tagger_alone_calls_a_metric_is_one_only_where_reported(nlp, text, reported):
    found = {n for n in concepts(nlp, text).get("METRIC", set()) if n.endswith("error")}
    assert bool(found) == reported


@pytest.mark.parametrize("text, name", [
    ("Our algorithm avoids the exponential complexity problem of exact inference in graphical models.",
     "exponential complexity"),
    ("We address the memory cost problem of training large transformers.", "memory cost"),
])
def test_a_quantity_before_problem_names_no_task(nlp, text, name):
    assert name not in concepts(nlp, text).get("TASK", set())


@pytest.mark.parametrize("text, reported", [
    ("Meta-gradient computation introduces significant computation and memory costs.", False),  # discussed
    ("To address the high communication costs of distributed machine learning, many compression strategies exist.",
     False),
    ("Our method cuts the communication cost by 40% on CIFAR-10.", True),  # a value
    ("Our extensive experiments show that ADGP significantly reduces the communication overhead.", True),  # evaluated
    ("The runtime of exact inference grows exponentially with the treewidth.", False),  # the vocabulary's running time
])
def test_a_cost_is_a_metric_only_where_reported_or_evaluated(nlp, text, reported):
    found = {n for n in concepts(nlp, text).get("METRIC", set())
             if n.split()[-1] in ("cost", "costs", "overhead", "time")}
    assert bool(found) == reported


@pytest.mark.parametrize("text, reported", [
    ("Our method reduces the training time by 20.9x on COCO.", True),  # a value
    ("We significantly surpass CBS in terms of training time.", True),
    ("Experiments show improved training times over INRs.", True),  # evaluated
    ("The auxiliary labels are available at training time only.", False),  # a phase
    ("This trend holds across variation in training time and model architecture.", False),  # a setting
    ("Incorporating training time processes helps the certified radius by 4 points.", False),  # a modifier
])
def test_a_measure_in_background_words_is_a_metric_only_where_reported(nlp, text, reported):
    assert load_specificity().reason("training time", "METRIC") == "only background words"
    assert ("training time" in concepts(nlp, text).get("METRIC", set())) == reported


@pytest.mark.parametrize("text, name", [
    ("We build an SE(3)-equivariant transformer for molecules.", "SE"),  # a group's notation, not a method
    ("We give a (1+ε)-approximation algorithm for k-means.", "1+ε)-approximation algorithm"),  # begun in brackets
])
def test_notation_and_names_begun_inside_brackets_are_no_concepts(nlp, text, name):
    assert all(name not in names for names in concepts(nlp, text).values())


@pytest.mark.parametrize("text, metrics", [
    ("The model adapts at inference time, reaching 71.2% accuracy.", {"accuracy"}),  # a phase of the work
    ("Our pruned network cuts the inference time by 40% on a V100.", {"inference time"}),  # a measure
])
def test_a_time_after_at_or_during_is_a_phase_not_a_metric(nlp, text, metrics):
    assert concepts(nlp, text).get("METRIC", set()) == metrics


def test_a_verb_of_change_before_a_metric_does_not_name_it(nlp):
    found = concepts(nlp, "Adding more prior knowledge can actually decrease accuracy by 3.1% on CIFAR-10.")
    assert found["METRIC"] == {"accuracy"}
    assert concepts(nlp, "Its accuracy stays above accuracy of 90% on MNIST.")["METRIC"] == {"accuracy"}


def test_a_short_form_of_a_property_is_no_method(nlp):
    found = concepts(nlp, "The samples are independent and identically distributed (IID), and the last layer is "
                          "Fully-Connected (FC). We train graph neural networks (GNNs) on the IID samples.")
    assert not {"identically distributed", "Fully-Connected"} & found.get("METHOD", set())
    assert "graph neural networks" in found["METHOD"]


def test_a_tagger_phrase_ending_in_a_hyphenated_adjective_is_a_fragment():
    from kg.nlp.components.specificity import load_specificity

    spec = load_specificity()
    for name in ("cooperative multi-agent", "fine-tuning large-scale", "inductive few-shot"):
        assert spec.weak_description(name, "TASK", "model_extension"), name
    for name in ("sequential decision-making", "multi-head self-attention"):
        assert not spec.weak_description(name, "METHOD", "model_extension"), name


def test_a_mathematical_space_is_no_method_but_a_state_space_model_is(nlp):
    found = concepts(nlp, "The reward lies in a reproducing kernel Hilbert space (RKHS) on Riemannian manifolds.")
    assert not {"reproducing kernel Hilbert space", "Riemannian manifolds"} & found.get("METHOD", set())
    from kg.nlp.components.specificity import load_specificity

    assert load_specificity().reason("diagonal state space", "METHOD") is None


def test_a_running_time_class_is_no_method():
    from kg.nlp.components.specificity import load_specificity

    assert load_specificity().reason("polynomial time", "METHOD") == "setting or theory quantity"


@pytest.mark.parametrize("name, agent", [
    ("image classifier", True), ("3D object detectors", True), ("pose estimator", True), ("speech recognizer", True),
    ("linear classifier", False),  # no known task "linear classification": a kind of model
    ("YOLOv3 object detector", False), ("Faster R-CNN object detector", False),  # named ones
    ("feature extractor", False), ("language model", False), ("classifier", False),
])
def test_what_does_a_known_task_is_no_method(name, agent):
    from kg.nlp.components.gazetteer import load_gazetteer
    from kg.nlp.components.specificity import agent_of_task

    tasks = frozenset(form.lower() for form, e in load_gazetteer().lookup().items() if e.label == "TASK")
    assert agent_of_task(name, tasks) is agent


def test_a_tagger_method_that_does_a_known_task_is_a_mention_only(nlp):
    doc = nlp("VCEs help to understand the decisions of an image classifier on natural images.")
    assert [(m.text, m.generic) for m in doc._.kg_mentions if m.label == "METHOD"] == [("image classifier", True)]


def test_a_short_form_the_abstract_defines_is_judged_by_its_long_form(nlp):
    found = concepts(nlp, "We study dictionary learning (DL) for sparse coding. DL recovers the dictionary.")
    assert found.get("METHOD", set()) & {"dictionary learning", "DL"}  # DL is an umbrella term's short form elsewhere
    assert "DL" not in concepts(nlp, "Deep learning (DL) has transformed vision. DL models are large.").get(
        "METHOD", set())


def test_a_theory_framework_named_alone_is_no_concept_but_an_own_name_is(nlp):
    assert "PAC" not in concepts(nlp, "We extend the traditional PAC model to distribution-dependent learning rates.") \
        .get("METHOD", set())
    own = "We propose PAC, a new framework leveraging assistive information for value factorization."
    assert "PAC" in concepts(nlp, own).get("METHOD", set())


@pytest.mark.parametrize("text, kept", [
    ("We instantiate the framework with a novel ranking loss for pairs.", {"ranking loss"}),
    ("Networks trained with the exponential or the logistic loss converge to a KKT point.", {"logistic loss"}),
    ("We minimize the total loss and a novel loss over the batch.", set()),  # words every abstract uses
])
def test_a_loss_function_is_a_method(nlp, text, kept):
    """The guideline counts loss functions as methods: a tagger's phrase headed by "loss" is one when a word of its
    own says which."""
    found = {m.canonical for m in nlp(text).user_data[MENTIONS] if m.label == "METHOD" and not m.generic}
    assert found == kept


@pytest.mark.parametrize("name, weak", [("total loss", True), ("regularized loss", True), ("weighted loss", True),
                                        ("ranking loss", False), ("squared loss", False), ("auxiliary losses", False)])
def test_which_loss_of_a_run_it_is_names_no_loss_function(name, weak):
    assert load_specificity().weak_description(name, "METHOD", "model") is weak


@pytest.mark.parametrize("name, weak", [("linearly convergent", True), ("fully Bayesian", True),
                                        ("sparsely interacting", True), ("early stopping", False),
                                        ("massively parallel computation", False)])
def test_an_adverb_and_the_word_it_modifies_name_a_property(name, weak):
    assert load_specificity().weak_description(name, "METHOD", "model") is weak


def test_a_vocabulary_short_name_the_abstract_defines_as_a_property_names_nothing(nlp):
    """"end-to-end (E2E)" is no mention of the E2E dataset, nor is a later "E2E"; the dataset by its name is."""
    doc = nlp("We enable imaging via end-to-end (E2E) optimization of the encoder. FourierNets enable E2E optimization.")
    assert "E2E" not in {m.canonical for m in doc.user_data[MENTIONS] if not m.generic}
    doc = nlp("We train graph neural networks (GNNs) and test them on the E2E dataset.")
    assert {"graph neural networks", "E2E NLG"} <= {m.canonical for m in doc.user_data[MENTIONS] if not m.generic}


def test_the_precision_of_a_number_format_is_no_metric(nlp):
    for text in ("Each layer is assigned a proper quantization precision, reaching 76% accuracy.",
                 "Our method can reduce the precision for weights and activations to INT8 with 0.1% accuracy loss."):
        assert "precision" not in {m.canonical for m in nlp(text).user_data[MENTIONS] if not m.generic}


def test_a_kind_of_biological_data_is_no_dataset(nlp):
    doc = nlp("Across synthetic, image, and single-cell RNA-sequencing datasets, our model disentangles better.")
    assert not {m.canonical for m in doc.user_data[MENTIONS] if m.label == "DATASET" and not m.generic}


@pytest.mark.parametrize("name, words", [
    ("dynamic programming-based algorithms", "dynamic programming"),
    ("recurrent neural network based systems", "recurrent neural network"),  # "based" written apart
    ("MoCo based model", "MoCo"),
    ("model based on attention", None),  # "based on" makes no family
])
def test_a_family_phrase_names_the_words_before_its_family_word(name, words):
    from kg.nlp.components.gazetteer import load_gazetteer
    from kg.nlp.components.specificity import family_core

    found = family_core(name, load_gazetteer().lookup())
    assert (found[3] if found else None) == words


@pytest.mark.parametrize("title, text, proposed", [
    ("Certifying Some Distributional Fairness with Subpopulation Decomposition",
     "In this paper, we first formulate the certified fairness of an ML model trained on a given data distribution as "
     "an optimization problem.", set()),
    # the title names the letters, or the abstract defines them: the paper's own name
    ("PAC: Assisted Value Factorization with Counterfactual Predictions",
     "We tackle this limitation and propose PAC, a new framework leveraging assistive information.", {"PAC"}),
    ("Generalization Analysis on Learning with a Verifier",
     "Such a module, which we call a concurrent verifier (CV), can give a certification. We propose the CV and "
     "analyse it.", {"CV"}),
    ("Assisted Value Factorization", "We propose PAC framework, which leverages assistive information. PAC beats "
     "QMIX.", {"PAC"}),  # a name before the class noun, no "a" or "an"
])
def test_an_umbrella_term_is_no_proposed_name_unless_the_paper_names_it_so(title, text, proposed):
    from kg.model import Paper
    from kg.nlp.extract import extract

    (_, ex), = extract([Paper("p", text, title=title)])
    assert {m.canonical for m in ex.mentions if m.proposed} == proposed


@pytest.mark.parametrize("title, kept", [
    ("Tsetlin Machine for Solving Contextual Bandit Problems", False),  # a property it claims
    ("Scalable Interpretability via Polynomials", True),  # what the paper is about
    ("Explaining a Reinforcement Learning Agent via Prototyping", True),
])
def test_a_models_property_is_a_task_only_where_the_title_is_about_it(nlp, title, kept):
    from kg.model import Paper
    from kg.nlp.extract import extract

    text = ("We present a learner that beats other base learners on eight datasets. We further analyze the "
            "interpretability of our learner, investigating how arms are selected.")
    (_, ex), = extract([Paper(id="p", text=text, title=title)], nlp)
    tasks = {m.canonical for m in ex.mentions if m.label == "TASK"}
    assert ("interpretability" in tasks) == kept
