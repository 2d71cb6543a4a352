"""OpenAI evals event logs (JSONL, ``oaieval --record_path``).

The first line is ``{"spec": {...}}`` (the run spec: ``completion_fns``, ``eval_name``,
``base_eval``, ``run_id``); then one event per line (``run_id``, ``event_id``,
``sample_id``, ``type``, ``data``, ...) and a ``{"final_report": ...}`` line. ``match``
events carry ``data.correct`` (a boolean); a sample id that has several match events
was sampled several times, and its events (in ``event_id`` order) are its trials.
Model = the completion function(s), benchmark = ``base_eval`` (else ``eval_name``).
"""

from __future__ import annotations

import math
from typing import Any

from .._validation import ValidationError
from ._base import _Src
from ._logs import LogPart, jsonl_records

__all__: list[str] = []  # read through scorio_core.io.load


def is_spec_line(obj: Any) -> bool:
    """Whether a parsed JSONL object is an OpenAI evals run-spec line."""
    return isinstance(obj, dict) and isinstance(obj.get("spec"), dict)


def read_events(src: _Src, texts: bool = True) -> LogPart:
    """One OpenAI evals JSONL log as a :class:`LogPart`; ``texts``: keep each trial's
    prompt and sampled text (its ``sampling`` event) and the match's expected and picked
    answers."""
    spec = None
    report = None
    kinds: dict[str, int] = {}  # event type -> count, for the refusal
    events: list[tuple[int, int, dict]] = []
    sampling: dict[str, list[dict]] = {}
    for i, obj in jsonl_records(src):
        if not isinstance(obj, dict):
            raise ValidationError(f"{src.label}: line {i} is not a JSON object")
        if is_spec_line(obj):
            if spec is not None:
                raise ValidationError(
                    f"{src.label}: line {i} is a second 'spec' line; one run per file"
                )
            spec = obj["spec"]
            continue
        kinds[str(obj.get("type"))] = kinds.get(str(obj.get("type")), 0) + 1
        if isinstance(obj.get("final_report"), dict):
            report = obj["final_report"]  # oaieval may write it before buffered events
        elif obj.get("type") == "match":
            events.append((int(obj.get("event_id", len(events))), i, obj))
        elif texts and obj.get("type") == "sampling" and isinstance(obj.get("data"), dict):
            sampling.setdefault(str(obj.get("sample_id")), []).append(obj["data"])
    if spec is None:
        raise ValidationError(
            f"{src.label}: no 'spec' line (the run spec); not an OpenAI evals log"
        )
    fns = spec.get("completion_fns")
    if not isinstance(fns, list) or not fns:
        raise ValidationError(f"{src.label}: the spec line has no 'completion_fns' (the model)")
    bench = spec.get("base_eval") or spec.get("eval_name")
    if not isinstance(bench, str) or not bench:
        raise ValidationError(f"{src.label}: the spec line has no 'base_eval' or 'eval_name'")
    part = LogPart(src.label, "openai_evals", ",".join(map(str, fns)), bench, scorer="match")
    if not events:
        found = ", ".join(f"{n} {k!r}" for k, n in kinds.items() if k != "None") or "none"
        raise ValidationError(
            f"{src.label}: no 'match' events; nothing to score (expected one 'match' event, "
            f"data.correct, per sampled answer; found events: {found}). Evals that record "
            "only 'metrics' (model-graded evals: the grader's choice and score) are not read"
        )
    acc = (report or {}).get("accuracy")
    if isinstance(acc, int | float) and not isinstance(acc, bool) and math.isfinite(acc):
        part.harness = {
            "name": "OpenAI evals final_report accuracy", "value": float(acc),
            "meaning": "the eval's own accuracy (most evals: the share of correct match "
                       "events)",
        }  # fmt: skip
    seen: dict[str, int] = {}
    for _, i, ev in sorted(events, key=lambda e: (e[0], e[1])):
        sid = ev.get("sample_id")
        if sid is None:
            raise ValidationError(f"{src.label}: line {i}: the match event has no 'sample_id'")
        data = ev.get("data")
        if not isinstance(data, dict) or "correct" not in data:
            raise ValidationError(f"{src.label}: line {i}: the match event has no data.correct")
        trial = seen.get(str(sid), 0)
        seen[str(sid)] = trial + 1
        text = None
        if texts:
            sam = sampling.get(str(sid), [])
            sam = sam[trial] if trial < len(sam) else {}
            text = {"input": sam.get("prompt"), "target": data.get("expected"),
                    "output": data.get("sampled", sam.get("sampled")),
                    "answer": data.get("picked")}
        part.add(sid, trial, data["correct"], f"line {i} (sample_id {sid})", text=text)
    part.trials_from = "the repeated match events per sample_id"
    return part
