"""Planner: what more data would settle the undecided pairs (000 App. D; SPEC §4).

Three questions a lead asks after a leaderboard with ties:

* :func:`pair_needs` -- for each undecided adjacent pair, the trials per
  question that would separate it in the *questions* scope, the questions that
  would separate it in the *population* scope, and whether more trials can
  settle it at all in the population scope (they cannot when the
  question-to-question spread of the paired difference alone keeps ``z``
  below the threshold).
* :func:`order_curve` -- P(correct order) and expected ``z`` versus ``N`` for
  one pair, by simulation (000 App. D, Fig. 6).
* :func:`allocate_trials` -- a greedy split of a budget of extra trials
  across models that resolves the most pairs, and
  :func:`simulate_allocation` to check it against a uniform split.

Projections hold each question's posterior-mean category probabilities fixed
(000 App. D): a model's per-question posterior variance after ``N'`` trials is
``v · (T + 1) / (T' + 1)`` with ``T' = T + N' − N``.

Example
-------
>>> import numpy as np
>>> from scorio_core.planner import plan
>>> R = (np.random.default_rng(0).random((4, 15, 4)) < [[[.8]], [[.7]], [[.4]], [[.35]]])
>>> p = plan(R.astype(int), budget_trials=8)
>>> list(p.pairs.columns)[:4]
['better', 'next', 'gap', 'p_better']
>>> int(p.allocation["extra_trials"].sum())
8
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy import special

from . import decision
from ._validation import ValidationError
from .leaderboard import Leaderboard, leaderboard
from .outcomes import Outcomes
from .posterior import QuestionMoments, question_moments

__all__ = [
    "pair_needs",
    "OrderCurve",
    "order_curve",
    "pair_curve",
    "Allocation",
    "allocate_trials",
    "AllocationCheck",
    "simulate_allocation",
    "Plan",
    "plan",
    "CurveSettings",
    "curve_settings",
    "CANNOT_SETTLE",
]

CANNOT_SETTLE = "cannot be settled by more trials"


def _pair_stats(q: QuestionMoments, up: np.ndarray, low: np.ndarray):
    M = q.m.shape[-1]
    gap = q.mu[up] - q.mu[low]
    vsum = q.v[up].sum(-1) + q.v[low].sum(-1)
    d = q.m[up] - q.m[low]
    s_d = ((d - d.mean(-1, keepdims=True)) ** 2).sum(-1)
    return M, gap, vsum, s_d


def pair_needs(board: Leaderboard, pairs: str = "undecided") -> pd.DataFrame:
    """Trials and questions needed per adjacent pair of a leaderboard.

    For the pair (better ``i``, next ``j``) with gap ``g``, ``V = Σ_α (v_iα + v_jα)``
    and ``S_d = Σ_α (d_α − d̄)²`` (``d = m_i − m_j``):

    * questions scope: ``z_q = g M / sqrt(V)``; trials needed solve
      ``T' + 1 = (T + 1)(z*/z_q)²`` (000 App. D).
    * population scope: ``z_p = g / sqrt((S_d + 2V) / (M (M + 1)))``; questions
      needed solve ``M' + 1 = (M + 1)(z*/z_p)²`` (same per-question spread).
    * trials in the population scope: the spread of ``d`` net of trial noise,
      ``S = max(S_d − (M−1)/M · V, 0)``, does not shrink with trials, so
      ``z_p`` can never exceed ``g / sqrt(S / (M (M + 1)))`` (``z_limit``);
      when that is below ``z*`` the pair is marked :data:`CANNOT_SETTLE`.

    Parameters
    ----------
    board : Leaderboard
        From :func:`scorio_core.leaderboard.leaderboard` (any scope).
    pairs : {"undecided", "all"}
        Adjacent pairs left undecided by the board's rule, or every adjacent pair.

    Returns
    -------
    pandas.DataFrame
        ``better, next, gap, p_better, trials_needed, questions_needed,
        trials_needed_population, note, z_questions, z_population, z_limit``.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.leaderboard import leaderboard
    >>> R = (np.random.default_rng(1).random((3, 15, 4)) < [[[.6]], [[.55]], [[.2]]]).astype(int)
    >>> t = pair_needs(leaderboard(R), pairs="all")
    >>> t[["better", "next"]].values.tolist()
    [['model_0', 'model_1'], ['model_1', 'model_2']]
    """
    if pairs not in ("undecided", "all"):
        raise ValidationError(f"pairs must be 'undecided' or 'all'; got {pairs!r}")
    cols = ["better", "next", "gap", "p_better", "trials_needed", "questions_needed",
            "trials_needed_population", "note", "z_questions", "z_population", "z_limit"]
    post = board.posterior
    if post is None or len(board.models) < 2:
        return pd.DataFrame(columns=cols)
    q = post.moments
    idx = {m: i for i, m in enumerate(board.models)}
    names = board.columns["model"]
    up = np.array([idx[m] for m in names[:-1]], dtype=int)
    low = np.array([idx[m] for m in names[1:]], dtype=int)
    if pairs == "undecided":
        keep = ~board.decided[up, low]
        up, low = up[keep], low[keep]
    N = int(board.settings["shape"][-1])
    T = q.T
    zs = board.settings["z_threshold"]
    M, gap, vsum, s_d = _pair_stats(q, up, low)
    with np.errstate(divide="ignore", invalid="ignore"):
        z_q = np.where(vsum > 0, gap * M / np.sqrt(vsum), np.where(gap > 0, np.inf, 0.0))
        var_p = (s_d + 2 * vsum) / (M * (M + 1))
        z_p = np.where(var_p > 0, gap / np.sqrt(var_p), np.where(gap > 0, np.inf, 0.0))
        n_q = np.ceil((T + 1) * (zs / z_q) ** 2 - (T + 1) + N - 1e-9)
        m_p = np.ceil((M + 1) * (zs / z_p) ** 2 - 1 - 1e-9)
        s_true = np.maximum(s_d - (M - 1) / M * vsum, 0.0)
        k = vsum * ((M - 1) / M + 2)
        c_star = (gap**2 * M * (M + 1) / zs**2 - s_true) / k
        n_p = np.ceil((T + 1) / c_star - (T + 1) + N - 1e-9)
        z_lim = np.where(s_true > 0, gap / np.sqrt(s_true / (M * (M + 1))), np.inf)
    flat = gap <= 1e-12  # identical means up to rounding
    n_q = np.where(flat, np.inf, np.maximum(n_q, N))
    m_p = np.where(flat, np.inf, np.maximum(m_p, M))
    n_p = np.where(flat | (c_star <= 0), np.inf, np.maximum(n_p, N))
    note = np.where(
        flat,
        "identical means: no amount of data orders them",
        np.where(
            np.isinf(n_p),
            f"{CANNOT_SETTLE} (population scope): add questions",
            "more trials or more questions",
        ),
    )
    return pd.DataFrame(
        {
            "better": np.asarray(board.models, dtype=object)[up],
            "next": np.asarray(board.models, dtype=object)[low],
            "gap": gap,
            "p_better": board.prob_better[up, low],
            "z_questions": z_q,
            "z_population": z_p,
            "trials_needed": n_q,
            "questions_needed": m_p,
            "trials_needed_population": n_p,
            "z_limit": z_lim,
            "note": note,
        }
    )[cols]


@dataclass(frozen=True)
class OrderCurve:
    """P(correct order) and mean z versus trials per question (:func:`order_curve`)."""

    n: np.ndarray
    p_correct: np.ndarray
    z_mean: np.ndarray
    z_projected: np.ndarray | None = None

    def frame(self) -> pd.DataFrame:
        """One row per ``N``."""
        out = {"N": self.n, "p_correct": self.p_correct, "z_mean": self.z_mean}
        if self.z_projected is not None:
            out["z_projected"] = self.z_projected
        return pd.DataFrame(out)


def order_curve(
    p_upper,
    p_lower,
    n_values: Sequence[int],
    w=None,
    sims: int = 2000,
    seed: int = 0,
) -> OrderCurve:
    """Simulated P(Bayes@N orders the pair correctly) and mean ``z`` versus ``N``.

    000 App. D, Fig. 6: both models answer every question ``N`` times with the
    given per-question category probabilities; each simulated table is scored
    with Bayes@N (uniform prior, questions scope) and
    ``z = (mu_upper − mu_lower) / sqrt(σ_upper² + σ_lower²)``. Vectorized over
    simulations; the draws for the ``k``-th ``N`` use ``default_rng([seed, k])``.

    Parameters
    ----------
    p_upper, p_lower : array_like, shape (M,) or (M, C+1)
        Per-question success probabilities (binary) or category probabilities
        of the truly better and worse model.
    n_values : sequence of int
    w : array_like, optional
        Category weights (default evenly spaced on [0, 1]).
    sims : int
    seed : int

    Returns
    -------
    OrderCurve

    Example
    -------
    >>> c = order_curve([0.7] * 10, [0.6] * 10, [1, 16], sims=4000, seed=1)
    >>> bool(c.p_correct[1] > c.p_correct[0] > 0.5), bool(c.z_mean[1] > c.z_mean[0])
    (True, True)
    """
    pu, pl = decision.pair_probabilities(p_upper, p_lower)
    if np.any(pu < 0) or np.any(pl < 0) or not np.allclose(pu.sum(-1), 1) or not np.allclose(
        pl.sum(-1), 1
    ):
        raise ValidationError("category probabilities must be non-negative and sum to 1")
    if int(sims) < 1 or int(sims) > 1_000_000:
        raise ValidationError(f"sims must be between 1 and 1,000,000; got {sims}")
    C1 = pu.shape[1]
    wv = np.linspace(0.0, 1.0, C1) if w is None else np.asarray(w, dtype=float)
    ns = np.asarray([int(n) for n in n_values])
    if ns.size == 0 or ns.min() < 1:
        raise ValidationError(f"n_values must be whole numbers >= 1; got {list(n_values)}")
    pc, zm = [], []
    for k, n in enumerate(ns):
        rng = np.random.default_rng([int(seed), k])
        both = rng.multinomial(int(n), np.stack([pu, pl]), size=(int(sims), 2, pu.shape[0]))
        q = question_moments(both.reshape(int(sims) * 2, pu.shape[0], C1), wv)
        mu = q.mu.reshape(int(sims), 2)
        var = (q.v.sum(-1) / pu.shape[0] ** 2).reshape(int(sims), 2).sum(-1)
        diff = mu[:, 0] - mu[:, 1]
        pc.append(np.mean(diff > 0) + 0.5 * np.mean(diff == 0))
        zm.append(np.mean(diff / np.sqrt(var)))
    return OrderCurve(ns, np.asarray(pc), np.asarray(zm))


def pair_curve(
    data: Outcomes | np.ndarray,
    upper: int | str,
    lower: int | str,
    n_values: Sequence[int],
    *,
    w=None,
    sims: int = 2000,
    seed: int = 0,
) -> OrderCurve:
    """:func:`order_curve` for two models of a dataset, with today's estimates as truth.

    Each question's category probabilities are the Bayes@N posterior means
    ``ν / T`` of the two models (uniform prior), as in 000 App. D; the curve
    also carries the closed-form projection ``z_now · sqrt((T' + 1) / (T + 1))``.

    Parameters
    ----------
    data : Outcomes or array_like (L, M, N)
    upper, lower : int or str
        Model indices or names.
    n_values : sequence of int
    w : array_like, optional
    sims, seed : int

    Returns
    -------
    OrderCurve

    Example
    -------
    >>> import numpy as np
    >>> R = (np.random.default_rng(0).random((2, 20, 4)) < [[[.7]], [[.5]]]).astype(int)
    >>> c = pair_curve(R, 0, 1, [4, 32], sims=2000)
    >>> bool(c.z_projected[1] > c.z_projected[0]) and bool(c.p_correct[1] > 0.9)
    True
    """
    from .eval import prepare_counts

    if isinstance(data, Outcomes):
        R, names = data.R, list(data.models)
        w = data.weights if w is None else w
    else:
        R = np.asarray(data)
        names = [f"model_{i}" for i in range(R.shape[0])]
    ids = []
    for m in (upper, lower):
        if isinstance(m, str):
            if m not in names:
                raise ValidationError(f"unknown model {m!r}; expected one of {names}")
            ids.append(names.index(m))
        else:
            ids.append(int(m))
    n, _, wv = prepare_counts(R[ids], w)
    nu = n + 1.0
    T = nu[0, 0].sum()
    probs = nu / T
    curve = order_curve(probs[0], probs[1], n_values, wv, sims, seed)
    q = question_moments(n, wv)
    M = q.m.shape[-1]
    z_now = (q.mu[0] - q.mu[1]) / np.sqrt(q.v.sum() / M**2)
    N = R.shape[-1]
    z_proj = z_now * np.sqrt((T + 1 + curve.n - N) / (T + 1))
    return OrderCurve(curve.n, curve.p_correct, curve.z_mean, z_proj)


@dataclass(frozen=True)
class Allocation:
    """Extra trials per question per model (:func:`allocate_trials`)."""

    extra: np.ndarray  # (L,) greedy
    uniform: np.ndarray  # (L,) the same budget split evenly
    resolved_now: int
    resolved_greedy: int  # pairs whose projected z reaches the threshold (gaps held fixed)
    resolved_uniform: int
    expected_greedy: float  # expected decided pairs (preposterior), the greedy objective
    expected_uniform: float


def _resolve_prob(sig2, T, mu, extra, zs):
    """Preposterior probability that each pair is decided after ``extra`` (…, L) trials.

    The gap estimate after more data, ``ĝ'``, has predictive distribution
    ``N(g, s² − s'²)`` (posterior means are a martingale), where ``s``/``s'`` are
    the pair's s.d. now and after; the pair is decided when ``|ĝ'| ≥ z* s'``.
    Returns ``(P, z')`` over the ``L(L−1)/2`` pairs, ``z' = |g| / s'``.
    """
    s2_new = sig2 * (T + 1) / (T + 1 + extra)
    iu = np.triu_indices(mu.size, 1)
    gap = np.abs(mu[iu[0]] - mu[iu[1]])
    var_now = sig2[iu[0]] + sig2[iu[1]]
    var_new = s2_new[..., iu[0]] + s2_new[..., iu[1]]
    spread = np.sqrt(np.maximum(var_now - var_new, 0.0))
    margin = gap - zs * np.sqrt(var_new)
    with np.errstate(divide="ignore", invalid="ignore"):
        z_new = np.where(var_new > 0, gap / np.sqrt(var_new), np.where(gap > 0, np.inf, 0.0))
        P = np.where(
            spread > 0,
            special.ndtr(margin / np.where(spread > 0, spread, 1.0)),
            (margin >= 0).astype(float),
        )
    return P, z_new


def allocate_trials(
    q: QuestionMoments, budget: int, confidence: float = 0.95
) -> Allocation:
    """Greedy allocation of ``budget`` extra trials per question across models.

    One unit = one more trial of one model on every question. Trials go to the
    model whose extra trials most increase the expected number of pairs (of
    all ``L(L−1)/2``) decided in the questions scope afterwards. A
    pair's probability of being decided is preposterior: the gap estimate after
    the extra trials is ``N(g, s² − s'²)`` around today's gap ``g`` (``s``,
    ``s'``: the pair's s.d. now and after), and the pair is decided when it
    reaches ``z* s'``. Pairs decided today count as staying decided. Each step
    looks up to 8 units ahead on one model and takes the best gain per unit
    (a pair that needs several trials shows almost no gain from one). This
    spends trials where they can change a decision -- not on pairs already
    decided or on near-identical models. It is a heuristic under a flat prior
    on each gap: on an evenly spaced field a uniform split can do as well.

    Parameters
    ----------
    q : QuestionMoments
    budget : int
        Extra trials per question to distribute (each costs ``M`` completions).
    confidence : float

    Returns
    -------
    Allocation

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.eval import prepare_counts
    >>> R = (np.random.default_rng(0).random((3, 20, 2)) < [[[.9]], [[.5]], [[.5]]]).astype(int)
    >>> n, n0, w = prepare_counts(R)
    >>> a = allocate_trials(question_moments(n, w, n0), budget=6)
    >>> int(a.extra.sum()), int(a.uniform.sum())
    (6, 6)
    """
    budget = int(budget)
    if budget < 0 or budget > 100_000:
        raise ValidationError(f"budget must be between 0 and 100,000 trials; got {budget}")
    mu = q.mu
    L = mu.size
    M = q.m.shape[-1]
    sig2 = q.v.sum(-1) / M**2
    zs = decision.z_threshold(confidence)
    extra = np.zeros(L)
    eye = np.eye(L)
    # Pairs decided today are taken to stay decided (a flat prior on their gap would
    # call more data a risk to them and steer trials away from strong models).
    open_ = _resolve_prob(sig2, q.T, mu, np.zeros(L), zs)[1] < zs
    left = budget
    now = (_resolve_prob(sig2, q.T, mu, extra, zs)[0] * open_).sum()
    while left > 0:
        # look ahead up to 8 units on one model: a pair that needs several trials to move
        # shows almost no gain from one unit (the resolve probability is S-shaped)
        steps = np.array([k for k in (1, 2, 4, 8) if k <= left])
        cand = extra[None, None, :] + steps[:, None, None] * eye[None]  # (K, L, L)
        value = (_resolve_prob(sig2, q.T, mu, cand, zs)[0] * open_).sum(-1)
        rate = (value - now) / steps[:, None]
        k, j = np.unravel_index(int(np.argmax(rate)), rate.shape)
        extra = cand[k, j]
        now, left = value[k, j], left - int(steps[k])
    uniform = np.full(L, budget // L, dtype=float)
    uniform[: budget % L] += 1  # the remainder to the best models by mu
    uniform = uniform[np.argsort(np.argsort(-mu, kind="stable"))]

    def count(e):
        return int((_resolve_prob(sig2, q.T, mu, e, zs)[1] >= zs).sum())

    def expected(e):
        return float(_resolve_prob(sig2, q.T, mu, e, zs)[0].sum())

    return Allocation(
        extra.astype(int), uniform.astype(int), count(np.zeros(L)), count(extra), count(uniform),
        expected(extra), expected(uniform),
    )


@dataclass(frozen=True)
class AllocationCheck:
    """Correctly decided pairs after greedy vs uniform extra trials, by simulation."""

    before: float  # mean correctly ordered decided pairs before the extra trials
    greedy: float  # ... after the greedy extra trials
    uniform: float  # ... after the uniform extra trials
    ratio: float  # greedy / uniform (pairs decided after)
    gain_ratio: float  # (greedy - before) / (uniform - before): pairs the budget resolved
    wrong_greedy: float  # mean number of decided pairs in the wrong order
    wrong_uniform: float
    sims: int


def simulate_allocation(
    p_true,
    N: int,
    budget: int,
    confidence: float = 0.95,
    sims: int = 50,
    seed: int = 0,
) -> AllocationCheck:
    """Check :func:`allocate_trials` against a uniform split by simulation.

    Each replicate draws an ``(L, M, N)`` binary table from the true
    per-question success probabilities, allocates ``budget`` extra trials per
    question greedily and uniformly from that table alone, draws the extra
    trials (the same draws for both policies: common random numbers), and
    counts the pairs decided at ``confidence`` (questions scope) in the true
    order. Replicate ``r`` uses ``default_rng([seed, r])``.

    Parameters
    ----------
    p_true : array_like, shape (L, M)
    N, budget : int
    confidence : float
    sims, seed : int

    Returns
    -------
    AllocationCheck
    """
    p = np.asarray(p_true, dtype=float)
    if p.ndim != 2 or np.any((p < 0) | (p > 1)):
        raise ValidationError(f"p_true must be (L, M) probabilities in [0, 1]; got shape {p.shape}")
    L, M = p.shape
    truth = p.mean(-1)
    better = truth[:, None] > truth[None, :]
    w = np.array([0.0, 1.0])
    res: dict[str, list[int]] = {"before": [], "greedy": [], "uniform": []}
    wrong: dict[str, list[int]] = {"before": [], "greedy": [], "uniform": []}
    for r in range(int(sims)):
        rng = np.random.default_rng([int(seed), r])
        base = rng.binomial(N, p)  # (L, M) successes
        q = question_moments(np.stack([N - base, base], -1), w)
        alloc = allocate_trials(q, budget, confidence)
        top = int(max(alloc.extra.max(), alloc.uniform.max()))
        more = (rng.random((L, M, top)) < p[..., None]).cumsum(-1) if top else None
        none = np.zeros(L, dtype=int)
        for name, extra in (("before", none), ("greedy", alloc.extra), ("uniform", alloc.uniform)):
            c = base.copy()
            n_tot = N + extra
            if top and extra.any():
                idx = np.maximum(extra - 1, 0)
                add = np.take_along_axis(more, idx[:, None, None].repeat(M, 1), -1)[..., 0]
                c = c + np.where(extra[:, None] > 0, add, 0)
            # unequal N per model: Bayes@N per model with its own T
            mu = (c + 1) / (n_tot[:, None] + 2)
            v = mu * (1 - mu) / (n_tot[:, None] + 3)
            m_bar, s2 = mu.mean(-1), v.sum(-1) / M**2
            gap = m_bar[:, None] - m_bar[None, :]
            P = special.ndtr(gap / np.sqrt(s2[:, None] + s2[None, :] + 1e-300))
            np.fill_diagonal(P, 0.5)
            D = decision.decide(P, confidence, "none")
            res[name].append(int((D & better).sum()))
            wrong[name].append(int((D & ~better).sum()))
    b, g, u = (float(np.mean(res[k])) for k in ("before", "greedy", "uniform"))
    return AllocationCheck(
        b, g, u, g / u if u > 0 else np.inf, (g - b) / (u - b) if u > b else np.inf,
        float(np.mean(wrong["greedy"])), float(np.mean(wrong["uniform"])), int(sims),
    )


def _whole(v: float) -> str:
    return "inf" if not np.isfinite(v) else f"{int(v):,}"


def _pairs_text(pairs: pd.DataFrame) -> str:
    t = pairs.copy()
    for c in ("gap", "p_better", "z_questions", "z_population", "z_limit"):
        t[c] = t[c].map(lambda v: "inf" if np.isinf(v) else f"{v:.3f}")
    for c in ("trials_needed", "questions_needed", "trials_needed_population"):
        t[c] = t[c].map(_whole)
    return t.to_string(index=False)


@dataclass(frozen=True)
class Plan:
    """Result of :func:`plan`: what would settle the undecided pairs."""

    pairs: pd.DataFrame
    allocation: pd.DataFrame
    resolved_now: int
    resolved_greedy: int
    resolved_uniform: int
    settings: dict[str, Any] = field(default_factory=dict)

    def to_text(self) -> str:
        """Plain-text report (the CLI's ``--format text``)."""
        s = self.settings
        lines = [
            f"Planner: {s['dataset']}  (L, M, N) = {tuple(s['shape'])}, {s['scope']} scope, "
            f"{s['confidence']:.0%}, adjustment {s['adjust']}",
            "",
        ]
        if self.pairs.empty:
            lines.append("Every adjacent pair is decided: nothing to plan.")
        else:
            lines.append(f"{len(self.pairs)} undecided adjacent pair(s):")
            lines.append(_pairs_text(self.pairs))
        lines += [
            "",
            f"Budget: {s['budget_trials']} extra trials per question (one unit = one model "
            f"answering all {s['shape'][1]} questions once more).",
            f"Pairs at the threshold (questions scope, projected): now {self.resolved_now}, "
            f"greedy {self.resolved_greedy}, uniform {self.resolved_uniform}.",
            self.allocation.to_string(index=False),
        ]
        return "\n".join(lines) + "\n"

    def to_json(self) -> str:
        payload = {
            "settings": self.settings,
            "pairs": json.loads(self.pairs.to_json(orient="records")),
            "allocation": self.allocation.to_dict(orient="records"),
            "resolved": {
                "now": self.resolved_now,
                "greedy": self.resolved_greedy,
                "uniform": self.resolved_uniform,
            },
        }
        return json.dumps(payload, indent=2, default=float) + "\n"

    def to_csv(self) -> str:
        """The pairs table (one row per undecided pair) as CSV."""
        return self.pairs.to_csv(index=False)


def plan(
    data: Outcomes | np.ndarray,
    *,
    w=None,
    use_prior: bool = False,
    confidence: float = 0.95,
    scope: str = "questions",
    adjust: str = "none",
    budget_trials: int = 0,
    draws: int = 10_000,
    seed: int = 0,
) -> Plan:
    """One call for the Planner page and ``scorio-studio plan``.

    Builds the leaderboard in ``scope`` (its decisions define the undecided
    pairs), then :func:`pair_needs` and :func:`allocate_trials` with
    ``budget_trials`` extra trials per question (default: one per model).

    Returns
    -------
    Plan
    """
    board = leaderboard(
        data, w=w, use_prior=use_prior, confidence=confidence, scope=scope, adjust=adjust,
        draws=draws, seed=seed,
    )
    q = board.posterior.moments
    L = len(board.models)
    budget = int(budget_trials) if budget_trials else L
    alloc = allocate_trials(q, budget, confidence)
    N = int(board.settings["shape"][-1])
    order = np.argsort(-q.mu, kind="stable")
    table = pd.DataFrame(
        {
            "model": np.asarray(board.models, dtype=object)[order],
            "mu": q.mu[order],
            "N": N,
            "extra_trials": alloc.extra[order],
            "uniform_trials": alloc.uniform[order],
        }
    )
    settings = dict(board.settings)
    settings.update(
        budget_trials=budget,
        dataset=getattr(data, "name", "array"),
    )
    return Plan(
        pair_needs(board), table, alloc.resolved_now, alloc.resolved_greedy,
        alloc.resolved_uniform, settings,
    )


class CurveSettings(NamedTuple):
    """The pair and the trial counts of the Planner's order curve (:func:`curve_settings`)."""

    upper: str
    lower: str
    n_values: tuple[int, ...]


def curve_settings(
    result: Plan, pair: Sequence[str] | None = None, n_max: int | None = None
) -> CurveSettings:
    """Which pair, and up to which ``N``, the Planner simulates with :func:`pair_curve`.

    The default pair is the first undecided adjacent pair of ``result`` (else the two
    best models); the default largest ``N`` reaches 1.25 × that pair's
    ``trials_needed`` (at least 64, at most 4096; ``4 N`` when more trials cannot
    settle it). The grid is 1, 2 and the powers of two up to ``n_max``, plus ``n_max``.

    Parameters
    ----------
    result : Plan
    pair : (str, str), optional
        Two different model names of ``result``.
    n_max : int, optional
        Largest trials per question to simulate (2 to 4096).

    Returns
    -------
    CurveSettings

    Example
    -------
    >>> import numpy as np
    >>> R = (np.random.default_rng(0).random((3, 15, 4)) < [[[.8]], [[.7]], [[.4]]])
    >>> cs = curve_settings(plan(R.astype(int)), n_max=20)
    >>> cs.n_values
    (1, 2, 4, 8, 16, 20)
    """
    names = [str(m) for m in result.allocation["model"]]
    if pair is None:
        pairs = result.pairs
        upper, lower = (
            (str(pairs["better"].iloc[0]), str(pairs["next"].iloc[0])) if len(pairs)
            else (names[0], names[min(1, len(names) - 1)])
        )
    else:
        if len(pair) != 2:
            raise ValidationError(f"pair must name two models; got {list(pair)!r}")
        upper, lower = (str(m) for m in pair)
    for m in (upper, lower):
        if m not in names:
            raise ValidationError(f"unknown model {m!r} in pair; expected one of {names}")
    if upper == lower:
        raise ValidationError(f"pair must name two different models; got {upper!r} twice")
    if n_max is None:
        N = int(result.settings["shape"][-1])
        need = float(result.pairs["trials_needed"].iloc[0]) if len(result.pairs) else np.inf
        start = int(1.25 * need) if need < 3000 else 4 * N
        n_max = min(4096, max(64, start))
    elif isinstance(n_max, bool) or not 2 <= int(n_max) <= 4096 or int(n_max) != n_max:
        raise ValidationError(f"n_max must be a whole number from 2 to 4096; got {n_max!r}")
    n_max = int(n_max)
    grid = {1, 2, *(2**k for k in range(2, 13) if 2**k <= n_max), n_max}
    return CurveSettings(upper, lower, tuple(sorted(grid)))
