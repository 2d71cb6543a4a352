"""The compiled 2PL/3PL NLL equals the numpy formulas it replaced, and its gradient is
the derivative of its value; where the 2PL/3PL fits do not converge (single-trial
slices) their iterate is sensitive to round-off, which is why the kernel changed
some N = 1 rankings (see ``benchmarks/stability.py``)."""

from __future__ import annotations

import numpy as np
import pytest
from _xpl_numpy import xpl_nll_numpy

from scorio_core.rank import irt
from scorio_core.rank.irt import xpl

CASES = [
    dict(guess=False, upper=0.5, fixed_c=None, reg_a=0.01, reg_c=0.0, n_sym=0),
    dict(guess=False, upper=0.5, fixed_c=None, reg_a=0.01, reg_c=0.0, n_sym=2),
    dict(guess=True, upper=0.5, fixed_c=None, reg_a=0.01, reg_c=0.1, n_sym=0),
    dict(guess=True, upper=0.4, fixed_c=None, reg_a=0.03, reg_c=0.2, n_sym=2),
    dict(guess=True, upper=0.5, fixed_c=0.2, reg_a=0.01, reg_c=0.1, n_sym=0),
    dict(guess=True, upper=0.5, fixed_c=0.0, reg_a=0.01, reg_c=0.1, n_sym=0),
]


def _problem(seed, case, G=7, M=9, N=5):
    rng = np.random.default_rng(seed)
    K = rng.integers(0, N + 1, size=(G, M))
    w = rng.integers(1, 4, size=G).astype(float)
    free_c = case["guess"] and case["fixed_c"] is None
    x = rng.normal(0, 1, G + case["n_sym"] + (3 if free_c else 2) * M)
    return K, w, N, x


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kernel_equals_numpy_formulas(case, seed):
    K, w, N, x = _problem(seed, case)
    f_k, g_k = xpl._xpl_nll(K, w, N, **case)(x)
    f_n, g_n = xpl_nll_numpy(K, w, N, **case)(x)
    assert f_k == pytest.approx(f_n, rel=1e-12, abs=1e-10)
    np.testing.assert_allclose(g_k, g_n, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("case", CASES)
def test_kernel_gradient_is_the_derivative(case):
    K, w, N, x = _problem(3, case)
    fg = xpl._xpl_nll(K, w, N, **case)
    _, g = fg(x)
    h = 1e-6
    num = np.array([(fg(x + h * e)[0] - fg(x - h * e)[0]) / (2 * h) for e in np.eye(x.size)])
    np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-5)


def test_single_trial_2pl_fits_stop_at_the_iteration_cap():
    """On a single trial the penalised 2PL/3PL optimum lies far out along a nearly flat
    valley: the fit stops at max_iter (converged False) and its ranking is the
    deterministic iterate, not an optimum — which is why a change of summation order
    changes some single-trial rankings."""
    rng = np.random.default_rng(0)
    R = (rng.random((12, 20, 1)) < np.linspace(0.2, 0.8, 12)[:, None, None]).astype(np.int8)
    for f in (irt.rasch_2pl, irt.rasch_3pl):
        assert not f(R, return_item_params=True)[2]["converged"]
