"""Pair-view chart: the questions that drive the gap between two models."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ._common import _rows

__all__ = ["gap_drivers", "GAP_DRIVERS_CAPTION"]

#: Colours of "a better", "b better" and a tie (tableau10's first two, grey).
COLOURS = ("#4c78a8", "#f58518", "#999999")
GAP_DRIVERS_CAPTION = (
    "Each bar is one question's share of the mean difference (score difference / M), the "
    "largest first: a gap carried by a few long bars rests on a few questions; many short "
    "bars of one colour mean a broad lead."
)


def gap_drivers(questions: pd.DataFrame, a: str, b: str, top: int = 20) -> alt.Chart:
    """Horizontal bars of ``contribution`` for the first ``top`` rows of
    :attr:`scorio_core.engines.pair.PairComparison.questions` (their order is kept)."""
    df = questions.head(int(top)).copy()
    df["better"] = [a if d > 0 else b if d < 0 else "tie" for d in df["diff"]]
    df["label"] = df["question"].astype(str).str.slice(0, 40)
    # the legend lists only the sides drawn (every bar of one model: that model alone),
    # each in its own colour whichever are drawn
    drawn = [(side, c) for side, c in zip((a, b, "tie"), COLOURS, strict=True)
             if (df["better"] == side).any()]
    return (
        alt.Chart(df)
        .mark_bar()
        .encode(
            y=alt.Y("label:N", sort=None, title="question"),
            x=alt.X("contribution:Q", title=f"share of the mean difference ({a} − {b})"),
            color=alt.Color("better:N", title="better on it",
                            scale=alt.Scale(domain=[side for side, _ in drawn],
                                            range=[c for _, c in drawn])),
            tooltip=["question:N", alt.Tooltip("score_a:Q", title=a, format=".3f"),
                     alt.Tooltip("score_b:Q", title=b, format=".3f"),
                     alt.Tooltip("diff:Q", format="+.3f"),
                     alt.Tooltip("contribution:Q", format="+.4f")],
        )
        .properties(width="container", height=_rows(len(df)))
    )
