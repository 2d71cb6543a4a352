"""Hostile or degenerate arguments (issue 14): each is refused with a clear message
instead of a crash of the wrong type or a silently wrong number."""

from __future__ import annotations

import unicodedata

import numpy as np
import pytest

from scorio_core import eval as ev
from scorio_core._validation import MAX_WEIGHT, ValidationError
from scorio_core.export import to_markdown
from scorio_core.leaderboard import leaderboard
from scorio_core.outcomes import Outcomes

R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])  # one model, 2 questions, 5 trials


@pytest.mark.parametrize("k", [None, float("nan"), float("inf"), -float("inf"), 2.5, True, "2"])
@pytest.mark.parametrize(
    "fn", [ev.pass_at_k, ev.pass_hat_k, ev.mg_pass_at_k, ev.pass_at_k_ci], ids=lambda f: f.__name__
)
def test_k_that_is_not_a_whole_number_is_a_validation_error(fn, k):
    with pytest.raises(ValidationError, match="k must be a whole number"):
        fn(R, k)


def test_whole_float_k_is_accepted():
    assert ev.pass_at_k(R, 3.0) == ev.pass_at_k(R, 3) == pytest.approx(1.0)


@pytest.mark.parametrize("bounds", [(1, 0), (0.5, 0.5), (float("nan"), 1), (0, float("nan")), (0,)])
def test_reversed_empty_or_nan_bounds_are_refused(bounds):
    with pytest.raises(ValidationError, match="bounds"):
        ev.bayes_ci(R, bounds=bounds)
    with pytest.raises(ValidationError, match="bounds"):
        ev.avg_ci(R, bounds=bounds)


def test_infinite_bounds_are_allowed():
    a = ev.bayes_ci(R, bounds=(-np.inf, np.inf))
    b = ev.bayes_ci(R)
    assert a == pytest.approx(b)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 0.0, -1.0])
def test_beta_prior_parameters_must_be_finite_and_positive(bad):
    with pytest.raises(ValidationError, match="alpha0"):
        ev.pass_at_k_ci(R, 2, alpha0=bad)
    with pytest.raises(ValidationError, match="beta0"):
        ev.pass_at_k_ci(R, 2, beta0=bad)


@pytest.mark.parametrize("w", [[0, 1e300], [0, -1e13], [0, np.inf], [0, np.nan]])
def test_huge_or_non_finite_weights_are_refused(w):
    with pytest.raises(ValidationError, match="weights|w must"):
        ev.bayes(R, w=w)
    with pytest.raises(ValidationError, match="weights"):
        Outcomes(R, weights=w)


def test_largest_allowed_weights_give_finite_scaled_results():
    mu, sigma = ev.bayes(R, w=[0, MAX_WEIGHT])
    mu1, sigma1 = ev.bayes(R, w=[0, 1])
    assert np.isfinite([mu, sigma]).all()
    assert mu == pytest.approx(MAX_WEIGHT * mu1, rel=1e-12)
    assert sigma == pytest.approx(MAX_WEIGHT * sigma1, rel=1e-9)


@pytest.mark.parametrize(
    "name",
    [
        "gpt\u202eevil",  # right-to-left override
        "gpt\u2066x\u2069",  # isolates
        "gpt\u200bx",  # zero-width space
        "gpt\ufeffx",  # byte-order mark
        "gpt\u2060x",  # word joiner
        "gpt\u0085x",  # next line
        "gpt\u2028x",  # line separator
        "gpt\u2029x",  # paragraph separator
    ],
    ids=lambda s: "-".join(f"U+{ord(c):04X}" for c in s if not c.isalnum()),
)
def test_invisible_and_line_breaking_characters_in_names_are_refused(name):
    with pytest.raises(ValidationError, match="invisible or line-breaking") as info:
        Outcomes(np.zeros((2, 2, 2), int), models=[name, "other"])
    assert "U+" in str(info.value)


def test_names_equal_after_unicode_normalisation_are_duplicates():
    nfc = unicodedata.normalize("NFC", "café")
    nfd = unicodedata.normalize("NFD", "café")
    assert nfc != nfd
    with pytest.raises(ValidationError, match="different Unicode encodings"):
        Outcomes(np.zeros((2, 2, 2), int), models=[nfc, nfd])
    with pytest.raises(ValidationError, match="question ids must be unique"):
        Outcomes(np.zeros((1, 2, 2), int), questions=[nfd, nfc])


def test_ordinary_unicode_names_are_kept_verbatim():
    names = ["Qwen3-30B-A3B (思考)", "café-7b", "Llama 3.1 8B"]
    o = Outcomes(np.zeros((3, 2, 2), int), models=names)
    assert list(o.models) == names


def test_markdown_export_escapes_markup_in_titles():
    board = leaderboard(np.random.default_rng(0).integers(0, 2, (2, 5, 4)))
    md = to_markdown(board, title="<img src=x onerror=alert(1)> & *bold*")
    first = md.splitlines()[0]
    assert "<" not in first  # no tag can open (a lone '>' closes nothing)
    assert "&lt;img src=x onerror=alert(1)> & \\*bold\\*" in first


# ----------------------------------------------------------------------------- rubrics
def _rubric_json(rules: list, depth_pad: int = 0) -> str:
    import json

    return json.dumps(
        {
            "format": "scorio-rubric",
            "version": 1,
            "name": "big",
            "categories": ["wrong", "correct"],
            "weights": [0, 1],
            "rules": rules,
            "default": 0,
        }
    )


def test_deeply_nested_json_is_refused_without_recursion_error():
    from scorio_core.rubric import Rubric

    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(ValidationError, match="nested 100000 levels deep"):
        Rubric.from_json(deep)
    cond = {"signal": "is_correct", "op": ">=", "value": 0.5}
    for _ in range(70):
        cond = {"not": cond}
    with pytest.raises(ValidationError, match="nested"):
        Rubric.from_json(_rubric_json([{"category": 1, "when": cond}]))
    # brackets inside strings do not count as nesting
    ok = _rubric_json([{"category": 1, "when": {"signal": "is_correct", "op": ">=", "value": 0.5,
                                                "label": "[[[[" * 100}}])
    assert Rubric.from_json(ok).rules[0].category == 1


def test_rule_and_condition_counts_are_bounded():
    from scorio_core.rubric import MAX_CONDITIONS, MAX_RULES, Rubric

    rule = {"category": 1, "when": {"signal": "is_correct", "op": ">=", "value": 0.5}}
    assert len(Rubric.from_json(_rubric_json([rule] * MAX_RULES)).rules) == MAX_RULES
    with pytest.raises(ValidationError, match=f"at most {MAX_RULES} rules; got 12000"):
        Rubric.from_json(_rubric_json([rule] * 12_000))
    wide = {"category": 1, "when": {"all": [rule["when"]] * (MAX_CONDITIONS + 5)}}
    with pytest.raises(ValidationError, match=f"at most {MAX_CONDITIONS} conditions"):
        Rubric.from_json(_rubric_json([wide]))


def test_rubric_evaluation_memory_does_not_grow_with_rules():
    """One (L, M, N) mask per condition used to stay alive for the whole call: 200 rules
    of 9 comparisons on 20 x 100 x 50 held ~180 MB. Now a few masks at a time."""
    import tracemalloc

    from scorio_core.rubric import MAX_RULES, Compare, Rubric, Rule, apply

    rng = np.random.default_rng(0)
    L, M, N = 20, 100, 50
    R = rng.integers(0, 2, (L, M, N))
    data = Outcomes(R, signals={"x": rng.random((L, M, N)), "is_correct": R})
    rules = tuple(
        Rule(1, Compare("is_correct", ">=", value=0.5)
             & Compare("x", ">", value=i / (2 * MAX_RULES))
             & Compare("x", "<=", percentile=50 + i % 40, scope="model")
             & ~Compare("x", "==", value=0.123))
        for i in range(MAX_RULES)
    )

    def peak(n_rules: int):
        rubric = Rubric("many", ("wrong", "correct"), (0.0, 1.0), rules=rules[:n_rules],
                        default=0)
        tracemalloc.start()
        try:
            return apply(rubric, data), tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    # relative, not bytes: the peak with every rule stays near the peak with ten (it was
    # proportional to the number of conditions: ~20x here)
    (_, few), (out, many) = peak(10), peak(MAX_RULES)
    assert many < 2 * few, f"peak {many / 1e6:.1f} MB ({MAX_RULES} rules), {few / 1e6:.1f} (10)"
    # every rule gives category 1, so a completion is 1 exactly when some rule holds
    x = data.signals["x"]
    expected = np.zeros(R.shape, bool)
    for i in range(MAX_RULES):
        thr = np.percentile(x, 50 + i % 40, axis=(1, 2), keepdims=True)
        expected |= (R == 1) & (x > i / (2 * MAX_RULES)) & (x <= thr) & (x != 0.123)
    assert np.array_equal(out.R == 1, expected)


# ------------------------------------------------------------------ replicate budgets
def test_replicates_that_would_exhaust_memory_are_refused_before_allocating():
    from scorio_core.engines import convergence_at_n, convergence_curves

    R = np.random.default_rng(0).integers(0, 2, (5, 10, 8))
    with pytest.raises(ValidationError, match=r"would keep about .* GiB.*use replicates <= "):
        convergence_curves(R, methods=["bayes", "avg"], replicates=10**9)
    with pytest.raises(ValidationError, match="convergence@n with replicates=1,000,000,000"):
        convergence_at_n(R, methods=["bayes"], replicates=10**9)


def test_re_ranked_replicates_that_would_run_for_hours_are_refused():
    from scorio_core.engines import convergence_at_n
    from scorio_core.engines.stability import pool_robustness

    R = np.random.default_rng(1).integers(0, 2, (6, 12, 8))
    slow = (r"bradley_terry: .*replicates=100,000,000 does 800,000,000 rankings .* declared "
            r"costs \(bradley_terry: medium\) .* Use replicates <= 587,314")
    with pytest.raises(ValidationError, match=slow):
        convergence_at_n(R, methods=["bradley_terry"], replicates=10**8)
    with pytest.raises(ValidationError, match=r"model-pool robustness with pools=10,000,000"):
        pool_robustness(R, methods=["bradley_terry"], sizes=(3,), pools=10**7)
    # an affordable run goes through
    run = convergence_at_n(R, methods=["bradley_terry"], replicates=5, seed=0)
    assert run.s_star["bradley_terry"].shape == (5,)


def test_work_bounds_are_declared_not_timed(monkeypatch):
    """The same call is accepted or refused on every machine: a clock that says every
    ranking takes an hour changes nothing, and every method has a declared cost class."""
    import time

    from scorio_core.engines import convergence_at_n
    from scorio_core.engines._budget import COST_CLASSES, check_rerank_work, cost_class
    from scorio_core.rank import METHODS

    assert {cost_class(m) for m in METHODS} <= set(COST_CLASSES)
    clock = iter(range(0, 10**9, 3600))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))
    R = np.random.default_rng(1).integers(0, 2, (6, 12, 8))
    run = convergence_at_n(R, methods=["bradley_terry"], replicates=5, seed=0)
    assert run.s_star["bradley_terry"].shape == (5,)
    # at the limit: just under 2 h of declared light work is accepted, a little more is not
    fixed, cell = COST_CLASSES["light"]
    check_rerank_work(["avg"], 7200 / fixed * 0.99, 0.0, "x")
    with pytest.raises(ValidationError, match="limit 2 h"):
        check_rerank_work(["avg"], 7200 / fixed * 1.01, 0.0, "x")


def test_stability_says_why_tau_is_missing_when_every_model_ties():
    from scorio_core.engines import UNDEFINED_ALL_TIE, low_budget_stability

    rng = np.random.default_rng(3)
    row = rng.integers(0, 2, (1, 8, 5))
    R = np.repeat(row, 4, axis=0)  # four identical models: every ranking is one big tie
    st = low_budget_stability(R, None, ["bayes", "borda"])
    assert st.table["note"].tolist() == [UNDEFINED_ALL_TIE] * 2
    assert np.isnan(st.table["gold_mean"]).all()
    assert st.classes("gold")["note"].tolist() == [UNDEFINED_ALL_TIE]
    R2 = rng.integers(0, 2, (4, 8, 5))
    R2[:, :, 0] = 1  # one slice where everybody is right: 1 of 5 undefined
    note = low_budget_stability(R2, None, ["bayes"]).table["note"].iloc[0]
    assert note == f"1 of 5 slices {UNDEFINED_ALL_TIE}"


def test_leaderboard_model_names_are_validated_like_outcomes():
    R = np.random.default_rng(0).integers(0, 2, (2, 5, 4))
    for bad, msg in [(["<b>x</b>", "y"], "markup"), (["=cmd", "y"], "formula"),
                     (["a", "a"], "unique"), (["a\u202eb", "y"], "invisible")]:
        with pytest.raises(ValidationError, match=msg):
            leaderboard(R, models=bad)
    assert leaderboard(R, models=["a", "b"]).table["model"].tolist() in (["a", "b"], ["b", "a"])


def test_leaderboard_weights_must_match_the_datasets_categories():
    """Three weights on binary data made a phantom third category: an all-correct model
    then scored about 0.5 (the prior's mass on it)."""
    o = Outcomes(np.ones((2, 4, 3), int), models=["a", "b"])
    with pytest.raises(ValidationError, match="w has 3 weights but the data have 2 categories"):
        leaderboard(o, w=[0, 1, 0])
    assert leaderboard(o, w=[0, 1]).table["score"].iloc[0] > 0.75


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_map_prior_parameters_must_be_finite(bad):
    from scorio_core.rank import priors

    for make in (lambda: priors.GaussianPrior(mean=bad), lambda: priors.GaussianPrior(var=bad),
                 lambda: priors.LaplacePrior(loc=bad), lambda: priors.LaplacePrior(scale=bad),
                 lambda: priors.CauchyPrior(loc=bad), lambda: priors.CauchyPrior(scale=bad),
                 lambda: priors.GaussianPrior(mean=np.array([0.0, bad]))):
        with pytest.raises(ValidationError, match="prior"):
            make()
    with pytest.raises(ValidationError, match="eps"):
        priors.EmpiricalPrior(np.ones((2, 3)), eps=bad)


def test_weights_for_categories_the_data_never_hold_need_names():
    R = np.ones((2, 4, 3), int)  # binary, all correct
    with pytest.raises(ValidationError, match="define categories 0..2, but the outcomes hold only"):
        Outcomes(R, weights=[0, 1, 0])
    # a rubric's category that did not occur is fine once the categories are named
    o = Outcomes(R, weights=[0, 1, 0.5], category_names=["wrong", "correct", "partial"])
    assert o.C == 2
