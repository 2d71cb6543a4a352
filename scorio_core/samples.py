"""The sample store: each completion's text, beside the outcome tensor (SPEC §8 "Samples").

Importers keep what a log or a long table says about each completion -- the input, the
target, the model's output, the extracted answer, the scorer's explanation, the sample's
metadata, an error -- keyed by ``(model, question, trial)``, where ``trial`` is the
position of the completion in ``Outcomes.R`` (``0..N-1``; null for a completion that is
not in the tensor, e.g. an errored sample) and ``trial_id`` the file's own id (an Inspect
epoch, an lm-eval repeat). A long table's store has a row for every trial of ``R`` (its
text cells null where the file has none); a log's, for every record with text. The rows
live in Parquet files on disk, sorted by question in small row groups, so
:meth:`SampleStore.for_question` reads only the row groups of one question: a large log
folder never has every string in memory at once. They are written so too: only the keys
are sorted, and the texts go to the file a band of row groups at a time
(:data:`BAND_BYTES`).

A :class:`SampleStore` is a small picklable handle (file paths, the text columns, the row
count); :attr:`scorio_core.outcomes.Outcomes.samples` holds one, or ``None`` for data
without text (an ``.npz``, a table without text columns).

Lifetime: the files an importer writes live in a directory of their own under this
process's temporary root, owned by a small object every in-process handle on them holds
(copies, ``Outcomes`` copies, and handles unpickled in this process re-attach to it by
path). When the last such handle is gone the directory is removed, so a long-running
server does not accumulate the stores of datasets nobody holds; the root goes at exit as
a backstop. Handles in other processes (Dask workers) never delete anything, and a store
opened on a user's file (:meth:`SampleStore.open`) is never deleted. Text from logs is
untrusted:
renderers escape it (HTML, Markdown) and CSV exports defuse formulas
(:func:`scorio_core.io.safe_csv_cell`).

Example
-------
>>> from scorio_core.samples import SampleStore
>>> import polars as pl
>>> store = SampleStore.from_frame(pl.DataFrame({
...     "model": ["a", "a", "b"], "question": ["q1", "q1", "q1"], "trial": [0, 1, 0],
...     "output": ["4", "five", "4"]}))
>>> store.for_question("q1", models=["b"]).select("model", "trial", "output").rows()
[('b', 0, '4')]
>>> len(store), store.columns
(3, ('output',))
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import tempfile
import uuid
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._lazy import lazy_module
from ._validation import ValidationError

if TYPE_CHECKING:
    import numpy as np
    import polars as pl
else:  # polars (and numpy) load with the first store read or written
    np = lazy_module("numpy")
    pl = lazy_module("polars")

__all__ = ["SampleStore", "SampleWriter", "TEXT_COLUMNS", "KEY_COLUMNS", "MAX_TEXT", "as_text",
           "one_line", "SAMPLES_SUFFIX", "beside"]

#: The text fields importers fill when the source has them, in display order: the question
#: (``input``), its expected answer, the model's reasoning (thinking text) and output, the
#: answer extracted, a multiple-choice question's options with the model's score of each
#: (``choices``: lm-eval's loglikelihoods), the scorer's explanation, annotations (e.g. a
#: judge's verdicts), the sample's metadata, an error, and the full prompt sent when it is
#: more than the input (e.g. with in-context examples).
TEXT_COLUMNS = ("input", "target", "reasoning", "output", "answer", "choices", "explanation",
                "annotations", "metadata", "error", "prompt")
#: The key of every row: model, question, position in ``R`` (null: not in the tensor), the
#: file's own trial id (as text), and where the completion was read (file and member/line).
KEY_COLUMNS = ("model", "question", "trial", "trial_id", "source")
#: Longest text kept per cell (characters); longer text is cut with a note at its end.
MAX_TEXT = 100_000
#: Name ending of a store written beside an exported dataset (``runs.parquet`` ->
#: ``runs.samples.parquet``); the loader attaches it to that file and never reads it as data.
SAMPLES_SUFFIX = ".samples.parquet"
#: Rows per Parquet row group: a question's rows lie in one or two groups of a file.
ROW_GROUP = 2048
#: Text held at once while a store file is assembled (bytes, about): the rows' keys alone
#: are sorted, and the file is written a band of whole row groups of this size at a time
#: (the store of a 372 MiB HELM scenario_state.json with 3,000-character prompts: +290 MiB
#: peak when its texts were sorted at once, +500 MiB for twice the texts; in bands of 32 MiB
#: about +140 and +160 MiB).
BAND_BYTES = 32 * 2**20
_RUN_GROUP = 256  # rows per row group of an assembly's scratch runs (a band reads whole groups)
_CUT = "\n[... cut: {n:,} more characters not kept by the sample store]"
_CUT_END = re.compile(r"\n\[\.\.\. cut: [\d,]+ more characters not kept by the sample store\]\Z")

_ROOT: list[Path] = []  # this process's directory of store files, removed at exit
#: Live owners of store directories in this process, by directory path.
_OWNERS: weakref.WeakValueDictionary[str, _Owner] = weakref.WeakValueDictionary()


def _remove(path: str, pid: int) -> None:
    if os.getpid() == pid:  # never from a forked child that inherited the owner
        shutil.rmtree(path, ignore_errors=True)


class _Owner:
    """Owns one store directory: removes it when the last reference goes (or at exit)."""

    __slots__ = ("path", "__weakref__")

    def __init__(self, path: Path) -> None:
        self.path = str(path)
        weakref.finalize(self, _remove, self.path, os.getpid())
        _OWNERS[self.path] = self


def _owners_of(files: Iterable[str]) -> tuple[_Owner, ...]:
    """The live owners of the directories holding ``files`` (none for a user's file)."""
    found = (_OWNERS.get(str(Path(f).parent)) for f in files)
    return tuple({id(o): o for o in found if o is not None}.values())


def _root() -> Path:
    if not _ROOT:
        root = Path(tempfile.mkdtemp(prefix="scorio-samples-"))
        atexit.register(shutil.rmtree, root, True)
        _ROOT.append(root)
    return _ROOT[0]


def as_text(value: Any) -> str | None:
    """A log value as display text: strings as they are, chat messages as ``role: content``
    lines, other values as JSON; cut at :data:`MAX_TEXT` characters with a note saying how
    many were left out. A text it cut is returned as it is (an importer may cut early, to
    hold less, and the store then keeps the same text).

    Examples
    --------
    >>> from scorio_core.samples import as_text
    >>> as_text([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Yo"}])
    'user: Hi\\nassistant: Yo'
    >>> as_text({"b": 1}), as_text(None), as_text(3)
    ('{"b": 1}', None, '3')
    """
    if value is None:
        return None
    if isinstance(value, str):
        text = value
    elif isinstance(value, list) and value and all(
        isinstance(m, dict) and "role" in m for m in value
    ):
        text = "\n".join(f"{m.get('role')}: {_content(m.get('content'))}" for m in value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            text = str(value)
    if len(text) > MAX_TEXT and not _CUT_END.match(text, MAX_TEXT):
        text = text[:MAX_TEXT] + _CUT.format(n=len(text) - MAX_TEXT)
    return text


_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x20), *range(0x7F, 0xA0)]} | {
    0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"}


def one_line(text: Any) -> Any:
    """Text for a terminal or a one-line cell: line breaks and other control characters
    (e.g. the ANSI escapes a log may hold) spelled out; other values unchanged.

    Example
    -------
    >>> from scorio_core.samples import one_line
    >>> one_line("a\\nb\\x1b[31m")
    'a\\\\nb\\\\x1b[31m'
    """
    return text.translate(_CONTROL) if isinstance(text, str) else text


def _content(content: Any) -> str:
    """A chat message's content: text, or the text parts of a content list."""
    if isinstance(content, list):
        return " ".join(
            str(c.get("text", "")) if isinstance(c, dict) else str(c) for c in content
        ).strip()
    return "" if content is None else str(content)


class SampleStore:
    """Read-only handle on the completion texts of a dataset (see the module docstring).

    Parameters
    ----------
    files : sequence of path
        Parquet files with the :data:`KEY_COLUMNS` (``trial_id``/``source`` optional) and
        text columns, each sorted by question.
    columns : sequence of str
        The text columns that hold a value somewhere (display order).
    n_rows : int
        Completions in the store.
    """

    __slots__ = ("files", "columns", "n_rows", "_owners")

    def __init__(self, files: Sequence[str | Path], columns: Sequence[str], n_rows: int) -> None:
        self.files = tuple(str(f) for f in files)
        self.columns = tuple(columns)
        self.n_rows = int(n_rows)
        self._owners = _owners_of(self.files)  # keeps this process's store files alive

    def __getstate__(self):
        return {"files": self.files, "columns": self.columns, "n_rows": self.n_rows}

    def __setstate__(self, state):
        for k, v in state.items():
            object.__setattr__(self, k, v)
        self._owners = _owners_of(self.files)  # unpickled here: the same files, kept alive

    def __len__(self) -> int:
        return self.n_rows

    def __repr__(self) -> str:
        return (f"SampleStore({self.n_rows:,} completions, text columns: "
                f"{', '.join(self.columns) or 'none'})")

    # ------------------------------------------------------------------ reading
    def scan(self) -> pl.LazyFrame:
        """Every row, lazily (a polars ``LazyFrame`` over the Parquet files): the key
        columns, then the text columns in display order. The files need not hold the same
        columns -- one model's log has an ``error`` column, another's none; one benchmark
        has ``reasoning`` -- so the frame has every column of any file, null in the rows of
        a file without it. Every reader of the store reads through here.

        (``scan_parquet`` over the files at once takes its schema from the first file:
        a column only a later file has stopped every read with a ``SchemaError``.)

        Example
        -------
        >>> from scorio_core.samples import SampleWriter, pl
        >>> w = SampleWriter()
        >>> w.add(pl.DataFrame({"model": ["a"], "question": ["1"], "trial": [0],
        ...                     "output": ["4"]}))
        >>> w.add(pl.DataFrame({"model": ["b"], "question": ["1"], "trial": [None],
        ...                     "output": [None], "error": ["timeout"]}))
        >>> w.store().scan().select("model", "output", "error").collect().rows()
        [('a', '4', None), ('b', None, 'timeout')]
        """
        missing = [f for f in self.files if not Path(f).is_file()]
        if missing:
            raise ValidationError(
                f"the sample store's file {missing[0]} is gone: a store's files are removed "
                "when no handle on them is left in the process that loaded the data (or at "
                "its exit); load the data again"
            )
        scans = [pl.scan_parquet(f) for f in self.files]
        # the union of the files' columns (a file's predicate still prunes its row groups)
        lf = scans[0] if len(scans) == 1 else pl.concat(scans, how="diagonal_relaxed")
        names = lf.collect_schema().names()
        return lf.select(*(c for c in KEY_COLUMNS if c in names),
                         *_ordered(c for c in names if c not in KEY_COLUMNS))

    def for_question(
        self,
        question: str,
        models: Sequence[str] | None = None,
        columns: Sequence[str] | None = None,
    ) -> pl.DataFrame:
        """The completions of one question (of ``models``, in that order), one row per
        completion sorted by model and trial: the key columns and the text ``columns``
        (default: all). Reads only the row groups that can hold the question.

        Example
        -------
        >>> from scorio_core.samples import SampleStore, pl
        >>> s = SampleStore.from_frame(pl.DataFrame({"model": ["a", "b"], "question": ["1", "1"],
        ...                                          "trial": [0, 0], "answer": ["x", "y"]}))
        >>> s.for_question("1", models=["b", "a"])["model"].to_list()
        ['b', 'a']
        """
        cols = self.columns if columns is None else tuple(c for c in columns if c in self.columns)
        lf = self.scan().filter(pl.col("question") == str(question))
        if models is not None:
            lf = lf.filter(pl.col("model").is_in([str(m) for m in models]))
        keys = [c for c in KEY_COLUMNS if c in lf.collect_schema().names()]
        df = lf.select(*keys, *cols).collect()
        order = {m: i for i, m in enumerate(models)} if models is not None else None
        rank = (pl.col("model").replace_strict(order, default=len(order), return_dtype=pl.Int64)
                if order else pl.col("model"))
        return df.sort(rank, pl.col("trial"), nulls_last=True)

    def count(self, models: Sequence[str] | None = None,
              questions: Sequence[str] | None = None, trials: int | None = None) -> int:
        """The completions of ``models`` on ``questions`` (``None``: all), at the trial
        positions below ``trials`` -- with those not in the tensor (``trial`` null, e.g. an
        errored sample) -- as :class:`~scorio_core.outcomes.Outcomes` in view of fewer
        models, questions or trials counts them: reads the key columns only, never a text.

        Example
        -------
        >>> from scorio_core.samples import SampleStore, pl
        >>> s = SampleStore.from_frame(pl.DataFrame({
        ...     "model": ["a", "a", "b", "b"], "question": ["1", "2", "1", "1"],
        ...     "trial": [0, 0, 0, 1], "output": ["x", "y", "z", "w"]}))
        >>> s.count(), s.count(models=["b"]), s.count(questions=["2"]), s.count(trials=1)
        (4, 2, 1, 3)
        """
        if models is None and questions is None and trials is None:
            return self.n_rows
        keep = pl.lit(True)
        if models is not None:
            keep &= pl.col("model").is_in([str(m) for m in models])
        if questions is not None:
            keep &= pl.col("question").is_in([str(q) for q in questions])
        if trials is not None:
            keep &= pl.col("trial").is_null() | (pl.col("trial") < int(trials))
        return int(self.scan().filter(keep).select(pl.len()).collect().item())

    def questions(self) -> list[str]:
        """The questions the store has rows for, sorted (reads the question column only)."""
        col = self.scan().select(pl.col("question").unique()).collect()["question"]
        return col.sort().to_list()

    def write_parquet(self, path: str | Path) -> Path:
        """All rows as one Parquet file (sorted by question, small row groups), e.g. next to
        an exported dataset; assembled as the store's own files are (a band of row groups
        at a time, :func:`_write_sorted`), never every text at once. :meth:`open` reads
        it back."""
        path = Path(path)
        lf = self.scan()
        names = lf.collect_schema().names()
        n = lf.select(pl.len()).collect().item()
        step = 4 * ROW_GROUP  # rows read at a time from the store's files
        pieces = [lf.slice(a, step) for a in range(0, n, step)] or [lf]
        with tempfile.TemporaryDirectory(dir=_root()) as tmp:
            done = _write_sorted(
                path, pieces, names, keep_keys=True, drop_empty=False,
                scratch=lambda stem: Path(tmp) / f"{stem}-{uuid.uuid4().hex}.parquet")
        if done is None:  # no text column at all: the keys alone
            lf.sort("question", "model", "trial", maintain_order=True).sink_parquet(
                path, row_group_size=ROW_GROUP, compression="zstd")
        return path

    @classmethod
    def open(cls, path: str | Path) -> SampleStore:
        """A store on a Parquet file written by :meth:`write_parquet` (checked: the key
        columns and only text columns)."""
        path = Path(path)
        try:
            schema = pl.read_parquet_schema(path)
        except Exception as exc:  # polars raises several kinds for a file that is not Parquet
            raise ValidationError(f"{path.name}: not a Parquet file ({exc})") from None
        missing = [c for c in ("model", "question", "trial") if c not in schema]
        if missing:
            raise ValidationError(
                f"{path.name}: a sample store needs the columns model, question and trial; "
                f"missing {', '.join(missing)}; found {', '.join(schema)}"
            )
        text = [c for c, t in schema.items() if c not in KEY_COLUMNS]
        bad = [c for c in text if schema[c] != pl.String]
        if bad:
            raise ValidationError(
                f"{path.name}: sample text columns must hold text; {bad[0]!r} is {schema[bad[0]]}"
            )
        n = pl.scan_parquet(path).select(pl.len()).collect().item()
        return cls([path], _ordered(text), n)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_frame(cls, df: pl.DataFrame, *, keep_keys: bool = False) -> SampleStore | None:
        """A store holding the rows of ``df`` (the key columns and text columns; other
        columns become text), or ``None`` when no text column holds a value. ``keep_keys``:
        keep the rows without text too (see :meth:`SampleWriter.add`)."""
        w = SampleWriter()
        w.add(df, keep_keys=keep_keys)
        return w.store()


def _ordered(columns: Iterable[str]) -> list[str]:
    cols = list(dict.fromkeys(columns))
    return [c for c in TEXT_COLUMNS if c in cols] + [c for c in cols if c not in TEXT_COLUMNS]


class SampleWriter:
    """Collects store files in a directory of its own (created on the first write)."""

    def __init__(self) -> None:
        self._dir: Path | None = None
        self._owner: _Owner | None = None
        self._files: list[str] = []
        self._scratch: list[str] = []
        self._columns: list[str] = []
        self._rows = 0

    def _path(self, stem: str) -> Path:
        if self._dir is None:
            self._dir = _root() / uuid.uuid4().hex
            self._dir.mkdir()
            self._owner = _Owner(self._dir)  # removed with the writer and its stores
        return self._dir / f"{stem}-{len(self._files):05d}-{uuid.uuid4().hex[:6]}.parquet"

    def scratch(self, df: pl.DataFrame) -> str:
        """Write an intermediate frame (e.g. one log file's texts before the model and
        question names are final); returns its path (removed by :meth:`drop_scratch`)."""
        path = self._path("scratch")
        df.write_parquet(path, compression="lz4")
        self._scratch.append(str(path))
        return str(path)

    def drop_scratch(self) -> None:
        """Remove the intermediate files written so far (once the store is assembled from
        them): they would otherwise stay on disk as long as the store."""
        for f in self._scratch:
            Path(f).unlink(missing_ok=True)
        self._scratch.clear()

    def add(
        self,
        df: pl.DataFrame | pl.LazyFrame | Sequence[pl.DataFrame | pl.LazyFrame],
        *,
        keep_keys: bool = False,
    ) -> None:
        """Add rows (the key columns; every other column is text). Rows without any text
        are dropped, unless ``keep_keys``: then every row stays, its text cells null -- a
        long table's store holds one row per trial of ``R``, so a trial whose text cells are
        empty still has its own trial id and row in the file (nothing is added when no
        text column holds a value at all). The file is sorted by question, model and trial
        (rows with the same key in the order given) in row groups of :data:`ROW_GROUP`.

        ``df`` may be a sequence of pieces with one schema (e.g. one per scratch file of a
        log's texts): they are read one at a time, and the file is assembled without
        holding more than about :data:`BAND_BYTES` of text at once (see
        :func:`_write_sorted`). A frame in memory is assembled a band at a time too;
        a single ``LazyFrame`` is collected whole."""
        pieces = [df] if isinstance(df, pl.DataFrame | pl.LazyFrame) else list(df)
        if not pieces:
            return
        names = pieces[0].lazy().collect_schema().names()
        for c in ("model", "question", "trial"):
            if c not in names:
                raise ValidationError(f"sample rows need a {c!r} column; got {', '.join(names)}")
        text = [c for c in names if c not in KEY_COLUMNS]
        if not text:
            return
        path = self._path("samples")
        written = _write_sorted(path, pieces, names, keep_keys=keep_keys, scratch=self._path)
        if written is None:
            return
        keep, rows = written
        self._files.append(str(path))
        self._columns.extend(keep)
        self._rows += rows

    def store(self) -> SampleStore | None:
        """The store of every file added (``None`` when nothing was)."""
        if not self._files:
            return None
        return SampleStore(self._files, _ordered(self._columns), self._rows)


_POS = "__pos"  # a row's position in the store file, while it is assembled


def _write_sorted(
    path: Path,
    pieces: Sequence[pl.DataFrame | pl.LazyFrame],
    names: Sequence[str],
    *,
    keep_keys: bool,
    scratch: Callable[[str], Path],
    drop_empty: bool = True,
) -> tuple[list[str], int] | None:
    """Write the rows of ``pieces`` (columns ``names``: the key columns, the others text)
    to ``path``, sorted by (question, model, trial); returns (the text columns written,
    rows), or ``None`` when no text column holds a value (nothing written). Rows without
    text are left out unless ``keep_keys``; so are the text columns without a value unless
    not ``drop_empty``. ``scratch(stem)``: a path for an intermediate file.

    Only the keys are sorted: a first pass over the pieces keeps each row's key, its
    size in bytes and its place among the pieces, and notes which text columns hold a
    value. The sorted rows are then cut into bands of whole row groups holding about
    :data:`BAND_BYTES` of text, and the file is written band after band. The pieces are
    kept in memory when they hold no more than that (or when they are a frame in memory
    already) and each band is gathered from them; otherwise a second pass copies their
    rows, tagged with their position in the file, into scratch runs of about
    :data:`BAND_BYTES` each, sorted by position in small row groups, and each band reads
    only its row groups of every run."""
    text = [c for c in names if c not in KEY_COLUMNS]
    casts = [
        pl.col("model", "question").cast(pl.String), pl.col("trial").cast(pl.Int64),
        *[pl.col(c).cast(pl.String) for c in text],
        *([pl.col("trial_id").cast(pl.String)] if "trial_id" in names else []),
    ]
    has_text = (pl.lit(True) if keep_keys
                else pl.any_horizontal(pl.col(c).is_not_null() for c in text))
    # bytes of the row's strings (+ a cell's worth for the numbers), to size the bands
    size = pl.sum_horizontal(pl.col(c).str.len_bytes().fill_null(0).cast(pl.Int64)
                             for c in ("model", "question", *text)) + 16

    def read(piece: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
        return piece.lazy().with_columns(*casts).collect()

    in_memory = len(pieces) == 1  # a frame in memory, or a plan collected whole anyway
    held: list[pl.DataFrame] | None = []
    keys, present, offset, total, piece_bytes = [], [False] * len(text), 0, 0, []
    for piece in pieces:
        d = read(piece)
        present = [p or q for p, q in zip(present, d.select(
            (pl.col(c).is_not_null() & has_text).any() for c in text).row(0), strict=True)]
        k = (d.lazy().select("question", "model", "trial", pl.int_range(pl.len()).alias("src")
                             + offset, size.alias("bytes"), has_text.alias("has"))
             .filter("has").drop("has").collect())
        keys.append(k)
        offset += d.height
        piece_bytes.append(int(k["bytes"].sum()))
        total += piece_bytes[-1]
        if held is not None and (in_memory or total <= BAND_BYTES):
            held.append(d)
        else:
            held = None  # too much to hold: the pieces are read again below
        del d
    keep = [c for c, p in zip(text, present, strict=True) if p or not drop_empty]
    if not keep:
        return None
    cols = [*(c for c in KEY_COLUMNS if c in names), *keep]
    order = pl.concat(keys).sort("question", "model", "trial", maintain_order=True)
    del keys
    src = order["src"].to_numpy()
    edges = _band_edges(order["bytes"].to_numpy())
    n = order.height
    del order
    if held is not None:
        frame = (held[0] if len(held) == 1 else pl.concat(held, rechunk=False)).select(cols)
        del held
        schema = frame.schema

        def bands():
            for a, b in edges:
                yield frame[src[a:b]]
        runs = []
    else:
        pos_of = np.full(offset, -1, dtype=np.int64)
        pos_of[src] = np.arange(n)
        runs = _runs(scratch, pieces, piece_bytes, read, cols, pos_of)
        schema = pl.scan_parquet(runs[0]).drop(_POS).collect_schema()

        def bands():
            for a, b in edges:
                yield (pl.scan_parquet(runs).filter(pl.col(_POS).is_between(a, b - 1))
                       .collect().sort(_POS).drop(_POS))
    try:
        _sink(path, schema, bands)
    finally:
        for r in runs:
            Path(r).unlink(missing_ok=True)
    return keep, n


def _band_edges(row_bytes: Any) -> list[tuple[int, int]]:
    """Cut rows (their sizes in bytes, in file order) into bands of whole row groups of
    :data:`ROW_GROUP` holding at most :data:`BAND_BYTES` (a larger group: a band alone)."""
    n = len(row_bytes)
    groups = np.add.reduceat(row_bytes, np.arange(0, n, ROW_GROUP)) if n else []
    edges, start, held = [], 0, 0
    for g, b in enumerate(groups):
        if held and held + b > BAND_BYTES:
            edges.append((start, g * ROW_GROUP))
            start, held = g * ROW_GROUP, 0
        held += int(b)
    edges.append((start, n))
    return edges


def _runs(scratch, pieces, piece_bytes, read, cols, pos_of) -> list[str]:
    """The pieces' rows (``piece_bytes``: the bytes of each piece's rows written) with
    their position in the store file (``_POS``), in scratch runs of about
    :data:`BAND_BYTES`, each sorted by position in row groups of :data:`_RUN_GROUP`
    rows (statistics kept, so a band reads only its groups)."""
    runs: list[str] = []
    buffer: list[pl.DataFrame] = []
    held = offset = 0

    def flush() -> None:
        if buffer:
            path = scratch("run")
            pl.concat(buffer, rechunk=False).sort(_POS).write_parquet(
                path, compression="lz4", row_group_size=_RUN_GROUP, statistics=True)
            runs.append(str(path))
            buffer.clear()

    for piece, size in zip(pieces, piece_bytes, strict=True):
        d = read(piece)
        pos = pl.Series(_POS, pos_of[offset:offset + d.height])
        offset += d.height
        buffer.append(d.select(cols).with_columns(pos).filter(pl.col(_POS) >= 0))
        del d
        held += size
        if held >= BAND_BYTES:
            flush()
            held = 0
    flush()
    return runs


def _sink(path: Path, schema: pl.Schema, bands) -> None:
    """Write the frames ``bands()`` yields, one after another, as one Parquet file in row
    groups of :data:`ROW_GROUP` (zstd, with statistics): polars' streaming engine writes
    each as it comes, so memory holds about one band."""
    from polars.io.plugins import register_io_source

    def source(with_columns, predicate, n_rows, batch_size):
        for frame in bands():
            if with_columns is not None:
                frame = frame.select(with_columns)
            if predicate is not None:
                frame = frame.filter(predicate)
            yield frame

    register_io_source(source, schema=schema).sink_parquet(
        path, row_group_size=ROW_GROUP, compression="zstd", statistics=True,
        engine="streaming")


def beside(path: str | Path) -> Path:
    """Where the store of the dataset file ``path`` is written: ``<stem>.samples.parquet``.

    Example
    -------
    >>> from scorio_core.samples import beside
    >>> beside("out/runs.parquet").as_posix()
    'out/runs.samples.parquet'
    """
    path = Path(path)
    return path.with_name(path.name[: -len(path.suffix)] + SAMPLES_SUFFIX if path.suffix
                          else path.name + SAMPLES_SUFFIX)


def union(stores: Iterable[SampleStore | None]) -> SampleStore | None:
    """One store over several (e.g. the benchmarks of one dataset); ``None`` if none."""
    have = [s for s in stores if s is not None]
    if not have:
        return None
    files = list(dict.fromkeys(f for s in have for f in s.files))
    cols = _ordered(c for s in have for c in s.columns)
    rows = sum(s.n_rows for s in {id(s): s for s in have}.values())
    return SampleStore(files, cols, rows)


def log_rows(
    texts: Sequence[Mapping[str, Any] | None],
    questions: Sequence[str],
    trials: Sequence[int],
    scored: Sequence[bool],
    where: Sequence[str],
    file: str,
    columns: Sequence[str] | None = None,
) -> pl.DataFrame | None:
    """One log file's texts as a frame (raw question id, trial id, scored flag, source,
    text columns -- ``columns`` when given, so the frames of one file's chunks share a
    schema and a chunk without text still holds its records' rows), or ``None`` when no
    record has text (``columns`` not given)."""
    if columns is None and not any(texts):
        return None
    cols = list(columns) if columns is not None else _ordered(k for t in texts if t for k in t)
    data: dict[str, Any] = {
        "q_raw": pl.Series(list(questions), dtype=pl.String),
        "trial_raw": pl.Series(list(trials), dtype=pl.Int64),
        "scored": pl.Series(list(scored), dtype=pl.Boolean),
        "source": pl.Series([f"{file}: {w}" for w in where], dtype=pl.String),
    }
    for c in cols:
        data[c] = pl.Series([as_text(t.get(c)) if t else None for t in texts], dtype=pl.String)
    return pl.DataFrame(data)
