"""Agreement analyses: τ_b (vs scipy), agreement table, consensus."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from scorio_core import ValidationError
from scorio_core.analysis import (
    agreement_summary,
    agreement_table,
    consensus,
    gold_standard,
    kendall_tau_b,
    run_methods,
    tau_b_matrix,
)


def test_tau_b_matrix_equals_scipy_with_ties():
    rng = np.random.default_rng(0)
    X = rng.integers(1, 4, (12, 9))  # heavy ties
    T = tau_b_matrix(X)
    for a in range(12):
        for b in range(12):
            ref = kendalltau(X[a], X[b], variant="b").statistic
            if np.isnan(ref):
                assert np.isnan(T[a, b])
            else:
                assert T[a, b] == pytest.approx(ref, abs=1e-12)


def test_tau_b_known_values_and_errors():
    assert kendall_tau_b([1, 2, 3], [1, 2, 3]) == 1.0
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == -1.0
    assert np.isnan(kendall_tau_b([1, 1, 1], [1, 2, 3]))  # undefined: no untied pair
    with pytest.raises(ValidationError):
        kendall_tau_b([1, 2], [1, 2, 3])


def test_gold_is_avg_order():
    R = np.random.default_rng(1).integers(0, 2, (6, 10, 7))
    acc = R.mean(axis=(1, 2))
    gold = gold_standard(R)
    assert kendall_tau_b(gold, -acc) == pytest.approx(1.0)


def test_run_methods_skips_with_reasons_and_agreement_table():
    R = np.random.default_rng(2).integers(0, 2, (5, 8, 1))
    run = run_methods(R, methods=["avg", "bayes", "pass_at_k_2", "bayes_greedy", "bayes_ci"])
    assert set(run.ranks.columns) == {"avg", "bayes", "bayes_ci"}
    assert "N >= 2" in run.skipped["pass_at_k_2"] and "R0" in run.skipped["bayes_greedy"]
    table = agreement_table(run.ranks, gold_standard(R))
    row = table.set_index("method").loc["avg"]
    assert row["tau_b"] == pytest.approx(1.0) and bool(row["exact"])
    with pytest.raises(ValidationError, match="unknown method"):
        run_methods(R, methods=["nope"])


def test_summary_and_consensus():
    s = agreement_summary([1.0, 0.96, 0.5, np.nan])
    assert s == {"mean": pytest.approx(0.82), "median": 0.96, "min": 0.5, "n_tau_1": 1,
                 "n_tau_ge_0.95": 2}
    ranks = pd.DataFrame({"a": [1, 2, 3, 4], "b": [1, 2, 3, 4], "c": [4, 3, 2, 1]})
    c = consensus(ranks)
    assert c["method"].tolist()[:2] == ["a", "b"] and c["method"].iloc[-1] == "c"
    assert c["mean_tau_b"].iloc[0] == pytest.approx(0.0)  # (1 + -1) / 2
