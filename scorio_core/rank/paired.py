"""Paired-comparison likelihoods: Bradley-Terry, Davidson, Rao-Kupper (Ranking Reasoning LLMs under
Test-Time Scaling (2026), App. I.1.5).

Every model reads the trial-level tallies of :func:`~._stats.trial_pairs` once:
``W[i, j]`` = (question, trial) events where ``i`` is correct and ``j`` wrong,
``T[i, j]`` = events where both are correct or both wrong (Ranking Reasoning LLMs under Test-Time
Scaling (2026), §2.2). Each model is ONE negative log-likelihood in the log-strengths ``θ = log π``
with an analytic gradient, minimised by :func:`~._optim.fit` (L-BFGS, Ranking Reasoning LLMs under
Test-Time Scaling (2026), Alg. 3); maximum likelihood is MAP with the uniform prior, so every
``*_map`` ranker is a thin wrapper.

Bradley-Terry and Rao-Kupper share one likelihood. Writing ``d = θ_i - θ_j``
and ``k = log κ``, eqs. (39)-(42) give ``-log Pr(i ≻ j) = softplus(k - d)`` and
``-log Pr(i ~ j) = softplus(k - d) + softplus(k + d) - log(κ² - 1)``, so

    ``-log p(W, T | θ) = Σ_{i≠j} A_ij softplus(log κ - (θ_i - θ_j)) - T· log(κ² - 1)``

with ``A = W + T`` (each tie counts as a "not lost" event for both sides) and
``T·`` the number of tied events; BT is ``κ = 1``, ``A = W`` (ties ignored, eq. 40).

Scores are the centred log-strengths ``θ`` (higher is better), not ``π = e^θ``:
the order is the same, and ``θ`` stays well scaled where ``π`` would underflow
into the absolute tie tolerance of :func:`~._ties.rank_scores`.

Separated data (maximum likelihood)
-----------------------------------
An ML estimate is finite iff the graph with an edge ``i → j`` whenever ``i``
has an outcome that keeps ``θ_i - θ_j`` from running to ``+∞`` (a win for BT;
a win or a tie for Davidson and Rao-Kupper) is strongly connected (Zermelo;
Ford 1957; Hunter 2004). Low-budget slices break this often (a model solving
a superset of another's questions never loses to it). The likelihood then has
a supremum but no maximiser: every maximising sequence keeps the ML fit inside
each strongly connected component and pushes the components apart along the
condensation, which for a fully observed ``R`` is a total order (two
components without an edge either way would be identical models). We return
that limit with finite numbers: within-component ML strengths, components
stacked in their order with a gap of ``log(1 + M·N)`` between the closest
members of adjacent levels (a modelled BT upset probability below one event in
``M·N``), and the whole vector centred. MAP estimates are always finite.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy import special

from .._validation import ValidationError, check_int
from ._optim import fit, separation_levels, stack_levels
from ._stats import as_binary, trial_pairs
from .priors import Prior, UniformPrior, as_prior
from .registry import ranker

__all__ = [
    "bradley_terry",
    "bradley_terry_map",
    "bradley_terry_davidson",
    "bradley_terry_davidson_map",
    "rao_kupper",
    "rao_kupper_map",
]

#: Davidson's log tie parameter is boxed: with no ties ν -> 0 (the model is BT),
#: with no decisive outcomes ν -> ∞ (strengths unidentified); |log ν| <= 30 makes
#: both limits exact to ~1e-13 while keeping the optimiser finite.
_LOG_NU_BOUND = 30.0


#: L-BFGS relative-reduction tolerance. The objectives are sums over M·N·L² events
#: (|f| ~ 1e5), so the default 1e-10 stops with gradients ~1e-2 and strengths off by
#: ~1e-5; near machine precision costs a few iterations and gives ~1e-8.
_FTOL = 1e-15


class _Tallies(NamedTuple):
    W: np.ndarray  # (L, L) float: decisive wins of i over j
    T: np.ndarray  # (L, L) float, symmetric: tied events (both correct or both wrong)
    trials: int  # M * N, the comparisons per pair


def _tallies(R) -> _Tallies:
    R = as_binary(R)
    tp = trial_pairs(R)
    return _Tallies(tp.wins.astype(float), tp.ties.astype(float), R.shape[1] * R.shape[2])


# ----------------------------------------------------------------------------- likelihoods


def logistic_nll(theta: np.ndarray, A: np.ndarray, log_kappa: float = 0.0):
    """``Σ_{i≠j} A_ij softplus(log κ - (θ_i - θ_j))`` and its gradient in ``θ``.

    The BT negative log-likelihood (eq. 40) with ``A = W``, ``κ = 1``; the
    Rao-Kupper one (eq. 42, up to a constant) with ``A = W + T``.
    """
    z = log_kappa - (theta[:, None] - theta[None, :])
    f = float(np.sum(A * np.logaddexp(0.0, z)))
    G = A * special.expit(z)  # d f / d z_ij
    return f, G.sum(0) - G.sum(1)


def _davidson_nll(x: np.ndarray, W: np.ndarray, T: np.ndarray):
    """Davidson (eq. 41) in ``x = [θ, log ν]``; each unordered pair is counted once.

    With ``h = (θ_i - θ_j) / 2`` the three outcomes have probabilities
    ``(e^h, e^-h, ν) / Z``, ``Z = e^h + e^-h + ν``; per pair
    ``-log p = n log Z - (W_ij - W_ji) h - T_ij log ν``.
    """
    theta, u = x[:-1], x[-1]
    h = 0.5 * (theta[:, None] - theta[None, :])
    m = np.maximum(np.abs(h), u)  # log-sum-exp shift
    ea, eb, ec = np.exp(h - m), np.exp(-h - m), np.exp(u - m)
    s = ea + eb + ec
    n = W + W.T + T
    dW = W - W.T
    f = 0.5 * float(np.sum(n * (m + np.log(s)) - dW * h)) - 0.5 * float(T.sum()) * u
    g = np.empty_like(x)
    g[:-1] = 0.5 * np.sum(n * (ea - eb) / s - dW, axis=1)
    g[-1] = 0.5 * float(np.sum(n * ec / s)) - 0.5 * float(T.sum())
    return f, g


@dataclass(frozen=True)
class _Model:
    """One paired-comparison likelihood over ``x = [θ, nuisance...]``."""

    name: str
    nll: Callable[[np.ndarray, _Tallies], tuple[float, np.ndarray]]
    edges: Callable[[_Tallies], np.ndarray]  # i -> j: i has an outcome that is not a loss to j
    n_extra: int = 0
    extra_bounds: tuple = ()


def _bt_model() -> _Model:
    return _Model("Bradley-Terry", lambda x, t: logistic_nll(x, t.W), lambda t: t.W)


def _rk_model(kappa: float) -> _Model:
    k = float(np.log(kappa))
    const = float(np.log(kappa * kappa - 1.0)) if kappa > 1.0 else 0.0

    def nll(x, t):
        f, g = logistic_nll(x, t.W + t.T, k)
        return f - 0.5 * float(t.T.sum()) * const, g

    return _Model("Rao-Kupper", nll, lambda t: t.W + t.T)


_DAVIDSON = _Model(
    "Davidson",
    lambda x, t: _davidson_nll(x, t.W, t.T),
    lambda t: t.W + t.T,
    n_extra=1,
    extra_bounds=((-_LOG_NU_BOUND, _LOG_NU_BOUND),),
)


# ----------------------------------------------------------------------------- fitting


def _optimise(model: _Model, t: _Tallies, prior: Prior, max_iter: int) -> np.ndarray:
    L = t.W.shape[0]
    x0 = np.zeros(L + model.n_extra)
    bounds = None
    if model.n_extra:
        bounds = [(None, None)] * L + list(model.extra_bounds)
    x = fit(
        lambda x: model.nll(x, t),
        x0,
        prior=prior,
        prior_slice=slice(0, L),
        max_iter=max_iter,
        tol=_FTOL,
        bounds=bounds,
    )
    return x[:L]


def _strengths(model: _Model, R, prior, max_iter) -> np.ndarray:
    """Centred log-strengths: MAP under ``prior``, or the ML limit for the uniform prior."""
    max_iter = check_int("max_iter", max_iter)
    t = _tallies(R)
    L = t.W.shape[0]
    prior = as_prior(prior, L)
    if not isinstance(prior, UniformPrior):
        theta = _optimise(model, t, prior, max_iter)
        return theta - theta.mean()  # 002 Alg. 3: centred log-strengths
    if not t.W.any():  # no decisive outcome: relative strength is not identified
        return np.zeros(L)
    lab, level = separation_levels(model.edges(t))
    if not level.any():
        theta = _optimise(model, t, prior, max_iter)
        return theta - theta.mean()
    # Separated: ML within each strongly connected component, components stacked.
    same = lab[:, None] == lab[None, :]
    inner = _Tallies(np.where(same, t.W, 0.0), np.where(same, t.T, 0.0), t.trials)
    theta = _optimise(model, inner, prior, max_iter) if inner.W.any() else np.zeros(L)
    theta = stack_levels(theta, lab, level, float(np.log1p(t.trials)))
    return theta - theta.mean()


# ----------------------------------------------------------------------------- rankers


@ranker(
    "paired",
    "Bradley-Terry maximum likelihood on decisive trial-level wins (002 eqs. 39-40)",
    variants={"bradley_terry": {"max_iter": 500}},
)
def bradley_terry(R, *, max_iter: int = 500) -> np.ndarray:
    """Bradley-Terry ML log-strengths from decisive wins (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), App. I.1.5, eqs. 39-40).

    ``Pr(i ≻ j) = π_i / (π_i + π_j)`` fitted to ``W_ij`` (ties are ignored) by
    L-BFGS on ``θ = log π`` (Ranking Reasoning LLMs under Test-Time Scaling (2026), Alg. 3), centred
    to mean 0.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    max_iter : int, default 500
        L-BFGS iteration limit.

    Returns
    -------
    ranks (L,), and with ``return_scores=True`` also the centred log-strengths.

    Notes
    -----
    When the win graph is not strongly connected the ML estimate does not
    exist (strengths run to ±∞); the finite stand-in keeps the order that
    limit implies (see the module notes). The reference package raises
    ``ValueError`` there. Rankings follow decisive wins, not accuracy: on the
    M = 8 counterexample of Ranking Reasoning LLMs under Test-Time Scaling (2026), App. C.2 accuracy
    ranks 0 > 1 > 2 and BT 1 > 0 > 2.

    Examples
    --------
    >>> from scorio_core.rank.paired import bradley_terry
    >>> import numpy as np
    >>> R = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0]])
    >>> bradley_terry(R).tolist()
    [1, 2, 2]
    """
    return _strengths(_bt_model(), R, None, max_iter)


@ranker(
    "paired",
    "Bradley-Terry MAP: BT likelihood plus a prior penalty on log-strengths (002 eq. 40)",
    variants={"bradley_terry_map": {"prior": 1.0, "max_iter": 500}},
)
def bradley_terry_map(R, *, prior: Prior | float = 1.0, max_iter: int = 500) -> np.ndarray:
    """Bradley-Terry MAP log-strengths (Ranking Reasoning LLMs under Test-Time Scaling (2026),
    App. I.1.5, eq. 40 plus a prior on ``θ``).

    Minimises ``-log p(W | θ) + P(θ)``; a float ``prior`` is the variance of a
    Gaussian prior around 0, and any :class:`~scorio_core.rank.priors.Prior`
    works (Laplace, Cauchy, uniform = ML, empirical from ``R0``, custom).

    Examples
    --------
    >>> from scorio_core.rank.paired import bradley_terry_map
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]]])
    >>> bradley_terry_map(R, prior=1.0).tolist()
    [1, 2]
    """
    return _strengths(_bt_model(), R, prior, max_iter)


@ranker(
    "paired",
    "Davidson tie model: wins, losses and ties with a fitted tie parameter nu (002 eq. 41)",
    variants={"bradley_terry_davidson": {"max_iter": 500}},
)
def bradley_terry_davidson(R, *, max_iter: int = 500) -> np.ndarray:
    """Bradley-Terry-Davidson ML log-strengths (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), App. I.1.5, eq. 41).

    ``Pr(i ~ j) ∝ ν √(π_i π_j)``; a pairwise tie is an event where both models
    are correct or both wrong. ``ν`` is fitted jointly (as ``log ν``, boxed to
    ``±30``: no ties gives ν -> 0, i.e. BT; no decisive outcome gives equal
    strengths).

    Examples
    --------
    >>> from scorio_core.rank.paired import bradley_terry_davidson
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 0]], [[1, 0], [0, 0]]])
    >>> bradley_terry_davidson(R).tolist()
    [1, 2]
    """
    return _strengths(_DAVIDSON, R, None, max_iter)


@ranker(
    "paired",
    "Davidson tie model with a prior penalty on log-strengths (002 eq. 41)",
    variants={"bradley_terry_davidson_map": {"prior": 1.0, "max_iter": 500}},
)
def bradley_terry_davidson_map(R, *, prior: Prior | float = 1.0, max_iter: int = 500) -> np.ndarray:
    """Bradley-Terry-Davidson MAP log-strengths (eq. 41 plus a prior on ``θ``; ``ν`` unpenalised).

    Examples
    --------
    >>> from scorio_core.rank.paired import bradley_terry_davidson_map
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 0]], [[1, 0], [0, 0]]])
    >>> bradley_terry_davidson_map(R, prior=1.0).tolist()
    [1, 2]
    """
    return _strengths(_DAVIDSON, R, prior, max_iter)


def _rk(R, tie_strength, prior, max_iter) -> np.ndarray:
    kappa = float(tie_strength) if isinstance(tie_strength, int | float | np.number) else np.nan
    if isinstance(tie_strength, bool) or not (np.isfinite(kappa) and kappa >= 1.0):
        raise ValidationError(
            f"tie_strength (kappa) must be a finite number >= 1; got {tie_strength!r}"
        )
    if kappa == 1.0 and np.any(trial_pairs(as_binary(R)).ties):
        raise ValidationError(
            "tie_strength = 1 gives tied outcomes probability 0, but R has ties (both models "
            "correct or both wrong); use tie_strength > 1 or bradley_terry"
        )
    return _strengths(_rk_model(kappa), R, prior, max_iter)


@ranker(
    "paired",
    "Rao-Kupper tie model with fixed threshold kappa = tie_strength (002 eq. 42)",
    variants={"rao_kupper": {"tie_strength": 1.1, "max_iter": 500}},
)
def rao_kupper(R, *, tie_strength: float = 1.1, max_iter: int = 500) -> np.ndarray:
    """Rao-Kupper ML log-strengths with a fixed tie threshold ``κ`` (Ranking Reasoning LLMs under
    Test-Time Scaling (2026), App. I.1.5, eq. 42).

    ``Pr(i ≻ j) = π_i / (π_i + κ π_j)``, ``Pr(i ~ j) = (κ² - 1) π_i π_j /
    ((π_i + κ π_j)(κ π_i + π_j))``. ``κ = tie_strength`` is a hyperparameter,
    not estimated (Ranking Reasoning LLMs under Test-Time Scaling (2026), App. I.2 uses 1.1);
    ``κ = 1`` is BT and refuses ties.

    Examples
    --------
    >>> from scorio_core.rank.paired import rao_kupper
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 0]], [[1, 0], [0, 0]]])
    >>> rao_kupper(R, tie_strength=1.1).tolist()
    [1, 2]
    """
    return _rk(R, tie_strength, None, max_iter)


@ranker(
    "paired",
    "Rao-Kupper tie model with a prior penalty on log-strengths (002 eq. 42)",
    variants={"rao_kupper_map": {"tie_strength": 1.1, "prior": 1.0, "max_iter": 500}},
)
def rao_kupper_map(
    R, *, tie_strength: float = 1.1, prior: Prior | float = 1.0, max_iter: int = 500
) -> np.ndarray:
    """Rao-Kupper MAP log-strengths (eq. 42 plus a prior on ``θ``).

    Examples
    --------
    >>> from scorio_core.rank.paired import rao_kupper_map
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 0]], [[1, 0], [0, 0]]])
    >>> rao_kupper_map(R, tie_strength=1.1, prior=1.0).tolist()
    [1, 2]
    """
    return _rk(R, tie_strength, prior, max_iter)
