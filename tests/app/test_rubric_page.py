"""AppTest for the Rubric builder page: preset -> weights -> leaderboard."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from _apptest import code_cell, start
from streamlit.testing.v1 import AppTest

from app_pages._loading import COINS, REASONING, TEMPERATURE  # noqa: F401
from scorio_core import rubric as rb
from scorio_core.formatting import WEIGHT_PRINTF

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "app_pages/rubric.py"


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _board(at: AppTest):
    return next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)


def test_preset_then_weight_change_moves_the_leaderboard():
    at = start(APP, REASONING, 180)
    at.selectbox(key="benchmark").set_value("AIME'24").run()
    at.switch_page(PAGE).run()
    _ok(at)
    at.selectbox(key="rubric_preset").set_value("ranking/format-aware").run()
    _ok(at)
    before = _board(at).set_index("model")["score"]
    # the page shows the preset's weights; category 1 (wrong, unboxed) is worth 0.10
    w = [n for n in at.number_input if n.label.startswith("1:")][0]
    assert w.value == rb.PRESETS["ranking/format-aware"].weights[1]
    # drawn as every text writes a weight (0.1, not %.3f's 0.100)
    assert w.proto.format == WEIGHT_PRINTF
    w.set_value(0.8).run()
    _ok(at)
    after = _board(at).set_index("model")["score"]
    assert (after.loc[before.index] > before + 1e-6).any()  # rewarding unboxed wrong raises mus
    assert not after.equals(before)
    # comparison section: bump chart over the chosen rubrics plus the edited one
    at.multiselect(key="rubric_compare").set_value(["current (edited)", "ranking/conservative"])
    at.run()
    _ok(at)
    tau = next(d.value for d in at.dataframe if "tau_gs_mean" in d.value.columns)
    assert tau["scheme"].tolist() == ["Format-aware (edited)", "Conservative"]
    labels = [b.proto.label for b in at.main.get("download_button")]
    assert labels == ["SVG", "PNG", "SVG", "PNG", "Save rubric (JSON)", "SVG", "PNG", "CSV: tau",
                      "CSV: ranks",
                      "JSON (all tables)"], labels
    assert all(b.proto.ignore_rerun for b in at.main.get("download_button"))  # no rerun
    # the Copy code cell (the edited rubric as JSON) reproduces the page's τ table
    cell = code_cell(at, "categorical_ranking(")
    ns: dict = {}
    exec(compile(cell, "<copy code>", "exec"), ns)
    got = ns["tau"]
    assert got["scheme"].tolist() == tau["scheme"].tolist()
    for col in (c for c in tau.columns if c.startswith("tau_")):
        np.testing.assert_allclose(got[col], tau[col], rtol=1e-12, atol=1e-15)


def test_dataset_without_signals_explains_itself():
    at = start(APP, COINS, 180)
    at.switch_page(PAGE).run()
    _ok(at)
    assert any("no per-completion signals" in i.value for i in at.info)


def test_rules_editor_shows_empty_cells_blank():
    """Issue 24: the rules grid printed "None" in every empty threshold/scope/other cell
    (Streamlit's default text for a missing value)."""
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.switch_page(PAGE).run()
    _ok(at)
    grids = {d.proto.id.rsplit("-", 1)[-1]: d for d in at.dataframe if "-" in d.proto.id}
    rules = next(d for k, d in grids.items() if k.startswith("rules_"))
    assert rules.value[["value", "percentile"]].isna().any().any()  # there are empty cells
    for k, d in grids.items():
        if k.startswith(("rules_", "cats_")):
            assert d.proto.HasField("placeholder") and d.proto.placeholder == "", k


def test_the_live_leaderboards_caption_says_once_what_its_legend_does_not():
    """The line under the rubric's leaderboard repeated its "Columns:" legend (rank = 1 + the
    models that decidedly beat this one; rank_lo-rank_hi; bayes_*). It now says only what the
    legend cannot: what ``score`` is under a rubric, with the board's scope and confidence;
    each column is explained once, in the legend of the definition's declaration."""
    at = start(APP, TEMPERATURE, 180)
    at.switch_page(PAGE).run()
    _ok(at)
    said = [c.value for c in at.caption]
    legends = [c for c in said if c.startswith("**Columns:**")]
    for phrase in ("decidedly beat this one", "Bayes@N posterior"):  # rank's; bayes_mu's
        assert sum(phrase in c for c in said) == 1, (phrase, [c for c in said if phrase in c])
        assert any(phrase in c for c in legends), phrase
    others = [c for c in said if c not in legends and not c.startswith("Part ")]  # ... columns
    assert not [c for c in others if "rank_lo" in c or "bayes_" in c], others
    line = next(c for c in said if c.startswith("Each completion scores its category's weight"))
    assert "95% intervals, questions scope — mean score over the questions asked" in line, line
