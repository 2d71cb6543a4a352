"""Voting rules (002 App. I.1.4): questions are voters ranking models by solve counts.

Differential tests against the reference package (``scorio.rank``), known truths
of social choice (Condorcet consistency, dominance, neutrality, clones tie),
degenerate inputs, the exact Kemeny solvers against each other, and the
documented deliberate differences.
"""

from __future__ import annotations

import inspect
from itertools import permutations

import numpy as np
import pytest
from _cases import assert_signature_like_reference
from scipy.stats import rankdata

from scorio_core import ValidationError, io
from scorio_core.rank import METHODS, voting

IDS = [
    "borda", "copeland", "win_rate",
    "minimax_variant_margin_tie_ignore", "minimax_variant_margin_tie_half",
    "minimax_variant_winning_votes_tie_ignore", "minimax_variant_winning_votes_tie_half",
    "schulze_tie_ignore", "schulze_tie_half",
    "ranked_pairs_strength_margin_tie_ignore", "ranked_pairs_strength_margin_tie_half",
    "ranked_pairs_strength_winning_votes_tie_ignore",
    "ranked_pairs_strength_winning_votes_tie_half",
    "kemeny_young_tie_ignore", "kemeny_young_tie_half",
    "nanson_rank_ties_average", "nanson_rank_ties_max",
    "baldwin_rank_ties_average", "baldwin_rank_ties_max",
    "majority_judgment",
]  # fmt: skip
PUBLIC = {n: getattr(voting, n) for n in voting.__all__ if not isinstance(getattr(voting, n), type)}
# Condorcet extensions: a model beating every other on a question majority comes first
CONDORCET = [i for i in IDS if i.split("_")[0] in ("copeland", "minimax", "schulze", "ranked",
                                                   "kemeny")]  # fmt: skip
# elimination rules may drop a dominated model together with its dominator
ELIMINATION = [i for i in IDS if i.startswith(("nanson", "baldwin"))]


def _random_R(rng, L, M, N, twins=False):
    R = (rng.random((L, M, N)) < rng.uniform(0.05, 0.95, (L, 1, 1))).astype(int)
    if twins and L > 2:
        R[-1] = R[0]
    return R


def _random_tensors(rng, count, max_L=10):
    """Random binary tensors of various shapes, N = 1 included, some with twins."""
    out = []
    for t in range(count):
        L, M = int(rng.integers(2, max_L + 1)), int(rng.integers(1, 16))
        N = 1 if t % 3 == 0 else int(rng.integers(2, 6))
        out.append(_random_R(rng, L, M, N, twins=t % 4 == 0))
    return out


def _structured_tensors():
    """Ties, dominance, identical models, a Condorcet cycle and constant inputs."""
    chain = np.zeros((5, 6, 3), dtype=int)
    for level in range(5):  # model l solves (5 - l) * 3 trials spread over the questions
        chain[level].reshape(-1)[: (5 - level) * 3] = 1
    cycle = _condorcet_cycle()
    twins = np.concatenate([chain[:2], chain[:2], chain[3:]])
    return [chain, cycle, twins, np.ones((4, 3, 2), int), np.zeros((3, 4, 1), int),
            np.repeat(chain[:1], 3, 0), np.array([[[1]], [[0]]])]  # fmt: skip


def _condorcet_cycle():
    """Three models, N = 2: A > B > C > A, each pair 2 questions to 1 (equal margins)."""
    k = np.array([[2, 0, 1], [1, 2, 0], [0, 1, 2]])  # k[model, question]
    return (np.arange(2)[None, None, :] < k[:, :, None]).astype(int)


def _ref_call(ref, mid, R):
    m = METHODS[mid]
    return getattr(ref, m.func.__name__)(R, **m.params)


# --------------------------------------------------------------------------- registry
def test_registers_exactly_the_app_i2_ids_with_their_parameters():
    ids = [mid for mid, m in METHODS.items() if m.family == "voting"]
    assert ids == IDS
    assert not any(METHODS[mid].extra or METHODS[mid].stochastic for mid in ids)
    assert METHODS["minimax_variant_winning_votes_tie_half"].params == {
        "variant": "winning_votes", "tie_policy": "half"}  # fmt: skip
    assert METHODS["ranked_pairs_strength_margin_tie_ignore"].params == {
        "strength": "margin", "tie_policy": "ignore"}  # fmt: skip
    assert METHODS["kemeny_young_tie_half"].params == {
        "tie_policy": "half", "time_limit": voting.KEMENY_TIME_LIMIT}  # fmt: skip
    assert 0 < voting.KEMENY_TIME_LIMIT < np.inf
    assert METHODS["baldwin_rank_ties_max"].params == {"rank_ties": "max"}
    assert METHODS["borda"].params == {}


def test_signatures_match_the_reference():
    ref = pytest.importorskip("scorio.rank")
    for name, fn in PUBLIC.items():
        # tie_aware: see test_deliberate_difference_kemeny_always_tie_aware; time_limit
        # defaults to a finite bound and return_status labels the result (issue 14)
        assert_signature_like_reference(
            fn,
            getattr(ref, name),
            drop=("tie_aware",),
            skip_default=("time_limit",),
            extra=("return_status",),
        )


# --------------------------------------------------------------------------- differential
@pytest.mark.parametrize("mid", [i for i in IDS if not i.startswith(("ranked_pairs", "kemeny"))])
def test_matches_reference_exactly(mid):
    ref = pytest.importorskip("scorio.rank")
    rng = np.random.default_rng(1)
    cases = _random_tensors(rng, 40, max_L=12) + _structured_tensors()
    cases += [_random_R(rng, 20, 30, 8), _random_R(rng, 20, 30, 1)]
    for R in cases:
        np.testing.assert_array_equal(METHODS[mid](R)[0], _ref_call(ref, mid, R), err_msg=mid)


@pytest.mark.parametrize("mid", [i for i in IDS if i.startswith("ranked_pairs")])
def test_ranked_pairs_matches_reference_when_no_equal_strength_conflict(mid):
    """Without a conflict inside a batch of equally strong victories, locking them in any
    order (the reference uses model indices) gives the same graph, so ranks must agree."""
    ref = pytest.importorskip("scorio.rank")
    rng = np.random.default_rng(2)
    m = METHODS[mid]
    compared = 0
    cases = _random_tensors(rng, 60, max_L=12) + _structured_tensors()
    cases += [_random_R(rng, 20, 30, 8), _random_R(rng, 20, 30, 1)]
    for R in cases:
        P = voting._preference(voting._tallies(R)[1], m.params["tie_policy"])
        if voting._lock_pairs(P, m.params["strength"])[1]:
            continue
        compared += 1
        np.testing.assert_array_equal(m(R)[0], _ref_call(ref, mid, R), err_msg=mid)
    assert compared >= 50


def test_kemeny_matches_reference():
    ref = pytest.importorskip("scorio.rank")
    rng = np.random.default_rng(3)
    # the reference solves up to one MILP per pair: keep L small so the test stays fast
    cases = [
        _random_R(rng, L, M, N, twins=t % 2 == 0)
        for t, (L, M, N) in enumerate([(3, 4, 1), (5, 8, 3), (6, 3, 1), (6, 12, 4), (7, 5, 2)])
    ]
    cases += [c for c in _structured_tensors() if c.shape[0] <= 6]
    for R in cases:
        for mid in ("kemeny_young_tie_ignore", "kemeny_young_tie_half"):
            np.testing.assert_array_equal(METHODS[mid](R)[0], _ref_call(ref, mid, R))


# --------------------------------------------------------------------------- known truths
def test_borda_equals_a_plain_loop_over_questions():
    """Eq. 33 with scipy's tie-averaged per-question ranks equals the pairwise row sums."""
    rng = np.random.default_rng(4)
    for R in _random_tensors(rng, 10):
        k = R.sum(-1)
        L = k.shape[0]
        loop = sum(L - rankdata(-k[:, m], method="average") for m in range(k.shape[1]))
        np.testing.assert_allclose(voting.borda(R, return_scores=True)[1], loop)


def test_elimination_rank_ties_min_matches_reference():
    ref = pytest.importorskip("scorio.rank")
    rng = np.random.default_rng(5)
    for R in _random_tensors(rng, 15):
        for name in ("nanson", "baldwin"):
            np.testing.assert_array_equal(
                PUBLIC[name](R, rank_ties="min"), getattr(ref, name)(R, rank_ties="min")
            )


@pytest.mark.parametrize("mid", IDS)
def test_neutral_under_model_permutation(mid):
    rng = np.random.default_rng(6)
    cases = _random_tensors(rng, 12) + _structured_tensors()
    for R in cases:
        perm = rng.permutation(R.shape[0])
        ranks, scores = METHODS[mid](R)
        ranks_p, scores_p = METHODS[mid](R[perm])
        np.testing.assert_array_equal(ranks_p, ranks[perm], err_msg=mid)
        np.testing.assert_allclose(scores_p, scores[perm], err_msg=mid)


@pytest.mark.parametrize("mid", IDS)
def test_identical_models_get_equal_scores(mid):
    rng = np.random.default_rng(7)
    for _ in range(8):
        R = _random_R(
            rng, int(rng.integers(3, 9)), int(rng.integers(1, 12)), int(rng.integers(1, 5))
        )
        R[1] = R[0]
        scores = METHODS[mid](R)[1]
        assert scores[0] == scores[1], mid


@pytest.mark.parametrize("mid", IDS)
def test_nested_solve_sets_give_the_dominance_order(mid):
    """Model l solves a superset of model l+1's trials on every question."""
    R = _structured_tensors()[0]
    ranks = METHODS[mid](R)[0]
    if mid.startswith("nanson"):
        assert np.all(np.diff(ranks) >= 0) and ranks[0] == 1
    else:
        np.testing.assert_array_equal(ranks, np.arange(1, 6), err_msg=mid)


@pytest.mark.parametrize("mid", CONDORCET)
def test_condorcet_winner_is_ranked_first(mid):
    rng = np.random.default_rng(8)
    found = 0
    for R in _random_tensors(rng, 40):
        W = voting._tallies(R)[1].wins
        beats_all = np.flatnonzero(((W > W.T) | np.eye(len(W), dtype=bool)).all(1))
        if len(beats_all) == 1:
            found += 1
            ranks = METHODS[mid](R)[0]
            assert ranks[beats_all[0]] == 1 and (ranks == 1).sum() == 1, mid
    assert found >= 10


def test_symmetric_condorcet_cycle_is_a_three_way_tie():
    R = _condorcet_cycle()
    for mid in IDS:
        assert METHODS[mid](R)[0].tolist() == [1, 1, 1], mid


def test_tie_policy_does_not_change_margin_based_rules():
    """Margins Δ = W - Wᵀ do not involve per-question ties (002 eq. 36)."""
    rng = np.random.default_rng(9)
    for R in _random_tensors(rng, 10):
        for a, b in [("minimax_variant_margin_tie_ignore", "minimax_variant_margin_tie_half"),
                     ("kemeny_young_tie_ignore", "kemeny_young_tie_half")]:  # fmt: skip
            np.testing.assert_array_equal(METHODS[a](R)[1], METHODS[b](R)[1])


def test_majority_value_order_is_repeated_lower_median_removal():
    for M in range(1, 14):
        rest, order = list(range(M)), []
        while rest:
            order.append(rest.pop((len(rest) - 1) // 2))
        assert voting._majority_value_order(M).tolist() == order


def test_majority_judgment_compares_lower_medians_then_the_gauge():
    # grades per question: A {0, 1, 2}, B {1, 1, 1}, C {0, 0, 2}: medians 1, 1, 0;
    # A vs B after removing a median 1: {0, 2} -> 0 against {1, 1} -> 1, so B > A
    k = np.array([[0, 1, 2], [1, 1, 1], [0, 0, 2]])
    R = (np.arange(2)[None, None, :] < k[:, :, None]).astype(int)
    assert voting.majority_judgment(R).tolist() == [2, 1, 3]


# --------------------------------------------------------------------------- Kemeny solvers
def _brute_force_forced(D):
    n = D.shape[0]
    perms = np.array(list(permutations(range(n))))
    pos = np.argsort(perms, 1)
    value = (np.where(pos[:, :, None] < pos[:, None, :], D, 0)).sum((1, 2))
    best = pos[value == value.max()]
    return np.all(best[:, :, None] < best[:, None, :], axis=0)


def _random_margins(rng, n):
    R = _random_R(rng, n, int(rng.integers(2, 20)), int(rng.integers(1, 4)))
    W = voting._tallies(R)[1].wins
    return (W - W.T).astype(float)


def test_kemeny_dynamic_program_equals_brute_force():
    rng = np.random.default_rng(10)
    for _ in range(25):
        D = _random_margins(rng, int(rng.integers(1, 7)))
        np.testing.assert_array_equal(voting._kemeny_forced_dp(D), _brute_force_forced(D))


def test_kemeny_milp_equals_dynamic_program(monkeypatch):
    """The MILP path (blocks above the DP size) finds the same forced relation."""
    rng = np.random.default_rng(11)
    monkeypatch.setattr(voting, "_KEMENY_DP_MAX", 0)
    for n in (4, 7, 9):
        D = _random_margins(rng, n)
        forced, order, exact = voting._kemeny_forced_block(D, None)
        assert exact
        np.testing.assert_array_equal(forced, voting._kemeny_forced_dp(D))
        # the order returned is optimal: no order has a larger Kemeny value (Σ over the
        # pairs of positions a < b of Δ between their models, every order at once; the
        # margins are whole numbers, so the sums are exact whatever their order)
        perms = np.array(list(permutations(range(n))))
        best = sum(D[perms[:, a], perms[:, b]] for a, b in zip(*np.triu_indices(n, 1),
                                                                strict=True)).max()
        assert voting._kemeny_value(D, order) == best


def test_equal_value_moves_only_report_optimal_orders():
    """The cheap search that spares MILP solves may only clear pairs that some optimal
    order really puts either way."""
    rng = np.random.default_rng(12)
    for _ in range(25):
        D = _random_margins(rng, int(rng.integers(2, 7)))
        forced = _brute_force_forced(D)
        n = len(D)
        perms = np.array(list(permutations(range(n))))
        pos = np.argsort(perms, 1)
        value = np.where(pos[:, :, None] < pos[:, None, :], D, 0).sum((1, 2))
        seen = voting._equal_value_moves(D, perms[np.argmax(value)])
        assert not np.any(seen & forced.T)  # never claims j above i when i is forced above j
        assert np.all(seen | seen.T | np.eye(n, dtype=bool))


def test_kemeny_single_block_of_twenty_is_solved_exactly(monkeypatch):
    """Near-random L = 20 forms one block of 20 (above the DP size): MILP path. The DP,
    allowed up to 20 here, finds the same forced order."""
    R = (np.random.default_rng(1).random((20, 30, 3)) < 0.5).astype(int)
    W = voting._tallies(R)[1].wins
    assert len(voting._condorcet_blocks(W - W.T >= 0)) == 1
    _, milp, status = voting.kemeny_young(R, time_limit=None, return_status=True)
    assert status.status == "exact" and status.time_limit is None
    monkeypatch.setattr(voting, "_KEMENY_DP_MAX", 20)
    np.testing.assert_array_equal(voting.kemeny_young(R, return_scores=True)[1], milp)


def _rank_consistent_with(ranks: np.ndarray, order: np.ndarray) -> bool:
    """Ranks never decrease along the order (ties allowed, no reversal)."""
    return bool(np.all(np.diff(ranks[order]) >= 0))


def test_kemeny_on_forty_models_returns_a_labelled_best_order_within_the_limit():
    """Issue 14: exact Kemeny on one 35-model Condorcet block takes minutes (40 models:
    73 s). With a time limit the answer is labelled ``time_limited`` (with a warning), is
    a full order, and is at least as good in Kemeny value as the Borda and Copeland
    orders it starts from. (No timing assertion: the label is what is checked.)"""
    R = (np.random.default_rng(0).random((40, 60, 3)) < 0.5).astype(int)
    W = voting._tallies(R)[1].wins
    D = (W - W.T).astype(float)
    assert max(len(b) for b in voting._condorcet_blocks(D >= 0)) > 30
    with pytest.warns(RuntimeWarning, match="time limit of 0.05 s reached on 40 models"):
        ranks, scores, status = voting.kemeny_young(R, time_limit=0.05, return_status=True)
    assert status.status == "time_limited" and status.time_limit == 0.05
    assert sorted(status.order.tolist()) == list(range(40))
    assert status.value == voting._kemeny_value(D, status.order)
    borda = np.argsort(-D.sum(1), kind="stable")
    copeland = np.argsort(-np.sign(D).sum(1), kind="stable")
    assert status.value >= max(voting._kemeny_value(D, borda), voting._kemeny_value(D, copeland))
    assert _rank_consistent_with(ranks, status.order)
    # ties only between neighbours of the order at zero margin (an equal-value swap)
    o = status.order
    tied_next = ranks[o[:-1]] == ranks[o[1:]]
    assert np.all(D[o[:-1], o[1:]][tied_next] == 0)
    assert ranks.min() == 1 and np.all(np.isfinite(scores))


def test_kemeny_local_search_never_worsens_and_stops_at_a_local_optimum():
    rng = np.random.default_rng(14)
    for _ in range(20):
        D = _random_margins(rng, int(rng.integers(2, 12)))
        start = rng.permutation(len(D))
        found = voting._local_search(D, start)
        assert sorted(found.tolist()) == list(range(len(D)))
        assert voting._kemeny_value(D, found) >= voting._kemeny_value(D, start)
        assert voting._move_gains(D, found).max() <= 0


def test_condorcet_blocks_are_ordered_by_strict_margins():
    rng = np.random.default_rng(13)
    for _ in range(20):
        D = _random_margins(rng, int(rng.integers(2, 12)))
        blocks = voting._condorcet_blocks(D >= 0)
        assert sorted(np.concatenate(blocks).tolist()) == list(range(len(D)))
        for a in range(len(blocks)):
            for b in range(a + 1, len(blocks)):
                assert np.all(D[np.ix_(blocks[a], blocks[b])] > 0)


# --------------------------------------------------------------------------- degenerate inputs
def _degenerate_inputs():
    rng = np.random.default_rng(14)
    return {
        "all_correct": np.ones((4, 5, 3), int),
        "all_wrong": np.zeros((4, 5, 3), int),
        "identical": np.repeat(rng.integers(0, 2, (1, 6, 3)), 4, 0),
        "L2": rng.integers(0, 2, (2, 5, 3)),
        "M1": rng.integers(0, 2, (5, 1, 3)),
        "N1": rng.integers(0, 2, (5, 6, 1)),
        "L2_M1_N1": np.array([[[1]], [[0]]]),
        "matrix": rng.integers(0, 2, (4, 6)),
        "L1": rng.integers(0, 2, (1, 6, 3)),
    }


@pytest.mark.parametrize("mid", IDS)
def test_degenerate_inputs_give_finite_scores_and_ties(mid):
    for name, R in _degenerate_inputs().items():
        ranks, scores = METHODS[mid](R)
        assert np.all(np.isfinite(scores)) and ranks.shape == (R.shape[0],), (mid, name)
        if name in ("all_correct", "all_wrong", "identical", "L1"):
            assert np.all(ranks == 1), (mid, name)
    assert METHODS[mid](np.array([[[1]], [[0]]]))[0].tolist() == [1, 2]


def test_every_method_is_finite_on_the_bundled_data(data_dir):
    d = io.load(data_dir / "reasoning_synthetic.npz")
    for R in [d.select(b).R for b in d.benchmark_names] + [d.R]:
        for sl in [R] + [R[:, :, n : n + 1] for n in range(R.shape[2])]:
            for mid in IDS:
                scores = METHODS[mid](sl)[1]
                assert np.all(np.isfinite(scores)), mid


# --------------------------------------------------------------------------- validation
def test_bad_parameters_raise_clear_errors():
    R = np.random.default_rng(15).integers(0, 2, (3, 4, 2))
    bad = [
        (voting.minimax, {"variant": "borda"}, "variant must be one of"),
        (voting.minimax, {"tie_policy": "third"}, "tie_policy must be one of"),
        (voting.schulze, {"tie_policy": None}, "tie_policy must be one of"),
        (voting.ranked_pairs, {"strength": "loser"}, "strength must be one of"),
        (voting.kemeny_young, {"time_limit": 0}, "time_limit must be a positive"),
        (voting.kemeny_young, {"time_limit": float("inf")}, "time_limit must be a positive"),
        (voting.nanson, {"rank_ties": "first"}, "rank_ties must be one of"),
    ]
    for fn, kw, msg in bad:
        with pytest.raises(ValidationError, match=msg):
            fn(R, **kw)
    with pytest.raises(ValidationError, match="binary"):
        voting.borda(R * 2)


# --------------------------------------------------------------------------- deliberate differences
def test_deliberate_difference_ranked_pairs_is_neutral_on_equal_strengths():
    """Equally strong victories are locked as one batch, not in model-index order.

    The reference breaks exact ties between victories by model index, so on the
    symmetric Condorcet cycle (every margin 2:1) it returns a strict order that
    depends on how the models are labelled. We leave the victories of a batch
    that close a cycle unlocked, which makes the rule neutral: the cycle is a
    three-way tie whatever the labels.
    """
    R = _condorcet_cycle()
    for mid in [i for i in IDS if i.startswith("ranked_pairs")]:
        for perm in permutations(range(3)):
            assert METHODS[mid](R[list(perm)])[0].tolist() == [1, 1, 1]
    ref = pytest.importorskip("scorio.rank")
    ref_orders = {
        tuple(ref.ranked_pairs(R[list(p)])[np.argsort(p)]) for p in permutations(range(3))
    }
    assert len(ref_orders) > 1  # the reference's answer depends on the labels


def test_deliberate_difference_elimination_rank_ties_are_pairwise_only():
    """``rank_ties`` accepts "average", "max" and "min" only.

    These three are sums of pairwise tallies (a tied opponent is worth ½, 0 or
    1 Borda point), so each elimination round is one masked row sum. The
    reference passes any :func:`scipy.stats.rankdata` method; "ordinal" would
    make the result depend on the order of the models and "dense" is not a
    pairwise count.
    """
    R = _structured_tensors()[0]
    for name in ("nanson", "baldwin"):
        for rt in ("dense", "ordinal"):
            with pytest.raises(ValidationError, match="rank_ties must be one of"):
                PUBLIC[name](R, rank_ties=rt)


def test_deliberate_difference_single_model_is_ranked():
    """L = 1 returns rank 1 (the reference refuses fewer than two models); this keeps
    bootstrap analyses over model subsets free of special cases."""
    R = np.ones((1, 3, 2), int)
    for mid in IDS:
        assert METHODS[mid](R)[0].tolist() == [1]


def test_deliberate_difference_kemeny_always_tie_aware():
    """No ``tie_aware`` switch: scores are always the levels of the order shared by all
    optimal Kemeny orders (the reference's default), so clones and exact margin ties tie
    instead of following whichever optimum a solver returns first."""
    assert "tie_aware" not in inspect.signature(voting.kemeny_young).parameters
    R = np.concatenate([_structured_tensors()[0][:1]] * 2 + [_structured_tensors()[0][2:]])
    assert voting.kemeny_young(R).tolist()[:2] == [1, 1]


def test_compiled_locking_equals_sequential_tideman():
    """With distinct strengths, the compiled batch locking is Tideman's sequential rule:
    lock each victory, strongest first, unless its head already reaches its tail."""
    from scorio_core.rank.voting import _lock_pairs

    for seed in range(20):
        rng = np.random.default_rng(seed)
        L = int(rng.integers(3, 12))
        P = rng.random((L, L)) * 10
        np.fill_diagonal(P, 0)
        locked, conflict = _lock_pairs(P, "margin")
        assert not conflict
        wins = [(P[i, j] - P[j, i], P[i, j], i, j) for i in range(L) for j in range(L)
                if P[i, j] > P[j, i]]
        expect = np.zeros((L, L), dtype=bool)
        for _, _, i, j in sorted(wins, reverse=True):
            seen, stack = {j}, [j]
            while stack:  # does j already reach i?
                u = stack.pop()
                for x in np.flatnonzero(expect[u]):
                    if x not in seen:
                        seen.add(int(x))
                        stack.append(int(x))
            if i not in seen:
                expect[i, j] = True
        np.testing.assert_array_equal(locked, expect)
