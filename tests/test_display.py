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
            self.tables.append({"caption": "", "head": [], "rows": [], "classes": []})
        elif tag == "svg":
            self.svgs += 1
        elif tag == "caption":
            self._in_caption = True
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell, self._tag, self._class = "", tag, dict(attrs).get("class", "")

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
        assert where.split(": ")[-1].split("[")[0] in ("n_needed", "trials_needed_papers"), where
        return
    if math.isinf(v):
        assert t == ("∞" if v > 0 else "-∞"), where
    elif t.startswith("<"):
        assert 0 < v < float(t[1:]), where
    elif t.startswith(">"):
        assert float(t[1:]) < v < 0, where
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
    n_needed = [row[head.index("n_needed")] for row in p.tables[0]["rows"]]
    assert n_needed == ["∞", "—"]
    check_table(p.tables[0], board.table, "tied")


def test_plan_shows_pairs_allocation_and_what_the_budget_buys(coins):
    planned = sc.plan(coins, budget_trials=40, draws=2000)
    html = planned._repr_html_()
    p = parse(html)
    # the pairs' notes under the table, each naming its row(s) (tested below); the
    # DataFrame keeps its note column
    assert planned.pairs.columns[-1] == "note"
    check_table(p.tables[0], planned.pairs.drop(columns="note"), "pairs")
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
    text = check_repr(result, lines=len(parts) * (min(len(main), display.MAX_ROWS) + 3) + 10)
    assert text.startswith(f"<{type(result).__name__}: {a.title}")
    assert all(n in text for n in notes)
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
    value of its last line."""
    body, last = analysis.to_code(params, "data").rsplit("\n", 1)
    ns = {"data": data}
    exec(body, ns)
    return eval(last, ns)


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
    assert "settings not recorded" in result._repr_html_()
    check_table(parse(result._repr_html_()).tables[0],
                display.readable(result.tables()["classes_gold"])[0], "run")


@pytest.mark.parametrize("sid", ["order", "calibration", "prior-depth", "rubric-lesson"])
def test_simulation_results_display(sid):
    small = {"order": {"sims": 200}, "calibration": {"replicates": 20, "M_values": (10,)},
             "prior-depth": {"replicates": 5}, "rubric-lesson": {}}[sid]
    result = SIMULATIONS[sid](None, **small)
    p = parse(result._repr_html_())
    name, main = next(iter(result.tables().items()))
    check_table(p.tables[0], display.readable(main)[0], sid)
    assert p.svgs == 1
    check_repr(result, lines=display.MAX_ROWS + 10)


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
    """A report notebook's cells end with ``sc.display.show(table)``: missing as —, counts
    whole, one format per column, a column with no value named in a line -- the frame itself
    stays as it was, for computing with."""
    from scorio_core.report._build import readable
    from scorio_core.report.html import _grid

    t = pd.DataFrame({"better": ["a", "b"], "trials_needed": [425.0, float("inf")],
                      "p_best": [0.912345, float("nan")], "p_unsettled": [float("nan")] * 2})
    shown = sc.display.show(t)
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
    shown = sc.display.show(first, None, second, note="diff = a − b.")
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
    assert len(parse(sc.display.show(first, None)._repr_html_()).tables) == 1


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
    notebook = parse(sc.display.show(df)._repr_html_()).tables[0]["rows"][:-1]  # … more rows
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
    page = sc.display.show(df)._repr_html_()
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
    assert "B. Odd" in repr(display.show(df)).splitlines()[3]


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
    rows = {f"{b} vs {n}": note for b, n, note in zip(pairs["better"], pairs["next"],
                                                       pairs["note"], strict=True)}
    said = {}
    for line in lines:
        who, note = line.split(": ", 1)
        said |= dict.fromkeys(who.split(", "), note)
    assert said == {k: v for k, v in rows.items() if v}
    # the page's lines are the same grouping (one definition), in Markdown
    from app_state.texts import pair_notes as page_notes

    assert page_notes(pairs) == [f"**{w}**: {n}" for w, n in pair_notes(pairs)]
    assert [f"{w}: {n}" for w, n in pair_notes(pairs)] == lines
    two = pd.DataFrame({"better": ["a", "b", "c"], "next": ["b", "c", "d"],
                        "note": ["x", "", "x"]})
    assert pair_notes(two) == [("a vs b, c vs d", "x")]
