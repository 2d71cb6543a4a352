"""Voting rules: questions are voters that rank models by solve counts (Ranking Reasoning LLMs under
Test-Time Scaling (2026), App. I.1.4).

Every rule reads the same two tallies, each built once with numpy:

* the solve counts ``k[l, m] = Σ_n R[l, m, n]`` (Ranking Reasoning LLMs under Test-Time
  Scaling (2026), eq. 32), and
* the question-level pairwise tallies of :func:`~scorio_core.rank._stats.question_pairs`:
  ``W[i, j] = #{m : k_im > k_jm}`` and ``T[i, j] = #{m : k_im = k_jm}``.

From them, with ``tie_policy="ignore"`` the pairwise preference matrix is
``P = W`` and with ``tie_policy="half"`` it is ``P = W + T / 2`` (Ranking Reasoning LLMs under
Test-Time Scaling (2026), eq. 36); the margins ``Δ = P - Pᵀ = W - Wᵀ`` do not depend on the policy.
Borda and the Borda-elimination rules are row sums of the same matrices (the average-rank
Borda points of one question are ``Σ_j 1[k_i > k_j] + ½ 1[k_i = k_j]``).

Rules that output a relation rather than a number (Schulze, ranked pairs,
Kemeny-Young, majority judgment) are turned into scores by *levels*: a model's
level is the length of the longest chain of models placed above it, and its
score is ``L - level`` (higher is better, the top level scores ``L``). Models
the relation leaves incomparable at the same depth share a level, so ties come
out as ties.

Example
-------
>>> import numpy as np
>>> from scorio_core.rank import voting
>>> R = np.array([[[1, 1, 1], [1, 0, 0]],
...               [[1, 1, 0], [0, 1, 0]],
...               [[0, 0, 0], [1, 1, 1]]])
>>> ranks, scores = voting.borda(R, return_scores=True)
>>> ranks.tolist(), scores.tolist()
([1, 3, 2], [2.5, 1.5, 2.0])
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

import numpy as np

from .._validation import ValidationError, check_choice
from ._stats import QuestionPairs, as_binary, question_pairs, solve_counts
from .registry import ranker

__all__ = [
    "borda",
    "copeland",
    "win_rate",
    "minimax",
    "schulze",
    "ranked_pairs",
    "kemeny_young",
    "KemenyStatus",
    "nanson",
    "baldwin",
    "majority_judgment",
]

TiePolicy = Literal["ignore", "half"]
_TIE_POLICIES = ("ignore", "half")
_RANK_TIES = ("average", "max", "min")

# Kemeny blocks up to this size are solved by the subset dynamic program (2^16 sets,
# tens of ms); larger blocks by the MILP (tens of ms per solve, about one solve per
# model to certify the forced pairs).
_KEMENY_DP_MAX = 16
#: Default seconds for the whole Kemeny-Young solve. Exact search is exponential
#: (20/30/40/60 models in one Condorcet block took 3.8/19/73/457 s); past this bound
#: the best order found is returned, labelled ``"time_limited"``.
KEMENY_TIME_LIMIT = 10.0


# --------------------------------------------------------------------------- tallies
def _tallies(R) -> tuple[np.ndarray, QuestionPairs]:
    k = solve_counts(as_binary(R))
    return k, question_pairs(k)


def _preference(qp: QuestionPairs, tie_policy: str) -> np.ndarray:
    """``P[i, j]`` of Ranking Reasoning LLMs under Test-Time Scaling (2026), eq. 36: questions
    preferring i to j (ties count 0 or 1/2)."""
    check_choice("tie_policy", tie_policy, _TIE_POLICIES)
    P = qp.wins.astype(float)
    if tie_policy == "half":
        P += 0.5 * qp.ties
    return P


def _borda_points(qp: QuestionPairs, rank_ties: str) -> np.ndarray:
    """``B[i, j]``: Borda points i gets from j, summed over questions.

    With descending per-question ranks ``r`` and ``|A|`` active models,
    ``|A| - r_i = Σ_{j in A} B[i, j]`` where a tied ``j`` is worth ½ (average
    ranks), 0 (``max``: ties take the worse position) or 1 (``min``).
    """
    check_choice("rank_ties", rank_ties, _RANK_TIES)
    tie_weight = {"average": 0.5, "max": 0.0, "min": 1.0}[rank_ties]
    return qp.wins + tie_weight * qp.ties


def _levels(above: np.ndarray) -> np.ndarray:
    """Longest-chain depth of each node in the DAG ``above[i, j]`` (i placed above j).

    Peels the current sources layer by layer (at most L rounds of an (L, L)
    reduction); a node's level is the number of layers removed before it.
    """
    L = above.shape[0]
    level = np.full(L, -1, dtype=np.int64)
    active = np.ones(L, dtype=bool)
    depth = 0
    while active.any():
        beaten = (above & active[:, None]).any(0)
        top = active & ~beaten
        if not top.any():  # a cycle: callers pass acyclic relations only
            raise RuntimeError("relation has a cycle; cannot assign levels")
        level[top] = depth
        active &= ~top
        depth += 1
    return level


def _level_scores(above: np.ndarray) -> np.ndarray:
    return (above.shape[0] - _levels(above)).astype(float)


# --------------------------------------------------------------------------- scoring rules
@ranker("voting", "Borda count of per-question solve-count rankings, average ties (002 eq. 33)")
def borda(R) -> np.ndarray:
    """Borda scores ``s_l = Σ_m (L - r_lm)`` with tie-averaged ranks (Ranking Reasoning LLMs under
    Test-Time Scaling (2026), eq. 33).

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.

    Returns
    -------
    scores : ndarray, shape (L,)
        ``Σ_j W[l, j] + ½ T[l, j]``, the same number as eq. 33.

    Examples
    --------
    >>> from scorio_core.rank.voting import borda
    >>> import numpy as np
    >>> borda(np.array([[[1, 1]], [[1, 0]], [[0, 0]]])).tolist()
    [1, 2, 3]
    """
    _, qp = _tallies(R)
    return _borda_points(qp, "average").sum(1)


@ranker("voting", "Copeland: pairwise question-majority wins minus losses (002 eq. 34)")
def copeland(R) -> np.ndarray:
    """Copeland scores ``s_i = Σ_{j≠i} sign(W_ij - W_ji)`` (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), eq. 34).

    Examples
    --------
    >>> from scorio_core.rank.voting import copeland
    >>> import numpy as np
    >>> copeland(np.array([[[1], [1]], [[1], [0]], [[0], [0]]]), return_scores=True)[1].tolist()
    [2.0, 0.0, -2.0]
    """
    _, qp = _tallies(R)
    return np.sign(qp.wins - qp.wins.T).sum(1)


@ranker("voting", "share of decisive question-level pairwise contests won (002 eq. 35)")
def win_rate(R) -> np.ndarray:
    """Win rate ``Σ_j W_ij / Σ_j (W_ij + W_ji)``, 0.5 without decisive contests (Ranking Reasoning
    LLMs under Test-Time Scaling (2026), eq. 35).

    Examples
    --------
    >>> from scorio_core.rank.voting import win_rate
    >>> import numpy as np
    >>> win_rate(np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]]]), return_scores=True)[1].tolist()
    [1.0, 0.0]
    """
    _, qp = _tallies(R)
    won = qp.wins.sum(1).astype(float)
    decisive = won + qp.wins.sum(0)
    return np.divide(won, decisive, out=np.full_like(won, 0.5), where=decisive > 0)


@ranker(
    "voting",
    "minimax (Simpson-Kramer): rank by the strength of the worst pairwise defeat (002 eq. 37)",
    variants={
        "minimax_variant_margin_tie_ignore": {"variant": "margin", "tie_policy": "ignore"},
        "minimax_variant_margin_tie_half": {"variant": "margin", "tie_policy": "half"},
        "minimax_variant_winning_votes_tie_ignore": {
            "variant": "winning_votes",
            "tie_policy": "ignore",
        },
        "minimax_variant_winning_votes_tie_half": {
            "variant": "winning_votes",
            "tie_policy": "half",
        },
    },
)
def minimax(R, variant: str = "margin", tie_policy: TiePolicy = "half") -> np.ndarray:
    """Minus the worst pairwise defeat (Ranking Reasoning LLMs under Test-Time Scaling (2026),
    eq. 37).

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    variant : {"margin", "winning_votes"}
        Defeat strength: the margin ``Δ_ji = P_ji - P_ij`` (eq. 37,
        ``s_i = -max_j max(0, Δ_ji)``) or the winner's votes ``P_ji`` over the
        defeats ``P_ji > P_ij`` only (0 for an undefeated model).
    tie_policy : {"ignore", "half"}
        Per-question ties count 0 or ½ in ``P`` (Ranking Reasoning LLMs under Test-Time
        Scaling (2026), eq. 36). Margins are the same under both policies.

    Returns
    -------
    scores : ndarray, shape (L,)
        Non-positive; closer to 0 is better.

    Examples
    --------
    >>> from scorio_core.rank.voting import minimax
    >>> import numpy as np
    >>> R = np.array([[[1, 1]] * 3, [[1, 0]] * 3, [[0, 0]] * 3])
    >>> minimax(R, return_scores=True)[1].tolist()
    [0.0, -3.0, -3.0]
    """
    check_choice("variant", variant, ("margin", "winning_votes"))
    _, qp = _tallies(R)
    P = _preference(qp, tie_policy)
    if variant == "margin":
        defeat = P.T - P  # defeat[i, j] = Δ_ji, how badly j beats i
    else:
        defeat = np.where(P.T > P, P.T, 0.0)
    return 0.0 - np.maximum(defeat, 0.0).max(1, initial=0.0)  # 0.0 - x: no -0.0


# --------------------------------------------------------------------------- Condorcet methods
@ranker(
    "voting",
    "Schulze beatpath: i above j when the strongest path i->j beats j->i (002 App. I.1.4)",
    variants={
        "schulze_tie_ignore": {"tie_policy": "ignore"},
        "schulze_tie_half": {"tie_policy": "half"},
    },
)
def schulze(R, tie_policy: TiePolicy = "half") -> np.ndarray:
    """Schulze's beatpath relation, scored by levels.

    Direct strengths are ``d_ij = P_ij`` where ``P_ij > P_ji`` and 0 otherwise;
    strongest paths ``p_ij`` are the widest (max-min) paths, computed by
    Floyd-Warshall with the update over all pairs vectorized and a loop over
    the ``L`` intermediate models only. ``i`` is above ``j`` when
    ``p_ij > p_ji``; Schulze (2011) proves this relation transitive, so its
    levels (see the module notes) are well defined.

    Examples
    --------
    >>> from scorio_core.rank.voting import schulze
    >>> import numpy as np
    >>> R = np.array([[[1], [1], [0]], [[1], [0], [1]], [[0], [0], [0]]])
    >>> schulze(R).tolist()
    [1, 1, 3]
    """
    _, qp = _tallies(R)
    P = _preference(qp, tie_policy)
    p = np.where(P > P.T, P, 0.0)
    for i in range(p.shape[0]):  # Floyd-Warshall: the intermediate-node loop is sequential
        np.maximum(p, np.minimum(p[:, i, None], p[None, i, :]), out=p)
    return _level_scores(p > p.T)


@ranker(
    "voting",
    "ranked pairs (Tideman): lock victories strongest first unless they close a cycle "
    "(002 App. I.1.4)",
    variants={
        "ranked_pairs_strength_margin_tie_ignore": {"strength": "margin", "tie_policy": "ignore"},
        "ranked_pairs_strength_margin_tie_half": {"strength": "margin", "tie_policy": "half"},
        "ranked_pairs_strength_winning_votes_tie_ignore": {
            "strength": "winning_votes",
            "tie_policy": "ignore",
        },
        "ranked_pairs_strength_winning_votes_tie_half": {
            "strength": "winning_votes",
            "tie_policy": "half",
        },
    },
)
def ranked_pairs(R, strength: str = "margin", tie_policy: TiePolicy = "half") -> np.ndarray:
    """Ranked pairs on the victories ``i -> j`` (``P_ij > P_ji``), scored by levels.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    strength : {"margin", "winning_votes"}
        Order in which victories are locked: by margin ``Δ_ij`` then winning
        votes ``P_ij``, or by winning votes ``P_ij`` alone.
    tie_policy : {"ignore", "half"}
        Per-question ties count 0 or ½ in ``P`` (Ranking Reasoning LLMs under Test-Time
        Scaling (2026), eq. 36).

    Notes
    -----
    Victories with equal keys are locked as one batch, without a label-based
    tie-break: if the batch closes no cycle with the victories already locked,
    all of it is locked (exactly what any sequential order would do);
    otherwise the batch victories that lie on a cycle are left unlocked and
    the others are locked. The result does not depend on the order of the
    models, and clones end up tied. Locking is inherently sequential (each
    decision depends on the earlier ones); each step is one (L, L) update of
    the transitive closure.

    Examples
    --------
    >>> from scorio_core.rank.voting import ranked_pairs
    >>> import numpy as np
    >>> R = np.array([[[1], [1], [0]], [[1], [0], [1]], [[0], [0], [0]]])
    >>> ranked_pairs(R).tolist()
    [1, 1, 3]
    """
    check_choice("strength", strength, ("margin", "winning_votes"))
    _, qp = _tallies(R)
    locked, _ = _lock_pairs(_preference(qp, tie_policy), strength)
    return _level_scores(locked)


def _lock_pairs(P: np.ndarray, strength: str) -> tuple[np.ndarray, bool]:
    """Locked victories ``locked[i, j]`` and whether some batch of equal keys conflicted.

    Without a conflict the result equals sequential locking in any order of
    the equal-key victories (e.g. the reference's label order).
    """
    L = P.shape[0]
    src, dst = np.nonzero(P > P.T)
    margin, votes = (P - P.T)[src, dst], P[src, dst]
    keys = (margin, votes) if strength == "margin" else (votes,)
    order = np.lexsort(tuple(-k for k in reversed(keys)))  # lexsort: last key is primary
    src, dst = src[order], dst[order]
    key = np.stack([k[order] for k in keys], 1)
    starts = np.flatnonzero(np.r_[True, np.any(key[1:] != key[:-1], axis=1)])

    from ._vote_kernels import lock_batches  # compiled: the loop is sequential by nature

    ends = np.r_[starts, len(src)].astype(np.int64)
    locked, conflict = lock_batches(
        src.astype(np.int64), dst.astype(np.int64), ends, np.int64(L)
    )
    return locked, bool(conflict)


# --------------------------------------------------------------------------- Kemeny-Young
def _kemeny_forced_dp(D: np.ndarray) -> np.ndarray:
    """``forced[i, j]`` for a block of up to ~16 models by dynamic programming over subsets.

    ``f(S)`` is the best value of placing the set ``S`` on top (in some order)
    and ``g(S)`` the best value of ordering the rest below it; an order is
    optimal iff each of its prefixes ``S`` has ``f(S) + g(S) = OPT``. Hence
    ``j`` is above ``i`` in some optimal order iff some optimal prefix holds
    ``j`` but not ``i``. Both recursions run layer by layer over subset sizes
    (``n + 1`` vectorized steps each); the gain of placing ``x`` right below
    ``S``, ``Σ_{y ∉ S ∪ {x}} Δ_xy``, is carried from ``S`` minus its lowest
    member, so nothing is recomputed. Cost ``O(2^n n)`` time and memory.
    """
    n = D.shape[0]
    size = 1 << n
    masks = np.arange(size, dtype=np.int64)
    pop = np.bitwise_count(masks).astype(np.int64)
    order = np.argsort(pop, kind="stable")
    start = np.r_[0, np.cumsum(np.bincount(pop, minlength=n + 1))]
    pos = np.empty(size, dtype=np.int64)  # index of a mask within its layer
    pos[order] = np.arange(size) - start[pop[order]]
    low = np.bitwise_count((masks & -masks) - 1).astype(np.int64)  # lowest member
    bit = np.int64(1) << np.arange(n, dtype=np.int64)
    rowsum = D.sum(1)

    f, g = np.zeros(size), np.zeros(size)
    layers, members, gains = [], [], []
    inner = np.zeros((1, n))  # inner[., x] = Σ_{y in S} Δ_xy over the current layer
    for s in range(n + 1):
        S = order[start[s] : start[s + 1]]
        if s:
            inner = inner[pos[S ^ bit[low[S]]]] + D.T[low[S]]
        B = (S[:, None] & bit) != 0
        layers.append(S)
        members.append(B)
        gains.append(rowsum - inner)  # gain of x placed right below S
        if s:  # x is the last member of S placed
            f[S] = np.where(B, f[S[:, None] ^ bit] + gains[s], -np.inf).max(1)
    for s in range(n - 1, -1, -1):
        S, B = layers[s], members[s]
        g[S] = np.where(B, -np.inf, g[S[:, None] | bit] + gains[s]).max(1)

    prefixes = np.flatnonzero(f + g >= f[-1] - 0.5)  # Δ are integers
    B = ((prefixes[:, None] & bit) != 0).astype(np.float32)
    either = (B.T @ (1.0 - B)) > 0  # either[j, i]: an optimal order puts j above i
    return ~either.T & ~np.eye(n, dtype=bool)


class _KemenyMILP:
    """Linear ordering MILP on one block: x_ij = 1 iff i above j (i < j).

    maximize Σ_{i<j} Δ_ij (2 x_ij - 1) subject to the triangle inequalities
    0 <= x_ij + x_jk - x_ik <= 1 for i < j < k (no 3-cycles, hence transitive).
    """

    def __init__(self, D: np.ndarray):
        from scipy import sparse
        from scipy.optimize import LinearConstraint

        n = D.shape[0]
        self.n = n
        self.iu, self.ju = np.triu_indices(n, 1)
        pair_id = np.full((n, n), -1, dtype=np.int64)
        pair_id[self.iu, self.ju] = np.arange(len(self.iu))
        self.pair_id = pair_id
        self.c = -2.0 * D[self.iu, self.ju]
        self.const = D[self.iu, self.ju].sum()
        t = np.fromiter(combinations(range(n), 3), dtype=(np.int64, 3)).reshape(-1, 3)
        rows = np.repeat(np.arange(len(t)), 3)
        cols = np.stack(
            [pair_id[t[:, 0], t[:, 1]], pair_id[t[:, 1], t[:, 2]], pair_id[t[:, 0], t[:, 2]]], 1
        ).ravel()
        vals = np.tile([1.0, 1.0, -1.0], len(t))
        A = sparse.csr_array((vals, (rows, cols)), shape=(len(t), len(self.iu)))
        self.constraints = [LinearConstraint(A, 0.0, 1.0)] if len(t) else []
        self.options = {"mip_rel_gap": 0.0}  # the default gap could accept a worse order

    def solve(
        self, fix: tuple[int, int] | None = None, time_limit: float | None = None
    ) -> tuple[np.ndarray | None, float, bool]:
        """Best order (as ``above`` (n, n)), its value and whether it is proven optimal,
        optionally forcing ``fix[1]`` above ``fix[0]``. When ``time_limit`` seconds run
        out, the best order found so far (or ``None``) and ``False``."""
        from scipy.optimize import Bounds, milp

        lo, hi = np.zeros(len(self.c)), np.ones(len(self.c))
        if fix is not None:
            i, j = fix
            p = self.pair_id[min(i, j), max(i, j)]
            lo[p] = hi[p] = 1.0 if i > j else 0.0  # j above i
        res = milp(
            self.c,
            integrality=np.ones(len(self.c)),
            bounds=Bounds(lo, hi),
            constraints=self.constraints,
            options=self.options
            if time_limit is None
            else {**self.options, "time_limit": max(float(time_limit), 1e-3)},
        )
        if res.status == 2:  # cannot happen (every pair can be reversed); be explicit
            return None, -np.inf, True
        if res.status not in (0, 1) or (res.status == 1 and time_limit is None):
            raise RuntimeError(f"Kemeny-Young MILP did not prove optimality: {res.message}")
        if res.x is None:  # stopped by the time limit before any feasible order
            return None, -np.inf, False
        x = np.rint(res.x).astype(bool)
        above = np.zeros((self.n, self.n), dtype=bool)
        above[self.iu, self.ju] = x
        above[self.ju, self.iu] = ~x
        return above, -res.fun + self.const, res.status == 0


def _kemeny_value(D: np.ndarray, order: np.ndarray) -> float:
    """Kemeny objective of a strict order (best first): ``Σ_{i above j} Δ_ij``."""
    return float(np.triu(D[np.ix_(order, order)], 1).sum())


def _move_gains(D: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """``change[a, b]``: change of the Kemeny value when the model at position ``a`` moves
    to position ``b``; it flips its pairs with the models in between, so one cumulative
    sum per order gives every move at once."""
    n = len(pi)
    a, b = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    C = np.concatenate([np.zeros((n, 1)), np.cumsum(D[np.ix_(pi, pi)], 1)], 1)
    rows = C[a, :]
    down = -2 * (np.take_along_axis(rows, b[..., None] + 1, -1)[..., 0] - C[a, a + 1])
    up = 2 * (C[a, a] - np.take_along_axis(rows, b[..., None], -1)[..., 0])
    return np.where(b > a, down, up)


def _local_search(D: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Best-improvement insertion moves until none raises the Kemeny value (a local
    optimum no worse than the start)."""
    pi = np.asarray(order)
    for _ in range(50 * len(pi) + 1):
        change = _move_gains(D, pi)
        a, b = np.unravel_index(np.argmax(change), change.shape)
        if change[a, b] <= 0.5:  # Δ are integers: nothing improves
            break
        pi = np.insert(np.delete(pi, a), b, pi[a])
    return pi


def _heuristic_order(D: np.ndarray) -> np.ndarray:
    """The better of the Borda (row sums of Δ) and Copeland (sign of Δ) orders, each
    improved by :func:`_local_search`."""
    starts = [np.argsort(-D.sum(1), kind="stable"), np.argsort(-np.sign(D).sum(1), kind="stable")]
    found = [_local_search(D, o) for o in starts]
    return max(found, key=lambda o: _kemeny_value(D, o))


def _weak_order(D: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``above[i, j]`` of ``order`` (best first) with runs of neighbours at zero margin
    tied: swapping such neighbours keeps the Kemeny value, so the order does not
    separate them (e.g. clones placed next to each other)."""
    run = np.concatenate([[0], np.cumsum(D[order[:-1], order[1:]] != 0)])
    r = np.empty(len(order), dtype=np.int64)
    r[order] = run
    return r[:, None] < r[None, :]


def _kemeny_forced_block(
    D: np.ndarray, deadline: float | None = None
) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(forced, order, exact)`` for one block.

    ``forced[i, j]``: i is above j in every optimal Kemeny order; ``order`` an
    optimal order (best first). When ``deadline`` (a :func:`time.monotonic`
    time) passes before the MILP has proved an optimum and certified every pair,
    ``exact`` is false, ``order`` is the best order found (the MILP's incumbent
    or the improved Borda/Copeland order, whichever is better) and ``forced`` is
    :func:`_weak_order` of it.
    """
    n = D.shape[0]
    if n <= _KEMENY_DP_MAX:
        forced = _kemeny_forced_dp(D)
        return forced, np.argsort(-forced.sum(1), kind="stable"), True

    def remaining() -> float | None:
        return None if deadline is None else deadline - time.monotonic()

    model = _KemenyMILP(D)
    above, best, proven = model.solve(time_limit=remaining())
    if not proven:
        order = _heuristic_order(D)
        if above is not None:
            milp_order = np.argsort(-above.sum(1), kind="stable")
            if _kemeny_value(D, milp_order) >= _kemeny_value(D, order):
                order = milp_order
        return _weak_order(D, order), order, False
    order = np.argsort(-above.sum(1), kind="stable")
    seen = _equal_value_moves(D, order)  # seen[i, j]: a known optimal order puts i above j
    forced = np.zeros((n, n), dtype=bool)
    # Check pairs in the incumbent order, nearest first, so that transitivity of
    # the forced relation settles most far pairs without a solve.
    for gap in range(1, n):
        for a in range(n - gap):
            i, j = order[a], order[a + gap]
            if seen[j, i]:
                continue
            mid = order[a + 1 : a + gap]
            if np.any(forced[i, mid] & forced[mid, j]):
                forced[i, j] = True
                continue
            left = remaining()
            alt, value, done = (
                (None, -np.inf, False)
                if left is not None and left <= 0
                else (model.solve(fix=(i, j), time_limit=left))
            )
            if not done and not (alt is not None and value >= best - 0.5):
                return _weak_order(D, order), order, False  # out of time
            if alt is not None and value >= best - 0.5:  # Δ are integers
                seen |= _equal_value_moves(D, np.argsort(-alt.sum(1), kind="stable"))
            else:
                forced[i, j] = True
    return forced, order, True


def _equal_value_moves(D: np.ndarray, order: np.ndarray, cap: int = 64) -> np.ndarray:
    """Pairs ordered either way among orders reachable from ``order`` by moving one model
    at a time without changing the Kemeny value (a cheap search that spares MILP solves).

    Moving the model at position ``a`` to position ``b`` flips its pairs with the
    models in between, changing the value by ``∓2 Σ Δ`` over them: one cumulative
    sum per order gives every move at once.
    """
    n = len(order)
    seen = np.zeros((n, n), dtype=bool)
    off_diag = ~np.eye(n, dtype=bool)
    frontier, visited = [order], {order.tobytes()}
    while frontier:
        pi = frontier.pop()
        pos = np.argsort(pi)
        seen |= pos[:, None] < pos[None, :]
        change = _move_gains(D, pi)
        for i, j in zip(*np.nonzero((change == 0) & off_diag), strict=True):
            if len(visited) >= cap:
                return seen
            new = np.insert(np.delete(pi, i), j, pi[i])
            if new.tobytes() not in visited:
                visited.add(new.tobytes())
                frontier.append(new)
    return seen


@dataclass(frozen=True)
class KemenyStatus:
    """How a Kemeny-Young result was obtained.

    Attributes
    ----------
    status : {"exact", "time_limited"}
        ``"exact"``: every optimal order is accounted for (ties exactly where
        optimal orders disagree). ``"time_limited"``: the time limit ran out in
        some Condorcet block; the result is the best order found there, with
        ties only where an order of equal value was seen to swap two models.
    order : ndarray of int
        An order of the models (best first) of Kemeny value ``value``: optimal
        when ``status == "exact"``, the best found otherwise.
    value : float
        Its Kemeny objective ``Σ_{i above j} Δ_ij`` (Ranking Reasoning LLMs under Test-Time
        Scaling (2026), eq. 38, up to a constant).
    elapsed : float
        Seconds spent.
    time_limit : float or None
        The limit that applied.
    """

    status: Literal["exact", "time_limited"]
    order: np.ndarray
    value: float
    elapsed: float
    time_limit: float | None


@ranker(
    "voting",
    "Kemeny-Young: orders maximizing pairwise agreement, solved exactly (subset DP or "
    "MILP) within a time limit (else the best order found, labelled); models tie unless "
    "every optimal order separates them (002 eq. 38)",
    variants={
        "kemeny_young_tie_ignore": {"tie_policy": "ignore", "time_limit": KEMENY_TIME_LIMIT},
        "kemeny_young_tie_half": {"tie_policy": "half", "time_limit": KEMENY_TIME_LIMIT},
    },
    extra_output="return_status",
)
def kemeny_young(
    R,
    tie_policy: TiePolicy = "half",
    time_limit: float | None = KEMENY_TIME_LIMIT,
    return_status: bool = False,
):
    """Kemeny-Young (Ranking Reasoning LLMs under Test-Time Scaling (2026), eq. 38), exact within a
    time limit, with ties where the optimum is not unique.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    tie_policy : {"ignore", "half"}
        Per-question ties count 0 or ½ in ``P`` (Ranking Reasoning LLMs under Test-Time
        Scaling (2026), eq. 36). The objective ``Σ_{i above j} P_ij`` differs between the policies
        by a constant only (it depends on ``P`` through the margins ``Δ``), so both give the
        same result.
    time_limit : float or None
        Seconds for the whole solve (default :data:`KEMENY_TIME_LIMIT`); ``None``
        for no limit (exact however long it takes). Blocks of at most 16 models
        are always solved exactly (milliseconds). When the limit runs out in a
        larger block the result is the best order found there, a
        ``RuntimeWarning`` says so and the status is ``"time_limited"``.
    return_status : bool
        Also return a :class:`KemenyStatus`: ``(ranks, scores, status)``.

    Returns
    -------
    scores : ndarray, shape (L,)
        Level scores of the *forced* relation: i is above j iff i precedes j in
        every optimal Kemeny order. Models that some optimal orders put either
        way (e.g. clones, or an exact margin tie) share a level.

    Notes
    -----
    Two exact reductions keep this fast. (1) If every model of a set X beats
    every model outside it by a strict margin, every optimal order puts X
    first (moving X up gains every reversed margin); the strict-majority
    digraph, with both arcs for a zero margin, therefore splits into strongly
    connected blocks ordered by that rule, and each block is solved alone.
    (2) A block of at most 16 models is solved by a dynamic program over
    subsets that yields every optimal order at once; a larger one by
    ``scipy.optimize.milp`` on the linear ordering problem (``n(n-1)/2``
    binaries, ``C(n, 3)`` two-sided triangle rows). There, forced pairs are
    found by re-solving with a pair reversed; each alternative optimum found
    clears all the pairs it reverses, and transitivity settles the rest.
    Out of time, a block's order is the better of the MILP's incumbent and the
    Borda and Copeland orders improved by best-improvement insertion moves, so
    it is never worse in Kemeny value than either of those orders.

    Examples
    --------
    >>> from scorio_core.rank.voting import kemeny_young
    >>> import numpy as np
    >>> R = np.array([[[1], [1], [0]], [[1], [0], [1]], [[0], [0], [0]]])
    >>> kemeny_young(R).tolist()
    [1, 1, 3]
    >>> kemeny_young(R, return_status=True)[2].status
    'exact'
    """
    check_choice("tie_policy", tie_policy, _TIE_POLICIES)
    if time_limit is not None and not (np.isscalar(time_limit) and 0 < time_limit < np.inf):
        raise ValidationError(
            f"time_limit must be a positive number of seconds; got {time_limit!r}"
        )
    start = time.monotonic()
    deadline = None if time_limit is None else start + float(time_limit)
    _, qp = _tallies(R)
    D = (qp.wins - qp.wins.T).astype(float)  # Δ_ij, the same for both tie policies
    L = D.shape[0]
    blocks = _condorcet_blocks(D >= 0)
    forced = np.zeros((L, L), dtype=bool)
    order, exact = [], True
    for b, members in enumerate(blocks):
        later = np.concatenate([np.zeros(0, dtype=np.int64), *blocks[b + 1 :]])
        forced[np.ix_(members, later)] = True
        if len(members) > 1:
            fb, ob, ok = _kemeny_forced_block(D[np.ix_(members, members)], deadline)
            forced[np.ix_(members, members)] = fb
            order.append(members[ob])
            exact &= ok
        else:
            order.append(members)
    order = np.concatenate(order)
    if not exact:
        warnings.warn(
            f"Kemeny-Young: time limit of {time_limit} s reached on {L} models; the ranking "
            "is the best order found, not a proven optimum (pass a larger time_limit, or "
            "None, for the exact result)",
            RuntimeWarning,
            stacklevel=3,
        )
    scores = _level_scores(forced)
    if not return_status:
        return scores
    status = KemenyStatus(
        status="exact" if exact else "time_limited",
        order=order,
        value=_kemeny_value(D, order),
        elapsed=time.monotonic() - start,
        time_limit=None if time_limit is None else float(time_limit),
    )
    return scores, status


def _condorcet_blocks(weak: np.ndarray) -> list[np.ndarray]:
    """Strongly connected components of ``weak`` (i -> j iff Δ_ij >= 0), best block first.

    ``weak`` is semicomplete, so its condensation is a total order: a higher
    component reaches every lower one, so components sort by how many models
    they reach.
    """
    L = weak.shape[0]
    reach = weak | np.eye(L, dtype=bool)
    for i in range(L):  # Warshall closure; the loop over intermediate nodes is sequential
        reach |= reach[:, i, None] & reach[None, i, :]
    rep = (reach & reach.T).argmax(1)  # smallest member of each model's component
    reps = np.unique(rep)
    reps = reps[np.argsort(-reach[reps].sum(1), kind="stable")]
    return [np.flatnonzero(rep == r) for r in reps]


# --------------------------------------------------------------------------- Borda elimination
def _borda_elimination(R, rank_ties: str, rule: str) -> np.ndarray:
    """Round at which each model is eliminated; survivors get the number of rounds.

    Round ``t`` Borda scores over the active set ``A`` are row sums of the
    pairwise Borda points restricted to ``A``, so a round is one masked
    matrix-vector product. The rounds are inherently sequential.
    """
    _, qp = _tallies(R)
    B2 = np.rint(2 * _borda_points(qp, rank_ties)).astype(np.int64)  # exact halves
    L = B2.shape[0]
    active = np.ones(L, dtype=bool)
    out = np.zeros(L)
    t = 0
    while active.sum() > 1:
        s = B2[:, active].sum(1)
        sa = s[active]
        if np.all(sa == sa[0]):
            break  # everyone left is tied: they share the top
        if rule == "nanson":
            drop = active & (s * active.sum() <= sa.sum())  # at or below the mean
        else:
            drop = active & (s == sa.min())
        out[drop] = t
        active &= ~drop
        t += 1
    out[active] = t
    return out


@ranker(
    "voting",
    "Nanson: repeatedly drop every model at or below the mean Borda score (002 App. I.1.4)",
    variants={
        "nanson_rank_ties_average": {"rank_ties": "average"},
        "nanson_rank_ties_max": {"rank_ties": "max"},
    },
)
def nanson(R, rank_ties: str = "average") -> np.ndarray:
    """Nanson's Borda elimination; the score is the round a model is eliminated in.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    rank_ties : {"average", "max", "min"}
        How tied models are ranked within a question when Borda points are
        recomputed over the remaining models (as :func:`scipy.stats.rankdata`
        on descending counts). ``"dense"`` and ``"ordinal"`` are not offered:
        the first is not a pairwise tally and the second depends on the order
        of the models.

    Returns
    -------
    scores : ndarray, shape (L,)
        0 for the models dropped first; the survivors score the number of
        rounds. If all remaining models tie, elimination stops and they share
        the top.

    Examples
    --------
    >>> from scorio_core.rank.voting import nanson
    >>> import numpy as np
    >>> nanson(np.array([[[1, 1]], [[1, 0]], [[0, 0]]])).tolist()
    [1, 2, 2]
    """
    return _borda_elimination(R, rank_ties, "nanson")


@ranker(
    "voting",
    "Baldwin: repeatedly drop every model with the lowest Borda score (002 App. I.1.4)",
    variants={
        "baldwin_rank_ties_average": {"rank_ties": "average"},
        "baldwin_rank_ties_max": {"rank_ties": "max"},
    },
)
def baldwin(R, rank_ties: str = "average") -> np.ndarray:
    """Baldwin's Borda elimination; every model tied at the minimum leaves together.

    Parameters are as for :func:`nanson`; the score is the elimination round.

    Examples
    --------
    >>> from scorio_core.rank.voting import baldwin
    >>> import numpy as np
    >>> baldwin(np.array([[[1, 1]], [[1, 0]], [[0, 0]]])).tolist()
    [1, 2, 3]
    """
    return _borda_elimination(R, rank_ties, "baldwin")


# --------------------------------------------------------------------------- majority judgment
def _majority_value_order(M: int) -> np.ndarray:
    """Positions of a sorted length-M grade list in majority-value order.

    Taking the lower median and removing it, repeatedly, visits the sorted
    positions c, c+1, c-1, c+2, ... (M even) or c, c-1, c+1, c-2, ... (M odd),
    with c = (M - 1) // 2.
    """
    t = np.arange(M)
    step = (t + 1) // 2
    sign = np.where(t % 2 == 1, 1, -1) if M % 2 == 0 else np.where(t % 2 == 1, -1, 1)
    return (M - 1) // 2 + sign * step


@ranker(
    "voting",
    "majority judgment: solve counts as grades, lower median then majority gauge (002 App. I.1.4)",
)
def majority_judgment(R) -> np.ndarray:
    """Majority judgment with grades ``k_lm in {0..N}`` (Balinski & Laraki 2011).

    A model's *majority value* is the sequence of lower medians obtained by
    removing the current median grade one at a time; models are compared
    lexicographically on it, which is exactly "compare medians, and while
    tied remove one median grade from each and compare again". One sort, one
    gather and one lexicographic ``np.unique``.

    Returns
    -------
    scores : ndarray, shape (L,)
        Level scores (``L`` for the best majority value); equal grade
        multisets tie.

    Examples
    --------
    >>> from scorio_core.rank.voting import majority_judgment
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [0, 0], [1, 0]], [[1, 0], [1, 0], [1, 0]]])
    >>> majority_judgment(R).tolist()  # medians 1 and 1; then grades {0, 2} vs {1, 1}
    [2, 1]
    """
    k, _ = _tallies(R)
    mv = np.sort(k, axis=1)[:, _majority_value_order(k.shape[1])]
    _, inv = np.unique(mv, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    return (k.shape[0] - (inv.max() - inv)).astype(float)
