"""The Simulator's studies with known truth, one definition each (000 §2.3-2.7, App. C-D).

Rendered by the Simulator page, ``scorio-studio simulate STUDY`` and, when asked for
by id, a report section or notebook cell. A study does not analyse the loaded data:
it simulates LLM mimics from its settings, so ``run(data, params)`` ignores ``data``
(pass ``None``), ``to_code`` does not refer to it and ``requires`` never refuses
(``uses_data=False``). :func:`highlights` gives the few numbers each lesson headlines.

Example
-------
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
from .._validation import ValidationError, check_int, check_number
from ..charts.simulate import lesson_intro
from ..display import Shown
from ..outcomes import Outcomes
from ..params import setting, validate
from ._base import Analysis, Chart, Progress

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
]


def _count(name: str, value: int, lo: int, hi: int) -> None:
    check_int(name, value, lo)
    if value > hi:
        raise ValidationError(f"{name} must be at most {hi:,}; got {value!r}")


def _prob(name: str, value: float) -> float:
    v = check_number(name, value)
    if not v < 1:
        raise ValidationError(f"{name} must be strictly between 0 and 1; got {value!r}")
    return v


def _seed(text: str = "seed of the random draws") -> Any:
    return setting(0, text, integer=True, minimum=0, page_max=2**53 - 1, label="Seed")


def _kappa(default: float, label: str, page_max: float, more: str = "") -> Any:
    return setting(default, "Beta spread κ of the per-question success probabilities "
                   f"(smaller κ: questions differ more in difficulty){more}", minimum=0.0,
                   open_min=True, page_min=0.5, page_max=page_max, label=label)


def _replicates(default: int, text: str, page_min: int, page_max: int, label: str) -> Any:
    return setting(default, text, integer=True, minimum=1, maximum=100_000,
                   page_min=page_min, page_max=page_max, label=label)


def _mean(default: float, text: str, label: str) -> Any:
    return setting(default, text, minimum=0.0, maximum=1.0, open_min=True, open_max=True,
                   page_min=0.01, page_max=0.99, label=label)


def _none(data: Outcomes | None) -> str | None:
    return None  # a study makes its own data


def _study(lesson: str, **fields: Any) -> Analysis:
    """A study's definition: it makes its own data from its settings (``uses_data=False``,
    ``requires`` never refuses) and reads as the lesson ``LESSON_TEXT[lesson]`` introduces."""
    intro = lesson_intro(lesson, fields["params"]())  # with the study's default settings
    return Analysis(how_to_read=intro, requires=_none, uses_data=False, **fields)


def _caveats(what: str, mc: str) -> list[str]:
    return [
        f"Synthetic data with known truth: {what}. The numbers teach the method; they say "
        "nothing about any real model.",
        mc,
    ]


# ------------------------------------------------------------------------ known-truth coins
@dataclass(frozen=True)
class CoinsParams:
    """Known-truth convergence of the 11 biased coins (000 Fig. 2a).

    Parameters
    ----------
    concentration : float
        Beta spread κ of the per-question success probabilities (smaller: more varied).
    M, N : int
        Questions and trials per question.
    replicates : int
        Fresh datasets drawn from the mimics.
    methods : tuple of str
        Metrics to rank by (Bayes@N, avg and the Pass family).
    fresh_questions : bool
        Draw new questions in every dataset (default: one fixed set, as the paper).
    seed : int
        Seed of the questions; the datasets use ``seed + 1``.
    """

    concentration: float = _kappa(3.0, "Spread κ (Beta concentration)", 100.0)
    M: int = setting(30, "questions", integer=True, minimum=2, maximum=10_000,
                     label="Questions M")
    N: int = setting(80, "trials per question", integer=True, minimum=1, maximum=1000,
                     page_min=8, page_max=200, label="Trials N")
    replicates: int = _replicates(1000, "fresh datasets drawn from the mimics", 50, 3000,
                                  "Fresh datasets")
    methods: tuple[str, ...] = setting(sim.FIG2A_METHODS, "metrics to rank by (Bayes@N, avg "
                                       "and the Pass family)", label="Metrics")
    fresh_questions: bool = setting(False, "draw new questions in every dataset (off: one "
                                    "fixed set of questions, as the paper; on: averages over "
                                    "sets)", label="New questions in every dataset")
    seed: int = _seed("seed of the questions; the datasets use seed + 1")

    def __post_init__(self) -> None:
        validate(self)
        methods = tuple(str(m) for m in self.methods)
        if not methods:
            raise ValidationError("methods must name at least one metric, e.g. ('bayes',)")
        object.__setattr__(self, "methods", methods)


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
        f"11 LLM mimics with the paper's means, {p.M} questions (κ = {p.concentration:g})",
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
        "coins.summary"
    ),
    chart_code=("charts.truth_convergence_chart(coins.summary)",),
    result_var="coins",
)


# ----------------------------------------------------------------------------- prior depth
@dataclass(frozen=True)
class PriorDepthParams:
    """Prior depth study of 000 App. C (Fig. 5): updated models, D prior trials.

    Parameters
    ----------
    replicates : int
        Simulated datasets per depth D.
    seed : int
    """

    replicates: int = _replicates(5000, "simulated datasets per prior depth D", 200, 20_000,
                                  "Replicates")
    seed: int = _seed()

    def __post_init__(self) -> None:
        validate(self)


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
        "depth.curves"
    ),
    chart_code=(
        "charts.update_histogram(depth)",
        "charts.prior_depth_chart(depth)",
        "charts.prior_depth_chart(depth, delta=True)",
    ),
    result_var="depth",
)


# --------------------------------------------------------------------------- correct order
@dataclass(frozen=True)
class OrderParams:
    """P(correct order) and z vs N for two close models (000 App. D, Fig. 6).

    Parameters
    ----------
    upper, lower : float
        True means of the better and the worse model (``0 < lower < upper < 1``).
    concentration : float
        Beta spread κ of the per-question probabilities.
    sims : int
        Simulated datasets per N.
    seed : int
    """

    upper: float = _mean(0.6213, "true mean of the better model", "Better model π̄")
    lower: float = _mean(0.608, "true mean of the worse model", "Worse model π̄")
    concentration: float = _kappa(3.0, "Spread κ", 10_000.0)
    sims: int = setting(4000, "simulated datasets per N", integer=True, minimum=1,
                        maximum=200_000, page_min=200, page_max=20_000, label="Datasets per N")
    seed: int = _seed()

    def __post_init__(self) -> None:
        validate(self)
        if self.lower >= self.upper:
            raise ValidationError(
                f"upper must exceed lower (the better model first); got upper={self.upper}, "
                f"lower={self.lower}"
            )


def _order(_: Any, p: OrderParams, progress: Progress | None = None, executor=None):
    return sim.correct_order(p.upper, p.lower, concentration=p.concentration, n_sims=p.sims,
                             seed=p.seed, progress=progress, executor=executor)


def _order_tables(r) -> dict[str, pd.DataFrame]:
    z = list(r.n_at)
    return {
        "order": r.table,
        "thresholds": pd.DataFrame({
            "z": z, "N_at_z": [r.n_at[k] for k in z],
            f"predicted_from_N={r.predict_from}": [r.predicted_at[k] for k in z],
        }),
    }


ORDER = _study(
    "order",
    id="order",
    title="Probability of the correct order",
    params=OrderParams,
    run=_order,
    tables=_order_tables,
    charts=lambda r: [Chart("P(correct order) and z vs N", charts.correct_order_chart(r),
                            charts.CORRECT_ORDER_CAPTION)],
    caveats=lambda d, p, r: _caveats(
        f"two mimics with means {p.upper:g} and {p.lower:g} on 30 questions (κ = "
        f"{p.concentration:g})",
        f"{p.sims:,} simulated datasets per N (seed {p.seed}): P(correct order) has a "
        f"simulation standard error of at most {0.5 / math.sqrt(p.sims):.1%}.",
    ),
    to_code=lambda p, data="data": (
        "import scorio_core as sc\nfrom scorio_core import charts\n\n"
        f"order_study = sc.correct_order({p.upper!r}, {p.lower!r}, "
        f"concentration={p.concentration!r}, n_sims={p.sims}, seed={p.seed})\n"
        "order_study.table"
    ),
    chart_code=("charts.correct_order_chart(order_study)",),
    result_var="order_study",
)


# ---------------------------------------------------------------------- interval calibration
@dataclass(frozen=True)
class CalibrationParams:
    """Coverage of the leaderboard's 95 % headline intervals and the papers' Bayes@N interval
    vs N and M, in both scopes.

    Parameters
    ----------
    means : tuple of float
        Mean success of the simulated models.
    M_values : tuple of int
        Numbers of questions.
    concentration : float
        Beta spread κ of the per-question probabilities (κ = 2 at mean 0.5 is the
        uniform prior of Bayes@N).
    replicates : int
        Simulated datasets per (M, N).
    seed : int
    """

    means: tuple[float, ...] = setting((0.5,), "mean success of the simulated models, each "
                                       "strictly between 0 and 1 (the page simulates one)",
                                       page_min=0.05, page_max=0.95, label="Mean success")
    M_values: tuple[int, ...] = setting((10, 30, 100), "numbers of questions",
                                        label="Questions M")
    concentration: float = _kappa(2.0, "Spread κ", 10_000.0, "; κ = 2 with mean 0.5 is the "
                                  "uniform prior of Bayes@N")
    replicates: int = _replicates(2000, "simulated datasets per (M, N)", 200, 10_000,
                                  "Datasets")
    seed: int = _seed()

    def __post_init__(self) -> None:
        validate(self)
        means = tuple(_prob("means", m) for m in self.means)
        Ms = tuple(self.M_values)
        if not means or not Ms:
            raise ValidationError("means and M_values must each hold at least one value")
        for m in Ms:
            _count("M_values", m, 1, 100_000)
        object.__setattr__(self, "means", means)
        object.__setattr__(self, "M_values", tuple(int(m) for m in Ms))


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
    charts=lambda r: [Chart("Coverage of the 95 % intervals", charts.coverage_chart(r),
                            charts.COVERAGE_CAPTION)],
    caveats=lambda d, p, r: _caveats(
        f"models with mean success {', '.join(f'{m:g}' for m in p.means)} and κ = "
        f"{p.concentration:g}",
        f"{p.replicates:,} simulated datasets per (M, N) (seed {p.seed}); 'se' is the binomial "
        "standard error of each coverage.",
    ),
    to_code=lambda p, data="data": (
        "import scorio_core as sc\nfrom scorio_core import charts\n\n"
        f"cover = sc.interval_coverage({p.means!r}, M_values={p.M_values!r}, "
        f"concentration={p.concentration!r},\n"
        f"                                   replicates={p.replicates}, seed={p.seed})\n"
        "cover.table"
    ),
    chart_code=("charts.coverage_chart(cover)",),
    result_var="cover",
)


# -------------------------------------------------------------------------- rubric lesson
@dataclass(frozen=True)
class RubricLessonParams:
    """Bayes@N term by term for 001's worked example (000 §2.4, Algorithm 1).

    Parameters
    ----------
    weights : tuple of float
        Weight of each category 0..C of ``R``.
    R0 : tuple of tuples of int, optional
        Prior outcomes, one row per question (e.g. ``((2,), (1,))``).
    R : tuple of tuples of int
        The outcomes ``(M, N)`` (default 001's two questions × five trials).
    """

    weights: tuple[float, ...] = setting((0.0, 0.5, 1.0), "weight of each category 0..C of R "
                                         "(the page: three, each 0 to 1)", page_min=0.0,
                                         page_max=1.0, label="weight of category")
    R0: tuple[tuple[int, ...], ...] | None = setting(
        None, "prior outcomes, one row per question (e.g. ((2,), (1,)))",
        label="Prior outcomes")
    R: tuple[tuple[int, ...], ...] = setting(sim.LESSON_R, "the outcomes (M, N) (default "
                                             "001's two questions × five trials)", label="R")

    def __post_init__(self) -> None:
        w = tuple(float(x) for x in self.weights)
        if len(w) < 2 or not all(math.isfinite(x) for x in w):
            raise ValidationError(f"weights must be at least two finite numbers; got {w!r}")
        object.__setattr__(self, "weights", w)
        object.__setattr__(self, "R", tuple(tuple(int(x) for x in row) for row in self.R))
        if self.R0 is not None:
            object.__setattr__(self, "R0", tuple(tuple(int(x) for x in r) for r in self.R0))


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


def _lesson_code(p: RubricLessonParams, data: str = "data") -> str:
    R0 = None if p.R0 is None else [list(r) for r in p.R0]
    return (
        "import scorio_core as sc\nfrom scorio_core import charts\n\n"
        f"R, w, R0 = {[list(r) for r in p.R]!r}, {list(p.weights)!r}, {R0!r}\n"
        "lesson = sc.rubric_lesson(R, w, R0)\n"
        "lesson.table"
    )


RUBRIC_LESSON = _study(
    "rubric",
    id="rubric-lesson",
    title="Rubric weights (Bayes@N term by term)",
    params=RubricLessonParams,
    run=_lesson,
    tables=lambda r: {
        "lesson": r.table,
        "summary": pd.DataFrame([{"mu": r.mu, "sigma": r.sigma, "T": r.T, "M": r.M}]),
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
)


# ------------------------------------------------------------------------------ highlights
class Highlight(NamedTuple):
    """One headline number of a study: label, formatted value and what it compares with."""

    label: str
    value: str
    help: str = ""


def highlights(study: str, result: Any) -> list[Highlight]:
    """The few numbers a lesson headlines (page metrics, the CLI's notes).

    Example
    -------
    >>> r = SIMULATIONS["rubric-lesson"].run(None, RubricLessonParams())
    >>> highlights("rubric-lesson", r)[0]
    Highlight(label='μ', value='0.562500', help='')
    """
    if study == "prior-depth":
        s = result.update_summary
        return [Highlight("mean τ(original, updated)", f"{s['mean_tau']:.3f}", "paper: 0.88"),
                Highlight("updates that change the ranking", f"{s['share_changed']:.0%}",
                          "paper: 86 %")]
    if study == "order":
        p80 = result.table.set_index("N")["p_correct"].get(80, np.nan)
        out = [Highlight("P(correct order) at N = 80", f"{p80:.1%}",
                         "paper: 83.7 % (κ-dependent)")]
        for z, n in result.n_at.items():
            out.append(Highlight(f"N where z reaches {z:g}", "—" if np.isnan(n) else f"{n:.0f}",
                                 f"predicted from N = {result.predict_from}: "
                                 f"{result.predicted_at[z]:.0f}"))
        return out + [Highlight("κ used", f"{result.concentration:g}")]
    if study == "rubric-lesson":
        return [Highlight("μ", f"{result.mu:.6f}"), Highlight("σ", f"{result.sigma:.6f}"),
                Highlight("T = 1 + C + D + N", str(result.T))]
    return []


#: Every simulation study by id (the ``scorio-studio simulate`` studies; report sections
#: on request, not by default: they are not about the loaded data).
SIMULATIONS: dict[str, Analysis] = {
    a.id: a for a in (COINS, PRIOR_DEPTH, ORDER, CALIBRATION, RUBRIC_LESSON)
}
