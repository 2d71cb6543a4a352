"""Rubric charts: categories per model and model ranks across rubrics."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from ..outcomes import Outcomes
from ._common import ROW_PX, _model_axis, _per_question_scores, _rows

__all__ = ["category_bars", "rank_bump_chart", "RANK_BUMP_CAPTION"]


def category_bars(outcomes: Outcomes) -> alt.Chart:
    """Share of completions in each outcome category, one stacked bar per model.

    Models are sorted by their mean weighted score (best first); segments run
    from category 0 (left) to category C (right) with the category names and
    weights in the legend.

    What to read from it: which categories drive a model's score -- e.g. two
    models with the same accuracy can differ in how often they produce
    invalid (category 0) outputs.

    Parameters
    ----------
    outcomes : Outcomes

    Returns
    -------
    altair.Chart
    """
    R = outcomes.R
    L = R.shape[0]
    C1 = outcomes.C + 1
    counts = np.stack([np.bincount(R[m].ravel(), minlength=C1) for m in range(L)])
    shares = counts / counts.sum(axis=1, keepdims=True)
    labels = [f"{k}: {outcomes.category_names[k]} (w={outcomes.weights[k]:g})" for k in range(C1)]
    df = pd.DataFrame(
        {
            "model": np.repeat(outcomes.models, C1),
            "category": np.tile(labels, L),
            "order": np.tile(np.arange(C1), L),
            "share": shares.ravel(),
            "count": counts.ravel(),
        }
    )
    score = _per_question_scores(outcomes).mean(axis=1)
    order = [outcomes.models[i] for i in np.argsort(-score, kind="stable")]
    scheme = "redyellowgreen" if C1 > 2 else None
    color_scale = (
        alt.Scale(domain=labels, scheme=scheme)
        if scheme
        else alt.Scale(domain=labels, range=["#e03131", "#2f9e44"])
    )
    return (
        alt.Chart(df)
        .mark_bar()
        .encode(
            y=alt.Y("model:N", sort=order, title=None, axis=_model_axis()),
            x=alt.X(
                "share:Q",
                stack="normalize",
                title="share of completions",
                axis=alt.Axis(format="%"),
            ),
            color=alt.Color(
                "category:N",
                scale=color_scale,
                sort=labels,
                # full labels (name and weight) in one or two columns under the bars; a
                # row of 4+ labels across a half-width column truncated them
                legend=alt.Legend(
                    orient="bottom",
                    title=None,
                    columns=1 if max(map(len, labels)) > 28 else 2,
                    labelLimit=0,
                ),
            ),
            order=alt.Order("order:Q"),
            tooltip=[
                "model:N",
                "category:N",
                alt.Tooltip("share:Q", format=".1%"),
                alt.Tooltip("count:Q", title="completions"),
            ],
        )
        .properties(width="container", height=_rows(L))
    )


#: One-line caption for :func:`rank_bump_chart` (what to read from it).
RANK_BUMP_CAPTION = (
    "Each line is one model's rank (1 = best, Bayes@N on all trials) under each rubric: flat "
    "lines are rubric-proof positions, crossings are reorderings the rubric choice causes."
)


def rank_bump_chart(ranks: pd.DataFrame) -> alt.LayerChart:
    """Model ranks across rubrics (a bump chart, as 000 Figure 7).

    ``ranks`` is the models × schemes frame of
    :func:`scorio_core.rubric.scheme_ranks` (competition ranks, 1 = best). One
    column per scheme in the frame's order, one line per model; the model names
    sit at the right end of their lines and hovering shows the exact rank.

    What to read from it: :data:`RANK_BUMP_CAPTION` -- lines that stay flat are
    positions no rubric changes; crossing lines show which models trade places
    when formatting, confidence, efficiency or verifier signals enter the score.

    Returns
    -------
    altair.LayerChart
    """
    schemes = [str(c) for c in ranks.columns]
    L = len(ranks)
    frame = ranks.copy()
    frame.columns = schemes
    frame.index = [str(m) for m in frame.index]
    long = (
        frame.rename_axis("model")
        .reset_index()
        .melt(id_vars="model", var_name="scheme", value_name="rank")
    )
    order = list(frame.sort_values(schemes[0], kind="stable").index) if schemes else []
    hover = alt.selection_point(fields=["model"], on="pointerover", empty=True)
    color = alt.Color(
        "model:N",
        sort=order,
        legend=None,
        scale=alt.Scale(scheme="category20" if L > 10 else "tableau10"),
    )
    y = alt.Y(
        "rank:Q",
        scale=alt.Scale(domain=[1, max(L, 2)], reverse=True, nice=False),
        axis=alt.Axis(
            values=list(range(1, L + 1)), title="rank (1 = best)", grid=False, labelOverlap=False
        ),
    )
    x = alt.X(
        "scheme:N",
        sort=schemes,
        axis=alt.Axis(labelAngle=-30, labelLimit=180, title=None, labelOverlap=False),
    )
    base = alt.Chart(long).encode(x=x, y=y, color=color)
    opacity = alt.condition(hover, alt.value(1.0), alt.value(0.25))
    lines = base.mark_line(strokeWidth=2).encode(opacity=opacity)
    points = (
        base.mark_point(filled=True, size=50)
        .encode(
            opacity=opacity,
            tooltip=["model:N", "scheme:N", alt.Tooltip("rank:Q", title="rank")],
        )
        .add_params(hover)
    )
    last = schemes[-1] if schemes else ""
    labels = (
        base.transform_filter(alt.datum.scheme == last)
        .mark_text(align="left", dx=8, fontSize=11)
        .encode(text="model:N", opacity=opacity)
    )
    return (lines + points + labels).properties(width="container", height=max(ROW_PX * L, 160))
