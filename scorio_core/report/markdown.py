"""The report as Markdown: the same sections, tables as pipe tables, charts as SVG files."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .._validation import checked_keywords
from ..definitions.provenance import export_filename
from ..display import legend_markdown
from ..export import _md_cell, markup_names
from ..formatting import markdown_table, md_prose, shape_text  # md_prose: every export's prose
from ..references import bibliography
from ._build import (
    Report,
    column_parts,
    empty_table_text,
    how_read,
    left_out_text,
    part_text,
    pooled_text,
    provenance_rows,
    readable,
    settings_text,
)
from ._svg import chart_svg
from .html import MAX_ROWS

if TYPE_CHECKING:
    import pandas as pd

    from ..definitions import TableView

__all__ = ["to_markdown"]


def _table(view: TableView | pd.DataFrame, name: str,
           columns: Mapping[str, str] | None = None, names: Sequence[str] = ()) -> list[str]:
    """One table: the rows the section shows (a view's, with its note), the lines said
    under it and the legend of its columns (``columns``: their declaration,
    :func:`~scorio_core.display.legend_markdown`); ``names``: those from the data the lines
    may quote (:func:`~scorio_core.export.markup_names`)."""
    df, notes = readable(view)
    said = [x for n in notes for x in ("", md_prose(n, names))]
    if len(df) and (legend := legend_markdown(df.columns, columns or {})):
        said += ["", legend]
    if df.empty:  # a header with no rows reads as a rendering fault: say what it means
        return said[1:] if said else [_md_cell(empty_table_text(name))]
    # one format per column, the same formatter as the HTML report and the CLI; a table too
    # wide to read (or print) comes in parts that repeat its key column, as in the HTML
    parts = column_parts(df)
    if len(parts) == 1:
        return markdown_table(df, max_rows=MAX_ROWS) + said
    out: list[str] = []
    for i, part in enumerate(parts):
        out += ([""] if i else []) + [f"*{_md_cell(part_text(parts, i))}*", ""]
        out += markdown_table(part, max_rows=MAX_ROWS)
    return out + said


def _how_read(report: Report) -> list[str]:
    """How the logs were read (their import report); nothing for data that are not logs."""
    part = how_read(report.data)
    if part is None:
        return []
    names = markup_names(report.data)
    out = ["## How the data were read", ""]
    out += [x for t in part.sentences for x in (md_prose(t, names), "")]
    out += ["### files", ""] + _table(part.table, "files", names=names) + [""]
    if part.notes:
        out += ["**Notes**", ""] + [f"- {md_prose(n, names)}" for n in part.notes] + [""]
    return out


def _provenance(prov: dict) -> list[str]:
    out = ["## Provenance", ""]
    for label, lines in provenance_rows(prov):
        if len(lines) == 1:
            out.append(f"- **{_md_cell(label)}**: {_md_cell(lines[0])}")
        else:
            out += [f"- **{_md_cell(label)}**:"] + [f"  - {_md_cell(x)}" for x in lines]
    return out + [""]


@checked_keywords
def to_markdown(report: Report, chart_dir: str | os.PathLike | None = None) -> str:
    """The report as Markdown.

    With ``chart_dir``, every chart is written there as an SVG file and linked by
    its path relative to the directory's parent (put the ``.md`` file there);
    without it, each chart is named with its caption only.

    Example
    -------
    >>> from scorio_core.report.markdown import to_markdown
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.report import build_report
    >>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 4)), name="demo")
    >>> to_markdown(build_report(data, ["leaderboard"], title="Demo")).splitlines()[0]
    '# Demo'
    """
    d, prov = report.data, report.provenance
    # our sentences quote names from the data: each read letter for letter ("big*model*" was
    # set in italics, "[beta](x)" as a link), our own `code` and emphasis kept
    names = markup_names(d)

    def prose(text: str) -> str:
        return md_prose(text, names)

    out = [
        f"# {_md_cell(report.title)}",
        "",
        f"{_md_cell(d.name)} · {shape_text(d.L, d.M, d.N)} · made "
        f"{prov['created_utc']} with scorio-studio {prov['versions'].get('scorio-studio', '')}",
        "",
    ]
    if prov["synthetic"]:
        out += ["> **Synthetic data — not real model outputs.** Do not cite as results.", ""]
    pooled = pooled_text(d)
    if pooled:
        out += [prose(pooled), ""]  # it names the benchmarks pooled
    out += [x for t in left_out_text(report) for x in (prose(t), "")]
    cdir = Path(chart_dir) if chart_dir is not None else None
    if cdir is not None:
        cdir.mkdir(parents=True, exist_ok=True)
    for i, s in enumerate(report.sections, 1):
        a = s.analysis
        out += [f"## {i}. {_md_cell(a.title)}", "",
                f"**How to read this.** "
                f"{prose(a.how_to_read_for(s.params, s.result))}", ""]
        if s.error is not None:
            out += [f"*Not computed for these data: {_md_cell(s.error)}*", ""]
            continue
        out += [f"Settings: {settings_text(s, _md_cell)}.", ""]  # labels, then `names`
        if s.caveats:
            # our sentences: their `code` spans stay code (names with markup never load)
            out += ["**Caveats**", ""] + [f"- {prose(c)}" for c in s.caveats] + [""]
        for j, c in enumerate(s.charts, 1):
            out += [f"### {_md_cell(c.title)}", ""]
            if c.empty is not None:  # nothing to draw: say why instead of a flat chart
                out += [prose(c.empty), ""]
                continue
            if cdir is not None:
                name = export_filename(d, a.id, "svg", f"chart{j}")
                (cdir / name).write_text(chart_svg(c.chart), encoding="utf-8")
                out += [f"![{_md_cell(c.title)}]({cdir.name}/{name})", ""]
            out += [f"*{prose(c.caption)}*", ""]
        if notice := a.notice_for(s.params, s.result):  # a simulation's lesson, as its page
            out += [f"**What to notice.** {prose(notice)}", ""]
        for name, view in (s.shown or s.tables).items():
            out += [f"### {_md_cell(name)}", ""] + _table(view, name, a.column_help(name),
                                                          names) + [""]
    text = json.dumps(prov, indent=2, ensure_ascii=False, default=str)
    # markup characters as JSON escapes: still the same JSON, inert in any Markdown renderer
    for ch, esc in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("`", "\\u0060")):
        text = text.replace(ch, esc)
    out += ["## References", ""] + [f"- {line}" for line in bibliography(urls=False)] + [""]
    out += _how_read(report) + _provenance(prov)
    out += ["### Full record (JSON), every setting included", "", "```json", text, "```", ""]
    return "\n".join(out)
