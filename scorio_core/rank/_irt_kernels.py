"""Compiled inner sums of the longitudinal Rasch likelihood (002 Algorithm 8).

The growth model's NLL and gradient sum ``softplus(u_gn - b_m)`` and ``σ(u_gn - b_m)``
over every (model group, item, trial) cell. One fused pass computes the three
reductions they need without the ``(G, M, N)`` temporaries (six float64 arrays of
``G·M·N`` cells, 154 MB at 100 x 500 x 64), with ``numba.njit(cache=True)``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["growth_sums", "rasch_newton"]


@njit(cache=True)
def growth_sums(u: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For paths ``u (G, N)`` and difficulties ``b (M,)``: ``(Σ_mn softplus (G,),
    Σ_m σ (G, N), Σ_n σ (G, M))`` of ``η = u_gn - b_m``, each from one exponential
    (``softplus η = max(η, 0) + log1p(e^{-|η|})``)."""
    G, N = u.shape
    M = b.size
    sp = np.zeros(G)
    sig_gn = np.zeros((G, N))
    sig_gm = np.zeros((G, M))
    for g in range(G):
        acc = 0.0
        for m in range(M):
            bm = b[m]
            row = 0.0
            for n in range(N):
                eta = u[g, n] - bm
                e = math.exp(-abs(eta))
                r = 1.0 / (1.0 + e)
                acc += max(eta, 0.0) + math.log1p(e)
                s = r if eta >= 0 else e * r
                sig_gn[g, n] += s
                row += s
            sig_gm[g, m] = row
        sp[g] = acc
    return sp, sig_gn, sig_gm


@njit(cache=True)
def _rasch_objective(th, c, b, s, w, t, v, N, ridge, tau, mu):
    """Value of the Rasch objective of :func:`rasch_newton` (``θ`` already centred)."""
    f = 0.0
    for g in range(th.size):
        f += w[g] * (-s[g] * th[g] + 0.5 * ridge * th[g] * th[g])
        if tau > 0.0:
            d = th[g] + c - mu[g]
            f += 0.5 * tau * w[g] * d * d
        row = 0.0
        for h in range(b.size):
            eta = th[g] - b[h]
            row += v[h] * (max(eta, 0.0) + math.log1p(math.exp(-abs(eta))))
        f += N * w[g] * row
    for h in range(b.size):
        f += v[h] * (t[h] * b[h] + 0.5 * ridge * b[h] * b[h])
    return f


@njit(cache=True)
def rasch_newton(s, w, t, v, N, ridge, tau, mu, th, c, b, max_iter, step_tol):
    """Newton's method for the Rasch (1PL) objective on sufficient statistics.

    Minimises, over abilities ``θ (G)`` with ``Σ w θ = 0``, a location ``c`` (used
    only when ``tau > 0``) and difficulties ``b (H)``::

        F = -Σ_g w_g s_g θ_g + Σ_h v_h t_h b_h + N Σ_gh w_g v_h softplus(θ_g - b_h)
            + ridge/2 (Σ w θ² + Σ v b²) + tau/2 Σ_g w_g (θ_g + c - mu_g)²

    (``w, v`` multiplicities of distinct model and item totals ``s, t``; the last
    term is a Gaussian prior of precision ``tau`` on the abilities ``θ + c``).
    ``F`` is strictly convex on the constraint set. Its Hessian is bipartite: a
    diagonal ``θ`` block, a diagonal ``b`` block and the cross block ``-N w_g v_h
    σ'_gh``, so each step eliminates ``b`` (Schur complement, ``O(G² H)``) and
    solves a ``(G + 2)`` bordered system for ``θ``, ``c`` and the multiplier of
    the constraint. Backtracking (Armijo) keeps every step a descent step;
    near the optimum the full step is taken and convergence is quadratic.

    Starts from ``th, c, b`` (``th`` is centred first). Stops after a full step
    shorter than ``step_tol`` (max norm) or ``max_iter`` steps. Returns ``(θ, c,
    b, max |projected gradient|, steps)``.
    """
    G, H = th.size, b.size
    W = w.sum()
    th = th - (w @ th) / W
    b = b.copy()
    has_c = tau > 0.0
    n = G + 2 if has_c else G + 1
    gmax = np.inf
    it = 0
    sig = np.empty((G, H))
    while True:
        # gradient and Hessian blocks
        D = np.empty(G)
        E = np.empty(H)
        gt = np.empty(G)
        gb = np.empty(H)
        C = np.empty((G, H))
        for h in range(H):
            E[h] = ridge * v[h]
            gb[h] = v[h] * (t[h] + ridge * b[h])
        gc = 0.0
        for g in range(G):
            dg = 0.0
            pg = 0.0
            for h in range(H):
                eta = th[g] - b[h]
                e = math.exp(-abs(eta))
                r = 1.0 / (1.0 + e)
                sg = r if eta >= 0 else e * r
                sig[g, h] = sg
                q = N * w[g] * v[h]
                hs = q * sg * (1.0 - sg)
                C[g, h] = -hs
                dg += hs
                E[h] += hs
                pg += q * sg
                gb[h] -= q * sg
            gt[g] = pg - w[g] * s[g] + ridge * w[g] * th[g]
            D[g] = dg + ridge * w[g]
            if has_c:
                dd = th[g] + c - mu[g]
                gt[g] += tau * w[g] * dd
                gc += tau * w[g] * dd
                D[g] += tau * w[g]
        # projected gradient (the gradient of the centred objective) for the stopping rule
        mg = gt.sum() / W
        gmax = abs(gc)
        for g in range(G):
            gmax = max(gmax, abs(gt[g] - w[g] * mg))
        for h in range(H):
            gmax = max(gmax, abs(gb[h]))
        if it >= max_iter:
            break
        # reduced (Schur) system for (θ, c, λ)
        K = np.zeros((n, n))
        rhs = np.zeros(n)
        for g in range(G):
            acc = -gt[g]
            for h in range(H):
                acc += C[g, h] * gb[h] / E[h]
            rhs[g] = acc
            for g2 in range(g, G):
                acc2 = 0.0
                for h in range(H):
                    acc2 -= C[g, h] * C[g2, h] / E[h]
                K[g, g2] = acc2
                K[g2, g] = acc2
            K[g, g] += D[g]
            K[g, n - 1] = w[g]
            K[n - 1, g] = w[g]
            if has_c:
                K[g, G] = tau * w[g]
                K[G, g] = tau * w[g]
        if has_c:
            K[G, G] = tau * W
            rhs[G] = -gc
        sol = np.linalg.solve(K, rhs)
        dth = sol[:G]
        dc = sol[G] if has_c else 0.0
        dbv = np.empty(H)
        for h in range(H):
            acc = -gb[h]
            for g in range(G):
                acc -= C[g, h] * dth[g]
            dbv[h] = acc / E[h]
        slope = dc * gc
        for g in range(G):
            slope += gt[g] * dth[g]
        for h in range(H):
            slope += gb[h] * dbv[h]
        if not slope < 0.0:  # no descent left at round-off level
            break
        size = abs(dc)
        for g in range(G):
            size = max(size, abs(dth[g]))
        for h in range(H):
            size = max(size, abs(dbv[h]))
        a = 1.0
        if size > 1e-6:  # far from the optimum: backtrack (Armijo) on the objective
            f0 = _rasch_objective(th, c, b, s, w, t, v, N, ridge, tau, mu)
            for _ in range(60):
                f1 = _rasch_objective(th + a * dth, c + a * dc, b + a * dbv, s, w, t, v, N,
                                      ridge, tau, mu)
                if f1 <= f0 + 1e-4 * a * slope:
                    break
                a *= 0.5
        th = th + a * dth
        th -= (w @ th) / W
        c = c + a * dc
        b = b + a * dbv
        it += 1
        if size <= step_tol or a < 1e-15:
            max_iter = it  # one more pass computes the gradient at the final point
    return th, c, b, gmax, it
