"""The rubric presets of the two papers (SPEC §7).

* ``dontpass/*`` -- the 12 categorical schemata of "Don't Pass@k" (seed 000,
  App. F, Table 5) built from the rubric variables of its Table 4. Thresholds
  are "computed per dataset", so percentiles use ``scope="dataset"`` (per
  benchmark, all models pooled).
* ``ranking/*`` -- the 8 representative schemes of "Ranking reasoning LLMs
  under test-time scaling" (seed 002, App. F, Table 21) with their weights and
  the predicates of its App. F.3. "All thresholds are computed per-model", so
  percentiles use ``scope="model"``.

Every rule list starts with category 0 (invalid) and partitions the remaining
completions, so no preset needs a default category. Where a paper's definition
is ambiguous the reading chosen is stated in the preset's ``description``
(and listed in :data:`READINGS`).

Example
-------
>>> from scorio_core.rubric.presets import PRESETS, get_preset
>>> len(PRESETS)
20
>>> get_preset("ranking/conservative").weights
(0.0, -0.1, 0.05, 1.0)
"""

from __future__ import annotations

import difflib
import re

import pandas as pd

from .._validation import ValidationError
from .model import AllOf, Compare, Condition, Rubric, Rule

__all__ = ["PRESETS", "READINGS", "list_presets", "get_preset"]

SOURCE_000 = (
    "Don't Pass@k: a Bayesian framework for LLM evaluation (seed 000), App. F, Table 5 "
    "(variables: Table 4)"
)
SOURCE_002 = "Ranking reasoning LLMs under test-time scaling (seed 002), App. F.3-F.4, Table 21"


def _cmp(signal: str, op: str, value: float, label: str = "") -> Compare:
    return Compare(signal, op, value=value, label=label)


def _pct(signal: str, op: str, q: float, scope: str, among: Condition | None = None) -> Compare:
    return Compare(signal, op, percentile=q, scope=scope, among=among)


class _Vars:
    """The shared rubric variables (000 Table 4 / 002 App. F.3) at one percentile scope."""

    def __init__(self, scope: str) -> None:
        s = scope
        self.correct = _cmp("is_correct", ">=", 0.5, "correct")
        self.wrong = _cmp("is_correct", "<", 0.5, "wrong")
        self.repeated = _cmp("repeated_pattern", "==", 1.0, "repeated")
        self.invalid = (self.repeated | _cmp("compass_C", ">=", 0.5)).named("invalid")
        self.high_conf = _pct("completion_bpt", "<=", 40, s).named("high_conf")
        self.low_conf = _pct("completion_bpt", ">", 40, s).named("low_conf")
        self.wrong_high_conf = (
            self.wrong & _pct("completion_bpt", "<=", 60, s, among=self.wrong)
        ).named("wrong_high_conf")
        self.ood = _pct("prompt_bpt", ">=", 90, s).named("ood")
        self.ind = _pct("prompt_bpt", "<", 90, s).named("ind")
        self.economical = _pct("token_ratio", "<=", 33, s).named("economical")
        self.moderate = (_pct("token_ratio", ">", 33, s) & _pct("token_ratio", "<=", 66, s)).named(
            "moderate"
        )
        self.verbose = _pct("token_ratio", ">", 66, s).named("verbose")
        self.boxed = _cmp("has_box", ">=", 0.5, "boxed")
        self.unboxed = _cmp("has_box", "<", 0.5, "unboxed")
        self.A_high = _cmp("compass_A", ">=", 0.6, "A_high")
        # dominant verifier label = argmax(A, B, C), ties to the first (as numpy.argmax)
        A, B, C = "compass_A", "compass_B", "compass_C"
        self.dom_A = AllOf(
            (Compare(A, ">=", other=B), Compare(A, ">=", other=C)), label="dominant=A"
        )
        self.dom_B = AllOf(
            (Compare(B, ">", other=A), Compare(B, ">=", other=C)), label="dominant=B"
        )
        self.dom_C = AllOf((Compare(C, ">", other=A), Compare(C, ">", other=B)), label="dominant=C")
        # confidence tertiles among correct items (000 Table 4: corr_p33, corr_p66)
        self.corr_high = _pct("completion_bpt", "<=", 33, s, among=self.correct).named(
            "bpt <= corr_p33"
        )
        self.corr_mid = _pct("completion_bpt", "<=", 66, s, among=self.correct).named(
            "bpt <= corr_p66"
        )


def _rubric(
    name: str,
    cats: list[tuple[str, float, str]],
    rules: list[tuple[int, Condition]],
    *,
    intent: str,
    source: str,
    reading: str = "",
    description: str = "",
) -> Rubric:
    desc = description
    if reading:
        desc = (desc + " " if desc else "") + "Reading: " + reading
    return Rubric(
        name=name,
        categories=tuple(c[0] for c in cats),
        weights=tuple(float(c[1]) for c in cats),
        category_descriptions=tuple(c[2] for c in cats),
        rules=tuple(Rule(k, cond) for k, cond in rules),
        description=desc,
        intent=intent,
        source=source,
    )


_W000 = (
    "000 gives weights only for Format Aware ([0, 0, 1, 2, 3]: 0 for invalid, then k-1); "
    "the same ordinal ramp w = (0, 0, 1, ..., C-1) is used here"
)


def _dontpass() -> dict[str, Rubric]:
    v = _Vars("dataset")
    inv = ("invalid", 0.0, "repeated_pattern = 1 or compass_C >= 0.5")
    S = SOURCE_000
    out: dict[str, Rubric] = {}
    out["exact-match"] = _rubric(
        "Exact Match",
        [inv, ("wrong", 0.0, ""), ("correct", 1.0, "")],
        [(0, v.invalid), (1, v.wrong), (2, v.correct)],
        intent="Correctness only; ignores formatting, confidence, and length.",
        source=S,
        reading=_W000 + " (invalid and wrong both score 0, so the ranking equals binary Bayes@N).",
    )
    out["format-aware"] = _rubric(
        "Format Aware",
        [
            inv,
            ("wrong ∧ unboxed", 0, ""),
            ("wrong ∧ boxed", 1, ""),
            ("correct ∧ unboxed", 2, ""),
            ("correct ∧ boxed", 3, ""),
        ],
        [
            (0, v.invalid),
            (1, v.wrong & v.unboxed),
            (2, v.wrong & v.boxed),
            (3, v.correct & v.unboxed),
            (4, v.correct & v.boxed),
        ],
        intent="Rewards boxed, well-formatted answers; distinguishes boxed/unboxed even when "
        "wrong.",
        source=S,
        description="Weights [0, 0, 1, 2, 3] as given in 000 App. F.1.",
    )
    out["conf-calibrated"] = _rubric(
        "Conf-Calibrated",
        [
            inv,
            ("wrong ∧ low_conf", 0, "wrong, not wrong_high_conf"),
            ("wrong_high_conf", -1, "wrong and bpt <= P60 of bpt among wrong"),
            ("correct ∧ low_conf", 1, "correct, bpt > corr_p66"),
            ("correct ∧ mid", 2, "correct, corr_p33 < bpt <= corr_p66"),
            ("correct ∧ high_conf", 3, "correct, bpt <= corr_p33"),
        ],
        [
            (0, v.invalid),
            (2, v.wrong_high_conf),
            (1, v.wrong),
            (5, v.correct & v.corr_high),
            (4, v.correct & v.corr_mid),
            (3, v.correct),
        ],
        intent="Penalizes confidently wrong; grades correct answers by confidence (low/mid/high).",
        source=S,
        reading="wrong_high_conf is tested before the other wrong answers (category 1 = wrong "
        "and not wrong_high_conf), so the categories partition; correct answers are split by "
        "the tertiles of completion_bpt among correct items (corr_p33, corr_p66 of Table 4). "
        "No weights are given in 000; chosen w = [0, 0, -1, 1, 2, 3] (confidently wrong "
        "penalized, correct graded by confidence) because the ordinal ramp would reward "
        "confidently wrong answers.",
    )
    out["ood-robustness"] = _rubric(
        "OOD Robustness",
        [
            inv,
            ("ood ∧ wrong", 0, ""),
            ("ind ∧ wrong", 1, ""),
            ("ood ∧ correct", 2, ""),
            ("ind ∧ correct", 3, ""),
        ],
        [
            (0, v.invalid),
            (1, v.ood & v.wrong),
            (2, v.ind & v.wrong),
            (3, v.ood & v.correct),
            (4, v.ind & v.correct),
        ],
        intent="Separates in-distribution vs. OOD prompts; checks correctness under both.",
        source=S,
        reading=_W000 + "; ood = prompt_bpt >= P90 of prompt_bpt.",
    )
    out["strict-compliance"] = _rubric(
        "Strict Compliance",
        [inv, ("wrong ∨ (correct ∧ unboxed)", 0, "non-compliant"), ("correct ∧ boxed", 1, "")],
        [(0, v.invalid), (1, v.wrong | (v.correct & v.unboxed)), (2, v.correct & v.boxed)],
        intent="Requires boxed final answers; unboxed-correct is treated as non-compliant.",
        source=S,
        reading=_W000 + ".",
    )
    out["conf-wrong-penalty"] = _rubric(
        "Conf-Wrong Penalty",
        [
            inv,
            ("wrong_high_conf", 0, "wrong and bpt <= P60 of bpt among wrong"),
            ("wrong ∧ low_conf", 1, "wrong, not wrong_high_conf"),
            ("correct", 2, ""),
        ],
        [(0, v.invalid), (1, v.wrong_high_conf), (2, v.wrong), (3, v.correct)],
        intent="Heavier penalty for wrong answers at high confidence; lighter when uncertain.",
        source=S,
        reading="category 2 'wrong ∧ low_conf' is read as every wrong answer that is not "
        "wrong_high_conf (with low_conf = bpt > P40 literally, wrong answers with "
        "P60(wrong) < bpt <= P40 would fall in no category). " + _W000 + ".",
    )
    out["verifier-only"] = _rubric(
        "Verifier-Only",
        [
            inv,
            ("high C", 0, "C is the dominant verifier label"),
            ("high B", 1, "B dominant, or A dominant but below 0.6"),
            ("A_high", 2, "A >= 0.6"),
        ],
        [(0, v.invalid), (3, v.A_high), (1, v.dom_C), (2, v.dom_B | v.dom_A)],
        intent="Uses verifier signals alone to rank; model-agnostic prob of the verifier.",
        source=S,
        reading="'high C' / 'high B' are read as the dominant verifier label (argmax of A, B, "
        "C, as in 002 App. F.3) and category 3 as A_high (A >= 0.6, Table 4); completions whose "
        "dominant label is A but A < 0.6 (no confident verdict) go to category 2. " + _W000 + ".",
    )
    out["format-confidence"] = _rubric(
        "Format+Confidence",
        [
            inv,
            ("wrong ∧ unboxed", 0, ""),
            ("wrong ∧ boxed ∧ low_conf", 0, ""),
            ("wrong ∧ boxed ∧ high_conf", -1, "confidently wrong"),
            ("correct ∧ unboxed ∧ low_conf", 1, ""),
            ("correct ∧ unboxed ∧ high_conf", 2, ""),
            ("correct ∧ boxed ∧ low_conf", 3, ""),
            ("correct ∧ boxed ∧ high_conf", 4, ""),
        ],
        [
            (0, v.invalid),
            (1, v.wrong & v.unboxed),
            (2, v.wrong & v.boxed & v.low_conf),
            (3, v.wrong & v.boxed & v.high_conf),
            (4, v.correct & v.unboxed & v.low_conf),
            (5, v.correct & v.unboxed & v.high_conf),
            (6, v.correct & v.boxed & v.low_conf),
            (7, v.correct & v.boxed & v.high_conf),
        ],
        intent="Balanced composite over (boxed/unboxed) x (low/high confidence) for both wrong "
        "and correct; emphasizes boxed, high-confidence correctness and penalizes confidently "
        "wrong.",
        source=S,
        reading="high_conf = completion_bpt <= P40 (tau_high). No weights in 000; chosen "
        "w = [0, 0, 0, -1, 1, 2, 3, 4] (the ordinal ramp would reward confidently wrong "
        "answers).",
    )
    out["length-robust"] = _rubric(
        "Length-Robust",
        [inv, ("wrong", 0.0, ""), ("correct", 1.0, "")],
        [(0, v.invalid), (1, v.wrong), (2, v.correct)],
        intent="Isolates correctness irrespective of verbosity; does not penalize length.",
        source=S,
        reading="Table 5 defines the same categories as Exact Match (0 invalid; 1 wrong; 2 "
        "correct), so the two presets coincide. " + _W000 + ".",
    )
    out["verifier-prob"] = _rubric(
        "Verifier Prob",
        [
            inv,
            ("wrong ∧ A_high", 0, "inconsistent with the verifier"),
            ("wrong ∧ ¬A_high", 1, ""),
            ("correct ∧ ¬A_high", 2, "under-confident verifier"),
            ("correct ∧ A_high", 3, ""),
        ],
        [
            (0, v.invalid),
            (1, v.wrong & v.A_high),
            (2, v.wrong & ~v.A_high),
            (3, v.correct & ~v.A_high),
            (4, v.correct & v.A_high),
        ],
        intent="Probes agreement with the verifier: flags wrong with high verifier A as "
        "inconsistent and distinguishes under/over-confidence on correct.",
        source=S,
        reading=_W000 + ".",
    )
    out["efficiency-adjusted"] = _rubric(
        "Efficiency-Adjusted",
        [
            inv,
            ("wrong ∧ economical", 0, ""),
            ("wrong ∧ moderate", -1, ""),
            ("wrong ∧ verbose", -2, ""),
            ("correct ∧ economical", 3, ""),
            ("correct ∧ moderate", 2.5, ""),
            ("correct ∧ verbose", 2, ""),
        ],
        [
            (0, v.invalid),
            (1, v.wrong & v.economical),
            (2, v.wrong & v.moderate),
            (3, v.wrong & v.verbose),
            (4, v.correct & v.economical),
            (5, v.correct & v.moderate),
            (6, v.correct & v.verbose),
        ],
        intent="Rewards short, correct completions; penalizes verbose outputs (especially when "
        "wrong).",
        source=S,
        reading="bands by the 33rd/66th percentiles of token_ratio (len_p33, len_p66). No "
        "weights in 000; chosen w = [0, 0, -1, -2, 3, 2.5, 2] (verbosity costs 2 when wrong, 1 "
        "when correct) because the ordinal ramp would reward verbose answers.",
    )
    out["concision-high-conf"] = _rubric(
        "Concision-High-Conf",
        [
            inv,
            ("wrong", 0, ""),
            ("correct ∧ verbose", 1, ""),
            ("correct ∧ moderate", 2, ""),
            ("correct ∧ economical", 3, ""),
            ("correct ∧ economical ∧ high_conf", 4, ""),
        ],
        [
            (0, v.invalid),
            (1, v.wrong),
            (5, v.correct & v.economical & v.high_conf),
            (4, v.correct & v.economical),
            (3, v.correct & v.moderate),
            (2, v.correct & v.verbose),
        ],
        intent="Prefers concise, high-confidence correct answers; downweights verbose correctness.",
        source=S,
        reading="category 5 (correct ∧ economical ∧ high_conf) is tested before 4 (so 4 = "
        "economical but not high_conf). " + _W000 + ".",
    )
    return {f"dontpass/{k}": r for k, r in out.items()}


def _ranking() -> dict[str, Rubric]:
    v = _Vars("model")
    inv = ("invalid", 0.0, "repeated_pattern = 1 or compass_C >= 0.5")
    S = SOURCE_002
    hc = "HighConf = completion_bpt <= P40 of the model's completion_bpt (App. F.3)"
    out: dict[str, Rubric] = {}
    out["conservative"] = _rubric(
        "Conservative",
        [
            inv,
            ("wrong ∧ high_conf", -0.10, "wrong-high-confidence"),
            ("wrong ∧ low_conf", 0.05, ""),
            ("correct", 1.00, ""),
        ],
        [(0, v.invalid), (1, v.wrong_high_conf), (2, v.wrong), (3, v.correct)],
        intent="Penalize confidently-wrong.",
        source=S,
        reading="Wrong ∧ HighConf = App. F.3's wrong-high-confidence (wrong and bpt <= P60 of "
        "bpt among the model's wrong answers); Wrong ∧ LowConf = the other wrong answers.",
    )
    out["efficiency-adj"] = _rubric(
        "Efficiency-adj.",
        [
            inv,
            ("wrong ∧ economical", 0.10, ""),
            ("wrong ∧ moderate", 0.07, ""),
            ("wrong ∧ verbose", 0.03, ""),
            ("correct ∧ economical", 1.0, ""),
            ("correct ∧ moderate", 0.92, ""),
            ("correct ∧ verbose", 0.85, ""),
        ],
        [
            (0, v.invalid),
            (1, v.wrong & v.economical),
            (2, v.wrong & v.moderate),
            (3, v.wrong & v.verbose),
            (4, v.correct & v.economical),
            (5, v.correct & v.moderate),
            (6, v.correct & v.verbose),
        ],
        intent="Discount verbose correct.",
        source=S,
        reading="economical/moderate/verbose by the model's P33 and P66 of token_ratio.",
    )
    out["format-aware"] = _rubric(
        "Format-aware",
        [
            inv,
            ("wrong ∧ unboxed", 0.10, ""),
            ("wrong ∧ boxed", 0.05, ""),
            ("correct", 0.90, "correct, not boxed"),
            ("correct ∧ boxed", 1.0, ""),
        ],
        [
            (0, v.invalid),
            (1, v.wrong & v.unboxed),
            (2, v.wrong & v.boxed),
            (4, v.correct & v.boxed),
            (3, v.correct),
        ],
        intent="Reward boxed correct.",
        source=S,
        reading="category 4 (Correct ∧ Boxed) is tested before 3 (Correct), so 3 holds the "
        "unboxed correct answers.",
    )
    out["balanced-comp"] = _rubric(
        "Balanced comp.",
        [
            inv,
            ("wrong ∧ unboxed", 0.10, ""),
            ("wrong ∧ boxed ∧ low_conf", 0.06, ""),
            ("wrong ∧ boxed ∧ high_conf", -0.02, ""),
            ("correct ∧ unboxed ∧ low_conf", 0.90, ""),
            ("correct ∧ unboxed ∧ high_conf", 0.95, ""),
            ("correct ∧ boxed ∧ low_conf", 0.97, ""),
            ("correct ∧ boxed ∧ high_conf", 1.0, ""),
        ],
        [
            (0, v.invalid),
            (1, v.wrong & v.unboxed),
            (2, v.wrong & v.boxed & v.low_conf),
            (3, v.wrong & v.boxed & v.high_conf),
            (4, v.correct & v.unboxed & v.low_conf),
            (5, v.correct & v.unboxed & v.high_conf),
            (6, v.correct & v.boxed & v.low_conf),
            (7, v.correct & v.boxed & v.high_conf),
        ],
        intent="Format x confidence.",
        source=S,
        reading=hc + ", for wrong and correct answers alike; within each pair low confidence "
        "comes first (as in 000's Format+Confidence, and matching the weights: -0.02 for "
        "confidently wrong).",
    )
    out["ood-robust"] = _rubric(
        "OOD-robust",
        [
            inv,
            ("ood ∧ wrong", 0.05, ""),
            ("ind ∧ wrong", 0.10, ""),
            ("ood ∧ correct", 0.95, ""),
            ("ind ∧ correct", 1.0, ""),
        ],
        [
            (0, v.invalid),
            (1, v.ood & v.wrong),
            (2, v.ind & v.wrong),
            (3, v.ood & v.correct),
            (4, v.ind & v.correct),
        ],
        intent="Reward in-distribution.",
        source=S,
        reading="OOD = prompt_bpt >= P90 of the model's prompt_bpt (App. F.3).",
    )
    abstain = (v.unboxed & v.wrong).named("abstain")
    out["rare-event"] = _rubric(
        "Rare-event",
        [
            inv,
            ("ood ∧ wrong", 0.05, ""),
            ("ood ∧ correct", 1.0, ""),
            ("ind ∧ wrong", 0.08, ""),
            ("ind ∧ correct", 0.95, ""),
            ("abstain", 0.20, "no boxed final answer and not correct"),
        ],
        [
            (0, v.invalid),
            (5, abstain),
            (1, v.ood & v.wrong),
            (2, v.ood & v.correct),
            (3, v.ind & v.wrong),
            (4, v.ind & v.correct),
        ],
        intent="OOD + abstention.",
        source=S,
        reading="the nine signals have no abstention flag; Abstain is read as 'no boxed final "
        "answer and not correct' (unboxed ∧ wrong) and tested before categories 1-4.",
    )
    out["verifier-calib"] = _rubric(
        "Verifier-calib.",
        [
            inv,
            ("wrong ∧ A_high", -0.05, "false positive of the verifier"),
            ("wrong ∧ ¬A_high", 0.05, ""),
            ("correct ∧ A_low", 0.88, "A is not the dominant label"),
            ("correct ∧ A_mid", 0.94, "A dominant but below 0.6"),
            ("correct ∧ A_high", 1.0, "A >= 0.6"),
        ],
        [
            (0, v.invalid),
            (1, v.wrong & v.A_high),
            (2, v.wrong & ~v.A_high),
            (5, v.correct & v.A_high),
            (4, v.correct & v.dom_A),
            (3, v.correct),
        ],
        intent="Penalize false-positive.",
        source=S,
        reading="A_high = A >= 0.6 (verifier-high, App. F.3); A_mid = A is the dominant label "
        "(argmax of A, B, C) but A < 0.6; A_low = A is not the dominant label.",
    )
    out["verifier-only"] = _rubric(
        "Verifier-only",
        [
            ("repeated", 0.0, "repeated_pattern = 1"),
            ("dominant C", 0.0, ""),
            ("dominant B", 0.1, ""),
            ("dominant A", 1.0, ""),
        ],
        [(0, v.repeated), (1, v.dom_C), (2, v.dom_B), (3, v.dom_A)],
        intent="No ground truth.",
        source=S,
        reading="category 0 is 'Repeated' only (as Table 21 lists it), not the full invalid "
        "predicate; the dominant label is argmax(A, B, C) with ties going to A, then B.",
    )
    return {f"ranking/{k}": r for k, r in out.items()}


#: Every preset by key (``dontpass/...`` = 000 Table 5, ``ranking/...`` = 002 Table 21).
PRESETS: dict[str, Rubric] = {**_dontpass(), **_ranking()}

#: Readings chosen where a paper is ambiguous, by preset key.
READINGS: dict[str, str] = {
    k: r.description.split("Reading: ", 1)[1]
    for k, r in PRESETS.items()
    if "Reading: " in r.description
}


def list_presets() -> pd.DataFrame:
    """One row per preset: ``key, name, paper, categories, weights, intent, source``."""
    return pd.DataFrame(
        [
            {
                "key": k,
                "name": r.name,
                "paper": k.split("/", 1)[0],
                "categories": r.C + 1,
                "weights": list(r.weights),
                "intent": r.intent,
                "source": r.source,
            }
            for k, r in PRESETS.items()
        ]
    )


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", s.lower())


def get_preset(name: str) -> Rubric:
    """The preset with this key; a unique case/punctuation-insensitive match of a key,
    its last part or a preset's display name is also accepted.

    Raises :class:`ValidationError` for unknown or ambiguous names, with close matches.
    """
    if not isinstance(name, str):
        raise ValidationError(f"preset name must be a string; got {type(name).__name__}")
    if name in PRESETS:
        return PRESETS[name]
    n = _norm(name)
    hits = [
        k
        for k, r in PRESETS.items()
        if n and n in (_norm(k), _norm(k.split("/", 1)[1]), _norm(r.name))
    ]
    if len(hits) == 1:
        return PRESETS[hits[0]]
    if len(hits) > 1:
        raise ValidationError(f"preset name {name!r} is ambiguous: {', '.join(hits)}")
    close = difflib.get_close_matches(name, list(PRESETS), n=3, cutoff=0.4)
    tails = sorted({k.split("/", 1)[1] for k in PRESETS})
    for t in difflib.get_close_matches(name.lower(), tails, n=2, cutoff=0.5):
        close += [k for k in PRESETS if k.endswith("/" + t)]
    close = list(dict.fromkeys(close))[:4]
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    raise ValidationError(f"unknown rubric preset {name!r}{hint} (available: {', '.join(PRESETS)})")
