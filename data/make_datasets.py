"""Generate the datasets bundled with Scorio Studio.

Run from anywhere::

    python data/make_datasets.py            # writes next to this file
    python data/make_datasets.py OUT_DIR    # writes into OUT_DIR

Everything is deterministic (fixed seeds). Two files are produced:

``biased_coins.npz``
    The 11 "LLM mimics" of paper 000 §2.7 / Table 1: biased coins with known
    per-question success probabilities whose means equal the paper's listed
    values exactly; M=30 questions, N=80 trials.

``reasoning_synthetic.npz``
    SYNTHETIC outcomes for 20 models x 4 math benchmarks (AIME'24, AIME'25,
    HMMT'25, BrUMO'25; 30 questions each), N=80 sampled trials plus one greedy
    trial, calibrated to the per-model mean and greedy accuracies of paper 002
    Tables 6-9, plus the nine per-completion signals of paper 002 Table 20
    (``signal__has_box`` ... ``signal__compass_C``, float16 (L, M, N)) for rubric
    building. These are NOT real model outputs.

File format (the project's ``.npz`` contract, loadable with
``np.load(path, allow_pickle=False)``): ``R`` int8 (L, M, N); optional ``R0``
int8 (L, M, D); ``models``, ``questions``, ``benchmarks``, ``category_names``
unicode arrays; ``weights`` float64; ``meta_json`` a 0-d unicode array holding a
JSON object; ``signal__<name>`` float16 (L, M, N) per-completion signals (loaded as
float64 by ``scorio_core.io``). Extra arrays (``true_p``, ``true_means``) are plain
float64. The signals are drawn from their own RNG stream after everything else, so
adding them left every other array byte-identical.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent

GENERATOR = "data/make_datasets.py"
CATEGORY_NAMES = np.array(["wrong", "correct"])
WEIGHTS = np.array([0.0, 1.0], dtype=np.float64)

# ---------------------------------------------------------------------------
# 1. Biased coins (paper 000 §2.7)
# ---------------------------------------------------------------------------
COINS_SEED = 20250711


def _simulate():
    """``scorio_core.simulate`` from this checkout (the script runs without installing)."""
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    from scorio_core import simulate

    return simulate


#: The paper's listed means (000 §2.7), as simulate.PAPER_COINS.
COINS_TRUE_MEANS = list(_simulate().PAPER_COINS)
COINS_M = 30
COINS_N = 80
#: Beta concentration a+b of the raw per-question draws (before the logit shift).
COINS_CONCENTRATION = 3.0


def build_biased_coins(seed: int = COINS_SEED) -> dict[str, np.ndarray]:
    """Arrays of ``biased_coins.npz`` (deterministic for a given ``seed``).

    The Beta draws, the exact-mean logit shift and the Bernoulli trials all come from
    :mod:`scorio_core.simulate` (the app's Simulator draws mimics the same way). The
    shift was a scalar ``brentq`` solve when the file was first written; the vectorized
    ``simulate.shift_to_means`` agrees with it to ~2e-16, which leaves every trial
    outcome unchanged (tests/test_datasets.py compares a regeneration as data).
    """
    sim = _simulate()
    rng = np.random.default_rng(seed)
    L = len(COINS_TRUE_MEANS)
    raw = sim.question_probs(
        COINS_TRUE_MEANS, COINS_M, concentration=COINS_CONCENTRATION, seed=rng
    )[..., 1]
    true_p = sim.shift_to_means(raw, np.array(COINS_TRUE_MEANS))
    R = sim.sample_outcomes(np.stack([1.0 - true_p, true_p], -1), COINS_N, rng)

    models = np.array([f"LLM_{i + 1}" for i in range(L)])
    questions = np.array([f"Q{q + 1:02d}" for q in range(COINS_M)])
    meta = {
        "name": "Biased coins (11 LLM mimics)",
        "synthetic": True,
        "description": (
            "Eleven simulated 'LLM mimics': biased coins with known per-question success "
            "probabilities (30 questions, 80 trials each), whose mean success probabilities "
            "equal the values listed in paper 000 §2.7; LLM_4 and LLM_5 are tied on purpose."
        ),
        "source": "000 §2.7 'Gold standard for ranking', Figure 2 and Table 1",
        "generator": GENERATOR,
        "seed": seed,
        "true_means": [float(m) for m in COINS_TRUE_MEANS],
        "construction": (
            f"per-question p ~ Beta({COINS_CONCENTRATION}*m, {COINS_CONCENTRATION}*(1-m)), "
            "shifted by one constant in logit space so mean(p) = m exactly; "
            "R[l,q,n] ~ Bernoulli(p[l,q])"
        ),
    }
    return {
        "R": R,
        "models": models,
        "questions": questions,
        "category_names": CATEGORY_NAMES.copy(),
        "weights": WEIGHTS.copy(),
        "true_p": true_p,
        "true_means": np.array(COINS_TRUE_MEANS, dtype=np.float64),
        "meta_json": np.array(json.dumps(meta)),
    }


# ---------------------------------------------------------------------------
# 2. Synthetic reasoning benchmarks (paper 002 Tables 6-9)
# ---------------------------------------------------------------------------
REASONING_SEED = 20250925
BENCHMARKS = ["AIME'24", "AIME'25", "HMMT'25", "BrUMO'25"]
QUESTIONS_PER_BENCHMARK = 30
REASONING_N = 80
#: Sampled mean of each (model, benchmark) block is redrawn until it is this close to target.
MEAN_TOLERANCE = 0.005
MAX_REDRAWS = 200
#: s.d. of the per-(model, question) noise, in units of the (pre-scale) logit.
ITEM_NOISE_SD = 0.35
#: Candidate logit scales (discriminations); per (model, benchmark) the one whose
#: expected per-trial accuracy s.d. is closest to the table's Std is used.
SCALE_GRID = np.geomspace(0.25, 6.0, 61)

MODELS = [
    "DS-R1-Qwen",
    "LIMO-v2",
    "OpenThinker2",
    "OpenThinker3",
    "Qwen3-Thinking",
    "Sky-T1-Flash",
    "gpt-oss-high",
    "gpt-oss-low",
    "gpt-oss-medium",
    "EXAONE-4.0",
    "OR-Nemotron",
    "Phi-4",
    "Phi-4-plus",
    "OR1-Distill",
    "FuseO1-DS-QwQ-SkyT1",
    "Light-R1-DS",
    "AR-Nemotron",
    "NVIDIA-Nemotron",
    "Qwen3-4B",
    "Bespoke",
]

# Per model (order of MODELS): (greedy acc, top-p min, mean, max, std), copied from
# paper 002 Appendix B. Table 6 = AIME'24, 7 = HMMT'25, 8 = AIME'25, 9 = BrUMO'25.
_TABLES = {
    "AIME'24": """
        0.200 0.167 0.297 0.433 0.055
        0.600 0.467 0.619 0.733 0.059
        0.767 0.600 0.722 0.833 0.048
        0.333 0.400 0.517 0.667 0.059
        0.867 0.767 0.875 0.933 0.038
        0.400 0.167 0.310 0.400 0.050
        0.700 0.633 0.747 0.833 0.053
        0.700 0.333 0.675 0.867 0.130
        0.800 0.533 0.755 0.867 0.054
        0.500 0.433 0.570 0.733 0.055
        0.433 0.367 0.490 0.667 0.064
        0.667 0.567 0.705 0.800 0.050
        0.533 0.633 0.753 0.867 0.049
        0.400 0.400 0.547 0.700 0.066
        0.500 0.633 0.728 0.800 0.042
        0.700 0.600 0.734 0.833 0.060
        0.700 0.600 0.709 0.800 0.043
        0.633 0.567 0.676 0.833 0.059
        0.767 0.667 0.772 0.900 0.052
        0.167 0.100 0.197 0.267 0.043
    """,
    "HMMT'25": """
        0.133 0.067 0.135 0.233 0.040
        0.433 0.233 0.347 0.467 0.048
        0.333 0.233 0.382 0.500 0.057
        0.200 0.200 0.297 0.467 0.047
        0.500 0.467 0.554 0.633 0.037
        0.167 0.033 0.106 0.200 0.034
        0.233 0.267 0.449 0.633 0.069
        0.167 0.100 0.203 0.333 0.051
        0.400 0.333 0.455 0.600 0.056
        0.400 0.200 0.335 0.433 0.060
        0.267 0.167 0.283 0.400 0.049
        0.467 0.267 0.378 0.533 0.056
        0.433 0.333 0.447 0.633 0.056
        0.233 0.133 0.251 0.333 0.042
        0.300 0.233 0.363 0.467 0.045
        0.367 0.233 0.356 0.433 0.045
        0.400 0.333 0.408 0.500 0.042
        0.333 0.267 0.362 0.467 0.048
        0.467 0.367 0.464 0.567 0.046
        0.000 0.000 0.080 0.167 0.035
    """,
    "AIME'25": """
        0.133 0.133 0.236 0.333 0.046
        0.633 0.333 0.541 0.700 0.068
        0.500 0.467 0.595 0.733 0.060
        0.367 0.333 0.425 0.600 0.057
        0.733 0.733 0.804 0.900 0.037
        0.267 0.133 0.220 0.333 0.041
        0.567 0.467 0.690 0.833 0.063
        0.600 0.267 0.598 0.800 0.145
        0.567 0.500 0.689 0.833 0.065
        0.467 0.300 0.441 0.567 0.054
        0.433 0.300 0.425 0.533 0.054
        0.600 0.400 0.599 0.767 0.072
        0.567 0.533 0.683 0.800 0.058
        0.533 0.300 0.426 0.567 0.059
        0.467 0.433 0.585 0.733 0.064
        0.633 0.467 0.589 0.700 0.056
        0.633 0.567 0.651 0.733 0.045
        0.467 0.433 0.546 0.667 0.050
        0.700 0.600 0.729 0.800 0.044
        0.100 0.067 0.193 0.300 0.050
    """,
    "BrUMO'25": """
        0.267 0.167 0.344 0.500 0.062
        0.567 0.500 0.651 0.800 0.065
        0.767 0.600 0.738 0.900 0.061
        0.500 0.400 0.512 0.667 0.055
        0.867 0.733 0.838 0.933 0.038
        0.333 0.233 0.372 0.500 0.059
        0.433 0.533 0.628 0.767 0.053
        0.500 0.300 0.393 0.500 0.053
        0.500 0.500 0.610 0.733 0.052
        0.533 0.333 0.484 0.633 0.059
        0.400 0.333 0.469 0.600 0.054
        0.733 0.533 0.692 0.800 0.052
        0.533 0.533 0.711 0.800 0.048
        0.567 0.367 0.538 0.667 0.057
        0.567 0.567 0.710 0.900 0.056
        0.700 0.600 0.690 0.833 0.049
        0.767 0.633 0.714 0.867 0.044
        0.633 0.533 0.649 0.800 0.048
        0.767 0.633 0.744 0.833 0.049
        0.167 0.167 0.265 0.367 0.053
    """,
}


def reasoning_targets() -> dict[str, dict[str, dict[str, float]]]:
    """``{benchmark: {model: {"greedy", "mean", "std"}}}`` from paper 002 Tables 6-9."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for b in BENCHMARKS:
        rows = [line.split() for line in _TABLES[b].strip().splitlines()]
        assert len(rows) == len(MODELS), b
        out[b] = {
            m: {"greedy": float(r[0]), "mean": float(r[2]), "std": float(r[4])}
            for m, r in zip(MODELS, rows, strict=True)
        }
    return out


def _solve_theta(scale: float, b: np.ndarray, eps: np.ndarray, target: float) -> np.ndarray:
    """p = sigmoid(scale * (theta - b + eps)) with theta chosen so that mean(p) == target."""
    u = eps - b

    def f(theta: float) -> float:
        return float(np.mean(expit(scale * (theta + u)))) - target

    lo, hi = -200.0, 200.0
    theta = brentq(f, lo, hi, xtol=1e-13, rtol=4 * np.finfo(float).eps, maxiter=500)
    return expit(scale * (theta + u))


def _expected_trial_sd(p: np.ndarray) -> float:
    """s.d. of the per-trial accuracy mean_q Bernoulli(p_q) (trials independent)."""
    return float(np.sqrt(np.sum(p * (1.0 - p)))) / p.size


def build_reasoning(seed: int = REASONING_SEED) -> dict[str, np.ndarray]:
    """Arrays of ``reasoning_synthetic.npz`` (deterministic for a given ``seed``)."""
    rng = np.random.default_rng(seed)
    targets = reasoning_targets()
    L, Q, N = len(MODELS), QUESTIONS_PER_BENCHMARK, REASONING_N
    M = Q * len(BENCHMARKS)

    true_p = np.empty((L, M), dtype=np.float64)
    scales = np.empty((L, len(BENCHMARKS)), dtype=np.float64)
    R = np.empty((L, M, N), dtype=np.int8)
    R0 = np.zeros((L, M, 1), dtype=np.int8)

    for j, bench in enumerate(BENCHMARKS):
        cols = slice(j * Q, (j + 1) * Q)
        # Question difficulties shared by all models (z-scored so the logit scale is meaningful).
        b = rng.normal(size=Q)
        b = (b - b.mean()) / b.std()
        eps = rng.normal(scale=ITEM_NOISE_SD, size=(L, Q))
        for i, model in enumerate(MODELS):
            t = targets[bench][model]
            # Pick the logit scale whose expected per-trial s.d. best matches the table's Std.
            best = None
            for s in SCALE_GRID:
                p = _solve_theta(float(s), b, eps[i], t["mean"])
                err = abs(_expected_trial_sd(p) - t["std"])
                if best is None or err < best[0]:
                    best = (err, float(s), p)
            _, scales[i, j], p = best
            true_p[i, cols] = p

            # Sampled trials: redraw the block until its mean is within MEAN_TOLERANCE.
            for _ in range(MAX_REDRAWS):
                block = (rng.random((Q, N)) < p[:, None]).astype(np.int8)
                if abs(block.mean() - t["mean"]) <= MEAN_TOLERANCE:
                    break
            else:  # pragma: no cover - vanishingly unlikely
                raise RuntimeError(f"could not calibrate {model} on {bench}")
            R[i, cols] = block

            # Greedy trial: exactly round(greedy * Q) correct questions, chosen with
            # probability proportional to p**2 (so greedy correlates with sampling).
            k = int(round(t["greedy"] * Q))
            if k:
                w = p**2
                chosen = rng.choice(Q, size=k, replace=False, p=w / w.sum())
                R0[i, j * Q + chosen, 0] = 1

    benchmarks = np.array([b for b in BENCHMARKS for _ in range(Q)])
    questions = np.array([f"{b}-{q + 1:02d}" for b in BENCHMARKS for q in range(Q)])
    # Signals come last, from their own RNG stream: R, R0 and true_p above are unchanged
    # by their addition (tests pin their checksums).
    signals = build_reasoning_signals(R, true_p)
    meta = {
        "name": "Reasoning benchmarks (synthetic)",
        "synthetic": True,
        "description": (
            "SYNTHETIC outcomes (NOT real model outputs) for 20 reasoning models on AIME'24, "
            "AIME'25, HMMT'25 and BrUMO'25 (30 questions each; 80 sampled trials plus one "
            "greedy trial), calibrated to the per-model mean and greedy accuracies reported in "
            "paper 002 Tables 6-9."
        ),
        "source": "Paper 002, Appendix B, Tables 6-9 (accuracy of models per benchmark)",
        "generator": GENERATOR,
        "seed": seed,
        "construction": (
            "per benchmark, z-scored question difficulties b_q ~ N(0,1) shared by all models; "
            "p[l,q] = sigmoid(a * (theta - b_q + e[l,q])) with e ~ N(0, "
            f"{ITEM_NOISE_SD}^2), the scale a picked from a grid so the expected per-trial "
            "accuracy s.d. approaches the table's Std, and theta solved (brentq) so mean_q p = "
            "the table's Top-p Mean exactly; R ~ Bernoulli(p), each (model, benchmark) block "
            f"redrawn until its sampled mean is within {MEAN_TOLERANCE} of the target; the "
            "greedy trial R0 marks round(greedy*30) questions correct, drawn without "
            "replacement with probability proportional to p^2. Trials are independent, so "
            "s.d. targets above the binomial maximum (gpt-oss-low) are not reached."
        ),
        "benchmarks": list(BENCHMARKS),
        "targets": targets,
    }
    return {
        "R": R,
        "R0": R0,
        "models": np.array(MODELS),
        "questions": questions,
        "benchmarks": benchmarks,
        "category_names": CATEGORY_NAMES.copy(),
        "weights": WEIGHTS.copy(),
        "true_p": true_p,
        "meta_json": np.array(json.dumps(meta)),
        **{f"signal__{k}": v for k, v in signals.items()},
    }


# ---------------------------------------------------------------------------
# 3. Per-completion signals of the reasoning data (paper 002 Table 20)
# ---------------------------------------------------------------------------
SIGNALS_SEED = 20251121
SIGNAL_NAMES = (
    "has_box",
    "is_correct",
    "token_ratio",
    "repeated_pattern",
    "prompt_bpt",
    "completion_bpt",
    "compass_A",
    "compass_B",
    "compass_C",
)
#: Completion budget in tokens: token_ratio = completion tokens / budget (002 Table 20).
TOKEN_BUDGET = 32768
#: Token counts are stored in steps of this many tokens, so token_ratio = k / 256 exactly.
TOKEN_STEP = 128
#: Verifier probabilities are multiples of 1/128, so A + B + C == 1 exactly in float16.
PROB_STEP = 128
#: Bits-per-token values are rounded to 1/32 bit (exact in float16).
BPT_STEP = 32


def _softmax3(sA: np.ndarray, sB: np.ndarray, sC: np.ndarray) -> tuple[np.ndarray, ...]:
    """Probabilities (multiples of 1/PROB_STEP summing to exactly 1) from three logits."""
    s = np.stack([sA, sB, sC])
    p = np.exp(s - s.max(axis=0))
    p /= p.sum(axis=0)
    a = np.round(p[0] * PROB_STEP)
    b = np.round(p[1] * PROB_STEP)
    c = PROB_STEP - a - b
    b = np.where(c < 0, b + c, b)  # rounding both up can overshoot by one step
    c = PROB_STEP - a - b
    return a / PROB_STEP, b / PROB_STEP, c / PROB_STEP


def build_reasoning_signals(
    R: np.ndarray, true_p: np.ndarray, seed: int = SIGNALS_SEED
) -> dict[str, np.ndarray]:
    """The nine SYNTHETIC per-completion signals of paper 002 Table 20, as float16 (L, M, N).

    Drawn from their own RNG stream (``seed``) *after* ``R`` is fixed, so they never
    change ``R``, ``R0`` or ``true_p``. Relations built in (and tested):

    * ``is_correct == R``; a correct answer is always boxed (``has_box = 1``); wrong
      answers are unboxed more often, and truncated ones almost always.
    * ``token_ratio`` = completion tokens / 32768 in (0, 1]: longer for wrong answers,
      weaker models and harder questions; a completion that reaches the budget is
      truncated (``token_ratio = 1``, ``repeated_pattern = 1``, i.e. a non-stop finish
      reason). Correct completions always stop before the budget.
    * ``prompt_bpt``: a per-question value plus a small per-model offset, identical for
      every trial of a (model, question) pair.
    * ``completion_bpt``: higher for weaker models and for wrong answers (on average),
      lower for degenerate repetitive output.
    * ``compass_A/B/C``: verifier probabilities of correct / wrong / invalid that sum to 1;
      high ``A`` on correct answers, less reliable on hard questions, high ``C`` on
      truncated output.
    """
    rng = np.random.default_rng(seed)
    L, M, N = R.shape
    correct = R.astype(bool)
    wrong = ~correct
    skill = true_p.mean(axis=1)
    weak = ((skill.max() - skill) / (skill.max() - skill.min()))[:, None, None]  # 0 = best
    hard = (1.0 - true_p.mean(axis=0))[None, :, None]  # per question, in [0, 1]

    # completion length: log-normal, longer for wrong answers / weak models / hard questions
    log_ratio = (
        np.log(0.16)
        + 0.55 * weak
        + 0.6 * hard
        + 0.4 * wrong
        + rng.normal(0.0, 0.2, (L, 1, 1))  # model verbosity
        + rng.normal(0.0, 0.15, (L, M, 1))  # (model, question) effect
        + rng.normal(0.0, 0.3, (L, M, N))  # trial noise
    )
    ratio = np.exp(log_ratio)
    truncated = wrong & (ratio >= 1.0)
    # correct completions stopped before the budget: fold the tail back into (0.8, 0.98)
    fold = correct & (ratio > 0.98)
    ratio = np.where(fold, rng.uniform(0.8, 0.98, ratio.shape), ratio)
    steps = TOKEN_BUDGET // TOKEN_STEP
    token_ratio = np.clip(np.ceil(ratio * steps), 1, steps) / steps
    token_ratio[truncated] = 1.0

    p_box = np.where(truncated, 0.08, 0.93 - 0.2 * weak)
    has_box = np.where(correct, 1.0, (rng.random((L, M, N)) < p_box).astype(float))

    prompt = (
        rng.normal(1.7, 0.22, (1, M, 1))
        + 0.3 * hard
        + rng.normal(0.0, 0.12, (L, 1, 1))  # tokenizer / model family
        + rng.normal(0.0, 0.04, (L, M, 1))
    )
    prompt_bpt = np.broadcast_to(
        np.round(np.clip(prompt, 0.3, None) * BPT_STEP) / BPT_STEP, (L, M, N)
    )

    bpt = (
        0.42
        + 0.35 * weak
        + rng.normal(0.0, 0.05, (L, 1, 1))
        + 0.12 * hard
        + 0.2 * wrong
        - 0.25 * truncated
        + rng.normal(0.0, 0.13, (L, M, N))
    )
    completion_bpt = np.round(np.clip(bpt, 0.05, None) * BPT_STEP) / BPT_STEP

    # verifier logits; false positives grow with question difficulty
    sA = np.where(
        correct,
        2.3 - 1.2 * hard + rng.normal(0, 1.0, R.shape),
        -1.3 + 1.0 * hard + rng.normal(0, 1.2, R.shape),
    )
    sB = np.where(correct, rng.normal(0, 1.0, R.shape), 1.2 + rng.normal(0, 1.0, R.shape))
    sC = np.where(correct, -2.6, -1.9) + rng.normal(0, 0.7, R.shape)
    sC = sC + 3.2 * truncated + 0.8 * (wrong & ~truncated & (has_box == 0))
    sA = sA - 1.0 * truncated
    compass_A, compass_B, compass_C = _softmax3(sA, sB, sC)

    out = {
        "has_box": has_box,
        "is_correct": correct.astype(float),
        "token_ratio": token_ratio,
        "repeated_pattern": truncated.astype(float),
        "prompt_bpt": prompt_bpt,
        "completion_bpt": completion_bpt,
        "compass_A": compass_A,
        "compass_B": compass_B,
        "compass_C": compass_C,
    }
    assert tuple(out) == SIGNAL_NAMES
    return {k: np.ascontiguousarray(v, dtype=np.float16) for k, v in out.items()}


# ---------------------------------------------------------------------------
# Saving, validation, report
# ---------------------------------------------------------------------------
DATASETS = {
    "biased_coins.npz": build_biased_coins,
    "reasoning_synthetic.npz": build_reasoning,
}


def validate(arrays: dict[str, np.ndarray]):
    """Build a :class:`scorio_core.outcomes.Outcomes` from ``arrays`` (raises if invalid)."""
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    from scorio_core.outcomes import Outcomes

    for key, a in arrays.items():
        if a.dtype == object:
            raise TypeError(f"array {key!r} is an object array")
    meta = json.loads(str(arrays["meta_json"][()]))
    signals = {k[len("signal__") :]: v for k, v in arrays.items() if k.startswith("signal__")}
    return Outcomes(
        R=arrays["R"],
        R0=arrays.get("R0"),
        weights=arrays["weights"],
        category_names=arrays["category_names"].tolist(),
        models=arrays["models"].tolist(),
        questions=arrays["questions"].tolist(),
        benchmarks=arrays["benchmarks"].tolist() if "benchmarks" in arrays else None,
        signals=signals,
        name=meta["name"],
        metadata=meta,
    )


def calibration_report(arrays: dict[str, np.ndarray]) -> dict[str, dict[str, float]]:
    """Max abs error of sampled mean / greedy / trial s.d. vs the targets, per benchmark."""
    targets = json.loads(str(arrays["meta_json"][()]))["targets"]
    R, R0, bench = arrays["R"], arrays["R0"], arrays["benchmarks"]
    out = {}
    for b in BENCHMARKS:
        keep = bench == b
        mean = R[:, keep].mean(axis=(1, 2))
        greedy = R0[:, keep, 0].mean(axis=1)
        sd = R[:, keep].mean(axis=1).std(axis=1)
        tm = np.array([targets[b][m]["mean"] for m in MODELS])
        tg = np.array([targets[b][m]["greedy"] for m in MODELS])
        ts = np.array([targets[b][m]["std"] for m in MODELS])
        out[b] = {
            "mean_max_abs_err": float(np.max(np.abs(mean - tm))),
            "greedy_max_abs_err": float(np.max(np.abs(greedy - tg))),
            "std_max_abs_err": float(np.max(np.abs(sd - ts))),
            "std_median_abs_err": float(np.median(np.abs(sd - ts))),
        }
    return out


def _print_report(coins: dict[str, np.ndarray], reasoning: dict[str, np.ndarray]) -> None:
    print("Biased coins: true mean (listed) | mean(true_p) | sampled mean")
    for m, listed, p, r in zip(
        coins["models"], coins["true_means"], coins["true_p"], coins["R"], strict=True
    ):
        print(f"  {m:7s} {listed:.4f} | {p.mean():.15f} | {r.mean():.4f}")

    targets = json.loads(str(reasoning["meta_json"][()]))["targets"]
    R, R0, bench = reasoning["R"], reasoning["R0"], reasoning["benchmarks"]
    for b in BENCHMARKS:
        keep = bench == b
        print(f"\n{b}: model | mean (target) | greedy (target) | trial s.d. (target)")
        for i, m in enumerate(MODELS):
            t = targets[b][m]
            mean = R[i, keep].mean()
            greedy = R0[i, keep, 0].mean()
            sd = R[i, keep].mean(axis=0).std()
            print(
                f"  {m:20s} {mean:.3f} ({t['mean']:.3f}) | {greedy:.3f} ({t['greedy']:.3f}) | "
                f"{sd:.3f} ({t['std']:.3f})"
            )
    print("\nMax abs calibration error per benchmark:")
    for b, r in calibration_report(reasoning).items():
        print(
            f"  {b:9s} mean {r['mean_max_abs_err']:.4f}  greedy {r['greedy_max_abs_err']:.4f}  "
            f"std {r['std_max_abs_err']:.4f} (median {r['std_median_abs_err']:.4f})"
        )


def main(out_dir: str | Path | None = None, *, check: bool = True, verbose: bool = True):
    """Build, (optionally) validate and write every dataset; return ``{file name: path}``."""
    out = Path(out_dir) if out_dir is not None else HERE
    out.mkdir(parents=True, exist_ok=True)
    built = {fname: build() for fname, build in DATASETS.items()}
    paths = {}
    for fname, arrays in built.items():
        if check:
            o = validate(arrays)
            if verbose:
                sig = f", {len(o.signals)} signals" if o.signals else ""
                print(f"{fname}: valid Outcomes, shape {o.shape}, R0 depth {o.D}{sig}")
        path = out / fname
        np.savez_compressed(path, **arrays)
        paths[fname] = path
    if verbose:
        _print_report(built["biased_coins.npz"], built["reasoning_synthetic.npz"])
        for p in paths.values():
            print(f"wrote {p} ({p.stat().st_size / 1024:.1f} KiB)")
    return paths


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
