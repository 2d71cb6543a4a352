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
  sample that errored (a missing cell, counted in the import report);
* each sample's texts for the sample store: ``input``, ``target``, ``output.completion``
  (the output), the score's ``answer`` and ``explanation``, ``metadata``, ``error``, and
  the model's reasoning -- the ``reasoning`` content blocks of the first choice's message
  (``output.choices[0].message.content``), which ``output.completion`` leaves out
  (:func:`_reasoning`).

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
(('gpt-x',), ('1',), [[[1, 0]]], [1, 2])
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

from .._validation import Mention, Said, ValidationError
from ..formatting import count_text, noun_text
from ..samples import as_text, one_line
from ._base import MAX_DECODED_BYTES, _Src, check_expanded, open_zip, read_member
from ._json_stream import JSONStream
from ._logs import LogPart, _run_state, choose_scorer

__all__: list[str] = []  # read through scorio_core.io.load

HEADER = "header.json"
START = "_journal/start.json"
SUMMARIES = "summaries.json"
REDUCTIONS = "reductions.json"


def _json(data: bytes, label: str, member: str) -> Any:
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ValidationError(f"{label}: member {member!r} is not JSON ({exc})") from None


def _task_args(header: dict) -> dict[str, str]:
    """The task's arguments (``eval.task_args``: ``arith(level=2)``), as short texts."""
    args = (header.get("eval") or {}).get("task_args")
    if not isinstance(args, dict):
        return {}
    return {str(k): json.dumps(v, sort_keys=True, default=str) if not isinstance(v, str) else v
            for k, v in args.items()}


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


def _scorer_names(samples: list[tuple[str, Any]]) -> tuple[list[str], dict[str, tuple]]:
    """The scorers a reader can choose, in order of appearance: each scorer's name, and for
    a dict-valued score (``{"exact": "C", "near": "P"}``) each key as a scorer of its own,
    as Inspect names them in ``results.scores`` (also reachable as ``SCORER/KEY``).

    Returns the names and ``name -> (scorer, key or None)``.
    """
    plain: dict[str, None] = {}
    keyed: dict[str, dict[str, None]] = {}
    for _, s in samples:
        for name, score in (s.get("scores") or {}).items():
            value = score.get("value") if isinstance(score, dict) else score
            if isinstance(value, dict):
                keyed.setdefault(name, {}).update(dict.fromkeys(map(str, value)))
            else:
                plain[name] = None
    names: list[str] = []
    where: dict[str, tuple] = {}
    for name in dict.fromkeys([*plain, *keyed]):
        if name in plain:
            names.append(name)
            where[name] = (name, None)
        for key in keyed.get(name, ()):
            label = key if key not in where and key not in plain else f"{name}/{key}"
            names.append(label)
            where[label] = where[f"{name}/{key}"] = (name, key)
    return names, where


#: What the sample store says for a reasoning block the model provider encrypted
#: (``ContentReasoning.redacted``: its ``reasoning`` is ciphertext, never shown), as
#: Inspect's viewer says it: ``[ENCRYPTED]``, or ``[ENCRYPTED; its summary:]`` and the
#: block's readable ``summary`` on the next line when it has one.
ENCRYPTED = "reasoning encrypted by the model provider"


def _reasoning(output: Any) -> str | None:
    """The model's reasoning in an ``output`` (a ``ModelOutput``): the ``reasoning`` content
    blocks of its first choice's message, in order, a blank line between blocks, cut at
    :data:`~scorio_core.samples.MAX_TEXT` characters; ``None`` when it has none.

    Each block is shown as Inspect's viewer shows it: its ``reasoning`` text; a block the
    provider encrypted (``redacted``) as ``[reasoning encrypted by the model provider]``
    (:data:`ENCRYPTED`), followed by its readable ``summary`` when it has one (a current
    Claude model's thinking), never its ciphertext; a block with only a summary as that
    summary, labelled ``[reasoning summary:]``.

    Example
    -------
    >>> from scorio_core.io.inspect import _reasoning
    >>> print(_reasoning({"choices": [{"message": {"content": [
    ...     {"type": "reasoning", "reasoning": "2 + 2 is 4."}, {"type": "text", "text": "4"},
    ...     {"type": "reasoning", "reasoning": "EqQBCkgI", "redacted": True}]}}]}))
    2 + 2 is 4.
    <BLANKLINE>
    [reasoning encrypted by the model provider]
    """
    choices = output.get("choices") if isinstance(output, dict) else None
    first = choices[0] if isinstance(choices, list) and choices else None
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):  # a plain string: no reasoning blocks
        return None
    parts = []
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "reasoning":
            continue
        text, summary = (v if isinstance(v, str) else ""
                         for v in (block.get("reasoning"), block.get("summary")))
        if block.get("redacted"):
            parts.append(f"[{ENCRYPTED}; its summary:]\n{summary}" if summary.strip()
                         else f"[{ENCRYPTED}]")
        elif text.strip():
            parts.append(text)
        elif summary.strip():
            parts.append(f"[reasoning summary:]\n{summary}")
    return as_text("\n\n".join(parts)) if parts else None


def _text(s: dict, name: str, full: dict | None = None) -> dict[str, Any]:
    """The text fields of one sample for scorer ``name`` (``full``: its ``samples/``
    member as :func:`_outputs` keeps it, read when the scores came from ``summaries.json``,
    which holds no output and may shorten the input, the answer and the explanation)."""
    src = full if isinstance(full, dict) else s
    score = (src.get("scores") or {}).get(name) or (s.get("scores") or {}).get(name)
    output = src.get("output")
    out = {
        "input": src.get("input") or s.get("input"),
        "target": src.get("target") or s.get("target"),
        # a member's reasoning, rendered when it was read (its blocks are not kept)
        "reasoning": src.get("reasoning") if src is full else _reasoning(output),
        "output": output.get("completion") if isinstance(output, dict) else None,
        "answer": score.get("answer") if isinstance(score, dict) else None,
        "explanation": score.get("explanation") if isinstance(score, dict) else None,
        "metadata": src.get("metadata") or s.get("metadata") or None,
        "error": src.get("error") or None,
    }
    if isinstance(out["error"], dict):
        out["error"] = out["error"].get("message") or out["error"]
    if out["target"] in ("", []):
        out["target"] = None
    return out


def _outputs(zf, names: list[str], samples: list[tuple[str, Any]], part: LogPart,
             limit: int) -> dict[tuple[Any, Any], dict]:
    """The text fields of each sample's ``samples/{id}_epoch_{n}.json`` member, read one
    member at a time (the events and messages are dropped at once, the output's reasoning
    blocks kept as their text, :func:`_reasoning`). Members that would
    expand beyond :data:`~scorio_core.io.MAX_DECODED_BYTES` together are not read (the
    scores do not need them): the samples then have no output text, with a note."""
    have = set(names)
    wanted = {}
    for _, s in samples:
        if isinstance(s, dict):
            member = f"samples/{s.get('id')}_epoch_{s.get('epoch')}.json"
            if member in have:
                wanted[(s.get("id"), s.get("epoch"))] = member
    if sum(zf.getinfo(m).file_size for m in wanted.values()) > MAX_DECODED_BYTES:
        part.notes.append(
            "the samples' own members are too large to read for their output text (scores "
            "read from summaries.json); the sample store has no output for this log"
        )
        return {}
    label = part.file
    out = {}
    for key, member in wanted.items():
        full = _json(read_member(zf, member, label, limit), label, member)
        if isinstance(full, dict):
            output = full.get("output")
            out[key] = {
                "input": full.get("input"), "target": full.get("target"),
                "metadata": full.get("metadata"), "error": full.get("error"),
                "scores": full.get("scores"), "reasoning": _reasoning(output),
                "output": {"completion": output.get("completion")}
                if isinstance(output, dict) else None,
            }
    return out


def _nothing_scored(part: LogPart, samples: list[tuple[str, Any]]) -> None:
    """Refuse a log none of whose samples holds a score, saying why: how its run ended
    (a run that failed, e.g. a model API that could not be reached, leaves every sample
    errored) and what the samples' errors read."""
    errors = [e for _, s in samples if (e := _error_text(s.get("error")))]
    ended = _run_state(part)
    ended = "the run finished" if ended == "finished" else ended
    if errors:
        why = f"{len(errors):,} of {len(samples):,} samples errored"
        first = f". The first error: {errors[0].removeprefix('errored: ')}"
    else:
        why = f"{len(samples):,} samples, none with a score" if samples else "no samples"
        first = ""
    raise ValidationError(
        f"{part.file}: nothing in this log was scored: {ended}; {why}. The log holds no "
        "score to read: re-run it (`inspect eval-retry` on this file) or leave the file out "
        f"of the load{first}"
    )


def _samples_into(part: LogPart, samples: list[tuple[str, Any]], scorer: str | None,
                  texts: bool = True, full: dict | None = None) -> None:
    """Add one record per sample dict; ``samples`` holds ``(where, sample)`` pairs;
    ``texts``: keep each sample's text fields (``full``: from its own member).

    A sample that errored but was scored anyway (``score_on_error=True``) counts, as
    Inspect counts it, with a note; one that errored without a score is a missing cell.
    """
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
    names, lookup = _scorer_names(samples)
    if scorer is not None and scorer not in lookup and scorer in names:
        lookup[scorer] = (scorer, None)
    if scorer is not None and scorer in lookup and scorer not in names:
        names.append(scorer)  # SCORER/KEY of a dict score
    if not names:
        _nothing_scored(part, samples)
    part.scorer = choose_scorer(names, scorer, part, "scorer")
    name, key = lookup[part.scorer]
    scored_errors = 0
    for where, s in samples:
        err = _error_text(s.get("error"))
        score = (s.get("scores") or {}).get(name)
        if isinstance(score, dict) and "value" not in score:
            raise ValidationError(f"{part.file}: {where}: score {name!r} has no 'value'")
        value = score.get("value") if isinstance(score, dict) else score
        if key is not None:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, float) and math.isnan(value):  # Score.unscored(): no grade
            why = score.get("explanation") if isinstance(score, dict) else None
            err = err or (f"unscored by {part.scorer!r}, which Inspect leaves out of its "
                          "metrics" + (f" ({one_line(str(why))[:80]})" if why else ""))
            value = None
        if value is None:
            err = err or f"not scored by {part.scorer!r}"
        elif err is not None:  # scored although it errored: Inspect counts it
            scored_errors += 1
            err = None
        # always: the metadata may name the question's subset; the texts are dropped later
        # when not kept (samples="skip"); only the members' outputs cost a read
        text = _text(s, name, (full or {}).get((s["id"], s["epoch"])))
        part.add(s["id"], s["epoch"], value, where, err, text)
    if scored_errors:
        part.notes.append(
            f"{count_text(scored_errors, 'sample')} errored but "
            f"{'was' if scored_errors == 1 else 'were'} scored anyway (score_on_error): "
            "counted with their score, as Inspect counts them"
        )


_PASS_FAIL = ({"C", "I"}, {True, False}, {0, 1})  # raw values of a pass/fail scorer


def _pass_fail(values: list[Any]) -> bool:
    """Whether a log's raw values are pass/fail (the leaderboard's Pass@k needs that)."""
    seen = set()
    for v in values:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            continue
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if not isinstance(v, str | bool | int):
            return False
        seen.add(v)
        if len(seen) > 2:
            return False
    return any(seen <= allowed for allowed in _PASS_FAIL)


def _reducer_meaning(reducer: str, pass_fail: bool) -> str:
    """What an Inspect epochs reducer's headline is, in the leaderboard's terms (its setting
    as each surface names it: a :class:`~scorio_core._validation.Said`)."""
    for prefix, ours, what in (("pass_at_", "Pass@", "the chance that at least one of"),
                               ("pass_k_", "Pass^", "the chance that all of")):
        k = reducer.removeprefix(prefix)
        if reducer.startswith(prefix) and k.isdigit():
            if pass_fail:
                from ..params import LeaderboardParams

                return Said(f"{what} {k} epochs passes, averaged over the questions: the "
                            f"leaderboard's {ours}{k} column (", Mention(
                                LeaderboardParams, "ks", (int(k),)), ") is the same "
                            "estimator over these epochs")
            return (f"{what} {k} epochs passes, counting only full credit as a pass; these "
                    "scores are graded, for which the leaderboard has no Pass@k column (the "
                    "mean and Bayes@N weight every grade)")
    if reducer.startswith("at_least_"):
        return (f"1 for a question when at least {reducer.removeprefix('at_least_')} of its "
                "epochs pass, else 0")
    return f"each question's {reducer} over its epochs"


def _headline(part: LogPart, results: Any, epochs: int | None) -> None:
    """Inspect's own headline for the chosen scorer (``results.scores``), for the import
    report beside our mean of the same records. A task with several epochs reducers
    (``Epochs(4, ["mean", "pass_at_2"])``) has one headline per reducer: the ``mean``
    reducer's is the one our mean reproduces, so it is shown; the others are named."""
    if not isinstance(results, dict):
        return
    scorer = part.scorer.rsplit("/", 1)[-1] if part.scorer else None
    found: list[tuple[str, str, float, str]] = []  # (reducer, metric, value, score name)
    for sc in results.get("scores") or ():
        if not isinstance(sc, dict) or scorer not in (sc.get("name"), sc.get("scorer")):
            continue
        metrics = sc.get("metrics") or {}
        if not metrics:
            continue
        mname, metric = next(iter(metrics.items()))
        value = metric.get("value") if isinstance(metric, dict) else None
        if isinstance(value, int | float) and not isinstance(value, bool):
            found.append((sc.get("reducer") or "mean", mname, float(value), sc.get("name")))
    if not found:
        return
    reducer, mname, value, name = next((f for f in found if f[0] == "mean"), found[0])
    n = f" over its {epochs} epochs" if epochs else ""
    part.harness = {
        "name": f"Inspect {name} {mname}",
        "value": value,
        "reducer": reducer,
        "meaning": f"{mname} over the questions of each question's {reducer!r}{n}",
    }
    others = [f for f in found if f[0] != reducer]
    if others:
        part.harness["other_reducers"] = {r: v for r, _, v, _ in others}
    if not (epochs and epochs > 1 and part.trial_set() != [0]):
        return
    pass_fail = _pass_fail(part.values)
    for r, m, _, _ in found:  # every reducer but a shown 'mean' (our mean reproduces it)
        if r == reducer == "mean":
            continue
        told = ("its value is the import report's 'harness'" if r == reducer else
                "its value is in the import report's 'harness' 'other_reducers'")
        part.notes.append(
            f"Inspect {'also ' if r != reducer else ''}reduces each question's epochs with "
            f"{r!r} before its metric {m!r} ({told}): " + _reducer_meaning(r, pass_fail)
            + f". The outcomes here are the {epochs} epochs themselves (their mean is the "
            "import report's 'mean')"
        )


def _reductions_into(part: LogPart, reductions: Any, scorer: str | None, label: str) -> str:
    """A log without samples (``log_samples=False``): one record per question holding its
    reduced score over the epochs (``reductions``), the only per-question data there is."""
    if not isinstance(reductions, list) or not reductions:
        raise ValidationError(
            f"{label}: the log holds no samples and no per-question reductions "
            "(reductions.json), so there is no score per question to read"
        )
    fake = [
        ("", {"scores": {r.get("scorer"): {"value": x.get("value")}}})
        for r in reductions if isinstance(r, dict)
        for x in r.get("samples") or () if isinstance(x, dict)
    ]  # fmt: skip
    names, lookup = _scorer_names(fake)
    part.scorer = choose_scorer(names, scorer, part, "scorer")
    name, key = lookup.get(part.scorer, (part.scorer, None))
    # one reduction per (scorer, epochs reducer): the 'mean' is the score averaged over a
    # question's epochs, what the samples would have given; other reducers only if alone
    mine = [r for r in reductions if isinstance(r, dict) and r.get("scorer") == name]
    red = next((r for r in mine if (r.get("reducer") or "mean") == "mean"), mine[0])
    others = [r.get("reducer") for r in mine if r is not red and r.get("reducer")]
    for i, x in enumerate(red.get("samples") or ()):
        value = x.get("value")
        if key is not None:
            value = value.get(key) if isinstance(value, dict) else None
        where = f"reductions[{name!r}] item {i}"
        part.add(x.get("sample_id"), 0, value, where,
                 None if value is not None else f"no reduced value for {part.scorer!r}")
    reducer = red.get("reducer") or "mean"
    part.trials_from = f"the per-question reductions ({reducer!r})"
    part.notes.append(
        f"no samples in this log (written with log_samples=False): read Inspect's "
        f"per-question reductions ({reducer!r} over the epochs) — one trial per question "
        "holding the reduced score, not the epochs themselves"
        + (f" (the log's other reductions, {', '.join(map(repr, others))}, are not read)"
           if others else "")
    )
    return reducer


def _declared_samples(header: Any) -> int | None:
    """The task's sample count (``eval.dataset.samples``), if the spec states it."""
    ds = (header.get("eval") or {}).get("dataset") if isinstance(header, dict) else None
    n = ds.get("samples") if isinstance(ds, dict) else None
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None


def _progress(part: LogPart, epochs: int, samples: int | None) -> str:
    """How much of a run that did not finish was written: ``8 of 15 samples written (3
    epochs × 5 samples declared; epoch 1: 5 of 5, epoch 2: 3 of 5, epoch 3: none)``."""
    per = Counter(part.trials)
    m = samples or len(set(part.questions))
    each = [f"epoch {e}: " + (f"{per[e]:,} of {m:,}" if per.get(e) else "none")
            for e in range(1, epochs + 1)]
    if len(each) > 6:
        each = [*each[:5], "...", each[-1]]
    return (f"{len(part.trials):,} of {m * epochs:,} samples written ({epochs:,} "
            f"epoch{'s' if epochs > 1 else ''} × {m:,} sample{'s' if m > 1 else ''} "
            f"declared; {', '.join(each)})")


def _finish(part: LogPart, epochs: int | None, where: str, samples: int | None = None
            ) -> LogPart:
    if epochs is not None:
        part.declared_trials = list(range(1, epochs + 1))
        part.trials_from = f"{where} (eval.config.epochs = {epochs})"
        out = sorted({t for t in part.trials if t not in part.declared_trials})
        if out:
            raise ValidationError(
                f"{part.file}: sample {noun_text(len(out), 'epoch')} {out[:5]} "
                f"{'lies' if len(out) == 1 else 'lie'} outside 1..{epochs} declared by "
                f"eval.config.epochs in {where}"
            )
        i = next((i for i, n in enumerate(part.notes)
                  if n.startswith(("run status", "unfinished run"))), None)
        if i is not None:  # a run that did not finish: say how far it got
            part.notes[i] += f": {_progress(part, epochs, samples)}"
    else:
        part.trials_from = "the samples' epochs"
    return part


def read_eval(src: _Src, scorer: str | None, limit: int, benchmark: str | None = None,
              texts: bool = True) -> LogPart:
    """One ``.eval`` log as a :class:`LogPart` (only its header when ``benchmark`` names
    another task: the part is then dropped before assembly); ``texts``: keep each sample's
    input, target, reasoning, output, answer, explanation and metadata (the output and its
    reasoning are in the ``samples/`` members, read one at a time, when the scores come from
    ``summaries.json``)."""
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
        part = LogPart(src.label, "inspect", model, task, task_args=_task_args(header))
        if benchmark is not None and task != benchmark.split("[", 1)[0]:  # arith[level=2]
            return part
        if member == START:
            part.notes.append(f"unfinished run (no {HEADER}; read {START})")
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
            full = _outputs(zf, names, samples, part, limit) if texts else None
        else:
            full = None
            samples = [
                (f"member {n!r}", _json(read_member(zf, n, src.label, limit), src.label, n))
                for n in sample_members
            ]
        reductions = None
        if not samples and REDUCTIONS in names:
            reductions = _json(read_member(zf, REDUCTIONS, src.label, limit), src.label,
                               REDUCTIONS)  # fmt: skip
    if reductions is not None:
        _reductions_into(part, reductions, scorer, src.label)
        _headline(part, header.get("results"), epochs)
        return part
    _samples_into(part, samples, scorer, texts, full)
    _headline(part, header.get("results"), epochs)
    return _finish(part, epochs, f"member {member!r}", _declared_samples(header))


def json_header(src: _Src) -> dict | None:
    """The header of a ``.json`` log: the members of its top-level object before
    ``samples``, decoded one at a time and read no further than the start of the samples
    (Inspect writes ``version``, ``status``, ``eval``, ``plan``, ``results``, ``stats`` and
    ``error`` before them, as its own ``read_eval_log(header_only=True)`` reads them). What a
    listing needs -- whether it is an Inspect log, its model and task -- costs the header's
    bytes, not the log's; ``None`` when the file does not start as a JSON object or is not
    JSON before its samples (it is then parsed whole, which says why).

    Example
    -------
    >>> from scorio_core.io._base import _Src
    >>> from scorio_core.io.inspect import json_header
    >>> log = b'{"eval": {"task": "arith", "model": "m"}, "samples": [not even JSON'
    >>> json_header(_Src("log.json", data=log))
    {'eval': {'task': 'arith', 'model': 'm'}}
    """
    head: dict[str, Any] = {}
    try:
        with src.open() as fh:
            s = JSONStream(fh)
            for key in s.members():
                if key == "samples":
                    break
                head[key] = s.value()
    except (ValueError, UnicodeDecodeError, RecursionError, OSError):
        return None
    return head


def is_inspect_json(obj: Any) -> bool:
    """Whether a parsed JSON document is an Inspect ``EvalLog``."""
    return (
        isinstance(obj, dict)
        and isinstance(obj.get("eval"), dict)
        and "task" in obj["eval"]
        and "model" in obj["eval"]
    )


def read_json_file(src: _Src, scorer: str | None, benchmark: str | None = None,
                   texts: bool = True) -> LogPart:
    """One ``.json`` log as a :class:`LogPart`, parsed whole only when its samples are read:
    when ``benchmark`` names another task, from its header alone (:func:`json_header`; the
    part is then dropped before assembly, as :func:`read_eval` does)."""
    if benchmark is not None:
        head = json_header(src)
        if is_inspect_json(head) and head["eval"]["task"] != benchmark.split("[", 1)[0]:
            return read_json_log(src, head, scorer, benchmark, texts)
    return read_json_log(src, _whole(src), scorer, benchmark, texts)


def _whole(src: _Src) -> Any:
    """A ``.json`` log parsed whole."""
    try:
        return json.loads(src.read())
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ValidationError(f"{src.label}: not JSON ({exc})") from None


def read_json_log(
    src: _Src, obj: Any, scorer: str | None, benchmark: str | None = None, texts: bool = True
) -> LogPart:
    """One ``.json`` log (already parsed: the whole log, or its header when ``benchmark``
    names another task) as a :class:`LogPart`."""
    model, task, epochs = _spec(obj, src.label, "the log object")
    part = LogPart(src.label, "inspect", model, task, task_args=_task_args(obj))
    if benchmark is not None and task != benchmark.split("[", 1)[0]:  # arith[level=2]
        return part
    if obj.get("status") not in (None, "success"):
        part.notes.append(f"run status {obj.get('status')!r}")
    samples = obj.get("samples")
    if not samples and obj.get("reductions"):
        _reductions_into(part, obj["reductions"], scorer, src.label)
        _headline(part, obj.get("results"), epochs)
        return part
    if not isinstance(samples, list):
        raise ValidationError(
            f"{src.label}: 'samples' must be a list of samples; got "
            f"{type(samples).__name__} (a log written with --no-log-samples has no scores "
            "and this one has no per-question 'reductions' either)"
        )
    _samples_into(part, [(f"samples[{i}]", s) for i, s in enumerate(samples)], scorer, texts)
    _headline(part, obj.get("results"), epochs)
    return _finish(part, epochs, "the log object", _declared_samples(obj))
