"""Rasch (1PL) joint ML and MAP: one objective on the sufficient statistics.

``k_lm ~ Binomial(N, σ(θ_l - b_m))`` (eq. 2, Ranking Reasoning LLMs under Test-Time Scaling (2026),
eq. 54). The negative log-likelihood depends on the data only through the model totals ``s_l`` and
the item totals ``t_m``::

    (1.1)  NLL(θ, b) = -Σ_l s_l θ_l + Σ_m t_m b_m + N Σ_lm softplus(θ_l - b_m)

and the objective is (7): ``NLL + P(θ) + ridge/2 (‖θ‖² + ‖b‖²)``, ML being the
uniform prior ``P = 0``. Under the uniform or a Gaussian prior (1.1) is smooth
and strictly convex with a bipartite Hessian (a diagonal ability block, a
diagonal item block, the cross block), so it is minimised by Newton's method
with the Schur complement of the item block (``_kernels.rasch_newton``,
``O(G² H)`` a step, quadratic convergence); other priors take the shared
L-BFGS loop (:func:`~._base._solve`). Both reach the same optimum
(``solver="lbfgs"`` in the tests).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy import special

from ..._validation import check_int
from ..priors import EmpiricalPrior, GaussianPrior, Prior, UniformPrior, as_prior
from ._base import (
    _RIDGE,
    _AbilityPrior,
    _converged,
    _Counts,
    _groups,
    _init_logits,
    _irt_ranker,
    _prior_key,
    _solve,
    _sp_sig,
)

__all__ = ["rasch", "rasch_map"]


def _rasch_nll(s, w, t, v, N, n_sym):
    """NLL (1.1) plus the vague ridge, with its gradient.

    ``s, w``: distinct model totals and their multiplicities; ``t, v``: distinct
    item totals and multiplicities; ``x = [θ (G), <n_sym symmetry coordinates>,
    b (H)]``; the NLL sees ``θ`` centred and ignores the symmetry coordinates
    (see :class:`~._base._AbilityPrior`).
    """
    G = s.size
    W = w.sum()
    ww = w[:, None] * v[None, :]
    zero = np.zeros(n_sym)

    def nll_grad(x):
        th, b = x[:G] - (w @ x[:G]) / W, x[G + n_sym :]
        sp, sig = _sp_sig(th[:, None] - b[None, :])
        f = -w @ (s * th) + v @ (t * b) + N * np.sum(ww * sp)
        f += 0.5 * _RIDGE * (w @ th**2 + v @ b**2)
        P = N * ww * sig
        g_th = P.sum(1) - w * s + _RIDGE * w * th
        g_b = v * t - P.sum(0) + _RIDGE * v * b
        return f, np.concatenate([g_th - w * g_th.sum() / W, zero, g_b])

    return nll_grad


def _rasch_start(s, w, t, v, N, M, L, sweeps=4):
    """Start values: logits of the solve rates (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), Algorithm 6) refined by a few alternating one-dimensional Newton sweeps on
    abilities and difficulties (classical JMLE), which saves L-BFGS some iterations."""
    th = _init_logits(s, M * N)
    th -= (w @ th) / w.sum()
    b = -_init_logits(t, L * N)
    for _ in range(sweeps):
        sig = special.expit(th[:, None] - b)
        th += np.clip((s - N * sig @ v) / (N * (sig * (1 - sig)) @ v + _RIDGE), -1.0, 1.0)
        sig = special.expit(th[:, None] - b)
        b -= np.clip((t - N * w @ sig) / (N * w @ (sig * (1 - sig)) + _RIDGE), -1.0, 1.0)
    return th - (w @ th) / w.sum(), b


def _gaussian_precision(prior: Prior) -> float | None:
    """``1 / var`` of a Gaussian ability prior (Gaussian or empirical), else None."""
    if isinstance(prior, GaussianPrior | EmpiricalPrior):
        return 1.0 / float(prior.var)
    return None


def _rasch_fit(c: _Counts, prior, max_iter, solver: Literal["newton", "lbfgs"] = "newton"):
    """Minimise (7) with NLL (1.1): ``(scores (L,), item_params)``. ``prior=None`` is ML;
    ``solver="lbfgs"`` forces the general path (the tests check that Newton reaches the
    same optimum)."""
    prior = as_prior(prior)
    max_iter = check_int("max_iter", max_iter)
    if not c.keep.any():  # every item constant: no information, every model tied
        return np.zeros(c.L), {"difficulty": c.const_b.copy(), "converged": True}
    ml = isinstance(prior, UniformPrior)
    s_all = c.ki.sum(1)
    first, inv, w = _groups(s_all, prior)
    s = s_all[first].astype(float)
    t, tinv, v = np.unique(c.ki.sum(0), return_inverse=True, return_counts=True)
    t, v = t.astype(float), v.astype(float)
    G, n_sym = s.size, 0 if ml else 1
    tau = 0.0 if ml else _gaussian_precision(prior)
    if tau is not None and solver == "newton":
        from ._kernels import rasch_newton

        mu = _prior_key(prior, c.L)[first, 0] if tau else np.zeros(G)
        th0 = _init_logits(s, c.ki.shape[1] * c.N)
        b0 = -_init_logits(t, c.L * c.N)
        th, shift_c, b, gmax, _ = rasch_newton(
            s, w, t, v, float(c.N), _RIDGE, tau, np.ascontiguousarray(mu, dtype=float),
            th0, 0.0, b0, max_iter, 1e-11,
        )
        ok = _converged(gmax)
    else:
        th0, b0 = _rasch_start(s, w, t, v, c.N, c.ki.shape[1], c.L)
        sig = special.expit(th0[:, None] - b0)
        info = c.N * sig * (1 - sig) * w[:, None] * v  # expected information per cell
        ap = None if ml else _AbilityPrior(prior, inv, w)
        x0 = np.concatenate([th0, np.zeros(n_sym), b0])
        sym = np.ones(0) if ml else ap.sym_curvature(x0[: G + 1])
        curv = np.concatenate([info.sum(1), sym, info.sum(0)])
        x, ok = _solve(_rasch_nll(s, w, t, v, c.N, n_sym), x0, max_iter, ap, G + n_sym, curv)
        th, b = x[:G] - (w @ x[:G]) / w.sum(), x[G + n_sym :]
        shift_c = x[G] if not ml else 0.0
    # ML: report in the gauge of 002 Algorithm 6 (Σ_m b_m = 0); MAP: the prior's location.
    shift = -(v @ b) / v.sum() if ml else shift_c
    return (th + shift)[inv], {
        "difficulty": c.expand_items((b + shift)[tinv.ravel()]),
        "converged": ok,
    }


@_irt_ranker("Rasch (1PL) joint ML on binomial counts (002 eq. 54, Algorithm 6)")
def rasch(R, max_iter: int = 500, return_item_params: bool = False):
    """Rank models by Rasch (1PL) abilities, joint maximum likelihood (eq. 2, Ranking Reasoning LLMs
    under Test-Time Scaling (2026), eq. 54).

    Minimises (1.1), reported with ``Σ_m b_m = 0``, by Newton's method from the
    logits of the solve rates (Ranking Reasoning LLMs under Test-Time Scaling (2026), Algorithm 6).
    The MLE depends on the data only through the totals ``s_l`` and is strictly increasing in them:
    the ranking is the ranking by total correct answers, equal totals giving equal
    scores.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    max_iter : int, default 500
        Maximum Newton steps (L-BFGS iterations under a non-Gaussian prior).
    return_item_params : bool, default False
        Also return ``{"difficulty": b (M,), "converged": bool}`` (implies scores).

    Notes
    -----
    Unlike the reference package, separated data (a model or an item with all
    trials correct or all wrong) do not raise: constant items are left out
    (difficulty ``±inf``, exact in the extended MLE) and a vague ``1e-6`` ridge
    keeps extreme models finite and in order (all-correct models on top).

    Examples
    --------
    >>> import numpy as np
    >>> from scorio_core.rank import irt
    >>> R = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0]])
    >>> irt.rasch(R).tolist()
    [1, 2, 2]
    """
    return _rasch_fit(_Counts(R), None, max_iter)


@_irt_ranker("Rasch (1PL) MAP with a prior on abilities (002 App. I.1.8, Mislevy 1986)")
def rasch_map(R, prior: Prior | float = 1.0, max_iter: int = 500, return_item_params: bool = False):
    """Rasch abilities by MAP: objective (7) of :func:`rasch` with the prior ``P(θ)``.

    The prior identifies the location, so difficulties are not centred (the
    reference centres them, which adds a constraint; the ranking is the same).
    With an exchangeable prior the ranking is the ranking by total correct
    answers; abilities stay finite for all-correct / all-wrong models.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    prior : Prior or float, default 1.0
        A :class:`~scorio_core.rank.priors.Prior`, or a Gaussian variance.
    max_iter, return_item_params
        As in :func:`rasch`.

    References
    ----------
    R. J. Mislevy (1986). Bayes modal estimation in item response models.
    Psychometrika 51, 177-195.

    Examples
    --------
    Abilities under a Gaussian prior of variance 4:

    >>> import numpy as np
    >>> from scorio_core.rank import irt
    >>> R = np.array([[1, 1, 1], [1, 0, 0], [0, 0, 0]])
    >>> irt.rasch_map(R, prior=4.0, return_scores=True)[1].round(2).tolist()
    [2.15, -0.35, -1.8]
    """
    return _rasch_fit(_Counts(R), prior, max_iter)
