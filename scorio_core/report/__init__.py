"""Reports: chosen analyses on one dataset rendered as HTML, Markdown or a notebook (SPEC §9).

In a notebook, ``sc.report(data, "report.html", sections=["leaderboard", "plan"])`` writes
one (:func:`report`; this module is callable, so ``sc.report(...)`` calls it). The pieces:

* :func:`build_report` runs the analyses (:data:`scorio_core.definitions.ANALYSES`);
* :func:`to_html` -- one self-contained, offline, print-friendly HTML file with
  inline SVG charts, a "how to read this" and caveats per section and a provenance block;
* :func:`to_markdown` -- the same as Markdown (charts as sibling SVG files);
* :func:`to_notebook` -- an ``nbformat`` notebook of public ``scorio_core`` calls;
* :func:`write_report` -- any of the three by the output file's suffix
  (``scorio-studio report``).

Example
-------
>>> from scorio_core import io
>>> from scorio_core.report import build_report, to_html
>>> data = io.load("data/biased_coins.npz")
>>> report = build_report(data, ["leaderboard"], title="Biased coins")
>>> to_html(report).count("<svg")
2
"""

from __future__ import annotations

import inspect
import os
import sys
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .._validation import ValidationError, checked_keywords
from ..io.options import LoadOptions, options_from
from ..outcomes import COMBINED
from ..params import from_args
from ._build import Report, SectionResult, build_report, parse_sections
from ._svg import chart_png, chart_svg
from .html import escape, to_html
from .markdown import to_markdown
from .notebook import load_code, to_notebook

__all__ = [
    "report",
    "Report",
    "SectionResult",
    "build_report",
    "parse_sections",
    "to_html",
    "to_markdown",
    "to_notebook",
    "load_code",
    "write_report",
    "make_report",
    "cli_report",
    "chart_svg",
    "chart_png",
    "escape",
    "SUFFIXES",
]

SUFFIXES = (".html", ".md", ".ipynb")


def _suffix(out: Path) -> str:
    """The format ``out``'s suffix names, once ``out`` is checked to be a file a report
    can be written to (before the analyses run): its folder exists or can be made -- the
    writer makes it, as ``mkdir -p`` would (``--out reports/run1.html``)."""
    suffix = out.suffix.lower()
    if suffix == ".htm":
        suffix = ".html"
    if suffix not in SUFFIXES:
        raise ValidationError(
            f"the report file must end in {', '.join(SUFFIXES)}; got {out.name!r}"
        )
    folder = out.parent
    held = next((p for p in (folder, *folder.parents) if p.exists()), folder)
    if not held.is_dir():
        raise ValidationError(
            f"the report {out} goes in the folder {folder}, which cannot be made: {held} is a "
            "file, not a folder")
    return suffix


@checked_keywords
def write_report(
    report: Report,
    out: str | os.PathLike,
    *,
    data_path: str | os.PathLike | list | None = None,
    on_missing: str = "error",
    options: LoadOptions | None = None,
) -> Path:
    """Write ``report`` to ``out`` as HTML, Markdown or a notebook, chosen by the suffix.

    A missing folder of ``out`` is made. Markdown charts go to ``<stem>_charts/`` next to
    the file; a notebook needs
    ``data_path``, what it loads: the file, or the folder (or list of files and folders)
    of logs the data were read from (with ``on_missing`` and ``options``, the
    :func:`scorio_core.io.load` keywords it was read with; the notebook checks the sha256
    of every file it reads). Returns the path written.
    """
    out = Path(out)
    suffix = _suffix(out)
    out.parent.mkdir(parents=True, exist_ok=True)  # a missing folder is made (mkdir -p)
    if suffix == ".html":
        out.write_text(to_html(report), encoding="utf-8")
    elif suffix == ".md":
        out.write_text(to_markdown(report, out.with_name(f"{out.stem}_charts")), encoding="utf-8")
    else:
        import nbformat

        if data_path is None:
            raise ValidationError(
                "a notebook report needs data_path=PATH, the file (or folder of logs) its "
                "first cell loads")
        several = isinstance(data_path, list | tuple) or Path(data_path).is_dir()
        paths = list(data_path) if isinstance(data_path, list | tuple) else [data_path]
        where = [_beside(Path(p), out) for p in paths]
        nb = to_notebook(report, where if several else where[0], on_missing=on_missing,
                         options=options)  # fmt: skip
        nbformat.write(nb, str(out))
    return out


def _beside(data_path: Path, out: Path) -> Path:
    """``data_path`` as the notebook ``out`` reads it: relative to the notebook's folder
    (Jupyter's working directory), so the notebook and its data can be sent or moved
    together; absolute only where no relative path exists (another drive)."""
    target = data_path.resolve()
    try:
        return Path(os.path.relpath(target, out.resolve().parent))
    except ValueError:
        return target


def _loader_keywords(unknown) -> str:
    """Where loader options given to a report call belong: in ``options=``."""
    from dataclasses import fields

    loader = [k for k in unknown if k in {f.name for f in fields(LoadOptions)}]
    if not loader:
        return ""
    kw = ", ".join(f"{k}=..." for k in loader)
    verb = "is a loader option" if len(loader) == 1 else "are loader options"
    return (f"; {', '.join(loader)} {verb}: pass options=sc.io.LoadOptions({kw}) (data "
            "loaded with them remember them: sc.report(data, ...) needs none)")


@checked_keywords(advice=_loader_keywords)
def make_report(
    path: str | os.PathLike | list,
    out: str | os.PathLike,
    *,
    benchmark: str = COMBINED,
    sections: str | Iterable | None = None,
    title: str | None = None,
    on_missing: str = "error",
    options: LoadOptions | None = None,
    progress=None,
) -> Path:
    """Load ``path`` (a file, or several files/directories as a list), select ``benchmark``,
    run ``sections`` (as :func:`report`: a list, or one comma-separated string) and write
    the report to ``out``. Loaded data or an array given as ``path`` are reported as
    :func:`report` reports them.

    This is ``scorio-studio report PATH --out OUT``. The input's sha256 goes
    into the provenance; a notebook loads ``path`` again -- the file, or the folder or files
    of logs, by their path relative to the notebook -- with the same loader ``options``
    (``where``, ``model_columns``, ``columns``, ``weights`` ...) and checks the sha256 of
    every file it reads.

    Example
    -------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = sc.make_report("data/biased_coins.npz", pathlib.Path(tmp) / "r.md",
    ...                       sections=["leaderboard"])
    ...     "LLM_11" in out.read_text()
    True
    """
    from .. import io

    if not _is_paths(path):  # loaded data or an array: reported as sc.report reports them
        from ..outcomes import as_outcomes

        return report(as_outcomes(path, "report"), out, sections=sections, title=title,
                      benchmark=benchmark, options=options, progress=progress)
    out = Path(out)
    _suffix(out)  # refuse a bad suffix before the (possibly long) analyses run
    if isinstance(sections, str):  # and an unknown section before the (long) load
        sections = parse_sections(sections)
    paths = [Path(p) for p in (path if isinstance(path, list | tuple) else [path])]
    # one path -- a file or a folder -- is read as the command line reads it (a folder's
    # name names data pooled from several tasks); a notebook loads it again by that path
    source = paths[0] if len(paths) == 1 else paths
    # the benchmark is chosen once, by the loader (as every CLI subcommand does): selecting
    # it again from the data it gave named the dataset 'x [B] [B]'
    given = {"on_missing": on_missing} if on_missing != "error" else {}
    if benchmark not in (None, COMBINED):
        given["benchmark"] = benchmark
    opts = options_from(options, given)
    data = io.load(source, opts)  # records the files' sha256
    built = build_report(data, sections, title=title, progress=progress)
    return write_report(built, out, data_path=source, options=opts)


@checked_keywords(advice=_loader_keywords)
def report(
    data: Any,
    out: str | os.PathLike,
    *,
    sections: str | Iterable | None = None,
    title: str | None = None,
    benchmark: str = COMBINED,
    data_path: str | os.PathLike | None = None,
    options: LoadOptions | None = None,
    progress=None,
) -> Path:
    """Run ``sections`` on ``data`` and write the report to ``out`` (``.html``: one
    self-contained offline file; ``.md``: Markdown with its charts beside it; ``.ipynb``:
    a notebook that recomputes every number).

    Parameters
    ----------
    data : Outcomes, array_like (L, M, N) or path
        Loaded data (``sc.load(...)``) or an array (read as every analysis reads one: a 2-D
        array is refused with its two readings), or the file (or a list of
        files/directories) to load -- then the report names the file and its sha256
        (:func:`make_report`).
    out : path
        The report file; its suffix chooses the format (.html, .md, .ipynb). Its folder is
        made if missing (as ``mkdir -p``; ``scorio-studio report --out`` too).
    sections : str or iterable, optional
        Analysis ids (``"leaderboard"``, ``"plan"``, ``"compare"`` ...) as a list or one
        comma-separated string (``"leaderboard,plan"``, as ``--sections``), or ``(id,
        params)`` pairs with the analysis's params or a dict of its settings. Default:
        those of :data:`~scorio_core.definitions.DEFAULT_SECTIONS` that fit the data (the
        same as ``scorio-studio report`` and the app's Report page; ``stability`` and
        ``check`` run when named).
    title : str, optional
        Default ``"Scorio Studio report: <dataset name>"``.
    benchmark : str
        With a path: the benchmark to select (default all questions). Loaded data are
        reported as they are (select first: ``data.select("AIME'25")``).
    data_path : path, optional
        A notebook report of loaded data: the file its first cell loads (it must hold
        these data; a path given as ``data`` is used as it is). Default: the file
        ``sc.load`` read the data from, once loading it again with ``options`` is checked
        to give the same data. Data made in code name no file: write them to one first
        (``sc.io.save_npz(data, "data.npz")``, then ``data_path="data.npz"``).
    options : LoadOptions, optional
        The loader options (``where``, ``model_columns``, ``columns``, ``weights`` ...)
        of a path given as ``data``, or of ``data_path``. Default: those the data were
        loaded with (``sc.load(path, weights=[0, 0.5, 1])`` remembers them), so the
        notebook loads the file again the same way.
    progress : callable ``(fraction, message)``, optional

    Returns
    -------
    pathlib.Path
        The file written.

    Example
    -------
    >>> import tempfile, pathlib
    >>> import scorio_core as sc
    >>> data = sc.load("data/biased_coins.npz")
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = sc.report(data, pathlib.Path(tmp) / "coins.html", sections=["leaderboard"])
    ...     (path.name, path.read_text().count("<svg") >= 2)
    ('coins.html', True)
    """
    from ..outcomes import as_outcomes

    if _is_paths(data):
        return make_report(data, out, benchmark=benchmark, sections=sections, title=title,
                           options=options, progress=progress)
    data = as_outcomes(data, "report")  # an array as every analysis reads it (2-D: refused)
    if _suffix(Path(out)) == ".ipynb" and data_path is None:  # before the analyses run
        data_path, options = _own_file(data, options, out)
    built = build_report(data, sections, title=title, progress=progress)
    return write_report(built, out, data_path=data_path, options=options)


def _is_paths(x: Any) -> bool:
    """``x`` names files to load: a path, or a list or tuple of them (not an array)."""
    one = (str, os.PathLike)
    return isinstance(x, one) or (isinstance(x, list | tuple) and bool(x)
                                  and all(isinstance(p, one) for p in x))


def _own_file(data, options: LoadOptions | None, out: str | os.PathLike = "report.ipynb"
              ) -> tuple[Path | list[Path], LoadOptions | None]:
    """What a notebook report of loaded ``data`` loads again, and how: the file -- or the
    folder or files (``metadata["source_paths"]``) -- ``sc.load`` read them from, with
    ``options`` (default: those ``sc.load`` read them with, :func:`~scorio_core.io.loaded_with`),
    once loading it again is checked to give these data."""
    import numpy as np

    from .. import io
    from ..definitions.provenance import benchmark_of

    paths = data.metadata.get("source_paths")
    src: Any = data.metadata.get("source_path")
    if isinstance(paths, list) and paths and all(Path(p).exists() for p in paths):
        src = [Path(p) for p in paths] if len(paths) > 1 else Path(paths[0])
    elif not isinstance(src, str) or not Path(src).is_file():
        raise ValidationError(
            "a notebook report loads its data from files on disk, and these data name none "
            f"(made in code or an upload): {_saved_first(data, out)}")
    if options is None:
        options = io.loaded_with(data)
    try:
        again = io.load(src, options)
    except ValidationError as exc:  # its advice as sc.report takes it: options=
        raise ValidationError(
            f"a notebook report loads {Path(str(src)).name} again to write its first cell, and "
            f"that failed: {_as_options(exc)}") from exc
    bench = benchmark_of(data)
    if bench in again.benchmark_names and len(again.benchmark_names) > 1:
        again = again.select(bench)
    same = (again.R.shape == data.R.shape and np.array_equal(again.R, data.R)
            and np.array_equal(again.weights, data.weights) and again.models == data.models)
    if not same:
        raise ValidationError(
            f"a notebook report loads {src} again, but sc.load of it gives other data than "
            "these (they were loaded with other options, changed in code, or the file "
            "changed); pass options=sc.io.LoadOptions(...) with the loader options they were "
            f"read with, or {_saved_first(data, out)}"
        )
    return (src if isinstance(src, list | Path) else Path(src)), options


def _saved_first(data, out: str | os.PathLike) -> str:
    """How to give a notebook report of ``data`` a file to load: write them to one with
    :func:`~scorio_core.io.save_npz` (weights, category names and greedy outcomes kept) --
    or, benchmarks of different trials that one ``.npz`` cannot hold, with
    :func:`~scorio_core.io.save_table` and the weights as a loader option -- and name it."""
    name = Path(out).name
    if not data.parts:
        return (f"write them to a file first, sc.io.save_npz(data, 'data.npz'), then "
                f"sc.report(data, {name!r}, data_path='data.npz') (sc.io.save_table writes "
                "a table instead, which keeps no category weights)")
    weights = "" if data.is_binary else (
        ", options=sc.io.LoadOptions(weights=[" + ", ".join(f"{w:g}" for w in data.weights)
        + "])")
    return (f"write them to a file first, sc.io.save_table(data, 'data.parquet'), then "
            f"sc.report(data, {name!r}, data_path='data.parquet'{weights})")


def _as_options(exc: ValidationError) -> str:
    """The loader's refusal with its advice (``give weights=[0, 0.5, 1]``) as
    :func:`report` takes it: ``options=sc.io.LoadOptions(weights=[0, 0.5, 1])``."""
    from .._validation import Mention, python_name, said_of

    said = said_of(exc)
    if not hasattr(said, "say"):
        return f"{exc}; sc.report takes the loader's options as options=sc.io.LoadOptions(...)"

    def name(m: Mention) -> str:
        if m.of is LoadOptions and getattr(m, "role", "set") == "set":
            return f"options=sc.io.LoadOptions({python_name(m)})"
        return python_name(m)

    return said.say("python", name)


@checked_keywords
def cli_report(args) -> int:
    """``scorio-studio report``: build and write the report; prints the path written
    (no ``--sections``: :func:`~scorio_core.definitions.default_sections`, as ``sc.report``)."""
    from ..cli import StderrProgress
    from ..io.options import LoadOptions

    path = make_report(
        args.path,
        args.out,
        benchmark=args.benchmark,
        sections=None if args.sections is None else parse_sections(args.sections),
        title=args.title,
        options=from_args(LoadOptions, args),
        progress=StderrProgress("report"),
    )
    print(f"wrote {path}")
    return 0


class _CallableModule(types.ModuleType):
    """``sc.report(data, "report.html")``: importing this package binds the attribute
    ``scorio_core.report`` to the package (a submodule wins over a package's own names),
    so calling the package calls :func:`report`."""

    def __call__(self, *args, **kwargs) -> Path:
        return report(*args, **kwargs)


__signature__ = inspect.signature(report)  # help()/inspect of the callable package
sys.modules[__name__].__class__ = _CallableModule
