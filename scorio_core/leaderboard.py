"""The CI-aware leaderboard: one vectorized call over the whole ``(L, M, N)`` tensor.

:func:`leaderboard` is what the Leaderboard page and ``scorio-studio
leaderboard`` show; a notebook gets the identical table with the same call.

Example
-------
>>> import numpy as np
>>> from scorio_core.leaderboard import leaderboard
>>> R = np.random.default_rng(0).integers(0, 2, size=(3, 10, 8))
>>> board = leaderboard(R, models=["a", "b", "c"], ks=(2,))
>>> list(board.table.columns)[:8]
['model', 'rank', 'rank_lo', 'rank_hi', 'p_best', 'mu', 'sigma', 'lo']
>>> board.settings["scope"]
'questions'
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
from ._validation import ValidationError, as_outcome_array, unique_names
from .outcomes import Outcomes, check_name
from .posterior import SCOPES, JointPosterior, posterior_from_moments, question_moments

__all__ = ["Leaderboard", "leaderboard", "prior_note", "COLUMN_HELP"]

#: One-line meaning of each column, shown as help in the app and in exports.
COLUMN_HELP = {
    "model": "model name",
    "rank": "headline rank = rank_lo: 1 + number of models that decidedly beat this one",
    "rank_lo": "best rank the data allow: 1 + number of models that beat this one at the "
    "chosen confidence",
    "rank_hi": "worst rank the data allow: L - number of models this one beats at the confidence",
    "p_best": "posterior probability of being first (joint draws)",
    "mu": "Bayes@N posterior mean of the weighted score (pulled towards the prior when N is "
    "small)",
    "sigma": "posterior standard deviation in the stated scope",
    "lo": "lower end of the central credible interval",
    "hi": "upper end of the central credible interval",
    "avg": "avg@N: mean weighted score over all trials (no prior)",
    "rank_chain": "000 §2.7.1 adjacent rule: neighbours whose z is below the threshold share a "
    "rank (can chain many decided models into one rank)",
    "rank_overlap": "arena rule: 1 + number of models whose interval lies entirely above",
    "rank_mu": "strict rank by the posterior mean alone (ties share)",
    "z_next": "z-score against the next model down (stated scope)",
    "n_needed": "trials per question for the gap to the next model to reach the threshold "
    "(questions scope, 000 App. D)",
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
    posterior: JointPosterior | None = None
    decided: np.ndarray | None = None

    @cached_property
    def table(self) -> pd.DataFrame:
        """One row per model, sorted by ``mu`` descending (column meanings: ``COLUMN_HELP``)."""
        return pd.DataFrame(self.columns)

    @cached_property
    def prob_better(self) -> np.ndarray:
        """``P(model i > model j)`` in the board's scope, original model order."""
        if self.posterior is not None:
            return self.posterior.prob_better
        return decision.prob_better_matrix(self.mu, self.sigma)

    def rank_distribution(self) -> pd.DataFrame:
        """``P(rank = r)`` per model (rows in table order, columns ``1..L``) from the joint
        draws of the board's scope."""
        idx = {m: i for i, m in enumerate(self.models)}
        rows = [idx[m] for m in self.columns["model"]]
        rd = self.posterior.rank_dist[rows]
        ranks = range(1, rd.shape[1] + 1)
        return pd.DataFrame(rd, index=list(self.columns["model"]), columns=ranks)

    def chained_conflicts(self) -> list[tuple[str, str]]:
        """``(winner, loser)`` pairs that ``rank_chain`` puts in one rank although decided."""
        ranks = dict(zip(self.columns["model"], self.columns["rank_chain"], strict=True))
        chain = np.array([ranks[m] for m in self.models])
        return decision.chained_conflicts(chain, self.decided, self.models)

    def unresolved(self) -> pd.DataFrame:
        """Adjacent pairs (leaderboard order) that the decision rule leaves undecided.

        Columns: ``better, next, gap, z, p_better`` (``P(better > next)`` in the board's
        scope) and ``trials_needed`` (trials per question at which the gap would
        reach the threshold in the questions scope if the per-question rates
        held; ``inf`` for identical means). The Planner adds questions needed.
        """
        c = self.columns
        cols = ["better", "next", "gap", "z", "p_better", "trials_needed"]
        if len(c["model"]) < 2:
            return pd.DataFrame(columns=cols)
        idx = {m: i for i, m in enumerate(self.models)}
        up = np.array([idx[m] for m in c["model"][:-1]], dtype=int)
        low = np.array([idx[m] for m in c["model"][1:]], dtype=int)
        pairs = pd.DataFrame(
            {
                "better": c["model"][:-1],
                "next": c["model"][1:],
                "gap": c["mu"][:-1] - c["mu"][1:],
                "z": c["z_next"][:-1],
                "p_better": self.prob_better[up, low],
                "trials_needed": c["n_needed"][:-1],
            }
        )
        if self.decided is None:
            keep = pairs["z"] < self.settings["z_threshold"]
        else:
            keep = ~self.decided[up, low]
        return pairs[np.asarray(keep)].reset_index(drop=True)

    @cached_property
    def z(self) -> np.ndarray:
        """Pairwise ``|z|`` matrix in the board's scope, original model order."""
        if self.posterior is None:
            return decision.z_matrix(self.mu, self.sigma)
        sd = self.posterior.diff_sd
        gap = np.abs(self.mu[:, None] - self.mu[None, :])
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.where(sd > 0, gap / np.where(sd > 0, sd, 1.0), np.where(gap > 0, np.inf, 0))
        np.fill_diagonal(z, 0.0)
        return z


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
    scope: str = "questions",
    adjust: str = "none",
    draws: int = 10_000,
    seed: int = 0,
) -> Leaderboard:
    """Bayes@N mean, interval, rank intervals and ``p_best`` for every model at once.

    Parameters
    ----------
    data : Outcomes or array_like (L, M, N)
    w : array_like, optional
        Category weights (default: the dataset's weights, else ``[0, 1]``).
    R0 : array_like, optional
        Prior outcomes; with an :class:`Outcomes`, ``use_prior=True`` takes its ``R0``.
    confidence : float
        Credible level of the interval (two-sided) and decision level ``c`` of the
        pairwise decisions behind ``rank``/``rank_lo``/``rank_hi`` (a pair is
        decided when ``P(i > j) ≥ c``, adjusted by ``adjust``) and of
        ``rank_chain`` (one-sided z threshold, 1.645 at 0.95, 000 §2.7.1).
    ks : sequence of int
        Pass@k columns to add (binary data only; silently skipped for
        categorical data would hide a mistake, so it raises instead).
    bounds : (lo, hi), optional
        Clip intervals; default the range of the weights.
    scope : {"questions", "population"}
        ``questions``: uncertainty of the mean over these questions (Bayes@N).
        ``population``: the mean over the population the questions came from
        (adds a paired Bayesian bootstrap over questions; see
        :mod:`scorio_core.posterior`).
    adjust : {"none", "holm", "bh"}
        Multiplicity control over the ``L(L−1)/2`` pairwise decisions.
    draws, seed : int
        Joint posterior draws (``p_best``; population-scope ``P(i > j)``) and their seed.

    Returns
    -------
    Leaderboard
    """
    if isinstance(data, Outcomes):
        R = data.R
        if w is not None and np.size(w) != data.C + 1:
            raise ValidationError(
                f"w has {np.size(w)} weights but the data have {data.C + 1} categories "
                f"({', '.join(data.category_names)}); give one weight per category"
            )
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
    if scope not in SCOPES:
        raise ValidationError(f"scope must be one of {SCOPES}; got {scope!r}")
    if adjust not in decision.ADJUSTMENTS:
        raise ValidationError(f"adjust must be one of {decision.ADJUSTMENTS}; got {adjust!r}")
    if not 1 <= int(draws) <= 10_000_000:
        raise ValidationError(f"draws must be between 1 and 10,000,000; got {draws}")
    L = R.shape[0]
    if models is None:
        models = tuple(f"model_{i}" for i in range(L))
    else:  # names end up in HTML, Markdown and spreadsheets: the Outcomes rules apply
        models = unique_names([check_name(m, "model name") for m in models], "model names")
    if len(models) != L:
        raise ValidationError(f"expected {L} model names; got {len(models)}")
    # counts first: one validation and one pass over R; every column comes from them
    n, n0, wv = ev.prepare_counts(R, w, R0)
    if bounds is None:
        bounds = (float(wv.min()), float(wv.max()))
    N = R.shape[-1]
    q = question_moments(n, wv, n0)
    post = posterior_from_moments(q, scope, draws, seed)
    mu, sigma = post.mu, post.sigma
    z = ev.z_value(confidence)
    lo, hi = np.clip(mu - z * sigma, *bounds), np.clip(mu + z * sigma, *bounds)
    a = (n @ wv).sum(-1) / (n.shape[-2] * N)  # avg@N; its sigma is not a column
    decided = decision.decide(post.prob_better, confidence, adjust)
    rank_lo, rank_hi = decision.interval_ranks(decided)

    order = np.argsort(-mu, kind="stable")
    cols: dict[str, Any] = {
        "model": np.asarray(models, dtype=object)[order],
        "rank": rank_lo[order],
        "rank_lo": rank_lo[order],
        "rank_hi": rank_hi[order],
        "p_best": post.p_best[order],
        "mu": mu[order],
        "sigma": sigma[order],
        "lo": lo[order],
        "hi": hi[order],
        "avg": np.atleast_1d(a)[order],
        "rank_chain": decision.chain_ranks(mu, post.diff_sd, confidence)[order],
        "rank_overlap": decision.overlap_ranks(lo, hi)[order],
        "rank_mu": decision.point_ranks(mu)[order],
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
        q_sigma = np.sqrt(q.v.sum(-1)) / q.m.shape[-1]  # questions scope (000 App. D)
        need = decision.trials_needed_from(mu, q_sigma, N, q.T, confidence)
        # need.* follow the same descending-mu order; the last model has no next one
        sd_next = post.diff_sd[order[:-1], order[1:]]
        gap = mu[order[:-1]] - mu[order[1:]]
        with np.errstate(divide="ignore", invalid="ignore"):
            z_next = np.where(sd_next > 0, gap / np.where(sd_next > 0, sd_next, 1.0), np.inf)
        z_next = np.where((sd_next == 0) & (gap == 0), 0.0, z_next)
        cols["z_next"] = np.append(z_next, np.nan)
        cols["n_needed"] = np.append(need.n_needed, np.nan)
    D = 0 if R0 is None else int(np.shape(R0)[-1])
    settings = {
        "scope": scope,
        "confidence": confidence,
        "adjust": adjust,
        "z_threshold": decision.z_threshold(confidence),
        "draws": int(draws),
        "seed": int(seed),
        "weights": wv.tolist(),
        "prior": "none" if R0 is None else f"R0 with D={D}",
        "prior_weight": (wv.size + D) / q.T,
        "ks": list(ks),
        "shape": list(R.shape),
    }
    return Leaderboard(
        columns=cols, mu=mu, sigma=sigma, models=models, settings=settings, posterior=post,
        decided=decided,
    )


def prior_note(board: Leaderboard, threshold: float = 0.2) -> str | None:
    """One line explaining ``mu`` vs ``avg`` when the prior carries a large weight.

    Bayes@N adds ``1 + C + D`` prior pseudo-counts per question to the ``N``
    trials, so ``mu`` is ``avg`` shrunk towards the prior's mean by the
    fraction ``(1 + C + D) / T``. Returns ``None`` when that fraction is below
    ``threshold``.

    Example
    -------
    >>> import numpy as np
    >>> b = leaderboard(np.ones((1, 15, 4), dtype=int))
    >>> prior_note(b)[:40]
    'With N = 4 trials per question the prior'
    """
    s = board.settings
    share = float(s.get("prior_weight", 0.0))
    if share < threshold:
        return None
    N = s["shape"][-1]
    return (
        f"With N = {N} trials per question the prior holds {share:.0%} of each question's "
        f"posterior, so `mu` is `avg` pulled {share:.0%} of the way towards the prior mean "
        "(0.5 for a uniform binary prior); under the uniform prior both rank models alike."
    )
