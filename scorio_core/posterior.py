"""The papers' Bayes@N posterior, per model and question (Don't Pass@k (2026), §2, App. A; SPEC §3).

Each model–question pair has the Bayes@N Dirichlet posterior ``θ ~ Dir(ν)`` with
``ν = n + n0`` (``n0 = 1 +`` prior counts from ``R0``), so the per-question score ``θ·w``
has mean ``m = Σ_k ν_k w_k / T`` and variance ``v = (Σ_k ν_k w_k² / T − m²) / (T + 1)``;
``mean_α m`` and ``sqrt(Σ_α v) / M`` are exactly Bayes@N's ``mu`` and ``sigma``.

These are the papers' columns (``bayes_mu``, ``bayes_sigma`` on the leaderboard). The
uniform prior pulls each question towards the prior mean by ``(1 − 2p)/(N + 2)``, so
they are not the headline interval: the calibrated headline in both scopes is
:mod:`scorio_core.inference`.

Example
-------
>>> from scorio_core.posterior import question_moments
>>> import numpy as np
>>> from scorio_core.eval import prepare_counts
>>> n, n0, w = prepare_counts(np.array([[[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]]]), [0, .5, 1])
>>> q = question_moments(n, w, n0)
>>> round(float(q.mu[0]), 6)
0.5625
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .eval import count_mean

__all__ = ["QuestionMoments", "question_moments"]

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
    #: ``mu`` from the Dirichlet totals (:func:`scorio_core.eval.count_mean`: models tied in
    #: exact arithmetic are tied in floats); ``None``: the mean of ``m``
    mean: np.ndarray | None = None

    @property
    def mu(self) -> np.ndarray:
        """Bayes@N posterior mean per model (both scopes), shape ``(L,)``."""
        return self.m.mean(-1) if self.mean is None else self.mean


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
    >>> from scorio_core.posterior import question_moments
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
    mean = w[0] + np.atleast_1d(count_mean(nu.sum(-2), dw, T * nu.shape[-2]))
    return QuestionMoments(np.atleast_2d(m), np.atleast_2d(v), T, float(w[0]), mean)
