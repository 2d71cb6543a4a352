"""One tie-aware conversion from scores to ranks, used by every ranker."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from ._validation import ValidationError, as_numbers, checked_keywords

__all__ = ["NOISE_FLOOR", "RankMethod", "rank_scores", "rank_scores_batch", "tie_groups"]

RankMethod = Literal["competition", "competition_max", "dense", "avg"]
_METHODS = ("competition", "competition_max", "dense", "avg")

#: Absolute gap below which two scores are float noise of one value. Scores on a unit
#: scale (abilities, log-strengths, accuracies, payoffs) that are equal in exact
#: arithmetic come out of sums and optimisers a few ulps of their O(1) intermediates
#: apart (e.g. -2e-12, 0, 6e-14 for three interchangeable models), while real
#: differences are at least ~1/(M·N) >= 1e-9 even for 10^9 outcomes. Methods whose
#: scores are masses or probabilities that may legitimately be tiny (stationary laws,
#: Pass@k-type values with large k) register ``tie_floor=0.0`` and keep relative ties only.
NOISE_FLOOR = 1e-10


def tie_groups(
    scores: np.ndarray, rtol: float = 1e-9, atol: float = 1e-12, floor: float = NOISE_FLOOR
) -> np.ndarray:
    """Group id (0 = best) of each model; scores closer than the tolerance are tied.

    Iterative estimators land on "equal" scores that differ in the last bits,
    so ties are detected with a tolerance between neighbours in sorted order:
    ``floor + atol·max|score| + rtol·max(|a|, |b|)``. ``floor`` is an absolute
    noise floor (:data:`NOISE_FLOOR`); ``atol`` is relative to the largest
    ``|score|``. With ``floor=0`` methods whose scores are all tiny (e.g.
    stationary masses of 1e-200) keep their distinctions.
    """
    order = np.argsort(-scores, kind="stable")
    s = scores[order]
    gap = s[:-1] - s[1:]
    scale = float(np.max(np.abs(s))) if s.size else 0.0
    tol = floor + atol * scale + rtol * np.maximum(np.abs(s[:-1]), np.abs(s[1:]))
    sorted_group = np.concatenate([[0], np.cumsum(gap > tol)])
    groups = np.empty_like(sorted_group)
    groups[order] = sorted_group
    return groups


@checked_keywords
def rank_scores(
    scores: Sequence[float] | np.ndarray | str, method: RankMethod = "competition", *,
    floor: float = NOISE_FLOOR,
) -> np.ndarray:
    """Ranks (1 = best) from scores (higher = better).

    ``competition`` 1,2,2,4 · ``competition_max`` 1,3,3,4 · ``dense`` 1,2,2,3 ·
    ``avg`` 1,2.5,2.5,4. NaN scores are refused: a ranker that produced one failed.
    ``scores``: an array, a list or one comma-separated string (``"0.9,0.5"``).
    Scores closer than the tolerance of :func:`tie_groups` tie; ``floor`` is its
    absolute noise floor (``0.0`` for scores that may legitimately be tiny).

    Examples
    --------
    >>> from scorio_core._ties import rank_scores
    >>> rank_scores([0.9, 0.5, 0.5, 0.1]).tolist()
    [1, 2, 2, 4]
    >>> rank_scores([0.9, 0.5, 0.5, 0.1], "avg").tolist()
    [1.0, 2.5, 2.5, 4.0]
    >>> rank_scores([-2e-12, 0.0, 6e-14]).tolist()  # float noise of one value
    [1, 1, 1]
    >>> rank_scores([3e-200, 2e-200, 1e-200], floor=0.0).tolist()
    [1, 2, 3]
    """
    s = np.asarray(scores if isinstance(scores, np.ndarray)  # the rankers' path: as it is
                   else as_numbers(scores, "scores", kind=float, example="0.9,0.5"), dtype=float)
    if s.ndim != 1:
        raise ValidationError(f"scores must be 1-D; got shape {s.shape}")
    if method not in _METHODS:
        raise ValidationError(f"method must be one of {', '.join(_METHODS)}; got {method!r}")
    if not np.all(np.isfinite(s)):
        raise ValidationError(f"scores must be finite to be ranked; got {s.tolist()}")
    if not (np.isfinite(floor) and floor >= 0):
        raise ValidationError(f"floor must be a finite number >= 0; got {floor!r}")
    g = tie_groups(s, floor=floor)
    if method == "dense":
        return g + 1
    size = np.bincount(g)
    before = np.concatenate([[0], np.cumsum(size)[:-1]])  # models strictly better than group
    if method == "competition":
        return before[g] + 1
    if method == "competition_max":
        return before[g] + size[g]
    return before[g] + (size[g] + 1) / 2.0


def rank_scores_batch(
    scores, rtol: float = 1e-9, atol: float = 1e-12, floor: float = NOISE_FLOOR
) -> np.ndarray:
    """Competition ranks of every row of ``scores (..., L)``, as :func:`rank_scores` per row.

    The same neighbour-gap tie rule as :func:`tie_groups`, vectorized over the
    leading (replicate, step) axes. Rows containing NaN get rank 0 everywhere
    (the caller decides what an undefined ranking means).

    >>> from scorio_core._ties import rank_scores_batch
    >>> rank_scores_batch([[0.9, 0.5, 0.5, 0.1], [1.0, 2.0, 3.0, 3.0]]).tolist()
    [[1, 2, 2, 4], [4, 3, 1, 1]]
    """
    S = np.asarray(scores, dtype=float)
    if S.ndim < 1 or S.shape[-1] < 1:
        raise ValidationError(f"scores must have a model axis; got shape {S.shape}")
    order = np.argsort(-S, axis=-1, kind="stable")
    s = np.take_along_axis(S, order, axis=-1)
    gap = s[..., :-1] - s[..., 1:]
    scale = np.max(np.abs(s), axis=-1, keepdims=True)
    tol = floor + atol * scale + rtol * np.maximum(np.abs(s[..., :-1]), np.abs(s[..., 1:]))
    pos = np.arange(S.shape[-1])
    first = np.concatenate([np.ones(S.shape[:-1] + (1,), bool), gap > tol], axis=-1)
    start = np.maximum.accumulate(np.where(first, pos, 0), axis=-1)
    ranks = np.empty(S.shape, dtype=np.int64)
    np.put_along_axis(ranks, order, start + 1, axis=-1)
    bad = ~np.isfinite(S).all(axis=-1)
    if bad.any():
        ranks[bad] = 0
    return ranks
