"""HELM run outputs: ``per_instance_stats.json`` with the sibling ``run_spec.json``.

``helm-run`` writes one directory per run (``benchmark_output/runs/<suite>/<run name>/``)
holding ``run_spec.json`` (``name``, ``adapter_spec.model``,
``adapter_spec.num_train_trials``) and ``per_instance_stats.json``: a list of
``{"instance_id", "train_trial_index", "perturbation"?, "stats": [{"name": {"name",
"split", ...}, "count", "sum", "mean", ...}]}``. Question = ``instance_id``, trial =
``train_trial_index``, outcome = the mean of the stat named by ``scorer`` (default
``exact_match``). Perturbed copies of instances (``perturbation`` set) are skipped.
Benchmark = the run name without its ``model=`` / ``model_deployment=`` arguments.

HELM's own headline for the stat read is its ``stats.json`` beside it (a list of
``{"name": {"name", "split", "sub_split"?, "perturbation"?}, "count", "mean", ...}``):
the entry of that stat on the split the instances come from, without perturbation or
sub-split (HELM: the mean over train trials of each trial's mean). It is shown beside our
mean (the import report's ``harness``). ``stats.json`` can be large: its size is checked
before it is read and a file over :data:`STATS_MAX_BYTES` is left unread (a note says
so); it is scanned one entry at a time up to the entry sought.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from .._validation import ValidationError
from ._base import _mb, _Src
from ._logs import LogPart, choose_scorer

__all__: list[str] = []  # read through scorio_core.io.load

DEFAULT_STAT = "exact_match"
#: HELM's aggregate of a run, beside ``per_instance_stats.json``
STATS_NAME = "stats.json"
#: A ``stats.json`` larger than this is not read (its headline is then not shown): HELM's
#: aggregates of a run are usually well under a megabyte
STATS_MAX_BYTES = 32 * 2**20
_SPACE = re.compile(r"\s*")


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
#: (:data:`NEEDED`), names the model from ``run_spec.json`` and shows ``stats.json``.
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


def first_entry(text: str) -> Any:
    """The first element of a JSON list (``text``), decoded alone (a ``stats.json`` can be
    large); ``None`` when ``text`` is not a non-empty JSON list."""
    i = _SPACE.match(text).end()
    if text[i : i + 1] != "[":
        return None
    try:
        return json.JSONDecoder().raw_decode(text, _SPACE.match(text, i + 1).end())[0]
    except (ValueError, RecursionError):
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
        f"is shown beside our mean when present; the other files are not read). {where}. "
        f"Not among the files given: {', '.join(missing)}"
    )


def _run_spec(src: _Src, siblings: Mapping[str, _Src]) -> tuple[str, str, int | None]:
    spec_src = next(
        (v for k, v in siblings.items() if PurePosixPath(k).name == "run_spec.json"), None
    )
    if spec_src is None:  # a per_instance_stats.json named alone: the file beside it on disk
        spec_src = _on_disk_beside(src, "run_spec.json")
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
    src: _Src, obj: Any, scorer: str | None, siblings: Mapping[str, _Src]
) -> LogPart:
    """One parsed ``per_instance_stats.json`` as a :class:`LogPart`."""
    model, bench, n_trials = _run_spec(src, siblings)
    part = LogPart(src.label, "helm", model, bench)
    splits: set[str] = set()  # the splits of the stats read (HELM's headline is per split)
    available = list(
        dict.fromkeys(
            s["name"]["name"]
            for r in obj if isinstance(r, dict) and not r.get("perturbation")
            for s in r.get("stats", []) if isinstance(s, dict) and isinstance(s.get("name"), dict)
        )
    )  # fmt: skip
    if scorer is None and DEFAULT_STAT in available:
        scorer = DEFAULT_STAT
    part.scorer = choose_scorer(available, scorer, part, "stat")
    for i, r in enumerate(obj):
        if not isinstance(r, dict) or "instance_id" not in r:
            raise ValidationError(f"{src.label}: item {i} has no 'instance_id'")
        if r.get("perturbation"):
            continue
        where = f"item {i} (instance_id {r['instance_id']})"
        stat = next(
            (
                s for s in r.get("stats", [])
                if isinstance(s, dict) and (s.get("name") or {}).get("name") == part.scorer
                and not (s.get("name") or {}).get("perturbation")
            ),
            None,
        )  # fmt: skip
        trial = r.get("train_trial_index", 0)
        if stat is None:
            part.add(r["instance_id"], trial, None, where, f"no {part.scorer!r} stat")
            continue
        value = _stat_mean(stat)
        splits.add(str(stat["name"].get("split")))
        part.add(r["instance_id"], trial, value, where)
    if isinstance(n_trials, int) and n_trials >= 1:
        part.declared_trials = list(range(n_trials))
        part.trials_from = f"run_spec.json (adapter_spec.num_train_trials = {n_trials})"
    _headline(part, src, siblings, splits)
    return part


def _stat_mean(stat: Mapping[str, Any]) -> Any:
    """A HELM stat's value, per instance or aggregated: its ``mean``, else ``sum / count``
    (``None`` when it has neither)."""
    value = stat.get("mean")
    if value is None and stat.get("count"):
        value = stat.get("sum", 0) / stat["count"]
    return value


def _stats_source(src: _Src, siblings: Mapping[str, _Src]) -> tuple[_Src, int] | None:
    """The ``stats.json`` beside ``src`` and its size, found without reading it: among the
    files given with it, else on disk next to it (a directory's listing leaves it out)."""
    for k, v in siblings.items():
        if PurePosixPath(k.replace("\\", "/")).name == STATS_NAME:
            return v, len(v.data) if v.data is not None else v.path.stat().st_size
    aside = _on_disk_beside(src, STATS_NAME)
    return None if aside is None else (aside, aside.path.stat().st_size)


def _on_disk_beside(src: _Src, name: str) -> _Src | None:
    """The file ``name`` in the directory of ``src`` on disk (not read), if there is one."""
    if src.path is None or not src.path.with_name(name).is_file():
        return None
    label = str(PurePosixPath(src.label.replace("\\", "/")).with_name(name))
    return _Src(label, path=src.path.with_name(name))


def find_stat(text: str, name: str, split: str) -> dict | None:
    """The entry of ``stats.json`` (``text``) for stat ``name`` on ``split`` without
    perturbation or sub-split, ``None`` when it has none; the list is decoded one entry
    at a time and only up to that entry. ``ValueError`` when ``text`` is not a JSON list.

    Example
    -------
    >>> from scorio_core.io.helm import find_stat
    >>> find_stat('[{"name": {"name": "exact_match", "split": "test"}, "mean": 0.5}]',
    ...           "exact_match", "test")["mean"]
    0.5
    """
    decode = json.JSONDecoder().raw_decode
    i = _SPACE.match(text).end()
    if text[i : i + 1] != "[":
        raise ValueError("not a JSON list")
    i = _SPACE.match(text, i + 1).end()
    while text[i : i + 1] != "]":
        entry, i = decode(text, i)
        key = entry.get("name") if isinstance(entry, dict) else None
        if (isinstance(key, dict) and key.get("name") == name and key.get("split") == split
                and not key.get("perturbation") and not key.get("sub_split")):
            return entry
        i = _SPACE.match(text, i).end()
        if text[i : i + 1] == ",":
            i = _SPACE.match(text, i + 1).end()
        elif text[i : i + 1] != "]":
            raise ValueError(f"expected ',' or ']' at character {i}")
    return None


def _headline(part: LogPart, src: _Src, siblings: Mapping[str, _Src], splits: set[str]
              ) -> None:
    """HELM's own value of the stat read (``stats.json``) as ``part.harness``, or a note
    saying why it is not shown. Never fails the load: it is only shown beside our mean."""
    stat = part.scorer
    found = _stats_source(src, siblings)
    if found is None:
        zipped = (f" (in a zip archive, one over {_mb(STATS_MAX_BYTES)} is not extracted)"
                  if src.path is None else "")
        part.notes.append(f"no {STATS_NAME} beside it (HELM's aggregate of the run): HELM's "
                          f"own {stat} is not shown beside our mean{zipped}")
        return
    stats_src, size = found
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
        entry = find_stat(stats_src.read().decode("utf-8"), stat, split)
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
