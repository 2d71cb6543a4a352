"""Pair view: two models question by question -- the paired difference with its calibrated
interval in both scopes (the leaderboard's numbers for that pair), the questions that drive
the gap, and one question's completions side by side with each repeat's score.

Renders :func:`scorio_core.engines.pair.compare_pair` and
:func:`~scorio_core.engines.pair.flip_table` with :func:`scorio_core.charts.gap_drivers`.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions import ANALYSES
>>> pair = ANALYSES["pair"]
>>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 30, 4)), models=["a", "b", "c"])
>>> result = pair.run(data, pair.params(a="a", b="c"))
>>> list(pair.tables(result)), result.flips.question == result.comparison.questions.question[0]
(['summary', 'questions', 'flips', 'repeats'], True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..display import Shown
from ..engines.pair import (
    PER_QUESTION,
    FlipTable,
    PairComparison,
    answer_key,
    compare_pair,
    flip_table,
    gap_view,
    model_index,
)
from ..formatting import percent
from ..outcomes import ONE_MODEL_NEXT, Outcomes
from ..params import PairParams
from ._base import (
    PRINTED_ROWS,
    Analysis,
    Chart,
    Progress,
    TableView,
    common_caveats,
    settings_code,
)

__all__ = ["PairParams", "PairResult", "PAIR", "COLUMNS", "default_pair", "TEXT_CELL",
           "summary_view", "interval_note", "by_model", "question_table", "question_view",
           "repeats_note"]

#: Longest text per cell in the exported tables and the report (the page shows it all).
TEXT_CELL = 2000


@dataclass(frozen=True, repr=False)
class PairResult(Shown):
    """The :class:`~scorio_core.engines.pair.PairComparison`, the chosen question's
    :class:`~scorio_core.engines.pair.FlipTable` and how many questions the chart draws
    (and a report's questions table shows)."""

    analysis_id = "pair"
    main_table = "summary"
    also_shown = ("question_texts",)  # the chosen question's own texts, where the data have them

    comparison: PairComparison
    flips: FlipTable
    top: int


def default_pair(data: Outcomes, a: str | None = None, b: str | None = None) -> tuple[str, str]:
    """``(a, b)`` with the gaps filled: the models with the highest mean score (original order
    breaks ties), skipping the one already named."""
    from ..eval import category_counts, count_mean

    # the board's exact means: models tied in exact arithmetic keep the data's order
    n = category_counts(data.R, data.C).sum(-2)
    mean = count_mean(n, data.weights, data.M * data.N)
    ranked = [data.models[i] for i in np.argsort(-mean, kind="stable")]
    if a is not None:
        model_index(data, a)
    if b is not None:
        model_index(data, b)
    a = a or next(m for m in ranked if m != b)
    b = b or next(m for m in ranked if m != a)
    return a, b


def _run(data: Outcomes, p: PairParams, progress: Progress | None = None) -> PairResult:
    del progress  # fast: two models' summaries and one question's texts
    a, b = default_pair(data, p.a, p.b)
    cmp = compare_pair(data, a, b, p.confidence)
    question = p.question if p.question is not None else str(cmp.questions["question"].iloc[0])
    return PairResult(cmp, flip_table(data, a, b, question), p.top)


def _cut(df: pd.DataFrame) -> pd.DataFrame:
    """Text cells cut at :data:`TEXT_CELL` characters (exports and reports stay readable);
    a text column is ``object`` or, with pandas 3, ``str`` (which ``dtype == object`` missed:
    nothing was cut)."""
    out = df.copy()
    for c in out.columns:
        if out[c].dtype == object or pd.api.types.is_string_dtype(out[c]):
            out[c] = out[c].map(lambda v: v[:TEXT_CELL] + " [...]"
                                if isinstance(v, str) and len(v) > TEXT_CELL else v)
    return out


def _key(f: FlipTable) -> dict[str, str]:
    """The question (and, pooled, its benchmark) as columns: which question a row is of."""
    return {"question": f.question} | ({"benchmark": f.benchmark} if f.benchmark else {})


def question_table(f: FlipTable) -> pd.DataFrame | None:
    """The question's own texts (:data:`~scorio_core.engines.pair.PER_QUESTION`: input,
    target, metadata -- the same for every trial of both models) as one row after the
    question's id (and, pooled, its benchmark), whole: the table the exports hold. ``None``
    when the data carry none of them for this question.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.pair import question_table
    >>> from scorio_core.engines.pair import FlipTable
    >>> f = FlipTable("7", "a", "b", pd.DataFrame(), pd.DataFrame(),
    ...               {"target": "4", "input": "2 + 2?"}, True)
    >>> question_table(f).to_dict("records")
    [{'question': '7', 'input': '2 + 2?', 'target': '4'}]
    """
    texts = {c: f.context[c] for c in PER_QUESTION if c in f.context}
    return pd.DataFrame([_key(f) | texts]) if texts else None


def question_view(f: FlipTable) -> TableView | None:
    """The question's own texts as a reader's rendering prints them (the report, the
    notebook's cell, a result's display): :func:`question_table` with each text cut at
    :data:`TEXT_CELL` characters, the line under it saying which were cut and from how
    many characters (the CSV/JSON export holds them whole); ``None`` without such texts.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.pair import TEXT_CELL, question_view
    >>> from scorio_core.engines.pair import FlipTable
    >>> f = FlipTable("7", "a", "b", pd.DataFrame(), pd.DataFrame(),
    ...               {"input": "x" * 2500, "target": "4"}, True)
    >>> view = question_view(f)
    >>> len(view.table["input"][0]) == TEXT_CELL + len(" [...]"), view.note
    (True, 'input: its first 2,000 of 2,500 characters; the CSV/JSON export has it whole.')
    """
    table = question_table(f)
    if table is None:
        return None
    texts = [c for c in PER_QUESTION if c in table]
    cut = [(c, len(table[c][0])) for c in texts
           if isinstance(table[c][0], str) and len(table[c][0]) > TEXT_CELL]
    if not cut:
        return TableView(table, None)
    said = "; ".join(f"{c}: its first {TEXT_CELL:,} of {n:,} characters" for c, n in cut)
    return TableView(_cut(table), f"{said}; the CSV/JSON export has "
                                  f"{'it' if len(cut) == 1 else 'them'} whole.")


def _tables(r: PairResult) -> dict:
    f = r.flips
    key = _key(f)  # which question every exported trial belongs to
    question = question_table(f)
    return {
        "summary": r.comparison.summary,
        "questions": r.comparison.questions,  # every question: the exports list them all
        # the question's own texts once, whole, above the two models' trials
        **({"question_texts": question} if question is not None else {}),
        "flips": _cut(f.trials.assign(**key)[[*key, *f.trials.columns]]),
        "repeats": _cut(f.groups),
    }


def summary_view(summary: pd.DataFrame) -> TableView:
    """The pair's summary as a reader's rendering shows it (the report, the notebook's cell,
    the page): without ``model_a`` and ``model_b``, the same two names on every row, said
    once in the line under it -- two long names (``anthropic/claude-3-5-sonnet-20241022``)
    ran the table past a 1280 px screen's column. The CSV/JSON export keeps them.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.definitions.pair import summary_view
    >>> from scorio_core.engines.pair import compare_pair
    >>> R = np.array([[[1, 1], [1, 0]], [[1, 0], [0, 0]]])
    >>> data = Outcomes(R, models=["x/a-1", "y/b-2"])
    >>> view = summary_view(compare_pair(data, "x/a-1", "y/b-2").summary)
    >>> list(view.table)[:4], view.note
    (['scope', 'score_a', 'score_b', 'diff'], 'diff = a − b, a = x/a-1, b = y/b-2.')
    """
    a, b = summary["model_a"].iloc[0], summary["model_b"].iloc[0]
    return TableView(summary.drop(columns=["model_a", "model_b"]),
                     f"diff = a − b, a = {a}, b = {b}.")


def interval_note(confidence: float) -> str:
    """What the summary's ``lo``–``hi`` are and when its verdict is decided, in one line: the
    Pair page says it under the summary, whose verdicts it explains.

    Example
    -------
    >>> from scorio_core.definitions.pair import interval_note
    >>> print(interval_note(0.9))  # doctest: +NORMALIZE_WHITESPACE
    lo–hi: diff's 90% interval (the leaderboard's numbers for this pair); the verdict is
    decided when it excludes 0, without the leaderboard's multiplicity control.
    """
    return (f"lo–hi: diff's {percent(confidence)} interval (the leaderboard's numbers for this "
            "pair); the verdict is decided when it excludes 0, without the leaderboard's "
            "multiplicity control.")


def outcome_pairs(flips: pd.DataFrame) -> pd.DataFrame:
    """One question's trials grouped by the two models' outcomes, the commonest first:
    what the flip table says when there are no texts to read (which trial gave a pair of
    scores says nothing then). ``repeats`` counts the trials of each pair.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.pair import outcome_pairs
    >>> t = pd.DataFrame({"question": "q", "trial": range(4), "flip": [1, 0, 1, 0],
    ...                   "category_a": ["right"] * 4, "score_a": 1.0,
    ...                   "category_b": ["wrong", "right"] * 2, "score_b": [0.0, 1.0] * 2})
    >>> outcome_pairs(t.assign(flip=t.flip.astype(bool)))[["category_b", "repeats"]].values.tolist()
    [['wrong', 2], ['right', 2]]
    """
    keys = [c for c in ("question", "benchmark") if c in flips]
    keys += ["flip", "category_a", "score_a", "category_b", "score_b"]
    out = flips.groupby(keys, sort=False).size().reset_index(name="repeats")
    return out.sort_values("repeats", ascending=False, kind="stable").reset_index(drop=True)


def first_answers(flips: pd.DataFrame, a: str = "a", b: str = "b",
                  rows: int = PRINTED_ROWS) -> TableView:
    """One question's trials with texts as a printed report shows them when there are more
    than it prints: the first trial on which each model gave each of its distinct answers
    (by ``answer``, else ``output``, else category -- the 'repeats' table's key), in trial
    order, with ``repeats_a``/``repeats_b`` = on how many trials that model gave the row's
    answer. Every distinct answer of both models is read once, with its output, instead of
    the first trials only. With more distinct answers than ``rows`` (free-form outputs), the
    commonest answers' first trials; the note says how many answers have no row.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.pair import first_answers
    >>> t = pd.DataFrame({"question": "q", "trial": range(6), "flip": False,
    ...                   "score_a": 1.0, "answer_a": ["4", "4", "5", "4", "4", "4"],
    ...                   "score_b": 1.0, "answer_b": ["4", "4", "4", "4", "6", "6"]})
    >>> view = first_answers(t, rows=3)
    >>> view.table[["trial", "answer_a", "repeats_a", "answer_b", "repeats_b"]].values.tolist()
    [[0, '4', 5, '4', 4], [2, '5', 1, '4', 4], [4, '4', 5, '6', 2]]
    """
    key = answer_key([c[:-2] for c in flips.columns if c.endswith("_a")]) or "category"
    out = flips.reset_index(drop=True)
    n, items, values, size = len(out), [], {}, {}
    for tag in ("a", "b"):
        col = out[f"{key}_{tag}"].astype(object)
        values[tag] = col.where(col.notna(), "")  # a trial without text: one answer, ""
        g = pd.Series(range(n)).groupby(values[tag].to_numpy(), sort=False)
        first, size[tag] = g.min(), g.size()
        out.insert(out.columns.get_loc(f"{key}_{tag}") + 1, f"repeats_{tag}",
                   values[tag].map(size[tag]).astype(int))
        items += [(-int(size[tag][v]), int(first[v])) for v in first.index]
    picked: list[int] = []
    for _, pos in sorted(items):  # the commonest answers first, then the earliest
        if pos not in picked and len(picked) < rows:
            picked.append(pos)
    picked.sort()
    missing = {t: set(size[t].index) - set(values[t].iloc[picked]) for t in ("a", "b")}
    noun = {"answer": "answers", "output": "outputs", "category": "categories"}[key]
    distinct = f"{len(size['a']):,} distinct for {a}, {len(size['b']):,} for {b}"
    if missing["a"] or missing["b"]:
        lost = sum(int(size[t][v]) for t in ("a", "b") for v in missing[t])
        note = (f"Shown: {len(picked):,} of the {n:,} trials, the first on which each model "
                f"gave each of its {noun}, the commonest first, as many as fit ({distinct}). "
                f"Not printed: {len(missing['a']):,} of {a}'s and {len(missing['b']):,} of "
                f"{b}'s {noun}, given on {lost:,} of the {2 * n:,} completions. ")
    else:
        note = (f"Shown: {len(picked):,} of the {n:,} trials, the first on which each model "
                f"gave each of its {noun} ({distinct}). Not printed: the other "
                f"{n - len(picked):,} trials, which repeat these. ")
    return TableView(out.iloc[picked].reset_index(drop=True), note + (
        "The 'repeats' table lists the trials of each model's answers; the CSV/JSON export "
        "has every trial with its texts."))


def by_model(flips: pd.DataFrame, a: str = "a", b: str = "b",
             meaning: str | None = None) -> TableView:
    """One question's trials with texts as a printed report shows them: two rows per trial,
    ``a``'s above ``b``'s, with one column per text (``answer``, ``output``, ...) instead of
    one per text and model -- side by side, the two models' texts took six narrow columns of
    fifteen and ran past a 1280 px screen. Columns that repeat are left out and said in the
    note: the question (and its benchmark), the same on every row, and ``output`` where it
    is the ``answer`` on every row; ``prompt`` (the whole prompt sent, in-context examples
    included: thousands of characters a row) is left out with a line. The CSV/JSON export
    keeps the side-by-side table with every text. ``meaning``: what the ``trial`` numbers
    are (:attr:`~scorio_core.engines.pair.FlipTable.trial_meaning`), said in the note; where
    the two models' rows are different trials of their files (``trial_a``, ``trial_b``),
    each row has its own model's.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.pair import by_model
    >>> t = pd.DataFrame({"question": "q", "trial": [0, 1], "flip": [True, False],
    ...                   "score_a": 1.0, "answer_a": ["4", "4"], "output_a": ["4", "4"],
    ...                   "score_b": [0.0, 1.0], "answer_b": ["5", "4"],
    ...                   "output_b": ["5", "4"]})
    >>> view = by_model(t, "m1", "m2")
    >>> list(view.table)
    ['trial', 'flip', 'model', 'score', 'answer']
    >>> view.table[["trial", "model", "answer"]].values.tolist()
    [[0, 'm1', '4'], [0, 'm2', '5'], [1, 'm1', '4'], [1, 'm2', '4']]
    >>> print(view.note)  # doctest: +NORMALIZE_WHITESPACE
    Question q: one row per trial and model, m1's above m2's (flip = the two scores
    differ); output is left out, the same as answer on every row.
    """
    flips = flips.reset_index(drop=True)
    shared = [c for c in flips.columns if not str(c).endswith(("_a", "_b"))]
    own = [str(c)[:-2] for c in flips.columns if str(c).endswith("_a")]
    at = shared.index("flip") + 1 if "flip" in shared else len(shared)
    sides = []
    for k, (tag, model) in enumerate((("a", a), ("b", b))):
        side = flips[shared].copy()
        side.insert(at, "model", model)
        for c in own:  # a Series keeps its dtype (trial ids: whole numbers, NA kept)
            side[c] = flips[f"{c}_{tag}"] if f"{c}_{tag}" in flips else None
        sides.append(side.set_axis(2 * np.arange(len(flips)) + k))  # a's row, then b's
    out = pd.concat(sides).sort_index().reset_index(drop=True)
    if "trial" in own:  # each model's own trial number (trial_a, trial_b): first, as shared
        out = out[["trial", *(c for c in out.columns if c != "trial")]]
    same = {c: flips[c].iloc[0] for c in ("question", "benchmark")
            if c in flips and len(flips) and flips[c].nunique(dropna=False) == 1}
    out = out.drop(columns=list(same))
    said = (f"Question {same['question']}" if "question" in same else "These trials") + (
        f" (benchmark {same['benchmark']})" if "benchmark" in same else "")
    said += f": one row per trial and model, {a}'s above {b}'s (flip = the two scores differ"
    said += f"; trial = {meaning})" if meaning else ")"
    if "trial" in own:
        said += ("; each row's trial is its own model's: one model lacks a trial (e.g. an "
                 f"errored sample), so a row of {a} and the row of {b} below it can be "
                 "different trials of their files")
    if {"answer", "output"} <= set(out) and out["answer"].astype(object).equals(
            out["output"].astype(object)):
        out = out.drop(columns="output")
        said += "; output is left out, the same as answer on every row"
    if "prompt" in out:  # the whole prompt sent (HELM: the in-context examples, each trial's
        # own): thousands of characters a row, the same for both models at a trial
        out = out.drop(columns="prompt")
        said += ("; prompt (the full prompt sent) is left out: the Pair page shows one trial's "
                 "in full and the CSV/JSON export has every one")
    if "repeats" in out:  # from first_answers' repeats_a, repeats_b
        said += "; repeats = on how many trials that model gave the row's answer"
    return TableView(out, said + ".")


def trial_runs(trials: str) -> str:
    """A list of trial numbers (``"0, 1, 2, 3, 5"``) with its runs of three or more written
    as ranges (``"0–3, 5"``): the repeats table's ``trials`` as a printed report shows them.

    Example
    -------
    >>> from scorio_core.definitions.pair import trial_runs
    >>> trial_runs("0, 1, 2, 3, 5, 7, 8, 10, 11, 12")
    '0–3, 5, 7, 8, 10–12'
    """
    items = [t.strip() for t in str(trials).split(",") if t.strip()]
    if not all(t.isdigit() for t in items):
        return str(trials)
    nums, out, i = [int(t) for t in items], [], 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out += ([f"{nums[i]}–{nums[j]}"] if j - i >= 2 else list(map(str, nums[i:j + 1])))
        i = j + 1
    return ", ".join(out)


def _views(r: PairResult, tables: dict) -> dict[str, TableView]:
    """A report shows the summary without the two names on every row (:func:`summary_view`),
    the chart's questions (:func:`~scorio_core.engines.pair.gap_view`:
    the same rows, same order) and says what the others add up to; without completion texts
    the flips come grouped by outcome (:func:`outcome_pairs`), with texts and more trials
    than it prints, the first trial of each distinct answer (:func:`first_answers`); with
    texts, two rows per trial (:func:`by_model`)."""
    a, b = r.comparison.a, r.comparison.b
    views = {"summary": summary_view(tables["summary"]),
             "questions": TableView(*gap_view(tables["questions"], r.top))}
    if (question := question_view(r.flips)) is not None:
        views["question_texts"] = question
    flips = tables["flips"]
    if not shows_texts(r) and len(flips):
        views["flips"] = TableView(outcome_pairs(flips), (
            f"The {len(flips):,} trials grouped by the two models' outcomes (no completion "
            "texts to read side by side): repeats = the trials that gave that pair; the "
            "CSV/JSON export lists each trial."))
    elif len(flips):  # texts: two rows per trial, so half as many trials fit the page
        first = (first_answers(flips, a, b, rows=PRINTED_ROWS // 2)
                 if 2 * len(flips) > PRINTED_ROWS else TableView(flips, None))
        stacked = by_model(first.table, a, b, r.flips.trial_meaning)
        views["flips"] = TableView(stacked.table, " ".join(filter(None, (
            stacked.note, first.note or "The CSV/JSON export has each trial with both "
            "models' texts side by side."))))
    repeats = tables["repeats"]
    if "trials" in repeats and len(repeats):
        runs = repeats.assign(trials=repeats["trials"].map(trial_runs))
        said = repeats_note(r.flips)
        if not runs["trials"].equals(repeats["trials"]):
            said += (" Runs of consecutive trials are written as ranges (1–4 = 1, 2, 3, 4); "
                     "the CSV/JSON export lists each.")
        views["repeats"] = TableView(runs, said)
    return views


def repeats_note(f: FlipTable) -> str:
    """The line under the repeats grouped that says what its ``trials`` list: the trials
    numbered as the user's files number them (the flip table's ``trial``).

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.pair import repeats_note
    >>> from scorio_core.engines.pair import FlipTable
    >>> f = FlipTable("q", "a", "b", pd.DataFrame(), pd.DataFrame(), {}, False,
    ...               trial_meaning="the sample's epoch in the Inspect log")
    >>> repeats_note(f)
    "trials: the trials that gave the row's answer, numbered as in the flips (the sample's \
epoch in the Inspect log)."
    """
    said = f" ({f.trial_meaning})" if f.trial_meaning else ""
    return f"trials: the trials that gave the row's answer, numbered as in the flips{said}."


def gap_chart(c: PairComparison, top: int) -> Chart:
    """The chart of the ``top`` questions that drive the gap of ``c`` (the pair view's chart;
    ``sc.compare_pair``'s display draws it too)."""
    from .. import charts  # altair: after the tables

    return Chart(f"Questions that drive the gap: {c.a} − {c.b}",
                 charts.gap_drivers(c.questions, c.a, c.b, top), charts.GAP_DRIVERS_CAPTION)


def _charts(r: PairResult) -> list[Chart]:
    return [gap_chart(r.comparison, r.top)]


def _caveats(data: Outcomes, p: PairParams, r: PairResult) -> list[str]:
    out = common_caveats(data)
    out.extend(r.comparison.notes)
    out.append(
        f"Decided here means this pair's {percent(p.confidence)} interval excludes 0, with no "
        "multiplicity control over the other models' pairs; the leaderboard's rank columns "
        "control it (family-wise, Holm by default), so a pair decided here may be undecided there."
    )
    if data.samples is None:
        out.append("These data carry no completion texts (an .npz or a table without text "
                   "columns): the flip table shows each repeat's score only.")
    elif not shows_texts(r):
        out.append(f"The sample store has no text for question {r.flips.question!r}.")
    else:  # only where texts are shown: how they are shown
        out.append("Completion texts come from the logs as written: shown as plain text, never "
                   "rendered as HTML or Markdown; CSV cells that start like a formula are "
                   "quoted.")
    return out


def shows_texts(r: PairResult) -> bool:
    """Whether the flip table holds completion texts (answers, outputs) beside the scores."""
    return any(c.endswith("_a") and c[:-2] not in ("category", "score", "trial")
               for c in r.flips.trials.columns)


def _to_code(p: PairParams, data: str = "data") -> str:
    return (
        "import scorio_core as sc\n"
        "from scorio_core import charts\n"
        "from scorio_core.definitions.pair import question_view, summary_view\n\n"
        f"pair_view = sc.pair({data}, {settings_code(p)})\n"
        "pair_cmp = pair_view.comparison  # summary (both scopes), questions driving the gap\n"
        "pair_a, pair_b = pair_cmp.a, pair_cmp.b\n"
        "pair_flips = pair_view.flips  # one question's repeats, texts side by side\n"
        "# the difference in both scopes; the question's own texts (input, target), if any\n"
        "sc.display.show(summary_view(pair_cmp.summary), question_view(pair_flips))"
    )


def _requires(data: Outcomes) -> str | None:
    if data.L < 2:
        return (f"the pair view needs at least 2 models; these data have {data.L}. "
                f"{ONE_MODEL_NEXT}")
    return None


#: What a column of the pair's texts holds, by the text's name (``output``, ``answer``,
#: ``reasoning``, a table's own text column: the data name them).
_TEXT = "as the data hold it (a report cuts a long one; the export has it whole)"
#: The question (and, pooled, its benchmark) of a row.
_WHICH = {"question": "the question's id",
          "benchmark": "the question's benchmark, where the data pool several"}
#: What each column of the pair view's tables holds (:attr:`Analysis.columns`).
COLUMNS = {
    "summary": {
        "scope": "questions: the difference on these questions (only the trials are "
                 "uncertain); population: over the population they were drawn from",
        "model_a": "the pair's first model, a",
        "model_b": "its second model, b",
        "score_a": "a's mean score over all its trials (the leaderboard's score)",
        "score_b": "b's mean score over all its trials",
        "diff": "score_a - score_b",
        "se": "standard error of diff in the row's scope (population: paired over the "
              "questions; questions: from each model's trials)",
        "lo": "lower end of diff's interval at the confidence (t on df)",
        "hi": "upper end of diff's interval at the confidence",
        "t": "t statistic: diff / se",
        "p_value": "two-sided p-value of that t on df degrees of freedom, this pair alone (no "
                   "multiplicity control over the other pairs)",
        "p_a_better": "P(a > b): the t distribution at t on df degrees of freedom (the "
                      "calibrated confidence distribution of the difference)",
        "verdict": "'a better' or 'b better' where the interval excludes 0, else undecided",
        "df": "degrees of freedom of the t reference: M - 1 in the population scope; the "
              "trials' (Welch-Satterthwaite, at most M(N - 1) per model) in the questions "
              "scope",
        "estimand": "the row's estimand in words",
    },
    "questions": {
        **_WHICH,
        "score_a": "a's mean score over its trials on the question",
        "score_b": "b's mean score over its trials on the question",
        "diff": "score_a - score_b on the question",
        "contribution": "diff / M: the question's part of the mean difference (over every "
                        "question they sum to it)",
        "cumulative": "running sum of contribution down the table (over every question it "
                      "ends at the mean difference; a report's, over the rows it shows)",
        "se_trials": "standard error of diff from the two models' trials on the question "
                     "alone (— at N = 1)",
    },
    "question_texts": {
        **_WHICH,
        "input": "the question, " + _TEXT,
        "target": "its expected answer",
        "metadata": "the sample's metadata, " + _TEXT,
    },
    "flips": {
        **_WHICH,
        "trial": "the trial's number as the data give it (an Inspect epoch, an lm-eval "
                 "repeat from 1, HELM's train_trial_index, a table's trial column, else its "
                 "place from 1; the line under the table says which)",
        "trial_a": "a's own trial number, where a's and b's rows are different trials of "
                   "their files",
        "trial_b": "b's own trial number, likewise",
        "flip": "whether the two models' scores differ on the trial",
        "category_a": "a's outcome category on the trial",
        "score_a": "a's score on the trial (its category's weight)",
        "category_b": "b's outcome category on the trial",
        "score_b": "b's score on the trial",
        "{text}_a": "a's {text} of the trial, " + _TEXT,
        "{text}_b": "b's {text} of the trial, " + _TEXT,
        # a report's rows: one per trial and model (by_model), or per pair of outcomes
        "model": "whose completion the row is",
        "category": "that model's outcome category on the trial",
        "score": "that model's score on the trial",
        "repeats": "the trials the row stands for: with texts, on how many trials that "
                   "model gave the row's answer; without, how many trials gave this pair of "
                   "outcomes",
        "{text}": "that model's {text} of the trial, " + _TEXT,
    },
    "repeats": {
        "model": "model name",
        "answer": "a distinct answer the model gave (extracted from its output)",
        "output": "a distinct output the model gave",
        "category": "an outcome category the model had (the data carry no answers)",
        "repeats": "on how many trials the model gave it",
        "trials": "which trials, numbered as in the flips (a report writes runs as ranges)",
        "mean_score": "the model's mean score over those trials",
    },
}


PAIR = Analysis(
    id="pair",
    title="Pair view",
    params=PairParams,
    run=_run,
    tables=_tables,
    views=_views,
    charts=_charts,
    how_to_read=(
        "Two models on the same questions. The summary gives their difference of mean score "
        "(a − b) with its interval in both scopes, with the paired t, the two-sided p-value "
        "and P(a > b): the same numbers as the leaderboard's for this pair. 'questions' lists "
        "every question in the order they push the difference towards the leader; a report "
        "shows the chart's rows, the questions that move the difference most either way, "
        "and one line with what the others add. 'question_texts' gives the chosen "
        "question's own texts once, where the data carry them (the same for every trial of "
        "both models). 'flips' shows that question's repeats: each trial with its category "
        "and score for both models and, when the data carry them, every text of each "
        "completion (reasoning, output, answer, explanation, annotations, error, prompt: "
        "what the logs kept), two rows per trial, one per model (a report counts the trials "
        "of each pair of outcomes when there are no texts; with more trials than fit its "
        f"{PRINTED_ROWS} rows, it shows the first trial of each distinct answer with how many "
        "trials gave it), and 'repeats' groups each model's identical answers — the table to "
        "read before believing a gap. Each table's columns are explained under it."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=("charts.gap_drivers(pair_cmp.questions, pair_a, pair_b)",),
    requires=_requires,
    result_var="pair_cmp",
    resolved=lambda p, r: {
        **({"a": r.comparison.a} if p.a is None else {}),
        **({"b": r.comparison.b} if p.b is None else {}),
        **({"question": r.flips.question} if p.question is None else {}),
    },
    columns=COLUMNS,
)
