"""Question-view and Pass@k-curve charts: the models × questions heatmap, difficulty against
discrimination, and Pass@k / Pass^k curves with their interval bands."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from ._common import _model_axis, _rows, inline, log_axis, series_encodings, whole_axis

__all__ = ["question_heatmap", "item_map", "pass_curve_chart", "PANEL_WIDTH"]


#: Name of the heatmap's click selection (fields ``model`` and ``position``).
CELL = "cell"


def question_heatmap(stats, columns: int = 200) -> alt.Chart:
    """Models (rows, best first) × questions (columns, easiest first) coloured by each
    model's mean score over its trials on the question.

    Parameters
    ----------
    stats : scorio_core.engines.questions.QuestionStats
    columns : int
        Most columns drawn; more questions are averaged into bins in difficulty order.
    """
    frame, width = stats.heatmap_frame(columns)
    n_cols = int(frame["position"].max()) + 1 if len(frame) else 0
    lo, hi = min(stats.weights), max(stats.weights)
    title = "questions, easiest first" + (f" (bins of {width})" if width > 1 else "")
    px = max(2, min(14, 900 // max(n_cols, 1)))
    # a click selects one cell (the app opens that model and question in the Pair view);
    # static renderers just draw the chart
    cell = alt.selection_point(name=CELL, fields=["model", "position"], on="click",
                               clear="dblclick", empty=False)
    return (
        alt.Chart(inline(frame))
        .mark_rect()
        .encode(
            x=alt.X("position:O", title=title, axis=alt.Axis(labels=False, ticks=False)),
            y=alt.Y("model:N", sort=list(stats.models), title=None, axis=_model_axis()),
            color=alt.Color("score:Q", scale=alt.Scale(scheme="viridis", domain=[lo, hi]),
                            title="score"),
            stroke=alt.condition(cell, alt.value("#d62728"), alt.value(None)),
            strokeWidth=alt.condition(cell, alt.value(2), alt.value(0)),
            tooltip=["model:N", "question:N", alt.Tooltip("score:Q", format=".3f")],
        )
        .add_params(cell)
        .properties(width=alt.Step(px), height=_rows(len(stats.models)))
    )


def _max_disagreement(L: int, weights) -> float:
    """The largest disagreement (Gini mean difference of the models' scores) ``L`` models can
    have on a question: half of them at the lowest weight, half at the highest.

    Example
    -------
    >>> from scorio_core.charts.questions import _max_disagreement
    >>> _max_disagreement(2, [0, 1]), round(_max_disagreement(3, [0, 1]), 4)
    (1.0, 0.6667)
    """
    span = float(max(weights) - min(weights))
    if L < 2 or span <= 0:
        return 1.0
    return span * (L // 2) * (L - L // 2) / (L * (L - 1) / 2)


def item_map(stats) -> alt.Chart:
    """2PL difficulty (x) against discrimination (y), one point per informative question
    whose fit has a usable slope (``QuestionStats.collapsed`` lists the others); colour =
    disagreement between models. Empty when the 2PL fit was not run."""
    from ..engines.questions import MAX_DIFFICULTY, MIN_SLOPE

    t = stats.table
    keep = (np.isfinite(t["difficulty"]) & np.isfinite(t["discrimination"])
            & (t["discrimination"] >= MIN_SLOPE) & (t["difficulty"].abs() <= MAX_DIFFICULTY))
    extra = [c for c in t.columns if c not in {
        "question", "mean", "sd_models", "disagreement", "difficulty", "discrimination",
        "item_rest_r", "status", "best", "worst"}]
    cols = ["question", *extra, "mean", "difficulty", "discrimination", "disagreement"]
    frame = t.loc[keep, cols].reset_index(drop=True)
    # from 0 (models agree) up: one disagreement on every point (or one point) still gets a
    # scale that says where it lies, not a legend of that one value
    top = float(frame["disagreement"].max()) if len(frame) else 0.0
    top = top if top > 0 else _max_disagreement(len(stats.models), stats.weights)
    return (
        alt.Chart(inline(frame))
        .mark_circle(size=40, opacity=0.75)
        .encode(
            x=alt.X("difficulty:Q", title="2PL difficulty b (higher = harder)"),
            y=alt.Y("discrimination:Q", title="2PL discrimination a (log scale)",
                    scale=alt.Scale(type="log"), axis=log_axis(frame["discrimination"])),
            color=alt.Color("disagreement:Q", title="disagreement",
                            scale=alt.Scale(scheme="orangered", domain=[0.0, top])),
            tooltip=["question:N", *[f"{c}:N" for c in extra],
                     alt.Tooltip("mean:Q", format=".3f"),
                     alt.Tooltip("difficulty:Q", format=".2f"),
                     alt.Tooltip("discrimination:Q", format=".2f"),
                     alt.Tooltip("disagreement:Q", format=".3f")],
        )
        .properties(width="container", height=320)
    )


#: Width of one Pass-curve panel where no container sets it (SVG/PNG files, the report).
#: The panels are stacked, one per row: in the app each takes the page column's width
#: (Streamlit stretches every panel of a vertical concatenation), so they never run past
#: it, even in an 800 px window; side-by-side panels of a fixed width (2 × 300 px) ran
#: ~330 px past that window's ~450 px column.
PANEL_WIDTH = 640
#: Height of one panel's plot: two stacked panels and their legend stay within a screen.
PANEL_HEIGHT = 260
#: Narrowest page column the legend must fit (an 800 px window with the sidebar open).
NARROW_COLUMN_PX = 440
#: Longest model name shown in full in the legend (longer ones end in "…"; hover a line).
_LEGEND_LABEL_LIMIT = 200
_LEGEND_PX_PER_CHAR = 7.5  # Streamlit's theme draws legend labels in 14 px type
_LEGEND_SYMBOL_PX = 40  # the stroke symbol, its padding and the column padding


def _legend_columns(models, most: int = 3) -> int:
    """Columns of the Pass-curve legend: as many as fit :data:`NARROW_COLUMN_PX` with the
    longest name in full (up to :data:`_LEGEND_LABEL_LIMIT`), at most ``most``.

    Example
    -------
    >>> from scorio_core.charts.questions import _legend_columns
    >>> _legend_columns(["LLM_1", "LLM_11"]), _legend_columns(["gemini-1.5-pro-preview-0409"])
    (3, 1)
    """
    longest = max((len(str(m)) for m in models), default=0)
    per_column = min(longest * _LEGEND_PX_PER_CHAR, _LEGEND_LABEL_LIMIT) + _LEGEND_SYMBOL_PX
    return int(max(1, min(most, NARROW_COLUMN_PX // per_column)))


def _one_curve(frame: pd.DataFrame, curve: str, order: list, N: int, width):
    series = series_encodings("model", order, legend=alt.Legend(
        labelLimit=_LEGEND_LABEL_LIMIT, title=None, orient="bottom",
        columns=_legend_columns(order), symbolType="stroke", symbolOpacity=1,
        symbolStrokeWidth=3))
    log_x, points = N >= 16, N <= 16
    # k is a whole number: integer ticks only (powers of 2 on the log axis)
    # (and N itself, the last point: at N = 100 the axis ended at 64)
    powers = [2**e for e in range(int(np.log2(N)) + 1)]
    powers = powers + ([N] if N > powers[-1] and np.log2(N / powers[-1]) >= 0.5 else [])
    axis = (alt.Axis(values=powers, format="d") if log_x else whole_axis(range(1, N + 1)))
    x = alt.X("k:Q", title="k (draws per question)", scale=alt.Scale(
        type="log", base=2, domain=[1, N], nice=False) if log_x else alt.Scale(domain=[1, N]),
        axis=axis)
    base = alt.Chart(inline(frame[frame["curve"] == curve]))
    band = base.mark_area(opacity=0.15).encode(x=x, y="lo:Q", y2="hi:Q",
                                               color=series["color"])
    line = base.mark_line(point=points).encode(
        x=x,
        y=alt.Y("value:Q", title=f"{curve} (unbiased estimate)", scale=alt.Scale(domain=[0, 1])),
        tooltip=["model:N", "k:Q", alt.Tooltip("value:Q", format=".4f"),
                 alt.Tooltip("lo:Q", format=".4f"), alt.Tooltip("hi:Q", format=".4f")],
        **series,
    )
    return (band + line).properties(width=width, height=PANEL_HEIGHT, title=curve)


def pass_curve_chart(curves) -> alt.LayerChart | alt.VConcatChart:
    """One panel per curve (Pass@k, Pass^k, G-Pass@k_τ), one line per model: the unbiased
    estimate at every ``k`` with the band of its pointwise interval in the curves' scope.

    One curve fills its container's width; two or three are stacked, one panel per row,
    each as wide as the container in the app (:data:`PANEL_WIDTH` px in a file), with the
    axes and legend fitted inside that width (``autosize="fit-x"``): the chart never runs
    past the page column, however narrow the window. The legend below has as many columns
    as fit a narrow column (:func:`_legend_columns`). Up to 20 models have 20 distinct
    colours; more are told apart by a dash as well
    (:func:`~scorio_core.charts.series_encodings`).

    Parameters
    ----------
    curves : scorio_core.curves.PassCurves
    """
    t = curves.table
    frame = pd.DataFrame({"model": t["model"].astype(str), "curve": t["curve"], "k": t["k"],
                          "value": t["value"], "lo": t["lo"], "hi": t["hi"]})
    order = [str(m) for m in curves.models]
    kinds = list(dict.fromkeys(frame["curve"]))
    if len(kinds) == 1:
        return _one_curve(frame, kinds[0], order, curves.N, "container")
    panels = [_one_curve(frame, c, order, curves.N, PANEL_WIDTH) for c in kinds]
    return alt.vconcat(*panels).resolve_scale(color="shared", strokeDash="shared").properties(
        autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
