"""Stability chart: mean τ_b of single-trial rankings per method class (Ranking Reasoning LLMs under
Test-Time Scaling (2026), §3.2)."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .._validation import checked_keywords
from ._common import PALETTE

__all__ = ["stability_chart", "STABILITY_CAPTION"]

STABILITY_CAPTION = (
    "Mean τ_b (bar: ±1 s.d., cut at τ_b's bounds ±1) of single-trial rankings, per method "
    "class: right is more stable; compare the two targets to see methods that agree with "
    "themselves but not with the gold."
)


@checked_keywords
def stability_chart(classes: dict[str, pd.DataFrame], top: int = 12) -> alt.LayerChart:
    """Mean ± s.d. τ_b per method class for each target (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), Tables 18-19).

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
    # Kendall τ_b lies in [-1, 1]: a ±1 s.d. bar past 1 (a mean of 0.87 with s.d. 0.19)
    # would draw values τ_b cannot take, so the bar stops at the bound and so does the axis
    d["lo"] = (d["mean"] - d["sd"]).clip(lower=-1.0)
    d["hi"] = (d["mean"] + d["sd"]).clip(upper=1.0)
    low = next((float(v) for v in (d["lo"].min(), d["mean"].min()) if np.isfinite(v)), 0.0)
    left = float(np.floor(low * 10) / 10)
    x_scale = alt.Scale(domain=[max(-1.0, min(left, 0.9)), 1.0], nice=False, zero=False)
    order = list(dict.fromkeys(d["class"]))
    base = alt.Chart(d).encode(
        y=alt.Y("class:N", sort=order, title=None, axis=alt.Axis(labelLimit=420)),
        yOffset=alt.YOffset("target:N"),
        color=alt.Color("target:N", title="target", scale=alt.Scale(scheme=PALETTE)),
    )
    bars = base.mark_rule(strokeWidth=2).encode(
        # labels centred on their ticks: flush-shifted, 0.95 and 1.00 ran together
        x=alt.X("lo:Q", title="Kendall τ_b at N = 1", scale=x_scale,
                axis=alt.Axis(labelFlush=False)),
        x2="hi:Q",
    )
    dots = base.mark_point(filled=True, size=60).encode(
        x=alt.X("mean:Q", scale=x_scale),
        tooltip=[
            "target",
            alt.Tooltip("mean:Q", format=".4f"),
            alt.Tooltip("sd:Q", format=".4f"),
            "members",
        ],
    )
    return (bars + dots).properties(height=alt.Step(14), width="container")
