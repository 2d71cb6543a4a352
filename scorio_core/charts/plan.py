"""Planner charts: P(correct order) and z vs N for a pair; the budget split."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ._common import _model_axis, _rows

__all__ = ["order_curve_chart", "allocation_chart"]


def order_curve_chart(curve, z_threshold: float, title: str = "") -> alt.HConcatChart:
    """P(correct order) and z versus trials per question for one pair (000 App. D, Fig. 6).

    Left: the simulated probability that Bayes@N orders the pair as today's
    estimates do. Right: mean simulated z and the closed-form projection, with
    the decision threshold as a dashed rule.

    What to read from it: the N where the right-hand line crosses the dashed
    threshold is the trials needed; the left panel shows how often the order
    would come out right at each N.

    Parameters
    ----------
    curve : scorio_core.planner.OrderCurve
    z_threshold : float
    title : str

    Returns
    -------
    altair.HConcatChart

    Example
    -------
    >>> from scorio_core.planner import order_curve
    >>> c = order_curve([0.7] * 5, [0.6] * 5, [1, 2, 4], sims=200)
    >>> len(order_curve_chart(c, 1.645).to_dict()["hconcat"])
    2
    """
    df = curve.frame()
    x = alt.X("N:Q", title="trials per question N", axis=alt.Axis(tickMinStep=1, format="d"))
    left = (
        alt.Chart(df)
        .mark_line(point=True)
        .encode(
            x=x,
            y=alt.Y("p_correct:Q", title="P(correct order)", scale=alt.Scale(domain=[0.5, 1])),
            tooltip=["N:Q", alt.Tooltip("p_correct:Q", format=".3f")],
        )
        .properties(width=300, height=220, title=title)
    )
    zcols = ["z_mean"] + (["z_projected"] if "z_projected" in df else [])
    long = df.melt(id_vars="N", value_vars=zcols, var_name="z", value_name="value")
    long["z"] = long["z"].map({"z_mean": "simulated mean", "z_projected": "projection (App. D)"})
    lines = (
        alt.Chart(long)
        .mark_line(point=True)
        .encode(
            x=x,
            y=alt.Y("value:Q", title="z"),
            color=alt.Color("z:N", title=None, legend=alt.Legend(orient="bottom")),
            tooltip=["N:Q", "z:N", alt.Tooltip("value:Q", format=".2f")],
        )
    )
    rule = (
        alt.Chart(pd.DataFrame({"z": [z_threshold]}))
        .mark_rule(strokeDash=[4, 3], color="#c92a2a")
        .encode(y="z:Q")
    )
    return alt.hconcat(left, (lines + rule).properties(width=300, height=220))


def allocation_chart(allocation: pd.DataFrame) -> alt.Chart:
    """Extra trials per question per model: greedy vs uniform split of the same budget.

    What to read from it: the greedy split spends trials on the models whose
    pairs more data can still decide; models with no bar are already separated
    from their rivals or tied with them beyond what the budget can change.

    Parameters
    ----------
    allocation : pandas.DataFrame
        ``Plan.allocation`` (columns ``model, extra_trials, uniform_trials``).

    Returns
    -------
    altair.Chart
    """
    order = allocation["model"].astype(str).tolist()
    long = allocation.melt(
        id_vars="model", value_vars=["extra_trials", "uniform_trials"], var_name="split",
        value_name="trials",
    )
    long["split"] = long["split"].map({"extra_trials": "greedy", "uniform_trials": "uniform"})
    return (
        alt.Chart(long)
        .mark_bar()
        .encode(
            y=alt.Y("model:N", sort=order, title=None, axis=_model_axis()),
            x=alt.X(
                "trials:Q", title="extra trials per question",
                axis=alt.Axis(tickMinStep=1, format="d"),
            ),
            yOffset="split:N",
            color=alt.Color(
                "split:N",
                scale=alt.Scale(domain=["greedy", "uniform"], range=["#3b5bdb", "#adb5bd"]),
                legend=alt.Legend(orient="bottom", title=None),
            ),
            tooltip=["model:N", "split:N", "trials:Q"],
        )
        .properties(width="container", height=_rows(len(order)))
    )
