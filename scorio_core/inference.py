"""Calibrated headline inference: the two estimands, their intervals, pairwise decisions
and rank intervals (SPEC §4).

Estimands (both paired across models through the shared questions):

* ``"questions"`` -- a model's mean weighted score over the ``M`` questions asked,
  ``θ_Q = (1/M) Σ_α s_α`` with ``s_α`` the expected score of one trial on question ``α``.
  Only the finite trials are uncertain.
* ``"population"`` -- its mean over the population of questions these were drawn from.
  Trials *and* question sampling are uncertain.

The centre is the mean score ``x̄ = (1/MN) Σ w[R]`` (avg@N), unbiased for both
estimands -- unlike the papers' Bayes@N, whose uniform prior pulls every question
towards the prior mean by ``(1 − 2p)/(N + 2)`` (kept as the papers' columns, see
:mod:`scorio_core.posterior`). The variance counts each source of noise once (law of
total variance, ``Var(x̄) = (σ²_between + σ²_within / N) / M``):

* questions: ``Var(x̄ − θ_Q) = Σ_α σ²_α / (N M²)``, with each question's trial variance
  total ``Σ_α σ²_α`` estimated without bias by the sum of the within-question sample
  variances; each question's share of it follows its posterior expectation under a
  Dirichlet prior learned across that model's questions (empirical Bayes:
  Dirichlet-multinomial marginal likelihood over the concentration ``κ``, centred on the
  model's pooled category shares), so a question whose few trials happened to agree
  still gets a share (:func:`within_variance`). ``t`` quantiles with ``M (N − 1)``
  degrees of freedom. At ``N = 1``
  the trial variance is unseen: the estimand is not identified and every number is NaN
  (use the population scope).
* population: the clustered (question-level) variance ``Cov_α(ȳ_α) / M`` with ``t``
  quantiles on ``M − 1`` degrees of freedom (Miller 2024, "Adding error bars to evals");
  the spread of the per-question means already holds the trial noise. A model's own
  interval takes the larger of that spread and the one implied by its fitted Dirichlet
  population (:func:`population_variance`): on a skewed benchmark the sample spread is
  smallest exactly when the few high-scoring questions are missing from the sample.

Per-model intervals are score (Wilson-type) intervals on the ``[0, 1]``-scaled score
with the effective sample size ``n_eff = x̄(1 − x̄) / Var``, so they are skewed near 0
and 1 and never leave the bounds. ``n_eff`` is never below the count at which the
variance reaches its ceiling (``x̄(1 − x̄)`` per trial: ``M N`` in the questions scope,
``M`` in the population scope), which also covers a score of exactly 0 or 1.

Pairs: ``t = d̄ / sd(d̄)`` on the paired difference with its covariance, two-sided
p-values (an exact tie is decided at most ``1 − confidence`` of the time), adjusted
by a simultaneous step-down max-|t| procedure (Romano–Wolf; critical values from the
joint law of all pairwise statistics: normal in the questions scope, sign flips of the
questions' pair differences -- a studentized randomization test -- in the population
scope) so that rank intervals hold jointly, or by Holm, Benjamini–Hochberg, or per pair.
``P(i > j)``, ``p_best`` and the rank distribution come from the matching confidence
distribution ``x̄ + Σ^{1/2} z`` scaled to a multivariate ``t``.

Coverage of all of this is measured by simulation with known truth:
``python benchmarks/calibration.py`` (table in the README).

Example
-------
>>> from scorio_core.inference import infer, score_stats
>>> import numpy as np
>>> from scorio_core.eval import prepare_counts
>>> R = np.random.default_rng(0).integers(0, 2, size=(3, 40, 4))
>>> n, _, w = prepare_counts(R)
>>> inf = infer(score_stats(n, w), "population")
>>> bool(np.all((inf.lo <= inf.score) & (inf.score <= inf.hi)))
True
>>> inf.decided.shape
(3, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
from scipy import special

from ._validation import ValidationError, check_confidence
from .estimands import ADJUST_HELP, ADJUSTMENTS, NOT_IDENTIFIED, SCOPE_HELP, SCOPES
from .eval import count_mean
from .resampling import stream

__all__ = [
    "SCOPES",
    "SCOPE_HELP",
    "ADJUSTMENTS",
    "ADJUST_HELP",
    "NOT_IDENTIFIED",
    "ScoreStats",
    "score_stats",
    "within_variance",
    "wilson_t",
    "scope_covariance",
    "within_dof",
    "pair_dof",
    "population_variance",
    "trial_part",
    "inflate",
    "model_intervals",
    "pair_pvalues",
    "decide_pvalues",
    "decide_pairs",
    "open_pair_level",
    "scope_open_level",
    "first_set",
    "Inference",
    "infer",
    "decided",
]

_KAPPA = np.exp(np.linspace(np.log(1e-2), np.log(1e4), 49))
#: Most effective events near a bound for which :func:`wilson_t` takes the Poisson end
#: (Brown, Cai & DasGupta 2001 use 2-3; measured: 1 is enough here, more over-covers).
_FEW = 1.0
#: Largest number of (draw, pair) values held at once by the max-|t| procedure.
_MAXT_CELLS = 20_000_000
#: Relative margin by which an observed statistic must exceed a null draw's critical value
#: (:func:`_beyond`).
_TIE = 1e-5


def _beyond(obs, crit):
    """Whether observed statistics lie beyond critical values drawn from a null. The null is
    held in float32, and the population scope's sign-flip law contains the observed value
    itself (the identity flip) and, with few discrete questions, often sits on it: a
    statistic that ties the critical value (within :data:`_TIE`, relative) is not beyond it
    (a randomization test rejects only when at most the level of its law lies at or above
    the observed value)."""
    crit = np.asarray(crit, dtype=float)
    return np.asarray(obs) > crit + _TIE * np.maximum(1.0, np.abs(crit))


@dataclass(frozen=True)
class ScoreStats:
    """Per model–question summaries on the ``[0, 1]``-scaled weighted score.

    Attributes
    ----------
    ybar : numpy.ndarray, shape (L, M)
        Mean scaled score of each model on each question.
    within : numpy.ndarray, shape (L, M)
        Estimated variance of one trial's scaled score on each question
        (:func:`within_variance`); NaN when ``N = 1``.
    kappa : numpy.ndarray, shape (L,)
        Fitted Dirichlet concentration per model (NaN when ``N = 1``).
    N : int
    lo_b, hi_b : float
        Score range: scaled score ``u`` is ``lo_b + (hi_b − lo_b) u`` in weight units.
    dof : numpy.ndarray, shape (L,), optional
        Effective degrees of freedom of each model's total trial variance
        (:func:`within_dof`); ``None``: the nominal ``M (N − 1)``.
    trial_var : numpy.ndarray, shape (L,), optional
        Variance of one trial's scaled score over all of the model's trials (its pooled
        category shares), for :func:`population_variance`; ``None``: not used.
    mean : numpy.ndarray, shape (L,), optional
        Mean scaled score per model from its category totals, each the float nearest its
        exact value (:func:`scorio_core.eval.count_mean`), so models tied in exact
        arithmetic have equal means and every gap between them is exactly 0; ``None``: the
        mean of ``ybar``.
    """

    ybar: np.ndarray
    within: np.ndarray
    kappa: np.ndarray
    N: int
    lo_b: float
    hi_b: float
    dof: np.ndarray | None = None
    trial_var: np.ndarray | None = None
    mean: np.ndarray | None = None

    @property
    def M(self) -> int:
        return self.ybar.shape[-1]

    @property
    def xbar(self) -> np.ndarray:
        """Mean scaled score per model, shape ``(L,)`` (:attr:`mean` when given)."""
        return self.ybar.mean(-1) if self.mean is None else self.mean

    def unscale(self, u):
        """Scaled score(s) back to weight units."""
        return self.lo_b + (self.hi_b - self.lo_b) * np.asarray(u, dtype=float)

    @property
    def model_dof(self) -> np.ndarray:
        """Degrees of freedom of each model's questions-scope variance, shape ``(L,)``."""
        nominal = float(self.M * max(self.N - 1, 0))
        if self.dof is None:
            return np.full(self.ybar.shape[0], nominal)
        return np.minimum(np.asarray(self.dof, dtype=float), nominal)


def _log_rising(a: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``Σ_α [ln Γ(a + c_α) − ln Γ(a)]`` over the questions, shape ``(L, G)``, for
    concentrations ``a (L, G)`` and counts ``c (L, M)``.

    Counts are whole numbers in ``0 … N``, so the sum is taken over the distinct values
    with their multiplicities (``ln Γ`` at ``L × V × G`` points, ``V ≤ N + 1``) rather than
    question by question (``L × M × G``) -- the same terms; the question-plan realisations
    of the Planner's calibration add thousands of questions at small ``N``.
    """
    vals, inv = np.unique(c, return_inverse=True)
    if vals.size >= c.shape[1]:  # no repeats to exploit (or fractional counts)
        return (special.gammaln(a[:, None, :] + c[:, :, None]) - special.gammaln(a[:, None, :])
                ).sum(1)
    L = c.shape[0]
    rows = np.repeat(np.arange(L), c.shape[1])
    mult = np.bincount(rows * vals.size + inv.ravel(), minlength=L * vals.size)
    mult = mult.reshape(L, vals.size).astype(float)  # (L, V): questions with each count
    term = special.gammaln(a[:, None, :] + vals[None, :, None]) - special.gammaln(a[:, None, :])
    return np.einsum("lv,lvg->lg", mult, term)


def within_variance(n: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Empirical-Bayes trial variance of the score on every question.

    For each model, the per-question category probabilities get a Dirichlet prior
    ``Dir(κ π)`` with ``π`` the model's pooled category shares and ``κ`` maximising the
    Dirichlet-multinomial marginal likelihood of the counts (a grid of 49 values,
    ``10⁻² … 10⁴``). Returns the posterior expectation of ``Var(u[outcome] | θ_α)``,
    ``(m₂ − m₁²) A / (A + 1)`` with ``A = κ + N`` and ``m_r = Σ_k ν_k u_k^r / A``,
    ``ν = κπ + n_α`` -- positive on a question whose trials happened to agree -- scaled
    per model so that the total over questions equals the unbiased total ``Σ_α s²_α``
    (sample variances with ``ddof = 1``), which holds whatever the questions' category
    mixes; the EB total alone is unbiased only when one Dirichlet fits them (weighted
    categories with U-shaped mixes: 13–15% too wide). The EB values stand unscaled for a
    model with no trial variation on any question (``Σ_α s²_α = 0``).

    Parameters
    ----------
    n : numpy.ndarray, shape (L, M, K)
        Category counts, the same ``N`` in every cell.
    u : numpy.ndarray, shape (K,)
        Scaled category scores in ``[0, 1]``.

    Returns
    -------
    within : numpy.ndarray, shape (L, M)
    kappa : numpy.ndarray, shape (L,)
    """
    n = np.asarray(n, dtype=float)
    L, M, K = n.shape
    N = n[(0,) * (n.ndim - 1)].sum() if n.size else 0
    if N < 2:
        return np.full((L, M), np.nan), np.full(L, np.nan)
    pi = n.sum(1) / (M * N)  # (L, K)
    kp = _KAPPA[None, :, None] * pi[:, None, :]  # (L, G, K)
    live = pi > 0  # categories never seen contribute nothing (n = 0 there)
    ll = np.zeros((L, _KAPPA.size))
    for k in range(K):  # K is small (categories); the rest is vectorized
        if not live[:, k].any():
            continue
        a = np.where(live[:, None, k], kp[:, :, k], 1.0)  # (L, G)
        ll += np.where(live[:, None, k], _log_rising(a, n[:, :, k]), 0.0)
    ll += M * (special.gammaln(_KAPPA) - special.gammaln(_KAPPA + N))[None, :]
    kappa = _KAPPA[np.argmax(ll, axis=1)]  # (L,)
    nu = kappa[:, None, None] * pi[:, None, :] + n  # (L, M, K)
    A = (kappa + N)[:, None]
    m1 = (nu @ u) / A
    m2 = (nu @ (u * u)) / A
    eb = np.maximum(m2 - m1 * m1, 0.0) * A / (A + 1)  # (L, M)
    # The interval needs the total Σ_α σ²_α, whose unbiased estimate is Σ_α s²_α (sample
    # variances, ddof 1) whatever the questions' category mixes; the EB total is unbiased
    # only when one Dirichlet fits them (weighted categories with U-shaped mixes: 13-15 %
    # too wide, 97-98 % coverage). Keep the EB per-question shape, scale it to that total;
    # where no question shows any trial variation (total 0) the EB values stand.
    ybar = (n @ u) / N
    s2 = np.maximum((n @ (u * u)) / N - ybar * ybar, 0.0) * (N / (N - 1))
    total_eb, total = eb.sum(-1, keepdims=True), s2.sum(-1, keepdims=True)
    ok = (total > 0) & (total_eb > 0)
    scale = np.divide(total, total_eb, out=np.ones_like(total), where=ok)
    return eb * scale, kappa


def within_dof(n: np.ndarray, u: np.ndarray, kappa: np.ndarray) -> np.ndarray:
    """Effective degrees of freedom of each model's total trial variance ``Σ_α s²_α``.

    The questions-scope interval divides by ``(Σ_α s²_α)^{1/2}``, whose noise sets the
    ``t`` quantile. For normal trials each ``s²_α`` is a ``χ²`` on ``N − 1`` d.o.f. and the
    total has ``M (N − 1)``; for scores on a few categories it is far noisier when the
    variance sits on a few questions (a hard benchmark: most questions never succeed),
    and the nominal count made the interval cover 88–92% at ``N = 2``. Matching the
    first two moments of the total to a scaled ``χ²`` (Satterthwaite) with the exact
    variance of a sample variance, ``Var(s²) = μ₄/N − σ⁴ (N − 3)/(N (N − 1))``, gives
    ``ν = 2 (Σ_α σ²_α)² / Σ_α Var(s²_α)``, with each question's central moments read from
    its posterior-mean category probabilities under the empirical-Bayes Dirichlet prior of
    :func:`within_variance` (concentration ``kappa``). Never above the nominal
    ``M (N − 1)``; NaN at ``N < 2``.

    Example
    -------
    >>> from scorio_core.inference import within_variance, within_dof
    >>> import numpy as np
    >>> n = np.zeros((2, 40, 2)); n[..., 0] = 4  # 4 trials; model 1: 1 success in 3 questions
    >>> n[0, :, :] = [2, 2]; n[1, :3] = [3, 1]  # model 0: 2 of 4 on every question
    >>> _, kappa = within_variance(n, np.array([0.0, 1.0]))
    >>> d = within_dof(n, np.array([0.0, 1.0]), kappa)
    >>> float(d[0]), bool(d[1] < 10)  # nominal 40 · 3 = 120; a rare event: few d.o.f.
    (120.0, True)
    """
    n = np.asarray(n, dtype=float)
    L, M, K = n.shape
    N = n[(0,) * (n.ndim - 1)].sum() if n.size else 0
    if N < 2:
        return np.full(L, np.nan)
    nominal = float(M * (N - 1))
    pi = n.sum(1) / (M * N)
    nu = np.asarray(kappa, dtype=float)[:, None, None] * pi[:, None, :] + n
    theta = nu / nu.sum(-1, keepdims=True)  # posterior-mean category probabilities
    d = u[None, None, :] - (theta @ u)[..., None]
    s2 = (theta * d**2).sum(-1)
    var_s2 = np.maximum((theta * d**4).sum(-1) / N - s2**2 * (N - 3) / (N * (N - 1)), 0.0)
    den = var_s2.sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        dof = np.where(den > 0, 2.0 * s2.sum(-1) ** 2 / den, nominal)
    return np.minimum(dof, nominal)


def pair_dof(var: np.ndarray, dof: np.ndarray) -> np.ndarray:
    """Welch–Satterthwaite degrees of freedom of every pair difference, shape ``(L, L)``,
    from independent per-model variances ``var (L,)`` on ``dof (L,)`` d.o.f.; the
    diagonal holds ``dof``.

    Example
    -------
    >>> from scorio_core.inference import pair_dof
    >>> import numpy as np
    >>> pair_dof(np.array([1.0, 1.0, 0.0]), np.array([10.0, 30.0, 5.0])).round(1).tolist()
    [[10.0, 30.0, 10.0], [30.0, 30.0, 30.0], [10.0, 30.0, 5.0]]
    """
    v = np.asarray(var, dtype=float)
    d = np.asarray(dof, dtype=float)
    num = (v[:, None] + v[None, :]) ** 2
    den = v[:, None] ** 2 / d[:, None] + v[None, :] ** 2 / d[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(den > 0, num / den, np.minimum(d[:, None], d[None, :]))
    np.fill_diagonal(out, d)
    return out


def scaled_weights(w: np.ndarray, bounds: tuple[float, float] | None = None
                   ) -> tuple[np.ndarray, float, float]:
    """``(u, lo, hi)``: the weights ``w`` on the [0, 1] scale of the score range ``bounds``
    (default the range of the weights; all zero when the range is empty) -- the scale of
    :func:`score_stats`' per-question means ``n @ u / N``."""
    w = np.asarray(w, dtype=float)
    lo_b, hi_b = (float(w.min()), float(w.max())) if bounds is None else map(float, bounds)
    span = hi_b - lo_b
    return ((w - lo_b) / span if span > 0 else np.zeros_like(w)), lo_b, hi_b


def score_stats(
    n: np.ndarray, w: np.ndarray, bounds: tuple[float, float] | None = None
) -> ScoreStats:
    """:class:`ScoreStats` from category counts ``n (L, M, K)`` and weights ``w (K,)``.

    ``bounds`` is the score range (default the range of the weights).
    """
    u, lo_b, hi_b = scaled_weights(w, bounds)
    n = np.asarray(n)
    N = int(n[(0,) * (n.ndim - 1)].sum()) if n.size else 0
    ybar = (n @ u) / max(N, 1)
    within, kappa = within_variance(n, u)
    dof = within_dof(n, u, kappa)
    ybar = np.atleast_2d(ybar)
    # the model means from the category totals: a tie in exact arithmetic is a tie in floats
    mean = np.atleast_1d(count_mean(n.sum(-2), u, N * n.shape[-2]))
    with np.errstate(invalid="ignore"):  # M = 0: NaN
        trial_var = np.maximum(np.atleast_2d((n @ (u * u)) / max(N, 1)).mean(-1)
                               - ybar.mean(-1) ** 2, 0.0)
    return ScoreStats(ybar, np.atleast_2d(within), kappa, N, lo_b, hi_b, dof, trial_var, mean)


def population_variance(st: ScoreStats) -> np.ndarray:
    """Variance of one question's mean scaled score across the population, per model ``(L,)``.

    The larger of the sample variance of the per-question means (``ddof = 1``) and the
    variance the model's fitted Dirichlet population implies, ``σ²_π (1 + κ/N) / (κ + 1)``
    (``σ²_π``: one trial's variance at the pooled category shares, ``κ``: the
    Dirichlet-multinomial maximum-likelihood concentration of :func:`within_variance`;
    between-question part ``σ²_π / (κ + 1)`` plus the expected trial part). On a skewed
    benchmark (mean 0.1, most questions never solved) the sample variance is smallest
    exactly when the few high-scoring questions are missing from the sample, which is when
    the mean is low too: the intervals then missed above (binary, M = 30, N = 32: 93.1%,
    4.5% of the misses above vs 2.2% below); the fitted population reads the spread
    from the shape of the counts (how many questions never succeed), not from the rare
    high ones. Taking the larger covers 94.1% there, lowers no cell of the calibration
    grid and widens none by more than 4% (``docs/calibration_gaps.md``). Never below
    :func:`trial_part`, which it contains. At ``N = 1`` (``κ`` not identified, the trial
    part unseen) or without ``trial_var``: the sample variance.

    Example
    -------
    >>> from scorio_core.inference import score_stats, population_variance
    >>> import numpy as np
    >>> from scorio_core.eval import prepare_counts
    >>> R = np.zeros((1, 30, 8), dtype=int); R[0, :3] = 1  # 3 of 30 questions always solved
    >>> n, _, w = prepare_counts(R)
    >>> st = score_stats(n, w)
    >>> float(population_variance(st)[0]) >= float(st.ybar.var(-1, ddof=1)[0])
    True
    """
    M, N = st.M, st.N
    if M < 2:
        return np.full(st.ybar.shape[0], np.nan)
    s2 = st.ybar.var(-1, ddof=1)
    if st.trial_var is None or N < 2:
        return s2
    k = np.asarray(st.kappa, dtype=float)
    with np.errstate(invalid="ignore"):
        model = np.asarray(st.trial_var, dtype=float) * (1 + k / N) / (k + 1)
    # NaN κ (no fit): the sample variance; never below the trial part it contains
    return np.fmax(np.fmax(s2, model), trial_part(st))


def trial_part(st: ScoreStats) -> np.ndarray:
    """The trial part of one question's mean-score variance, per model ``(L,)``:
    ``mean_α σ̂²_α / N`` (:attr:`ScoreStats.within`), the questions scope's variance times
    ``M``; NaN at ``N = 1``. The population variance of a question's mean is this plus the
    between-question part, which is never negative, so the population scope reads at least
    this (the moment estimate of the between part truncated at 0, as a random-effects fit
    does): a model's population interval is never narrower than its questions interval.

    Pairs are not floored: the paired ``t`` test reads the sample variance of the
    differences on ``M − 1`` d.o.f., which is exact for it; floored where two models answer
    the questions alike (no between part) its false-decision rate under a tie fell from
    5.0 % to 2.2 % (logit ties, M = 15, N = 8) and its power with it, so a pair's
    population s.d. may come out below its questions s.d. by sampling noise, which the
    ``t`` quantile allows for (``docs/calibration_gaps.md``)."""
    if st.N < 2:
        return np.full(st.ybar.shape[0], np.nan)
    return st.within.mean(-1) / st.N


def wilson_t(x, var, df, n_floor, confidence: float = 0.95):
    """Score (Wilson-type) interval for a ``[0, 1]`` mean with variance ``var`` and ``t`` quantile.

    The effective sample size ``n = x(1 − x) / var`` is clipped below at ``n_floor``
    (where ``var`` reaches its ceiling ``x(1 − x)/n_floor``); at ``x ∈ {0, 1}`` it is
    ``n_floor``. Returns ``(lo, hi)``, inside ``[0, 1]`` by construction. NaN ``var``
    gives NaN ends.

    Near a bound with at most :data:`_FEW` effective event (``n x`` or ``n (1 − x)`` in
    ``(0, 1]``) the end towards that bound is the Poisson one, ``Γ⁻¹(n x; α/2) / n``, where
    it reaches further -- the modified Wilson interval of Brown, Cai & DasGupta (2001),
    whose plain form misses whenever a single rare event is seen (measured: Pass^N on a
    hard benchmark, population scope, 85–87% coverage, every miss at one event). They
    apply it up to 2–3 events; beyond one it made the curve intervals over-cover (97–99%)
    without helping anywhere (``docs/calibration_gaps.md``).

    Example
    -------
    >>> from scorio_core.inference import wilson_t
    >>> lo, hi = wilson_t(0.0, 0.0, 29, 30)
    >>> float(lo), round(float(hi), 3)
    (0.0, 0.122)
    >>> lo, _ = wilson_t(0.01, 0.01 * 0.99 / 100, 99, 100)  # one event in 100
    >>> round(float(lo) * 100, 4)  # the Poisson lower end: 0.0253 events (Wilson: 0.18)
    0.0253
    """
    x = np.clip(np.asarray(x, dtype=float), 0.0, 1.0)
    var = np.asarray(var, dtype=float)
    t = special.stdtrit(np.maximum(df, 1), 0.5 + check_confidence(confidence) / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        n = x * (1 - x) / var
    n = np.where(np.isfinite(n), np.maximum(n, n_floor), n_floor)
    n = np.where((x <= 0) | (x >= 1), n_floor, n)
    t2n = t * t / n
    c = (x + t2n / 2) / (1 + t2n)
    h = t / (1 + t2n) * np.sqrt(x * (1 - x) / n + t2n / (4 * n))
    lo, hi = np.clip(c - h, 0, 1), np.clip(c + h, 0, 1)
    # few events near a bound: the Poisson end where it reaches further (modified Wilson)
    a2 = (1.0 - check_confidence(confidence)) / 2
    ev, miss = x * n, (1 - x) * n
    with np.errstate(invalid="ignore"):
        few_lo = (ev > 1e-9) & (ev <= _FEW + 1e-9)  # tolerance: 1 - (1 - 1/n) is not 1/n
        few_hi = (miss > 1e-9) & (miss <= _FEW + 1e-9)
        lo = np.where(few_lo, np.minimum(lo, special.gammaincinv(np.where(few_lo, ev, 1.0), a2)
                                         / n), lo)
        hi = np.where(few_hi, np.maximum(hi, 1 - special.gammaincinv(
            np.where(few_hi, miss, 1.0), a2) / n), hi)
    bad = np.isnan(var)
    return np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


def pair_pvalues(x, cov, df, floor_var=None):
    """Paired ``t`` statistics, ``P(i > j)`` and two-sided p-values for every pair.

    Parameters
    ----------
    x : array (L,)
        Mean scores.
    cov : array (L, L)
        Covariance of the mean scores.
    df : float or array (L, L)
        Degrees of freedom of the ``t`` reference (per pair when an array).
    floor_var : array (L,), optional
        Per-model variance used for a pair whose difference has zero estimated
        variance but a non-zero mean (all questions differ identically).

    Returns
    -------
    t, prob_better, pvalue, sd : arrays (L, L)
    """
    x = np.asarray(x, dtype=float)
    var = np.diag(cov)[:, None] + np.diag(cov)[None, :] - 2 * cov
    var = np.maximum(var, 0.0)
    gap = x[:, None] - x[None, :]
    if floor_var is not None:
        fv = floor_var[:, None] + floor_var[None, :]
        var = np.where((var <= 0) & (gap != 0), fv, var)
    sd = np.sqrt(var)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(sd > 0, gap / np.where(sd > 0, sd, 1.0),
                     np.where(gap != 0, np.sign(gap) * np.inf, 0.0))
    t = np.where(np.isnan(x)[:, None] | np.isnan(x)[None, :], np.nan, t)
    dfv = np.maximum(np.asarray(df, dtype=float), 1.0)
    P = special.stdtr(dfv, t)
    p = np.minimum(2 * special.stdtr(dfv, -np.abs(t)), 1.0)
    np.fill_diagonal(t, 0.0)
    np.fill_diagonal(P, 0.5)
    np.fill_diagonal(p, 1.0)
    np.fill_diagonal(sd, 0.0)
    return t, P, p, sd


def _closure(D: np.ndarray) -> np.ndarray:
    """Transitive closure of a decided-pairs matrix (boolean squaring)."""
    L = D.shape[0]
    for _ in range(max(1, int(np.ceil(np.log2(max(L, 2)))))):
        D2 = D | ((D.astype(np.int64) @ D.astype(np.int64)) > 0)
        if np.array_equal(D2, D):
            break
        D = D2
    np.fill_diagonal(D, False)
    return D


def decide_pvalues(
    pvalue, prob_better, confidence: float = 0.95, adjust: str = "simultaneous",
    null_stats=None, null_dof: float | None = None,
) -> np.ndarray:
    """Decided pairs ``D[i, j]`` (``i`` beats ``j``) from two-sided p-values.

    ``adjust``: ``"none"`` (each pair at ``1 − confidence``), ``"holm"``, ``"bh"``, or
    ``"simultaneous"`` -- the step-down max-|t| procedure, which needs ``null_stats``:
    draws ``(B, P)`` of the absolute pair statistics under the joint null, columns in
    ``np.triu_indices(L, 1)`` order (``|t|`` on ``null_dof`` d.o.f. when given, as
    :func:`_null_pair_stats` draws them in the population scope). The winner is the model
    with ``P(i > j) > 0.5``.
    Decisions are closed under transitivity.
    """
    p = np.asarray(pvalue, dtype=float)
    Pb = np.asarray(prob_better, dtype=float)
    if adjust not in ADJUSTMENTS:
        raise ValidationError(f"adjust must be one of {ADJUSTMENTS}; got {adjust!r}")
    alpha = 1.0 - check_confidence(confidence)
    L = p.shape[0]
    iu, ju = np.triu_indices(L, 1)
    pv = np.nan_to_num(p[iu, ju], nan=1.0)
    m = pv.size
    ok = np.zeros(m, dtype=bool)
    if m:
        order = np.argsort(pv, kind="stable")
        e = pv[order]
        k = np.arange(1, m + 1)
        if adjust == "none":
            ok = pv <= alpha
        elif adjust == "holm":
            passed = e <= alpha / (m - k + 1)
            n_ok = m if passed.all() else int(np.argmin(passed))
            ok[order[:n_ok]] = True
        elif adjust == "bh":
            passed = np.nonzero(e <= alpha * k / m)[0]
            if passed.size:
                ok[order[: passed[-1] + 1]] = True
        else:
            if null_stats is None:
                raise ValidationError("adjust='simultaneous' needs the null draws (null_stats)")
            z = special.ndtri(1 - np.clip(e, 1e-300, 1.0) / 2)  # observed, as |z|
            Z = np.asarray(null_stats)[:, order]
            # step s compares z_(s) with the (1 − α) quantile of max over pairs s..P; the
            # quantiles are taken in blocks only up to the first pair that fails
            rev_max = np.maximum.accumulate(Z[:, ::-1], axis=1)[:, ::-1]
            kq = min(max(int(np.ceil((1 - alpha) * Z.shape[0])) - 1, 0), Z.shape[0] - 1)
            n_ok = m
            for a in range(0, m, 32):
                crit = null_z(np.partition(rev_max[:, a : a + 32], kq, axis=0)[kq], null_dof)
                passed = _beyond(z[a : a + 32], crit) & (e[a : a + 32] <= alpha)
                if not passed.all():
                    n_ok = a + int(np.argmin(passed))
                    break
            ok[order[:n_ok]] = True
        ok &= pv < 1.0
    D = np.zeros((L, L), dtype=bool)
    win = Pb[iu, ju] > 0.5
    D[iu[ok & win], ju[ok & win]] = True
    D[ju[ok & ~win], iu[ok & ~win]] = True
    return _closure(D)


def scope_covariance(
    st: ScoreStats, scope: str = "questions"
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Covariance ``(L, L)`` of the scaled mean scores in ``scope``, the degrees of
    freedom ``(L, L)`` (diagonal: each model's; off it: each pair difference's), and
    whether the scope is identified.

    questions: ``diag(Σ_α σ̂²_α) / (N M²)``, each model on its effective d.o.f.
    (:func:`within_dof`, at most ``M (N − 1)``) and each pair on the Welch–Satterthwaite
    combination (:func:`pair_dof`); NaN at ``N = 1``. population: ``Cov_α(ȳ_α) / M``
    (``ddof = 1``) on ``M − 1`` d.o.f.
    """
    if scope not in SCOPES:
        raise ValidationError(f"scope must be one of {SCOPES}; got {scope!r}")
    L, M, N = st.ybar.shape[0], st.M, st.N
    if scope == "questions":
        if N < 2:
            return np.full((L, L), np.nan), np.full((L, L), float(M * max(N - 1, 0))), False
        var = st.within.sum(-1) / (N * M * M)
        return np.diag(var), pair_dof(var, st.model_dof), True
    if M < 2:
        return np.full((L, L), np.nan), np.zeros((L, L)), False
    dev = st.ybar - st.xbar[:, None]
    return (dev @ dev.T) / (M * (M - 1)), np.full((L, L), float(M - 1)), True


def _n_floor(st: ScoreStats, scope: str) -> float:
    return float(st.M * st.N) if scope == "questions" else float(st.M)


def _model_variance(st: ScoreStats, scope: str) -> tuple[np.ndarray, np.ndarray | float]:
    """Each model's own variance of its mean score in ``scope`` (scaled units, ``(L,)``) and
    the d.o.f. of its ``t`` quantile: the questions scope's trial-variance total over
    ``N M²`` (NaN at ``N = 1``) on :attr:`ScoreStats.model_dof`; the population scope's
    :func:`population_variance` over ``M`` on ``M − 1``. One definition for
    :func:`model_intervals` and :func:`infer`."""
    M, N = st.M, st.N
    if scope == "questions":
        if N < 2:
            return np.full(st.ybar.shape[0], np.nan), st.model_dof
        return st.within.sum(-1) / (N * M * M), st.model_dof
    return population_variance(st) / M, float(M - 1)


def model_intervals(st: ScoreStats, scope: str = "questions", confidence: float = 0.95):
    """Per-model headline ``(score, se, lo, hi)`` in weight units, without the pairs.

    The same numbers as :func:`infer` (which adds the pairwise decisions); vectorized
    over any number of models -- e.g. simulation replicates stacked as models. Only the
    diagonal of the covariance is formed.

    Example
    -------
    >>> from scorio_core.inference import model_intervals, score_stats
    >>> import numpy as np
    >>> from scorio_core.eval import prepare_counts
    >>> n, _, w = prepare_counts(np.ones((2, 10, 3), dtype=int))
    >>> [np.round(a, 3).tolist() for a in model_intervals(score_stats(n, w), "population")]
    [[1.0, 1.0], [0.0, 0.0], [0.661, 0.661], [1.0, 1.0]]
    """
    if scope not in SCOPES:
        raise ValidationError(f"scope must be one of {SCOPES}; got {scope!r}")
    x = st.xbar
    var, df = _model_variance(st, scope)
    lo, hi = wilson_t(x, var, df, _n_floor(st, scope), confidence)
    span = st.hi_b - st.lo_b
    return st.unscale(x), np.sqrt(var) * span, st.unscale(lo), st.unscale(hi)


@dataclass(frozen=True)
class Inference:
    """Every model's headline score, interval and pairwise decisions in one scope (:func:`infer`).

    Attributes
    ----------
    scope : str
    score, se, lo, hi : numpy.ndarray, shape (L,)
        Mean score (weight units), its standard error in the scope, and the
        calibrated interval; NaN where the scope is not identified. Population scope:
        ``se`` is from :func:`population_variance`, at least ``sqrt(diag(cov))``.
    cov : numpy.ndarray, shape (L, L)
        Covariance of the scores (weight units) behind the pairs; diagonal in the
        questions scope.
    df : numpy.ndarray, shape (L, L)
        Degrees of freedom of the ``t`` references: each model's on the diagonal, each
        pair difference's off it (:func:`scope_covariance`).
    diff_sd, t, prob_better, pvalue : numpy.ndarray, shape (L, L)
        Pairwise s.d. of the difference, paired ``t``, ``P(i > j)`` (confidence
        distribution) and two-sided p-values.
    decided : numpy.ndarray of bool, shape (L, L)
        ``decided[i, j]``: ``i`` beats ``j`` at the confidence under ``adjust``.
    rank_lo, rank_hi : numpy.ndarray, shape (L,)
    p_best : numpy.ndarray, shape (L,)
    identified : bool
        False in the questions scope at ``N = 1`` and in the population scope at ``M = 1``
        (:data:`NOT_IDENTIFIED` says why, per scope).
    confidence : float
    adjust : str
    n_draws, seed : int
    field_cov : numpy.ndarray, shape (L, L), optional
        The shrunk covariance behind :attr:`draws` (:func:`field_covariance`).
    ybar : numpy.ndarray, shape (L, M), optional
        Per-question scaled scores, for the population scope's :attr:`could_be_first`.
    spread : (taus, weights), optional
        The prior on the field's spread behind :attr:`draws` in score units (a learned
        :class:`~scorio_core.spread_prior.SpreadPrior`); ``None``: the flat prior.
    """

    scope: str
    score: np.ndarray
    se: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    cov: np.ndarray
    df: np.ndarray
    diff_sd: np.ndarray
    t: np.ndarray
    prob_better: np.ndarray
    pvalue: np.ndarray
    decided: np.ndarray
    rank_lo: np.ndarray
    rank_hi: np.ndarray
    p_best: np.ndarray
    identified: bool
    confidence: float
    adjust: str
    n_draws: int
    seed: int
    field_cov: np.ndarray | None = None
    ybar: np.ndarray | None = None
    spread: tuple[np.ndarray, np.ndarray] | None = None

    @cached_property
    def could_be_first(self) -> np.ndarray:
        """Confidence set for the best model, shape ``(L,)``: multiple comparisons with the
        best (:func:`first_set`). It holds the truly best model (highest estimand in the
        scope) with at least ``confidence`` whatever the field, near-tied leaders included,
        under any ``adjust`` (it is its own test); ``p_best`` is a probability under a model
        of the field and runs high there (docs/calibration_gaps.md). Every model where the
        scope is not identified.
        """
        L = self.score.size
        if not self.identified:
            return np.ones(L, dtype=bool)
        return first_set(self.t, self.df, self.cov, self.diff_sd, self.scope, self.ybar,
                         self.confidence, self.n_draws, self.seed)

    @cached_property
    def open_level(self) -> float:
        """Two-sided per-pair level at which a pair still open is decided under
        :attr:`adjust` (:func:`open_pair_level`); the simultaneous null is the one the
        decisions used when :func:`infer` drew it."""
        null = None
        if self.adjust == "simultaneous" and self.identified and self.score.size > 1:
            null = simultaneous_null(self.cov, self.diff_sd, self.scope, self.df,
                                     self.n_draws, self.seed, self.ybar)
        return open_pair_level(self.decided, self.confidence, self.adjust, self.identified,
                               null, null_dof(self.scope, self.df))

    @cached_property
    def draws(self) -> np.ndarray:
        """Draws ``(n_draws, L)`` of the true scores (:func:`field_draws`, weight units)."""
        cov = self.cov if self.field_cov is None else self.field_cov
        return field_draws(self.score, inflate(cov, self.df), self.n_draws, self.seed,
                           self.spread)

    @cached_property
    def rank_dist(self) -> np.ndarray:
        """``rank_dist[i, r] = P(model i has rank r + 1)`` over :attr:`draws`, shape (L, L)."""
        L = self.score.size
        if not self.identified:
            return np.full((L, L), np.nan)
        S = self.draws
        order = np.argsort(-S, axis=1, kind="stable")
        flat = (order * L + np.arange(L)[None, :]).ravel()
        return np.bincount(flat, minlength=L * L).reshape(L, L) / S.shape[0]

    @property
    def expected_rank(self) -> np.ndarray:
        return self.rank_dist @ np.arange(1, self.score.size + 1)


def _sqrt_psd(cov: np.ndarray) -> np.ndarray:
    """A square root of each symmetric PSD matrix of ``cov`` (one or a stack)."""
    vals, vecs = np.linalg.eigh((cov + np.swapaxes(cov, -1, -2)) / 2)
    return vecs * np.sqrt(np.clip(vals, 0, None))[..., None, :]


def _t_inflation(df):
    """``df / (df − 2)``: the variance of a ``t`` on ``df`` d.o.f. (3 below 3 d.o.f.)."""
    df = np.asarray(df, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(df > 3, df / (df - 2), 3.0)
    return float(out) if out.ndim == 0 else out


def inflate(cov: np.ndarray, df) -> np.ndarray:
    """``cov`` scaled to the variance of a ``t`` law: by ``df/(df − 2)`` for a scalar
    ``df``; per model for a matrix (:func:`scope_covariance`), ``cov_ij √(f_i f_j)`` with
    ``f`` from its diagonal.

    Example
    -------
    >>> from scorio_core.inference import inflate
    >>> import numpy as np
    >>> inflate(np.eye(2), np.array([[12.0, 7.0], [7.0, 6.0]])).round(2).tolist()
    [[1.2, 0.0], [0.0, 1.5]]
    """
    df = np.asarray(df, dtype=float)
    if df.ndim == 0:
        return cov * _t_inflation(df)
    f = np.atleast_1d(_t_inflation(np.diag(df)))
    if np.all(f == f[0]):  # one d.o.f. for every model: the scalar product, bit for bit
        return cov * f[0]
    r = np.sqrt(f)
    return cov * r[:, None] * r[None, :]


def field_covariance(st: ScoreStats, scope: str, cov: np.ndarray) -> tuple[np.ndarray, float]:
    """The covariance :func:`field_draws` uses, and the shrinkage intensity ``λ``.

    questions scope: ``cov`` itself (``λ = 0``). population scope: the part of ``cov`` that
    compares models (its projection on the contrasts, orthogonal to ``1``) is shrunk
    towards the exchangeable additive model's -- per-question scores
    ``y_iα = a_i + b_α + e_iα`` with independent interactions ``e_iα`` of one common
    variance, so every contrast ``S`` of the models has the same variance: the target is
    ``T = tr(S)/(L − 1) · P`` (compound symmetry; ``P`` the centring projection) -- with the
    Ledoit & Wolf (2004) intensity ``λ = π̂ / ‖S − T‖²_F`` (clipped to [0, 1]) estimated from
    the questions themselves (``π̂``: the summed sampling variances of the entries of
    ``S``). The common part (what all models share, e.g. question difficulty) is kept as
    estimated.

    Why: ``p_best`` conditions on the leader's lead, and the lead looks decisive exactly
    when the few-question estimate of its variance came out small; at M = 30 this made
    ``p_best`` over-confident (predicted 0.70, observed 0.52). A less noisy covariance
    halves that (docs/calibration_gaps.md). The target has one variance for every model,
    not one each: a model's own variance estimate moves with its own luck (on an easy
    benchmark a model whose mean came out high has more questions at the ceiling, hence a
    smaller variance -- correlation −0.5 at M = 100), which made the observed leader look
    surest exactly when it was lucky. Where the models' interactions really differ in size
    or are correlated (e.g. two fine-tunes of one base), ``‖S − T‖`` is large, ``λ`` comes
    out small and ``cov`` is kept. The intervals and decisions do not use this; they use
    ``cov``. The Planner's population gap draws do (they are the same posterior).

    Example
    -------
    >>> from scorio_core.inference import score_stats, scope_covariance, field_covariance
    >>> import numpy as np
    >>> from scorio_core.eval import prepare_counts
    >>> R = np.random.default_rng(0).integers(0, 2, (4, 30, 8))
    >>> st = score_stats(prepare_counts(R)[0], np.array([0.0, 1.0]))
    >>> cov, _, _ = scope_covariance(st, "population")
    >>> fc, lam = field_covariance(st, "population", cov)
    >>> bool(np.allclose((fc - cov) @ np.ones(4), 0)), 0.0 <= lam <= 1.0
    (True, True)
    """
    if scope != "population":
        return cov, 0.0
    Y = st.ybar
    L, M = Y.shape
    if L <= 2 or M < 2:
        return cov, 0.0
    P = np.eye(L) - 1.0 / L
    C = P @ (Y - Y.mean(1, keepdims=True))  # contrasts of the centred per-question scores
    S = C @ C.T / (M - 1)
    T = np.trace(S) / (L - 1) * P  # one interaction variance for every model
    s_biased = S * (M - 1) / M
    C2 = C * C
    pi = (float((C2 @ C2.T).sum()) / M - float((s_biased**2).sum())) / M
    gap = float(((S - T) ** 2).sum())
    lam = float(np.clip(pi / gap, 0.0, 1.0)) if gap > 0 else 1.0
    shrunk = (lam * T + (1 - lam) * S) / M
    return cov - P @ cov @ P + shrunk, lam


def field_inputs(st: ScoreStats, scope: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The scaled scores and the covariance :func:`field_draws` reads in ``scope`` (the
    shrunk :func:`field_covariance` at the ``t`` law's variance), or ``None`` where the
    scope is not identified. One definition for :func:`infer` and for learning a prior on
    the field's spread (:func:`scorio_core.spread_prior.fit_spread_prior`)."""
    cov, df, identified = scope_covariance(st, scope)
    if not identified:
        return None
    return st.xbar, _draw_covariance(st, scope, cov, df)[1]


def _draw_covariance(st: ScoreStats, scope: str, cov: np.ndarray, df) -> tuple[np.ndarray,
                                                                               np.ndarray]:
    """The shrunk covariance (:func:`field_covariance`) and the one :func:`field_draws`
    reads: it at the ``t`` law's variance (:func:`inflate`)."""
    fcov, _ = field_covariance(st, scope, cov)
    return fcov, inflate(fcov, df)


#: Grid of the between-model s.d. ``τ`` for :func:`field_draws` (multiples of its scale).
_TAU_GRID = np.linspace(0.0, 1.0, 65)
#: Largest stack of ``L × L`` matrices :func:`spread_loglik` inverts at once (entries).
_STACK_CELLS = 1_000_000


def spread_loglik(x, cov, taus) -> tuple[np.ndarray, list]:
    """Restricted log-likelihood of the field's spread ``τ`` at each of ``taus`` (``μ``
    integrated out under a flat prior), and per ``τ`` the pieces :func:`field_draws` draws
    from: ``(V⁻¹, 1ᵀV⁻¹1, μ̂)`` with ``V = τ² I + Σ``. One definition for the draws and for
    learning a prior on ``τ`` across fields (:func:`scorio_core.spread_prior.fit_spread_prior`).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.inference import spread_loglik
    >>> ll, _ = spread_loglik(np.array([0.4, 0.5, 0.6]), np.diag([1e-4] * 3), [0.0, 0.1, 1.0])
    >>> int(np.argmax(ll))  # the three scores are 0.1 apart: tau near 0.1
    1
    """
    x = np.asarray(x, dtype=float)
    cov = np.asarray(cov, dtype=float)
    L = x.size
    one = np.ones(L)
    taus = np.asarray(taus, dtype=float)
    ll = np.empty(taus.size)
    parts = []
    # the inverses and determinants of a block of grid points in one stacked call each
    # (the same LAPACK calls per matrix, bit for bit, without numpy's per-call overhead;
    # 5x faster for a 65-point grid of 11 models)
    block = max(1, _STACK_CELLS // (L * L))
    for start in range(0, taus.size, block):
        t = taus[start : start + block]
        V = cov + (t * t + 1e-15)[:, None, None] * np.eye(L)
        Vis = np.linalg.pinv(V, hermitian=True)
        signs, logdets = np.linalg.slogdet(V)
        for k, Vi in enumerate(Vis):
            a = float(one @ Vi @ one)
            mu_hat = float(one @ Vi @ x) / a
            r = x - mu_hat
            ll[start + k] = (-0.5 * (logdets[k] + np.log(a) + r @ Vi @ r) if signs[k] > 0
                             else -np.inf)
            parts.append((Vi, a, mu_hat))
    return ll, parts


def _spread_scale(x, cov) -> float:
    """``3 sd(x) + 3 max √Σ_ii``: the top of the flat prior's grid of ``τ``."""
    return 3 * float(np.std(x)) + 3 * float(np.sqrt(np.max(np.diag(cov)))) + 1e-12


def flat_spread_grid(x, cov) -> np.ndarray:
    """The flat prior's grid of ``τ`` for the field ``(x, cov)``: 65 values from 0 to
    ``3 sd(x) + 3 max √Σ_ii``."""
    return _TAU_GRID * _spread_scale(x, cov)


def field_draws(x, cov, size: int, seed: int = 0, prior=None) -> np.ndarray:
    """Draws ``(size, L)`` of the models' true scores from a hierarchical posterior.

    Model: ``θ_i ~ N(μ, τ²)`` across the models of the field, ``x | θ ~ N(θ, Σ)`` with the
    scope's covariance ``Σ``; a flat prior on ``μ``; on ``τ`` either a flat prior (a grid of
    65 values up to ``3 sd(x) + 3 max √Σ_ii``, :func:`flat_spread_grid`) or ``prior``, a
    prior learned from earlier fields (``(taus, weights)`` in the units of ``x``:
    :meth:`scorio_core.spread_prior.SpreadPrior.on`); either is weighted by the restricted
    likelihood of ``τ`` with ``μ`` integrated out (:func:`spread_loglik`). Given ``τ``:
    ``μ ~ N(μ̂, 1/(1ᵀV⁻¹1))`` and ``θ ~ N(μ + T V⁻¹ (x − μ), T − T V⁻¹ T)`` with
    ``T = τ² I``, ``V = T + Σ``.

    Why not ``N(x, Σ)`` alone: with a flat prior on every model the leader's lead is taken at
    face value, and ``p_best`` is over-confident whenever the field is close (measured: a
    predicted 0.8 came true 0.6 of the time); learning how spread the field is removes that
    (winner's curse). How spread a field is cannot be learned from two or three means,
    though: a prior learned from earlier fields like it fills that in
    (docs/calibration_gaps.md). The decisions and intervals do not use these draws.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.inference import field_draws
    >>> S = field_draws(np.array([0.5, 0.5, 0.9]), np.diag([1e-4] * 3), 2000, seed=1)
    >>> S.shape, bool(np.mean(S.argmax(1) == 2) > 0.99)
    ((2000, 3), True)
    """
    x = np.asarray(x, dtype=float)
    cov = np.asarray(cov, dtype=float)
    L = x.size
    rng = stream([int(seed), 1])
    size = int(size)
    if L == 1:
        return np.repeat(x[None, :], size, 0)
    scale = _spread_scale(x, cov)
    if prior is None:
        taus = _TAU_GRID * scale
        logw = 0.0
    else:
        taus, w = (np.asarray(a, dtype=float) for a in prior)
        keep = w > 0
        taus, logw = taus[keep], np.log(w[keep])
    ll, parts = spread_loglik(x, cov, taus)
    ll = ll + logw
    wts = np.exp(ll - ll.max())
    wts /= wts.sum()
    pick = np.bincount(rng.choice(taus.size, size=size, p=wts), minlength=taus.size)
    out = np.empty((size, L))
    at = 0
    drawn = np.nonzero(pick)[0]
    t2 = (taus[drawn] ** 2)[:, None, None]
    gains = t2 * np.array([parts[g][0] for g in drawn]).reshape(-1, L, L)  # T V^-1 per τ
    # the square roots of every τ's covariance in one stacked call (the same LAPACK call per
    # matrix, bit for bit; the calibration loops spent a fifth of their time in this loop)
    roots = _sqrt_psd(t2 * np.eye(L) - t2 * gains)
    for j, g in enumerate(drawn):
        k = int(pick[g])
        _, a, mu_hat = parts[g]
        mu = mu_hat + rng.standard_normal(k) / np.sqrt(a)  # (k,)
        mean = mu[:, None] + (x[None, :] - mu[:, None]) @ gains[j].T
        out[at : at + k] = mean + rng.standard_normal((k, L)) @ roots[j].T
        at += k
    # exact ties (tau = 0 gives every model the same value) are broken at random, not by index
    out += rng.random((size, L)) * (1e-12 * scale)
    return out[rng.permutation(size)]


def _null_pair_stats(cov, sd, size, seed, ybar=None, signed: bool = False) -> np.ndarray:
    """|z| (or, with ``ybar``, |t|) of every pair under the joint null, columns in
    ``np.triu_indices(L, 1)`` order; with ``signed`` the statistics themselves (column
    ``(i, j)``: ``i`` above ``j``), as the comparison with the best (:func:`first_set`) needs.

    Without ``ybar`` (questions scope, where each variance rests on many trials): ``(Z_i −
    Z_j) / sd_ij``, ``Z ~ N(0, cov)``. With the per-question scores ``ybar`` ``(L, M)``
    (population scope: each pair's paired ``t`` on ``M − 1`` d.o.f.) the null is a *wild
    bootstrap* of the studentized statistics with the null imposed -- a sign-flip
    randomization test: each draw flips the sign of every question's pair differences at
    random (Rademacher weights, one per question, shared by all pairs, so the differences
    keep their per-question dependence across pairs and the shape of their distribution),
    and each pair's ``|t|`` is recomputed from the draw's own mean and variance exactly as
    the observed one is (:func:`null_z` maps a critical value to the ``|z|`` scale of the
    observed p-values). The differences are flipped as observed, not centred at their
    means: under a tie whose per-question differences are symmetric (i.i.d. models) the
    observed signs are one equally likely pattern and the test is exact; otherwise it is
    the studentized randomization test, valid as ``M`` grows. A normal null -- even one
    studentized with a Wishart covariance -- misses the heavier-than-``t`` tails that the
    studentized mean of light-tailed per-question differences has at the 0.1–0.3% per-pair
    levels this procedure spends: with 15 questions and 8 tied models it made a false
    decision 6.5% of the time at nominal 5%, the sign flips 5.0–5.3%
    (docs/calibration_gaps.md).
    """
    L = cov.shape[0]
    iu, ju = np.triu_indices(L, 1)
    size = int(max(1000, min(size, _MAXT_CELLS // max(iu.size, 1))))
    rng = stream([int(seed), 2])
    if ybar is None:
        Z = (rng.standard_normal((size, L)) @ _sqrt_psd(cov).T).astype(np.float32)
        s = sd[iu, ju]  # the differences in float32: half the memory
        inv = np.where(s > 0, 1.0 / np.where(s > 0, s, 1.0), 0.0).astype(np.float32)
        diff = (Z[:, iu] - Z[:, ju]) * inv
        return diff if signed else np.abs(diff)
    y = np.asarray(ybar, dtype=float)
    M = y.shape[1]
    D = y[iu] - y[ju]  # (P, M): each pair's per-question differences, the null imposed
    ss = (D * D).sum(1)  # a sign flip leaves each square as it is
    out = np.empty((size, iu.size), dtype=np.float32)
    step = max(1, _MAXT_CELLS // (2 * iu.size + M))  # draws per block
    for a in range(0, size, step):
        b = min(size, a + step)
        W = 1.0 - 2.0 * rng.integers(0, 2, (b - a, M)).astype(float)
        mean = (W @ D.T) / M
        var = np.maximum(ss[None, :] - M * mean * mean, 0.0) / (M - 1)
        pos = var > 0
        stat = np.where(pos, mean / np.sqrt(np.where(pos, var, 1.0) / M), 0.0)
        out[a:b] = stat if signed else np.abs(stat)
    return out


def first_set(t, df, cov, sd, scope: str, ybar=None, confidence: float = 0.95,
              draws: int = 10_000, seed: int = 0, null=None) -> np.ndarray:
    """Confidence set for the best model by multiple comparisons with the best (Gupta's
    subset selection, Hsu's MCB; Hsu 1996, *Multiple Comparisons*, ch. 4), shape ``(L,)``.

    Model ``i`` stays in the set unless some model beats it by more than the
    ``confidence`` quantile of ``max_{j≠i} T_ji`` -- the largest of its ``L − 1``
    one-sided pair statistics ``T_ji`` (``j`` above ``i``) under the joint null of a tie
    with ``i``, drawn as the simultaneous procedure's null is (:func:`_null_pair_stats`:
    normal in the questions scope, where each observed ``t`` is first mapped to the normal
    scale through its pair's own ``t`` law; sign flips of the per-question differences,
    studentized, in the population scope). The truly best model ``b`` is left out only if
    ``max_j T_jb`` exceeds its critical value; every true difference ``θ_j − θ_b ≤ 0``
    pulls ``T_jb`` down, so that happens with probability at most ``1 − confidence``
    whatever the field, with equality when every model ties with ``b`` (measured: 94.3–95.5%
    at exact ties, 8 models, 2,000 fields per cell; docs/calibration_gaps.md). Each model
    is tested against only its ``L − 1`` rivals, one-sided, so the set is smaller than the
    models at rank 1 of family-wise rank intervals (which spend the level on all
    ``L (L − 1) / 2`` pairs, two-sided) and needs no multiplicity adjustment.

    Parameters
    ----------
    t, df, cov, sd : numpy.ndarray, shape (L, L)
        Pair statistics ``t[j, i] = (x_j − x_i) / sd[j, i]`` on ``df`` d.o.f. and the
        covariance of the means (:func:`pair_pvalues`, :func:`scope_covariance`).
    scope : {"questions", "population"}
    ybar : numpy.ndarray, shape (L, M)
        Per-question scores; needed in the population scope.
    confidence, draws, seed
        Level; size and seed of the null draws (the simultaneous procedure's stream).
    null : numpy.ndarray, optional
        Those draws, signed (:func:`simultaneous_null`), when the caller already has
        them (:func:`infer` with ``adjust="simultaneous"``).

    Example
    -------
    >>> from scorio_core.inference import score_stats, infer, first_set
    >>> import numpy as np
    >>> c = np.random.default_rng(0).binomial(4, [[.9] * 40, [.85] * 40, [.5] * 40])
    >>> st = score_stats(np.stack([4 - c, c], -1), np.array([0.0, 1.0]))
    >>> inf = infer(st, "population", 0.95, "holm", 2000)
    >>> first_set(inf.t, inf.df, inf.cov, inf.diff_sd, "population", st.ybar).tolist()
    [True, True, False]
    """
    t = np.asarray(t, dtype=float)
    L = t.shape[0]
    if L < 2:
        return np.ones(L, dtype=bool)
    ndof = null_dof(scope, df)
    if null is None:
        null = simultaneous_null(cov, sd, scope, df, draws, seed, ybar)
    if ndof is None:  # each pair on the normal scale through its own t law, as the null is
        dfv = np.maximum(np.asarray(df, dtype=float), 1.0)
        with np.errstate(invalid="ignore"):
            obs = -special.ndtri(np.clip(special.stdtr(dfv, -t), 1e-300, 1.0))
    else:  # the population null is drawn on the observed t scale itself
        obs = t.copy()
    obs = np.where(np.isnan(obs), -np.inf, obs)  # no statistic, no evidence
    np.fill_diagonal(obs, -np.inf)
    iu, ju = np.triu_indices(L, 1)
    k = min(max(int(np.ceil(confidence * null.shape[0])) - 1, 0), null.shape[0] - 1)
    keep = np.ones(L, dtype=bool)
    for i in range(L):
        # column (a, i), a < i: "a above i" as drawn; column (i, b): "b above i" is minus it
        rivals = np.concatenate([null[:, ju == i], -null[:, iu == i]], axis=1)
        keep[i] = not _beyond(obs[:, i].max(), np.partition(rivals.max(1), k)[k])
    return keep


def null_z(t, dof: float | None):
    """Normal-equivalent ``|z|`` of ``|t|`` on ``dof`` d.o.f. (the same two-sided p-value);
    ``t`` itself when ``dof`` is ``None``. Monotone, so a quantile of the studentized
    null's max can be taken on the ``t`` scale and mapped once."""
    if dof is None:
        return t
    t = np.asarray(t, dtype=float)
    return -special.ndtri(np.clip(special.stdtr(float(round(dof)), -t), 1e-300, 0.5))


def null_dof(scope: str, df) -> float | None:
    """The d.o.f. that studentize the simultaneous null: the population scope's shared
    ``M − 1`` (one covariance from the questions), ``None`` in the questions scope."""
    if scope != "population":
        return None
    d = np.asarray(df, dtype=float)
    return float(d.flat[0]) if d.size else None


def decide_pairs(p, P, confidence: float, adjust: str, cov, sd, scope: str, df,
                 draws: int = 10_000, seed: int = 0, ybar=None, null=None) -> np.ndarray:
    """Decisions ``(L, L)`` of every pair: :func:`decide_pvalues` on the per-pair p-values,
    with the simultaneous procedure's null drawn for ``scope`` (:func:`_null_pair_stats`:
    from ``cov`` and the pair s.d. ``sd`` in the questions scope, from the per-question
    scores ``ybar`` ``(L, M)`` in the population scope, studentized on :func:`null_dof`) --
    or taken from ``null``, those draws signed, when the caller has them; the other
    adjustments need no draws."""
    ndof = null_dof(scope, df)
    if adjust == "simultaneous" and np.shape(p)[0] > 1:
        if null is None:
            null = simultaneous_null(cov, sd, scope, df, draws, seed, ybar)
        return decide_pvalues(p, P, confidence, adjust, np.abs(null), ndof)
    return decide_pvalues(p, P, confidence, adjust, None, ndof)


def simultaneous_null(cov, sd, scope: str, df, draws: int, seed: int, ybar=None) -> np.ndarray:
    """The signed null draws of the pair statistics that the ``simultaneous`` decisions
    (their absolute values) and the comparison with the best (:func:`first_set`) share:
    :func:`_null_pair_stats` for ``scope`` -- one draw serves both."""
    ndof = null_dof(scope, df)
    if ndof is not None and ybar is None:
        raise ValidationError("the population scope's null draws (sign flips of the "
                              "questions' pair differences) need the per-question scores "
                              "(ybar)")
    return _null_pair_stats(cov, sd, draws, seed, None if ndof is None else ybar, signed=True)


def open_pair_level(D, confidence: float, adjust: str, identified: bool = True, null=None,
                    dof: float | None = None) -> float:
    """Two-sided per-pair level at which a pair still open in the decisions ``D`` ``(L, L)``
    is decided under ``adjust``: ``none`` ``1 − confidence``; ``holm`` ``(1 − confidence)
    / K`` with ``K`` the pairs still open (the step a newly decided pair passes at the
    latest; conservative for ``bh``, which is given the same level); ``simultaneous`` the
    tail of the ``confidence`` quantile of the max-|t| null over the open pairs (``null``:
    its signed draws ``(B, P)``, :func:`simultaneous_null`), as the step-down procedure
    applies it once the decided pairs are removed.

    Example
    -------
    >>> from scorio_core.inference import open_pair_level
    >>> import numpy as np
    >>> D = np.zeros((3, 3), dtype=bool); D[0, 2] = True
    >>> [round(open_pair_level(D, 0.95, a), 4) for a in ("none", "holm")]  # two pairs open
    [0.05, 0.025]
    """
    alpha = 1.0 - confidence
    L = np.shape(D)[0]
    iu, ju = np.triu_indices(L, 1)
    open_ = ~(D[iu, ju] | D[ju, iu])
    k = int(open_.sum())
    if adjust == "none" or k <= 1 or not identified:
        return alpha
    if adjust in ("holm", "bh"):
        return alpha / k
    if null is None:
        raise ValidationError("adjust='simultaneous' needs the null draws (null)")
    Z = np.abs(np.asarray(null)[:, open_])
    c = float(null_z(np.quantile(Z.max(1), 1.0 - alpha), dof))
    return float(2.0 * special.ndtr(-c))


class _Decisions(NamedTuple):
    """What :func:`infer` and :func:`decided` share: the scope's statistics and decisions."""

    x: np.ndarray
    cov: np.ndarray
    df: np.ndarray
    identified: bool
    var: np.ndarray
    lo_s: np.ndarray
    hi_s: np.ndarray
    t: np.ndarray | None = None
    P: np.ndarray | None = None
    p: np.ndarray | None = None
    sd: np.ndarray | None = None
    D: np.ndarray | None = None
    null: np.ndarray | None = None  # the simultaneous null, signed, where it was drawn


def _check_infer_args(scope: str, adjust: str, confidence: float) -> float:
    if scope not in SCOPES:
        raise ValidationError(f"scope must be one of {SCOPES}; got {scope!r}")
    if adjust not in ADJUSTMENTS:
        raise ValidationError(f"adjust must be one of {ADJUSTMENTS}; got {adjust!r}")
    return check_confidence(confidence)


def _decisions(st: ScoreStats, scope: str, confidence: float, adjust: str, draws: int,
               seed: int) -> _Decisions:
    x = st.xbar
    cov, df, identified = scope_covariance(st, scope)
    var, _ = _model_variance(st, scope)  # the questions scope's is diag(cov)
    lo_s, hi_s = wilson_t(x, var, np.diag(df), _n_floor(st, scope), confidence)
    if not identified:
        return _Decisions(x, cov, df, False, var, lo_s, hi_s)
    tq = special.stdtrit(np.maximum(np.diag(df), 1.0), 0.5 + confidence / 2)
    floor_var = ((hi_s - lo_s) / (2 * tq)) ** 2
    t, P, p, sd = pair_pvalues(x, cov, df, floor_var)
    null = (simultaneous_null(cov, sd, scope, df, draws, seed, st.ybar)
            if adjust == "simultaneous" and x.size > 1 else None)
    D = decide_pairs(p, P, confidence, adjust, cov, sd, scope, df, draws, seed, st.ybar, null)
    return _Decisions(x, cov, df, True, var, lo_s, hi_s, t, P, p, sd, D, null)


def scope_open_level(st: ScoreStats, scope: str, confidence: float = 0.95,
                     adjust: str = ADJUSTMENTS[0], draws: int = 10_000, seed: int = 0) -> float:
    """:attr:`Inference.open_level` of ``infer(st, scope, confidence, adjust, draws, seed)``
    without the confidence distribution's draws: the per-pair level at which a pair still
    open in that scope's decisions is decided (:func:`open_pair_level` on the decisions
    :func:`decided` returns, with the simultaneous null they used). For a plan whose
    decision is made in another scope than the board's: new questions are decided in the
    population scope whatever the board's scope (at ``N = 1`` the questions scope decides
    nothing, so its own level, ``1 − confidence``, is not the one such a plan faces).

    Example
    -------
    >>> from scorio_core.inference import score_stats, scope_open_level, infer
    >>> import numpy as np
    >>> c = np.random.default_rng(0).binomial(1, np.full((4, 30), 0.5))  # one trial each
    >>> st = score_stats(np.stack([1 - c, c], -1), np.array([0.0, 1.0]))
    >>> round(infer(st, "questions", 0.95, "holm").open_level, 4)  # decides nothing
    0.05
    >>> round(scope_open_level(st, "population", 0.95, "holm"), 4)  # six pairs open: 0.05 / 6
    0.0083
    """
    confidence = _check_infer_args(scope, adjust, confidence)
    return _open_level(_decisions(st, scope, confidence, adjust, int(draws), int(seed)), scope,
                       confidence, adjust)


def _open_level(d: _Decisions, scope: str, confidence: float, adjust: str) -> float:
    """:func:`open_pair_level` of the decisions ``d`` (one call for :func:`infer` and
    :func:`scope_open_level`)."""
    D = d.D if d.identified else np.zeros((d.x.size, d.x.size), dtype=bool)
    return open_pair_level(D, confidence, adjust, d.identified, d.null, null_dof(scope, d.df))


def decided(
    st: ScoreStats,
    scope: str = "questions",
    confidence: float = 0.95,
    adjust: str = "simultaneous",
    draws: int = 10_000,
    seed: int = 0,
) -> np.ndarray:
    """``infer(...).decided`` without the confidence distribution's draws (``p_best``, rank
    distribution): ``D[i, j]`` -- model ``i`` decided above ``j`` -- exactly as :func:`infer`
    decides it (all ``False`` where the scope is not identified). For simulations that only
    ask which pairs are decided (the Planner's realised plans).

    Example
    -------
    >>> from scorio_core.inference import score_stats, decided, infer
    >>> import numpy as np
    >>> c = np.random.default_rng(0).binomial(8, [[0.9] * 30, [0.5] * 30, [0.45] * 30])
    >>> st = score_stats(np.stack([8 - c, c], -1), np.array([0.0, 1.0]))
    >>> D = decided(st, "questions", 0.95, "holm")
    >>> bool((D == infer(st, "questions", 0.95, "holm", 2000).decided).all()), D.sum()
    (True, np.int64(2))
    """
    confidence = _check_infer_args(scope, adjust, confidence)
    d = _decisions(st, scope, confidence, adjust, int(draws), int(seed))
    L = st.ybar.shape[0]
    return d.D if d.identified else np.zeros((L, L), dtype=bool)


def infer(
    st: ScoreStats,
    scope: str = "questions",
    confidence: float = 0.95,
    adjust: str = "simultaneous",
    draws: int = 10_000,
    seed: int = 0,
    spread_prior=None,
) -> Inference:
    """Headline scores, calibrated intervals, decisions and rank intervals in ``scope``.

    Parameters
    ----------
    st : ScoreStats
        From :func:`score_stats`.
    scope : {"questions", "population"}
    confidence : float
        Interval level and decision level (two-sided).
    adjust : {"simultaneous", "holm", "bh", "none"}
        Multiplicity control over the ``L(L−1)/2`` pairs (:data:`ADJUST_HELP`).
    draws, seed : int
        Size and seed of the confidence-distribution draws (``p_best``, rank
        distribution) and of the null draws of the simultaneous procedure.
    spread_prior : SpreadPrior, optional
        A prior on the field's spread learned from earlier fields
        (:func:`scorio_core.spread_prior.fit_spread_prior`) for ``p_best`` and the rank
        distribution; default: a flat prior.

    Returns
    -------
    Inference
    """
    confidence = _check_infer_args(scope, adjust, confidence)
    L = st.ybar.shape[0]
    span = st.hi_b - st.lo_b
    d = _decisions(st, scope, confidence, adjust, int(draws), int(seed))
    x, cov, df, var, lo_s, hi_s = d.x, d.cov, d.df, d.var, d.lo_s, d.hi_s
    score = st.unscale(x)
    if not d.identified:
        nan = np.full(L, np.nan)
        nanLL = np.full((L, L), np.nan)
        np.fill_diagonal(nanLL, 0.5)
        D = np.zeros((L, L), dtype=bool)
        none = np.full((L, L), np.nan)  # cov, df, sd, t, p: no test can be run
        return Inference(scope, score, nan, nan, nan, none, none.copy(), none.copy(),
                         none.copy(), nanLL, none.copy(), D, np.ones(L, dtype=int),
                         np.full(L, L), nan, False, confidence, adjust, int(draws), int(seed))
    t, P, p, sd, D = d.t, d.P, d.p, d.sd, d.D
    rank_lo, rank_hi = 1 + D.sum(0), L - D.sum(1)
    # the covariance is estimated on df degrees of freedom: use the t law's variance; the
    # field's draws use the shrunk covariance (field_covariance)
    fcov, fcov_t = _draw_covariance(st, scope, cov, df)
    prior = None if spread_prior is None else spread_prior.on(scope)  # scaled units
    S = field_draws(x, fcov_t, draws, seed, prior)
    p_best = np.bincount(np.argmax(S, axis=1), minlength=L) / S.shape[0]
    inf = Inference(
        scope, score, np.sqrt(var) * span, st.unscale(lo_s), st.unscale(hi_s), cov * span**2, df,
        sd * span, t, P, p, D, rank_lo, rank_hi, p_best, True, confidence, adjust, int(draws),
        int(seed), fcov * span**2, st.ybar,
        None if prior is None else (prior[0] * span, prior[1]),
    )
    inf.__dict__["draws"] = st.unscale(S)  # cached_property slot: the draws above
    if d.null is not None:  # the simultaneous null is drawn: the set reads the same draws
        inf.__dict__["could_be_first"] = first_set(t, df, cov, sd, scope, st.ybar,
                                                   confidence, draws, seed, d.null)
        inf.__dict__["open_level"] = _open_level(d, scope, confidence, adjust)
    return inf
