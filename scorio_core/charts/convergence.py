"""Convergence charts: τ_b vs trials, the PMF and CDF of convergence@n, rank trajectories
(Don't Pass@k (2026), App. I, Figs. 2-3).  ``*_CAPTION`` constants say in one line what to read."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from .._validation import checked_keywords, model_names
from ..formatting import column_texts
from ._common import name_legend, rank_y, series_encodings, whole_axis

__all__ = [
    "tau_curves",
    "TAU_CURVES_CAPTION",
    "convergence_pmf",
    "CONVERGENCE_PMF_CAPTION",
    "convergence_cdf",
    "CONVERGENCE_CDF_CAPTION",
    "rank_trajectory_chart",
    "rank_trajectory_title",
    "RANK_TRAJECTORY_CAPTION",
]

TAU_CURVES_CAPTION = (
    "Mean Kendall τ_b against the target after n trials (band: ±1 s.d. over replicates): "
    "the higher and earlier a curve reaches 1, the fewer trials that method needs."
)
CONVERGENCE_PMF_CAPTION = (
    "How often each trial count n is the point after which the ranking matches the target "
    "for good; mass further left means fewer trials suffice (missing mass = no convergence)."
)
CONVERGENCE_CDF_CAPTION = (
    "Share of replicates whose ranking has settled on the target by n trials; a curve that "
    "tops out below 1 leaves that share unconverged within the budget."
)
RANK_TRAJECTORY_CAPTION = (
    "Each model's rank after each trial of one replicate (one bootstrap resample of the "
    "trials); lines still crossing late mean the ranking was not settled until then (the "
    "dashed line marks convergence@n)."
)


@checked_keywords
def rank_trajectory_title(method: str, converged_at: int) -> str:
    """The title of :func:`rank_trajectory_chart` for the replicate the convergence
    analysis draws (``ConvergenceRun.worst``): the slowest of the replicates that settle on
    the target for good (``converged_at`` > 0, its convergence@n), or, where it draws one
    that never does (``converged_at`` = 0), that; the caption says how many settle. Not
    "worst case": the slowest replicate that settles is not the worst of all where most
    never settle. One line on the page at 1280 px.

    Example
    -------
    >>> from scorio_core.charts import rank_trajectory_title
    >>> rank_trajectory_title("bayes", 3)
    'Ranks after each trial: the slowest replicate to settle (bayes)'
    >>> rank_trajectory_title("bayes", 0)
    'Ranks after each trial: a replicate that never settles (bayes)'
    """
    which = ("the slowest replicate to settle" if converged_at
             else "a replicate that never settles")
    return f"Ranks after each trial: {which} ({method})"


#: The methods' legend: the first layer is a faint band, so its symbols are opaque strokes
#: (else they took the band's opacity and did not say which line is which).
_METHOD_LEGEND = dict(labelLimit=260, symbolType="stroke", symbolOpacity=1, symbolStrokeWidth=3)


def _methods(frame: pd.DataFrame, **legend) -> dict:
    """One colour (and beyond 20 methods a dash) per method, in the frame's order."""
    return series_encodings("method", frame["method"].astype(str),
                            legend=alt.Legend(**{**_METHOD_LEGEND, **legend}))


def _steps(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """``frame`` (one row per ``by`` and whole ``n``) as centred steps: each value drawn from
    ``n - 0.5`` to ``n + 0.5`` (column ``x``) under its own tick, the last one too.

    A ``step-after`` line through the points ``n`` ends at the last ``n``, so that step had
    no width and its mass was invisible (at N = 4 trials, a third of the PMF's steps). Each
    series gets one closing row at ``last n + 0.5``; ``n`` keeps the whole trial count for
    the tooltip.
    """
    f = frame.sort_values([by, "n"], kind="stable").assign(x=lambda d: d["n"] - 0.5)
    last = f.groupby(by, sort=False).tail(1).assign(x=lambda d: d["n"] + 0.5)
    return pd.concat([f, last], ignore_index=True).sort_values([by, "x"], kind="stable")


def _step_x(frame: pd.DataFrame, title: str) -> alt.X:
    """The x channel of :func:`_steps`: every whole n of a short range has its own tick."""
    n = frame["n"]
    lo, hi = (float(n.min()) - 0.5, float(n.max()) + 0.5) if len(n) else (0.5, 1.5)
    return alt.X("x:Q", title=title, scale=alt.Scale(domain=[lo, hi], nice=False, zero=False),
                 axis=whole_axis(n))


@checked_keywords
def tau_curves(summary: pd.DataFrame, *, y_title: str = "Kendall τ_b vs target") -> alt.LayerChart:
    """Lines of mean τ_b against n with a ±1 s.d. band, one colour per method.

    ``summary`` has columns method, n, mean, sd (``Curves.summary``).
    """
    d = summary.dropna(subset=["mean"]).copy()
    d["lo"] = (d["mean"] - d["sd"]).clip(lower=-1)
    d["hi"] = (d["mean"] + d["sd"]).clip(upper=1)
    series = _methods(d)
    base = alt.Chart(d).encode(
        x=alt.X("n:Q", title="trials n", scale=alt.Scale(domainMin=1),
                axis=whole_axis(d["n"], lo=1)),
    )
    band = base.mark_area(opacity=0.18).encode(
        y=alt.Y("lo:Q", title=y_title, scale=alt.Scale(zero=False)), y2="hi:Q",
        color=series["color"],
    )
    # points too: a method defined at one step only (Pass@k with k = N) is still visible
    line = base.mark_line(strokeWidth=2, point=True).encode(
        y="mean:Q",
        tooltip=[
            "method",
            "n",
            alt.Tooltip("mean:Q", format=".4f"),
            alt.Tooltip("sd:Q", format=".4f"),
        ],
        **series,
    )
    return (band + line).properties(height=320, width="container")


def _with_mass(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """The methods of ``frame`` with some replicate converged (``column`` above 0 somewhere):
    a method that never converged is a line at 0, drawn under the x axis and the other
    methods' outlines while its legend entry said it was there. All of them when none has
    (the definitions say so instead of drawing the chart)."""
    has = frame.groupby("method", sort=False)[column].transform("max") > 0
    return frame[has] if has.any() else frame


@checked_keywords
def convergence_pmf(pmf: pd.DataFrame) -> alt.LayerChart:
    """Step outline of P(convergence@n = n) per method, lightly filled (Don't Pass@k (2026),
    Fig. 1); each step is centred on its n and one trial wide, the last one too. Methods
    with no replicate converged are left out (a flat line at 0 under the others)."""
    pmf = _with_mass(pmf, "p")
    # the tooltip's P as the table prints it: a mass below 1 never reads a certain '1.0000'
    pmf = pmf.assign(p_text=column_texts(pmf, "p"))
    d = _steps(pmf, "method")
    series = _methods(pmf)
    base = alt.Chart(d).encode(
        x=_step_x(pmf, "convergence@n (trials)"),
        y=alt.Y("p:Q", title="probability", stack=None),
    )
    area = base.mark_area(interpolate="step-after", opacity=0.15).encode(color=series["color"])
    line = base.mark_line(interpolate="step-after", strokeWidth=1.6).encode(
        tooltip=["method", "n", alt.Tooltip("p_text:N", title="p")], **series
    )
    return (area + line).properties(height=260, width="container")


@checked_keywords
def convergence_cdf(cdf: pd.DataFrame) -> alt.Chart:
    """Step lines of P(convergence@n <= n) per method (Don't Pass@k (2026), Fig. 11), each step
    centred on its n and one trial wide; methods with no replicate converged are left out."""
    cdf = _with_mass(cdf, "cdf")
    return (
        alt.Chart(_steps(cdf, "method"))
        .mark_line(interpolate="step-after", strokeWidth=2)
        .encode(
            x=_step_x(cdf, "trials n"),
            y=alt.Y("cdf:Q", title="P(convergence@n ≤ n)", scale=alt.Scale(domain=[0, 1])),
            tooltip=["method", "n", alt.Tooltip("cdf:Q", format=".4f")],
            **_methods(cdf, symbolType="stroke"),
        )
        .properties(height=260, width="container")
    )


@checked_keywords
def rank_trajectory_chart(
    trajectory: np.ndarray, models: Sequence[str], converged_at: int | None = None
) -> alt.LayerChart:
    """Rank of each model after each trial of one replicate (Don't Pass@k (2026), Fig. 9); 1 is at
    the top. Each trial's ranks are a step centred on its n, the last trial's too."""
    traj = np.asarray(trajectory)
    N, L = traj.shape
    models = model_names(models, L, of="column of the trajectory")  # "a,b": split
    d = pd.DataFrame(
        {
            "n": np.repeat(np.arange(1, N + 1), L),
            "model": np.tile([str(m) for m in models], N),
            "rank": traj.ravel(),
        }
    )
    d = d[d["rank"] > 0]
    final = d[d["n"] == d["n"].max()]
    order = final.sort_values("rank", kind="stable")["model"].tolist()
    order += [m for m in dict.fromkeys(d["model"]) if m not in order]
    lines = (
        alt.Chart(_steps(d, "model"))
        .mark_line(strokeWidth=1.6, interpolate="step-after")
        .encode(
            x=_step_x(d, "trials n"),
            y=rank_y("rank", L),
            tooltip=["model", "n", "rank"],
            **series_encodings("model", order, title="model (final order)", legend=name_legend(
                order, symbolLimit=0, symbolType="stroke", symbolStrokeWidth=3)),
        )
    )
    layers = [lines]
    if converged_at:
        rule = (
            alt.Chart(pd.DataFrame({"x": [converged_at]}))
            .mark_rule(strokeDash=[4, 4], color="gray")
            .encode(x="x:Q")
        )
        layers.append(rule)
    # fit the width only: the height is the plot's, with the legend below it (fitted to a
    # height as well, the names' legend took it and left the ranks a 60 px strip)
    return alt.layer(*layers).properties(
        height=max(280, 24 * L), width="container",
        autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
