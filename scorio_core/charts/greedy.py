"""Greedy-vs-sampling charts: rank scatter and τ_b at N = 1 per prior (Ranking Reasoning LLMs under
Test-Time Scaling (2026), §3.4)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from .._validation import checked_keywords
from ._common import PALETTE

__all__ = [
    "greedy_scatter",
    "GREEDY_SCATTER_CAPTION",
    "tau_distribution_chart",
    "TAU_DISTRIBUTION_CAPTION",
]

GREEDY_SCATTER_CAPTION = (
    "Each dot is a model: sampling rank (x) vs greedy rank (y); dots off the diagonal are "
    "models that greedy decoding over- (blue) or under-rates (red)."
)
TAU_DISTRIBUTION_CAPTION = (
    "τ_b at the smallest n over resampled datasets, per prior: a narrower box means a more "
    "stable ranking; a lower box means the prior pulls away from the gold ordering."
)



@checked_keywords
def greedy_scatter(ranks: pd.DataFrame) -> alt.LayerChart:
    """Greedy rank vs sampling rank per model, coloured by displacement (Ranking Reasoning LLMs
    under Test-Time Scaling (2026), Fig. 3)."""
    L = int(max(ranks["sampling_rank"].max(), ranks["greedy_rank"].max()))
    diag = (
        alt.Chart(pd.DataFrame({"a": [1, L]}))
        .mark_line(color="gray", strokeDash=[4, 4])
        .encode(x="a:Q", y="a:Q")
    )
    lim = max(1, int(ranks["displacement"].abs().max()))
    # displacements are whole ranks: the legend lists whole numbers (it read -0.5, 0.5)
    step = max(1, -(-lim // 4))
    shifts = sorted({*range(-lim, lim + 1, step), lim, 0}, reverse=True)
    ticks = list(range(1, L + 1, max(1, L // 10)))
    pts = (
        alt.Chart(ranks)
        # outlined: a model greedy decoding leaves in place (displacement 0) is white in
        # the diverging scale and would vanish into the background
        .mark_circle(size=110, opacity=0.9, stroke="#444", strokeWidth=0.8)
        .encode(
            x=alt.X(
                "sampling_rank:Q",
                title="sampling rank (Bayes@N, all trials)",
                scale=alt.Scale(domain=[0.5, L + 0.5], nice=False),
                axis=alt.Axis(values=ticks),
            ),
            y=alt.Y(
                "greedy_rank:Q",
                title="greedy rank (1 = best, top)",
                scale=alt.Scale(domain=[0.5, L + 0.5], reverse=True, nice=False),
                axis=alt.Axis(values=ticks),
            ),
            color=alt.Color(
                "displacement:Q",
                title="greedy − sampling",
                scale=alt.Scale(scheme="redblue", domain=[lim, -lim]),
                legend=alt.Legend(direction="vertical", orient="right", values=shifts,
                                  format=",d"),
            ),
            tooltip=[
                "model",
                "sampling_rank",
                "greedy_rank",
                "displacement",
                alt.Tooltip("sampling_accuracy:Q", format=".3f"),
                alt.Tooltip("greedy_accuracy:Q", format=".3f"),
            ],
        )
    )
    return (diag + pts).properties(height=360, width=380)


@checked_keywords
def tau_distribution_chart(dist: pd.DataFrame) -> alt.LayerChart:
    """Box plot with jittered points of τ_b per prior (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), Fig. 7)."""
    d = dist.dropna(subset=["tau_b"])
    box = (
        alt.Chart(d)
        .mark_boxplot(extent="min-max", size=40, opacity=0.5)
        .encode(
            x=alt.X("prior:N", title=None, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("tau_b:Q", title="Kendall τ_b vs gold", scale=alt.Scale(zero=False)),
            color=alt.Color("prior:N", legend=None, scale=alt.Scale(scheme=PALETTE)),
        )
    )
    pts = (
        alt.Chart(d)
        .mark_circle(size=18, opacity=0.6)
        .encode(
            x="prior:N",
            xOffset=alt.XOffset("jitter:Q"),
            y="tau_b:Q",
            color=alt.Color("prior:N", legend=None, scale=alt.Scale(scheme=PALETTE)),
        )
        .transform_calculate(jitter="random()")
    )
    return (box + pts).properties(height=280, width=300)
