"""Compiled round loops of the sequential rating systems (Elo, Glicko, TrueSkill).

Each kernel plays the kept rounds of :func:`~.sequential._stream` in order. Within
a round every match reads the pre-round state and the per-pair contributions are
accumulated, then applied together (module notes of :mod:`.sequential`); a pair's
two contributions are antisymmetric (Elo, TrueSkill means) or share their costly
factors (TrueSkill ``v``, ``w``), so each unordered pair is visited once.

``policy`` encodes ``tie_handling``: 0 ``"skip"`` (decisive pairs only), 1
``"draw"`` (every pair; tied pairs draw), 2 ``"correct_draw_only"`` (decisive pairs
and both-correct pairs, which draw).

The kernels are plain Python over scalars and numpy arrays, compiled with
``numba.njit(cache=True)`` (the first call in a fresh environment compiles them,
about a second each, and caches the machine code next to this file). The same
code runs uncompiled through ``kernel.py_func``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["elo_rounds", "glicko_rounds", "log_ndtr", "trueskill_rounds"]

#: E_ij = 1 / (1 + 10^((r_j - r_i)/400)) = (1 + tanh(β (r_i - r_j))) / 2
_ELO_BETA = math.log(10.0) / 800.0
_Q = math.log(10.0) / 400.0
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_SQRT1_2 = math.sqrt(0.5)
_EPS = np.finfo(float).eps


@njit(cache=True, inline="always")
def _plays(policy: int, xi: int, xj: int) -> bool:
    if xi != xj:
        return True
    if policy == 1:
        return True
    return policy == 2 and xi == 1


@njit(cache=True, inline="always")
def _tanh(y: float) -> float:
    """``tanh y = 1 - 2 / (1 + e^{2y})``: one ``exp`` (~4x faster than libm's ``tanh``),
    absolute error ~1e-16, which is all that Glicko's sums of ``g_j h_ij`` and
    ``1 - h²`` need; saturates to ±1 without overflow trouble."""
    return 1.0 - 2.0 / (1.0 + math.exp(2.0 * y))


@njit(cache=True)
def elo_rounds(x: np.ndarray, policy: int, K: float, r0: float) -> np.ndarray:
    """Elo (Ranking Reasoning LLMs under Test-Time Scaling (2026), eqs. 43-44):
    ``r_i += K Σ_j (S_ij - E_ij)`` over the pairs that play."""
    T, L = x.shape
    r = np.full(L, r0)
    acc = np.empty(L)
    e = np.empty(L)
    for t in range(T):
        acc[:] = 0.0
        top = r.max()
        for i in range(L):  # E_ij = e_i / (e_i + e_j): L exponentials per round, not L²
            e[i] = math.exp(2.0 * _ELO_BETA * (r[i] - top))
        for i in range(L):
            xi = x[t, i]
            for j in range(i + 1, L):
                xj = x[t, j]
                if not _plays(policy, xi, xj):
                    continue
                s = 0.5 if xi == xj else (1.0 if xi > xj else 0.0)  # S_ij
                den = e[i] + e[j]
                if den > 1e-280:
                    d = s - e[i] / den  # S_ij - E_ij
                else:  # both ratings ~1e5 below the top: e underflows, use the tanh form
                    d = s - 0.5 - 0.5 * math.tanh(_ELO_BETA * (r[i] - r[j]))
                acc[i] += d
                acc[j] -= d  # S_ji - E_ji = -(S_ij - E_ij)
        for i in range(L):
            r[i] += K * acc[i]
    return r


@njit(cache=True)
def glicko_rounds(
    x: np.ndarray, gap: np.ndarray, policy: int, r0: float, rd2_0: float, c2: float, cap: float
) -> tuple[np.ndarray, np.ndarray]:
    """Glicko (Ranking Reasoning LLMs under Test-Time Scaling (2026), eqs. 45-48), one rating period
    per kept round; returns ``(r, RD²)``.

    Before every period ``RD² <- min(RD² + gap·c², cap)`` (only the cap when
    ``c = 0``, applied once before the first period).
    """
    T, L = x.shape
    k3 = 3.0 * _Q * _Q / math.pi**2
    r = np.full(L, r0)
    rd2 = np.full(L, rd2_0)
    g = np.empty(L)
    base = np.empty(L)
    sumh = np.empty(L)
    dinv = np.empty(L)
    for t in range(T):
        if c2 > 0.0 or t == 0:
            for i in range(L):
                rd2[i] = min(rd2[i] + gap[t] * c2, cap)
        for i in range(L):
            g[i] = 1.0 / math.sqrt(1.0 + k3 * rd2[i])  # eq. 45
            base[i] = 0.0
            sumh[i] = 0.0
            dinv[i] = 0.0
        for i in range(L):
            xi = x[t, i]
            for j in range(L):
                if j == i:
                    continue
                xj = x[t, j]
                if not _plays(policy, xi, xj):
                    continue
                # E_ij = (1 + h_ij) / 2 with h_ij = tanh(q g_j (r_i - r_j) / 2)   (eq. 46)
                h = _tanh((r[i] - r[j]) * (0.5 * _Q * g[j]))
                if xi != xj:
                    base[i] += 0.5 * g[j] if xi > xj else -0.5 * g[j]  # g_j (S_ij - 1/2)
                sumh[i] += g[j] * h
                dinv[i] += g[j] * g[j] * (1.0 - h * h)
        for i in range(L):
            prec = 1.0 / rd2[i] + (0.25 * _Q * _Q) * dinv[i]  # 1/RD² + 1/d² (eq. 47)
            r[i] += _Q * (base[i] - 0.5 * sumh[i]) / prec  # eq. 48
            rd2[i] = 1.0 / prec
    return r, rd2


@njit(cache=True)
def log_ndtr(z: float) -> float:
    """``log Φ(z)``, accurate in both tails (as scipy's ``log_ndtr``):
    ``log1p(-Φ(-z))`` above 0, ``log Φ(z)`` down to -20, the asymptotic series below."""
    if z > 0.0:
        return math.log1p(-0.5 * math.erfc(z * _SQRT1_2))
    if z > -20.0:
        return math.log(0.5 * math.erfc(-z * _SQRT1_2))
    lhs = -0.5 * z * z - math.log(-z) - _LOG_SQRT_2PI
    inv2 = 1.0 / (z * z)
    last, total, num, den, sign, i = 0.0, 1.0, 1.0, 1.0, 1.0, 0
    while abs(last - total) > _EPS:
        i += 1
        last = total
        sign = -sign
        den *= inv2
        num *= 2 * i - 1
        total += sign * num * den
    return lhs + math.log(total)


@njit(cache=True, inline="always")
def _v_w_win(z: float) -> tuple[float, float]:
    """``v = φ(z)/Φ(z)``, ``w = v (v + z)`` (stable in the tails via ``log_ndtr``)."""
    if z > -20.0:  # φ(z) / Φ(z) directly: one exp and one erfc
        cdf = 1.0 - 0.5 * math.erfc(z * _SQRT1_2) if z > 0 else 0.5 * math.erfc(-z * _SQRT1_2)
        v = math.exp(-0.5 * z * z - _LOG_SQRT_2PI) / cdf
    else:
        v = math.exp(-0.5 * z * z - _LOG_SQRT_2PI - log_ndtr(z))
    return v, v * (v + z)


@njit(cache=True, inline="always")
def _v_w_draw(t: float, e: float) -> tuple[float, float]:
    """Draw factors for ``|d| <= ε`` (``v`` odd, ``w`` even in ``t``); as ``ε -> 0``
    they tend to ``v = -t``, ``w = 1``, used below ``ε = 1e-6``."""
    sign = -1.0 if t < 0 else 1.0
    ta = abs(t)
    if e < 1e-6:
        return sign * -ta, 1.0
    a, b = -e - ta, e - ta
    la, lb = log_ndtr(a), log_ndtr(b)
    mass = -math.expm1(la - lb)  # (Φ(b) - Φ(a)) / Φ(b)
    ra = math.exp(-0.5 * a * a - _LOG_SQRT_2PI - lb)
    rb = math.exp(-0.5 * b * b - _LOG_SQRT_2PI - lb)
    v = (ra - rb) / mass
    w = v * v + (b * rb - a * ra) / mass
    return sign * v, w


@njit(cache=True)
def trueskill_rounds(
    x: np.ndarray,
    new_trials: np.ndarray,
    policy: int,
    mu0: float,
    s2_0: float,
    b2: float,
    tau2: float,
    eps: float,
) -> np.ndarray:
    """TrueSkill means after the kept rounds: two-player sites from the pre-round belief,
    multiplied in natural parameters; ``σ² += τ²`` per trial boundary crossed."""
    T, L = x.shape
    mu = np.full(L, mu0)
    s2 = np.full(L, s2_0)
    prec_acc = np.empty(L)
    mu_acc = np.empty(L)
    for t in range(T):
        if new_trials[t]:
            for i in range(L):
                s2[i] += new_trials[t] * tau2
        prec_acc[:] = 0.0
        mu_acc[:] = 0.0
        for i in range(L):
            xi = x[t, i]
            for j in range(i + 1, L):
                xj = x[t, j]
                if not _plays(policy, xi, xj):
                    continue
                c = math.sqrt(s2[i] + s2[j] + b2)
                tt = (mu[i] - mu[j]) / c
                if xi != xj:
                    sgn = 1.0 if xi > xj else -1.0
                    z = sgn * tt - eps / c if eps else sgn * tt  # the same z seen from j
                    v, w = _v_w_win(z)
                    v_ij = sgn * v
                else:  # a draw; v is odd, w even in t
                    v_ij, w = _v_w_draw(tt, eps / c)
                den_i = c - s2[i] * w / c  # c (1 - σ_i² w / c²) > 0
                den_j = c - s2[j] * w / c
                prec_acc[i] += w / (c * den_i)
                prec_acc[j] += w / (c * den_j)
                mu_acc[i] += v_ij / den_i
                mu_acc[j] -= v_ij / den_j
        for i in range(L):
            prec = 1.0 / s2[i] + prec_acc[i]
            mu[i] += mu_acc[i] / prec
            s2[i] = 1.0 / prec
    return mu
