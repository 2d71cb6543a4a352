"""Leaderboard: Bayes@N means, credible intervals, rank intervals from the pairwise posterior
(SPEC §4), and the paper's chained and arena ranks (000 §2.5, §2.7.1).

Renders :func:`scorio_core.leaderboard.leaderboard` with
:func:`scorio_core.charts.forest_plot` and :func:`~scorio_core.charts.confidence_heatmap`.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.analyses import ANALYSES
>>> lb = ANALYSES["leaderboard"]
>>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 30, 8)), models=["a", "b", "c"])
>>> result = lb.run(data, lb.params(confidence=0.9))
>>> list(lb.tables(result))
['leaderboard', 'unresolved']
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .._validation import ValidationError, check_choice, check_confidence, check_int
from ..decision import ADJUSTMENTS
from ..leaderboard import Leaderboard, leaderboard, prior_note
from ..outcomes import Outcomes
from ..posterior import SCOPES
from ._base import Analysis, Chart, Progress, common_caveats

__all__ = ["LeaderboardParams", "LeaderboardResult", "LEADERBOARD"]


@dataclass(frozen=True)
class LeaderboardParams:
    """Settings of the leaderboard (the Leaderboard page's widgets, ``scorio-studio leaderboard``).

    Parameters
    ----------
    confidence : float
        Credible level of the intervals and ranking confidence of the CI-aware rank.
    prior : {"uniform", "greedy"}
        ``greedy`` adds the dataset's greedy outcomes ``R0`` to the uniform prior.
    ks : tuple of int
        Pass@k columns (binary data only).
    weights : tuple of float, optional
        Category weights; default the dataset's.
    scope : {"questions", "population"}
        ``questions``: uncertainty about the mean over these questions (the papers'
        Bayes@N); ``population``: also over drawing other questions from the same
        population (paired Bayesian bootstrap over questions).
    adjust : {"none", "holm", "bh"}
        Multiplicity control of the pairwise decisions behind ``rank``.
    draws, seed : int
        Joint posterior draws (population scope, rank distribution) and their seed.
    """

    confidence: float = 0.95
    prior: str = "uniform"
    ks: tuple[int, ...] = ()
    weights: tuple[float, ...] | None = None
    scope: str = "questions"
    adjust: str = "none"
    draws: int = 10_000
    seed: int = 0

    def __post_init__(self) -> None:
        check_confidence(self.confidence)
        check_choice("prior", self.prior, ("uniform", "greedy"))
        check_choice("scope", self.scope, SCOPES)
        check_choice("adjust", self.adjust, ADJUSTMENTS)
        check_int("draws", self.draws, minimum=100)
        check_int("seed", self.seed, minimum=0)
        ks = tuple(self.ks)
        for k in ks:
            if isinstance(k, bool) or not isinstance(k, int) or k < 1:
                raise ValidationError(f"ks must be whole numbers >= 1; got {list(ks)!r}")
        object.__setattr__(self, "ks", ks)
        if self.weights is not None:
            w = tuple(float(x) for x in self.weights)
            if len(w) < 2 or not all(math.isfinite(x) for x in w):
                raise ValidationError(
                    f"weights must be at least two finite numbers; got {list(self.weights)!r}"
                )
            object.__setattr__(self, "weights", w)


@dataclass(frozen=True)
class LeaderboardResult:
    """The :class:`~scorio_core.leaderboard.Leaderboard` and the number of trials N."""

    board: Leaderboard
    N: int


def _run(
    data: Outcomes, p: LeaderboardParams, progress: Progress | None = None
) -> LeaderboardResult:
    del progress  # fast: no progress to report
    board = leaderboard(
        data,
        w=None if p.weights is None else list(p.weights),
        use_prior=p.prior == "greedy",
        confidence=p.confidence,
        ks=list(p.ks),
        scope=p.scope,
        adjust=p.adjust,
        draws=p.draws,
        seed=p.seed,
    )
    return LeaderboardResult(board, data.N)


def _tables(r: LeaderboardResult) -> dict:
    return {"leaderboard": r.board.table, "unresolved": r.board.unresolved()}


def chart_captions(board: Leaderboard) -> tuple[str, str]:
    """What to read from the forest plot and the pairwise heatmap of ``board``."""
    st = board.settings
    scope, conf, adjust = st["scope"], st["confidence"], st["adjust"]
    return (
        f"Dot = Bayes@N mean, bar = {conf:.0%} credible interval ({scope} scope); "
        "#rank (lo–hi) = headline rank and the range of ranks the data allow.",
        f"P(row model beats column model), {scope} scope: outlined cells are decided at "
        f"{conf:.0%} (adjustment: {adjust}) -- the same rule as the rank columns; numbered "
        "cells are undecided, and values near .5 are coin flips.",
    )


def _charts(r: LeaderboardResult) -> list[Chart]:
    from .. import charts  # altair: after the table is on screen (fast first page)

    forest, heat = chart_captions(r.board)
    return [
        Chart("Means and credible intervals", charts.forest_plot(r.board), forest),
        Chart("Pairwise probabilities", charts.confidence_heatmap(r.board), heat),
    ]


def _caveats(data: Outcomes, p: LeaderboardParams, r: LeaderboardResult) -> list[str]:
    out = common_caveats(data)
    if p.scope == "questions":
        out.append(
            f"Scope of the intervals: {p.confidence:.0%} Bayes@N credible intervals for each "
            f"model's mean score on these {data.M} questions (questions scope); they do not "
            "include the uncertainty of drawing a different set of questions from the same "
            "population (use the population scope for that)."
        )
    else:
        out.append(
            f"Scope of the intervals: {p.confidence:.0%} intervals for each model's mean over "
            f"the population these {data.M} questions were drawn from (population scope: a "
            "Bayesian bootstrap over questions, paired across models, on top of the trial "
            "noise); they are wider than the questions scope and cannot shrink below the "
            "question-to-question spread however many trials are run."
        )
    if note := prior_note(r.board):
        out.append(note)
    if conflicts := r.board.chained_conflicts():
        out.append(
            f"rank_chain (000 §2.7.1) puts {len(conflicts)} decided pair(s) in one rank; read "
            "rank / rank_lo-rank_hi, which come from the pairwise posterior and cannot chain."
        )
    pairs = r.board.unresolved()
    if len(pairs):
        out.append(
            f"{len(pairs)} of {len(r.board.table) - 1} adjacent pairs are not separated at "
            f"{p.confidence:.0%}; 'n_needed' gives the trials per question that would separate "
            "each if its gap held."
        )
    if p.prior == "greedy":
        out.append("The greedy outcomes R0 enter the prior: scores are Bayes_R0@N, not Bayes_U@N.")
    return out


def _to_code(p: LeaderboardParams, data: str = "data") -> str:
    w = "None" if p.weights is None else repr(list(p.weights))
    return (
        "from scorio_core import charts\n"
        "from scorio_core.leaderboard import leaderboard\n\n"
        f"board = leaderboard({data}, w={w}, use_prior={p.prior == 'greedy'}, "
        f"confidence={p.confidence!r}, ks={list(p.ks)!r},\n"
        f"                    scope={p.scope!r}, adjust={p.adjust!r}, draws={p.draws!r}, "
        f"seed={p.seed!r})\n"
        "board.table"
    )


def _requires(data: Outcomes) -> str | None:
    return None


LEADERBOARD = Analysis(
    id="leaderboard",
    title="CI-aware leaderboard",
    params=LeaderboardParams,
    run=_run,
    tables=_tables,
    charts=_charts,
    how_to_read=(
        "Models are sorted by their Bayes@N posterior mean (mu) with a central credible "
        "interval [lo, hi]; avg is the plain mean (mu is pulled towards the prior when trials "
        "are few). rank = rank_lo = 1 + the models that beat this one with posterior "
        "probability at least the confidence level (after the chosen multiplicity "
        "adjustment); rank_hi = L - the models it beats; a model can sit anywhere in "
        "[rank_lo, rank_hi]; p_best is the posterior probability of being first. rank_chain "
        "is the paper's adjacent z rule (neighbours chain into one rank on small data) and "
        "rank_overlap the arena rule (1 + models whose interval lies entirely above). The "
        "'unresolved' table lists neighbours not yet decided and the trials per question "
        "that would decide them."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=("charts.forest_plot(board)", "charts.confidence_heatmap(board)"),
    requires=_requires,
    result_var="board",
)
