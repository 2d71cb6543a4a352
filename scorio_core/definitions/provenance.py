"""Provenance: what produced an export, carried by every file the app, CLI and report write.

A provenance record names the input (file name and sha256 when the data came
from a file or bytes; every file and its sha256 when they were read from several --
a folder, an archive, a list of files) and the loader options it was read with (those not
at their defaults, the data's own record: :func:`scorio_core.io.load_keywords`), its shape
and benchmark(s) (:func:`benchmark_of`),
the analysis and every setting (seeds listed separately), the scorio-studio and key
dependency versions and the UTC time. CSV exports carry it as a commented
``# key: value`` header, JSON exports as a ``provenance`` object, and
:func:`export_filename` names the dataset and the analysis.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions.provenance import attach_source, export_filename, provenance
>>> raw = b"model,question,trial,outcome\\nA,q1,0,1\\nA,q1,1,0\\n"
>>> data = attach_source(Outcomes(np.array([[[1, 0]]]), name="My runs"), raw, "runs.csv")
>>> p = provenance(data, "leaderboard")
>>> p["input"]["file"], p["input"]["sha256"][:12]
('runs.csv', 'fd8a8eb87b42')
>>> export_filename(data, "leaderboard", "csv")
'My_runs_leaderboard.csv'
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from importlib import metadata as _md
from pathlib import Path
from typing import Any

import pandas as pd

from .._validation import ValidationError, json_safe
from ..formatting import EXPORT_DIGITS
from ..outcomes import COMBINED, NO_BENCHMARK, Outcomes  # NO_BENCHMARK: re-exported
from ._base import params_dict

__all__ = [
    "attach_source",
    "attach_sources",
    "HASH_LIMIT_BYTES",
    "file_sha256",
    "provenance",
    "csv_header",
    "to_csv",
    "to_json",
    "export_filename",
    "export_result",
    "export_file",
    "KEY_PACKAGES",
    "benchmark_of",
    "benchmark_words",
    "NO_BENCHMARK",
]

#: The dataset name of a simulation study's exports (its data are made from its settings).
SIMULATED = "simulation (synthetic, known truth)"

#: Dependencies whose versions every provenance record lists.
KEY_PACKAGES = ("numpy", "scipy", "pandas", "polars", "altair", "vl-convert-python", "nbformat")


def file_sha256(source: str | os.PathLike | bytes) -> str:
    """SHA-256 hex digest of a file (read in chunks) or of raw bytes."""
    h = hashlib.sha256()
    if isinstance(source, bytes | bytearray | memoryview):
        h.update(source)
        return h.hexdigest()
    with open(source, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def attach_source(
    data: Outcomes, source: str | os.PathLike | bytes, filename: str | None = None
) -> Outcomes:
    """``data`` with the input file's name, size and sha256 in its metadata.

    ``source`` is the path or the raw bytes the data were loaded from (an upload);
    ``filename`` defaults to the path's name. The loader (``io.load``) can call
    this at load time; :meth:`Outcomes.select` keeps the metadata, so a
    benchmark view still names its file.
    """
    path = None
    if isinstance(source, bytes | bytearray | memoryview):
        size, name = len(source), filename or "upload"
    else:
        path = Path(source).resolve()
        size, name = path.stat().st_size, filename or path.name
    meta = dict(data.metadata) | {
        "source_name": str(name),
        "source_sha256": file_sha256(source),
        "source_bytes": int(size),
    } | ({} if path is None else {"source_path": str(path)})
    for key in _SEVERAL:  # a record of several files (e.g. kept in an .npz) is not this file's
        meta.pop(key, None)
    return replace(data, metadata=meta)


#: Several input files are hashed (each once, in chunks) when they hold at most this many
#: bytes in all; above it the record says "not hashed (N files, X GB)" instead.
HASH_LIMIT_BYTES = 8 * 2**30

# the metadata of data read from several files (:func:`attach_sources`) and of one file
_SEVERAL = ("source_sha256_per_file", "source_unhashed")
_ONE = ("source_name", "source_sha256", "source_path")


def attach_sources(
    data: Outcomes,
    sources: Sequence[tuple[str, str | os.PathLike | bytes]],
    *,
    limit: int | None = None,
    path: str | os.PathLike | None = None,
) -> Outcomes:
    """``data`` read from several files, with each file's sha256 in its metadata.

    ``sources`` are ``(name, path or raw bytes)`` pairs, one per file the data were read
    from (an archive counts once). ``metadata["source_sha256_per_file"]`` maps each name
    to its sha256 and ``metadata["source_bytes"]`` is their total size; when that total
    exceeds ``limit`` (default :data:`HASH_LIMIT_BYTES`) no file is hashed (the digests
    are ``None``) and ``metadata["source_unhashed"]`` says so, e.g.
    ``"not hashed (3 files, 9.1 GB)"``.
    ``io.load`` calls this for a directory, an archive's members, a list of files, or one
    file and the files read beside it (a log's results json, a table's sample store);
    ``path`` is then that one file, the one a notebook report loads again
    (``metadata["source_path"]``).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.definitions.provenance import attach_sources, provenance
    >>> data = attach_sources(Outcomes(np.ones((1, 2, 1), int)), [("a.csv", b"1"), ("b.csv", b"2")])
    >>> {k: v[:12] for k, v in provenance(data)["input"]["sha256_per_file"].items()}
    {'a.csv': '6b86b273ff34', 'b.csv': 'd4735e3a265e'}
    """
    given = sources  # a bare path or name is one file, never its characters
    sources = None if isinstance(given, str | bytes | os.PathLike) else list(given)
    if sources is None or not all(isinstance(x, tuple | list) and len(x) == 2 for x in sources):
        raise ValidationError(
            "sources must be a list of (name, path or bytes) pairs, one per file read; got "
            f"{type(given).__name__} {str(given)[:80]!r}")
    sizes = [len(s) if isinstance(s, bytes | bytearray | memoryview) else Path(s).stat().st_size
             for _, s in sources]
    total = int(sum(sizes))
    hashed = total <= (HASH_LIMIT_BYTES if limit is None else limit)
    meta = {k: v for k, v in data.metadata.items() if k not in _SEVERAL + _ONE}
    meta["source_sha256_per_file"] = {
        str(name): (file_sha256(s) if hashed else None) for name, s in sources
    }
    meta["source_bytes"] = total
    if not hashed:
        meta["source_unhashed"] = f"not hashed ({len(sources):,} files, {total / 1e9:.1f} GB)"
    if path is not None:
        meta["source_path"] = str(Path(path).resolve())
    return replace(data, metadata=meta)


def _versions() -> dict[str, str]:
    out = {}
    for name in ("scorio-studio", *KEY_PACKAGES):
        try:
            out[name] = _md.version(name)
        except _md.PackageNotFoundError:
            out[name] = "not installed"
    return out



def benchmark_of(data: Outcomes) -> str | None:
    """The record's ``benchmark``: the one benchmark ``data``'s questions belong to,
    :data:`~scorio_core.outcomes.COMBINED` where they pool several (the ``--benchmark`` /
    ``select`` value that keeps them all), ``None`` where they name none -- ``combined`` there
    said a pooling that did not happen. The record's ``benchmarks`` lists them all.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.definitions.provenance import benchmark_of
    >>> o = sc.Outcomes(np.ones((2, 4, 2), int), benchmarks=["a", "a", "b", "b"])
    >>> benchmark_of(o), benchmark_of(o.select("b")), benchmark_of(sc.Outcomes(o.R))
    ('combined', 'b', None)
    """
    names = data.benchmark_names
    if not names:
        return None
    return names[0] if len(names) == 1 else COMBINED


def benchmark_words(prov: dict[str, Any]) -> str:
    """A provenance record's benchmark in words, as a report's provenance table and a
    notebook's intro say it: the one benchmark, ``combined`` with the benchmarks it pools
    (at most 8 named), or :data:`NO_BENCHMARK` -- the record's own ``benchmark`` and
    ``benchmarks``, so the table and the JSON under it say one thing.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.definitions.provenance import benchmark_words, provenance
    >>> o = sc.Outcomes(np.ones((2, 4, 2), int), benchmarks=["a", "a", "b", "b"], name="runs")
    >>> benchmark_words(provenance(o)), benchmark_words(provenance(o.select("b")))
    ('combined (a, b)', 'b')
    >>> benchmark_words(provenance(sc.Outcomes(o.R, name="runs")))
    '(none: the questions carry no benchmark label)'
    """
    bench, names = prov.get("benchmark"), list(prov.get("benchmarks") or ())
    if bench is None:
        return NO_BENCHMARK
    if bench == COMBINED and len(names) > 1:
        return f"{bench} ({', '.join(names[:8])}{', ...' if len(names) > 8 else ''})"
    return str(bench)


def provenance(
    data: Outcomes | None,
    analysis_id: str | None = None,
    params: Any = None,
    *,
    now: datetime | None = None,
) -> dict[str, Any]:
    """The provenance record of an analysis of ``data`` (JSON-serialisable).

    Parameters
    ----------
    data : Outcomes or None
        The analysed data (after benchmark selection); ``None`` for a simulation study,
        which makes its own synthetic data from its settings (no input file).
    analysis_id : str, optional
        Registry id of the analysis (``None`` for a whole report).
    params : Params dataclass, optional
        Its settings; every field is listed, and fields named ``seed`` also under ``seeds``.
    now : datetime, optional
        Timestamp (default: the current UTC time).
    """
    settings = params_dict(params) if params is not None else {}
    if data is None:
        return {
            "dataset": SIMULATED,
            "input": None,
            "synthetic": True,
            "analysis": analysis_id,
            "settings": settings,
            "seeds": {k: v for k, v in settings.items() if "seed" in k},
            "versions": _versions(),
            "created_utc": (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
    meta = data.metadata
    inp = {
        "file": meta.get("source_name") or meta.get("source_file"),
        "sha256": meta.get("source_sha256"),
        "bytes": meta.get("source_bytes"),
        "format": meta.get("format"),
    }
    if meta.get("source_sha256_per_file"):  # several files: each one's sha256 (or why not)
        inp["sha256_per_file"] = dict(meta["source_sha256_per_file"])
    if meta.get("source_unhashed"):
        inp["not_hashed"] = meta["source_unhashed"]
    from ..io import load_keywords  # the options the data were read with, as a call gives them

    given = load_keywords(data)
    return {
        "dataset": data.name,
        "input": inp,
        # how the input was read: the loader options not at their defaults (none: omitted)
        **({"load_options": json_safe(given)} if given else {}),
        "shape": {"models": data.L, "questions": data.M, "trials": data.N},
        "categories": data.C + 1,
        "weights": [float(w) for w in data.weights],
        "greedy_R0": data.D,
        "benchmark": benchmark_of(data),  # one definition: benchmark_words says it
        "benchmarks": data.benchmark_names,
        # what the load did that changes the numbers (trials or questions left out, tasks
        # pooled), with counts: an export keeps it as the result's caveats do
        **({"load_notes": list(data.load_notes)} if data.load_notes else {}),
        "synthetic": bool(meta.get("synthetic", False)),
        "analysis": analysis_id,
        "settings": settings,
        "seeds": {k: v for k, v in settings.items() if "seed" in k},
        "versions": _versions(),
        "created_utc": (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _flat(prefix: str, v: Any, out: list[tuple[str, str]]) -> None:
    if isinstance(v, dict):
        for k, x in v.items():
            _flat(f"{prefix}.{k}" if prefix else str(k), x, out)
        return
    text = v if isinstance(v, str) else json.dumps(json_safe(v), ensure_ascii=False)
    out.append((prefix, re.sub(r"[\x00-\x1f\x7f\u2028\u2029]+", " ", str(text))))


def csv_header(prov: dict[str, Any]) -> str:
    """``# key: value`` lines (nested keys joined with dots) for the top of a CSV file."""
    rows: list[tuple[str, str]] = []
    _flat("", prov, rows)
    return "".join(f"# {k}: {v}\n" for k, v in rows)


def export_frame(df: pd.DataFrame, digits: int = EXPORT_DIGITS) -> pd.DataFrame:
    """``df`` as every CSV export writes it: :func:`scorio_core.export.csv_frame` (floats
    rounded by the exports' one rule; columns the tables print as whole numbers written as
    integers, a missing one empty, an infinite one ``inf``) -- the leaderboard's CSV and every
    analysis's CSV by one rule."""
    from ..export import csv_frame

    return csv_frame(df, digits)


def to_csv(df: pd.DataFrame, prov: dict[str, Any]) -> str:
    """A formula-safe CSV of ``df`` (:func:`scorio_core.export.table_csv`: numbers by
    :func:`export_frame`'s rule) under the commented provenance header.

    Read it back with ``pandas.read_csv(path, comment="#")``.
    """
    from ..export import table_csv

    return csv_header(prov) + table_csv(df)


def to_json(payload: dict[str, Any], prov: dict[str, Any]) -> str:
    """Strict JSON (no NaN) of ``{"provenance": prov, **payload}``."""
    if "provenance" in payload:
        raise ValidationError("payload already has a 'provenance' key")
    return json.dumps(json_safe({"provenance": prov} | payload), indent=2, allow_nan=False) + "\n"


def _slug(text: str, limit: int = 80) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._-")
    return re.sub(r"_+", "_", s)[:limit].strip("._-")


def export_filename(
    data: Outcomes | str | None, analysis_id: str, ext: str, part: str = ""
) -> str:
    """A file name that names the dataset and the analysis, in safe characters only.

    ``part`` names one table of a multi-table analysis (e.g. ``agreement``).

    Example
    -------
    >>> from scorio_core.definitions.provenance import export_filename
    >>> export_filename("Reasoning benchmarks (synthetic) [AIME'25]", "compare", "csv", "ranks")
    'Reasoning_benchmarks_synthetic_AIME_25_compare_ranks.csv'
    >>> export_filename("coins", "leaderboard", "csv", "leaderboard")
    'coins_leaderboard.csv'
    """
    if data is None:  # a simulation study: no dataset to name
        data = "simulation"
    name = data.name if isinstance(data, Outcomes) else str(data)
    ext = _slug(ext.lstrip(".")) or "txt"
    words: list[str] = []
    for piece in (_slug(name) or "dataset", _slug(analysis_id), _slug(part)):
        # a table named like its analysis (the leaderboard's 'leaderboard') or a dataset
        # whose name ends with the analysis: the word once, not '_leaderboard_leaderboard'
        if piece and not (words and (words[-1] == piece or words[-1].endswith("_" + piece))):
            words.append(piece)
    return f"{'_'.join(words)}.{ext}"


def export_result(
    analysis, data: Outcomes | None, params: Any, result: Any, fmt: str = "csv"
) -> dict[str, str]:
    """Every table of an analysis result as files ``{filename: text}`` with provenance.

    ``fmt="csv"``: one CSV per table (as :attr:`Analysis.csv_tables` has it, where the
    analysis declares one), each with the commented header;
    ``fmt="json"``: one JSON file with ``provenance`` and ``tables`` (records per table).
    """
    prov = provenance(data, analysis.id, params)
    tables = analysis.tables(result)
    if fmt == "csv":
        tables = analysis.csv_tables(result) if analysis.csv_tables else tables
        return {
            export_filename(data, analysis.id, "csv", name): to_csv(df, prov)
            for name, df in tables.items()
        }
    if fmt == "json":
        payload = {"tables": {k: df.to_dict(orient="records") for k, df in tables.items()}}
        return {export_filename(data, analysis.id, "json"): to_json(payload, prov)}
    raise ValidationError(f"format must be 'csv' or 'json'; got {fmt!r}")


def export_file(
    analysis, data: Outcomes, params: Any, result: Any, fmt: str = "json", table: str | None = None
) -> str:
    """One file of :func:`export_result`: the CSV of ``table`` (``fmt="csv"``) or the JSON
    of every table, as text with provenance (what a page's download button serves).

    Example
    -------
    >>> from scorio_core.definitions.provenance import export_file
    >>> import numpy as np
    >>> from scorio_core.definitions import ANALYSES
    >>> lb = ANALYSES["leaderboard"]
    >>> data = sc.Outcomes(np.random.default_rng(0).integers(0, 2, (2, 10, 3)), name="demo")
    >>> text = export_file(lb, data, lb.params(), lb.run(data, lb.params()), "csv", "leaderboard")
    >>> text.splitlines()[0]
    '# dataset: demo'
    """
    files = export_result(analysis, data, params, result, fmt)
    if fmt == "csv":
        return files[export_filename(data, analysis.id, "csv", table)]
    return next(iter(files.values()))
