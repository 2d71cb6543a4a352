"""The Leaderboard's undecided-pairs table spells ∞ for pairs no number of trials orders
(issue 24: a tie printed the literal 'Infinity' under a caption that promises ∞)."""

from __future__ import annotations

import io as pyio
from pathlib import Path

import numpy as np
import pandas as pd
from _apptest import start
from streamlit.testing.v1 import AppTest

from app_pages._common import UPLOAD
from app_state.texts import RULE_MET, core_cells
from scorio_core import Outcomes
from scorio_core.io import save_table

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_spelled_cells_use_the_one_formatter():
    t = pd.DataFrame({"n": [np.inf, -np.inf, np.nan, 12.0]})
    assert core_cells(t, ["n"])["n"].tolist() == ["∞", "-∞", "—", "12"]


def _leaderboard_of(R, name: str):
    """The Leaderboard page on an upload of ``R`` (models a, b, c, d): the app and its
    undecided-pairs table."""
    buf = pyio.BytesIO()
    save_table(Outcomes(R, models=["a", "b", "c", "d"]), buf, format="csv")
    at = start(APP, UPLOAD, 90)
    at.file_uploader(key="upload").set_value((name, buf.getvalue(), "text/csv")).run()
    at.switch_page("app_pages/leaderboard.py").run()
    assert not at.exception and not at.error
    return at, next(d.value for d in at.dataframe  # the pairs table, not the board's column
                    if {"better", "trials_needed_papers"} <= set(d.value.columns))


def test_leaderboard_page_shows_infinity_symbol_for_ties():
    R = np.random.default_rng(3).integers(0, 2, (4, 15, 4))
    R[1] = R[0]  # identical models: their pair can never be decided
    at, pairs = _leaderboard_of(R, "tie.csv")
    assert "∞" in pairs["trials_needed_papers"].tolist()
    for d in at.dataframe:  # no number column left for Streamlit to print as 'Infinity'
        num = d.value.select_dtypes("number")
        assert not np.isinf(num.to_numpy(dtype=float)).any(), list(d.value.columns)


def test_papers_rule_met_reads_met_now_not_todays_n():
    """A pair the papers' rule already calls (Bayes@N z past the threshold) but Holm leaves
    undecided: the core's ``trials_needed_papers`` is today's N, which the table printed as "4"
    beside "now N = 4" -- read as "add 4 trials". It now reads "met now", in the undecided
    table and in the leaderboard's own column, and the caption says what that means."""
    rng = np.random.default_rng(0)
    p = np.clip(rng.beta(0.6, 0.6, (1, 15, 1)) + np.array([0.0, 0.08, 0.16, 0.24])[:, None, None],
                0, 1)
    R = (rng.random((4, 15, 4)) < p).astype(int)
    at, pairs = _leaderboard_of(R, "met.csv")
    cells = pairs.set_index(["better", "next"])["trials_needed_papers"]
    assert cells[("b", "a")] == RULE_MET and "4" not in cells.tolist()
    assert any(RULE_MET in m.value and "calibrated test does not" in m.value
               for m in at.markdown)
    board = next(d.value for d in at.dataframe
                 if {"model", "trials_needed_papers"} <= set(d.value.columns))
    assert board.set_index("model").loc["b", "trials_needed_papers"] == RULE_MET


def test_no_page_sends_an_infinite_number_in_either_scope():
    """Browser check of issue 24 (the grid prints a float inf as "Infinity"): two identical
    models, both scopes, Leaderboard and Planner -- every ∞ reaches the browser as text."""
    R = np.random.default_rng(3).integers(0, 2, (4, 15, 4))
    R[1] = R[0]
    buf = pyio.BytesIO()
    save_table(Outcomes(R, models=["a", "b", "c", "d"]), buf, format="csv")
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    at.file_uploader(key="upload").set_value(("tie.csv", buf.getvalue(), "text/csv")).run()
    seen = 0
    for page, scope_key in (("leaderboard", "scope"), ("planner", "plan_scope")):
        at.switch_page(f"app_pages/{page}.py").run()
        for scope in ("questions", "population"):
            at.segmented_control(key=scope_key).set_value(scope).run()
            assert not at.exception and not at.error, (page, scope)
            for d in at.dataframe:
                num = d.value.select_dtypes("number").to_numpy(dtype=float)
                assert not np.isinf(num).any(), (page, scope, list(d.value.columns))
                seen += int((d.value.astype(str) == "∞").to_numpy().any())
    assert seen >= 4  # the tie shows as ∞ on both pages in both scopes


def test_missing_numbers_read_as_a_dash_not_none():
    """One trial per question: the questions scope is not identified, so p_best, se, lo,
    hi and the pairs' p-values are missing (NaN). A number column shows a missing value as
    "None"; the Leaderboard's tables show the core's "—" instead, as the CLI and reports,
    and keep those columns numbers (a header click sorts them by number, not as text). A
    column with no value in any row (the board's p_best, se, lo, hi) is left out, said in
    one line, as the CLI and the reports do."""
    R = np.random.default_rng(3).integers(0, 2, (4, 24, 1))
    at, pairs = _leaderboard_of(R, "one_trial.csv")
    board = next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)
    assert not {"p_best", "se", "lo", "hi"} & set(board.columns)
    assert any(c.value.startswith("Not shown, no value in any row: p_best, se, lo, hi")
               for c in at.caption)
    assert pd.api.types.is_float_dtype(pairs["p_value"]) and pairs["p_value"].isna().any()
    shown = [d for d in at.dataframe if not d.proto.editing_mode]  # tables, not editors
    # the board, its "More columns" and the pairs table, each in parts where it is wider
    # than the column
    assert len(shown) >= 3 and {d.proto.placeholder for d in shown} == {"—"}


def test_a_missing_value_reads_alike_in_number_and_text_columns():
    """One trial per question: an undecided pair's ``t`` (a text column: it spells ∞) is
    missing beside its missing p-values (number columns). The text column held the literal
    "—", drawn black, and the number columns Streamlit's placeholder "—", drawn grey: one
    row showed both. Every table now sends a missing value as a missing cell, drawn with
    the one placeholder, and the number columns stay numbers."""
    from scorio_core.formatting import MISSING

    R = np.random.default_rng(3).integers(0, 2, (4, 24, 1))
    at, pairs = _leaderboard_of(R, "one_trial.csv")
    assert pairs["t"].isna().all() and pairs["p_value"].isna().all()  # one row, both kinds
    assert pd.api.types.is_float_dtype(pairs["p_value"]) and pairs["gap"].notna().all()
    assert pairs["trials_needed_papers"].tolist() == ["∞", "257", "26"]  # text kept as text
    board = next(d.value for d in at.dataframe
                 if {"model", "trials_needed_papers"} <= set(d.value.columns))
    assert "t_next" not in board.columns  # no value in any row: left out, said in a line
    assert board["trials_needed_papers"].isna().tolist() == [False, False, False, True]  # last
    shown = [d for d in at.dataframe if not d.proto.editing_mode]
    assert {d.proto.placeholder for d in shown} == {MISSING}
    for d in shown:
        text = d.value.select_dtypes(exclude="number")
        assert not (text.astype(object) == MISSING).to_numpy().any(), list(d.value.columns)


def test_missing_as_null_leaves_number_columns_alone():
    """Only a text column's "—" becomes a missing cell; numbers, other text and the frame
    handed in are unchanged (a column name may repeat)."""
    from app_pages._widgets import missing_as_null

    t = pd.DataFrame([[1.5, "—", "∞", True], [np.nan, "12", "—", False]],
                     columns=["x", "n", "n", "flag"])
    out = missing_as_null(t)
    assert out.iloc[:, 0].equals(t.iloc[:, 0]) and out["flag"].equals(t["flag"])
    assert out.iloc[:, 1].tolist() == [None, "12"] and out.iloc[:, 2].tolist() == ["∞", None]
    assert t.iloc[0, 1] == "—"  # a copy: the caller's table keeps its text
    clean = pd.DataFrame({"n": ["1", "2"]})
    assert missing_as_null(clean) is clean


def test_the_boards_t_next_and_trials_needed_papers_are_explained_under_it():
    """The board shows ``t_next`` and ``trials_needed_papers`` (the pairs table's ``t`` and
    ``trials_needed_papers``); no line on the page said what they are. They sit in its "More
    columns" box now, with the papers' Bayes@N (the main table fits a 1024 px window's
    column in two parts), and the box's legend says what they are."""
    R = np.random.default_rng(4).integers(0, 2, (4, 15, 4))
    at, _ = _leaderboard_of(R, "cols.csv")
    box = next(e for e in at.expander if e.label.startswith("More columns"))
    inside = [d for d in box.dataframe if "trials_needed_papers" in d.value.columns]
    main = [d for d in at.dataframe if "trials_needed_papers" in d.value.columns
            and "better" not in d.value.columns and not any(d is i for i in inside)]
    assert inside and main
    assert {"t_next", "trials_needed_papers"} <= set().union(
        *(d.proto.column_order for d in inside))
    # the box's parts repeat model alone: t_next, text beside it, was repeated as a name
    repeated = set.intersection(*(set(d.proto.column_order) for d in inside))
    assert len(inside) == 1 or repeated == {"model"}, repeated
    assert not {"t_next", "trials_needed_papers"} & set().union(
        *(d.proto.column_order for d in main))
    said = [c.value for c in box.caption
            if "`t_next`" in c.value and "`trials_needed_papers`" in c.value]
    assert len(said) == 1 and "expected-z" in said[0] and RULE_MET in said[0], said
