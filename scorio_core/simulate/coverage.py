"""Interval calibration: how often 95% intervals cover the truth, vs ``N`` and ``M``.

The leaderboard's headline interval (:mod:`scorio_core.inference`) beside the papers'
Bayes@N interval ``mu ± z·sigma`` (Don't Pass@k (2026), §2.4), in the questions and population
scopes (SPEC §4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .. import eval as ev
from .._validation import ValidationError, as_names, as_numbers, check_confidence, check_int
from ..calibration import share_se
from ..display import Shown, recorded
from ..formatting import DRAWS_ATTR
from ..resampling import blocks, stream
from .simulator import (
    BLOCK,
    Progress,
    _as_means,
    _entropy,
    _map,
    _rng,
    question_probs,
    sample_counts,
)

if TYPE_CHECKING:
    from ..parallel import Executor

__all__ = ["COVERAGE_SCOPES", "Coverage", "interval_coverage"]


def _intervals(n: np.ndarray, w: np.ndarray, confidence: float, scope: str) -> dict:
    """``{method: (lo, hi)}`` for counts ``(B, L, M, C+1)``: the leaderboard's headline in
    ``scope`` (:func:`scorio_core.inference.model_intervals`, the same code) and the papers'
    Bayes@N interval ``mu ± z·sigma`` (Don't Pass@k (2026), §2.4)."""
    from ..inference import model_intervals, score_stats

    B, L, M, K = n.shape
    _, _, lo, hi = model_intervals(score_stats(n.reshape(B * L, M, K), w), scope, confidence)
    post = ev.bayes_from_counts(n, w)
    z = ev.z_value(confidence)
    return {"headline": (lo.reshape(B, L), hi.reshape(B, L)),
            "Bayes@N (papers)": (post.mu - z * post.sigma, post.mu + z * post.sigma)}


def _questions_scope(n: np.ndarray, p: np.ndarray, w: np.ndarray, confidence: float, **_):
    """``questions`` scope: the truth is the mean over the drawn questions."""
    return _intervals(n, w, confidence, "questions"), (p @ w).mean(-1)


def _population_scope(
    n: np.ndarray, p: np.ndarray, w: np.ndarray, confidence: float, *, population_mean
):
    """``population`` scope: the truth is the mean of the population the questions were
    drawn from."""
    truth = np.broadcast_to(population_mean, n.shape[:2])
    return _intervals(n, w, confidence, "population"), truth


#: Interval scopes for :func:`interval_coverage`, the two of the leaderboard: name ->
#: ``f(counts (B, L, M, C+1), p (B, L, M, C+1), w, confidence, population_mean=(L,))
#: -> ({method: (lo, hi)}, truth)`` each ``(B, L)``.
COVERAGE_SCOPES: dict[str, Callable] = {
    "questions": _questions_scope,
    "population": _population_scope,
}


@dataclass(frozen=True, repr=False)
class Coverage(Shown):
    """Result of :func:`interval_coverage`: ``table`` with one row per
    (scope, interval, M, N) -- and per ``mean`` first when the models' means differ --:
    ``coverage`` (share of intervals containing the truth, pooled over the models of that
    mean and the datasets; NaN where the headline is not identified: questions scope at
    N = 1), ``se`` (its binomial standard error; NaN where no interval or every one held
    the truth, where the plug-in 0 would claim a certainty), ``width`` (mean width).
    ``coverage`` is a share of simulated intervals: the table's ``attrs[DRAWS_ATTR]`` holds
    the fewest intervals of a row, so a row where every interval covered reads ``>0.999``
    (``>0.995`` of 200), "in all of them", not a certain ``1.000`` -- in every table, the
    chart's tooltip, the lesson's sentences."""

    analysis_id = "calibration"  # its display: the Simulator's tables and chart

    table: pd.DataFrame
    confidence: float
    settings: dict = field(default_factory=dict)


@recorded("calibration")
def interval_coverage(
    means=(0.5,),
    *,
    M_values: Sequence[int] = (15, 30, 100),
    N_values: Sequence[int] = (1, 2, 4, 8, 16, 32, 64),
    concentration: float = 2.0,
    replicates: int = 2000,
    confidence: float = 0.95,
    scopes: Sequence[str] = ("questions", "population"),
    weights=None,
    seed=0,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> Coverage:
    """Share of intervals that cover the truth, vs ``N`` and ``M``: the leaderboard's
    headline interval beside the papers' Bayes@N interval, in each scope.

    Each replicate draws fresh questions (per-question probabilities around ``means``
    with concentration ``κ``) and ``N`` trials. In the ``questions`` scope the truth is
    the mean over the drawn questions; in the ``population`` scope it is the mean of the
    population the questions were drawn from. The papers' Bayes@N interval assumes each
    question's probability follows its uniform prior; far from it (e.g. every question
    near 0.9, large ``κ``) its pull toward 1/2 with an interval that shrinks like
    ``1/√(MN)`` misses at small ``N`` (coverage near 0 at M = 100). The headline
    (:mod:`scorio_core.inference`) has no such pull and counts each noise source once, so
    it holds its level across ``M``, ``N`` and means; it is not identified in the
    questions scope at ``N = 1`` (NaN coverage). The full grid with skewed benchmarks
    is ``benchmarks/calibration.py``.

    Models with different means cover differently (at mean 0.9 the papers' interval is
    pulled toward 1/2, at 0.5 it is not), so then the table keeps one row per ``mean``
    (a model's mean score, ``means @ w``; models of equal means pooled) rather than pooling
    them into a number no benchmark has; with one mean it has no ``mean`` column.

    For each ``M`` the replicates run in pieces of :data:`BLOCK`, on ``executor``'s Dask
    cluster if given (:class:`scorio_core.parallel.Executor`); the result is the same
    either way.

    Example
    -------
    >>> c = sc.interval_coverage(M_values=(30,), N_values=(4,), replicates=300, seed=0)
    >>> bool(0.9 < c.table["coverage"].iloc[0] < 1.0)
    True
    """
    conf = check_confidence(confidence)
    if isinstance(means, str):  # "0.5,0.8", as --means reads it (kept so for the settings)
        means = as_numbers(means, "means", kind=float, example="0.5,0.8")
    shares, w = _as_means(means, weights)
    B = check_int("replicates", replicates)
    scopes = as_names(scopes, "scopes", example="questions,population")  # never by letter
    unknown = [s for s in scopes if s not in COVERAGE_SCOPES]
    if unknown or not scopes:
        raise ValidationError(f"scopes must be among {sorted(COVERAGE_SCOPES)}; got {list(scopes)}")
    Ms = [check_int("M", m) for m in as_numbers(M_values, "M_values", example="15,30,100")]
    Ns = [check_int("N", n) for n in as_numbers(N_values, "N_values", example="1,4,16")]
    scopes = tuple(scopes)
    entropy = _entropy(_rng(seed))
    pieces = blocks(B, BLOCK)
    items = [(m, b - a, entropy, i * len(pieces) + k)
             for i, m in enumerate(Ms) for k, (a, b) in enumerate(pieces)]
    parts = _map(executor, _coverage_piece, items,
                 (shares, w, concentration, tuple(Ns), scopes, conf), progress,
                 len(Ms) * B, "datasets")
    # the models of each distinct mean (rows of ``shares``), in the order given
    _, first, group = np.unique(shares, axis=0, return_index=True, return_inverse=True)
    group = np.asarray(group).ravel()
    order = np.argsort(first)
    groups = [(float(shares[first[g]] @ w), group == g) for g in order]
    rows, drawn = [], []  # drawn: the intervals each coverage is a share of
    for mean, cols in groups:
        for i, m in enumerate(Ms):
            mine = parts[i * len(pieces) : (i + 1) * len(pieces)]
            for n in Ns:
                for scope in scopes:
                    for method in mine[0][n, scope]:
                        hit = np.concatenate([part[n, scope][method][0] for part in mine])
                        width = np.concatenate([part[n, scope][method][1] for part in mine])
                        hit, width = hit[:, cols], width[:, cols]
                        ok = ~np.isnan(width)
                        cov = float(hit[ok].mean()) if ok.any() else float("nan")
                        if ok.any():
                            drawn.append(int(ok.sum()))
                        rows.append(
                            ({"mean": mean} if len(groups) > 1 else {})
                            | {
                                "scope": scope,
                                "interval": method,
                                "M": m,
                                "N": n,
                                "coverage": cov,
                                # none or all of them: coverage reads as its bound
                                # (<1/n, >1 - 1/n), and a plug-in s.e. of 0 beside it
                                # would claim a certainty the n intervals do not give
                                "se": share_se(cov, int(ok.sum())),
                                "width": float(width[ok].mean()) if ok.any() else float("nan"),
                            }
                        )
    settings = {
        "means": np.asarray(means, float).tolist(),
        "concentration": concentration,
        "replicates": B,
    }
    table = pd.DataFrame(rows)
    if drawn:  # its 0 and 1 are bounds (formatting.format_number's draws), at the fewest
        table.attrs[DRAWS_ATTR] = {"coverage": min(drawn)}
    return Coverage(table, conf, settings)


def _coverage_piece(
    m: int, b: int, entropy: int, index: int, shares: np.ndarray, w: np.ndarray,
    concentration: float, Ns: tuple[int, ...], scopes: tuple[str, ...], conf: float,
) -> dict[tuple[int, str], tuple[np.ndarray, np.ndarray]]:
    """``b`` datasets of ``m`` fresh questions for :func:`interval_coverage`:
    ``{(N, scope): {interval: (covered (b, L), width (b, L))}}``."""
    rng = stream(entropy, index)
    arg = shares if shares.shape[1] > 2 else shares[:, 1]
    p = question_probs(arg, m, concentration=concentration, size=(b,), seed=rng)
    out = {}
    for n in Ns:
        counts = sample_counts(p, n, rng)
        for scope in scopes:
            ivs, truth = COVERAGE_SCOPES[scope](counts, p, w, conf, population_mean=shares @ w)
            out[n, scope] = {k: ((lo <= truth) & (truth <= hi), hi - lo)
                             for k, (lo, hi) in ivs.items()}
    return out

