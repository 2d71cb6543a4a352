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
