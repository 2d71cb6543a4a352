"""Altair builders for the convergence, stability and greedy analyses (re-exported by
:mod:`scorio_core.charts`). Each takes the tables the analysis objects expose and
returns a chart; ``*_CAPTION`` constants say in one line what to read from it."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

__all__ = [
    "tau_curves",
    "TAU_CURVES_CAPTION",
    "convergence_pmf",
    "CONVERGENCE_PMF_CAPTION",
    "convergence_cdf",
    "CONVERGENCE_CDF_CAPTION",
    "rank_trajectory_chart",
    "RANK_TRAJECTORY_CAPTION",
    "stability_chart",
    "STABILITY_CAPTION",
    "greedy_scatter",
    "GREEDY_SCATTER_CAPTION",
    "tau_distribution_chart",
    "TAU_DISTRIBUTION_CAPTION",
]

#: Trial counts are whole numbers: integer ticks only, never 1.5 trials.
_WHOLE = alt.Axis(tickMinStep=1, format="d")

#: Categorical palette with clearly distinct hues (the default theme's blues look alike).
PALETTE = "tableau10"

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
STABILITY_CAPTION = (
    "Mean τ_b (±1 s.d.) of single-trial rankings, per method class: right is more stable; "
    "compare the two targets to see methods that agree with themselves but not with the gold."
)
GREEDY_SCATTER_CAPTION = (
    "Each dot is a model: sampling rank (x) vs greedy rank (y); dots off the diagonal are "
    "models that greedy decoding over- (blue) or under-rates (red)."
)
TAU_DISTRIBUTION_CAPTION = (
    "τ_b at the smallest n over resampled datasets, per prior: a narrower box means a more "
    "stable ranking; a lower box means the prior pulls away from the gold ordering."
)


def tau_curves(summary: pd.DataFrame, *, y_title: str = "Kendall τ_b vs target") -> alt.LayerChart:
    """Lines of mean τ_b against n with a ±1 s.d. band, one colour per method.

    ``summary`` has columns method, n, mean, sd (``Curves.summary``).
    """
    d = summary.dropna(subset=["mean"]).copy()
    d["lo"] = (d["mean"] - d["sd"]).clip(lower=-1)
    d["hi"] = (d["mean"] + d["sd"]).clip(upper=1)
    base = alt.Chart(d).encode(
        x=alt.X("n:Q", title="trials n", scale=alt.Scale(domainMin=1), axis=_WHOLE),
        color=alt.Color(
            "method:N",
            title="method",
            sort=list(dict.fromkeys(d["method"])),
            scale=alt.Scale(scheme=PALETTE),
            legend=alt.Legend(labelLimit=260),
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
        x=alt.X("n:Q", title="convergence@n (trials)", axis=_WHOLE),
        y=alt.Y("p:Q", title="probability", stack=None),
        color=alt.Color("method:N", sort=methods, scale=alt.Scale(scheme=PALETTE)),
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
            x=alt.X("n:Q", title="trials n", axis=_WHOLE),
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
            x=alt.X("n:Q", title="trials n", axis=_WHOLE),
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


def stability_chart(classes: dict[str, pd.DataFrame], top: int = 12) -> alt.LayerChart:
    """Mean ± s.d. τ_b per method class for each target (002 Tables 18-19).

    ``classes`` maps a target label to ``Stability.classes(target)``; the best
    ``top`` classes of the first target are shown, in its order.
    """
    frames = []
    first = next(iter(classes))
    keep = classes[first].head(top)["methods"].tolist()
    for label, cls in classes.items():
        rows = []
        for r in cls.itertuples(index=False):
            for m in r.methods.split(", "):
                rows.append({"method": m, "mean": r.mean, "sd": r.sd})
        per_method = pd.DataFrame(rows).set_index("method")
        for group in keep:
            rep = group.split(", ")[0]
            short = group if len(group) <= 60 else f"{rep} (+{group.count(', ')} more)"
            frames.append(
                {
                    "class": short,
                    "target": label,
                    "mean": per_method.loc[rep, "mean"],
                    "sd": per_method.loc[rep, "sd"],
                    "members": group,
                }
            )
    d = pd.DataFrame(frames)
    d["lo"], d["hi"] = d["mean"] - d["sd"], d["mean"] + d["sd"]
    order = list(dict.fromkeys(d["class"]))
    base = alt.Chart(d).encode(
        y=alt.Y("class:N", sort=order, title=None, axis=alt.Axis(labelLimit=420)),
        yOffset=alt.YOffset("target:N"),
        color=alt.Color("target:N", title="target", scale=alt.Scale(scheme=PALETTE)),
    )
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("lo:Q", title="Kendall τ_b at N = 1", scale=alt.Scale(zero=False)), x2="hi:Q"
    )
    dots = base.mark_point(filled=True, size=60).encode(
        x="mean:Q",
        tooltip=[
            "target",
            alt.Tooltip("mean:Q", format=".4f"),
            alt.Tooltip("sd:Q", format=".4f"),
            "members",
        ],
    )
    return (bars + dots).properties(height=alt.Step(14), width="container")


def greedy_scatter(ranks: pd.DataFrame) -> alt.LayerChart:
    """Greedy rank vs sampling rank per model, coloured by displacement (002 Fig. 3)."""
    L = int(max(ranks["sampling_rank"].max(), ranks["greedy_rank"].max()))
    diag = (
        alt.Chart(pd.DataFrame({"a": [1, L]}))
        .mark_line(color="gray", strokeDash=[4, 4])
        .encode(x="a:Q", y="a:Q")
    )
    lim = max(1, int(ranks["displacement"].abs().max()))
    ticks = list(range(1, L + 1, max(1, L // 10)))
    pts = (
        alt.Chart(ranks)
        .mark_circle(size=110, opacity=0.9)
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
                legend=alt.Legend(direction="vertical", orient="right"),
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


def tau_distribution_chart(dist: pd.DataFrame) -> alt.LayerChart:
    """Box plot with jittered points of τ_b per prior (002 Fig. 7)."""
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
