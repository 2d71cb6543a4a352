"""Rich display (issue 24): every result renders its formatted table, main chart and settings
as HTML for Jupyter/VS Code/marimo, and a short plain-text repr for terminals.

The HTML is parsed back with the standard library's ``html.parser`` and every number of the
shown table is checked against the result's own table (to the decimals shown), so a display
that drops, reorders or misformats a value fails.
"""

from __future__ import annotations

import math
import re
from dataclasses import fields
from html import escape as _html_escape
from html import unescape
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

import scorio_core as sc
from scorio_core import display
from scorio_core.definitions import ANALYSES, SIMULATIONS
from scorio_core.formatting import RULE_MET


class _Tables(HTMLParser):
    """The ``<table>`` elements of an HTML text: caption, header cells and body rows."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict] = []
        self.svgs = 0
        self._cell: str | None = None
        self._row: list[tuple[str, str]] = []
        self._in_caption = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"caption": "", "head": [], "rows": [], "classes": [],
                                "titles": []})
        elif tag == "svg":
            self.svgs += 1
        elif tag == "caption":
            self._in_caption = True
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell, self._tag, self._class = "", tag, dict(attrs).get("class", "")
            if tag == "th" and self.tables:  # a header's tooltip: the column's meaning
                self.tables[-1]["titles"].append(dict(attrs).get("title"))

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        elif self._in_caption:
            self.tables[-1]["caption"] += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append((self._tag, self._cell, self._class))
            self._cell = None
        elif tag == "caption":
            self._in_caption = False
        elif tag == "tr" and self.tables:
            t = self.tables[-1]
            if self._row and all(k == "th" for k, _, _ in self._row):
                t["head"] = [c for _, c, _ in self._row]
                t["classes"] = [cls for _, _, cls in self._row]
            elif self._row:
                t["rows"].append([c for _, c, _ in self._row])


def parse(html: str) -> _Tables:
    p = _Tables()
    p.feed(html)
    return p


def check_cell(text: str, value, numeric: bool, where: str) -> None:
    """``text`` is ``value`` as the display writes it (to the decimals it shows)."""
    missing = value is None or (isinstance(value, float) and math.isnan(value))
    if missing:
        assert text in ("—", ""), where
        return
    if isinstance(value, bool | np.bool_):
        assert text == ("yes" if value else "no"), where
        return
    if not numeric:
        assert text == str(value), where
        return
    v = float(value)
    t = text.replace(",", "").replace("−", "-")
    if t == RULE_MET:  # the papers' trials rule, already met by today's trials
        assert where.split(": ")[-1].split("[")[0] == "trials_needed_papers", where
        return
    if math.isinf(v):
        assert t == ("∞" if v > 0 else "-∞"), where
    elif t.startswith("<"):  # a share of draws may be a 0 of them: below one draw's share
        assert 0 <= v < float(t[1:]), where
    elif t.startswith(">"):  # a negative next to 0, or a probability (a share of draws) to 1
        x = float(t[1:])
        assert x < v and (v < 0 if x < 0 else v <= 1), where
    else:
        decimals = len(t.split(".")[1]) if "." in t else 0
        assert abs(float(t) - v) <= 0.5 * 10.0 ** -decimals + 1e-12, (where, text, v)


def check_table(parsed: dict, df: pd.DataFrame, what: str) -> None:
    """The parsed table shows ``df``: the same columns, the first rows, each cell's value."""
    assert parsed["head"] == [str(c) for c in df.columns], what
    shown = parsed["rows"]
    more = len(df) > display.MAX_ROWS
    if more:  # the last row says how many were left out
        assert shown[-1][0] == f"… {len(df) - display.MAX_ROWS:,} more rows", what
        shown = shown[:-1]
    assert len(shown) == min(len(df), display.MAX_ROWS), what
    for j, col in enumerate(df.columns):
        numeric = parsed["classes"][j] == "num"
        for i, row in enumerate(shown):
            check_cell(row[j], df[col].iloc[i], numeric, f"{what}: {col}[{i}]")


def check_repr(obj, lines: int = 30) -> str:
    """A repr of at most ``lines`` lines, no array dump (a result's shows the report's rows:
    give ``lines`` room for them)."""
    text = repr(obj)
    assert len(text.splitlines()) <= lines, text
    assert "array(" not in text and "dtype" not in text  # not a dataclass dump of arrays
    return text


@pytest.fixture(scope="module")
def aime():
    return sc.load("data/reasoning_synthetic.npz").select("AIME'25")


@pytest.fixture(scope="module")
def coins():
    return sc.load("data/biased_coins.npz")


def test_leaderboard_shows_its_table_chart_and_scope(coins):
    board = sc.leaderboard(coins, scope="population", confidence=0.9, draws=2000)
    html = board._repr_html_()
    p = parse(html)
    check_table(p.tables[0], board.table, "leaderboard")
    assert p.svgs >= 1  # the forest plot
    assert "population scope" in html and "90% intervals" in html and "draws = 2,000" in html
    undecided = board.unresolved()
    assert len(undecided)  # the coins leave pairs undecided: their table is shown too
    check_table(p.tables[1], undecided, "undecided")
    assert board._repr_mimebundle_()["text/html"] == html
    text = check_repr(board)
    assert text.startswith("<Leaderboard: population scope") and "LLM_11" in text


def test_infinite_and_missing_cells_are_spelled_out():
    # two identical models: the pair needs ∞ trials; the last row's t_next is missing
    R = np.random.default_rng(0).integers(0, 2, (1, 20, 6))
    board = sc.leaderboard(np.concatenate([R, R]), draws=500)
    p = parse(board._repr_html_())
    head = p.tables[0]["head"]
    trials_needed_papers = [row[head.index("trials_needed_papers")] for row in p.tables[0]["rows"]]
    assert trials_needed_papers == ["∞", "—"]
    check_table(p.tables[0], board.table, "tied")


def test_plan_shows_pairs_allocation_and_what_the_budget_buys(coins):
    planned = sc.plan(coins, budget_trials=40, draws=2000)
    html = planned._repr_html_()
    p = parse(html)
    # the pairs' notes under the table, each naming its row(s) (tested below); the
    # DataFrame keeps its note column
    assert planned.pairs.columns[-1] == "note"
    # as the report prints it: p_unsettled (no value in the questions scope) said, not shown
    check_table(p.tables[0], display.readable(planned.pairs.drop(columns="note"))[0], "pairs")
    check_table(p.tables[1], planned.allocation, "allocation")
    assert p.svgs == 1 and "budget 40 extra trials" in html
    assert "Budget 40 extra trials per question" in html  # the headline sentence
    assert check_repr(planned, lines=40).startswith("<Plan: ")


def test_outcomes_shows_shape_categories_benchmarks_and_validation():
    data = sc.load("data/jhu_llm_temperature.parquet")
    html = data._repr_html_()
    p = parse(html)
    rows = dict(p.tables[0]["rows"])
    assert rows["models (L)"] == "9" and rows["questions (M)"] == "100"
    assert rows["trials (N)"] == "100"
    counts = np.bincount(data.R.ravel(), minlength=2)
    assert rows["categories"] == (f"0: wrong (w=0): {counts[0]:,}; "
                                  f"1: correct (w=1): {counts[1]:,}")
    missing = int(np.isnan(data.signals["response_chars"]).sum())
    assert rows["missing signal values"] == f"response_chars: {missing:,} of 90,000 completions"
    assert "source: agieval-aqua-rat: 10" in rows["question attributes"]
    assert "ignored_columns: answer" in html  # what the loader left out
    text = check_repr(data, lines=1)
    assert text == ("Outcomes('jhu_llm_temperature': 9 models × 100 questions × 100 trials; "
                    "categories wrong=0, correct=1; R0 10 per question; signals api_error, "
                    "attempt, response_chars, temperature; attributes source)")
    bench = sc.load("data/reasoning_synthetic.npz")
    assert "benchmarks AIME'24, AIME'25, HMMT'25, BrUMO'25" in repr(bench)
    assert dict(parse(bench._repr_html_()).tables[0]["rows"])["benchmarks"] == (
        "AIME'24, AIME'25, HMMT'25, BrUMO'25")


SETTINGS = {
    "leaderboard": {"confidence": 0.9, "ks": (2,)},
    "compare": {"methods": "bayes,avg,borda"},
    "convergence": {"methods": "bayes,pass_at_k_2", "replicates": 100, "curve_replicates": 10},
    "stability": {"methods": "bayes,avg,borda"},
    "greedy": {"replicates": 5},
    "rubric": {"schemes": ("ranking/conservative",)},
    "plan": {"budget_trials": 20, "n_max": 16, "sims": 200},
    "pair": {"top": 10},
    "questions": {"top": 5, "irt": False},
    "curves": {"tau": 0.5},
    "check": {"reps": 20, "questions": 15, "draws": 500},
}


@pytest.mark.parametrize("aid", list(ANALYSES))
def test_every_definition_result_displays_its_main_table(aid, aime):
    a = ANALYSES[aid]
    result = a(aime, **SETTINGS[aid])
    html = result._repr_html_()
    p = parse(html)
    name = type(result).main_table
    # the main table as the report prints it: its view's rows, its columns with a value
    main, notes = display.readable(a.shown_tables(result)[name])
    # in the report's parts where it is wider than a page (the Pass@k summary at N = 80)
    parts = display.column_parts(main)
    assert len(p.tables) == len(parts)
    for i, part in enumerate(parts):
        assert p.tables[i]["caption"] == (name if len(parts) == 1 else
                                          f"{name} · {display.part_text(parts, i)}")
        check_table(p.tables[i], part, f"{aid} part {i + 1}")
    assert all(_html_escape(n) in html for n in notes)
    # its columns explained under it, in the definition's one declaration
    assert display.legend_html(main.columns, a.column_help(name)) in html
    legend = display.legend_text(main.columns, a.column_help(name))
    assert p.svgs == 1  # the main chart
    # the caption names the data and every setting (what was used, for placeholders)
    text = unescape(html)
    assert "Reasoning benchmarks (synthetic) [AIME'25]: 20 models × 30 questions" in text
    for f in fields(a.params):
        assert f"{f.name} = " in text, f.name
    if aid == "plan":
        assert "budget_trials = 20" in text and "(the first undecided pair)" in text
    if aid == "leaderboard":
        assert "weights = 0, 1 (the data's)" in text and "confidence = 0.9 " in text
    if aid == "check":  # the placeholders as this run resolved them
        assert "trials = 4 ·" in text and "models = 20 (all)" in text
    others = [k for k in result.tables() if k != name]
    assert all(k in html for k in others)  # the other tables are named
    # the report's rows, in the report's parts when wide (each part its rows and its line)
    caveats = a.caveats(aime, result._about.params, result)  # the report's, one definition
    assert result.caveats == caveats and caveats
    text = check_repr(result, lines=len(parts) * (min(len(main), display.MAX_ROWS) + 3) + 10
                      + len(caveats) + 1 + len(legend))
    assert text.startswith(f"<{type(result).__name__}: {a.title}")
    assert all(n in text for n in notes)
    assert "\n".join(legend) in text  # a terminal reads the same legend
    assert text.endswith("\n".join(["Caveats:", *(f"- {c}" for c in caveats)]))
    if len(parts) > 1:  # a terminal wraps a 46-column row into unreadable lines
        assert all(display.part_text(parts, i) in text for i in range(len(parts)))


def test_a_result_displays_the_rows_and_line_the_report_prints():
    """``sc.ANALYSES["questions"](data)`` on 120 pooled questions displayed the first 40
    rows of the whole table: the easiest third, none of the hard questions the report
    prints. A result's display shows its main table's view -- the report's rows, cell for
    cell, and its line on the rest -- in HTML and in its text repr; ``tables()`` keeps
    every row."""
    from scorio_core.report import build_report, to_html

    data = sc.load("data/reasoning_synthetic.npz")
    qv = ANALYSES["questions"]
    result = qv(data, irt=False)
    view = qv.shown_tables(result)["questions"]
    assert len(result.tables()["questions"]) == 120 and len(view.table) == 40
    html = result._repr_html_()
    shown = parse(html).tables[0]
    page = to_html(build_report(data, [("questions", {"irt": False})]))
    printed = parse(page.split("<h3>questions</h3>", 1)[1]).tables[0]
    assert shown["head"] == printed["head"] and shown["rows"] == printed["rows"]
    assert [r[0] for r in shown["rows"]] == view.table["question"].tolist()
    assert "HMMT'25-01" in view.table["question"].tolist()  # the hardest, printed
    assert _html_escape(view.note) in html and _html_escape(view.note) in page
    assert "more rows" not in html  # the view is the whole of what is shown
    text = repr(result).splitlines()
    assert text[1] == "questions (120 rows, 40 shown):"
    assert [line.split()[0] for line in text[3:43]] == view.table["question"].tolist()
    assert text[43] == view.note


def _cell_shows(analysis, params, data):
    """What a report notebook's cell of ``analysis`` ends by displaying: the cell's code
    (:attr:`~scorio_core.definitions.Analysis.to_code`) run as the kernel runs it, then the
    object its last line displays (``sc.display.show`` displays ``as_table``'s)."""
    body, last = analysis.to_code(params, "data").rsplit("\n", 1)
    ns = {"data": data}
    exec(body, ns)
    return eval(last.replace("sc.display.show(", "sc.display.as_table("), ns)


def test_a_plan_result_and_its_notebook_cell_list_the_pair_notes_under_the_table(aime):
    """``sc.ANALYSES["plan"](data)`` and the report notebook's plan cell showed the pairs
    table with its ``note`` column of sentences, while the Planner page and a Plan's own
    display list the notes under the table: now each says them under it, one line per
    note naming its pairs (``planner.pair_notes``); ``tables()`` keeps the column."""
    from scorio_core.planner import pair_notes

    a = ANALYSES["plan"]
    result = a(aime, **SETTINGS["plan"])
    pairs = result.tables()["pairs"]
    assert "note" in pairs
    lines = [f"{who}: {note}" for who, note in pair_notes(pairs)]
    assert len(lines) >= 2  # tied scores and the papers' rule met now, on these data
    html = result._repr_html_()
    main = parse(html).tables[0]
    assert "note" not in main["head"] and main["head"][:2] == ["better", "next"]
    # (p_unsettled, a population-scope number, is blank in the questions scope: named)
    check_table(main, pairs.drop(columns="note").dropna(axis=1, how="all"), "plan pairs")
    said = re.findall(r'<p class="note">(.*?)</p>', html, flags=re.S)
    assert [unescape(n) for n in said[:len(lines)]] == lines  # right under the table
    text = repr(result)
    assert all(text.count(line) == 1 for line in lines)
    # the report notebook's cell ends on the same table and the same lines
    shown = _cell_shows(a, a.params(**SETTINGS["plan"]), aime)
    cell = parse(shown._repr_html_())
    assert cell.tables[0]["head"] == main["head"] and cell.tables[0]["rows"] == main["rows"]
    assert [unescape(n) for n in re.findall(r'<p class="note">(.*?)</p>',
                                            shown._repr_html_(), flags=re.S)][:len(lines)] == lines


def _printed(page: str, name: str) -> tuple[list[tuple[list[str], list[list[str]]]], str]:
    """The HTML report's table ``name``: each part's header and rows, and its text."""
    section = page.split(f"<h3>{name}</h3>", 1)[1].split("<h3>", 1)[0].split("</section>")[0]
    return [(t["head"], t["rows"]) for t in parse(section).tables], section


def test_a_wide_table_shows_in_the_reports_parts_in_a_notebook_and_in_a_result(aime):
    """The Pass@k summary (a row per model; value, lo and hi per curve and k: 46 columns at
    N = 80) is printed by the report in parts of at most PART_COLUMNS columns, each
    repeating the model; the report notebook's cell showed it as one 46-column table that
    scrolls sideways. The notebook cell's display and the result's own show the report's
    parts -- the same headers and cells, in the same order -- each saying which part it is,
    and the line under it."""
    from scorio_core.report import build_report, to_html

    cv = ANALYSES["curves"]
    params = cv.params()
    printed, section = _printed(to_html(build_report(aime, [("curves", params)])), "summary")
    view = cv.shown_tables(cv.run(aime, params))["summary"]
    parts = display.column_parts(view.table)
    assert view.table.shape[1] > display.WIDE_COLUMNS and len(printed) == len(parts) >= 3
    assert all(len(head) <= display.PART_COLUMNS + 1 and head[0] == "model"
               for head, _ in printed)
    lines = [display.part_text(parts, i) for i in range(len(parts))]
    assert all(_html_escape(t) in section for t in lines)  # the report's line above each part
    for where, shown in (("notebook", _cell_shows(cv, params, aime)),
                         ("result", cv(aime, params))):
        html = shown._repr_html_()
        tables = parse(html).tables
        assert [(t["head"], t["rows"]) for t in tables] == printed, where
        assert [t["caption"].rsplit(" · ", 1)[-1] for t in tables] == lines, where
        assert _html_escape(view.note) in html and _html_escape(view.note) in section, where


def test_a_notebook_shows_the_agreement_rows_the_report_prints():
    """With more methods than compare.LONG, the report's 'agreement' lists only the methods
    that do not rank exactly as the gold standard, with one line naming those left out; the
    notebook's cell showed every method (rows of τ_b = 1.0000, and its first 60 only). It
    shows the report's view now -- one definition, agreement_view -- the same rows and line."""
    from scorio_core.definitions.compare import LONG, agreement_view
    from scorio_core.report import build_report, to_html

    rng = np.random.default_rng(3)
    p = np.linspace(0.85, 0.3, 6)[:, None, None] * rng.beta(4, 2, (1, 20, 1))
    data = sc.Outcomes((rng.random((6, 20, 8)) < p).astype(int),
                       models=[f"model_{i}" for i in range(6)], name="wide")
    cmp = ANALYSES["compare"]
    params = cmp.params()  # every registered method
    report = build_report(data, [("compare", params)])
    agreement = report.sections[0].tables["agreement"]
    exact = agreement["exact"].astype(bool)
    assert len(agreement) > LONG and 0 < exact.sum() < len(agreement)
    printed, section = _printed(to_html(report), "agreement")
    view = agreement_view(agreement)
    said = report.sections[0].shown["agreement"]  # the report's view is this one
    assert view is not None and said.table.equals(view.table) and said.note == view.note
    shown = _cell_shows(cmp, params, data)
    html = shown._repr_html_()
    assert [(t["head"], t["rows"]) for t in parse(html).tables] == printed
    assert [r[0] for r in printed[0][1]] == agreement.loc[~exact, "method"].tolist()
    assert _html_escape(view.note) in html and _html_escape(view.note) in section
    assert shown.table.equals(view.table)
    # a short comparison is shown whole, as the report prints it
    assert agreement_view(agreement.head(LONG)) is None


def test_a_result_made_by_run_still_displays(aime):
    a = ANALYSES["stability"]
    result = a.run(aime, a.params(methods="bayes,avg"))
    assert "settings and caveats not recorded" in result._repr_html_()
    assert result.caveats == []  # made without the data's label: none recorded, and said so
    check_table(parse(result._repr_html_()).tables[0],
                display.readable(result.tables()["classes_gold"])[0], "run")


@pytest.mark.parametrize("sid", ["order", "calibration", "prior-depth", "rubric-lesson"])
def test_simulation_results_display(sid):
    small = {"order": {"sims": 200}, "calibration": {"replicates": 20, "M_values": (10,)},
             "prior-depth": {"replicates": 5}, "rubric-lesson": {}}[sid]
    result = SIMULATIONS[sid](None, **small)
    p = parse(result._repr_html_())
    name, main = next(iter(result.tables().items()))
    shown = display.readable(main)[0]
    check_table(p.tables[0], shown, sid)
    assert p.svgs == 1
    legend = display.legend_text(shown.columns, SIMULATIONS[sid].column_help(name))
    assert legend and "\n".join(legend) in check_repr(result,
                                                      lines=display.MAX_ROWS + 10 + len(legend))


def test_known_truth_curves_display():
    mim = sc.simulate.mimics(sc.simulate.PAPER_COINS, 10, seed=0)
    curves = sc.truth_convergence(mim, ["bayes", "avg"], N=6, replicates=10, seed=1)
    p = parse(curves._repr_html_())
    s = curves.summary
    check_table(p.tables[0], s[s["n"] == 6].reset_index(drop=True), "curves")
    assert p.svgs == 1
    assert check_repr(curves).startswith("<Curves: target truth")


def test_charts_can_be_turned_off(monkeypatch, aime):
    monkeypatch.setattr(display, "CHARTS", False)
    assert parse(sc.leaderboard(aime, draws=500)._repr_html_()).svgs == 0


def test_long_tables_are_cut_with_a_count():
    df = pd.DataFrame({"n": range(display.MAX_ROWS + 5)})
    p = parse(display.html_table(df))
    assert p.tables[0]["rows"][-1] == ["… 5 more rows"]
    check_table(p.tables[0], df, "long")


def test_show_prints_a_table_as_the_report_does_and_keeps_the_frame():
    """A report notebook's cells end with ``sc.display.show(table)``, which displays
    ``as_table(table)``: missing as —, counts
    whole, one format per column, a column with no value named in a line -- the frame itself
    stays as it was, for computing with."""
    from scorio_core.report._build import readable
    from scorio_core.report.html import _grid

    t = pd.DataFrame({"better": ["a", "b"], "trials_needed": [425.0, float("inf")],
                      "p_best": [0.912345, float("nan")], "p_unsettled": [float("nan")] * 2})
    shown = sc.display.as_table(t)
    assert shown.table is t and t["trials_needed"].iloc[0] == 425.0
    html = shown._repr_html_()
    p = parse(html)
    assert p.tables[0]["head"] == ["better", "trials_needed", "p_best"]
    assert p.tables[0]["rows"] == [["a", "425", "0.912"], ["b", "∞", "—"]]
    assert "Not shown, no value in any row: p_unsettled." in html
    assert "NaN" not in html and "425.0" not in html
    printed = parse(_grid(readable(t)[0])).tables[0]
    assert printed["head"] == p.tables[0]["head"] and printed["rows"] == p.tables[0]["rows"]
    assert repr(shown).splitlines() == [
        "better  trials_needed  p_best",
        "a                 425   0.912",
        "b                   ∞       —",
        "Not shown, no value in any row: p_unsettled.",
    ]


def test_show_prints_several_tables_one_under_another_each_with_its_line():
    """A report notebook's cell may end on two of its section's tables (the pair's summary,
    then the question's own texts): ``show(a, b)`` prints each as the report does, each line
    under its own table; a view that does not apply (``None``) prints nothing; ``table``
    stays the first frame."""
    from scorio_core.definitions import TableView

    first = pd.DataFrame({"scope": ["questions"], "diff": [0.25]})
    second = TableView(pd.DataFrame({"question": ["q0"], "input": ["2 + 2?"]}), "input: whole.")
    shown = sc.display.as_table(first, None, second, note="diff = a − b.")
    assert shown.table is first
    html = shown._repr_html_()
    p = parse(html)
    assert [(t["head"], t["rows"]) for t in p.tables] == [
        (["scope", "diff"], [["questions", "0.2500"]]),
        (["question", "input"], [["q0", "2 + 2?"]])]
    assert html.index("diff = a − b.") < html.index("<table>", html.index("0.2500")) \
        < html.index("input: whole.")
    assert repr(shown).splitlines() == ["scope        diff", "questions  0.2500", "diff = a − b.",
                                        "", "question  input", "q0        2 + 2?",
                                        "input: whole."]
    assert len(parse(sc.display.as_table(first, None)._repr_html_()).tables) == 1


def test_a_column_keeps_its_format_however_many_rows_are_shown():
    """The notebook shows the report's rows (PRINTED_ROWS, one number): a column's one
    format comes from all its values, so the rows both show print alike (a value >= 10 past
    the rows shown takes a decimal off the whole column)."""
    from scorio_core.definitions import PRINTED_ROWS
    from scorio_core.report.html import MAX_ROWS, _grid

    assert display.MAX_ROWS == MAX_ROWS == PRINTED_ROWS
    values = [0.25] * (display.MAX_ROWS + 10)
    values[-1] = 12.5
    df = pd.DataFrame({"model": [f"m{i}" for i in range(len(values))], "gap": values})
    notebook = parse(sc.display.as_table(df)._repr_html_()).tables[0]["rows"][:-1]  # … more rows
    report = parse(_grid(df)).tables[0]["rows"]
    assert len(notebook) == len(report) == display.MAX_ROWS
    assert notebook == report and notebook[0] == ["m0", "0.250"]
    from scorio_core.formatting import markdown_table, text_table

    assert "| m0 | 0.250 |" in markdown_table(df, max_rows=5)
    assert text_table(df, max_rows=5).splitlines()[1].endswith("0.250")


def test_text_cells_keep_their_line_breaks_as_the_report_does():
    """A multiple-choice question's input and a model's output over lines ran into one line
    in a notebook's display (HTML collapses a newline): a text cell breaks its lines
    (``<br>``, after escaping) as the HTML report does (display.text_cell, one rule); a
    number stays one token, and a cell whose lines are short stays unwrapped."""
    import re

    from scorio_core.report.html import _grid

    mcq = "Is 70 even or odd?\nA. Even\nB. Odd\nAnswer:"
    out = ("Step 1: 70 = 2 × 35, so 70 is even and the answer is A.\r\n"
           "Step 2: check <b>B</b>.\n")
    df = pd.DataFrame({"question": ["id60", "id61"], "input": [mcq, "Is 71 even?"],
                       "output": [out, "B"], "score": [0.5, 1.0]})
    page = sc.display.as_table(df)._repr_html_()
    cells = re.findall(r'<td class="([^"]*)">(.*?)</td>', page, re.S)
    assert cells[1] == ("txt", "Is 70 even or odd?<br>A. Even<br>B. Odd<br>Answer:")
    assert cells[2] == ("txt", "Step 1: 70 = 2 × 35, so 70 is even and the answer is A.<br>"
                               "Step 2: check &lt;b&gt;B&lt;/b&gt;.")  # escaped, no end break
    assert cells[3] == ("num", "0.5000") and cells[5] == ("txt", "Is 71 even?")
    # the report's cells: the same lines, the same rule
    report = re.findall(r"<td[^>]*>(.*?)</td>", _grid(df))
    assert [report[1], report[2]] == [cells[1][1], cells[2][1]]
    # a line longer than 60 characters may wrap (td.wrap); lines run together do not count
    long = display.html_table(pd.DataFrame({"t": [mcq * 2, "x" * 61 + "\nshort"]}))
    assert re.findall(r'<td class="([^"]*)">', long) == ["txt", "txt wrap"]


def test_a_texts_lines_stay_in_their_column_in_a_text_table():
    """A multi-line text cell (a question with its choices) printed its line breaks raw in a
    result's text repr: its second line started at the left margin and the row's numbers
    followed the last line. Each line now sits in the cell's column, the numbers on the
    first line, as the HTML report's ``<br>``."""
    from scorio_core.formatting import text_table

    df = pd.DataFrame({"model": ["a", "b"], "input": ["Is 70 even?\nA. Even\r\nB. Odd\n",
                                                      "short"], "score": [1.0, 0.5]})
    lines = text_table(df).splitlines()
    assert lines == ["model  input         score", "a      Is 70 even?  1.0000",
                     "       A. Even", "       B. Odd", "b      short        0.5000"]
    assert "B. Odd" in repr(display.as_table(df)).splitlines()[3]


def test_a_notebook_table_breaks_its_headers_after_underscores_as_the_report_does(coins):
    """``sc.plan(...)._repr_html_()`` ran its pairs table past a notebook's output area (its
    ``note`` column cut at the edge): a number column was as wide as its name
    (``trials_needed_papers``). Headers now may break after an underscore, as the HTML
    report's do, and the notebook's header cells wrap."""
    planned = sc.plan(coins, budget_trials=40, draws=2000)
    html = planned._repr_html_()
    heads = re.findall(r"<th[^>]*>(.*?)</th>", html)
    assert "trials_<wbr>needed_<wbr>papers" in heads
    assert all("_" not in h.replace("_<wbr>", "") for h in heads)  # every underscore breaks
    style = html[:html.index("</style>")]
    assert re.search(r"\.scorio-result th\.num,\.scorio-result th\.txt\{white-space:normal", style)
    p = parse(html)
    assert p.tables[0]["head"][-1] == "trials_needed_papers"  # the text unchanged


def test_a_plans_notes_are_listed_under_its_pairs_table_keyed_to_their_rows(coins):
    """With a long note (a pair whose papers' rule reads "met now") the pairs table's
    ``note`` column still ran the display 60 px past a classic notebook's 860 px output
    area (tests/app/test_report_browser.py measures it). The notes are listed under the
    table, as the Planner page lists them, each naming its pairs by ``better vs next``;
    pairs that share a note share its line; ``p.pairs`` keeps the column."""
    from scorio_core.planner import pair_notes

    planned = sc.plan(coins, budget_trials=40, draws=2000)
    pairs = planned.pairs
    noted = pairs[pairs["note"] != ""]
    assert len(noted) >= 1 and noted["note"].str.len().max() > 150  # a long note to place
    html = planned._repr_html_()
    p = parse(html)
    assert "note" not in p.tables[0]["head"]
    # between the pairs table and the next one: one line per note, naming its rows
    between = html[html.index("</table>"):html.index("<table>", html.index("</table>"))]
    lines = [unescape(x) for x in re.findall(r'<p class="note">(.*?)</p>', between)]
    # and, as the report says under its pairs, the column with no value in any row
    assert lines.pop() == "Not shown, no value in any row: p_unsettled."
    rows = {f"{b} vs {n}": note for b, n, note in zip(pairs["better"], pairs["next"],
                                                       pairs["note"], strict=True)}
    said = {}
    for line in lines:
        who, note = line.split(": ", 1)
        said |= dict.fromkeys(who.split(", "), note)
    assert said == {k: v for k, v in rows.items() if v}
    # the page lists the same lines: it shows the definition's view (tests/app/test_planner_page)
    assert [f"{w}: {n}" for w, n in pair_notes(pairs)] == lines
    two = pd.DataFrame({"better": ["a", "b", "c"], "next": ["b", "c", "d"],
                        "note": ["x", "", "x"]})
    assert pair_notes(two) == [("a vs b, c vs d", "x")]


# --------------------------------------------------------------- every public sc.* result
def _small(seed: int = 0) -> sc.Outcomes:
    """Six close models on 40 questions with 3 trials: nothing converges, most pairs stay
    undecided (the audit's own CSV, in numbers)."""
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 6, (1, 40, 1)) + np.linspace(0, 0.05, 6)[:, None, None]
    R = rng.binomial(1, np.clip(p, 0, 1), (6, 40, 3))
    return sc.Outcomes(R, models=[f"m{i}" for i in range(6)], name="small")


def _with_source(data: sc.Outcomes) -> sc.Outcomes:
    """``data`` with a question attribute ``source`` of two values (20 questions each)."""
    from dataclasses import replace

    return replace(data, question_attributes={"source": ["a", "b"] * (data.M // 2)})


def _greedy_data() -> sc.Outcomes:
    rng = np.random.default_rng(1)
    return sc.Outcomes(rng.integers(0, 2, (4, 20, 6)), R0=rng.integers(0, 2, (4, 20, 1)),
                       models=list("abcd"), name="greedy")


def _saved_prior():
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "prior.json"
    sc.fit_spread_prior([_small(s) for s in range(10)]).save(path)
    return path


#: Every public name of ``sc`` that gives a result, with a small call of it and what its
#: display must say of the settings (the call's own, defaults included) and the scope.
RESULTS = {
    "load": (lambda d: sc.load("data/biased_coins.npz"), ["11 models × 30 questions"]),
    "leaderboard": (lambda d: sc.leaderboard(d, draws=500, seed=3),
                    ["questions scope", "draws = 500", "seed = 3"]),
    "plan": (lambda d: sc.plan(d, budget_trials=6, draws=500),
             ["budget 6 extra trials", "draws 500"]),
    "by_subset": (lambda d: sc.by_subset(_with_source(d), "source", draws=200, seed=5),
                  ["Leaderboard per subset", "2 subsets by source", "questions scope",
                   "draws = 200", "seed = 5", "small: 6 models × 40 questions"]),
    "fit_spread_prior": (lambda d: sc.fit_spread_prior([_small(s) for s in range(10)]),
                         ["learned from 10 earlier fields"]),
    "load_spread_prior": (lambda d: sc.load_spread_prior(_saved_prior()),
                          ["learned from 10 earlier fields"]),
    "question_stats": (lambda d: sc.question_stats(d),
                       ["6 models × 40 questions", "2PL fit"]),
    "pass_curves": (lambda d: sc.pass_curves(d, confidence=0.9),
                    ["questions scope", "90% intervals"]),
    "check_smaller_run": (lambda d: sc.check_smaller_run(
        sc.Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 16)), name="big"), 4,
        reps=10, draws=200, seed=2), ["smaller runs", "draws = 200", "seed = 2"]),
    "compare": (lambda d: sc.compare(d, methods="bayes,avg,borda"),
                ["methods = bayes,avg,borda", "small: 6 models"]),
    "convergence": (lambda d: sc.convergence(d, methods="bayes,avg", replicates=50,
                                             curve_replicates=10),
                    ["replicates = 50", "target = gold"]),
    "stability": (lambda d: sc.stability(d, methods="bayes,avg"), ["methods = bayes,avg"]),
    "greedy": (lambda d: sc.greedy(_greedy_data(), replicates=3), ["replicates = 3"]),
    "pair": (lambda d: sc.pair(d, a="m1", b="m0", confidence=0.9),
             ["a = m1", "b = m0", "confidence = 0.9", "small: 6 models"]),
    "questions": (lambda d: sc.questions(d, top=7), ["top = 7", "small: 6 models"]),
    "run_methods": (lambda d: sc.run_methods(d.R, None, ["bayes", "avg"], d.models),
                    ["methods = bayes, avg", "6 models × 40 questions"]),
    "convergence_at_n": (lambda d: sc.convergence_at_n(d.R, None, ["bayes"], replicates=20,
                                                       seed=4),
                         ["replicates = 20", "seed = 4", "match = exact"]),
    "convergence_curves": (lambda d: sc.convergence_curves(d.R, None, ["bayes"],
                                                           replicates=10, seed=5),
                           ["10 replicates", "seed = 5", "target gold"]),
    "low_budget_stability": (lambda d: sc.low_budget_stability(d.R, None, ["bayes", "avg"]),
                             ["methods = bayes, avg"]),
    "greedy_vs_sampling": (lambda d: sc.greedy_vs_sampling(
        _greedy_data().R, _greedy_data().R0, replicates=3, seed=6),
        ["replicates = 3", "seed = 6"]),
    "greedy_by_benchmark": (lambda d: sc.greedy_by_benchmark(_greedy_data(), replicates=3),
                            ["replicates = 3", "greedy: 4 models"]),
    "truth_convergence": (lambda d: sc.truth_convergence(
        sc.simulate.mimics(sc.simulate.PAPER_COINS, 10, seed=0), ["bayes", "avg"], N=6,
        replicates=10, seed=1), ["mimics: 11 models × 10 questions", "N = 6", "seed = 1"]),
    "prior_depth": (lambda d: sc.prior_depth(replicates=5, updates=50, seed=7),
                    ["replicates = 5", "updates = 50", "seed = 7"]),
    "correct_order": (lambda d: sc.correct_order(0.7, 0.6, n_values=(10, 20), n_sims=100,
                                                 seed=8),
                      ["upper = 0.7", "lower = 0.6", "n_sims = 100", "seed = 8",
                       "concentration = 8"]),  # the order study's default spread
    "interval_coverage": (lambda d: sc.interval_coverage((0.6,), M_values=(10,),
                                                         N_values=(2,), replicates=20,
                                                         seed=9),
                          ["means = 0.6", "replicates = 20", "seed = 9",
                           "concentration = 2"]),
    "rubric_lesson": (lambda d: sc.rubric_lesson(((0, 1, 2), (2, 2, 1)), (0, 0.25, 1)),
                      ["R = [0, 1, 2], [2, 2, 1]", "w = 0, 0.25, 1"]),
    "build_report": (lambda d: sc.build_report(d, ["leaderboard"]),
                     ["small: 6 models × 40 questions × 3 trials", "1 section"]),
}

#: The other public names, and why each is not a result that displays itself.
NOT_RESULTS = {
    "COMBINED": "a constant", "Outcomes": "a class (sc.load gives one)",
    "ValidationError": "an exception", "Leaderboard": "a class", "SpreadPrior": "a class",
    "io": "a module", "planner": "a module", "rank": "a module (rankers return arrays)",
    "simulate": "a module", "rubric": "a module", "charts": "a module (Altair charts)",
    "export": "a module", "formatting": "a module", "display": "a module",
    "ANALYSES": "the registry of definitions", "SIMULATIONS": "the registry of studies",
    "report": "writes a file (sc.report(data, path)) and returns its path",
    "make_report": "writes a file and returns its path",
    "show": "displays a table (tested above)",
    **dict.fromkeys(
        ("bayes", "bayes_ci", "avg", "avg_ci", "pass_at_k", "pass_at_k_ci", "pass_hat_k",
         "pass_hat_k_ci", "g_pass_at_k_tau", "g_pass_at_k_tau_ci", "mg_pass_at_k",
         "mg_pass_at_k_ci"), "a metric: numbers (arrays) to compute with"),
}


def test_every_public_name_is_a_result_that_displays_itself_or_says_why_not():
    assert set(RESULTS) | set(NOT_RESULTS) == set(sc.__all__)
    assert not set(RESULTS) & set(NOT_RESULTS)


_NUMBER = re.compile(r"^[−-]?[\d,]*\.?\d+$")
_SVG = re.compile(r"<svg.*?</svg>", re.S)


def check_one_format_per_column(parsed: _Tables, where: str) -> None:
    """Each number column of each table shows its numbers with one number of decimals, and
    none in scientific notation or with a float's full digits."""
    for t in parsed.tables:
        for j, cls in enumerate(t["classes"]):
            cells = [row[j] for row in t["rows"] if len(row) == len(t["classes"])]
            assert not any(re.search(r"\d[eE][-+]\d|\d\.\d{6,}", c) for c in cells), (where, cells)
            if cls == "num":
                plain = [c for c in cells if _NUMBER.match(c)]
                decimals = {len(c.split(".")[1]) if "." in c else 0 for c in plain}
                assert len(decimals) <= 1, (where, t["head"][j], plain)


@pytest.fixture(scope="module")
def small():
    return _small()


@pytest.mark.parametrize("name", list(RESULTS))
def test_every_public_result_displays_its_settings_scope_and_formatted_tables(name, small):
    make, said = RESULTS[name]
    result = make(small)
    html = result._repr_html_()
    text = repr(result)
    if hasattr(result, "_repr_mimebundle_"):  # else Jupyter reads _repr_html_ and repr
        bundle = result._repr_mimebundle_()  # (a chart's SVG ids differ between drawings)
        assert (_SVG.sub("", bundle["text/html"]), bundle["text/plain"]) == (
            _SVG.sub("", html), text)
    shown = unescape(_SVG.sub("", html))
    for words in said:  # the settings and the scope, in the display and the text alike
        assert words in shown, (words, shown[:600])
        assert words in text, (words, text[:600])
    assert "settings not recorded" not in shown  # the call's own, not a definition's run()
    assert not re.match(r"\w+\(\w+=", text), text[:300]  # not a dataclass's dump
    assert not re.search(r"\d[eE][-+]\d|\d\.\d{6,}", text), text  # no raw floats
    p = parse(html)
    assert p.tables, name
    check_one_format_per_column(p, name)
    if isinstance(result, display.Displayed):  # each table as the report prints one
        for i, (_, table) in enumerate(result._view().tables):
            check_table(p.tables[i], display.readable(table)[0], f"{name} table {i}")


def test_an_analysis_result_lists_the_caveats_of_its_report_section(small):
    """sc.convergence on data where nothing converges showed "no_convergence 1.000" with no
    why and nothing to change, while the report's section had four caveats saying both."""
    conv = sc.convergence(small, methods="bayes,avg", replicates=100)
    assert conv.tables()["summary"]["no_convergence"].tolist() == [1.0, 1.0]
    section = sc.build_report(small, [("convergence", {"methods": "bayes,avg",
                                                        "replicates": 100})]).sections[0]
    assert conv.caveats == section.caveats  # the one definition's, for the same run
    assert any(c.startswith("What to change:") for c in conv.caveats)
    assert listed_caveats(conv._repr_html_()) == [
        re.sub(r"`([^`]+)`", r"<code>\1</code>", c) for c in conv.caveats]
    assert repr(conv).endswith("\n".join(f"- {c}" for c in conv.caveats))
    # the same for every analysis the audit named: questions, pair, curves, stability
    for aid in ("questions", "pair", "curves", "stability"):
        result = ANALYSES[aid](small, **({"methods": "bayes,avg"} if aid == "stability"
                                          else {}))
        caveats = ANALYSES[aid].caveats(small, result._about.params, result)
        assert result.caveats == caveats and caveats, aid
        assert listed_caveats(result._repr_html_()) == [
            re.sub(r"`([^`]+)`", r"<code>\1</code>", c) for c in caveats], aid


def listed_caveats(html: str) -> list[str]:
    """The caveats a display lists, each as its HTML (unescaped)."""
    listed = re.search(r'<div class="note caveats"><b>Caveats</b><ul>(.*?)</ul></div>', html)
    return [unescape(li) for li in re.findall(r"<li>(.*?)</li>", listed.group(1))]


def test_a_result_keeps_caveats_not_its_data(small):
    """The caveats are written when the result is made: the result holds a few sentences and
    plain settings (it pickles, for a cache or a worker), not the data."""
    import pickle

    conv = sc.convergence(small, methods="bayes", replicates=20, curve_replicates=5)
    about = conv._about
    assert all(not isinstance(v, sc.Outcomes) for v in vars(about).values())
    again = pickle.loads(pickle.dumps(conv))
    assert again.caveats == conv.caveats
    assert _SVG.sub("", again._repr_html_()) == _SVG.sub("", conv._repr_html_())
    order = sc.correct_order(0.7, 0.6, M=20, n_values=(10,), n_sims=100)
    assert pickle.loads(pickle.dumps(order)).caveats == order.caveats


def test_a_studys_call_shows_its_own_settings_and_the_studys_caveats():
    """sc.correct_order(...) rendered "run with the definition's run(); settings not
    recorded" and no upper/lower, κ, seed or datasets; its caveats come from the study's one
    definition, with the call's settings (its 20 questions, not the page's 30)."""
    order = sc.correct_order(0.7, 0.6, M=20, concentration=5.0, n_values=(10, 20),
                             n_sims=300, seed=11)
    study = SIMULATIONS["order"]
    p = study.params(upper=0.7, lower=0.6, concentration=5.0, sims=300, seed=11)
    assert order.caveats == study.caveats(None, p, order)
    assert "on 20 questions (κ = 5)" in order.caveats[0]
    assert "300 simulated datasets per N (seed 11)" in order.caveats[1]
    head = repr(order).splitlines()[0]
    assert head == ("<CorrectOrder: Probability of the correct order · upper = 0.7 · "
                    "lower = 0.6 · M = 20 · concentration = 5 · n_values = 10, 20 · "
                    "n_sims = 300 · thresholds = 1.645, 1.96 · predict_from = 80 · seed = 11>")
    # a seed the study's settings cannot hold: the call's settings, and no caveats made up
    rng_call = sc.correct_order(0.7, 0.6, n_values=(10,), n_sims=100,
                                seed=np.random.default_rng(0))
    assert rng_call.caveats == [] and "seed = Generator(PCG64)" in repr(rng_call)
    # the same study through its definition: the definition's settings
    run = study(None, sims=300, seed=11)
    assert "sims = 300" in unescape(run._repr_html_()) and run.caveats


def test_the_leaderboard_says_what_its_columns_hold(small):
    """t_next, se and the papers' trials rule were shown without a meaning anywhere in the
    notebook: each header has its meaning (the app's column help) as a tooltip, and the
    columns whose name does not say it are explained under the table -- the Pass@k columns
    in one line, by their declared template."""
    from scorio_core.leaderboard import COLUMN_HELP

    board = sc.leaderboard(small, draws=500, ks=[1, 2])
    html = board._repr_html_()
    t = parse(html).tables[0]
    said = display.column_meanings(board.table.columns, COLUMN_HELP)  # pass@k: its template
    assert dict(zip(t["head"], t["titles"], strict=True)) == {
        c: said.get(c) for c in board.table.columns}
    assert said["pass@2"].startswith("Pass@2: chance that at least one of 2 trials")
    legend = re.search(r'<p class="note legend"><b>Columns:</b><br>(.*?)</p>', html).group(1)
    named = [unescape(c) for c in re.findall(r"<code>([^<]+)</code>", legend)]
    pass_at = [c for c in board.table.columns if c.startswith("pass@")]
    assert named == [c if c not in pass_at else "pass@<k>" for c in board.table.columns
                     if c in said and c not in display.PLAIN_COLUMNS and c != pass_at[1]]
    assert unescape(legend).split("<br>")[named.index("pass@<k>")] == (
        "<code>pass@<k></code> " + COLUMN_HELP["pass@{k}"].replace("{k}", "k"))
    assert {"se", "t_next", "trials_needed_papers", "rank", "p_best"} <= set(named)
    assert not {"model", "score"} & set(named)
    assert unescape(legend).split("<br>")[named.index("t_next")] == (
        f"<code>t_next</code> {COLUMN_HELP['t_next']}")
    # the definition's result (sc.ANALYSES["leaderboard"]) says the same
    result = ANALYSES["leaderboard"](small, draws=500, ks=[1, 2])
    assert legend in result._repr_html_()
    # and a table whose columns are not declared has none
    assert 'class="note legend"' not in display.result_html("t", "", [("", board.table)])


def test_show_displays_mid_cell_and_in_a_script_and_returns_none(capsys, monkeypatch):
    """``sc.show(x)`` only returned an object: called mid-cell (as the README's tour does)
    or in a script it showed nothing. It now displays where it runs -- IPython's ``display``
    of the shown table in Jupyter, its text on stdout in a script -- and returns ``None``, so
    a cell that ends with it shows it once."""

    t = pd.DataFrame({"model": ["a", "b"], "trials_needed": [425.0, float("inf")]})
    assert sc.show(t) is None  # a script: printed, as the report prints it
    assert capsys.readouterr().out.splitlines() == [
        "model  trials_needed", "a                425", "b                  ∞"]
    shown = _fake_ipython(monkeypatch)  # under IPython: one display call with the object
    assert sc.show(t, note="two plans.") is None
    assert capsys.readouterr().out == ""
    (obj,) = shown
    assert obj.table is t and "<td class=\"num\">∞</td>" in obj._repr_html_()
    assert "two plans." in obj._repr_html_()


def _fake_ipython(monkeypatch) -> list:
    """An IPython kernel as ``sc.show`` sees one: ``get_ipython()`` answers and
    ``IPython.display.display`` appends what it is given to the list returned."""
    import sys
    import types

    shown: list = []
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: object()
    ipython_display = types.ModuleType("IPython.display")
    ipython_display.display = shown.append
    ipython.display = ipython_display
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", ipython_display)
    return shown


def test_show_appends_to_marimos_output_in_a_marimo_notebook(capsys, monkeypatch):
    """In a marimo notebook (no IPython kernel) ``sc.show`` appends the shown table to the
    cell's output -- marimo renders it by its ``_repr_html_`` -- and prints nothing; outside
    a running marimo notebook (marimo imported by a script) it prints. Checked once by hand
    with marimo 0.25.2's own runner (`marimo export html`: a mid-cell ``sc.show`` and a
    cell's last expression both rendered); marimo is not a test dependency."""
    import sys
    import types

    t = pd.DataFrame({"model": ["a", "b"], "p_best": [0.91234, 0.08766]})
    out, running = [], [True]
    marimo = types.ModuleType("marimo")
    marimo.running_in_notebook = lambda: running[0]
    marimo.output = types.SimpleNamespace(append=out.append)
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    monkeypatch.setitem(sys.modules, "marimo", marimo)
    assert sc.show(t, note="one line.") is None
    assert capsys.readouterr().out == ""
    (obj,) = out
    assert obj.table is t and "one line." in obj._repr_html_()
    running[0] = False  # marimo imported, no notebook running: a script
    sc.show(t)
    assert len(out) == 1 and capsys.readouterr().out.splitlines()[0] == "model  p_best"


def test_show_displays_a_result_as_it_displays_itself_and_refuses_what_it_cannot_show(
        capsys, monkeypatch):
    """``sc.show(board)`` -- the first thing a notebook user tries -- and ``sc.show(None)``,
    an array, a dict or a string crashed with a bare AttributeError from deep inside the
    display (audit 4, finding 1). A result is shown as it shows itself ending a cell (its
    summary printed in a script, the result itself handed to IPython's ``display``); a
    ``None`` shows nothing wherever it stands, as the docstring says of ``*more``; anything
    else is a ValidationError saying what sc.show takes and how to make one, and that
    remedy runs."""
    import sys

    board = sc.leaderboard(_small(), draws=300)
    t = board.table.head(2)
    assert sc.show(board) is None  # a script: the result's own text
    assert capsys.readouterr().out == repr(board) + "\n"
    assert sc.show(None) is None and capsys.readouterr().out == ""
    sc.show(None, t, note="two rows.")  # a view that does not apply, then a table
    assert capsys.readouterr().out == repr(display.as_table(t, note="two rows.")) + "\n"
    sc.show(t, None, board)  # a table, nothing, then a result: each as it shows
    assert capsys.readouterr().out == repr(display.as_table(t)) + "\n" + repr(board) + "\n"
    sc.show(board, note="said under it.")  # a line with no table to stand under
    assert capsys.readouterr().out.splitlines()[-1] == "said under it."
    shown = _fake_ipython(monkeypatch)  # in a notebook: the result itself, rendered as HTML
    sc.show(board, t)
    assert shown[0] is board and shown[1].table is t and capsys.readouterr().out == ""
    monkeypatch.delitem(sys.modules, "IPython")
    # what it cannot show: what it takes, and how to make one, which then shows
    array, columns = np.arange(6).reshape(2, 3), {"a": [1, 2]}
    tables = sc.pair(_small(), a="m0", b="m1").tables()  # a result's tables, by name
    for given, position, fix in [
            (array, "", "sc.show(pd.DataFrame(x))"), (columns, "", "sc.show(pd.DataFrame(x))"),
            ("hello", "", "print(text)"), (tables, "", "sc.show(*x.values())"),
            (3, " (argument 2)", "")]:
        with pytest.raises(sc.ValidationError) as caught:
            sc.show(t, given) if position else sc.show(given)
        msg = str(caught.value)
        assert msg.startswith("sc.show takes tables (a DataFrame or Series: a result's "
                              "board.table, p.pairs, board.unresolved()) and results"), msg
        assert f"got {type(given).__name__} " in msg and position in msg and fix in msg
        if fix.startswith("sc.show"):
            eval(fix, {"sc": sc, "pd": pd, "x": given})  # noqa: S307 - the message's code
            assert capsys.readouterr().out
    with pytest.raises(sc.ValidationError, match="a result displays itself"):
        display.as_table(board)  # the shown table of a result: no table


def test_show_keeps_the_labels_of_a_tables_rows():
    """board.rank_distribution() holds a model per row in its index: sc.show keeps them."""
    board = sc.leaderboard(_small(), draws=500)
    dist = board.rank_distribution()
    text = repr(sc.display.as_table(dist))
    assert [ln.split()[0] for ln in text.splitlines()[1:]] == list(dist.index)
    assert sc.show is display.show


def test_leaderboard_and_plan_list_the_caveats_of_their_definition():
    """sc.leaderboard(...) and sc.plan(...) showed their own notes only, not the caveats
    ("Synthetic data", "Only 12 questions") that sc.ANALYSES["leaderboard"](...), the page
    and the report list for the same data and settings: now the same sentences, by the one
    definition, written when the result is made (the result holds them, not the data)."""
    import pickle

    rng = np.random.default_rng(3)
    R = rng.binomial(1, np.linspace(0.3, 0.7, 4)[:, None, None], (4, 12, 5))
    data = sc.Outcomes(R, R0=rng.integers(0, 2, (4, 12, 1)), models=list("abcd"),
                       name="toy", metadata={"synthetic": True})
    board = sc.leaderboard(data, use_prior=True, confidence=0.9, draws=300, seed=2)
    same = ANALYSES["leaderboard"](data, prior="greedy", confidence=0.9, draws=300, seed=2)
    assert board.caveats == same.caveats
    assert board.caveats[:2] == [
        "Synthetic data — not real model outputs: simulated outcomes for exploring and "
        "teaching the method; do not cite these numbers as results.",
        "Only 12 questions: intervals are wide and rankings can change with a different "
        "question sample."]
    assert board.first_line() in board.caveats and any("Bayes_R0@N" in c for c in board.caveats)
    section = sc.build_report(data, [("leaderboard", {"prior": "greedy", "confidence": 0.9,
                                                      "draws": 300, "seed": 2})]).sections[0]
    assert board.caveats == section.caveats  # what the report lists under its section
    html = board._repr_html_()
    assert listed_caveats(html) == [re.sub(r"`([^`]+)`", r"<code>\1</code>", c)
                                    for c in board.caveats]
    assert "toy: 4 models × 12 questions × 5 trials" in unescape(html)  # the data, named
    assert repr(board).endswith("\n".join(f"- {c}" for c in board.caveats))
    # the plan: the same sentences as the Planner's definition, but the order curve's (none)
    planned = sc.plan(data, use_prior=True, confidence=0.9, budget_trials=8, draws=300)
    section = ANALYSES["plan"](data, prior="greedy", confidence=0.9, budget_trials=8,
                               draws=300, sims=100)
    assert section.caveats[-1].startswith("The order curve simulates 100 tables per N")
    assert planned.caveats == [
        c.replace("; the order curve simulates Bayes@N with the uniform prior", "")
        for c in section.caveats[:-1]]
    assert planned.caveats[0].startswith("Synthetic data") and len(planned.caveats) >= 4
    assert listed_caveats(planned._repr_html_()) == [
        re.sub(r"`([^`]+)`", r"<code>\1</code>", c) for c in planned.caveats]
    assert repr(planned).endswith("\n".join(f"- {c}" for c in planned.caveats))
    # the results hold sentences, not the data, and keep them when pickled
    for result in (board, planned):
        assert all(not isinstance(v, sc.Outcomes) for v in vars(result._about).values())
        assert pickle.loads(pickle.dumps(result)).caveats == result.caveats
    # an array: its own caveats (few questions), none about data it does not describe
    arr = sc.leaderboard(R, draws=300)
    assert arr.caveats[0].startswith("Only 12 questions")
    assert not any("Synthetic" in c for c in arr.caveats)
    assert arr.caption().split(" · ")[2] == "4 models × 12 questions × 5 trials"


def test_by_subset_is_a_frame_that_displays_its_scope_settings_and_caveats(small):
    """sc.by_subset(...) returned a raw DataFrame (float digits, no scope, no settings) where
    every other result displays itself; it stays a DataFrame to compute with."""
    import pickle

    data = _with_source(small)
    t = sc.by_subset(data, "source", scope="population", confidence=0.9, draws=200)
    assert isinstance(t, pd.DataFrame) and len(t) == 2 * small.L
    assert type(t[t["subset"] == "a"]) is pd.DataFrame  # what is computed from it is raw
    assert t["questions"].tolist() == [20] * len(t)
    want = sc.leaderboard(data.subset("source", "b"), scope="population", confidence=0.9,
                          draws=200).table
    got = t[t["subset"] == "b"].reset_index(drop=True)
    pd.testing.assert_frame_equal(got[list(want.columns[:9])], want.iloc[:, :9])
    # its display: title, scope, the call's settings, the rows as the report prints them
    html = t._repr_html_()
    shown = unescape(_SVG.sub("", html))
    assert "Leaderboard per subset" in shown and "2 subsets by source" in shown
    assert "population scope" in shown and "90% intervals and decisions" in shown
    assert "<code>p_best</code> probability of being first" in html  # its Columns legend
    assert "nothing adjusted across subsets" in shown and "draws = 200" in shown
    parsed = parse(html)
    check_table(parsed.tables[0], display.readable(pd.DataFrame(t))[0], "by_subset")
    check_one_format_per_column(parsed, "by_subset")
    # the caveats of the per-subset leaderboards, by the leaderboard's one definition
    from scorio_core.definitions.leaderboard import subset_caveats

    assert t.caveats == subset_caveats("source", t, 0.9, "population")
    assert t.caveats[0].startswith("Per subset (source): each subset's leaderboard uses only")
    assert listed_caveats(html) == t.caveats
    text = repr(t)
    assert text.startswith("<SubsetBoards: Leaderboard per subset · 2 subsets by source, each")
    assert "0.9000000" not in text and text.endswith(f"- {t.caveats[-1]}")
    again = pickle.loads(pickle.dumps(t))
    assert again.caveats == t.caveats and repr(again) == text
    pd.testing.assert_frame_equal(again, t)


def test_a_public_call_captions_an_unset_setting_by_its_declared_word():
    """``sc.rubric_lesson()`` leaves ``R0`` unset: its caption says what that means (the
    rubric lesson's declared word), as the report's settings line does -- not ``None``; a
    leaderboard without Pass@k columns does not print an empty ``ks =``."""
    from scorio_core.display import run_caption
    from scorio_core.params import settings_of
    from scorio_core.simulate.params import RubricLessonParams

    word = settings_of(RubricLessonParams)["R0"][1].unset
    text = run_caption(sc.rubric_lesson()._about)
    assert f"R0 = {word}" in text and "None" not in text
    board = sc.leaderboard(np.random.default_rng(0).integers(0, 2, (3, 10, 4)), ks=())
    assert "ks =" not in board.caption()


def test_a_caption_leaves_out_the_skipped_settings_however_the_run_recorded_them():
    """``skip`` drops a setting from the caption whether the run recorded a public call's own
    settings or a definition's params, and whether the setting reads as given or as the
    run resolved it (a placeholder worded by ``resolved``): a definition's run had kept it."""
    from dataclasses import dataclass

    from scorio_core.display import About, run_caption, settings_caption

    @dataclass(frozen=True)
    class P:
        seed: int = 3
        progress: int = 2
        budget: int = 0

    words = {"budget": "30 trials (today's N)"}
    params = About("x", P(), data="d.npz")
    assert run_caption(params, lambda p: words) == (
        "d.npz · seed = 3 · progress = 2 · budget = 30 trials (today's N)")
    assert run_caption(params, lambda p: words, skip=("progress", "budget")) == "d.npz · seed = 3"
    settings = About(None, data="d.npz", settings={"seed": 3, "progress": 2, "budget": 0})
    assert run_caption(settings, skip=("progress", "budget")) == "d.npz · seed = 3"
    assert settings_caption({"seed": 3, "budget": 0}, words, skip=("budget",)) == "seed = 3"
