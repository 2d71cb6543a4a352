"""Convergence charts: τ_b vs trials, the PMF and CDF of convergence@n, rank trajectories
(000 App. I, Figs. 2-3).  ``*_CAPTION`` constants say in one line what to read."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from ._common import PALETTE, whole_axis

__all__ = [
    "tau_curves",
    "TAU_CURVES_CAPTION",
    "convergence_pmf",
    "CONVERGENCE_PMF_CAPTION",
    "convergence_cdf",
    "CONVERGENCE_CDF_CAPTION",
    "rank_trajectory_chart",
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
    "Each model's rank after each trial in the slowest replicate; lines still crossing late "
    "mean the ranking was not settled until then (the dashed line marks convergence@n)."
)


def tau_curves(summary: pd.DataFrame, *, y_title: str = "Kendall τ_b vs target") -> alt.LayerChart:
    """Lines of mean τ_b against n with a ±1 s.d. band, one colour per method.

    ``summary`` has columns method, n, mean, sd (``Curves.summary``).
    """
    d = summary.dropna(subset=["mean"]).copy()
    d["lo"] = (d["mean"] - d["sd"]).clip(lower=-1)
    d["hi"] = (d["mean"] + d["sd"]).clip(upper=1)
    base = alt.Chart(d).encode(
        x=alt.X("n:Q", title="trials n", scale=alt.Scale(domainMin=1),
                axis=whole_axis(d["n"], lo=1)),
        color=alt.Color(
            "method:N",
            title="method",
            sort=list(dict.fromkeys(d["method"])),
            scale=alt.Scale(scheme=PALETTE),
            # the legend takes its symbols from the first layer (the faint band): opaque
            # strokes say which line is which
            legend=alt.Legend(labelLimit=260, symbolType="stroke", symbolOpacity=1,
                              symbolStrokeWidth=3),
        ),
    )
    band = base.mark_area(opacity=0.18).encode(
        y=alt.Y("lo:Q", title=y_title, scale=alt.Scale(zero=False)), y2="hi:Q"
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
    )
    return (band + line).properties(height=320, width="container")


def convergence_pmf(pmf: pd.DataFrame) -> alt.LayerChart:
    """Step outline of P(convergence@n = n) per method, lightly filled (000 Fig. 1)."""
    methods = list(dict.fromkeys(pmf["method"]))
    base = alt.Chart(pmf).encode(
        x=alt.X("n:Q", title="convergence@n (trials)", axis=whole_axis(pmf["n"])),
        y=alt.Y("p:Q", title="probability", stack=None),
        color=alt.Color("method:N", sort=methods, scale=alt.Scale(scheme=PALETTE),
                        legend=alt.Legend(symbolType="stroke", symbolOpacity=1,
                                          symbolStrokeWidth=3)),
    )
    area = base.mark_area(interpolate="step-after", opacity=0.15)
    line = base.mark_line(interpolate="step-after", strokeWidth=1.6).encode(
        tooltip=["method", "n", alt.Tooltip("p:Q", format=".4f")]
    )
    return (area + line).properties(height=260, width="container")


def convergence_cdf(cdf: pd.DataFrame) -> alt.Chart:
    """Step lines of P(convergence@n <= n) per method (000 Fig. 11)."""
    return (
        alt.Chart(cdf)
        .mark_line(interpolate="step-after", strokeWidth=2)
        .encode(
            x=alt.X("n:Q", title="trials n", axis=whole_axis(cdf["n"])),
            y=alt.Y("cdf:Q", title="P(convergence@n ≤ n)", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color(
                "method:N", sort=list(dict.fromkeys(cdf["method"])), scale=alt.Scale(scheme=PALETTE)
            ),
            tooltip=["method", "n", alt.Tooltip("cdf:Q", format=".4f")],
        )
        .properties(height=260, width="container")
    )


def rank_trajectory_chart(
    trajectory: np.ndarray, models: Sequence[str], converged_at: int | None = None
) -> alt.LayerChart:
    """Rank of each model after each trial of one replicate (000 Fig. 9); 1 is at the top."""
    traj = np.asarray(trajectory)
    N, L = traj.shape
    d = pd.DataFrame(
        {
            "n": np.repeat(np.arange(1, N + 1), L),
            "model": np.tile(list(models), N),
            "rank": traj.ravel(),
        }
    )
    d = d[d["rank"] > 0]
    final = d[d["n"] == d["n"].max()]
    order = final.sort_values("rank")["model"].tolist()
    y = alt.Y("rank:Q", title="rank (1 = best)", scale=alt.Scale(reverse=True, domain=[1, L]))
    lines = (
        alt.Chart(d)
        .mark_line(strokeWidth=1.6, interpolate="step-after")
        .encode(
            x=alt.X("n:Q", title="trials n", axis=whole_axis(d["n"], lo=1)),
            y=y,
            color=alt.Color(
                "model:N",
                sort=order,
                scale=alt.Scale(scheme="category20" if L > 10 else PALETTE),
                legend=alt.Legend(labelLimit=200, symbolLimit=0, title="model (final order)"),
            ),
            tooltip=["model", "n", "rank"],
        )
    )
    layers = [lines]
    if converged_at:
        rule = (
            alt.Chart(pd.DataFrame({"n": [converged_at]}))
            .mark_rule(strokeDash=[4, 4], color="gray")
            .encode(x="n:Q")
        )
        layers.append(rule)
    return alt.layer(*layers).properties(height=max(280, 24 * L), width="container")
