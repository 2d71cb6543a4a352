"""The parts a table too wide for the page is drawn in (``app_state.table_fit``): fitted to a
1024 px window's column unless a caller says otherwise, and no part holding one column
beside the repeated keys where the columns can be spread.

At 1024 px the Leaderboard of the biased coins with Pass@1 drew ``pass@1`` alone in a second
part after ``rank`` ... ``hi``; the Data page's import report of an Inspect log drew its
``harness`` alone, in five parts where four hold every column.
"""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

from app_state import table_fit
from app_state.table_fit import (
    MAIN_PX,
    NARROW_COLUMN_PX,
    NARROW_PX,
    column_groups,
    column_px,
    fitted_parts,
)


def _table(px: dict[str, int], texts=("model",)) -> tuple[pd.DataFrame, dict[str, int]]:
    """A one-row table with columns ``px`` (text where named in ``texts``, else numbers)
    and the widths a page would set for them."""
    return pd.DataFrame({c: ["x" if c in texts else 0.5] for c in px}), dict(px)


def _check(parts: list[list[str]], shown: pd.DataFrame, px: dict[str, int], keys: list[str],
           budget: int) -> None:
    """Every column once, in its declared order within a part, each part within
    ``budget`` (a column wider than a part's room alone), and no part of one column beside
    the keys where another part has room for it."""
    order = list(shown.columns)
    values = [c for p in parts for c in p[len(keys):]]
    assert sorted(values) == sorted(c for c in order if c not in keys)
    room = budget - sum(px[k] for k in keys)
    own = [p[len(keys):] for p in parts]
    for p, cols in zip(parts, own, strict=True):
        assert p[:len(keys)] == keys
        assert cols == sorted(cols, key=order.index)
        assert sum(px[c] for c in cols) <= room or len(cols) == 1, p
    for i, cols in enumerate(own):
        if len(cols) == 1:
            assert all(sum(px[c] for c in q) + px[cols[0]] > room
                       for j, q in enumerate(own) if j != i), (cols, own)


def test_the_default_budget_is_a_1024px_windows_column():
    """One declaration: every width default of the fitting is the narrow window's, the one
    the app's tables take (``app_pages._widgets.TABLE_PX``)."""
    from app_pages import _widgets

    def default(f) -> int:
        return inspect.signature(f).parameters["budget"].default

    assert default(table_fit.fitted_parts) == default(table_fit.narrowed_names) == NARROW_PX
    assert default(table_fit.text_parts) == NARROW_PX == _widgets.TABLE_PX
    assert default(table_fit.editor_px) == NARROW_COLUMN_PX  # set widths: the whole column
    # a table of 700 px: one part in a 1280 px window's column, two by default
    shown, px = _table({"model": 100} | {f"v{i}": 60 for i in range(10)})
    assert len(fitted_parts(shown, widths=px, budget=MAIN_PX)) == 1
    assert len(fitted_parts(shown, widths=px)) == 2


def test_pass_at_1_is_not_left_alone_in_a_part():
    """The biased coins' Leaderboard with Pass@1 at 1024 px: ``rank`` ... ``hi`` filled the
    first part and ``pass@1`` took a second alone; split evenly, in order, ``score`` and its
    interval go beside it."""
    shown, px = _table({"model": 66, "rank": 50, "rank_lo": 60, "rank_hi": 60, "p_best": 56,
                        "score": 54, "se": 54, "lo": 54, "hi": 54, "pass@1": 59})
    parts = fitted_parts(shown, widths=px)
    assert parts == [["model", "rank", "rank_lo", "rank_hi", "p_best"],
                     ["model", "score", "se", "lo", "hi", "pass@1"]]
    _check(parts, shown, px, ["model"], NARROW_PX)


def test_a_lone_column_goes_into_a_part_with_room_for_it():
    """The import report of an Inspect log (widths as the Data page sets them at 1024 px):
    ``harness`` had a part of its own after ``harness reducer`` ... ``scorer``; it goes
    beside ``harness value``, in the first part, which has room: four parts, not five. The
    file name and the notes, each as wide as a part's room, stay alone: nothing fits
    beside them."""
    px = {"model": 52, "model_in_log": 107, "benchmark": 83, "ours (mean)": 89,
          "harness value": 100, "harness reducer": 114, "records": 61, "missing": 63,
          "scorer": 110, "harness": 64, "file": 385, "notes": 385}
    texts = ("model", "model_in_log", "benchmark", "harness reducer", "scorer", "harness",
             "file", "notes")
    shown, px = _table(px, texts)
    parts = fitted_parts(shown, widths=px)
    keys = ["model", "model_in_log"]
    assert [p[2:] for p in parts] == [
        ["benchmark", "ours (mean)", "harness value", "harness"],
        ["harness reducer", "records", "missing", "scorer"], ["file"], ["notes"]]
    _check(parts, shown, px, keys, NARROW_PX)


@pytest.mark.parametrize("seed", range(40))
def test_parts_hold_every_column_and_no_column_alone_that_fits_elsewhere(seed):
    """Tables of random widths, a score's interval among them: every column in one part, in
    declared order within it, each part within the budget, a group kept whole, and a part
    of one column only where no other part has room for it -- in no more parts than the
    columns in order, each part filled before the next (``column_parts``)."""
    from scorio_core.display import column_parts

    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 14))
    names = [f"c{i}" for i in range(n)]
    at = int(rng.integers(0, n - 2))
    names[at:at + 3] = ["score", "lo", "hi"]
    px = {"model": int(rng.integers(50, 240))} | {
        c: int(rng.choice([50, 60, 90, 140, 200, 300])) for c in names}
    shown, px = _table(px)
    parts = fitted_parts(shown, widths=px)
    _check(parts, shown, px, ["model"], NARROW_PX)
    room = NARROW_PX - px["model"]
    if px["score"] + px["lo"] + px["hi"] <= room:  # a group that fits is kept whole
        assert any({"score", "lo", "hi"} <= set(p) for p in parts), parts
    together = table_fit._within(column_groups(list(shown.columns)), px, room)
    greedy = column_parts(shown, widths=px, budget=NARROW_PX, keys=["model"],
                          together=together)
    assert len(parts) <= len(greedy)
    assert column_px(shown, widths=px) == px
