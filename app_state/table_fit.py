"""How wide an app table draws, and the parts a table too wide for the page is shown in.

Streamlit's grid sizes a column to its header or its cells, whichever is wider; a table
wider than the main column scrolls sideways, and what lies past the edge (the Leaderboard's
``t_next`` and ``n_needed``, the Check table's ``power``) is cut without a mark. The pages
show such a table as the reports show a table too wide for a page
(:func:`scorio_core.display.column_parts`): parts one under another, each repeating the
columns that say whose row it is (``model``; ``better``/``next``), each part as wide as the
main column -- measured here, in pixels, without a browser.

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

from collections.abc import Mapping, Sequence

import pandas as pd

__all__ = ["MAIN_PX", "CELL_PAD_PX", "MIN_COLUMN_PX", "text_px", "column_px", "column_groups",
           "key_columns", "fitted_parts"]

#: The main column's width at a 1280 px window with the sidebar open (px, seen in Chromium):
#: what one table (or one part of a wide one) may take.
MAIN_PX = 800
#: The grid's padding around a cell's text (px: a column of ten digits is 86 px wide).
CELL_PAD_PX = 16
#: The narrowest column the grid draws (px).
MIN_COLUMN_PX = 50

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


def column_px(shown: pd.DataFrame, labels: Mapping[str, str] | None = None,
              widths: Mapping[str, int] | None = None) -> dict[str, int]:
    """Each column's width as the grid draws ``shown`` (numbers written in the core's one
    format per column, :func:`scorio_core.formatting.format_columns`; text as it is): its
    header (``labels`` where a column is shown under another name) or its widest cell, with
    the cell's padding, at least :data:`MIN_COLUMN_PX`; ``widths``: columns whose width a
    page sets."""
    from scorio_core.formatting import format_columns

    labels, widths = labels or {}, widths or {}
    out = {}
    for c, (name, _, cells) in zip(shown.columns, format_columns(shown), strict=True):
        if widths.get(c):
            out[c] = int(widths[c])
            continue
        widest = max([text_px(labels.get(c) or name)] + [text_px(x) for x in cells])
        out[c] = max(MIN_COLUMN_PX, int(round(widest + CELL_PAD_PX)))
    return out


#: Column-name endings that belong to the column before them: a score's ``se``, an
#: interval's ends, a posterior's spread (``bayes_mu``, ``bayes_sigma``, ``bayes_lo``...).
_WITH_BEFORE = ("se", "lo", "hi", "sd", "sigma")
#: Runs of columns read together wherever they stand side by side: the leaderboard's two
#: columns on the next model down (explained in one line under it).
_READ_TOGETHER = (("t_next", "n_needed"),)


def column_groups(columns: Sequence[str]) -> list[tuple[str, ...]]:
    """Runs of columns a part keeps together: a value and its ``se``/``lo``/``hi``
    (``score, se, lo, hi``; ``rank, rank_lo, rank_hi``; ``band_lo, band_hi``), the Pass@k
    columns (``pass@1, pass@8``) and ``t_next, n_needed``.

    Example
    -------
    >>> for g in column_groups(["model", "rank", "rank_lo", "rank_hi", "p_best", "score", "se",
    ...                         "lo", "hi", "pass@1", "pass@8", "t_next", "n_needed"]):
    ...     print(g)
    ('rank', 'rank_lo', 'rank_hi')
    ('score', 'se', 'lo', 'hi')
    ('pass@1', 'pass@8')
    ('t_next', 'n_needed')
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


#: Columns that name a row's models: every part repeats them.
_NAME_KEYS = ("model", "better", "next")


def key_columns(shown: pd.DataFrame) -> list[str]:
    """The columns every part repeats: the leading text columns (at most two: ``question``
    and its ``source``; a subset's ``attribute`` and name) and the model names of a row.

    Example
    -------
    >>> key_columns(pd.DataFrame({"attribute": ["s"], "subset": ["a"], "questions": [3],
    ...                           "model": ["m"], "score": [0.5]}))
    ['attribute', 'subset', 'model']
    """
    keys = []
    for c in shown.columns[:2]:
        if pd.api.types.is_numeric_dtype(shown[c]) or pd.api.types.is_bool_dtype(shown[c]):
            break
        keys.append(c)
    keys += [c for c in _NAME_KEYS if c in shown.columns and c not in keys]
    return keys or [shown.columns[0]]


def fitted_parts(shown: pd.DataFrame, labels: Mapping[str, str] | None = None,
                 widths: Mapping[str, int] | None = None, budget: int = MAIN_PX,
                 keys: Sequence[str] | None = None) -> list[list[str]]:
    """The columns of each part ``shown`` is drawn in: all of them when the table fits
    ``budget`` pixels, else the parts of :func:`scorio_core.display.column_parts` measured
    by :func:`column_px` -- each repeating :func:`key_columns` (or ``keys``), a value's
    ``se``/``lo``/``hi`` kept with it (:func:`column_groups`) -- every column in one part.

    Example
    -------
    >>> t = pd.DataFrame({"model": ["gemini-1.5-pro-preview-0409"]} | {
    ...     c: [0.5] for c in ["rank", "rank_lo", "rank_hi", "p_best", "score", "se", "lo",
    ...                        "hi", "pass@1", "pass@8", "t_next", "n_needed"]})
    >>> [p[-1] for p in fitted_parts(t, budget=800)]  # t_next and n_needed in the second
    ['pass@8', 'n_needed']
    """
    from scorio_core.display import column_parts

    px = column_px(shown, labels, widths)
    keys = list(keys) if keys is not None else key_columns(shown)
    parts = column_parts(shown, widths=px, budget=budget, keys=keys,
                         together=column_groups(list(shown.columns)))
    return [[str(c) for c in p.columns] for p in parts]
