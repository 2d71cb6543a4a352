"""Luce-family choice models (002 App. I.1.7): Plackett-Luce, Davidson-Luce, BTL.

Differential tests against the reference package (``scorio.rank``), known
truths of the math, degenerate inputs and the documented deliberate
differences (finite ML limit on separated data, log-strength scores).
"""

from __future__ import annotations

import numpy as np
import pytest
from _cases import (
    assert_same_order_as_reference,
    assert_signature_like_reference,
    degenerate_cases,
)
from scipy.optimize import check_grad

from scorio_core import ValidationError, io
from scorio_core.rank import METHODS, luce
from scorio_core.rank._stats import as_binary
from scorio_core.rank.priors import GaussianPrior, LaplacePrior, UniformPrior

IDS = [mid for mid, m in METHODS.items() if m.family == "luce"]
ML = ["plackett_luce", "davidson_luce", "bradley_terry_luce"]
MAP = ["plackett_luce_map", "davidson_luce_map", "bradley_terry_luce_map"]

COUNTEREXAMPLE = np.array(  # 002 App. C.2, N = 1: accuracy 0 > 1 > 2, BT ML 1 > 0 > 2
    [[0, 0, 1, 1, 1, 1, 1, 1], [1, 1, 0, 0, 0, 1, 1, 1], [1, 1, 0, 0, 0, 0, 0, 0]]
)


def _connected_tensors(rng, count):
    """Random tensors whose win graph is strongly connected (the reference's ML exists)."""
    out = []
    while len(out) < count:
        L, M, N = int(rng.integers(2, 8)), int(rng.integers(2, 9)), int(rng.integers(1, 5))
        R = (rng.random((L, M, N)) < rng.uniform(0.2, 0.8, (L, 1, 1))).astype(int)
        if len(out) % 3 == 0:
            R[-1] = R[0]  # identical models
        if luce._events(as_binary(R), True)[2].any():
            continue
        out.append(R)
    return out


def _structured_tensors():
    cycle = np.array([[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0]])  # every pair splits evenly
    twins = np.array([[[1, 1], [0, 1]], [[1, 1], [0, 1]], [[0, 1], [1, 0]], [[1, 0], [0, 1]]])
    graded = np.array([[[1, 1, 1], [1, 1, 0]], [[1, 1, 0], [1, 0, 1]], [[0, 1, 0], [1, 0, 1]]])
    return [COUNTEREXAMPLE, cycle, twins, graded]


def _reference(ref, mid, R):
    m = METHODS[mid]
    return getattr(ref, m.func.__name__)(R, return_scores=True, **m.params)


def _theta_from_pi(pi):
    t = np.log(pi)
    return t - t.mean()


# --------------------------------------------------------------------------- registry
def test_registered_ids_and_app_i2_parameters():
    assert {mid: METHODS[mid].params for mid in IDS} == {
        "plackett_luce": {"max_iter": 500, "tol": 1e-08},
        "plackett_luce_map": {"prior": 1.0, "max_iter": 500},
        "davidson_luce": {"max_iter": 500},
        "davidson_luce_map": {"prior": 1.0, "max_iter": 500},
        "bradley_terry_luce": {"max_iter": 500},
        "bradley_terry_luce_map": {"prior": 1.0, "max_iter": 500},
    }
    assert not any(METHODS[mid].stochastic for mid in IDS)
    # Davidson-Luce is described in 002 App. I.1.7 but is not among the 72 ids of App. I.2
    assert {mid for mid in IDS if METHODS[mid].extra} == {"davidson_luce", "davidson_luce_map"}


def test_public_signatures_match_the_reference():
    ref = pytest.importorskip("scorio.rank")
    for name in ["plackett_luce", "plackett_luce_map", "davidson_luce", "davidson_luce_map",
                 "bradley_terry_luce", "bradley_terry_luce_map"]:  # fmt: skip
        assert_signature_like_reference(getattr(luce, name), getattr(ref, name))


# --------------------------------------------------------------------------- differential
@pytest.mark.parametrize("mid", IDS)
def test_rankings_equal_the_reference(mid):
    """Same ranking on random (N = 1 included, twins included) and structured tensors.

    The reference scores are ``π`` (PL: normalised to sum 1) and ours the
    centred ``log π``; after that change of scale they agree to the
    reference's convergence (its Davidson-Luce stops at |grad| ~ 1e-4).
    """
    ref = pytest.importorskip("scorio.rank")
    rng = np.random.default_rng(11)
    for R in _connected_tensors(rng, 10) + _structured_tensors():
        ranks, theta = METHODS[mid](R)
        ref_ranks, pi = _reference(ref, mid, R)
        assert_same_order_as_reference(  # its Davidson-Luce stops at |grad| ~ 1e-4
            ranks, ref_ranks, _theta_from_pi(pi), atol=1e-3, msg=f"{mid} {R.tolist()}"
        )
        np.testing.assert_allclose(theta, _theta_from_pi(pi), atol=2e-3, err_msg=mid)


def test_counterexample_plackett_luce_is_bradley_terry():
    """002 App. C.2: average ranks 0 > 1 > 2, the pairwise (BT = PL) MLE ranks 1 > 0 > 2."""
    assert METHODS["avg"](COUNTEREXAMPLE)[0].tolist() == [1, 2, 3]
    assert luce.plackett_luce(COUNTEREXAMPLE).tolist() == [2, 1, 3]
    bt = METHODS["bradley_terry"](COUNTEREXAMPLE)[1]
    np.testing.assert_allclose(luce.plackett_luce(COUNTEREXAMPLE, return_scores=True)[1], bt)


# --------------------------------------------------------------------------- the math
def test_gradients_match_finite_differences():
    rng = np.random.default_rng(3)
    R = as_binary((rng.random((6, 9, 4)) < np.linspace(0.2, 0.8, 6)[:, None, None]).astype(int))
    ev = luce._events(R, True)[0]
    for nll in (luce._btl_nll(ev), luce._dl_nll(luce._dl_layers(ev))):
        theta = rng.normal(size=6)
        err = check_grad(lambda x, f=nll: f(x)[0], lambda x, f=nll: f(x)[1], theta)
        assert err < 1e-4 * np.linalg.norm(nll(theta)[1]) + 1e-6


def test_davidson_luce_profile_is_the_joint_likelihood_optimum():
    """Profiling δ out (module notes) gives the joint ML: the reference's joint fit of
    (θ, δ) lands on the same θ, and our profiled objective is lower or equal there."""
    ref = pytest.importorskip("scorio.rank")
    rng = np.random.default_rng(5)
    R = (rng.random((5, 6, 4)) < np.linspace(0.3, 0.7, 5)[:, None, None]).astype(int)
    theta = luce.davidson_luce(R, return_scores=True)[1]
    theta_ref = _theta_from_pi(ref.davidson_luce(R, return_scores=True)[1])
    nll = luce._dl_nll(luce._dl_layers(luce._events(as_binary(R), True)[0]))
    assert nll(theta)[0] <= nll(theta_ref)[0] + 1e-9
    assert np.abs(nll(theta)[1]).max() < 1e-6
    np.testing.assert_allclose(theta, theta_ref, atol=1e-3)


def test_esp_matches_brute_force():
    from itertools import combinations

    rng = np.random.default_rng(0)
    x = rng.random((3, 6))
    pre, suf = luce._esp_prefix_suffix(x, 4)
    for k in range(5):
        brute = [sum(np.prod(r[list(c)]) for c in combinations(range(6), k)) for r in x]
        np.testing.assert_allclose(pre[-1, :, k], brute)
        np.testing.assert_allclose(suf[0, :, k], brute)


@pytest.mark.parametrize("mid", IDS)
def test_model_permutation_equivariance_and_event_order_invariance(mid):
    rng = np.random.default_rng(7)
    R = (rng.random((6, 7, 3)) < rng.uniform(0.2, 0.8, (6, 1, 1))).astype(int)
    _, s = METHODS[mid](R)
    perm = rng.permutation(6)
    np.testing.assert_allclose(METHODS[mid](R[perm])[1], s[perm], atol=1e-7)
    # the likelihoods read a multiset of splits: question and trial order are irrelevant
    shuffled = R[:, rng.permutation(7)][:, :, rng.permutation(3)]
    np.testing.assert_allclose(METHODS[mid](shuffled)[1], s, atol=1e-7)
    flat = R.reshape(6, -1, 1)
    np.testing.assert_allclose(METHODS[mid](flat)[1], s, atol=1e-7)


@pytest.mark.parametrize("mid", IDS)
def test_dominance_and_twins(mid):
    """A model correct whenever another is (and sometimes more) ranks strictly above it;
    identical models tie exactly."""
    rng = np.random.default_rng(13)
    for _ in range(5):
        R = (rng.random((5, 8, 3)) < rng.uniform(0.2, 0.7, (5, 1, 1))).astype(int)
        better = R[1] | (rng.random((8, 3)) < 0.3)
        better[tuple(np.argwhere(R[1] == 0)[0])] = 1  # strictly better somewhere
        R = np.concatenate([R, better[None], R[1:2]])  # model 5 dominates 1; 6 is a twin of 1
        ranks, s = METHODS[mid](R)
        assert s[5] > s[1] and ranks[5] < ranks[1], (mid, s)
        assert ranks[6] == ranks[1] and abs(s[6] - s[1]) < 1e-9, (mid, s)


def test_bradley_terry_luce_reduces_to_bt_with_one_winner_or_one_loser_per_split():
    """With L = 2 every split is one winner against one loser: eq. 52 is eq. 40 and
    Davidson-Luce (single layer t = 1) is Luce's choice model, i.e. BT as well."""
    rng = np.random.default_rng(2)
    R = (rng.random((2, 9, 4)) < np.array([0.4, 0.6])[:, None, None]).astype(int)
    bt = luce.plackett_luce(R, return_scores=True)[1]
    np.testing.assert_allclose(luce.bradley_terry_luce(R, return_scores=True)[1], bt, atol=1e-7)
    np.testing.assert_allclose(luce.davidson_luce(R, return_scores=True)[1], bt, atol=1e-7)


def test_map_shrinks_towards_zero_and_priors_are_accepted():
    rng = np.random.default_rng(4)
    R = (rng.random((5, 8, 4)) < np.linspace(0.2, 0.8, 5)[:, None, None]).astype(int)
    for ml, mp in zip(ML, MAP, strict=True):
        s_ml = METHODS[ml](R)[1]
        s_tight = getattr(luce, mp)(R, prior=0.05, return_scores=True)[1]
        s_loose = getattr(luce, mp)(R, prior=GaussianPrior(var=1e4), return_scores=True)[1]
        assert np.abs(s_tight).max() < np.abs(s_ml).max()
        np.testing.assert_allclose(s_loose, s_ml, atol=1e-2)
        np.testing.assert_allclose(  # uniform prior = ML
            getattr(luce, mp)(R, prior=UniformPrior(), return_scores=True)[1], s_ml, atol=1e-7
        )
        assert np.all(
            np.isfinite(getattr(luce, mp)(R, prior=LaplacePrior(), return_scores=True)[1])
        )


def test_deliberate_difference_exact_ties_stay_ties():
    """Models 0, 1 and 3 below are exchangeable for the pairwise likelihood (0 = 1 are
    twins; each of them splits 1-1 with the others and beats model 2 by 2-1), so the
    PL/BT estimate ties them exactly. The reference's MM and L-BFGS stop a few ulps apart
    and its exact-comparison ranking then splits the tie (in opposite directions for ML
    and MAP); we return the tie."""
    ref = pytest.importorskip("scorio.rank")
    R = np.array([[[1, 1], [0, 1]], [[1, 1], [0, 1]], [[0, 1], [1, 0]], [[1, 0], [1, 1]]])
    for mid in ("plackett_luce", "plackett_luce_map"):
        ranks, s = METHODS[mid](R)
        assert ranks.tolist() == [1, 1, 4, 1]
        assert np.ptp(s[[0, 1, 3]]) < 1e-9
    for name in ("plackett_luce", "plackett_luce_map"):
        # how the reference splits the three-way tie is a floating-point accident
        # ([2,2,4,1] and [1,1,4,3] on one machine); only model 2's last place is determined
        theirs = getattr(ref, name)(R)
        assert theirs[2] == 4 and set(theirs[[0, 1, 3]].tolist()) <= {1, 2, 3}


def test_deliberate_difference_davidson_luce_ties_equal_sufficient_statistics():
    """The profiled Davidson-Luce likelihood depends on the data only through
    ``s_i = Σ_e c_e [i ∈ U_e] / |U_e|`` and the counts per winner-set size (the
    normalisers are symmetric polynomials), so models with equal ``s_i`` are
    exchangeable and tie exactly, even with different outcome vectors. The reference
    stops its joint (θ, δ) L-BFGS ~1e-6 apart and splits the tie, in a direction that
    depends on the machine's floating-point path ([2,5,1,3,4] here, [2,4,1,3,5] on
    another machine), so only the order its math determines is asserted for it."""
    ref = pytest.importorskip("scorio.rank")
    R = np.array([
        [[0, 1, 1, 1], [0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 1, 1], [1, 0, 1, 1], [1, 1, 0, 0],
         [1, 1, 0, 0]],
        [[0, 1, 0, 0], [0, 0, 1, 1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [1, 1, 1, 0],
         [1, 0, 0, 0]],
        [[0, 1, 1, 1], [0, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 0], [0, 0, 0, 1], [1, 1, 1, 1],
         [0, 1, 1, 1]],
        [[0, 0, 1, 0], [1, 1, 0, 0], [0, 0, 0, 1], [1, 0, 1, 1], [1, 0, 1, 0], [0, 0, 1, 0],
         [1, 0, 1, 0]],
        [[1, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 1, 1], [1, 0, 0, 0], [0, 0, 1, 0],
         [1, 0, 0, 0]],
    ])  # fmt: skip
    assert not np.array_equal(R[1], R[4])
    layers = luce._dl_layers(luce._events(as_binary(R), True)[0])
    assert layers.s[1] == pytest.approx(layers.s[4])
    for mid in ("davidson_luce", "davidson_luce_map"):
        ranks, s = METHODS[mid](R)
        assert ranks.tolist() == [2, 4, 1, 3, 4] and abs(s[1] - s[4]) < 1e-9
        theirs = getattr(ref, mid)(R)
        assert theirs[[0, 2, 3]].tolist() == [2, 1, 3]  # the determined part
        assert sorted(theirs[[1, 4]].tolist()) in ([4, 4], [4, 5])  # tied or split either way


def test_deliberate_difference_davidson_luce_keeps_wide_strengths_apart(reasoning):
    """Davidson-Luce layers with large winner sets act on θ/|U|, so fitted log-strengths
    span tens of units (here about -48 to 17 on one AIME'24 trial). The converged fit
    orders the three weakest models 5 > 0 > 19; the reference (319 s on this slice) gives
    the three identical strengths, ranking them 18, 18, 18 (its ranking otherwise equals
    ours). Scores as log-strengths keep such models apart."""
    R = reasoning.select("AIME'24").R[:, :, :1]
    ranks, s = METHODS["davidson_luce"](R)
    assert ranks[[5, 0, 19]].tolist() == [18, 19, 20]
    assert np.ptp(s) > 50
    nll = luce._dl_nll(luce._dl_layers(luce._events(as_binary(R), True)[0]))
    assert np.abs(nll(s)[1]).max() < 1e-6  # a converged maximum, not a divergence


# --------------------------------------------------------------------------- separated data
def test_deliberate_difference_separated_ml_returns_the_finite_limit():
    """Reference PL/BTL raise ValueError when the win graph is not strongly connected
    (its Davidson-Luce returns strengths ~1e6 apart). We return the ML limit with finite
    numbers: levels of the condensation stacked ``log(1 + M·N)`` apart, the ML fit within
    each level (module notes), so every method ranks separated data."""
    ref = pytest.importorskip("scorio.rank")
    R = np.array([[[1, 1], [1, 0]], [[1, 0], [0, 0]], [[0, 1], [0, 0]]])  # model 0 never loses
    for mid in ML:
        ranks, s = METHODS[mid](R)
        assert ranks.tolist() == [1, 2, 2] and np.all(np.isfinite(s))
        assert s[0] - s[1] == pytest.approx(np.log1p(4))  # the stacking gap
    for name in ("plackett_luce", "bradley_terry_luce"):
        with pytest.raises(ValueError, match="strongly connected"):
            getattr(ref, name)(R)
    theirs = ref.davidson_luce(R)  # models 1 and 2 are exchangeable: tied or split, not fixed
    assert theirs[0] == 1 and set(theirs[1:].tolist()) <= {2, 3}


def test_separated_ml_limit_orders_levels_and_fits_within_them():
    """A chain of levels: within the middle level the ML fit is the BT/BTL fit of that
    level's own splits; across levels the order follows the condensation."""
    rng = np.random.default_rng(8)
    mid_block = (rng.random((3, 6, 2)) < 0.5).astype(int)
    mid_block[:, 0, 0] = [1, 0, 0]
    mid_block[:, 1, 0] = [0, 1, 0]
    mid_block[:, 2, 0] = [0, 0, 1]  # strongly connected middle level
    top = np.ones((1, 6, 2), dtype=int)
    bottom = np.zeros((1, 6, 2), dtype=int)
    R = np.concatenate([bottom, mid_block, top])
    for mid in ML:
        ranks, s = METHODS[mid](R)
        assert ranks[-1] == 1 and ranks[0] == 5, mid
        alone = METHODS[mid](mid_block)[1]
        inner = s[1:4] - s[1:4].mean()
        if mid != "davidson_luce":  # DL keeps the exponent 1/|U| of the full winner set
            np.testing.assert_allclose(inner, alone, atol=1e-6, err_msg=mid)
        else:
            assert np.array_equal(np.argsort(inner), np.argsort(alone))


# --------------------------------------------------------------------------- degenerate inputs
@pytest.mark.parametrize("case", list(degenerate_cases()))
@pytest.mark.parametrize("mid", IDS)
def test_degenerate_inputs_are_finite_and_ties_are_ties(mid, case):
    R, all_tied = degenerate_cases()[case]
    ranks, s = METHODS[mid](R)
    assert ranks.shape == (R.shape[0],) and np.all(np.isfinite(s))
    if all_tied:
        assert np.all(ranks == 1) and np.ptp(s) == 0
    if case == "L2_M1_N1":
        assert ranks.tolist() == [1, 2]


@pytest.fixture(scope="module")
def reasoning(data_dir):
    return io.load(data_dir / "reasoning_synthetic.npz")


@pytest.mark.parametrize("mid", IDS)
def test_finite_on_bundled_data_full_and_single_trials(reasoning, mid):
    """Every benchmark and the combined tensor, full N = 80 and single-trial slices
    (all 80 slices were checked once by hand; a spread of them is kept here for time)."""
    for bench in ["combined", *reasoning.benchmark_names]:
        R = reasoning.select(bench).R if bench != "combined" else reasoning.R
        slices = [R] if bench != "combined" else []
        slices += [R[:, :, n : n + 1] for n in (0, 13, 27, 40, 52, 66, 79)]
        for Rs in slices:
            ranks, s = METHODS[mid](Rs)
            assert np.all(np.isfinite(s)) and ranks.min() == 1, (mid, bench)


# --------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "call, match",
    [
        (lambda R: luce.plackett_luce(R, max_iter=0), "max_iter"),
        (lambda R: luce.plackett_luce(R, tol=-1.0), "tol"),
        (lambda R: luce.bradley_terry_luce_map(R, prior=-1.0), "variance"),
        (lambda R: luce.bradley_terry_luce_map(R, prior=float("inf")), "prior"),
        (lambda R: luce.davidson_luce_map(R, prior="wide"), "prior"),
        (lambda R: luce.davidson_luce(R, max_tie_order=0), "max_tie_order"),
        (lambda R: luce.davidson_luce(R, max_tie_order=1), "max_tie_order"),
        (lambda R: luce.davidson_luce(R * 2), "binary"),
    ],
)
def test_bad_parameters_raise_validation_errors(call, match):
    R = np.array([[[1, 1], [1, 0]], [[1, 0], [0, 1]], [[0, 1], [0, 0]]])
    with pytest.raises(ValidationError, match=match):
        call(R)


def test_max_tie_order_large_enough_changes_nothing():
    """Unobserved tie orders have δ_t -> 0 at the optimum, so D only bounds |U|."""
    R = np.array([[[1, 1], [1, 0]], [[1, 0], [0, 1]], [[0, 1], [0, 0]]])
    s = luce.davidson_luce(R, return_scores=True)[1]
    np.testing.assert_allclose(luce.davidson_luce(R, max_tie_order=2, return_scores=True)[1], s)
    np.testing.assert_allclose(luce.davidson_luce(R, max_tie_order=9, return_scores=True)[1], s)
