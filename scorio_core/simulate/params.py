"""The settings of the Simulator's studies, declared once (``scorio_core.params.setting``):
their validation, the flags of ``scorio-studio simulate STUDY`` and the Simulator page's
widgets (labels, help, ranges) come from here. A light module: the CLI builds its parser
from it without importing the studies (pandas, the ranking methods).

Example
-------
>>> sc.simulate.OrderParams(upper=0.7, lower=0.6).sims
4000
>>> sc.simulate.OrderParams(upper=0.6, lower=0.7)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
scorio_core._validation.SettingsConflict: upper must exceed lower (the better model first); got \
upper=0.6, lower=0.7
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from .._validation import (
    SettingsConflict,
    ValidationError,
    as_names,
    as_numbers,
    check_int,
    checked_keywords,
)
from ..params import numbers_parse, seed_setting, setting, validate

__all__ = ["FIG2A_METHODS", "LESSON_R", "pass_metric", "metric_name", "CoinsParams",
           "PriorDepthParams", "OrderParams", "CalibrationParams", "RubricLessonParams",
           "STUDY_PARAMS"]

#: The metrics of 000 Fig. 2a (ids in the style of :data:`scorio_core.rank.METHODS`).
#: With k = 2, G-Pass@2_0.5 equals Pass@2 and mG-Pass@2 equals Pass^2, so the k = 4 forms
#: are used (any ``k`` of the Pass family is accepted by :func:`truth_convergence`).
FIG2A_METHODS = (
    "bayes",
    "avg",
    "pass_at_k_2",
    "pass_at_k_4",
    "pass_at_k_8",
    "pass_hat_k_4",
    "g_pass_at_k_tau_4_0.5",
    "mg_pass_at_k_4",
)
#: A Pass-family id of :func:`~scorio_core.simulate.truth_convergence`, any ``k`` / ``tau``
#: spelled as the registered ids are (``pass_at_k_2``, ``pass_hat_k_4``, ``mg_pass_at_k_4``,
#: ``g_pass_at_k_tau_4_0.5``).
_PASS_ID = re.compile(
    r"^(pass_at_k|pass_hat_k|mg_pass_at_k)_(\d+)$|^g_pass_at_k_tau_(\d+)_([\d.]+)$")
_PASS_KIND = {"pass_at_k": "pass", "pass_hat_k": "hat", "mg_pass_at_k": "mg"}
#: How the lessons, the coins chart's legend and the page's metric picker name a metric (the
#: tables and exports keep the ids): Bayes@N and avg@N, then the Pass family by kind.
_MEAN_NAMES = {"bayes": "Bayes@N", "avg": "avg@N"}
_PASS_NAMES = {"pass": "Pass@{k}", "hat": "Pass^{k}", "mg": "mG-Pass@{k}",
               "g": "G-Pass@{k} (τ = {tau})"}


@checked_keywords
def pass_metric(method_id: str) -> tuple[str, int, float] | None:
    """``(kind, k, tau)`` of a Pass-family id (kind as :func:`scorio_core.eval.pass_from_counts`
    reads it), or ``None`` for any other id.

    Example
    -------
    >>> from scorio_core.simulate import pass_metric
    >>> pass_metric("pass_hat_k_4"), pass_metric("g_pass_at_k_tau_4_0.5"), pass_metric("bayes")
    (('hat', 4, 0.0), ('g', 4, 0.5), None)
    """
    hit = _PASS_ID.match(str(method_id))
    if hit is None:
        return None
    if hit.group(1):
        return _PASS_KIND[hit.group(1)], int(hit.group(2)), 0.0
    return "g", int(hit.group(3)), float(hit.group(4))


@checked_keywords
def metric_name(method_id: str) -> str:
    """A metric's display name, as the papers write it (the id where it has none).

    Example
    -------
    >>> from scorio_core.simulate import metric_name
    >>> [metric_name(m) for m in ("bayes", "pass_at_k_2", "pass_hat_k_4",
    ...                           "g_pass_at_k_tau_4_0.5", "mg_pass_at_k_4")]
    ['Bayes@N', 'Pass@2', 'Pass^4', 'G-Pass@4 (τ = 0.5)', 'mG-Pass@4']
    """
    if method_id in _MEAN_NAMES:
        return _MEAN_NAMES[method_id]
    kind = pass_metric(method_id)
    if kind is None:
        return str(method_id)
    hit = _PASS_ID.match(method_id)
    tau = hit.group(4) if kind[0] == "g" else ""  # as spelled: 0.5, not 0.50
    return _PASS_NAMES[kind[0]].format(k=kind[1], tau=tau)


#: The categorical worked example of 001 / SPEC §3: two questions, five trials, C = 2.
LESSON_R = ((0, 1, 2, 2, 1), (1, 1, 0, 2, 2))


def _finite(name: str, value: Any) -> float:
    """A finite number of either sign (a category weight)."""
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if not ok:
        raise ValidationError(f"{name} must be finite numbers; got {value!r}")
    return float(value)


def _table(name: str, value: Any) -> tuple[tuple[int, ...], ...]:
    """Rows of whole-number outcome categories (the rubric lesson's ``R`` / ``R0``)."""
    try:
        if isinstance(value, str):  # never one category per character
            raise TypeError
        return tuple(tuple(check_int(name, x, 0) for x in row) for row in value)
    except TypeError:
        raise ValidationError(f"{name} must be rows of whole-number categories, e.g. "
                              f"((0, 1, 2), (1, 1, 0)); got {value!r}") from None


def _kappa(default: float, label: str, page_max: float, more: str = "") -> Any:
    return setting(default, "Beta spread κ of the per-question success probabilities "
                   f"(smaller κ: questions differ more in difficulty){more}", minimum=0.0,
                   open_min=True, page_min=0.5, page_max=page_max, label=label)


def _replicates(default: int, text: str, page_min: int, page_max: int, label: str,
                maximum: int = 100_000) -> Any:
    """The simulated datasets of a study: ``--replicates`` in every study (whatever the
    field is called)."""
    return setting(default, text, integer=True, minimum=1, maximum=maximum,
                   page_min=page_min, page_max=page_max, label=label, cli="--replicates")


def _mean(default: float, text: str, label: str) -> Any:
    return setting(default, text, minimum=0.0, maximum=1.0, open_min=True, open_max=True,
                   page_min=0.01, page_max=0.99, label=label)


@checked_keywords
@dataclass(frozen=True)
class CoinsParams:
    """Known-truth convergence of the 11 biased coins (Don't Pass@k (2026), Fig. 2a).

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
    M: int = setting(30, "questions M", integer=True, minimum=2, maximum=10_000,
                     label="Questions M", cli="--questions")
    N: int = setting(80, "trials per question N", integer=True, minimum=1, maximum=1000,
                     page_min=8, page_max=200, label="Trials N", cli="--trials")
    replicates: int = _replicates(1000, "fresh datasets drawn from the mimics", 50, 3000,
                                  "Fresh datasets")
    methods: tuple[str, ...] = setting(FIG2A_METHODS, "metrics to rank by (Bayes@N, avg "
                                       "and the Pass family)", label="Metrics", cli=None)
    fresh_questions: bool = setting(False, "draw new questions in every dataset (off: one "
                                    "fixed set of questions, as the paper; on: averages over "
                                    "sets)", label="New questions in every dataset")
    seed: int = seed_setting("seed of the questions; the datasets use seed + 1")

    def __post_init__(self) -> None:
        validate(self)
        methods = as_names(self.methods, "methods", noun="metric ids", example="bayes,avg")
        if not methods:
            raise ValidationError("methods must name at least one metric, e.g. ('bayes',)")
        object.__setattr__(self, "methods", methods)


@checked_keywords
@dataclass(frozen=True)
class PriorDepthParams:
    """Prior depth study of Don't Pass@k (2026), App. C (Fig. 5): updated models, D prior trials.

    Parameters
    ----------
    replicates : int
        Simulated datasets per depth D.
    seed : int
    """

    replicates: int = _replicates(5000, "simulated datasets per prior depth D", 200, 20_000,
                                  "Replicates")
    seed: int = seed_setting()

    def __post_init__(self) -> None:
        validate(self)


@checked_keywords
@dataclass(frozen=True)
class OrderParams:
    """P(correct order) and z vs N for two close models (Don't Pass@k (2026), App. D, Fig. 6).

    Parameters
    ----------
    upper, lower : float
        True means of the better and the worse model (``0 < lower < upper < 1``).
    concentration : float
        Beta spread κ of the per-question probabilities (default 8: the spread at which this
        study reproduces App. D's numbers, :data:`~scorio_core.simulate.order.PAPER_READING`;
        the coins lesson's questions have κ = 3).
    sims : int
        Simulated datasets per N.
    seed : int
    """

    upper: float = _mean(0.6213, "true mean of the better model", "Better model π̄")
    lower: float = _mean(0.608, "true mean of the worse model", "Worse model π̄")
    # the paper does not give its questions' spread; κ = 8 reproduces its App. D numbers
    # (simulate.order.PAPER_READING, measured again by tests/simulate/test_lesson_claims.py)
    concentration: float = _kappa(8.0, "Spread κ", 10_000.0, "; the default 8 is the spread at "
                                  "which this study reproduces the numbers of 000 App. D (the "
                                  "paper does not give its own)")
    sims: int = _replicates(4000, "simulated datasets per N", 200, 20_000, "Datasets per N",
                            maximum=200_000)
    seed: int = seed_setting()

    def __post_init__(self) -> None:
        validate(self)
        if self.lower >= self.upper:
            raise SettingsConflict(OrderParams, "{upper} must exceed {lower} (the better "
                                   "model first)", upper=self.upper, lower=self.lower)


@checked_keywords
@dataclass(frozen=True)
class CalibrationParams:
    """Coverage of the leaderboard's 95% headline intervals and the papers' Bayes@N interval
    vs N and M, in both scopes.

    Parameters
    ----------
    means : tuple of float
        Mean success of the simulated models; when they differ, the coverage table has one
        row per mean (column ``mean``) and the chart one panel per mean.
    M_values : tuple of int
        Numbers of questions.
    concentration : float
        Beta spread κ of the per-question probabilities (κ = 2 at mean 0.5 is the
        uniform prior of Bayes@N).
    replicates : int
        Simulated datasets per (M, N).
    seed : int
    """

    means: tuple[float, ...] = setting((0.5,), "mean success of the simulated models, one "
                                       "number per model, each strictly between 0 and 1; "
                                       "coverage is given per mean",
                                       minimum=0.0, maximum=1.0, open_min=True, open_max=True,
                                       page_min=0.05, page_max=0.95, label="Mean success",
                                       parse=numbers_parse("--means", "0.5,0.8"))
    M_values: tuple[int, ...] = setting((15, 30, 100), "numbers of questions M; coverage is "
                                        "measured at each (the calibration band is stated for "
                                        "M of 15 and more)", integer=True, minimum=1,
                                        maximum=100_000, label="Questions M", cli="--questions",
                                        parse=numbers_parse("--questions", "15,30,100", int))
    concentration: float = _kappa(2.0, "Spread κ", 10_000.0, "; κ = 2 with mean 0.5 is the "
                                  "uniform prior of Bayes@N")
    replicates: int = _replicates(2000, "simulated datasets per (M, N)", 200, 10_000,
                                  "Datasets")
    seed: int = seed_setting()

    def __post_init__(self) -> None:
        # a single number stands for a list of one; a string is read as --means and
        # --questions read theirs (a link's calibration.means=0.9)
        object.__setattr__(self, "means", as_numbers(self.means, "means", kind=float,
                                                     example="0.5,0.8"))
        object.__setattr__(self, "M_values", as_numbers(self.M_values, "M_values",
                                                        example="15,30,100"))
        validate(self)  # each mean and each M by its declaration, as the CLI checks them
        if not self.means or not self.M_values:
            raise ValidationError("means and M_values must each hold at least one value")
        object.__setattr__(self, "means", tuple(float(m) for m in self.means))


@checked_keywords
@dataclass(frozen=True)
class RubricLessonParams:
    """Bayes@N term by term for the Scorio documentation's worked example (Don't Pass@k (2026),
    §2.4, Algorithm 1).

    Parameters
    ----------
    weights : tuple of float
        Weight of each category 0..C of ``R``.
    R0 : tuple of tuples of int, optional
        Prior outcomes, one row per question (e.g. ``((2,), (1,))``).
    R : tuple of tuples of int
        The outcomes ``(M, N)`` (default: the worked example's two questions × five trials).
    """

    weights: tuple[float, ...] = setting((0.0, 0.5, 1.0), "weight of each outcome category "
                                         "0..C of R, one number per category (the worked "
                                         "example's R has three: 0, 1, 2)", page_min=0.0,
                                         page_max=1.0, label="weight of category",
                                         parse=numbers_parse("--weights", "0,0.5,1",
                                                             at_least=2))
    R0: tuple[tuple[int, ...], ...] | None = setting(
        None, "prior outcomes, one row per question (e.g. ((2,), (1,)))",
        label="Prior outcomes", cli=None, unset="none (ν = counts + 1)")
    R: tuple[tuple[int, ...], ...] = setting(LESSON_R, "the outcomes (M, N) (default "
                                             "001's two questions × five trials)", label="R",
                                             cli=None)

    def __post_init__(self) -> None:
        w = tuple(_finite("weights", x) for x in as_numbers(
            self.weights, "weights", kind=float,
            parse=numbers_parse("weights", "0,0.5,1", at_least=2)))
        if len(w) < 2 or not all(math.isfinite(x) for x in w):
            raise ValidationError(f"weights must be at least two finite numbers; got {w!r}")
        object.__setattr__(self, "weights", w)
        object.__setattr__(self, "R", _table("R", self.R))
        if self.R0 is not None:
            object.__setattr__(self, "R0", _table("R0", self.R0))


#: study id -> its params class (the order ``scorio-studio simulate`` lists them in).
STUDY_PARAMS: dict[str, type] = {
    "coins": CoinsParams, "prior-depth": PriorDepthParams, "order": OrderParams,
    "calibration": CalibrationParams, "rubric-lesson": RubricLessonParams,
}
