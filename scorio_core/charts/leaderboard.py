"""Leaderboard charts: per-model accuracy strip, forest plot of intervals and CI-aware
ranks, pairwise-probability heatmap."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from ..formatting import format_number, percent
from ..leaderboard import Leaderboard
from ..outcomes import Outcomes
from ..references import expand
from ._common import LABEL_LIMIT, ROW_PX, _model_axis, _per_question_scores, _rows

__all__ = ["accuracy_strip", "forest_plot", "confidence_heatmap"]


def accuracy_strip(outcomes: Outcomes) -> alt.LayerChart:
    """Per-model mean score with a strip of per-question scores behind it.

    One row per model, sorted best first by mean weighted score (avg@N). Each
    small tick is one question's score averaged over its ``N`` trials (hover
    for the question and its benchmark); the black diamond is the model's mean
    over all questions.

    What to read from it: the diamond's position gives the overall level; the
    spread of ticks shows whether a model is uniformly good or wins on a few
    easy questions (bimodal ticks at 0 and 1 mean its answers are near-
    deterministic per question).

    Parameters
    ----------
    outcomes : Outcomes

    Returns
    -------
    altair.LayerChart
    """
    scores = _per_question_scores(outcomes)
    L, M = scores.shape
    bench = outcomes.benchmarks if outcomes.benchmarks is not None else ("all",) * M
    long = pd.DataFrame(
        {
            "model": np.repeat(outcomes.models, M),
            "question": np.tile(outcomes.questions, L),
            "benchmark": np.tile(bench, L),
            "score": scores.ravel(),
        }
    )
    means = pd.DataFrame({"model": outcomes.models, "mean": scores.mean(axis=1)})
    order = means.sort_values("mean", ascending=False, kind="stable")["model"].tolist()
    lo_w, hi_w = float(outcomes.weights.min()), float(outcomes.weights.max())
    x_scale = alt.Scale(domain=[lo_w, hi_w], nice=False)
    y = alt.Y("model:N", sort=order, title=None, axis=_model_axis())
    ticks = (
        alt.Chart(long)
        .mark_tick(thickness=1, size=ROW_PX * 0.7, opacity=0.3, color="#3b5bdb")
        .encode(
            x=alt.X("score:Q", scale=x_scale, title="per-question score (mean over trials)"),
            y=y,
            tooltip=[
                "model:N",
                "question:N",
                "benchmark:N",
                alt.Tooltip("score:Q", format=".3f"),
            ],
        )
    )
    diamonds = (
        alt.Chart(means)
        .mark_point(shape="diamond", filled=True, size=90, color="black")
        .encode(
            x=alt.X("mean:Q", scale=x_scale),
            y=y,
            tooltip=["model:N", alt.Tooltip("mean:Q", title="mean score (avg@N)", format=".4f")],
        )
    )
    return (ticks + diamonds).properties(width="container", height=_rows(L))


def forest_plot(board: Leaderboard) -> alt.LayerChart:
    """Mean score with its calibrated interval, one row per model.

    Rows are in leaderboard order (best first). The dot is ``score``, the bar
    spans ``[lo, hi]`` at the board's confidence and scope (absent where the scope is
    not identified: questions scope at N = 1), the small tick is the papers'
    Bayes@N ``bayes_mu``, and the label
    gives the headline rank and its rank interval (``#rank (lo–hi)``); the
    colour alternates between runs of rows that share a headline rank.

    What to read from it: a wide rank interval means the data allow many
    places for that model; long bars mean too few questions or trials.

    Parameters
    ----------
    board : Leaderboard

    Returns
    -------
    altair.LayerChart
    """
    t = board.table
    df = pd.DataFrame(
        {
            "model": t["model"].astype(str),
            "score": t["score"].astype(float),
            "bayes_mu": t["bayes_mu"].astype(float),
            "lo": t["lo"].astype(float).fillna(t["score"].astype(float)),
            "hi": t["hi"].astype(float).fillna(t["score"].astype(float)),
            "rank": t["rank"].astype(int),
            "rank_hi": t["rank_hi"].astype(int),
            "p_best": t["p_best"].astype(float),
            "rank_chain": t["rank_chain"].astype(int),
            "rank_overlap": t["rank_overlap"].astype(int),
        }
    )
    df["rank_label"] = np.where(
        df["rank"] == df["rank_hi"],
        "#" + df["rank"].astype(str),
        "#" + df["rank"].astype(str) + " (" + df["rank"].astype(str) + "–"
        + df["rank_hi"].astype(str) + ")",
    )
    # Alternate two colours between consecutive runs of one headline rank so each
    # group reads as one band; 20 distinct hues would be harder to tell apart.
    run = np.cumsum(np.r_[0, np.diff(df["rank"].to_numpy()) != 0])
    df["group"] = np.where(run % 2 == 0, "odd", "even")
    order = df["model"].tolist()
    conf = board.settings.get("confidence", 0.95)
    scope = board.settings.get("scope", "questions")
    left = float(min(df["lo"].min(), df["bayes_mu"].min()))
    right = float(max(df["hi"].max(), df["bayes_mu"].max()))
    span = right - left or 1.0
    # The axis never runs past the score's own bounds (no "1.05" on a 0-1 score): room for
    # the rank labels is taken inside them, and a row whose bar ends in that room carries
    # its label on the left of the bar instead.
    lo_b, hi_b = float(board.stats.lo_b), float(board.stats.hi_b)
    x_left = max(left - 0.02 * span, min(lo_b, left))
    x_right = min(right + 0.16 * span, max(hi_b, right))
    room = x_right - 0.14 * span
    # a label starts beyond whatever the row draws on that side (bar end or the papers'
    # tick, which a skewed benchmark puts outside the bar), so the two never overlap
    df["label_right"] = np.maximum(df["hi"], df["bayes_mu"])
    df["label_left"] = np.minimum(df["lo"], df["bayes_mu"])
    df["label_side"] = np.where(df["label_right"] > room, "left", "right")
    x_scale = alt.Scale(domain=[x_left, x_right], nice=False, zero=False)
    y = alt.Y("model:N", sort=order, title=None, axis=_model_axis())
    color = alt.Color(
        "group:N",
        scale=alt.Scale(domain=["odd", "even"], range=["#3b5bdb", "#e8590c"]),
        legend=None,
    )
    tooltip = [
        "model:N",
        alt.Tooltip("rank:Q", title="rank (= rank_lo)"),
        alt.Tooltip("rank_hi:Q", title="rank_hi"),
        alt.Tooltip("p_best:Q", title="P(best)", format=".3f"),
        alt.Tooltip("rank_chain:Q", title=expand("chain rank (000 §2.7.1)")),
        alt.Tooltip("rank_overlap:Q", title="overlap (arena) rank"),
        alt.Tooltip("score:Q", format=".4f"),
        alt.Tooltip("lo:Q", format=".4f"),
        alt.Tooltip("hi:Q", format=".4f"),
        alt.Tooltip("bayes_mu:Q", title="Bayes@N mu (papers)", format=".4f"),
    ]
    base = alt.Chart(df).encode(y=y, color=color, tooltip=tooltip)
    bars = base.mark_rule(strokeWidth=2.5).encode(
        x=alt.X(
            "lo:Q",
            scale=x_scale,
            # short lines: in a half-width page column (the Rubric builder's) a line wider
            # than the plot ran past the chart's edge and was cut ("(questions scop")
            title=[f"mean score with {percent(conf)} interval", f"({scope} scope)",
                   "tick = papers' Bayes@N"],
        ),
        x2="hi:Q",
    )
    dots = base.mark_circle(size=70, opacity=1).encode(x=alt.X("score:Q", scale=x_scale))
    ticks = base.mark_tick(color="#666", thickness=1.5, size=12).encode(
        x=alt.X("bayes_mu:Q", scale=x_scale)
    )
    text = {"fontSize": 11, "fontWeight": "bold"}
    right_labels = base.transform_filter(alt.datum.label_side == "right").mark_text(
        align="left", dx=6, **text
    ).encode(x=alt.X("label_right:Q", scale=x_scale), text="rank_label:N")
    left_labels = base.transform_filter(alt.datum.label_side == "left").mark_text(
        align="right", dx=-6, **text
    ).encode(x=alt.X("label_left:Q", scale=x_scale), text="rank_label:N")
    layers = bars + ticks + dots + right_labels + left_labels
    return layers.properties(width="container", height=_rows(len(df)))


#: Width the pairwise heatmap fits, labels included: the page column of an 800 px window
#: (the sidebar takes the rest), so the grid is never cut off there.
HEATMAP_FIT_PX = 440


def heatmap_cell(names) -> int:
    """Side in px of one square cell of an ``L × L`` heatmap of models ``names``: as large
    as fits :data:`HEATMAP_FIT_PX` beside the row labels and the top labels' overhang
    (rotated 60°, they reach about half their length past the last column), 18-44 px.

    Example
    -------
    >>> from scorio_core.charts.leaderboard import heatmap_cell
    >>> heatmap_cell(["a", "b", "c"]), heatmap_cell([f"LLM_{i}" for i in range(11)])
    (44, 31)
    """
    longest = max((len(str(n)) for n in names), default=0)
    label_px = min(LABEL_LIMIT, 6.5 * longest) + 24  # the axis title and padding
    return int(np.clip((HEATMAP_FIT_PX - 1.5 * label_px) / max(len(names), 1), 18, 44))


#: Decimals of every number a pairwise heatmap cell shows: one format for its cells (``.59``
#: had sat beside ``.997``); three, so a P near 1 or 0 that stays undecided still reads apart
#: from an even pair.
HEATMAP_DECIMALS = 3


def heatmap_label(p: float) -> str:
    """A heatmap cell's ``P(row beats column)``: :data:`HEATMAP_DECIMALS` decimals without
    the leading zero, ``<.001`` / ``>.999`` for a value that would round to ``.000`` /
    ``1.000`` (an undecided pair is never certain).

    Example
    -------
    >>> from scorio_core.charts.leaderboard import heatmap_label
    >>> [heatmap_label(p) for p in (0.59, 0.997, 0.99967, 0.0002, 1.0, 0.0)]
    ['.590', '.997', '>.999', '<.001', '1.000', '.000']
    """
    text = format_number(p, HEATMAP_DECIMALS)  # the one formatter: '<0.001' near zero
    if p < 1 and text == f"{1:.{HEATMAP_DECIMALS}f}":  # near one, the mirror of '<0.001'
        text = f">{1 - 10.0 ** -HEATMAP_DECIMALS:.{HEATMAP_DECIMALS}f}"
    return text.replace("0.", ".", 1)


def confidence_heatmap(board: Leaderboard) -> alt.LayerChart:
    """Pairwise ``P(row model beats column model)`` as an L x L heatmap.

    Models are in leaderboard order on both axes (best at top / left), so the
    upper-right triangle holds probabilities above 0.5. Pairs decided by the
    board's rule (confidence and multiplicity adjustment, the rule behind
    ``rank_lo``/``rank_hi``) carry a dark outline and no number; undecided
    cells show the value to three decimals (:func:`heatmap_label`); every cell has it
    in the tooltip.

    What to read from it: numbered cells are the pairs the data cannot order
    at this confidence; values near 0.5 (white) are coin flips.

    Parameters
    ----------
    board : Leaderboard

    Returns
    -------
    altair.LayerChart
    """
    order = board.table["model"].astype(str).tolist()
    idx = {m: i for i, m in enumerate(board.models)}
    perm = np.array([idx[m] for m in order])
    P = np.asarray(board.prob_better)[np.ix_(perm, perm)]
    L = len(order)
    if board.decided is not None:
        D = np.asarray(board.decided)[np.ix_(perm, perm)]
        D = D | D.T
    else:
        D = (P >= 0.995) | (P < 0.005)
    rows, cols = np.meshgrid(np.arange(L), np.arange(L), indexing="ij")
    off = rows.ravel() != cols.ravel()
    df = pd.DataFrame(
        {
            "row": np.asarray(order)[rows.ravel()][off],
            "column": np.asarray(order)[cols.ravel()][off],
            "p": P.ravel()[off],
            "decided": D.ravel()[off],
        }
    )
    # Only undecided cells get a number: decided cells carry an outline instead, and a
    # grid of ".000" and "1" would drown the few pairs worth reading (values in the tooltip).
    df["label"] = ["" if d or not np.isfinite(v) else heatmap_label(v)
                   for v, d in zip(df["p"], df["decided"], strict=True)]
    df["dark"] = (df["p"] > 0.85) | (df["p"] < 0.15)
    cell = heatmap_cell(order)
    # Rotated labels are parallel, one cell apart: they cannot collide, so keep them all.
    axis_x = _model_axis(orient="top", labelAngle=-60, title="column model")
    axis_y = _model_axis(title="row model")
    base = alt.Chart(df).encode(
        x=alt.X("column:N", sort=order, axis=axis_x),
        y=alt.Y("row:N", sort=order, axis=axis_y),
        tooltip=[
            alt.Tooltip("row:N", title="row model"),
            alt.Tooltip("column:N", title="column model"),
            alt.Tooltip("p:Q", title="P(row beats column)", format=".4f"),
            alt.Tooltip("decided:N", title="decided"),
        ],
    )
    rect = base.mark_rect(stroke="white", strokeWidth=0.5).encode(
        color=alt.Color(
            "p:Q",
            scale=alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5),
            legend=alt.Legend(
                title=["P(row > col)", f"{board.settings.get('scope', 'questions')} scope"],
                orient="bottom",  # beside the grid it took ~100 px of a narrow column
                format=".1f",
            ),
        )
    )
    outline = base.transform_filter("datum.decided").mark_rect(
        fill=None, stroke="#111", strokeWidth=1.5
    )
    layers = rect + outline
    if L <= 30:
        text = base.mark_text(fontSize=max(8, min(11, cell // 3))).encode(
            text="label:N",
            color=alt.condition("datum.dark", alt.value("white"), alt.value("#222")),
        )
        layers = rect + outline + text
    return layers.properties(width=alt.Step(cell), height=alt.Step(cell))
