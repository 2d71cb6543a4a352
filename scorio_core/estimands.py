"""The two estimands and the multiplicity controls, declared once (SPEC §4).

Light on purpose (no NumPy/SciPy import): the CLI's option parser, the app's widgets and
the exports read these names; the statistics live in :mod:`scorio_core.inference`.
"""

from __future__ import annotations

__all__ = ["SCOPES", "SCOPE_HELP", "ADJUSTMENTS", "ADJUST_HELP", "NOT_IDENTIFIED"]

SCOPES = ("questions", "population")
#: What each scope estimates, for captions, help texts and exports.
SCOPE_HELP = {
    "questions": "mean score over the questions asked (uncertainty from finite trials)",
    "population": "mean score over the population the questions were drawn from "
    "(trials and question sampling)",
}
#: Multiplicity control; the first is the default.
ADJUSTMENTS = ("simultaneous", "holm", "bh", "none")
ADJUST_HELP = {
    "simultaneous": "no false pairwise decision anywhere with probability ≥ confidence "
    "(step-down max-|t|); rank intervals hold jointly",
    "holm": "family-wise error ≤ 1 − confidence (Holm); rank intervals hold jointly",
    "bh": "false-discovery rate ≤ 1 − confidence (Benjamini–Hochberg)",
    "none": "each pair on its own at the confidence (per-pair error; several false "
    "decisions possible among many pairs)",
}
NOT_IDENTIFIED = (
    "With N = 1 trial per question the trial-to-trial variance is never seen, so the "
    "questions-scope interval cannot be estimated; use the population scope "
    "(scope='population'), which needs no within-question variance."
)
