"""Decisions under uncertainty: pairwise z, ranking confidence, CI-aware ranks
and trials needed (Don't Pass@k (2026), §2.5, §2.7.1, App. D; SPEC §4).

All functions take per-model vectors ``mu`` and ``sigma`` of shape ``(L,)``
(from :func:`scorio_core.eval.bayes` on a batch of models) and are vectorized.

Example
-------
>>> import numpy as np
>>> from scorio_core.decision import ci_aware_ranks
>>> ci_aware_ranks(np.array([0.70, 0.69, 0.50]), np.array([0.01, 0.01, 0.01])).tolist()
[1, 1, 2]
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import special

from ._ties import rank_scores
from ._validation import ValidationError, as_outcome_array, check_confidence, no_text
from .eval import bayes_from_counts, prepare_counts

__all__ = [
    "z_threshold",
    "z_matrix",
    "confidence_matrix",
    "prob_better_matrix",
    "pair_probabilities",
    "ci_aware_ranks",
    "chain_ranks",
    "decide",
    "interval_ranks",
    "chained_conflicts",
    "overlap_ranks",
    "point_ranks",
    "TrialsNeeded",
    "trials_needed",
    "trials_needed_from",
    "expected_z_trials",
    "prob_correct_order",
]


def _vecs(mu, sigma, batch: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``mu, sigma`` as float vectors ``(L,)``; with ``batch``, ``(..., L)``."""
    mu, sigma = np.asarray(mu, dtype=float), np.asarray(sigma, dtype=float)
    if not (mu.ndim == 1 or (batch and mu.ndim > 1)) or mu.shape != sigma.shape:
        raise ValidationError(
            f"mu and sigma must be {'arrays (..., L)' if batch else '1-D vectors'} of equal "
            f"shape; got shapes {mu.shape} and {sigma.shape}"
        )
    if not (np.all(np.isfinite(mu)) and np.all(np.isfinite(sigma))) or np.any(sigma < 0):
        raise ValidationError("mu and sigma must be finite and sigma non-negative")
    return mu, sigma


def _z(gap: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """``gap / scale``; a gap with zero uncertainty is ``inf``, no gap is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        z = gap / np.where(scale > 0, scale, 1.0)
    return np.where(scale > 0, z, np.where(gap > 0, np.inf, 0.0))


def z_threshold(confidence: float = 0.95) -> float:
    """One-sided z for a ranking confidence: 1.645 for 0.95 (Don't Pass@k (2026), §2.5: ρ =
    Φ(z))."""
    return float(special.ndtri(check_confidence(confidence)))


def z_matrix(mu, sigma) -> np.ndarray:
    """``z[i, j] = |mu_i - mu_j| / sqrt(sigma_i² + sigma_j²)`` (0 on the diagonal).

    Two models with zero uncertainty and different means get ``inf``.
    """
    mu, sigma = _vecs(mu, sigma)
    diff = np.abs(mu[:, None] - mu[None, :])
    scale = np.sqrt(sigma[:, None] ** 2 + sigma[None, :] ** 2)
    z = _z(diff, scale)
    np.fill_diagonal(z, 0.0)
    return z


def confidence_matrix(mu, sigma) -> np.ndarray:
    """Ranking confidence ``rho = ½(1 + erf(z/√2)) = Φ(z)``: the probability that
    the order given by the means is the true order (symmetric, 0.5 on the diagonal)."""
    return special.ndtr(z_matrix(mu, sigma))


def prob_better_matrix(mu, sigma) -> np.ndarray:
    """``P[i, j] = P(π̄_i > π̄_j)`` under the normal posteriors: ``Φ((mu_i - mu_j)/s)``.

    Directional form of :func:`confidence_matrix`; ``P + P.T = 1``.
    """
    mu, sigma = _vecs(mu, sigma)
    z = z_matrix(mu, sigma) * np.sign(mu[:, None] - mu[None, :])
    return special.ndtr(z)


def point_ranks(mu) -> np.ndarray:
    """Competition ranks by ``mu`` (1 = best; ties share the best rank: 1, 2, 2, 4). Values
    that differ only by float noise tie (the rankers' one rule, ``scorio_core._ties``): three models
    with the same counts get the same Bayes@N up to the order of a sum.

    >>> from scorio_core.decision import point_ranks
    >>> point_ranks([0.9, 0.5444444444444445, 0.5444444444444444, 0.1]).tolist()
    [1, 2, 2, 4]
    """
    return rank_scores(np.asarray(mu, dtype=float), "competition")


def ci_aware_ranks(mu, sigma, confidence: float = 0.95) -> np.ndarray:
    """CI-aware ranks by the adjacent-pair rule of Don't Pass@k (2026), §2.7.1 (Tables 1-2).

    Sort by ``mu`` descending; walk adjacent pairs; a pair whose z-score is below
    the one-sided threshold (1.645 at 0.95) shares the rank, otherwise the rank
    increases by one. Ranks are dense (1, 2, 2, 3, ...).
    """
    mu, sigma = _vecs(mu, sigma)
    thr = z_threshold(confidence)
    order = np.argsort(-mu, kind="stable")
    m, s = mu[order], sigma[order]
    diff = m[:-1] - m[1:]
    scale = np.sqrt(s[:-1] ** 2 + s[1:] ** 2)
    z = _z(diff, scale)
    sorted_ranks = np.concatenate([[1], 1 + np.cumsum(z >= thr)])
    ranks = np.empty_like(sorted_ranks)
    ranks[order] = sorted_ranks
    return ranks


def chain_ranks(mu, diff_sd, confidence: float = 0.95) -> np.ndarray:
    """The adjacent-pair rule of Don't Pass@k (2026), §2.7.1 with any pairwise s.d. of the
    difference.

    As :func:`ci_aware_ranks` but the z of an adjacent pair is
    ``(mu_i − mu_j) / diff_sd[i, j]`` -- e.g. the paired population-scope s.d.
    With ``diff_sd = sqrt(σ_i² + σ_j²)`` it is exactly :func:`ci_aware_ranks`.

    Example
    -------
    >>> from scorio_core.decision import chain_ranks, ci_aware_ranks
    >>> import numpy as np
    >>> mu, s = np.array([0.7, 0.69, 0.5]), np.array([0.01, 0.01, 0.01])
    >>> sd = np.sqrt(s[:, None] ** 2 + s[None, :] ** 2)
    >>> chain_ranks(mu, sd).tolist() == ci_aware_ranks(mu, s).tolist()
    True
    """
    mu = np.asarray(mu, dtype=float)
    sd = np.asarray(diff_sd, dtype=float)
    if sd.shape != (mu.size, mu.size):
        raise ValidationError(f"diff_sd must have shape ({mu.size}, {mu.size}); got {sd.shape}")
    order = np.argsort(-mu, kind="stable")
    z = _z(mu[order][:-1] - mu[order][1:], sd[order[:-1], order[1:]])
    sorted_ranks = np.concatenate([[1], 1 + np.cumsum(z >= z_threshold(confidence))])
    ranks = np.empty_like(sorted_ranks)
    ranks[order] = sorted_ranks
    return ranks


def decide(prob_better, confidence: float = 0.95, adjust: str = "holm") -> np.ndarray:
    """Decided pairs from ``P(i > j)`` alone: two-sided error ``p = 2 min(P, 1 − P)``.

    ``D[i, j]`` is True when model ``i`` beats ``j``. A pair is decided when its
    two-sided error passes ``adjust`` (``"none"``, ``"holm"`` or ``"bh"``;
    :func:`scorio_core.inference.decide_pvalues`), so an exact tie is decided at most
    ``1 − confidence`` of the time. The leaderboard's simultaneous procedure needs the
    joint law of the pairs and lives in :func:`scorio_core.inference.infer`.

    Example
    -------
    >>> from scorio_core.decision import decide
    >>> import numpy as np
    >>> P = np.array([[.5, .985, .9999], [.015, .5, .97], [.0001, .03, .5]])
    >>> decide(P, adjust="none").astype(int).tolist()
    [[0, 1, 1], [0, 0, 0], [0, 0, 0]]
    >>> decide(P, adjust="holm").astype(int).tolist()
    [[0, 0, 1], [0, 0, 0], [0, 0, 0]]
    """
    from .inference import decide_pvalues

    P = np.asarray(prob_better, dtype=float)
    if P.ndim != 2 or P.shape[0] != P.shape[1]:
        raise ValidationError(f"prob_better must be a square matrix; got shape {P.shape}")
    if adjust == "simultaneous":
        raise ValidationError(
            "adjust='simultaneous' needs the joint law of the pairs: use "
            "scorio_core.inference.infer (or leaderboard) instead of decide"
        )
    return decide_pvalues(np.minimum(2 * np.minimum(P, 1 - P), 1.0), P, confidence, adjust)


def interval_ranks(decided) -> tuple[np.ndarray, np.ndarray]:
    """Rank intervals from decided pairs: ``rank_lo = 1 + #{j : j ≻ i}``,
    ``rank_hi = L − #{j : i ≻ j}`` (SPEC §4).

    A model's rank can be no better than one plus the number of models that
    decidedly beat it, and no worse than ``L`` minus the number it decidedly
    beats. Unlike the adjacent chain, small gaps never add up to a tie between
    decided models.

    Example
    -------
    >>> from scorio_core.decision import interval_ranks
    >>> import numpy as np
    >>> D = np.array([[0, 1, 1], [0, 0, 0], [0, 0, 0]], dtype=bool)
    >>> [r.tolist() for r in interval_ranks(D)]
    [[1, 2, 2], [1, 3, 3]]
    """
    D = np.asarray(decided, dtype=bool)
    L = D.shape[0]
    return 1 + D.sum(0), L - D.sum(1)


def chained_conflicts(chain, decided, models) -> list[tuple[str, str]]:
    """Pairs the chain rule puts in one rank although one decidedly beats the other.

    Returns ``(winner, loser)`` name pairs, e.g. to warn on a page.

    Example
    -------
    >>> from scorio_core.decision import chained_conflicts
    >>> import numpy as np
    >>> D = np.array([[0, 0, 1], [0, 0, 0], [0, 0, 0]], dtype=bool)
    >>> chained_conflicts([1, 1, 1], D, ["a", "b", "c"])
    [('a', 'c')]
    """
    chain = np.asarray(chain)
    D = np.asarray(decided, dtype=bool)
    i, j = np.nonzero(D & (chain[:, None] == chain[None, :]))
    return [(str(models[a]), str(models[b])) for a, b in zip(i, j, strict=True)]


def overlap_ranks(lo, hi) -> np.ndarray:
    """"Arena" rule: rank = 1 + number of models whose interval lies entirely above.

    Model ``j`` is entirely above ``i`` when ``lo_j > hi_i``. Used by public
    arena leaderboards; more conservative than the adjacent rule.
    """
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    return (lo[None, :] > hi[:, None]).sum(1) + 1


class TrialsNeeded(NamedTuple):
    """For each adjacent pair in ``mu`` order: who, the gap, z now, trials needed."""

    upper: np.ndarray  # index of the better model of each adjacent pair
    lower: np.ndarray
    gap: np.ndarray  # mu_upper - mu_lower
    z_now: np.ndarray
    n_now: int
    n_needed: np.ndarray  # float; inf when the gap is zero


def trials_needed_from(
    mu, sigma, N: int, T: int, confidence: float = 0.95, *, z_star: float | None = None
) -> TrialsNeeded:
    """:func:`trials_needed` from Bayes@N results already computed (``T = 1 + C + D + N``).

    Holding each question's posterior-mean category probabilities fixed, the
    variance scales as ``1 / (T + 1)`` (Don't Pass@k (2026), App. A), so after ``N'`` trials
    ``z(N') = z_now · sqrt((T' + 1) / (T + 1))`` with ``T' = T + N' - N``
    (:func:`expected_z_trials`; ``z_star`` overrides the threshold of ``confidence``).

    ``mu, sigma`` may carry leading axes of independent datasets, ``(..., L)``; the
    fields are then ``(..., L - 1)``, each dataset's adjacent pairs in its own ``mu``
    order (the simulated order study predicts from thousands of datasets at once).

    Example
    -------
    >>> from scorio_core.decision import trials_needed_from
    >>> import numpy as np
    >>> mu, sigma = np.array([[0.60, 0.62], [0.5, 0.5]]), np.full((2, 2), 0.01)
    >>> trials_needed_from(mu, sigma, 8, 10).n_needed.tolist()
    [[12.0], [inf]]
    """
    mu, sigma = _vecs(mu, sigma, batch=True)
    order = np.argsort(-mu, axis=-1, kind="stable")
    up, low = order[..., :-1], order[..., 1:]
    mu_up, mu_low = np.take_along_axis(mu, up, -1), np.take_along_axis(mu, low, -1)
    s_up, s_low = np.take_along_axis(sigma, up, -1), np.take_along_axis(sigma, low, -1)
    gap = mu_up - mu_low
    z_now, n_needed = expected_z_trials(gap, np.sqrt(s_up**2 + s_low**2), N, T, confidence,
                                        z_star)
    return TrialsNeeded(up, low, gap, z_now, int(N), n_needed)


def expected_z_trials(gap, scale, N: int, T, confidence: float = 0.95, z_star=None):
    """The papers' expected-z rule (Don't Pass@k (2026), App. D) for pairs with Bayes@N ``gap`` and
    ``scale = sqrt(σ_i² + σ_j²)``: ``(z_now, n_needed)``, vectorized over pairs (and ``T``).
    ``z_star`` overrides the threshold of ``confidence`` (the simulation studies sweep it).
    The one definition of the rule: :func:`trials_needed_from`, the leaderboard's
    ``n_needed`` and the order study's prediction all call it.

    ``z`` grows like ``sqrt(T + 1)``, so it reaches ``z*`` at
    ``T' + 1 = (T + 1)(z*/z_now)²``; ``n_needed = T' − T + N`` (at least 1), ``inf`` for a
    gap at rounding level. A 50% point: the pair is decided about half the time there.
    """
    gap, scale = np.asarray(gap, dtype=float), np.asarray(scale, dtype=float)
    z_now = _z(gap, scale)
    zs = z_threshold(confidence) if z_star is None else float(z_star)
    with np.errstate(divide="ignore"):
        t_plus_1 = (np.asarray(T) + 1) * (zs / z_now) ** 2
    # gaps at rounding level (identical counts summed in another order) are no gap
    n_needed = np.where(gap > 1e-12, np.ceil(t_plus_1 - (np.asarray(T) + 1) + N - 1e-9), np.inf)
    return z_now, np.maximum(n_needed, 1.0)


def trials_needed(R, w=None, R0=None, confidence: float = 0.95) -> TrialsNeeded:
    """Trials per question at which each adjacent pair's expected z reaches the threshold.

    Don't Pass@k (2026), App. D: keeping each question's posterior-mean category probabilities
    ``p̂ = ν/T`` fixed, the Bayes@N variance after ``N'`` trials is
    ``σ²(N') = S / (M² (T' + 1))`` with ``T' = 1 + C + D + N'`` and
    ``S = Σ_α Var_p̂(w)``, so ``z`` grows like ``sqrt(T' + 1)`` and reaches the
    threshold ``z*`` at ``T' + 1 = (T + 1) (z* / z_now)²``. At ``N' = N`` this
    reproduces the current z exactly.

    Parameters
    ----------
    R : array_like, shape (L, M, N)
    w, R0 : as in :func:`scorio_core.eval.bayes`
    confidence : float
        Ranking confidence to reach (one-sided; 0.95 -> z* = 1.645).
    """
    n, n0, w = prepare_counts(as_outcome_array(R, min_ndim=3, max_ndim=3), w, R0)
    post = bayes_from_counts(n, w, n0)
    return trials_needed_from(post.mu, post.sigma, np.shape(R)[-1], post.T, confidence)


def pair_probabilities(p_upper, p_lower) -> tuple[np.ndarray, np.ndarray]:
    """Two models' per-question category probabilities as ``(M, C+1)`` arrays; binary
    success probabilities ``(M,)`` become ``[1 - p, p]``. A string is refused as one, not
    read as numbers: a table of probabilities has no typed form."""
    pu, pl = (np.asarray(no_text(p, what, "per-question probabilities (M,) or (M, C+1), a "
                                          "list or an array"), dtype=float)
              for p, what in ((p_upper, "p_upper"), (p_lower, "p_lower")))
    if pu.ndim == 1:
        pu, pl = np.stack([1 - pu, pu], -1), np.stack([1 - pl, pl], -1)
    if pu.shape != pl.shape or pu.ndim != 2:
        raise ValidationError(
            f"p_upper and p_lower must have equal shapes (M,) or (M, C+1); got {pu.shape}, "
            f"{pl.shape}"
        )
    return pu, pl


def prob_correct_order(
    p_upper, p_lower, n_values, w=None, n_sims: int = 2000, rng=None
) -> np.ndarray:
    """Simulated probability that Bayes@N (uniform prior) orders two models correctly.

    ``p_upper``, ``p_lower``: per-question category probabilities of the truly
    better and worse model, shape ``(M,)`` (binary success probabilities) or
    ``(M, C+1)``. For each ``N`` in ``n_values``, draws ``n_sims`` outcome
    tables and counts how often ``mu_upper > mu_lower`` (ties count one half).
    Under the uniform prior the Bayes@N order equals the order of weighted
    sums of counts, which is what is simulated.
    """
    rng = np.random.default_rng(rng)
    pu, pl = pair_probabilities(p_upper, p_lower)
    w = np.arange(pu.shape[1], dtype=float) / (pu.shape[1] - 1) if w is None else np.asarray(w)
    out = []
    for n in np.atleast_1d(n_values):  # a handful of N values; the sims are vectorized
        cu = rng.multinomial(int(n), pu, size=(n_sims, pu.shape[0]))
        cl = rng.multinomial(int(n), pl, size=(n_sims, pl.shape[0]))
        out.append(_correct_share((cu @ w).sum(-1), (cl @ w).sum(-1)))
    return np.asarray(out)


def _correct_share(su: np.ndarray, sl: np.ndarray) -> float:
    """Share of simulated datasets that Bayes@N (uniform prior) orders correctly, from the
    weighted count sums ``su`` of the truly better model and ``sl`` of the worse (the
    uniform prior orders two models as these sums do); a tie counts one half."""
    return float(np.mean((su > sl) + 0.5 * (su == sl)))
