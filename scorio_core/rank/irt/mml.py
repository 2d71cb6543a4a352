"""Rasch marginal maximum likelihood by EM over adaptive quadrature, EAP and
posterior-quantile abilities (Ranking Reasoning LLMs under Test-Time Scaling (2026), Algorithm 7).

Abilities are integrated out under the standard normal population (eq. 6)::

    (3.1)  p(k_l | b) = ∫ Π_m Binom(k_lm; N, σ(θ - b_m)) φ(θ) dθ
    (3.2)  p(θ | k_l, b) ∝ exp(s_l θ - N Σ_m softplus(θ - b_m) - θ²/2)

The posterior depends on ``k_l`` only through the total ``s_l``, so models are
grouped by total. Difficulties maximise Π_l (3.1) by EM (Bock & Aitkin 1981):
E-step on Gauss-Hermite nodes adapted to each posterior (mode and Laplace s.d.),
M-step by safeguarded Newton on the concave item equations, and a
parameter-expanded location step (PX-EM, Liu, Rubin & Wu 1998). Scores are
posterior means (:func:`rasch_mml`) or quantiles (:func:`rasch_mml_credible`)
of (3.2).

References
----------
R. D. Bock and M. Aitkin (1981). Marginal maximum likelihood estimation of item
parameters: application of an EM algorithm. Psychometrika 46, 443-459.
C. Liu, D. B. Rubin and Y. N. Wu (1998). Parameter expansion to accelerate EM:
the PX-EM algorithm. Biometrika 85, 755-770.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy import special

from ..._validation import ValidationError, check_choice, check_int
from ._base import _Counts, _init_logits, _irt_ranker, _sp_sig

__all__ = ["rasch_mml", "rasch_mml_credible"]


def _hermite_normal(n_quadrature) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Hermite nodes and weights of the standard normal."""
    ok = isinstance(n_quadrature, int | np.integer) and not isinstance(n_quadrature, bool)
    if not ok or not 2 <= n_quadrature <= 200:
        raise ValidationError(f"n_quadrature must be an integer in [2, 200]; got {n_quadrature!r}")
    x, wq = np.polynomial.hermite_e.hermegauss(int(n_quadrature))
    return x, wq / wq.sum()


#: Cells of the ``(rows, points, items)`` block evaluated at once by :func:`_log_post`
#: (8 MB of float64, a few such temporaries): memory stays bounded whatever L and M.
_BLOCK_CELLS = 1 << 20


def _log_post(theta, s, b, N):
    """Unnormalised log posterior of a Rasch ability under N(0, 1): ``k`` enters only via ``s``.

    ``theta (U, K)`` with ``s (U, 1)`` is evaluated in blocks of rows so that the
    ``(U, K, M)`` softplus array is never held at once.
    """

    def direct(th, s):
        return s * th - N * _sp_sig(th[..., None] - b)[0].sum(-1) - 0.5 * th**2

    theta = np.asarray(theta, dtype=float)
    if theta.ndim < 2 or theta.size * max(b.size, 1) <= _BLOCK_CELLS:
        return direct(theta, s)
    s = np.broadcast_to(s, theta.shape[:-1] + (1,))
    step = max(1, _BLOCK_CELLS // (theta.shape[-1] * max(b.size, 1)))
    out = np.empty(theta.shape)
    for i in range(0, theta.shape[0], step):
        out[i : i + step] = direct(theta[i : i + step], s[i : i + step])
    return out


def _posterior_mode(s, b, N, start):
    """Posterior modes and Laplace s.d.: safeguarded Newton (log-concave, ``f'' <= -1``)."""
    th = start.copy()
    for _ in range(100):
        sig = special.expit(th[:, None] - b)
        step = np.clip((s - N * sig.sum(1) - th) / (N * (sig * (1 - sig)).sum(1) + 1.0), -2, 2)
        th += step
        if np.max(np.abs(step)) < 1e-12:
            break
    sig = special.expit(th[:, None] - b)
    return th, 1.0 / np.sqrt(N * (sig * (1 - sig)).sum(1) + 1.0)


class _MML:
    """Rasch MML by EM over adaptive Gauss-Hermite quadrature (Ranking Reasoning LLMs under
    Test-Time Scaling (2026), Algorithm 7).

    Models are grouped by total ``s`` (the Rasch posterior depends on nothing
    else). E-step: each group's posterior on nodes ``μ_u + σ_u x_q`` (mode and
    Laplace s.d.), weights ``∝ w_q e^{x_q²/2} p(θ | s_u)``. M-step: item ``m``
    solves ``N Σ_uq n_uq σ(θ_uq - b_m) = t_m`` (``n_uq`` expected models at a
    node), a concave 1-D problem; all items take safeguarded Newton steps
    together; then the PX-EM location step.
    """

    def __init__(self, c: _Counts, max_iter, em_iter, n_quadrature, tol=1e-9):
        self.c = c
        max_iter = check_int("max_iter", max_iter)
        em_iter = check_int("em_iter", em_iter)
        self.x, self.wq = _hermite_normal(n_quadrature)
        us, inv, w = np.unique(c.ki.sum(1), return_inverse=True, return_counts=True)
        self.s, self.inv, N = us.astype(float), inv.ravel(), c.N
        t = c.ki.sum(0).astype(float)
        b = -_init_logits(t, c.L * N)
        mode = _init_logits(self.s, max(c.ki.shape[1], 1) * N)
        self.converged = not c.keep.any()
        for _ in range(0 if self.converged else em_iter):
            mode, nodes, pi = self._posterior(b, mode)
            n = w[:, None] * pi  # expected number of models at each node (U, Q)
            b_old = b.copy()
            for _ in range(max_iter):
                sig = special.expit(nodes[..., None] - b)
                g = N * np.einsum("uq,uqm->m", n, sig) - t
                h = N * np.einsum("uq,uqm->m", n, sig * (1 - sig))
                step = np.clip(g / h, -2.0, 2.0)
                b += step
                if np.max(np.abs(step)) < 1e-10:
                    break
            # PX-EM (Liu, Rubin & Wu 1998): the likelihood only sees θ - b, so the location
            # is pinned by the N(0, 1) population alone and plain EM creeps along it (tight
            # posteriors: ~all information is "missing"). Fit the population mean μ too,
            # μ = mean posterior mean, and map back to μ = 0 by shifting b; same fixed point.
            mu_pop = (n * nodes).sum() / n.sum()
            b -= mu_pop
            mode -= mu_pop
            if np.max(np.abs(b - b_old)) < tol:
                self.converged = True
                break
        self.b = b
        self.mode, self.nodes, self.pi = self._posterior(b, mode)

    def _posterior(self, b, start):
        if b.size == 0:  # no informative item: the posterior is the N(0, 1) population
            shape = (self.s.size, self.x.size)
            return (
                np.zeros(self.s.size),
                np.broadcast_to(self.x, shape),
                np.broadcast_to(self.wq, shape),
            )
        mu, sd = _posterior_mode(self.s, b, self.c.N, start)
        nodes = mu[:, None] + sd[:, None] * self.x
        logw = np.log(self.wq) + 0.5 * self.x**2 + _log_post(nodes, self.s[:, None], b, self.c.N)
        pi = np.exp(logw - logw.max(1, keepdims=True))
        return mu, nodes, pi / pi.sum(1, keepdims=True)

    def eap(self) -> tuple[np.ndarray, np.ndarray]:
        """Posterior means and s.d. per group."""
        m = (self.pi * self.nodes).sum(1)
        return m, np.sqrt(np.maximum((self.pi * (self.nodes - m[:, None]) ** 2).sum(1), 0.0))

    def quantile(self, q, n_grid=401, width=10.0) -> np.ndarray:
        """Posterior ``q``-quantile per group: the CDF integrated (trapezoid) on a fine grid
        over ±``width`` s.d. around the mode, inverted by linear interpolation."""
        _, sd = self.eap()
        grid = self.mode[:, None] + width * sd[:, None] * np.linspace(-1.0, 1.0, n_grid)
        if self.b.size:
            logf = _log_post(grid, self.s[:, None], self.b, self.c.N)
        else:
            logf = -0.5 * grid**2
        f = np.exp(logf - logf.max(1, keepdims=True))
        cdf = np.cumsum(np.concatenate([np.zeros((f.shape[0], 1)), f[:, 1:] + f[:, :-1]], 1), 1)
        cdf /= cdf[:, -1:]
        # first grid interval where the CDF reaches q, then linear interpolation inside it
        j = np.clip((cdf < q).sum(1), 1, n_grid - 1)
        r = np.arange(grid.shape[0])
        c0, c1 = cdf[r, j - 1], cdf[r, j]
        frac = np.where(c1 > c0, (q - c0) / np.where(c1 > c0, c1 - c0, 1.0), 0.0)
        return grid[r, j - 1] + frac * (grid[r, j] - grid[r, j - 1])

    def node_quantile(self, q) -> np.ndarray:
        """Posterior ``q``-quantile per group read off the discrete posterior on the fixed
        quadrature nodes of the N(0, 1) population (Ranking Reasoning LLMs under Test-Time
        Scaling (2026), Algorithm 7 steps 11 and 13): ``w_uq ∝ p(k_u | θ_q, b) w_q``; the score is
        the smallest node whose cumulative weight reaches ``q``. A step function of the data: groups
        with different totals can share a node (and so tie)."""
        x = self.x
        if self.b.size:
            logw = (
                np.log(self.wq)
                + 0.5 * x**2
                + _log_post(
                    np.broadcast_to(x, (self.s.size, x.size)), self.s[:, None], self.b, self.c.N
                )
            )
        else:
            logw = np.broadcast_to(np.log(self.wq), (self.s.size, x.size))
        w = np.exp(logw - logw.max(1, keepdims=True))
        cdf = np.cumsum(w, 1)
        cdf /= cdf[:, -1:]
        j = np.minimum((cdf < q).sum(1), x.size - 1)  # first node with CDF >= q
        return x[j]

    def item_params(self) -> dict:
        _, sd = self.eap()
        return {
            "difficulty": self.c.expand_items(self.b),
            "ability_sd": sd[self.inv],
            "converged": self.converged,
        }


@_irt_ranker("Rasch marginal ML by EM over quadrature, EAP abilities (002 Algorithm 7)")
def rasch_mml(
    R,
    max_iter: int = 100,
    em_iter: int = 20,
    n_quadrature: int = 21,
    return_item_params: bool = False,
):
    """Rank models by EAP abilities under Rasch marginal maximum likelihood (Ranking Reasoning LLMs
    under Test-Time Scaling (2026), Algorithm 7).

    Abilities are integrated out under the standard normal population, item
    difficulties are fitted by EM (Bock & Aitkin 1981), and each model is
    scored by its posterior mean ``E[θ_l | k_l, b]``.

    E-step: each posterior is evaluated on ``n_quadrature`` Gauss-Hermite
    nodes *adapted* to it (centred at its mode, scaled by its Laplace s.d.).
    M-step: each item's expected complete-data log-likelihood is concave in
    ``b_m``; all items are solved together by safeguarded Newton (at most
    ``max_iter`` steps). The likelihood only sees ``θ - b``, so the location is
    held by the population alone and plain EM creeps along it; a parameter-
    expanded step (PX-EM: fit the population mean too, then shift it back to 0)
    removes that, and EM converges in a few iterations. EM stops after
    ``em_iter`` iterations or when no difficulty moves by ``1e-9``.

    With many trials per question a model's posterior (3.2) is far narrower
    than the spacing of fixed nodes, so fixed-node sums lose it; adaptive nodes
    integrate it accurately, the closed-form Newton M-step needs no line
    search, and PX-EM reaches the MML optimum in a few iterations
    (``item_params["converged"]``).

    Under the Rasch model the posterior depends on ``k_l`` only through the
    total ``s_l`` and the EAP is strictly increasing in it: the ranking is the
    ranking by total correct answers, equal totals giving equal scores.
    Difficulties are not centred (the N(0, 1) population fixes the location;
    Ranking Reasoning LLMs under Test-Time Scaling (2026), Algorithm 7 step 9 centres them, which
    would fight the population mean, and the reference does not either).

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    max_iter : int, default 100
        Maximum Newton steps in each M-step.
    em_iter : int, default 20
        Maximum EM iterations.
    n_quadrature : int, default 21
        Gauss-Hermite nodes per model (>= 2).
    return_item_params : bool, default False
        Also return ``{"difficulty", "ability_sd" (posterior s.d.), "converged"}``.

    Examples
    --------
    >>> import numpy as np
    >>> from scorio_core.rank import irt
    >>> R = np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]]])
    >>> irt.rasch_mml(R).tolist()
    [1, 2]
    """
    m = _MML(_Counts(R), max_iter, em_iter, n_quadrature)
    return m.eap()[0][m.inv], m.item_params()


@_irt_ranker(
    "Rasch MML posterior quantile of ability on the quadrature nodes: conservative "
    "ranking (002 Algorithm 7)",
    variants={"rasch_mml_credible": {"quantile": 0.05}},
)
def rasch_mml_credible(
    R,
    quantile: float = 0.05,
    max_iter: int = 100,
    em_iter: int = 20,
    n_quadrature: int = 21,
    cdf: Literal["nodes", "continuous"] = "nodes",
):
    """Rank models by a posterior quantile ``Q_q(θ_l | k_l)`` under Rasch MML.

    Difficulties come from :func:`rasch_mml`. Two readings of the quantile:

    * ``cdf="nodes"`` (default, Ranking Reasoning LLMs under Test-Time Scaling (2026), Algorithm 7
      step 13, as the reference): the discrete posterior ``w_lq ∝ p(k_l | θ_q, b) w_q`` on the
      ``n_quadrature`` fixed Gauss-Hermite nodes of the N(0, 1) population; the
      score is the smallest node whose cumulative weight reaches ``q``. This is
      a step function of the data: models whose totals differ but whose
      quantiles fall on the same node tie, which is what sets this method
      apart from ``avg`` in Ranking Reasoning LLMs under Test-Time Scaling (2026), Table 2.
    * ``cdf="continuous"``: the posterior CDF integrated (trapezoid) on 401
      points over ±10 posterior s.d. around each mode and inverted by linear
      interpolation. It moves continuously with the data and increases with
      the total ``s_l``, so it ranks exactly like ``avg``.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    quantile : float, default 0.05
        Posterior quantile in ``(0, 1)`` (low = conservative).
    max_iter, em_iter, n_quadrature
        As in :func:`rasch_mml`.
    cdf : {"nodes", "continuous"}, default "nodes"
        Which posterior CDF the quantile is read from (see above).

    Returns
    -------
    ranks, or (ranks, scores)

    Examples
    --------
    >>> import numpy as np
    >>> from scorio_core.rank import irt
    >>> R = np.array([[[1, 1], [1, 0]], [[0, 0], [1, 0]]])
    >>> ranks, lower = irt.rasch_mml_credible(R, quantile=0.1, return_scores=True)
    >>> ranks.tolist(), bool(lower[0] > lower[1])
    ([1, 2], True)
    """
    q = float(quantile)
    if not 0 < q < 1:
        raise ValidationError(f"quantile must lie strictly between 0 and 1; got {quantile!r}")
    check_choice("cdf", cdf, ("nodes", "continuous"))
    m = _MML(_Counts(R), max_iter, em_iter, n_quadrature)
    scores = m.node_quantile(q) if cdf == "nodes" else m.quantile(q)
    return scores[m.inv], m.item_params()
