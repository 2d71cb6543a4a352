"""A heatmap click maps to the model and question the heatmap drew in that cell."""

from __future__ import annotations

import numpy as np

from app_state.cells import clicked, partners
from scorio_core import Outcomes
from scorio_core.engines.questions import question_stats


def test_a_click_on_a_binned_cell_picks_a_question_of_that_bin():
    R = np.random.default_rng(0).integers(0, 2, (4, 100, 3))
    stats = question_stats(Outcomes(R), irt=False)
    frame, width = stats.heatmap_frame(30)
    assert width == 4
    for pos in (0, 7, 24):
        row = frame[(frame["position"] == pos) & (frame["model"] == stats.models[1])].iloc[0]
        model, q = clicked(stats, 30, {"selection": {"cell": [{"model": row["model"],
                                                               "position": pos}]}})
        assert model == stats.models[1]
        assert q in stats.questions[pos * width:(pos + 1) * width]
        assert row["question"].startswith(stats.questions[pos * width])
    assert clicked(stats, 30, {"selection": {"cell": []}}) is None  # a cleared selection
    assert clicked(stats, 30, None) is None


def test_partners_are_every_other_model_largest_difference_first():
    R = np.random.default_rng(1).integers(0, 2, (5, 20, 4))
    stats = question_stats(Outcomes(R), irt=False)
    m, q = stats.models[2], stats.questions[3]
    got = partners(stats, m, q)
    assert {g[0] for g in got} == set(stats.models) - {m}
    assert [abs(g[1]) for g in got] == sorted((abs(g[1]) for g in got), reverse=True)
