"""Agreement between rankings (Ranking Reasoning LLMs under Test-Time Scaling (2026), §3.1,
Tables 1, 10-17; SPEC §6).

Kendall's τ_b handles ties in either ranking. :func:`tau_b_matrix` computes all
pairwise τ_b of ``K`` rankings with one matrix product on pair-sign vectors,
which equals ``scipy.stats.kendalltau(variant="b")`` pair by pair.

Example
-------
>>> from scorio_core.engines.agreement import kendall_tau_b
>>> kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4])
0.6666666666666666
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd

from .._validation import ValidationError, model_names
from ..display import Displayed, recorded
from ..rank import METHODS

__all__ = [
    "GOLD_METHOD",
    "UNDEFINED_ALL_TIE",
    "tau_b_undefined_reason",
    "kendall_tau_b",
    "tau_b_matrix",
    "tau_b_to",
    "mean_sd",
    "PairedGap",
    "paired_gap",
    "paired_sd_reduction",
    "gold_standard",
    "MethodRun",
    "skip_reason",
    "run_methods",
    "agreement_table",
    "agreement_summary",
    "consensus",
    "Comparison",
    "compare",
]


#: The method whose ranking is the gold standard when the run has it (Bayes@N, uniform prior,
#: all trials): :func:`compare` leaves it out of the summary, as 002 Table 1 does -- its
#: τ_b with itself is 1 by definition.
GOLD_METHOD = "bayes"

#: Why a Kendall τ_b is NaN: a ranking that ties every model has no untied pair, so
#: the denominator ``sqrt(Σ|s_a| · Σ|s_b|)`` is zero and τ_b is undefined (not 0, not 1).
UNDEFINED_ALL_TIE = "undefined (all models tie)"


def tau_b_undefined_reason(*rankings) -> str | None:
    """Why τ_b between these rankings is undefined, or ``None`` if it is defined.

    Examples
    --------
    >>> from scorio_core.engines.agreement import tau_b_undefined_reason
    >>> tau_b_undefined_reason([1, 1, 1], [1, 2, 3])
    'undefined (all models tie)'
    >>> tau_b_undefined_reason([1, 2, 2], [3, 1, 2]) is None
    True
    """
    for r in rankings:
        x = np.asarray(r, dtype=float)
        if x.size < 2:
            return "undefined (fewer than 2 models)"
        if np.all(x == x.flat[0]):
            return UNDEFINED_ALL_TIE
    return None


def _signs(X: np.ndarray) -> np.ndarray:
    """Pair signs ``sign(x_i - x_j)`` for ``i < j`` of each row: ``(K, L(L-1)/2)``."""
    i, j = np.triu_indices(X.shape[-1], k=1)
    return np.sign(X[..., i] - X[..., j])


def tau_b_matrix(rankings) -> np.ndarray:
    """All pairwise Kendall τ_b of the rows of ``rankings (K, L)``.

    ``τ_b = Σ s_a s_b / sqrt(Σ|s_a| · Σ|s_b|)`` over model pairs, ``s = sign(x_i - x_j)``.
    Undefined (NaN) when a ranking ties every model.
    """
    X = np.asarray(rankings, dtype=float)
    if X.ndim != 2 or X.shape[1] < 2:
        raise ValidationError(f"need rankings of shape (K, L) with L >= 2; got {X.shape}")
    S = _signs(X)
    num = S @ S.T
    n = np.abs(S).sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = num / np.sqrt(np.outer(n, n))
    return np.where(np.outer(n, n) > 0, tau, np.nan)


def tau_b_to(rankings, target) -> np.ndarray:
    """Kendall τ_b of every row of ``rankings (..., L)`` against one ``target (L,)``.

    NaN where a row (or the target) ties every model.
    """
    X = np.asarray(rankings, dtype=float)
    t = np.asarray(target, dtype=float)
    if X.shape[-1] != t.shape[-1] or t.ndim != 1 or t.size < 2:
        raise ValidationError(
            f"rankings (..., L) and target (L,) must share L >= 2; got {X.shape}, {t.shape}"
        )
    S, st = _signs(X), _signs(t)
    n_t = np.abs(st).sum()
    n_x = np.abs(S).sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (S @ st) / np.sqrt(n_x * n_t)
    return np.where(n_x * n_t > 0, tau, np.nan)


def mean_sd(values) -> tuple[float, float]:
    """Mean and s.d. (ddof=0) of the finite values; NaNs when there are none, and a NaN
    s.d. when there is one (a spread over one value is undefined, not 0).

    Example
    -------
    >>> from scorio_core.engines.agreement import mean_sd
    >>> mean_sd([0.5, 1.0]), mean_sd([0.5, float("nan")])
    ((0.75, 0.25), (0.5, nan))
    """
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if not v.size:
        return np.nan, np.nan
    return float(v.mean()), float(v.std()) if v.size > 1 else np.nan


class PairedGap(NamedTuple):
    """The mean of paired differences ``a - b`` with its standard error and interval
    (:func:`paired_gap`)."""

    mean: float
    se: float
    lo: float
    hi: float
    n: int  # pairs with both values defined
    confidence: float

    @property
    def min_pairs(self) -> int:
        """The fewest pairs that can separate at this confidence: with fewer, even a gap of
        the same sign on every pair turns up by chance (``2 / 2^n``) more often than
        ``1 - confidence`` allows (6 at 95%), however alike the gaps -- a t interval from
        three equal gaps has no width and would call them separated."""
        return int(np.ceil(np.log2(2.0 / (1.0 - self.confidence)) - 1e-9))

    @property
    def separated(self) -> bool:
        """Whether the interval excludes 0, from at least :attr:`min_pairs` pairs."""
        return bool(self.n >= self.min_pairs and np.isfinite(self.lo)
                    and (self.lo > 0 or self.hi < 0))

    def interval_text(self) -> str:
        """``"95% interval 0.0012 to 0.0106"``, as the claims that read it print it."""
        from ..formatting import percent

        return f"{percent(self.confidence)} interval {self.lo:.4f} to {self.hi:.4f}"


def paired_gap(a, b, *, confidence: float = 0.95, draws_from: int | None = None) -> PairedGap:
    """Mean difference ``a - b`` over paired values (the same slices or resampled datasets
    scored both ways), its standard error and Student-t interval (``n - 1`` degrees of
    freedom) -- the one rule by which a stability winner and the greedy prior's effect are
    called separated from noise (:attr:`PairedGap.separated`: the interval excludes 0, from
    at least :attr:`PairedGap.min_pairs` pairs).

    Pairs where either value is NaN (an undefined τ_b) are left out. ``draws_from``: the
    values are ``n`` draws with replacement from that many distinct slices (the greedy
    analysis's resampled datasets re-draw the ``N`` trials), so the standard error adds the
    slices' own sampling error to the draws': ``s * sqrt(1/n + 1/draws_from)`` -- more
    replicates then narrow the interval only down to what the ``N`` trials allow.

    Example
    -------
    >>> from scorio_core.engines.agreement import paired_gap
    >>> g = paired_gap([0.9, 0.8, 1.0, 0.9], [0.8, 0.8, 0.9, 0.8])
    >>> round(g.mean, 3), round(g.se, 3), g.n, g.separated
    (0.075, 0.025, 4, False)
    >>> paired_gap([0.9] * 6, [0.8] * 6).separated  # the same gap on each of 6 slices
    True
    >>> paired_gap([0.9] * 5, [0.8] * 5).separated  # on 5: 1 in 16 by chance
    False
    """
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    d = d[np.isfinite(d)]
    n = int(d.size)
    if n < 2:
        mean = float(d.mean()) if n else np.nan
        return PairedGap(mean, np.nan, np.nan, np.nan, n, float(confidence))
    return _t_gap(float(d.mean()), float(d.std(ddof=1)), n, confidence, draws_from)


def _distinct(n: int, draws_from: int | None) -> int:
    """The distinct values behind ``n`` paired values: ``n``, or at most ``draws_from``."""
    return min(n, draws_from) if draws_from else n


def _t_gap(mean: float, sd: float, n: int, confidence: float,
           draws_from: int | None) -> PairedGap:
    """``mean`` with the standard error and Student-t interval of :func:`paired_gap`: ``sd``
    (the s.d. of one pair's term) times ``sqrt(1/n + 1/draws_from)``, on ``k - 1`` degrees
    of freedom for the ``k`` distinct values (:func:`_distinct`)."""
    from scipy import stats

    scale = 1.0 / n + (1.0 / draws_from if draws_from else 0.0)
    se = float(sd * np.sqrt(scale))
    half = float(stats.t.ppf(0.5 + confidence / 2, max(_distinct(n, draws_from) - 1, 1))) * se
    return PairedGap(mean, se, mean - half, mean + half, n, float(confidence))


def paired_sd_reduction(a, b, *, confidence: float = 0.95,
                        draws_from: int | None = None) -> PairedGap:
    """The relative reduction of the spread, ``1 - sd(a) / sd(b)``, of paired values (the
    same resampled datasets scored both ways) with its standard error and interval, told
    from noise by the rule of :func:`paired_gap`: a narrowing (or a widening) only where the
    interval excludes 0, from at least :attr:`PairedGap.min_pairs` pairs
    (:attr:`PairedGap.separated`).

    The point is ``1 - sd(a) / sd(b)``, each s.d. as :func:`mean_sd` gives it (ddof=0, over
    that side's finite values). The interval is :func:`paired_gap`'s paired construction on
    the log of the ratio: to first order (the delta method) ``log sd(a) - log sd(b)`` is the
    mean over the pairs (those with no NaN) of
    ``u_i = ((a_i - mean a)^2 / var a - (b_i - mean b)^2 / var b) / 2``, each value's
    influence on the log of its side's s.d.; its standard error is the s.d. of ``u`` times
    ``sqrt(1/n + 1/draws_from)`` on ``k - 1`` degrees of freedom, as a paired gap's, with
    Bonett's (2006) small-sample term: the s.d. of ``u`` is taken as
    ``sqrt(var u + 3 / (2 (k - 1)))`` (``k``: the distinct values, ``n`` or at most
    ``draws_from``) -- at 95% the delta method alone claimed a difference between equal
    spreads in 10-15% of samples of 6 to 10 pairs (normal and τ-like values), this in 3-7%
    (5-6% from 50). The ends are carried back to ``1 - ratio``: they hold the point and
    stay below 1; ``se`` is the log scale's times the ratio. NaN ends where either side does
    not vary (no ratio, or a ratio of 0, which has no log) or with fewer than two pairs.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.engines.agreement import paired_sd_reduction
    >>> rng = np.random.default_rng(0)
    >>> b = rng.normal(0, 1.0, 200)
    >>> g = paired_sd_reduction(0.5 * b + rng.normal(0, 0.1, 200), b)
    >>> bool(g.lo <= g.mean <= g.hi), round(g.mean, 1), g.separated
    (True, 0.5, True)
    >>> g = paired_sd_reduction(rng.normal(0, 1.0, 200), b)  # the same spread
    >>> bool(g.lo < 0 < g.hi), g.separated
    (True, False)
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    sd_a, sd_b = mean_sd(a)[1], mean_sd(b)[1]
    mean = float(1.0 - sd_a / sd_b) if sd_b > 0 else np.nan
    both = np.isfinite(a) & np.isfinite(b)
    a, b, n = a[both], b[both], int(both.sum())
    if not (n >= 2 and a.std() > 0 and b.std() > 0 and sd_a > 0):
        return PairedGap(mean, np.nan, np.nan, np.nan, n, float(confidence))
    u = (((a - a.mean()) / a.std()) ** 2 - ((b - b.mean()) / b.std()) ** 2) / 2
    k = _distinct(n, draws_from)
    sd_u = float(np.sqrt(u.var(ddof=1) + 1.5 / max(k - 1, 1)))
    ratio = float(sd_a / sd_b)
    log = _t_gap(float(np.log(ratio)), sd_u, n, confidence, draws_from)
    return PairedGap(mean, ratio * log.se, float(1.0 - np.exp(log.hi)),
                     float(1.0 - np.exp(log.lo)), n, float(confidence))


def kendall_tau_b(a, b) -> float:
    """Kendall τ_b between two rankings (or score vectors) of the same models.

    NaN when undefined; :func:`tau_b_undefined_reason` says why.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValidationError(f"rankings must be 1-D of equal length; got {a.shape}, {b.shape}")
    return float(tau_b_matrix(np.stack([a, b]))[0, 1])


def gold_standard(R) -> np.ndarray:
    """The gold ranking: Bayes_U@N on all trials (= avg@N order, Don't Pass@k (2026), App. B)."""
    return METHODS["bayes"](R)[0]


def skip_reason(method_id: str, N: int, has_r0: bool, where: str = "the data have") -> str | None:
    """Why a registered method cannot rank ``N`` trials (with or without R0), or None."""
    m = METHODS[method_id]
    if N < m.min_trials:
        return f"needs N >= {m.min_trials} trials; {where} N = {N}"
    if m.needs_r0 and not has_r0:
        return "needs prior outcomes R0 (greedy), which this dataset lacks"
    return None


@dataclass(frozen=True, repr=False)
class MethodRun(Displayed):
    """Ranks of every requested method on one tensor.

    ``ranks`` is a DataFrame (models × method ids); methods that could not run
    (e.g. Pass@k with N < k, R0 missing) are listed in ``skipped`` with the
    reason; ``seconds`` holds each method's wall time.
    """

    ranks: pd.DataFrame
    scores: pd.DataFrame
    skipped: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


@recorded(data="R", skip=("R0", "progress"))
def run_methods(
    R,
    R0=None,
    methods: Iterable[str] | None = None,
    models: Sequence[str] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> MethodRun:
    """Run registered methods on ``R`` and collect their ranks.

    ``progress(i, total, method_id)`` is called before each method (for UI bars).
    Unknown ids raise; methods whose preconditions fail are skipped with a reason.

    Example
    -------
    >>> import numpy as np
    >>> R = np.random.default_rng(0).integers(0, 2, (3, 20, 6))
    >>> sc.run_methods(R, None, ["bayes", "avg", "borda"], ["a", "b", "c"]).ranks["borda"].tolist()
    [2, 1, 2]
    """
    from ..definitions._base import resolve_methods  # the one reading of methods

    ids = list(METHODS) if methods is None else resolve_methods(methods)
    R = np.asarray(R)
    L, N = R.shape[0], (R.shape[2] if R.ndim == 3 else 1)
    models = list(model_names(models, L))  # a string is split at its commas unless L == 1
    ranks, scores, skipped, seconds = {}, {}, {}, {}
    for i, mid in enumerate(ids):
        m = METHODS[mid]
        if progress is not None:
            progress(i, len(ids), mid)
        if why := skip_reason(mid, N, R0 is not None):
            skipped[mid] = why
            continue
        t0 = time.perf_counter()
        r, s = m(R, R0)
        seconds[mid] = time.perf_counter() - t0
        ranks[mid], scores[mid] = r, s
    return MethodRun(
        ranks=pd.DataFrame(ranks, index=pd.Index(models, name="model")),
        scores=pd.DataFrame(scores, index=pd.Index(models, name="model")),
        skipped=skipped,
        seconds=seconds,
    )


def agreement_table(ranks: pd.DataFrame, gold) -> pd.DataFrame:
    """τ_b of every method's ranking (columns of ``ranks``) against ``gold``.

    Returns one row per method with ``tau_b``, whether it reproduces the gold
    ordering exactly, and ``note``: ``""``, or why ``tau_b`` is NaN
    (:data:`UNDEFINED_ALL_TIE` when the gold or the method ties every model);
    sorted by agreement, undefined rows last.
    """
    gold = np.asarray(gold, dtype=float)
    R = ranks.to_numpy(dtype=float)
    X = np.vstack([gold, R.T])
    tau = tau_b_matrix(X)[0, 1:] if X.shape[1] >= 2 else np.full(R.shape[1], np.nan)
    # both sides are competition ranks, so the same weak order means equal vectors
    exact = R == gold[:, None]
    note = [tau_b_undefined_reason(gold, R[:, k]) or "" for k in range(R.shape[1])]
    out = pd.DataFrame(
        {
            "method": ranks.columns,
            "family": [METHODS[c].family if c in METHODS else "" for c in ranks.columns],
            "tau_b": tau,
            "exact": exact.all(axis=0),
            "note": note,
        }
    )
    return out.sort_values(
        ["tau_b", "method"], ascending=[False, True], na_position="last"
    ).reset_index(drop=True)


def agreement_summary(tau: Sequence[float] | np.ndarray) -> dict[str, float]:
    """Mean, median, min, #(τ_b = 1) and #(τ_b >= 0.95), as in Ranking Reasoning LLMs under
    Test-Time Scaling (2026), Table 1, over the defined values, plus ``n_undefined`` (NaN τ_b, e.g.
    all models tie). With no defined value, mean/median/min are NaN: see
    :func:`tau_b_undefined_reason`."""
    t = np.asarray(tau, dtype=float)
    n_undefined = int(np.sum(~np.isfinite(t)))
    t = t[np.isfinite(t)]
    if t.size == 0:
        return {
            "mean": np.nan,
            "median": np.nan,
            "min": np.nan,
            "n_tau_1": 0,
            "n_tau_ge_0.95": 0,
            "n_undefined": n_undefined,
        }
    return {
        "mean": float(t.mean()),
        "median": float(np.median(t)),
        "min": float(t.min()),
        "n_tau_1": int(np.sum(np.isclose(t, 1.0, atol=1e-12))),
        "n_tau_ge_0.95": int(np.sum(t >= 0.95 - 1e-12)),
        "n_undefined": n_undefined,
    }


def consensus(ranks: pd.DataFrame) -> pd.DataFrame:
    """Methods sorted by mean τ_b agreement with all other methods (Ranking Reasoning LLMs under
    Test-Time Scaling (2026), Table 10).

    Ties in the mean are broken by the lower standard deviation; methods equal in both
    share a rank (competition ranking: 1, 1, 3). The mean is over the defined τ_b;
    where none is (the method, or every other one, ties all models) it is NaN and
    ``note`` says why.
    """
    X = ranks.to_numpy(dtype=float)
    K = X.shape[1]
    tau = tau_b_matrix(X.T) if X.shape[0] >= 2 else np.full((K, K), np.nan)
    vals = np.where(~np.eye(K, dtype=bool), tau, np.nan)
    stats = [mean_sd(v) for v in vals]
    out = pd.DataFrame(
        {
            "method": ranks.columns,
            "mean_tau_b": [m for m, _ in stats],
            "std_tau_b": [sd for _, sd in stats],
            "note": [
                (tau_b_undefined_reason(X[:, k]) or UNDEFINED_ALL_TIE) if np.isnan(m) else ""
                for k, (m, _) in enumerate(stats)
            ],
        }
    )
    out = out.sort_values(["mean_tau_b", "std_tau_b"], ascending=[False, True], na_position="last")
    key = out[["mean_tau_b", "std_tau_b"]].round(12).fillna(np.inf).to_numpy()
    new = np.r_[True, (key[1:] != key[:-1]).any(axis=1)][:K]  # a row unlike the one above
    pos = np.arange(1, K + 1)
    out.insert(0, "consensus_rank", np.maximum.accumulate(np.where(new, pos, 0)))
    return out.reset_index(drop=True)


@dataclass(frozen=True)
class Comparison:
    """Everything the Method-comparison page and ``scorio-studio compare`` show."""

    run: MethodRun
    gold: np.ndarray
    agreement: pd.DataFrame  # one row per method: tau_b vs gold, exact
    summary: dict[str, float]  # 002 Table 1 statistics over the methods
    tau: pd.DataFrame  # method x method tau_b
    consensus: pd.DataFrame  # methods by mean agreement with the others

    @property
    def undefined(self) -> str | None:
        """Why τ_b against the gold is undefined for every method (the gold ranking ties
        every model: :data:`UNDEFINED_ALL_TIE`), or ``None``."""
        return tau_b_undefined_reason(self.gold)

    @property
    def exact(self) -> list[str]:
        """Methods whose full-data ranking reproduces the gold ordering exactly."""
        return self.agreement.loc[self.agreement["exact"], "method"].tolist()


def compare(run: MethodRun, gold=None, R=None) -> Comparison:
    """Agreement analyses of a :class:`MethodRun` against the gold standard.

    ``gold`` defaults to the run's ``bayes`` column (:data:`GOLD_METHOD`), else
    ``gold_standard(R)``. The summary statistics leave the ``bayes`` method out (as in Ranking
    Reasoning LLMs under Test-Time Scaling (2026), Table 1): its count ``n_tau_1`` is of the *other*
    methods that reproduce the gold.
    """
    if gold is None:
        if GOLD_METHOD in run.ranks:
            gold = run.ranks[GOLD_METHOD].to_numpy()
        elif R is not None:
            gold = gold_standard(R)
        else:
            raise ValidationError("compare needs gold ranks, a 'bayes' column, or R")
    gold = np.asarray(gold)
    table = agreement_table(run.ranks, gold)
    others = table[table["method"] != GOLD_METHOD]["tau_b"]
    ranks = run.ranks
    tau = (
        pd.DataFrame(
            tau_b_matrix(ranks.to_numpy(dtype=float).T), index=ranks.columns, columns=ranks.columns
        )
        if ranks.shape[1]
        else pd.DataFrame()
    )
    return Comparison(
        run=run,
        gold=gold,
        agreement=table,
        summary=agreement_summary(others.to_numpy()),
        tau=tau,
        consensus=consensus(ranks) if ranks.shape[1] else pd.DataFrame(),
    )
