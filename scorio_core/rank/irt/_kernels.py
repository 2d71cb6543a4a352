"""Compiled kernels of the IRT fits (``numba.njit(cache=True)``), imported on first use.

* :func:`rasch_newton`, :func:`growth_newton`: Newton's method for the convex
  Rasch objective (``onepl``, 1.1) and linear-growth objective (``dynamic``, 4.2),
  eliminating the item block by its Schur complement.
* :func:`xpl_nll_grad`: the 2PL/3PL NLL (``xpl``, 2.3) and its gradient in one
  pass over the ``(G, M)`` cells.
* :func:`growth_sums`: the growth model's sums over every (model group, item,
  trial) cell in one fused pass, without ``(G, M, N)`` temporaries (six float64
  arrays of ``G·M·N`` cells, 154 MB at 100 x 500 x 64).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["growth_newton", "growth_sums", "rasch_newton", "xpl_nll_grad"]


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


@njit(cache=True)
def _growth_objective(th0, th1, b, s0, s1, tm, w, t, ridge, reg):
    f = 0.0
    for g in range(th0.size):
        acc = 0.0
        for m in range(b.size):
            for n in range(t.size):
                eta = th0[g] + th1[g] * t[n] - b[m]
                acc += max(eta, 0.0) + math.log1p(math.exp(-abs(eta)))
        f += w[g] * acc - s0[g] * th0[g] - s1[g] * th1[g]
        f += 0.5 * ridge * w[g] * th0[g] ** 2 + reg * w[g] * th1[g] ** 2
    for m in range(b.size):
        f += tm[m] * b[m] + 0.5 * ridge * b[m] ** 2
    return f


@njit(cache=True)
def growth_newton(s0, s1, tm, w, t, ridge, reg, th0, th1, b, max_iter, step_tol):
    """Newton's method for the linear-growth Rasch objective (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), Algorithm 8).

    Minimises over baselines ``θ0 (G)`` with ``Σ w θ0 = 0``, slopes ``θ1 (G)`` and
    difficulties ``b (M)``::

        F = Σ_m tm_m b_m - Σ_g (s0_g θ0_g + s1_g θ1_g)
            + Σ_g w_g Σ_mn softplus(θ0_g + θ1_g t_n - b_m)
            + ridge/2 (Σ w θ0² + Σ b²) + reg Σ w θ1²

    (``s0, s1``: weighted totals and time-weighted totals per model group, ``tm``
    item totals). ``F`` is convex in its linear predictor and strictly convex with
    the penalties. The Hessian is a block-diagonal 2 x 2 per group, a diagonal
    item block and a (2G, M) cross block: each step eliminates ``b`` (Schur
    complement) and solves a ``(2G + 1)`` bordered system; one pass over the ``G·M·N``
    cells per step, no ``(G, M, N)`` array. Armijo backtracking far from the optimum,
    full (quadratically convergent) steps near it. Returns ``(θ0, θ1, b, max
    |projected gradient|, steps)``.
    """
    G, M, N = th0.size, b.size, t.size
    W = w.sum()
    th0 = th0 - (w @ th0) / W
    th1 = th1.copy()
    b = b.copy()
    n = 2 * G + 1
    gmax = np.inf
    it = 0
    while True:
        h00 = np.empty(G)
        h01 = np.empty(G)
        h11 = np.empty(G)
        g0 = np.empty(G)
        g1 = np.empty(G)
        C0 = np.empty((G, M))
        C1 = np.empty((G, M))
        E = np.full(M, ridge)
        gb = np.empty(M)
        for m in range(M):
            gb[m] = tm[m] + ridge * b[m]
        for g in range(G):
            a00 = 0.0
            a01 = 0.0
            a11 = 0.0
            p0 = 0.0
            p1 = 0.0
            for m in range(M):
                c0 = 0.0
                c1 = 0.0
                ps = 0.0
                for n_ in range(N):
                    eta = th0[g] + th1[g] * t[n_] - b[m]
                    e = math.exp(-abs(eta))
                    r = 1.0 / (1.0 + e)
                    sg = r if eta >= 0 else e * r
                    hs = sg * (1.0 - sg)
                    c0 += hs
                    c1 += hs * t[n_]
                    a11 += hs * t[n_] * t[n_]
                    ps += sg
                    p1 += sg * t[n_]
                a00 += c0
                a01 += c1
                p0 += ps
                C0[g, m] = -w[g] * c0
                C1[g, m] = -w[g] * c1
                E[m] += w[g] * c0
                gb[m] -= w[g] * ps
            h00[g] = w[g] * a00 + ridge * w[g]
            h01[g] = w[g] * a01
            h11[g] = w[g] * a11 + 2.0 * reg * w[g]
            g0[g] = w[g] * p0 - s0[g] + ridge * w[g] * th0[g]
            g1[g] = w[g] * p1 - s1[g] + 2.0 * reg * w[g] * th1[g]
        mg = g0.sum() / W
        gmax = 0.0
        for g in range(G):
            gmax = max(gmax, abs(g0[g] - w[g] * mg), abs(g1[g]))
        for m in range(M):
            gmax = max(gmax, abs(gb[m]))
        if it >= max_iter:
            break
        # reduced system on z = (θ0, θ1, λ): K = H_zz - C E^-1 C^T, bordered by Σ w dθ0 = 0
        K = np.zeros((n, n))
        rhs = np.zeros(n)
        Cz = np.empty((2 * G, M))
        Cz[:G] = C0
        Cz[G:] = C1
        for i in range(2 * G):
            acc = -(g0[i] if i < G else g1[i - G])
            for m in range(M):
                acc += Cz[i, m] * gb[m] / E[m]
            rhs[i] = acc
            for j in range(i, 2 * G):
                acc2 = 0.0
                for m in range(M):
                    acc2 -= Cz[i, m] * Cz[j, m] / E[m]
                K[i, j] = acc2
                K[j, i] = acc2
        for g in range(G):
            K[g, g] += h00[g]
            K[g, G + g] += h01[g]
            K[G + g, g] += h01[g]
            K[G + g, G + g] += h11[g]
            K[g, n - 1] = w[g]
            K[n - 1, g] = w[g]
        sol = np.linalg.solve(K, rhs)
        d0 = sol[:G]
        d1 = sol[G : 2 * G]
        db = np.empty(M)
        for m in range(M):
            acc = -gb[m]
            for i in range(2 * G):
                acc -= Cz[i, m] * sol[i]
            db[m] = acc / E[m]
        slope = g0 @ d0 + g1 @ d1 + gb @ db
        if not slope < 0.0:
            break
        size = 0.0
        for g in range(G):
            size = max(size, abs(d0[g]), abs(d1[g]))
        for m in range(M):
            size = max(size, abs(db[m]))
        a = 1.0
        if size > 1e-6:
            f0 = _growth_objective(th0, th1, b, s0, s1, tm, w, t, ridge, reg)
            for _ in range(60):
                f1 = _growth_objective(th0 + a * d0, th1 + a * d1, b + a * db, s0, s1, tm, w, t,
                                       ridge, reg)
                if f1 <= f0 + 1e-4 * a * slope:
                    break
                a *= 0.5
        th0 = th0 + a * d0
        th0 -= (w @ th0) / W
        th1 = th1 + a * d1
        b = b + a * db
        it += 1
        if size <= step_tol or a < 1e-15:
            max_iter = it
    return th0, th1, b, gmax, it


@njit(cache=True)
def xpl_nll_grad(x, Kf, w, N, n_sym, guess, free_c, upper, c_fix, reg_a, reg_c, ridge):
    """2PL/3PL binomial NLL (2.3) and gradient (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), eqs. 55-56) of ``xpl._xpl_nll``.

    ``x = [θ (G), <n_sym>, d (M), α (M), z (M, free guessing only)]`` on count rows
    ``Kf (G, M)`` with multiplicities ``w``; ``η = a_m θ_g + d_m`` with centred ``θ``
    and ``a = exp(α - mean α)``; ``c = upper σ(z)`` (free) or ``c_fix``. One pass over
    the (G, M) cells; ``tests/rank/_xpl_numpy.py`` holds the same formulas in numpy.
    """
    G, M = Kf.shape
    o = G + n_sym
    W = w.sum()
    mth = 0.0
    for g in range(G):
        mth += w[g] * x[g]
    mth /= W
    th = np.empty(G)
    for g in range(G):
        th[g] = x[g] - mth
    dd = x[o : o + M]
    mal = 0.0
    for m in range(M):
        mal += x[o + M + m]
    mal /= M
    al = np.empty(M)
    a = np.empty(M)
    for m in range(M):
        al[m] = x[o + M + m] - mal
        a[m] = math.exp(al[m])
    c = np.empty(M)
    if guess:
        for m in range(M):
            if free_c:
                z = x[o + 2 * M + m]
                c[m] = upper * (1.0 / (1.0 + math.exp(-z)) if z >= 0 else
                                math.exp(z) / (1.0 + math.exp(z)))
            else:
                c[m] = c_fix
    f = 0.0
    g_th = np.zeros(G)
    g_d = np.zeros(M)
    g_al = np.zeros(M)
    g_c = np.zeros(M)
    for g in range(G):
        llg = 0.0
        for m in range(M):
            k = Kf[g, m]
            nk = N - k
            eta = th[g] * a[m] + dd[m]
            e = math.exp(-abs(eta))
            r0 = 1.0 / (1.0 + e)
            sp = max(eta, 0.0) + math.log1p(e)
            sg = r0 if eta >= 0 else e * r0
            if not guess:
                llg += k * eta - N * sp
                dl = k - N * sg
            else:
                omc = 1.0 - c[m]
                p = max(c[m] + omc * sg, 1e-300)
                llg += k * math.log(p) + nk * (math.log(omc) - sp)
                r = 1.0 - sg
                kp = k / p
                dl = omc * sg * r * kp - nk * sg
                if free_c:
                    g_c[m] -= w[g] * (r * kp - nk / omc)
            D = -w[g] * dl
            g_th[g] += D * a[m]
            g_d[m] += D
            g_al[m] += th[g] * D
        f -= w[g] * llg
    grad = np.zeros(x.size)
    sgt = 0.0
    for g in range(G):
        g_th[g] += ridge * w[g] * th[g]
        sgt += g_th[g]
        f += 0.5 * ridge * w[g] * th[g] * th[g]
    for g in range(G):
        grad[g] = g_th[g] - w[g] * sgt / W
    for m in range(M):
        f += reg_a * al[m] * al[m] + 0.5 * ridge * dd[m] * dd[m]
    if n_sym:
        gam = x[G + 1]
        f += reg_a * M * gam * gam
        grad[G] = 0.0
        grad[G + 1] = 2.0 * reg_a * M * gam
    mga = 0.0
    for m in range(M):
        g_al[m] = g_al[m] * a[m] + 2.0 * reg_a * al[m]
        mga += g_al[m]
    mga /= M
    for m in range(M):
        grad[o + m] = g_d[m] + ridge * dd[m]
        grad[o + M + m] = g_al[m] - mga
    if free_c:
        for m in range(M):
            z = x[o + 2 * M + m]
            f += reg_c * z * z
            grad[o + 2 * M + m] = g_c[m] * c[m] * (1.0 - c[m] / upper) + 2.0 * reg_c * z
    return f, grad
