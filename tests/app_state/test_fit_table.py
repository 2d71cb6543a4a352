"""``app_state.table_fit.fit_table``: how a page draws a table (narrowed model names, text
widths, the parts), its cells measured once -- ``show_parts`` had measured (formatted) every
cell of a table three to eight times, once per width it tried."""

from __future__ import annotations

import pandas as pd
import pytest

from app_state import table_fit
from app_state.table_fit import (
    MAIN_PX,
    MIN_COLUMN_PX,
    NARROW_PX,
    column_px,
    fit_table,
    fitted_parts,
    key_columns,
    narrowed_names,
)

LONG = "Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview"
VALUES = ["gap", "trials_needed", "trials_gap", "questions_needed", "questions_gap",
          "p_unsettled", "t", "p_better", "p_value", "trials_needed_papers"]
TABLES = {
    # a pair's two long names repeated in every part: narrowed to keep two parts
    "pairs": pd.DataFrame({"better": [LONG, "alpha-7b"], "next": ["alpha-7b", LONG]}
                          | {c: [1472.0583, 0.0] for c in VALUES}),
    # a question's best and worst model, a long source and a note
    "questions": pd.DataFrame({"question": ["q001", "q002"], "source": ["agieval-logiqa-en",
                               "x" * 90], "mean": [0.5, 0.25],
                               "best": ["gemini-1.5-pro-preview-0409", "a"],
                               "worst": ["cohere-command-r-plus-0409", "b"],
                               "note": ["logs/" + "y" * 120, ""]}),
    "short": pd.DataFrame({"model": ["a", "b"], "rank": [1, 2], "score": [0.79, 0.5]}),
}


def _separately(view, labels, widths, budget, keys):
    """What show_parts computed before fit_table, step by step with the public functions."""
    widths = dict(widths)
    drawn = {}
    if narrow := narrowed_names(view, labels, widths, budget, keys):
        widths |= narrow
        drawn |= narrow
    px = column_px(view, labels, widths)
    room = budget - sum(px[c] for c in (key_columns(view) if keys is None else keys) if c in px)
    text = {c: min(px[c], max(room, MIN_COLUMN_PX)) for c in view.columns
            if c not in widths and not pd.api.types.is_numeric_dtype(view[c])
            and not pd.api.types.is_bool_dtype(view[c])}
    widths |= text
    return (drawn | text, [c for c, w in text.items() if w < px[c]],
            fitted_parts(view, labels, widths, budget, keys))


@pytest.mark.parametrize("budget", [NARROW_PX, MAIN_PX])
@pytest.mark.parametrize("keys", [None, [], ["question"]])
@pytest.mark.parametrize("name", list(TABLES))
def test_fit_table_draws_as_the_steps_did_and_measures_once(name, keys, budget, monkeypatch):
    view = TABLES[name]
    keys = keys if keys is None or set(keys) <= set(view.columns) else None
    labels, widths = {"mean": "mean score"}, {"question": 80} if "question" in view else {}
    want = _separately(view, labels, widths, budget, keys)
    calls = []
    measure = table_fit.column_px
    monkeypatch.setattr(table_fit, "column_px", lambda *a, **k: calls.append(1) or measure(
        *a, **k))
    fit = fit_table(view, labels, widths, budget, keys)
    assert (fit.widths, fit.cut, fit.parts) == want
    assert len(calls) == 1  # the cells measured once


def test_with_no_repeated_columns_a_text_column_may_take_the_whole_part():
    """``keys=[]``: no column is repeated in every part, so a long text column is as wide as
    a part (its cells cut only there), not what the default keys would have left it (the
    model and file columns of this table: 50 px, every file name cut to a few letters)."""
    t = pd.DataFrame({"model": ["a" * 40], "file": ["logs/" + "x" * 120 + ".json"],
                      "score": [0.5]})
    assert key_columns(t) == ["model", "file"]
    fit = fit_table(t, keys=[], budget=NARROW_PX)
    assert fit.widths["file"] == min(column_px(t)["file"], NARROW_PX) == NARROW_PX
    assert fit.cut == ["file"] and ["file"] in fit.parts


def test_the_examples_narrow_and_cut():
    fit = fit_table(TABLES["pairs"], budget=MAIN_PX)
    assert fit.widths["better"] == fit.widths["next"] < column_px(TABLES["pairs"])["better"]
    assert len(fit.parts) == 2
    fit = fit_table(TABLES["questions"], keys=["question"])
    assert "note" in fit.cut and fit.widths["note"] < column_px(TABLES["questions"])["note"]
