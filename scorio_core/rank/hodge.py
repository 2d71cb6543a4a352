"""HodgeRank: least-squares potentials of the comparison flow (Ranking Reasoning LLMs under
Test-Time Scaling (2026), App. I.1.11, eqs. 68-69).

The edge flow ``Y`` (skew-symmetric; ``Y_ij > 0`` means ``j`` is better) and
the symmetric edge weights ``w`` come from the shared trial-level tallies
(:func:`~scorio_core.rank._stats.trial_pairs`). The weighted least-squares
problem ``min_s Σ_{i<j} w_ij ((s_j - s_i) - Y_ij)²`` has the normal equations
``Δ₀ s = -div Y`` with the graph Laplacian ``Δ₀ = diag(w1) - w`` and
``(div Y)_i = Σ_j w_ij Y_ij``. The minimum-norm solution (Moore-Penrose in Ranking Reasoning
LLMs under Test-Time Scaling (2026)) is computed exactly with one linear solve,
``(Δ₀ + Π) s = -div Y``, where
``Π = Σ_c 1_c 1_cᵀ / |c|`` projects onto the Laplacian's null space (one
indicator per connected component): ``Δ₀ + Π`` is invertible and its solution
has mean 0 on every component, which is what the pseudoinverse returns.

With ``pairwise_stat="binary"`` in the binary setting, ``Y_ij = a_j - a_i`` is
an exact gradient: the potentials are the centred accuracies for every
weighting and the cyclic part of the flow is 0.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validation import ValidationError, check_choice
from ._stats import as_binary, trial_pairs
from .graph import _closure, _tie_average
from .registry import ranker

__all__ = ["HodgeDiagnostics", "hodge_rank"]


class HodgeDiagnostics(NamedTuple):
    """How much of the comparison flow the global ranking explains.

    ``residual_l2 = ‖Y - grad s‖_{2,w}`` and ``relative_residual_l2`` (divided
    by ``‖Y‖_{2,w}``; 0 when the flow is 0) match the reference package's
    keys; ``cyclic_fraction`` is the share of the flow's weighted energy left
    in the curl and harmonic parts, ``relative_residual_l2²`` (0: the
    comparisons are perfectly consistent with one ranking); ``n_components``
    counts the connected components of the weighted comparison graph (scores
    are comparable only within one).
    """

    residual_l2: float
    relative_residual_l2: float
    cyclic_fraction: float
    n_components: int

    def __getitem__(self, key):  # also readable like the reference's dict
        return getattr(self, key) if isinstance(key, str) else tuple.__getitem__(self, key)


def _hodge(R, pairwise_stat="binary", weight_method="total", epsilon=0.5):
    check_choice("pairwise_stat", pairwise_stat, ("binary", "log_odds"))
    check_choice("weight_method", weight_method, ("total", "decisive", "uniform"))
    if pairwise_stat == "log_odds" and not (np.isfinite(epsilon) and epsilon > 0):
        raise ValidationError(
            f"epsilon must be a positive pseudocount for pairwise_stat='log_odds'; got {epsilon!r}"
        )
    tp = trial_pairs(as_binary(R))
    W, T, tot = tp.wins.astype(float), tp.ties.astype(float), tp.total.astype(float)
    edge = tot > 0
    if pairwise_stat == "binary":  # eq. 68: P̂(j > i) - P̂(i > j)
        Y = np.divide(W.T - W, tot, out=np.zeros_like(W), where=edge)
    else:  # log P(j >= i) / P(j <= i), ties on both sides, eps-smoothed counts
        Y = np.where(edge, np.log((W.T + T + epsilon) / (W + T + epsilon)), 0.0)
    if weight_method == "total":
        w = tot
    elif weight_method == "decisive":
        w = W + W.T
    else:
        w = edge.astype(float)
    np.fill_diagonal(w, 0.0)
    L = w.shape[0]
    lap = np.diag(w.sum(1)) - w
    div = (w * Y).sum(1)
    conn = w > 0
    if conn.sum() == L * (L - 1):
        comp, n_comp = np.zeros(L, dtype=int), 1
    else:
        _, comp = np.unique(_closure(conn).argmax(1), return_inverse=True)
        comp = comp.ravel()
        n_comp = int(comp.max()) + 1
    ind = comp[:, None] == comp[None, :]
    proj = ind / ind.sum(1, keepdims=True)
    s = np.linalg.solve(lap + proj, -div)
    resid = Y - (s[None, :] - s[:, None])
    r2 = 0.5 * np.sum(w * resid**2)
    y2 = 0.5 * np.sum(w * Y**2)
    rel2 = r2 / y2 if y2 > 0 else 0.0
    diag = HodgeDiagnostics(
        residual_l2=float(np.sqrt(r2)),
        relative_residual_l2=float(np.sqrt(rel2)),
        cyclic_fraction=float(rel2),
        n_components=n_comp,
    )
    return _tie_average(s, Y, w), diag


_VARIANTS = {
    f"hodge_rank_{stat}_{wm}": {
        "pairwise_stat": stat,
        "weight_method": wm,
        **({"epsilon": 0.5} if stat == "log_odds" else {}),
        "return_diagnostics": False,
    }
    for stat in ("binary", "log_odds")
    for wm in ("total", "decisive", "uniform")
}


@ranker(
    "hodge",
    "HodgeRank: weighted least-squares potentials whose gradient best fits the pairwise "
    "flow (002 eqs. 68-69)",
    variants=_VARIANTS,
    extra_output="return_diagnostics",
)
def hodge_rank(
    R,
    pairwise_stat: str = "binary",
    weight_method: str = "total",
    epsilon: float = 0.5,
    return_diagnostics: bool = False,
):
    """HodgeRank potentials ``s`` (higher is better), minimum-norm (Ranking Reasoning LLMs under
    Test-Time Scaling (2026), eq. 69).

    Parameters
    ----------
    R : array_like, (L, M, N) or (L, M)
        Binary outcomes.
    pairwise_stat : {"binary", "log_odds"}
        ``"binary"``: ``Y_ij = P̂(j ≻ i) - P̂(i ≻ j) = (W_ji - W_ij) / n_ij`` (eq. 68).
        ``"log_odds"``: ``Y_ij = log((W_ji + T_ij + ε) / (W_ij + T_ij + ε))``, the
        log-ratio of "j at least as good" to "i at least as good" with ``ε``
        pseudocounts.
    weight_method : {"total", "decisive", "uniform"}
        ``w_ij`` = all matches ``n_ij``, decisive matches ``W_ij + W_ji``, or 1 on
        every compared pair.
    epsilon : float
        Pseudocount for ``"log_odds"`` (must be > 0 there).
    return_diagnostics : bool
        Return ``(ranks, scores, HodgeDiagnostics)``.

    Notes
    -----
    Where ``w`` disconnects the models (``"decisive"`` when all models are
    identical) each component's potentials have mean 0, as with the
    pseudoinverse; ``n_components`` in the diagnostics reports it.

    Examples
    --------
    >>> from scorio_core.rank.hodge import hodge_rank
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 0]], [[0, 1], [0, 0]], [[1, 0], [0, 1]]])
    >>> ranks, scores, diag = hodge_rank(R, return_diagnostics=True)
    >>> ranks.tolist(), (scores.round(4) + 0.0).tolist(), round(diag.cyclic_fraction, 12)
    ([1, 3, 2], [0.25, -0.25, 0.0], 0.0)
    """
    scores, diagnostics = _hodge(R, pairwise_stat, weight_method, epsilon)
    return (scores, diagnostics) if return_diagnostics else scores
