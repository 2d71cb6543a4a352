"""The numpy 2PL/3PL NLL that ``irt.xpl._xpl_nll`` used before the compiled kernel
(``rank/irt/_kernels.xpl_nll_grad``): a test oracle for the kernel, same formulas."""

import numpy as np
from scipy import special

from scorio_core.rank.irt._base import _RIDGE, _sp_sig


def xpl_nll_numpy(K, w, N, *, guess, upper, fixed_c, reg_a, reg_c, n_sym):
    G, M = K.shape
    Kf = K.astype(float)
    NK = N - Kf
    W = w.sum()
    o = G + n_sym  # start of the item block
    if guess and fixed_c is not None and float(fixed_c) == 0.0:
        guess = False  # c = 0 is the 2PL model
    free_c = guess and fixed_c is None
    if guess and not free_c:
        c_fix = np.full(M, float(fixed_c))

    def nll_grad(x):
        th, dd, al = x[:G] - (w @ x[:G]) / W, x[o : o + M], x[o + M : o + 2 * M]
        al = al - al.mean()
        a = np.exp(al)
        eta = th[:, None] * a + dd
        sp, sig = _sp_sig(eta)  # sp = -log(1 - σ)
        if not guess:
            ll = Kf * eta - N * sp
            dl_deta = Kf - N * sig
        else:
            if free_c:
                z = x[o + 2 * M :]
                c = upper * special.expit(z)
            else:
                c = c_fix
            omc = 1.0 - c
            p = np.maximum(c + omc * sig, 1e-300)  # c > 0 keeps p away from 0
            ll = Kf * np.log(p) + NK * (np.log(omc) - sp)  # log(1 - p) = log(1 - c) - sp
            r, Kp = 1.0 - sig, Kf / p
            dl_deta = omc * sig * r * Kp - NK * sig
        D = -w[:, None] * dl_deta  # dNLL/dη
        f = -w @ ll.sum(1) + reg_a * al @ al + 0.5 * _RIDGE * (w @ th**2 + dd @ dd)
        g_th = D @ a + _RIDGE * w * th
        g_al = (th @ D) * a + 2 * reg_a * al
        parts = [g_th - w * g_th.sum() / W]
        if n_sym:
            gam = x[G + 1]
            f += reg_a * M * gam**2  # Σ (α + γ)² = Σ α² + M γ² since Σ α = 0
            parts.append([0.0, 2 * reg_a * M * gam])
        parts += [D.sum(0) + _RIDGE * dd, g_al - g_al.mean()]
        if free_c:
            dl_dc = r * Kp - NK / omc
            f += reg_c * z @ z
            g_c = -(w @ dl_dc)
            parts.append(g_c * c * (1 - c / upper) + 2 * reg_c * z)
        return f, np.concatenate(parts)

    return nll_grad
