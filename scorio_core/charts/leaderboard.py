"""Leaderboard charts: per-model accuracy strip, forest plot of intervals and CI-aware
ranks, pairwise-probability heatmap."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .._validation import checked_keywords
from ..formatting import column_texts, format_number, named_decimals, percent
from ..leaderboard import Leaderboard
from ..outcomes import Outcomes
from ..references import expand
from ._common import (
    LABEL_LIMIT,
    LIVE,
    MIN_CELL_FONT,
    NOTE_LINE,
    ROW_PX,
    _model_axis,
    _per_question_scores,
    _rows,
    cell_font_size,
    live_param,
)

__all__ = ["accuracy_strip", "forest_plot", "narrow_intervals", "confidence_heatmap",
           "HEATMAP_HOVER", "HEATMAP_TOO_SMALL", "HEATMAP_NOTE", "heatmap_note_expr"]


@checked_keywords
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


#: Narrowest plot area the forest plot is drawn in (px): the Rubric builder's half of a
#: 1280 px window's column; :func:`rank_label_reach` sizes its labels there.
FOREST_MIN_PLOT_PX = 260
#: The rank labels' type (bold, 11 px): px per character and the gap before the text.
RANK_LABEL_CHAR_PX, RANK_LABEL_GAP_PX = 6.5, 6
#: Area (px²) of the forest plot's dot; its diameter (~9.4 px) is what an interval must
#: exceed to show beside it.
FOREST_DOT_SIZE = 70
#: The interval bars' colours, darker than their dots' (blue, orange runs of a headline
#: rank): drawn over the dot, a bar shorter than it still shows, as a dark line across it.
FOREST_COLOURS = {"odd": ("#3b5bdb", "#1a2b80"), "even": ("#e8590c", "#7a2e00")}


def rank_label_reach(labels, domain: float) -> np.ndarray:
    """How far along the x axis (in its units, of ``domain`` in all) each rank label of the
    forest plot reaches from where it starts, in the narrowest plot it is drawn in
    (:data:`FOREST_MIN_PLOT_PX`): an upper bound, so a tick outside the bar closer than that
    is passed, and one farther leaves the label by the bar.

    Example
    -------
    >>> from scorio_core.charts.leaderboard import rank_label_reach
    >>> [round(float(r), 3) for r in rank_label_reach(["#6", "#1 (1–3)"], 1.0)]
    [0.073, 0.223]
    """
    chars = np.array([len(str(t)) for t in labels], dtype=float)
    return (RANK_LABEL_GAP_PX + RANK_LABEL_CHAR_PX * chars) / FOREST_MIN_PLOT_PX * domain


def _forest_domain(board: Leaderboard) -> tuple[float, float]:
    """The forest plot's x domain: every interval and papers' tick, room for the rank
    labels, never past the score's own bounds."""
    t = board.table
    lo = t["lo"].astype(float).fillna(t["score"].astype(float))
    hi = t["hi"].astype(float).fillna(t["score"].astype(float))
    mu = t["bayes_mu"].astype(float)
    left, right = float(min(lo.min(), mu.min())), float(max(hi.max(), mu.max()))
    span = right - left or 1.0
    lo_b, hi_b = float(board.stats.lo_b), float(board.stats.hi_b)
    return (max(left - 0.02 * span, min(lo_b, left)),
            min(right + 0.16 * span, max(hi_b, right)))


@checked_keywords
def narrow_intervals(board: Leaderboard, plot_px: float = FOREST_MIN_PLOT_PX) -> list[str]:
    """The models (table order) whose interval the forest plot draws narrower than its dot
    in a plot ``plot_px`` wide (default: the narrowest the app draws it in,
    :data:`FOREST_MIN_PLOT_PX`): their bar is the dark line across the dot, which the
    caption then says. The bundled real run's intervals (s.e. 0.002) had read as missing
    where the caption promised "bar = its 95% interval".

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.leaderboard import leaderboard
    >>> from scorio_core.charts.leaderboard import narrow_intervals
    >>> R = np.random.default_rng(0).binomial(1, [[[.9]], [[.2]]], (2, 400, 50))
    >>> board = leaderboard(R, models=["a", "b"], draws=200)
    >>> narrow_intervals(board), narrow_intervals(board, plot_px=5000)
    (['a', 'b'], [])
    """
    t = board.table
    x_left, x_right = _forest_domain(board)
    width = (t["hi"].astype(float) - t["lo"].astype(float)).to_numpy()
    px = width / ((x_right - x_left) or 1.0) * plot_px
    dot = 2 * np.sqrt(FOREST_DOT_SIZE / np.pi)
    return [str(m) for m, w in zip(t["model"], px, strict=True) if np.isfinite(w) and w < dot]


@checked_keywords
def forest_plot(board: Leaderboard) -> alt.LayerChart:
    """Mean score with its calibrated interval, one row per model.

    Rows are in leaderboard order (best first). The dot is ``score``, the bar
    spans ``[lo, hi]`` at the board's confidence and scope (absent where the scope is
    not identified: questions scope at N = 1), the small tick is the papers'
    Bayes@N ``bayes_mu``, and the label by the bar
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
    # P(best) in the tooltip as the table writes it, its draws included: a model first in
    # none of the draws reads '<0.001' (not '0.000'), one first in all '>0.999'
    df["p_best_text"] = column_texts(t, "p_best")
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
    x_left, x_right = _forest_domain(board)
    room = x_right - 0.14 * span
    # a label sits by the headline interval (bar end), and past the papers' tick only where
    # that tick, outside the bar (a skewed benchmark pulls it towards 0.5), would stand in
    # the label's way: an all-wrong model's "#6" by its dot at 0, not by a tick at 0.20
    reach = rank_label_reach(df["rank_label"], x_right - x_left)
    tick_right = (df["bayes_mu"] > df["hi"]) & (df["bayes_mu"] <= df["hi"] + reach)
    tick_left = (df["bayes_mu"] < df["lo"]) & (df["bayes_mu"] >= df["lo"] - reach)
    df["label_right"] = np.where(tick_right, df["bayes_mu"], df["hi"])
    df["label_left"] = np.where(tick_left, df["bayes_mu"], df["lo"])
    df["label_side"] = np.where(df["label_right"] > room, "left", "right")
    x_scale = alt.Scale(domain=[x_left, x_right], nice=False, zero=False)
    y = alt.Y("model:N", sort=order, title=None, axis=_model_axis())
    color = alt.Color(
        "group:N",
        scale=alt.Scale(domain=list(FOREST_COLOURS), range=[c for c, _ in FOREST_COLOURS.values()]),
        legend=None,
    )
    bar_color = alt.Color(
        "group:N",
        scale=alt.Scale(domain=list(FOREST_COLOURS), range=[c for _, c in FOREST_COLOURS.values()]),
        legend=None,
    )
    tooltip = [
        "model:N",
        alt.Tooltip("rank:Q", title="rank (= rank_lo)"),
        alt.Tooltip("rank_hi:Q", title="rank_hi"),
        alt.Tooltip("p_best_text:N", title="P(best)"),
        alt.Tooltip("rank_chain:Q", title=expand("chain rank (000 §2.7.1)")),
        alt.Tooltip("rank_overlap:Q", title="overlap (arena) rank"),
        alt.Tooltip("score:Q", format=".4f"),
        alt.Tooltip("lo:Q", format=".4f"),
        alt.Tooltip("hi:Q", format=".4f"),
        alt.Tooltip("bayes_mu:Q", title="Bayes@N mu (papers)", format=".4f"),
    ]
    base = alt.Chart(df).encode(y=y, color=color, tooltip=tooltip)
    # over the dot, in a darker shade: an interval narrower than the dot (s.e. 0.002 on the
    # bundled run) was hidden under it, though the caption said "bar = its interval"
    bars = base.mark_rule(strokeWidth=2.5).encode(
        color=bar_color,
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
    dots = base.mark_circle(size=FOREST_DOT_SIZE, opacity=1).encode(
        x=alt.X("score:Q", scale=x_scale))
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
    layers = ticks + dots + bars + right_labels + left_labels
    return layers.properties(width="container", height=_rows(len(df)))


#: How far a model axis may reach from the plot for its ticks, labels and padding before
#: its title: Vega-Lite's default (200 px) put the row axis' title through the labels of a
#: long model name (drawn up to LABEL_LIMIT) -- the title sits beyond the labels as drawn.
MODEL_AXIS_EXTENT = LABEL_LIMIT + 30


#: Smallest heatmap cell (px): a row still holds its model's name (12 px type) apart from
#: the next one's.
HEATMAP_MIN_CELL = 14
#: Largest heatmap cell (px): a few models' grid stays compact in a wide column (3 models:
#: 132 px wide, not 240 px squares in the 820 px column of a 1280 px window).
HEATMAP_MAX_CELL = 44


def _heatmap_cell_expr(L: int) -> str:
    """The Vega expression of one square cell's side (px) of an ``L × L`` heatmap: the plot
    width the chart is drawn at (``width``: its container's width less the axes, as Vega
    fits it) shared by the ``L`` columns, :data:`HEATMAP_MIN_CELL` to
    :data:`HEATMAP_MAX_CELL` px.

    The width is known only where the chart is drawn (the app's page column follows the
    window: 468 px at 800 px, 820 px at 1280 px), so the cell, the grid's height and whether
    the cells carry numbers (:func:`heatmap_font`) are worked out there, from that width.
    """
    return f"clamp(width / {max(int(L), 1)}, {HEATMAP_MIN_CELL}, {HEATMAP_MAX_CELL})"


#: Decimals of every number a pairwise heatmap cell shows: the format the tables declare for
#: the same P (``p_better``, ``p_a_better``: :data:`scorio_core.formatting.NAMED_DECIMALS`),
#: four -- one format for its cells (``.59`` had sat beside ``.997``) and for the tables
#: (a cell's ``.944`` had sat beside the undecided-pairs table's ``0.9438``); the leading 0
#: is left out to fit a cell.
HEATMAP_DECIMALS = named_decimals("p_better")


def heatmap_label(p: float) -> str:
    """A heatmap cell's ``P(row beats column)``: the core's one rule for a probability
    (:func:`scorio_core.formatting.format_number`: ``<0.001`` / ``>0.999`` for a value that
    would round to ``0.000`` / ``1.000``; an undecided pair is never certain) at
    :data:`HEATMAP_DECIMALS` decimals, without the leading zero.

    Example
    -------
    >>> from scorio_core.charts.leaderboard import heatmap_label
    >>> [heatmap_label(p) for p in (0.59, 0.9438, 0.99997, 0.00002, 1.0, 0.0)]
    ['.5900', '.9438', '>.9999', '<.0001', '1.0000', '.0000']
    """
    return format_number(p, HEATMAP_DECIMALS, probability=True).replace("0.", ".", 1)


#: Width of a cell's characters in em, an upper bound over the fonts a chart is drawn in
#: (the app's Source Sans, a notebook's and vl-convert's sans-serif): a digit, ".", "<"/">".
_CELL_EM = {".": 0.28, "<": 0.58, ">": 0.58}
_DIGIT_EM = 0.56


def heatmap_font(cell: float, labels) -> int | None:
    """Type size of the numbers in heatmap cells of ``cell`` px: the largest, up to
    :func:`~._common.cell_font_size`, at which the widest of ``labels`` fits a cell with
    2 px either side -- or ``None`` when that is below :data:`~._common.MIN_CELL_FONT`
    (11 px): the cells then carry no numbers (8 px ones in 18 px cells were unreadable) and
    the chart's caption says how to read them (:func:`heatmap_cells_text`). The chart
    applies it where it is drawn, to the cell its width gives (:func:`_heatmap_font_expr`).

    Example
    -------
    >>> from scorio_core.charts.leaderboard import heatmap_font
    >>> heatmap_font(44, [".9438"]), heatmap_font(32, [".9438"]), heatmap_font(32, [">.9999"])
    (13, 11, None)
    >>> heatmap_font(26, [".0562"]) is None
    True
    """
    em = max((sum(_CELL_EM.get(ch, _DIGIT_EM) for ch in str(t)) for t in labels if t),
             default=0.0)
    if not em:
        return None
    size = min(cell_font_size(cell), int((cell - 4) / em))
    return size if size >= MIN_CELL_FONT else None


def _heatmap_font_expr(labels) -> str:
    """The Vega expression of :func:`heatmap_font` of ``labels`` for the cell ``cell_px``
    the chart is drawn with (:func:`_heatmap_cell_expr`): its value at each whole cell from
    :data:`HEATMAP_MIN_CELL` to :data:`HEATMAP_MAX_CELL` px, looked up at the drawn cell
    rounded down (0: no number fits), so the rule is written once, here in Python.

    Example
    -------
    >>> import json
    >>> from scorio_core.charts.leaderboard import _heatmap_font_expr
    >>> table, index = _heatmap_font_expr([">.999"]).split("][")
    >>> sizes = json.loads(table + "]")  # at cells of 14, 15, ..., 44 px
    >>> sizes[31 - 14], sizes[32 - 14], sizes[44 - 14], index
    (0, 11, 13, 'floor(cell_px) - 14]')
    """
    sizes = [heatmap_font(c, labels) or 0
             for c in range(HEATMAP_MIN_CELL, HEATMAP_MAX_CELL + 1)]
    return f"{sizes}[floor(cell_px) - {HEATMAP_MIN_CELL}]"


def _heatmap_cells(board: Leaderboard) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """The models in leaderboard order, P(row beats column) and the decided pairs in that
    order, and each off-diagonal cell's label ('' where decided)."""
    order = board.table["model"].astype(str).tolist()
    idx = {m: i for i, m in enumerate(board.models)}
    perm = np.array([idx[m] for m in order])
    P = np.asarray(board.prob_better)[np.ix_(perm, perm)]
    if board.decided is not None:
        D = np.asarray(board.decided)[np.ix_(perm, perm)]
        D = D | D.T
    else:
        D = (P >= 0.995) | (P < 0.005)
    off = ~np.eye(len(order), dtype=bool)
    # Only undecided cells get a number: decided cells carry an outline instead, and a
    # grid of ".000" and "1" would drown the few pairs worth reading (values in the tooltip).
    labels = np.array(["" if d or not np.isfinite(v) else heatmap_label(v)
                       for v, d in zip(P[off], D[off], strict=True)], dtype=object)
    return order, P, D, labels


def heatmap_cells_text(board: Leaderboard) -> str:
    """What the cells of :func:`confidence_heatmap` of ``board`` say, for its caption:
    numbered cells are the undecided pairs (four decimals as in the tables, without the
    leading 0, to fit a cell) where a cell has room for a readable number
    (:func:`heatmap_font`). Whether it has depends on the width the chart is drawn at, known
    only there: a chart drawn too narrow (a narrow window, many models) says so itself, under
    its legend, and only then offers the tooltip (:func:`heatmap_note_expr`) -- the caption
    had said "a narrow chart or many models leave none ... Hover a cell for its P" at every
    width, numbers in the cells or not.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.leaderboard import leaderboard
    >>> from scorio_core.charts.leaderboard import heatmap_cells_text
    >>> R = np.random.default_rng(0).integers(0, 2, (3, 20, 4))
    >>> heatmap_cells_text(leaderboard(R))[:66]
    'the undecided pairs are the cells without an outline, numbered wit'
    """
    _, _, _, labels = _heatmap_cells(board)
    if not any(labels):
        return "every pair is decided, so no cell carries a number"
    return ("the undecided pairs are the cells without an outline, numbered with their P to "
            "four decimals, as the tables give it, without the leading 0, where a cell has "
            "room for a readable number; values near .5 are coin flips")


#: What the heatmap says under itself, drawn live, where no cell can carry its number
#: (:func:`heatmap_note_expr`); alone where every pair is decided and no cell has one.
HEATMAP_HOVER = "Hover a cell for its P."
#: What the heatmap says under itself where its cells are drawn too small for their numbers.
HEATMAP_TOO_SMALL = "Too small here for the cells' numbers"


#: The heatmap's parameter holding the line it writes under its legend
#: (:func:`heatmap_note_expr`, ``""`` for none): its title reads it, and is drawn at no
#: size where it is empty (:func:`_note_title`).
HEATMAP_NOTE = "note_line"


@checked_keywords
def heatmap_note_expr(numbered: bool) -> str:
    """The Vega expression of the line :func:`confidence_heatmap` writes under its legend:
    where undecided cells have numbers (``numbered``) but the cell the chart is drawn with
    holds none readably (``cell_font`` 0, :func:`_heatmap_font_expr`), that it is too small
    for them -- with the tooltip where the chart is drawn live (:data:`~._common.LIVE`),
    which a picture of it has not; with no number to show, the tooltip alone, live;
    otherwise nothing (and the chart keeps no room for it, :func:`_note_title`). Written
    in the chart, not its caption: only the chart knows the width it is drawn at.

    Example
    -------
    >>> from scorio_core.charts.leaderboard import heatmap_note_expr
    >>> print(heatmap_note_expr(True))
    cell_font > 0 ? "" : live ? "Too small here for the cells' numbers: hover a cell for its \
P." : "Too small here for the cells' numbers."
    >>> print(heatmap_note_expr(False))
    live ? "Hover a cell for its P." : ""
    """
    import json

    if not numbered:
        return f"{LIVE} ? {json.dumps(HEATMAP_HOVER)} : \"\""
    hover = f"{HEATMAP_TOO_SMALL}: {HEATMAP_HOVER[0].lower()}{HEATMAP_HOVER[1:]}"
    return (f"cell_font > 0 ? \"\" : {LIVE} ? {json.dumps(hover)} : "
            f"{json.dumps(HEATMAP_TOO_SMALL + '.')}")


def _note_title(param: str) -> alt.TitleParams:
    """A chart's title drawn as a line under it (:data:`~._common.NOTE_LINE`) whose text is
    the parameter ``param``, at no size and offset where that is empty: Vega keeps a title's
    line and offset for an empty text too, and the heatmap held a blank line under its
    legend (23 px, on the page as in a picture) wherever its cells carried their numbers."""
    sized = {k: alt.ExprRef(f"{param} ? {NOTE_LINE[k]} : 0") for k in ("fontSize", "offset")}
    return alt.TitleParams(text=alt.ExprRef(param), **{**NOTE_LINE, **sized})


@checked_keywords
def confidence_heatmap(board: Leaderboard) -> alt.LayerChart:
    """Pairwise ``P(row model beats column model)`` as an L x L heatmap.

    Models are in leaderboard order on both axes (best at top / left), so the
    upper-right triangle holds probabilities above 0.5. Pairs decided by the
    board's rule (confidence and multiplicity adjustment, the rule behind
    ``rank_lo``/``rank_hi``) carry a dark outline and no number; undecided
    cells show the value to four decimals (:func:`heatmap_label`) where a cell has room
    for a readable number (:func:`heatmap_font`); every cell has it in the tooltip.

    The chart is as wide as its container (the app's page column, a notebook's output; the
    SVG/PNG files and the report: their width): its square cells share that width, at
    most 44 px (:func:`_heatmap_cell_expr`), and the numbers' type follows the cell drawn,
    so a wide window numbers the cells a narrow one leaves to the tooltip.

    What to read from it: undecided cells (numbered, where they fit) are the pairs the
    data cannot order at this confidence; values near 0.5 (white) are coin flips
    (:func:`heatmap_cells_text`). Drawn too small for the numbers, it says so under its
    legend, and where drawn live that a hover shows a cell's P (:func:`heatmap_note_expr`).

    Parameters
    ----------
    board : Leaderboard

    Returns
    -------
    altair.LayerChart
    """
    order, P, D, labels = _heatmap_cells(board)
    L = len(order)
    rows, cols = np.meshgrid(np.arange(L), np.arange(L), indexing="ij")
    off = rows.ravel() != cols.ravel()
    df = pd.DataFrame(
        {
            "row": np.asarray(order)[rows.ravel()][off],
            "column": np.asarray(order)[cols.ravel()][off],
            "p": P.ravel()[off],
            "decided": D.ravel()[off],
            "label": labels,  # row-major over the off-diagonal cells, as these rows
        }
    )
    # the tooltip's P by the core's rule for a probability: '>0.9999', never a certain 1.0000
    df["p_text"] = [format_number(v, 4, probability=True) for v in df["p"]]
    df["dark"] = (df["p"] > 0.85) | (df["p"] < 0.15)
    # Upright labels are parallel, one cell apart: they cannot collide, so keep them all; and
    # they take no width beside the grid (at -60° the last ones reached half their length
    # past it), which goes to the cells. Each axis' title beyond its labels as drawn.
    axis_x = _model_axis(orient="top", labelAngle=-90, title="column model",
                         maxExtent=MODEL_AXIS_EXTENT,
                         titleX={"expr": f"cell_px * {L} / 2"})  # over the grid, not the view
    axis_y = _model_axis(title="row model", maxExtent=MODEL_AXIS_EXTENT)
    # Square cells of the width the chart is drawn at (known only there): both axes span L
    # cells of ``cell_px`` (:func:`_heatmap_cell_expr`), left of any width to spare.
    grid = alt.Scale(range=[0, {"expr": f"cell_px * {L}"}])
    base = alt.Chart(df).encode(
        x=alt.X("column:N", sort=order, axis=axis_x, scale=grid),
        y=alt.Y("row:N", sort=order, axis=axis_y, scale=grid),
        tooltip=[
            alt.Tooltip("row:N", title="row model"),
            alt.Tooltip("column:N", title="column model"),
            alt.Tooltip("p_text:N", title="P(row beats column)"),
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
                # within the grid's width (less the legend's padding either side, 8 px in
                # the app), 100-200 px: its default 200 px ran past a narrow column under
                # the grid beside long names' row labels, cutting "1.0"
                gradientLength={"expr": f"clamp(cell_px * {L} - 16, 100, 200)"},
            ),
        )
    )
    outline = base.transform_filter("datum.decided").mark_rect(
        fill=None, stroke="#111", strokeWidth=1.5
    )
    layers = rect + outline
    if any(labels):
        # numbers only where the drawn cell holds them readably (``cell_font`` 0: none)
        text = base.transform_filter("cell_font > 0").mark_text(
            fontSize=alt.ExprRef("cell_font")
        ).encode(
            text="label:N",
            color=alt.condition("datum.dark", alt.value("white"), alt.value("#222")),
        )
        layers = rect + outline + text
    chart = layers.properties(
        width="container", height=HEATMAP_MAX_CELL * L,
        view=alt.ViewBackground(stroke=None),  # no frame round the width the grid leaves
        # fit the width only: the height is the grid's, with the legend below it
        autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
        # under the legend, where the cells carry no numbers: why, and (live) the tooltip;
        # nothing, not a blank line, where they carry them
        title=_note_title(HEATMAP_NOTE),
    )
    # the grid's height follows its cells (Vega merges a signal named "height" into its own
    # height): the fixed number above is only where it starts
    chart.params = [alt.VariableParameter(name="cell_px", expr=_heatmap_cell_expr(L)),
                    alt.VariableParameter(name="height", expr=f"cell_px * {L}"),
                    alt.VariableParameter(name="cell_font", expr=_heatmap_font_expr(labels)),
                    live_param(),  # before the line that reads it and cell_font
                    alt.VariableParameter(name=HEATMAP_NOTE,
                                          expr=heatmap_note_expr(any(labels)))]
    return chart
