"""Analyses over rankings: agreement, stability, convergence (SPEC §6)."""

from .agreement import (
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
)

__all__ = [
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
]
