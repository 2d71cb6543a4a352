"""Check a smaller run against this one: would its intervals, decisions and ``p_best`` hold?

A run with many trials per question pins each model's probability of every outcome
category on every question. Those shares can stand in for the truth: the check draws
smaller runs from them -- ``M`` of the run's questions with replacement and ``N`` trials
per model and question -- runs the leaderboard's inference on each
(:func:`~scorio_core.inference.infer`, exactly as :func:`~scorio_core.leaderboard.leaderboard`
does) and counts how often the headline intervals hold the truth, how often a pair is
decided the wrong way round, and how often a model given ``p_best`` ≈ x is truly first
(:func:`scorio_core.calibration.resample_check` and
:func:`~scorio_core.calibration.resample_p_best`, in both scopes). So the calibration
measured on stylised benchmarks (``benchmarks/calibration.py``) is measured again on the
user's own models, questions, skew and near-ties.

The shares are themselves estimates: with the run's ``N₀`` trials each carries a trial
noise ``1/N₀`` of a question's variance against ``1/N`` in the smaller runs, so the check
asks for ``N ≤ N₀ /`` :data:`STAND_IN_RATIO` (the stand-in's noise at most a quarter of
what the smaller runs see).

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> rng = np.random.default_rng(0)
>>> p = rng.beta(0.6, 0.6, 60) + np.array([[0.0], [0.05], [0.15]])
>>> data = Outcomes((rng.random((3, 60, 32)) < np.clip(p, 0, 1)[..., None]).astype(int))
>>> check = sc.check_smaller_run(data, 4, reps=30)
>>> list(check.intervals["scope"]), check.N, check.M, check.source_N
(['questions', 'population'], 4, 60, 32)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._validation import SettingsConflict, ValidationError, check_confidence, check_int
from .calibration import (
    PBestCalibration,
    ResampleCheck,
    resample_check,
    resample_p_best,
    share_se,
    target_band,
)
from .display import recorded, run_caption
from .estimands import (
    ADJUSTMENTS,
    ASSURANCE,
    CHECKED_QUESTIONS,
    FAMILY_WISE,
    SCOPES,
    STAND_IN_RATIO,
)
from .formatting import percent, share_percent
from .outcomes import ONE_MODEL_NEXT, Outcomes, as_outcomes
from .params import CheckParams
from .plan_calibration import resample_allocation, resample_assurance
from .planner import a_chance

__all__ = ["STAND_IN_RATIO", "SmallerRunCheck", "stand_in_truth", "check_smaller_run",
           "default_trials", "unmet"]

#: Bins of predicted ``p_best`` (and Planner checks) with fewer entries are shown but not
#: judged.
MIN_COUNT = 20
#: What :meth:`SmallerRunCheck.verdict` says when nothing is off target.
VERDICT_HELD = "On runs like this every promise held within its sampling error."
#: Standard errors beyond which :meth:`SmallerRunCheck.off_target` calls a promise broken.
Z = 3.0
_PLAN_COLUMNS = ("scope", "trial_plans", "trials_decided", "trials_se", "question_plans",
                 "questions_decided", "questions_se", "gap_plans", "gap_decided", "gap_se",
                 "assurance", "skipped")
_SPLIT_COLUMNS = ("scope", "budget", "runs", "greedy_share", "claimed_gain", "realised_gain",
                  "realised_se", "gain_over_even", "gain_se", "expected", "decided", "decided_se",
                  "wrong_way")


def stand_in_truth(data: Outcomes) -> tuple[np.ndarray, np.ndarray]:
    """Each model's share of each outcome category on each question, and the weights.

    Returns ``(p, weights)``: ``p`` ``(L, M)`` (share of category 1) for two categories,
    ``(L, M, C + 1)`` otherwise -- what :func:`~scorio_core.calibration.resample_check`
    takes as the truth.

    Example
    -------
    >>> from scorio_core.smaller_run import stand_in_truth
    >>> import numpy as np
    >>> p, w = stand_in_truth(sc.Outcomes(np.array([[[0, 1, 1, 1], [0, 0, 0, 1]]])))
    >>> p.tolist(), w.tolist()
    ([[0.75, 0.25]], [0.0, 1.0])
    """
    w = np.asarray(data.weights, dtype=float)
    if data.C == 1:
        return (data.R == 1).mean(-1), w
    return np.stack([(data.R == k).mean(-1) for k in range(data.C + 1)], -1), w


def unmet(data: Outcomes) -> str | None:
    """Why these data cannot be checked (``None`` when they can): the check's ``requires``
    and :func:`check_smaller_run`'s refusal, in one place."""
    if data.L < 2:
        return (f"the check needs at least 2 models; these data have {data.L}. "
                f"{ONE_MODEL_NEXT}")
    if data.N < STAND_IN_RATIO:
        return (f"the check needs at least {STAND_IN_RATIO} trials per question, so that "
                "each model's shares can stand in for its true probabilities (a smaller run "
                f"has at most 1/{STAND_IN_RATIO} of them); these data have {data.N}")
    return None


def default_trials(data: Outcomes) -> int:
    """Trials per question of the smaller runs when none are named: 4, or fewer when the run
    has fewer than ``4 ×`` :data:`STAND_IN_RATIO`."""
    return max(1, min(4, data.N // STAND_IN_RATIO))


@dataclass(frozen=True)
class SmallerRunCheck:
    """Result of :func:`check_smaller_run`.

    Attributes
    ----------
    intervals : pandas.DataFrame
        One row per scope: ``coverage`` of the headline intervals (share of model-runs
        whose interval holds the truth) with its ``coverage_se``, the target band
        ``band_lo``–``band_hi`` the calibration grid holds it to at this ``M``, the least
        covered model and its coverage, the mean interval ``width``, ``wrong_way`` (share
        of runs with at least one pair decided the wrong way round, family-wise) and
        ``power`` (mean share of the truly ordered pairs decided the right way);
        ``first_coverage``, the share of the ``p_best`` runs whose *could be first* set
        (:meth:`Leaderboard.could_be_first <scorio_core.leaderboard.Leaderboard>`) held the
        truly best model, and ``first_set_size``, its mean size.
    p_best : pandas.DataFrame
        Reliability of ``p_best`` per scope: ``scope, bin, count, predicted, observed, se``
        (``observed``: share of the model-runs in the bin whose model was truly first).
        Every standard error of a share here (``coverage_se``, ``se``, ``trials_se``,
        ``questions_se``, ``gap_se``) is NaN where its share is 0 or 1: none or all held, and
        an s.e. of 0 would claim a certainty the runs do not give
        (:func:`~scorio_core.calibration.share_se`).
    plans : pandas.DataFrame
        The Planner check per scope (empty when not asked for): ``trial_plans`` (undecided
        adjacent pairs given a finite ``trials_needed``), ``trials_decided`` (share decided
        once every model had that many trials) with ``trials_se``; the same for
        ``questions_needed`` (population scope); ``gap_plans``, the plans (both kinds) whose
        better model truly led by at least their stated ``trials_gap`` / ``questions_gap``,
        and ``gap_decided`` / ``gap_se``, the share of those decided (the promise that
        holds on any field); ``assurance``, the chance they were planned for; ``skipped``,
        plans beyond what is drawn (:data:`~scorio_core.plan_calibration.MAX_REALISED`:
        question plans beyond ``max_questions``; every trial plan is drawn).
    split : pandas.DataFrame
        The Planner's budget split per scope (with ``plans``; empty otherwise), a budget of
        ``budget = 3 L`` extra trials per question split as
        :func:`~scorio_core.planner.allocate_trials` recommends and drawn from the shares
        (:func:`~scorio_core.plan_calibration.resample_allocation`): ``runs``;
        ``greedy_share``, the share of runs where the greedy split was recommended, with its
        ``claimed_gain`` over the even split there and the ``realised_gain`` (``realised_se``
        the s.e. of their difference);
        ``gain_over_even``, the pairs the recommended split decided in the true order beyond
        the even split, over every run, with ``gain_se``; ``expected``, the decided pairs the
        recommended split was expected to leave (today's included), against ``decided``,
        those it left (either way round; ``decided_se`` the s.e. of the difference); and
        ``wrong_way``, the pairs it left decided the wrong way round, per run.
    checks, reliability : dict
        ``scope ->`` :class:`~scorio_core.calibration.ResampleCheck` /
        :class:`~scorio_core.calibration.PBestCalibration`.
    M, N, L : int
        Questions and trials per question of the smaller runs; models per run.
    source_N : int
        Trials per question of the run whose shares stand in for the truth.
    reps : int
    adjust : str
    confidence : float
    spread_history : int
        Other smaller runs the spread prior behind ``p_best`` and the plans was learned
        from (0: the flat prior).
    """

    intervals: pd.DataFrame
    p_best: pd.DataFrame
    plans: pd.DataFrame
    split: pd.DataFrame
    checks: dict[str, ResampleCheck]
    reliability: dict[str, PBestCalibration]
    M: int
    N: int
    L: int
    source_N: int
    reps: int
    adjust: str
    confidence: float
    spread_history: int = 0

    def caption(self) -> str:
        """One line: what was drawn from what, and the decision rule."""
        prior = ("" if not self.spread_history else
                 f"; p_best with a spread prior learned from {self.spread_history} other runs")
        return (f"{self.reps} smaller runs of {self.L} models × {self.M} questions × {self.N} "
                f"trials drawn from this run's shares ({self.source_N} trials per question); "
                f"{percent(self.confidence)} intervals, {self.adjust}{prior}")

    def verdict(self) -> str:
        """:meth:`off_target` as one sentence, or that every promise held."""
        off = self.off_target()
        if not off:
            return VERDICT_HELD
        return "Off target on runs like this: " + "; ".join(off) + "."

    def charts(self) -> list:
        """The ``p_best`` reliability chart (:class:`~scorio_core.definitions.Chart`), as on
        the Check page."""
        from .definitions.check import CHECK, CheckResult

        return CHECK.charts(CheckResult(self))

    def _repr_html_(self) -> str:
        from .display import result_html

        tables = [("intervals", self.intervals), ("p_best", self.p_best)]
        if not self.plans.empty:
            tables.append(("plans", self.plans))
        if not self.split.empty:
            tables.append(("budget split", self.split))
        return result_html("Check a smaller run", self._settings_line(), tables,
                           self.charts()[0], [self.verdict()])

    def _settings_line(self) -> str:
        """:meth:`caption`, then the data and the settings it does not say (seed, draws, …)."""
        said = ("trials", "questions", "models", "reps", "adjust", "confidence")
        return " · ".join(t for t in (self.caption(), run_caption(
            getattr(self, "_about", None), skip=said)) if t)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/html": self._repr_html_(), "text/plain": repr(self)}

    def __repr__(self) -> str:
        from .formatting import text_table

        return (f"<SmallerRunCheck: {self._settings_line()}>\n{text_table(self.intervals)}\n"
                f"{self.verdict()}")

    def off_target(self) -> list[str]:
        """One sentence per promise the smaller runs broke beyond their sampling error --
        by more than :data:`Z` standard errors under the promise itself, so that among the
        dozen or so comparisons a calibrated run is rarely flagged by chance:

        * coverage outside the band (s.e.: the larger of the replicates' and the binomial
          one at the band's nearer edge over ``reps`` runs);
        * family-wise wrong-way decisions above ``1 − confidence`` (under a family-wise
          adjustment, :data:`~scorio_core.estimands.FAMILY_WISE`; binomial s.e. at
          ``1 − confidence``);
        * a Planner check's share decided below the assurance (binomial s.e. at the
          assurance, at least :data:`MIN_COUNT` plans), and the same for the plans whose
          better model truly led by at least their stated gap;
        * the budget split's recommended split deciding fewer pairs in the true order than
          the even split, fewer pairs than it was expected to leave decided, or -- where the
          greedy split was recommended -- a smaller gain over the even split than it claimed
          (their paired s.e. over the runs);
        * the *could be first* set holding the truly best model less often than the
          confidence (binomial s.e. at the confidence; the set is its own test, so this is
          judged under every adjustment);
        * a ``p_best`` bin with at least :data:`MIN_COUNT` model-runs whose observed share is
          off its mean prediction by more than 0.05 and :data:`Z` binomial s.e. at the
          prediction.
        """
        out = []
        alpha = 1 - self.confidence
        for scope, row in self.intervals.set_index("scope").iterrows():
            cov = row["coverage"]
            if not np.isfinite(cov):
                continue
            edge = min(max(cov, row["band_lo"]), row["band_hi"])
            # coverage_se is NaN where every interval held or none did: the promise's
            # own s.e. at the band's edge judges it then
            se = np.fmax(row["coverage_se"], np.sqrt(edge * (1 - edge) / self.reps))
            if cov + Z * se < row["band_lo"] or cov - Z * se > row["band_hi"]:
                out.append(f"{scope} scope: the {percent(self.confidence)} intervals held "
                           f"{share_percent(cov)} of the time (band "
                           f"{percent(row['band_lo'])}–{percent(row['band_hi'])})")
            wse = np.sqrt(alpha * (1 - alpha) / self.reps)
            # judged where the promise is family-wise; bh and none promise less (caveat)
            if self.adjust in FAMILY_WISE and row["wrong_way"] > alpha + Z * wse:
                out.append(f"{scope} scope: a pair was decided the wrong way round in "
                           f"{share_percent(row['wrong_way'])} of the runs (stated at most "
                           f"{percent(alpha)})")
            first = row["first_coverage"]
            if first + Z * wse < 1 - alpha:
                out.append(f"{scope} scope: the could-be-first set held the best model in "
                           f"{share_percent(first)} of the runs (stated at least "
                           f"{percent(1 - alpha)})")
        for _, row in self.plans.iterrows():
            a = row["assurance"]
            for kind, n in (("trial", row["trial_plans"]), ("question", row["question_plans"])):
                share = row[f"{kind}s_decided"]
                if n >= MIN_COUNT and share + Z * np.sqrt(a * (1 - a) / n) < a:
                    out.append(f"{row['scope']} scope: the {n:,} {kind} plans made for "
                               f"{a_chance(a)} decided {share_percent(share)} of their pairs")
            n, share = row["gap_plans"], row["gap_decided"]
            if n >= MIN_COUNT and share + Z * np.sqrt(a * (1 - a) / n) < a:
                out.append(f"{row['scope']} scope: of the {n:,} plans whose better model truly "
                           f"led by at least the stated gap, {share_percent(share)} were decided "
                           f"(stated at least {percent(a)})")
        for _, row in self.split.iterrows():
            if row["gain_over_even"] + Z * row["gain_se"] < 0:
                out.append(f"{row['scope']} scope: the recommended split of {row['budget']:,} "
                           f"extra trials decided {-row['gain_over_even']:.2f} pairs fewer than "
                           "an even split")
            if row["realised_gain"] + Z * row["realised_se"] < row["claimed_gain"]:
                out.append(f"{row['scope']} scope: where the greedy split was recommended "
                           f"({share_percent(row['greedy_share'])} of the runs) it claimed "
                           f"{row['claimed_gain']:+.2f} pairs over an even split and realised "
                           f"{row['realised_gain']:+.2f}")
            if row["decided"] + Z * row["decided_se"] < row["expected"]:
                out.append(f"{row['scope']} scope: the budget split was expected to leave "
                           f"{row['expected']:.2f} pairs decided and left {row['decided']:.2f}")
        for _, b in self.p_best_off().iterrows():
            out.append(f"{b['scope']} scope: models given p_best {share_percent(b['predicted'])} "
                       f"on average (bin {b['bin']}) were first {share_percent(b['observed'])} "
                       "of the time")
        return out

    def p_best_off(self) -> pd.DataFrame:
        """The rows of :attr:`p_best` whose bin :meth:`off_target` flags: at least
        :data:`MIN_COUNT` model-runs and an observed share off its mean prediction by more
        than 0.05 and :data:`Z` binomial s.e. at the prediction."""
        g = self.p_best
        se0 = np.sqrt(g["predicted"] * (1 - g["predicted"]) / g["count"].clip(lower=1))
        dev = (g["observed"] - g["predicted"]).abs()
        return g[(g["count"] >= MIN_COUNT) & (dev > np.maximum(Z * se0, 0.05))]


@recorded()
def check_smaller_run(
    data: Outcomes,
    trials: int | None = None,
    *,
    questions: int | None = None,
    models: int | None = None,
    reps: int = 200,
    adjust: str = ADJUSTMENTS[0],
    confidence: float = 0.95,
    plan_reps: int = 0,
    assurance: float = ASSURANCE,
    draws: int = 2000,
    seed: int = 0,
    max_questions: int = CHECKED_QUESTIONS,
    spread_history: int = 0,
    progress: Callable[[float, str], None] | None = None,
) -> SmallerRunCheck:
    """Draw smaller runs from ``data`` (its shares as the truth) and measure the leaderboard's
    intervals, decisions and ``p_best`` on them, in both scopes.

    Parameters
    ----------
    data : Outcomes or array_like (L, M, N₀)
        A run with many trials per question (``N₀ ≥ 4 ×`` :data:`STAND_IN_RATIO` for the
        default 4 trials); a 2-D array is refused with its two readings.
    trials : int, optional
        ``N`` of the smaller runs (default :func:`default_trials`); at most
        ``N₀ //`` :data:`STAND_IN_RATIO`.
    questions : int, optional
        ``M`` of the smaller runs, drawn with replacement from the run's questions (default:
        as many as the run has).
    models : int, optional
        Models per run of the ``p_best`` check, drawn at random from the run's (default:
        all of them, so the check is about this field; fewer vary the field).
    reps : int
        Smaller runs per scope and check.
    adjust, confidence, draws, seed
        As in :func:`~scorio_core.leaderboard.leaderboard`.
    plan_reps : int
        Smaller runs of the Planner check per scope (0: none; binary or weighted
        categories):
        :func:`scorio_core.plan_calibration.resample_assurance` -- plan each undecided
        adjacent pair for an ``assurance`` chance, draw what the plan asks for from the
        shares, decide again -- and as many of the budget split
        (:func:`~scorio_core.plan_calibration.resample_allocation`, ``3 L`` extra trials per
        question).
    assurance : float
        The chance the Planner check's plans are made for.
    max_questions : int
        The Planner check draws question plans up to this many questions (population
        scope) and counts larger ones as skipped (default
        :data:`~scorio_core.estimands.CHECKED_QUESTIONS`; the Planner's own
        ``MAX_QUESTIONS`` draws every plan, several times slower).
    spread_history : int
        0: ``p_best`` and the Planner check's chances read the flat prior on the field's
        spread (the leaderboard's default). At least
        :data:`~scorio_core.spread_prior.MIN_FIELDS`: they read a prior learned from that
        many other smaller runs drawn from these data (``history=`` of
        :func:`~scorio_core.calibration.resample_p_best`), as
        ``leaderboard(..., spread_prior=)`` would with earlier runs like this one.
    progress : callable, optional
        ``progress(fraction, message)`` after each check.

    Returns
    -------
    SmallerRunCheck

    Example
    -------
    >>> import scorio_core as sc
    >>> run = sc.load("data/jhu_llm_temperature.parquet")  # 100 trials per question
    >>> check = sc.check_smaller_run(run, 4, questions=30, reps=20)
    >>> check.intervals[["scope", "band_lo", "band_hi"]].values.tolist()
    [['questions', 0.93, 0.97], ['population', 0.93, 0.97]]
    """
    data = as_outcomes(data, "check_smaller_run")
    if (why := unmet(data)) is not None:
        raise ValidationError(why)
    most = data.N // STAND_IN_RATIO
    N = default_trials(data) if trials is None else check_int("trials", trials)
    if N > most:
        raise ValidationError(
            f"trials: at most {most} (1/{STAND_IN_RATIO} of this run's {data.N} trials per "
            f"question, so that its shares can stand in for the truth); got {N}")
    M = data.M if questions is None else check_int("questions", questions, minimum=2)
    L = data.L if models is None else check_int("models", models, minimum=2)
    if L > data.L:
        raise ValidationError(f"models: at most the run's {data.L}; got {L}")
    reps = check_int("reps", reps, minimum=2)
    conf = check_confidence(confidence)
    plan_reps = check_int("plan_reps", plan_reps, minimum=0)
    if plan_reps:
        if N < 2:
            # each surface names the setting its way (the command line: --plan-replicates)
            if trials is None:  # the default: as many as this run's N allows
                raise SettingsConflict(
                    CheckParams,
                    "{plan_reps}: the Planner plans from at least 2 trials per question; the "
                    f"smaller runs have {N} (at most 1/{STAND_IN_RATIO} of this run's "
                    f"{data.N}): set {{plan_reps}} to 0, or check data with at least "
                    f"{2 * STAND_IN_RATIO} trials per question", plan_reps=plan_reps)
            raise SettingsConflict(
                CheckParams,
                "{plan_reps}: the Planner plans from at least 2 trials per question; "
                f"{{trials}} asks for {N}: set {{plan_reps}} to 0 or {{trials}} to 2 or more",
                plan_reps=plan_reps, trials=N)
    p, w = stand_in_truth(data)
    names = [str(m) for m in data.models]
    checks, reliability, rows, tables, plans, splits = {}, {}, [], [], [], []
    steps = (3 if plan_reps else 2) * len(SCOPES)
    done = 0

    def step(message: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done / steps, message)

    for scope in SCOPES:
        c = resample_check(p, M, N, scope=scope, models=names, weights=w, reps=reps,
                           adjust=adjust, confidence=conf, draws=draws, seed=seed)
        step(f"{scope} scope: intervals and decisions checked")
        r = resample_p_best(p, M, N, L=L, scope=scope, weights=w, reps=reps, bins=5,
                            min_count=MIN_COUNT, draws=draws, confidence=conf, seed=seed,
                            history=spread_history)
        step(f"{scope} scope: p_best checked")
        if plan_reps:
            a = resample_assurance(p, M, N, scope=scope, L=L, weights=w, reps=plan_reps,
                                   assurance=assurance, adjust=adjust, confidence=conf,
                                   seed=seed, max_questions=max_questions,
                                   history=spread_history)
            held = a.plans[a.plans["true_gap"] >= a.plans["gap_stated"]]["decided"]
            share = float(held.mean()) if len(held) else np.nan
            plans.append({
                "scope": scope, "trial_plans": a.planned, "trials_decided": a.realised,
                # none or all decided: no standard error to give (calibration.share_se)
                "trials_se": a.realised_se if 0 < a.realised < 1 else np.nan,
                "question_plans": a.q_planned, "questions_decided": a.q_realised,
                "questions_se": a.q_se if 0 < a.q_realised < 1 else np.nan,
                "gap_plans": len(held), "gap_decided": share,
                "gap_se": share_se(share, len(held)),
                "assurance": a.assurance, "skipped": a.skipped,
            })
            s = resample_allocation(p, M, N, scope=scope, L=L, weights=w, reps=plan_reps,
                                    adjust=adjust, confidence=conf, seed=seed,
                                    history=spread_history)
            splits.append({
                "scope": scope, "budget": s.budget, "runs": s.reps,
                "greedy_share": s.greedy_share, "claimed_gain": s.claimed_gain,
                "realised_gain": s.realised_gain, "realised_se": s.realised_gain_se,
                "gain_over_even": s.chosen - s.uniform,
                "gain_se": s.chosen_gain_se, "expected": s.expected, "decided": s.decided,
                "decided_se": s.decided_se, "wrong_way": s.wrong_chosen,
            })
            step(f"{scope} scope: the Planner's plans and budget split realised")
        checks[scope], reliability[scope] = c, r
        lo, hi = target_band(M, conf) if c.identified else (np.nan, np.nan)
        rows.append({
            "scope": scope, "coverage": c.coverage, "coverage_se": c.coverage_se,
            "band_lo": lo, "band_hi": hi,
            # no model (a scope not checked): missing, "—" as the rest of its row
            "least_covered": c.worst_model or None, "least_coverage": c.worst_coverage,
            "width": c.width, "wrong_way": c.false_decisions, "power": c.power,
            "first_coverage": r.first_coverage, "first_set_size": r.first_size,
        })
        tables.append(r.table.assign(scope=scope))
    p_best = pd.concat(tables, ignore_index=True)[
        ["scope", "bin", "count", "predicted", "observed", "se"]]
    plan_table = pd.DataFrame(plans, columns=list(_PLAN_COLUMNS))
    split_table = pd.DataFrame(splits, columns=list(_SPLIT_COLUMNS))
    return SmallerRunCheck(pd.DataFrame(rows), p_best, plan_table, split_table, checks,
                           reliability, M, N, L,
                           data.N, reps, adjust, conf, int(spread_history))
