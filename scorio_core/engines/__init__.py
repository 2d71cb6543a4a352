"""Analyses over rankings: agreement, stability, convergence (SPEC §6)."""

from ..resampling import model_pools, resample, resample_indices
from .agreement import (
    UNDEFINED_ALL_TIE,
    Comparison,
    MethodRun,
    agreement_summary,
    agreement_table,
    compare,
    consensus,
    gold_standard,
    kendall_tau_b,
    run_methods,
    tau_b_matrix,
    tau_b_to,
    tau_b_undefined_reason,
)
from .convergence import (
    ConvergenceRun,
    Curves,
    convergence_at_n,
    convergence_curves,
    subset_convergence,
    worst_trajectory,
)
from .greedy import GreedyAnalysis, greedy_by_benchmark, greedy_table, greedy_vs_sampling
from .stability import Stability, low_budget_stability, pool_robustness

__all__ = [
    "ConvergenceRun",
    "Curves",
    "GreedyAnalysis",
    "Stability",
    "convergence_at_n",
    "convergence_curves",
    "greedy_by_benchmark",
    "greedy_table",
    "greedy_vs_sampling",
    "low_budget_stability",
    "model_pools",
    "pool_robustness",
    "resample",
    "resample_indices",
    "subset_convergence",
    "tau_b_to",
    "worst_trajectory",
    "Comparison",
    "compare",
    "MethodRun",
    "agreement_summary",
    "agreement_table",
    "consensus",
    "gold_standard",
    "kendall_tau_b",
    "run_methods",
    "tau_b_matrix",
    "tau_b_undefined_reason",
    "UNDEFINED_ALL_TIE",
]
