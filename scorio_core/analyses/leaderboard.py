"""Leaderboard: Bayes@N means, credible intervals and CI-aware ranks (000 §2.5, §2.7.1).

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

from .. import charts
from .._validation import ValidationError, check_choice, check_confidence
from ..leaderboard import Leaderboard, leaderboard
from ..outcomes import Outcomes
from ._base import Analysis, Chart, common_caveats

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
    """

    confidence: float = 0.95
    prior: str = "uniform"
    ks: tuple[int, ...] = ()
    weights: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        check_confidence(self.confidence)
        check_choice("prior", self.prior, ("uniform", "greedy"))
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


def _run(data: Outcomes, p: LeaderboardParams) -> LeaderboardResult:
    board = leaderboard(
        data,
        w=None if p.weights is None else list(p.weights),
        use_prior=p.prior == "greedy",
        confidence=p.confidence,
        ks=list(p.ks),
    )
    return LeaderboardResult(board, data.N)


def _tables(r: LeaderboardResult) -> dict:
    return {"leaderboard": r.board.table, "unresolved": r.board.unresolved()}


def _charts(r: LeaderboardResult) -> list[Chart]:
    return [
        Chart(
            "Means and credible intervals",
            charts.forest_plot(r.board),
            "Dot = Bayes@N mean, bar = credible interval, #k = CI-aware rank: rows sharing a "
            "label (and colour) are not distinguishable at this confidence.",
        ),
        Chart(
            "Pairwise confidence",
            charts.confidence_heatmap(r.board),
            "P(row model beats column model): solid blue/red pairs are decided; numbered cells "
            "are not, and values near .5 (white) are coin flips the data cannot order.",
        ),
    ]


def _caveats(data: Outcomes, p: LeaderboardParams, r: LeaderboardResult) -> list[str]:
    out = common_caveats(data)
    out.append(
        f"Scope of the intervals: {p.confidence:.0%} Bayes@N credible intervals for each model's "
        f"mean score on these {data.M} questions (questions scope); they do not include the "
        "uncertainty of drawing a different set of questions from the same population."
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
    if note := data.metadata.get("weights_note"):
        out.append(f"Category weights: {note}.")
    return out


def _to_code(p: LeaderboardParams, data: str = "data") -> str:
    w = "None" if p.weights is None else repr(list(p.weights))
    return (
        "from scorio_core import charts\n"
        "from scorio_core.leaderboard import leaderboard\n\n"
        f"board = leaderboard({data}, w={w}, use_prior={p.prior == 'greedy'}, "
        f"confidence={p.confidence!r}, ks={list(p.ks)!r})\n"
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
        "interval [lo, hi]. The CI-aware rank (rank_ci) walks down the list and lets a model "
        "share its neighbour's rank unless their z-score reaches the threshold of the chosen "
        "confidence; rank_overlap is the more conservative arena rule (1 + models whose "
        "interval lies entirely above). The 'unresolved' table lists the neighbours that are "
        "tied and the trials per question that would separate them."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=("charts.forest_plot(board)", "charts.confidence_heatmap(board)"),
    requires=_requires,
    result_var="board",
)
