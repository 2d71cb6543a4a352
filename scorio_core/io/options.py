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
>>> add_options(p, LoadOptions)
>>> opts = from_args(LoadOptions, p.parse_args(["--columns", "model=llm", "--weights", "0,1"]))
>>> opts.columns, opts.weights
((('model', 'llm'),), (0.0, 1.0))
>>> LoadOptions(on_missing="skip")
Traceback (most recent call last):
...
scorio_core._validation.ValidationError: on_missing must be one of 'error', 'drop_questions', \
'truncate'; got 'skip'
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from .._validation import ValidationError
from ..params import setting, validate
from ._base import _ON_MISSING, MAX_BYTES

__all__ = ["LoadOptions", "FORMAT_CHOICES", "ON_MISSING_HELP", "options_from"]

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
#: The table roles ``columns=`` maps (the first four are required).
ROLE_NAMES = ("model", "question", "trial", "outcome", "decoding", "benchmark")


def _columns_parse(text: str) -> tuple[tuple[str, str], ...]:
    """``--columns model=llm,question=item``: (role, column) pairs of a long table."""
    pairs: dict[str, str] = {}
    for item in (t for t in text.split(",") if t.strip()):
        role, sep, col = (s.strip() for s in item.partition("="))
        if not sep or not role or not col:
            raise argparse.ArgumentTypeError(
                f"--columns expects ROLE=COLUMN pairs separated by commas, e.g. "
                f"model=llm,question=item; got {text!r}"
            )
        if role not in ROLE_NAMES:
            raise argparse.ArgumentTypeError(
                f"unknown role {role!r} in --columns; roles are {', '.join(ROLE_NAMES)} "
                "(e.g. model=llm)"
            )
        if role in pairs:
            raise argparse.ArgumentTypeError(f"role {role!r} is mapped twice in {text!r}")
        pairs[role] = col
    dup = sorted({c for c in pairs.values() if list(pairs.values()).count(c) > 1})
    if dup:
        raise argparse.ArgumentTypeError(f"several roles map to the same column {dup[0]!r}")
    if not pairs:
        raise argparse.ArgumentTypeError("--columns expects at least one ROLE=COLUMN pair")
    return tuple(pairs.items())


def _numbers_parse(text: str) -> tuple[float, ...]:
    try:
        return tuple(float(t) for t in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--weights expects comma-separated numbers, e.g. 0,0.5,1; got {text!r}"
        ) from None


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
        parse=_columns_parse, label="Column mapping",
    )
    on_missing: str = setting(
        "error", "missing (model, question, trial) cells in a table or errored log samples",
        choices=_ON_MISSING, choice_help=ON_MISSING_HELP, label="Missing cells",
    )
    scorer: str | None = setting(
        None, "logs with several scorers/metrics: which one is the outcome (Inspect scorer, "
        "lm-eval METRIC or FILTER/METRIC, HELM stat; default: the first, noted in the report)",
        label="Scorer",
    )
    weights: tuple[float, ...] | None = setting(
        None, "comma-separated category weights, one per category 0..C, e.g. 0,0.5,1 "
        "(default: the file's; required for categorical tables, which cannot store them)",
        parse=_numbers_parse, label="Category weights",
    )
    category_names: tuple[str, ...] | None = setting(
        None, "names of the categories 0..C (default: the file's)", cli=None,
    )
    name: str | None = setting(
        None, "dataset name (default: the .npz metadata name, the file stem or the task)",
        cli=None,
    )
    max_bytes: int = setting(
        MAX_BYTES, "files larger than this are refused before parsing", integer=True,
        minimum=1, cli=None,
    )

    def __post_init__(self) -> None:
        cols = self.columns
        if isinstance(cols, Mapping):
            cols = tuple((str(r), str(c)) for r, c in cols.items())
        elif cols is not None:
            cols = tuple((str(r), str(c)) for r, c in cols)
        object.__setattr__(self, "columns", cols or None)
        for key in ("weights", "category_names"):
            value = getattr(self, key)
            if value is not None and not isinstance(value, tuple):
                if isinstance(value, (str, bytes)):
                    raise ValidationError(f"{key} must be a sequence; got {value!r}")
                value = tuple(value)
                object.__setattr__(self, key, value)
        validate(self)

    def column_map(self) -> dict[str, str] | None:
        """``columns`` as a ``role -> column`` dict (``None`` when unset)."""
        return None if self.columns is None else dict(self.columns)


_NAMES = frozenset(f.name for f in fields(LoadOptions))


def options_from(options: LoadOptions | None, kwargs: Mapping[str, Any]) -> LoadOptions:
    """``options`` with the keyword overrides of a ``load(..., key=value)`` call.

    Raises
    ------
    TypeError
        For a keyword that is not a loader option (as a misspelt keyword would).
    """
    unknown = sorted(set(kwargs) - _NAMES)
    if unknown:
        raise TypeError(
            f"unknown loader option(s) {', '.join(unknown)}; options are "
            + ", ".join(sorted(_NAMES))
        )
    # `load(x, weights=None)` means "the default", as it did before the options object
    given = {k: v for k, v in kwargs.items() if v is not None}
    base = options if options is not None else LoadOptions()
    return replace(base, **given) if given else base
