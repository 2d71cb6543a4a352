"""One self-contained HTML file: inline CSS and SVG, no script, no external reference.

Every name and title passes through :func:`escape`; a Content-Security-Policy
meta tag forbids loading anything, so the file renders the same offline; the
``@media print`` rules make the browser's "print to PDF" a clean document.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from .._validation import checked_keywords
from ..definitions import PRINTED_ROWS, TableView
from ..display import CELL_STYLE, column_legend, text_cell
from ..export import markup_names
from ..formatting import _prose_parts, format_columns, shape_text
from ..references import bibliography
from ._build import (
    Report,
    SectionResult,
    column_parts,
    empty_table_text,
    how_read,
    left_out_text,
    part_text,
    pooled_text,
    provenance_rows,
    readable,
    setting_text,
    settings_items,
)
from ._svg import chart_svg

__all__ = ["escape", "prose", "to_html", "MAX_ROWS"]

#: Longest table shown in full; longer ones show their first rows (exports hold all). A table
#: that can run longer has a view that chooses what to print (PRINTED_ROWS, the same number).
MAX_ROWS = PRINTED_ROWS

CSS = """
:root { --ink:#1f2328; --muted:#57606a; --line:#d0d7de; --accent:#3b5bdb; --warn:#9a6700; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
       sans-serif; color: var(--ink); margin: 0 auto; max-width: 1080px; padding: 24px 32px; }
h1 { font-size: 1.7em; margin: 0 0 4px; }
h2 { font-size: 1.35em; border-bottom: 2px solid var(--line); padding-bottom: 4px;
     margin-top: 2.2em; }
h3 { font-size: 1.05em; margin: 1.4em 0 .4em; }
.sub { color: var(--muted); margin: 0 0 16px; }
.banner { border-left: 5px solid var(--warn); background: #fff8c5; padding: 8px 12px;
          margin: 12px 0; }
.howto, .notice { background: #f6f8fa; border-left: 4px solid var(--accent); padding: 8px 12px; }
.caveats { color: #3d444d; }
.caveats li { margin: 2px 0; }
.error { border-left: 5px solid #cf222e; background: #ffebe9; padding: 8px 12px; }
nav ol { columns: 2; margin: 8px 0 0; }
nav a { color: var(--accent); text-decoration: none; }
figure { margin: 16px 0; break-inside: avoid; page-break-inside: avoid; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: .92em; margin-top: 4px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: .85em; margin: 6px 0 4px; }
th, td { border-bottom: 1px solid var(--line); padding: 3px 4px; text-align: right;
         white-space: nowrap; }
/* a cell sits at the top of its row (display.CELL_STYLE: a notebook's display too) */
td { """ + CELL_STYLE + """ }
/* a table wider than the column (the leaderboard's 18 columns beside long model names, a
   log's file paths) wraps its names and text cells, never a number, instead of hiding its
   last columns behind a scroll bar; one that fits keeps every cell on one line. A name or
   path may break after a '/' (<wbr>) or a '-'; a longer text (td.long) inside any word
   where its line has no other break, so no word of it holds the table past the column */
td.t { white-space: normal; }
td.long { overflow-wrap: anywhere; }
/* a header may break after an underscore (<wbr>), where the table is wider than the page */
th { background: #f6f8fa; position: sticky; top: 0; white-space: normal;
     vertical-align: bottom; }
.part { margin-bottom: 10px; }
td.t, th.t { text-align: left; }
/* a long text of words (an output, a rule) keeps a readable width in a crowded table */
td.prose { min-width: 14em; }
code { font-size: .92em; background: #f6f8fa; padding: 0 3px; border-radius: 3px; }
.note { color: var(--muted); font-size: .85em; }
/* a section's settings: short lines in as many columns as fit, none split over two */
.settings ul { columns: 3 17em; column-gap: 2em; margin: 2px 0 10px; padding-left: 1.2em; }
.settings ul.few { columns: 1; }
.settings li { break-inside: avoid; page-break-inside: avoid; }
dl.prov { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px;
          font-size: .9em; }
dl.prov dt { color: var(--muted); }
dl.prov dd { margin: 0; word-break: break-all; }
pre { background: #f6f8fa; padding: 8px; font-size: .8em; white-space: pre-wrap;
      word-break: break-all; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  @page { margin: 16mm 14mm; }
  nav { display: none; }
  h2 { break-before: page; page-break-before: always; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  .scroll { overflow: visible; }
  /* tables fit the page (one wider than WIDE_COLUMNS comes in parts, each repeating its
     key column): small type, and the columns sized by their content, where headers (after
     an underscore first) and text cells may wrap -- a number never does (a cell broken into
     "0.794 / 8" reads as two numbers); a part may go on over a page (its header row
     repeats there), never away from the line that says which part it is */
  table { font-size: 7pt; width: 100%; }
  th, td { padding: 2px 2px; }
  td { white-space: nowrap; }
  th, td.t { white-space: normal; overflow-wrap: break-word; }
  th { position: static; font-size: 6.5pt; }
  td.prose { min-width: 0; }
  tr, figure, .howto, .notice, .banner { break-inside: avoid; page-break-inside: avoid; }
  .part > .note { break-after: avoid; page-break-after: avoid; }
  a { color: inherit; text-decoration: none; }
}
"""

# Nothing may be fetched: no script, no remote style, font or image.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src 'none'"


@checked_keywords
def escape(value: Any) -> str:
    """HTML-escape any value's text, quotes included (safe in text and attribute values).

    Example
    -------
    >>> from scorio_core.report.html import escape
    >>> escape('<img src=x onerror=alert(1)> & "q"')
    '&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;'
    """
    return html.escape(str(value), quote=True)


def prose(text: Any, names: Iterable[str] = ()) -> str:
    """Our sentences (how to read, caveats, captions) as HTML: escaped, their Markdown
    ``code`` spans as ``<code>`` (not literal backticks), and the ``names`` from the data they
    quote (:func:`~scorio_core.export.markup_names`) as text, letter for letter -- a model
    named ``tick`s`` paired its backtick with one of ours and set a code span across the
    sentence. The sentence is read in one place with the Markdown report's
    (:func:`~scorio_core.formatting.md_prose`): a name found where it occurs whole, the
    longest first; one without a letter or digit (a model named with a lone backtick)
    where it stands alone.

    Example
    -------
    >>> from scorio_core.report.html import prose
    >>> prose("so `bayes_mu` is `score` pulled <50%")
    'so <code>bayes_mu</code> is <code>score</code> pulled &lt;50%'
    >>> prose("tick`s leads on `p_best`", ["tick`s"])
    'tick`s leads on <code>p_best</code>'
    """
    # the sentence read as md_prose reads it: only what each piece becomes differs
    return "".join(f"<code>{escape(p[1:-1])}</code>" if kind == "code" else escape(p)
                   for kind, p in _prose_parts(text, names))


def _header(name: str) -> str:
    """A column name that may break after its underscores (``minimax_<wbr>variant_<wbr>…``):
    a narrow number column keeps a readable header instead of one broken mid-word."""
    return escape(name).replace("_", "_<wbr>")


def _table(view: TableView | pd.DataFrame, name: str,
           columns: Mapping[str, str] | None = None, names: Sequence[str] = ()) -> str:
    """One table under its name: the rows the section shows (a view's, with its note), in
    parts when too wide for a page, the lines said under it and the legend of its columns
    (``columns``: their declaration, :meth:`~scorio_core.definitions.Analysis.column_help`;
    :func:`_legend`, as a result's own display prints it); ``names``: those from the data
    the lines may quote (:func:`prose`)."""
    df, notes = readable(view)
    said = "".join(f'<p class="note">{prose(n, names)}</p>' for n in notes)
    said += _legend(df.columns, columns or {}) if len(df) else ""
    if df.empty:  # a header with no rows reads as a rendering fault: say what it means
        return (f"<h3>{escape(name)}</h3>"
                + (said or f'<p class="note">{escape(empty_table_text(name))}</p>'))
    parts = column_parts(df)  # a table too wide for a page: parts that repeat its key column
    if len(parts) == 1:
        return f"<h3>{escape(name)}</h3>" + _grid(df) + said
    return f"<h3>{escape(name)}</h3>" + "".join(
        f'<div class="part"><p class="note">{escape(part_text(parts, i))}</p>{_grid(p)}</div>'
        for i, p in enumerate(parts)
    ) + said


def _legend(columns, declared: Mapping[str, str]) -> str:
    """The "Columns:" legend under a table (``""``: no column needs one): the lines of
    :func:`~scorio_core.display.column_legend`, the text a result's own display prints
    (:func:`~scorio_core.display.legend_html`), in the report's markup."""
    lines = column_legend(columns, declared)
    if not lines:
        return ""
    return ('<p class="note legend"><strong>Columns:</strong><br>' + "<br>".join(
        f"<code>{escape(c)}</code> {escape(m)}" for c, m in lines) + "</p>")


#: A path's or a provider's separator between two parts of a name (after escaping)
_SEPARATOR = re.compile(r"(?<=[\w.-])([/\\])(?=[\w.-])")


def _breakable(text: str) -> str:
    """A text cell, escaped, that may break after a ``/`` between two parts of a name
    (``<wbr>``): a file path (``helm/simple_mcqa/...json``) or a provider's model name
    (``meta-llama/Meta-Llama-...``) has no break a browser takes there otherwise, and held a
    table past the column. Text is otherwise as written (``</b>`` stays ``&lt;/b&gt;``).

    Example
    -------
    >>> from scorio_core.report.html import _breakable
    >>> _breakable("runs/a<b>.json"), _breakable("</b>")
    ('runs/<wbr>a&lt;b&gt;.json', '&lt;/b&gt;')
    """
    return _SEPARATOR.sub(r"\1<wbr>", escape(text))


def _grid(df: pd.DataFrame) -> str:
    # one format per column (scorio_core.formatting), chosen from all its rows: counts as
    # integers, the same decimals down a column, ∞ and — spelled out
    cols = format_columns(df, rows=MAX_ROWS)
    head = "".join(
        f"<th>{_header(c)}</th>" if fmt.numeric else f'<th class="t">{_header(c)}</th>'
        for c, fmt, _ in cols
    )
    rows = []
    for r in range(min(len(df), MAX_ROWS)):
        cells = []
        for _, fmt, texts in cols:
            text = texts[r]
            if fmt.numeric:  # never wraps (white-space: nowrap)
                cells.append(f"<td>{escape(text)}</td>")
                continue
            cls = "t"  # its line breaks kept (display.text_cell: a notebook's too)
            if len(text) > 40:  # long: may break inside a word; of words: a readable width
                cls += " long prose" if len(text.split()) > 1 else " long"
            cells.append(f'<td class="{cls}">{text_cell(text, _breakable)}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    note = ""
    if len(df) > MAX_ROWS:
        note = (
            f'<p class="note">First {MAX_ROWS} of {len(df)} rows; the CSV/JSON export of this '
            "analysis holds every row.</p>"
        )
    return (
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>{note}"
    )


_ID = re.compile(r'\bid="([^"]+)"')


def _unique_ids(svg: str, prefix: str) -> str:
    """Prefix the SVG's element ids (gradients, clip paths) and their ``url(#..)``/``#..``
    references: inlined side by side, two charts' ``gradient_0`` would otherwise collide."""
    ids = set(_ID.findall(svg))
    if not ids:
        return svg
    alt = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    svg = re.sub(rf'\bid="({alt})"', lambda m: f'id="{prefix}{m.group(1)}"', svg)
    svg = re.sub(rf"url\(#({alt})\)", lambda m: f"url(#{prefix}{m.group(1)})", svg)
    return re.sub(rf'href="#({alt})"', lambda m: f'href="#{prefix}{m.group(1)}"', svg)


def _figure(title: str, chart, caption: str, key: str, names: Sequence[str] = ()) -> str:
    try:
        svg = _unique_ids(chart_svg(chart, inline=True), f"{key}_")
    except Exception as exc:  # noqa: BLE001 -- one chart must not sink the whole report
        svg = f'<p class="error">This chart could not be rendered ({escape(exc)}).</p>'
    return (
        f"<figure><h3>{escape(title)}</h3>{svg}"
        f"<figcaption>{prose(caption, names)}</figcaption></figure>"
    )


def _section(i: int, s: SectionResult, names: Sequence[str] = ()) -> str:
    """Section ``i``; ``names``: those from the data its sentences may quote (:func:`prose`)."""
    a = s.analysis
    parts = [f'<section id="s{i}"><h2>{i}. {escape(a.title)}</h2>']
    how = a.how_to_read_for(s.params, s.result)  # a simulation's: the run's own values
    parts.append(f'<p class="howto"><strong>How to read this.</strong> {prose(how, names)}</p>')
    if s.error is not None:
        parts.append(f'<p class="error">Not computed for these data: {escape(s.error)}</p>')
        return "".join(parts) + "</section>"
    parts.append(_settings(s))
    if s.caveats:
        items = "".join(f"<li>{prose(c, names)}</li>" for c in s.caveats)
        parts.append(f'<div class="caveats"><strong>Caveats</strong><ul>{items}</ul></div>')
    parts += [
        _figure(c.title, c.chart, c.caption, f"s{i}c{j}", names) if c.empty is None else
        f'<figure><h3>{escape(c.title)}</h3><p class="note">{prose(c.empty, names)}</p></figure>'
        for j, c in enumerate(s.charts)
    ]
    if notice := a.notice_for(s.params, s.result):  # a simulation's lesson, as its page says
        parts.append('<p class="notice"><strong>What to notice.</strong> '
                     f"{prose(notice, names)}</p>")
    parts += [_table(view, name, a.column_help(name), names)
              for name, view in (s.shown or s.tables).items()]
    return "".join(parts) + "</section>"


def _settings(s: SectionResult) -> str:
    """The section's settings, one a line in columns (a run-on line of a dozen is hard to
    scan): each by its label, then its notebook name as code -- a reader may not be the
    notebook's (:func:`~._build.setting_text`, the line the Markdown report writes)."""
    items = [f"<li>{setting_text(i, escape, lambda name: f'<code>{escape(name)}</code>')}</li>"
             for i in settings_items(s)]
    few = ' class="few"' if len(items) <= 4 else ""  # a short list: whole lines
    return f'<div class="note settings">Settings<ul{few}>{"".join(items)}</ul></div>'


def _references() -> str:
    """The papers the sections cite by title (no links: the report is self-contained)."""
    items = "".join(  # the Markdown *title* as <em>title</em>
        "<li>" + re.sub(r"\*(.+?)\*", r"<em>\1</em>", escape(line)) + "</li>"
        for line in bibliography(urls=False)
    )
    return f'<section id="references"><h2>References</h2><ul>{items}</ul></section>'


def _provenance(prov: dict[str, Any]) -> str:
    dl = "".join(
        f"<dt>{escape(k)}</dt><dd>{'<br>'.join(escape(line) for line in lines)}</dd>"
        for k, lines in provenance_rows(prov)
    )
    full = escape(json.dumps(prov, indent=2, ensure_ascii=False, default=str))
    return (
        '<section id="provenance"><h2>Provenance</h2>'
        f'<dl class="prov">{dl}</dl>'
        "<h3>Full record (JSON), every setting included</h3>"
        f"<pre>{full}</pre></section>"
    )


def _how_read(report: Report) -> str:
    """How the logs were read (their import report); '' for data that are not logs."""
    part = how_read(report.data)
    if part is None:
        return ""
    names = markup_names(report.data)  # the sentences name files and models
    notes = "".join(f"<li>{prose(n, names)}</li>" for n in part.notes)
    return (
        '<section id="how-read"><h2>How the data were read</h2>'
        + "".join(f"<p>{prose(t, names)}</p>" for t in part.sentences)
        + _table(part.table, "files", names=names)
        + (f'<div class="caveats"><strong>Notes</strong><ul>{notes}</ul></div>' if notes else "")
        + "</section>"
    )


@checked_keywords
def to_html(report: Report) -> str:
    """The report as one self-contained HTML document (inline CSS and SVG charts).

    Example
    -------
    >>> from scorio_core.report.html import to_html
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.report import build_report
    >>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 4)), name="demo")
    >>> page = to_html(build_report(data, ["leaderboard"], title="A & B"))
    >>> "<title>A &amp; B</title>" in page, "<svg" in page, "://" in page
    (True, True, False)
    """
    d = report.data
    # our sentences quote names from the data: each read letter for letter ("tick`s" opened a
    # code span that ran to our next backtick), our own `code` kept
    names = markup_names(d)
    synthetic = ""
    if report.provenance["synthetic"]:
        synthetic = (
            '<p class="banner"><strong>Synthetic data — not real model outputs.</strong> '
            "Simulated outcomes for exploring and teaching the method; do not cite as "
            "results.</p>"
        )
    pooled = pooled_text(d)
    if pooled:
        synthetic += f"<p>{escape(pooled)}</p>"
    synthetic += "".join(f'<p class="note">{prose(t, names)}</p>' for t in left_out_text(report))
    toc = "".join(
        f'<li><a href="#s{i}">{escape(s.analysis.title)}</a></li>'
        for i, s in enumerate(report.sections, 1)
    )
    body = "".join(_section(i, s, names) for i, s in enumerate(report.sections, 1))
    read = _how_read(report)
    read_link = '<li><a href="#how-read">How the data were read</a></li>' if read else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(report.title)}</title><style>{CSS}</style></head><body>"
        f"<header><h1>{escape(report.title)}</h1>"
        f'<p class="sub">{escape(d.name)} · {shape_text(d.L, d.M, d.N)} · '
        f"made {escape(report.provenance['created_utc'])} with scorio-studio "
        f"{escape(report.provenance['versions'].get('scorio-studio', ''))}</p>{synthetic}"
        f'<nav><strong>Sections</strong><ol>{toc}<li><a href="#references">References</a></li>'
        f"{read_link}"
        '<li><a href="#provenance">Provenance</a></li>'
        "</ol></nav></header>"
        f"<main>{body}{_references()}{read}"
        f"{_provenance(report.provenance)}</main></body></html>\n"
    )
