"""Helpers every chart module shares: row heights, model axes, inline data, palette."""

from __future__ import annotations

import json
from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from .._validation import as_names, as_numbers, checked_keywords
from ..formatting import display_width
from ..outcomes import Outcomes

__all__ = [
    "ROW_PX",
    "LABEL_LIMIT",
    "PALETTE",
    "SERIES_COLOURS",
    "SERIES_DASHES",
    "OTHER_COLOUR",
    "inline",
    "whole_axis",
    "whole_log_axis",
    "log_ticks",
    "log_axis",
    "rank_y",
    "series_encodings",
    "series_styles",
    "name_legend",
    "name_lines",
    "NAME_LINE_PX",
    "NARROW_COLUMN_PX",
    "readable_colour",
    "contrast_ratio",
    "text_colour_on",
    "viridis",
    "cell_font_size",
    "MIN_CELL_FONT",
    "LIVE",
    "NOTE_LINE",
    "live_param",
]

#: Pixels per model row; 20 models give a ~460 px tall chart.
ROW_PX = 22
#: Longest model name shown in full on an axis (longer ones are truncated with "…").
LABEL_LIMIT = 260

def _keywords_of(schema: type) -> list[str]:
    """The properties the Altair class ``schema`` takes by name: what a helper that passes
    its ``**kw`` on to it (:func:`whole_axis`, :func:`name_legend`) accepts."""
    import inspect

    return [p.name for p in inspect.signature(schema).parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


#: Trial counts are whole numbers: integer ticks only, never 1.5 trials.
_WHOLE = alt.Axis(tickMinStep=1, format=",d")
#: Longest range of whole numbers whose every value gets its own tick (e.g. N ≤ 20 trials).
MAX_WHOLE_TICKS = 20


@checked_keywords(also=lambda: _keywords_of(alt.Axis))
def whole_axis(values: Sequence[float] | np.ndarray | str, lo: int | None = None, **kw
               ) -> alt.Axis:
    """An axis of whole numbers with each tick once: every integer of a short range
    (``lo`` or the smallest of ``values`` to the largest), else steps of at least 1.

    ``tickMinStep`` alone is not enough: on a range of 1..3 the renderer still places ticks
    at 1.5 and 2.5, which ``format="d"`` prints as 1, 2, 2, 3, 3. With the values listed,
    ``tickMinStep`` is 0: Vega-Lite adds 1 for ``format="d"``, and the Vega in the app's
    browser then thins exactly three listed values (1, 2, 3 at N = 4 trials) to 1 and 3.
    """
    v = pd.to_numeric(pd.Series(list(_values(values))), errors="coerce")
    v = v[np.isfinite(v)]
    if len(v):
        first = int(np.floor(v.min())) if lo is None else int(lo)
        last = int(np.ceil(v.max()))
        if last - first + 1 <= MAX_WHOLE_TICKS:
            return alt.Axis(values=list(range(first, last + 1)), format=",d", tickMinStep=0,
                            **kw)
    return alt.Axis(tickMinStep=1, format=",d", **kw)


@checked_keywords
def log_ticks(lo: float, hi: float) -> list[float]:
    """Round numbers evenly spread on a log axis from ``lo`` to ``hi`` (both > 0): 1 to 9
    times the powers of ten within one decade, 1, 2 and 5 times them over up to two, 1 and
    3 times them up to three and a half, the powers of ten alone beyond (as many labels as
    a chart's side has room for, none of them thinned out).

    Vega's own log ticks are 1 to 9 times each power of ten, thinned where their labels
    would overlap: the Questions page's discrimination axis read 0.1, 0.3, 0.5, 2, 4, 10
    (no 1, where most questions lie), the Planner's lead axis 0.003, 0.02, 0.1 and its
    plan-size axis 8, 10, 30, 50, 70, 90, 200.

    Example
    -------
    >>> from scorio_core.charts._common import log_ticks
    >>> log_ticks(0.1, 10), log_ticks(8, 531)
    ([0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0], [10.0, 20.0, 50.0, 100.0, 200.0, 500.0])
    >>> log_ticks(30, 6000), log_ticks(0.01, 100), log_ticks(128, 647)[:3]
    ([30.0, 100.0, 300.0, 1000.0, 3000.0], [0.01, 0.1, 1.0, 10.0, 100.0], [200.0, 300.0, 400.0])
    """
    if not (lo > 0 and hi >= lo):
        return []
    span = np.log10(hi / lo)
    steps = (tuple(range(1, 10)) if span <= 1 else (1, 2, 5) if span <= 2.2
             else (1, 3) if span <= 3.5 else (1,))
    first, last = int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi)))
    ticks = (float(f"{m}e{e}") for e in range(first, last + 1) for m in steps)
    return [t for t in ticks if lo * (1 - 1e-9) <= t <= hi * (1 + 1e-9)]


def _values(values: Sequence[float] | np.ndarray | str, what: str = "values") -> list:
    """The numbers an axis is made for: an array, a list, one number or one comma-separated
    string (``"1,4,16"``, not the characters ``'1', ',', '4'`` ...)."""
    if isinstance(values, np.ndarray):
        return values.ravel().tolist()
    return list(as_numbers(values, what, kind=float, example="1,4,16"))


def _positive(values: Sequence[float] | np.ndarray | str) -> pd.Series:
    """The finite positive numbers among ``values`` (what a log axis can place)."""
    v = pd.to_numeric(pd.Series(_values(values)), errors="coerce")
    return v[np.isfinite(v) & (v > 0)]


@checked_keywords(also=lambda: _keywords_of(alt.Axis))
def log_axis(values: Sequence[float] | np.ndarray | str, **kw) -> alt.Axis:
    """A log-scale axis of positive numbers (a lead, a 2PL slope) with :func:`log_ticks`
    over the whole decades that hold ``values`` (the domain a log scale is extended to).

    Example
    -------
    >>> from scorio_core.charts._common import log_axis
    >>> log_axis([0.02, 0.3]).values
    [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0]
    """
    v = _positive(values)
    if not len(v):
        return alt.Axis(**kw)
    lo, hi = 10.0 ** np.floor(np.log10(v.min())), 10.0 ** np.ceil(np.log10(v.max()))
    return alt.Axis(values=log_ticks(lo, hi), format=",~g", **kw)


@checked_keywords(also=lambda: _keywords_of(alt.Axis))
def whole_log_axis(values: Sequence[float] | np.ndarray | str, **kw) -> alt.Axis:
    """A log-scale axis of whole numbers (plan sizes: trials, questions) with each tick once:
    :func:`log_ticks` within the range of ``values`` (1, 2 and 5 times the powers of ten),
    or every whole number of a range holding fewer than two of those (short ranges of at
    most :data:`MAX_WHOLE_TICKS` values; else its two ends).

    A log scale that is not extended to whole decades (``nice=False``) otherwise gets Vega's
    ticks at 2.2, 2.4, … on a range of 2 to 4 trials, which ``format="d"`` prints as 2, 2,
    2, 3, 3, …

    Example
    -------
    >>> from scorio_core.charts._common import whole_log_axis
    >>> whole_log_axis([2, 3, 4]).values, whole_log_axis([8, 16, 32, 64]).values
    ([2, 3, 4], [8, 9, 10, 20, 30, 40, 50, 60])
    """
    v = _positive(values)
    if not len(v):
        return alt.Axis(format=",d", **kw)
    lo, hi = int(np.ceil(v.min())), max(int(np.floor(v.max())), 1)
    ticks = [int(t) for t in log_ticks(max(lo, 1), hi)]
    if len(ticks) < 2:
        ticks = (list(range(lo, hi + 1)) if hi - lo + 1 <= MAX_WHOLE_TICKS
                 else sorted({lo, *ticks, hi}))
    return alt.Axis(values=ticks, format=",d", tickMinStep=0, **kw)


@checked_keywords(also=lambda: _keywords_of(alt.Axis))
def rank_y(field: str, L: int, title: str = "rank (1 = best)", **axis) -> alt.Y:
    """A y channel of ranks 1..``L``: 1 at the top, one tick per rank, each on its row.

    The domain is exactly the rank range with half a row of padding at each end, so the
    first and last lines are not drawn on the frame. Labels are not flush-shifted
    (Streamlit's theme moves the end labels inwards, off their lines, where they overlap
    their neighbours) and never thinned.
    """
    L = max(int(L), 2)
    return alt.Y(
        f"{field}:Q",
        title=title,
        scale=alt.Scale(domain=[1, L], reverse=True, nice=False, zero=False,
                        padding=ROW_PX / 2),
        axis=alt.Axis(values=list(range(1, L + 1)), format="d", tickMinStep=0,
                      labelFlush=False, labelOverlap=False, **axis),
    )

#: Categorical palette with clearly distinct hues (the default theme's blues look alike).
PALETTE = "tableau10"

#: Colours of up to 20 series (models, methods) on one chart: Vega's "tableau20" with its
#: ten strong hues first and their light partners after, so series 1 and 11 (rarely
#: neighbours) share a hue, not series 1 and 2. Up to 10 series use :data:`PALETTE`.
SERIES_COLOURS = (
    "#4c78a8", "#f58518", "#54a24b", "#b79a20", "#439894",
    "#e45756", "#79706e", "#d67195", "#b279a2", "#9e765f",
    "#9ecae9", "#ffbf79", "#88d27a", "#f2cf5b", "#83bcb6",
    "#ff9d98", "#bab0ac", "#fcbfd2", "#d6a5c9", "#d8b5a5",
)  # fmt: skip
#: Vega's "tableau10" (:data:`PALETTE`) as colours, for charts of at most ten series.
_TABLEAU10 = (
    "#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b",
    "#eeca3b", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac",
)  # fmt: skip
#: Stroke dashes that tell apart series beyond the colours: the 21st to 40th series are
#: dashed, the 41st to 60th dotted, and so on (solid for the first 20).
SERIES_DASHES = ((1, 0), (6, 3), (1, 3), (8, 3, 2, 3), (12, 3, 2, 3, 2, 3))
#: Colour of the series a chart does not highlight (``series_encodings(highlight=...)``):
#: a light grey, behind the coloured lines.
OTHER_COLOUR = "#b4b4b4"


@checked_keywords
def series_styles(n: int) -> tuple[list[str], list[list[int]]]:
    """Colour and stroke dash of each of ``n`` series: distinct colours for up to 20, then
    a dash per block of 20, so no two of up to 100 series share both.

    Example
    -------
    >>> colours, dashes = sc.charts.series_styles(22)
    >>> colours[0] == colours[20], dashes[0] == dashes[20]
    (True, False)
    """
    palette = _TABLEAU10 if n <= len(_TABLEAU10) else SERIES_COLOURS
    k = len(palette)
    colours = [palette[i % k] for i in range(n)]
    dashes = [list(SERIES_DASHES[(i // k) % len(SERIES_DASHES)]) for i in range(n)]
    return colours, dashes


@checked_keywords
def series_encodings(field: str, domain: str | Sequence[str], legend: alt.Legend | None = None,
                     title: str | None = None, dash: bool = True,
                     highlight: int | None = None) -> dict:
    """Encodings that tell apart the lines of one series each (a model, a method): a
    ``color`` of :func:`series_styles` and, beyond 20 series (``dash=True``), a
    ``strokeDash`` in the same legend, so each line is identifiable from the legend.

    ``highlight=n``: only the first ``n`` series of ``domain`` get colours (distinct), the
    others :data:`OTHER_COLOUR` (no dashes): for a chart whose lines would otherwise be too
    many to tell apart, the caller draws the others thin and names them in a tooltip.

    Use ``chart.encode(**series_encodings(...))`` on the line layers; a band or point layer
    takes ``color`` only. ``legend=None`` draws none (the lines are labelled directly).

    Example
    -------
    >>> enc = sc.charts.series_encodings("model", ["a", "b", "c"], highlight=1)
    >>> enc["color"].to_dict()["scale"]["range"][1:] == [sc.charts.OTHER_COLOUR] * 2
    True
    >>> "strokeDash" in enc
    False
    """
    domain = list(dict.fromkeys(as_names(domain, "domain", example="bayes,avg")))  # "a,b" too
    if highlight is not None:
        n = min(max(int(highlight), 0), len(domain))
        colours = series_styles(n)[0] + [OTHER_COLOUR] * (len(domain) - n)
        dashes, dash = [], False
    else:
        colours, dashes = series_styles(len(domain))
    kw = {"legend": legend} if legend is not None else {"legend": None}
    if title is not None:
        kw["title"] = title
    out = {"color": alt.Color(f"{field}:N", sort=domain,
                              scale=alt.Scale(domain=domain, range=colours), **kw)}
    if dash and len(domain) > len(SERIES_COLOURS):
        out["strokeDash"] = alt.StrokeDash(f"{field}:N", sort=domain,
                                           scale=alt.Scale(domain=domain, range=dashes), **kw)
    return out


#: Widest line of a name in a legend that lists models: a longer name is wrapped onto more
#: lines (:func:`name_lines`), never cut with "…" (the Pass curves' legend cut 60-70
#: character names at 200 px). One entry of it and its symbol fit the narrowest page column
#: (~440 px, an 800 px window with the sidebar open).
NAME_LINE_PX = 360
#: Width of a character in a legend label under Streamlit's theme (14 px type), per column
#: of :func:`~scorio_core.formatting.display_width` (a wide character two, an accent none).
_NAME_CHAR_PX = 7.5
#: Narrowest page column a legend below a chart must fit (an 800 px window with the
#: sidebar open).
NARROW_COLUMN_PX = 440
_LEGEND_SYMBOL_PX = 40  # a legend entry's symbol, its padding and the column padding


@checked_keywords
def name_lines(name, line_px: float = NAME_LINE_PX) -> list[str]:
    """``name`` on lines of at most ``line_px`` (at :data:`_NAME_CHAR_PX` a column of
    :func:`~scorio_core.formatting.display_width`): broken after the last ``-``, ``_``,
    ``/``, ``.``, ``:`` or space that fits, else where the line is full. The lines joined
    give the name back.

    Example
    -------
    >>> sc.charts.name_lines("a-short-name")
    ['a-short-name']
    >>> sc.charts.name_lines("alpha-beta-gamma", line_px=80)
    ['alpha-', 'beta-gamma']
    """
    name, most = str(name), max(1, int(line_px // _NAME_CHAR_PX))
    lines, line, units, cut = [], "", 0, -1
    for ch in name:
        w = display_width(ch)
        while units + w > most and line:  # (twice only when a wide character follows)
            head, tail = (line[:cut + 1], line[cut + 1:]) if cut >= 0 else (line, "")
            lines.append(head)
            line, cut = tail, -1
            units = display_width(line)
        line += ch
        units += w
        if ch in "-_/.: " and len(line) > 1:
            cut = len(line) - 1
    return [*lines, line] if line or not lines else lines


def _legend_columns(names, most: int = 3) -> int:
    """Columns of a legend below a chart that lists ``names``: as many as fit
    :data:`NARROW_COLUMN_PX` with every name whole (on lines of :data:`NAME_LINE_PX` at
    most), at most ``most``.

    Example
    -------
    >>> from scorio_core.charts._common import _legend_columns
    >>> _legend_columns(["LLM_1", "LLM_11"]), _legend_columns(["gemini-1.5-pro-preview-0409"])
    (3, 1)
    """
    longest = max((display_width(str(m)) for m in names), default=0)
    per_column = min(longest * _NAME_CHAR_PX, NAME_LINE_PX) + _LEGEND_SYMBOL_PX
    return int(max(1, min(most, NARROW_COLUMN_PX // per_column)))


@checked_keywords(also=lambda: _keywords_of(alt.Legend))
def name_legend(names: str | Sequence[str], **kw) -> alt.Legend:
    """The legend of a chart that lists models (or other names): every name whole, one
    longer than :data:`NAME_LINE_PX` on more lines (:func:`name_lines`, through
    ``labelExpr``), no ``labelLimit``; below the chart (``orient="bottom"``) in as many
    columns as fit a narrow page column (:func:`_legend_columns`). ``kw`` are further
    :class:`altair.Legend` settings.

    Example
    -------
    >>> legend = sc.charts.name_legend(["a", "x" * 80]).to_dict()
    >>> legend["labelLimit"], legend["columns"], legend["labelExpr"].startswith('{"xxx')
    (0, 1, True)
    """
    names = as_names(names, "names", example="model a,model b")  # "a,b": two, not letters
    wrapped = {str(n): lines for n in dict.fromkeys(names)
               if len(lines := name_lines(n)) > 1}
    if wrapped:
        kw["labelExpr"] = f"{json.dumps(wrapped, ensure_ascii=False)}[datum.label] || datum.label"
    kw.setdefault("orient", "bottom")
    if kw["orient"] == "bottom":
        kw.setdefault("columns", _legend_columns(names))
    return alt.Legend(labelLimit=0, **kw)


def _luminance(rgb) -> float:
    c = np.asarray(rgb, dtype=float) / 255
    c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)], dtype=float)


@checked_keywords
def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours (1 to 21; 4.5 for small text).

    Example
    -------
    >>> round(sc.charts.contrast_ratio("#000000", "#ffffff"), 1)
    21.0
    """
    la, lb = sorted((_luminance(_rgb(a)), _luminance(_rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@checked_keywords
def readable_colour(colour: str, contrast: float = 4.5) -> str:
    """``colour`` darkened (same hue) until text in it has ``contrast`` against white
    (WCAG 2: 4.5 for small text); "#ffbf79" (light orange) becomes a legible brown-orange.

    Example
    -------
    >>> sc.charts.readable_colour("#4c78a8")  # already legible
    '#4c78a8'
    """
    rgb = _rgb(colour)
    scale = 1.0
    while 1.05 / (_luminance(rgb * scale) + 0.05) < contrast and scale > 0:
        scale -= 0.02
    return "#" + "".join(f"{int(round(v)):02x}" for v in rgb * max(scale, 0))


#: Text colours for numbers written on a coloured cell (:func:`text_colour_on`).
INK_DARK, INK_LIGHT = "#000000", "#ffffff"


@checked_keywords
def text_colour_on(fill: str) -> str:
    """Colour of text written on a cell of colour ``fill``: :data:`INK_DARK` or
    :data:`INK_LIGHT`, whichever contrasts more with it (:func:`contrast_ratio`; at least
    4.5 on any fill, e.g. every colour of viridis).

    Example
    -------
    >>> ink = sc.charts.text_colour_on
    >>> ink("#440154"), ink("#fde725")  # viridis: dark and light end
    ('#ffffff', '#000000')
    """
    dark, light = contrast_ratio(fill, INK_DARK), contrast_ratio(fill, INK_LIGHT)
    return INK_DARK if dark >= light else INK_LIGHT


#: Smallest type of a number written in a heatmap cell (10 px in 52 px cells was unreadable).
MIN_CELL_FONT = 11

#: The parameter a chart reads to know how it is drawn: true (its value in the chart) where
#: it is drawn live -- a page, a notebook -- and a pointer can hover it, false in a picture
#: (:func:`scorio_core.report.chart_svg` / ``chart_png`` set it so: the reports, the SVG and
#: PNG files). A line the chart writes itself can then offer a tooltip only where one shows.
LIVE = "live"
#: What a line a chart writes under itself looks like: a caption's type, not a title's.
NOTE_LINE = {"orient": "bottom", "anchor": "start", "fontSize": 12, "fontWeight": "normal",
             "color": "#808495", "offset": 12}


@checked_keywords
def live_param() -> alt.VariableParameter:
    """The chart's :data:`LIVE` parameter: true until a picture is drawn of it."""
    return alt.VariableParameter(name=LIVE, value=True)


@checked_keywords
def cell_font_size(cell: float) -> int:
    """Type size of a number such as "0.93" (or "−0.25") written in a square cell of
    ``cell`` px: about a third of the cell, so the number spans ~70% of its width, never
    below :data:`MIN_CELL_FONT` px (legible) nor above 16 px.

    Example
    -------
    >>> sc.charts.cell_font_size(52), sc.charts.cell_font_size(24)
    (16, 11)
    """
    return int(np.clip(round(cell * 0.3), MIN_CELL_FONT, 16))


#: Vega's "viridis" scheme at eleven even steps, 0 to 1 (:func:`viridis`).
_VIRIDIS = ("#440154", "#482475", "#414487", "#355f8d", "#2a788e", "#21918c", "#22a884",
            "#44bf70", "#7ad151", "#bddf26", "#fde725")


@checked_keywords
def viridis(t: Sequence[float] | np.ndarray | str) -> list[str]:
    """The colours of Vega's "viridis" scheme at positions ``t`` in [0, 1] (linear between
    eleven steps): what a ``scheme="viridis"`` colour scale paints, for choosing the text
    written on it (:func:`text_colour_on`).

    Example
    -------
    >>> sc.charts.viridis([0.0, 1.0])
    ['#440154', '#fde725']
    """
    stops = np.array([_rgb(c) for c in _VIRIDIS])
    x = np.clip(np.nan_to_num(np.asarray(_values(t, "t"), dtype=float), nan=0.0), 0, 1)
    grid = np.linspace(0, 1, len(_VIRIDIS))
    rgb = np.stack([np.interp(x, grid, stops[:, i]) for i in range(3)], axis=1)
    return ["#" + "".join(f"{int(round(v)):02x}" for v in row) for row in rgb]


@checked_keywords
def inline(df: pd.DataFrame) -> alt.InlineData:
    """``df`` as inline chart data that Altair's 5,000-row guard does not refuse.

    Grids such as the 77 × 77 method heatmap or the L × L pairwise matrix of 100
    models are legitimately larger; outside Streamlit (notebooks, reports) Altair
    would raise ``MaxRowsError`` on them.

    Built without Altair's construction-time schema check, which walks every record (3.5 s
    for the 20,000 cells of a 100-model question heatmap); the spec is still validated
    where it is written out (``to_dict()``, the report's SVG), at a fraction of that.
    """
    from altair.utils.schemapi import debug_mode

    with debug_mode(False):
        return _SharedData(values=df.to_dict(orient="records"))


class _SharedData(alt.InlineData):
    """Inline chart data that a copy of its chart shares instead of copying record by
    record. Altair deep-copies every layer and panel, data included, each time charts are
    layered or stacked (``alt.layer``, ``alt.vconcat``): a third of building the Pass@k
    curves went to copying their records (1.4-1.6x faster shared, the same specs:
    ``benchmarks/charts.py``). Nothing changes the records once a chart holds them."""

    def __deepcopy__(self, memo=None):
        return self


def _model_axis(**kw) -> alt.Axis:
    """Axis for model names: every label shown, centred on its row (no flush-shifting of
    the first/last label, which Streamlit's theme turns on)."""
    return alt.Axis(labelLimit=LABEL_LIMIT, labelFlush=False, labelOverlap=False, **kw)


def _rows(n_rows: int) -> alt.Step:
    """Height as a per-row step, so the plot area (not the whole figure) grows with
    the number of models and axis labels never get thinned out."""
    return alt.Step(ROW_PX if n_rows > 3 else 2 * ROW_PX)


def _per_question_scores(outcomes: Outcomes) -> np.ndarray:
    """Mean weighted score of each (model, question) over its trials: shape (L, M)."""
    return outcomes.weights[outcomes.R].mean(axis=-1)
