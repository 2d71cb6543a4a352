"""How wide an app table draws, and the parts a table too wide for the page is shown in.

Streamlit's grid sizes a column to its header or its cells, whichever is wider; a table
wider than the main column scrolls sideways, and what lies past the edge (the Leaderboard's
``t_next`` and ``trials_needed_papers``, the Check table's ``power``) is cut without a mark.
The pages show such a table as the reports show a table too wide for a page
(:func:`scorio_core.display.column_parts`): parts one under another, each repeating the
columns that say whose row it is (``model``; ``better``/``next``), each part as wide as the
main column -- measured here, in pixels, without a browser. A model name is drawn at most
:data:`NAME_MAX_PX` wide, a longer one cut and ending in "…" (:func:`cut_text`), and the
parts are measured with that width: a 70-character name split a nine-column table into four.

Example
-------
>>> import pandas as pd
>>> text_px("rank_lo"), text_px("gemini-1.5-pro-preview-0409")
(43.7, 169.2)
>>> t = pd.DataFrame({"model": ["gemini-1.5-pro-preview-0409"], "rank": [1], "score": [0.79]})
>>> column_px(t)
{'model': 185, 'rank': 50, 'score': 54}
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

__all__ = ["COLUMN_PX", "MAIN_PX", "NARROW_COLUMN_PX", "NARROW_PX", "CELL_PAD_PX",
           "MIN_COLUMN_PX", "NAME_COLUMNS", "NAME_MAX_PX", "NAME_MIN_PX", "MOST_PARTS",
           "EDIT_MARK_PX", "ROW_MARKERS_PX", "text_px", "cut_text",
           "name_columns", "name_px", "column_px", "column_groups", "key_columns", "fitted_parts",
           "narrowed_names", "TableFit", "fit_table", "editor_px", "TEXT_LINE_PX",
           "TEXT_MIN_PX", "WRAP_PAD_PX", "TextParts", "text_parts", "BUTTON_PX", "SELECT_PX",
           "COLUMNS_GAP_PX", "select_px", "middle_cut", "fitted_names", "distinct_cuts",
           "shown_names", "around_cut", "end_cut", "could_be", "table_names"]

#: The main column's content width at a 1280 px window with the sidebar open (px, seen in
#: Chromium: the window less the 300 px sidebar and the column's 80 px padding each side).
COLUMN_PX = 820
#: What one table (or one part of a wide one) may take in a 1280 px window: :data:`COLUMN_PX`
#: less a margin for the columns the grid sizes itself, whose widths here are estimates
#: (:func:`column_px`). Only where a caller means that window: the pages fit their tables
#: to a 1024 px one's, every width default here (:data:`NARROW_PX`).
MAIN_PX = COLUMN_PX - 20
#: The main column's content width at a 1024 px window, the narrowest the pages are laid out
#: for, with the sidebar open (px, seen in Chromium; 468 at 800 px).
NARROW_COLUMN_PX = 564
#: What one table or part may take where a page fits it to :data:`NARROW_COLUMN_PX` (the
#: server cannot know the window's width): the Planner's pairs, whose eleven columns ran
#: 220 px past the column at 1024 px, their ``questions_gap``, ``t`` and ``p_better`` cut at
#: its edge without a mark.
NARROW_PX = NARROW_COLUMN_PX - 20
#: The grid's padding around a cell's text (px: a column of ten digits is 86 px wide).
CELL_PAD_PX = 16
#: The narrowest column the grid draws (px).
MIN_COLUMN_PX = 50
#: Columns that hold model names: a row's ``model``, a pair's two (the Leaderboard's and the
#: Planner's ``better``/``next``, the Pair view's ``model_a``/``model_b``; ``a``/``b``), a
#: question's ``best`` and ``worst`` model -- where they hold text.
NAME_COLUMNS = ("model", "better", "next", "best", "worst", "model_a", "model_b", "a", "b")
#: Widest a model-name column is drawn (px: about 30 characters, "gemini-1.5-pro-preview-0409"
#: whole): a longer name is shown cut, ending in "…" (:func:`cut_text`).
NAME_MAX_PX = 240
#: Narrowest a model-name column is drawn to keep a table in :data:`MOST_PARTS` parts (px:
#: about 17 characters, "claude-3-opus-202…"; :func:`narrowed_names`).
NAME_MIN_PX = 140
#: Most parts a table is drawn in before the model names it repeats in each are cut narrower.
MOST_PARTS = 2

#: Advance widths (px) of the grid's 14 px type (Source Sans), measured in Chromium from
#: single-column tables; other characters take :data:`_REGULAR_PX`.
_CHAR_PX = {**dict.fromkeys("ijlI.,:;'!|", 3.3), **dict.fromkeys("ftr ()[]-", 4.6),
            **dict.fromkeys("0123456789_<>=+−", 7.0), "m": 11.6, "w": 10.0, "M": 12.0,
            "W": 13.0, "…": 9.0}
_REGULAR_PX, _UPPER_PX, _WIDE_PX = 7.2, 8.6, 14.0


def text_px(text: str) -> float:
    """Pixels ``text`` takes in the grid's 14 px type (a wide East Asian character: two
    ems' worth), to a tenth of a pixel."""
    import unicodedata

    total = 0.0
    for ch in str(text):
        if ch in _CHAR_PX:
            total += _CHAR_PX[ch]
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            total += _WIDE_PX
        else:
            total += _UPPER_PX if ch.isupper() else _REGULAR_PX
    return round(total, 1)


def cut_text(text: str, px: int) -> str:
    """``text`` as a cell ``px`` wide shows it whole: itself when it fits (with the cell's
    padding), else its longest start that fits with "…" after it (the grid, left to
    itself, clips a long text at the cell's edge without a mark).

    Example
    -------
    >>> cut_text("gpt-4", 240), cut_text("gemini-1.5-pro-preview-0409", 120)
    ('gpt-4', 'gemini-1.5-pro-…')
    >>> cut_text("gemini-1.5-pro-preview-0409", name_px(["gemini-1.5-pro-preview-0409"]))
    'gemini-1.5-pro-preview-0409'
    >>> cut_text("Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview-very-long-name", 240)
    'Modèle-Français-Überlang-Instruct-…'
    """
    text = str(text)
    room = px - CELL_PAD_PX
    if round(text_px(text)) <= room:  # as a column's width is measured: whole pixels
        return text
    room -= _CHAR_PX["…"]
    total, end = 0.0, 0
    for i, ch in enumerate(text):
        total += text_px(ch)
        if total > room:
            break
        end = i + 1
    return text[:end].rstrip() + "…"


#: What a button's label may take on one line in a 1024 px window's main column (px, in the
#: grid's 14 px type, which a button's label is drawn in): the column less the button's
#: padding, borders and icon (50 px in Chromium). A longer label wrapped in two to four lines,
#: a 70-character name broken mid-word ("…_MMMMM" / "M").
BUTTON_PX = NARROW_COLUMN_PX - 50
#: The gap between two of the main column's columns (``st.columns``' default, px).
COLUMNS_GAP_PX = 16


def select_px(share: float = 1.0, columns: int = 1) -> int:
    """What a select box's value may take (px of the grid's type) in a
    column holding ``share`` of a 1024 px window's main column split in ``columns`` columns
    (the gaps between them taken off first): ``select_px(1/2, 2)`` for one of two halves.

    Example
    -------
    >>> select_px(), select_px(1 / 2, 2)
    (449, 196)
    """
    box = (NARROW_COLUMN_PX - COLUMNS_GAP_PX * (columns - 1)) * share
    return int(box - 50) * 7 // 8


#: What a select box's value may take in a 1024 px window's main column (px, measured as the
#: grid's 14 px type): the box less its padding and arrow (50 px), its 16 px type drawing a
#: text 8/7 as wide. A longer value is clipped at the arrow without a mark ("… vs Another-Ext").
SELECT_PX = select_px()


def middle_cut(text: str, px: float) -> str:
    """``text`` within ``px`` pixels of the grid's type (:func:`text_px`): itself where it
    fits, else its start and its end with "…" between them -- a model name's family and its
    version or date, where they differ most (:func:`cut_text` keeps the start only).

    Example
    -------
    >>> middle_cut("gpt-4", 100)
    'gpt-4'
    >>> middle_cut("Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview-very-long-name", 240)
    'Modèle-Français-Ü…ew-very-long-name'
    """
    text = str(text)
    if text_px(text) <= px:
        return text
    room = max(px - _CHAR_PX["…"], 0.0)
    head, used = 0, 0.0
    while head < len(text) and used + text_px(text[head]) <= room / 2:
        used += text_px(text[head])
        head += 1
    tail = len(text)
    while tail > head and used + text_px(text[tail - 1]) <= room:
        used += text_px(text[tail - 1])
        tail -= 1
    return text[:head].rstrip() + "…" + text[tail:].lstrip()


def fitted_names(names: Sequence[str], px: float) -> list[str]:
    """``names`` (a pair's two models) within ``px`` pixels together: each whole where it
    fits its share, the longer cut in the middle (:func:`middle_cut`) to what the shorter
    leave -- a label or a select box's value that reads on one line.

    Example
    -------
    >>> fitted_names(["gpt-4", "Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview"], 260)
    ['gpt-4', 'Modèle-Français-….5-2026-01-preview']
    >>> fitted_names(["gpt-4", "claude-3-opus-20240229"], 260)
    ['gpt-4', 'claude-3-opus-20240229']
    """
    out = [str(n) for n in names]
    room = float(px)
    for k, i in enumerate(sorted(range(len(out)), key=lambda i: text_px(out[i]))):
        out[i] = middle_cut(out[i], room / (len(out) - k))
        room -= text_px(out[i])
    names = [str(n) for n in names]
    if any(could_be(x, m) for x, n in zip(out, names, strict=True) for m in names if m != n):
        apart = distinct_cuts(names, px / len(out))  # cut alike: each its share, apart
        out = [apart[n] for n in names]
    return out


def distinct_cuts(names: Sequence[str], px: float, cut=middle_cut) -> dict[str, str]:
    """Each of ``names`` within ``px`` pixels of the grid's type, no name cut so that it
    could be another of them (:func:`could_be`). A name that fits (in whole pixels, as
    :func:`cut_text` measures) stays whole; a longer one is cut by ``cut``
    (:func:`middle_cut`: its start and its end, "…" between them; :func:`end_cut`: its
    start). Names whose cuts could be another -- "claude-3-5-sonnet-20240620" and
    "…-20241022" both read "claude-3-5-sonn…" cut at their end, two Llamas that differ only
    in "8B" / "70B" alike cut in their middle -- are cut around where each first differs
    from those names instead (:func:`around_cut`: start, that stretch, end), and where even
    that could be another get more room, 8 px at a time, until none could.

    Example
    -------
    >>> a = "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo-2026-01-release"
    >>> b = "meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo-2026-01-release"
    >>> middle_cut(a, 196) == middle_cut(b, 196)
    True
    >>> cut = distinct_cuts([a, b, "gpt-4"], 196)
    >>> cut[a], cut[b], cut["gpt-4"]
    ('meta-lla…1-8B-Instruc…1-release', 'meta-lla…1-70B-Instru…1-release', 'gpt-4')
    >>> max(text_px(cut[a]), text_px(cut[b])) <= 196
    True
    """
    uniq = list(dict.fromkeys(str(n) for n in names if not pd.isna(n)))
    room = dict.fromkeys(uniq, float(px))
    out = {n: n if round(text_px(n)) <= px else cut(n, px) for n in uniq}
    apart: set[str] = set()  # names cut around their difference
    ordered = sorted(uniq)

    def starting(head: str) -> list[str]:  # the names that start with ``head``
        lo = bisect.bisect_left(ordered, head)
        hi = lo
        while hi < len(ordered) and ordered[hi].startswith(head):
            hi += 1
        return ordered[lo:hi]

    pending = [n for n in uniq if "…" in out[n]]  # a cut that could be another name
    while pending:  # a name's cut could be another only if it changed: check those again
        alike = {n: ms for n in pending
                 if (ms := [m for m in starting(out[n].split("…")[0])
                            if m != n and could_be(out[n], m)])}
        for n, ms in alike.items():
            if n in apart:  # cut around its difference already: more room
                room[n] += 8.0
            apart.add(n)
            at = max(_common_start(n, m) for m in ms)
            out[n] = n if round(text_px(n)) <= room[n] else around_cut(n, at, room[n])
        pending = [n for n in alike if "…" in out[n]]
    return out  # ends: a name given room enough reads whole, and names differ


def could_be(shown: str, name: str) -> bool:
    """Whether ``shown`` -- a name as cut (pieces of it in order, "…" for what is left out:
    :func:`middle_cut`, :func:`end_cut`, :func:`around_cut`) -- could be ``name``: a reader
    who sees ``shown`` cannot rule ``name`` out.

    Example
    -------
    >>> could_be("meta-llama/Met…o-2026-01-release",
    ...          "meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo-2026-01-release")
    True
    >>> could_be("claude-3-5-…240620", "claude-3-5-sonnet-20241022"), could_be("gpt-4", "gpt-4o")
    (False, False)
    """
    if "…" not in shown:
        return shown == name
    pieces = shown.split("…")
    start, stop = len(pieces[0]), len(name) - len(pieces[-1])
    if stop < start or not (name.startswith(pieces[0]) and name.endswith(pieces[-1])):
        return False
    for piece in pieces[1:-1]:
        k = name.find(piece, start, stop)
        if k < 0:
            return False
        start = k + len(piece)
    return True


def _common_start(a: str, b: str) -> int:
    """The number of leading characters ``a`` and ``b`` share."""
    k = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        k += 1
    return k


def around_cut(text: str, at: int, px: float) -> str:
    """``text`` within ``px`` pixels of the grid's type, the stretch from just before its
    character ``at`` kept (where it first differs from a name alike): its start, that
    stretch and its end, "…" for what is left out; :func:`middle_cut` where ``px`` leaves no
    room for that stretch.

    Example
    -------
    >>> around_cut("org/model-large-alpha-instruct-v1", 16, 130)
    'org/…e-alpha-i…ct-v1'
    """
    text = str(text)
    if text_px(text) <= px:
        return text
    w = [text_px(c) for c in text]
    budget = px - 2 * _CHAR_PX["…"]
    s = min(max(at - 2, 0), len(text) - 1)  # two characters before the difference
    h, head = 0, 0.0
    while h < s and head + w[h] <= budget / 3:
        head += w[h]
        h += 1
    e, tail = len(text), 0.0
    while e - 1 > s + 2 and tail + w[e - 1] <= budget / 3:
        tail += w[e - 1]
        e -= 1
    end, mid = s, 0.0
    while end < e and head + tail + mid + w[end] <= budget:
        mid += w[end]
        end += 1
    if end <= min(at, len(text) - 1):  # no room for the difference
        return middle_cut(text, px)
    left = budget - head - tail - mid + (_CHAR_PX["…"] if end == e else 0.0)
    while h < s and w[h] <= left:  # what the stretch left: the start's
        left -= w[h]
        h += 1
    return (text[:h] + ("…" if h < s else "") + text[s:end] + ("…" if end < e else "")
            + text[e:])


def end_cut(text: str, px: float) -> str:
    """``text`` within ``px`` pixels of the grid's type: itself where it fits, else its
    longest start that fits with "…" after it (:func:`cut_text`, given the text's room rather
    than the cell's)."""
    return cut_text(text, px + CELL_PAD_PX)


def shown_names(names: Sequence[str], px: int) -> dict[str, str]:
    """What a model-name cell ``px`` wide shows for each of ``names``: the name whole where it
    fits with the cell's padding, else its start with "…" (a model's family reads first),
    and where two names would read alike so, each cut around where it differs
    (:func:`distinct_cuts`; a name that must read apart from another may run wider than
    ``px``, and :func:`name_px` draws its column that wide).

    Example
    -------
    >>> shown_names(["claude-3-opus-20240229", "gpt-4"], 140)
    {'claude-3-opus-20240229': 'claude-3-opus-202…', 'gpt-4': 'gpt-4'}
    >>> shown_names(["claude-3-5-sonnet-20240620", "claude-3-5-sonnet-20241022"], 140)
    {'claude-3-5-sonnet-20240620': 'claude-3-5-…240620', \
'claude-3-5-sonnet-20241022': 'claude-3-5-…241022'}
    """
    return distinct_cuts(names, px - CELL_PAD_PX, cut=end_cut)


def table_names(shown: pd.DataFrame) -> list[str]:
    """Every model name in ``shown``'s model-name columns (:func:`name_columns`), once each:
    the names a cut one must read apart from, whichever column holds them.

    Example
    -------
    >>> table_names(pd.DataFrame({"better": ["a", "b"], "next": ["b", "c"], "gap": [1, 2]}))
    ['a', 'b', 'c']
    """
    seen: dict[str, None] = {}
    for c in name_columns(shown):
        seen.update(dict.fromkeys(str(x) for x in shown[c].dropna().unique()))
    return list(seen)


def name_columns(shown: pd.DataFrame) -> list[str]:
    """The columns of ``shown`` that hold model names (:data:`NAME_COLUMNS` holding text).

    Example
    -------
    >>> name_columns(pd.DataFrame({"model": ["m"], "a": [0.5], "best": ["m"]}))
    ['model', 'best']
    """
    return [c for c in shown.columns if c in NAME_COLUMNS
            and not pd.api.types.is_numeric_dtype(shown[c])
            and not pd.api.types.is_bool_dtype(shown[c])]


def name_px(names: Sequence[str] | pd.Series, header: str = "model",
            most: int = NAME_MAX_PX, among: Sequence[str] = ()) -> int:
    """Pixels that show the longest of ``names`` and the column's ``header`` whole, as the
    grid's type draws them (:func:`text_px`), at least :data:`MIN_COLUMN_PX` and at most
    ``most`` (:data:`NAME_MAX_PX`; a longer name is shown cut, its start first,
    :func:`shown_names`) -- or wider, as wide as the cut names need to read apart from one
    another and from ``among`` (the table's other model names: a pair's ``better`` and
    ``next`` read alike cut alike): the width a page sets, because the grid sizes a text
    column by its first rows only.

    Example
    -------
    >>> name_px(["gpt-4", "gemini-1.5-pro-preview-0409"]), name_px(["x" * 80])
    (185, 240)
    >>> name_px(["claude-3-5-sonnet-20240620", "claude-3-5-sonnet-20241022"], most=140)
    140
    """
    texts = [str(x) for x in names if not pd.isna(x)]
    widest = max(text_px(x) for x in [str(header), *texts])
    whole = max(round(widest) + CELL_PAD_PX, MIN_COLUMN_PX)
    if whole <= most:
        return int(whole)
    shown = shown_names([*texts, *among], most)
    apart = max(text_px(shown[x]) for x in texts) if texts else 0.0
    return int(max(most, round(apart) + CELL_PAD_PX))


def column_px(shown: pd.DataFrame, labels: Mapping[str, str] | None = None,
              widths: Mapping[str, int] | None = None) -> dict[str, int]:
    """Each column's width as the grid draws ``shown`` (numbers written in the core's one
    format per column, :func:`scorio_core.formatting.format_columns`; text as it is): its
    header (``labels`` where a column is shown under another name) or its widest cell, with
    the cell's padding, at least :data:`MIN_COLUMN_PX`; a model-name column
    (:func:`name_columns`) at most :data:`NAME_MAX_PX` (:func:`name_px`); ``widths``: columns
    whose width a page sets.

    Example
    -------
    >>> t = pd.DataFrame({"model": ["Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview"],
    ...                   "question": ["Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview"]})
    >>> column_px(t)
    {'model': 240, 'question': 356}
    """
    from scorio_core.formatting import format_columns

    labels, widths = labels or {}, widths or {}
    names = set(name_columns(shown))
    among = table_names(shown)
    out = {}
    for c, (name, _, cells) in zip(shown.columns, format_columns(shown), strict=True):
        if widths.get(c):
            out[c] = int(widths[c])
        elif c in names:
            out[c] = name_px(cells, labels.get(c) or name, among=among)
        else:
            widest = max([text_px(labels.get(c) or name)] + [text_px(x) for x in cells])
            out[c] = max(MIN_COLUMN_PX, int(round(widest + CELL_PAD_PX)))
    return out


#: Column-name endings that belong to the column before them: a score's ``se``, an
#: interval's ends, a posterior's spread (``bayes_mu``, ``bayes_sigma``, ``bayes_lo``...).
_WITH_BEFORE = ("se", "lo", "hi", "sd", "sigma")
#: Runs of columns read together wherever they stand side by side: the leaderboard's two
#: columns on the next model down (explained in one line under it).
_READ_TOGETHER = (("t_next", "trials_needed_papers"),)


def column_groups(columns: Sequence[str]) -> list[tuple[str, ...]]:
    """Runs of columns a part keeps together: a value and its ``se``/``lo``/``hi``
    (``score, se, lo, hi``; ``rank, rank_lo, rank_hi``; ``band_lo, band_hi``), the Pass@k
    columns (``pass@1, pass@8``) and ``t_next, trials_needed_papers``.

    Example
    -------
    >>> for g in column_groups(["model", "rank", "rank_lo", "rank_hi", "p_best", "score", "se",
    ...                         "lo", "hi", "pass@1", "pass@8", "t_next",
    ...                         "trials_needed_papers"]):
    ...     print(g)
    ('rank', 'rank_lo', 'rank_hi')
    ('score', 'se', 'lo', 'hi')
    ('pass@1', 'pass@8')
    ('t_next', 'trials_needed_papers')
    """
    groups: list[list[str]] = []
    prev = None
    for c in map(str, columns):
        base, _, end = c.rpartition("_")
        joins = prev is not None and (
            c in _WITH_BEFORE
            or (end in _WITH_BEFORE and base and (prev == base or prev.startswith(base + "_")))
            or ("@" in c and "@" in prev and c.split("@")[0] == prev.split("@")[0])
            or any((prev, c) == run[i:i + 2] for run in _READ_TOGETHER
                   for i in range(len(run) - 1)))
        if joins:
            if groups and groups[-1][-1] == prev:
                groups[-1].append(c)
            else:
                groups.append([prev, c])
        prev = c
    return [tuple(g) for g in groups]


#: Columns that name a row (its models, or its ranking method): every part repeats them.
_NAME_KEYS = ("model", "better", "next", "method")


def key_columns(shown: pd.DataFrame) -> list[str]:
    """The columns every part repeats: the leading text columns (at most two: ``question``
    and its ``source``; a subset's ``attribute`` and name) and the names of a row -- its
    models, or its ranking method (:data:`_NAME_KEYS`; the Method comparison's consensus
    table, led by its ``consensus_rank``, repeated that number alone).

    Example
    -------
    >>> key_columns(pd.DataFrame({"attribute": ["s"], "subset": ["a"], "questions": [3],
    ...                           "model": ["m"], "score": [0.5]}))
    ['attribute', 'subset', 'model']
    >>> key_columns(pd.DataFrame({"consensus_rank": [1], "method": ["avg"],
    ...                           "mean_tau_b": [0.9]}))
    ['method']
    """
    keys = []
    for c in shown.columns[:2]:
        if pd.api.types.is_numeric_dtype(shown[c]) or pd.api.types.is_bool_dtype(shown[c]):
            break
        keys.append(c)
    keys += [c for c in _NAME_KEYS if c in shown.columns and c not in keys]
    return keys or [shown.columns[0]]


def fitted_parts(shown: pd.DataFrame, labels: Mapping[str, str] | None = None,
                 widths: Mapping[str, int] | None = None, budget: int = NARROW_PX,
                 keys: Sequence[str] | None = None) -> list[list[str]]:
    """The columns of each part ``shown`` is drawn in: all of them when the table fits
    ``budget`` pixels (by default a 1024 px window's column, :data:`NARROW_PX`), else the
    parts of :func:`scorio_core.display.column_parts` measured by :func:`column_px` -- each
    repeating :func:`key_columns` (or ``keys``), a value's ``se``/``lo``/``hi`` kept with it
    (:func:`column_groups`) -- every column in one part, a part holding one column beside
    the keys only where no other part has room for it (:func:`_balanced`).

    Example
    -------
    >>> t = pd.DataFrame({"model": ["gemini-1.5-pro-preview-0409"]} | {
    ...     c: [0.5] for c in ["rank", "rank_lo", "rank_hi", "p_best", "score", "se", "lo",
    ...                        "hi", "pass@1", "pass@8", "t_next", "trials_needed_papers"]})
    >>> [p[-1] for p in fitted_parts(t, budget=800)]  # t_next and the rule in the second
    ['pass@8', 'trials_needed_papers']
    >>> [p[1:] for p in fitted_parts(t[["model", *t.columns[1:10]]])]  # pass@1 not alone
    [['rank', 'rank_lo', 'rank_hi', 'p_best'], ['score', 'se', 'lo', 'hi', 'pass@1']]
    """
    return _parts(shown, column_px(shown, labels, widths), budget, keys)


def _parts(shown: pd.DataFrame, px: Mapping[str, int], budget: int,
           keys: Sequence[str] | None) -> list[list[str]]:
    """:func:`fitted_parts` with each column's width measured already (``px``, as
    :func:`column_px` gives it): a caller that tries several widths measures the cells
    once, not once a try."""
    from scorio_core.display import column_parts

    keys = list(keys) if keys is not None else key_columns(shown)
    room = budget - sum(px[c] for c in keys if c in px)
    together = _within(column_groups(list(shown.columns)), px, room)
    parts = column_parts(shown, widths=px, budget=budget, keys=keys, together=together)
    parts = [[str(c) for c in p.columns] for p in parts]
    if len(parts) == 1:
        return parts
    return _balanced(parts, list(map(str, shown.columns)), keys, together, px, room)


def _balanced(parts: list[list[str]], order: list[str], keys: Sequence[str],
              together: Sequence[tuple[str, ...]], px: Mapping[str, int],
              room: float) -> list[list[str]]:
    """``parts`` (each its keys, then its columns) with no part holding one column beside
    the keys where the columns can be spread: such a column goes into the nearest part
    with room for it, in its declared place among that part's columns (one part fewer);
    else the columns are split anew, in order, into as many parts of as even a width as
    there are (the least sum of squared widths). At a 1024 px window's column the
    Leaderboard's ``pass@1`` took a part of its own after ``rank`` ... ``hi`` (and the Data
    page's import report of an Inspect log its ``harness``, in five parts where four hold
    it).

    Example
    -------
    >>> px = {"model": 60, "a": 100, "a_lo": 100, "b": 200, "c": 50, "d": 200}
    >>> _balanced([["model", "a", "a_lo", "b"], ["model", "c"]], ["model", "a", "a_lo", "b",
    ...           "c"], ["model"], [("a", "a_lo")], px, 420)  # split anew: a, then b and c
    [['model', 'a', 'a_lo'], ['model', 'b', 'c']]
    >>> _balanced([["model", "b", "c"], ["model", "d"], ["model", "a"]],
    ...           ["model", "b", "c", "d", "a"], ["model"], [], px, 300)  # d folded in beside a
    [['model', 'b', 'c'], ['model', 'd', 'a']]
    """
    keys = [k for k in order if k in set(keys)]
    cols = [c for c in order if c not in set(keys)]
    index = {c: i for i, c in enumerate(order)}

    def width(part) -> float:
        return sum(px.get(c, 0) for c in part)

    def lone(part) -> bool:
        return len(part) == 1

    units = _units(cols, together)
    parts = [[c for c in p if c not in set(keys)] for p in parts]
    while any(lone(p) for p in parts):
        moved = False
        for i in (i for i, p in enumerate(parts) if lone(p)):
            hosts = sorted((abs(j - i), j) for j, p in enumerate(parts)
                           if j != i and width(p) + width(parts[i]) <= room)
            if hosts:
                j = hosts[0][1]
                parts[j] = sorted(parts[j] + parts[i], key=index.get)
                del parts[i]
                moved = True
                break
        if not moved:
            break
    if any(lone(p) for p in parts):  # the columns in order, in parts as even as they go
        even = _even_split(units, len(parts), px, room)
        if even is not None and sum(map(lone, even)) < sum(map(lone, parts)):
            parts = even
    parts.sort(key=lambda p: index[p[0]])
    return [keys + p for p in parts]


def _units(cols: Sequence[str], together: Sequence[tuple[str, ...]]) -> list[list[str]]:
    """``cols`` in runs a part keeps whole, as :func:`scorio_core.display.column_parts` keeps
    them (:func:`~scorio_core.display._column_runs`)."""
    from scorio_core.display import _column_runs

    return [[cols[p] for p in run] for run in _column_runs(cols, together)]


def _even_split(units: list[list[str]], n: int, px: Mapping[str, int],
                room: float) -> list[list[str]] | None:
    """``units`` split, in order, into ``n`` parts each within ``room`` pixels (a unit wider
    than it alone), with the least sum of squared widths; ``None`` where none is."""
    w = [sum(px.get(c, 0) for c in u) for u in units]
    m = len(units)
    inf = float("inf")
    # cost[k][i]: the best split of the first i units into k parts; cut[k][i]: its last cut
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    cut = [[0] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for k in range(1, n + 1):
        for i in range(1, m + 1):
            for j in range(i - 1, -1, -1):
                part = sum(w[j:i])
                if part > room and i - j > 1:
                    break
                if cost[k - 1][j] + part * part < cost[k][i]:
                    cost[k][i], cut[k][i] = cost[k - 1][j] + part * part, j
    if cost[n][m] == inf:
        return None
    out, i = [], m
    for k in range(n, 0, -1):
        j = cut[k][i]
        out.append([c for u in units[j:i] for c in u])
        i = j
    return out[::-1]


def _within(groups: Sequence[tuple[str, ...]], px: Mapping[str, int],
            room: float) -> list[tuple[str, ...]]:
    """``groups`` with any group wider than ``room`` pixels cut into runs that fit it, in
    order (a run of one column is no group): kept whole, a part held it alone and ran past
    the column (eight Pass@k columns beside a model name took 657 px of a 1024 px window's
    544).

    Example
    -------
    >>> _within([("pass@1", "pass@2", "pass@4"), ("t_next", "trials_needed_papers")],
    ...         {"pass@1": 60, "pass@2": 60, "pass@4": 60, "t_next": 54,
    ...          "trials_needed_papers": 144}, 130)
    [('pass@1', 'pass@2')]
    """
    out: list[tuple[str, ...]] = []
    for g in groups:
        run: list[str] = []
        for c in g:
            if run and sum(px.get(x, 0) for x in run) + px.get(c, 0) > room:
                out.append(tuple(run))
                run = []
            run.append(c)
        out.append(tuple(run))
    return [g for g in out if len(g) > 1]


def narrowed_names(shown: pd.DataFrame, labels: Mapping[str, str] | None = None,
                   widths: Mapping[str, int] | None = None, budget: int = NARROW_PX,
                   keys: Sequence[str] | None = None) -> dict[str, int]:
    """Narrower widths for the model names of ``shown`` (:func:`name_columns`: those that
    every part repeats, :func:`key_columns`, and the others), where at their own width
    (:func:`column_px`, at most :data:`NAME_MAX_PX`) the table would come in more than
    :data:`MOST_PARTS` parts: the widest width, in steps of 20 px down to
    :data:`NAME_MIN_PX`, that draws it in the fewest parts; ``{}`` where narrower names
    would not save a part. A pair's two long names (the Planner's ``better`` and ``next``,
    240 px each) left 320 px of each part to its ten value columns: four parts, one holding
    ``trials_needed_papers`` alone; a question's ``best`` and ``worst`` model (185 px each)
    came in a part each beside its ``question`` and ``source``.

    Example
    -------
    >>> long = "Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview"
    >>> pairs = pd.DataFrame({"better": [long, "alpha-7b"], "next": ["alpha-7b", long]} | {
    ...     c: [1472.0583, 0.0] for c in ["gap", "trials_needed", "trials_gap",
    ...     "questions_needed", "questions_gap", "p_unsettled", "t", "p_better", "p_value",
    ...     "trials_needed_papers"]})
    >>> len(fitted_parts(pairs, budget=MAIN_PX)), narrowed_names(pairs, budget=MAIN_PX)
    (4, {'better': 160, 'next': 160})
    >>> len(fitted_parts(pairs, widths=narrowed_names(pairs, budget=MAIN_PX), budget=MAIN_PX))
    2
    >>> narrowed_names(pairs.iloc[:, :6], budget=MAIN_PX)  # in two parts as they are
    {}
    >>> q = pd.DataFrame({"question": ["q001"], "source": ["agieval-logiqa-en"], "mean": [0.5],
    ...                   "sd_models": [0.25], "disagreement": [0.5],
    ...                   "best": ["gemini-1.5-pro-preview-0409"],
    ...                   "worst": ["cohere-command-r-plus-0409"]})
    >>> len(fitted_parts(q, budget=544)), narrowed_names(q, budget=544)  # not repeated
    (3, {'best': 160, 'worst': 160})
    """
    return _narrowed(shown, column_px(shown, labels, widths), budget, keys)


def _narrowed(shown: pd.DataFrame, px: Mapping[str, int], budget: int,
              keys: Sequence[str] | None) -> dict[str, int]:
    """:func:`narrowed_names` with each column's width measured already (``px``): a
    narrower name changes its own column's width only."""
    keys = list(keys) if keys is not None else key_columns(shown)
    px = dict(px)
    names = [c for c in name_columns(shown) if px[c] > NAME_MIN_PX]
    among = table_names(shown)
    n = len(_parts(shown, px, budget, keys))
    if n <= MOST_PARTS or not names:
        return {}
    best: dict[str, int] = {}
    for cap in range(NAME_MAX_PX - 20, NAME_MIN_PX - 1, -20):
        narrow = {c: min(px[c], name_px(shown[c], "", cap, among)) for c in names}  # apart
        k = len(_parts(shown, px | narrow, budget, keys))
        if k < n:
            n, best = k, {c: w for c, w in narrow.items() if w < px[c]}
        if n <= MOST_PARTS:
            break
    return best


@dataclass(frozen=True)
class TableFit:
    """How a table is drawn in a page's column (:func:`fit_table`): the widths a page sets
    on its columns (model names narrowed, other texts as wide as measured), the text
    columns drawn narrower than their longest cell (cut with "…"), and each part's columns."""

    widths: dict[str, int]
    cut: list[str]
    parts: list[list[str]]


def fit_table(shown: pd.DataFrame, labels: Mapping[str, str] | None = None,
              widths: Mapping[str, int] | None = None, budget: int = NARROW_PX,
              keys: Sequence[str] | None = None) -> TableFit:
    """How ``shown`` is drawn within ``budget`` pixels, its cells measured once:

    - model names that every part repeats narrower where that keeps the table in
      :data:`MOST_PARTS` parts rather than more (:func:`narrowed_names`);
    - every other text column as wide as the parts are measured with (its widest cell, at
      most what a part leaves beside the columns it repeats): the grid sizes a text column
      by its first rows, and cut a status blank there ("no 2PL ‹") and the longer sources
      further down ("agieval-sat-mat");
    - the parts (:func:`fitted_parts`) at those widths.

    ``widths``: the columns whose width the page sets (kept).

    Example
    -------
    >>> t = pd.DataFrame({"model": ["a"], "file": ["logs/" + "x" * 120 + ".json"],
    ...                   "score": [0.5]})
    >>> column_px(t)["file"]
    940
    >>> fit = fit_table(t, keys=["model"])  # the file name cut to what a part leaves it
    >>> fit.widths["file"], fit.cut, fit.parts
    (492, ['file'], [['model', 'file'], ['model', 'score']])
    """
    widths = dict(widths or {})
    px = column_px(shown, labels, widths)
    keys = list(keys) if keys is not None else key_columns(shown)
    narrow = _narrowed(shown, px, budget, keys)
    px |= narrow
    room = budget - sum(px[c] for c in keys if c in px)
    text = {c: min(px[c], max(room, MIN_COLUMN_PX)) for c in shown.columns
            if c not in widths and c not in narrow
            and not pd.api.types.is_numeric_dtype(shown[c])
            and not pd.api.types.is_bool_dtype(shown[c])}
    return TableFit(narrow | text, [c for c, w in text.items() if w < px[c]],
                    _parts(shown, px | text, budget, keys))


#: Widest a text column is drawn on one line, whole, as a model name is (px): a longer text
#: (an output, a judge's reasoning, a list of trials) wraps within rows of four lines
#: (:func:`text_parts`).
TEXT_LINE_PX = NAME_MAX_PX
#: Narrowest a text that wraps is drawn (px: about 14 characters a line, four lines a row).
TEXT_MIN_PX = 120
#: What a text takes beyond its width on one line where the grid wraps its row's texts (px:
#: in rows of four lines "gemini-1.5-pro-preview-0409" broke before its last digit in the
#: 185 px that draw it whole on one line; whole at 189).
WRAP_PAD_PX = 8


@dataclass(frozen=True)
class TextParts:
    """How a table with long texts is drawn (:func:`text_parts`): the columns of each part,
    the width of every text column (model names, texts drawn whole, texts that wrap), and
    for each part whether a text in it wraps (its rows then take four lines)."""

    parts: list[list[str]]
    widths: dict[str, int]
    wraps: list[bool]


def text_parts(shown: pd.DataFrame, keys: Sequence[str] = (), budget: int = NARROW_PX,
               widths: Mapping[str, int] | None = None) -> TextParts:
    """``shown`` -- a table with texts beside its numbers: the Pair view's trials with their
    answers and outputs, its repeats with their lists of trials -- drawn within ``budget``
    pixels. A text no wider than :data:`TEXT_LINE_PX` (an answer, "(no answer recorded)", a
    category) is drawn whole on one line, as wide as its longest value; a longer one wraps
    within rows of four lines. Where every column fits, with each long text at least
    :data:`TEXT_MIN_PX` wide, the table is one part, its long texts sharing what the others
    leave (the shortest first: what one leaves, the next may take). Else the numbers and
    short texts come first, in their own part(s) (:func:`fitted_parts`), and the long texts
    after them, in parts of their own that share the budget beside the columns that say
    whose row it is (``keys``: the trial and the model; a model and its answer), each part
    starting with them. Fitted to a 1280 px window's column, the repeats' trial lists ran
    ``mean_score`` 235 px past a 1024 px window's column; shared out there, "(no answer
    recorded)" wrapped in a cell 112 px wide. ``widths``: columns whose width a page sets.

    Example
    -------
    >>> t = pd.DataFrame({"model": ["claude-3-opus-20240229", "cohere-command-r-plus"],
    ...                   "answer": ["C", "(no answer recorded)"], "repeats": [99, 55],
    ...                   "trials": [", ".join(map(str, range(11, 110))), "1, 2"],
    ...                   "mean_score": [1.0, 0.0]})
    >>> fit = text_parts(t, keys=["model", "answer"])
    >>> fit.parts, fit.wraps
    ([['model', 'answer', 'repeats', 'mean_score'], ['model', 'answer', 'trials']], [False, True])
    >>> {c: fit.widths[c] for c in ("model", "answer", "trials")}
    {'model': 169, 'answer': 153, 'trials': 222}
    >>> text_parts(t, keys=["model", "answer"], budget=800).parts  # room for the list beside
    [['model', 'answer', 'repeats', 'trials', 'mean_score']]
    """
    px = column_px(shown, widths=widths)
    names = set(name_columns(shown))
    texts = [c for c in shown.columns if c not in names and c not in (widths or {})
             and not pd.api.types.is_numeric_dtype(shown[c])
             and not pd.api.types.is_bool_dtype(shown[c])]
    long = sorted((c for c in texts if px[c] > TEXT_LINE_PX), key=px.get)
    rest = [c for c in shown.columns if c not in long]
    whole = [c for c in rest if c in names or c in texts]  # texts drawn whole, one line
    keys = [k for k in keys if k in rest]

    def shared(cols: list[str], room: int) -> dict[str, int]:
        out = {}
        for i, c in enumerate(cols):  # the shortest first: what one leaves, the next may take
            out[c] = max(min(px[c], room // (len(cols) - i)), MIN_COLUMN_PX)
            room -= out[c]
        return out

    def fit(parts: list[list[str]], wide: dict[str, int]) -> TextParts:
        wraps = [any(wide[c] < px[c] for c in p if c in wide) for p in parts]
        more = WRAP_PAD_PX if any(wraps) else 0  # a whole text in a row that wraps
        return TextParts(parts, {c: px[c] + more for c in whole} | wide, wraps)

    pad = WRAP_PAD_PX if long else 0
    left = budget - sum(px[c] + (pad if c in whole else 0) for c in rest)
    if left >= TEXT_MIN_PX * len(long) and (long or left >= 0):
        return fit([list(shown.columns)], shared(long, left))
    # the numbers and short texts first, the columns that say whose row it is leading
    firsts = fitted_parts(shown[rest], budget=budget, keys=keys or None,
                          widths={c: px[c] + (pad if c in whole else 0) for c in rest})
    parts = [keys + [c for c in p if c not in keys] for p in firsts]
    room = budget - sum(px[k] + WRAP_PAD_PX for k in keys)
    per = max(room // TEXT_MIN_PX, 1)  # long texts a part holds at the narrowest
    wide: dict[str, int] = {}
    for i in range(0, len(long), per):
        run = long[i:i + per]
        wide |= shared(run, room)
        parts.append(keys + run)
    return fit(parts, wide)


#: What the header of an editable column takes beside its text (px): the pencil mark
#: Streamlit's editor draws before it (a header "rule" took 66 px, "percentile" 104).
EDIT_MARK_PX = 28
#: The column of row markers of an editor that adds and deletes rows, with the grid's
#: borders (px).
ROW_MARKERS_PX = 36


def editor_px(shown: pd.DataFrame, labels: Mapping[str, str] | None = None,
              choices: Mapping[str, Sequence[str]] | None = None, shrink: Sequence[str] = (),
              budget: int = NARROW_COLUMN_PX, disabled: Sequence[str] = (),
              markers: bool = True) -> dict[str, int]:
    """Each column's width in an editor of ``shown`` (Streamlit's ``data_editor``; with
    ``markers``, the column of row markers of one that adds and deletes rows) that fits
    ``budget`` pixels: its header (``labels`` where a column is shown under another name)
    with the pencil mark (:data:`EDIT_MARK_PX`; none over the ``disabled`` columns, which
    are read, not edited), or its widest cell or choice (``choices``: a select column's
    options), with the cell's padding. Where they take more than ``budget`` less the row
    markers (:data:`ROW_MARKERS_PX`), the columns in ``shrink``, in order, give up what they
    take beyond their header until they fit (a cell there is then cut; a click on it shows
    it whole). Left to itself the editor sized a column by its first rows and header: the
    Rubric builder's rules ran 28 px past the main column at 1280 px, their ``among`` cut
    at "is_correct >=". The widths are set, not estimated, so the budget is the main
    column's whole width: a 1024 px window's by default (:data:`NARROW_COLUMN_PX`, as the
    tables' :data:`NARROW_PX`), a 1280 px one's :data:`COLUMN_PX`; where the column is
    wider, the editor stretches its columns to fill it.

    Example
    -------
    >>> t = pd.DataFrame({"rule": [1], "signal": ["response_chars"],
    ...                   "among": ["is_correct >= 0.5"]})
    >>> editor_px(t)
    {'rule': 66, 'signal': 111, 'among': 117}
    >>> editor_px(t, shrink=["among", "signal"], budget=300)  # 300 less 36 for the row markers
    {'rule': 66, 'signal': 111, 'among': 87}
    >>> editor_px(t, disabled=["rule"], markers=False)  # read only: no pencil mark
    {'rule': 50, 'signal': 111, 'among': 117}
    """
    labels, choices = labels or {}, choices or {}

    def cell(v) -> str:
        return f"{v:g}" if isinstance(v, float) else str(v)

    head, out = {}, {}
    for c in shown.columns:
        mark = 0 if c in disabled else EDIT_MARK_PX
        head[c] = round(text_px(labels.get(c) or c) + CELL_PAD_PX + mark)
        cells = [cell(v) for v in shown[c].tolist() if v is not None and v == v]
        cells += [str(v) for v in choices.get(c, ())]
        out[c] = max(head[c], *(round(text_px(x) + CELL_PAD_PX) for x in cells), MIN_COLUMN_PX)
    over = sum(out.values()) - (budget - (ROW_MARKERS_PX if markers else 0))
    for c in shrink:
        if over <= 0:
            break
        give = min(over, out[c] - head[c])
        out[c] -= give
        over -= give
    return out
