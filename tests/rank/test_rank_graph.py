"""Graph/game, SerialRank and HodgeRank rankers (002 App. I.1.9-I.1.11).

Differential tests against the reference package (``scorio.rank``), known
truths of the math (in the binary setting ``P̂[i, j] = 1/2 + (a_i - a_j)/2``),
degenerate inputs, and the documented deliberate differences.
"""

from __future__ import annotations

import numpy as np
import pytest
from _cases import assert_same_order_as_reference, assert_signature_like_reference

from scorio_core import ValidationError, io
from scorio_core.rank import METHODS, graph, hodge, seriation

FAMILIES = ("graph", "seriation", "hodge")
IDS = [mid for mid, m in METHODS.items() if m.family in FAMILIES]
PUBLIC = {
    "pagerank": graph.pagerank,
    "spectral": graph.spectral,
    "rank_centrality": graph.rank_centrality,
    "alpharank": graph.alpharank,
    "nash": graph.nash,
    "serial_rank": seriation.serial_rank,
    "hodge_rank": hodge.hodge_rank,
}
# ranked by accuracy in the binary setting (tied-split statistics and sign comparisons)
BY_ACCURACY = [
    "pagerank", "spectral", "rank_centrality_tie_half", "alpharank", "nash_vs_equilibrium",
    "nash_advantage_vs_equilibrium", "serial_rank_prob_diff", "serial_rank_sign",
    "hodge_rank_binary_total", "hodge_rank_binary_decisive", "hodge_rank_binary_uniform",
]  # fmt: skip


def _accuracy_ranks(R):
    return METHODS["avg"](R)[0]


def _random_tensors(rng, count):
    """Random binary tensors with various shapes, N = 1 included, some with twins."""
    out = []
    for t in range(count):
        L, M, N = int(rng.integers(2, 10)), int(rng.integers(1, 9)), int(rng.integers(1, 6))
        R = (rng.random((L, M, N)) < rng.uniform(0.05, 0.95, (L, 1, 1))).astype(int)
        if t % 4 == 0:
            R[-1] = R[0]  # identical models
        out.append(R)
    return out


def _structured_tensors():
    dom = np.array([[[1, 1], [1, 1], [1, 0]], [[1, 0], [1, 1], [0, 0]], [[0, 0], [1, 0], [0, 0]]])
    twins = np.array([[[1, 1], [1, 0]], [[1, 1], [1, 0]], [[0, 0], [0, 1]], [[0, 0], [0, 1]]])
    same_acc = np.array([[[1, 0, 1, 0]], [[0, 1, 0, 1]], [[1, 1, 0, 0]], [[0, 0, 0, 1]]])
    counterexample = np.array(
        [[0, 0, 1, 1, 1, 1, 1, 1], [1, 1, 0, 0, 0, 1, 1, 1], [1, 1, 0, 0, 0, 0, 0, 0]]
    )  # 002 App. C.2, N = 1
    return [dom, twins, same_acc, counterexample]


def _reference(ref, mid, R):
    m = METHODS[mid]
    return getattr(ref, m.func.__name__)(R, return_scores=True, **m.params)[:2]


# --------------------------------------------------------------------------- registry
def test_registered_ids_and_app_i2_parameters():
    expected = {
        "pagerank": {"damping": 0.85, "max_iter": 100, "tol": 1e-12},
        "spectral": {"max_iter": 10000, "tol": 1e-12},
        "alpharank": {"alpha": 1.0, "population_size": 50, "max_iter": 100000, "tol": 1e-12},
        "rank_centrality_tie_ignore": {"tie_handling": "ignore", "smoothing": 0.0,
                                       "teleport": 0.0, "max_iter": 10000, "tol": 1e-12},
        "rank_centrality_tie_half": {"tie_handling": "half", "smoothing": 0.0,
                                     "teleport": 0.0, "max_iter": 10000, "tol": 1e-12},
        "serial_rank_prob_diff": {"comparison": "prob_diff"},
        "serial_rank_sign": {"comparison": "sign"},
    }  # fmt: skip
    for st in ("vs_equilibrium", "advantage_vs_equilibrium"):
        expected[f"nash_{st}"] = {"n_iter": 100, "temperature": 0.1, "solver": "lp",
                                  "score_type": st, "return_equilibrium": False}  # fmt: skip
    for stat in ("binary", "log_odds"):
        for wm in ("total", "decisive", "uniform"):
            p = {"pairwise_stat": stat, "weight_method": wm, "return_diagnostics": False}
            eps = {"epsilon": 0.5} if stat == "log_odds" else {}
            expected[f"hodge_rank_{stat}_{wm}"] = p | eps
    assert set(IDS) == set(expected)
    for mid, params in expected.items():
        m = METHODS[mid]
        assert dict(m.params) == params, mid
        assert not m.extra and not m.stochastic and not m.needs_r0
        assert m.func is PUBLIC[m.func.__name__], mid


def test_signatures_match_reference():
    ref = pytest.importorskip("scorio.rank")
    for name, ours in PUBLIC.items():
        # pagerank tol: App. I.2 value 1e-12; the reference's default is 1e-6
        skip = ("tol",) if name == "pagerank" else ()
        assert_signature_like_reference(ours, getattr(ref, name), skip_default=skip)


# --------------------------------------------------------------------------- differential
@pytest.mark.parametrize("mid", IDS)
def test_rankings_match_reference(mid):
    ref = pytest.importorskip("scorio.rank")
    rng = np.random.default_rng(11)
    for R in _random_tensors(rng, 40) + _structured_tensors():
        ours, _ = METHODS[mid](R)
        try:
            theirs, their_scores = _reference(ref, mid, R)
        except ValueError:
            assert mid == "rank_centrality_tie_ignore"  # reducible chain: see deliberate diffs
            continue
        if mid.startswith("serial_rank") and R.shape[0] == 2 and ours[0] == ours[1]:
            continue  # the reference splits this tie (test_deliberate_difference_serial_rank)
        assert_same_order_as_reference(ours, theirs, their_scores, msg=f"{mid} on {R.shape}")


@pytest.mark.parametrize("mid", [m for m in IDS if m != "spectral"])
def test_scores_match_reference(mid):
    """Same math as the reference (for spectral see the deliberate difference)."""
    ref = pytest.importorskip("scorio.rank")
    rng = np.random.default_rng(12)
    for R in _random_tensors(rng, 12):
        _, ours = METHODS[mid](R)
        try:
            _, theirs = _reference(ref, mid, R)
        except ValueError:
            continue
        if mid.startswith("serial_rank"):  # eigenvectors: the scale is a convention
            if R.shape[0] < 3 or not np.any(theirs):
                continue
            ours, theirs = ours / np.linalg.norm(ours), theirs / np.linalg.norm(theirs)
        np.testing.assert_allclose(ours, theirs, atol=1e-9, err_msg=mid)


def test_parameter_variants_match_reference():
    ref = pytest.importorskip("scorio.rank")
    rng = np.random.default_rng(13)
    R = (rng.random((7, 6, 4)) < rng.uniform(0.2, 0.8, (7, 1, 1))).astype(int)
    e = rng.random(7)
    cases = [
        ("rank_centrality", {"tie_handling": "half", "teleport": 0.1}),
        ("rank_centrality", {"tie_handling": "ignore", "smoothing": 1.0}),
        ("rank_centrality", {"tie_handling": "ignore", "teleport": 0.2}),
        ("pagerank", {"teleport": e, "max_iter": 10_000, "tol": 1e-14}),
        ("pagerank", {"damping": 0.5, "max_iter": 10_000, "tol": 1e-14}),
        ("alpharank", {"alpha": 5.0, "population_size": 10}),
        ("nash", {"score_type": "equilibrium"}),
    ]
    for name, kw in cases:
        _, ours = PUBLIC[name](R, return_scores=True, **kw)
        _, theirs = getattr(ref, name)(R, return_scores=True, **kw)
        np.testing.assert_allclose(ours, theirs, atol=1e-9, err_msg=f"{name} {kw}")
    _, s, diag = hodge.hodge_rank(R, pairwise_stat="log_odds", return_diagnostics=True)
    _, _, rdiag = ref.hodge_rank(R, pairwise_stat="log_odds", return_diagnostics=True)
    for key, value in rdiag.items():
        assert diag[key] == pytest.approx(value, rel=1e-9, abs=1e-12)


def test_synthetic_data_finite_and_matching_reference():
    ref = pytest.importorskip("scorio.rank")
    d = io.load("data/reasoning_synthetic.npz")
    tensors = [d.select(b).R for b in d.benchmark_names] + [d.R]
    for t, R in enumerate(tensors):
        slices = [R] + [R[:, :, n : n + 1] for n in range(R.shape[2])]
        for s_idx, S in enumerate(slices):
            checked = s_idx in (0, 1 + 17 * t)  # full data + one single-trial slice each
            for mid in IDS:
                ranks, scores = METHODS[mid](S)
                assert np.isfinite(scores).all(), (mid, t, s_idx)
                if not checked:
                    continue
                try:
                    theirs, their_scores = _reference(ref, mid, S)
                except ValueError:
                    continue
                assert_same_order_as_reference(ranks, theirs, their_scores, msg=(mid, t, s_idx))


# --------------------------------------------------------------------------- known truths
@pytest.mark.parametrize("mid", BY_ACCURACY)
def test_tied_split_methods_rank_by_accuracy(mid):
    """P̂ = 1/2 + (a_i - a_j)/2: each of these is an increasing function of accuracy."""
    rng = np.random.default_rng(21)
    for R in _random_tensors(rng, 25) + _structured_tensors():
        np.testing.assert_array_equal(METHODS[mid](R)[0], _accuracy_ranks(R), err_msg=mid)


@pytest.mark.parametrize("mid", IDS)
def test_permutation_equivariance_and_exact_ties(mid):
    rng = np.random.default_rng(22)
    R = (rng.random((9, 7, 3)) < rng.uniform(0.1, 0.9, (9, 1, 1))).astype(int)
    R[4] = R[1]
    R[7] = R[1]
    ranks, scores = METHODS[mid](R)
    assert scores[1] == scores[4] == scores[7]  # identical models: exactly equal
    perm = rng.permutation(9)
    ranks_p, scores_p = METHODS[mid](R[perm])
    np.testing.assert_array_equal(ranks_p, ranks[perm])
    np.testing.assert_allclose(scores_p, scores[perm], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("mid", [m for m in IDS if m != "rank_centrality_tie_ignore"])
def test_dominance(mid):
    """A model correct whenever another is, and more often, ranks strictly above it."""
    rng = np.random.default_rng(23)
    for _ in range(10):
        R = rng.integers(0, 2, (5, 6, 3))
        R[0] = R[1] | rng.integers(0, 2, (6, 3))
        R[0, 0, 0], R[1, 0, 0] = 1, 0
        ranks = METHODS[mid](R)[0]
        assert ranks[0] < ranks[1], mid


def test_rank_centrality_ignore_dominance_is_weak():
    """Decisive-only Rank Centrality: dominance gives a weakly better rank."""
    rng = np.random.default_rng(24)
    for _ in range(10):
        R = rng.integers(0, 2, (5, 6, 3))
        R[0] = R[1] | rng.integers(0, 2, (6, 3))
        R[0, 0, 0], R[1, 0, 0] = 1, 0
        ranks = graph.rank_centrality(R, tie_handling="ignore")
        assert ranks[0] <= ranks[1]


def test_alpharank_is_softmax_of_accuracy_to_full_relative_precision():
    """Reversible chain: ρ(u)/ρ(-u) = e^{(m-1)u} gives π ∝ exp(α m a / 2)."""
    rng = np.random.default_rng(25)
    R = (rng.random((8, 10, 5)) < rng.uniform(0, 1, (8, 1, 1))).astype(int)
    a = R.mean((1, 2))
    for alpha, m in [(1.0, 50), (20.0, 50), (3.0, 7)]:
        _, s = graph.alpharank(R, alpha=alpha, population_size=m, return_scores=True)
        z = alpha * m * a / 2
        expect = np.exp(z - z.max())
        np.testing.assert_allclose(s, expect / expect.sum(), rtol=1e-11)  # even at 1e-196


def test_spectral_equals_rank_centrality_half_in_binary_setting():
    """W π = (L-1) π is the balance equation of the Rank Centrality chain."""
    rng = np.random.default_rng(26)
    for R in _random_tensors(rng, 10):
        _, s = graph.spectral(R, return_scores=True)
        _, pi = graph.rank_centrality(R, return_scores=True)
        np.testing.assert_allclose(s, pi, atol=1e-10)


def test_nash_equilibrium_is_uniform_over_the_most_accurate_models():
    rng = np.random.default_rng(27)
    R = (rng.random((6, 5, 4)) < 0.5).astype(int)
    R[3] = R[0] = np.ones((5, 4), dtype=int)
    a = R.mean((1, 2))
    ranks, scores, x = graph.nash(R, return_scores=True, return_equilibrium=True)
    np.testing.assert_array_equal(x, [0.5, 0, 0, 0.5, 0, 0])
    np.testing.assert_allclose(scores, 0.5 + (a - a.max()) / 2)
    _, adv = graph.nash(R, score_type="advantage_vs_equilibrium", return_scores=True)
    np.testing.assert_allclose(adv, 2 * scores - 1)
    ranks2, x2 = graph.nash(R, return_equilibrium=True)
    np.testing.assert_array_equal(ranks2, ranks)
    np.testing.assert_array_equal(x2, x)


def test_maximin_on_cyclic_games_uses_the_lp_deterministically():
    rps = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], dtype=float)
    np.testing.assert_allclose(graph._maximin(rps), np.full(3, 1 / 3))
    dup = np.array([[0, 1, -1, 0], [-1, 0, 1, -1], [1, -1, 0, 1], [0, 1, -1, 0]], dtype=float)
    np.testing.assert_allclose(graph._maximin(dup), [1 / 6, 1 / 3, 1 / 3, 1 / 6])  # max entropy
    dominated = np.zeros((4, 4))
    dominated[:3, :3], dominated[3, :3], dominated[:3, 3] = rps, -0.5, 0.5
    np.testing.assert_allclose(graph._maximin(dominated), [1 / 3, 1 / 3, 1 / 3, 0])


def test_stationary_is_the_limit_from_the_uniform_start():
    rng = np.random.default_rng(28)
    for _ in range(20):
        L = 6
        P = rng.random((L, L)) * (rng.random((L, L)) < 0.35)
        np.fill_diagonal(P, rng.random(L) + 0.1)  # aperiodic
        P /= P.sum(1, keepdims=True)
        limit = np.full(L, 1 / L) @ np.linalg.matrix_power(P, 4096)
        np.testing.assert_allclose(graph._stationary(P), limit, atol=1e-9)


def test_hodge_binary_flow_is_a_gradient():
    """Y_ij = a_j - a_i: potentials are centred accuracies, no cyclic part, any weights."""
    rng = np.random.default_rng(29)
    R = (rng.random((7, 6, 3)) < rng.uniform(0.1, 0.9, (7, 1, 1))).astype(int)
    a = R.mean((1, 2))
    for wm in ("total", "decisive", "uniform"):
        _, s, diag = hodge.hodge_rank(R, weight_method=wm, return_diagnostics=True)
        np.testing.assert_allclose(s, a - a.mean(), atol=1e-12)
        assert diag.cyclic_fraction == pytest.approx(0, abs=1e-20)
        assert diag.n_components == 1


def test_hodge_log_odds_diagnostics_and_disconnected_graph():
    rng = np.random.default_rng(30)
    R = (rng.random((6, 8, 3)) < rng.uniform(0.1, 0.9, (6, 1, 1))).astype(int)
    _, s, diag = hodge.hodge_rank(R, pairwise_stat="log_odds", return_diagnostics=True)
    assert 0 < diag.cyclic_fraction < 1
    assert diag.relative_residual_l2**2 == pytest.approx(diag.cyclic_fraction)
    # all models identical: the decisive-weight graph has no edges
    same = np.tile(R[:1], (4, 1, 1))
    ranks, s, diag = hodge.hodge_rank(same, weight_method="decisive", return_diagnostics=True)
    assert ranks.tolist() == [1, 1, 1, 1] and diag.n_components == 4
    np.testing.assert_array_equal(s, 0)


def test_serial_rank_prob_diff_fiedler_vector_is_centred_accuracy():
    rng = np.random.default_rng(31)
    R = (rng.random((8, 6, 4)) < rng.uniform(0.1, 0.9, (8, 1, 1))).astype(int)
    a = R.mean((1, 2))
    _, f = seriation.serial_rank(R, return_scores=True)
    c = a - a.mean()
    np.testing.assert_allclose(f, c / np.linalg.norm(c), atol=1e-10)


def test_counterexample_of_app_c2():
    """002 App. C.2 (N = 1): average ranks 0 > 1 > 2, and so do the tied-split methods."""
    R = _structured_tensors()[3]
    for mid in BY_ACCURACY:
        assert METHODS[mid](R)[0].tolist() == [1, 2, 3], mid


# --------------------------------------------------------------------------- degenerate inputs
DEGENERATE = {
    "all_correct": np.ones((4, 3, 2), dtype=int),
    "all_wrong": np.zeros((4, 3, 2), dtype=int),
    "identical": np.tile(np.array([[1, 0, 1], [0, 0, 1]])[None], (3, 1, 1)),
    "L2": np.array([[[1, 1], [0, 1]], [[0, 1], [0, 0]]]),
    "L2_equal_accuracy": np.array([[[1, 0]], [[0, 1]]]),
    "M1": np.array([[[1, 0]], [[0, 0]], [[1, 1]]]),
    "N1_2d": np.array([[1, 0, 1], [0, 0, 1], [1, 1, 1]]),
    "L1": np.array([[[1, 0]]]),
}


@pytest.mark.parametrize("case", list(DEGENERATE))
@pytest.mark.parametrize("mid", IDS)
def test_degenerate_inputs(mid, case):
    R = DEGENERATE[case]
    ranks, scores = METHODS[mid](R)
    assert np.isfinite(scores).all() and ranks.shape == (R.shape[0],)
    if case in ("all_correct", "all_wrong", "identical", "L2_equal_accuracy", "L1"):
        assert (ranks == 1).all() and (scores == scores[0]).all()
    elif case == "L2":
        assert ranks.tolist() == [1, 2]
    elif mid != "rank_centrality_tie_ignore":
        np.testing.assert_array_equal(ranks, _accuracy_ranks(R))


# --------------------------------------------------------------------------- deliberate differences
def test_deliberate_difference_pagerank_self_loop():
    """Eq. 58 read literally normalises each column of off-diagonal P̂ on its own.

    That discards how often a model wins: with two models both columns become 1
    and any two models tie. Like the paper's spectral method (and the reference
    package), our walk keeps a self-loop A_jj = Σ_k P̂[j, k] before normalising.
    """
    R = np.array([[[1, 1], [1, 0]], [[0, 1], [0, 0]]])  # accuracies 3/4 and 1/4
    P = graph._tied_split(R)
    np.fill_diagonal(P, 0)
    literal = P / P.sum(0)
    r = np.linalg.solve(np.eye(2) - 0.85 * literal, np.full(2, 0.15 / 2))
    assert r[0] == pytest.approx(r[1])  # eq. 58 literally: a tie
    assert graph.pagerank(R).tolist() == [1, 2]


def test_deliberate_difference_spectral_matrix():
    """We use the paper's matrix (P̂ with row-sum self-loops); the reference uses
    Keener's Laplace-smoothed P̂ with a zero diagonal. Both Perron vectors are
    increasing in accuracy, so rankings agree while scores differ."""
    ref = pytest.importorskip("scorio.rank")
    R = np.array([[[1, 1], [1, 0]], [[0, 1], [0, 0]], [[1, 0], [1, 0]]])
    ours_r, ours_s = graph.spectral(R, return_scores=True)
    ref_r, ref_s = ref.spectral(R, return_scores=True)
    np.testing.assert_array_equal(ours_r, ref_r)
    assert not np.allclose(ours_s, ref_s)


def test_deliberate_difference_rank_centrality_reducible_chain():
    """Decisive-only Rank Centrality on a reducible chain: the reference raises;
    we return the limit of the walk from the uniform start (finite, tie-respecting)."""
    ref = pytest.importorskip("scorio.rank")
    R = np.array([[[1, 1], [1, 1]], [[1, 0], [0, 1]], [[0, 0], [1, 0]]])  # model 0 never loses
    with pytest.raises(ValueError):
        ref.rank_centrality(R, tie_handling="ignore")
    ranks, pi = graph.rank_centrality(R, tie_handling="ignore", return_scores=True)
    np.testing.assert_allclose(pi, [1, 0, 0])
    assert ranks.tolist() == [1, 2, 2]
    same = np.tile(R[1:2], (3, 1, 1))  # no decisive match at all: the walk never moves
    with pytest.raises(ValueError):
        ref.rank_centrality(same, tie_handling="ignore")
    assert graph.rank_centrality(same, tie_handling="ignore").tolist() == [1, 1, 1]


def test_deliberate_difference_serial_rank_two_tied_models():
    """Two models with equal accuracy give C = 0: the Fiedler vector's sign is not
    identifiable. The reference orders them anyway, in a direction its eigensolver picks
    (so nothing about it is asserted here); we tie them."""
    R = np.array([[[1, 0]], [[0, 1]]])
    assert seriation.serial_rank(R).tolist() == [1, 1]


def test_deliberate_difference_hodge_diagnostics_object():
    """Diagnostics are a named, immutable result (project convention) that also
    answers the reference's dict keys."""
    R = np.array([[[1, 1], [1, 0]], [[0, 1], [0, 0]], [[1, 0], [1, 0]]])
    *_, diag = hodge.hodge_rank(R, return_diagnostics=True)
    assert isinstance(diag, hodge.HodgeDiagnostics)
    assert diag["residual_l2"] == diag.residual_l2


# --------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    ("func", "kwargs", "match"),
    [
        (graph.pagerank, {"damping": 1.0}, "damping"),
        (graph.pagerank, {"teleport": [1, -1, 0]}, "teleport"),
        (graph.pagerank, {"max_iter": 0}, "max_iter"),
        (graph.spectral, {"tol": -1.0}, "tol"),
        (graph.rank_centrality, {"tie_handling": "draw"}, "tie_handling"),
        (graph.rank_centrality, {"smoothing": -1}, "smoothing"),
        (graph.rank_centrality, {"teleport": 1.0}, "teleport"),
        (graph.alpharank, {"alpha": -1}, "alpha"),
        (graph.alpharank, {"population_size": 1}, "population_size"),
        (graph.nash, {"solver": "fictitious_play"}, "solver"),
        (graph.nash, {"score_type": "elo"}, "score_type"),
        (graph.nash, {"temperature": 0}, "temperature"),
        (seriation.serial_rank, {"comparison": "margin"}, "comparison"),
        (hodge.hodge_rank, {"pairwise_stat": "logit"}, "pairwise_stat"),
        (hodge.hodge_rank, {"weight_method": "sqrt"}, "weight_method"),
        (hodge.hodge_rank, {"pairwise_stat": "log_odds", "epsilon": 0}, "epsilon"),
    ],
)
def test_bad_parameters_raise(func, kwargs, match):
    R = np.array([[[1, 0]], [[0, 0]], [[1, 1]]])
    with pytest.raises(ValidationError, match=match):
        func(R, **kwargs)


def test_non_binary_input_is_refused():
    with pytest.raises(ValidationError, match="binary"):
        graph.pagerank(np.array([[[2, 0]], [[0, 1]]]))
