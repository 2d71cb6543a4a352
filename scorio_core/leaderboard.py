"""The CI-aware leaderboard: one vectorized call over the whole ``(L, M, N)`` tensor.

:func:`leaderboard` is what the Leaderboard page and ``scorio-studio
leaderboard`` show; a notebook gets the identical table with the same call.

Example
-------
>>> import numpy as np
>>> from scorio_core.leaderboard import leaderboard
>>> R = np.random.default_rng(0).integers(0, 2, size=(3, 10, 8))
>>> board = leaderboard(R, models=["a", "b", "c"], ks=(2,))
>>> list(board.table.columns)[:9]
['model', 'rank', 'rank_lo', 'rank_hi', 'p_best', 'score', 'se', 'lo', 'hi']
>>> board.settings["scope"]
'questions'
"""

from __future__ import annotations

import inspect
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from . import decision
from . import eval as ev
from ._validation import (
    Mention,
    Said,
    ValidationError,
    as_names,
    as_numbers,
    as_outcome_array,
    check_bounds,
    check_weight_vector,
    checked_keywords,
    checked_methods,
    unique_names,
)
from .display import Displayed, with_caveats
from .estimands import ASSURANCE, FAMILY_WISE
from .formatting import (
    DRAWS_ATTR,
    TRIALS_NOW,
    a_chance,
    count_text,
    format_number,
    percent,
    shape_text,
    share_percent,
)
from .inference import (
    ADJUSTMENTS,
    NOT_IDENTIFIED,
    SCOPE_HELP,
    SCOPES,
    Inference,
    ScoreStats,
    infer,
    score_stats,
)
from .outcomes import Outcomes, as_outcomes, binary_next, check_name
from .params import MAX_K, LeaderboardParams, Setting, check_value, ks_parse, settings_of
from .posterior import question_moments
from .references import expand
from .spread_prior import SpreadPrior, load_spread_prior

__all__ = ["Leaderboard", "leaderboard", "by_subset", "SubsetBoards", "prior_note",
           "prior_mean", "prior_centre", "row_order", "ROW_ORDER", "tie_note",
           "papers_rule_note", "COLUMN_HELP", "PAIR_HELP", "SUBSET_HELP", "SUBSET_COLUMNS",
           "NO_PAIRS"]

#: One-line meaning of each column, shown as help in the app and in exports.
COLUMN_HELP = {
    "model": "model name",
    "rank": "headline rank = rank_lo: 1 + number of models that decidedly beat this one",
    "rank_lo": "best rank the data allow: 1 + number of models decidedly above this one",
    "rank_hi": "worst rank the data allow: L - number of models this one decidedly beats",
    "p_best": "probability of being first in the stated scope (calibrated confidence "
    "distribution): the share of its draws in which the model comes first, so 0 is first in "
    "none of them (tables: <0.001), not impossible",
    "score": "mean weighted score over all trials (avg@N): unbiased for both scopes; the "
    "rows are in its order, highest first; exact ties ROW_ORDER",
    "se": "standard error of score in the stated scope",
    "lo": "lower end of the calibrated interval in the stated scope",
    "hi": "upper end of the calibrated interval in the stated scope",
    "bayes_mu": "the papers' Bayes@N posterior mean (uniform Dirichlet prior per question, "
    "plus R0 when used): pulled towards the prior mean when N is small",
    "bayes_sigma": "the papers' Bayes@N posterior s.d. (questions scope)",
    "bayes_lo": "the papers' interval bayes_mu - z bayes_sigma (clipped to the score range)",
    "bayes_hi": "the papers' interval bayes_mu + z bayes_sigma (clipped to the score range)",
    "rank_chain": "000 §2.7.1 adjacent rule on Bayes@N: neighbours whose z is below the "
    "one-sided threshold share a rank (can chain many decided models into one rank)",
    "rank_overlap": "arena rule: 1 + number of models whose interval lies entirely above",
    "rank_mu": "strict rank by bayes_mu alone (ties share; the papers' point ranking)",
    "t_next": "paired t statistic against the next model down (stated scope)",
    "trials_needed_papers": "the papers' expected-z rule (000 App. D): trials per question at "
    "which the Bayes@N z to the next model reaches the threshold if the rates held (a 50% "
    f"point, not an assurance; the Planner gives the trials or questions for "
    f"{a_chance(ASSURANCE)} of deciding the pair); where the rule is already met the numbers "
    "(board.table, CSV, JSON) hold today's N and the tables for people read 'met now' (met "
    "by the papers' rule, not necessarily decided by the rank columns); ∞ (inf in CSV and "
    "JSON): a tie no number of trials orders",
    # a template (scorio_core.display.column_meanings): one declaration for pass@2, pass@8
    "pass@{k}": "Pass@{k}: chance that at least one of {k} trials is correct; the unbiased "
    "estimate 1 - C(N-c, {k})/C(N, {k}) from each question's c correct of N trials, averaged "
    "over the questions (binary data)",
}
#: How the board orders its rows (and every table that follows it: the undecided pairs, the
#: Planner's pairs and budget split, the forest plot): by ``score``; an exact tie (equal
#: totals, a gap of exactly 0: :func:`scorio_core.eval.count_mean`) by ``bayes_mu``, which
#: orders as ``score`` does except where greedy outcomes R0 enter its prior; then the data's
#: own order of the models. Not by ``p_best``: between tied models it differs only by how
#: spread each model's scores are, which no ordering should read as a lead.
ROW_ORDER = ("by bayes_mu (which orders as score does except where greedy outcomes R0 enter "
             "its prior), then in the data's order of the models; not by p_best, which "
             "between tied models reflects only how spread each one's scores are")
COLUMN_HELP["score"] = COLUMN_HELP["score"].replace("ROW_ORDER", ROW_ORDER)
COLUMN_HELP = {k: expand(v) for k, v in COLUMN_HELP.items()}  # papers by title

#: One-line meaning of each column of an undecided adjacent pair (:meth:`Leaderboard.
#: unresolved`; the Planner's pairs table repeats them): the board's two neighbours and
#: today's paired test of them.
PAIR_HELP = {
    "better": "the upper model of two neighbours in the board's order (by score)",
    "next": "the model right below it",
    "gap": "score(better) - score(next): the difference of their mean scores",
    "t": "t statistic of better over next in the stated scope: gap / its standard error "
    "(t_next of better's row)",
    "p_better": "P(better > next): the t distribution at t on the pair's degrees of freedom "
    "(the calibrated confidence distribution of the difference)",
    "p_value": "two-sided p-value of that paired t test, before multiplicity control (the "
    "rank columns decide pairs after it)",
    "trials_needed_papers": COLUMN_HELP["trials_needed_papers"],  # the board's own column
}

#: One-line meaning of each column :func:`by_subset` adds before :data:`SUBSET_COLUMNS`
#: (whose meanings are :data:`COLUMN_HELP`'s, each within its subset).
SUBSET_HELP = {
    "attribute": "the question attribute the rows are split by (e.g. source)",
    "subset": "its value: the questions this row's leaderboard is computed on, alone",
    "questions": "number of questions in the subset",
}

#: What a leaderboard of one model says (its :meth:`Leaderboard.first_line`): its score and
#: interval stand, while ``rank`` 1 and ``p_best`` 1 hold by construction, not by evidence.
ONE_MODEL = ("Could be first: one model, nothing to compare it with — its score and interval "
             "(lo, hi) stand alone, while rank 1 and p_best 1 hold by construction, not by "
             "evidence. Ranking needs at least 2 models.")
#: What a leaderboard of one model says where others count its decided pairs (the exports'
#: header, the heatmap that has nothing to draw, the report's empty ``unresolved`` table).
NO_PAIRS = "one model, so no pairs to decide"


@checked_methods  # board.caption(wide=1): its settings named, not a bare TypeError
@dataclass(frozen=True, repr=False)
class Leaderboard(Displayed):
    """Result of :func:`leaderboard`.

    Every column is computed eagerly as a NumPy array (``columns``); the pandas
    ``table`` is built on first access and cached.

    Attributes
    ----------
    columns : dict of str -> numpy.ndarray
        One entry per column, rows sorted by ``score`` descending (exact ties:
        :data:`ROW_ORDER`, :func:`row_order`).
    score, se : numpy.ndarray, shape (L,)
        Headline mean score and its standard error in the scope, original model order.
    bayes_mu, bayes_sigma : numpy.ndarray, shape (L,)
        The papers' Bayes@N, original model order.
    models : tuple of str
        Original model order (rows/columns of the matrices).
    settings : dict
        The inputs that produced the table (for exports and reports).
    inference : Inference
        Pairwise statistics, decisions and draws (:mod:`scorio_core.inference`).
    stats : ScoreStats
        The per model–question summaries behind them (the Planner projects from these).
    notes : tuple of str
        What the reader must know (e.g. a scope that is not identified).
    spread_prior : SpreadPrior, optional
        The learned prior on the field's spread behind ``p_best`` (``None``: flat).
    caveats : list of str
        What limits it, in sentences: the caveats of the Leaderboard page and the report
        for the same data and settings (the leaderboard definition's one ``caveats``,
        written when the board was made; its notes and :meth:`first_line` among them).

    Example
    -------
    >>> from scorio_core.leaderboard import leaderboard
    >>> import numpy as np
    >>> board = leaderboard(np.random.default_rng(0).integers(0, 2, (3, 20, 4)), draws=500)
    >>> board.table.shape[0], board.settings["scope"], len(board.unresolved().columns)
    (3, 'questions', 7)
    """

    columns: dict[str, np.ndarray]
    score: np.ndarray
    se: np.ndarray
    bayes_mu: np.ndarray
    bayes_sigma: np.ndarray
    models: tuple[str, ...]
    settings: dict[str, Any] = field(default_factory=dict)
    inference: Inference | None = None
    notes: tuple[str, ...] = ()
    stats: ScoreStats | None = None
    spread_prior: SpreadPrior | None = None

    @property
    def decided(self) -> np.ndarray:
        """``decided[i, j]``: model ``i`` decidedly beats ``j`` (original order)."""
        return self.inference.decided

    @property
    def identified(self) -> bool:
        """False when the scope's estimand cannot be estimated (questions scope, N = 1)."""
        return self.inference.identified

    @cached_property
    def table(self) -> pd.DataFrame:
        """One row per model, sorted by ``score`` descending (column meanings: ``COLUMN_HELP``);
        ``attrs["trials_now"]`` is today's N (the text renderers write ``trials_needed_papers``
        at or below it as "met now", :func:`scorio_core.formatting.papers_rule_cells`)."""
        table = pd.DataFrame(self.columns)
        table.attrs[TRIALS_NOW] = int(self.settings["shape"][-1])
        if (drawn := self._drawn(["p_best"])) is not None:
            table.attrs[DRAWS_ATTR] = drawn
        return table

    def _drawn(self, columns) -> dict | None:
        """``{column: draws}`` for the tables' :data:`~scorio_core.formatting.DRAWS_ATTR`: with
        two or more models ``p_best`` and the rank distribution are shares of the confidence
        distribution's draws, so a 0 is "first in none of them", not impossible; with one
        model (``None``) they are 1 by construction."""
        if len(self.models) < 2 or self.inference is None:
            return None
        return dict.fromkeys(columns, int(self.inference.n_draws))

    @property
    def prob_better(self) -> np.ndarray:
        """``P(model i > model j)`` in the board's scope, original model order."""
        return self.inference.prob_better

    def table_order(self) -> np.ndarray:
        """Each table row's model as its index in :attr:`models` (the order of the
        inference's arrays): ``x[board.table_order()]`` is ``x`` in table order.

        Example
        -------
        >>> import numpy as np
        >>> from scorio_core.leaderboard import leaderboard
        >>> c = np.random.default_rng(0).binomial(1, [[[.3]], [[.9]]], (2, 30, 4))
        >>> leaderboard(c, draws=200, models=["a", "b"]).table_order().tolist()
        [1, 0]
        """
        idx = {m: i for i, m in enumerate(self.models)}
        return np.array([idx[m] for m in self.columns["model"]], dtype=int)

    def rank_distribution(self) -> pd.DataFrame:
        """``P(rank = r)`` per model (rows in table order, columns ``1..L``) from the
        confidence distribution of the board's scope."""
        rd = self.inference.rank_dist[self.table_order()]
        ranks = range(1, rd.shape[1] + 1)
        out = pd.DataFrame(rd, index=list(self.columns["model"]), columns=ranks)
        if (drawn := self._drawn(ranks)) is not None:  # shares of draws, as p_best
            out.attrs[DRAWS_ATTR] = drawn
        return out

    def chained_conflicts(self) -> list[tuple[str, str]]:
        """``(winner, loser)`` pairs that ``rank_chain`` puts in one rank although decided."""
        ranks = dict(zip(self.columns["model"], self.columns["rank_chain"], strict=True))
        chain = np.array([ranks[m] for m in self.models])
        return decision.chained_conflicts(chain, self.decided, self.models)

    def unresolved(self) -> pd.DataFrame:
        """Adjacent pairs (leaderboard order) that the decision rule leaves undecided.

        Columns: ``better, next, gap`` (difference of ``score``), ``t`` (paired t in the
        board's scope), ``p_better`` (``P(better > next)``), ``p_value`` (two-sided,
        before multiplicity control) and ``trials_needed_papers`` (the papers' expected-z
        rule, Don't Pass@k (2026), App. D: a 50% point; ``inf`` for identical means; the
        board's column of the same name, as in the Planner's table, whose
        ``trials_needed`` is the 80% plan). The Planner
        gives the trials and questions for an 80% chance of a decision.
        """
        c = self.columns
        cols = ["better", "next", "gap", "t", "p_better", "p_value", "trials_needed_papers"]
        if len(c["model"]) < 2:
            out = pd.DataFrame(columns=cols)
        else:
            order = self.table_order()
            up, low = order[:-1], order[1:]
            pairs = pd.DataFrame(
                {
                    "better": c["model"][:-1],
                    "next": c["model"][1:],
                    "gap": c["score"][:-1] - c["score"][1:],
                    "t": c["t_next"][:-1],
                    "p_better": self.prob_better[up, low],
                    "p_value": self.inference.pvalue[up, low],
                    "trials_needed_papers": c["trials_needed_papers"][:-1],
                }
            )
            keep = ~self.decided[up, low]
            out = pairs[np.asarray(keep)].reset_index(drop=True)
        out.attrs[TRIALS_NOW] = self.table.attrs[TRIALS_NOW]  # today's N, as the table's
        return out

    def could_be_first(self) -> list[str]:
        """The models that could be the best, in table order: a confidence set for the best
        model by multiple comparisons with the best (:attr:`Inference.could_be_first
        <scorio_core.inference.Inference>`); :meth:`first_line` says what it promises.

        Example
        -------
        >>> import numpy as np
        >>> from scorio_core.leaderboard import leaderboard
        >>> c = np.random.default_rng(0).binomial(1, [[[.9]], [[.5]], [[.45]]], (3, 40, 4))
        >>> leaderboard(c, draws=500, models=["a", "b", "c"]).could_be_first()
        ['a']
        """
        first = self.inference.could_be_first[self.table_order()]
        return [m for m, f in zip(self.columns["model"], first, strict=True) if f]

    def first_line(self) -> str:
        """One line naming the models that could be first and what that set promises.

        Each model is compared with its rivals one-sided (comparison with the best): the set
        holds the truly best model with at least the confidence whatever the field and under
        any adjustment -- measured with known truth where ``p_best`` runs high (README, *How
        to read the numbers*). It can be smaller than the models whose rank interval starts
        at 1, which spend the level on every pair.
        """
        s = self.settings
        conf, L = s["confidence"], len(self.models)
        if L == 1:  # a board of one is its interval; the rank columns say nothing
            return ONE_MODEL
        if not self.identified:
            return ("Could be first: not stated — this scope is not identified here, so no "
                    "pair is decided.")
        names = self.could_be_first()
        # "mean score over the questions asked", without the parenthesis of the help text
        best = f"the truly best model (highest {SCOPE_HELP[s['scope']].split(' (')[0]})"
        if len(names) == 1:
            head = (f"First at {percent(conf)}: {names[0]} — every other model is shown not to "
                    "be the best")
        elif len(names) == L:
            head = (f"Could be first at {percent(conf)}: all {L} models — none is shown not to be "
                    "the best")
        else:
            head = (f"Could be first at {percent(conf)}: {', '.join(names)} — {len(names)} of "
                    f"{L} models; each of the others is shown not to be the best")
        first = self.inference.could_be_first
        rank_one = self.inference.rank_lo == 1
        family = s["adjust"] in FAMILY_WISE
        notes = []
        if (rank_one & ~first).any():  # the usual difference: the set is the sharper test
            why = ("those intervals spend the level on every pair at once, this set on each "
                   "model's comparisons with its rivals" if family else
                   "the rank intervals test every pair, this set each model's comparisons with "
                   "its rivals")
            out = [m for m, r, f in zip(self.models, rank_one, first, strict=True)
                   if r and not f]
            notes.append(f"{', '.join(out)} {'is' if len(out) == 1 else 'are'} left out although "
                         f"{'its' if len(out) == 1 else 'their'} rank interval starts at 1: "
                         f"{why}")
        if (first & ~rank_one).any():  # family-wise: rare (a late Holm step); else: usual
            below = [m for m, f, r in zip(self.models, first, rank_one, strict=True)
                     if f and not r]
            why = ("at its later steps the rank intervals' step-down procedure decides "
                   "smaller gaps than this one-step set" if family else
                   f"under {s['adjust']} the rank intervals decide each pair at a level that "
                   "does not hold for the whole field, this set does")
            notes.append(f"{', '.join(below)} also {'has' if len(below) == 1 else 'have'} a "
                         f"rank interval without rank 1: {why}; each statement holds at its "
                         "own confidence")
        extra = f" ({'; '.join(notes)})" if notes else ""
        # the set named where its promise is stated ("Such a set" named none)
        named = (names[0] if len(names) == 1 else f"all {L} models" if len(names) == L
                 else ", ".join(names) if len(names) <= 3 else f"these {len(names)} models")
        return (f"{head}{extra}. The could-be-first set ({named}) holds {best} with at least "
                f"{percent(conf)} chance whatever the field, near-tied leaders included; "
                "`p_best` can run high there.")

    @property
    def t(self) -> np.ndarray:
        """Pairwise paired-``t`` matrix in the board's scope, original model order."""
        return self.inference.t

    def decided_text(self) -> str:
        """How many pairs the rank columns decide, in words: ``"3 of 10 pairs decided"``,
        or -- one model -- :data:`NO_PAIRS` (not "0 of 0 pairs decided").

        Example
        -------
        >>> import numpy as np
        >>> from scorio_core.leaderboard import leaderboard
        >>> leaderboard(np.ones((1, 15, 4), dtype=int)).decided_text()
        'one model, so no pairs to decide'
        """
        L = len(self.models)
        if L < 2:
            return NO_PAIRS
        d = np.asarray(self.decided, dtype=bool)
        return f"{int(np.triu(d | d.T, 1).sum()):,} of {L * (L - 1) // 2:,} pairs decided"

    # ------------------------------------------------------------ display (notebooks)
    def caption(self) -> str:
        """The scope and settings in one line (the notebook display's caption); the data by
        name and shape when the board was made from loaded data.

        Example
        -------
        >>> import numpy as np
        >>> from scorio_core.leaderboard import leaderboard
        >>> b = leaderboard(np.ones((2, 5, 3), dtype=int), draws=200)
        >>> b.caption().split(" · ")[1:3]
        ['95% intervals and decisions, adjustment holm', '2 models × 5 questions × 3 trials']
        """
        from .display import settings_caption
        from .params import is_unset

        s = self.settings
        L, M, N = s["shape"]
        data = (self._about.data if self._about is not None else "") or shape_text(L, M, N)
        head = (f"{s['scope']} scope: {s['estimand']} · {percent(s['confidence'])} intervals and "
                f"decisions, adjustment {s['adjust']} · {data}")
        rest = settings_caption({k: s[k] for k in ("weights", "prior", "ks", "draws", "seed")
                                 if k in s and not is_unset(s[k])})
        return f"{head} · {rest}"

    def charts(self) -> list:
        """The forest plot and the pairwise heatmap (:class:`~scorio_core.definitions.Chart`:
        title, Altair chart, caption), as on the Leaderboard page."""
        from .definitions.leaderboard import LEADERBOARD, LeaderboardResult

        return LEADERBOARD.charts(LeaderboardResult(self, int(self.settings["shape"][-1])))

    def _caption(self, view) -> str:  # the data are in caption() already
        return view.caption

    def __repr__(self) -> str:
        from .display import caveats_text, legend_text, readable
        from .formatting import text_table

        cols = [c for c in ("model", "rank", "rank_lo", "rank_hi", "p_best", "score", "lo",
                            "hi") if c in self.columns]
        shown, said = readable(self.table[cols])  # no column of dashes (N = 1: p_best, lo, hi)
        return "\n".join([f"<Leaderboard: {self.caption()}>",
                          text_table(shown, max_rows=20), *said,
                          *legend_text(shown.columns, COLUMN_HELP),  # as its display says
                          *caveats_text(self.caveats)])


@checked_keywords
def leaderboard(
    data: Outcomes | np.ndarray,
    *,
    w=None,
    R0=None,
    use_prior: bool = False,
    confidence: float = 0.95,
    ks: Sequence[int] = (),
    models: Sequence[str] | None = None,
    bounds: tuple[float, float] | None = None,
    scope: str = "questions",
    adjust: str = ADJUSTMENTS[0],
    draws: int = 10_000,
    seed: int = 0,
    spread_prior=None,
) -> Leaderboard:
    """Calibrated scores, intervals, rank intervals and ``p_best`` for every model at once.

    The headline (``score``, ``lo``, ``hi``, ranks, ``p_best``) estimates the scope's
    estimand with intervals that hold their confidence (:mod:`scorio_core.inference`;
    coverage measured by ``benchmarks/calibration.py``); the papers' Bayes@N sits beside
    it as ``bayes_mu``/``bayes_sigma``/``bayes_lo``/``bayes_hi`` with ``rank_mu`` and
    ``rank_chain``.

    Parameters
    ----------
    data : Outcomes or array_like (L, M, N)
        A 2-D array is refused: it reads two ways (``(L, M)`` with one trial per
        question, as the rankers read it, or one model's ``(M, N)``, as
        :class:`Outcomes` reads it); the message gives the expression of each.
    w : array_like, optional
        Category weights (default: the dataset's weights, else ``[0, 1]``).
    R0 : array_like, optional
        Prior outcomes for the papers' Bayes@N columns; with an :class:`Outcomes`,
        ``use_prior=True`` takes its ``R0``. The headline uses the sampled trials only
        (its estimand is the sampling score).
    confidence : float
        Level of the intervals and of the two-sided pairwise decisions behind
        ``rank``/``rank_lo``/``rank_hi``; also the papers' ``rank_chain`` threshold
        (one-sided z, 1.645 at 0.95, Don't Pass@k (2026), §2.7.1).
    models : sequence of str, optional
        Names for the models, one per model in their order (an :class:`Outcomes` brings
        its own; this renames them). It does not pick models: rank some of them with
        ``sc.leaderboard(data.select(models=["a", "b"]))``; questions are picked with
        ``data.subset(attribute, values)`` and ``data.select(benchmark)``. One string is
        split at its commas (``"a,b"``), but for one model, whose name it is whole.
    ks : int, sequence of int or str
        Pass@k columns to add, e.g. ``(2, 4)`` or ``"2,4"`` as ``--k`` reads it (binary data
        only; raises for categorical data).
    bounds : (lo, hi), optional
        Score range (default: the range of the weights).
    scope : {"questions", "population"}
        ``questions``: the mean over these questions (finite trials only; not identified
        at N = 1, where every interval is NaN and ``notes`` says so). ``population``: the
        mean over the population the questions came from (not identified with one
        question).
    adjust : {"holm", "simultaneous", "bh", "none"}
        Multiplicity control over the ``L(L−1)/2`` pairs; the default (Holm) and
        ``simultaneous`` make the rank intervals hold jointly
        (:data:`scorio_core.inference.ADJUST_HELP`).
    draws, seed : int
        Draws of the confidence distribution (``p_best``, rank distribution) and of the
        simultaneous procedure's null, and their seed.
    spread_prior : SpreadPrior or path, optional
        How spread fields like this one usually are, learned from earlier runs
        (:func:`scorio_core.fit_spread_prior`, or the JSON file it saved): ``p_best``, the
        rank distribution and the Planner's chances read it instead of the flat prior,
        which the field's own means cannot correct with two or three models or few
        questions. The intervals, decisions and ranks do not depend on it.

    Returns
    -------
    Leaderboard

    Example
    -------
    >>> import scorio_core as sc
    >>> board = sc.leaderboard(sc.load("data/biased_coins.npz"))
    >>> board.table[["model", "rank", "rank_lo", "rank_hi"]].head(3).values.tolist()
    [['LLM_11', 1, 1, 1], ['LLM_9', 2, 2, 3], ['LLM_10', 2, 2, 3]]
    >>> board  # in a notebook: the formatted table, the forest plot and the settings
    <Leaderboard: questions scope: ...>
    ...
    """
    board = _computed(data, w=w, R0=R0, use_prior=use_prior, confidence=confidence, ks=ks,
                      models=models, bounds=bounds, scope=scope, adjust=adjust, draws=draws,
                      seed=seed, spread_prior=spread_prior)
    return _with_caveats(board, data, prior_label(spread_prior))


#: :func:`leaderboard`'s settings and their defaults, the one declaration
#: :func:`bare_leaderboard` binds its call to.
_SETTINGS = inspect.signature(leaderboard)


def bare_leaderboard(data: Outcomes | np.ndarray, **settings: Any) -> Leaderboard:
    """:func:`leaderboard`'s board without its caveats, for loops that read only its numbers
    (the Planner's calibration studies build thousands of boards): the same settings and
    defaults, the same computation (:func:`leaderboard` is this board with the caveats
    added), so every column, statistic and decision is the public board's, bit for bit. What
    it skips is the definition's caveats -- among them the could-be-first set, a second
    simultaneous procedure -- so its ``caveats`` are ``[]``: not a board to show a reader.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.leaderboard import bare_leaderboard, leaderboard
    >>> R = np.random.default_rng(0).integers(0, 2, (3, 20, 4))
    >>> bare, board = bare_leaderboard(R, draws=500), leaderboard(R, draws=500)
    >>> bare.table.equals(board.table), bare.caveats, len(board.caveats) > 0
    (True, [], True)
    """
    call = _SETTINGS.bind(data, **settings)
    call.apply_defaults()
    return _computed(**call.arguments)


def _computed(data, *, w, R0, use_prior, confidence, ks, models, bounds, scope, adjust, draws,
              seed, spread_prior) -> Leaderboard:
    """The board of :func:`leaderboard` (its settings as it takes them), before its caveats."""
    if isinstance(w, str):  # "0,0.5,1", as --weights reads it
        w = check_weight_vector(w, "w")
    if isinstance(data, Outcomes):
        R = data.R
        if w is not None and np.size(w) != data.C + 1:
            raise ValidationError(
                f"w has {np.size(w)} weights but the data have {data.C + 1} categories "
                f"({', '.join(data.category_names)}); give one weight per category"
            )
        w = data.weights if w is None else w
        if use_prior:
            if R0 is None and data.R0 is None:
                raise ValidationError("use_prior=True but this dataset has no R0 (greedy) outcomes")
            R0 = data.R0 if R0 is None else R0
        models = data.models if models is None else models
    else:  # a 2-D array reads two ways: refused with the expression of each
        R = as_outcome_array(data, name="data", min_ndim=3, max_ndim=3, takes_outcomes=True)
    if scope not in SCOPES:
        raise ValidationError(f"scope must be one of {SCOPES}; got {scope!r}")
    if adjust not in ADJUSTMENTS:
        raise ValidationError(f"adjust must be one of {ADJUSTMENTS}; got {adjust!r}")
    if isinstance(draws, bool) or not isinstance(draws, int | np.integer) \
            or not 1 <= draws <= 10_000_000:
        raise ValidationError(f"draws must be a whole number between 1 and 10,000,000; "
                              f"got {draws!r}")
    seed = check_value("seed", _plain(seed), settings_of(LeaderboardParams)["seed"][1])
    # ks=2: the Pass@2 column; "2,4" as --k reads it
    ks = as_numbers(ks, "ks", parse=ks_parse("ks"), example="2,4")
    ks = tuple(check_value("k", _plain(k), _K) for k in ks)
    L = R.shape[0]
    if models is None:
        models = tuple(f"model_{i}" for i in range(L))
    else:  # names end up in HTML, Markdown and spreadsheets: the Outcomes rules apply
        models = as_names(models, "models", noun="model names", count=L)  # a string: split
        models = unique_names([check_name(m, "model name") for m in models], "model names")
    if len(models) != L:
        pick = ("; models= names the models in their order, it does not pick them: to "
                "rank some of them, pass data.select(models=[...]) "
                f"(this dataset's models: {', '.join(data.models[:30])}"
                f"{f', … ({L} in all)' if L > 30 else ''})"
                if isinstance(data, Outcomes) else
                "; models= names the models of the array in its order (to rank some of "
                "them, pass the array's rows R[[i, j]], or sc.Outcomes(R, models=[...])"
                ".select(models=[...]))")
        raise ValidationError(f"expected {L} model names; got {len(models)}{pick}")
    # counts first: one validation and one pass over R; every column comes from them
    n, n0, wv = ev.prepare_counts(R, w, R0)
    bounds = check_bounds(bounds)
    if bounds is None:
        bounds = (float(wv.min()), float(wv.max()))
    N = R.shape[-1]
    st = score_stats(n, wv, bounds)
    if spread_prior is not None and not isinstance(spread_prior, SpreadPrior):
        spread_prior = load_spread_prior(spread_prior)
    inf = infer(st, scope, confidence, adjust, draws, seed, spread_prior)
    q = question_moments(n, wv, n0)  # the papers' Bayes@N (000 §2, eqs. 4-5)
    mu = q.mu
    b_sigma = np.sqrt(q.v.sum(-1)) / q.m.shape[-1]
    z = ev.z_value(confidence)
    b_lo, b_hi = np.clip(mu - z * b_sigma, *bounds), np.clip(mu + z * b_sigma, *bounds)

    order = row_order(inf.score, mu)
    cols: dict[str, Any] = {
        "model": np.asarray(models, dtype=object)[order],
        "rank": inf.rank_lo[order],
        "rank_lo": inf.rank_lo[order],
        "rank_hi": inf.rank_hi[order],
        "p_best": inf.p_best[order],
        "score": inf.score[order],
        "se": inf.se[order],
        "lo": inf.lo[order],
        "hi": inf.hi[order],
        "bayes_mu": mu[order],
        "bayes_sigma": b_sigma[order],
        "bayes_lo": b_lo[order],
        "bayes_hi": b_hi[order],
        "rank_chain": decision.ci_aware_ranks(mu, b_sigma, confidence)[order],
        "rank_overlap": decision.overlap_ranks(inf.lo, inf.hi)[order],
        "rank_mu": decision.point_ranks(mu)[order],
    }
    if ks:
        if wv.size != 2:
            # each surface names the settings its own way: ks= / --k / the page's box
            leave_out = Said("Leave out ", Mention(LeaderboardParams, "ks"), " to rank them by "
                             "Bayes@N as they are (each category by its weight)")
            next_step = " " + (leave_out + "." if not isinstance(data, Outcomes) else
                               binary_next(data, instead=leave_out,
                                           to="to add the Pass@k columns"))
            raise ValidationError(
                f"Pass@k columns need binary outcomes; these data have {wv.size} "
                "categories." + next_step)
        c = n[..., 1]
        for k in ks:
            cols[f"pass@{int(k)}"] = np.atleast_1d(ev.pass_from_counts(c, N, k))[order]
    if L > 1:
        up, low = order[:-1], order[1:]
        _, need_n = decision.expected_z_trials(
            mu[up] - mu[low], np.sqrt(b_sigma[up] ** 2 + b_sigma[low] ** 2), N, q.T, confidence
        )
        need_n = np.where(mu[up] > mu[low], need_n, np.inf)  # Bayes@N does not order them so
        # the rule already met today reads N (not the formula's 1 .. N - 1, which looked
        # like "one trial is enough" beside a pair the calibrated test leaves undecided)
        need_n = np.maximum(need_n, N)
        cols["t_next"] = np.append(inf.t[order[:-1], order[1:]], np.nan)
        cols["trials_needed_papers"] = np.append(need_n, np.nan)
    D = 0 if R0 is None else int(np.shape(R0)[-1])
    notes = () if inf.identified else (NOT_IDENTIFIED[scope],)
    if note := tie_note(cols["model"], cols["score"]):  # where the order rule decides rows
        notes += (note,)
    if L > 1:  # the papers' rule met beside a pair the rank columns leave open: say why
        open_ = ~(inf.decided[up, low] | inf.decided[low, up])
        met = open_ & np.isfinite(need_n) & (need_n <= N)
        named = [f"{a} vs {b}" for a, b, m in zip(cols["model"][:-1], cols["model"][1:], met,
                                                   strict=True) if m]
        if note := papers_rule_note(named, int(open_.sum()), N, scope, inf.identified,
                                    confidence, adjust):
            notes += (note,)
    settings = {
        "scope": scope,
        "estimand": SCOPE_HELP[scope],
        "confidence": confidence,
        "adjust": adjust,
        "z_threshold": decision.z_threshold(confidence),
        "draws": int(draws),
        "seed": int(seed),
        "weights": wv.tolist(),
        "prior": "uniform" if R0 is None else f"uniform + R0 with D={D}",
        "prior_weight": (wv.size + D) / q.T,
        "ks": list(ks),
        "shape": list(R.shape),
        "spread_prior": "flat" if spread_prior is None else spread_prior.describe(scope),
    }
    board = Leaderboard(
        columns=cols, score=inf.score, se=inf.se, bayes_mu=mu, bayes_sigma=b_sigma,
        models=models, settings=settings, inference=inf, notes=notes, stats=st,
        spread_prior=spread_prior,
    )
    return board


def row_order(score: np.ndarray, bayes_mu: np.ndarray) -> np.ndarray:
    """The board's rows as indices into its models (:data:`ROW_ORDER`): by ``score``, highest
    first; an exact tie by ``bayes_mu``; then the models' order in the data.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.leaderboard import row_order
    >>> row_order(np.array([0.5, 0.7, 0.7, 0.7]), np.array([0.5, 0.6, 0.6, 0.65])).tolist()
    [3, 1, 2, 0]
    """
    score, mu = np.asarray(score, dtype=float), np.asarray(bayes_mu, dtype=float)
    return np.lexsort((np.arange(score.size), -mu, -score))


def tie_note(models: Sequence[str], score: np.ndarray) -> str | None:
    """The board's note on its exact ties (``models`` and ``score`` in table order): which
    models have identical scores and how their rows are ordered (:data:`ROW_ORDER`), so a
    reader does not take the order of tied rows for a lead; ``None`` without a tie.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.leaderboard import tie_note
    >>> print(tie_note(["a", "b", "c", "d"], np.array([0.7, 0.5, 0.5, 0.5])).split(", listed")[0])
    b, c and d have identical scores (0.5000): an exact tie
    >>> tie_note(["a", "b"], np.array([0.7, 0.5])) is None
    True
    """
    score = np.asarray(score, dtype=float)
    groups: list[list[int]] = []
    for k in range(1, score.size):
        if score[k] == score[k - 1]:
            if groups and groups[-1][-1] == k - 1:
                groups[-1].append(k)
            else:
                groups.append([k - 1, k])
    if not groups:
        return None
    said = []
    for g in groups:
        names = [str(models[k]) for k in g]
        who = names[0] + " and " + names[1] if len(names) == 2 else \
            ", ".join(names[:-1]) + " and " + names[-1]
        said.append(f"{who} have identical scores ({format_number(score[g[0]])})")
    return ("; ".join(said) + (": exact ties, each" if len(groups) > 1 else ": an exact tie,")
            + " listed " + ROW_ORDER + ".")


def prior_label(spread_prior: Any) -> str | None:
    """How the caveats name a call's ``spread_prior``: its file, that the call gave the
    prior itself, or ``None`` (the flat prior)."""
    if spread_prior is None:
        return None
    return "given to the call" if isinstance(spread_prior, SpreadPrior) else str(spread_prior)


def caveat_data(data: Outcomes | np.ndarray, board: Leaderboard) -> Outcomes:
    """``data`` as a definition's caveats read it: loaded data as they are; an array as
    :class:`Outcomes` with the board's weights and model names (every category named, so
    weights for categories the array does not hold are kept as the board took them).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.leaderboard import caveat_data, leaderboard
    >>> R = np.ones((2, 5, 3), dtype=int)
    >>> caveat_data(R, leaderboard(R, w=[0, 0.5, 1], draws=200)).weights.tolist()
    [0.0, 0.5, 1.0]
    """
    if isinstance(data, Outcomes):
        return data
    R = as_outcome_array(data, name="data", min_ndim=3, max_ndim=3)
    w = board.settings["weights"]
    return Outcomes(R, weights=w, models=board.models,
                    category_names=[f"cat{k}" for k in range(len(w))] if len(w) > 2 else None)


def _with_caveats(board: Leaderboard, data: Outcomes | np.ndarray,
                  prior_given: str | None) -> Leaderboard:
    """``board`` with the caveats the leaderboard's one definition writes for these data and
    settings (what its page, ``sc.ANALYSES["leaderboard"]`` and the report list): the board
    keeps the sentences, not the data (:func:`scorio_core.display.with_caveats`)."""
    from .definitions.leaderboard import LEADERBOARD, LeaderboardResult

    s = board.settings
    params = LeaderboardParams(  # the settings the caveats read, as the call took them
        confidence=s["confidence"], prior="uniform" if s["prior"] == "uniform" else "greedy",
        ks=tuple(s["ks"]), scope=s["scope"], adjust=s["adjust"], spread_prior=prior_given)
    loaded = caveat_data(data, board)
    run = LeaderboardResult(board, loaded.N, attributes=tuple(loaded.question_attributes))
    return with_caveats(board, LEADERBOARD, params, loaded, run,
                        label=None if isinstance(data, Outcomes) else "")


#: The rank columns' multiplicity control in words (the note on 'met now').
_ADJUST_WORDS = {"holm": "Holm-adjusted", "simultaneous": "adjusted over all pairs at once",
                 "bh": "Benjamini–Hochberg-adjusted", "none": "per pair"}


def papers_rule_note(named: Sequence[str], undecided: int, N: int, scope: str,
                     identified: bool, confidence: float, adjust: str) -> str | None:
    """The board's note on undecided adjacent pairs (``named``, "a vs b", of ``undecided``)
    whose papers' rule reads "met now" in ``trials_needed_papers``: two
    verdicts side by side in one row, said apart -- the papers' one-sided z on Bayes@N with
    no multiplicity control against the rank columns' two-sided, adjusted decision. Where
    the scope is not identified (questions scope at ``N = 1``, population scope at
    ``M = 1``) the rank columns decide no pair: the note says so, and what the papers' rule
    then rests on, instead of pointing to trials that would. ``None`` when no such pair.

    Example
    -------
    >>> from scorio_core.leaderboard import papers_rule_note
    >>> papers_rule_note(["a vs b"], 2, 4, "questions", True, 0.95, "holm").split(" in ")[0]
    "1 of the 2 undecided adjacent pairs (a vs b) reads 'met now'"
    >>> one = papers_rule_note(["a vs b"], 1, 1, "questions", False, 0.95, "holm")
    >>> "questions scope decides no pair at N = 1" in one
    True
    """
    if not named:
        return None
    k, pairs = len(named), ", ".join(named)
    if not identified:  # questions scope at N = 1, population scope at M = 1
        one = "at N = 1" if scope == "questions" else "with one question"
        why = ("whose uniform prior stands in for the trial noise one trial per question "
               "does not show" if scope == "questions" else
               "whose spread comes from the trials alone (the questions scope's)")
        then = ("no trials can be planned from it. Read the population scope, or run at least "
                "2 trials per question." if scope == "questions" else
                "it says nothing of other questions. Read the questions scope, or add "
                "questions.")
        return (f"trials_needed_papers reads 'met now' for {pairs}, yet the {scope} "
                f"scope decides no pair {one} (t_next and the intervals are empty): it is the "
                f"papers' rule — a one-sided z at {percent(confidence)} with no multiplicity "
                f"control on Bayes@N, {why} — their verdict, not a decision, and {then}")
    rule = (f"the papers' rule (a one-sided z on Bayes@N at {percent(confidence)}, no multiplicity "
            "control)")
    if scope == "population":
        what = ("the Planner's questions_needed says what would (trials cannot be planned "
                "from one trial per question)" if N < 2 else
                "the Planner's questions_needed (and trials_needed, where trials can settle "
                "them) says what would")
    else:
        what = "the Planner's trials_needed says what would"
    return (f"{k} of the {undecided} undecided adjacent pairs ({pairs}) "
            f"{'reads' if k == 1 else 'read'} 'met now' in trials_needed_papers: "
            f"{rule} is met with today's trials, while the rank columns, two-sided and "
            f"{_ADJUST_WORDS.get(adjust, adjust)}, do not decide "
            f"{'it' if k == 1 else 'them'} yet — {what}.")


#: A ``k`` of the Pass@k columns (at most ``N``, checked against the data).
_K = Setting("k of a Pass@k column", integer=True, minimum=1, maximum=MAX_K)


def _plain(v):
    """NumPy integers as Python ints (seeds and ``k`` often come from arrays)."""
    return int(v) if isinstance(v, np.integer) else v


#: Columns of :func:`by_subset` (after ``attribute``, ``subset``, ``questions``).
SUBSET_COLUMNS = ("model", "rank", "rank_lo", "rank_hi", "p_best", "score", "se", "lo", "hi")


class SubsetBoards(Displayed, pd.DataFrame):
    """The table of :func:`by_subset`: a pandas DataFrame to compute with (``t["score"]``,
    ``t[t["subset"] == "a"]``; the frames made from it are plain DataFrames) that displays
    itself as every other result does -- the scope and the settings, the rows in the core's
    formats (as the report's ``by_subset`` table) and the caveats of the per-subset
    leaderboards -- not as a raw frame."""

    _metadata = ["_about"]  # kept when pickled (a cache, a worker)

    @property
    def _constructor(self):  # a slice or a computation is a plain frame again
        return pd.DataFrame

    def _caption(self, view) -> str:  # scope, confidence and adjustment are in the view's
        from .display import run_caption

        return " · ".join(t for t in (view.caption, run_caption(
            self._about, skip=("attribute", "scope", "confidence", "adjust"))) if t)


@checked_keywords(also=lambda: [k for k in inspect.signature(leaderboard).parameters
                                     if k != "data"])
def by_subset(data: Outcomes, attribute: str, **kwargs: Any) -> SubsetBoards:
    """The leaderboard of each value of a question attribute on its own questions.

    Each subset gets :func:`leaderboard` with the same keywords, so its scores, intervals and
    ranks carry the same estimands and calibration as the whole (a subset is just a smaller
    set of questions); nothing is adjusted across subsets.

    Returns
    -------
    SubsetBoards
        A pandas DataFrame: ``attribute, subset, questions`` and :data:`SUBSET_COLUMNS`, one
        row per subset and model (models in each subset's leaderboard order). In a notebook
        it displays its scope, settings and caveats, the numbers in the reports' formats.

    Example
    -------
    >>> import numpy as np
    >>> o = sc.Outcomes(np.random.default_rng(0).integers(0, 2, (2, 6, 4)),
    ...              question_attributes={"source": ["a", "b"] * 3})
    >>> t = sc.by_subset(o, "source", scope="population")
    >>> t[["subset", "questions"]].drop_duplicates().values.tolist()
    [['a', 3], ['b', 3]]
    >>> [c[:34] for c in t.caveats if "subset" in c]  # what its display lists under it
    ["Per subset (source): each subset's", '2 of 2 subsets have fewer than 15 ']
    """
    from .definitions._base import common_caveats
    from .definitions.leaderboard import subset_caveats
    from .display import About, data_label, remember

    data = as_outcomes(data, "by_subset")  # an array has no attributes; a 2-D one two readings
    frames = []
    for value in data.attribute_values(attribute):
        sub = data.subset(attribute, value)
        board = leaderboard(sub, **kwargs)
        t = board.table.loc[:, list(SUBSET_COLUMNS)]
        t.insert(0, "questions", sub.M)
        t.insert(0, "subset", value)
        t.insert(0, "attribute", attribute)
        frames.append(t)
    table = SubsetBoards(pd.concat(frames, ignore_index=True))
    if (drawn := board._drawn(["p_best"])) is not None:  # the same models in every subset
        table.attrs[DRAWS_ATTR] = drawn
    s = board.settings  # every subset's, but its shape
    settings = {"attribute": attribute, "scope": s["scope"], "confidence": s["confidence"],
                "adjust": s["adjust"], **{k: s[k] for k in ("weights", "prior", "ks", "draws",
                                                             "seed") if s[k] not in ([], None)}}
    if (given := prior_label(kwargs.get("spread_prior"))) is not None:
        settings["spread_prior"] = given
    caveats = common_caveats(data) + subset_caveats(attribute, table, s["confidence"],
                                                    s["scope"])
    return remember(table, About(None, None, data_label(data), tuple(caveats), settings))


def prior_mean(weights) -> float:
    """The mean score of the papers' uniform Dirichlet prior on one question: every category
    gets one prior pseudo-count, so its mean is the average of the category weights -- 0.5
    for right/wrong, 1/3 for the weights 0, 0, 1. ``bayes_mu`` is ``score`` pulled towards it
    (:func:`prior_note`); every text that names the prior's mean takes it from here.

    Example
    -------
    >>> from scorio_core.leaderboard import prior_mean
    >>> prior_mean([0, 1]), round(prior_mean([0, 0, 1]), 4), prior_mean([0, 0.5, 1])
    (0.5, 0.3333, 0.5)
    """
    w = np.asarray(weights, dtype=float).ravel()
    return float(w.mean())


def prior_centre(settings: dict) -> str:
    """Where the papers' Bayes@N prior pulls ``bayes_mu``, in words, for a board's
    ``settings``: the uniform prior's mean (:func:`prior_mean` of the weights) or, with the
    greedy outcomes R0, that prior plus each question's greedy outcomes (their own centre
    per question).

    Example
    -------
    >>> from scorio_core.leaderboard import prior_centre
    >>> prior_centre({"weights": [0, 0, 1], "prior": "uniform"})
    "the uniform prior's mean 0.3333"
    >>> prior_centre({"weights": [0, 1], "prior": "uniform + R0 with D=1"})
    "the uniform prior (mean 0.5) plus each question's greedy outcomes"
    """
    mean = prior_mean(settings.get("weights", [0.0, 1.0]))
    centre = format_number(mean, 4).rstrip("0").rstrip(".")
    if str(settings.get("prior", "uniform")).startswith("uniform + R0"):
        return f"the uniform prior (mean {centre}) plus each question's greedy outcomes"
    return f"the uniform prior's mean {centre}"


def prior_note(board: Leaderboard, threshold: float = 0.2) -> str | None:
    """One line explaining ``bayes_mu`` vs ``score`` when the papers' prior carries a large
    weight.

    Bayes@N adds ``1 + C + D`` prior pseudo-counts per question to the ``N``
    trials, so ``bayes_mu`` is ``score`` shrunk towards the prior's mean by the
    fraction ``(1 + C + D) / T``. Returns ``None`` when that fraction is below
    ``threshold``.

    Example
    -------
    >>> from scorio_core.leaderboard import leaderboard, prior_note
    >>> import numpy as np
    >>> b = leaderboard(np.ones((1, 15, 4), dtype=int))
    >>> prior_note(b)[:40]
    'With N = 4 trials per question the paper'
    """
    s = board.settings
    share = float(s.get("prior_weight", 0.0))
    if share < threshold:
        return None
    N = s["shape"][-1]
    return (
        f"With N = {count_text(N, 'trial')} per question the papers' prior holds "
        f"{share_percent(share)} of each question's posterior, so `bayes_mu` is `score` pulled "
        f"{share_percent(share)} of the way towards {prior_centre(s)} and its interval misses "
        "the truth on skewed benchmarks; the headline `score`, `lo`, `hi` carry no such pull."
    )


class _CallableModule(types.ModuleType):
    """``import scorio_core as sc; sc.leaderboard(data)``. Once this module is imported, Python
    binds the package attribute ``scorio_core.leaderboard`` to the module (submodules always
    win over a package's own names), so calling the module calls :func:`leaderboard`."""

    def __call__(self, *args, **kwargs) -> Leaderboard:
        return leaderboard(*args, **kwargs)


__signature__ = inspect.signature(leaderboard)  # help()/inspect of the callable module
sys.modules[__name__].__class__ = _CallableModule
