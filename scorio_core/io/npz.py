"""NumPy ``.npz`` archives, read with ``allow_pickle=False`` and written compressed."""

from __future__ import annotations

import json
import math
import os
import zipfile
import zlib
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import numpy as np
from numpy.lib import format as npformat

from .._validation import MAX_CATEGORY, ValidationError, checked_keywords, parse_json
from ..outcomes import Outcomes, frozen
from ._base import (
    MAX_CELLS,
    MAX_DECODED_BYTES,
    Source,
    _json_default,
    _mb,
    _reported_as,
    _resolve,
    _sniff,
    _Src,
)
from .options import OPTION_NAMES, LoadOptions, options_from

__all__ = ["load_npz", "save_npz"]

_MAX_EXTRA = 10_000  # extra npz arrays up to this size are kept in metadata
_KNOWN = ("R", "R0", "models", "questions", "benchmarks", "category_names", "weights",
          "meta_json")  # fmt: skip
_PICKLE_HELP = (
    "object arrays/pickles are refused because unpickling can run code. Store numbers as "
    "numeric arrays and labels as unicode arrays (np.array(names, dtype=str))"
)


class _Header(NamedTuple):
    member: str  # name inside the zip
    shape: tuple[int, ...]
    dtype: np.dtype
    fortran: bool
    offset: int  # bytes of the .npy header (magic + header) before the data


def _cells(shape: tuple[int, ...]) -> int:
    return math.prod(shape)  # Python int: no overflow whatever the header declares


def _is_extra(key: str) -> bool:
    return key not in _KNOWN and not key.startswith(("signal__", "qattr__"))


def _npy_headers(zf: zipfile.ZipFile) -> tuple[dict[str, _Header], list[str]]:
    """Shape and dtype of every ``.npy`` member, read from its header before any data.

    Refuses object/structured dtypes, arrays of more than :data:`MAX_CELLS` elements,
    a total decoded size over :data:`MAX_DECODED_BYTES`, and members whose declared
    shape does not match their uncompressed size in the zip directory (a header that
    declares a huge shape in a tiny file, or padding that would be decompressed for
    nothing). Non-``.npy`` members are not read; their names are returned.
    """
    headers: dict[str, _Header] = {}
    ignored: list[str] = []
    total = 0
    for info in zf.infolist():
        if not info.filename.endswith(".npy"):
            if not info.is_dir():
                ignored.append(info.filename)
            continue
        key = info.filename[: -len(".npy")]
        with zf.open(info) as fp:
            try:
                version = npformat.read_magic(fp)
                if version == (1, 0):
                    shape, fortran, dtype = npformat.read_array_header_1_0(fp)
                elif version == (2, 0):
                    shape, fortran, dtype = npformat.read_array_header_2_0(fp)
                else:
                    raise ValueError(f"unsupported .npy format version {version}")
            except ValueError as exc:
                if "pickle" in str(exc).lower() or "object" in str(exc).lower():
                    raise ValidationError(f"array {key!r}: {_PICKLE_HELP}") from None
                raise ValidationError(f"array {key!r} has a corrupt .npy header ({exc})") from None
            offset = fp.tell()
        if dtype.hasobject:
            raise ValidationError(
                f"array {key!r} is an object array stored with pickle; {_PICKLE_HELP}"
            )
        if dtype.kind not in "biufUS" or dtype.fields is not None or dtype.subdtype is not None:
            raise ValidationError(
                f"array {key!r} has dtype {dtype}; expected a plain numeric, boolean or "
                "unicode string array"
            )
        cells = _cells(shape)
        nbytes = cells * dtype.itemsize
        if cells > MAX_CELLS:
            dims = " x ".join(f"{d:,}" for d in shape)
            raise ValidationError(
                f"array {key!r} declares shape ({dims}) = {cells:,} elements, more than the "
                f"{MAX_CELLS:,} allowed (scorio_core.io.MAX_CELLS); refusing to decode it"
            )
        if nbytes != info.file_size - offset:
            raise ValidationError(
                f"array {key!r} declares shape {tuple(shape)} and dtype {dtype} "
                f"({_mb(nbytes)}), but its member holds {_mb(max(info.file_size - offset, 0))} "
                "of data; the archive is corrupt or forged"
            )
        total += nbytes
        if total > MAX_DECODED_BYTES:
            raise ValidationError(
                f"the arrays decode to more than {_mb(MAX_DECODED_BYTES)} "
                "(scorio_core.io.MAX_DECODED_BYTES); refusing to decompress the archive"
            )
        headers[key] = _Header(info.filename, tuple(shape), dtype, fortran, offset)
    return headers, ignored


def _read_member(zf: zipfile.ZipFile, h: _Header) -> np.ndarray:
    """The array of a member whose header :func:`_npy_headers` already checked."""
    n = _cells(h.shape) * h.dtype.itemsize
    buf = np.empty(n, dtype=np.uint8)  # filled in chunks: no second copy of the data
    with zf.open(h.member) as fp:
        fp.read(h.offset)
        done = 0
        while done < n and (chunk := fp.read(min(n - done, 2**24))):
            buf[done : done + len(chunk)] = np.frombuffer(chunk, dtype=np.uint8)
            done += len(chunk)
    if done != n:
        raise ValidationError(f"array {h.member[:-4]!r} is truncated")
    arr = buf.view(h.dtype)
    if h.fortran:
        return arr.reshape(h.shape[::-1]).transpose()
    return arr.reshape(h.shape)



@checked_keywords(also=OPTION_NAMES)
def load_npz(
    source: Source,
    options: LoadOptions | None = None,
    *,
    filename: str | None = None,
    **option_values: Any,
) -> Outcomes:
    """Load an ``.npz`` archive without ever unpickling.

    Parameters
    ----------
    source : str, PathLike, bytes or binary file object
        The archive. Required array ``R``: integer ``(L, M, N)`` (or ``(M, N)`` for one
        model). Optional: ``R0`` ``(L, M, D)`` or ``(M, D)``; ``models``,
        ``questions``, ``benchmarks`` (one per question) and ``category_names`` as
        unicode string arrays; ``weights`` float; ``signal__<name>`` float arrays
        ``(L, M, N)`` (NaN = no value); ``qattr__<name>`` unicode arrays ``(M,)``, one
        question attribute each (``""`` = no value); ``meta_json``, a 0-d string holding
        a JSON object whose ``"name"`` key names the dataset.
    options, filename, option_values
        As in :func:`load` (``name``, ``max_bytes``, ``weights`` and ``category_names``
        apply to an archive).

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
    >>> sc.io.load_npz(buf.getvalue(), filename="m.npz").shape
    (1, 2, 2)
    """
    opts = options_from(options, option_values)
    src = _resolve(source, filename, opts.max_bytes)
    with _reported_as(src.label):
        return _load_npz(src, opts)


def _load_npz(
    src: _Src,
    opts: LoadOptions,
) -> Outcomes:
    name, weights, category_names = opts.name, opts.weights, opts.category_names
    if not src.head.startswith(b"PK"):
        kind = _sniff(src.head, src)
        raise ValidationError(
            "not an .npz archive (a zip file of .npy arrays): it starts with "
            f"{src.head[:8]!r}" + (f", which looks like {kind}" if kind else "")
        )
    try:
        with src.open() as fh, zipfile.ZipFile(fh) as zf:
            headers, ignored = _npy_headers(zf)
            arrays = {
                key: _read_member(zf, h)
                for key, h in headers.items()
                if not _is_extra(key) or _cells(h.shape) <= _MAX_EXTRA
            }
    except ValidationError:
        raise
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, KeyError) as exc:
        raise ValidationError(
            f"not a readable .npz archive (corrupt or truncated zip: {exc})"
        ) from None
    big = [k for k in headers if k not in arrays] + ignored
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
    names = labels["category_names"]
    if weights is not None and category_names is None and names and len(names) != len(weights):
        # the file's categories, not a count of names, are what the weights must match
        raise ValidationError(
            f"{len(weights)} weights were given (categories 0..{len(weights) - 1}), but this "
            f"file's outcomes have {len(names)} categories ({', '.join(names)}; its weights "
            f"{[float(x) for x in w] if w is not None else 'not stored'}): give one weight "
            "per category, in that order"
        )
    signals = {
        k[len("signal__") :]: arrays.pop(k) for k in list(arrays) if k.startswith("signal__")
    }
    attributes = {
        k[len("qattr__") :]: _labels(arrays.pop(k), k)
        for k in list(arrays)
        if k.startswith("qattr__")
    }
    if R.ndim == 2:  # one model: give 2-D signals the model axis too
        signals = {k: v[None] if v.ndim == 2 else v for k, v in signals.items()}
    extra = {k: v.tolist() for k, v in arrays.items()}
    if extra:
        meta["extra_arrays"] = extra
    if big:
        meta["extra_arrays_not_loaded"] = big
    ds_name = name or meta.pop("name", None) or Path(src.label).stem or "dataset"
    meta["source_file"] = src.label
    meta["format"] = "npz"
    if opts.model_map and labels["models"] is not None:  # as a table's or a log's names
        mapping = {a: b for a, b in opts.model_map if a != b}
        renamed = {m: mapping[m] for m in labels["models"] if m in mapping}
        models = [renamed.get(m, m) for m in labels["models"]]
        if len(set(models)) < len(models):
            twice = sorted({m for m in models if models.count(m) > 1})
            raise ValidationError(
                f"model_map gives two models of the .npz one name ({', '.join(twice)}); an "
                ".npz holds one array per model and cannot merge them: map them to "
                "different names"
            )
        if renamed:
            labels["models"], meta["model_names"] = models, renamed
    out = Outcomes(
        R=frozen(R),
        R0=R0 if R0 is None else frozen(R0),
        weights=w if weights is None else weights,
        category_names=labels["category_names"] if category_names is None else category_names,
        models=labels["models"],
        questions=labels["questions"],
        benchmarks=labels["benchmarks"],
        signals=signals,
        question_attributes=attributes,
        name=str(ds_name),
        metadata=meta,
    )
    return out if opts.benchmark is None else out.select(opts.benchmark)


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
    meta = parse_json(text, "'meta_json'")
    if not isinstance(meta, dict):
        raise ValidationError(
            f"'meta_json' must hold a JSON object ({{...}}); got a {type(meta).__name__}"
        )
    from ..references import expand  # texts a reader sees: the papers by title

    for k in ("description", "source"):
        if isinstance(meta.get(k), str):
            meta[k] = expand(meta[k])
    return meta


def _compact(a: np.ndarray) -> np.ndarray:
    return a.astype(np.min_scalar_type(int(a.max())))


@checked_keywords
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
    >>> o = sc.Outcomes(np.array([[[1, 0], [0, 1]]]), models=["m"])
    >>> buf = io.BytesIO()
    >>> sc.io.save_npz(o, buf)
    >>> sc.io.load_npz(buf.getvalue(), filename="m.npz").models
    ('m',)
    """
    o = outcomes
    if o.parts:
        raise ValidationError(
            f"{o.name!r}: its benchmarks have different trials per question "
            f"({', '.join(f'{b}: {p.N}' for b, p in o.parts.items())}), which one .npz "
            "(one R of shape L x M x N) cannot hold; write a table (.parquet, .csv, .jsonl), "
            "which keeps every trial, or save one benchmark (outcomes.select(NAME))"
        )
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
    for key, vals in o.question_attributes.items():
        arrays[f"qattr__{key}"] = np.array(vals, dtype=str)
    meta = {k: v for k, v in o.metadata.items() if k not in ("source_file", "format")}
    meta["name"] = o.name
    arrays["meta_json"] = np.array(json.dumps(meta, default=_json_default))
    if hasattr(path, "write"):
        np.savez_compressed(path, **arrays)
    else:
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)


