"""The one number formatter (issue 24): one format per column, integers as integers, ∞ and —,
probabilities with four decimals and no misleading 0.0000 -- shared by the CLI tables and the
HTML/Markdown report."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from scorio_core.formatting import (
    column_format,
    format_column,
    format_frame,
    format_number,
    format_value,
    markdown_table,
    md_plain,
    text_table,
)


def _one_format(cells: list[str]) -> bool:
    """All finite numbers of a column have the same number of decimals."""
    decimals = {len(c.split(".")[1]) if "." in c else 0
                for c in cells if re.fullmatch(r"[<>−-]*[\d,]+(\.\d+)?", c)}
    return len(decimals) <= 1


def test_counts_are_integers_and_one_format_per_column():
    # the report's defect: '2,368' beside '260.0000', trial counts as '466.0000'
    pairs = pd.DataFrame({
        "trials_needed": [466.0, 2368.0, np.inf],
        "questions_needed": [260.0, 5347.0, np.inf],
        "gap": [2368.0, 260.5, 0.25],
        "p_value": [1.7e-05, 0.25, 1.0],
    })
    shown = format_frame(pairs)
    assert shown["trials_needed"].tolist() == ["466", "2,368", "∞"]
    assert shown["questions_needed"].tolist() == ["260", "5,347", "∞"]
    assert shown["gap"].tolist() == ["2,368.0", "260.5", "0.2"]
    assert shown["p_value"].tolist() == ["<0.0001", "0.2500", "1.0000"]
    for c in shown:
        assert _one_format(shown[c].tolist()), c


def test_probability_columns_stay_decimal_even_when_whole():
    # a p-value column of exact ties (all 1.0) is not turned into a count
    assert format_column([1.0, 1.0, 0.0], "p_value") == ["1.0000", "1.0000", "0.0000"]
    assert format_column([0.0, 1.0], "rank_lo") == ["0", "1"]
    assert format_column([4.0, 4.0], "mean_censored") == ["4", "4"]  # >= 2: not a probability
    # an average of counts over runs that lands on whole numbers keeps its decimals (the
    # Check page's budget split: 32.0 decided pairs on average in one run, 31.906 in the next)
    assert format_column([32.0, 26.0], "decided") == ["32.000", "26.000"]
    assert format_column([31.906, 26.0], "decided") == ["31.906", "26.000"]
    assert format_column([2.0, 3.0], "first_set_size") == ["2.0000", "3.0000"]
    assert format_column([32.0, 26.0], "budget") == ["32", "26"]  # a count stays one


@pytest.mark.parametrize(
    ("value", "text"),
    [(math.inf, "∞"), (-math.inf, "-∞"), (math.nan, "—"), (None, "—"), (pd.NA, "—"),
     (np.float64(0.123456), "0.1235"), (3e-9, "<0.0001"), (-3e-9, ">-0.0001"),
     (10**40, "10,000,000,000,000,000,000,000,000,000,000,000,000,000")],
)
def test_single_numbers(value, text):
    integer = isinstance(value, int)
    assert format_number(value, integer=integer) == text


def test_a_column_writes_one_minus_sign_on_every_surface():
    """The audit: ``sc.questions(d)``'s ``difficulty`` printed ``−∞`` (U+2212) above
    ``-1.448`` (ASCII) in its text and HTML, two minus signs in one column. Every negative
    cell -- a number, ``-∞``, the marker of a tiny negative -- now carries ASCII ``-`` in the
    text table, the Markdown, the HTML and the app's cells, as the app's number columns do."""
    import html

    from app_state.texts import core_cells
    from scorio_core.display import html_table
    from scorio_core.formatting import MINUS, markdown_table

    t = pd.DataFrame({"difficulty": [-np.inf, -1.448, 0.5, np.inf],
                      "gap": [-3e-9, -0.25, 0.0, 1.0]})
    surfaces = {"text": text_table(t), "markdown": "\n".join(markdown_table(t)),
                "html": html.unescape(html_table(t)),
                "app": " ".join(core_cells(t, list(t)).stack())}
    for name, out in surfaces.items():
        assert "\u2212" not in out, name
        for cell in ("-∞", "-1.448", ">-0.0001", "-0.2500"):
            assert cell in out, (name, cell)
    assert MINUS == "-" and format_column([-np.inf, -1.448], "difficulty") == ["-∞", "-1.448"]


def test_text_bool_and_missing_columns():
    assert column_format(["a", None]).kind == "text"
    assert format_column([True, False]) == ["yes", "no"]
    assert column_format([np.nan, np.nan], "p_unsettled").numeric  # right-aligned numbers to be


def test_text_table_aligns_numbers_right_and_text_left():
    t = pd.DataFrame({"model": ["a", "bbbb"], "rank": [1, 12], "p": [0.5, np.nan]})
    lines = text_table(t).splitlines()
    assert lines == ["model  rank       p", "a         1  0.5000", "bbbb     12       —"]
    assert "inf" not in text_table(pd.DataFrame({"n": [np.inf]}))


def test_markdown_table_escapes_and_aligns():
    lines = markdown_table(pd.DataFrame({"m": ["a|b<i>"], "trials_needed_papers": [np.inf]}))
    assert lines[1] == "|---|---:|"
    # markup made inert the way Markdown reads it: no raw tag, no entity where none is needed
    assert lines[2] == "| a\\|b&lt;i> | ∞ |"


def test_statistics_shares_and_the_papers_rule_read_the_same_on_every_surface():
    """The app showed t_next 6.90 and 'met now' where the CLI and the reports printed 6.903
    and 100 (= today's N, read as "add 100 trials"), p_unsettled 0.759 beside 0.7590: the
    core now declares these once and every renderer (text, Markdown, HTML, the app's cells)
    reads the declaration."""
    from app_state.texts import board_display, core_cells
    from scorio_core.formatting import RULE_MET, TRIALS_NOW, format_columns
    from scorio_core.leaderboard import leaderboard

    assert format_column([6.9026, 60.3127, np.nan], "t_next") == ["6.90", "60.31", "—"]
    assert format_column([1.5879, -0.2], "t") == ["1.59", "-0.20"]
    assert format_column([0.7591, 1.0], "p_unsettled") == ["0.759", "1.000"]
    t = pd.DataFrame({"trials_needed_papers": [100.0, 125.0, np.inf], "trials_needed": [3.0, 4, 5]})
    assert format_frame(t)["trials_needed_papers"].tolist() == ["100", "125", "∞"]  # no N
    t.attrs[TRIALS_NOW] = 100
    assert format_frame(t)["trials_needed_papers"].tolist() == [RULE_MET, "125", "∞"]
    assert text_table(t, max_rows=2).splitlines()[1].split()[:2] == ["met", "now"]  # head()
    # a leaderboard: the core's table carries its N, and the text export, the Markdown
    # export and the app's cells agree cell for cell on t_next and trials_needed_papers
    rng = np.random.default_rng(0)
    p = np.clip(rng.beta(0.6, 0.6, (1, 15, 1)) + np.array([0.0, 0.08, 0.16, 0.24])[:, None, None],
                0, 1)
    board = leaderboard((rng.random((4, 15, 4)) < p).astype(int))
    assert board.table.attrs[TRIALS_NOW] == 4 and board.unresolved().attrs[TRIALS_NOW] == 4
    core = {name: cells for name, _, cells in format_columns(board.table)}
    app = board_display(board.table)
    assert app["t_next"].tolist() == core["t_next"]
    assert app["trials_needed_papers"].tolist() == core["trials_needed_papers"]
    assert RULE_MET in core["trials_needed_papers"]
    md = "\n".join(markdown_table(board.table))
    assert RULE_MET in md and all(c in md for c in core["t_next"])
    un = board.unresolved()
    assert core_cells(un, ["trials_needed_papers"])["trials_needed_papers"].tolist() == \
        {n: c for n, _, c in format_columns(un)}["trials_needed_papers"]


def test_every_export_rounds_floats_by_the_one_rule(monkeypatch):
    """The leaderboard's CSV/JSON and every analysis's CSV (export_frame) round through
    formatting.round_floats: changing its digits changes all of them."""
    import scorio_core.definitions.provenance as provenance
    from scorio_core import export, formatting
    from scorio_core.leaderboard import leaderboard

    board = leaderboard(np.random.default_rng(0).integers(0, 2, (3, 7, 3)))
    noisy = pd.DataFrame({"p": [1 / 3, 2 / 3], "trials_needed_papers": [19.0, 20.0]})
    calls = []

    def spy(df, digits=formatting.EXPORT_DIGITS, **kw):
        calls.append(digits)
        return formatting.round_floats(df, 2, **kw)  # a different rule, seen by every export

    monkeypatch.setattr(export, "round_floats", spy)  # provenance's CSV goes through export
    # whole counts are still written as integers
    assert provenance.to_csv(noisy, {}) == "p,trials_needed_papers\n0.33,19\n0.67,20\n"
    row = export.to_csv(board).splitlines()[1].split(",")
    assert row[5] == str(round(float(board.table["score"].iloc[0]), 2))  # score
    payload = json.loads(export.to_json(board))
    assert payload["rows"][0]["score"] == round(float(board.table["score"].iloc[0]), 2)
    # the JSON's rank distribution too (it was rounded by a .round(6) of its own)
    first = board.table["model"].iloc[0]
    assert payload["rank_distribution"][first] == formatting.round_floats(
        board.rank_distribution(), 2, probability=True).loc[first].tolist()
    assert len(calls) == 4 and set(calls) == {formatting.EXPORT_DIGITS}


def test_text_table_wraps_long_text_cells_at_a_terminal_width():
    """The stability table's methods cell (37 method names) made a line of ~900 characters:
    a text cell longer than TEXT_WIDTH wraps onto the next lines of its column, at word
    boundaries, with the row's numbers on its first line; numbers never wrap."""
    from scorio_core.formatting import TEXT_WIDTH

    names = [f"method_{i}_tie_half" for i in range(37)]
    t = pd.DataFrame({"rank": [1, 2], "methods": [", ".join(names), "bayes"],
                      "size": [37, 1], "mean": [0.78751, 0.7]})
    lines = text_table(t).splitlines()
    assert max(map(len, lines)) <= TEXT_WIDTH + len("rank  ") + len("  size    mean")
    assert lines[0].split() == ["rank", "methods", "size", "mean"]
    first = lines[1]
    assert first.startswith("   1  method_0_tie_half, ") and first.endswith("37  0.7875")
    cont = lines[2:-1]
    assert cont and all(line.startswith(" " * 6) and not line[:6].strip() for line in cont)
    # every name once, in order, none broken across lines
    body = [first[6:].rsplit(None, 2)[0]] + [line[6:] for line in cont]
    assert all(len(x.strip()) <= TEXT_WIDTH for x in body)
    text = " ".join(x.strip() for x in body)
    assert text.split(", ") == names
    assert lines[-1].split() == ["2", "bayes", "1", "0.7000"]
    # a word longer than the width is cut, never left to run on
    long = text_table(pd.DataFrame({"x": ["a" * (TEXT_WIDTH * 2 + 5)]})).splitlines()
    assert [len(s) for s in long[1:]] == [TEXT_WIDTH, TEXT_WIDTH, 5]
    # short cells: the table is as before
    assert text_table(pd.DataFrame({"m": ["x", "yy"], "rank": [1, 12]})).splitlines() == [
        "m   rank", "x      1", "yy    12"]


def test_text_table_pads_wide_and_combining_characters_to_the_columns_a_terminal_draws():
    """``scorio-studio leaderboard unicode.csv --format table`` shifted the row of 模型-β by
    two columns: text_table padded with len(), and a terminal draws each of 模 and 型 two
    columns wide (a combining accent none). Every line now ends where its header does, and
    each number column's right edge is at the same terminal column in every row."""
    from scorio_core.formatting import display_width

    t = pd.DataFrame({"model": ["GPT 4o (mini)", "模型-β", "Ωmega, \"q\"", "cafe\u0301"],
                      "rank": [1, 1, 2, 3], "p_best": [0.707, 0.27, 0.023, 0.0]})
    lines = text_table(t).splitlines()
    assert (display_width("模型-β"), display_width("cafe\u0301")) == (6, 4)
    assert len({display_width(line) for line in lines}) == 1, lines
    # the rank column ends where its header does: what precedes p_best (its six columns
    # and the two between) is as wide on every line, and ends with the row's rank
    before = [line[:-len("  p_best")] for line in lines]
    assert before[0].endswith("rank") and [b.split()[-1] for b in before[1:]] == ["1", "1", "2",
                                                                                 "3"]
    assert len({display_width(b) for b in before}) == 1, before


def test_a_quantity_and_its_summaries_take_one_format():
    """The Questions page wrote difficulty and discrimination with 3 decimals and their
    per-subset medians with 4: a column derived from a named quantity (``<name>_median``,
    ``_mean``, ``_lo``...) takes that quantity's decimals; other names keep theirs."""
    from scorio_core.formatting import named_decimals

    medians = [-0.7319123, -3.0579, 1.2]
    assert format_column(medians, "difficulty_median") == ["-0.732", "-3.058", "1.200"]
    assert format_column(medians, "difficulty") == format_column(medians, "difficulty_median")
    assert format_column([0.7408, 3.0721], "discrimination_median") == ["0.741", "3.072"]
    assert format_column([0.12, 0.4], "p_best_lo") == ["0.120", "0.400"]  # a share's end
    assert format_column([0.5934, 0.9124], "mean") == ["0.5934", "0.9124"]  # not named
    assert named_decimals("score_median") is None and named_decimals("t_next") == 2


def test_the_convergence_distribution_reads_in_one_format_across_its_row():
    """The convergence@n distribution printed its bins with 4 decimals and no_convergence
    with 3 in one row that sums to 1: every share of the row takes no_convergence's."""
    from scorio_core.definitions.convergence import pmf_bins

    pmf = pd.DataFrame({"method": "bayes", "n": range(1, 9),
                        "p": [0.0083, 0.0144, 0.0467, 0.1217, 0.2085, 0.2187, 0.1879, 0.1168]})
    binned = pmf_bins(pmf, pd.DataFrame({"method": ["bayes"], "no_convergence": [0.077]}))
    row = format_frame(binned).iloc[0].tolist()
    assert row[0] == "bayes" and row[-1] == "0.077"
    assert {len(c.split(".")[1]) for c in row[1:]} == {3}, row
    assert binned.iloc[0, 1:].sum() == pytest.approx(1.0)


def test_a_json_report_gives_every_float_the_exports_digits():
    """``scorio-studio info`` wrote our mean as 0.333333 beside the harness's value as
    0.3333333333333333: the report's floats are rounded by the exports' one rule."""
    from scorio_core.formatting import EXPORT_DIGITS, round_json

    report = {"files": [{"mean": 1 / 3, "harness": {"value": 1 / 3, "n": 12}}],
              "n_files": 1, "ok": True, "inf": math.inf, "notes": ["a"]}
    out = round_json(report)
    assert out["files"][0]["mean"] == out["files"][0]["harness"]["value"] == round(1 / 3, 6)
    assert EXPORT_DIGITS == 6 and json.dumps(out).count("0.333333") == 2
    assert "0.3333333" not in json.dumps(out)
    assert (out["n_files"], out["ok"], out["inf"], out["notes"]) == (1, True, math.inf, ["a"])


def test_a_confidence_or_chance_setting_reads_as_the_app_writes_it_in_every_core_text():
    """The core wrote a confidence or a chance setting as ``{x:.0%}`` in some 40 places, so
    0.925 read "92%" in the CLI, captions and caveats beside the app's "92.5%": one helper,
    formatting.percent, and no such f-string is left."""
    import ast
    from pathlib import Path

    import scorio_core as sc
    from scorio_core.definitions.leaderboard import chart_captions
    from scorio_core.formatting import a_chance, percent

    assert (percent(0.925), percent(1 - 0.95), percent(0.8)) == ("92.5%", "5%", "80%")
    assert (a_chance(0.925), a_chance(0.8)) == ("a 92.5% chance", "an 80% chance")
    R = np.random.default_rng(5).integers(0, 2, (4, 20, 4))
    board = sc.leaderboard(R, confidence=0.925, draws=500)
    texts = [board.first_line(), *chart_captions(board)]
    assert all("92.5%" in t and "92%" not in t.replace("92.5%", "") for t in texts), texts
    plan = sc.plan(R, confidence=0.925, assurance=0.925, budget_trials=8, draws=500)
    assert "92.5% decisions" in plan.caption() and "a 92.5% chance" in plan.caption()
    root = Path(sc.__file__).parent
    found, scanned = [], 0
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FormattedValue):
                continue
            expr = ast.unparse(node.value)
            setting = any(w in expr for w in ("conf", "assurance", "alpha", "target"))
            scanned += setting
            spec = ast.unparse(node.format_spec) if node.format_spec else ""
            if "%" in spec and setting:
                found.append(f"{path.relative_to(root)}:{node.lineno} {{{expr}:{spec}}}")
    assert found == [], found
    assert scanned >= 30  # the scan sees the core's confidences (now written with percent)


@pytest.mark.parametrize(("md", "plain"), [
    # emphasis, nested and side by side; ``*`` between spaces is a product, not emphasis
    ("***both*** and **a *b* c**", "both and a b c"),
    ("*one* *two*; 3 * 4 * 5", "one two; 3 * 4 * 5"),
    # an underscore inside a word is a name's (LLM_10, rank_lo), not emphasis
    ("LLM_10 beats LLM_9; rank_lo and _this_ and __that__", "LLM_10 beats LLM_9; rank_lo and "
                                                            "this and that"),
    # a code span is shown as it is: no emphasis, escape or link read inside it
    ("`*x*` `a\\*b` `[t](u)` ``a`b``", "*x* a\\*b [t](u) a`b"),
    ("an unclosed ` backtick stays", "an unclosed ` backtick stays"),
    # links and images: the text, then the url; a title is dropped; an autolink is its url
    ('[*Don\'t Pass@k*](https://arxiv.org/abs/x_y "paper") and ![chart](c.svg)',
     "Don't Pass@k (https://arxiv.org/abs/x_y) and chart (c.svg)"),
    ("<https://a.org/b_c_d>", "https://a.org/b_c_d"),
    # escapes and character references; '&' that starts none (no semicolon) stays
    ("\\[not a link\\](x) \\_a\\_ \\\\", "[not a link](x) _a_ \\"),
    ("&lt;b&gt; &#42;x&#42; AT&T &copy no semicolon", "<b> *x* AT&T &copy no semicolon"),
])
def test_md_plain_shows_what_a_markdown_renderer_shows(md, plain):
    """A terminal reads our Markdown prose as its renderer would show it (the simulate
    command's lessons showed ``*LLM mimics*`` and `` `R0` `` raw)."""
    assert md_plain(md) == plain


def test_md_plain_leaves_every_definitions_reading_without_markup():
    """Every analysis's "How to read this" reads without a Markdown mark in a terminal, with
    the words its emphasis and code spans held; text without markup is left as it is."""
    from scorio_core.definitions import ANALYSES, SIMULATIONS

    for a in (*ANALYSES.values(), *SIMULATIONS.values()):
        plain = md_plain(a.how_to_read)
        assert "*" not in plain and "`" not in plain, a.id
        assert plain.split() == re.sub(r"[*`]", "", a.how_to_read).split(), a.id
    assert "*LLM mimics*" in SIMULATIONS["coins"].how_to_read  # the case this guards
    text = "p < 0.05, N >= 2, 95% of LLM_10's a_b (x) [y] & z"
    assert md_plain(text) == text


@pytest.mark.parametrize(("value", "decimals", "text"), [
    (0.9996, 3, ">0.999"), (0.9994, 3, "0.999"), (1.0, 3, "1.000"), (0.0004, 3, "<0.001"),
    (0.0, 3, "0.000"), (0.99995, 4, ">0.9999"), (0.99994, 4, "0.9999"), (1.0, 4, "1.0000"),
    (1 - 2.6e-12, 4, ">0.9999"), (5.5e-12, 4, "<0.0001"), (0.5, 4, "0.5000"),
])
def test_a_probability_that_rounds_to_one_reads_as_a_bound(value, decimals, text):
    """The mirror of the small-value rule: a probability below 1 that would print as 1 reads
    ">0.999" (the Rubric board's p_best read 1.000 beside <0.001; the Pair view's p_a_better
    1.0000 beside p_value <0.0001); an exact 1 -- a one-model board's p_best -- stays 1."""
    assert format_number(value, decimals, probability=True) == text
    if value < 1 and text.startswith(">"):  # a number that is no probability is not bounded
        assert format_number(value, decimals) == f"{1:.{decimals}f}"


def test_the_mirror_applies_to_probability_columns_by_name_and_nowhere_else():
    """Which columns are probabilities or shares (their 1 reads as certain): the rule's
    columns, on every surface the core writes (text, Markdown, the app's cells)."""
    from app_state.texts import core_cells, spelled_columns
    from scorio_core.formatting import is_probability

    probabilities = ["p_best", "p_unsettled", "p_value", "p_better", "p_a_better", "p_correct",
                     "p_decided", "p_decided_at_lead", "rho", "coverage", "first_coverage",
                     "power", "no_convergence", "p", "share", "greedy_share", "share_changed",
                     "predicted", "observed", "p_best_lo", "p_best_hi", "coverage_mean"]
    others = ["score", "mean", "lo", "hi", "tau_b", "diff", "gap", "t", "bayes_mu", "p_best_se",
              "coverage_se", "score_a", "mean_score", "weight", "value"]
    assert all(is_probability(n) for n in probabilities), [
        n for n in probabilities if not is_probability(n)]
    assert not any(is_probability(n) for n in others), [n for n in others if is_probability(n)]
    near = [0.99996, 0.5, 1.0]
    assert format_column(near, "p_a_better") == [">0.9999", "0.5000", "1.0000"]
    assert format_column(near, "p_best") == [">0.999", "0.500", "1.000"]
    # a share of simulated datasets carries the digits of a Monte-Carlo share, as p_best
    assert format_column(near, "coverage") == [">0.999", "0.500", "1.000"]
    assert format_column(near, "score") == ["1.0000", "0.5000", "1.0000"]  # a score's 1
    assert format_column(near, "tau_b") == ["1.0000", "0.5000", "1.0000"]
    # a column's declared decimals keep the rule (the convergence summary's 3)
    t = pd.DataFrame({"no_convergence": [0.9996, 0.077], "mean_trials": [3.0, 4.5]})
    t.attrs["decimals"] = {"no_convergence": 3, "mean_trials": 1}
    assert format_frame(t)["no_convergence"].tolist() == [">0.999", "0.077"]
    # every renderer of one table: text, Markdown and the app's spelled cells agree
    board = pd.DataFrame({"model": ["a", "b", "c"], "p_best": [0.9996, 0.0004, 0.0]})
    assert text_table(board).splitlines()[1].split() == ["a", ">0.999"]
    assert "| a | >0.999 |" in markdown_table(board)
    assert core_cells(board, spelled_columns(board))["p_best"].tolist() == [
        ">0.999", "<0.001", "0.000"]


def test_exports_keep_numbers_never_a_zero_or_a_one_they_are_not():
    """The exports keep numbers where the tables write "<0.0001" / ">0.9999": the Pair CSV
    wrote p_value 0.0 and p_a_better 1.0 for 5.5e-12 and 1 - 2.7e-12. Rounded to six
    decimals unless that reads a number the value is not: a non-zero value keeps six
    significant digits, a probability below 1 the digits that keep it below 1."""
    from scorio_core.definitions.provenance import to_csv
    from scorio_core.formatting import round_floats, round_json

    t = pd.DataFrame({"p_value": [5.5061234e-12, 0.25, 0.0], "p_a_better": [1 - 2.7e-12, 0.5, 1.0],
                      "score": [1 - 2.7e-12, 1 / 3, 1e-9]})
    out = round_floats(t)
    assert out["p_value"].tolist() == [5.50612e-12, 0.25, 0.0]  # an exact 0 stays 0
    assert 0.99999999999 < out["p_a_better"][0] < 1 and out["p_a_better"][2] == 1.0
    assert out["score"].tolist() == [1.0, 0.333333, 1e-9]  # a score's 1 is no certainty
    lines = to_csv(t, {}).splitlines()
    assert lines[1].split(",")[:2] == ["5.50612e-12", "0.9999999999973"]
    assert round_json({"p": 4e-9, "q": [1 / 3]}) == {"p": 4e-9, "q": [0.333333]}


def test_the_pair_view_reads_one_bound_on_every_surface():
    """``scorio-studio pair data/jhu_llm_temperature.parquet gemini-1.5-pro-preview-0409
    claude-3-opus-20240229`` printed p_a_better 1.0000 beside p_value <0.0001: the questions
    scope's P(a better) is 1 - 2.7e-12. The CLI's table, the Markdown and the app's cells now
    read >0.9999, the CSV the number."""
    from pathlib import Path

    from app_state.texts import core_cells, spelled_columns
    from scorio_core import load
    from scorio_core.definitions import ANALYSES

    pair = ANALYSES["pair"]
    data = load(Path(__file__).parents[1] / "data" / "jhu_llm_temperature.parquet")
    r = pair.run(data, pair.params(a="gemini-1.5-pro-preview-0409",
                                   b="claude-3-opus-20240229"))
    summary = pair.tables(r)["summary"]
    p = float(summary["p_a_better"].iloc[0])
    assert 0.9999 < p < 1  # the case
    cells = format_frame(summary)
    assert cells["p_a_better"].tolist()[0] == ">0.9999" and cells["p_value"][0] == "<0.0001"
    assert ">0.9999" in text_table(summary) and ">0.9999" in "\n".join(markdown_table(summary))
    app = core_cells(summary, spelled_columns(summary))
    assert app["p_a_better"].tolist() == cells["p_a_better"].tolist()
    assert "p_a_better" in spelled_columns(summary) and "p_value" in spelled_columns(summary)


def test_a_measured_share_reads_with_its_decimal_in_every_core_text():
    """The core wrote a measured share as ``{x:.0%}`` or ``{x:.1%}`` in a dozen sentences: a
    Check page coverage of 94.6% read "95%" and a share decided below 1 could read "100%".
    One rule, formatting.share_percent (one decimal, the tables' mirror: >99.9%, <0.1%), and
    no ``%`` format spec is left in an f-string of the core or the app, bar the CLI's
    progress line (a fraction of work done, not a result)."""
    import ast
    from pathlib import Path

    import scorio_core as sc
    from scorio_core.formatting import SHARE_DECIMALS, a_chance, share_percent

    assert SHARE_DECIMALS == 1
    assert [share_percent(x) for x in (0.946, 0.95, 0.5, 1 / 6, 0.0849)] == [
        "94.6%", "95.0%", "50.0%", "16.7%", "8.5%"]
    # below 1 never reads certain, above 0 never reads none; exact ones stay
    assert [share_percent(x) for x in (0.99996, 1.0, 4e-5, 0.0, -4e-5)] == [
        ">99.9%", "100.0%", "<0.1%", "0.0%", ">-0.1%"]
    assert share_percent(float("nan")) == share_percent(None) == "—"
    assert share_percent(2.5) == "250.0%" and share_percent(12.345) == "1,234.5%"
    assert (a_chance(0.8497, measured=True), a_chance(0.1667, measured=True)) == (
        "an 85.0% chance", "a 16.7% chance")
    root = Path(sc.__file__).parents[1]
    allowed = {("scorio_core/cli/_common.py", "fraction")}  # the progress line's 4.0%
    found = []
    for path in sorted([*(root / "scorio_core").rglob("*.py"), *(root / "app_pages").glob("*.py"),
                        *(root / "app_state").glob("*.py"), root / "app.py"]):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
                spec, expr = ast.unparse(node.format_spec), ast.unparse(node.value)
                if "%" in spec and (rel, expr) not in allowed:
                    found.append(f"{rel}:{node.lineno} {{{expr}:{spec}}}")
    assert found == [], found


def test_a_weight_reads_alike_in_every_text_and_box():
    """A category weight had three formats: ``{w:g}`` in the rubric's summary and the settings
    line, the Data table's default, and ``%.3f`` in the Rubric builder's boxes (0.5 as 0.500,
    1/3 as 0.333). One declaration, WEIGHT_DIGITS: weight_text for texts and WEIGHT_PRINTF for
    the app's boxes and columns; and a number box in score units (the Planner's lead) has the
    tables' decimals, SCORE_PRINTF."""
    import ast
    from pathlib import Path

    import scorio_core as sc
    from scorio_core import rubric as rb
    from scorio_core.formatting import (
        DECIMALS,
        SCORE_PRINTF,
        WEIGHT_PRINTF,
        format_number,
        weight_text,
    )

    weights = (0.0, 0.5, 1 / 3, 0.85, -2.0, 2.5, 0.05 + 0.1)
    assert [weight_text(w) for w in weights] == ["0", "0.5", "0.333333", "0.85", "-2", "2.5",
                                                 "0.15"]
    # Streamlit's boxes draw the printf pattern: the same text as the core's
    assert [WEIGHT_PRINTF % w for w in weights] == [weight_text(w) for w in weights]
    r = rb.PRESETS["ranking/conservative"]
    r = r.with_weights([0.5, 1 / 3, *r.weights[2:]])
    assert "  0: invalid (0.5) — " in r.summary() and "  1: " in r.summary()
    assert r.summary().split("  1: ")[1].split(")")[0].endswith("(0.333333")
    o = sc.Outcomes(np.array([[[0, 1, 2]], [[2, 1, 0]]]), weights=(0.0, 1 / 3, 1.0))
    assert "categories cat0=0, cat1=0.333333, cat2=1;" in o.summary()
    assert SCORE_PRINTF % 0.0125 == format_number(0.0125, DECIMALS) == "0.0125"
    # the app's number boxes take these declarations, not a printf of their own
    root = Path(sc.__file__).parents[1]
    literal = []
    for path in sorted((root / "app_pages").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.keyword) and node.arg == "format"
                    and isinstance(node.value, ast.Constant)
                    and str(node.value.value).rstrip().endswith(("f", "g", "e"))):
                literal.append(f"{path.name}:{node.value.lineno} {node.value.value!r}")
    assert literal == [], literal


def test_a_share_of_draws_reads_its_zero_and_one_as_bounds():
    """``p_best`` of 0 of 10,000 draws printed ``0.000`` beside 0.0002's ``<0.001`` and
    0.9998's ``>0.999``: a Monte-Carlo 0 is "first in none of the draws", not impossible.
    A column the table declares drawn (``attrs[DRAWS_ATTR]``) reads its 0 and 1 as bounds
    in every table for people (text, Markdown, the cells the app shows), one draw's share
    where the draws are fewer than the decimals resolve; a 0 or 1 exact by construction
    (not declared: a one-model board) stays; the exports keep the numbers."""
    from scorio_core.export import csv_frame
    from scorio_core.formatting import DRAWS_ATTR, format_columns

    t = pd.DataFrame({"model": ["a", "b", "c"], "p_best": [1.0, 0.0, 0.25],
                      "score": [0.5, 0.0, 0.25]})
    assert format_frame(t)["p_best"].tolist() == ["1.000", "0.000", "0.250"]  # exact
    t.attrs[DRAWS_ATTR] = {"p_best": 10_000}
    assert format_frame(t)["p_best"].tolist() == [">0.999", "<0.001", "0.250"]
    assert format_frame(t)["score"].tolist() == ["0.5000", "0.0000", "0.2500"]  # not drawn
    assert "| a | >0.999 | 0.5000 |" in markdown_table(t)
    assert text_table(t).splitlines()[2].split() == ["b", "<0.001", "0.0000"]
    t.attrs[DRAWS_ATTR] = {"p_best": 200}  # none of 200 draws: below one draw's share
    assert [c for _, _, c in format_columns(t)][1] == [">0.995", "<0.005", "0.250"]
    assert csv_frame(t)["p_best"].tolist() == [1.0, 0.0, 0.25]  # the exports: numbers
    # a rank distribution's columns are ranks: probabilities because the table says so
    rd = pd.DataFrame({1: [1.0, 0.0], 2: [0.0, 1.0]}, index=["a", "b"])
    rd.attrs[DRAWS_ATTR] = dict.fromkeys(rd.columns, 10_000)
    assert format_frame(rd).values.tolist() == [[">0.9999", "<0.0001"], ["<0.0001", ">0.9999"]]


def test_a_share_of_simulated_datasets_reads_alike_on_every_surface():
    """The audit: the prior depth lesson headlined "0.8589" (four decimals) of its updates
    beside P(correct order) "0.863" (three) and a coverage of "0.9440": shares of simulated
    datasets in three formats. Each is a Monte-Carlo share now, with p_best's three decimals
    in every table, headline and tooltip, and the digits a sentence gives it (85.9%); a
    pair's P(better), from its t, keeps four, in the Leaderboard heatmap's cells too."""
    from scorio_core import simulate as sim
    from scorio_core.charts.leaderboard import HEATMAP_DECIMALS
    from scorio_core.definitions import SIMULATIONS
    from scorio_core.definitions.simulate import highlights
    from scorio_core.formatting import MONTE_CARLO_DECIMALS, named_decimals, share_percent

    shares = ["p_correct", "coverage", "first_coverage", "least_coverage", "power",
              "wrong_way", "share_changed", "p_best", "coverage_mean"]
    assert {named_decimals(n) for n in shares} == {MONTE_CARLO_DECIMALS} == {3}
    assert named_decimals("p_better") == named_decimals("p_a_better") == HEATMAP_DECIMALS == 4
    assert format_column([0.85892], "share_changed") == ["0.859"]
    assert share_percent(0.85892) == "85.9%"  # the same digits in a sentence
    r = sim.prior_depth(steps=(1,), depths=(0,), replicates=20, seed=0)
    update = SIMULATIONS["prior-depth"].tables(r)["update"]
    shown = {h.label: h.value for h in highlights("prior-depth", r)}
    changed = shown["updates that change the ranking"]
    assert changed == format_column(update["share_changed"].tolist(), "share_changed")[0]
    assert re.fullmatch(r"0\.\d{3}", changed), changed


#: A noun (or verb) written for either number: ``question(s)``, ``{what}(s)``, ``match(es)``.
_EITHER_NUMBER = re.compile(r"(?:[A-Za-z]|\{\})\((?:s|es)\)")


def _either_number_texts(source: str) -> list[tuple[int, str]]:
    """The texts of ``source`` a user can read -- its string literals and f-strings (each
    placeholder as ``{}``), not its docstrings or comments -- that write a noun for either
    number, with their line."""
    import ast

    tree = ast.parse(source)
    inner = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):
            inner.add(id(node.value))  # a docstring, or a bare string: no one reads it
        if isinstance(node, ast.JoinedStr):
            inner.update(id(v) for v in node.values)  # read with its f-string
    out = []
    for node in ast.walk(tree):
        if id(node) in inner:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}"
                           for v in node.values)
        else:
            continue
        if _EITHER_NUMBER.search(text):
            out.append((node.lineno, text))
    return out


def test_every_count_is_written_in_the_number_it_needs():
    """The Questions caveats said "3 of 4 question(s) carry no information" and the Data
    page "1 question(s) dropped": every count a message, table label or page writes goes
    through count_text / noun_text (and its verb agrees), so no text of the core, the app's
    state or its pages writes a noun for either number. Each count these texts write is
    known when they are written, so nothing is exempt."""
    from pathlib import Path

    from scorio_core.formatting import count_text, noun_text

    assert [count_text(n, "question") for n in (0, 1, 2, 1200)] == [
        "0 questions", "1 question", "2 questions", "1,200 questions"]
    assert (noun_text(1, "key"), noun_text(3, "key"), count_text(1, "undecided pair")) == (
        "key", "keys", "1 undecided pair")
    # the scan finds what it looks for, in a text and an f-string, and skips docstrings
    planted = ('def f(n, w):\n    """Drops question(s)."""\n    # the file(s)\n'
               '    return [f"{n} question(s) dropped", "row(s)", f"unknown {w}(s)"]\n')
    assert [line for line, _ in _either_number_texts(planted)] == [4, 4, 4]
    root = Path(__file__).resolve().parents[1]
    found = [f"{path.relative_to(root)}:{line}: {text!r}"
             for package in ("scorio_core", "app_state", "app_pages")
             for path in sorted((root / package).rglob("*.py"))
             for line, text in _either_number_texts(path.read_text(encoding="utf-8"))]
    assert not found, "\n".join(found)


class _Real(float):
    """A float subclass (as an enum or a unit type may be): read through ``numbers.Real``."""


@pytest.mark.parametrize("name", [None, "score", "p_best", "trials_needed", "rank", "gap"])
def test_python_numbers_print_as_the_same_numbers_of_other_types(name):
    """A column's ``tolist()`` gives Python floats and ints, which the cell checks read
    directly (``type(v) is float``: 2-3x faster tables, ``benchmarks/formatting.py``); every
    such cell prints as the same value as a NumPy scalar or a float subclass, which go the
    general way (``numbers.Real``): NaN, infinities, -0.0, a tiny value, a probability just
    below 1, ints beyond a float's range."""
    floats = [0.0, -0.0, 0.5, 1.0, 0.99996, 2e-7, -2e-7, 1234.5678, 1e300, float("nan"),
              float("inf"), float("-inf")]
    ints = [0, 1, -3, 2368, 10**40, 10**400, -(10**400)]
    for values, other in ((floats, np.float64), (floats, _Real),
                          (ints, lambda v: v if abs(v) > 2**62 else np.int64(v))):
        want = column_format(values, name)
        python = [format_value(v, want) for v in values]
        converted = [other(v) for v in values]
        fmt = column_format(converted, name)
        assert fmt == want, (values, name)
        assert [format_value(v, fmt) for v in converted] == python, (values, name, other)
