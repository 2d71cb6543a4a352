"""Planner: what more data would settle the undecided pairs, and with what chance (SPEC §4).

A lead who sees undecided pairs asks three things; each answer is a *probability* that the
planned data decide the pair at the board's level, not a point where the gap would "reach
the threshold if it held" (that papers' expected-z rule, Don't Pass@k (2026), App. D, is a 50%
point: the pair is decided about half the time there; it stays beside ours as
``trials_needed_papers``):

* :func:`pair_needs` -- per undecided adjacent pair, the trials per question (every model)
  and, for the population scope, the questions that give an ``assurance`` (default
  :data:`~scorio_core.estimands.ASSURANCE`, 80%) chance of deciding it, and in the
  population scope the probability that *no* number of trials decides it.
* :func:`allocate_trials` -- a greedy split of a budget of extra trials across models that
  maximises the expected number of decided pairs, checked against an even split on
  held-out draws (common random numbers) and replaced by the even split when it does not
  win by more than two simulation standard errors.
* :func:`order_curve` / :func:`pair_curve` -- the papers' P(correct order) versus ``N``
  (Don't Pass@k (2026), App. D, Fig. 6), with :func:`pair_assurance` beside it.

The predictive model (all quantities in weight units, pair difference ``d = x_i − x_j``):
today's estimate ``ĝ`` has variance ``s²`` in the scope; after the planned data its
variance is ``s'²`` (questions scope, ``N'`` trials: ``s'² = s² N / N'``; population scope,
``N'`` trials: ``s'² = s²_∞ + s²_trial N / N'`` where ``s²_trial`` is the trial-noise part,
from the empirical-Bayes within-question variances, and ``s²_∞ = s² − s²_trial`` the
question-sampling part that trials never remove; ``M'`` questions: ``s'² = s² M / M'``).
Given the true gap ``g``, the future estimate is normal with mean ``ĝ + λ (g − ĝ)`` and
variance ``s² λ (1 − λ)``, ``λ = 1 − s'²/s²`` (the Gaussian conditional of the martingale
``ĝ → ĝ'``); ``g`` is drawn from the hierarchical posterior of the field
(:func:`scorio_core.inference.field_draws`, which shrinks the leader's lead as ``p_best``
does; the population gap is drawn from exactly ``p_best``'s posterior, with its shrunk
covariance :func:`scorio_core.inference.field_covariance`). The pair is decided when
``|ĝ'| ≥ t_{df'} s'``, the ``t`` quantile at the per-pair level the board's multiplicity
control implies for the pairs still open (:func:`pair_level`) in the scope the decision is
made in: trials in the board's scope, new questions always in the population scope (a
question plan is a population-scope plan whatever the board's scope). Realised decision rates are
measured by ``benchmarks/planner_calibration.py`` with known truth.

Example
-------
>>> import numpy as np
>>> from scorio_core.planner import plan
>>> R = (np.random.default_rng(0).random((4, 15, 4)) < [[[.8]], [[.7]], [[.4]], [[.35]]])
>>> p = plan(R.astype(int), budget_trials=8)
>>> list(p.pairs.columns)[:4]  # the plans first, the board's statistics after them
['better', 'next', 'gap', 'trials_needed']
>>> int(p.allocation["extra_trials"].sum())
8
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy import special

from . import decision
from ._validation import (
    ValidationError,
    as_names,
    as_numbers,
    as_outcome_array,
    check_confidence,
    check_weight_vector,
    checked_keywords,
    checked_methods,
    did_you_mean,
    renamed_keyword,
    whole_numbers,
)
from .display import Displayed, with_caveats
from .estimands import ADJUSTMENTS, ASSURANCE, MAX_QUESTIONS, MAX_TRIALS
from .formatting import (
    DRAWS_ATTR,
    SHARE_DECIMALS,
    TRIALS_NOW,
    a_chance,
    count_text,
    format_number,
    percent,
    shape_text,
    share_percent,
)
from .inference import (
    field_covariance,
    field_draws,
    inflate,
    scope_covariance,
    scope_open_level,
)
from .leaderboard import Leaderboard, caveat_data, leaderboard, prior_label
from .outcomes import Outcomes
from .params import PlanParams, check_value, settings_of
from .posterior import question_moments
from .resampling import stream

__all__ = [
    "MAX_TRIALS",
    "MAX_QUESTIONS",
    "pair_level",
    "assurance",
    "pair_needs",
    "pair_assurance",
    "detectable_gaps",
    "decision_chance",
    "gap_curve",
    "plannable",
    "OrderCurve",
    "order_curve",
    "pair_curve",
    "Allocation",
    "allocate_trials",
    "Plan",
    "pair_notes",
    "plan",
    "CurveSettings",
    "curve_settings",
    "CANNOT_SETTLE",
    "a_chance",
]

CANNOT_SETTLE = "cannot be settled by more trials"
#: Draws of the true scores behind each assurance; the greedy allocation optimises on
#: its own draws and is checked on the others.
_PLAN_DRAWS = 2000
_GREEDY_DRAWS = 256
#: Smallest expected gain (pairs) for which the greedy split is recommended over the even
#: split, per scope, besides two simulation standard errors: the draws measure the gain
#: under the field's posterior, not that posterior's own error. Measured per field with
#: known truth (stylised 6-model fields at 30/4 and 100/8, evenly spaced and random, budgets
#: 3 L and L N; 6- and 9-model fields of the bundled real run; docs/calibration_gaps.md,
#: "the split's minimum gain"): in the questions scope the fields whose claim lay between
#: two standard errors and 0.25 pairs realised about what they claimed or more (stylised
#: 30/4, evenly spaced: +0.096 claimed, +0.178 ± 0.034 realised), and recommending the
#: greedy split there raised its gain over the even split in every cell (e.g. +0.058 →
#: +0.207, real 6 models +0.234 → +0.316); so the questions scope asks only for a gain that
#: prints as non-zero. In the population scope such fields lost to the even split on the
#: stylised 30/4 fields (−0.03 to −0.07 pairs) -- its posterior runs high there (Known
#: gaps) -- so it keeps the margin.
_MIN_GAIN = {"questions": 0.01, "population": 0.25}
#: Share of a recommended population-scope split's claimed gain that came true when the
#: extra trials were drawn with known truth, 10 times per field (docs/calibration_gaps.md,
#: gap 3: the bundled run's nine models at 30/4, 61 % and 84 % on two seeds; stylised
#: 100/8 fields 56 % and 57 %): the claim reads the field's posterior, over-confident
#: there (Known gaps), so the split's note says so beside the number.
POPULATION_SPLIT_REALISED = "56-84%"
#: Share of population-scope trial plans (for an 80 % chance) decided when their trials
#: were drawn with known truth (docs/calibration_gaps.md, gap 3; README Known gaps 2:
#: 67 % ± 5 of 95 plans at 30 questions × 4 trials, 78 % ± 2 of 503 at 100 × 8): such a
#: plan's row says so and points to its stated gap, which held.
POPULATION_TRIALS_REALISED = "67-78%"
#: Largest (draw × value) block held at once.
_CELLS = 4_000_000
#: Points of the geometric grid that brackets each plan before its bisection (:func:`_search`).
_SEARCH_GRID = 4


def _check_assurance(a) -> float:
    """``a`` checked against the declaration of ``PlanParams.assurance`` (one bound)."""
    return float(check_value("assurance", a, settings_of(PlanParams)["assurance"][1]))


@checked_keywords
def pair_level(board: Leaderboard, scope: str | None = None) -> float:
    """Two-sided per-pair level at which an open pair is decided under the board's control
    in ``scope`` (default the board's own:
    :attr:`Inference.open_level <scorio_core.inference.Inference.open_level>`; another
    scope: :func:`~scorio_core.inference.scope_open_level` on the board's data, confidence,
    control, draws and seed, the level the board in that scope would use): ``none``
    ``1 − confidence``, ``holm`` / ``bh`` ``(1 − confidence) / K`` over the ``K`` pairs still
    open, ``simultaneous`` the max-|t| null's tail over the open pairs, from the null the
    decisions used. Trial plans are decided in the board's scope; question plans in the
    population scope, whatever the board's: at ``N = 1`` the questions scope decides nothing
    and its own level is the unadjusted ``1 − confidence``, not the population board's.

    Example
    -------
    >>> from scorio_core.planner import pair_level
    >>> import numpy as np
    >>> from scorio_core.leaderboard import leaderboard
    >>> R = np.random.default_rng(0).integers(0, 2, (3, 20, 4))
    >>> a = pair_level(leaderboard(R, adjust="none"))
    >>> round(a, 3), bool(pair_level(leaderboard(R)) < a)
    (0.05, True)
    >>> one = leaderboard(R[..., :1])  # N = 1: the questions scope decides nothing
    >>> round(pair_level(one), 3), pair_level(one, "population") == pair_level(
    ...     leaderboard(R[..., :1], scope="population"))
    (0.05, True)
    """
    s = board.settings
    if scope is None or scope == s["scope"]:
        return board.inference.open_level
    return scope_open_level(board.stats, scope, s["confidence"], s["adjust"], s["draws"],
                            s["seed"])


@checked_keywords
def assurance(gap, s2, s2_new, df_new, level: float, g, average: bool = True, s2_decide=None):
    """Probability that a pair is decided once its variance falls from ``s2`` to ``s2_new``.

    Parameters
    ----------
    gap, s2 : array_like
        Today's estimated difference and its variance (any shape ``S``).
    s2_new, df_new : array_like
        Variance and degrees of freedom after the planned data (broadcast with ``S``).
    level : float
        Two-sided per-pair level (:func:`pair_level`).
    g : array_like, shape (D, *S)
        Draws of the true difference the new data converge to.
    average : bool
        Mean over the draws (default) or one conditional probability per draw.
    s2_decide : array_like, optional
        Variance the decision divides by, when it is not ``s2_new`` (population scope, more
        trials: ``s2``/``s2_new`` are the trial-noise parts, which trials remove, and
        ``s2_decide`` adds the question-sampling part, which they do not).

    Returns
    -------
    numpy.ndarray
        ``P(|ĝ'| ≥ t_{df'} s')``, shape of the broadcast (with a leading ``D`` when not
        averaged).

    Example
    -------
    >>> from scorio_core.planner import assurance
    >>> import numpy as np
    >>> g = np.random.default_rng(0).normal(0.05, 0.02, (4000, 1))
    >>> a = assurance(np.array([0.03]), 0.02**2, np.array([0.02**2 / 4, 0.02**2]), 1e9, 0.05, g)
    >>> bool(0.6 < a[0] < 1.0), float(a[1])  # no new data: today's verdict (t = 1.5, undecided)
    (True, 0.0)
    """
    gap, s2 = np.asarray(gap, dtype=float), np.asarray(s2, dtype=float)
    s2_new = np.asarray(s2_new, dtype=float)
    lam = np.clip(1.0 - s2_new / np.where(s2 > 0, s2, 1.0), 0.0, 1.0)
    lam = np.where(s2 > 0, lam, 0.0)
    sd = np.sqrt(s2 * lam * (1.0 - lam))
    crit = special.stdtrit(np.maximum(np.asarray(df_new, dtype=float), 1.0), 1.0 - level / 2)
    s2_decide = s2_new if s2_decide is None else np.asarray(s2_decide, dtype=float)
    c = crit * np.sqrt(np.maximum(s2_decide, 0.0))
    g = np.asarray(g, dtype=float)
    D = g.shape[0]
    shape = np.broadcast_shapes(gap.shape, s2.shape, s2_new.shape, np.shape(c))
    size = max(int(np.prod(shape)), 1)
    step = max(1, _CELLS // size)
    out = np.zeros(shape) if average else np.empty((D, *shape))
    for a in range(0, D, step):
        p = _law_chance(gap + lam * (g[a : a + step] - gap), sd, c)
        if average:
            out += p.sum(0)
        else:
            out[a : a + step] = p
    return out / D if average else out


_chance = assurance  # for the functions whose keyword `assurance` shadows it


def _unknown_model(name, names: list, where: str = "") -> str:
    """The error for a model name these data do not have: the names it may mean
    (:func:`~scorio_core._validation.did_you_mean`), else all of them."""
    return f"unknown model {name!r}{where}" + (did_you_mean(name, names)
                                                or f"; expected one of {names}")


def _pm(se: float) -> str:
    """``± 0.04``, or ``± <0.01`` where two decimals would print a spread of zero."""
    return f"± {se:.2f}" if se >= 0.005 else "± <0.01"


def _search(fn, start: int, cap: int, target: float, P: int) -> np.ndarray:
    """Smallest whole ``n`` in ``(start, cap]`` with ``fn(n) ≥ target`` per pair (``inf``
    when none): the first passing point of a :data:`_SEARCH_GRID`-point geometric grid
    from ``start + 1`` to ``cap``, then bisection at the geometric middle between it and
    the grid point before. The assurance grows with ``n`` except just above ``start``,
    where today's data can decide a pair that a few more questions then do not (a lead's
    question plan at N = 1): the grid's first point, ``start + 1``, finds it. A plan of
    10,000 trials costs 19 evaluations per pair (4 grid points, 15 bisection steps), where
    a 48-point grid and bisection at the arithmetic middle took 60; the same ``n`` on the
    plans ``tests/test_planner.py`` checks, and Check a smaller run about 1.4 times
    faster."""
    if P == 0 or cap <= start:
        return np.full(P, np.inf)
    grid = np.unique(np.round(np.geomspace(start + 1, cap, _SEARCH_GRID)).astype(np.int64))
    ok = fn(np.broadcast_to(grid, (P, grid.size))) >= target
    has = ok.any(1)
    idx = ok.argmax(1)
    hi = grid[idx].astype(np.int64)
    lo = np.where(idx > 0, grid[np.maximum(idx - 1, 0)], start).astype(np.int64)
    while True:
        active = has & (hi - lo > 1)
        if not active.any():
            break
        mid = np.clip(np.round(np.sqrt((lo + 1.0) * hi)).astype(np.int64), lo + 1, hi - 1)
        passed = fn(np.where(active, mid, hi)[:, None])[:, 0] >= target
        hi = np.where(active & passed, mid, hi)
        lo = np.where(active & ~passed, mid, lo)
    return np.where(has, hi.astype(float), np.inf)


@dataclass(frozen=True)
class _Geometry:
    """Pairs ``(i, j)`` of a board and the variances the projections need (weight units)."""

    i: np.ndarray
    j: np.ndarray
    gap: np.ndarray
    s2: np.ndarray  # board scope, today
    s2_trial: np.ndarray  # trial-noise part at N (NaN at N = 1)
    trial_var: np.ndarray  # (L,) each model's trial-noise variance of its mean at N
    s2_pop: np.ndarray  # population scope, today
    g: np.ndarray  # (D, P) draws of the true gap over these questions (trials converge to it)
    g_pop: np.ndarray  # (D, P) ... in the population
    between: np.ndarray  # (P,) question-sampling variance of the gap, what trials never
    #                      remove (the larger of :func:`between_quantile` at
    #                      :data:`_B_QUANTILE` and :func:`between_pooled`; where it is not
    #                      shown above zero, at least its upper bound: :data:`_B_SHOWN_Z`)
    N: int
    M: int
    level: float  # trial plans: the board's scope (pair_level(board))
    scope: str
    dof_share: np.ndarray  # (P,) questions-scope pair d.o.f. / its nominal M (N − 1): the
    #                        share kept when trials are added (within_dof)
    unshown: np.ndarray  # (P,) the between part is not shown above zero: ``between`` is at
    #                      least its one-sided upper bound (:data:`_B_SHOWN_Z`)
    between_pooled: np.ndarray  # (P,) :func:`between_pooled` alone (0 where not seen): the
    #                             unbiased part, for pairs no plan selects (decided ones)
    q_level: float  # question plans: the population scope's (pair_level(board, "population")),
    #                 the decision new questions face whatever the board's scope

    @property
    def s2_pop_planned(self) -> np.ndarray:
        """The population variance of the gap today with its question part as planned (the
        larger of the posterior median and the field-pooled moment estimate): what a
        decision after new questions divides by (× M / M'); the observed one where N = 1."""
        return np.where(np.isnan(self.between), self.s2_pop, self.between + self.s2_trial)


#: Log grid of the between-question variance of a pair's per-question difference, relative
#: to ``4 max_i var_α ȳ_iα`` (at least the observed variance of any pair's differences;
#: :func:`between_draws`): from 1e-5 of it, for pairs that move together, to 4 times it.
_LOG_B = np.linspace(np.log(1e-5), np.log(4.0), 76)
#: Posterior quantile of :func:`between_draws` below which the plans never take that
#: variance: the chance of a decision is convex in it, so averaging over its wide
#: posterior (few questions, trial noise dominant) overstates the chance. The plans take
#: the larger of this median and the field-pooled moment estimate
#: (:func:`between_pooled`), which is unbiased whatever the weights the questions deserve
#: (the posterior weights each question by ``1/(B + t_α)`` and under-states ``B`` where
#: the true differences are largest on the questions with the most trial noise) and is
#: pooled so that the pairs a plan selects -- those whose own estimate came out low -- are
#: pulled back towards the field. Population scope, M = 100, N = 8, trials planned for an
#: 80 % chance decided 64.2 % ± 3.3 (215 pairs, 3,000 fields) with the upper quartile alone,
#: 69.6 % ± 1.8 (652 pairs, 12,000 fields) with the larger of it and the pair's own moment
#: estimate, 78.0 % ± 2.0 (413 pairs, the same 12,000 fields) with this rule
#: (docs/calibration_gaps.md, gap 3).
_B_QUANTILE = 0.5
#: Where a pair's between-question variance is not shown to be above zero -- its moment
#: estimate within this many standard errors of the trial noise (:func:`_moment_terms`,
#: one-sided 95 %) -- every plan and chance reads at least its upper bound, the estimate
#: plus this many standard errors (what trials never remove is then taken large, what
#: trials can do small). The estimates alone assume the spread small there, and the pairs a
#: plan picks are those whose trial noise happened to cancel their true per-question
#: differences. Measured (docs/calibration_gaps.md, gap 3): on the bundled real run
#: (5-model sub-fields, M = 30, N = 4, population scope) such pairs' trial plans decided
#: 25 % (24, target 80 %) and their chances of a decision at 64 N trials read
#: 0.51 → 0.24 (38 pairs) and 0.68 → 0.26 (19); with the bound, no trial plan and
#: 0.29 → 0.29 (21), 0.47 → 0.40 (5).
_B_SHOWN_Z = 1.645
#: What the pairs table's note adds where that bound is planned for.
_UNSHOWN = (f"its size is not shown above zero here (within {_B_SHOWN_Z:.1f} s.e.), so its "
            "upper bound is planned for")


def _pair_differences(st, i, j) -> tuple[np.ndarray, np.ndarray]:
    """Per-question differences ``d_α = ȳ_iα − ȳ_jα`` of each pair and their trial noise
    ``t_α`` (the empirical-Bayes within variances over ``N``), both ``(P, M)``."""
    i, j = np.atleast_1d(np.asarray(i, dtype=int)), np.atleast_1d(np.asarray(j, dtype=int))
    return st.ybar[i] - st.ybar[j], (st.within[i] + st.within[j]) / max(st.N, 1)


def _moment_terms(st, i, j) -> tuple[np.ndarray, np.ndarray]:
    """Each pair's unclipped moment estimate of the between-question variance of its
    per-question differences (per question: ``s²_d − mean_α t_α``) and that estimate's
    variance from the trial noise alone, questions held fixed:
    ``(4 Σ_α c_α² t_α + 2 Σ_α t_α²) / (M − 1)²`` with ``c_α`` the centred differences
    (normal trial noise; checked against redraws of the trials on fixed questions, 0.0093
    vs 0.0102 at M = 100, N = 8)."""
    d, t = _pair_differences(st, i, j)
    M = d.shape[1]
    c = d - d.mean(1, keepdims=True)
    var = (4.0 * (c * c * t).sum(1) + 2.0 * (t * t).sum(1)) / max(M - 1, 1) ** 2
    return d.var(1, ddof=1) - t.mean(1), var


def between_pooled(st, i, j) -> np.ndarray:
    """Each pair's moment estimate of the between-question variance, pooled across the field.

    The unbiased moment estimate of every pair of the field (:func:`_moment_terms`) is
    shrunk towards the field's precision-weighted mean with the normal–normal weight
    ``τ² / (τ² + v_p)``, ``v_p`` its trial-noise variance and ``τ²`` the spread of the
    pairs' true values by DerSimonian & Laird (1986); clipped at 0, in the units of
    :func:`between_draws` (``/ M``). ``NaN`` where ``N < 2`` or ``M < 2``.

    Why: a plan is made for the pairs that look easiest to settle, and those are the pairs
    whose own estimate came out low -- at M = 100, N = 8, 91% of the pairs planned at the
    top predicted chances had an estimate below the truth (median 0.69 of it), so the plans
    over-promised. Pooling pulls those estimates back: on fields where every pair shares its
    true value, the lowest raw estimate averages 0.3–0.5 of the truth and the pooled one
    about the truth (tests/test_planner.py; docs/calibration_gaps.md, gap 3).

    Example
    -------
    >>> from scorio_core.planner import between_pooled
    >>> import numpy as np
    >>> from scorio_core.inference import score_stats
    >>> rng = np.random.default_rng(2)
    >>> p = np.clip(0.5 + 0.15 * rng.standard_normal((6, 80)), 0, 1)  # B = 2 · 0.15² per pair
    >>> c = rng.binomial(8, p)
    >>> st = score_stats(np.stack([8 - c, c], -1), np.array([0.0, 1.0]))
    >>> B = between_pooled(st, [0, 2], [1, 5]) * 80
    >>> bool(np.all(np.abs(B - 0.045) < 0.015))
    True
    """
    i, j = np.atleast_1d(np.asarray(i, dtype=int)), np.atleast_1d(np.asarray(j, dtype=int))
    L = st.ybar.shape[0]
    if st.N < 2 or st.M < 2 or L < 2:
        return np.full(i.size, np.nan)
    iu, ju = np.triu_indices(L, 1)
    est, var = _moment_terms(st, iu, ju)
    post = est
    top = float(np.max(var))
    if iu.size > 1 and top > 0:  # no trial noise anywhere (all right or all wrong): as is
        var = np.maximum(var, 1e-12 * top)  # a pair without trial noise: nearly exact
        w = 1.0 / var
        mean = float((w * est).sum() / w.sum())
        q = float((w * (est - mean) ** 2).sum())
        denom = float(w.sum() - (w * w).sum() / w.sum())
        tau2 = max(0.0, (q - (iu.size - 1)) / denom) if denom > 0 else 0.0
        post = mean + tau2 / (tau2 + var) * (est - mean)
    a, b = np.minimum(i, j), np.maximum(i, j)
    k = a * L - a * (a + 1) // 2 + (b - a - 1)  # position of (a, b) in triu order
    return np.maximum(post[k], 0.0) / st.M


def between_moment(st, i, j) -> np.ndarray:
    """Moment estimate of the question-sampling variance of each pair's mean difference.

    ``max(s²_d − mean_α t_α, 0) / M``: the sample variance of the per-question differences
    ``d_α = ȳ_iα − ȳ_jα`` over the questions less their mean trial noise ``t_α`` (the
    empirical-Bayes within variances over ``N``), in the units of :func:`between_draws`.
    Unbiased before the clip whatever the weights the questions deserve; ``NaN`` where
    ``N < 2`` or ``M < 2``.

    Example
    -------
    >>> from scorio_core.planner import between_moment
    >>> import numpy as np
    >>> from scorio_core.inference import score_stats
    >>> p = np.tile(np.linspace(0.2, 0.8, 500), (3, 1))
    >>> p[2] += np.where(np.arange(500) % 2, 0.15, -0.15)  # third model: ±0.15 per question
    >>> c = np.random.default_rng(1).binomial(16, p)
    >>> st = score_stats(np.stack([16 - c, c], -1), np.array([0.0, 1.0]))
    >>> B = between_moment(st, [0, 0], [1, 2]) * 500  # per-question variance
    >>> bool(B[0] < 0.005), bool(0.015 < B[1] < 0.03)  # true: 0 and 0.15² = 0.0225
    (True, True)
    """
    if st.N < 2 or st.M < 2:
        return np.full(np.atleast_1d(i).size, np.nan)
    return np.maximum(_moment_terms(st, i, j)[0], 0.0) / st.M


def _between_posterior(st, i, j) -> tuple[np.ndarray, np.ndarray]:
    """Grid ``(G,)`` of the between-question variance ``B`` of a pair's per-question
    differences (absolute units) and each pair's posterior weights on it ``(P, G)``; see
    :func:`between_draws`. The grid comes from the whole field (``4 max_i var_α ȳ_iα``
    bounds the variance of any pair's differences), so a pair's posterior does not depend
    on which other pairs are asked about in the same call."""
    M = st.M
    d, t = _pair_differences(st, i, j)
    P = d.shape[0]
    top = 4.0 * float(st.ybar.var(1, ddof=1).max()) if M >= 2 else 0.0
    Bg = (top + 1e-12) * np.exp(_LOG_B)  # (G,)
    ll = np.empty((P, Bg.size))
    step = max(1, _CELLS // (Bg.size * M))
    for a in range(0, P, step):
        sl = slice(a, a + step)
        V = Bg[None, :, None] + t[sl, None, :] + 1e-15  # (p, G, M)
        w = 1.0 / V
        sw = w.sum(-1)
        mu = (w * d[sl, None, :]).sum(-1) / sw
        r2 = (w * (d[sl, None, :] - mu[..., None]) ** 2).sum(-1)
        ll[sl] = -0.5 * (np.log(V).sum(-1) + np.log(sw) + r2)
    # flat prior on B: a log-grid cell holds dB = B d(log B)
    lik = np.exp(ll - ll.max(1, keepdims=True)) * Bg[None, :]  # (P, G)
    return Bg, lik / lik.sum(1, keepdims=True)


def between_draws(st, i, j, draws: int, seed: int = 0) -> np.ndarray:
    """Posterior draws of the question-sampling variance of each pair's mean difference.

    Per question the paired difference ``d_α = ȳ_iα − ȳ_jα`` is ``N(μ, B + t_α)``: ``B``
    the between-question variance of the true differences, ``t_α`` the trial noise of
    that question (the empirical-Bayes within variances over ``N``). Each pair's
    restricted likelihood of ``B`` (``μ`` integrated out: a random-effects meta-analysis of
    the questions) on a 76-point log grid (:data:`_LOG_B`), with a flat prior on ``B``;
    each grid point stands for its cell (log-uniform within it). Returns draws of
    ``B / M`` (scaled units), shape ``(draws, P)``: the part of the population-scope
    variance that no number of trials removes. Uncertain when trial noise dominates (small
    ``N``), and the draws say so instead of a clipped point estimate of zero, which would
    promise decisions that never come. The plans use its median (:func:`between_quantile`,
    exact) or :func:`between_pooled`, whichever is larger.

    Example
    -------
    >>> from scorio_core.planner import between_draws
    >>> import numpy as np
    >>> from scorio_core.inference import score_stats
    >>> rng = np.random.default_rng(0)
    >>> flip = rng.choice([-1, 1], 200)
    >>> p = np.clip(rng.uniform(0.2, 0.8, (1, 200)) + [[0.0], [0.2]] * flip, 0, 1)
    >>> c = rng.binomial(16, p)
    >>> st = score_stats(np.stack([16 - c, c], -1), np.array([0.0, 1.0]))
    >>> B = between_draws(st, [0], [1], 4000) * 200  # per-question variance
    >>> bool(0.025 < np.median(B) < 0.06)  # true: 0.2² = 0.04
    True
    """
    M, N = st.M, st.N
    P = np.atleast_1d(np.asarray(i)).size
    rng = stream([int(seed), 3])
    if N < 2 or M < 2 or P == 0:
        return np.full((draws, P), np.nan)
    Bg, post = _between_posterior(st, i, j)
    cdf = np.cumsum(post, 1)
    u = rng.random((draws, P))
    k = np.stack([np.searchsorted(cdf[q], u[:, q]) for q in range(P)], 1)
    k = np.minimum(k, Bg.size - 1)  # (D, P)
    # spread each draw across its grid cell (the grid is not the posterior's support)
    out = Bg[k] * np.exp((rng.random(k.shape) - 0.5) * (_LOG_B[1] - _LOG_B[0]))
    return out / M


def between_quantile(st, i, j, q: float = 0.5) -> np.ndarray:
    """The ``q`` quantile of :func:`between_draws`' posterior, exactly (no draws): the
    same for a pair whichever other pairs are asked about, and from one call to the next.

    Example
    -------
    >>> from scorio_core.planner import between_quantile
    >>> import numpy as np
    >>> from scorio_core.inference import score_stats
    >>> c = np.random.default_rng(1).binomial(8, np.full((3, 60), 0.5))  # no true spread
    >>> st = score_stats(np.stack([8 - c, c], -1), np.array([0.0, 1.0]))
    >>> lo, med, hi = (between_quantile(st, [0, 0], [1, 2], q) for q in (0.25, 0.5, 0.75))
    >>> bool(np.all(lo < med) and np.all(med < hi))
    True
    >>> bool(np.array_equal(med[:1], between_quantile(st, [0], [1])))  # whatever else is asked
    True
    """
    M, N = st.M, st.N
    P = np.atleast_1d(np.asarray(i)).size
    if N < 2 or M < 2 or P == 0:
        return np.full(P, np.nan)
    Bg, post = _between_posterior(st, i, j)
    cdf = np.cumsum(post, 1)
    k = np.minimum((cdf < q).sum(1), Bg.size - 1)  # the cell where the cdf reaches q
    below = np.where(k > 0, cdf[np.arange(P), np.maximum(k - 1, 0)], 0.0)
    f = np.clip((q - below) / np.maximum(post[np.arange(P), k], 1e-300), 0.0, 1.0)
    return Bg[k] * np.exp((f - 0.5) * (_LOG_B[1] - _LOG_B[0])) / M


def _geometry(board: Leaderboard, i, j, draws: int = _PLAN_DRAWS, seed: int | None = None
              ) -> _Geometry:
    inf, st = board.inference, board.stats
    span2 = (st.hi_b - st.lo_b) ** 2
    i, j = np.asarray(i, dtype=int), np.asarray(j, dtype=int)
    cq, df_q, ok_q = scope_covariance(st, "questions")
    cp, df_p, ok_p = scope_covariance(st, "population")
    # the population gap draws read the field posterior p_best reads (its shrunk covariance)
    fp = field_covariance(st, "population", cp)[0] * span2 if ok_p else None
    cq, cp = cq * span2, cp * span2
    vq = np.diag(cq)
    s2_trial = vq[i] + vq[j] if ok_q else np.full(i.size, np.nan)
    s2_pop = cp[i, i] + cp[j, j] - 2 * cp[i, j]
    x = inf.score
    seed = int(board.settings.get("seed", 0)) if seed is None else int(seed)
    # M = 1: the question-to-question spread is unseen (NaN draws: nothing is planned on it)
    prior = board.spread_prior  # a learned prior on the field's spread, per scope

    def spread(scope):
        if prior is None:
            return None
        return prior.on(scope, st.hi_b - st.lo_b) if prior.has(scope) else None

    Sp = (field_draws(x, inflate(fp, df_p), draws, seed, spread("population")) if ok_p
          else np.full((draws, x.size), np.nan))
    # more trials converge to the mean over these questions: its draws in both scopes
    S = field_draws(x, inflate(cq, df_q), draws, seed, spread("questions")) if ok_q else Sp
    nominal = float(st.M * (st.N - 1))
    share = np.clip(df_q[i, j] / nominal, 0.0, 1.0) if ok_q and nominal > 0 else np.ones(i.size)
    s2 = s2_pop if board.settings["scope"] == "population" else s2_trial
    pooled = between_pooled(st, i, j)
    between = np.maximum(between_quantile(st, i, j, _B_QUANTILE), pooled)
    unshown = np.zeros(i.size, dtype=bool)
    if st.N >= 2 and st.M >= 2 and i.size:  # where the spread is not shown: its upper bound
        est, var = _moment_terms(st, i, j)
        unshown = est <= _B_SHOWN_Z * np.sqrt(var)
        upper = np.maximum(est + _B_SHOWN_Z * np.sqrt(var), 0.0) / st.M
        between = np.where(unshown, np.maximum(between, upper), between)
    return _Geometry(
        i, j, x[i] - x[j], s2, s2_trial, vq, s2_pop, S[:, i] - S[:, j], Sp[:, i] - Sp[:, j],
        between * span2, int(st.N), int(st.M), pair_level(board), board.settings["scope"],
        share, unshown, np.nan_to_num(pooled) * span2, pair_level(board, "population"),
    )


def _trial_fn(geo: _Geometry, sel=slice(None)):
    """``n ↦ assurance`` with every model at ``n`` trials per question, in the board's scope."""
    N, M = geo.N, geo.M
    gap, s2, g = geo.gap[sel], geo.s2[sel], geo.g[:, sel]
    chance = assurance.__wrapped__  # once per step of the search: unchecked
    if geo.scope == "questions":
        share = geo.dof_share[sel][:, None]

        def fn(n):
            return chance(gap[:, None], s2[:, None], s2[:, None] * N / n,
                          share * M * (n - 1), geo.level, g[..., None])
    else:
        tr = np.nan_to_num(geo.s2_trial[sel])
        inf_part = geo.between[sel][:, None]

        def fn(n):
            return chance(gap[:, None], tr[:, None], tr[:, None] * N / n, M - 1, geo.level,
                          g[..., None], s2_decide=inf_part + tr[:, None] * N / n)
    return fn


def _plan_law(geo: _Geometry, n: np.ndarray, kind: str):
    """The law of the future gap estimate given a *fixed* true gap ``g`` (no prior on it).

    Returns ``(κ, sd, c)`` per pair for the plan ``n`` (trials per question, or questions):
    the future estimate is ``N(ĝ + κ (g − ĝ), sd²)`` and the pair is decided when it is at
    least ``c`` either way. ``g`` is the gap the plan converges to: for trials, the board's
    estimand (the gap over these questions in the questions scope, over the population in
    the population scope); for questions, always the population gap (new questions are drawn
    from it, and their plan is a population-scope plan, decided at that scope's level,
    :attr:`_Geometry.q_level`). For questions, and for trials in
    the questions scope, ``κ = λ`` and ``sd² = s² λ (1 − λ)`` exactly as :func:`assurance`.
    For trials in the population scope the new trials converge to the gap over *these*
    questions, ``g_M ~ N(g, B)`` (``B`` the question-sampling variance, ``T`` today's trial
    noise, ``λ = 1 − N/n``), which today's estimate has partly seen:
    ``g_M | ĝ, g ~ N(ĝ + (g − ĝ) T/(B + T), B T/(B + T))``, so ``κ = λ T/(B + T)`` and
    ``sd² = λ² B T/(B + T) + T λ (1 − λ)``.
    """
    n = np.asarray(n, dtype=float)
    N, M, q = geo.N, geo.M, special.stdtrit
    tail = 1.0 - (geo.q_level if kind == "questions" else geo.level) / 2

    def per_pair(a):  # (P,) against n of shape (P,) or (P, G)
        return np.asarray(a, dtype=float).reshape((-1,) + (1,) * (n.ndim - 1))

    if kind == "questions":
        s2 = per_pair(geo.s2_pop)
        lam = 1.0 - M / n
        c = q(np.maximum(n - 1, 1.0), tail) * np.sqrt(per_pair(geo.s2_pop_planned) * M / n)
        return lam, np.sqrt(s2 * lam * (1 - lam)), c
    lam = 1.0 - N / n
    if geo.scope == "questions":
        s2 = per_pair(geo.s2)
        c = (q(np.maximum(per_pair(geo.dof_share) * M * (n - 1), 1.0), tail)
             * np.sqrt(s2 * N / n))
        return lam, np.sqrt(s2 * lam * (1 - lam)), c
    T, B = per_pair(np.nan_to_num(geo.s2_trial)), per_pair(geo.between)
    share = T / np.where(B + T > 0, B + T, 1.0)
    sd2 = lam * lam * B * share + T * lam * (1 - lam)
    c = q(max(M - 1, 1), tail) * np.sqrt(B + T * N / n)
    return lam * share, np.sqrt(np.maximum(sd2, 0.0)), c


def _law_chance(m, sd, c) -> np.ndarray:
    """``P(|N(m, sd²)| ≥ c)``: the chance of a decision when the future estimate has mean
    ``m`` (a point mass where ``sd = 0``, which decides only a non-zero gap)."""
    m, sd, c = (np.asarray(v, dtype=float) for v in (m, sd, c))
    pos = sd > 0
    sdd = np.where(pos, sd, 1.0)
    return np.where(pos, special.ndtr((m - c) / sdd) + special.ndtr((-m - c) / sdd),
                    (np.abs(m) >= c) & (np.abs(m) > 0))


def _plan_chance_at(geo: _Geometry, n, kind: str, g) -> np.ndarray:
    n = np.asarray(n, dtype=float)
    kappa, sd, c = _plan_law(geo, n, kind)
    shape = (-1,) + (1,) * (n.ndim - 1)
    gap = geo.gap.reshape(shape)
    return _law_chance(gap + kappa * (np.asarray(g, dtype=float).reshape(shape) - gap), sd, c)


def _detectable(gap, kappa, sd, c, target: float) -> np.ndarray:
    """Smallest true lead ``δ > 0`` of the pair's first model (``gap`` is today's estimate
    of its lead, either sign) that is decided with at least ``target`` chance under
    :func:`_plan_law`, whatever the lead beyond it (``inf`` where ``κ = 0``).

    The chance ``Φ((m − c)/sd) + Φ((−m − c)/sd)`` grows with ``|m|``, ``m`` the future
    estimate's mean ``ĝ (1 − κ) + κ g``; with ``m*`` the mean at which it reaches
    ``target`` (bisection), ``δ = (m* − ĝ (1 − κ)) / κ``. Where that is not above zero,
    today's gap, diluted by the new data, reaches the target with no true lead at all:
    the plan would "decide" a tie as often (a false decision), so it states no smallest
    lead -- NaN, not the 0 this once returned, which read as "decides any lead" (where the
    plan can be made, :func:`plannable`, a NaN gap means exactly this)."""
    gap, kappa = np.asarray(gap, dtype=float), np.asarray(kappa, dtype=float)
    sd, c = np.asarray(sd, dtype=float), np.asarray(c, dtype=float)

    def chance(m):
        return _law_chance(m, sd, c)

    lo, hi = np.zeros_like(c), c + 12.0 * sd + 1e-300
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        ok = chance(mid) >= target
        hi, lo = np.where(ok, mid, hi), np.where(ok, lo, mid)
    m = np.where(chance(lo) >= target, lo, hi)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (m - gap * (1.0 - kappa)) / kappa
    return np.where(kappa > 0, np.where(out > 0, out, np.nan), np.inf)


def _named_pairs(board: Leaderboard, upper: str | Sequence[str], lower: str | Sequence[str],
                 n: float | str | Sequence[float]) -> tuple[_Geometry, np.ndarray]:
    """The pairs ``upper[k]`` over ``lower[k]`` at plan sizes ``n[k]``: names read as
    ``--pair`` reads them (one name, a list, or one string split at the commas where every
    part is a model: ``"a,b"`` had been the unknown model ``'a,b'``), sizes as
    :func:`_numbers`."""
    names = list(board.models)
    up, lo = (as_names(v, what, noun="model names", example="model_0,model_1", among=names)
              for v, what in ((upper, "upper"), (lower, "lower")))
    for m in (*up, *lo):
        if m not in names:
            raise ValidationError(_unknown_model(m, names))
    n = _numbers("n", n)
    if not len(up) == len(lo) == n.size:
        raise ValidationError("upper, lower and n must have the same length; got "
                              f"{len(up)}, {len(lo)} and {n.size}")
    i = np.array([names.index(m) for m in up], dtype=int)
    j = np.array([names.index(m) for m in lo], dtype=int)
    return _geometry(board, i, j), n  # the draws pair_needs uses: the same between part


def _numbers(name: str, values) -> np.ndarray:
    """``values`` as a 1-d float array (NaN and inf allowed: no plan), or a clear error: a
    list, one number or a comma-separated string (:func:`as_numbers`: ``"16,256"`` had been
    refused as not numbers)."""
    given = as_numbers(values, name, kind=float, example="16,256")
    try:
        out = np.asarray(given, dtype=float)
    except (TypeError, ValueError):
        raise ValidationError(f"{name} must be numbers; got {values!r}") from None
    if out.ndim != 1:
        raise ValidationError(f"{name} must be a number or a list of numbers; got shape "
                              f"{out.shape}")
    return out


def _check_kind(kind: str) -> str:
    if kind not in ("trials", "questions"):
        raise ValidationError(f"kind must be 'trials' or 'questions'; got {kind!r}")
    return kind


@renamed_keyword("assurance_level", "assurance")
@checked_keywords
def detectable_gaps(board: Leaderboard, upper: str | Sequence[str], lower: str | Sequence[str],
                    n: float | str | Sequence[float], kind: str = "trials",
                    assurance: float = ASSURANCE) -> np.ndarray:
    """Smallest true lead of ``upper`` over ``lower`` that ``n`` trials per question
    (``kind="trials"``, every model) or ``n`` questions (``"questions"``, at today's ``N``)
    decide with ``assurance`` chance, given today's data.

    Unlike :func:`pair_assurance` this assumes nothing about how large the lead is (no
    posterior of the field): on every field where ``upper`` truly leads by at least this
    much (trials: in the board's scope; questions: in the population), the plan decides
    the pair with at least that chance (the plan's power at that lead,
    :func:`decision_chance`); ``inf``: no lead within the score range would; NaN where the
    plan is not finite or cannot be made (``N = 1`` for trials, ``M = 1``), or where today's
    gap alone carries the decision -- the plan would decide a true tie as often, so no
    lead is stated (it is never 0: no plan decides a tie). ``upper``,
    ``lower``, ``n``: sequences of the same length (one pair: one name and one number);
    each may be one comma-separated string as the command line types it
    (``"model_0,model_0"``, ``"16,256"``; a name holding a comma is split off as
    ``--pair`` does). ``assurance_level=``, the old name of ``assurance``, still works with
    a ``FutureWarning``.

    Example
    -------
    >>> from scorio_core.planner import detectable_gaps, decision_chance
    >>> import numpy as np
    >>> from scorio_core.leaderboard import leaderboard
    >>> R = (np.random.default_rng(0).random((2, 30, 4)) < [[[.6]], [[.5]]]).astype(int)
    >>> b = leaderboard(R)
    >>> d = detectable_gaps(b, ["model_0"] * 2, ["model_1"] * 2, [16, 256])
    >>> bool(0 < d[1] < d[0])  # more trials decide a smaller lead
    True
    >>> decision_chance(b, ["model_0"], ["model_1"], [256], d[1:]).round(3).tolist()
    [0.8]
    """
    kind = _check_kind(kind)
    target = _check_assurance(assurance)
    geo, n = _named_pairs(board, upper, lower, n)
    return _plan_gaps(geo, n, kind, target, board.stats.hi_b - board.stats.lo_b)


@checked_keywords
def decision_chance(board: Leaderboard, upper: str | Sequence[str], lower: str | Sequence[str],
                    n: float | str | Sequence[float], true_gap: float | str | Sequence[float],
                    kind: str = "trials") -> np.ndarray:
    """Chance that ``n`` trials per question (``kind="trials"``) or ``n`` questions
    (``"questions"``) decide each pair if ``upper`` truly leads ``lower`` by ``true_gap``
    (negative: trails; trials: in the board's scope, questions: in the population), given
    today's data -- the law that :func:`detectable_gaps` inverts. The future estimate is
    ``N(ĝ + κ (g − ĝ), sd²)`` (:func:`_plan_law`); decided when it reaches the ``t``
    threshold at :func:`pair_level` either way (questions: the population scope's level).
    NaN where the plan cannot be made (``n`` not beyond today's ``N`` / ``M``, ``N = 1`` for
    trials, ``M = 1``). ``upper``, ``lower``, ``n`` as in :func:`detectable_gaps`;
    ``true_gap``: one number, or one per pair (a list or ``"0.1,0.2"``).

    Example
    -------
    >>> from scorio_core.planner import decision_chance
    >>> import numpy as np
    >>> from scorio_core.leaderboard import leaderboard
    >>> R = (np.random.default_rng(0).random((2, 30, 4)) < [[[.6]], [[.5]]]).astype(int)
    >>> a = decision_chance(leaderboard(R), ["model_0"] * 3, ["model_1"] * 3, [64] * 3,
    ...                     [0.0, 0.1, 0.3])
    >>> bool(a[0] < a[1] < a[2])
    True
    """
    kind = _check_kind(kind)
    geo, n = _named_pairs(board, upper, lower, n)
    g = _numbers("true_gap", true_gap)
    if g.size not in (1, n.size):
        raise ValidationError(f"true_gap must be one number or one per pair ({n.size}); got "
                              f"{g.size}")
    g = np.broadcast_to(g, n.shape)
    start, usable = _usable(geo, n, kind)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = _plan_chance_at(geo, np.where(usable, n, start + 1.0), kind, g)
    return np.where(usable, out, np.nan)


@renamed_keyword("assurance_level", "assurance")
@checked_keywords
def gap_curve(board: Leaderboard, upper: str, lower: str, trials=(), questions=(),
              assurance: float = ASSURANCE) -> pd.DataFrame:
    """The smallest true lead of ``upper`` over ``lower`` that each plan decides with
    ``assurance`` chance, on any field: :func:`detectable_gaps` along a grid of
    trials per question (every model) and of questions (at today's ``N``) -- the pair's
    power curve, which assumes nothing about how large the lead is.

    Parameters
    ----------
    board : Leaderboard
    upper, lower : str
        The pair (``upper``'s lead is the one planned for).
    trials, questions : sequence of int
        Plan sizes: trials per question and questions (those not beyond today's ``N`` /
        ``M`` are left out: they are no plan); one number, or a comma-separated string
        (``"16,256"``).
    assurance : float
        Target chance of a decision (default 0.8). ``assurance_level=``, its old name, still
        works with a ``FutureWarning``.

    Returns
    -------
    pandas.DataFrame
        One row per plan: ``plan`` (``"trials"`` or ``"questions"``), ``n`` (its size),
        ``smallest_lead`` (trials: a lead in the board's scope; questions: over the
        population; ``inf``: none within the score range; NaN: no plan of this kind on
        these data, e.g. trials at ``N = 1``, or -- where :func:`plannable` -- a plan so
        close to today's data that they decide the pair whatever the lead, a true tie
        included, so it states none) and ``gap_now`` (today's estimate of the lead, the
        same on every row).

    Example
    -------
    >>> from scorio_core.planner import gap_curve
    >>> import numpy as np
    >>> from scorio_core.leaderboard import leaderboard
    >>> R = (np.random.default_rng(0).random((2, 30, 4)) < [[[.6]], [[.5]]]).astype(int)
    >>> t = gap_curve(leaderboard(R), "model_0", "model_1", [4, 16, 256], [60, 240])
    >>> t[["plan", "n"]].values.tolist()  # 4 trials: today's N, no plan
    [['trials', 16], ['trials', 256], ['questions', 60], ['questions', 240]]
    >>> bool(t["smallest_lead"].iloc[1] < t["smallest_lead"].iloc[0])
    True
    """
    target = _check_assurance(assurance)
    geo, _ = _named_pairs(board, [upper], [lower], [0])  # one pair, every plan size below
    span = board.stats.hi_b - board.stats.lo_b
    rows = []
    for kind, n in (("trials", trials), ("questions", questions)):
        n = _numbers(kind, n)
        if np.any(~np.isfinite(n) | (n < 1) | (n != np.round(n))):
            raise ValidationError(f"{kind} must be whole numbers >= 1; got {n.tolist()}")
        n = n[n > (geo.N if kind == "trials" else geo.M)]
        if n.size:
            lead = _plan_gaps(geo, n[None, :], kind, target, span)[0]
            rows.append(pd.DataFrame({"plan": kind, "n": n.astype(np.int64),
                                      "smallest_lead": lead}))
    out = (pd.concat(rows, ignore_index=True) if rows
           else pd.DataFrame({"plan": pd.Series(dtype=object), "n": pd.Series(dtype=np.int64),
                              "smallest_lead": pd.Series(dtype=float)}))
    out["gap_now"] = geo.gap[0]
    return out


@checked_keywords
def plannable(kind: str, N: int, M: int, scope: str) -> bool:
    """Whether a plan of this kind can be made on data of ``N`` trials per question and
    ``M`` questions in ``scope``: trials need ``N ≥ 2`` (trial noise seen) and, outside the
    questions scope, ``M ≥ 2``; questions need ``M ≥ 2`` (the question-to-question spread
    seen). Where a plan can be made, a missing stated gap (``trials_gap``,
    ``questions_gap``, :func:`gap_curve`'s ``smallest_lead``) means today's data decide the
    pair with the target chance whatever the lead: no smallest lead to state.

    Example
    -------
    >>> from scorio_core.planner import plannable
    >>> plannable("trials", 1, 30, "questions"), plannable("questions", 1, 30, "questions")
    (False, True)
    """
    if kind == "questions":
        return M >= 2
    return N >= 2 and (M >= 2 or scope == "questions")


def _can_plan(geo: _Geometry, kind: str) -> bool:
    """:func:`plannable` for the pairs of ``geo``."""
    return plannable(kind, geo.N, geo.M, geo.scope)


def _usable(geo: _Geometry, n: np.ndarray, kind: str) -> tuple[int, np.ndarray]:
    """Today's count the plan starts from, and where the plan ``n`` is one (finite, beyond
    it, and possible on these data: :func:`_can_plan`)."""
    start = geo.M if kind == "questions" else geo.N
    return start, np.isfinite(n) & (n > start) & _can_plan(geo, kind)


def _plan_gaps(geo: _Geometry, n: np.ndarray, kind: str, target: float, span: float
               ) -> np.ndarray:
    """:func:`_detectable` of each pair's plan ``n``; NaN where there is no finite plan or
    today's data decide the pair whatever the lead, ``inf`` where no lead within the score
    range would do."""
    start, usable = _usable(geo, n, kind)
    nn = np.where(usable, n, start + 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa, sd, c = _plan_law(geo, nn, kind)
        out = _detectable(geo.gap, kappa, sd, c, target)
    out = np.where(out > span, np.inf, out)
    return np.where(usable, out, np.nan)


@checked_keywords
def pair_assurance(board: Leaderboard, upper: str, lower: str,
                   n_values: int | str | Sequence[int]) -> np.ndarray:
    """P(the pair is decided) with every model at each ``n`` of ``n_values`` trials per
    question (board's scope and control: a list, one number or ``"4,64"``); NaN below
    today's ``N`` (and at ``N = 1`` in the questions scope, where trial noise is not
    identified).

    Example
    -------
    >>> from scorio_core.planner import pair_assurance
    >>> import numpy as np
    >>> from scorio_core.leaderboard import leaderboard
    >>> R = (np.random.default_rng(0).random((2, 30, 4)) < [[[.6]], [[.5]]]).astype(int)
    >>> a = pair_assurance(leaderboard(R), "model_0", "model_1", [2, 4, 64, 1024])
    >>> bool(np.isnan(a[0])) and bool(a[1] <= a[2] <= a[3])
    True
    """
    names = list(board.models)
    for m in (upper, lower):
        if m not in names:
            raise ValidationError(_unknown_model(m, names))
    geo = _geometry(board, [names.index(upper)], [names.index(lower)])
    n = whole_numbers(n_values, "n_values", example="4,64").astype(float)  # "4,64", not 4, ',' ...
    if geo.N < 2:
        return np.full(n.size, np.nan)
    out = _trial_fn(geo)(np.maximum(n, geo.N)[None, :])[0]
    return np.where(n < geo.N, np.nan, out)


#: The opening of the pairs table's note at ``N = 1``.
_ONE_TRIAL = "N = 1: trial noise is not seen, so trials cannot be planned"
#: The pairs table's note where ``trials_needed_papers`` reads "met now" beside a pair the
#: board leaves undecided (N ≥ 2): two verdicts in one row, said apart.
_PAPERS_MET = ("trials_needed_papers reads 'met now': the papers' rule (a one-sided z on "
               "Bayes@N, no multiplicity control) is met with today's trials, while the "
               "calibrated two-sided, adjusted test does not decide it yet")


def _below_papers_text(trials: float, papers: float, gap: float, t: float, target: float,
                       trials_gap: float, ahead: float, behind: float, at_gap: float,
                       nxt: str) -> str:
    """Why a pair's ``trials_needed`` (a ``target`` chance, 80%) is below the papers' 50%
    point ``papers``: their expected-z rule takes today's ``gap`` as the true lead, while
    the plan averages the chance of a decision (either way) over the lead's posterior. With
    today's ``t`` small that posterior is wide: ``ahead`` of it lies on leads of at least
    ``trials_gap``, which ``trials`` decide with at least the target chance, and ``behind``
    on the ``nxt`` model leading, which counts when decided that way round; a lead of exactly
    ``gap`` is decided only ``at_gap`` of the time.

    Example
    -------
    >>> from scorio_core.planner import _below_papers_text
    >>> text = _below_papers_text(319, 638, 0.01, 0.21, 0.8, 0.0167, 0.44, 0.42, 0.392, "b")
    >>> text.split(" (")[0]
    "trials_needed is below the papers' 638 although it aims for an 80% chance"
    >>> [x in text for x in ("today's gap 0.0100 as the true lead", "44.0% of it on leads of at "
    ...  "least trials_gap 0.0167", "42.0% on b leading", "decided only 39.2% of the time")]
    [True, True, True, True]
    """
    lead, text = format_number(abs(gap), 4), format_number(trials, integer=True)
    out = (f"trials_needed is below the papers' {format_number(papers, integer=True)} although it "
           f"aims for {a_chance(target)} (theirs is a 50% point): their rule takes today's gap "
           f"{lead} as the true lead, while trials_needed averages over the lead's posterior, "
           f"wide at today's t = {t:.2f}: ")
    if np.isfinite(trials_gap):
        out += (f"{share_percent(ahead)} of it on leads of at least trials_gap "
                f"{format_number(trials_gap, 4)}, which {text} trials decide with at least that "
                "chance, and ")
    return (out + f"{share_percent(behind)} on {nxt} leading, which counts when decided that "
            f"way round (a true lead of exactly {lead} would be decided only "
            f"{share_percent(at_gap)} of the time)")


#: A plan's note says how far the field's model shrinks today's lead when the median of its
#: draws of the true lead is below this share of today's gap: the plan averages its chance
#: over those draws, so it can ask several times what a plan for today's gap would.
SHRUNK_SHARE = 0.8
#: ... said only for a pair whose ``|t|`` today is at least this (a lead the data already
#: show at the two-sided 5% level, before multiplicity control): a smaller one is expected
#: to shrink, and its plan is large for that reason alone.
_CLEAR_T = 1.96


def _shrunk_text(kind: str, gap: float, draws: np.ndarray) -> str:
    """Why a pair's ``kind`` plan (``"trials"``/``"questions"``) is larger than one planned
    for today's ``gap``: the field's hierarchical posterior (``draws`` of the true lead of
    ``better``, the model behind ``p_best``) pulls a model that stands apart from the
    others back towards them, and the plan averages the chance of a decision over those
    draws; empty where the median draw is at least :data:`SHRUNK_SHARE` of today's gap.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.planner import _shrunk_text
    >>> draws = np.linspace(-0.02, 0.16, 1001)  # median 0.07, a quarter below 0.025
    >>> print(_shrunk_text("questions", 0.108, draws))
    questions_needed averages over the field's model of the true lead, which pulls this pair \
towards the other models: median 0.0700 against today's 0.1080, 25.0% of it below 0.0250 \
(questions_gap says what the plan decides whatever the field)
    >>> _shrunk_text("questions", 0.108, np.full(9, 0.1))
    ''
    """
    lead = np.sign(gap) * np.asarray(draws, dtype=float)
    lead = lead[np.isfinite(lead)]
    if not lead.size or not np.isfinite(gap) or gap == 0:
        return ""
    median = float(np.median(lead))
    if median >= SHRUNK_SHARE * abs(gap):
        return ""
    low = float(np.quantile(lead, 0.25))
    return (f"{kind}_needed averages over the field's model of the true lead, which pulls this "
            f"pair towards the other models: median {format_number(median, 4)} against today's "
            f"{format_number(abs(gap), 4)}, {share_percent(0.25)} of it below "
            f"{format_number(low, 4)} ({kind}_gap says what the plan decides whatever the field)")


def _one_trial_text(scope: str, met: bool, carried_q: bool, M: int) -> str:
    """The note of a pair at ``N = 1``: why no trials are planned, what the papers' "met
    now" beside it is (Bayes@N's uniform prior stands in for the unseen trial noise), and
    whether the population scope already decides it with today's questions (then a question
    plan only keeps it decided and states no ``questions_gap``)."""
    parts = [_ONE_TRIAL + (" and this scope decides no pair" if scope == "questions" else "")]
    if met:
        parts.append("'met now' in trials_needed_papers reads the papers' Bayes@N, whose "
                     "uniform prior stands in for that noise (their verdict, not a plan)")
    if carried_q:
        parts.append(_carried_text("questions", scope, M))
    parts.append("run at least 2 trials per question"
                 + (", or read the population scope" if carried_q and scope == "questions"
                    else "" if carried_q else ", or add questions"))
    return "; ".join(parts)


def _carried_text(kind: str, scope: str, M: int) -> str:
    """Why a finite plan has no stated gap: today's data carry its decision."""
    tie = "it would decide a tie as often"
    if kind == "questions":
        return (f"today's {M:,} questions already meet the question plans' rule "
                "(population scope), so a question plan only keeps it decided whatever the "
                f"lead (no questions_gap: {tie})")
    if scope == "population":
        return (f"its trial plan decides the gap over these questions whatever the population "
                f"lead (no trials_gap: {tie}); add questions for a stated lead")
    return ("today's trials already meet the trial plans' rule, so trials_needed only keeps "
            f"it decided whatever the lead (no trials_gap: {tie})")


def _first_clause(note: str) -> str:
    """A pair's note up to its first ``"; "`` outside parentheses: the reason its trials are
    limited (:meth:`Plan.budget_why` quotes it without the rest of the row's note).

    Example
    -------
    >>> from scorio_core.planner import _first_clause
    >>> _first_clause("cannot (a; b); add questions")
    'cannot (a; b)'
    """
    depth = 0
    for k, ch in enumerate(note):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and note.startswith("; ", k):
            return note[:k]
    return note


def _base_note(geo: _Geometry, trials: float, unsettled: float, unshown: bool,
               target: float, carried_t: bool) -> str:
    """The note of a pair at ``N ≥ 2`` (not identical): what limits its trial plan."""
    if geo.M < 2:
        return ("M = 1: the question-to-question spread is not seen, so questions "
                + ("and trials cannot" if geo.scope == "population" else "cannot")
                + " be planned; add at least one more question")
    if geo.scope == "population" and not np.isfinite(trials):
        best = 1 - unsettled  # "at most 0.0%" read as "impossible": it is only small
        pct, least = share_percent(best), 10.0 ** -(SHARE_DECIMALS + 2)  # 0.1%
        reach = f"below {share_percent(least)}" if best < least else f"at most {pct}"
        return (f"{CANNOT_SETTLE} with {percent(target)} chance ({reach}: the "
                "question-to-question spread remains"
                + (f"; {_UNSHOWN}" if unshown else "") + "); add questions")
    if unshown:
        return f"the question-to-question spread: {_UNSHOWN}"
    if not np.isfinite(trials):
        return f"a gap this small needs more than {MAX_TRIALS:,} trials per question"
    if geo.scope == "population":  # a finite trial plan, rare in this scope
        return (f"population-scope trial plans decided {POPULATION_TRIALS_REALISED} of the "
                "time in checks with known truth (planned for an 80% chance)"
                + ("" if carried_t else ": rely on trials_gap, which held"))
    return ""


_PAIR_COLUMNS = [
    "better", "next", "gap", "trials_needed", "trials_gap", "questions_needed", "questions_gap",
    "p_unsettled", "t", "p_better", "p_value", "trials_needed_papers", "note",
]


@renamed_keyword("assurance_level", "assurance")
@checked_keywords
def pair_needs(
    board: Leaderboard, pairs: str = "undecided", assurance: float = ASSURANCE,
    lead: float = 0.0,
) -> pd.DataFrame:
    """Trials and questions that give an ``assurance`` chance of deciding each pair.

    Parameters
    ----------
    board : Leaderboard
        From :func:`scorio_core.leaderboard.leaderboard` (its scope, confidence and
        multiplicity control define "decided").
    pairs : {"undecided", "all"}
        Adjacent pairs (leaderboard order) left undecided, or every adjacent pair.
    assurance : float
        Target chance of a decision, 0.5 to 1 (default 0.8). ``assurance_level=``, its old
        name, still works with a ``FutureWarning``.
    lead : float
        Smallest true lead that matters (score units; 0: off). When set, two more columns
        plan for it with no prior on the lead: ``trials_for_lead`` / ``questions_for_lead``,
        the trials per question / questions that decide the pair with ``assurance``
        chance whenever ``better`` truly leads by at least ``lead`` (:func:`decision_chance`;
        ``inf`` beyond reach).

    Returns
    -------
    pandas.DataFrame
        ``better, next, gap`` (as on the board), ``trials_needed`` (trials per question,
        every model, for the target chance in the board's scope; inf beyond
        :data:`MAX_TRIALS` or when trials cannot get there; population scope: where the
        pair's question-to-question spread is not shown above zero, planned for its upper
        bound, :data:`_B_SHOWN_Z`, and the note says so) and ``trials_gap`` (the smallest
        true lead it decides with that chance on any field, :func:`detectable_gaps`),
        ``questions_needed`` / ``questions_gap`` (questions at today's ``N``, decided in
        the population scope at its board's level whatever the board's scope,
        :func:`pair_level`), with ``lead`` ``trials_for_lead`` / ``questions_for_lead``,
        ``p_unsettled`` (population scope: probability that no number of trials on these
        questions decides the pair; NaN in the questions scope, where any non-zero gap is
        decided eventually), ``t, p_better, p_value`` (as on the board), ``trials_needed_papers``
        (the papers' expected-z rule, a 50% point) and ``note``.

    Example
    -------
    >>> from scorio_core.planner import pair_needs
    >>> import numpy as np
    >>> from scorio_core.leaderboard import leaderboard
    >>> R = (np.random.default_rng(1).random((3, 15, 4)) < [[[.6]], [[.55]], [[.2]]]).astype(int)
    >>> t = pair_needs(leaderboard(R), pairs="all")
    >>> t[["better", "next"]].values.tolist()
    [['model_0', 'model_1'], ['model_1', 'model_2']]
    """
    if pairs not in ("undecided", "all"):
        raise ValidationError(f"pairs must be 'undecided' or 'all'; got {pairs!r}")
    target = _check_assurance(assurance)
    lead = float(check_value("lead", lead, settings_of(PlanParams)["lead"][1]))
    columns = _PAIR_COLUMNS if not lead else _with_lead(_PAIR_COLUMNS)
    if board.inference is None or board.stats is None or len(board.models) < 2:
        return pd.DataFrame(columns=columns)
    span = board.stats.hi_b - board.stats.lo_b
    if lead > span:
        raise ValidationError(f"lead: at most the score range, {span:g}; got {lead:g}")
    c = board.columns
    order = board.table_order()
    up, low = order[:-1], order[1:]
    papers = np.asarray(c["trials_needed_papers"][:-1], dtype=float)
    inf = board.inference
    if pairs == "undecided":
        keep = ~(inf.decided[up, low] | inf.decided[low, up])
        up, low, papers = up[keep], low[keep], papers[keep]
    geo = _geometry(board, up, low)
    P, N, M = up.size, geo.N, geo.M
    flat = geo.gap == 0  # identical scores: board means are exact (eval.count_mean)
    trials = np.full(P, np.nan)
    # population: where the spread trials never remove is not shown, its upper bound is planned
    unshown = geo.unshown & (geo.scope == "population")
    if P and _can_plan(geo, "trials"):
        trials = _search(_trial_fn(geo), N, MAX_TRIALS, target, P)

    pop_now = geo.s2_pop_planned
    chance = _chance.__wrapped__  # once per step of the search: unchecked

    def q_fn(m):
        return chance(geo.gap[:, None], geo.s2_pop[:, None], geo.s2_pop[:, None] * M / m,
                      m - 1, geo.q_level, geo.g_pop[..., None],
                      s2_decide=pop_now[:, None] * M / m)

    questions = (_search(q_fn, M, MAX_QUESTIONS, target, P) if _can_plan(geo, "questions")
                 else np.full(P, np.nan))
    unsettled = np.full(P, np.nan)
    if geo.scope == "population" and N >= 2 and M >= 2 and P:
        s_inf = geo.between
        unsettled = 1.0 - _chance(geo.gap, geo.s2_trial, 0.0, M - 1, geo.level, geo.g,
                                  s2_decide=s_inf)
    trials_gap = _plan_gaps(geo, np.where(flat, np.inf, trials), "trials", target, span)
    questions_gap = _plan_gaps(geo, np.where(flat, np.inf, questions), "questions", target,
                               span)
    # a finite plan with no stated gap: today's data decide the pair whatever the lead
    carried_t = ~flat & np.isfinite(trials) & np.isnan(trials_gap)
    carried_q = ~flat & np.isfinite(questions) & np.isnan(questions_gap)
    met = np.isfinite(papers) & (papers <= N)  # the papers' rule reads "met now"
    # an 80% plan below the papers' 50% point reads as a contradiction: say why, per row
    below = (~flat & np.isfinite(trials) & np.isfinite(papers) & (trials < papers) & ~met
             if N >= 2 else np.zeros(P, dtype=bool))
    if below.any():
        at_gap = _plan_chance_at(geo, np.where(below, trials, N), "trials", geo.gap)
        sign = np.where(geo.gap < 0, -1.0, 1.0)  # the lead of `better`, as trials_gap's
        ahead = (sign * geo.g >= np.where(np.isfinite(trials_gap), trials_gap, np.inf)).mean(0)
        behind = (sign * geo.g < 0).mean(0)
    notes = []
    for k in range(P):
        if flat[k]:
            notes.append("identical scores: no amount of data orders them")
            continue
        if N < 2:
            parts = [_one_trial_text(geo.scope, met[k], carried_q[k], M)]
        else:
            parts = [_base_note(geo, trials[k], unsettled[k], unshown[k], target,
                                carried_t[k])]
            if carried_t[k]:
                parts.append(_carried_text("trials", geo.scope, M))
            if carried_q[k]:
                parts.append(_carried_text("questions", geo.scope, M))
            clear = abs(float(inf.t[up[k], low[k]])) >= _CLEAR_T  # a lead today's data show
            if clear and (np.isfinite(trials[k]) or np.isfinite(questions[k])):
                kind = "trials" if np.isfinite(trials[k]) else "questions"
                parts.append(_shrunk_text(kind, geo.gap[k],
                                          (geo.g if kind == "trials" else geo.g_pop)[:, k]))
            if met[k]:
                parts.append(_PAPERS_MET)
            if below[k]:
                parts.append(_below_papers_text(
                    trials[k], papers[k], geo.gap[k], float(inf.t[up[k], low[k]]), target,
                    trials_gap[k], ahead[k], behind[k], at_gap[k], str(board.models[low[k]])))
        notes.append("; ".join(x for x in parts if x))
    names = np.asarray(board.models, dtype=object)
    extra = {}
    if lead:
        g = np.full(P, lead)
        t_lead = np.full(P, np.nan)
        if P and _can_plan(geo, "trials"):
            t_lead = np.where(~flat, _search(lambda n: _plan_chance_at(geo, n, "trials", g), N,
                                             MAX_TRIALS, target, P), np.nan)
        q_lead = np.full(P, np.nan)
        if P and _can_plan(geo, "questions"):
            q_lead = np.where(~flat, _search(lambda m: _plan_chance_at(geo, m, "questions", g),
                                             M, MAX_QUESTIONS, target, P), np.nan)
        extra = {"trials_for_lead": t_lead, "questions_for_lead": q_lead}
    out = pd.DataFrame(
        {
            "better": names[up],
            "next": names[low],
            "gap": geo.gap,
            "t": inf.t[up, low],
            "p_better": inf.prob_better[up, low],
            "p_value": inf.pvalue[up, low],
            "trials_needed": np.where(flat, np.inf, trials),
            "trials_gap": trials_gap,
            "questions_needed": np.where(flat, np.inf, questions),
            "questions_gap": questions_gap,
            "p_unsettled": unsettled,
            "trials_needed_papers": papers,
            "note": notes,
            **extra,
        }
    )[columns]
    out.attrs[TRIALS_NOW] = int(N)  # trials_needed_papers at or below N reads "met now"
    return out


def _with_lead(columns: list[str]) -> list[str]:
    """The pairs table's columns with ``trials_for_lead`` / ``questions_for_lead`` after
    the stated gaps."""
    k = columns.index("questions_gap") + 1
    return [*columns[:k], "trials_for_lead", "questions_for_lead", *columns[k:]]


@checked_methods
@dataclass(frozen=True)
class OrderCurve:
    """P(correct order) and mean z versus trials per question (:func:`order_curve`), and
    optionally the chance of a decision at each ``N`` (:func:`pair_assurance`)."""

    n: np.ndarray
    p_correct: np.ndarray
    z_mean: np.ndarray
    z_projected: np.ndarray | None = None
    p_decided: np.ndarray | None = None
    #: The chance of a decision at each ``N`` if the first model truly leads by ``lead``
    #: (:func:`decision_chance`; no prior on the lead), when a lead that matters is set.
    p_at_lead: np.ndarray | None = None
    lead: float | None = None
    #: Simulated tables per ``N``, of which ``p_correct`` is a share.
    sims: int | None = None

    def frame(self) -> pd.DataFrame:
        """One row per ``N``; ``p_correct`` is marked a share of :attr:`sims` simulated
        tables (``attrs[DRAWS_ATTR]``: its 0 and 1 are bounds, ``<0.0001``, not certainties)."""
        out = {"N": self.n, "p_correct": self.p_correct, "z_mean": self.z_mean}
        if self.z_projected is not None:
            out["z_projected"] = self.z_projected
        if self.p_decided is not None:
            out["p_decided"] = self.p_decided
        if self.p_at_lead is not None:
            out["p_decided_at_lead"] = self.p_at_lead
        table = pd.DataFrame(out)
        if self.sims:
            table.attrs[DRAWS_ATTR] = {"p_correct": int(self.sims)}
        return table


@checked_keywords
def order_curve(
    p_upper: Sequence[float] | Sequence[Sequence[float]] | np.ndarray,
    p_lower: Sequence[float] | Sequence[Sequence[float]] | np.ndarray,
    n_values: Sequence[int],
    w=None,
    sims: int = 2000,
    seed: int = 0,
) -> OrderCurve:
    """Simulated P(Bayes@N orders the pair correctly) and mean ``z`` versus ``N``.

    Don't Pass@k (2026), App. D, Fig. 6: both models answer every question ``N`` times with the
    given per-question category probabilities; each simulated table is scored
    with Bayes@N (uniform prior, questions scope) and
    ``z = (mu_upper − mu_lower) / sqrt(σ_upper² + σ_lower²)``. Vectorized over
    simulations; the draws for the ``k``-th ``N`` use ``resampling.stream([seed, k])``.

    Parameters
    ----------
    p_upper, p_lower : array_like, shape (M,) or (M, C+1)
        Per-question success probabilities (binary) or category probabilities
        of the truly better and worse model.
    n_values : sequence of int
        Trials per question to simulate (a list, one number, or ``"1,16"``).
    w : array_like, optional
        Category weights (default evenly spaced on [0, 1]; or ``"0,0.5,1"``).
    sims : int
    seed : int

    Returns
    -------
    OrderCurve

    Example
    -------
    >>> from scorio_core.planner import order_curve
    >>> c = order_curve([0.7] * 10, [0.6] * 10, [1, 16], sims=4000, seed=1)
    >>> bool(c.p_correct[1] > c.p_correct[0] > 0.5), bool(c.z_mean[1] > c.z_mean[0])
    (True, True)
    """
    pu, pl = decision.pair_probabilities(p_upper, p_lower)
    if np.any(pu < 0) or np.any(pl < 0) or not np.allclose(pu.sum(-1), 1) or not np.allclose(
        pl.sum(-1), 1
    ):
        raise ValidationError("category probabilities must be non-negative and sum to 1")
    if int(sims) < 1 or int(sims) > 1_000_000:
        raise ValidationError(f"sims must be between 1 and 1,000,000; got {sims}")
    C1 = pu.shape[1]
    wv = np.linspace(0.0, 1.0, C1) if w is None else check_weight_vector(w, "w")
    ns = whole_numbers(n_values, "n_values", example="1,16")  # "1,16"; 1.5 refused, not cut
    pc, zm = [], []
    for k, n in enumerate(ns):
        rng = stream([int(seed), k])
        both = rng.multinomial(int(n), np.stack([pu, pl]), size=(int(sims), 2, pu.shape[0]))
        q = question_moments(both.reshape(int(sims) * 2, pu.shape[0], C1), wv)
        mu = q.mu.reshape(int(sims), 2)
        var = (q.v.sum(-1) / pu.shape[0] ** 2).reshape(int(sims), 2).sum(-1)
        diff = mu[:, 0] - mu[:, 1]
        pc.append(np.mean(diff > 0) + 0.5 * np.mean(diff == 0))
        zm.append(np.mean(diff / np.sqrt(var)))
    return OrderCurve(ns, np.asarray(pc), np.asarray(zm), sims=int(sims))


@checked_keywords
def pair_curve(
    data: Outcomes | np.ndarray,
    upper: int | str,
    lower: int | str,
    n_values: Sequence[int],
    *,
    w=None,
    sims: int = 2000,
    seed: int = 0,
) -> OrderCurve:
    """:func:`order_curve` for two models of a dataset, with today's estimates as truth.

    Each question's category probabilities are the Bayes@N posterior means
    ``ν / T`` of the two models (uniform prior), as in Don't Pass@k (2026), App. D; the curve
    also carries the closed-form projection ``z_now · sqrt((T' + 1) / (T + 1))``.

    Parameters
    ----------
    data : Outcomes or array_like (L, M, N)
    upper, lower : int or str
        Model indices or names.
    n_values : sequence of int
    w : array_like, optional
    sims, seed : int

    Returns
    -------
    OrderCurve

    Example
    -------
    >>> from scorio_core.planner import pair_curve
    >>> import numpy as np
    >>> R = (np.random.default_rng(0).random((2, 20, 4)) < [[[.7]], [[.5]]]).astype(int)
    >>> c = pair_curve(R, 0, 1, [4, 32], sims=2000)
    >>> bool(c.z_projected[1] > c.z_projected[0]) and bool(c.p_correct[1] > 0.9)
    True
    """
    from .eval import prepare_counts

    if isinstance(data, Outcomes):
        R, names = data.R, list(data.models)
        w = data.weights if w is None else w
    else:
        R = as_outcome_array(data, name="data", min_ndim=3, max_ndim=3,  # 2-D: two readings
                             takes_outcomes=True)
        names = [f"model_{i}" for i in range(R.shape[0])]
    ids = []
    for m in (upper, lower):
        if isinstance(m, str):
            if m not in names:
                raise ValidationError(_unknown_model(m, names))
            ids.append(names.index(m))
        elif not 0 <= int(m) < len(names):  # one model's data has no second to compare
            raise ValidationError(f"model index {m} is out of range: these data have "
                                  f"{count_text(len(names), 'model')}, {names}")
        else:
            ids.append(int(m))
    n, _, wv = prepare_counts(R[ids], w)
    nu = n + 1.0
    T = nu[0, 0].sum()
    probs = nu / T
    curve = order_curve(probs[0], probs[1], n_values, wv, sims, seed)
    q = question_moments(n, wv)
    M = q.m.shape[-1]
    z_now = (q.mu[0] - q.mu[1]) / np.sqrt(q.v.sum() / M**2)
    N = R.shape[-1]
    z_proj = z_now * np.sqrt((T + 1 + curve.n - N) / (T + 1))
    return OrderCurve(curve.n, curve.p_correct, curve.z_mean, z_proj, sims=curve.sims)


@dataclass(frozen=True)
class Allocation:
    """A budget of extra trials per question split across models (:func:`allocate_trials`).

    Attributes
    ----------
    extra : numpy.ndarray, shape (L,)
        The recommended split (``greedy`` or ``uniform``, see ``chosen``).
    greedy, uniform : numpy.ndarray, shape (L,)
        The greedy split and the even split of the same budget.
    chosen : {"greedy", "uniform"}
    decided_now : int
        Pairs decided today (of ``L (L − 1) / 2``).
    expected_greedy, expected_uniform : float
        Expected decided pairs after each split (held-out draws): every pair's chance of
        being decided then, today's decided pairs at their chance of staying decided (in
        the population scope read with the pooled between-question part).
    gain_se : float
        Simulation standard error of ``expected_greedy − expected_uniform`` (paired draws).
    note : str
        Why this split, in one sentence.
    """

    extra: np.ndarray
    greedy: np.ndarray
    uniform: np.ndarray
    chosen: str
    decided_now: int
    expected_greedy: float
    expected_uniform: float
    gain_se: float
    note: str


def _even_split(budget: int, score: np.ndarray) -> np.ndarray:
    L = score.size
    out = np.full(L, budget // L, dtype=np.int64)
    best = np.argsort(-score, kind="stable")
    out[best[: budget % L]] += 1  # the remainder to the best models
    return out


#: A standardised margin past which ``Φ`` is exactly 1 in double precision (``Φ(8.3)``
#: already is): a pair whose margin stays above it is decided with chance exactly 1.0.
_SURE_Z = 9.0


def _surely_kept(geo: _Geometry, s2_decide: np.ndarray, df: np.ndarray, cut_max: np.ndarray
                 ) -> np.ndarray:
    """The pairs decided with chance exactly 1.0 (in double precision) under *every* split
    of a budget and every draw of ``geo.g`` -- their chance needs no scoring;
    ``s2_decide`` is the variance a decision divides by today, before any trial is added,
    and ``cut_max`` the trial variance removed when both models get the whole budget.
    In :func:`assurance` the future estimate is ``N(m, sd²)`` with ``m = ĝ + λ (g − ĝ)``,
    ``λ`` the share of the trial variance the split removes, ``sd² = s²_trial λ (1 − λ)``,
    and the pair is decided at ``|m| ≥ c``, ``c = t s_decide``. Over every split ``λ`` lies
    in ``[0, λ_max]`` (both models given the whole budget: more than any split can), ``|m|``
    is at least the smaller of its two ends when they share a sign (``m`` is linear in
    ``λ``), ``sd`` at most ``s_trial √(λ_max (1 − λ_max))`` (or ``s_trial / 2``) and ``c`` at
    most today's (trials only shrink ``s_decide``); a margin of ``_SURE_Z`` standard
    deviations on those bounds makes both terms of :func:`_law_chance` round to 1 and 0."""
    tr = geo.s2_trial
    lam = np.clip(cut_max / np.where(tr > 0, tr, 1.0), 0.0, 1.0)
    lam = np.where(tr > 0, lam, 0.0)
    sd = np.sqrt(tr * np.where(lam < 0.5, lam * (1.0 - lam), 0.25))
    crit = special.stdtrit(np.maximum(df, 1.0), 1.0 - geo.level / 2)
    c = crit * np.sqrt(np.maximum(s2_decide, 0.0))
    end = geo.gap + lam * (geo.g - geo.gap)  # (D, P): m at λ_max
    low = np.where(np.sign(end) == np.sign(geo.gap),
                   np.minimum(np.abs(geo.gap), np.abs(end)), 0.0).min(0)
    sure = low - c >= _SURE_Z * sd
    return sure & (low > 0) & np.isfinite(low)


@checked_keywords
def allocate_trials(board: Leaderboard, budget: int, seed: int | None = None) -> Allocation:
    """Split ``budget`` extra trials per question across models to decide the most pairs.

    One unit = one model answering every question once more. A pair's chance of being
    decided after the split is :func:`assurance` with the pair's trial-noise variance cut to
    ``v_i N/(N + e_i) + v_j N/(N + e_j)`` (the question-sampling part, population scope,
    stays). Every pair is scored, the ones decided today too: with more data a pair decided
    by a lucky margin may no longer be (measured on stylised fields of 6 models, 30/4, 18
    extra trials, questions scope: 0.12-0.15 pairs per run were lost that way against
    0.9-1.1 gained), so a split may spend trials to keep a decision, and the expected counts
    do not take today's decisions as certain (a pair decided only through the transitive
    closure is scored on its own test, which under-counts it); pairs whose chance is exactly
    1 under every split (:func:`_surely_kept`) are counted as kept without scoring, which
    changes no number. In the population scope an open pair's chance reads the plans'
    deliberately large between-question part (a split is made for the pairs that look
    easiest to settle), a decided pair's the pooled unbiased one (:func:`between_pooled`; no
    split selects it): with the plans' part decided pairs looked at risk and the split spent
    trials protecting them (9 models of the bundled run, 30/4: +0.21 ± 0.05 pairs over the
    even split became −0.03 ± 0.07), with the pooled part the split gained over taking them
    as certain on every field measured (stylised 100/8: +0.03 → +0.17 and −0.02 → +0.08;
    real 6-model 30/4 +0.01 → +0.05 to +0.08; real 9-model +0.16 → +0.21, six seeds;
    docs/calibration_gaps.md). The greedy split adds 1, 2, 4 or 8 blocks of trials to one
    model at a time, taking the best gain per trial (a pair that needs several trials shows
    almost no gain from one), on 256 draws of the true scores (each step rescores only the
    pairs touching the model it fed: the rest are as before); it is then compared with the
    even split on 2,000 *other* draws (the same draws for both: common random numbers) and
    kept only when it decides more pairs by more than two simulation standard errors and
    at least :data:`_MIN_GAIN` of its scope (0.01 pairs in the questions scope, 0.25 in the
    population scope, where the field's posterior runs high with few questions; there, on
    evenly spaced fields, it often does not).

    Parameters
    ----------
    board : Leaderboard
    budget : int
        Extra trials per question to distribute (each costs ``M`` completions).
    seed : int, optional
        Seed of the draws (default the board's).

    Returns
    -------
    Allocation

    Example
    -------
    >>> from scorio_core.planner import allocate_trials
    >>> import numpy as np
    >>> from scorio_core.leaderboard import leaderboard
    >>> R = (np.random.default_rng(0).random((3, 20, 2)) < [[[.9]], [[.5]], [[.5]]]).astype(int)
    >>> a = allocate_trials(leaderboard(R), budget=6)
    >>> int(a.extra.sum()), int(a.uniform.sum()), a.chosen in ("greedy", "uniform")
    (6, 6, True)
    """
    budget = int(budget)
    if budget < 0 or budget > 1_000_000:
        raise ValidationError(f"budget must be between 0 and 1,000,000 trials; got {budget}")
    inf, st = board.inference, board.stats
    L = len(board.models)
    N = int(st.N)
    score = inf.score
    uniform = _even_split(budget, score)
    iu, ju = np.triu_indices(L, 1)
    open_ = ~(inf.decided[iu, ju] | inf.decided[ju, iu])
    now = int(iu.size - open_.sum())
    if budget == 0 or N < 2 or not open_.any() or not inf.identified:
        why = (
            "no budget" if budget == 0
            else "N = 1: trial noise is not seen, so extra trials cannot be planned"
            if N < 2
            else "M = 1: the question-to-question spread is not seen, so the population "
            "scope has no decisions to plan for; add questions"
            if not inf.identified
            else "every pair is decided"
        )
        return Allocation(uniform, uniform, uniform, "uniform", now, float(now), float(now),
                          0.0, f"even split ({why})")
    geo = _geometry(board, iu, ju, _GREEDY_DRAWS + _PLAN_DRAWS, seed)
    v = geo.trial_var
    df = inf.df[iu, ju]  # (P,) each pair's d.o.f.
    s2, tr = geo.s2, geo.s2_trial  # decision variance today; its trial-noise part

    def cut(e):  # (..., L) extra trials -> (..., P) trial variance removed
        f = e / (N + e)
        return v[iu] * f[..., iu] + v[ju] * f[..., ju]

    # the variance a decision divides by, today. Population scope: trial noise plus what
    # trials never remove -- the plans' deliberately large between-question part for the
    # open pairs (a split is made for the pairs that look easiest to settle), the pooled
    # unbiased part for today's decided pairs, which no split selects (their plans' part
    # made them look at risk: see the docstring)
    if geo.scope == "population":
        dec0 = np.where(open_, geo.between, geo.between_pooled) + tr
    else:
        dec0 = s2

    unchecked = assurance.__wrapped__  # once per step of the split: no keyword check

    def chance(c, g, sel=slice(None), average=True):
        """Chance of a decision for the pairs ``sel`` once ``c`` of their trial variance
        is removed (``sel`` an index array of any shape; ``g`` the draws for them)."""
        dec = np.maximum(dec0[sel] - c, 1e-300)
        return unchecked(geo.gap[sel], tr[sel], np.maximum(tr[sel] - c, 1e-300), df[sel],
                         geo.level, g, average, s2_decide=dec)

    gA, gB = geo.g[:_GREEDY_DRAWS], geo.g[_GREEDY_DRAWS:]
    # the pairs touching each model, padded to one width with a pair that the mask leaves
    # out. Every pair is scored (a decided pair may be lost: its chance of staying decided)
    # except those kept with chance exactly 1 whatever the split, counted as kept
    sure = _surely_kept(geo, dec0, df, cut(np.full(L, float(budget)))) & ~open_
    scored = np.nonzero(~sure)[0]
    lists = [scored[(iu[scored] == m) | (ju[scored] == m)] for m in range(L)]
    width = max(1, max(t.size for t in lists))
    touch = np.array([np.pad(t, (0, width - t.size), constant_values=scored[0]) for t in lists])
    in_touch = np.arange(width)[None, :] < np.array([t.size for t in lists])[:, None]
    base = max(1, -(-budget // (8 * L)))
    e = np.zeros(L)
    A = np.zeros(iu.size)
    A[scored] = chance(cut(e)[scored], gA[:, scored], scored)
    # the chance of each (model, pair of it) after `step` more trials of the model,
    # per block multiple k; after m gains trials only the pairs touching m change, so each
    # step rescores just those cells
    cells: dict[int, tuple[int, np.ndarray]] = {}  # k -> (step, chance per (model, pair))
    stale = {k: np.ones((L, width), dtype=bool) for k in (1, 2, 4, 8)}
    left = budget
    while left > 0:
        best = (-1.0, 0, 0)
        for k in (1, 2, 4, 8):
            step = min(k * base, left)
            if k not in cells or cells[k][0] != step:
                cells[k], stale[k][:] = (step, np.empty((L, width))), True
            r, col = np.nonzero(stale[k])
            if r.size:
                pr = touch[r, col]
                ei = e[iu[pr]] + step * (iu[pr] == r)
                ej = e[ju[pr]] + step * (ju[pr] == r)
                c = v[iu[pr]] * (ei / (N + ei)) + v[ju[pr]] * (ej / (N + ej))
                cells[k][1][r, col] = chance(c, gA[:, pr], pr)
                stale[k][:] = False
            rate = ((cells[k][1] - A[touch]) * in_touch).sum(1) / step
            m = int(np.argmax(rate))
            if rate[m] > best[0] + 1e-12:
                best = (float(rate[m]), m, step)
            if step == left:
                break
        _, m, step = best
        e[m] += step
        left -= step
        A[touch[m]] = chance(cut(e)[touch[m]], gA[:, touch[m]], touch[m])
        moved = np.isin(touch, touch[m][in_touch[m]]) & in_touch
        for k in stale:
            stale[k] |= moved
    greedy = e.astype(np.int64)
    per_g = chance(cut(greedy.astype(float))[scored], gB[:, scored], scored, average=False).sum(1)
    per_u = chance(cut(uniform.astype(float))[scored], gB[:, scored], scored, average=False).sum(1)
    diff = per_g - per_u
    gain, se = float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(diff.size))
    if np.array_equal(greedy, uniform):
        chosen, note = "uniform", "the greedy split is the even split"
    elif gain > max(2 * se, _MIN_GAIN[geo.scope]):
        chosen = "greedy"
        note = (f"greedy split: {gain:.2f} more pairs expected than an even split "
                f"({_pm(se)}, held-out draws)"
                + (f"; in the population scope such claims came true {POPULATION_SPLIT_REALISED}"
                   " of the time in checks with known truth (the split itself never did worse "
                   "than an even one): read the gain as an upper figure"
                   if geo.scope == "population" else ""))
    else:
        chosen = "uniform"
        note = (f"even split: the greedy split is not clearly better ({gain:+.2f} {_pm(se)} "
                "pairs expected on held-out draws; it must win by two standard errors and "
                f"at least {_MIN_GAIN[geo.scope]:g} pairs"
                f"{' in the population scope' if geo.scope == 'population' else ''})")
    kept = int(sure.sum())  # the pairs kept whatever the split
    return Allocation(
        greedy if chosen == "greedy" else uniform, greedy, uniform, chosen, now,
        kept + float(per_g.mean()), kept + float(per_u.mean()), se, note,
    )


def _pairs_text(pairs: pd.DataFrame) -> str:
    from .formatting import text_table  # one number format per column, ∞ and — spelled out

    return text_table(pairs)


@checked_keywords
def pair_notes(pairs: pd.DataFrame) -> list[tuple[str, str]]:
    """``(which pairs, note)`` for each note of a pairs table (:func:`pair_needs`), the pairs
    that share a note named together (``a vs b, c vs d``), in the table's order: what the
    Planner page and a plan's notebook display list under the table, keyed to its rows by
    ``better`` and ``next`` -- a sentence does not fit a table column (in a notebook's
    860 px output area its ``note`` column ran the pairs table past the edge).

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.planner import pair_notes
    >>> t = pd.DataFrame({"better": ["a", "b", "c"], "next": ["b", "c", "d"],
    ...                   "note": ["too close", "", "too close"]})
    >>> pair_notes(t)
    [('a vs b, c vs d', 'too close')]
    """
    if "note" not in pairs:
        return []
    groups: dict[str, list[str]] = {}
    for better, nxt, note in zip(pairs["better"], pairs["next"], pairs["note"], strict=True):
        if isinstance(note, str) and note:
            groups.setdefault(note, []).append(f"{better} vs {nxt}")
    return [(", ".join(names), note) for note, names in groups.items()]


def _trials(x: float) -> str:
    """A trial count that may be fractional (a budget per model): whole numbers as such."""
    return f"{x:,.0f}" if x == round(x) or x >= 100 else f"{x:,.1f}"


@checked_methods
@dataclass(frozen=True, repr=False)
class Plan(Displayed):
    """Result of :func:`plan`: what would settle the undecided pairs, and with what chance.

    Attributes
    ----------
    pairs : pandas.DataFrame
        :func:`pair_needs` of the undecided adjacent pairs.
    allocation : pandas.DataFrame
        ``model, score, N, extra_trials`` (recommended), ``greedy_trials, uniform_trials``.
    split : Allocation
    settings : dict
    board : Leaderboard
    caveats : list of str
        What limits the plan, in sentences: the caveats of the Planner page and the report
        for the same data and settings (the plan definition's one ``caveats``, written when
        the plan was made), but the order curve's, which ``sc.plan`` does not draw.
    """

    pairs: pd.DataFrame
    allocation: pd.DataFrame
    split: Allocation
    settings: dict[str, Any] = field(default_factory=dict)
    board: Leaderboard | None = None

    def headline(self) -> str:
        """One sentence: what the target chance means, and what the budget buys."""
        s, a = self.settings, self.split
        return (
            f"trials_needed and questions_needed give {a_chance(s['assurance'])} to decide "
            f"the pair at {percent(s['confidence'])} ({s['scope']} scope, {s['adjust']}); "
            "trials_gap and questions_gap are the smallest true leads they decide with that "
            "chance on any field."
            + (f" trials_for_lead and questions_for_lead decide any true lead of at least "
               f"{s['lead']:g} with that chance, on any field." if s.get("lead") else "")
            + " Budget "
            f"{s['budget_trials']:,} extra trials per question: decided pairs now {a.decided_now}, "
            f"expected {a.expected_greedy:.1f} after the greedy split and "
            f"{a.expected_uniform:.1f} after an even split; recommended: {a.note}."
            + (f" {why}" if (why := self.budget_why()) else "")
        )

    def budget_why(self) -> str:
        """Why the budget does not decide more of the undecided adjacent pairs, in one
        sentence: pairs that more trials cannot settle (identical scores; population
        scope), and pairs that need more trials per question than the budget can give
        them ('' when neither holds and the budget buys at least half a pair).

        Example
        -------
        >>> import numpy as np
        >>> R = (np.random.default_rng(0).random((3, 40, 8)) < [[[.9]], [[.5]], [[.1]]])
        >>> sc.plan(R.astype(int)).budget_why()
        'Nothing to spend it on: every pair is already decided.'
        """
        a, s = self.split, self.settings
        gain = (a.expected_greedy if a.chosen == "greedy" else a.expected_uniform) - a.decided_now
        if self.pairs.empty:
            return "Nothing to spend it on: every pair is already decided." if gain < 0.5 else ""
        budget, N, L = int(s["budget_trials"]), int(s["shape"][-1]), len(self.allocation)
        need = np.asarray(self.pairs["trials_needed"], dtype=float)
        P, top = need.size, N + budget / 2  # the most one pair can get: all of it, 2 models

        def which(k: int) -> str:
            if k == P:
                return f"all {P} undecided adjacent pairs" if P > 1 else "the undecided pair"
            return f"{k} of the {P} undecided adjacent pairs"

        parts = []
        if k := int((~np.isfinite(need)).sum()):
            notes = dict.fromkeys(_first_clause(n) for n, t in
                                  zip(self.pairs["note"], need, strict=True)
                                  if n and not np.isfinite(t))
            q_need = np.asarray(self.pairs["questions_needed"], dtype=float)[~np.isfinite(need)]
            why = ("population scope: the question-to-question spread stays; "
                   "questions_needed says how many questions would"
                   if s.get("scope") == "population" and np.isfinite(q_need).any()
                   else "; ".join(notes) or "see the table")
            parts.append(f"{which(k)} cannot be settled by more trials ({why})")
        far = np.isfinite(need) & (need > top)
        if far.any() or (gain < 0.5 and not parts):
            sel = need[far] if far.any() else need[np.isfinite(need)]
            lo, hi = sel.min(), sel.max()
            span = f"about {lo:,.0f}" if lo == hi else f"{lo:,.0f} to {hi:,.0f}"
            verb = "needs" if sel.size == 1 else "need"
            parts.append(
                f"{which(sel.size)} {verb} {span} trials per question on both models for "
                f"{a_chance(s['assurance'])}; the budget gives N = {N:,} → "
                f"{_trials(N + budget / L)} when split evenly, {_trials(top)} at most if all "
                "of it went to one pair"
            )
        if not parts:
            return ""
        lead = "The budget changes almost nothing: " if gain < 0.5 else "Why not more pairs: "
        return lead + "; ".join(parts) + "."

    def to_text(self) -> str:
        """Plain-text report (the CLI's ``--format text``)."""
        s = self.settings
        lines = [
            f"Planner: {s['dataset']}  (L, M, N) = {tuple(s['shape'])}, {s['scope']} scope, "
            f"{percent(s['confidence'])}, adjustment {s['adjust']}, "
            f"assurance {percent(s['assurance'])}",
            "",
        ]
        if self.pairs.empty:
            lines.append("Every adjacent pair is decided: nothing to plan.")
        else:
            lines.append(f"{count_text(len(self.pairs), 'undecided adjacent pair')}:")
            lines.append(_pairs_text(self.pairs))
        from .formatting import text_table

        lines += ["", self.headline(), text_table(self.allocation)]
        return "\n".join(lines) + "\n"

    def to_json(self) -> str:
        a = self.split
        payload = {
            "settings": self.settings,
            "pairs": json.loads(self.pairs.to_json(orient="records")),
            "allocation": json.loads(self.allocation.to_json(orient="records")),
            "split": {
                "chosen": a.chosen,
                "note": a.note,
                "decided_now": a.decided_now,
                "expected_greedy": a.expected_greedy,
                "expected_uniform": a.expected_uniform,
                "gain_se": a.gain_se,
            },
        }
        return json.dumps(payload, indent=2, default=float) + "\n"

    def to_csv(self) -> str:
        """The pairs table (one row per undecided pair) as CSV."""
        from .export import table_csv  # the exports' one CSV path: numbers, formula-safe
        return table_csv(self.pairs)

    # ------------------------------------------------------------ display (notebooks)
    def caption(self) -> str:
        """The scope and settings in one line (the notebook display's caption)."""
        s = self.settings
        L, M, N = s["shape"]
        return (f"{s['dataset']}: {shape_text(L, M, N)} · {s['scope']} "
                f"scope, {percent(s['confidence'])} decisions, adjustment {s['adjust']} · "
                f"{a_chance(s['assurance'])} of a decision · budget {s['budget_trials']:,} "
                f"extra trials per question · draws {s['draws']:,}, seed {s['seed']}")

    def charts(self) -> list:
        """Where the budget goes (:class:`~scorio_core.definitions.Chart`), as on the
        Planner page (the order curve of one pair: ``sc.ANALYSES["plan"]``)."""
        from . import charts
        from .definitions import Chart

        return [Chart(
            "Where to spend extra trials", charts.allocation_chart(self.allocation),
            "Bars = extra trials per question per model: the greedy split goes where a trial "
            "most raises the expected number of decided pairs, grey = the same budget split "
            f"evenly; the recommended one is the {self.split.chosen} split.",
        )]

    def _caption(self, view) -> str:  # the data are in caption() already
        return view.caption

    def __repr__(self) -> str:
        from .display import caveats_text

        return "\n".join([f"<Plan: {self.caption()}>", self.to_text().rstrip(),
                          *caveats_text(self.caveats)])


@renamed_keyword("assurance_level", "assurance")
@checked_keywords
def plan(
    data: Outcomes | np.ndarray,
    *,
    w=None,
    use_prior: bool = False,
    confidence: float = 0.95,
    scope: str = "questions",
    adjust: str = ADJUSTMENTS[0],
    assurance: float = ASSURANCE,
    budget_trials: int = 0,
    lead: float = 0.0,
    draws: int = 10_000,
    seed: int = 0,
    spread_prior=None,
) -> Plan:
    """One call for the Planner page and ``scorio-studio plan``.

    Builds the leaderboard in ``scope`` (its decisions define the undecided pairs), then
    :func:`pair_needs` at ``assurance`` and :func:`allocate_trials` with
    ``budget_trials`` extra trials per question; ``lead`` > 0 adds the plans for a lead
    that matters (:func:`pair_needs`).

    Parameters
    ----------
    data : Outcomes or array ``(L, M, N)``
        The run to plan for (``sc.load(...)``).
    w, use_prior, confidence, scope, adjust, draws, seed
        As in :func:`~scorio_core.leaderboard.leaderboard`; ``use_prior`` only changes
        the papers' ``trials_needed_papers`` column.
    assurance : float
        The chance, in ``[0.5, 1)``, that the planned data decide a pair (default 0.8):
        ``trials_needed`` / ``questions_needed`` are the smallest plans that reach it.
        ``assurance_level=``, its old name, still works with a ``FutureWarning``.
    budget_trials : int
        Extra trials per question to split between the models (``0``: ``L × N``, as many
        trials again).
    lead : float
        A true lead that matters (score units); > 0 adds the plans that decide such a lead.
    spread_prior : SpreadPrior or path, optional
        A prior on the field's spread learned from earlier runs
        (:func:`~scorio_core.spread_prior.fit_spread_prior`) in place of the flat one.

    Returns
    -------
    Plan

    Example
    -------
    >>> from scorio_core import io
    >>> p = sc.plan(io.load("data/biased_coins.npz"), budget_trials=40)
    >>> p.pairs[["better", "next", "trials_needed"]].head(2).values.tolist()
    [['LLM_9', 'LLM_10', 7480.0], ['LLM_7', 'LLM_8', 599.0]]
    >>> int(p.allocation["extra_trials"].sum())
    40
    """
    target = _check_assurance(assurance)
    confidence = check_confidence(confidence)
    lead = float(check_value("lead", lead, settings_of(PlanParams)["lead"][1]))
    # a whole number, as declared (10.5 was planned as 10 in silence); 10.0 is 10
    budget_trials = check_value("budget_trials", budget_trials,
                                settings_of(PlanParams)["budget_trials"][1])
    board = leaderboard(
        data, w=w, use_prior=use_prior, confidence=confidence, scope=scope, adjust=adjust,
        draws=draws, seed=seed, spread_prior=spread_prior,
    )
    L = len(board.models)
    if L < 2:  # "every pair is decided" would be said of no pair at all
        raise ValidationError(
            f"planning compares models; these data have {L}: a plan needs at least 2 (one "
            "model's score and interval are on sc.leaderboard)"
        )
    N = int(board.settings["shape"][-1])
    budget = int(budget_trials) if budget_trials else L * N
    split = allocate_trials(board, budget)
    order = board.table_order()  # the board's rows, its ties as it orders them
    table = pd.DataFrame(
        {
            "model": np.asarray(board.models, dtype=object)[order],
            "score": board.score[order],
            "N": N,
            "extra_trials": split.extra[order],
            "greedy_trials": split.greedy[order],
            "uniform_trials": split.uniform[order],
        }
    )
    settings = dict(board.settings)
    settings.update(
        assurance=target, budget_trials=budget, lead=float(lead),
        dataset=getattr(data, "name", "array"),
    )
    planned = Plan(pair_needs(board, assurance=target, lead=lead), table, split, settings,
                   board)
    return _with_caveats(planned, data, prior_label(spread_prior))


def _with_caveats(planned: Plan, data: Outcomes | np.ndarray, prior: str | None) -> Plan:
    """``planned`` with the caveats the plan's one definition writes for these data and
    settings (the Planner page's and the report's; :func:`scorio_core.display.with_caveats`):
    the plan keeps the sentences, not the data."""
    from .definitions.plan import PLAN

    s = planned.settings
    params = PlanParams(  # the settings the caveats read, as the call took them
        confidence=s["confidence"], scope=s["scope"], adjust=s["adjust"],
        assurance=s["assurance"], prior="uniform" if s["prior"] == "uniform" else "greedy",
        lead=s["lead"], spread_prior=prior)
    return with_caveats(planned, PLAN, params, caveat_data(data, planned.board), planned,
                        label=None if isinstance(data, Outcomes) else "")


class CurveSettings(NamedTuple):
    """The pair, the trial counts of the Planner's order curve and the question counts of
    its gap curve (:func:`curve_settings`)."""

    upper: str
    lower: str
    n_values: tuple[int, ...]
    m_values: tuple[int, ...] = ()


@checked_keywords
def curve_settings(
    result: Plan, pair: Sequence[str] | None = None, n_max: int | None = None
) -> CurveSettings:
    """Which pair, and up to which ``N``, the Planner simulates with :func:`pair_curve`.

    The default pair is the first undecided adjacent pair of ``result`` (else the two
    best models); the default largest ``N`` reaches 1.25 × that pair's
    ``trials_needed`` (at least 64, at most 4096; ``4 N`` when trials cannot reach the
    target chance). The grid is 1, 2 and the powers of two up to ``n_max``, plus ``n_max``.
    The question counts of :func:`gap_curve` run from ``√2 M`` (today's ``M``) to 1.25 × the
    pair's larger finite question plan, ``questions_needed`` or ``questions_for_lead`` (at
    least ``4 M``; ``16 M`` when the pair is not in the table, has no finite plan or only one
    that today's data decide whatever the lead -- no ``questions_gap`` -- so the curve reaches
    past them; at most :data:`MAX_QUESTIONS`) in steps of ``√2``.

    Parameters
    ----------
    result : Plan
    pair : (str, str), optional
        Two different model names of ``result``, or one string split at the comma where
        both sides are models (``"a,b"``; a name may hold a comma, as with ``--pair``).
    n_max : int, optional
        Largest trials per question to simulate (2 to 4096).

    Returns
    -------
    CurveSettings

    Example
    -------
    >>> from scorio_core.planner import curve_settings
    >>> import numpy as np
    >>> R = (np.random.default_rng(0).random((3, 15, 4)) < [[[.8]], [[.7]], [[.4]]])
    >>> cs = curve_settings(sc.plan(R.astype(int)), n_max=20)
    >>> cs.n_values, cs.m_values[:4]
    ((1, 2, 4, 8, 16, 20), (21, 30, 42, 60))
    """
    names = [str(m) for m in result.allocation["model"]]
    if pair is None:
        pairs = result.pairs
        upper, lower = (
            (str(pairs["better"].iloc[0]), str(pairs["next"].iloc[0])) if len(pairs)
            else (names[0], names[min(1, len(names) - 1)])
        )
    else:  # a string: split at a comma where both sides are models (as --pair)
        pair = as_names(pair, "pair", noun="model names", example="model a,model b",
                        among=names)
        if len(pair) != 2:
            raise ValidationError(f"pair must name two models; got {list(pair)!r}")
        upper, lower = pair
    for m in (upper, lower):
        if m not in names:
            raise ValidationError(_unknown_model(m, names, " in pair"))
    if upper == lower:
        raise ValidationError(f"pair must name two different models; got {upper!r} twice")
    if n_max is None:
        N = int(result.settings["shape"][-1])
        need = float(result.pairs["trials_needed"].iloc[0]) if len(result.pairs) else np.inf
        start = int(min(1.25 * need, 4096)) if np.isfinite(need) else 4 * N
        n_max = min(4096, max(64, start))
    elif isinstance(n_max, bool) or not 2 <= int(n_max) <= 4096 or int(n_max) != n_max:
        raise ValidationError(f"n_max must be a whole number from 2 to 4096; got {n_max!r}")
    n_max = int(n_max)
    grid = {1, 2, *(2**k for k in range(2, 13) if 2**k <= n_max), n_max}
    return CurveSettings(upper, lower, tuple(sorted(grid)), _question_grid(result, upper, lower))


def _question_grid(result: Plan, upper: str, lower: str) -> tuple[int, ...]:
    """Today's ``M`` times ``√2^k`` up to the pair's plan (see :func:`curve_settings`)."""
    M = int(result.settings["shape"][1])
    pairs = result.pairs
    row = pairs[(pairs["better"].astype(str) == upper) & (pairs["next"].astype(str) == lower)]
    plans = row.reindex(columns=["questions_needed", "questions_for_lead"]).to_numpy(float)
    gap = row.reindex(columns=["questions_gap"]).to_numpy(float)
    if (np.isfinite(plans[:, :1]) & np.isnan(gap)).any():
        plans = plans[:0]  # a plan with no stated gap: today's data decide it, it only keeps it
    plans = plans[np.isfinite(plans)]
    top = min(MAX_QUESTIONS, max(4 * M, int(1.25 * plans.max())) if plans.size
              else 16 * M)
    k = int(np.floor(2 * np.log2(max(top, M) / M) + 1e-9))
    return tuple(sorted({*(int(round(M * 2 ** (i / 2))) for i in range(1, k + 1)), top}))
