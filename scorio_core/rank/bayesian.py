"""Posterior-sampling rankers: Thompson sampling and Bayesian Bradley-Terry (Ranking Reasoning LLMs
under Test-Time Scaling (2026), App. I.1.3).

Both are Monte Carlo estimates of posterior quantities (Ranking Reasoning LLMs under Test-Time
Scaling (2026), eqs. 28-31), seeded for reproducibility. Models that are exchangeable under the
posterior (equal success totals for Thompson; a win matrix invariant under swapping the
two models for Bradley-Terry) have exactly equal posterior expectations, so
their Monte Carlo estimates are averaged over the exchangeable group: ties come
out as ties instead of as sampling noise, and the estimate stays unbiased.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg, special
from scipy.sparse.csgraph import connected_components

from .._validation import check_int, check_number
from ._stats import as_binary, trial_pairs
from .paired import _bt_model, _optimise, _Tallies
from .priors import GaussianPrior
from .registry import ranker

__all__ = ["thompson", "bayesian_mcmc"]

#: Independence proposal: a Gaussian/Student-t mixture around the Laplace approximation.
_T_WEIGHT = 0.1  # share of heavy-tailed (t) proposals; keeps posterior/proposal bounded
_T_DF = 4.0
#: Proposals evaluated per vectorised block (bounds the (block, pairs) work array).
_BLOCK_ELEMENTS = 1 << 20


def _group_mean(scores: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Replace each score by the mean over its group (groups of exchangeable models)."""
    _, inv = np.unique(labels, return_inverse=True)
    return (np.bincount(inv, weights=scores) / np.bincount(inv))[inv]


# ----------------------------------------------------------------------------- Thompson


@ranker(
    "bayesian",
    "negative posterior expected rank under independent Beta posteriors (002 eqs. 28-29)",
    variants={"thompson": {"n_samples": 10000, "prior_alpha": 1.0, "prior_beta": 1.0, "seed": 42}},
    stochastic=True,
)
def thompson(
    R,
    *,
    n_samples: int = 10000,
    prior_alpha: float = 1.0,
    prior_beta: float = 1.0,
    seed: int | None = 42,
) -> np.ndarray:
    """Thompson-sampling ranking: minus the Monte Carlo mean rank (Ranking Reasoning LLMs under
    Test-Time Scaling (2026), App. I.1.3, eqs. 28-29).

    ``p_l | R ~ Beta(α + S_l, β + M·N - S_l)`` with ``S_l`` the successes of
    model ``l``; all ``T = n_samples`` draws are taken at once as a ``(T, L)``
    array, ranked within each draw (1 = best) and averaged:
    ``s_l = -(1/T) Σ_t r_l^(t)``.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    n_samples : int, default 10000
        Posterior draws ``T``.
    prior_alpha, prior_beta : float, default 1.0
        Beta prior.
    seed : int or None, default 42
        Seed of ``numpy.random.default_rng``.

    Notes
    -----
    Models with equal ``S_l`` have identical posteriors, so their expected
    ranks are equal; their Monte Carlo means are averaged so they tie exactly.

    Examples
    --------
    >>> from scorio_core.rank.bayesian import thompson
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]]])
    >>> thompson(R, n_samples=2000).tolist()
    [1, 2]
    """
    n_samples = check_int("n_samples", n_samples)
    a0 = check_number("prior_alpha", prior_alpha)
    b0 = check_number("prior_beta", prior_beta)
    R = as_binary(R)
    S = R.sum(axis=(1, 2), dtype=np.int64)
    total = R.shape[1] * R.shape[2]
    L = S.size
    if np.all(S == S[0]):  # one exchangeable group: expected ranks are all (L + 1) / 2
        return np.full(L, -(L + 1) / 2.0)
    rng = np.random.default_rng(seed)
    p = rng.beta(a0 + S, b0 + total - S, size=(n_samples, L))
    order = np.argsort(-p, axis=1)  # order[t, r] = model at rank r + 1 in draw t
    rank_sum = np.bincount(order.ravel(), weights=np.tile(np.arange(1.0, L + 1), n_samples))
    score = -rank_sum / n_samples
    return _group_mean(score, S)


# ----------------------------------------------------------------------------- Bayesian BT


def _exchangeable(W: np.ndarray) -> np.ndarray:
    """Group labels: ``i ~ j`` when swapping ``i`` and ``j`` leaves ``W`` unchanged."""
    L = W.shape[0]
    # cheap necessary conditions first, then a full check of the surviving pairs only
    rs, cs = W.sum(1), W.sum(0)
    cand = (W == W.T) & (rs[:, None] == rs[None, :]) & (cs[:, None] == cs[None, :])
    i, j = np.nonzero(np.triu(cand, 1))
    other = np.ones((i.size, L), dtype=bool)
    other[np.arange(i.size), i] = other[np.arange(i.size), j] = False  # swap exempts i, j
    same_rows = ((W[i] == W[j]) | ~other).all(1) & ((W.T[i] == W.T[j]) | ~other).all(1)
    adj = np.zeros((L, L), dtype=bool)
    adj[i[same_rows], j[same_rows]] = True
    return connected_components(adj, directed=False)[1]


def _bt_log_post(
    theta: np.ndarray,
    w: np.ndarray,
    pi: np.ndarray,
    pj: np.ndarray,
    npair: np.ndarray,
    prior_var: float,
) -> np.ndarray:
    """Unnormalised log posterior of a batch ``theta (L, B)`` (one column per draw),
    eqs. (30)-(31) plus the Gaussian prior.

    ``Σ_{i≠j} W_ij log σ(θ_i - θ_j) = w·θ - Σ_{i<j} n_ij log(e^θi + e^θj)`` with
    ``w_i`` the decisive wins of ``i`` and ``n_ij = W_ij + W_ji``. Draws are
    columns so that the pair gathers copy contiguous rows; the reductions use
    einsum rather than BLAS, whose threads cost more than they save at this size.
    """
    out = np.einsum("lb,l->b", theta, w) - 0.5 * np.einsum("lb,lb->b", theta, theta) / prior_var
    step = max(1, _BLOCK_ELEMENTS // max(1, pi.size))
    for s in range(0, theta.shape[1], step):
        th = theta[:, s : s + step]
        top = th.max(axis=0)
        e = np.exp(th - top)  # L exponentials per draw instead of one per pair
        with np.errstate(divide="ignore"):
            lse = np.einsum("p,pb->b", npair, np.log(e[pi] + e[pj]))
        bad = ~np.isfinite(lse)  # both strengths of a pair underflowed: redo those exactly
        if bad.any():
            tb = th[:, bad] - top[bad]
            lse[bad] = np.einsum("p,pb->b", npair, np.logaddexp(tb[pi], tb[pj]))
        out[s : s + step] -= lse + top * npair.sum()
    return out


def _log_proposal(r2: np.ndarray, L: int) -> np.ndarray:
    """Log density of the Gaussian/t mixture at squared whitened radius ``r2``.

    Up to ``-log det`` of the shared scale, which cancels in the MH ratio.
    """
    log_gauss = -0.5 * r2 - 0.5 * L * np.log(2 * np.pi)
    log_t = (
        special.gammaln((_T_DF + L) / 2)
        - special.gammaln(_T_DF / 2)
        - 0.5 * L * np.log(_T_DF * np.pi)
        - 0.5 * (_T_DF + L) * np.log1p(r2 / _T_DF)
    )
    return np.logaddexp(np.log1p(-_T_WEIGHT) + log_gauss, np.log(_T_WEIGHT) + log_t)


@ranker(
    "bayesian",
    "posterior mean log-strength of Bradley-Terry with a Gaussian prior, by Metropolis-Hastings "
    "(002 eqs. 30-31)",
    variants={"bayesian_mcmc": {"n_samples": 5000, "burnin": 1000, "prior_var": 1.0, "seed": 42}},
    stochastic=True,
)
def bayesian_mcmc(
    R,
    *,
    n_samples: int = 5000,
    burnin: int = 1000,
    prior_var: float = 1.0,
    seed: int | None = 42,
) -> np.ndarray:
    """Bayesian Bradley-Terry: posterior mean ``E[θ | W]`` by Metropolis-Hastings (Ranking Reasoning
    LLMs under Test-Time Scaling (2026), App. I.1.3).

    Decisive wins ``W`` (eq. 30; ties ignored), likelihood eq. (31), prior
    ``θ_i ~ N(0, prior_var)``. The chain runs ``burnin + n_samples`` steps
    from the posterior mode and averages the last ``n_samples`` states.

    The proposal is an *independence* proposal built from the Laplace
    approximation ``N(θ̂, H⁻¹)`` at the MAP ``θ̂`` (the BT-MAP fit of
    :mod:`.paired`, analytic Hessian ``H``), mixed with 10% of a Student-t
    (4 d.o.f.) with the same scale. The BT posterior is log-concave and nearly
    Gaussian, so most proposals are accepted and the states are nearly
    independent, unlike a random walk whose samples are strongly correlated in
    ``L`` dimensions. Because the likelihood is at most 1, the posterior has
    Gaussian tails and the t component bounds posterior/proposal, which makes
    the chain uniformly ergodic (Mengersen & Tweedie 1996). All proposals are
    drawn and their log posteriors evaluated in one vectorised pass; only the
    accept/reject recursion, inherently sequential, is a scalar loop.

    The chain average uses a zero-variance control variate (Mira, Solgi &
    Imparato 2013): ``E[∇ log p(θ | W)] = 0`` under the posterior, so
    ``mean(θ_t) + H⁻¹ mean(∇ log p(θ_t | W))`` is a consistent estimate of the
    same mean whose Monte Carlo error comes only from the non-Gaussian part of
    the posterior. ``Σ θ_i`` is not informed by the data and has posterior mean
    exactly 0, so the estimate is centred; exchangeable models (a win matrix
    invariant under swapping them) get their common mean.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    n_samples : int, default 5000
        Retained chain states.
    burnin : int, default 1000
        Discarded initial states.
    prior_var : float, default 1.0
        Gaussian prior variance ``σ²``.
    seed : int or None, default 42
        Seed of ``numpy.random.default_rng``; equal seeds give equal chains.

    Examples
    --------
    >>> from scorio_core.rank.bayesian import bayesian_mcmc
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]]])
    >>> bayesian_mcmc(R, n_samples=2000, burnin=500).tolist()
    [1, 2]
    """
    n_samples = check_int("n_samples", n_samples)
    burnin = check_int("burnin", burnin, minimum=0)
    prior_var = check_number("prior_var", prior_var)
    R = as_binary(R)
    W = trial_pairs(R).wins.astype(float)
    L = W.shape[0]
    if not W.any():  # posterior = prior: every mean is exactly 0
        return np.zeros(L)

    prior = GaussianPrior(0.0, prior_var)
    mode = _optimise(_bt_model(), _Tallies(W, np.zeros_like(W), 0), prior, 500)
    d = mode[:, None] - mode[None, :]
    v = (W + W.T) * special.expit(d) * special.expit(-d)
    H = np.diag(v.sum(1)) - v + np.eye(L) / prior_var
    try:  # H = C Cᵀ, so x = θ̂ + C⁻ᵀ z has covariance H⁻¹
        C = linalg.cholesky(H, lower=True)
    except linalg.LinAlgError:  # a huge prior_var leaves H singular up to rounding
        C = linalg.cholesky(H + 1e-9 * np.trace(H) / L * np.eye(L), lower=True)

    rng = np.random.default_rng(seed)
    steps = burnin + n_samples
    z = rng.standard_normal((steps, L))
    heavy = rng.random(steps) < _T_WEIGHT
    z[heavy] /= np.sqrt(rng.chisquare(_T_DF, heavy.sum()) / _T_DF)[:, None]
    log_u = np.log(rng.random(steps))
    # column 0 is the starting state (the mode), columns 1.. the proposals
    x = mode[:, None] + linalg.solve_triangular(C.T, np.vstack([np.zeros(L), z]).T, lower=False)
    lq = _log_proposal(np.einsum("tl,tl->t", z, z), L)

    pi, pj = np.triu_indices(L, 1)
    npair = (W + W.T)[pi, pj]
    keep = npair > 0
    pi, pj, npair = pi[keep], pj[keep], npair[keep]
    wins = W.sum(1)
    log_w = _bt_log_post(x, wins, pi, pj, npair, prior_var)
    log_w[1:] -= lq
    log_w[0] -= _log_proposal(np.zeros(1), L)[0]

    # Independence Metropolis-Hastings: accept x_t with prob min(1, w_t / w_current),
    # w = posterior / proposal. Sequential by nature; a scalar loop over the steps.
    lw = log_w.tolist()
    cur, cur_w = 0, lw[0]
    state = np.empty(steps, dtype=np.int64)
    for t, lu in enumerate(log_u.tolist(), start=1):
        if lu < lw[t] - cur_w:
            cur, cur_w = t, lw[t]
        state[t - 1] = cur
    counts = np.bincount(state[burnin:], minlength=steps + 1) / n_samples
    used = np.flatnonzero(counts)
    xs, c = x[:, used], counts[used]
    mean = np.einsum("lu,u->l", xs, c)
    # Zero-variance control variate (Mira, Solgi & Imparato 2013): E[∇log p(θ|W)] = 0, so
    # averaging θ + H⁻¹ ∇log p(θ|W) estimates the same mean; it is constant (= the mean)
    # for a Gaussian posterior, so only the non-Gaussian remainder carries Monte Carlo noise.
    p_win = np.zeros(pi.size)  # posterior average of Pr(i ≻ j), in blocks of draws so the
    step = max(1, _BLOCK_ELEMENTS // max(1, pi.size))  # (pairs, draws) array stays bounded
    for s in range(0, xs.shape[1], step):
        xb = xs[:, s : s + step]
        with np.errstate(over="ignore"):
            p_win += np.einsum("pu,u->p", 1.0 / (1.0 + np.exp(xb[pj] - xb[pi])), c[s : s + step])
    grad = wins - mean / prior_var
    grad -= np.bincount(pi, weights=npair * p_win, minlength=L)
    grad -= np.bincount(pj, weights=npair * (1.0 - p_win), minlength=L)
    mean = mean + linalg.cho_solve((C, True), grad)
    # The likelihood sees only differences, so Σθ keeps its N(0, L σ²) prior: its
    # posterior mean is exactly 0 and only the contrasts need Monte Carlo.
    mean -= mean.mean()
    return _group_mean(mean, _exchangeable(W))
