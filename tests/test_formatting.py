"""The one number formatter (issue 24): one format per column, integers as integers, ∞ and —,
probabilities with four decimals and no misleading 0.0000 -- shared by the CLI tables and the
HTML/Markdown report."""

from __future__ import annotations

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
    markdown_table,
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


@pytest.mark.parametrize(
    ("value", "text"),
    [(math.inf, "∞"), (-math.inf, "−∞"), (math.nan, "—"), (None, "—"), (pd.NA, "—"),
     (np.float64(0.123456), "0.1235"), (3e-9, "<0.0001"), (-3e-9, ">−0.0001"),
     (10**40, "10,000,000,000,000,000,000,000,000,000,000,000,000,000")],
)
def test_single_numbers(value, text):
    integer = isinstance(value, int)
    assert format_number(value, integer=integer) == text


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
    lines = markdown_table(pd.DataFrame({"m": ["a|b<i>"], "n_needed": [np.inf]}))
    assert lines[1] == "|---|---:|"
    assert lines[2] == "| a\\|b&lt;i&gt; | ∞ |"
