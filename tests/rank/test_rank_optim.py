"""The thin L-BFGS-B driver of ``rank._optim.fit`` takes exactly the steps of
``scipy.optimize.minimize(method="L-BFGS-B")`` (same compiled routine, same options)."""

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
def test_direct_driver_takes_scipys_steps(seed, max_iter):
    if _optim._setulb() is None:  # scipy < 1.15: fit() calls minimize() itself
        pytest.skip("this scipy's setulb has the older calling convention")
    fun, x0 = _problem(seed)
    ours = _optim.fit(fun, x0, max_iter=max_iter)
    ref = optimize.minimize(fun, x0, jac=True, method="L-BFGS-B",
                            options={"maxiter": max_iter, "ftol": 1e-15, "gtol": 1e-9}).x
    np.testing.assert_array_equal(ours, ref)
    if max_iter == 500:  # and reaches the optimum
        assert np.max(np.abs(fun(ours)[1])) < 1e-6


def test_fallback_without_the_driver(monkeypatch):
    fun, x0 = _problem(2)
    fast = _optim.fit(fun, x0)
    monkeypatch.setattr(_optim, "_setulb", lambda: None)
    np.testing.assert_array_equal(_optim.fit(fun, x0), fast)
