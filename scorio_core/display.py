"""Rich display of results in Jupyter, VS Code and marimo, and text reprs for terminals.

Every result object renders itself: the formatted table (one format per column, ``∞`` and
``—``: :mod:`scorio_core.formatting`, the same formatter as the CLI and the reports), its
main chart as inline SVG (``vl-convert``, no browser or JavaScript needed, so the output
also survives in a saved notebook and on GitHub), a caption with the scope and the
settings, and -- an analysis's result -- the caveats its report section lists. The pieces:

* :func:`html_table` -- a DataFrame as an HTML table in its column formats;
* :func:`column_parts` -- a table wider than :data:`WIDE_COLUMNS` as the parts every reader's
  rendering prints (the HTML and Markdown report, :func:`show`, a result's own display), each
  repeating its key column; :func:`parts_html` writes them. Measured instead of counted, the
  parts that fit a screen's width (the app's tables wider than its main column);
* :func:`show` -- displays a table as the reports print it (:func:`as_table` gives the
  :class:`Table`: the columns that hold a value, every cell in its column's one format, the
  lines said under it), mid-cell or last, in a notebook (IPython's ``display``) or a script
  (printed), so the reader sees the report's numbers while the variables stay raw;
* :func:`readable` -- the rows and columns a reader's rendering shows, and the lines it says;
* :func:`result_html` -- title, caption, tables, caveats and a chart as one ``<div>``; a
  column with a meaning (its definition's declaration, :meth:`Analysis.column_help
  <scorio_core.definitions.Analysis.column_help>`) has it as its header's tooltip and, unless
  its name says it, a line in the "Columns:" legend under its table (:func:`column_legend`,
  :func:`legend_html`, :func:`legend_text`, :func:`legend_markdown`: what the reports and the
  app's pages print under the same table);
* :class:`Shown` -- the mixin the definitions' results use: ``result.tables()``,
  ``result.charts()``, ``result.caveats``, ``_repr_html_``, ``_repr_mimebundle_`` and
  ``__repr__``, all from the result's one definition (:data:`scorio_core.definitions.SECTIONS`):
  the main table as the report prints it (its view's rows and line), every row in
  ``result.tables()``, the caveats of the same run (:class:`About`, :func:`attach`);
* :class:`Displayed` -- the same display for a core result that is no definition's own
  (``sc.pass_curves``, ``sc.run_methods``, a built report): what it shows is registered in
  :data:`VIEWS` by class name, so its class only declares that it displays;
* :func:`recorded` -- a public call's result remembers the call's settings (its caption)
  and, a teaching study's, its definition's caveats.

Light at import (no pandas, no Altair): a display loads what it draws.

Example
-------
>>> from scorio_core.display import html_table
>>> import pandas as pd
>>> html = html_table(pd.DataFrame({"model": ["a"], "trials_needed": [float("inf")]}))
>>> "<td class=\\"num\\">∞</td>" in html
True
"""

from __future__ import annotations

import html as _html
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from ._validation import ValidationError, as_names, checked_keywords, checked_methods, no_text
from .formatting import count_text, shape_text, weight_text

if TYPE_CHECKING:
    import pandas as pd

    from .definitions._base import Analysis, Chart

__all__ = [
    "PRINTED_ROWS",
    "MAX_ROWS",
    "CHARTS",
    "About",
    "Shown",
    "Table",
    "CELL_STYLE",
    "text_cell",
    "line_width",
    "show",
    "as_table",
    "readable",
    "note_lines",
    "html_table",
    "parts_html",
    "WIDE_COLUMNS",
    "PART_COLUMNS",
    "column_parts",
    "part_text",
    "chart_html",
    "result_html",
    "data_label",
    "settings_caption",
    "attach",
    "remember",
    "with_caveats",
    "recorded",
    "run_caption",
    "NOT_RECORDED",
    "PLAIN_COLUMNS",
    "column_meanings",
    "column_legend",
    "legend_html",
    "legend_text",
    "legend_markdown",
    "caveats_html",
    "caveats_text",
    "View",
    "Displayed",
    "VIEWS",
]

#: Most rows a reader's rendering prints of one table: the HTML and Markdown report, the
#: CLI's text and a notebook's display (:func:`show`, a result's own display). A table that
#: could run longer has a view (:attr:`scorio_core.definitions.Analysis.views`) that chooses
#: at most this many rows for reading and says in one line what the others hold; the exports
#: and ``result.tables()`` keep every row. (``scorio_core.definitions.PRINTED_ROWS``.)
PRINTED_ROWS = 60
#: Rows shown per table in a notebook: the report's (the object holds them all).
MAX_ROWS = PRINTED_ROWS
#: Draw the main chart in the HTML display (set ``scorio_core.display.CHARTS = False`` to
#: show tables only, e.g. when many results are displayed in a loop).
CHARTS = True

#: How a table's cell sits in its row, in the HTML report (``td``) and a notebook's display
#: (``.scorio-result td``) alike: at the top, so a model's texts in a tall row read from
#: their first line down, beside its score, not centred on the row's longest text.
CELL_STYLE = "vertical-align: top;"

_STYLE = (
    "<style>.scorio-result{overflow-x:auto}.scorio-result table{border-collapse:collapse;"
    "font-size:12px;margin:4px 0}"
    ".scorio-result th,.scorio-result td{padding:2px 8px;border-bottom:1px solid #ddd}"
    f".scorio-result td{{{CELL_STYLE}}}"
    ".scorio-result td.num,.scorio-result th.num{text-align:right;"
    "font-variant-numeric:tabular-nums}.scorio-result td.num{white-space:nowrap}"
    ".scorio-result td.txt,.scorio-result th.txt"
    "{text-align:left;white-space:nowrap}.scorio-result td.wrap{white-space:normal;"
    "min-width:16em}.scorio-result th.num,.scorio-result th.txt{white-space:normal;"
    "vertical-align:bottom}"
    ".scorio-result caption{caption-side:top;text-align:left;color:#555}"
    ".scorio-result .note{color:#555;font-size:12px}"
    ".scorio-result .caveats ul{margin:2px 0 6px;padding-left:1.4em}"
    ".scorio-result .caveats li{margin:1px 0}</style>"
)


def _header(name: str) -> str:
    """A column name that may break after its underscores (``trials_<wbr>needed_<wbr>papers``),
    as the HTML report's headers do: a number column is as wide as its numbers, not its
    name, and a wide table (a plan's pairs with their ``note``) fits the output area."""
    return _esc(name).replace("_", "_<wbr>")


def _esc(text: Any) -> str:
    return _html.escape(str(text), quote=True)


_BREAK = re.compile(r"\r\n?|\n")


@checked_keywords
def text_cell(text: Any, escape: Callable[[str], str] = _esc) -> str:
    """A text cell's HTML, in the report (``td.t``) and a notebook's display (``td.txt``)
    alike: escaped, each line break written as ``<br>``, so a question's lines (``Is 70 even
    or odd?`` / ``A. Even`` / ``B. Odd``) and a model's multi-line output read as lines, not
    run into one. A ``<br>`` rather than ``white-space: pre-line``: it keeps each table's
    wrapping rules as they are (a notebook's names stay on one line, the report's text cells
    wrap, a number cell never does) and survives where a notebook viewer drops the style.
    Breaks at either end are dropped (a text's trailing newline is no line of its own).
    ``escape`` escapes the text (and may mark it up: the report's ``<wbr>`` after a path's
    ``/``), leaving its line breaks as they are.

    Example
    -------
    >>> from scorio_core.display import text_cell
    >>> text_cell("Is 70 even or odd?\\nA. Even\\r\\nB. <Odd>\\n")
    'Is 70 even or odd?<br>A. Even<br>B. &lt;Odd&gt;'
    """
    return _BREAK.sub("<br>", escape(str(text).strip("\r\n")))


@checked_keywords
def line_width(text: str) -> int:
    """Characters in ``text``'s longest line: how wide a text cell's :func:`text_cell` runs
    (what decides whether it may wrap, not its length with its lines run together).

    Example
    -------
    >>> from scorio_core.display import line_width
    >>> line_width("Is 70 even or odd?\\nA. Even\\nB. Odd\\nAnswer:")
    18
    """
    return max(map(len, _BREAK.split(text)))


@checked_keywords
def html_table(df: pd.DataFrame, *, caption: str | None = None,
               max_rows: int | None = MAX_ROWS,
               meanings: Mapping[str, str] | None = None) -> str:
    """``df`` as an HTML ``<table>``: every cell in its column's one format
    (:func:`scorio_core.formatting.format_columns`), numbers right-aligned, names escaped;
    with ``max_rows``, a longer table ends with a row that says how many were left out; a
    column with a meaning in ``meanings`` (its declaration: :func:`column_meanings`) has it
    as its header's tooltip (``title``).

    Example
    -------
    >>> from scorio_core.display import html_table
    >>> import pandas as pd
    >>> print(html_table(pd.DataFrame({"m": ["a<b"], "n": [3.0]})))
    <table><thead><tr><th class="txt">m</th><th class="num">n</th></tr></thead><tbody>
    <tr><td class="txt">a&lt;b</td><td class="num">3</td></tr>
    </tbody></table>
    """
    from .formatting import format_columns

    shown = df if max_rows is None else df.head(max_rows)
    # the column's one format, from all its rows: the rows shown print as every other
    # rendering of the table prints them (a caller may show fewer rows than the report)
    cols = format_columns(df, rows=len(shown))
    # once per cell: without the keyword check of a public call
    text_html, longest = text_cell.__wrapped__, line_width.__wrapped__

    def cls(fmt, text: str = "") -> str:  # long lines (a rule, a note) wrap; names do not
        return "num" if fmt.numeric else "txt wrap" if longest(text) > 60 else "txt"

    def cell(fmt, text: str) -> str:
        return _esc(text) if fmt.numeric else text_html(text)

    said = column_meanings(df.columns, meanings or {})

    def tip(name: Any) -> str:
        text = said.get(str(name))
        return f' title="{_esc(text)}"' if text else ""

    head = "".join(f'<th class="{cls(f)}"{tip(n)}>{_header(n)}</th>' for n, f, _ in cols)
    rows = [
        "<tr>" + "".join(f'<td class="{cls(f, cells[r])}">{cell(f, cells[r])}</td>'
                         for _, f, cells in cols)
        + "</tr>"
        for r in range(len(shown))
    ]
    if max_rows is not None and len(df) > max_rows:
        rows.append(f'<tr><td class="note" colspan="{max(len(cols), 1)}">… '
                    f"{len(df) - max_rows:,} more rows</td></tr>")
    cap = "" if caption is None else f"<caption>{_esc(caption)}</caption>"
    return (f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>\n" + "\n".join(rows)
            + ("\n" if rows else "") + "</tbody></table>")


def _blank(v: Any) -> bool:
    return v is None or v == "" or (isinstance(v, float) and v != v)


@checked_keywords
def note_lines(note: str | Sequence[str] | None) -> list[str]:
    """A table's note as the lines said under it: one line, several (a plan's per-pair
    notes) or none.

    Example
    -------
    >>> from scorio_core.display import note_lines
    >>> note_lines("one"), note_lines(("a vs b: tied", "c vs d: too close")), note_lines(None)
    (['one'], ['a vs b: tied', 'c vs d: too close'], [])
    """
    if isinstance(note, str):
        return [note] if note else []
    return [n for n in note or () if n]


@checked_keywords
def readable(view: Any) -> tuple[pd.DataFrame, list[str]]:
    """A table as a reader's rendering shows it (the report, a notebook's :func:`show`), with
    the lines said under it: the view's rows and note
    (:class:`~scorio_core.definitions.TableView`), without the columns that hold no value
    in any row -- a number column (``p_unsettled`` in the questions scope) named in one
    line instead of a column of dashes, a text column (a ``note`` no row needs) left out
    unsaid.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.display import readable
    >>> df = pd.DataFrame({"pair": ["a-b", "b-c"], "p": [0.1, 0.2],
    ...                    "p_unsettled": [float("nan")] * 2, "note": ["", ""]})
    >>> shown, notes = readable(df)
    >>> list(shown.columns), notes
    (['pair', 'p'], ['Not shown, no value in any row: p_unsettled.'])
    """
    import pandas as pd

    from .definitions._base import TableView

    df, note = (view.table, view.note) if isinstance(view, TableView) else (view, None)
    notes = note_lines(note)
    if len(df):
        blank = [c for c in df.columns[1:] if all(_blank(v) for v in df[c].tolist())]
        if blank:
            attrs = dict(df.attrs)  # declared decimals and the like, by column name
            named = [str(c) for c in blank if pd.api.types.is_numeric_dtype(df[c])]
            df = df.drop(columns=blank)
            df.attrs = attrs
            if named:
                notes.append(f"Not shown, no value in any row: {', '.join(named)}.")
    return df, notes


#: A table with more columns than this is shown in parts (:func:`column_parts`): it would run
#: off a printed page (numbers never wrap) and off a screen. The leaderboard (18 columns)
#: stays whole; the method comparison's ``ranks`` (the model, then a column per method: 78
#: columns with the whole registry) is split.
WIDE_COLUMNS = 20
#: Most value columns of one part (beside the key columns every part repeats): what fits a
#: printed A4/Letter page at the print CSS's type size and the HTML report's 1080 px column
#: (seen in headless Chromium: 11 rank columns of long method names just overflowed it).
PART_COLUMNS = 10


def _column_runs(names: Sequence[str], together: Sequence[Sequence[str]] = ()
                ) -> list[list[int]]:
    """Positions of ``names`` in the runs a part of a split table keeps whole
    (:func:`column_parts`, the app's fitted parts): a value with its ``"<name> lo"`` /
    ``"<name> hi"``, and neighbours of one group of ``together``; each other column alone.

    Example
    -------
    >>> from scorio_core.display import _column_runs
    >>> _column_runs(["n", "score", "score lo", "score hi", "a", "b"], [("a", "b")])
    [[0], [1, 2, 3], [4, 5]]
    """
    group_of = {str(c): g for g, cols in enumerate(together) for c in cols}
    runs: list[list[int]] = []
    for j, name in enumerate(map(str, names)):
        last = runs[-1] if runs else []
        if last and (any(name.startswith(str(names[g]) + " ") for g in last)
                     or group_of.get(name, -1) == group_of.get(str(names[last[-1]]), -2)):
            last.append(j)
        else:
            runs.append([j])
    return runs


@checked_keywords
def column_parts(df: pd.DataFrame, *, widths: Mapping[Any, float] | None = None,
                 budget: float | None = None, keys: Sequence[Any] | None = None,
                 together: Sequence[Sequence[Any]] = ()) -> list[pd.DataFrame]:
    """``df`` as one part, or as parts that each repeat the key columns (``keys``; default:
    the leading text columns, e.g. ``model``, else the first column), so every row of every
    part says whose numbers it holds. Rows and their order stay as they are and a column
    keeps its values and name, so it keeps its one number format in every part; a value
    and its ``"<name> lo"`` / ``"<name> hi"`` stay in one part, as do the columns of each
    group in ``together`` (a score and its interval).

    A printed page counts columns: wider than :data:`WIDE_COLUMNS`, parts of at most
    :data:`PART_COLUMNS` value columns of about equal size. A screen measures them: given
    each column's ``widths`` and the ``budget`` a table may take (the app's main column, in
    pixels), the first part holds as many value columns as fit, in order, the next part the
    next ones, and so on (a group wider than a part's room takes a part of its own).

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.display import column_parts
    >>> wide = pd.DataFrame({"model": ["a", "b"]} | {f"m{i}": [1, 2] for i in range(30)})
    >>> [list(p.columns)[:2] + [p.shape[1]] for p in column_parts(wide)]
    [['model', 'm0', 11], ['model', 'm10', 11], ['model', 'm20', 11]]
    >>> [p.shape[1] - 1 for p in column_parts(wide.assign(m30=1))]  # as even as it goes
    [8, 8, 8, 7]
    >>> trio = pd.DataFrame({"model": ["a"]} | {f"k{i}{s}": [1] for i in range(8)
    ...                                         for s in ("", " lo", " hi")})
    >>> [p.columns[1] for p in column_parts(trio)]  # a value keeps its lo and hi
    ['k0', 'k3', 'k6']
    >>> board = pd.DataFrame({"model": ["a"], "rank": [1], "score": [0.5], "lo": [0.4],
    ...                       "hi": [0.6], "t_next": [2.5]})
    >>> px = {"model": 200, "rank": 50, "score": 60, "lo": 60, "hi": 60, "t_next": 60}
    >>> [list(p.columns) for p in column_parts(board, widths=px, budget=450,
    ...                                        together=[("score", "lo", "hi")])]
    [['model', 'rank', 'score', 'lo', 'hi'], ['model', 't_next']]
    """
    import pandas as pd

    if isinstance(keys, str):  # "model,question": names, as a column holding a comma is found
        keys = as_names(keys, "keys", noun="column names", among=[str(c) for c in df.columns])
    together = [as_names(g, "together", noun="column names") if isinstance(g, str) else g
                for g in ([together] if isinstance(together, str) else together)]  # "lo,hi"
    by_width = budget is not None
    if by_width:
        widths = widths or {}
        if sum(float(widths.get(c, 0)) for c in df.columns) <= budget:
            return [df]
    elif df.shape[1] <= WIDE_COLUMNS:
        return [df]
    if keys is None:
        n_keys = 0
        while n_keys < min(2, df.shape[1] - 1) and not pd.api.types.is_numeric_dtype(
                df.iloc[:, n_keys]):
            n_keys += 1
        key_idx = list(range(max(n_keys, 1)))
    else:
        key_idx = [i for i, c in enumerate(df.columns) if c in set(keys)]
    values = [j for j in range(df.shape[1]) if j not in key_idx]
    names = [str(c) for c in df.columns]
    groups = [[values[p] for p in run]  # a value and its "<name> lo" / "<name> hi" together
              for run in _column_runs([names[j] for j in values], together)]
    chunks: list[list[int]] = [[]]
    if by_width:
        def px(cols: list[int]) -> float:
            return sum(float(widths.get(df.columns[j], 0)) for j in cols)

        room = budget - px(key_idx)
        for g in groups:
            if chunks[-1] and px(chunks[-1]) + px(g) > room:
                chunks.append([])
            chunks[-1].extend(g)
    else:
        n = -(-len(values) // PART_COLUMNS)  # parts, then as even a split as there is
        size = -(-len(values) // n)
        for g in groups:
            if chunks[-1] and (len(chunks[-1]) >= size
                               or len(chunks[-1]) + len(g) > PART_COLUMNS):
                chunks.append([])
            chunks[-1].extend(g)
    parts = []
    for chunk in chunks:
        part = df.iloc[:, key_idx + chunk]
        part.attrs = dict(df.attrs)  # declared decimals and the like, by column name
        parts.append(part)
    return parts


@checked_keywords
def part_text(parts: list[pd.DataFrame], i: int) -> str:
    """What part ``i`` of a table split by :func:`column_parts` holds, in words.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.display import column_parts, part_text
    >>> wide = pd.DataFrame({"model": ["a"]} | {f"m{i}": [1] for i in range(30)})
    >>> part_text(column_parts(wide), 1)
    'Part 2 of 3: columns m10 … m19 (11–20 of 30), each part repeating model.'
    >>> part_text([wide.iloc[:, :3], wide.iloc[:, [0, 3]]], 1)  # one column: named once
    'Part 2 of 2: column m2 (3 of 3), each part repeating model.'
    """
    no_text(parts, "parts", "a list of tables (column_parts' parts)")
    keys = [c for c in parts[0].columns if all(c in p.columns for p in parts)]
    first = sum(p.shape[1] - len(keys) for p in parts[:i]) + 1
    cols = [str(c) for c in parts[i].columns[len(keys):]]
    total = sum(p.shape[1] - len(keys) for p in parts)
    # a part of one column had read "columns trials_needed_papers … trials_needed_papers"
    held = (f"column {cols[0]} ({first} of {total})" if len(cols) == 1 else
            f"columns {cols[0]} … {cols[-1]} ({first}–{first + len(cols) - 1} of {total})")
    return (f"Part {i + 1} of {len(parts)}: {held}, each part repeating "
            f"{', '.join(str(k) or 'the row labels' for k in keys)}.")


def parts_text(df: pd.DataFrame, *, max_rows: int | None = MAX_ROWS) -> str:
    """``df`` as aligned text (a terminal, a result's repr): one table, or -- wider than
    :data:`WIDE_COLUMNS` -- the :func:`column_parts` the report prints, one under another,
    each after its line (:func:`part_text`). A terminal wraps a 46-column table into
    unreadable lines; the parts read as the report's do.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.display import parts_text
    >>> wide = pd.DataFrame({"model": ["a"]} | {f"m{i}": [1] for i in range(30)})
    >>> text = parts_text(wide)
    >>> text.count("Part "), text.splitlines()[1].split()[:3]
    (3, ['model', 'm0', 'm1'])
    """
    from .formatting import text_table

    parts = column_parts(df)
    if len(parts) == 1:
        return text_table(df, max_rows=max_rows)
    return "\n\n".join(f"{part_text(parts, i)}\n{text_table(p, max_rows=max_rows)}"
                       for i, p in enumerate(parts))


@checked_keywords
def parts_html(df: pd.DataFrame, *, caption: str | None = None,
               max_rows: int | None = MAX_ROWS,
               meanings: Mapping[str, str] | None = None) -> str:
    """``df`` as the report prints it in HTML: one :func:`html_table`, or -- wider than
    :data:`WIDE_COLUMNS` -- the :func:`column_parts` the report prints, one table each,
    its caption saying which part it is (:func:`part_text`, the report's line above it).

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.display import parts_html
    >>> wide = pd.DataFrame({"model": ["a"]} | {f"m{i}": [1] for i in range(30)})
    >>> page = parts_html(wide, caption="ranks")
    >>> page.count("<table>"), page.count('<th class="txt">model</th>')
    (3, 3)
    >>> "<caption>ranks · Part 2 of 3: columns m10 … m19" in page
    True
    """
    parts = column_parts(df)
    if len(parts) == 1:
        return html_table(df, caption=caption, max_rows=max_rows, meanings=meanings)
    return "".join(
        html_table(p, max_rows=max_rows, meanings=meanings, caption=" · ".join(
            t for t in (caption, part_text(parts, i)) if t))
        for i, p in enumerate(parts))


#: Columns whose name, with the caption's scope and confidence and a column the legend
#: explains, says what they hold: their header's tooltip still gives the meaning, the
#: "Columns:" legend under a table leaves them out, so it stays short (``rank`` stays in it:
#: the headline rank is not the order of ``score``; ``bayes_mu`` too: it is pulled).
PLAIN_COLUMNS = frozenset({"model", "question", "method", "score", "lo", "hi", "rank_lo",
                           "rank_hi", "bayes_sigma", "bayes_lo", "bayes_hi"})

#: A placeholder of a column declared as a template (``pass@{k}``, ``{method}``): the part of
#: the column's name it stands for.
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _template(key: str) -> re.Pattern | None:
    """The pattern of a template ``key`` (``None``: a plain column name)."""
    if not _PLACEHOLDER.search(key):
        return None
    parts, last = [], 0
    for m in _PLACEHOLDER.finditer(key):
        parts += [re.escape(key[last:m.start()]), f"(?P<{m.group(1)}>.+?)"]
        last = m.end()
    return re.compile("".join(parts) + re.escape(key[last:]), re.S)


def _filled(text: str, values: Mapping[str, str]) -> str:
    """``text`` with each ``{name}`` of ``values`` replaced (any other brace kept)."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def _declared(column: Any, declared: Mapping[str, str]) -> tuple[str, dict[str, str]] | None:
    """The declaration ``column`` reads (its own name first, then the first template it
    matches) and the parts of its name the template's placeholders stand for."""
    name = str(column)
    if name in declared:
        return name, {}
    for key in declared:
        pattern = _template(key)
        if pattern is not None and (m := pattern.fullmatch(name)):
            return key, m.groupdict()
    return None


def _column_names(columns: Any) -> Any:
    """A table's columns as given (an Index, a list), or a string of names split at its
    commas (``"lo,hi"``), never read letter by letter."""
    return as_names(columns, "columns", noun="column names") if isinstance(columns, str) \
        else columns


@checked_keywords
def column_meanings(columns: Sequence[Any], declared: Mapping[str, str]) -> dict[str, str]:
    """The meaning of each of ``columns`` that ``declared`` explains, by column name: a
    definition's declaration of a table's columns (:meth:`Analysis.column_help
    <scorio_core.definitions.Analysis.column_help>`), where a key may be a template whose
    ``{placeholder}`` stands for part of a name the data choose (``pass@{k}``: ``pass@4``;
    ``{method}``: a method's id), filled in from the column's name. What a header's tooltip
    says, here and on the app's tables.

    Example
    -------
    >>> from scorio_core.display import column_meanings
    >>> column_meanings(["model", "pass@4", "other"],
    ...                 {"model": "model name", "pass@{k}": "Pass@k, k = {k}"})
    {'model': 'model name', 'pass@4': 'Pass@k, k = 4'}
    """
    out = {}
    for c in _column_names(columns):
        if (hit := _declared(c, declared)) is not None:
            out[str(c)] = _filled(declared[hit[0]], hit[1])
    return out


@checked_keywords
def column_legend(columns: Sequence[Any], declared: Mapping[str, str]) -> list[tuple[str, str]]:
    """``(label, meaning)`` lines of the "Columns:" legend under a table of ``columns``: each
    column with a meaning in ``declared`` (:func:`column_meanings`), but for
    :data:`PLAIN_COLUMNS`, in the table's order -- the columns that share a template once,
    labelled by it with each placeholder as ``<name>`` and its meaning with the name (one
    line for ``pass@2``, ``pass@4``, ``pass@8``: ``pass@<k>``). The notebook's display prints
    them (:func:`legend_html`, :func:`legend_text`), as do the reports and the app's pages
    (:func:`legend_markdown`): one text for a column wherever it is read.

    Example
    -------
    >>> from scorio_core.display import column_legend
    >>> help = {"se": "standard error", "pass@{k}": "at least one of {k} trials correct"}
    >>> column_legend(["model", "se", "pass@2", "pass@8"], help)
    [('se', 'standard error'), ('pass@<k>', 'at least one of k trials correct')]
    >>> column_legend(["pass@2"], help)  # one column: its own name and number
    [('pass@2', 'at least one of 2 trials correct')]
    """
    hits = {str(c): h for c in _column_names(columns) if str(c) not in PLAIN_COLUMNS
            and (h := _declared(c, declared)) is not None}
    shared: dict[str, list[str]] = {}
    for c, (key, _) in hits.items():
        shared.setdefault(key, []).append(c)
    out = []
    for key, cols in shared.items():
        if len(cols) == 1:
            out.append((cols[0], _filled(declared[key], hits[cols[0]][1])))
        else:
            names = {m.group(1): m.group(1) for m in _PLACEHOLDER.finditer(key)}
            out.append((_filled(key, {k: f"<{k}>" for k in names}),
                        _filled(declared[key], names)))
    return out


@checked_keywords
def legend_html(columns: Sequence[Any], meanings: Mapping[str, str]) -> str:
    """The "Columns:" legend of a table as HTML (``""`` when no column needs one): each
    line of :func:`column_legend` on a line of its own, its name as code."""
    legend = column_legend(columns, meanings)
    if not legend:
        return ""
    return ('<p class="note legend"><b>Columns:</b><br>' + "<br>".join(
        f"<code>{_esc(c)}</code> {_esc(m)}" for c, m in legend) + "</p>")


@checked_keywords
def legend_text(columns: Sequence[Any], meanings: Mapping[str, str]) -> list[str]:
    """The "Columns:" legend of a table as text lines (none when no column needs one).

    Example
    -------
    >>> from scorio_core.display import legend_text
    >>> legend_text(["model", "se"], {"se": "standard error of score"})
    ['Columns:', '  se: standard error of score']
    """
    legend = column_legend(columns, meanings)
    return ["Columns:", *(f"  {c}: {m}" for c, m in legend)] if legend else []


@checked_keywords
def legend_markdown(columns: Sequence[Any], meanings: Mapping[str, str],
                    escape: Callable[[str], str] | None = None) -> str:
    """The "Columns:" legend of a table as one Markdown paragraph, a line per column (``""``
    when no column needs one): what the Markdown report and the app's pages print under a
    table. ``escape`` makes a meaning inert Markdown (default
    :func:`scorio_core.formatting.md_inline`).

    Example
    -------
    >>> from scorio_core.display import legend_markdown
    >>> legend_markdown(["model", "se"], {"se": "s.e. of score (<0.001: below)"}).split("\\n")
    ['**Columns:**  ', '`se` s.e. of score (<0.001: below)']
    """
    from .formatting import md_inline

    legend = column_legend(columns, meanings)
    if not legend:
        return ""
    esc = escape or md_inline
    return "  \n".join(["**Columns:**", *(f"`{c}` {esc(m)}" for c, m in legend)])


def labelled(table: Any) -> pd.DataFrame:
    """``table`` with the labels of its rows as its first column, where they say something
    (``board.rank_distribution()``: a model per row), as a DataFrame (a Series: one column);
    a table numbered 0, 1, 2, … as it is.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.display import labelled
    >>> list(labelled(pd.DataFrame({1: [0.9], 2: [0.1]}, index=["a"])).columns)
    ['', 1, 2]
    >>> list(labelled(pd.Series([0.5], name="p").rename_axis("model")).columns)
    ['model', 'p']
    """
    import pandas as pd

    df = table.to_frame() if isinstance(table, pd.Series) else table
    if isinstance(df.index, pd.RangeIndex) and df.index.name is None:
        return df
    attrs = dict(df.attrs)
    names = [n if n is not None else "" for n in df.index.names]
    out = df.rename_axis(names if len(names) > 1 else names[0]).reset_index()
    out.attrs = attrs
    return out


@checked_keywords
class Table:
    """One table as the reports print it, for a notebook to display (:func:`show`): the
    columns that hold a value, every cell in its column's one format (``—`` for a missing
    value, counts as whole numbers, the same decimals down a column), in the report's parts
    when wider than :data:`WIDE_COLUMNS` (:func:`column_parts`; the text repr stays one
    table), the lines said under it; then ``more`` tables, each the same way (a report
    notebook's cell that ends on two of its section's tables).
    ``table`` is the frame given, unchanged: compute with it, not with the text."""

    def __init__(self, table: pd.DataFrame, note: str | Sequence[str] | None = None, *,
                 max_rows: int | None = MAX_ROWS, more: Sequence[Table] = ()) -> None:
        more = tuple(no_text(more, "more", "a list of tables (sc.display.Table)"))
        self.table, self.note, self.max_rows, self.more = table, note, max_rows, more

    def _shown(self) -> tuple[pd.DataFrame, list[str]]:
        from .definitions._base import TableView

        return readable(TableView(labelled(self.table), tuple(note_lines(self.note))))

    def _body(self) -> str:
        df, notes = self._shown()
        return parts_html(df, max_rows=self.max_rows) + "".join(
            f'<p class="note">{_esc(n)}</p>' for n in notes) + "".join(
            t._body() for t in self.more)

    def _repr_html_(self) -> str:
        return f'{_STYLE}<div class="scorio-result">{self._body()}</div>'

    def __repr__(self) -> str:
        df, notes = self._shown()
        return "\n\n".join(["\n".join([parts_text(df, max_rows=self.max_rows), *notes]),
                            *map(repr, self.more)])


@checked_keywords
def as_table(table: Any, *more: Any, note: str | Sequence[str] | None = None,
             max_rows: int | None = MAX_ROWS) -> Table:
    """``table`` (a DataFrame, or a :class:`~scorio_core.definitions.TableView`) as the
    reports print it, as an object (:class:`Table`) that displays itself: what :func:`show`
    displays, for a cell's last line or a test of what is shown.

    Parameters
    ----------
    table : DataFrame or TableView
    *more : DataFrame, TableView or None
        Further tables shown under it, each with its own lines (``Table.more``); a
        ``None`` -- a view that does not apply to these data -- shows nothing.
    note : str or sequence of str, optional
        The line (or lines) said under the (first) table (a view's own note comes first).
    max_rows : int or None
        Rows shown (``None``: all); a longer table ends with a row that says how many
        were left out -- ``table`` holds them all.

    Example
    -------
    >>> import pandas as pd
    >>> import scorio_core as sc
    >>> t = pd.DataFrame({"model": ["a", "b"], "trials_needed": [425.0, float("nan")],
    ...                   "p_best": [0.91234, 0.08766]})
    >>> shown = sc.display.as_table(t)
    >>> shown.table is t, '<td class="num">425</td>' in shown._repr_html_()
    (True, True)
    >>> print(repr(sc.display.as_table(t.head(1), None, pd.DataFrame({"input": ["2 + 2?"]}))))
    model  trials_needed  p_best
    a                425   0.912
    <BLANKLINE>
    input
    2 + 2?
    """
    from .definitions._base import TableView

    for i, t in enumerate((table, *more)):
        if t is not None and not _is_table(t):
            raise _not_shown(t, i, "sc.display.as_table")
    if table is None:
        raise ValidationError("sc.display.as_table: got None, a view that does not apply to "
                              "these data; sc.show(None) shows nothing")
    if isinstance(table, TableView):  # the view's own lines first, then ``note``'s
        view, table = table, table.table
        note = (*note_lines(view.note), *note_lines(note)) if note and view.note \
            else note or view.note
    return Table(table, note, max_rows=max_rows,
                 more=[as_table(t, max_rows=max_rows) for t in more if t is not None])


def _is_table(x: Any) -> bool:
    """``x`` is a table :func:`show` prints as the reports do: a DataFrame, a Series or a
    :class:`~scorio_core.definitions.TableView` (``None``: no table)."""
    import sys

    from .definitions._base import TableView

    pd = sys.modules.get("pandas")  # not loaded: no frame was made
    return isinstance(x, TableView) or (
        pd is not None and isinstance(x, pd.DataFrame | pd.Series))


def _displays_itself(x: Any) -> bool:
    """``x`` is a result (or any object) with a rich display of its own: a notebook shows
    it as it shows ``x`` ending a cell."""
    return not _is_table(x) and any(callable(getattr(type(x), m, None)) for m in (
        "_repr_html_", "_repr_mimebundle_", "_mime_"))


def _not_shown(x: Any, i: int, call: str = "sc.show") -> ValidationError:
    """The refusal of ``x``, argument ``i`` of :func:`show`: what it takes and, for ``x``'s
    kind, how to make one of those."""
    import sys

    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    frames = pd is not None and isinstance(x, Mapping | list | tuple) and bool(x) and all(
        _is_table(t) for t in (x.values() if isinstance(x, Mapping) else x))
    if frames:  # result.tables(), or several tables in a list
        fix = ("; these are tables: show them all with sc.show(*x.values())"
               if isinstance(x, Mapping) else "; these are tables: sc.show(*x)")
    elif isinstance(x, str):
        fix = "; print(text) prints it, and note=TEXT says a line under a table"
    elif (np is not None and isinstance(x, np.ndarray)) or isinstance(x, Mapping | list | tuple):
        fix = "; make it a table first: sc.show(pd.DataFrame(x))"
    elif _displays_itself(x):  # as_table's: a result is no table
        fix = "; a result displays itself: end a cell with it, or sc.show(result)"
    else:
        fix = ""
    where = f" (argument {i + 1})" if i else ""
    results = (" and results, which display themselves (board = sc.leaderboard(data); "
               "sc.show(board))") if call == "sc.show" else ""
    return ValidationError(
        f"{call} takes tables (a DataFrame or Series: a result's board.table, p.pairs, "
        f"board.unresolved()){results}; got {type(x).__name__} {_brief(x)}{where}{fix}")


def _brief(x: Any) -> str:
    """``x`` in a few words of its repr (a refusal quotes what it got)."""
    import reprlib

    text = " ".join(reprlib.repr(x).split())
    return text if len(text) <= 40 else text[:37] + "..."


class _Lines:
    """Lines said with no table to stand under (``sc.show(board, note=...)``)."""

    def __init__(self, note: str | Sequence[str]) -> None:
        self.lines = note_lines(note)

    def _repr_html_(self) -> str:
        return (f'{_STYLE}<div class="scorio-result">'
                + "".join(f'<p class="note">{_esc(n)}</p>' for n in self.lines) + "</div>")

    def __repr__(self) -> str:
        return "\n".join(self.lines)


def _output(obj: Any) -> None:
    """Show ``obj`` where the code runs: IPython's ``display`` in Jupyter, VS Code and the
    IPython shell, marimo's output in a marimo notebook, else its text on stdout (a script,
    a plain ``python`` prompt)."""
    import sys

    ipython = sys.modules.get("IPython")
    if ipython is not None and getattr(ipython, "get_ipython", lambda: None)() is not None:
        from IPython.display import display

        display(obj)
        return
    marimo = sys.modules.get("marimo")
    if marimo is not None and marimo.running_in_notebook():
        marimo.output.append(obj)
        return
    print(repr(obj))


@checked_keywords
def show(table: Any, *more: Any, note: str | Sequence[str] | None = None,
         max_rows: int | None = MAX_ROWS) -> None:
    """Display ``table`` (a DataFrame, or a :class:`~scorio_core.definitions.TableView`) as
    the reports print it, wherever the call is: mid-cell or last in a notebook cell
    (IPython's ``display``: the formatted HTML table), or in a script or terminal (its text,
    printed). Returns ``None``, so a cell that ends with it shows it once; the variables
    stay the raw frames (:func:`as_table` gives the shown object itself). A result
    (``sc.show(board)``) is shown as it shows itself ending a cell: its table, chart,
    settings and caveats (in a script, its summary).

    Parameters
    ----------
    table : DataFrame, TableView, a result or None
        A ``None`` -- a view that does not apply to these data -- shows nothing.
    *more : DataFrame, TableView, a result or None
        Further tables (or results) shown under it, each with its own lines; a ``None``
        shows nothing.
    note : str or sequence of str, optional
        The line (or lines) said under the (first) table (a view's own note comes first).
    max_rows : int or None
        Rows shown (``None``: all); a longer table ends with a row that says how many
        were left out -- ``table`` holds them all.

    Example
    -------
    >>> import pandas as pd
    >>> import scorio_core as sc
    >>> t = pd.DataFrame({"model": ["a", "b"], "trials_needed": [425.0, float("nan")],
    ...                   "p_best": [0.91234, 0.08766]})
    >>> sc.show(t)  # outside IPython: printed
    model  trials_needed  p_best
    a                425   0.912
    b                  —   0.088
    >>> sc.show(None)  # a view that does not apply: nothing
    >>> sc.show(t, "425 trials")
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: sc.show takes tables (a DataFrame or Series: a \
result's board.table, p.pairs, board.unresolved()) and results, which display themselves \
(board = sc.leaderboard(data); sc.show(board)); got str '425 trials' (argument 2); print(text) \
prints it, and note=TEXT says a line under a table
    """
    items = [x for x in (table, *more) if x is not None]
    for i, x in enumerate((table, *more)):
        if x is not None and not (_is_table(x) or _displays_itself(x)):
            raise _not_shown(x, i)
    tables: list[Any] = []  # consecutive tables: one display, the first with ``note``

    def flush() -> None:
        nonlocal note
        if tables:
            _output(as_table(*tables, note=note, max_rows=max_rows))
            note = None
            tables.clear()

    for x in items:
        if _is_table(x):
            tables.append(x)
        else:  # a result: as it displays itself
            flush()
            _output(x)
    flush()
    if note:  # no table to say it under
        _output(_Lines(note))


@checked_keywords
def chart_html(chart: Chart) -> str:
    """One chart as an inline SVG ``<figure>`` with its caption; a chart with nothing to
    draw (``chart.empty``) is its explanation instead."""
    if chart.empty is not None:
        return f'<p class="note"><b>{_esc(chart.title)}.</b> {_esc(chart.empty)}</p>'
    try:
        from .report._svg import chart_svg

        svg = chart_svg(chart.chart, inline=True)
    except Exception as exc:  # noqa: BLE001 - a display must not fail for want of a chart
        return (f'<p class="note"><b>{_esc(chart.title)}</b>: chart not drawn '
                f"({_esc(type(exc).__name__)}: {_esc(exc)}); result.charts() has it.</p>")
    return (f"<figure><figcaption><b>{_esc(chart.title)}.</b> {_esc(chart.caption)}"
            f"</figcaption>{svg}</figure>")


def _prose(text: str) -> str:
    """A sentence of ours as HTML, as the report writes it (one reading of our sentences,
    :func:`scorio_core.report.html.prose`): escaped, ``code`` as code."""
    from .report.html import prose

    return prose(text)


@checked_keywords
def caveats_html(caveats: Sequence[str]) -> str:
    """The caveats of a result as the report lists them under its section (``""``: none);
    one string is one caveat, commas and all (:func:`note_lines`)."""
    caveats = note_lines(caveats)
    if not caveats:
        return ""
    return ('<div class="note caveats"><b>Caveats</b><ul>'
            + "".join(f"<li>{_prose(c)}</li>" for c in caveats) + "</ul></div>")


@checked_keywords
def result_html(
    title: str,
    caption: str,
    tables: Sequence[tuple[Any, ...]],
    chart: Chart | None = None,
    notes: Sequence[str] = (),
    more: str = "",
    caveats: Sequence[str] = (),
    meanings: Mapping[str, str] | None = None,
) -> str:
    """Title, caption (scope and settings), the tables, the caveats, the chart and notes as
    one ``<div class="scorio-result">``; a table given as ``(name, frame, lines)`` has its
    lines said under it (what a view left out: :func:`readable`), one given as ``(name,
    frame, lines, columns)`` its columns' declaration (:meth:`Analysis.column_help
    <scorio_core.definitions.Analysis.column_help>`; default ``meanings``, for every table).
    A column with a meaning has it as its header's tooltip, and the columns whose names do
    not say it are explained under their table (:func:`legend_html`)."""
    parts = [_STYLE, '<div class="scorio-result">', f"<p><b>{_esc(title)}</b><br>"
             f'<span class="note">{_esc(caption)}</span></p>']
    for name, df, *rest in no_text(tables, "tables", "a list of (name, frame) pairs"):
        said = rest[0] if rest else ()
        declared = (rest[1] if len(rest) > 1 and rest[1] is not None else meanings) or {}
        parts.append(parts_html(df, caption=name or None, meanings=declared))
        parts += [f'<p class="note">{_prose(n)}</p>' for n in said]
        parts.append(legend_html(df.columns, declared))
    if more:
        parts.append(f'<p class="note">{_prose(more)}</p>')
    parts.append(caveats_html(caveats))
    if chart is not None and CHARTS:
        parts.append(chart_html(chart))
    parts += [f'<p class="note">{_prose(n)}</p>' for n in note_lines(notes)]  # a string: one
    parts.append("</div>")
    return "".join(parts)


@checked_keywords
def data_label(data: Any) -> str:
    """``name: L models × M questions × N trials`` (a selected benchmark is in the name:
    ``data [AIME'25]``), or ``""`` when ``data`` is not an :class:`~scorio_core.Outcomes`.

    Example
    -------
    >>> from scorio_core.display import data_label
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> data_label(Outcomes(np.zeros((2, 3, 4), int), name="toy"))
    'toy: 2 models × 3 questions × 4 trials'
    """
    if not all(hasattr(data, k) for k in ("L", "M", "N", "name")):
        return ""
    return f"{data.name}: {shape_text(data.L, data.M, data.N)}"


#: A setting with more values than this is written as its first values, ``…`` and its last.
LISTED_VALUES = 8


def _value_text(v: Any, nested: bool = False) -> str:
    """A setting's value as the caption writes it: numbers short (``0.6213``, ``4,000``),
    a list as its values (``10, 20, 30, …, 400 (40 values)`` when long), a name as it is.

    Example
    -------
    >>> from scorio_core.display import _value_text
    >>> _value_text(range(10, 401, 10)), _value_text(((0, 1), (1, 2)))
    ('10, 20, 30, …, 400 (40 values)', '[0, 1], [1, 2]')
    """
    if hasattr(v, "tolist") and getattr(v, "ndim", 1) > 0:  # an array: its values
        v = v.tolist()
    elif hasattr(v, "item") and getattr(v, "ndim", None) == 0:  # a NumPy scalar
        v = v.item()
    if isinstance(v, range):
        v = list(v)
    if isinstance(v, tuple | list):
        items = [_value_text(x, True) for x in v]
        if len(items) > LISTED_VALUES:
            items = [*items[:3], "…", f"{items[-1]} ({len(items):,} values)"]
        text = ", ".join(items)
        return f"[{text}]" if nested else text
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, int):  # in a list, no thousands separator (a comma between values)
        return str(v) if nested else f"{v:,}"
    if isinstance(v, float):
        from .formatting import format_number

        return (f"{v:g}" if nested else format_number(v, 4).rstrip("0").rstrip(".")) \
            if v == v else "—"
    return str(getattr(v, "name", v)) if nested else str(v)


@checked_keywords
def settings_caption(settings: Mapping[str, Any], resolved: Mapping[str, str] | None = None,
                     skip: Sequence[str] = ()) -> str:
    """``name = value`` for every setting (``resolved`` replaces a placeholder such as
    ``budget_trials = 0`` by what was used), joined with ``·``.

    Example
    -------
    >>> from scorio_core.display import settings_caption
    >>> settings_caption({"methods": "bayes,avg", "seed": 0, "pair": None},
    ...                  {"pair": "a vs b (the first undecided pair)"})
    'methods = bayes,avg · seed = 0 · pair = a vs b (the first undecided pair)'
    """
    resolved = dict(resolved or {})
    skip = as_names(skip, "skip", noun="setting names", example="progress,seed")  # not "in" a str
    items = [f"{k} = {resolved.pop(k) if k in resolved else _value_text(v)}"
             for k, v in settings.items() if k not in skip]
    items += [f"{k} = {v}" for k, v in resolved.items() if k not in skip]
    return " · ".join(items)


@dataclass(frozen=True)
class About:
    """How a result was made, for its caption and its caveats.

    ``analysis_id`` names the definition (:data:`scorio_core.definitions.SECTIONS`) whose run
    this is, with its ``params`` (``sc.convergence(...)``, ``sc.ANALYSES[id](data)``), or whose
    study a public call ran (``sc.correct_order(...)``: ``settings`` holds that call's own
    settings by name, the caption's, and ``renames`` which of them are the definition's
    settings under another name). ``data`` is the data's label (:func:`data_label`).
    ``caveats`` are the sentences the page and the report show for the same run, written by
    the definition's one ``caveats``: when the result was made where they read the data
    (the result holds a few sentences, not a copy of or a reference to its data), when
    first asked for (``None`` until then) where they read only the study's settings.
    Plain values only, so a result still pickles.
    """

    analysis_id: str | None
    params: Any = None
    data: str = ""
    caveats: tuple[str, ...] | None = ()
    settings: Mapping[str, Any] | None = None
    renames: tuple[tuple[str, str], ...] = ()


def _remember(result: Any, about: About) -> Any:
    try:
        object.__setattr__(result, "_about", about)
    except (AttributeError, TypeError):  # a NamedTuple or slotted result: no caption extras
        pass
    return result


@checked_keywords
def remember(result: Any, about: About) -> Any:
    """``result`` with ``about`` attached (:class:`About`: its caption's data and settings,
    its caveats), for a result whose call writes them itself (``sc.by_subset``); results
    that cannot hold it are returned as they are."""
    return _remember(result, about)


@checked_keywords
def attach(result: Any, analysis: Analysis, params: Any, data: Any) -> Any:
    """``result`` with :class:`About` attached: its display names the settings and the data,
    and lists the caveats the report lists for the same run (``analysis.caveats``, the one
    definition); results that cannot hold it are returned as they are."""
    return _remember(result, About(analysis.id, params, data_label(data),
                                   tuple(analysis.caveats(data, params, result))))


@checked_keywords
def with_caveats(result: Any, analysis: Analysis, params: Any, data: Any, run: Any, *,
                 label: str | None = None) -> Any:
    """``result`` -- a core result that a run of ``analysis`` holds (``run``, e.g. the
    definition's result wrapping ``sc.leaderboard``'s board) -- with :class:`About`: the
    data's label (``label``, default :func:`data_label`) and the caveats the definition
    writes for that run (``analysis.caveats``, the one definition), so ``sc.leaderboard(...)``
    and ``sc.plan(...)`` list what ``sc.ANALYSES[id](...)`` and the report list for the same
    settings. ``params`` holds the call's settings that the caveats read; the result keeps
    the sentences, not ``data``. Results that cannot hold it are returned as they are."""
    return _remember(result, About(analysis.id, None,
                                   data_label(data) if label is None else label,
                                   tuple(analysis.caveats(data, params, run)), {}))


@checked_keywords
def recorded(analysis_id: str | None = None, *, params: Mapping[str, str] | None = None,
             data: str = "data", skip: Sequence[str] = ("progress", "executor")) -> Callable:
    """Decorate a public call (``sc.correct_order``, ``sc.run_methods``, ...) so that its
    result remembers the call (:class:`About`): every setting as given or defaulted (but
    ``skip``, and the ``data`` argument, which the caption names by its label) for the
    caption, and -- a teaching study's call, one run of the definition ``analysis_id``,
    whose caveats read its settings, not data -- what that definition's caveats need: its
    params are made of the call's settings (``params`` renames: the definition's name -> the
    call's) when the caveats are first asked for. A call the definition's params cannot
    hold (a seed given as a Generator) keeps its settings without caveats.

    Example
    -------
    >>> r = sc.correct_order(0.7, 0.6, n_values=(20,), n_sims=200, seed=3)
    >>> r._about.settings["n_sims"], r.caveats[1][:25]
    (200, '200 simulated datasets pe')
    """
    import functools
    import inspect

    renames = tuple((params or {}).items())
    skip = as_names(skip, "skip", noun="setting names", example="progress,executor")

    def wrap(fn: Callable) -> Callable:
        sig = inspect.signature(fn)
        checked = checked_keywords(fn)  # a misspelt keyword: the settings, the closest named

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            result = checked(*args, **kwargs)
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            given = bound.arguments
            settings = {k: v for k, v in given.items() if k not in skip and k != data}
            return _remember(result, About(
                analysis_id, None, _data_text(given.get(data)),
                None if analysis_id is not None else (), settings, renames))

        return call

    return wrap


def _data_text(data: Any) -> str:
    """What a call read, for its caption: loaded data by name and shape
    (:func:`data_label`), an array by its shape, LLM mimics by their size; else ``""``."""
    if hasattr(data, "p") and hasattr(data, "models"):  # simulate.Mimics
        return f"mimics: {count_text(len(data.models), 'model')} × " \
            f"{count_text(data.p.shape[1], 'question')}"
    shape = getattr(data, "shape", None)
    if not hasattr(data, "name") and shape is not None and len(shape) == 3:
        return f"array: {shape_text(*shape)}"
    return data_label(data)


def _study_caveats(about: About, result: Any) -> About:
    """``about`` of a study's call with its caveats written (:func:`recorded`): the
    definition's, from its params made of the call's settings (none where they cannot be)."""
    from ._validation import ValidationError
    from .definitions import SECTIONS

    analysis = SECTIONS[about.analysis_id]
    names = dict(about.renames)
    settings = about.settings or {}
    try:
        p = analysis.params(**{f: settings[names.get(f, f)]
                               for f in analysis.params.__dataclass_fields__})
    except (ValidationError, TypeError, ValueError, KeyError):
        return replace(about, caveats=())
    return replace(about, params=p, caveats=tuple(analysis.caveats(None, p, result)))


def _call_unset_words(about: About) -> dict[str, str]:
    """For a public call that ran a definition's study, what each of its settings left unset
    means (the definition's declared :attr:`~scorio_core.params.Setting.unset`, by the call's
    name): ``R0 = none (ν = counts + 1)``, not ``R0 = None``."""
    if about.analysis_id is None:
        return {}
    from .definitions import SECTIONS
    from .params import is_unset, settings_of

    analysis = SECTIONS.get(about.analysis_id)
    if analysis is None:
        return {}
    declared = settings_of(analysis.params)
    names = dict(about.renames)  # the definition's name -> the call's
    words = {names.get(d, d): s.unset for d, (_, s) in declared.items() if s.unset is not None}
    return {n: w for n, w in words.items()
            if n in about.settings and is_unset(about.settings[n])}


@checked_keywords
def run_caption(about: About | None, resolved: Callable[[Any], Mapping[str, str] | None]
                = lambda p: None, skip: Sequence[str] = ()) -> str:
    """The data and the settings of a result's run (:class:`About`), ``·``-joined (``""``
    for a result that does not know them); ``resolved(params)`` words the settings left at
    a placeholder as the run took them."""
    if about is None:
        return ""
    if about.settings is not None:  # a public call: its own settings by name
        text = settings_caption(about.settings, _call_unset_words(about), skip=skip)
    else:
        from .definitions._base import params_dict

        text = settings_caption(params_dict(about.params), resolved(about.params), skip=skip)
    return " · ".join(t for t in (about.data, text) if t)


NOT_RECORDED = ("made by the definition's run(): settings and caveats not recorded "
                "(sc.ANALYSES[id](data, ...) records them)")


@checked_methods
class Shown:
    """Rich display for the result of a definition (``analysis_id``): ``tables()``,
    ``charts()``, ``caveats``, the HTML/MIME display of the main table, the caveats and the
    chart, and a text repr.

    The main table is displayed as the report prints it (:meth:`Analysis.shown_tables
    <scorio_core.definitions.Analysis.shown_tables>` and :func:`readable`): the rows its
    view chooses -- e.g. the easiest and hardest of many questions -- with the view's line on
    what the others hold; ``result.tables()`` keeps every row. Under it, the caveats the
    report lists under its section for the same run.
    """

    #: The definition's id in :data:`scorio_core.definitions.SECTIONS`.
    analysis_id: ClassVar[str] = ""
    #: The table shown first (default: the first of ``tables()``).
    main_table: ClassVar[str | None] = None
    #: Tables shown under the main one, as the report prints them, where the result has
    #: them (the pair's chosen question's own texts); the others are named in one line.
    also_shown: ClassVar[tuple[str, ...]] = ()
    _about: About | None = None

    def definition(self) -> Analysis:
        """The one definition that made this result (:class:`~scorio_core.definitions.Analysis`)."""
        from .definitions import SECTIONS

        return SECTIONS[self.analysis_id]

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table of the result by name (what the page, CLI and report show)."""
        return self.definition().tables(self)

    def charts(self) -> list[Chart]:
        """Every chart of the result (:class:`~scorio_core.definitions.Chart`: title, Altair
        chart, caption; ``chart.chart`` displays interactively in a notebook)."""
        return self.definition().charts(self)

    @property
    def caveats(self) -> list[str]:
        """What limits this result, in sentences: the caveats the analysis's page and its
        report section show for the same run (the definition's one ``caveats``), written
        when the result was made -- e.g. why nothing converged and what to change. A result
        made by the definition's ``run()`` has none recorded (``[]``; its display says so):
        ``sc.ANALYSES[id](data, ...)`` and the ``sc.*`` calls record them."""
        about = self._about
        if about is None:
            return []
        if about.caveats is None:  # a study's call: written from its settings, once
            about = _remember(self, _study_caveats(about, self))._about
        return list(about.caveats)

    def _main(self) -> tuple[str, pd.DataFrame, list[str], dict[str, pd.DataFrame]]:
        """The main table's name, its rows and lines as the report prints them (its view),
        and every table whole."""
        tables = self.tables()
        name = self.main_table if self.main_table in tables else next(iter(tables))
        shown, notes = readable(self.definition().shown_tables(self, tables)[name])
        return name, shown, notes, tables

    def _also(self, tables: dict[str, pd.DataFrame]) -> list[tuple[str, pd.DataFrame, list[str]]]:
        """The :attr:`also_shown` tables this result has, each as the report prints it."""
        names = [k for k in self.also_shown if k in tables]
        if not names:
            return []
        views = self.definition().shown_tables(self, tables)
        return [(k, *readable(views[k])) for k in names]

    def _caption(self) -> str:
        about = self._about
        if about is None:
            return NOT_RECORDED
        analysis = self.definition()
        return run_caption(about, lambda p: analysis.resolved(p, self)
                           if analysis.resolved and p is not None else None)

    def _repr_html_(self) -> str:
        name, main, notes, tables = self._main()
        also = self._also(tables)
        chart = next((c for c in self.charts() if c.empty is None), None)
        shown = {name, *(k for k, _, _ in also)}
        others = [f"{k} ({len(v):,} rows)" for k, v in tables.items() if k not in shown]
        more = ("Other tables: " + ", ".join(others) + " — result.tables()[name] (every "
                "row); every chart: result.charts().") if others else ""
        analysis = self.definition()  # each table's columns as the definition declares them
        return result_html(analysis.title, self._caption(),
                           [(k, df, said, analysis.column_help(k))
                            for k, df, said in [(name, main, notes), *also]],
                           chart, more=more, caveats=self.caveats)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/html": self._repr_html_(), "text/plain": repr(self)}

    def __repr__(self) -> str:
        name, main, notes, tables = self._main()
        caption = self._caption()  # the data and every setting, or that none were recorded
        head = f"<{type(self).__name__}: {self.definition().title} · {caption}>"
        rows = f"{len(tables[name]):,} rows" + (
            f", {len(main):,} shown" if len(main) < len(tables[name]) else "")
        analysis = self.definition()
        also = [x for k, df, said in self._also(tables)
                for x in (f"{k}:", parts_text(df, max_rows=MAX_ROWS), *said,
                          *legend_text(df.columns, analysis.column_help(k)))]
        return "\n".join([f"{head}\n{name} ({rows}):", parts_text(main, max_rows=MAX_ROWS),
                          *notes, *legend_text(main.columns, analysis.column_help(name)),
                          *also,
                          f"tables: {', '.join(tables)} (result.tables(): every row)",
                          *caveats_text(self.caveats)])


@checked_keywords
def caveats_text(caveats: Sequence[str]) -> list[str]:
    """The caveats of a result as text lines (none when it has none).

    Example
    -------
    >>> from scorio_core.display import caveats_text
    >>> caveats_text(["Only 12 questions: intervals are wide."])
    ['Caveats:', '- Only 12 questions: intervals are wide.']
    """
    caveats = note_lines(caveats)  # one string: one caveat
    return ["Caveats:", *(f"- {c}" for c in caveats)] if caveats else []


# ------------------------------------------------------- results that are no definition's
class View(NamedTuple):
    """What a core result that is no definition's own displays (:class:`Displayed`)."""

    title: str
    #: the result's own scope and settings (a recorded call's settings follow them)
    caption: str
    #: ``(name, DataFrame or TableView)``: each shown as the report prints a table
    tables: Sequence[tuple[str, Any]]
    notes: Sequence[str] = ()
    chart: Chart | None = None
    #: what each table's columns hold, in the order of ``tables``: the declaration of the
    #: definition table it shows (:func:`_columns_of`), its "Columns:" legend
    meanings: Sequence[Mapping[str, str] | None] = ()


class Displayed:
    """Rich display and text repr of a core result that is no definition's own
    (``sc.pass_curves``, ``sc.question_stats``, ``sc.run_methods``, ``sc.leaderboard``,
    ``sc.plan``, ``sc.by_subset``, ...): its title, its scope and the settings of the call
    that made it (:func:`recorded`), its tables as the report prints a table
    (:func:`readable`: one format per column, the view's rows), notes, the caveats a
    definition wrote for it (:func:`with_caveats`: ``sc.leaderboard(...)`` lists those of
    ``sc.ANALYSES["leaderboard"](...)``) and main chart. What a class shows is its
    ``_view()``: by default the function registered for its name in :data:`VIEWS`, so a
    result class of another module declares only that it displays."""

    _about: About | None = None

    @property
    def caveats(self) -> list[str]:
        """What limits this result, in sentences: the caveats its analysis's page and report
        section show for the same run, written by the definition's one ``caveats`` when the
        result was made (:func:`with_caveats`); ``[]`` for a result no definition speaks
        for (``sc.run_methods``, ...)."""
        about = self._about
        return list(about.caveats or ()) if about is not None else []

    def _view(self) -> View:
        return VIEWS[type(self).__name__](self)

    def _caption(self, view: View) -> str:
        return " · ".join(t for t in (view.caption, run_caption(self._about)) if t)

    def _repr_html_(self) -> str:
        v = self._view()
        return result_html(v.title, self._caption(v),
                           [(name, *readable(t), _meaning_of(v, i))
                            for i, (name, t) in enumerate(v.tables)], v.chart, v.notes,
                           caveats=self.caveats)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/html": self._repr_html_(), "text/plain": repr(self)}

    def __repr__(self) -> str:
        v = self._view()
        lines = [f"<{type(self).__name__}: {v.title} · {self._caption(v)}>"]
        for i, (name, t) in enumerate(v.tables):
            df, said = readable(t)
            lines += [*([f"{name}:"] if name else []), parts_text(df, max_rows=MAX_ROWS),
                      *said, *legend_text(df.columns, _meaning_of(v, i) or {})]
        return "\n".join([*lines, *v.notes, *caveats_text(self.caveats)])


def _meaning_of(view: View, i: int) -> Mapping[str, str] | None:
    """The declaration of the columns of ``view``'s table ``i`` (``None``: none)."""
    return view.meanings[i] if i < len(view.meanings) else None


def _columns_of(analysis_id: str, *tables: str) -> tuple[Mapping[str, str], ...]:
    """The declarations of a definition's ``tables`` (:meth:`Analysis.column_help
    <scorio_core.definitions.Analysis.column_help>`): what a core result that shows the
    same table explains under it, in the same words."""
    from .definitions import SECTIONS

    analysis = SECTIONS[analysis_id]
    return tuple(analysis.column_help(t) for t in tables)


def _scope_text(scope: str, confidence: float) -> str:
    from .estimands import SCOPE_HELP
    from .formatting import percent

    return f"{scope} scope: {SCOPE_HELP[scope]} · {percent(confidence)} intervals"


def _pass_curves_view(c: Any) -> View:
    from .definitions.curves import CURVES, CurvesResult, shown_summary

    chart = next((x for x in CURVES.charts(CurvesResult(c)) if x.empty is None), None)
    tau = "" if c.tau is None else f" · τ = {c.tau:g}"
    notes = [] if c.identified else [f"Not identified in the {c.scope} scope here (N = {c.N}, "
                                     f"M = {c.M}): every interval is missing."]
    return View("Pass@k curves", f"{_scope_text(c.scope, c.confidence)} (pointwise) · "
                f"{c.M:,} questions × {c.N:,} trials{tau}",
                [("summary", shown_summary(c))], notes, chart, _columns_of("curves", "summary"))


def _question_stats_view(q: Any) -> View:
    from .definitions.questions import QUESTIONS, QuestionsResult

    p = QUESTIONS.params()
    r = QuestionsResult(q, p.heatmap_columns, p.top)
    view = QUESTIONS.shown_tables(r)["questions"]
    chart = next((x for x in QUESTIONS.charts(r) if x.empty is None), None)
    weights = ", ".join(map(weight_text, q.weights))
    return View("Questions", f"{len(q.models):,} models × {len(q.questions):,} questions · "
                f"weights {weights} · 2PL fit: {q.irt}", [("questions", view)],
                [f"Disagreement, the uninformative and the collapsed questions: "
                 f".disagree(), .uninformative, .collapsed ({len(q.collapsed):,})."], chart,
                _columns_of("questions", "questions"))


def _skipped(skipped: Mapping[str, str]) -> list[str]:
    return [f"{m} skipped: {why}." for m, why in skipped.items()]


def _method_run_view(r: Any) -> View:
    ranks = r.ranks.reset_index()
    return View("Ranks by method", f"{len(ranks):,} models · {r.ranks.shape[1]:,} methods · "
                "rank 1 = best, ties share the best rank",
                [("ranks", ranks)], [*_skipped(r.skipped), "Scores: .scores."],
                meanings=_columns_of("compare", "ranks"))


def _convergence_run_view(r: Any) -> View:
    from .formatting import percent

    match = f"match {r.match}" + (f" at {percent(r.confidence)}" if r.match == "ci" else "")
    return View("convergence@n", f"over bootstrap replicates of the trials · {match} · "
                f"N = {r.n_max:,} trials", [("summary", r.summary)],
                [*_skipped(r.skipped), "Per n: .pmf, .cdf."],
                meanings=_columns_of("convergence", "summary"))


def _stability_view(r: Any) -> View:
    return View("Low-budget stability (N = 1)", "τ_b of each single-trial ranking vs the gold "
                "standard (Bayes@N on all trials) and vs the method's own full-trial ranking",
                [("per method", r.table)],
                [*_skipped(r.skipped), "Methods with equal τ_b on every slice: .classes()."],
                meanings=_columns_of("stability", "per_method"))


def _greedy_view(g: Any) -> View:
    import pandas as pd

    return View("Greedy vs sampling", f"{len(g.ranks):,} models · τ_b of the greedy and the "
                "sampled ranking; the greedy prior (R0) against the uniform one at the "
                "smallest n", [("summary", pd.DataFrame([g.summary()])), ("ranks", g.ranks)],
                ["τ_b per replicate at the smallest n: .distributions; the curves: .curves."],
                meanings=_columns_of("greedy", "table", "ranks"))


def _greedy_by_benchmark_view(d: Any) -> View:
    from .engines.greedy import greedy_table

    # named as the definition's table names the column (its "data")
    table = greedy_table(d).rename(columns={"benchmark": "data"})
    return View("Greedy vs sampling by benchmark", f"{count_text(len(d), 'view')} (each "
                "benchmark, then all its questions)", [("", table)],
                ["Each benchmark's analysis: result[name]."],
                meanings=_columns_of("greedy", "table"))


def _leaderboard_view(b: Any) -> View:
    """``sc.leaderboard``'s board: its table, the undecided neighbours (when there are any),
    the forest plot; the caveats its definition wrote (its first line, notes and prior among
    them) or, for a board made otherwise, its own notes."""
    from .leaderboard import prior_note

    pairs = b.unresolved()
    tables = [("", b.table)]
    if len(pairs):
        tables.append((count_text(len(pairs), "undecided adjacent pair"), pairs))
    notes = [] if b.caveats else [b.first_line(), *b.notes, *filter(None, [prior_note(b)])]
    return View("CI-aware leaderboard", b.caption(), tables, notes, b.charts()[0],
                _columns_of("leaderboard", "leaderboard", "unresolved"))


def _plan_view(p: Any) -> View:
    """``sc.plan``'s plan: the undecided pairs with each note listed under the table, naming
    its pairs (a column of sentences ran past a notebook's output area; ``p.pairs`` keeps
    its ``note`` column), the budget split, what the budget buys and where it goes."""
    from .definitions._base import TableView
    from .planner import pair_notes

    label = (count_text(len(p.pairs), "undecided adjacent pair") if len(p.pairs)
             else "every adjacent pair is decided: nothing to plan")
    notes = tuple(f"{who}: {note}" for who, note in pair_notes(p.pairs))
    pairs = TableView(p.pairs.drop(columns="note", errors="ignore"), notes)
    return View("Planner", p.caption(), [(label, pairs), ("allocation", p.allocation)],
                [p.headline()], p.charts()[0], _columns_of("plan", "pairs", "allocation"))


def _subset_boards_view(t: Any) -> View:
    """``sc.by_subset``'s table: one leaderboard per value of a question attribute."""
    import pandas as pd

    s = (t._about.settings if t._about is not None else None) or {}
    frame = pd.DataFrame(t)  # the rows as they are, not this display again
    n = frame["subset"].nunique() if "subset" in frame else 0
    scope = s.get("scope")
    head = ([_scope_text(scope, s["confidence"]) + f" and decisions, adjustment {s['adjust']}"]
            if scope else [])
    return View("Leaderboard per subset", " · ".join(
        [f"{count_text(n, 'subset')} by {s.get('attribute', 'attribute')}, each its own "
         "leaderboard on its questions; nothing adjusted across subsets", *head]),
        [("", frame)], meanings=_columns_of("leaderboard", "by_subset"))


def _report_view(r: Any) -> View:
    import pandas as pd

    rows = pd.DataFrame([{
        "section": s.analysis.id, "title": s.analysis.title,
        "ran": "yes" if s.error is None else f"no: {s.error}", "tables": len(s.tables),
        "charts": len(s.charts), "caveats": len(s.caveats)} for s in r.sections])
    left = [f"Left out: {k} ({why})." for k, why in r.left_out.items()]
    return View(r.title, f"{data_label(r.data)} · {count_text(len(r.sections), 'section')}",
                [("sections", rows)],
                [*left, "Write it with sc.report.write_report(report, 'report.html') (or .md, "
                 ".ipynb); a section's result, tables and caveats: report.sections[i]."])


def _pair_comparison_view(c: Any) -> View:
    """``compare_pair``'s result as the pair view's report section shows the same tables
    (:func:`~scorio_core.definitions.pair.summary_view`, the questions beside the chart:
    :func:`~scorio_core.engines.pair.gap_view`), each with the legend of the pair
    definition's declaration."""
    from .definitions._base import TableView
    from .definitions.pair import gap_chart, summary_view
    from .engines.pair import gap_view
    from .formatting import percent
    from .params import PairParams

    top = PairParams().top  # the pair view's default: the rows its chart draws
    return View(f"Pair: {c.a} − {c.b}",
                f"{shape_text(2, c.M, c.N)} · {percent(c.confidence)} intervals",
                [("summary", summary_view(c.summary)),
                 ("questions", TableView(*gap_view(c.questions, top)))],
                list(c.notes), gap_chart(c, top), _columns_of("pair", "summary", "questions"))


#: The display of each core result class that is no definition's own, by class name
#: (:class:`Displayed`): what the notebook shows of ``sc.pass_curves(...)`` and the like.
VIEWS: dict[str, Callable[[Any], View]] = {
    "PassCurves": _pass_curves_view,
    "QuestionStats": _question_stats_view,
    "MethodRun": _method_run_view,
    "ConvergenceRun": _convergence_run_view,
    "Stability": _stability_view,
    "GreedyAnalysis": _greedy_view,
    "GreedyByBenchmark": _greedy_by_benchmark_view,
    "Report": _report_view,
    "Leaderboard": _leaderboard_view,
    "Plan": _plan_view,
    "SubsetBoards": _subset_boards_view,
    "PairComparison": _pair_comparison_view,
}
