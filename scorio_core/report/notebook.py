"""The report as a Jupyter notebook (``nbformat``): public ``scorio_core`` calls only.

The first code cell loads the same file -- or the same folder or files of logs, with the
same loader options -- checking the sha256 of every file read when known, and selects the
same benchmark; each section is a Markdown cell (how to read it,
caveats) followed by the analysis's :attr:`~scorio_core.definitions.Analysis.to_code`
cell and one cell per chart. Run top to bottom on a fresh kernel, it reproduces
the report's numbers; each analysis cell ends by showing its table as the report prints
it (``sc.display.show``: ``—`` for a missing value, counts whole, one format per column),
while its variables hold the raw frames and results to compute with.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from .._validation import as_names, checked_keywords
from ..definitions.provenance import benchmark_words
from ..display import legend_markdown, readable
from ..export import _md_cell, markup_names  # the Markdown report's escaping of names
from ..formatting import md_prose, shape_text
from ..io import load_keywords
from ..io.options import LoadOptions
from ..outcomes import COMBINED
from ..references import bibliography
from ._build import Report, left_out_text, load_options_text, pooled_text, settings_text

__all__ = ["to_notebook", "load_code"]


@checked_keywords
def load_code(
    path: str | os.PathLike | Sequence[str | os.PathLike],
    *,
    benchmark: str | None = COMBINED,
    sha256: str | Sequence[str | None] | None = None,
    on_missing: str = "error",
    options: LoadOptions | None = None,
    comment: str = "",
) -> str:
    """The notebook's first code cell: load ``path`` (verify ``sha256``), select ``benchmark``
    (``None`` or ``"combined"``: all questions);
    ``options`` are further ``sc.load`` keywords (``columns``, ``weights``,
    ``scorer``), left out when ``None`` or empty.

    ``path`` is one file, or a list of files and folders (a list of one folder: that folder,
    read recursively as ``sc.load`` reads it; several: one a line). ``sha256`` is the file's
    digest, checked before it is loaded; for a list, the digests of every file the loader
    read (``sc.load`` records them in ``metadata["source_sha256_per_file"]``; a list, or one
    string of them separated by commas), checked once it has read them. ``comment``: a
    comment above the path, saying where the files must be (an upload of several files:
    the folder to save them in).

    ``options`` (the loader options the report was made with: ``where``, ``model_columns``,
    ``columns``, ``weights`` ...) are written as ``io.load`` keywords
    (:func:`~scorio_core.io.load_keywords_text`, as every cell and the report's provenance
    write them), so the notebook reads the same data.

    Example
    -------
    >>> from scorio_core.report.notebook import load_code
    >>> print(load_code("runs.csv", benchmark="AIME'25"))
    from pathlib import Path
    <BLANKLINE>
    import altair as alt
    <BLANKLINE>
    import scorio_core as sc
    <BLANKLINE>
    alt.data_transformers.disable_max_rows()  # a τ heatmap of many methods has > 5000 cells
    path = Path('runs.csv')
    data = sc.load(path).select("AIME'25")
    data
    >>> code = load_code(["logs/cpi"], sha256=["bb", "aa"],
    ...                  options=sc.io.LoadOptions(correct=["C"]))
    >>> print(code[code.index("path = "):])
    path = Path('logs/cpi')  # a folder: every file in it; relative to this notebook's folder
    expected_sha256 = [  # of every file read
        'aa',
        'bb',
    ]
    data = sc.load(path, correct=('C',))
    read = data.metadata.get('source_sha256_per_file') or {'': data.metadata.get('source_sha256')}
    if sorted(read.values()) != expected_sha256:
        raise ValueError(f'{path}: not the files this report was made from (sha256 differs)')
    data
    """
    several = isinstance(path, list | tuple)
    paths = [Path(p) for p in path] if several else [Path(path)]
    if several and isinstance(sha256, str):  # the digests at its commas, not its letters
        sha256 = as_names(sha256, "sha256", noun="digests", example="<digest a>,<digest b>")
    lines = ["from pathlib import Path", "", "import altair as alt", ""]
    if sha256 and not several:
        lines.insert(0, "import hashlib")

    def relative(p: Path) -> bool:
        return not p.is_absolute() and p.parent != Path(".")

    where = "  # relative to this notebook's folder" if any(map(relative, paths)) else ""
    if several and len(paths) == 1:
        shown = [f"path = Path({paths[0].as_posix()!r})"
                 f"  # a folder: every file in it{where.replace('  #', ';')}"]
    elif several:  # one file a line: an upload or a run may be many logs
        shown = [f"path = [{where}", *(f"    Path({p.as_posix()!r})," for p in paths), "]"]
    else:
        shown = [f"path = Path({paths[0].as_posix()!r}){where}"]
    lines += [
        "import scorio_core as sc",
        "",
        "alt.data_transformers.disable_max_rows()  # a τ heatmap of many methods has > 5000 cells",
        *(f"# {line}" for line in comment.splitlines()),
        *shown,
    ]
    digests = sorted(sha256) if several and sha256 and all(sha256) else None
    if digests:  # one per line: a folder may hold many logs
        lines += (["expected_sha256 = [  # of every file read"]
                  + [f"    {d!r}," for d in digests] + ["]"])
    if sha256 and not several:
        lines += [
            f"expected_sha256 = {sha256!r}",
            "if hashlib.sha256(path.read_bytes()).hexdigest() != expected_sha256:",
            "    raise ValueError(f'{path} is not the file this report was made from "
            "(sha256 differs)')",
        ]
    if on_missing != "error" and (options is None or options.on_missing == "error"):
        options = replace(options or LoadOptions(), on_missing=on_missing)
    kw = load_keywords(options)  # the one writer of loader options (cells, provenance)
    opts = "".join(f", {k}={v!r}" for k, v in kw.items())
    # a benchmark the loader chose (options.benchmark) is not selected a second time
    select = ("" if benchmark in (None, COMBINED, kw.get("benchmark"))
              else f".select({benchmark!r})")
    lines.append(f"data = sc.load(path{opts}){select}")
    if digests:  # the files read are known once read (a folder's, the files beside a log)
        lines += [
            "read = data.metadata.get('source_sha256_per_file') or "
            "{'': data.metadata.get('source_sha256')}",
            "if sorted(read.values()) != expected_sha256:",
            "    raise ValueError(f'{path}: not the files this report was made from "
            "(sha256 differs)')",
        ]
    lines.append("data")
    return "\n".join(lines)


def _code(text: str) -> str:
    """``text`` as one Markdown code span whatever backticks it holds (a benchmark named
    ``tick`s``): fenced by a run of backticks longer than any it holds, CommonMark's rule.

    Example
    -------
    >>> from scorio_core.report.notebook import _code
    >>> _code("math"), _code("tick`s"), _code("`q`")
    ('`math`', '``tick`s``', '`` `q` ``')
    """
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _shown_legend(s) -> str:
    """The "Columns:" legend of the tables a section's code cell ends by showing -- its main
    table and those shown with it (:class:`~scorio_core.display.Shown`), as the HTML
    report prints it under them (:func:`~scorio_core.display.legend_markdown`); ``""``
    where none needs one."""
    views = s.shown or s.tables
    if not views:
        return ""
    main = getattr(s.result, "main_table", None)
    names = [main if main in views else next(iter(views)),
             *(k for k in getattr(s.result, "also_shown", ()) if k in views)]
    out = []
    for name in names:
        df, _ = readable(views[name])
        if len(df) and (legend := legend_markdown(df.columns, s.analysis.column_help(name))):
            out.append(legend if len(names) == 1 else f"*{name}* · {legend}")
    return "\n\n".join(out)


@checked_keywords
def to_notebook(
    report: Report,
    data_path: str | os.PathLike | Sequence[str | os.PathLike],
    *,
    on_missing: str = "error",
    options: LoadOptions | None = None,
):
    """The report as an ``nbformat`` v4 notebook that recomputes it from ``data_path``.

    Parameters
    ----------
    report : Report
    data_path : path, or list of paths
        Where the notebook loads the data from: the file the report was made from, or a
        list of the files and folders it was made from (one folder: ``[folder]``), whose
        files' digests the notebook checks once it has read them.
    on_missing : str
        The loader option the data were read with (long tables).
    options : LoadOptions, optional
        Every loader option the data were read with (``where``, ``model_columns`` ...);
        the notebook's ``io.load`` call repeats them.

    Returns
    -------
    nbformat.NotebookNode
        Write it with ``nbformat.write(nb, "report.ipynb")``.
    """
    import nbformat
    from nbformat import v4

    prov = report.provenance
    # the Markdown cells quote names from the data: each reads letter for letter in Jupyter
    # ("big*model*" was set in italics, "cost $5 $6" as a formula), our own `code` and
    # emphasis kept, as the Markdown report writes them (the code cells, Python, hold them as is)
    names = markup_names(report.data)

    def prose(text: str) -> str:
        return md_prose(text, names)

    # the benchmark(s) as the report's provenance says them (none said where the questions
    # name none); the load cell selects the record's prov["benchmark"]
    bench = "" if prov["benchmark"] is None else f", benchmark {_code(benchmark_words(prov))}"
    intro = [
        f"# {_md_cell(report.title)}",
        "",
        f"Dataset **{_md_cell(report.data.name)}** ({shape_text(*prov['shape'].values())}{bench}). "
        f"Made {prov['created_utc']} with scorio-studio "
        f"{prov['versions'].get('scorio-studio', '')}; run the cells top to bottom to "
        "reproduce every number of the report.",
    ]
    if given := load_options_text(prov):  # the provenance's record, as the HTML report's
        intro += ["", f"Read with the loader options {_code(given)}, which the first cell's "
                  "`sc.load` repeats."]
    if prov["synthetic"]:
        intro += ["", "> **Synthetic data — not real model outputs.** Do not cite as results."]
    pooled = pooled_text(report.data, select="benchmark=NAME")
    if pooled:
        intro += ["", prose(pooled)]  # it names the benchmarks pooled
    intro += [x for t in left_out_text(report) for x in ("", prose(t))]
    inp = prov["input"] or {}
    sha256: str | list[str | None] | None
    if isinstance(data_path, list | tuple):  # folders or several files: every file read
        sha256 = list((inp.get("sha256_per_file") or {"": inp.get("sha256")}).values())
    else:
        # one file read with files beside it (lm-eval's results json, a sample store): that
        # file's own digest, listed under its name or, found in a folder, under folder/name
        same = [h for k, h in (inp.get("sha256_per_file") or {}).items()
                if k.replace("\\", "/").rsplit("/", 1)[-1] == Path(data_path).name]
        sha256 = inp.get("sha256") or (same[0] if len(same) == 1 else None)
    cells = [
        v4.new_markdown_cell("\n".join(intro)),
        v4.new_code_cell(
            load_code(
                data_path,
                benchmark=prov["benchmark"],
                sha256=sha256,
                on_missing=on_missing,
                options=options,
            )
        ),
    ]
    for i, s in enumerate(report.sections, 1):
        a = s.analysis
        md = [f"## {i}. {a.title}", "",
              f"**How to read this.** {prose(a.how_to_read_for(s.params, s.result))}"]
        if s.error is not None:
            cells.append(v4.new_markdown_cell(
                "\n".join(md + ["", f"*Not computed: {_md_cell(s.error)}*"])))
            continue
        md += ["", f"Settings: {settings_text(s, _md_cell)}."]  # labels, then `names`
        if s.caveats:
            md += ["", "**Caveats**", ""] + [f"- {prose(c)}" for c in s.caveats]
        cells.append(v4.new_markdown_cell("\n".join(md)))
        cells.append(v4.new_code_cell(a.to_code(s.params, "data")))
        if legend := _shown_legend(s):  # what the cell's table holds, as the report says
            cells.append(v4.new_markdown_cell(legend))
        for c, expr in zip(s.charts, a.chart_code, strict=False):
            if c.empty is not None:  # nothing to draw on these data: say why
                cells.append(v4.new_markdown_cell(f"**{_md_cell(c.title)}.** {prose(c.empty)}"))
                continue
            # the cell below draws the chart live: what a click on it shows, too
            cells.append(v4.new_markdown_cell(
                f"**{_md_cell(c.title)}.** {prose(c.live_caption)}"))
            cells.append(v4.new_code_cell(expr))
        if notice := a.notice_for(s.params, s.result):  # a simulation's lesson, as its page
            cells.append(v4.new_markdown_cell(f"**What to notice.** {prose(notice)}"))
    cells.append(v4.new_markdown_cell(
        "\n".join(["## References", ""] + [f"- {line}" for line in bibliography()])))
    nb = v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {
        "name": "python3", "display_name": "Python 3", "language": "python"
    }
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["scorio_provenance"] = json.loads(json.dumps(prov, default=str))
    nbformat.validate(nb)
    return nb
