"""lm-evaluation-harness per-sample logs: ``samples_<task>_<date>.jsonl``.

``lm_eval --log_samples --output_path DIR`` writes, per model, a directory with
``results_<date>.json`` (``model_name``, ``config.model_args``) and one
``samples_<task>_<date>.jsonl`` per task: one JSON object per document and filter
with ``doc_id``, ``target``, ``resps``, ``filtered_resps``, ``filter``, ``metrics``
(the metric names) and one field per metric.

Trials: a metric field that holds a list (one value per repeat) gives the trials
directly. Otherwise, when the task sampled several responses (``repeats``: ``resps``
is ``[[r_1, ..., r_N]]``), each response is re-scored against ``target`` by exact
match (after stripping surrounding white space) -- on the filtered responses when the
filter kept all N, else on the raw ones -- and the import report says so. Otherwise
the metric value is the one trial of the document.

The model name comes from the sibling ``results_<date>.json`` (same date, else the
only/latest one in the directory), else from the directory name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from .._validation import ValidationError
from ._base import _Src
from ._logs import LogPart, choose_scorer, jsonl_records

__all__: list[str] = []  # read through scorio_core.io.load

SAMPLES_NAME = re.compile(r"^samples_(?P<task>.+?)_(?P<date>\d{4}-\d{2}-\d{2}T[0-9\-.]+)\.jsonl$")
RESULTS_NAME = re.compile(r"^results_(?P<date>.+)\.json$")
_RESERVED = {
    "doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
    "doc_hash", "prompt_hash", "target_hash",
}  # fmt: skip


def is_samples_line(obj: Any) -> bool:
    """Whether a parsed JSONL object is an lm-eval sample record."""
    return isinstance(obj, dict) and "doc_id" in obj and ("resps" in obj or "metrics" in obj)


def model_from_results(obj: Any) -> str | None:
    """The model name recorded in an lm-eval ``results_<date>.json`` object."""
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("model_name"), str) and obj["model_name"].strip():
        return obj["model_name"]
    args = (obj.get("config") or {}).get("model_args")
    if isinstance(args, dict):
        args = ",".join(f"{k}={v}" for k, v in args.items())
    if isinstance(args, str):
        for kv in args.split(","):
            k, _, v = kv.partition("=")
            if k.strip() in ("pretrained", "model", "engine") and v.strip():
                return v.strip()
    return None


def _model(src: _Src, siblings: Mapping[str, _Src], part_notes: list[str]) -> str:
    name = PurePosixPath(src.label.replace("\\", "/"))
    m = SAMPLES_NAME.match(name.name)
    names = {PurePosixPath(k).name: v for k, v in siblings.items()}
    results = {k: v for k, v in names.items() if RESULTS_NAME.match(k)}
    pick = None
    if m and f"results_{m['date']}.json" in results:
        pick = f"results_{m['date']}.json"
    elif results:
        pick = sorted(results)[-1]
    if pick is not None:
        try:
            model = model_from_results(json.loads(results[pick].read()))
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise ValidationError(f"{results[pick].label}: not JSON ({exc})") from None
        if model:
            return model
        part_notes.append(f"{pick} names no model; used the directory name")
    else:
        part_notes.append("no sibling results_<date>.json; model name from the directory name")
    parent = name.parent.name
    if not parent or parent.endswith(".zip"):
        raise ValidationError(
            f"{src.label}: cannot tell the model: no results_<date>.json next to it (lm-eval "
            "writes one in the same directory) and no directory name; load the directory"
        )
    return parent


def _exact(resp: Any, target: Any) -> bool:
    return str(resp).strip() == str(target).strip()


def read_samples(
    src: _Src, scorer: str | None, siblings: Mapping[str, _Src], limit: int
) -> LogPart:
    """One ``samples_<task>_<date>.jsonl`` file as a :class:`LogPart`.

    ``scorer`` names a metric (``"exact_match"``) or a filter and metric
    (``"strict-match/exact_match"``); default: the first filter's first metric.
    """
    fname = PurePosixPath(src.label.replace("\\", "/")).name
    m = SAMPLES_NAME.match(fname)
    task = m["task"] if m else re.sub(r"^samples_", "", fname.rsplit(".", 1)[0])
    notes: list[str] = []
    rows: list[tuple[int, dict]] = []
    for i, obj in jsonl_records(src):
        if not is_samples_line(obj):
            raise ValidationError(
                f"{src.label}: line {i} is not an lm-eval sample record (expected 'doc_id', "
                f"'resps' and metric fields); found {str(obj)[:60]!r}"
            )
        rows.append((i, obj))
    if not rows:
        raise ValidationError(f"{src.label}: no sample records")
    filters = list(dict.fromkeys(str(r.get("filter", "none")) for _, r in rows))
    metrics = list(
        dict.fromkeys(
            k for _, r in rows for k in (r.get("metrics") or [])
        )
    ) or [k for k in rows[0][1] if k not in _RESERVED]
    filt, metric = None, scorer
    if scorer is not None and "/" in scorer and scorer.split("/", 1)[0] in filters:
        filt, metric = scorer.split("/", 1)
    part = LogPart(src.label, "lm_eval", _model(src, siblings, notes), task)
    part.notes.extend(notes)
    if filt is None:
        filt = filters[0]
        if len(filters) > 1:
            part.notes.append(
                f"{len(filters)} filters ({', '.join(filters)}); used the first, {filt!r} "
                "(choose with scorer='FILTER/METRIC')"
            )
    part.scorer = choose_scorer(metrics, metric, part, "metric")
    rescored = 0
    for i, r in rows:
        if str(r.get("filter", "none")) != filt:
            continue
        where = f"line {i} (doc_id {r['doc_id']})"
        value = r.get(part.scorer)
        resps = r.get("resps")
        repeats = (
            isinstance(resps, list) and len(resps) == 1 and isinstance(resps[0], list)
            and len(resps[0]) > 1 and all(isinstance(x, str) for x in resps[0])
        )  # fmt: skip
        if isinstance(value, list):  # one value per repeat
            for t, v in enumerate(value):
                part.add(r["doc_id"], t, v, where)
        elif repeats and "target" in r:
            filtered = r.get("filtered_resps")
            cand = resps[0]
            if (
                isinstance(filtered, list) and len(filtered) == 1
                and isinstance(filtered[0], list) and len(filtered[0]) == len(cand)
            ):  # fmt: skip
                cand, how = filtered[0], "filtered"
            else:
                how = "raw (the filter kept one response)"
            for t, resp in enumerate(cand):
                part.add(r["doc_id"], t, _exact(resp, r["target"]), where)
            rescored += 1
        elif value is None:
            part.add(r["doc_id"], 0, None, where, f"no value for metric {part.scorer!r}")
        else:
            part.add(r["doc_id"], 0, value, where)
    if rescored:
        part.notes.append(
            f"{rescored} documents store only repeated responses: each of their responses was "
            f"re-scored by exact match against 'target' ({how} responses)"
        )
        part.scorer = "exact_match (re-scored)"
    part.trials_from = "the repeats per document"
    return part
