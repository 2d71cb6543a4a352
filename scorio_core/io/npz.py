"""NumPy ``.npz`` archives, read with ``allow_pickle=False`` and written compressed."""

from __future__ import annotations

import json
import os
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from .._validation import MAX_CATEGORY, ValidationError
from ..outcomes import Outcomes
from ._base import MAX_BYTES, Source, _json_default, _mb, _reported_as, _resolve, _sniff, _Src

__all__ = ["load_npz", "save_npz"]

_MAX_EXTRA = 10_000  # extra npz arrays up to this size are kept in metadata
_UNZIP_FACTOR = 8  # an .npz may expand to at most this many times max_bytes


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


def _compact(a: np.ndarray) -> np.ndarray:
    return a.astype(np.min_scalar_type(int(a.max())))


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


