"""Rubric predicates on missing signal values (NaN): Kleene three-valued logic
(``scorio_core.outcomes.MISSING_SIGNAL_RULE``), checked against a plain per-completion
evaluator written here from the rule's text."""

from __future__ import annotations

import numpy as np
import pytest

from scorio_core.outcomes import MISSING_SIGNAL_RULE, Outcomes
from scorio_core.rubric import Compare, Rubric, Rule, apply
from scorio_core.rubric.evaluate import categorize
from scorio_core.rubric.model import AllOf, AnyOf, Not

NAN = np.nan
OPS = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
       "==": np.equal, "!=": np.not_equal}  # fmt: skip


def _data(x, y=None):
    x = np.asarray(x, dtype=float)[None, None]
    sig = {"x": x}
    if y is not None:
        sig["y"] = np.asarray(y, dtype=float)[None, None]
    return Outcomes(np.zeros(x.shape, dtype=int), signals=sig)


def _cats(cond, data, default=0):
    r = Rubric("t", ("no", "yes"), (0.0, 1.0), rules=(Rule(1, cond),), default=default)
    return categorize(r, data)[0, 0].tolist()


X = [1.0, NAN, 5.0]  # present-small, missing, present-large


@pytest.mark.parametrize(
    ("cond", "expected"),
    [
        (Compare("x", "<", value=3), [1, 0, 0]),
        (Not(Compare("x", "<", value=3)), [0, 0, 1]),  # ¬unknown is unknown, not true
        (Compare("x", "!=", value=3), [1, 0, 1]),  # NumPy says NaN != 3; the rule: unknown
        (Compare("x", "==", value=3) | Compare("x", "!=", value=3), [1, 0, 1]),  # no tertium
        (Not(Not(Compare("x", "<", value=3))), [1, 0, 0]),
    ],
)
def test_comparison_on_a_missing_value_is_unknown(cond, expected):
    assert _cats(cond, _data(X)) == expected


def test_and_or_follow_kleene():
    d = _data([NAN, NAN, NAN, NAN, 1.0], y=[0.0, 1.0, 0.0, 1.0, 0.0])  # last: x < 3 true
    unknown, y_true = Compare("x", "<", value=3), Compare("y", ">=", value=0.5)
    assert _cats(unknown | y_true, d) == [0, 1, 0, 1, 1]  # unknown OR true = true
    assert _cats(unknown & y_true, d) == [0, 0, 0, 0, 0]  # unknown AND anything: never true
    # unknown AND false = false, so its negation is true exactly where y is false
    assert _cats(Not(unknown & y_true), d) == [1, 0, 1, 0, 1]
    assert _cats(Not(unknown | y_true), d) == [0, 0, 0, 0, 0]  # ¬(unknown ∨ false) unknown


def test_unknown_falls_through_to_the_next_rule_and_the_default():
    d = _data(X)
    r = Rubric("t", ("missing", "short", "long"), (0.0, 1.0, 0.5), rules=(
        Rule(1, Compare("x", "<", value=3)), Rule(2, Compare("x", ">=", value=3))), default=0)
    assert categorize(r, d)[0, 0].tolist() == [1, 0, 2]
    no_default = Rubric("t", ("short", "long"), (1.0, 0.5), rules=(
        Rule(0, Compare("x", "<", value=3)), Rule(1, Compare("x", ">=", value=3))))
    with pytest.raises(Exception, match=r"1 of 3 completions match no rule .* trial 1 \(x=nan\)"):
        categorize(no_default, d)


def test_other_signal_missing_is_unknown():
    d = _data([1.0, 2.0, NAN], y=[2.0, NAN, 0.0])
    assert _cats(Compare("x", "<", other="y"), d) == [1, 0, 0]
    assert _cats(Not(Compare("x", "<", other="y")), d) == [0, 0, 0]


def test_percentiles_are_taken_over_the_values_present():
    x = [NAN, 1.0, 2.0, 3.0, 4.0, NAN]
    d = _data(x)
    # median of the present values (1, 2, 3, 4) is 2.5; NaN would make np.percentile NaN
    assert _cats(Compare("x", "<=", percentile=50, scope="global"), d) == [0, 1, 1, 0, 0, 0]
    assert _cats(Compare("x", ">", percentile=50, scope="model"), d) == [0, 0, 0, 1, 1, 0]


def test_apply_keeps_nan_signals_and_data_without_missing_values_are_unchanged():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 3, 5))
    d = Outcomes(np.zeros(x.shape, dtype=int), signals={"x": x})
    cond = Not(Compare("x", "<", value=0.0) & Compare("x", ">", percentile=20, scope="model"))
    r = Rubric("t", ("no", "yes"), (0.0, 1.0), rules=(Rule(1, cond),), default=0)
    thr = np.percentile(x.reshape(2, -1), 20, axis=1)[:, None, None]
    expected = ~((x < 0) & (x > thr))  # two-valued logic when nothing is missing
    np.testing.assert_array_equal(categorize(r, d), expected.astype(int))
    x2 = x.copy()
    x2[0, 0, 0] = NAN
    out = apply(r, Outcomes(np.zeros(x.shape, dtype=int), signals={"x": x2}))
    assert np.isnan(out.signals["x"][0, 0, 0]) and out.R[0, 0, 0] == 0


# ------------------------------------------------- against a per-completion evaluator
def _kleene(c, values: dict[str, float]):
    """True / False / None (unknown) for one completion, straight from the rule's text."""
    if isinstance(c, Compare):
        a = values[c.signal]
        b = c.value if c.value is not None else values[c.other]
        if np.isnan(a) or np.isnan(b):
            return None
        return bool(OPS[c.op](a, b))
    if isinstance(c, Not):
        v = _kleene(c.term, values)
        return None if v is None else not v
    vals = [_kleene(t, values) for t in c.terms]
    if isinstance(c, AllOf):
        return False if False in vals else (None if None in vals else True)
    return True if True in vals else (None if None in vals else False)


def _random_condition(rng, depth=0):
    kind = rng.integers(0, 4) if depth < 3 else 0
    if kind == 0:
        sig = str(rng.choice(["a", "b", "c"]))
        op = str(rng.choice(list(OPS)))
        if rng.random() < 0.3:
            return Compare(sig, op, other=str(rng.choice(["a", "b", "c"])))
        return Compare(sig, op, value=float(rng.integers(0, 3)))
    if kind == 1:
        return Not(_random_condition(rng, depth + 1))
    terms = tuple(_random_condition(rng, depth + 1) for _ in range(int(rng.integers(2, 4))))
    return AllOf(terms) if kind == 2 else AnyOf(terms)


def test_vectorised_rubric_equals_the_per_completion_rule():
    rng = np.random.default_rng(20251126)
    shape = (2, 3, 8)
    sig = {}
    for k in "abc":
        v = rng.integers(0, 3, size=shape).astype(float)
        v[rng.random(shape) < 0.3] = NAN
        sig[k] = v
    data = Outcomes(np.zeros(shape, dtype=int), signals=sig)
    for _ in range(60):
        conds = [_random_condition(rng) for _ in range(3)]
        r = Rubric("t", ("c0", "c1", "c2", "c3"), (0.0, 0.3, 0.6, 1.0),
                   rules=tuple(Rule(i + 1, c) for i, c in enumerate(conds)), default=0)  # fmt: skip
        got = categorize(r, data)
        for idx in np.ndindex(shape):
            values = {k: sig[k][idx] for k in sig}
            want = next((i + 1 for i, c in enumerate(conds) if _kleene(c, values) is True), 0)
            assert got[idx] == want, (conds, idx, values)


def test_rule_text_names_the_logic():
    assert "unknown" in MISSING_SIGNAL_RULE and "Kleene" in MISSING_SIGNAL_RULE
    assert "falls through" in MISSING_SIGNAL_RULE
