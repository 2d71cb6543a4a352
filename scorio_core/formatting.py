"""One number formatter for every text the core writes: CLI tables, reports, Markdown.

A table is formatted **column by column**: each column gets one format, chosen from all
of its values, so ``2,368`` never sits beside ``260.0000``:

* counts are integers (``466``, ``5,347``): integer columns, and float columns whose
  finite values are all whole numbers when the column is a count by its name
  (:data:`COUNT_NAMES`: ``rank*``, ``n``, ``N``, ``*_needed``, ``*trials``, …) or when
  a value reaches 2 (no probability, score or τ does) -- except averages of counts
  over runs (:data:`MEAN_NAMES`: ``expected``, ``decided``, ``*_gain``, …), which keep
  their decimals when a column happens to land on whole numbers;
* other numbers get the same decimals down the column: 4 below 10 (probabilities,
  scores, interval ends, τ), one fewer per factor of ten above -- except a quantity
  whose decimals its name fixes (:data:`NAMED_DECIMALS`), the same in every table that
  shows it: 3 for ``p_best`` and ``p_correct`` (shares of Monte-Carlo draws) and for a
  ``coverage`` or another share of simulated datasets (:data:`MONTE_CARLO_NAMES`), 4 for a
  pair's ``p_better`` (its t's, in the Leaderboard heatmap's cells too),
  2 for a ``t`` statistic (:data:`STATISTIC_NAMES`), 3 for the 2PL ``difficulty`` and
  ``discrimination``; a column derived from such a quantity (``difficulty_median``,
  ``p_best_lo``: ``<name>_<median|mean|sd|se|lo|hi|min|max>``, :data:`DERIVED_NAMES`) is in
  its unit and takes its decimals, so a quantity and its summary read alike on one page;
  a non-zero value that would print as zero shows as ``<0.0001`` (``<0.001`` for
  ``p_best``) instead of a misleading ``0.0000``, and an exact zero as ``0.0000``; the mirror
  for a probability or a share (:data:`PROBABILITY_NAMES`: ``p_best``, ``p_value``,
  ``p_better``, ``coverage``, ...): one below 1 that would print as one shows as ``>0.9999``
  (``>0.999`` for ``p_best``) instead of a certain-looking ``1.0000``, and an exact one (a
  one-model board's ``p_best``) as ``1.0000``;
* the papers' trials rule reads ``met now`` where the table's data already reach it
  (:data:`PAPERS_RULE_NAMES`, :func:`papers_rule_cells`);
* ``∞`` / ``-∞`` for infinite values (a tie no number of trials separates), ``—`` for a
  missing one (NaN, ``None``), ``yes``/``no`` for booleans, thousands separators;
* one minus sign, ASCII ``-``, for every negative number, ``-∞`` and the marker ``>-0.0001``
  alike (:data:`MINUS`): a column held ``−∞`` (U+2212) beside ``-1.448``, and the app's number
  columns, which the browser writes, use ``-`` too; a number copied from any table reads
  back in Python.

The exports (CSV, JSON) keep numbers, not these texts, rounded to :data:`EXPORT_DIGITS`
decimals by the same rule: a non-zero value is never written as ``0`` nor a probability below
1 as ``1`` (:func:`round_floats`).

Beside tables: a confidence, chance or assurance setting in any text reads as the app's
buttons write it (:func:`percent`: ``92.5%``, never ``{x:.0%}``'s ``92%``; :func:`a_chance`:
"an 80% chance"); a measured share or chance (a coverage, a share decided) with one decimal
(:func:`share_percent`: ``94.6%``, ``>99.9%``, never ``{x:.0%}``'s ``95%``); a category
weight with six significant digits (:func:`weight_text`, :data:`WEIGHT_PRINTF`: ``0.5``,
``0.333333``); a number box in score units with the tables' decimals
(:data:`SCORE_PRINTF`); a plain-text table pads to the columns a terminal draws
(:func:`display_width`: ``模`` takes two); a JSON report's floats have the exports' digits
(:func:`round_json`).

Pure Python and pandas; no NumPy-free promise, but nothing heavy.

Example
-------
>>> from scorio_core.formatting import format_frame, text_table
>>> import pandas as pd
>>> t = pd.DataFrame({"model": ["a", "b"], "p_value": [1.7e-05, 0.25],
...                   "trials_needed": [466.0, float("inf")], "gap": [2368.0, 260.5]})
>>> format_frame(t).values.tolist()
[['a', '<0.0001', '466', '2,368.0'], ['b', '0.2500', '∞', '260.5']]
>>> print(text_table(t))
model  p_value  trials_needed      gap
a      <0.0001            466  2,368.0
b       0.2500              ∞    260.5
"""

from __future__ import annotations

import functools
import itertools
import math
import numbers
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._validation import as_names, checked_keywords, no_text

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "INF",
    "NEG_INF",
    "MINUS",
    "MISSING",
    "COUNT_NAMES",
    "MONTE_CARLO_NAMES",
    "MEAN_NAMES",
    "STATISTIC_NAMES",
    "NAMED_DECIMALS",
    "DERIVED_NAMES",
    "named_decimals",
    "PROBABILITY_NAMES",
    "is_probability",
    "PAPERS_RULE_NAMES",
    "TRIALS_NOW",
    "RULE_MET",
    "papers_rule_cells",
    "ColumnFormat",
    "column_format",
    "format_number",
    "format_value",
    "format_column",
    "format_columns",
    "table_formats",
    "DECIMALS_ATTR",
    "DRAWS_ATTR",
    "format_frame",
    "column_texts",
    "printed_numbers",
    "EXPORT_DIGITS",
    "round_floats",
    "round_json",
    "TEXT_WIDTH",
    "LINE_WIDTH",
    "display_width",
    "text_table",
    "markdown_table",
    "md_inline",
    "md_name",
    "md_prose",
    "plain_prose",
    "md_plain",
    "percent",
    "SHARE_DECIMALS",
    "share_percent",
    "a_chance",
    "WEIGHT_DIGITS",
    "WEIGHT_PRINTF",
    "weight_text",
    "SCORE_PRINTF",
    "SETTING_PRINTF",
    "setting_text",
    "count_text",
    "noun_text",
    "shape_text",
]

#: The one minus sign of every number the tables write (ASCII: as Python, the CSV and the
#: app's number columns write it).
MINUS = "-"
INF, NEG_INF, MISSING = "∞", f"{MINUS}∞", "—"

#: Column names that hold counts (trials, questions, ranks, replicates): whole numbers.
COUNT_NAMES = re.compile(
    r"^(rank.*|.*_rank|n|N|D|L|M|size|slices|replicates|sims|draws|seed|models|questions|"
    r"categories|completions|.*_needed(_papers)?|.*trials|.*_trials_.*|n_.*|budget.*)$"
)

#: Most decimals shown (values below 10); one fewer per factor of ten above.
DECIMALS = 4

#: Column names that hold Monte-Carlo shares (``p_best``: the share of 10,000 draws in which
#: a model is first, s.e. up to 0.005; ``p_unsettled``: an average over the gap's posterior
#: draws) and shares of simulated or resampled datasets (a simulation's ``p_correct`` and
#: ``coverage``, the prior depth's ``share_changed`` of its updates, a check's ``coverage``,
#: ``first_coverage``, ``least_coverage``, ``power`` and ``wrong_way`` of its runs: s.e.
#: 0.005 at 2,000 datasets): :data:`MONTE_CARLO_DECIMALS` decimals, so no digit is shown that
#: the draws do not carry -- in the app's tables, metrics and tooltips, the CLI and the
#: reports alike, and a sentence's :func:`share_percent` (94.4%) gives the same digits.
MONTE_CARLO_NAMES = re.compile(
    r"^(p_best|p_unsettled|p_correct|(first_|least_)?coverage|power|wrong_way|share_changed)$")
#: Column names that hold an average of counts over runs (decided pairs, a set's size): a
#: number column with decimals even when every value of one table is whole (32.0 decided
#: pairs on average is not the count 32).
MEAN_NAMES = re.compile(r"^(expected|decided|first_set_size|.*_gain|gain_over_even)$")
MONTE_CARLO_DECIMALS = 3

#: Column names that hold a test statistic (the paired ``t`` of a pair, ``t_next`` of a
#: model and the next one down): :data:`STATISTIC_DECIMALS` decimals whatever its size
#: (6.90, 60.31) -- everywhere the same, as the app has always shown them.
STATISTIC_NAMES = re.compile(r"^(t|t_next)$")
STATISTIC_DECIMALS = 2

#: Decimals fixed by a column's name: a quantity whose size differs between the tables
#: that show it (every question's 2PL ``difficulty`` in one table, a few of them in
#: another) prints with the same decimals in each -- one format per column name in a report,
#: never chosen from the rows a table happens to show. The first match wins; names not
#: listed get theirs from their size (4 decimals below 10, one fewer per factor of ten).
NAMED_DECIMALS: tuple[tuple[re.Pattern, int], ...] = (
    (MONTE_CARLO_NAMES, MONTE_CARLO_DECIMALS),
    (STATISTIC_NAMES, STATISTIC_DECIMALS),
    # P(better) of a pair from its t (analytic, not drawn): four decimals in the tables and
    # in the Leaderboard heatmap's cells alike (a cell had read .944 beside 0.9438)
    (re.compile(r"^(p_better|p_a_better)$"), DECIMALS),
    # 2PL item parameters (logit scale): a collapsed fit reaches tens, a usable one |b| < 10
    (re.compile(r"^(difficulty|discrimination)$"), 3),
    (re.compile(r"^df$"), 1),  # a pair difference's degrees of freedom (Welch-type)
)


#: A column derived from a named quantity -- a summary of it over rows (``difficulty_median``
#: of a subset's questions) or an end of its interval (``p_best_lo``) -- is written in the same
#: unit and takes that quantity's decimals: ``<name>_<one of these>``.
DERIVED_NAMES = re.compile(r"^(?P<base>.+)_(median|mean|sd|se|lo|hi|min|max)$")


@checked_keywords
def named_decimals(name: Any) -> int | None:
    """The decimals :data:`NAMED_DECIMALS` fixes for a column called ``name``, or for the
    quantity it summarises (:data:`DERIVED_NAMES`: ``difficulty_median`` as ``difficulty``);
    ``None``: not a named quantity, its values decide.

    Example
    -------
    >>> from scorio_core.formatting import named_decimals
    >>> named_decimals("difficulty"), named_decimals("p_best"), named_decimals("score")
    (3, 3, None)
    >>> named_decimals("difficulty_median"), named_decimals("score_median")
    (3, None)
    """
    if name is None:
        return None
    name = str(name)
    fixed = next((d for pat, d in NAMED_DECIMALS if pat.match(name)), None)
    if fixed is None and (derived := DERIVED_NAMES.match(name)):
        return named_decimals(derived["base"])
    return fixed

#: Column names that hold a probability or a share, a number in [0, 1] whose 1 reads as
#: certain (every draw, every replicate): ``p_best``, ``p_unsettled``, ``p_value``, ``p_better``
#: (the app's ``P(better > next)``), the Pair view's ``p_a_better``, the Planner's
#: ``p_correct``/``p_decided*`` and ``rho``, a check's or a simulation's ``coverage``,
#: ``power``, ``wrong_way`` and ``predicted``/``observed`` chances, a convergence table's
#: ``no_convergence`` and ``p`` (a probability mass), and any ``share``. One below 1 that would
#: print as 1 reads ``>0.9999`` (:func:`format_number`'s ``probability``), as one above 0
#: that would print as 0 reads ``<0.0001`` in every number column. Scores, τ and interval
#: ends are not listed: their 1 is not a certainty.
PROBABILITY_NAMES = re.compile(
    r"^(p|p_(best|unsettled|value|better|a_better|correct|decided|decided_at_lead)|rho|power|"
    r"wrong_way|no_convergence|predicted|observed|(first_|least_)?coverage|band_(lo|hi)|"
    r"(.+_)?share(_.+)?)$"
)
#: Summaries of a probability that are probabilities too (``p_best_lo``, ``coverage_mean``);
#: its ``sd`` or ``se`` is not.
_PROBABILITY_SUMMARIES = ("median", "mean", "lo", "hi", "min", "max")


@checked_keywords
def is_probability(name: Any) -> bool:
    """Whether a column called ``name`` holds a probability or a share
    (:data:`PROBABILITY_NAMES`), or an end or a summary of one (``p_best_hi``).

    Example
    -------
    >>> from scorio_core.formatting import is_probability
    >>> [is_probability(n) for n in ("p_best", "p_best_hi", "p_best_se", "score", "coverage")]
    [True, True, False, False, True]
    """
    if name is None:
        return False
    name = str(name)
    if PROBABILITY_NAMES.match(name):
        return True
    derived = DERIVED_NAMES.match(name)
    return bool(derived) and derived[2] in _PROBABILITY_SUMMARIES and is_probability(
        derived["base"])


#: Column names that hold the papers' expected-z trials rule (000 App. D). Where the table
#: says how many trials per question its data have now (``df.attrs[TRIALS_NOW]``), a count
#: at or below it reads :data:`RULE_MET`: printed as a number it read as "add N more".
PAPERS_RULE_NAMES = re.compile(r"^trials_needed_papers$")
TRIALS_NOW = "trials_now"
RULE_MET = "met now"


#: Decimals of every float an export writes (CSV, JSON): no float noise such as
#: 0.16666666666666663, and far below any difference the numbers can resolve.
EXPORT_DIGITS = 6


def _export_float(v: float, digits: int, probability: bool = False) -> float:
    """``v`` rounded to ``digits`` decimals, unless that writes a number ``v`` is not: a
    non-zero value that rounds to 0 keeps ``digits`` significant digits (a p-value of
    5.5e-12 is not 0), and a probability below 1 that rounds to 1 the digits that keep it
    below 1 (the exports' side of the ``<0.0001`` / ``>0.9999`` texts)."""
    if not math.isfinite(v):
        return v
    r = round(v, digits)
    if r == 0 and v != 0:
        return round(v, digits - 1 - math.floor(math.log10(abs(v))))
    if probability and r == 1 and v < 1:
        kept = round(v, 2 - math.floor(math.log10(1 - v)))  # 1 - v to two digits
        return kept if kept < 1 else v
    return r


@checked_keywords
def round_floats(df: pd.DataFrame, digits: int = EXPORT_DIGITS, *,
                 probability: bool | None = None) -> pd.DataFrame:
    """A copy of ``df`` with its float columns rounded to ``digits`` decimals: the one
    rounding rule of the exports (the leaderboard's CSV and JSON,
    :func:`scorio_core.definitions.provenance.export_frame` for every analysis's CSV). A
    value the rounding would turn into a number it is not keeps the digits that tell them
    apart: a non-zero value never reads 0, and a probability or share below 1
    (:func:`is_probability`) never 1 -- the numbers behind the tables' ``<0.0001`` and
    ``>0.9999``. ``probability``: whether every column holds probabilities, where their
    names cannot say (a rank distribution's columns are the ranks ``1..L``); ``None``: by
    each column's name.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.formatting import round_floats
    >>> round_floats(pd.DataFrame({"p": [1 / 6], "n": [3]})).values.tolist()
    [[0.166667, 3.0]]
    >>> t = pd.DataFrame({"p_value": [5.5061234e-12, 0.25], "p_a_better": [1 - 2.6e-12, 0.5]})
    >>> round_floats(t).values.tolist()
    [[5.50612e-12, 0.9999999999974], [0.25, 0.5]]
    >>> rd = pd.DataFrame({1: [0.99999996, 1.0], 2: [4e-8, 0.0]})  # P(rank = 1), P(rank = 2)
    >>> round_floats(rd, probability=True).values.tolist(), round_floats(rd).values.tolist()
    ([[0.99999996, 4e-08], [1.0, 0.0]], [[1.0, 4e-08], [1.0, 0.0]])
    """
    out, probability_all = df.copy(), probability
    for i in range(out.shape[1]):
        col = out.iloc[:, i]
        if col.dtype.kind != "f":
            continue
        rounded = col.round(digits)
        wrong = (rounded == 0) & (col != 0)
        probability = (is_probability(out.columns[i]) if probability_all is None
                       else probability_all)
        if probability:
            wrong |= (rounded == 1) & (col < 1)
        if wrong.any():
            rounded = rounded.where(~wrong, [_export_float(v, digits, probability)
                                             for v in col.tolist()])
        out.isetitem(i, rounded)
    return out


@checked_keywords
def round_json(obj: Any, digits: int = EXPORT_DIGITS) -> Any:
    """``obj`` (a JSON-like value: dicts, lists, numbers, text) with every float rounded to
    ``digits`` decimals, as :func:`round_floats` rounds a table's: a report written as JSON
    (``scorio-studio info``'s import report) gives our mean and the harness's own value the
    same digits (``0.333333`` beside ``0.333333``, not ``0.3333333333333333``); a non-zero
    float is never written as 0. Integers, text, booleans and non-finite floats stay as they
    are.

    Example
    -------
    >>> from scorio_core.formatting import round_json
    >>> round_json({"mean": 1 / 3, "harness": {"value": 1 / 3, "n": 3}, "xs": [2 / 3, "a"]})
    {'mean': 0.333333, 'harness': {'value': 0.333333, 'n': 3}, 'xs': [0.666667, 'a']}
    """
    if isinstance(obj, float):
        return _export_float(obj, digits)
    if isinstance(obj, dict):
        return {k: round_json(v, digits) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [round_json(v, digits) for v in obj]
    return obj


@checked_keywords
def percent(value: float) -> str:
    """A confidence, a chance or an assurance setting as every text writes it -- the app's
    row of buttons, its notes, the CLI, captions, caveats and reports: whole percents, and
    the decimals a value off the buttons needs (``{x:.0%}`` wrote a confidence of 0.925 as
    "92%" beside buttons that say 92.5%).

    Example
    -------
    >>> from scorio_core.formatting import percent
    >>> percent(0.95), percent(0.925), percent(0.29), percent(1 - 0.95)
    ('95%', '92.5%', '29%', '5%')
    """
    return f"{round(100 * float(value), 6):g}%"


#: Decimals of a measured share written as a percent (:func:`share_percent`): one, in every
#: sentence and on the Data page's category shares.
SHARE_DECIMALS = 1


@checked_keywords
def share_percent(value: float, *, draws: int | None = None) -> str:
    """A measured share or chance as every sentence writes it -- a coverage, the share of runs
    or of pairs decided, p_best's calibration, a simulation's standard error, how far a
    spread narrows: a percent with :data:`SHARE_DECIMALS` decimal (``{x:.0%}`` wrote a
    coverage of 94.6% as "95%", level with a band's edge it is not on). As the tables write a
    probability, one below 1 that would print as 100.0% reads ``>99.9%`` and one above 0 that
    would print as 0.0% reads ``<0.1%``; exact ones stay ``100.0%`` and ``0.0%``; missing is
    ``—``. A setting (a confidence, an assurance) is :func:`percent`'s, as its buttons write it.

    ``draws``: the share is of that many simulated draws (a table's :data:`DRAWS_ATTR`), so its
    0 and 1 are bounds, as :func:`format_number` writes them in the tables: ``<0.1%`` and
    ``>99.9%`` (one draw's share where the draws are fewer: ``>99.5%`` of 200).

    Example
    -------
    >>> from scorio_core.formatting import share_percent
    >>> share_percent(0.946), share_percent(0.5), share_percent(1 / 6), share_percent(2.5)
    ('94.6%', '50.0%', '16.7%', '250.0%')
    >>> share_percent(0.99996), share_percent(1.0), share_percent(4e-5), share_percent(0.0)
    ('>99.9%', '100.0%', '<0.1%', '0.0%')
    >>> share_percent(1.0, draws=2000), share_percent(0.0, draws=200), share_percent(0.5, draws=9)
    ('>99.9%', '<0.5%', '50.0%')
    """
    if _is_missing(value):
        return MISSING
    f = float(value)
    if draws and f in (0.0, 1.0):  # none (all) of the draws: a bound, as the tables write it
        scale = 10 ** (SHARE_DECIMALS + 2)
        step = max(1, math.ceil(scale / int(draws) - 1e-9)) / scale
        return (f"<{format_number(100 * step, SHARE_DECIMALS)}%" if f == 0 else
                f">{format_number(100 * (1 - step), SHARE_DECIMALS)}%")
    text = format_number(100 * f, SHARE_DECIMALS)
    if f < 1 and text == format_number(100.0, SHARE_DECIMALS):
        text = f">{100 - 10.0 ** -SHARE_DECIMALS:.{SHARE_DECIMALS}f}"
    return f"{text}%"


@checked_keywords
def a_chance(p: float, *, measured: bool = False) -> str:
    """A chance setting (the Planner's assurance) in words: ``"an 80% chance"``, ``"a 92.5%
    chance"`` -- :func:`percent` with the article that the number takes; ``measured``: a
    chance a run measured (a simulation's share), as :func:`share_percent` writes it.

    Example
    -------
    >>> from scorio_core.formatting import a_chance
    >>> a_chance(0.8), a_chance(0.95), a_chance(0.11), a_chance(0.925)
    ('an 80% chance', 'a 95% chance', 'an 11% chance', 'a 92.5% chance')
    >>> a_chance(0.1667, measured=True), a_chance(0.0849, measured=True)
    ('a 16.7% chance', 'an 8.5% chance')
    """
    pct = share_percent(p) if measured else percent(p)
    an = pct.startswith("8") or pct[:2] in ("11", "18")
    return f"{'an' if an else 'a'} {pct} chance"


#: Significant digits of a category weight wherever it is written -- a rubric's summary, a
#: settings line, the Rubric builder's weight boxes and the tables' weight columns
#: (:data:`WEIGHT_PRINTF`): ``0.5`` as 0.5 (not 0.500), 1/3 as 0.333333 (not 0.333).
WEIGHT_DIGITS = 6
#: :data:`WEIGHT_DIGITS` as the printf pattern of a number box or an app table's column
#: (Streamlit's sprintf writes ``%.6g`` as Python's ``:.6g`` does for weights).
WEIGHT_PRINTF = f"%.{WEIGHT_DIGITS}g"


@checked_keywords
def weight_text(w: float) -> str:
    """A category weight as every text writes it (:data:`WEIGHT_DIGITS` significant digits).

    Example
    -------
    >>> from scorio_core.formatting import weight_text
    >>> [weight_text(w) for w in (0, 0.5, 1 / 3, 0.85, -2, 2.5)]
    ['0', '0.5', '0.333333', '0.85', '-2', '2.5']
    """
    return f"{float(w):.{WEIGHT_DIGITS}g}"


#: A number in score units in an app number box (the Planner's lead that matters, the
#: Simulator's means), with the decimals the tables give the same quantity -- a lead beside
#: ``trials_gap`` / ``questions_gap``, a mean beside ``score``: four below 10.
SCORE_PRINTF = f"%.{DECIMALS}f"


#: A number setting of a lesson (the spread κ) in its app number box, as the lesson's texts,
#: its "κ used" metric and the CLI write it (``f"{x:g}"``: 3, 2.5, 10000): the box had shown
#: Streamlit's default ``3.00`` beside a metric reading ``3``.
SETTING_PRINTF = "%g"


@checked_keywords
def setting_text(x: float) -> str:
    """A number setting as every text writes it and its box shows it (:data:`SETTING_PRINTF`).

    Example
    -------
    >>> from scorio_core.formatting import SETTING_PRINTF, setting_text
    >>> [setting_text(k) for k in (3.0, 2.5, 0.5, 10_000.0)], SETTING_PRINTF % 3.0
    (['3', '2.5', '0.5', '10000'], '3')
    """
    return SETTING_PRINTF % float(x)


@checked_keywords
def count_text(n: int, noun: str) -> str:
    """``n`` with ``noun`` in the number it needs: ``count_text(1, "question")`` is
    ``'1 question'``, ``count_text(1200, "trial")`` ``'1,200 trials'``. Every count a text
    writes goes through it (or :func:`noun_text`): no ``question(s)``."""
    return f"{int(n):,} {noun_text(n, noun)}"


@checked_keywords
def noun_text(n: int, noun: str) -> str:
    """``noun`` in the number ``n`` needs, without the number, for a text whose list names
    the things it counts: ``noun_text(1, "key")`` is ``'key'``, ``noun_text(2, "key")``
    ``'keys'`` (``f"unknown {noun_text(len(extra), 'key')} {names}"``)."""
    return noun if int(n) == 1 else f"{noun}s"


@checked_keywords
def shape_text(L: int, M: int, N: int) -> str:
    """A dataset's shape as every table, report and title states it:
    ``'3 models × 1 question × 8 trials'``."""
    return " × ".join(count_text(n, w) for n, w in ((L, "model"), (M, "question"),
                                                    (N, "trial")))


def _is_missing(v: Any) -> bool:
    if type(v) is float:  # most cells: a column's ``tolist()`` gives Python floats
        return v != v
    if type(v) is int:
        return False
    if v is None or type(v).__name__ in ("NAType", "NaTType"):
        return True
    f = _as_float(v)
    return f is not None and math.isnan(f)


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool) or type(v).__name__ == "bool_"


def _as_float(v: Any) -> float | None:
    """``v`` as a float when it is a real number (not bool, not text), else ``None``."""
    if type(v) is float:  # exactly a float (not a subclass, not bool): itself
        return v
    if type(v) is not int and (_is_bool(v) or not isinstance(v, numbers.Real)):
        return None
    try:
        return float(v)
    except (TypeError, ValueError, OverflowError):  # an int beyond float range
        return math.inf if v > 0 else -math.inf


@dataclass(frozen=True)
class ColumnFormat:
    """How one column is written: ``kind`` is ``"int"``, ``"float"``, ``"bool"`` or
    ``"text"``; ``decimals`` applies to ``"float"``; ``probability``: a ``"float"`` column of
    probabilities or shares (:func:`is_probability`), where a value below 1 never prints as 1;
    ``draws``: the column is a share of that many Monte-Carlo draws (:data:`DRAWS_ATTR`), so
    its 0 and 1 are bounds, not certainties (:func:`format_number`)."""

    kind: str
    decimals: int = DECIMALS
    probability: bool = False
    draws: int | None = None

    @property
    def numeric(self) -> bool:
        """Right-aligned in tables."""
        return self.kind in ("int", "float")

    def __call__(self, v: Any) -> str:
        return format_value.__wrapped__(v, self)  # once per cell: unchecked


def _decimals_for(largest: float) -> int:
    if largest < 10:
        return DECIMALS
    return max(0, DECIMALS - int(math.floor(math.log10(largest))))


#: What a column's ``values`` are, as a refusal of one string says it.
_COLUMN = "a column's values (a list, array or Series)"


@checked_keywords
def column_format(values: Iterable[Any], name: Any = None) -> ColumnFormat:
    """The one format of a column, from all its values (and its name, for counts).

    Example
    -------
    >>> from scorio_core.formatting import column_format
    >>> column_format([0.5, 1.0], "gap"), column_format([3.0, float("inf")],
    ...                                                  "trials_needed_papers")
    (ColumnFormat(kind='float', decimals=4, probability=False, draws=None), \
ColumnFormat(kind='int', decimals=4, probability=False, draws=None))
    >>> column_format([0.7491, 0.1332], "p_best")  # a share of draws: three decimals
    ColumnFormat(kind='float', decimals=3, probability=True, draws=None)
    >>> column_format([32.0, 26.0], "decided").decimals  # an average over runs: whole by chance
    3
    """
    finite, whole, numbers_seen, texts, bools = [], True, False, False, False
    ints_only = True
    for v in no_text(values, "values", _COLUMN):  # not a string's letters
        if _is_missing(v):
            continue
        if _is_bool(v):
            bools = True
            continue
        f = _as_float(v)
        if f is None:
            texts = True
            continue
        numbers_seen = True
        ints_only = ints_only and isinstance(v, numbers.Integral)
        if math.isfinite(f):
            finite.append(abs(f))
            whole = whole and f == math.floor(f)
    if texts or (bools and not numbers_seen):
        return ColumnFormat("bool" if bools and not texts else "text")
    if not numbers_seen:  # nothing but missing values: a number column with no numbers yet
        fixed = named_decimals(name)
        return ColumnFormat("float", DECIMALS if fixed is None else fixed, is_probability(name))
    largest = max(finite, default=0.0)
    if name is not None and PAPERS_RULE_NAMES.match(str(name)):
        return ColumnFormat("int")  # a count of trials, whatever a caller rounded
    is_count = name is not None and bool(COUNT_NAMES.match(str(name)))
    is_mean = name is not None and bool(MEAN_NAMES.match(str(name)))
    if ints_only or (whole and not is_mean and (is_count or largest >= 2)):
        return ColumnFormat("int")
    fixed = named_decimals(name)
    return ColumnFormat("float", _decimals_for(largest) if fixed is None else fixed,
                        is_probability(name))


@checked_keywords
def format_number(v: Any, decimals: int = DECIMALS, *, integer: bool = False,
                  probability: bool = False, draws: int | None = None) -> str:
    """One number: ``∞``/``-∞``, ``—`` when missing, thousands separators, ``integer``
    rounds to a whole number, and a non-zero value too small for ``decimals`` shows as
    ``<0.0001`` rather than ``0.0000``; with ``probability``, the mirror: a value below 1
    that would print as ``1.0000`` shows as ``>0.9999`` (an exact 1 stays ``1.0000``).

    ``draws``: the value is a share of that many Monte-Carlo draws (``p_best``, a rank
    distribution), whose 0 is "in none of the draws", not impossible, and whose 1 is "in
    all of them", not certain: they read ``<0.001`` and ``>0.999`` -- the column's step, or
    one draw's share where the draws are fewer than the decimals resolve (``<0.005`` for 0
    of 200 draws). A 0 or 1 that holds by construction (the one model of a board) is given
    without ``draws`` and stays ``0.000`` / ``1.000``.

    Example
    -------
    >>> from scorio_core.formatting import format_number
    >>> format_number(float("inf")), format_number(None), format_number(1234.0, integer=True)
    ('∞', '—', '1,234')
    >>> format_number(0.123456), format_number(2e-7), format_number(-2e-7, 2)
    ('0.1235', '<0.0001', '>-0.01')
    >>> [format_number(p, 3, probability=True) for p in (0.9996, 0.0004, 1.0, 0.9994)]
    ['>0.999', '<0.001', '1.000', '0.999']
    >>> [format_number(p, 3, probability=True, draws=10_000) for p in (0.0, 1.0, 0.25)]
    ['<0.001', '>0.999', '0.250']
    >>> format_number(0.0, 3, probability=True, draws=200)  # none of 200 draws: below 1/200
    '<0.005'
    """
    if _is_missing(v):
        return MISSING
    f = _as_float(v)
    if f is None:
        return str(v)
    if math.isinf(f):
        return INF if f > 0 else NEG_INF
    if integer:  # an exact int stays exact (a float would round 10**40)
        return f"{int(v):,}" if isinstance(v, numbers.Integral) else f"{round(f):,}"
    if draws and decimals and f in (0.0, 1.0):  # none (all) of the draws: a bound
        scale = 10**decimals
        step = max(1, math.ceil(scale / int(draws) - 1e-9)) / scale
        return f"<{step:.{decimals}f}" if f == 0 else f">{1 - step:.{decimals}f}"
    text = f"{f:,.{decimals}f}"
    if f != 0 and float(text.replace(",", "")) == 0:
        step = f"{10.0 ** -decimals:.{decimals}f}" if decimals else "1"
        return f"<{step}" if f > 0 else f">{MINUS}{step}"
    if probability and decimals and f < 1 and float(text.replace(",", "")) == 1:
        return f">{1 - 10.0 ** -decimals:.{decimals}f}"
    return text


@checked_keywords
def format_value(v: Any, fmt: ColumnFormat) -> str:
    """One cell in its column's format (text cells as they are, ``—`` when missing)."""
    if _is_missing(v):
        return MISSING
    if _is_bool(v):
        return "yes" if bool(v) else "no"
    if fmt.kind == "text" or _as_float(v) is None:
        return str(v)
    return format_number.__wrapped__(v, fmt.decimals, integer=fmt.kind == "int",
                                     probability=fmt.probability, draws=fmt.draws)


@checked_keywords
def format_column(values: Sequence[Any], name: Any = None) -> list[str]:
    """Every value of a column in the column's one format.

    Example
    -------
    >>> from scorio_core.formatting import format_column
    >>> format_column([466.0, 2368.0, float("nan")], "trials_needed")
    ['466', '2,368', '—']
    """
    fmt, cell = column_format(values, name), format_value.__wrapped__  # per cell: unchecked
    return [cell(v, fmt) for v in values]


def _met_now(values: list, cells: list[str], n_now: int) -> list[str]:
    """``cells`` with :data:`RULE_MET` where the papers' rule (``values``) is at most ``n_now``."""
    return [RULE_MET if (f := _as_float(v)) is not None and math.isfinite(f) and f <= n_now
            else c for v, c in zip(values, cells, strict=True)]


@checked_keywords
def papers_rule_cells(values: Sequence[Any], n_now: int | None) -> list[str]:
    """The papers' trials rule (:data:`PAPERS_RULE_NAMES`) as text: :data:`RULE_MET` where
    today's ``n_now`` trials already reach it, ∞ for a tie no number of trials separates,
    — for no pair, otherwise the count (``n_now=None``: the counts alone).

    Example
    -------
    >>> from scorio_core.formatting import papers_rule_cells
    >>> papers_rule_cells([8.0, 12.0, float("inf"), None], 8)
    ['met now', '12', '∞', '—']
    """
    values = list(no_text(values, "values", _COLUMN))
    cells = format_column(values, "trials_needed_papers")
    return cells if n_now is None else _met_now(values, cells, int(n_now))


#: ``df.attrs`` key of a table's own declared decimals per column (``{name: decimals}``),
#: for columns whose name alone does not say what they hold (e.g. a ``mean`` of trial
#: counts over replicates in the convergence summary, beside ``mean`` scores elsewhere).
DECIMALS_ATTR = "decimals"
#: ``df.attrs`` key of the columns that are shares of Monte-Carlo draws, ``{name: draws}``:
#: ``p_best`` of a board of two or more models, every column of a rank distribution. Their
#: 0 and 1 read as bounds (:func:`format_number`'s ``draws``: ``<0.001``, ``>0.999``) in
#: every table for people -- the CLI, the reports, the app, a notebook's display -- while
#: the exports keep the numbers; a column not listed (a one-model board's ``p_best`` of 1,
#: exact by construction) keeps its 0 and 1.
DRAWS_ATTR = "draws"


def _table_format(values: list, name: Any, declared: dict,
                  drawn: dict | None = None) -> ColumnFormat:
    """:func:`column_format`, or the decimals ``declared`` for ``name`` (0: an integer);
    a probability of ``drawn[name]`` Monte-Carlo draws where ``drawn`` lists it."""
    fmt = column_format(values, name)
    if name in declared and fmt.numeric:
        d = int(declared[name])
        fmt = ColumnFormat("float", d, fmt.probability) if d > 0 else ColumnFormat("int")
    if drawn and name in drawn and fmt.kind == "float":
        fmt = ColumnFormat("float", fmt.decimals, True, int(drawn[name]))
    return fmt


@checked_keywords
def table_formats(df: pd.DataFrame) -> list[ColumnFormat]:
    """The one format of every column of ``df``: :func:`column_format`, or the decimals the
    table declares in ``df.attrs[DECIMALS_ATTR]`` for a number column (0: an integer).
    Every renderer -- text, Markdown, HTML and the app's number columns -- reads this.

    Example
    -------
    >>> from scorio_core.formatting import DECIMALS_ATTR, table_formats
    >>> import pandas as pd
    >>> t = pd.DataFrame({"mean": [29.25, 31.0], "share": [0.07, 0.5]})
    >>> t.attrs[DECIMALS_ATTR] = {"mean": 1, "share": 3}
    >>> [(f.kind, f.decimals) for f in table_formats(t)]
    [('float', 1), ('float', 3)]
    """
    attrs = getattr(df, "attrs", {})
    declared, drawn = attrs.get(DECIMALS_ATTR) or {}, attrs.get(DRAWS_ATTR) or {}
    return [_table_format(df.iloc[:, i].tolist(), c, declared, drawn)
            for i, c in enumerate(df.columns)]


@checked_keywords
def format_columns(df: pd.DataFrame, *, rows: int | None = None,
                   ) -> list[tuple[str, ColumnFormat, list[str]]]:
    """``(name, format, cells)`` of every column: what a renderer (HTML, Markdown, text)
    needs to write and align a table (formats as :func:`table_formats`; the papers' trials
    rule as :func:`papers_rule_cells` when ``df.attrs`` holds :data:`TRIALS_NOW`).

    A column's one format is chosen from all its rows, so the first ``rows`` (the cells
    returned; ``None``: all) print as every other rendering of the table prints them."""
    attrs = getattr(df, "attrs", {})
    declared, now = attrs.get(DECIMALS_ATTR) or {}, attrs.get(TRIALS_NOW)
    drawn = attrs.get(DRAWS_ATTR) or {}
    cell = format_value.__wrapped__  # once per cell: without the keyword check
    out = []
    for i, c in enumerate(df.columns):
        values = df.iloc[:, i].tolist()
        fmt = _table_format(values, c, declared, drawn)
        if rows is not None:
            values = values[:rows]
        cells = [cell(v, fmt) for v in values]
        if now is not None and PAPERS_RULE_NAMES.match(str(c)):
            cells = _met_now(values, cells, int(now))
        out.append((str(c), fmt, cells))
    return out


@checked_keywords
def format_frame(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with every cell as text in its column's format (same shape, index and
    column names)."""
    import pandas as pd

    cols = format_columns(df)
    return pd.DataFrame({i: cells for i, (_, _, cells) in enumerate(cols)},
                        index=df.index).set_axis(df.columns, axis=1)


@checked_keywords
def column_texts(df: pd.DataFrame, column: Any) -> list[str]:
    """Every cell of ``df``'s ``column`` as the table prints it: the column's one format,
    with the decimals and the draws the table declares (:data:`DECIMALS_ATTR`,
    :data:`DRAWS_ATTR`) -- what a chart's tooltip shows of a table's number, so a ``p_best``
    first in none of 10,000 draws reads ``<0.001`` there as in the table, not a d3
    format's ``0.000``.

    Example
    -------
    >>> from scorio_core.formatting import DRAWS_ATTR, column_texts
    >>> import pandas as pd
    >>> t = pd.DataFrame({"model": ["a", "b"], "p_best": [1.0, 0.0]})
    >>> column_texts(t, "p_best")
    ['1.000', '0.000']
    >>> t.attrs[DRAWS_ATTR] = {"p_best": 10_000}
    >>> column_texts(t, "p_best")
    ['>0.999', '<0.001']
    """
    attrs = getattr(df, "attrs", {})
    values = df[column].tolist()
    fmt = _table_format(values, column, attrs.get(DECIMALS_ATTR) or {},
                        attrs.get(DRAWS_ATTR) or {})
    return [format_value.__wrapped__(v, fmt) for v in values]


@checked_keywords
def printed_numbers(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` whose float columns hold each value as its column's one format
    prints it (:func:`table_formats`: its decimals, a whole number in an integer column),
    still as numbers: a screen table that sorts by number and, drawn with the same printf
    decimals, shows what the CLI and the reports print -- a browser rounds an exact half
    up (2.5 -> 3, 6.25 -> 6.3) where the core rounds it to even (2, 6.2). Missing and
    infinite values stay as they are; so does the table's ``attrs``.

    Example
    -------
    >>> from scorio_core.formatting import DECIMALS_ATTR, format_frame, printed_numbers
    >>> import pandas as pd
    >>> t = pd.DataFrame({"mean": [6.25, float("nan")], "median": [2.5, 3.5]})
    >>> t.attrs[DECIMALS_ATTR] = {"mean": 1, "median": 0}
    >>> printed_numbers(t).values.tolist(), format_frame(t).values.tolist()
    ([[6.2, 2.0], [nan, 4.0]], [['6.2', '2'], ['—', '4']])
    """
    out = df.copy()
    for i, fmt in enumerate(table_formats(df)):
        col = df.iloc[:, i]
        if not fmt.numeric or col.dtype.kind != "f":
            continue
        d = 0 if fmt.kind == "int" else fmt.decimals
        out.iloc[:, i] = [float(round(v, d)) if math.isfinite(v) else v for v in col.tolist()]
    return out


#: Widest text cell of a plain-text table (:func:`text_table`): a longer one (a class of 37
#: method names, a note) wraps onto the next lines of its column, so a table stays readable
#: in a terminal; numbers never wrap.
TEXT_WIDTH = 50

#: Width a terminal's prose is wrapped to (``scorio-studio leaderboard``'s header sentences,
#: a study's "How to read this" and "What to notice"): a paragraph, not a table cell.
LINE_WIDTH = 100


_LINE_BREAK = re.compile(r"\r\n?|\n")


def _wrap(text: str) -> list[str]:
    """A text cell as the lines of its column: its own lines (a line break starts a new one,
    as the HTML report's ``<br>``: left in, it broke the table's alignment), each wrapped at
    word boundaries (after ``", "`` in a list of names) to :data:`TEXT_WIDTH`, a longer word
    cut.

    Example
    -------
    >>> from scorio_core.formatting import _wrap
    >>> _wrap("Is 70 even?\\nA. Even\\r\\nB. Odd\\n")
    ['Is 70 even?', 'A. Even', 'B. Odd']
    """
    lines = _LINE_BREAK.split(text.strip("\r\n"))
    if len(lines) == 1 and len(lines[0]) <= TEXT_WIDTH:
        return lines
    import textwrap

    return [part for line in lines
            for part in (textwrap.wrap(line, TEXT_WIDTH, break_on_hyphens=False) or [""])]


@checked_keywords
def display_width(text: str) -> int:
    """The columns ``text`` takes in a terminal: two for an East Asian wide or fullwidth
    character (``模``, ``Ｑ``, most emoji), none for a combining mark or a format character
    (the accent of ``e\u0301``, a zero-width joiner), one for any other -- what
    :func:`text_table` pads to, so a row with ``模型-β`` stays under its header (``len()``
    counted it as four columns where a terminal draws six).

    Example
    -------
    >>> from scorio_core.formatting import display_width
    >>> display_width("模型-β"), display_width("e\u0301"), display_width("Ωmega")
    (6, 1, 5)
    """
    import unicodedata

    return sum(0 if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf")
               else 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


@checked_keywords
def text_table(df: pd.DataFrame, *, max_rows: int | None = None) -> str:
    """An aligned plain-text table: numbers right-aligned, text left-aligned, a text cell
    longer than :data:`TEXT_WIDTH` wrapped onto the next lines of its column (the row's other
    cells on its first line); with ``max_rows``, longer tables end with a line that says
    how many rows were left out.

    Example
    -------
    >>> from scorio_core.formatting import text_table
    >>> import pandas as pd
    >>> print(text_table(pd.DataFrame({"m": ["x", "yy"], "rank": [1, 12]})))
    m   rank
    x      1
    yy    12
    >>> names = ", ".join(f"method_{i}" for i in range(8))
    >>> print(text_table(pd.DataFrame({"rank": [1], "methods": [names], "size": [8]})))
    rank  methods                                            size
       1  method_0, method_1, method_2, method_3, method_4,     8
          method_5, method_6, method_7
    """
    shown = df if max_rows is None else df.head(max_rows)
    cols = format_columns(df, rows=len(shown))  # each column's format from all its rows
    if not cols:
        return "(no columns)"
    # each cell as its lines: a number on one, a long text wrapped in its column
    cells = [[[c] if fmt.numeric else _wrap(c) for c in texts] for _, fmt, texts in cols]
    width = display_width.__wrapped__  # once per cell: without the keyword check
    widths = [max([width(name)] + [width(x) for cell in col for x in cell])
              for (name, _, _), col in zip(cols, cells, strict=True)]

    def line(items: list[str]) -> str:
        # padded to the columns a terminal draws, not to len(): 模型 takes four, e\u0301 one
        pads = [" " * (w - width(s)) for s, w in zip(items, widths, strict=True)]
        parts = [pad + s if fmt.numeric else s + pad
                 for s, pad, (_, fmt, _) in zip(items, pads, cols, strict=True)]
        return "  ".join(parts).rstrip()

    rows = [line([name for name, _, _ in cols])]
    for r in range(len(shown)):
        row = [col[r] for col in cells]
        rows += [line([cell[k] if k < len(cell) else "" for cell in row])
                 for k in range(max(map(len, row)))]
    if max_rows is not None and len(df) > max_rows:
        rows.append(f"… {len(df) - max_rows} more rows")
    return "\n".join(rows)


#: ``<`` that could open raw HTML or an autolink (``<img``, ``</b``, ``<!--``, ``<http:``)
#: and ``&`` that would start a character reference (``&amp;``, ``&#60;``), in Markdown.
_MD_TAG = re.compile(r"<(?=[A-Za-z/!?])")
_MD_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")


@checked_keywords
def md_inline(text: str) -> str:
    """Text made inert in Markdown with as little as it takes: a Markdown source is read as
    text too, so ``<0.0001``, ``p < 0.05`` and ``N >= 2`` stay as they are (no ``<`` before
    a digit or a space can open a tag, and no ``>`` can close one without it); only a ``<``
    that would open raw HTML and an ``&`` that would start a character reference become
    ``&lt;``/``&amp;`` -- the one escape every Markdown renderer honours (``\\<`` is
    CommonMark's, which Python-Markdown ignores, leaving the tag live).

    Example
    -------
    >>> from scorio_core.formatting import md_inline
    >>> print(md_inline("<img src=x> & &amp; p <0.0001, N >= 2"))
    &lt;img src=x> & &amp;amp; p <0.0001, N >= 2
    """
    return _MD_TAG.sub("&lt;", _MD_ENTITY.sub("&amp;", str(text)))


#: What a name from the data (a model, a question, a benchmark, a category) may hold that
#: Markdown prose reads as markup: a backslash, a code span's backtick, emphasis, a link's
#: brackets, GFM's strikethrough and the ``$`` that Streamlit, Jupyter and GitHub read as
#: math ("cost $5 $6" drew "5 " as a formula); an underscore only where a word does not hold
#: it (``LLM_4`` stays: Markdown reads no emphasis there), ``<``/``&`` as :func:`md_inline`
_NAME_MARKUP = re.compile(r"[\\`*\[\]~$]|(?<![^\W_])_|_(?![^\W_])")


@checked_keywords
def md_name(name: str) -> str:
    """A name from the data as Markdown prose shows it letter for letter: each character
    that would be read as markup escaped with a backslash (``<`` and ``&`` as
    :func:`md_inline` makes them inert), the rest as it is -- a name that holds no markup is
    returned unchanged.

    Example
    -------
    >>> from scorio_core.formatting import md_name
    >>> print(md_name("big*model*"), md_name("a_b_"), md_name("[beta](x)"), md_name("cost $5"))
    big\\*model\\* a_b\\_ \\[beta\\](x) cost \\$5
    >>> md_name("gpt-4o_mini"), md_name("<b>")
    ('gpt-4o_mini', '&lt;b>')
    """
    return md_inline.__wrapped__(_NAME_MARKUP.sub(lambda m: "\\" + m[0], str(name)))


#: A code span of our own sentences (what :func:`md_prose` leaves as written)
_CODE_SPAN = "`[^`]+`"
#: What may stand beside a name without a letter or digit (``*``, ``**``, a backtick, ``$``)
#: where our sentence quotes it whole: the start or a space, an opening bracket or quote
#: before it; the end or a space, a closing bracket or quote or a punctuation mark after it
_BEFORE_ALONE = "(?<![^\\s(\\[{\"'“‘])"
_AFTER_ALONE = "(?![^\\s)\\]}\"'”’,.;:!?])"
#: Our emphasis that may open or close beside such a name (``**{name}**``, ``*{name} vs``):
#: our sentences write it with asterisks
_EMPHASIS_RUNS = ("*", "**")


@functools.lru_cache(maxsize=64)
def _prose_pattern(names: tuple[str, ...]) -> re.Pattern:
    """A name of ``names`` that holds markup or opens a block where it starts a line
    (``1. x``, :data:`_BLOCK_START`), the longest first (``a_b_`` before ``a_``), or
    one of our code spans, as the group ``name`` or ``code``. A name with a letter or digit
    is found wherever it occurs; one without (``*``, ``**``, a backtick) only where it stands
    whole (:data:`_BEFORE_ALONE`), our emphasis at most between it and the space
    (``**{name}**``: the same run either side where both have one), as elsewhere it would
    match our own markup (``**bold**``, a code span's backticks)."""
    marked = sorted({n for n in names if md_name.__wrapped__(n) != n or _BLOCK_START.match(n)},
                    key=lambda n: (-len(n), n))
    worded = "|".join(re.escape(n) for n in marked if re.search(r"[^\W_]", n))
    alone = "|".join(re.escape(n) for n in marked if not re.search(r"[^\W_]", n))
    found = [worded] if worded else []
    if alone:
        sides = [("", _BEFORE_ALONE, _AFTER_ALONE)] + [
            (e, f"(?<={_BEFORE_ALONE}{re.escape(e)})", f"(?={re.escape(e)}{_AFTER_ALONE})")
            for e in _EMPHASIS_RUNS]
        found += [f"{before}(?:{alone}){after}" for (opened, before, _), (closed, _, after)
                  in itertools.product(sides, sides) if not opened or not closed
                  or opened == closed]
    name = f"(?P<name>{'|'.join(found)})|" if found else ""
    return re.compile(f"{name}(?P<code>{_CODE_SPAN})")


def _prose_parts(text: str, names: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Our sentence ``text`` in its pieces, left to right, as ``(kind, piece)``: ``"name"``,
    a name of ``names`` that Markdown would read as markup, quoted whole (the longest first);
    ``"code"``, one of our code spans, with its backticks; ``"text"``, the rest (our
    emphasis among it) -- the one reading :func:`md_prose` and the HTML report's prose
    (:func:`scorio_core.report.html.prose`) render. Where a name of asterisks meets our own
    emphasis on one side only (``*** vs``), which asterisk is whose is a guess: the name's
    are taken first.

    Example
    -------
    >>> from scorio_core.formatting import _prose_parts
    >>> list(_prose_parts("***** beats a*b on `p_best`", ["a*b", "*"]))
    [('text', '**'), ('name', '*'), ('text', '** beats '), ('name', 'a*b'), \
('text', ' on '), ('code', '`p_best`')]
    """
    names = as_names(names, "names", noun="names from the data", example="model_a,model_b")
    pattern = _prose_pattern(tuple(dict.fromkeys(names)))
    text = seen = str(text)
    at = 0
    while m := pattern.search(seen, at):
        if m.start() > at:
            yield "text", text[at:m.start()]
        yield m.lastgroup, m[0]
        at = m.end()
        # a name read is not our emphasis beside the next ("*** vs": the name **, then our *)
        seen = seen[:m.start()] + "x" * len(m[0]) + seen[at:]
    if at < len(text):
        yield "text", text[at:]


@checked_keywords
def plain_prose(text: str, names: Iterable[str] = ()) -> str:
    """Our Markdown sentence as plain text (a terminal's, a notebook's ``print``): our own
    ``code`` spans without their backticks, everything else -- the ``names`` from the data it
    quotes included, a model named ``tick`s`` keeping its backtick -- as written. The
    sentence is read as :func:`md_prose` reads it (:func:`_prose_parts`).

    Example
    -------
    >>> from scorio_core.formatting import plain_prose
    >>> plain_prose("tick`s leads on `p_best`", ["tick`s"])
    'tick`s leads on p_best'
    """
    return "".join(p[1:-1] if kind == "code" else p for kind, p in _prose_parts(text, names))


@checked_keywords
def md_prose(text: str, names: Iterable[str] = (), *, html: bool = True) -> str:
    """Our Markdown sentence (a caption, a caveat, a view's note) made safe to render where it
    quotes ``names`` from the data: each of them shown letter for letter (:func:`md_name`:
    a model named ``big*model*`` was read in italics, ``[beta](x)`` as a link, ``cost $5 $6``
    as a formula in the app), our own ``code`` spans and emphasis kept, and, with ``html``,
    raw HTML made inert outside the code spans (:func:`md_inline`; the app's Markdown shows
    none, so it leaves the rest as written: a text escaped already stays so). A name is found
    where it occurs whole, the longest first; one without a letter or digit (``*``, a
    backtick) where it stands alone or in our emphasis (``**{name}**``), not in our own
    markup. Plain text (a terminal's, a notebook's ``print``) is written without this.

    Example
    -------
    >>> from scorio_core.formatting import md_prose
    >>> print(md_prose("**a_b_** beats big*model* on `p_best` <img>", ["big*model*", "a_b_"]))
    **a_b\\_** beats big\\*model\\* on `p_best` &lt;img>
    >>> print(md_prose("Could be first: *, ` — `p_best` = P(first)", ["*", "`"]))
    Could be first: \\*, \\` — `p_best` = P(first)
    """
    rest = md_inline.__wrapped__ if html else str
    out: list[str] = []
    for kind, p in _prose_parts(text, names):
        if kind == "name":  # one that starts a line ("1. x leads") opens no list there
            p = md_name.__wrapped__(p)
            p = _unblocked(p) if not out or out[-1].endswith("\n") else p
        out.append(p if kind in ("name", "code") else rest(p))
    return "".join(out)


#: Read left to right, what Markdown shows literally: a backslash escape (ASCII punctuation
#: after a backslash is that character) or a code span (a run of backticks, its text, the
#: same run: ``a `b` c``; no escape inside it: `` `a\*b` `` shows ``a\*b``)
_MD_LITERAL = re.compile(r"\\([!-/:-@\[-`{-~])|(`+)(.+?)(?<!`)\2(?!`)", re.S)
#: An inline link or image, ``[text](url)`` / ``[text](url "title")``, and an autolink ``<url>``
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\(\s*<?([^\s)>]*)>?(?:\s+[\"'(].*?[\"')])?\s*\)")
_MD_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^\s<>]+)>")
#: Emphasis: ``**strong**``/``__strong__`` and ``*em*``/``_em_`` (an underscore only between
#: non-word characters, as Markdown reads ``LLM_4`` or ``rank_lo``: no emphasis)
_MD_EMPHASIS = (
    re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S),
    re.compile(r"(?<!\w)__(?=\S)(.+?)(?<=\S)__(?!\w)", re.S),
    re.compile(r"\*(?=[^\s*])(.+?)(?<=[^\s*])\*", re.S),
    re.compile(r"(?<!\w)_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)", re.S),
)
#: A character reference as Markdown reads one: with its semicolon (``&amp;``, ``&#60;``)
_MD_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]*);")
_MD_HELD = re.compile("\x00(\\d+)\x00")


@checked_keywords
def md_plain(text: str) -> str:
    """Our Markdown prose (a lesson's text, a caveat, a caption) as a terminal reads it: the
    words a renderer shows, none of the markup -- emphasis (``*LLM mimics*``, ``**true**``)
    as its words, a code span as its text, a link ``[text](url)`` as ``text (url)`` (an
    autolink ``<url>`` as the url), an escaped character (``\\*``, ``\\_``) as itself and a
    character reference (``&lt;``, ``&amp;``) as its character. What a code span, an escape
    or a link's url holds is left as it is (``p_best`` or ``*`` in a code span stays).

    Example
    -------
    >>> from scorio_core.formatting import md_plain
    >>> md_plain("Eleven *LLM mimics* rank against the **true** order, not __this__ or _that_")
    'Eleven LLM mimics rank against the true order, not this or that'
    >>> md_plain("the prior `R0`; `` `tick` `` and `*` stay; LLM_4 and rank_lo are names")
    'the prior R0; `tick` and * stay; LLM_4 and rank_lo are names'
    >>> md_plain("see [the docs](https://x.org/a_b_c) or <https://x.org/*y*>")
    'see the docs (https://x.org/a_b_c) or https://x.org/*y*'
    >>> md_plain(r"2 \\* 3 \\*not em\\* \\`x\\` a\\_b p &lt; 0.05 &amp; 3 * 4 * 5")
    '2 * 3 *not em* `x` a_b p < 0.05 & 3 * 4 * 5'
    """
    import html

    held: list[str] = []  # text shown as it is: an escaped character, a code span, a url

    def hold(s: str) -> str:
        held.append(s)
        return f"\x00{len(held) - 1}\x00"

    def literal(m: re.Match) -> str:
        if m[1] is not None:
            return hold(m[1])
        body = m[3]  # one space either side is padding (`` `tick` ``), not the code's
        if len(body) > 2 and body[0] == body[-1] == " " and body.strip():
            body = body[1:-1]
        return hold(body)

    s = _MD_LITERAL.sub(literal, str(text))
    s = _MD_AUTOLINK.sub(lambda m: hold(m[1]), s)
    s = _MD_LINK.sub(lambda m: f"{m[1]} ({hold(m[2])})" if m[1] != m[2] else hold(m[2]), s)
    for pattern in _MD_EMPHASIS:
        while True:  # nested (**a *b* c**) and side by side
            s, n = pattern.subn(r"\1", s)
            if not n:
                break
    s = _MD_REFERENCE.sub(lambda m: html.unescape(m[0]), s)
    while _MD_HELD.search(s):  # a held text may hold another (a link's url in a code span)
        s = _MD_HELD.sub(lambda m: held[int(m[1])], s)
    return s


#: What opens a Markdown block at the start of a line (CommonMark): a heading's ``#``s, a
#: list item's ``-``/``+`` or number (``1.``, ``2)``) followed by a space, a line of ``=`` or
#: ``-`` (a heading's underline, a rule) or a block quote's ``>``; a backslash before the
#: mark (after a list item's number, group ``n``) makes it text.
_BLOCK_START = re.compile(r"(?:#{1,6}|[-+])(?=\s|$)|(?P<n>\d{1,9})(?=[.)](?:\s|$))|[=-]+\s*$|>")


def _md_escape(text: str, breaks: str = " ", *, line_start: bool = True) -> str:
    # a name's markup (md_name: a backslash, which escapes the rest, code, emphasis, links,
    # strikethrough, $ math; raw HTML and character references) and a table's pipe, all
    # escaped (names come from files); a line break, which would end a table row or a
    # heading, becomes ``breaks``; where the text can start a line (not in a table cell,
    # where ">0.9999" stays as the other tables write it), what would open a block there is
    # escaped (:data:`_BLOCK_START`: a report on data named "# data" set its line in a heading)
    s = md_name.__wrapped__(str(text).strip("\r\n")).replace("|", "\\|")  # once per cell
    return _LINE_BREAK.sub(breaks, _unblocked(s) if line_start else s)


def _unblocked(s: str) -> str:
    """``s``, Markdown, with what would open a block where it starts a line
    (:data:`_BLOCK_START`) escaped: ``# data`` → ``\\# data``, ``1. x`` → ``1\\. x``."""
    if m := _BLOCK_START.match(s):
        at = m.end("n") if m["n"] else 0
        return s[:at] + "\\" + s[at:]
    return s


@checked_keywords
def markdown_table(df: pd.DataFrame, *, max_rows: int | None = None) -> list[str]:
    """A Markdown pipe table (one line per row), cells escaped, numbers right-aligned.

    Example
    -------
    >>> from scorio_core.formatting import markdown_table
    >>> import pandas as pd
    >>> markdown_table(pd.DataFrame({"m": ["a|b"], "p": [0.5]}))
    ['| m | p |', '|---|---:|', '| a\\\\|b | 0.5000 |']
    """
    shown = df if max_rows is None else df.head(max_rows)
    cols = format_columns(df, rows=len(shown))  # each column's format from all its rows
    lines = [
        "| " + " | ".join(_md_escape(name) for name, _, _ in cols) + " |",
        "|" + "|".join("---:" if fmt.numeric else "---" for _, fmt, _ in cols) + "|",
    ]
    for r in range(len(shown)):
        # a text's line breaks as <br> (as the HTML report's text_cell): a newline would end
        # the row, and a space runs a question's lines and a model's output into one
        lines.append("| " + " | ".join(_md_escape(cells[r], "<br>", line_start=False)
                                       for _, _, cells in cols)
                     + " |")
    if max_rows is not None and len(df) > max_rows:
        lines.append(f"\n*First {max_rows} of {len(df)} rows; the CSV/JSON export holds all.*")
    return lines
