"""The compiled Newton solvers of the IRT rankers reach the optimum of the same objective
as the general L-BFGS path (scipy), and the score equations hold at their solution."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from scorio_core.rank import irt
from scorio_core.rank.irt import dynamic, onepl
from scorio_core.rank.irt._base import _Counts
from scorio_core.rank.priors import GaussianPrior, LaplacePrior, as_prior


def _rasch_fit(R, prior, solver):
    return onepl._rasch_fit(_Counts(R), prior, 500, solver)


def _rasch_data(seed, L=12, M=25, N=6):
    rng = np.random.default_rng(seed)
    th = rng.normal(0, 1, L)
    b = rng.normal(0, 1, M)
    p = special.expit(th[:, None] - b)
    return (rng.random((L, M, N)) < p[..., None]).astype(np.int8)


PRIORS = [None, 1.0, GaussianPrior(mean=0.3, var=2.0)]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("prior", PRIORS, ids=["ml", "map1", "map_mean"])
def test_rasch_newton_equals_lbfgs(seed, prior):
    R = _rasch_data(seed)
    th_n, it_n = _rasch_fit(R, prior, "newton")
    th_l, it_l = _rasch_fit(R, prior, "lbfgs")
    assert it_n["converged"] and it_l["converged"]
    # same optimum: L-BFGS stops at ~1e-7, Newton converges quadratically
    np.testing.assert_allclose(th_n, th_l, atol=1e-5)
    keep = np.isfinite(it_n["difficulty"])
    np.testing.assert_allclose(it_n["difficulty"][keep], it_l["difficulty"][keep], atol=1e-5)
    np.testing.assert_array_equal(it_n["difficulty"][~keep], it_l["difficulty"][~keep])


@pytest.mark.parametrize("prior", PRIORS, ids=["ml", "map1", "map_mean"])
def test_rasch_newton_solves_the_score_equations(prior):
    """Gradient ≈ 0: expected totals equal observed totals (plus the prior term); the
    vague 1e-6 ridge moves them by O(1e-6 |θ|)."""
    R = _rasch_data(5, L=15, M=40, N=4)
    N = R.shape[2]
    th, items = _rasch_fit(R, prior, "newton")
    b = items["difficulty"]
    keep = np.isfinite(b)
    k = R.sum(-1)[:, keep]
    P = N * special.expit(th[:, None] - b[keep])
    g_th = P.sum(1) - k.sum(1)
    if prior is not None:
        p = as_prior(prior)
        g_th = g_th + p.grad(th)
    assert np.max(np.abs(g_th)) < 1e-4
    assert np.max(np.abs(P.sum(0) - k.sum(0))) < 1e-4


def test_rasch_newton_extreme_models_match_lbfgs_order():
    """A model that solves everything and one that solves nothing: no MLE, the vague
    ridge picks the finite point; both solvers keep the order by totals."""
    R = _rasch_data(3, L=8, M=20, N=3)
    R[0] = 1
    R[1] = 0
    for prior in (None, 1.0):
        th_n, _ = _rasch_fit(R, prior, "newton")
        th_l, _ = _rasch_fit(R, prior, "lbfgs")
        assert np.all(np.isfinite(th_n))
        tot = R.sum((1, 2))
        assert np.array_equal(np.argsort(-th_n, kind="stable"), np.argsort(-th_l, kind="stable"))
        assert th_n[0] == th_n.max() and th_n[1] == th_n.min()
        assert np.all(np.diff(th_n[np.argsort(tot)]) >= 0)


def test_non_gaussian_prior_uses_the_general_path():
    R = _rasch_data(4)
    a = irt.rasch_map(R, prior=LaplacePrior(), return_scores=True)[1]
    b = _rasch_fit(R, LaplacePrior(), "lbfgs")[0]
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("seed", [0, 1])
def test_growth_newton_equals_lbfgs(seed):
    rng = np.random.default_rng(seed)
    R = _rasch_data(seed, L=10, M=20, N=8)
    R[0, :, 4:] = rng.random((20, 4)) < 0.9  # one model improves over the trials
    c = _Counts(R)
    fit = lambda solver: dynamic._dynamic_fit(c, "growth", 500, None, None, 0.01, 1.0, solver)  # noqa: E731
    (s_n, it_n), (s_l, it_l) = fit("newton"), fit("lbfgs")
    assert it_n["converged"] and it_l["converged"]
    np.testing.assert_allclose(s_n, s_l, atol=1e-5)
    np.testing.assert_allclose(it_n["slope"], it_l["slope"], atol=1e-5)
    keep = np.isfinite(it_n["difficulty"])
    np.testing.assert_allclose(it_n["difficulty"][keep], it_l["difficulty"][keep], atol=1e-5)


def test_growth_newton_solves_the_score_equations():
    """Gradient ≈ 0 of the growth objective: per model Σ_mn (σ - R) = 0 and
    Σ_mn (σ - R) t_n + 2 slope_reg θ1 = 0; per item Σ_ln (σ - R) = 0 (up to the ridge)."""
    R = _rasch_data(7, L=9, M=15, N=6)
    reg = 0.01
    _, _, items = irt.dynamic_irt(R, variant="growth", return_item_params=True)
    b, t = items["difficulty"], items["time_points"]
    keep = np.isfinite(b)
    eta = items["baseline"][:, None, None] + items["slope"][:, None, None] * t - b[keep][:, None]
    res = special.expit(eta) - R[:, keep, :]
    assert np.max(np.abs(res.sum((1, 2)))) < 1e-4
    assert np.max(np.abs((res * t).sum((1, 2)) + 2 * reg * items["slope"])) < 1e-4
    assert np.max(np.abs(res.sum((0, 2)))) < 1e-4
