"""Today's (pre-numba) pure-numpy round loops of Elo, Glicko and TrueSkill, kept verbatim
as the oracle for the compiled kernels of :mod:`scorio_core.rank.sequential` (issue 15:
results identical to 1e-12). Not used by the package."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
from scipy import special

from scorio_core._validation import ValidationError
from scorio_core.rank._stats import as_binary

_POLICIES = ("skip", "draw", "correct_draw_only")
_LOG_SQRT_2PI = 0.5 * np.log(2 * np.pi)
_ELO_BETA = np.log(10.0) / 800.0
_Q = np.log(10.0) / 400.0


class _Stream(NamedTuple):
    x: np.ndarray  # (T, L) float 0/1: outcomes of the rounds where some pair plays, in order
    gap: np.ndarray  # (T,) rounds since the previous kept round (1 = consecutive)
    new_trials: np.ndarray  # (T,) trial boundaries crossed since the previous kept round
    n_rounds: int  # M·N, all rounds
    tie_handling: str

    def masks(self, block: int = 256) -> Iterator[np.ndarray]:
        """``(L, L)`` float masks of the pairs that play, one per kept round.

        Built ``block`` rounds at a time with one vectorised comparison, so
        memory stays ``O(block · L²)`` and the round loop does no mask work.
        """
        L = self.x.shape[1]
        off = ~np.eye(L, dtype=bool)
        if self.tie_handling == "draw":
            yield from itertools.repeat(off.astype(float), self.x.shape[0])
            return
        for start in range(0, self.x.shape[0], block):
            xb = self.x[start : start + block].astype(bool)
            if self.tie_handling == "skip":
                mb = xb[:, :, None] != xb[:, None, :]
            else:  # correct_draw_only: decisive or both correct
                mb = (xb[:, :, None] | xb[:, None, :]) & off
            yield from mb.astype(float)


def _stream(R, tie_handling: str) -> _Stream:
    if tie_handling not in _POLICIES:
        raise ValidationError(
            f"tie_handling must be one of {', '.join(_POLICIES)}; got {tie_handling!r}"
        )
    R = as_binary(R)
    L, M, N = R.shape
    X = R.transpose(2, 1, 0).reshape(N * M, L)  # trial-major round order
    c = X.sum(1)
    decisive = (c > 0) & (c < L)
    if tie_handling == "skip":
        plays = decisive
    elif tie_handling == "draw":
        plays = np.full(N * M, L >= 2)
    else:
        plays = decisive | (c >= 2)
    idx = np.flatnonzero(plays)
    gap = np.diff(idx, prepend=-1)
    new_trials = np.diff(idx // M, prepend=0)
    return _Stream(X[idx].astype(float), gap, new_trials, N * M, tie_handling)


def elo(R, K=32.0, initial_rating=1500.0, tie_handling="correct_draw_only"):
    K, r0 = float(K), float(initial_rating)
    s = _stream(R, tie_handling)
    L = s.x.shape[1]
    n_correct = s.x.sum(1, keepdims=True)
    # Σ_j (S_ij - 1/2) over the pairs that play: only decisive pairs contribute
    half_margin = 0.5 * (s.x * (L - n_correct) - (1.0 - s.x) * n_correct)
    drift = K * half_margin
    r = np.full(L, r0)
    for d, m in zip(drift, s.masks(), strict=True):
        th = np.tanh(_ELO_BETA * np.subtract.outer(r, r))  # 2 E - 1
        r += d - (0.5 * K) * np.einsum("ij,ij->i", m, th)
    return r


def glicko(
    R,
    initial_rating=1500.0,
    initial_rd=350.0,
    c=0.0,
    rd_max=350.0,
    tie_handling="correct_draw_only",
):
    return _glicko_state(R, initial_rating, initial_rd, c, rd_max, tie_handling)


def _glicko_state(R, initial_rating, initial_rd, c, rd_max, tie_handling):
    r0, rd0, c, rd_max = float(initial_rating), float(initial_rd), float(c), float(rd_max)
    s = _stream(R, tie_handling)
    L = s.x.shape[1]
    c2, cap = c * c, rd_max * rd_max
    k3 = 3.0 * _Q * _Q / np.pi**2
    r = np.full(L, r0)
    rd2 = np.full(L, rd0 * rd0)
    first = True
    for x, gap, m in zip(s.x, s.gap, s.masks(), strict=True):
        if c2 or first:  # pre-period inflation, capped (eq. 48 ff.); only the cap if c = 0
            rd2 = np.minimum(rd2 + gap * c2, cap)
            first = False
        g = 1.0 / np.sqrt(1.0 + k3 * rd2)  # eq. 45
        # E_ij = 1 / (1 + 10^(-g_j (r_i - r_j)/400)) = (1 + h_ij) / 2   (eq. 46)
        h = np.tanh(np.subtract.outer(r, r) * (0.5 * _Q * g))
        Mg = m * g  # g_j on the pairs that play
        # Σ_j g_j (S_ij - 1/2): only decisive pairs contribute, +g_j/2 for a win over j,
        # -g_j/2 for a loss: x_i Σ_{x_j=0} g_j - (1 - x_i) Σ_{x_j=1} g_j = x_i Σ g - g·x
        base = 0.5 * (x * g.sum() - g @ x)
        d_inv = (0.25 * _Q * _Q) * np.einsum("ij,ij->i", Mg * g, 1.0 - h * h)  # 1/d² (eq. 47)
        prec = 1.0 / rd2 + d_inv
        r = r + _Q * (base - 0.5 * np.einsum("ij,ij->i", Mg, h)) / prec  # eq. 48
        rd2 = 1.0 / prec
    trailing = s.n_rounds - int(s.gap.sum())  # periods after the last match still inflate RD
    if trailing:
        rd2 = np.minimum(rd2 + trailing * c2, cap)
    return r, np.sqrt(rd2)


def _v_w_win(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``v = φ(z)/Φ(z)``, ``w = v (v + z)`` (stable in the tails via ``log_ndtr``)."""
    v = np.exp(-0.5 * z * z - _LOG_SQRT_2PI - special.log_ndtr(z))
    return v, v * (v + z)


def _v_w_draw(t: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Draw factors for ``|d| <= ε``: ``v = (φ(-ε-t) - φ(ε-t)) / (Φ(ε-t) - Φ(-ε-t))``, ``w``.

    Evaluated at ``|t|`` (``v`` is odd and ``w`` even in ``t``) with ratios to
    ``Φ(ε - |t|)`` in log space; as ``ε -> 0`` they tend to ``v = -t``, ``w = 1``
    (conditioning on equal performances), used below ``ε = 1e-6``.
    """
    sign = np.where(t < 0, -1.0, 1.0)
    ta = np.abs(t)
    a, b = -e - ta, e - ta
    la, lb = special.log_ndtr(a), special.log_ndtr(b)
    with np.errstate(divide="ignore", invalid="ignore"):
        mass = -np.expm1(la - lb)  # (Φ(b) - Φ(a)) / Φ(b)
        ra = np.exp(-0.5 * a * a - _LOG_SQRT_2PI - lb)
        rb = np.exp(-0.5 * b * b - _LOG_SQRT_2PI - lb)
        v = (ra - rb) / mass
        w = v * v + (b * rb - a * ra) / mass
    small = e < 1e-6
    return sign * np.where(small, -ta, v), np.where(small, 1.0, w)


def trueskill(
    R,
    mu_initial=25.0,
    sigma_initial=25.0 / 3.0,
    beta=25.0 / 6.0,
    tau=25.0 / 300.0,
    tie_handling="skip",
    draw_margin=0.0,
):
    mu0, s0, beta, tau, eps = map(float, (mu_initial, sigma_initial, beta, tau, draw_margin))
    s = _stream(R, tie_handling)
    L = s.x.shape[1]
    draws = tie_handling != "skip"
    mu = np.full(L, mu0)
    s2 = np.full(L, s0 * s0)
    b2, tau2 = 2.0 * beta * beta, tau * tau
    for x, new_trials, m in zip(s.x, s.new_trials, s.masks(), strict=True):
        if new_trials:
            s2 = s2 + new_trials * tau2
        c = np.sqrt(np.add.outer(s2, s2) + b2)
        t = np.subtract.outer(mu, mu) / c
        sgn = np.subtract.outer(x, x)  # +1: i won, -1: i lost, 0: tied pair
        v, w = _v_w_win(sgn * t - eps / c if eps else sgn * t)
        v = sgn * v  # signed: μ_i moves by σ_i²/c · v
        if draws:
            vd, wd = _v_w_draw(t, eps / c)
            tied = sgn == 0
            v, w = np.where(tied, vd, v), np.where(tied, wd, w)
        den = c - s2[:, None] * w / c  # c (1 - σ_i² w / c²) > 0
        # site precision w / (c² - σ_i² w) and precision-weighted mean shift v / den
        prec = 1.0 / s2 + np.einsum("ij,ij->i", m, w / (c * den))
        mu = mu + np.einsum("ij,ij->i", m, v / den) / prec
        s2 = 1.0 / prec
    return mu
