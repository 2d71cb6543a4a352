"""Chart builders of scorio_core.charts: valid specs, model order, legible sizing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core import Outcomes, charts
from scorio_core.leaderboard import leaderboard


@pytest.fixture
def outcomes() -> Outcomes:
    rng = np.random.default_rng(7)
    p = np.linspace(0.2, 0.8, 20)[:, None, None]
    R = (rng.random((20, 12, 10)) < p).astype(int)
    names = [f"vendor/model-{i:02d}-with-a-rather-long-name" for i in range(20)]
    return Outcomes(R, models=names, benchmarks=["A"] * 6 + ["B"] * 6)


def _data(spec: dict) -> pd.DataFrame:
    """The (single, shared) inline dataset of a chart spec."""
    (values,) = spec["datasets"].values()
    return pd.DataFrame(values)


def test_forest_plot_rows_in_leaderboard_order(outcomes):
    board = leaderboard(outcomes, confidence=0.9)
    spec = charts.forest_plot(board).to_dict()
    assert len(spec["layer"]) == 5  # interval, Bayes@N tick, dot, rank label right / left
    assert spec["layer"][0]["encoding"]["y"]["sort"] == board.table["model"].tolist()
    assert spec["height"] == {"step": charts.ROW_PX}  # grows with the number of models
    df = _data(spec)
    assert (df["rank_label"].str.split(" ").str[0] == "#" + board.table["rank"].astype(str)).all()
    spans = df["rank_label"].str.contains("–")
    assert (spans == (board.table["rank"] != board.table["rank_hi"]).to_numpy()).all()


def test_forest_axis_stays_within_the_score_bounds():
    """An all-correct model's bar ends at 1.0: the axis stops there (no 1.05 on a 0-1 score)
    and that row's rank label moves to the left of its bar."""
    rng = np.random.default_rng(3)
    R = rng.binomial(1, [[[0.6]], [[0.3]]], (2, 40, 4))
    R = np.concatenate([np.ones((1, 40, 4), dtype=int), R])
    board = leaderboard(R)
    spec = charts.forest_plot(board).to_dict()
    lo, hi = spec["layer"][0]["encoding"]["x"]["scale"]["domain"]
    assert hi == 1.0 and lo >= 0.0
    df = _data(spec)
    best = df.set_index("model")["label_side"]
    top = board.table["model"].iloc[0]
    assert board.table["hi"].iloc[0] == pytest.approx(1.0)
    assert best[top] == "left" and (best.drop(top) == "right").all()


def _labels_clear_of_ticks(spec: dict) -> pd.DataFrame:
    """The forest plot's rows, each label checked: it starts at its bar's end, or at the
    papers' tick where that tick lies beyond the bar within the label's reach (it would be
    drawn through the label) -- never with a tick inside the label."""
    from scorio_core.charts.leaderboard import rank_label_reach

    df = _data(spec).set_index("model")
    lo, hi = spec["layer"][0]["encoding"]["x"]["scale"]["domain"]
    reach = pd.Series(rank_label_reach(df["rank_label"], hi - lo), index=df.index)
    for m, row in df.iterrows():
        if row["label_side"] == "right":
            start, end, tick = row["label_right"], row["hi"], row["bayes_mu"]
            passed = end < tick <= end + reach[m]
            assert start == (tick if passed else end), m
            assert not start < tick <= start + reach[m], m  # no tick inside the label
        else:
            start, end, tick = row["label_left"], row["lo"], row["bayes_mu"]
            passed = end - reach[m] <= tick < end
            assert start == (tick if passed else end), m
            assert not start - reach[m] <= tick < start, m
    return df


def test_forest_rank_label_sits_by_its_interval_clear_of_the_papers_tick():
    """An all-wrong model's "#6" was drawn by its Bayes@N tick at ~0.20 (pulled towards 0.5
    by the papers' prior), far from its dot and bar at 0: every label started beyond
    whichever of bar and tick lay further out. A label now sits at its bar's end and passes
    the tick only where the tick would be drawn through it."""
    R = np.random.default_rng(0).binomial(
        1, np.array([0.75, 0.7, 0.6, 0.5, 0.45, 0.0])[:, None, None], (6, 30, 4))
    board = leaderboard(R)
    df = _labels_clear_of_ticks(charts.forest_plot(board).to_dict())
    worst = df.loc["model_5"]
    assert worst["score"] == 0 and worst["bayes_mu"] > 0.1 > worst["hi"]  # the case
    assert worst["rank_label"] == "#6" and worst["label_side"] == "right"
    assert worst["label_right"] == worst["hi"]  # by its bar, not at the tick
    # a hard benchmark: ticks beyond every bar, one close enough to be passed, two far off
    R = np.random.default_rng(0).binomial(1, np.array([0.15, 0.1, 0.08])[:, None, None],
                                          (3, 40, 2))
    board = leaderboard(R)
    assert (board.table["bayes_mu"] > board.table["hi"]).all()
    df = _labels_clear_of_ticks(charts.forest_plot(board).to_dict())
    at_tick = df["label_right"] == df["bayes_mu"]
    assert at_tick.any() and (~at_tick).any()


def test_heatmap_is_leaderboard_ordered_and_labels_undecided_cells(outcomes):
    board = leaderboard(outcomes)
    spec = charts.confidence_heatmap(board).to_dict()
    order = board.table["model"].tolist()
    assert spec["layer"][0]["encoding"]["y"]["sort"] == order
    df = _data(spec)
    assert len(df) == 20 * 19  # diagonal left blank
    i = {m: k for k, m in enumerate(board.models)}
    got = df.set_index(["row", "column"])["p"]
    a, b = order[0], order[1]
    assert got[(a, b)] == pytest.approx(board.prob_better[i[a], i[b]])
    # the heatmap marks decided pairs by the rule behind the rank columns
    D = board.decided | board.decided.T
    expected = {(board.models[r], board.models[c]): D[r, c] for r in range(20) for c in range(20)}
    pairs = zip(df["row"], df["column"], strict=True)
    assert (df["decided"] == [expected[rc] for rc in pairs]).all()
    assert (df.loc[~df["decided"], "label"] != "").all()
    assert (df.loc[df["decided"], "label"] == "").all()
    outline = spec["layer"][1]
    assert outline["mark"]["stroke"] == "#111"


def test_accuracy_strip_and_category_bars(outcomes):
    spec = charts.accuracy_strip(outcomes).to_dict()
    assert spec["layer"][0]["mark"]["type"] == "tick"
    cat = Outcomes(
        np.random.default_rng(1).integers(0, 3, (4, 5, 6)), category_names=["bad", "ok", "good"],
        weights=[0, 0.5, 1],
    )
    spec = charts.category_bars(cat).to_dict()
    df = _data(spec)
    assert np.allclose(df.groupby("model")["share"].sum(), 1.0)
    assert spec["encoding"]["x"]["stack"] == "normalize"


def test_charts_module_does_not_import_streamlit():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(charts))
    names = {
        a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    } | {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any(str(x).startswith("streamlit") for x in names)


def test_analysis_charts_build_valid_specs(outcomes):
    """Convergence / stability / greedy charts: data match the analysis tables, captions are
    one line."""
    from scorio_core.engines import (
        convergence_at_n,
        convergence_curves,
        greedy_vs_sampling,
        low_budget_stability,
        worst_trajectory,
    )

    R = outcomes.R[:6]
    cur = convergence_curves(R, None, ["bayes", "pass_at_k_2"], replicates=20)
    spec = charts.tau_curves(cur.summary).to_dict()
    df = _data(spec)
    assert set(df["method"]) == {"bayes", "pass_at_k_2"} and (df["hi"] <= 1).all()
    run = convergence_at_n(R, None, ["bayes", "pass_at_k_2"], replicates=50)
    pspec = charts.convergence_pmf(run.pmf).to_dict()
    drawn = _data(pspec)  # the PMF's rows, each from n - 0.5, and one closing row per method
    steps = drawn[drawn["x"] == drawn["n"] - 0.5][["method", "n", "p"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(steps, run.pmf.reset_index(drop=True), check_dtype=False)
    assert len(drawn) == 2 * (R.shape[2] - 1) + 2
    # a faint band drawn first lends its opacity to the legend unless the legend says not to
    for sp in (spec, pspec):
        band = sp["layer"][0]
        assert band["mark"]["type"] == "area" and band["mark"]["opacity"] < 0.5
        legend = band["encoding"]["color"]["legend"]
        assert legend["symbolOpacity"] == 1 and legend["symbolType"] == "stroke"
    cdf = _data(charts.convergence_cdf(run.cdf).to_dict())
    assert cdf.groupby("method")["cdf"].max().le(1 + 1e-12).all()
    traj = worst_trajectory(run, "bayes", R)
    tspec = charts.rank_trajectory_chart(traj, outcomes.models[:6], 5).to_dict()
    sizes = sorted(len(v) for v in tspec["datasets"].values())
    # rule at n=5; every rank, plus each model's closing step
    assert len(tspec["layer"]) == 2 and sizes == [1, 6 * R.shape[2] + 6]
    st = low_budget_stability(R, None, ["bayes", "avg", "borda"])
    sspec = charts.stability_chart({"vs gold": st.classes("gold"), "vs itself": st.classes("self")})
    assert {"vs gold", "vs itself"} <= set(_data(sspec.to_dict())["target"])
    g = greedy_vs_sampling(R, R[:, :, :1], replicates=5)
    gspec = charts.greedy_scatter(g.ranks).to_dict()  # datasets: the diagonal and the models
    gdf = pd.DataFrame(max(gspec["datasets"].values(), key=len))
    assert (gdf["displacement"] == gdf["greedy_rank"] - gdf["sampling_rank"]).all()
    # displacement 0 is white in the diverging scale: the dots carry an outline
    dots = gspec["layer"][1]["mark"]
    assert dots["type"] == "circle" and dots["stroke"] and dots["strokeWidth"] > 0
    assert len(_data(charts.tau_distribution_chart(g.distributions).to_dict())) == 10
    for name in ("TAU_CURVES", "CONVERGENCE_PMF", "CONVERGENCE_CDF", "RANK_TRAJECTORY",
                 "STABILITY", "GREEDY_SCATTER", "TAU_DISTRIBUTION"):
        cap = getattr(charts, f"{name}_CAPTION")
        assert "\n" not in cap and 40 < len(cap) < 260


def _gap_frame(values, now=0.05):
    n = [8, 64, 60, 240]
    return pd.DataFrame({"plan": ["trials"] * 2 + ["questions"] * 2, "n": n,
                         "smallest_lead": values, "gap_now": now})


def test_gap_curve_chart_panels_scales_and_reference_lines():
    """One panel per plan kind with a finite point; a log lead axis unless a value is zero
    or negative; today's estimate and the lead that matters as two-point reference lines."""
    spec = charts.gap_curve_chart(_gap_frame([0.2, 0.05, 0.2, 0.07]), lead=0.03).to_dict()
    assert len(spec["hconcat"]) == 2
    left = spec["hconcat"][0]["layer"]
    # whole decades, explicit: the page draws the panels apart and they still share it
    assert left[0]["encoding"]["y"]["scale"] == {"type": "log", "domain": [0.01, 1.0]}
    refs = spec["datasets"][left[1]["data"]["name"]]
    assert sorted({(r["series"], r["value"]) for r in refs}) == [
        ("lead that matters", 0.03), ("today's estimate", 0.05)]
    assert sorted({r["n"] for r in refs}) == [8, 64]  # spans the panel's plans
    # trials decide no lead (population scope): only the questions panel
    only_q = charts.gap_curve_chart(_gap_frame([np.inf, np.inf, 0.2, 0.07])).to_dict()
    assert len(only_q["hconcat"]) == 1
    assert only_q["hconcat"][0]["layer"][0]["encoding"]["x"]["title"] == "questions"
    # a zero lead (any lead will do) or a reversed estimate: a linear axis from below zero
    lin = charts.gap_curve_chart(_gap_frame([0.0, 0.0, 0.2, 0.07], now=-0.02)).to_dict()
    scale = lin["hconcat"][0]["layer"][0]["encoding"]["y"]["scale"]
    assert "type" not in scale and scale["domain"][0] == -0.02
    nothing = charts.gap_curve_chart(_gap_frame([np.nan, np.inf, np.nan, np.inf])).to_dict()
    assert len(nothing["hconcat"]) == 1 and "layer" not in nothing["hconcat"][0]


def test_a_chart_with_nothing_to_draw_says_why_on_the_page():
    """``Chart.empty`` (e.g. the Planner's gap curve for a pair no plan can reach): the page
    shows the title and the reason, and no empty chart or download buttons."""
    from streamlit.testing.v1 import AppTest

    def page():
        import altair as alt
        import pandas as pd

        from app_pages import _render
        from scorio_core.definitions._base import Chart

        chart = alt.Chart(pd.DataFrame({"n": [1]})).mark_point()
        _render.chart(Chart("Nothing here", chart, "caption", empty="no plan can be made"),
                      "t")
        _render.chart(Chart("Something here", chart, "a caption"), "u")

    from app_pages._render import RUNS

    at = AppTest.from_function(page)
    at.session_state[RUNS] = 2  # past a session's first run, which defers its charts
    at.run()
    assert not at.exception
    assert [i.value for i in at.info] == ["no plan can be made"]
    assert len(at.get("vega_lite_chart")) == 1 and [c.value for c in at.caption] == ["a caption"]


#: A panel of the Planner's side-by-side charts in a 1024 px window (half the main column,
#: as measured in Chromium; ``test_browser`` checks the labels there, where a browser runs).
PANEL_1024_PX = 274


def _legends(spec):
    """Every legend declared in a (layered) chart spec."""
    if isinstance(spec, dict):
        if isinstance(spec.get("legend"), dict):
            yield spec["legend"]
        for v in spec.values():
            yield from _legends(v)
    elif isinstance(spec, list):
        for v in spec:
            yield from _legends(v)


def test_planner_panel_legends_fit_a_panel_at_1024_px():
    """The page draws the order and gap curves as panels in half the main column
    (``_render.panels``): their bottom legends cut "simulated mean" (a row of two) and
    "smallest lead decided (any field)" (labels up to 320 px) at the panel's edge at 1024 px.
    Each legend lists one entry a line, its labels within :data:`PANEL_LABEL_PX`, and every
    label is drawn whole at that panel width under Streamlit's type sizes."""
    import dataclasses
    import re
    import sys
    from pathlib import Path

    from app_pages._render import panels, vega_lite
    from scorio_core.planner import order_curve

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from test_chart_readability import STREAMLIT_THEME

    vlc = pytest.importorskip("vl_convert")
    c = order_curve([0.7] * 5, [0.6] * 5, [1, 2, 4, 8], sims=20)
    c = dataclasses.replace(c, z_projected=c.z_mean, p_decided=np.linspace(0.2, 0.9, 4),
                            p_at_lead=np.linspace(0.1, 0.8, 4), lead=0.0125)
    drawn = []
    for chart in (charts.order_curve_chart(c, 1.645),
                  charts.gap_curve_chart(_gap_frame([0.2, 0.05, 0.2, 0.07]), lead=0.0125)):
        for panel in panels(vega_lite(chart)):
            legends = list(_legends(panel))
            assert legends and all(
                (g["orient"], g["columns"], g["labelLimit"]) == ("bottom", 1, charts.PANEL_LABEL_PX)
                for g in legends), legends
            panel = {**panel, "width": PANEL_1024_PX,
                     "config": {**panel.get("config", {}), **STREAMLIT_THEME}}
            svg = vlc.vegalite_to_svg(panel).replace("&apos;", "'")
            assert "…" not in svg
            drawn += [re.findall(r">([^<]*)</text>", part[:part.find("</g>")])
                      for part in svg.split('class="mark-text role-legend-label"')[1:]]
    labels = {t for part in drawn for t in part}
    assert {"correct order (papers)", "decided (ours)", "decided if lead is 0.0125",
            "simulated mean", "projection (App. D)", "smallest lead decided", "today's estimate",
            "lead that matters"} <= labels, labels


def _tooltip_texts(spec: dict, field: str) -> list[str]:
    """The texts a chart's tooltip shows of ``field``: its inline dataset's ``field`` column,
    which a tooltip entry names as a nominal text (not a d3 format of the number)."""
    enc = (spec.get("encoding") or {}) if "layer" not in spec else spec["layer"][0]["encoding"]
    tips = {t["field"]: t for t in enc["tooltip"] if isinstance(t, dict)}
    assert tips[field]["type"] == "nominal" and "format" not in tips[field]
    return _data(spec)[field].tolist()


def test_forest_tooltip_reads_a_share_of_draws_as_the_table_does():
    """A model first in none of 10,000 draws had a tooltip P(best) of ``0.000`` beside the
    table's ``<0.001`` (and the one first in all of them ``1.000`` for ``>0.999``): the
    tooltip text is the table's own cell, its draws included."""
    from scorio_core.formatting import format_frame

    rng = np.random.default_rng(0)
    R = rng.binomial(1, [[[0.2]], [[0.5]], [[0.95]]], (3, 40, 4))
    board = leaderboard(R)
    assert board.table["p_best"].tolist() == [1.0, 0.0, 0.0]  # far apart: every draw agrees
    assert board.table.attrs["draws"] == {"p_best": 10_000}
    texts = _tooltip_texts(charts.forest_plot(board).to_dict(), "p_best_text")
    assert texts == [">0.999", "<0.001", "<0.001"]
    assert texts == format_frame(board.table)["p_best"].tolist()
    # one model: its p_best of 1 is exact by construction, and reads so
    one = leaderboard(R[:1])
    assert _tooltip_texts(charts.forest_plot(one).to_dict(), "p_best_text") == ["1.000"]


def test_reliability_tooltip_never_reads_a_probability_below_one_as_certain():
    from scorio_core.charts.check import p_best_reliability

    table = pd.DataFrame({"scope": ["questions"] * 3, "bin": ["0.0-0.1", "0.5-0.6", "0.9-1.0"],
                          "count": [40, 0, 25], "predicted": [0.00002, np.nan, 0.99996],
                          "observed": [0.0, np.nan, 1.0], "se": [0.0, np.nan, 0.0]})
    spec = p_best_reliability(table).to_dict()
    tips = {t["field"]: t for t in spec["layer"][2]["encoding"]["tooltip"]
            if isinstance(t, dict)}
    assert "format" not in tips["predicted_text"] and tips["predicted_text"]["title"] == "predicted"
    (df,) = [pd.DataFrame(v) for v in spec["datasets"].values() if "predicted_text" in v[0]]
    assert df["predicted_text"].tolist() == ["<0.0001", ">0.9999"]  # the empty bin left out
    assert df["observed_text"].tolist() == ["0.0000", "1.0000"]  # exact shares stay
