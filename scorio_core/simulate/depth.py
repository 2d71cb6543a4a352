"""Prior depth: original and updated models (Don't Pass@k (2026), App. C, Fig. 5).

How far the ranking of updated models moves from the originals', and how many trials of
the originals (prior depth ``D``, Bayes@N's ``R0``) help rank the updated ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .. import eval as ev
from .._ties import rank_scores, rank_scores_batch
from .._validation import as_numbers, check_int, check_steps
from ..display import Shown, recorded
from ..engines.agreement import tau_b_to
from ..resampling import blocks, stream
from .simulator import (
    BLOCK,
    Progress,
    _entropy,
    _map,
    _rng,
    _tau_rows,
    shift_to_means,
)

if TYPE_CHECKING:
    from ..parallel import Executor

__all__ = ["PAPER_ORIGINAL_MEANS", "PAPER_UPDATE", "PriorDepth", "prior_depth"]

#: Means of the eight "original" models of 000 App. C as drawn in the paper.
PAPER_ORIGINAL_MEANS = (0.3021, 0.3166, 0.4144, 0.4985, 0.5351, 0.5759, 0.6679, 0.7487)
#: What 000 App. C (Fig. 5a) reports of 50k updates: the mean τ_b(original, updated) and the
#: share of updates whose ranking changed ("about 86%").
PAPER_UPDATE = {"mean_tau": 0.88, "share_changed": 0.86}


@dataclass(frozen=True, repr=False)
class PriorDepth(Shown):
    """Result of :func:`prior_depth`.

    ``original_p (L, M)``: the fixed original success probabilities;
    ``tau_update (U,)``: τ_b(original ranking, updated ranking) per drawn update;
    ``steps``, ``depths`` and ``tau (len(depths), len(steps))``: mean τ_b between the
    Bayes@N ranking (prior ``R0`` = ``D`` trials of the original models) and the true
    ranking of the updated models; ``sd`` its s.d. over replicates; ``delta_se
    (len(depths), len(steps))``: the simulation standard error of each curve's difference
    from the ``D = 0`` curve (the s.d. of the paired difference over the replicates, which
    share their datasets across ``D``, / √replicates; ``None``: no ``D = 0``, or a result
    saved before it was kept).
    """

    analysis_id = "prior-depth"  # its display: the Simulator's tables and chart

    original_p: np.ndarray
    tau_update: np.ndarray
    steps: np.ndarray
    depths: tuple[int, ...]
    tau: np.ndarray
    sd: np.ndarray
    replicates: int
    settings: dict = field(default_factory=dict)
    delta_se: np.ndarray | None = None

    @property
    def original_means(self) -> np.ndarray:
        return self.original_p.mean(-1)

    @property
    def update_summary(self) -> dict[str, float]:
        """Mean τ(original, updated) and the share of updates that change the ranking."""
        t = self.tau_update
        return {"mean_tau": float(t.mean()), "share_changed": float(np.mean(t < 1 - 1e-12))}

    @property
    def curves(self) -> pd.DataFrame:
        """Long table ``D, n, mean, sd, delta, delta_se`` (delta = mean τ minus the D = 0
        curve, ``delta_se`` its simulation standard error, where kept)."""
        base = (
            self.tau[self.depths.index(0)] if 0 in self.depths else np.full(self.steps.size, np.nan)
        )
        se = self.delta_se
        return pd.DataFrame(
            [
                {
                    "D": d,
                    "n": int(n),
                    "mean": self.tau[i, j],
                    "sd": self.sd[i, j],
                    "delta": self.tau[i, j] - base[j],
                    **({} if se is None else {"delta_se": se[i, j]}),
                }
                for i, d in enumerate(self.depths)
                for j, n in enumerate(self.steps)
            ]
        )


def _updated_probs(rng, size, L: int, M: int) -> np.ndarray:
    """Success probabilities ``(*size, L, M)`` of updated models:
    ``Beta(i + 3 + σ, 12 - i + σ')`` with independent random signs ``σ, σ' = ±1``."""
    i = np.arange(1, L + 1)
    sig = rng.choice([-1, 1], size=size + (L, 2))
    a = (i + 3 + sig[..., 0])[..., None]
    b = (12 - i + sig[..., 1])[..., None]
    return rng.beta(a, b, size=size + (L, M))


@recorded("prior-depth")
def prior_depth(
    *,
    M: int = 30,
    depths: Sequence[int] = (0, 1, 2, 4, 8, 16),
    steps: Sequence[int] = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80),
    replicates: int = 5000,
    updates: int = 50_000,
    match_paper_means: bool = True,
    seed=0,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> PriorDepth:
    """Prior depth study of Don't Pass@k (2026), App. C (Fig. 5).

    Eight *original* models ``i = 1..8`` have ``M`` fixed success probabilities drawn from
    ``Beta(i + 3, 12 - i)`` (with ``match_paper_means``, shifted in logit space so their
    means equal the paper's ``π̄ = 0.3021 ... 0.7487``). An *update* of model ``i`` draws
    fresh probabilities from ``Beta(i + 3 + σ, 12 - i + σ')``, ``σ, σ' = ±1`` at random.

    * Fig. 5a: τ_b between the original ranking (by original ``π̄``) and the ranking of
      the updated ``π̄``, over ``updates`` draws (paper: mean 0.88; ~86% change).
    * Fig. 5b/c: per replicate, one set of updates; ``N`` trials of each updated model and
      ``R0`` = ``D`` trials of the matching original model; Bayes@N with that prior ranks
      the updated models; τ_b against their true ranking (by updated ``π̄``). Replicates,
      the updated models' trials and the prior trials are shared across ``D`` and nested
      across ``N`` and ``D`` (common random numbers), so differences between curves are
      not sampling noise of separate runs.

    Replicates run in pieces of up to :data:`BLOCK`, on ``executor``'s Dask cluster if
    given (:class:`scorio_core.parallel.Executor`); the result is the same either way.

    Example
    -------
    >>> r = sc.prior_depth(depths=(0, 2), steps=(1, 5), replicates=200, updates=500, seed=0)
    >>> r.tau.shape, 0.7 < r.update_summary["mean_tau"] < 1.0
    ((2, 2), True)
    """
    M = check_int("M", M)
    B, U = check_int("replicates", replicates), check_int("updates", updates)
    Ds = tuple(sorted({check_int("depth", d, minimum=0)
                       for d in as_numbers(depths, "depths", example="0,1,2")}))
    steps = as_numbers(steps, "steps", example="1,2,4")
    S = check_steps(max(steps) if len(steps) else 1, steps)
    rng = _rng(seed)
    L = 8
    i = np.arange(1, L + 1)
    orig = rng.beta((i + 3)[:, None], (12 - i)[:, None], size=(L, M))
    if match_paper_means:
        orig = shift_to_means(orig, np.array(PAPER_ORIGINAL_MEANS))
    orig_rank = rank_scores(orig.mean(-1))

    upd = _updated_probs(rng, (U,), L, M)
    tau_update = tau_b_to(rank_scores_batch(upd.mean(-1)), orig_rank)

    # pieces bound memory (~2e6 questions per array) and fix the streams: piece i draws
    # from its own stream, whatever runs it
    size = max(1, min(BLOCK, 2_000_000 // (L * M)))
    entropy = _entropy(rng)
    items = [(a, b, entropy, i) for i, (a, b) in enumerate(blocks(B, size))]
    parts = _map(executor, _depth_piece, items, (orig, Ds, S), progress, B, "replicates")
    tau = np.concatenate(parts, axis=-1)
    mean, sd = np.nanmean(tau, -1), np.nanstd(tau, -1)
    delta_se = None
    if 0 in Ds and B > 1:  # paired: every depth ranks the same datasets
        diff = tau - tau[Ds.index(0)]
        delta_se = np.nanstd(diff, -1, ddof=1) / np.sqrt(np.isfinite(diff).sum(-1).clip(1))
    settings = {
        "M": M,
        "replicates": B,
        "updates": U,
        "match_paper_means": match_paper_means,
        "seed": seed if isinstance(seed, int) else None,
    }
    return PriorDepth(orig, tau_update, S, Ds, mean, sd, B, settings, delta_se)


def _depth_piece(
    a: int, b: int, entropy: int, index: int, orig: np.ndarray, Ds: tuple[int, ...],
    S: np.ndarray,
) -> np.ndarray:
    """Replicates ``a:b`` of :func:`prior_depth`: τ_b ``(len(Ds), len(S), b - a)``."""
    rng = stream(entropy, index)
    b, (L, M) = b - a, orig.shape
    w = np.array([0.0, 1.0])
    tau = np.zeros((len(Ds), S.size, b))
    p = _updated_probs(rng, (b,), L, M)
    target = rank_scores_batch(p.mean(-1))
    # Bayes@N's mu only needs each category's total over questions: pooling the M
    # questions into one with prior counts Σ n0 + (M - 1) gives the same ν totals, T' = M T
    # and therefore exactly the same mu (sigma is not used here) at 1/M of the cost.
    c0, prev, n0 = np.zeros((b, L, M)), 0, {}
    for d in Ds:  # prior trials of the originals, nested in D
        if d > prev:
            c0 += rng.binomial(d - prev, np.broadcast_to(orig, (b, L, M)))
            prev = d
        tot = c0.sum(-1)
        n0[d] = np.stack([d * M - tot, tot], -1)[..., None, :] + (M - 1)
    c, prev = np.zeros((b, L, M)), 0
    for j, s in enumerate(S):
        c += rng.binomial(int(s) - prev, p)
        prev = int(s)
        tot = c.sum(-1)
        n = np.stack([s * M - tot, tot], -1)[..., None, :]
        for k, d in enumerate(Ds):
            mu = ev.bayes_from_counts(n, w, n0[d]).mu
            tau[k, j] = _tau_rows(rank_scores_batch(mu), target)
    return tau

