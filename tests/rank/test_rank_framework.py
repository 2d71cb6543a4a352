"""The ranking contract: ties, registry metadata, metric rankers vs the reference."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from _cases import assert_same_order_as_reference

from scorio_core import ValidationError, rank
from scorio_core._ties import rank_scores_batch
from scorio_core.rank import METHODS, rank_scores


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        ("competition", [1, 2, 2, 4]),
        ("competition_max", [1, 3, 3, 4]),
        ("dense", [1, 2, 2, 3]),
        ("avg", [1, 2.5, 2.5, 4]),
    ],
)
def test_rank_scores_tie_methods(method, expected):
    assert rank_scores([0.9, 0.5, 0.5, 0.1], method).tolist() == expected


def test_rank_scores_treats_float_noise_as_a_tie_but_not_real_gaps():
    assert rank_scores([1.0, 1.0 + 1e-13, 0.5]).tolist() == [1, 1, 3]
    assert rank_scores([1.0, 1.0 + 1e-6, 0.5]).tolist() == [2, 1, 3]


def test_rank_scores_rejects_nan_and_unknown_method():
    with pytest.raises(ValidationError, match="finite"):
        rank_scores([0.1, np.nan])
    with pytest.raises(ValidationError, match="method must be one of"):
        rank_scores([0.1, 0.2], "olympic")


def test_registry_metadata_is_complete():
    for mid, m in METHODS.items():
        assert m.id == mid and m.family in rank.FAMILIES and m.description
        sig = inspect.signature(m.func)
        assert sig.parameters["method"].default == "competition"
        assert sig.parameters["return_scores"].default is False
        assert set(m.params) <= set(sig.parameters), mid


def test_metric_rankers_match_reference():
    ref = pytest.importorskip("scorio.rank")
    rng = np.random.default_rng(0)
    for _ in range(30):
        L, M, N = (int(x) for x in rng.integers([2, 1, 2], [9, 12, 10]))
        R = rng.integers(0, 2, (L, M, N))
        R0 = rng.integers(0, 2, (L, M, 1))
        for mid in [
            "avg",
            "inverse_difficulty",
            "pass_at_k_2",
            "pass_hat_k_2",
            "mg_pass_at_k_2",
            "bayes",
            "bayes_greedy",
            "bayes_ci",
        ]:
            m = METHODS[mid]
            ours, scores = m(R, R0)
            kw = dict(m.params)
            if m.needs_r0:
                kw["R0"] = R0
            theirs, their_scores = getattr(ref, m.func.__name__)(R, return_scores=True, **kw)
            assert_same_order_as_reference(ours, theirs, their_scores, msg=mid)


def test_bayes_ranker_accepts_categorical_outcomes():
    R = np.array([[[2, 2]], [[1, 1]], [[0, 2]]])
    assert rank.bayes(R, w=[0, 0.5, 1]).tolist() == [1, 2, 2]
    with pytest.raises(ValidationError, match="binary"):
        rank.avg(R)


def test_needs_r0_is_enforced():
    with pytest.raises(ValidationError, match="needs prior outcomes"):
        METHODS["bayes_greedy"](np.ones((2, 3, 2), dtype=int))


def test_rank_scores_keeps_distinctions_among_tiny_scores():
    # methods whose scores are masses register tie_floor=0: ties are then relative only
    assert rank_scores([3e-200, 2e-200, 2e-200, 1e-200], floor=0.0).tolist() == [1, 2, 2, 4]
    mass_methods = {m.id for m in METHODS.values() if m.tie_floor == 0.0}
    assert {"alpharank", "spectral", "pagerank", "rank_centrality_tie_half"} <= mass_methods
    # alpha-Rank masses 1, 4e-6, 1e-11, 2e-22: the last two are distinct, not noise
    R = np.array([[[1, 1, 1, 1]], [[1, 1, 1, 0]], [[1, 1, 0, 0]], [[0, 0, 0, 0]]])
    ranks, masses = rank.alpharank(R.transpose(0, 2, 1), alpha=2.0, return_scores=True)
    assert masses[2] < 1e-10 and ranks.tolist() == [1, 2, 3, 4]
    assert rank_scores(masses).tolist() == [1, 2, 3, 3]  # the unit-scale floor would tie them


def test_float_noise_around_zero_is_one_value():
    # issue 14: -2e-12, 0, 6e-14 were ranked 3, 2, 1 because the tolerance scaled with max|s|
    assert rank_scores([-2e-12, 0.0, 6e-14]).tolist() == [1, 1, 1]
    assert rank_scores([-2e-12, 0.0, 6e-14, 0.5]).tolist() == [2, 2, 2, 1]
    assert rank_scores_batch([[-2e-12, 0.0, 6e-14]]).tolist() == [[1, 1, 1]]
    # real differences of a unit-scale score (one outcome in 10^8) are kept
    assert rank_scores([1e-8, 0.0, -1e-8]).tolist() == [1, 2, 3]
    with pytest.raises(ValidationError, match="floor"):
        rank_scores([1.0, 2.0], floor=-1.0)


def test_pairwise_tallies_equal_plain_loops_whatever_the_block_size(monkeypatch):
    """Issue 15 (memory): the tallies are built in blocks (int16 / float32 slices); the
    block size changes nothing."""
    from scorio_core.rank import _stats

    rng = np.random.default_rng(30)
    R = rng.integers(0, 2, (7, 9, 5)).astype(np.int8)
    k = _stats.solve_counts(R)
    L = R.shape[0]
    wins = np.array([[np.sum(k[i] > k[j]) for j in range(L)] for i in range(L)])
    ties = np.array([[np.sum(k[i] == k[j]) * (i != j) for j in range(L)] for i in range(L)])
    X = R.reshape(L, -1).astype(int)
    t_w = np.array([[np.sum(X[i] & (1 - X[j])) * (i != j) for j in range(L)] for i in range(L)])
    t_b = np.array([[np.sum(X[i] & X[j]) * (i != j) for j in range(L)] for i in range(L)])
    for qp_cells, pair_block in [(1 << 22, 8192), (1, 1), (20, 7)]:
        monkeypatch.setattr(_stats, "_QP_BLOCK_CELLS", qp_cells)
        monkeypatch.setattr(_stats, "_PAIR_BLOCK", pair_block)
        qp = _stats.question_pairs(k)
        np.testing.assert_array_equal(qp.wins, wins)
        np.testing.assert_array_equal(qp.ties, ties)
        np.testing.assert_array_equal(qp.margin_sum, (k[:, None, :] - k[None]).sum(-1))
        tp = _stats.trial_pairs(R)
        np.testing.assert_array_equal(tp.wins, t_w)
        np.testing.assert_array_equal(tp.both_correct, t_b)
        np.testing.assert_array_equal(tp.total, (X.shape[1]) * (1 - np.eye(L, dtype=int)))


def test_integer_outcomes_are_not_copied_to_int64():
    """Issue 15: ``as_outcome_array`` returned an int64 copy of int8 data on every call."""
    from scorio_core._validation import as_outcome_array
    from scorio_core.rank._stats import as_binary

    R = np.random.default_rng(31).integers(0, 2, (4, 5, 3)).astype(np.int8)
    out = as_outcome_array(R)
    assert out.dtype == np.int8 and np.shares_memory(out, R)
    assert np.shares_memory(as_binary(R), R)
    b = as_outcome_array(R.astype(bool))
    assert b.dtype == np.int8 and b.tolist() == R.tolist()
    u = as_outcome_array(R.astype(np.uint8))  # unsigned: a signed type, so differences are safe
    assert u.dtype == np.int16 and (u[0] - u[1]).min() >= -1
    assert as_outcome_array(R.astype(float)).dtype == np.int64
    with pytest.raises(ValidationError, match="non-negative"):
        as_outcome_array(np.array([[1, -1]], dtype=np.int8))
