"""Rubrics: the condition model, JSON, vectorized application, presets and categorical ranking."""

from __future__ import annotations

import io as _io
import json
import math

import numpy as np
import pytest

from scorio_core import Outcomes, ValidationError
from scorio_core import eval as ev
from scorio_core import io as sio
from scorio_core._ties import rank_scores
from scorio_core.engines.agreement import kendall_tau_b
from scorio_core.leaderboard import leaderboard
from scorio_core.rubric import (
    GOLD_LABEL,
    PRESETS,
    READINGS,
    AllOf,
    Compare,
    Not,
    Rubric,
    Rule,
    apply,
    categorical_ranking,
    categorize,
    category_distribution,
    get_preset,
    list_presets,
    load,
    save,
    scheme_ranks,
)

# --------------------------------------------------------------------------------------
# Twelve hand-built completions (one model, one question, 12 trials). With 12 values the
# percentiles fall strictly between data points (np.percentile, linear):
#   completion_bpt P40 = 0.37 -> high_conf = {0, 3, 6, 10, 11}
#   P60 of bpt among the 7 wrong answers = 0.72 -> wrong_high_conf = {0, 3, 5, 11}
#   corr_p33 = 0.23, corr_p66 = 0.464 among the 5 correct -> high {6, 10}, mid {7}, low {8, 9}
#   token_ratio P33 = 0.2704, P66 = 0.626 -> economical {3, 7, 10, 11},
#       moderate {1, 4, 6, 8}, verbose {0, 2, 5, 9}
#   prompt_bpt P90 = 1.99 -> ood = {3, 10}
# Invalid: 0 (repeated_pattern, and C = 0.6), 1 (C = 0.6 only).
# Verifier: A_high (A >= 0.6) = {3, 6, 9, 10}; dominant A = {3, 6, 7, 9, 10},
#   dominant B = {2, 4, 8, 11}, dominant C = {0, 1, 5}.
HAND = {
    "is_correct": [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0],
    "has_box": [0, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1],
    "repeated_pattern": [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    "compass_A": [0.1, 0.2, 0.1, 0.7, 0.2, 0.3, 0.9, 0.5, 0.3, 0.95, 0.6, 0.1],
    "compass_B": [0.3, 0.2, 0.5, 0.25, 0.7, 0.3, 0.1, 0.3, 0.6, 0.05, 0.3, 0.8],
    "compass_C": [0.6, 0.6, 0.4, 0.05, 0.1, 0.4, 0.0, 0.2, 0.1, 0.0, 0.1, 0.1],
    "completion_bpt": [0.30, 0.90, 1.00, 0.20, 0.80, 0.60, 0.10, 0.40, 0.50, 0.70, 0.15, 0.35],
    "token_ratio": [1.00, 0.50, 0.95, 0.10, 0.60, 0.80, 0.30, 0.22, 0.40, 0.70, 0.15, 0.05],
    "prompt_bpt": [1.0, 1.1, 1.2, 2.5, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 2.0, 1.9],
}

# Expected category of each of the 12 completions, worked out by hand from each
# preset's definition (000 Tables 4-5, 002 App. F.3 / Table 21) and the sets above.
EXPECTED = {
    "dontpass/exact-match": [0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 1],
    "dontpass/format-aware": [0, 0, 1, 2, 2, 2, 4, 4, 3, 4, 4, 2],
    "dontpass/conf-calibrated": [0, 0, 1, 2, 1, 2, 5, 4, 3, 3, 5, 2],
    "dontpass/ood-robustness": [0, 0, 2, 1, 2, 2, 4, 4, 4, 4, 3, 2],
    "dontpass/strict-compliance": [0, 0, 1, 1, 1, 1, 2, 2, 1, 2, 2, 1],
    "dontpass/conf-wrong-penalty": [0, 0, 2, 1, 2, 1, 3, 3, 3, 3, 3, 1],
    "dontpass/verifier-only": [0, 0, 2, 3, 2, 1, 3, 2, 2, 3, 3, 2],
    "dontpass/format-confidence": [0, 0, 1, 3, 2, 2, 7, 6, 4, 6, 7, 3],
    "dontpass/length-robust": [0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 1],
    "dontpass/verifier-prob": [0, 0, 2, 1, 2, 2, 4, 3, 3, 4, 4, 2],
    "dontpass/efficiency-adjusted": [0, 0, 3, 1, 2, 3, 5, 4, 5, 6, 4, 1],
    "dontpass/concision-high-conf": [0, 0, 1, 1, 1, 1, 3, 4, 3, 2, 5, 1],
    "ranking/conservative": [0, 0, 2, 1, 2, 1, 3, 3, 3, 3, 3, 1],
    "ranking/efficiency-adj": [0, 0, 3, 1, 2, 3, 5, 4, 5, 6, 4, 1],
    "ranking/format-aware": [0, 0, 1, 2, 2, 2, 4, 4, 3, 4, 4, 2],
    "ranking/balanced-comp": [0, 0, 1, 3, 2, 2, 7, 6, 4, 6, 7, 3],
    "ranking/ood-robust": [0, 0, 2, 1, 2, 2, 4, 4, 4, 4, 3, 2],
    "ranking/rare-event": [0, 0, 5, 1, 3, 3, 4, 4, 4, 4, 2, 3],
    "ranking/verifier-calib": [0, 0, 2, 1, 2, 2, 5, 4, 3, 5, 5, 2],
    "ranking/verifier-only": [0, 1, 2, 3, 2, 1, 3, 3, 2, 3, 3, 2],
}


def _hand() -> Outcomes:
    sig = {k: np.asarray(v, dtype=float)[None, None, :] for k, v in HAND.items()}
    return Outcomes(sig["is_correct"].astype(int), models=["m"], questions=["q"], signals=sig)


def _random_data(L=5, M=12, N=6, seed=0, r0=True, benchmarks=True) -> Outcomes:
    """Random binary outcomes with the nine signals loosely tied to correctness."""
    rng = np.random.default_rng(seed)
    p = np.linspace(0.2, 0.8, L)[:, None, None]
    R = (rng.random((L, M, N)) < p).astype(int)
    A = np.clip(0.2 + 0.6 * R + rng.normal(0, 0.2, R.shape), 0, 1)
    C = rng.uniform(0, 1 - A) * 0.6
    sig = {
        "is_correct": R.astype(float),
        "has_box": np.where(R == 1, 1.0, (rng.random(R.shape) < 0.7).astype(float)),
        "repeated_pattern": (rng.random(R.shape) < 0.05).astype(float),
        "token_ratio": rng.uniform(0.05, 1.0, R.shape),
        "prompt_bpt": np.broadcast_to(rng.normal(1.7, 0.2, (1, M, 1)), R.shape),
        "completion_bpt": rng.normal(0.6, 0.2, R.shape) + 0.2 * (1 - R),
        "compass_A": A,
        "compass_C": C,
        "compass_B": 1 - A - C,
    }
    return Outcomes(
        R,
        R0=(rng.random((L, M, 1)) < p[..., :1]).astype(int) if r0 else None,
        models=[f"m{i}" for i in range(L)],
        benchmarks=(["A"] * (M // 2) + ["B"] * (M - M // 2)) if benchmarks else None,
        signals=sig,
    )


@pytest.fixture(scope="module")
def bundled(data_dir) -> Outcomes:
    return sio.load(data_dir / "reasoning_synthetic.npz")


# ------------------------------------------------------------------------------ presets
#: The papers' presets (the length rubric is checked in test_length_preset.py).
PAPERS = [k for k in PRESETS if k.split("/", 1)[0] in ("dontpass", "ranking")]


def test_every_preset_has_a_hand_checked_expectation():
    assert sorted(EXPECTED) == sorted(PAPERS)
    assert sum(k.startswith("dontpass/") for k in PRESETS) == 12  # 000 Table 5
    assert sum(k.startswith("ranking/") for k in PRESETS) == 8  # 002 Table 21


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_preset_maps_hand_built_completions(key):
    out = apply(PRESETS[key], _hand())
    assert out.R[0, 0].tolist() == EXPECTED[key]
    assert out.C == PRESETS[key].C


def _grid() -> Outcomes:
    """2 models x 6 questions (benchmarks X, Y) x 50 trials of signals spread evenly by
    frac(k * sqrt(p)) and rounded to 2 decimals, so thresholds meet ties and exact values
    (0.5, 0.6); the binary signals also take 0.5 and 0.55, where '< 0.5', '<= 0.5' and
    '< 0.6' part ways. Model b is more often correct, less confident and longer; benchmark Y
    has harder prompts. Pure arithmetic: the same values on every machine."""
    L, M, N = 2, 6, 50
    k = np.arange(L * M * N, dtype=float).reshape(L, M, N)

    def u(a):
        x = k * a
        return np.round(x - np.floor(x), 2)

    model = np.arange(L)[:, None, None]
    bench = (np.arange(M) >= M // 2)[None, :, None]
    flag = np.array([0.0, 0.5, 0.55, 1.0])
    A = u(3**0.5)
    B = np.round((1 - A) * u(5**0.5), 2)
    sig = {
        "is_correct": flag[(u(2**0.5) * 4 + model).astype(int) % 4],
        "has_box": flag[(u(7**0.5) * 4).astype(int) % 4],
        "repeated_pattern": flag[(u(11**0.5) * 4).astype(int) % 4],
        "compass_A": A,
        "compass_B": B,
        "compass_C": np.round(1 - A - B, 2),
        "completion_bpt": u(13**0.5) + 0.3 * model + 0.2 * bench,
        "token_ratio": u(17**0.5) * (1 + model) + 0.1 * bench,
        "prompt_bpt": np.broadcast_to(u(19**0.5)[:, :, :1] + bench, (L, M, N)).copy(),
    }
    return Outcomes(
        (sig["is_correct"] >= 0.5).astype(int),
        models=["a", "b"],
        benchmarks=["X"] * 3 + ["Y"] * 3,
        signals=sig,
    )


# Completions per category (model a, model b) of each preset on _grid(), recorded from the
# Python-built presets when they became JSON files. Of 801 single edits of the files'
# rules (a threshold +-10 percentile points or +0.1, an operator <-> its strict/non-strict
# twin, a scope, a signal, a rule's category), 753 change these counts or break the
# partition; the rest change no category on these data.
GRID_COUNTS = {
    "dontpass/exact-match": [[111, 51, 138], [114, 47, 139]],
    "dontpass/format-aware": [[111, 15, 36, 33, 105], [114, 10, 37, 37, 102]],
    "dontpass/conf-calibrated": [[111, 11, 40, 26, 44, 68], [114, 27, 20, 67, 45, 27]],
    "dontpass/ood-robustness": [[111, 19, 32, 45, 93], [114, 0, 47, 0, 139]],
    "dontpass/strict-compliance": [[111, 84, 105], [114, 84, 102]],
    "dontpass/conf-wrong-penalty": [[111, 40, 11, 138], [114, 20, 27, 139]],
    "dontpass/verifier-only": [[111, 11, 86, 92], [114, 10, 86, 90]],
    "dontpass/format-confidence": [
        [111, 15, 14, 22, 13, 20, 46, 59],
        [114, 10, 28, 9, 26, 11, 75, 27],
    ],
    "dontpass/length-robust": [[111, 51, 138], [114, 47, 139]],
    "dontpass/verifier-prob": [[111, 28, 23, 74, 64], [114, 30, 17, 79, 60]],
    "dontpass/efficiency-adjusted": [[111, 25, 19, 7, 65, 61, 12], [114, 7, 12, 28, 32, 33, 74]],
    "dontpass/concision-high-conf": [[111, 51, 12, 61, 27, 38], [114, 47, 74, 33, 24, 8]],
    "ranking/conservative": [[111, 31, 20, 138], [114, 29, 18, 139]],
    "ranking/efficiency-adj": [[111, 20, 16, 15, 46, 48, 44], [114, 12, 15, 20, 48, 46, 45]],
    "ranking/format-aware": [[111, 15, 36, 33, 105], [114, 10, 37, 37, 102]],
    "ranking/balanced-comp": [
        [111, 15, 21, 15, 18, 15, 61, 44],
        [114, 10, 23, 14, 21, 16, 62, 40],
    ],
    "ranking/ood-robust": [[111, 10, 41, 22, 116], [114, 8, 39, 22, 117]],
    "ranking/rare-event": [[111, 7, 22, 29, 116, 15], [114, 6, 22, 31, 117, 10]],
    "ranking/verifier-calib": [[111, 28, 23, 46, 28, 64], [114, 30, 17, 47, 32, 60]],
    "ranking/verifier-only": [[75, 47, 46, 132], [75, 49, 47, 129]],
}


@pytest.mark.parametrize("key", sorted(GRID_COUNTS))
def test_preset_category_counts_on_a_fixed_grid(key):
    assert sorted(GRID_COUNTS) == sorted(PAPERS)
    R = apply(PRESETS[key], _grid()).R
    got = [np.bincount(R[i].ravel(), minlength=PRESETS[key].C + 1).tolist() for i in range(2)]
    assert got == GRID_COUNTS[key]


@pytest.mark.parametrize(
    ("key", "weights"),
    [
        ("ranking/conservative", (0, -0.10, 0.05, 1.00)),
        ("ranking/efficiency-adj", (0, 0.10, 0.07, 0.03, 1, 0.92, 0.85)),
        ("ranking/format-aware", (0, 0.10, 0.05, 0.90, 1)),
        ("ranking/balanced-comp", (0, 0.10, 0.06, -0.02, 0.90, 0.95, 0.97, 1)),
        ("ranking/ood-robust", (0, 0.05, 0.10, 0.95, 1)),
        ("ranking/rare-event", (0, 0.05, 1, 0.08, 0.95, 0.20)),
        ("ranking/verifier-calib", (0, -0.05, 0.05, 0.88, 0.94, 1)),
        ("ranking/verifier-only", (0, 0, 0.1, 1)),
        ("dontpass/format-aware", (0, 0, 1, 2, 3)),
    ],
)
def test_preset_weights_are_the_papers(key, weights):
    assert PRESETS[key].weights == tuple(float(w) for w in weights)


def test_presets_are_documented():
    table = list_presets()
    assert table["key"].tolist() == list(PRESETS)
    for key in PAPERS:
        r = PRESETS[key]
        assert r.intent and r.source and r.categories[0] in ("invalid", "repeated"), key
        assert ("Table 5" in r.source) == key.startswith("dontpass/"), key
        assert ("Table 21" in r.source) == key.startswith("ranking/"), key
        assert r.default is None, key  # every preset partitions the completions by rules
    # the readings chosen for ambiguous definitions are recorded, and in the description
    assert {
        "dontpass/conf-calibrated",
        "dontpass/verifier-only",
        "ranking/rare-event",
        "ranking/verifier-calib",
    } <= set(READINGS)
    assert "abstention" in READINGS["ranking/rare-event"]
    for key, text in READINGS.items():
        assert text in PRESETS[key].description


def test_percentile_scopes_follow_the_papers():
    def scopes(r):
        out = set()

        def walk(c):
            if isinstance(c, Compare):
                if c.percentile is not None:
                    out.add(c.scope)
                    if c.among is not None:
                        walk(c.among)
            elif isinstance(c, Not):
                walk(c.term)
            else:
                for t in c.terms:
                    walk(t)

        for rule in r.rules:
            walk(rule.when)
        return out

    assert scopes(PRESETS["dontpass/conf-calibrated"]) == {"dataset"}  # "per dataset"
    assert scopes(PRESETS["ranking/balanced-comp"]) == {"model"}  # "per-model"
    for key in PAPERS:  # every paper's preset, as its JSON file states it
        r = PRESETS[key]
        assert scopes(r) <= ({"dataset"} if key.startswith("dontpass/") else {"model"}), key


def test_presets_take_percentiles_per_model_or_pooled_as_their_paper_says():
    # a second model with the hand-built completions, its continuous signals shifted by 10:
    # percentiles per model (002) give it the same categories as the first; pooled over the
    # dataset (000) they move both models' categories, whenever a preset has a percentile
    shifted = ("completion_bpt", "token_ratio", "prompt_bpt")
    sig = {
        k: np.stack([np.asarray(v, float), np.asarray(v, float) + 10.0 * (k in shifted)])[
            :, None, :
        ]
        for k, v in HAND.items()
    }
    two = Outcomes(sig["is_correct"].astype(int), models=["m", "m+10"], signals=sig)
    for key in PAPERS:
        r = PRESETS[key]
        got = apply(r, two).R[:, 0].tolist()
        has_percentile = '"percentile"' in json.dumps(r.to_json())
        same = key.startswith("ranking/") or not has_percentile
        assert (got == [EXPECTED[key]] * 2) == same, key


def test_get_preset_lookup_and_errors():
    assert get_preset("ranking/conservative") is PRESETS["ranking/conservative"]
    assert get_preset("Conservative") is PRESETS["ranking/conservative"]
    assert get_preset("OOD Robustness") is PRESETS["dontpass/ood-robustness"]
    with pytest.raises(ValidationError, match="ambiguous: dontpass/format-aware, ranking/format"):
        get_preset("format-aware")
    with pytest.raises(ValidationError, match=r"did you mean 'ranking/conservative'"):
        get_preset("ranking/conservativ")
    with pytest.raises(ValidationError, match=r"unknown rubric preset 'xyz'.*available: dontpass"):
        get_preset("xyz")


# ---------------------------------------------------------------------------- scopes
def test_percentile_per_model_differs_from_global():
    # model 0 has bpt 0..9, model 1 has bpt 10..19 (1 question, 10 trials each)
    bpt = np.arange(20, dtype=float).reshape(2, 1, 10)
    o = Outcomes(np.zeros((2, 1, 10), int), signals={"bpt": bpt})

    def low(scope):
        r = Rubric(
            "low",
            ("high", "low"),
            (0.0, 1.0),
            rules=(Rule(1, Compare("bpt", "<=", percentile=50, scope=scope)),),
            default=0,
        )
        return categorize(r, o)[:, 0]

    per_model, glob = low("model"), low("global")
    # per model: median 4.5 and 14.5 -> the lower half of each model
    assert per_model.sum(axis=1).tolist() == [5, 5]
    assert per_model[1].tolist() == [1] * 5 + [0] * 5
    # global: median 9.5 -> all of model 0, none of model 1
    assert glob.sum(axis=1).tolist() == [10, 0]
    assert not np.array_equal(per_model, glob)


def test_percentile_per_dataset_uses_benchmarks_and_among():
    # two benchmarks; both models pooled within a benchmark
    x = np.array([[[1.0, 2.0], [10.0, 20.0]], [[3.0, 4.0], [30.0, 40.0]]])  # (L=2, M=2, N=2)
    o = Outcomes(np.zeros((2, 2, 2), int), benchmarks=["A", "B"], signals={"x": x})
    r = Rubric(
        "hi",
        ("lo", "hi"),
        (0.0, 1.0),
        rules=(Rule(1, Compare("x", ">", percentile=50, scope="dataset")),),
        default=0,
    )
    # benchmark A median of {1,2,3,4} = 2.5, benchmark B median of {10,20,30,40} = 25
    assert categorize(r, o).tolist() == [[[0, 0], [0, 0]], [[1, 1], [1, 1]]]
    # without benchmark labels "dataset" pools every question (median 7)
    o2 = Outcomes(np.zeros((2, 2, 2), int), signals={"x": x})
    assert categorize(r, o2).tolist() == [[[0, 0], [1, 1]], [[0, 0], [1, 1]]]
    # 'among': the percentile is taken over a subpopulation only (x >= 10 -> median 25)
    big = Compare("x", ">=", value=10)
    r3 = Rubric(
        "hi",
        ("lo", "hi"),
        (0.0, 1.0),
        rules=(Rule(1, Compare("x", ">", percentile=50, scope="global", among=big)),),
        default=0,
    )
    assert categorize(r3, o2).tolist() == [[[0, 0], [0, 0]], [[0, 0], [1, 1]]]


def test_empty_percentile_population_matches_nothing():
    o = Outcomes(
        np.ones((1, 1, 3), int), signals={"c": np.ones((1, 1, 3)), "x": np.ones((1, 1, 3))}
    )
    wrong = Compare("c", "<", value=0.5)
    r = Rubric(
        "r",
        ("a", "b"),
        (0.0, 1.0),
        default=0,
        rules=(Rule(1, Compare("x", "!=", percentile=60, scope="model", among=wrong)),),
    )
    assert categorize(r, o).tolist() == [[[0, 0, 0]]]  # no wrong answers: undefined, never true


def test_rules_first_match_wins_and_default():
    o = _hand()
    correct = Compare("is_correct", ">=", value=0.5)
    boxed = Compare("has_box", ">=", value=0.5)
    r = Rubric(
        "order",
        ("other", "correct", "boxed"),
        (0.0, 1.0, 0.5),
        rules=(Rule(2, boxed), Rule(1, correct)),
        default=0,
    )
    got = categorize(r, o)[0, 0].tolist()
    box, cor = np.array(HAND["has_box"]), np.array(HAND["is_correct"])
    assert got == np.where(box == 1, 2, np.where(cor == 1, 1, 0)).tolist()
    assert got[8] == 1  # correct but unboxed: the boxed rule did not match, the next did


def test_unmatched_completions_are_an_error_naming_them():
    o = _random_data(L=2, M=3, N=4, seed=1)
    r = Rubric(
        "only correct",
        ("wrong", "correct"),
        (0.0, 1.0),
        rules=(Rule(1, Compare("is_correct", ">=", value=0.5)),),
    )
    n_wrong = int((o.R == 0).sum())
    m, q, t = np.argwhere(o.R == 0)[0]
    with pytest.raises(ValidationError) as exc:
        apply(r, o)
    msg = str(exc.value)
    assert f"{n_wrong} of 24 completions match no rule of rubric 'only correct'" in msg
    assert f"model 'm{m}', question 'q{q}', trial {t}" in msg
    assert "is_correct=0" in msg and "'default'" in msg


def test_signal_comparison_and_boolean_operators():
    o = _hand()
    A, B = "compass_A", "compass_B"
    cond = (Compare(A, ">", other=B) & ~Compare("has_box", "<", value=0.5)) | Compare(
        "repeated_pattern", "==", value=1
    )
    assert isinstance(cond, type(cond)) and len(cond.terms) == 2
    r = Rubric("ops", ("no", "yes"), (0.0, 1.0), rules=(Rule(1, cond),), default=0)
    h = {k: np.array(v) for k, v in HAND.items()}
    want = ((h[A] > h[B]) & (h["has_box"] >= 0.5)) | (h["repeated_pattern"] == 1)
    assert categorize(r, o)[0, 0].tolist() == want.astype(int).tolist()
    assert str(cond) == "(compass_A > compass_B ∧ ¬has_box < 0.5) ∨ repeated_pattern == 1"


# ------------------------------------------------------------------------------ apply
def test_apply_keeps_dataset_and_documents_r0(bundled):
    r = PRESETS["ranking/balanced-comp"]
    out = apply(r, bundled)
    assert out.shape == bundled.shape and out.C == 7
    assert out.models == bundled.models and out.questions == bundled.questions
    assert out.benchmarks == bundled.benchmarks
    np.testing.assert_array_equal(out.R0, bundled.R0)  # binary greedy outcomes, untouched
    assert "binary greedy" in out.metadata["R0_note"]
    assert out.weights.tolist() == list(r.weights) and out.category_names == r.categories
    assert out.metadata["rubric"] == "Balanced comp."
    sub = out.select("HMMT'25")  # benchmark selection still works on the result
    assert sub.R.shape == (20, 30, 80) and sub.C == 7
    # the categorical leaderboard works on the result
    board = leaderboard(out)
    assert board.settings["weights"] == list(r.weights)


def test_binary_exact_match_rubric_reproduces_binary_bayes(bundled):
    r = Rubric(
        "Exact match (binary)",
        ("wrong", "correct"),
        (0.0, 1.0),
        rules=(Rule(1, Compare("is_correct", ">=", value=0.5)),),
        default=0,
    )
    out = apply(r, bundled)
    np.testing.assert_array_equal(out.R, bundled.R)
    a, b = leaderboard(out), leaderboard(bundled)
    np.testing.assert_array_equal(a.bayes_mu, b.bayes_mu)
    np.testing.assert_array_equal(a.bayes_sigma, b.bayes_sigma)
    np.testing.assert_array_equal(a.score, b.score)
    np.testing.assert_array_equal(a.table["hi"], b.table["hi"])
    assert a.table["model"].tolist() == b.table["model"].tolist()
    # the paper's 3-category Exact Match (invalid and wrong both worth 0) ranks identically
    em = leaderboard(apply(PRESETS["dontpass/exact-match"], bundled))
    np.testing.assert_array_equal(em.table["rank_mu"], b.table["rank_mu"])
    assert em.table["model"].tolist() == b.table["model"].tolist()


def test_category_distribution(bundled):
    out = apply(PRESETS["dontpass/format-aware"], bundled)
    d = category_distribution(out)
    assert list(d.columns) == ["model", "category", "name", "weight", "count", "fraction"]
    assert len(d) == 20 * 5
    frac = d.pivot(index="model", columns="category", values="fraction")
    np.testing.assert_allclose(frac.sum(axis=1), 1.0)
    first = d[d["model"] == bundled.models[0]]
    assert first["count"].tolist() == np.bincount(out.R[0].ravel(), minlength=5).tolist()
    assert first["name"].tolist() == list(PRESETS["dontpass/format-aware"].categories)
    # synthetic data: a correct answer is always boxed, so category 3 is empty
    assert d.loc[d["category"] == 3, "count"].sum() == 0


# ------------------------------------------------------------------------------ JSON
@pytest.mark.parametrize("key", sorted(PRESETS))
def test_presets_round_trip_through_json(key):
    r = PRESETS[key]
    text = json.dumps(r.to_json())
    back = Rubric.from_json(json.loads(text))
    assert back == r
    assert Rubric.from_json(text) == r  # JSON text accepted too
    assert back.to_json() == r.to_json()


def test_custom_rubric_round_trips_via_file(tmp_path):
    wrong = Compare("is_correct", "<", value=0.5, label="wrong")
    r = Rubric(
        "Custom",
        categories=("invalid", "wrong", "right"),
        weights=(0.0, -0.25, 1.0),
        rules=(
            Rule(0, Compare("repeated_pattern", "==", value=1), label="degenerate"),
            Rule(
                1,
                AllOf(
                    (
                        wrong,
                        Compare("completion_bpt", "<=", percentile=60, scope="model", among=wrong),
                    )
                ),
            ),
            Rule(2, Not(wrong) & Compare("compass_A", ">=", other="compass_B")),
        ),
        default=1,
        category_descriptions=("bad", "", "good"),
        description="d",
        intent="i",
        source="s",
    )
    path = tmp_path / "r.json"
    save(r, path)
    assert load(path) == r
    buf = _io.BytesIO()
    save(r, buf)
    assert load(buf.getvalue()) == r
    assert load(_io.BytesIO(buf.getvalue())) == r
    assert json.loads(path.read_text())["rules"][1]["when"]["all"][1]["among"]["label"] == "wrong"
    assert r.with_weights([0, 0, 1]).weights == (0.0, 0.0, 1.0)
    text = r.summary()
    assert "1. degenerate = repeated_pattern == 1 -> 0" in text and "otherwise -> 1" in text
    table = r.rules_table()
    assert table["category"].tolist() == [0, 1, 2, 1]
    assert table["condition"].iloc[1] == "wrong ∧ completion_bpt <= P60[model | wrong]"
    assert table["formula"].iloc[1] == (
        "is_correct < 0.5 ∧ completion_bpt <= P60[model | is_correct < 0.5]"
    )


def _base_json() -> dict:
    return {
        "name": "t",
        "categories": ["invalid", "wrong", "correct"],
        "weights": [0, 0, 1],
        "rules": [
            {"category": 0, "when": {"signal": "repeated_pattern", "op": "==", "value": 1}},
            {"category": 1, "when": {"signal": "is_correct", "op": "<", "value": 0.5}},
            {"category": 2, "when": {"signal": "is_correct", "op": ">=", "value": 0.5}},
        ],
    }


def _set(path, value):
    def f(d):
        node = d
        for p in path[:-1]:
            node = node[p]
        node[path[-1]] = value
        return d

    return f


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            _set(["weights"], [0, 1]),
            "weights must have one entry per category: 3 categories (invalid, wrong, correct) but "
            "2 weights",
        ),
        (_set(["rules"], []), "a rubric needs at least one rule"),
        (
            _set(["rules", 1, "when", "op"], "=>"),
            "rules[1].when: comparison on 'is_correct': op must be one of <, <=, >, >=, ==, !=; "
            "got '=>'",
        ),
        (
            _set(
                ["rules", 1, "when"],
                {"signal": "is_correct", "op": "<", "percentile": 140, "scope": "model"},
            ),
            "percentile of 'is_correct' must lie in [0, 100]; got 140",
        ),
        (
            _set(
                ["rules", 1, "when"],
                {"signal": "is_correct", "op": "<", "percentile": 40, "scope": "per_model"},
            ),
            "needs scope one of model, dataset, global; got 'per_model'",
        ),
        (
            _set(["rules", 1, "when"], {"signal": "is_correct", "op": "<", "percentile": 40}),
            "needs scope one of model, dataset, global; got None",
        ),
        (_set(["weights"], [0, float("nan"), 1]), "weight of category 1 (wrong) must be finite"),
        (_set(["weights"], "0,0,1"), "rubric.weights: must be a list; got str '0,0,1'"),
        (_set(["weights"], [0, "0", 1]), "rubric.weights[1]: must be a number; got str '0'"),
        (
            _set(["rules", 2, "category"], "2"),
            "rubric.rules[2].category: must be an integer; got str '2'",
        ),
        (
            _set(["rules", 2, "category"], 5),
            "rule 2 assigns category 5, but the rubric defines categories 0..2",
        ),
        (
            _set(["rules", 1, "when", "value"], "0.5"),
            "rubric.rules[1].when.value: must be a number; got str '0.5'",
        ),
        (_set(["rules", 1, "when", "other"], "has_box"), "needs exactly one threshold"),
        (_set(["rules", 1, "when"], {"all": []}), "rules[1].when: 'all' needs at least one"),
        (
            _set(["rules", 1, "when"], {"signal": "is correct", "op": "<", "value": 0.5}),
            "signal must be a signal name",
        ),
        (
            _set(["rules", 1, "wehn"], {}),
            "rubric.rules[1]: unknown key 'wehn'; expected some of category, label, when",
        ),
        (_set(["rule"], []), "rubric: unknown key 'rule'; expected some of categories, default"),
        (_set(["default"], 3), "default must be a category 0..2 or None"),
        (_set(["categories"], ["ok"]), "at least 2 categories"),
        (_set(["categories"], ["a", "a", "b"]), "category names must be unique"),
        (_set(["categories"], ["<b>", "x", "y"]), "markup is not allowed"),
        (
            _set(["rules", 1, "when"], "is_correct < 0.5"),
            "rubric.rules[1].when: must be a condition object",
        ),
        (_set(["version"], 2), "rubric.version: 2 is not supported; this build reads 1"),
    ],
)
def test_invalid_rubric_json_gives_clear_errors(mutate, message):
    d = mutate(_base_json())
    with pytest.raises(ValidationError) as exc:
        Rubric.from_json(d)
    assert message in str(exc.value)


def test_rubric_json_errors_say_where_what_was_expected_and_what_was_found():
    def message(mutate) -> str:
        with pytest.raises(ValidationError) as exc:
            Rubric.from_json(mutate(_base_json()))
        return str(exc.value)

    # no coercion: booleans are not numbers, 1.0 is not a category index
    assert message(_set(["rules", 0, "category"], True)) == (
        "rubric.rules[0].category: must be an integer; got bool True"
    )
    assert "rules[0].category: must be an integer; got float 1.0" in message(
        _set(["rules", 0, "category"], 1.0)
    )
    assert message(_set(["rules", 0, "when", "value"], False)) == (
        "rubric.rules[0].when.value: must be a number; got bool False"
    )
    # nested conditions: the path goes down through all / any / not / among
    among = {"signal": "s", "op": "<", "percentile": 40, "scope": "model", "among": {"any": [3]}}
    assert message(_set(["rules", 1, "when"], {"all": [{"not": among}]})).startswith(
        "rubric.rules[1].when.all[0].not.among.any[0]: must be a condition object"
    )
    assert message(_set(["rules", 1, "when"], {"signal": "s", "value": 1})) == (
        "rubric.rules[1].when: missing required key: op; or use 'all', 'any' or 'not'"
    )
    assert message(_set(["categories", 1], {"name": "wrong", "desc": ""})) == (
        "rubric.categories[1]: unknown key 'desc'; expected some of description, name"
    )
    assert message(_set(["categories", 1], 7)) == (
        "rubric.categories[1]: must be a category name or a {'name', 'description'} object; "
        "got int 7"
    )
    # every problem pydantic finds, the first three listed
    many = message(lambda d: d | {"weights": ["a", "b", "c", "d"], "default": "0"})
    assert many.splitlines() == [
        "rubric.weights[0]: must be a number; got str 'a'",
        "rubric.weights[1]: must be a number; got str 'b'",
        "rubric.weights[2]: must be a number; got str 'c'",
        "(and 2 more problems)",
    ]
    # a long text is described by its length, not copied into the message
    assert message(_set(["rules", 0, "when", "signal"], ["x"] * 500)) == (
        "rubric.rules[0].when.signal: must be a string; got list of 500 items"
    )
    with pytest.raises(ValidationError, match=r"^rubric: must be a JSON object; got list \[1, 2\]"):
        Rubric.from_json("[1, 2]")


def test_condition_depth_is_bounded_for_objects_too():
    # JSON text is refused by its nesting before parsing (test_hardening); a dict built in
    # Python reaches the schema, which stops at the condition budget's depth
    from scorio_core.rubric.model import _MAX_DEPTH

    def nested(levels: int) -> dict:
        cond = {"signal": "is_correct", "op": "<", "value": 0.5}
        for _ in range(levels):
            cond = {"not": cond}
        return _set(["rules", 1, "when"], cond)(_base_json())

    assert Rubric.from_json(nested(_MAX_DEPTH)).rules[1].when.term is not None
    with pytest.raises(ValidationError) as exc:
        Rubric.from_json(nested(_MAX_DEPTH + 1))
    where = "rubric.rules[1].when" + ".not" * (_MAX_DEPTH + 1)
    assert str(exc.value) == f"{where}: conditions nested deeper than {_MAX_DEPTH} levels"
    with pytest.raises(ValidationError, match="nested deeper than"):
        Rubric.from_json(nested(10_000))  # no RecursionError: refused on the way down


def test_pydantic_is_imported_to_parse_json_only():
    """``import scorio_core``, the rubric package, rubrics built in Python and written to
    JSON, the app's session module and ``scorio-studio --help`` leave pydantic unloaded;
    the first rubric read from JSON (or a preset) loads it."""
    import subprocess
    import sys
    from pathlib import Path

    probe = """
import contextlib, io, sys
import scorio_core
from scorio_core import rubric as rb
from scorio_core.cli import main
sys.path.insert(0, ".")
from app_state import session
r = rb.Rubric("x", ("a", "b"), (0.0, 1.0), (rb.Rule(1, rb.Compare("s", ">", value=0)),), 0)
text = rb.to_json(r)
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main(["--help"])
before = "pydantic" in sys.modules
assert rb.from_json(text) == r
print(before, "pydantic" in sys.modules)
"""
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, check=True, capture_output=True, text=True
    )
    assert out.stdout.split() == ["False", "True"]


def test_preset_files_ship_with_the_package():
    """Every table file is read by the package (TABLES) and shipped in a wheel (package
    data); a file added to one place and not the other fails here."""
    import tomllib
    from fnmatch import fnmatch
    from importlib.resources import files
    from pathlib import Path

    from scorio_core.rubric import presets

    folder = files(presets.__name__)
    data = sorted(p.name for p in folder.iterdir() if p.is_file() and p.suffix == ".json")
    assert data == sorted(f"{t}.json" for t in presets.TABLES)
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    globs = tomllib.loads(pyproject.read_text())["tool"]["setuptools"]["package-data"][
        presets.__name__
    ]
    assert all(any(fnmatch(name, g) for g in globs) for name in data)


def test_base_json_is_valid_and_bad_text_is_reported():
    assert Rubric.from_json(_base_json()).C == 2
    with pytest.raises(ValidationError, match="not valid JSON"):
        Rubric.from_json("{not json")
    with pytest.raises(ValidationError, match="missing required key"):
        Rubric.from_json({"name": "x"})


def test_unknown_signal_lists_available(bundled):
    d = _base_json()
    d["rules"][1]["when"]["signal"] = "is_corect"
    r = Rubric.from_json(d)
    with pytest.raises(ValidationError) as exc:
        apply(r, bundled)
    msg = str(exc.value)
    assert "uses signal 'is_corect' that the data do not have" in msg
    assert "available signals: compass_A, compass_B, compass_C, completion_bpt" in msg
    assert "did you mean 'is_correct'?" in msg
    with pytest.raises(ValidationError, match="available signals: has_box"):
        Rubric.from_json(d, signals=["has_box", "is_correct"])
    # binary data without signals still offer is_correct (the outcome as a signal) ...
    with pytest.raises(ValidationError, match="available signals: is_correct "):
        apply(r, Outcomes(bundled.R[:2, :3, :4]))
    # ... categorical data without signals offer none
    with pytest.raises(ValidationError, match="the dataset carries no per-completion signals"):
        apply(r, Outcomes(bundled.R[:2, :3, :4] * 2, weights=[0, 0.5, 1]))


# ------------------------------------------------------------------ categorical ranking
def _loop_reference(data: Outcomes, rubric: Rubric):
    """002 App. F.5 by a plain per-slice loop."""
    gold = rank_scores(np.atleast_1d(ev.bayes(data.R, data.weights).mu))
    greedy = rank_scores(np.atleast_1d(ev.bayes(data.R, data.weights, data.R0).mu))
    R = categorize(rubric, data)
    w = rubric.weight_vector
    own = rank_scores(np.atleast_1d(ev.bayes(R, w).mu))
    taus = []
    for n in range(data.N):
        r = rank_scores(np.atleast_1d(ev.bayes(R[:, :, n : n + 1], w).mu))
        taus.append([kendall_tau_b(r, gold), kendall_tau_b(r, own), kendall_tau_b(r, greedy)])
    return np.array(taus)


def test_categorical_ranking_equals_per_slice_loop():
    data = _random_data(L=6, M=14, N=7, seed=3)
    keys = ["ranking/conservative", "ranking/verifier-only", "dontpass/format-confidence"]
    got = categorical_ranking(data, keys)
    assert got["scheme"].tolist() == ["Conservative", "Verifier-only", "Format+Confidence"]
    assert (got["n_slices"] == 7).all()
    # here one greedy trial beside 7 leaves the gold ranking as it is: the note says why the
    # tau_greedy columns repeat tau_gs (the paper's reference, Bayes_R0@N)
    assert got["note"].str.contains("ranks the models exactly as the gold standard").all()
    assert (got["tau_greedy_mean"] == got["tau_gs_mean"]).all()
    for i, key in enumerate(keys):
        ref = _loop_reference(data, PRESETS[key])
        row = got.iloc[i]
        np.testing.assert_allclose(
            [row.tau_gs_mean, row.tau_self_mean, row.tau_greedy_mean], ref.mean(0), atol=1e-12
        )
        np.testing.assert_allclose(
            [row.tau_gs_sd, row.tau_self_sd, row.tau_greedy_sd], ref.std(0), atol=1e-12
        )
    assert got["tau_gs_mean"].between(-1, 1).all() and (got["tau_gs_sd"] > 0).any()


def test_categorical_ranking_says_when_the_greedy_reference_is_the_gold_one():
    # with 2 trials the greedy trial moves Bayes_R0@N off the gold order: no note; the note
    # appears exactly when the two reference rankings coincide
    for seed in range(4):
        data = _random_data(L=6, M=14, N=2, seed=seed)
        t = categorical_ranking(data, ["ranking/conservative"])
        gold = rank_scores(np.atleast_1d(ev.bayes(data.R, data.weights).mu))
        greedy = rank_scores(np.atleast_1d(ev.bayes(data.R, data.weights, R0=data.R0).mu))
        same = bool(np.array_equal(gold, greedy))
        assert bool(t["note"][0]) == same, seed
        assert same or t["tau_greedy_mean"][0] != t["tau_gs_mean"][0]


def test_categorical_ranking_note_counts_the_greedy_trials_of_the_data():
    # the note says how many greedy trials the data hold: a bundled run has 10 per question,
    # and "one greedy trial" was written whatever R0's depth
    base = _random_data(L=4, M=20, N=12, seed=5)
    p = np.array([0.1, 0.4, 0.6, 0.9])[:, None, None]
    for D, words in ((1, "1 greedy trial beside 12 sampled ones"),
                     (10, "10 greedy trials beside 12 sampled ones")):
        R0 = (np.random.default_rng(D).random((4, 20, D)) < p).astype(int)
        data = Outcomes(base.R, R0=R0, models=base.models, signals=base.signals)
        t = categorical_ranking(data, ["ranking/conservative"])
        assert data.D == D
        assert words in t["note"][0], t["note"][0]


def test_categorical_ranking_without_r0_and_defaults():
    data = _random_data(L=4, M=10, N=5, seed=4, r0=False)
    t = categorical_ranking(data)
    assert t["scheme"].tolist() == [PRESETS[k].name for k in PRESETS if k.startswith("ranking/")]
    assert t["tau_greedy_mean"].isna().all() and t["tau_greedy_sd"].isna().all()
    assert t["tau_gs_mean"].notna().all()
    assert t["note"].str.contains("no greedy outcomes").all()
    with pytest.raises(ValidationError, match="at least 2 models"):
        categorical_ranking(
            Outcomes(data.R[:1], signals={k: v[:1] for k, v in data.signals.items()})
        )
    with pytest.raises(ValidationError, match="duplicated"):
        categorical_ranking(data, ["ranking/conservative", "Conservative"])


def test_scheme_ranks_full_trials():
    data = _random_data(L=6, M=14, N=7, seed=5)
    mapping = {"EM": "dontpass/exact-match", "Eff": PRESETS["ranking/efficiency-adj"]}
    ranks = scheme_ranks(data, mapping, gold=True)
    assert list(ranks.columns) == [GOLD_LABEL, "EM", "Eff"]
    assert ranks.index.tolist() == list(data.models)
    gold = rank_scores(np.atleast_1d(ev.bayes(data.R).mu))
    assert ranks[GOLD_LABEL].tolist() == gold.tolist()
    assert ranks["EM"].tolist() == gold.tolist()  # invalid and wrong both worth 0
    r = PRESETS["ranking/efficiency-adj"]
    eff = rank_scores(np.atleast_1d(ev.bayes(categorize(r, data), r.weight_vector).mu))
    assert ranks["Eff"].tolist() == eff.tolist()


def test_bump_chart_spec(bundled):
    from scorio_core import charts

    ranks = scheme_ranks(bundled, ["dontpass/format-aware", "ranking/verifier-only"], gold=True)
    spec = charts.rank_bump_chart(ranks).to_dict()
    assert len(spec["layer"]) == 3 and spec["height"] == charts.ROW_PX * 20
    values = spec["datasets"][spec["data"]["name"]]  # the lines' points
    assert len(values) == 20 * 3
    ends = spec["datasets"][spec["layer"][2]["data"]["name"]]  # one end label per rank held
    assert sorted(n for e in ends for n in e["models"].split(", ")) == sorted(ranks.index)
    assert spec["layer"][0]["encoding"]["x"]["sort"] == list(ranks.columns)
    assert spec["layer"][0]["encoding"]["y"]["scale"]["reverse"] is True
    assert charts.RANK_BUMP_CAPTION.count(".") == 1  # one line


def test_weights_validation_in_python_api():
    with pytest.raises(ValidationError, match="must be finite"):
        Rubric("x", ("a", "b"), (0.0, math.inf), rules=(Rule(1, Compare("s", ">", value=0)),))
    with pytest.raises(ValidationError, match="must be a number; got bool"):
        Compare("s", ">", value=True)
    with pytest.raises(ValidationError, match="'scope' only goes with a 'percentile'"):
        Compare("s", ">", value=1, scope="model")
