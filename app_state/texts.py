"""Screen-ready text and tables the app shows, computed without Streamlit.

The pages lay out widgets; what they display -- tables with ∞ and — spelled out,
the data overview tables, elapsed/left time, the weights box's parsing, what to
change after a load error, and the code that reproduces a view -- is computed
here, so a notebook (and a test) gets the same text.

Example
-------
>>> import pandas as pd
>>> core_cells(pd.DataFrame({"n": [3.0, float("inf"), None]}), ["n"])["n"].tolist()
['3', '∞', '—']
>>> eta_text(30.0, 0.25)
'0:30 elapsed, about 1:30 left'
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from scorio_core._validation import Mention, Said, ValidationError, said_of
from scorio_core.formatting import (
    RULE_MET,
    SHARE_DECIMALS,
    count_text,
    papers_rule_cells,
    share_percent,
    table_formats,
)
from scorio_core.outcomes import COMBINED, Outcomes

if TYPE_CHECKING:
    from scorio_core.io import LoadOptions

__all__ = [
    "LOAD_NOTES",
    "RULE_MET",
    "core_cells",
    "spelled_columns",
    "papers_rule_cells",
    "board_display",
    "board_columns",
    "PLAN_MORE",
    "plan_columns",
    "tau_columns",
    "eta_text",
    "parse_weights",
    "load_hint",
    "error_text",
    "app_text",
    "app_cell",
    "app_widget",
    "described",
    "setting_label",
    "load_notes",
    "load_notes_text",
    "load_changed_line",
    "SHARE_DECIMALS",
    "SHARE_FORMAT",
    "category_table",
    "signal_table",
    "signal_summary",
    "UPLOAD_FOLDER",
    "code_source",
    "code_notes",
    "data_code",
    "data_charts",
    "analysis_code",
    "report_code",
    "stability_prompt",
    "planner_chance",
    "flips_caption",
    "repeats_caption",
    "questions_caption",
]

#: Metadata the loader adds when it drops, truncates or ignores input (scorio_core.io).
LOAD_NOTES = (
    "on_missing",
    "empty_outcomes",
    "dropped_questions",
    "truncated_to_N",
    "max_N_found",
    "dropped_completions",
    "truncated_to_D",
    "R0_dropped",
    "ignored_columns",
    "ignored_why",
    "where",
    "rows_kept_by_where",
    "model_columns",
    "decoding_note",
    "decoding_spellings",
    "missing_signal_values",
    "extra_arrays_not_loaded",
    "rounded_grades",
    "binarized",
    "numbered_trials",
)


def printf_formats(table: pd.DataFrame) -> dict[str, str]:
    """Each number column's one format as a printf pattern for the app's tables, chosen by
    the core's formatter (:func:`scorio_core.formatting.column_format`) from all the
    column's values: the decimals a CLI table, a report and the leaderboard use for the
    same column (``%.4f`` for scores and probabilities, fewer for large values,
    ``localized`` -- 10,000 -- for counts), with thousands separators where a value reaches
    1,000 (``%,.1f``: 7,826.2 as the CLI prints it; Streamlit's printf takes the ``,`` flag).
    Below 1,000 the pattern has no ``,``: it would draw the same text.

    Example
    -------
    >>> t = pd.DataFrame({"diff": [0.023, 0.5], "df": [7826.24, 99.0], "n": [3, 4],
    ...                   "model": ["a", "b"]})
    >>> printf_formats(t)
    {'diff': '%.4f', 'df': '%,.1f', 'n': 'localized'}
    """
    out = {}
    for c, fmt in zip(table.columns, table_formats(table), strict=True):
        if not pd.api.types.is_numeric_dtype(table[c]) or pd.api.types.is_bool_dtype(table[c]):
            continue
        if fmt.kind == "int":
            out[c] = "localized"  # whole numbers with thousands separators: 10,000
        elif fmt.kind == "float":
            values = pd.to_numeric(table[c], errors="coerce").abs()
            grouped = bool((values[np.isfinite(values)] >= 1000).any())
            out[c] = f"%{',' if grouped else ''}.{fmt.decimals}f"
    return out


#: A cell a printf number column can draw: a plain number (thousands separators aside).
_PLAIN_NUMBER = re.compile(r"^-?[\d,]+(\.\d+)?$")


def spelled_columns(table: pd.DataFrame, n_now: int | None = None) -> list[str]:
    """The number columns of ``table`` that an app table shows as the core's text, the one
    rule of every page: those with a cell the core writes as no plain number -- ``<0.001``
    (a p_best above 0 that rounds to zero, told apart from an exact ``0.000``), ``<0.0001``,
    their mirror ``>0.999`` / ``>0.9999`` (a probability below 1 that rounds to one, told
    apart from an exact ``1.000``), ``∞``/``-∞``, or the papers' trials rule ``met now`` at or
    below ``n_now`` (or the table's own ``attrs["trials_now"]``). A printf number column
    cannot draw these (it wrote ``0.000`` and ``1.000`` where the CLI and the reports say
    ``<0.001`` and ``>0.999``); the other number columns stay numbers (sorted by number) in
    the same decimals (:func:`printf_formats`).

    Example
    -------
    >>> t = pd.DataFrame({"p_best": [0.9996, 0.0004, 0.0], "score": [0.5, 0.25, 0.0],
    ...                   "trials_needed_papers": [3.0, 12.0, 40.0]})
    >>> spelled_columns(t), spelled_columns(t, n_now=4)
    (['p_best'], ['p_best', 'trials_needed_papers'])
    >>> core_cells(t, spelled_columns(t))["p_best"].tolist()
    ['>0.999', '<0.001', '0.000']
    >>> core_cells(pd.DataFrame({"p_best": [1.0]}), ["p_best"])["p_best"].tolist()  # one model
    ['1.000']
    """
    from scorio_core.formatting import MISSING, TRIALS_NOW, format_columns

    numbers = [c for c in table.columns if pd.api.types.is_numeric_dtype(table[c])
               and not pd.api.types.is_bool_dtype(table[c])]
    sub = table[numbers]
    sub.attrs = {**table.attrs, **({TRIALS_NOW: int(n_now)} if n_now is not None else {})}
    return [name for name, fmt, cells in format_columns(sub) if fmt.numeric
            and any(c != MISSING and not _PLAIN_NUMBER.match(c) for c in cells)]


def core_cells(table: pd.DataFrame, columns, n_now: int | None = None) -> pd.DataFrame:
    """``table`` with ``columns`` as text in the core's one format per column
    (:func:`scorio_core.formatting.format_columns`: the decimals the CLI and the reports
    use, ∞ and — spelled out, the papers' trials rule as "met now" at or below ``n_now`` or
    the table's own ``attrs["trials_now"]``) -- for number columns whose ∞, — or "met now"
    a number column cannot show.

    Example
    -------
    >>> t = pd.DataFrame({"t": [2.504, float("inf")], "trials_needed_papers": [4.0, 9.0]})
    >>> core_cells(t, ["t", "trials_needed_papers"], n_now=4).values.tolist()
    [['2.50', 'met now'], ['∞', '9']]
    """
    from scorio_core.formatting import TRIALS_NOW, format_columns

    out = table.copy()
    sub = table[[c for c in columns if c in table.columns]]
    sub.attrs = {**table.attrs, **({TRIALS_NOW: int(n_now)} if n_now is not None else {})}
    for name, _, cells in format_columns(sub):
        out[name] = cells
    return out


def board_display(table: pd.DataFrame, n_now: int | None = None) -> pd.DataFrame:
    """A leaderboard for the screen: ∞ for a tie no number of trials separates, — for
    the last model (it has no next one), :data:`RULE_MET` where today's ``n_now`` trials
    already meet the papers' rule, and any other column the core spells
    (:func:`spelled_columns`: a ``p_best`` of ``<0.001`` or ``>0.999``) as the CLI prints it.

    Example
    -------
    >>> t = pd.DataFrame({"t_next": [2.5, 0.0, None],
    ...                   "trials_needed_papers": [4.0, float("inf"), None],
    ...                   "p_best": [0.9998, 0.0002, 0.0]})
    >>> board_display(t).values.tolist()
    [['2.50', '4', '>0.999'], ['0.00', '∞', '<0.001'], ['—', '—', '0.000']]
    >>> board_display(t, n_now=4)["trials_needed_papers"].tolist()
    ['met now', '∞', '—']
    """
    spelled = dict.fromkeys(["t_next", "trials_needed_papers", *spelled_columns(table, n_now)])
    return core_cells(table, list(spelled), n_now)


#: Leaderboard columns shown under "More columns" rather than in the main table: today's
#: test of each model against the next one down with the papers' 50% rule (``t_next``,
#: ``trials_needed_papers``: for the undecided pairs, the pairs table under the board has
#: them too), the papers' Bayes@N estimate and the two other rank rules. The main table
#: keeps the headline -- the rank and its interval, ``p_best``, the score and its interval,
#: Pass@k -- in two parts that fit the main column of a 1024 px window (with the next-model
#: columns it took three); every column stays in the exports.
BOARD_MORE = ("t_next", "trials_needed_papers", "bayes_mu", "bayes_sigma", "bayes_lo",
              "bayes_hi", "rank_mu", "rank_chain", "rank_overlap")


def board_columns(table: pd.DataFrame) -> tuple[list[str], list[str]]:
    """``(main, more)``: the leaderboard columns of the main table (the headline rank and
    score with their intervals, ``p_best``, Pass@k) and those of "More columns"
    (:data:`BOARD_MORE`, each after ``model``, in that order).

    Example
    -------
    >>> cols = ["model", "rank", "score", "bayes_mu", "rank_chain", "t_next", "pass@1"]
    >>> board_columns(pd.DataFrame(columns=cols))
    (['model', 'rank', 'score', 'pass@1'], ['model', 't_next', 'bayes_mu', 'rank_chain'])
    """
    more = [c for c in BOARD_MORE if c in table.columns]
    main = [c for c in table.columns if c not in more]
    return main, (["model", *more] if more else [])


#: Planner pairs-table columns shown under "More columns" rather than in the main table:
#: what each plan decides on any field (its power) and today's paired test of the pair,
#: with the papers' 50% rule. The main table keeps the plan -- the pair, its gap, the trials
#: and questions needed (for the lead that matters too) and ``p_unsettled`` -- and fits the
#: main column of a 1024 px window; every column stays in the exports.
PLAN_MORE = ("trials_gap", "questions_gap", "t", "p_better", "p_value", "trials_needed_papers")


def plan_columns(table: pd.DataFrame) -> tuple[list[str], list[str]]:
    """``(main, more)``: the Planner's pairs-table columns of the main table and those of
    "More columns" (:data:`PLAN_MORE`, after ``better`` and ``next``), as
    :func:`board_columns` splits the leaderboard's.

    Example
    -------
    >>> cols = ["better", "next", "gap", "trials_needed", "trials_gap", "t", "p_unsettled"]
    >>> plan_columns(pd.DataFrame(columns=cols))
    (['better', 'next', 'gap', 'trials_needed', 'p_unsettled'], ['better', 'next', \
'trials_gap', 't'])
    """
    more = [c for c in PLAN_MORE if c in table.columns]
    main = [c for c in table.columns if c not in more]
    return main, (["better", "next", *more] if more else [])


#: Questions-page table columns shown under "More columns" rather than in the main table:
#: the 2PL IRT fit (difficulty and discrimination, with the status that says where it has
#: none or the question carries no information) and the item-rest correlation. The main
#: table keeps how well the models do on the question, how much they disagree and the best
#: and worst model, and fits the main column of a 1024 px window (with the 2PL columns it
#: ran past it from ``discrimination`` on); every column stays in the exports.
QUESTION_MORE = ("difficulty", "discrimination", "item_rest_r", "status")


def question_columns(table: pd.DataFrame) -> tuple[list[str], list[str]]:
    """``(main, more)``: the columns of a Questions-page table in its main table and those
    of "More columns" (:data:`QUESTION_MORE`, after the columns that say which question a
    row is: :func:`app_state.table_fit.key_columns`), as :func:`board_columns` splits the
    leaderboard's.

    Example
    -------
    >>> cols = ["question", "source", "mean", "disagreement", "difficulty", "best"]
    >>> question_columns(pd.DataFrame(columns=cols))
    (['question', 'source', 'mean', 'disagreement', 'best'], ['question', 'source', \
'difficulty'])
    """
    from app_state.table_fit import key_columns

    more = [c for c in QUESTION_MORE if c in table.columns]
    main = [c for c in table.columns if c not in more]
    return main, ([*key_columns(table[main]), *more] if more else [])


def tau_columns(table: pd.DataFrame) -> tuple[list[str], list[str]]:
    """``(main, more)``: the Rubric builder's τ-table columns of the main table -- each
    rubric's mean τ_GS, τ_Self and τ_Greedy over the slices, what the rubrics are compared
    by -- and those of "More columns": their s.d. over the slices (the ``*_sd`` columns,
    after ``scheme``), as :func:`board_columns` splits the leaderboard's. With them the
    table ran 211 px past the main column of a 1024 px window; every column stays in the
    exports.

    Example
    -------
    >>> cols = ["scheme", "tau_gs_mean", "tau_gs_sd", "tau_self_mean", "tau_self_sd"]
    >>> tau_columns(pd.DataFrame(columns=cols))
    (['scheme', 'tau_gs_mean', 'tau_self_mean'], ['scheme', 'tau_gs_sd', 'tau_self_sd'])
    """
    more = [c for c in table.columns if str(c).endswith("_sd")]
    main = [c for c in table.columns if c not in more]
    return main, (["scheme", *more] if more else [])


def planner_chance() -> str:
    """The Planner's chance of a decision as the texts that point to it write it: its
    declared default (``scorio_core.params.PlanParams``), not a number typed beside it.

    Example
    -------
    >>> planner_chance()
    'an 80% chance'
    """
    from scorio_core.formatting import a_chance
    from scorio_core.params import PlanParams, settings_of

    return a_chance(settings_of(PlanParams)["assurance"][0])


def flips_caption(trials: pd.DataFrame, meaning: str = "") -> str:
    """The Pair page's line under one question's trials when they carry no texts (scores
    alone, or a store with only the question's own texts: :attr:`FlipTable.trials
    <scorio_core.engines.pair.FlipTable>`; with texts the page shows
    :func:`~scorio_core.definitions.pair.by_model`'s own line): it says what the trial
    numbers are (``meaning``: :attr:`FlipTable.trial_meaning
    <scorio_core.engines.pair.FlipTable>`), and where each model's row has its own
    (``trial_a``, ``trial_b``).

    Example
    -------
    >>> flips_caption(pd.DataFrame(columns=["trial", "flip", "category_a", "score_a"]))[-62:]
    'score (from the outcome tensor); flip = the two scores differ.'
    >>> flips_caption(pd.DataFrame(columns=["trial", "score_a"]), "the file's trial column")[:44]
    "One row per trial (trial = the file's trial "
    """
    ids = f" (trial = {meaning})" if meaning else ""
    own = (" Each model's trial is its own (trial_a, trial_b): where one model lacks a trial, "
           "a row holds different trials of the two models' files."
           if "trial_a" in trials.columns else "")
    return (f"One row per trial{ids}: each model's category and score (from the outcome "
            f"tensor); flip = the two scores differ.{own}")


def repeats_caption(groups: pd.DataFrame) -> str:
    """The Pair page's line under the repeats grouped (:attr:`FlipTable.groups
    <scorio_core.engines.pair.FlipTable>`): by answer or output when the logs have them,
    else by category.

    Example
    -------
    >>> repeats_caption(pd.DataFrame(columns=["model", "category", "repeats"]))[:60]
    "The repeats grouped: each model's categories (these data car"
    """
    what = next((w for c, w in (("answer", "distinct answers"), ("output", "distinct outputs"))
                 if c in groups.columns),
                "categories (these data carry no answers to group)")
    return f"The repeats grouped: each model's {what}, how many trials gave them and their " \
           "mean score."


def questions_caption(n: int) -> str:
    """The Pair page's line under its questions table: every question, in what order.

    Example
    -------
    >>> questions_caption(1200)
    "All 1,200 questions, the leader's largest push first (click a header to sort)."
    """
    return f"All {n:,} questions, the leader's largest push first (click a header to sort)."


def eta_text(elapsed: float, fraction: float) -> str:
    """``"1:05 elapsed, about 2:10 left"`` from the share done so far (linear estimate).

    Example
    -------
    >>> eta_text(3600.0, 0.5)
    '1:00:00 elapsed, about 1:00:00 left'
    """

    def clock(sec: float) -> str:
        sec = int(round(sec))
        if sec >= 3600:
            return f"{sec // 3600}:{sec % 3600 // 60:02d}:{sec % 60:02d}"
        return f"{sec // 60}:{sec % 60:02d}"

    if fraction <= 0.02 or elapsed < 1.0:
        return f"{clock(elapsed)} elapsed"
    left = elapsed * (1.0 - fraction) / fraction
    return f"{clock(elapsed)} elapsed, about {clock(left)} left"


def parse_weights(text: str) -> tuple[float, ...] | None:
    """The *Category weights* box: numbers separated by commas or spaces; blank = none.

    Example
    -------
    >>> parse_weights("0, 0.5 1")
    (0.0, 0.5, 1.0)
    >>> parse_weights("  ") is None
    True
    """
    parts = [t for t in text.replace(",", " ").split() if t]
    if not parts:
        return None
    try:
        return tuple(float(t) for t in parts)
    except ValueError:
        raise ValidationError(
            f"Category weights: expected numbers separated by commas, one per category 0..C "
            f"(e.g. 0, 0.5, 1); got {text!r}"
        ) from None


def load_hint(exc: Exception, several_files: bool = False) -> str:
    """What to change in the sidebar after this kind of load error ('' for the others): a
    missing column, its pick under *Column mapping* -- and a table of one row per repeat
    without trial numbers, the switch there that numbers them (``number_trials``); missing
    cells, the *Missing cells* box.

    Example
    -------
    >>> from scorio_core import io
    >>> load_hint(io.MissingCellsError("3 cells missing"))
    '\\n\\nTo load it anyway, change **Missing cells** in the sidebar.'
    >>> exc = io.MissingColumnsError("no trial", ("trial",), ("trial",),
    ...                              repeats=("model", "question"))
    >>> print(load_hint(exc).strip())
    No column **trial** was found: pick the column that holds it under **Column mapping** in \
the sidebar. A table of one row per repeat, without trial numbers: tick **Number repeats as \
trials** there, which numbers the rows of each (model, question) pair 0, 1, 2, ... in file \
order.
    """
    from scorio_core import io

    def name(key: str) -> str:
        return setting_label(io.LoadOptions, key)

    if isinstance(exc, io.MissingColumnsError):
        cols = ", ".join(f"**{c}**" for c in exc.columns) or "a required column"
        repeats = getattr(exc, "repeats", None)  # no trial numbers: the loader numbers them
        pair = "" if repeats is None else f"({repeats[0]}, {repeats[1]}) pair"
        if several_files:
            return (f"\n\nNo column {cols} was found. Rename it in the file (the column "
                    "mapping is offered when one table is uploaded)." + (
                        "" if repeats is None else
                        f" A table of one row per repeat, without trial numbers: upload it "
                        f"alone and tick {name('number_trials')} under {name('columns')}, "
                        f"which numbers the rows of each {pair} 0, 1, 2, ... in file order."))
        return (f"\n\nNo column {cols} was found: pick the column that holds it under "
                f"{name('columns')} in the sidebar." + (
                    "" if repeats is None else
                    " A table of one row per repeat, without trial numbers: tick "
                    f"{name('number_trials')} there, which numbers the rows of each {pair} "
                    "0, 1, 2, ... in file order."))
    if isinstance(exc, io.MissingCellsError):
        return f"\n\nTo load it anyway, change {name('on_missing')} in the sidebar."
    # a MissingWeightsError names the Category weights box itself (the core's Said)
    return ""


def _entered(value) -> str:
    """A setting's value as a page's widget takes it: ``0, 0.5, 1``, ``10`` (not ``10.0``),
    ``model=llm`` for a pair."""
    if isinstance(value, tuple | list):
        return ", ".join("=".join(map(_entered, v)) if isinstance(v, tuple | list)
                         else _entered(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def _code(text: str) -> str:
    """``text`` as a Markdown code span (shown as it is, whatever characters it holds)."""
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def setting_label(params: type, name: str, part: int | None = None) -> str:
    """Setting ``name`` of ``params`` (a settings class) as every error and note of the app
    calls it: its widget's declared label in bold (the core's rule,
    ``scorio_core.params.widget_labels``, which a report's settings line reads too); a name
    ``params`` does not declare, as code. ``part``: the number of one of a setting's several
    widgets (the three category weights' sliders: "weight of category 2"); where the
    declaration labels its widgets (``parts``: the Planner's pair), the position of one of
    them, and without ``part`` all of them, as the page shows them.

    Example
    -------
    >>> from scorio_core.simulate.params import OrderParams
    >>> setting_label(OrderParams, "sims"), setting_label(OrderParams, "nope")
    ('**Datasets per N**', '`nope`')
    >>> from scorio_core.params import PlanParams
    >>> setting_label(PlanParams, "pair"), setting_label(PlanParams, "pair", 1)
    ('**Better model** / **Other model**', '**Other model**')
    """
    from scorio_core.params import widget_labels

    labels = widget_labels(params, name, part)
    return " / ".join(f"**{label}**" for label in labels) if labels else f"`{name}`"


def app_name(m: Mention) -> str:
    """A setting a core message names (:class:`~scorio_core._validation.Mention`) as the app
    names it: the value as it is entered, in the box with the setting's declared label
    (:func:`setting_label`); the box alone without a value or where a rule names it; a value
    a refusal found after the box (``no`` and the box: unset).

    Example
    -------
    >>> from scorio_core.io import LoadOptions
    >>> app_name(Mention(LoadOptions, "correct", ("C",)))
    '`C` in **Correct outcomes**'
    >>> from scorio_core.params import LeaderboardParams
    >>> app_name(Mention(LeaderboardParams, "ks"))
    '**Pass@k columns**'
    >>> app_name(Mention(LoadOptions, "correct", ("C", "P"), role="found")), app_name(
    ...     Mention(LoadOptions, "correct", None, role="found"))
    ('**Correct outcomes** `C, P`', 'no **Correct outcomes**')
    """
    label = setting_label(m.of, m.key)
    if m.role == "found" or isinstance(m.value, bool):  # a switch: its box, ticked or not
        return _found(label, m.value, _code)
    if m.value is None or m.role == "name":
        return label
    return f"{_code(_entered(m.value))} in {label}"


def _found(label: str, value, shown) -> str:
    """A value a refusal found, after the box that holds it (``shown``: how the value is
    written); an unset one, ``no`` and the box; a switch's, the box alone."""
    if value is None or value is False:
        return f"no {label}"
    return label if value is True else f"{label} {shown(_entered(value))}"


def app_text(text: str) -> str:
    """A core message as a page shows it -- every refusal, caveat and error of the core a
    page shows goes through here (:func:`error_text` for an exception): the settings a
    :class:`~scorio_core._validation.Said` names, by their boxes (:func:`app_name`), with the
    words only the app shows, without Python's keywords or the command line's flags; plain
    text as it is.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.outcomes import binary_next
    >>> o = Outcomes(np.array([[[0, 1, 2]], [[2, 2, 1]]]), weights=[0, 0.5, 1],
    ...              category_names=["I (incorrect)", "P (partial)", "C (correct)"])
    >>> print(app_text(binary_next(o, "Stability")).split(": ", 1)[1])
    `C` in **Correct outcomes**, among the upload's options; `0.5` in **Correct from score** \
counts P (partial) correct too.
    """
    return text.say("app", app_name) if isinstance(text, Said) else text


def app_cell(text: str) -> str:
    """A core message as a table cell shows it, where Markdown is not rendered: the words
    of :func:`app_text`, each box's declared label in quotes, the value as entered (the
    import report's notes of each file).

    Example
    -------
    >>> from scorio_core.io.options import mention
    >>> app_cell("names without prefixes; " + mention("model_prefix", "keep") + " keeps them")
    "names without prefixes; keep in 'Provider prefixes' keeps them"
    """
    from scorio_core.params import widget_labels

    def name(m: Mention) -> str:
        label = " / ".join(f"'{x}'" for x in widget_labels(m.of, m.key)) or m.key
        if m.role == "found" or isinstance(m.value, bool):  # a switch: its box
            return _found(label, m.value, str)
        return label if m.value is None or m.role == "name" else f"{_entered(m.value)} in {label}"

    return text.say("app", name) if isinstance(text, Said) else text


def app_widget(params: type, name: str) -> dict:
    """What the declaration says of setting ``name`` of ``params`` for a page's widget
    (:func:`scorio_core.params.widget`: label, options, bounds...), its help as the app reads
    it (:func:`app_text`): a help the declaration writes per surface names the app's boxes
    and pages, not Python's calls or the command line's flags. Every page widget of a
    declared setting takes its help from here.

    Example
    -------
    >>> from scorio_core.params import LeaderboardParams
    >>> w = app_widget(LeaderboardParams, "subset")
    >>> w["label"], "the Data page" in w["help"], "scorio-studio" in w["help"]
    ('Subset', True, False)
    """
    from scorio_core.params import widget

    w = widget(params, name)
    return {**w, "help": app_text(w["help"])}


def described(o: Outcomes) -> dict:
    """:meth:`~scorio_core.outcomes.Outcomes.describe` as the Data page shows it (a JSON
    tree, where Markdown is not rendered): the notes on what the load changed as the app
    reads them (:func:`app_cell`: the loader's options by their boxes' labels, not Python's
    keywords).

    Example
    -------
    >>> o = Outcomes(np.ones((2, 4, 2), int), benchmarks=["a", "a", "b", "b"],
    ...              metadata={"pooled_tasks": True})
    >>> described(o)["changed by the load"][0].endswith("choose it (a in 'Benchmark')")
    True
    """
    report = o.describe()
    if "changed by the load" in report:
        report["changed by the load"] = [app_cell(n) for n in report["changed by the load"]]
    return report


def error_text(exc: Exception) -> str:
    """``exc`` as a page shows it: its message as the app reads it (:func:`app_text`), the
    settings it names by their boxes -- each as declared on the class the core named it by.
    Settings each valid but inconsistent together (a
    :class:`~scorio_core._validation.SettingsConflict`): the core's rule, written once, each
    box's label in bold and each value found as it is entered (an unset one: ``no
    **label**``).

    Example
    -------
    >>> from scorio_core.simulate.params import OrderParams
    >>> try:
    ...     OrderParams(upper=0.5, lower=0.6)
    ... except ValidationError as exc:
    ...     print(error_text(exc))
    **Better model π̄** must exceed **Worse model π̄** (the better model first); got **Better \
model π̄** `0.5`, **Worse model π̄** `0.6`
    """
    return app_text(said_of(exc))


def guessed_columns_text(guesses: Mapping[str, str]) -> str:
    """The line under *Column mapping* naming the columns picked from their names.

    Example
    -------
    >>> guessed_columns_text({"outcome": "correct"})
    "Picked from the column names: outcome ← 'correct'. Check them; change any that is wrong."
    >>> guessed_columns_text({})
    ''
    """
    if not guesses:
        return ""
    pairs = ", ".join(f"{r} ← {c!r}" for r, c in guesses.items())
    return f"Picked from the column names: {pairs}. Check them; change any that is wrong."


def load_notes(o: Outcomes) -> dict:
    """What the loader changed or skipped (:data:`LOAD_NOTES` found in the metadata)."""
    return {k: o.metadata[k] for k in LOAD_NOTES if k in o.metadata}


def _names(items, most: int = 8) -> str:
    items = [str(x) for x in items]
    shown = ", ".join(f"`{x}`" for x in items[:most])
    return shown + (f", … ({len(items)} in all)" if len(items) > most else "")


#: The most characters of the load's notes in the one line under an analysis page's caption
#: (:func:`load_changed_line`): one line in the page column at 1280 px.
LOAD_LINE_CHARS = 96
#: The fewest characters of each note there (more notes than fit: "and n more").
_LOAD_NOTE_CHARS = 44
#: Where a note's headline ends: the first parenthesis, semicolon or comma after its
#: opening words ("2 tasks pooled into one view (arith: 5 questions, ...").
_HEADLINE_END = re.compile(r"(?<=.{16}) \(|[;,] ")


def _shortened(text: str, most: int) -> str:
    """``text``'s headline (up to :data:`_HEADLINE_END`), cut at the last space within
    ``most`` characters and then ending in "…"."""
    text = _HEADLINE_END.split(text.rstrip("."), maxsplit=1)[0]
    if len(text) <= most:
        return text
    cut = text[:most - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,;:(") + " …"


def load_changed_line(o: Outcomes) -> str:
    """The one line every analysis page says under its caption when loading changed the
    data's numbers (:attr:`~scorio_core.outcomes.Outcomes.load_notes`: tasks pooled, trials
    left out to combine tasks, ``on_missing`` drops, outcomes made binary), each note
    shortened, the whole of each in the page's Caveats; ``''`` when the load changed
    nothing. Markdown: the notes' own ``*``, ``_``, backticks and brackets are escaped.

    Example
    -------
    >>> o = Outcomes(np.ones((1, 2, 1), int), metadata={"load_notes": [{"text": (
    ...     "gen_rep: 3 of 4 trials per question left out to pool the tasks, which were run "
    ...     "with different numbers of trials"), "benchmarks": []}]})
    >>> print(load_changed_line(o))
    Changed by the load: gen\\_rep: 3 of 4 trials per question left out to pool the tasks \
(details in Caveats).
    >>> load_changed_line(Outcomes(np.ones((1, 2, 1), int)))
    ''
    """
    notes = o.load_notes
    if not notes:
        return ""
    shown = notes[:max(1, LOAD_LINE_CHARS // _LOAD_NOTE_CHARS)]
    each = max(_LOAD_NOTE_CHARS, LOAD_LINE_CHARS // len(shown))
    more = len(notes) - len(shown)
    text = "; ".join(_shortened(app_text(n), each) for n in shown) + (
        f"; and {more} more" if more else "")
    text = re.sub(r"([\\`*_\[\]])", r"\\\1", text)
    return f"Changed by the load: {text} (details in Caveats)."


def load_notes_text(o: Outcomes) -> list[str]:
    """:func:`load_notes` as sentences, one per change, for the Data page (every key of
    :data:`LOAD_NOTES` has one; ``tests/app_state/test_texts.py`` fails when a new key
    lacks its sentence).

    Example
    -------
    >>> o = Outcomes(np.zeros((1, 2, 3), int), metadata={
    ...     "ignored_columns": ["answer"], "ignored_why": {"answer": "free text"},
    ...     "missing_signal_values": {"tokens": 1279}})
    >>> for line in load_notes_text(o):
    ...     print(line[:60])
    Column `answer` was not loaded: free text.
    Signal `tokens`: 1,279 completions have no value (left blank
    """
    from scorio_core.io import LoadOptions

    n = load_notes(o)
    out = []
    missing = f"({setting_label(LoadOptions, 'on_missing')} in the sidebar)"
    why = n.get("ignored_why") or {}
    for c in n.get("ignored_columns", []):
        out.append(f"Column `{c}` was not loaded" + (f": {why[c]}." if c in why else "."))
    for c, k in (n.get("missing_signal_values") or {}).items():
        out.append(f"Signal `{c}`: {count_text(k, 'completion')} "
                   f"{'has' if int(k) == 1 else 'have'} no value (left blank; its statistics "
                   "use the others).")
    if k := n.get("empty_outcomes"):
        out.append(f"{count_text(k, 'row')} with an empty outcome counted as missing trials "
                   f"{missing}.")
    if n.get("on_missing") == "truncate" and "truncated_to_N" in n:
        found = n.get("max_N_found")
        out.append(
            f"Trials cut to N = {n['truncated_to_N']} per question so that every model and "
            "question has the same number"
            + (f" (up to {found} were found)" if found is not None else "")
            + (f"; {count_text(n['dropped_completions'], 'completion')} left out"
               if "dropped_completions" in n else "")
            + f" {missing}.")
    if n.get("on_missing") == "drop_questions":
        dropped = n.get("dropped_questions") or []
        out.append(f"{count_text(len(dropped), 'question')} dropped because some model has "
                   f"fewer trials on {'it' if len(dropped) == 1 else 'them'} {missing}: "
                   f"{_names(dropped)}.")
    if "truncated_to_D" in n:
        out.append(f"Greedy outcomes (R0) cut to D = {n['truncated_to_D']} per question.")
    if "R0_dropped" in n:
        out.append(f"Greedy outcomes (R0) not loaded: {n['R0_dropped']}.")
    if n.get("numbered_trials"):
        out.append("Trials numbered by row order: the rows of each (model, question) pair are "
                   "its trials 0, 1, 2, ... in the order the file lists them "
                   f"({setting_label(LoadOptions, 'number_trials')} in the sidebar).")
    if "where" in n:
        cond = "; ".join(f"`{c}` ∈ {{{', '.join(map(str, v))}}}" for c, v in n["where"].items())
        kept = n.get("rows_kept_by_where")
        out.append(f"Rows filtered by {cond}" + (f": {kept} kept." if kept else "."))
    if "model_columns" in n:
        out.append(f"Models named by the columns {_names(n['model_columns'])} "
                   "(`model@column=value`).")
    if "decoding_note" in n:
        out.append(f"Decoding: {n['decoding_note']}.")
    if spell := n.get("decoding_spellings"):
        out.append("Decoding values read as: "
                   + ", ".join(f"`{k}` → {v}" for k, v in spell.items()) + ".")
    if big := n.get("extra_arrays_not_loaded"):
        out.append(f"Extra arrays in the file not loaded: {_names(big)}.")
    if r := n.get("rounded_grades"):
        out.append(f"Graded scores rounded to the nearest of {r['levels']} levels "
                   f"({setting_label(LoadOptions, 'round_grades')} in the sidebar).")
    if b := n.get("binarized"):
        out.append(f"Outcomes made binary: {_names(b['correct'])} count as correct (1), "
                   f"{_names(b['wrong'])} as wrong (0) "
                   f"({setting_label(LoadOptions, 'correct')} in the sidebar).")
    return out


#: The printf pattern of the Data page's category shares, written as percents with the
#: core's decimals of a measured share (:data:`~scorio_core.formatting.SHARE_DECIMALS`: one
#: for every row; Streamlit's "percent" wrote 50.67%, 8.5% and 40.83% in one column). The
#: column holds percents: 50.7 for 50.7%.
SHARE_FORMAT = f"%.{SHARE_DECIMALS}f%%"


def _share_percents(shares: np.ndarray) -> list:
    """``shares`` as percents with :data:`SHARE_DECIMALS` decimals (numbers, drawn by
    :data:`SHARE_FORMAT`), or, where one of them would read as a certainty it is not --
    0.0% for a category some completions have, 100.0% for one they do not all have -- every
    cell as text by the core's rule (:func:`~scorio_core.formatting.share_percent`):
    ``<0.1%``, ``>99.9%``.

    Example
    -------
    >>> _share_percents(np.array([0.50666, 0.085, 0.40834]))
    [50.7, 8.5, 40.8]
    >>> _share_percents(np.array([0.0003, 0.9997, 0.0]))
    ['<0.1%', '>99.9%', '0.0%']
    """
    pct = [round(100 * float(s), SHARE_DECIMALS) for s in shares]
    if not any((p == 0 < s) or (p == 100 and s < 1) for p, s in zip(pct, shares, strict=True)):
        return pct
    return [share_percent(s) for s in shares]


def category_table(o: Outcomes) -> pd.DataFrame:
    """One row per outcome category: name, weight, completions and their share in percent
    (:func:`_share_percents`: :data:`SHARE_DECIMALS` decimals in every row).

    Example
    -------
    >>> o = Outcomes(np.array([[[0, 1, 1, 1]]]))
    >>> category_table(o)[["category", "completions", "share"]].values.tolist()
    [['wrong', 1, 25.0], ['correct', 3, 75.0]]
    """
    counts = np.bincount(o.R.ravel(), minlength=o.C + 1)[: o.C + 1]
    return pd.DataFrame({
        "category": [str(c) for c in o.category_names],
        "weight": np.asarray(o.weights, dtype=float),
        "completions": counts,
        "share": _share_percents(counts / max(counts.sum(), 1)),
    })


def signal_table(o: Outcomes) -> pd.DataFrame:
    """Min, mean and max of each per-completion signal over the completions that have a
    value, how many have none (``missing``), and (binary data) its mean on correct and on
    wrong completions -- a signal whose two means differ can separate them.

    Example
    -------
    >>> o = Outcomes(np.array([[[0, 1]]]), signals={"len": np.array([[[5.0, 1.0]]])})
    >>> signal_table(o).iloc[0].to_dict()["mean if correct"]
    1.0
    """
    correct = o.R >= 1 if o.is_binary else None
    rows = []
    for name, a in sorted(o.signals.items()):
        present = ~np.isnan(a)  # missing values (NaN) are left out, and counted
        row = {"signal": name, "min": a[present].min(), "mean": a[present].mean(),
               "max": a[present].max(), "missing": int((~present).sum())}  # fmt: skip
        if correct is not None:
            for label, rows_of in (("mean if correct", correct), ("mean if wrong", ~correct)):
                sel = a[rows_of & present]
                row[label] = sel.mean() if sel.size else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)


def signal_summary(o: Outcomes) -> tuple[pd.DataFrame, str]:
    """:func:`signal_table` for the screen: one column per signal (each signal is in its own
    unit, so one column holds one unit and takes one format), one row per statistic, and a
    line saying how many completions have no value of each (signals with none missing are
    left out of it). A count whose means are all 100 or more (characters, tokens) is in
    whole numbers, as the long table shows its values; the values are those the core
    prints (:func:`scorio_core.formatting.printed_numbers`).

    Example
    -------
    >>> o = Outcomes(np.array([[[0, 1]]]), signals={"len": np.array([[[5.0, np.nan]]])})
    >>> t, line = signal_summary(o)
    >>> list(t.columns), list(t["statistic"])
    (['statistic', 'len'], ['min', 'mean', 'max', 'mean if correct', 'mean if wrong'])
    >>> line
    'Completions without a value: len 1.'
    >>> chars = np.array([[[4868.0, 200.0, 151.0]]])  # a count: 1,739.67 characters on average
    >>> signal_summary(Outcomes(np.array([[[0, 1, 1]]]), signals={"chars": chars}))[0][
    ...     "chars"].tolist()
    [151.0, 1740.0, 4868.0, 176.0, 4868.0]
    """
    from scorio_core.formatting import DECIMALS_ATTR, printed_numbers

    t = signal_table(o).set_index("signal")
    gaps = t.pop("missing")
    out = t.T.rename_axis(None, axis=1).reset_index(names="statistic")
    # a count (characters, tokens) reads in whole numbers, as the long table shows its
    # values (1,124, not 4868.0), once its means are large enough that the part of a unit
    # they drop is below half a percent of each; a small count (attempts 1-10, whose means
    # 5.496 and 5.506 are what the table compares) keeps the size rule's decimals
    counts = [name for name, a in o.signals.items()
              if _whole(a) and bool((t.loc[name].drop(["min", "max"]).dropna().abs() >= 100).all())]
    out.attrs[DECIMALS_ATTR] = dict.fromkeys(counts, 0)
    out = printed_numbers(out)  # drawn as the core rounds (a browser rounds 801.5 up)
    if not gaps.any():
        return out, "Every completion has a value of every signal."
    missing = ", ".join(f"{k} {int(v):,}" for k, v in gaps.items() if v)
    return out, f"Completions without a value: {missing}."


def _whole(a: np.ndarray) -> bool:
    """Whether every value of a signal present is a whole number (a count)."""
    v = np.asarray(a, dtype=float)
    v = v[np.isfinite(v)]
    return bool(v.size) and bool((v == np.round(v)).all())


#: The folder, beside a notebook, whose files a "Copy code" cell reads when several files
#: were uploaded at once (an uploader keeps the files' names only, no folder).
UPLOAD_FOLDER = "uploaded_files"


def code_source(data: Outcomes, source: str | os.PathLike, root: str | os.PathLike,
                uploaded: Iterable[str] = ()) -> Path | list[Path]:
    """Where a "Copy code" cell loads the data a page shows from: a file under ``root`` (the
    bundled data) by its absolute path; one uploaded file by its name, beside the notebook;
    several uploaded at once by their names in :data:`UPLOAD_FOLDER` -- the files ``data``
    record they were read from (``metadata["source_sha256_per_file"]``: each once, a file
    read beside another too, a file passed over not; or the one file of
    ``metadata["source_name"]``), or, for data that record none (files added to an upload
    and combined by a choice), the ``uploaded`` names. An upload's ``source`` is its label
    (``"3 files"``), never a path a notebook can read.

    Example
    -------
    >>> from scorio_core import io
    >>> csv = b"model,question,trial,outcome\\nA,q1,0,1\\nB,q1,0,0\\n"
    >>> two = io.load({"a.csv": csv, "b.csv": csv.replace(b"A,", b"C,").replace(b"B,", b"D,")})
    >>> [p.as_posix() for p in code_source(two, "2 files", ".")]
    ['uploaded_files/a.csv', 'uploaded_files/b.csv']
    >>> code_source(io.load(csv, filename="runs.csv"), "runs.csv", ".").as_posix()
    'runs.csv'
    """
    path = Path(root) / source
    if path.is_file():
        return path
    meta = data.metadata
    names = (list(meta.get("source_sha256_per_file") or ())
             or ([meta["source_name"]] if meta.get("source_name") else list(uploaded)))
    if len(names) > 1:
        return [Path(UPLOAD_FOLDER) / n for n in names]
    return Path(names[0] if names else source)


def code_notes(data: Outcomes) -> list[str]:
    """What a "Copy code" cell of ``data`` cannot say (lines shown under it): how files
    added to an upload were combined (the choice the data record, ``metadata["upload"]``),
    which a load call does not repeat.

    Example
    -------
    >>> import dataclasses
    >>> o = Outcomes(np.ones((1, 2, 1), int))
    >>> code_notes(o)
    []
    >>> merged = dataclasses.replace(o, metadata={"upload": {"choice": "replace"}})
    >>> print(code_notes(merged)[0])
    Files added to the upload were combined by the choice **replace**, which the cell does \
not repeat: `io.upload.apply_upload(io.upload.check_upload(data, new), 'replace')` with \
`data = sc.load(...)` of the files loaded first and `new = sc.load(...)` of the added ones.
    """
    merge = (data.metadata.get("upload") or {}).get("choice")
    if not merge:
        return []
    return [f"Files added to the upload were combined by the choice **{merge}**, which the "
            "cell does not repeat: `io.upload.apply_upload(io.upload.check_upload(data, "
            f"new), {merge!r})` with `data = sc.load(...)` of the files loaded first and "
            "`new = sc.load(...)` of the added ones."]


def data_code(path: str | os.PathLike | list, benchmark: str = COMBINED,
              options: LoadOptions | None = None, sha256: str | None = None) -> str:
    """The notebook cell that loads the data a page shows (``sc.load`` + ``select``) from
    ``path`` (:func:`code_source`: one file, or the files of an upload of several, with a
    comment saying where to save them); ``options``: the loader options the data were read
    with (:func:`scorio_core.io.loaded_with`, the data's own record), written as every
    cell writes them (:func:`scorio_core.io.load_keywords_text`).

    Example
    -------
    >>> from scorio_core.io import LoadOptions
    >>> print(data_code("data/biased_coins.npz").splitlines()[-2])
    data = sc.load(path)
    >>> print(data_code("runs.csv", "AIME'25", LoadOptions(weights=(0, 0.5, 1))).splitlines()[-2])
    data = sc.load(path, weights=(0.0, 0.5, 1.0)).select("AIME'25")
    >>> code = data_code([Path(UPLOAD_FOLDER, "a.eval"), Path(UPLOAD_FOLDER, "b.eval")])
    >>> print(code[code.index("# the 2"):code.index("data =")].strip())
    # the 2 uploaded files: save them in a folder uploaded_files beside this notebook
    # (or write the paths where they are instead)
    path = [  # relative to this notebook's folder
        Path('uploaded_files/a.eval'),
        Path('uploaded_files/b.eval'),
    ]
    """
    from scorio_core.report import load_code

    several = isinstance(path, list | tuple)
    comment = (f"the {len(path)} uploaded files: save them in a folder {UPLOAD_FOLDER} beside "
               "this notebook\n(or write the paths where they are instead)"
               if several and len(path) > 1 else "")
    return load_code(list(map(Path, path)) if several else Path(path), benchmark=benchmark,
                     sha256=sha256, options=options, comment=comment)


def report_code(path: str | os.PathLike | list, sections: Iterable[str], *, title: str,
                benchmark: str = COMBINED, out: str = "report.html",
                options: LoadOptions | None = None) -> str:
    """The ``sc.report`` call that writes the Report page's file from a notebook;
    ``options``: the loader options the data were read with
    (:func:`scorio_core.io.loaded_with`: an upload's weights, missing-cell policy ...),
    so ``sc.report`` reads the file the same way; ``path``: the file, or the files of an
    upload of several (:func:`code_source`), said where to save.

    Example
    -------
    >>> print(report_code("data/biased_coins.npz", ["leaderboard"], title="Coins"))
    import scorio_core as sc
    <BLANKLINE>
    sc.report(
        'data/biased_coins.npz',
        'report.html',  # or .md / .ipynb
        benchmark='combined',
        sections=['leaderboard'],
        title='Coins',
    )
    >>> from scorio_core.io import LoadOptions
    >>> print(report_code("cats.csv", ["leaderboard"], title="Cats",
    ...                   options=LoadOptions(weights=[0, 0.5, 1])).splitlines()[-2])
        options=sc.io.LoadOptions(weights=(0.0, 0.5, 1.0)),
    """
    given = _load_keywords(options)
    several = isinstance(path, list | tuple)
    where = (f"# the {len(path)} uploaded files: save them in a folder {UPLOAD_FOLDER} beside "
             "this notebook\n" if several and len(path) > 1 else "")
    shown = ("[" + "".join(f"\n        {Path(p).as_posix()!r}," for p in path) + "\n    ]"
             if several else repr(str(path)))
    return (
        f"import scorio_core as sc\n\n{where}"
        "sc.report(\n"
        f"    {shown},\n"
        f"    {out!r},  # or .md / .ipynb\n"
        f"    benchmark={benchmark!r},\n"
        f"    sections={list(sections)!r},\n"
        f"    title={title!r},\n"
        + (f"    options=sc.io.LoadOptions({given}),\n" if given else "")
        + ")"
    )


def _load_keywords(options: LoadOptions | None) -> str:
    """The loader ``options`` as the keywords a cell writes (``weights=(0.0, 0.5, 1.0),
    on_missing='truncate'``; mappings as dicts), ``""`` for none: the core's one writer."""
    from scorio_core.io import load_keywords_text

    return load_keywords_text(options)


def data_charts(o: Outcomes) -> list:
    """The Data page's charts (:class:`~scorio_core.definitions.Chart`: title, chart, caption):
    categories per model (categorical data only) and per-model accuracy.

    Example
    -------
    >>> o = Outcomes(np.random.default_rng(0).integers(0, 2, (2, 5, 3)))
    >>> [c.title for c in data_charts(o)]
    ['Per-model accuracy']
    """
    from scorio_core import charts
    from scorio_core.definitions import Chart

    out = []
    if not o.is_binary:
        out.append(Chart("Outcome categories per model", charts.category_bars(o),
                         "Each bar is one model's completions split by category: compare where "
                         "models lose points, not just their total."))
    out.append(Chart("Per-model accuracy", charts.accuracy_strip(o),
                     "Diamond = mean score over all questions (avg@N); each tick = one "
                     "question's score over its trials — a wide spread means the model's "
                     "level depends on the question."))
    return out


def analysis_code(
    analysis, params, path: str | os.PathLike | None, benchmark: str = COMBINED,
    options: LoadOptions | None = None,
) -> str:
    """The notebook cell of one page: load the data, the analysis's ``to_code`` and the
    expressions that draw its charts. ``path=None`` (a simulation study, which makes its
    own data) leaves out the loading lines; ``options``: the loader options the data were
    read with (:func:`scorio_core.io.loaded_with`), repeated by the cell's ``sc.load``.

    Example
    -------
    >>> from scorio_core.definitions import ANALYSES
    >>> g = ANALYSES["greedy"]
    >>> code = analysis_code(g, g.params(seed=2), "data/reasoning_synthetic.npz", "AIME'25")
    >>> ns = {}
    >>> exec(code.split("# charts:")[0], ns)  # its last line shows the table (printed here)
    data     mean_accuracy  greedy_accuracy  tau_gs ...
    >>> sorted(ns[g.result_var])
    ['combined']
    """
    charts_code = "\n".join(f"# {c}" for c in analysis.chart_code)
    cell = f"{analysis.to_code(params, 'data')}\n\n# charts:\n{charts_code}\n"
    if path is None:
        return cell
    return _one_import_block(data_code(path, benchmark, options), cell)


_IMPORT = ("import ", "from ")


def _one_import_block(head: str, cell: str) -> str:
    """``head`` (the loading lines) and ``cell`` (an analysis's ``to_code``) as one cell
    with one block of imports: the cell's leading imports that ``head`` lacks join its
    imports, those it has are not written twice (``import scorio_core as sc`` was).

    Example
    -------
    >>> head = "import scorio_core as sc\\n\\ndata = 1"
    >>> cell = "import scorio_core as sc\\nfrom scorio_core import charts\\n\\nx = 2"
    >>> print(_one_import_block(head, cell))
    import scorio_core as sc
    from scorio_core import charts
    <BLANKLINE>
    data = 1
    <BLANKLINE>
    x = 2
    """
    lines, imports = cell.splitlines(), []
    while lines and lines[0].startswith(_IMPORT):
        imports.append(lines.pop(0))
    while lines and not lines[0].strip():
        lines.pop(0)
    top = head.splitlines()
    last = max((i for i, line in enumerate(top) if line.startswith(_IMPORT)), default=-1)
    new = [line for line in dict.fromkeys(imports) if line not in top]
    top[last + 1:last + 1] = new
    return "\n".join(top) + "\n\n" + "\n".join(lines) + ("\n" if cell.endswith("\n") else "")


def stability_prompt(n_methods: int, o: Outcomes) -> str:
    """What the Stability page's Run button will do, on *these* data (L × M × N).

    Example
    -------
    >>> o = Outcomes(np.zeros((20, 120, 80), dtype=int))
    >>> print(stability_prompt(77, o)[:78])
    77 methods × 80 single-trial slices of these 20 × 120 × 80 data (models × ques
    """
    size = f"{o.L} × {o.M} × {o.N}"
    return (
        f"{n_methods} method{'s' if n_methods != 1 else ''} × {o.N} single-trial slice"
        f"{'s' if o.N != 1 else ''} of these {size} data (models × questions × trials): every "
        "method ranks every slice (minutes with all families; a progress bar shows the time "
        "left)."
    )
