"""The first page paints sooner because closed boxes send nothing (Streamlit's stateful
expanders), a session's first run leaves its charts for the next run, and a page's charts
are made once per result; what a box holds must still work and survive the box being
closed, and the charts must come."""

from __future__ import annotations

from pathlib import Path

import altair as alt
import numpy as np
import pandas as pd
from _apptest import code_cell, open_box
from streamlit.testing.v1 import AppTest

from app_pages import _common, _render
from app_pages._loading import REASONING
from scorio_core import io
from scorio_core.definitions import LeaderboardParams
from scorio_core.definitions.leaderboard import LEADERBOARD

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def _leaderboard() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["dataset"] = REASONING
    at.switch_page("app_pages/leaderboard.py").run()
    assert not at.exception
    return at


def test_closed_boxes_send_no_widgets_and_open_ones_work():
    at = _leaderboard()
    assert [e.label for e in at.sidebar.expander] == ["Workers (Dask)", "Session"]
    assert "Copy code: the notebook cell for this view" in [e.label for e in at.main.expander]
    # closed: none of their widgets, no code cell (nor its JavaScript in the browser)
    assert not at.sidebar.number_input and not at.sidebar.text_input
    assert not at.sidebar.get("file_uploader") and not at.code
    assert "leaderboard(" in code_cell(at, "leaderboard(")
    open_box(at, "session_box")
    assert [u.proto.label for u in at.sidebar.get("file_uploader")] == ["Restore session"]
    save = [b for b in at.sidebar.get("download_button") if b.proto.label == "Save session"]
    assert len(save) == 1 and save[0].proto.ignore_rerun  # a download does not rerun the page


def test_a_sessions_first_run_leaves_its_charts_for_the_next(monkeypatch):
    # as users get it: not as a test server (or a shell) with SCORIO_CHARTS_AT_ONCE=1 has it
    monkeypatch.delenv(_render.CHARTS_AT_ONCE, raising=False)
    at = _leaderboard()  # the session's first run
    assert not at.get("vega_lite_chart")
    assert "Drawing the charts…" in [c.value for c in at.caption]
    assert at.session_state["_scorio_charts_tick"]  # the one-shot timer is set
    at.run()  # what the timer's rerun does in the browser
    drawn = len(at.get("vega_lite_chart"))
    assert drawn == 3  # forest plot, pairwise heatmap, Pass@k curves
    assert "Drawing the charts…" not in [c.value for c in at.caption]
    at.run()  # and never again in this session
    assert len(at.get("vega_lite_chart")) == drawn


def test_with_charts_at_once_a_sessions_first_run_draws_its_charts(monkeypatch):
    """``SCORIO_CHARTS_AT_ONCE=1`` (the test servers' setting): the first run draws every
    chart itself and starts no timer, so no rerun follows; any other value keeps the wait."""
    monkeypatch.setenv(_render.CHARTS_AT_ONCE, "1")
    at = _leaderboard()
    assert len(at.get("vega_lite_chart")) == 3
    assert "Drawing the charts…" not in [c.value for c in at.caption]
    assert "_scorio_charts_tick" not in at.session_state  # no timer, no rerun
    monkeypatch.setenv(_render.CHARTS_AT_ONCE, "true")  # only 1 turns it on
    assert not _leaderboard().get("vega_lite_chart")


def test_the_workers_choice_survives_closing_its_box():
    at = _leaderboard()
    open_box(at, "workers_box").number_input(key="workers").set_value(2).run()
    at.session_state["workers_box"] = False
    at.run()
    assert not at.exception and not at.sidebar.number_input
    assert at.session_state["_scorio_workers"] == 2  # what the sweeps' executor reads
    assert [e.label for e in at.sidebar.expander][0] == "Workers (Dask): 2 local"
    assert open_box(at, "workers_box").number_input(key="workers").value == 2
    at.text_input(key="scheduler").input(" tcp://10.0.0.5:8786 ").run()
    at.session_state["workers_box"] = False
    at.run()
    assert at.session_state["_scorio_scheduler"] == "tcp://10.0.0.5:8786"
    assert [e.label for e in at.sidebar.expander][0] == "Workers (Dask): tcp://10.0.0.5:8786"


def test_sidebar_boxes_stay_open_or_closed_across_pages():
    """The Session box closed on every page switch (Streamlit drops a stateful expander's
    state when the page changes): a user who opened it to restore a session and went to
    another page found it closed. Each box now keeps its state, open or closed."""
    at = _leaderboard()

    def restore():
        return [u.proto.label for u in at.sidebar.get("file_uploader")]

    open_box(at, "session_box")
    open_box(at, "workers_box")
    for page in ("app_pages/planner.py", "app_pages/data.py"):
        at.switch_page(page).run()
        assert not at.exception
        assert restore() == ["Restore session"], page  # open, its widgets sent
        assert at.sidebar.number_input(key="workers").value is not None
    at.session_state["session_box"] = False  # closed: closed on the next page
    at.run()
    at.switch_page("app_pages/leaderboard.py").run()
    assert not at.exception and restore() == []
    assert at.sidebar.number_input(key="workers") is not None  # the other still open


def test_charts_are_made_once_per_result(monkeypatch):
    """Reruns (widgets, expanders, page changes) take a result's charts from the results
    cache, beside the result; new settings make a new result and new charts."""
    built = []
    real = _render.vega_lite
    monkeypatch.setattr(_render, "vega_lite", lambda chart: built.append(1) or real(chart))
    _common.clear_results()
    at = _leaderboard()  # a session's first run leaves the charts for the next run
    at.run()
    first = len(built)
    assert first == len(at.get("vega_lite_chart")) >= len(LEADERBOARD.charts(LEADERBOARD.run(
        io.load(ROOT / "data" / "biased_coins.npz"), LeaderboardParams())))
    at.run()
    assert len(built) == first  # a rerun: no new Altair work
    at.segmented_control(key="confidence").set_value(0.9).run()
    assert not at.exception and len(built) == 2 * first


def test_vega_lite_is_altairs_spec_without_its_theme_or_row_limit():
    df = pd.DataFrame({"x": np.arange(6000), "y": np.arange(6000) % 7})  # > Altair's 5,000
    chart = alt.Chart(df).mark_point().encode(x="x:Q", y="y:Q")
    with alt.data_transformers.enable("default", max_rows=5000), alt.theme.enable("default"):
        before = (alt.theme.active, dict(alt.data_transformers.options))
        spec = _render.vega_lite(chart)
        assert (alt.theme.active, dict(alt.data_transformers.options)) == before  # restored
    assert "continuousWidth" not in str(spec.get("config", {}))  # Streamlit's theme applies
    (rows,) = spec["datasets"].values()
    assert len(rows) == 6000 and rows[-1] == {"x": 5999, "y": 5999 % 7}
    alt.Chart.from_dict(spec, validate=True)  # still valid Vega-Lite
