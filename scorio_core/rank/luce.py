"""Setwise / listwise Luce choice models (Ranking Reasoning LLMs under Test-Time Scaling (2026),
App. I.1.7, eqs. 49-52).

Every question-trial ``(m, n)`` splits the models into a winner set
``U = {l : R_lmn = 1}`` and a loser set ``V`` (eq. 49); splits with ``U``
empty or complete carry no information. The likelihoods read
:func:`~._stats.setwise_events` — the distinct splits with multiplicities — so
one evaluation costs ``O(#distinct splits · L)``, not ``O(M·N·L)``.

* **Plackett-Luce.** In the binary setting Ranking Reasoning LLMs under Test-Time Scaling
  (2026) fits PL to the pairwise win matrix, "equivalently BT" (App. I.1.7, Alg. 4). It is
  therefore the Bradley-Terry estimator of :mod:`.paired`, not a second copy of it.
* **Bradley-Terry-Luce** (eq. 52): each winner ``i ∈ U`` is a Luce choice from
  ``{i} ∪ V``: ``-log p = Σ_e c_e Σ_{i∈U_e} [log(π_i + Σ_{j∈V_e} π_j) - θ_i]``.
* **Davidson-Luce** (eqs. 50-51): ``Pr(U | S) = δ_t g_t(U) / Z(S)`` with
  ``g_t(T) = (Π_{i∈T} π_i)^{1/t}``, ``t = |U|``. Here every model takes part
  in every question-trial, so ``S`` is always the full set and ``Z`` is shared
  by all events: ``Z = Σ_t δ_t e_t(π^{1/t})`` with ``e_t`` the elementary
  symmetric polynomial. The tie-prevalence parameters ``δ_t`` (``δ_1 = 1``) are
  unpenalised and can be profiled out in closed form: at the optimum
  ``δ_t e_t / Z = n_t / C`` (``n_t`` events with ``|U| = t`` out of ``C``), so

      ``ℓ(θ) = const + Σ_e c_e (1/t_e) Σ_{i∈U_e} θ_i - Σ_t n_t log e_t(e^{θ/t})``,

  one conditional-logit layer per observed winner-set size (unobserved sizes
  have ``δ_t -> 0``). This is the exact joint ML/MAP in ``θ``, with no ``δ``
  left to optimise; ``max_tie_order`` only bounds the admissible ``|U|``.

Each model is ONE negative log-likelihood with an analytic gradient minimised
by :func:`~._optim.fit` (L-BFGS, Ranking Reasoning LLMs under Test-Time Scaling (2026), Alg. 5); ML
is MAP with the uniform prior. Scores are centred log-strengths ``θ`` (the project convention of
:mod:`.paired`), not ``π = e^θ``.

Separated data (maximum likelihood)
-----------------------------------
For both setwise models the likelihood is unbounded along ``d`` iff
``d_i >= d_j`` whenever ``i`` won against ``j`` in some split (every winner
set is then a top set of ``d``), i.e. iff the decisive win graph — the same
graph as for Bradley-Terry — is not strongly connected. As in :mod:`.paired`
we return the ML limit with finite numbers: along the divergence a split
keeps information only inside the level of its best loser ``Λ_e`` (winners
above it win with probability -> 1), so each split is projected onto
``(U_e ∩ Λ_e, V_e ∩ Λ_e)`` (Davidson-Luce keeps the exponent ``1/|U_e|``),
strengths are fitted within levels and the levels are stacked with a gap of
``log(1 + M·N)``. MAP estimates are always finite.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validation import ValidationError, check_int
from ._optim import fit, separation_levels, stack_levels
from ._stats import as_binary, setwise_events
from .paired import bradley_terry, bradley_terry_map
from .priors import Prior, UniformPrior, as_prior
from .registry import ranker

__all__ = [
    "plackett_luce",
    "plackett_luce_map",
    "davidson_luce",
    "davidson_luce_map",
    "bradley_terry_luce",
    "bradley_terry_luce_map",
]

#: L-BFGS relative-reduction tolerance: the objectives are sums over up to M·N events,
#: so a looser one stops with strengths off by ~1e-5 (see .paired._FTOL).
_FTOL = 1e-15


# ----------------------------------------------------------------------------- validation
# (same checks as .paired; candidates for a shared helper)


# ----------------------------------------------------------------------------- events


class _Events(NamedTuple):
    U: np.ndarray  # (E, L) float 0/1: winners kept in the likelihood
    V: np.ndarray  # (E, L) float 0/1: losers kept in the likelihood
    t: np.ndarray  # (E,) int: size of the full winner set (Davidson-Luce exponent)
    c: np.ndarray  # (E,) float: multiplicity


def _events(R: np.ndarray, ml: bool) -> tuple[_Events, np.ndarray, np.ndarray, int]:
    """Informative splits of binary ``R``, projected onto their boundary level when ML is separated.

    Returns the events, the component label and level of each model (all 0
    when the ML estimate is finite or for MAP), and ``M·N``.
    """
    L = R.shape[0]
    ev = setwise_events(R)
    U = ev.correct
    c = ev.count.astype(float)
    t = U.sum(1)
    lab = np.zeros(L, dtype=int)
    level = np.zeros(L, dtype=int)
    if ml and c.size:
        W = (U * c[:, None]).T.astype(float) @ (~U)  # decisive wins, as in trial_pairs
        lab, level = separation_levels(W)
    V = ~U
    if level.any():
        # the level of each split's best loser; only that level still competes there
        boundary = np.where(V, level[None, :], -1).max(1)
        keep_cols = level[None, :] == boundary[:, None]
        U, V = U & keep_cols, V & keep_cols
        informative = U.any(1)
        U, V, t, c = U[informative], V[informative], t[informative], c[informative]
    return _Events(U.astype(float), V.astype(float), t, c), lab, level, R.shape[1] * R.shape[2]


# ----------------------------------------------------------------------------- likelihoods


def _btl_nll(ev: _Events):
    """Bradley-Terry-Luce composite NLL (eq. 52) and its gradient in ``θ``."""
    cU = ev.U * ev.c[:, None]
    wins = cU.sum(0)

    def nll(theta):
        m = theta.max()
        p = np.exp(theta - m)  # π / e^m: the shift cancels inside each choice
        den = np.maximum(p[None, :] + (ev.V @ p)[:, None], 1e-300)  # π_i + Σ_V π_j
        f = float(np.sum(cU * np.log(den))) - wins @ (theta - m)
        A = cU / den
        return f, p * (A.sum(0) + ev.V.T @ A.sum(1)) - wins

    return nll


class _Layers(NamedTuple):
    """Davidson-Luce normalisers: one row per (exponent t, size k, support) class."""

    t: np.ndarray  # (Rw,) exponent 1/t of g_t
    k: np.ndarray  # (Rw,) subset size of the elementary symmetric polynomial
    support: np.ndarray  # (Rw, L) float 0/1: the models competing in that row
    n: np.ndarray  # (Rw,) events in the row
    s: np.ndarray  # (L,) Σ_e c_e |U_e ∩ {i}| / t_e: the linear term


def _dl_layers(ev: _Events) -> _Layers:
    k = ev.U.sum(1).astype(int)
    key = np.column_stack([ev.t, k, ev.U + ev.V])
    rows, inv = np.unique(key, axis=0, return_inverse=True)
    n = np.bincount(inv.ravel(), weights=ev.c, minlength=rows.shape[0])
    s = (ev.U * (ev.c / ev.t)[:, None]).sum(0)
    return _Layers(rows[:, 0].astype(float), rows[:, 1].astype(int), rows[:, 2:], n, s)


def _esp_prefix_suffix(x: np.ndarray, K: int) -> tuple[np.ndarray, np.ndarray]:
    """Elementary symmetric polynomials of prefixes and suffixes of the rows of ``x``.

    ``pre[i, r, a] = e_a(x[r, :i])`` and ``suf[i, r, a] = e_a(x[r, i:])`` for
    ``a <= K``. The product ``Π_i (1 + x_ri z)`` is a recursion over models (L
    short steps, vectorised over rows and degrees); all terms are positive, so
    unlike "divide one factor out" it loses no precision.
    """
    Rw, L = x.shape
    both = np.zeros((L + 1, 2, Rw, K + 1))
    both[0, :, :, 0] = 1.0
    xs = np.stack([x, x[:, ::-1]])  # forward and backward in one pass
    for i in range(L):
        both[i + 1] = both[i]
        both[i + 1, :, :, 1:] += xs[:, :, i, None] * both[i, :, :, :-1]
    return both[:, 0], both[::-1, 1]


def _dl_nll(layers: _Layers):
    """Profiled Davidson-Luce NLL (eqs. 50-51, δ profiled out) and its gradient."""
    t, k, S, n, s = layers
    K = int(k.max())
    a = np.arange(K + 1)
    b = k[:, None] - 1 - a[None, :]  # suffix degree paired with prefix degree a
    b_ok = b >= 0
    b = np.where(b_ok, b, 0)

    def nll(theta):
        m = np.where(S > 0, theta[None, :], -np.inf).max(1)  # per-row shift: x <= 1
        x = np.exp((theta[None, :] - m[:, None]) / t[:, None]) * S
        pre, suf = _esp_prefix_suffix(x, K)
        ek = pre[-1, np.arange(k.size), k]
        f = float(n @ (k / t * m + np.log(ek))) - s @ theta
        # e_{k-1} of the row without model i = Σ_a pre[i][a] · suf[i+1][k-1-a]
        sufg = np.take_along_axis(suf[1:].transpose(1, 0, 2), b[:, None, :], axis=2)
        loo = np.einsum("rla,rla->rl", pre[:-1].transpose(1, 0, 2), sufg * b_ok[:, None, :])
        incl = x * loo / ek[:, None]  # inclusion probability of i in a random k-subset
        return f, (n / t) @ incl - s

    return nll


# ----------------------------------------------------------------------------- fitting


def _strengths(kind: str, R, prior, max_iter, max_tie_order=None) -> np.ndarray:
    """Centred log-strengths: MAP under ``prior``, or the ML (limit) for the uniform prior."""
    max_iter = check_int("max_iter", max_iter)
    R = as_binary(R)
    L = R.shape[0]
    prior = as_prior(prior, L)
    if kind == "dl":
        _check_tie_order(max_tie_order, R)
    ml = isinstance(prior, UniformPrior)
    ev, lab, level, trials = _events(R, ml)
    if ev.c.size == 0:
        # nothing left to fit: ML strengths are equal within levels; MAP sits at the prior mode
        theta = np.zeros(L)
        if not ml:
            theta = fit(lambda x: (0.0, np.zeros_like(x)), theta, prior=prior, max_iter=max_iter)
    else:
        nll = _btl_nll(ev) if kind == "btl" else _dl_nll(_dl_layers(ev))
        theta = fit(nll, np.zeros(L), prior=prior, max_iter=max_iter, tol=_FTOL)
    if level.any():
        theta = stack_levels(theta, lab, level, float(np.log1p(trials)))
    return theta - theta.mean()


def _check_tie_order(max_tie_order, R: np.ndarray) -> None:
    if max_tie_order is None:
        return
    if (
        isinstance(max_tie_order, bool)
        or not isinstance(max_tie_order, int | np.integer)
        or max_tie_order < 1
    ):
        raise ValidationError(
            f"max_tie_order must be a positive integer or None (= L - 1); got {max_tie_order!r}"
        )
    L = R.shape[0]
    size = R.sum(0, dtype=np.int64)
    t_max = int(np.where(size < L, size, 0).max())  # largest informative winner set
    if t_max > max_tie_order:
        raise ValidationError(
            f"max_tie_order={max_tie_order} gives probability 0 to the observed winner sets of "
            f"size {t_max}; use max_tie_order >= {t_max} (or None = {L - 1})"
        )


def _check_tol(tol) -> None:
    ok = isinstance(tol, int | float | np.number) and not isinstance(tol, bool)
    if not (ok and np.isfinite(tol) and tol > 0):
        raise ValidationError(f"tol must be a positive finite number; got {tol!r}")


# ----------------------------------------------------------------------------- rankers


@ranker(
    "luce",
    "Plackett-Luce ML on the decisive pairwise win matrix (= Bradley-Terry; 002 I.1.7, Alg. 4)",
    variants={"plackett_luce": {"max_iter": 500, "tol": 1e-08}},
)
def plackett_luce(R, *, max_iter: int = 10000, tol: float = 1e-08) -> np.ndarray:
    """Plackett-Luce ML log-strengths (Ranking Reasoning LLMs under Test-Time Scaling (2026),
    App. I.1.7, Alg. 4).

    In the binary setting every question-trial is a partial ranking "winners
    before losers"; the paper reduces it to the decisive pairwise win matrix ``W``
    and fits ``Pr(i ≻ j) = π_i / (π_i + π_j)`` (eqs. 39-40), "equivalently BT".
    This is exactly :func:`~scorio_core.rank.paired.bradley_terry`, whose
    likelihood and separated-data limit are reused here.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    max_iter : int, default 10000
        Iteration limit of the L-BFGS fit.
    tol : float, default 1e-8
        Convergence tolerance of Hunter's MM iteration in Ranking Reasoning LLMs under Test-Time
        Scaling (2026), Alg. 4. The shared L-BFGS fit converges to the same maximum to near machine
        precision, tighter than any ``tol``; the value is validated and kept
        for API compatibility with Ranking Reasoning LLMs under Test-Time Scaling (2026), App. I.2.

    Returns
    -------
    ranks (L,), and with ``return_scores=True`` the centred log-strengths ``θ``.

    Notes
    -----
    The reference package returns ``π`` normalised to sum 1 and raises
    ``ValueError`` when the win graph is not strongly connected; here the
    scores are ``θ = log π - mean`` (same order) and separated data get the
    finite ML limit of :mod:`.paired`.

    Examples
    --------
    >>> from scorio_core.rank.luce import plackett_luce
    >>> import numpy as np
    >>> R = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0]])
    >>> plackett_luce(R).tolist()
    [1, 2, 2]
    """
    _check_tol(tol)
    return bradley_terry.score(R, max_iter=max_iter)


@ranker(
    "luce",
    "Plackett-Luce MAP: pairwise-reduced PL likelihood plus a prior on log-strengths",
    variants={"plackett_luce_map": {"prior": 1.0, "max_iter": 500}},
)
def plackett_luce_map(R, *, prior: Prior | float = 1.0, max_iter: int = 500) -> np.ndarray:
    """Plackett-Luce MAP log-strengths (Ranking Reasoning LLMs under Test-Time Scaling (2026),
    App. I.1.7; = Bradley-Terry MAP).

    Minimises ``-Σ_{i≠j} W_ij [θ_i - log(e^θ_i + e^θ_j)] + P(θ)``; a float
    ``prior`` is the variance of a Gaussian prior around 0.

    Examples
    --------
    >>> from scorio_core.rank.luce import plackett_luce_map
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]]])
    >>> plackett_luce_map(R, prior=1.0).tolist()
    [1, 2]
    """
    return bradley_terry_map.score(R, prior=prior, max_iter=max_iter)


@ranker(
    "luce",
    "Davidson-Luce: setwise ties, winner set chosen with prob. delta_t g_t(U) / Z (002 eqs. 50-51)",
    variants={"davidson_luce": {"max_iter": 500}},
    extra={"davidson_luce"},  # documented in 002 App. I.1.7 but not among the 72 ids of App. I.2
)
def davidson_luce(R, *, max_iter: int = 500, max_tie_order: int | None = None) -> np.ndarray:
    """Davidson-Luce ML log-strengths for setwise ties (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), App. I.1.7, eqs. 50-51).

    Each question-trial chooses its tied winner set ``U`` from all ``L`` models
    with probability ``δ_t g_t(U) / Z``, ``g_t(U) = (Π_{i∈U} π_i)^{1/t}``,
    ``t = |U|``, ``Z = Σ_t δ_t Σ_{|T|=t} g_t(T)`` (Firth, Kosmidis & Turner
    2019). The tie parameters ``δ_t`` are profiled out exactly (module notes),
    so the fit is over ``θ`` alone; normalisers are elementary symmetric
    polynomials.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    max_iter : int, default 500
        L-BFGS iteration limit.
    max_tie_order : int or None, default None
        Largest tie order ``D``; ``None`` means ``L - 1``. Winner sets larger
        than ``D`` have probability 0, so such data are refused.

    Returns
    -------
    ranks (L,), and with ``return_scores=True`` the centred log-strengths.

    Examples
    --------
    >>> from scorio_core.rank.luce import davidson_luce
    >>> import numpy as np
    >>> R = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0]])
    >>> davidson_luce(R).tolist()
    [1, 2, 2]
    """
    return _strengths("dl", R, None, max_iter, max_tie_order)


@ranker(
    "luce",
    "Davidson-Luce with a prior penalty on log-strengths (002 eqs. 50-51)",
    variants={"davidson_luce_map": {"prior": 1.0, "max_iter": 500}},
    extra={"davidson_luce_map"},  # as davidson_luce: not in App. I.2
)
def davidson_luce_map(
    R, *, prior: Prior | float = 1.0, max_iter: int = 500, max_tie_order: int | None = None
) -> np.ndarray:
    """Davidson-Luce MAP log-strengths (eqs. 50-51 plus a prior on ``θ``; ``δ`` unpenalised).

    Examples
    --------
    >>> from scorio_core.rank.luce import davidson_luce_map
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]]])
    >>> davidson_luce_map(R, prior=1.0).tolist()
    [1, 2]
    """
    return _strengths("dl", R, prior, max_iter, max_tie_order)


@ranker(
    "luce",
    "Bradley-Terry-Luce: each winner a Luce choice over itself and the losers (002 eq. 52)",
    variants={"bradley_terry_luce": {"max_iter": 500}},
)
def bradley_terry_luce(R, *, max_iter: int = 500) -> np.ndarray:
    """Bradley-Terry-Luce composite-likelihood ML log-strengths (Ranking Reasoning LLMs under
    Test-Time Scaling (2026), App. I.1.7, eq. 52).

    Every winner ``i ∈ U_mn`` is a Luce choice from ``{i} ∪ V_mn``:
    ``Pr(i | {i} ∪ V) = π_i / (π_i + Σ_{j∈V} π_j)`` (a rank-breaking composite
    likelihood, not a normalised probability of the whole winner set).

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    max_iter : int, default 500
        L-BFGS iteration limit.

    Returns
    -------
    ranks (L,), and with ``return_scores=True`` the centred log-strengths.

    Notes
    -----
    The reference package raises ``ValueError`` when the choice graph is not
    strongly connected; here separated data get the finite ML limit (module
    notes).

    Examples
    --------
    >>> from scorio_core.rank.luce import bradley_terry_luce
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 0]], [[1, 0], [0, 1]], [[0, 1], [0, 0]]])
    >>> bradley_terry_luce(R).tolist()
    [1, 2, 3]
    """
    return _strengths("btl", R, None, max_iter)


@ranker(
    "luce",
    "Bradley-Terry-Luce composite likelihood with a prior on log-strengths (002 eq. 52)",
    variants={"bradley_terry_luce_map": {"prior": 1.0, "max_iter": 500}},
)
def bradley_terry_luce_map(R, *, prior: Prior | float = 1.0, max_iter: int = 500) -> np.ndarray:
    """Bradley-Terry-Luce MAP log-strengths (eq. 52 plus a prior on ``θ``).

    Examples
    --------
    >>> from scorio_core.rank.luce import bradley_terry_luce_map
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]]])
    >>> bradley_terry_luce_map(R, prior=1.0).tolist()
    [1, 2]
    """
    return _strengths("btl", R, prior, max_iter)
