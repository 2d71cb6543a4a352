"""Evaluation metrics: Bayes@N, avg@N and the Pass@k family (SPEC §3).

Every function takes ``R`` of shape ``(..., M, N)``: the last two axes are
questions and trials, any leading axes (models, bootstrap replicates) are batch
axes. A plain ``(M, N)`` matrix gives Python floats; batched input gives arrays
of shape ``R.shape[:-2]``. Everything is computed from per-question count tables (``*_from_counts``
kernels), so cost is one pass over ``R`` plus work proportional to ``M``.

References are to Don't Pass@k (2026): Bayes@N is eqs. (5)-(7) /
App. A, avg@N's uncertainty eq. (20), Pass@k eq. (21), Pass^k eq. (22),
G-Pass@k_tau eq. (23), mG-Pass@k eq. (24).

Example
-------
>>> import numpy as np
>>> from scorio_core import eval as ev
>>> R = np.array([[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]])
>>> mu, sigma = ev.bayes(R, w=[0, 0.5, 1])
>>> round(mu, 6), round(sigma, 6)
(0.5625, 0.091998)
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from scipy import special

from ._validation import (
    ValidationError,
    as_outcome_array,
    as_prior,
    as_weights,
    binary_array_next,
    check_bounds,
    check_confidence,
    check_k,
    check_number,
    checked_keywords,
)

__all__ = [
    "Estimate",
    "Interval",
    "bayes",
    "bayes_ci",
    "avg",
    "avg_ci",
    "pass_at_k",
    "pass_at_k_ci",
    "pass_hat_k",
    "pass_hat_k_ci",
    "g_pass_at_k_tau",
    "g_pass_at_k_tau_ci",
    "mg_pass_at_k",
    "mg_pass_at_k_ci",
    "correct_counts",
    "category_counts",
    "bayes_from_counts",
    "avg_from_counts",
    "count_mean",
    "pass_from_counts",
    "pass_table",
    "Posterior",
    "prepare_counts",
    "z_value",
]


class Estimate(NamedTuple):
    """Posterior mean and standard deviation."""

    mu: float | np.ndarray
    sigma: float | np.ndarray


class Interval(NamedTuple):
    """Posterior mean, standard deviation and central credible interval."""

    mu: float | np.ndarray
    sigma: float | np.ndarray
    lo: float | np.ndarray
    hi: float | np.ndarray


def _out(x: np.ndarray):
    return float(x) if np.ndim(x) == 0 else x


def z_value(confidence: float) -> float:
    """Two-sided normal quantile: 1.96 for 0.95."""
    return float(special.ndtri(0.5 + check_confidence(confidence) / 2.0))


def _interval(mu, sigma, confidence: float, bounds) -> Interval:
    z = z_value(confidence)
    bounds = check_bounds(bounds)
    lo, hi = np.asarray(mu - z * sigma), np.asarray(mu + z * sigma)
    if bounds is not None:
        b_lo, b_hi = bounds
        lo, hi = np.clip(lo, b_lo, b_hi), np.clip(hi, b_lo, b_hi)
    return Interval(_out(np.asarray(mu)), _out(np.asarray(sigma)), _out(lo), _out(hi))


# --------------------------------------------------------------------------- Bayes@N
def category_counts(R: np.ndarray, C: int) -> np.ndarray:
    """Count table ``n[..., α, k] = #{i : R[..., α, i] = k}`` of shape ``(..., M, C+1)``.

    One pass per category (C is small), never a Python loop over models or questions.
    """
    if C == 1:
        c1 = R.sum(-1)
        return np.stack([R.shape[-1] - c1, c1], axis=-1)
    return np.stack([(R == k).sum(-1) for k in range(C + 1)], axis=-1)


#: Bits per limb of :func:`count_mean`'s exact sums: a limb times a total below 2**36 stays
#: within int64 (2**62).
_LIMB = 26


def count_mean(totals, w, count: int) -> np.ndarray:
    """The mean weighted score ``Σ_k totals[..., k] · w[k] / count`` from whole-number
    category ``totals`` (counts summed over questions and trials), each value a function of
    its exact value alone.

    One definition of a mean score for every table that compares means: two models whose
    weighted totals are equal in exact arithmetic get the same float, so an exact tie is a
    gap of exactly 0 (``t`` 0, ``p`` 1) on every surface, whatever the order of their
    questions. A mean of per-question means in floating point (``k/6`` each for weights
    0, 0.5, 1 and ``N = 3``) left 1.1e-16 between two tied models, which the tables printed
    as a lead of ``<0.0001``. Each weight is a whole number over a power of two (a float is
    ``n / 2**s``), so the total is a whole number, summed exactly in 26-bit limbs of int64
    and carried into one form before it is rounded: the nearest float for weights such as 0,
    0.5, 1 (one limb), within an ulp or two of it for others (0.3: three limbs); totals
    beyond ``2**36`` are summed in Python's integers and rounded once.

    Example
    -------
    >>> from scorio_core.eval import count_mean
    >>> import numpy as np
    >>> t = np.array([[40, 20, 60], [45, 10, 65]])  # equal weighted totals, other counts
    >>> m = count_mean(t, [0, 0.5, 1], 120)
    >>> m.tolist(), float(m[0] - m[1])
    ([0.5833333333333334, 0.5833333333333334], 0.0)
    >>> m = count_mean([[1, 4, 1], [1, 2, 2]], [0, 0.3, 0.6], 6)  # 4·0.3 + 0.6 = 2·0.3 + 2·0.6
    >>> bool(m[0] == m[1]), round(float(m[0]), 12)
    (True, 0.3)
    """
    t = np.asarray(totals)
    if not np.issubdtype(t.dtype, np.integer):
        whole = np.isfinite(t) & (t == np.round(t))
        if not whole.all():  # not counts: the plain float mean
            return (t @ np.asarray(w, dtype=float)) / count
        t = t.astype(np.int64)
    if count <= 0:
        return np.full(t.shape[:-1], np.nan)
    ratios = [float(x).as_integer_ratio() for x in np.asarray(w, dtype=float).ravel()]
    s = max(d for _, d in ratios).bit_length() - 1  # every weight is num / 2**s
    num = [n * ((1 << s) // d) for n, d in ratios]
    if int(np.abs(t).sum(-1).max(initial=0)) >= 2**36:  # limbs would overflow: exact ints
        den = count << s
        flat = t.reshape(-1, t.shape[-1]).tolist()
        out = [sum(a * b for a, b in zip(row, num, strict=True)) / den for row in flat]
        return np.asarray(out, dtype=float).reshape(t.shape[:-1])
    mask = (1 << _LIMB) - 1
    J = max(1, -(-max(abs(n) for n in num).bit_length() // _LIMB))
    limbs = np.array([[(abs(n) >> (_LIMB * j)) & mask for j in range(J)] for n in num],
                     dtype=np.int64) * np.array([[-1 if n < 0 else 1] for n in num])
    S = t.astype(np.int64) @ limbs  # (..., J): every product and sum exact in int64
    for j in range(J - 1):  # carried: limbs 0 .. 2**26 - 1 below the top, one form per total
        carry = S[..., j] >> _LIMB
        S[..., j] -= carry << _LIMB
        S[..., j + 1] += carry
    acc = np.zeros(S.shape[:-1])
    for j in reversed(range(J)):
        acc = acc + np.ldexp(S[..., j].astype(float), _LIMB * j - s)
    return acc / count


class Posterior(NamedTuple):
    """Bayes@N from counts: ``mu``, ``sigma`` and the Dirichlet total ``T``."""

    mu: np.ndarray
    sigma: np.ndarray
    T: int


def bayes_from_counts(n: np.ndarray, w: np.ndarray, n0: np.ndarray | None = None) -> Posterior:
    """Bayes@N from count tables (the kernel behind :func:`bayes`).

    Parameters
    ----------
    n : array, shape (..., M, C+1)
        Category counts of the N trials per question.
    w : array, shape (C+1,)
    n0 : array, broadcastable to ``n``, optional
        Counts of the prior outcomes ``R0`` (without the uniform +1).
    """
    dw = w - w[0]
    nu = n + 1 if n0 is None else n + n0 + 1
    T = int(nu[(0,) * (nu.ndim - 1)].sum())  # 1 + C + D + N, the same for every question
    s1 = nu @ dw
    s2 = nu @ (dw * dw)
    M = n.shape[-2]
    mu = _bayes_mean(nu, w)
    var = (s2 / T - (s1 / T) ** 2).sum(-1) / (M * M * (T + 1))
    return Posterior(mu, np.sqrt(np.maximum(var, 0.0)), T)


def _bayes_mean(nu: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Bayes@N's posterior mean from ``nu (..., M, C+1)``: the counts plus the prior's (the
    uniform 1 included). Exact ties stay exact (:func:`count_mean`). Alone, for loops that
    rank by the mean only (the coins study: a third of its time went to unused sigmas)."""
    T = int(nu[(0,) * (nu.ndim - 1)].sum())
    return w[0] + count_mean(nu.sum(-2), w - w[0], nu.shape[-2] * T)


def prepare_counts(R, w=None, R0=None):
    """Validate ``R``, ``w``, ``R0`` once and return ``(counts, prior counts or None, w)``.

    Counts have shape ``(..., M, C+1)``; feed them to the ``*_from_counts`` kernels.
    """
    R = as_outcome_array(R)
    w = as_weights(w, int(R.max()) + 1)
    C = w.size - 1
    R0 = as_prior(R0, R, C)
    n0 = None if R0 is None else category_counts(R0, C)
    return category_counts(R, C), n0, w


def _bayes(R, w=None, R0=None) -> tuple[np.ndarray, np.ndarray]:
    n, n0, w = prepare_counts(R, w, R0)
    post = bayes_from_counts(n, w, n0)
    return post.mu, post.sigma


@checked_keywords
def bayes(R, w=None, R0=None) -> Estimate:
    r"""Bayes@N posterior mean and standard deviation (Don't Pass@k (2026), §2.3-2.4, App. A).

    .. math::
        \mu = w_0 + \frac{1}{MT}\sum_\alpha\sum_j \nu_{\alpha j}(w_j - w_0),\quad
        \sigma^2 = \frac{1}{M^2(T+1)}\sum_\alpha\Big[\sum_j \tfrac{\nu_{\alpha j}}{T}(w_j-w_0)^2
        - \Big(\sum_j \tfrac{\nu_{\alpha j}}{T}(w_j-w_0)\Big)^2\Big]

    with ``ν = n + n0``, ``n0 = 1 + counts in R0`` and ``T = 1 + C + D + N``.

    Parameters
    ----------
    R : array_like, shape (..., M, N)
        Integer categories ``0..C``.
    w : array_like, shape (C+1,), optional
        Category weights; ``[0, 1]`` for binary data when omitted.
    R0 : array_like, shape (M, D) or (..., M, D), optional
        Prior outcomes (e.g. greedy decodes) added to the uniform Dirichlet prior.

    Returns
    -------
    Estimate
        ``(mu, sigma)``.

    Examples
    --------
    >>> sc.bayes([[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]], w=[0, .5, 1], R0=[[2], [1]]).mu
    0.5833333333333334
    """
    mu, sigma = _bayes(R, w, R0)
    return Estimate(_out(mu), _out(sigma))


@checked_keywords
def bayes_ci(R, w=None, R0=None, confidence: float = 0.95, bounds=None) -> Interval:
    """Bayes@N with the central normal credible interval ``mu ± z·sigma``.

    ``bounds=(lo, hi)`` clips the interval (e.g. ``(0, 1)`` for accuracies).

    Examples
    --------
    >>> [round(x, 6) for x in sc.bayes_ci([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]], bounds=(0, 1))]
    [0.642857, 0.118451, 0.410698, 0.875017]
    """
    mu, sigma = _bayes(R, w, R0)
    return _interval(mu, sigma, confidence, bounds)


def avg_from_counts(n: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """avg@N and its eq.-(20) uncertainty from count tables ``(..., M, C+1)``."""
    C, N, M = w.size - 1, int(n[(0,) * (n.ndim - 1)].sum()), n.shape[-2]
    a = count_mean(n.sum(-2), w, M * N)
    return a, (1 + C + N) / N * bayes_from_counts(n, w).sigma


def _avg(R, w=None):
    n, _, w = prepare_counts(R, w, None)
    return avg_from_counts(n, w)


@checked_keywords
def avg(R, w=None) -> Estimate:
    """avg@N, the mean weighted score, with the Bayesian uncertainty of Don't Pass@k (2026),
    eq. (20).

    ``sigma_a = (1 + C + N) / N * sigma_Bayes`` under the uniform prior, so
    avg@N and Bayes@N (uniform prior) order models identically (Don't Pass@k (2026), App. B).

    Examples
    --------
    >>> [round(x, 6) for x in sc.avg([[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]], w=[0, .5, 1])]
    [0.6, 0.147196]
    """
    a, s = _avg(R, w)
    return Estimate(_out(a), _out(s))


@checked_keywords
def avg_ci(R, w=None, confidence: float = 0.95, bounds=None) -> Interval:
    """avg@N with the interval ``a ± z·sigma_a`` (clipped to ``bounds`` if given).

    Example
    -------
    >>> [round(float(x), 6) for x in sc.avg_ci([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]], bounds=(0, 1))]
    [0.7, 0.165831, 0.374977, 1.0]
    """
    a, s = _avg(R, w)
    return _interval(a, s, confidence, bounds)


# ----------------------------------------------------------------------- Pass family
def correct_counts(R) -> np.ndarray:
    """Number of correct trials per question, ``c = Σ_i R[..., α, i]``, for binary ``R``."""
    R = as_outcome_array(R)
    if R.max() > 1:
        raise ValidationError(
            f"the Pass@k family needs binary outcomes (0/1); found category {int(R.max())}. "
            + binary_array_next(R, "Score the categories as they are with sc.bayes(R, w={w})"))
    return R.sum(-1)


def _threshold(k: int, tau: float) -> int:
    """Smallest number of successes that passes: ``max(1, ceil(tau k))``.

    ``tau = 0`` therefore equals Pass@k (at least one success), as in the paper.
    Rounding before the ceiling keeps ``tau = 2/3, k = 3`` at 2, not 3.
    """
    if not 0.0 <= float(tau) <= 1.0:
        raise ValidationError(f"tau must lie in [0, 1]; got {tau!r}")
    return max(1, int(np.ceil(round(float(tau) * k, 9))))


def _coefficients(kind: str, k: int, tau: float = 0.0) -> np.ndarray:
    """Value of the metric when exactly ``j`` of ``k`` draws succeed, ``j = 0..k``."""
    j = np.arange(k + 1)
    if kind == "pass":
        return (j >= 1).astype(float)
    if kind == "hat":
        return (j == k).astype(float)
    if kind == "g":
        return (j >= _threshold(k, tau)).astype(float)
    if kind == "mg":
        m = int(np.ceil(k / 2))
        return 2.0 / k * np.maximum(j - m, 0)
    raise AssertionError(kind)


def _log_comb(n: np.ndarray, r: np.ndarray) -> np.ndarray:
    """``log C(n, r)`` through ``betaln``, which avoids the cancellation of three
    large ``gammaln`` terms (relative error ~1e-15 rather than ~1e-12 at n = 2000)."""
    return -np.log1p(n) - special.betaln(n - r + 1, r + 1)


def _hypergeom_pmf(N: int, k: int) -> np.ndarray:
    """``P(X = j)`` for ``X ~ Hypergeom(N, c, k)``: rows ``c = 0..N``, columns ``j = 0..k``.

    ``C(c, j) C(N - c, k - j) / C(N, k)`` in log space (no overflow for large ``N``);
    written out rather than taken from ``scipy.stats``, whose import alone costs more
    than a second of every cold start.
    """
    c = np.arange(N + 1, dtype=float)[:, None]
    j = np.arange(k + 1, dtype=float)[None, :]
    ok = (j <= c) & (k - j <= N - c)
    c, j = np.where(ok, c, 0.0), np.where(ok, j, 0.0)  # keep gammaln away from poles
    log_p = _log_comb(c, j) + _log_comb(N - c, k - j) - _log_comb(np.float64(N), np.float64(k))
    return np.where(ok, np.exp(log_p), 0.0)


@lru_cache(maxsize=256)
def _point_table(kind: str, N: int, k: int, tau: float) -> np.ndarray:
    """Unbiased estimate for every correct count ``c = 0..N``: ``E[f(X)]``,
    ``X ~ Hypergeom(N, c, k)`` (sampling k of the N trials without replacement)."""
    table = _hypergeom_pmf(N, k) @ _coefficients(kind, k, tau)
    table.setflags(write=False)
    return table


@lru_cache(maxsize=256)
def _posterior_table(kind, N, k, tau, alpha0, beta0) -> tuple[np.ndarray, np.ndarray]:
    """Posterior mean and variance of ``f(p) = Σ_j a_j C(k,j) p^j (1-p)^(k-j)``
    for every ``c = 0..N`` when ``p ~ Beta(alpha0 + c, beta0 + N - c)``.

    Bernstein-polynomial moments are Beta-function ratios:
    ``E[p^i (1-p)^l] = B(a+i, b+l) / B(a, b)``.
    """
    a = alpha0 + np.arange(N + 1, dtype=float)[:, None]
    b = beta0 + N - np.arange(N + 1, dtype=float)[:, None]
    coef = _coefficients(kind, k, tau)
    j = np.arange(k + 1)
    cj = coef * special.comb(k, j)
    ln_ab = special.betaln(a, b)
    m1 = np.exp(special.betaln(a + j, b + k - j) - ln_ab) @ cj
    s = j[:, None] + j[None, :]
    cc = (cj[:, None] * cj[None, :]).ravel()
    m2 = np.exp(special.betaln(a + s.ravel(), b + 2 * k - s.ravel()) - ln_ab) @ cc
    return m1, np.maximum(m2 - m1 * m1, 0.0)


def pass_table(kind: str, N: int, k: int, tau: float = 0.0) -> np.ndarray:
    """Per-question unbiased estimate of a Pass-family metric for every correct count
    ``c = 0..N`` (read-only, shape ``(N + 1,)``): ``pass_table(...)[c]`` is the value one
    question with ``c`` of ``N`` correct contributes to :func:`pass_from_counts`.

    Example
    -------
    >>> from scorio_core.eval import pass_table
    >>> [round(float(x), 6) for x in pass_table("pass", 4, 2)]
    [0.0, 0.5, 0.833333, 1.0, 1.0]
    """
    return _point_table(kind, int(N), check_k(k, N), float(tau))


def pass_from_counts(c: np.ndarray, N: int, k: int, kind: str = "pass", tau: float = 0.0):
    """Pass-family point estimate from correct counts ``c`` (..., M) out of ``N``.

    ``kind``: ``"pass"`` (Pass@k), ``"hat"`` (Pass^k), ``"g"`` (G-Pass@k_tau), ``"mg"``.
    """
    k = check_k(k, N)
    return _point_table(kind, N, k, float(tau))[c].mean(-1)


def _pass_point(kind, R, k, tau=0.0):
    return _out(pass_from_counts(correct_counts(R), np.shape(R)[-1], k, kind, tau))


def _pass_ci(kind, R, k, tau, confidence, bounds, alpha0, beta0) -> Interval:
    c = correct_counts(R)
    N, M = np.shape(R)[-1], np.shape(R)[-2]
    k = check_k(k, N)
    alpha0 = check_number("alpha0", alpha0)
    beta0 = check_number("beta0", beta0)
    m1, var = _posterior_table(kind, N, k, float(tau), float(alpha0), float(beta0))
    mu = m1[c].mean(-1)
    sigma = np.sqrt(var[c].sum(-1)) / M
    return _interval(mu, sigma, confidence, bounds)


@checked_keywords
def pass_at_k(R, k: int):
    """Unbiased Pass@k: mean over questions of ``1 - C(N-c, k) / C(N, k)`` (Don't Pass@k (2026),
    eq. 21).

    Example
    -------
    >>> round(float(sc.pass_at_k([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]], 2)), 6)
    0.95
    """
    return _pass_point("pass", R, k)


@checked_keywords
def pass_hat_k(R, k: int):
    """Pass^k: mean of ``C(c, k) / C(N, k)``, all k draws correct (Don't Pass@k (2026), eq. 22).

    Example
    -------
    >>> round(float(sc.pass_hat_k([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]], 2)), 6)
    0.45
    """
    return _pass_point("hat", R, k)


@checked_keywords
def g_pass_at_k_tau(R, k: int, tau: float):
    """G-Pass@k_tau: ``P(X >= ceil(tau k))``, ``X ~ Hypergeom(N, c, k)`` (Don't Pass@k (2026),
    eq. 23).

    ``tau = 0`` gives Pass@k and ``tau = 1`` gives Pass^k.

    Example
    -------
    >>> round(float(sc.g_pass_at_k_tau([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]], 4, 0.5)), 6)
    1.0
    """
    return _pass_point("g", R, k, tau)


@checked_keywords
def mg_pass_at_k(R, k: int):
    """mG-Pass@k: ``(2/k) E[(X - ceil(k/2))_+]`` (Don't Pass@k (2026), eq. 24).

    Example
    -------
    >>> round(float(sc.mg_pass_at_k([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]], 4)), 6)
    0.4
    """
    return _pass_point("mg", R, k)


_CI_DOC = """

    ``*_ci`` companion: ``(mu, sigma, lo, hi)`` are the posterior mean and s.d. of
    the metric when each question's success probability has a
    ``Beta(alpha0 + c, beta0 + N - c)`` posterior, and the interval
    ``mu ± z·sigma`` clipped to ``bounds``. Binary outcomes only.
    """


@checked_keywords
def pass_at_k_ci(R, k, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0) -> Interval:
    return _pass_ci("pass", R, k, 0.0, confidence, bounds, alpha0, beta0)


@checked_keywords
def pass_hat_k_ci(R, k, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0) -> Interval:
    return _pass_ci("hat", R, k, 0.0, confidence, bounds, alpha0, beta0)


@checked_keywords
def g_pass_at_k_tau_ci(
    R, k, tau, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0
) -> Interval:
    return _pass_ci("g", R, k, tau, confidence, bounds, alpha0, beta0)


@checked_keywords
def mg_pass_at_k_ci(R, k, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0) -> Interval:
    return _pass_ci("mg", R, k, 0.0, confidence, bounds, alpha0, beta0)


_CI_EXAMPLE = """
    Example
    -------
    >>> [round(float(x), 6) for x in {call}]
    {out}
    """

for _f, _name, _call, _want in [
    (pass_at_k_ci, "Pass@k", "sc.pass_at_k_ci([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]], 2)",
     "[0.839286, 0.097263, 0.648654, 1.0]"),
    (pass_hat_k_ci, "Pass^k", "sc.pass_hat_k_ci([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]], 2)",
     "[0.446429, 0.146167, 0.159946, 0.732911]"),
    (g_pass_at_k_tau_ci, "G-Pass@k_tau",
     "sc.g_pass_at_k_tau_ci([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]], 4, 0.5)",
     "[0.809524, 0.132049, 0.550713, 1.0]"),
    (mg_pass_at_k_ci, "mG-Pass@k", "sc.mg_pass_at_k_ci([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]], 4)",
     "[0.404762, 0.156326, 0.098368, 0.711156]"),
]:
    _f.__doc__ = (f"Posterior summary of {_name}." + _CI_DOC
                  + _CI_EXAMPLE.format(call=_call, out=_want))
del _f, _name, _call, _want
