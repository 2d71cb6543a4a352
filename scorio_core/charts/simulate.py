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
from .._validation import check_weight_vector, checked_keywords
from ..formatting import DECIMALS, format_number, setting_text
from ..references import expand
from ._common import PALETTE, whole_axis
from .convergence import tau_curves

if TYPE_CHECKING:  # the studies (and their sweeps) load only when a study runs
    from ..simulate import CorrectOrder, Coverage, PriorDepth

__all__ = [
    "LESSON_TEXT",
    "LessonText",
    "LessonFormula",
    "RUBRIC_FORMULA",
    "lesson_intro",
    "lesson_notice",
    "tables_intro",
    "tables_notice",
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
    "coverage_caption",
    "CoverageScale",
    "COVERAGE_CAPTION",
    "rubric_weight_chart",
    "RUBRIC_WEIGHT_CAPTION",
]

TRUTH_CONVERGENCE_CAPTION = (
    "Mean τ_b between each metric's ranking and the true one over fresh simulated datasets "
    "(band ±1 s.d.; 1 = the true order); Bayes@N and avg@N rank alike, so they share one "
    "line (Bayes@N = avg@N); Pass@k starts at n = k."
)
UPDATE_HISTOGRAM_CAPTION = (
    "τ_b between the original and an updated model set, one bar per value (dashed red line: "
    "their mean): mostly high (the sets are related) but below 1 for most updates (the "
    "ranking changed), so the old results are a hint, not the answer."
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
#: The coverage chart's line (:func:`coverage_caption`): ``{wide}`` names the lighter band
#: of M = 15 where the chart shows that M.
_COVERAGE_CAPTION = (
    "Share of 95% intervals that contain the truth: a line inside the shaded band (0.93–0.97"
    "{wide}; dotted: nominal 0.95) means intervals to trust for data like these; solid: the "
    "leaderboard's headline, dashed: the papers' Bayes@N; colour: scope; shape: M."
)
#: The coverage chart's line where it shows no M = 15 (:func:`coverage_caption`).
COVERAGE_CAPTION = _COVERAGE_CAPTION.format(wide="")
RUBRIC_WEIGHT_CAPTION = (
    "μ ± 1.96σ as the chosen category's weight moves (other weights fixed; red dot: the "
    "weights set above): μ moves in a straight line with slope = that category's posterior "
    "share; σ changes with the spread."
)


class LessonFormula(NamedTuple):
    """The formula a lesson's intro ends on, after its colon, declared once in two forms:
    ``latex`` for the Simulator page (drawn under the intro), ``plain`` (Unicode, a complete
    sentence) for the report, the notebook and the terminal, which print it after the colon
    (:func:`lesson_intro`, :func:`tables_intro`)."""

    latex: str
    plain: str


class LessonText(NamedTuple):
    """What a Simulator lesson says before (``intro``) and after (``notice``) its charts,
    and what ``scorio-studio simulate`` says of the tables it prints instead: templates whose
    ``{fields}`` :func:`lesson_intro`, :func:`lesson_notice`, :func:`tables_intro` and
    :func:`tables_notice` fill from the study's settings and result.

    ``intro`` sets the lesson up without any chart, so the page, a report and the terminal
    all open with it; ``notice`` reads the charts (page and report). The terminal shows no
    chart: ``tables`` follows ``intro`` there and says what its headlines and tables hold,
    column by column, and ``tables_notice`` is what to notice in them -- ``None`` where
    ``notice`` names no chart and so reads as well under the tables (``{seen}`` then opens
    it with what the printed rows show, where the lesson says it). ``formula``: the formula
    ``intro`` ends on (:class:`LessonFormula`), or ``None``."""

    intro: str
    notice: str
    tables: str
    tables_notice: str | None = None
    formula: LessonFormula | None = None


#: The coins lesson's last sentence, under its chart as under its table.
_COINS_TIES = (
    "τ stays below 1: LLM_4 and LLM_5 are truly tied (an untied ranking reaches at most "
    "τ_b = {cap}) and LLM_3 is 0.004 behind them, gaps that {trials} per question on {M} "
    "questions cannot resolve."
)

#: How often one set of questions lets a Pass metric end above Bayes@N, as the coins lesson
#: says it: :func:`scorio_core.simulate.coins.draws_ahead` at the study's defaults (κ = 3,
#: M = 30, N = 80, 1,000 datasets) on the questions of ``seeds`` (0, 1, ...): on ``ahead`` of
#: them some Pass metric ends above Bayes@N by more than twice its simulation error,
#: ``pass_at_k_2`` of them Pass@2; with new questions in every dataset, on ``fresh_ahead`` of
#: ``fresh_seeds``. tests/simulate/test_lesson_claims.py measures them again.
COINS_DRAWS = {"seeds": 40, "ahead": 22, "pass_at_k_2": 14, "fresh_seeds": 20,
               "fresh_ahead": 0}

#: The pairs of the coins whose true means lie close (000 §2.7), as the lesson names them.
_CLOSE_PAIRS = "LLM_3 0.004 below LLM_4 = LLM_5, LLM_8 0.014 below LLM_7, LLM_9 0.013 below LLM_10"

#: The rubric lesson's last sentence, under its chart as under its tables.
_RUBRIC_SIGMA = ("σ is smallest when the categories that occur get similar weights, because the "
                 "score then varies least across outcomes.")

#: Bayes@N term by term (000 §2.4, Algorithm 1), the rubric lesson's table by its columns:
#: the counts ν_αk, m_α and var_α (the per-question term of σ²). On the page in two lines
#: (as one it ran past the column at 1280 px).
RUBRIC_FORMULA = LessonFormula(
    r"\begin{gathered}\mu = w_0 + \frac{1}{M}\sum_\alpha m_\alpha,\quad m_\alpha = "
    r"\sum_k \frac{\nu_{\alpha k}}{T}(w_k - w_0),\\ \sigma^2 = \frac{\sum_\alpha "
    r"\mathrm{var}_\alpha}{M^2 (T+1)},\quad \mathrm{var}_\alpha = \sum_k "
    r"\frac{\nu_{\alpha k}}{T}(w_k-w_0)^2 - m_\alpha^2\end{gathered}",
    "μ = w_0 + (1/M) Σ_α m_α with m_α = Σ_k (ν_αk/T)(w_k − w_0), and σ² = Σ_α var_α / "
    "(M²(T + 1)) with var_α = Σ_k (ν_αk/T)(w_k − w_0)² − m_α².",
)

#: Lesson texts of the Simulator page, its reports and notebooks, and ``scorio-studio
#: simulate`` (its ``tables`` texts).
LESSON_TEXT = {
    "coins": LessonText(
        (
            "Eleven *LLM mimics* (000 §2.7) answer {M} questions; each question has its own "
            "success probability, scattered around the model's mean. The truth is known, so every "
            "metric's ranking after n trials can be scored against the **true** ranking "
            "(000 Fig. 2a). {design}"
        ),
        (
            "The y-axis is agreement with the truth: Kendall τ_b between a metric's ranking after "
            "n trials and the true ranking (by mean success over the {M} questions), averaged "
            "over {B} datasets of new trials. {same_line}{race}{why}{ceilings}" + _COINS_TIES
        ),
        (
            "The `tau` table has one row per number of trials `n` ({rows}) and one column per "
            "metric ({columns}): the mean Kendall τ_b between the metric's ranking after n "
            "trials and the true ranking (by mean success over the {M} questions), over {B} "
            "datasets of new trials; 1 is the true order.{missing}"
        ),
        "{same_line}{race}{why}{ceilings}" + _COINS_TIES,
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
            "spoken. Keep D small compared with the N you plan to run.{paper}"
        ),
        (
            "The first two numbers compare the updates with the originals: the mean Kendall "
            "τ_b between an update's true ranking and the originals', and the share of updates "
            "whose ranking differs from theirs; the originals' true means follow. The `tau` "
            "table has one row per number of trials `n` of the updated models and one column per "
            "prior depth ({columns}; `D=0`: no prior): the mean τ_b between the Bayes@N ranking "
            "with D trials of the original models as its prior and the updated models' true "
            "ranking, over {B} simulated datasets."
        ),
    ),
    "order": LessonText(
        (
            "{pair} differ by {gap:.1f} points (000 App. D){spread}. How often does Bayes@N put "
            "them in the right order, and when does their z-score clear 1.645? Here z = "
            "|μ − μ′| / √(σ² + σ′²) is the gap between their Bayes@N scores over its standard "
            "deviation, and the papers read Φ(z) as the confidence ρ that the order is right "
            "(000 §2.5). So z = 1.645 is ρ = 95%, a one-sided 95% bound: the threshold of the "
            "papers' rank_chain rule (the Leaderboard's `rank_chain` column). z = 1.96 is "
            "ρ = 97.5%, which the paper calls a 97.5% CI but is the two-sided 95% level: the "
            "one at which the Leaderboard decides a single pair (with more pairs, its Holm "
            "adjustment asks for more)."
        ),
        (
            "{wrong_order}, and z grows only like √N. {paper}{folded}The spread matters: "
            "questions that are all equally hard (large κ) add trial noise, so the same pair "
            "needs more trials than with varied questions."
        ),
        (
            "The first number is P(correct order) at N = 80; then, for each z threshold, the "
            "first N where the mean |z| reaches it, beside {paper_n}the N the trials-needed rule "
            "predicts from datasets of N = {predict_from} trials; then the spread κ used. The "
            "`order` table has one row per number of trials per question `N`: `p_correct` is the "
            "share of the {sims} simulated datasets in which Bayes@N puts the better model "
            "first, `z_mean` the mean z-score |μ − μ′| / √(σ² + σ′²) of the pair, `rho` = "
            "Φ(z_mean), the papers' ρ read at the mean |z| as App. D reads it (it runs above "
            "`p_correct` while the pair is close: |z| counts the datasets of the wrong order as "
            "evidence for the right one), `z_signed` the mean of z signed by the true order "
            "(negative where a dataset puts the worse model first) and `rho_signed` = "
            "Φ(z_signed), which follows `p_correct`. The `thresholds` table gives, per `z`, "
            "`N_at_z`, the first N of the `order` table whose `z_mean` reaches it (— when none "
            "up to N = {n_max}), `N_at_z_signed`, the same for `z_signed`, and `{predicted}`, "
            "the median prediction."
        ),
    ),
    "calibration": LessonText(
        (
            "Each dataset draws fresh questions and N trials; each 95% interval — the "
            "leaderboard's headline and the papers' Bayes@N μ ± 1.96σ — either covers its truth "
            "or not: in the `questions` scope the mean over the questions asked, in the "
            "`population` scope the mean of the population they were drawn from."
        ),
        (
            "Solid: the leaderboard's headline; dashed: the papers' Bayes@N interval; blue: "
            "`questions` scope, orange: `population` scope; point shape: M{panels}. {seen}At mean "
            "0.5 "
            "and κ = 2 (the defaults) the questions follow Bayes@N's own uniform prior, so in the "
            "`questions` scope its interval is calibrated (dashed blue near 95%). But its σ "
            "covers only the trial noise around the questions asked: against the population mean "
            "it also misses by the question-sampling error (about sd(p)/√M), which more trials "
            "do not shrink while the interval shrinks like 1/√(MN). So the dashed orange lines "
            "fall with N, alike for every M since both scale like 1/√M (at N = 1 its pull toward "
            "½, here the population mean itself, makes it over-cover). Move the mean to 0.9: the "
            "prior now pulls every question toward ½, a bias that shrinks like 1/N against an "
            "interval shrinking like 1/√(MN), so the dashed blue lines start near 0% and recover "
            "slowly with N, worst with many questions (M = 100 below 10% at N = 64), and the "
            "orange ones stay far below 95%. The headline has no pull and counts each noise "
            "source once (trials; in the `population` scope also question sampling): {band} "
            "At N = 1 the `questions` scope has no headline point: one trial never shows the "
            "trial variance."
        ),
        (
            "The `coverage` table has one row per {mean_rows}`scope`, `interval`, number of "
            "questions `M` and trials per question `N`: `interval` is headline (the "
            "leaderboard's) or Bayes@N (papers) (μ ± 1.96σ), `coverage` the share of the {B} "
            "datasets whose interval covers its truth (nominal: 0.95), `se` the binomial "
            "standard error of that share and `width` the interval's mean width.{missing}"
        ),
        (
            "{seen}At mean 0.5 and κ = 2 (the defaults) the questions follow Bayes@N's own "
            "uniform prior, so in the `questions` scope its interval is calibrated (Bayes@N "
            "(papers) coverage near 0.95). But its σ covers only the trial noise around the "
            "questions asked: against the population mean it also misses by the "
            "question-sampling error (about sd(p)/√M), which more trials do not shrink while the "
            "interval shrinks like 1/√(MN). So in the `population` scope its coverage falls "
            "with N, alike for every M since both scale like 1/√M (at N = 1 its pull toward ½, "
            "here the population mean itself, makes it over-cover). With --means 0.9 the prior "
            "pulls every question toward ½, a bias that shrinks like 1/N against an interval "
            "shrinking like 1/√(MN), so its coverage in the `questions` scope starts near 0 "
            "and recovers slowly with N, worst with many questions (M = 100 below 0.10 at "
            "N = 64), and in the `population` scope it stays far below 0.95. The headline has no "
            "pull and counts each noise source once (trials; in the `population` scope also "
            "question sampling): {band} At N = 1 the `questions` scope has no headline interval "
            "(—): one trial never shows the trial variance."
        ),
    ),
    "rubric": LessonText(
        (
            "Two questions, five trials, three categories (wrong / partial / correct; 001's worked "
            "example). Bayes@N is closed-form (000 §2.4, Algorithm 1), with ν = counts + prior + 1 "
            "and T = 1 + C + D + N (C + 1 categories, D prior outcomes and N trials per "
            "question):"
        ),
        (
            "With weights {weights} and {prior}, μ = {run_mu} and σ = {run_sigma}{example}. "
            "Raising the partial-credit weight w_1 moves μ in a straight line, by {share_1} per "
            "unit of weight (the mean of ν_1/T over the questions); " + _RUBRIC_SIGMA
        ),
        (
            "The `lesson` table has one row per `question` α with {nus} (ν_αk of category k), "
            "`m_α` and `var_α`; μ, σ and T are the numbers above the tables, and the `summary` "
            "table repeats them (`mu`, `sigma`, `T`) with the number of questions `M`."
        ),
        (
            "With weights {weights} and {prior}, μ = {run_mu} and σ = {run_sigma}{example}. μ "
            "is linear in the weights: raising w_k by δ raises μ by δ times the mean of ν_k/T "
            "over the questions ({shares} here), so another --weights moves μ by exactly that. "
            + _RUBRIC_SIGMA
        ),
        formula=RUBRIC_FORMULA,
    ),
}


def _fields(lesson: str, params, result) -> dict:
    """The numbers a lesson's text quotes, from its settings (default: the paper's) and,
    where the text reports an outcome, from the study's result."""
    if lesson == "rubric":  # 001's worked example, in the lesson table's decimals
        from ..simulate.lesson import LESSON_DECIMALS, rubric_lesson

        les = rubric_lesson()
        return {"mu": format_number(les.mu, LESSON_DECIMALS),
                "sigma": format_number(les.sigma, LESSON_DECIMALS)}
    if lesson == "depth":
        return {"paper": _depth_paper(result)}
    if lesson not in ("coins", "order"):
        return {}
    p = params if params is not None else _default_params(lesson)  # the paper's settings
    if lesson == "coins":
        from ..formatting import count_text

        design = (
            "Unlike the paper's figure, every dataset here draws new questions (the paper keeps "
            "one set), so each τ_b averages over sets of questions; and each Pass metric heads "
            "for the ranking by its own quantity, not for the true one, so some level off "
            "below 1." if p.fresh_questions else
            "Two things here differ from the paper's figure, and what to notice says why: on "
            "one fixed set of questions (the paper's design, kept here) which metric ends "
            "highest depends on that set, not only on the metric; and each Pass metric heads "
            "for the ranking by its own quantity, not for the true one, so some level off well "
            "below 1.")
        return {"N": f"{p.N:,}", "M": f"{p.M:,}", "B": f"{p.replicates:,}",
                "trials": count_text(p.N, "trial"), "design": design}
    default = type(p)()
    # the pair the run used (its result's true means; before a run, the settings'): the
    # paper's is named as the paper's (the defaults; the page while its boxes do not fit
    # together), any other as the run's own
    upper, lower = result.true_means if result is not None else (p.upper, p.lower)
    kappa = result.concentration if result is not None else p.concentration
    paper = (upper, lower) == (default.upper, default.lower)
    a, b = ("In the paper's example, LLM_10", "LLM_9") if paper else (
        "The better model", "the worse model")
    out = {"pair": f"{a} (π̄ = {upper:.4g}) and {b} (π̄ = {lower:.4g})",
           "gap": 100 * (upper - lower),
           "spread": "" if kappa == default.concentration else
                     f", here on 30 questions of spread κ = {setting_text(kappa)}"}
    out["paper_n"] = "the paper's N (in the headline's brackets) and " if paper else ""
    out["paper"] = out["folded"] = ""
    if result is None:  # the paper's Fig. 6 at N = 80
        out["wrong_order"] = "Even 80 trials per question leave a 1-in-6 chance of the wrong order"
        return out
    from ..formatting import a_chance

    t = result.table
    row = t.iloc[int(np.argmin(np.abs(t["N"].to_numpy() - 80)))]
    wrong, n = 1.0 - float(row["p_correct"]), int(row["N"])
    out["wrong_order"] = (
        f"Even {n} trials per question leave {a_chance(wrong, measured=True)} of the wrong "
        "order"
        if wrong >= 0.01 else f"At {n} trials per question the order is almost always right"
    )
    return out | _order_read(result, row, paper)


def _order_read(result, row: pd.Series, paper: bool) -> dict:
    """The order lesson's sentences on this run's numbers at N = ``row["N"]`` (80): against
    the paper's App. D (its pair only), and the papers' ρ at the mean |z| against the
    simulated chance, unfolded by the mean of the signed z (``rho_signed``)."""
    from ..formatting import format_column
    from ..simulate.order import PAPER_ORDER, PAPER_READING

    def cell(col: str, value) -> str:
        return format_column([float(value)], col)[0]

    def at(n_at: dict, z: float) -> str:
        n = n_at.get(z, float("nan"))
        return f"N = {int(n):,}" if np.isfinite(n) else "no N up to " + (
            f"{int(result.table['N'].max()):,}")

    n = int(row["N"])
    out = {"paper": "", "folded": ""}
    zs = [z for z in (1.645, 1.96) if z in result.n_at]
    if paper and n == 80 and zs:
        ours = " and ".join(f"{z_text(z)} at {at(result.n_at, z)}" for z in zs)
        theirs = _listed([str(PAPER_ORDER["N_at"][z]) for z in zs])
        fit = PAPER_READING["concentration"]
        out["paper"] = (
            f"Here P(correct order) at N = 80 is {cell('p_correct', row['p_correct'])} and the "
            f"mean |z| reaches {ours}; the paper reports {PAPER_ORDER['p_correct_80']}, "
            f"{theirs} (000 App. D) without the spread of its questions, which moves all of "
            "them")
        if result.concentration == fit:
            r = PAPER_READING
            ns = np.unique(np.diff(result.table["N"].to_numpy()))
            grid = f"every {int(ns[0])} trials" if ns.size == 1 else "its grid of N"
            # no chart words: the terminal prints this under its tables
            out["paper"] += (
                f". κ = {setting_text(fit)} is the spread that reproduces them (the coins "
                "lesson's questions have κ = 3): read as the paper reads its Fig. 6, the first "
                f"N at which the mean |z|, simulated at every N from {r['sims']:,} datasets, "
                f"reaches each threshold (over {r['seeds']} sets of questions), this study "
                f"gives {cell('p_correct', r['p_correct_80'])}, "
                f"{_listed([str(r['N_at'][z]) for z in zs])}. Its grid here, {grid} on "
                f"{result.sims or 0:,} datasets each, is less noisy, and a noisy mean reaches "
                "a threshold sooner, so the grid's N come later. ")
        else:
            out["paper"] += (f" (κ = {setting_text(result.concentration)} here; "
                             f"κ = {setting_text(fit)} reproduces them). ")
    if "rho_signed" in result.table and row["p_correct"] < 0.95:
        signed = result.n_at_signed or {}
        reach = ("; that mean reaches " + " and ".join(
            f"{z_text(z)} at {at(signed, z)}" for z in zs) if signed and zs else "")
        out["folded"] = (
            f"Read as a chance, Φ(mean |z|) (the papers' ρ = Φ(z) at the mean |z|, as App. D "
            f"reads it: `rho`) runs above the simulated P(correct order) while the pair is "
            f"close ({cell('rho', row['rho'])} against {cell('p_correct', row['p_correct'])} at "
            f"N = {n}): |z| counts a dataset that puts the worse model first as evidence for "
            f"the right order. The mean of z signed by the true order unfolds it: Φ of it "
            f"(`rho_signed`) is {cell('rho_signed', row['rho_signed'])}{reach}. ")
    return out


def _depth_paper(result) -> str:
    """The prior depth lesson's sentence on its update numbers beside the paper's (000 App. C),
    each as the study's ``update`` table writes it."""
    if result is None:
        return ""
    from ..formatting import format_column
    from ..simulate.depth import PAPER_UPDATE

    s = result.update_summary
    return (f" Here the mean τ_b(original, updated) is "
            f"{format_column([s['mean_tau']], 'mean_tau')[0]} and the share of updates that "
            f"change the ranking {format_column([s['share_changed']], 'share_changed')[0]}; "
            f"the paper reports {PAPER_UPDATE['mean_tau']} and about "
            f"{PAPER_UPDATE['share_changed']} (000 App. C).")


# ----------------------------------------------------------- "What to notice", from results
def _pass_kind(mid: str) -> tuple[str, int, float, str] | None:
    """``(kind, k, tau, name)`` of a Pass-family id (``pass_at_k_2`` -> Pass@2), else None."""
    from ..simulate.params import metric_name, pass_metric

    kind = pass_metric(mid)
    return None if kind is None else (*kind, metric_name(mid))


def _metric(mid: str) -> str:
    """How a lesson names a metric: as the coins chart's legend does (Pass@2, Bayes@N)."""
    from ..simulate.params import metric_name

    return metric_name(mid)


def _pass_quantity(p1: np.ndarray, kind: str, k: int, tau: float) -> np.ndarray:
    """What a Pass metric estimates for success probabilities ``p1 (L, M)``: the mean over
    the questions of ``E f(X)``, ``X ~ Binomial(k, p)`` (``f``: its value for ``X`` of ``k``)."""
    from scipy import stats

    from .. import eval as ev

    f = ev.pass_from_counts(np.arange(k + 1)[:, None], k, k, kind, tau)  # f(j), j = 0..k
    return (stats.binom.pmf(np.arange(k + 1), k, p1[..., None]) @ f).mean(-1)


def _race(mean: pd.DataFrame, ref: str, ref_name: str, cells: pd.DataFrame | None = None
          ) -> str:
    """Which lines of the coins chart lie above the Bayes@N/avg@N line, and from when.

    ``cells`` (the terminal's table, each value as printed; ``mean`` then holds the printed
    numbers of its rows): the same said of that table's columns, its numbers as printed."""
    others = [c for c in mean.columns if c not in ("bayes", "avg")]
    last = int(mean.index[-1])
    diff = mean[others].sub(mean[ref], axis=0)
    above = diff > 0
    if not others:
        return ""
    where, noun, metric = ("Here", "line", _metric) if cells is None else (
        "In the table", "column", lambda m: f"`{m}`")
    if not above.to_numpy().any():
        end = (format_number(mean[ref].iloc[-1]) if cells is None else cells.at[last, ref])
        return (f"{where} the {ref_name} {noun} is the highest at every n ({end} at n = "
                f"{last}). ")
    first = int(above.any(axis=1).idxmax())
    before = [int(n) for n in mean.index if n < first]
    start = f"up to n = {before[-1]}" if before else "nowhere"
    ends, once = [], []
    for o in others:
        a = above[o]
        if a.iloc[-1]:  # above from the first n after its last step below
            below = [int(n) for n in a.index[~a.to_numpy()] if np.isfinite(mean.at[n, o])]
            since = min(int(n) for n in a.index[a.to_numpy()] if not below or n > below[-1])
            ends.append((since, o))
        elif a.any():
            ns = [int(n) for n in a.index[a.to_numpy()]]
            if cells is None:
                once.append(f"{metric(o)} only at n = {ns[0]}" if len(ns) == 1 else
                            f"{metric(o)} only at some n between {ns[0]} and {ns[-1]}")
            else:  # the rows printed: each n named
                once.append(f"{metric(o)} only at n = {_listed([str(n) for n in ns], 'or')}")
    text = f"{where} the {ref_name} {noun} is the highest {start}"
    if ends:
        ends.sort()
        (n0, o0), rest = ends[0], ends[1:]
        hi, lo = mean.at[last, o0], mean.at[last, ref]
        if cells is None:
            # the `tau` table's decimals (DECIMALS), more only where they would not differ
            d = next((d for d in range(DECIMALS, 7) if f"{hi:.{d}f}" != f"{lo:.{d}f}"), 6)
            hi, lo = f"{hi:.{d}f}", f"{lo:.{d}f}"
        else:
            hi, lo = cells.at[last, o0], cells.at[last, ref]
        text += f"; from n = {n0} on {metric(o0)} is higher ({hi} against {lo} at n = {last})"
        text += "".join(f", and from n = {n} on {metric(o)}" for n, o in rest)
    if once:
        text += "; " + "; ".join(once) + " is higher"
    return text + ". "


def _coins_notice(p, result, table: pd.DataFrame | None = None) -> dict:
    """The coins lesson's sentences that depend on the result (which line is highest where)
    and on the questions drawn with ``p.seed`` (what each Pass metric heads for).

    ``table``: the terminal's ``tau`` table as printed (a column ``n``, then one per
    metric): the same sentences said of its columns and printed rows and numbers."""
    from .._ties import rank_scores
    from ..engines import kendall_tau_b
    from ..formatting import format_frame, printed_numbers
    from ..simulate import PAPER_COINS, mimics

    sim = mimics(PAPER_COINS, p.M, concentration=p.concentration, seed=p.seed)
    p1, truth = sim.p[..., 1], sim.true_ranks
    untied = np.argsort(np.argsort(truth, kind="stable")) + 1
    out = {"cap": format_number(kendall_tau_b(truth, untied)), "same_line": "", "race": "",
           "why": "",
           "ceilings": ""}
    cells = None
    if table is not None:  # the printed rows, each number as printed
        cells = format_frame(table).set_index(table["n"].astype(int).to_numpy())
        methods = [c for c in table.columns if c != "n"]
    else:
        methods = list(result.tau) if result is not None else list(p.methods)
    passes = [(m, _pass_kind(m)) for m in methods if _pass_kind(m) is not None]
    means = [m for m in ("bayes", "avg") if m in methods]
    if cells is None:
        ref_name, noun = "/".join(_metric(m) for m in means), "line"
        same = len(means) == 2 and (result is None or np.array_equal(
            result.tau["bayes"], result.tau["avg"], equal_nan=True))
    else:
        ref_name, noun = f"`{means[0]}`" if means else "", "column"
        same = len(means) == 2 and cells["bayes"].equals(cells["avg"])
    if same:
        out["same_line"] = (
            f"Bayes@N and avg@N rank identically (000 §2.6): one line, {SAME_LINE}. "
            if cells is None else
            "Bayes@N and avg@N rank identically (000 §2.6): the `bayes` and `avg` columns are "
            "equal. ")
    ahead = False
    if result is not None and means:
        if cells is None:
            mean = result.summary.pivot(index="n", columns="method", values="mean")
            mean = mean[[m for m in methods if m in mean.columns]]
        else:
            mean = printed_numbers(table).set_index(cells.index)[methods].astype(float)
        out["race"] = _race(mean, means[0], ref_name, cells)
        ahead = bool((mean[[m for m, _ in passes]].iloc[-1] > mean[means[0]].iloc[-1]).any())
    if not passes:
        return out
    # why: each Pass metric ranks by its own quantity, whose gaps for the close pairs one set
    # of questions sets; how often that lets one end above Bayes@N, measured (COINS_DRAWS)
    mechanism = (
        "Each Pass metric ranks by the mean of its own quantity (Pass@2: 1 − (1 − p)², whose "
        "mean is 2m − m² − s², s² the spread of a model's per-question p), and where true "
        f"means lie close ({_CLOSE_PAIRS}) the gaps of that quantity scatter from one set of "
        "questions to another by more than the gaps between the means: on one set a Pass "
        "metric may put such a pair further apart than the means do, and order it right more "
        "often than Bayes@N, or the wrong way round, and level off below it.")
    d = COINS_DRAWS
    fresh = "" if cells is None else " (--fresh-questions)"
    measured = (
        f" Measured at the defaults (N = 80, 1,000 datasets) on the questions of seeds 0–"
        f"{d['seeds'] - 1}, some Pass metric ends above Bayes@N by more than twice its "
        f"simulation error on {d['ahead']} of the {d['seeds']} sets (Pass@2 on "
        f"{d['pass_at_k_2']}); with new questions in every dataset{fresh}, on "
        f"{d['fresh_ahead'] or 'none'} of {d['fresh_seeds']} seeds, as in the paper's "
        "Fig. 2a. ")
    if p.fresh_questions:
        out["why"] = ("With new questions in every dataset each point averages over sets of "
                      "questions. With one fixed set (the paper's design, and the default) which "
                      f"{noun} ends highest depends on that set. {mechanism}{measured}")
        return out
    if ahead:
        closest = _closest_pair(p1, p.seed) if "pass_at_k_2" in methods else ""
        out["why"] = ("That comes from this set of questions, not from a better metric. "
                      f"{mechanism}{closest}{measured}")
    else:
        out["why"] = f"On another set of questions it may not be. {mechanism}{measured}"
    ceil = [f"{kind[3] if cells is None else f'`{m}`'} "
            f"{format_number(kendall_tau_b(rank_scores(_pass_quantity(p1, *kind[:3])), truth))}"
            for m, kind in passes]
    out["ceilings"] = (f"As n grows each Pass {noun} heads for the τ_b of its own quantity's "
                       f"ranking on these questions: {', '.join(ceil)}. ")
    return out


def _closest_pair(p1: np.ndarray, seed: int) -> str:
    """Why Pass@2 can beat the mean on one draw of questions: the closest untied pair
    (LLM_3 0.004 below LLM_4 = LLM_5) further apart in Pass@2 than its noise hides."""
    m, s2 = p1.mean(1), p1.var(1)
    q2 = (1 - (1 - p1) ** 2).mean(1)
    gaps = q2[[3, 4]] - q2[2]
    va = (p1 * (1 - p1)).sum(1)  # trial variances of the mean and of Pass@2, × M² N
    vp = (4 * (1 - p1) ** 2 * p1 * (1 - p1)).sum(1)
    z_mean = (m[[3, 4]] - m[2]) / np.sqrt(va[[3, 4]] + va[2])
    z_pass = gaps / np.sqrt(vp[[3, 4]] + vp[2])
    if not ((gaps > m[3] - m[2]).all() and (z_pass > z_mean).all()):
        return ""
    spread = " (LLM_3's questions are more spread)" if (s2[2] > s2[[3, 4]]).all() else ""
    return (f" On these questions (seed {seed}) Pass@2 puts LLM_3 {gaps[0]:.3f} and "
            f"{gaps[1]:.3f} below LLM_4 and LLM_5, whose means are only 0.004 above it"
            f"{spread}, so it gets that hardest pair right more often.")


def _means_of(table: pd.DataFrame) -> list[float]:
    """The distinct means of a coverage table with a ``mean`` column (several means), in
    their order; ``[]`` for a table of one mean (no ``mean`` column)."""
    return list(dict.fromkeys(table["mean"])) if "mean" in table else []


def _calibration_notice(result, table: pd.DataFrame | None = None) -> dict:
    """The calibration lesson's sentence on what this result's chart shows; given the
    terminal's ``coverage`` table as printed (``table``), on what its rows show, in its
    numbers as printed. With several means, what each mean's panel (rows) shows."""
    if result is None:
        return {"seen": "", "panels": "", "band": _band_said(None, None, table is not None)}
    means = _means_of(result.table)
    panels = "; one panel per mean success" if means else ""
    if table is None:
        from ..formatting import DRAWS_ATTR, share_percent

        t = result.table[result.table["coverage"].notna()]
        # a measured share as every sentence writes it (94.6%, not 95%); a cell where every
        # interval covered reads as the tables' bound (>99.9%), not a certain 100.0%
        drawn = (result.table.attrs.get(DRAWS_ATTR) or {}).get("coverage")
        cell = pd.Series([share_percent(x, draws=drawn) for x in t["coverage"]], index=t.index)
        words = ("the solid lines lie between", "the dashed blue ones between",
                 "the dashed orange ones run from")
    else:
        from ..formatting import format_frame, printed_numbers

        t = printed_numbers(table)
        t = t[t["coverage"].notna()]
        cell = format_frame(table)["coverage"].loc[t.index]
        words = ("the headline rows' `coverage` lies between", "the Bayes@N (papers) rows' "
                 "between", "the Bayes@N (papers) rows' in the `population` scope runs from")

    def low_high(rows: pd.Series) -> tuple[str, str]:
        return cell.loc[rows.idxmin()], cell.loc[rows.idxmax()]

    def span(rows: pd.Series) -> str:
        lo, hi = low_high(rows)
        if lo == hi:
            return lo
        if {lo[:1], hi[:1]} & {"<", ">"}:  # a bound: "98.6% to >99.9%", not "98.6–>99.9%"
            return f"{lo} to {hi}"
        return f"{lo[:-1]}–{hi}" if lo.endswith("%") else f"{lo}–{hi}"

    def said(t: pd.DataFrame) -> str:
        bayes = t["interval"] == "Bayes@N (papers)"
        parts = []
        head = t.loc[~bayes, "coverage"]
        if len(head):
            parts.append("{} {} and {}".format(words[0], *low_high(head)))
        bq = t.loc[bayes & (t["scope"] == "questions"), "coverage"]
        if len(bq):
            inside = "" if table is None else " in the `questions` scope"
            parts.append("{} {} and {}{}".format(words[1], *low_high(bq), inside))
        bp = t[bayes & (t["scope"] == "population")]
        if len(bp):
            n0, n1 = int(bp["N"].min()), int(bp["N"].max())
            a, b = bp[bp["N"] == n0], bp[bp["N"] == n1]
            text = (f"{words[2]} {span(a['coverage'])} at N = {n0} to "
                    f"{span(b['coverage'])} at N = {n1}")
            if b["M"].nunique() > 1:
                if b["coverage"].max() - b["coverage"].min() <= 0.05:
                    text += " (there about the same for every M)"
                else:
                    text += f" (there lowest at M = {int(b.loc[b['coverage'].idxmin(), 'M'])})"
            parts.append(text)
        return _listed(parts) if parts else ""

    where = "Here" if table is None else "In the table"
    band = _band_said(result, cell, table is not None)
    if not means:
        listed = said(t)
        return {"seen": f"{where} {listed}. " if listed else "", "panels": panels, "band": band}
    # one sentence per mean: pooled over means, 0% and 97% read as one drifting number
    col = "at mean {:g}" if table is None else "at `mean` {:g}"
    each = [f"{col.format(m)} {x}" for m in means if (x := said(t[t["mean"] == m]))]
    return {"seen": f"{where}, {'; '.join(each)}. " if each else "", "panels": panels,
            "band": band}


def _band_said(result, cell: pd.Series | None, printed: bool) -> str:
    """The calibration lesson's sentence on the band the headline is held to (the README's
    contract, :func:`scorio_core.calibration.target_band`, for the M of
    :data:`~scorio_core.estimands.CALIBRATED_M` and more) and, given a result, the headline
    points outside it by more than three times their simulation error: the binomial s.e. at
    the band's nearer edge over the run's datasets (a share near 1 understates its own s.e.;
    three, not two, as a run has dozens of cells, and two would flag some of them by chance
    alone). ``cell``: each coverage as the text writes it, ``printed``: said of the
    terminal's table."""
    from ..calibration import target_band
    from ..estimands import CALIBRATED_M

    conf = 0.95 if result is None else result.confidence
    m0 = min(CALIBRATED_M)
    if printed:
        def span(a, b):
            return f"{a:.2f}–{b:.2f}"
    else:
        from ..formatting import percent

        def span(a, b):  # a declared band, written as a setting is: 93–97%
            return f"{percent(a)[:-1]}–{percent(b)}"
    text = (f"it is held to the calibration target the tool promises for M of {m0} and more, "
            f"{span(*target_band(10**6, conf))} ({span(*target_band(m0, conf))} at M = {m0}; "
            "docs/calibration.md)")
    if result is None:
        return text + "."
    t = result.table
    head = t[(t["interval"] == "headline") & t["coverage"].notna()]
    few = sorted({int(m) for m in head["M"] if m < m0})
    if few:
        text += f" (none for M = {_listed([str(m) for m in few])})"
    head = head[head["M"] >= m0]
    if head.empty:
        return text + "."
    noun = "headline row" if printed else "solid point"
    several = "mean" in head
    n = max(int(result.settings.get("replicates") or 1), 1)  # datasets: at least one per cell
    out = []
    for i, r in head.iterrows():
        lo, hi = target_band(int(r["M"]), conf)
        edge = lo if r["coverage"] < lo else hi
        if abs(r["coverage"] - edge) <= 3 * np.sqrt(edge * (1 - edge) / n) or (
                lo <= r["coverage"] <= hi):
            continue
        value = cell.loc[i] if cell is not None and i in cell.index else (
            f"{r['coverage']:.3f}")
        at = f"mean {r['mean']:g}, " if several else ""
        out.append(f"`{r['scope']}` {at}M = {int(r['M'])}, N = {int(r['N'])} ({value})")
    if not out:  # and where it is lowest (at mean 0.9: few questions, many trials)
        low = head["coverage"].idxmin()
        r = head.loc[low]
        value = cell.loc[low] if cell is not None and low in cell.index else (
            f"{r['coverage']:.3f}")
        at = f"mean {r['mean']:g}, " if several else ""
        return (text + f", and here every {noun} lies inside it within three times its "
                f"simulation error (the lowest: `{r['scope']}` {at}M = {int(r['M'])}, "
                f"N = {int(r['N'])}, {value}).")
    more = f" and {len(out) - 6} more" if len(out) > 6 else ""
    verb = "lies" if len(out) == 1 else "lie"
    return (text + f"; here {_listed(out[:6]) if not more else ', '.join(out[:6]) + more} "
            f"{verb} outside it by more than three times the simulation error.")


@checked_keywords
def lesson_intro(lesson: str, params=None, result=None, formula: bool = True) -> str:
    """The lesson's opening text (:data:`LESSON_TEXT`) with the numbers of ``params``
    (default: the paper's settings, said as the paper's example) or, given the study's
    ``result``, the values that run used (the order study: its pair's true means). It is
    the study's "How to read this" in a report (:meth:`Analysis.how_to_read_for
    <scorio_core.definitions.Analysis.how_to_read_for>`). Where the text ends on a formula
    (:attr:`LessonText.formula`), its plain form follows the colon; ``formula=False``: the
    text alone, for the page that draws the formula's LaTeX under it.

    Example
    -------
    >>> from scorio_core.definitions.simulate import OrderParams
    >>> sc.charts.lesson_intro("order", OrderParams(upper=0.7, lower=0.6)).split(" (Don't")[0]
    'The better model (π̄ = 0.7) and the worse model (π̄ = 0.6) differ by 10.0 points'
    >>> sc.charts.lesson_intro("order").split(" differ")[0]
    "In the paper's example, LLM_10 (π̄ = 0.6213) and LLM_9 (π̄ = 0.608)"
    >>> sc.charts.lesson_intro("rubric").split(": ")[-1][:21]
    'μ = w_0 + (1/M) Σ_α m'
    >>> sc.charts.lesson_intro("rubric", formula=False)[-10:]
    'question):'
    """
    return expand(_intro(LESSON_TEXT[lesson], _fields(lesson, params, result), formula))


def _intro(text: LessonText, fields: dict, formula: bool = True) -> str:
    """``text``'s intro with ``fields``, and the plain form of the formula it ends on."""
    intro = text.intro.format(**fields)
    return f"{intro} {text.formula.plain}" if formula and text.formula is not None else intro


@checked_keywords
def lesson_notice(lesson: str, params=None, result=None) -> str:
    """The lesson's "What to notice" text with the numbers of ``params`` and, where it
    reports an outcome, of ``result`` (default: the paper's settings and figures).

    Example
    -------
    >>> from scorio_core.definitions.simulate import CoinsParams
    >>> sc.charts.lesson_notice("coins", CoinsParams(N=40)).endswith(
    ...     "gaps that 40 trials per question on 30 questions cannot resolve.")
    True
    """
    fields = _fields(lesson, params, result)
    if lesson == "coins":
        p = params if params is not None else _default_params("coins")
        fields |= _coins_notice(p, result)
    elif lesson == "calibration":
        fields |= _calibration_notice(result)
    elif lesson == "rubric":  # the run's own weights and prior, as the terminal says them
        p = params if params is not None else _default_params("rubric-lesson")
        fields |= _rubric_fields(p, result)
    return expand(LESSON_TEXT[lesson].notice.format(**fields))


@checked_keywords
def tables_intro(lesson: str, params, result, tables: dict[str, pd.DataFrame]) -> str:
    """The lesson's "How to read this" where its tables are printed instead of its charts
    (``scorio-studio simulate``): its opening text (as :func:`lesson_intro` says it for this
    run), then what the headlines and ``tables`` -- each as printed, name -> frame -- hold,
    column by column (:attr:`LessonText.tables`).

    Example
    -------
    >>> from scorio_core.definitions import SIMULATIONS
    >>> les = SIMULATIONS["rubric-lesson"]
    >>> p = les.params()
    >>> r = les.run(None, p)
    >>> sc.charts.tables_intro("rubric", p, r, les.tables(r)).split("m_α². ")[1][:52]
    'The `lesson` table has one row per `question` α with'
    """
    fields = _fields(lesson, params, result) | _tables_fields(lesson, params, result, tables)
    text = LESSON_TEXT[lesson]
    return expand(f"{_intro(text, fields)} {text.tables.format(**fields)}")


@checked_keywords
def tables_notice(lesson: str, params, result, tables: dict[str, pd.DataFrame]) -> str:
    """The lesson's "What to notice" in its ``tables`` as printed (name -> frame): its
    :attr:`LessonText.tables_notice`, or, where the lesson's notice names no chart, that
    notice opened by what the printed rows show.

    Example
    -------
    >>> from scorio_core.definitions import SIMULATIONS
    >>> les = SIMULATIONS["rubric-lesson"]
    >>> p = les.params(weights=(0.0, 1.0, 1.0))
    >>> r = les.run(None, p)
    >>> sc.charts.tables_notice("rubric", p, r, les.tables(r)).split(";")[0]
    'With weights 0 / 1 / 1 and no prior, μ = 0.75000 and σ = 0.10206'
    """
    fields = _fields(lesson, params, result) | _tables_fields(lesson, params, result, tables)
    text = LESSON_TEXT[lesson]
    notice = text.tables_notice if text.tables_notice is not None else "{seen}" + text.notice
    return expand(notice.format(**fields))


def _listed(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def _tables_fields(lesson: str, p, result, tables: dict[str, pd.DataFrame]) -> dict:
    """The numbers and names the lesson's terminal texts quote: the printed tables' columns
    and rows, and what they show (each number as its column prints it)."""
    from ..formatting import format_frame, printed_numbers

    out: dict = {"seen": ""}
    if lesson == "coins":
        t = tables["tau"]
        shown = [int(n) for n in t["n"]]
        cols = [c for c in t.columns if c != "n"]
        rows = ("n = 1" if shown == [1] else
                f"every n from 1 to {p.N:,}" if shown == list(range(1, p.N + 1)) else
                f"n = {_listed([f'{n:,}' for n in shown])}; the run computed every n from 1 to "
                f"{p.N:,}")
        missing = t[cols].isna().to_numpy().any()
        return out | _coins_notice(p, result, t) | {
            "rows": rows, "columns": ", ".join(f"`{c}`" for c in cols),
            "missing": " A cell reads — where n is below a Pass metric's k (Pass@k needs n ≥ k "
            "trials)." if missing else ""}
    if lesson == "depth":
        t = tables["tau"]
        cols = [c for c in t.columns if c != "n"]
        out |= {"columns": ", ".join(f"`{c}`" for c in cols), "B": f"{p.replicates:,}"}
        if "D=0" in cols and len(cols) > 1:
            out["seen"] = _depth_seen(printed_numbers(t), format_frame(t), cols, result)
        return out
    if lesson == "order":
        return out | {"predict_from": result.predict_from, "sims": f"{p.sims:,}",
                      "n_max": f"{int(result.table['N'].max()):,}",
                      "predicted": f"predicted_from_N={result.predict_from}"}
    if lesson == "calibration":
        missing = tables["coverage"]["coverage"].isna().any()
        return out | _calibration_notice(result, tables["coverage"]) | {
            "mean_rows": "`mean` (the simulated models' mean success), " if _means_of(
                tables["coverage"]) else "",
            "B": f"{p.replicates:,}",
            "missing": " A cell reads — where an interval could not be computed." if missing
            else ""}
    # the rubric lesson: its table's counts, and μ and σ as the headlines print them
    t = tables["lesson"]
    nus = [c for c in t.columns if str(c).startswith("ν_")]
    return out | {"nus": ", ".join(f"`{c}`" for c in nus)} | _rubric_fields(p, result)


def _rubric_fields(p, result) -> dict:
    """The rubric lesson's numbers for the run's weights and prior (page and terminal alike):
    μ and σ as the headlines print them, and each category's share, the mean of ν_k/T over
    the questions (μ's slope in w_k); beside the worked example's (001) where they differ.
    ``result``: the lesson run with ``p`` (default: run here)."""
    from ..formatting import weight_text
    from ..simulate.lesson import LESSON_DECIMALS, rubric_lesson

    if result is None:
        result = rubric_lesson(p.R, p.weights, p.R0)
    nus = [c for c in result.table.columns if str(c).startswith("ν_")]
    share = (result.table[nus].to_numpy() / result.T).mean(0)
    paper = _fields("rubric", None, None)

    def number(x: float) -> str:
        return format_number(x, LESSON_DECIMALS)

    def weights(w) -> str:
        return " / ".join(map(weight_text, w))

    return {
        "weights": weights(p.weights),
        "prior": "no prior" if p.R0 is None else "the prior outcomes R0",
        "run_mu": number(result.mu),
        "run_sigma": number(result.sigma),
        "example": " (001)" if p == type(p)() else (
            f"; with weights {weights(type(p)().weights)} and no prior they are {paper['mu']} "
            f"and {paper['sigma']} (001)"),
        "shares": _listed([f"{number(x)} for k = {k}" for k, x in enumerate(share)]),
        "share_1": number(share[1]) if share.size > 1 else number(0.0),
    }


def _depth_seen(values: pd.DataFrame, cells: pd.DataFrame, cols: list[str], result=None
                ) -> str:
    """What the prior depth table's first and last printed rows show against no prior:
    only differences larger than twice their simulation error (``result.delta_se``, the
    paired difference's; a result without it: every difference), the rest said to be within
    it."""
    deep = [c for c in cols if c != "D=0"]
    first, last = values.index[0], values.index[-1]
    n0, n1 = (int(values.at[i, "n"]) for i in (first, last))
    curves = None if result is None or result.delta_se is None else result.curves

    def diff(i, c: str) -> tuple[float, float]:
        """``(τ_D − τ_0, its s.e.)`` at the row ``i``: the run's, else as printed."""
        if curves is None:
            return values.at[i, c] - values.at[i, "D=0"], 0.0
        row = curves[(curves["n"] == int(values.at[i, "n"])) & (curves["D"] == int(c[2:]))]
        return float(row["delta"].iloc[0]), float(row["delta_se"].iloc[0])

    def beyond(i, sign: int) -> list[str]:
        return [c for c in deep if sign * diff(i, c)[0] > 2 * diff(i, c)[1]]

    def said(i, names: list[str]) -> str:
        return _listed([f"`{c}` ({cells.at[i, c]})" for c in names])

    def base(i) -> str:
        return f"`D=0` ({cells.at[i, 'D=0']})"

    noise = "" if curves is None else " by more than twice the simulation error"
    above = beyond(first, 1)
    if above == deep:
        start = (f"at n = {n0} every prior is above no prior{noise}: {said(first, deep)} "
                 f"against {base(first)}")
    elif above:
        verb = "is" if len(above) == 1 else "are"
        start = f"at n = {n0} {said(first, above)} {verb} above {base(first)}{noise}"
    else:
        start = f"at n = {n0} no prior is above {base(first)}{noise}"
    up, down = beyond(last, 1), beyond(last, -1)
    parts = [f"{said(last, names)} {'is' if len(names) == 1 else 'are'} {word}"
             for names, word in ((up, "above"), (down, "below")) if names]
    if parts:
        end = f"at n = {n1} {' and '.join(parts)} {base(last)}{noise}"
    else:
        end = f"at n = {n1} no prior differs from {base(last)}{noise}"
    within = [c for c in deep if c not in up + down]
    if curves is not None and parts and within:
        end += f" ({_listed([f'`{c}`' for c in within])} within it)"
    return f"In the table, {start}; {end}. "


def _default_params(study: str):
    """The study's default settings (the paper's)."""
    from ..definitions.simulate import SIMULATIONS

    return SIMULATIONS[study].params()


#: The coins chart's one line for Bayes@N and avg@N when they rank identically.
SAME_LINE = "Bayes@N = avg@N"


@checked_keywords
def truth_convergence_chart(summary: pd.DataFrame) -> alt.LayerChart:
    """τ_b vs n against the truth per method (Don't Pass@k (2026), Fig. 2a); ``summary`` =
    ``Curves.summary``.

    Bayes@N and avg@N rank identically (uniform prior, Don't Pass@k (2026), §2.6), so where their
    curves are equal they are drawn as one line, ``Bayes@N = avg@N``: two coincident lines
    would leave one legend entry pointing at nothing visible. The legend names each metric
    as the papers write it (:func:`scorio_core.simulate.metric_name`: Pass@2, Pass^4), the
    tables keep the ids.
    """
    from ..simulate.params import metric_name

    d = summary
    same = False
    if {"bayes", "avg"} <= set(d["method"]):
        cols = ["n", "mean", "sd"]
        b = d.loc[d["method"] == "bayes", cols].reset_index(drop=True)
        a = d.loc[d["method"] == "avg", cols].reset_index(drop=True)
        same = b.equals(a)
        if same:
            d = d[d["method"] != "avg"]
    d = d.assign(method=[SAME_LINE if same and m == "bayes" else metric_name(m)
                         for m in d["method"]])
    return tau_curves(d, y_title="Kendall τ_b vs true ranking")


#: Width (px) of a bar of :func:`update_histogram`, and the room kept at either end of its
#: axis so the bars at its ends (τ = 1: an update that keeps the ranking) are drawn whole.
UPDATE_BAR_PX = 12


@checked_keywords
def update_histogram(result: PriorDepth) -> alt.LayerChart:
    """Distribution of τ_b(original, updated) over drawn updates (Don't Pass@k (2026), Fig. 5a),
    their mean a dashed red line.

    τ_b between rankings of ``L`` untied models takes the values ``1 - 4 q / (L (L-1))``
    (``q`` discordant pairs), so each value gets its own bar. The axis runs over the tenths
    that hold the values drawn, never past τ_b's bounds -1 and 1 (it had read 1.02, 1.04),
    with a tick every 0.1 (every 0.2 over a range wider than 1); the share of updates
    and the τ values read as the prior depth's tables write them.
    """
    from ..formatting import named_decimals

    t = np.round(result.tau_update, 9)
    vals, counts = np.unique(t[np.isfinite(t)], return_counts=True)
    d = pd.DataFrame({"tau": vals, "share": counts / max(counts.sum(), 1)})
    # the tooltip's numbers as the `update` table prints its τ and its share of updates
    share_decimals = named_decimals("share_changed") or DECIMALS
    d["tau_text"] = [format_number(v, DECIMALS) for v in d["tau"]]
    d["share_text"] = [format_number(v, share_decimals, probability=True) for v in d["share"]]
    lo = max(-1.0, float(np.floor(10 * vals.min() + 1e-9) / 10)) if len(vals) else 0.0
    step = 0.1 if 1 - lo <= 1 + 1e-9 else 0.2
    ticks = [round(x, 10) for x in np.arange(1.0, lo - 1e-9, -step)][::-1]
    x_scale = alt.Scale(domain=[lo, 1.0], nice=False, zero=False, padding=UPDATE_BAR_PX)
    bars = (
        alt.Chart(d)
        .mark_bar(color="#4c78a8", size=UPDATE_BAR_PX)
        .encode(
            x=alt.X("tau:Q", title="Kendall τ_b (original, updated)", scale=x_scale,
                    axis=alt.Axis(values=ticks, format=".1f", tickMinStep=0, labelFlush=False)),
            # labels level with their values (the app's theme shifted the top one onto the
            # next: 0.35 over 0.30)
            y=alt.Y("share:Q", title="share of updates",
                    axis=alt.Axis(format=".2f", labelFlush=False)),
            tooltip=[alt.Tooltip("tau_text:N", title="τ_b"),
                     alt.Tooltip("share_text:N", title="share of updates")],
        )
    )
    mu = float(np.nanmean(t))
    mean = (
        alt.Chart(pd.DataFrame({"mean": [mu], "mean_text": [format_number(mu, DECIMALS)]}))
        .mark_rule(color="#e45756", strokeWidth=2, strokeDash=[6, 3])
        .encode(x=alt.X("mean:Q", scale=x_scale),
                tooltip=[alt.Tooltip("mean_text:N", title="mean τ_b")])
    )
    return (bars + mean).properties(height=260, width="container")


@checked_keywords
def prior_depth_chart(result: PriorDepth, *, delta: bool = False) -> alt.LayerChart:
    """Mean τ_b vs N per prior depth D (Don't Pass@k (2026), Fig. 5b), or Δτ against D = 0
    (Fig. 5c)."""
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


def z_text(z: float) -> str:
    """A z threshold as every rendering names it: ``1.645``, ``1.96`` -- the chart's
    "z = 1.96", a row of the order study's thresholds table, its headline "N where z
    reaches 1.96" (:func:`scorio_core.definitions.simulate.highlights`)."""
    return f"{z:g}"


#: Colour of the order chart's z panel (line and points): apart from the P panel's blue.
Z_COLOUR = "#f58518"


@checked_keywords
def correct_order_chart(result: CorrectOrder) -> alt.HConcatChart:
    """P(correct order) and mean z vs N (Don't Pass@k (2026), Fig. 6) with the 1.645 / 1.96
    thresholds."""
    from ..formatting import column_texts

    t = result.table
    # the tooltip's P as the table prints it: three decimals, and a pair ordered right in
    # none (all) of the simulated datasets reads '<0.001' ('>0.999'), not a certain 0 (1)
    shown = t.assign(p_correct_text=column_texts(t, "p_correct"))
    left = (
        alt.Chart(shown)
        .mark_line(point=True)
        .encode(
            x=alt.X("N:Q", title="trials N", axis=whole_axis(t["N"])),
            y=alt.Y(
                "p_correct:Q",
                title="P(correct order)",
                # from a coin flip (50%) to certainty: a pair ordered right in every dataset
                # (a wide gap) had an axis of one tick, "100.000000%"
                scale=alt.Scale(domain=[min(0.5, float(np.floor(10 * t["p_correct"].min()))
                                            / 10), 1.0]),
                axis=alt.Axis(format=".2f"),  # a probability, as the tables write it
            ),
            tooltip=["N", alt.Tooltip("p_correct_text:N", title="p_correct")],
        )
        .properties(height=260, width=330)
    )
    thr = pd.DataFrame({"z": list(result.n_at), "label": [f"z = {z_text(z)}" for z in result.n_at]})
    z_line = (
        alt.Chart(t)
        # line and points in one colour: point=True alone drew the default blue points on
        # the orange line
        .mark_line(point=alt.OverlayMarkDef(color=Z_COLOUR, filled=True), color=Z_COLOUR)
        .encode(
            x=alt.X("N:Q", title="trials N", axis=whole_axis(t["N"])),
            y=alt.Y("z_mean:Q", title="mean |z|"),
            tooltip=[
                "N",
                alt.Tooltip("z_mean:Q", format=".3f"),
                alt.Tooltip("rho:Q", format=".3f"),
            ],
        )
    )
    rules = alt.Chart(thr).mark_rule(strokeDash=[5, 3], color="gray").encode(y="z:Q")
    # the thresholds' labels alternate between the left and the right end of their lines:
    # both at the left edge, 1.645 and 1.96 lie a few pixels apart once z runs to tens (a
    # pair far apart) and their labels were drawn over each other
    thr = thr.sort_values("z", kind="stable").reset_index(drop=True)
    side = thr.index % 2 == 1
    labels = [
        alt.Chart(part)
        .mark_text(align=align, dx=dx, dy=-6, color="gray")
        .encode(y="z:Q", x=alt.value(x), text="label:N")
        for part, align, dx, x in ((thr[~side], "left", 4, 0), (thr[side], "right", -4, "width"))
        if len(part)
    ]
    right = alt.layer(z_line, rules, *labels).properties(height=260, width=330)
    return alt.hconcat(left, right)


#: Colours of the coverage chart's scopes and the dash of its intervals (legend and lines).
_SCOPE_COLOURS = {"questions": "#4c78a8", "population": "#f58518"}
_INTERVAL_DASH = {"headline": [1, 0], "Bayes@N (papers)": [6, 4]}


#: Width of each mean's panel when a coverage chart has several means (stacked panels have
#: no container width to follow; the legends sit beside them).
COVERAGE_PANEL_WIDTH = 520
#: Height of the coverage chart's plot (of each mean's panel where there are several).
COVERAGE_HEIGHT, COVERAGE_PANEL_HEIGHT = 340, 260
#: Where a coverage chart's y-axis is stretched: from :data:`COVERAGE_ZOOM` (or 0.85 when a
#: point lies just below it) up to 100% takes :data:`COVERAGE_ZOOM_SHARE` of the plot's
#: height, the rest of the range below the rest. At mean 0.5 the papers' Bayes@N falls to
#: 27% in the population scope, and on one linear axis from 20% the headline lines, the 95%
#: line and the 93–97% band were squeezed into 20 px; with the zoom, 93% and 97% lie ~70 px
#: apart. Without a point below :data:`COVERAGE_LINEAR_FROM` the axis stays linear.
COVERAGE_ZOOM, COVERAGE_ZOOM_SHARE, COVERAGE_LINEAR_FROM = 0.9, 0.55, 0.7
#: Pixels kept free inside the plot above 100% and below its lowest value, so a point at
#: 100% or 0% (a marker of 45 px² and its error bar's cap) is drawn whole inside the plot.
COVERAGE_INSET_PX = 7


class CoverageScale(NamedTuple):
    """The y scale of a coverage chart: ``domain`` (two values: linear; three: stretched
    above ``domain[1]``), the pixel ``range`` it maps to (bottom to top), the ``ticks``
    labelled, the ``band`` drawn (the SPEC's 93–97% around a nominal 95%), the ``nominal``
    level and ``wide``, the wider band promised at the smallest calibrated M (90–98% at
    M = 15), drawn lighter where the chart shows that M (else ``None``)."""

    domain: list[float]
    range: list[float]
    ticks: list[float]
    band: tuple[float, float]
    nominal: float
    wide: tuple[float, float] | None = None

    @property
    def zoom(self) -> float | None:
        """Where the axis is stretched above (``None``: a linear axis)."""
        return self.domain[1] if len(self.domain) == 3 else None


def coverage_scale(values, confidence: float = 0.95, height: int = COVERAGE_HEIGHT, *,
                   Ms: Sequence[int] = ()) -> CoverageScale:
    """The y scale of a coverage chart whose points and error bars span ``values``: 93–97%
    readable whatever else the chart shows (:data:`COVERAGE_ZOOM`), every point inside the
    plot (:data:`COVERAGE_INSET_PX`), ticks at the band's edges, the nominal level and round
    percents that keep their labels apart. ``Ms``: the numbers of questions the chart shows;
    with the smallest calibrated one (M = 15, :data:`~scorio_core.estimands.CALIBRATED_M`)
    among them, its wider band (``wide``, 90–98%) is drawn too and its edges ticked.

    Example
    -------
    >>> from scorio_core.charts.simulate import coverage_scale
    >>> s = coverage_scale([0.27, 0.999])  # mean 0.5: the papers' Bayes@N falls to 27%
    >>> s.domain, s.ticks, s.band, s.zoom
    ([0.2, 0.9, 1.0], [0.2, 0.4, 0.6, 0.9, 0.93, 0.95, 0.97, 1.0], (0.93, 0.97), 0.9)
    >>> coverage_scale([0.0, 0.8985, 0.99]).domain  # a point just below 90%: zoom from 85%
    [0.0, 0.85, 1.0]
    >>> coverage_scale([0.94, 0.99]).domain  # every point near 95%: one linear axis
    [0.9, 1.0]
    >>> w = coverage_scale([0.94, 0.99], Ms=(15, 30))  # M = 15 shown: its band too
    >>> w.wide, w.ticks
    ((0.9, 0.98), [0.9, 0.93, 0.95, 0.97, 0.98, 1.0])
    """
    from ..calibration import target_band
    from ..estimands import CALIBRATED_M

    v = np.asarray([x for x in np.ravel(np.asarray(values, dtype=float)) if np.isfinite(x)])
    band = target_band(10**6, confidence)  # 93–97% at nominal 95%
    m0 = min(CALIBRATED_M)
    wide = target_band(m0, confidence) if m0 in {int(m) for m in Ms} else None
    lowest = min(float(v.min()) if v.size else confidence, (wide or band)[0])
    top, bottom = float(height - COVERAGE_INSET_PX), float(COVERAGE_INSET_PX)
    nominal = round(float(confidence), 10)
    fine = [band[0], nominal, band[1], 1.0, *(wide or ())]
    if lowest >= COVERAGE_LINEAR_FROM:  # all near the nominal level: one linear axis
        lo = min(float(np.floor(lowest * 20) / 20), COVERAGE_ZOOM)  # 5% steps
        step = 0.05 if band[0] - lo > 0.06 else 0.0
        coarse = ([float(t) for t in np.round(np.arange(lo, band[0] - 0.02, step), 10)]
                  if step else [lo])
        return CoverageScale([lo, 1.0], [top, bottom], sorted({*coarse, *fine}), band,
                             nominal, wide)
    zoom = COVERAGE_ZOOM
    if ((v >= COVERAGE_ZOOM - 0.05) & (v < COVERAGE_ZOOM)).any():
        zoom = COVERAGE_ZOOM - 0.05  # a headline at 89.9% read in the stretched part
    lo = float(np.floor(lowest * 10) / 10)
    split = top - (1 - COVERAGE_ZOOM_SHARE) * (top - bottom)  # the zoom's bottom, in px
    # below the zoom every 20% (10% over a short range), none within 0.15 of the zoom's
    # bottom, where its label would touch the zoom's first
    step = 0.1 if zoom - lo <= 0.4 else 0.2
    coarse = [float(t) for t in np.round(np.arange(lo, zoom, step), 10) if t <= zoom - 0.15]
    zoomed = [round(zoom, 10)] + ([0.9] if zoom < 0.9 else [])
    return CoverageScale([lo, zoom, 1.0], [top, split, bottom],
                         sorted({*coarse, *zoomed, *fine}), band, nominal, wide)


@checked_keywords
def coverage_caption(result: Coverage) -> str:
    """The coverage chart's one line (:data:`COVERAGE_CAPTION`); where the chart shows
    M = 15, it names that M's lighter, wider band (90–98%) beside the 93–97% one; with
    several means, that each has its panel.

    Example
    -------
    >>> from types import SimpleNamespace
    >>> import pandas as pd
    >>> from scorio_core.charts.simulate import coverage_caption
    >>> r = SimpleNamespace(table=pd.DataFrame({"M": [15, 30]}), confidence=0.95)
    >>> coverage_caption(r).split(" means ")[0].split("shaded ")[1]
    'band (0.93–0.97, and for M = 15 the lighter 0.90–0.98; dotted: nominal 0.95)'
    """
    from ..calibration import target_band
    from ..estimands import CALIBRATED_M

    t, m0 = result.table, min(CALIBRATED_M)
    wide = ""
    if m0 in {int(m) for m in t["M"]}:
        lo, hi = target_band(m0, result.confidence)
        wide = f", and for M = {m0} the lighter {lo:.2f}–{hi:.2f}"
    text = _COVERAGE_CAPTION.format(wide=wide)
    return text + (" One panel per mean success: each covers differently." if "mean" in t
                   else "")


@checked_keywords
def coverage_chart(result: Coverage) -> alt.LayerChart | alt.VConcatChart:
    """Coverage vs N: colour = scope, solid = the headline interval, dashed = the papers'
    Bayes@N interval, point shape = M; the nominal level dotted, the SPEC's 93–97% band
    shaded. Each legend draws what the lines draw (coloured strokes, the dash pattern, the
    point shapes) and lists every M.

    The y-axis is stretched above 90% (:func:`coverage_scale`) where some points lie far
    below: the headline's 93% and 97% stay apart while the papers' interval falls to 0%.

    With several means (a ``mean`` column), one panel per mean, stacked, on one y-axis
    scale: each mean covers differently, and pooled the numbers mislead."""
    d = result.table.copy()
    if "interval" not in d:
        d["interval"] = "headline"
    d = d[d["coverage"].notna()]
    # the tooltip's coverage and width as the table prints them: a share of the simulated
    # runs below 1 reads '>0.9999', never a certain '1.0000'
    from ..formatting import column_texts

    d = d.assign(coverage_text=column_texts(d, "coverage"), width_text=column_texts(d, "width"))
    d["questions"] = "M = " + d["M"].astype(str)
    d["lo"] = (d["coverage"] - 2 * d["se"]).clip(lower=0)
    d["hi"] = (d["coverage"] + 2 * d["se"]).clip(upper=1)
    means = list(dict.fromkeys(d["mean"])) if "mean" in d else []
    height = COVERAGE_PANEL_HEIGHT if means else COVERAGE_HEIGHT
    scale = coverage_scale(pd.concat([d["coverage"], d["lo"]]), result.confidence, height,
                           Ms=d["M"].unique())
    if not means:
        # fit the width only: the legends (every M listed) add to the height, not cut from it
        return _coverage_panel(d, scale).properties(
            height=height, width="container",
            autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
    panels = [
        _coverage_panel(d[d["mean"] == m], scale, d).properties(
            height=height, width=COVERAGE_PANEL_WIDTH, title=f"mean success {m:g}")
        for m in means
    ]
    return alt.vconcat(*panels).resolve_scale(x="shared", y="shared")


def _coverage_panel(d: pd.DataFrame, scale: CoverageScale, every: pd.DataFrame | None = None
                    ) -> alt.LayerChart:
    """One coverage chart of the rows ``d`` on the y ``scale``; ``every``: the rows of all
    panels, whose scopes, intervals and M the legends list (the same in every panel)."""
    every = d if every is None else every
    scopes = [s for s in _SCOPE_COLOURS if s in set(every["scope"])]
    intervals = [i for i in _INTERVAL_DASH if i in set(every["interval"])]
    stroke = {"symbolType": "stroke", "symbolStrokeWidth": 2.5, "symbolSize": 500,
              "symbolOpacity": 1}
    Ns = sorted({int(n) for n in every["N"]})
    base = alt.Chart(d).encode(
        # a tick at each N simulated (1, 2, 4, …, 64), not Vega's 3, 5, 20, 40 and 100
        x=alt.X("N:Q", title="trials N", scale=alt.Scale(type="log", nice=False, padding=12),
                axis=alt.Axis(values=Ns, format=",d", tickMinStep=0)),
        color=alt.Color(
            "scope:N", title="scope", sort=scopes,
            scale=alt.Scale(domain=scopes, range=[_SCOPE_COLOURS[s] for s in scopes]),
            legend=alt.Legend(**stroke),
        ),
    )
    ys = alt.Scale(domain=scale.domain, range=scale.range, nice=False, zero=False)
    title = ("coverage of the interval" if scale.zoom is None else
             f"coverage (stretched above {scale.zoom:.2f})")
    # a share as the coverage table writes it (0.95, not 95%: the tooltip, the CLI and the
    # export give 0.9440); labels level with their values (the app's theme shifts the end
    # ones flush inside); every layer's y the same, or the layers' axes merge into one that
    # drops labels
    axis = alt.Axis(values=[float(t) for t in scale.ticks], format=".2f", labelFlush=False,
                    labelOverlap=False)

    def Y(field: str) -> alt.Y:
        return alt.Y(f"{field}:Q", title=title, axis=axis, scale=ys)

    y = Y("coverage")
    line = base.mark_line(strokeWidth=2).encode(
        y=y,
        strokeDash=alt.StrokeDash(
            "interval:N", title="interval", sort=intervals,
            scale=alt.Scale(domain=intervals, range=[_INTERVAL_DASH[i] for i in intervals]),
            legend=alt.Legend(**stroke, symbolStrokeColor="#444", labelLimit=200),
        ),
        detail="questions:N",
    )
    points = base.mark_point(filled=True, size=45, opacity=1).encode(
        y=y,
        shape=alt.Shape(
            "questions:N", title="questions",
            sort=list(dict.fromkeys(every.sort_values("M")["questions"])),
            legend=alt.Legend(symbolFillColor="#444", symbolStrokeColor="#444"),
        ),
        tooltip=[
            *(["mean"] if "mean" in d else []),
            "scope",
            "interval",
            "M",
            "N",
            alt.Tooltip("coverage_text:N", title="coverage"),
            alt.Tooltip("width_text:N", title="width"),
        ],
    )
    err = base.mark_errorbar().encode(y=Y("lo"), y2="hi:Q")
    # the SPEC's band around the nominal level, under everything; where M = 15 is shown, its
    # wider band first, lighter (where both lie, the shades add up to the narrow band's)
    bands = [*([scale.wide] if scale.wide else []), scale.band]
    level = pd.DataFrame({"y": [b[0] for b in bands], "y2": [b[1] for b in bands]})
    band = alt.Chart(level).mark_rect(color="#54a24b", opacity=0.16).encode(y=Y("y"), y2="y2:Q")
    if scale.wide:
        band = (alt.Chart(level.assign(opacity=[0.08, 0.10])).mark_rect(color="#54a24b")
                .encode(y=Y("y"), y2="y2:Q", opacity=alt.Opacity("opacity:Q", scale=None)))
    nominal = (
        alt.Chart(pd.DataFrame({"y": [scale.nominal]}))
        .mark_rule(strokeDash=[2, 3], color="black")
        .encode(y=Y("y"))
    )
    layers = [band, err, line, points, nominal]
    if scale.zoom is not None:  # where the stretch starts (the axis title says it): a rule
        layers.append(alt.Chart(pd.DataFrame({"y": [scale.zoom]}))
                      .mark_rule(color="#888", strokeWidth=1).encode(y=Y("y")))
    return alt.layer(*layers)


#: Area (px²) of the rubric chart's dot at the current weight, and the room (px) kept either
#: side of its 0..1 axis so the dot is drawn whole at either end.
RUBRIC_DOT_SIZE, RUBRIC_DOT_PAD_PX = 90, 8


@checked_keywords
def rubric_weight_chart(
    R, weights: Sequence[float], category: int = 1, R0=None, steps: int = 41
) -> alt.LayerChart:
    """μ and its 95% interval as ``weights[category]`` sweeps 0..1, the current value marked."""
    from ..simulate.lesson import LESSON_DECIMALS

    w = check_weight_vector(weights, "weights")  # "0,0.5,1" as --weights reads it
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
    # room either side of 0..1 for the current weight's dot, drawn whole at a weight of 1
    # (it was cut in half at the chart's edge); a tick every 0.1, not every 0.05
    x = alt.X("weight:Q", title=f"weight of category {category}",
              scale=alt.Scale(domain=[0.0, 1.0], nice=False, padding=RUBRIC_DOT_PAD_PX),
              axis=alt.Axis(values=[round(i / 10, 1) for i in range(11)], format=".1f"))
    base = alt.Chart(d).encode(x=x)
    band = base.mark_area(opacity=0.2).encode(y=alt.Y("lo:Q", title="μ ± 1.96σ"), y2="hi:Q")
    line = base.mark_line(strokeWidth=2).encode(
        y="mu:Q",
        tooltip=[
            alt.Tooltip("weight:Q", format=".2f"),
            alt.Tooltip("mu:Q", format=f".{LESSON_DECIMALS}f"),  # as the lesson's table
            alt.Tooltip("sigma:Q", format=f".{LESSON_DECIMALS}f"),
        ],
    )
    now = ev.bayes(R, w, R0)
    dot = (
        alt.Chart(pd.DataFrame({"weight": [w[category]], "mu": [now.mu]}))
        .mark_point(size=RUBRIC_DOT_SIZE, filled=True, color="#e45756", opacity=1)
        .encode(x=x, y="mu:Q")
    )
    return (band + line + dot).properties(height=260, width="container")
