"""lm-evaluation-harness per-sample logs: ``samples_<task>_<date>.jsonl``.

``lm_eval --log_samples --output_path DIR`` writes, per model, a directory with
``results_<date>.json`` (``model_name``, ``config.model_args``, the task ``configs``,
``n-samples`` and the aggregated ``results``) and one ``samples_<task>_<date>.jsonl``
per task: one JSON object per document and filter with ``doc_id``, ``target``,
``resps`` (all ``repeats`` responses), ``filtered_resps``, ``filter``, ``metrics`` (the
metric names) and one field per metric -- the value lm-eval computed for that document
under that filter.

What is read:

* the outcome of a document is **lm-eval's own metric value** under the task's filter
  (a list -- one value per repeat -- gives one trial per repeat; a number is the one
  trial of the document). A task that samples ``repeats`` responses reduces them with
  its filter before scoring (``take_first`` by default: the first response; a
  ``majority_vote`` filter: the voted answer); the import report says so. A filter that
  keeps all ``k`` responses makes ``exact_match`` their share that match (0.75): each
  response is then one trial, matched with the task's options, when that reproduces
  lm-eval's value on every document (else the share stays one graded trial). Only when a
  document has no metric value is it re-scored, with the configured ``exact_match``
  options (``ignore_case``, ``ignore_punctuation``, ``ignore_numbers``,
  ``regexes_to_ignore`` from ``configs[task].metric_list``) on the filtered responses,
  and the report says so; other metrics are not re-computed (the cell is missing).
* several filters (e.g. ``maj@64`` and ``score-first``): one benchmark per filter,
  named ``TASK/FILTER``, unless ``scorer="FILTER/METRIC"`` picks one (``benchmark="TASK"``
  reads them all, ``benchmark="TASK/FILTER"`` one).
* ``n-samples`` (``--limit``) and ``configs[task].repeats`` are checked against the
  documents and responses found, and reported; lm-eval's aggregated value
  (``results[task]["METRIC,FILTER"]``) is reported beside ours.
* ``--predict_only`` output (metric ``bypass``) has no scores: refused with the reason.
* a folder of lm-eval task definitions (YAMLs, :func:`task_definition`) and their
  documents is not logs: refused with what to run (:func:`not_logs`).
* the texts: the prompt, target, document, each response and the filtered answer lm-eval
  scored; a multiple-choice document (no response: one loglikelihood per option) shows
  the option lm-eval's metric picked as its answer, the gold option as its target and
  every option's loglikelihood in one ``choices`` field (:func:`choice_texts`). A
  single-request ``loglikelihood`` document (lambada-style) shows the continuation scored
  as its ``target`` and, as its ``answer``, whether it is the model's greedy continuation
  with its loglikelihood (:func:`loglikelihood_texts`); its outcome is lm-eval's ``acc``
  (``is_greedy``). lm-eval's corpus perplexities (``perplexity``, and a
  ``loglikelihood_rolling`` task's ``word_perplexity``, ``byte_perplexity``,
  ``bits_per_byte``: a loglikelihood per document, pooled over them) are never read as
  outcomes (:data:`CORPUS_METRICS`): a task that has no other metric is refused with the
  reason. lm-eval
  names no repeat: a document's repeats are numbered from 1 by their place in ``resps``
  (:data:`FIRST_REPEAT`). A reasoning model's response run without ``think_end_token``
  holds its thinking (``<think>...</think>answer``), which lm-eval scored with it: the
  thinking is shown as the ``reasoning``, the rest as the ``output``, split where lm-eval
  splits a response when the token is set (:func:`thinking`), and the import report says
  how many responses hold one. The scores are lm-eval's, never re-computed on the split.

The model name comes from the sibling ``results_<date>.json`` (same date, else the
only/latest one in the directory -- also when the samples file is named alone), else
from the directory name.
"""

from __future__ import annotations

import json
import math
import re
import string
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from .._validation import ValidationError
from ._base import _resolve, _Src
from ._logs import LogPart, choose_scorer, jsonl_records
from .options import mention

__all__: list[str] = []  # read through scorio_core.io.load

SAMPLES_NAME = re.compile(r"^samples_(?P<task>.+?)_(?P<date>\d{4}-\d{2}-\d{2}T[0-9\-.]+)\.jsonl$")
RESULTS_NAME = re.compile(r"^results_(?P<date>.+)\.json$")
_RESERVED = {
    "doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
    "doc_hash", "prompt_hash", "target_hash",
}  # fmt: skip
_EXACT_OPTIONS = ("regexes_to_ignore", "ignore_case", "ignore_punctuation", "ignore_numbers")


#: Suffixes of lm-eval task definitions (``lm_eval/tasks/**/*.yaml``, ``--include_path``).
TASK_SUFFIXES = (".yaml", ".yml")
_TASK_NAME = re.compile(r"^(task|group)\s*:[ \t]*(.*?)\s*$", re.M)
#: Top-level keys of a task definition besides ``task`` (lm-eval's ``TaskConfig``): where
#: its documents come from and how it prompts and scores them.
_TASK_KEYS = re.compile(
    r"^(dataset_path|dataset_name|dataset_kwargs|doc_to_text|doc_to_target|doc_to_choice|"
    r"output_type|include|metric_list|group)\s*:", re.M)
#: What to run instead, said when task definitions are read as if they were logs.
RUN_HINT = "run lm-eval with --log_samples --output_path DIR and load DIR"


def task_definition(text: str) -> str | None:
    """The task (or group) an lm-eval task definition YAML names, ``None`` for any other
    text: a top-level ``task:`` key beside one of the keys a ``TaskConfig`` reads
    (``dataset_path``, ``doc_to_text``, ``output_type``, ``include``, ``group`` ...). Read
    line by line, not parsed: lm-eval's YAMLs hold tags (``!function utils.process``) that
    a plain YAML reader refuses.

    Example
    -------
    >>> from scorio_core.io.lm_eval import task_definition
    >>> task_definition("task: arith\\ndataset_path: json\\ndoc_to_text: '{{q}}'\\n")
    'arith'
    >>> task_definition("model: gpt\\ntemperature: 0.7\\n") is None
    True
    """
    found = dict((k, v) for k, v in _TASK_NAME.findall(text))
    if "task" not in found or not _TASK_KEYS.search(text):
        return None
    name = (found["task"] or found.get("group") or "").strip("'\"")
    return name or "(unnamed)"


def not_logs(where: str, what: str, definitions: list[str], tasks: list[str],
             folder: str | None = None) -> str:
    """The refusal of lm-eval task definitions read as logs: ``where`` (a folder or file
    label), ``what`` it is (``"this folder holds lm-eval task definitions"``), the
    definition files and the tasks they define; ``folder``: theirs on disk (lm-eval's
    ``--include_path``), if they are on disk."""
    shown = ", ".join(PurePosixPath(d).name for d in definitions[:6]) + (
        ", ..." if len(definitions) > 6 else "")
    names = ",".join(t for t in dict.fromkeys(tasks) if t != "(unnamed)") or "TASK"
    folder = folder or "TASKS_DIR"  # not on disk (an archive, uploads): the user's copy
    return (
        f"{where}: {what} ({shown}), not logs; {RUN_HINT} (e.g. lm_eval --model hf "
        f"--model_args pretrained=MODEL --include_path {folder} --tasks {names} "
        "--log_samples --output_path DIR)"
    )


def task_of(label: str) -> set[str]:
    """The task a ``samples_<task>_<date>.jsonl`` file is named for (none for other names)."""
    m = SAMPLES_NAME.match(label.replace("\\", "/").rsplit("/", 1)[-1])
    return {m["task"]} if m else set()


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


def _results_file(src: _Src, siblings: Mapping[str, _Src], limit: int) -> _Src | None:
    """The ``results_<date>.json`` of this samples file: among the files read beside it,
    else (a samples file named alone) in its directory on disk."""
    name = PurePosixPath(src.label.replace("\\", "/")).name
    m = SAMPLES_NAME.match(name)
    found = {PurePosixPath(k.replace("\\", "/")).name: v for k, v in siblings.items()}
    results = {k: v for k, v in found.items() if RESULTS_NAME.match(k)}
    if not results and src.path is not None:
        results = {
            p.name: _resolve(p, None, limit)
            for p in src.path.parent.glob("results_*.json") if p.is_file()
        }  # fmt: skip
    if not results:
        return None
    if m and f"results_{m['date']}.json" in results:
        return results[f"results_{m['date']}.json"]
    return results[sorted(results)[-1]]


def _run_info(res: _Src | None) -> dict | None:
    if res is None:
        return None
    try:
        obj = json.loads(res.read())
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ValidationError(f"{res.label}: not JSON ({exc})") from None
    return obj if isinstance(obj, dict) else None


def _model(src: _Src, res: _Src | None, info: dict | None, notes: list[str]) -> str:
    model = model_from_results(info)
    if model:
        return model
    if res is not None:
        notes.append(f"{PurePosixPath(res.label).name} names no model; used the directory name")
    else:
        notes.append("no results_<date>.json beside it; model name from the directory name")
    parent = PurePosixPath(src.label.replace("\\", "/")).parent.name
    if not parent and src.path is not None:
        parent = src.path.resolve().parent.name
    if not parent or parent.endswith(".zip"):
        raise ValidationError(
            f"{src.label}: cannot tell the model: no results_<date>.json next to it (lm-eval "
            "writes one in the same directory) and no directory name; load the directory"
        )
    return parent


def exact_match(resp: Any, target: Any, options: Mapping[str, Any]) -> bool:
    """lm-eval's ``exact_match`` of one response (``exact_match_hf_evaluate``): the
    ``regexes_to_ignore`` removed, then case, punctuation and digits dropped when the
    task says so; no other normalisation (not even white space)."""
    p, t = str(resp), str(target)
    for rx in options.get("regexes_to_ignore") or ():
        p, t = re.sub(rx, "", p), re.sub(rx, "", t)
    if options.get("ignore_case"):
        p, t = p.lower(), t.lower()
    for key, chars in (("ignore_punctuation", string.punctuation),
                       ("ignore_numbers", string.digits)):  # fmt: skip
        if options.get(key):
            table = str.maketrans("", "", chars)
            p, t = p.translate(table), t.translate(table)
    return p == t


def _metric_options(config: Mapping[str, Any], metric: str) -> dict[str, Any] | None:
    for m in config.get("metric_list") or ():
        if isinstance(m, dict) and m.get("metric") == metric:
            return {k: m[k] for k in _EXACT_OPTIONS if k in m}
    return None


def _filter_text(config: Mapping[str, Any], filt: str, repeats: int) -> str:
    """What the filter does with the ``repeats`` responses, for the import report."""
    steps = []
    for f in config.get("filter_list") or ():
        if isinstance(f, dict) and f.get("name") == filt:
            steps = [str(s.get("function")) for s in f.get("filter") or () if isinstance(s, dict)]
    if filt == "none" and not steps:
        steps = ["take_first"]  # lm-eval's default for repeats
    if "majority_vote" in steps:
        how = "reduces them to the majority answer"
    elif steps and steps[-1] in ("take_first", "take_first_k"):
        how = "keeps the first"
    else:
        how = "reduces them"
    return (
        f"repeats={repeats}: lm-eval samples {repeats} responses per document and filter "
        f"{filt!r} ({' -> '.join(steps) or 'as configured'}) {how}; lm-eval scored that one "
        "answer, which is the document's one trial here (the other responses are not scored)"
    )


def read_samples(
    src: _Src,
    scorer: str | None,
    siblings: Mapping[str, _Src],
    limit: int,
    benchmark: str | None = None,
    texts: bool = True,
) -> list[LogPart]:
    """One ``samples_<task>_<date>.jsonl`` file: one :class:`LogPart` per filter read.

    ``scorer`` names a metric (``"exact_match"``) or a filter and metric
    (``"maj@64/exact_match"``); default: every filter's first metric, one benchmark per
    filter (``TASK/FILTER``) when there are several.
    """
    fname = PurePosixPath(src.label.replace("\\", "/")).name
    m = SAMPLES_NAME.match(fname)
    task = m["task"] if m else re.sub(r"^samples_", "", fname.rsplit(".", 1)[0])
    if benchmark is not None and benchmark != task and not benchmark.startswith(task + "/"):
        groups = groups_of(_run_info(_results_file(src, siblings, limit)), task)
        if benchmark not in groups:  # another task: not read
            return [LogPart(src.label, "lm_eval", "", task, groups=groups)]
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
    res = _results_file(src, siblings, limit)
    info = _run_info(res)
    model = _model(src, res, info, notes)
    config = ((info or {}).get("configs") or {}).get(task) or {}
    aggregated = ((info or {}).get("results") or {}).get(task) or {}
    filters = list(dict.fromkeys(str(r.get("filter", "none")) for _, r in rows))
    metrics = list(
        dict.fromkeys(k for _, r in rows for k in (r.get("metrics") or []))
    ) or [k for k in rows[0][1] if k not in _RESERVED]
    if metrics == ["bypass"]:
        shown = aggregated.get("bypass,none", rows[0][1].get("bypass"))
        raise ValidationError(
            f"{src.label}: no metric: cannot score. lm-eval wrote this log with "
            f"--predict_only (its only metric is 'bypass', value {shown!r}): it holds the "
            "model's responses but no scores. Re-run lm_eval without --predict_only"
        )
    chosen = filters
    metric = scorer
    if scorer is not None and "/" in scorer and scorer.split("/", 1)[0] in filters:
        filt, metric = scorer.split("/", 1)
        chosen = [filt]
    elif scorer is not None and scorer in filters:
        chosen, metric = [scorer], None
    probe = LogPart(src.label, "lm_eval", model, task)
    metric = choose_scorer(_outcome_metrics(src.label, task, metrics, metric, config,
                                            aggregated, probe), metric, probe, "metric")
    repeats = config.get("repeats")
    n_samples = ((info or {}).get("n-samples") or {}).get(task) or {}
    parts = []
    for filt in chosen:
        bench = task if len(chosen) == 1 else f"{task}/{filt}"
        part = LogPart(src.label, "lm_eval", model, bench)
        part.notes.extend(notes + probe.notes)
        if len(chosen) > 1 and not (benchmark or "").startswith(task + "/"):  # not read alone
            part.notes.append(
                f"{len(filters)} filters ({', '.join(filters)}): one benchmark per filter "
                f"({task}/FILTER); read one alone with benchmark={f'{task}/{chosen[0]}'!r}"
            )
        part.scorer = metric if len(filters) == 1 else f"{filt}/{metric}"
        part.prompt = _prompt_settings(info, task)
        part.groups = groups_of(info, task)
        _rows_into(part, [(i, r) for i, r in rows if str(r.get("filter", "none")) == filt],
                   metric, config, texts)  # fmt: skip
        if isinstance(repeats, int) and repeats > 1 and part.trial_set() == [FIRST_REPEAT]:
            part.notes.append(_filter_text(config, filt, repeats))
        eff = n_samples.get("effective")
        docs = len(set(part.questions))
        if isinstance(eff, int) and n_samples.get("original", eff) != eff:
            part.notes.append(
                f"lm-eval evaluated {eff} of the task's {n_samples['original']} documents "
                "(n-samples; --limit)"
            )
        if isinstance(eff, int) and eff != docs:
            part.notes.append(
                f"results_<date>.json says {eff} documents were evaluated (n-samples); this "
                f"file holds {docs} under filter {filt!r}"
            )
        agg = aggregated.get(f"{metric},{filt}")
        if isinstance(agg, int | float) and math.isfinite(agg):
            part.harness = {
                "name": f"lm-eval {metric},{filt}", "value": float(agg),
                "meaning": "lm-eval's aggregated metric over the documents",
            }  # fmt: skip
        part.trials_from = "the metric values per document"
        parts.append(part)
    # the responses are the same under every filter: counted under one, said in every part
    said = _thinking_note(model, [(i, r) for i, r in rows
                                  if str(r.get("filter", "none")) == filters[0]],
                          _think_end_token(info))
    for part in parts if said else ():
        part.notes.append(said)
    return parts


#: lm-eval metrics whose value per document is no outcome but a log-likelihood that lm-eval
#: pools over the documents into one corpus value (``api/metrics.py``: ``perplexity`` of a
#: ``loglikelihood`` task, the three of a ``loglikelihood_rolling`` one): what the value is.
CORPUS_METRICS = {
    "perplexity": "the continuation's loglikelihood, pooled as exp(-mean)",
    "word_perplexity": "a (loglikelihood, words) pair, pooled per word",
    "byte_perplexity": "a (loglikelihood, bytes) pair, pooled per byte",
    "bits_per_byte": "a (loglikelihood, bytes) pair, pooled per byte",
}


def _outcome_metrics(label: str, task: str, metrics: list[str], asked: str | None,
                     config: Mapping[str, Any], aggregated: Mapping[str, Any],
                     part: LogPart) -> list[str]:
    """The metrics of a samples file that score each document (all but
    :data:`CORPUS_METRICS`); refused when the one ``asked`` or every one is a corpus
    perplexity -- a ``loglikelihood_rolling`` task scores no document right or wrong."""
    corpus = [m for m in metrics if m in CORPUS_METRICS]
    kept = [m for m in metrics if m not in CORPUS_METRICS]
    what = "; ".join(f"{m}: {CORPUS_METRICS[m]}" for m in corpus)
    pooled = ", ".join(f"{m} {aggregated[f'{m},none']:.4g}" for m in corpus
                       if isinstance(aggregated.get(f"{m},none"), int | float))
    said = (f"each document's value is a loglikelihood, not an outcome ({what}); lm-eval "
            f"reports one value over all documents{f' ({pooled})' if pooled else ''}")
    if asked in CORPUS_METRICS or (corpus and not kept):
        kind = config.get("output_type") or "log-likelihood"
        name = f"metric {asked!r}" if asked in CORPUS_METRICS else "no per-document metric"
        raise ValidationError(
            f"{label}: {name}: task {task!r} ({kind}) scores no document right or wrong: "
            f"{said}, so there is nothing per document to compare models on"
            + ("; read a per-document metric instead, e.g. " + mention("scorer", kept[0])
               + (f" (or {', '.join(map(repr, kept[1:]))})" if kept[1:] else "") if kept else
               "; load a task with a per-document metric (acc, exact_match)")
        )
    if corpus:
        part.notes.append(f"{', '.join(corpus)} not read as outcomes: {said}")
    return kept


def groups_of(info: Mapping[str, Any] | None, task: str) -> tuple[str, ...]:
    """The lm-eval groups a task belongs to (``lm_eval --tasks mmlu`` runs the group's
    subtasks and writes ``group_subtasks`` into ``results_<date>.json``), outermost last;
    a group of groups counts for every task below it."""
    subtasks = (info or {}).get("group_subtasks") if isinstance(info, Mapping) else None
    if not isinstance(subtasks, Mapping):
        return ()
    parent = {str(t): str(g) for g, ts in subtasks.items() if isinstance(ts, list) for t in ts}
    out: list[str] = []
    while task in parent and parent[task] not in out and len(out) < 32:
        task = parent[task]
        out.append(task)
    return tuple(out)


def _prompt_settings(info: Mapping[str, Any] | None, task: str) -> dict[str, str]:
    """How lm-eval prompted the task (``n-shot``, chat template, system instruction,
    few-shot as multi-turn), from ``results_<date>.json``; absent settings are left out."""
    if not isinstance(info, Mapping):
        return {}
    out = {}
    shots = (info.get("n-shot") or {}).get(task) if isinstance(info.get("n-shot"), dict) else None
    if isinstance(shots, int) and not isinstance(shots, bool):
        out["n-shot"] = str(shots)
    for key, name in (("chat_template_sha", "chat template"),
                      ("system_instruction_sha", "system instruction")):
        if key in info:
            sha = info.get(key)
            out[name] = f"sha {str(sha)[:8]}" if sha else "none"
    if "fewshot_as_multiturn" in info:
        out["few-shot as multi-turn"] = "yes" if info.get("fewshot_as_multiturn") else "no"
    return out


def _prompt(r: dict) -> Any:
    """The prompt lm-eval sent: ``arguments`` (``gen_args_0.arg_0`` for generation, the
    context of the first choice for log-likelihood tasks), else the document."""
    args = r.get("arguments")
    first = next(iter(args.values()), None) if isinstance(args, dict) and args else (
        args[0] if isinstance(args, list) and args else None)
    if isinstance(first, dict) and "arg_0" in first:
        return first["arg_0"]
    if isinstance(first, list) and first:
        return first[0]
    return r.get("doc")


def _flat(v: Any) -> list:
    """``resps``/``filtered_resps`` of one request as a list of responses (one per repeat)."""
    if isinstance(v, list) and len(v) == 1 and isinstance(v[0], list):
        return v[0]
    return v if isinstance(v, list) else [v]


#: The thinking block of a reasoning model's response (Qwen3, DeepSeek-R1, ...): lm-eval
#: drops the text up to the end marker only when the run names it (``think_end_token``).
THINK_OPEN, THINK_END = "<think>", "</think>"

#: The thinking markers of reasoning models' raw output, ``(open, end)``: ``<think>``
#: (Qwen3, DeepSeek-R1, QwQ, Phi-4-reasoning, ...), ``<thinking>``, ``<reasoning>``,
#: Kimi's ``◁think▷``, the ``<|begin_of_thought|>`` of OpenThoughts / Bespoke-Stratos and
#: Seed-OSS's ``<seed:think>``. A run that sets ``think_end_token`` has its responses cut
#: by lm-eval already; without it, the model's own markers stay in the text.
THINK_MARKERS: tuple[tuple[str, str], ...] = (
    (THINK_OPEN, THINK_END), ("<thinking>", "</thinking>"), ("<reasoning>", "</reasoning>"),
    ("\u25c1think\u25b7", "\u25c1/think\u25b7"),
    ("<|begin_of_thought|>", "<|end_of_thought|>"), ("<seed:think>", "</seed:think>"),
)


def thinking_markers(resp: Any) -> tuple[str, str] | None:
    """The :data:`THINK_MARKERS` pair ``resp`` uses: the first whose end marker it holds,
    else the first whose opening marker starts it (a block never closed); ``None``."""
    if not isinstance(resp, str):
        return None
    head = resp.lstrip()
    return (next((m for m in THINK_MARKERS if m[1] in resp), None)
            or next((m for m in THINK_MARKERS if head.startswith(m[0])), None))


def thinking(resp: Any) -> tuple[str, str] | None:
    """A response's thinking and the rest of it, or ``None`` when it has no thinking block.

    Split where lm-eval splits a response with ``think_end_token`` set to the block's end
    marker (``lm_eval.models.utils.postprocess_generated_text``: the answer is the text after
    the *last* end marker, its leading white space dropped), so the rest is the answer
    lm-eval would have scored with the token set. The markers are the model's own
    (:func:`thinking_markers`: ``<think> ... </think>`` and the other pairs of
    :data:`THINK_MARKERS`). The thinking is the text before the end marker, without the
    opening marker (absent when the chat template opened the block). A response that opens
    a block and never closes it (cut by ``max_gen_toks`` or a stop sequence: without
    ``think_end_token`` lm-eval applies the task's ``until`` to the thinking too) is all
    thinking, and its rest is empty. For display only: the scores are lm-eval's.

    Examples
    --------
    >>> from scorio_core.io.lm_eval import thinking
    >>> thinking("<think>\\n6 x 7 = 42\\n</think>\\n\\nThe answer is 42")
    ('6 x 7 = 42', 'The answer is 42')
    >>> thinking("6 x 7 = 42</think>42")  # the chat template opened the block
    ('6 x 7 = 42', '42')
    >>> thinking("<think>\\nStill counting: 6, 12, 18")  # cut before the block ended
    ('Still counting: 6, 12, 18', '')
    >>> thinking("\u25c1think\u25b76 x 7\u25c1/think\u25b742")  # Kimi's markers
    ('6 x 7', '42')
    >>> thinking("42") is None
    True
    """
    markers = thinking_markers(resp)
    if markers is None:
        return None
    opener, closer = markers
    before, end, after = resp.rpartition(closer)
    opened = resp.lstrip().startswith(opener)
    if not end:  # never closed: all thinking
        before, after = resp, ""
    if opened:
        before = before.lstrip()[len(opener):]
    return before.strip(), after.lstrip()


def _split(resp: Any) -> tuple[str | None, Any]:
    """``(reasoning, output)`` of one response: :func:`thinking`'s, no reasoning without a
    block (an empty block, ``<think></think>``: none either)."""
    split = thinking(resp)
    return (split[0] or None, split[1]) if split else (None, resp)


def _texts(r: dict, n: int, config: Mapping[str, Any] | None = None,
           metric: str | None = None) -> list[dict[str, Any]]:
    """The text fields of a document's ``n`` trials: prompt, target, the response and the
    filtered answer of each trial (a one-trial document: every repeat's response, each
    labelled ``[repeat k]``, k counted from :data:`FIRST_REPEAT`). A response's thinking
    block is its ``reasoning``, the rest its ``output`` (:func:`thinking`); the answer is
    the filtered response lm-eval scored, as it is. A log-likelihood document (a
    multiple-choice task, ``config``'s ``output_type``) has no response: its texts are
    :func:`choice_texts`' (``metric``: the one read), or a single request's
    :func:`loglikelihood_texts`'."""
    base = {"input": _prompt(r), "target": r.get("target"),
            "metadata": r.get("doc") if isinstance(r.get("doc"), dict) else None}
    if (chosen := choice_texts(r, config or {}, metric)) is not None:
        return [base | chosen] * n
    if (scored := loglikelihood_texts(r, config or {})) is not None:
        return [base | scored] * n
    resps, filt = _flat(r.get("resps")), _flat(r.get("filtered_resps"))
    split = [_split(x) for x in resps]
    if n == 1:
        if len(split) == 1:
            reasoning, out = split[0]
        else:
            def joined(texts: list) -> str | None:
                return "\n".join(
                    f"[repeat {FIRST_REPEAT + k}] {x if isinstance(x, str) else json.dumps(x)}"
                    for k, x in enumerate(texts) if x is not None) or None

            reasoning, out = joined([x for x, _ in split]), joined([y for _, y in split])
        return [base | {"reasoning": reasoning, "output": out,
                        "answer": filt[0] if filt else None}]
    return [base | {"reasoning": split[t][0] if t < len(split) else None,
                    "output": split[t][1] if t < len(split) else None,
                    "answer": filt[t] if t < len(filt) else None} for t in range(n)]


def _loglikelihood(resp: Any) -> tuple[str, float] | None:
    """One log-likelihood request's filtered response, ``[loglikelihood, is_greedy]`` as
    lm-eval writes it (both as text): ``(the loglikelihood as written, its value)``;
    ``None`` for anything else (a generated response)."""
    if not (isinstance(resp, list | tuple) and len(resp) == 2):
        return None
    if str(resp[1]).strip().lower() not in ("true", "false"):
        return None
    try:
        value = float(resp[0])
    except (TypeError, ValueError):
        return None
    return (str(resp[0]), value) if not math.isnan(value) else None


def _argmax(values: list[float]) -> int:
    """The first index of the largest value, as ``numpy.argmax`` (lm-eval's pick) gives it."""
    return max(range(len(values)), key=lambda i: (values[i], -i))


#: How lm-eval picks the option each multiple-choice metric scores
#: (``ConfigurableTask.process_results``): the largest log-likelihood (``acc`` and the
#: others), per character of the option (``acc_norm``), per UTF-8 byte (``acc_bytes``),
#: less the option's log-likelihood without the question (``acc_mutual_info``).
PICKED_BY = {
    "acc": "highest loglikelihood",
    "acc_norm": "highest loglikelihood per character",
    "acc_bytes": "highest loglikelihood per byte",
    "acc_mutual_info": "highest loglikelihood less the option's own without the question",
}


def choice_texts(r: dict, config: Mapping[str, Any], metric: str | None = None
                 ) -> dict[str, Any] | None:
    """The texts of a multiple-choice document (lm-eval ``output_type: multiple_choice``):
    ``None`` for any other document.

    lm-eval writes one request per option -- ``arguments.gen_args_<i>`` = ``{"arg_0": the
    context, "arg_1": the target delimiter + the option}`` -- and its ``filtered_resps``
    hold each option's ``[loglikelihood, is_greedy]``; ``target`` is ``str()`` of the gold
    (the option's index, as ``doc_to_target`` gives it, or the option's text; a list for
    several). No response is generated: the model's answer is the option lm-eval's metric
    picks (:data:`PICKED_BY`; ``metric`` read: ``acc_norm`` divides by the option's length,
    as lm-eval does; any other, the highest loglikelihood, ``acc``'s pick). Returned:

    * ``answer``: the option picked, its text (without the target delimiter);
    * ``target``: the gold option's text (several joined by `` | ``), where the log's
      ``target`` names an option -- as written otherwise;
    * ``choices``: every option, numbered from 0 as lm-eval numbers them (the ``target``
      index of the log), with its loglikelihood as written and which is the target and
      which was picked -- one field, not one trial per option;
    * ``output``: none (nothing was generated).

    Example
    -------
    >>> from scorio_core.io.lm_eval import choice_texts
    >>> r = {"target": "1", "acc": 0.0,
    ...      "arguments": {f"gen_args_{i}": {"arg_0": "2 + 2 =", "arg_1": f" {c}"}
    ...                    for i, c in enumerate(["3", "4", "5"])},
    ...      "filtered_resps": [["-1.5", "False"], ["-0.9", "False"], ["-0.2", "True"]]}
    >>> t = choice_texts(r, {"output_type": "multiple_choice"}, "acc")
    >>> t["answer"], t["target"]
    ('5', '4')
    >>> print(t["choices"])
    choice 0: 3 (loglikelihood -1.5)
    choice 1: 4 (loglikelihood -0.9) <- target
    choice 2: 5 (loglikelihood -0.2) <- picked (highest loglikelihood)
    """
    kind = config.get("output_type") if isinstance(config, Mapping) else None
    if kind not in (None, "multiple_choice"):
        return None
    args = r.get("arguments")
    reqs = list(args.values()) if isinstance(args, dict) else args
    if not isinstance(reqs, list) or not reqs:
        return None
    ctx, cont = [], []
    for q in reqs:
        pair = ([q.get("arg_0"), q.get("arg_1")] if isinstance(q, dict)
                else list(q) if isinstance(q, list | tuple) else [])
        if len(pair) != 2 or not all(isinstance(x, str) for x in pair):
            return None
        ctx.append(pair[0])
        cont.append(pair[1])
    resps = [_loglikelihood(x) for x in _flat_choices(r.get("filtered_resps"))]
    if len(resps) != len(reqs) or None in resps or (kind is None and len(reqs) < 2):
        return None
    lls = [x[1] for x in resps]
    k = len(reqs)
    half = k // 2  # acc_mutual_info: the options again, each without the context
    mutual = (k % 2 == 0 and all(c == "" for c in ctx[half:]) and cont[half:] == cont[:half]
              and any(c for c in ctx[:half]))
    if mutual:
        k = half
    if len(set(cont[:k])) == 1 and len(set(ctx[:k])) > 1:
        options = ctx[:k]  # multiple inputs (winogrande): the options are the contexts
    else:
        delim = str(config.get("target_delimiter", " ")) if isinstance(config, Mapping) else " "
        options = cont[:k]
        if delim and all(c.startswith(delim) for c in options):
            options = [c[len(delim):] for c in options]
    if metric == "acc_norm":
        score = [ll / max(len(o), 1) for ll, o in zip(lls, options, strict=False)]
    elif metric == "acc_bytes":
        score = [ll / max(len(o.encode("utf-8")), 1) for ll, o in zip(lls, options, strict=False)]
    elif metric == "acc_mutual_info" and mutual:
        score = [c - u for c, u in zip(lls[:k], lls[k:], strict=True)]
    else:
        score = lls[:k]
    picked = _argmax(score)
    gold = _gold(r, options, picked)
    how = PICKED_BY.get(metric if metric in PICKED_BY and (metric != "acc_mutual_info"
                                                          or mutual) else "acc")
    lines = []
    for i, (o, x) in enumerate(zip(options, resps, strict=False)):
        marks = (["target"] if i in gold else []) + ([f"picked ({how})"] if i == picked else [])
        lines.append(f"choice {i}: {o} (loglikelihood {x[0]})"
                     + (f" <- {', '.join(marks)}" if marks else ""))
    target = " | ".join(options[i] for i in gold) if gold else r.get("target")
    return {"target": target, "output": None, "reasoning": None,
            "answer": options[picked], "choices": "\n".join(lines)}


def _one_request(r: dict) -> list | None:
    """The arguments of a document's one request (``arguments.gen_args_0``) as a list of
    its strings (``[context, continuation]`` or ``[text]``); ``None`` for several requests
    or any other argument (a generation's keyword arguments)."""
    args = r.get("arguments")
    reqs = list(args.values()) if isinstance(args, dict) else args
    if not isinstance(reqs, list) or len(reqs) != 1:
        return None
    q = reqs[0]
    got = ([q[k] for k in sorted(q) if k.startswith("arg_")] if isinstance(q, dict)
           else list(q) if isinstance(q, list | tuple) else [])
    return got if got and all(isinstance(x, str) for x in got) else None


def loglikelihood_texts(r: dict, config: Mapping[str, Any]) -> dict[str, Any] | None:
    """The texts of a single-request log-likelihood document (lm-eval ``output_type:
    loglikelihood``, lambada-style, or ``loglikelihood_rolling``, perplexity): ``None`` for
    any other document.

    A ``loglikelihood`` document is one request, ``arguments.gen_args_0`` = ``{"arg_0": the
    context, "arg_1": the continuation}`` (``doc_to_target``, as lm-eval scores it: no
    delimiter is added), and its ``filtered_resps`` hold ``[loglikelihood, is_greedy]``:
    lm-eval's ``acc`` for such a task is ``is_greedy`` -- whether the continuation is the
    one the model itself would write greedily -- and its ``perplexity`` the loglikelihood.
    Nothing is generated. Returned:

    * ``target``: the continuation scored, as lm-eval scored it;
    * ``answer``: whether it is the model's greedy continuation, with its loglikelihood
      (``target is greedy: yes (loglikelihood -2.6684)``);
    * ``output``: none.

    A ``loglikelihood_rolling`` document is one text (``arg_0``) scored whole, its
    ``filtered_resps`` its loglikelihood alone: the ``input`` is that text, the ``answer``
    its loglikelihood, there is no ``target`` (the text is all of it) and no greedy flag.

    Example
    -------
    >>> from scorio_core.io.lm_eval import loglikelihood_texts
    >>> r = {"target": " Paris", "acc": 1, "filtered_resps": [["-2.6684", "True"]],
    ...      "arguments": {"gen_args_0": {"arg_0": "Q: Capital of France?\\nA:",
    ...                                   "arg_1": " Paris"}}}
    >>> t = loglikelihood_texts(r, {"output_type": "loglikelihood"})
    >>> t["target"], t["answer"]
    (' Paris', 'target is greedy: yes (loglikelihood -2.6684)')
    """
    kind = config.get("output_type") if isinstance(config, Mapping) else None
    if kind not in (None, "loglikelihood", "loglikelihood_rolling"):
        return None
    req = _one_request(r)
    resps = _flat_choices(r.get("filtered_resps"))
    if req is None or len(resps) != 1:
        return None
    if len(req) == 2 and kind != "loglikelihood_rolling":
        got = _loglikelihood(resps[0])
        if got is None:
            return None
        greedy = str(resps[0][1]).strip().lower() == "true"
        return {"target": req[1], "output": None, "reasoning": None,
                "answer": f"target is greedy: {'yes' if greedy else 'no'} (loglikelihood {got[0]})"}
    if len(req) == 1 and kind != "loglikelihood":
        ll = resps[0][0] if isinstance(resps[0], list) and len(resps[0]) == 1 else resps[0]
        try:
            value = float(ll)
        except (TypeError, ValueError):
            return None
        if not math.isfinite(value):
            return None
        return {"input": req[0], "target": None, "output": None, "reasoning": None,
                "answer": f"loglikelihood {ll} (of the whole text, scored rolling)"}
    return None


def _flat_choices(v: Any) -> list:
    """``filtered_resps`` of a multiple-choice document: one ``[loglikelihood, is_greedy]``
    per option (a repeats list around one, ``[[ll, g]]``, unwrapped)."""
    if not isinstance(v, list):
        return []
    return [x[0] if isinstance(x, list) and len(x) == 1 and isinstance(x[0], list) else x
            for x in v]


def _gold(r: dict, options: list[str], picked: int) -> list[int]:
    """The gold options' indices from the log's ``target`` (``str()`` of lm-eval's
    ``doc_to_target``: an index -- digits, as lm-eval reads a template's digits with
    ``doc_to_choice`` set --, an option's text, or a list of indices); where both an index
    and a text fit, the one that agrees with the document's own ``acc`` (``acc`` is 1
    exactly when the picked option is the gold). Empty when ``target`` names no option."""
    import ast

    t = r.get("target")
    t = "" if t is None else str(t).strip()
    fits: list[list[int]] = []
    if t.startswith("[") and t.endswith("]"):
        try:
            got = ast.literal_eval(t)
        except (SyntaxError, ValueError):
            got = None
        if isinstance(got, list) and got and all(isinstance(g, int) for g in got):
            fits.append([g for g in got if 0 <= g < len(options)])
    if t.isdigit() and int(t) < len(options):
        fits.append([int(t)])
    if t in options:
        fits.append([options.index(t)])
    acc = r.get("acc")
    if isinstance(acc, int | float) and not isinstance(acc, bool):
        agree = [f for f in fits if (picked in f) == (float(acc) == 1.0)]
        fits = agree or fits
    return fits[0] if fits else []


def _think_end_token(info: Mapping[str, Any] | None) -> str | None:
    """The ``think_end_token`` the run gave its model (``config.model_args`` of
    ``results_<date>.json``), if any."""
    args = ((info or {}).get("config") or {}).get("model_args")
    if isinstance(args, dict):
        return str(args["think_end_token"]) if args.get("think_end_token") else None
    for kv in args.split(",") if isinstance(args, str) else ():
        k, _, v = kv.partition("=")
        if k.strip() == "think_end_token" and v.strip():
            return v.strip()
    return None


def _thinking_note(model: str, rows: list[tuple[int, dict]], token: str | None) -> str | None:
    """What the import report says of ``model``'s responses that hold a thinking block
    (``rows``: one filter's; ``token``: the run's ``think_end_token``), else ``None``."""
    resps = [x for _, r in rows for x in _flat(r.get("resps"))]
    found = [(x, m) for x in resps if (m := thinking_markers(x)) is not None]
    if not found:
        return None
    used = [m for m in THINK_MARKERS if any(m == f for _, f in found)]
    cut = sum(m[1] not in x for x, m in found)
    run = (f"the run set think_end_token={token!r}, which lm-eval found in none of them" if token
           else "the run set no think_end_token")
    ends = " or ".join(end for _, end in used)
    return (
        f"model {model!r}: {len(found)} of its {len(resps)} responses hold its thinking "
        f"({'; '.join(f'{a} ... {b}' for a, b in used)}; {run}), which lm-eval scored with the "
        "response; the scores are lm-eval's, the texts show the thinking as the reasoning and "
        "the rest as the output"
        + (f"; {cut} end inside the thinking (no {ends}: cut by max_gen_toks or a stop "
           "sequence), with no output after it" if cut else "")
    )


def _candidates(r: dict) -> list:
    """A document's filtered responses (``[[r1, ..., rk]]`` when the filter keeps them all)."""
    cand = r.get("filtered_resps")
    if isinstance(cand, list) and len(cand) == 1 and isinstance(cand[0], list):
        cand = cand[0]
    return cand if isinstance(cand, list) else [cand]


def _per_response(rows: list[tuple[int, dict]], metric: str,
                  options: Mapping) -> list[list[bool]] | None:
    """Each row's match of each response when every document's number is lm-eval's exact
    match over its k > 1 filtered responses (``repeats`` without ``take_first``: the share
    that match), k the same for all and every share reproduced exactly; else ``None`` (the
    numbers stay one trial each)."""
    if metric != "exact_match" or not rows:
        return None
    out, ks = [], set()
    for _, r in rows:
        value, cand = r.get(metric), _candidates(r)
        if not isinstance(value, int | float) or isinstance(value, bool) or len(cand) < 2 \
                or "target" not in r:
            return None
        hits = [exact_match(c, r["target"], options or {}) for c in cand]
        if abs(sum(hits) / len(hits) - float(value)) > 1e-9:
            return None
        out.append(hits)
        ks.add(len(hits))
    return out if len(ks) == 1 else None


#: lm-eval writes no repeat ids: a document's repeats are numbered by their place in its
#: ``resps``, counted from 1 (the ``[repeat k]`` of a one-trial document's output, the
#: ``trial`` of the Pair view) -- the first trial of every document is 1.
FIRST_REPEAT = 1


def _rows_into(part: LogPart, rows: list[tuple[int, dict]], metric: str, config: Mapping,
               texts: bool = True) -> None:
    options = _metric_options(config, metric)

    def text_of(r: dict, n: int) -> list[dict[str, Any]]:
        return _texts(r, n, config, metric)

    if (split := _per_response(rows, metric, options)) is not None:
        for (i, r), hits in zip(rows, split, strict=True):
            text = text_of(r, len(hits))
            for t, (hit, resp) in enumerate(zip(hits, _candidates(r), strict=True)):
                part.add(r["doc_id"], FIRST_REPEAT + t, hit, f"line {i} (doc_id {r['doc_id']})",
                         text=text[t] | {"answer": resp} if text[t] else None)
        k = len(split[0])
        part.notes.append(
            f"each document's {metric!r} is lm-eval's share of its {k} filtered responses "
            "that match (repeats kept by the filter): each response is one trial here, "
            "matched with the task's options, and their mean equals lm-eval's value on "
            "every document"
        )
        return
    rescored, how = 0, ""
    for i, r in rows:
        where = f"line {i} (doc_id {r['doc_id']})"
        value = r.get(metric)
        if isinstance(value, list):  # one value per repeat
            text = text_of(r, len(value))
            for t, v in enumerate(value):
                part.add(r["doc_id"], FIRST_REPEAT + t, v, where, text=text[t])
        elif value is not None:
            part.add(r["doc_id"], FIRST_REPEAT, value, where, text=text_of(r, 1)[0])
        elif metric == "exact_match" and "target" in r and "filtered_resps" in r:
            cand = _candidates(r)
            text = text_of(r, len(cand))
            for t, resp in enumerate(cand):
                part.add(r["doc_id"], FIRST_REPEAT + t,
                         exact_match(resp, r["target"], options or {}), where,
                         text=text[t] | {"answer": resp} if text[t] else None)
            rescored += 1
            how = "with the task's options " + (
                json.dumps(options) if options else "(none found: plain string equality)"
            )
        else:
            part.add(r["doc_id"], FIRST_REPEAT, None, where, f"no value for metric {metric!r}",
                     text_of(r, 1)[0])
    if rescored:
        part.notes.append(
            f"{rescored} documents have no {metric!r} value: their filtered responses were "
            f"re-scored here by exact match {how} (not lm-eval's own value)"
        )
        part.scorer = f"{part.scorer} (re-scored)"
