"""Check-of-a-smaller-run chart: reliability of ``p_best`` on runs drawn from this one."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from .._validation import as_numbers, checked_keywords
from ..estimands import SCOPES
from ..formatting import column_texts

__all__ = ["p_best_reliability", "P_BEST_RELIABILITY_CAPTION", "size_values"]

#: Ticks and format of both axes of the reliability chart (predicted and observed share).
UNIT_TICKS = [i / 10 for i in range(11)]
UNIT_FORMAT = ".1f"

P_BEST_RELIABILITY_CAPTION = (
    "Each dot is a bin of predicted p_best (its bar: ± 2 standard errors, its size: how many "
    "model-runs): on the dashed diagonal a model given p_best x was truly first x of the "
    "time; a dot below it means p_best ran high on runs like this."
)


@checked_keywords
def size_values(counts: Sequence[int] | np.ndarray | str) -> list[int]:
    """The size legend's entries: the fewest and the most model-runs in a bin, and up to two
    round counts between. Vega-Lite's own picks are round values inside the scale, so the
    legend stopped at 1,200 beside a bin of 1,520: the largest dot had no entry.

    Example
    -------
    >>> from scorio_core.charts.check import size_values
    >>> size_values([30, 78, 105, 146, 1520])
    [30, 530, 1000, 1520]
    >>> size_values([200, 200])
    [200]
    """
    c = [int(v) for v in as_numbers(counts, "counts", example="30,1520")]  # "30,1520" too
    lo, hi = min(c), max(c)
    if hi - lo < 2:
        return sorted({lo, hi})
    between = []
    for v in np.linspace(lo, hi, 4)[1:-1]:
        digits = max(int(np.floor(np.log10(v))) - 1, 0)  # two significant digits
        between.append(int(round(v, -digits)))
    return sorted({lo, *(v for v in between if lo < v < hi), hi})


@checked_keywords
def p_best_reliability(table: pd.DataFrame) -> alt.LayerChart:
    """Predicted vs observed ``p_best`` per scope: ``table`` as
    :attr:`scorio_core.smaller_run.SmallerRunCheck.p_best` (empty bins left out)."""
    kept = (table["count"] > 0).to_numpy()
    df = table[kept].copy()
    # the tooltip's numbers as the table beside the chart prints them (each column's format
    # from all its rows), its rule for a probability included: '>0.9999', never '1.0000'
    for c in ("predicted", "observed", "se"):
        df[f"{c}_text"] = [t for t, k in zip(column_texts(table, c), kept, strict=True) if k]
    df["lo"] = (df["observed"] - 2 * df["se"]).clip(0, 1)
    df["hi"] = (df["observed"] + 2 * df["se"]).clip(0, 1)
    unit = alt.Scale(domain=[0, 1])
    # one probability on both axes, so one set of ticks and one format: the x axis (wider)
    # read 0.00, 0.10, ... and the y axis 0.0, 0.2, ...
    axis = alt.Axis(values=UNIT_TICKS, format=UNIT_FORMAT, tickMinStep=0)
    diagonal = (
        alt.Chart(pd.DataFrame({"x": [0.0, 1.0], "y": [0.0, 1.0]}))
        .mark_line(strokeDash=[4, 4], color="#999999")
        .encode(x=alt.X("x:Q", scale=unit, axis=axis), y=alt.Y("y:Q", scale=unit, axis=axis))
    )
    # the two scopes in contrasting colours, each its own whichever are drawn; the legend
    # lists only scopes with a dot (the questions scope at 1 trial has none)
    drawn = [(s, c) for s, c in zip(SCOPES, ("#4c78a8", "#f58518"), strict=True)
             if (df["scope"] == s).any()] or list(zip(SCOPES, ("#4c78a8", "#f58518"),
                                                      strict=True))
    base = alt.Chart(df).encode(
        x=alt.X("predicted:Q", scale=unit, axis=axis, title="predicted p_best (bin mean)"),
        color=alt.Color("scope:N", title="scope",
                        scale=alt.Scale(domain=[s for s, _ in drawn],
                                        range=[c for _, c in drawn])),
    )
    bars = base.mark_rule().encode(y=alt.Y("lo:Q", scale=unit, axis=axis), y2="hi:Q")
    dots = base.mark_circle(opacity=0.9).encode(
        y=alt.Y("observed:Q", scale=unit, axis=axis, title="share truly first"),
        # from the fewest model-runs drawn, not 0 (the legend listed a dot for "0")
        size=alt.Size("count:Q", title="model-runs",
                      scale=alt.Scale(range=[30, 300], zero=False),
                      legend=alt.Legend(values=size_values(df["count"]), format=",d")
                      if len(df) else alt.Legend()),
        tooltip=["scope:N", "bin:N", alt.Tooltip("count:Q", format=","),
                 alt.Tooltip("predicted_text:N", title="predicted"),
                 alt.Tooltip("observed_text:N", title="observed"),
                 alt.Tooltip("se_text:N", title="se")],
    )
    return (diagonal + bars + dots).properties(width="container", height=320)
