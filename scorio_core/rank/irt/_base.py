"""What every IRT family shares: the standard form of the data, model groups, the
prior seen from the fitted coordinates, the one L-BFGS fitting loop with its
stopping rule, and the ranker decorator."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
from scipy import special

from ..._validation import ValidationError
from .._optim import fit
from .._stats import as_binary, solve_counts
from ..priors import CauchyPrior, EmpiricalPrior, GaussianPrior, LaplacePrior, Prior, UniformPrior
from ..registry import ranker

#: Precision of the vague Gaussian penalty on abilities and difficulties that keeps
#: estimates finite where the MLE does not exist (extreme or separated rows).
_RIDGE = 1e-6
#: A fit counts as converged when max |gradient| of its objective is below this.
_CONVERGED_GRAD = 0.05


def _converged(grad) -> bool:
    """The one stopping verdict of every joint fit: max |gradient| <= ``_CONVERGED_GRAD``."""
    return bool(np.max(np.abs(grad), initial=0.0) <= _CONVERGED_GRAD)


def _sp_sig(eta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``softplus(η) = log(1 + e^η)`` and ``σ(η)``, stably, from one exponential."""
    e = np.exp(-np.abs(eta))
    r = 1.0 / (1.0 + e)
    return np.maximum(eta, 0.0) + np.log1p(e), np.where(eta >= 0, r, e * r)


class _Counts:
    """The standard form every family reads: binary ``R (L, M, N)``, the binomial
    counts ``k_lm = Σ_n R_lmn`` (eq. 1), and the split into informative items and
    constant ones (solved by every model on every trial, or by none)."""

    def __init__(self, R):
        R = as_binary(R)
        self.R = R
        self.L, self.M, self.N = R.shape
        self.k = solve_counts(R)
        t = self.k.sum(0)
        self.keep = (t > 0) & (t < self.L * self.N)
        # Constant items: all-correct -> difficulty -inf, all-wrong -> +inf.
        self.const_b = np.where(t > 0, -np.inf, np.inf)
        self.ki = self.k[:, self.keep]  # (L, M') informative items only

    def expand_items(self, vals: np.ndarray, fill=None) -> np.ndarray:
        """Item vector over all M items; constant items get ``fill`` (default ±inf)."""
        out = np.array(self.const_b if fill is None else np.broadcast_to(fill, self.M), float)
        out[self.keep] = vals
        return out


def _init_logits(successes, n_trials):
    """Logits of smoothed rates (add one half), the start of every ability and difficulty."""
    return special.logit((np.asarray(successes, float) + 0.5) / (n_trials + 1.0))


# ------------------------------------------------------------------ model groups


def _prior_key(prior: Prior, L: int) -> np.ndarray:
    """Per-model prior information: models may share a parameter only if it is equal."""
    if isinstance(prior, UniformPrior):
        return np.zeros((L, 0))
    if isinstance(prior, EmpiricalPrior):
        mu = np.asarray(prior.prior_mean, float).ravel()
        if mu.size != L:
            raise ValidationError(
                f"EmpiricalPrior was built from R0 with {mu.size} models; R has {L}"
            )
        return mu[:, None]
    loc = {GaussianPrior: "mean", LaplacePrior: "loc", CauchyPrior: "loc"}.get(type(prior))
    if loc is not None:
        return np.broadcast_to(np.asarray(getattr(prior, loc), float), (L,)).reshape(L, 1)
    return np.arange(L, dtype=float)[:, None]  # unknown prior: never merge models


def _groups(stat: np.ndarray, prior: Prior) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge models with equal sufficient statistic and prior: ``(first, inv, size)``.

    Groups come in sorted order of their statistic, so the fit does not depend on the
    order of the models.
    """
    L = stat.shape[0]
    key = np.column_stack([stat.reshape(L, -1).astype(float), _prior_key(prior, L)])
    _, first, inv = np.unique(key, axis=0, return_index=True, return_inverse=True)
    inv = inv.ravel()
    return first, inv, np.bincount(inv).astype(float)


def _exchangeable(prior: Prior, L: int) -> bool:
    """Whether the prior treats every model alike (then its order of evaluation is free)."""
    key = _prior_key(prior, L)
    return key.shape[1] == 0 or bool(np.all(key == key[0]))


@dataclasses.dataclass(frozen=True, eq=False)
class _AbilityPrior(Prior):
    """The user's prior on all L abilities, seen from the fitted coordinates.

    The likelihoods are invariant to a common shift of abilities and
    difficulties (and, in 2PL/3PL, to a rescaling of abilities against
    discriminations). The NLLs therefore see centred abilities only, and under
    a prior the shift ``c`` (and log-scale ``γ``) are separate coordinates that
    only the prior (and penalty) see: ``v = [θ_raw (G), c, γ]`` gives
    ``θ_l = (θ_raw - mean_w θ_raw)_g(l) e^{-γ} + c``. Without these coordinates
    L-BFGS crawls along directions that only the weak prior curves.
    """

    prior: Prior
    inv: np.ndarray
    w: np.ndarray
    scaled: bool = False

    def __post_init__(self):
        if _exchangeable(self.prior, self.inv.size):
            # evaluate in group order: bit-for-bit independent of the order of the models
            object.__setattr__(self, "inv", np.repeat(np.arange(self.w.size), self.w.astype(int)))

    def _parts(self, v):
        G = self.w.size
        th = v[:G] - (self.w @ v[:G]) / self.w.sum()
        scale = np.exp(-v[G + 1]) if self.scaled else 1.0
        return th, scale, (th * scale + v[G])[self.inv]

    def penalty(self, v):
        return self.prior.penalty(self._parts(v)[2])

    def sym_curvature(self, v, h=1e-4) -> np.ndarray:
        """Finite-difference curvature of the penalty along the symmetry coordinates."""
        G, out = self.w.size, []
        for j in range(G, v.size):
            e = np.zeros_like(v)
            e[j] = h
            out.append((self.grad(v + e)[j] - self.grad(v - e)[j]) / (2 * h))
        return np.maximum(np.nan_to_num(np.array(out), nan=1.0), 1e-2)

    def grad(self, v):
        th, scale, full = self._parts(v)
        g = np.bincount(self.inv, np.asarray(self.prior.grad(full), float), minlength=th.size)
        out = [(g - self.w * g.sum() / self.w.sum()) * scale, [g.sum()]]
        return np.concatenate(out + ([[-scale * (g @ th)]] if self.scaled else []))


@dataclasses.dataclass(frozen=True, eq=False)
class _Rescaled(Prior):
    """A prior on ``x`` seen from the scaled coordinates ``y = d · x``."""

    prior: Prior
    d: np.ndarray

    def penalty(self, y):
        return self.prior.penalty(y / self.d)

    def grad(self, y):
        return self.prior.grad(y / self.d) / self.d


# ------------------------------------------------------------- the fitting loop


def _solve(nll_grad, x0, max_iter, prior=None, n_prior=0, curvature=None, tie=None):
    """Minimise objective (7) by L-BFGS (:func:`~scorio_core.rank._optim.fit`) in
    diagonally preconditioned coordinates, then apply the stopping verdict.

    ``curvature`` estimates the Hessian diagonal at ``x0`` (expected information);
    L-BFGS then works on ``y = sqrt(curvature) · x``, where the problem is far
    better conditioned. The prior acts on ``x[:n_prior]``. ``tie`` (optional,
    one int per coordinate) restricts the fit to ``x = u[tie]``: coordinates with
    the same label share one value (the orbits of the data's symmetries,
    :func:`~.xpl._colour_classes`). Returns ``(x, converged)``.
    """
    if tie is not None:
        k = int(tie.max()) + 1
        full = nll_grad

        def objective(x):
            f, g = full(x)
            if prior is not None:
                f = f + prior.penalty(x[:n_prior])
                g = np.array(g, dtype=float, copy=True)
                g[:n_prior] += prior.grad(x[:n_prior])
            return f, g

        def reduced(u):
            f, g = objective(u[tie])
            return f, np.bincount(tie, g, minlength=k)

        u0 = np.bincount(tie, x0, minlength=k) / np.bincount(tie, minlength=k)
        cu = None if curvature is None else np.bincount(tie, curvature, minlength=k)
        u, _ = _solve(reduced, u0, max_iter, curvature=cu)
        x = u[tie]
        return x, _converged(np.asarray(objective(x)[1], dtype=float))
    d = np.ones_like(x0) if curvature is None else np.sqrt(np.maximum(curvature, 1e-4))

    def scaled(y):
        f, g = nll_grad(y / d)
        return f, g / d

    kw = {}
    if prior is not None:
        kw = {"prior": _Rescaled(prior, d[:n_prior]), "prior_slice": slice(0, n_prior)}
    x = fit(scaled, x0 * d, max_iter=max_iter, **kw) / d
    g = np.array(nll_grad(x)[1], dtype=float)
    if prior is not None:
        g[:n_prior] += prior.grad(x[:n_prior])
    return x, _converged(g)


# ------------------------------------------------------------------ the rankers


def _irt_ranker(description: str, *, variants=None):
    """:func:`ranker` for a fit function ``f(R, **params) -> (scores, item_params)``.

    With ``return_item_params=True`` the ranker returns ``(ranks, scores,
    item_params)`` (scores implied, as in the reference package); otherwise the
    shared contract ``ranks`` / ``(ranks, scores)``.
    """

    def decorate(fit_fn):
        @functools.wraps(fit_fn)
        def score_fn(R, *args, return_item_params=False, **kwargs):
            scores, items = fit_fn(R, *args, **kwargs)
            return (scores, items) if return_item_params else scores

        return ranker("irt", description, variants=variants, extra_output="return_item_params")(
            score_fn
        )

    return decorate
