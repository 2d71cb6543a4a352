"""Long tables (CSV, Parquet, JSONL, DataFrames): one row per completion; writers and CSV safety."""

from __future__ import annotations

import csv
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from .._lazy import lazy_module
from .._validation import ValidationError, checked_keywords
from ..outcomes import UNNAMED_FRAME, Outcomes
from ._assemble import ROLES, _from_frame
from ._base import (
    ACCEPTED_SUFFIXES,
    MAX_BYTES,
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_TABLE_CELLS,
    SPREADSHEET_HINT,
    Source,
    _format_of,
    _reported_as,
    _resolve,
    _sniff,
    _Src,
    spreadsheet_kind,
)
from .options import OPTION_NAMES, LoadOptions, as_asked, options_from

if TYPE_CHECKING:
    import polars as pl
else:  # polars loads with the first table read, not with `import scorio_core.io`
    pl = lazy_module("polars")

__all__ = [
    "load_table",
    "table_columns",
    "save_table",
    "to_long_frame",
    "safe_csv_cell",
    "to_safe_csv",
]

_FORMULA_CHARS = ("=", "+", "-", "@", "\t", "\r")
_FORMULA_RE = r"^([=+\-@\t\r])"


def _is_frame(obj: Any) -> bool:
    # a polars frame exists only once polars is imported: a file path never loads it
    polars = sys.modules.get("polars")
    if polars is not None and isinstance(obj, polars.DataFrame):
        return True
    return type(obj).__name__ == "DataFrame" and type(obj).__module__.startswith("pandas")


@checked_keywords(also=OPTION_NAMES)
def load_table(
    source: Source | pl.DataFrame,
    options: LoadOptions | None = None,
    *,
    filename: str | None = None,
    **option_values: Any,
) -> Outcomes:
    """Load a long table (CSV, Parquet, JSONL or a DataFrame): one row per completion.

    Parameters
    ----------
    source : str, PathLike, bytes, binary file object, polars or pandas DataFrame
        The table.
    options : LoadOptions, optional
        How to read it; keywords (``columns=``, ``on_missing=``, ...) override its fields.
    filename
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
    weights : sequence of float, optional
        One weight per category ``0..C``; needed when an integer outcome is above 1.
    score_range : (float, float), optional
        The scale ``(LO, HI)`` of graded outcomes, e.g. ``(0, 10)``: each distinct value
        in it becomes a category named by the value and weighted
        ``(value - LO) / (HI - LO)``; a value outside it is an error naming its row.
        Not together with ``weights``.

    Returns
    -------
    Outcomes
        Models and questions in order of first appearance; trials sorted by the
        ``trial`` value within each (model, question). ``decoding == "greedy"``
        rows form ``R0`` of shape ``(L, M, D)``.

    Notes
    -----
    * ``outcome`` holds integer categories ``0..C`` (binary: 0 wrong, 1 correct;
      whole-number floats and booleans -- ``true``/``false`` in any case -- too) or
      graded scores. Grades in [0, 1] with some fractional value (0.25, 0.5, ...) load
      as one category per distinct value, weighted by the value, so the mean score is
      the mean grade (as graded log scores do; at most 21 levels). Grades on another
      scale need ``score_range``; they are never guessed. Null, NaN, negative or
      non-numeric values, and fractional values outside [0, 1] without
      ``score_range``, are refused with their row numbers. ``metadata["score_range"]``
      records the scale ``[LO, HI]`` of graded outcomes.
    * Other numeric or boolean columns become signals (their names must be
      letters, digits and ``_``; values are read from the sample rows; an empty cell
      is a missing value, NaN, counted in the validation report). Text columns (e.g.
      the completion itself) are ignored and listed in ``metadata["ignored_columns"]``,
      unless most of their values are numbers -- then the non-numbers are reported as an
      error, since that is almost always a typo in a signal column. Pandas index columns ("",
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
    >>> sc.io.load_table(df, columns={"model": "llm"}).R[:, 0].tolist()
    [[0, 1], [1, 1]]
    >>> graded = df.with_columns(pl.Series("outcome", [7, 3, 10, 5]))
    >>> o = sc.io.load_table(graded, columns={"model": "llm"}, score_range=(0, 10))
    >>> o.category_names, o.weights.tolist()
    (('0', '3', '5', '7', '10'), [0.0, 0.3, 0.5, 0.7, 1.0])
    """
    opts = options_from(options, option_values)
    if _is_frame(source):
        df = source if isinstance(source, pl.DataFrame) else _from_pandas(source)
        label = filename or f"<{UNNAMED_FRAME}>"  # named so without name= (Outcomes.unnamed)
        with _reported_as(label):
            return as_asked(_from_frame(df, "frame", label, opts, grades=True), opts)
    src = _resolve(source, filename, opts.max_bytes)
    fmt = _format_of(src, opts.format, tables=True)
    if fmt == "npz":
        raise ValidationError(f"{src.label}: an .npz archive is not a table; use load or load_npz")
    with _reported_as(src.label):
        return as_asked(_load_table(src, fmt, opts), opts)


@checked_keywords
def table_columns(
    source: Source, *, filename: str | None = None, max_bytes: int = MAX_BYTES
) -> list[str] | None:
    """The column names of a long table, or ``None`` if ``source`` is not a table.

    Reads only the header (CSV), the schema (Parquet) or the first object (JSONL), so
    an app can offer a column mapping (``columns=`` of :func:`load_table`) before loading.

    Examples
    --------
    >>> sc.io.table_columns(b"llm,item,sample,score\\nA,q1,0,1\\n", filename="x.csv")
    ['llm', 'item', 'sample', 'score']
    >>> sc.io.table_columns(b"PK\\x03\\x04...", filename="x.npz") is None
    True
    """
    src = _resolve(source, filename, max_bytes)
    try:
        fmt = _format_of(src, None)
    except ValidationError:
        return None
    try:
        if fmt == "csv":
            src = _lf_lines(src)
        with src.open() as fh:
            if fmt == "csv":
                return pl.read_csv(fh, n_rows=1, infer_schema_length=0).columns
            if fmt == "parquet":
                return list(pl.read_parquet_schema(fh))
            if fmt == "jsonl":
                for line in fh:
                    if line.strip():
                        obj = json.loads(line)
                        return list(obj) if isinstance(obj, dict) else None
    except (ValueError, UnicodeDecodeError, RecursionError, pl.exceptions.PolarsError):
        return None
    return None


def _from_pandas(df: Any) -> pl.DataFrame:
    try:
        return pl.from_pandas(df, include_index=False)
    except Exception as exc:  # pyarrow conversion of odd object columns
        raise ValidationError(f"could not convert the pandas DataFrame ({exc})") from None


def _load_table(
    src: _Src,
    fmt: str,
    opts: LoadOptions,
) -> Outcomes:
    columns = opts.column_map()
    kind = _sniff(src.head, src)
    if fmt == "parquet" and not src.head.startswith(b"PAR1"):
        raise ValidationError(
            f"not a Parquet file (it does not start with b'PAR1'; it starts with {src.head!r})"
        )
    if fmt != "parquet" and kind:
        hint = f"; {SPREADSHEET_HINT}" if spreadsheet_kind(kind) else ""
        raise ValidationError(
            f"expected a {fmt.upper()} text file, but this looks like {kind}{hint}"
        )
    if fmt == "csv":
        src = _lf_lines(src)
    if fmt != "parquet":
        _check_text(src)
    roles = {r: str((columns or {}).get(r, r)) for r in ROLES}
    try:
        _check_size(src, fmt)
        with src.open() as fh:
            if fmt == "csv":
                text = {  # trial ids too: polars would read ids past 2**63 as floats or i128
                    roles[r]: pl.String
                    for r in ("model", "question", "trial", "decoding", "benchmark")
                }
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
    return _from_frame(df, fmt, src.label, opts, grades=True)


def _lf_lines(src: _Src) -> _Src:
    """``src`` with old-Mac line endings (CR only, as Excel's "CSV (Macintosh)" writes them)
    turned into LF: polars and the csv module read CR-only text as one long line."""
    if src.data is not None:
        block = src.data[:65536]
    else:
        with src.path.open("rb") as fh:
            block = fh.read(65536)
    if b"\r" not in block or b"\n" in block:
        return src
    data = src.read()
    if b"\n" in data:  # LF further down: mixed endings, leave them to the parser
        return src
    return _Src(src.label, data=data.replace(b"\r", b"\n"), head=src.head)


def _count_lines(src: _Src) -> int:
    """Physical lines of a text file (an upper bound on its rows), counted without decoding."""
    if src.data is not None:
        return src.data.count(b"\n") + (not src.data.endswith(b"\n"))
    n, last = 0, b"\n"
    with src.path.open("rb") as fh:
        while chunk := fh.read(2**24):
            n += chunk.count(b"\n")
            last = chunk[-1:]
    return n + (last != b"\n")


def _first_line(src: _Src) -> bytes:
    with src.open() as fh:
        return fh.readline(2**20)


# a JSON string followed by ':' -- an object key (nested keys count too: an upper bound)
_JSON_KEY = r'"((?:[^"\\]|\\.)*)"\s*:'


def _jsonl_keys(src: _Src) -> list[str]:
    """The distinct object keys of a JSONL file (the columns polars would make), found by a
    linear scan; polars' own schema inference costs rows x distinct keys, so a file whose
    every line adds a key would take hours. Refuses more than :data:`MAX_COLUMNS`."""
    with src.open() as fh:
        try:  # each line as one string column (no separator or quote splits it)
            keys = (
                pl.scan_csv(fh, has_header=False, separator="\x01", quote_char=None,
                            new_columns=["line"], infer_schema=False,
                            truncate_ragged_lines=True)  # fmt: skip
                .select(pl.col("line").str.extract_all(_JSON_KEY).list.unique().explode())
                .unique()
                .head(MAX_COLUMNS + 1)
                .collect()
                .to_series()
                .drop_nulls()
                .to_list()
            )
        except (pl.exceptions.PolarsError, pl.exceptions.PanicException):
            return []  # not text: read_ndjson reports it
    if len(keys) > MAX_COLUMNS:
        raise ValidationError(
            f"the objects use more than {MAX_COLUMNS:,} distinct keys (columns), more than "
            "allowed (scorio_core.io.MAX_COLUMNS); a long table has a few columns per completion"
        )
    return keys


def _header_names(src: _Src, fmt: str) -> list[str] | None:
    """The column names as written in the file (CSV header, keys of the first JSON object)."""
    line = _first_line(src).decode("utf-8", errors="replace")
    if fmt == "csv":
        return next(csv.reader([line.rstrip("\r\n")]), [])
    if fmt == "jsonl" and line.lstrip().startswith("{"):
        try:  # pairs, not a dict: a dict would silently keep the last of two equal keys
            pairs = json.loads(line, object_pairs_hook=lambda kv: kv)
        except (ValueError, RecursionError):
            return None  # polars reports the broken line
        return [k for k, _ in pairs]
    return None


def _check_size(src: _Src, fmt: str) -> None:
    """Refuse tables over :data:`MAX_ROWS` rows or :data:`MAX_TABLE_CELLS` cells, and
    duplicated column names, before the table is parsed."""
    with src.open() as fh:
        if fmt == "parquet":
            rows = pl.scan_parquet(fh).select(pl.len()).collect().item()
            fh.seek(0)
            names = list(pl.read_parquet_schema(fh))
            what = f"{rows:,} rows (from its metadata)"
        elif fmt == "csv":
            rows = max(_count_lines(src) - 1, 0)
            names = _header_names(src, fmt) or []
            what = f"{rows:,} lines below the header"
        else:
            rows = _count_lines(src)
            names = _jsonl_keys(src) if rows <= MAX_ROWS else []
            what = f"{rows:,} lines"
    if rows > MAX_ROWS:
        raise ValidationError(
            f"the table has {what}, more than the {MAX_ROWS:,} rows allowed "
            "(scorio_core.io.MAX_ROWS); refusing to load it"
        )
    if rows * len(names) > MAX_TABLE_CELLS:
        raise ValidationError(
            f"the table has {what} x {len(names):,} columns, more than the "
            f"{MAX_TABLE_CELLS:,} cells allowed (scorio_core.io.MAX_TABLE_CELLS); refusing to "
            "load it"
        )
    written = _header_names(src, fmt) if fmt == "jsonl" else names
    seen: set[str] = set()
    for c in written or []:
        if c in seen:
            where = "the header" if fmt == "csv" else "the first object" if fmt == "jsonl" else ""
            raise ValidationError(
                f"column {c!r} appears more than once in {where or 'the schema'}; each column "
                "name must be unique (rename or remove the copy)"
            )
        seen.add(c)


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
                except (ValueError, RecursionError) as err:
                    return f"line {i} is not a JSON object ({err}): {line[:80]!r}"
    what = {"csv": "CSV", "parquet": "Parquet", "jsonl": "JSONL (one JSON object per line)"}[fmt]
    return f"could not parse the file as {what}: {msg}"


@checked_keywords
def to_long_frame(outcomes: Outcomes) -> pl.DataFrame:
    """The long table of ``outcomes``: one row per completion.

    Columns ``model, question, trial, outcome``, then ``decoding`` (only when ``R0``
    is present; greedy rows come after the sample rows and use trial ``0..D-1``),
    ``benchmark`` (when present), one text column per question attribute (null where a
    question has no value) and one float column per signal (null on greedy rows and
    where the value is missing). A shared ``(M, D)`` ``R0`` is written once per model.
    Sample rows carry the file's own trial ids when the loader kept them
    (``metadata["trial_ids"]``), else ``0..N-1``.

    Examples
    --------
    >>> import numpy as np
    >>> o = sc.Outcomes(np.array([[[1, 0]]]), models=["m"], questions=["q"])
    >>> sc.io.to_long_frame(o).rows()
    [('m', 'q', 0, 1), ('m', 'q', 1, 0)]
    """
    o = outcomes
    if o.parts:  # benchmarks with different trials: each with all of its trials
        return pl.concat([to_long_frame(p) for p in o.parts.values()], how="diagonal_relaxed")
    models = pl.Series(list(o.models), dtype=pl.String)
    questions = pl.Series(list(o.questions), dtype=pl.String)
    benchmarks = None if o.benchmarks is None else pl.Series(list(o.benchmarks), dtype=pl.String)

    ids = np.asarray(o.metadata.get("trial_ids", []))  # the file's own trial ids, if kept
    if ids.shape != (o.N,) or ids.dtype.kind not in "iuf":
        ids = np.arange(o.N, dtype=np.int64)

    def block(R: np.ndarray, decoding: str) -> pl.DataFrame:
        L, M, N = R.shape
        m = np.repeat(np.arange(L), M * N)
        q = np.tile(np.repeat(np.arange(M), N), L)
        cols: dict[str, Any] = {
            "model": models.gather(m),
            "question": questions.gather(q),
            "trial": pl.Series(np.tile(ids if decoding == "sample" else np.arange(N), L * M)),
            "outcome": pl.Series(R.reshape(-1).astype(np.int64)),
        }
        if o.R0 is not None:
            cols["decoding"] = pl.Series([decoding], dtype=pl.String).gather(np.zeros_like(m))
        if benchmarks is not None:
            cols["benchmark"] = benchmarks.gather(q)
        for key, vals in o.question_attributes.items():
            cols[key] = pl.Series([v or None for v in vals], dtype=pl.String).gather(q)
        for key, val in o.signals.items():
            cols[key] = (
                pl.Series(val.reshape(-1), dtype=pl.Float64, nan_to_null=True)
                if decoding == "sample"
                else pl.Series([None] * len(m), dtype=pl.Float64)
            )
        return pl.DataFrame(cols)

    frame = block(o.R, "sample")
    if o.R0 is not None:
        frame = pl.concat([frame, block(np.asarray(o.R0_per_model), "greedy")], how="vertical")
    return frame


@checked_keywords
def save_table(
    outcomes: Outcomes, path: str | os.PathLike | BinaryIO, *, format: str | None = None
) -> None:
    """Write :func:`to_long_frame` as CSV, Parquet or JSONL (by suffix or ``format``).

    CSV text cells that a spreadsheet would run as a formula get a leading ``'``
    (see :func:`safe_csv_cell`); :func:`load_table` removes it again.
    Weights and category names are not stored in tables: pass ``weights=`` when
    loading, or use :func:`save_npz`. Graded outcomes (loaded with ``score_range`` or
    from fractional grades) are written as their category codes ``0..C`` too, not as
    the grades.

    Examples
    --------
    >>> import io, numpy as np
    >>> o = sc.Outcomes(np.array([[[1, 0]]]), models=["m"])
    >>> buf = io.BytesIO()
    >>> sc.io.save_table(o, buf, format="csv")
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
@checked_keywords
def safe_csv_cell(s: str) -> str:
    """Defuse a spreadsheet formula: prefix ``'`` when ``s`` starts with ``= + - @``, tab or CR.

    Examples
    --------
    >>> sc.io.safe_csv_cell('=HYPERLINK("http://x")'), sc.io.safe_csv_cell("gpt-4")
    ('\\'=HYPERLINK("http://x")', 'gpt-4')
    """
    if isinstance(s, str) and s.startswith(_FORMULA_CHARS):
        return "'" + s
    return s


def _safe_expr(col: pl.Expr) -> pl.Expr:
    return col.str.replace(_FORMULA_RE, "'$1")


@checked_keywords
def to_safe_csv(df: Any) -> str:
    """CSV text of a pandas or polars DataFrame with every string cell made formula-safe.

    Column names are defused too. A pandas index that carries information (a
    named or non-default index) is written as a column.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"model": ["=1+1", "ok"], "score": [-1.5, 2.0]})
    >>> print(sc.io.to_safe_csv(df), end="")
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
