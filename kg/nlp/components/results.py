"""Reported results: (method, dataset, metric, value) from sentences such as
"achieves 82.3% mAP and 84.0% top-1 on the CUHK-SYSU dataset".

A value is a percentage or a decimal number next to a metric mention in a sentence that also names a dataset:
a result needs its value, its metric and its dataset. Its metric is the adjacent metric mention, its dataset the
one named right before that metric ("MultiNLI accuracy to 86.7%"), else the next dataset mention in the sentence
(else the previous one), its method a method named in the sentence, else
the paper's proposed method when the sentence speaks of "our" work; a value in brackets right after another
model's name is that model's ("as fast as MobileNetV2 (74.7% top-1)"). An improvement ("outperforms X by 5.9%", "a
3.2% gain", "+1.4 points") is a difference between two results, not a score of either, and is left out; so is a
percentage of a metric ("over 2% of AUC in Camelyon16"), a share of the measure, not its value.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from spacy.attrs import IDX, LIKE_NUM, LOWER
from spacy.language import Language
from spacy.strings import get_string_id
from spacy.tokens import Doc, Span, Token

from kg.nlp.candidates import MENTIONS, RESULTS, column, digit_tokens, doc_text, ids, sentence
from kg.nlp.components.mentions import DocMention
from kg.nlp import lexicon

OURS = lexicon.words("ours")
_OURS_IDS = frozenset(get_string_id(w) for w in OURS)


@dataclass(slots=True)
class DocResult:
    value: str
    method: str | None
    dataset: str | None
    metric: str | None
    sent_start: int
    sent_end: int


def _value_tokens(doc: Doc, sent: Span) -> list[tuple[int, int, str]]:
    """Character ranges and texts of numeric values in a sentence: ``82.3%``, ``0.91``, ``15×``, ``-9.5`` (a
    minus sign written as a hyphen, a minus or an en dash: :func:`_minus`; a signed whole number too, as no count
    is negative). Only tokens with a digit can be one; they are found from the shape column, and only they become
    Tokens."""
    out = []
    like_num = column(doc, LIKE_NUM)
    for k in digit_tokens(doc, sent.start, sent.end):
        tok = doc[k]
        t = tok.text
        glued = t[:1] == "\u2212" and _MINUS_GLUED.fullmatch(t)  # "−9.5", written with a minus sign as one token
        if like_num[k] or glued:
            sign, begin = "-" if glued else "", tok.idx
            if glued:
                t = t[1:]
            elif (minus := _minus(doc, k, sent.start)) is not None:
                sign, begin = "-", minus.idx  # "of –9.5", the sign a token of its own
            signed = sign or t[:1] == "-"
            nxt = doc[k + 1] if k + 1 < len(doc) else None
            power = _power(doc, k + 2) if nxt is not None and nxt.text == "×" else None
            if power is not None:  # "2.5 × 10⁵": one number in scientific notation
                out.append((begin, power.idx + len(power.text), sign + t + "×" + power.text))
            elif nxt is not None and nxt.text in {"%", "×", "x"}:
                out.append((begin, nxt.idx + len(nxt.text), sign + t + tok.whitespace_ + nxt.text))
            elif "." in t or signed:
                out.append((begin, tok.idx + len(tok.text), sign + t))
        elif "×" in t and (sci := _SCIENTIFIC.match(t)) and t[sci.end():] in ("", "."):
            out.append((tok.idx, tok.idx + sci.end(), sci.group()))  # "1.897×10⁻³" written as one token (with a
            # sentence's full stop the tokenizer leaves on it)
        elif (t.endswith("%") or t[-1:] in ("x", "×")) and t[:-1].replace(".", "", 1).isdigit():
            power = _power(doc, k + 1) if t.endswith("×") else None
            if power is not None:  # "1.897× 10⁻³" (LaTeX's $1.897\times 10^{-3}$)
                out.append((tok.idx, power.idx + len(power.text), t + power.text))
            else:
                out.append((tok.idx, tok.idx + len(t), t))  # "82.3%", and "15x" / "2.5×" written as one token
    return out


_MINUS_GLUED = re.compile("\u2212\\d+(?:\\.\\d+)?")  # "−9.5": a minus sign, which spaCy reads as no number
_SIGNS = frozenset("-\u2212\u2013")  # a hyphen, a minus sign, an en dash written for one
_BEFORE_SIGN = frozenset("([$=:")


def _minus(doc: Doc, k: int, start: int) -> Token | None:
    """The minus sign before the number at token ``k`` as a token of its own ("a Vina score of –9.5"), where it is
    clearly the number's: glued to it, and after "(", "[", "$", "=", ":" or a space after a word (a dash between
    two numbers makes a range: "4.2 –9.5", "4.2–9.5")."""
    if k - 1 < start or doc[k - 1].text not in _SIGNS or doc[k - 1].whitespace_:
        return None
    before = doc[k - 2] if k - 2 >= start else None
    if before is None or before.text in _BEFORE_SIGN:
        return doc[k - 1]
    return doc[k - 1] if before.whitespace_ and not any(c.isdigit() for c in before.text) else None


_POWER = re.compile(r"10(?:[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+|\^[-+]?\d+)")  # 10⁻³, 10⁵, 10^-3
_SCIENTIFIC = re.compile(r"\d+(?:\.\d+)?×" + _POWER.pattern)  # 1.897×10⁻³


def _power(doc: Doc, k: int) -> Token | None:
    """The token at ``k`` when it is a power of ten that makes the number before it scientific notation."""
    return doc[k] if k < len(doc) and _POWER.fullmatch(doc[k].text) else None


_DELTA_BEFORE = ids(lexicon.words("delta_before"))  # (LOWER ids)
_DELTA_AFTER = ids(lexicon.words("delta_after"))


def _is_delta(doc: Doc, start: int, end: int, metric: DocMention | None = None) -> bool:
    """Whether the value at characters ``[start, end)`` is a difference: "by 5.9%", "a 5.9% gain", "a 5.9% top-1
    accuracy gain" (the word after the metric that follows the value), "+5.9%"."""
    if metric is not None and 0 <= metric.start - end <= 1:
        end = metric.end
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None:
        return False
    text = doc_text(doc)
    if text[start:start + 1] in "+↑" or text[max(0, start - 1):start] == "+":
        return True
    lower = column(doc, LOWER)  # (the words' LOWER ids: no Token made)
    before = lower[max(0, span.start - 5):span.start]
    while len(before) > 1 and before[-1] in _HEDGES:
        before.pop()  # "by over 10% AP", "by more than 5%", "by at least 2 points"
    return (bool(before) and before[-1] in _DELTA_BEFORE) or span.end < len(doc) and lower[span.end] in _DELTA_AFTER \
        or (len(before) >= 2 and before[-1] in _OF_TO and before[-2] in _DELTA_BEFORE)


_HEDGES = ids(lexicon.words("value_hedges"))
_OF_TO = ids(frozenset({"of", "to"}))


_BASELINE = ids(lexicon.words("baseline_markers"))  # (LOWER ids)
_THAN = get_string_id("than")
_LISTED_VALUES = re.compile(r"[\s,$]*(?:(?:and|or)[\s$]*)?")  # what lists values: ", ", " and ", ", and "
_JOINED_VALUES = re.compile(r"[\s,$–—~-]*(?:(?:and|or)[\s$]*)?")  # the same, or a range's dash: "+1.6 – 3.2"
# (LOWER ids) "fewer parameters than BigGAN on CIFAR-10, we achieve an FID of 10.17", "faster than prior work and
# achieves 91.2%"
_CLAUSE_ENDS = ids(lexicon.words("clause_ends"))
_COMPARED_REACH = 8  # tokens from "than" to the compared method's value: "than the transformer-based approach (MAE:"


_TO = re.compile(r"\s*to\s*")


_DECLINES = lexicon.words("decline_verbs")


def _changes(doc: Doc, sent: Span, values: list[tuple[int, int, str]], metrics: list[DocMention | None]) -> set[int]:
    """The values a change starts from ("improves accuracy from 70.1% to 75.3%"): their indices; the value it goes
    to takes their metric (``metrics`` is updated). A fall ("test accuracy falls from 68% to 46%") is an effect the
    paper shows, neither value a method's result: both indices."""
    out, text = set(), doc_text(doc)
    for k in range(len(values) - 1):
        at = _token_at(doc, values[k][0])
        if at > sent.start and doc[at - 1].lower_ == "from" and _TO.fullmatch(text, values[k][1], values[k + 1][0]):
            out.add(k)
            metrics[k + 1] = metrics[k + 1] or metrics[k]
            if at - 1 > sent.start and doc[at - 2].lower_ in _DECLINES:
                out.add(k + 1)
    return out


_OTHERS = ids(lexicon.words("others_subjects"))  # (LOWER ids)
_CLAUSE_OPENERS = ids(lexicon.words("clause_openers"))


def _others_figure(doc: Doc, sent: Span, at: int, ms: list[DocMention]) -> bool:
    """Whether the value at token ``at`` is other work's figure by its clause: a word of other work ("today's best
    models achieve upwards of 97%", "existing methods reach") before it, and no method's name nor "our" work."""
    lower, start = column(doc, LOWER), at
    while start > sent.start and lower[start - 1] not in _CLAUSE_OPENERS:
        start -= 1
    words = set(lower[start:at])
    if words.isdisjoint(_OTHERS) or not words.isdisjoint(_OURS_IDS):
        return False
    idx = column(doc, IDX)
    lo, hi = idx[start], idx[at]
    return not any(m.label == "METHOD" and lo <= m.start < hi for m in ms)


_COST = lexicon.words("cost_measures")


_COMPARED_CUES = ids(lexicon.words("compared_method_cues"))  # (LOWER ids)


def _compared_with(doc: Doc, m: DocMention) -> bool:
    """Whether a method mention follows, within three words, a word that makes it what a result is compared with
    ("than ResNet-50", "outperforms the BERT baseline")."""
    at = _token_at(doc, m.start)
    return m.label == "METHOD" and not _COMPARED_CUES.isdisjoint(column(doc, LOWER)[max(0, at - 3):at])


def _token_at(doc: Doc, start: int) -> int:
    """The index of the first token at or after character ``start`` (a bisection of the IDX column)."""
    return bisect.bisect_left(column(doc, IDX), start)


def _compared(doc: Doc, sent: Span, at: int) -> bool:
    """Whether the value at token ``at`` comes after "versus", or after "than" and what it compares with, in its
    clause: the value of that ("better than the transformer (MAE: 27.1)", "versus 79.1% for ResNet-50"), not the
    method's own; a value right after "than" bounds the method's own ("more than 90% accuracy")."""
    lower = column(doc, LOWER)  # (the words' LOWER ids: no Token made)
    for i in range(max(sent.start, at - _COMPARED_REACH), at):
        word = lower[i]
        if word in _BASELINE and (word != _THAN or at - i > 2) and _CLAUSE_ENDS.isdisjoint(lower[i + 1:at]):
            return True
    return False


_NAME_SHAPE = re.compile(r"\w*(?:[A-Z]\w*\d|[a-z][A-Z])\w*")  # "MobileNetV2", "ResNet50", "GPT-3" parts


def _bracketed_by_other(doc: Doc, sent: Span, at: int, ms: list[DocMention],
                        own: set[str]) -> tuple[bool, DocMention | None]:
    """Whether the value at token ``at`` sits in brackets right after a method or model name that is not the
    paper's own, and that method's mention: "as fast as MobileNetV2x1.4 (1.6 ms, 74.7% top-1)", "ResNet-50
    (76.1%)" give another model's figures; "EfficientFormer-L1 (79.2%)", "on ImageNet (80.2%)" and brackets that
    name a method themselves ("YOLOv3 (34.4% AP for CornerNet-Squeeze ...)") do not."""
    orth = [t.text for t in doc[sent.start:at]]
    opened = next((k for k in range(len(orth) - 1, -1, -1) if orth[k] in "()"), None)
    if opened is None or orth[opened] != "(":
        return False, None
    close = next((t for t in doc[at:sent.end] if t.text == ")"), doc[sent.end - 1])
    if any(m.label == "METHOD" and doc[sent.start + opened].idx < m.start < close.idx for m in ms):
        return False, None
    before = doc[sent.start + max(0, opened - 2):sent.start + opened]
    if not before:
        return False, None
    lo, hi = before[0].idx, before[-1].idx + len(before[-1])
    named = [m for m in ms if m.start < hi and m.end > lo]
    if any(m.label != "METHOD" or m.canonical in own for m in named):
        return False, None
    if named:
        return True, named[-1]
    return any(_NAME_SHAPE.fullmatch(t.text.rstrip("\u00d7")) for t in before), None


def _nearest(mentions: list[DocMention], pos: int, label: str, after: bool, limit: int) -> DocMention | None:
    """The ``label`` mention nearest to character ``pos`` after it (its start) or before it (its end), within
    ``limit`` characters; the first of those at the least distance."""
    best, least = None, 0
    for m in mentions:
        if m.label != label:
            continue
        if after:
            gap = m.start - pos
        else:
            gap = pos - m.end
        if gap >= 0 and (best is None or gap < least):
            best, least = m, gap
    return best if best is not None and least <= limit else None


_METRIC_OF_DATASET_REACH = 40  # characters from a dataset to its metric: "SQuAD v1.1 question answering Test F1"


def _naming_metric(text: str, ms: list[DocMention], metric: DocMention | None,
                   values: list[tuple[int, int, str]]) -> DocMention | None:
    """The dataset named right before a value's metric, which says whose measure it is: "MultiNLI accuracy to
    86.7%", "SQuAD v2.0 Test F1 to 83.1", "ImageNet top-1 accuracy of 80.2%"; none when a value, a clause or
    another dataset comes between ("on CUHK-SYSU, 41.7% mAP")."""
    if metric is None:
        return None
    d = _nearest(ms, metric.start, "DATASET", False, _METRIC_OF_DATASET_REACH)
    if d is None or any(d.end <= vs < metric.start for vs, _, _ in values) or any(
            c in text[d.end:metric.start] for c in ",;:()"):
        return None
    return d


_AFTER_A_VALUE = re.compile(r"[\d%][\s$\\]*$")  # what ends a value right before a metric ("96.7% accuracy")


def _measured_on(text: str, ms: list[DocMention], metric: DocMention | None, start: int,
                 values: list[tuple[int, int, str]]) -> DocMention | None:
    """The dataset named between a value's metric and the value, in one clause, with no other value between but
    where a change starts: "the accuracy on MultiArith from 17.7% to 78.7%", "accuracy on CIFAR-10 of 95.1%"."""
    if metric is None or metric.end > start \
            or any(metric.end <= ve <= start and not _TO.fullmatch(text, ve, start) for _, ve, _ in values):
        return None  # (but the value a change starts from: "from 17.7% to 78.7%")
    d = _nearest(ms, start, "DATASET", False, 48)
    if d is None or d.start < metric.end or any(c in text[metric.end:start] for c in ",;:()") \
            or _AFTER_A_VALUE.search(text, max(0, metric.start - 4), metric.start):
        return None  # (another value's measure: "96.7% accuracy on CIFAR10 and 83.0% on CIFAR100")
    return d


_NEXT_CLAUSE = re.compile(r",\s*(?:and|but|while|whereas|whilst)\b")  # (not ";", which lists within brackets too)
_RELATIVE = re.compile(r",\s*(?:%s)\b" % "|".join(sorted(lexicon.words("relative_words"))))
_MEANS = re.compile(r"\b(?:%s)\s+(?:(?:%s)\s+)?$" % ("|".join(sorted(lexicon.words("result_means"))),
                                                       "|".join(sorted(lexicon.words("articles")))))


def _obtained_with(text: str, ms: list[DocMention], end: int) -> DocMention | None:
    """The method a value ending at ``end`` was obtained with, named after it in its clause: "we achieve 96.7%
    accuracy on CIFAR10 and 83.0% on CIFAR100 at epsilon=1 using BEiT"."""
    m = _nearest(ms, end, "METHOD", True, 120)
    if m is None or _NEXT_CLAUSE.search(text, end, m.start) or _RELATIVE.search(text, end, m.start) \
            or any(c in text[end:m.start] for c in ";:()"):
        return None  # (not a relative clause's: "80% ... using only 1% labels, which is comparable with ...")
    return m if _MEANS.search(text, end, m.start) else None


def _dataset_after(text: str, ms: list[DocMention], end: int) -> DocMention | None:
    """The next dataset after a value ending at ``end``, in the value's clause: in "On CIFAR-10, X reaches an FID
    of 2.10, and on the ImageNet dataset ..." ImageNet is the next clause's, and the value is CIFAR-10's."""
    d = _nearest(ms, end, "DATASET", True, 200)
    return None if d is None or _NEXT_CLAUSE.search(text, end, d.start) else d


def _listed(text: str, values: list[tuple[int, int, str]], k: int) -> bool:
    """Whether value ``k`` is listed with the one before or after it ("68.96 and 65.21 of execution accuracy and
    program accuracy", where the metrics are listed too)."""
    return k > 0 and _LISTED_VALUES.fullmatch(text, values[k - 1][1], values[k][0]) is not None \
        or k + 1 < len(values) and _LISTED_VALUES.fullmatch(text, values[k][1], values[k + 1][0]) is not None


def _list_length(text: str, values: list[tuple[int, int, str]], k: int) -> int:
    """How many values the list holding value ``k`` has."""
    a = b = k
    while a > 0 and _LISTED_VALUES.fullmatch(text, values[a - 1][1], values[a][0]):
        a -= 1
    while b + 1 < len(values) and _LISTED_VALUES.fullmatch(text, values[b][1], values[b + 1][0]):
        b += 1
    return b - a + 1


def _methods_listed(text: str, ms: list[DocMention], n: int) -> bool:
    """Whether the sentence lists ``n`` methods one after another ("RetinaNet and FCOS achieve 41.5% and 43.9%
    ..., respectively"), whom "respectively" gives the values to."""
    methods = sorted((m for m in ms if m.label == "METHOD"), key=lambda m: m.start)
    run = 1
    for a, b in zip(methods, methods[1:]):
        run = run + 1 if _LISTED_VALUES.fullmatch(text, a.end, b.start) else 1
        if run == n:
            return True
    return n == 1


def _of_metric(text: str, ms: list[DocMention], end: int) -> DocMention | None:
    """The metric named right after a value and "of": "5% of F1 score in BRACS", whose share the value is (a gain
    or a part kept), not its score."""
    m = _nearest(ms, end, "METRIC", True, 4)
    return m if m is not None and text[end:m.start] == " of " else None


_MODIFIER_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_FUNCTION_WORDS = lexicon.words("function_words") | lexicon.words("prepositions") | lexicon.words("object_verbs")
# (and verbs that take an object: "75% sparsity maintaining accuracy" gives the accuracy no value)


def _modified_metric(text: str, ms: list[DocMention], end: int) -> DocMention | None:
    """The metric after a value and one or two lower-case words that say which ("84.5% fine-tuning accuracy",
    "57.6 validation mIoU"), or a dataset's name ("77.9% zero-shot ImageNet accuracy"); not across a function
    word ("5% of the accuracy") nor a number, nor after a bare number a short word, which may be its unit ("7.0 ms
    latency")."""
    m = _nearest(ms, end, "METRIC", True, 48)
    if m is None or text[end:end + 1] != " " or text[m.start - 1:m.start] != " ":
        return None
    datasets = [(d.start, d.end) for d in ms if d.label == "DATASET" and end < d.start and d.end < m.start]
    words, at = [], end + 1
    for w in text[end + 1:m.start - 1].split(" "):
        if not any(a <= at and at + len(w) <= b for a, b in datasets):
            words.append(w)
        at += len(w) + 1
    if len(words) > 2 or any(not _MODIFIER_WORD.fullmatch(w) or w in _FUNCTION_WORDS for w in words) \
            or words and not text.endswith("%", 0, end) and len(words[0]) < 4:
        return None
    return m


def _attach_metrics(text: str, ms: list[DocMention], values: list[tuple[int, int, str]]) -> list[DocMention | None]:
    """The metric of each value: the one right after it ("82.3% mAP", "5% of F1 score" (a share of it), "84.5%
    fine-tuning accuracy"), else one right before it that no other value has taken ("accuracy of 82.3%"), so
    "82.3% mAP and 84.0% top-1" gives mAP and top-1."""
    metrics = [_nearest(ms, ve, "METRIC", True, 3) or (None if _listed(text, values, k) else
                                                        _of_metric(text, ms, ve) or _modified_metric(text, ms, ve))
               for k, (_, ve, _) in enumerate(values)]
    taken = {id(m) for m in metrics if m is not None}
    for k, (vs, ve, _) in enumerate(values):
        if metrics[k] is None:
            before = _nearest(ms, vs, "METRIC", False, 16)
            if before is None and (far := _nearest(ms, vs, "METRIC", False, 64)) is not None \
                    and _ON_FROM.fullmatch(text, far.end, vs):
                before = far  # "the accuracy on GSM8K from 10.4% to 40.7%"
            if before is not None and id(before) not in taken:
                metrics[k] = before
                taken.add(id(before))
            elif k > 0 and (last := metrics[k - 1]) is not None \
                    and _NEXT_ON.fullmatch(text, last.end if last.start > values[k - 1][1] else values[k - 1][1], vs) \
                    and _ON.match(text, ve):
                metrics[k] = last  # "96.7% accuracy on CIFAR10 and 83.0% on CIFAR100", "a mIoU of 80.1% on
                # Cityscapes and 75.9% on PASCAL VOC": the same measure
    return metrics


_ON_FROM = re.compile(r" (?:on|in|for) [^,;()%]{1,40}? from \$?")  # a measure's dataset, then where it changes from
_NEXT_ON = re.compile(r" (?:on|in) [^,;()%]{1,40}?(?:,| and|, and) \$?")  # "on CIFAR10 and ": the first's dataset
_ON = re.compile(r"\$? (?:on|in) ")  # the second value's dataset follows


def _respectively(doc: Doc, ms: list[DocMention], values: list[tuple[int, int, str]],
                  metrics: list[DocMention | None]) -> dict[int, tuple[DocMention, DocMention]]:
    """Values listed together ("94.4% and 86.7% accuracy", "accuracy of 95.50%, 76.25% and 68.64%") in a sentence
    that names as many datasets: the i-th value is the i-th dataset's, all in the list's metric ("on ModelNet40 and
    ScanObjectNN, respectively"). Value index -> (metric, dataset)."""
    text = doc_text(doc)
    first: dict[str, DocMention] = {}
    for m in ms:
        if m.label == "DATASET":
            first.setdefault(m.canonical, m)  # each dataset where the sentence first names it
    datasets = sorted(first.values(), key=lambda m: m.start)
    out: dict[int, tuple[DocMention, DocMention]] = {}
    k = 0
    while k < len(values):
        j = k + 1
        while j < len(values) and _LISTED_VALUES.fullmatch(text, values[j - 1][1], values[j][0]):
            j += 1
        metric = next((m for m in metrics[k:j] if m is not None), None)
        if j - k >= 2 and j - k == len(datasets) and metric is not None:
            out.update((k + i, (metric, d)) for i, d in enumerate(datasets))
        k = j
    return out


_RESPECTIVELY = get_string_id("respectively")


def find_results(doc: Doc, mentions: list[DocMention]) -> list[DocResult]:
    """All results reported in ``doc``, given its selected mentions."""
    text = doc_text(doc)
    proposed = next((m.canonical for m in mentions if m.proposed), None)
    proposed_names = {m.canonical for m in mentions if m.proposed}
    out = []
    numbers = digit_tokens(doc, 0, len(doc))  # only sentences with a digit can report a value
    lower, ours_ids = column(doc, LOWER), _OURS_IDS
    sentences: dict[int, Span] = {}
    end = -1  # the end of the last digit's sentence: the digits before it are in it
    for i in numbers:
        if i >= end:
            sent = sentence(doc, i)
            sentences[sent.start], end = sent, sent.end
    for sent in sentences.values():
        lo, hi = sent.start_char, sent.end_char
        ms = [m for m in mentions if lo <= m.start < hi]
        if not ms:
            continue
        values = _value_tokens(doc, sent)
        metrics = _attach_metrics(text, ms, values)
        starts = _changes(doc, sent, values, metrics)
        paired = _respectively(doc, ms, values, metrics)
        respectively = _RESPECTIVELY in lower[sent.start : sent.end]
        ours = not ours_ids.isdisjoint(lower[sent.start : sent.end])
        named = None  # the methods that may obtain a result, once a value needs them (not those compared with)
        delta_end = -1  # where the last difference ended: the values listed right after it are differences too
        for k, ((vs, ve, value), metric) in enumerate(zip(values, metrics)):
            if k in starts:
                continue  # "from 70.1% to 75.3%": where it started, not the result
            if _is_delta(doc, vs, ve, metric) or delta_end >= 0 and _JOINED_VALUES.fullmatch(text, delta_end, vs) \
                    or metric is not None and _of_metric(text, ms, ve) is metric:  # "over 2% of AUC": a share
                delta_end = ve  # "by up to 20.57%, 9.80%, and 13.72%", "+1.6 – 3.2 AP"
                continue
            delta_end = -1
            if k in paired:
                metric, dataset = paired[k]
            elif respectively and _listed(text, values, k) \
                    and not _methods_listed(text, ms, _list_length(text, values, k)):
                continue  # "97%, 92% and 50% ... respectively" with fewer datasets named: which is whose is unknown
            else:
                dataset = _naming_metric(text, ms, metric, values) or _measured_on(text, ms, metric, vs, values) \
                    or _dataset_after(text, ms, ve) or _nearest(ms, vs, "DATASET", False, 200)
            if metric is None or dataset is None or _compared(doc, sent, _token_at(doc, vs)):
                continue
            if value.endswith("%") and metric.canonical.lower() in _COST:
                continue  # "70% FLOPs of FasterRCNN ... can be removed": a share of the cost, not a score
            other, theirs = _bracketed_by_other(doc, sent, _token_at(doc, vs), ms, proposed_names)
            if other and theirs is None:
                continue  # another model's figures, by a name no mention holds
            # The paper's own method when the sentence names it or speaks of "our" work, else the method named last.
            own = [m for m in ms if m.label == "METHOD" and m.canonical in proposed_names and m.start < vs]
            if theirs is not None:
                method = theirs.canonical
            elif own:
                method = own[-1].canonical
            elif ours and proposed:
                method = proposed
            elif _others_figure(doc, sent, _token_at(doc, vs), ms):
                continue  # "where today's best models achieve upwards of 97% top-1 accuracy"
            else:  # (not a method the sentence compares with: "fewer parameters than ResNet-50 and obtains 80.2%")
                if named is None:
                    named = [m for m in ms if m.label == "METHOD" and not _compared_with(doc, m)]
                nearest = _nearest(named, vs, "METHOD", False, 200)
                if nearest is None or "," in text[nearest.end:vs]:  # (not the value's own subject: "ViT-B reaches
                    # 81.2% ... when trained using RandAugment"; but "To ... DP training, we achieve ... using BEiT")
                    nearest = _obtained_with(text, named, ve) or nearest
                method = nearest.canonical if nearest else None
            out.append(DocResult(value, method, dataset.canonical if dataset else None,
                                 metric.canonical if metric else None, sent.start_char, sent.end_char))
    return out


@Language.component("kg_results")
def results_component(doc: Doc) -> Doc:
    """Store results in ``doc._.kg_results`` (needs ``kg_mentions`` earlier in the pipeline)."""
    doc.user_data[RESULTS] = find_results(doc, [m for m in doc.user_data.get(MENTIONS) or [] if not m.generic])
    return doc
