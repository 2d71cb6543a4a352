"""2PL and 3PL joint ML and MAP: one objective for both models.

Slope-intercept form (eqs. 3-4, Ranking Reasoning LLMs under Test-Time Scaling (2026), eqs. 55-56),
``a_m = exp(α_m)``::

    (2.1)  η_lm = a_m θ_l + d_m,   b_m = -d_m / a_m
    (2.2)  p_lm = c_m + (1 - c_m) σ(η_lm),   c_m = u σ(z_m)  (or fixed; c = 0 is 2PL)
    (2.3)  NLL = -Σ_lm [k_lm log p_lm + (N - k_lm) log(1 - p_lm)]
                 + reg_a Σ_m α_m² + reg_c Σ_m z_m²

minimised as objective (7) by the shared L-BFGS loop (:func:`~._base._solve`);
the NLL and its gradient are one compiled pass (``_kernels.xpl_nll_grad``). The
intercepts ``d_m`` stay well conditioned when a discrimination is small, where
``b_m`` is nearly unidentified; the bounded transform of ``c_m`` (``u`` =
``guessing_upper``) needs no box constraints.

The likelihood is invariant to shifts ``(θ + s, d - a s)`` and rescalings
``(θ e^{-γ}, α + γ)``. The NLL sees ``θ`` and ``α`` centred: under the uniform
prior that loses nothing (the penalty is smallest at ``Σ α = 0``, so the ML
optimum lies there); under a prior the symmetry coordinates ``[shift, γ]`` are
explicit and only the prior (:class:`~._base._AbilityPrior`) and the penalty
``reg_a M γ²`` see them. ML fits are reported with median ability 0 (``Σ b = 0``
is ill-conditioned: an item with discrimination near 0 has a huge ``|b_m|``);
under a prior the location is identified and nothing is centred.

The penalised 2PL/3PL likelihood is non-convex. Coordinates that a symmetry of
the data exchanges (:func:`_colour_classes`) share one value during the fit, so
symmetric models tie exactly instead of being split by round-off. With the
default weak penalties on many trials the 3PL objective often has no interior
optimum (a few items become ever steeper to fit model-by-item noise): the
estimate is then the deterministic ``max_iter``-step iterate of Ranking Reasoning LLMs under
Test-Time Scaling (2026), Algorithm 6 (``item_params["converged"]`` False), and ``fix_guessing`` or
a larger ``reg_discrimination`` make the problem well posed. On a single trial neither
fit converges within ``max_iter``, so the ranking of such an iterate depends on
floating-point round-off (``tests/engines/test_stability_irt.py`` bounds how much).
Every fit starts cold, as Ranking Reasoning LLMs under Test-Time Scaling (2026), Algorithm 6 says.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from ..._validation import ValidationError, check_int, check_number
from ..priors import Prior, UniformPrior, as_prior
from ._base import (
    _RIDGE,
    _AbilityPrior,
    _Counts,
    _groups,
    _init_logits,
    _irt_ranker,
    _prior_key,
    _solve,
)

__all__ = ["rasch_2pl", "rasch_2pl_map", "rasch_3pl", "rasch_3pl_map"]


def _colour_classes(K: np.ndarray, model_key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Orbit candidates of the count matrix ``K (G, M)`` under model and item relabelling.

    Colour refinement (1-dimensional Weisfeiler-Leman) of the bipartite graph with
    edge weights ``K``: a model's colour is refined by the multiset of ``(K_gm,
    colour of m)`` over items, an item's by the multiset of ``(K_gm, colour of g)``
    over models, until stable. Models start from ``model_key`` (multiplicity and
    prior), items alike. On the resulting equitable partition every
    per-coordinate gradient of a likelihood ``Σ_gm f(θ_g, β_m; K_gm)`` (times
    exchangeable penalties) is the same within a class whenever the parameters
    are, so the fit restricted to class-constant parameters is a critical point
    of the full fit (symmetric criticality). Returns ``(model class (G,), item
    class (M,))`` as labels ``0..``.
    """
    G, M = K.shape
    mc = np.unique(model_key, axis=0, return_inverse=True)[1].ravel()
    ic = np.zeros(M, dtype=np.int64)
    Ki = K.astype(np.int64)
    n_m, n_i = -1, -1
    while True:
        sig_m = np.sort(Ki * (ic.max() + 1) + ic[None, :], axis=1)
        mc = np.unique(np.column_stack([mc, sig_m]), axis=0, return_inverse=True)[1].ravel()
        sig_i = np.sort(Ki.T * (mc.max() + 1) + mc[None, :], axis=1)
        ic = np.unique(np.column_stack([ic, sig_i]), axis=0, return_inverse=True)[1].ravel()
        cm, ci = int(mc.max()) + 1, int(ic.max()) + 1
        if (cm, ci) == (n_m, n_i):
            return mc, ic
        n_m, n_i = cm, ci


def _xpl_nll(K, w, N, *, guess, upper, fixed_c, reg_a, reg_c, n_sym):
    """NLL (2.3) plus the vague ridge, with its gradient, on distinct count rows
    ``K (G, M)`` with multiplicities ``w``.

    ``x = [θ (G), <n_sym symmetry coordinates>, d (M), α (M), z (M, estimated
    guessing only)]``; with ``n_sym = 2`` the coordinates are ``[shift, γ]`` and
    the penalty includes ``reg_a M γ²`` (``log a = α + γ``).
    """
    from ._kernels import xpl_nll_grad

    Kf = np.ascontiguousarray(K, dtype=float)
    w = np.ascontiguousarray(w, dtype=float)
    if guess and fixed_c is not None and float(fixed_c) == 0.0:
        guess = False  # c = 0 is the 2PL model
    free_c = guess and fixed_c is None
    c_fix = 0.0 if fixed_c is None else float(fixed_c)
    args = (Kf, w, float(N), n_sym, guess, free_c, float(upper), c_fix, float(reg_a),
            float(reg_c), _RIDGE)

    def nll_grad(x):
        return xpl_nll_grad(np.ascontiguousarray(x, dtype=float), *args)

    return nll_grad


def _xpl_fit(c: _Counts, prior, max_iter, guess, reg_discrimination, fix_guessing=None,
             reg_guessing=0.0, guessing_upper=0.5):
    """Minimise (7) with NLL (2.3): ``(scores (L,), item_params)``; ``prior=None`` is ML,
    ``guess=False`` the 2PL model."""
    prior = as_prior(prior)
    max_iter = check_int("max_iter", max_iter)
    reg_a = check_number("reg_discrimination", reg_discrimination, positive=False)
    reg_c = check_number("reg_guessing", reg_guessing, positive=False)
    upper = float(guessing_upper)
    if not 0 < upper < 1:
        raise ValidationError(f"guessing_upper must lie in (0, 1); got {guessing_upper!r}")
    if fix_guessing is not None and not 0 <= float(fix_guessing) <= upper:
        raise ValidationError(
            f"fix_guessing must lie in [0, guessing_upper={upper}]; got {fix_guessing!r}"
        )
    free_c = guess and fix_guessing is None
    c_start = (upper / 2 if free_c else float(fix_guessing)) if guess else 0.0
    if not c.keep.any():  # no information: every model tied
        out = {"difficulty": c.const_b.copy(), "discrimination": np.ones(c.M)}
        if guess:
            out["guessing"] = np.full(c.M, c_start)
        return np.zeros(c.L), {**out, "converged": True}
    ml = isinstance(prior, UniformPrior)
    first, inv, w = _groups(c.ki, prior)
    K = c.ki[first]
    G, Mi = K.shape
    n_sym = 0 if ml else 2
    # 002 Algorithm 6 start: abilities and intercepts from logits of the solve rates,
    # a = 1, c = guessing_upper / 2 (z = 0; 0.25 at the default bound).
    x0 = [_init_logits(K.sum(1), Mi * c.N), np.zeros(n_sym), _init_logits(c.ki.sum(0), c.L * c.N)]
    x0 += [np.zeros(Mi), np.zeros(Mi if free_c else 0)]
    nll = _xpl_nll(K, w, c.N, guess=guess, upper=upper, fixed_c=fix_guessing, reg_a=reg_a,
                   reg_c=reg_c, n_sym=n_sym)
    ap = None if ml else _AbilityPrior(prior, inv, w, scaled=True)
    # expected information at the start (a = 1, c = c_start): diagonal preconditioner
    th0 = x0[0] - (w @ x0[0]) / w.sum()
    sig = special.expit(th0[:, None] + x0[2])
    p = c_start + (1 - c_start) * sig
    dp = (1 - c_start) * sig * (1 - sig)  # dp/dη
    info = w[:, None] * c.N / (p * (1 - p))
    x0 = np.concatenate(x0)
    sym = np.ones(0) if ml else ap.sym_curvature(x0[: G + n_sym])
    sym[1:] += 2 * reg_a * Mi
    curv = [
        (info * dp**2).sum(1),
        sym,
        (info * dp**2).sum(0),
        (info * (dp * th0[:, None]) ** 2).sum(0) + 2 * reg_a,
    ]
    if free_c:
        curv.append((info * ((1 - sig) * c_start * (1 - c_start / upper)) ** 2).sum(0) + 2 * reg_c)
    # coordinates exchanged by a symmetry of the data share one value (exact ties)
    key = np.column_stack([w, _prior_key(prior, c.L)[first]])
    mcls, icls = _colour_classes(K, key)
    tie = None
    if mcls.max() + 1 < G or icls.max() + 1 < Mi:
        cm, ci = int(mcls.max()) + 1, int(icls.max()) + 1
        blocks = [mcls, cm + np.arange(n_sym), cm + n_sym + icls, cm + n_sym + ci + icls]
        if free_c:
            blocks.append(cm + n_sym + 2 * ci + icls)
        tie = np.concatenate(blocks).astype(np.int64)
    x, ok = _solve(nll, x0, max_iter, ap, G + n_sym, np.concatenate(curv), tie=tie)
    o = G + n_sym
    th, dd, alpha = x[:G] - (w @ x[:G]) / w.sum(), x[o : o + Mi], x[o + Mi : o + 2 * Mi]
    alpha = alpha - alpha.mean()
    if ml:
        b = -dd / np.exp(alpha)
        shift = -np.median(th[inv])  # report with median ability 0
    else:
        th, alpha = th * np.exp(-x[G + 1]), alpha + x[G + 1]
        b, shift = -dd / np.exp(alpha), x[G]
    out = {
        "difficulty": c.expand_items(b + shift),
        "discrimination": c.expand_items(np.exp(alpha), fill=1.0),
    }
    if guess:
        cm = upper * special.expit(x[o + 2 * Mi :]) if free_c else np.full(Mi, c_start)
        out["guessing"] = c.expand_items(cm, fill=c_start)
    return (th + shift)[inv], {**out, "converged": ok}


@_irt_ranker("2PL IRT joint ML with item discriminations (002 eq. 55)")
def rasch_2pl(
    R, max_iter: int = 500, return_item_params: bool = False, reg_discrimination: float = 0.01
):
    """Rank models by 2PL abilities, joint (penalised) ML (eq. 3, Ranking Reasoning LLMs under
    Test-Time Scaling (2026), eq. 55, Algorithm 6).

    ``k_lm ~ Binomial(N, σ(a_m (θ_l - b_m)))``: objective (2.3) with ``c = 0``,
    reported with median ability 0. Start: logits of the solve rates, ``a = 1``;
    then at most ``max_iter`` L-BFGS steps on the subspace ``Σ α = 0`` with
    centred abilities, where the flat shift and scale directions are gone.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    max_iter : int, default 500
        Maximum L-BFGS iterations.
    return_item_params : bool, default False
        Also return ``{"difficulty", "discrimination", "converged"}`` (constant
        items: ``±inf`` and 1).
    reg_discrimination : float, default 0.01
        Weight of the L2 penalty on ``log a`` (non-negative).

    Examples
    --------
    >>> import numpy as np
    >>> from scorio_core.rank import irt
    >>> R = np.array([[[1, 1], [1, 0], [0, 1]], [[1, 0], [0, 0], [0, 0]], [[0, 1], [1, 1], [0, 0]]])
    >>> irt.rasch_2pl(R).tolist()
    [1, 3, 2]
    """
    return _xpl_fit(_Counts(R), None, max_iter, False, reg_discrimination)


@_irt_ranker("2PL IRT MAP with a prior on abilities (002 eq. 55)")
def rasch_2pl_map(
    R,
    prior: Prior | float = 1.0,
    max_iter: int = 500,
    return_item_params: bool = False,
    reg_discrimination: float = 0.01,
):
    """2PL abilities by MAP: objective (7) of :func:`rasch_2pl` with the prior ``P(θ)``.

    The ability scale is then set by prior and penalty together; it is optimised
    as one coordinate ``γ`` (``θ = θ' e^{-γ}``, ``log a = α' + γ`` with ``Σ α' =
    0``) so that L-BFGS does not crawl along the scale valley. Difficulties are
    not centred (the prior identifies the location).

    Parameters
    ----------
    prior : Prior or float, default 1.0
        As in :func:`~.onepl.rasch_map`.
    R, max_iter, return_item_params, reg_discrimination
        As in :func:`rasch_2pl`.

    Examples
    --------
    >>> import numpy as np
    >>> from scorio_core.rank import irt, priors
    >>> R = np.array([[1, 1, 1], [1, 0, 0], [0, 0, 0]])
    >>> irt.rasch_2pl_map(R, prior=priors.GaussianPrior(var=2.0)).tolist()
    [1, 2, 3]
    """
    return _xpl_fit(_Counts(R), prior, max_iter, False, reg_discrimination)


@_irt_ranker("3PL IRT joint ML with discriminations and guessing (002 eq. 56)")
def rasch_3pl(
    R,
    max_iter: int = 500,
    fix_guessing: float | None = None,
    return_item_params: bool = False,
    reg_discrimination: float = 0.01,
    reg_guessing: float = 0.1,
    guessing_upper: float = 0.5,
):
    """Rank models by 3PL abilities, joint (penalised) ML (eq. 4, Ranking Reasoning LLMs under
    Test-Time Scaling (2026), eq. 56, Algorithm 6).

    Objective (2.3) with guessing ``c_m = guessing_upper · σ(z_m)`` or ``c_m =
    fix_guessing``; reported with median ability 0. Start: logits of the solve
    rates, ``a = 1``, ``c = guessing_upper / 2``; then at most ``max_iter``
    L-BFGS steps as in :func:`rasch_2pl`. Separated data do not raise (the
    reference refuses them): a model whose ability diverges (3PL ML sends models
    below every item's guessing floor to ``-∞``) stays finite and last through
    the vague ridge. See the module notes on non-convexity: without an interior
    optimum the estimate is the ``max_iter``-step iterate.

    Parameters
    ----------
    R, max_iter, reg_discrimination
        As in :func:`rasch_2pl`.
    fix_guessing : float, optional
        Fix every ``c_m`` to this value in ``[0, guessing_upper]`` (0 is the 2PL model).
    return_item_params : bool, default False
        Also return ``{"difficulty", "discrimination", "guessing", "converged"}``.
    reg_guessing : float, default 0.1
        Non-negative penalty weight on ``z``.
    guessing_upper : float, default 0.5
        Upper bound of ``c_m``, in ``(0, 1)``.

    Examples
    --------
    With every guessing parameter fixed at 0.1:

    >>> import numpy as np
    >>> from scorio_core.rank import irt
    >>> R = np.array([[1, 1, 1], [1, 0, 0], [0, 0, 0]])
    >>> irt.rasch_3pl(R, fix_guessing=0.1, return_item_params=True)[2]["guessing"].tolist()
    [0.1, 0.1, 0.1]
    """
    return _xpl_fit(_Counts(R), None, max_iter, True, reg_discrimination, fix_guessing,
                    reg_guessing, guessing_upper)


@_irt_ranker("3PL IRT MAP with a prior on abilities (002 eq. 56)")
def rasch_3pl_map(
    R,
    prior: Prior | float = 1.0,
    max_iter: int = 500,
    fix_guessing: float | None = None,
    return_item_params: bool = False,
    reg_discrimination: float = 0.01,
    reg_guessing: float = 0.1,
    guessing_upper: float = 0.5,
):
    """3PL abilities by MAP: objective (7) of :func:`rasch_3pl` with the prior ``P(θ)``.

    Same model, transform, start and iteration budget as :func:`rasch_3pl`,
    with the ability scale optimised as one coordinate as in
    :func:`rasch_2pl_map` and difficulties not centred. The module notes on
    non-convexity apply.

    Parameters
    ----------
    prior : Prior or float, default 1.0
        As in :func:`~.onepl.rasch_map`.
    R, max_iter, fix_guessing, return_item_params, reg_discrimination, reg_guessing, guessing_upper
        As in :func:`rasch_3pl`.

    Examples
    --------
    A heavy-tailed (Cauchy) prior on the abilities:

    >>> import numpy as np
    >>> from scorio_core.rank import irt, priors
    >>> R = np.array([[[1, 1], [1, 0], [1, 1]], [[1, 0], [0, 0], [1, 0]], [[0, 0], [0, 0], [1, 0]]])
    >>> ranks, scores = irt.rasch_3pl_map(R, prior=priors.CauchyPrior(), return_scores=True)
    >>> ranks.tolist(), bool(scores[0] > scores[1] > scores[2])
    ([1, 2, 3], True)
    """
    return _xpl_fit(_Counts(R), prior, max_iter, True, reg_discrimination, fix_guessing,
                    reg_guessing, guessing_upper)
