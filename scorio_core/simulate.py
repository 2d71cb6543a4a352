"""LLM mimics with known truth, and the papers' teaching simulations (000 §2.7, App. C-D).

A *mimic* is a biased coin (or a loaded die, for categorical outcomes) per
question: model ``l`` answers question ``α`` in category ``k`` with probability
``p[l, α, k]``, independently on every trial. Because ``p`` is known, so is the
truth: the weighted mean over the questions, ``π̄_l = (1/M) Σ_α Σ_k p[l, α, k] w_k``
(000 eq. 4), and therefore the true ranking.

Per-question probabilities scatter around each model's mean: binary success
probabilities ``p ~ Beta(κ m, κ (1 - m))`` and categorical probability vectors
``p ~ Dirichlet(κ · shares)``, where the concentration ``κ`` sets the spread
(large ``κ``: every question equally hard; ``κ = 2`` with ``m = 0.5``: uniform,
the Bayes@N prior itself). ``exact_means=True`` (binary) shifts each model's
draws by one constant in logit space so the mean over its ``M`` questions equals
the requested value exactly (as the paper's LLM mimics, whose π̄ are listed).

Studies, each vectorized over replicates (no Python loop over datasets):

* :func:`truth_convergence` — mean Kendall τ_b vs ``N`` between each metric's
  ranking and the true ranking over fresh datasets (000 §2.7, Fig. 2a).
* :func:`prior_depth` — original and updated models, τ(original, updated) and
  τ vs ``N`` for prior depths ``D`` (000 App. C, Fig. 5).
* :func:`correct_order` — probability that Bayes@N orders two close models
  correctly and their z-score vs ``N`` (000 App. D, Fig. 6).
* :func:`interval_coverage` — how often 95 % Bayes@N intervals cover the truth.
* :func:`rubric_lesson` — Bayes@N's closed form term by term for a categorical
  example (000 §2.3-2.4, Algorithm 1).

The four studies split their replicates into pieces of a fixed size (:data:`BLOCK`), each
drawing from its own random stream derived from the study's seed and the piece's index.
``executor=`` (:class:`scorio_core.parallel.Executor`) runs the pieces on a Dask
cluster; without it they run here, one after the other. Either way the numbers are the
same: neither the pieces nor their streams depend on where or how many run at once.

Example
-------
>>> from scorio_core import simulate
>>> sim = simulate.mimics([0.3, 0.6], M=20, seed=0)
>>> [round(float(t), 12) for t in sim.truth]
[0.3, 0.6]
>>> sim.outcomes(N=8, seed=1).shape
(2, 20, 8)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from scipy import special

from . import eval as ev
from ._validation import (
    ValidationError,
    check_confidence,
    check_int,
    check_number,
    check_steps,
)
from .analysis.agreement import _signs, tau_b_to
from .analysis.convergence import Curves
from .decision import expected_z_trials, prob_correct_order
from .outcomes import Outcomes
from .rank import METHODS
from .rank._ties import rank_scores, rank_scores_batch

if TYPE_CHECKING:
    from .parallel import Executor

__all__ = [
    "PAPER_COINS",
    "PAPER_ORIGINAL_MEANS",
    "FIG2A_METHODS",
    "Mimics",
    "mimics",
    "question_probs",
    "shift_to_means",
    "sample_outcomes",
    "sample_counts",
    "greedy_outcomes",
    "truth_convergence",
    "PriorDepth",
    "prior_depth",
    "CorrectOrder",
    "correct_order",
    "COVERAGE_SCOPES",
    "Coverage",
    "interval_coverage",
    "RubricLesson",
    "rubric_lesson",
]

Progress = Callable[[float, str], None]

#: The 11 biased-coin LLM mimics of 000 §2.7 / Table 1 (LLM_1 ... LLM_11; LLM_4 = LLM_5).
PAPER_COINS = (
    0.2332,
    0.2545,
    0.3604,
    0.3642,
    0.3642,
    0.4466,
    0.5418,
    0.5276,
    0.608,
    0.6213,
    0.7327,
)
#: Means of the eight "original" models of 000 App. C as drawn in the paper.
PAPER_ORIGINAL_MEANS = (0.3021, 0.3166, 0.4144, 0.4985, 0.5351, 0.5759, 0.6679, 0.7487)
#: The metrics of 000 Fig. 2a (ids in the style of :data:`scorio_core.rank.METHODS`).
#: With k = 2, G-Pass@2_0.5 equals Pass@2 and mG-Pass@2 equals Pass^2, so the k = 4 forms
#: are used (any ``k`` of the Pass family is accepted by :func:`truth_convergence`).
FIG2A_METHODS = (
    "bayes",
    "avg",
    "pass_at_k_2",
    "pass_at_k_4",
    "pass_at_k_8",
    "pass_hat_k_4",
    "g_pass_at_k_tau_4_0.5",
    "mg_pass_at_k_4",
)

_P_CLIP = 1e-6


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


#: Replicates per piece of a study. Fixed (not derived from the number of workers), so the
#: pieces and their random streams -- and therefore the results -- are the same wherever
#: they run.
BLOCK = 250


def _entropy(rng: np.random.Generator) -> int:
    """The root of the pieces' streams, drawn from the study's own stream."""
    return int(rng.integers(2**63))


def _piece_rng(entropy: int, index: int) -> np.random.Generator:
    """Piece ``index``'s stream: child ``index`` of ``SeedSequence(entropy)``."""
    return np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(index,)))


def _blocks(total: int, size: int = BLOCK) -> list[tuple[int, int]]:
    return [(a, min(a + size, total)) for a in range(0, total, size)]


def _map(executor, fn, items, shared, progress, total: int, unit: str) -> list:
    """``[fn(*item, *shared) for item in items]`` on ``executor`` (this process when None),
    in order, so the result is the same either way; ``progress`` hears of each finished
    piece as "k of total unit"."""
    from .parallel import Executor

    ex = executor if executor is not None else Executor()
    report = None
    if progress is not None:
        def report(frac: float, _label: str) -> None:
            progress(frac, f"{round(frac * total)} of {total} {unit}")
    return ex.map(fn, items, shared=shared, progress=report)


# ---------------------------------------------------------------------------
# per-question probabilities and outcomes
# ---------------------------------------------------------------------------
def shift_to_means(p, means) -> np.ndarray:
    """Shift each row of success probabilities ``p (..., M)`` by one constant in logit
    space so that its mean equals ``means (...)`` exactly (to ~1e-15).

    Safeguarded Newton on ``f(d) = mean(expit(logit(p) + d)) - m`` (monotone in ``d``),
    vectorized over all leading axes.

    Example
    -------
    >>> import numpy as np
    >>> p = shift_to_means(np.array([[0.1, 0.5, 0.9]]), np.array([0.3]))
    >>> round(float(p.mean()), 12)
    0.3
    """
    p = np.asarray(p, dtype=float)
    m = np.asarray(means, dtype=float)[..., None]
    if np.any((m <= 0) | (m >= 1)):
        raise ValidationError(f"means must lie strictly in (0, 1); got {np.ravel(m).tolist()}")
    z = special.logit(np.clip(p, _P_CLIP, 1.0 - _P_CLIP))
    lo, hi = np.full(m.shape, -60.0), np.full(m.shape, 60.0)
    d = special.logit(m) - z.mean(-1, keepdims=True)
    for _ in range(200):
        q = special.expit(z + d)
        f = q.mean(-1, keepdims=True) - m
        lo, hi = np.where(f < 0, d, lo), np.where(f > 0, d, hi)
        step = f / np.maximum((q * (1.0 - q)).mean(-1, keepdims=True), 1e-300)
        nd = d - step
        nd = np.where((nd <= lo) | (nd >= hi), 0.5 * (lo + hi), nd)
        if np.all(np.abs(nd - d) <= 1e-15 * np.maximum(1.0, np.abs(d))):
            d = nd
            break
        d = nd
    return special.expit(z + d)


def _as_means(means, weights) -> tuple[np.ndarray, np.ndarray]:
    """``(shares (L, C+1), weights (C+1,))`` from binary means ``(L,)`` or shares ``(L, C+1)``."""
    a = np.asarray(means, dtype=float)
    if a.ndim == 1:
        if a.size < 1 or np.any((a <= 0) | (a >= 1)) or not np.all(np.isfinite(a)):
            raise ValidationError(
                f"binary true means must lie strictly between 0 and 1; got {a.tolist()}"
            )
        a = np.stack([1.0 - a, a], -1)
    elif a.ndim == 2:
        if a.shape[1] < 2 or np.any(a <= 0) or not np.allclose(a.sum(1), 1.0, atol=1e-9):
            raise ValidationError(
                "categorical means must be category shares (L, C+1): positive, each row summing "
                f"to 1; got shape {a.shape} with row sums {np.round(a.sum(1), 6).tolist()}"
            )
    else:
        raise ValidationError(f"means must have shape (L,) or (L, C+1); got {a.shape}")
    C = a.shape[1] - 1
    w = np.linspace(0.0, 1.0, C + 1) if weights is None else np.asarray(weights, dtype=float)
    if w.shape != (C + 1,) or not np.all(np.isfinite(w)):
        raise ValidationError(f"weights must be {C + 1} finite numbers; got {np.ravel(w).tolist()}")
    return a, w


def question_probs(
    means, M: int, *, concentration: float = 3.0, exact_means: bool = False, size=(), seed=None
) -> np.ndarray:
    """Per-question category probabilities ``(*size, L, M, C+1)`` scattered around ``means``.

    Parameters
    ----------
    means : array_like, shape (L,) or (L, C+1)
        Binary: each model's mean success probability. Categorical: each model's
        mean category shares (rows sum to 1).
    M : int
        Questions per model.
    concentration : float
        ``κ``: binary ``p ~ Beta(κ m, κ (1-m))``, categorical ``p ~ Dirichlet(κ · shares)``.
        Smaller ``κ`` means a wider spread of question difficulty.
    exact_means : bool
        Binary only: shift each model's ``M`` draws in logit space so their mean is
        exactly ``m`` (the truth is then the requested mean, not a noisy draw of it).
    size : tuple of int
        Leading replicate axes (fresh questions per replicate).
    seed : int or numpy.random.Generator

    Example
    -------
    >>> question_probs([0.2, 0.7], M=4, seed=0).shape
    (2, 4, 2)
    """
    shares, _ = _as_means(means, None)
    M = check_int("M", M)
    kappa = check_number("concentration", concentration)
    rng = _rng(seed)
    size = tuple(np.atleast_1d(size).astype(int)) if np.size(size) else ()
    L, K = shares.shape
    if K == 2:
        # Beta draws in C order: the same stream as one model (row) after another.
        a, b = kappa * shares[:, 1:2], kappa * shares[:, 0:1]
        p1 = rng.beta(a, b, size=size + (L, M))
        if exact_means:
            p1 = shift_to_means(p1, np.broadcast_to(shares[:, 1], size + (L,)))
        return np.stack([1.0 - p1, p1], -1)
    if exact_means:
        raise ValidationError("exact_means is available for binary means only")
    g = rng.standard_gamma(kappa * shares[:, None, :], size=size + (L, M, K))
    return g / g.sum(-1, keepdims=True)


def sample_outcomes(p, N: int, seed=None) -> np.ndarray:
    """``N`` i.i.d. outcomes per question: ``R (..., M, N)`` int8 from ``p (..., M, C+1)``.

    Binary: ``R = [u < p_1]`` with ``u ~ U(0, 1)``; categorical: inverse CDF.

    Example
    -------
    >>> import numpy as np
    >>> sample_outcomes(np.array([[0.0, 1.0], [1.0, 0.0]]), 3, seed=0).tolist()
    [[1, 1, 1], [0, 0, 0]]
    """
    p = np.asarray(p, dtype=float)
    N = check_int("N", N)
    u = _rng(seed).random(p.shape[:-1] + (N,))
    if p.shape[-1] == 2:
        return (u < p[..., 1:2]).astype(np.int8)
    cum = np.cumsum(p, -1)[..., None, :-1]  # (..., M, 1, C)
    return (u[..., None] >= cum).sum(-1).astype(np.int8)


def sample_counts(p, N: int, seed=None) -> np.ndarray:
    """Category counts of ``N`` trials per question, ``(..., M, C+1)``, drawn directly
    (binomial / multinomial): the same distribution as counting :func:`sample_outcomes`
    at a fraction of the cost, for studies that only need counts.

    Example
    -------
    >>> import numpy as np
    >>> sample_counts(np.array([[0.5, 0.5]]), 10, seed=0).sum(-1).tolist()
    [10]
    """
    p = np.asarray(p, dtype=float)
    N = check_int("N", N, minimum=0)
    rng = _rng(seed)
    if p.shape[-1] == 2:
        c1 = rng.binomial(N, p[..., 1])
        return np.stack([N - c1, c1], -1)
    return rng.multinomial(N, p)


def greedy_outcomes(p, D: int = 1, sharpness: float = 4.0, seed=None) -> np.ndarray:
    """Greedy-decode outcomes ``(..., M, D)`` correlated with the samples through ``p``.

    Greedy decoding is sampling at temperature → 0; we model it as sampling from the
    tempered probabilities ``q_k ∝ p_k^γ`` (``γ`` = ``sharpness``): ``γ = 1`` is one more
    sample, large ``γ`` returns each question's most likely category (binary: correct
    iff ``p > 1/2``), so a greedy answer is right mostly where sampling is.

    Example
    -------
    >>> import numpy as np
    >>> greedy_outcomes(np.array([[0.2, 0.8], [0.9, 0.1]]), sharpness=200, seed=0).ravel().tolist()
    [1, 0]
    """
    p = np.asarray(p, dtype=float)
    gamma = check_number("sharpness", sharpness)
    logq = gamma * np.log(np.clip(p, 1e-300, None))
    q = np.exp(logq - logq.max(-1, keepdims=True))
    return sample_outcomes(q / q.sum(-1, keepdims=True), check_int("D", D), seed)


@dataclass(frozen=True, eq=False)
class Mimics:
    """A set of LLM mimics: fixed per-question category probabilities with known truth.

    Attributes
    ----------
    p : ndarray, shape (L, M, C+1)
        Per-question category probabilities (binary: ``p[..., 1]`` = success).
    weights : ndarray, shape (C+1,)
    models, category_names : tuple of str
    description : str
        How ``p`` was drawn (stored in the metadata of :meth:`outcomes`).
    means, concentration, exact_means :
        The recipe (set by :func:`mimics`), so fresh questions can be drawn the same way:
        ``means`` are the category shares ``(L, C+1)``.
    """

    p: np.ndarray
    weights: np.ndarray
    models: tuple[str, ...]
    category_names: tuple[str, ...]
    description: str = ""
    means: np.ndarray | None = None
    concentration: float | None = None
    exact_means: bool = False

    def fresh_p(self, replicates: int, seed=None) -> np.ndarray:
        """New questions for every replicate, drawn like :attr:`p`: ``(B, L, M, C+1)``."""
        if self.means is None or self.concentration is None:
            raise ValidationError("these mimics carry no recipe (means, concentration)")
        shares = self.means if self.means.shape[1] > 2 else self.means[:, 1]
        return question_probs(
            shares,
            self.p.shape[1],
            concentration=self.concentration,
            exact_means=self.exact_means,
            size=(check_int("replicates", replicates),),
            seed=seed,
        )

    @property
    def per_question(self) -> np.ndarray:
        """True expected weighted score of every (model, question): ``p @ w``, ``(L, M)``."""
        return self.p @ self.weights

    @property
    def truth(self) -> np.ndarray:
        """True means ``π̄ (L,)`` over the ``M`` questions (000 eq. 4)."""
        return self.per_question.mean(-1)

    @property
    def true_ranks(self) -> np.ndarray:
        """Competition ranks of :attr:`truth` (1 = best; exact ties share a rank)."""
        return rank_scores(self.truth)

    def sample(self, N: int, replicates: int | None = None, seed=None) -> np.ndarray:
        """Fresh outcome tensors: ``(L, M, N)``, or ``(replicates, L, M, N)``."""
        p = (
            self.p
            if replicates is None
            else np.broadcast_to(self.p, (check_int("replicates", replicates),) + self.p.shape)
        )
        return sample_outcomes(p, N, seed)

    def outcomes(
        self, N: int, *, greedy: int = 0, sharpness: float = 4.0, seed=None, name: str | None = None
    ) -> Outcomes:
        """One simulated dataset as :class:`~scorio_core.outcomes.Outcomes`.

        ``metadata`` holds ``true_means`` (so ``--target truth`` and the Convergence
        page can use it) and ``true_p`` (the per-question expected scores ``(L, M)``);
        ``greedy = D > 0`` adds ``R0 (L, M, D)`` from :func:`greedy_outcomes`.
        """
        rng = _rng(seed)
        R = sample_outcomes(self.p, N, rng)
        R0 = greedy_outcomes(self.p, greedy, sharpness, rng) if greedy else None
        L, M = self.p.shape[:2]
        meta = {
            "name": name or f"Simulated mimics ({L} models)",
            "synthetic": True,
            "description": self.description,
            "true_means": [float(t) for t in self.truth],
            "true_p": np.round(self.per_question, 12).tolist(),
            "generator": "scorio_core.simulate",
        }
        if greedy:
            meta["greedy"] = f"{greedy} greedy trial(s), tempered probabilities p^{sharpness:g}"
        return Outcomes(
            R,
            R0,
            weights=self.weights,
            category_names=self.category_names,
            models=self.models,
            questions=[f"Q{q + 1:02d}" for q in range(M)],
            name=meta["name"],
            metadata=meta,
        )


def mimics(
    means: Sequence[float] | np.ndarray = PAPER_COINS,
    M: int = 30,
    *,
    concentration: float = 3.0,
    exact_means: bool | None = None,
    weights=None,
    models: Sequence[str] | None = None,
    category_names: Sequence[str] | None = None,
    seed=0,
) -> Mimics:
    """LLM mimics with user-set true means and a per-question spread.

    Parameters
    ----------
    means : array_like, shape (L,) or (L, C+1)
        Binary mean success probabilities (default: the 11 coins of 000 §2.7) or
        categorical mean category shares.
    M : int
        Number of questions.
    concentration : float
        Beta / Dirichlet concentration ``κ`` of the per-question probabilities.
    exact_means : bool, optional
        Binary: make each model's mean over its questions equal ``means`` exactly
        (default True for binary, False for categorical).
    weights : array_like, shape (C+1,), optional
        Category weights (default ``k / C``).
    models, category_names : sequences of str, optional
    seed : int or numpy.random.Generator

    Example
    -------
    >>> sim = mimics([[0.2, 0.3, 0.5], [0.5, 0.3, 0.2]], M=50, weights=[0, 0.5, 1], seed=0)
    >>> sim.p.shape, sim.true_ranks.tolist()
    ((2, 50, 3), [1, 2])
    """
    shares, w = _as_means(means, weights)
    L, K = shares.shape
    exact = (K == 2) if exact_means is None else bool(exact_means)
    p = question_probs(
        shares if K > 2 else shares[:, 1],
        M,
        concentration=concentration,
        exact_means=exact,
        seed=seed,
    )
    names = tuple(models) if models is not None else tuple(f"LLM_{i + 1}" for i in range(L))
    cats = (
        tuple(category_names)
        if category_names is not None
        else (("wrong", "correct") if K == 2 else tuple(f"cat{k}" for k in range(K)))
    )
    if len(names) != L or len(cats) != K:
        raise ValidationError(
            f"expected {L} model names and {K} category names; got {len(names)} and {len(cats)}"
        )
    dist = "Beta(κm, κ(1-m))" if K == 2 else "Dirichlet(κ·shares)"
    desc = (
        f"{L} simulated models x {M} questions; per-question probabilities ~ {dist} with "
        f"κ = {concentration:g}"
        + ("; shifted in logit space so each mean is exact" if exact else "")
    )
    return Mimics(p, w, names, cats, desc, shares, float(concentration), exact)


# ---------------------------------------------------------------------------
# helpers shared by the studies
# ---------------------------------------------------------------------------
def _tau_rows(ranks: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Kendall τ_b of each row of ``ranks (..., L)`` against the matching row of
    ``targets (..., L)`` (the pair-sign form of :func:`~scorio_core.analysis.tau_b_to`)."""
    S, T = _signs(np.asarray(ranks, float)), _signs(np.asarray(targets, float))
    n = np.abs(S).sum(-1) * np.abs(T).sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (S * T).sum(-1) / np.sqrt(n)
    return np.where(n > 0, tau, np.nan)


_PASS_ID = re.compile(
    r"^(pass_at_k|pass_hat_k|mg_pass_at_k)_(\d+)$|^g_pass_at_k_tau_(\d+)_([\d.]+)$"
)
_PASS_KIND = {"pass_at_k": "pass", "pass_hat_k": "hat", "mg_pass_at_k": "mg"}


def _table_scorer(kind: str, k: int, tau: float):
    def f(n: np.ndarray, s: int) -> np.ndarray:
        if s < k:
            return np.full(n.shape[:-2], np.nan)
        return ev.pass_from_counts(n[..., 1], s, k, kind, tau)

    return f


def _scorer(method_id: str):
    """``f(counts (..., M, C+1), s) -> scores (...)`` for a count-based metric.

    Registered ids (:data:`scorio_core.rank.METHODS`) and, for the Pass family, any
    ``k`` / ``tau`` spelled the same way (``pass_hat_k_4``, ``g_pass_at_k_tau_4_0.5``).
    """
    from .analysis.convergence import TABLE_KINDS, fast_kind

    m = METHODS.get(method_id)
    kind = None if m is None else fast_kind(m)
    if kind in ("bayes", "avg") and not m.needs_r0:
        w = np.array([0.0, 1.0])
        if kind == "bayes":  # float counts: the kernel's products then run in BLAS
            return lambda n, s: ev.bayes_from_counts(n.astype(float), w).mu
        return lambda n, s: ev.avg_from_counts(n, w)[0]
    if kind == "table":
        return _table_scorer(
            TABLE_KINDS[m.func], int(m.params["k"]), float(m.params.get("tau", 0))
        )
    hit = _PASS_ID.match(method_id)
    if hit and hit.group(1):
        return _table_scorer(_PASS_KIND[hit.group(1)], int(hit.group(2)), 0.0)
    if hit:
        tau = float(hit.group(4))
        if not 0.0 <= tau <= 1.0:
            raise ValidationError(f"tau in {method_id!r} must lie in [0, 1]")
        return _table_scorer("g", int(hit.group(3)), tau)
    raise ValidationError(
        f"{method_id!r} is not a count-based metric; known-truth convergence supports bayes, "
        "avg and the Pass family (pass_at_k_K, pass_hat_k_K, g_pass_at_k_tau_K_TAU, "
        "mg_pass_at_k_K)"
    )


# ---------------------------------------------------------------------------
# 1. known-truth convergence (000 §2.7, Fig. 2a)
# ---------------------------------------------------------------------------
def truth_convergence(
    sim: Mimics,
    methods: Iterable[str] = FIG2A_METHODS,
    *,
    N: int = 80,
    replicates: int = 1000,
    steps: Sequence[int] | None = None,
    fresh_questions: bool = False,
    seed=0,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> Curves:
    """Kendall τ_b vs ``N`` against the *true* ranking over fresh datasets (000 Fig. 2a).

    Every replicate is a new outcome tensor drawn from the same mimics (not a
    bootstrap of one dataset); trials accumulate one at a time and after each
    ``n`` every metric ranks the models from the running counts. Binary mimics only.
    With ``fresh_questions`` every replicate also draws new questions by the mimics'
    recipe (:meth:`Mimics.fresh_p`) and is scored against its own true ranking, which
    averages out the accidents of one set of questions (the paper keeps one set).

    Replicates run in pieces of :data:`BLOCK`, on ``executor``'s Dask cluster if given
    (:class:`scorio_core.parallel.Executor`); the result is the same either way.

    Returns
    -------
    Curves
        ``tau[method]`` of shape ``(replicates, len(steps))`` (NaN before ``n = k``);
        ``summary`` gives mean ± s.d.; ``target = "truth"``, ``scheme = "fresh"``.

    Example
    -------
    >>> sim = mimics([0.3, 0.5, 0.7], M=10, seed=0)
    >>> c = truth_convergence(sim, ["bayes"], N=20, replicates=50, seed=1)
    >>> c.tau["bayes"].shape, bool(c.summary["mean"].iloc[-1] > 0.8)
    ((50, 20), True)
    """
    if sim.p.shape[-1] != 2:
        raise ValidationError("known-truth convergence needs binary mimics (Pass@k is binary)")
    ids = list(methods)
    if not ids:
        raise ValidationError("choose at least one method")
    for mid in ids:
        _scorer(mid)  # refuse an unknown or re-ranked method before anything runs
    B, N = check_int("replicates", replicates), check_int("N", N)
    S = check_steps(N, steps)
    entropy = _entropy(_rng(seed))
    items = [(a, b, entropy, i) for i, (a, b) in enumerate(_blocks(B))]
    parts = _map(executor, _truth_piece, items, (sim, tuple(ids), S, bool(fresh_questions)),
                 progress, B, "replicates")
    tau = {mid: np.concatenate([part[mid] for part in parts]) for mid in ids}
    return Curves(S, tau, "truth", "fresh questions" if fresh_questions else "fresh trials")


def _truth_piece(
    a: int, b: int, entropy: int, index: int, sim: Mimics, ids: tuple[str, ...],
    S: np.ndarray, fresh_questions: bool,
) -> dict[str, np.ndarray]:
    """Replicates ``a:b`` of :func:`truth_convergence`: ``tau[method] (b - a, len(S))``."""
    rng = _piece_rng(entropy, index)
    B = b - a
    scorers = {mid: _scorer(mid) for mid in ids}
    if fresh_questions:
        pf = sim.fresh_p(B, rng)
        p1 = pf[..., 1]
        targets = rank_scores_batch((pf @ sim.weights).mean(-1))
    else:
        p1 = np.broadcast_to(sim.p[..., 1], (B,) + sim.p.shape[:2])
        targets = np.broadcast_to(sim.true_ranks, (B, sim.p.shape[0]))
    state = np.zeros(p1.shape, dtype=np.int32)
    tau = {mid: np.full((B, S.size), np.nan) for mid in ids}
    j = 0
    for s in range(1, int(S.max()) + 1):  # loop over trials; replicates are vectorized
        state += rng.random(state.shape) < p1
        if s != S[j]:
            continue
        n = np.stack([s - state, state], -1)
        for mid, f in scorers.items():
            sc = f(n, s)
            if np.all(np.isfinite(sc)):
                tau[mid][:, j] = _tau_rows(rank_scores_batch(sc), targets)
        j += 1
    return tau


# ---------------------------------------------------------------------------
# 2. prior depth (000 App. C, Fig. 5)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class PriorDepth:
    """Result of :func:`prior_depth`.

    ``original_p (L, M)``: the fixed original success probabilities;
    ``tau_update (U,)``: τ_b(original ranking, updated ranking) per drawn update;
    ``steps``, ``depths`` and ``tau (len(depths), len(steps))``: mean τ_b between the
    Bayes@N ranking (prior ``R0`` = ``D`` trials of the original models) and the true
    ranking of the updated models; ``sd`` its s.d. over replicates.
    """

    original_p: np.ndarray
    tau_update: np.ndarray
    steps: np.ndarray
    depths: tuple[int, ...]
    tau: np.ndarray
    sd: np.ndarray
    replicates: int
    settings: dict = field(default_factory=dict)

    @property
    def original_means(self) -> np.ndarray:
        return self.original_p.mean(-1)

    @property
    def update_summary(self) -> dict[str, float]:
        """Mean τ(original, updated) and the share of updates that change the ranking."""
        t = self.tau_update
        return {"mean_tau": float(t.mean()), "share_changed": float(np.mean(t < 1 - 1e-12))}

    @property
    def curves(self) -> pd.DataFrame:
        """Long table ``D, n, mean, sd, delta`` (delta = mean τ minus the D = 0 curve)."""
        base = (
            self.tau[self.depths.index(0)] if 0 in self.depths else np.full(self.steps.size, np.nan)
        )
        return pd.DataFrame(
            [
                {
                    "D": d,
                    "n": int(n),
                    "mean": self.tau[i, j],
                    "sd": self.sd[i, j],
                    "delta": self.tau[i, j] - base[j],
                }
                for i, d in enumerate(self.depths)
                for j, n in enumerate(self.steps)
            ]
        )


def _updated_probs(rng, size, L: int, M: int) -> np.ndarray:
    """Success probabilities ``(*size, L, M)`` of updated models:
    ``Beta(i + 3 + σ, 12 - i + σ')`` with independent random signs ``σ, σ' = ±1``."""
    i = np.arange(1, L + 1)
    sig = rng.choice([-1, 1], size=size + (L, 2))
    a = (i + 3 + sig[..., 0])[..., None]
    b = (12 - i + sig[..., 1])[..., None]
    return rng.beta(a, b, size=size + (L, M))


def prior_depth(
    *,
    M: int = 30,
    depths: Sequence[int] = (0, 1, 2, 4, 8, 16),
    steps: Sequence[int] = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80),
    replicates: int = 5000,
    updates: int = 50_000,
    match_paper_means: bool = True,
    seed=0,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> PriorDepth:
    """Prior depth study of 000 App. C (Fig. 5).

    Eight *original* models ``i = 1..8`` have ``M`` fixed success probabilities drawn from
    ``Beta(i + 3, 12 - i)`` (with ``match_paper_means``, shifted in logit space so their
    means equal the paper's ``π̄ = 0.3021 ... 0.7487``). An *update* of model ``i`` draws
    fresh probabilities from ``Beta(i + 3 + σ, 12 - i + σ')``, ``σ, σ' = ±1`` at random.

    * Fig. 5a: τ_b between the original ranking (by original ``π̄``) and the ranking of
      the updated ``π̄``, over ``updates`` draws (paper: mean 0.88; ~86 % change).
    * Fig. 5b/c: per replicate, one set of updates; ``N`` trials of each updated model and
      ``R0`` = ``D`` trials of the matching original model; Bayes@N with that prior ranks
      the updated models; τ_b against their true ranking (by updated ``π̄``). Replicates,
      the updated models' trials and the prior trials are shared across ``D`` and nested
      across ``N`` and ``D`` (common random numbers), so differences between curves are
      not sampling noise of separate runs.

    Replicates run in pieces of up to :data:`BLOCK`, on ``executor``'s Dask cluster if
    given (:class:`scorio_core.parallel.Executor`); the result is the same either way.

    Example
    -------
    >>> r = prior_depth(depths=(0, 2), steps=(1, 5), replicates=200, updates=500, seed=0)
    >>> r.tau.shape, 0.7 < r.update_summary["mean_tau"] < 1.0
    ((2, 2), True)
    """
    M = check_int("M", M)
    B, U = check_int("replicates", replicates), check_int("updates", updates)
    Ds = tuple(sorted({check_int("depth", d, minimum=0) for d in depths}))
    S = check_steps(max(steps) if len(steps) else 1, steps)
    rng = _rng(seed)
    L = 8
    i = np.arange(1, L + 1)
    orig = rng.beta((i + 3)[:, None], (12 - i)[:, None], size=(L, M))
    if match_paper_means:
        orig = shift_to_means(orig, np.array(PAPER_ORIGINAL_MEANS))
    orig_rank = rank_scores(orig.mean(-1))

    upd = _updated_probs(rng, (U,), L, M)
    tau_update = tau_b_to(rank_scores_batch(upd.mean(-1)), orig_rank)

    # pieces bound memory (~2e6 questions per array) and fix the streams: piece i draws
    # from its own stream, whatever runs it
    size = max(1, min(BLOCK, 2_000_000 // (L * M)))
    entropy = _entropy(rng)
    items = [(a, b, entropy, i) for i, (a, b) in enumerate(_blocks(B, size))]
    parts = _map(executor, _depth_piece, items, (orig, Ds, S), progress, B, "replicates")
    tau = np.concatenate(parts, axis=-1)
    mean, sd = np.nanmean(tau, -1), np.nanstd(tau, -1)
    settings = {
        "M": M,
        "replicates": B,
        "updates": U,
        "match_paper_means": match_paper_means,
        "seed": seed if isinstance(seed, int) else None,
    }
    return PriorDepth(orig, tau_update, S, Ds, mean, sd, B, settings)


def _depth_piece(
    a: int, b: int, entropy: int, index: int, orig: np.ndarray, Ds: tuple[int, ...],
    S: np.ndarray,
) -> np.ndarray:
    """Replicates ``a:b`` of :func:`prior_depth`: τ_b ``(len(Ds), len(S), b - a)``."""
    rng = _piece_rng(entropy, index)
    b, (L, M) = b - a, orig.shape
    w = np.array([0.0, 1.0])
    tau = np.zeros((len(Ds), S.size, b))
    p = _updated_probs(rng, (b,), L, M)
    target = rank_scores_batch(p.mean(-1))
    # Bayes@N's mu only needs each category's total over questions: pooling the M
    # questions into one with prior counts Σ n0 + (M - 1) gives the same ν totals, T' = M T
    # and therefore exactly the same mu (sigma is not used here) at 1/M of the cost.
    c0, prev, n0 = np.zeros((b, L, M)), 0, {}
    for d in Ds:  # prior trials of the originals, nested in D
        if d > prev:
            c0 += rng.binomial(d - prev, np.broadcast_to(orig, (b, L, M)))
            prev = d
        tot = c0.sum(-1)
        n0[d] = np.stack([d * M - tot, tot], -1)[..., None, :] + (M - 1)
    c, prev = np.zeros((b, L, M)), 0
    for j, s in enumerate(S):
        c += rng.binomial(int(s) - prev, p)
        prev = int(s)
        tot = c.sum(-1)
        n = np.stack([s * M - tot, tot], -1)[..., None, :]
        for k, d in enumerate(Ds):
            mu = ev.bayes_from_counts(n, w, n0[d]).mu
            tau[k, j] = _tau_rows(rank_scores_batch(mu), target)
    return tau


# ---------------------------------------------------------------------------
# 3. probability of the correct order (000 App. D, Fig. 6)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class CorrectOrder:
    """Result of :func:`correct_order`.

    ``table``: per ``N``: ``p_correct`` (simulated probability that Bayes@N ranks the
    truly better model first), ``z_mean`` (mean |z| over simulated datasets) and
    ``rho`` = Φ(z_mean). ``n_at`` maps a z threshold to the first ``N`` of the grid
    where ``z_mean`` reaches it (NaN if none); ``predicted_at`` to the median
    trials-needed prediction (:func:`scorio_core.decision.trials_needed_from`) made
    from datasets of ``N = predict_from`` trials.
    """

    table: pd.DataFrame
    n_at: dict[float, float]
    predicted_at: dict[float, float]
    true_means: tuple[float, float]
    concentration: float
    predict_from: int


def correct_order(
    upper: float = 0.6213,
    lower: float = 0.608,
    *,
    M: int = 30,
    concentration: float = 3.0,
    n_values: Sequence[int] = tuple(range(10, 401, 10)),
    n_sims: int = 4000,
    thresholds: Sequence[float] = (1.645, 1.96),
    predict_from: int = 80,
    seed=0,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> CorrectOrder:
    """How many trials separate two close models? (000 App. D, Fig. 6; LLM10 vs LLM9).

    Two mimics with exact means ``upper > lower`` over ``M`` fixed questions
    (``Beta`` spread ``κ`` = ``concentration``). The probability of the correct order
    is :func:`scorio_core.decision.prob_correct_order`; the z-score
    ``|mu - mu'| / sqrt(σ² + σ'²)`` is averaged over ``n_sims`` fresh datasets per ``N``.

    The answer depends on the spread: Bayes@N's error on the mean over fixed questions
    has variance ``≈ Σ_α p_α (1 - p_α) / (M² N)``, and ``mean p(1-p) = m(1-m) - Var(p)``,
    so a wider spread of question difficulty (smaller ``κ``) means less trial noise, a
    larger z and a higher probability of the correct order at the same ``N``.

    Each ``N`` of the grid (and the prediction from ``predict_from`` trials) is one piece
    with its own stream, run on ``executor``'s Dask cluster if given
    (:class:`scorio_core.parallel.Executor`); the result is the same either way.

    Example
    -------
    >>> r = correct_order(n_values=(20, 80), n_sims=300, seed=0)
    >>> r.table["N"].tolist(), bool(r.table["p_correct"].iloc[1] > 0.6)
    ([20, 80], True)
    """
    if not 0 < lower < upper < 1:
        raise ValidationError(f"need 0 < lower < upper < 1; got lower={lower}, upper={upper}")
    ns = np.unique(np.asarray(list(n_values), dtype=int))
    if ns.size == 0 or ns.min() < 1:
        raise ValidationError(f"n_values must be positive whole numbers; got {list(n_values)}")
    sims = check_int("n_sims", n_sims)
    rng = _rng(seed)
    sim = mimics([upper, lower], M, concentration=concentration, seed=rng)
    n80 = check_int("predict_from", predict_from)
    ts = tuple(float(t) for t in thresholds)
    entropy = _entropy(rng)
    items = [("order", int(n), entropy, j) for j, n in enumerate(ns)]
    items.append(("predict", n80, entropy, ns.size))
    parts = _map(executor, _order_piece, items, (sim.p, sims, ts), progress, len(items),
                 "trial counts")
    p_correct = np.array([pc for pc, _ in parts[:-1]])
    z_mean = np.array([z for _, z in parts[:-1]])
    table = pd.DataFrame(
        {"N": ns, "p_correct": p_correct, "z_mean": z_mean, "rho": special.ndtr(z_mean)}
    )
    n_at = {}
    for t in ts:
        hit = np.nonzero(z_mean >= t)[0]
        n_at[t] = float(ns[hit[0]]) if hit.size else float("nan")
    predicted = parts[-1]
    return CorrectOrder(
        table, n_at, predicted, (float(upper), float(lower)), float(concentration), n80
    )


def _order_piece(
    kind: str, n: int, entropy: int, index: int, p: np.ndarray, sims: int, thresholds
):
    """One piece of :func:`correct_order`: ``"order"``: ``(p_correct, z_mean)`` at
    ``N = n``; ``"predict"``: the median trials-needed prediction per threshold from
    datasets of ``n`` trials."""
    rng = _piece_rng(entropy, index)
    w = np.array([0.0, 1.0])
    many = np.broadcast_to(p, (sims,) + p.shape)
    if kind == "predict":
        # What a practitioner holding n trials would predict: the trials-needed rule of
        # decision.trials_needed_from (z grows like sqrt(T + 1)), applied to every dataset.
        post = ev.bayes_from_counts(sample_counts(many, n, rng).astype(float), w)
        return {
            t: float(np.median(expected_z_trials(
                np.abs(post.mu[:, 0] - post.mu[:, 1]), np.hypot(post.sigma[:, 0], post.sigma[:, 1]),
                n, 2 + n, z_star=t)[1]))
            for t in thresholds
        }
    p_correct = float(prob_correct_order(p[0], p[1], [n], w=w, n_sims=sims, rng=rng)[0])
    post = ev.bayes_from_counts(sample_counts(many, n, rng), w)
    gap = np.abs(post.mu[:, 0] - post.mu[:, 1])
    return p_correct, float(np.mean(gap / np.sqrt(post.sigma[:, 0] ** 2 + post.sigma[:, 1] ** 2)))


# ---------------------------------------------------------------------------
# 4. interval calibration
# ---------------------------------------------------------------------------
def _intervals(n: np.ndarray, w: np.ndarray, confidence: float, scope: str) -> dict:
    """``{method: (lo, hi)}`` for counts ``(B, L, M, C+1)``: the leaderboard's headline in
    ``scope`` (:func:`scorio_core.inference.model_intervals`, the same code) and the papers'
    Bayes@N interval ``mu ± z·sigma`` (000 §2.4)."""
    from .inference import model_intervals, score_stats

    B, L, M, K = n.shape
    _, _, lo, hi = model_intervals(score_stats(n.reshape(B * L, M, K), w), scope, confidence)
    post = ev.bayes_from_counts(n, w)
    z = ev.z_value(confidence)
    return {"headline": (lo.reshape(B, L), hi.reshape(B, L)),
            "Bayes@N (papers)": (post.mu - z * post.sigma, post.mu + z * post.sigma)}


def _questions_scope(n: np.ndarray, p: np.ndarray, w: np.ndarray, confidence: float, **_):
    """``questions`` scope: the truth is the mean over the drawn questions."""
    return _intervals(n, w, confidence, "questions"), (p @ w).mean(-1)


def _population_scope(
    n: np.ndarray, p: np.ndarray, w: np.ndarray, confidence: float, *, population_mean
):
    """``population`` scope: the truth is the mean of the population the questions were
    drawn from."""
    truth = np.broadcast_to(population_mean, n.shape[:2])
    return _intervals(n, w, confidence, "population"), truth


#: Interval scopes for :func:`interval_coverage`, the two of the leaderboard: name ->
#: ``f(counts (B, L, M, C+1), p (B, L, M, C+1), w, confidence, population_mean=(L,))
#: -> ({method: (lo, hi)}, truth)`` each ``(B, L)``.
COVERAGE_SCOPES: dict[str, Callable] = {
    "questions": _questions_scope,
    "population": _population_scope,
}


@dataclass(frozen=True)
class Coverage:
    """Result of :func:`interval_coverage`: ``table`` with one row per
    (scope, interval, M, N): ``coverage`` (share of intervals containing the truth, pooled
    over models and datasets; NaN where the headline is not identified: questions scope at
    N = 1), ``se`` (its binomial standard error), ``width`` (mean width)."""

    table: pd.DataFrame
    confidence: float
    settings: dict = field(default_factory=dict)


def interval_coverage(
    means=(0.5,),
    *,
    M_values: Sequence[int] = (10, 30, 100),
    N_values: Sequence[int] = (1, 2, 4, 8, 16, 32, 64),
    concentration: float = 2.0,
    replicates: int = 2000,
    confidence: float = 0.95,
    scopes: Sequence[str] = ("questions", "population"),
    weights=None,
    seed=0,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> Coverage:
    """Share of intervals that cover the truth, vs ``N`` and ``M``: the leaderboard's
    headline interval beside the papers' Bayes@N interval, in each scope.

    Each replicate draws fresh questions (per-question probabilities around ``means``
    with concentration ``κ``) and ``N`` trials. In the ``questions`` scope the truth is
    the mean over the drawn questions; in the ``population`` scope it is the mean of the
    population the questions were drawn from. The papers' Bayes@N interval assumes each
    question's probability follows its uniform prior; far from it (e.g. every question
    near 0.9, large ``κ``) its pull toward 1/2 with an interval that shrinks like
    ``1/√(MN)`` misses at small ``N`` (coverage near 0 at M = 100). The headline
    (:mod:`scorio_core.inference`) has no such pull and counts each noise source once, so
    it holds its level across ``M``, ``N`` and means; it is not identified in the
    questions scope at ``N = 1`` (NaN coverage). The full grid with skewed benchmarks
    is ``benchmarks/calibration.py``.

    For each ``M`` the replicates run in pieces of :data:`BLOCK`, on ``executor``'s Dask
    cluster if given (:class:`scorio_core.parallel.Executor`); the result is the same
    either way.

    Example
    -------
    >>> c = interval_coverage(M_values=(30,), N_values=(4,), replicates=300, seed=0)
    >>> bool(0.9 < c.table["coverage"].iloc[0] < 1.0)
    True
    """
    conf = check_confidence(confidence)
    shares, w = _as_means(means, weights)
    B = check_int("replicates", replicates)
    unknown = [s for s in scopes if s not in COVERAGE_SCOPES]
    if unknown or not scopes:
        raise ValidationError(f"scopes must be among {sorted(COVERAGE_SCOPES)}; got {list(scopes)}")
    Ms = [check_int("M", m) for m in M_values]
    Ns = [check_int("N", n) for n in N_values]
    scopes = tuple(scopes)
    entropy = _entropy(_rng(seed))
    blocks = _blocks(B)
    items = [(m, b - a, entropy, i * len(blocks) + k)
             for i, m in enumerate(Ms) for k, (a, b) in enumerate(blocks)]
    parts = _map(executor, _coverage_piece, items,
                 (shares, w, concentration, tuple(Ns), scopes, conf), progress,
                 len(Ms) * B, "datasets")
    rows = []
    for i, m in enumerate(Ms):
        mine = parts[i * len(blocks) : (i + 1) * len(blocks)]
        for n in Ns:
            for scope in scopes:
                for method in mine[0][n, scope]:
                    hit = np.concatenate([part[n, scope][method][0] for part in mine])
                    width = np.concatenate([part[n, scope][method][1] for part in mine])
                    ok = ~np.isnan(width)
                    cov = float(hit[ok].mean()) if ok.any() else float("nan")
                    rows.append(
                        {
                            "scope": scope,
                            "interval": method,
                            "M": m,
                            "N": n,
                            "coverage": cov,
                            "se": float(np.sqrt(cov * (1 - cov) / max(ok.sum(), 1))),
                            "width": float(width[ok].mean()) if ok.any() else float("nan"),
                        }
                    )
    settings = {
        "means": np.asarray(means, float).tolist(),
        "concentration": concentration,
        "replicates": B,
    }
    return Coverage(pd.DataFrame(rows), conf, settings)


def _coverage_piece(
    m: int, b: int, entropy: int, index: int, shares: np.ndarray, w: np.ndarray,
    concentration: float, Ns: tuple[int, ...], scopes: tuple[str, ...], conf: float,
) -> dict[tuple[int, str], tuple[np.ndarray, np.ndarray]]:
    """``b`` datasets of ``m`` fresh questions for :func:`interval_coverage`:
    ``{(N, scope): {interval: (covered (b, L), width (b, L))}}``."""
    rng = _piece_rng(entropy, index)
    arg = shares if shares.shape[1] > 2 else shares[:, 1]
    p = question_probs(arg, m, concentration=concentration, size=(b,), seed=rng)
    out = {}
    for n in Ns:
        counts = sample_counts(p, n, rng)
        for scope in scopes:
            ivs, truth = COVERAGE_SCOPES[scope](counts, p, w, conf, population_mean=shares @ w)
            out[n, scope] = {k: ((lo <= truth) & (truth <= hi), hi - lo)
                             for k, (lo, hi) in ivs.items()}
    return out


# ---------------------------------------------------------------------------
# 5. rubric lesson (000 §2.3-2.4, Algorithm 1)
# ---------------------------------------------------------------------------
#: The categorical worked example of 001 / SPEC §3: two questions, five trials, C = 2.
LESSON_R = ((0, 1, 2, 2, 1), (1, 1, 0, 2, 2))


@dataclass(frozen=True)
class RubricLesson:
    """Bayes@N for one model, term by term (Algorithm 1).

    ``table``: per question ``α``: counts ``ν_αk`` (data + prior + 1), the question's
    posterior mean score ``m_α = Σ_k (ν_αk/T)(w_k - w0)`` and variance term
    ``v_α = Σ_k (ν_αk/T)(w_k - w0)² - m_α²``. Then ``mu = w0 + (1/M) Σ m_α`` and
    ``sigma² = Σ v_α / (M² (T + 1))``; ``mu, sigma`` agree with
    :func:`scorio_core.eval.bayes`.
    """

    table: pd.DataFrame
    weights: tuple[float, ...]
    T: int
    M: int
    mu: float
    sigma: float


def rubric_lesson(R=LESSON_R, w=(0.0, 0.5, 1.0), R0=None) -> RubricLesson:
    """The closed form of Bayes@N for a small categorical ``R (M, N)`` and weights ``w``.

    Example
    -------
    >>> les = rubric_lesson()
    >>> round(les.mu, 6), round(les.sigma, 6)
    (0.5625, 0.091998)
    """
    n, n0, wv = ev.prepare_counts(R, w, R0)
    if n.ndim != 2:
        raise ValidationError(f"the lesson takes one model's R (M, N); got shape {np.shape(R)}")
    nu = n + 1 + (0 if n0 is None else n0)
    T = int(nu[0].sum())
    M = n.shape[0]
    dw = wv - wv[0]
    m_a = (nu / T) @ dw
    v_a = (nu / T) @ (dw * dw) - m_a**2
    mu = float(wv[0] + m_a.mean())
    sigma = float(np.sqrt(max(v_a.sum(), 0.0) / (M * M * (T + 1))))
    ref = ev.bayes(R, wv, R0)
    assert abs(ref.mu - mu) < 1e-12 and abs(ref.sigma - sigma) < 1e-12
    table = pd.DataFrame({"question": [f"Q{a + 1}" for a in range(M)]})
    for k in range(nu.shape[1]):
        table[f"ν_{k}"] = nu[:, k]
    table["m_α"] = m_a
    table["v_α"] = v_a
    return RubricLesson(table, tuple(float(x) for x in wv), T, M, mu, sigma)
