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
from scipy.sparse.csgraph import connected_components
from threadpoolctl import ThreadpoolController

from .priors import Prior, UniformPrior

__all__ = ["fit", "separation_levels", "stack_levels"]


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
        if bounds is None and _setulb() is not None:
            return _lbfgsb_direct(fun, np.asarray(x0, dtype=float), int(max_iter), tol, 1e-9)
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
def _setulb():
    """scipy's compiled L-BFGS-B step (``setulb``, reverse communication) when its calling
    convention is the one :func:`_lbfgsb_direct` drives (scipy >= 1.15), else None."""
    try:
        from scipy.optimize import _lbfgsb

        f = lambda x: (float(x @ x), 2 * x)  # noqa: E731 - self-check on a tiny quadratic
        x = _lbfgsb_direct(f, np.array([1.0, -2.0]), 50, 1e-15, 1e-9, _lbfgsb.setulb)
        return _lbfgsb.setulb if np.max(np.abs(x)) < 1e-6 else None
    except Exception:  # noqa: BLE001 - any other scipy: the public minimize() path
        return None


def _lbfgsb_direct(fun, x0, max_iter, ftol, gtol, setulb=None, maxcor=10, maxls=20,
                   maxfun=15000):
    """The loop of ``scipy.optimize.minimize(method="L-BFGS-B")`` without bounds, driving
    the same compiled ``setulb`` with the same options, minus the per-evaluation
    wrappers (``ScalarFunction``, memoisation, array checks): the same iterates, at a
    fraction of the Python overhead that dominated the small IRT fits (~500 steps of a
    few microseconds each)."""
    setulb = setulb or _setulb()
    n = x0.size
    m = maxcor
    x = np.array(x0, dtype=np.float64)
    f = np.array(0.0, dtype=np.float64)
    g = np.zeros(n, dtype=np.float64)
    nbd = np.zeros(n, np.int32)
    lo = np.zeros(n, np.float64)
    hi = np.zeros(n, np.float64)
    wa = np.zeros(2 * m * n + 5 * n + 11 * m * m + 8 * m, np.float64)
    iwa = np.zeros(3 * n, dtype=np.int32)
    task = np.zeros(2, dtype=np.int32)
    ln_task = np.zeros(2, dtype=np.int32)
    lsave = np.zeros(4, dtype=np.int32)
    isave = np.zeros(44, dtype=np.int32)
    dsave = np.zeros(29, dtype=np.float64)
    factr = ftol / np.finfo(float).eps
    nit = nfev = 0
    while True:
        setulb(m, x, lo, hi, nbd, f, g, factr, gtol, wa, iwa, task, lsave, isave, dsave,
               maxls, ln_task)
        if task[0] == 3:  # evaluate f and g at x
            fx, gx = fun(x.copy())
            f = float(fx)
            g = np.array(gx, dtype=np.float64).ravel()
            nfev += 1
        elif task[0] == 1:  # a new iterate
            nit += 1
            if nit >= max_iter:
                task[0], task[1] = 5, 504
            elif nfev > maxfun:
                task[0], task[1] = 5, 502
        else:
            return x


@lru_cache(maxsize=1)
def _blas() -> ThreadpoolController:
    """Created on first use, after scipy's own BLAS is loaded, so it is controlled too."""
    return ThreadpoolController()


# ----------------------------------------------------------- separated data (ML limit)
def separation_levels(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Strongly connected components of ``i → j iff C_ij > 0`` and their order.

    Returns ``(component label, level)`` per model; ``level`` is the number of
    components reachable from the model's component (0 = bottom). One
    component means the ML estimate is finite.
    """
    n_comp, lab = connected_components(C > 0, directed=True, connection="strong")
    if n_comp == 1:
        return lab, np.zeros(C.shape[0], dtype=int)
    onehot = np.eye(n_comp)[lab]  # (L, n_comp)
    reach = (onehot.T @ (C > 0) @ onehot) > 0
    np.fill_diagonal(reach, False)
    while True:  # transitive closure by squaring: at most log2(n_comp) rounds
        nxt = reach | ((reach.astype(np.int64) @ reach.astype(np.int64)) > 0)
        if np.array_equal(nxt, reach):
            break
        reach = nxt
    return lab, reach.sum(1)[lab]


def stack_levels(theta: np.ndarray, lab: np.ndarray, level: np.ndarray, gap: float) -> np.ndarray:
    """The ML limit on separated data: centre each strongly connected component,
    then stack levels so the closest members of adjacent levels are ``gap`` apart."""
    theta = theta - (np.bincount(lab, weights=theta) / np.bincount(lab))[lab]
    _, idx = np.unique(level, return_inverse=True)
    k = idx.max() + 1
    lo = np.full(k, np.inf)
    hi = np.full(k, -np.inf)
    np.minimum.at(lo, idx, theta)
    np.maximum.at(hi, idx, theta)
    shift = np.concatenate([[0.0], np.cumsum(hi[:-1] - lo[1:] + gap)])
    return theta + shift[idx]
