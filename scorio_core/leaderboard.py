"""The CI-aware leaderboard: one vectorized call over the whole ``(L, M, N)`` tensor.

:func:`leaderboard` is what the Leaderboard page and ``scorio-studio
leaderboard`` show; a notebook gets the identical table with the same call.

Example
-------
>>> import numpy as np
>>> from scorio_core.leaderboard import leaderboard
>>> R = np.random.default_rng(0).integers(0, 2, size=(3, 10, 8))
>>> board = leaderboard(R, models=["a", "b", "c"], ks=(2,))
>>> list(board.table.columns)[:6]
['model', 'rank_ci', 'mu', 'sigma', 'lo', 'hi']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from . import decision
from . import eval as ev
from ._validation import ValidationError, as_outcome_array
from .outcomes import Outcomes

__all__ = ["Leaderboard", "leaderboard", "COLUMN_HELP"]

#: One-line meaning of each column, shown as help in the app and in exports.
COLUMN_HELP = {
    "model": "model name",
    "rank_ci": "CI-aware rank: adjacent models whose z-score is below the threshold share a rank",
    "mu": "Bayes@N posterior mean of the weighted score",
    "sigma": "Bayes@N posterior standard deviation",
    "lo": "lower end of the central credible interval",
    "hi": "upper end of the central credible interval",
    "rank_overlap": "arena rule: 1 + number of models whose interval lies entirely above",
    "rank_mu": "strict rank by the posterior mean alone (ties share)",
    "avg": "avg@N: mean weighted score over all trials",
    "z_next": "z-score against the next model down",
    "n_needed": "trials per question for the gap to the next model to reach the threshold",
}


@dataclass(frozen=True)
class Leaderboard:
    """Result of :func:`leaderboard`.

    Every column is computed eagerly as a NumPy array (``columns``); the pandas
    ``table`` and the ``L × L`` matrices are built on first access and cached.

    Attributes
    ----------
    columns : dict of str -> numpy.ndarray
        One entry per column, rows sorted by ``mu`` descending.
    mu, sigma : numpy.ndarray, shape (L,)
        Bayes@N in the original model order (``models``).
    models : tuple of str
        Original model order (rows/columns of the matrices).
    settings : dict
        The inputs that produced the table (for exports and reports).
    """

    columns: dict[str, np.ndarray]
    mu: np.ndarray
    sigma: np.ndarray
    models: tuple[str, ...]
    settings: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def table(self) -> pd.DataFrame:
        """One row per model, sorted by ``mu`` descending (column meanings: ``COLUMN_HELP``)."""
        return pd.DataFrame(self.columns)

    @cached_property
    def prob_better(self) -> np.ndarray:
        """``P(model i > model j)`` under the normal posteriors, original model order."""
        return decision.prob_better_matrix(self.mu, self.sigma)

    def unresolved(self) -> pd.DataFrame:
        """Adjacent pairs (leaderboard order) whose z is below the threshold.

        Columns: ``better, next, gap, z, trials_needed`` (trials per question at
        which the gap would reach the threshold if the per-question rates held;
        ``inf`` for identical means).
        """
        c = self.columns
        if len(c["model"]) < 2:
            return pd.DataFrame(columns=["better", "next", "gap", "z", "trials_needed"])
        pairs = pd.DataFrame(
            {
                "better": c["model"][:-1],
                "next": c["model"][1:],
                "gap": c["mu"][:-1] - c["mu"][1:],
                "z": c["z_next"][:-1],
                "trials_needed": c["n_needed"][:-1],
            }
        )
        return pairs[pairs["z"] < self.settings["z_threshold"]].reset_index(drop=True)

    @cached_property
    def z(self) -> np.ndarray:
        """Pairwise ``|z|`` matrix, original model order."""
        return decision.z_matrix(self.mu, self.sigma)


def leaderboard(
    data: Outcomes | np.ndarray,
    *,
    w=None,
    R0=None,
    use_prior: bool = False,
    confidence: float = 0.95,
    ks: Sequence[int] = (),
    models: Sequence[str] | None = None,
    bounds: tuple[float, float] | None = None,
) -> Leaderboard:
    """Bayes@N mean, s.d., interval and CI-aware ranks for every model at once.

    Parameters
    ----------
    data : Outcomes or array_like (L, M, N)
    w : array_like, optional
        Category weights (default: the dataset's weights, else ``[0, 1]``).
    R0 : array_like, optional
        Prior outcomes; with an :class:`Outcomes`, ``use_prior=True`` takes its ``R0``.
    confidence : float
        Credible level of the interval (two-sided) and ranking confidence of the
        CI-aware rank (one-sided z threshold, 1.645 at 0.95, as in 000 §2.7.1).
    ks : sequence of int
        Pass@k columns to add (binary data only; silently skipped for
        categorical data would hide a mistake, so it raises instead).
    bounds : (lo, hi), optional
        Clip intervals; default the range of the weights.

    Returns
    -------
    Leaderboard
    """
    if isinstance(data, Outcomes):
        R = data.R
        w = data.weights if w is None else w
        if use_prior:
            if R0 is None and data.R0 is None:
                raise ValidationError("use_prior=True but this dataset has no R0 (greedy) outcomes")
            R0 = data.R0 if R0 is None else R0
        models = data.models if models is None else models
    else:
        R = as_outcome_array(data, min_ndim=2, max_ndim=3)
        if R.ndim == 2:
            R = R[None]
    L = R.shape[0]
    models = tuple(models) if models is not None else tuple(f"model_{i}" for i in range(L))
    if len(models) != L:
        raise ValidationError(f"expected {L} model names; got {len(models)}")
    # counts first: one validation and one pass over R; every column comes from them
    n, n0, wv = ev.prepare_counts(R, w, R0)
    if bounds is None:
        bounds = (float(wv.min()), float(wv.max()))
    N = R.shape[-1]
    post = ev.bayes_from_counts(n, wv, n0)
    mu, sigma = np.atleast_1d(post.mu), np.atleast_1d(post.sigma)
    z = ev.z_value(confidence)
    lo, hi = np.clip(mu - z * sigma, *bounds), np.clip(mu + z * sigma, *bounds)
    a = (n @ wv).sum(-1) / (n.shape[-2] * N)  # avg@N; its sigma is not a column

    order = np.argsort(-mu, kind="stable")
    cols: dict[str, Any] = {
        "model": np.asarray(models, dtype=object)[order],
        "rank_ci": decision.ci_aware_ranks(mu, sigma, confidence)[order],
        "mu": mu[order],
        "sigma": sigma[order],
        "lo": lo[order],
        "hi": hi[order],
        "rank_overlap": decision.overlap_ranks(lo, hi)[order],
        "rank_mu": decision.point_ranks(mu)[order],
        "avg": np.atleast_1d(a)[order],
    }
    if ks:
        if wv.size != 2:
            raise ValidationError(
                f"Pass@k columns need binary outcomes; these data have {wv.size} categories"
            )
        c = n[..., 1]
        for k in ks:
            cols[f"pass@{int(k)}"] = np.atleast_1d(ev.pass_from_counts(c, N, k))[order]
    if L > 1:
        need = decision.trials_needed_from(mu, sigma, N, post.T, confidence)
        # need.* follow the same descending-mu order; the last model has no next one
        cols["z_next"] = np.append(need.z_now, np.nan)
        cols["n_needed"] = np.append(need.n_needed, np.nan)
    settings = {
        "confidence": confidence,
        "z_threshold": decision.z_threshold(confidence),
        "weights": wv.tolist(),
        "prior": "none" if R0 is None else f"R0 with D={np.shape(R0)[-1]}",
        "ks": list(ks),
        "shape": list(R.shape),
    }
    return Leaderboard(columns=cols, mu=mu, sigma=sigma, models=models, settings=settings)
