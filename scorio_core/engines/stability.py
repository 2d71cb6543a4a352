"""Low-budget stability of every ranking method (Ranking Reasoning LLMs under Test-Time
Scaling (2026), §3.2-3.3, App. D; Tables 2, 3, 18, 19).

At N = 1 each of the N single-trial slices ``R[:, :, n]`` is ranked by every
method and compared, by Kendall τ_b, with two targets:

* the **gold standard** Bayes_U@N on all trials (Ranking Reasoning LLMs under Test-Time
  Scaling (2026), Table 18), and
* the method's **own full-trial ranking**, method@N (self-consistency, Table 19).

The greedy prior ``R0`` (when present) is kept whole for every slice, as in
the paper's Bayes_R0@1. Methods whose τ_b agree on every slice are collapsed
into one class (the paper collapses identical mean/s.d.; equal τ on every
slice is the stricter reading). :func:`pool_robustness` repeats the analysis
over random model pools (Table 3).

Example
-------
>>> import numpy as np
>>> from scorio_core.engines.stability import low_budget_stability
>>> R = np.random.default_rng(0).integers(0, 2, size=(4, 10, 6))
>>> st = low_budget_stability(R, methods=["bayes", "borda"])
>>> st.table[["method", "slices"]].values.tolist()
[['bayes', 6], ['borda', 6]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._ties import rank_scores_batch
from .._validation import ValidationError, as_outcome_array, check_int
from ..display import Displayed, recorded
from ..formatting import percent
from ..parallel import Executor
from ..rank import METHODS
from ..resampling import model_pools, pool_prior, pool_sizes, run_pieces, slice_indices
from ._budget import check_rerank_work
from .agreement import UNDEFINED_ALL_TIE, PairedGap, mean_sd, paired_gap, tau_b_to
from .convergence import check_methods, contribution, fast_path, prepare_outcomes, scores_at

__all__ = [
    "POOL_DEFAULT",
    "Stability",
    "Standing",
    "low_budget_stability",
    "pool_robustness",
    "single_trial_ranks",
]

Progress = Callable[[float, str], None]
TARGETS = ("gold", "self")
#: How each target's claim names it ("Best vs gold: ...", "Best self-consistency: ...").
TARGET_WORDS = {"gold": "vs gold", "self": "self-consistency"}
#: Classes named in a claim before "and k more".
NAMED_CLASSES = 4


def single_trial_ranks(method_id: str, R, R0=None) -> np.ndarray:
    """Ranks of the method on each single-trial slice ``R[:, :, n]``: ``(N, L)``.

    Count-based metrics are ranked for all slices at once; other methods slice by slice,
    each slice fitted exactly as a direct call would fit it (cold start). Why no warm
    start or joint batch for the model fits: the convex ones (Rasch, Rasch MAP, dynamic
    IRT, Bradley-Terry, ...) reach their unique optimum from any start in a few compiled
    Newton steps or L-BFGS iterations (~0.5 ms a slice for Rasch), so a warm start would
    save microseconds; the 2PL/3PL fits do not converge on one trial and end wherever
    ``max_iter`` stops them, so a warm start or a joint (batched) optimiser would change
    their rankings (see ``rank.irt.rasch_3pl``). Their speed comes from the compiled NLL
    and the thin L-BFGS-B driver instead (``benchmarks/stability.py``).
    """
    m = METHODS[method_id]
    f = fast_path(method_id, R, R0)
    if f is not None:
        idx = slice_indices(R.shape[2])
        return rank_scores_batch(scores_at(f, contribution(f, idx, 0), 1))
    return np.stack([m(R[:, :, n : n + 1], R0)[0] for n in range(R.shape[2])])


def _undefined_note(*taus: np.ndarray) -> str:
    """Why some τ_b are missing: slices (or targets) on which every model ties."""
    bad = max(int(np.isnan(t).sum()) for t in taus)
    if bad == 0:
        return ""
    n = max(t.size for t in taus)
    return UNDEFINED_ALL_TIE if bad == n else f"{bad} of {n} slices {UNDEFINED_ALL_TIE}"


@dataclass(frozen=True, repr=False)
class Stability(Displayed):
    """τ_b of every method's single-trial rankings against both targets."""

    tau: dict[str, dict[str, np.ndarray]]  # target -> method -> (N,)
    families: dict[str, str]
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def table(self) -> pd.DataFrame:
        """One row per method: mean ± s.d. τ_b vs gold and vs its own full-trial ranking."""
        rows = []
        for mid in self.tau["gold"]:
            g, s = self.tau["gold"][mid], self.tau["self"][mid]
            (gm, gs), (sm, ss) = mean_sd(g), mean_sd(s)
            rows.append(
                {
                    "method": mid,
                    "family": self.families[mid],
                    "gold_mean": gm,
                    "gold_sd": gs,
                    "self_mean": sm,
                    "self_sd": ss,
                    "slices": int(g.size),
                    "note": _undefined_note(g, s),
                }
            )
        return pd.DataFrame(rows)

    def classes(self, target: str = "gold") -> pd.DataFrame:
        """Methods with the same τ_b on every slice collapsed into one row, best first
        (Ranking Reasoning LLMs under Test-Time Scaling (2026), Tables 18-19): rank, methods, size,
        mean, sd."""
        if target not in TARGETS:
            raise ValidationError(f"target must be one of {TARGETS}; got {target!r}")
        groups: dict[bytes, list[str]] = {}
        vals: dict[bytes, np.ndarray] = {}
        for mid, t in self.tau[target].items():
            key = np.round(np.nan_to_num(t, nan=-9.0), 12).tobytes()
            groups.setdefault(key, []).append(mid)
            vals[key] = t
        rows = []
        for k, ms in groups.items():
            mean, sd = mean_sd(vals[k])
            rows.append({"methods": ", ".join(ms), "size": len(ms), "mean": mean, "sd": sd,
                         "note": _undefined_note(vals[k])})
        out = pd.DataFrame(rows).sort_values(["mean", "sd"], ascending=[False, True])
        out.insert(0, "rank", np.arange(1, len(out) + 1))
        return out.reset_index(drop=True)

    def best(self, target: str = "gold") -> pd.Series:
        """The top class for a target (the highest mean τ_b; :meth:`standing` says whether
        the slices separate it from the others)."""
        return self.classes(target).iloc[0]

    def standing(self, target: str = "gold", confidence: float = 0.95) -> Standing:
        """The top class for ``target`` against every other class, each compared on the
        same slices (:func:`~scorio_core.engines.agreement.paired_gap`: the mean of the
        per-slice differences, its standard error and interval): the classes the slices do
        not separate from the top are within noise of it.

        Example
        -------
        >>> import numpy as np
        >>> from scorio_core.engines.stability import low_budget_stability
        >>> R = np.random.default_rng(0).integers(0, 2, (4, 10, 3))
        >>> st = low_budget_stability(R, None, ["bayes", "borda", "rasch_2pl"])
        >>> s = st.standing("gold")
        >>> s.slices, s.resolved  # 3 slices cannot separate a best
        (3, False)
        """
        cls = self.classes(target)
        top = cls["methods"].iloc[0]
        lead = self.tau[target][top.split(", ")[0]]
        gaps = {row: paired_gap(lead, self.tau[target][row.split(", ")[0]],
                                confidence=confidence)
                for row in cls["methods"].iloc[1:]}
        return Standing(target, top, float(cls["mean"].iloc[0]), float(cls["sd"].iloc[0]),
                        int(np.isfinite(lead).sum()), gaps)

    def claim(self, target: str = "gold", confidence: float = 0.95) -> str:
        """:meth:`standing` in one sentence -- what the page, the CLI and the report say."""
        return self.standing(target, confidence).sentence()


def _short(group: str) -> str:
    """A class by its first method and how many more it holds (as the stability chart)."""
    n = group.count(", ")
    return group if n == 0 else f"{group.split(', ')[0]} (+{n} more)"


@dataclass(frozen=True)
class Standing:
    """The top method class for one target and whether the slices separate it from the
    rest (:meth:`Stability.standing`).

    ``gaps`` holds, per other class (best first), the paired gap top minus that class over
    the slices where both τ_b are defined.
    """

    target: str
    top: str  # the top class's methods, ", "-joined
    mean: float
    sd: float
    slices: int  # slices with a defined τ_b for the top class
    gaps: dict[str, PairedGap]

    @property
    def within_noise(self) -> list[str]:
        """The classes the slices do not separate from the top, best first."""
        return [c for c, g in self.gaps.items() if not g.separated]

    @property
    def resolved(self) -> bool:
        """Whether the top class is separated from every other class."""
        return bool(self.gaps) and not self.within_noise

    def sentence(self) -> str:
        """The claim: the best class, or that several are within noise of the top.

        Example
        -------
        >>> from scorio_core.engines.agreement import PairedGap
        >>> from scorio_core.engines.stability import Standing
        >>> s = Standing("gold", "bayes_greedy", 0.8077, 0.0482, 80,
        ...              {"avg, bayes": PairedGap(0.0059, 0.004, -0.002, 0.014, 80, 0.95)})
        >>> s.sentence()  # doctest: +NORMALIZE_WHITESPACE
        'No single best vs gold: bayes_greedy has the highest mean τ_b, 0.8077 (s.d. 0.0482
        over 80 single-trial slices), but avg (+1 more) is within noise of it: 0.0059 below
        (95% interval -0.0020 to 0.0140, paired over the same slices).'
        """
        what = TARGET_WORDS[self.target]
        slices = f"{self.slices} single-trial slice{'' if self.slices == 1 else 's'}"
        if not np.isfinite(self.mean):
            return (f"No best {what}: every single-trial slice ties all models, so τ_b is "
                    "undefined.")
        spread = (f"s.d. {self.sd:.4f} over {slices}" if np.isfinite(self.sd) else
                  f"from {slices}, no spread to judge by")
        top = _short(self.top)
        if not self.gaps:
            return (f"No best {what}: every method has the same τ_b on every slice, mean "
                    f"{self.mean:.4f} ({spread}).")
        if self.resolved:
            runner, gap = next(iter(self.gaps.items()))
            return (f"Best {what}: {top}, mean τ_b {self.mean:.4f} ({spread}); the "
                    f"runner-up, {_short(runner)}, is {gap.mean:.4f} lower "
                    f"({gap.interval_text()}, paired over the same slices).")
        near = self.within_noise
        named = [_short(c) for c in near[:NAMED_CLASSES]]
        if len(near) > NAMED_CLASSES:
            named.append(f"{len(near) - NAMED_CLASSES} more classes")
        listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
        verb = "is" if len(near) == 1 else "are"
        gap = self.gaps[near[0]]  # the nearest of them
        if gap.n < gap.min_pairs:
            why = (f"{gap.n} slice{'' if gap.n == 1 else 's'} cannot separate methods at "
                   f"{percent(gap.confidence)} (that takes at least {gap.min_pairs})")
        else:
            why = (f"{'the nearest is ' if len(near) > 1 else ''}{gap.mean:.4f} below "
                   f"({gap.interval_text()}, paired over the same slices)")
        return (f"No single best {what}: {top} has the highest mean τ_b, {self.mean:.4f} "
                f"({spread}), but {listed} {verb} within noise of it: {why}.")


#: A cheap, diverse default method pool for :func:`pool_robustness` (one or two per family).
POOL_DEFAULT = (
    "bayes",
    "bayes_greedy",
    "borda",
    "bradley_terry",
    "elo_tie_draw",
    "rasch_mml_credible",
    "pagerank",
    "nanson_rank_ties_average",
)


@recorded(data="R", skip=("R0", "progress", "executor"))
def low_budget_stability(
    R,
    R0=None,
    methods: Iterable[str] | None = None,
    *,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> Stability:
    """N = 1 stability of each method (Ranking Reasoning LLMs under Test-Time Scaling (2026), §3.2):
    τ_b of each single-trial ranking vs the gold standard and vs the method's full-trial ranking.

    Methods that need more than one trial (Pass@k with k >= 2) or a missing R0
    are skipped with the reason. ``executor`` (:class:`scorio_core.parallel.Executor`)
    runs the methods as independent pieces, here or on a Dask cluster (same result).

    Example
    -------
    >>> import numpy as np
    >>> R = np.random.default_rng(0).integers(0, 2, (3, 20, 6))
    >>> st = sc.low_budget_stability(R, None, ["bayes", "avg"])
    >>> st.table["slices"].tolist(), st.classes("gold")["methods"].tolist()
    ([6, 6], ['bayes, avg'])
    """
    R, R0 = prepare_outcomes(R, R0)
    ids, skipped = check_methods(
        "all" if methods is None else methods, R, R0, N=1, where="a single-trial slice has"
    )
    gold = METHODS["bayes"](R)[0]
    done = run_pieces(_stability_piece, [(mid,) for mid in ids], shared=(R, R0, gold),
                      executor=executor, progress=progress, label="methods")
    tau = {"gold": {}, "self": {}}
    for mid, (vs_gold, vs_self) in zip(ids, done, strict=True):
        tau["gold"][mid], tau["self"][mid] = vs_gold, vs_self
    if progress is not None:
        progress(1.0, "done")
    return Stability(tau, {m: METHODS[m].family for m in tau["gold"]}, skipped)


def _stability_piece(mid: str, R, R0, gold) -> tuple[np.ndarray, np.ndarray]:
    """τ_b of ``mid``'s single-trial rankings vs gold and vs its own full ranking."""
    own = METHODS[mid](R, R0)[0]
    ranks = single_trial_ranks(mid, R, R0)
    return tau_b_to(ranks, gold), tau_b_to(ranks, own)


def _pool_piece(pool, R, R0, ids) -> pd.DataFrame:
    return low_budget_stability(R[pool], pool_prior(R0, pool), ids).table.set_index("method")


def pool_robustness(
    R,
    R0=None,
    methods: Iterable[str] | None = None,
    *,
    sizes: Sequence[int] = (5, 10, 15),
    pools: int = 20,
    seed: int = 0,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> pd.DataFrame:
    """The N = 1 analysis over random model pools (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), §3.3, Table 3).

    For each pool size, ``pools`` random subsets; within a subset both targets
    are recomputed on the subset. Per (size, method): mean and s.d. across pools
    of the subset-level mean τ_b for each target, and the fraction of pools in
    which the method (or a method tied with it) has the best gold agreement.
    """
    R = as_outcome_array(R, name="R", min_ndim=3, max_ndim=3)
    L = R.shape[0]
    sizes = pool_sizes(sizes, L)
    ids = list(METHODS) if methods is None else list(methods)
    check_int("pools", pools)
    # every pool ranks every single-trial slice and the full data once per method
    M, N = R.shape[1], R.shape[2]
    check_rerank_work(ids, float(len(sizes)) * pools * (N + 1),
                      float(sum(sizes)) * pools * M * 2 * N, "model-pool robustness",
                      name="pools", count=pools)
    rows = []
    items = [(pool,) for size in sizes for pool in model_pools(L, size, pools, seed)]
    tables = run_pieces(_pool_piece, items, shared=(R, R0, ids), executor=executor,
                        progress=progress, label="pools")
    for k, size in enumerate(sizes):
        per_pool = tables[k * pools : (k + 1) * pools]
        gm = pd.concat([p["gold_mean"] for p in per_pool], axis=1, ignore_index=True)
        sm = pd.concat([p["self_mean"] for p in per_pool], axis=1, ignore_index=True)
        top = (gm >= gm.max(axis=0) - 1e-12).mean(axis=1)
        for mid in gm.index:
            rows.append(
                {
                    "pool_size": size,
                    "method": mid,
                    "gold_mean": gm.loc[mid].mean(),
                    "gold_sd": gm.loc[mid].std(ddof=0),
                    "self_mean": sm.loc[mid].mean(),
                    "self_sd": sm.loc[mid].std(ddof=0),
                    "top_fraction": float(top.loc[mid]),
                    "pools": pools,
                }
            )
    if progress is not None:
        progress(1.0, "done")
    out = pd.DataFrame(rows)
    return out.sort_values(["pool_size", "gold_mean"], ascending=[True, False]).reset_index(
        drop=True
    )
