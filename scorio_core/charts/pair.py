"""Pair-view chart: the questions that drive the gap between two models."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ._common import LABEL_LIMIT, _rows

__all__ = ["gap_drivers", "gap_rows", "GAP_DRIVERS_CAPTION"]

#: Colours of "a better" and "b better" (tableau10's first two; grey: a tie, never drawn).
COLOURS = ("#4c78a8", "#f58518", "#999999")
GAP_DRIVERS_CAPTION = (
    "Each bar is one question's share of the mean difference (score difference / M), for the "
    "questions that move it most either way (ties left out), the leader's largest first: a "
    "gap carried by a few long bars rests on a few questions; bars of the other colour are "
    "questions the other model wins back, and a lead with few of them is a broad one."
)


def gap_rows(questions: pd.DataFrame, top: int = 20) -> pd.DataFrame:
    """The ``top`` rows of :attr:`scorio_core.engines.pair.PairComparison.questions` that
    move the mean difference most, **either way** (largest ``|contribution|``; questions
    where the two models score alike are left out), in the table's order: the leader's
    largest push first, the other model's largest last.

    The table lists the leader's questions first, so its first ``top`` rows never showed a
    question the other model wins while the leader had ``top`` of its own -- a gap
    carried half-way back by the other side read as a one-sided, broad lead.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.charts.pair import gap_rows
    >>> q = pd.DataFrame({"question": list("abcde"), "diff": [0.5, 0.2, 0.1, 0.0, -0.4]})
    >>> q["contribution"] = q["diff"] / 5
    >>> gap_rows(q, top=3)["question"].tolist()
    ['a', 'b', 'e']
    """
    moved = questions[questions["diff"].to_numpy(dtype=float) != 0]
    keep = moved["contribution"].abs().sort_values(ascending=False, kind="stable").index
    return moved.loc[sorted(keep[: max(int(top), 0)], key=moved.index.get_loc)]


def gap_drivers(questions: pd.DataFrame, a: str, b: str, top: int = 20) -> alt.Chart:
    """Horizontal bars of ``contribution`` for the ``top`` questions that move the mean
    difference most either way (:func:`gap_rows`; the table's order is kept)."""
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
            x=alt.X("contribution:Q", title=f"share of the mean difference ({a} − {b})"),
            color=alt.Color("better:N", title="better on it",
                            scale=alt.Scale(domain=[side for side, _ in drawn],
                                            range=[c for _, c in drawn]),
                            legend=alt.Legend(labelLimit=LABEL_LIMIT)),  # names whole
            tooltip=["question:N", alt.Tooltip("score_a:Q", title=a, format=".3f"),
                     alt.Tooltip("score_b:Q", title=b, format=".3f"),
                     alt.Tooltip("diff:Q", format="+.3f"),
                     alt.Tooltip("contribution:Q", format="+.4f")],
        )
        .properties(width="container", height=_rows(len(df)))
    )
