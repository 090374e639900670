"""How a trained model's entities (the NER's or the tagger's) combine with the rule candidates (kg/nlp/combine.py).

The entity ranges are given by hand so each rule is tested on its own, whatever the shipped model predicts;
the docs themselves go through the real rule pipeline.
"""
from __future__ import annotations

import warnings

import pytest

from kg.nlp.candidates import FORMULAS, candidates
from kg.nlp.components.gazetteer import load_gazetteer
from kg.nlp.components.mentions import select_mentions, without_asides
from kg.nlp.combine import concept_name, generic_class, generic_task_class, rule_spans, short_forms
from kg.nlp.components.model import ModelCandidates, merge_entities, unconfirmed


@pytest.fixture(scope="module")
def nlp():
    from kg.train.evaluate import pipeline

    return pipeline(model=False)  # the rules alone: each test adds the model entities itself


@pytest.fixture(scope="module")
def combine(nlp, tmp_path_factory):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comp = ModelCandidates(nlp, "kg_model", model_dir=str(tmp_path_factory.mktemp("no-model")))
    return comp


def with_entity(nlp, combine, text: str, phrase: str, label: str, formulas: tuple = ()):
    """Run the rules on ``text`` (with the cleaned text's ``formulas``), then add a model entity over ``phrase`` as
    kg_model would; return the doc."""
    doc = nlp.make_doc(text)
    if formulas:
        doc.user_data[FORMULAS] = formulas
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    start_char = text.index(phrase)
    span = doc.char_span(start_char, start_char + len(phrase))
    assert span is not None, phrase
    rules = [c for c in candidates(doc) if not c.extractor.startswith("model")]
    doc._.kg_model_ents = [(span.start, span.end, label)]
    cand = combine._candidate(doc, rule_spans(rules), short_forms(doc, rules), span.start, span.end, label)
    if cand is not None:
        candidates(doc).append(cand)
    doc._.kg_mentions = select_mentions(doc, frozenset(), {})
    return doc


def spans(doc):
    return {(m.text, m.label) for m in doc._.kg_mentions}


@pytest.mark.parametrize("text,label,parts", [
    ("We compare UCB and KL-UCB algorithms here.", "METHOD", ["UCB", "KL-UCB"]),
    ("We compare OGDA and EG here.", "METHOD", ["OGDA", "EG"]),
    ("We compare Tanks and Temples here.", "DATASET", ["Tanks and Temples"]),  # a dataset's name
    ("We compare recurrent and convolutional networks.", "METHOD", ["recurrent and convolutional networks"]),
])
def test_a_model_entity_of_two_joined_names_is_the_two_names(nlp, text, label, parts):
    from kg.nlp.combine import _joined_names

    doc = nlp.make_doc(text)
    start, end = 2, len(doc) - 1 if doc[-2].text != "here" else len(doc) - 2
    assert [doc[a:b].text for a, b, _ in _joined_names(doc, start, end, label)] == parts


def test_a_manner_word_leaves_the_method_it_names(nlp, combine):
    doc = with_entity(nlp, combine, "Both networks are trained in a multi-teacher distillation manner on the data.",
                      "multi-teacher distillation manner", "METHOD")
    m = next(m for m in doc._.kg_mentions if m.text == "multi-teacher distillation manner")
    assert m.canonical == "multi-teacher distillation"


def test_an_extended_known_name_drops_its_kind_word_from_the_concept_name(nlp, combine):
    # "attention" is a known method; the model's wider entity is a method of its own, named without "mechanism"
    doc = with_entity(nlp, combine, "TabICL uses a column-then-row attention mechanism on tables.",
                      "column-then-row attention mechanism", "METHOD")
    m = next(m for m in doc._.kg_mentions if m.text == "column-then-row attention mechanism")
    assert (m.extractor, m.canonical) == ("model_extension", "column-then-row attention")


@pytest.mark.parametrize("text, phrase, dataset", [
    ("Models learn associations between entities from factual text corpus (e.g. Wikipedia).", "factual text corpus",
     False),  # a description of data
    ("We train on the AMI meeting corpus.", "AMI meeting corpus", True),  # a name under a head word
    ("Conversational corpora are scarce for this language.", "Conversational corpora", False),  # a sentence's capital
    ("Results on the WMT\u201914 dataset improve.", "WMT\u201914 dataset", True),
])
def test_a_tagger_dataset_under_a_head_word_needs_a_name(nlp, combine, text, phrase, dataset):
    doc = with_entity(nlp, combine, text, phrase, "DATASET")
    assert any(m.label == "DATASET" and m.extractor == "model" for m in doc._.kg_mentions) == dataset


@pytest.mark.parametrize("text, phrase, label, names, whole", [
    ("Based on this, we propose a novel model-free SARSA and Q-learning algorithm that performs parallel iterations.",
     "model-free SARSA and Q-learning", "METHOD", {"SARSA", "Q-learning"}, False),
    ("We compare with Plug and Play Language Models on controlled generation.", "Plug and Play Language Models",
     "METHOD", set(), True),  # a rule's name on one side only: the name stays whole
    ("We evaluate on the CNN and Daily Mail corpus.", "CNN and Daily Mail", "DATASET", set(), True),  # a dataset's
    ("Flows serve classification and density estimation alike.", "classification and density estimation", "TASK",
     {"density estimation"}, False),  # a rule's name and a word in lower case: the rule's name alone
    ("We speed up reduced-space branch and bound for global optimization.", "reduced-space branch and bound",
     "METHOD", set(), True),  # the coordinator is inside the rule's name
])
def test_an_entity_joining_two_known_names_leaves_them_apart_but_not_a_name_with_and(nlp, combine, text, phrase,
                                                                                      label, names, whole):
    doc = with_entity(nlp, combine, text, phrase, label)
    assert {m.text for m in doc._.kg_mentions if m.label == label} >= names
    assert (phrase in {m.text for m in doc._.kg_mentions}) == whole


@pytest.mark.parametrize("text, phrase, name", [
    ("We study the stochastic contextual bandit setting with corruptions.", "stochastic contextual bandit setting",
     "stochastic contextual bandit"),  # a known task inside, with a modifier
    ("This matters to reinforcement learning research at large.", "reinforcement learning research",
     "reinforcement learning"),
    ("Such estimators are common in the causal inference literature.", "causal inference literature",
     "causal inference"),
    ("We revisit the sequential learning setting here.", "sequential learning setting",
     "sequential learning setting"),  # only the tagger's: no task's head word once the setting word goes
])
def test_a_tasks_name_drops_a_setting_or_a_field_word(nlp, combine, text, phrase, name):
    doc = with_entity(nlp, combine, text, phrase, "TASK")
    assert {m.canonical for m in doc._.kg_mentions if m.text == phrase} == {name}


@pytest.mark.parametrize("text, phrase, names", [
    ("On 58% of the AlphaGo Zero self-play games, the agent loses.", "AlphaGo Zero self-play games",
     {"AlphaGo Zero", "self-play"}),
    ("We study fine-tuning language models on small data.", "fine-tuning language models",
     {"fine-tuning", "language models"}),
])
def test_an_entity_of_two_known_methods_side_by_side_is_the_two_methods(nlp, combine, text, phrase, names):
    doc = with_entity(nlp, combine, text, phrase, "METHOD")
    found = {m.text for m in doc._.kg_mentions if m.label == "METHOD" and not m.generic}
    assert found >= names and phrase not in found


@pytest.mark.parametrize("text, phrase", [
    ("We apply momentum adversarial distillation to the student.", "momentum adversarial distillation"),  # apart
    ("It is a plug-in for boosting adversarial training of robust models.", "boosting adversarial training"),  # a verb
])
def test_an_entity_of_two_known_methods_not_side_by_side_or_after_a_verb_is_not_split(nlp, combine, text, phrase):
    doc = with_entity(nlp, combine, text, phrase, "METHOD")
    found = {m.text for m in doc._.kg_mentions if m.label == "METHOD"}
    assert not {"momentum", "boosting"} & found


@pytest.mark.parametrize("text, phrase, name", [
    ("Attacks on image generation applications are rising.", "image generation applications", "image generation"),
    ("We test it in reinforcement learning domains.", "reinforcement learning domains", "reinforcement learning"),
])
def test_a_known_task_with_a_setting_head_is_the_task(nlp, combine, text, phrase, name):
    doc = with_entity(nlp, combine, text, phrase, "TASK")
    assert {m.canonical for m in doc._.kg_mentions if m.text == phrase} == {name}


def test_an_entity_around_a_whole_abbreviation_pair_is_one_mention_named_by_the_long_form(nlp, combine):
    text = "We use Additive Operator Splitting (AOS) techniques for speed. AOS is simple."
    doc = with_entity(nlp, combine, text, "Additive Operator Splitting (AOS) techniques", "METHOD")
    ms = doc._.kg_mentions
    whole = [m for m in ms if m.text == "Additive Operator Splitting (AOS) techniques"]
    assert whole and whole[0].label == "METHOD" and whole[0].extractor == "model_phrase"
    assert whole[0].canonical == "Additive Operator Splitting"
    # the later short form is the same concept
    later = [m for m in ms if m.text == "AOS" and m.start > whole[0].end]
    assert later and later[0].canonical == "Additive Operator Splitting" and later[0].label == "METHOD"


def test_an_entity_ending_in_an_abbreviation_pair_keeps_a_longer_name_the_rules_know(nlp, combine):
    text = "We study offline reinforcement learning (RL) here. Offline RL is hard."
    doc = with_entity(nlp, combine, text, "offline reinforcement learning (RL)", "TASK")
    whole = next(m for m in doc._.kg_mentions if m.text.startswith("offline"))
    assert whole.canonical.lower() == "offline reinforcement learning"  # the gazetteer's name, not RL's long form


def test_an_entity_ending_in_an_abbreviation_pair_is_the_concept_the_short_form_names(nlp, combine):
    text = ("We study learning in tabular episodic finite-horizon Markov decision processes (MDPs). "
            "The structure of MDPs helps.")
    doc = with_entity(nlp, combine, text, "tabular episodic finite-horizon Markov decision processes (MDPs)", "TASK")
    whole = next(m for m in doc._.kg_mentions if m.text.startswith("tabular"))
    later = next(m for m in doc._.kg_mentions if m.text == "MDPs" and m.start > whole.end)
    assert whole.canonical == later.canonical == "Markov decision processes"


@pytest.mark.parametrize("text, phrase, canonical", [
    # the pair is the object of a preposition or one of two things: the phrase is its own concept, without the aside
    ("We study semantic parsing of natural language (NL) tasks today.",
     "semantic parsing of natural language (NL) tasks", "semantic parsing of natural language"),
    ("We combine retrieval and Structure-from-Motion (SfM) methods here.",
     "retrieval and Structure-from-Motion (SfM) methods", "retrieval and Structure-from-Motion"),
])
def test_an_abbreviation_pair_inside_a_longer_name_is_left_out_of_its_concept_name(nlp, combine, text, phrase,
                                                                                    canonical):
    doc = with_entity(nlp, combine, text, phrase, "TASK" if "parsing" in phrase else "METHOD")
    m = next(m for m in doc._.kg_mentions if m.text == phrase)
    assert m.canonical == canonical


@pytest.mark.parametrize("name, expected", [
    ("Fewshot-CIFAR100 (FC100)", "Fewshot-CIFAR100"),
    ("RGBD (depth) cameras", "RGBD cameras"),
    ("deep (convolutional) neural nets", "deep neural nets"),
    ("SE(3)-Transformer", "SE(3)-Transformer"),  # parentheses inside a word are part of the name
    ("LLM.int8()", "LLM.int8()"),
    ("(ABC)", "(ABC)"),  # nothing would remain
    ("Llama 2 (70B)", "Llama 2 (70B)"),  # a size names another model, as "Llama 2 70B" does
    ("GPT-4 (Turbo) agents", "GPT-4 (Turbo) agents"),
    ("X (a (b)) y", "X y"),  # nested asides, innermost first
])
def test_concept_names_leave_out_parenthetical_asides(name, expected):
    assert without_asides(name) == expected


def test_a_task_name_under_a_system_head_is_the_task(nlp, combine):
    doc = with_entity(nlp, combine, "We built a question answering system for clinicians.",
                      "question answering system", "METHOD")
    assert spans(doc) == {("question answering", "TASK")}  # the task the paper addresses (SciERC: a method span)


def test_a_defined_short_form_with_a_head_word_is_one_phrase_named_by_the_long_form(nlp, combine):
    text = "The Speech Intelligibility Index (SII) is standard. We improve the SII measure for noisy speech."
    doc = with_entity(nlp, combine, text, "SII measure", "METRIC")
    m = next(m for m in doc._.kg_mentions if m.text == "SII measure")
    assert m.label == "METRIC" and m.canonical == "Speech Intelligibility Index"


def test_a_proposed_method_keeps_its_own_span_against_a_longer_entity(nlp, combine):
    text = "We propose Domain-aware Ensemble Distillation (DomED), a simple method. The DomED method is fast."
    doc = with_entity(nlp, combine, text, "DomED method", "METHOD")
    assert any(m.proposed and m.text == "DomED" for m in doc._.kg_mentions)
    assert "DomED method" not in {m.text for m in doc._.kg_mentions}


def test_an_entity_with_no_rule_parts_inside_stays_a_plain_model_candidate(nlp, combine):
    doc = with_entity(nlp, combine, "We study dense reconstruction of textured surfaces.",
                      "dense reconstruction of textured surfaces", "TASK")
    m = next(m for m in doc._.kg_mentions if m.text == "dense reconstruction of textured surfaces")
    assert m.extractor == "model" and m.canonical == "dense reconstruction of textured surfaces"


def test_abbreviation_pairs_labelled_only_by_word_shape_need_the_model_to_see_an_entity(nlp, combine):
    text = "Rendering uses levels of detail (LOD) to save time."
    assert "LOD" in {m.text for m in nlp(text)._.kg_mentions}  # rules alone: a guessed METHOD pair
    doc = with_entity(nlp, combine, text, "save time", "TASK")  # the model saw nothing at the pair
    assert "LOD" not in {m.text for m in doc._.kg_mentions}


@pytest.mark.parametrize("phrase,label,name", [
    ("column-then-row attention mechanism", "METHOD", "column-then-row attention"),
    ("progressive latent fusion strategy", "METHOD", "progressive latent fusion"),
    ("test-time attention intervention method", "METHOD", "test-time attention intervention"),
    ("BLEU score", "METRIC", "BLEU"),
    ("verb WSD problems", "TASK", "verb WSD"),
    ("unified framework", "METHOD", None),  # "unified" alone names nothing
    ("language model", "METHOD", None),  # "model" is part of names
    ("graph neural networks", "METHOD", None),
    ("summarization task", "TASK", None),  # one ordinary word: keep the phrase
    ("probabilistic regression-based methods", "METHOD", None),  # a modifier alone names nothing
    ("deep learning-based methods", "METHOD", None),
])
def test_concept_names_drop_a_kind_word_only_when_a_name_remains(nlp, phrase, label, name):
    doc = nlp.make_doc(f"We use {phrase} here.")
    start = 2
    end = start + len(nlp.make_doc(phrase))
    assert doc[start:end].text == phrase
    assert concept_name(doc, start, end, label) == name


def test_a_generic_class_phrase_is_a_mention_but_not_a_concept(nlp, combine):
    from kg.corpus.clean import clean
    from kg.sinks.predictions import prediction
    from kg.model import Paper
    from kg.nlp.extract import _to_extraction

    text = "Unlike linear models, our kernel machine scales."
    doc = with_entity(nlp, combine, text, "linear models", "METHOD")
    ex = _to_extraction(Paper(id="p", text=text), clean(text), doc)
    assert [m.text for m in ex.generic] == ["linear models"]
    row = prediction(Paper(id="p", text=text), ex)
    assert "linear models" not in row["concepts"].get("METHOD", [])
    assert {"text": "linear models", "label": "METHOD", "generic": True}.items() <= next(
        m for m in row["mentions"] if m["text"] == "linear models").items()


@pytest.mark.parametrize("phrase,generic", [
    ("linear models", True), ("optimization methods", True), ("existing approaches", True),
    ("the Transformer models", False),  # a name
    ("graph neural network", False),  # singular: one method
    ("probabilistic regression-based methods", False),  # longer phrases say which methods
    ("OT-based models", True), ("Transformer-based approaches", True),  # a family built on a name
    ("OT-based model", False),  # singular: one method
])
def test_short_plural_class_phrases_are_generic(nlp, phrase, generic):
    doc = nlp.make_doc(phrase)
    span = doc[1:] if phrase.startswith("the ") else doc[:]
    assert generic_class(span) is generic


@pytest.mark.parametrize("phrase,generic", [
    ("one-to-many tasks", True), ("language problems", True),
    ("translation tasks", False), ("NLP tasks", False),  # they name their task
    ("image-to-image translation tasks", False), ("vision task", False),  # longer, or one task
])
def test_a_plural_kind_of_tasks_is_generic(nlp, phrase, generic):
    assert generic_task_class(nlp.make_doc(phrase)[:]) is generic


@pytest.mark.parametrize("text,entity,kept", [
    ("We study solving black-box discrete optimization at scale.", "solving black-box discrete optimization",
     "black-box discrete optimization"),
    ("It learns stochastic transport maps when data are scarce.", "stochastic transport maps when", "stochastic transport maps"),
    ("A model of image colorization, and more.", "of image colorization,", "image colorization"),
    ("The Penn Treebank (PTB) is used.", "Penn Treebank (PTB)", "Penn Treebank (PTB)"),
    ("We use the corpus (for training.", "corpus (", "corpus"),
    ("Tweets from the Stanford twitter corpus (mentioned above).", "Stanford twitter corpus (mentioned",
     "Stanford twitter corpus"),
    ("It scores 75.0% on ICDAR 2015 Incidental (Challenge 4) benchmark.", "ICDAR 2015 Incidental (Challenge 4",
     "ICDAR 2015 Incidental (Challenge 4)"),
    ("Experiments on real-world graph datasets highlight the gains.", "real-world graph datasets highlight",
     "real-world graph datasets"),
    ("We use the New York Times (NYT) corpus.", "NYT) corpus", "corpus"),
    ("We fine-tune language models on code.", "fine-tune language models", "language models"),  # a verb's object
    ("A detector to identify IP infringement.", "identify IP infringement", "IP infringement"),
    ("It surpasses SOTA tracking methods.", "SOTA tracking", "tracking"),  # a judgement, not part of the name
    ("It makes accurate recommendations.", "accurate recommendations", "recommendations"),
    ("A \u201cnatural\u201d layer decomposition.", "natural\u201d layer decomposition", "layer decomposition"),  # quoted before
    ("We call it \u201crender-and-optimize\u201d.", "\u201crender-and-optimize\u201d", "render-and-optimize"),
])
def test_model_entities_lose_frayed_edges(nlp, text, entity, kept):
    from kg.nlp.combine import trim

    doc = nlp.make_doc(text)
    at = text.index(entity)
    span = doc.char_span(at, at + len(entity))
    start, end = trim(doc, span.start, span.end)
    assert doc[start:end].text == kept


@pytest.mark.parametrize("text,phrase,expected", [
    # a head saying the phrase names a method, data, or a field is not a task ...
    ("Recent 3D pre-trained models transfer well.", "3D pre-trained models", ("3D pre-trained models", "METHOD")),
    ("We model tabular gene expression data with care.", "tabular gene expression data", None),
    ("It is popular in science and engineering today.", "science and engineering", None),
    ("It drew interest from machine learning communities lately.", "machine learning communities", None),
    ("Our model removes the spurious solution issue entirely.", "spurious solution issue", None),  # a difficulty
    ("The shift poses a hard generalization challenge for them.", "hard generalization challenge", None),
    # ... unless a preposition makes something else the head, or the head is a task's own
    ("We propose unsupervised alignment of heterogeneous datasets here.",
     "unsupervised alignment of heterogeneous datasets", ("unsupervised alignment of heterogeneous datasets", "TASK")),
    ("We study dynamic systems over time.", "dynamic systems", ("dynamic systems", "TASK")),
])
def test_a_task_entity_headed_by_another_kind_of_word_is_relabelled_or_dropped(nlp, combine, text, phrase, expected):
    doc = with_entity(nlp, combine, text, phrase, "TASK")
    found = {(m.text, m.label) for m in doc._.kg_mentions if m.text == phrase}
    assert found == ({expected} if expected else set())


def test_a_word_shape_name_needs_the_model_to_see_an_entity(nlp, combine):
    text = "We compare MorphNet, QX2 and DeepLabV3 on the validation split."
    doc = with_entity(nlp, combine, text, "DeepLabV3", "METHOD")
    assert ("DeepLabV3", "METHOD") in spans(doc)
    assert not any(t == "QX2" for t, _ in spans(doc))  # shaped like a name, but the model saw nothing there
    assert ("MorphNet", "METHOD") in spans(doc)  # mixed case inside a word: a name alone
    rules_only = nlp(text)
    assert ("QX2", "METHOD") in spans(rules_only)  # the rules alone keep word-shape names


def test_an_entity_on_a_gazetteer_name_adds_nothing_and_the_gazetteer_names_it(nlp, combine):
    doc = with_entity(nlp, combine, "We evaluate on BRATS 2015 and on ImageNet.", "BRATS 2015", "DATASET")
    assert {(m.text, m.canonical) for m in doc._.kg_mentions if m.label == "DATASET"} >= {("BRATS 2015", "BraTS 2015")}
    assert not any(m.extractor.startswith("model") for m in doc._.kg_mentions)


def test_a_dataset_name_with_a_generic_head_keeps_the_gazetteers_name(nlp, combine):
    doc = with_entity(nlp, combine, "Experiments on the ImageNet-1K dataset show gains.", "ImageNet-1K dataset",
                      "DATASET")
    assert {m.canonical for m in doc._.kg_mentions if m.label == "DATASET"} == {"ImageNet"}


@pytest.mark.parametrize("phrase", ["GLUE tasks", "GLUE task suite"])
def test_a_known_dataset_under_a_generic_head_stays_the_dataset(nlp, combine, phrase):
    doc = with_entity(nlp, combine, f"Our model solves the {phrase} with few errors.", phrase, "TASK")
    assert {(m.canonical, m.label) for m in doc._.kg_mentions} == {("GLUE", "DATASET")}


@pytest.mark.parametrize("text, phrase, task", [
    ("Recent object detection methods are slow.", "object detection methods", "object detection"),
    ("Test-Time Adaptation (TTA) adapts a model online. Current TTA methods still fail.", "TTA methods",
     "Test-Time Adaptation"),
    ("We build a speech recognition system for meetings.", "speech recognition system", "speech recognition"),
])
def test_methods_for_a_known_task_name_the_task_not_a_method(nlp, combine, text, phrase, task):
    doc = with_entity(nlp, combine, text, phrase, "METHOD")
    assert phrase not in {m.text for m in doc._.kg_mentions}
    assert task.lower() in {m.canonical.lower() for m in doc._.kg_mentions if m.label == "TASK" and not m.generic}
    assert not any(m.label == "METHOD" and not m.generic for m in doc._.kg_mentions)


@pytest.mark.parametrize("text, phrase, name", [
    ("We beat the KataGo agent at Go.", "KataGo agent", "KataGo"),
    ("Reinforcement learning (RL) agents are used for solving tasks.", "Reinforcement learning (RL) agents",
     "Reinforcement learning"),  # (no concept "reinforcement learning agents")
])
def test_an_agent_is_named_by_what_it_runs(nlp, combine, text, phrase, name):
    doc = with_entity(nlp, combine, text, phrase, "METHOD")
    assert {m.canonical for m in doc._.kg_mentions if m.text == phrase} == {name}


def test_a_method_head_on_an_unknown_name_is_still_a_method(nlp, combine):
    doc = with_entity(nlp, combine, "We train the HMM-based speech synthesis system on news.",
                      "HMM-based speech synthesis system", "METHOD")
    assert any(m.label == "METHOD" and not m.generic for m in doc._.kg_mentions)


def test_a_pair_no_rule_knows_takes_the_models_label_not_the_head_words(nlp, combine):
    text = "We revisit Correlation Shift Alignment (CSA) under label noise."
    assert {(m.text, m.label) for m in nlp(text)._.kg_mentions} >= {("CSA", "TASK")}  # rules alone: "... Alignment"
    doc = with_entity(nlp, combine, text, "CSA", "METHOD")
    assert {(m.text, m.label) for m in doc._.kg_mentions} >= {("Correlation Shift Alignment", "METHOD"), ("CSA", "METHOD")}


def test_an_unknown_pair_takes_the_label_its_long_forms_head_word_says_over_the_models(nlp, combine):
    # the model reads "KDS" as a task; "... System" says what the pair names (SciERC dev annotates it METHOD)
    text = "KDS (Knowledge Delivery System) composes text. The methods of KDS are described."
    doc = with_entity(nlp, combine, text, "KDS", "TASK")
    labels = {m.text: m.label for m in doc._.kg_mentions}
    assert labels.get("KDS (Knowledge Delivery System)", labels.get("KDS")) == "METHOD"
    assert all(m.label == "METHOD" for m in doc._.kg_mentions if "KDS" in m.text)
    # with no head word, the model's label stands
    doc = with_entity(nlp, combine, "KDS (Knowledge Delivery) composes text. KDS is hard.", "KDS", "TASK")
    assert {m.label for m in doc._.kg_mentions if "KDS" in m.text} == {"TASK"}


@pytest.mark.parametrize("text,long,label", [
    ("We study Open Set Domain Adaptation (OSDA) on images. OSDA is hard.", "Open Set Domain Adaptation", "TASK"),
    ("Methods for incremental semantic segmentation (ISS) forget old classes.", "incremental semantic segmentation",
     "TASK"),
    ("We optimise the One-way Partial AUC (OPAUC) directly.", "One-way Partial AUC", "METRIC"),
    ("We build on the Bayesian Neural Architecture Search (BNAS) method.", "Bayesian Neural Architecture Search",
     "METHOD"),  # a method's head word after the pair says what it is
    # so does a task's, a metric's or a dataset's, over the model's reading and the long form's words
    ("We solve the distributed distributionally robust optimization (DDRO) problem in closed form.",
     "distributed distributionally robust optimization", "TASK"),
    ("It gets a higher safety-weighted-utility (SWU) score than the baselines.", "safety-weighted-utility", "METRIC"),
    ("Models fail on the Pointer Value Retrieval (PVR) benchmark introduced before.", "Pointer Value Retrieval",
     "DATASET"),
])
def test_an_unknown_pair_ending_in_a_known_name_takes_that_names_label_over_the_models(nlp, combine, text, long,
                                                                                       label):
    # "Open Set Domain Adaptation" is a kind of domain adaptation, "One-way Partial AUC" a partial AUC
    short = text[text.index("(") + 1:text.index(")")]
    doc = with_entity(nlp, combine, text, short, "METHOD")
    mentions = select_mentions(doc, frozenset(), load_gazetteer().lookup())
    assert {m.label for m in mentions if m.text in (long, short)} == {label}


@pytest.mark.parametrize("text, short, label", [
    ("We train the variance preserving stochastic differential equation (VPSDE) score network.", "VPSDE", "METRIC"),
    ("Our physics-informed neural operator (PINO) problem formulation is new.", "PINO", "TASK"),
    ("We collect a large-scale multi-person motion forecasting (MPMF) dataset.", "MPMF", "DATASET"),
])
def test_a_head_word_inside_a_longer_phrase_or_after_a_task_gives_a_pair_no_label(nlp, text, short, label):
    # "score network", "problem formulation": the head word does not end the phrase; a task's "dataset" is its data
    assert label not in {m.label for m in nlp(text)._.kg_mentions if m.text == short}


def test_a_proposed_pair_ending_in_a_known_task_stays_the_papers_method(nlp):
    doc = nlp("We propose Collaborative Metric Learning (CML), a new model for recommendation.")
    assert {m.label for m in doc._.kg_mentions if m.text in ("Collaborative Metric Learning", "CML")} == {"METHOD"}


@pytest.mark.parametrize("phrase,label,kept", [
    ("model", "METHOD", True),  # SciERC and SciREX annotate such mentions of methods
    ("alignment", "TASK", False),  # a generic task word: TDMSci does not annotate it
    ("benchmark", "DATASET", False),
])
def test_a_generic_word_the_model_tags_as_a_method_is_a_generic_mention_and_other_labels_drop_it(
        nlp, combine, phrase, label, kept):
    text = f"We train the {phrase} on many tokens."
    doc = with_entity(nlp, combine, text, phrase, label)
    doc._.kg_mentions = select_mentions(doc, frozenset({"model", "alignment", "benchmark"}), {})
    found = [m for m in doc._.kg_mentions if m.text == phrase]
    assert [(m.label, m.generic) for m in found] == ([(label, True)] if kept else [])


@pytest.mark.parametrize("ner, tagger, expected", [
    # DATASET comes from the tagger: the NER's goes, the tagger's comes in where no kept NER entity overlaps it
    ([(0, 2, "DATASET"), (5, 7, "METHOD")], [(1, 3, "DATASET"), (5, 6, "DATASET")], [(1, 3, "DATASET"), (5, 7, "METHOD")]),
    # a TASK stays where the tagger sees a TASK over any of its tokens, whatever the tagger's edges
    ([(0, 3, "TASK")], [(2, 4, "TASK")], [(0, 3, "TASK")]),
    # ... and goes where the tagger sees nothing there, or another label
    ([(0, 3, "TASK"), (4, 6, "TASK")], [(0, 3, "METHOD")], []),
    # the other labels are the NER's, whatever the tagger says
    ([(0, 2, "METHOD"), (3, 4, "METRIC")], [(0, 2, "TASK")], [(0, 2, "METHOD"), (3, 4, "METRIC")]),
    ([], [(0, 1, "METHOD"), (2, 3, "TASK")], []),
])
def test_the_ner_takes_datasets_from_the_tagger_and_keeps_tasks_the_tagger_confirms(ner, tagger, expected):
    assert merge_entities(ner, tagger, frozenset({"DATASET"}), frozenset({"TASK"})) == expected


@pytest.mark.parametrize("ner, merged, expected", [
    ([(0, 3, "TASK"), (4, 6, "TASK")], [(0, 3, "TASK")], [(4, 6, "TASK")]),  # the task the tagger did not confirm
    ([(0, 3, "TASK")], [(2, 4, "DATASET")], []),  # a merged entity (the tagger's dataset) lies there
    ([(0, 2, "METHOD")], [], []),  # only a confirm label
])
def test_the_tasks_the_tagger_does_not_confirm_are_those_left_out_where_nothing_else_lies(ner, merged, expected):
    assert unconfirmed(ner, merged, frozenset({"TASK"})) == expected


@pytest.mark.parametrize("text, phrase, generic", [
    ("Our method reduces domain forgetting in practice.", "domain forgetting", True),
    ("Our method improves image classification in practice.", "image classification", False),  # a rule's task
    ("We study Latent Space Optimization (LSO) here.", "Latent Space Optimization", False),  # part of a pair
    ("We study Latent Space Optimization (LSO) here.", "Latent Space Optimization (LSO)", False),  # a whole pair
])
def test_an_unconfirmed_task_is_a_generic_mention_only_where_no_rule_or_pair_lies(nlp, combine, text, phrase, generic):
    doc = nlp(text)
    span = doc.char_span(text.index(phrase), text.index(phrase) + len(phrase))
    rules = [c for c in candidates(doc) if not c.extractor.startswith("model")]
    cand = combine._unlinked(doc, rule_spans(rules), short_forms(doc, rules), span.start, span.end, "TASK")
    if generic:
        assert cand is not None and cand.generic and cand.label == "TASK" and cand.extractor == "model"
    else:
        assert cand is None


def test_an_unconfirmed_task_under_a_method_head_is_a_generic_method_mention(nlp, combine):
    text = "We train sparse kernel learning models here."
    doc = nlp(text)
    rules = [c for c in candidates(doc) if not c.extractor.startswith("model")]
    cand = combine._unlinked(doc, rule_spans(rules), short_forms(doc, rules), 2, 6, "TASK")
    assert doc[2:6].text == "sparse kernel learning models"
    assert cand is not None and cand.generic and cand.label == "METHOD"


def test_with_no_labels_to_share_the_ner_entities_are_kept_as_they_are():
    ner = [(0, 3, "TASK"), (4, 5, "DATASET")]
    assert merge_entities(ner, [(7, 8, "DATASET")], frozenset(), frozenset()) == ner


def test_a_name_inside_a_formula_in_math_letters_is_no_mention_unless_a_metric_or_known(nlp, combine):
    from kg.corpus.clean import clean

    raw = (r"The bound drops $SA$ from the $\log T$ term of image classification, with an $AUC$ of 0.9; "
           r"we propose $\texttt{SPARKLE}$ and $\mathrm{ResNet}$ features.")
    ct = clean(raw)

    def mentions(phrase: str, label: str) -> set[tuple[str, str]]:
        return spans(with_entity(nlp, combine, ct.text, phrase, label, ct.formulas))

    assert not any(text == "SA" for text, _ in mentions("SA", "TASK"))  # a formula's symbols name nothing
    assert ("image classification", "TASK") in mentions("SA", "TASK")  # the rest of the text is read as before
    assert ("AUC", "METRIC") in mentions("AUC", "METRIC")  # a metric's symbol is its name
    assert ("SPARKLE", "METHOD") in mentions("SPARKLE", "METHOD")  # words in a text font are names
    assert ("ResNet", "METHOD") in mentions("ResNet", "METHOD")
    # a name only partly in a formula is read as before
    assert ("k-NN", "METHOD") in spans(with_entity(nlp, combine, clean(r"We use $k$-NN here.").text, "k-NN", "METHOD",
                                                   clean(r"We use $k$-NN here.").formulas))
    # without the formulas (a doc not made by kg.nlp.extract) nothing is dropped
    assert ("SA", "TASK") in spans(with_entity(nlp, combine, ct.text, "SA", "TASK"))


@pytest.mark.parametrize("text, phrase, kept", [
    ("We propose a realistic model of speech processing for it.", "realistic model of speech processing", False),
    ("The method relies on fusion of embedding tables in memory.", "fusion of embedding tables", False),
    ("A sparse mixture of experts model routes tokens.", "sparse mixture of experts model", True),  # a known name
    ("We present Self-supervised Aggregation of Diverse Experts here.", "Self-supervised Aggregation of Diverse Experts",
     True),  # a name by its capitals
    # a sentence's first capital and a short form in brackets make no name
    ("Unsupervised learning of latent variable models (LVMs) is widely used.",
     "Unsupervised learning of latent variable models (LVMs)", False),
    ("Learning representations of neural network weights is an emerging task.",
     "Learning representations of neural network weights", False),
    ("We use it. Mixture of Gaussians Sampling helps here.", "Mixture of Gaussians Sampling", True),
])
def test_a_tagger_method_in_lower_case_with_of_inside_describes_and_names_no_method(nlp, combine, monkeypatch, text,
                                                                                     phrase, kept):
    from kg.nlp.components.tagger import TaggerCandidates

    assert TaggerCandidates.of_describes and not ModelCandidates.of_describes  # the tagger's rule (not the NER's)
    monkeypatch.setattr(combine, "of_describes", True)
    doc = with_entity(nlp, combine, text, phrase, "METHOD")
    assert any(m.text == phrase for m in doc._.kg_mentions) == kept


@pytest.mark.parametrize("text, phrase, name", [
    ("Our detector reaches 50.2 AP on the MS-COCO mini-val set.", "MS-COCO mini-val set", "COCO minival"),
    ("Our detector reaches 50.2 AP on the MS COCO minival split.", "MS COCO minival split", "COCO minival"),
    ("We get 50.1 AP on the MS COCO 2017 validation set.", "MS COCO 2017 validation set",  # COCO 2017's split,
     "MS COCO 2017 validation set"),  # not any COCO's
])
def test_a_known_datasets_split_is_named_as_the_vocabulary_names_splits_but_not_a_releases(nlp, combine, text, phrase,
                                                                                          name):
    doc = with_entity(nlp, combine, text, phrase, "DATASET")
    assert {m.canonical for m in doc._.kg_mentions if m.text == phrase} == {name}


@pytest.mark.parametrize("text,phrase,label", [
    ("LMs trained using cross-entropy exhibit text degeneration.", "cross-entropy exhibit text degeneration", "METHOD"),
    ("The InfoLOOB objective helps. InfoLOOB outperform CLIP here.", "InfoLOOB outperform CLIP", "METHOD"),
    ("BarlowTwins enables search over spaces.", "BarlowTwins enables search", "TASK"),
])
def test_an_entity_over_a_verb_that_joins_two_names_is_a_clause_no_name(nlp, combine, text, phrase, label):
    assert (phrase, label) not in spans(with_entity(nlp, combine, text, phrase, label))


@pytest.mark.parametrize("text,phrase,name", [
    ("We compare against CNN based models on images.", "CNN based models", "CNN"),
    ("These recurrent neural network based systems are slow.", "recurrent neural network based systems", "RNN"),
    ("We train a model based on attention weights.", "model based on attention", None),  # "based on": no family
    ("We compare plain regression based models.", "regression based models", None),  # a plain word names nothing
])
def test_based_written_apart_names_what_a_method_phrase_is_built_on(nlp, combine, text, phrase, name):
    from kg.nlp.combine import built_on

    doc = with_entity(nlp, combine, text, phrase, "METHOD")
    start = text.index(phrase)
    span = doc.char_span(start, start + len(phrase))
    assert built_on(doc, span.start, span.end) == name
    if name:
        found = {m.canonical for m in doc._.kg_mentions if m.label == "METHOD" and not m.generic}
        assert name in found and phrase not in found


@pytest.mark.parametrize("ents,label", [
    ([(3, 7, "METHOD"), (8, 9, "DATASET")], "METHOD"),  # letters in brackets the tagger reads as a dataset
    ([(3, 7, "TASK"), (8, 9, "METHOD")], "METHOD"),  # otherwise the short form's reading, as it is used later
    ([(8, 9, "DATASET")], "DATASET"),  # the only reading
    ([(3, 7, "METHOD")], "METHOD"),
])
def test_a_pair_no_rule_knows_takes_the_taggers_reading(ents, label):
    from kg.nlp.candidates import Abbreviation
    from kg.nlp.components.mentions import _pair_label

    # "We study the Combinatorial Thompson Sampling policy (CTS) for ...": long form 3-7, short form 8-9
    pair = Abbreviation(3, 7, 8, 9)
    assert _pair_label(ents, pair, "Combinatorial Thompson Sampling policy") == label
