"""OpenAI evals event logs (JSONL, ``oaieval --record_path``).

The first line is ``{"spec": {...}}`` (the run spec: ``completion_fns``, ``eval_name``,
``base_eval``, ``run_id``, ``run_config.eval_spec``); then one event per line (``run_id``,
``event_id``, ``sample_id``, ``type``, ``data``, ...) and a ``{"final_report": ...}`` line.

- ``match`` events carry ``data.correct`` (a boolean): the outcome. Model = the completion
  function(s).
- Model-graded evals (``evals.elsuite.modelgraded.classify:ModelBasedClassify`` and its
  subclasses; told by the ``modelgraded_spec`` argument every one of them takes, in
  ``run_config.eval_spec.args``) write no ``match`` event: one ``metrics`` event per graded
  answer carries the grader's ``data.choice`` and ``data.score`` (the spec's
  ``choice_scores`` of that choice; an unparsable reply, ``__invalid__``, gets the lowest).
  The outcome is ``data.score``, graded like any numeric score (in [0, 1]: one category
  per distinct score, weighted by it). A spec with ``choice_scores: from_strings`` scores
  each choice by its number (``"1"``..``"5"``: 1..5): the log does not hold the spec, but
  when the eval's args set ``eval_type`` evals appends the choices to the grader's prompt
  (``... a single choice from "1" or "2" ... (without quotes or punctuation)``), so their
  range is known when every score is its choice read as a number (an ``__invalid__``
  reply: the lowest); it is the score range used (noted), else one must be given.
  As ``ModelBasedClassify`` does, the *last*
  completion fn is the grader and the ones before it are the model; a single completion fn
  is both. Several models before the grader (``multicomp_n``: one verdict comparing their
  answers) are refused: the score is no one model's. A log with both kinds of event is
  read from its ``match`` events, with a note.

A sample id with several scored events was sampled several times; its events (in
``event_id`` order) are its trials, numbered from 1 (:data:`FIRST_EVENT`: the log names no
repeat). Benchmark = ``base_eval`` (else ``eval_name``).
"""

from __future__ import annotations

import math
import re
from typing import Any

from .._validation import ValidationError
from ._base import _Src
from ._logs import LogPart, _number, jsonl_records

#: The trial of a sample's first scored event: OpenAI evals writes no repeat id, so a
#: sample's events are numbered by their order (``event_id``), counted from 1 -- the trial
#: number the Pair view shows.
FIRST_EVENT = 1

__all__: list[str] = []  # read through scorio_core.io.load


#: evals' answer prompt (``classify_utils.ANSWER_PROMPTS``, appended to the grader's prompt
#: when the eval's args set ``eval_type``): the spec's choices as ``"1" or "2" or ...``
#: then ``(without quotes or punctuation)`` (its Japanese prompt: ``（引用符や句読点なし）``)
_LISTED = re.compile(r'((?:"[^"\n]*" or )*"[^"\n]*") ?(?:\(without quotes or punctuation\)|'
                     r"（引用符や句読点なし）)")
_LISTED_END = ("(without quotes or punctuation)", "（引用符や句読点なし）")
_INVALID = "__invalid__"


def listed_choices(prompt: Any) -> tuple[str, ...] | None:
    """The choice strings evals lists in a grader's prompt (its answer prompt), else
    ``None``.

    Example
    -------
    >>> from scorio_core.io.openai_evals import listed_choices
    >>> listed_choices([{"role": "user", "content": 'Rate it.\\n\\nThen print only a single '
    ...                 'choice from "1" or "2" or "3" (without quotes or punctuation).'}])
    ('1', '2', '3')
    """
    if isinstance(prompt, list) and prompt and isinstance(prompt[-1], dict):
        prompt = prompt[-1].get("content")
    if not isinstance(prompt, str) or not any(t in prompt for t in _LISTED_END):
        return None
    m = _LISTED.search(prompt)
    return None if m is None else tuple(re.findall(r'"([^"\n]*)"', m.group(1)))


def is_spec_line(obj: Any) -> bool:
    """Whether a parsed JSONL object is an OpenAI evals run-spec line."""
    return isinstance(obj, dict) and isinstance(obj.get("spec"), dict)


def _eval_spec(spec: dict) -> dict:
    run = spec.get("run_config")
    es = run.get("eval_spec") if isinstance(run, dict) else None
    return es if isinstance(es, dict) else {}


def _graded_by(spec: dict) -> str | None:
    """The modelgraded spec's name when the eval is model-graded (its class takes
    ``modelgraded_spec``), else ``None``."""
    es = _eval_spec(spec)
    args = es.get("args") if isinstance(es.get("args"), dict) else {}
    name = args.get("modelgraded_spec")
    if name is None and str(es.get("cls", "")).endswith(":ModelBasedClassify"):
        name = "?"
    return None if name is None else str(name)


def _finite(v: Any) -> float | None:
    if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
        return float(v)
    return None


def read_events(src: _Src, texts: bool = True) -> LogPart:
    """One OpenAI evals JSONL log as a :class:`LogPart`; ``texts``: keep each trial's
    prompt and sampled text (its ``sampling`` events), the match's expected and picked
    answers, or the grader's choice and reply."""
    spec = None
    report = None
    kinds: dict[str, int] = {}  # event type -> count, for the refusal
    events: list[tuple[int, int, dict]] = []
    metrics: list[tuple[int, int, dict]] = []
    sampling: dict[str, list[tuple[int, int, dict]]] = {}
    listed: set[tuple[str, ...]] = set()  # choices listed in grader prompts (model-graded)
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
        key = (int(obj.get("event_id", len(events) + len(metrics))), i, obj)
        if isinstance(obj.get("final_report"), dict):
            report = obj["final_report"]  # oaieval may write it before buffered events
        elif obj.get("type") == "match":
            events.append(key)
        elif obj.get("type") == "metrics":
            metrics.append(key)
        elif obj.get("type") == "sampling" and isinstance(obj.get("data"), dict):
            if len(listed) < 2 and (found := listed_choices(obj["data"].get("prompt"))):
                listed.add(found)
            if texts:
                sampling.setdefault(str(obj.get("sample_id")), []).append(key)
    if spec is None:
        raise ValidationError(
            f"{src.label}: no 'spec' line (the run spec); not an OpenAI evals log"
        )
    fns = spec.get("completion_fns")
    if not isinstance(fns, list) or not fns:
        raise ValidationError(f"{src.label}: the spec line has no 'completion_fns' (the model)")
    fns = [str(f) for f in fns]
    bench = spec.get("base_eval") or spec.get("eval_name")
    if not isinstance(bench, str) or not bench:
        raise ValidationError(f"{src.label}: the spec line has no 'base_eval' or 'eval_name'")
    graded = _graded_by(spec)
    found = ", ".join(f"{n} {k!r}" for k, n in kinds.items() if k != "None") or "none"
    if graded is not None and len(fns) > 2:
        raise ValidationError(
            f"{src.label}: a model-graded eval ({_eval_spec(spec).get('cls')}) of "
            f"{len(fns) - 1} models graded by {fns[-1]!r} ({', '.join(fns[:-1])}): the "
            "grader compares their answers side by side (multicomp_n), one verdict per "
            "sample that is no one model's score; run oaieval once per model "
            "(`oaieval MODEL,GRADER EVAL`) to compare models"
        )
    model = ",".join(fns[:-1] if graded is not None and len(fns) > 1 else fns)
    part = LogPart(src.label, "openai_evals", model, bench, scorer="match")
    if events:
        if metrics:
            keys = sorted({str(k) for _, _, ev in metrics
                           if isinstance(ev.get("data"), dict) for k in ev["data"]})
            part.notes.append(
                f"the log also holds {len(metrics)} 'metrics' events (data: "
                f"{', '.join(keys) or 'none'}), not read: the outcome is the 'match' "
                "events' data.correct"
            )
        _read_match(src, part, events, report, sampling if texts else None)
    elif graded is not None and metrics:
        _read_graded(src, part, metrics, report, sampling if texts else None, fns, graded,
                     found)
        _scale_of_choices(part, metrics, listed, graded)
        args = _eval_spec(spec).get("args")
        n = args.get("multicomp_n") if isinstance(args, dict) else None
        if n not in (None, 1):
            part.notes.append(
                f"multicomp_n={n}: each score is the grader's verdict on {n} answers of "
                "the model shown together, not on one answer"
            )
    else:
        why = ("" if graded is None else
               f" (a model-graded eval, modelgraded_spec {graded!r}, whose log has no "
               "'metrics' events)")
        raise ValidationError(
            f"{src.label}: no 'match' events; nothing to score{why} (expected one 'match' "
            f"event, data.correct, per sampled answer; found events: {found}). Evals that "
            "record only 'metrics' are read when model-graded (ModelBasedClassify: "
            "run_config.eval_spec.args names a modelgraded_spec)"
        )
    return part


def _headline(part: LogPart, report: dict | None, key: str, meaning: str) -> None:
    """The eval's own number (``final_report[key]``), for the import report beside our
    mean, when it is a finite number."""
    value = _finite((report or {}).get(key))
    if value is not None:
        part.harness = {"name": f"OpenAI evals final_report {key}", "value": value,
                        "meaning": meaning}


def _read_match(src: _Src, part: LogPart, events: list, report: dict | None,
                sampling: dict[str, list] | None) -> None:
    """The match events' data.correct (``sampling``: ``None`` keeps no texts)."""
    _headline(part, report, "accuracy", "the eval's own accuracy (most evals: the share of "
              "correct match events)")
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
        if sampling is not None:
            sam = [s for _, _, s in sorted(sampling.get(str(sid), []), key=lambda e: e[1])]
            sam = sam[trial]["data"] if trial < len(sam) else {}
            text = {"input": sam.get("prompt"), "target": data.get("expected"),
                    "output": data.get("sampled", sam.get("sampled")),
                    "answer": data.get("picked")}
        part.add(sid, FIRST_EVENT + trial, data["correct"], f"line {i} (sample_id {sid})",
                 text=text)
    part.trials_from = "the repeated match events per sample_id"


def _read_graded(src: _Src, part: LogPart, metrics: list, report: dict | None,
                 sampling: dict[str, list] | None, fns: list[str], graded: str,
                 found: str) -> None:
    """The grader's score of each 'metrics' event (ModelBasedClassify)."""
    grader = fns[-1]
    part.scorer = "grader score"
    rows = sorted(metrics, key=lambda e: (e[0], e[1]))
    if not any(isinstance(ev.get("data"), dict) and _finite(ev["data"].get("score")) is not None
               for _, _, ev in rows):
        choices = sorted({str(ev["data"].get("choice")) for _, _, ev in rows
                          if isinstance(ev.get("data"), dict)})
        raise ValidationError(
            f"{src.label}: a model-graded eval (modelgraded_spec {graded!r}, grader "
            f"{grader!r}) whose {len(rows)} 'metrics' events have no data.score, only the "
            f"grader's choice ({', '.join(choices) or 'none'}): its modelgraded spec gives "
            "no choice_scores, so nothing says how good each choice is (found events: "
            f"{found}). Give the spec choice_scores and run it again"
        )
    own = " (its own grader: the only completion fn)" if len(fns) == 1 else ""
    part.notes.append(
        f"model-graded eval (modelgraded_spec {graded!r}): the outcome is the grader's "
        f"score (data.score of each 'metrics' event; the spec's choice_scores of its "
        f"choice), graded by the completion fn {grader!r}{own}; model = "
        + ("the completion fn before the grader" if len(fns) > 1 else "the grader itself")
    )
    _headline(part, report, "score", "ModelBasedClassify's score: the mean of the grader's "
              "scores over the metrics events that have one")
    seen: dict[str, int] = {}
    last: dict[str, int] = {}  # sample id -> event_id of its previous metrics event
    invalid = 0
    for eid, i, ev in rows:
        sid = ev.get("sample_id")
        if sid is None:
            raise ValidationError(f"{src.label}: line {i}: the metrics event has no 'sample_id'")
        data = ev.get("data")
        if not isinstance(data, dict) or "score" not in data:
            raise ValidationError(
                f"{src.label}: line {i}: the metrics event has no data.score (the grader's "
                "score)"
            )
        trial = seen.get(str(sid), 0)
        seen[str(sid)] = trial + 1
        choice = data.get("choice")
        invalid += choice == _INVALID
        err = None
        if data["score"] is None:
            err = f"the grader's choice {choice!r} has no score"
        text = None
        if sampling is not None:
            # this answer's sampling events: after the sample's previous verdict, before
            # this one; the model's answer comes first, the grader's reply last
            sam = [s["data"] for e, _, s in sorted(sampling.get(str(sid), []))
                   if last.get(str(sid), -1) < e < eid]
            text = {"input": sam[0].get("prompt") if len(sam) > 1 else None,
                    "output": sam[0].get("sampled") if len(sam) > 1 else None,
                    "answer": None if choice is None else str(choice),
                    "explanation": sam[-1].get("sampled") if len(sam) > 1 else None}
        last[str(sid)] = eid
        part.add(sid, FIRST_EVENT + trial, data["score"], f"line {i} (sample_id {sid})",
                 error=err, text=text)
    if invalid:
        part.notes.append(
            f"{invalid} grader repl{'y' if invalid == 1 else 'ies'} matched no choice "
            "(`__invalid__`): scored the lowest choice score, as OpenAI evals does"
        )
    part.trials_from = "the repeated metrics events per sample_id"


def _scale_of_choices(part: LogPart, metrics: list, listed: set[tuple[str, ...]],
                      graded: str) -> None:
    """The score range of a ``choice_scores: from_strings`` spec (each choice scored by its
    number): lowest..highest of the choices evals listed in the grader's prompt, when every
    score is its choice read as a number and an ``__invalid__`` reply the lowest, as
    evals' ``get_choice_score`` does. Otherwise ``part.scale_why`` says why no range is
    known (told only if a score needs one)."""
    scored = [(ev["data"].get("choice"), ev["data"]["score"]) for _, _, ev in metrics
              if isinstance(ev.get("data"), dict) and _finite(ev["data"].get("score")) is not None]
    spec = f"modelgraded_spec {graded!r}"
    give = "; give the lowest and highest of its choice_scores"
    if len(listed) != 1:
        part.scale_why = (
            f"the {spec} is not in the log and the grader's prompts list "
            + ("no choices: evals lists them only when the eval's args set eval_type"
               if not listed else f"{len(listed)} different sets of choices") + give
        )
        return
    choices = next(iter(listed))
    numbers = [_number(c) for c in choices]
    shown = " or ".join(f'"{c}"' for c in choices)
    if len(choices) < 2 or any(x is None for x in numbers):
        part.scale_why = (f"the grader's choices {shown} are not all numbers: the scores are "
                          f"the {spec}'s choice_scores, which are not in the log{give}")
        return
    lo, hi = min(numbers), max(numbers)
    value = dict(zip(choices, numbers, strict=True))
    odd = next(((c, x) for c, x in scored
                if x != (lo if c == _INVALID else value.get(str(c)))), None)
    if odd is not None:
        part.scale_why = (
            f"the grader's choice {odd[0]!r} scored {odd[1]:g}, not its number: the {spec}'s "
            f"choice_scores are not from_strings, and they are not in the log{give}"
        )
        return
    if lo == hi or (lo, hi) == (0.0, 1.0):  # [0, 1] is the default scale anyway
        return
    part.scale = (lo, hi)
    part.scale_why = (
        f"the {spec} scores each choice by its number (choice_scores: from_strings; every "
        f"score in the log is its choice read as a number, an unparsable reply the lowest) "
        f"and the grader's prompt lists the choices {shown}"
    )
