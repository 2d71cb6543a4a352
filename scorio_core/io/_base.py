"""Sources, size limits and error prefixes shared by every loader (private)."""

from __future__ import annotations

import io as _io
import os
import struct
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal

import numpy as np

from .._lazy import lazy_module
from .._validation import Mention, Only, Said, ValidationError, python_name, said_of
from ..formatting import count_text

if TYPE_CHECKING:
    import polars as pl
else:  # polars loads with the first table read, not with `import scorio_core.io`
    pl = lazy_module("polars")

#: Default upload/file size limit (bytes).
MAX_BYTES = 200 * 2**20
#: Largest outcome tensor accepted: ``L * M * N`` cells (and the element count of any one
#: array in an ``.npz``). Checked on declared sizes, before anything is decoded.
MAX_CELLS = 50_000_000
#: Largest total decoded size of the arrays of one ``.npz`` (bytes), checked on their headers.
MAX_DECODED_BYTES = 2**30
#: Largest number of rows (completions) in a long table or in the records of logs,
#: counted before the table is parsed. Loading costs about 300 bytes and 2 us per row
#: (a 5-million-row CSV: 1.5 GB peak, 10 s), so this bounds a load near 3 GB.
MAX_ROWS = 10_000_000
#: Largest ``rows * columns`` of a long table, counted before it is parsed.
MAX_TABLE_CELLS = 100_000_000
#: Most distinct keys (columns) in a JSONL table.
MAX_COLUMNS = 1_000
#: File suffix -> format understood by :func:`load`.
ACCEPTED_SUFFIXES: dict[str, str] = {
    ".npz": "npz",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
#: The suffixes of the other files :func:`load` reads: harness logs (Inspect ``.eval``;
#: Inspect and HELM ``.json``; lm-eval and OpenAI evals logs are ``.jsonl``, above) and
#: ``.zip`` archives of files.
LOG_SUFFIXES: tuple[str, ...] = (".eval", ".json", ".zip")
#: Every file suffix :func:`load` reads -- a file given, or found in a directory or an
#: archive: the one list its messages and the app's uploader name.
LOADED_SUFFIXES: tuple[str, ...] = (*ACCEPTED_SUFFIXES, *LOG_SUFFIXES)
OnMissing = Literal["error", "drop_questions", "truncate"]
_ON_MISSING = ("error", "drop_questions", "truncate")
Source = str | os.PathLike | bytes | bytearray | memoryview | BinaryIO


class MissingColumnsError(ValidationError):
    """A table lacks required columns; ``columns`` names them as the loader looked for them
    and ``roles`` the roles they fill (``model``, ``question``, ``trial``, ``outcome``...)."""

    def __init__(self, message: str, columns: tuple[str, ...] = (), roles: tuple[str, ...] = (),
                 guesses: dict[str, str] | None = None, hinted: bool = False,
                 repeats: tuple[str, str] | None = None):
        self.columns, self.roles = tuple(columns), tuple(roles)
        #: role -> a present column that probably fills it (e.g. 'Model' for 'model')
        self.guesses = dict(guesses or {})
        #: the model and question columns, where the trial column is missing and none is
        #: guessed: a table of one row per repeat numbers them (:meth:`hint`)
        self.repeats = tuple(repeats) if repeats else None
        #: whether ``message`` ends with :meth:`hint` (``"python"``), which callers with
        #: another interface (the CLI's ``--columns``) replace with their own form
        self.hinted = hinted
        # the hint as each surface gives it: Python's keywords, the command line's flags; a
        # page says its own (its column mapping: app_state.texts.load_hint)
        super().__init__(Said(message, Only("python", self.hint("python")),
                              Only("cli", self.hint("cli"))) if hinted else message)

    def hint(self, style: str = "python") -> str:
        """How to map the missing roles: the ``columns=`` keyword of
        :func:`scorio_core.io.load` (``"python"``) or the CLI's ``--columns`` (``"cli"``); a
        missing trial column where none looks like one: also the loader option that numbers
        the rows of a table of one row per repeat (``number_trials``).

        Example
        -------
        >>> e = sc.io.MissingColumnsError("missing 'model'", ("model",), ("model",),
        ...                               {"model": "LLM"})
        >>> e.hint("python"), e.hint("cli")
        ("; did you mean columns={'model': 'LLM'}?", '; did you mean --columns model=LLM?')
        >>> e = sc.io.MissingColumnsError("missing 'trial'", ("trial",), ("trial",),
        ...                               repeats=("model", "question"))
        >>> print(e.hint())
        ; rename them or map yours with columns={'trial': '<your column>', ...}; a table with \
one row per repeat and no trial numbers: number_trials=True numbers the rows of each (model, \
question) pair 0, 1, 2, ... in file order
        >>> print(e.hint("cli").split("numbers: ")[1])
        --number-trials numbers the rows of each (model, question) pair 0, 1, 2, ... in file order
        """
        if self.guesses:
            if style == "cli":
                pairs = ",".join(f"{r}={c}" for r, c in self.guesses.items())
                return f"; did you mean --columns {pairs}?"
            return f"; did you mean columns={self.guesses!r}?"
        if style == "cli":
            roles = ",".join(f"{r}=COLUMN" for r in (self.roles or ("model",)))
            out = f"; rename them or map yours with --columns {roles}"
        else:
            role = (self.roles or ("model",))[0]
            out = f"; rename them or map yours with columns={{{role!r}: '<your column>', ...}}"
        if self.repeats is None:
            return out
        from ..params import cli_flag  # the option's declaration names it on each surface
        from .options import LoadOptions

        switch = (cli_flag(LoadOptions, "number_trials") if style == "cli"
                  else python_name(Mention(LoadOptions, "number_trials", True)))
        return (out + f"; a table with one row per repeat and no trial numbers: {switch} "
                f"numbers the rows of each ({self.repeats[0]}, {self.repeats[1]}) pair 0, 1, "
                "2, ... in file order")

    def cli_message(self) -> str:
        """The message with the ``--columns`` hint in place of the Python keyword."""
        msg = str(self)
        if self.hinted and msg.endswith(self.hint("python")):
            return msg[: -len(self.hint("python"))] + self.hint("cli")
        return msg


class MissingCellsError(ValidationError):
    """Some (model, question, trial) cells are absent and ``on_missing`` does not allow it."""


# ----------------------------------------------------------------- sources
#: The sources opened or read while :func:`noting_reads` is on (``None``: off). A file an
#: importer reads beside a log for names only (lm-eval's results json, HELM's run_spec.json
#: and stats.json) is read through :class:`_Src` like the log, and the sample store beside a
#: table is noted when it is attached (:meth:`_Src.note_read`), so the loader can list and hash
#: every file a load read, whichever importer read it.
_READS: ContextVar[list | None] = ContextVar("scorio_core_io_reads", default=None)


@contextmanager
def noting_reads() -> Iterator[list]:
    """The :class:`_Src` objects opened or read inside the ``with`` block, in order."""
    reads: list = []
    token = _READS.set(reads)
    try:
        yield reads
    finally:
        _READS.reset(token)


@dataclass(frozen=True)
class _Src:
    label: str  # file name shown in messages
    path: Path | None = None
    data: bytes | None = None
    head: bytes = b""

    def note_read(self) -> None:
        """Count this source as read by the load under way (:func:`noting_reads`); ``open``
        and ``read`` call it, and a file attached to the data and read later (a table's
        sample store) calls it itself, so it is listed and hashed with the files read now."""
        reads = _READS.get()
        if reads is not None:
            reads.append(self)

    def open(self) -> BinaryIO:
        self.note_read()
        # a file object, not a path: polars would expand '*' or '[' in a path as a glob
        return _io.BytesIO(self.data) if self.data is not None else self.path.open("rb")

    def read(self) -> bytes:
        self.note_read()
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


#: What a spreadsheet saved in its own format is, and how to turn it into a table we read.
SPREADSHEET_HINT = (
    "save it as CSV from the spreadsheet (Excel: File > Save As > 'CSV UTF-8 (Comma "
    "delimited)'), or read it with pandas.read_excel and pass the DataFrame to "
    "scorio_core.io.load"
)


WORKBOOK = "an Excel workbook (.xlsx)"


def spreadsheet_kind(kind: str | None) -> bool:
    """Whether :func:`_sniff` found a spreadsheet's own format (say how to convert it)."""
    return bool(kind) and ("workbook" in kind or "spreadsheet" in kind)


def _zip_kind(src: _Src) -> str:
    """What a zip file is, from its member names: an Excel or OpenDocument workbook (often
    renamed .csv), a NumPy ``.npz``, or some other zip archive."""
    try:
        with zipfile.ZipFile(src.open()) as zf:
            names = zf.namelist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        return "a zip archive"
    if "xl/workbook.xml" in names or "xl/workbook.bin" in names:
        return WORKBOOK
    if "mimetype" in names and "content.xml" in names:
        return "an OpenDocument spreadsheet (.ods)"
    if names and all(n.endswith(".npy") for n in names):
        return "a NumPy archive (.npz): rename it to .npz"
    return "a zip archive"


def _sniff(head: bytes, src: _Src | None = None) -> str | None:
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return _zip_kind(src) if src is not None else "a zip archive"
    if head.startswith(b"PAR1"):
        return "a Parquet file"
    if head.startswith(b"\x93NUMPY"):
        return "a single .npy array"
    return None


def _format_of(src: _Src, format: str | None, *, tables: bool = False) -> str:
    """The table or ``.npz`` format of ``src``, from ``format=`` or its suffix; refused with
    every suffix :func:`load` reads (:data:`LOADED_SUFFIXES`) -- ``tables``: for
    :func:`load_table`, which reads the tables and ``.npz`` of :data:`ACCEPTED_SUFFIXES`
    and leaves logs and archives to :func:`load`.

    Example
    -------
    >>> from scorio_core.io._base import _format_of, _Src
    >>> _format_of(_Src("runs.txt"), None)
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: runs.txt: unsupported file type (suffix '.txt'); \
accepted suffixes: .npz, .csv, .parquet, .pq, .jsonl, .ndjson, .eval, .json, .zip
    """
    accepted = ", ".join(ACCEPTED_SUFFIXES if tables else LOADED_SUFFIXES)
    if tables:  # logs and archives are load's
        accepted += f" (logs and archives, {', '.join(LOG_SUFFIXES)}: use load)"
    if format is not None:
        key = "." + str(format).lower().lstrip(".")
        if key not in ACCEPTED_SUFFIXES:
            raise ValidationError(f"unknown format={format!r}; accepted: "
                                  f"{', '.join(ACCEPTED_SUFFIXES)}")
        return ACCEPTED_SUFFIXES[key]
    suffix = Path(src.label).suffix.lower()
    if suffix not in ACCEPTED_SUFFIXES:
        if src.label.startswith("<"):
            raise ValidationError(
                f"cannot tell the format of {src.label}: pass filename= (with one of the "
                f"suffixes {accepted}) or format="
            )
        found = f"suffix {suffix!r}" if suffix else "no suffix"
        hint = f"; {SPREADSHEET_HINT}" if suffix in (".xlsx", ".xls", ".xlsm", ".ods") else ""
        raise ValidationError(
            f"{src.label}: unsupported file type ({found}); accepted suffixes: {accepted}{hint}"
        )
    return ACCEPTED_SUFFIXES[suffix]


@contextmanager
def _reported_as(label: str) -> Iterator[None]:
    """Prefix every error with the file name; turn stray polars errors into ValidationError."""
    try:
        yield
    except ValidationError as exc:
        msg = said_of(exc)  # a Said keeps the options it names, each surface its own way
        if msg.startswith(label + ":"):
            raise
        new = type(exc).__new__(type(exc))  # keep the kind (e.g. MissingColumnsError)
        new.__dict__.update(exc.__dict__)
        new.args = (f"{label}: " + msg,)
        raise new from None
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException) as exc:  # safety net
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
        raise ValidationError(f"{label}: could not interpret the table ({first})") from None


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, set | tuple):
        return list(obj)
    return str(obj)




# -------------------------------------------------------------- zip members
ZIP_ZSTD = 93  # APPNOTE 4.4.5 compression method: Zstandard (Inspect's default for .eval)
_LOCAL_HEADER = 30  # fixed part of a zip local file header


def open_zip(src: _Src, what: str) -> zipfile.ZipFile:
    """The zip archive of ``src``; a corrupt or truncated one is a :class:`ValidationError`."""
    try:
        return zipfile.ZipFile(_io.BytesIO(src.read()))
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise ValidationError(
            f"{src.label}: not a readable {what} (corrupt or truncated zip: {exc})"
        ) from None


def check_expanded(zf: zipfile.ZipFile, names: list[str], label: str) -> None:
    """Refuse to read ``names`` when their uncompressed sizes (zip directory) add up to more
    than :data:`MAX_DECODED_BYTES`; :func:`read_member` holds each to its declared size."""
    total = sum(zf.getinfo(n).file_size for n in names)
    if total > MAX_DECODED_BYTES:
        raise ValidationError(
            f"{label}: the {count_text(len(names), 'member')} to read "
            f"{'expands' if len(names) == 1 else 'expand'} to {_mb(total)}, more than the "
            f"{_mb(MAX_DECODED_BYTES)} allowed (scorio_core.io.MAX_DECODED_BYTES); refusing to "
            "decompress them"
        )


def read_member(zf: zipfile.ZipFile, name: str, label: str, limit: int) -> bytes:
    """The uncompressed bytes of member ``name``: stored, deflate or zstd (method 93).

    ``zipfile`` reads zstd members only from Python 3.14, so those are decompressed
    here with :mod:`zstandard` (several frames allowed, as Inspect writes them), and
    their CRC-32 is checked like ``zipfile`` does for the others.
    """
    info = zf.getinfo(name)
    if info.file_size > limit:
        raise ValidationError(
            f"{label}: member {name!r} expands to {_mb(info.file_size)}, over the size limit"
        )
    try:
        if info.compress_type != ZIP_ZSTD:
            return zf.read(info)
        fp = zf.fp
        fp.seek(info.header_offset)
        header = fp.read(_LOCAL_HEADER)
        if len(header) < _LOCAL_HEADER or header[:4] != b"PK\x03\x04":
            raise zipfile.BadZipFile("bad local file header")
        n_name, n_extra = struct.unpack("<HH", header[26:30])
        fp.seek(info.header_offset + _LOCAL_HEADER + n_name + n_extra)
        raw = fp.read(info.compress_size)
        if len(raw) < info.compress_size:
            raise zipfile.BadZipFile("member data is truncated")
        import zstandard

        reader = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
        chunks, size = [], 0
        limit = min(limit, info.file_size)  # the directory's size, as zipfile does
        while size <= limit and (chunk := reader.read(min(limit + 1 - size, 2**24))):
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
        if size > limit:
            raise ValidationError(f"{label}: member {name!r} expands past the size limit")
        if zlib.crc32(data) != info.CRC:
            raise zipfile.BadZipFile(f"bad CRC-32 for file {name!r}")
        return data
    except ValidationError:
        raise
    except NotImplementedError as exc:
        raise ValidationError(
            f"{label}: member {name!r} uses an unsupported compression ({exc}); expected "
            "stored, deflate or zstd"
        ) from None
    except Exception as exc:  # zlib.error, BadZipFile, zstandard.ZstdError, EOFError ...
        raise ValidationError(
            f"{label}: member {name!r} is corrupt or truncated ({type(exc).__name__}: {exc})"
        ) from None
