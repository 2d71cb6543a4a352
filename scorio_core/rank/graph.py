"""Graph and game rankers: PageRank, spectral, Rank Centrality, α-Rank, Nash (Ranking Reasoning LLMs
under Test-Time Scaling (2026), App. I.1.9).

Every method reads one matrix, built once per call from the shared trial-level
tallies of :func:`~scorio_core.rank._stats.trial_pairs` (wins ``W`` and ties
``T`` over all ``M·N`` question-trial matches): the tied-split win probability
(Ranking Reasoning LLMs under Test-Time Scaling (2026), eq. 57)

    ``P̂[i, j] = (W_ij + T_ij / 2) / (W_ij + W_ji + T_ij)``,  ``P̂[i, i] = 1/2``.

In the fully observed binary setting ``W_ij - W_ji = c_i - c_j`` (``c`` = total
correct trials), so ``P̂[i, j] = 1/2 + (a_i - a_j)/2`` with ``a`` the mean
accuracy: every tied-split method here is a function of the accuracy vector,
and models of equal accuracy get bit-identical rows of ``P̂``.

Numerical choices (all exact and direct; nothing iterates):

* stationary distributions (Rank Centrality, α-Rank) by the GTH algorithm
  (Grassmann-Taksar-Heyman state reduction): Gaussian elimination without
  subtractions, so even tiny probabilities (α-Rank masses of ``e^-25``) keep
  full relative accuracy. Reducible chains (disconnected or absorbing
  comparison graphs) get the limit of the chain started from the uniform
  distribution: each closed class's stationary law weighted by the mass that
  reaches it (one linear solve for the transient states);
* PageRank by one linear solve of ``(I - dQ) r = (1 - d) e``;
* the spectral vector by a LAPACK eigendecomposition;
* the Nash equilibrium by a pure saddle-point check (exact, and always
  decisive in the binary setting), else one HiGHS linear program.

``max_iter``/``tol``/``n_iter``/``temperature`` are accepted (and validated) for
the Ranking Reasoning LLMs under Test-Time Scaling (2026), App. I.2 signatures; the direct solvers
do not need them.

Models that are interchangeable in the matrix a method reads (swapping them
leaves it unchanged) must tie; their scores are averaged so that solver
round-off can never split them (:func:`_tie_average`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import optimize

from .._validation import ValidationError, as_numbers, check_choice, check_int, check_number
from ._stats import TrialPairs, as_binary, trial_pairs
from .registry import ranker

__all__ = ["pagerank", "spectral", "rank_centrality", "alpharank", "nash"]


# --------------------------------------------------------------------------- validation
def _check_iter(max_iter, tol) -> None:
    check_int("max_iter", max_iter)
    check_number("tol", tol)


# --------------------------------------------------------------------------- tallies
def _win_probability(
    tp: TrialPairs, tie_handling: str = "half", smoothing: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """``(P̂, edges)``: win probabilities on the comparison graph's edges (0 elsewhere).

    ``half`` is eq. 57, ``(W + T/2 + s) / (W + Wᵀ + T + 2s)``; ``ignore`` keeps
    decisive matches only, ``(W + s) / (W + Wᵀ + 2s)``; ``s`` is a pseudocount
    added to every directed win count. The diagonal is ``1/2``.
    """
    W = tp.wins.astype(float)
    num = W + smoothing
    den = W + W.T + 2.0 * smoothing
    if tie_handling == "half":
        num = num + 0.5 * tp.ties
        den = den + tp.ties
    edges = den > 0
    np.fill_diagonal(edges, False)
    P = np.divide(num, den, out=np.zeros_like(num), where=edges)
    np.fill_diagonal(P, 0.5)
    return P, edges


def _tied_split(R) -> np.ndarray:
    """Validated ``R`` -> eq. 57 matrix (complete graph in the binary setting)."""
    return _win_probability(trial_pairs(as_binary(R)))[0]


# --------------------------------------------------------------------------- ties
def _tie_classes(*mats: np.ndarray) -> np.ndarray:
    """Label (smallest member) of each model's class of interchangeable models.

    ``i ~ k`` when the transposition ``(i k)`` maps every matrix onto itself:
    equal rows and columns off ``{i, k}``, ``X_ik = X_ki`` and ``X_ii = X_kk``.
    Swaps that fix the input form a group, so ``~`` is an equivalence. Pairs
    are first screened by a fingerprint of the sorted rows and columns and the
    diagonal (equal for interchangeable models: same multisets, same
    arithmetic), then verified exactly.
    """
    L = mats[0].shape[0]
    probe = 1.0 / np.arange(1.0, L + 1.0)  # any fixed vector: sorted rows -> one number
    keys = np.stack(
        [np.sort(X, 1) @ probe for X in mats]
        + [np.sort(X, 0).T @ probe for X in mats]
        + [np.diagonal(X) for X in mats],
        axis=1,
    )
    i, k = np.nonzero(np.triu((keys[:, None, :] == keys[None, :, :]).all(-1), 1))
    label = np.arange(L)
    if i.size == 0:
        return label
    cols = np.arange(L)
    off = (cols != i[:, None]) & (cols != k[:, None])
    ok = np.ones(i.size, dtype=bool)
    for X in mats:
        ok &= np.all((X[i] == X[k]) | ~off, axis=1)
        ok &= np.all((X[:, i].T == X[:, k].T) | ~off, axis=1)
        ok &= (X[i, k] == X[k, i]) & (X[i, i] == X[k, k])
    np.minimum.at(label, k[ok], i[ok])
    return label


def _tie_average(scores: np.ndarray, *mats: np.ndarray) -> np.ndarray:
    """Replace each score by its interchangeable class's mean (exactly equal ties)."""
    label = _tie_classes(*mats)
    if (label == np.arange(label.size)).all():
        return scores
    mean = np.bincount(label, scores) / np.maximum(np.bincount(label), 1)
    return mean[label]


# --------------------------------------------------------------------------- Markov chains
def _closure(adj: np.ndarray) -> np.ndarray:
    """Reflexive-transitive closure of a directed graph by repeated squaring."""
    R = adj | np.eye(adj.shape[0], dtype=bool)
    while True:
        Rf = R.astype(float)
        nxt = (Rf @ Rf) > 0
        if (nxt == R).all():
            return R
        R = nxt


def _gth(P: np.ndarray) -> np.ndarray:
    """Stationary law of an irreducible row-stochastic ``P`` (GTH state reduction).

    Each step folds the last state into the others; only off-diagonal entries
    and sums of non-negative numbers are used, so there is no cancellation
    (Grassmann, Taksar & Heyman 1985). The two loops run over states because
    elimination is sequential; each step is a vectorized rank-one update.
    """
    A = np.array(P, dtype=float)
    n = A.shape[0]
    for k in range(n - 1, 0, -1):
        A[:k, k] /= A[k, :k].sum()
        A[:k, :k] += np.outer(A[:k, k], A[k, :k])
    pi = np.zeros(n)
    pi[0] = 1.0
    for j in range(1, n):
        pi[j] = pi[:j] @ A[:j, j]
    return pi / pi.sum()


def _stationary(P: np.ndarray) -> np.ndarray:
    """Stationary distribution; for reducible chains the limit from the uniform start.

    With several closed classes the stationary law is not unique; the chain
    started from ``1/L`` (the power method's start) ends in closed class ``c``
    with the mass ``h_c`` that reaches it, so ``π = Σ_c h_c π_c``. Transient
    models get 0.
    """
    L = P.shape[0]
    adj = P > 0
    np.fill_diagonal(adj, False)
    if L == 1 or adj.sum() == L * (L - 1):
        return _gth(P)
    reach = _closure(adj)
    same = reach & reach.T
    if same.all():
        return _gth(P)
    label = same.argmax(1)  # smallest state of each strongly connected class
    closed = ~(reach & ~same).any(1)
    trans = ~closed
    # mass entering each recurrent state: its own start plus the flow out of the
    # transient states, whose expected visits v solve vᵀ(I - P_TT) = u_T
    enter = np.full(L, 1.0 / L)
    if trans.any():
        v = np.linalg.solve((np.eye(trans.sum()) - P[np.ix_(trans, trans)]).T, enter[trans])
        enter[closed] += v @ P[np.ix_(trans, closed)]
    enter[trans] = 0.0
    pi = np.zeros(L)
    for c in np.unique(label[closed]):  # one GTH per closed class (few)
        idx = np.flatnonzero(label == c)
        pi[idx] = enter[idx].sum() * _gth(P[np.ix_(idx, idx)])
    return pi / pi.sum()


# --------------------------------------------------------------------------- PageRank
@ranker(
    "graph",
    "PageRank on the win-probability graph: losers link to winners, winners keep their "
    "wins as a self-loop (002 eqs. 57-59)",
    variants={"pagerank": {"damping": 0.85, "max_iter": 100, "tol": 1e-12}},
    tie_floor=0.0,  # a stationary mass may legitimately be tiny
)
def pagerank(R, damping: float = 0.85, max_iter: int = 100, tol: float = 1e-12,
             teleport: Sequence[float] | np.ndarray | str | None = None):
    """PageRank scores ``r = d Q r + (1 - d) e`` (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), eq. 59).

    Column ``j`` of ``Q`` is the random-match walk from ``j``: for each opponent
    ``i`` move to ``i`` with ``P̂[i, j]`` (eq. 58, "losers link to winners"),
    otherwise stay, i.e. the self-loop ``A_jj = Σ_k P̂[j, k]`` — the same
    self-loop the paper uses for the spectral method — then normalise columns
    (a uniform column if a column is empty). Without the self-loop eq. 58
    throws away how often ``j`` wins: with two models both columns normalise to
    1 and every pair ties. The fixed point is solved directly.

    Parameters
    ----------
    R : array_like, (L, M, N) or (L, M)
        Binary outcomes.
    damping : float
        ``d`` in ``(0, 1)``.
    max_iter, tol : int, float
        Accepted for the Ranking Reasoning LLMs under Test-Time Scaling (2026), App. I.2 signature;
        the linear solve is exact.
    teleport : array_like (L,), optional
        Non-negative teleportation weights ``e`` (normalised); default uniform; or one
        comma-separated string (``"1,1,2"``).

    Examples
    --------
    >>> from scorio_core.rank.graph import pagerank
    >>> import numpy as np
    >>> pagerank(np.array([[[1, 1], [1, 0]], [[0, 1], [0, 0]]])).tolist()
    [1, 2]
    """
    X = as_binary(R)
    L = X.shape[0]
    if not 0.0 < damping < 1.0:
        raise ValidationError(f"damping must lie strictly between 0 and 1; got {damping!r}")
    _check_iter(max_iter, tol)
    if teleport is None:
        e = np.full(L, 1.0 / L)
    else:
        e = np.asarray(as_numbers(teleport, "teleport", kind=float, example="1,1,2"),
                       dtype=float)
        if e.shape != (L,) or not np.isfinite(e).all() or (e < 0).any() or e.sum() <= 0:
            raise ValidationError(
                f"teleport must be {L} finite non-negative weights with a positive sum; "
                f"got {np.asarray(teleport).tolist()!r}"
            )
        e = e / e.sum()
    Ph = _tied_split(X)
    A = Ph.copy()
    np.fill_diagonal(A, 0.0)
    np.fill_diagonal(A, A.sum(1))
    col = A.sum(0)
    Q = np.divide(A, col, out=np.full_like(A, 1.0 / L), where=col > 0)
    r = np.linalg.solve(np.eye(L) - damping * Q, (1.0 - damping) * e)
    # ties are read off the primitive inputs: sums in Q depend on summation order
    return _tie_average(r, Ph, np.diag(e))


# --------------------------------------------------------------------------- spectral
@ranker(
    "graph",
    "principal eigenvector of the win-probability matrix with row-sum self-loops "
    "(002 App. I.1.9, spectral)",
    variants={"spectral": {"max_iter": 10000, "tol": 1e-12}},
    tie_floor=0.0,  # a stationary mass may legitimately be tiny
)
def spectral(R, max_iter: int = 10000, tol: float = 1e-12):
    """Eigenvector centrality: ``W v = λ v`` with ``W_ij = P̂[i, j]``, ``W_ii = Σ_j P̂[i, j]``.

    The Perron vector (largest eigenvalue; ``v ≥ 0``, ``Σ v = 1``) of the
    diagonally dominant non-negative ``W`` comes from one LAPACK
    eigendecomposition; ``max_iter``/``tol`` are accepted for the Ranking Reasoning LLMs under
    Test-Time Scaling (2026), App. I.2 signature. In the binary setting ``v`` is increasing in
    accuracy.

    Examples
    --------
    >>> from scorio_core.rank.graph import spectral
    >>> import numpy as np
    >>> spectral(np.array([[[1, 1], [1, 0]], [[0, 1], [0, 0]]])).tolist()
    [1, 2]
    """
    _check_iter(max_iter, tol)
    Ph = _tied_split(R)
    Wm = Ph.copy()
    np.fill_diagonal(Wm, 0.0)
    np.fill_diagonal(Wm, Wm.sum(1))
    vals, vecs = np.linalg.eig(Wm)
    v = vecs[:, np.argmax(vals.real)].real
    v = np.clip(v * np.sign(v.sum() or 1.0), 0.0, None)
    v = v / v.sum() if v.sum() > 0 else np.full(v.size, 1.0 / v.size)
    return _tie_average(v, Ph)


# --------------------------------------------------------------------------- Rank Centrality
@ranker(
    "graph",
    "Rank Centrality: stationary law of the walk that moves towards winners (002 eq. 60)",
    variants={
        "rank_centrality_tie_ignore": {
            "tie_handling": "ignore",
            "smoothing": 0.0,
            "teleport": 0.0,
            "max_iter": 10000,
            "tol": 1e-12,
        },
        "rank_centrality_tie_half": {
            "tie_handling": "half",
            "smoothing": 0.0,
            "teleport": 0.0,
            "max_iter": 10000,
            "tol": 1e-12,
        },
    },
    tie_floor=0.0,  # a stationary mass may legitimately be tiny
)
def rank_centrality(
    R,
    tie_handling: str = "half",
    smoothing: float = 0.0,
    teleport: float = 0.0,
    max_iter: int = 10000,
    tol: float = 1e-12,
):
    """Stationary distribution ``π`` of ``P_ij = P̂[j, i] / d_max`` (Ranking Reasoning LLMs under
    Test-Time Scaling (2026), eq. 60).

    ``tie_handling="half"`` uses eq. 57; ``"ignore"`` uses decisive matches only,
    ``P̂[j, i] = W_ji / (W_ij + W_ji)``, on the graph of pairs with at least one
    decisive match (``d_max`` is its largest degree). ``smoothing`` adds a
    pseudocount to every directed win count; ``teleport`` ``τ ∈ [0, 1)`` mixes in
    the uniform jump, ``(1 - τ) P + τ/L``.

    Without smoothing or teleportation the ``ignore`` chain can be reducible
    (a model that never loses absorbs the walk; identical models share no
    edge). ``π`` is then the limit of the walk started uniformly: the
    stationary law of each closed class weighted by the mass reaching it, 0 for
    transient models. It is finite and ties interchangeable models.

    Examples
    --------
    >>> from scorio_core.rank.graph import rank_centrality
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 0]], [[0, 1], [0, 0]], [[1, 0], [0, 0]]])
    >>> rank_centrality(R).tolist()
    [1, 2, 2]
    """
    X = as_binary(R)
    L = X.shape[0]
    check_choice("tie_handling", tie_handling, ("ignore", "half"))
    if not (np.isfinite(smoothing) and smoothing >= 0):
        raise ValidationError(f"smoothing must be a non-negative number; got {smoothing!r}")
    if not 0.0 <= teleport < 1.0:
        raise ValidationError(f"teleport must lie in [0, 1); got {teleport!r}")
    _check_iter(max_iter, tol)
    Ph, edges = _win_probability(trial_pairs(X), tie_handling, smoothing)
    np.fill_diagonal(Ph, 0.0)
    d_max = edges.sum(1).max() if L > 1 else 0
    P = Ph.T / d_max if d_max > 0 else np.zeros((L, L))
    np.fill_diagonal(P, 1.0 - P.sum(1))
    if teleport > 0:
        P = (1.0 - teleport) * P + teleport / L
    return _tie_average(_stationary(P), Ph)


# --------------------------------------------------------------------------- alpha-Rank
def _fixation(u: np.ndarray, m: int) -> np.ndarray:
    """Eq. 61 without overflow: for ``u < 0`` multiply through by ``e^{mu}``."""
    out = np.full(u.shape, 1.0 / m)
    pos, neg = u > 0, u < 0
    up, un = u[pos], u[neg]
    out[pos] = np.expm1(-up) / np.expm1(-m * up)
    out[neg] = np.exp((m - 1) * un) * np.expm1(un) / np.expm1(m * un)
    return out


@ranker(
    "graph",
    "alpha-Rank: stationary law of mutant fixation in a finite population (002 eqs. 61-62)",
    variants={"alpharank": {"alpha": 1.0, "population_size": 50, "max_iter": 100000, "tol": 1e-12}},
    tie_floor=0.0,  # a stationary mass may legitimately be tiny
)
def alpharank(
    R, alpha: float = 1.0, population_size: int = 50, max_iter: int = 100000, tol: float = 1e-12
):
    """Single-population α-Rank with payoff ``P̂[r, s]`` (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), eqs. 61-62).

    ``u = α m/(m-1) (P̂[r, s] - 1/2)``, fixation ``ρ_{r,s} = (1 - e^{-u}) /
    (1 - e^{-mu})`` (``1/m`` at ``u = 0``), transitions ``C_sr = ρ_{r,s}/(L-1)``;
    the score is the stationary law of ``C`` (GTH, exact to full relative
    precision). In the binary setting the chain is reversible with
    ``π ∝ exp(α m a / 2)`` — a softmax of accuracy — which the tests check.

    Examples
    --------
    >>> from scorio_core.rank.graph import alpharank
    >>> import numpy as np
    >>> alpharank(np.array([[[1, 1], [1, 0]], [[0, 1], [0, 0]]])).tolist()
    [1, 2]
    """
    X = as_binary(R)
    L = X.shape[0]
    if not (np.isfinite(alpha) and alpha >= 0):
        raise ValidationError(f"alpha must be a non-negative number; got {alpha!r}")
    m = population_size
    if isinstance(m, bool) or int(m) != m or m < 2:
        raise ValidationError(f"population_size must be a whole number >= 2; got {m!r}")
    _check_iter(max_iter, tol)
    if L == 1:
        return np.ones(1)
    Ph, edges = _win_probability(trial_pairs(X))
    rho = np.where(edges, _fixation(alpha * m / (m - 1) * (Ph - 0.5), int(m)), 0.0)
    C = rho.T / (L - 1)
    np.fill_diagonal(C, 1.0 - C.sum(1))
    return _tie_average(_stationary(C), rho)


# --------------------------------------------------------------------------- Nash
_SCORE_TYPES = ("vs_equilibrium", "advantage_vs_equilibrium", "equilibrium")


def _maximin(A: np.ndarray) -> np.ndarray:
    """Maximin mixture of the zero-sum game ``A`` (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), eq. 64), chosen deterministically.

    If the game has a pure saddle point (``max_i min_j A_ij = min_j max_i A_ij``,
    always so in the binary setting, where ``A_ij = a_i - a_j``), that row is
    optimal and no LP is needed; otherwise one HiGHS LP: ``max v`` s.t.
    ``Aᵀx ≥ v``, ``x ∈ Δ``. Every equilibrium lives on the column best responses
    ``E`` to that ``x``; when the uniform mixture on ``E`` is itself optimal
    (in the binary setting ``E`` is the set of most accurate models) it is
    returned: the maximum-entropy, label-invariant equilibrium. Otherwise (only
    possible outside the binary setting) the solution found, averaged over
    interchangeable models, is.
    """
    L = A.shape[0]
    lower, upper = A.min(1), A.max(0)
    if lower.max() == upper.min():
        x = (np.arange(L) == np.argmax(lower)).astype(float)
    else:
        res = optimize.linprog(
            c=np.r_[np.zeros(L), -1.0],
            A_ub=np.hstack([-A.T, np.ones((L, 1))]),
            b_ub=np.zeros(L),
            A_eq=np.r_[np.ones(L), 0.0][None, :],
            b_eq=[1.0],
            bounds=[(0, None)] * L + [(None, None)],
            method="highs",
        )
        if res.status != 0:  # cannot happen: the LP is feasible and bounded
            raise RuntimeError(f"Nash LP failed: {res.message}")
        x = np.clip(res.x[:L], 0.0, None)
        x /= x.sum()
    pay = A.T @ x
    tol = 1e-9 * max(1.0, np.abs(A).max())
    best = pay <= pay.min() + tol
    u = best / best.sum()
    if (A.T @ u >= pay.min() - tol).all():
        return u
    return _tie_average(x, A)


def _nash(R, n_iter, temperature, solver, score_type) -> tuple[np.ndarray, np.ndarray]:
    check_int("n_iter", n_iter)
    if not (np.isfinite(temperature) and temperature > 0):
        raise ValidationError(f"temperature must be a positive number; got {temperature!r}")
    check_choice("solver", solver, ("lp",))
    check_choice("score_type", score_type, _SCORE_TYPES)
    Ph = _tied_split(R)
    A = 2.0 * Ph - 1.0
    np.fill_diagonal(A, 0.0)
    x = _maximin(A)
    if score_type == "vs_equilibrium":
        s = Ph @ x  # eq. 65, with P̂_ii = 1/2
    elif score_type == "advantage_vs_equilibrium":
        s = A @ x
    else:
        s = x
    return _tie_average(s, A), x


@ranker(
    "graph",
    "Nash averaging: expected result against the maximin mixture of the zero-sum "
    "meta-game A = 2P - 1 (002 eqs. 63-65)",
    variants={
        "nash_vs_equilibrium": {
            "n_iter": 100,
            "temperature": 0.1,
            "solver": "lp",
            "score_type": "vs_equilibrium",
            "return_equilibrium": False,
        },
        "nash_advantage_vs_equilibrium": {
            "n_iter": 100,
            "temperature": 0.1,
            "solver": "lp",
            "score_type": "advantage_vs_equilibrium",
            "return_equilibrium": False,
        },
    },
    extra_output="return_equilibrium",
    extra_with_scores=False,
)
def nash(
    R,
    n_iter: int = 100,
    temperature: float = 0.1,
    solver: str = "lp",
    score_type: str = "vs_equilibrium",
    return_equilibrium: bool = False,
):
    """Nash averaging on the zero-sum meta-game (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), eqs. 63-65).

    ``A = 2P̂ - 1`` (antisymmetric, zero diagonal); ``x`` is a maximin mixture
    (eq. 64; a pure saddle point when there is one, else one HiGHS LP).
    Non-unique equilibria are resolved deterministically: the uniform mixture
    over the column best responses when it is optimal -- the maximum-entropy
    equilibrium, which in the binary setting is uniform over the most accurate
    models -- else the solution found, averaged over interchangeable models.

    Parameters
    ----------
    R : array_like, (L, M, N) or (L, M)
        Binary outcomes.
    n_iter, temperature : int, float
        Accepted for the Ranking Reasoning LLMs under Test-Time Scaling (2026), App. I.2 signature;
        unused by the LP solver.
    solver : {"lp"}
    score_type : {"vs_equilibrium", "advantage_vs_equilibrium", "equilibrium"}
        ``Σ_j P̂[i, j] x_j`` (eq. 65), ``(A x)_i = 2 s_i - 1``, or ``x`` itself.
    return_equilibrium : bool
        Also return ``x``: ``(ranks, x)``, or ``(ranks, scores, x)`` with
        ``return_scores=True``.

    Examples
    --------
    >>> from scorio_core.rank.graph import nash
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 0]], [[0, 1], [0, 0]], [[1, 1], [0, 1]]])
    >>> ranks, x = nash(R, return_equilibrium=True)
    >>> ranks.tolist(), x.tolist()
    ([1, 3, 1], [0.5, 0.0, 0.5])
    """
    scores, x = _nash(R, n_iter, temperature, solver, score_type)
    return (scores, x) if return_equilibrium else scores
