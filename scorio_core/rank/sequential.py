"""Sequential rating systems over the induced match stream (Ranking Reasoning LLMs under Test-Time
Scaling (2026), App. I.1.6, eqs. 43-48).

Each question-trial ``(m, n)`` is one *round*: every pair of models plays one
match, won by the correct model when exactly one is correct (eq. 43 ff.).
Tied pairs follow ``tie_handling``:

* ``"skip"`` — both-correct and both-wrong pairs do not play;
* ``"draw"`` — both count as draws (score 1/2);
* ``"correct_draw_only"`` — both-correct is a draw, both-wrong is skipped.

Stream order and simultaneity (identical to the reference package, whose
documented behaviour these choices reproduce to round-off):

* Rounds are played **trial-major**: all questions of trial 1 in question
  order, then trial 2, ... (``R.transpose(2, 1, 0)``).
* Within a round every match is evaluated from the **same pre-round state**
  and the per-pair updates are summed (Elo), batched as one rating period
  (Glicko, Ranking Reasoning LLMs under Test-Time Scaling (2026): "each question-trial
  constitutes one rating period"), or
  combined as Gaussian sites in natural parameters (TrueSkill). This keeps
  the ratings symmetric in the model labels.
* Glicko inflates ``RD² <- min(RD² + c², rd_max²)`` for every model before
  every period (including the first); TrueSkill adds ``τ²`` to every
  variance between trials (before trials 2, 3, ...), not between questions.

The rounds are inherently sequential (each update reads the previous
ratings), so the round loop of each system is one compiled kernel
(``numba.njit(cache=True)``, :mod:`._seq_kernels`): per round it visits each
pair that plays once (the pair's two updates are antisymmetric), so a round
costs ``O(#pairs that play)`` with no temporaries. Rounds in which no pair
plays are dropped up front, and the inflation they would have applied is
carried to the next round (it is additive, so this is exact). The kernels give
the previous pure-numpy loops' results to round-off (tested to 1e-12).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

import numpy as np

from .._validation import ValidationError
from ._stats import as_binary
from .registry import ranker

__all__ = ["elo", "glicko", "trueskill"]

TieHandling = Literal["skip", "draw", "correct_draw_only"]
_POLICIES = ("skip", "draw", "correct_draw_only")


# ----------------------------------------------------------------------------- the stream


class _Stream(NamedTuple):
    x: np.ndarray  # (T, L) uint8 0/1: outcomes of the rounds where some pair plays, in order
    gap: np.ndarray  # (T,) rounds since the previous kept round (1 = consecutive)
    new_trials: np.ndarray  # (T,) trial boundaries crossed since the previous kept round
    n_rounds: int  # M·N, all rounds
    policy: int  # index into _POLICIES (the kernels' encoding)


def _stream(R, tie_handling: str) -> _Stream:
    if tie_handling not in _POLICIES:
        raise ValidationError(
            f"tie_handling must be one of {', '.join(_POLICIES)}; got {tie_handling!r}"
        )
    R = as_binary(R)
    L, M, N = R.shape
    X = R.transpose(2, 1, 0).reshape(N * M, L)  # trial-major round order
    c = X.sum(1)
    decisive = (c > 0) & (c < L)
    if tie_handling == "skip":
        plays = decisive
    elif tie_handling == "draw":
        plays = np.full(N * M, L >= 2)
    else:
        plays = decisive | (c >= 2)
    idx = np.flatnonzero(plays)
    gap = np.diff(idx, prepend=-1).astype(np.int64)
    new_trials = np.diff(idx // M, prepend=0).astype(np.int64)
    x = np.ascontiguousarray(X[idx], dtype=np.uint8)
    return _Stream(x, gap, new_trials, N * M, _POLICIES.index(tie_handling))


def _kernels():
    """The compiled round loops, imported on first use (numba's import and the cached
    machine code load only when a sequential ranker runs)."""
    from . import _seq_kernels

    return _seq_kernels


def _number(name: str, value, *, low: float, strict: bool) -> float:
    ok = isinstance(value, int | float | np.number) and not isinstance(value, bool)
    v = float(value) if ok else np.nan
    if not (np.isfinite(v) and (v > low if strict else v >= low)):
        want = (
            "a finite number"
            if low == -np.inf
            else f"a finite number {'>' if strict else '>='} {low:g}"
        )
        raise ValidationError(f"{name} must be {want}; got {value!r}")
    return v


# ----------------------------------------------------------------------------- Elo


@ranker(
    "sequential",
    "Elo: online updates r += K (S - E) over the (question, trial) match stream (002 eqs. 43-44)",
    variants={
        "elo_tie_skip": {"K": 0.05, "initial_rating": 1500.0, "tie_handling": "skip"},
        "elo_tie_draw": {"K": 0.05, "initial_rating": 1500.0, "tie_handling": "draw"},
        "elo_tie_correct_draw_only": {
            "K": 0.05,
            "initial_rating": 1500.0,
            "tie_handling": "correct_draw_only",
        },
    },
)
def elo(
    R,
    *,
    K: float = 32.0,
    initial_rating: float = 1500.0,
    tie_handling: TieHandling = "correct_draw_only",
) -> np.ndarray:
    """Elo ratings after the induced match stream (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), App. I.1.6, eqs. 43-44).

    For every match ``E_ij = 1 / (1 + 10^((r_j - r_i)/400))`` and
    ``r_i <- r_i + K (S_ij - E_ij)`` with ``S_ij`` 1 (win), 1/2 (draw) or 0.
    All matches of one question-trial read the ratings from before that
    question-trial; rounds run trial-major (module notes).

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    K : float, default 32.0
        Step size (Ranking Reasoning LLMs under Test-Time Scaling (2026), App. I.2 uses 0.05).
    initial_rating : float, default 1500.0
        Starting rating of every model.
    tie_handling : {"skip", "draw", "correct_draw_only"}, default "correct_draw_only"
        What a both-correct / both-wrong pair does (module notes).

    Returns
    -------
    ranks (L,), and with ``return_scores=True`` the final ratings.

    Examples
    --------
    >>> from scorio_core.rank.sequential import elo
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]]])
    >>> elo(R).tolist()
    [1, 2]
    >>> elo(np.array([[[1]], [[1]]]), tie_handling="skip").tolist()
    [1, 1]
    """
    K = _number("K", K, low=0.0, strict=True)
    r0 = _number("initial_rating", initial_rating, low=-np.inf, strict=False)
    s = _stream(R, tie_handling)
    return _kernels().elo_rounds(s.x, s.policy, K, r0)


# ----------------------------------------------------------------------------- Glicko


def _glicko_state(R, initial_rating, initial_rd, c, rd_max, tie_handling):
    r0 = _number("initial_rating", initial_rating, low=-np.inf, strict=False)
    rd0 = _number("initial_rd", initial_rd, low=0.0, strict=True)
    c = _number("c", c, low=0.0, strict=False)
    rd_max = _number("rd_max", rd_max, low=0.0, strict=True)
    s = _stream(R, tie_handling)
    c2, cap = c * c, rd_max * rd_max
    r, rd2 = _kernels().glicko_rounds(s.x, s.gap, s.policy, r0, rd0 * rd0, c2, cap)
    trailing = s.n_rounds - int(s.gap.sum())  # periods after the last match still inflate RD
    if trailing:
        rd2 = np.minimum(rd2 + trailing * c2, cap)
    return r, np.sqrt(rd2)


@ranker(
    "sequential",
    "Glicko: rating and rating deviation, one rating period per (question, trial) (002 eqs. 45-48)",
    variants={
        f"glicko_tie_{p}": {
            "initial_rating": 1500.0,
            "initial_rd": 350.0,
            "c": 0.0,
            "rd_max": 350.0,
            "tie_handling": p,
            "return_deviation": False,
        }
        for p in _POLICIES
    },
    extra_output="return_deviation",
)
def glicko(
    R,
    *,
    initial_rating: float = 1500.0,
    initial_rd: float = 350.0,
    c: float = 0.0,
    rd_max: float = 350.0,
    tie_handling: TieHandling = "correct_draw_only",
    return_deviation: bool = False,
) -> np.ndarray:
    """Glicko ratings after the induced match stream (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), App. I.1.6, eqs. 45-48).

    Each question-trial is one rating period holding all its matches. With
    ``q = ln 10 / 400``, ``g(RD) = (1 + 3 q² RD² / π²)^{-1/2}``,
    ``E_ij = 1 / (1 + 10^{-g(RD_j)(r_i - r_j)/400})`` and
    ``1/d_i² = q² Σ_j g(RD_j)² E_ij (1 - E_ij)``:
    ``RD_i' = (1/RD_i² + 1/d_i²)^{-1/2}``,
    ``r_i' = r_i + q / (1/RD_i² + 1/d_i²) Σ_j g(RD_j)(S_ij - E_ij)``.
    Before every period ``RD <- min(sqrt(RD² + c²), rd_max)``.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    initial_rating, initial_rd : float, default 1500.0, 350.0
        Starting rating and rating deviation of every model.
    c : float, default 0.0
        RD inflation per rating period.
    rd_max : float, default 350.0
        Cap on RD.
    tie_handling : {"skip", "draw", "correct_draw_only"}, default "correct_draw_only"
        What a both-correct / both-wrong pair does (module notes).
    return_deviation : bool, default False
        Also return the final RD: ``(ranks, rating, rd)``.

    Returns
    -------
    ranks (L,); with ``return_scores=True`` also the ratings; with
    ``return_deviation=True`` always ``(ranks, rating, rd)``.

    Examples
    --------
    >>> from scorio_core.rank.sequential import glicko
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]]])
    >>> ranks, rating, rd = glicko(R, return_deviation=True)
    >>> ranks.tolist(), bool(rating[0] > rating[1]), bool(rd[0] < 350)
    ([1, 2], True, True)
    """
    rating, rd = _glicko_state(R, initial_rating, initial_rd, c, rd_max, tie_handling)
    return (rating, rd) if return_deviation else rating


# ----------------------------------------------------------------------------- TrueSkill


@ranker(
    "sequential",
    "TrueSkill: Gaussian skill beliefs updated by two-player matches, ranked by mu (002 I.1.6)",
    variants={
        "trueskill": {
            "mu_initial": 25.0,
            "sigma_initial": 8.333333333333334,
            "beta": 4.166666666666667,
            "tau": 0.00333333333,
        }
    },
)
def trueskill(
    R,
    *,
    mu_initial: float = 25.0,
    sigma_initial: float = 25.0 / 3.0,
    beta: float = 25.0 / 6.0,
    tau: float = 25.0 / 300.0,
    tie_handling: TieHandling = "skip",
    draw_margin: float = 0.0,
) -> np.ndarray:
    """TrueSkill means after the induced match stream (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), App. I.1.6; Herbrich et al. 2006).

    Skills are ``N(μ_i, σ_i²)``. A match between ``i`` and ``j`` has
    ``c² = 2β² + σ_i² + σ_j²``, ``t = (μ_i - μ_j)/c``, ``ε = draw_margin / c``; a
    win of ``i`` moves ``μ_i += σ_i²/c · v(t - ε)`` and
    ``σ_i² *= 1 - σ_i²/c² · w(t - ε)`` with ``v = φ/Φ``, ``w = v (v + t - ε)``
    (the loser symmetrically), a draw uses the truncated-to-``[-ε, ε]`` factors.
    The two-player updates of one question-trial are computed from the same
    prior belief and multiplied as Gaussian sites (natural parameters add);
    ``σ² += τ²`` between trials. Ranked by the final ``μ``.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    mu_initial, sigma_initial : float, default 25.0, 25/3
        Prior belief of every model.
    beta : float, default 25/6
        Performance noise.
    tau : float, default 25/300
        Dynamics: standard deviation added between trials (Ranking Reasoning LLMs under Test-Time
        Scaling (2026), App. I.2: 1/300).
    tie_handling : {"skip", "draw", "correct_draw_only"}, default "skip"
        What a both-correct / both-wrong pair does (Ranking Reasoning LLMs under Test-Time
        Scaling (2026): ties are ignored).
    draw_margin : float, default 0.0
        Draw margin ``ε`` on the performance difference.

    Returns
    -------
    ranks (L,), and with ``return_scores=True`` the final means ``μ``.

    Examples
    --------
    >>> from scorio_core.rank.sequential import trueskill
    >>> import numpy as np
    >>> R = np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]]])
    >>> trueskill(R).tolist()
    [1, 2]
    """
    mu0 = _number("mu_initial", mu_initial, low=-np.inf, strict=False)
    s0 = _number("sigma_initial", sigma_initial, low=0.0, strict=True)
    beta = _number("beta", beta, low=0.0, strict=True)
    tau = _number("tau", tau, low=0.0, strict=False)
    eps = _number("draw_margin", draw_margin, low=0.0, strict=False)
    s = _stream(R, tie_handling)
    return _kernels().trueskill_rounds(
        s.x, s.new_trials, s.policy, mu0, s0 * s0, 2.0 * beta * beta, tau * tau, eps
    )
