"""Question-view and Pass@k-curve charts: the models × questions heatmap, difficulty against
discrimination, and Pass@k / Pass^k curves with their interval bands."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .._validation import checked_keywords
from ._common import (
    _model_axis,
    _rows,
    inline,
    log_axis,
    name_legend,
    series_encodings,
    whole_axis,
)

__all__ = [
    "question_heatmap", "item_map", "pass_curve_chart", "ranked_models", "highlighted_models",
    "highlight_note", "PANEL_WIDTH", "HIGHLIGHTED", "MOST_HIGHLIGHTED",
]


#: Name of the heatmap's click selection (fields ``model`` and ``position``).
CELL = "cell"


@checked_keywords
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


@checked_keywords
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
#: Models drawn in colour with their interval bands: every model among the ``HIGHLIGHTED``
#: best at some ``k`` of some curve drawn (:func:`highlighted_models`). The audit's 16 models
#: drew 16 overlapping bands, one grey mass, in 16 colours no reader could match to the
#: legend; the others are thin grey lines (each still in the legend, its name in the tooltip;
#: click one, or its legend entry, to show it with its band). The best five at ``k = 1``
#: alone left grey lines at the top of the default data's Pass@k panel from k = 4 on.
HIGHLIGHTED = 5
#: At most this many models in colour, however many reach the best five at some ``k``: the
#: first eight colours of :data:`~._common.PALETTE` (its tenth is a grey like the others').
MOST_HIGHLIGHTED = 8
#: Names of the Pass curves' two selections of models (field ``model``): a click on a legend
#: entry, and a click on a line. One selection bound to both stops answering legend clicks
#: once its lines are layered in stacked panels (Vega-Lite 5/6 in the app's browser).
FOCUS, FOCUS_CLICK = "focus", "focus_click"
#: Colour of a clicked model that is not highlighted (darker than ``OTHER_COLOUR``).
CHOSEN_GREY = "#555555"
#: Vega expressions: the datum's model is chosen (by either selection); nothing is chosen.
_CHOSEN = " || ".join(f"(length(data('{n}_store')) && vlSelectionTest('{n}_store', datum))"
                      for n in (FOCUS, FOCUS_CLICK))
_NONE = " && ".join(f"!length(data('{n}_store'))" for n in (FOCUS, FOCUS_CLICK))


@checked_keywords
def ranked_models(curves) -> list[str]:
    """The curves' models best first by their value at ``k = 1`` (every curve's value
    there: the mean score), ties in the data's order: the legend's order within the
    coloured models (:func:`highlighted_models`) and within the grey ones.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.curves import pass_curves
    >>> from scorio_core.charts.questions import ranked_models
    >>> R = np.array([[[0, 0], [0, 1]], [[1, 1], [1, 0]]])  # b is better
    >>> ranked_models(pass_curves(R, models=["a", "b"]))
    ['b', 'a']
    """
    t = curves.table
    first = t[(t["k"] == 1) & (t["curve"] == t["curve"].iloc[0])]
    # rounded: equal scores summed in another order are still a tie (kept in data order)
    value = dict(zip(first["model"].astype(str), first["value"].round(12), strict=True))
    order = [str(m) for m in curves.models]
    return sorted(order, key=lambda m: -value.get(m, -np.inf))


def _best_places(curves) -> dict[str, int]:
    """Each model's highest place (1 = top) at any ``k`` of any curve of ``curves``; a tie
    is broken by the order at ``k = 1`` (:func:`ranked_models`), the order in which the
    lines are drawn over one another (the better one at ``k = 1`` on top)."""
    t = curves.table
    order = ranked_models(curves)
    first = {m: i for i, m in enumerate(order)}
    frame = pd.DataFrame({"model": t["model"].astype(str), "curve": t["curve"], "k": t["k"],
                          "value": t["value"].round(12)})  # as in ranked_models: ties stay ties
    frame["first"] = frame["model"].map(first)
    frame = frame.sort_values(["curve", "k", "value", "first"],
                              ascending=[True, True, False, True], kind="stable")
    frame["place"] = frame.groupby(["curve", "k"], sort=False).cumcount() + 1
    best = frame.groupby("model", sort=False)["place"].min()
    return {m: int(best.get(m, len(order))) for m in order}


@checked_keywords
def highlighted_models(curves) -> list[str]:
    """The models the Pass curves draw in colour, in :func:`ranked_models` order: every one
    among the :data:`HIGHLIGHTED` best at some ``k`` of some curve drawn, so the top of
    every panel is coloured at every ``k`` (the best five at ``k = 1`` alone left grey
    lines above the fifth coloured one where curves cross). At most
    :data:`MOST_HIGHLIGHTED`: past that, the models that reach the highest places (ties by
    the order at ``k = 1``), so the top places stay coloured at every ``k``.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.curves import pass_curves
    >>> from scorio_core.charts.questions import highlighted_models
    >>> # six models solve questions 0..9-i every time, the others never; "late" solves
    >>> # every question once in 6 tries: last at k = 1 (1/6), first at k = 6 (Pass@6 = 1)
    >>> steady = [np.repeat(np.arange(20)[:, None] < 10 - i, 6, axis=1) for i in range(6)]
    >>> late = np.tile([1, 0, 0, 0, 0, 0], (20, 1))
    >>> R = np.stack(steady + [late]).astype(int)
    >>> names = [f"m{i}" for i in range(6)] + ["late"]
    >>> highlighted_models(pass_curves(R, kinds=("pass",), models=names))
    ['m0', 'm1', 'm2', 'm3', 'm4', 'late']
    """
    order = ranked_models(curves)
    best = _best_places(curves)
    shown = [m for m in order if best[m] <= HIGHLIGHTED]
    if len(shown) > MOST_HIGHLIGHTED:
        kept = set(sorted(shown, key=lambda m: best[m])[:MOST_HIGHLIGHTED])  # stable: k = 1
        shown = [m for m in shown if m in kept]
    return shown


@checked_keywords
def highlight_note(curves) -> str:
    """Which lines the Pass curves draw in colour, for the chart's caption (``''`` when
    every line has a colour).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.curves import pass_curves
    >>> from scorio_core.charts.questions import highlight_note
    >>> # as in highlighted_models: seven steady models and one that is last at k = 1 only
    >>> steady = [np.repeat(np.arange(20)[:, None] < 10 - i, 6, axis=1) for i in range(7)]
    >>> R = np.stack(steady + [np.tile([1, 0, 0, 0, 0, 0], (20, 1))]).astype(int)
    >>> highlight_note(pass_curves(R, kinds=("pass",)))
    'in colour the 6 models that are among the 5 best at some k, in grey the other 2'
    """
    shown, L = highlighted_models(curves), len(curves.models)
    if len(shown) == L:
        return ""
    ever = sum(b <= HIGHLIGHTED for b in _best_places(curves).values())
    which = (f"the {len(shown)} models that are among the {HIGHLIGHTED} best at some k"
             if ever == len(shown) else
             f"the {len(shown)} models that reach the highest places at some k (of the "
             f"{ever} among the {HIGHLIGHTED} best at some k; at most {MOST_HIGHLIGHTED} "
             "in colour)")
    return f"in colour {which}, in grey the other {L - len(shown)}"


def _one_curve(frame: pd.DataFrame, curve: str, order: list, n_top: int, N: int, width,
               name: int) -> alt.LayerChart:
    color = series_encodings("model", order, highlight=n_top, legend=name_legend(
        order, title=None, orient="bottom", symbolType="stroke", symbolOpacity=1,
        symbolStrokeWidth=3))["color"]
    log_x, points = N >= 16, N <= 16
    # k is a whole number: integer ticks only (powers of 2 on the log axis)
    # (and N itself, the last point: at N = 100 the axis ended at 64)
    powers = [2**e for e in range(int(np.log2(N)) + 1)]
    powers = powers + ([N] if N > powers[-1] and np.log2(N / powers[-1]) >= 0.5 else [])
    axis = (alt.Axis(values=powers, format=",d") if log_x else whole_axis(range(1, N + 1)))
    x = alt.X("k:Q", title="k (draws per question)", scale=alt.Scale(
        type="log", base=2, domain=[1, N], nice=False) if log_x else alt.Scale(domain=[1, N]),
        axis=axis)
    # a clicked grey model turns dark grey (its line and band), so it stands out
    color = alt.when(f"!datum.top && ({_CHOSEN})").then(alt.value(CHOSEN_GREY)).otherwise(
        color)
    y = alt.Y("value:Q", title=f"{curve} (unbiased estimate)", scale=alt.Scale(domain=[0, 1]))
    base = alt.Chart(inline(frame[frame["curve"] == curve]))
    # the bands of the highlighted models, or of the clicked ones alone once any is clicked
    shown = alt.when(_CHOSEN).then(alt.value(0.2)).when(f"({_NONE}) && datum.top").then(
        alt.value(0.12)).otherwise(alt.value(0))
    band = base.mark_area().encode(x=x, y="lo:Q", y2="hi:Q", color=color, opacity=shown)
    tooltip = ["model:N", "k:Q", alt.Tooltip("value:Q", format=".4f"),
               alt.Tooltip("lo:Q", format=".4f"), alt.Tooltip("hi:Q", format=".4f")]
    line = base.mark_line(point=points).encode(
        x=x, y=y, color=color, tooltip=tooltip,
        strokeWidth=alt.when(_CHOSEN).then(alt.value(3)).when(alt.datum.top).then(
            alt.value(2)).otherwise(alt.value(1)),
        opacity=alt.when(f"({_NONE}) || {_CHOSEN}").then(alt.value(1)).otherwise(
            alt.value(0.25)),
    ).properties(name=f"{FOCUS}_{name}")
    return alt.layer(band, line).properties(width=width, height=PANEL_HEIGHT, title=curve)


@checked_keywords
def pass_curve_chart(curves) -> alt.LayerChart | alt.VConcatChart:
    """One panel per curve (Pass@k, Pass^k, G-Pass@k_τ), one line per model: the unbiased
    estimate at every ``k`` with the band of its pointwise interval in the curves' scope.

    The models among the :data:`HIGHLIGHTED` best at some ``k`` (:func:`highlighted_models`,
    at most :data:`MOST_HIGHLIGHTED`) are drawn in distinct colours with their bands, the
    others as thin grey lines without (listed in the legend after them; the tooltip names
    each line), so no grey line runs along the top of a panel: readable with 30 models, in a file
    (report, SVG) as well. Where the chart is interactive (app, notebook), a click on a
    legend entry or on a line (shift-click for more) shows those models alone with their
    bands, a clicked grey one in dark grey (:data:`CHOSEN_GREY`); a click beside the plots
    clears the legend's choice, a double click the lines'.

    One curve fills its container's width; two or three are stacked, one panel per row,
    each as wide as the container in the app (:data:`PANEL_WIDTH` px in a file), with the
    axes and legend fitted inside that width (``autosize="fit-x"``): the chart never runs
    past the page column, however narrow the window. The legend below has as many columns
    as fit a narrow column (:func:`~._common.name_legend`).

    Parameters
    ----------
    curves : scorio_core.curves.PassCurves
    """
    t = curves.table
    top = highlighted_models(curves)  # the coloured ones first, each group best at k = 1 first
    order = top + [m for m in ranked_models(curves) if m not in top]
    n_top = len(top)
    frame = pd.DataFrame({"model": t["model"].astype(str), "curve": t["curve"], "k": t["k"],
                          "value": t["value"], "lo": t["lo"], "hi": t["hi"]})
    frame["top"] = frame["model"].isin(order[:n_top])
    # each model's lines are drawn in the order of its first row: the best last, on top
    rank = {m: i for i, m in enumerate(order)}
    frame = frame.sort_values("model", key=lambda s: -s.map(rank), kind="stable")
    kinds = list(dict.fromkeys(t["curve"]))
    panels = [_one_curve(frame, c, order, n_top, curves.N,
                         "container" if len(kinds) == 1 else PANEL_WIDTH, i)
              for i, c in enumerate(kinds)]
    chart = panels[0] if len(panels) == 1 else alt.vconcat(*panels).resolve_scale(
        color="shared").properties(autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
    # a legend entry or a line, clicked, shows those models alone: declared once here, for
    # the lines of every panel (one declaration per panel is two selections of one name)
    views = [f"{FOCUS}_{i}" for i in range(len(panels))]
    # (a click beside the plots clears the first, a double click the second)
    select = {"type": "point", "fields": ["model"]}
    chart.params = [
        alt.TopLevelSelectionParameter(name=FOCUS, bind="legend", views=views, select=select),
        alt.TopLevelSelectionParameter(name=FOCUS_CLICK, views=views, select={
            **select, "on": "click", "clear": "dblclick"}),
    ]
    return chart
