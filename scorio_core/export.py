"""Exports of a :class:`~scorio_core.leaderboard.Leaderboard` as CSV, JSON and Markdown.

CSV cells that a spreadsheet would execute as a formula are neutralised
(``io.safe_csv_cell``); Markdown escapes table syntax; JSON is strict (no NaN).

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

import html
import json
import math

import numpy as np
import pandas as pd

from ._validation import json_safe
from .io import to_safe_csv
from .leaderboard import COLUMN_HELP, Leaderboard

__all__ = ["FORMATS", "export", "to_csv", "to_json", "to_markdown"]

FORMATS = ("csv", "json", "md")


def _rounded(df: pd.DataFrame, digits: int = 6) -> pd.DataFrame:
    out = df.copy()
    num = out.select_dtypes("number").columns
    out[num] = out[num].round(digits)
    return out


def to_csv(board: Leaderboard) -> str:
    """CSV of the table, formula-safe, with a constant ``scope`` column (the CSV has no header
    block to state it in)."""
    table = _rounded(board.table)
    table["scope"] = board.settings.get("scope", "questions")
    return to_safe_csv(table)


def to_json(board: Leaderboard) -> str:
    """JSON with ``settings``, ``columns`` (meaning of each column) and ``rows``.

    Non-finite numbers (e.g. ``n_needed`` for an exact tie) become ``null``.
    """
    rows = [
        {k: json_safe(v) for k, v in rec.items()}
        for rec in _rounded(board.table).to_dict(orient="records")
    ]
    cols = {c: COLUMN_HELP.get(c, "Pass@k: unbiased estimate" if c.startswith("pass@") else c)
            for c in board.table.columns}
    payload = {"settings": board.settings, "columns": cols, "rows": rows}
    if board.inference is not None and board.identified:  # P(rank = r) per model, table order
        rd = board.rank_distribution().round(6)
        payload["rank_distribution"] = {str(m): r.tolist() for m, r in zip(rd.index, rd.values,
                                                                           strict=True)}
    return json.dumps(payload, indent=2, allow_nan=False)


def _md_cell(v, whole: bool = False) -> str:
    if isinstance(v, float | np.floating):
        if not math.isfinite(float(v)):
            return "—" if math.isnan(float(v)) else "∞"
        return f"{float(v):.0f}" if whole else f"{float(v):.4f}"
    # HTML first: Markdown renderers pass raw HTML through, and dataset titles come from
    # file names and metadata. Then the characters that are Markdown table/inline syntax.
    s = html.escape(str(v), quote=False)
    for ch in "\\|`*[]":
        s = s.replace(ch, "\\" + ch)
    return s


def to_markdown(board: Leaderboard, title: str = "CI-aware leaderboard") -> str:
    """A Markdown table with a header that states the settings."""
    s = board.settings
    lines = [
        f"# {_md_cell(title)}",
        "",
        f"**{s.get('scope', 'questions')} scope** ({s.get('estimand', '')}), "
        f"{s['confidence']:.0%} intervals. `rank` = `rank_lo` = 1 + models that decidedly beat "
        f"this one (two-sided at {s['confidence']:.0%}, adjustment: {s.get('adjust')}); "
        f"`bayes_*` are the papers' Bayes@N (prior: {s['prior']}); `rank_chain` is their "
        f"adjacent rule of 000 §2.7.1 (z threshold {s['z_threshold']:.3f}). "
        f"Data shape (L, M, N) = {tuple(s['shape'])}.",
        "",
        *(f"> {_md_cell(n)}\n" for n in board.notes),
    ]
    cols = list(board.table.columns)
    lines.append("| " + " | ".join(cols) + " |")
    lines.append("|" + "|".join("---" for _ in cols) + "|")
    whole = [c.startswith("rank") or c == "n_needed" for c in cols]
    for rec in board.table.itertuples(index=False):
        cells = (_md_cell(v, wh) for v, wh in zip(rec, whole, strict=True))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def export(board: Leaderboard, fmt: str, title: str = "CI-aware leaderboard") -> str:
    """Dispatch on ``fmt`` in :data:`FORMATS` (``title`` heads the Markdown)."""
    if fmt == "csv":
        return to_csv(board)
    if fmt == "json":
        return to_json(board)
    if fmt in ("md", "markdown"):
        return to_markdown(board, title)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}; got {fmt!r}")
