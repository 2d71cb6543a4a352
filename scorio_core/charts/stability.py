"""Stability chart: mean τ_b of single-trial rankings per method class (002 §3.2)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ._common import PALETTE

__all__ = ["stability_chart", "STABILITY_CAPTION"]

STABILITY_CAPTION = (
    "Mean τ_b (±1 s.d.) of single-trial rankings, per method class: right is more stable; "
    "compare the two targets to see methods that agree with themselves but not with the gold."
)


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
