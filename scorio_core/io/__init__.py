"""Loaders and writers for :class:`~scorio_core.outcomes.Outcomes` (SPEC §2).

One module per on-disk format behind one :func:`load`; pickle is never used:

* :mod:`~scorio_core.io.npz` -- NumPy arrays read with ``allow_pickle=False``: ``R``
  ``(L, M, N)`` (a 2-D ``R`` is one model), optional ``R0``, ``models``, ``questions``,
  ``benchmarks``, ``category_names`` (unicode string arrays), ``weights``,
  ``signal__<name>`` float arrays ``(L, M, N)`` and ``meta_json`` (a 0-d string
  holding a JSON object).
* :mod:`~scorio_core.io.table` -- CSV, Parquet or JSONL read with polars, one row per
  completion with columns ``model, question, trial, outcome`` (+ optional
  ``decoding`` = ``sample|greedy`` and ``benchmark``; other numeric columns are
  signals).

Every problem is reported as a :class:`~scorio_core._validation.ValidationError`
whose message starts with the file name and says what was expected and what was
found. Row numbers in table messages count data rows from 1 (the header is not
counted; in a CSV the line number is the row number + 1).

Example
-------
>>> from scorio_core.io import load
>>> csv = b"model,question,trial,outcome\\nA,q1,0,1\\nA,q1,1,0\\nB,q1,0,1\\nB,q1,1,1\\n"
>>> o = load(csv, filename="runs.csv")
>>> o.models, o.R[:, 0].tolist()
(('A', 'B'), [[1, 0], [1, 1]])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from .._validation import ValidationError
from ..outcomes import Outcomes
from ._assemble import ROLES
from ._base import (
    ACCEPTED_SUFFIXES,
    MAX_BYTES,
    OnMissing,
    Source,
    _format_of,
    _reported_as,
    _resolve,
)
from .npz import _load_npz, load_npz, save_npz
from .table import (
    _is_frame,
    _load_table,
    load_table,
    safe_csv_cell,
    save_table,
    to_long_frame,
    to_safe_csv,
)

__all__ = [
    "ACCEPTED_SUFFIXES",
    "MAX_BYTES",
    "ROLES",
    "ValidationError",
    "load",
    "load_npz",
    "load_table",
    "save_npz",
    "save_table",
    "to_long_frame",
    "safe_csv_cell",
    "to_safe_csv",
]


# -------------------------------------------------------------------- load
def load(
    source: Source | pl.DataFrame,
    *,
    filename: str | None = None,
    format: str | None = None,
    columns: Mapping[str, str] | None = None,
    on_missing: OnMissing = "error",
    name: str | None = None,
    max_bytes: int = MAX_BYTES,
    weights: Sequence[float] | None = None,
    category_names: Sequence[str] | None = None,
) -> Outcomes:
    """Load outcomes from an ``.npz`` archive or a long table, choosing by suffix.

    Parameters
    ----------
    source : str, PathLike, bytes or binary file object
        A path, or the raw bytes of an upload (then ``filename`` gives the suffix).
        A polars/pandas DataFrame is passed to :func:`load_table`.
    filename : str, optional
        Name used for the suffix and in messages (defaults to the path's name).
    format : {"npz", "csv", "parquet", "pq", "jsonl", "ndjson"}, optional
        Overrides the suffix.
    columns, on_missing
        Table options, see :func:`load_table`; ignored for ``.npz`` files.
    name : str, optional
        Dataset name; defaults to the ``.npz`` metadata name or the file stem.
    max_bytes : int
        Files larger than this are refused before parsing.
    weights, category_names : optional
        Category weights/names; override the ones stored in an ``.npz`` (tables
        cannot store them).

    Returns
    -------
    Outcomes

    Raises
    ------
    ValidationError
        For unknown suffixes, empty or oversized files and any malformed content.

    Examples
    --------
    >>> o = load(b"model,question,trial,outcome\\nA,q1,0,1\\nA,q1,1,1\\n", filename="x.csv")
    >>> o.shape
    (1, 1, 2)
    """
    if _is_frame(source):
        return load_table(
            source,
            columns=columns,
            on_missing=on_missing,
            name=name,
            weights=weights,
            category_names=category_names,
        )
    src = _resolve(source, filename, max_bytes)
    fmt = _format_of(src, format)
    with _reported_as(src.label):
        if fmt == "npz":
            return _load_npz(src, name, weights, category_names, max_bytes)
        return _load_table(src, fmt, columns, on_missing, name, weights, category_names)

