"""Question view: every model's success on every question, difficulty and discrimination
(2PL IRT), the questions that carry no information and those where models disagree most.

Renders :func:`scorio_core.engines.questions.question_stats` with
:func:`scorio_core.charts.question_heatmap` and :func:`~scorio_core.charts.item_map`.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions import ANALYSES
>>> qv = ANALYSES["questions"]
>>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (4, 30, 6)))
>>> list(qv.tables(qv.run(data, qv.params(irt=False))))
['questions', 'disagree', 'uninformative']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..display import Shown
from ..engines.questions import (
    MAX_DIFFICULTY,
    NO_DIFFICULTY,
    NO_ESTIMATE,
    NO_INFORMATION_TEXT,
    STATUS_HELP,
    QuestionStats,
    by_attribute,
    question_stats,
)
from ..formatting import count_text
from ..outcomes import Outcomes, binary_next
from ..params import QuestionsParams
from ._base import (
    PRINTED_ROWS,
    Analysis,
    Chart,
    Progress,
    TableView,
    common_caveats,
    resolve_by,
    settings_code,
    subset_caveat,
    subset_of,
)

__all__ = ["QuestionsParams", "QuestionsResult", "QUESTIONS", "QUESTION_ENDS", "COLUMNS",
           "irt_next"]

#: A report of more questions than it prints (:data:`~scorio_core.definitions.PRINTED_ROWS`)
#: shows this many easiest and as many hardest (:func:`questions_view`).
QUESTION_ENDS = 20


@dataclass(frozen=True, repr=False)
class QuestionsResult(Shown):
    """The :class:`~scorio_core.engines.questions.QuestionStats`, the settings' heatmap width
    and top-n, the per-subset summary (``None`` without question attributes), and where an
    asked-for 2PL fit could not run on categorical data, what fits it (:func:`irt_next`)."""

    analysis_id = "questions"
    main_table = "questions"

    stats: QuestionStats
    columns: int
    top: int
    subsets: pd.DataFrame | None = None
    by: str | None = None
    irt_next: str | None = None


def irt_next(data: Outcomes) -> str | None:
    """What fits the 2PL model on categorical or graded ``data``, which it cannot take as they
    are: the loader option that counts a trial correct, tried on these data
    (:func:`~scorio_core.outcomes.binary_next`) -- said in the caveats and by the Questions
    page's 2PL switch; ``None`` for binary data.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.definitions.questions import irt_next
    >>> o = sc.Outcomes(np.array([[[0, 1, 2]], [[2, 2, 1]]]), weights=[0, 0.5, 1],
    ...                 category_names=["I (incorrect)", "P (partial)", "C (correct)"])
    >>> "correct=['C']; correct_from=0.5" in irt_next(o), irt_next(o.binarized(correct="C"))
    (True, None)
    """
    if data.is_binary:
        return None
    return binary_next(data, "the 2PL fit", to="to fit the 2PL model",
                       instead="Read the mean score and disagreement, which weigh each "
                       "category as it is")


def _run(data: Outcomes, p: QuestionsParams, progress: Progress | None = None) -> QuestionsResult:
    del progress  # about a second at 100 models x 500 questions x 64 trials
    data = subset_of(data, p.subset)
    stats = question_stats(data, irt=p.irt)
    by = resolve_by(data, p.by)
    subsets = by_attribute(stats, by) if by is not None else None
    return QuestionsResult(stats, p.heatmap_columns, p.top, subsets, by,
                           irt_next(data) if p.irt else None)


def _tables(r: QuestionsResult) -> dict:
    out = {"questions": r.stats.table, "disagree": r.stats.disagree(r.top),
           "uninformative": r.stats.uninformative}
    if r.subsets is not None:
        out["by_subset"] = r.subsets
    return out


def questions_view(questions: pd.DataFrame, disagree: bool = True) -> TableView | None:
    """The questions a printed report shows when there are more than it prints
    (:data:`~scorio_core.definitions.PRINTED_ROWS`; ``None``: every one): the
    :data:`QUESTION_ENDS` easiest and as many hardest -- saturated and unsolved questions,
    where broken items show -- and between them the questions to look at, those that rank
    models against the rest (``item_rest_r < 0``) or have a status (no 2PL item), the
    lowest ``item_rest_r`` first when there are more than the rows left. The table's order
    (easiest first) is kept; one line says what the others are. Where the models disagree
    most is the 'disagree' table's (``disagree``: whether the reader has it).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.definitions.questions import questions_view
    >>> from scorio_core.engines.questions import question_stats
    >>> R = (np.random.default_rng(0).random((5, 90, 4)) < np.linspace(.05, .95, 90)[:, None])
    >>> view = questions_view(question_stats(sc.Outcomes(R.astype(int)), irt=False).table)
    >>> len(view.table) >= 40, view.note[:52]
    (True, 'Shown: the 20 easiest and the 20 hardest of the 90 q')
    """
    m, ends = len(questions), QUESTION_ENDS
    if m <= PRINTED_ROWS:
        return None
    middle = questions.iloc[ends:m - ends]
    odd = middle[(middle["item_rest_r"] < 0) | (middle["status"] != "")]
    which = ("rank models against the rest (item_rest_r < 0) or have a status (no 2PL "
             "estimate or difficulty; always right, always wrong or all tied)")
    between = f", and the {len(odd):,} between them that {which}"
    room = PRINTED_ROWS - 2 * ends
    if len(odd) > room:  # the worst of them: a status first, then the lowest item_rest_r
        key = odd["item_rest_r"].where(odd["status"] == "", -np.inf).fillna(-np.inf)
        between = (f", and {room} of the {len(odd):,} between them that {which}: a status "
                   "first, then the lowest item_rest_r")
        odd = odd.loc[key.sort_values(kind="stable").index[:room]].sort_index()
    elif odd.empty:
        between = " (none between them has item_rest_r < 0 or a status)"
    picked = pd.concat([questions.iloc[:ends], odd, questions.iloc[m - ends:]])
    rest = middle.drop(index=odd.index)["mean"]
    return TableView(picked.reset_index(drop=True), (
        f"Shown: the {ends} easiest and the {ends} hardest of the {m:,} questions{between}; "
        f"not printed: the other {len(rest):,} (mean {rest.max():.4f} to {rest.min():.4f}). "
        + ("'disagree' lists the questions where the models differ most; " if disagree
           else "") + "the CSV/JSON export has every question."))


def _views(r: QuestionsResult, tables: dict) -> dict[str, TableView]:
    """The questions a printed report has room for (:func:`questions_view`), and
    'disagree' only where it adds something: with ``top`` at least the number of
    questions it holds every question of the 'questions' table, in another order, so a
    report says so in one line instead of printing the same rows again."""
    questions, disagree = tables["questions"], tables["disagree"]
    views = {}
    repeats = len(questions) > 0 and len(disagree) >= len(questions)
    if (shown := questions_view(questions, disagree=not repeats)) is not None:
        views["questions"] = shown
    if repeats:
        views["disagree"] = TableView(disagree.iloc[:0], (
            f"Not shown: top = {r.top:,} covers all {len(questions):,} questions, so this "
            "table would repeat the 'questions' table, only ordered by disagreement (the "
            "CSV/JSON export has it)."))
    return views


def _charts(r: QuestionsResult) -> list[Chart]:
    from .. import charts

    _, width = r.stats.heatmap_frame(r.columns)
    binned = f" (adjacent questions averaged in bins of {width})" if width > 1 else ""
    empty = (None if "converged" in r.stats.irt else f"2PL fit {r.stats.irt}."
             + (" " + r.irt_next if r.irt_next else ""))
    n_bad = len(r.stats.collapsed)
    left_out = (f" Left out: {count_text(n_bad, 'informative question')} without both 2PL "
                "parameters "
                "(status 'no 2PL estimate' or 'no 2PL difficulty'; see the caveats)."
                if n_bad else "")
    return [
        Chart("Models × questions", charts.question_heatmap(r.stats, r.columns),
              "Each cell is one model's mean score over its trials on one question" + binned
              + "; models best first, questions easiest first: a row that stays bright further "
              "right is a stronger model, and dark cells left of a model's edge are the easy "
              "questions it misses."),
        Chart("Difficulty and discrimination", charts.item_map(r.stats),
              "One point per informative question: 2PL difficulty b (right = harder) and "
              "discrimination a (up = separates stronger from weaker models more sharply); "
              "colour = how much the models disagree on it." + left_out, empty),
    ]


def _caveats(data: Outcomes, p: QuestionsParams, r: QuestionsResult) -> list[str]:
    data = subset_of(data, p.subset)
    out = common_caveats(data) + subset_caveat(data, p.subset)
    irt = r.stats.irt
    ran = not irt.startswith("not run")
    if irt != "converged":
        out.append(f"2PL IRT {irt}: difficulty and discrimination are the last iterate of "
                   "the fit; read them as rough." if ran else
                   f"2PL IRT {irt}, so difficulty and discrimination are missing (—). "
                   + r.irt_next if r.irt_next else
                   f"2PL IRT {irt}, so difficulty and discrimination are missing (—); the "
                   "mean score and disagreement do not need them.")
    if ran and data.L < 10:
        out.append(f"Only {data.L} models: 2PL item parameters rest on {data.L} abilities per "
                   "question and are noisy (a weak log-normal prior on the slopes keeps them "
                   "finite); the mean score and disagreement are the robust columns.")
    out += _no_2pl_caveats(r.stats)
    n_un = len(r.stats.uninformative)
    if n_un:
        out.append(f"{n_un} of {count_text(data.M, 'question')} "
                   f"{'carries' if n_un == 1 else 'carry'} no information: "
                   f"{NO_INFORMATION_TEXT} (they still count "
                   "in every model's mean score).")
    return out


def _named(questions: pd.Series, most: int = 5) -> str:
    """``q34, q35, ...``: the first ``most`` of ``questions``."""
    names = questions.astype(str)
    return ", ".join(names.head(most)) + (", ..." if len(names) > most else "")


def _no_2pl_caveats(stats: QuestionStats) -> list[str]:
    """One line per kind of informative question without a 2PL item, saying what failed
    and why its parameters are blank (:mod:`scorio_core.engines.questions`)."""
    bad, out = stats.collapsed, []
    none = bad[bad["status"] == NO_ESTIMATE]
    if len(none):
        one = len(stats.unbounded) == 1
        who = ", ".join(stats.unbounded)
        out.append(
            f"{count_text(len(none), 'question')} {'has' if len(none) == 1 else 'have'} no 2PL "
            f"estimate ({_named(none['question'])}): "
            f"{'it separates' if len(none) == 1 else 'they separate'} only {who} from the other "
            "models, and "
            + ("its 2PL ability is unbounded: it is" if one else
               "their 2PL abilities are unbounded: each is")
            + " wrong (or right) on every question the other models tell apart, so the 2PL "
            "puts it at −∞ (+∞). Any slope then fits such a question perfectly with a "
            "difficulty running off towards that model, so neither parameter is estimable: "
            "difficulty and discrimination are left blank (—), not the fit's runaway "
            "difficulty and the slope prior's 1."
        )
    flat = bad[bad["status"] == NO_DIFFICULTY]
    if len(flat):
        neg, one = int((flat["item_rest_r"] < 0).sum()), len(flat) == 1
        against = (("it ranks models against the rest (item_rest_r < 0)" if neg else
                    "its item_rest_r is not negative") if one else
                   f"{neg} of them {'ranks' if neg == 1 else 'rank'} models against the rest "
                   "(item_rest_r < 0)")
        out.append(
            f"{count_text(len(flat), 'question')} {'has' if one else 'have'} no 2PL difficulty "
            f"({_named(flat['question'])}): {'its' if one else 'their'} slope is near 0 "
            f"(discrimination at most {flat['discrimination'].max():.2f}; {against}, and the "
            "2PL cannot fit a negative slope), so the difficulty −d/a runs off beyond "
            f"±{MAX_DIFFICULTY:g} and is left blank (—); the discrimination is "
            f"{'its' if one else 'their'} estimate."
        )
    return out


def _to_code(p: QuestionsParams, data: str = "data") -> str:
    by = ("question_subsets = per_question.subsets  # per value of the attribute\n"
          if p.by is not None and p.by != "none" else "")
    return (
        "import scorio_core as sc\n"
        "from scorio_core import charts\n"
        "from scorio_core.definitions.questions import questions_view\n\n"
        f"per_question = sc.questions({data}, {settings_code(p)})\n"
        "stats = per_question.stats  # table, disagree(n), uninformative\n"
        f"{by}"
        "disagree = per_question.tables()['disagree']\n"
        "heatmap_columns = per_question.columns\n"
        "# as the report prints it: both ends of a long table (every question: stats.table)\n"
        "sc.display.show(questions_view(stats.table) or stats.table)"
    )


def _requires(data: Outcomes) -> str | None:
    return None


def _resolved(p: QuestionsParams, r: QuestionsResult) -> dict[str, str]:
    """The settings line where the run differs from the words of its settings: an asked-for
    2PL fit that could not run says why (an unset ``by``: its declared word)."""
    out = {}
    if p.irt and r.stats.irt.startswith("not run"):
        out["irt"] = f"yes ({r.stats.irt})"  # "not run: the 2PL model needs binary outcomes"
    return out


#: What the question tables' columns hold ('questions', 'disagree', 'uninformative': the
#: same rows, chosen and ordered differently).
QUESTION_COLUMNS = {
    "question": "the question's id",
    "benchmark": "the question's benchmark, where the data pool several",
    "mean": "the question's mean score over every model and trial (easiest first)",
    "sd_models": "s.d. of the models' mean scores on the question (ddof 1)",
    "disagreement": "the expected gap between two models' mean scores on it: mean "
                    "|score_i - score_j| over the pairs of models (0: all agree)",
    "difficulty": "2PL IRT difficulty b (logits; higher = harder; binary data): the ability "
                  "at which a model solves it half the time; ±∞ when every model always "
                  "solves / misses it; — where status says the 2PL has none",
    "discrimination": "2PL IRT slope a: how sharply the question separates stronger from "
                      "weaker models (a weak log-normal prior keeps it finite; — where status "
                      "says none)",
    "item_rest_r": "correlation across models between the score on the question and the "
                   "mean on the other questions (low or negative: it ranks models unlike the "
                   "rest; — with fewer than 3 models)",
    "status": STATUS_HELP,
    "best": "the model with the highest mean score on the question; 'k tied' when k models "
            "share it (the heatmap's column shows whom; in a notebook, "
            "result.stats.tied(question) lists them); "
            "blank when all tie",
    "worst": "the model with the lowest mean score on it; 'k tied' likewise "
             "(in a notebook, result.stats.tied(question, 'worst'))",
    # a question attribute the data carry (source, ...): the data name it
    "{attribute}": "a question attribute the data carry, as loaded",
}
#: What each column of the question view's tables holds (:attr:`Analysis.columns`).
COLUMNS = {
    "questions": QUESTION_COLUMNS,
    "disagree": QUESTION_COLUMNS,
    "uninformative": QUESTION_COLUMNS,
    "by_subset": {
        "attribute": "the question attribute the rows are split by (e.g. source)",
        "subset": "its value: the questions the row sums up",
        "questions": "number of questions with that value",
        "mean": "mean of their mean scores",
        "uninformative": "how many of them carry no information (every model the same mean "
                         "score)",
        "disagreement": "mean of their disagreement",
        "difficulty_median": "median 2PL difficulty over those with a finite one",
        "discrimination_median": "median 2PL discrimination over those with one",
    },
}


QUESTIONS = Analysis(
    id="questions",
    title="Questions",
    params=QuestionsParams,
    run=_run,
    tables=_tables,
    views=_views,
    charts=_charts,
    how_to_read=(
        "One row per question, easiest first, with its benchmark where the data pool "
        "several (a printed report of more questions than it has "
        "rows for shows the easiest and the hardest, and between them the questions to look "
        "at, with one line on the rest): how well the models do on it, how much they "
        "disagree, its 2PL IRT item parameters (binary data) and whether it ranks the models "
        "as the other questions do. 'uninformative' lists the questions that carry no "
        "information: " + NO_INFORMATION_TEXT + "; 'disagree' the questions where "
        "models differ most; 'by_subset' sums "
        "them up per value of a question attribute (e.g. the source a question comes from). "
        "Each table's columns are explained under it."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=("charts.question_heatmap(stats, heatmap_columns)", "charts.item_map(stats)"),
    requires=_requires,
    result_var="stats",
    resolved=_resolved,
    columns=COLUMNS,
)
