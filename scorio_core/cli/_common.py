"""What every subcommand shares: argument types, the data arguments, loading, progress on
stderr and the provenance-carrying CSV/JSON output of the analysis commands.

Only light modules at import time: the parser of every subcommand is built for ``--help``."""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .._validation import (
    Mention,
    Said,
    SettingsConflict,
    ValidationError,
    json_safe,
    python_name,
)
from ..formatting import shape_text
from ..io.options import LoadOptions
from ..params import PARAMS_CLASSES, add_options, cli_flag, from_args, settings_of

if TYPE_CHECKING:
    import pandas as pd

# Heavy modules (io -> polars, leaderboard -> scipy, export -> pandas) are imported where a
# subcommand needs them, so `scorio-studio --help` answers at once.
FORMATS = ("csv", "json", "md")  # export.FORMATS, without importing pandas for --help
#: ``--format`` of the table-printing subcommands: an aligned table for people, CSV / JSON /
#: Markdown for scripts and documents. The default depends on where stdout goes.
TABLE_FORMATS = ("table", "csv", "json", "markdown")
#: Older spellings still accepted: ``text`` (now ``table``) and ``md``.
FORMAT_ALIASES = {"text": "table", "md": "markdown"}


def _positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number; got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0; got {v}")
    return v


def add_format(p: argparse.ArgumentParser, formats: tuple[str, ...] = TABLE_FORMATS,
               what: str = "", *, legend: bool = True) -> None:
    """``--format``: one of ``formats`` (``text``/``md`` accepted for ``table``/``markdown``);
    unset, :func:`output_format` picks ``table`` on a terminal and ``csv`` (or the first
    machine format) when stdout is piped. ``legend``: the command prints tables whose
    columns a definition declares, each with its "Columns:" legend in the formats for
    people, and takes ``--no-legend`` (:func:`legend_on`)."""

    def parse(text: str) -> str:
        key = FORMAT_ALIASES.get(text.strip().lower(), text.strip().lower())
        if key not in formats:
            raise argparse.ArgumentTypeError(
                f"invalid choice: {text!r} (choose from {', '.join(formats)})"
            )
        return key

    piped = "csv" if "csv" in formats else formats[1]
    p.add_argument(
        "--format", type=parse, default=None, metavar="{" + ",".join(formats) + "}",
        help=f"output format{what}; default: table on a terminal, {piped} when piped",
    )
    if legend:
        p.add_argument(
            "--no-legend", action="store_true",
            help="leave out the 'Columns:' lines under each table that say what its columns "
            "hold (table and markdown output; csv and json are unchanged either way)",
        )


def legend_on(args) -> bool:
    """Whether the tables for people end with their columns' legend: unless
    ``--no-legend``."""
    return not getattr(args, "no_legend", False)


def output_format(args, formats: tuple[str, ...] = TABLE_FORMATS) -> str:
    """The ``--format`` asked for, or the default for where stdout goes."""
    if getattr(args, "format", None):
        return args.format
    if sys.stdout.isatty():
        return "table"
    return "csv" if "csv" in formats else formats[1]


def _add_data_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path",
        nargs="+",
        help="outcome files or directories (read recursively): .npz, long tables (.csv, "
        ".parquet, .jsonl) or evaluation logs (Inspect .eval/.json, lm-eval samples_*.jsonl, "
        "OpenAI evals .jsonl, HELM per_instance_stats.json)",
    )
    add_options(p, LoadOptions)  # --benchmark, --scorer, --weights, --on-missing, ...


def definition_parser(sub, name: str, params_cls: str, help: str, *,  # noqa: A002
                      cluster: bool = False, format_help: str = "") -> argparse.ArgumentParser:
    """The subcommand of one analysis definition: the data and loader options, the
    definition's settings as declared on ``scorio_core.params.<params_cls>``, ``--format``
    and, for a sweep, the Dask options. Returns the parser for any option of its own."""
    from .. import params

    p = sub.add_parser(name, help=help)
    _add_data_args(p)
    params.add_options(p, getattr(params, params_cls))
    add_format(p, what=format_help)
    if cluster:
        _add_cluster_args(p)
    return p


def print_for(render_fn):
    """A subcommand's ``run``: load the data the flags name (``io.load`` records an input
    file's name and sha256 for the provenance) and print ``render_fn(data, args)``."""

    def run(args) -> int:
        sys.stdout.write(render_fn(load(args), args))
        return 0

    run.__doc__ = f"Print what ``{render_fn.__name__}`` makes of the data the flags name."
    return run


def _add_cluster_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=_positive_int, default=0,
                   help="run the sweep on a local Dask cluster of this many worker processes "
                   "(same results as in one process)")
    p.add_argument("--scheduler", default=None,
                   help="run the sweep on a running Dask scheduler, e.g. tcp://HOST:8786")


class StderrProgress:
    """A ``progress(fraction, message)`` callback that reports long runs on stderr.

    On a terminal it redraws one line; otherwise (logs, CI) it prints a line at most
    every ``every`` seconds. Elapsed time and a linear estimate of the time left.
    """

    def __init__(self, label: str, every: float = 10.0) -> None:
        self.label, self.every = label, every
        self.tty = sys.stderr.isatty()
        self.start = self.last = time.monotonic()
        self.finished = False

    def __call__(self, fraction: float, message: str = "") -> None:
        now = time.monotonic()
        done = fraction >= 1.0
        # once: a run's last part reports 100% ("combined: done") before the run does
        if self.finished or not (self.tty or done or now - self.last >= self.every):
            return
        self.last, self.finished = now, done
        elapsed = now - self.start
        if done:  # nothing is left to estimate
            line = f"{self.label}: 100% done ({elapsed:.0f} s)"
        else:
            left = ("" if fraction <= 0.02
                    else f", ~{elapsed * (1 - fraction) / fraction:.0f} s left")
            line = f"{self.label}: {fraction:4.0%} {message} ({elapsed:.0f} s{left})"
        end = "\n" if done or not self.tty else ""
        sys.stderr.write(("\r\x1b[K" if self.tty else "") + line + end)
        sys.stderr.flush()

    def counted(self, i: int, n: int, message: str = "") -> None:
        """The ``(i, n, message)`` form of :func:`scorio_core.engines.run_methods`."""
        self(i / max(n, 1), f"{message} ({i + 1}/{n})" if i < n else message)


def _check_prior(args, data) -> None:
    if getattr(args, "prior", "uniform") == "greedy" and data.R0 is None:
        raise ValidationError(
            "--prior greedy needs greedy outcomes: rows with decoding=greedy in a long table "
            f"or an R0 array in an .npz; {data.name!r} has none (drop --prior greedy)"
        )


def _load(args):
    from .. import io

    paths = [Path(p) for p in args.path]
    # the benchmark is chosen by the loader, before assembly (LoadOptions.benchmark)
    return io.load(paths[0] if len(paths) == 1 else paths, from_args(LoadOptions, args))


def _pick(meta, *keys: str) -> dict:
    return {k: meta[k] for k in keys if k in meta}



def load(args):
    """The data the flags name (``--benchmark`` selected), ``--prior greedy`` checked."""
    data = _load(args)
    _check_prior(args, data)
    return data


#: Settings whose Python keyword a message may name (``scope='population'``) and whose
#: command-line flag is the keyword with dashes (``--scope population``).
_FLAG_KEYWORDS = ("on_missing", "scope", "benchmark", "adjust", "scorer", "prior")
_KEYWORD = re.compile(rf"(?<![\w-])({'|'.join(_FLAG_KEYWORDS)})='([^'\s]*)'")


def _flag_of(m: Mention, parser: argparse.ArgumentParser | None = None) -> str | None:
    """What the command line calls the setting ``m`` names: its declared flag
    (:func:`~scorio_core.params.cli_flag`); where its class declares none, the argument of
    ``parser`` that takes it -- a positional one by its name in the usage line (``pair``'s
    ``A``) -- and for an option no settings class declares (``m.of`` None), the flag
    ``parser`` declares (``leaderboard``'s ``--rubric``); None where there is none."""
    declared = settings_of(m.of).get(m.key) if m.of is not None else None
    if declared is not None and declared[1].cli is not None:
        return cli_flag(m.of, m.key)
    dest = (declared[1].dest or m.key) if declared is not None else m.key
    for a in parser._actions if parser is not None else ():
        if a.dest == dest and (m.of is None or not a.option_strings):
            return a.option_strings[0] if a.option_strings else (a.metavar or a.dest)
    return None


def cli_name(m: Mention, parser: argparse.ArgumentParser | None = None) -> str:
    """A setting a message names (:class:`~scorio_core._validation.Mention`) as the command
    line gives it: its flag (:func:`_flag_of`; ``parser``, the command's, names a positional
    argument and an option of the command's own) and the value as it is typed; a value found
    that is unset, ``no`` and the flag; a setting without a flag, as Python writes it.

    Example
    -------
    >>> from scorio_core._validation import Mention
    >>> from scorio_core.cli._common import cli_name
    >>> from scorio_core.io import LoadOptions
    >>> cli_name(Mention(LoadOptions, "correct", ("C", "P"))), cli_name(
    ...     Mention(LoadOptions, "correct_from", 0.5))
    ('--correct C,P', '--correct-from 0.5')
    >>> cli_name(Mention(LoadOptions, "correct_from", role="name")), cli_name(
    ...     Mention(LoadOptions, "correct_from", None, role="found"))
    ('--correct-from', 'no --correct-from')
    """
    flag = _flag_of(m, parser)
    if flag is None:
        return python_name(m)
    if isinstance(m.value, bool) and m.role != "name":  # a switch: the flag turns it on
        return flag if m.value else f"no {flag}"
    if m.role == "found" and m.value is None:  # unset
        return f"no {flag}"
    return flag if m.role == "name" or m.value is None else f"{flag} {_typed(m.value)}"


def cli_text(text: str, parser: argparse.ArgumentParser | None = None) -> str:
    """A core message as the command line reads it -- every message the CLI prints goes
    through here: the settings a :class:`~scorio_core._validation.Said` names, by their
    flags (:func:`cli_name`; ``parser``, the command's, names its positional arguments and
    its own options), without the words for other surfaces; a setting's Python keyword in
    plain text (``scope='population'``) becomes its flag (``--scope population``).

    Example
    -------
    >>> from scorio_core.cli._common import cli_text
    >>> cli_text("use the population scope (scope='population'); or on_missing='truncate'")
    'use the population scope (--scope population); or --on-missing truncate'
    >>> from scorio_core.io.options import mention
    >>> print(cli_text("pass " + mention("benchmark", "HMMT'25")))  # as a shell takes it
    pass --benchmark 'HMMT'"'"'25'
    >>> from scorio_core._validation import said_of
    >>> from scorio_core.cli import _parser
    >>> from scorio_core.cli._common import command_parser
    >>> parser = _parser()
    >>> pair = command_parser(parser, parser.parse_args(["pair", "run.npz", "m", "m"]))
    >>> try:
    ...     sc.params.PairParams(a="m", b="m")
    ... except sc.ValidationError as exc:
    ...     print(cli_text(said_of(exc), pair))  # the usage line's A and B
    A and B must be two different models; got A m, B m
    """
    if isinstance(text, Said):
        text = text.say("cli", lambda m: cli_name(m, parser))
    return _KEYWORD.sub(lambda m: f"--{m[1].replace('_', '-')} {m[2]}", text)


def command_parser(parser: argparse.ArgumentParser,
                   args: argparse.Namespace) -> argparse.ArgumentParser:
    """The (sub)command's parser that read ``args`` (``simulate order``'s, not the top
    one's): its usage line is the one an error in these flags shows."""
    while True:
        sub = next((a for a in parser._actions
                    if isinstance(a, argparse._SubParsersAction)), None)
        if sub is None:
            return parser
        parser = sub.choices[getattr(args, sub.dest)]


def check_settings(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Build every params class the command's flags fill in (:data:`PARAMS_CLASSES`) as
    soon as they are parsed, before any data is read: settings that are each valid but
    inconsistent together raise :class:`SettingsConflict` here (``main`` makes it the usage
    error, in the command's words: :func:`cli_text`). A setting given as a positional
    argument (``pair``'s ``A B``) counts as its flag. Any other error waits for the run,
    which builds the params again: ``--pair`` with a comma inside a model name is read
    against the data's models."""
    positional = {a.dest for a in command_parser(parser, args)._actions if not a.option_strings}
    for cls in getattr(args, PARAMS_CLASSES, ()):
        given = {k: getattr(args, k) for k, (_, s) in settings_of(cls).items()
                 if s.cli is None and k in positional}
        try:
            from_args(cls, args, **given)
        except SettingsConflict:
            raise
        except ValidationError:
            pass


def _typed(value) -> str:
    """A value as it is typed on the command line: ``0,0.5,1``, ``model=llm``, ``0.5``."""
    if isinstance(value, tuple | list):
        return ",".join(
            "=".join(map(_typed, v)) if isinstance(v, tuple | list) else _typed(v)
            for v in value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return shlex.quote(str(value))


def render(fmt: str, title: str, intro: list[str] | tuple[str, ...] = (),
           sections: list | tuple = (), notes: list[str] | tuple[str, ...] = (), *,
           legend: bool = True) -> str:
    """A subcommand's result for people: ``table`` (aligned text) or ``markdown``.

    ``sections`` are ``(heading, text, frame)`` triples (``text`` or ``frame`` may be
    empty/``None``), or ``(heading, text, frame, columns)`` for a table whose columns a
    definition declares (``columns``: :meth:`Analysis.column_help
    <scorio_core.definitions.Analysis.column_help>`); every number goes through
    :mod:`scorio_core.formatting`, so one column has one format and ∞ / — are spelled out. A
    table shows what the report's shows (:func:`scorio_core.display.readable`): a column with
    no value in any row is left out, a number column named in a line under the table; then,
    with ``legend`` (:func:`legend_on`: no ``--no-legend``), the "Columns:" legend of the
    columns it shows, as the notebook's display, the reports and the app's pages print it
    (:func:`scorio_core.export.legend_lines`).
    """
    from ..display import readable
    from ..export import legend_lines
    from ..formatting import _md_escape, markdown_table, text_table

    md = fmt == "markdown"
    out = [f"# {_md_escape(title)}" if md else title, ""]
    for t in map(cli_text, intro):
        out += [_md_escape(t), ""] if md else [t]
    if intro and not md:
        out.append("")
    for heading, text, frame, *declared in sections:
        columns = declared[0] if declared else None
        if heading:
            out.append(f"## {_md_escape(heading)}" if md else f"## {heading}")
        if text:
            out.append(_md_escape(text) if md else text)
        if frame is not None:
            if md and text:
                out.append("")
            frame, said = readable(frame)
            out += markdown_table(frame) if md else [text_table(frame)]
            out += [f"\n{_md_escape(t)}" if md else t for t in said]
            if legend and columns and len(frame) and (
                    lines := legend_lines(frame.columns, columns, fmt)):
                out += ["", *lines]
        out.append("")
    if notes:
        notes = [cli_text(n) for n in notes]
        out += [f"- {_md_escape(n)}" if md else f"Note: {n}" for n in notes] + [""]
    return "\n".join(out).rstrip("\n") + "\n"


def _plain_json(payload) -> str:
    return json.dumps(json_safe(payload), indent=2, allow_nan=False) + "\n"


def title(what: str, data, params=None, detail: str = "") -> str:
    """The first line of every command's output for people: ``what``, then the data it
    analysed by name and shape -- the questions ``params.subset`` (``--subset``) keeps,
    not the file's (a subset of 15 of 30 questions says 15) -- and ``detail`` (a pair, the
    smaller runs) after a dash.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.cli._common import title
    >>> from scorio_core.params import QuestionsParams
    >>> o = Outcomes(np.ones((2, 4, 3), int), name="run",
    ...              question_attributes={"level": ["easy", "hard"] * 2})
    >>> title("Questions", o)
    'Questions: run (2 models × 4 questions × 3 trials)'
    >>> title("Questions", o, QuestionsParams(subset=("level", "hard")))
    'Questions: run [level=hard] (2 models × 2 questions × 3 trials)'
    """
    from ..definitions._base import subset_of

    shown = subset_of(data, getattr(params, "subset", None))
    L, M, N = shown.R.shape
    return f"{what}: {shown.name} ({shape_text(L, M, N)})" + (f" — {detail}" if detail else "")


def _progress(label: str):
    """Progress of a long run on stderr (stdout stays the table)."""
    return StderrProgress(label)


def _skipped(skipped: dict[str, str]) -> str:
    return "".join(f"# skipped {m}: {why}\n" for m, why in skipped.items())


def _run(analysis_id: str, data, params, args=None):
    """``(result, tables, provenance)`` of one analysis definition, progress on stderr;
    on a Dask cluster when ``args`` asks for workers or a scheduler."""
    from ..definitions import ANALYSES, CLUSTER_ANALYSES
    from ..definitions.provenance import provenance
    from ..parallel import Executor

    a = ANALYSES[analysis_id]
    a.check(data)
    workers, scheduler = getattr(args, "workers", None), getattr(args, "scheduler", None)
    with Executor(workers, scheduler) as ex:
        extra = {"executor": ex} if analysis_id in CLUSTER_ANALYSES else {}
        result = a.run(data, params, progress=_progress(analysis_id), **extra)
    return result, a.tables(result), provenance(data, analysis_id, params)


def _csv(prov, *frames: pd.DataFrame, notes: list[str] | tuple[str, ...] = ()) -> str:
    """The provenance header, then each table as CSV, blank-line separated, then the notes
    a table for people prints under it (:func:`note_lines`)."""
    from ..definitions.provenance import csv_header
    from ..export import table_csv

    body = "\n".join(table_csv(f) for f in frames)
    return csv_header(prov) + body + note_lines(notes)


def note_lines(notes: list[str] | tuple[str, ...]) -> str:
    """The notes of a result as ``# note: ...`` lines closing its CSV (comments, as the
    provenance header is: ``pandas.read_csv(..., comment="#")`` skips them). A note says
    why cells are blank (N = 1: no questions-scope interval) or what to read with care, so
    a script's CSV keeps it as the table for people does."""
    return "".join(f"# note: {' '.join(cli_text(n).split())}\n" for n in notes)


def _json(payload, prov, notes: list[str] | tuple[str, ...] | None = None) -> str:
    """Strict JSON of ``payload`` with the provenance and, for a result that has notes (a
    list, perhaps empty: one shape whatever the data), the notes a table for people prints
    under it (key ``notes``)."""
    from ..definitions.provenance import to_json

    extra = {} if notes is None else {"notes": [cli_text(n) for n in notes]}
    return to_json(payload | extra, prov)

