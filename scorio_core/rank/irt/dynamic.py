"""Dynamic Rasch IRT over the trial axis (Ranking Reasoning LLMs under Test-Time Scaling (2026),
App. I.1.8, Algorithm 8).

Trials ``n`` happen at times ``t_n`` in ``[0, 1]``; the ability follows a path
``θ_ln``::

    (4.1)  P(R_lmn = 1) = σ(θ_ln - b_m)
    (4.2)  θ_ln = θ0_l + θ1_l t_n,   penalty  slope_reg Σ_l θ1_l²           (growth)
    (4.3)  θ_ln free,   penalty  state_reg Σ_{n>0} (θ_ln - θ_l,n-1)² / (t_n - t_n-1)
                        + 1e-3 Σ_l θ_l0²                                     (state space)

With a flat path (``variant="linear"``) (4.1) is the Rasch model (eq. 2) and the
fit is :func:`~.onepl.rasch`'s. The growth objective is smooth and strictly
convex: Newton's method with the Schur complement of the item block
(``_kernels.growth_newton``), from the static Rasch fit. The state-space
objective takes the shared L-BFGS loop (:func:`~._base._solve`). Models with the
same sufficient statistics (totals and time-weighted totals; per-trial totals
for the state space) share one path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
from scipy import special

from ..._validation import ValidationError, as_numbers, check_choice, check_int, check_number
from ..priors import UniformPrior
from ._base import _RIDGE, _converged, _Counts, _groups, _irt_ranker, _solve, _sp_sig
from .onepl import _rasch_fit

__all__ = ["dynamic_irt"]


def _growth_nll(c_ln, tm, t, w, slope_reg):
    """Growth objective: the Bernoulli NLL of (4.1)-(4.2) with its slope penalty and the
    vague ridge, with its gradient.

    Read through the sufficient statistics: ``c_ln (G, N)`` correct answers of each
    model group per trial, ``tm (M,)`` item totals over all models, group
    multiplicities ``w``. ``x = [θ0 (G, centred), θ1 (G), b (M)]``.
    """
    G = c_ln.shape[0]
    s0, s1 = w * c_ln.sum(1), w * (c_ln @ t)  # Σ_mn R, Σ_mn R t_n per group
    W = w.sum()

    from ._kernels import growth_sums  # compiled fused sums (no (G, M, N) arrays)

    def nll_grad(x):
        th0, th1, b = x[:G] - (w @ x[:G]) / W, x[G : 2 * G], x[2 * G :]
        u = th0[:, None] + th1[:, None] * t  # (G, N) ability paths
        sp, sig_gn, sig_gm = growth_sums(np.ascontiguousarray(u), np.ascontiguousarray(b))
        f = tm @ b - s0 @ th0 - s1 @ th1 + w @ sp
        f += 0.5 * _RIDGE * (w @ th0**2 + b @ b)
        P = sig_gn * w[:, None]  # (G, N)
        g0 = P.sum(1) - s0 + _RIDGE * w * th0
        g1 = P @ t - s1 + 2 * slope_reg * w * th1
        g = np.concatenate([g0 - w * g0.sum() / W, g1, tm - w @ sig_gm + _RIDGE * b])
        return f + slope_reg * w @ th1**2, g

    return nll_grad


def _state_space_nll(c_ln, tm, t, w, state_reg):
    """State-space objective: the NLL of (4.1) with a free path and penalty (4.3) (its
    ``1e-3`` anchor as in the reference's ``state_space`` variant), ``b`` centred, with
    its gradient. Statistics as in :func:`_growth_nll`.
    """
    G, N = c_ln.shape
    c_ln = w[:, None] * c_ln
    dt = np.diff(t)

    def nll_grad(x):
        th = x[: G * N].reshape(G, N)
        b = x[G * N :] - x[G * N :].mean()
        sp, sig = _sp_sig(th[:, None, :] - b[None, :, None])
        step = np.diff(th, axis=1)
        f = tm @ b - np.sum(c_ln * th) + w @ sp.sum((1, 2)) + 0.5 * _RIDGE * b @ b
        f += state_reg * w @ (step**2 / dt).sum(1) + 1e-3 * w @ th[:, 0] ** 2
        g = w[:, None] * sig.sum(1) - c_ln
        rw = 2 * state_reg * w[:, None] * step / dt
        g[:, 1:] += rw
        g[:, :-1] -= rw
        g[:, 0] += 2e-3 * w * th[:, 0]
        gb = tm - w @ sig.sum(2) + _RIDGE * b
        return f, np.concatenate([g.ravel(), gb - gb.mean()])

    return nll_grad


_TARGETS = {
    "initial": "initial",
    "baseline": "initial",
    "start": "initial",
    "final": "final",
    "end": "final",
    "mean": "mean",
    "average": "mean",
    "gain": "gain",
    "delta": "gain",
    "trend": "gain",
}


def _time_grid(time_points, N) -> np.ndarray:
    if time_points is None:
        return np.linspace(0.0, 1.0, N) if N > 1 else np.zeros(1)
    t = np.asarray(as_numbers(time_points, "time_points", kind=float, example="0,1,3,7"),
                   dtype=float)  # "0,1,3,7" as typed, not one text
    if t.size != N or not np.all(np.isfinite(t)) or np.any(np.diff(t) <= 0):
        raise ValidationError(
            f"time_points must be {N} finite, strictly increasing times (one per trial); got "
            f"{np.asarray(time_points).tolist()!r}"
        )
    return (t - t[0]) / (t[-1] - t[0]) if N > 1 else np.zeros(1)


def _dynamic_fit(
    c: _Counts, variant, max_iter, time_points, score_target, slope_reg, state_reg,
    solver="newton",
):
    """Fit (4.1) with path (4.2) or (4.3), or the flat path: ``(scores (L,), item_params)``;
    ``solver="lbfgs"`` forces the general path (tests)."""
    if variant == "linear":
        return _rasch_fit(c, None, max_iter, solver)
    check_choice("variant", variant, ("linear", "growth", "state_space"))
    if score_target is None:  # 002 Algorithm 8 returns θ̂0; the state-space path its end
        score_target = "initial" if variant == "growth" else "final"
    check_choice("score_target", score_target, tuple(_TARGETS))
    reg_name, reg = ("slope_reg", slope_reg) if variant == "growth" else ("state_reg", state_reg)
    check_number(reg_name, reg)  # must be positive for this variant
    max_iter = check_int("max_iter", max_iter)
    t = _time_grid(time_points, c.N)
    Ri = c.R[:, c.keep, :]
    Mi = Ri.shape[1]
    # sufficient statistics: totals and time-weighted totals (growth), per-trial totals (path)
    if variant == "state_space":
        stat = Ri.sum(1)
    else:
        stat = np.column_stack([Ri.sum((1, 2)), Ri.sum(1) @ t])
    first, inv, w = _groups(stat, UniformPrior())
    G = first.size
    extra = {}
    if Mi == 0:  # no informative item: flat, tied paths
        path, b, ok = np.zeros((G, c.N)), np.zeros(0), True
        if variant == "growth":
            extra = {"baseline": np.zeros(c.L), "slope": np.zeros(c.L)}
    else:
        # Start from the static Rasch fit (flat paths), which is the N = 1 answer.
        th_r, items_r = _rasch_fit(c, None, max_iter, solver)
        base, b0 = th_r[first], items_r["difficulty"][c.keep]
        tm = Ri.sum((0, 2)).astype(float)  # item totals over all models
        if variant == "growth" and solver == "newton":
            # smooth, strictly convex: Newton with the Schur complement of the item block
            from ._kernels import growth_newton

            c_ln = Ri[first].sum(1).astype(float)
            loc = (w @ base) / w.sum()  # start in the fit's gauge (centred abilities)
            th0, th1, b, gmax, _ = growth_newton(
                w * c_ln.sum(1), w * (c_ln @ t), tm, w, t, _RIDGE, float(reg),
                base - loc, np.zeros(G), b0 - loc,
                max_iter, 1e-11,
            )
            ok = _converged(gmax)
            x = np.concatenate([th0, th1, b])
        elif variant == "growth":
            sig = special.expit(base[:, None] - b0)  # flat paths at the start
            h = w[:, None] * sig * (1 - sig)  # (G, M) information per trial
            curv = [h.sum(1) * c.N, h.sum(1) * (t @ t) + 2 * reg * w, h.sum(0) * c.N]
            x, ok = _solve(
                _growth_nll(Ri[first].sum(1), tm, t, w, reg),
                np.concatenate([base, np.zeros(G), b0]),
                max_iter,
                curvature=np.concatenate(curv),
            )
        if variant == "growth":
            th0, th1, b = x[:G] - (w @ x[:G]) / w.sum(), x[G : 2 * G], x[2 * G :]
            shift = b.mean()  # report with Σ b = 0 (002 Algorithm 8)
            th0, b = th0 - shift, b - shift
            path = th0[:, None] + th1[:, None] * t
            extra = {"baseline": th0[inv], "slope": th1[inv]}
        else:
            x, ok = _solve(
                _state_space_nll(Ri[first].sum(1), tm, t, w, reg),
                np.concatenate([np.repeat(base, c.N), b0]),
                max_iter,
            )
            path = x[: G * c.N].reshape(G, c.N)
            b = x[G * c.N :] - x[G * c.N :].mean()
    target = _TARGETS[score_target]
    scores = {
        "initial": path[:, 0],
        "final": path[:, -1],
        "mean": path.mean(1),
        "gain": path[:, -1] - path[:, 0],
    }[target]
    items = {"difficulty": c.expand_items(b), "ability_path": path[inv], "time_points": t}
    return scores[inv], {**items, **extra, "converged": ok}


@_irt_ranker(
    "dynamic Rasch over the trial axis: static, or linear growth scored by the baseline "
    "ability (002 Algorithm 8)",
    variants={
        "dynamic_irt_linear": {"variant": "linear"},
        "dynamic_irt_growth": {"variant": "growth"},
    },
)
def dynamic_irt(
    R,
    variant: Literal["linear", "growth", "state_space"] = "linear",
    max_iter: int = 500,
    return_item_params: bool = False,
    time_points: Sequence[float] | np.ndarray | str | None = None,
    score_target: str | None = None,
    slope_reg: float = 0.01,
    state_reg: float = 1.0,
    assume_time_axis: bool = False,
):
    """Rank models with dynamic IRT: ability paths over the trial axis (Ranking Reasoning LLMs under
    Test-Time Scaling (2026), App. I.1.8).

    * ``variant="linear"``: the static baseline ``θ_ln = θ_l`` (no trend), i.e.
      the Rasch model on the counts, identical to :func:`rasch` (Ranking Reasoning LLMs under
      Test-Time Scaling (2026), App. C's result tables put ``dynamic_irt_linear`` in every tie group
      of ``rasch``).
    * ``variant="growth"`` (Ranking Reasoning LLMs under Test-Time Scaling (2026), Algorithm 8):
      ``P(R_lmn = 1) = σ(θ0_l + θ1_l t_n
      - b_m)`` on the Bernoulli likelihood of every trial, ``t_n`` equally spaced
      in ``[0, 1]``, penalty ``slope_reg Σ θ1²``, reported with ``Σ b = 0``;
      Newton's method (compiled, Schur complement of the item block) from the
      static Rasch fit (flat paths).
    * ``variant="state_space"``: a free path ``θ_ln`` with the random-walk
      penalty ``state_reg Σ_{n>0} (θ_ln - θ_l,n-1)² / (t_n - t_n-1) + 1e-3 Σ θ_l0²``.

    Scores of the longitudinal variants are read off the path by
    ``score_target``: ``"initial"`` (``θ(t_1) = θ̂0``, the baseline ability that
    Ranking Reasoning LLMs under Test-Time Scaling (2026), Algorithm 8 returns; the default for
    ``growth``), ``"final"`` (``θ(t_N)``; the reference package's default, and ours for
    ``state_space``), ``"mean"`` (average over trials) or ``"gain"`` (``θ(t_N) -
    θ(t_1)``); aliases ``baseline``/``start``, ``end``, ``average``,
    ``delta``/``trend``. On i.i.d. trials the two readings of ``growth`` agree up
    to the small fitted slopes; they differ where a model's accuracy drifts over
    the trials (``θ̂0`` ranks where each model started, ``θ(t_N)`` where it ended).

    Unlike the reference, the longitudinal variants do not require
    ``assume_time_axis=True`` (accepted and ignored): Ranking Reasoning LLMs under Test-Time
    Scaling (2026), Algorithm 8 defines ``t_n`` on the trial axis and on i.i.d. trials the slope
    penalty keeps the fitted trends small, so the fit is sound either way. With ``N = 1`` the
    single time point is ``t = 0``, the slope has no data and the growth model
    reduces to Rasch (the reference refuses ``N = 1``).

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    variant : {"linear", "growth", "state_space"}, default "linear"
    max_iter : int, default 500
        Maximum Newton steps (``linear``, ``growth``) or L-BFGS iterations
        (``state_space``).
    return_item_params : bool, default False
        Also return ``{"difficulty", "converged"}`` (linear), plus
        ``"ability_path"`` (L, N) and ``"time_points"`` (longitudinal variants)
        and ``"baseline"``, ``"slope"`` (growth).
    time_points : array_like, optional
        Increasing times of the N trials (rescaled to ``[0, 1]``); a list, an array or one
        comma-separated string (``"0,1,3,7"``).
    score_target : str, optional
        Default ``None``: ``"initial"`` for ``growth`` (Ranking Reasoning LLMs under Test-Time
        Scaling (2026), Algorithm 8), ``"final"`` for ``state_space``.
    slope_reg, state_reg : float, default 0.01, 1.0
        Positive penalty weights of the growth and state-space variants.
    assume_time_axis : bool, default False
        Accepted for compatibility with the reference; not required.

    Examples
    --------
    >>> import numpy as np
    >>> from scorio_core.rank import irt
    >>> R = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0]])
    >>> irt.dynamic_irt(R, variant="linear").tolist()
    [1, 2, 2]
    """
    c = _Counts(R)
    return _dynamic_fit(c, variant, max_iter, time_points, score_target, slope_reg, state_reg)
