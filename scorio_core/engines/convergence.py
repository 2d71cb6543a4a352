"""How fast rankings settle as trials accumulate (Don't Pass@k (2026), §2.7, §3.1, §3.3, App. I.1,
J).

Two analyses over bootstrap replicates of the trials (:mod:`.bootstrap`):

* :func:`convergence_curves` — mean ± s.d. Kendall τ_b between the ranking
  from the first ``n`` resampled trials and a target ranking, ``n = 1..N``
  (Don't Pass@k (2026), Figs. 2-3). The target is the gold standard (Bayes_U@N on all original
  trials), the method's own full-trial ranking (``"self"``), or known true
  scores (e.g. the biased coins' true means).
* :func:`convergence_at_n` — per replicate, the smallest ``s`` after which the
  ranking from the first ``s`` trials equals the target and never changes
  again (Don't Pass@k (2026), App. I.1); PMF/CDF over replicates, the no-convergence fraction
  and the worst-case rank trajectory (Don't Pass@k (2026), Figs. 1, 9, 11).
  :func:`subset_convergence` repeats it over random model subsets (Don't Pass@k (2026),
  Tables 9-11).

Speed. Every registered method works (each replicate is re-ranked at each
step). Count-based metrics have fast paths that never re-rank from scratch:
Bayes@N, avg and Bayes_R0@N are linear in the per-model total of outcome
weights, so a replicate's scores at step ``s`` are a running sum over its
trial columns; the Pass family (Pass@k, Pass^k, G-Pass@k_τ, mG-Pass@k) reads
each question's running correct count through the estimator's table for
``N = s``. convergence@n walks each replicate backwards from ``s = N`` and
drops it at its first mismatch, so replicates that never match cost one step.
Ranks use the registry's tie rule (:func:`~scorio_core._ties.rank_scores_batch`),
so fast paths return exactly what re-ranking with the registered method gives.

Definition details (Don't Pass@k (2026), App. I.1): ``s* = min{s <= N-1 : rank(s') = target for
all s' >= s}``. A ranking that first matches at the last trial ``N`` has no
later trial to confirm it and counts as *no convergence*; tables that need one
number per replicate (Don't Pass@k (2026), Tables 9-11) count no convergence as ``N``
(``mean_trials_censored``). Pass@k-type methods have no ranking before ``s = k``.

Example
-------
>>> import numpy as np
>>> from scorio_core.engines.convergence import convergence_at_n
>>> R = np.zeros((3, 4, 6), dtype=int); R[0] = 1; R[1, :2] = 1
>>> run = convergence_at_n(R, methods=["bayes"], replicates=20, seed=1)
>>> run.summary["mean_trials"].tolist()   # model order is fixed from the first trial
[1.0]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from .. import eval as ev
from .._ties import rank_scores, rank_scores_batch
from .._validation import (
    Only,
    Said,
    ValidationError,
    as_outcome_array,
    as_weights,
    check_int,
    check_steps,
)
from ..display import Displayed, recorded
from ..estimands import ASSURANCE
from ..formatting import DECIMALS_ATTR, a_chance, percent
from ..parallel import Executor
from ..rank import METHODS, metrics
from ..resampling import (
    blocks,
    iter_batches,
    model_pools,
    pool_prior,
    pool_sizes,
    resample_indices,
    run_pieces,
)
from ._budget import check_rerank_work, check_result_memory
from .agreement import mean_sd, skip_reason, tau_b_to

#: Decimals of the convergence@n summary, declared once for every renderer: the means and
#: median of a trial count over replicates to one decimal and none, the share that never
#: converged as a Monte-Carlo share (three decimals). The columns say they count trials
#: (``mean_trials``, not ``mean``): a report also shows ``mean`` τ_b (the curves, the method
#: comparison) with four decimals, and one name keeps one meaning and one format there.
SUMMARY_DECIMALS = {"mean_trials": 1, "mean_trials_censored": 1, "median_trials": 0,
                    "no_convergence": 3}

__all__ = [
    "Curves",
    "ConvergenceRun",
    "convergence_curves",
    "convergence_at_n",
    "ci_requirements",
    "explain_convergence",
    "fast_path",
    "fast_kind",
    "has_fast_path",
    "FastPath",
    "TABLE_KINDS",
    "check_methods",
    "contribution",
    "prepare_outcomes",
    "scores_at",
    "rank_trajectory",
    "subset_convergence",
    "target_ranks",
    "worst_trajectory",
]

Progress = Callable[[float, str], None]

TABLE_KINDS = {
    metrics.pass_at_k: "pass",
    metrics.pass_hat_k: "hat",
    metrics.g_pass_at_k_tau: "g",
    metrics.mg_pass_at_k: "mg",
}


# ---------------------------------------------------------------------------
# fast paths
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class FastPath:
    """State-update description of a count-based metric.

    ``linear``: score = offset + running sum of per-completion values ``X``
    (outcome weights); ``table``: score = mean over questions of
    ``table_s[c]`` with ``c`` the running correct count of binary ``X``.
    """

    kind: str
    X: np.ndarray  # (L, M, N) values (linear) or binary outcomes (table)
    offset: np.ndarray | None = None  # (L,) prior totals (linear)
    table: tuple[str, int, float] = ("", 0, 0.0)  # (kind, k, tau)

    @property
    def min_steps(self) -> int:
        return self.table[1] if self.kind == "table" else 1

    @cached_property
    def totals(self) -> np.ndarray:
        """Per-trial model totals ``(L, N)`` (linear kind), computed once."""
        return self.X.sum(axis=1)


def fast_kind(m) -> str | None:
    """Which fast path a registered method has: ``bayes``, ``avg``, ``table`` or None."""
    if m.func is metrics.bayes and m.params.get("quantile") is None:
        return "bayes"
    if m.func is metrics.avg:
        return "avg"
    return "table" if m.func in TABLE_KINDS else None


def has_fast_path(method_id: str) -> bool:
    """Whether the method is scored from running counts on binary data (without building
    anything); ``bayes_greedy`` additionally needs R0."""
    return fast_kind(METHODS[method_id]) is not None


def fast_path(method_id: str, R, R0=None) -> FastPath | None:
    """The fast-path description of a registered method on ``R``, or ``None``.

    Available for ``bayes``, ``bayes_greedy``, ``avg`` and the Pass family;
    ``bayes_ci`` (a quantile of the posterior) and all model-coupled rankers
    are re-ranked step by step instead.
    """
    m = METHODS[method_id]
    R = as_outcome_array(R, name="R", min_ndim=3, max_ndim=3)
    kind = fast_kind(m)
    if kind == "bayes":
        w = as_weights(None, int(R.max()) + 1)
        offset = None
        if m.needs_r0:
            if R0 is None:
                return None
            R0a = np.asarray(R0)
            R0a = np.broadcast_to(R0a if R0a.ndim == 3 else R0a[None], R.shape[:2] + R0a.shape[-1:])
            offset = w[R0a].sum(axis=(1, 2))
        return FastPath("linear", w[R], offset)
    if kind is None or R.max() > 1:
        return None
    if kind == "avg":
        return FastPath("linear", R.astype(float))
    k, tau = int(m.params["k"]), float(m.params.get("tau", 0.0))
    return FastPath("table", R.astype(np.int8), None, (TABLE_KINDS[m.func], k, tau))


def contribution(f: FastPath, idx: np.ndarray, j: int) -> np.ndarray:
    """What resampled trial ``j`` adds to the state of each replicate in ``idx``."""
    if idx.ndim == 2:  # column / permutation
        cols = idx[:, j]
        if f.kind == "linear":
            return f.totals[:, cols].T
        return np.ascontiguousarray(f.X[:, :, cols].transpose(2, 0, 1))
    cols = idx[:, :, j]  # row scheme: (b, M)
    g = f.X[:, np.arange(f.X.shape[1])[None, :], cols]  # (L, b, M)
    if f.kind == "linear":
        return g.sum(-1).T
    return np.ascontiguousarray(g.transpose(1, 0, 2))


def _forward(f: FastPath, idx: np.ndarray):
    """Yield ``(s, state)`` after each resampled trial ``s = 1..N`` (``state`` is updated
    in place: use it before the next step)."""
    state = None
    for s in range(1, idx.shape[-1] + 1):
        add = contribution(f, idx, s - 1)
        if state is None:
            state = add.astype(np.int16) if add.dtype == np.int8 else add.copy()
        else:
            state += add
        yield s, state


def _full_state(f: FastPath, idx: np.ndarray) -> np.ndarray:
    """State after all resampled trials (the start of the backward walk)."""
    b = idx.shape[0]
    if idx.ndim == 2:
        n_src = f.X.shape[2]
        mult = np.bincount((idx + n_src * np.arange(b)[:, None]).ravel(), minlength=b * n_src)
        mult = mult.reshape(b, n_src).astype(float)
        if f.kind == "linear":
            return mult @ f.totals.T
        L, M = f.X.shape[:2]
        flat = f.X.reshape(L * M, n_src).astype(float)
        return np.rint(mult @ flat.T).astype(np.int16).reshape(b, L, M)
    *_, (_, state) = _forward(f, idx)  # the state after the last trial
    return state


def scores_at(f: FastPath, state: np.ndarray, s: int) -> np.ndarray:
    """The method's scores of every replicate from its running ``state`` after ``s`` trials."""
    if f.kind == "linear":
        return state if f.offset is None else state + f.offset
    kind, k, tau = f.table
    if s < k:
        return np.full(state.shape[:-1], np.nan)
    return ev._point_table(kind, s, k, tau)[state].mean(-1)


# ---------------------------------------------------------------------------
# targets and the slow (any method) path
# ---------------------------------------------------------------------------
def target_ranks(method_id: str, R, R0=None, target="gold") -> np.ndarray:
    """Competition ranks every step is compared with.

    ``"gold"``: Bayes_U@N on all trials of ``R`` (Don't Pass@k (2026), §2.7); ``"self"``: the
    method's own ranking on all trials; an array: known scores, higher is
    better (e.g. the biased coins' true means).
    """
    if isinstance(target, str):
        if target == "gold":
            return METHODS["bayes"](R)[0]
        if target == "self":
            return METHODS[method_id](R, R0)[0]
        raise ValidationError(
            f"target must be 'gold', 'self' or an array of scores; got {target!r}"
        )
    t = np.asarray(target, dtype=float)
    if t.shape != (np.shape(R)[0],):
        raise ValidationError(
            f"target scores need one value per model ({np.shape(R)[0]}); got shape {t.shape}"
        )
    return rank_scores(t)


def _replicate(R, idx_b: np.ndarray) -> np.ndarray:
    if idx_b.ndim == 1:
        return R[:, :, idx_b]
    return R[:, np.arange(R.shape[1])[:, None], idx_b]


def _ranks_slow(method_id: str, Rrep: np.ndarray, R0, s: int) -> np.ndarray | None:
    m = METHODS[method_id]
    if s < m.min_trials:
        return None
    return m(Rrep[:, :, :s], R0)[0]


def rank_trajectory(method_id: str, R, R0=None, idx=None) -> np.ndarray:
    """Ranks after each step ``s = 1..N`` of one replicate, ``(N, L)`` (0 = undefined).

    ``idx`` is one replicate's indices, ``(N,)`` or ``(M, N)``; default: the
    original trial order.
    """
    R = as_outcome_array(R, name="R", min_ndim=3, max_ndim=3)
    idx = np.arange(R.shape[2]) if idx is None else np.asarray(idx)
    f = fast_path(method_id, R, R0)
    N = idx.shape[-1]
    out = np.zeros((N, R.shape[0]), dtype=np.int64)
    if f is not None:
        for s, state in _forward(f, idx[None]):
            out[s - 1] = rank_scores_batch(scores_at(f, state, s))[0]
        return out
    Rrep = _replicate(R, idx)
    for s in range(1, N + 1):
        r = _ranks_slow(method_id, Rrep, R0, s)
        if r is not None:
            out[s - 1] = r
    return out


def check_methods(methods, R, R0, N: int | None = None, where: str = "the data have"):
    """``(runnable ids, {skipped id: reason})`` for rankings of ``N`` trials (default: R's);
    ``methods`` as every analysis reads them (a list, or ``"bayes,avg"``, ``"all"``, a family:
    :func:`~scorio_core.definitions._base.resolve_methods`)."""
    from ..definitions._base import resolve_methods  # the one reading of methods

    ids = resolve_methods(methods)
    N = R.shape[2] if N is None else N
    reasons = {mid: skip_reason(mid, N, R0 is not None, where) for mid in ids}
    skipped = {mid: why for mid, why in reasons.items() if why}
    return [m for m in ids if m not in skipped], skipped


def prepare_outcomes(R, R0):
    """``(R, R0)`` checked for re-ranking: a binary/categorical ``(L, M, N)`` array with at
    least two models."""
    R = as_outcome_array(R, name="R", min_ndim=3, max_ndim=3)
    if R.shape[0] < 2:
        raise ValidationError(f"rankings need at least 2 models; got {R.shape[0]}")
    return R, (None if R0 is None else np.asarray(R0))


# ---------------------------------------------------------------------------
# convergence curves
# ---------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class Curves:
    """τ_b against the target after ``n`` trials, per method and replicate."""

    def _repr_html_(self) -> str:
        from .. import charts
        from ..definitions import SECTIONS, Chart
        from ..display import result_html

        reps = max((t.shape[0] for t in self.tau.values()), default=0)
        chart = charts.tau_curves(self.summary) if self.tau else None
        return result_html(
            f"τ_b against the {self.target} as trials accumulate", self._caption(reps),
            [("", self._final())],
            None if chart is None else Chart("τ_b vs n", chart, charts.TAU_CURVES_CAPTION),
            [f"{m} skipped: {why}" for m, why in self.skipped.items()],
            more="Rows: each method at the largest n; every n: .summary.",
            # the columns as the convergence curves' table explains them (the coins study's)
            meanings=SECTIONS["convergence"].column_help("curves"),
        )

    def _caption(self, reps: int) -> str:
        from ..display import run_caption

        own = (f"target {self.target} · scheme {self.scheme} · {reps:,} replicates · "
               f"n = {int(self.steps[0]) if len(self.steps) else 0}.."
               f"{int(self.steps[-1]) if len(self.steps) else 0}")
        # the call's data and other settings (seed, methods, ...) where a public call made it
        call = run_caption(getattr(self, "_about", None), skip=("target", "scheme", "replicates"))
        return " · ".join(t for t in (own, call) if t)

    def _final(self) -> pd.DataFrame:
        s = self.summary
        return s[s["n"] == s["n"].max()].reset_index(drop=True) if len(s) else s

    def __repr__(self) -> str:
        from ..formatting import text_table

        reps = max((t.shape[0] for t in self.tau.values()), default=0)
        return f"<Curves: {self._caption(reps)}>\n{text_table(self._final(), max_rows=20)}"

    steps: np.ndarray  # (S,) numbers of trials n
    tau: dict[str, np.ndarray]  # method -> (B, S); NaN where the ranking is undefined
    target: str
    scheme: str
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def summary(self) -> pd.DataFrame:
        """Long table: method, n, mean, sd, q05, q95 of τ_b over replicates."""
        rows = []
        for mid, t in self.tau.items():
            stats = []
            for col in t.T:  # one column per step n
                v = col[np.isfinite(col)]
                q = np.quantile(v, [0.05, 0.95]) if v.size else (np.nan, np.nan)
                stats.append((*mean_sd(v), *q))
            m = np.array(stats, dtype=float).reshape(-1, 4)
            rows.append(
                pd.DataFrame(
                    {
                        "method": mid,
                        "n": self.steps,
                        "mean": m[:, 0],
                        "sd": m[:, 1],
                        "q05": m[:, 2],
                        "q95": m[:, 3],
                    }
                )
            )
        return (
            pd.concat(rows, ignore_index=True)
            if rows
            else pd.DataFrame(columns=["method", "n", "mean", "sd", "q05", "q95"])
        )


@recorded(data="R", skip=("R0", "progress", "executor"))
def convergence_curves(
    R,
    R0=None,
    methods: Iterable[str] = ("bayes", "pass_at_k_2", "pass_at_k_4", "pass_at_k_8"),
    *,
    replicates: int = 1000,
    scheme: str = "column",
    seed: int = 0,
    target="gold",
    steps: Sequence[int] | None = None,
    batch: int = 2048,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> Curves:
    """Kendall τ_b vs the target after each number of trials (Don't Pass@k (2026), Figs. 2-3).

    Returns per method a ``(replicates, len(steps))`` array; :attr:`Curves.summary`
    gives mean ± s.d. Results do not depend on ``batch``.

    Example
    -------
    >>> import numpy as np
    >>> R = np.random.default_rng(0).integers(0, 2, (3, 20, 6))
    >>> curves = sc.convergence_curves(R, methods=["bayes"], replicates=20, seed=0)
    >>> curves.summary["n"].tolist()
    [1, 2, 3, 4, 5, 6]
    """
    R, R0 = prepare_outcomes(R, R0)
    ids, skipped = check_methods(methods, R, R0)
    check_int("replicates", replicates)
    L, M, N = R.shape
    S = check_steps(N, steps)
    check_result_memory(replicates, 8.0 * S.size * len(ids), "convergence curves")
    pos = {int(s): i for i, s in enumerate(S)}
    tau = {}
    for mi, mid in enumerate(ids):
        tgt = target_ranks(mid, R, R0, target)
        f = fast_path(mid, R, R0)
        if f is None:  # re-ranked: independent pieces, here or on a cluster
            tau[mid] = np.concatenate(_slow_map(
                executor, _curve_piece, N, replicates, scheme, seed, M,
                (mid, R, R0, S, tgt), progress, mi, len(ids), mid,
            ))
            continue
        out = np.full((replicates, S.size), np.nan)
        for start, idx in iter_batches(N, replicates, scheme, seed, M=M, batch=batch):
            if progress is not None:
                progress((mi + start / replicates) / len(ids), mid)
            b = idx.shape[0]
            for s, state in _forward(f, idx):
                if s in pos and s >= f.min_steps:
                    ranks = rank_scores_batch(scores_at(f, state, s))
                    out[start : start + b, pos[s]] = tau_b_to(ranks, tgt)
        tau[mid] = out
    if progress is not None:
        progress(1.0, "done")
    return Curves(S, tau, target if isinstance(target, str) else "scores", scheme, skipped)


# ---------------------------------------------------------------------------
# convergence@n
# ---------------------------------------------------------------------------
def ci_requirements(R, tgt: np.ndarray, confidence: float = 0.95) -> tuple[np.ndarray, ...]:
    """Pairs ``(i, j)`` a ranking must order ``i`` above ``j`` to match ``tgt`` up to CI ties.

    The pairs decided on all trials by the leaderboard's headline rule (questions
    scope, two-sided, simultaneous over pairs, as the rank columns) whose order the
    target ranks ``tgt`` also state (``tgt_i < tgt_j``); every other pair is a
    CI tie and may come out in either order.

    Example
    -------
    >>> from scorio_core.engines.convergence import ci_requirements
    >>> import numpy as np
    >>> R = np.zeros((3, 20, 8), dtype=int); R[0] = 1; R[1, :, :4] = 1; R[2, :, :3] = 1
    >>> [a.tolist() for a in ci_requirements(R, np.array([1, 2, 3]))]
    [[0, 0, 1], [1, 2, 2]]
    """
    from ..eval import prepare_counts
    from ..inference import infer, score_stats

    n, _, w = prepare_counts(R)
    D = infer(score_stats(n, w), "questions", confidence, draws=2000).decided
    tgt = np.asarray(tgt)
    return np.nonzero(D & (tgt[:, None] < tgt[None, :]))


def _matcher(tgt: np.ndarray, req: tuple[np.ndarray, ...] | None):
    """``ranks (b, L) -> bool (b,)``: equal to ``tgt``, or consistent with ``req`` pairs."""
    if req is None:
        return lambda ranks: (ranks == tgt).all(-1)
    i, j = req
    return lambda ranks: (ranks[:, i] < ranks[:, j]).all(-1)


def _last_change_fast(f: FastPath, idx: np.ndarray, tgt: np.ndarray, req=None) -> np.ndarray:
    """Last step whose ranking differs from ``tgt`` (0 if none), per replicate."""
    match = _matcher(tgt, req)
    b, N = idx.shape[0], idx.shape[-1]
    state = _full_state(f, idx)
    alive = np.arange(b)
    last = np.zeros(b, dtype=np.int64)
    for s in range(N, 0, -1):
        if s < f.min_steps:
            last[alive] = s
            break
        ok = match(rank_scores_batch(scores_at(f, state, s)))
        last[alive[~ok]] = s
        alive, state = alive[ok], state[ok]
        if alive.size == 0 or s == 1:
            break
        state -= contribution(f, idx[alive], s - 1)
    return last


#: What ranks data of a single trial per question, where convergence@n needs two: the
#: stability analysis, as each surface runs it (a notebook's call, the command, the page).
SINGLE_TRIAL_NEXT = Said(
    "the low-budget stability analysis (", Only("python", "sc.stability(data)"),
    Only("cli", "scorio-studio stability"), Only("app", "the Stability page"), ")")

#: Replicates per piece of work for methods without a fast path (one task on a cluster).
SLOW_PIECE = 32


def _slow_map(executor, fn, N, replicates, scheme, seed, M, shared, progress, mi, n_methods, mid):
    """``fn(idx, *shared)`` over the replicates in pieces of :data:`SLOW_PIECE`, here or on
    the executor's cluster, in order. A run whose declared work (every replicate re-ranked
    at each of its ``N`` steps; :func:`~scorio_core.engines._budget.check_rerank_work`)
    passes the time limit is refused first, saying why."""
    L = shared[1].shape[0]
    check_rerank_work([mid], float(replicates) * N, float(replicates) * L * M * N * (N + 1) / 2,
                      f"{mid}: replicates re-ranked at every step", count=replicates)

    def report(frac: float, label: str) -> None:
        if progress is not None:
            progress((mi + frac) / n_methods, label)

    items = [(resample_indices(N, b - a, scheme, seed, M=M, start=a),)
             for a, b in blocks(replicates, SLOW_PIECE)]
    return run_pieces(fn, items, shared=shared, executor=executor, progress=report, label=mid)


def _last_change_piece(idx, method_id, R, R0, tgt, req) -> np.ndarray:
    return np.array(
        [_last_change_slow(method_id, R, R0, idx[i], tgt, req) for i in range(idx.shape[0])],
        dtype=np.int64,
    )


def _curve_piece(idx, method_id, R, R0, S, tgt) -> np.ndarray:
    out = np.full((idx.shape[0], S.size), np.nan)
    for i in range(idx.shape[0]):
        Rrep = _replicate(R, idx[i])
        for j, s in enumerate(S):
            r = _ranks_slow(method_id, Rrep, R0, int(s))
            if r is not None:
                out[i, j] = tau_b_to(r[None], tgt)[0]
    return out


def _last_change_slow(method_id: str, R, R0, idx_b: np.ndarray, tgt: np.ndarray, req=None) -> int:
    Rrep = _replicate(R, idx_b)
    match = _matcher(tgt, req)
    for s in range(idx_b.shape[-1], 0, -1):
        r = _ranks_slow(method_id, Rrep, R0, s)
        if r is None or not match(r[None])[0]:
            return s
    return 0


@dataclass(frozen=True, repr=False)
class ConvergenceRun(Displayed):
    """convergence@n of each method over bootstrap replicates.

    ``s_star[m]`` holds each replicate's convergence@n, 0 for no convergence;
    ``last_change[m]`` the last step whose ranking differed from the target.
    """

    n_max: int
    s_star: dict[str, np.ndarray]
    last_change: dict[str, np.ndarray]
    target: str
    scheme: str
    seed: int
    skipped: dict[str, str] = field(default_factory=dict)
    match: str = "exact"
    confidence: float = 0.95

    @property
    def summary(self) -> pd.DataFrame:
        """Per method: mean_trials (convergence@n averaged over the replicates that
        converged), mean_trials_censored (no convergence counted as N), median_trials (over
        the converged), the no_convergence fraction, replicates."""
        rows = []
        for mid, s in self.s_star.items():
            conv = s[s > 0]
            rows.append(
                {
                    "method": mid,
                    "mean_trials": float(conv.mean()) if conv.size else np.nan,
                    "mean_trials_censored": float(np.where(s > 0, s, self.n_max).mean()),
                    "median_trials": float(np.median(conv)) if conv.size else np.nan,
                    "no_convergence": float(np.mean(s == 0)),
                    "replicates": int(s.size),
                }
            )
        out = pd.DataFrame(rows)
        out.attrs[DECIMALS_ATTR] = dict(SUMMARY_DECIMALS)
        return out

    @property
    def pmf(self) -> pd.DataFrame:
        """Long table: method, n (1..N-1), probability that convergence@n = n."""
        n = np.arange(1, self.n_max)
        rows = [
            pd.DataFrame(
                {
                    "method": mid,
                    "n": n,
                    "p": np.bincount(s, minlength=self.n_max)[1 : self.n_max] / s.size,
                }
            )
            for mid, s in self.s_star.items()
        ]
        return (
            pd.concat(rows, ignore_index=True)
            if rows
            else pd.DataFrame(columns=["method", "n", "p"])
        )

    @property
    def cdf(self) -> pd.DataFrame:
        """Long table: method, n, P(convergence@n <= n); it tops out at 1 - no_convergence."""
        p = self.pmf
        if p.empty:
            return p.rename(columns={"p": "cdf"})
        p = p.assign(cdf=p.groupby("method", sort=False)["p"].cumsum())
        return p.drop(columns="p")

    def worst(self, method_id: str, converged: bool = False) -> int:
        """Index of the worst-case replicate (Don't Pass@k (2026), Fig. 9).

        Default: the replicate whose ranking changed last (a no-convergence one
        if any). ``converged=True``: the converging replicate with the largest
        convergence@n (falls back to the default when none converged).
        """
        if converged:
            s = self.s_star[method_id]
            if (s > 0).any():
                return int(np.argmax(s))
        return int(np.argmax(self.last_change[method_id]))


@recorded(data="R", skip=("R0", "progress", "executor"))
def convergence_at_n(
    R,
    R0=None,
    methods: Iterable[str] = ("bayes", "pass_at_k_2", "pass_at_k_4", "pass_at_k_8"),
    *,
    replicates: int = 10_000,
    scheme: str = "column",
    seed: int = 0,
    target="gold",
    batch: int = 4096,
    progress: Progress | None = None,
    match: str = "exact",
    confidence: float = 0.95,
    executor: Executor | None = None,
) -> ConvergenceRun:
    """convergence@n (Don't Pass@k (2026), App. I.1) of each method over bootstrap replicates.

    ``target`` as in :func:`target_ranks`. Results do not depend on ``batch``.

    ``match="exact"`` (the paper): a step matches when its ranking equals the
    target. ``match="ci"`` (convergence *with CI*): a step matches when it
    orders every pair that the full data decide at ``confidence`` as the
    target does (:func:`ci_requirements`); pairs the data cannot separate
    (CI ties) may come out in either order.

    ``executor`` (:class:`scorio_core.parallel.Executor`) runs the replicates of
    methods without a fast path (re-ranked at every step) in pieces of
    :data:`SLOW_PIECE` replicates, here or on a Dask cluster; the indices of every
    replicate are fixed by ``seed``, so the result is identical either way.

    Example
    -------
    >>> import numpy as np
    >>> R = np.random.default_rng(0).integers(0, 2, (3, 20, 6))
    >>> run = sc.convergence_at_n(R, methods=["bayes", "avg"], replicates=100, seed=0)
    >>> run.summary[["method", "mean_trials_censored", "no_convergence"]].values.tolist()
    [['bayes', 5.6, 0.89], ['avg', 5.6, 0.89]]
    """
    R, R0 = prepare_outcomes(R, R0)
    ids, skipped = check_methods(methods, R, R0)
    check_int("replicates", replicates)
    if match not in ("exact", "ci"):
        raise ValidationError(f"match must be 'exact' or 'ci'; got {match!r}")
    L, M, N = R.shape
    if N < 2:
        raise ValidationError(
            f"convergence@n needs at least 2 trials per question (it asks after which trial "
            f"s <= N - 1 the ranking stops changing); these data have N = {N}. For single-trial "
            "rankings use " + SINGLE_TRIAL_NEXT
        )
    check_result_memory(replicates, 16.0 * len(ids), "convergence@n")
    s_star, last_change = {}, {}
    for mi, mid in enumerate(ids):
        tgt = target_ranks(mid, R, R0, target)
        req = ci_requirements(R, tgt, confidence) if match == "ci" else None
        f = fast_path(mid, R, R0)
        if f is None:  # re-ranked: independent pieces, here or on a cluster
            last = np.concatenate(_slow_map(
                executor, _last_change_piece, N, replicates, scheme, seed, M,
                (mid, R, R0, tgt, req), progress, mi, len(ids), mid,
            ))
        else:
            last = np.zeros(replicates, dtype=np.int64)
            for start, idx in iter_batches(N, replicates, scheme, seed, M=M, batch=batch):
                if progress is not None:
                    progress((mi + start / replicates) / len(ids), mid)
                last[start : start + idx.shape[0]] = _last_change_fast(f, idx, tgt, req)
        s = last + 1
        s_star[mid] = np.where(s <= N - 1, s, 0)
        last_change[mid] = last
    if progress is not None:
        progress(1.0, "done")
    tname = target if isinstance(target, str) else "scores"
    return ConvergenceRun(
        N, s_star, last_change, tname, scheme, seed, skipped, match, float(confidence)
    )


def explain_convergence(
    run: ConvergenceRun, R, R0=None, *, truth=None, models: Sequence[str] | None = None
) -> list[str]:
    """Plain-language reasons when convergence@n is empty or never happens, and what to change.

    Returns an empty list when every analysed method converges in some
    replicates. Otherwise one sentence per problem: methods whose ranking starts
    only at ``k = N``, and methods that never converge -- with the number of adjacent
    pairs the full data cannot separate at the run's confidence; for an exact match, the
    models the target ties although their outcomes differ, by name (a ranking of re-drawn
    trials almost never ties them at every step, so no number of trials helps: the papers'
    trials rule is ∞ there and is not offered); the methods whose full-data ranking
    disagrees with gold where the match counts (anywhere for an exact match, on the pairs
    the full data decide for a match with CI); the effect of bootstrap resampling, and the
    settings that would help -- more trials only where they can. (With ``N < 2``
    :func:`convergence_at_n` itself refuses, saying why.)

    ``truth`` (the known true scores a run against ``target=scores`` compared with, e.g.
    the biased coins' true means; names from ``models``): the reasons an exact match with
    the true ranking cannot last, for any method whose replicates did not all converge --
    models the truth ties (a ranking from trials almost never ties them too) and pairs a
    method's ranking on all trials orders against the truth (replicates re-draw these
    trials, so they settle on that order) -- and what helps instead.

    Example
    -------
    >>> from scorio_core.engines.convergence import explain_convergence
    >>> import numpy as np
    >>> R = np.random.default_rng(0).integers(0, 2, (4, 10, 4))
    >>> run = sc.convergence_at_n(R, methods=["pass_at_k_4"], replicates=50)
    >>> explain_convergence(run, R)[0][:45]
    'pass_at_k_4 defines a ranking only from n = k'
    """
    from ..leaderboard import leaderboard
    from ..rank import METHODS

    R = as_outcome_array(R, name="R", min_ndim=3, max_ndim=3)
    N = R.shape[2]
    msgs = []

    never = [m for m, s in run.s_star.items() if s.size and not (s > 0).any()]
    late = [m for m in never if m in METHODS and METHODS[m].min_trials >= N]
    if late:
        msgs.append(
            f"{', '.join(late)} {'defines' if len(late) == 1 else 'define'} a ranking only "
            f"from n = k = N = {N}, so there is no step n ≤ N − 1 at which "
            f"{'it' if len(late) == 1 else 'they'} could converge; pick a smaller k or load "
            "more trials."
        )
    never = [m for m in never if m not in late]
    if truth is not None:  # the structural reasons against a known truth, when there are any
        said = _explain_truth(run, R, R0, np.asarray(truth, dtype=float), models, late)
        if said:
            return msgs + said
    exact = run.match == "exact"
    names = list(models) if models is not None else [f"model {i}" for i in range(R.shape[0])]
    # ties in the target: an exact match needs every replicate to tie them at every step,
    # so they keep replicates from converging even where some do by chance
    failing = [m for m, s in run.s_star.items() if s.size and (s == 0).any() and m not in late]
    tied = _target_ties(run, failing, R, R0) if exact else {}
    if not never and not tied:
        return msgs
    board = leaderboard(R, confidence=run.confidence, draws=1)
    pairs = board.unresolved()
    n_und, n_adj = len(pairs), R.shape[0] - 1
    if never:
        adjacent = "adjacent gold pairs" if run.target == "gold" else (
            "adjacent pairs of the full data's Bayes@N ranking")
        why = (
            f"{', '.join(never)} never converge{'s' if len(never) == 1 else ''} in "
            f"{run.s_star[never[0]].size:,} replicates. "
            f"{n_und} of {n_adj} {adjacent} are not separated at {percent(run.confidence)} "
            f"with all N = {N} trials"
        )
        if n_und and exact:
            why += (
                ": an exact match needs every such near-tie to come out in the target's order "
                "at every step from some n on, which noise of this size rarely allows"
            )
        elif n_und:
            why += (": convergence with CI lets them come out in either order, so they are "
                    "not what stops it")
        msgs.append(why + ".")
    for groups, ms in tied.items():
        msgs.append(_ties_text(run.target, groups, ms, names, R))
    if run.target == "gold" and never:
        msgs += _against_gold(run, never, R, R0, names)
    todo = []
    if exact and (tied or (never and n_und)):
        todo.append("count a replicate as converged with CI (match 'ci'): "
                    + ("tied pairs and " if tied else "")
                    + "pairs the full data cannot separate may then come out in either order")
    if never and run.scheme != "permutation":
        todo.append(
            "use permutation resampling (a bootstrap replicate redraws trials with "
            f"replacement, so even its n = N ranking need not equal the "
            f"{'gold' if run.target == 'gold' else 'full data'} ranking)"
        )
    if never and run.target == "gold":
        todo.append("compare with each method's own full-trial ranking (target 'self')")
    # more trials help an exact match only where nothing in the target is tied: a tie is no
    # near-tie that more trials resolve (the Planner: no amount of data orders it)
    if exact and never and n_und and not tied:
        need = pairs["trials_needed_papers"].replace(np.inf, np.nan).dropna()
        more = (f" (the papers' expected-z rule puts the hardest pair at about "
                f"{int(need.max()):,} per question, a 50% point; the Planner gives the trials "
                f"for {a_chance(ASSURANCE)})") if len(need) else ""
        todo.append(f"collect more trials{more}")
    if todo:
        msgs.append("What to change: " + "; ".join(todo) + ".")
    return msgs


def _target_ties(run: ConvergenceRun, methods: Sequence[str], R, R0
                 ) -> dict[tuple[tuple[int, ...], ...], list[str]]:
    """The models each method's target ranking ties although their outcomes differ, grouped:
    ``{groups: methods}``. (Models with identical outcomes tie at every step of every
    replicate as well, so they never stop an exact match.) Gold and self targets only."""
    if run.target not in ("gold", "self"):
        return {}
    out: dict[tuple[tuple[int, ...], ...], list[str]] = {}
    for m in methods:
        if m not in METHODS:
            continue
        ranks = target_ranks(m, R, R0, run.target)
        groups = tuple(
            tuple(int(i) for i in g) for v in np.unique(ranks)
            if len(g := np.flatnonzero(ranks == v)) > 1
            and not all(np.array_equal(R[g[0]], R[i]) for i in g[1:]))
        if groups:
            out.setdefault(groups, []).append(m)
    return out


def _ties_text(target: str, groups, methods: Sequence[str], names: Sequence[str], R) -> str:
    """Why an exact match with a target that ties models cannot happen, naming them."""
    value = METHODS["bayes"](R)[1] if target == "gold" else None  # what the gold ties
    listed = _listed([_listed([names[i] for i in g])
                      + ("" if value is None else f" (Bayes@N {value[g[0]]:.4f} each)")
                      for g in groups[:4]])
    if len(groups) > 4:
        listed += f" and {len(groups) - 4} more groups"
    N = R.shape[2]
    whose = ("The gold standard" if target == "gold" else
             f"{_listed(methods)}'s own ranking" if len(methods) == 1 else
             f"The own rankings of {_listed(methods)}")
    return (
        f"{whose} on all N = {N} trials tie{'s' if target == 'gold' or len(methods) == 1 else ''} "
        f"{listed}: equal scores from different outcomes. An exact match needs every "
        "replicate's ranking to tie them too, at every step from some n on, which rankings of "
        "re-drawn trials do only by chance over the last few trials: most replicates never "
        "converge" + (" for any method" if target == "gold" else "")
        + ", and more trials make it rarer still (they would also move the target itself; the "
        "Planner finds no amount of data that orders a tie)."
    )


def _against_gold(run: ConvergenceRun, methods: Sequence[str], R, R0,
                  names: Sequence[str]) -> list[str]:
    """The methods whose ranking on all trials disagrees with gold where the match counts:
    anywhere for an exact match, on the pairs the full data decide for a match with CI."""
    gold = target_ranks("bayes", R, R0, "gold")
    own = {m: METHODS[m](R, R0)[0] for m in methods if m in METHODS}
    if run.match == "exact":
        differ = [m for m, r in own.items() if not np.array_equal(r, gold)]
        return [
            f"{', '.join(differ)} already {'ranks' if len(differ) == 1 else 'rank'} the full data "
            "differently from the gold "
            "standard, so an exact match with gold can never last; target 'self' measures "
            "how fast each method settles on its own answer."
        ] if differ else []
    i, j = ci_requirements(R, gold, run.confidence)
    out = []
    for m, r in own.items():
        bad = [(a, b) for a, b in zip(i.tolist(), j.tolist(), strict=True) if r[a] >= r[b]]
        if not bad:
            continue
        items = [f"{names[b]} {'level with' if r[a] == r[b] else 'above'} {names[a]}"
                 for a, b in bad[:3]]
        said = (_listed(items) if len(bad) <= 3 else
                f"{', '.join(items)} and {len(bad) - 3} more pairs")
        out.append(
            f"On all trials {m} puts {said}: pairs the full data decide the other way "
            f"at {percent(run.confidence)}, which convergence with CI requires, so a match "
            "with gold cannot last; target 'self' measures how fast it settles on its own "
            "answer."
        )
    return out


def _listed(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _explain_truth(run: ConvergenceRun, R, R0, truth: np.ndarray,
                   models: Sequence[str] | None, late: Sequence[str]) -> list[str]:
    """:func:`explain_convergence` against known true scores: tied true models, pairs each
    method's full-data ranking orders against the truth, and what helps."""
    from ..rank import METHODS
    from .agreement import kendall_tau_b

    L = R.shape[0]
    names = list(models) if models is not None else [f"model {i}" for i in range(L)]
    failing = [m for m, s in run.s_star.items() if s.size and (s == 0).any() and m not in late]
    if not failing:
        return []
    exact = run.match == "exact"
    msgs = []
    groups = [np.flatnonzero(truth == v) for v in np.unique(truth)]
    tied = [g for g in groups if len(g) > 1]
    if tied and exact:
        cap = kendall_tau_b(truth, truth + 1e-9 * np.arange(L))  # the ties broken
        said = _listed([f"{_listed([names[i] for i in g])} ({truth[g[0]]:.4g} each)"
                        for g in tied])
        msgs.append(
            f"The truth ties {said}. An exact match needs a ranking that ties them too, which "
            "a ranking from trials almost never does (their scores would have to be exactly "
            f"equal at every step from some n on), so no_convergence is near 1 for every "
            f"method whatever the number of trials; an untied ranking reaches at most "
            f"τ_b = {cap:.3f} with the truth in the curves."
        )
    # pairs each method orders on all trials against the truth (strictly, or ties the truth
    # does not): replicates re-draw these trials and settle there. With CI only the pairs
    # the full data decide in the true order are required
    need = None if exact else set(zip(*(a.tolist() for a in ci_requirements(
        R, rank_scores(truth), run.confidence)), strict=True))
    against: dict[tuple, list[str]] = {}
    for m in failing:
        if m not in METHODS:
            continue
        ranks = METHODS[m](R, R0)[0]
        wrong = tuple((i, j) for i in range(L) for j in range(L)
                      if truth[i] > truth[j] and ranks[i] >= ranks[j]
                      and (need is None or (i, j) in need))
        if wrong:
            against.setdefault(wrong, []).append(m)
    for wrong, ms in against.items():
        ranks = METHODS[ms[0]](R, R0)[0]
        pairs = _listed([
            f"{names[j]} {'level with' if ranks[i] == ranks[j] else 'above'} {names[i]} "
            f"(true {truth[j]:.4g} < {truth[i]:.4g})" for i, j in wrong[:4]])
        more = f" and {len(wrong) - 4} more pairs" if len(wrong) > 4 else ""
        msgs.append(
            f"On all N = {R.shape[2]} trials {_listed(ms)} put{'s' if len(ms) == 1 else ''} "
            f"{pairs}{more}, against the truth"
            + ("" if exact else (" (pairs the full data decide in the true order, so "
                                 "convergence with CI requires them)" if len(wrong) > 1 else
                                 " (a pair the full data decide in the true order, so "
                                 "convergence with CI requires it)"))
            + ". Replicates re-draw these trials, so their rankings scatter around that order: "
            "one matches the truth there only by chance, and more replicates do not change "
            "that share."
        )
    todo = []
    if tied and exact:
        todo.append("count a replicate as converged with CI (match 'ci'): tied true models, and "
                    "pairs the full data cannot separate, may then come out in either order")
    if against:
        todo.append("collect new data -- more trials per question, and more questions where "
                    "the truth is a population mean rather than these questions' mean -- to "
                    "move the full data's order towards the truth")
    if todo:
        msgs.append("What to change: " + "; ".join(todo) + ".")
    return msgs


def worst_trajectory(
    run: ConvergenceRun, method_id: str, R, R0=None, converged: bool = False
) -> np.ndarray:
    """Rank trajectory ``(N, L)`` of the run's worst-case replicate (Don't Pass@k (2026), Fig. 9);
    ``converged`` as in :meth:`ConvergenceRun.worst`."""
    R = as_outcome_array(R, name="R", min_ndim=3, max_ndim=3)
    b = run.worst(method_id, converged)
    idx = resample_indices(R.shape[2], 1, run.scheme, run.seed, M=R.shape[1], start=b)[0]
    return rank_trajectory(method_id, R, R0, idx)


def subset_convergence(
    R,
    R0=None,
    methods: Iterable[str] = ("bayes", "pass_at_k_2", "pass_at_k_4", "pass_at_k_8"),
    *,
    sizes: Sequence[int] = (5, 10, 15),
    subsets: int = 20,
    replicates: int = 1000,
    scheme: str = "column",
    seed: int = 0,
    models: Sequence[str] | None = None,
    batch: int = 4096,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """Mean convergence@n over random model subsets (Don't Pass@k (2026), Tables 9-11).

    For each size, ``subsets`` random pools; within a pool the target is the
    pool's own gold ranking. One row per (size, subset) with the members and,
    per method, ``mean_trials_censored`` (no convergence counted as N, as the paper's
    tables) and the no-convergence fraction.
    """
    from ..definitions._base import resolve_methods  # the one reading of methods

    R, R0 = prepare_outcomes(R, R0)
    methods = resolve_methods(methods)
    L = R.shape[0]
    names = list(models) if models is not None else [f"model_{i}" for i in range(L)]
    sizes = pool_sizes(sizes, L, "subset")
    rows = []
    total = len(sizes) * subsets
    done = 0
    for size in sizes:
        for j, pool in enumerate(model_pools(L, size, subsets, seed)):
            if progress is not None:
                progress(done / total, f"{size} models, subset {j + 1}")
            run = convergence_at_n(
                R[pool],
                pool_prior(R0, pool),
                methods,
                replicates=replicates,
                scheme=scheme,
                seed=seed,
                batch=batch,
            )
            row = {"size": size, "subset": j + 1, "models": ", ".join(names[i] for i in pool)}
            summ = run.summary.set_index("method")
            for mid in methods:
                if mid in summ.index:
                    row[mid] = summ.loc[mid, "mean_trials_censored"]
                    row[f"{mid} no-conv"] = summ.loc[mid, "no_convergence"]
            rows.append(row)
            done += 1
    if progress is not None:
        progress(1.0, "done")
    return pd.DataFrame(rows)
