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

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import ValidationError
from ..outcomes import Outcomes
from ._assemble import _from_frame
from ._base import MAX_ROWS, MissingCellsError, _Src
from .options import LoadOptions

if TYPE_CHECKING:
    import polars as pl
else:  # polars loads with the first table read, not with `import scorio_core.io`
    pl = lazy_module("polars")

_SHOW = 5
#: Inspect AI's score letters, in category order (0 = no answer), with default weights.
LETTERS = {"N": 0.0, "I": 0.0, "P": 0.5, "C": 1.0}
LETTER_NAMES = {"N": "N (no answer)", "I": "I (incorrect)", "P": "P (partial)", "C": "C (correct)"}
_TRUE = ("true", "yes", "correct")
_FALSE = ("false", "no", "incorrect")
_MAX_LEVELS = 21  # more distinct fractional values than this is a continuous score


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

    def add(self, question: Any, trial: int, value: Any, where: str, error: str | None = None):
        self.questions.append(str(question))
        self.trials.append(int(trial))
        self.values.append(value)
        self.where.append(where)
        self.errors.append(error)

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


def choose_scorer(available: Sequence[str], scorer: str | None, part: LogPart, what: str) -> str:
    """The scorer/metric to read: ``scorer`` if given, else the first (noted when several)."""
    if not available:
        raise ValidationError(f"{part.file}: no {what} found; expected at least one")
    if scorer is None:
        if len(available) > 1:
            part.notes.append(
                f"{len(available)} {what}s ({', '.join(available)}); used the first, "
                f"{available[0]!r} (choose with scorer= / --scorer NAME)"
            )
        return available[0]
    if scorer not in available:
        raise ValidationError(
            f"{part.file}: no {what} {scorer!r}; this log has {', '.join(map(repr, available))}"
        )
    return scorer


def _normal(v: Any) -> str | float | None:
    """A letter, a number in [0, 1], or ``None`` if the value cannot be a category."""
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, int | float):
        f = float(v)
        return f if math.isfinite(f) and 0.0 <= f <= 1.0 else None
    if isinstance(v, str):
        t = v.strip()
        if t in LETTERS:
            return t
        if t.lower() in _TRUE:
            return 1.0
        if t.lower() in _FALSE:
            return 0.0
        try:
            return _normal(float(t))
        except ValueError:
            return None
    return None


def _unmappable(part: LogPart, i: int, v: Any) -> ValidationError:
    shown = repr(v) if len(repr(v)) <= 80 else repr(v)[:77] + "..."
    score = f"score {part.scorer!r}" if part.scorer else "the score"
    return ValidationError(
        f"{part.file}: {part.where[i]}: {score} has the value {shown} "
        f"({type(v).__name__}), which cannot be mapped to an outcome category; expected "
        "C/I/P/N, a boolean or a number in [0, 1]"
    )


def categorize(
    parts: Sequence[LogPart],
) -> tuple[list[np.ndarray], list[str] | None, list[float]]:
    """Map the raw values of all parts to one set of categories.

    Letters ``C``/``I``/``P``/``N`` become categories ordered N, I, P, C (those present,
    always I and C) with weights 0, 0, 0.5, 1; booleans and 0/1 count as I/C and 0.5 as P
    alongside letters. Without letters, numbers in [0, 1] become one category per
    distinct value (sorted) weighted by the value itself -- binary when only 0 and 1
    occur -- so the Bayes@N mean is the mean score.

    Returns
    -------
    codes, category_names, weights
        ``codes[p][i]`` is the category of record ``i`` of part ``p`` (-1 where missing);
        ``category_names`` is ``None`` for binary outcomes (the default names).
    """
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
            n = _normal(v)
            if n is None:
                raise _unmappable(part, i, v)
            if isinstance(n, str):
                letters.add(n)
            else:
                numbers.add(n)
                if n not in (0.0, 1.0) and first_fraction is None:
                    first_fraction = (part, i)
            col.append(n)
        normal.append(col)
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
        levels = sorted(numbers | {0.0, 1.0})
        if len(levels) > _MAX_LEVELS:
            part, i = first_fraction
            raise ValidationError(
                f"{part.file}: {part.where[i]}: the score holds {len(levels)} distinct values "
                f"in [0, 1] across these logs (e.g. {part.values[i]!r}): a continuous score "
                f"cannot be an outcome category (at most {_MAX_LEVELS} levels); use a "
                "correct/incorrect scorer"
            )
        index = {x: j for j, x in enumerate(levels)}
        if levels == [0.0, 1.0]:
            names, weights = None, [0.0, 1.0]
        else:
            names = [f"{x:g}" for x in levels]
            weights = levels
    codes = [
        np.array([-1 if n is None else index[n] for n in col], dtype=np.int64) for col in normal
    ]
    return codes, names, weights


def _check_unique(parts: Sequence[LogPart]) -> None:
    seen: dict[tuple[str, str], LogPart] = {}
    for part in parts:
        key = (part.model, part.benchmark)
        if key in seen:
            raise ValidationError(
                f"{part.file}: two logs for the same model {part.model!r} and task "
                f"{part.benchmark!r}: {seen[key].file} and {part.file}; keep one per model and "
                "task (e.g. the latest run)"
            )
        seen[key] = part


def _fmt_trials(ts: Sequence[int]) -> str:
    if len(ts) > 2 and list(ts) == list(range(ts[0], ts[-1] + 1)):
        return f"{ts[0]}..{ts[-1]} ({len(ts)})"
    return ", ".join(map(str, ts)) + f" ({len(ts)})"


def _check_trials(parts: Sequence[LogPart]) -> None:
    by_bench: dict[str, list[LogPart]] = {}
    for part in parts:
        by_bench.setdefault(part.benchmark, []).append(part)
    for bench, group in by_bench.items():
        ref = group[0]
        for part in group[1:]:
            if part.trial_set() != ref.trial_set():
                raise MissingCellsError(
                    f"{part.file}: {part.trials_from or 'trials'}: the models have different "
                    f"trials (epochs) on {bench!r}: {ref.model!r} in {ref.file} has "
                    f"{_fmt_trials(ref.trial_set())}, {part.model!r} in {part.file} has "
                    f"{_fmt_trials(part.trial_set())}; every model needs the same trials "
                    "(pass on_missing='truncate' to keep the smallest common number)"
                )


def _check_errors(parts: Sequence[LogPart]) -> None:
    bad = [(p, i) for p in parts for i, e in enumerate(p.errors) if e is not None]
    if not bad:
        return
    shown = "; ".join(f"{p.file}: {p.where[i]}: {p.errors[i]}" for p, i in bad[:_SHOW])
    more = f" and {len(bad) - _SHOW} more" if len(bad) > _SHOW else ""
    raise MissingCellsError(
        f"{bad[0][0].file}: {len(bad)} sample(s) have no score (they errored or were not "
        f"scored), so their (model, question, trial) cells are missing: {shown}{more}. "
        "Re-run them, or pass on_missing='drop_questions' or 'truncate'"
    )


def report(parts: Sequence[LogPart], skipped: Sequence[str] = ()) -> dict[str, Any]:
    """The import report stored in ``Outcomes.metadata["import_report"]``."""
    files = []
    for p in parts:
        errored = sum(e is not None for e in p.errors)
        files.append(
            {
                "file": p.file,
                "format": p.format,
                "model": p.model,
                "benchmark": p.benchmark,
                "scorer": p.scorer,
                "records": len(p.values),
                "missing": errored,
                "notes": list(p.notes),
            }
        )
    out: dict[str, Any] = {
        "files": files,
        "n_files": len(files),
        "missing_samples": sum(f["missing"] for f in files),
    }
    notes = sorted({n for p in parts for n in p.notes})
    if notes:
        out["notes"] = notes
    if skipped:
        out["skipped_files"] = list(skipped)
    return out


def assemble_logs(
    parts: Sequence[LogPart],
    opts: LoadOptions,
    skipped: Sequence[str] = (),
) -> Outcomes:
    """One :class:`Outcomes` from the log parts (see the module docstring)."""
    on_missing, weights, category_names = opts.on_missing, opts.weights, opts.category_names
    records = sum(len(p.values) for p in parts)
    if records > MAX_ROWS:
        raise ValidationError(
            f"{parts[0].file}: the logs hold {records:,} records, more than the {MAX_ROWS:,} "
            "allowed (scorio_core.io.MAX_ROWS)"
        )
    _check_unique(parts)
    if on_missing == "error":
        _check_trials(parts)
        _check_errors(parts)
    codes, names, w = categorize(parts)
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
                }
            ).filter(pl.Series(keep))
        )
    df = pl.concat(frames, how="vertical")
    if df.height == 0:
        raise ValidationError(
            f"{parts[0].file}: no scored samples in {len(parts)} log(s); nothing to load"
        )
    fmts = sorted({p.format for p in parts})
    label = parts[0].file if len(parts) == 1 else f"{len(parts)} logs"
    meta = {
        "format": "+".join(fmts),
        "source_file": parts[0].file if len(parts) == 1 else [p.file for p in parts],
        "import_report": report(parts, skipped),
    }
    if category_names is None and weights is None:
        category_names = names
    opts = replace(
        opts,
        columns=None,
        name=opts.name or (parts[0].benchmark if not several else "logs"),
        weights=w if weights is None else weights,
        category_names=category_names,
    )
    return _from_frame(df, "frame", label, opts, meta_extra=meta)
