"""The Simulator's studies with known truth, one definition each (Don't Pass@k (2026), §2.3-2.7,
App. C-D).

Rendered by the Simulator page, ``scorio-studio simulate STUDY`` and, when asked for
by id, a report section or notebook cell. A study does not analyse the loaded data:
it simulates LLM mimics from its settings, so ``run(data, params)`` ignores ``data``
(pass ``None``), ``to_code`` does not refer to it and ``requires`` never refuses
(``uses_data=False``). :func:`highlights` gives the few numbers each lesson headlines.

Example
-------
>>> from scorio_core.definitions.simulate import highlights
>>> from scorio_core.definitions import SIMULATIONS
>>> les = SIMULATIONS["rubric-lesson"]
>>> r = les.run(None, les.params())
>>> round(r.mu, 6), round(r.sigma, 6)
(0.5625, 0.091998)
>>> [h.label for h in highlights("rubric-lesson", r)]
['μ', 'σ', 'T = 1 + C + D + N']
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from .. import charts
from .. import simulate as sim
from ..charts.simulate import lesson_intro, lesson_notice, z_text
from ..display import Shown
from ..formatting import (
    DECIMALS_ATTR,
    format_value,
    setting_text,
    share_percent,
    table_formats,
)
from ..outcomes import Outcomes
from ..simulate.lesson import LESSON_DECIMALS
from ..simulate.params import (
    CalibrationParams,
    CoinsParams,
    OrderParams,
    PriorDepthParams,
    RubricLessonParams,
)
from ._base import Analysis, Chart, Progress, TableView
from .convergence import CURVE_COLUMNS

__all__ = [
    "SIMULATIONS",
    "CoinsParams",
    "PriorDepthParams",
    "OrderParams",
    "CalibrationParams",
    "RubricLessonParams",
    "RubricLessonResult",
    "Highlight",
    "highlights",
    "LESSONS",
]


def _none(data: Outcomes | None) -> str | None:
    return None  # a study makes its own data


#: Study id -> the key of its lesson's texts in :data:`~scorio_core.charts.simulate.LESSON_TEXT`
#: (``scorio-studio simulate`` reads the texts on its tables from there).
LESSONS: dict[str, str] = {}


def _study(lesson: str, **fields: Any) -> Analysis:
    """A study's definition: it makes its own data from its settings (``uses_data=False``,
    ``requires`` never refuses) and reads as the lesson ``LESSON_TEXT[lesson]`` introduces:
    with the study's default settings (the paper's) as ``how_to_read``, with a run's own
    settings and result where a report shows that run (``reading``); what to notice in a
    run (``notice``) is the lesson's closing text, on the Simulator page as in a report.
    ``scorio-studio simulate`` prints tables, not charts: it reads the lesson's texts on its
    tables (:func:`~scorio_core.charts.simulate.tables_intro`, ``tables_notice``) through
    :data:`LESSONS`."""
    intro = lesson_intro(lesson, fields["params"]())
    LESSONS[fields["id"]] = lesson
    return Analysis(how_to_read=intro, requires=_none, uses_data=False,
                    reading=lambda p, r: lesson_intro(lesson, p, r),
                    notice=lambda p, r: lesson_notice(lesson, p, r), **fields)


def _caveats(what: str, mc: str) -> list[str]:
    return [
        f"Synthetic data with known truth: {what}. The numbers teach the method; they say "
        "nothing about any real model.",
        mc,
    ]


# ------------------------------------------------------------------------ known-truth coins
def _coins(_: Any, p: CoinsParams, progress: Progress | None = None, executor=None):
    mim = sim.mimics(sim.PAPER_COINS, p.M, concentration=p.concentration, seed=p.seed)
    return sim.truth_convergence(
        mim, list(p.methods), N=p.N, replicates=p.replicates,
        fresh_questions=p.fresh_questions, seed=p.seed + 1, progress=progress, executor=executor,
    )


COINS = _study(
    "coins",
    id="coins",
    title="Known-truth convergence (biased coins)",
    params=CoinsParams,
    run=_coins,
    tables=lambda r: {"tau": r.summary},
    charts=lambda r: [Chart("τ_b vs the true ranking", charts.truth_convergence_chart(r.summary),
                            charts.TRUTH_CONVERGENCE_CAPTION)],
    caveats=lambda d, p, r: _caveats(
        f"11 LLM mimics with the paper's means, {p.M} questions "
        f"(κ = {setting_text(p.concentration)})",
        f"Each point averages {p.replicates:,} simulated datasets (seed {p.seed}); the band is "
        "±1 s.d. over them, not an interval for the mean.",
    ),
    to_code=lambda p, data="data": (
        "import scorio_core as sc\nfrom scorio_core import charts\n\n"
        f"mim = sc.simulate.mimics(sc.simulate.PAPER_COINS, {p.M}, "
        f"concentration={p.concentration!r}, seed={p.seed})\n"
        f"coins = sc.truth_convergence(mim, {list(p.methods)!r}, N={p.N}, "
        f"replicates={p.replicates},\n"
        f"                             fresh_questions={p.fresh_questions}, "
        f"seed={p.seed + 1})\n"
        "sc.display.show(coins.summary)"
    ),
    chart_code=("charts.truth_convergence_chart(coins.summary)",),
    result_var="coins",
    columns={"tau": CURVE_COLUMNS},  # the convergence curves' columns, the target the truth
)


# ----------------------------------------------------------------------------- prior depth
def _depth(_: Any, p: PriorDepthParams, progress: Progress | None = None, executor=None):
    return sim.prior_depth(replicates=p.replicates, seed=p.seed, progress=progress,
                           executor=executor)


def _depth_tables(r) -> dict[str, pd.DataFrame]:
    return {"tau": r.curves, "update": pd.DataFrame([r.update_summary])}


PRIOR_DEPTH = _study(
    "depth",
    id="prior-depth",
    title="Prior depth (original and updated models)",
    params=PriorDepthParams,
    run=_depth,
    tables=_depth_tables,
    charts=lambda r: [
        Chart("τ(original, updated) over updates", charts.update_histogram(r),
              charts.UPDATE_HISTOGRAM_CAPTION),
        Chart("τ_b vs N per prior depth D", charts.prior_depth_chart(r),
              charts.PRIOR_DEPTH_CAPTION),
        Chart("Change against no prior (D = 0)", charts.prior_depth_chart(r, delta=True),
              charts.PRIOR_DEPTH_DELTA_CAPTION),
    ],
    caveats=lambda d, p, r: _caveats(
        "8 original models and random updates of them (000 App. C)",
        f"Curves average {p.replicates:,} simulated datasets per depth (seed {p.seed}).",
    ),
    to_code=lambda p, data="data": (
        "import scorio_core as sc\nfrom scorio_core import charts\n\n"
        f"depth = sc.prior_depth(replicates={p.replicates}, seed={p.seed})\n"
        "sc.display.show(depth.curves)"
    ),
    chart_code=(
        "charts.update_histogram(depth)",
        "charts.prior_depth_chart(depth)",
        "charts.prior_depth_chart(depth, delta=True)",
    ),
    result_var="depth",
    columns={
        "tau": {
            "D": "prior depth: trials of the original models used as Bayes@N's prior R0 "
                 "(0: none)",
            "n": "trials per question of the updated models",
            "mean": "mean Kendall τ_b between the Bayes@N ranking of the updated models and "
                    "their true ranking, over the simulated datasets",
            "sd": "s.d. of that τ_b over the datasets (ddof 0)",
            "delta": "mean minus the D = 0 curve's at the same n: what the prior adds (> 0: "
                     "it helps)",
            "delta_se": "simulation standard error of delta (paired: every depth ranks the "
                        "same datasets)",
        },
        "update": {
            "mean_tau": "mean Kendall τ_b between the original models' true ranking and an "
                        "update's, over the drawn updates",
            "share_changed": "share of the updates whose true ranking differs from the "
                             "originals'",
        },
    },
)


# --------------------------------------------------------------------------- correct order
def _order(_: Any, p: OrderParams, progress: Progress | None = None, executor=None):
    return sim.correct_order(p.upper, p.lower, concentration=p.concentration, n_sims=p.sims,
                             seed=p.seed, progress=progress, executor=executor)


def _predicted(r) -> str:
    return f"predicted_from_N={r.predict_from}"


def _order_tables(r) -> dict[str, pd.DataFrame]:
    z = list(r.n_at)
    signed = r.n_at_signed or {}  # a result saved before it was kept: none
    thresholds = pd.DataFrame({
        "z": z, "N_at_z": [r.n_at[k] for k in z],
        **({"N_at_z_signed": [signed.get(k, np.nan) for k in z]} if signed else {}),
        _predicted(r): [r.predicted_at[k] for k in z],
    })
    # a median of trials-needed predictions: whole trials, as N_at_z (185, not 185.00)
    thresholds.attrs[DECIMALS_ATTR] = {_predicted(r): 0}
    # p_correct's decimals are its name's (formatting.MONTE_CARLO_NAMES) and its draws the
    # result table's (simulate/order.py): the chart's tooltip and the page's headline too
    order = r.table.copy()
    return {"order": order, "thresholds": thresholds}


def _order_views(r, tables: dict[str, pd.DataFrame]) -> dict[str, TableView]:
    """The thresholds table as a reader's rendering shows it: each row named by its z as
    the headlines and the chart name it (1.96, not 1.9600); the exports keep the number."""
    t = tables["thresholds"]
    shown = t.assign(z=[z_text(z) for z in t["z"]])
    shown.attrs = dict(t.attrs)
    return {"thresholds": TableView(shown)}


ORDER = _study(
    "order",
    id="order",
    title="Probability of the correct order",
    params=OrderParams,
    run=_order,
    tables=_order_tables,
    views=_order_views,
    charts=lambda r: [Chart("P(correct order) and z vs N", charts.correct_order_chart(r),
                            charts.CORRECT_ORDER_CAPTION)],
    caveats=lambda d, p, r: _caveats(
        f"two mimics with means {p.upper:g} and {p.lower:g} on {r.M} questions (κ = "
        f"{setting_text(p.concentration)})",
        f"{p.sims:,} simulated datasets per N (seed {p.seed}): P(correct order) has a "
        f"simulation standard error of at most {share_percent(0.5 / math.sqrt(p.sims))}.",
    ),
    to_code=lambda p, data="data": (
        "import scorio_core as sc\nfrom scorio_core import charts\n\n"
        f"order_study = sc.correct_order({p.upper!r}, {p.lower!r}, "
        f"concentration={p.concentration!r}, n_sims={p.sims}, seed={p.seed})\n"
        "sc.display.show(order_study.table)"
    ),
    chart_code=("charts.correct_order_chart(order_study)",),
    result_var="order_study",
    columns={
        "order": {
            "N": "trials per question of both models",
            "p_correct": "simulated probability that Bayes@N ranks the truly better model "
                         "first (share of the simulated datasets)",
            "z_mean": "mean |z| over those datasets, z = (mu - mu') / sqrt(sigma² + sigma'²) "
                      "of Bayes@N (the papers' reading, App. D)",
            "rho": "Φ(z_mean): the papers' ranking confidence ρ = Φ(z) at the mean |z|; above "
                   "p_correct while the pair is close, as |z| folds the datasets of the "
                   "wrong order onto positive values",
            "z_signed": "mean z signed by the true order (negative where a dataset puts the "
                        "worse model first)",
            "rho_signed": "Φ(z_signed): follows p_correct",
        },
        "thresholds": {
            "z": "a z threshold (e.g. 1.645: one-sided 95%; 1.96: two-sided 95%)",
            "N_at_z": "first N of the grid where z_mean reaches z (— if none)",
            "N_at_z_signed": "first N of the grid where z_signed reaches z (— if none)",
            "predicted_from_N={N}": "median trials needed, by the papers' expected-z rule, as "
                                    "predicted from datasets of {N} trials",
        },
    },
)


# ---------------------------------------------------------------------- interval calibration
def _calibration(_: Any, p: CalibrationParams, progress: Progress | None = None,
                 executor=None):
    return sim.interval_coverage(p.means, M_values=p.M_values, concentration=p.concentration,
                                 replicates=p.replicates, seed=p.seed, progress=progress,
                                 executor=executor)


CALIBRATION = _study(
    "calibration",
    id="calibration",
    title="Interval calibration",
    params=CalibrationParams,
    run=_calibration,
    tables=lambda r: {"coverage": r.table},
    charts=lambda r: [Chart("Coverage of the 95% intervals", charts.coverage_chart(r),
                            charts.coverage_caption(r))],
    caveats=lambda d, p, r: _caveats(
        f"models with mean success {', '.join(f'{m:g}' for m in p.means)} and κ = "
        f"{setting_text(p.concentration)}",
        f"{p.replicates:,} simulated datasets per (M, N) (seed {p.seed}); 'se' is the binomial "
        "standard error of each coverage.",
    ),
    to_code=lambda p, data="data": (
        "import scorio_core as sc\nfrom scorio_core import charts\n\n"
        f"cover = sc.interval_coverage({p.means!r}, M_values={p.M_values!r}, "
        f"concentration={p.concentration!r},\n"
        f"                                   replicates={p.replicates}, seed={p.seed})\n"
        "sc.display.show(cover.table)"
    ),
    chart_code=("charts.coverage_chart(cover)",),
    result_var="cover",
    columns={"coverage": {
        "mean": "the models' mean score (a row per mean where the models' means differ)",
        "scope": "questions: the truth is the mean over the drawn questions; population: "
                 "the mean of the population they were drawn from",
        "interval": "headline: the leaderboard's interval; Bayes@N (papers): mu ± z sigma",
        "M": "questions per simulated dataset",
        "N": "trials per question",
        "coverage": "share of the simulated intervals (every model and dataset) that held "
                    "the truth; none or all of n read <1/n or >1 - 1/n",
        "se": "binomial standard error of coverage, sqrt(c(1 - c)/n); — where none or all "
              "held it (coverage then reads as its bound)",
        "width": "mean width of the intervals",
    }},
)


# -------------------------------------------------------------------------- rubric lesson
@dataclass(frozen=True, repr=False)
class RubricLessonResult(Shown):
    """The :class:`~scorio_core.simulate.RubricLesson` (its fields read through) and its inputs."""

    analysis_id = "rubric-lesson"

    lesson: sim.RubricLesson
    R: tuple[tuple[int, ...], ...]
    R0: tuple[tuple[int, ...], ...] | None

    def __getattr__(self, name: str):
        if name == "lesson":  # not set yet (copy, unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.lesson, name)


def _lesson(_: Any, p: RubricLessonParams, progress: Progress | None = None):
    return RubricLessonResult(sim.rubric_lesson(p.R, p.weights, p.R0), p.R, p.R0)


def _lesson_summary(r: RubricLessonResult) -> pd.DataFrame:
    """μ, σ, T, M in one row, μ and σ with the lesson table's decimals."""
    t = pd.DataFrame([{"mu": r.mu, "sigma": r.sigma, "T": r.T, "M": r.M}])
    t.attrs[DECIMALS_ATTR] = dict.fromkeys(("mu", "sigma"), LESSON_DECIMALS)
    return t


def _lesson_code(p: RubricLessonParams, data: str = "data") -> str:
    R0 = None if p.R0 is None else [list(r) for r in p.R0]
    return (
        "import scorio_core as sc\nfrom scorio_core import charts\n\n"
        f"R, w, R0 = {[list(r) for r in p.R]!r}, {list(p.weights)!r}, {R0!r}\n"
        "lesson = sc.rubric_lesson(R, w, R0)\n"
        "sc.display.show(lesson.table)"
    )


RUBRIC_LESSON = _study(
    "rubric",
    id="rubric-lesson",
    title="Rubric weights (Bayes@N term by term)",
    params=RubricLessonParams,
    run=_lesson,
    tables=lambda r: {
        "lesson": r.table,
        "summary": _lesson_summary(r),
    },
    charts=lambda r: [Chart(
        "μ as the partial-credit weight moves", charts.rubric_weight_chart(r.R, r.weights, 1, r.R0),
        charts.RUBRIC_WEIGHT_CAPTION,
    )],
    caveats=lambda d, p, r: [
        "A worked example of the closed form (001): exact numbers, no simulation noise."
    ],
    to_code=_lesson_code,
    chart_code=("charts.rubric_weight_chart(R, w, 1, R0)",),
    result_var="lesson",
    columns={
        "lesson": {
            "question": "the question α (Q1, Q2, ...)",
            "ν_{k}": "ν_{k}: the question's count of category {k}: the model's trials in it, "
                     "its prior (R0) trials in it, plus 1",
            "m_α": "the question's posterior mean score above the lowest weight: "
                   "Σ_k (ν_k / T)(w_k - w_0)",
            "var_α": "its variance term Σ_k (ν_k / T)(w_k - w_0)² - m_α² (the bracket of σ²)",
        },
        "summary": {
            "mu": "μ = w_0 + (1/M) Σ m_α: Bayes@N's posterior mean",
            "sigma": "σ = sqrt(Σ var_α / (M² (T + 1))): its posterior s.d.",
            "T": "T = 1 + C + D + N: the counts per question, the prior's included",
            "M": "questions",
        },
    },
)


# ------------------------------------------------------------------------------ highlights
class Highlight(NamedTuple):
    """One headline number of a study: label, formatted value and what it compares with."""

    label: str
    value: str
    help: str = ""


def _cell(table: pd.DataFrame, column: str, value: Any) -> str:
    """``value`` as ``table``'s ``column`` prints it: that column's one format
    (:func:`~scorio_core.formatting.table_formats`, its declared decimals included)."""
    fmt = dict(zip(table.columns, table_formats(table), strict=True))[column]
    return format_value(value, fmt)


def highlights(study: str, result: Any) -> list[Highlight]:
    """The few numbers a lesson headlines (the Simulator page's metrics, the lines under the
    settings of ``scorio-studio simulate``), each written as the study's table that holds
    the same quantity prints it: one format for a number wherever it is read.

    Example
    -------
    >>> from scorio_core.definitions.simulate import RubricLessonParams, SIMULATIONS, highlights
    >>> r = SIMULATIONS["rubric-lesson"].run(None, RubricLessonParams())
    >>> highlights("rubric-lesson", r)[0]
    Highlight(label='μ', value='0.56250', help='')
    """
    if study not in ("prior-depth", "order", "rubric-lesson"):
        return []
    tables = SIMULATIONS[study].tables(result)
    if study == "prior-depth":
        s, update, paper = result.update_summary, tables["update"], sim.PAPER_UPDATE
        return [Highlight("mean τ(original, updated)", _cell(update, "mean_tau", s["mean_tau"]),
                          f"paper: {paper['mean_tau']}"),
                Highlight("updates that change the ranking",
                          _cell(update, "share_changed", s["share_changed"]),
                          f"paper: {paper['share_changed']}")]
    if study == "order":
        order, thr, paper = tables["order"], tables["thresholds"], sim.PAPER_ORDER
        # the paper's numbers beside the run's only for the paper's pair (LLM_10 and LLM_9)
        theirs = result.true_means == (OrderParams().upper, OrderParams().lower)
        p80 = order.set_index("N")["p_correct"].get(80, np.nan)
        out = [Highlight("P(correct order) at N = 80", _cell(order, "p_correct", p80),
                         f"paper: {paper['p_correct_80']}, κ-dependent" if theirs else "")]
        for z, n in result.n_at.items():
            pred = _cell(thr, _predicted(result), result.predicted_at[z])
            said = f"paper: {paper['N_at'][z]}; " if theirs and z in paper["N_at"] else ""
            out.append(Highlight(f"N where z reaches {z_text(z)}", _cell(thr, "N_at_z", n),
                                 f"{said}predicted from N = {result.predict_from}: {pred}"))
        from ..simulate.order import PAPER_READING

        fit = PAPER_READING["concentration"]
        why = ("the spread that reproduces the paper's numbers; the paper gives none"
               if theirs and result.concentration == fit else "")
        return out + [Highlight("κ used", setting_text(result.concentration), why)]
    summary = tables["summary"]
    return [Highlight("μ", _cell(summary, "mu", result.mu)),
            Highlight("σ", _cell(summary, "sigma", result.sigma)),
            Highlight("T = 1 + C + D + N", _cell(summary, "T", result.T))]


#: Every simulation study by id (the ``scorio-studio simulate`` studies; report sections
#: on request, not by default: they are not about the loaded data).
SIMULATIONS: dict[str, Analysis] = {
    a.id: a for a in (COINS, PRIOR_DEPTH, ORDER, CALIBRATION, RUBRIC_LESSON)
}
