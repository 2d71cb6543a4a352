"""Small display widgets the pages share: table formats, the leaderboard's columns, notes."""

from __future__ import annotations

import hashlib
import inspect

import pandas as pd
import streamlit as st

from app_state.page_state import ASSURANCES, CONFIDENCES, percent
from app_state.table_fit import (
    NARROW_PX,
    cut_text,
    fit_table,
    name_columns,
    name_px,
    shown_names,
    table_names,
    text_parts,
)
from app_state.texts import (  # noqa: F401
    RULE_MET,
    app_text,
    app_widget,
    board_columns,
    board_display,
    core_cells,
    error_text,
    papers_rule_cells,
    planner_chance,
    printf_formats,
    spelled_columns,
)
from scorio_core import Outcomes, io
from scorio_core.display import column_meanings, legend_markdown, part_text, readable
from scorio_core.estimands import ADJUST_LABELS
from scorio_core.export import markup_names
from scorio_core.formatting import MISSING, md_prose
from scorio_core.leaderboard import COLUMN_HELP, PAIR_HELP, Leaderboard

#: Settings on a 0-1 scale that a page offers as a row of percentages.
_PERCENT = {"confidence": CONFIDENCES, "assurance": ASSURANCES}
#: How a page names the choices of a setting, where not as they are.
_CHOICE_NAMES = {"adjust": ADJUST_LABELS.get}

#: What a table -- or each part of one too wide for it -- may take (px), unless a page says
#: otherwise: the main column of a 1024 px window, the narrowest the pages are laid out for
#: (:data:`~app_state.table_fit.NARROW_PX`; the server cannot know the window's width).
#: Fitted by default to a 1280 px window's column (:data:`~app_state.table_fit.MAIN_PX`),
#: tables ran past a 1024 px window's (the Data page's preview by 229 px, the Check table by
#: 232, the Greedy ranks by 157) until some 25 calls passed this budget by hand.
TABLE_PX = NARROW_PX
#: What an expander's padding takes of the main column's width (px: 36 of the column's 820
#: at 1280 px in Chromium; a part measured to the column's width ran 15 px past the box).
BOX_PAD_PX = 36
#: What an expander leaves of :data:`TABLE_PX` for a table inside it (px).
BOX_PX = TABLE_PX - BOX_PAD_PX


def _declared(analysis: str, name: str) -> tuple[dict, str]:
    """What the declaration says of one setting for a widget (``params.widget``, its help in
    the app's words: :func:`~app_state.texts.app_widget`) and its
    widget key (``app_state.page_state.keys``); ``analysis`` may be a Simulator study."""
    from app_state.page_state import keys
    from scorio_core.definitions import SECTIONS

    return app_widget(SECTIONS[analysis].params, name), keys(analysis)[name]


def setting(where, analysis: str, name: str, kind: str = "", **kw):
    """The widget of one declared setting of ``analysis``, its value returned: label,
    help, choices and bounds from the declaration (``scorio_core.params``; the bounds a
    page offers), the key from ``app_state.page_state.FIELDS``. A setting with choices is
    a select box, a confidence or an assurance a row of percentages, a number a number
    input; ``kind`` names another Streamlit widget (``"segmented_control"``, ``"pills"``,
    ``"toggle"``...). ``kw``: what the data decide (``options``, ``max_value``, a ``help``
    saying why a widget is disabled) and the layout (``step``, ``format_func``...).
    ``analysis`` may be a Simulator study (``"coins"``...).

    Example: ``setting(c1, "check", "reps", step=100)``.
    """
    w, key = _declared(analysis, name)
    kw = {"key": key, "help": w["help"], **kw}
    if name in _PERCENT and "options" not in kw and not kind:
        kind, kw["options"] = "segmented_control", _PERCENT[name]
        # wrap: in a narrow column the row of percentages wraps rather than being cut off
        # their notes write a value as the buttons do: one rule, page_state.percent
        kw = {"required": True, "format_func": percent, "wrap": True, **kw}
    if name in _CHOICE_NAMES:
        kw.setdefault("format_func", _CHOICE_NAMES[name])
    options = kw.pop("options", w["options"])
    if options is not None:
        return getattr(where, kind or "selectbox")(w["label"], options, **kw)
    if kind and kind != "slider":
        return getattr(where, kind)(w["label"], **kw)
    number = int if w["integer"] else float
    lo, hi = (kw.pop(b, w[b]) for b in ("min_value", "max_value"))
    lo, hi = (None if v is None else number(v) for v in (lo, hi))
    return getattr(where, kind or "number_input")(w["label"], lo, hi, **kw)


def show_error(exc: Exception) -> None:
    """``exc``, raised by the settings or the run of a page's analysis or Simulator study,
    as an error box on the page. The settings it names are the widgets the page shows for
    them -- their declared labels, values as entered (:func:`app_state.texts.error_text`),
    settings each valid but inconsistent together with the values found -- not the Python
    keywords."""
    st.error(error_text(exc))


def prose(text) -> str:
    """A core sentence (a caption, a caveat, a view's note, a chart's title) as a page's
    Markdown shows it -- every ``st.caption``/``st.markdown``/``st.info``/``st.subheader``
    of a text that may quote names from the data goes through here: the settings a ``Said``
    names by their boxes (:func:`app_text`), and the names the data in view brought (models,
    questions, benchmarks, categories: :func:`scorio_core.export.markup_names`) shown letter
    for letter (:func:`scorio_core.formatting.md_prose`) -- a model named ``big*model*`` was
    set in italics, ``[beta](x)`` as a link, ``cost $5 $6`` as a formula; our own ``code``
    and emphasis kept."""
    return md_prose(app_text(text), _names_in_view(), html=False)


def _names_in_view() -> tuple[str, ...]:
    """The names with Markdown's characters of the dataset in the sidebar (none before one
    is loaded), once per loaded file."""
    from app_pages._sidebar import DATASET_KEY

    ds = st.session_state.get(DATASET_KEY)
    return () if ds is None else _markup_names(ds.data_token, ds.full)


@st.cache_data(max_entries=8)
def _markup_names(token: str, _full: Outcomes) -> tuple[str, ...]:
    return markup_names(_full)


def show_refusal(why: str) -> None:
    """An analysis's refusal of the data in view (``Analysis.refusal``) as a warning, as
    the app reads it (:func:`app_text`: the loader's options by their boxes, not Python's
    keywords or the command line's flags)."""
    st.warning(prose(why))


_STATEFUL_EXPANDER = "on_change" in inspect.signature(st.expander).parameters
#: The key of the "Copy code" expanders: open on one page, open on the next.
CODE_KEY = "copy_code"
#: Session key of the Method comparison's box that holds its ranks table (drawn while open).
RANKS_BOX = "ranks_box"


#: Whether each stateful expander (by key) was open when last drawn: what it opens with
#: after a page switch (:func:`lazy_expander`).
BOXES_OPEN = "_scorio_boxes_open"


def lazy_expander(label: str, key: str, sidebar: bool = False):
    """An expander whose contents run only while it is open, or ``None`` when it is closed.

    Streamlit's stateful expander (``on_change="rerun"``): a closed one sends nothing, so
    the browser loads no code for the widgets it holds (the syntax highlighter alone is
    1.5 MB of JavaScript) and the first page paints sooner. Opening it reruns the page.

    It stays open or closed across page switches: Streamlit drops an expander's state when
    the page changes (the browser does not send it back with the new page's run) and draws
    it closed again -- the sidebar's Session box closed under a user on the way to restore a
    session. Its last state is kept under :data:`BOXES_OPEN` and given back to it then.
    """
    where = st.sidebar if sidebar else st
    if not _STATEFUL_EXPANDER:  # an older Streamlit: a plain expander, contents always run
        return where.expander(label)
    kept = st.session_state.setdefault(BOXES_OPEN, {})
    if key not in st.session_state and kept.get(key):  # its state dropped by a page switch
        st.session_state[key] = True
    box = where.expander(label, key=key, on_change="rerun")
    kept[key] = bool(box.open)
    return box if box.open else None


def code_block(code: str, language: str | None = "python") -> None:
    """``code`` as every page shows code: long lines wrap -- unwrapped, a line past the box's
    edge was cut without a mark (the Stability page's chart call by 36 px at 1280 px); the
    copy button copies the lines as written."""
    st.code(code, language=language, wrap_lines=True)


def code_expander(label: str, code, key: str = CODE_KEY, notes=None) -> None:
    """A "Copy code" expander showing ``code()`` (called only while it is open) as
    :func:`code_block` does, then the lines ``notes()`` returns, if given; ``key``: a second
    one on the same page (the Leaderboard's curves)."""
    if (box := lazy_expander(label, key)) is not None:
        with box:
            code_block(code())
            for line in notes() if notes is not None else ():
                st.caption(line)


def core_table(table: pd.DataFrame, spelled=(), n_now: int | None = None,
               labels: dict | None = None, help: dict | None = None) -> tuple[pd.DataFrame, dict]:
    """``(shown, column_config)`` for :func:`show_table`: every cell as the CLI and the
    reports write it, one rule for every page. Number columns stay numbers (sorted by number,
    the values the core computed, a missing value reads "—") in the core's decimals; a
    column with a cell the core spells -- ``<0.001``, ∞, "met now" at or below ``n_now``
    (:func:`app_state.texts.spelled_columns`) -- and the ``spelled`` ones are right-aligned
    text in the core's words (:func:`app_state.texts.core_cells`). Model-name columns
    (:func:`app_state.table_fit.name_columns`) are as wide as their longest name, at most
    :data:`~app_state.table_fit.NAME_MAX_PX` (a longer name cut with "…", :func:`grid_data`);
    optional ``labels`` and ``help`` per column. (A table whose
    declared decimals make exact halves common -- 52.5 trials at 0 decimals -- is passed
    through :func:`scorio_core.formatting.printed_numbers` first: a browser rounds a half
    up, the core to even.)"""
    labels, help = labels or {}, help or {}
    spelled = list(dict.fromkeys([c for c in spelled if c in table.columns]
                                 + spelled_columns(table, n_now)))
    cfg = {c: st.column_config.NumberColumn(labels.get(c), format=f, help=help.get(c))
           for c, f in printf_formats(table).items() if c not in spelled}
    cfg |= {c: st.column_config.TextColumn(labels.get(c), help=help.get(c), alignment="right")
            for c in spelled}
    cfg |= {c: st.column_config.TextColumn(labels.get(c), help=help.get(c),
                                           width=name_px(table[c], labels.get(c) or c))
            for c in name_columns(table) if c not in spelled}
    # any other column (a text the core writes: a status, a verdict) keeps its help too
    cfg |= {c: st.column_config.Column(labels.get(c), help=help[c])
            for c in table.columns if c not in cfg and help.get(c)}
    return core_cells(table, spelled, n_now), cfg


def show_core(where, table: pd.DataFrame, spelled=(), n_now: int | None = None,
              labels: dict | None = None, help: dict | None = None,
              widths: dict | None = None, columns=None, legend: bool = True, **kw) -> None:
    """``table`` shown as every page shows a core table: its cells as the CLI writes them
    (:func:`core_table`), within the main column (:func:`show_parts`); ``widths``: a
    column's width (``"small"``, ``"large"``, pixels) where the page sets it. ``columns``:
    what the columns hold, as the table's definition declares them
    (:meth:`Analysis.column_help <scorio_core.definitions.Analysis.column_help>`): each
    header's help and, under the table unless ``legend`` is false (a caller that says lines
    under it first), the "Columns:" legend the notebook and the reports print
    (:func:`legend_lines`). ``kw``: what :func:`show_table` takes; a column given a
    ``column_config`` here is the page's to format (a share as a percentage) and left as it
    is, the others get the core's."""
    if columns:
        help = column_meanings(table.columns, columns) | (help or {})
    own = kw.pop("column_config", None) or {}
    mine = [c for c in own if c in table.columns]
    shown, cfg = core_table(table.drop(columns=mine), spelled, n_now, labels, help)
    shown = shown.assign(**{c: table[c] for c in mine})[list(table.columns)]
    for c, w in (widths or {}).items():
        if c in cfg:
            cfg[c] = {**cfg[c], "width": w}
        elif c in shown.columns:
            cfg[c] = st.column_config.Column(width=w)
    order = kw.get("column_order")
    show_parts(where, shown, cfg | own, **kw)
    if columns and legend:
        legend_lines(where, list(order) if order is not None else list(shown.columns), columns)


def show_split(shown: pd.DataFrame, columns, main, rest=(), lines=(), listed=(),
               more: tuple[str, str] = ("More columns", ""), boxed: bool = False,
               budget: int | None = None, **kw) -> None:
    """``shown`` as a table of its ``main`` columns and, where ``rest`` is not empty, its other
    columns (``rest``: those that say whose row it is first, repeated) in an expander titled
    ``more[0]`` with the columns it holds, opening with the Markdown ``more[1]`` -- as the
    Leaderboard keeps its papers' columns and the Planner its plans' power out of a table
    fitted to a 1024 px window (``budget``: :data:`TABLE_PX`, :data:`BOX_PX` when
    ``boxed``; the expander's parts fit that less its padding). ``boxed``: ``shown`` is
    already in an expander, where Streamlit allows no other: the rest follows under a line
    with that title instead. Under the main table each of ``lines`` is a caption (those in
    ``listed`` a Markdown list: sentences to act on, not small print; names from the data in
    them read as written, :func:`prose`), then the "Columns:" legend, as
    the reports print them; ``columns``: what the columns hold, as the table's definition
    declares them (each header's help too, :func:`show_core`). ``kw``: what
    :func:`show_core` takes."""
    if budget is None:
        budget = BOX_PX if boxed else TABLE_PX
    show_core(st, shown, hide_index=True, column_order=main, columns=columns, legend=False,
              budget=budget, **kw)
    for line in lines:  # they may quote names from the data (a plan's pairs, a view's)
        if line in listed:
            st.markdown(f"- {prose(line)}")
        else:
            st.caption(prose(line))
    legend_lines(st, main, columns)  # under the lines, as the reports print it
    if not rest:
        return
    names = [c for c in rest if c not in main]
    title = f"{more[0]} ({', '.join(names)})"
    with st.container() if boxed else st.expander(title):
        if boxed:
            st.markdown(f"**{title}**")
        if more[1]:
            st.markdown(more[1])
        # each part in the box repeats the columns that say whose row it is
        show_core(st, shown, hide_index=True, column_order=rest, columns=columns,
                  legend=False, budget=budget if boxed else budget - BOX_PAD_PX, **kw)
        legend_lines(st, names, columns)


def legend_lines(where, columns, declared) -> None:
    """The "Columns:" legend of a table's ``columns`` under it, a line per column whose
    name does not say what it holds -- the text the notebook's display and the reports
    print (:func:`scorio_core.display.legend_markdown`, from the table's ``declared``
    columns)."""
    if legend := legend_markdown(columns, declared):
        where.caption(legend)


def _cfg_of(cfg: dict, key: str) -> dict:
    """Each column's ``key`` (``label``, ``width``) set in a ``column_config``."""
    return {c: v[key] for c, v in cfg.items() if isinstance(v, dict) and v.get(key)}


#: Streamlit's named column widths, in pixels.
_NAMED_PX = {"small": 75, "medium": 200, "large": 400}


def show_parts(where, shown: pd.DataFrame, cfg: dict, keys=None, budget: int = TABLE_PX,
               **kw) -> None:
    """``shown`` with ``column_config`` ``cfg``, as one table when its columns fit
    ``budget`` (:data:`TABLE_PX`: a 1024 px window's main column), else in the parts that
    do, one under another, each repeating the columns that say whose row it is and each
    after a line saying which part it is
    (:func:`app_state.table_fit.fitted_parts`, the reports' :func:`column_parts
    <scorio_core.display.column_parts>` measured in pixels): a table wider than the page
    scrolled sideways, and its last columns (the Leaderboard's ``t_next``, the Check table's
    ``power``) were cut at the edge. Every part hands the browser the whole table (what a
    download or a test reads) and shows its own columns (``column_order``). ``kw``: what
    :func:`show_table` takes (a ``key`` numbers its parts); ``budget``: the pixels a part may
    take (:data:`BOX_PX` in an expander). Model names that every part repeats are drawn
    narrower (cut with "…") where that keeps the table in two parts rather than more; every
    other text column is drawn as wide as the parts were measured with
    (:func:`app_state.table_fit.fit_table`, which measures the cells once)."""
    widths = {c: _NAMED_PX.get(w, w) for c, w in _cfg_of(cfg, "width").items()}
    widths = {c: w for c, w in widths.items() if isinstance(w, int | float)}
    order = kw.pop("column_order", None)
    view = shown if order is None else shown[list(order)]
    fit = fit_table(view, _cfg_of(cfg, "label"), widths, budget, keys)
    cfg = cfg | {c: {**cfg.get(c, {}), "width": w} for c, w in fit.widths.items()}
    _draw_parts(where, shown, cfg, fit.parts, texts=fit.cut, **kw)


def _draw_parts(where, shown: pd.DataFrame, cfg: dict, parts: list[list[str]],
                row_heights=None, heights=None, texts=(), **kw) -> None:
    """``shown`` drawn as ``parts`` (the columns of each), one under another, each after a
    line saying which part it is (:func:`scorio_core.display.part_text`) and each as wide as
    its columns; every part hands the browser the whole table and shows its own columns
    (``column_order``). ``row_heights``, ``heights``: each part's, where they differ (a part
    whose texts wrap takes rows of four lines). ``texts``: text columns drawn cut with "…"
    where narrower than a cell (:func:`grid_data`). ``kw``: what :func:`show_table` takes (a
    ``key`` numbers the parts)."""
    key = kw.pop("key", None)
    if len(parts) > 1:  # each part as wide as its columns (stretched, its last one ran wide)
        kw["width"] = "content"
    data, cfg = grid_data(shown, cfg, texts)  # once for every part: the cut names' display
    heads = [shown.iloc[:0][p] for p in parts] if len(parts) > 1 else []  # the parts' columns
    for i, cols in enumerate(parts):
        if heads:
            where.caption(part_text(heads, i))
        own = {k: v[i] for k, v in (("row_height", row_heights), ("height", heights))
               if v is not None}
        show_table(where, data, column_config=cfg, column_order=cols,
                   key=key if key is None or i == 0 else f"{key}_part{i + 1}", **kw | own)


def missing_as_null(frame):
    """``frame`` with the core's "—" (:data:`scorio_core.formatting.MISSING`) in its text
    columns -- number columns spelled as text where they hold ∞, "<0.0001" or "met now"
    (:func:`core_table`) -- as missing cells, so the browser draws them with the same
    placeholder as a missing number: one grey "—" in a row, not a grey one beside a black
    one. Number columns are left as they are (their missing values are NaN already).

    Example
    -------
    >>> t = pd.DataFrame({"n": ["∞", "—", "12"], "x": [1.0, float("nan"), 2.0]})
    >>> missing_as_null(t)["n"].tolist(), missing_as_null(t)["x"].equals(t["x"])
    (['∞', None, '12'], True)
    """
    if not isinstance(frame, pd.DataFrame):
        return frame
    out = None
    for i in range(frame.shape[1]):
        col = frame.iloc[:, i]
        if pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
            continue
        dash = (col.astype(object) == MISSING).to_numpy(dtype=bool)
        if not dash.any():
            continue
        values = col.to_numpy(dtype=object, copy=True)
        values[dash] = None
        out = frame.copy() if out is None else out
        out.isetitem(i, pd.Series(values, index=frame.index, dtype=object))
    return frame if out is None else out


def show_table(where, frame, **kw):
    """``where.dataframe(frame, **kw)`` as every page shows a table: a missing number (NaN: a
    scope not identified, a pair no test decides, a 2PL fit that did not run) reads as the
    core's "—" (:data:`scorio_core.formatting.MISSING`, as in the CLI and the reports), not
    Streamlit's "None", and its column stays a number column, so clicking its header sorts
    by number. ``where``: ``st``, a column, a tab or an expander.

    Streamlit's ``placeholder`` is the one way that keeps both in Streamlit 1.67: a pandas
    ``Styler``'s ``na_rep`` still draws "None" for a missing number (the browser draws every
    missing cell with the placeholder), and text cells sort as text (10 before 2). The "—"
    of a column spelled as text (∞, "met now") is passed as a missing cell too
    (:func:`missing_as_null`), so both are drawn alike (the placeholder's grey). A model name
    wider than its column reads cut with "…" (:func:`grid_data`).
    """
    data, cfg = grid_data(frame, kw.pop("column_config", None))
    return where.dataframe(data, placeholder=MISSING, column_config=cfg, **kw)


#: The most cells of a table whose cut model names are marked with "…" (:func:`grid_data`):
#: the marks go to the browser as a pandas Styler's display values, which take about a second
#: per 100,000 cells to compute; in a larger table a long name is clipped at its column's edge.
MARKED_CELLS_MAX = 50_000
#: What a model-name column's header says when a name in it is cut.
CUT_HELP = 'A name cut with "…": click its cell twice to read it whole.'
#: What the header of another text column says when a text in it is cut (:func:`grid_data`).
CUT_TEXT_HELP = 'A text cut with "…": click its cell twice to read it whole.'


def grid_data(frame, cfg: dict | None = None, texts=()):
    """``(data, column_config)`` that :func:`show_table` hands the grid for ``frame``: the
    core's "—" as missing cells (:func:`missing_as_null`) and, where a model name is wider
    than its column (:func:`app_state.table_fit.name_columns` at the width ``cfg`` sets, at
    most :data:`~app_state.table_fit.NAME_MAX_PX`), a pandas Styler that shows that name cut
    with "…", and where two of the table's names would read alike so, each cut around where
    it differs (:func:`app_state.table_fit.shown_names`) -- left to itself, the grid clipped
    "Modèle-Français-Üb" at the column's edge without a mark, and both Claude 3.5 Sonnets
    read "claude-3-5-sonn…". The cell keeps the whole name: a
    second click on it shows it, a sort and a copy read it; the column's header says so
    (:data:`CUT_HELP`). A Styler's display values reach a number column only where it has no
    format of its own, so such a column gets the core's (:func:`printf_formats`). ``frame``
    already a Styler (a second part of one table, :func:`show_parts`) is passed as it is.
    ``texts``: other text columns drawn narrower than their longest cell, cut at their end
    (:func:`app_state.table_fit.cut_text`), their headers saying so
    (:data:`CUT_TEXT_HELP`): the Data page's import report clipped a log's file name and its
    notes at the column's edge without a mark."""
    if not isinstance(frame, pd.DataFrame):
        return frame, cfg
    frame = missing_as_null(frame)
    if (frame.size > MARKED_CELLS_MAX or not frame.index.is_unique
            or not frame.columns.is_unique):  # a Styler needs unique labels
        return frame, cfg
    widths = {c: _NAMED_PX.get(w, w) for c, w in _cfg_of(cfg or {}, "width").items()}
    names, every = name_columns(frame), table_names(frame)
    shown = {}  # each cut column's cells as drawn: names apart from every name in the table
    for c in [*names, *(t for t in texts if t in frame.columns)]:
        if isinstance(widths.get(c), int):
            cells = frame[c].dropna().astype(str).unique()
            drawn = (shown_names(every, widths[c]) if c in names else
                     {x: cut_text(x, widths[c]) for x in cells})
            drawn = {x: drawn[x] for x in cells}
            if any(d != x for x, d in drawn.items()):
                shown[c] = drawn
    if not shown:
        return frame, cfg
    cfg = dict(cfg or {})
    for c in shown:
        said, note = cfg[c].get("help"), CUT_HELP if c in names else CUT_TEXT_HELP
        cfg[c] = {**cfg[c], "help": f"{said}. {note}" if said else note}
    for c, f in printf_formats(frame).items():  # a number column without a format of its own
        own = cfg.get(c) or {}
        kind = own.get("type_config") or {}
        if kind.get("type", "number") == "number" and not kind.get("format"):
            cfg[c] = {**own, "type_config": {**kind, "type": "number", "format": f}}
    styler = frame.style
    for c, drawn in shown.items():
        styler = styler.format(lambda x, d=drawn: d.get(str(x), x), subset=[c])
    return styler, cfg


#: Row height of a fitted table when a text is longer than its cell's line: four lines
#: (above 4 rem, Streamlit's grid wraps a text cell within its row; a click shows it whole).
ROW_PX = 72


def fitted_table(t, keys=(), columns=None, legend: bool = True) -> None:
    """``t`` -- texts beside numbers, with a ``model`` column: the Pair page's trials with their
    answers and outputs, its repeats with their lists of trials -- drawn within the main
    column of a 1024 px window (:data:`TABLE_PX`; the server cannot know
    the window's width), as :func:`app_state.table_fit.text_parts` lays it out: ``model`` as
    wide as its longest name, numbers as the grid sizes them, a text up to a name's width
    ("(no answer recorded)", a category) whole on one line; a longer text (an output, the list
    of trials) wraps in rows of four lines, beside the others where it has room, else in a
    part after the numbers' that starts with ``keys``, the columns that say whose row it is.
    Fitted to a 1280 px window's column, the repeats' trial lists ran ``mean_score`` 235 px
    past a 1024 px window's column; the grid, left to itself, sized their answers to a letter
    ("(no answ"). ``columns`` and ``legend``: as :func:`show_core` takes them -- each header's
    help and the "Columns:" legend under the table from the table's declared columns
    (:meth:`Analysis.column_help <scorio_core.definitions.Analysis.column_help>`), the legend
    left to a caller that says lines under the table first where ``legend`` is false."""
    t, cfg = core_table(t)  # numbers as the CLI writes them, one rule for every page
    fit = text_parts(t, keys, TABLE_PX)
    cfg |= {x: {**cfg.get(x, st.column_config.TextColumn()), "width": w}
            for x, w in fit.widths.items()}
    # each header's help: what the table's definition declares its column holds
    for x, said in (column_meanings(t.columns, columns) if columns else {}).items():
        cfg[x] = {**cfg.get(x, st.column_config.Column()), "help": said}
    rows = [ROW_PX if wraps else 35 for wraps in fit.wraps]
    _draw_parts(st, t, cfg, fit.parts, hide_index=True,
                row_heights=[r if r == ROW_PX else None for r in rows],
                heights=[min(r * len(t) + 38, 10 * ROW_PX) for r in rows])
    if columns and legend:
        legend_lines(st, list(t.columns), columns)


def metric_row(metrics, gap: str = "medium") -> None:
    """``metrics`` -- ``(label, value, help)`` each -- in one row that wraps: each metric as
    wide as its label and value, the next on a line of its own where the column has no room
    left for it, so no label or value is cut. In four equal columns of a 1024 px window's
    main column (129 px each) "Mean disagreement" read "Mean disagree…" and the 2PL fit's
    "converged" read "conve…". ``gap``: between two metrics (``"small"``: five short ones in
    one row of a 1024 px window's column)."""
    row = st.container(horizontal=True, gap=gap)
    for label, value, help_ in metrics:
        row.metric(label, value, help=help_, width="content")


def table_height(n_rows: int, max_rows: int = 25) -> int:
    """Pixel height that shows ``n_rows`` rows (up to ``max_rows``) without scrolling."""
    return 35 * (min(n_rows, max_rows) + 1) + 3


def column_config(table: pd.DataFrame) -> dict:
    """``st.column_config`` entries with the core's one-line help per column."""
    cfg, num = {}, st.column_config.NumberColumn
    core = printf_formats(table)  # the core's one format per column (p_best: 3 decimals)
    model_px = name_px(table["model"])  # the longest model name whole, within limits
    for c in table.columns:
        if c == "model":
            cfg[c] = st.column_config.TextColumn(c, help=COLUMN_HELP[c], pinned=True,
                                                 width=model_px)
        elif c.startswith("rank"):
            cfg[c] = num(c, help=COLUMN_HELP.get(c), format="%d")
        elif c.startswith("pass@"):  # its template's words (pass@{k}), as the legend's
            help_ = column_meanings([c], COLUMN_HELP).get(c)
            cfg[c] = num(c, help=help_, format=core.get(c, "%.4f"))
        elif not pd.api.types.is_numeric_dtype(table[c]):  # board_display's text
            cfg[c] = st.column_config.TextColumn(c, help=COLUMN_HELP.get(c), alignment="right")
        else:  # the core's one format for the column
            cfg[c] = num(c, help=COLUMN_HELP.get(c), format=core.get(c, "%.4f"))
    return cfg


def show_board(table: pd.DataFrame, key: str | None = None, n_now: int | None = None) -> None:
    """A leaderboard as tables that fit the main column of a 1024 px window
    (:data:`TABLE_PX`; the server cannot know the window's width):
    the headline columns, in parts each repeating ``model`` (:func:`show_parts`), and in an
    expander today's test against the next model down, the papers' Bayes@N columns and other
    rank rules (:func:`board_columns`) -- at 1024 px the main table, in parts fitted to a
    1280 px window's column, ran past the column from ``lo`` on (``hi`` and Pass@k scrolled
    out of sight). ``n_now``: today's trials per question (the papers' rule reads "met now"
    there). Cells read as the CLI prints them (:func:`app_state.texts.board_display`:
    ``<0.001``, ∞); a column with no value in any row (N = 1, questions scope: ``se``,
    ``lo``, ``hi``, ``p_best``) left out with the line the CLI and the reports say
    (:func:`scorio_core.display.readable`); each table's columns explained under it, as the
    notebook and the reports do (:func:`legend_lines`)."""
    table, said = readable(table)
    shown = board_display(table, n_now)
    main, more = board_columns(shown)
    cfg = column_config(shown)
    # the whole table goes to the browser (notebook-equal data); column_order picks the view;
    # each part repeats model alone (t_next, text beside it, read as a second name column)
    show_parts(st, shown, cfg, keys=["model"], hide_index=True,
               height=table_height(len(shown)), column_order=main, key=key)
    for line in said:
        st.caption(line)
    legend_lines(st, main, COLUMN_HELP)  # the notebook's and the reports' "Columns:" lines
    if more:
        with st.expander(f"More columns: the test against the next model down, the papers' "
                         f"Bayes@N and two other rank rules ({', '.join(more[1:])})"):
            show_parts(st, shown, cfg, keys=["model"], hide_index=True,
                       height=table_height(len(shown)), column_order=more,
                       budget=BOX_PX)
            legend_lines(st, more, COLUMN_HELP)


def show_unresolved(board: Leaderboard, n_now: int) -> None:
    """A sentence and a table: which neighbours are tied, and the trials that would split them."""
    # ∞, "met now"; each column named and explained as the notebook and the reports do
    pairs, cfg = core_table(board.unresolved(), ["t", "trials_needed_papers"], n_now,
                            help=column_meanings(PAIR_HELP, PAIR_HELP))
    met = RULE_MET in pairs["trials_needed_papers"].tolist()
    conf = board.settings["confidence"]
    if len(board.models) < 2:  # no pair at all: the first line says there is nothing to compare
        return
    if pairs.empty:
        st.success(f"Every adjacent pair is separated at {percent(conf)}.")
        return
    st.markdown(
        f"**{len(pairs)} of {len(board.table) - 1} adjacent pairs are undecided** at "
        f"{percent(conf)} ({board.settings.get('scope', 'questions')} scope). The Planner gives "
        f"the trials or questions for {planner_chance()} of deciding each (now N = {n_now})"
        + (f"; `{RULE_MET}`: the papers' rule already calls the pair at N = {n_now}, the "
           "calibrated test does not, so its count says nothing about more trials" if met
           else "")
        + ":"
    )
    # fitted to a 1024 px window's column, as the board: at 1024 px its papers' rule ran
    # past the column's edge
    show_parts(st, pairs, cfg, hide_index=True, height=table_height(len(pairs)))
    legend_lines(st, list(pairs.columns), PAIR_HELP)


def synthetic_note(o: Outcomes) -> None:
    """A visible warning when the dataset's metadata marks it synthetic."""
    if o.metadata.get("synthetic"):
        st.warning(
            "**Synthetic data — not real model outputs.** Simulated outcomes (see the "
            "description) for exploring and teaching the method; do not cite as results.",
            icon="⚠️",
        )


@st.cache_data(max_entries=8)
def long_preview(token: str, _outcomes: Outcomes, rows: int = 200) -> pd.DataFrame:
    """First ``rows`` rows of the long table (one row per completion)."""
    return io.to_long_frame(_outcomes).head(rows).to_pandas()


def weights_key(weights) -> str:
    """A widget key for the weight editor that changes when its starting weights do."""
    return "weights_" + hashlib.sha256(repr(weights).encode()).hexdigest()[:8]


#: The pages' words for the spread-prior choices (app_state.spread.CHOICES).
_SPREAD_LABELS = {"flat": "flat (default)", "benchmarks": "learned from the other benchmarks",
                  "file": "a prior file (JSON)"}


def spread_prior_box(ds, analysis: str, scope: str) -> None:
    """The prior on the field's spread behind ``p_best`` and the Planner's chances: flat,
    learned from the file's other benchmarks, or an uploaded prior file. Writes the
    ``spread_prior`` setting of ``analysis`` (the prior file's path, or ``None``) to its
    key in ``st.session_state`` (``app_state.page_state.FIELDS``), whether the box is open
    or not: a prior learned from the other benchmarks follows the benchmark viewed."""
    from app_state import spread

    widget, key = _declared(analysis, "spread_prior")

    ss = st.session_state
    # the choice lives in a key of its own: the widget's state goes when its box is closed
    choice_key, widget_key = f"_{key}_choice", f"_{key}_choice_widget"
    others = spread.other_benchmarks(ds.full, ds.benchmark)
    options = [c for c in spread.CHOICES if c != "benchmarks" or others]
    if choice_key not in ss:  # a restored session or link names its file
        ss[choice_key] = "file" if ss.get(key) else "flat"
    if ss[choice_key] not in options:  # e.g. another benchmark viewed, too few others
        ss[choice_key], ss[key] = "flat", None
    choice = ss[choice_key]
    error = None
    try:
        if choice == "flat":
            ss[key] = None
        elif choice == "benchmarks":
            ss[key] = _learned(ds.token, ds.full, ds.benchmark)
    except Exception as exc:  # noqa: BLE001 -- said in the box, the page goes on flat
        ss[key], error = None, error_text(exc)
    # the box and its control titled by the declaration: a note naming the setting names them
    box = lazy_expander(f"{widget['label']} (p_best, the Planner's chances)", f"_{key}_box")
    if box is None:
        if error:  # closed: say why the numbers read the flat prior after all
            st.warning(f"Spread prior: {error}; the flat prior is used.")
        elif ss.get(key):  # closed: say which prior the numbers read
            st.caption("p_best and the Planner's chances read a learned spread prior "
                       f"({_SPREAD_LABELS[choice]}).")
        return
    with box:
        ss[widget_key] = choice
        st.segmented_control(
            widget["label"], options, key=widget_key, required=True,
            format_func=lambda c: (f"learned from the other {len(others)} benchmarks"
                                   if c == "benchmarks" else _SPREAD_LABELS[c]),
            help=widget["help"], on_change=_copy, args=(widget_key, choice_key))
        if choice == "file":
            up = st.file_uploader("Prior file (written by scorio-studio spread-prior or "
                                  "prior.save)", type=["json"], key=f"_{key}_upload")
            if up is not None:
                try:
                    ss[key] = spread.from_upload(up.getvalue(), up.name)
                except Exception as exc:  # noqa: BLE001 -- a bad file is said
                    ss[key], error = None, error_text(exc)
        if error:
            st.error(error)
        elif ss.get(key):
            prior = spread.load_spread_prior(ss[key])
            text = prior.describe(scope) if prior.has(scope) else repr(prior)
            st.caption(f"p_best and the Planner's chances read a prior {text} (file "
                       f"{ss[key]}). It is only as good as those fields are like this one.")
        else:
            st.caption("The flat prior: with two or three models or few questions the field's "
                       "own means cannot show how spread it is, and p_best runs high on close "
                       "fields (README, 'A prior on the field's spread').")


def _copy(source: str, target: str) -> None:
    st.session_state[target] = st.session_state[source]


@st.cache_data(max_entries=8, show_spinner="Learning the spread prior…")
def _learned(token: str, _full: Outcomes, benchmark: str) -> str:
    from app_state import spread

    return spread.learned_from_benchmarks(_full, benchmark)
