"""Planner: the trials and questions that give a stated chance (default 80%) of deciding each
undecided pair, where a budget of extra trials goes, and for one pair the chance of a decision
and the papers' P(correct order) vs N (SPEC §4; the papers' App. D, Fig. 6) and the smallest
true lead each plan size decides on any field.

Renders :func:`scorio_core.planner.plan`, :func:`~scorio_core.planner.pair_assurance`,
:func:`~scorio_core.planner.pair_curve` and :func:`~scorio_core.planner.gap_curve` with
:func:`scorio_core.charts.allocation_chart`, :func:`~scorio_core.charts.order_curve_chart` and
:func:`~scorio_core.charts.gap_curve_chart`.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions import ANALYSES
>>> pl = ANALYSES["plan"]
>>> R = (np.random.default_rng(0).random((3, 20, 4)) < [[[.8]], [[.7]], [[.4]]]).astype(int)
>>> data = Outcomes(R, models=["a", "b", "c"])
>>> result = pl.run(data, pl.params(budget_trials=6, n_max=16, sims=500))
>>> list(pl.tables(result)), int(result.plan.allocation["extra_trials"].sum())
(['pairs', 'allocation', 'order_curve', 'gap_curve'], 6)
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import charts
from .._validation import Mention, Said
from ..display import Shown
from ..estimands import ASSURANCE, SCOPES
from ..formatting import percent, share_percent
from ..leaderboard import PAIR_HELP
from ..outcomes import ONE_MODEL_NEXT, Outcomes
from ..params import PlanParams
from ..planner import (
    POPULATION_SPLIT_REALISED,
    CurveSettings,
    OrderCurve,
    Plan,
    a_chance,
    curve_settings,
    decision_chance,
    gap_curve,
    pair_assurance,
    pair_curve,
    pair_notes,
    plan,
    plannable,
)
from ._base import Analysis, Chart, Progress, TableView, common_caveats

__all__ = ["PlanParams", "PlanResult", "PLAN", "COLUMNS", "summary"]


@dataclass(frozen=True, repr=False)
class PlanResult(Shown):
    """The :class:`~scorio_core.planner.Plan`, the order curve (with the chance of a
    decision at each N), the gap curve (:func:`~scorio_core.planner.gap_curve`) and the
    settings it used; ``pair_chosen``: the curves' pair was set, not the default."""

    analysis_id = "plan"
    main_table = "pairs"

    plan: Plan
    curve: OrderCurve
    curve_settings: CurveSettings
    sims: int
    gaps: pd.DataFrame
    pair_chosen: bool = False

    @property
    def z_threshold(self) -> float:
        return float(self.plan.settings["z_threshold"])

    @property
    def pair_decided(self) -> bool:
        """The curves' pair is already decided at the plan's confidence (either way)."""
        board, cs = self.plan.board, self.curve_settings
        i, j = board.models.index(cs.upper), board.models.index(cs.lower)
        return bool(board.decided[i, j] or board.decided[j, i])

    @property
    def shows_pair(self) -> bool:
        """Whether the pair's curves are drawn: a chosen pair always; the default pair only
        when it is undecided. With every pair decided there is nothing to plan, and a
        decided pair's curves do not read as a plan (a few more trials keep today's
        estimate, so its smallest decided lead rises before it falls)."""
        return self.pair_chosen or not self.pair_decided


def _run(data: Outcomes, p: PlanParams, progress: Progress | None = None) -> PlanResult:
    if progress:
        progress(0.0, "planning")
    planned = plan(
        data, use_prior=p.prior == "greedy", confidence=p.confidence, scope=p.scope,
        adjust=p.adjust, assurance=p.assurance, budget_trials=p.budget_trials,
        lead=p.lead, draws=p.draws, seed=p.seed, spread_prior=p.spread_prior,
    )
    cs = curve_settings(planned, p.pair, p.n_max)
    if progress:
        progress(0.5, f"simulating {cs.upper} vs {cs.lower}")
    curve = pair_curve(data, cs.upper, cs.lower, cs.n_values, sims=p.sims, seed=p.seed)
    decided = pair_assurance(planned.board, cs.upper, cs.lower, cs.n_values)
    curve = dataclasses.replace(curve, p_decided=decided)
    if p.lead:
        k = len(cs.n_values)
        at_lead = decision_chance(planned.board, [cs.upper] * k, [cs.lower] * k, cs.n_values,
                                  p.lead)
        curve = dataclasses.replace(curve, p_at_lead=at_lead, lead=p.lead)
    gaps = gap_curve(planned.board, cs.upper, cs.lower, cs.n_values, cs.m_values,
                     assurance=p.assurance)
    if progress:
        progress(1.0, "done")
    return PlanResult(planned, curve, cs, p.sims, gaps, p.pair is not None)


#: What ``trials_gap`` / ``questions_gap`` promise (the Planner page and the caveats say it
#: in these words; ``{chance}``: "an 80% chance").
GAP_TEXT = (
    "`trials_gap` / `questions_gap`: the smallest true lead of `better` over `next` (in the "
    "scope's estimand; for questions, over the population) that trials_needed / "
    "questions_needed decide with {chance} on *any* field — the plan's "
    "power, which assumes nothing about how large the lead is (the needed counts average "
    "over the field's posterior of it instead); ∞: no lead within the score range; —: none "
    "to state (no plan of that kind, or today's data decide the pair whatever the lead, so "
    "the plan would decide a tie as often: the note says which)."
)


#: What ``trials_for_lead`` / ``questions_for_lead`` promise (``{lead}``: the setting).
LEAD_TEXT = (
    "`trials_for_lead` / `questions_for_lead`: trials per question (every model) / questions "
    "that decide the pair with {chance} whenever `better` truly leads by at least {lead:g} — "
    "on *any* field, as the stated gaps; ∞: beyond reach (population scope: trials never "
    "remove the question-to-question spread)."
)


def summary(r: PlanResult) -> str:
    """One Markdown sentence: what the budget buys (expected decided pairs, greedy vs even
    split) and which split is recommended.

    Example
    -------
    >>> from scorio_core.definitions.plan import PLAN, PlanParams, summary
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> R = (np.random.default_rng(0).random((3, 20, 4)) < [[[.8]], [[.7]], [[.4]]]).astype(int)
    >>> r = PLAN.run(Outcomes(R), PlanParams(n_max=8, sims=200))
    >>> summary(r).startswith("Budget **12** extra trials per question")
    True
    """
    a, s = r.plan.split, r.plan.settings
    pairs = len(r.plan.board.models) * (len(r.plan.board.models) - 1) // 2
    return (
        f"Budget **{s['budget_trials']:,}** extra trials per question: decided pairs now "
        f"**{a.decided_now}** of {pairs}, expected **{a.expected_greedy:.1f}** after the "
        f"greedy split and **{a.expected_uniform:.1f}** after an even split. Recommended: "
        f"{a.note}." + (f" {why}" if (why := r.plan.budget_why()) else "")
    )


def _resolved(p: PlanParams, r: PlanResult) -> dict[str, str]:
    """The budget, pair and curve length this run used where the settings left defaults."""
    cs = r.curve_settings
    out = {}
    if p.budget_trials == 0:
        out["budget_trials"] = f"{r.plan.settings['budget_trials']:,} (0 = L × N)"
    if p.pair is None:
        out["pair"] = _default_pair_text(r)
    if p.n_max is None and not r.shows_pair:
        out["n_max"] = "not used (no pair curves)"
    elif p.n_max is None:  # curve_settings' rule, the part of it this run took
        pairs = r.plan.pairs
        planned = len(pairs) and np.isfinite(float(pairs["trials_needed"].iloc[0]))
        rule = "1.25 × the first undecided pair's trials needed" if planned else "4 × N"
        out["n_max"] = f"{cs.n_values[-1]:,} ({rule}, within 64 to 4,096)"
    return out


def _default_pair_text(r: PlanResult) -> str:
    """The settings line's ``pair`` when it was left unset: the pair the curves show and why,
    or that none is shown because every adjacent pair is decided."""
    cs = r.curve_settings
    if not r.shows_pair:
        return "none: every adjacent pair is decided (no pair curves)"
    if len(r.plan.pairs):
        return f"{cs.upper} vs {cs.lower} (the first undecided pair)"
    return f"{cs.upper} vs {cs.lower} (the two best models; no adjacent pair to plan)"


def _no_pair_text(r: PlanResult) -> str:
    """Why the pair charts are not drawn (every adjacent pair is decided)."""
    s = r.plan.settings
    # the setting as each surface names it (a Said): pair=, --pair, the page's two boxes
    return Said(f"Every adjacent pair is decided at {percent(s['confidence'])} ({s['scope']} "
                "scope): there is no undecided pair to plan, so no pair's curve is drawn. "
                "Choose a pair to see how its chances grow with N (", Mention(PlanParams, "pair"),
                ").")


def _decided_note(r: PlanResult, gap: bool = False) -> str:
    """A caption's opening when the chosen pair is already decided ('' otherwise): the order
    curve's chance is that of staying decided; the gap curve can rise before it falls."""
    if not r.pair_decided:
        return ""
    cs = r.curve_settings
    head = (f"{cs.upper} vs {cs.lower} is already decided at "
            f"{percent(r.plan.settings['confidence'])}")
    if gap:
        return (head + ": with a few more trials a plan mostly keeps today's estimate, so the "
                "smallest lead it decides can rise before it falls. ")
    return head + ": the chance of a decision here is the chance it stays decided. "


def _tables(r: PlanResult) -> dict[str, pd.DataFrame]:
    curve = r.curve.frame()
    curve.insert(0, "lower", r.curve_settings.lower)
    curve.insert(0, "upper", r.curve_settings.upper)
    # the papers' P(correct order) is marked a share of the simulated tables by frame()
    gaps = r.gaps.copy()
    gaps.insert(0, "lower", r.curve_settings.lower)
    gaps.insert(0, "upper", r.curve_settings.upper)
    if not r.shows_pair:  # nothing pair-specific: the columns stay, no rows
        curve, gaps = curve.iloc[:0], gaps.iloc[:0]
    return {"pairs": r.plan.pairs, "allocation": r.plan.allocation, "order_curve": curve,
            "gap_curve": gaps}


def _views(r: PlanResult, tables: dict[str, pd.DataFrame]) -> dict[str, TableView]:
    """The pairs table without its ``note`` column, the notes said under it, each naming
    its pairs (:func:`~scorio_core.planner.pair_notes`), as the Planner page and a plan's
    own display list them: a column of sentences ran the report's table past its page. The
    CSV/JSON exports keep the column.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions import ANALYSES
    >>> t = pd.DataFrame({"better": ["a", "b"], "next": ["b", "c"], "trials_needed": [9, 4],
    ...                   "note": ["too close", ""]})
    >>> view = ANALYSES["plan"].views(None, {"pairs": t})["pairs"]
    >>> list(view.table), view.note
    (['better', 'next', 'trials_needed'], ('a vs b: too close',))
    """
    pairs = tables["pairs"]
    notes = tuple(f"{who}: {note}" for who, note in pair_notes(pairs))
    return {"pairs": TableView(pairs.drop(columns="note", errors="ignore"), notes or None)}


def _charts(r: PlanResult) -> list[Chart]:
    cs = r.curve_settings
    pair = f": {cs.upper} vs {cs.lower}" if r.shows_pair else ""
    none = None if r.shows_pair else _no_pair_text(r)
    return [
        Chart(
            "Where to spend extra trials", charts.allocation_chart(r.plan.allocation),
            "Bars = extra trials per question per model: the greedy split (blue) goes where a "
            "trial most raises the expected number of decided pairs, grey = the same budget "
            f"split evenly; the recommended one is the {r.plan.split.chosen} split.",
        ),
        Chart(
            f"Chance of a decision and of the correct order vs N{pair}",
            charts.order_curve_chart(r.curve, r.z_threshold),
            _decided_note(r) + f"Left: the chance that {cs.upper} vs {cs.lower} is decided at "
            f"{percent(r.plan.settings['confidence'])} ({r.plan.settings['scope']} scope) with "
            f"every model at N trials, from today's N = {int(r.plan.settings['shape'][-1]):,} "
            "on (ours, averaged over the field's posterior of the gap; measured with known "
            "truth in docs/calibration.md"
            + (f"; and the chance if {cs.upper} truly leads by {r.curve.lead:g}, on any field"
               if r.curve.lead else "")
            + "), and how often the papers' Bayes@N orders them this way with "
            f"today's estimates as truth ({r.sims:,} simulated tables per N); right, the "
            "papers' z against their dashed threshold (000 App. D, Fig. 6).", none,
        ),
        Chart(
            f"Smallest lead a plan decides{pair}",
            charts.gap_curve_chart(r.gaps, r.curve.lead),
            _decided_note(r, gap=True) + _gap_caption(r),
            empty=none if none or _gap_kinds(r.gaps) else "No plan of these sizes can be made for "
            "this pair (trials need N ≥ 2, questions M ≥ 2) or decides a lead within the score "
            "range." + _carried_text(r),
        ),
    ]


def _gap_kinds(gaps: pd.DataFrame) -> list[str]:
    """The plan kinds with a finite point on the gap curve (its panels, in order)."""
    ok = gaps[np.isfinite(gaps["smallest_lead"].to_numpy(dtype=float))]
    return [k for k in ("trials", "questions") if (ok["plan"] == k).any()]


#: What a gap-curve kind's plans measure, in words (the caption's units).
_PLAN_UNITS = {"trials": "trials per question", "questions": "questions"}


def _carried(r: PlanResult, kind: str) -> np.ndarray:
    """The plan sizes of ``kind`` on the gap curve that state no smallest lead although such
    plans can be made here (:func:`~scorio_core.planner.plannable`): today's data decide the
    pair there whatever the lead."""
    s = r.plan.settings
    _, M, N = (int(v) for v in s["shape"])
    part = r.gaps[r.gaps["plan"] == kind]
    if not plannable(kind, N, M, s["scope"]):
        return np.array([], dtype=np.int64)
    return part["n"][np.isnan(part["smallest_lead"].to_numpy(dtype=float))].to_numpy()


def _carried_text(r: PlanResult) -> str:
    """The caption's sentence on plans left out because today's data carry them ('' if none)."""
    parts = []
    for kind in ("trials", "questions"):
        n = _carried(r, kind)
        if n.size:
            lo, hi = int(n.min()), int(n.max())
            parts.append(f"{lo:,}" + (f" to {hi:,}" if hi != lo else "") + f" {_PLAN_UNITS[kind]}")
    if not parts:
        return ""
    return (f" Not drawn: plans of {' and '.join(parts)} — today's data decide the pair there "
            "whatever the lead (a tie as often), so they state no smallest lead"
            + ("." if r.pair_decided else  # the caption's opening says the rest
               "; beyond them today's data still carry much of the decision, so the line can "
               "rise before it falls."))


def _gap_caption(r: PlanResult) -> str:
    """What the gap curve shows, which panels it has, and why a kind is missing."""
    cs, s, kinds = r.curve_settings, r.plan.settings, _gap_kinds(r.gaps)
    what = {"trials": "trials per question for every model (a lead in the scope's estimand)",
            "questions": "questions at today's N (a lead over the population)"}
    side = ["left, against ", "right, against "] if len(kinds) == 2 else ["against "]
    panels = "; ".join(f"{where}{what[k]}" for where, k in zip(side, kinds, strict=False))
    text = (
        f"The smallest true lead of {cs.upper} over {cs.lower} that each plan decides at "
        f"{percent(s['confidence'])} with {a_chance(s['assurance'])} on any field (no prior on "
        f"the lead) — {panels}. Where the line falls below a lead you care about, that plan "
        "suffices."
    )
    trials = r.gaps[r.gaps["plan"] == "trials"]["smallest_lead"].to_numpy(dtype=float)
    N = int(s["shape"][-1])
    if not trials.size and N >= 2:
        text += (f" No trials panel: the curve's largest N ({cs.n_values[-1]:,}) is not "
                 f"beyond today's N = {N:,}.")
    elif "trials" not in kinds and np.isinf(trials).any():
        text += (" More trials decide no lead within the score range for this pair"
                 + (" (population scope: the question-to-question spread stays; add "
                    "questions)." if s["scope"] == "population" else "."))
    elif "trials" not in kinds and N < 2:
        text += " Trials cannot be planned: N = 1 does not show the trial noise."
    text += _carried_text(r)
    return (text + " Dotted: today's estimate"
            + (f"; dashed: the lead that matters ({r.curve.lead:g})" if r.curve.lead else "")
            + ".")


def _caveats(data: Outcomes, p: PlanParams, r: PlanResult | Plan) -> list[str]:
    """The plan's caveats; of ``sc.plan``'s :class:`~scorio_core.planner.Plan` too (the same
    sentences, but the order curve's: it draws none)."""
    planned = r.plan if isinstance(r, PlanResult) else r
    out = common_caveats(data)
    out.append(
        f"trials_needed and questions_needed give {a_chance(p.assurance)} of a decision: "
        "a probability over what the new data may show, from the field's hierarchical "
        "posterior (checked with known truth by benchmarks/planner_calibration.py). "
        "trials_needed_papers is the papers' expected-z rule: a 50% point."
    )
    out.append(GAP_TEXT.format(chance=a_chance(p.assurance)).replace("`", "").replace("*", ""))
    prior = planned.board.spread_prior
    if prior is not None:
        flat = [s for s in SCOPES if not prior.has(s)]
        out.append(
            f"The chances read a spread prior {prior.describe(p.scope)} ({p.spread_prior}) "
            "instead of the flat prior"
            + (f"; its earlier runs did not identify the {flat[0]} scope, so the draws in that "
               "scope (the trial plans' gap over these questions) keep the flat prior"
               if flat else "")
            + ". Checked once with known truth (5-model fields, 30 questions x 4 trials, "
            "population scope, 1,000 fields; docs/calibration_gaps.md): with a prior learned "
            "from 20 earlier fields the question plans of up to 4,000 questions decided 87% "
            "± 2 (193 plans) where the flat prior's decided 79% ± 2 (391): the learned prior "
            "plans fewer pairs and asks for more, on the safe side; the budget split's "
            "claimed gain came true as often as with the flat prior (77% and 75% of it, "
            "100 questions x 8 trials)."
        )
    if p.lead:
        out.append(LEAD_TEXT.format(chance=a_chance(p.assurance), lead=p.lead)
                   .replace("`", "").replace("*", ""))
    if p.scope == "population":
        out.append(
            "Population scope: trials only remove trial noise; p_unsettled is the chance that "
            "no number of trials on these questions decides the pair (add questions)."
        )
        out.append(
            "Measured with known truth (5-model fields, docs/calibration_gaps.md): in the "
            "population scope, trials planned for an 80% chance decided 78% ± 2 of the "
            "pairs at M = 100, N = 8 (questions planned for 80%: 84%); with about 30 "
            "questions and 4 trials the question plans decided 80.8% ± 0.7 (79.5% with "
            "three graded outcomes; 74-76% on fixed fields with near-tied leaders) and trials "
            "are almost never planned (67% ± 5 of the 95 trial plans made on 14,000 fields). "
            "The stated gaps hold there: of the plans whose "
            "better model truly led by at least questions_gap, 98.5% were decided. On "
            "5-model sub-fields of a real run (JHU, 30 questions, 4 trials) questions planned "
            "for 80% decided 83%. Where a pair's question-to-question spread is not shown "
            "above zero, its plans and chances read the spread's upper bound (on the real run "
            "trials planned on the estimate alone had decided 20% there, and its chances at "
            "64 N trials ran 0.5-0.7 against 0.25). On a run with many trials per question, "
            "Check a smaller run "
            "measures the plans on runs like yours."
        )
    out.append(
        "The budget split's expected decided pairs, measured with known truth on 6-model runs "
        "of 30 questions x 4 trials with 18 extra trials (docs/calibration_gaps.md): on "
        "sub-fields of a real run (JHU) the questions scope (every pair counted, today's "
        "decided ones at their chance of staying decided) expected 12.1 decided pairs and "
        "left 12.2, the population scope (the same, a decided pair's chance read with the "
        "pooled question-to-question spread) expected 7.2 and left 7.5 (conservative). Where "
        "the greedy split was recommended it claimed +0.28 pairs over an even split and "
        "realised +0.29 (questions scope, where it is recommended whenever it wins by two "
        "standard errors), claimed +0.34 and realised +0.32 ± 0.05 (population scope, "
        "where it must win by 0.25 pairs; " + POPULATION_SPLIT_REALISED + " of its claim "
        "on 9-model fields of that run and on simulated 100-question, 8-trial fields, where "
        "it still never did "
        "worse than an even split). Its ± is the simulation's error, not the model's; Check "
        "a smaller run measures the split on runs like yours."
    )
    if p.prior == "greedy":
        out.append(
            "The greedy outcomes R0 enter the papers' Bayes@N prior (trials_needed_papers)"
            + ("; the order curve simulates Bayes@N with the uniform prior."
               if isinstance(r, PlanResult) else ".")
        )
    if isinstance(r, PlanResult):
        out.append(
            f"The order curve simulates {p.sims:,} tables per N (seed {p.seed}): each "
            f"probability has a simulation standard error of at most "
            f"{share_percent(1 / (2 * p.sims ** 0.5))}."
        )
    return out


def _to_code(p: PlanParams, data: str = "data") -> str:
    lead = (
        "k = len(order_pair.n_values)  # the chance if the first model truly leads by the lead\n"
        f"order = dataclasses.replace(order, lead={p.lead!r}, p_at_lead=sc.planner."
        "decision_chance(\n"
        "    planned.board, [order_pair.upper] * k, [order_pair.lower] * k, order_pair.n_values, "
        f"{p.lead!r}))\n"
    ) if p.lead else ""
    return (
        ("import dataclasses\n\n" if p.lead else "")
        + "import scorio_core as sc\n"
        "from scorio_core import charts\n\n"
        f"planned = sc.plan({data}, use_prior={p.prior == 'greedy'}, confidence={p.confidence!r}, "
        f"scope={p.scope!r}, adjust={p.adjust!r},\n"
        f"                  assurance={p.assurance!r}, budget_trials={p.budget_trials!r}, "
        f"lead={p.lead!r}, draws={p.draws!r}, seed={p.seed!r}"
        + ("" if p.spread_prior is None
           else f",\n                  spread_prior={p.spread_prior!r}")
        + ")\n"
        f"order_pair = sc.planner.curve_settings(planned, pair={p.pair!r}, n_max={p.n_max!r})\n"
        f"order = sc.planner.pair_curve({data}, order_pair.upper, order_pair.lower, "
        f"order_pair.n_values, sims={p.sims!r}, seed={p.seed!r})\n"
        "decided = sc.planner.pair_assurance(planned.board, order_pair.upper, order_pair.lower, "
        "order_pair.n_values)\n"
        + lead
        + "gaps = sc.planner.gap_curve(planned.board, order_pair.upper, order_pair.lower, "
        f"order_pair.n_values, order_pair.m_values, assurance={p.assurance!r})\n"
        # the notes under the table, as the report lists them (planned.pairs keeps them)
        + "notes = [f\"{who}: {note}\" for who, note in sc.planner.pair_notes(planned.pairs)]\n"
        "sc.display.show(planned.pairs.drop(columns=\"note\"), note=notes)"
    )


def _requires(data: Outcomes) -> str | None:
    if data.L < 2:
        return f"planning compares models; these data have {data.L}. {ONE_MODEL_NEXT}"
    return None


def to_json(r: PlanResult) -> dict:
    """The plan (settings, pairs, allocation, split) and the order curve as JSON."""
    payload = json.loads(r.plan.to_json())
    tables = _tables(r)
    for name in ("order_curve", "gap_curve"):
        payload[name] = json.loads(tables[name].to_json(orient="records"))
    return payload


#: The lead a plan's stated gaps are about, and where it is measured.
_ANY_FIELD = "with the stated chance (assurance) on any field, no prior on the lead"
#: What the curves' pair columns hold (both curve tables).
_CURVE_PAIR = {"upper": "the pair's model planned to lead (the curves' pair)",
               "lower": "the other model of the pair"}
#: What each column of the Planner's tables holds (:attr:`Analysis.columns`).
COLUMNS = {
    "pairs": {
        **{k: PAIR_HELP[k] for k in ("better", "next", "gap")},
        "trials_needed": "trials per question, every model, that give the stated chance "
                         "(assurance) of deciding the pair at the confidence, in the "
                         "board's scope and control: averaged over the field's posterior of "
                         "the lead (∞: beyond reach or identical scores)",
        "trials_gap": "the smallest true lead of better over next that trials_needed "
                      f"decides {_ANY_FIELD} (scope's estimand; ∞: none within the score "
                      "range; —: none to state, the note says why)",
        "questions_needed": "questions, at today's N, that give the same chance of deciding "
                            "the pair in the population scope",
        "questions_gap": "the same smallest true lead for questions_needed (over the "
                         "population)",
        "trials_for_lead": "trials per question, every model, that decide the pair "
                           f"{_ANY_FIELD}, whenever better truly leads by at least the "
                           "lead setting (∞: beyond reach)",
        "questions_for_lead": "questions that do the same for the lead setting",
        "p_unsettled": "population scope: the chance that no number of trials on these "
                       "questions decides the pair (add questions)",
        **{k: PAIR_HELP[k] for k in ("t", "p_better", "p_value", "trials_needed_papers")},
        "note": "what limits the pair's plans, in words (listed under the table)",
    },
    "allocation": {
        "model": "model name",
        "score": "the model's mean score (the leaderboard's)",
        "N": "trials per question the model has now",
        "extra_trials": "extra trials per question the recommended split gives it (the "
                        "greedy or the even split: the line under the chart says which)",
        "greedy_trials": "the greedy split's: trials go where one most raises the expected "
                         "number of decided pairs",
        "uniform_trials": "the even split's: the same budget shared equally",
    },
    "order_curve": {
        **_CURVE_PAIR,
        "N": "trials per question, every model",
        "p_correct": "the papers' P(correct order): the share of tables simulated with "
                     "today's estimates as truth in which Bayes@N puts upper above lower "
                     "(000 App. D)",
        "z_mean": "the papers' z of the pair, (mu_upper - mu_lower) / sqrt(sigma_upper² + "
                  "sigma_lower²) of Bayes@N, mean over those tables",
        "z_projected": "today's z projected to N trials in closed form: z_now "
                       "sqrt((T + N - N_now + 1) / (T + 1)), T the Bayes@N counts per "
                       "question (trials plus the prior's)",
        "p_decided": "our chance that the pair is decided at the confidence (board's scope "
                     "and control) with every model at N trials, over the field's posterior "
                     "of the lead (— below today's N)",
        "p_decided_at_lead": "that chance if upper truly leads by the lead setting, on any "
                             "field (no prior on the lead)",
    },
    "gap_curve": {
        **_CURVE_PAIR,
        "plan": "the kind of plan: trials (per question, every model) or questions (at "
                "today's N)",
        "n": "its size: trials per question, or questions",
        "smallest_lead": "the smallest true lead of upper over lower the plan decides "
                         f"{_ANY_FIELD} (trials: in the scope's estimand; questions: over the "
                         "population; ∞: none within the score range; —: none to state)",
        "gap_now": "today's estimate of that lead (the same on every row)",
    },
}


PLAN = Analysis(
    id="plan",
    title="Planner",
    params=PlanParams,
    run=_run,
    tables=_tables,
    charts=_charts,
    how_to_read=(
        "The pairs table lists each undecided adjacent pair with what would decide it: more "
        "trials per question for every model, or more questions, each planned for the "
        f"stated chance (default {percent(ASSURANCE)}) of deciding the pair at the "
        "confidence, in the leaderboard's scope and multiplicity control, beside the "
        "smallest true lead that plan decides on any field (its power, no prior on the "
        "lead) and today's test of the pair. The allocation table splits the budget of extra "
        "trials per question greedily, where a trial most raises the expected number of "
        "decided pairs, next to an even split; the greedy split is recommended only when it "
        "beats the even split on held-out draws. The curve shows, for one pair, the chance "
        "of a decision as N grows, beside the papers' P(correct order) and z (App. D, Fig. 6); "
        "the gap curve, the smallest true lead each number of trials or questions decides "
        "with the stated chance on any field. Each table's columns are explained under it."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=(
        "charts.allocation_chart(planned.allocation)",
        'charts.order_curve_chart(order, planned.settings["z_threshold"], p_decided=decided)',
        "charts.gap_curve_chart(gaps, order.lead)",
    ),
    requires=_requires,
    result_var="planned",
    resolved=_resolved,
    views=_views,
    columns=COLUMNS,
)
