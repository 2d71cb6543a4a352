"""Loaders and writers for :class:`~scorio_core.outcomes.Outcomes` (SPEC §2).

Two on-disk shapes are understood, and pickle is never used:

* **.npz** -- NumPy arrays read with ``allow_pickle=False``: ``R`` ``(L, M, N)``
  (a 2-D ``R`` is one model), optional ``R0``, ``models``, ``questions``,
  ``benchmarks``, ``category_names`` (unicode string arrays), ``weights``,
  ``signal__<name>`` float arrays ``(L, M, N)`` and ``meta_json`` (a 0-d string
  holding a JSON object).
* **long tables** -- CSV, Parquet or JSONL read with polars, one row per
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

import io as _io
import json
import os
import re
import zipfile
import zlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Literal

import numpy as np
import polars as pl

from ._validation import MAX_CATEGORY, ValidationError
from .outcomes import Outcomes

__all__ = [
    "ACCEPTED_SUFFIXES",
    "MAX_BYTES",
    "load",
    "load_npz",
    "load_table",
    "save_npz",
    "save_table",
    "to_long_frame",
    "safe_csv_cell",
    "to_safe_csv",
]

#: Default upload/file size limit (bytes).
MAX_BYTES = 200 * 2**20
#: File suffix -> format understood by :func:`load`.
ACCEPTED_SUFFIXES: dict[str, str] = {
    ".npz": "npz",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
#: Column roles of a long table, in the order they are written.
ROLES = ("model", "question", "trial", "outcome", "decoding", "benchmark")
_REQUIRED = ROLES[:4]
OnMissing = Literal["error", "drop_questions", "truncate"]
_ON_MISSING = ("error", "drop_questions", "truncate")

_SHOW = 5  # how many offending rows/cells an error message lists
_MAX_EXTRA = 10_000  # extra npz arrays up to this size are kept in metadata
_UNZIP_FACTOR = 8  # an .npz may expand to at most this many times max_bytes
_MAX_PAIRS = 50_000_000  # (model, question) pairs; more means a wrong column mapping
_SIGNAL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
# Index columns written by pandas; ignored rather than turned into signals.
_INDEX_COLUMN = re.compile(r"^(|Unnamed: \d+|__index_level_\d+__|index)$")
_FORMULA_CHARS = ("=", "+", "-", "@", "\t", "\r")
_FORMULA_RE = r"^([=+\-@\t\r])"
_ROW = "__scorio_row__"

Source = str | os.PathLike | bytes | bytearray | memoryview | BinaryIO


# ----------------------------------------------------------------- sources
@dataclass(frozen=True)
class _Src:
    label: str  # file name shown in messages
    path: Path | None = None
    data: bytes | None = None
    head: bytes = b""

    def open(self) -> BinaryIO:
        # a file object, not a path: polars would expand '*' or '[' in a path as a glob
        return _io.BytesIO(self.data) if self.data is not None else self.path.open("rb")

    def read(self) -> bytes:
        return self.data if self.data is not None else self.path.read_bytes()


def _mb(n: int) -> str:
    if n < 2**20:
        return f"{n / 2**10:.1f} KB" if n >= 2**10 else f"{n} bytes"
    return f"{n / 2**20:.1f} MB"


def _resolve(source: Any, filename: str | None, max_bytes: int) -> _Src:
    """Turn a path, bytes or binary file object into a size-checked :class:`_Src`."""
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
        label = Path(filename).name if filename else "<uploaded bytes>"
        size = len(data)
    elif hasattr(source, "read"):  # e.g. a Streamlit UploadedFile
        filename = filename or getattr(source, "name", None)
        label = Path(str(filename)).name if filename else "<uploaded file>"
        data = source.read(max_bytes + 1)
        if isinstance(data, str):
            raise ValidationError(f"{label}: open the file in binary mode ('rb'), not text mode")
        size = len(data)
    elif isinstance(source, str | os.PathLike):
        path = Path(source)
        label = Path(filename).name if filename else path.name
        if not path.exists():
            raise ValidationError(f"{label}: file not found ({path})")
        if not path.is_file():
            raise ValidationError(f"{label}: not a regular file ({path})")
        try:
            size = path.stat().st_size
            with path.open("rb") as fh:
                head = fh.read(8)
        except OSError as exc:
            raise ValidationError(f"{label}: cannot be read ({exc.strerror or exc})") from None
        src = _Src(label, path=path, head=head)
        data = None
    else:
        raise ValidationError(
            "source must be a file path, bytes or a binary file object; got "
            f"{type(source).__name__}"
        )
    if size == 0:
        raise ValidationError(f"{label}: the file is empty (0 bytes); expected data")
    if size > max_bytes:
        more = "more than " if data is not None and size == max_bytes + 1 else ""
        raise ValidationError(
            f"{label}: the file is {more}{_mb(size)} ({size:,} bytes), over the size limit "
            f"(max_bytes={max_bytes:,}, i.e. {_mb(max_bytes)})"
        )
    if data is not None:
        src = _Src(label, data=data, head=data[:8])
    return src


def _sniff(head: bytes) -> str | None:
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "a zip archive (.npz)"
    if head.startswith(b"PAR1"):
        return "a Parquet file"
    if head.startswith(b"\x93NUMPY"):
        return "a single .npy array"
    return None


def _format_of(src: _Src, format: str | None) -> str:
    accepted = ", ".join(ACCEPTED_SUFFIXES)
    if format is not None:
        key = "." + str(format).lower().lstrip(".")
        if key not in ACCEPTED_SUFFIXES:
            raise ValidationError(f"unknown format={format!r}; accepted: {accepted}")
        return ACCEPTED_SUFFIXES[key]
    suffix = Path(src.label).suffix.lower()
    if suffix not in ACCEPTED_SUFFIXES:
        if src.label.startswith("<"):
            raise ValidationError(
                f"cannot tell the format of {src.label}: pass filename= (with one of the "
                f"suffixes {accepted}) or format="
            )
        found = f"suffix {suffix!r}" if suffix else "no suffix"
        raise ValidationError(
            f"{src.label}: unsupported file type ({found}); accepted suffixes: {accepted}"
        )
    return ACCEPTED_SUFFIXES[suffix]


@contextmanager
def _reported_as(label: str) -> Iterator[None]:
    """Prefix every error with the file name; turn stray polars errors into ValidationError."""
    try:
        yield
    except ValidationError as exc:
        msg = str(exc)
        raise ValidationError(msg if msg.startswith(label + ":") else f"{label}: {msg}") from None
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException) as exc:  # safety net
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
        raise ValidationError(f"{label}: could not interpret the table ({first})") from None


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


def load_npz(
    source: Source,
    *,
    filename: str | None = None,
    name: str | None = None,
    max_bytes: int = MAX_BYTES,
    weights: Sequence[float] | None = None,
    category_names: Sequence[str] | None = None,
) -> Outcomes:
    """Load an ``.npz`` archive without ever unpickling.

    Parameters
    ----------
    source : str, PathLike, bytes or binary file object
        The archive. Required array ``R``: integer ``(L, M, N)`` (or ``(M, N)`` for one
        model). Optional: ``R0`` ``(L, M, D)`` or ``(M, D)``; ``models``,
        ``questions``, ``benchmarks`` (one per question) and ``category_names`` as
        unicode string arrays; ``weights`` float; ``signal__<name>`` float arrays
        ``(L, M, N)``; ``meta_json``, a 0-d string holding a JSON object whose
        ``"name"`` key names the dataset.
    filename, name, max_bytes, weights, category_names
        As in :func:`load`.

    Returns
    -------
    Outcomes
        Any other arrays (e.g. ``true_p``) go to ``metadata["extra_arrays"]`` as
        lists when they hold at most 10,000 elements; larger ones are only named
        in ``metadata["extra_arrays_not_loaded"]``.

    Raises
    ------
    ValidationError
        For object (pickled) arrays, corrupt or non-zip files, a missing ``R`` (the
        message lists the arrays found) and anything :class:`Outcomes` refuses.

    Examples
    --------
    >>> import io, numpy as np
    >>> buf = io.BytesIO()
    >>> np.savez(buf, R=np.array([[1, 0], [1, 1]]), models=np.array(["m"]))
    >>> load_npz(buf.getvalue(), filename="m.npz").shape
    (1, 2, 2)
    """
    src = _resolve(source, filename, max_bytes)
    with _reported_as(src.label):
        return _load_npz(src, name, weights, category_names, max_bytes)


def _load_npz(
    src: _Src,
    name: str | None,
    weights: Sequence[float] | None,
    category_names: Sequence[str] | None,
    max_bytes: int,
) -> Outcomes:
    if not src.head.startswith(b"PK"):
        kind = _sniff(src.head)
        raise ValidationError(
            "not an .npz archive (a zip file of .npy arrays): it starts with "
            f"{src.head[:8]!r}" + (f", which looks like {kind}" if kind else "")
        )
    try:
        with src.open() as fh, zipfile.ZipFile(fh) as zf:
            expanded = sum(info.file_size for info in zf.infolist())
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError) as exc:
        raise ValidationError(
            f"not a readable .npz archive (corrupt or truncated zip: {exc})"
        ) from None
    if expanded > _UNZIP_FACTOR * max_bytes:
        raise ValidationError(
            f"the archive expands to {_mb(expanded)}, more than {_UNZIP_FACTOR} x the "
            f"{_mb(max_bytes)} size limit; refusing to decompress it"
        )
    arrays: dict[str, np.ndarray] = {}
    try:
        with src.open() as fh, np.load(fh, allow_pickle=False) as npz:
            for key in npz.files:
                try:
                    arrays[key] = np.asarray(npz[key])
                except ValueError as exc:
                    if "pickle" in str(exc).lower() or "object" in str(exc).lower():
                        raise ValidationError(
                            f"array {key!r} is an object array stored with pickle; object "
                            "arrays/pickles are refused because unpickling can run code. Store "
                            "numbers as numeric arrays and labels as unicode arrays "
                            "(np.array(names, dtype=str))"
                        ) from None
                    raise
    except ValidationError:
        raise
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, KeyError) as exc:
        raise ValidationError(f"could not read the .npz archive (corrupt member: {exc})") from None

    if "R" not in arrays:
        found = ", ".join(repr(k) for k in arrays) or "none"
        raise ValidationError(
            f"no array 'R' (the outcome tensor of shape (L, M, N)); arrays found: {found}"
        )
    meta = _meta_from_json(arrays.pop("meta_json", None))
    R = arrays.pop("R")
    finite = R[np.isfinite(R)] if R.dtype.kind == "f" else R
    if R.dtype.kind in "iuf" and finite.size and finite.max() > MAX_CATEGORY:
        raise ValidationError(
            f"'R' holds the value {finite.max()}; categories above {MAX_CATEGORY} are refused "
            "(R must hold small integer categories 0..C, not scores or ids)"
        )
    R0 = arrays.pop("R0", None)
    labels = {
        k: _labels(arrays.pop(k, None), k)
        for k in ("models", "questions", "benchmarks", "category_names")
    }
    w = arrays.pop("weights", None)
    signals = {
        k[len("signal__") :]: arrays.pop(k) for k in list(arrays) if k.startswith("signal__")
    }
    if R.ndim == 2:  # one model: give 2-D signals the model axis too
        signals = {k: v[None] if v.ndim == 2 else v for k, v in signals.items()}
    extra = {k: v.tolist() for k, v in arrays.items() if v.size <= _MAX_EXTRA}
    if extra:
        meta["extra_arrays"] = extra
    big = [k for k, v in arrays.items() if v.size > _MAX_EXTRA]
    if big:
        meta["extra_arrays_not_loaded"] = big
    ds_name = name or meta.pop("name", None) or Path(src.label).stem or "dataset"
    meta["source_file"] = src.label
    meta["format"] = "npz"
    return Outcomes(
        R=R,
        R0=R0,
        weights=w if weights is None else weights,
        category_names=labels["category_names"] if category_names is None else category_names,
        models=labels["models"],
        questions=labels["questions"],
        benchmarks=labels["benchmarks"],
        signals=signals,
        name=str(ds_name),
        metadata=meta,
    )


def _labels(arr: np.ndarray | None, what: str) -> list[str] | None:
    if arr is None:
        return None
    if arr.ndim != 1:
        raise ValidationError(
            f"{what!r} must be a 1-D array of names; got shape {tuple(arr.shape)}"
        )
    if arr.dtype.kind == "U":
        return [str(x) for x in arr.tolist()]
    if arr.dtype.kind == "S":
        try:
            return [x.decode("utf-8") for x in arr.tolist()]
        except UnicodeDecodeError:
            raise ValidationError(f"{what!r} holds bytes that are not UTF-8 text") from None
    if arr.dtype.kind in "iu":
        return [str(x) for x in arr.tolist()]
    raise ValidationError(
        f"{what!r} must be a unicode string array (np.array(names, dtype=str)); got dtype "
        f"{arr.dtype}"
    )


def _meta_from_json(arr: np.ndarray | None) -> dict[str, Any]:
    if arr is None:
        return {}
    if arr.dtype.kind not in "US" or arr.size != 1:
        raise ValidationError(
            "'meta_json' must be a 0-d unicode string holding a JSON object; got shape "
            f"{tuple(arr.shape)} and dtype {arr.dtype}"
        )
    text = arr.reshape(()).item()
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    try:
        meta = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError(f"'meta_json' is not valid JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise ValidationError(
            f"'meta_json' must hold a JSON object ({{...}}); got a {type(meta).__name__}"
        )
    return meta


# ------------------------------------------------------------------ tables
def _is_frame(obj: Any) -> bool:
    if isinstance(obj, pl.DataFrame):
        return True
    return type(obj).__name__ == "DataFrame" and type(obj).__module__.startswith("pandas")


def load_table(
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
    """Load a long table (CSV, Parquet, JSONL or a DataFrame): one row per completion.

    Parameters
    ----------
    source : str, PathLike, bytes, binary file object, polars or pandas DataFrame
        The table.
    filename, format, name, max_bytes, weights, category_names
        As in :func:`load`.
    columns : mapping, optional
        Role -> column name, e.g. ``{"model": "llm", "outcome": "score"}``. Roles:
        ``model``, ``question``, ``trial``, ``outcome`` (required) and ``decoding``,
        ``benchmark`` (optional).
    on_missing : {"error", "drop_questions", "truncate"}
        What to do when some (model, question) pairs have fewer trials than
        ``N`` = the largest count found: raise (default, naming the pairs); drop
        every question incomplete for any model; or keep the first ``N_min``
        trials (by trial value) of every pair. The same policy applies to greedy
        rows and ``D``. What was dropped is recorded in ``metadata``.

    Returns
    -------
    Outcomes
        Models and questions in order of first appearance; trials sorted by the
        ``trial`` value within each (model, question). ``decoding == "greedy"``
        rows form ``R0`` of shape ``(L, M, D)``.

    Notes
    -----
    * ``outcome`` accepts integers, whole-number floats and booleans
      (``true``/``false`` in any case); null, NaN, fractional, negative or
      non-numeric values are refused with their row numbers.
    * Other numeric or boolean columns become signals (their names must be
      letters, digits and ``_``; values are read from the sample rows and must not
      be missing there). Text columns (e.g. the completion itself) are ignored and
      listed in ``metadata["ignored_columns"]``, unless most of their values are
      numbers -- then the non-numbers are reported as an error, since that is
      almost always a typo in a signal column. Pandas index columns ("",
      "Unnamed: 0", "index") are ignored too.
    * Row numbers in messages count data rows from 1, not counting the header
      (CSV line = row + 1); for DataFrames they are 0-based positions.
    * In CSV files a leading ``'`` before ``= + - @`` (added by :func:`save_table`
      and spreadsheets to defuse formulas) is removed from text columns.

    Raises
    ------
    ValidationError
        With the expected and found columns, the offending rows or the missing cells.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"llm": ["a", "a", "b", "b"], "question": ["q", "q", "q", "q"],
    ...                    "trial": [1, 0, 0, 1], "outcome": [1, 0, 1, 1]})
    >>> load_table(df, columns={"model": "llm"}).R[:, 0].tolist()
    [[0, 1], [1, 1]]
    """
    if _is_frame(source):
        df = source if isinstance(source, pl.DataFrame) else _from_pandas(source)
        label = filename or "<DataFrame>"
        with _reported_as(label):
            return _from_frame(
                df, "frame", label, columns, on_missing, name, weights, category_names
            )
    src = _resolve(source, filename, max_bytes)
    fmt = _format_of(src, format)
    if fmt == "npz":
        raise ValidationError(f"{src.label}: an .npz archive is not a table; use load or load_npz")
    with _reported_as(src.label):
        return _load_table(src, fmt, columns, on_missing, name, weights, category_names)


def _from_pandas(df: Any) -> pl.DataFrame:
    try:
        return pl.from_pandas(df, include_index=False)
    except Exception as exc:  # pyarrow conversion of odd object columns
        raise ValidationError(f"could not convert the pandas DataFrame ({exc})") from None


def _load_table(
    src: _Src,
    fmt: str,
    columns: Mapping[str, str] | None,
    on_missing: str,
    name: str | None,
    weights: Sequence[float] | None,
    category_names: Sequence[str] | None,
) -> Outcomes:
    kind = _sniff(src.head)
    if fmt == "parquet" and not src.head.startswith(b"PAR1"):
        raise ValidationError(
            f"not a Parquet file (it does not start with b'PAR1'; it starts with {src.head!r})"
        )
    if fmt != "parquet" and kind:
        raise ValidationError(f"expected a {fmt.upper()} text file, but this looks like {kind}")
    if fmt != "parquet":
        _check_text(src)
    roles = {r: str((columns or {}).get(r, r)) for r in ROLES}
    try:
        with src.open() as fh:
            if fmt == "csv":
                text = {roles[r]: pl.String for r in ("model", "question", "decoding", "benchmark")}
                df = pl.read_csv(fh, schema_overrides=text, infer_schema_length=None)
            elif fmt == "parquet":
                df = pl.read_parquet(fh)
            else:
                df = pl.read_ndjson(fh, infer_schema_length=None)
    except pl.exceptions.NoDataError:
        raise ValidationError(f"no data found; expected a {fmt.upper()} table with rows") from None
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException) as exc:
        # polars panics (rather than raising) on some corrupt Parquet files
        raise ValidationError(_explain_read_error(src, fmt, exc)) from None
    return _from_frame(df, fmt, src.label, columns, on_missing, name, weights, category_names)


def _not_utf8(data: bytes) -> str | None:
    """Why ``data`` is not UTF-8 text (``None`` if it is)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        if err.start >= len(data) - 3 and err.reason == "unexpected end of data":
            return None  # a character cut by our own truncation of the header
        line = data.count(b"\n", 0, err.start) + 1
        hint = (
            "it starts with a UTF-16 byte-order mark, so it was probably saved as UTF-16"
            if data[:2] in (b"\xff\xfe", b"\xfe\xff")
            else "it was probably saved as Latin-1/Windows-1252"
        )
        return (
            f"the file is not UTF-8 text: byte 0x{data[err.start]:02x} on line {line} cannot be "
            f"decoded; {hint}. Re-save it as UTF-8 (e.g. 'CSV UTF-8' in a spreadsheet)"
        )
    return None


def _check_text(src: _Src) -> None:
    # polars decodes header names lossily, so the header is checked here; the rest of the
    # file is checked by polars (see _explain_read_error).
    if src.data is not None:
        head = src.data[:65536]
    else:
        with src.path.open("rb") as fh:
            head = fh.read(65536)
    why = _not_utf8(head.split(b"\n", 1)[0])
    if why:
        raise ValidationError(why)


def _explain_read_error(src: _Src, fmt: str, exc: Exception) -> str:
    msg = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
    if not src.read().strip():
        return f"no data found (only blank lines); expected a {fmt.upper()} table with rows"
    if "utf" in msg.lower():
        why = _not_utf8(src.read())
        if why:
            return why
    if fmt == "jsonl":  # polars does not say which line is broken; find it
        for i, line in enumerate(src.read().splitlines(), start=1):
            if line.strip():
                try:
                    json.loads(line)
                except ValueError as err:
                    return f"line {i} is not a JSON object ({err}): {line[:80]!r}"
    what = {"csv": "CSV", "parquet": "Parquet", "jsonl": "JSONL (one JSON object per line)"}[fmt]
    return f"could not parse the file as {what}: {msg}"


def _row_note(fmt: str) -> str:
    return {
        "csv": "rows numbered from 1 below the header; CSV line = row + 1",
        "jsonl": "rows numbered from 1, i.e. the n-th JSON object",
        "parquet": "rows numbered from 1",
        "frame": "0-based row positions",
    }[fmt]


def _rows_msg(rows: np.ndarray, fmt: str, values: Sequence[Any] | None = None) -> str:
    """``"row 3 = 'x', row 7 = 'y' (and 4 more) (rows numbered from 1 ...)"``."""
    rows = np.asarray(rows)
    shown = rows[:_SHOW].tolist()
    if values is None:
        items = ", ".join(str(r) for r in shown)
        head = "row" if len(rows) == 1 else "rows"
    else:
        items = ", ".join(f"{r} = {v!r}" for r, v in zip(shown, values[:_SHOW], strict=False))
        head = "row"
    more = f" and {len(rows) - len(shown)} more" if len(rows) > len(shown) else ""
    return f"{head} {items}{more} ({_row_note(fmt)})"


def _column_roles(columns: Mapping[str, str] | None, present: list[str]) -> dict[str, str]:
    columns = dict(columns or {})
    unknown = [k for k in columns if k not in ROLES]
    if unknown:
        raise ValidationError(
            f"columns= has unknown role(s) {', '.join(map(repr, unknown))}; roles are "
            f"{', '.join(ROLES)} (map role -> your column name, e.g. {{'model': 'llm'}})"
        )
    roles = {r: str(columns.get(r, r)) for r in ROLES}
    used = [roles[r] for r in ROLES if r in columns or r in _REQUIRED]
    dup = sorted({c for c in used if used.count(c) > 1})
    if dup:
        raise ValidationError(f"columns= maps several roles to the same column {dup[0]!r}")
    found = ", ".join(map(repr, present[:30])) + (" ..." if len(present) > 30 else "")
    missing = [r for r in _REQUIRED if roles[r] not in present]
    if missing:
        hints = []
        lower = {c.strip().lower(): c for c in present}
        for r in missing:
            guess = lower.get(roles[r].strip().lower()) or lower.get(r)
            if guess is not None:
                hints.append(f"{r!r}: {guess!r}")
        hint = (
            f"; did you mean columns={{{', '.join(hints)}}}?"
            if hints
            else "; rename them or map yours with columns={'model': '<your column>', ...}"
        )
        raise ValidationError(
            f"expected columns {', '.join(repr(roles[r]) for r in _REQUIRED)} (+ optional "
            f"{roles['decoding']!r}, {roles['benchmark']!r} and numeric signal columns); "
            f"missing {', '.join(repr(roles[r]) for r in missing)}; found {found}{hint}"
        )
    for r in ("decoding", "benchmark"):
        if roles[r] not in present:
            if r in columns:
                raise ValidationError(
                    f"columns= maps {r!r} to {roles[r]!r}, but there is no such column; "
                    f"found {found}"
                )
            del roles[r]
    return roles


def _unquote(s: pl.Series) -> pl.Series:
    """Undo the formula-defusing apostrophe that spreadsheets and :func:`save_table` add."""
    return s.str.replace(r"^'([=+\-@\t\r])", "$1")


def _text_column(df: pl.DataFrame, col: str, fmt: str) -> pl.Series:
    """A label column as strings, refusing nulls/blanks and nested values."""
    s = df.get_column(col)
    if s.dtype.is_nested():
        raise ValidationError(f"column {col!r} must hold text labels; got type {s.dtype}")
    s = s.cast(pl.String)
    blank = (s.is_null() | (s.str.strip_chars() == "")).to_numpy()
    if blank.any():
        rows = df.get_column(_ROW).to_numpy()[blank]
        raise ValidationError(f"column {col!r} is empty at {blank.sum()} {_rows_msg(rows, fmt)}")
    return _unquote(s) if fmt == "csv" else s


def _number_column(df: pl.DataFrame, col: str, fmt: str, what: str, *, whole: bool) -> np.ndarray:
    """A numeric column (integer, non-negative if ``whole``); bad cells are reported by row."""
    s = df.get_column(col)
    rows = df.get_column(_ROW)
    if s.dtype == pl.Boolean:
        s = s.cast(pl.Int64)
    elif s.dtype == pl.String:
        t = s.str.strip_chars().str.to_lowercase().replace({"true": "1", "false": "0"})
        num = t.cast(pl.Float64, strict=False)
        bad = (num.is_null() & s.is_not_null()).to_numpy()
        if bad.any():
            raise ValidationError(
                f"column {col!r} must hold {what}; found non-numeric value(s) at "
                f"{_rows_msg(rows.to_numpy()[bad], fmt, s.to_numpy()[bad].tolist())}"
            )
        s = num
    elif s.dtype == pl.Null:
        s = s.cast(pl.Float64)
    elif not s.dtype.is_numeric():
        raise ValidationError(f"column {col!r} must hold {what}; got values of type {s.dtype}")
    a = s.cast(pl.Float64).to_numpy()  # nulls -> NaN
    null = s.is_null().to_numpy()
    if null.any():
        raise ValidationError(
            f"column {col!r} must hold {what}; {null.sum()} cell(s) are empty/null at "
            f"{_rows_msg(rows.to_numpy()[null], fmt)}"
        )
    checks = [(~np.isfinite(a), "NaN/infinite")]
    if whole:
        checks += [(np.isfinite(a) & (a != np.round(a)), "fractional"), (a < 0, "negative")]
        checks += [(a > MAX_CATEGORY, f"implausibly large (> {MAX_CATEGORY})")]
    for bad, kind in checks:
        if bad.any():
            raise ValidationError(
                f"column {col!r} must hold {what}; found {kind} value(s) at "
                f"{_rows_msg(rows.to_numpy()[bad], fmt, a[bad].tolist())}"
            )
    return a.astype(np.int64) if whole else a


def _codes(s: pl.Series) -> tuple[list[str], np.ndarray]:
    """Distinct labels in order of first appearance and each row's code."""
    uniq = s.unique(maintain_order=True)
    codes = s.replace_strict(uniq, pl.Series(np.arange(len(uniq))), return_dtype=pl.Int64)
    return uniq.to_list(), codes.to_numpy()


def _from_frame(
    df: pl.DataFrame,
    fmt: str,
    label: str,
    columns: Mapping[str, str] | None,
    on_missing: str,
    name: str | None,
    weights: Sequence[float] | None,
    category_names: Sequence[str] | None,
) -> Outcomes:
    if on_missing not in _ON_MISSING:
        raise ValidationError(
            f"on_missing must be one of {', '.join(map(repr, _ON_MISSING))}; got {on_missing!r}"
        )
    roles = _column_roles(columns, df.columns)
    if df.height == 0:
        what = "only a header row" if fmt == "csv" else "no rows"
        raise ValidationError(
            f"the table has no data ({what}: columns {', '.join(map(repr, df.columns))}); "
            "expected one row per completion"
        )
    df = df.drop(_ROW, strict=False).with_row_index(_ROW, offset=0 if fmt == "frame" else 1)
    rows = df.get_column(_ROW).to_numpy()
    meta: dict[str, Any] = {"source_file": label, "format": fmt}

    # every column is checked as a whole; bad cells are reported by row number
    models, mi = _codes(_text_column(df, roles["model"], fmt))
    questions, qi = _codes(_text_column(df, roles["question"], fmt))
    outcome = _number_column(df, roles["outcome"], fmt, "integer categories 0..C", whole=True)
    trial = _number_column(df, roles["trial"], fmt, "numeric trial ids", whole=False)
    greedy = _greedy_rows(df, roles.get("decoding"), fmt)
    L, M = len(models), len(questions)
    if L * M > _MAX_PAIRS:
        raise ValidationError(
            f"{L:,} distinct models x {M:,} distinct questions is too many; check that "
            f"{roles['model']!r} and {roles['question']!r} are the right columns"
        )
    keys = pl.DataFrame({"m": mi, "q": qi, "g": greedy, "t": trial})
    _refuse_duplicates(keys, rows, models, questions, fmt)
    # position of each row within its (model, question, decoding) group, by trial value
    ti = (
        keys.select((pl.col("t").rank("ordinal").over(["m", "q", "g"]) - 1).cast(pl.Int64))
        .to_series()
        .to_numpy()
    )
    cnt = np.bincount((greedy * L + mi) * M + qi, minlength=2 * L * M).reshape(2, L, M)
    if cnt[0].max() == 0:
        raise ValidationError("every row has decoding 'greedy'; expected 'sample' rows to form R")
    keep, keep_q, N, D = _completeness(cnt, ti, qi, greedy, on_missing, models, questions, meta)
    if not keep_q.all():
        qi = (np.cumsum(keep_q) - 1)[qi]
        questions = [q for q, k in zip(questions, keep_q, strict=True) if k]
        M = len(questions)

    sample, prior = keep & ~greedy, keep & greedy
    R = np.zeros((L, M, N), dtype=np.int64)
    R[mi[sample], qi[sample], ti[sample]] = outcome[sample]
    R0 = None
    if D:
        R0 = np.zeros((L, M, D), dtype=np.int64)
        R0[mi[prior], qi[prior], ti[prior]] = outcome[prior]
    benchmarks = None
    if "benchmark" in roles:
        benchmarks = _benchmarks(df, roles["benchmark"], qi, keep, questions)

    signals: dict[str, np.ndarray] = {}
    ignored: list[str] = []
    for col in df.columns:
        if col in roles.values() or col == _ROW:
            continue
        vals = _signal_values(df, col, fmt)
        if vals is None:
            ignored.append(col)
            continue
        bad = sample & ~np.isfinite(vals)
        if bad.any():
            raise ValidationError(
                f"signal column {col!r} is empty/NaN on sample rows at "
                f"{_rows_msg(rows[bad], fmt)}; signals must be given for every completion"
            )
        signals[col] = np.zeros((L, M, N))
        signals[col][mi[sample], qi[sample], ti[sample]] = vals[sample]
    if ignored:
        meta["ignored_columns"] = ignored
    if columns:
        meta["columns"] = roles
    return Outcomes(
        R=R,
        R0=R0,
        weights=weights,
        category_names=category_names,
        models=models,
        questions=questions,
        benchmarks=benchmarks,
        signals=signals,
        name=name or Path(label).stem.strip("<>") or "dataset",
        metadata=meta,
    )


def _greedy_rows(df: pl.DataFrame, col: str | None, fmt: str) -> np.ndarray:
    """Boolean mask of ``decoding == "greedy"`` rows (case and spaces ignored)."""
    if col is None:
        return np.zeros(df.height, dtype=bool)
    raw = _unquote(df.get_column(col).cast(pl.String)) if fmt == "csv" else df[col]
    dec = raw.cast(pl.String).str.strip_chars().str.to_lowercase()
    bad = ~dec.is_in(["sample", "greedy"]).fill_null(False).to_numpy()
    if bad.any():
        vals = raw.cast(pl.String).to_numpy()[bad].tolist()
        raise ValidationError(
            f"column {col!r} must be 'sample' or 'greedy'; found "
            f"{_rows_msg(df.get_column(_ROW).to_numpy()[bad], fmt, vals)}"
        )
    return (dec == "greedy").to_numpy()


def _refuse_duplicates(
    keys: pl.DataFrame, rows: np.ndarray, models: list[str], questions: list[str], fmt: str
) -> None:
    """Each (model, question, decoding, trial) may appear once."""
    dup = keys.is_duplicated()
    if not dup.any():
        return
    d = (
        keys.with_columns(row=pl.Series(rows))
        .filter(dup)
        .group_by(["m", "q", "g", "t"], maintain_order=True)
        .agg(pl.col("row"))
    )
    shown = [
        f"({models[m]!r}, {questions[q]!r}, trial {_num(t)}{', greedy' if g else ''}) "
        f"at rows {', '.join(map(str, r[:_SHOW]))}"
        for m, q, g, t, r in d.head(_SHOW).iter_rows()
    ]
    raise ValidationError(
        f"{d.height} (model, question, trial) combination(s) appear more than once; each "
        f"completion must have its own trial id: {'; '.join(shown)} ({_row_note(fmt)})"
    )


def _completeness(
    cnt: np.ndarray,
    ti: np.ndarray,
    qi: np.ndarray,
    greedy: np.ndarray,
    on_missing: str,
    models: list[str],
    questions: list[str],
    meta: dict[str, Any],
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Apply ``on_missing`` to the per-(model, question) counts ``cnt`` (2, L, M).

    Returns the rows to keep, the questions to keep, ``N`` and ``D``; records what
    was dropped in ``meta``.
    """
    N, D = int(cnt[0].max()), int(cnt[1].max())
    short = (cnt[0] != N) | (cnt[1] != D)
    keep_q = np.ones(cnt.shape[2], dtype=bool)
    if not short.any():
        return np.ones(len(ti), dtype=bool), keep_q, N, D
    if on_missing == "error":
        raise ValidationError(_missing_msg(cnt, N, D, models, questions))
    if on_missing == "drop_questions":
        keep_q = ~short.any(axis=0)
        if not keep_q.any():
            raise ValidationError(
                f"on_missing='drop_questions' would drop all {len(questions)} questions: every "
                "question is incomplete for at least one model. "
                + _missing_msg(cnt, N, D, models, questions)
            )
        meta.update(
            on_missing="drop_questions",
            dropped_questions=[questions[q] for q in np.flatnonzero(~keep_q)],
            n_questions_found=len(questions),
        )
        return keep_q[qi], keep_q, N, D
    N_min, D_min = int(cnt[0].min()), int(cnt[1].min())
    if N_min == 0:
        raise ValidationError(
            "on_missing='truncate' cannot keep any trial: "
            + _missing_msg(cnt, N, D, models, questions)
            + " Use on_missing='drop_questions' instead."
        )
    keep = ti < np.where(greedy, D_min, N_min)
    meta.update(
        on_missing="truncate",
        truncated_to_N=N_min,
        max_N_found=N,
        dropped_completions=int((~keep & ~greedy).sum()),
    )
    if D:
        meta["truncated_to_D"] = D_min
        if D_min == 0:
            meta["R0_dropped"] = "some (model, question) pairs have no greedy rows"
    return keep, keep_q, N_min, D_min


def _signal_values(df: pl.DataFrame, col: str, fmt: str) -> np.ndarray | None:
    """A numeric/boolean extra column as floats, or ``None`` if it is to be ignored."""
    s = df.get_column(col)
    if _INDEX_COLUMN.match(col):
        return None
    if s.dtype in (pl.String, pl.Categorical):
        _refuse_almost_numeric(df, col, fmt)
        return None
    if not (s.dtype.is_numeric() or s.dtype == pl.Boolean):
        return None  # dates, lists, structs, all-null ...
    if not _SIGNAL_NAME.match(col):
        raise ValidationError(
            f"numeric column {col!r} would become a signal, but signal names must be "
            "letters, digits and '_' (not starting with a digit, at most 64); rename it"
        )
    return s.cast(pl.Float64).to_numpy()


def _num(t: float) -> str:
    return str(int(t)) if float(t).is_integer() else repr(t)


def _missing_msg(cnt: np.ndarray, N: int, D: int, models: list[str], questions: list[str]) -> str:
    L, M = cnt.shape[1:]
    parts = []
    short = np.argwhere(cnt[0] != N)
    if len(short):
        n_missing = int((N - cnt[0]).sum())
        eg = "; ".join(
            f"({models[m]!r}, {questions[q]!r}) has {cnt[0, m, q]} of {N}" for m, q in short[:_SHOW]
        )
        parts.append(
            f"{n_missing} of {L * M * N} (model, question, trial) cells are missing: "
            f"{len(short)} of {L * M} (model, question) pairs have fewer than N={N} trials "
            f"(N = the largest count found), e.g. {eg}"
        )
    short_g = np.argwhere(cnt[1] != D)
    if D and len(short_g):
        eg = "; ".join(
            f"({models[m]!r}, {questions[q]!r}) has {cnt[1, m, q]} of {D}"
            for m, q in short_g[:_SHOW]
        )
        parts.append(
            f"{len(short_g)} (model, question) pairs have fewer than D={D} greedy rows, e.g. {eg}"
        )
    return ". ".join(parts) + ". Fix the file or pass on_missing='drop_questions' or 'truncate'."


def _benchmarks(
    df: pl.DataFrame, col: str, qi: np.ndarray, keep: np.ndarray, questions: list[str]
) -> list[str]:
    """One benchmark label per kept question (blank cells are ignored)."""
    s = _unquote(df.get_column(col).cast(pl.String))
    pairs = (
        pl.DataFrame({"q": qi, "b": s})
        .filter(pl.Series(keep))
        .drop_nulls()
        .unique(maintain_order=True)
    )
    per_q = np.bincount(pairs.get_column("q").to_numpy(), minlength=len(questions))
    if (per_q > 1).any():
        bad = np.flatnonzero(per_q > 1)[:_SHOW]
        labels = pairs.group_by("q", maintain_order=True).agg(pl.col("b"))
        by_q = dict(labels.iter_rows())
        eg = "; ".join(f"{questions[q]!r}: {', '.join(map(repr, by_q[q]))}" for q in bad)
        raise ValidationError(
            f"column {col!r} must give one benchmark per question; "
            f"{int((per_q > 1).sum())} question(s) have several: {eg}"
        )
    if (per_q == 0).any():
        bad = np.flatnonzero(per_q == 0)[:_SHOW]
        raise ValidationError(
            f"column {col!r} is empty for every row of question(s) "
            f"{', '.join(repr(questions[q]) for q in bad)}; expected one benchmark per question"
        )
    out = np.empty(len(questions), dtype=object)
    out[pairs.get_column("q").to_numpy()] = pairs.get_column("b").to_list()
    return out.tolist()


def _refuse_almost_numeric(df: pl.DataFrame, col: str, fmt: str) -> None:
    """A text column whose values are mostly numbers is a broken signal column."""
    s = df.get_column(col).cast(pl.String)
    num = s.str.strip_chars().cast(pl.Float64, strict=False)
    present = s.is_not_null()
    n_present, n_num = int(present.sum()), int(num.is_not_null().sum())
    if n_present and n_num >= 0.5 * n_present and n_num < n_present:
        bad = (present & num.is_null()).to_numpy()
        rows = df.get_column(_ROW).to_numpy()[bad]
        raise ValidationError(
            f"column {col!r} looks numeric (a signal) but holds non-numbers at "
            f"{_rows_msg(rows, fmt, s.to_numpy()[bad].tolist())}; fix or remove those cells"
        )


# ----------------------------------------------------------------- writers
def _compact(a: np.ndarray) -> np.ndarray:
    return a.astype(np.min_scalar_type(int(a.max())))


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, set | tuple):
        return list(obj)
    return str(obj)


def save_npz(outcomes: Outcomes, path: str | os.PathLike | BinaryIO) -> None:
    """Write ``outcomes`` as a compressed ``.npz`` that :func:`load_npz` reads back.

    Parameters
    ----------
    outcomes : Outcomes
    path : str, PathLike or binary file object
        Written as given (no ``.npz`` suffix is appended).

    Examples
    --------
    >>> import io, numpy as np
    >>> o = Outcomes(np.array([[[1, 0], [0, 1]]]), models=["m"])
    >>> buf = io.BytesIO()
    >>> save_npz(o, buf)
    >>> load_npz(buf.getvalue(), filename="m.npz").models
    ('m',)
    """
    o = outcomes
    arrays: dict[str, np.ndarray] = {
        "R": _compact(o.R),
        "models": np.array(o.models, dtype=str),
        "questions": np.array(o.questions, dtype=str),
        "category_names": np.array(o.category_names, dtype=str),
        "weights": np.asarray(o.weights, dtype=float),
    }
    if o.R0 is not None:
        arrays["R0"] = _compact(o.R0)
    if o.benchmarks is not None:
        arrays["benchmarks"] = np.array(o.benchmarks, dtype=str)
    for key, val in o.signals.items():
        arrays[f"signal__{key}"] = np.asarray(val, dtype=float)
    meta = {k: v for k, v in o.metadata.items() if k not in ("source_file", "format")}
    meta["name"] = o.name
    arrays["meta_json"] = np.array(json.dumps(meta, default=_json_default))
    if hasattr(path, "write"):
        np.savez_compressed(path, **arrays)
    else:
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)


def to_long_frame(outcomes: Outcomes) -> pl.DataFrame:
    """The long table of ``outcomes``: one row per completion.

    Columns ``model, question, trial, outcome``, then ``decoding`` (only when ``R0``
    is present; greedy rows come after the sample rows and use trial ``0..D-1``),
    ``benchmark`` (when present) and one float column per signal (null on greedy
    rows). A shared ``(M, D)`` ``R0`` is written once per model.

    Examples
    --------
    >>> import numpy as np
    >>> o = Outcomes(np.array([[[1, 0]]]), models=["m"], questions=["q"])
    >>> to_long_frame(o).rows()
    [('m', 'q', 0, 1), ('m', 'q', 1, 0)]
    """
    o = outcomes
    models = pl.Series(list(o.models), dtype=pl.String)
    questions = pl.Series(list(o.questions), dtype=pl.String)
    benchmarks = None if o.benchmarks is None else pl.Series(list(o.benchmarks), dtype=pl.String)

    def block(R: np.ndarray, decoding: str) -> pl.DataFrame:
        L, M, N = R.shape
        m = np.repeat(np.arange(L), M * N)
        q = np.tile(np.repeat(np.arange(M), N), L)
        cols: dict[str, Any] = {
            "model": models.gather(m),
            "question": questions.gather(q),
            "trial": pl.Series(np.tile(np.arange(N, dtype=np.int64), L * M)),
            "outcome": pl.Series(R.reshape(-1).astype(np.int64)),
        }
        if o.R0 is not None:
            cols["decoding"] = pl.Series([decoding], dtype=pl.String).gather(np.zeros_like(m))
        if benchmarks is not None:
            cols["benchmark"] = benchmarks.gather(q)
        for key, val in o.signals.items():
            cols[key] = (
                pl.Series(val.reshape(-1), dtype=pl.Float64)
                if decoding == "sample"
                else pl.Series([None] * len(m), dtype=pl.Float64)
            )
        return pl.DataFrame(cols)

    frame = block(o.R, "sample")
    if o.R0 is not None:
        frame = pl.concat([frame, block(np.asarray(o.R0_per_model), "greedy")], how="vertical")
    return frame


def save_table(
    outcomes: Outcomes, path: str | os.PathLike | BinaryIO, *, format: str | None = None
) -> None:
    """Write :func:`to_long_frame` as CSV, Parquet or JSONL (by suffix or ``format``).

    CSV text cells that a spreadsheet would run as a formula get a leading ``'``
    (see :func:`safe_csv_cell`); :func:`load_table` removes it again.
    Weights and category names are not stored in tables: pass ``weights=`` when
    loading, or use :func:`save_npz`.

    Examples
    --------
    >>> import io, numpy as np
    >>> o = Outcomes(np.array([[[1, 0]]]), models=["m"])
    >>> buf = io.BytesIO()
    >>> save_table(o, buf, format="csv")
    >>> buf.getvalue().decode().splitlines()[0]
    'model,question,trial,outcome'
    """
    if format is not None:
        fmt = ACCEPTED_SUFFIXES.get("." + str(format).lower().lstrip("."))
    elif hasattr(path, "write"):
        raise ValidationError("pass format= when writing to a file object")
    else:
        fmt = ACCEPTED_SUFFIXES.get(Path(path).suffix.lower())
    if fmt is None or fmt == "npz":
        raise ValidationError(
            f"cannot write a table to {path!r} (format={format!r}); use a .csv, .parquet, "
            ".pq, .jsonl or .ndjson suffix (or save_npz for .npz)"
        )
    df = to_long_frame(outcomes)
    if fmt == "csv":
        df.with_columns(_safe_expr(pl.col(pl.String))).write_csv(path)
    elif fmt == "parquet":
        df.write_parquet(path)
    else:
        df.write_ndjson(path)


# ------------------------------------------------------------ CSV safety
def safe_csv_cell(s: str) -> str:
    """Defuse a spreadsheet formula: prefix ``'`` when ``s`` starts with ``= + - @``, tab or CR.

    Examples
    --------
    >>> safe_csv_cell('=HYPERLINK("http://x")'), safe_csv_cell("gpt-4")
    ('\\'=HYPERLINK("http://x")', 'gpt-4')
    """
    if isinstance(s, str) and s.startswith(_FORMULA_CHARS):
        return "'" + s
    return s


def _safe_expr(col: pl.Expr) -> pl.Expr:
    return col.str.replace(_FORMULA_RE, "'$1")


def to_safe_csv(df: Any) -> str:
    """CSV text of a pandas or polars DataFrame with every string cell made formula-safe.

    Column names are defused too. A pandas index that carries information (a
    named or non-default index) is written as a column.

    Examples
    --------
    >>> import polars as pl
    >>> print(to_safe_csv(pl.DataFrame({"model": ["=1+1", "ok"], "score": [-1.5, 2.0]})), end="")
    model,score
    '=1+1,-1.5
    ok,2.0
    """
    if isinstance(df, pl.DataFrame):
        cat = [c for c, t in df.schema.items() if t in (pl.Categorical,) or isinstance(t, pl.Enum)]
        out = df.with_columns(pl.col(cat).cast(pl.String)).with_columns(
            _safe_expr(pl.col(pl.String))
        )
        out = out.rename({c: safe_csv_cell(c) for c in out.columns})
        return out.write_csv()
    if _is_frame(df):
        import pandas as pd

        d = df.copy()
        if not isinstance(d.index, pd.RangeIndex) or d.index.name is not None:
            d = d.reset_index()
        for c in d.columns:
            s = d[c]
            if isinstance(s.dtype, pd.CategoricalDtype):
                s = s.astype(object)
            if s.dtype == object or pd.api.types.is_string_dtype(s.dtype):
                d[c] = s.map(safe_csv_cell)
        d.columns = [safe_csv_cell(str(c)) for c in d.columns]
        return d.to_csv(index=False, lineterminator="\n")
    raise TypeError(f"to_safe_csv expects a pandas or polars DataFrame; got {type(df).__name__}")
