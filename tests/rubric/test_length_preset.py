"""The length rubric (``length/concise-correct``) and ``is_correct``, the outcome of
binary data as a signal: categories worked out by hand, the missing-signal rule on a
missing length, and the bundled real dataset (its API failures are the missing lengths)."""

from __future__ import annotations

import numpy as np
import pytest

from scorio_core import ValidationError
from scorio_core import io as sio
from scorio_core.outcomes import Outcomes
from scorio_core.rubric import PRESETS, Compare, Rubric, Rule, apply, signal_names
from scorio_core.rubric.evaluate import DERIVED_SIGNALS, categorize

KEY = "length/concise-correct"
NAN = np.nan

# One model, one question, 10 completions. Lengths of the 5 correct ones: 100, 200, 300,
# 400, 1000 -> P75 (linear) = 400, so 1000 is "long", the other four "concise".
R = [1, 1, 1, 1, 1, 0, 0, 0, 0, 1]
CHARS = [100, 200, 300, 400, 1000, 50, 5000, NAN, NAN, NAN]
# correct+concise = 3, correct+long = 2, wrong with a length = 1, missing length = 0
# (a correct answer with no length too: every rule reads the length, so none matches).
EXPECTED = [3, 3, 3, 3, 2, 1, 1, 0, 0, 0]


def _data(signals=None) -> Outcomes:
    sig = {"response_chars": np.asarray(CHARS, dtype=float)[None, None]}
    return Outcomes(np.asarray(R)[None, None], signals=sig | (signals or {}))


def test_is_correct_is_the_binary_outcome_when_not_stored():
    o = _data()
    assert "is_correct" not in o.signals and signal_names(o) == ("is_correct", "response_chars")
    r = Rubric("c", ("no", "yes"), (0.0, 1.0),
               rules=(Rule(1, Compare("is_correct", ">=", value=0.5)),), default=0)
    assert categorize(r, o)[0, 0].tolist() == R
    assert "is_correct" in DERIVED_SIGNALS


def test_a_stored_is_correct_signal_wins_over_the_outcome():
    flipped = 1.0 - np.asarray(R, dtype=float)[None, None]
    o = _data({"is_correct": flipped})
    r = Rubric("c", ("no", "yes"), (0.0, 1.0),
               rules=(Rule(1, Compare("is_correct", ">=", value=0.5)),), default=0)
    assert categorize(r, o)[0, 0].tolist() == [1 - x for x in R]


def test_categorical_data_offer_no_is_correct():
    o = Outcomes(np.array([[[0, 1, 2]]]), weights=[0, 0.5, 1],
                 signals={"response_chars": [[[1.0, 2.0, 3.0]]]})
    assert signal_names(o) == ("response_chars",)
    with pytest.raises(ValidationError, match="is_correct"):
        apply(PRESETS[KEY], o)


def test_length_preset_categories_by_hand_and_missing_lengths_fall_to_the_default():
    r = PRESETS[KEY]
    assert r.default == 0 and r.categories[0] == "no response"
    assert set(r.signals) == {"is_correct", "response_chars"}
    out = apply(r, _data())
    assert out.R[0, 0].tolist() == EXPECTED
    assert out.weights.tolist() == [0.0, 0.0, 0.8, 1.0]


def test_length_preset_on_the_bundled_real_data(data_dir):
    o = sio.load(data_dir / "jhu_llm_temperature.parquet")
    missing = np.isnan(o.signals["response_chars"])
    out = apply(PRESETS[KEY], o)
    # exactly the completions without a length are "no response" (all are API failures)
    np.testing.assert_array_equal(out.R == 0, missing)
    assert int(missing.sum()) == 1279
    # correct completions are split at P75 of the correct ones' lengths: a quarter long
    correct = o.R == 1
    long_share = (out.R[correct] == 2).mean()
    assert 0.24 < long_share < 0.26
    # the score is the accuracy minus 0.2 x the long correct share, model by model
    score = (out.R[..., None] == np.arange(4)).mean(axis=(1, 2)) @ out.weights
    np.testing.assert_allclose(score, o.R.mean(axis=(1, 2)) - 0.2 * (out.R == 2).mean(axis=(1, 2)))
