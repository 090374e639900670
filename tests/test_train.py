"""The trained NER: data conversion keeps partial labels partial, the shipped model loads offline and is used
by the pipeline as a source of candidates, and the pipeline still works without it."""
from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
import spacy

from kg.nlp.components.model import DEFAULT_DIR, ModelCandidates
from kg.train.data import CORPORA, Converter

SHIPPED = DEFAULT_DIR
GOLD = Path(__file__).parent / "fixtures" / "gold"  # small made-up gold files (tests/fixtures/gold/make_gold.py)
needs_model = pytest.mark.skipif(not (SHIPPED / "meta.json").exists(), reason="no trained model in kg/nlp/trained")


def kg_train(argv: list[str]) -> int:
    """``kg train ARGV`` in this process: its exit code."""
    from kg.cli import main

    return main(["train", *argv])


@pytest.fixture(scope="module")
def converter():
    return Converter()


def record(text: str, *spans: tuple[str, str]) -> dict:
    return {"id": "t", "text": text,
            "spans": [{"start": text.index(s), "end": text.index(s) + len(s), "label": lab} for s, lab in spans]}


def iob(doc, word: str) -> tuple[str, str]:
    tok = next(t for t in doc if t.text == word)
    return tok.ent_iob_, tok.ent_type_


def test_tdmsci_has_no_method_labels_so_model_names_are_missing_not_outside(converter):
    text = "We train BiLSTM-CRF with an LSTM on ImageNet for image classification and report accuracy."
    doc = converter.convert(record(text, ("image classification", "TASK"), ("accuracy", "METRIC")), CORPORA["tdmsci"])
    assert iob(doc, "BiLSTM-CRF") == ("", "")  # model-shaped token: missing
    assert iob(doc, "LSTM") == ("", "")  # METHOD-gazetteer match: missing
    assert iob(doc, "image") == ("B", "TASK") and iob(doc, "classification") == ("I", "TASK")
    assert iob(doc, "accuracy") == ("B", "METRIC")
    assert iob(doc, "train") == ("O", "")  # an annotated corpus's other words are still "not an entity"


def test_scierc_material_and_dataset_names_are_missing_not_outside(converter):
    text = "We evaluate the parser on the Penn Treebank -LRB- PTB -RRB- and on MNIST images ."
    rec = record(text, ("parser", "METHOD"), ("Penn Treebank -LRB- PTB -RRB-", "MATERIAL"))
    doc = converter.convert(rec, CORPORA["scierc"])
    assert "(" in doc.text and "-LRB-" not in doc.text  # cleaned as at prediction time
    assert iob(doc, "parser") == ("B", "METHOD")
    assert all(iob(doc, w) == ("", "") for w in ("Penn", "Treebank", "PTB"))  # MATERIAL span
    assert iob(doc, "MNIST") == ("", "")  # DATASET-gazetteer match
    assert iob(doc, "evaluate") == ("O", "")


def test_a_gold_span_inside_a_token_is_missing_rather_than_stretched(converter):
    doc = converter.convert(record("We compare Coupled-LSTMs with others.", ("LSTMs", "METHOD")), CORPORA["scirex"])
    assert iob(doc, "Coupled-LSTMs") == ("", "")
    assert not doc.ents


@needs_model
def test_shipped_model_loads_offline_and_finds_an_obvious_entity(monkeypatch):
    def no_network(*args, **kwargs):
        raise OSError("network disabled in this test")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    import kg.nlp.tokenizer  # noqa: F401  (the model's config names kg.ml_tokenizer.v1)

    nlp = spacy.load(SHIPPED)
    doc = nlp("We propose a new method for machine translation and report BLEU scores on the WMT dataset.")
    assert ("machine translation", "TASK") in {(e.text, e.label_) for e in doc.ents}


@needs_model
def test_model_candidates_leave_doc_ents_to_kg_mentions():
    nlp = spacy.blank("en")
    comp = ModelCandidates(nlp, "kg_model")
    doc = nlp("Semantic parsing is a task studied in natural language processing.")
    doc = comp(doc)
    assert not doc.ents
    assert any(c.extractor == "model" for c in doc._.kg_candidates)


@needs_model
def test_full_pipeline_uses_the_model_for_open_vocabulary_tasks():
    from kg.nlp.pipeline import config_path, load_pipeline

    nlp = load_pipeline(config_path("accurate"))
    doc = nlp("We study dense reconstruction of textured surfaces from image sequences.")
    assert "kg_model" in nlp.pipe_names and "kg_model" not in load_pipeline().pipe_names
    assert any(m.extractor.startswith("model") and m.label == "TASK" for m in doc._.kg_mentions)


def test_pipeline_loads_rules_only_with_a_warning_when_the_model_dir_is_missing(tmp_path):
    from kg.nlp.pipeline import ACCURATE_CONFIG as DEFAULT_CONFIG, load_pipeline

    cfg = DEFAULT_CONFIG.read_text().replace('[components.kg_model]\nfactory = "kg_model"\nmodel_dir = ""',
                                            f'[components.kg_model]\nfactory = "kg_model"\nmodel_dir = "{tmp_path / "absent"}"')
    assert str(tmp_path) in cfg
    path = tmp_path / "config.cfg"
    path.write_text(cfg)
    with pytest.warns(UserWarning, match="no trained model"):
        nlp = load_pipeline(str(path))
    doc = nlp("We evaluate on CIFAR-10 and report accuracy.")
    assert {m.label for m in doc._.kg_mentions} >= {"DATASET", "METRIC"}
    assert all(not m.extractor.startswith("model") for m in doc._.kg_mentions)


@needs_model
def test_meta_records_data_seed_label_handling_and_dev_scores():
    meta = json.loads((SHIPPED / "meta.json").read_text())
    training = meta["kg_training"]
    files = {d["file"]: d for d in training["data"]}
    assert set(files) >= {"scierc-train.jsonl", "scierc-dev.jsonl", "tdmsci-train.jsonl", "scirex-abstracts-train.jsonl"}
    assert all(len(d["sha256"]) == 64 for d in files.values())
    assert isinstance(training["seed"], int)
    assert "MATERIAL" in training["label_handling"]["scierc-train.jsonl"]
    assert "missing" in training["missing_annotation"]
    per_label = meta["kg_scores"]["dev"]["per_label"]
    assert set(per_label) >= {"METHOD", "TASK", "METRIC"}
    assert all({"p", "r", "f"} <= set(v) for v in per_label.values())
    assert sum(f.stat().st_size for f in SHIPPED.rglob("*") if f.is_file()) < 50 * 2**20


def test_the_gold_fixtures_are_what_make_gold_writes():
    import runpy

    written = runpy.run_path(str(GOLD / "make_gold.py"))["render"]()
    assert written and all((GOLD / name).read_text(encoding="utf-8") == text for name, text in written.items())


def test_training_one_epoch_writes_a_loadable_model_and_records_its_recipe_and_scores(tmp_path):
    from kg.train import train
    from kg.train.data import sha256
    from kg.train.run import CONFIG

    config = tmp_path / "beam.cfg"  # another recipe, as `kg train --config` passes it
    config.write_text(CONFIG.read_text().replace('factory = "ner"', 'factory = "beam_ner"\nbeam_width = 2'))
    best = train(tmp_path / "run", seed=0, data_dir=GOLD, config=config,
                 overrides={"training.max_epochs": 1, "training.eval_frequency": 10})
    meta = json.loads((best / "meta.json").read_text())
    training = meta["kg_training"]
    assert training["seed"] == 0
    assert training["config"] == str(config) and training["config_sha256"] == sha256(config)
    assert training["command"] == f"kg train --seed 0 --config {config}"
    assert {d["file"]: d["sha256"] for d in training["data"]}["scierc-dev.jsonl"] == sha256(GOLD / "scierc-dev.jsonl")
    assert 'factory = "beam_ner"' in (best / "config.cfg").read_text()
    scores = meta["kg_scores"]["shared_scorer"]  # scored by kg's scorer on the fixtures' dev set and seeds
    assert scores["scorer"] == "kg/train/scorer.py"
    assert scores["scierc-dev"]["full"]["mention_METHOD"]["strict"]["gold"] > 0
    assert scores["seeds-icml2025"]["rules_only"]["document_DATASET"]["gold"] == 8
    nlp = spacy.load(best)
    assert nlp.pipe_names[-1] == "ner" and isinstance(nlp("We parse the Penn Treebank.").ents, tuple)


def test_train_cli_reports_a_missing_model_or_data_dir_as_bad_input(tmp_path, capsys, monkeypatch):
    data = ["--data", str(GOLD)]
    assert kg_train(["--only", "ner", "--evaluate", str(tmp_path / "absent"), *data]) == 2
    assert "no trained model in" in capsys.readouterr().err
    assert kg_train(["--only", "tagger", "--evaluate", str(tmp_path / "absent"), *data]) == 2
    assert "no trained tagger in" in capsys.readouterr().err
    assert kg_train(["--evaluate", str(tmp_path), *data]) == 2  # a directory of which model?
    assert "needs --only" in capsys.readouterr().err
    assert kg_train(["--data", str(tmp_path / "absent")]) == 2
    assert "no gold data directory" in capsys.readouterr().err
    monkeypatch.delenv("KG_TRAIN_DATA", raising=False)
    assert kg_train(["--only", "tagger", "--no-install"]) == 2  # kg ships no gold data
    assert "needs the gold data directory: --data DIR" in capsys.readouterr().err
    monkeypatch.setenv("KG_TRAIN_DATA", str(tmp_path / "absent"))
    assert kg_train(["--only", "tagger", "--no-install"]) == 2
    assert f"no gold data directory {tmp_path / 'absent'}" in capsys.readouterr().err
    assert kg_train(["--only", "ner", "--config", str(tmp_path / "absent.cfg"), "--no-install", *data]) == 2
    assert "no training config" in capsys.readouterr().err
    (tmp_path / "ner.cfg").write_text("[nlp]\n")
    for misuse in (["--only", "tagger"], ["--only", "ner", "--evaluate"]):
        assert kg_train([*misuse, "--config", str(tmp_path / "ner.cfg"), *data]) == 2
        assert "--config is the NER's training config" in capsys.readouterr().err


def test_meta_names_a_packaged_config_by_its_path_in_the_repository_and_any_other_in_full(tmp_path):
    from kg.train.run import CONFIG, config_name

    assert config_name(CONFIG) == "kg/train/config.cfg"
    assert config_name(tmp_path / "x.cfg") == str(tmp_path / "x.cfg")


@needs_model
def test_evaluate_record_stores_fresh_scores_in_meta(tmp_path, capsys):
    import shutil


    model = tmp_path / "model"
    shutil.copytree(SHIPPED, model)
    meta = json.loads((model / "meta.json").read_text())
    meta["kg_scores"]["shared_scorer"] = {"stale": True}
    (model / "meta.json").write_text(json.dumps(meta))
    assert kg_train(["--only", "ner", "--evaluate", str(model), "--record", "--data", str(GOLD)]) == 0
    printed = json.loads(capsys.readouterr().out)
    stored = json.loads((model / "meta.json").read_text())["kg_scores"]["shared_scorer"]
    assert stored == printed and "stale" not in stored and stored["scorer"] == "kg/train/scorer.py"
    assert stored["scierc-dev"]["full"]["mention_TASK"]["strict"]["gold"] == 25  # one task a fixture document


def test_train_cli_names_a_missing_gold_file_and_a_broken_line(tmp_path, capsys, monkeypatch):
    empty = tmp_path / "empty" / "data"
    empty.mkdir(parents=True)
    assert kg_train(["--only", "tagger", "--evaluate", "--data", str(empty)]) == 2
    assert "lacks scierc-dev.jsonl" in capsys.readouterr().err
    broken = tmp_path / "broken"
    (broken / "data").mkdir(parents=True)
    (broken / "data" / "scierc-dev.jsonl").write_text('{"id": "a", "text": "x"}\n{"id": "b", "te\n', encoding="utf-8")
    assert kg_train(["--only", "tagger", "--evaluate", "--data", str(broken / "data")]) == 2
    assert f"{broken / 'data' / 'scierc-dev.jsonl'}:2: not JSON" in capsys.readouterr().err


def test_a_fold_model_is_reused_only_for_the_same_split_recipe_and_data(tmp_path):
    from kg.train.folds import fold_is_current, fold_signature, mark_fold

    data = tmp_path / "data"
    data.mkdir()
    for name in ("scierc-train", "scierc-dev", "tdmsci-train", "scirex-abstracts-train"):
        (data / f"{name}.jsonl").write_text('{"id": "1", "text": "x"}\n', encoding="utf-8")
    sig = fold_signature(5, 0, 1, data, epochs=15)
    assert not fold_is_current(tmp_path, sig)
    mark_fold(tmp_path, sig)
    assert fold_is_current(tmp_path, fold_signature(5, 0, 1, data, epochs=15))
    for other in (fold_signature(2, 0, 1, data, epochs=15), fold_signature(5, 1, 1, data, epochs=15),
                  fold_signature(5, 0, 1, data, epochs=10)):
        assert not fold_is_current(tmp_path, other)
    (data / "tdmsci-train.jsonl").write_text('{"id": "2", "text": "y"}\n', encoding="utf-8")
    assert not fold_is_current(tmp_path, fold_signature(5, 0, 1, data, epochs=15))


def test_repeat_weighs_a_corpus_by_copies_and_a_fixed_sample_and_rejects_unknown_names(tmp_path):
    from spacy.tokens import DocBin

    from kg.train.run import prepare

    data = tmp_path / "data"
    data.mkdir()
    for name, n in (("scierc-train", 4), ("scierc-dev", 1), ("tdmsci-train", 3), ("scirex-abstracts-train", 4)):
        rows = [json.dumps({"id": f"{name}-{i}", "text": f"record {i} of {name}", "spans": []}) for i in range(n)]
        (data / f"{name}.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")

    def texts(repeat):
        paths = prepare(tmp_path / "corpus", data_dir=data, repeat=repeat)
        return [d.text for d in DocBin().from_disk(paths["train"]).get_docs(spacy.blank("en").vocab)]

    plain = texts(None)
    assert len(plain) == 11
    weighed = texts({"tdmsci": 2, "scirex": 0.5, "scierc": 0})
    assert sorted(weighed) == sorted([t for t in plain if "tdmsci" in t] * 2 + [t for t in weighed if "scirex" in t])
    scirex = [t for t in weighed if "scirex" in t]
    assert len(scirex) == 2 and len(set(scirex)) == 2
    assert texts({"scirex": 0.5}) == [t for t in plain if "scirex" not in t] + scirex  # the same sample each time
    assert json.loads((tmp_path / "corpus" / "stats.json").read_text())["repeat"] == {"scirex": 0.5}
    with pytest.raises(ValueError, match="unknown training corpus scierc-dev"):
        prepare(tmp_path / "corpus", data_dir=data, repeat={"scierc-dev": 2})
    with pytest.raises(ValueError, match="0 or more"):
        prepare(tmp_path / "corpus", data_dir=data, repeat={"tdmsci": -1})


TEXT = ("Test-time adaptation suffers from domain forgetting and a large overhead computation; "
        "we evaluate on the Office-Home dataset and on ImageNet-C.")


def ruled_doc(nlp, text: str):
    """``text`` through the pipeline's components before ``kg_model`` (the rules the tagger reads)."""
    doc = nlp.make_doc(text)
    for _, proc in nlp.pipeline[:nlp.pipe_names.index("kg_model")]:
        doc = proc(doc)
    return doc


@needs_model
def test_the_accurate_ner_takes_datasets_from_the_packaged_tagger_and_keeps_only_tasks_it_confirms():
    from kg.nlp.components.model import merge_entities
    from kg.train.evaluate import pipeline

    nlp = pipeline()
    comp, alone = nlp.get_pipe("kg_model"), pipeline(options={"from_tagger": [], "confirm": []}).get_pipe("kg_model")
    assert comp.tagger is not None and alone.tagger is None
    assert pipeline(only_model=True).get_pipe("kg_model").tagger is None  # the NER alone, for diagnosis
    doc = ruled_doc(nlp, TEXT)
    ner = alone.entities([doc])[0]
    merged = merge_entities(ner, comp.tagger.predict([doc])[0], frozenset({"DATASET"}), frozenset({"TASK"}))
    assert comp.entities([doc]) == [merged]
    # What the shipped models make of this text (a retrain may change it): the NER's task the tagger does not see
    assert ("domain forgetting", "TASK") in {(doc[s:e].text, lab) for s, e, lab in ner}
    assert not any(lab == "TASK" and doc[s:e].text == "domain forgetting" for s, e, lab in merged)
    # ... which the pipeline reports as a mention that makes no concept
    found = [m for m in nlp(TEXT)._.kg_mentions if m.text == "domain forgetting"]
    assert [(m.label, m.generic) for m in found] == [("TASK", True)]


@needs_model
def test_the_accurate_ner_warns_and_keeps_its_own_entities_without_a_tagger(tmp_path):
    from kg.train.evaluate import pipeline

    with pytest.warns(UserWarning, match="no trained tagger .* the NER's entities are used without it"):
        nlp = pipeline(options={"tagger_dir": str(tmp_path / "absent")})
    comp, alone = nlp.get_pipe("kg_model"), pipeline(options={"from_tagger": [], "confirm": []}).get_pipe("kg_model")
    doc = ruled_doc(nlp, TEXT)
    assert comp.tagger is None and comp.entities([doc]) == alone.entities([doc])


def test_ner_cross_validation_combines_each_fold_with_that_folds_own_tagger(tmp_path, monkeypatch):
    """Each fold's NER meets the tagger trained without the same documents (``pipeline(only_model=True)``, the
    NER alone, turns the tagger off)."""
    import kg.train.evaluate as evaluate
    import kg.train.run as run
    import kg.train.tagger as tagger

    split = [{"tdmsci": {f"t{i}"}, "scirex": {f"s{i}"}} for i in range(3)]
    tagger_folds, met = {}, []

    def fake_fold_tagger(work, k, i, fold, **kw):
        tagger_folds[i] = fold
        return work / f"fold{i}"

    def fake_train(out, seed, *, exclude, **kw):
        best = Path(out) / "model" / "model-best"
        best.mkdir(parents=True)
        (best / "meta.json").write_text(json.dumps({"kg_training": {"training_seconds": 1.0}}))
        assert exclude == split[int(Path(out).name[-1])]
        return best

    def fake_pipeline(model=None, *, only_model=False, options=None):
        met.append((Path(model).parts[-3], only_model, (options or {}).get("tagger_dir")))
        return None

    monkeypatch.setattr(run, "folds", lambda k, seed, data_dir: split)
    monkeypatch.setattr(run, "train", fake_train)
    monkeypatch.setattr(run, "read_gold", lambda path: [])
    monkeypatch.setattr(run, "fold_signature", lambda k, seed, i, data_dir, **recipe: {"fold": i})
    monkeypatch.setattr(run, "score_folds", lambda result, gold, preds, work: result)
    monkeypatch.setattr(tagger, "fold_tagger", fake_fold_tagger)
    monkeypatch.setattr(evaluate, "pipeline", fake_pipeline)
    monkeypatch.setattr(evaluate, "predict", lambda records, nlp: [])
    run.crossval(3, work_dir=tmp_path / "cv", data_dir=tmp_path)
    assert tagger_folds == dict(enumerate(split))
    taggers = [str(tmp_path / "cv" / "taggers" / f"fold{i}") for i in range(3)]
    assert met == [(f"fold{i}", only_model, taggers[i]) for i in range(3) for only_model in (False, True)]


def test_only_the_shipped_recipes_cross_validation_is_recorded_in_the_shipped_models_meta(tmp_path, monkeypatch, capsys):
    import kg.train.run as run

    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / "meta.json").write_text("{}")
    seen = []

    def fake_crossval(k, *, config, overrides, **kw):
        seen.append((config, overrides))
        return {"folds": k, "config": run.config_name(config)}

    monkeypatch.setattr(run, "SHIPPED", shipped)
    monkeypatch.setattr(run, "crossval", fake_crossval)
    other = tmp_path / "beam.cfg"
    other.write_text("[nlp]\n")
    for argv in (["--config", str(other)], ["--max-epochs", "3"]):
        assert kg_train(["--only", "ner", "--n-folds", "2", "--data", str(GOLD), *argv]) == 0
        assert json.loads((shipped / "meta.json").read_text()) == {}
    assert seen == [(other, {}), (run.CONFIG, {"training.max_epochs": 3})]
    assert kg_train(["--only", "ner", "--n-folds", "2", "--data", str(GOLD)]) == 0
    recorded = json.loads((shipped / "meta.json").read_text())["kg_crossval"]
    assert recorded == {"folds": 2, "config": "kg/train/config.cfg"}
    capsys.readouterr()


def test_only_the_shipped_recipes_tagger_folds_are_recorded_in_the_shipped_taggers_meta(tmp_path, monkeypatch, capsys):
    import kg.nlp.components.tagger as nlp_tagger
    import kg.train.tagger as tagger

    shipped = tmp_path / "tagger"
    shipped.mkdir()
    (shipped / "meta.json").write_text("{}")
    monkeypatch.setattr(nlp_tagger, "DEFAULT_DIR", shipped)
    monkeypatch.setattr(tagger, "crossval", lambda k, *, epochs, **kw: {"folds": k, "epochs": epochs})
    assert kg_train(["--only", "tagger", "--n-folds", "2", "--max-epochs", "3", "--data", str(GOLD)]) == 0
    assert json.loads((shipped / "meta.json").read_text()) == {}
    assert kg_train(["--only", "tagger", "--n-folds", "2", "--data", str(GOLD)]) == 0
    assert json.loads((shipped / "meta.json").read_text())["kg_crossval"] == {"folds": 2, "epochs": tagger.EPOCHS}
    capsys.readouterr()
