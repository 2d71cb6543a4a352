"""Rubrics as editable tables (the Rubric builder's grid): flatten, rebuild, explain errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from app_state.rubric_editor import blank_tables
from scorio_core import io
from scorio_core._validation import ValidationError
from scorio_core.rubric import PRESETS, AnyOf, Compare, Not, Rubric, Rule, categorize
from scorio_core.rubric.table import RULE_COLUMNS, from_tables, to_tables


@pytest.fixture(scope="module")
def synth(data_dir):
    return io.load(data_dir / "reasoning_synthetic.npz").select("AIME'25")


@pytest.fixture(scope="module")
def real(data_dir):
    """The bundled real table: response_chars, with missing lengths (the length preset)."""
    return io.load(data_dir / "jhu_llm_temperature.parquet")


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_preset_survives_the_table_form(synth, real, key):
    p = PRESETS[key]
    if key.startswith("length/"):
        synth = real
    rules, cats = to_tables(p)
    assert list(rules.columns) == RULE_COLUMNS
    assert cats["weight"].tolist() == list(p.weights)
    back = from_tables(rules, cats, name=p.name, default=p.default)
    assert back.categories == p.categories and back.weights == p.weights
    assert np.array_equal(categorize(back, synth), categorize(p, synth))


def test_or_becomes_consecutive_rules_and_not_is_kept(synth):
    # Not(AnyOf) -> AND of negated literals (De Morgan); AnyOf -> two rules, same category
    odd = Rubric(
        "odd",
        ("invalid", "rest", "good"),
        (0.0, 0.5, 1.0),
        rules=(
            Rule(
                0,
                AnyOf(
                    (
                        Compare("repeated_pattern", "==", value=1.0),
                        Compare("compass_C", ">=", value=0.5),
                    )
                ),
            ),
            Rule(
                2,
                Not(
                    AnyOf(
                        (
                            Compare("is_correct", "<", value=0.5),
                            Compare("completion_bpt", ">", percentile=80, scope="model"),
                        )
                    )
                ),
            ),
        ),
        default=1,
    )
    rules, cats = to_tables(odd)
    assert rules["rule"].tolist() == [1, 2, 3, 3]
    assert rules["category"].tolist() == [0, 0, 2, 2]
    assert rules["negate"].tolist() == [False, False, True, True]
    back = from_tables(rules, cats, default=1)
    assert np.array_equal(categorize(back, synth), categorize(odd, synth))


def test_blank_tables_build_a_binary_rubric(synth):
    rules, cats = blank_tables()
    r = from_tables(rules, cats)
    R = categorize(r, synth)
    correct = synth.signals["is_correct"] >= 0.5
    assert ((R == 2) == (correct & (synth.signals["repeated_pattern"] != 1))).all()


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (lambda r, c: r.assign(op=["=<"] + r["op"].tolist()[1:]), "rules row 1: op must be"),
        (lambda r, c: r.assign(value=[np.nan] * len(r)), "exactly one threshold"),
        (lambda r, c: r.assign(scope=["model"] + [""] * (len(r) - 1)), "only goes with"),
        (lambda r, c: r.assign(category=[0, 5, 1]), "assigns category 5.*0..2"),
        (lambda r, c: r.assign(rule=[1, 1, 2]), "rows of one rule must give the same category"),
        (lambda r, c: (r, c.iloc[[0, 2]]), "numbered 0..1 without gaps"),
        (lambda r, c: (r, c.assign(weight=["x", 0, 1])), "weight of category 0"),
        (lambda r, c: (r.iloc[:0], c), "at least one rule"),
    ],
)
def test_table_errors_name_the_row(edit, fragment):
    rules, cats = blank_tables()
    out = edit(rules, cats)
    rules, cats = out if isinstance(out, tuple) else (out, cats)
    with pytest.raises(ValidationError, match=fragment):
        from_tables(rules, cats)


def test_percentile_rows_and_among_parsing(synth):
    rules = pd.DataFrame(
        [
            {
                "rule": 1,
                "category": 1,
                "signal": "completion_bpt",
                "op": "<=",
                "percentile": 60,
                "scope": "model",
                "among": "is_correct < 0.5 & not has_box == 0",
            },
            {"rule": 2, "category": 0, "signal": "is_correct", "op": ">=", "value": 0.0},
        ]
    )
    cats = pd.DataFrame(
        {"category": [0, 1], "name": ["other", "confident wrong"], "weight": [0.0, 1.0]}
    )
    r = from_tables(rules, cats)
    among = r.rules[0].when.among
    assert among.describe(True) == "is_correct < 0.5 ∧ ¬has_box == 0"
    with pytest.raises(ValidationError, match="'among' must be terms like"):
        from_tables(rules.assign(among=["is_correct <"] + [""]), cats)
    with pytest.raises(ValidationError, match="needs scope"):
        from_tables(rules.assign(scope=["", ""]), cats)
