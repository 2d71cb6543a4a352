"""Agreement analyses: τ_b (vs scipy), agreement table, consensus."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from scorio_core import ValidationError
from scorio_core.engines import (
    agreement_summary,
    agreement_table,
    compare,
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
    assert s == {
        "mean": pytest.approx(0.82),
        "median": 0.96,
        "min": 0.5,
        "n_tau_1": 1,
        "n_tau_ge_0.95": 2,
        "n_undefined": 1,
    }
    ranks = pd.DataFrame({"a": [1, 2, 3, 4], "b": [1, 2, 3, 4], "c": [4, 3, 2, 1]})
    c = consensus(ranks)
    assert c["method"].tolist()[:2] == ["a", "b"] and c["method"].iloc[-1] == "c"
    assert c["mean_tau_b"].iloc[0] == pytest.approx(0.0)  # (1 + -1) / 2


def test_tau_b_undefined_when_every_model_ties_is_reported_not_raised():
    """Issue 14: with every model tied τ_b has no untied pair (0/0). The agreement
    functions return NaN with the reason instead of crashing or printing a bare nan."""
    from scorio_core.engines.agreement import UNDEFINED_ALL_TIE, tau_b_undefined_reason

    assert tau_b_undefined_reason([2, 2, 2]) == UNDEFINED_ALL_TIE == "undefined (all models tie)"
    assert tau_b_undefined_reason([1, 2, 2], [2, 2, 2]) == UNDEFINED_ALL_TIE
    assert tau_b_undefined_reason([1, 2, 2], [1, 1, 3]) is None
    assert tau_b_undefined_reason([1]) == "undefined (fewer than 2 models)"

    R = np.ones((4, 5, 3), dtype=int)  # every model solves everything: all methods tie all
    run = run_methods(R, methods=["avg", "bayes", "borda", "bradley_terry"])
    cmp = compare(run, R=R)
    assert cmp.undefined == UNDEFINED_ALL_TIE
    assert cmp.agreement["tau_b"].isna().all()
    assert (cmp.agreement["note"] == UNDEFINED_ALL_TIE).all()
    assert cmp.summary["n_undefined"] == 3 and np.isnan(cmp.summary["mean"])
    assert cmp.consensus["mean_tau_b"].isna().all()
    assert (cmp.consensus["note"] == UNDEFINED_ALL_TIE).all()


def test_tau_b_note_only_where_undefined():
    R = np.random.default_rng(3).integers(0, 2, (5, 8, 4))
    run = run_methods(R, methods=["avg", "bayes", "borda"])
    cmp = compare(run, R=R)
    assert cmp.undefined is None
    assert (cmp.agreement["note"] == "").all() and cmp.agreement["tau_b"].notna().all()
    assert cmp.summary["n_undefined"] == 0
    # one method that ties every model: its row is undefined and sorts last
    ranks = run.ranks.assign(flat=1)
    table = agreement_table(ranks, gold_standard(R))
    assert table["method"].iloc[-1] == "flat"
    assert table.set_index("method").loc["flat", "note"] == "undefined (all models tie)"
    c = consensus(ranks).set_index("method")
    assert np.isnan(c.loc["flat", "mean_tau_b"]) and c.loc["flat", "note"]
    assert c.loc["avg", "note"] == "" and np.isfinite(c.loc["avg", "mean_tau_b"])


def test_consensus_ranks_share_a_rank_when_mean_and_sd_tie():
    from scorio_core.engines.agreement import consensus

    ranks = pd.DataFrame({"a": [1, 2, 3], "b": [1, 2, 3], "c": [3, 2, 1], "d": [1, 3, 2]})
    out = consensus(ranks).set_index("method")["consensus_rank"]
    # a and b are the same ranking: equal mean and s.d. of tau_b, one rank (was 2 and 3)
    assert out["a"] == out["b"] == 2 and out["d"] == 1 and out["c"] == 4


def test_one_count_of_exact_methods_with_the_gold_left_out():
    """The summary's n_tau_1 leaves out bayes (the gold standard itself, 002 Table 1) but
    the report's line counted it ('The other 47 methods ...' beside n_tau_1 = 46). Every
    count of exact methods is now the summary's, and the lines say bayes is left out."""
    from scorio_core import Outcomes
    from scorio_core.definitions import ANALYSES
    from scorio_core.engines.agreement import GOLD_METHOD

    rng = np.random.default_rng(4)
    p = np.linspace(0.8, 0.2, 6)[:, None, None] * rng.beta(3, 2, (1, 30, 1))
    R = (rng.random((6, 30, 4)) < p).astype(int)
    R[-1] = 0  # an all-wrong model, as in the audit's file
    cmp = ANALYSES["compare"]
    result = cmp.run(Outcomes(R), cmp.params())  # every registered method
    c = result.comparison
    exact = set(c.exact)
    assert GOLD_METHOD in exact and 0 < c.summary["n_tau_1"] == len(exact) - 1
    views = cmp.shown_tables(result)
    note = views["agreement"].note
    n = c.summary["n_tau_1"]
    assert note.startswith(f"The other {n} methods rank the models exactly as the gold")
    named = note.split(": ", 1)[1].split(". ", 1)[0].split(", ")
    assert sorted(named) == sorted(exact - {GOLD_METHOD})  # the n, by name
    assert "bayes is the gold standard itself" in note
    assert views["summary"].note == (
        f"Over the {len(c.agreement) - 1} methods other than bayes, the gold standard itself "
        "(τ_b = 1 by definition).")
    assert "bayes (the gold standard) too" in views["consensus"].note
    # without bayes among the methods nothing is left out of the counts
    small = cmp.run(Outcomes(R), cmp.params(methods="avg,borda,elo_tie_skip"))
    assert cmp.shown_tables(small)["summary"].note == "Over the 3 methods compared."
    assert small.comparison.summary["n_tau_1"] == len(small.comparison.exact)


def test_paired_gap_is_the_t_interval_of_the_paired_differences():
    from scipy import stats

    from scorio_core.engines.agreement import paired_gap

    rng = np.random.default_rng(3)
    a = rng.normal(0.8, 0.05, 40)
    b = a - rng.normal(0.01, 0.02, 40)
    b[5] = np.nan  # an undefined τ_b: its pair is left out
    g = paired_gap(a, b)
    d = (a - b)[np.isfinite(b)]
    se = d.std(ddof=1) / np.sqrt(39)
    half = stats.t.ppf(0.975, 38) * se
    assert g.n == 39 and g.mean == pytest.approx(d.mean()) and g.se == pytest.approx(se)
    assert (g.lo, g.hi) == pytest.approx((d.mean() - half, d.mean() + half))
    assert g.separated == (g.lo > 0)
    # a swap of the two sides mirrors the interval
    r = paired_gap(b, a)
    assert (r.lo, r.hi) == pytest.approx((-g.hi, -g.lo)) and r.separated == g.separated
    # resampled draws of 12 slices: the slices' own error is added to the draws'
    c = a - 0.01 - rng.normal(0, 0.02, 40)
    w = paired_gap(a, c, draws_from=12)
    se = (a - c).std(ddof=1) * np.sqrt(1 / 40 + 1 / 12)
    assert w.se == pytest.approx(se)
    assert w.hi - w.mean == pytest.approx(stats.t.ppf(0.975, 11) * se)  # 12 slices: 11 df


def test_too_few_pairs_never_separate():
    """Three slices on which one method beats another by the same margin gave a t interval
    of no width; with n pairs even a sign on every pair happens 2 / 2^n of the time by
    chance, so below 6 pairs (95%) nothing is separated."""
    from scorio_core.engines.agreement import paired_gap

    for n, sep in ((1, False), (3, False), (5, False), (6, True), (30, True)):
        g = paired_gap(np.full(n, 1.0), np.full(n, 0.9))
        assert g.separated is sep, n
        assert g.min_pairs == 6
    assert paired_gap([1.0] * 8, [0.9] * 8, confidence=0.99).min_pairs == 8
    assert np.isnan(paired_gap([1.0], [0.9]).se)
