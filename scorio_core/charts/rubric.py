"""Rubric charts: categories per model and model ranks across rubrics."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .._validation import checked_keywords
from ..formatting import weight_text
from ..outcomes import Outcomes
from ._common import (
    ROW_PX,
    _model_axis,
    _per_question_scores,
    _rows,
    rank_y,
    readable_colour,
    series_encodings,
    series_styles,
)

__all__ = ["category_bars", "rank_bump_chart", "RANK_BUMP_CAPTION"]


@checked_keywords
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
    labels = [f"{k}: {outcomes.category_names[k]} (w={weight_text(outcomes.weights[k])})"
              for k in range(C1)]
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
                # full labels (name and weight), one per row under the bars: two columns
                # ran past a half-width page column, which cut them ("3: correc")
                legend=alt.Legend(orient="bottom", title=None, columns=1, labelLimit=0),
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


#: Colour of an end label that names several tied models (no one line's hue).
_TIED_LABEL_COLOUR = "#333333"
#: Longest end label in characters (~300 px of 11 px type, the most right padding kept).
_END_LABEL_CHARS = 46


def _end_labels(end: pd.Series, order: list[str]) -> pd.DataFrame:
    """One label per rank at the bump chart's right end: a model's name, or the names of
    the models tied at that rank joined in ``order`` ("a, b"), so no two names are drawn
    at one point.

    Returns
    -------
    pandas.DataFrame
        ``model`` (the first of the rank's models), ``rank``, ``label`` (shortened to
        "a, b + 3 more" past ~46 characters), ``models`` (all of them), ``tied``, one row
        per rank held, best first.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.charts.rubric import _end_labels
    >>> end = pd.Series({"a": 1, "b": 3, "c": 3, "d": 2})
    >>> _end_labels(end, ["a", "b", "c", "d"])[["rank", "label", "tied"]].values.tolist()
    [[1, 'a', False], [2, 'd', False], [3, 'b, c', True]]
    """
    end = end.dropna()
    models = [m for m in order if m in end.index]
    rows = []
    for r in sorted(set(end[models])):
        names = [m for m in models if end[m] == r]
        label = names[0]
        for i in range(1, len(names)):  # as many names as fit, then "+ k more"
            rest = len(names) - i - 1
            longer = f"{label}, {names[i]}"
            if len(longer + (f" + {rest} more" if rest else "")) > _END_LABEL_CHARS:
                label += f" + {len(names) - i} more"
                break
            label = longer
        rows.append({"model": names[0], "rank": r, "label": label,
                     "models": ", ".join(names), "tied": len(names) > 1})
    return pd.DataFrame(rows, columns=["model", "rank", "label", "models", "tied"])


@checked_keywords
def rank_bump_chart(ranks: pd.DataFrame) -> alt.LayerChart:
    """Model ranks across rubrics (a bump chart, as Don't Pass@k (2026), Fig. 7).

    ``ranks`` is the models × schemes frame of
    :func:`scorio_core.rubric.scheme_ranks` (competition ranks, 1 = best). One
    column per scheme in the frame's order, one line per model; the model names
    sit at the right end of their lines (models tied there share one label, "a, b":
    :func:`_end_labels`) and hovering shows the exact rank.

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
    series = series_encodings("model", order)
    colours, _ = series_styles(len(order))
    # the names are labels at the lines' ends: each in its line's hue, darkened until legible
    # on white (tableau20's light partners, e.g. pink and grey, were too pale to read)
    name_fill = alt.Fill("model:N", legend=None, scale=alt.Scale(
        domain=order, range=[readable_colour(c) for c in colours]))
    y = rank_y("rank", L, grid=False)
    x = alt.X(
        "scheme:N",
        sort=schemes,
        axis=alt.Axis(labelAngle=-30, labelLimit=180, title=None, labelOverlap=False),
    )
    base = alt.Chart(long).encode(x=x, y=y)
    opacity = alt.condition(hover, alt.value(1.0), alt.value(0.25))
    lines = base.mark_line(strokeWidth=2).encode(opacity=opacity, **series)
    points = (
        base.mark_point(filled=True, size=50)
        .encode(
            color=series["color"],
            opacity=opacity,
            tooltip=["model:N", "scheme:N", alt.Tooltip("rank:Q", title="rank")],
        )
        .add_params(hover)
    )
    ends = _end_labels(frame[schemes[-1]], order) if schemes else pd.DataFrame(
        columns=["model", "rank", "label", "models", "tied"])
    # the names at the lines' ends, each in its line's hue; models tied there share one
    # label "a, b" in dark grey (two names at one point were drawn over each other)
    labels = (
        alt.Chart(ends.assign(scheme=schemes[-1] if schemes else ""))
        .mark_text(align="left", dx=8, fontSize=11)
        .encode(x=x, y=y, text="label:N", opacity=opacity,
                fill=alt.condition("datum.tied", alt.value(_TIED_LABEL_COLOUR), name_fill),
                tooltip=[alt.Tooltip("models:N", title="models"),
                         alt.Tooltip("rank:Q", title="rank")])
    )
    # one row of ROW_PX per rank in the plot itself: Streamlit's "fit" would take the
    # rotated rubric names out of the height and squeeze nine ranks into ~100 px. The names
    # right of the plot are marks, which "fit" does not make room for: the padding does
    # (~6.5 px a character of 11 px type), else a long name ran past the chart's edge
    longest = max((len(t) for t in ends["label"]), default=0)
    return (lines + points + labels).properties(
        width="container", height=max(ROW_PX * L, 160),
        autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
        padding={"left": 5, "top": 5, "bottom": 5,
                 "right": int(min(6.5 * longest, 6.5 * _END_LABEL_CHARS)) + 14},
    )
