"""clean(): plain text for NLP, and every cleaned character maps back to where it came from in the raw text."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from kg.corpus.clean import CleanText, clean

SEEDS = sorted((Path(__file__).parents[1] / "examples" / "icml").glob("*.txt"))
GENERATED = "×√()/²⁻¹⁺ⁱαθλ·…“”‘’öé—–-ℝ𝔼"  # characters cleaning makes up rather than copies


def check(raw: str) -> CleanText:
    """Clean ``raw`` and check the offset invariants; copied characters must sit at their offset in raw."""
    c = clean(raw)
    assert len(c.offsets) == len(c.text) + 1 and c.offsets[-1] == len(raw)
    assert list(c.offsets) == sorted(c.offsets)
    for i, ch in enumerate(c.text):
        if ch == " ":
            assert raw[c.offsets[i]].isspace() or raw[c.offsets[i]] in "~\\"
        elif ch not in GENERATED:
            assert raw[c.offsets[i]] == ch, (i, ch, raw[c.offsets[i]])
        s, e = c.to_raw(i, i + 1)
        assert 0 <= s < e <= len(raw)
    offsets, ends = c.offsets, c.ends
    for i in range(len(c.text)):  # a span covers the sources of its first and last characters
        for j in range(i + 1, min(i + 4, len(c.text)) + 1):
            assert c.to_raw(i, j) == (offsets[i], ends[j - 1])
    return c


def raw_of(c: CleanText, word: str) -> str:
    """The raw text behind the first occurrence of ``word`` in the cleaned text."""
    start = c.text.index(word)
    s, e = c.to_raw(start, start + len(word))
    return c.raw[s:e]


def test_plain_text_is_unchanged_and_maps_one_to_one():
    c = check("We propose BERT, a model.")
    assert c.text == c.raw
    assert c.offsets == tuple(range(len(c.raw) + 1))


def test_text_formatting_commands_keep_their_content():
    c = check(r"\emph{Spectral Horizon} and \textbf{bold} \textit{it} \texttt{code_name}")
    assert c.text == "Spectral Horizon and bold it code_name"
    assert raw_of(c, "Spectral Horizon") == "Spectral Horizon"


def test_math_font_commands_keep_their_content():
    assert check(r"$\mathrm{KL}$ and $\text{if } x$").text == "KL and if x"


def test_blackboard_bold_letters_are_the_double_struck_letters_they_print():
    c = check(r"sinks in $\mathbb{R}^2$ with $\mathbb{E}[x]$ and an $R^2$ of 0.9")
    assert c.text == "sinks in ℝ² with 𝔼[x] and an R² of 0.9"  # the plane ℝ² is no metric R²
    assert raw_of(c, "ℝ") == r"\mathbb{R}"
    assert check(r"$\mathbb{RR}$").text == "RR"  # more than a letter: the letters as written


def test_underlined_initials_in_math_join_the_rest_of_the_word():
    c = check(r"an $\underline{\text{E}}$ntropy-regularized $\underline{\text{S}}$emi-dual method")
    assert c.text == "an Entropy-regularized Semi-dual method"
    assert raw_of(c, "Entropy") == r"E}}$ntropy"


def test_times_becomes_a_multiplication_sign_that_maps_to_the_command():
    c = check(r"by up to $15\times$ in vision")
    assert c.text == "by up to 15× in vision"
    assert raw_of(c, "×") == r"\times"


def test_escaped_percent_ampersand_underscore_and_hash_lose_the_backslash():
    c = check(r"a 6.6\% gain, R\&D, my\_var, \#1")
    assert c.text == "a 6.6% gain, R&D, my_var, #1"
    assert raw_of(c, "6.6%") == r"6.6\%"


def test_single_letter_math_is_the_letter():
    assert check("federated $Q$-Learning with $M=1$ agents").text == "federated Q-Learning with M=1 agents"


def test_sqrt_becomes_a_root_sign():
    assert check(r"leading to $\sqrt{T}$-type regret").text == "leading to √T-type regret"
    assert check(r"$\sqrt{n+1}$").text == "√(n+1)"


def test_named_operators_are_spelled_out_with_a_space():
    assert check(r"a $\log T$ term and $x\log x$").text == "a log T term and x log x"


def test_greek_commands_become_greek_letters():
    assert check(r"$\alpha$-divergence with $\theta$ and $\lambda$").text == "α-divergence with θ and λ"


def test_superscript_digits_become_superscript_characters():
    assert check(r"R$^2$ of $n^{-1}$, ExpTS$^+$ and Pascal-5$^i$").text == "R² of n⁻¹, ExpTS⁺ and Pascal-5ⁱ"


def test_a_superscript_inside_a_word_is_written_plain():
    # as the names' authors write them in plain text ("S3Delta", "M4I")
    assert check(r"we propose S$^3$Delta and M$^4$I: MP-K$^2$alman").text == "we propose S3Delta and M4I: MP-K2alman"


def test_fraction_becomes_a_slash():
    assert check(r"$\frac{1}{2}$").text == "1/2"


def test_tilde_between_words_is_a_space():
    assert check(r"Fig.~3 of Smith et~al.").text == "Fig. 3 of Smith et al."


def test_tilde_for_about_and_for_ranges_stays():
    assert check("an ~ 1.25% gain and 1.6~3.6 points").text == "an ~ 1.25% gain and 1.6~3.6 points"


def test_bold_initials_join_the_word():
    c = check("**T**est-time **C**orrelation **A**lignment (**TCA**)")
    assert c.text == "Test-time Correlation Alignment (TCA)"
    assert raw_of(c, "TCA") == "TCA"


def test_markdown_italics_with_star_and_underscore():
    c = check("method, *Domain-aware Ensemble Distillation* (DomED), _one_ and __two__ (*e.g.*, images)")
    assert c.text == "method, Domain-aware Ensemble Distillation (DomED), one and two (e.g., images)"


def test_underscores_inside_words_stay():
    text = "with a_i and snake_case_name, see tzeng_cvpr17 and x_1"
    assert check(text).text == text


def test_star_as_multiplication_or_footnote_mark_stays():
    text = "2*3*4 and a * b, ref [1*], Xiang1 * * Corresponding, leftmargin=*, x"
    assert check(text).text == text


def test_markdown_link_keeps_its_text_and_drops_the_target():
    c = check("at [https://tencent.github.io/MimicMotion](https://tencent.github.io/MimicMotion).")
    assert c.text == "at https://tencent.github.io/MimicMotion."
    assert check("see [our code](http://x.org/a_b_c) now").text == "see our code now"


def test_urls_are_copied_verbatim():
    text = "http://www.cis.upenn.edu/~treebank/ and https://github.com/a_b/c_d_ *x*"
    assert check(text).text == text.replace("*x*", "x")


def test_odd_whitespace_collapses_to_one_space():
    assert check("a\tb\u00a0c  d\n e\r\nf\u2009g").text == "a b c d e f g"


def test_zero_width_and_control_characters_are_dropped():
    c = check("Deep\u200blearn\u00ading\ufeff \u2062f")
    assert c.text == "Deeplearning f"
    assert raw_of(c, "Deeplearning") == "Deep\u200blearn\u00ading"


def test_surrounding_whitespace_is_stripped():
    assert check("\n  text  \n").text == "text"


def test_unbalanced_braces_and_dollars_keep_their_text():
    assert check(r"\emph{unclosed and $x").text == "{unclosed and $x"
    assert check("a}b{c").text == "a}b{c"
    for raw in ("$", "$$", "{", "}", "\\", "**", "__", r"\emph{", r"\sqrt", "$x^$", "[a](", "~"):
        check(raw)


def test_dollars_for_prices_are_not_math():
    assert check("costs $5 and $10 today").text == "costs $5 and $10 today"


def test_a_formula_with_a_command_may_have_spaces_inside_its_dollars():
    assert check(r"a speedup of $10\times $ on GPUs").text == "a speedup of 10× on GPUs"
    assert check(r"costs $5 (\textbf{net}) and $10 today").text == r"costs $5 (net) and $10 today"
    assert check(r"ImageNet at 128$\times$128 resolution").text == "ImageNet at 128×128 resolution"


def test_braces_that_are_text_stay():
    assert check("x = {1..10} and {a, b}").text == "x = {1..10} and {a, b}"


def test_braces_that_are_markup_go():
    assert check(r"{\em emphasised} {B}ERT \LaTeX{}").text == "emphasised BERT LaTeX"


def test_citations_and_labels_are_dropped():
    assert check(r"as in \cite{smith2020} and \citep[p.~3]{x}, see \ref{fig}.").text == "as in and , see ."


def test_href_keeps_its_text():
    assert check(r"\href{http://x.y}{the site}").text == "the site"


def test_unknown_commands_stay_verbatim_in_text():
    assert check(r"modifiers (S\NP)").text == r"modifiers (S\NP)"


def test_an_authors_macro_for_a_name_is_the_name():
    assert check(r"The \FedProx~algorithm under \Renyi differential privacy").text == \
        "The FedProx algorithm under Renyi differential privacy"
    assert check(r"\ul{stochastic} \hl{sampling}").text == "stochastic sampling"


@pytest.mark.parametrize("raw, text", [
    ("a ``natural'' layer and ``render-and-optimize''", "a \u201cnatural\u201d layer and \u201crender-and-optimize\u201d"),
    ("`model's output' is `good'.", "\u2018model's output\u2019 is \u2018good\u2019."),
    ("an ``open quote", "an \u201copen quote"),
    ("tasks---dealing with", "tasks\u2014dealing with"),
    ("Kullback--Leibler, pages 1--2, a -- b", "Kullback-Leibler, pages 1\u20132, a \u2013 b"),
    ("$a--b$ and $``x''$", "a--b and ``x''"),  # inside a formula nothing changes
])
def test_latex_quotes_and_dashes_are_typography(raw, text):
    c = check(raw)
    assert c.text == text
    dash = c.text.find("\u2014")
    if dash >= 0:
        assert c.to_raw(dash, dash + 1) == (raw.find("---"), raw.find("---") + 3)


def test_latex_accents_compose_with_their_letter():
    assert check(r"Schr\"odinger \'{e}cole").text == "Schrödinger école"


def test_utf8_read_as_latin1_is_repaired():
    c = check("enabling \u00e2\x80\x9cmorphing\u00e2\x80\x9d and MPNN\u00e2\x80\x99s")
    assert c.text == "enabling “morphing” and MPNN’s"
    assert raw_of(c, "“") == "\u00e2\x80\x9c"


def test_to_raw_of_an_empty_span_is_empty():
    c = clean("**x** y")
    assert c.to_raw(2, 2) == (c.offsets[2], c.offsets[2])


def test_to_raw_outside_the_text_raises():
    with pytest.raises(IndexError):
        clean("abc").to_raw(1, 4)


def test_empty_input_gives_empty_text():
    c = check("")
    assert c.text == "" and c.offsets == (0,)


@pytest.mark.parametrize(
    "raw",
    ["{" * 100_000, "$" * 100_000, "\\" * 100_000, "(*a " * 25_000, "[a](b" * 20_000, r"\emph{" * 16_000,
     "**T**est $x^2$ \\emph{a} _b_ " * 4_000],
)
def test_cleaning_is_fast_on_100kb_of_markup(raw):
    began = time.perf_counter()
    clean(raw)
    assert time.perf_counter() - began < 2.0


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.name)
def test_seed_abstracts_lose_all_markup(path):
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        c = check(block)
        assert "$" not in c.text and "**" not in c.text and "\\" not in c.text
        assert "](" not in c.text


def test_treebank_bracket_tokens_become_brackets():
    c = check("Cooccurrence Restrictions -LRB- CCRs -RRB- and Byron's -LRB- 2002 -RRB- system")
    assert c.text == "Cooccurrence Restrictions (CCRs) and Byron's (2002) system"
    assert raw_of(c, "(CCRs)") == "-LRB- CCRs -RRB-"


def test_copied_runs_are_one_segment_each():
    c = check("We propose **BERT**, a model.  It is $15\\times$ faster on CIFAR-10.")
    assert c.text == "We propose BERT, a model. It is 15× faster on CIFAR-10."
    # six copied runs, broken where markup was dropped or spaces collapsed, and the made-up "×"
    assert len(c.seg_at) == 7
    assert raw_of(c, "×") == "\\times"
    assert c.to_raw(len(c.text), len(c.text)) == (len(c.raw), len(c.raw))


def test_text_the_cleaner_would_change_is_never_taken_for_plain_text():
    import json
    from pathlib import Path

    from kg.corpus.clean import _Cleaner, _needs_cleaning
    from kg.bench.synthetic import source_abstracts

    plain = "plain text, (with) punctuation; 3.5% & <tags> | #1 = 'q' \"d\" ?!@/+"
    samples = [plain, " ", "a  b", " a", "a ", "a\tb", "a\nb", "x-LRB-y", "-RCB-", "see http://x.org", "https:", "é",
               "a\u00a0b", "\ufb01t", "\x7f", "$x$", "a_b", "**b**", "[t](u)", "{B}ERT", "a~b", "x^2", "\\em"]
    samples += source_abstracts()  # real abstracts, packaged for the synthetic corpus
    for f in sorted((Path(__file__).parent / "fixtures" / "gold").glob("*.jsonl")):  # SciERC's Treebank brackets
        samples += [json.loads(line)["text"] for line in f.open(encoding="utf-8")]
    changed = [s for s in samples if _Cleaner(s).run().text != s]  # (the cleaner is never given "")
    assert changed and all(_needs_cleaning(s) for s in changed)
    assert not _needs_cleaning(plain) and clean(plain).text == plain


@pytest.mark.parametrize("raw, text", [("-RRB- x", ") x"), ("-RCB-", "}"), ("  -RSB- y", "] y")])
def test_a_closing_treebank_bracket_at_the_start(raw, text):
    c = clean(raw)
    assert c.text == text and c.to_raw(0, 1) == (raw.index("-"), raw.index("-") + 5)


@pytest.mark.parametrize("raw", [
    "state-of-the-art  self-supervised\nlearning", "  a \n\t b  ", "a\r\n\r\nb - c", "x -\ny", "é-ü\nnaïve café",
    "α-β ≤ γ → δ … “quoted” — dash", "Ärger  in\tZürich", "a \u00a0 b", "end-",
])
def test_bulk_copies_map_every_character_as_one_by_one_copies(raw):
    # Runs of plain characters (hyphens, line breaks and tabs, non-ASCII letters and symbols included) are copied in
    # bulk; the text and the segments must be what copying them one character at a time gives.
    from kg.corpus.clean import _Builder, _Cleaner

    one_by_one = _Builder()
    one_by_one.copy(raw, 0, len(raw))
    assert _Cleaner(raw).run() == one_by_one.result(raw)
    check(raw)


def test_hyphens_and_latin_letters_stay_one_by_one_where_they_may_start_markup():
    # "-" starts a treebank bracket, "Ã" a run of UTF-8 read as Latin-1: with those in the text, both are read one by one
    c = check("self-training -LRB- ST -RRB- is na\u00efve, \u00e2\u0080\u009cgood\u00e2\u0080\u009d")
    assert c.text == "self-training (ST) is naïve, “good”"


def test_formulas_in_math_letters_are_known_by_their_cleaned_range():
    raw = r"Regret of $\sqrt{T}$ costs \$5, $SA$ states, $$k$$-NN, $\texttt{SPARKLE}$ and $\mathrm{BLEU}$, not $ 3."
    c = clean(raw)
    # the symbols' formulas (inline and display), not those that set words in a text font, nor a dollar amount
    assert [c.text[a:b] for a, b in c.formulas] == ["√T", "SA", "k"]
    assert "SPARKLE" in c.text and "BLEU" in c.text
    assert clean("plain text").formulas == ()
    # words in a text font beside other math are the formula's operators and constants
    raw = r"An error of $2\cdot \mathtt{OPT}$ in $\mathrm{poly}(d)$ time, $\mathrm{R}^2$-VOS and $\textbf{M}\text{ixture}$."
    c = clean(raw)
    assert [c.text[a:b] for a, b in c.formulas] == ["2· OPT", "poly(d)"]
    assert "R²-VOS" in c.text and "Mixture" in c.text


def test_a_known_name_set_in_a_text_font_beside_other_math_is_a_symbol():
    from kg.model import Paper
    from kg.nlp.extract import extract

    text = (r"Every learner suffers an error of at least $2\cdot \mathtt{OPT}$ under attack. "
            r"We prompt OPT and GPT-3 with explanations.")
    [(_, ex)] = list(extract([Paper(id="p", text=text)]))
    opt = [m for m in ex.mentions if m.canonical == "OPT"]
    assert opt and all(m.start > text.index("We prompt") for m in opt)  # the language models, not the optimum


def test_an_evidence_sentence_that_begins_inside_markup_opens_it():
    from kg.model import Paper
    from kg.nlp.extract import extract

    text = r"We study offline RL. \texttt{POR} demonstrates strong results on D4RL benchmarks."
    [(_, ex)] = list(extract([Paper(id="p", text=text)]))
    [d4rl] = [m for m in ex.mentions if m.canonical == "D4RL"]
    assert text[d4rl.sentence.start:d4rl.sentence.end] == r"\texttt{POR} demonstrates strong results on D4RL benchmarks."
