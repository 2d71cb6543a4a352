"""Pointwise and evaluation-metric rankers (Ranking Reasoning LLMs under Test-Time Scaling (2026),
App. I.1.1-I.1.2).

Scores come from :mod:`scorio_core.eval`'s count kernels, so ranking by a
metric costs the same as computing it.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .. import eval as ev
from .._validation import ValidationError, as_numbers, check_k
from ._stats import as_binary, solve_counts
from .registry import ranker

__all__ = [
    "avg",
    "inverse_difficulty",
    "pass_at_k",
    "pass_hat_k",
    "g_pass_at_k_tau",
    "mg_pass_at_k",
    "bayes",
]


@ranker("metrics", "mean accuracy over questions and trials (002 eq. 20)")
def avg(R) -> np.ndarray:
    R = as_binary(R)
    return R.mean(axis=(1, 2))


@ranker(
    "pointwise",
    "accuracy with questions weighted by 1 / global solve rate, clipped (002 eq. 21)",
)
def inverse_difficulty(R, clip_range: tuple[float, float] = (0.01, 0.99)) -> np.ndarray:
    R = as_binary(R)
    pair = as_numbers(clip_range, "clip_range", kind=float, example="0.01,0.99")  # "lo,hi" too
    if len(pair) != 2:
        raise ValidationError(f"clip_range must be a pair (lo, hi); got {clip_range!r}")
    lo, hi = pair
    if not 0 < lo <= hi < 1:
        raise ValidationError(f"clip_range must satisfy 0 < lo <= hi < 1; got {clip_range!r}")
    p_hat = R.mean(-1)  # (L, M)
    p_q = p_hat.mean(0)  # global solve rate of each question
    w = 1.0 / np.clip(p_q, lo, hi)
    return p_hat @ (w / w.sum())


def _pass_family(kind: str, R, k: int, tau: float = 0.0) -> np.ndarray:
    R = as_binary(R)
    N = R.shape[-1]
    k = check_k(k, N)
    return ev.pass_from_counts(solve_counts(R), N, k, kind, tau)


@ranker(
    "metrics",
    "Pass@k: chance that at least one of k sampled trials is correct (002 eq. 22)",
    variants={"pass_at_k_2": {"k": 2}, "pass_at_k_4": {"k": 4}, "pass_at_k_8": {"k": 8}},
    extra={"pass_at_k_4", "pass_at_k_8"},
)
def pass_at_k(R, k: int) -> np.ndarray:
    return _pass_family("pass", R, k)


@ranker(
    "metrics",
    "Pass^k: chance that all k sampled trials are correct (002 eq. 23)",
    variants={"pass_hat_k_2": {"k": 2}},
    tie_floor=0.0,  # with large k a probability may legitimately be tiny
)
def pass_hat_k(R, k: int) -> np.ndarray:
    return _pass_family("hat", R, k)


@ranker(
    "metrics",
    "G-Pass@k_tau: chance that at least ceil(tau k) of k trials are correct (002 eq. 24)",
    variants={"g_pass_at_k_tau_2_0.5": {"k": 2, "tau": 0.5}},
    extra={"g_pass_at_k_tau_2_0.5"},
    tie_floor=0.0,  # with large k a probability may legitimately be tiny
)
def g_pass_at_k_tau(R, k: int, tau: float) -> np.ndarray:
    return _pass_family("g", R, k, tau)


@ranker(
    "metrics",
    "mG-Pass@k: G-Pass@k_tau averaged over tau in [0.5, 1] (002 eq. 25)",
    variants={"mg_pass_at_k_2": {"k": 2}},
    tie_floor=0.0,  # with large k a probability may legitimately be tiny
)
def mg_pass_at_k(R, k: int) -> np.ndarray:
    return _pass_family("mg", R, k)


@ranker(
    "metrics",
    "Bayes@N posterior mean; with quantile q, the conservative score mu + Phi^-1(q) sigma "
    "(002 eqs. 26-27)",
    variants={"bayes": {}, "bayes_greedy": {}, "bayes_ci": {"quantile": 0.05}},
    needs_r0={"bayes_greedy": True},
)
def bayes(R, w=None, R0=None, quantile: float | None = None) -> np.ndarray:
    R = np.asarray(R)
    if R.ndim == 2:
        R = R[:, :, None]
    mu, sigma = ev.bayes(R, w, R0)
    mu, sigma = np.atleast_1d(mu), np.atleast_1d(sigma)
    if quantile is None:
        return mu
    if not 0.0 <= quantile <= 1.0:
        raise ValidationError(f"quantile must lie in [0, 1]; got {quantile!r}")
    return mu + special.ndtri(quantile) * sigma
