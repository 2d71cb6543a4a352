"""LLM mimics with known truth, and the machinery every study shares (Don't Pass@k (2026), §2.7,
eq. 4).

A *mimic* is a biased coin (or a loaded die, for categorical outcomes) per
question: model ``l`` answers question ``α`` in category ``k`` with probability
``p[l, α, k]``, independently on every trial. Because ``p`` is known, so is the
truth: the weighted mean over the questions, ``π̄_l = (1/M) Σ_α Σ_k p[l, α, k] w_k``
(Don't Pass@k (2026), eq. 4), and therefore the true ranking.

Per-question probabilities scatter around each model's mean: binary success
probabilities ``p ~ Beta(κ m, κ (1 - m))`` and categorical probability vectors
``p ~ Dirichlet(κ · shares)``, where the concentration ``κ`` sets the spread
(large ``κ``: every question equally hard; ``κ = 2`` with ``m = 0.5``: uniform,
the Bayes@N prior itself). ``exact_means=True`` (binary) shifts each model's
draws by one constant in logit space so the mean over its ``M`` questions equals
the requested value exactly (as the paper's LLM mimics, whose π̄ are listed).

The studies (one module each beside this one) split their replicates into pieces of a
fixed size (:data:`BLOCK`), each drawing from its own random stream derived from the
study's seed and the piece's index (:func:`scorio_core.resampling.stream`), and run them through
:func:`_map`: on ``executor=`` (:class:`scorio_core.parallel.Executor`, a Dask cluster)
or here, one after the other. Either way the numbers are the same: neither the pieces nor
their streams depend on where or how many run at once. This module is the one place that
seeds and maps the pieces. The studies' grids of trial counts are
:func:`scorio_core._validation.check_steps`, as for the convergence engine.

Example
-------
>>> sim = sc.simulate.mimics([0.3, 0.6], M=20, seed=0)
>>> [round(float(t), 12) for t in sim.truth]
[0.3, 0.6]
>>> sim.outcomes(N=8, seed=1).shape
(2, 20, 8)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import special

from .._ties import rank_scores
from .._validation import (
    ValidationError,
    as_names,
    as_numbers,
    check_int,
    check_number,
    checked_keywords,
    checked_methods,
    no_text,
)
from ..display import Displayed, View
from ..engines.agreement import _signs
from ..formatting import count_text, weight_text
from ..outcomes import Outcomes, frozen
from ..resampling import run_pieces

__all__ = [
    "PAPER_COINS",
    "BLOCK",
    "Mimics",
    "mimics",
    "question_probs",
    "shift_to_means",
    "sample_outcomes",
    "sample_counts",
    "greedy_outcomes",
]

#: ``progress(fraction, label)``, called after each finished piece of a study.
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


def _map(executor, fn, items, shared, progress, total: int, unit: str) -> list:
    """``[fn(*item, *shared) for item in items]`` on ``executor`` (this process when None),
    in order, so the result is the same either way; ``progress`` hears of each finished
    piece as "k of total unit"."""
    report = None
    if progress is not None:
        def report(frac: float, _label: str) -> None:
            progress(frac, f"{round(frac * total)} of {total} {unit}")
    return run_pieces(fn, items, shared=shared, executor=executor, progress=report)


# ---------------------------------------------------------------------------
# per-question probabilities and outcomes
# ---------------------------------------------------------------------------
def _probabilities(p: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """``p`` as a float array; a string is refused as one (a table of probabilities has no
    typed form), not read as text."""
    return np.asarray(no_text(p, "p", "probabilities: an array or nested lists"), dtype=float)


@checked_keywords
def shift_to_means(p: np.ndarray | Sequence[Sequence[float]], means) -> np.ndarray:
    """Shift each row of success probabilities ``p (..., M)`` by one constant in logit
    space so that its mean equals ``means (...)`` exactly (to ~1e-15).

    Safeguarded Newton on ``f(d) = mean(expit(logit(p) + d)) - m`` (monotone in ``d``),
    vectorized over all leading axes.

    Example
    -------
    >>> import numpy as np
    >>> p = sc.simulate.shift_to_means(np.array([[0.1, 0.5, 0.9]]), np.array([0.3]))
    >>> round(float(p.mean()), 12)
    0.3
    """
    p = _probabilities(p)
    if isinstance(means, str):  # one mean per row of p, as --means reads them
        means = as_numbers(means, "means", kind=float, example="0.5,0.8")
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
    """``(shares (L, C+1), weights (C+1,))`` from binary means ``(L,)`` or shares ``(L, C+1)``;
    a string is read as ``--means 0.5,0.8`` (``--weights 0,0.5,1``) is."""
    if isinstance(means, str):
        means = as_numbers(means, "means", kind=float, example="0.5,0.8")
    if isinstance(weights, str):
        weights = as_numbers(weights, "weights", kind=float, example="0,0.5,1")
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


@checked_keywords
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
    >>> sc.simulate.question_probs([0.2, 0.7], M=4, seed=0).shape
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
        raise ValidationError(
            f"exact_means is available for binary means only; these means are shares of "
            f"{K} categories: leave it off (exact_means=False), or give one success rate per "
            "model (means of shape (L,), e.g. [0.3, 0.7])")
    g = rng.standard_gamma(kappa * shares[:, None, :], size=size + (L, M, K))
    return g / g.sum(-1, keepdims=True)


@checked_keywords
def sample_outcomes(p: np.ndarray | Sequence[Sequence[float]], N: int, seed=None) -> np.ndarray:
    """``N`` i.i.d. outcomes per question: ``R (..., M, N)`` int8 from ``p (..., M, C+1)``.

    Binary: ``R = [u < p_1]`` with ``u ~ U(0, 1)``; categorical: inverse CDF.

    Example
    -------
    >>> import numpy as np
    >>> sc.simulate.sample_outcomes(np.array([[0.0, 1.0], [1.0, 0.0]]), 3, seed=0).tolist()
    [[1, 1, 1], [0, 0, 0]]
    """
    p = _probabilities(p)
    N = check_int("N", N)
    u = _rng(seed).random(p.shape[:-1] + (N,))
    if p.shape[-1] == 2:
        return (u < p[..., 1:2]).astype(np.int8)
    cum = np.cumsum(p, -1)[..., None, :-1]  # (..., M, 1, C)
    return (u[..., None] >= cum).sum(-1).astype(np.int8)


@checked_keywords
def sample_counts(p: np.ndarray | Sequence[Sequence[float]], N: int, seed=None) -> np.ndarray:
    """Category counts of ``N`` trials per question, ``(..., M, C+1)``, drawn directly
    (binomial / multinomial): the same distribution as counting :func:`sample_outcomes`
    at a fraction of the cost, for studies that only need counts.

    Example
    -------
    >>> import numpy as np
    >>> sc.simulate.sample_counts(np.array([[0.5, 0.5]]), 10, seed=0).sum(-1).tolist()
    [10]
    """
    p = _probabilities(p)
    N = check_int("N", N, minimum=0)
    rng = _rng(seed)
    if p.shape[-1] == 2:
        c1 = rng.binomial(N, p[..., 1])
        return np.stack([N - c1, c1], -1)
    return rng.multinomial(N, p)


@checked_keywords
def greedy_outcomes(p: np.ndarray | Sequence[Sequence[float]], D: int = 1,
                    sharpness: float = 4.0, seed=None) -> np.ndarray:
    """Greedy-decode outcomes ``(..., M, D)`` correlated with the samples through ``p``.

    Greedy decoding is sampling at temperature → 0; we model it as sampling from the
    tempered probabilities ``q_k ∝ p_k^γ`` (``γ`` = ``sharpness``): ``γ = 1`` is one more
    sample, large ``γ`` returns each question's most likely category (binary: correct
    iff ``p > 1/2``), so a greedy answer is right mostly where sampling is.

    Example
    -------
    >>> import numpy as np
    >>> p = np.array([[0.2, 0.8], [0.9, 0.1]])
    >>> sc.simulate.greedy_outcomes(p, sharpness=200, seed=0).ravel().tolist()
    [1, 0]
    """
    p = _probabilities(p)
    gamma = check_number("sharpness", sharpness)
    logq = gamma * np.log(np.clip(p, 1e-300, None))
    q = np.exp(logq - logq.max(-1, keepdims=True))
    return sample_outcomes(q / q.sum(-1, keepdims=True), check_int("D", D), seed)


#: What each column of a :class:`Mimics` display holds (its "Columns:" legend).
MIMICS_COLUMNS = {
    "true_mean": "the model's true mean score over the M questions: the mean of its "
    "per-question expected scores p @ weights (the truth a simulated run is measured against)",
    "true_rank": "competition rank of true_mean (1 = best; exact ties share a rank)",
    "question_sd": "standard deviation of the model's per-question expected scores across "
    "the questions: how much the questions differ for it (set by the concentration κ)",
}


@checked_methods
@dataclass(frozen=True, eq=False, repr=False)
class Mimics(Displayed):
    """A set of LLM mimics: fixed per-question category probabilities with known truth.

    In a notebook it displays its models' true means and ranks (a short text repr in a
    terminal), not its ``p`` array.

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

    def _view(self) -> View:
        """The display: one row per model with its true mean, rank and question spread."""
        import pandas as pd

        L, M, K = self.p.shape
        per_q = self.per_question
        table = pd.DataFrame({"model": list(self.models), "true_mean": self.truth,
                              "true_rank": self.true_ranks,
                              "question_sd": per_q.std(-1, ddof=1) if M > 1 else np.nan})
        cats = ", ".join(f"{c} {weight_text(w)}" for c, w in zip(self.category_names,
                                                                  self.weights, strict=True))
        caption = " · ".join([self.description or f"{count_text(L, 'model')} × "
                              f"{count_text(M, 'question')}", f"categories and weights: {cats}"])
        note = ("Draw a dataset with this truth: sim.outcomes(N=8, seed=0) (an Outcomes whose "
                "metadata hold true_means and true_p); outcome tensors: sim.sample(N); the "
                f"per-question probabilities: sim.p ({L} × {M} × {K}).")
        return View("Simulated mimics (known truth)", caption, [("", table)], [note],
                    meanings=[MIMICS_COLUMNS])

    @property
    def per_question(self) -> np.ndarray:
        """True expected weighted score of every (model, question): ``p @ w``, ``(L, M)``."""
        return self.p @ self.weights

    @property
    def truth(self) -> np.ndarray:
        """True means ``π̄ (L,)`` over the ``M`` questions (Don't Pass@k (2026), eq. 4)."""
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
            meta["greedy"] = (f"{count_text(greedy, 'greedy trial')}, tempered probabilities "
                              f"p^{sharpness:g}")
        return Outcomes(
            frozen(R),
            R0 if R0 is None else frozen(R0),
            weights=self.weights,
            category_names=self.category_names,
            models=self.models,
            questions=[f"Q{q + 1:02d}" for q in range(M)],
            name=meta["name"],
            metadata=meta,
        )


@checked_keywords
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
        Binary mean success probabilities (default: the 11 coins of Don't Pass@k (2026), §2.7) or
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
    >>> sim = sc.simulate.mimics([[0.2, 0.3, 0.5], [0.5, 0.3, 0.2]], M=50, weights=[0, 0.5, 1],
    ...                          seed=0)
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
    # one name per model / category; a string is split at its commas unless one is wanted
    names = (as_names(models, "models", noun="model names", count=L) if models is not None
             else tuple(f"LLM_{i + 1}" for i in range(L)))
    cats = (
        as_names(category_names, "category_names", noun="category names", count=K)
        if category_names is not None
        else (("wrong", "correct") if K == 2 else tuple(f"cat{k}" for k in range(K)))
    )
    if len(names) != L or len(cats) != K:
        raise ValidationError(
            f"expected {L} model names and {K} category names; got {len(names)} and {len(cats)}"
        )
    dist = "Beta(κm, κ(1-m))" if K == 2 else "Dirichlet(κ·shares)"
    desc = (
        f"{L} simulated models × {M} questions; per-question probabilities ~ {dist} with "
        f"κ = {concentration:g}"
        + ("; shifted in logit space so each mean is exact" if exact else "")
    )
    return Mimics(p, w, names, cats, desc, shares, float(concentration), exact)



# ---------------------------------------------------------------------------
# known-truth agreement, shared by the studies that rank
# ---------------------------------------------------------------------------
def _tau_rows(ranks: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Kendall τ_b of each row of ``ranks (..., L)`` against the matching row of
    ``targets (..., L)`` (the pair-sign form of :func:`~scorio_core.engines.tau_b_to`)."""
    S, T = _signs(np.asarray(ranks, float)), _signs(np.asarray(targets, float))
    n = np.abs(S).sum(-1) * np.abs(T).sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (S * T).sum(-1) / np.sqrt(n)
    return np.where(n > 0, tau, np.nan)

