"""One fitting loop for every ML/MAP ranker: L-BFGS on ``nll(θ) + prior(θ)``.

Family modules supply ``nll_grad(θ) -> (value, gradient)`` for their
likelihood; :func:`fit` adds the prior, runs the optimiser once and applies
one stopping rule, so ML (uniform prior) and MAP share everything.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np
from scipy import optimize
from threadpoolctl import ThreadpoolController

from .priors import Prior, UniformPrior

__all__ = ["fit"]


def fit(
    nll_grad: Callable[[np.ndarray], tuple[float, np.ndarray]],
    x0: np.ndarray,
    *,
    prior: Prior | None = None,
    prior_slice: slice = slice(None),
    max_iter: int = 500,
    tol: float = 1e-15,
    bounds=None,
) -> np.ndarray:
    """Minimise ``nll(x) + prior.penalty(x[prior_slice])`` with its analytic gradient.

    ``prior_slice`` selects the model strengths inside a longer parameter vector
    (e.g. ``[θ, log ν]`` for Davidson); nuisance parameters are unpenalised.
    ``tol`` is L-BFGS-B's *relative* decrease of the objective; these
    objectives sum over many matches (values ~1e5), so 1e-15 is what keeps the
    strengths accurate to ~1e-8.

    The optimiser runs with BLAS limited to one thread: its tiny matrix-vector
    products are dominated by thread hand-off, which on a loaded 2-core machine
    made a 20-parameter fit ~100x slower.
    """
    prior = prior or UniformPrior()
    if max_iter < 1:
        raise ValueError(f"max_iter must be positive; got {max_iter}")

    def fun(x):
        f, g = nll_grad(x)
        th = x[prior_slice]
        g = np.array(g, dtype=float, copy=True)
        g[prior_slice] += prior.grad(th)
        return f + prior.penalty(th), g

    with _blas().limit(limits=1, user_api="blas"):
        res = optimize.minimize(
            fun,
            np.asarray(x0, dtype=float),
            jac=True,
            method="L-BFGS-B",
            bounds=bounds,
            options={"maxiter": int(max_iter), "ftol": tol, "gtol": 1e-9},
        )
    return res.x


@lru_cache(maxsize=1)
def _blas() -> ThreadpoolController:
    """Created on first use, after scipy's own BLAS is loaded, so it is controlled too."""
    return ThreadpoolController()
