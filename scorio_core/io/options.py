"""The loader's options, declared once (:class:`LoadOptions`).

Every loader (:func:`scorio_core.io.load`, :func:`~scorio_core.io.load_table`, the log
readers and their shared assembly) receives one :class:`LoadOptions` instead of passing
each keyword down the call chain; the CLI's data options are generated from the same
declarations (:func:`scorio_core.params.add_options`). Light on purpose: no polars here.

Example
-------
>>> import argparse
>>> from scorio_core.params import add_options, from_args
>>> p = argparse.ArgumentParser()
>>> add_options(p, sc.io.LoadOptions)
>>> args = p.parse_args(["--columns", "model=llm", "--weights", "0,1"])
>>> opts = from_args(sc.io.LoadOptions, args)
>>> opts.columns, opts.weights
((('model', 'llm'),), (0.0, 1.0))
>>> sc.io.LoadOptions(on_missing="skip")
Traceback (most recent call last):
...
scorio_core._validation.ValidationError: on_missing must be one of 'error', 'drop_questions', \
'truncate'; got 'skip'
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from .._validation import (
    Mention,
    Only,
    Said,
    SettingsConflict,
    ValidationError,
    _parsed,
    as_names,
    as_numbers,
    checked_keywords,
    split_names,
    unknown_settings,
)
from ..outcomes import COMBINED, LOAD_NOTES, Outcomes, correct_rule
from ..params import numbers_parse, setting, validate
from ._base import _ON_MISSING, MAX_BYTES

__all__ = ["LoadOptions", "OPTION_NAMES", "FORMAT_CHOICES", "ON_MISSING_HELP", "options_from",
           "mention", "MAX_GRADE_LEVELS", "round_levels", "as_asked"]

#: ``format=`` values that override detection.
FORMAT_CHOICES = (
    "npz", "csv", "parquet", "pq", "jsonl", "ndjson", "inspect", "lm_eval", "openai_evals",
    "helm",
)  # fmt: skip
ON_MISSING_HELP = {
    "error": "refuse, naming the incomplete (model, question) pairs",
    "drop_questions": "drop every question that some model lacks trials on",
    "truncate": "keep the smallest common number of trials of every pair",
}
#: What ``samples=`` does with the completions' text.
SAMPLES_HELP = {
    "keep": "keep: write them to a Parquet sample store read one question at a time",
    "skip": "skip: read the scores only (faster on large logs; no texts in the Pair view)",
}
#: The table roles ``columns=`` maps (the first four are required).
ROLE_NAMES = ("model", "question", "trial", "outcome", "decoding", "benchmark")
#: Most categories a graded score may have (both ends of its scale included); more distinct
#: values is a continuous score, which cannot be an outcome category (``round_grades=``
#: rounds it to at most this many levels).
MAX_GRADE_LEVELS = 21
#: The levels the loader's refusal of a continuous score suggests rounding to: steps of a
#: tenth of the scale.
SUGGESTED_LEVELS = 11


def round_levels(levels: int, scale: tuple[float, float] = (0.0, 1.0)) -> str:
    """The levels ``round_grades=levels`` rounds scores on ``scale`` to, in words.

    Example
    -------
    >>> from scorio_core.io.options import round_levels
    >>> round_levels(11), round_levels(5, (0, 10)), round_levels(3)
    ('0, 0.1, ..., 1', '0, 2.5, 5, 7.5, 10', '0, 0.5, 1')
    """
    lo, hi = (float(x) for x in scale)
    values = [f"{lo + (hi - lo) * k / (levels - 1):g}" for k in range(levels)]
    return ", ".join(values) if levels <= 5 else f"{values[0]}, {values[1]}, ..., {values[-1]}"


def columns_parse(flag: str) -> Any:
    """The parser of ``ROLE=COLUMN`` pairs of a long table (``--columns model=llm,
    question=item``; ``columns="model=llm"`` of ``sc.load`` is read by it too), its messages
    naming ``flag``.

    Example
    -------
    >>> from scorio_core.io.options import columns_parse
    >>> columns_parse("columns")("model=llm, question=item")
    (('model', 'llm'), ('question', 'item'))
    >>> columns_parse("columns")("model")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: columns expects ROLE=COLUMN pairs separated by commas, e.g. \
model=llm,question=item; got 'model'
    """

    def parse(text: str) -> tuple[tuple[str, str], ...]:
        pairs: dict[str, str] = {}
        for item in (t for t in text.split(",") if t.strip()):
            role, sep, col = (s.strip() for s in item.partition("="))
            if not sep or not role or not col:
                raise argparse.ArgumentTypeError(
                    f"{flag} expects ROLE=COLUMN pairs separated by commas, e.g. "
                    f"model=llm,question=item; got {text!r}"
                )
            if role not in ROLE_NAMES:
                raise argparse.ArgumentTypeError(
                    f"unknown role {role!r} in {flag}; roles are {', '.join(ROLE_NAMES)} "
                    "(e.g. model=llm)"
                )
            if role in pairs:
                raise argparse.ArgumentTypeError(
                    f"role {role!r} is mapped twice in {flag} {text!r}")
            pairs[role] = col
        dup = sorted({c for c in pairs.values() if list(pairs.values()).count(c) > 1})
        if dup:
            raise argparse.ArgumentTypeError(
                f"several roles of {flag} map to the same column {dup[0]!r}")
        if not pairs:
            raise argparse.ArgumentTypeError(f"{flag} expects at least one ROLE=COLUMN pair")
        return tuple(pairs.items())

    return parse


def where_parse(flag: str) -> Any:
    """The parser of one row filter, ``COLUMN=VALUE`` or ``COLUMN=V1,V2`` (``--where
    temperature=0.7``; ``where="temperature=0.7"`` of ``sc.load`` is read by it too), its
    messages naming ``flag``.

    Example
    -------
    >>> from scorio_core.io.options import where_parse
    >>> where_parse("where")("temperature=0.0, 1.0")
    ('temperature', ('0.0', '1.0'))
    """

    def parse(text: str) -> tuple[str, tuple[str, ...]]:
        col, sep, values = (t.strip() for t in text.partition("="))
        vals = split_names(values)
        if not sep or not col or not vals:
            raise argparse.ArgumentTypeError(
                f"{flag} expects COLUMN=VALUE (or COLUMN=V1,V2 for any of several values), "
                f"e.g. temperature=0.7; got {text!r}"
            )
        return col, vals

    return parse


def _names_parse(flag: str, example: str, noun: str = "column names"):
    def parse(text: str) -> tuple[str, ...]:
        names = split_names(text)
        if not names:
            raise argparse.ArgumentTypeError(
                f"{flag} expects comma-separated {noun}, e.g. {example}; got {text!r}"
            )
        return names

    return parse


def _where_tuple(where: Any) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    """``where`` as ``((column, (value, ...)), ...)``: one entry per column (values given
    for the same column twice are merged: any of them matches)."""
    if where is None:
        return None
    items = list(where.items()) if isinstance(where, Mapping) else list(where)
    merged: dict[str, list[str]] = {}
    for item in items:
        if isinstance(item, (str, bytes)) or len(item) != 2:
            raise ValidationError(
                "where must map each column to a value or a list of values, e.g. "
                "{'temperature': [0.0, 1.0]}, or be "
                f"(column, value) pairs; got {item!r}"
            )
        col, vals = item
        if isinstance(vals, (str, bytes, int, float)):
            vals = (vals,)
        vals = [str(v).strip() for v in vals]
        if not str(col).strip() or not vals or not all(vals):
            raise ValidationError(f"where needs a column and at least one value; got {item!r}")
        bucket = merged.setdefault(str(col).strip(), [])
        bucket.extend(v for v in vals if v not in bucket)
    return tuple((c, tuple(v)) for c, v in merged.items()) or None


def _range_parse(text: str, flag: str = "--score-range") -> tuple[float, float]:
    try:
        lo, hi = (float(t) for t in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{flag} expects LO,HI, e.g. 0,10; got {text!r}"
        ) from None
    return (lo, hi)


def read_model_map(path: str | os.PathLike) -> tuple[tuple[str, str], ...]:
    """A model-name mapping file: a JSON object ``{"name in the files": "name"}`` or a
    CSV with two columns (``from,to``; a header row naming them is optional).

    Example
    -------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "m.csv"
    >>> _ = f.write_text("from,to\\nmockllm/alpha,alpha\\nopenai/alpha,alpha\\n")
    >>> from scorio_core.io.options import read_model_map
    >>> read_model_map(f)
    (('mockllm/alpha', 'alpha'), ('openai/alpha', 'alpha'))
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValidationError(f"model map {p.name}: cannot read it ({exc})") from None
    if p.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except ValueError as exc:
            raise ValidationError(f"model map {p.name}: not JSON ({exc})") from None
        if not isinstance(obj, dict) or not all(isinstance(v, str) for v in obj.values()):
            raise ValidationError(
                f"model map {p.name}: expected a JSON object of names, e.g. "
                '{"mockllm/alpha": "alpha"}; got ' + type(obj).__name__
            )
        return tuple((str(k), v) for k, v in obj.items())
    rows = [r for r in csv.reader(text.splitlines()) if any(c.strip() for c in r)]
    bad = [i for i, r in enumerate(rows, 1) if len(r) != 2 or not all(c.strip() for c in r)]
    if bad:
        raise ValidationError(
            f"model map {p.name}: line {bad[0]} must hold two names (from,to); got "
            f"{rows[bad[0] - 1]!r}"
        )
    if rows and [c.strip().lower() for c in rows[0]] == ["from", "to"]:
        rows = rows[1:]
    return tuple((a.strip(), b.strip()) for a, b in rows)


def _model_map_parse(text: str) -> tuple[tuple[str, str], ...]:
    try:
        return read_model_map(text)
    except ValidationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


#: ``model_prefix=`` choices.
MODEL_PREFIX_HELP = {
    "strip": "drop a provider prefix (mockllm/alpha -> alpha) from log model names when the "
    "names stay distinct (reported)",
    "keep": "keep the names as the logs write them",
}


@checked_keywords
@dataclass(frozen=True)
class LoadOptions:
    """How to read outcome files (SPEC §2); every field is optional.

    Each field's declaration (:func:`~scorio_core.params.setting`) gives its help text;
    the CLI options of every data-reading subcommand come from them. Instances are
    hashable (mappings and sequences are stored as tuples), so they can key a cache.
    """

    format: str | None = setting(
        None, "read every file as this format instead of telling it from the content",
        choices=FORMAT_CHOICES, cli="--input-format", dest="input_format",
        label="Format",
    )
    columns: tuple[tuple[str, str], ...] | None = setting(
        None, "long tables whose columns have other names: ROLE=COLUMN pairs, e.g. "
        "model=llm,question=id (roles: " + ", ".join(ROLE_NAMES) + ")",
        parse=columns_parse("--columns"), label="Column mapping",
    )
    number_trials: bool = setting(
        False, "long tables of one row per repeat without a trial column: number the rows of "
        "each (model, question) pair 0, 1, 2, ... in file order as its trials (after the row "
        "filter; greedy rows apart); refused for a table that has a trial column",
        label="Number repeats as trials",
    )
    where: tuple[tuple[str, tuple[str, ...]], ...] | None = setting(
        None, Said(  # several filters: each surface writes them its own way
            "keep only the rows whose COLUMN has this value: COLUMN=VALUE, or COLUMN=V1,V2 "
            "for any of several",
            Only("python", "; several columns (all must match): a dict, e.g. "
                 "{'temperature': [0.0, 1.0], 'source': 'medmcqa'}"),
            Only("cli", "; repeat the flag to filter on several columns (all must match), "
                 "e.g. --where temperature=0.0,1.0 --where source=medmcqa"),
            Only("app", "; several columns (all must match): one filter each, separated by "
                 "`;`, e.g. `temperature = 0.0, 1.0; source = medmcqa`")),
        parse=where_parse("--where"), repeat=True, label="Row filter",
    )
    model_columns: tuple[str, ...] | None = setting(
        None, "name each model by several columns: the model column first, then the "
        "conditions, e.g. model,temperature makes models such as 'gpt-4@temperature=0.7'; "
        "greedy rows become their own model's trials when these columns tell them apart",
        parse=_names_parse("--model-columns", "model,temperature"), label="Model identity",
    )
    attributes: tuple[str, ...] | None = setting(
        None, "columns to keep as question attributes (one value per question: subset, tag, "
        "source); text columns constant within every question are kept without asking",
        parse=_names_parse("--attributes", "source,difficulty"), label="Question attributes",
    )
    on_missing: str = setting(
        "error", "missing (model, question, trial) cells in a table or errored log samples",
        choices=_ON_MISSING, choice_help=ON_MISSING_HELP, label="Missing cells",
    )
    scorer: str | None = setting(
        None, "logs with several scorers/metrics: which one is the outcome (Inspect scorer or a "
        "key of a dict-valued score, lm-eval METRIC or FILTER/METRIC, HELM stat; default: "
        "the first, noted in the report)",
        label="Scorer (logs)",
    )
    weights: tuple[float, ...] | None = setting(
        None, "comma-separated category weights, one per category 0..C, e.g. 0,0.5,1 "
        "(default: the file's; required for categorical tables, which cannot store them)",
        parse=numbers_parse("--weights", "0,0.5,1"), label="Category weights",
    )
    category_names: tuple[str, ...] | None = setting(
        None, "names of the categories 0..C (default: the file's)", cli=None,
    )
    name: str | None = setting(
        None, "dataset name (default: the .npz metadata name, the file stem or the task)",
        cli=None,
    )
    benchmark: str | None = setting(
        None, "load only this benchmark (task) of files that hold several; chosen before the "
        "files are assembled, so tasks run with different trials/epochs can be loaded "
        f"(default: all; '{COMBINED}' = all)",
        label="Benchmark",
    )
    score_range: tuple[float, float] | None = setting(
        None, "graded scores on a scale other than 0-1 (e.g. a 0-10 grade), in logs and "
        "tables: their scale LO,HI, e.g. 0,10; each distinct score becomes a category "
        "weighted (score - LO) / (HI - LO). Grades in 0-1 need no range; nor do OpenAI evals "
        "graded by numeric choices that their log lists (inferred, with a note); for a "
        "table, not together with category weights",
        parse=_range_parse, label="Score range",
    )
    model_map: tuple[tuple[str, str], ...] | None = setting(
        None, "rename models: a JSON object or two-column CSV (from,to) file, e.g. to say that "
        "mockllm/alpha and openai/alpha are one model 'alpha' (applied before assembly)",
        parse=_model_map_parse, label="Model names",
    )
    model_prefix: str = setting(
        "strip", "provider prefixes of log model names (mockllm/alpha)",
        choices=tuple(MODEL_PREFIX_HELP), choice_help=MODEL_PREFIX_HELP,
        label="Provider prefixes",
    )
    correct: tuple[str, ...] | None = setting(
        None, "load categorical or graded outcomes as binary, for the analyses that rank "
        "correctness (compare, convergence, stability, greedy, Pass@k): count a trial correct when "
        "its outcome is one of these categories, every other outcome wrong -- names as the "
        "data name them, e.g. C (Inspect's C/P/I, or a table's text outcomes such as C/I or "
        "correct/wrong; C,P counts partial credit too) or 1 (a grade); said in the data's "
        "notes",
        parse=_names_parse("--correct", "C,P", "category names"), label="Correct outcomes",
    )
    correct_from: float | None = setting(
        None, "load graded or categorical outcomes as binary: count a trial correct when its "
        "score is at least this, on the scores' own scale (a 0-10 grade: e.g. 7; Inspect's "
        "C = 1, P = 0.5, I = 0), every other trial wrong -- continuous scores too; said in "
        "the data's notes; not together with correct",
        label="Correct from score",
    )
    round_grades: int | None = setting(
        None, "continuous or finely graded scores (more distinct values than the "
        f"{MAX_GRADE_LEVELS} levels a score may have): round each to the nearest of this many "
        "evenly spaced levels of its scale (0-1, or score_range), both ends included, e.g. "
        f"{SUGGESTED_LEVELS} for 0, 0.1, ..., 1; each level becomes a category weighted by "
        "its value; said in the data's notes",
        integer=True, minimum=2, maximum=MAX_GRADE_LEVELS, label="Round grades to",
    )
    max_bytes: int = setting(
        MAX_BYTES, "files larger than this are refused before parsing", integer=True,
        minimum=1, cli=None,
    )
    samples: str = setting(
        "keep", "each completion's text — a log's input, target, output, answer, score "
        "explanation and sample metadata, a table's text columns — kept on disk beside the "
        "outcomes for the Pair view (Outcomes.samples)", choices=tuple(SAMPLES_HELP),
        choice_help=SAMPLES_HELP, label="Completion texts",
    )

    def __post_init__(self) -> None:
        cols = self.columns
        if isinstance(cols, str):  # as --columns reads it
            cols = _parsed(columns_parse("columns"), cols)
        if isinstance(cols, Mapping):
            cols = tuple((str(r), str(c)) for r, c in cols.items())
        elif cols is not None:
            cols = tuple((str(r), str(c)) for r, c in cols)
        object.__setattr__(self, "columns", cols or None)
        if self.number_trials not in (True, False):  # a switch: "yes" is no answer
            raise ValidationError(f"number_trials must be True or False; got "
                                  f"{self.number_trials!r}")
        object.__setattr__(self, "number_trials", bool(self.number_trials))
        mm = self.model_map
        if isinstance(mm, Mapping):
            mm = tuple((str(a), str(b)) for a, b in mm.items())
        elif isinstance(mm, (str, os.PathLike)):
            mm = read_model_map(mm)
        elif mm is not None:
            mm = tuple((str(a), str(b)) for a, b in mm)
        object.__setattr__(self, "model_map", mm or None)
        if self.benchmark == COMBINED:
            object.__setattr__(self, "benchmark", None)
        # a string is read as the option's flag reads it (--weights 0,0.5,1, --score-range
        # 0,10, --model-columns model,temperature), never letter by letter
        if self.weights is not None:
            object.__setattr__(self, "weights", as_numbers(
                self.weights, "weights", kind=float, example="0,0.5,1",
                parse=numbers_parse("weights", "0,0.5,1")))
        if isinstance(self.score_range, str):
            object.__setattr__(self, "score_range", as_numbers(
                self.score_range, "score_range", parse=lambda t: _range_parse(t, "score_range")))
        if self.score_range is not None:
            try:
                lo, hi = (float(x) for x in self.score_range)
            except (TypeError, ValueError):
                raise ValidationError(
                    f"score_range must be two numbers (LO, HI); got {self.score_range!r}"
                ) from None
            if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
                raise ValidationError(
                    f"score_range must be two finite numbers with LO < HI; got {(lo, hi)}"
                )
            object.__setattr__(self, "score_range", (lo, hi))
            if self.weights is not None:  # logs and tables alike
                raise SettingsConflict(
                    LoadOptions,
                    "{score_range} and {weights} were both given, but they are two readings of "
                    "the scores: drop {weights} to weight each grade by (grade - LO) / (HI - "
                    "LO), or drop {score_range} to read whole-number categories 0..C with your "
                    "weights", score_range=(lo, hi), weights=tuple(self.weights))
        if self.weights is not None:  # as given above (the conflict's message), now numbers
            try:
                object.__setattr__(self, "weights", tuple(float(x) for x in self.weights))
            except (TypeError, ValueError):
                raise ValidationError(f"weights must be numbers, one per category; got "
                                      f"{self.weights!r}") from None
        self._check_binary_and_rounding()
        where = self.where  # a string: one filter, as --where reads it
        object.__setattr__(self, "where", _where_tuple(
            (_parsed(where_parse("where"), where),) if isinstance(where, str) else where))
        for key, parse in (("category_names", None),
                           ("model_columns", _names_parse("model_columns", "model,temperature")),
                           ("attributes", _names_parse("attributes", "source,difficulty"))):
            value = getattr(self, key)
            if value is not None:
                object.__setattr__(self, key, as_names(value, key, noun="column names" if parse
                                                       else "category names", parse=parse))
        for key in ("model_columns", "attributes"):
            value = getattr(self, key)
            if value is not None:
                value = tuple(str(v).strip() for v in value)
                if not value or not all(value) or len(set(value)) != len(value):
                    raise ValidationError(
                        f"{key} must name distinct, non-empty columns; got {value!r}"
                    )
                object.__setattr__(self, key, value)
        model = dict(self.columns or ()).get("model")
        if self.model_columns and model not in (None, self.model_columns[0]):
            raise SettingsConflict(
                LoadOptions,
                f"{{columns}} maps the model to {model!r} but {{model_columns}} starts with "
                f"{self.model_columns[0]!r}; {{model_columns}} names the model column first",
                columns=self.columns, model_columns=self.model_columns)
        validate(self)

    def _check_binary_and_rounding(self) -> None:
        """``correct`` as names (a string as ``--correct`` reads it), ``correct_from`` a
        finite number; and the settings that are two readings of the same scores refused
        together."""
        if self.correct is not None:
            object.__setattr__(self, "correct", as_names(
                self.correct, "correct", noun="category names",
                parse=_names_parse("correct", "C,P", "category names")))
        if self.correct_from is not None:
            try:
                t = float(self.correct_from)
            except (TypeError, ValueError):
                t = math.nan
            if isinstance(self.correct_from, bool) or not math.isfinite(t):
                raise ValidationError(
                    f"correct_from must be a finite number (a score); got {self.correct_from!r}")
            object.__setattr__(self, "correct_from", t)
        if self.correct is not None and self.correct_from is not None:
            raise SettingsConflict(
                LoadOptions,
                "{correct} and {correct_from} were both given, but they are two rules for the "
                "same thing: which trials count as correct; keep one",
                correct=self.correct, correct_from=self.correct_from)
        if self.round_grades is not None and self.correct_from is not None:
            raise SettingsConflict(
                LoadOptions,
                "{round_grades} and {correct_from} were both given: {correct_from} reads each "
                "score as it is (continuous scores too), so there is nothing to round; drop "
                "{round_grades}", round_grades=self.round_grades,
                correct_from=self.correct_from)

    def check_given(self) -> LoadOptions:
        """``self``, refused where settings the caller gave together are two readings of the
        same scores (checked on a load's options, :func:`options_from`, not on every copy the
        loader makes: once the grades are read, their weights are set beside
        ``round_grades``)."""
        if self.round_grades is not None and self.weights is not None:
            raise SettingsConflict(
                LoadOptions,
                "{round_grades} and {weights} were both given, but they are two readings of the "
                "scores: {round_grades} makes each rounded grade a category weighted by its "
                "value; {weights} weight whole-number categories 0..C; keep one",
                round_grades=self.round_grades, weights=tuple(self.weights))
        return self

    def changed(self) -> dict[str, Any]:
        """The fields that differ from their defaults: the keywords of an ``io.load`` call
        that reads the data the same way (generated notebook code).

        Example
        -------
        >>> sc.io.LoadOptions(where={"temperature": 0.7}, on_missing="truncate").changed()
        {'where': (('temperature', ('0.7',)),), 'on_missing': 'truncate'}
        """
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != f.default
        }

    def rename(self, model: str) -> str:
        """``model`` as ``model_map`` names it (unchanged when not mapped)."""
        return dict(self.model_map or ()).get(model, model)

    def column_map(self) -> dict[str, str] | None:
        """``columns`` as a ``role -> column`` dict (``None`` when unset); with
        ``model_columns``, the model role is its first column."""
        cols = None if self.columns is None else dict(self.columns)
        if self.model_columns:  # the same model column as columns= (checked when made)
            cols = {**(cols or {}), "model": self.model_columns[0]}
        return cols


#: The loader options' keywords, in their declared order: what a load call (``load``,
#: ``load_npz``, ``load_table``) passes on as options.
OPTION_NAMES = tuple(f.name for f in fields(LoadOptions))
_NAMES = frozenset(OPTION_NAMES)


def mention(key: str, value: Any = None) -> Said:
    """Loader option ``key`` (with the ``value`` to give it) as a core message names it: a
    :class:`~scorio_core._validation.Mention` of :class:`LoadOptions` that each surface
    writes its own way -- as a ``str`` Python's keyword, on the command line its flag, in
    the app its box, each from the option's declaration.

    Example
    -------
    >>> from scorio_core.io.options import mention
    >>> from scorio_core.cli._common import cli_text
    >>> said = "choose one (" + mention("benchmark", "arith") + ")"
    >>> said, cli_text(said)
    ("choose one (benchmark='arith')", 'choose one (--benchmark arith)')
    """
    if key not in _NAMES:
        raise ValueError(f"{key!r} is no loader option; options are {', '.join(sorted(_NAMES))}")
    return Said(Mention(LoadOptions, key, value))


def options_from(options: LoadOptions | None, kwargs: Mapping[str, Any]) -> LoadOptions:
    """``options`` with the keyword overrides of a ``load(..., key=value)`` call.

    Raises
    ------
    UnknownSettingError
        For a keyword that is not a loader option (a ``ValidationError`` and a
        ``TypeError``, as a misspelt keyword's is), naming the closest.
    """
    unknown = sorted(set(kwargs) - _NAMES)
    if unknown:
        raise unknown_settings("loader options", unknown, sorted(_NAMES))
    # `load(x, weights=None)` means "the default", as it did before the options object
    given = {k: v for k, v in kwargs.items() if v is not None}
    base = options if options is not None else LoadOptions()
    return (replace(base, **given) if given else base).check_given()


def as_asked(data: Outcomes, opts: LoadOptions) -> Outcomes:
    """Loaded ``data`` as the options that act on the categories ask, once the files are
    assembled (every format alike): ``round_grades`` checked to have found graded scores to
    round (it rounds them while they are read, :func:`._assemble.graded`) and said in the
    data's notes; ``correct`` / ``correct_from`` make the outcomes binary
    (:meth:`Outcomes.binarized <scorio_core.outcomes.Outcomes.binarized>`, which says what
    was mapped). A log's import report then gives each file's mean as loaded beside its
    mean as the log scores it (:func:`._logs.loaded_means`).

    Example
    -------
    >>> csv = (b"model,question,trial,outcome\\nA,q1,0,0.31\\nA,q1,1,0.74\\n"
    ...        b"B,q1,0,0.9\\nB,q1,1,0.12\\n")
    >>> o = sc.load(csv, filename="x.csv", round_grades=3)
    >>> o.category_names, o.R.tolist()
    (('0', '0.5', '1'), [[[1, 1]], [[2, 0]]])
    >>> o.load_notes[0][:48]
    'Graded scores rounded to the nearest of 3 levels'
    >>> sc.load(csv, filename="x.csv", correct_from=0.5).R.tolist()
    [[[0, 1]], [[1, 0]]]
    """
    if opts.number_trials:  # the trials are the loader's numbers, not the file's: said first
        data = _noted(data, first=True, text=Said(
            "Trials numbered by row order (", mention("number_trials", True), "): the rows of "
            "each (model, question) pair are its trials 0, 1, 2, ... in the order the file "
            "lists them"))
    changed = []  # the options given that change the outcomes, as each surface names them
    if opts.round_grades is not None:
        data = _rounded(data, opts.round_grades)
        changed.append(mention("round_grades", opts.round_grades))
    if opts.correct is not None or opts.correct_from is not None:
        data = data.binarized(opts.correct, opts.correct_from)
        changed.append(correct_rule(opts.correct, opts.correct_from))
    if changed and data.metadata.get("import_report"):  # logs: their mean beside the board's
        from ._logs import loaded_means

        data = loaded_means(data, changed[0] if len(changed) == 1
                            else changed[0] + " and " + changed[1])
    return data


def _rounded(data: Outcomes, levels: int) -> Outcomes:
    """``data`` whose graded scores were rounded to ``levels`` levels, with a note that says
    so; refused where the data hold other categories (nothing was rounded)."""
    names = list(data.category_names)
    on_grid = [abs(w * (levels - 1) - round(w * (levels - 1))) < 1e-9 for w in data.weights]

    def number(name: str) -> bool:
        try:
            float(name)
        except ValueError:
            return False
        return True

    plain = data.is_binary and list(data.weights) == [0.0, 1.0]  # 0/1 scores: rounded alike
    # the options as each surface names them (a Said: Python's keyword, the command line's
    # flag, the app's box)
    asked, correct = mention("round_grades", levels), mention("correct")
    if not all(on_grid) or not (plain or all(map(number, names))):
        shown = ", ".join(f"{n} (w={w:g})" for n, w in zip(names, data.weights, strict=True))
        raise ValidationError(Said(
            asked, " rounds graded scores (numbers on a scale), but these data hold the "
            f"categories {shown}: there is nothing to round; drop it (", correct, " names the "
            "categories that count as correct, to make them binary)"))
    scale = data.metadata.get("score_range") or (0.0, 1.0)
    text = Said(f"Graded scores rounded to the nearest of {levels} levels (", asked,
                f"): {round_levels(levels, tuple(scale))}; {data.C + 1} categories, each "
                "weighted by its level")
    meta = {**data.metadata, "rounded_grades": {"levels": levels,
                                                 "scale": [float(x) for x in scale]}}
    return _noted(replace(data, metadata=meta), text)


def _noted(data: Outcomes, text: str, first: bool = False) -> Outcomes:
    """``data`` with ``text`` among the notes on what the load did (``load_notes``): last,
    or ``first`` (a step taken before the others noted)."""
    notes, note = list(data.metadata.get(LOAD_NOTES) or ()), {"text": text, "benchmarks": []}
    return replace(data, metadata={**data.metadata,
                                   LOAD_NOTES: [note, *notes] if first else [*notes, note]})
