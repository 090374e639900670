"""A title "NAME: description" names the paper's proposed method or dataset."""
from __future__ import annotations

import json

import pytest

from kg.model import Paper
from kg.nlp.extract import extract
from kg.nlp.components.title import title_name


@pytest.mark.parametrize("title,expected", [
    ("GraphDE: A Generative Framework for Debiased Learning", ("GraphDE", "METHOD", False)),
    ("DPM-Solver: A Fast ODE Solver for Diffusion Probabilistic Model Sampling", ("DPM-Solver", "METHOD", False)),
    ("Natural Color Fool: Towards Boosting Black-box Unrestricted Attacks", ("Natural Color Fool", "METHOD", True)),
    ("CEBaB: Estimating the Causal Effects of Real-World Concepts", ("CEBaB", "METHOD", False)),
    ("OpenOOD: Benchmarking Generalized Out-of-Distribution Detection", ("OpenOOD", "METHOD", False)),
    ("LAION-5B: An open large-scale dataset for training next generation image-text models", ("LAION-5B", "DATASET", False)),
])
def test_title_names(title, expected):
    assert title_name(title) == expected


@pytest.mark.parametrize("title", [
    "Why neural networks find simple solutions: the many regularizers of geometric complexity",
    "M$^4$I: Multi-modal Models Membership Inference",  # LaTeX in the name
    "Learning to Sample and Aggregate: Few-shot Reasoning over Temporal Knowledge Graphs",
    "Towards Effective Interpretability",  # no colon
])
def test_titles_without_a_name(title):
    assert title_name(title) is None


def test_the_abstracts_occurrences_of_the_title_name_are_proposed():
    paper = Paper("p1", "Out-of-distribution detection on graphs is hard. We introduce a generative framework that "
                        "models both. Experiments show that GraphDE outperforms prior work.",
                  title="GraphDE: A Generative Framework for Debiased Learning and Out-of-Distribution Detection")
    (_, ex), = extract([paper])
    assert "GraphDE" in ex.proposed
    untitled = Paper("p2", paper.text)
    (_, ex2), = extract([untitled])
    assert "GraphDE" not in ex2.proposed


def test_a_title_name_the_abstract_calls_a_problem_is_a_task_not_a_proposal():
    paper = Paper("p5", "We study agents that follow commands. We call this novel yet important problem, Grounded "
                        "Reinforcement Learning (GRL). We tackle GRL with a constrained objective.",
                  title="Grounded Reinforcement Learning: Learning to Win the Game under Human Commands")
    (_, ex), = extract([paper])
    assert ex.proposed == [] and ("TASK", "Grounded Reinforcement Learning") in {(m.label, m.canonical) for m in ex.mentions}


def test_a_problem_named_in_apposition_is_a_task_and_named_entity_recognition_names_nothing():
    paper = Paper("p6", "We formulate this as a new problem, Grounded Reinforcement Learning (GRL). We solve GRL.",
                  title="Grounded Reinforcement Learning: Learning to Win the Game under Human Commands")
    (_, ex), = extract([paper])
    assert ex.proposed == []
    paper = Paper("p7", "Named entity recognition is a core task; FooNER solves it with a small model. FooNER is fast.",
                  title="FooNER: Fast Entity Tagging")
    (_, ex), = extract([paper])
    assert ex.proposed == ["FooNER"]


def test_a_topic_in_title_case_is_not_proposed_when_the_abstract_writes_it_in_lower_case():
    paper = Paper("p3", "Knowledge distillation trains a student from a teacher. We show that knowledge distillation "
                        "from bad teachers helps.", title="Knowledge Distillation: Bad Models Can Be Good Role Models")
    (_, ex), = extract([paper])
    assert ex.proposed == []


def test_concepts_named_only_in_the_title_are_extracted_with_title_offsets():
    from kg.sinks.predictions import prediction

    title = "Robust Semantic Segmentation with Vision Transformers"
    paper = Paper("p4", "We study corruptions of street scenes. Our model is trained on Cityscapes.", title=title)
    (_, ex), = extract([paper])
    titled = [m for m in ex.mentions if m.in_title]
    assert {m.canonical.lower() for m in titled} >= {"semantic segmentation"}
    for m in titled:
        assert title[m.start:m.end] == m.text and (m.sentence.start, m.sentence.end) == (0, len(title))
    pred = prediction(paper, ex)
    assert any(n.lower() == "semantic segmentation" for n in pred["concepts"]["TASK"])
    # mention offsets in the prediction point into the abstract only
    assert all(paper.text[m["start"]:m["end"]] for m in pred["mentions"])
    assert not any(m["text"].lower() == "semantic segmentation" for m in pred["mentions"])
    # the title's mentions are reported apart, with offsets into the title
    assert ("Semantic Segmentation", "TASK") in {(m["text"], m["label"]) for m in pred["title_mentions"]}
    assert all(title[m["start"]:m["end"]] == m["text"] for m in pred["title_mentions"])


def test_title_evidence_in_the_graph_names_the_title_field(tmp_path):
    import kg
    import networkx as nx

    src = tmp_path / "p.jsonl"
    src.write_text(json.dumps({"id": "t1", "title": "Semantic Segmentation of Street Scenes",
                               "text": "We train a network on Cityscapes and report mIoU."}) + "\n", encoding="utf-8")
    kg.build([str(src)], tmp_path / "out")
    g = nx.node_link_graph(json.loads((tmp_path / "out" / "graph.json").read_text()), edges="links")
    (data,) = [d for _, _, k, d in g.out_edges("paper:t1", keys=True, data=True) if k == "ADDRESSES"]
    assert data["evidence"][0]["field"] == "title" and data["sentence"] == "Semantic Segmentation of Street Scenes"
    assert g.nodes["paper:t1"]["name"] == "Semantic Segmentation of Street Scenes"



def test_a_title_name_the_abstract_writes_in_lower_case_after_a_proposal_is_proposed():
    paper = Paper("p5", "We revisit dataset ownership verification. We design the untargeted backdoor watermark under "
                        "two settings, and use the proposed untargeted backdoor watermark for verification.",
                  title="Untargeted Backdoor Watermark: Towards Harmless and Stealthy Dataset Copyright Protection")
    (_, ex), = extract([paper])
    assert ex.proposed == ["Untargeted Backdoor Watermark"]
    plural = Paper("p7", "Structured outputs are hard. We design a semantic probabilistic layer that enforces "
                         "constraints exactly.", title="Semantic Probabilistic Layers for Neuro-Symbolic Learning")
    (_, ex), = extract([plural])  # the title's plural name, the abstract's singular
    assert ex.proposed == ["Semantic Probabilistic Layers"]
    strategies = Paper("p8", "Planning is hard. We propose a dynamic routing strategy that plans ahead.",
                       title="Dynamic Routing Strategies for Planning")
    (_, ex), = extract([strategies])  # "Strategies" -> "strategy"
    assert ex.proposed == ["Dynamic Routing Strategies"]
    topic = Paper("p6", "We study fair ranking. We propose the fair ranking algorithm.",
                  title="Fair Ranking: A Critical Review")
    (_, ex), = extract([topic])
    assert ex.proposed == []


def test_a_title_name_inside_a_url_is_not_a_mention():
    paper = Paper("p7", "We introduce NodeFormer, a scalable graph Transformer. Code: https://github.com/x/NodeFormer",
                  title="NodeFormer: A Scalable Graph Structure Learning Transformer")
    (_, ex), = extract([paper])
    assert all("github" not in m.text for m in ex.mentions)
    assert "NodeFormer" in ex.proposed


@pytest.mark.parametrize("title, name", [
    ("Subsidiary Prototype Alignment for Universal Domain Adaptation", "Subsidiary Prototype Alignment"),
    ("Mask Matching Transformer for Few-Shot Segmentation", "Mask Matching Transformer"),
    ("A Unified Hard-Constraint Framework for Solving PDEs", None),  # a description, not a name
    ("Sublinear Algorithms for Hierarchical Clustering", None),
    ("Transformers for Image Recognition", None),  # one word: any "transformers" would be proposed
])
def test_a_capitalised_name_before_for_in_a_title_names_the_contribution(title, name):
    from kg.nlp.components.title import title_name

    found = title_name(title)
    assert (found[0] if found else None) == name


def test_a_title_name_the_text_writes_only_as_a_defined_short_form_is_proposed():
    from kg.model import Paper
    from kg.nlp.extract import extract

    text = ("A major problem is negative transfer. Following this, subsidiary prototype-space alignment (SPA) can be "
            "seen as a closed-set alignment problem. We realize SPA with a pretext task.")
    [(_, ex)] = list(extract([Paper(id="p", title="Subsidiary Prototype Alignment for Universal Domain Adaptation",
                                    text=text)]))
    assert "SPA" in {m.canonical for m in ex.mentions if m.proposed}
    [(_, ex)] = list(extract([Paper(id="q", title="Active Learning for Multiple Target Models",
                                    text="We study active learning (AL) when several models are trained. AL helps.")]))
    assert not any(m.proposed for m in ex.mentions)  # a known name is no new one


@pytest.mark.parametrize("title, means", [
    ("Robust Imitation via Mirror Descent Inverse Reinforcement Learning",
     ["Mirror Descent Inverse Reinforcement Learning"]),
    ("Scale-invariant Learning by Physics Inversion", ["Physics Inversion"]),
    ("Fast Bayesian Coresets via Subsampling and Quasi-Newton Refinement", ["Quasi-Newton Refinement"]),
    ("DAGMA: Learning DAGs via M-matrices and a Log-Determinant Acyclicity Characterization",
     ["Log-Determinant Acyclicity Characterization"]),  # "and" joins two; one plain word is none
    ("Improving Out-of-Distribution Generalization via Adversarial Weight Masking with Structured Priors",
     ["Adversarial Weight Masking"]),  # up to a preposition
    ("Fine-Tuning Pre-Trained Language Models Effectively by Optimizing Subnetworks Adaptively", []),  # an action
    ("Learning Distributions Generated by Single-Layer ReLU Networks", []),  # an agent
    ("Controlling Confusion via Generalisation Bounds", []),  # a theory object
    ("Learning Options via Compression", []),  # one plain word
    ("Robust Reinforcement Learning using Offline Data", []),  # data
    ("Understanding Robust Learning through the Lens of Representation Similarities", []),
    ("Knowledge Distillation for Detection", []),  # no means
    ("Improving Inference Speed by Dynamic Sparse Pruning", ["Dynamic Sparse Pruning"]),  # "Speed" is no participle
    ("Learning Kernels via String Kernels", ["String Kernels"]),  # "String" is no verb
    ("Aligning Models via Latent Feature Mixing. A Study", ["Latent Feature Mixing"]),  # a full stop ends it
    ("Aligning Models via Latent Feature Mixing\u2014A Study", ["Latent Feature Mixing"]),  # so does a dash
])
def test_what_a_title_says_its_paper_works_by_is_a_method(title, means):
    from kg.nlp.components.title import _means_name, title_means

    assert [title[a:b] for a, b in title_means(title) if _means_name(title[a:b])] == means


def test_a_titles_means_is_a_method_of_the_paper_and_a_known_name_keeps_its_reading():
    text = "Imitation learning from demonstrations is brittle. We study regret bounds."
    [(_, ex)] = list(extract([Paper(id="p", title="Robust Imitation via Mirror Descent Inverse Reinforcement Learning",
                                    text=text)]))
    means = [m for m in ex.mentions if m.in_title and m.label == "METHOD"]
    assert [m.canonical for m in means] == ["Mirror Descent Inverse Reinforcement Learning"]
    assert not means[0].proposed
    [(_, ex)] = list(extract([Paper(id="q", title="Outlier-Robust Sparse Estimation via Knowledge Distillation",
                                    text=text)]))
    assert not any(m.extractor == "title_means" for m in ex.mentions)


def test_a_title_topic_that_starts_with_a_persons_name_is_no_task():
    text = "We analyze the Sinkhorn iteration for entropic optimal transport and give sharp rates."
    [(_, ex)] = list(extract([Paper(id="p", title="Convergence Guarantees for Sinkhorn Iteration", text=text)]))
    assert not any(m.extractor == "title_topic" for m in ex.mentions)


@pytest.mark.parametrize("title,tasks", [
    ("Fused Orthogonal Alternating Least Squares for Tensor Clustering", ["tensor clustering"]),
    ("Polynomial Neural Fields for Subband Decomposition and Manipulation", ["subband decomposition"]),  # "and" parts
    ("Priors for Communication Efficient Nonconvex Distributed Learning", ["nonconvex distributed learning"]),
    ("Conditional Diffusion for Scalable Inverse Halftoning", ["inverse halftoning"]),  # judged: "Scalable"
    ("A Simple Objective for Alleviating Neural Text Degeneration", []),  # an action
    ("Non-Monotonic Alignments for CTC-Based Machine Translation", []),  # built on something
    ("Tight Bounds for its Convergence", []),  # no task's name
    ("A Coupled Design for Post-Training Quantization", []),  # the vocabulary knows it (a method)
    ("Graph Coloring via Neural Networks", ["graph coloring"]),  # what opens a title, then how
    ("HyperMiner: Topic Taxonomy Mining via Hyperbolic Embedding", ["topic taxonomy mining"]),  # after a colon
    ("Robust Semantic Segmentation with Vision Transformers", []),  # the known task inside names it (by the rules)
    ("Multiview Human Body Reconstruction from Uncalibrated Cameras", ["multiview human body reconstruction"]),
    ("Near-Optimal Collaborative Learning in Bandits", []),  # "in" says where, not how
    ("The First Optimal Acceleration of High-Order Methods in Smooth Convex Optimization",
     ["smooth convex optimization"]),  # what the paper works in
    ("Data Augmentation in Finite-Sum Minimax Optimization", ["finite-sum minimax optimization"]),
    ("Learning Rates in Off-Policy Temporal Difference Learning", []),  # a known method: no task
    ("Token Pruning in the Context of Efficient Video Recognition", []),  # "of": where, not what
    ("Decoupling Features in Hierarchical Propagation for Dense Flow Segmentation",
     ["dense flow segmentation"]),  # "for" later: the task follows it, "in" says how
])
def test_what_a_title_says_its_paper_is_for_is_a_task(title, tasks):
    [(_, ex)] = list(extract([Paper(id="p", title=title, text="We study it and give an algorithm.")]))
    assert [m.canonical for m in ex.mentions if m.extractor == "title_topic"] == tasks
    assert all(m.label == "TASK" and m.in_title for m in ex.mentions if m.extractor == "title_topic")


@pytest.mark.parametrize("title,name", [
    ("Multi-Game Decision Transformers", "Multi-Game Decision Transformers"),
    ("Neural Abstractions", "Neural Abstractions"),
    ("Adaptive Cholesky Gaussian Processes", "Adaptive Cholesky Gaussian Processes"),  # a known name at its end
    ("Vision Transformers Need Registers", None),  # a sentence about a known name
    ("Diffusion Models Beat GANs", None),
    ("Simplicity Bias", None),  # a property
    ("Online Decision Mediation", None),  # a task's head
    ("Learning Neural Acoustic Fields", None),  # an action
    ("Multi-Class H-Consistency Bounds", None),  # a result
    ("Zero-Sum Stochastic Stackelberg Games", None),  # a problem
    ("Adversarial Reprogramming Revisited", None),  # a participle
    ("Towards Versatile Embodied Navigation", None),
    ("Deep Ensembles Work for Vision", None),  # a function word
])
def test_a_title_that_is_only_a_methods_name(title, name):
    from kg.nlp.components.title import whole_title_name

    assert whole_title_name(title) == name


def test_a_title_only_name_is_the_papers_own_as_the_title_writes_it():
    text = "We train a single transformer-based model on many Atari games and propose a new training recipe."
    [(_, ex)] = list(extract([Paper(id="p", title="Multi-Game Decision Transformers", text=text)]))
    assert ex.proposed == ["Multi-Game Decision Transformers"]  # (not "Multi-game ...": an own name keeps its case)
    text = "We propose multi-game decision transformers, a new training recipe for Atari."
    [(_, ex)] = list(extract([Paper(id="r", title="Multi-Game Decision Transformers", text=text)]))
    assert [n.lower() for n in ex.proposed] == ["multi-game decision transformers"]  # one name in two spellings
    [(_, ex)] = list(extract([Paper(id="q", title="Neural Abstractions", text="Abstractions of dynamics are hard.")]))
    assert not ex.proposed  # an abstract that proposes nothing


def test_a_title_concept_is_named_in_lower_case_after_a_hyphen_too():
    paper = Paper("p5", "Robots explore homes with active cameras.",
                  title="Learning Active Camera for Multi-Object Navigation")
    (_, ex), = extract([paper])
    names = {m.canonical for m in ex.mentions if m.in_title}
    assert "multi-object navigation" in names and not any("-O" in n for n in names)


def test_the_titles_long_form_of_the_proposed_method_is_that_method():
    """The title spells out what the abstract proposes under a short form: one concept, linked from the title too;
    the known names inside a long form the title writes alone stay (Mixture-of-Experts)."""
    paper = Paper("p8", "Predictors need data. We propose a Cross-Domain Predictor (CDP), which transfers. CDP wins.",
                  title="Bridge the Gap Between Architecture Spaces via A Cross-Domain Predictor")
    (_, ex), = extract([paper])
    titled = [(m.text, m.canonical, m.proposed) for m in ex.mentions if m.in_title]
    assert ("Cross-Domain Predictor", "CDP", True) in titled
    assert {m.canonical for m in ex.mentions if m.label == "METHOD"} == {"CDP"}
    paper = Paper("p9", "Experts are sparse. We propose Spatial Mixture-of-Experts (SMoE) layers for weather data.",
                  title="Spatial Mixture-of-Experts")
    (_, ex), = extract([paper])
    assert ex.proposed == ["SMoE"] and "Mixture of Experts" in {m.canonical for m in ex.mentions if m.in_title}


def test_a_title_name_the_description_calls_a_method_is_proposed_though_the_abstract_never_writes_it():
    paper = Paper("p10", "Memory is studied in many models. We propose to unify them in new networks of large capacity.",
                  title="Kernel Memory Networks: A Unifying Framework for Memory Modeling")
    (_, ex), = extract([paper])
    assert ex.proposed == ["Kernel Memory Networks"]
    assert [m.text for m in ex.mentions if m.proposed] == ["Kernel Memory Networks"]
    paper = Paper("p11", "We propose to adapt a source model to a target domain without source data, by a simple "
                         "objective.",
                  title="Attracting and Dispersing: A Simple Approach for Source-free Domain Adaptation")
    (_, ex), = extract([paper])
    assert ex.proposed == ["Attracting and Dispersing"]
    for title in ("Masked Prediction: A Parameter Identifiability View",  # no method's head word
                  "Gradient Descent: A Study of Step Sizes",  # a known name
                  "Beyond Accuracy: A Framework for Evaluating Classifiers",  # a description
                  "Lessons Learned: A Framework for Model Deployment",  # a participle
                  "Fast and Robust: A Method for Backdoor Defense"):  # an adjective
        (_, ex), = extract([Paper("p12", "We propose to study models and their training with care.", title=title)])
        assert ex.proposed == []
    (_, ex), = extract([Paper("p12", "We study memory and its capacity.",  # the abstract proposes nothing
                              title="Kernel Memory Networks: A Unifying Framework for Memory Modeling")])
    assert ex.proposed == []


def test_a_title_name_the_abstract_writes_in_lower_case_a_few_words_after_a_proposal_is_proposed():
    paper = Paper("p13", "Games with constraints are hard. We propose and analyze the alternating mirror descent "
                         "algorithm, in which each player takes turns.",
                  title="Alternating Mirror Descent for Constrained Min-Max Games")
    (_, ex), = extract([paper])
    assert ex.proposed == ["Alternating Mirror Descent"]


def test_a_proposed_long_form_in_the_title_is_one_concept_and_a_known_task_there_stays_the_task():
    paper = Paper("p14", "We present a method called Manifold Interpolating Optimal-Transport Flow (MIOFlow) that learns "
                         "dynamics. MIOFlow combines dynamic models.",
                  title="Manifold Interpolating Optimal-Transport Flows for Trajectory Inference")
    (_, ex), = extract([paper])
    assert ex.proposed == ["MIOFlow"]
    paper = Paper("p15", "We present Science Question Answering (ScienceQA), a new benchmark of 21k questions.",
                  title="Learn to Explain: Multimodal Reasoning via Thought Chains for Science Question Answering")
    (_, ex), = extract([paper])
    assert ex.proposed == ["ScienceQA"]
    assert ("TASK", "science question answering") in {(m.label, m.canonical) for m in ex.mentions if m.in_title}


@pytest.mark.parametrize("title, text", [
    ("Gradient Flow Dynamics for Deep Linear Networks",  # "our" far from the name: an analysis
     "Our analysis of the gradient flow dynamics of deep linear networks shows implicit bias."),
    ("Alternating Mirror Descent for Constrained Min-Max Games",  # the proposal is in another sentence
     "We propose a new analysis. Alternating mirror descent is shown to converge."),
    ("SimCLR and MoCo: Contrastive Learning for Graphs", "We propose SimCLR and MoCo variants for graphs."),
    ("Dropout and Batch Normalization: A Disharmony", "We show that Dropout and Batch Normalization interact."),
])
def test_analyses_and_two_joined_names_in_a_title_are_no_proposal(title, text):
    (_, ex), = extract([Paper("p16", text, title=title)])
    assert ex.proposed == []
