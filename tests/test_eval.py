"""Metrics: SPEC §3 reference values, invariants, and differential tests against `scorio`."""

from __future__ import annotations

import numpy as np
import pytest

from scorio_core import ValidationError
from scorio_core import eval as ev

R_CAT = [[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]]
R_BIN = [[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]]
W3 = [0, 0.5, 1]


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: ev.bayes(R_CAT, w=W3), (0.562500, 0.091998)),
        (lambda: ev.bayes(R_CAT, w=W3, R0=[[2], [1]]), (0.583333, 0.085165)),
        (lambda: ev.bayes(R_CAT, w=W3, R0=[[0, 2], [1, 2]]), (0.575000, 0.084275)),
        (
            lambda: ev.bayes_ci([[3, 2, 3, 1, 3], [2, 3, 0, 3, 1]], w=[0, 0, 0.25, 1]),
            (0.444444, 0.100539, 0.247392, 0.641497),
        ),
        (lambda: ev.bayes_ci(R_BIN, bounds=(0, 1)), (0.642857, 0.118451, 0.410698, 0.875017)),
        (lambda: ev.avg(R_CAT, w=W3), (0.600000, 0.147196)),
        (lambda: (ev.pass_at_k(R_BIN, 3),), (1.0,)),
        (lambda: (ev.pass_hat_k(R_BIN, 3),), (0.25,)),
        (lambda: (ev.g_pass_at_k_tau(R_BIN, 3, 2 / 3),), (0.85,)),
        (lambda: (ev.mg_pass_at_k(R_BIN, 3),), (0.166667,)),
        (lambda: ev.pass_at_k_ci(R_BIN, 3), (0.916667, 0.073210, 0.773177, 1.0)),
    ],
)
def test_spec_reference_values(call, expected):
    got = call()
    assert len(got) == len(expected)
    np.testing.assert_allclose(got, expected, atol=5e-7, rtol=0)


def test_results_are_named_and_unpack():
    est = ev.bayes(R_BIN)
    assert est.mu == est[0] and est.sigma == est[1]
    mu, sigma, lo, hi = ev.bayes_ci(R_BIN)
    assert lo < mu < hi and sigma > 0


def test_g_pass_limits_equal_pass_and_pass_hat():
    R = np.random.default_rng(3).integers(0, 2, (12, 9))
    for k in range(1, 10):
        assert ev.g_pass_at_k_tau(R, k, 0.0) == pytest.approx(ev.pass_at_k(R, k), abs=1e-12)
        assert ev.g_pass_at_k_tau(R, k, 1.0) == pytest.approx(ev.pass_hat_k(R, k), abs=1e-12)


def test_uniform_prior_bayes_and_avg_order_models_identically():
    """000 App. B: mu = A + N/(1+C+N) a with A constant across models of equal (M, N, w)."""
    rng = np.random.default_rng(11)
    for _ in range(50):
        C = int(rng.integers(1, 5))
        L, M, N = int(rng.integers(2, 9)), int(rng.integers(1, 15)), int(rng.integers(1, 12))
        R = rng.integers(0, C + 1, (L, M, N))
        w = np.sort(rng.random(C + 1))
        mu, sig_b = ev.bayes(R, w)
        a, sig_a = ev.avg(R, w)
        # same pairwise order (exact ties stay ties; 1e-12 absorbs float rounding)
        d_mu, d_a = mu[:, None] - mu[None, :], a[:, None] - a[None, :]
        np.testing.assert_array_equal(np.sign(d_mu.round(12)), np.sign(d_a.round(12)))
        # the affine relation itself, which is why the order is identical
        A = w[0] + (w - w[0]).sum() / (M * (1 + C + N)) * M
        np.testing.assert_allclose(mu, A + N / (1 + C + N) * (a - w[0]), atol=1e-12)
        np.testing.assert_allclose(sig_a, (1 + C + N) / N * sig_b, rtol=1e-12)


def test_batch_axes_equal_a_loop():
    rng = np.random.default_rng(5)
    R = rng.integers(0, 3, (4, 6, 10, 7))  # (replicates, models, M, N)
    R0 = rng.integers(0, 3, (10, 2))
    w = [0.0, 0.3, 1.0]
    mu, sigma = ev.bayes(R, w, R0)
    assert mu.shape == (4, 6)
    for b in range(4):
        for m in range(6):
            one = ev.bayes(R[b, m], w, R0)
            assert mu[b, m] == pytest.approx(one.mu, abs=1e-14)
            assert sigma[b, m] == pytest.approx(one.sigma, abs=1e-14)
    Rb = R.clip(0, 1)
    got = ev.pass_at_k_ci(Rb, 3)
    for m in range(6):
        np.testing.assert_allclose(
            [x[1, m] for x in got], ev.pass_at_k_ci(Rb[1, m], 3), atol=1e-14
        )


def _random_case(rng, binary: bool):
    M, N = int(rng.integers(1, 15)), int(rng.integers(1, 25))
    C = 1 if binary else int(rng.integers(2, 5))
    R = rng.integers(0, C + 1, (M, N))
    w = None if binary else np.round(rng.random(C + 1), 3)
    R0 = None
    if rng.random() < 0.5:
        R0 = rng.integers(0, C + 1, (M, int(rng.integers(1, 4))))
    return R, w, R0, N


@pytest.mark.parametrize("binary", [True, False])
def test_bayes_and_avg_match_reference(ref_eval, binary):
    rng = np.random.default_rng(100 + binary)
    for _ in range(200):
        R, w, R0, _ = _random_case(rng, binary)
        conf = float(rng.choice([0.8, 0.9, 0.95, 0.99]))
        np.testing.assert_allclose(ev.bayes(R, w, R0), ref_eval.bayes(R, w, R0), atol=1e-9)
        np.testing.assert_allclose(
            ev.bayes_ci(R, w, R0, confidence=conf, bounds=(0, 1)),
            ref_eval.bayes_ci(R, w, R0, confidence=conf, bounds=(0, 1)),
            atol=1e-9,
        )
        np.testing.assert_allclose(ev.avg(R, w), ref_eval.avg(R, w), atol=1e-9)
        np.testing.assert_allclose(
            ev.avg_ci(R, w, confidence=conf), ref_eval.avg_ci(R, w, confidence=conf), atol=1e-9
        )


def test_pass_family_matches_reference(ref_eval):
    rng = np.random.default_rng(7)
    for _ in range(300):
        R, _, _, N = _random_case(rng, True)
        k = int(rng.integers(1, N + 1))
        tau = float(rng.choice([0.0, 0.25, 0.5, 2 / 3, 0.75, 1.0, rng.random()]))
        a0, b0 = (1.0, 1.0) if rng.random() < 0.7 else (float(rng.uniform(0.5, 3)), 2.0)
        for name in ["pass_at_k", "pass_hat_k", "mg_pass_at_k"]:
            assert getattr(ev, name)(R, k) == pytest.approx(getattr(ref_eval, name)(R, k), abs=1e-9)
            np.testing.assert_allclose(
                getattr(ev, name + "_ci")(R, k, alpha0=a0, beta0=b0),
                getattr(ref_eval, name + "_ci")(R, k, alpha0=a0, beta0=b0),
                atol=1e-9,
            )
        assert ev.g_pass_at_k_tau(R, k, tau) == pytest.approx(
            ref_eval.g_pass_at_k_tau(R, k, tau), abs=1e-9
        )
        np.testing.assert_allclose(
            ev.g_pass_at_k_tau_ci(R, k, tau, confidence=0.9),
            ref_eval.g_pass_at_k_tau_ci(R, k, tau, confidence=0.9),
            atol=1e-9,
        )


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: ev.pass_at_k(R_BIN, 6), "1 <= k <= N (N=5)"),
        (lambda: ev.pass_at_k(R_BIN, 0), "1 <= k <= N"),
        (lambda: ev.pass_at_k(R_CAT, 2), "binary outcomes"),
        (lambda: ev.bayes(R_CAT), "weights are required"),
        (lambda: ev.bayes(R_CAT, w=[0, 1]), "expected at least 3 weights"),
        (lambda: ev.bayes(R_BIN, R0=[[1], [0], [1]]), "one row per question"),
        (lambda: ev.bayes([[0.5, 1]]), "fractional"),
        (lambda: ev.bayes([[np.nan, 1]]), "non-finite"),
        (lambda: ev.bayes([1, 0, 1]), "dimensions"),
        (lambda: ev.bayes_ci(R_BIN, confidence=1.2), "confidence"),
        (lambda: ev.g_pass_at_k_tau(R_BIN, 2, 1.5), "tau must lie in [0, 1]"),
    ],
)
def test_bad_arguments_are_explained(call, fragment):
    with pytest.raises(ValidationError, match=None) as info:
        call()
    assert fragment in str(info.value)


@pytest.mark.parametrize("N", [1, 2, 5, 8, 33, 80, 400, 2000])
def test_hypergeometric_table_matches_scipy_stats(N):
    from scipy import stats

    from scorio_core.eval import _hypergeom_pmf

    for k in sorted({1, min(2, N), min(3, N), max(1, N // 2), N}):
        got = _hypergeom_pmf(N, k)
        want = stats.hypergeom.pmf(np.arange(k + 1)[None, :], N, np.arange(N + 1)[:, None], k)
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-13, err_msg=f"N={N} k={k}")
        np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=1e-10)  # a distribution


def test_leaderboard_import_does_not_load_scipy_stats():
    """scipy.stats costs over a second of every cold start (CLI, app); the metrics only
    need the hypergeometric table, written out in eval."""
    import subprocess
    import sys

    code = "import sys, scorio_core.leaderboard; print('scipy.stats' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=str(__import__('pathlib').Path(__file__).parents[1]))
    assert out.stdout.strip() == "False"


def _named_steps(message: str) -> list[str]:
    """The expressions an array-level refusal names: ``(R == 2).astype(int)``, ``sc.bayes(R,
    w=[...])``, ``rank.bayes(R, w=[...])``."""
    import re

    return re.findall(r"\((?:R0?) [=>]= \d+\)\.astype\(int\)|(?:sc|rank)\.bayes\(R, w=\[[^]]*\]\)",
                      message)


def test_the_pass_family_refusal_names_array_fixes_that_run_on_the_same_data():
    """Categorical R was refused with "map categories to correct/wrong", which names no call:
    the refusal now names the expressions that make R binary and the weights that score it as
    it is, and each of them runs on the very array refused."""
    import scorio_core as sc

    R = np.array(R_CAT)
    with pytest.raises(ValidationError) as info:
        ev.pass_at_k(R, 2)
    steps = _named_steps(str(info.value))
    assert steps == ["sc.bayes(R, w=[0, 0.5, 1])", "(R == 2).astype(int)", "(R >= 1).astype(int)"]
    # and the loader's option for a file, as Python writes it (only Python holds an array)
    assert "sc.load(path, correct=[...]) or sc.load(path, correct_from=...)" in str(info.value)
    assert "--correct" not in str(info.value)
    for step in steps:
        out = eval(step, {"sc": sc, "R": R})  # noqa: S307 -- the refusal's own text
        if step.startswith("("):
            assert set(np.unique(out)) <= {0, 1}
            assert np.all(np.isfinite(ev.pass_at_k(out, 2)))
        else:
            assert np.all(np.isfinite(out.mu))
    # no category between 0 and the top: one way to make it binary, not two the same
    with pytest.raises(ValidationError) as info:
        ev.pass_hat_k(np.array([[0, 2, 2, 0]]), 2)
    assert _named_steps(str(info.value))[1:] == ["(R == 2).astype(int)"]


def test_count_mean_is_a_function_of_the_exact_total():
    """Mean scores from category totals (``eval.count_mean``): totals equal in exact
    arithmetic give the same float whatever the counts behind them -- weights 0, 0.5, 1, and
    0, 0.3, 0.6, where 2 x fl(0.3) is fl(0.6) exactly -- while a float mean of per-question
    means put 1.1e-16 between such models; the values are the exact mean to within an ulp
    (the nearest float for one-limb weights such as 0, 0.5, 1) on every path, the Python
    integers' too."""
    from fractions import Fraction

    from scorio_core.eval import count_mean

    half = count_mean(np.array([[40, 20, 60], [45, 10, 65], [50, 0, 70]]), [0, 0.5, 1], 120)
    assert half[0] == half[1] == half[2]
    tenths = count_mean(np.array([[1, 4, 1], [1, 2, 2], [1, 0, 3], [1, 5, 0]]), [0, 0.3, 0.6], 6)
    assert tenths[0] == tenths[1] == tenths[2] and tenths[3] != tenths[0]
    rng = np.random.default_rng(3)
    for w in ([0, 0.5, 1], [0, 0.25, 0.75, 1], [0, 0.3, 0.7, 1], [0.1, 2.5, -0.7]):
        t = rng.integers(-50, 200, (400, len(w)))
        exact = [sum(Fraction(int(a)) * Fraction(x) for a, x in zip(r, w, strict=True)) / 300
                 for r in t]
        got = count_mean(t, w, 300)
        assert all(abs(Fraction(g) - e) <= 2 * Fraction(np.spacing(abs(float(e))))
                   for g, e in zip(got, exact, strict=True))
        if max(Fraction(x).denominator for x in w) <= 4:  # one limb: the nearest float
            assert got.tolist() == [float(e) for e in exact]
        big = count_mean(t * 2**30, w, 300 * 2**30)  # beyond int64 limbs: Python integers
        assert big.tolist() == [float(e) for e in exact]
        permuted = count_mean(t[rng.permutation(len(t))], w, 300)
        assert sorted(permuted.tolist()) == sorted(got.tolist())
