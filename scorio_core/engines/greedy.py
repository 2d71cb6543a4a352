"""Greedy decoding vs sampling and the greedy prior (Ranking Reasoning LLMs under Test-Time
Scaling (2026), §3.4, App. E; Table 4, Figs. 2-3, 6-7).

* **τ_G-S**: Kendall τ_b between the ranking from greedy decoding alone
  (mean of ``R0``) and the sampling ranking Bayes_U@N on all trials.
* **Rank scatter**: each model's greedy rank against its sampling rank, with
  the displacement ``greedy - sampling`` (positive: greedy ranks it worse).
* **Prior curves**: τ_b vs the gold standard of Bayes_U@n and Bayes_R0@n for
  n = 1..N over resampled datasets (mean ± s.d.).
* **N = 1 effect**: Δτ = mean τ(Bayes_R0@1) - mean τ(Bayes_U@1) and the relative reduction
  of the s.d. of τ, each with its interval (the two priors scored on the same resampled
  datasets, paired), with both distributions.

Example
-------
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> R = rng.integers(0, 2, size=(5, 20, 8)); R0 = R[:, :, :1]
>>> g = sc.greedy_vs_sampling(R, R0, replicates=10)
>>> round(g.tau_gs, 3) == round(g.tau_gs, 3)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd

from .._ties import rank_scores
from .._validation import ValidationError, as_outcome_array, model_names
from ..display import Displayed, recorded
from ..outcomes import COMBINED, Outcomes, as_outcomes
from ..rank import METHODS
from .agreement import PairedGap, kendall_tau_b, mean_sd, paired_gap, paired_sd_reduction
from .convergence import Curves, convergence_curves

__all__ = ["GreedyAnalysis", "GreedyByBenchmark", "greedy_by_benchmark", "greedy_table",
           "greedy_vs_sampling"]


@dataclass(frozen=True, repr=False)
class GreedyAnalysis(Displayed):
    """Everything the Greedy-vs-sampling page and ``scorio-studio greedy`` show."""

    difficulty: float  # mean sampled accuracy
    greedy_accuracy: float  # mean greedy accuracy
    tau_gs: float
    ranks: pd.DataFrame  # model, sampling/greedy accuracy and rank, displacement
    curves: Curves  # methods "bayes" (uniform) and "bayes_greedy" (R0 prior)
    n_trials: int | None = None  # N: the trials the resampled datasets re-draw

    @property
    def n1(self) -> pd.DataFrame:
        """Per prior at the smallest n: mean and s.d. of τ_b over replicates."""
        i = 0
        rows = []
        for mid, label in (("bayes", "uniform"), ("bayes_greedy", "greedy (R0)")):
            mean, sd = mean_sd(self.curves.tau[mid][:, i])
            rows.append({"prior": label, "n": int(self.curves.steps[i]), "mean": mean, "sd": sd})
        return pd.DataFrame(rows)

    @property
    def delta_tau(self) -> float:
        """Greedy minus uniform mean τ_b at the smallest n (Ranking Reasoning LLMs under Test-Time
        Scaling (2026), Table 4)."""
        m = self.n1["mean"].to_numpy()
        return float(m[1] - m[0])

    @property
    def delta_tau_gap(self) -> PairedGap:
        """Δτ with its standard error and 95% interval: greedy minus uniform τ_b at the
        smallest n, paired over the same resampled datasets, the standard error counting
        that they re-draw the same ``n_trials`` trials
        (:func:`~scorio_core.engines.agreement.paired_gap`). The prior helps (or hurts) only
        where the interval excludes 0 (:attr:`PairedGap.separated`)."""
        return paired_gap(self.curves.tau["bayes_greedy"][:, 0], self.curves.tau["bayes"][:, 0],
                          draws_from=self.n_trials)

    @property
    def sd_reduction_gap(self) -> PairedGap:
        """The s.d. reduction with its standard error and 95% interval: ``1 - sd(greedy) /
        sd(uniform)`` of τ_b at the smallest n over the same resampled datasets, paired, the
        standard error counting that they re-draw the same ``n_trials`` trials
        (:func:`~scorio_core.engines.agreement.paired_sd_reduction`: :func:`paired_gap`'s
        construction on the log of the s.d. ratio). The prior narrows (or widens) the spread
        only where the interval excludes 0 (:attr:`PairedGap.separated`)."""
        return paired_sd_reduction(self.curves.tau["bayes_greedy"][:, 0],
                                   self.curves.tau["bayes"][:, 0], draws_from=self.n_trials)

    @property
    def sd_reduction(self) -> float:
        """Relative reduction of the s.d. of τ_b from the greedy prior (Ranking Reasoning LLMs under
        Test-Time Scaling (2026), Table 4): ``1 - sd(greedy) / sd(uniform)`` at the smallest n
        (:attr:`n1`'s s.d.; its interval: :attr:`sd_reduction_gap`)."""
        return self.sd_reduction_gap.mean

    @property
    def distributions(self) -> pd.DataFrame:
        """Long table of τ_b at the smallest n per replicate and prior (Ranking Reasoning LLMs under
        Test-Time Scaling (2026), Fig. 7)."""
        return pd.concat(
            [
                pd.DataFrame({"prior": label, "tau_b": self.curves.tau[mid][:, 0]})
                for mid, label in (("bayes", "uniform"), ("bayes_greedy", "greedy (R0)"))
            ],
            ignore_index=True,
        )

    def summary(self) -> dict[str, float]:
        """The Ranking Reasoning LLMs under Test-Time Scaling (2026), Table 4 row: the mean accuracy
        (the paper's "difficulty"; named here so it is not read as the Questions view's 2PL
        difficulty), τ_G-S, Δτ with its 95% interval (``delta_tau_lo``, ``delta_tau_hi``:
        :attr:`delta_tau_gap`), the s.d. reduction with its 95% interval
        (``sd_reduction_lo``, ``sd_reduction_hi``: :attr:`sd_reduction_gap`), plus the greedy
        accuracy."""
        gap, spread = self.delta_tau_gap, self.sd_reduction_gap
        return {
            "mean_accuracy": self.difficulty,
            "greedy_accuracy": self.greedy_accuracy,
            "tau_gs": self.tau_gs,
            "delta_tau": self.delta_tau,
            "delta_tau_lo": gap.lo,
            "delta_tau_hi": gap.hi,
            "sd_reduction": spread.mean,
            "sd_reduction_lo": spread.lo,
            "sd_reduction_hi": spread.hi,
        }


@recorded(data="R", skip=("R0", "progress"))
def greedy_vs_sampling(
    R,
    R0,
    *,
    models: Sequence[str] | None = None,
    replicates: int = 50,
    scheme: str = "column",
    seed: int = 0,
    steps: Sequence[int] | None = None,
    progress: Callable[[float, str], None] | None = None,
) -> GreedyAnalysis:
    """Greedy-vs-sampling alignment and the greedy prior's effect (Ranking Reasoning LLMs under
    Test-Time Scaling (2026), §3.4).

    ``replicates`` resampled datasets (the paper uses 50) give the prior curves;
    the N = 1 statistics are read at the smallest step (default n = 1).

    Example
    -------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> R, R0 = rng.integers(0, 2, (3, 20, 6)), rng.integers(0, 2, (3, 20, 1))
    >>> list(sc.greedy_vs_sampling(R, R0, replicates=5).summary())[3:6]
    ['delta_tau', 'delta_tau_lo', 'delta_tau_hi']
    """
    R = as_outcome_array(R, name="R", min_ndim=3, max_ndim=3)
    if R0 is None:
        raise ValidationError(
            "greedy vs sampling needs greedy outcomes R0; this dataset has none (load a file "
            "with a 'decoding' column or an R0 array)"
        )
    R0 = as_outcome_array(R0, name="R0", min_ndim=3, max_ndim=3)
    if R0.shape[:2] != R.shape[:2]:
        raise ValidationError(
            f"R0 must have shape (L, M, D) = ({R.shape[0]}, {R.shape[1]}, D); got {R0.shape}"
        )
    if max(R.max(), R0.max()) > 1:
        raise ValidationError(
            "greedy vs sampling compares binary correctness; map categories to 0/1 first"
        )
    L = R.shape[0]
    names = list(model_names(models, L))  # a string is split at its commas unless L == 1
    sample_acc = R.mean(axis=(1, 2))
    greedy_acc = R0.mean(axis=(1, 2))
    s_rank = METHODS["bayes"](R)[0]
    g_rank = rank_scores(greedy_acc)
    ranks = (
        pd.DataFrame(
            {
                "model": names,
                "sampling_accuracy": sample_acc,
                "greedy_accuracy": greedy_acc,
                "sampling_rank": s_rank,
                "greedy_rank": g_rank,
                "displacement": g_rank - s_rank,
            }
        )
        .sort_values("sampling_rank", kind="stable")
        .reset_index(drop=True)
    )
    curves = convergence_curves(
        R,
        R0,
        ["bayes", "bayes_greedy"],
        replicates=replicates,
        scheme=scheme,
        seed=seed,
        steps=steps,
        progress=progress,
    )
    return GreedyAnalysis(
        difficulty=float(sample_acc.mean()),
        greedy_accuracy=float(greedy_acc.mean()),
        tau_gs=kendall_tau_b(g_rank, s_rank),
        ranks=ranks,
        curves=curves,
        n_trials=int(R.shape[2]),
    )


class GreedyByBenchmark(Displayed, dict):
    """What :func:`greedy_by_benchmark` returns: a ``dict`` of benchmark name ->
    :class:`GreedyAnalysis` (``"combined"`` last) that displays its one-row-per-benchmark
    table (:func:`greedy_table`)."""


@recorded(skip=("progress",))
def greedy_by_benchmark(
    data: Outcomes,
    *,
    replicates: int = 50,
    seed: int = 0,
    progress: Callable[[float, str], None] | None = None,
) -> GreedyByBenchmark:
    """:func:`greedy_vs_sampling` for each benchmark of ``data`` and for all its questions
    (key ``"combined"``, last); only ``"combined"`` when ``data`` has one benchmark or none.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> rng = np.random.default_rng(0)
    >>> data = Outcomes(rng.integers(0, 2, (3, 20, 6)), R0=rng.integers(0, 2, (3, 20, 1)))
    >>> list(sc.greedy_by_benchmark(data, replicates=5))
    ['combined']
    """
    data = as_outcomes(data, "greedy_by_benchmark")  # an array: (L, M, N), not 2-D
    names = data.benchmark_names if len(data.benchmark_names) > 1 else []
    parts = [*names, COMBINED]
    out = GreedyByBenchmark()
    for i, b in enumerate(parts):
        if progress is not None:
            progress(i / len(parts), b)
        d = data.select(b)
        part = None
        if progress is not None:

            def part(f: float, msg: str, i: int = i, b: str = b) -> None:
                progress((i + f) / len(parts), f"{b}: {msg}")

        out[b] = greedy_vs_sampling(
            d.R, d.R0, models=d.models, replicates=replicates, seed=seed, progress=part
        )
    if progress is not None:
        progress(1.0, "done")
    return out


def greedy_table(analyses: dict[str, GreedyAnalysis]) -> pd.DataFrame:
    """One Ranking Reasoning LLMs under Test-Time Scaling (2026), Table 4 row per benchmark: mean
    accuracy (the paper's difficulty), τ_G-S, Δτ and the s.d. reduction, each with its 95%
    interval."""
    return pd.DataFrame([{"benchmark": b} | g.summary() for b, g in analyses.items()])
