"""One number format per column on every screen: the leaderboard's own table and its
per-subset table show ``p_best`` alike, as the CLI and the reports do."""

from __future__ import annotations

import numpy as np

from app_pages import _widgets
from scorio_core import leaderboard


def test_p_best_has_one_format_on_the_board_and_in_the_subset_table():
    R = np.random.default_rng(0).integers(0, 2, (4, 30, 4))
    table = leaderboard(R, scope="population").table
    board = _widgets.column_config(table)["p_best"]["type_config"]["format"]
    subset = _widgets.core_formats(table)["p_best"]["type_config"]["format"]
    assert board == subset == "%.3f"
    assert _widgets.column_config(table)["score"]["type_config"]["format"] == "%.4f"


def test_pair_tables_show_model_names_whole():
    """The Planner's and the undecided-pairs tables size their model-name columns to the
    longest name, as the leaderboard sizes its ``model`` column (within 120-240 px)."""
    import pandas as pd

    from scorio_core.planner import pair_needs

    R = np.random.default_rng(1).integers(0, 2, (3, 15, 4))
    names = ["FuseO1-DS-QwQ-SkyT1", "a", "gpt-4"]
    pairs = pair_needs(leaderboard(R, models=names), pairs="all")
    _, cfg = _widgets.core_table(pairs.drop(columns="note"), ["t"])
    for c in ("better", "next"):
        assert cfg[c]["width"] == _widgets.name_width(pairs[c]), cfg[c]
    assert _widgets.name_width(pd.Series(["FuseO1-DS-QwQ-SkyT1"])) == int(7.5 * 19 + 24)
    assert _widgets.name_width(pd.Series(["a"])) == 120  # at least
    assert _widgets.name_width(pd.Series(["x" * 80])) == 240  # at most
    board = leaderboard(R, models=names).table
    assert _widgets.column_config(board)["model"]["width"] == _widgets.name_width(board["model"])
