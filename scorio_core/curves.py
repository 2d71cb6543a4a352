"""Pass@k, Pass^k and G-Pass@k_τ curves for every ``k ≤ N``, with calibrated intervals.

The point value at each ``k`` is the unbiased estimator of :mod:`scorio_core.eval`
(000 eqs. 21–23): the mean over questions of ``E[f(X)]``, ``X ~ Hypergeom(N, c, k)``, read
from the same table (:func:`scorio_core.eval.pass_table`), so it equals
:func:`~scorio_core.eval.pass_at_k` (and ``pass_hat_k``, ``g_pass_at_k_tau``) exactly.

**Estimands** (SPEC §4), for a model whose success probability on question ``α`` is
``p_α`` and ``f_k(p) = 1 − (1 − p)^k`` (Pass@k), ``p^k`` (Pass^k) or
``P(Bin(k, p) ≥ ⌈τk⌉)`` (G-Pass@k_τ):

* questions -- ``(1/M) Σ_α f_k(p_α)``: the metric on the ``M`` questions asked, only the
  finite trials uncertain;
* population -- ``E_α[f_k(p_α)]`` over the population the questions were drawn from.

The intervals are the headline's (:mod:`scorio_core.inference`) with the per-question
score ``c/N`` replaced by the per-question unbiased estimate ``U_k(c)``:

* questions: ``Var = Σ_α E[Var(U_k(c_α) | p_α)] / M²``, the trial variance of each
  question's estimate taken in expectation over the posterior of ``p_α`` under the
  model's empirical-Bayes Beta prior -- the same prior (concentration ``κ`` fitted by the
  Dirichlet-multinomial likelihood, centred on the model's pooled success rate) the
  headline uses. Exactly: ``E[Var(U | p)] = E_BB[U(c')²] − E[f_k(p)²]`` with ``c'`` from the
  beta-binomial predictive and ``E[f_k(p)²]`` a Beta moment. At ``k = 1`` the interval
  *is* the leaderboard's (its within-question variance and d.o.f.). ``t`` on
  ``M (N − 1)`` d.o.f.; not identified at ``N = 1``.
* population: ``U_k(c_α)`` are independent draws with mean the estimand; the interval's
  variance is ``D θ(1 − θ)/M`` with the dispersion ``D = Var(U_k)/(μ(1 − μ))`` of the
  fitted Beta population (beta-binomial marginal of ``c``; ``D = 1`` exactly at ``k = N``,
  where ``U_N`` is an indicator and the interval the binomial score interval on ``M``
  questions), ``M − 1`` d.o.f. ``k = 1`` is the headline's clustered variance.

**Effective count** (``k ≥ 2``). A Wilson-type interval models the variance at a candidate
``θ`` as ``θ(1 − θ)/n``; the plug-in ``n = x(1 − x)/var`` takes the ratio at the estimate
``x``, whose error is what the interval must cover. Where a few questions carry the metric
(Pass@k on an easy benchmark: the questions where every trial failed; Pass^k on a hard
one) ``x`` and the observed spread move together -- more rare events than expected make
both larger -- so the plug-in was short exactly on the rare side (questions scope, k = N:
90–92% with every miss on that side; population, the clustered spread: correlation 0.90
with the error at Pass^2, hard, M = 30). Here the count is taken at the model's mean
``m`` of the estimate instead: questions ``n = m(1 − m)/var`` with ``m = (1/M) Σ_α
E[f_k(p_α) | c_α]`` (the posterior mean of the estimand; at ``k = N`` the expected rare
count, Poisson-binomial), population ``n = M/D``. ``se`` is ``√var`` either way.

Both are Wilson-type on ``[0, 1]`` (:func:`~scorio_core.inference.wilson_t`), with the
ceiling count ``M ⌊N/k⌋`` (questions: a U-statistic of order ``k`` is an average of
``⌊N/k⌋`` independent kernels, Hoeffding 1963) or ``M`` (population). Intervals are
pointwise: each (model, ``k``) holds its confidence on its own, not the whole curve at once.
Coverage by simulation with known truth: :func:`scorio_core.calibration.curve_coverage`.

**Orderings the estimands obey.** On every question ``p^k ≤ p^j ≤ p`` and
``p ≤ 1 − (1 − p)^j ≤ 1 − (1 − p)^k`` for ``j < k``, so in either scope Pass^k falls and
Pass@k rises with ``k``; by Jensen (``x^{k/j}`` is convex) also ``Pass^k ≥ (Pass^j)^{k/j}``
and ``1 − Pass@k ≥ (1 − Pass@j)^{k/j}``; and G-Pass@k_τ lies between Pass^k and Pass@k, so
within ``[(Pass@1)^k, 1 − (1 − Pass@1)^k]``. Each interval is intersected with the ends
these imply from the (already intersected) intervals at every smaller ``k`` -- the ``k = 1``
one is the headline's -- but never past the estimate itself, which keeps its interval. Where
the estimate sits at a bound the Wilson-type end falls back to the ceiling count, which for
``k ≥ 2`` is ``⌊N/k⌋`` times fewer than at ``k = 1``: a model that never succeeded (``M = 40,
N = 3``) had Pass^2 and Pass^3 up to 0.090 beside Pass@1 up to 0.032, though Pass^k ≤ Pass@1;
now 0.032. An intersected interval misses only if one of the intervals it is made of misses
on that side, so coverage can fall by at most their one-sided misses, and in practice moves
by Monte-Carlo noise (``docs/calibration_gaps.md``: the curve grid, before and after).

Example
-------
>>> import numpy as np
>>> from scorio_core import eval as ev
>>> R = np.random.default_rng(0).integers(0, 2, (2, 30, 8))
>>> cv = sc.pass_curves(R, models=["a", "b"])
>>> row = cv.table.query("model == 'a' and curve == 'Pass@k' and k == 3").iloc[0]
>>> bool(row["value"] == ev.pass_at_k(R[0], 3)), bool(row["lo"] <= row["value"] <= row["hi"])
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from . import eval as ev
from ._validation import (
    ValidationError,
    as_names,
    as_numbers,
    as_outcome_array,
    check_confidence,
    check_k,
    checked_keywords,
    model_names,
)
from .display import Displayed
from .estimands import NOT_IDENTIFIED, SCOPES
from .inference import _model_variance, score_stats, wilson_t, within_variance
from .outcomes import Outcomes, binary_next
from .params import kinds_parse, ks_parse

__all__ = ["CURVE_NAMES", "PassCurves", "pass_curves", "curve_intervals", "posterior_square"]

#: ``kind`` -> curve name (the ``curve`` column).
CURVE_NAMES = {"pass": "Pass@k", "hat": "Pass^k", "g": "G-Pass@k_τ"}
#: Most floats of one beta-binomial block (models × (N+1)²), to bound memory at large N.
_BLOCK = 4_000_000


def _log_comb(n, r):
    return -np.log1p(n) - special.betaln(n - r + 1, r + 1)


def _beta_ratio(a, b, da, db):
    """``B(a + da, b + db) / B(a, b)``."""
    return np.exp(special.betaln(a + da, b + db) - special.betaln(a, b))


def posterior_square(kind: str, k: int, tau: float, a, b) -> np.ndarray:
    """``E[f_k(p)²]`` for ``p ~ Beta(a, b)`` (arrays broadcast).

    Pass@k and Pass^k in closed form (``(1 − p)^j`` and ``p^j`` moments); any other kind
    (G-Pass@k_τ) through its Bernstein form: ``f(p)² = Σ_s g_s C(2k, s) p^s (1 − p)^{2k−s}``
    with ``g_s = Σ_j β_j β_{s−j} C(k, j) C(k, s−j) / C(2k, s)`` (``β`` = the metric's value at
    ``j`` of ``k`` successes), so ``E[f²]`` is a beta-binomial expectation of ``g``.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.curves import posterior_square
    >>> a, b = np.array([2.0]), np.array([3.0])
    >>> bool(np.allclose(posterior_square("pass", 3, 0.0, a, b),
    ...                  posterior_square("g", 3, 0.0, a, b)))
    True
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if kind == "pass":
        return 1 - 2 * _beta_ratio(a, b, 0, k) + _beta_ratio(a, b, 0, 2 * k)
    if kind == "hat":
        return _beta_ratio(a, b, 2 * k, 0)
    beta = ev._coefficients(kind, k, tau)  # value at j = 0..k successes
    s = np.arange(2 * k + 1, dtype=float)[:, None]
    j = np.arange(k + 1, dtype=float)[None, :]
    ok = (s - j >= 0) & (s - j <= k)
    jj = np.where(ok, s - j, 0.0)
    logh = _log_comb(float(k), j) + _log_comb(float(k), jj) - _log_comb(2.0 * k, s)
    h = np.where(ok, np.exp(np.where(ok, logh, 0.0)), 0.0)  # Hypergeom(2k, k, s) at j
    bb = beta[np.clip(jj.astype(int), 0, k)]
    g = (h * beta[None, :] * np.where(ok, bb, 0.0)).sum(1)  # (2k+1,)
    ss = s[:, 0]
    logbb = (_log_comb(2.0 * k, ss) + special.betaln(a[..., None] + ss, b[..., None] + 2 * k - ss)
             - special.betaln(a, b)[..., None])
    return np.exp(logbb) @ g


def _prior(c: np.ndarray, N: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-model Beta prior ``(κ π, κ (1 − π))`` of the success probabilities: the
    headline's empirical-Bayes fit (:func:`~scorio_core.inference.within_variance`)."""
    n = np.stack([N - c, c], axis=-1)
    _, kappa = within_variance(n, np.array([0.0, 1.0]))
    pi = c.sum(-1) / (c.shape[-1] * N)
    # a model that never (or always) succeeds has a point-mass posterior: keep it finite
    a0 = np.maximum(kappa * pi, 1e-12)
    b0 = np.maximum(kappa * (1 - pi), 1e-12)
    return a0, b0


def _bb_predictive(a0, b0, N: int, G: np.ndarray) -> np.ndarray:
    """``E_BB[G(c')]`` for every model, count ``c`` and column of ``G (N+1, K)``: the
    beta-binomial predictive of ``c'`` given ``c`` of ``N`` correct, shape ``(L, N+1, K)``."""
    L = a0.size
    c = np.arange(N + 1, dtype=float)
    out = np.empty((L, N + 1, G.shape[1]))
    step = max(1, _BLOCK // (N + 1) ** 2)
    lc = _log_comb(float(N), c)
    for i in range(0, L, step):
        a = a0[i : i + step, None] + c  # (l, N+1) posterior a for each observed c
        b = b0[i : i + step, None] + N - c
        lp = (lc + special.betaln(a[..., None] + c, b[..., None] + N - c)
              - special.betaln(a, b)[..., None])  # (l, c, c')
        out[i : i + step] = np.exp(lp) @ G
    return out


@dataclass(frozen=True)
class CurveIntervals:
    """One curve at one ``k`` for every model: ``value``, ``se``, ``lo``, ``hi`` (each ``(L,)``)."""

    value: np.ndarray
    se: np.ndarray
    lo: np.ndarray
    hi: np.ndarray


def _interval(u, var, scope, M, N, k, confidence, df=None, count=None):
    """``(se, lo, hi)``: ``se = √var`` and the Wilson-type interval of the scope. ``count``
    (optional, ``(L,)``): the effective count ``n`` of the score interval, whose variance at
    a candidate ``θ`` is ``θ(1 − θ)/n``; default the plug-in ``u(1 − u)/var`` (the
    headline's). At ``u ∈ {0, 1}`` :func:`~scorio_core.inference.wilson_t` takes its floor."""
    if df is None:
        df = M * (N - 1) if scope == "questions" else M - 1
    floor = M * max(N // k, 1) if scope == "questions" else M
    at = var
    if count is not None:  # wilson_t reads n as u(1 - u)/var: hand it the variance at u
        with np.errstate(divide="ignore", invalid="ignore"):
            w = np.where(count > 0, u * (1 - u) / count, np.nan)
        at = np.where(np.isfinite(w) & (w > 0), w, var)
    lo, hi = wilson_t(u, at, df, floor, confidence)
    return np.sqrt(var), lo, hi


def _count_at(mean, var) -> np.ndarray:
    """Effective count ``m(1 − m)/var`` of a score interval, taken at the model's mean ``m``
    of the estimate, not at the estimate (NaN where ``m`` is 0 or 1 or ``var`` is 0: the
    plug-in then stands)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        n = mean * (1 - mean) / var
    return np.where(np.isfinite(n) & (n > 0), n, np.nan)


def curve_intervals(
    c, N: int, k: int, kind: str = "pass", tau: float = 0.0, scope: str = "questions",
    confidence: float = 0.95,
) -> CurveIntervals:
    """One Pass-family metric at one ``k`` with its interval, for correct counts ``c (L, M)``.

    The same numbers as :func:`pass_curves` at that ``k`` (which shares the work over all
    ``k``); vectorized over rows, so simulation replicates can be stacked as models.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import eval as ev
    >>> from scorio_core.curves import curve_intervals
    >>> c = np.array([[3, 4, 0, 2, 4, 1]])
    >>> iv = curve_intervals(c, 4, 2, "pass", scope="population")
    >>> bool(iv.value[0] == ev.pass_from_counts(c, 4, 2)[0]), bool(iv.lo[0] < iv.hi[0])
    (True, True)
    """
    c = np.atleast_2d(np.asarray(c, dtype=np.int64))
    k = check_k(k, N)
    return _intervals_at(c, N, [k], kind, tau, scope, confidence)[k]


def _model_moments(c, N: int, ks, tables, M: int) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """``(E[U_k(c)], Var(U_k(c)))`` per model when ``c`` follows the beta-binomial of the
    model's empirical-Bayes Beta prior: the mean and spread of one question's estimate in
    the fitted question population (population scope, module docstring)."""
    if not ks or N < 2 or M < 2:
        return {}
    a0, b0 = _prior(c, N)
    cs = np.arange(N + 1, dtype=float)
    P = np.exp(_log_comb(float(N), cs) + special.betaln(a0[:, None] + cs, b0[:, None] + N - cs)
               - special.betaln(a0, b0)[:, None])  # (L, N+1): P(c) under the prior
    out = {}
    for k in ks:
        m1, m2 = P @ tables[k], P @ (tables[k] ** 2)
        out[k] = (m1, np.maximum(m2 - m1 * m1, 0.0))
    return out


def _is_headline(table: np.ndarray, N: int) -> bool:
    """Whether a Pass table ``f(c)`` is ``c / N``: at k = 1 the curve is the mean score."""
    return bool(np.allclose(table, np.arange(N + 1) / N, rtol=0, atol=1e-12))


def _headline_variance(c, N, scope):
    """The headline's own variance and ``t`` d.o.f. in ``scope`` for success counts ``c``
    (:func:`~scorio_core.inference.model_intervals`' definition), so that k = 1 is it."""
    return _model_variance(score_stats(np.stack([N - c, c], -1), np.array([0.0, 1.0])), scope)


def _bound(end: np.ndarray, implied: np.ndarray, upper: bool) -> np.ndarray:
    """``end`` tightened by ``implied`` (``upper``: the smaller, else the larger); a NaN
    ``implied`` leaves it, a NaN ``end`` stays NaN (not identified)."""
    pick = np.minimum if upper else np.maximum
    return np.where(np.isnan(implied), end, pick(end, implied))


def _ordered(ivs: dict[int, CurveIntervals], kind: str) -> dict[int, CurveIntervals]:
    """Each ``k``'s interval intersected with the ends implied by those at every smaller
    ``k`` (``ivs`` holds ``k = 1..K``), never past the estimate (module docstring,
    "Orderings the estimands obey")."""
    out: dict[int, CurveIntervals] = {}
    for k in sorted(ivs):
        iv = ivs[k]
        lo, hi = iv.lo, iv.hi
        for j, prev in out.items():
            r = k / j
            # on [0, 1]: an estimate a rounding above 1 (a mean of ones) is not a NaN power
            up, down = np.clip(prev.hi, 0.0, 1.0), np.clip(prev.lo, 0.0, 1.0)
            if kind == "hat":  # Pass^k <= Pass^j, Pass^k >= (Pass^j)^(k/j)
                lo, hi = _bound(lo, down**r, False), _bound(hi, up, True)
            elif kind == "pass":  # Pass@k >= Pass@j, 1 - Pass@k >= (1 - Pass@j)^(k/j)
                lo, hi = _bound(lo, down, False), _bound(hi, 1 - (1 - up) ** r, True)
            elif j == 1:  # G-Pass@k_τ between Pass^k and Pass@k on every question
                lo, hi = _bound(lo, down**k, False), _bound(hi, 1 - (1 - up) ** k, True)
        out[k] = CurveIntervals(iv.value, iv.se, np.minimum(lo, iv.value),
                                np.maximum(hi, iv.value))
    return out


def _intervals_at(c, N, ks, kind, tau, scope, confidence) -> dict[int, CurveIntervals]:
    """The intervals at ``ks``, each respecting the orderings of the estimands with every
    smaller ``k`` (:func:`_ordered`), so a ``k``'s numbers do not depend on the others
    asked for."""
    chain = list(range(1, max(ks) + 1))
    ordered = _ordered(_raw_intervals_at(c, N, chain, kind, tau, scope, confidence), kind)
    return {k: ordered[k] for k in ks}


def _raw_intervals_at(c, N, ks, kind, tau, scope, confidence) -> dict[int, CurveIntervals]:
    L, M = c.shape
    tables = {k: ev.pass_table(kind, N, k, tau) for k in ks}
    out = {}
    if scope == "population":
        model = _model_moments(c, N, [k for k in ks if k > 1], tables, M)
        for k in ks:
            u = tables[k][c]
            if _is_headline(tables[k], N):  # k = 1: the headline
                var, _ = _headline_variance(c, N, scope)
            else:
                var = u.var(-1, ddof=1) / M if M >= 2 else np.full(L, np.nan)
            # k >= 2: the count M / D with the fitted population's dispersion D (docstring)
            count = M * _count_at(*model[k]) if k in model else None
            out[k] = CurveIntervals(u.mean(-1), *_interval(u.mean(-1), var, scope, M, N, k,
                                                            confidence, count=count))
        return out
    if N < 2:  # the trial noise is unseen: the questions estimand is not identified
        for k in ks:
            v = tables[k][c].mean(-1)
            nan = np.full(L, np.nan)
            out[k] = CurveIntervals(v, nan, nan, nan)
        return out
    a0, b0 = _prior(c, N)
    U = np.stack([tables[k] for k in ks], axis=1)  # (N+1, K)
    K = len(ks)
    pred = _bb_predictive(a0, b0, N, np.concatenate([U, U * U], axis=1))  # (L, N+1, 2K)
    ebb = pred[:, :, K:]  # E[U(c')²] under each question's predictive
    cs = np.arange(N + 1)
    a = a0[:, None] + cs
    b = b0[:, None] + N - cs
    hist = np.stack([np.bincount(row, minlength=N + 1) for row in c])  # (L, N+1)
    for i, k in enumerate(ks):
        v = tables[k][c].mean(-1)
        if _is_headline(tables[k], N):  # k = 1: the headline itself
            var, df = _headline_variance(c, N, scope)
            out[k] = CurveIntervals(v, *_interval(v, var, scope, M, N, k, confidence, df))
            continue
        within = np.maximum(ebb[:, :, i] - posterior_square(kind, k, tau, a, b), 0.0)
        var = (hist * within).sum(-1) / (M * M)
        # the count at the posterior mean of the estimand, not at the estimate (docstring)
        count = _count_at((hist * pred[:, :, i]).sum(-1) / M, var)
        out[k] = CurveIntervals(v, *_interval(v, var, scope, M, N, k, confidence,
                                              count=count))
    return out


@dataclass(frozen=True, repr=False)  # displays itself (scorio_core.display.VIEWS)
class PassCurves(Displayed):
    """Result of :func:`pass_curves`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per model, curve and ``k``: ``model, curve, k, value, se, lo, hi``
        (``value`` = the unbiased estimator; ``lo``/``hi`` the pointwise interval of the scope).
    scope : str
    confidence : float
    tau : float or None
    N, M : int
    identified : bool
        False in the questions scope at ``N = 1`` and in the population scope at
        ``M = 1`` (intervals NaN).
    models : tuple of str
        In leaderboard order (mean score, best first).
    """

    table: pd.DataFrame
    scope: str
    confidence: float
    tau: float | None
    N: int
    M: int
    identified: bool
    models: tuple[str, ...]

    def at(self, k: int, curve: str = "Pass@k") -> pd.DataFrame:
        """The rows of one ``k`` of one curve, one per model."""
        t = self.table
        return t[(t["k"] == k) & (t["curve"] == curve)].reset_index(drop=True)

    def wide(self, column: str = "value") -> pd.DataFrame:
        """``column`` with one row per model and curve, one column per ``k``."""
        t = self.table.pivot_table(index=["model", "curve"], columns="k", values=column,
                                   sort=False)
        t.columns = [f"k={k}" for k in t.columns]
        return t.reset_index()


@checked_keywords
def pass_curves(
    data: Outcomes | np.ndarray,
    *,
    kinds: Sequence[str] = ("pass", "hat"),
    tau: float | None = None,
    ks: Sequence[int] | None = None,
    scope: str = "questions",
    confidence: float = 0.95,
    models: Sequence[str] | None = None,
) -> PassCurves:
    """Pass@k / Pass^k (/ G-Pass@k_τ) of every model at every ``k ≤ N`` with intervals.

    Parameters
    ----------
    data : Outcomes or array_like (L, M, N)
        Binary outcomes.
    kinds : sequence of {"pass", "hat", "g"}, or str
        The curves; ``"g"`` (G-Pass@k_τ) needs ``tau``. One string is read as ``--curves``
        is (``"pass,hat"``).
    tau : float, optional
        τ of G-Pass@k_τ (adds the ``"g"`` curve).
    ks : int, sequence of int or str, optional
        The ``k`` values (default every ``k = 1..N``); ``"2,4"`` as ``--k`` reads it.
    scope : {"questions", "population"}
        The estimand of the intervals (module docstring).
    confidence : float
        Level of each pointwise interval.
    models : sequence of str, optional
        Model names, one per model in their order (default: the data's); one string is
        split at its commas, but for one model, whose name it is whole.

    Returns
    -------
    PassCurves

    Example
    -------
    >>> import numpy as np
    >>> R = np.random.default_rng(0).integers(0, 2, (2, 20, 4))
    >>> cv = sc.pass_curves(R, models=["a", "b"])
    >>> sorted(set(cv.table["k"])), bool((cv.table["lo"] <= cv.table["value"]).all())
    ([1, 2, 3, 4], True)
    """
    if isinstance(data, Outcomes):
        R, names = data.R, data.models
        if not data.is_binary:
            raise ValidationError(
                f"Pass@k curves need binary outcomes; these data have {data.C + 1} categories. "
                + binary_next(data, to="to draw the Pass@k curves"))
    else:
        R = as_outcome_array(data, name="data", min_ndim=3, max_ndim=3,  # 2-D: two readings
                             takes_outcomes=True)
        names = tuple(f"model_{i}" for i in range(R.shape[0]))
    if models is not None:  # one name per model; a string is split at its commas unless L == 1
        names = model_names(models, R.shape[0], of="model in their order")
    if scope not in SCOPES:
        raise ValidationError(f"scope must be one of {SCOPES}; got {scope!r}")
    confidence = check_confidence(confidence)
    kinds = list(dict.fromkeys(as_names(kinds, "kinds", noun="curves", example="pass,hat",
                                        parse=kinds_parse("kinds"))))
    if tau is not None and "g" not in kinds:
        kinds.append("g")
    bad = [k for k in kinds if k not in CURVE_NAMES]
    if bad or not kinds:
        raise ValidationError(f"kinds must be from {', '.join(CURVE_NAMES)}; got {kinds!r}")
    if "g" in kinds and tau is None:
        raise ValidationError("the G-Pass@k_τ curve needs tau (the share of draws that must pass)")
    c = ev.correct_counts(R)
    L, M, N = R.shape
    ks = list(range(1, N + 1)) if ks is None else sorted(
        {check_k(k, N) for k in as_numbers(ks, "ks", parse=ks_parse("ks"), example="2,4")})
    order = np.argsort(-c.mean(-1), kind="stable")
    frames = []
    for kind in kinds:
        t = 0.0 if tau is None or kind != "g" else float(tau)
        ivs = _intervals_at(c, N, ks, kind, t, scope, confidence)
        for k in ks:
            iv = ivs[k]
            frames.append(pd.DataFrame({
                "model": np.asarray(names, dtype=object)[order], "curve": CURVE_NAMES[kind],
                "k": k, "value": iv.value[order], "se": iv.se[order], "lo": iv.lo[order],
                "hi": iv.hi[order],
            }))
    table = pd.concat(frames, ignore_index=True)
    table = table.sort_values(["curve", "model", "k"], key=_curve_key(names, order),
                              kind="stable").reset_index(drop=True)
    identified = not (N < 2 if scope == "questions" else M < 2)
    return PassCurves(table, scope, confidence, tau, N, M, identified,
                      tuple(np.asarray(names, dtype=object)[order]))


def _curve_key(names, order):
    rank = {n: i for i, n in enumerate(np.asarray(names, dtype=object)[order])}
    curves = {v: i for i, v in enumerate(CURVE_NAMES.values())}

    def key(col: pd.Series) -> pd.Series:
        if col.name == "model":
            return col.map(rank)
        if col.name == "curve":
            return col.map(curves)
        return col

    return key


def not_identified_note(curves: PassCurves) -> str | None:
    """What to say when the scope cannot be estimated (questions scope, ``N = 1``)."""
    return None if curves.identified else NOT_IDENTIFIED[curves.scope]
