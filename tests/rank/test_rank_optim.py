"""``rank._optim.fit`` is ``scipy.optimize.minimize(method="L-BFGS-B")`` with the prior
added: the same steps, through SciPy's public interface only."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from scorio_core.rank import _optim


def _problem(seed, n=25):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, n))
    A = A @ A.T / n + 0.1 * np.eye(n)
    c = rng.normal(size=n)

    def fun(x):
        e = np.exp(-np.abs(x))
        sp = np.maximum(x, 0) + np.log1p(e)
        sig = np.where(x >= 0, 1 / (1 + e), e / (1 + e))
        return float(0.5 * x @ A @ x + sp.sum() - c @ x), A @ x + sig - c

    return fun, rng.normal(size=n)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("max_iter", [1, 5, 500])
def test_fit_is_scipys_public_lbfgsb(seed, max_iter):
    fun, x0 = _problem(seed)
    ours = _optim.fit(fun, x0, max_iter=max_iter)
    ref = optimize.minimize(fun, x0, jac=True, method="L-BFGS-B",
                            options={"maxiter": max_iter, "ftol": 1e-15, "gtol": 1e-9}).x
    np.testing.assert_array_equal(ours, ref)
    if max_iter == 500:  # and reaches the optimum
        assert np.max(np.abs(fun(ours)[1])) < 1e-6


def test_no_private_scipy_interface():
    import inspect

    src = inspect.getsource(_optim)
    assert "optimize._" not in src and "setulb" not in src
