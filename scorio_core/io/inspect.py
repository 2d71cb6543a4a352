"""Inspect AI logs: ``.eval`` (a zip of JSON members) and ``.json`` (one JSON ``EvalLog``).

What is read (the log schema of ``inspect_ai.log``):

* the eval spec -- ``header.json`` (a finished log) or ``_journal/start.json`` (a run
  that has not finished) in an ``.eval`` file, the top-level object of a ``.json``
  log: ``eval.model`` is the model, ``eval.task`` the benchmark and
  ``eval.config.epochs`` the number of trials;
* the samples -- ``summaries.json`` (a list of sample summaries, read first because it
  holds every score in one member) or else every ``samples/{id}_epoch_{n}.json``
  member (``samples`` in a ``.json`` log): sample ``id`` is the question, ``epoch``
  the trial, ``scores[scorer].value`` the outcome and a non-empty ``error`` marks a
  sample that errored (a missing cell, counted in the import report).

Members may be stored, deflate- or zstd-compressed (zip method 93; read with the
``zstandard`` package because :mod:`zipfile` reads zstd only from Python 3.14).
A member re-written later in the archive supersedes the earlier one, as in Inspect.
``inspect-ai`` itself is not needed.

Example
-------
>>> import io, json, zipfile
>>> buf = io.BytesIO()
>>> with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
...     zf.writestr("header.json", json.dumps({"version": 2, "status": "success",
...         "eval": {"task": "arith", "model": "openai/gpt-x", "config": {"epochs": 2}}}))
...     for e in (1, 2):
...         zf.writestr(f"samples/1_epoch_{e}.json", json.dumps(
...             {"id": 1, "epoch": e, "scores": {"match": {"value": "CI"[e - 1]}}}))
>>> from scorio_core.io import load
>>> o = load(buf.getvalue(), filename="run.eval")
>>> o.models, o.questions, o.R.tolist(), o.metadata["trial_ids"]
(('openai/gpt-x',), ('1',), [[[1, 0]]], [1, 2])
"""

from __future__ import annotations

import json
from typing import Any

from .._validation import ValidationError
from ._base import _Src, check_expanded, open_zip, read_member
from ._logs import LogPart, choose_scorer

__all__: list[str] = []  # read through scorio_core.io.load

HEADER = "header.json"
START = "_journal/start.json"
SUMMARIES = "summaries.json"


def _json(data: bytes, label: str, member: str) -> Any:
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ValidationError(f"{label}: member {member!r} is not JSON ({exc})") from None


def _spec(header: Any, label: str, where: str) -> tuple[str, str, int | None]:
    """``(model, task, epochs)`` from an EvalLog/LogStart object."""
    ev = header.get("eval") if isinstance(header, dict) else None
    if not isinstance(ev, dict):
        raise ValidationError(
            f"{label}: {where} has no 'eval' object (the EvalSpec); not an Inspect log"
        )
    for key in ("model", "task"):
        if not isinstance(ev.get(key), str) or not ev[key].strip():
            raise ValidationError(f"{label}: {where}: eval.{key} is missing or empty")
    epochs = (ev.get("config") or {}).get("epochs")
    if epochs is not None and (not isinstance(epochs, int) or epochs < 1):
        raise ValidationError(
            f"{label}: {where}: eval.config.epochs must be a positive whole number; "
            f"got {epochs!r}"
        )
    return ev["model"], ev["task"], epochs


def _error_text(err: Any) -> str | None:
    if err is None or err == "" or err == {}:
        return None
    if isinstance(err, dict):
        err = err.get("message") or json.dumps(err)[:200]
    text = str(err).strip().splitlines()[0] if str(err).strip() else "error"
    return "errored: " + (text if len(text) <= 120 else text[:117] + "...")


def _samples_into(part: LogPart, samples: list[tuple[str, Any]], scorer: str | None) -> None:
    """Add one record per sample dict; ``samples`` holds ``(where, sample)`` pairs."""
    order: dict[str, None] = {}
    for where, s in samples:
        if not isinstance(s, dict):
            raise ValidationError(f"{part.file}: {where}: expected a sample object; got {s!r:.60}")
        for key in ("id", "epoch"):
            if key not in s:
                raise ValidationError(f"{part.file}: {where}: the sample has no {key!r}")
        if not isinstance(s["epoch"], int):
            raise ValidationError(
                f"{part.file}: {where}: epoch must be a whole number; got {s['epoch']!r}"
            )
        if isinstance(s.get("scores"), dict):
            order.update(dict.fromkeys(s["scores"]))
    part.scorer = choose_scorer(list(order), scorer, part, "scorer")
    for where, s in samples:
        err = _error_text(s.get("error"))
        score = (s.get("scores") or {}).get(part.scorer)
        if err is None and score is None:
            err = f"not scored by {part.scorer!r}"
        value = score.get("value") if isinstance(score, dict) else score
        if err is None and isinstance(score, dict) and "value" not in score:
            raise ValidationError(f"{part.file}: {where}: score {part.scorer!r} has no 'value'")
        part.add(s["id"], s["epoch"], value, where, err)


def _finish(part: LogPart, epochs: int | None, where: str) -> LogPart:
    if epochs is not None:
        part.declared_trials = list(range(1, epochs + 1))
        part.trials_from = f"{where} (eval.config.epochs = {epochs})"
        out = sorted({t for t in part.trials if t not in part.declared_trials})
        if out:
            raise ValidationError(
                f"{part.file}: sample epoch(s) {out[:5]} lie outside 1..{epochs} declared by "
                f"eval.config.epochs in {where}"
            )
    else:
        part.trials_from = "the samples' epochs"
    return part


def read_eval(src: _Src, scorer: str | None, limit: int) -> LogPart:
    """One ``.eval`` log as a :class:`LogPart`."""
    with open_zip(src, "Inspect .eval log") as zf:
        names = list(dict.fromkeys(zf.namelist()))  # a re-written member: the last one wins
        if HEADER in names:
            member = HEADER
        elif START in names:
            member = START
        else:
            shown = ", ".join(names[:8]) + (" ..." if len(names) > 8 else "")
            raise ValidationError(
                f"{src.label}: not an Inspect .eval log: no member {HEADER!r} or {START!r} "
                f"(members: {shown or 'none'})"
            )
        sample_members = [n for n in names if n.startswith("samples/") and n.endswith(".json")]
        check_expanded(zf, [member, *([SUMMARIES] if SUMMARIES in names else sample_members)],
                       src.label)  # fmt: skip
        header = _json(read_member(zf, member, src.label, limit), src.label, member)
        model, task, epochs = _spec(header, src.label, f"member {member!r}")
        part = LogPart(src.label, "inspect", model, task)
        if member == START:
            part.notes.append(f"unfinished run (no {HEADER}); read {START}")
        elif header.get("status") not in (None, "success"):
            part.notes.append(f"run status {header.get('status')!r}")
        if SUMMARIES in names:
            summ = _json(read_member(zf, SUMMARIES, src.label, limit), src.label, SUMMARIES)
            if not isinstance(summ, list):
                raise ValidationError(
                    f"{src.label}: member {SUMMARIES!r} must hold a list of sample summaries; "
                    f"got {type(summ).__name__}"
                )
            latest = {}
            for i, s in enumerate(summ):  # a re-run sample's later row supersedes the earlier
                key = (s.get("id"), s.get("epoch")) if isinstance(s, dict) else i
                latest[key] = (f"member {SUMMARIES!r} item {i}", s)
            samples = list(latest.values())
        else:
            samples = [
                (f"member {n!r}", _json(read_member(zf, n, src.label, limit), src.label, n))
                for n in sample_members
            ]
    _samples_into(part, samples, scorer)
    return _finish(part, epochs, f"member {member!r}")


def is_inspect_json(obj: Any) -> bool:
    """Whether a parsed JSON document is an Inspect ``EvalLog``."""
    return (
        isinstance(obj, dict)
        and isinstance(obj.get("eval"), dict)
        and "task" in obj["eval"]
        and "model" in obj["eval"]
    )


def read_json_log(src: _Src, obj: Any, scorer: str | None) -> LogPart:
    """One ``.json`` log (already parsed) as a :class:`LogPart`."""
    model, task, epochs = _spec(obj, src.label, "the log object")
    part = LogPart(src.label, "inspect", model, task)
    if obj.get("status") not in (None, "success"):
        part.notes.append(f"run status {obj.get('status')!r}")
    samples = obj.get("samples")
    if not isinstance(samples, list):
        raise ValidationError(
            f"{src.label}: 'samples' must be a list of samples; got "
            f"{type(samples).__name__} (a log written with --no-log-samples has no scores)"
        )
    _samples_into(part, [(f"samples[{i}]", s) for i, s in enumerate(samples)], scorer)
    return _finish(part, epochs, "the log object")
