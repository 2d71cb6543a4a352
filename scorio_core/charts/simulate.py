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

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import altair as alt
import numpy as np
import pandas as pd

from .. import eval as ev
from .._validation import check_weight_vector
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
    "COVERAGE_CAPTION",
    "rubric_weight_chart",
    "RUBRIC_WEIGHT_CAPTION",
]

TRUTH_CONVERGENCE_CAPTION = (
    "Mean τ_b between each metric's ranking and the true one over fresh simulated datasets "
    "(band ±1 s.d.; 1 = the true order); Bayes@N and avg@N rank alike, so they share one "
    "line (bayes = avg); Pass@k starts at n = k."
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
    "Share of 95% intervals that contain the truth (dotted: nominal 95%; solid: the "
    "leaderboard's headline, dashed: the papers' Bayes@N; colour: scope; shape: M); points "
    "near the dotted line mean the error bars can be trusted for data like these."
)
RUBRIC_WEIGHT_CAPTION = (
    "μ ± 1.96σ as the chosen category's weight moves (other weights fixed): μ moves in a "
    "straight line with slope = that category's posterior share; σ changes with the spread."
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
    "τ_b = {cap:.3f}) and LLM_3 is 0.004 behind them, gaps that {trials} per question on {M} "
    "questions cannot resolve."
)

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
            "(000 Fig. 2a)."
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
            "spoken. Keep D small compared with the N you plan to run."
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
            "them in the right order, and when does their z-score clear 1.645?"
        ),
        (
            "{wrong_order}, and z grows only like √N. The spread matters: questions that are "
            "all equally hard (large κ) add trial noise, so the same pair needs more trials "
            "than with varied questions."
        ),
        (
            "The first number is P(correct order) at N = 80; then, for each z threshold, the "
            "first N where the mean z reaches it beside the N the trials-needed rule predicts "
            "from datasets of N = {predict_from} trials; then the spread κ used. The `order` "
            "table has one row per number of trials per question `N`: `p_correct` is the share "
            "of the {sims} simulated datasets in which Bayes@N puts the better model first, "
            "`z_mean` the mean z-score |μ − μ′| / √(σ² + σ′²) of the pair and `rho` = "
            "Φ(z_mean), the chance of the correct order that this z implies. The `thresholds` "
            "table gives, per `z`, `N_at_z`, the first N of the `order` table whose `z_mean` "
            "reaches it (— when none up to N = {n_max}), and `{predicted}`, the median "
            "prediction."
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
            "source once (trials; in the `population` scope also question sampling): its solid "
            "lines stay between about 90% and 99% at either mean (a little conservative for "
            "M = 10 at small N). At N = 1 the `questions` scope has no headline point: one trial "
            "never shows the trial variance."
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
            "question sampling): its coverage stays between about 0.90 and 0.99 at either mean "
            "(a little conservative for M = 10 at small N). At N = 1 the `questions` scope has "
            "no headline interval (—): one trial never shows the trial variance."
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
            "With weights 0 / ½ / 1 and no prior, μ = {mu} and σ = {sigma} (001). Raising the "
            "partial-credit weight moves μ in a straight line; " + _RUBRIC_SIGMA
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
        from ..formatting import format_number
        from ..simulate.lesson import LESSON_DECIMALS, rubric_lesson

        les = rubric_lesson()
        return {"mu": format_number(les.mu, LESSON_DECIMALS),
                "sigma": format_number(les.sigma, LESSON_DECIMALS)}
    if lesson not in ("coins", "order"):
        return {}
    p = params if params is not None else _default_params(lesson)  # the paper's settings
    if lesson == "coins":
        from ..formatting import count_text

        return {"N": f"{p.N:,}", "M": f"{p.M:,}", "B": f"{p.replicates:,}",
                "trials": count_text(p.N, "trial")}
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
                     f", here on 30 questions of spread κ = {kappa:g}"}
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
    return out


# ----------------------------------------------------------- "What to notice", from results
_PASS = re.compile(r"^(pass_at_k|pass_hat_k|mg_pass_at_k)_(\d+)$|^g_pass_at_k_tau_(\d+)_([\d.]+)$")
_PASS_NAME = {"pass_at_k": ("pass", "Pass@{k}"), "pass_hat_k": ("hat", "Pass^{k}"),
              "mg_pass_at_k": ("mg", "mG-Pass@{k}")}
_MEAN_NAME = {"bayes": "Bayes@N", "avg": "avg@N"}


def _pass_kind(mid: str) -> tuple[str, int, float, str] | None:
    """``(kind, k, tau, name)`` of a Pass-family id (``pass_at_k_2`` -> Pass@2), else None."""
    hit = _PASS.match(mid)
    if hit is None:
        return None
    if hit.group(1):
        kind, name = _PASS_NAME[hit.group(1)]
        return kind, int(hit.group(2)), 0.0, name.format(k=hit.group(2))
    k, tau = hit.group(3), hit.group(4)
    return "g", int(k), float(tau), f"G-Pass@{k} (τ = {tau})"


def _metric(mid: str) -> str:
    """How a lesson names a metric, with the legend's id: "Pass@2 (`pass_at_k_2`)"."""
    if mid in _MEAN_NAME:
        return _MEAN_NAME[mid]
    kind = _pass_kind(mid)
    if kind is None:
        return mid
    name = kind[3]
    return f"{name[:-1]}, `{mid}`)" if name.endswith(")") else f"{name} (`{mid}`)"


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
        end = (f"{mean[ref].iloc[-1]:.3f}" if cells is None else cells.at[last, ref])
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
            d = next((d for d in range(3, 7) if f"{hi:.{d}f}" != f"{lo:.{d}f}"), 6)  # differ
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
    out = {"cap": kendall_tau_b(truth, untied), "same_line": "", "race": "", "why": "",
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
        ref_name, noun = "/".join(_MEAN_NAME[m] for m in means), "line"
        same = len(means) == 2 and (result is None or np.array_equal(
            result.tau["bayes"], result.tau["avg"], equal_nan=True))
    else:
        ref_name, noun = f"`{means[0]}`" if means else "", "column"
        same = len(means) == 2 and cells["bayes"].equals(cells["avg"])
    if same:
        out["same_line"] = (
            "Bayes@N and avg@N rank identically (000 §2.6): one line, `bayes = avg`. "
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
    what = ("ranks by the mean of another quantity than p (Pass@2: 1 − (1 − p)², mean "
            "2m − m² − s², s² the spread of a model's per-question p)")
    if p.fresh_questions:
        out["why"] = ("With new questions in every dataset the luck of one draw of questions "
                      "averages out. (With one fixed set, the default, a Pass metric can end "
                      f"above Bayes@N: it {what}, which can order close pairs with wider gaps "
                      "than the means.) ")
        return out
    # how the terminal says the run that puts Bayes@N on top: with the flags that make it
    fresh, seed = ("", "4") if cells is None else (" (--fresh-questions)", "--seed 4")
    if ahead:
        closest = ""
        if "pass_at_k_2" in methods:
            closest = _closest_pair(p1, p.seed)
        out["why"] = (f"That is luck of this draw of questions, not a better metric: a Pass "
                      f"metric {what}.{closest} With new questions in every dataset{fresh}, or "
                      f"another seed (e.g. {seed}; other settings as default), the {ref_name} "
                      f"{noun} is the highest at every n. ")
    else:
        out["why"] = (f"A Pass metric {what}, so where its {noun} ends depends on the draw of "
                      "questions (at the defaults, seed 0, Pass@2 ends above Bayes@N by that "
                      "luck). ")
    ceil = [f"{kind[3] if cells is None else f'`{m}`'} "
            f"{kendall_tau_b(rank_scores(_pass_quantity(p1, *kind[:3])), truth):.3f}"
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
        return {"seen": "", "panels": ""}
    means = _means_of(result.table)
    panels = "; one panel per mean success" if means else ""
    if table is None:
        t = result.table[result.table["coverage"].notna()]
        cell = pd.Series([f"{100 * x:.0f}%" for x in t["coverage"]], index=t.index)
        # "95%": as the lesson's fixed text writes it
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
    if not means:
        listed = said(t)
        return {"seen": f"{where} {listed}. " if listed else "", "panels": panels}
    # one sentence per mean: pooled over means, 0% and 97% read as one drifting number
    col = "at mean {:g}" if table is None else "at `mean` {:g}"
    each = [f"{col.format(m)} {x}" for m in means if (x := said(t[t["mean"] == m]))]
    return {"seen": f"{where}, {'; '.join(each)}. " if each else "", "panels": panels}


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
    return expand(LESSON_TEXT[lesson].notice.format(**fields))


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
    from ..formatting import format_frame, format_number, printed_numbers, weight_text

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
            out["seen"] = _depth_seen(printed_numbers(t), format_frame(t), cols)
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
    from ..simulate.lesson import LESSON_DECIMALS

    t = tables["lesson"]
    nus = [c for c in t.columns if str(c).startswith("ν_")]
    share = (t[nus].to_numpy() / result.T).mean(0)
    paper = _fields("rubric", None, None)
    default = type(p)()
    return out | {
        "nus": ", ".join(f"`{c}`" for c in nus),
        "weights": " / ".join(map(weight_text, p.weights)),
        "prior": "no prior" if p.R0 is None else "the prior outcomes R0",
        "run_mu": format_number(result.mu, LESSON_DECIMALS),
        "run_sigma": format_number(result.sigma, LESSON_DECIMALS),
        "example": " (001)" if p == default else (
            f"; with weights 0 / ½ / 1 and no prior they are {paper['mu']} and "
            f"{paper['sigma']} (001)"),
        "shares": _listed([f"{format_number(x, LESSON_DECIMALS)} for k = {k}"
                           for k, x in enumerate(share)]),
    }


def _depth_seen(values: pd.DataFrame, cells: pd.DataFrame, cols: list[str]) -> str:
    """What the prior depth table's first and last printed rows show against no prior."""
    deep = [c for c in cols if c != "D=0"]
    first, last = values.index[0], values.index[-1]
    n0, n1 = (int(values.at[i, "n"]) for i in (first, last))

    def said(i, names: list[str]) -> str:
        return _listed([f"`{c}` ({cells.at[i, c]})" for c in names])

    def base(i) -> str:
        return f"`D=0` ({cells.at[i, 'D=0']})"

    above = [c for c in deep if values.at[first, c] > values.at[first, "D=0"]]
    if above == deep:
        start = (f"at n = {n0} every prior is above no prior: {said(first, deep)} against "
                 f"{base(first)}")
    elif above:
        verb = "is" if len(above) == 1 else "are"
        start = f"at n = {n0} {said(first, above)} {verb} above {base(first)}"
    else:
        start = f"at n = {n0} no prior is above {base(first)}"
    below = [c for c in deep if values.at[last, c] < values.at[last, "D=0"]]
    verb = "is" if len(below) == 1 else "are"
    end = (f"at n = {n1} {said(last, below)} {verb} below {base(last)}" if below else
           f"at n = {n1} none is below {base(last)}")
    return f"In the table, {start}; {end}. "


def _default_params(study: str):
    """The study's default settings (the paper's)."""
    from ..definitions.simulate import SIMULATIONS

    return SIMULATIONS[study].params()


#: The coins chart's one line for Bayes@N and avg@N when they rank identically.
SAME_LINE = "bayes = avg"


def truth_convergence_chart(summary: pd.DataFrame) -> alt.LayerChart:
    """τ_b vs n against the truth per method (Don't Pass@k (2026), Fig. 2a); ``summary`` =
    ``Curves.summary``.

    Bayes@N and avg@N rank identically (uniform prior, Don't Pass@k (2026), §2.6), so where their
    curves are equal they are drawn as one line, ``bayes = avg``: two coincident lines would
    leave one legend entry pointing at nothing visible.
    """
    d = summary
    if {"bayes", "avg"} <= set(d["method"]):
        cols = ["n", "mean", "sd"]
        b = d.loc[d["method"] == "bayes", cols].reset_index(drop=True)
        a = d.loc[d["method"] == "avg", cols].reset_index(drop=True)
        if b.equals(a):
            d = d[d["method"] != "avg"].copy()
            d["method"] = d["method"].replace("bayes", SAME_LINE)
    return tau_curves(d, y_title="Kendall τ_b vs true ranking")


def update_histogram(result: PriorDepth) -> alt.LayerChart:
    """Distribution of τ_b(original, updated) over drawn updates (Don't Pass@k (2026), Fig. 5a),
    mean marked.

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
        .mark_line(point=True, color="#f58518")
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


def coverage_chart(result: Coverage) -> alt.LayerChart | alt.VConcatChart:
    """Coverage vs N: colour = scope, solid = the headline interval, dashed = the papers'
    Bayes@N interval, point shape = M; the nominal level dotted. Each legend draws what
    the lines draw (coloured strokes, the dash pattern, the point shapes).

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
    if not means:
        return _coverage_panel(d, result.confidence).properties(height=300, width="container")
    panels = [
        _coverage_panel(d[d["mean"] == m], result.confidence, d).properties(
            height=240, width=COVERAGE_PANEL_WIDTH, title=f"mean success {m:g}")
        for m in means
    ]
    return alt.vconcat(*panels).resolve_scale(x="shared", y="shared")


def _coverage_panel(d: pd.DataFrame, confidence: float, every: pd.DataFrame | None = None
                    ) -> alt.LayerChart:
    """One coverage chart of the rows ``d``; ``every``: the rows of all panels, whose
    scopes, intervals and M the legends list (the same in every panel)."""
    every = d if every is None else every
    scopes = [s for s in _SCOPE_COLOURS if s in set(every["scope"])]
    intervals = [i for i in _INTERVAL_DASH if i in set(every["interval"])]
    stroke = {"symbolType": "stroke", "symbolStrokeWidth": 2.5, "symbolSize": 500,
              "symbolOpacity": 1}
    base = alt.Chart(d).encode(
        x=alt.X("N:Q", title="trials N", scale=alt.Scale(type="log")),
        color=alt.Color(
            "scope:N", title="scope", sort=scopes,
            scale=alt.Scale(domain=scopes, range=[_SCOPE_COLOURS[s] for s in scopes]),
            legend=alt.Legend(**stroke),
        ),
    )
    y = alt.Y("coverage:Q", title="coverage of the interval", axis=alt.Axis(format="%"),
              scale=alt.Scale(zero=False))
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
    err = base.mark_errorbar().encode(y=alt.Y("lo:Q", title="coverage of the interval"), y2="hi:Q")
    nominal = (
        alt.Chart(pd.DataFrame({"y": [confidence]}))
        .mark_rule(strokeDash=[2, 3], color="black")
        .encode(y="y:Q")
    )
    return err + line + points + nominal


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
    base = alt.Chart(d).encode(x=alt.X("weight:Q", title=f"weight of category {category}"))
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
        .mark_point(size=90, filled=True, color="#e45756")
        .encode(x="weight:Q", y="mu:Q")
    )
    return (band + line + dot).properties(height=260, width="container")
