"""Calibration of the headline intervals and decisions, measured by simulation with known truth.

SPEC §4 makes calibration the contract: at nominal 95% every headline interval of
:mod:`scorio_core.inference` covers its estimand 93–97% of the time (90–98% at
``M = 15``) across ``M ∈ {15, 30, 100, 500}``, ``N ∈ {1, 2, 4, 8, 32}``, U-shaped, easy and
hard benchmarks and question difficulty shared across models, for binary and weighted
categorical outcomes; an exact tie is decided at most ``1 − c`` of the time, the rank
intervals hold simultaneously and ``p_best`` and the rank distribution are calibrated.
This module measures each of these promises with the product's own code paths --
:func:`~scorio_core.inference.score_stats`, :func:`~scorio_core.inference.model_intervals`
and :func:`~scorio_core.inference.infer` -- never a re-implementation of the headline.
Two reference intervals sit beside it:

* the papers' Bayes@N interval ``μ ± z σ`` (:func:`scorio_core.eval.bayes_from_counts`,
  uniform Dirichlet prior per question), clipped to the weight range;
* the plain ``t`` interval of each scope, clipped to the weight range: population,
  ``x̄ ± t_{M−1} sd(ȳ_α) / √M`` (clustered by question); questions,
  ``x̄ ± t_{M(N−1)} (Σ_α s²_α / (N M²))^{1/2}`` with ``s²_α`` the unbiased within-question
  variance (zero on a question whose trials agreed).

Simulation design (:data:`BENCHMARKS`):

* Beta populations -- per-question success probabilities ``p_α ~ Beta(m c, (1 − m) c)``.
  Each replicate jitters the benchmark's mean ``m₀`` to ``m = m₀ (1 + U(−0.15, 0.15))``
  at the same concentration ``c``, so a cell averages over a small neighbourhood of
  populations instead of resting on one value of ``m`` (whose coverage oscillates with
  the discreteness of the binomial counts). The population estimand is the jittered ``m``.
* Logit population -- ``p_α = expit(θ − b_α)`` with difficulties ``b_α ~ N(0, 2²)`` shared
  by the models of a replicate; for coverage each replicate draws ``θ ~ U(−1, 1)``
  (population means about 0.35–0.65), whose population mean ``E_b[expit(θ − b)]`` is
  computed by Gauss–Hermite quadrature.
* Categorical outcomes -- weights ``(0, 0.5, 1)``. Given a question's expected binary
  score ``s`` from the benchmark, its category probabilities are
  ``q ~ Dirichlet(κ π(s))`` with ``κ =`` :data:`CATEGORY_CONCENTRATION` and mean
  ``π(s) = (1 − s − h/2, h, s − h/2)``, ``h = min(s, 1 − s)``: half credit takes
  ``min(s, 1 − s)`` of the mass and ``π(s)·w = s``, so the expected score keeps the
  benchmark's population mean while questions vary in their category mix.

The questions-scope estimand of a replicate is the mean over its ``M`` drawn questions of
each model's expected score (``p_α`` or ``q_α·w``); the population estimand is the
population mean. Marginal coverage of one model's interval depends only on that model's
own questions and trials, so coverage replicates are stacked as "models" in one
:func:`~scorio_core.inference.score_stats` call (each model gets its own fitted Dirichlet
concentration, exactly as in a leaderboard); decisions, rank intervals and ``p_best``
need whole fields of models and call :func:`~scorio_core.inference.infer` per replicate.

Randomness: every cell has its own ``np.random.SeedSequence`` built from ``seed`` and the
cell's settings; blocks of replicates spawn child streams, so results do not depend on the
batch size used to bound memory, nor on where a cell runs. ``python
benchmarks/calibration.py`` prints the full grid.

Example
-------
>>> from scorio_core.calibration import coverage
>>> cell = coverage("u-shaped", 30, 4, scope="population", reps=200, seed=1)
>>> cell.identified, bool(0.85 < cell.headline < 1.0), cell.band
(True, True, (0.93, 0.97))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
from scipy import special

from . import eval as ev
from ._validation import ValidationError, check_confidence, check_int
from .estimands import ADJUSTMENTS, CALIBRATED_M, SCOPES
from .inference import ScoreStats, decide_pvalues, infer, model_intervals, score_stats
from .inference import _decisions as inference_decisions
from .resampling import blocks, run_pieces, stream

__all__ = [
    "Benchmark",
    "BENCHMARKS",
    "CATEGORY_WEIGHTS",
    "CATEGORY_CONCENTRATION",
    "GRID",
    "target_band",
    "share_se",
    "CoverageCell",
    "coverage",
    "TieError",
    "TIE_DESIGNS",
    "tie_error",
    "tie_errors",
    "RankCoverage",
    "rank_coverage",
    "rank_coverages",
    "PBestCalibration",
    "p_best_calibration",
    "p_best_success",
    "ResampleCheck",
    "resample_check",
    "resample_p_best",
    "calibration_table",
    "PairCoverage",
    "pair_coverage",
    "pair_coverages",
    "PAIR_GRID",
    "CurveCoverage",
    "curve_coverage",
    "curve_coverages",
    "CURVE_GRID",
    "curve_calibration_table",
]

#: Weights of the categorical variant (wrong, half credit, right).
CATEGORY_WEIGHTS = np.array([0.0, 0.5, 1.0])
#: Dirichlet concentration of a question's category mix around its mean (module docstring).
CATEGORY_CONCENTRATION = 4.0
#: Relative jitter of a Beta benchmark's mean per replicate (± 15 %).
JITTER = 0.15
#: s.d. of the shared question difficulty of the logit benchmark.
LOGIT_SD = 2.0
#: Replicates per random stream (child ``SeedSequence``); fixed, so batching never matters.
_BLOCK = 100
#: Model–question cells per :func:`score_stats` call (its Dirichlet fit holds a few
#: arrays of ``cells × 49`` floats: about 80 MB each at this size).
_CELLS = 200_000
_GH_X, _GH_W = np.polynomial.hermite_e.hermegauss(80)
_GH_W = _GH_W / _GH_W.sum()


def _expit_normal_mean(theta, sd: float) -> np.ndarray:
    """``E[expit(θ − s Z)]``, ``Z ~ N(0, 1)``, per ``θ`` (Gauss–Hermite, 80 nodes): the
    population mean of a logit model whose question effects are normal with s.d. ``sd``."""
    theta = np.asarray(theta, dtype=float)
    return special.expit(theta[..., None] - sd * _GH_X) @ _GH_W


@dataclass(frozen=True)
class Benchmark:
    """A population of question difficulties (:data:`BENCHMARKS`).

    Attributes
    ----------
    name : str
    kind : {"beta", "logit"}
    mean : float
        Population mean of the expected binary score (``θ = 0`` for the logit kind).
    concentration : float
        ``a + b`` of the Beta population (unused for the logit kind).
    description : str
    """

    name: str
    kind: str
    mean: float
    concentration: float
    description: str

    def expected(self, theta) -> np.ndarray:
        """Population mean ``E_b[expit(θ − b)]``, ``b ~ N(0, LOGIT_SD²)`` (logit kind;
        Gauss–Hermite, 80 nodes)."""
        return _expit_normal_mean(theta, LOGIT_SD)


#: The benchmarks of the SPEC's calibration contract.
BENCHMARKS: dict[str, Benchmark] = {
    b.name: b
    for b in (
        Benchmark(
            "u-shaped", "beta", 0.5, 1.2, "Beta(0.6, 0.6): many questions always or never solved"
        ),
        Benchmark("easy", "beta", 0.8, 2.0, "Beta(1.6, 0.4), mean 0.8"),
        Benchmark("hard", "beta", 0.1, 2.0, "Beta(0.2, 1.8), mean 0.1"),
        Benchmark(
            "logit",
            "logit",
            0.5,
            float("nan"),
            "p = expit(θ − b), b ~ N(0, 2²) shared across models",
        ),
    )
}

#: The full grid of :func:`calibration_table`.
GRID: dict[str, tuple] = {
    "benchmark": tuple(BENCHMARKS),
    "M": CALIBRATED_M,
    "N": (1, 2, 4, 8, 32),
    "scope": SCOPES,
    "outcomes": ("binary", "categorical"),
}


def target_band(M: int, confidence: float = 0.95) -> tuple[float, float]:
    """The SPEC's coverage band: 93–97% at nominal 95%, 90–98% at ``M ≤ 15``
    (the same offsets around other levels).

    Example
    -------
    >>> from scorio_core.calibration import target_band
    >>> target_band(15), target_band(100)
    ((0.9, 0.98), (0.93, 0.97))
    """
    c = check_confidence(confidence)
    lo, hi = (c - 0.05, c + 0.03) if M <= 15 else (c - 0.02, c + 0.02)
    return round(lo, 10), round(min(hi, 1.0), 10)


# ---------------------------------------------------------------------------- simulation
def _benchmark(name: str) -> Benchmark:
    if name not in BENCHMARKS:
        raise ValidationError(f"benchmark must be one of {sorted(BENCHMARKS)}; got {name!r}")
    return BENCHMARKS[name]


def _check_scope(scope: str) -> str:
    if scope not in SCOPES:
        raise ValidationError(f"scope must be one of {SCOPES}; got {scope!r}")
    return scope


def _weights(categorical: bool) -> np.ndarray:
    return CATEGORY_WEIGHTS if categorical else np.array([0.0, 1.0])


def _cell_seed(seed: int, *key) -> list[int]:
    """The cell's root (:func:`~scorio_core.resampling.stream`): ``seed`` and the cell's
    settings (strings by their bytes)."""
    parts = [int(seed)]
    for k in key:
        parts += list(k.encode()) if isinstance(k, str) else [int(k)]
    return parts


def _block_rngs(root: list[int], reps: int, block: int):
    """``(size, Generator)`` per block of ``block`` replicates (child ``k`` for block ``k``)."""
    return [(b - a, stream(root, k)) for k, (a, b) in enumerate(blocks(reps, block))]


def _category_probs(s: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Category probabilities ``(..., 3)`` with mean score ``s``: ``Dirichlet(κ π(s))``."""
    s = np.clip(s, 1e-12, 1 - 1e-12)
    h = np.minimum(s, 1 - s)
    pi = np.stack([1 - s - h / 2, h, s - h / 2], -1)
    g = rng.standard_gamma(CATEGORY_CONCENTRATION * pi)
    return g / g.sum(-1, keepdims=True)


def _binary_counts(p: np.ndarray, N: int, rng: np.random.Generator) -> np.ndarray:
    c1 = rng.binomial(N, p)
    return np.stack([N - c1, c1], -1)


def _categorical_counts(q: np.ndarray, N: int, rng: np.random.Generator) -> np.ndarray:
    c2 = rng.binomial(N, q[..., 2])
    rest = 1 - q[..., 2]
    share = np.clip(np.divide(q[..., 1], rest, out=np.zeros_like(rest), where=rest > 0), 0, 1)
    c1 = rng.binomial(N - c2, share)
    return np.stack([N - c1 - c2, c1, c2], -1)


def _probabilities(bench: Benchmark, size: int, M: int, rng: np.random.Generator):
    """Success probabilities ``(size, M)`` of one block and each replicate's population
    parameter ``(size,)``: the jittered mean (Beta kind) or ``θ`` (logit kind)."""
    if bench.kind == "beta":
        m = bench.mean * (1 + rng.uniform(-JITTER, JITTER, size))
        c = bench.concentration
        return rng.beta((m * c)[:, None], ((1 - m) * c)[:, None], (size, M)), m
    theta = rng.uniform(-1.0, 1.0, size)
    return special.expit(theta[:, None] - LOGIT_SD * rng.standard_normal((size, M))), theta


def _draw(bench: Benchmark, size: int, M: int, N: int, categorical: bool, rng: np.random.Generator):
    """One block of coverage replicates: counts ``(size, M, K)``, questions-scope truth and
    population truth ``(size,)``, both in weight units."""
    p, par = _probabilities(bench, size, M, rng)
    pop = par if bench.kind == "beta" else bench.expected(par)
    if categorical:
        q = _category_probs(p, rng)
        return _categorical_counts(q, N, rng), (q @ CATEGORY_WEIGHTS).mean(-1), pop
    return _binary_counts(p, N, rng), p.mean(-1), pop


# ---------------------------------------------------------------------------- intervals
def _rate(hits, widths) -> tuple[float, float]:
    """``(coverage, mean width)`` of per-replicate hits and interval widths (arrays or
    lists of arrays), over the replicates whose interval exists (width not NaN); NaN for
    both when none does (a scope that is not identified)."""
    wd = np.concatenate([np.atleast_1d(np.asarray(w, dtype=float)) for w in widths])
    hit = np.concatenate([np.atleast_1d(np.asarray(h, dtype=bool)) for h in hits])
    ok = ~np.isnan(wd)
    if not ok.any():
        return float("nan"), float("nan")
    return float(hit[ok].mean()), float(wd[ok].mean())


def _reference_intervals(n: np.ndarray, w: np.ndarray, confidence: float) -> dict:
    """``{name: {scope: (lo, hi)}}`` of the papers' Bayes@N and the plain ``t`` intervals for
    counts ``(B, M, K)``, in weight units, clipped to the weight range."""
    B, M, K = n.shape
    N = int(n[0, 0].sum())
    lo_b, hi_b = float(w.min()), float(w.max())
    post = ev.bayes_from_counts(n, w)
    z = ev.z_value(confidence)
    bayes = (
        np.clip(post.mu - z * post.sigma, lo_b, hi_b),
        np.clip(post.mu + z * post.sigma, lo_b, hi_b),
    )
    ybar = (n @ w) / N  # (B, M)
    x = ybar.mean(-1)
    q = 0.5 + confidence / 2
    sd_pop = ybar.std(-1, ddof=1) / np.sqrt(M)
    t_pop = special.stdtrit(M - 1, q)
    pop = (np.clip(x - t_pop * sd_pop, lo_b, hi_b), np.clip(x + t_pop * sd_pop, lo_b, hi_b))
    if N >= 2:
        s2 = np.maximum((n @ (w * w)) - N * ybar * ybar, 0.0) / (N - 1)
        sd_q = np.sqrt(s2.sum(-1) / (N * M * M))
        t_q = special.stdtrit(M * (N - 1), q)
        qs = (np.clip(x - t_q * sd_q, lo_b, hi_b), np.clip(x + t_q * sd_q, lo_b, hi_b))
    else:
        qs = (np.full(B, np.nan), np.full(B, np.nan))
    return {"bayes": {s: bayes for s in SCOPES}, "plain_t": {"questions": qs, "population": pop}}


@dataclass(frozen=True)
class CoverageCell:
    """Coverage of one cell (:func:`coverage`): share of replicates whose interval contains
    the scope's estimand, and mean width (weight units), for the headline and the two
    references.

    Attributes
    ----------
    benchmark : str
    M, N : int
    scope : str
    categorical : bool
    reps : int
    confidence : float
    identified : bool
        False in the questions scope at ``N = 1``: the headline prints no number there,
        so ``headline`` and ``headline_width`` are NaN (not identified -- not 0 coverage).
    headline, headline_width, bayes, bayes_width, plain_t, plain_t_width : float
        The plain ``t`` reference is NaN where it is undefined (questions scope, ``N = 1``).
    band : tuple of float
        :func:`target_band`.
    """

    benchmark: str
    M: int
    N: int
    scope: str
    categorical: bool
    reps: int
    confidence: float
    identified: bool
    headline: float
    headline_width: float
    bayes: float
    bayes_width: float
    plain_t: float
    plain_t_width: float
    band: tuple[float, float] = field(default=(0.93, 0.97))

    @property
    def headline_se(self) -> float:
        """Binomial Monte-Carlo standard error of :attr:`headline`."""
        c = self.headline
        return float(np.sqrt(c * (1 - c) / self.reps)) if self.identified else float("nan")

    @property
    def in_band(self) -> bool | None:
        """Whether the headline's coverage lies in :attr:`band` (None when not identified)."""
        if not self.identified:
            return None
        return bool(self.band[0] <= self.headline <= self.band[1])

    def row(self) -> dict:
        """One row of :func:`calibration_table`."""
        return {
            "benchmark": self.benchmark,
            "outcomes": "categorical" if self.categorical else "binary",
            "M": self.M,
            "N": self.N,
            "scope": self.scope,
            "reps": self.reps,
            "identified": self.identified,
            "headline": self.headline,
            "headline_se": self.headline_se,
            "headline_width": self.headline_width,
            "bayes": self.bayes,
            "bayes_width": self.bayes_width,
            "plain_t": self.plain_t,
            "plain_t_width": self.plain_t_width,
            "band_lo": self.band[0],
            "band_hi": self.band[1],
            "in_band": self.in_band,
        }


def _batch_size(M: int, models: int = 1, batch: int | None = None) -> int:
    """Replicates per :func:`score_stats` call: ``batch`` or as many whole blocks as fit in
    :data:`_CELLS` model–question cells."""
    if batch is not None:
        return check_int("batch", batch)
    return max(1, _CELLS // (M * models * _BLOCK)) * _BLOCK


def _coverage_cells(
    benchmark: str,
    M: int,
    N: int,
    scopes: Sequence[str],
    reps: int,
    categorical: bool,
    confidence: float,
    seed: int,
    batch: int | None,
) -> list[CoverageCell]:
    """:class:`CoverageCell` per scope, all from the same simulated data."""
    bench = _benchmark(benchmark)
    M, N, reps = check_int("M", M, minimum=2), check_int("N", N), check_int("reps", reps)
    conf = check_confidence(confidence)
    w = _weights(categorical)
    root = _cell_seed(seed, "coverage", benchmark, M, N, bool(categorical))
    blocks = _block_rngs(root, reps, _BLOCK)
    batch = _batch_size(M, 1, batch)
    names = ("headline", "bayes", "plain_t")
    hits = {(s, k): [] for s in scopes for k in names}
    widths = {(s, k): [] for s in scopes for k in names}

    def run(group):
        parts = [_draw(bench, size, M, N, categorical, rng) for size, rng in group]
        n = np.concatenate([p[0] for p in parts])
        truth = {
            "questions": np.concatenate([p[1] for p in parts]),
            "population": np.concatenate([p[2] for p in parts]),
        }
        st = score_stats(n, w)
        refs = _reference_intervals(n, w, conf)
        for s in scopes:
            _, _, lo, hi = model_intervals(st, s, conf)
            ivs = {"headline": (lo, hi), "bayes": refs["bayes"][s], "plain_t": refs["plain_t"][s]}
            for k, (a, b) in ivs.items():
                hits[s, k].append((a <= truth[s]) & (truth[s] <= b))
                widths[s, k].append(b - a)

    group, size = [], 0  # whole blocks per call: the draws never depend on the batch
    for blk in blocks:
        group.append(blk)
        size += blk[0]
        if size >= batch:
            run(group)
            group, size = [], 0
    if group:
        run(group)

    out = []
    for s in scopes:
        vals = {k: _rate(hits[s, k], widths[s, k]) for k in names}
        identified = not (s == "questions" and N < 2)
        out.append(
            CoverageCell(
                benchmark,
                M,
                N,
                s,
                bool(categorical),
                reps,
                conf,
                identified,
                *vals["headline"],
                *vals["bayes"],
                *vals["plain_t"],
                target_band(M, conf),
            )
        )
    return out


def coverage(
    benchmark: str,
    M: int,
    N: int,
    *,
    scope: str,
    reps: int = 2000,
    categorical: bool = False,
    confidence: float = 0.95,
    seed: int = 0,
    batch: int | None = None,
) -> CoverageCell:
    """Coverage and mean width of the headline, the papers' Bayes@N and the plain ``t``
    interval in one cell, with known truth.

    Parameters
    ----------
    benchmark : str
        A key of :data:`BENCHMARKS`.
    M, N : int
        Questions per replicate and trials per question.
    scope : {"questions", "population"}
        The estimand the intervals are judged against (module docstring).
    reps : int
        Replicates (datasets), each with fresh questions, trials and jittered population.
    categorical : bool
        Three categories weighted ``(0, 0.5, 1)`` instead of binary outcomes.
    confidence : float
    seed : int
        Root of the cell's ``SeedSequence`` (with the cell's settings; the scope is not
        part of it, so both scopes of a cell see the same data).
    batch : int, optional
        Replicates per :func:`~scorio_core.inference.score_stats` call (memory bound);
        default: as many as keep about 2·10⁵ model–question cells. Never changes results.

    Returns
    -------
    CoverageCell

    Example
    -------
    >>> from scorio_core.calibration import coverage
    >>> coverage("easy", 30, 1, scope="questions", reps=100).identified
    False
    """
    return _coverage_cells(
        benchmark, M, N, (_check_scope(scope),), reps, categorical, confidence, seed, batch
    )[0]


# ---------------------------------------------------------------------------- fields of models
def _split(st: ScoreStats, L: int) -> list[ScoreStats]:
    """Per-replicate :class:`ScoreStats` of stacked replicates (``reps × L`` models): each
    model's statistics are fitted on its own counts, so stacking changes nothing."""
    R = st.ybar.shape[0] // L
    return [
        ScoreStats(
            st.ybar[r * L : (r + 1) * L],
            st.within[r * L : (r + 1) * L],
            st.kappa[r * L : (r + 1) * L],
            st.N,
            st.lo_b,
            st.hi_b,
            None if st.dof is None else st.dof[r * L : (r + 1) * L],
            None if st.trial_var is None else st.trial_var[r * L : (r + 1) * L],
        )
        for r in range(R)
    ]


def _field_blocks(root, reps: int, L: int, M: int):
    """Blocks of replicates for the field studies: as many as keep :data:`_CELLS` cells."""
    return _block_rngs(root, reps, max(1, min(_BLOCK, _CELLS // (L * M))))


def _fields(gen: Callable, root, reps: int, L: int, M: int, N: int, w: np.ndarray):
    """Yield ``(ScoreStats, truth dict, infer seed)`` per replicate, ``gen(size, rng)``
    giving success probabilities ``(size, L, M)`` of two categories weighted ``w`` -- or
    category probabilities ``(size, L, M, K)`` of ``K = len(w)`` categories -- and the
    population truth ``(size, L)`` in weight units (or None)."""
    for size, rng in _field_blocks(root, reps, L, M):
        p, pop = gen(size, rng)
        categories = p.ndim == 4  # N multinomial trials per (model, question)
        n = rng.multinomial(N, p) if categories else _binary_counts(p, N, rng)
        seeds = rng.integers(0, 2**31, size)
        st = score_stats(n.reshape(size * L, M, len(w)), w)
        qtruth = _expected(p, w, categories).mean(-1)
        for r, sr in enumerate(_split(st, L)):
            truth = {"questions": qtruth[r], "population": None if pop is None else pop[r]}
            yield sr, truth, int(seeds[r])


@dataclass(frozen=True)
class TieError:
    """Decisions under exact ties (:func:`tie_error`): every decision is false.

    Attributes
    ----------
    fwer : float
        Share of replicates with at least one decided pair (family-wise error).
    per_pair : float
        Mean over replicates and pairs of "this pair decided" (per-pair error).
    M, N, L, reps : int
    scope, adjust, design : str
    confidence : float
    identified : bool
        False in the questions scope at ``N = 1`` (nothing is decided there).
    """

    fwer: float
    per_pair: float
    M: int
    N: int
    L: int
    reps: int
    scope: str
    adjust: str
    design: str
    confidence: float
    identified: bool

    def __float__(self) -> float:
        return self.fwer


#: Designs of an exact tie: questions-scope and population-scope estimands equal.
TIE_DESIGNS = {
    "permuted": "every model's per-question probabilities are a random permutation of one "
    "Beta(0.6, 0.6) set (tied in both scopes)",
    "permuted-easy": "as 'permuted' with Beta(1.6, 0.4) (mean 0.8; tied in both scopes)",
    "permuted-hard": "as 'permuted' with Beta(0.2, 1.8) (mean 0.1; tied in both scopes)",
    "iid": "each model's probabilities i.i.d. Beta(0.6, 0.6) (tied in the population scope)",
    "iid-easy": "as 'iid' with Beta(1.6, 0.4) (mean 0.8; tied in the population scope)",
    "iid-hard": "as 'iid' with Beta(0.2, 1.8) (mean 0.1; tied in the population scope)",
    "logit": "shared difficulty, equal ability: p = expit(0 − b_α), b_α ~ N(0, 2²) "
    "(tied in both scopes)",
}


def _tie_gen(design: str, L: int, M: int):
    kind, _, shape = design.partition("-")
    bench = BENCHMARKS[shape or "u-shaped"] if kind != "logit" else None  # its Beta law
    a, b = (0.0, 0.0) if bench is None else (
        round(bench.mean * bench.concentration, 12),  # (1.6, 0.4), not 0.3999…
        round((1 - bench.mean) * bench.concentration, 12))

    def gen(size, rng):
        if kind == "permuted":
            base = rng.beta(a, b, (size, 1, M))
            keys = rng.random((size, L, M))
            p = np.take_along_axis(np.broadcast_to(base, (size, L, M)), keys.argsort(-1), -1)
        elif kind == "iid":
            p = rng.beta(a, b, (size, L, M))
        else:
            z = LOGIT_SD * rng.standard_normal((size, 1, M))
            p = np.broadcast_to(special.expit(-z), (size, L, M))
        return p, None

    return gen


def _check_adjusts(adjusts) -> tuple[str, ...]:
    adjusts = (adjusts,) if isinstance(adjusts, str) else tuple(adjusts)
    bad = [a for a in adjusts if a not in ADJUSTMENTS]
    if bad or not adjusts:
        raise ValidationError(f"adjust must be among {ADJUSTMENTS}; got {list(adjusts)}")
    return adjusts


def _decisions(st: ScoreStats, scope: str, conf: float, adjusts, draws: int, seed: int):
    """``(identified, {adjust: decided})`` from one pass of :func:`infer`'s decisions
    (without its ``p_best`` draws): the simultaneous procedure needs its own null draws (so
    it runs first when asked), the others are
    :func:`~scorio_core.inference.decide_pvalues` on the same p-values -- the call ``infer``
    itself makes."""
    first = "simultaneous" if "simultaneous" in adjusts else adjusts[0]
    d = inference_decisions(st, scope, conf, first, draws, seed)
    if not d.identified:
        L = st.ybar.shape[0]
        return False, {a: np.zeros((L, L), dtype=bool) for a in adjusts}
    out = {first: d.D}
    for a in adjusts:
        if a not in out:
            out[a] = decide_pvalues(d.p, d.P, conf, a)
    return True, out


def tie_errors(
    M: int,
    N: int,
    *,
    L: int = 8,
    scope: str,
    adjusts: Sequence[str] = ADJUSTMENTS,
    reps: int = 500,
    design: str | None = None,
    confidence: float = 0.95,
    draws: int = 10_000,
    seed: int = 0,
) -> dict[str, TieError]:
    """:func:`tie_error` for several adjustments on the same simulated fields (one
    :func:`infer` call per field).

    Example
    -------
    >>> from scorio_core.calibration import tie_errors
    >>> r = tie_errors(30, 4, L=4, scope="population", adjusts=("holm", "none"), reps=20,
    ...                draws=2000)
    >>> r["holm"].fwer <= r["none"].fwer
    True
    """
    _check_scope(scope)
    adjusts = _check_adjusts(adjusts)
    design = design or ("permuted" if scope == "questions" else "logit")
    if design not in TIE_DESIGNS:
        raise ValidationError(f"design must be one of {sorted(TIE_DESIGNS)}; got {design!r}")
    if design.startswith("iid") and scope == "questions":
        raise ValidationError(
            f"design={design!r} is not a tie in the questions scope (each model has its own "
            "questions' probabilities); use a 'permuted' design or 'logit'"
        )
    M, N = check_int("M", M, minimum=2), check_int("N", N)
    L, reps = check_int("L", L, minimum=2), check_int("reps", reps)
    conf = check_confidence(confidence)
    root = _cell_seed(seed, "tie", design, M, N, L)
    w = np.array([0.0, 1.0])
    iu, ju = np.triu_indices(L, 1)
    anyd = {a: np.empty(reps, dtype=bool) for a in adjusts}
    pair = {a: np.empty(reps) for a in adjusts}
    identified = True
    for r, (st, _, s) in enumerate(_fields(_tie_gen(design, L, M), root, reps, L, M, N, w)):
        identified, dec = _decisions(st, scope, conf, adjusts, draws, s)
        for a, Dm in dec.items():
            D = Dm[iu, ju] | Dm[ju, iu]
            anyd[a][r], pair[a][r] = D.any(), D.mean()
    nan = float("nan")
    return {
        a: TieError(
            float(anyd[a].mean()) if identified else nan,
            float(pair[a].mean()) if identified else nan,
            M, N, L, reps, scope, a, design, conf, identified,
        )
        for a in adjusts
    }  # fmt: skip


def tie_error(
    M: int,
    N: int,
    *,
    L: int = 8,
    scope: str,
    adjust: str = "simultaneous",
    reps: int = 500,
    design: str | None = None,
    confidence: float = 0.95,
    draws: int = 10_000,
    seed: int = 0,
) -> TieError:
    """False-decision rates of :func:`~scorio_core.inference.infer` when all ``L`` models tie.

    Parameters
    ----------
    M, N : int
    L : int
        Models per field.
    scope : {"questions", "population"}
    adjust : {"simultaneous", "holm", "bh", "none"}
    reps : int
        Fields simulated (one :func:`infer` call each, about 10 ms).
    design : str, optional
        One of :data:`TIE_DESIGNS`; default ``"permuted"`` in the questions scope and
        ``"logit"`` (shared difficulty, equal ability) in the population scope. The
        ``"iid"`` designs are ties in the population scope only; ``"-easy"`` / ``"-hard"``
        draw the questions' probabilities from the easy / hard benchmarks' Beta laws.
    confidence, draws : float, int
        Passed to :func:`infer`.
    seed : int
        With the settings (not ``adjust``), the root of the cell's streams: every
        adjustment sees the same fields.

    Returns
    -------
    TieError
        ``float(result)`` is the family-wise rate ``P(decided.any())``; SPEC §4 bounds it
        by ``1 − confidence`` for ``"simultaneous"`` and ``"holm"``, and the per-pair rate
        for ``"none"``.

    Example
    -------
    >>> from scorio_core.calibration import tie_error
    >>> r = tie_error(30, 4, L=4, scope="population", reps=20, draws=2000)
    >>> 0.0 <= float(r) <= 1.0 and r.per_pair <= r.fwer
    True
    """
    return tie_errors(
        M, N, L=L, scope=scope, adjusts=(adjust,), reps=reps, design=design,
        confidence=confidence, draws=draws, seed=seed,
    )[adjust]  # fmt: skip


@dataclass(frozen=True)
class RankCoverage:
    """Simultaneous rank-interval coverage (:func:`rank_coverage`).

    Attributes
    ----------
    coverage : float
        Share of replicates with no false decision: no ``decided[i, j]`` with true score
        ``i ≤`` true score ``j`` in the scope's estimand (every rank interval then holds).
    power : float
        Mean share of the between-group pairs decided (correctly).
    theta : tuple of float
    M, N, reps : int
    scope, adjust : str
    confidence : float
    identified : bool
    """

    coverage: float
    power: float
    theta: tuple[float, ...]
    M: int
    N: int
    reps: int
    scope: str
    adjust: str
    confidence: float
    identified: bool


def _logit_field(theta: np.ndarray, M: int, interaction: float = 0.0, difficulty: float = 0.0):
    """Shared difficulty ``b_α ~ N(difficulty, 2²)``, abilities ``theta`` (``(L,)`` or a
    callable ``rng, size -> (size, L)``), optional model × question interaction
    ``N(0, s²)``."""

    def gen(size, rng):
        th = theta(rng, size) if callable(theta) else np.broadcast_to(theta, (size, len(theta)))
        L = th.shape[1]
        b = difficulty + LOGIT_SD * rng.standard_normal((size, 1, M))
        eta = th[:, :, None] - b
        if interaction > 0:
            eta = eta - interaction * rng.standard_normal((size, L, M))
        # the population mean is increasing in θ (the same function for every model)
        return special.expit(eta), np.asarray(th, dtype=float)

    return gen


def rank_coverages(
    M: int,
    N: int,
    *,
    theta: Sequence[float] = (0.3, 0.3, 0.3, 0.3, 0.0, 0.0, 0.0, 0.0),
    scope: str,
    adjusts: Sequence[str] = ("simultaneous", "holm"),
    reps: int = 500,
    confidence: float = 0.95,
    draws: int = 10_000,
    seed: int = 0,
) -> dict[str, RankCoverage]:
    """:func:`rank_coverage` for several adjustments on the same fields.

    Example
    -------
    >>> from scorio_core.calibration import rank_coverages
    >>> r = rank_coverages(30, 4, theta=(0.3, 0.0, 0.0), scope="population", reps=20,
    ...                    draws=2000)
    >>> sorted(r)
    ['holm', 'simultaneous']
    """
    _check_scope(scope)
    adjusts = _check_adjusts(adjusts)
    th = np.asarray(theta, dtype=float)
    L = th.size
    if L < 2:
        raise ValidationError(f"theta needs at least 2 models; got {L}")
    M, N, reps = check_int("M", M, minimum=2), check_int("N", N), check_int("reps", reps)
    conf = check_confidence(confidence)
    root = _cell_seed(seed, "rank", M, N, *np.round(th * 1e6).astype(np.int64))
    w = np.array([0.0, 1.0])
    covered = {a: np.empty(reps, dtype=bool) for a in adjusts}
    power = {a: np.empty(reps) for a in adjusts}
    identified = True
    for r, (st, truth, s) in enumerate(_fields(_logit_field(th, M), root, reps, L, M, N, w)):
        identified, dec = _decisions(st, scope, conf, adjusts, draws, s)
        t = truth[scope]
        better = t[:, None] > t[None, :]
        for a, D in dec.items():
            covered[a][r] = not (D & ~better).any()
            power[a][r] = (D & better).sum() / max(better.sum(), 1)
    nan = float("nan")
    return {
        a: RankCoverage(
            float(covered[a].mean()) if identified else nan,
            float(power[a].mean()) if identified else nan,
            tuple(th.tolist()), M, N, reps, scope, a, conf, identified,
        )
        for a in adjusts
    }  # fmt: skip


def rank_coverage(
    M: int,
    N: int,
    *,
    theta: Sequence[float] = (0.3, 0.3, 0.3, 0.3, 0.0, 0.0, 0.0, 0.0),
    scope: str,
    adjust: str = "simultaneous",
    reps: int = 500,
    confidence: float = 0.95,
    draws: int = 10_000,
    seed: int = 0,
) -> RankCoverage:
    """Coverage of the rank intervals jointly: fields of tied groups with shared question
    difficulty (logit, ``p = expit(θ_i − b_α)``, ``b_α ~ N(0, 2²)``), judged in ``scope``.

    Within a group the models tie exactly in both scopes (same ``θ``, same questions);
    the groups differ (population means about 0.05 apart at the default ``θ``). A
    replicate is covered when :func:`infer` decides no pair falsely (``decided[i, j]``
    while ``i`` is not truly better in the scope's estimand), which is exactly the event
    that every ``[rank_lo, rank_hi]`` is consistent with the truth. SPEC §4: at least
    ``confidence`` for ``"simultaneous"`` and ``"holm"``.

    Parameters
    ----------
    M, N : int
    theta : sequence of float
        Abilities of the ``L`` models (default two groups of 4).
    scope, adjust, reps, confidence, draws, seed
        As in :func:`tie_error`.

    Returns
    -------
    RankCoverage

    Example
    -------
    >>> from scorio_core.calibration import rank_coverage
    >>> r = rank_coverage(30, 4, theta=(0.3, 0.3, 0.0), scope="population", reps=20,
    ...                   draws=2000)
    >>> 0.0 <= r.coverage <= 1.0
    True
    """
    return rank_coverages(
        M, N, theta=theta, scope=scope, adjusts=(adjust,), reps=reps, confidence=confidence,
        draws=draws, seed=seed,
    )[adjust]  # fmt: skip


@dataclass(frozen=True)
class PBestCalibration:
    """Reliability of ``p_best`` and of the rank distribution (:func:`p_best_calibration`).

    Attributes
    ----------
    table : pandas.DataFrame
        One row per bin of predicted ``p_best``: ``bin`` (``"0.0–0.2"``), ``count``
        (model-replicates), ``predicted`` (mean ``p_best``), ``observed`` (share truly
        best), ``se`` (binomial s.e. of ``observed``).
    max_deviation : float
        Largest ``|observed − predicted|`` over bins with at least ``min_count`` entries.
    brier : float
        Mean squared error of ``p_best`` against "truly best".
    M, N, L, reps : int
    scope : str
    min_count : int
    identified : bool
    rank_table : pandas.DataFrame
        The same for the whole rank distribution (:attr:`Inference.rank_dist
        <scorio_core.inference.Inference>`): every predicted ``P(model i has rank r)``,
        ``L × L`` per replicate, against "model i truly has rank r".
    rank_max_deviation, rank_brier : float
        As ``max_deviation`` and ``brier``, over the rank distribution.
    first_coverage, first_size : float
        The leaderboard's *could be first* set (:attr:`Inference.could_be_first
        <scorio_core.inference.Inference>`: comparison with the best at the confidence):
        share of replicates whose set held the truly best model, and its mean size. Its
        promise is at least the confidence, whatever the field.
    credible_coverage, credible_size : float
        For comparison, the smallest set whose ``p_best`` adds up to the confidence (a
        credible set for the best model, not shown by the product): the same two numbers.
    categorical : bool
        Three outcomes weighted ``(0, 0.5, 1)`` (:func:`p_best_calibration`'s
        ``categorical``); False for binary outcomes and for :func:`resample_p_best`.
    difficulty : float
        Mean of the shared question difficulty (:func:`p_best_calibration`; 0 for
        :func:`resample_p_best`).
    history : int
        Earlier fields of the same design the spread prior was learned from (0: the flat
        prior; :func:`scorio_core.spread_prior.prior_from_stats`).
    """

    table: pd.DataFrame
    max_deviation: float
    brier: float
    M: int
    N: int
    L: int
    reps: int
    scope: str
    min_count: int
    identified: bool
    rank_table: pd.DataFrame | None = None
    rank_max_deviation: float = float("nan")
    rank_brier: float = float("nan")
    first_coverage: float = float("nan")
    first_size: float = float("nan")
    credible_coverage: float = float("nan")
    credible_size: float = float("nan")
    categorical: bool = False
    difficulty: float = 0.0
    history: int = 0

    def first_se(self) -> float:
        """Binomial standard error of :attr:`first_coverage`."""
        c = self.first_coverage
        return float(np.sqrt(max(c * (1 - c), 1e-12) / self.reps))


def p_best_calibration(
    M: int,
    N: int,
    *,
    L: int = 5,
    scope: str,
    reps: int = 1000,
    bins: int = 5,
    max_sd: float = 0.5,
    interaction: float = 1.0,
    min_count: int = 50,
    confidence: float = 0.95,
    draws: int = 10_000,
    categorical: bool = False,
    difficulty: float = 0.0,
    history: int = 0,
    seed: int = 0,
) -> PBestCalibration:
    """Reliability table of :attr:`Inference.p_best <scorio_core.inference.Inference>`:
    predicted probability of being best vs how often the model truly is -- and the same
    for the whole rank distribution (:attr:`Inference.rank_dist
    <scorio_core.inference.Inference>`: every predicted
    ``P(model i has rank r)`` against the model's true rank).

    Each replicate is a field of ``L`` models on shared questions,
    ``p_iα = expit(θ_i − b_α − ε_iα)`` with ``b_α ~ N(difficulty, 2²)``, a model × question
    interaction ``ε_iα ~ N(0, interaction²)`` and abilities ``θ_i = τ z_i``,
    ``τ ~ U(0, max_sd)`` per replicate -- some fields have a clear leader, some are close.
    The truly best model is the one with the highest estimand: the mean expected score over
    the drawn questions (questions scope; with the interaction it can differ from the
    population's best) or the highest ``θ`` (population scope: the population mean is the
    same increasing function of ``θ`` for every model).

    Parameters
    ----------
    M, N : int
    L : int
    scope : {"questions", "population"}
    reps, bins : int
        Fields simulated; equal-width bins of ``[0, 1]``.
    max_sd, interaction : float
        Spread of the abilities and s.d. of the interaction (logit units).
    min_count : int
        Bins with fewer entries are shown but left out of ``max_deviation``.
    confidence, draws
        As in :func:`tie_error` (``p_best`` does not depend on ``confidence``; the
        *could be first* set does).
    categorical : bool
        Three outcomes weighted ``(0, 0.5, 1)`` instead of binary ones: each (model,
        question)'s category probabilities ``Dirichlet(κ π(s))`` around its success
        probability ``s`` (the coverage grid's categorical design); the expected score stays
        ``s``, so the population truth is the binary design's.
    difficulty : float
        Mean of the shared difficulty ``b_α`` (logit units): 0 centres the benchmark near
        0.5; 3.5 makes it hard (mean success 0.11 at ``θ = 0``, :func:`p_best_success`),
        −2.5 easy (0.81).
    history : int
        0: the flat prior on the field's spread (the default the leaderboard uses). At least
        :data:`~scorio_core.spread_prior.MIN_FIELDS`: ``p_best`` reads a spread prior learned
        from that many earlier fields of the same design (a fresh history for every
        :data:`~scorio_core.spread_prior.HISTORY_BLOCK` fields) -- what
        ``leaderboard(..., spread_prior=)`` does with a suite's earlier runs.
    seed : int

    Returns
    -------
    PBestCalibration

    Example
    -------
    >>> from scorio_core.calibration import p_best_calibration
    >>> r = p_best_calibration(30, 4, L=3, scope="population", reps=20, draws=2000)
    >>> int(r.table["count"].sum())
    60
    """
    _check_scope(scope)
    M, N, reps = check_int("M", M, minimum=2), check_int("N", N), check_int("reps", reps)
    L, bins = check_int("L", L, minimum=2), check_int("bins", bins)
    conf = check_confidence(confidence)
    root = _cell_seed(
        seed, "p_best", M, N, L, int(round(max_sd * 1e6)), int(round(interaction * 1e6))
    ) + ([1] if categorical else []) + (
        [2, int(difficulty < 0), abs(int(round(difficulty * 1e6)))] if difficulty else [])

    def theta(rng, size):
        return rng.uniform(0.0, max_sd, (size, 1)) * rng.standard_normal((size, L))

    gen = _logit_field(theta, M, interaction, float(difficulty))
    if categorical:
        def gen(size, rng, binary=gen):
            p, pop = binary(size, rng)
            return _category_probs(p, rng), pop

    w = _weights(categorical)
    fields = _fields(gen, root, reps, L, M, N, w)
    prior_for = _history_priors(gen, root, reps, L, M, N, w, history)
    r = _p_best_reliability(fields, M, N, L, reps, scope, conf, draws, bins, min_count,
                            prior_for)
    return replace(r, categorical=bool(categorical), difficulty=float(difficulty),
                   history=int(history))


def p_best_success(difficulty: float = 0.0, interaction: float = 1.0) -> float:
    """Mean success of a model at ``θ = 0`` on :func:`p_best_calibration`'s benchmark:
    ``E[expit(−b − ε)]``, ``b ~ N(difficulty, 2²)``, ``ε ~ N(0, interaction²)``.

    Example
    -------
    >>> from scorio_core.calibration import p_best_success
    >>> round(p_best_success(0.0), 3), round(p_best_success(3.5), 2), round(p_best_success(-2.5), 2)
    (0.5, 0.11, 0.81)
    """
    sd = float(np.hypot(LOGIT_SD, interaction))
    return float(_expit_normal_mean(np.array(-float(difficulty)), sd))


def _history_priors(gen, root, reps: int, L: int, M: int, N: int, w, history: int):
    """:func:`scorio_core.spread_prior.history_priors` with the earlier fields drawn by
    ``gen`` (:func:`_fields`) below ``root``."""
    from .spread_prior import history_priors

    return history_priors(history, lambda b: [
        st for st, _, _ in _fields(gen, [*root, 8, b], history, L, M, N, w)])


def _p_best_reliability(fields, M: int, N: int, L: int, reps: int, scope: str, conf: float,
                        draws: int, bins: int, min_count: int,
                        prior_for=lambda r: None) -> PBestCalibration:
    """:class:`PBestCalibration` of ``infer``'s ``p_best`` and rank distribution over the
    replicates ``fields`` yields (:func:`_fields`): the truly best model and the true ranks
    are those of the scope's truth; ``prior_for(r)`` the spread prior of replicate ``r``."""
    pred = np.empty((reps, L))
    best = np.zeros((reps, L), dtype=bool)
    rank_pred = np.empty((reps, L, L))
    rank_hit = np.zeros((reps, L, L), dtype=bool)
    identified = True
    held = np.zeros(reps, dtype=bool)
    size = np.zeros(reps)
    c_held = np.zeros(reps, dtype=bool)
    c_size = np.zeros(reps)
    for r, (st, truth, s) in enumerate(fields):
        # neither p_best nor the could-be-first set depends on the adjustment
        inf = infer(st, scope, conf, ADJUSTMENTS[0], draws, s, prior_for(r))
        identified = inf.identified
        pred[r] = inf.p_best
        top = int(np.argmax(truth[scope]))
        best[r, top] = True
        first = inf.could_be_first
        held[r], size[r] = first[top], first.sum()
        order = np.argsort(-inf.p_best, kind="stable")
        k = int(np.searchsorted(np.cumsum(inf.p_best[order]), conf - 1e-12)) + 1
        c_held[r], c_size[r] = top in order[:k], min(k, L)
        rank_pred[r] = inf.rank_dist
        true_rank = np.argsort(np.argsort(-np.asarray(truth[scope]), kind="stable"))
        rank_hit[r, np.arange(L), true_rank] = True
    table, max_dev, brier = _reliability(pred, best, bins, min_count, identified)
    rtable, rdev, rbrier = _reliability(rank_pred, rank_hit, bins, min_count, identified)
    nan = float("nan")
    return PBestCalibration(table, max_dev, brier, M, N, L, reps, scope, min_count, identified,
                            rtable, rdev, rbrier,
                            float(held.mean()) if identified else nan,
                            float(size.mean()) if identified else nan,
                            float(c_held.mean()) if identified else nan,
                            float(c_size.mean()) if identified else nan)


def share_se(share: float, n: int) -> float:
    """The binomial standard error ``sqrt(s(1 - s)/n)`` of a share ``s`` of ``n``; NaN where
    none or all of them held (``s`` 0 or 1), as where ``n`` is 0 or ``s`` missing: the
    formula's 0 there would claim a certainty that ``n`` draws do not give (the tables print
    ``—`` and their legends say why). One rule for the shares of every calibration table
    (``interval_coverage``'s coverage, the reliability bins of ``p_best``, the Check page's).

    Example
    -------
    >>> from scorio_core.calibration import share_se
    >>> round(share_se(0.25, 12), 4), share_se(1.0, 13), share_se(0.0, 40)
    (0.125, nan, nan)
    """
    s = float(share)
    return float(np.sqrt(s * (1 - s) / n)) if n > 0 and 0 < s < 1 else float("nan")


def _reliability(pred, hit, bins: int, min_count: int, identified: bool):
    """Reliability table of probabilities ``pred`` against outcomes ``hit`` (same shape):
    equal-width bins of ``[0, 1]``, each with ``count``, mean ``predicted``, ``observed``
    share and its binomial ``se``; the largest deviation over bins with at least
    ``min_count`` entries and the Brier score (NaN when not identified). ``se`` is NaN
    where none or all of a bin's entries came true (:func:`share_se`)."""
    pred, hit = np.asarray(pred, dtype=float).ravel(), np.asarray(hit, dtype=bool).ravel()
    edges = np.linspace(0.0, 1.0, bins + 1)
    # an undefined probability (the scope not identified) belongs to no bin
    idx = np.where(np.isnan(pred), -1, np.clip(np.digitize(pred, edges[1:-1]), 0, bins - 1))
    rows = []
    for k in range(bins):
        sel = idx == k
        cnt = int(sel.sum())
        obs = float(hit[sel].mean()) if cnt else float("nan")
        rows.append(
            {
                "bin": f"{edges[k]:.1f}–{edges[k + 1]:.1f}",
                "count": cnt,
                "predicted": float(pred[sel].mean()) if cnt else float("nan"),
                "observed": obs,
                "se": share_se(obs, cnt),
            }
        )
    table = pd.DataFrame(rows)
    if not identified:
        table[["predicted", "observed", "se"]] = np.nan
    enough = table["count"] >= min_count
    dev = (table["observed"] - table["predicted"]).abs()[enough]
    max_dev = float(dev.max()) if identified and enough.any() else float("nan")
    brier = float(np.mean((pred - hit) ** 2)) if identified else float("nan")
    return table, max_dev, brier


# ---------------------------------------------------------------------------- pair view
#: Cells of :func:`pair_coverage` in ``benchmarks/calibration.py``: (M, N).
PAIR_GRID = ((15, 4), (30, 2), (30, 8), (100, 2), (100, 8), (500, 4))
#: Model b of :func:`pair_coverage`: ``logit p_b = logit p_a − PAIR_SHIFT + PAIR_NOISE z``.
PAIR_SHIFT, PAIR_NOISE = 0.5, 0.5


@dataclass(frozen=True)
class PairCoverage:
    """Coverage of the Pair view's interval for the mean difference of two models
    (:func:`pair_coverage`).

    Attributes
    ----------
    benchmark : str
    M, N, reps : int
    scope : str
    coverage, width : float
        Share of replicates whose interval contains the true difference, and its mean
        width (NaN where the scope is not identified).
    band : tuple of float
        :func:`target_band`.
    """

    benchmark: str
    M: int
    N: int
    scope: str
    reps: int
    coverage: float
    width: float
    band: tuple[float, float]


@dataclass(frozen=True)
class ResampleCheck:
    """Result of :func:`resample_check`: the headline intervals and decisions on fields drawn
    from a given table of true per-question probabilities.

    Attributes
    ----------
    coverage, coverage_se : float
        Share of (replicate, model) intervals holding the scope's truth, and its standard
        error over replicates (a replicate's models share their questions; NaN where every
        interval held or none did).
    worst_model : str
    worst_coverage : float
        The model whose interval covered least often, and that share.
    width : float
        Mean interval width (score units).
    false_decisions : float
        Share of replicates with at least one pair decided the wrong way round (``i``
        declared better while ``i``'s truth is not above ``j``'s).
    power : float
        Mean share of the truly ordered pairs decided the right way.
    M, N, L, reps : int
    scope, adjust : str
    confidence : float
    identified : bool
        False in the questions scope at ``N = 1``.
    """

    coverage: float
    coverage_se: float
    worst_model: str
    worst_coverage: float
    width: float
    false_decisions: float
    power: float
    M: int
    N: int
    L: int
    reps: int
    scope: str
    adjust: str
    confidence: float
    identified: bool


def _truth_table(p, weights=None) -> tuple[np.ndarray, np.ndarray]:
    """``p`` as a ``(models, questions)`` table of success probabilities or a ``(models,
    questions, categories)`` table of category probabilities, with its category weights
    (``(0, 1)`` for a two-dimensional table unless given), or a clear error."""
    p = np.asarray(p, dtype=float)
    if p.ndim not in (2, 3) or p.shape[0] < 2 or p.shape[1] < 2:
        raise ValidationError(
            "p must be a (models, questions) table of success probabilities or a (models, "
            "questions, categories) table of category probabilities, with at least 2 models "
            f"and 2 questions; got shape {p.shape}"
        )
    if not np.all((p >= 0) & (p <= 1)):
        raise ValidationError("p must hold probabilities in [0, 1]")
    K = 2 if p.ndim == 2 else p.shape[2]
    w = np.array([0.0, 1.0]) if weights is None else np.asarray(weights, dtype=float)
    if w.shape != (K,) or not np.all(np.isfinite(w)):
        raise ValidationError(f"weights: expected {K} finite category weights; got "
                              f"{np.asarray(weights).tolist()!r}")
    if p.ndim == 3:
        total = p.sum(-1)
        if K < 2 or not np.allclose(total, 1.0, atol=1e-9):
            raise ValidationError(
                "p: each (model, question)'s category probabilities must sum to 1 over at "
                f"least 2 categories; sums range {total.min():.6g}–{total.max():.6g}")
        p = p / total[..., None]
    return p, w


def _expected(p: np.ndarray, w: np.ndarray, categories: bool) -> np.ndarray:
    """Expected score of each entry: ``p`` holds category probabilities on its last axis
    (``categories``) or success probabilities of two categories weighted ``w``."""
    return p @ w if categories else w[0] + (w[1] - w[0]) * p


def _models_drawn(L: int | None, K: int) -> int:
    """Models per field drawn from a table of ``K``: all when ``L`` is ``None``."""
    L = K if L is None else check_int("L", L, minimum=2)
    if L > K:
        raise ValidationError(f"L: at most the table's {K} models; got {L}")
    return L


def _weights_key(p: np.ndarray, w: np.ndarray) -> tuple[int, ...]:
    """What the weights add to a table's seed: nothing for a binary table weighted
    ``(0, 1)`` (so its streams are those of the binary studies), else the weights."""
    if p.ndim == 2 and w[0] == 0.0 and w[1] == 1.0:
        return ()
    return tuple(int(round(x * 1e6)) % 2**32 for x in w)  # a seed's entropy is >= 0


def _table_seed(seed: int, tag: str, p: np.ndarray, *key) -> list[int]:
    """A cell's root for a study on the table ``p``: the table itself enters the seed, so
    different tables draw different streams."""
    h = np.frombuffer(np.round(p * 1e6).astype(np.int64).tobytes(), dtype=np.uint32)
    return _cell_seed(seed, tag, *key, *p.shape, int(h.sum() % (2**31)))


def resample_check(
    p,
    M: int,
    N: int,
    *,
    scope: str,
    models: Sequence[str] | None = None,
    weights=None,
    reps: int = 1000,
    adjust: str = ADJUSTMENTS[0],
    confidence: float = 0.95,
    draws: int = 2000,
    seed: int = 0,
) -> ResampleCheck:
    """Headline coverage and false decisions on fields resampled from a real table.

    ``p`` ``(L, Q)`` holds each model's true success probability on each of ``Q`` questions
    (e.g. the share of correct completions of a real run with many trials). The population
    is those ``Q`` questions, each with probability ``1/Q``: a replicate draws ``M`` of them
    with replacement, then ``N`` binary trials per model and question from ``p``, and runs
    :func:`~scorio_core.inference.infer` as the leaderboard does. The questions-scope truth
    is each model's mean of ``p`` over the drawn questions, the population truth its mean
    over all ``Q``. So the models keep the real benchmark's skew, its question difficulty
    shared across models, and the real gaps and near-ties between them -- what the grid of
    :func:`calibration_table` stylises.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.calibration import resample_check
    >>> rng = np.random.default_rng(0)
    >>> p = np.clip(rng.beta(0.6, 0.6, (1, 200)) + [[0.0], [0.1], [0.2]], 0, 1)
    >>> r = resample_check(p, 30, 4, scope="population", reps=40)
    >>> r.L, r.identified, bool(0.8 < r.coverage <= 1.0)
    (3, True, True)
    """
    _check_scope(scope)
    p, w = _truth_table(p, weights)
    L, Q = p.shape[:2]
    names = [f"model_{i}" for i in range(L)] if models is None else [str(m) for m in models]
    if len(names) != L:
        raise ValidationError(f"models: expected {L} names, got {len(names)}")
    M, N, reps = check_int("M", M, minimum=2), check_int("N", N), check_int("reps", reps)
    conf = check_confidence(confidence)
    (adjust,) = _check_adjusts(adjust)
    pop = _expected(p, w, p.ndim == 3).mean(1)
    root = _table_seed(seed, "resample", p, M, N, *_weights_key(p, w))

    def gen(size, rng):
        idx = rng.integers(0, Q, (size, M))
        return np.moveaxis(p[:, idx], 0, 1), np.broadcast_to(pop, (size, L))

    hits = np.zeros((reps, L), dtype=bool)
    width = np.zeros(reps)
    wrong = np.zeros(reps, dtype=bool)
    power = np.zeros(reps)
    identified = True
    for r, (st, truth, s) in enumerate(_fields(gen, root, reps, L, M, N, w)):
        inf = infer(st, scope, conf, adjust, draws, s)
        identified = inf.identified
        if not identified:
            continue
        t = np.asarray(truth[scope], dtype=float)
        hits[r] = (inf.lo <= t) & (t <= inf.hi)
        width[r] = float(np.mean(inf.hi - inf.lo))
        better = t[:, None] > t[None, :]
        wrong[r] = bool((inf.decided & ~better).any())
        power[r] = (inf.decided & better).sum() / max(better.sum(), 1)
    nan = float("nan")
    if not identified:
        return ResampleCheck(nan, nan, "", nan, nan, nan, nan, M, N, L, reps, scope, adjust,
                             conf, False)
    per_rep = hits.mean(1)
    per_model = hits.mean(0)
    k = int(np.argmin(per_model))
    cov = float(per_rep.mean())
    return ResampleCheck(
        # none or all held: no spread over the replicates, and an s.e. of 0 would claim a
        # certainty that reps replicates do not give (share_se's rule)
        cov, float(per_rep.std(ddof=1) / np.sqrt(reps)) if reps > 1 and 0 < cov < 1 else nan,
        names[k], float(per_model[k]), float(width.mean()), float(wrong.mean()),
        float(power.mean()), M, N, L, reps, scope, adjust, conf, True,
    )


def resample_p_best(
    p,
    M: int,
    N: int,
    *,
    L: int | None = None,
    scope: str,
    weights=None,
    reps: int = 1000,
    bins: int = 5,
    min_count: int = 50,
    draws: int = 2000,
    confidence: float = 0.95,
    history: int = 0,
    seed: int = 0,
) -> PBestCalibration:
    """Reliability of ``p_best`` and the rank distribution on fields resampled from a real
    table -- :func:`p_best_calibration` with the real benchmark's models in place of the
    stylised design -- and the coverage of the *could be first* set (at ``confidence``).

    ``p`` ``(K, Q)`` as in :func:`resample_check`. A replicate picks ``L`` of the ``K``
    models at random (all of them when ``L`` is ``None``), ``M`` of the ``Q`` questions
    with replacement and ``N`` binary trials per model and question, and runs
    :func:`~scorio_core.inference.infer`. The truly best model is the one with the highest
    truth: its mean of ``p`` over the drawn questions (questions scope) or over all ``Q``
    (population). Subsets of a real field keep its near-ties at the top and its
    spread-out tail, which the stylised normal field of :func:`p_best_calibration` does not
    have. ``history`` as in :func:`p_best_calibration`: the earlier fields are other
    resamples of the same table.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.calibration import resample_p_best
    >>> rng = np.random.default_rng(0)
    >>> p = np.clip(rng.beta(0.6, 0.6, (1, 200)) + [[0.0], [0.05], [0.3], [0.3]], 0, 1)
    >>> r = resample_p_best(p, 30, 4, L=3, scope="population", reps=40)
    >>> r.L, int(r.table["count"].sum())
    (3, 120)
    """
    _check_scope(scope)
    p, w = _truth_table(p, weights)
    K, Q = p.shape[:2]
    L = _models_drawn(L, K)
    M, N, reps = check_int("M", M, minimum=2), check_int("N", N), check_int("reps", reps)
    bins = check_int("bins", bins)
    pop = _expected(p, w, p.ndim == 3).mean(1)
    root = _table_seed(seed, "resample_p_best", p, M, N, L, *_weights_key(p, w))

    def gen(size, rng):
        pick = np.argsort(rng.random((size, K)), axis=1)[:, :L]  # L of the K models
        idx = rng.integers(0, Q, (size, M))
        return p[pick[:, :, None], idx[:, None, :]], pop[pick]

    fields = _fields(gen, root, reps, L, M, N, w)
    prior_for = _history_priors(gen, root, reps, L, M, N, w, history)
    r = _p_best_reliability(fields, M, N, L, reps, scope, check_confidence(confidence), draws,
                            bins, min_count, prior_for)
    return replace(r, history=int(history))


def _partner(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Model b's probabilities on the same questions: ``logit p_a`` moved by
    :data:`PAIR_SHIFT` with a per-question interaction of s.d. :data:`PAIR_NOISE`."""
    eta = special.logit(np.clip(p, 1e-6, 1 - 1e-6))
    return special.expit(eta - PAIR_SHIFT + PAIR_NOISE * rng.standard_normal(p.shape))


def pair_coverages(
    benchmark: str,
    M: int,
    N: int,
    *,
    reps: int = 1000,
    confidence: float = 0.95,
    truth_questions: int = 20_000,
    seed: int = 0,
) -> dict[str, PairCoverage]:
    """:func:`pair_coverage` in both scopes from the same replicates, keyed by scope."""
    from .engines.pair import compare_pair
    from .outcomes import Outcomes

    bench = _benchmark(benchmark)
    M, N, reps = check_int("M", M, minimum=2), check_int("N", N), check_int("reps", reps)
    K = check_int("truth_questions", truth_questions)
    conf = check_confidence(confidence)
    root = _cell_seed(seed, "pair", benchmark, M, N)
    hits = {s: [] for s in SCOPES}
    widths = {s: [] for s in SCOPES}
    trial = np.arange(N)
    for size, rng in _block_rngs(root, reps, _BLOCK):
        pa, par = _probabilities(bench, size, M, rng)
        pb = _partner(pa, rng)
        # population: the mean over fresh questions of the replicate's own population
        if bench.kind == "beta":
            c = bench.concentration
            qa = rng.beta((par * c)[:, None], ((1 - par) * c)[:, None], (size, K))
        else:
            qa = special.expit(par[:, None] - LOGIT_SD * rng.standard_normal((size, K)))
        truth = {"questions": (pa - pb).mean(-1), "population": (qa - _partner(qa, rng)).mean(-1)}
        ka, kb = rng.binomial(N, pa), rng.binomial(N, pb)
        for r in range(size):
            R = np.stack([trial[None, :] < ka[r][:, None], trial[None, :] < kb[r][:, None]])
            summary = compare_pair(Outcomes(R.astype(np.int8)), "model_0", "model_1",
                                   conf).summary.set_index("scope")
            for s in SCOPES:
                lo, hi = float(summary.loc[s, "lo"]), float(summary.loc[s, "hi"])
                hits[s].append(lo <= truth[s][r] <= hi)
                widths[s].append(hi - lo)
    return {s: PairCoverage(benchmark, M, N, s, reps, *_rate([hits[s]], [widths[s]]),
                            target_band(M, conf)) for s in SCOPES}


def pair_coverage(
    benchmark: str,
    M: int,
    N: int,
    *,
    scope: str,
    reps: int = 1000,
    confidence: float = 0.95,
    truth_questions: int = 20_000,
    seed: int = 0,
) -> PairCoverage:
    """Coverage of :func:`~scorio_core.engines.pair.compare_pair`'s interval for the mean
    difference of two models, with known truth.

    Model a's per-question probabilities come from ``benchmark`` (as :func:`coverage`);
    model b's from the same questions, ``logit p_b = logit p_a − 0.5 + 0.5 z`` (worse on
    average, by a question-dependent amount: a real gap and a model × question
    interaction). The truth is the mean of ``p_a − p_b`` over the drawn questions
    (questions scope) or over the benchmark's population (population scope: the mean over
    ``truth_questions`` fresh questions of the replicate's population). Each replicate's
    interval is the Pair view's own (``compare_pair`` on the replicate's outcomes). Both
    scopes see the same data (:func:`pair_coverages`).

    Example
    -------
    >>> from scorio_core.calibration import pair_coverage
    >>> c = pair_coverage("hard", 30, 4, scope="population", reps=20)
    >>> 0.0 <= c.coverage <= 1.0 and c.width > 0
    True
    """
    scope = _check_scope(scope)
    return pair_coverages(benchmark, M, N, reps=reps, confidence=confidence,
                          truth_questions=truth_questions, seed=seed)[scope]


# ---------------------------------------------------------------------------- the grid
def _grid_piece(
    benchmark: str, M: int, N: int, categorical: bool, reps: int, confidence: float, seed: int
) -> list[dict]:
    """One grid cell (both scopes from the same data), as table rows."""
    cells = _coverage_cells(benchmark, M, N, SCOPES, reps, categorical, confidence, seed, None)
    return [c.row() for c in cells]


def calibration_table(
    reps: int = 2000,
    cells: Iterable[tuple[str, int, int, bool]] | None = None,
    *,
    confidence: float = 0.95,
    seed: int = 0,
    executor=None,
    progress: Callable[[float, str], None] | None = None,
) -> pd.DataFrame:
    """Coverage of the headline beside the papers' Bayes@N and the plain ``t`` interval over
    :data:`GRID` (or ``cells``), both scopes per cell.

    Parameters
    ----------
    reps : int
        Replicates per cell.
    cells : iterable of (benchmark, M, N, categorical), optional
        Default: every combination of :data:`GRID`.
    confidence, seed
        As in :func:`coverage`.
    executor : scorio_core.parallel.Executor, optional
        Runs the cells on a Dask cluster (identical results); default this process.
    progress : callable, optional
        ``progress(fraction, label)`` after each cell.

    Returns
    -------
    pandas.DataFrame
        One row per cell and scope: ``benchmark, outcomes, M, N, scope, reps, identified,
        headline, headline_se, headline_width, bayes, bayes_width, plain_t, plain_t_width,
        band_lo, band_hi, in_band`` (coverage as a share; ``in_band`` is NA where the
        headline is not identified).

    Example
    -------
    >>> from scorio_core.calibration import calibration_table
    >>> t = calibration_table(100, [("hard", 30, 2, False)])
    >>> t[["scope", "identified"]].values.tolist()
    [['questions', True], ['population', True]]
    """
    reps = check_int("reps", reps)
    conf = check_confidence(confidence)
    if cells is None:
        cells = [
            (b, m, n, o == "categorical")
            for b in GRID["benchmark"]
            for o in GRID["outcomes"]
            for m in GRID["M"]
            for n in GRID["N"]
        ]
    items = [(b, int(m), int(n), bool(c), reps, conf, int(seed)) for b, m, n, c in cells]
    for b, *_ in items:
        _benchmark(b)
    parts = run_pieces(_grid_piece, items, executor=executor, progress=progress, label="cells")
    table = pd.DataFrame([row for part in parts for row in part])
    if len(table):
        table["in_band"] = table["in_band"].astype("boolean")
    return table


# ---------------------------------------------------------------------------- Pass@k curves
#: The quick grid of :func:`curve_calibration_table`: (M, N) cells, each at k = 1, 2, N/2, N.
CURVE_GRID: dict[str, tuple] = {
    "benchmark": tuple(BENCHMARKS),
    "MN": ((15, 4), (30, 8), (100, 16), (500, 4), (500, 32)),
    "kind": ("pass", "hat"),
}


@dataclass(frozen=True)
class CurveCoverage:
    """Coverage of the Pass-family curve intervals (:mod:`scorio_core.curves`) at one ``k``
    in one cell: the share of replicates whose interval holds the scope's estimand, and the
    mean width. ``identified`` is False in the questions scope at ``N = 1``."""

    benchmark: str
    M: int
    N: int
    k: int
    kind: str
    tau: float
    scope: str
    reps: int
    confidence: float
    identified: bool
    coverage: float
    width: float
    band: tuple[float, float] = field(default=(0.93, 0.97))

    @property
    def se(self) -> float:
        """Binomial Monte-Carlo standard error of :attr:`coverage`."""
        c = self.coverage
        return float(np.sqrt(c * (1 - c) / self.reps)) if self.identified else float("nan")

    @property
    def in_band(self) -> bool | None:
        if not self.identified:
            return None
        return bool(self.band[0] <= self.coverage <= self.band[1])

    def row(self) -> dict:
        """One row of :func:`curve_calibration_table`."""
        return {"benchmark": self.benchmark, "M": self.M, "N": self.N, "k": self.k,
                "curve": self.kind, "tau": self.tau, "scope": self.scope, "reps": self.reps,
                "identified": self.identified, "coverage": self.coverage, "se": self.se,
                "width": self.width, "band_lo": self.band[0], "band_hi": self.band[1],
                "in_band": self.in_band}


def _metric_of_p(kind: str, k: int, tau: float, p: np.ndarray) -> np.ndarray:
    """``f_k(p)``: the metric's expected value when every draw succeeds with ``p``
    (Bernstein form: ``Σ_j β_j Bin(j; k, p)``)."""
    j = np.arange(k + 1)
    beta = ev._coefficients(kind, k, tau)
    p = np.clip(np.asarray(p, dtype=float), 0.0, 1.0)[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        logpmf = (special.gammaln(k + 1) - special.gammaln(j + 1) - special.gammaln(k - j + 1)
                  + special.xlogy(j, p) + special.xlog1py(k - j, -p))
    return np.exp(logpmf) @ beta


def _population_metric(bench: Benchmark, kind: str, k: int, tau: float, par) -> np.ndarray:
    """``E_α[f_k(p_α)]`` of each replicate's population: a beta-binomial expectation
    (Beta kind) or Gauss–Hermite quadrature over the shared difficulty (logit kind)."""
    par = np.asarray(par, dtype=float)
    if bench.kind == "beta":
        a, b = par * bench.concentration, (1 - par) * bench.concentration
        j = np.arange(k + 1)
        logw = (special.gammaln(k + 1) - special.gammaln(j + 1) - special.gammaln(k - j + 1)
                + special.betaln(a[:, None] + j, b[:, None] + k - j)
                - special.betaln(a, b)[:, None])
        return np.exp(logw) @ ev._coefficients(kind, k, tau)
    p = special.expit(par[:, None] - LOGIT_SD * _GH_X[None, :])
    return _metric_of_p(kind, k, tau, p) @ _GH_W


def curve_coverages(
    benchmark: str,
    M: int,
    N: int,
    ks,
    *,
    kind: str = "pass",
    tau: float = 0.0,
    scopes: Sequence[str] = SCOPES,
    reps: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> list[CurveCoverage]:
    """:class:`CurveCoverage` of every ``k`` in ``ks`` and scope, all from the same simulated
    data (the benchmarks of :data:`BENCHMARKS`; replicates stacked as models, each with its
    own empirical-Bayes prior, exactly as on a leaderboard).

    Example
    -------
    >>> from scorio_core.calibration import curve_coverages
    >>> cells = curve_coverages("easy", 30, 8, [1, 8], reps=200, seed=2)
    >>> [(c.k, c.scope) for c in cells][:2], all(0.8 < c.coverage <= 1 for c in cells)
    ([(1, 'questions'), (1, 'population')], True)
    """
    from .curves import _intervals_at

    bench = _benchmark(benchmark)
    M, N, reps = check_int("M", M, minimum=2), check_int("N", N), check_int("reps", reps)
    ks = sorted({ev.check_k(k, N) for k in ks})
    conf = check_confidence(confidence)
    if kind not in ("pass", "hat", "g"):
        raise ValidationError(f"kind must be 'pass', 'hat' or 'g'; got {kind!r}")
    scopes = [_check_scope(s) for s in scopes]
    root = _cell_seed(seed, "curves", benchmark, M, N, kind)
    hits = {(s, k): [] for s in scopes for k in ks}
    widths = {(s, k): [] for s in scopes for k in ks}
    for size, rng in _block_rngs(root, reps, _BLOCK):
        p, par = _probabilities(bench, size, M, rng)
        c = rng.binomial(N, p)
        truth = {}
        for k in ks:
            truth["questions", k] = _metric_of_p(kind, k, tau, p).mean(-1)
            truth["population", k] = _population_metric(bench, kind, k, tau, par)
        for s in scopes:
            ivs = _intervals_at(c, N, ks, kind, tau, s, conf)
            for k in ks:
                lo, hi = ivs[k].lo, ivs[k].hi
                hits[s, k].append((lo <= truth[s, k]) & (truth[s, k] <= hi))
                widths[s, k].append(hi - lo)
    out = []
    for k in ks:
        for s in scopes:
            cov, width = _rate(hits[s, k], widths[s, k])
            out.append(CurveCoverage(benchmark, M, N, k, kind, float(tau), s, reps, conf,
                                     bool(not np.isnan(width)), cov, width,
                                     target_band(M, conf)))
    return out


def curve_coverage(
    benchmark: str, M: int, N: int, k: int, *, kind: str = "pass", tau: float = 0.0,
    scope: str = "questions", reps: int = 2000, confidence: float = 0.95, seed: int = 0,
) -> CurveCoverage:
    """Coverage of one curve interval at one ``k`` and scope (:func:`curve_coverages`)."""
    return curve_coverages(benchmark, M, N, [k], kind=kind, tau=tau, scopes=[scope], reps=reps,
                           confidence=confidence, seed=seed)[0]


def _curve_ks(N: int) -> list[int]:
    return sorted({1, min(2, N), max(N // 2, 1), N})


def _curve_piece(benchmark, M, N, kind, reps, confidence, seed) -> list[dict]:
    cells = curve_coverages(benchmark, M, N, _curve_ks(N), kind=kind, reps=reps,
                            confidence=confidence, seed=seed)
    return [c.row() for c in cells]


def curve_calibration_table(
    reps: int = 2000,
    cells: Iterable[tuple[str, int, int, str]] | None = None,
    *,
    confidence: float = 0.95,
    seed: int = 0,
    executor=None,
    progress: Callable[[float, str], None] | None = None,
) -> pd.DataFrame:
    """Coverage of the Pass@k / Pass^k curve intervals over :data:`CURVE_GRID` (or
    ``cells`` of ``(benchmark, M, N, kind)``), at ``k = 1, 2, N/2, N``, both scopes.

    Example
    -------
    >>> from scorio_core.calibration import curve_calibration_table
    >>> t = curve_calibration_table(100, [("hard", 30, 4, "hat")])
    >>> sorted(set(t["k"])), sorted(set(t["scope"]))
    ([1, 2, 4], ['population', 'questions'])
    """
    reps = check_int("reps", reps)
    conf = check_confidence(confidence)
    if cells is None:
        cells = [(b, m, n, kind) for b in CURVE_GRID["benchmark"] for m, n in CURVE_GRID["MN"]
                 for kind in CURVE_GRID["kind"]]
    items = [(b, int(m), int(n), str(kd), reps, conf, int(seed)) for b, m, n, kd in cells]
    for b, *_ in items:
        _benchmark(b)
    parts = run_pieces(_curve_piece, items, executor=executor, progress=progress, label="cells")
    table = pd.DataFrame([row for part in parts for row in part])
    if len(table):
        table["in_band"] = table["in_band"].astype("boolean")
    return table
