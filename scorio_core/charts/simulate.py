"""Altair charts of the Simulator's lessons (:mod:`scorio_core.simulate`).

Each builder takes a study result and returns a chart; the ``*_CAPTION`` constants say
in one line what to notice. Usable in notebooks as well as on the Simulator page.

Example
-------
>>> from scorio_core import charts, simulate
>>> les = simulate.rubric_lesson()
>>> chart = charts.rubric_weight_chart(simulate.LESSON_R, (0.0, 0.5, 1.0))
>>> sorted(chart.to_dict())[:2]
['$schema', 'config']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import altair as alt
import numpy as np
import pandas as pd

from .. import eval as ev
from ..references import expand
from ._common import PALETTE
from .convergence import tau_curves

if TYPE_CHECKING:  # the studies (and their sweeps) load only when a study runs
    from ..simulate import CorrectOrder, Coverage, PriorDepth

__all__ = [
    "LESSON_TEXT",
    "LessonText",
    "lesson_intro",
    "lesson_notice",
    "truth_convergence_chart",
    "TRUTH_CONVERGENCE_CAPTION",
    "update_histogram",
    "UPDATE_HISTOGRAM_CAPTION",
    "prior_depth_chart",
    "PRIOR_DEPTH_CAPTION",
    "PRIOR_DEPTH_DELTA_CAPTION",
    "correct_order_chart",
    "CORRECT_ORDER_CAPTION",
    "coverage_chart",
    "COVERAGE_CAPTION",
    "rubric_weight_chart",
    "RUBRIC_WEIGHT_CAPTION",
]

TRUTH_CONVERGENCE_CAPTION = (
    "Mean τ_b against the true ranking over fresh simulated datasets (band ±1 s.d.): the higher "
    "a curve at small n, the fewer trials that metric needs; Pass@k starts at n = k."
)
UPDATE_HISTOGRAM_CAPTION = (
    "τ_b between the original and an updated model set: mostly high (the sets are related) "
    "but below 1 for most updates (the ranking changed), so the old results are a hint, not "
    "the answer."
)
PRIOR_DEPTH_CAPTION = (
    "Mean τ_b against the updated models' true ranking: a few prior trials (D ≤ 4) lift the "
    "curve at small N; a deep prior (D ≥ 8) also starts high but falls below uniform (dashed)."
)
PRIOR_DEPTH_DELTA_CAPTION = (
    "Gain over the uniform prior (Δτ = τ_D − τ_0): positive early for every D, then negative "
    "for deep priors, whose outdated information outweighs the new trials."
)
CORRECT_ORDER_CAPTION = (
    "Left: how often Bayes@N puts the better model first; right: the mean z-score with the "
    "1.645 / 1.96 lines; where z crosses a line is the N that separates the pair."
)
COVERAGE_CAPTION = (
    "Share of 95 % intervals that contain the truth (dotted: nominal 95 %; solid: the "
    "leaderboard's headline, dashed: the papers' Bayes@N); points near the dotted line mean "
    "the error bars can be trusted for data like these."
)
RUBRIC_WEIGHT_CAPTION = (
    "μ ± 1.96σ as the chosen category's weight moves (other weights fixed): μ moves in a "
    "straight line with slope = that category's posterior share; σ changes with the spread."
)


class LessonText(NamedTuple):
    """What a Simulator lesson says before (``intro``) and after (``notice``) its chart:
    templates whose ``{fields}`` :func:`lesson_intro` and :func:`lesson_notice` fill from
    the study's settings and result."""

    intro: str
    notice: str


#: Lesson texts of the Simulator page (also usable in reports and notebooks).
LESSON_TEXT = {
    "coins": LessonText(
        (
            "Eleven *LLM mimics* (000 §2.7) answer 30 questions; each question has its own success "
            "probability, scattered around the model's mean. The truth is known, so every metric's "
            "ranking after n trials can be scored against the **true** ranking (000 Fig. 2a)."
        ),
        (
            "Bayes@N and avg@N are one line (same ranking, 000 §2.6) and lead at small n. The "
            "Pass family needs n ≥ k, and Pass@8 / Pass^k level off lower: they rank by another "
            "quantity than the mean accuracy (Pass@2 can match Bayes@N at large n when it happens "
            "to order the close pairs like the means; switch on new questions to average that "
            "accident away). τ stays below 1: LLM_4 and LLM_5 are truly tied and LLM_3 is 0.004 "
            "behind them, gaps that {N} trials per question on {M} questions cannot resolve."
        ),
    ),
    "depth": LessonText(
        (
            "Eight *original* models have per-question probabilities from Beta(i+3, 12−i); an "
            "*update* redraws them from Beta(i+3±1, 12−i±1) (000 App. C). Can D trials of the "
            "original model, used as the Bayes@N prior `R0`, help rank the updated models?"
        ),
        (
            "A prior is shrinkage toward the old ranking: worth a few trials at N = 1 when the old "
            "and new models are related, but with D ≥ 8 it keeps pulling after the new data have "
            "spoken. Keep D small compared with the N you plan to run."
        ),
    ),
    "order": LessonText(
        (
            "{pair} (π̄ = {upper:.4g}) and {other} (π̄ = {lower:.4g}) differ by {gap:.1f} points "
            "(000 App. D). How often does Bayes@N put them in the right order, and when does "
            "their z-score clear 1.645?"
        ),
        (
            "{wrong_order}, and z grows only like √N. The spread matters: questions that are "
            "all equally hard (large κ) add trial noise, so the same pair needs more trials "
            "than with varied questions."
        ),
    ),
    "calibration": LessonText(
        (
            "Each dataset draws fresh questions and N trials; each 95 % interval of the "
            "leaderboard either covers its truth or not: the `questions` scope against the mean "
            "over the questions asked, the `population` scope against the mean of the "
            "population they were drawn from."
        ),
        (
            "Solid lines are the leaderboard's headline intervals, dashed lines the papers' "
            "Bayes@N interval. With mean 0.5 and κ = 2 the questions follow Bayes@N's own "
            "uniform prior and both sit near 95 %. Move the mean to 0.9 and raise κ: at small N "
            "the uniform prior pulls each question toward ½ while the interval shrinks like "
            "1/√(MN), so the dashed lines fall towards 0 -- worst with many questions. The "
            "headline has no pull and counts trial noise once, so it stays near 95 % in both "
            "scopes; at N = 1 the questions scope has no headline point (the trial variance "
            "is never seen)."
        ),
    ),
    "rubric": LessonText(
        (
            "Two questions, five trials, three categories (wrong / partial / correct; 001's worked "
            "example). Bayes@N is closed-form (000 §2.4, Algorithm 1), with ν = counts + prior + 1:"
        ),
        (
            "With weights 0 / ½ / 1 and no prior, μ = 0.5625 and σ = 0.091998 (001). Raising the "
            "partial-credit weight moves μ in a straight line; σ is smallest when the categories "
            "that occur get similar weights, because the score then varies least across outcomes."
        ),
    ),
}


def _fields(lesson: str, params, result) -> dict:
    """The numbers a lesson's text quotes, from its settings (default: the paper's) and,
    where the text reports an outcome, from the study's result."""
    if lesson not in ("coins", "order"):
        return {}
    if params is None:  # the study's defaults: the paper's settings
        from ..definitions.simulate import SIMULATIONS

        params = SIMULATIONS[lesson].params()
    p = params
    if lesson == "coins":
        return {"N": f"{p.N:,}", "M": f"{p.M:,}"}
    default = type(p)()
    paper = (p.upper, p.lower) == (default.upper, default.lower)
    out = {"pair": "LLM_10" if paper else "The better model", "upper": p.upper,
           "other": "LLM_9" if paper else "the worse model", "lower": p.lower,
           "gap": 100 * (p.upper - p.lower)}
    if result is None:  # the paper's Fig. 6 at N = 80
        out["wrong_order"] = "Even 80 trials per question leave a 1-in-6 chance of the wrong order"
        return out
    t = result.table
    row = t.iloc[int(np.argmin(np.abs(t["N"].to_numpy() - 80)))]
    wrong, n = 1.0 - float(row["p_correct"]), int(row["N"])
    out["wrong_order"] = (
        f"Even {n} trials per question leave a {wrong:.0%} chance of the wrong order"
        if wrong >= 0.01 else f"At {n} trials per question the order is almost always right"
    )
    return out


def lesson_intro(lesson: str, params=None) -> str:
    """The lesson's opening text (:data:`LESSON_TEXT`) with the numbers of ``params``
    (default: the paper's settings).

    Example
    -------
    >>> from scorio_core.definitions.simulate import OrderParams
    >>> lesson_intro("order", OrderParams(upper=0.7, lower=0.6)).split(" (Don't")[0]
    'The better model (π̄ = 0.7) and the worse model (π̄ = 0.6) differ by 10.0 points'
    """
    return expand(LESSON_TEXT[lesson].intro.format(**_fields(lesson, params, None)))


def lesson_notice(lesson: str, params=None, result=None) -> str:
    """The lesson's "What to notice" text with the numbers of ``params`` and, where it
    reports an outcome, of ``result`` (default: the paper's settings and figures).

    Example
    -------
    >>> from scorio_core.definitions.simulate import CoinsParams
    >>> lesson_notice("coins", CoinsParams(N=40)).endswith(
    ...     "gaps that 40 trials per question on 30 questions cannot resolve.")
    True
    """
    return expand(LESSON_TEXT[lesson].notice.format(**_fields(lesson, params, result)))


def truth_convergence_chart(summary: pd.DataFrame) -> alt.LayerChart:
    """τ_b vs n against the truth per method (000 Fig. 2a); ``summary`` = ``Curves.summary``."""
    return tau_curves(summary, y_title="Kendall τ_b vs true ranking")


def update_histogram(result: PriorDepth) -> alt.LayerChart:
    """Distribution of τ_b(original, updated) over drawn updates (000 Fig. 5a), mean marked.

    τ_b between rankings of ``L`` untied models takes the values ``1 - 4 q / (L (L-1))``
    (``q`` discordant pairs), so each value gets its own bar.
    """
    t = np.round(result.tau_update, 9)
    vals, counts = np.unique(t[np.isfinite(t)], return_counts=True)
    d = pd.DataFrame({"tau": vals, "share": counts / max(counts.sum(), 1)})
    bars = (
        alt.Chart(d)
        .mark_bar(color="#4c78a8", size=9)
        .encode(
            x=alt.X("tau:Q", title="Kendall τ_b (original, updated)"),
            y=alt.Y("share:Q", title="share of updates", axis=alt.Axis(format="%")),
            tooltip=[alt.Tooltip("tau:Q", format=".3f"), alt.Tooltip("share:Q", format=".2%")],
        )
    )
    mean = (
        alt.Chart(pd.DataFrame({"mean": [float(np.nanmean(t))]}))
        .mark_rule(color="#e45756", strokeWidth=2, strokeDash=[6, 3])
        .encode(x="mean:Q", tooltip=[alt.Tooltip("mean:Q", format=".3f")])
    )
    return (bars + mean).properties(height=260, width="container")


def prior_depth_chart(result: PriorDepth, *, delta: bool = False) -> alt.LayerChart:
    """Mean τ_b vs N per prior depth D (000 Fig. 5b), or Δτ against D = 0 (Fig. 5c)."""
    d = result.curves.copy()
    d["prior"] = np.where(d["D"] == 0, "D = 0 (uniform)", "D = " + d["D"].astype(str))
    d["uniform"] = d["D"] == 0
    order = list(dict.fromkeys(d.sort_values("D")["prior"]))
    y = "delta" if delta else "mean"
    title = "Δτ_b vs uniform prior" if delta else "Kendall τ_b vs true ranking"
    chart = (
        alt.Chart(d)
        .mark_line(point=True, strokeWidth=2)
        .encode(
            x=alt.X("n:Q", title="trials N of the updated models", scale=alt.Scale(type="log")),
            y=alt.Y(f"{y}:Q", title=title, scale=alt.Scale(zero=False)),
            color=alt.Color(
                "prior:N", sort=order, title="prior depth", scale=alt.Scale(scheme=PALETTE)
            ),
            strokeDash=alt.StrokeDash(
                "uniform:N",
                legend=None,
                scale=alt.Scale(domain=[True, False], range=[[6, 4], [1, 0]]),
            ),
            tooltip=["prior", "n", alt.Tooltip(f"{y}:Q", format=".4f")],
        )
    )
    if delta:
        zero = alt.Chart(pd.DataFrame({"y": [0.0]})).mark_rule(color="gray").encode(y="y:Q")
        chart = zero + chart
    else:
        chart = alt.layer(chart)
    return chart.properties(height=300, width="container")


def correct_order_chart(result: CorrectOrder) -> alt.HConcatChart:
    """P(correct order) and mean z vs N (000 Fig. 6) with the 1.645 / 1.96 thresholds."""
    t = result.table
    left = (
        alt.Chart(t)
        .mark_line(point=True)
        .encode(
            x=alt.X("N:Q", title="trials N"),
            y=alt.Y(
                "p_correct:Q",
                title="P(correct order)",
                scale=alt.Scale(zero=False),
                axis=alt.Axis(format="%"),
            ),
            tooltip=["N", alt.Tooltip("p_correct:Q", format=".3f")],
        )
        .properties(height=260, width=330)
    )
    thr = pd.DataFrame({"z": list(result.n_at), "label": [f"z = {z:g}" for z in result.n_at]})
    z_line = (
        alt.Chart(t)
        .mark_line(point=True, color="#f58518")
        .encode(
            x=alt.X("N:Q", title="trials N"),
            y=alt.Y("z_mean:Q", title="mean |z|"),
            tooltip=[
                "N",
                alt.Tooltip("z_mean:Q", format=".3f"),
                alt.Tooltip("rho:Q", format=".3f"),
            ],
        )
    )
    rules = alt.Chart(thr).mark_rule(strokeDash=[5, 3], color="gray").encode(y="z:Q")
    labels = (
        alt.Chart(thr)
        .mark_text(align="left", dx=4, dy=-6, color="gray")
        .encode(y="z:Q", x=alt.value(0), text="label:N")
    )
    right = (z_line + rules + labels).properties(height=260, width=330)
    return alt.hconcat(left, right)


def coverage_chart(result: Coverage) -> alt.LayerChart:
    """Coverage vs N, one line per M (and scope); solid = headline interval, dashed = the
    papers' Bayes@N interval; the nominal level dotted."""
    d = result.table.copy()
    if "interval" not in d:
        d["interval"] = "headline"
    d = d[d["coverage"].notna()]
    d["series"] = "M = " + d["M"].astype(str)
    if d["scope"].nunique() > 1:
        d["series"] = d["scope"] + ", " + d["series"]
    d["lo"] = (d["coverage"] - 2 * d["se"]).clip(lower=0)
    d["hi"] = (d["coverage"] + 2 * d["se"]).clip(upper=1)
    base = alt.Chart(d).encode(
        x=alt.X("N:Q", title="trials N", scale=alt.Scale(type="log")),
        color=alt.Color(
            "series:N",
            title="questions",
            scale=alt.Scale(scheme=PALETTE),
            sort=list(dict.fromkeys(d["series"])),
        ),
    )
    line = base.mark_line(point=True).encode(
        strokeDash=alt.StrokeDash(
            "interval:N", title="interval",
            scale=alt.Scale(domain=["headline", "Bayes@N (papers)"], range=[[1, 0], [5, 4]]),
        ),
        detail="interval:N",
        y=alt.Y(
            "coverage:Q",
            title="coverage of the interval",
            axis=alt.Axis(format="%"),
            scale=alt.Scale(zero=False),
        ),
        tooltip=[
            "series",
            "interval",
            "N",
            alt.Tooltip("coverage:Q", format=".3f"),
            alt.Tooltip("width:Q", format=".3f"),
        ],
    )
    err = base.mark_errorbar().encode(y=alt.Y("lo:Q", title="coverage of the interval"), y2="hi:Q")
    nominal = (
        alt.Chart(pd.DataFrame({"y": [result.confidence]}))
        .mark_rule(strokeDash=[2, 3], color="black")
        .encode(y="y:Q")
    )
    return (err + line + nominal).properties(height=300, width="container")


def rubric_weight_chart(
    R, weights: Sequence[float], category: int = 1, R0=None, steps: int = 41
) -> alt.LayerChart:
    """μ and its 95 % interval as ``weights[category]`` sweeps 0..1, the current value marked."""
    w = np.asarray(weights, dtype=float)
    grid = np.linspace(0.0, 1.0, steps)
    W = np.repeat(w[None], steps, 0)
    W[:, category] = grid
    rows = []
    for g, wv in zip(grid, W, strict=True):  # a few dozen closed-form evaluations
        mu, sigma = ev.bayes(R, wv, R0)
        rows.append(
            {
                "weight": g,
                "mu": mu,
                "lo": mu - 1.96 * sigma,
                "hi": mu + 1.96 * sigma,
                "sigma": sigma,
            }
        )
    d = pd.DataFrame(rows)
    base = alt.Chart(d).encode(x=alt.X("weight:Q", title=f"weight of category {category}"))
    band = base.mark_area(opacity=0.2).encode(y=alt.Y("lo:Q", title="μ ± 1.96σ"), y2="hi:Q")
    line = base.mark_line(strokeWidth=2).encode(
        y="mu:Q",
        tooltip=[
            alt.Tooltip("weight:Q", format=".2f"),
            alt.Tooltip("mu:Q", format=".4f"),
            alt.Tooltip("sigma:Q", format=".4f"),
        ],
    )
    now = ev.bayes(R, w, R0)
    dot = (
        alt.Chart(pd.DataFrame({"weight": [w[category]], "mu": [now.mu]}))
        .mark_point(size=90, filled=True, color="#e45756")
        .encode(x="weight:Q", y="mu:Q")
    )
    return (band + line + dot).properties(height=260, width="container")
