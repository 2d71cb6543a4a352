"""The Planner's promises, measured by simulation with known truth (SPEC §4).

Each replicate draws a field of ``L`` models with known per-question success
probabilities (shared question difficulty ``b_α ~ N(0, 2²)``, abilities ``θ_i``, and a
model × question interaction of s.d. :data:`INTERACTION`, so that in the population scope
some gaps cannot be closed by trials alone) -- or, with ``categorical=True``, category
probabilities of three outcomes weighted ``(0, 0.5, 1)`` around those scores (as in
:mod:`scorio_core.calibration`) -- draws ``N`` trials, runs
:func:`scorio_core.planner.plan` on them exactly as a user would, then *adds the data the
plan asks for* -- more trials of the same questions, or new questions from the same
population -- and asks the product's own :func:`scorio_core.inference.infer` whether the
pair is now decided. Three checks:

* **Assurance**: among pairs whose ``trials_needed`` (or ``questions_needed``) was stated
  for an ``assurance`` chance, the share decided once every model reached it; and, for all
  undecided pairs, the predicted chance of a decision at ``2N``, ``8N`` and ``64N`` trials
  (:func:`~scorio_core.planner.pair_assurance`) against the realised share, by bins. In the
  population scope ``64N`` is close to "any number of trials", so its bins check
  ``p_unsettled``.
* **Allocation**: the greedy split, the even split and the recommended one, realised with
  the same extra draws (common random numbers); the pairs decided correctly after each,
  and the gain the Planner claimed.

Unequal trials per model (an allocation) are judged with the leaderboard's own statistics
per model (:func:`~scorio_core.inference.score_stats` per model, the scope's covariance,
:func:`~scorio_core.inference.pair_pvalues` and
:func:`~scorio_core.inference.decide_pairs`) -- the leaderboard itself needs one ``N``.
``python benchmarks/planner_calibration.py`` prints the tables.

Example
-------
>>> from scorio_core.plan_calibration import assurance_check
>>> r = assurance_check(30, 4, scope="questions", reps=4, seed=1)
>>> r.scope, r.reps, 0.0 <= r.realised <= 1.0 or r.planned == 0
('questions', 4, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from ._validation import ValidationError, check_confidence, check_int
from .calibration import (
    CATEGORY_WEIGHTS,
    LOGIT_SD,
    _category_probs,
    _check_scope,
    _expected,
    _expit_normal_mean,
)
from .estimands import (
    ADJUSTMENTS,
    ASSURANCE,
    CHECKED_QUESTIONS,
    MAX_QUESTIONS,
    MAX_TRIALS,
    SCOPES,
    SPLIT_TRIALS_PER_MODEL,
)
from .inference import (
    decide_pairs,
    decided,
    pair_dof,
    pair_pvalues,
    scaled_weights,
    score_stats,
)
from .leaderboard import bare_leaderboard
from .planner import allocate_trials, decision_chance, pair_assurance, pair_needs
from .resampling import stream

__all__ = [
    "INTERACTION",
    "AssuranceCheck",
    "assurance_check",
    "resample_assurance",
    "MAX_REALISED",
    "AllocationCheck",
    "allocation_check",
    "resample_allocation",
]

#: s.d. of the model × question interaction on the logit scale.
INTERACTION = 0.7
#: Largest trials per question / questions the realisation draws by default (larger plans
#: are skipped and counted; ``max_trials=`` / ``max_questions=`` change them, up to the
#: Planner's own :data:`~scorio_core.estimands.MAX_TRIALS` / ``MAX_QUESTIONS``). Every trial
#: plan is drawn (only the counts of the new trials are drawn, which costs almost nothing;
#: until 2026-11-30 plans beyond 4,096 were skipped, a third of the questions scope's at
#: M = 15, N = 8). Question plans beyond 4,000 questions are skipped by default: at M = 30,
#: N = 4 most population question plans are larger, and drawing them all takes about 7
#: times as long (``max_questions=MAX_QUESTIONS`` does).
MAX_REALISED = (MAX_TRIALS, CHECKED_QUESTIONS)
_W = np.array([0.0, 1.0])


def _field(rng, L: int, M: int, spread: str):
    """True abilities and the per-question probabilities of ``M`` questions."""
    if spread == "even":
        d = rng.uniform(0.0, 0.5)
        theta = np.linspace(d, -d, L)
    else:
        theta = rng.uniform(0.0, 0.5) * rng.standard_normal(L)
    return theta, _questions(rng, theta, M)


def _questions(rng, theta, M):
    b = LOGIT_SD * rng.standard_normal(M)
    eta = theta[:, None] - b[None, :] - INTERACTION * rng.standard_normal((theta.size, M))
    return special.expit(eta)


def _population_means(theta: np.ndarray) -> np.ndarray:
    """Each model's population mean ``E[expit(θ − b − e)]``: difficulty ``b`` and
    interaction ``e`` are independent normals, so ``b + e`` is one normal."""
    return _expit_normal_mean(theta, float(np.hypot(LOGIT_SD, INTERACTION)))


def _truth(p: np.ndarray, theta: np.ndarray, scope: str) -> np.ndarray:
    """The estimand's order: mean over these questions, or (population) ``θ`` (the
    population mean is increasing in ``θ``, the same function for every model)."""
    return p.mean(-1) if scope == "questions" else theta


def _R(counts: np.ndarray, N: int) -> np.ndarray:
    """An ``(L, M, N)`` table of outcomes with these counts (order of trials is immaterial):
    success counts ``(L, M)`` give a binary table, category counts ``(L, M, K)`` one of
    category indices."""
    t = np.arange(N)[None, None, :]
    if counts.ndim == 2:
        return (t < counts[..., None]).astype(np.int8)
    return (t[..., None] >= np.cumsum(counts, -1)[:, :, None, :]).sum(-1).astype(np.int8)


def _trials(rng, p: np.ndarray, n: int) -> np.ndarray:
    """``n`` more trials of each (model, question): success counts for success
    probabilities ``(L, M)``, category counts for category probabilities ``(L, M, K)``."""
    return rng.binomial(n, p) if p.ndim == 2 else rng.multinomial(n, p)


def _stats(counts, N: int, w=_W):
    """:func:`~scorio_core.inference.score_stats` of success counts ``(L, M)`` of ``N``
    trials, or of category counts ``(L, M, K)``."""
    return score_stats(np.stack([N - counts, counts], -1) if counts.ndim == 2 else counts, w)


def _decided(counts, N, scope, conf, adjust, seed, w=_W) -> np.ndarray:
    D = decided(_stats(counts, N, w), scope, conf, adjust, 2000, seed)  # infer's decisions
    return D | D.T


@dataclass(frozen=True)
class AssuranceCheck:
    """Result of :func:`assurance_check`.

    Attributes
    ----------
    planned : int
        Undecided pairs given a finite ``trials_needed`` (at most ``max_trials``) and
        realised.
    predicted, realised, realised_se : float
        Target chance, and the share of those pairs decided at ``trials_needed``.
    q_planned, q_realised, q_se : float
        The same for ``questions_needed`` (population scope; NaN in the questions scope).
    papers_realised : float
        Share decided at the papers' ``trials_needed_papers`` (the old 50% point).
    bins : pandas.DataFrame
        ``multiple, bin, count, predicted, observed, se``: predicted chance of a decision at
        ``multiple × N`` trials vs the realised share.
    skipped : int
        Pairs whose plan was beyond the realisation limits.
    plans : pandas.DataFrame
        One row per realised plan: ``kind`` (``"trials"`` / ``"questions"``, and with a
        ``lead`` ``"trials_for_lead"`` / ``"questions_for_lead"``), ``n`` (the plan),
        ``gap_stated`` (its ``trials_gap`` / ``questions_gap``, or the lead), ``true_gap`` (the
        better model's true lead in the scope), ``at_truth`` (the plan's chance of a
        decision at that true lead, :func:`~scorio_core.planner.decision_chance`) and
        ``decided``. :meth:`detectable` and :meth:`at_truth_bins` summarise it.
    """

    scope: str
    M: int
    N: int
    L: int
    reps: int
    assurance: float
    adjust: str
    planned: int
    predicted: float
    realised: float
    realised_se: float
    q_planned: int
    q_realised: float
    q_se: float
    papers_planned: int
    papers_realised: float
    bins: pd.DataFrame
    skipped: int
    plans: pd.DataFrame
    history: int = 0  # earlier fields the spread prior was learned from (0: flat)

    def detectable(self) -> pd.DataFrame:
        """Per plan kind: of the plans whose better model truly leads by at least the
        stated gap (``trials_gap`` / ``questions_gap``), the share decided (target: at
        least the assurance, on any field) with its s.e.; and the same for leads within
        1.5 × the stated gap, where the promise is tight."""
        out = []
        for kind, g in self.plans.groupby("kind"):
            held = g[g["true_gap"] >= g["gap_stated"]]
            near = held[held["true_gap"] <= 1.5 * held["gap_stated"]]
            (a, sa), (b, sb) = _share(held["decided"]), _share(near["decided"])
            out.append((kind, len(g), len(held), a, sa, len(near), b, sb))
        return pd.DataFrame(out, columns=["kind", "plans", "lead_at_least_gap", "decided",
                                          "se", "lead_within_1.5x", "decided_near", "se_near"])

    def at_truth_bins(self) -> pd.DataFrame:
        """The plan's chance of a decision *at the true gap* against the realised share, by
        bins (plan kinds pooled): checks the law behind the stated gaps with no prior on
        the gap."""
        df = self.plans.rename(columns={"at_truth": "predicted", "decided": "observed"})
        return _bins(df.assign(multiple=0)).drop(columns="multiple")


_PLAN_ROWS = ["kind", "n", "gap_stated", "true_gap", "at_truth", "decided"]


def _share(x) -> tuple[float, float]:
    x = np.asarray(x, dtype=float)
    if x.size == 0:
        return float("nan"), float("nan")
    return float(x.mean()), float(np.sqrt(max(x.mean() * (1 - x.mean()), 1e-12) / x.size))


def assurance_check(
    M: int,
    N: int,
    *,
    scope: str,
    L: int = 5,
    reps: int = 200,
    assurance: float = ASSURANCE,
    adjust: str = ADJUSTMENTS[0],
    multiples=(2, 8, 64),
    confidence: float = 0.95,
    lead: float = 0.0,
    categorical: bool = False,
    seed: int = 0,
    max_trials: int = MAX_TRIALS,
    max_questions: int = CHECKED_QUESTIONS,
    history: int = 0,
) -> AssuranceCheck:
    """Realised decision rates of the Planner's ``trials_needed`` / ``questions_needed``.

    Parameters
    ----------
    M, N : int
        Questions and trials per question of the simulated runs (``N ≥ 2``).
    scope : {"questions", "population"}
    L, reps : int
        Models per field, fields.
    assurance : float
        Target chance the plan is made for.
    adjust : str
        Multiplicity control of the leaderboard and of the realised decisions.
    multiples : sequence of int
        ``N' = multiple × N`` at which the predicted chance is checked for every pair.
    confidence : float
    lead : float
        Also realise ``trials_for_lead`` / ``questions_for_lead`` for this lead (``plans``
        rows of kind ``"trials_for_lead"`` / ``"questions_for_lead"``, ``gap_stated`` = the
        lead); 0: off.
    categorical : bool
        Three outcomes weighted ``(0, 0.5, 1)`` instead of binary ones: each question's
        category probabilities ``Dirichlet(κ π(s))`` around its success probability ``s``
        (:mod:`scorio_core.calibration`'s categorical design; the expected score stays ``s``,
        so the population means are the binary design's).
    seed : int
    max_trials, max_questions : int
        Plans up to this many trials per question / questions are drawn and decided again,
        larger ones skipped and counted (default :data:`MAX_REALISED`: every trial plan,
        question plans up to 4,000; at most the Planner's
        :data:`~scorio_core.estimands.MAX_TRIALS` / :data:`~scorio_core.estimands.MAX_QUESTIONS`,
        which realise every plan).

    Returns
    -------
    AssuranceCheck
    """
    _check_scope(scope)
    M, N = check_int("M", M, minimum=2), check_int("N", N, minimum=2)
    L, reps = check_int("L", L, minimum=2), check_int("reps", reps)
    conf = check_confidence(confidence)
    root = [int(seed), 7, M, N, L, SCOPES.index(scope)] + ([1] if categorical else [])

    def draw(rng):
        theta, p = _field(rng, L, M, "random")
        return theta, (_category_probs(p, rng) if categorical else p)

    def more(rng, theta, k):
        p = _questions(rng, theta, k)
        return _category_probs(p, rng) if categorical else p

    return _assurance_run(root, reps, draw, more, _population_means, M, N, L, scope, assurance,
                          adjust, multiples, conf, float(lead),
                          CATEGORY_WEIGHTS if categorical else _W,
                          _limits(max_trials, max_questions), history)


def _limits(max_trials, max_questions) -> tuple[int, int]:
    """The largest plans a check draws: whole numbers from 1 to the Planner's own limits
    (no plan is larger, so those limits realise every plan)."""
    out = []
    for name, v, top in (("max_trials", max_trials, MAX_TRIALS),
                         ("max_questions", max_questions, MAX_QUESTIONS)):
        v = check_int(name, v)
        if v > top:
            raise ValidationError(f"{name} must be at most {top:,} (the Planner's largest "
                                  f"plan); got {v:,}")
        out.append(v)
    return out[0], out[1]


def _history_priors(root, draw_p, N: int, w, history: int):
    """:func:`scorio_core.spread_prior.history_priors` with the earlier fields'
    probabilities drawn by ``draw_p(rng)`` below ``root`` and ``N`` trials each."""
    from .spread_prior import history_priors

    def past(b):
        out = []
        for k in range(history):
            rng = stream([*root, 8, b], k)
            out.append(_stats(_trials(rng, draw_p(rng), N), N, w))
        return out

    return history_priors(history, past)


def _assurance_run(root, reps: int, draw, more, pop, M: int, N: int, L: int, scope: str,
                   assurance: float, adjust: str, multiples, conf: float,
                   lead: float = 0.0, w=_W, limits: tuple[int, int] = MAX_REALISED,
                   history: int = 0) -> AssuranceCheck:
    """The loop of :func:`assurance_check` over fields ``draw(rng) -> (state, p)`` (true
    success probabilities ``(L, M)`` of two outcomes weighted ``w``, or category
    probabilities ``(L, M, K)`` of ``K = len(w)``) whose new questions are
    ``more(rng, state, k)`` (``k`` questions, the same layout) and whose population means
    (in score units) are ``pop(state) -> (L,)``."""
    w = np.asarray(w, dtype=float)
    max_n, max_m = limits
    hit, qhit, phit, rows, plans = [], [], [], [], []
    skipped = 0
    prior_for = _history_priors(root, lambda rng: draw(rng)[1], N, w, history)
    for r in range(reps):
        rng = stream(root, r)
        state, p = draw(rng)
        c0 = _trials(rng, p, N)
        # the board's numbers only: its caveats (the could-be-first set, ...) go unread
        board = bare_leaderboard(_R(c0, N), w=w, scope=scope, adjust=adjust, confidence=conf,
                                 draws=4000, seed=r, models=[f"m{i}" for i in range(L)],
                                 spread_prior=prior_for(r))
        pairs = pair_needs(board, assurance=assurance, lead=lead)
        if pairs.empty:
            continue
        idx = {m: i for i, m in enumerate(board.models)}
        up = pairs["better"].map(idx).to_numpy()
        lo = pairs["next"].map(idx).to_numpy()
        truth = (_expected(p, w, p.ndim == 3).mean(1) if scope == "questions"
                 else pop(state))  # the scope's estimand
        g_true = truth[up] - truth[lo]

        def realise(n_tot, rng=rng, c0=c0, p=p, r=r):
            more_trials = _trials(rng, p, int(n_tot) - N)
            return _decided(c0 + more_trials, int(n_tot), scope, conf, adjust, r, w)

        field_plans = []  # (kind, pair, plan, decided): scored together below

        def record(kind, k, n, decided_now, field_plans=field_plans):
            field_plans.append((kind, k, float(n), bool(decided_now)))

        def new_questions(m_tot, rng=rng, state=state, c0=c0, r=r):
            extra = more(rng, state, int(m_tot) - M)
            cq = np.concatenate([c0, _trials(rng, extra, N)], 1)
            return _decided(cq, N, scope, conf, adjust, r, w)

        for k in range(len(pairs)):
            n_star = pairs["trials_needed"].iloc[k]
            if np.isfinite(n_star):
                if n_star <= max_n:
                    hit.append(realise(n_star)[up[k], lo[k]])
                    record("trials", k, n_star, hit[-1])
                else:
                    skipped += 1
            n_pap = pairs["trials_needed_papers"].iloc[k]
            if np.isfinite(n_pap) and N < n_pap <= max_n:
                phit.append(realise(n_pap)[up[k], lo[k]])
            m_star = pairs["questions_needed"].iloc[k]
            if scope == "population" and np.isfinite(m_star):
                if m_star <= max_m:
                    qhit.append(new_questions(m_star)[up[k], lo[k]])
                    record("questions", k, m_star, qhit[-1])
                else:
                    skipped += 1
            if lead:  # the plans for a lead that matters (no prior on the lead)
                n_lead = pairs["trials_for_lead"].iloc[k]
                if np.isfinite(n_lead) and n_lead <= max_n:
                    record("trials_for_lead", k, n_lead, realise(n_lead)[up[k], lo[k]])
                m_lead = pairs["questions_for_lead"].iloc[k]
                if scope == "population" and np.isfinite(m_lead) and m_lead <= max_m:
                    record("questions_for_lead", k, m_lead,
                           new_questions(m_lead)[up[k], lo[k]])
        for law in ("trials", "questions"):  # the law at the true gap: one call per field
            rows_ = [f for f in field_plans if f[0].removesuffix("_for_lead") == law]
            if not rows_:
                continue
            ks = [f[1] for f in rows_]
            at_truth = decision_chance(board, pairs["better"].iloc[ks].tolist(),
                                       pairs["next"].iloc[ks].tolist(), [f[2] for f in rows_],
                                       g_true[ks], law)
            for (kind, k, n, dec), a in zip(rows_, at_truth, strict=True):
                stated = lead if kind.endswith("_for_lead") else pairs[f"{kind}_gap"].iloc[k]
                plans.append((kind, n, float(stated), float(g_true[k]), float(a), dec))
        for mult in multiples:
            D = realise(mult * N)
            for k in range(len(pairs)):
                a = pair_assurance(board, pairs["better"].iloc[k], pairs["next"].iloc[k],
                                   [mult * N])[0]
                rows.append((mult, a, bool(D[up[k], lo[k]])))
    realised, se = _share(hit)
    q_realised, q_se = _share(qhit)
    p_realised, _ = _share(phit)
    df = pd.DataFrame(rows, columns=["multiple", "predicted", "observed"])
    bins = _bins(df)
    plan_rows = pd.DataFrame(plans, columns=_PLAN_ROWS)
    return AssuranceCheck(
        scope, M, N, L, reps, float(assurance), adjust, len(hit), float(assurance), realised, se,
        len(qhit), q_realised, q_se, len(phit), p_realised, bins, skipped, plan_rows,
        int(history),
    )


def resample_assurance(
    p,
    M: int,
    N: int,
    *,
    scope: str,
    L: int | None = None,
    weights=None,
    reps: int = 200,
    assurance: float = ASSURANCE,
    adjust: str = ADJUSTMENTS[0],
    multiples=(),
    confidence: float = 0.95,
    seed: int = 0,
    max_trials: int = MAX_TRIALS,
    max_questions: int = CHECKED_QUESTIONS,
    history: int = 0,
) -> AssuranceCheck:
    """:func:`assurance_check` on fields resampled from a real table of true probabilities.

    ``p``: each model's true success probability on each of ``Q`` questions, ``(K, Q)``, or
    its category probabilities, ``(K, Q, C)`` with ``weights`` (e.g. the shares of a run
    with many trials, :func:`scorio_core.smaller_run.stand_in_truth`). A field picks ``L``
    of the ``K`` models at random (all when ``None``) and ``M`` of the questions with
    replacement, draws ``N`` trials, plans with :func:`~scorio_core.planner.pair_needs` as a
    user would, then draws what the plan asks for -- more trials from the same
    probabilities, or new questions from the table -- and asks whether the pair is now
    decided. ``max_trials``, ``max_questions``, ``history`` (the earlier fields: other
    resamples of the table) as in :func:`assurance_check`.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.plan_calibration import resample_assurance
    >>> rng = np.random.default_rng(0)
    >>> p = np.clip(rng.beta(0.6, 0.6, (1, 200)) + [[0.0], [0.05], [0.1]], 0, 1)
    >>> r = resample_assurance(p, 30, 4, scope="population", reps=3)
    >>> r.L, r.reps, r.planned >= 0
    (3, 3, True)
    >>> q = np.stack([1 - p, np.zeros_like(p), p], -1)  # three categories, the middle unused
    >>> resample_assurance(q, 30, 4, scope="population", reps=3, weights=[0, 0.5, 1]).reps
    3
    """
    from .calibration import _models_drawn, _table_seed, _truth_table, _weights_key

    _check_scope(scope)
    p, w = _truth_table(p, weights)
    K, Q = p.shape[:2]
    L = _models_drawn(L, K)
    M, N = check_int("M", M, minimum=2), check_int("N", N, minimum=2)
    reps, conf = check_int("reps", reps), check_confidence(confidence)
    root = _table_seed(seed, "resample_assurance", p, M, N, L, SCOPES.index(scope),
                       *_weights_key(p, w))

    def draw(rng):
        pick = np.sort(rng.permutation(K)[:L])
        return pick, p[pick][:, rng.integers(0, Q, M)]

    def more(rng, pick, k):
        return p[pick][:, rng.integers(0, Q, k)]

    def pop(pick):  # the population is the table's questions
        return _expected(p[pick], w, p.ndim == 3).mean(1)

    return _assurance_run(root, reps, draw, more, pop, M, N, L, scope, assurance, adjust,
                          multiples, conf, w=w, limits=_limits(max_trials, max_questions),
                          history=history)


def _bins(df: pd.DataFrame) -> pd.DataFrame:
    edges = np.array([0.0, 0.2, 0.4, 0.6, 0.8, 1.0 + 1e-9])
    out = []
    for mult, g in df.groupby("multiple"):
        k = np.clip(np.searchsorted(edges, g["predicted"].to_numpy(), side="right") - 1, 0, 4)
        for b in range(5):
            sel = g[k == b]
            if len(sel) == 0:
                continue
            obs = float(sel["observed"].mean())
            out.append({
                "multiple": int(mult),
                "bin": f"{edges[b]:.1f}–{min(edges[b + 1], 1.0):.1f}",
                "count": len(sel),
                "predicted": float(sel["predicted"].mean()),
                "observed": obs,
                "se": float(np.sqrt(max(obs * (1 - obs), 1e-12) / len(sel))),
            })
    return pd.DataFrame(out, columns=["multiple", "bin", "count", "predicted", "observed", "se"])


def _decided_unequal(counts, totals, scope, conf, adjust, seed, w=_W) -> np.ndarray:
    """Decisions with ``totals[i]`` trials for model ``i``: the leaderboard's statistics per
    model (its own empirical-Bayes trial variance), the scope's covariance, paired ``t``;
    ``counts`` success counts ``(L, M)`` of two outcomes weighted ``w`` or category counts
    ``(L, M, K)``."""
    L, M = counts.shape[:2]
    totals = np.asarray(totals)
    n = np.stack([totals[:, None] - counts, counts], -1) if counts.ndim == 2 else counts
    if scope == "questions":
        ybar, within, dof = np.empty((L, M)), np.empty((L, M)), np.empty(L)
        # score_stats reads one N per call: one call per distinct total (an even split, or
        # no extra trials, is one call for the field; per model, the calibration loops spent
        # half their time here)
        for total in np.unique(totals):
            rows = np.flatnonzero(totals == total)
            st = score_stats(n[rows], w)
            ybar[rows], within[rows], dof[rows] = st.ybar, st.within, st.model_dof
        var = within.sum(1) / (np.asarray(totals, dtype=float) * M * M)
        cov, df = np.diag(var), pair_dof(var, dof)
    else:  # the paired t reads the questions' mean scores alone (on score_stats' [0, 1]
        # scale), not the trial variances that cost score_stats its time
        ybar = (n @ scaled_weights(w)[0]) / totals[:, None]
        cov = np.cov(ybar) / M
        df = float(M - 1)
    x = ybar.mean(1)
    t, P, pv, sd = pair_pvalues(x, cov, df)
    return decide_pairs(pv, P, conf, adjust, cov, sd, scope, df, 2000, seed, ybar)


@dataclass(frozen=True)
class AllocationCheck:
    """Result of :func:`allocation_check`: mean pairs decided in the true order (``wrong``:
    in the wrong order) after each split, realised with the same draws."""

    scope: str
    spread: str
    M: int
    N: int
    L: int
    budget: int
    reps: int
    before: float
    greedy: float
    uniform: float
    chosen: float
    wrong_chosen: float
    wrong_uniform: float
    chosen_gain_se: float  # s.e. of the mean (chosen − uniform), paired
    claimed_gain: float  # mean (expected_greedy − expected_uniform) where greedy was chosen
    realised_gain: float  # mean (greedy − uniform) on those same fields
    greedy_share: float  # share of fields where the greedy split was recommended
    expected: float = float("nan")  # mean decided pairs the recommended split was expected
    #                                 to leave (Allocation.expected_*: today's included)
    decided: float = float("nan")  # mean pairs it left decided, either way round
    decided_se: float = float("nan")  # s.e. of ``decided − expected`` over the fields
    realised_gain_se: float = float("nan")  # s.e. of ``realised − claimed`` gain over the
    #                                         fields where the greedy split was recommended
    history: int = 0  # earlier fields the spread prior was learned from (0: flat)


def allocation_check(
    M: int,
    N: int,
    *,
    scope: str = "questions",
    spread: str = "even",
    L: int = 6,
    budget: int | None = None,
    reps: int = 100,
    adjust: str = ADJUSTMENTS[0],
    confidence: float = 0.95,
    seed: int = 0,
    realisations: int = 1,
    history: int = 0,
) -> AllocationCheck:
    """Greedy, even and recommended splits of extra trials, realised with known truth.

    Parameters
    ----------
    M, N : int
    scope : {"questions", "population"}
    spread : {"even", "random"}
        Abilities evenly spaced (``θ = linspace(d, −d)``, ``d ~ U(0, 0.5)``: where the old
        greedy split lost) or ``U(0, 0.5) × N(0, 1)``.
    L : int
    budget : int, optional
        Extra trials per question (default ``3 L``, :data:`SPLIT_TRIALS_PER_MODEL`).
    reps, adjust, confidence, seed
    realisations : int
        Times each field's splits are realised (fresh extra trials on the same first ``N``;
        its counts are their means): more measure the gain *given the data*, which the
        Planner claims, with less noise than more fields would at the same cost.
    history : int
        As in :func:`assurance_check`: a spread prior learned from that many earlier fields
        of the same design (0: flat).

    Returns
    -------
    AllocationCheck

    Example
    -------
    >>> from scorio_core.plan_calibration import allocation_check
    >>> r = allocation_check(30, 4, reps=3, L=4)
    >>> r.budget, r.chosen >= 0
    (12, True)
    """
    _check_scope(scope)
    M, N = check_int("M", M, minimum=2), check_int("N", N, minimum=2)
    L, reps = check_int("L", L, minimum=2), check_int("reps", reps)
    budget = SPLIT_TRIALS_PER_MODEL * L if budget is None else check_int("budget", budget)
    conf = check_confidence(confidence)
    realisations = check_int("realisations", realisations)
    root = [int(seed), 11, M, N, L, budget, SCOPES.index(scope), 0 if spread == "even" else 1]

    def draw(rng):
        theta, p = _field(rng, L, M, spread)
        return p, _truth(p, theta, scope)

    return _allocation_run(root, reps, draw, scope, spread, M, N, L, budget, adjust, conf,
                           realisations=realisations, history=history)


def _allocation_run(root, reps: int, draw, scope: str, spread: str, M: int, N: int, L: int,
                    budget: int, adjust: str, conf: float, w=_W, realisations: int = 1,
                    history: int = 0) -> AllocationCheck:
    """The allocation study's loop: ``draw(rng) -> (p, truth (L,))`` gives a field's true
    success probabilities ``(L, M)`` of two outcomes weighted ``w`` (or category
    probabilities ``(L, M, K)`` of ``K = len(w)``) and the estimand each model truly has;
    each field's splits are realised ``realisations`` times (fresh extra trials, the same
    first ``N``) and its counts are their means."""
    w = np.asarray(w, dtype=float)
    res = {k: [] for k in ("before", "greedy", "uniform", "chosen", "wrong_c", "wrong_u")}
    claimed, realised, chose, expected = [], [], [], []
    prior_for = _history_priors(root, lambda rng: draw(rng)[0], N, w, history)
    for r in range(reps):
        rng = stream(root, r)
        p, truth = draw(rng)
        better = truth[:, None] > truth[None, :]
        c0 = _trials(rng, p, N)
        board = bare_leaderboard(_R(c0, N), w=w, scope=scope, adjust=adjust, confidence=conf,
                                 draws=4000, seed=r, spread_prior=prior_for(r))  # numbers only
        a = allocate_trials(board, budget)
        top = int(max(a.greedy.max(), a.uniform.max()))
        out = {name: np.zeros(2) for name in ("before", "greedy", "uniform")}
        # today's decisions (no extra trials) are the same in every realisation: made once
        D = _decided_unequal(c0, N + np.zeros(L, int), scope, conf, adjust, r, w)
        today = ((D & better).sum(), (D & ~better).sum())
        for _ in range(realisations):  # the same split realised again: its mean
            out["before"] += today
            if p.ndim == 2:  # the k-th extra trial of each (model, question), running counts
                U = rng.random((L, M, top)) < p[..., None] if top else np.zeros((L, M, 0), bool)
                cum = np.concatenate([np.zeros((L, M, 1), int), U.cumsum(-1)], -1)
            else:
                u = rng.random((L, M, top, 1))
                k = (u >= np.cumsum(p, -1)[:, :, None, :-1]).sum(-1)  # category of each trial
                hot = k[..., None] == np.arange(p.shape[-1])
                cum = np.concatenate([np.zeros((L, M, 1, p.shape[-1]), int), hot.cumsum(2)], 2)
            for name, e in (("greedy", a.greedy), ("uniform", a.uniform)):
                at = e.reshape((L, 1, 1) + (1,) * (p.ndim - 2)).repeat(M, 1)
                counts = c0 + np.take_along_axis(cum, at, 2)[:, :, 0]
                D = _decided_unequal(counts, N + e, scope, conf, adjust, r, w)
                out[name] += ((D & better).sum(), (D & ~better).sum())
        out = {name: tuple(v / realisations) for name, v in out.items()}
        out["chosen"] = out[a.chosen]
        res["before"].append(out["before"][0])
        res["greedy"].append(out["greedy"][0])
        res["uniform"].append(out["uniform"][0])
        res["chosen"].append(out["chosen"][0])
        res["wrong_c"].append(out["chosen"][1])
        res["wrong_u"].append(out["uniform"][1])
        expected.append(a.expected_greedy if a.chosen == "greedy" else a.expected_uniform)
        chose.append(a.chosen == "greedy")
        if a.chosen == "greedy":
            claimed.append(a.expected_greedy - a.expected_uniform)
            realised.append(sum(out["greedy"]) - sum(out["uniform"]))
    m = {k: float(np.mean(v)) for k, v in res.items()}
    d = np.asarray(res["chosen"], float) - np.asarray(res["uniform"], float)
    miss = np.asarray(res["chosen"], float) + np.asarray(res["wrong_c"]) - np.asarray(expected)
    over = np.asarray(realised, float) - np.asarray(claimed, float)
    nan = float("nan")

    def se(x):  # standard error of a mean over fields (NaN for fewer than two)
        return float(x.std(ddof=1) / np.sqrt(x.size)) if x.size > 1 else nan

    return AllocationCheck(
        scope, spread, M, N, L, budget, reps, m["before"], m["greedy"], m["uniform"],
        m["chosen"], m["wrong_c"], m["wrong_u"], se(d),
        float(np.mean(claimed)) if claimed else nan,
        float(np.mean(realised)) if realised else nan, float(np.mean(chose)),
        float(np.mean(expected)), m["chosen"] + m["wrong_c"], se(miss), se(over),
        int(history),
    )


def resample_allocation(
    p,
    M: int,
    N: int,
    *,
    scope: str = "questions",
    L: int | None = None,
    weights=None,
    budget: int | None = None,
    reps: int = 100,
    adjust: str = ADJUSTMENTS[0],
    confidence: float = 0.95,
    seed: int = 0,
    realisations: int = 1,
    history: int = 0,
) -> AllocationCheck:
    """:func:`allocation_check` on fields resampled from a real table of true probabilities
    ``p`` -- success probabilities ``(K, Q)`` or category probabilities ``(K, Q, C)`` with
    ``weights`` (e.g. the shares of a run with many trials,
    :func:`scorio_core.smaller_run.stand_in_truth`): a field picks ``L`` of the ``K``
    models (all when ``None``) and ``M`` of the questions with replacement, as
    :func:`resample_assurance` does, splits ``budget`` extra trials per question
    (default ``3 L``) as :func:`~scorio_core.planner.allocate_trials` recommends, and draws
    them from the same probabilities; the truth is the mean over the field's questions
    (questions scope) or over the table's questions (population). ``spread`` reads
    ``"table"``; ``realisations`` and ``history`` as in :func:`allocation_check`.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.plan_calibration import resample_allocation
    >>> rng = np.random.default_rng(0)
    >>> p = np.clip(rng.beta(0.6, 0.6, (1, 200)) + [[0.0], [0.05], [0.1]], 0, 1)
    >>> r = resample_allocation(p, 30, 4, reps=3)
    >>> r.spread, r.L, r.budget
    ('table', 3, 9)
    >>> q = np.stack([1 - p, np.zeros_like(p), p], -1)  # three categories, the middle unused
    >>> resample_allocation(q, 30, 4, reps=3, weights=[0, 0.5, 1]).reps
    3
    """
    from .calibration import _expected, _models_drawn, _table_seed, _truth_table, _weights_key

    _check_scope(scope)
    p, w = _truth_table(p, weights)
    K, Q = p.shape[:2]
    L = _models_drawn(L, K)
    M, N = check_int("M", M, minimum=2), check_int("N", N, minimum=2)
    reps = check_int("reps", reps)
    budget = SPLIT_TRIALS_PER_MODEL * L if budget is None else check_int("budget", budget)
    conf = check_confidence(confidence)
    realisations = check_int("realisations", realisations)
    cats = p.ndim == 3
    root = _table_seed(seed, "resample_allocation", p, M, N, L, budget, SCOPES.index(scope),
                       *_weights_key(p, w))
    table_means = _expected(p, w, cats).mean(1)

    def draw(rng):
        pick = np.sort(rng.permutation(K)[:L])
        q = p[pick][:, rng.integers(0, Q, M)]
        return q, (_expected(q, w, cats).mean(1) if scope == "questions"
                   else table_means[pick])

    return _allocation_run(root, reps, draw, scope, "table", M, N, L, budget, adjust, conf,
                           w=w, realisations=realisations, history=history)
