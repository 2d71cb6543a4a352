"""The upload's loading options as ONE :class:`scorio_core.io.LoadOptions`, and the
import report as plain numbers -- computed without Streamlit (the sidebar's widgets only
collect the values; a notebook or a test gets the same options and table).

Example
-------
>>> opts = form_options({"where": "temperature = 0.0, 1.0; source=medmcqa",
...                      "model_columns": ["temperature"], "columns": [("model", "llm")],
...                      "model_map": [("openai/gpt-4", "gpt-4"), ("", "")],
...                      "score_range": "0, 10"})
>>> opts.where
(('temperature', ('0.0', '1.0')), ('source', ('medmcqa',)))
>>> opts.model_columns, opts.model_map, opts.score_range
(('llm', 'temperature'), (('openai/gpt-4', 'gpt-4'),), (0.0, 10.0))
>>> code_options(opts)["where"]
{'temperature': ('0.0', '1.0'), 'source': ('medmcqa',)}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from scorio_core._validation import ValidationError
from scorio_core.formatting import format_number
from scorio_core.io import LOADED_COLUMN, LoadOptions
from scorio_core.io import import_table as core_import_table

from .texts import app_cell, parse_weights

__all__ = ["parse_where", "parse_range", "parse_number", "model_map_pairs", "form_options",
           "code_options", "import_table", "uploaded_files"]


def parse_where(text: str) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    """The *Row filter* box: ``COLUMN = VALUE[, VALUE ...]`` filters separated by ``;`` or
    new lines (all must match; any of a column's values does); blank = no filter."""
    out = []
    for item in (t.strip() for t in text.replace("\n", ";").split(";")):
        if not item:
            continue
        col, sep, values = (s.strip() for s in item.partition("="))
        vals = tuple(v.strip() for v in values.split(",") if v.strip())
        if not sep or not col or not vals:
            raise ValidationError(
                f"Row filter: expected COLUMN = VALUE (or COLUMN = V1, V2), several separated "
                f"by ';', e.g. temperature = 0.0, 1.0; got {item!r}"
            )
        out.append((col, vals))
    return tuple(out) or None


def parse_range(text: str) -> tuple[float, float] | None:
    """The *Score range* box: ``LO, HI`` (e.g. ``0, 10``); blank = none."""
    parts = [t for t in text.replace(",", " ").split() if t]
    if not parts:
        return None
    try:
        lo, hi = (float(t) for t in parts)
    except ValueError:
        raise ValidationError(
            f"Score range: expected two numbers LO, HI (e.g. 0, 10); got {text!r}"
        ) from None
    return lo, hi


def parse_number(text: str, label: str, example: str, whole: bool = False) -> float | None:
    """A box that holds one number (*Correct from score*, *Round grades to*); blank = none.

    Example
    -------
    >>> parse_number(" 0.5 ", "Correct from score", "0.5"), parse_number("", "x", "1")
    (0.5, None)
    >>> parse_number("ten", "Round grades to", "11", whole=True)
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: Round grades to: expected a whole number (e.g. 11); \
got 'ten'
    """
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
        if whole and value != int(value):
            raise ValueError(text)
    except ValueError:
        raise ValidationError(
            f"{label}: expected {'a whole number' if whole else 'a number'} (e.g. {example}); "
            f"got {text!r}") from None
    return int(value) if whole else value


def model_map_pairs(rows: Iterable[Any]) -> tuple[tuple[str, str], ...] | None:
    """The *Model names* table's rows as ``(from, to)`` pairs: rows with a blank side are
    left out (a table being edited), a name mapped twice is refused."""
    pairs: dict[str, str] = {}
    for row in rows:
        a, b = (row.get("from"), row.get("to")) if isinstance(row, Mapping) else row
        a, b = ("" if pd.isna(x) else str(x).strip() for x in (a, b))
        if not a or not b:
            continue
        if pairs.get(a, b) != b:
            raise ValidationError(f"Model names: {a!r} is mapped twice ({pairs[a]!r}, {b!r})")
        pairs[a] = b
    return tuple(pairs.items()) or None


def uploaded_files(files: Iterable[tuple[str, bytes]]) -> dict[str, bytes]:
    """The files uploaded at once as ``{name: bytes}`` -- an uploader keeps a file's name but
    not its folder, so two different files of one name (HELM writes a
    ``per_instance_stats.json`` in every run's folder) cannot both be kept under it: refused,
    naming them, with the ways that keep each file. A file given twice (same name, same
    bytes) is kept once.

    Example
    -------
    >>> sorted(uploaded_files([("a.csv", b"1"), ("b.csv", b"2"), ("a.csv", b"1")]))
    ['a.csv', 'b.csv']
    >>> uploaded_files([("run1.json", b"1"), ("per_instance_stats.json", b"x"),
    ...                 ("per_instance_stats.json", b"y")])
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: 2 different uploaded files are named \
per_instance_stats.json: an upload keeps a file's name but not its folder, so they cannot \
both be read. Upload the folders that hold them as one .zip (each run's files in its own \
folder), or load the folder in a notebook: sc.load("path/to/folder").
    """
    out: dict[str, bytes] = {}
    clash: dict[str, int] = {}
    for name, data in files:
        if name in out and out[name] != data:
            clash[name] = clash.get(name, 1) + 1
        out.setdefault(name, data)
    if clash:
        named = "; ".join(f"{n} different uploaded files are named {name}"
                          for name, n in clash.items())
        raise ValidationError(
            f"{named}: an upload keeps a file's name but not its folder, so they cannot both be "
            "read. Upload the folders that hold them as one .zip (each run's files in its own "
            'folder), or load the folder in a notebook: sc.load("path/to/folder").')
    return out


def form_options(values: Mapping[str, Any]) -> LoadOptions:
    """ONE :class:`LoadOptions` from the sidebar's values: ``on_missing``, ``columns``
    ((role, column) pairs), ``number_trials`` (a switch), ``scorer``, ``weights`` (text),
    ``where`` (text),
    ``model_columns`` (the condition columns; the model column comes first),
    ``model_map`` (rows), ``score_range`` (text), ``model_prefix``, ``correct`` (names,
    comma-separated), ``correct_from`` and ``round_grades`` (text)."""
    columns = dict(values.get("columns") or ())
    conditions = tuple(values.get("model_columns") or ())
    model_columns = (columns.get("model", "model"), *conditions) if conditions else None
    return LoadOptions(
        on_missing=values.get("on_missing") or "error",
        columns=columns or None,
        number_trials=bool(values.get("number_trials")),
        scorer=(values.get("scorer") or "").strip() or None,
        weights=parse_weights(values.get("weights") or ""),
        where=parse_where(values.get("where") or ""),
        model_columns=model_columns,
        model_map=model_map_pairs(values.get("model_map") or ()),
        score_range=parse_range(values.get("score_range") or ""),
        model_prefix=values.get("model_prefix") or "strip",
        correct=(values.get("correct") or "").strip() or None,
        correct_from=parse_number(values.get("correct_from") or "",
                                  _label("correct_from"), "0.5"),
        round_grades=parse_number(values.get("round_grades") or "",
                                  _label("round_grades"), "11", whole=True),
    )


def _label(name: str) -> str:
    """A loader option's widget label, as declared (:func:`scorio_core.params.widget`)."""
    from scorio_core.params import widget

    return widget(LoadOptions, name)["label"]


def code_options(options: LoadOptions) -> dict[str, Any]:
    """The ``io.load`` keywords that read the data as ``options`` do (the non-default
    fields), mappings written as dicts so the Copy code cell reads naturally: the core's
    one record of them (:func:`scorio_core.io.load_keywords`)."""
    from scorio_core.io import load_keywords

    return load_keywords(options)


def _plain(v: Any) -> str:
    return "" if v is None or (isinstance(v, float) and pd.isna(v)) else format_number(v)


def import_table(report: Mapping[str, Any]) -> pd.DataFrame:
    """:func:`scorio_core.io.import_table` (one row per file of an import report: harness,
    model, benchmark, scorer, records, missing, our mean, the harness's own value and
    reducer, our mean as loaded where options changed the outcomes, notes) with its numbers
    as text, as the Data page shows them."""
    # each file's notes as the app names the loader's options (their boxes), before the
    # core joins them into one cell
    report = {**report, "files": [{**f, "notes": [app_cell(n) for n in f.get("notes") or ()]}
                                  for f in report.get("files", [])]}
    table = core_import_table(report)
    if table.empty:
        return table
    for col in ("records", "missing"):
        table[col] = [f"{n:,}" for n in table[col]]
    for col in ("ours (mean)", "harness value", LOADED_COLUMN):
        if col in table:  # ours as loaded: only where the loader's options changed outcomes
            table[col] = [_plain(v) for v in table[col]]
    return table
