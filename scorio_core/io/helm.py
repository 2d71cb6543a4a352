"""HELM run outputs: ``per_instance_stats.json`` with the sibling ``run_spec.json``.

``helm-run`` writes one directory per run (``benchmark_output/runs/<suite>/<run name>/``)
holding ``run_spec.json`` (``name``, ``adapter_spec.model``,
``adapter_spec.num_train_trials``) and ``per_instance_stats.json``: a list of
``{"instance_id", "train_trial_index", "perturbation"?, "stats": [{"name": {"name",
"split", ...}, "count", "sum", "mean", ...}]}``. Question = ``instance_id``, trial =
``train_trial_index``, outcome = the mean of the stat named by ``scorer`` (default
``exact_match``). Perturbed copies of instances (``perturbation`` set) are skipped.
Benchmark = the run name without its ``model=`` / ``model_deployment=`` arguments. The
file holds every stat HELM computed per record (27 for a multiple-choice run; 56 MB for
5,000 instances x 3 trials, 315 MiB once parsed whole): it is decoded one record at a
time, keeping of each only its stat names, its cell and the value of the stat read
(:func:`read_stats`; read twice only when no stat was asked for and it has no
``exact_match``).

HELM's own headline for the stat read is its ``stats.json`` beside it (a list of
``{"name": {"name", "split", "sub_split"?, "perturbation"?}, "count", "mean", ...}``):
the entry of that stat on the split the instances come from, without perturbation or
sub-split (HELM: the mean over train trials of each trial's mean). It is shown beside our
mean (the import report's ``harness``). ``stats.json`` can be large: its size is checked
before it is read and a file over :data:`STATS_MAX_BYTES` is left unread (a note says
so); it is read and decoded one entry at a time up to the entry sought, and a file called
``stats.json`` given alone is recognised from its first entry, read no further. One reader
(:class:`~scorio_core.io._json_stream.JSONStream`: :func:`json_list`,
:func:`scenario_state_events`) serves it, ``per_instance_stats.json`` and
``scenario_state.json``, holding one value of at most :data:`VALUE_MAX_CHARS` characters
at a time.

The texts (SPEC §8 "Samples") come from ``scenario_state.json`` beside it, HELM's
``ScenarioState``: ``{"adapter_spec": {...}, "request_states": [{"instance": {"id", "input":
{"text"}, "references": [{"output": {"text"}, "tags"}], "split", "sub_split"?,
"perturbation"?}, "train_trial_index", "output_mapping"?, "reference_index"?,
"request_mode"?, "request": {"prompt", "messages"?, "multimodal_prompt"?, ...}, "result":
{"success", "completions": [{"text", "thinking"?: {"text"}, "multimodal_content"?:
{"media_objects"}, ...}], "error"?}, "annotations"?}, ...]}``. Each request state is matched
to the record of its ``(instance id, train_trial_index)`` (perturbed copies skipped, as for
the outcomes) and gives, as HELM's own run page shows them
(``helm.benchmark.presentation.run_display`` and its request view): input = the instance's
input text, target = its correct references, output = the first completion's text (with
``multimodal_content``, a generated image or the transcript of the audio sent: the text of
its text parts, a space, then that text, as HELM writes its predicted text; each other
medium follows as its type and location: HELM's page shows the first medium, a generated
image, in place of the text),
answer = the completion's own text through ``output_mapping`` (multiple choice: the letter's
choice), reasoning = that completion's thinking text (a thinking model's; HELM's
"Thinking"), annotations = the request state's annotations (its annotators' output, e.g. a
judge's verdict, as JSON), prompt = the prompt sent (the instructions and in-context
examples of its train trial, then the input; else the text of its multimodal prompt, else
its chat messages), metadata = the instance's split and sub-split, error = a failed
request's error; each cut at the sample store's ``MAX_TEXT`` as it is read. The
multiple-choice-separate methods send one request per choice: the one of the record's
``predicted_index`` stat is kept and answer = that choice. The file can be large (tokens and
log-probabilities of every completion): its size is checked first (over
:data:`SCENARIO_STATE_MAX_BYTES` it is not read, with a note) and it is decoded one request
state at a time; with ``samples="skip"`` it is not opened.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, BinaryIO

from .._validation import ValidationError
from ..formatting import count_text
from ..samples import as_text
from ._base import _mb, _Src
from ._json_stream import CHUNK as _CHUNK
from ._json_stream import VALUE_MAX_CHARS, JSONStream
from ._logs import LogPart, choose_scorer

__all__: list[str] = []  # read through scorio_core.io.load

DEFAULT_STAT = "exact_match"
#: HELM's aggregate of a run, beside ``per_instance_stats.json``
STATS_NAME = "stats.json"
#: A ``stats.json`` larger than this is not read (its headline is then not shown): HELM's
#: aggregates of a run are usually well under a megabyte. It is decoded one entry at a time
#: (:func:`json_list`), so the bound is on the time spent reading it and on what a zip
#: archive's member may expand to
STATS_MAX_BYTES = 32 * 2**20
#: HELM's request states of a run (prompts, completions), beside ``per_instance_stats.json``
SCENARIO_STATE = "scenario_state.json"
#: A ``scenario_state.json`` larger than this is not read (the run's texts are then not
#: kept). It is decoded one request state at a time, so memory holds one request state and
#: the texts kept (each cut at ``scorio_core.samples.MAX_TEXT`` characters as it is read),
#: whatever its size; the bound is on the time spent reading it
SCENARIO_STATE_MAX_BYTES = 2**30
#: HELM's multiple-choice methods that send one request per choice
#: (``helm.benchmark.adaptation.adapter_spec.ADAPT_MULTIPLE_CHOICE_SEPARATE_METHODS``)
SEPARATE_METHODS = ("multiple_choice_separate_original", "multiple_choice_separate_calibrated")


def is_instance_stats(obj: Any) -> bool:
    """Whether a parsed JSON document is a HELM ``per_instance_stats.json`` (its
    ``stats`` a list: ``display_predictions.json`` has ``instance_id`` and a dict of stats)."""
    return (
        isinstance(obj, list)
        and bool(obj)
        and isinstance(obj[0], dict)
        and "instance_id" in obj[0]
        and isinstance(obj[0].get("stats"), list)
    )


#: The files of a HELM run directory, what each holds; the importer reads the first
#: (:data:`NEEDED`), names the model from ``run_spec.json``, shows ``stats.json`` and keeps
#: the texts of ``scenario_state.json``.
RUN_FILES = {
    "per_instance_stats.json": "each instance's stats per train trial: the outcomes",
    "run_spec.json": "the run's settings, which name the model",
    "stats.json": "HELM's aggregate stats of the run",
    "scenario.json": "the scenario's name and description",
    "scenario_state.json": "the prompts and completions",
    "instances.json": "the instances (questions) shown by HELM's web page",
    "display_predictions.json": "the predictions shown by HELM's web page",
    "display_requests.json": "the requests shown by HELM's web page",
}
#: The keys of a HELM ``scenario.json`` (helm.benchmark.scenarios.scenario.Scenario)
_SCENARIO_KEYS = frozenset({"name", "description", "tags", "definition_path"})
#: The files of a HELM run the importer needs
NEEDED = ("per_instance_stats.json", "run_spec.json")


def run_file(obj: Any) -> str | None:
    """Which file of a HELM run directory a parsed JSON document is (a key of
    :data:`RUN_FILES`), from its keys as ``helm-run`` writes them; ``None`` for another
    document.

    Example
    -------
    >>> from scorio_core.io.helm import run_file
    >>> run_file({"name": "mmlu", "description": "...", "tags": ["knowledge"]})
    'scenario.json'
    >>> run_file([{"name": {"name": "exact_match", "split": "test"}, "count": 2, "mean": 0.5}])
    'stats.json'
    """
    if is_instance_stats(obj):
        return "per_instance_stats.json"
    if isinstance(obj, dict):
        if isinstance(obj.get("adapter_spec"), dict):
            if "request_states" in obj:
                return "scenario_state.json"
            if "scenario_spec" in obj or "metric_specs" in obj:
                return "run_spec.json"
        if ({"name", "description", "tags"} <= obj.keys() <= _SCENARIO_KEYS
                and isinstance(obj["tags"], list)):
            return "scenario.json"
        return None
    if not (isinstance(obj, list) and obj and isinstance(obj[0], dict)):
        return None
    first = obj[0]
    if isinstance(first.get("name"), dict) and "name" in first["name"] and "count" in first:
        return "stats.json"
    if "instance_id" in first and "train_trial_index" in first:
        if "predicted_text" in first:
            return "display_predictions.json"
        if "request" in first:
            return "display_requests.json"
    if "input" in first and "references" in first:
        return "instances.json"
    return None


def first_entry(fh: BinaryIO) -> Any:
    """The first element of the JSON list in the binary file ``fh``, decoded alone and read
    only as far as its end (a file called ``stats.json`` can be large); ``None`` when the
    file does not start as a non-empty JSON list or that element is not whole JSON.

    Example
    -------
    >>> import io
    >>> from scorio_core.io.helm import first_entry
    >>> first_entry(io.BytesIO(b'[{"name": {"name": "exact_match"}, "count": 2}, not JSON'))
    {'name': {'name': 'exact_match'}, 'count': 2}
    """
    try:
        return next(json_list(fh), None)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


def not_outcomes(found: Mapping[str, str], run_dir: str | None = None) -> str:
    """The message for files of a HELM run given without what the importer needs:
    ``found`` maps each file's label to the run file it is (:func:`run_file`);
    ``run_dir``, a directory on disk beside them that holds the outcomes."""
    shown = ", ".join(
        label if PurePosixPath(label).name == role else f"{label} (HELM's {role})"
        for label, role in found.items()
    )
    what = "; ".join(f"{role}: {RUN_FILES[role]}" for role in dict.fromkeys(found.values()))
    missing = [n for n in NEEDED if n not in found.values()]
    where = (f"Load its directory ({run_dir}), which holds {' and '.join(NEEDED)}"
             if run_dir else
             "Load the run directory (benchmark_output/runs/<suite>/<run>/) or a zip of it, "
             f"or give {' and '.join(NEEDED)} together")
    return (
        f"{shown}: {'a file' if len(found) == 1 else 'files'} of a HELM run ({what}), not "
        "its outcomes. HELM's outcomes are read from the run's per_instance_stats.json with "
        "the run_spec.json beside it, which names the model (stats.json, HELM's aggregate, "
        "is shown beside our mean when present, and scenario_state.json gives the question "
        f"and completion texts; the other files are not read). {where}. "
        f"Not among the files given: {', '.join(missing)}"
    )


def _run_spec(src: _Src, siblings: Mapping[str, _Src]) -> tuple[str, str, int | None]:
    spec_src = _beside(src, siblings, "run_spec.json")
    if spec_src is None:
        raise ValidationError(
            f"{src.label}: no run_spec.json next to it (HELM writes one in each run directory; "
            "it names the model): load the run directory or a zip of it, or give its "
            "run_spec.json with it"
        )
    try:
        spec = json.loads(spec_src.read())
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ValidationError(f"{spec_src.label}: not JSON ({exc})") from None
    adapter = spec.get("adapter_spec") if isinstance(spec, dict) else None
    model = (adapter or {}).get("model") or (adapter or {}).get("model_deployment")
    if not model:
        raise ValidationError(f"{spec_src.label}: adapter_spec.model is missing")
    name = str(spec.get("name") or PurePosixPath(src.label).parent.name)
    head, _, args = name.partition(":")
    kept = [a for a in args.split(",") if a and not re.match(r"^model(_deployment)?=", a)]
    bench = head + (":" + ",".join(kept) if kept else "")
    return str(model), bench, (adapter or {}).get("num_train_trials")


def read_stats(
    src: _Src, obj: list | None, scorer: str | None, siblings: Mapping[str, _Src],
    texts: bool = True
) -> LogPart:
    """One ``per_instance_stats.json`` as a :class:`LogPart`: ``obj``, its parsed records,
    else the file decoded one record at a time (:func:`_scan`: memory holds one record and
    what is kept of each, not the file's every stat); ``texts``: keep each record's question
    and completion texts from ``scenario_state.json`` beside it."""
    model, bench, n_trials = _run_spec(src, siblings)
    part = LogPart(src.label, "helm", model, bench)
    # the stat read when it is there, so that one pass reads the file; another pass when
    # the stat read is another (no scorer asked for and no exact_match: the first stat)
    first = scorer or DEFAULT_STAT
    seen = _scan(_records(src, obj), first)
    found = _scenario_texts(part, src, siblings, seen.wanted) if texts else {}
    if scorer is None and DEFAULT_STAT in seen.available:
        scorer = DEFAULT_STAT
    part.scorer = choose_scorer(seen.available, scorer, part, "stat")
    if part.scorer != first:
        seen = _scan(_records(src, obj), part.scorer)
    if seen.bad is not None:
        raise ValidationError(f"{src.label}: item {seen.bad} has no 'instance_id'")
    splits: set[str] = set()  # the splits of the stats read (HELM's headline is per split)
    for i, instance, trial, stat in seen.rows:
        where = f"item {i} (instance_id {instance})"
        text = found.get((str(instance), trial))
        if stat is None:
            part.add(instance, trial, None, where, f"no {part.scorer!r} stat", text=text)
            continue
        value, split = stat
        splits.add(split)
        part.add(instance, trial, value, where, text=text)
    if isinstance(n_trials, int) and n_trials >= 1:
        part.declared_trials = list(range(n_trials))
        part.trials_from = f"run_spec.json (adapter_spec.num_train_trials = {n_trials})"
    _headline(part, src, siblings, splits)
    return part


def _records(src: _Src, obj: list | None) -> Iterator[Any]:
    """The records of a ``per_instance_stats.json``: ``obj`` when it was parsed, else
    decoded from the file one at a time (``ValidationError`` where it is not a JSON list,
    as :func:`json.loads` would find)."""
    if obj is not None:
        yield from obj
        return
    try:
        with src.open() as fh:
            s = _stream(fh)
            yield from s.elements()
            s.end()
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ValidationError(f"{src.label}: not JSON ({exc})") from None


@dataclass(frozen=True)
class _Seen:
    """What the import keeps of a ``per_instance_stats.json`` (:func:`_scan`)."""

    #: the stat names of the records without perturbation, in order of appearance
    available: list[str]
    #: the records read as outcomes by ``(instance id, trial)`` (an int trial), with the
    #: ``predicted_index`` stat of each where it has one (the multiple-choice-separate
    #: methods: the choice picked), for the texts of ``scenario_state.json``
    wanted: dict[tuple[str, int], int | None]
    #: per record read (no perturbation): ``(item, instance id, trial, (value, split) of
    #: the stat sought or None)``
    rows: list[tuple[int, Any, Any, tuple[Any, str] | None]]
    #: the first item that is not a record with an ``instance_id``
    bad: int | None


def _scan(records: Iterator[Any], stat: str) -> _Seen:
    """One pass over a ``per_instance_stats.json``'s records keeping only :class:`_Seen`:
    its stat names, the cells of its texts and, per record, the value of ``stat`` -- not
    the records, which hold every stat HELM computed (tens per instance)."""
    names: dict[str, None] = {}
    wanted: dict[tuple[str, int], int | None] = {}
    rows: list[tuple[int, Any, Any, tuple[Any, str] | None]] = []
    bad = None
    for i, r in enumerate(records):
        if bad is None and (not isinstance(r, dict) or "instance_id" not in r):
            bad = i  # refused once the stat is chosen, as a parsed list is
        if not isinstance(r, dict) or r.get("perturbation"):
            continue
        names.update(dict.fromkeys(
            s["name"]["name"] for s in r.get("stats", [])
            if isinstance(s, dict) and isinstance(s.get("name"), dict)))
        if "instance_id" not in r:
            continue
        trial = r.get("train_trial_index", 0)
        if isinstance(trial, int):
            pick = next((_at(s, "mean") for s in r.get("stats") or []
                         if _at(s, "name", "name") == "predicted_index"
                         and not _at(s, "name", "perturbation")), None)  # fmt: skip
            ok = (isinstance(pick, int | float) and not isinstance(pick, bool)
                  and math.isfinite(pick) and pick == int(pick))
            wanted[(str(r["instance_id"]), trial)] = int(pick) if ok else None
        hit = next(
            (
                s for s in r.get("stats", [])
                if isinstance(s, dict) and (s.get("name") or {}).get("name") == stat
                and not (s.get("name") or {}).get("perturbation")
            ),
            None,
        )  # fmt: skip
        rows.append((i, r["instance_id"], trial, None if hit is None else
                     (_stat_mean(hit), str(hit["name"].get("split")))))
    return _Seen(list(names), wanted, rows, bad)


def _stat_mean(stat: Mapping[str, Any]) -> Any:
    """A HELM stat's value, per instance or aggregated: its ``mean``, else ``sum / count``
    (``None`` when it has neither)."""
    value = stat.get("mean")
    if value is None and stat.get("count"):
        value = stat.get("sum", 0) / stat["count"]
    return value


def _beside(src: _Src, siblings: Mapping[str, _Src], name: str) -> _Src | None:
    """The file ``name`` of the run beside ``src`` (``run_spec.json``, ``stats.json``,
    ``scenario_state.json``), found without reading it: among the files given with it, else
    on disk next to it (a directory's listing leaves some out; a file named alone)."""
    for k, v in siblings.items():
        if PurePosixPath(k.replace("\\", "/")).name == name:
            return v
    return _on_disk_beside(src, name)


def _size(src: _Src) -> int:
    """Bytes of a file found by :func:`_beside`, without reading it."""
    return len(src.data) if src.data is not None else src.path.stat().st_size


def _on_disk_beside(src: _Src, name: str) -> _Src | None:
    """The file ``name`` in the directory of ``src`` on disk (not read), if there is one."""
    if src.path is None or not src.path.with_name(name).is_file():
        return None
    label = str(PurePosixPath(src.label.replace("\\", "/")).with_name(name))
    return _Src(label, path=src.path.with_name(name))


# ------------------------------------------------------ JSON read one value at a time
def _stream(fh: BinaryIO) -> JSONStream:
    """``fh`` read one JSON value at a time with this module's bounds, read when called
    (:data:`VALUE_MAX_CHARS`, the chunk size)."""
    return JSONStream(fh, VALUE_MAX_CHARS, _CHUNK)


def json_list(fh: BinaryIO) -> Iterator[Any]:
    """The elements of the JSON list in the binary file ``fh`` (``stats.json``), decoded one
    at a time as the file is read: memory holds one element, whatever the file's size, and
    a caller that stops early reads no further. ``ValueError`` (or ``UnicodeDecodeError``)
    where the file is not such a list; nothing is checked after its closing ``]``.

    Example
    -------
    >>> import io
    >>> from scorio_core.io.helm import json_list
    >>> list(json_list(io.BytesIO(b' [{"a": 1}, 2.5, "x"] ')))
    [{'a': 1}, 2.5, 'x']
    """
    return _stream(fh).elements()


def find_stat(fh: BinaryIO, name: str, split: str) -> dict | None:
    """The entry of ``stats.json`` (the binary file ``fh``) for stat ``name`` on ``split``
    without perturbation or sub-split, ``None`` when it has none; the list is decoded one
    entry at a time (:func:`json_list`) and only up to that entry. ``ValueError`` (or
    ``UnicodeDecodeError``) when the file is not a JSON list.

    Example
    -------
    >>> import io
    >>> from scorio_core.io.helm import find_stat
    >>> find_stat(io.BytesIO(b'[{"name": {"name": "exact_match", "split": "test"}, "mean": 0.5}]'),
    ...           "exact_match", "test")["mean"]
    0.5
    """
    for entry in json_list(fh):
        key = entry.get("name") if isinstance(entry, dict) else None
        if (isinstance(key, dict) and key.get("name") == name and key.get("split") == split
                and not key.get("perturbation") and not key.get("sub_split")):
            return entry
    return None


def _headline(part: LogPart, src: _Src, siblings: Mapping[str, _Src], splits: set[str]
              ) -> None:
    """HELM's own value of the stat read (``stats.json``) as ``part.harness``, or a note
    saying why it is not shown. Never fails the load: it is only shown beside our mean."""
    stat = part.scorer
    stats_src = _beside(src, siblings, STATS_NAME)
    if stats_src is None:
        zipped = (f" (in a zip archive, one over {_mb(STATS_MAX_BYTES)} is not extracted)"
                  if src.path is None else "")
        part.notes.append(f"no {STATS_NAME} beside it (HELM's aggregate of the run): HELM's "
                          f"own {stat} is not shown beside our mean{zipped}")
        return
    size = _size(stats_src)
    if size > STATS_MAX_BYTES:
        part.notes.append(
            f"{STATS_NAME} is {_mb(size)}, over the {_mb(STATS_MAX_BYTES)} read for HELM's "
            f"own {stat} (scorio_core.io.helm.STATS_MAX_BYTES): not read, so HELM's value is "
            "not shown beside our mean"
        )
        return
    if len(splits) != 1:
        part.notes.append(
            f"the instances read come from {len(splits)} splits ({', '.join(sorted(splits))}) "
            f"and {STATS_NAME} has one {stat} per split: HELM's value is not shown beside our "
            "mean (which pools them)"
        )
        return
    split = next(iter(splits))
    try:
        with stats_src.open() as fh:
            entry = find_stat(fh, stat, split)
    except (ValueError, UnicodeDecodeError, RecursionError, OSError) as exc:
        part.notes.append(f"{STATS_NAME} beside it is not HELM's list of stats ({exc}): "
                          f"HELM's own {stat} is not shown")
        return
    value = None if entry is None else _stat_mean(entry)
    if (not isinstance(value, int | float) or isinstance(value, bool)
            or not math.isfinite(value)):
        part.notes.append(f"{STATS_NAME} has no {stat} on split {split!r} without "
                          "perturbation: HELM's own value is not shown")
        return
    part.harness = {
        "name": f"HELM stats.json {stat} ({split})", "value": float(value),
        "meaning": f"HELM's aggregate {stat} on the {split} split without perturbation: the "
                   "mean over its train trials of each trial's mean over the instances",
    }  # fmt: skip


# ------------------------------------------------------------------ scenario_state.json
def scenario_state_events(fh: BinaryIO) -> Iterator[tuple[str, Any]]:
    """The members of a HELM ``scenario_state.json`` read from ``fh`` one at a time: ``(key,
    value)`` for each top-level member but ``request_states``, and for that list
    ``("request_states", None)`` then ``("request_state", state)`` for each element -- so a
    file of any size is decoded one request state at a time. ``ValueError`` (or
    ``UnicodeDecodeError``) where the file is not such a JSON object.

    Example
    -------
    >>> import io
    >>> from scorio_core.io.helm import scenario_state_events
    >>> doc = b'{"adapter_spec": {"method": "generation"}, "request_states": [{"a": 1}, {"a": 2}]}'
    >>> list(scenario_state_events(io.BytesIO(doc)))  # doctest: +NORMALIZE_WHITESPACE
    [('adapter_spec', {'method': 'generation'}), ('request_states', None),
     ('request_state', {'a': 1}), ('request_state', {'a': 2})]
    """
    s = _stream(fh)
    for key in s.members():
        if key == "request_states" and s.peek() == "[":
            yield key, None
            for state in s.elements():
                yield "request_state", state
        else:
            yield key, s.value()


def is_scenario_state(src: _Src) -> bool:
    """Whether a file (called ``scenario_state.json``) is HELM's: an object whose first
    members are ``adapter_spec`` and ``request_states``, as ``helm-run`` writes it; read
    only up to the start of its request states."""
    try:
        with src.open() as fh:
            events = scenario_state_events(fh)
            first = next(events, None)
            return (first is not None and first[0] == "adapter_spec"
                    and isinstance(first[1], dict)
                    and next(events, (None,))[0] == "request_states")
    except (ValueError, UnicodeDecodeError, RecursionError, OSError):
        return False


def _at(obj: Any, *path: str) -> Any:
    """``obj[path[0]][path[1]]...``, ``None`` where a level is not a JSON object (the file
    is read as it comes: a hostile one loses its texts, never the load)."""
    for key in path:
        obj = obj.get(key) if isinstance(obj, dict) else None
    return obj


def _mapped(text: str, mapping: Mapping[str, Any], pattern: Any) -> str | None:
    """A prediction through the request's ``output_mapping`` as HELM maps it: stripped, then
    the adapter's ``output_mapping_pattern`` (its first group, or the match) when set."""
    out = text.strip()
    if pattern:
        try:
            m = re.search(str(pattern), out)
        except re.error:
            return None
        out = "" if not m else m.group(1) if m.groups() else m.group(0)
    value = mapping.get(out)
    return None if value is None else str(value)


def _prompt(request: Any) -> Any:
    """The prompt of a request as HELM's run page shows it: its ``prompt`` text, else its
    ``multimodal_prompt`` (the text of each media object; another medium as its type and
    location), else its chat ``messages``; ``None`` when it has none."""
    if isinstance(prompt := _at(request, "prompt"), str) and prompt:
        return prompt
    media = _at(request, "multimodal_prompt", "media_objects")
    if isinstance(media, list) and media:
        return "\n".join(
            str(m.get("text")) if m.get("text") is not None
            else f"[{m.get('content_type')}: {m.get('location')}]"
            for m in media if isinstance(m, dict))
    messages = _at(request, "messages")
    return messages if isinstance(messages, list) and messages else None


def _media_text(media: Any) -> tuple[str, list[str]]:
    """A completion's ``multimodal_content`` media objects as HELM's run page reads them:
    the text of its text parts joined with nothing between (``MultimediaObject.text``), and
    each other medium as its type and location (what ``_prompt`` writes for a prompt's)."""
    objs = [m for m in media if isinstance(m, dict)] if isinstance(media, list) else []
    texts = "".join(str(m["text"]) for m in objs
                    if str(m.get("content_type")).split("/")[0] == "text" and m.get("text"))
    others = [f"[{m.get('content_type')}: {m.get('location')}]" for m in objs
              if str(m.get("content_type")).split("/")[0] != "text"]
    return texts, others


def _request_text(rs: Mapping[str, Any], adapter: Mapping[str, Any]) -> dict[str, Any]:
    """One request state's text fields, as HELM's run page shows its prediction and request
    (``run_display.write_run_display_json``), each cut as the sample store would cut it
    (:func:`scorio_core.samples.as_text`) as soon as it is read: the texts kept are held
    until the whole file is read, a long prompt or annotation no longer than the store
    keeps."""
    inst = rs.get("instance") or {}
    refs = [r for r in _at(inst, "references") or [] if isinstance(r, dict)]
    gold = [str(_at(r, "output", "text")) for r in refs
            if "correct" in (_at(r, "tags") or []) and _at(r, "output", "text") is not None]
    meta = {k: inst[k] for k in ("split", "sub_split") if isinstance(inst.get(k), str)}
    question = _at(inst, "input", "text")
    text: dict[str, Any] = {"input": question, "target": "\n".join(gold) if gold else None,
                            "prompt": _prompt(rs.get("request")),
                            "annotations": rs.get("annotations") or None}
    result = rs.get("result")
    if not isinstance(result, dict):
        text["error"] = "no result: HELM did not run this request"
        return _bounded(text, meta)
    done = [c for c in _at(result, "completions") or [] if isinstance(c, dict)]
    predicted = str(done[0].get("text") or "") if done else ""
    # a completion with multimodal content (a generated image; a transcript of the audio
    # sent): HELM writes its text parts, a space, then the completion's text; its other
    # media follow as their type and location (HELM's page shows the first medium, when it
    # is a file, as an image in place of the text)
    parts, others = _media_text(_at(done[0] if done else None, "multimodal_content",
                                    "media_objects"))
    shown = f"{parts} {predicted}" if parts else predicted
    # HELM shows a prediction without the text it repeats: the input of a choice's request
    # (multiple-choice-separate methods), the first token of a language-modeling request
    method, tokens = adapter.get("method"), _at(done[0] if done else None, "tokens")
    prefix = (str(question or "") if method in SEPARATE_METHODS
              else str(_at(tokens[0], "text") or "")
              if method == "language_modeling" and isinstance(tokens, list) and tokens else "")
    if prefix and shown.startswith(prefix):
        shown = shown[len(prefix):]
    text["output"] = "\n".join(([shown] if shown or not others else []) + others)
    text["reasoning"] = _at(done[0] if done else None, "thinking", "text")  # HELM: "Thinking"
    if isinstance(rs.get("output_mapping"), dict):
        text["answer"] = _mapped(predicted, rs["output_mapping"],
                                 adapter.get("output_mapping_pattern"))
    elif rs.get("reference_index") is not None:  # a choice's request: the choice scored
        k = rs["reference_index"]
        if isinstance(k, int) and 0 <= k < len(refs):
            text["answer"] = _at(refs[k], "output", "text")
    if result.get("success") is False:
        text["error"] = str(result.get("error") or "the request failed")
    return _bounded(text, meta)


def _bounded(text: dict[str, Any], meta: dict[str, str]) -> dict[str, Any]:
    """``text`` as the sample store keeps it (:func:`~scorio_core.samples.as_text`: cut at
    ``MAX_TEXT`` characters, annotations and chat messages as text), with the metadata as a
    mapping (its split is a question attribute)."""
    return {k: as_text(v) for k, v in text.items()} | {"metadata": meta or None}


def _scenario_texts(part: LogPart, src: _Src, siblings: Mapping[str, _Src],
                    wanted: Mapping[tuple[str, int], int | None]
                    ) -> dict[tuple[str, int], dict[str, Any]]:
    """Each outcome record's texts, by ``(instance id, trial)`` (the cells ``wanted``, with
    the choice each picked: :class:`_Seen`), from the ``scenario_state.json`` beside
    ``src`` (size checked, decoded one request state at a time), or none with a note
    saying why."""
    lost = "the question and completion texts are not kept (none in the Pair view)"
    state_src = _beside(src, siblings, SCENARIO_STATE)
    if state_src is None:
        zipped = (" (from a zip archive, one larger than SCENARIO_STATE_MAX_BYTES, max_bytes "
                  "or the room left under MAX_DECODED_BYTES is not extracted)"
                  if src.path is None else "")
        part.notes.append(f"no {SCENARIO_STATE} beside it (HELM's prompts and completions): "
                          f"{lost}{zipped}")
        return {}
    size = _size(state_src)
    if size > SCENARIO_STATE_MAX_BYTES:
        part.notes.append(
            f"{SCENARIO_STATE} is {_mb(size)}, over the {_mb(SCENARIO_STATE_MAX_BYTES)} read "
            f"for texts (scorio_core.io.helm.SCENARIO_STATE_MAX_BYTES): not read, so {lost}"
        )
        return {}
    texts: dict[tuple[str, int], dict[str, Any]] = {}  # of the request state shown
    adapter: dict = {}  # helm-run writes it first, before the request states
    several = 0  # requests with several completions (the first is shown, as HELM does)
    imaged = 0  # of them, those whose every completion's first medium is a file (an image)
    per_choice = False  # one request per choice (multiple-choice-separate methods)
    listed = False  # whether it has HELM's list of request states
    try:
        with state_src.open() as fh:
            for key, value in scenario_state_events(fh):
                if key == "adapter_spec" and isinstance(value, dict):
                    adapter = value
                listed = listed or key == "request_states"
                if key != "request_state" or not isinstance(value, dict):
                    continue
                inst, trial = value.get("instance"), value.get("train_trial_index", 0)
                if not isinstance(inst, dict) or inst.get("perturbation") or not isinstance(
                        trial, int):
                    continue
                cell = (str(inst.get("id")), trial)
                if cell not in wanted or cell in texts or value.get("request_mode") == (
                        "calibration"):
                    continue
                # one request per choice: the one of the choice picked (HELM's predicted_index)
                if value.get("reference_index") is not None:
                    per_choice = True
                    if value["reference_index"] != wanted[cell]:
                        continue
                comps = _at(value, "result", "completions")
                if isinstance(comps, list) and len(comps) > 1:
                    several += 1  # HELM's page: every one's image when all have media
                    imaged += all(isinstance(m := _at(c, "multimodal_content", "media_objects"),
                                             list) and m and _at(m[0], "location")
                                  for c in comps)
                texts[cell] = _request_text(value, adapter)  # not the state: it is large
        if not listed:
            raise ValueError("it has no list 'request_states'")
    except (ValueError, UnicodeDecodeError, RecursionError, OSError) as exc:
        part.notes.append(f"{SCENARIO_STATE} beside it is not HELM's scenario state as "
                          f"helm-run writes it ({exc}): {lost}")
        return {}
    if len(texts) < len(wanted):
        part.notes.append(
            f"{len(wanted) - len(texts)} of the {len(wanted)} (instance, train trial) records "
            f"have no request state in {SCENARIO_STATE}"
            + (" for the choice of their predicted_index stat" if per_choice else "")
            + ": no texts for them"
        )
    if several:
        part.notes.append(
            f"{count_text(several, 'request')} in {SCENARIO_STATE} "
            f"{'has' if several == 1 else 'have'} several completions: the first "
            "is shown, as HELM's run page does"
            + (f" ({imaged} with a generated image in every completion, which HELM's page "
               "shows for each completion: the first completion's is kept)" if imaged else "")
        )
    return texts
