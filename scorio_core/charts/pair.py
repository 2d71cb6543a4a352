"""Pair-view chart: the questions that drive the gap between two models."""

from __future__ import annotations

import altair as alt
import pandas as pd

from .._validation import checked_keywords
from ._common import NAME_LINE_PX, _rows, name_legend, name_lines

__all__ = ["gap_drivers", "GAP_DRIVERS_CAPTION"]

#: Colours of "a better" and "b better" (tableau10's first two; grey: a tie, never drawn).
COLOURS = ("#4c78a8", "#f58518", "#999999")
GAP_DRIVERS_CAPTION = (
    "Each bar is one question's contribution to the mean difference (its score difference / "
    "M; all questions' contributions add up to the mean difference), for the questions that "
    "move it most either way (ties left out), the leader's largest first: a "
    "gap carried by a few long bars rests on a few questions, one spread over many bars is "
    "broad; bars of the other colour are questions the other model wins back, and the fewer "
    "of them, the more one-sided the lead."
)


def _lines(text: str) -> str | list[str]:
    """``text`` whole, on lines of at most 1.5 × :data:`~._common.NAME_LINE_PX` (a page
    column at 1024 px; a list of them when it takes more than one)."""
    lines = name_lines(text, 1.5 * NAME_LINE_PX)
    return lines[0] if len(lines) == 1 else lines


@checked_keywords
def gap_drivers(questions: pd.DataFrame, a: str, b: str, top: int = 20) -> alt.Chart:
    """Horizontal bars of ``contribution`` for the ``top`` questions that move the mean
    difference most either way (:func:`scorio_core.engines.pair.gap_rows`, the rows the
    report's table shows too; the table's order is kept)."""
    from ..engines.pair import gap_rows  # here, not at import: charts load without engines

    df = gap_rows(questions, top).copy()
    if df.empty:  # the two models score alike on every question: nothing drives a gap
        return (alt.Chart(pd.DataFrame({"text": [f"{a} and {b} score the same on every "
                                                 "question: no question drives a gap."]}))
                .mark_text(align="left", x=0, fontSize=13).encode(text="text:N")
                .properties(width="container", height=40))
    df["better"] = [a if d > 0 else b for d in df["diff"]]
    df["label"] = df["question"].astype(str).str.slice(0, 40)
    # the legend lists only the sides drawn (every bar of one model: that model alone),
    # each in its own colour whichever are drawn
    drawn = [(side, c) for side, c in zip((a, b), COLOURS[:2], strict=True)
             if (df["better"] == side).any()]
    return (
        alt.Chart(df)
        .mark_bar()
        .encode(
            y=alt.Y("label:N", sort=None, title="question"),
            # few ticks: tiny shares print as 0.000 ... 0.018 every 0.001, and the labels
            # of a container-wide axis, the first and last flush, ran into each other
            # long names: the title on lines that fit (one line ran past both edges of the
            # column and squeezed the bars into its middle)
            x=alt.X("contribution:Q",
                    title=_lines(f"contribution to the mean difference ({a} − {b}): score "
                                 "difference / M"),
                    axis=alt.Axis(tickCount=6)),
            color=alt.Color("better:N", title="better on it",
                            scale=alt.Scale(domain=[side for side, _ in drawn],
                                            range=[c for _, c in drawn]),
                            legend=name_legend([side for side, _ in drawn])),  # names whole
            tooltip=["question:N", *(["benchmark:N"] if "benchmark" in df else []),
                     alt.Tooltip("score_a:Q", title=a, format=".3f"),
                     alt.Tooltip("score_b:Q", title=b, format=".3f"),
                     alt.Tooltip("diff:Q", format="+.3f"),
                     alt.Tooltip("contribution:Q", format="+.4f")],
        )
        # fit the width only: the rows keep their height, the legend below them
        .properties(width="container", height=_rows(len(df)),
                    autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
    )
