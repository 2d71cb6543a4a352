"""Altair chart builders for the app and for notebooks (no Streamlit import).

Every builder takes a core object (:class:`~scorio_core.outcomes.Outcomes` or
:class:`~scorio_core.leaderboard.Leaderboard`) and returns an Altair chart
whose height grows with the number of models (a fixed step per row), so 20
models with long names stay legible; widths follow the container
(``width="container"``) except the heatmap, which has square cells.
In a notebook, display the chart directly; in Streamlit, use
``st.altair_chart(chart, width="stretch")``.

Example
-------
>>> import numpy as np
>>> from scorio_core.outcomes import Outcomes
>>> from scorio_core.leaderboard import leaderboard
>>> from scorio_core import charts
>>> o = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 10, 8)), models=["a", "b", "c"])
>>> len(charts.forest_plot(leaderboard(o)).to_dict()["layer"])  # interval, dot, rank label
3
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .leaderboard import Leaderboard
from .outcomes import Outcomes

__all__ = [
    "accuracy_strip",
    "forest_plot",
    "confidence_heatmap",
    "category_bars",
    "rank_bump_chart",
    "RANK_BUMP_CAPTION",
    "order_curve_chart",
    "allocation_chart",
]

#: Pixels per model row; 20 models give a ~460 px tall chart.
ROW_PX = 22
#: Longest model name shown in full on an axis (longer ones are truncated with "…").
LABEL_LIMIT = 260


def inline(df: pd.DataFrame) -> alt.InlineData:
    """``df`` as inline chart data that Altair's 5,000-row guard does not refuse.

    Grids such as the 77 × 77 method heatmap or the L × L pairwise matrix of 100
    models are legitimately larger; outside Streamlit (notebooks, reports) Altair
    would raise ``MaxRowsError`` on them.
    """
    return alt.InlineData(values=df.to_dict(orient="records"))


def _model_axis(**kw) -> alt.Axis:
    """Axis for model names: every label shown, centred on its row (no flush-shifting of
    the first/last label, which Streamlit's theme turns on)."""
    return alt.Axis(labelLimit=LABEL_LIMIT, labelFlush=False, labelOverlap=False, **kw)


def _rows(n_rows: int) -> alt.Step:
    """Height as a per-row step, so the plot area (not the whole figure) grows with
    the number of models and axis labels never get thinned out."""
    return alt.Step(ROW_PX if n_rows > 3 else 2 * ROW_PX)


def _per_question_scores(outcomes: Outcomes) -> np.ndarray:
    """Mean weighted score of each (model, question) over its trials: shape (L, M)."""
    return outcomes.weights[outcomes.R].mean(axis=-1)


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
    """Bayes@N posterior mean with its credible interval, one row per model.

    Rows are in leaderboard order (best first). The dot is ``mu``, the bar
    spans ``[lo, hi]`` at the board's confidence and scope, and the label
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
            "mu": t["mu"].astype(float),
            "lo": t["lo"].astype(float),
            "hi": t["hi"].astype(float),
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
    span = float(df["hi"].max() - df["lo"].min()) or 1.0
    x_scale = alt.Scale(
        domain=[float(df["lo"].min()) - 0.02 * span, float(df["hi"].max()) + 0.16 * span],
        nice=False,
        zero=False,
    )
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
        alt.Tooltip("rank_chain:Q", title="chain rank (000 §2.7.1)"),
        alt.Tooltip("rank_overlap:Q", title="overlap (arena) rank"),
        alt.Tooltip("mu:Q", format=".4f"),
        alt.Tooltip("lo:Q", format=".4f"),
        alt.Tooltip("hi:Q", format=".4f"),
    ]
    base = alt.Chart(df).encode(y=y, color=color, tooltip=tooltip)
    bars = base.mark_rule(strokeWidth=2.5).encode(
        x=alt.X(
            "lo:Q",
            scale=x_scale,
            title=f"Bayes@N mean with {conf:.0%} credible interval ({scope} scope)",
        ),
        x2="hi:Q",
    )
    dots = base.mark_circle(size=70, opacity=1).encode(x=alt.X("mu:Q", scale=x_scale))
    labels = base.mark_text(align="left", dx=6, fontSize=11, fontWeight="bold").encode(
        x=alt.X("hi:Q", scale=x_scale), text="rank_label:N"
    )
    return (bars + dots + labels).properties(width="container", height=_rows(len(df)))


def confidence_heatmap(board: Leaderboard) -> alt.LayerChart:
    """Pairwise ``P(row model beats column model)`` as an L x L heatmap.

    Models are in leaderboard order on both axes (best at top / left), so the
    upper-right triangle holds probabilities above 0.5. Pairs decided by the
    board's rule (confidence and multiplicity adjustment, the rule behind
    ``rank_lo``/``rank_hi``) carry a dark outline and no number; undecided
    cells show the value to two decimals; every cell has it in the tooltip.

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
    # grid of ".00" and "1" would drown the few pairs worth reading (values in the tooltip).
    df["label"] = [
        "" if d else (f"{v:.2f}".lstrip("0") if 0.005 <= v < 0.995 else f"{v:.3f}".lstrip("0"))
        for v, d in zip(df["p"], df["decided"], strict=True)
    ]
    df["dark"] = (df["p"] > 0.85) | (df["p"] < 0.15)
    cell = int(np.clip(560 / max(L, 1), 18, 44))
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
                orient="right",
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


#: Widest the τ_b heatmap may be (labels, cells and legend), to fit a page column.
TAU_HEATMAP_WIDTH = 900
_TAU_LABEL_LIMIT = 200  # px of a row label (longer ids end in "…"; the tooltip has them)
_TAU_LEGEND = 70
_TAU_PLOT_WIDTH = TAU_HEATMAP_WIDTH - _TAU_LABEL_LIMIT - _TAU_LEGEND


def tau_heatmap(tau: pd.DataFrame, order: list[str] | None = None) -> alt.Chart:
    """Kendall τ_b between the rankings of every pair of methods.

    ``tau`` is the square method × method frame of
    :attr:`scorio_core.analysis.Comparison.tau`; ``order`` (default: as given)
    sorts both axes, e.g. by consensus rank so that agreeing methods cluster.

    What to read from it: yellow (τ_b near 1) blocks are methods that rank the
    models the same way; a darker row or column is a method that disagrees with
    most others.

    Returns
    -------
    altair.Chart
    """
    order = list(tau.index) if order is None else list(order)
    long = tau.loc[order, order].rename_axis(index="row", columns="column").stack()
    df = long.rename("tau").reset_index()
    # Fit a ~940 px page column: row labels + cells + legend within TAU_HEATMAP_WIDTH.
    cell = int(np.clip(_TAU_PLOT_WIDTH / max(len(order), 1), 6, 30))
    font = int(np.clip(cell - 1, 6, 10))
    # one label per cell: never let Vega thin them out, or rows cannot be identified
    axis_x = alt.Axis(orient="top", labelAngle=-60, labelLimit=_TAU_LABEL_LIMIT, title=None,
                      labelFontSize=font, labelOverlap=False)
    axis_y = alt.Axis(labelLimit=_TAU_LABEL_LIMIT, title=None, labelFontSize=font,
                      labelOverlap=False)
    return (
        alt.Chart(inline(df))
        .mark_rect()
        .encode(
            x=alt.X("column:N", sort=order, axis=axis_x),
            y=alt.Y("row:N", sort=order, axis=axis_y),
            color=alt.Color(
                "tau:Q",
                scale=alt.Scale(scheme="viridis", domain=[min(0.0, float(df["tau"].min())), 1]),
                legend=alt.Legend(title="Kendall τ_b", orient="right"),
            ),
            tooltip=[
                alt.Tooltip("row:N", title="method"),
                alt.Tooltip("column:N", title="vs method"),
                alt.Tooltip("tau:Q", title="τ_b", format=".3f"),
            ],
        )
        .properties(width=alt.Step(cell), height=alt.Step(cell))
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


# Convergence, stability and greedy-vs-sampling charts live in their own module.
from ._charts_analysis import *  # noqa: E402,F403
from ._charts_analysis import __all__ as _analysis_all  # noqa: E402

__all__ += _analysis_all


def order_curve_chart(curve, z_threshold: float, title: str = "") -> alt.HConcatChart:
    """P(correct order) and z versus trials per question for one pair (000 App. D, Fig. 6).

    Left: the simulated probability that Bayes@N orders the pair as today's
    estimates do. Right: mean simulated z and the closed-form projection, with
    the decision threshold as a dashed rule.

    What to read from it: the N where the right-hand line crosses the dashed
    threshold is the trials needed; the left panel shows how often the order
    would come out right at each N.

    Parameters
    ----------
    curve : scorio_core.planner.OrderCurve
    z_threshold : float
    title : str

    Returns
    -------
    altair.HConcatChart

    Example
    -------
    >>> from scorio_core.planner import order_curve
    >>> c = order_curve([0.7] * 5, [0.6] * 5, [1, 2, 4], sims=200)
    >>> len(order_curve_chart(c, 1.645).to_dict()["hconcat"])
    2
    """
    df = curve.frame()
    x = alt.X("N:Q", title="trials per question N", axis=alt.Axis(tickMinStep=1, format="d"))
    left = (
        alt.Chart(df)
        .mark_line(point=True)
        .encode(
            x=x,
            y=alt.Y("p_correct:Q", title="P(correct order)", scale=alt.Scale(domain=[0.5, 1])),
            tooltip=["N:Q", alt.Tooltip("p_correct:Q", format=".3f")],
        )
        .properties(width=300, height=220, title=title)
    )
    zcols = ["z_mean"] + (["z_projected"] if "z_projected" in df else [])
    long = df.melt(id_vars="N", value_vars=zcols, var_name="z", value_name="value")
    long["z"] = long["z"].map({"z_mean": "simulated mean", "z_projected": "projection (App. D)"})
    lines = (
        alt.Chart(long)
        .mark_line(point=True)
        .encode(
            x=x,
            y=alt.Y("value:Q", title="z"),
            color=alt.Color("z:N", title=None, legend=alt.Legend(orient="bottom")),
            tooltip=["N:Q", "z:N", alt.Tooltip("value:Q", format=".2f")],
        )
    )
    rule = (
        alt.Chart(pd.DataFrame({"z": [z_threshold]}))
        .mark_rule(strokeDash=[4, 3], color="#c92a2a")
        .encode(y="z:Q")
    )
    return alt.hconcat(left, (lines + rule).properties(width=300, height=220))


def allocation_chart(allocation: pd.DataFrame) -> alt.Chart:
    """Extra trials per question per model: greedy vs uniform split of the same budget.

    What to read from it: the greedy split spends trials on the models whose
    pairs more data can still decide; models with no bar are already separated
    from their rivals or tied with them beyond what the budget can change.

    Parameters
    ----------
    allocation : pandas.DataFrame
        ``Plan.allocation`` (columns ``model, extra_trials, uniform_trials``).

    Returns
    -------
    altair.Chart
    """
    order = allocation["model"].astype(str).tolist()
    long = allocation.melt(
        id_vars="model", value_vars=["extra_trials", "uniform_trials"], var_name="split",
        value_name="trials",
    )
    long["split"] = long["split"].map({"extra_trials": "greedy", "uniform_trials": "uniform"})
    return (
        alt.Chart(long)
        .mark_bar()
        .encode(
            y=alt.Y("model:N", sort=order, title=None, axis=_model_axis()),
            x=alt.X(
                "trials:Q", title="extra trials per question",
                axis=alt.Axis(tickMinStep=1, format="d"),
            ),
            yOffset="split:N",
            color=alt.Color(
                "split:N",
                scale=alt.Scale(domain=["greedy", "uniform"], range=["#3b5bdb", "#adb5bd"]),
                legend=alt.Legend(orient="bottom", title=None),
            ),
            tooltip=["model:N", "split:N", "trials:Q"],
        )
        .properties(width="container", height=_rows(len(order)))
    )
