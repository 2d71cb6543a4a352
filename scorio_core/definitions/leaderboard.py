"""Leaderboard: calibrated scores and intervals in a stated scope, simultaneous rank intervals
(SPEC §4), and the papers' Bayes@N with its chained and arena ranks (Don't Pass@k (2026), §2.5,
§2.7.1).

Renders :func:`scorio_core.leaderboard.leaderboard` with
:func:`scorio_core.charts.forest_plot` and :func:`~scorio_core.charts.confidence_heatmap`.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions import ANALYSES
>>> lb = ANALYSES["leaderboard"]
>>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 30, 8)), models=["a", "b", "c"])
>>> result = lb.run(data, lb.params(confidence=0.9))
>>> list(lb.tables(result))
['leaderboard', 'unresolved']
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from .._validation import Only, Said
from ..display import Shown
from ..estimands import ADJUST_HELP, ASSURANCE, CALIBRATED_M, SCOPE_HELP, STAND_IN_RATIO
from ..formatting import a_chance, count_text, percent, share_percent, weight_text
from ..leaderboard import (
    COLUMN_HELP,
    NO_PAIRS,
    PAIR_HELP,
    SUBSET_COLUMNS,
    SUBSET_HELP,
    Leaderboard,
    by_subset,
    leaderboard,
    prior_note,
)
from ..outcomes import Outcomes
from ..params import LEARNED_SPREAD_PRIOR, LeaderboardParams
from ..spread_prior import load_spread_prior
from ._base import (
    Analysis,
    Chart,
    Progress,
    TableView,
    common_caveats,
    resolve_by,
    subset_caveat,
    subset_code,
    subset_of,
)

__all__ = ["LeaderboardParams", "LeaderboardResult", "LEADERBOARD"]


@dataclass(frozen=True, repr=False)
class LeaderboardResult(Shown):
    """The :class:`~scorio_core.leaderboard.Leaderboard`, the number of trials N and, when the
    questions carry an attribute, the per-subset leaderboards (:func:`~scorio_core.leaderboard.
    by_subset`) and the attribute they split by; ``attributes`` names the question attributes
    the data carry (chosen or not), for the settings line."""

    analysis_id = "leaderboard"
    main_table = "leaderboard"

    board: Leaderboard
    N: int
    subsets: pd.DataFrame | None = None
    by: str | None = None
    attributes: tuple[str, ...] = ()


def _keywords(p: LeaderboardParams) -> dict:
    return {"w": None if p.weights is None else list(p.weights),
            "use_prior": p.prior == "greedy", "confidence": p.confidence, "ks": list(p.ks),
            "scope": p.scope, "adjust": p.adjust, "draws": p.draws, "seed": p.seed,
            "spread_prior": None if p.spread_prior is None
            else load_spread_prior(p.spread_prior)}  # read once: every subset's board shares it


def _run(
    data: Outcomes, p: LeaderboardParams, progress: Progress | None = None
) -> LeaderboardResult:
    del progress  # fast: no progress to report
    data = subset_of(data, p.subset)
    kw = _keywords(p)
    board = leaderboard(data, **kw)
    by = resolve_by(data, p.by)
    subsets = None
    if by is not None:
        subsets = by_subset(data, by, **(kw | {"ks": []}))
    return LeaderboardResult(board, data.N, subsets, by, tuple(data.question_attributes))


def _tables(r: LeaderboardResult) -> dict:
    out = {"leaderboard": r.board.table, "unresolved": r.board.unresolved()}
    if r.subsets is not None:
        out["by_subset"] = r.subsets
    return out


def _csv_tables(r: LeaderboardResult) -> dict:
    """The tables as the CSV files hold them: the board as :func:`scorio_core.export.to_csv`
    writes it (with its ``scope`` column), the same file as ``scorio-studio leaderboard
    --format csv``."""
    from ..export import csv_table

    return _tables(r) | {"leaderboard": csv_table(r.board)}


def chart_captions(board: Leaderboard) -> tuple[str, str]:
    """What to read from the forest plot and the pairwise heatmap of ``board`` (what its
    cells say: :func:`scorio_core.charts.leaderboard.heatmap_cells_text`)."""
    from ..charts.leaderboard import heatmap_cells_text, narrow_intervals

    st = board.settings
    scope, conf = st["scope"], st["confidence"]
    # bars the dot would hide (s.e. 0.002 on the bundled run) at some width the chart is
    # drawn at: drawn across it, and said
    across = ", a dark line across the dot where narrower than it" if narrow_intervals(
        board) else ""
    return (
        f"Dot = mean score, bar = its {percent(conf)} interval in the {scope} scope (the "
        f"{SCOPE_HELP[scope].replace(' (', ', ').rstrip(')')}){across}; tick = the papers' "
        "Bayes@N; #rank (lo–hi) = headline rank and the range of ranks the data allow; the "
        "colour switches between blue and orange where the headline rank changes.",
        f"P(row model beats column model), {scope} scope: outlined cells are decided at "
        f"{percent(conf)} ({_decided_how(board)}); {heatmap_cells_text(board)}.",
    )


def _decided_how(board: Leaderboard) -> str:
    """How the heatmap's pairs are decided, and why a high P can stay undecided: the rank
    columns' multiplicity-controlled test over every pair, not a threshold on the cell's P."""
    adjust = board.settings["adjust"]
    L = len(board.table)
    if L < 2:
        return NO_PAIRS
    over = ("each pair on its own" if adjust == "none"
            else f"multiplicity control {adjust} over all {L * (L - 1) // 2:,} pairs")
    return (f"two-sided, {over} — the rule of the rank columns, not a threshold on P, so a P "
            "near 1 can stay undecided")


def _charts(r: LeaderboardResult) -> list[Chart]:
    from .. import charts  # altair: after the table is on screen (fast first page)

    forest, heat = chart_captions(r.board)
    alone = len(r.board.models) < 2  # a 1 x 1 grid of a model against itself says nothing
    return [
        Chart("Scores and intervals", charts.forest_plot(r.board), forest),
        # its tooltip said by the heatmap itself, only where its cells carry no numbers
        # (the width it is drawn at decides: charts.leaderboard.heatmap_note_expr)
        Chart("Pairwise probabilities", charts.confidence_heatmap(r.board), heat,
              empty=f"Nothing to draw: {NO_PAIRS}." if alone else None),
    ]


def _views(r: LeaderboardResult, tables: dict) -> dict:
    """One model: its ``unresolved`` table is empty because there is no pair, not because
    every pair is decided (what an empty ``unresolved`` says otherwise)."""
    if len(r.board.models) > 1:
        return {}
    return {"unresolved": TableView(tables["unresolved"], f"None: {NO_PAIRS}.")}


#: Fewest questions the calibration was measured at.
CALIBRATED_MIN_QUESTIONS = min(CALIBRATED_M)


def small_subsets_note(subsets: pd.DataFrame | None, scope: str) -> str | None:
    """A caveat naming the per-subset rows with fewer questions than the calibration was
    measured at (:data:`CALIBRATED_MIN_QUESTIONS`), or ``None`` when there are none.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.leaderboard import small_subsets_note
    >>> t = pd.DataFrame({"subset": ["a", "a", "b", "b"], "questions": [10, 10, 40, 40]})
    >>> small_subsets_note(t, "population")[:58]
    '1 of 2 subsets have fewer than 15 questions (as few as 10)'
    >>> small_subsets_note(t.iloc[2:], "population") is None
    True
    """
    if subsets is None or "questions" not in subsets or not len(subsets):
        return None
    sizes = subsets.groupby("subset", sort=False)["questions"].first()
    small = sizes[sizes < CALIBRATED_MIN_QUESTIONS]
    if small.empty:
        return None
    text = (f"{len(small)} of {len(sizes)} subsets have fewer than {CALIBRATED_MIN_QUESTIONS} "
            f"questions (as few as {int(small.min())}): the calibration was measured from "
            f"{CALIBRATED_MIN_QUESTIONS} questions up, so their intervals and decisions are "
            "not checked there")
    if scope == "population":
        text += (", and their p_best runs high (it does already at 15–30 questions, measured "
                 "with known truth: docs/calibration_gaps.md)")
    return text + "."


#: Fields of at most this many models: their spread is not identified, and p_best in the
#: population scope leans on the prior (measured: docs/calibration_gaps.md, thirteenth session).
FEW_MODELS = 3

#: The check that measures how far p_best holds on smaller runs drawn from the data, as each
#: surface runs it (a notebook's call, the command, the page).
CHECK_NEXT = Said(Only("python", "sc.check_smaller_run(data)"),
                  Only("cli", "scorio-studio check"), Only("app", "the *Check a smaller run* page"))


def spread_surprise(board) -> list[str]:
    """A caveat when the field's own spread estimate lies where the board's learned spread
    prior puts less than :data:`~scorio_core.spread_prior.SURPRISE` of its mass (the
    earlier runs do not look like this one), else nothing."""
    from ..spread_prior import SURPRISE, field_spread

    prior, scope = board.spread_prior, board.settings["scope"]
    if prior is None or not prior.has(scope):
        return []
    tau = field_spread(board.stats, scope)
    if not tau == tau or prior.tail(tau, scope) >= SURPRISE:
        return []
    return [f"This field looks more spread than the earlier runs the spread prior was learned "
            f"from: its own estimate, {tau:.3f} of the score range, lies beyond "
            f"{share_percent(1 - prior.tail(tau, scope))} of the prior. p_best then leans "
            "towards a closer field than the data show; check that the earlier runs are like "
            "this one, or use the flat prior."]


def subset_caveats(by: str, subsets: pd.DataFrame, confidence: float, scope: str) -> list[str]:
    """The caveats of the per-subset leaderboards (``by_subset``: the section's table and
    ``sc.by_subset``'s display alike): nothing adjusted across subsets, and the subsets
    smaller than the calibration was measured at.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.leaderboard import subset_caveats
    >>> t = pd.DataFrame({"subset": ["a", "b"], "questions": [10, 40]})
    >>> [c[:30] for c in subset_caveats("source", t, 0.95, "questions")]
    ['Per subset (source): each subs', '1 of 2 subsets have fewer than']
    """
    out = [f"Per subset ({by}): each subset's leaderboard uses only its own questions, at "
           f"the same {percent(confidence)} and scope; nothing is adjusted across subsets, so "
           "with many subsets expect some intervals to miss by chance."]
    if note := small_subsets_note(subsets, scope):
        out.append(note)
    return out


def _caveats(data: Outcomes, p: LeaderboardParams, r: LeaderboardResult) -> list[str]:
    data = subset_of(data, p.subset)
    out = common_caveats(data) + subset_caveat(data, p.subset) + [r.board.first_line()]
    if r.subsets is not None:
        out.extend(subset_caveats(r.by, r.subsets, p.confidence, p.scope))
    out.extend(r.board.notes)
    if p.scope == "questions":
        out.append(
            f"Scope: {percent(p.confidence)} intervals for each model's mean score on "
            + ("this one question" if data.M == 1 else f"these {count_text(data.M, 'question')}")
            + " (questions scope: uncertainty from the finite trials only); "
            "they do not include drawing a different set of questions from the same "
            "population (use the population scope for that)."
        )
    else:
        out.append(
            f"Scope: {percent(p.confidence)} intervals for each model's mean over the population "
            + ("this one question was drawn from" if data.M == 1 else
               f"these {count_text(data.M, 'question')} were drawn from")
            + " (population scope: question-level "
            "clustered variance, paired across models, which already holds the trial noise; "
            "a model's own interval uses its fitted population's spread where that is "
            "larger, as on a skewed benchmark whose rare solved questions the sample may "
            "miss); they cannot shrink below the question-to-question spread however many "
            "trials are run."
        )
        out.append(
            "p_best in the population scope"
            + (" with the flat prior on the field's spread" if r.board.spread_prior is not None
               else "")
            + " runs high with few questions: measured with known "
            "truth, predictions of 0.6–0.8 came true 0.62–0.68 of the time at M = 30 and "
            "0.55–0.67 at M = 15 (lowest with 4 trials per question), and "
            "on 8-model subsets of a real run with three near-tied leaders predictions of "
            "0.8–1.0 came true 0.77–0.82 of the time at M = 15–30 (within about 0.065 at "
            "M = 100; docs/calibration_gaps.md). "
            "The intervals and decisions are calibrated there."
            + (Said(" How far p_best holds on runs like this one is measured by ", CHECK_NEXT,
                    ", which draws smaller runs from these data's shares.")
               if data.N >= STAND_IN_RATIO else "")
        )
        if r.board.spread_prior is not None:
            out.extend(spread_surprise(r.board))
            out.append(
                f"p_best reads a spread prior {r.board.spread_prior.describe(p.scope)} "
                f"({p.spread_prior}) instead of the flat prior: measured with known truth "
                "(README, 'A prior on the field's spread'), on close three-model fields at 15 "
                "questions x 4 trials predictions of 0.6 or more came true within 0.03 of "
                "what they said (the flat prior's 0.12 short); with more questions, trials "
                "or models a prior learned from 5-20 earlier fields errs on the safe side, "
                "up to 0.06 under-confident. It is only as good as the earlier runs are like "
                "this one."
            )
        elif len(r.board.table) <= FEW_MODELS:
            out.append(Said(
                f"With {len(r.board.table)} models the data cannot tell how spread such fields "
                "usually are, and p_best leans on it: with 15 questions × 4 trials its 0.6–0.8 "
                "range came true 0.56–0.64 of the time on close simulated fields of two or "
                "three models and 0.78–0.81 on subsets of a real run, and at the same observed "
                "gaps no rule can be right for both (docs/calibration_gaps.md). The "
                "could-be-first set does not depend on it; a prior learned from earlier runs "
                "like this one (", LEARNED_SPREAD_PRIOR, ") removes the guess."
            ))
    out.append(f"Multiplicity ({p.adjust}): {ADJUST_HELP[p.adjust]}.")
    if note := prior_note(r.board):
        out.append(note)
    if conflicts := r.board.chained_conflicts():
        out.append(
            f"rank_chain (000 §2.7.1) puts {count_text(len(conflicts), 'decided pair')} in one "
            "rank; read rank / rank_lo-rank_hi, which come from the pairwise decisions and "
            "cannot chain."
        )
    pairs = r.board.unresolved()
    if len(pairs):
        planner = (f"the Planner gives the trials or questions for {a_chance(ASSURANCE)} of "
                   "deciding each" if r.board.identified else
                   "none can be, as this scope is not identified here")
        out.append(
            f"{len(pairs)} of {len(r.board.table) - 1} adjacent pairs are not separated at "
            f"{percent(p.confidence)}; {planner} (`trials_needed_papers` is the papers' expected-z "
            "rule, a 50% point)."
        )  # pairs whose papers' rule reads 'met now': the board's own note, above
    if p.prior == "greedy":
        out.append("The greedy outcomes R0 enter the papers' prior: bayes_mu is Bayes_R0@N.")
    return out


def _to_code(p: LeaderboardParams, data: str = "data") -> str:
    w = "None" if p.weights is None else repr(list(p.weights))
    head = "import scorio_core as sc\nfrom scorio_core import charts"
    src = data
    if p.subset is not None:
        src = "subset"
        head += f"\n\nsubset = {subset_code(p.subset, data)}"
    kw = (f"w={w}, use_prior={p.prior == 'greedy'}, confidence={p.confidence!r}, "
          f"scope={p.scope!r},\n                       adjust={p.adjust!r}, "
          f"draws={p.draws!r}, seed={p.seed!r}")
    if p.spread_prior is not None:
        kw += f",\n                       spread_prior={p.spread_prior!r}"
    tail = ""
    if p.by is not None and p.by != "none":
        tail = f"per_subset = sc.by_subset({src}, {p.by!r}, {kw})\n"
    return (
        f"{head}\n\n"
        f"board = sc.leaderboard({src}, {kw}, ks={list(p.ks)!r})\n"
        f"{tail}"
        "sc.display.show(board.table)"
    )


def _requires(data: Outcomes) -> str | None:
    return None


def by_text(r: LeaderboardResult) -> str:
    """The settings line's ``by`` when the user left it unset: the attribute the run split
    by, or none -- naming the attributes the data carry when there are some, so the line
    never says "no question attributes" beside a table that shows one.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.definitions.leaderboard import LEADERBOARD, by_text
    >>> R = np.random.default_rng(0).integers(0, 2, (2, 4, 2))
    >>> data = Outcomes(R, question_attributes={"source": ["x", "x", "y", "y"]})
    >>> by_text(LEADERBOARD.run(data, LEADERBOARD.params()))
    'none (not chosen; question attributes: source)'
    >>> by_text(LEADERBOARD.run(Outcomes(R), LEADERBOARD.params()))
    'none (no question attributes)'
    """
    if r.by:
        return r.by
    if r.attributes:
        return f"none (not chosen; question attributes: {', '.join(r.attributes)})"
    return "none (no question attributes)"


LEADERBOARD = Analysis(
    id="leaderboard",
    title="CI-aware leaderboard",
    params=LeaderboardParams,
    run=_run,
    tables=_tables,
    charts=_charts,
    how_to_read=(
        "Models are sorted by their mean score (score = avg@N, unbiased) with an interval "
        "[lo, hi] that holds its confidence for the stated scope: questions = the mean over "
        "the questions asked (only the finite trials are uncertain), population = the mean "
        "over the population they were drawn from (coverage measured by simulation: README, "
        "'How to read the numbers'). The rank columns count the pairs decided two-sided at "
        "the confidence under the multiplicity control (Holm by default, so no false "
        "decision anywhere among all pairs with probability >= the confidence); with Holm or "
        "simultaneous control every model sits in [rank_lo, rank_hi] jointly with the chosen "
        "confidence (with BH or none, each pair only on its own). The papers' Bayes@N "
        "columns (pulled towards the prior's mean, the average of the category weights, "
        "when trials are few) and their rank rules are there for comparison. The "
        "'unresolved' table lists neighbours not yet decided; 'by_subset' (when the questions "
        "carry an attribute such as their source) is the same leaderboard on each subset's "
        "questions. Each table's columns are explained under it."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=("charts.forest_plot(board)", "charts.confidence_heatmap(board)"),
    requires=_requires,
    result_var="board",
    resolved=lambda p, r: ({} if p.weights is not None else {
        "weights": ", ".join(map(weight_text, r.board.settings["weights"])) + " (the data's)"})
    | ({} if p.by is not None else {"by": by_text(r)}),
    csv_tables=_csv_tables,
    views=_views,
    columns={
        "leaderboard": COLUMN_HELP,
        "unresolved": PAIR_HELP,
        "by_subset": SUBSET_HELP | {c: COLUMN_HELP[c] for c in SUBSET_COLUMNS},
    },
)
