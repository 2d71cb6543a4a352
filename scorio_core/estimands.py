"""The two estimands and the multiplicity controls, declared once (SPEC §4).

Light on purpose (no NumPy/SciPy import): the CLI's option parser, the app's widgets and
the exports read these names; the statistics live in :mod:`scorio_core.inference`.
"""

from __future__ import annotations

__all__ = [
    "SCOPES",
    "SCOPE_HELP",
    "ADJUSTMENTS",
    "ADJUST_HELP",
    "ADJUST_LABELS",
    "NOT_IDENTIFIED",
    "ASSURANCE",
    "ASSURANCE_HELP",
    "CALIBRATED_M",
    "SPLIT_TRIALS_PER_MODEL",
]

SCOPES = ("questions", "population")
#: Numbers of questions the calibration is measured at (``calibration.GRID``,
#: ``benchmarks/calibration.py``); below the smallest, no stated probability is checked.
CALIBRATED_M = (15, 30, 100, 500)
#: A run's shares stand in for the truth of smaller runs (``smaller_run``) with at most
#: ``1 /`` this many of its trials per question.
STAND_IN_RATIO = 4
#: The budget of extra trials per question whose split the Planner checks are realised
#: with (``plan_calibration.allocation_check`` / ``resample_allocation``, Check a smaller
#: run): this many per model, ``3 L`` in all.
SPLIT_TRIALS_PER_MODEL = 3
#: Largest trials per question and number of questions the Planner's searches consider
#: (``planner``); the Planner checks draw plans up to them.
MAX_TRIALS = 100_000
MAX_QUESTIONS = 1_000_000
#: Question plans larger than this are not drawn by the Planner checks unless asked
#: (``max_questions=``; ``plan_calibration.MAX_REALISED``): drawing every population plan at
#: M = 30, N = 4, most of which are larger, takes about 7 times as long.
CHECKED_QUESTIONS = 4000
#: What each scope estimates, for captions, help texts and exports.
SCOPE_HELP = {
    "questions": "mean score over the questions asked (uncertainty from finite trials)",
    "population": "mean score over the population the questions were drawn from "
    "(trials and question sampling)",
}
#: Multiplicity control; the first is the default.
ADJUSTMENTS = ("holm", "simultaneous", "bh", "none")
#: The adjustments whose promise is family-wise (no false decision anywhere with probability
#: at least the confidence); ``bh`` promises a false-discovery rate, ``none`` a per-pair one.
FAMILY_WISE = ("holm", "simultaneous")
ADJUST_HELP = {
    "holm": "family-wise error ≤ 1 − confidence (Holm step-down): no false pairwise decision "
    "anywhere with probability ≥ confidence, so the rank intervals hold jointly",
    "simultaneous": "step-down max-|t| over the joint law of the pairs (questions scope: normal; "
    "population scope: sign flips of the questions' pair differences): a little more power "
    "than Holm; its family-wise error was measured at 4.1–5.5% (one cell 5.6%) for a "
    "nominal 5% on binary data with 15–100 questions (docs/calibration_gaps.md)",
    "bh": "false-discovery rate ≤ 1 − confidence (Benjamini–Hochberg)",
    "none": "each pair on its own at the confidence (per-pair error; several false "
    "decisions possible among many pairs)",
}
#: Short labels of the controls for select boxes.
ADJUST_LABELS = {
    "holm": "Holm (family-wise)",
    "simultaneous": "simultaneous (max-|t|)",
    "bh": "Benjamini–Hochberg (FDR)",
    "none": "none (per pair)",
}
#: Why a scope's intervals and decisions cannot be estimated from these data, per scope.
NOT_IDENTIFIED = {
    "questions": "With N = 1 trial per question the trial-to-trial variance is never seen, so "
    "the questions-scope interval cannot be estimated; use the population scope "
    "(scope='population'), which needs no within-question variance.",
    "population": "With M = 1 question the question-to-question spread is never seen, so "
    "the population-scope interval cannot be estimated; add questions, or use the questions "
    "scope (scope='questions'), which needs N ≥ 2 trials per question.",
}

#: Default chance, for the Planner, that the planned data decide a pair (its "assurance").
ASSURANCE = 0.80
ASSURANCE_HELP = (
    "chance that the planned data decide the pair at the decision level (predictive "
    "probability over what the extra data may show; checked by simulation with known truth)"
)
