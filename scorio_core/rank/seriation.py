"""SerialRank: spectral seriation of the comparison matrix (Ranking Reasoning LLMs under Test-Time
Scaling (2026), App. I.1.10, eqs. 66-67).

The skew-symmetric comparison matrix ``C`` comes from the shared trial-level
tallies (:func:`~scorio_core.rank._stats.trial_pairs`); the similarity
``S = ½(L·11ᵀ + CCᵀ)`` counts how alike two models' comparison profiles are,
and the order is read off the Fiedler vector of its Laplacian. Every
``S_ij ≥ 1``, so the similarity graph is connected and the smallest Laplacian
eigenvalue (the constant vector) is simple.

In the binary setting with ``comparison="prob_diff"``, ``C_ij = a_i - a_j`` and
the Fiedler vector is exactly the centred accuracy vector (eigenvalue ``L²/2``
against ``L(L + |a - ā|²)/2`` for the rest of ``1^⊥``).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_choice
from ._stats import as_binary, trial_pairs
from .graph import _tie_average
from .registry import ranker

__all__ = ["serial_rank"]

# relative gap below which the Fiedler eigenvalue counts as repeated (LAPACK's
# eigenvalues are accurate to ~1e-16 of the largest)
_SIMPLE_GAP = 1e-12


@ranker(
    "seriation",
    "SerialRank: order of the Fiedler vector of the comparison-similarity Laplacian "
    "(002 eqs. 66-67)",
    variants={
        "serial_rank_prob_diff": {"comparison": "prob_diff"},
        "serial_rank_sign": {"comparison": "sign"},
    },
)
def serial_rank(R, comparison: str = "prob_diff"):
    """SerialRank scores: the oriented Fiedler vector of ``L_S = diag(S1) - S``.

    ``C_ij = (W_ij - W_ji) / (W_ij + W_ji + T_ij)`` (``"prob_diff"``, eq. 66) or
    ``sign(W_ij - W_ji)`` (``"sign"``); ``S = ½(L·11ᵀ + CCᵀ)`` (eq. 67). The
    sign of the Fiedler vector ``f`` is chosen to agree with the observed
    comparisons: ``f · (C1) > 0``, where ``C1`` is each model's net comparison
    score (if that is 0, by the number of pairs ``f`` orders as ``C`` does).

    If the Fiedler eigenvalue is repeated the seriation is not identifiable;
    the scores are then the net comparison scores ``C1`` themselves (in the
    binary setting these order models by accuracy, as the reference's fallback
    does). With two models ``1^⊥`` is one-dimensional, the Fiedler vector is
    ``±(e_1 - e_2)`` and the oriented scores are ``C1`` (0 and 0 when the two are
    level); with one model the score is 0.

    Examples
    --------
    >>> from scorio_core.rank.seriation import serial_rank
    >>> import numpy as np
    >>> serial_rank(np.array([[[1, 1], [1, 0]], [[0, 0], [0, 1]]])).tolist()
    [1, 2]
    """
    check_choice("comparison", comparison, ("prob_diff", "sign"))
    tp = trial_pairs(as_binary(R))
    W = tp.wins.astype(float)
    L = W.shape[0]
    D = W - W.T
    if comparison == "sign":
        C = np.sign(D)
    else:
        C = np.divide(D, tp.total, out=np.zeros_like(D), where=tp.total > 0)
    g = C.sum(1)
    if L < 3:  # 1^⊥ has dimension L - 1 <= 1: the Fiedler vector is ±(e_1 - e_2)
        return _tie_average(g, C)
    S = 0.5 * (L + C @ C.T)
    lap = np.diag(S.sum(1)) - S
    vals, vecs = np.linalg.eigh(lap)
    if vals[2] - vals[1] <= _SIMPLE_GAP * max(vals[-1], 1.0):
        return _tie_average(g, C)
    f = vecs[:, 1]
    orient = f @ g
    if orient == 0:
        orient = np.sum(np.sign(C) * np.sign(f[:, None] - f[None, :]))
    if orient == 0:
        return _tie_average(g, C)
    return _tie_average(np.sign(orient) * f, C)
