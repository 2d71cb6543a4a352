"""Rich display of results in Jupyter, VS Code and marimo, and short reprs for terminals.

Every result object renders itself: the formatted table (one format per column, ``∞`` and
``—``: :mod:`scorio_core.formatting`, the same formatter as the CLI and the reports), its
main chart as inline SVG (``vl-convert``, no browser or JavaScript needed, so the output
also survives in a saved notebook and on GitHub), and a caption with the scope and the
settings. The pieces:

* :func:`html_table` -- a DataFrame as an HTML table in its column formats;
* :func:`result_html` -- title, caption, tables and a chart as one ``<div>``;
* :class:`Shown` -- the mixin the definitions' results use: ``result.tables()``,
  ``result.charts()``, ``_repr_html_``, ``_repr_mimebundle_`` and a short ``__repr__``,
  all from the result's one definition (:data:`scorio_core.definitions.SECTIONS`).

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .formatting import shape_text

if TYPE_CHECKING:
    import pandas as pd

    from .definitions._base import Analysis, Chart

__all__ = [
    "MAX_ROWS",
    "CHARTS",
    "About",
    "Shown",
    "html_table",
    "chart_html",
    "result_html",
    "data_label",
    "settings_caption",
    "attach",
]

#: Rows shown per table in a notebook (the object holds them all: ``result.tables()``).
MAX_ROWS = 40
#: Draw the main chart in the HTML display (set ``scorio_core.display.CHARTS = False`` to
#: show tables only, e.g. when many results are displayed in a loop).
CHARTS = True

_STYLE = (
    "<style>.scorio-result{overflow-x:auto}.scorio-result table{border-collapse:collapse;"
    "font-size:12px;margin:4px 0}"
    ".scorio-result th,.scorio-result td{padding:2px 8px;border-bottom:1px solid #ddd}"
    ".scorio-result td.num,.scorio-result th.num{text-align:right;"
    "font-variant-numeric:tabular-nums}.scorio-result td.txt,.scorio-result th.txt"
    "{text-align:left;white-space:nowrap}.scorio-result td.wrap{white-space:normal;"
    "min-width:20em}.scorio-result caption{caption-side:top;text-align:left;color:#555}"
    ".scorio-result .note{color:#555;font-size:12px}</style>"
)


def _esc(text: Any) -> str:
    return _html.escape(str(text), quote=True)


def html_table(df: pd.DataFrame, *, caption: str | None = None,
               max_rows: int | None = MAX_ROWS) -> str:
    """``df`` as an HTML ``<table>``: every cell in its column's one format
    (:func:`scorio_core.formatting.format_columns`), numbers right-aligned, names escaped;
    with ``max_rows``, a longer table ends with a row that says how many were left out.

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
    cols = format_columns(shown)

    def cls(fmt, text: str = "") -> str:  # long texts (a rule, a note) wrap; names do not
        return "num" if fmt.numeric else "txt wrap" if len(text) > 60 else "txt"

    head = "".join(f'<th class="{cls(f)}">{_esc(n)}</th>' for n, f, _ in cols)
    rows = [
        "<tr>" + "".join(f'<td class="{cls(f, cells[r])}">{_esc(cells[r])}</td>'
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


def result_html(
    title: str,
    caption: str,
    tables: Sequence[tuple[str, pd.DataFrame]],
    chart: Chart | None = None,
    notes: Sequence[str] = (),
    more: str = "",
) -> str:
    """Title, caption (scope and settings), the tables, the chart and notes as one
    ``<div class="scorio-result">``."""
    parts = [_STYLE, '<div class="scorio-result">', f"<p><b>{_esc(title)}</b><br>"
             f'<span class="note">{_esc(caption)}</span></p>']
    for name, df in tables:
        parts.append(html_table(df, caption=name or None))
    if more:
        parts.append(f'<p class="note">{_esc(more)}</p>')
    if chart is not None and CHARTS:
        parts.append(chart_html(chart))
    parts += [f'<p class="note">{_esc(n)}</p>' for n in notes]
    parts.append("</div>")
    return "".join(parts)


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


def _value_text(v: Any) -> str:
    if isinstance(v, tuple | list):
        return ", ".join(f"{x:g}" if isinstance(x, float) else str(getattr(x, "name", x))
                         for x in v)
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    if isinstance(v, float):
        from .formatting import format_number

        return format_number(v, 4).rstrip("0").rstrip(".") if v == v else "—"
    return str(v)


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
    items = [f"{k} = {resolved.pop(k) if k in resolved else _value_text(v)}"
             for k, v in settings.items() if k not in skip]
    items += [f"{k} = {v}" for k, v in resolved.items()]
    return " · ".join(items)


@dataclass(frozen=True)
class About:
    """How a result was made, for its caption: the definition, its params and the data."""

    analysis: Analysis
    params: Any
    data: str = ""


def attach(result: Any, analysis: Analysis, params: Any, data: Any) -> Any:
    """``result`` with :class:`About` attached (its display caption names the settings and
    the data); results that cannot hold it are returned as they are."""
    try:
        object.__setattr__(result, "_about", About(analysis, params, data_label(data)))
    except (AttributeError, TypeError):  # a NamedTuple or slotted result: no caption extras
        pass
    return result


class Shown:
    """Rich display for the result of a definition (``analysis_id``): ``tables()``,
    ``charts()``, the HTML/MIME display of the main table and chart, and a short repr."""

    #: The definition's id in :data:`scorio_core.definitions.SECTIONS`.
    analysis_id: ClassVar[str] = ""
    #: The table shown first (default: the first of ``tables()``).
    main_table: ClassVar[str | None] = None
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

    def _main(self) -> tuple[str, pd.DataFrame, dict[str, pd.DataFrame]]:
        tables = self.tables()
        name = self.main_table if self.main_table in tables else next(iter(tables))
        return name, tables[name], tables

    def _caption(self) -> str:
        about = self._about
        if about is None:
            return "run with the definition's run(); settings not recorded"
        resolved = about.analysis.resolved(about.params, self) if about.analysis.resolved \
            else None
        from .definitions._base import params_dict

        text = settings_caption(params_dict(about.params), resolved)
        return f"{about.data} · {text}" if about.data else text

    def _repr_html_(self) -> str:
        name, main, tables = self._main()
        chart = next((c for c in self.charts() if c.empty is None), None)
        others = [f"{k} ({len(v):,} rows)" for k, v in tables.items() if k != name]
        more = ("Other tables: " + ", ".join(others) + " — result.tables()[name]; "
                "every chart: result.charts().") if others else ""
        return result_html(self.definition().title, self._caption(), [(name, main)],
                           chart, more=more)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/html": self._repr_html_(), "text/plain": repr(self)}

    def __repr__(self) -> str:
        from .formatting import text_table

        name, main, tables = self._main()
        head = f"<{type(self).__name__}: {self.definition().title}"
        head += f" · {self._about.data}>" if self._about is not None and self._about.data \
            else ">"
        return (f"{head}\n{name} ({len(main):,} rows):\n{text_table(main, max_rows=10)}\n"
                f"tables: {', '.join(tables)}")
