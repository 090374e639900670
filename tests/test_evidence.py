"""Evidence stays bounded: a text without sentence punctuation gives a window around each mention."""
from __future__ import annotations

from kg.model import Paper
from kg.nlp.extract import extract


def test_evidence_is_a_bounded_window_in_a_text_without_sentence_punctuation():
    from kg.nlp.extract import MAX_EVIDENCE

    text = " ".join(["we train models on many inputs"] * 400) + " and report results on ImageNet with ResNet-50 " + \
        " ".join(["more words follow here"] * 400)
    (_, ex), = extract([Paper("long", text)])
    named = [m for m in ex.mentions if m.canonical in ("ImageNet", "ResNet-50")]
    assert named
    for m in named:
        assert m.sentence.end - m.sentence.start <= MAX_EVIDENCE
        assert m.sentence.start <= m.start and m.end <= m.sentence.end
