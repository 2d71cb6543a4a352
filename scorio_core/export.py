"""Exports of a :class:`~scorio_core.leaderboard.Leaderboard` as CSV, JSON, Markdown and an
aligned text table.

CSV cells that a spreadsheet would execute as a formula are neutralised
(``io.safe_csv_cell``), and a column the tables print as whole numbers is written as
integers (:func:`csv_frame`); Markdown escapes table syntax; JSON is strict (no NaN).

Example
-------
>>> import numpy as np
>>> from scorio_core.leaderboard import leaderboard
>>> from scorio_core.export import to_markdown
>>> board = leaderboard(np.random.default_rng(0).integers(0, 2, (2, 5, 4)))
>>> to_markdown(board).splitlines()[0].startswith("# ")
True
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

import numpy as np

from ._validation import checked_keywords, json_safe
from .display import column_meanings, legend_markdown, legend_text, readable
from .formatting import (
    EXPORT_DIGITS,
    LINE_WIDTH,
    _md_escape,
    format_number,
    markdown_table,
    md_name,
    md_prose,
    percent,
    plain_prose,
    round_floats,
    share_percent,
    table_formats,
    text_table,
)
from .io import to_safe_csv
from .leaderboard import COLUMN_HELP, Leaderboard, prior_centre
from .references import expand

if TYPE_CHECKING:
    import pandas as pd

    from .outcomes import Outcomes

__all__ = ["FORMATS", "csv_frame", "csv_table", "describe", "export", "legend_lines",
           "markup_names", "table_csv", "to_csv", "to_json", "to_markdown", "to_text"]

FORMATS = ("csv", "json", "md", "markdown", "table")


#: Largest whole number a CSV writes as an integer: a float beyond it is not an exact count.
_EXACT = 2.0**53


def _whole_cells(col: pd.Series) -> pd.Series | None:
    """``col`` (floats) as integer cells -- ``80``, not ``80.0`` -- when every finite value is
    a whole number below 2**53; a missing value stays an empty cell and ∞ (a tie no number
    of trials separates) stays ``inf``. ``None`` when a value is not whole (its digits are
    data: nothing is rounded away), or when a column with ∞ holds negative numbers too."""
    values = col.to_numpy(dtype=float, na_value=np.nan)
    finite = values[np.isfinite(values)]
    if not ((finite == np.floor(finite)) & (np.abs(finite) < _EXACT)).all():
        return None
    if not np.isinf(values).any():
        return col.astype("Int64")  # missing -> <NA>, written as an empty cell
    # pandas' integers hold no ∞, and an object column of numbers is read back as floats by
    # the formula-safe writer: the cells as text, which it leaves alone unless one starts
    # with '-' (a formula to a spreadsheet) -- so a column with negatives stays floats
    if (values < 0).any():
        return None
    import pandas as pd

    cells = [None if math.isnan(v) else "inf" if math.isinf(v) else str(int(v)) for v in values]
    return pd.Series(cells, index=col.index, dtype=object, name=col.name)


@checked_keywords
def csv_frame(df: pd.DataFrame, digits: int = EXPORT_DIGITS) -> pd.DataFrame:
    """``df`` as a CSV writes it: floats rounded by the exports' one rule
    (:func:`~scorio_core.formatting.round_floats`, ``digits`` decimals), and every number
    column that the tables print as whole numbers
    (:func:`~scorio_core.formatting.table_formats`: counts by name such as
    ``trials_needed_papers`` or ``rank*``, a table's ``DECIMALS_ATTR`` of 0, whole values of 2
    or more) written as integers when all its finite values are whole. A missing count is an
    empty cell and an infinite one ``inf``, as before: ``pandas.read_csv`` reads the same
    numbers back (a count column with a missing or infinite value as floats). A count column
    with ∞ holds its cells as text, as they are written.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.export import csv_frame
    >>> t = pd.DataFrame({"p_best": [1.0, 0.0, 0.0],
    ...                   "trials_needed_papers": [80.0, float("inf"), float("nan")]})
    >>> print(csv_frame(t).to_csv(index=False), end="")
    p_best,trials_needed_papers
    1.0,80
    0.0,inf
    0.0,
    """
    out = round_floats(df, digits)
    for i, fmt in enumerate(table_formats(out)):
        col = out.iloc[:, i]
        if fmt.kind == "int" and col.dtype.kind == "f":
            cells = _whole_cells(col)
            if cells is not None:
                out.isetitem(i, cells)
    return out


@checked_keywords
def table_csv(df: pd.DataFrame, digits: int = EXPORT_DIGITS) -> str:
    """The CSV text of one table as every export writes it -- the leaderboard's, every
    analysis's (page, CLI, notebook), the Planner's pairs (``Plan.to_csv``): the numbers by
    :func:`csv_frame`'s one rule, every text cell formula-safe (:func:`scorio_core.io.to_safe_csv`:
    a model named ``-1+2`` is written ``'-1+2``, which a spreadsheet shows and does not run).

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.export import table_csv
    >>> print(table_csv(pd.DataFrame({"model": ["-1+2"], "trials_needed_papers": [80.0],
    ...                               "gap": [1 / 3]})), end="")
    model,trials_needed_papers,gap
    '-1+2,80,0.333333
    """
    return to_safe_csv(csv_frame(df, digits))


@checked_keywords
def csv_table(board: Leaderboard) -> pd.DataFrame:
    """The leaderboard's table as its CSV holds it: :attr:`Leaderboard.table` and a constant
    ``scope`` column, so a row read without the file's header (``comment="#"``) still says
    which estimand its interval is for. The one definition of the leaderboard's CSV: the
    page's download, the CLI's ``--format csv`` and :func:`to_csv` all write this."""
    return board.table.assign(scope=board.settings.get("scope", "questions"))


@checked_keywords
def to_csv(board: Leaderboard) -> str:
    """CSV of :func:`csv_table` by :func:`table_csv` (counts as integers, floats to
    :data:`~scorio_core.formatting.EXPORT_DIGITS` decimals, formula-safe)."""
    return table_csv(csv_table(board))


@checked_keywords
def to_json(board: Leaderboard) -> str:
    """JSON with ``settings``, ``columns`` (meaning of each column) and ``rows``.

    Non-finite numbers (e.g. ``trials_needed_papers`` for an exact tie) become ``null``.
    """
    rows = [
        {k: json_safe(v) for k, v in rec.items()}
        for rec in round_floats(board.table).to_dict(orient="records")
    ]
    said = column_meanings(board.table.columns, COLUMN_HELP)  # pass@4 by its template
    cols = {c: said.get(str(c), c) for c in board.table.columns}
    payload = {"settings": board.settings, "columns": cols, "rows": rows}
    if board.inference is not None:  # the confidence set for the best model, and its promise
        payload["could_be_first"] = {"models": board.could_be_first(),
                                     "statement": board.first_line()}
    if board.inference is not None and board.identified:  # P(rank = r) per model, table order
        # probabilities by the rows' one rule (p_best is its first column): one below 1 is
        # never written 1, one above 0 never 0 -- the columns are ranks, so say so
        rd = round_floats(board.rank_distribution(), probability=True)
        payload["rank_distribution"] = {str(m): r.tolist() for m, r in zip(rd.index, rd.values,
                                                                           strict=True)}
    return json.dumps(payload, indent=2, allow_nan=False)


def _md_cell(v, whole: bool = False) -> str:
    """One Markdown cell or heading text: numbers by :func:`scorio_core.formatting.format_number`
    (``whole``: as an integer), text escaped."""
    if isinstance(v, float | int | np.floating | np.integer) and not isinstance(v, bool):
        return format_number(v, integer=whole)
    return _md_escape(str(v))


#: How each scope's headline interval is computed (scorio_core.inference), in words.
INTERVAL_METHOD = {
    "questions": "a Wilson-type t interval whose variance comes from each question's trials, "
    "with the trial variance estimated under a Dirichlet prior learned across the model's "
    "questions (empirical Bayes; it steadies the variance, it does not move the centre)",
    "population": "a Wilson-type t interval from the clustered (question-level) variance of "
    "the per-question scores (trials and question sampling)",
}


@checked_keywords
def describe(board: Leaderboard) -> list[str]:
    """The sentences that head every rendering of a leaderboard: the scope and what the
    interval is, what the ranks mean, and the prior the papers' Bayes@N columns use and
    how far it pulls them (the headline ``score`` has none).

    Example
    -------
    >>> from scorio_core.export import describe
    >>> import numpy as np
    >>> from scorio_core.leaderboard import leaderboard
    >>> text = " ".join(describe(leaderboard(np.ones((2, 10, 4), dtype=int))))
    >>> "no prior" in text and "pulled 33.3% of the way towards the uniform prior's" in text
    True
    """
    s = board.settings
    scope, conf = s.get("scope", "questions"), float(s["confidence"])
    N = s["shape"][-1]
    share = float(s.get("prior_weight", 0.0))
    return [expand(line) for line in (  # the papers by title: exports are read without them
        f"{scope.capitalize()} scope: {s.get('estimand', '')}.",
        f"`score` is the mean score (avg@N) with no prior, unbiased for this estimand; "
        f"`lo`–`hi` is its {percent(conf)} interval: {INTERVAL_METHOD.get(scope, scope)}.",
        f"`rank` = `rank_lo` = 1 + the models that decidedly beat this one (two-sided at "
        f"{percent(conf)}, multiplicity control: {s.get('adjust')}; "
        f"{board.decided_text()}); `rank_hi` = L − the models it decidedly beats; "
        "`p_best` = P(first).",
        board.first_line(),
        f"`bayes_mu`, `bayes_sigma`, `bayes_lo`, `bayes_hi` and `rank_mu` are the papers' "
        f"Bayes@N with a {s['prior']} Dirichlet prior per question: at N = {N} the prior holds "
        f"{share_percent(share)} of each question's posterior, so `bayes_mu` is `score` pulled "
        f"{share_percent(share)} "
        f"of the way towards {prior_centre(s)}. `rank_chain` is the papers' adjacent rule "
        f"(000 §2.7.1, z threshold {s['z_threshold']:.3f}); `rank_overlap` the arena rule.",
        f"Data shape (L, M, N) = {tuple(s['shape'])}.",
    )]


@checked_keywords
def to_markdown(board: Leaderboard, title: str = "CI-aware leaderboard", *,
                legend: bool = False) -> str:
    """A Markdown table with a header that states the scope, the interval and the prior
    (:func:`describe`); numbers in one format per column (:mod:`scorio_core.formatting`);
    with ``legend``, the "Columns:" legend of the columns shown under it
    (:func:`legend_lines`)."""
    names = markup_names(board)  # the models the sentences name, shown as named
    lines = [f"# {_md_cell(title)}", "",
             " ".join(md_prose(t, names) for t in describe(board)), ""]
    lines += note_lines(board.notes, "markdown")
    table, said = readable(board.table)  # no column of dashes (N = 1: se, lo, hi, p_best)
    lines += markdown_table(table)
    lines += [f"\n{_md_escape(t)}" for t in said]
    if legend and (explained := legend_lines(table.columns, COLUMN_HELP, "markdown")):
        lines += ["", *explained]
    return "\n".join(lines) + "\n"


@checked_keywords
def markup_names(data: Outcomes | Leaderboard) -> tuple[str, ...]:
    """The labels ``data`` brought from its files that Markdown would read as markup, which
    our sentences may quote and a Markdown rendering must show letter for letter
    (:func:`scorio_core.formatting.md_prose`): the dataset's name, its models, questions,
    benchmarks and categories, its question attributes' names and values and its signals'
    names (a leaderboard's: its models).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.export import markup_names
    >>> markup_names(Outcomes(np.ones((3, 2, 1), dtype=int), models=["a_b_", "gpt-4", "x*y"]))
    ('a_b_', 'x*y')
    """
    if isinstance(data, Leaderboard):
        labels = list(data.models)
    else:
        attrs = data.question_attributes or {}
        labels = [data.name, *(data.models or ()), *(data.questions or ()),
                  *data.benchmark_names, *(data.category_names or ()), *attrs,
                  *(v for values in attrs.values() for v in values), *(data.signals or {})]
    labels = dict.fromkeys(str(x) for x in labels if x is not None)
    return tuple(x for x in labels if md_name.__wrapped__(x) != x)  # once per label


def note_lines(notes, fmt: str) -> list[str]:
    """Notes as the leaderboard prints them: Markdown quotes (``fmt == "markdown"``), else
    ``Note:`` paragraphs wrapped to :data:`LINE_WIDTH` -- the board's own notes and, on the
    command line, the definition's caveats after them."""
    import textwrap

    if fmt == "markdown":
        return [f"> {_md_cell(n)}\n" for n in notes]
    return [textwrap.fill(f"Note: {n}", width=LINE_WIDTH) for n in notes]


@checked_keywords
def legend_lines(columns, declared, fmt: str) -> list[str]:
    """The "Columns:" legend under a table for people, as the notes are printed
    (:func:`note_lines`): in Markdown (``fmt == "markdown"``) the reports' paragraph
    (:func:`~scorio_core.display.legend_markdown`), else the notebook's text lines
    (:func:`~scorio_core.display.legend_text`), each wrapped to :data:`LINE_WIDTH` under its
    column's name. ``declared``: the table's column declaration
    (:meth:`Analysis.column_help <scorio_core.definitions.Analysis.column_help>`); none when
    no shown column needs a line.

    Example
    -------
    >>> from scorio_core.export import legend_lines
    >>> legend_lines(["model", "se"], {"se": "standard error of score"}, "table")
    ['Columns:', '  se: standard error of score']
    >>> legend_lines(["model", "se"], {"se": "standard error of score"}, "markdown")
    ['**Columns:**  \\n`se` standard error of score']
    """
    import textwrap

    if fmt == "markdown":
        text = legend_markdown(columns, declared)
        return [text] if text else []
    return [textwrap.fill(line, width=LINE_WIDTH, subsequent_indent="    ")
            for line in legend_text(columns, declared)]


@checked_keywords
def to_text(board: Leaderboard, title: str = "CI-aware leaderboard", *,
            legend: bool = False) -> str:
    """The leaderboard for a terminal: the header sentences wrapped, then an aligned table
    (one number format per column, ∞ and — spelled out), with ``legend`` the "Columns:"
    legend of the columns shown (:func:`legend_lines`), then the board's notes."""
    import textwrap

    out = [title, ""]
    names = markup_names(board)  # a model's own backtick (tick`s) is not one of our code spans
    for t in describe(board):
        out += textwrap.wrap(plain_prose(t, names), width=LINE_WIDTH)
    table, said = readable(board.table)  # no column of dashes (N = 1: se, lo, hi, p_best)
    out += ["", text_table(table), *said]
    if legend and (explained := legend_lines(table.columns, COLUMN_HELP, "table")):
        out += ["", *explained]
    if board.notes:
        out += ["", *note_lines(board.notes, "table")]
    return "\n".join(out) + "\n"


@checked_keywords
def export(board: Leaderboard, fmt: str, title: str = "CI-aware leaderboard", *,
           legend: bool = False) -> str:
    """Dispatch on ``fmt`` in :data:`FORMATS` (``title`` heads the Markdown; ``legend``: the
    columns' legend under the table in the formats for people; CSV and JSON are the same
    either way, the JSON's ``columns`` holding each column's meaning)."""
    if fmt == "csv":
        return to_csv(board)
    if fmt == "json":
        return to_json(board)
    if fmt in ("md", "markdown"):
        return to_markdown(board, title, legend=legend)
    if fmt in ("table", "text"):
        return to_text(board, title, legend=legend)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}; got {fmt!r}")
