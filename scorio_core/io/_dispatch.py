"""Which files to read, what each one is (from its content), and reading them together
(private; :func:`scorio_core.io.load` is the public entry point)."""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import Mention, Only, Said, ValidationError, joined, said_of
from ..formatting import count_text
from ..outcomes import LOAD_NOTES, POOLED, Outcomes
from ..samples import SAMPLES_SUFFIX, SampleStore, SampleWriter, beside, union
from . import helm, inspect, lm_eval, openai_evals
from ._assemble import PartsDifferError, _from_frame, grade_levels, parts_differ_text
from ._base import (
    ACCEPTED_SUFFIXES,
    LOADED_SUFFIXES,
    SPREADSHEET_HINT,
    MissingCellsError,
    MissingColumnsError,
    _format_of,
    _reported_as,
    _resolve,
    _sniff,
    _Src,
    noting_reads,
    open_zip,
    spreadsheet_kind,
)
from ._logs import LogPart, UnknownScorerError, assemble_logs, spill_texts
from .npz import _load_npz
from .options import LoadOptions, mention
from .table import _load_table, to_long_frame

if TYPE_CHECKING:
    import polars as pl
else:  # polars loads with the first table read, not with `import scorio_core.io`
    pl = lazy_module("polars")

#: Formats :func:`load` understands, by ``format=`` name.
LOG_FORMATS = ("inspect", "lm_eval", "openai_evals", "helm")
_AUX = "aux"  # a file read only as a sibling (lm-eval results)
_HELM_PART = "helm_part"  # another file of a HELM run (run_spec.json, stats.json ...)
_TASK_DEF = "lm_eval_task"  # a YAML: an lm-eval task definition (parsed: its task) or not
#: Other files of a HELM run directory: never outcomes, sometimes huge; not even opened
#: when found in a directory or archive (its ``stats.json``, HELM's headline, and its
#: ``scenario_state.json``, the texts, are read by :mod:`.helm` beside the run's
#: ``per_instance_stats.json`` when they are small enough).
HELM_OTHER = frozenset(
    {"scenario_state.json", "stats.json", "instances.json", "display_predictions.json",
     "display_requests.json", "scenario.json", "costs.json", "groups.json"}
)  # fmt: skip


def _wanted(path: PurePosixPath, size: int | None = None) -> bool:
    """Whether a file found in a directory or archive is read. ``size``: an archive
    member's (expanded) size, to extract a HELM ``stats.json`` small enough for
    :mod:`.helm` to read (on disk it reads the file beside the run itself)."""
    if path.name == helm.STATS_NAME and size is not None:
        return size <= helm.STATS_MAX_BYTES
    # a sample store beside a dataset is attached to it (_read_one), not read as data
    # lm-eval task definitions (YAML) are listed to say what a folder of them is, not read
    return (path.suffix.lower() in (*LOADED_SUFFIXES, *lm_eval.TASK_SUFFIXES)
            and path.name not in HELM_OTHER and not path.name.lower().endswith(SAMPLES_SUFFIX))


@dataclass(frozen=True)
class Item:
    src: _Src
    explicit: bool  # named by the caller (not found in a directory or archive)


def _label_src(path: Path, label: str, max_bytes: int) -> _Src:
    src = _resolve(path, None, max_bytes)
    return replace(src, label=label)


def gather(source: Any, filename: str | None, max_bytes: int) -> list[Item]:
    """Expand ``source`` (a path, a directory, bytes, a list of them, or a mapping of
    file name -> bytes) into the files to read."""
    if isinstance(source, Mapping):
        return [Item(_resolve(v, str(k), max_bytes), True) for k, v in source.items()]
    if isinstance(source, list | tuple):
        if not source:
            raise ValidationError("no files given; expected at least one path")
        items = [it for s in source for it in gather(s, None, max_bytes)]
        labels = [it.src.label for it in items]
        return [  # the same file name in two places: show the paths
            Item(replace(it.src, label=str(it.src.path)), it.explicit)
            if labels.count(it.src.label) > 1 and it.src.path is not None
            else it
            for it in items
        ]
    if isinstance(source, str | os.PathLike) and Path(source).is_dir():
        root = Path(source)
        files = sorted(
            p for p in root.rglob("*")
            if p.is_file() and _wanted(PurePosixPath(p.name))
            and not any(part.startswith(".") for part in p.relative_to(root).parts)
        )  # fmt: skip
        if not files:
            helm_files = {  # a HELM run directory without its outcomes: say what it needs
                f"{root.name or root}/{p.relative_to(root).as_posix()}": p.name
                for p in sorted(root.rglob("*")) if p.name in helm.RUN_FILES and p.is_file()
            }  # fmt: skip
            if helm_files:
                raise ValidationError(helm.not_outcomes(helm_files))
            raise ValidationError(
                f"{root.name or root}: a directory (not a regular file) with no files to read "
                f"(looked for {', '.join(LOADED_SUFFIXES)}, recursively)"
            )
        base = root.name or str(root)
        return [
            Item(_label_src(p, f"{base}/{p.relative_to(root).as_posix()}", max_bytes), False)
            for p in files
        ]
    return [Item(_resolve(source, filename, max_bytes), True)]


def _json_or_none(src: _Src) -> tuple[Any, str | None]:
    try:
        return json.loads(src.read()), None
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        return None, str(exc)


def _instance_stats_streamed(src: _Src) -> bool:
    """Whether a JSON file is a HELM ``per_instance_stats.json``, from its first entry alone
    (:func:`.helm.first_entry`): a suite's runs are not all parsed before the first is read,
    each is decoded a record at a time when it is (:func:`.helm.read_stats`)."""
    try:
        with src.open() as fh:
            return helm.is_instance_stats([helm.first_entry(fh)])
    except OSError:
        return False


def _first_line(src: _Src) -> Any:
    with src.open() as fh:
        for raw in fh:
            if raw.strip():
                try:
                    return json.loads(raw)
                except (ValueError, UnicodeDecodeError, RecursionError):
                    return None
    return None


def _zip_names(src: _Src) -> list[str] | None:
    try:
        with zipfile.ZipFile(src.open()) as zf:
            return zf.namelist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        return None


def detect(src: _Src, format: str | None) -> tuple[str, Any]:
    """``(kind, parsed)``: the format of ``src`` from its content (and suffix).

    kind is a table/npz format of :data:`ACCEPTED_SUFFIXES`, ``"inspect"``,
    ``"inspect_json"``, ``"lm_eval"``, ``"openai_evals"``, ``"helm"``, ``"archive"``
    (a zip of logs), ``"aux"`` (JSON read only next to a log), ``"helm_part"`` (another
    file of a HELM run, parsed = which one: a key of :data:`.helm.RUN_FILES`) or
    ``"unknown_json"``.
    """
    name = PurePosixPath(src.label.replace("\\", "/")).name
    if format is not None:
        key = str(format).lower().lstrip(".")
        if key in LOG_FORMATS or key == "eval":
            key = "inspect" if key == "eval" else key
            if key == "inspect" and not src.head.startswith(b"PK"):
                return ("inspect_json", None)  # parsed when read (read_json_file)
            if key == "helm":
                if name in (helm.STATS_NAME, helm.SCENARIO_STATE):  # read (size checked)
                    return (_HELM_PART, name)  # beside the stats only
                if _instance_stats_streamed(src):
                    return ("helm", None)
                obj, err = _json_or_none(src)
                if err:
                    raise ValidationError(f"{src.label}: not JSON ({err})")
                return _helm_kind(obj)
            return (key, None)
        return (_format_of(src, format), None)
    suffix = Path(name).suffix.lower()
    if suffix in lm_eval.TASK_SUFFIXES:  # never data: what it is is said if nothing loads
        return (_TASK_DEF, _task_definition(src))
    if src.head.startswith(b"PK") and suffix not in (*ACCEPTED_SUFFIXES, ".eval"):
        names = _zip_names(src)
        if spreadsheet_kind(kind := _sniff(src.head, src)):
            raise ValidationError(f"{src.label}: this is {kind}, not a table we read; "
                                  f"{SPREADSHEET_HINT}")
        if names is not None:
            if inspect.HEADER in names or inspect.START in names:
                return ("inspect", None)
            if names and all(n.endswith(".npy") for n in names):
                return ("npz", None)
            if suffix == ".zip" or suffix not in ACCEPTED_SUFFIXES:
                return ("archive", names)
        elif suffix == ".zip":
            raise ValidationError(f"{src.label}: not a readable zip archive (corrupt or truncated)")
    if suffix == ".eval":
        return ("inspect", None)
    if suffix == ".zip":
        raise ValidationError(f"{src.label}: not a zip archive (it starts with {src.head!r})")
    if name in (helm.STATS_NAME, helm.SCENARIO_STATE):  # HELM's aggregate, its request
        return (_HELM_PART, name)  # states: read (size checked) by .helm only
    if suffix == ".json":
        if _instance_stats_streamed(src):
            return ("helm", None)  # decoded a record at a time when read
        if inspect.is_inspect_json(inspect.json_header(src)):
            return ("inspect_json", None)  # its header is all a listing reads of it
        obj, err = _json_or_none(src)
        if err:
            raise ValidationError(f"{src.label}: not JSON ({err})")
        if inspect.is_inspect_json(obj):
            return ("inspect_json", obj)
        if helm.run_file(obj) is not None:
            return _helm_kind(obj)
        if lm_eval.RESULTS_NAME.match(name):
            return (_AUX, obj)
        return ("unknown_json", obj)
    if suffix in (".jsonl", ".ndjson"):
        if lm_eval.SAMPLES_NAME.match(name):
            return ("lm_eval", None)
        first = _first_line(src)
        if openai_evals.is_spec_line(first):
            return ("openai_evals", None)
        if lm_eval.is_samples_line(first):
            return ("lm_eval", None)
    return (_format_of(src, None), None)


def _task_definition(src: _Src) -> str | None:
    """The task an lm-eval task definition YAML defines (:func:`.lm_eval.task_definition`),
    ``None`` for another YAML or one too large to be a definition."""
    try:
        with src.open() as fh:
            text = fh.read(_TASK_DEF_BYTES + 1)
    except OSError:
        return None
    if len(text) > _TASK_DEF_BYTES:
        return None
    try:
        return lm_eval.task_definition(text.decode("utf-8"))
    except UnicodeDecodeError:
        return None


#: Largest YAML looked at as a possible lm-eval task definition (bytes; lm-eval's are ~1 KB).
_TASK_DEF_BYTES = 1 << 20


def _task_definitions_refusal(kinds: Sequence[tuple[Item, str, Any]],
                              docs: _Src | None = None) -> str | None:
    """The refusal of a listing that holds lm-eval task definitions and no logs (a folder
    of task YAMLs and their documents): what it is and what to load instead; ``None`` when
    it holds none. ``docs``: a documents file named alone, with the definitions beside it
    on disk that read it (:func:`_definitions_beside`)."""
    defs = [(it.src, task) for it, kind, task in kinds if kind == _TASK_DEF and task]
    if not defs:
        return None
    folders = {it.path.parent for it, _ in defs if it.path is not None}
    folder = str(next(iter(folders))) if len(folders) == 1 else None
    labels = [it.label for it, _ in defs]
    tasks = [t for _, t in defs]
    many = len(defs) > 1
    if docs is not None:
        return lm_eval.not_logs(
            docs.label, "the documents of the lm-eval task definition"
            + ("s" if many else "") + " beside it", labels, tasks, folder)
    parents = {str(PurePosixPath(x.replace(chr(92), "/")).parent) for x in labels}
    if len(parents) == 1 and (parent := parents.pop()) != "." and not any(
            it.explicit for it, kind, _ in kinds if kind == _TASK_DEF):
        return lm_eval.not_logs(parent, "this folder holds lm-eval task definitions", labels,
                                tasks, folder)
    what = "lm-eval task definitions" if many else "an lm-eval task definition"
    return lm_eval.not_logs(", ".join(labels[:3]) + (", ..." if len(labels) > 3 else ""),
                            f"{'these are' if many else 'this file is'} {what}", labels,
                            tasks, folder)


def _names_file(definition: _Src, name: str) -> bool:
    """Whether a task definition YAML names the file ``name`` (its documents)."""
    try:
        with definition.open() as fh:
            return name in fh.read(_TASK_DEF_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return False


def _documents_of(kinds: Sequence[tuple[Item, str, Any]], src: _Src) -> bool:
    """Whether ``src`` is the documents file of an lm-eval task definition listed with it."""
    name = PurePosixPath(src.label.replace("\\", "/")).name
    return any(kind == _TASK_DEF and task and _names_file(it.src, name)
               for it, kind, task in kinds)


def _definitions_beside(src: _Src) -> list[tuple[Item, str, Any]]:
    """The lm-eval task definitions beside a file on disk that name it (their documents:
    ``dataset_kwargs.data_files``), as listed entries; none for another file."""
    if src.path is None:
        return []
    out = []
    for p in sorted(src.path.parent.iterdir()):
        if (p.suffix.lower() not in lm_eval.TASK_SUFFIXES or not p.is_file()
                or p.stat().st_size > _TASK_DEF_BYTES):
            continue
        it = Item(_resolve(p, None, _TASK_DEF_BYTES), False)
        if (task := _task_definition(it.src)) and _names_file(it.src, src.path.name):
            out.append((it, _TASK_DEF, task))
    return out


def _helm_kind(obj: Any) -> tuple[str, Any]:
    """A parsed JSON document's kind when it may be a file of a HELM run."""
    role = helm.run_file(obj)
    if role == "per_instance_stats.json":
        return ("helm", obj)
    return (_HELM_PART, role) if role else ("unknown_json", obj)


def _helm_role(src: _Src, role: str) -> str | None:
    """What a file called ``stats.json`` or ``scenario_state.json`` (not parsed when found)
    really is: its first entry or members, decoded alone and read only that far, say
    whether it is HELM's."""
    if role == helm.SCENARIO_STATE:
        return role if helm.is_scenario_state(src) else None
    if role != helm.STATS_NAME:
        return role
    try:
        with src.open() as fh:
            return helm.run_file([helm.first_entry(fh)])
    except OSError:
        return None


def _archive_items(item: Item, max_bytes: int, texts: bool = True) -> list[Item]:
    """The files of a zip archive to read; ``texts``: with each HELM run's
    ``scenario_state.json`` (the texts, read by :mod:`.helm`) when it fits in the memory
    the archive's files may take (``max_bytes``, :data:`.helm.SCENARIO_STATE_MAX_BYTES` and
    what the other files leave under ``MAX_DECODED_BYTES``)."""
    from ._base import MAX_DECODED_BYTES, check_expanded, read_member

    base = item.src.label
    out = []
    with open_zip(item.src, "zip archive of logs") as zf:
        names, states = [], []
        for n in dict.fromkeys(zf.namelist()):
            p = PurePosixPath(n)
            if n.endswith("/") or any(s.startswith(".") or s == "__MACOSX" for s in p.parts):
                continue
            if _wanted(p, zf.getinfo(n).file_size):
                names.append(n)
            elif texts and p.name == helm.SCENARIO_STATE and zf.getinfo(n).file_size <= min(
                    max_bytes, helm.SCENARIO_STATE_MAX_BYTES):
                states.append(n)
        check_expanded(zf, names, base)
        room = MAX_DECODED_BYTES - sum(zf.getinfo(n).file_size for n in names)
        for n in states:  # optional: only what the outcomes leave room for
            if zf.getinfo(n).file_size <= room:
                names.append(n)
                room -= zf.getinfo(n).file_size
        for n in names:
            data = read_member(zf, n, base, max_bytes)
            if not data:
                continue
            out.append(Item(_Src(f"{base}/{n}", data=data, head=data[:8]), False))
    if not out:
        raise ValidationError(
            f"{base}: the zip archive holds no files to read (looked for "
            f"{', '.join(LOADED_SUFFIXES)})"
        )
    return out


def _siblings(items: Sequence[Item]) -> dict[str, dict[str, _Src]]:
    by_dir: dict[str, dict[str, _Src]] = {}
    for it in items:
        parent = str(PurePosixPath(it.src.label.replace("\\", "/")).parent)
        by_dir.setdefault(parent, {})[it.src.label] = it.src
    return by_dir


def _parent(label: str) -> str:
    return str(PurePosixPath(label.replace("\\", "/")).parent)


#: What :func:`detect` calls a harness log (a folder of them may hold other files).
_LOG_KINDS = ("inspect", "inspect_json", "lm_eval", "openai_evals", "helm")
#: The kinds :func:`detect` gives a long table (CSV, Parquet, JSONL).
_TABLE_KINDS = tuple(sorted({f for f in ACCEPTED_SUFFIXES.values() if f != "npz"}))


def load_many(
    source: Any,
    opts: LoadOptions,
    *,
    filename: str | None = None,
) -> Outcomes:
    """Read every file of ``source`` and assemble one :class:`Outcomes`."""
    return _load_items(gather(source, filename, opts.max_bytes), opts,
                       _collection(source, filename))


def inventory(source: Any, opts: LoadOptions, *, filename: str | None = None
              ) -> list[dict[str, Any]]:
    """What ``source`` holds, read but not combined: one row per task of its logs (its
    harness, the files, and -- loaded alone, as ``benchmark=`` the task loads it -- its
    models as the tool shows them, questions and trials, or why it does not load alone) and
    one per table or ``.npz``. For data whose parts cannot be combined (tasks run on other
    models with other trials) it says what there is and which part loads; a file that
    cannot be read at all is refused as :func:`load` refuses it.

    Example
    -------
    >>> from scorio_core.io import LoadOptions
    >>> from scorio_core.io._dispatch import inventory
    >>> rows = inventory("tests/fixtures/harness/inspect/eval_set", LoadOptions())
    >>> [(r["task"], sorted(r["models"]), r["questions (M)"], r["trials (N)"]) for r in rows]
    [('arith', ['alpha', 'beta'], 5, 2), ('logic', ['alpha', 'beta'], 4, 3)]
    """
    opts = replace(opts, samples="skip")
    got = _read_files(*_listing(gather(source, filename, opts.max_bytes), opts), opts)
    rows: list[dict[str, Any]] = []
    for task in dict.fromkeys(p.benchmark for p in got.parts):
        mine = [p for p in got.parts if p.benchmark == task]
        row: dict[str, Any] = {"harness": "+".join(sorted({p.format for p in mine})),
                               "task": task, "files": len({p.file for p in mine})}
        try:
            alone = assemble_logs([_as_read(p) for p in got.parts], replace(opts, benchmark=task))
        except (ValidationError, KeyError, TypeError, AttributeError, IndexError) as exc:
            said = said_of(exc)  # its options named as each surface names them
            row.update(models=list(dict.fromkeys(p.model for p in mine)),
                       loads="not alone: " + (said.splitlines()[0] if "\n" in said else said))
        else:
            row.update({"models": list(alone.models), "questions (M)": alone.M,
                        "trials (N)": alone.N, "loads": mention("benchmark", task)})
        rows.append(row)
    for label, o in got.tables:
        rows.append({"harness": o.metadata.get("format"),
                     "task": ", ".join(o.benchmark_names) or None, "files": 1, "file": label,
                     "models": list(o.models), "questions (M)": o.M, "trials (N)": o.N})
    return rows


def _collection(source: Any, filename: str | None = None) -> str | None:
    """The name of a folder (or zip archive, on disk or uploaded) given as the source:
    what data pooled from the logs or files of several tasks in it are called (``None``
    for anything else)."""
    if isinstance(source, Mapping) and len(source) == 1:  # one upload
        filename = str(next(iter(source)))
    elif isinstance(source, str | os.PathLike):
        path = Path(source)
        if path.is_dir():
            return path.resolve().name or None
        filename = filename or path.name
    name = PurePosixPath(str(filename or "").replace(chr(92), "/"))
    return (name.stem or None) if name.suffix.lower() == ".zip" else None


def _load_items(items: Sequence[Item], opts: LoadOptions,
                collection: str | None = None) -> Outcomes:
    """Read the files ``items`` (:func:`gather`) and assemble one :class:`Outcomes`;
    ``collection``: the name of the folder they were found in."""
    return _read_listing(*_listing(items, opts), opts, collection)


def _listing(items: Sequence[Item], opts: LoadOptions
             ) -> tuple[list[tuple[Item, str, Any]], dict[str, Item]]:
    """What each file of ``items`` is (:func:`detect`; an archive's files in its place):
    ``(item, kind, parsed)`` in reading order, and each file -> the file on disk (or
    upload) it came from."""
    kinds: list[tuple[Item, str, Any]] = []
    top: dict[str, Item] = {}
    queue = list(items)
    while queue:
        it = queue.pop(0)
        top.setdefault(it.src.label, it)
        kind, parsed = detect(it.src, opts.format)
        if kind == "archive":
            members = _archive_items(it, opts.max_bytes, texts=opts.samples == "keep")
            top.update({m.src.label: top[it.src.label] for m in members})
            queue = members + queue
            continue
        kinds.append((it, kind, parsed))
    return kinds, top


@dataclass
class _Read:
    """The files of a listing as read (:func:`_read_files`), before they are assembled."""

    parts: list[LogPart]  # the logs' parts
    tables: list[tuple[str, Outcomes]]  # (file, outcomes) of the tables and .npz files
    skipped: list[str]  # files passed over (neither a log nor a table)
    writer: SampleWriter  # the logs' texts
    read: dict[str, list[Item]]  # each file read -> the files read beside it


def _read_listing(kinds: list[tuple[Item, str, Any]], top: Mapping[str, Item],
                  opts: LoadOptions, collection: str | None = None) -> Outcomes:
    """Read the files listed (:func:`_listing`; ``kinds`` loses each parsed document as its
    file is read) and assemble one :class:`Outcomes`, named ``collection`` (the folder's
    name) when it pools several tasks or files and no name was given."""
    got = _read_files(kinds, top, opts)
    parts, tables, read = got.parts, got.tables, got.read
    logs = None
    if parts:
        as_read = [_as_read(p) for p in parts]  # the assembly renames and notes in place
        try:
            logs = assemble_logs(parts, opts, skipped=got.skipped, writer=got.writer,
                                 collection=collection)
        except PartsDifferError as exc:  # say it with the names and options of these logs
            raise PartsDifferError(_parts_differ_text(exc, as_read, opts), exc.models,
                                   exc.trials) from None
        except ValidationError as exc:
            hint = "" if type(exc) is not ValidationError else _assembly_hint(
                as_read, parts, opts, str(exc))
            if not hint:
                raise
            raise ValidationError(said_of(exc) + hint) from None  # a Said stays one
        tables.insert(0, ("logs", logs))
    out = tables[0][1] if len(tables) == 1 else combine(tables, opts, collection)
    # the files the outcomes came from (not another task's logs, read for their header or
    # name only and left out by the assembly), each once, with the files read beside them
    kept = {f for label, o in tables for f in (
        _files(o.metadata.get("source_file")) if o is logs else (label,))}
    data_files = {top[f].src.label: top[f] for f in read if f in kept}  # an archive once
    used = {it.src.label: it for f in read if f in kept for it in (top[f], *read[f])}
    return _with_sources(out, list(used.values()), list(data_files.values()))


def _read_files(kinds: list[tuple[Item, str, Any]], top: Mapping[str, Item],
                opts: LoadOptions) -> _Read:
    """Read each file listed (:func:`_listing`) as what it is: the logs' parts, the tables,
    the files passed over; refuses what cannot be read, with advice tried on the listing."""
    read: dict[str, list[Item]] = {}  # each file read -> the files read beside it
    siblings = _siblings([it for it, _, _ in kinds])
    has_logs = any(k in _LOG_KINDS for _, k, _ in kinds)
    parts: list[LogPart] = []
    tables: list[tuple[str, Outcomes]] = []
    skipped: list[str] = []
    writer = SampleWriter()  # the logs' texts, one scratch file per log as it is read
    _refuse_helm_parts(kinds, explicit=True)
    for i, (it, kind, parsed) in enumerate(kinds):
        src = it.src
        if kind not in (_HELM_PART, _TASK_DEF):  # a parsed log is not held past its reading
            kinds[i] = (it, kind, None)
        if kind == _AUX and it.explicit and len(kinds) == 1:
            raise ValidationError(
                f"{src.label}: this file only describes a run (lm-eval's results file: model "
                "name, settings, aggregate scores); the outcomes are in the "
                "samples_<task>_<date>.jsonl files next to it: load the directory, or give "
                "them with it"
            )
        if kind == _TASK_DEF:  # not data: said when nothing else loads (below)
            if it.explicit and parsed is None:
                _format_of(src, None)  # another YAML named: not a file type we read
            continue
        if kind in (_AUX, _HELM_PART, "unknown_json"):
            if kind == "unknown_json" and it.explicit:
                raise ValidationError(_unknown_json(src.label))
            if kind == "unknown_json":
                skipped.append(src.label)
            continue
        sib = siblings.get(_parent(src.label), {})
        n_parts = len(parts)
        try:
            with noting_reads() as reads:  # the files read beside it count as read too
                _read_one(src, kind, parsed, sib, parts, tables, opts)
        except MissingColumnsError:
            if not it.explicit and _documents_of(kinds, src):
                skipped.append(src.label)  # a task's documents: said below if nothing loads
                continue
            if it.explicit and len(kinds) == 1 and (said := _task_definitions_refusal(
                    _definitions_beside(src), src)):
                raise ValidationError(said) from None
            if it.explicit or not has_logs:
                raise
            skipped.append(src.label)  # found beside logs, neither a log nor a table
            continue
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValidationError(
                f"{src.label}: unexpected structure for a {kind} file ({type(exc).__name__}: "
                f"{exc})"
            ) from None
        except ValidationError as exc:  # one task's log in a folder of several: say so
            hint = "" if isinstance(exc, MissingCellsError) else _failed_log_hint(
                kinds, top, (it, kind, parsed), opts, isinstance(exc, UnknownScorerError))
            if not hint:
                raise
            raise ValidationError(said_of(exc) + hint) from None  # a Said stays one
        parsed = None  # read: its texts are spilled and its memory given back (spill_texts)
        for part in parts[n_parts:]:
            spill_texts(part, writer, keep=opts.samples == "keep")
        # beside it: a file given or found with it, else one on disk
        read[src.label] = [top.get(r.label, Item(r, False)) for r in reads
                           if r.label != src.label]
    _refuse_ignored_options(kinds, opts, dict(tables))
    if not parts and not tables:
        _refuse_helm_parts(kinds, explicit=False)
        if said := _task_definitions_refusal(kinds):
            raise ValidationError(said)
        shown = f" ({', '.join(skipped[:5])}{', ...' if len(skipped) > 5 else ''})"
        raise ValidationError(
            f"no outcome files among {count_text(len(kinds), 'file')}{shown if skipped else ''}; "
            "expected "
            "logs (.eval, .json, samples_*.jsonl, OpenAI evals .jsonl, per_instance_stats.json), "
            "long tables or .npz"
        )
    return _Read(parts, tables, skipped, writer, read)


def _files(source_file: Any) -> list[str]:
    """The files an assembly of logs names in ``metadata["source_file"]`` (one or a list)."""
    return [source_file] if isinstance(source_file, str) else list(source_file or ())


#: Options an ``.npz`` cannot honour (it holds the outcome array, not rows or logs): refused
#: rather than ignored. The first two change which rows and models there are, so they are
#: refused whenever an ``.npz`` is read (a table beside it would be filtered, it not); the
#: others only when nothing but ``.npz`` files is read (they apply to the tables or logs).
_NOT_FOR_NPZ = ("where", "model_columns", "columns", "attributes", "scorer", "score_range",
                "number_trials")


def _refuse_ignored_options(kinds: Sequence[tuple[Item, str, Any]], opts: LoadOptions,
                            read: Mapping[str, Outcomes]) -> None:
    """Refuse the options of :data:`_NOT_FOR_NPZ` that the ``.npz`` files read (``read``:
    label -> outcomes) ignore -- they had been ignored without a word: ``--where source=x``
    on an ``.npz`` analysed every question -- with the ways to read part of that file it
    has (its benchmarks, its question attributes)."""
    npz = [it.src.label for it, kind, _ in kinds if kind == "npz" and it.src.label in read]
    only = len(npz) == len(kinds)
    changed = opts.changed()
    given = [k for k in _NOT_FOR_NPZ if k in changed and (only or k in ("where", "model_columns"))]
    data = [it.src.label for it, k, _ in kinds if k in (*_TABLE_KINDS, "npz", *_LOG_KINDS)]
    if opts.number_trials and data and not any(k in _TABLE_KINDS for _, k, _ in kinds):
        raise ValidationError(Said(  # logs number their own trials (epochs, repeats)
            mention("number_trials", True), " numbers the rows of a long table without a "
            f"trial column, but no table is read here ({', '.join(data[:3])}"
            f"{', ...' if len(data) > 3 else ''}): drop it; logs and .npz files hold their "
            "own trials"))
    if not (npz and given):
        if opts.scorer is not None and read and not any(k in _LOG_KINDS for _, k, _ in kinds):
            raise ValidationError(Said(  # the options as each surface names them
                mention("scorer", opts.scorer), " picks the outcome among a log's scorers, but "
                f"no log is read here ({', '.join(list(read)[:3])}): drop it; a table's outcome "
                "column is chosen with ", mention("columns"), Only("python", " (e.g. {'outcome': "
                "'score'})"), Only("cli", " (e.g. outcome=score)")))
        return
    o = read[npz[0]]
    ways = []
    if len(o.benchmark_names) > 1:
        ways.append(Said("a benchmark (", mention("benchmark", o.benchmark_names[0]),
                         f"; benchmarks: {', '.join(o.benchmark_names)})"))
    if o.question_attributes:
        from ..params import LeaderboardParams

        attr = next(iter(o.question_attributes))
        first = next((v for v in o.question_attributes[attr] if v), "VALUE")
        ways.append(Said("a subset of its questions (", Mention(
            LeaderboardParams, "subset", f"{attr}={first}"), " in every analysis; attributes: "
            f"{', '.join(o.question_attributes)})"))
    names = joined(", ", [mention(k) for k in given])  # as each surface names them
    raise ValidationError(
        f"{npz[0]}: an .npz holds the outcome array itself, not table rows or log scores, "
        "so " + names + f" would be ignored: drop {'it' if len(given) == 1 else 'them'}"
        + ("; to analyse part of it, choose " + joined(" or ", ways) if ways else "")
    )


def _unknown_json(label: str) -> str:
    return (f"{label}: a JSON file that is neither an Inspect log (with 'eval' and 'samples') "
            "nor a file of a HELM run (per_instance_stats.json, run_spec.json, ...)")


def _refuse_helm_parts(kinds: Sequence[tuple[Item, str, Any]], explicit: bool) -> None:
    """Refuse files of a HELM run given without its ``per_instance_stats.json`` (HELM's
    scenario.json, run_spec.json, stats.json ... alone), saying what each is and what the
    importer needs: those named by the caller (``explicit``), or any when nothing else was
    read. A file called stats.json that is not HELM's list is an unknown JSON file."""
    runs = {_parent(it.src.label) for it, k, _ in kinds if k == "helm"}
    found: dict[str, str] = {}
    run_dir = None  # a named file's directory on disk that holds the run's outcomes
    for it, kind, role in kinds:
        if kind != _HELM_PART or _parent(it.src.label) in runs or (explicit and not it.explicit):
            continue
        if (role := _helm_role(it.src, role)) is None:
            if it.explicit:
                raise ValidationError(_unknown_json(it.src.label))
            continue
        found[it.src.label] = role
        path = it.src.path
        if it.explicit and path is not None and all(
            (path.parent / n).is_file() for n in helm.NEEDED
        ):
            run_dir = run_dir or str(path.parent)
    if found:
        raise ValidationError(helm.not_outcomes(found, run_dir))


def _with_sources(data: Outcomes, used: Sequence[Item], data_files: Sequence[Item]) -> Outcomes:
    """``data`` with the name and sha256 of each file they were read from, the files read
    beside one included (a log's for names only, a table's sample store whose texts are
    shown; an archive counts once;
    :func:`~scorio_core.definitions.provenance.attach_sources`). One upload's bytes the
    caller named are left to the caller (the app records them with their name), so no file
    is hashed twice; when one file on disk was read as data (``data_files``), it stays the
    file a notebook loads again though files beside it were read too."""
    from ..definitions.provenance import attach_source, attach_sources

    def raw(it: Item):
        return it.src.path if it.src.path is not None else it.src.data

    if not used:
        return data
    if len(used) == 1:
        it = used[0]
        if it.explicit and it.src.path is None:
            return data
        return attach_source(data, raw(it), it.src.label)
    # one file read as data, with files beside it: a notebook still loads that one file
    named = data_files[0].src.path if len(data_files) == 1 else None
    return attach_sources(data, [(it.src.label, raw(it)) for it in used], path=named)


def _tasks_of(entry: tuple[Item, str, Any], opts: LoadOptions) -> set[str]:
    """The tasks of a listed Inspect or lm-eval log, read from its header or name only, as
    a load with ``benchmark=`` another task reads it (for advice when one task's log cannot
    be read as asked); none where that read fails or for another file."""
    it, kind, _ = entry
    try:
        if kind == "inspect":  # a benchmark no task has: only the header is read
            return {inspect.read_eval(it.src, None, opts.max_bytes, "\0", False).benchmark}
        if kind == "inspect_json":
            return {inspect.read_json_file(it.src, None, "\0", False).benchmark}
        if kind == "lm_eval":
            return lm_eval.task_of(it.src.label)
    except (ValidationError, KeyError, TypeError):
        pass
    return set()


def _one_task_hint(tasks: set[str], opts: LoadOptions, failing: set[str] = frozenset()
                   ) -> str:
    """``; the logs hold 2 tasks (arith, essay): ...`` when no task was chosen, naming a
    task other than the one whose log failed (advice that works on the same data)."""
    others = sorted(tasks - set(failing))
    if len(tasks) < 2 or opts.benchmark is not None or not others:
        return ""
    shown = sorted(tasks)
    first = others[0]
    return (f"; the logs hold {len(shown)} tasks ({', '.join(shown[:6])}"
            f"{', ...' if len(shown) > 6 else ''}): to read another task alone, pass "
            + mention("benchmark", first))


def _as_read(part: LogPart) -> LogPart:
    """A copy of ``part`` that the assembly's changes (model and benchmark names, notes)
    leave as it was read; the records are shared, the assembly does not change them."""
    return replace(part, notes=list(part.notes), load_notes=set(part.load_notes))


#: Tasks assembled alone, at most, to find one to advise after the logs of several failed.
_ALONE_TRIES = 8


def _assembly_hint(as_read: Sequence[LogPart], parts: Sequence[LogPart], opts: LoadOptions,
                   error: str) -> str:
    """The advice when the logs of several tasks were read but fail to assemble together: a
    task that assembles alone from the same logs (``benchmark=`` it, tried on copies of the
    parts ``as_read``), else nothing. The error may come from combining the tasks (the
    weights given fit none of them, two scales) rather than from the log it names, so the
    task is not chosen by the file named alone: those the error does not name are tried
    first. ``parts``: after the failed assembly, their benchmarks named as ``benchmark=``
    takes them (``arith[level=2]``)."""
    tasks = set(dict.fromkeys(p.benchmark for p in parts))
    if len(tasks) < 2 or opts.benchmark is not None:
        return ""
    named = {p.benchmark for p in parts if p.file in error}
    order = sorted(tasks - named) + sorted(named & tasks)
    for task in order[:_ALONE_TRIES]:
        try:
            assemble_logs([_as_read(p) for p in as_read], replace(opts, benchmark=task))
        except (ValidationError, KeyError, TypeError, AttributeError, IndexError):
            continue  # it fails alone too: advice that fails on the same data is not given
        return _one_task_hint(tasks, opts, tasks - {task})
    return ""


def _parts_differ_text(exc: PartsDifferError, as_read: Sequence[LogPart],
                       opts: LoadOptions) -> str:
    """:func:`parts_differ_text` for logs: each task's models named as the task shows them
    when loaded alone (without the provider prefixes another harness's names kept in the
    joint load), and only the ``benchmark=`` loads that were tried and load (at most
    :data:`_ALONE_TRIES` tried)."""
    models, loads = dict(exc.models), []
    for b in list(models)[:_ALONE_TRIES]:
        try:
            alone = assemble_logs([_as_read(p) for p in as_read],
                                  replace(opts, benchmark=b, samples="skip"))
        except (ValidationError, KeyError, TypeError, AttributeError, IndexError):
            continue
        models[b] = alone.models
        loads.append(b)
    text = parts_differ_text(models, exc.trials, loads, what="tasks")
    untried = len(models) - _ALONE_TRIES
    return text + (f" ({count_text(untried, 'other task')} not tried)" if untried > 0 else "")


def _loads_alone(kinds: Sequence[tuple[Item, str, Any]], top: Mapping[str, Item],
                 opts: LoadOptions, task: str) -> Exception | None:
    """Whether ``benchmark=task`` loads the files listed (``kinds``, :func:`_listing`) with
    the other options as given: tried as the user would run it (scores only), ``None`` when
    it loads, else its error."""
    try:
        _read_listing(list(kinds), top, replace(opts, benchmark=task, samples="skip"))
    except (ValidationError, KeyError, TypeError, AttributeError, IndexError) as exc:
        return exc
    return None


def _failed_log_hint(kinds: Sequence[tuple[Item, str, Any]], top: Mapping[str, Item],
                     failed: tuple[Item, str, Any], opts: LoadOptions,
                     unknown_scorer: bool) -> str:
    """The advice when one task's log cannot be read as asked in a listing of several
    tasks: another task that loads alone from the same files (``benchmark=`` it, tried by
    :func:`_loads_alone`: the other tasks may fail for the same reason, e.g. lack the
    scorer asked for or hold no scores either), else nothing -- or, for a scorer
    (``unknown_scorer``) that the first log of every task lacks, that none has it (a task
    whose first log has it is not said to lack it, though a later log does).

    Its cost is bounded whatever the folder holds: each log's task is read once, from its
    header or name (:func:`_tasks_of`); at most :data:`_ALONE_TRIES` tasks are tried, the
    first that loads ends the search; and a try reuses the listing and leaves out the
    Inspect logs of other tasks (a load with ``benchmark=`` reads only their headers,
    which were just read without fault, and drops them), so it reads the task's own logs
    and the files whose task is not known from a header (lm-eval, whose groups may name
    another task's file; HELM; tables)."""
    if opts.benchmark is not None or (not unknown_scorer and failed[1] not in _LOG_KINDS):
        return ""
    of = [(entry, _tasks_of(entry, opts)) for entry in kinds]  # each log's task, read once
    first: dict[str, str] = {}  # each task's first log, in reading order
    for entry, ts in of:
        for task in sorted(ts):
            first.setdefault(task, entry[0].src.label)
    tasks, failing = set(first), _tasks_of(failed, opts)
    if len(tasks) < 2:
        return ""
    lacking = {t for t in failing if first.get(t) == failed[0].src.label and unknown_scorer}
    for task in sorted(tasks - failing)[:_ALONE_TRIES]:
        alone = [entry for entry, ts in of
                 if not (entry[1] in ("inspect", "inspect_json") and ts and task not in ts)]
        exc = _loads_alone(alone, top, opts, task)
        if exc is None:
            return _one_task_hint(tasks, opts, tasks - {task})
        if isinstance(exc, UnknownScorerError) and exc.file == first[task]:
            lacking.add(task)
    if unknown_scorer and lacking == tasks:
        return (f"; none of the {len(tasks)} tasks of these logs ({', '.join(sorted(tasks))}) "
                f"has scorer {opts.scorer!r}")
    return ""


def _read_one(src, kind, parsed, sib, parts, tables, opts: LoadOptions) -> None:
    scorer, max_bytes, bench = opts.scorer, opts.max_bytes, opts.benchmark
    texts = opts.samples == "keep"
    if kind == "inspect":
        parts.append(inspect.read_eval(src, scorer, max_bytes, bench, texts))
    elif kind == "inspect_json":
        parts.append(inspect.read_json_file(src, scorer, bench, texts))
    elif kind == "lm_eval":
        parts.extend(lm_eval.read_samples(src, scorer, sib, max_bytes, bench, texts))
    elif kind == "openai_evals":
        parts.append(openai_evals.read_events(src, texts))
    elif kind == "helm":
        parts.append(helm.read_stats(src, parsed, scorer, sib, texts))  # parsed or streamed
    else:
        if src.label.lower().endswith(SAMPLES_SUFFIX):
            raise ValidationError(
                f"{src.label}: a sample store (the completion texts written beside a dataset "
                "by `scorio-studio import`), not outcomes; load the dataset file next to it"
            )
        with _reported_as(src.label):
            if kind == "npz":
                o = _load_npz(src, opts)
            else:
                o = _load_table(src, kind, opts)
        store = beside(src.path) if src.path is not None else None
        if store is not None and store.is_file() and opts.samples == "keep" and o.samples is None:
            o = o.with_samples(SampleStore.open(store))  # written by `scorio-studio import`
            # the texts shown come from it: listed and hashed with the file (load_many)
            name = PurePosixPath(src.label.replace("\\", "/")).with_name(store.name)
            _Src(str(name), path=store).note_read()
        tables.append((src.label, o))


def _scale(o: Outcomes) -> tuple[float, float] | None:
    """The grade scale of graded (or plain binary) data, ``None`` for other categories."""
    if o.metadata.get("score_range") is not None:
        lo, hi = o.metadata["score_range"]
        return float(lo), float(hi)
    return (0.0, 1.0) if o.is_binary and np.array_equal(o.weights, [0.0, 1.0]) else None


def _common_grades(outs: Sequence[tuple[str, Outcomes]]) -> list[tuple[str, Outcomes]]:
    """Graded files on one scale re-coded to the union of their grades (one file's 0.25
    beside another's 0.75), as the grades of several logs are; anything else as it is."""
    scales = {_scale(o) for _, o in outs}
    if len(outs) < 2 or len(scales) != 1 or None in scales:
        return list(outs)
    if all(o.C == outs[0][1].C and np.array_equal(o.weights, outs[0][1].weights)
           for _, o in outs):
        return list(outs)
    lo, hi = scales.pop()
    # the grades back from their weights, rounded so one file's 0.3 is another's 0.3
    grades = sorted({round(lo + float(w) * (hi - lo), 12) for _, o in outs for w in o.weights})
    _, names, weights = grade_levels(grades, (lo, hi), where="the combined files")
    out = []
    for label, o in outs:
        new = np.abs(np.asarray(weights)[None] - np.asarray(o.weights, float)[:, None]).argmin(1)
        code = {"R": new[o.R]} | ({} if o.R0 is None else {"R0": new[o.R0]})
        out.append((label, replace(o, **code, weights=np.asarray(weights),
                                   category_names=tuple(names or ("wrong", "correct")))))
    return out


def combine(outs: Sequence[tuple[str, Outcomes]], opts: LoadOptions,
            collection: str | None = None) -> Outcomes:
    """One dataset from several: the same categories, each (model, benchmark) from one file,
    and -- through the shared assembly -- the same questions and trials for every model.
    Named ``collection`` (the folder's name) unless a name was given; what each file's load
    left out (:attr:`Outcomes.load_notes`) stays said, about that file's benchmarks."""
    outs = _common_grades(outs)
    label0, first = outs[0]
    owner: dict[tuple[str, str | None], str] = {}
    frames = []
    for label, o in outs:
        if o.C != first.C or not np.array_equal(o.weights, first.weights):
            raise ValidationError(
                f"{label}: its categories {list(o.category_names)} (weights "
                f"{o.weights.tolist()}) differ from {label0}'s {list(first.category_names)} "
                f"(weights {first.weights.tolist()}); files can be combined only when they agree"
            )
        benches = set(o.benchmarks) if o.benchmarks is not None else {None}
        for m in o.models:
            for b in benches:
                if (m, b) in owner:
                    raise ValidationError(
                        f"{label}: model {m!r}"
                        + (f" on {b!r}" if b else "")
                        + f" is also in {owner[(m, b)]}; each model and task must come from "
                        "one file"
                    )
                owner[(m, b)] = label
        frames.append(to_long_frame(o))
    df = pl.concat(frames, how="diagonal_relaxed")
    requalified = False
    if "benchmark" in df.columns and df.get_column("benchmark").null_count() == 0:
        # question ids repeat across the files' benchmarks (1, 2, ...): qualify them, as
        # the logs of several tasks are
        per_q = df.group_by("question").agg(pl.col("benchmark").n_unique())
        if (per_q.get_column("benchmark") > 1).any():
            requalified = True
            df = df.with_columns(
                question=pl.when(pl.col("question").str.starts_with(pl.col("benchmark") + "/"))
                .then(pl.col("question"))
                .otherwise(pl.col("benchmark") + "/" + pl.col("question"))
            )
    if "decoding" in df.columns:
        df = df.with_columns(pl.col("decoding").fill_null("sample"))
    files: list[dict] = []
    report: dict[str, Any] = {"files": files, "missing_samples": 0}
    for label, o in outs:
        sub = o.metadata.get("import_report")
        if sub:  # the logs, already assembled: keep their per-file rows and notes
            files.extend(sub["files"])
            report["missing_samples"] += sub.get("missing_samples", 0)
            for key in ("notes", "skipped_files", "mean_meaning", "model_names"):
                if key in sub:
                    report[key] = sub[key]
        else:
            files.append({"file": label, "format": o.metadata.get("format"),
                          "model": ", ".join(o.models), "records": o.L * o.M * o.N})  # fmt: skip
    # each file once, in read order (an lm-eval samples file has a row per filter)
    names = list(dict.fromkeys(f["file"] for f in files))
    report["n_files"] = len(names)
    opts = replace(opts, columns=None, where=None, model_columns=None,
                   model_map=None, name=opts.name or collection or "combined", score_range=None,
                   weights=tuple(first.weights), category_names=tuple(first.category_names))
    try:
        out = _from_frame(
            df, "frame", f"{len(names)} files", opts,
            meta_extra={"format": "combined", "source_file": names,
                        "import_report": report},
        )  # fmt: skip
    except MissingCellsError as exc:  # say which file holds which models
        who = "; ".join(dict.fromkeys(f"{f['file']} holds {f['model']}" for f in files))
        said = said_of(exc)  # a Said keeps the options it names

        def plural(text: str) -> str:
            return text.replace("Fix the file", "Fix the files")

        raise MissingCellsError(f"combining {len(names)} files ({who}): " + (
            said.map(plural) if isinstance(said, Said) else plural(said))) from None
    carried = [{**n, "benchmarks": n.get("benchmarks") or o.benchmark_names}
               for _, o in outs for n in o.metadata.get(LOAD_NOTES) or ()]
    pooled = any(o.metadata.get(POOLED) for _, o in outs) or len(
        {tuple(o.benchmark_names) for _, o in outs}) > 1
    if carried or pooled:
        out = replace(out, metadata={**out.metadata,
                                     LOAD_NOTES: carried + list(out.metadata.get(LOAD_NOTES, [])),
                                     POOLED: pooled})
    # the files' texts stay valid while their question ids do (not requalified by benchmark)
    return out if requalified else out.with_samples(union(o.samples for _, o in outs))
