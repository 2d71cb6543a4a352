"""Evaluation-harness logs -> long records -> the shared assembly (private).

Each log reader (:mod:`.inspect`, :mod:`.lm_eval`, :mod:`.openai_evals`, :mod:`.helm`)
returns one :class:`LogPart` per file: one model on one benchmark, with one record
per (question, trial) holding the harness's raw score value (or why it is missing).
:func:`assemble_logs` maps the raw values of *all* files to one set of categories,
checks what only logs can get wrong (two files for the same model and task, trials
that differ between models, errored samples) and hands a long table to
:func:`._assemble._from_frame`, the assembly and missing-cell policy every loader uses.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
import sys
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import ValidationError, checked_keywords, said_of
from ..formatting import count_text, noun_text
from ..outcomes import GROUP, POOLED, Outcomes, check_name
from ..samples import SampleWriter, _ordered, log_rows
from ._assemble import (
    PartsDifferError,
    _from_frame,
    grade_levels,
    graded,
    missing_advice,
    non_numbers,
)
from ._base import MAX_ROWS, MissingCellsError, _Src
from .options import ROLE_NAMES, LoadOptions, mention

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl
else:  # polars loads with the first table read, not with `import scorio_core.io`
    pd = lazy_module("pandas")
    pl = lazy_module("polars")

_SHOW = 5
#: Inspect AI's score letters, in category order (0 = no answer), with default weights.
LETTERS = {"N": 0.0, "I": 0.0, "P": 0.5, "C": 1.0}
LETTER_NAMES = {"N": "N (no answer)", "I": "I (incorrect)", "P": "P (partial)", "C": "C (correct)"}
_TRUE = ("true", "yes", "correct")
_FALSE = ("false", "no", "incorrect")
_ATTR_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")  # the question-attribute name rule


@dataclass
class LogPart:
    """One log file: one model on one benchmark, one record per (question, trial)."""

    file: str  # label shown in messages
    format: str  # "inspect", "lm_eval", "openai_evals", "helm"
    model: str
    benchmark: str
    scorer: str | None = None
    questions: list[str] = field(default_factory=list)
    trials: list[int] = field(default_factory=list)
    values: list[Any] = field(default_factory=list)  # raw score value; None when missing
    where: list[str] = field(default_factory=list)  # member or line of each record
    errors: list[str | None] = field(default_factory=list)  # why a record has no value
    declared_trials: list[int] | None = None  # e.g. Inspect epochs 1..eval.config.epochs
    trials_from: str = ""  # where the trial count comes from, for messages
    notes: list[str] = field(default_factory=list)
    #: the notes of :attr:`notes` that say one thing of the whole load (the provider
    #: prefixes taken off, a scale inferred for every log), given by :meth:`note_load`:
    #: said once in the import report, where a file's own note names its file
    load_notes: set[str] = field(default_factory=set)
    original_model: str | None = None  # the log's own name when renamed
    #: the harness's own headline for this log: ``{"name", "value", "meaning"}`` (and
    #: ``"reducer"`` for Inspect), reported beside our mean of the same records
    harness: dict[str, Any] | None = None
    #: each record's text fields (``scorio_core.samples.TEXT_COLUMNS``; ``None``: no text),
    #: moved to a scratch Parquet file (:attr:`text_file`) as soon as the file is read
    texts: list[dict[str, Any] | None] = field(default_factory=list)
    text_file: list[str] | None = None  # its scratch files, one per :data:`SPILL_ROWS`
    #: each record's short scalar metadata (kept by :func:`spill_texts`)
    attrs: list[dict[str, str] | None] | None = None
    #: question id -> (digest of what the question is, a preview of its input): the same id
    #: must be the same question in every log of a benchmark (:func:`_check_same_questions`)
    idents: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: the task's arguments (Inspect ``eval.task_args``): runs of one task with other
    #: arguments are other benchmarks (:func:`_split_by_task_args`)
    task_args: dict[str, str] = field(default_factory=dict)
    #: ids the harness allows but a table, report or spreadsheet cannot show as they are
    #: (markup, a leading '=', control characters, over 200 characters): {shown: original}
    shown_ids: dict[str, str] = field(default_factory=dict)
    #: how the task was prompted where the harness records it (lm-eval: n-shot, chat
    #: template, system instruction); the same questions asked with other prompts load
    #: together, with a note (:func:`_note_other_prompts`)
    prompt: dict[str, str] = field(default_factory=dict)
    #: the harness's groups holding this task (lm-eval ``group_subtasks``): ``benchmark=``
    #: may name a group to read its tasks
    groups: tuple[str, ...] = ()
    #: the scale of the log's numeric scores when the log itself implies it (OpenAI evals:
    #: a modelgraded spec whose numeric choices are the scores), used when no
    #: ``score_range`` is given (:func:`_log_scale`); ``scale_why`` says how it was found,
    #: or, without a scale, why none could be (told when a score needs one)
    scale: tuple[float, float] | None = None
    scale_why: str = ""
    _ids: dict[str, str] = field(default_factory=dict, repr=False)  # id -> id used (cache)

    def add(self, question: Any, trial: int, value: Any, where: str, error: str | None = None,
            text: dict[str, Any] | None = None):
        q = str(question)
        question = self._ids.get(q) or self._ids.setdefault(q, shown_id(q, self.shown_ids))
        if text and question not in self.idents:
            self._identify(question, text)
        self.questions.append(question)
        self.trials.append(int(trial))
        self.values.append(value)
        self.where.append(where)
        self.errors.append(error)
        self.texts.append(text)

    def _identify(self, question: str, text: dict[str, Any]) -> None:
        # lm-eval: the document (its prompt carries the few-shot examples); else the input
        what = ("metadata" if self.format == "lm_eval" else "input", "target")
        parts = [text.get(k) for k in what]
        if all(p is None for p in parts):
            return
        # the text only, its start: a log's summaries drop images and cut long texts
        blob = " ".join(_plain_text(parts).split())[:_IDENT_CHARS]
        shown = " ".join(str(text.get("input") or parts[0] or "").split())
        self.idents[question] = (hashlib.sha256(blob.encode()).hexdigest()[:16],
                                 shown if len(shown) <= 60 else shown[:57] + "...")

    def note_load(self, note: str) -> None:
        """Add ``note``, said of the whole load rather than of this file alone (the same
        note on every part it concerns is then one statement, not one per file)."""
        self.notes.append(note)
        self.load_notes.add(note)

    def trial_set(self) -> list[int]:
        if self.declared_trials is not None:
            return self.declared_trials
        return sorted(set(self.trials))


def jsonl_records(src: _Src) -> Iterator[tuple[int, Any]]:
    """``(line number, parsed JSON)`` for every non-blank line of a JSONL log; a line
    that is not JSON is an error naming the file and the line."""
    for i, line in enumerate(src.read().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield i, json.loads(line)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise ValidationError(f"{src.label}: line {i} is not JSON ({exc})") from None


class UnknownScorerError(ValidationError):
    """A log (``file``) has no scorer/metric of the name asked for (``scorer=``); the other
    tasks of a folder may lack it too, so the loader does not advise reading one of them
    instead unless it loads."""

    def __init__(self, message: str, file: str = "") -> None:
        super().__init__(message)
        self.file = file


def choose_scorer(available: Sequence[str], scorer: str | None, part: LogPart, what: str) -> str:
    """The scorer/metric to read: ``scorer`` if given, else the first (noted when several)."""
    if not available:
        raise ValidationError(f"{part.file}: no {what} found; expected at least one")
    if scorer is None:
        if len(available) > 1:
            part.notes.append(  # the option as each surface names it (a Said)
                f"{len(available)} {what}s ({', '.join(available)}); used the first, "
                f"{available[0]!r} (choose another, e.g. " + mention("scorer", available[1])
                + ")"
            )
        return available[0]
    if scorer not in available:
        raise UnknownScorerError(
            f"{part.file}: no {what} {scorer!r}; this log has {', '.join(map(repr, available))}",
            part.file)
    return scorer


def _normal(v: Any, lo: float = 0.0, hi: float = 1.0) -> str | float | None:
    """A letter, a number in [lo, hi], or ``None`` if the value cannot be a category
    (booleans and true/false words are ``hi``/``lo``)."""
    if isinstance(v, bool):
        return hi if v else lo
    if isinstance(v, int | float):
        f = float(v)
        return f if math.isfinite(f) and lo <= f <= hi else None
    if isinstance(v, str):
        t = v.strip()
        if t in LETTERS:
            return t
        if t.lower() in _TRUE:
            return hi
        if t.lower() in _FALSE:
            return lo
        try:
            return _normal(float(t), lo, hi)
        except ValueError:
            return None
    return None


def _number(v: Any) -> float | None:
    """``v`` as a finite number (numeric strings too), else ``None``."""
    if isinstance(v, bool):
        return None
    try:
        f = float(v) if isinstance(v, int | float | str) else None
    except ValueError:
        return None
    return f if f is not None and math.isfinite(f) else None


def _unmappable(part: LogPart, i: int, v: Any, scale: tuple[float, float] | None) -> Exception:
    shown = repr(v) if len(repr(v)) <= 80 else repr(v)[:77] + "..."
    score = f"score {part.scorer!r}" if part.scorer else "the score"
    head = f"{part.file}: {part.where[i]}: {score} has the value {shown} ({type(v).__name__})"
    if isinstance(v, dict):
        return ValidationError(
            f"{head}: a dict of several scores; choose one of its keys "
            f"({', '.join(map(str, v))}), e.g. " + mention("scorer", str(next(iter(v), "")))
        )
    if _number(v) is not None:
        if scale is not None:
            return ValidationError(
                f"{head}, outside the score range [{scale[0]:g}, {scale[1]:g}] given with "
                "score_range; give the range the scorer really uses"
            )
        why = f" ({part.scale_why})" if part.scale_why else ""
        return ValidationError(
            f"{head}, outside [0, 1]: a numeric grade needs its scale, which the log does "
            f"not record{why} — give it, e.g. " + mention("score_range", (0, 10)) + " for a "
            "0-10 grade, so that each grade is weighted by where it lies on the scale (the "
            "bottom 0, the top 1); or, for whole-number categories 0..C, one weight per "
            "category with " + mention("weights")
        )
    return ValidationError(
        f"{head}, which cannot be mapped to an outcome category; expected C/I/P/N, a "
        "boolean or a number in [0, 1] (or in score_range)"
    )


def categorize(
    parts: Sequence[LogPart],
    score_range: tuple[float, float] | None = None,
    n_categories: int | None = None,
    opts: LoadOptions | None = None,
) -> tuple[list[np.ndarray], list[str] | None, list[float]]:
    """Map the raw values of all parts to one set of categories.

    Letters ``C``/``I``/``P``/``N`` become categories ordered N, I, P, C (those present,
    always I and C) with weights 0, 0, 0.5, 1; booleans and 0/1 count as I/C and 0.5 as P
    alongside letters. Without letters, numbers are graded by
    :func:`._assemble.grade_levels`, the rule long tables use too: numbers in [0, 1]
    become one category per distinct value (sorted) weighted by the value itself --
    binary when only 0 and 1 occur -- so the Bayes@N mean is the mean score. Numbers on
    another scale need it stated: ``score_range=(lo, hi)`` makes one category per
    distinct value (and the two ends) weighted ``(v - lo) / (hi - lo)``, named by the
    value; or, with
    ``n_categories`` (the number of weights the caller gave), whole numbers
    ``0..n_categories - 1`` are the categories themselves. Never guessed. Numbers are read
    as ``opts`` reads graded scores first (:func:`._assemble.graded`: ``correct_from``,
    ``round_grades``).

    Returns
    -------
    codes, category_names, weights
        ``codes[p][i]`` is the category of record ``i`` of part ``p`` (-1 where missing);
        ``category_names`` is ``None`` for binary outcomes (the default names).
    """
    lo, hi = score_range if score_range is not None else (0.0, 1.0)
    if score_range is None and n_categories is not None:
        whole = _whole_categories(parts, n_categories)
        if whole is not None:  # named by the score, so unused grades may be categories too
            return whole, [str(k) for k in range(n_categories)], []
    normal: list[list[str | float | None]] = []
    letters: set[str] = set()
    numbers: set[float] = set()
    first_fraction: tuple[LogPart, int] | None = None
    for part in parts:
        col = []
        for i, (v, err) in enumerate(zip(part.values, part.errors, strict=True)):
            if err is not None:
                col.append(None)
                continue
            n = _normal(v, lo, hi)
            if n is None:
                raise _unmappable(part, i, v, score_range)
            if isinstance(n, str):
                letters.add(n)
            else:
                numbers.add(n)
                if n not in (lo, hi) and first_fraction is None:
                    first_fraction = (part, i)
            col.append(n)
        normal.append(col)
    if letters and score_range is not None:
        raise ValidationError(
            f"{parts[0].file}: score_range={score_range} was given, but these logs hold the "
            "letter scores C/I/P/N, which have their own weights; drop score_range"
        )
    if letters:
        extra = numbers - {0.0, 0.5, 1.0}
        if extra:
            part, i = next(
                (p, i) for p in parts for i, v in enumerate(p.values)
                if p.errors[i] is None and _normal(v) in extra
            )
            raise ValidationError(
                f"{part.file}: {part.where[i]}: the number {_normal(part.values[i])} cannot be "
                "mixed with the letter scores C/I/P/N found in these logs (only 0, 0.5 and 1 "
                "map to I, P and C)"
            )
        as_letter = {0.0: "I", 0.5: "P", 1.0: "C"}
        used = letters | {as_letter[x] for x in numbers} | {"I", "C"}
        order = [k for k in LETTERS if k in used]
        index = {k: j for j, k in enumerate(order)}
        index.update({x: index[as_letter[x]] for x in as_letter if as_letter[x] in index})
        names = [LETTER_NAMES[k] for k in order] if len(order) > 2 else None  # binary: default
        weights = [LETTERS[k] for k in order]
    else:
        if opts is not None and numbers:  # correct_from / round_grades, before the levels
            read = dict(zip(numbers, graded(list(numbers), (lo, hi), opts).tolist(),
                            strict=True))
            numbers = set(read.values())
            normal = [[read.get(n, n) if isinstance(n, float) else n for n in col]
                      for col in normal]
        where, example = "the score", ""
        if first_fraction is not None:
            part, i = first_fraction
            where = f"{part.file}: {part.where[i]}: the score (across these logs)"
            example = repr(part.values[i])
        levels, names, weights = grade_levels(list(numbers), (lo, hi), where=where,
                                              example=example)
        index = {x: j for j, x in enumerate(levels)}
    codes = [
        np.array([-1 if n is None else index[n] for n in col], dtype=np.int64) for col in normal
    ]
    return codes, names, weights


def scored_means(parts: Sequence[LogPart],
                 score_range: tuple[float, float] | None = None) -> list[float | None]:
    """Each part's mean score as its log scores it (:func:`means_text`), over its scored
    records: a letter by its weight (C 1, P 0.5, I and N 0), a grade by its place on the
    scale, ``(v - lo) / (hi - lo)`` -- what :func:`categorize` weights them by when no
    option reads them otherwise (``correct_from``, ``round_grades``); ``None`` for a part
    without a scored record.

    Example
    -------
    >>> from dataclasses import replace
    >>> from scorio_core.io._logs import LogPart, scored_means
    >>> part = LogPart(file="a.eval", format="inspect", model="m", benchmark="t",
    ...                questions=["1", "2", "3"], trials=[0, 0, 0], values=["C", "P", 7],
    ...                errors=[None, None, "timeout"])
    >>> scored_means([part])
    [0.75]
    >>> part = replace(part, values=[7, 3, 10], errors=[None] * 3)
    >>> [round(m, 6) for m in scored_means([part], (0, 10))]
    [0.666667]
    """
    lo, hi = score_range if score_range is not None else (0.0, 1.0)
    out: list[float | None] = []
    for part in parts:
        scores = []
        for v, err in zip(part.values, part.errors, strict=True):
            n = _normal(v, lo, hi) if err is None else None
            if n is not None:
                scores.append(LETTERS[n] if isinstance(n, str) else (n - lo) / (hi - lo))
        out.append(float(np.mean(scores)) if scores else None)
    return out


def _whole_categories(parts: Sequence[LogPart], n: int) -> list[np.ndarray] | None:
    """Whole-number scores used as categories ``0..n-1`` when the caller gave ``n``
    weights and some score lies above 1 (``None`` when that does not apply)."""
    vals = [_number(v) for p in parts for v, e in zip(p.values, p.errors, strict=True)
            if e is None]  # fmt: skip
    if not vals or any(v is None for v in vals) or max(vals) <= 1:
        return None
    bad = next(((p, i, f) for p in parts for i, (v, e) in enumerate(
        zip(p.values, p.errors, strict=True)) if e is None and (
        (f := float(v)) != int(f) or not 0 <= f < n)), None)  # fmt: skip
    if bad is not None:  # the log that holds it, not the first one read
        part, i, f = bad
        raise ValidationError(
            f"{part.file}: {part.where[i]}: the scores are read as categories 0..{n - 1} (one "
            f"per weight given), but one is {f:g}; give one weight per category, or the scale "
            "with " + mention("score_range")
        )
    return [
        np.array([-1 if e is not None else int(float(v)) for v, e in
                  zip(p.values, p.errors, strict=True)], dtype=np.int64)  # fmt: skip
        for p in parts
    ]


def shown_id(q: str, seen: dict[str, str]) -> str:
    """``q`` as the question id the data use: itself when it is a safe name
    (:func:`~scorio_core.outcomes.check_name`), else a readable stand-in -- control and
    invisible characters as spaces, ``<>`` as ``‹›``, a leading formula character after
    ``id ``, cut to 120 characters -- ending in ``~`` and 6 hex digits of the original, which
    ``seen`` maps back to (logs cannot be renamed, so refusing them lost the run)."""
    try:
        return check_name(q, "question id")
    except ValidationError:
        pass
    s = "".join(" " if unicodedata.category(c) in _UNSHOWN else c for c in q)
    s = " ".join(s.split()).replace("<", "‹").replace(">", "›")
    if s.startswith(("=", "+", "@", "-")):
        s = "id " + s
    tag = hashlib.sha256(q.encode()).hexdigest()[:6]
    s = f"{s[:120]} ~{tag}" if s else f"id ~{tag}"
    seen[s] = q
    return s


_UNSHOWN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
#: Characters of a question's text that identify it (Inspect's summaries keep 5,120).
_IDENT_CHARS = 2000


def _plain_text(v: Any) -> str:
    """The words of an input or target: strings, and the text of chat messages and their
    content parts, in order (images, documents and other fields left out)."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, list | tuple):
        return " ".join(_plain_text(x) for x in v)
    if isinstance(v, dict):
        if "content" in v or "text" in v:
            return _plain_text(v.get("content", v.get("text")))
        return json.dumps(v, sort_keys=True, default=str, ensure_ascii=False)  # a document
    return str(v)


def _by_benchmark(parts: Sequence[LogPart]) -> dict[str, list[LogPart]]:
    """The parts of each benchmark (task), in the order first seen."""
    out: dict[str, list[LogPart]] = {}
    for p in parts:
        out.setdefault(p.benchmark, []).append(p)
    return out


def _differing(settings: Sequence[dict[str, str]]) -> list[str]:
    """The keys whose value is not the same in every one of ``settings`` (a missing key
    counts as a value of its own), sorted."""
    keys = sorted({k for d in settings for k in d})
    return [k for k in keys if len({d.get(k) for d in settings}) > 1]


def _split_by_task_args(parts: Sequence[LogPart]) -> None:
    """Logs of one task run with different arguments (``arith(level=1)``, ``arith(level=2)``)
    hold different questions: each argument set becomes its own benchmark,
    ``arith[level=2]``, named by the arguments that differ (a note says so)."""
    for task, group in _by_benchmark(parts).items():
        differ = _differing([p.task_args for p in group])
        if not differ:
            continue
        for p in group:
            args = ",".join(f"{k}={p.task_args.get(k, '')}" for k in differ)
            p.benchmark = f"{task}[{args}]"
            p.note_load(f"task {task!r} was run with different arguments "
                           f"({', '.join(differ)}): one benchmark per argument set, "
                           f"named like {p.benchmark!r}")


def _check_same_questions(parts: Sequence[LogPart]) -> None:
    """One question id of one benchmark is one question in every log: logs of different
    datasets (or versions) that reuse ids 1, 2, ... would otherwise be paired silently."""
    seen: dict[tuple[str, str], tuple[str, str, LogPart]] = {}
    for part in parts:
        for q, (digest, shown) in part.idents.items():
            first = seen.setdefault((part.benchmark, q), (digest, shown, part))
            if first[0] != digest:
                other = first[2]
                raise ValidationError(
                    f"{part.file}: question {q!r} of task {part.benchmark!r} is not the same "
                    f"question as in {other.file} (model {other.model!r}: {first[1]!r}; model "
                    f"{part.model!r}: {shown!r}): these logs were run on different datasets "
                    "or dataset versions, so their questions cannot be paired. Load them "
                    "separately, or rename one task"
                    + (" (its name in the log is the benchmark)" if part.format == "inspect"
                       else "")
                )


def _note_other_prompts(parts: Sequence[LogPart]) -> None:
    """Models that ran one task with other prompts (0-shot beside 3-shot) answered the same
    questions, so they load together, but their scores differ by prompt as well as by
    model: each such part says so."""
    for task, group in _by_benchmark(parts).items():
        differ = _differing([p.prompt for p in group])
        if not differ:
            continue
        each = "; ".join(
            f"{p.model}: " + ", ".join(f"{k} {p.prompt.get(k, 'not recorded')}" for k in differ)
            for p in group
        )
        note = (f"task {task!r} was run with other prompts by different models ({each}): "
                "the same questions, so they are compared, but the scores differ by prompt as "
                "well as by model")
        for p in group:
            p.note_load(note)


def _run_state(part: LogPart) -> str:
    """How a log's run ended, from its notes: ``finished``, ``run status 'error'``, ..."""
    return next((n for n in part.notes if n.startswith(("run status", "unfinished run"))),
                "finished")


def _check_unique(parts: Sequence[LogPart]) -> None:
    """One log per (model, task); every re-run is named at once, not one per attempt."""
    seen: dict[tuple[str, str], LogPart] = {}
    clashes: list[str] = []
    some_unfinished = False
    for part in parts:
        key = (part.model, part.benchmark)
        if key not in seen:
            seen[key] = part
            continue
        other = seen[key]
        names = {other.original_model or other.model, part.original_model or part.model}
        how = (
            f" (named {' and '.join(sorted(names))} in the logs; renamed by model_map or "
            "the provider-prefix rule)" if len(names) > 1 else ""
        )
        state = {p.file: _run_state(p) for p in (other, part)}
        some_unfinished |= len(set(state.values())) > 1
        later = part.file
        clashes.append(
            f"model {part.model!r}{how} and task {part.benchmark!r}: {other.file} "
            f"({state[other.file]}) and {part.file} ({state[part.file]})"
        )
    if not clashes:
        return
    hint = "; the one that did not finish is probably the one to drop" if some_unfinished else ""
    shown = "; ".join(clashes[:5]) + (f"; and {len(clashes) - 5:,} more" if len(clashes) > 5
                                       else "")
    what = f"{later}: two logs for the same" if len(clashes) == 1 else (
        f"{len(clashes):,} (model, task) pairs with more than one log:")
    raise ValidationError(
        f"{what} {shown}; keep one per model and task (e.g. the latest run){hint}"
    )


def _fmt_trials(ts: Sequence[int]) -> str:
    if len(ts) > 2 and list(ts) == list(range(ts[0], ts[-1] + 1)):
        return f"{ts[0]}..{ts[-1]} ({len(ts)})"
    return ", ".join(map(str, ts)) + f" ({len(ts)})"


def _check_trials(parts: Sequence[LogPart], opts: LoadOptions) -> None:
    by_bench: dict[str, list[LogPart]] = {}
    for part in parts:
        by_bench.setdefault(part.benchmark, []).append(part)
    for bench, group in by_bench.items():
        ref = group[0]
        for part in group[1:]:
            if part.trial_set() != ref.trial_set():
                works = _policies_that_load(parts, opts)
                raise MissingCellsError(
                    f"{part.file}: {part.trials_from or 'trials'}: the models have different "
                    f"trials (epochs) on {bench!r}: {ref.model!r} in {ref.file} has "
                    f"{_fmt_trials(ref.trial_set())}, {part.model!r} in {part.file} has "
                    f"{_fmt_trials(part.trial_set())}; every model needs the same trials "
                    + ("(pass on_missing='truncate' to keep the smallest common number)"
                       if "truncate" in works else f"({_advice(works, 're-run them').rstrip('.')})")
                )


def _check_errors(parts: Sequence[LogPart], opts: LoadOptions) -> None:
    bad = [(p, i) for p in parts for i, e in enumerate(p.errors) if e is not None]
    if not bad:
        return
    shown = "; ".join(f"{p.file}: {p.where[i]}: {p.errors[i]}" for p, i in bad[:_SHOW])
    more = f" and {len(bad) - _SHOW} more" if len(bad) > _SHOW else ""
    raise MissingCellsError(
        f"{bad[0][0].file}: {count_text(len(bad), 'sample')} "
        + ("has no score (it errored or was not scored), so its (model, question, trial) cell "
           "is missing" if len(bad) == 1 else "have no score (they errored or were not "
           "scored), so their (model, question, trial) cells are missing")
        + f": {shown}{more}. "
        + _advice(_policies_that_load(parts, opts), "Re-run them")
    )


def _policies_that_load(parts: Sequence[LogPart], opts: LoadOptions) -> list[str]:
    """The ``on_missing`` policies under which these very parts load (:func:`_loads`), so a
    missing-cells message recommends only what works on the same data (a per-part count
    had advised ``truncate`` when another model lacked a question altogether)."""
    return [w for w in ("drop_questions", "truncate")
            if _loads(parts, replace(opts, on_missing=w))]


def _loads(parts: Sequence[LogPart], opts: LoadOptions) -> bool:
    """Whether ``parts`` -- chosen and named by :func:`assemble_logs` already -- assemble
    with ``opts``: tried on copies, scores only (advice is given only when it works)."""
    # chosen again the same; named as they are now (model_map and prefixes applied)
    again = replace(opts, samples="skip", model_map=None, model_prefix="keep")
    try:
        assemble_logs([replace(p, notes=list(p.notes), load_notes=set(p.load_notes))
                       for p in parts], again)
    except (ValidationError, KeyError, TypeError, AttributeError, IndexError):
        return False
    return True


def _advice(works: Sequence[str], fix: str) -> str:
    """:func:`missing_advice` for logs, whose policies were tried (:func:`_policies_that_load`):
    when neither loads, no reason is guessed."""
    if works:
        return missing_advice(works, fix)
    return (f"{fix}: neither on_missing='drop_questions' nor on_missing='truncate' loads "
            "these logs either")


#: The report's own keys of what :func:`import_table` shows as these columns.
_MEAN_KEYS = {"ours (mean)": "mean", "harness value": "harness", "harness reducer": "reducer"}


@checked_keywords
def means_text(report: dict[str, Any], name: Callable[[str], str] | None = None) -> str:
    """What an import report's means are, in one sentence, each named ``name(column)`` by its
    column of :func:`import_table` (default: the report's own keys, ``mean``, ``harness``,
    ``mean_loaded``, as its ``mean_meaning`` says it): ``ours (mean)``, each file's records
    scored as the log scores them -- a letter by its weight, a grade by its place on the
    scale -- before the loader's options that change the outcomes, as the harness scored
    them (Inspect's C/P/I as 1/0.5/0, a mean grade): the number to set beside the harness's;
    and, where such options were given (``report["mean_loaded_after"]``, a
    :class:`~scorio_core._validation.Said` naming them, :func:`loaded_means`),
    ``ours (as loaded)``: the same after them, the leaderboard's avg@N. A
    :class:`~scorio_core._validation.Said`: each surface names those options its own way.

    Example
    -------
    >>> from scorio_core.io._logs import means_text
    >>> print(means_text({}))
    mean: our average score over every (question, trial) record read from the file, each \
scored as the log scores it (avg@N of the data loaded where no loader option changed the \
outcomes): the number to set beside the harness's; harness: the harness's own headline for \
the same file, after its reducer (e.g. Inspect reduces each question's epochs first)
    """
    from .._validation import Said

    def key(column: str) -> str:
        return _MEAN_KEYS.get(column, "mean_loaded")

    name = name or key
    text = Said(
        f"{name('ours (mean)')}: our average score over every (question, trial) record read "
        "from the file, each scored as the log scores it (avg@N of the data loaded where no "
        "loader option changed the outcomes): the number to set beside the harness's; "
        f"{name('harness value')}: the harness's own headline for the same file, after its "
        f"{name('harness reducer')} (e.g. Inspect reduces each question's epochs first)")
    if (after := report.get("mean_loaded_after")) is not None:
        text += Said(f"; {name(LOADED_COLUMN)}: the same model and benchmark in the data as "
                     "loaded, after ", after, " changed the outcomes: the avg@N the "
                     "leaderboard shows")
    return text


def report(
    parts: Sequence[LogPart],
    skipped: Sequence[str] = (),
    means: Sequence[float | None] | None = None,
) -> dict[str, Any]:
    """The import report stored in ``Outcomes.metadata["import_report"]``.

    ``means``: our mean score of each part's scored records (the category weights), shown
    beside the harness's own headline when the log has one.
    """
    files = []
    for k, p in enumerate(parts):
        errored = sum(e is not None for e in p.errors)
        row = {
            "file": p.file,
            "format": p.format,
            "model": p.model,
            "benchmark": p.benchmark,
            "scorer": p.scorer,
            "records": len(p.values),
            "missing": errored,
            "notes": list(p.notes),
        }
        if p.original_model is not None and p.original_model != p.model:
            row["model_in_log"] = p.original_model
        if means is not None and means[k] is not None:
            row["mean"] = round(float(means[k]), 6)
        if p.harness is not None:
            row["harness"] = dict(p.harness)
        files.append(row)
    out: dict[str, Any] = {
        "files": files,  # one row per part: a file read once per lm-eval filter has several
        "n_files": len({p.file for p in parts}),
        "missing_samples": sum(f["missing"] for f in files),
    }
    if any("mean" in f for f in files):
        out["mean_meaning"] = means_text(out)
    if notes := report_notes(parts):
        out["notes"] = notes
    if skipped:
        out["skipped_files"] = list(skipped)
    return out


#: At most this many files named where one note is said of several (the rest counted).
_NAMED_FILES = 4


def report_notes(parts: Sequence[LogPart]) -> list[str]:
    """The import report's notes (``notes``): each note once, a file's own note naming the
    file (or files) it is said of, so the same words from several logs count each log.

    A note said of the whole load (:meth:`LogPart.note_load`: the provider prefixes taken
    off, a score range inferred) and every note of a load of one file stand as they are.
    A file's own note -- how many of its samples errored, which scorer it used -- starts
    with its file, ``a.eval: 2 samples errored ...``, or, where several files say the same,
    with each of them: ``each of 2 files (a.eval, b.eval): 2 samples errored ...`` (before,
    two logs with 2 errored samples each read "2 samples errored" once). A note of some of
    the parts of one file (an lm-eval samples file read under two filters) names those
    parts' benchmarks (beside the file where several were read). Sorted by the note's
    words, then by file.

    Example
    -------
    >>> from scorio_core.io._logs import LogPart, report_notes
    >>> a, b = LogPart("a.eval", "inspect", "m1", "t"), LogPart("b.eval", "inspect", "m2", "t")
    >>> for p in (a, b):
    ...     p.notes.append("2 samples errored")
    ...     p.note_load("model names without their provider prefix")
    >>> b.notes.append("unfinished run")
    >>> report_notes([a, b])
    ['each of 2 files (a.eval, b.eval): 2 samples errored', \
'model names without their provider prefix', 'b.eval: unfinished run']
    >>> report_notes([a])
    ['2 samples errored', 'model names without their provider prefix']
    """
    from .._validation import Said

    per_file: dict[str, int] = {}
    for p in parts:
        per_file[p.file] = per_file.get(p.file, 0) + 1
    said: dict[str, list[LogPart]] = {}
    for p in parts:
        for n in dict.fromkeys(p.notes):
            said.setdefault(n, []).append(p)
    shared = {n for p in parts for n in p.load_notes}
    out: list[tuple[str, str, str]] = []  # (the note's words, where, the line)
    for note, ps in said.items():
        if note in shared or (len(per_file) == 1 and len(ps) == len(parts)):
            out.append((note, "", note))
            continue
        where: dict[str, list[str]] = {}
        for p in ps:
            where.setdefault(p.file, []).append(p.benchmark)
        # one file read as several parts: the parts by their benchmarks, not its name again
        names = [f if len(bs) == per_file[f] else ", ".join(bs) if len(per_file) == 1
                 else f"{f} ({', '.join(bs)})" for f, bs in where.items()]
        if len(names) == 1:
            head = f"{names[0]}: "
        else:
            more = len(names) - _NAMED_FILES
            rest = f" and {count_text(more, 'other')}" if more > 0 else ""
            head = (f"each of {count_text(len(names), 'file')} "
                    f"({', '.join(names[:_NAMED_FILES])}{rest}): ")
        out.append((note, head, Said(head, note)))  # a Said keeps the options it names
    return [line for *_, line in sorted(out, key=lambda x: (str(x[0]), x[1]))]


#: The import table's column of each file's mean as loaded (``mean_loaded``,
#: :func:`loaded_means`), beside ``ours (mean)``, its mean as the log scores it.
LOADED_COLUMN = "ours (as loaded)"


def loaded_means(data: Outcomes, options: str) -> Outcomes:
    """``data`` loaded from logs whose outcomes the loader's ``options`` changed (``correct``,
    ``correct_from``, ``round_grades``: a :class:`~scorio_core._validation.Said` naming
    them), with each file's row of the import report giving, beside ``mean`` -- its records
    as the log scores them, the number to set beside the harness's (:func:`means_text`)
    -- ``mean_loaded``: the mean score of the same model and benchmark in ``data``, as the
    leaderboard's avg@N reads it. Before, the one mean was read before ``correct`` mapped
    the categories but after ``correct_from`` thresholded the grades, so it matched neither
    the harness nor the board in every case.

    Example
    -------
    >>> d = "tests/fixtures/harness/openai_evals/modelgraded_partial"
    >>> rep = sc.load(d, correct=["1"]).metadata["import_report"]
    >>> [(f["model"], f["mean"], f["mean_loaded"], f["harness"]["value"]) for f in rep["files"]]
    [('alpha', 0.75, 0.666667, 0.75), ('beta', 0.75, 0.666667, 0.75)]
    >>> print(rep["mean_meaning"].split("; ")[-1])
    mean_loaded: the same model and benchmark in the data as loaded, after correct=['1'] \
changed the outcomes: the avg@N the leaderboard shows
    """
    rep = data.metadata.get("import_report")
    if not isinstance(rep, dict) or not rep.get("files"):
        return data
    views: dict[str, Outcomes | None] = {}

    def view(benchmark: str) -> Outcomes | None:
        if benchmark not in views:
            names = data.benchmark_names
            views[benchmark] = (data if not names or names == [benchmark] else
                                data.select(benchmark) if benchmark in names else None)
        return views[benchmark]

    files = []
    for f in rep["files"]:
        v = view(str(f.get("benchmark")))
        if v is not None and f.get("model") in v.models:
            scores = np.asarray(v.weights, float)[v.R[v.models.index(f["model"])]]
            f = {**f, "mean_loaded": round(float(scores.mean()), 6)}
        files.append(f)
    rep = {**rep, "files": files, "mean_loaded_after": options}
    meta = {**data.metadata, "import_report": {**rep, "mean_meaning": means_text(rep)}}
    return replace(data, metadata=meta)


@checked_keywords
def import_table(report: dict[str, Any]) -> pd.DataFrame:
    """One row per file of an import report (:func:`report`, ``metadata["import_report"]``):
    model (and ``model_in_log``, its name in the log, when a name was changed), benchmark,
    ``ours (mean)`` (the records as the log scores them: :func:`means_text`) beside the
    ``harness value``, ``ours (as loaded)`` where the loader's options changed the outcomes
    (:func:`loaded_means`: the leaderboard's avg@N), the ``harness reducer`` (e.g. Inspect's
    reduced headline), records, missing, scorer, harness (format), file and the file's notes.
    Numbers stay numbers (NaN where a file has none); the report and the app format them.

    Example
    -------
    >>> from scorio_core.io import import_table
    >>> t = import_table({"files": [{"file": "a.eval", "format": "inspect", "model": "m",
    ...                              "records": 12, "missing": 0, "mean": 0.5}]})
    >>> t[["file", "harness", "records", "ours (mean)"]].values.tolist()
    [['a.eval', 'inspect', 12, 0.5]]
    """
    rows = []
    for f in report.get("files", []):
        harness = f.get("harness") or {}
        # whose row it is, then the numbers to compare side by side (the file's long name
        # had pushed them past the Data page's edge at 1280 px), then where they come from
        rows.append({
            "model": f.get("model"),
            "model_in_log": f.get("model_in_log", f.get("model")),
            "benchmark": f.get("benchmark"),
            "ours (mean)": f.get("mean", math.nan),
            "harness value": harness.get("value", math.nan),
            LOADED_COLUMN: f.get("mean_loaded", math.nan),
            "harness reducer": harness.get("reducer", ""),
            "records": int(f.get("records", 0)),
            "missing": int(f.get("missing", 0)),
            "scorer": f.get("scorer"),
            "harness": f.get("format"),
            "file": f.get("file"),
            "notes": "; ".join(f.get("notes") or []),
        })  # fmt: skip
    table = pd.DataFrame(rows)
    if LOADED_COLUMN in table and table[LOADED_COLUMN].isna().all():  # no option changed them
        table = table.drop(columns=LOADED_COLUMN)
    if not table.empty and (table["model_in_log"] == table["model"]).all():
        table = table.drop(columns="model_in_log")
    return table


def _select(parts: Sequence[LogPart], benchmark: str | None) -> list[LogPart]:
    """The parts of one benchmark, or of every task of one harness group (lm-eval
    ``group_subtasks``), or of every benchmark of one task (an lm-eval task read under
    several filters, ``TASK/FILTER``; a task run with different arguments,
    ``TASK[args]``), all when ``None``; chosen before anything is checked or assembled."""
    if benchmark is None:
        return list(parts)
    keep = ([p for p in parts if p.benchmark == benchmark]
            or [p for p in parts if benchmark in p.groups]
            or [p for p in parts if _of_task(p, benchmark)])
    if not keep:
        have = ", ".join(dict.fromkeys(p.benchmark for p in parts))
        groups = sorted({g for p in parts for g in p.groups})
        also = (f"; and the {noun_text(len(groups), 'group')}: {', '.join(groups)}"
                if groups else "")
        tasks = list(dict.fromkeys(p.benchmark for p in parts))
        raise ValidationError(
            f"unknown benchmark {benchmark!r}; these logs hold the "
            f"{'benchmark (task)' if len(tasks) == 1 else 'benchmarks (tasks)'}: {have}{also}"
        )
    return keep


def _of_task(part: LogPart, task: str) -> bool:
    """Whether ``part`` is one of the benchmarks the loader made of ``task``: one per
    filter of an lm-eval task (``TASK/FILTER``, :func:`scorio_core.io.lm_eval.read_samples`;
    an lm-eval task name is part of a file name, so it holds no ``/``), one per argument
    set (``TASK[args]``, :func:`_split_by_task_args`)."""
    b = part.benchmark
    return (b.startswith(task + "[") and bool(part.task_args)) or (
        part.format == "lm_eval" and b.startswith(task + "/"))


def rename_models(parts: Sequence[LogPart], opts: LoadOptions) -> dict[str, str]:
    """Apply ``model_map``, then (``model_prefix='strip'``) drop provider prefixes
    (``mockllm/alpha`` -> ``alpha``, up to the last ``/``) when every name stays distinct.

    Returns the names that changed (``{name in the log: name used}``), for the import
    report; a note on each part says what was done or why prefixes were kept.
    """
    mapped = {p.model: opts.rename(p.model) for p in parts}
    names = sorted(set(mapped.values()))
    # a path's trailing "/" (shell completion: pretrained=/ckpts/run1/) is not the name's end
    stripped = {n: n.rstrip("/").rsplit("/", 1)[1] if "/" in n.rstrip("/") else n
                for n in names}
    note = None
    if opts.model_prefix == "strip" and any(k != v for k, v in stripped.items()):
        clash: dict[str, list[str]] = {}
        for k, v in stripped.items():
            clash.setdefault(v, []).append(k)
        clash = {v: ks for v, ks in clash.items() if len(ks) > 1}
        if clash:
            v, ks = next(iter(clash.items()))
            note = (
                f"kept the provider prefixes of the model names: {' and '.join(ks)} would "
                f"both become {v!r} (they are different models unless you say otherwise with "
                + mention("model_map") + ")"
            )
        else:
            mapped = {k: stripped[v] for k, v in mapped.items()}
            changed = ", ".join(f"{k} -> {v}" for k, v in mapped.items() if k != v)
            note = (
                f"model names without their provider prefix ({changed}); "
                + mention("model_prefix", "keep") + " keeps them"
            )
    for p in parts:
        if note and p.model != mapped[p.model] or (note and "kept" in note):
            p.note_load(note)
        p.original_model = p.model
        p.model = mapped[p.model]
    return {k: v for k, v in mapped.items() if k != v}


#: Records per scratch file of one log's texts (:func:`spill_texts`): the texts are copied
#: into a frame this many at a time, so the copy never doubles a large log's texts in
#: memory (a 372 MiB HELM scenario_state.json with 3,000-character prompts: +610 MB peak
#: for the copy in one frame).
SPILL_ROWS = 4096


def spill_texts(part: LogPart, writer: SampleWriter, keep: bool = True) -> None:
    """Move a part's texts to scratch Parquet files as soon as its log is read, so a folder
    of logs never holds every string in memory (:func:`assemble_logs` finishes them); keep
    only each record's short scalar metadata (:attr:`LogPart.attrs`, candidates for
    question attributes such as a subset). ``keep=False``: no texts at all. The texts are
    written :data:`SPILL_ROWS` records at a time (one schema for all), each chunk's
    strings released once written and the memory they took given back (:func:`trim_heap`)."""
    texts = part.texts
    part.attrs = [_scalar_metadata(t) for t in texts]
    part.texts = []
    if not keep or not any(texts):
        del texts
        trim_heap()  # the texts (and the parsed log) are gone: their memory too
        return
    cols = _ordered(k for t in texts if t for k in t)
    scored = [e is None for e in part.errors]
    files = []
    for a in range(0, len(texts), SPILL_ROWS):
        b = a + SPILL_ROWS
        frame = log_rows(texts[a:b], part.questions[a:b], part.trials[a:b], scored[a:b],
                         part.where[a:b], part.file, columns=cols)
        texts[a:b] = [None] * len(texts[a:b])  # this chunk's strings: written, released
        files.append(writer.scratch(frame))
        trim_heap()
    part.text_file = files


@functools.cache
def _malloc_trim() -> Any:
    """glibc's ``malloc_trim``, or ``None`` where the C library has none (macOS, Windows,
    musl) or cannot be loaded."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # here: not a cost of `import scorio_core.io`

    try:
        libc = ctypes.CDLL(None)  # the C library this interpreter runs on
        libc.gnu_get_libc_version  # noqa: B018 -- glibc's own (musl has malloc, no trim)
        trim = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def trim_heap() -> bool:
    """Give the free pages of the C heap back to the system (glibc's ``malloc_trim(0)``);
    ``False``, doing nothing, where the C library has no such call.

    A log's strings are allocated by the C library; freed, glibc keeps their pages for
    the process's next strings, but what follows -- the scratch and store Parquet, the
    frames -- is allocated by polars' own allocator, so it would add to them. Called after
    each chunk a log's texts are spilled in (:func:`spill_texts`): loading a 370 MiB HELM
    scenario_state.json peaks at +321 MiB, +468 MiB without
    (``benchmarks/sample_store_memory.py``); trimmed once per log, or once before the
    store, it peaked 40 and 70 MiB higher. A call costs ~25 microseconds when there is
    little to give back (2,000 small logs: 0.05 s of a 15 s load).
    """
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


_MAX_ATTR = 200  # a question attribute's value is a name (check_name's limit)


def _scalar_metadata(text: dict[str, Any] | None) -> dict[str, str] | None:
    """A record's metadata fields that could name a subset: text, numbers or booleans of at
    most 200 characters under a valid attribute name (not a table role), as text. Which of
    them are question attributes is decided over all the records of a task
    (:func:`metadata_attributes`)."""
    meta = (text or {}).get("metadata")
    if not isinstance(meta, dict):
        return None
    out = {}
    for k, v in meta.items():
        if isinstance(v, str | int | float | bool) and _ATTR_KEY.match(str(k)) \
                and str(k) not in ROLE_NAMES and len(str(v)) <= _MAX_ATTR:
            out[str(k)] = str(v)
    return out or None


#: A metadata field groups the questions of a task when they have on average at least this
#: many questions per value ...
_PER_VALUE = 2
#: ... and at most this share of them are alone in their value (:func:`metadata_attributes`)
_ALONE = 0.25
#: what each harness calls a record's metadata, in the import report's notes
_META_KIND = {"lm_eval": "doc field", "inspect": "sample metadata field",
              "helm": "instance field"}
_KEYS = ("model", "question", "trial", "outcome", "benchmark")


def metadata_attributes(df: pl.DataFrame, parts: Sequence[LogPart],
                        explicit: Sequence[str] = ()) -> pl.DataFrame:
    """Which fields of the records' metadata become question attributes (the subsets the
    views split by), task by task; the others are emptied in ``df`` and named, with why, in
    one note on the parts of the tasks concerned.

    The metadata -- lm-eval's ``doc``, Inspect's sample metadata, HELM's split and
    sub-split -- are optional context about the question that the user cannot edit: a field
    never refuses a log and is never a signal (its values are read as text). Its short
    text, number and boolean values under a name of letters, digits and '_' that is not a
    table role are candidates (:func:`_scalar_metadata`); a candidate is an attribute of a
    task when, over that task's questions,

    * it has one value per question (the same, or none, for every model and trial),
    * it groups the questions: one value for all of them, or at most half as many values
      as questions with a value (2 or more questions per value on average) and at most a
      quarter of those questions alone in their value,
    * every value is a valid name (:func:`~scorio_core.outcomes.check_name`), and
    * its values are not numbers mixed with text (at least half of its cells numbers, not
      all: :func:`._assemble.non_numbers`), which a table written from the data could not
      read back.

    A document's own content -- its question, its answer string -- is not a grouping,
    even when a few values repeat (lm-eval ``doc.a`` of 9 values over 12 questions). It
    stays in each sample's metadata (the sample store). Fields named in ``attributes=``
    are left to the assembly's strict checks.
    """
    fields = [c for c in df.columns if c not in (*_KEYS, *explicit)]  # and lm-eval's group
    tasks = df.get_column("benchmark").unique().to_list()
    kinds = {p.benchmark: _META_KIND.get(p.format, "metadata field") for p in parts}
    notes: list[tuple[str, str, list[str]]] = []  # (field, why, the tasks it is left out of)
    for c in fields:
        v = pl.col(c).str.strip_chars()
        df = df.with_columns(pl.when(v != "").then(v).alias(c))  # a blank is no value
        why = _not_grouping(df.select("benchmark", "question", v=pl.col(c)).drop_nulls())
        left = df.filter(~pl.col("benchmark").is_in(list(why)))
        mixed = non_numbers(left.get_column(c))
        if mixed is not None:  # over every task left: that is what a table holds
            s = left.get_column(c)
            texts = s.filter(pl.Series(mixed)).unique().sort().to_list()
            shown = ", ".join(map(repr, texts[:3])) + (" ..." if len(texts) > 3 else "")
            n_num = s.filter(~pl.Series(mixed)).drop_nulls().n_unique()
            for b in left.filter(pl.col(c).is_not_null()).get_column("benchmark").unique(
                    maintain_order=True).to_list():
                why[b] = f"numbers mixed with text ({shown} beside {n_num} numeric values)"
        if not why:
            continue
        bs = sorted(why)
        notes.append((f"{kinds.get(bs[0], 'metadata field')} {c!r}", why[bs[0]], bs))
        df = df.with_columns(pl.when(pl.col("benchmark").is_in(list(why))).then(None)
                             .otherwise(pl.col(c)).alias(c))
    if notes:
        _note_left_out(notes, tasks, parts)
    return df.drop([c for c in fields if df.get_column(c).null_count() == df.height])


def _note_left_out(notes: list[tuple[str, str, list[str]]], tasks: list[str],
                   parts: Sequence[LogPart]) -> None:
    """One note on the parts of the tasks concerned: each field left out, where (said once
    when every field is left out of the same tasks) and why."""
    def where(bs: list[str]) -> str:
        if len(tasks) < 2:
            return ""
        if len(bs) == len(tasks):
            return "every task"
        return bs[0] + (f" and {count_text(len(bs) - 1, 'other task')}" if len(bs) > 1 else "")

    same = len({tuple(bs) for *_, bs in notes}) == 1
    head = "not read as question attributes (subsets)"
    if same and len(tasks) > 1:
        head += f" in {where(notes[0][2])}"
    items = [f"{field}{'' if same or len(tasks) < 2 else f' ({where(bs)})'}: {why}"
             for field, why, bs in notes]
    note = f"{head}, kept in each sample's metadata only: " + "; ".join(items)
    failed = {b for *_, bs in notes for b in bs}
    for p in parts:
        if p.benchmark in failed:
            p.note_load(note)


def _not_grouping(vals: pl.DataFrame) -> dict[str, str]:
    """Why a metadata field is no question attribute of each task where it is not (the
    first three rules of :func:`metadata_attributes`); ``vals``: its (benchmark, question,
    v) cells with a value."""
    per_q = vals.unique().group_by("benchmark", "question").agg(n=pl.len(),
                                                                 v=pl.col("v").first())
    varies = dict(per_q.filter(pl.col("n") > 1).group_by("benchmark").len().iter_rows())
    sizes = per_q.filter(pl.col("n") == 1).group_by("benchmark", "v").len()
    stats = sizes.group_by("benchmark").agg(k=pl.len(), n_q=pl.col("len").sum(),
                                            alone=(pl.col("len") == 1).sum())
    why = {b: f"differs between the trials or models of {count_text(n, 'question')}"
           for b, n in varies.items()}
    for b, k, n_q, alone in stats.iter_rows():
        if b in why:
            continue
        if k > 1 and k == n_q:
            why[b] = "a different value on every question"
        elif k > 1 and k * _PER_VALUE > n_q:
            why[b] = (f"{k} different values over {n_q} questions, per-question content "
                      "rather than a grouping")
        elif k > 1 and alone > _ALONE * n_q:
            why[b] = (f"{alone} of its {n_q} questions have a value of their own, "
                      "per-question content rather than a grouping")
    # names last, over the groupings left (a few values, not every question's text)
    left = sizes.filter(~pl.col("benchmark").is_in(list(why))).sort("benchmark", "v")
    bad: dict[str, str] = {}
    for x in left.get_column("v").unique().to_list():
        try:
            check_name(x, "value")
        except ValidationError as exc:
            bad[x] = str(exc).split(";")[0]  # what is wrong, not the advice
    for b, x in left.filter(pl.col("v").is_in(list(bad))).select("benchmark", "v").iter_rows():
        why.setdefault(b, bad[x])
    return why


def _attribute_columns(part: LogPart, n: int) -> dict[str, pl.Series]:
    """One text column per metadata key of the part's records (null where a record lacks
    it), and the harness group of the part's task (lm-eval), as question attributes."""
    attrs = part.attrs or []
    keys = list(dict.fromkeys(k for a in attrs if a for k in a))
    cols = {k: pl.Series([(a or {}).get(k) for a in attrs] if attrs else [None] * n,
                         dtype=pl.String) for k in keys}
    if part.groups and GROUP not in cols:  # lm-eval: the task's own group, a slice
        cols[GROUP] = pl.Series([part.groups[0]] * n, dtype=pl.String)
    return cols


def _log_store(parts: Sequence[LogPart], several: bool, writer: SampleWriter | None):
    """The sample store of the assembled parts: final model names, questions qualified as
    in the tensor, and each scored record's position among its question's trials -- the
    same rank the assembly gives it in ``R`` (errored records: no position). Each part's
    keys are computed from its scratch files' key columns alone; its texts go to the
    writer a scratch file at a time (:meth:`SampleWriter.add` with pieces), so the store
    is assembled without every text in memory; the scratch files are removed after."""
    if writer is None:
        return None
    raw_keys = ("q_raw", "trial_raw", "scored")
    for part in parts:
        if part.text_file is None:
            continue
        raws = [pl.read_parquet(f, columns=list(raw_keys)) for f in part.text_file]
        q = pl.col("q_raw")
        if several:
            q = pl.lit(part.benchmark + "/") + q
        pos = pl.col("trial_raw").rank("ordinal").over("q_raw", "scored").cast(pl.Int64) - 1
        keys = pl.concat(raws).select(model=pl.lit(part.model, pl.String), question=q,
                                      trial=pl.when(pl.col("scored")).then(pos),
                                      trial_id=pl.col("trial_raw").cast(pl.String))
        pieces, offset = [], 0
        for f, r in zip(part.text_file, raws, strict=True):
            pieces.append(pl.concat([keys.slice(offset, r.height).lazy(),
                                     pl.scan_parquet(f).drop(*raw_keys)], how="horizontal"))
            offset += r.height
        writer.add(pieces)
    writer.drop_scratch()
    return writer.store()


def _log_scale(parts: Sequence[LogPart], opts: LoadOptions) -> LoadOptions:
    """``opts`` with the score range the logs themselves imply (:attr:`LogPart.scale`)
    when none was given, noted on each part; a given ``score_range`` (or ``weights``) wins,
    with a note where it differs. Logs implying different ranges, or numeric scores of
    other logs read with them, are refused: one range weights every score of a load."""
    implied = [p for p in parts if p.scale is not None]
    if not implied:
        return opts
    if opts.score_range is not None or opts.weights is not None:
        given = (mention("score_range", opts.score_range) if opts.score_range is not None
                 else mention("weights"))  # as each surface names the option (a Said)
        for p in implied:
            if p.scale != opts.score_range:
                p.note_load(given + " given: used instead of the score range "
                               f"{p.scale[0]:g}..{p.scale[1]:g} the log implies ({p.scale_why})")
        return opts
    scales = {p.scale for p in implied}
    if len(scales) > 1:
        a = implied[0]
        b = next(p for p in implied if p.scale != a.scale)
        raise ValidationError(
            f"{a.file}'s scores lie on {a.scale[0]:g}..{a.scale[1]:g} and {b.file}'s on "
            f"{b.scale[0]:g}..{b.scale[1]:g} (each implied by its log): one score range weights "
            "every score of a load; load them separately, or give one with "
            + mention("score_range")
        )
    lo, hi = scale = implied[0].scale
    other = next((p for p in parts if p.scale is None and any(
        _number(v) is not None for v, e in zip(p.values, p.errors, strict=True)
        if e is None)), None)  # fmt: skip
    if other is not None:
        raise ValidationError(
            f"{implied[0].file}'s scores lie on {lo:g}..{hi:g} ({implied[0].scale_why}), but "
            f"{other.file}'s numeric scores have no stated range: one score range weights every "
            "score of a load; load them separately, or give one with " + mention("score_range")
        )
    for p in implied:
        p.note_load(
            f"score range {lo:g}..{hi:g} inferred from the log: {p.scale_why}; each score "
            f"is weighted (score - {lo:g}) / ({hi:g} - {lo:g}) (give another with "
            + mention("score_range") + ")"
        )
    return replace(opts, score_range=scale)


def _note_harness_scale(parts: Sequence[LogPart], scale: tuple[float, float]) -> None:
    """The harness headline of graded scores is on the scores' own scale, ours (mean) on
    [0, 1]: say what the headline is on ours, so the two can be compared."""
    lo, hi = scale
    for p in parts:
        if p.harness is not None and _number(p.harness.get("value")) is not None:
            v = float(p.harness["value"])
            p.notes.append(
                f"{p.model} on {p.benchmark}: the harness value {v:.6g} is on the scores' "
                f"scale {lo:g}..{hi:g}; ours (mean) weights each score (score - {lo:g}) / "
                f"({hi:g} - {lo:g}), on which it is {(v - lo) / (hi - lo):.6g}"
            )


def assemble_logs(
    parts: Sequence[LogPart],
    opts: LoadOptions,
    skipped: Sequence[str] = (),
    writer: SampleWriter | None = None,
    collection: str | None = None,
) -> Outcomes:
    """One :class:`Outcomes` from the log parts (see the module docstring); ``writer``
    holds the parts' texts (:func:`spill_texts`), which become ``Outcomes.samples``.
    ``collection``: the name of the folder the logs were found in, the name of data that
    pool several tasks (default ``"logs"``); one task names itself."""
    on_missing, weights, category_names = opts.on_missing, opts.weights, opts.category_names
    given = opts
    _split_by_task_args(parts)  # before a benchmark is chosen: arith[level=2] is one
    parts = _select(parts, opts.benchmark)
    renamed = rename_models(parts, opts)
    records = sum(len(p.values) for p in parts)
    if records > MAX_ROWS:
        raise ValidationError(
            f"{parts[0].file}: the logs hold {records:,} records, more than the {MAX_ROWS:,} "
            "allowed (scorio_core.io.MAX_ROWS)"
        )
    _check_unique(parts)
    _check_same_questions(parts)
    _note_other_prompts(parts)
    if on_missing == "error":
        _check_trials(parts, opts)
        _check_errors(parts, opts)
    opts = _log_scale(parts, opts)
    codes, names, w = categorize(
        parts, opts.score_range, None if weights is None else len(weights), opts
    )
    top = max((int(c.max()) for c in codes if c.size), default=0)
    w_arr = np.asarray(weights if weights is not None and len(weights) > top else w, float)
    if weights is None and (opts.correct_from is not None or opts.round_grades is not None):
        # the grades were read through those options: the report's mean is the log's own
        means = scored_means(parts, opts.score_range)
    else:
        means = [float(w_arr[c[c >= 0]].mean()) if (c >= 0).any() else None for c in codes]
    if weights is None and opts.score_range not in (None, (0.0, 1.0)):
        _note_harness_scale(parts, opts.score_range)
    several = len({p.benchmark for p in parts}) > 1
    frames = []
    for part, code in zip(parts, codes, strict=True):
        keep = code >= 0
        q = pl.Series(part.questions, dtype=pl.String)
        if several:  # question ids repeat across tasks (1, 2, ...): qualify them
            q = part.benchmark + "/" + q
        frames.append(
            pl.DataFrame(
                {
                    "model": pl.Series([part.model] * len(code), dtype=pl.String),
                    "question": q,
                    "trial": pl.Series(part.trials, dtype=pl.Int64),
                    "outcome": pl.Series(code, dtype=pl.Int64),
                    "benchmark": pl.Series([part.benchmark] * len(code), dtype=pl.String),
                    # sample metadata (e.g. a subset): constant within every question, it
                    # becomes a question attribute in the assembly; otherwise it is ignored
                    **_attribute_columns(part, len(code)),
                }
            ).filter(pl.Series(keep))
        )
    df = metadata_attributes(pl.concat(frames, how="diagonal_relaxed"), parts,
                             opts.attributes or ())
    if df.height == 0:
        raise ValidationError(
            f"{parts[0].file}: no scored samples in "
            f"{count_text(len({p.file for p in parts}), 'log')}; "
            "nothing to load"
        )
    fmts = sorted({p.format for p in parts})
    # each file once, in read order: an lm-eval samples file gives one part per filter
    files = list(dict.fromkeys(p.file for p in parts))
    label = files[0] if len(files) == 1 else f"{len(files)} logs"
    shown = {k: v for p in parts for k, v in p.shown_ids.items()}
    for p in parts:
        if p.shown_ids:
            (k, v), n = next(iter(p.shown_ids.items())), len(p.shown_ids)
            p.notes.append(f"{count_text(n, 'question id')} cannot be shown as "
                           f"{'it is' if n == 1 else 'they are'} (markup, a leading "
                           f"formula character, control characters or length): read as "
                           f"stand-ins, e.g. {v!r} as {k!r}; the originals are in "
                           "metadata['question_ids']")
    rep = report(parts, skipped, means)
    if renamed:
        rep["model_names"] = renamed
    meta = {
        "format": "+".join(fmts),
        "source_file": files[0] if len(files) == 1 else files,
        "import_report": rep,
    }
    if shown:
        meta["question_ids"] = shown  # stand-in -> the log's own id
    if several:  # the tasks pooled into one view: said while a view holds several
        meta[POOLED] = True
    if weights is None and names is not None and all(_number(n) is not None for n in names):
        meta["score_range"] = list(opts.score_range or (0.0, 1.0))  # graded: combinable
    if category_names is None and (weights is None or not w):  # not w: the grades 0..C
        category_names = names
    opts = replace(
        opts,
        columns=None,
        model_map=None,  # applied above, to the log's names
        benchmark=None,  # chosen above (_select), perhaps as a group of tasks
        # one task names itself; a group read alone is named as a selection is ('x [B]')
        name=opts.name or (parts[0].benchmark if not several else
                           collection or "logs" if opts.benchmark is None
                           else f"{collection or 'logs'} [{opts.benchmark}]"),
        weights=w if weights is None else weights,
        category_names=category_names,
        score_range=None,  # applied above: the grades are categories with weights now
        samples="skip",  # the logs' own store comes below, not the metadata columns
    )
    try:
        out = _from_frame(df, "frame", label, opts, meta_extra=meta,
                          context=[c for c in df.columns if c not in _KEYS])
    except PartsDifferError:  # tasks of other models: said by the loader with their names
        raise
    except MissingCellsError as exc:  # a run cut short (lm-eval --limit, killed) says why
        why = [f"{p.model} on {p.benchmark}: {n}" for p in parts for n in p.notes
               if n.startswith(("lm-eval evaluated", "unfinished run", "run status"))]
        if not why:
            raise
        cut = [p.file for p in parts if _run_state(p) != "finished"]
        also = (f"; or load the logs without the {noun_text(len(cut), 'run')} that did not "
                f"finish ({', '.join(cut)})"
                if cut and len(cut) < len(parts)
                and _loads([p for p in parts if p.file not in cut], given) else "")
        raise MissingCellsError(said_of(exc) + f" ({'; '.join(why)}){also}") from None
    return out.with_samples(_log_store(parts, several, writer))
