"""The shared statistics layer: every ranker reads these, each built once, vectorized.

Input ``R`` is a binary tensor ``(L, M, N)`` (``(L, M)`` is promoted to ``N = 1``).

* :func:`solve_counts` — ``k[l, m] = Σ_n R[l, m, n]`` (per-question successes).
* :func:`trial_pairs` — per-trial pairwise tallies over all ``(m, n)``:
  ``wins[i, j] = #{R_i = 1, R_j = 0}``, ``both_correct``, ``both_wrong``.
* :func:`question_pairs` — per-question tallies on ``k``: ``wins[i, j] =
  #{m : k_im > k_jm}`` and ``ties`` (the "voter" view of Ranking Reasoning LLMs under Test-Time
  Scaling (2026), §I.1.4).
* :func:`setwise_events` — each ``(m, n)`` splits the models into a correct
  set and an incorrect set; identical splits are merged with multiplicities
  (the Luce-family likelihoods of Ranking Reasoning LLMs under Test-Time Scaling (2026), §I.1.7 read
  these).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validation import ValidationError, as_outcome_array, binary_array_next

__all__ = [
    "as_binary",
    "solve_counts",
    "TrialPairs",
    "trial_pairs",
    "QuestionPairs",
    "question_pairs",
    "SetwiseEvents",
    "setwise_events",
]


def as_binary(R, *, min_models: int = 1) -> np.ndarray:
    """Validate a binary outcome tensor; ``(L, M)`` becomes ``(L, M, 1)``."""
    a = as_outcome_array(R, name="R", min_ndim=2, max_ndim=3)
    if a.ndim == 2:
        a = a[:, :, None]
    if a.max() > 1:
        raise ValidationError(
            f"rankers need binary outcomes (0/1); found category {int(a.max())}. "
            + binary_array_next(a, "Rank the categories as they are with rank.bayes(R, w={w})"))
    if a.shape[0] < min_models:
        raise ValidationError(f"need at least {min_models} models; got {a.shape[0]}")
    return a.astype(np.int8, copy=False)


def solve_counts(R: np.ndarray) -> np.ndarray:
    """``k[l, m]``: correct trials of model ``l`` on question ``m``."""
    return R.sum(-1, dtype=np.int64)


class TrialPairs(NamedTuple):
    wins: np.ndarray  # (L, L) i correct and j wrong, summed over questions and trials
    both_correct: np.ndarray  # (L, L)
    both_wrong: np.ndarray  # (L, L)

    @property
    def ties(self) -> np.ndarray:
        return self.both_correct + self.both_wrong

    @property
    def total(self) -> np.ndarray:
        return self.wins + self.wins.T + self.ties


#: Columns (question-trials) per block of :func:`trial_pairs`: float32 products of 0/1
#: vectors are exact below 2^24, and the block (L × 8192 float32) stays small.
_PAIR_BLOCK = 8192


def trial_pairs(R: np.ndarray) -> TrialPairs:
    """Pairwise tallies over all ``M·N`` (question, trial) matches, via matmuls.

    ``both = X Xᵀ`` is accumulated over blocks of columns in float32 (exact: each
    block sums fewer than 2^24 ones) into int64, so the extra memory is one
    ``(L, block)`` float32 slice rather than a float64 copy of ``R``.
    """
    X = R.reshape(R.shape[0], -1)
    L, n = X.shape
    both = np.zeros((L, L), dtype=np.int64)
    for start in range(0, n, _PAIR_BLOCK):
        B = X[:, start : start + _PAIR_BLOCK].astype(np.float32)
        both += np.rint(B @ B.T).astype(np.int64)
    c = X.sum(1, dtype=np.int64)
    wins = c[:, None] - both  # i correct minus both correct = i correct, j wrong
    both_wrong = n - c[:, None] - c[None, :] + both
    out = TrialPairs(wins, both, both_wrong)
    for a in out:
        np.fill_diagonal(a, 0)
    return out


class QuestionPairs(NamedTuple):
    wins: np.ndarray  # (L, L) number of questions where k_i > k_j
    ties: np.ndarray  # (L, L) number of questions where k_i == k_j (0 on the diagonal)
    margin_sum: np.ndarray  # (L, L) Σ_m (k_im - k_jm)


#: Cells of the ``(rows, L, M)`` difference block of :func:`question_pairs`.
_QP_BLOCK_CELLS = 1 << 22


def question_pairs(k: np.ndarray) -> QuestionPairs:
    """Per-question ("voter") pairwise tallies from solve counts ``k (L, M)``.

    The ``(L, L, M)`` differences are formed a block of rows at a time, in int16
    where the counts fit (``N < 2^15``), so memory stays ~8 MB whatever ``L·L·M``.
    ``margin_sum`` needs no differences: ``Σ_m (k_im - k_jm) = s_i - s_j``.
    """
    k = np.asarray(k)
    L, M = k.shape
    small = k.size == 0 or int(k.max(initial=0)) < np.iinfo(np.int16).max
    kk = k.astype(np.int16 if small else np.int64, copy=False)
    wins = np.empty((L, L), dtype=np.int64)
    ties = np.empty((L, L), dtype=np.int64)
    step = max(1, _QP_BLOCK_CELLS // max(L * M, 1))
    for i in range(0, L, step):
        d = kk[i : i + step, None, :] - kk[None, :, :]
        wins[i : i + step] = np.count_nonzero(d > 0, axis=-1)
        ties[i : i + step] = np.count_nonzero(d == 0, axis=-1)
    np.fill_diagonal(ties, 0)
    s = k.sum(1, dtype=np.int64)
    return QuestionPairs(wins, ties, s[:, None] - s[None, :])


class SetwiseEvents(NamedTuple):
    """Distinct correct/incorrect splits of the models and how often each occurred."""

    correct: np.ndarray  # (E, L) bool: the models correct in this split
    count: np.ndarray  # (E,) multiplicity over (question, trial)


def setwise_events(R: np.ndarray, *, informative_only: bool = True) -> SetwiseEvents:
    """Merge the ``M·N`` splits; ``informative_only`` drops all-correct/all-wrong splits."""
    X = R.reshape(R.shape[0], -1).T.astype(bool)  # (M*N, L)
    rows, count = _unique_rows(X)
    if informative_only:
        n_corr = rows.sum(1)
        keep = (n_corr > 0) & (n_corr < rows.shape[1])
        rows, count = rows[keep], count[keep]
    return SetwiseEvents(rows, count)


def _unique_rows(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    packed = np.packbits(X, axis=1)
    _, idx, count = np.unique(packed, axis=0, return_index=True, return_counts=True)
    return X[idx], count
