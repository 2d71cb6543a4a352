"""Known-truth convergence of the biased coins (Don't Pass@k (2026), §2.7, Fig. 2a).

Mean Kendall τ_b vs ``N`` between each count-based metric's ranking (Bayes@N, avg@N, the
Pass family) and the *true* ranking of LLM mimics, over fresh datasets.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .. import eval as ev
from .._ties import rank_scores_batch
from .._validation import ValidationError, as_names, check_int, check_steps
from ..display import recorded
from ..engines.convergence import TABLE_KINDS, Curves, fast_kind
from ..rank import METHODS
from ..resampling import blocks, stream
from .params import FIG2A_METHODS, pass_metric
from .simulator import (
    BLOCK,
    Mimics,
    Progress,
    _entropy,
    _map,
    _rng,
    _tau_rows,
)

if TYPE_CHECKING:
    from ..parallel import Executor

__all__ = ["truth_convergence"]


def _table_scorer(kind: str, k: int, tau: float):
    def f(n: np.ndarray, s: int) -> np.ndarray:
        if s < k:
            return np.full(n.shape[:-2], np.nan)
        return ev.pass_from_counts(n[..., 1], s, k, kind, tau)

    return f


def _scorer(method_id: str):
    """``f(counts (..., M, C+1), s) -> scores (...)`` for a count-based metric.

    Registered ids (:data:`scorio_core.rank.METHODS`) and, for the Pass family, any
    ``k`` / ``tau`` spelled the same way (``pass_hat_k_4``, ``g_pass_at_k_tau_4_0.5``).
    """
    m = METHODS.get(method_id)
    kind = None if m is None else fast_kind(m)
    if kind in ("bayes", "avg") and not m.needs_r0:
        w = np.array([0.0, 1.0])
        # the means alone (a ranking reads no sigma): Bayes@N's, and avg@N's (the mean score)
        if kind == "bayes":
            return lambda n, s: ev._bayes_mean(n + 1, w)
        return lambda n, s: ev.count_mean(n.sum(-2), w, n.shape[-2] * s)
    if kind == "table":
        return _table_scorer(
            TABLE_KINDS[m.func], int(m.params["k"]), float(m.params.get("tau", 0))
        )
    hit = pass_metric(method_id)
    if hit is not None:
        if not 0.0 <= hit[2] <= 1.0:
            raise ValidationError(f"tau in {method_id!r} must lie in [0, 1]")
        return _table_scorer(*hit)
    raise ValidationError(
        f"{method_id!r} is not a count-based metric; known-truth convergence supports bayes, "
        "avg and the Pass family (pass_at_k_K, pass_hat_k_K, g_pass_at_k_tau_K_TAU, "
        "mg_pass_at_k_K)"
    )


@recorded(data="sim")
def truth_convergence(
    sim: Mimics,
    methods: Iterable[str] = FIG2A_METHODS,
    *,
    N: int = 80,
    replicates: int = 1000,
    steps: Sequence[int] | None = None,
    fresh_questions: bool = False,
    seed=0,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> Curves:
    """Kendall τ_b vs ``N`` against the *true* ranking over fresh datasets (Don't Pass@k (2026),
    Fig. 2a).

    Every replicate is a new outcome tensor drawn from the same mimics (not a
    bootstrap of one dataset); trials accumulate one at a time and after each
    ``n`` every metric ranks the models from the running counts. Binary mimics only.
    With ``fresh_questions`` every replicate also draws new questions by the mimics'
    recipe (:meth:`Mimics.fresh_p`) and is scored against its own true ranking, which
    averages out the accidents of one set of questions (the paper keeps one set).

    Replicates run in pieces of :data:`BLOCK`, on ``executor``'s Dask cluster if given
    (:class:`scorio_core.parallel.Executor`); the result is the same either way.

    Returns
    -------
    Curves
        ``tau[method]`` of shape ``(replicates, len(steps))`` (NaN before ``n = k``);
        ``summary`` gives mean ± s.d.; ``target = "truth"``, ``scheme = "fresh"``.

    Example
    -------
    >>> from scorio_core.simulate import mimics
    >>> sim = mimics([0.3, 0.5, 0.7], M=10, seed=0)
    >>> c = sc.truth_convergence(sim, ["bayes"], N=20, replicates=50, seed=1)
    >>> c.tau["bayes"].shape, bool(c.summary["mean"].iloc[-1] > 0.8)
    ((50, 20), True)
    """
    if sim.p.shape[-1] != 2:
        raise ValidationError(
            "known-truth convergence needs binary mimics (Pass@k is binary); these have "
            f"{sim.p.shape[-1]} categories: build them from one success rate per model, e.g. "
            "mimics([0.3, 0.5, 0.7], M=30)")
    ids = list(as_names(methods, "methods", noun="metric ids", example="bayes,pass_at_k_4"))
    if not ids:
        raise ValidationError("choose at least one method")
    for mid in ids:
        _scorer(mid)  # refuse an unknown or re-ranked method before anything runs
    B, N = check_int("replicates", replicates), check_int("N", N)
    S = check_steps(N, steps)
    entropy = _entropy(_rng(seed))
    items = [(a, b, entropy, i) for i, (a, b) in enumerate(blocks(B, BLOCK))]
    parts = _map(executor, _truth_piece, items, (sim, tuple(ids), S, bool(fresh_questions)),
                 progress, B, "replicates")
    tau = {mid: np.concatenate([part[mid] for part in parts]) for mid in ids}
    return Curves(S, tau, "truth", "fresh questions" if fresh_questions else "fresh trials")


def _truth_piece(
    a: int, b: int, entropy: int, index: int, sim: Mimics, ids: tuple[str, ...],
    S: np.ndarray, fresh_questions: bool,
) -> dict[str, np.ndarray]:
    """Replicates ``a:b`` of :func:`truth_convergence`: ``tau[method] (b - a, len(S))``."""
    rng = stream(entropy, index)
    B = b - a
    scorers = {mid: _scorer(mid) for mid in ids}
    if fresh_questions:
        pf = sim.fresh_p(B, rng)
        p1 = pf[..., 1]
        targets = rank_scores_batch((pf @ sim.weights).mean(-1))
    else:
        p1 = np.broadcast_to(sim.p[..., 1], (B,) + sim.p.shape[:2])
        targets = np.broadcast_to(sim.true_ranks, (B, sim.p.shape[0]))
    state = np.zeros(p1.shape, dtype=np.int32)
    tau = {mid: np.full((B, S.size), np.nan) for mid in ids}
    j = 0
    for s in range(1, int(S.max()) + 1):  # loop over trials; replicates are vectorized
        state += rng.random(state.shape) < p1
        if s != S[j]:
            continue
        n = np.stack([s - state, state], -1)
        for mid, f in scorers.items():
            sc = f(n, s)
            if np.all(np.isfinite(sc)):
                tau[mid][:, j] = _tau_rows(rank_scores_batch(sc), targets)
        j += 1
    return tau



def draws_ahead(
    seeds: Iterable[int],
    methods: Iterable[str] = FIG2A_METHODS,
    *,
    M: int = 30,
    concentration: float = 3.0,
    N: int = 80,
    replicates: int = 1000,
    fresh_questions: bool = False,
) -> dict[int, tuple[str, ...]]:
    """Per seed, the Pass metrics that end above Bayes@N: their mean τ_b at ``n = N`` exceeds
    Bayes@N's by more than twice its simulation error (the s.d. of the paired difference
    over the replicates / √replicates). Each seed is a coins study as its definition runs it
    (:data:`scorio_core.definitions.SIMULATIONS` ``["coins"]``): the questions of
    ``mimics(PAPER_COINS, M, seed=seed)``, the datasets from ``seed + 1``.

    How often a fixed set of questions lets a Pass metric end above Bayes@N is what the
    coins lesson says it is measured from (its test measures it again).

    Example
    -------
    >>> from scorio_core.simulate.coins import draws_ahead
    >>> draws_ahead([0], ["bayes", "pass_at_k_2"], N=40, replicates=300)
    {0: ('pass_at_k_2',)}
    """
    from .simulator import PAPER_COINS, mimics

    ids = list(as_names(methods, "methods", noun="metric ids", example="bayes,pass_at_k_2"))
    if "bayes" not in ids:
        ids.insert(0, "bayes")
    out = {}
    for seed in seeds:
        sim = mimics(PAPER_COINS, M, concentration=concentration, seed=int(seed))
        c = truth_convergence(sim, ids, N=N, replicates=replicates, steps=(N,),
                              fresh_questions=fresh_questions, seed=int(seed) + 1)
        base = c.tau["bayes"][:, -1]
        ahead = []
        for mid in ids:
            if pass_metric(mid) is None:
                continue
            d = c.tau[mid][:, -1] - base
            d = d[np.isfinite(d)]
            if d.size > 1 and d.mean() > 2 * d.std(ddof=1) / np.sqrt(d.size):
                ahead.append(mid)
        out[int(seed)] = tuple(ahead)
    return out
