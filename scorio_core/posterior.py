"""One joint posterior of every model's score, in two scopes (SPEC §4; 000 §2, App. A).

Scope ``"questions"`` is the papers' estimand: the weighted score averaged over
the ``M`` questions that were asked. Each model–question pair has the Bayes@N
Dirichlet posterior ``θ ~ Dir(ν)`` with ``ν = n + n0`` (``n0 = 1 +`` prior
counts from ``R0``), so the per-question score ``θ·w`` has mean
``m = Σ_k ν_k w_k / T`` and variance ``v = (Σ_k ν_k w_k² / T − m²) / (T + 1)``;
models are independent given the data and ``mean_α m``, ``sqrt(Σ_α v) / M``
are exactly Bayes@N's ``mu`` and ``sigma``.

Scope ``"population"`` is the mean over the population the questions were
drawn from. A Bayesian bootstrap over questions adds question sampling: in a
draw, question ``α`` gets weight ``g_α`` with ``g ~ Dir(1, …, 1)`` and the
score is ``Σ_α g_α θ_α``. The *same* ``g`` is used for every model in a draw,
so model comparisons are paired across questions (a hard question costs every
model in the same draw).

Closed forms (exact moments of these posteriors):

* ``mu`` is the same in both scopes; ``Var_questions(s_i) = Σ_α v_iα / M²``.
* ``Var_population(s_i − s_j) = [Σ_α (d_α − d̄)² + 2 Σ_α (v_iα + v_jα)] / (M (M + 1))``
  with ``d = m_i − m_j`` (``E g_α² = 2 / (M (M+1))``), never smaller than the
  questions-scope variance ``Σ_α (v_iα + v_jα) / M²``.

The sampler (:func:`sample_scores`) draws the question weights ``g`` exactly and
the within-question (trial) uncertainty with the normal approximation Bayes@N's
own interval uses, so its moments match the closed forms above exactly. Draws
are made in fixed chunks of :data:`CHUNK`, each seeded by ``(seed, chunk)``:
the first ``B`` draws do not depend on how many are requested.

Example
-------
>>> import numpy as np
>>> from scorio_core.posterior import joint_posterior
>>> R = np.random.default_rng(0).integers(0, 2, size=(3, 12, 4))
>>> post = joint_posterior(R, scope="population", draws=2000, seed=1)
>>> post.draws.shape, bool(np.allclose(post.prob_better + post.prob_better.T, 1))
((2000, 3), True)
>>> bool(post.p_best.sum().round(6) == 1)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np
from scipy import special

from ._validation import ValidationError, as_outcome_array
from .eval import prepare_counts

__all__ = [
    "CHUNK",
    "HERMITE_NODES",
    "SCOPES",
    "QuestionMoments",
    "JointPosterior",
    "question_moments",
    "scope_sigma",
    "diff_variance",
    "sample_scores",
    "posterior_from_moments",
    "joint_posterior",
]

#: Draws per independently seeded chunk; results never depend on a batch size.
CHUNK = 2048
#: Gauss–Hermite nodes for ``p_best`` in the questions scope.
HERMITE_NODES = 96
HERMITE = np.polynomial.hermite_e.hermegauss(HERMITE_NODES)
SCOPES = ("questions", "population")
Scope = Literal["questions", "population"]


def _check_scope(scope: str) -> str:
    if scope not in SCOPES:
        raise ValidationError(f"scope must be one of {SCOPES}; got {scope!r}")
    return scope


@dataclass(frozen=True)
class QuestionMoments:
    """Per model–question posterior moments of the weighted score.

    Attributes
    ----------
    m, v : numpy.ndarray, shape (L, M)
        Posterior mean and variance of ``θ_α · w`` (Dirichlet ``Dir(ν)``).
    T : int
        Dirichlet total ``1 + C + D + N`` (the same for every question).
    w0 : float
        Weight of category 0 (scores are ``w0 + Σ θ_k (w_k − w0)``).
    """

    m: np.ndarray
    v: np.ndarray
    T: int
    w0: float

    @property
    def mu(self) -> np.ndarray:
        """Bayes@N posterior mean per model (both scopes), shape ``(L,)``."""
        return self.m.mean(-1)


def question_moments(n: np.ndarray, w: np.ndarray, n0: np.ndarray | None = None) -> QuestionMoments:
    """Moments of every per-question Dirichlet posterior, from count tables.

    Parameters
    ----------
    n : numpy.ndarray, shape (L, M, C+1)
        Category counts (:func:`scorio_core.eval.prepare_counts`).
    w : numpy.ndarray, shape (C+1,)
    n0 : numpy.ndarray, optional
        Prior counts from ``R0`` (broadcastable to ``n``), without the uniform +1.

    Returns
    -------
    QuestionMoments

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.eval import prepare_counts
    >>> R = [[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]]
    >>> n, n0, w = prepare_counts(np.array([R]), [0, .5, 1])
    >>> q = question_moments(n, w, n0)
    >>> round(float(q.mu[0]), 6), round(float(np.sqrt(q.v.sum()) / 2), 6)
    (0.5625, 0.091998)
    """
    dw = w - w[0]
    nu = n + 1 if n0 is None else n + n0 + 1
    T = int(nu[(0,) * (nu.ndim - 1)].sum())
    e1 = (nu @ dw) / T
    e2 = (nu @ (dw * dw)) / T
    m = w[0] + e1
    v = np.maximum(e2 - e1 * e1, 0.0) / (T + 1)
    return QuestionMoments(np.atleast_2d(m), np.atleast_2d(v), T, float(w[0]))


def scope_sigma(q: QuestionMoments, scope: Scope = "questions") -> np.ndarray:
    """Posterior s.d. of each model's score in ``scope`` (closed form), shape ``(L,)``.

    ``questions``: Bayes@N's sigma, ``sqrt(Σ_α v_α) / M``. ``population``:
    ``sqrt([Σ_α (m_α − m̄)² + 2 Σ_α v_α] / (M (M + 1)))``.
    """
    M = q.m.shape[-1]
    if _check_scope(scope) == "questions":
        return np.sqrt(q.v.sum(-1)) / M
    dev = q.m - q.m.mean(-1, keepdims=True)
    return np.sqrt(((dev * dev).sum(-1) + 2 * q.v.sum(-1)) / (M * (M + 1)))


def diff_variance(q: QuestionMoments, scope: Scope = "questions") -> np.ndarray:
    """Closed-form ``Var(s_i − s_j)`` for every pair, shape ``(L, L)`` (0 on the diagonal).

    ``questions``: ``σ_i² + σ_j²`` (models independent given the data).
    ``population``: ``[Σ_α (d_α − d̄)² + 2 Σ_α (v_iα + v_jα)] / (M (M + 1))`` with
    ``d = m_i − m_j`` -- the paired variance: question difficulty shared by both
    models cancels in ``d``.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.eval import prepare_counts
    >>> R = np.random.default_rng(3).integers(0, 2, size=(2, 20, 5))
    >>> n, n0, w = prepare_counts(R)
    >>> q = question_moments(n, w, n0)
    >>> V = diff_variance(q, "population")
    >>> bool(V[0, 1] >= diff_variance(q, "questions")[0, 1])
    True
    """
    M = q.m.shape[-1]
    vs = q.v.sum(-1)
    if _check_scope(scope) == "questions":
        out = (vs[:, None] + vs[None, :]) / (M * M)
    else:
        dev = q.m - q.m.mean(-1, keepdims=True)  # centred per model; d - d̄ = dev_i - dev_j
        ss = (dev * dev).sum(-1)
        cross = dev @ dev.T
        out = (ss[:, None] + ss[None, :] - 2 * cross + 2 * (vs[:, None] + vs[None, :])) / (
            M * (M + 1)
        )
    out = np.maximum(out, 0.0)
    np.fill_diagonal(out, 0.0)
    return out


def _chunk_draws(q: QuestionMoments, scope: str, size: int, rng: np.random.Generator):
    L, M = q.m.shape
    eps = rng.standard_normal((size, L))
    if scope == "questions":
        return q.m.mean(-1) + eps * (np.sqrt(q.v.sum(-1)) / M)
    g = rng.standard_exponential((size, M))
    g /= g.sum(-1, keepdims=True)  # Dir(1, ..., 1): the Bayesian bootstrap over questions
    return g @ q.m.T + eps * np.sqrt((g * g) @ q.v.T)


def sample_scores(
    q: QuestionMoments, scope: Scope = "questions", draws: int = 10_000, seed: int = 0
) -> np.ndarray:
    """Joint posterior draws of every model's score, shape ``(draws, L)``.

    Chunk ``k`` (``CHUNK`` draws) uses ``np.random.default_rng([seed, k])``, so the
    first ``B`` rows are identical whatever ``draws ≥ B`` is.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.eval import prepare_counts
    >>> n, n0, w = prepare_counts(np.ones((2, 5, 3), dtype=int))
    >>> q = question_moments(n, w, n0)
    >>> a = sample_scores(q, "population", 3000, seed=7)
    >>> bool(np.array_equal(a[:100], sample_scores(q, "population", 100, seed=7)))
    True
    """
    _check_scope(scope)
    draws = int(draws)
    if draws < 1 or draws > 10_000_000:
        raise ValidationError(f"draws must be between 1 and 10,000,000; got {draws}")
    out = np.empty((draws, q.m.shape[0]))
    for k, start in enumerate(range(0, draws, CHUNK)):
        size = min(CHUNK, draws - start)
        rng = np.random.default_rng([int(seed), k])
        out[start : start + size] = _chunk_draws(q, scope, CHUNK, rng)[:size]
    return out


@dataclass(frozen=True)
class JointPosterior:
    """Joint posterior of the models' scores in one scope (:func:`joint_posterior`).

    Attributes
    ----------
    scope : str
    mu, sigma : numpy.ndarray, shape (L,)
        Closed-form posterior mean and s.d. in this scope.
    diff_sd : numpy.ndarray, shape (L, L)
        Closed-form s.d. of ``s_i − s_j``.
    prob_better : numpy.ndarray, shape (L, L)
        ``P(s_i > s_j)``; closed form ``Φ((mu_i − mu_j) / diff_sd)`` in the
        questions scope, the fraction of joint draws in the population scope.
    p_best : numpy.ndarray, shape (L,)
        Posterior probability of being first: a 1-D integral (Gauss–Hermite,
        :data:`HERMITE_NODES` nodes) of independent normals in the questions
        scope, the share of joint draws in the population scope.
    moments : QuestionMoments
    n_draws, seed : int
        Size and seed of :attr:`draws` (drawn on first use in the questions scope).
    """

    scope: str
    mu: np.ndarray
    sigma: np.ndarray
    diff_sd: np.ndarray
    prob_better: np.ndarray
    p_best: np.ndarray
    moments: QuestionMoments
    n_draws: int = 10_000
    seed: int = 0

    @cached_property
    def draws(self) -> np.ndarray:
        """Joint posterior draws ``(n_draws, L)`` (:func:`sample_scores`)."""
        return sample_scores(self.moments, self.scope, self.n_draws, self.seed)

    @cached_property
    def rank_dist(self) -> np.ndarray:
        """``rank_dist[i, r] = P(model i has rank r + 1)`` over the joint draws, shape (L, L)."""
        return _rank_distribution(self.draws)

    @property
    def expected_rank(self) -> np.ndarray:
        """Posterior mean rank per model."""
        return self.rank_dist @ np.arange(1, self.rank_dist.shape[1] + 1)


def _rank_distribution(S: np.ndarray) -> np.ndarray:
    B, L = S.shape
    order = np.argsort(-S, axis=1, kind="stable")  # order[b, r] = model at rank r + 1
    # counts[i, r] = #draws where model i is at rank r: one bincount over flattened (i, r)
    flat = (order * L + np.arange(L)[None, :]).ravel()
    return np.bincount(flat, minlength=L * L).reshape(L, L) / B


def _p_best_independent(mu: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """``P(model i is first)`` for independent normals: ``∫ φ_i(x) Π_{j≠i} Φ((x − μ_j)/σ_j) dx``.

    Gauss–Hermite quadrature in ``x = μ_i + σ_i t``; a model with ``σ = 0``
    is a point mass (its Φ is a step).
    """
    t, wts = HERMITE
    x = mu[:, None] + sigma[:, None] * t[None, :]  # (L, K) nodes per model i
    dx = x[:, :, None] - mu[None, None, :]  # (i, K, j)
    with np.errstate(divide="ignore", invalid="ignore"):
        zz = np.where(sigma[None, None, :] > 0, dx / sigma[None, None, :], np.sign(dx) * np.inf)
    cdf = special.ndtr(np.nan_to_num(zz, nan=0.0))
    idx = np.arange(mu.size)
    cdf[idx, :, idx] = 1.0  # leave out j = i
    p = (np.prod(cdf, axis=-1) * wts[None, :]).sum(-1)
    total = p.sum()
    return p / total if total > 0 else np.full(mu.size, 1.0 / mu.size)


def posterior_from_moments(
    q: QuestionMoments, scope: Scope = "questions", draws: int = 10_000, seed: int = 0
) -> JointPosterior:
    """:func:`joint_posterior` from :class:`QuestionMoments` already computed."""
    _check_scope(scope)
    mu = q.mu
    var = diff_variance(q, scope)
    sd = np.sqrt(var)
    L = len(mu)
    sigma = scope_sigma(q, scope)
    post = JointPosterior(scope, mu, sigma, sd, np.empty((L, L)), np.empty(L), q, int(draws),
                          int(seed))
    if scope == "questions":  # independent normals: closed forms, no draws needed
        gap = mu[:, None] - mu[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.where(sd > 0, gap / np.where(sd > 0, sd, 1.0), np.sign(gap) * np.inf)
        post.prob_better[:] = special.ndtr(np.nan_to_num(z, nan=0.0))
        post.p_best[:] = _p_best_independent(mu, sigma)
    else:
        S = post.draws
        # fraction of draws with s_i > s_j; ties (zero-variance pairs) count one half
        for i in range(L):  # L rows of a (B, L) comparison: memory stays O(B L)
            post.prob_better[i] = np.mean(S[:, [i]] > S, 0) + 0.5 * np.mean(S[:, [i]] == S, 0)
        post.p_best[:] = np.bincount(np.argmax(S, axis=1), minlength=L) / S.shape[0]
    np.fill_diagonal(post.prob_better, 0.5)
    return post


def joint_posterior(
    R,
    w=None,
    R0=None,
    *,
    scope: Scope = "questions",
    draws: int = 10_000,
    seed: int = 0,
) -> JointPosterior:
    """Joint posterior of every model's weighted score in ``scope``.

    Parameters
    ----------
    R : array_like, shape (L, M, N)
        Outcome tensor, categories ``0..C``.
    w : array_like, optional
        Category weights (default ``[0, 1]``/evenly spaced as in Bayes@N).
    R0 : array_like, optional
        Prior outcomes ``(L, M, D)`` or ``(M, D)``.
    scope : {"questions", "population"}
    draws : int
        Joint draws for the rank distribution, ``p_best`` and (population) ``P(i > j)``.
    seed : int

    Returns
    -------
    JointPosterior

    Example
    -------
    >>> import numpy as np
    >>> R = np.zeros((2, 10, 4), dtype=int); R[0, :8] = 1
    >>> post = joint_posterior(R, draws=1000)
    >>> float(post.prob_better[0, 1]) > 0.99, round(float(post.p_best[0]), 2)
    (True, 1.0)
    """
    R = as_outcome_array(R, min_ndim=3, max_ndim=3)
    n, n0, wv = prepare_counts(R, w, R0)
    return posterior_from_moments(question_moments(n, wv, n0), scope, draws, seed)
