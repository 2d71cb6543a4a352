"""Long records -> :class:`~scorio_core.outcomes.Outcomes`: the one assembly, validation and
missing-cell policy that every loader goes through (private)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import (
    MAX_CATEGORY,
    Mention,
    Only,
    Said,
    ValidationError,
    as_names,
    checked_keywords,
    joined,
)
from ..formatting import count_text, noun_text, share_percent
from ..outcomes import LOAD_NOTES, MissingWeightsError, Outcomes, frozen
from ._base import MAX_ROWS, MissingCellsError, MissingColumnsError
from ._conditions import decoding_mask, filter_rows, model_identity, question_attributes
from .options import (
    MAX_GRADE_LEVELS,
    ROLE_NAMES,
    SUGGESTED_LEVELS,
    LoadOptions,
    mention,
    round_levels,
)

if TYPE_CHECKING:
    import polars as pl
else:  # polars loads with the first table read, not with `import scorio_core.io`
    pl = lazy_module("polars")

#: Column roles of a long table, in the order they are written.
ROLES = ROLE_NAMES  # the table roles, declared with the loader options
_REQUIRED = ROLES[:4]
_SHOW = 5  # how many offending rows/cells an error message lists
_MAX_PAIRS = 50_000_000  # (model, question) pairs; more means a wrong column mapping
_SIGNAL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
# Index columns written by pandas; ignored rather than turned into signals.
_INDEX_COLUMN = re.compile(r"^(|Unnamed: \d+|__index_level_\d+__|index)$")
_ROW = "__scorio_row__"
#: Most categories a graded score may have (both ends of its scale included); more distinct
#: values is a continuous score, which cannot be an outcome category.
_MAX_LEVELS = MAX_GRADE_LEVELS


def _row_note(fmt: str) -> str:
    return {
        "csv": "rows numbered from 1 below the header; CSV line = row + 1",
        "jsonl": "rows numbered from 1, i.e. the n-th JSON object",
        "parquet": "rows numbered from 1",
        "frame": "0-based row positions",
    }[fmt]


def _rows_msg(rows: np.ndarray, fmt: str, values: Sequence[Any] | None = None) -> str:
    """``"row 3 = 'x', row 7 = 'y' (and 4 more) (rows numbered from 1 ...)"``."""
    rows = np.asarray(rows)
    shown = rows[:_SHOW].tolist()
    if values is None:
        items = ", ".join(str(r) for r in shown)
        head = "row" if len(rows) == 1 else "rows"
    else:
        items = ", ".join(f"{r} = {v!r}" for r, v in zip(shown, values[:_SHOW], strict=False))
        head = "row"
    more = f" and {len(rows) - len(shown)} more" if len(rows) > len(shown) else ""
    return f"{head} {items}{more} ({_row_note(fmt)})"


#: Names other tools give the required roles' columns, most specific first (matched
#: case-insensitively after the role's own name); used for suggestions, never applied silently.
COLUMN_SYNONYMS: dict[str, tuple[str, ...]] = {
    "model": ("model_name", "model_id", "llm", "system", "engine"),
    "question": ("question_id", "qid", "problem_id", "problem", "item_id", "item", "task_id",
                 "doc_id", "prompt_id", "sample_id", "id"),
    "trial": ("trial_id", "repeat", "attempt", "sample_idx", "sample", "run", "epoch", "seed",
              "generation"),
    "outcome": ("correct", "is_correct", "passed", "pass", "success", "solved", "acc",
                "accuracy", "exact_match", "em", "score", "result", "label"),
}


@checked_keywords
def guess_columns(present: Sequence[str], roles: Sequence[str] = _REQUIRED,
                  names: Mapping[str, str] | None = None) -> dict[str, str]:
    """Role -> a present column that probably holds it, for the ``roles`` whose column
    (``names[role]``, default the role's own name) is absent: first that name in another
    case, else the first of :data:`COLUMN_SYNONYMS`; never a column that fills another
    role or is already guessed for one.

    Example
    -------
    >>> sc.io.guess_columns(["Model", "qid", "sample", "correct", "tokens"])
    {'model': 'Model', 'question': 'qid', 'trial': 'sample', 'outcome': 'correct'}
    >>> sc.io.guess_columns(["model", "question", "trial", "outcome"])
    {}
    """
    names = {r: str((names or {}).get(r, r)) for r in ROLES}
    # a string: names at its commas, never its letters ("llm,id" had guessed nothing)
    present = list(as_names(present, "present", noun="column names", example="llm,id"))
    roles = as_names(roles, "roles", noun="roles", example="model,question")
    unknown = [r for r in roles if r not in ROLES]
    if unknown:
        raise ValidationError(f"roles: unknown {noun_text(len(unknown), 'role')} "
                              f"{', '.join(map(repr, unknown))}; roles are {', '.join(ROLES)}")
    lower: dict[str, str] = {}
    for c in present:
        lower.setdefault(c.strip().lower(), c)
    open_ = [r for r in roles if names[r] not in present]
    used = {names[r] for r in ROLES if names[r] in present}
    out: dict[str, str] = {}
    # every role's own name in another case before any synonym
    for candidates in (lambda r: (names[r], r), lambda r: COLUMN_SYNONYMS.get(r, ())):
        for r in (r for r in open_ if r not in out):
            for name in candidates(r):
                c = lower.get(name.strip().lower())
                if c is not None and c not in used:
                    out[r] = c
                    used.add(c)
                    break
    return {r: out[r] for r in open_ if r in out}


def _column_roles(columns: Mapping[str, str] | None, present: list[str],
                  numbered: bool = False) -> dict[str, str]:
    """Role -> column of a table with columns ``present``; ``numbered`` (``number_trials``):
    the trial column is made from the rows (:func:`_numbered_trials`), so the table must
    have none."""
    columns = dict(columns or {})
    unknown = [k for k in columns if k not in ROLES]
    if unknown:
        raise ValidationError(
            f"columns= has unknown {noun_text(len(unknown), 'role')} "
            f"{', '.join(map(repr, unknown))}; roles are "
            f"{', '.join(ROLES)} (map role -> your column name, e.g. {{'model': 'llm'}})"
        )
    roles = {r: str(columns.get(r, r)) for r in ROLES}
    used = [roles[r] for r in ROLES if r in columns or r in _REQUIRED]
    dup = sorted({c for c in used if used.count(c) > 1})
    if dup:
        raise ValidationError(f"columns= maps several roles to the same column {dup[0]!r}")
    found = (", ".join(map(repr, present[:30])) + (" ..." if len(present) > 30 else "")
             if present else "no columns")  # an empty frame: not "found ;"
    if numbered and roles["trial"] in present:
        said = Mention(LoadOptions, "number_trials", role="name")
        drop = Said(Only("python", "drop "), Only("cli", "drop "), Only("app", "untick "))
        raise ValidationError(Said(
            f"the table has a trial column ({roles['trial']!r}), but ", said, " numbers the "
            "rows of a table that has none: ", drop, said, " to read the trials from the "
            "column, or leave the column out of the file to number the rows instead"))
    missing = [r for r in _REQUIRED if roles[r] not in present
               and not (numbered and r == "trial")]
    if missing:
        guesses = guess_columns(present, missing, roles)
        raise MissingColumnsError(
            f"expected columns {', '.join(repr(roles[r]) for r in _REQUIRED)} (+ optional "
            f"{roles['decoding']!r}, {roles['benchmark']!r} and numeric signal columns); "
            f"missing {', '.join(repr(roles[r]) for r in missing)}; found {found}",
            columns=tuple(roles[r] for r in missing),
            guesses=guesses,
            hinted=True,
            roles=tuple(missing),
            # no trial numbers (nor a column that looks like them): one row per repeat
            repeats=(roles["model"], roles["question"]) if missing == ["trial"]
            and not guesses else None,
        )
    for r in ("decoding", "benchmark"):
        if roles[r] not in present:
            if r in columns:
                raise MissingColumnsError(
                    f"columns= maps {r!r} to {roles[r]!r}, but there is no such column; "
                    f"found {found}",
                    columns=(roles[r],),
                    roles=(r,),
                )
            del roles[r]
    return roles


def _unquote(s: pl.Series) -> pl.Series:
    """Undo the formula-defusing apostrophe that spreadsheets and :func:`save_table` add."""
    return s.str.replace(r"^'([=+\-@\t\r])", "$1")


def _text_column(df: pl.DataFrame, col: str, fmt: str) -> pl.Series:
    """A label column as strings, refusing nulls/blanks and nested values."""
    s = df.get_column(col)
    if s.dtype.is_nested():
        raise ValidationError(f"column {col!r} must hold text labels; got type {s.dtype}")
    s = s.cast(pl.String)
    blank = (s.is_null() | (s.str.strip_chars() == "")).to_numpy()
    if blank.any():
        rows = df.get_column(_ROW).to_numpy()[blank]
        raise ValidationError(f"column {col!r} is empty at {blank.sum()} {_rows_msg(rows, fmt)}")
    return _unquote(s) if fmt == "csv" else s


#: What an empty outcome cell can be instead (the outcome column's readers say it).
EMPTY_OUTCOME = (". Fill them, or count them as missing trials: on_missing='drop_questions' "
                 "or on_missing='truncate'")


def _number_column(df: pl.DataFrame, col: str, fmt: str, what: str, *, whole: bool,
                   empty_hint: str = "") -> np.ndarray:
    """A numeric column (integer, non-negative if ``whole``); bad cells are reported by row
    (``empty_hint`` ends the message about empty cells)."""
    s = df.get_column(col)
    rows = df.get_column(_ROW)
    if s.dtype == pl.Boolean:
        s = s.cast(pl.Int64)
    elif s.dtype == pl.String:
        t = s.str.strip_chars().str.to_lowercase().replace({"true": "1", "false": "0"})
        num = t.cast(pl.Float64, strict=False)
        bad = (num.is_null() & s.is_not_null()).to_numpy()
        if bad.any():
            raise ValidationError(
                f"column {col!r} must hold {what}; found "
                f"{count_text(bad.sum(), 'non-numeric value')} at "
                f"{_rows_msg(rows.to_numpy()[bad], fmt, s.to_numpy()[bad].tolist())}"
            )
        s = num
    elif s.dtype == pl.Null:
        s = s.cast(pl.Float64)
    elif not s.dtype.is_numeric():
        raise ValidationError(f"column {col!r} must hold {what}; got values of type {s.dtype}")
    a = s.cast(pl.Float64).to_numpy()  # nulls -> NaN
    null = s.is_null().to_numpy()
    if null.any():
        raise ValidationError(
            f"column {col!r} must hold {what}; {count_text(null.sum(), 'cell')} "
            f"{'is' if null.sum() == 1 else 'are'} empty/null at "
            f"{_rows_msg(rows.to_numpy()[null], fmt)}"
            + empty_hint
        )
    checks = [(~np.isfinite(a), "NaN/infinite value", "")]
    if whole:
        checks += [(np.isfinite(a) & (a != np.round(a)), "fractional value", ""),
                   (a < 0, "negative value", "")]
        checks += [(a > MAX_CATEGORY, "implausibly large value", f" (> {MAX_CATEGORY})")]
    for bad, kind, limit in checks:
        if bad.any():
            raise ValidationError(
                f"column {col!r} must hold {what}; found {count_text(bad.sum(), kind)}{limit} at "
                f"{_rows_msg(rows.to_numpy()[bad], fmt, a[bad].tolist())}"
            )
    return a.astype(np.int64) if whole else a


def _trial_column(df: pl.DataFrame, col: str, fmt: str) -> np.ndarray:
    """Trial ids: whole numbers stay exact 64-bit integers (as floats, ids above 2**53
    would collide); other numbers are read as floats."""
    s = df.get_column(col)
    if s.dtype == pl.String or (s.dtype.is_integer() and s.dtype not in (pl.Int64, pl.UInt64)):
        text = s.str.strip_chars() if s.dtype == pl.String else s
        for dt in (pl.Int64, pl.UInt64):
            v = text.cast(dt, strict=False)
            if v.null_count() == s.null_count():  # every present cell parsed
                s = v
                break
    if s.dtype in (pl.Int64, pl.UInt64) and s.null_count() == 0:
        return s.to_numpy()
    if s.dtype.is_integer() and s.null_count() == 0:  # e.g. Int128 beyond 64 bits
        raise ValidationError(
            f"column {col!r} holds trial ids that do not fit in 64 bits (type {s.dtype}); "
            "number the trials 0..N-1"
        )
    return _number_column(df, col, fmt, "numeric trial ids", whole=False)


def _codes(s: pl.Series) -> tuple[list[str], np.ndarray]:
    """Distinct labels in order of first appearance and each row's code."""
    uniq = s.unique(maintain_order=True)
    codes = s.replace_strict(uniq, pl.Series(np.arange(len(uniq))), return_dtype=pl.Int64)
    return uniq.to_list(), codes.to_numpy()


def graded(values: Sequence[float] | np.ndarray, scale: tuple[float, float] | None,
           opts: LoadOptions) -> np.ndarray:
    """Graded scores as the loader options read them, before they become categories
    (:func:`grade_levels`; logs and tables alike): with ``correct_from``, each score at least
    it is the top of the scale and every other the bottom (continuous scores too); with
    ``round_grades=K``, each is the nearest of ``K`` evenly spaced levels of the scale
    (halves up); else as they are.

    Example
    -------
    >>> from scorio_core.io import LoadOptions
    >>> from scorio_core.io._assemble import graded
    >>> graded([0.12, 0.25, 0.97], None, LoadOptions(round_grades=5)).tolist()
    [0.0, 0.25, 1.0]
    >>> graded([3.0, 7.0, 9.5], (0, 10), LoadOptions(correct_from=7)).tolist()
    [0.0, 10.0, 10.0]
    """
    lo, hi = (0.0, 1.0) if scale is None else (float(scale[0]), float(scale[1]))
    a = np.asarray(values, dtype=float)
    if opts.correct_from is not None:
        return np.where(a >= opts.correct_from, hi, lo)
    if opts.round_grades is not None:
        k = np.floor((a - lo) / (hi - lo) * (opts.round_grades - 1) + 0.5)
        return lo + (hi - lo) * k / (opts.round_grades - 1)
    return a


def _continuous_advice(lo: float, hi: float) -> str:
    """What loads a continuous score on [lo, hi]: rounding to :data:`SUGGESTED_LEVELS`
    levels, which always leaves at most that many (fewer than :data:`_MAX_LEVELS`, so this
    refusal cannot recur), or a threshold that counts the scores above it correct (the
    scale's bottom stays a category, so it never counts every score one way). The options
    are named as each surface gives them (a :class:`~scorio_core._validation.Said`).

    Example
    -------
    >>> from scorio_core.io._assemble import _continuous_advice
    >>> from scorio_core.cli._common import cli_text
    >>> print(_continuous_advice(0, 10))
    round them: round_grades=11 (levels 0, 1, ..., 10), or count a score of at least a \
threshold correct, e.g. correct_from=5; or use a correct/incorrect scorer or outcome
    >>> print(cli_text(_continuous_advice(0, 1)).split(", or count")[0])
    round them: --round-grades 11 (levels 0, 0.1, ..., 1)
    """
    k, mid = SUGGESTED_LEVELS, float(f"{lo + (hi - lo) / 2:g}")
    return Said("round them: ", mention("round_grades", k),
                f" (levels {round_levels(k, (lo, hi))}), or count a score of at least a "
                "threshold correct, e.g. ", mention("correct_from", mid),
                "; or use a correct/incorrect scorer or outcome")


def grade_levels(
    values: Sequence[float] | np.ndarray,
    score_range: tuple[float, float] | None = None,
    *,
    where: str = "the score",
    example: str = "",
) -> tuple[list[float], list[str] | None, list[float]]:
    """The categories of a graded score -- the one rule for log scores
    (:func:`._logs.categorize`) and long tables (:func:`_read_grades`).

    One category per distinct value of ``values`` and per end of the scale ``score_range``
    (default [0, 1]), sorted, named by the value and weighted ``(v - lo) / (hi - lo)``, so
    the mean score is the mean grade (rescaled to [0, 1]); binary (default names, weights
    0 and 1) when only 0 and 1 occur on [0, 1]. The callers check that every value lies
    in the scale, naming the file, record or row.

    Parameters
    ----------
    values : sequence of float
        The grades (repeats allowed), each within ``score_range``.
    score_range : (lo, hi), optional
        The scale; default (0, 1).
    where, example
        Who holds the values and one of them, for the error message.

    Returns
    -------
    levels, names, weights
        The sorted distinct values, their names (``None``: binary) and weights.

    Raises
    ------
    ValidationError
        More than ``_MAX_LEVELS`` levels: a continuous score is not a category.

    Examples
    --------
    >>> from scorio_core.io._assemble import grade_levels
    >>> grade_levels([0.5, 1.0, 0.25, 0.5])
    ([0.0, 0.25, 0.5, 1.0], ['0', '0.25', '0.5', '1'], [0.0, 0.25, 0.5, 1.0])
    >>> grade_levels([7, 3], (0, 10))[2]
    [0.0, 0.3, 0.7, 1.0]
    >>> grade_levels([1.0, 0.0])
    ([0.0, 1.0], None, [0.0, 1.0])
    """
    lo, hi = (0.0, 1.0) if score_range is None else (float(x) for x in score_range)
    # + 0.0: a grade of -0.0 is the level 0, named "0"
    levels = np.unique(np.append(np.asarray(values, dtype=float).ravel(), [lo, hi])) + 0.0
    if levels.size > _MAX_LEVELS:
        eg = f" (e.g. {example})" if example else ""
        raise ValidationError(
            f"{where} holds {levels.size} distinct values in [{lo:g}, {hi:g}]{eg}: a "
            f"continuous score cannot be an outcome category (at most {_MAX_LEVELS} levels, "
            "both ends of the scale included); " + _continuous_advice(lo, hi)
        )
    out = levels.tolist()
    if out == [0.0, 1.0] and (lo, hi) == (0.0, 1.0):
        return out, None, [0.0, 1.0]
    names = [f"{x:g}" for x in out]
    if len(set(names)) < len(names):  # grades that differ past 6 digits keep their digits
        names = [repr(x) for x in out]
    return out, names, [(x - lo) / (hi - lo) for x in out]


def _drop_empty_outcomes(
    df: pl.DataFrame, col: str, meta_extra: Mapping[str, Any] | None
) -> tuple[pl.DataFrame, Mapping[str, Any] | None]:
    """Rows whose outcome cell is empty (null, blank text, NaN) left out, so their
    (model, question, trial) cells are missing and ``on_missing`` decides; the count goes
    to ``metadata["empty_outcomes"]``."""
    s = df.get_column(col)
    empty = s.is_null()
    if s.dtype == pl.String:
        empty = empty | (s.str.strip_chars() == "")
    elif s.dtype.is_float():
        empty = empty | s.is_nan()
    n = int(empty.sum())
    if not n:
        return df, meta_extra
    return df.filter(~empty), {**(meta_extra or {}), "empty_outcomes": n}


#: Text outcome values that read as "correct": the example ``correct=[...]`` a refusal offers
#: (any value of the data may be named; this only picks the example).
_CORRECT_WORDS = ("c", "correct", "right", "pass", "passed", "yes", "y", "success", "solved",
                  "ok", "true", "t", "1")


def _text_outcomes(df: pl.DataFrame, col: str, fmt: str,
                   opts: LoadOptions) -> tuple[pl.DataFrame, LoadOptions]:
    """A table's outcome column of text labels (``C``/``I``, ``correct``/``wrong``) read as
    categories named by their values, as a log's letter scores are: with ``correct=[...]``
    the values named there count as correct (1) and every other value as wrong (0) -- the
    column is replaced by category codes and ``opts`` by the values' names (those named last,
    weighted 1, the others 0) for :func:`.options.as_asked`, which makes them binary and says
    so in the data's notes. Without ``correct=`` it is refused, listing the distinct values
    with their counts and offering ``correct=[...]`` with one of them. A column whose cells
    are mostly numbers or true/false is left to the number readers, which name the rows of
    a stray word among them (a typo in a column of numbers).

    Example
    -------
    >>> import polars as pl
    >>> from scorio_core.io import LoadOptions
    >>> from scorio_core.io._assemble import _text_outcomes
    >>> df = pl.DataFrame({"outcome": ["C", "I", "C", " C "]})
    >>> out, opts = _text_outcomes(df, "outcome", "frame", LoadOptions(correct=("C",)))
    >>> out["outcome"].to_list(), opts.category_names, opts.weights
    ([1, 0, 1, 1], ('I', 'C'), (0.0, 1.0))
    >>> _text_outcomes(df.with_columns(pl.lit("wrong").alias("outcome")), "outcome", "frame",
    ...                LoadOptions())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: column 'outcome' holds text, not numbers: 'wrong' \
(4 rows). Name the values that count as correct, e.g. correct=['wrong'] ...
    """
    from ..outcomes import _names_category

    s = df.get_column(col)
    if s.dtype != pl.String and s.dtype != pl.Categorical and not isinstance(s.dtype, pl.Enum):
        return df, opts
    t = s.cast(pl.String).str.strip_chars()
    t = (_unquote(t) if fmt == "csv" else t).replace("", None)
    number = t.str.to_lowercase().replace({"true": "1", "false": "0"}).cast(pl.Float64,
                                                                             strict=False)
    text = int((number.is_null() & t.is_not_null()).sum())
    if 2 * text <= int(t.is_not_null().sum()):  # numbers (as text), a stray word among them:
        return df, opts  # the number reader names the rows of the stray cells
    labels = t.drop_nulls()
    order = labels.unique(maintain_order=True).to_list()  # first appearance
    count = dict(labels.value_counts().iter_rows())
    by_count = sorted(order, key=lambda v: -count[v])
    shown = ", ".join(f"{v!r} ({count_text(count[v], 'row')})" for v in by_count[:_SHOW_VALUES])
    if len(by_count) > _SHOW_VALUES:
        shown += f" and {len(by_count) - _SHOW_VALUES:,} more distinct values"
    right = next((v for v in by_count if v.casefold() in _CORRECT_WORDS), by_count[0])
    named = [opts.correct is not None and any(_names_category(c, v) for c in opts.correct)
             for v in order]
    if opts.correct is not None and not any(named):
        raise ValidationError(Said(
            mention("correct", tuple(opts.correct)), f" names no value of column {col!r}, "
            f"which holds {shown}; name the values that count as correct, e.g. ",
            mention("correct", (right,))))
    if opts.correct is None:
        mapped = ("" if len(by_count) > 4 else Said(Only(
            "python", f", or map them to numbers first, e.g. df[{col!r}] = df[{col!r}].map("
            + "{" + ", ".join(f"{v!r}: {int(v == right)}" for v in by_count) + "})")))
        scores = ("" if opts.correct_from is None else Said(
            "; ", mention("correct_from", opts.correct_from), " compares scores, which text "
            "values do not have"))
        raise ValidationError(Said(
            f"column {col!r} holds text, not numbers: {shown}. Name the values that count as "
            "correct, e.g. ", mention("correct", (right,)), " (every other value then counts "
            "as wrong)", mapped, scores, "; numbers load as they are: 0 wrong, 1 correct, "
            "whole-number categories 0..C with one weight each, or grades in [0, 1]"))
    given = [m for m in ("weights", "score_range", "round_grades", "category_names")
             if getattr(opts, m) is not None]
    if given:
        raise ValidationError(Said(
            f"column {col!r} holds text values ({', '.join(map(repr, by_count[:_SHOW_VALUES]))}"
            f"{', ...' if len(by_count) > _SHOW_VALUES else ''}), which ",
            mention("correct", tuple(opts.correct)), " makes binary by name; ",
            joined(" and ", [mention(m) for m in given]),
            f" {'applies' if len(given) == 1 else 'apply'} to numbers: drop "
            f"{'it' if len(given) == 1 else 'them'}"))
    if len(order) > MAX_CATEGORY:
        raise ValidationError(
            f"column {col!r} holds {len(order):,} distinct text values, more than the "
            f"{MAX_CATEGORY:,} categories an outcome may have; is it the outcome column?")
    names = [v for v, n in zip(order, named, strict=True) if not n] + \
        [v for v, n in zip(order, named, strict=True) if n]  # correct ones last
    codes = t.replace_strict(names, list(range(len(names))), default=None,
                             return_dtype=pl.Int64)
    df = df.with_columns(codes.alias(col))
    weights = (0.0,) * named.count(False) + (1.0,) * named.count(True)
    return df, replace(opts, category_names=tuple(names), weights=weights)


def _read_grades(
    df: pl.DataFrame, col: str, fmt: str, opts: LoadOptions, meta_extra: Mapping[str, Any] | None
) -> tuple[pl.DataFrame, LoadOptions, Mapping[str, Any] | None]:
    """A table's outcome column read as graded scores, when it holds them: with
    ``score_range``, or when some value is fractional. The column is replaced by the
    category codes of :func:`grade_levels` and ``opts`` by their weights and names (the
    file's own names win), so the assembly -- and each benchmark of a split -- sees
    categories 0..C as from any loader. Whole numbers >= 0 without ``score_range`` are
    left to the assembly (categories 0..C, which need ``weights`` above 1)."""
    scale = opts.score_range  # never with weights (LoadOptions refuses the two together)
    s = df.get_column(col)
    if scale is None and (s.dtype == pl.Boolean or (  # categories: read once, by the assembly
            s.dtype.is_integer() and s.null_count() == 0 and (s.len() == 0 or s.min() >= 0))):
        return df, opts, meta_extra
    lo, hi = scale if scale is not None else (0.0, 1.0)
    what = (
        "integer categories 0..C or grades in [0, 1]" if scale is None
        else f"numeric grades in the score range [{lo:g}, {hi:g}]"
    )  # fmt: skip
    a = _number_column(df, col, fmt, what, whole=False, empty_hint=EMPTY_OUTCOME)
    whole = a == np.round(a)
    if scale is None and whole.all() and not (a < 0).any():
        return df, opts, meta_extra
    rows = df.get_column(_ROW).to_numpy()

    def found(bad: np.ndarray) -> str:
        return _rows_msg(rows[bad], fmt, a[bad].tolist())

    if scale is not None:
        out = (a < lo) | (a > hi)
        if out.any():
            raise ValidationError(
                f"column {col!r} holds {count_text(out.sum(), 'value')} outside the score "
                f"range [{lo:g}, {hi:g}] given "
                f"with score_range at {found(out)}; give the range the scores really use"
            )
    elif (a < 0).any() or (a > 1).any():
        frac, neg = ~whole & ((a < 0) | (a > 1)), a < 0
        if frac.any():
            kind = f"{count_text(frac.sum(), 'fractional value')} outside [0, 1] at {found(frac)}"
        elif neg.any():
            kind = f"{count_text(neg.sum(), 'negative value')} at {found(neg)}"
        else:  # whole numbers above 1 beside fractions in [0, 1]
            k = int(np.argmax(~whole))
            kind = (f"{count_text((a > 1).sum(), 'value')} above 1 beside fractional grades "
                    f"(e.g. row {rows[k]} = "
                    f"{float(a[k])!r}) at {found(a > 1)}")  # fmt: skip
        raise ValidationError(Said(
            f"column {col!r} must hold whole-number categories 0..C or grades in [0, 1]; found "
            f"{kind}. For a score on another scale, give the scale, e.g. ",
            mention("score_range", (0, 10)), " for a 0-10 grade, and each value is weighted "
            "by where it lies on it (the bottom 0, the top 1); for whole-number categories "
            "0..C, fix those values and give one weight per category, e.g. ",
            mention("weights", (0, 0.5, 1))))
    elif opts.weights is not None:
        raise ValidationError(Said(
            f"column {col!r} holds {count_text((~whole).sum(), 'fractional value')} at "
            f"{found(~whole)}, but ",
            mention("weights"), " were given, which weight whole-number categories 0..C; drop "
            "the weights to read grades in [0, 1], each weighted by its value"))
    first = int(np.argmax(~whole)) if (~whole).any() else 0
    a_read = graded(a, (lo, hi), opts)  # as correct_from / round_grades read them
    levels, names, weights = grade_levels(
        np.unique(a_read), (lo, hi), where=f"column {col!r}",
        example=_rows_msg(rows[first : first + 1], fmt, [float(a[first])]),
    )  # fmt: skip
    codes = np.searchsorted(np.asarray(levels), a_read + 0.0)
    df = df.with_columns(pl.Series(col, codes, dtype=pl.Int64))
    opts = replace(
        opts, score_range=None, weights=tuple(weights),
        category_names=opts.category_names or (None if names is None else tuple(names)),
    )  # fmt: skip
    return df, opts, {**(meta_extra or {}), "score_range": [lo, hi]}


#: Most distinct outcome values a missing-weights message lists (then the first and last).
_SHOW_VALUES = 8
#: Most categories a missing-weights message writes an example weight list for.
_EXAMPLE_WEIGHTS = 6


def _no_weights_message(outcome: np.ndarray, rows: np.ndarray, fmt: str, col: str) -> str:
    """Why whole-number outcomes above 1 without weights do not load, and the fixes: the
    distinct values found; first the score range from 0 to the largest of them -- with any
    categories 0..C it weights category ``v`` by ``v / C``, so it is the remedy for grades
    (0/100, 0-10) and a linear weighting of categories alike, and it needs no list of
    ``C + 1`` numbers -- then one weight per category (a list only for a few categories).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.io._assemble import _no_weights_message
    >>> msg = _no_weights_message(np.array([0, 100, 0]), np.array([1, 2, 3]), "csv", "outcome")
    >>> msg.split(", but")[0], "score_range=[0, 100]" in msg, "0.01" in msg
    ("column 'outcome' holds the values 0, 100", True, False)
    >>> from scorio_core.cli._common import cli_text
    >>> "--score-range 0,100" in cli_text(msg), "score_range" in cli_text(msg)
    (True, False)
    """
    values = np.unique(outcome)
    C = int(values[-1])
    first = int(np.argmax(outcome > 1))
    if values.size <= _SHOW_VALUES:
        found = ", ".join(str(int(v)) for v in values)
    else:
        head = ", ".join(str(int(v)) for v in values[: _SHOW_VALUES - 2])
        found = f"{head}, ..., {C} ({values.size} distinct values)"
    if C + 1 <= _EXAMPLE_WEIGHTS:
        per_category = Said("e.g. ", mention("weights", tuple(
            float(f"{k / C:.3g}") for k in range(C + 1))))
    else:
        per_category = Said(f"{C + 1} of them, with ", mention("weights"))
    head = (f"column {col!r} holds the values {found}, but no category weights were given "
            "(nor a score range), which values above 1 need. ")
    tail = ("If the data are binary (0 wrong, 1 correct), the values above 1 are a mistake in "
            f"the file; the first is {outcome[first]} at "
            f"{_rows_msg(rows[first : first + 1], fmt)}.")
    categories = Said("one weight per category, ", per_category,
                      Only("app", ", among the upload's options"), ". ")
    if np.union1d(values, [0]).size > _MAX_LEVELS:  # grade_levels would refuse the scale
        k = SUGGESTED_LEVELS  # at most k levels whatever the values: this load succeeds
        return Said(
            head + f"With {values.size} distinct values they are too many categories for "
            f"a score scale (at most {_MAX_LEVELS} levels): if they are scores from 0 to "
            f"{C}, give the scale and round them, ", mention("score_range", (0, C)), " and ",
            mention("round_grades", k), f" (levels {round_levels(k, (0, C))}); or, for "
            f"categories 0..{C}, give ", categories, tail)
    return Said(
        head + f"If they are scores on a scale from 0 to {C}, give the scale, ",
        mention("score_range", (0, C)), f"; each value v then weighs v/{C}. If they are "
        f"categories 0..{C} with weights of their own, give ", categories, tail)


def _from_frame(
    df: pl.DataFrame,
    fmt: str,
    label: str,
    opts: LoadOptions,
    meta_extra: Mapping[str, Any] | None = None,
    *,
    grades: bool = False,
    context: Sequence[str] = (),
) -> Outcomes:
    """One :class:`Outcomes` from a long frame. ``grades``: the outcome column holds a
    table's own values, read as graded scores by :func:`_read_grades` when they are (the
    loaders' own frames hold categories 0..C with their weights). ``context``: columns of
    optional context about the question (a harness record's metadata, vetted by
    :func:`._logs.metadata_attributes`): candidates for question attributes only, never a
    signal nor refused as a broken one; a column of them without any value is passed over."""
    columns, on_missing, name = opts.column_map(), opts.on_missing, opts.name
    numbered = grades and opts.number_trials  # a table's own rows, not a loader's frame
    roles = _column_roles(columns, df.columns, numbered)
    if df.height == 0:
        what = "only a header row" if fmt == "csv" else "no rows"
        raise ValidationError(
            f"the table has no data ({what}: columns {', '.join(map(repr, df.columns))}); "
            "expected one row per completion"
        )
    if df.height > MAX_ROWS:
        raise ValidationError(
            f"the table has {df.height:,} rows, more than the {MAX_ROWS:,} allowed "
            "(scorio_core.io.MAX_ROWS)"
        )
    df = df.drop(_ROW, strict=False).with_row_index(_ROW, offset=0 if fmt == "frame" else 1)
    meta: dict[str, Any] = {"source_file": label, "format": fmt}
    df = filter_rows(df, opts.where, fmt, meta)  # row numbers stay the file's
    renamed: dict[str, str] = {}
    if opts.model_map:  # one model under several names (e.g. across harnesses)
        col = df.get_column(roles["model"]).cast(pl.String)
        mapping = {a: b for a, b in opts.model_map if a != b}
        renamed = {a: b for a, b in mapping.items() if a in set(col.unique().to_list())}
        if renamed:
            df = df.with_columns(col.replace(renamed).alias(roles["model"]))
        opts = replace(opts, model_map=None)
    if opts.benchmark is not None:
        # chosen before assembly: the other benchmarks' trials and models do not matter
        df = _only_benchmark(df, roles, fmt, opts.benchmark)
        if name is None and fmt != "frame":
            name = f"{Path(label).stem.strip('<>') or 'dataset'} [{opts.benchmark}]"
    if numbered:  # the rows kept, the models as named: each pair's repeats numbered
        df = _numbered_trials(df, roles, opts, fmt)
        meta_extra = {**(meta_extra or {}), "numbered_trials": True}
    if on_missing != "error":  # an empty outcome is a missing trial under the policy
        df, meta_extra = _drop_empty_outcomes(df, roles["outcome"], meta_extra)
    if grades:  # after the rows are chosen, before a split: one set of levels for all
        df, opts = _text_outcomes(df, roles["outcome"], fmt, opts)  # C/I, correct/wrong
        df, opts, meta_extra = _read_grades(df, roles["outcome"], fmt, opts, meta_extra)
    weights, category_names = opts.weights, opts.category_names
    if opts.benchmark is None and "benchmark" in roles:
        split = _split_benchmarks(df, roles, fmt, label, opts, meta_extra, context)
        if split is not None:
            return split
    rows = df.get_column(_ROW).to_numpy()
    if renamed:
        meta["model_names"] = renamed

    # every column is checked as a whole; bad cells are reported by row number
    model_text = _text_column(df, roles["model"], fmt)
    ident = model_identity(df, roles["model"], opts.model_columns, fmt)
    models, mi = _codes(model_text if ident is None else ident)
    questions, qi = _codes(_text_column(df, roles["question"], fmt))
    outcome = _number_column(df, roles["outcome"], fmt, "integer categories 0..C", whole=True,
                             empty_hint=EMPTY_OUTCOME)
    if weights is None and outcome.size and outcome.max() > 1:
        raise MissingWeightsError(_no_weights_message(outcome, rows, fmt, roles["outcome"]))
    trial = _trial_column(df, roles["trial"], fmt)
    greedy = decoding_mask(df, roles.get("decoding"), fmt, meta)
    L, M = len(models), len(questions)
    if ident is not None and greedy.any():
        greedy = _greedy_in_identity(greedy, mi, L, models, opts.model_columns, meta)
    if L * M > _MAX_PAIRS:
        raise ValidationError(
            f"{L:,} distinct models x {M:,} distinct questions is too many; check that "
            f"{roles['model']!r} and {roles['question']!r} are the right columns"
        )
    keys = pl.DataFrame({"m": mi, "q": qi, "g": greedy, "t": trial})
    _refuse_duplicates(keys, rows, models, questions, fmt)
    # position of each row within its (model, question, decoding) group, by trial value
    ti = (
        keys.select((pl.col("t").rank("ordinal").over(["m", "q", "g"]) - 1).cast(pl.Int64))
        .to_series()
        .to_numpy()
    )
    cnt = np.bincount((greedy * L + mi) * M + qi, minlength=2 * L * M).reshape(2, L, M)
    if cnt[0].max() == 0:
        raise ValidationError("every row has decoding 'greedy'; expected 'sample' rows to form R")
    keep, keep_q, N, D = _completeness(cnt, ti, qi, greedy, on_missing, models, questions, meta)
    if not keep_q.all():
        qi = (np.cumsum(keep_q) - 1)[qi]
        questions = [q for q, k in zip(questions, keep_q, strict=True) if k]
        M = len(questions)

    sample, prior = keep & ~greedy, keep & greedy
    R = np.zeros((L, M, N), dtype=np.int64)
    R[mi[sample], qi[sample], ti[sample]] = outcome[sample]
    R0 = None
    if D:
        R0 = np.zeros((L, M, D), dtype=np.int64)
        R0[mi[prior], qi[prior], ti[prior]] = outcome[prior]
    if not numbered:  # the file's own trial ids (numbered ones are the positions)
        _record_trial_ids(meta, trial[sample], mi[sample], qi[sample], ti[sample], (L, M, N))
    benchmarks = None
    if "benchmark" in roles:
        benchmarks = _benchmarks(df, roles["benchmark"], qi, keep, questions)

    used = set(roles.values()) | set(opts.model_columns or ()) | {_ROW}
    explicit = list(opts.attributes or ())
    for col in explicit:
        if col not in df.columns or col in used:
            what = "is a role or a model column" if col in used else "is not in the table"
            raise ValidationError(
                mention("attributes") + f" names column {col!r}, which {what}; columns: "
                + ", ".join(repr(c) for c in df.columns if c not in used)
            )
    signals: dict[str, np.ndarray] = {}
    text: list[str] = []
    why: dict[str, str] = {}
    missing: dict[str, int] = {}
    for col in df.columns:
        if col in used or col in explicit:
            continue
        if col in context:  # text about the question: an attribute or nothing
            if df.get_column(col).null_count() < df.height:
                text.append(col)
            continue
        vals = _signal_values(df, col, fmt)
        if vals is None:
            if df.get_column(col).dtype in (pl.String, pl.Categorical) and not _INDEX_COLUMN.match(
                col
            ):
                text.append(col)
            else:
                why[col] = "not a number or text column, or an index column"
            continue
        if not np.isfinite(vals[sample]).any():
            why[col] = "no value on any sample row"
            continue
        inf = sample & np.isinf(vals)
        if inf.any():
            raise ValidationError(
                f"signal column {col!r} holds infinite values at {_rows_msg(rows[inf], fmt)}; "
                "signals must be finite numbers (leave a cell empty when it has no value)"
            )
        # a missing value (empty cell, null, NaN) stays NaN: real tables have completions
        # that returned nothing; rubrics treat them by MISSING_SIGNAL_RULE
        signals[col] = np.full((L, M, N), np.nan)
        signals[col][mi[sample], qi[sample], ti[sample]] = vals[sample]
        n_missing = int(np.isnan(signals[col]).sum())
        if n_missing:
            missing[col] = n_missing
    attrs = question_attributes(df, text, explicit, qi, keep, questions, fmt, why)
    store = None
    text_cols = [c for c in text if c not in attrs]
    if text_cols and opts.samples == "keep":  # answers, responses, prompts: completion text
        store = _table_store(df, text_cols, sample, (models, mi), (questions, qi), ti, trial,
                             rows, label, fmt)
        meta["sample_columns"] = text_cols
    ignored = [c for c in df.columns if c in why]
    if ignored:
        meta["ignored_columns"] = ignored
        meta["ignored_why"] = {c: why[c] for c in ignored}
    if missing:
        meta["missing_signal_values"] = missing
    if columns:
        meta["columns"] = roles
    if opts.model_columns:
        meta["model_columns"] = list(opts.model_columns)
    meta.update(meta_extra or {})
    return Outcomes(
        R=frozen(R),
        R0=R0 if R0 is None else frozen(R0),
        weights=weights,
        category_names=category_names,
        models=models,
        questions=questions,
        benchmarks=benchmarks,
        signals=signals,
        question_attributes=attrs,
        name=name or Path(label).stem.strip("<>") or "dataset",
        metadata=meta,
        samples=store,
    )


def _numbered_trials(df: pl.DataFrame, roles: Mapping[str, str], opts: LoadOptions,
                     fmt: str) -> pl.DataFrame:
    """``df`` with a trial column (``roles["trial"]``) numbering its rows (``number_trials``):
    the rows of each (model, question) pair -- a model as ``model_columns`` name it, its
    greedy rows apart -- 0, 1, 2, ... in the order the file lists them.

    Example
    -------
    >>> import polars as pl
    >>> from scorio_core.io._assemble import _numbered_trials
    >>> df = pl.DataFrame({"model": ["a", "b", "a", "a"], "question": ["q", "q", "q", "r"],
    ...                    "__scorio_row__": [1, 2, 3, 4]})
    >>> roles = {"model": "model", "question": "question", "trial": "trial"}
    >>> _numbered_trials(df, roles, sc.io.LoadOptions(number_trials=True), "csv")["trial"].to_list()
    [0, 0, 1, 0]
    """
    ident = model_identity(df, roles["model"], opts.model_columns, fmt)
    keys = {"m": _text_column(df, roles["model"], fmt) if ident is None else ident,
            "q": _text_column(df, roles["question"], fmt),
            "g": decoding_mask(df, roles.get("decoding"), fmt, {})}
    trial = pl.DataFrame(keys).select(pl.int_range(pl.len()).over(list(keys)))
    return df.with_columns(trial.to_series().cast(pl.Int64).alias(roles["trial"]))


def _table_store(df, cols, sample, models, questions, ti, trial, rows, label, fmt):
    """The sampled rows' text columns as the sample store, keyed like ``R`` (greedy rows,
    which form ``R0``, are left out): one row per trial of ``R``, also where the row's
    text cells are empty (e.g. no answer could be parsed), so every trial keeps its own
    trial id and row number -- the Pair view shows them beside its score."""
    from ..samples import SampleStore

    (names, mi), (qnames, qi) = models, questions
    texts = [_unquote(df.get_column(c).cast(pl.String)) if fmt == "csv"
             else df.get_column(c).cast(pl.String) for c in cols]  # fmt: skip
    frame = pl.DataFrame({
        "model": pl.Series(np.asarray(names, dtype=object)[mi[sample]], dtype=pl.String),
        "question": pl.Series(np.asarray(qnames, dtype=object)[qi[sample]], dtype=pl.String),
        "trial": pl.Series(ti[sample], dtype=pl.Int64),
        "trial_id": pl.Series([_num(t) for t in trial[sample]], dtype=pl.String),
        "source": pl.Series([f"{label}: row {r}" for r in rows[sample]], dtype=pl.String),
        **{c: s.filter(pl.Series(sample)) for c, s in zip(cols, texts, strict=True)},
    })
    return SampleStore.from_frame(frame, keep_keys=True)


def _greedy_in_identity(
    greedy: np.ndarray,
    mi: np.ndarray,
    L: int,
    models: list[str],
    model_columns: Sequence[str] | None,
    meta: dict[str, Any],
) -> np.ndarray:
    """Greedy rows are their model's trials (not ``R0``) when the model identity tells them
    apart: every composed model is all greedy or all sampled (e.g. ``model x temperature``
    with T=0 greedy). Otherwise they stay ``R0`` of their model."""
    n_greedy = np.bincount(mi, weights=greedy, minlength=L)
    n_rows = np.bincount(mi, minlength=L)
    if not np.all((n_greedy == 0) | (n_greedy == n_rows)):
        return greedy
    only = [models[i] for i in np.flatnonzero(n_greedy == n_rows)]
    meta["decoding_note"] = (
        f"the model columns {', '.join(model_columns or ())} tell greedy rows apart, so each "
        f"model is decoded one way; the greedy rows are the trials of their own "
        f"{noun_text(len(only), 'model')} "
        f"({', '.join(only[:5])}{' ...' if len(only) > 5 else ''}), not a prior R0"
    )
    return np.zeros_like(greedy)


def _only_benchmark(df: pl.DataFrame, roles: dict[str, str], fmt: str, bench: str):
    """The rows of benchmark ``bench`` (an error listing the benchmarks if it has none)."""
    have = []
    if "benchmark" in roles:
        col = _unquote(df.get_column(roles["benchmark"]).cast(pl.String))
        keep = (col == bench).fill_null(False)
        if keep.any():
            return df.filter(keep)
        have = col.drop_nulls().unique(maintain_order=True).to_list()
    from ..outcomes import COMBINED

    raise ValidationError(
        f"unknown benchmark {bench!r}; this dataset has: {', '.join([COMBINED, *have])}"
    )


def _split_benchmarks(
    df: pl.DataFrame,
    roles: dict[str, str],
    fmt: str,
    label: str,
    opts: LoadOptions,
    meta_extra: Mapping[str, Any] | None,
    context: Sequence[str] = (),
) -> Outcomes | None:
    """Benchmarks whose trials (or greedy rows) per question differ -- an Inspect
    ``eval_set`` of tasks run with 2 and 3 epochs, an lm-eval folder of tasks with
    different ``repeats`` -- are assembled one by one, each with all its trials
    (``Outcomes.parts``); the combined view keeps the first trials they have in common.
    ``None`` when every benchmark has the same trials (one assembly does it all)."""
    bcol = _unquote(df.get_column(roles["benchmark"]).cast(pl.String))
    if bcol.null_count() or bcol.n_unique() < 2:
        return None
    greedy = decoding_mask(df, roles.get("decoding"), fmt, {})
    counts = (
        pl.DataFrame({"b": bcol, "m": df.get_column(roles["model"]).cast(pl.String),
                      "q": df.get_column(roles["question"]).cast(pl.String),
                      "g": greedy})  # fmt: skip
        .group_by(["b", "m", "q", "g"]).len()
        .group_by(["b", "g"], maintain_order=True).agg(pl.col("len").max())
    )
    shape: dict[str, list[int]] = {}
    for b, g, n in counts.iter_rows():
        shape.setdefault(b, [0, 0])[int(g)] = int(n)
    if len({tuple(v) for v in shape.values()}) < 2:
        return None
    names = bcol.unique(maintain_order=True).to_list()
    parts: dict[str, Outcomes] = {}
    for b in names:
        sub = replace(opts, benchmark=b, name=f"{opts.name or Path(label).stem or 'dataset'} [{b}]")
        parts[b] = _from_frame(df.filter(bcol == b), fmt, label, sub, meta_extra,
                               context=context)
    return _join_parts(parts, opts, label, meta_extra)


class PartsDifferError(MissingCellsError):
    """Benchmarks with different trials and different models: they cannot be combined.
    ``models`` (benchmark -> its models) and ``trials`` (benchmark -> N) let the loader of
    logs say it with the names each task shows alone and the options that load them."""

    def __init__(self, message: str, models: Mapping[str, Sequence[str]],
                 trials: Mapping[str, int]) -> None:
        super().__init__(message)
        self.models = {b: tuple(m) for b, m in models.items()}
        self.trials = dict(trials)


def parts_differ_text(models: Mapping[str, Sequence[str]], trials: Mapping[str, int],
                      loads: Sequence[str] | None = None, what: str = "benchmarks") -> str:
    """Why benchmarks with different trials and models cannot be combined: the models of
    the first group of benchmarks, then what each other group lacks and adds beside it
    (benchmarks with the same models said together), every name in full; and the loads
    that work: ``benchmark=`` each of ``loads`` (those tried and found to load; default:
    every benchmark).

    Example
    -------
    >>> from scorio_core.io._assemble import parts_differ_text
    >>> print(parts_differ_text({"a": ["x", "y"], "b": ["x", "z"]}, {"a": 2, "b": 1}))
    the benchmarks have different trials per question and different models, so they cannot \
be combined: a (2 trials) has x, y; b (1 trial) lacks y and adds z. Load one at a time: \
benchmark='a', or benchmark='b'
    """
    groups: dict[frozenset, tuple[list[str], list[str]]] = {}  # models -> (benchmarks, models)
    for b, ms in models.items():
        groups.setdefault(frozenset(ms), ([], list(ms)))[0].append(b)

    def head(bs: list[str]) -> str:
        ns = [trials[b] for b in bs]
        n = count_text(ns[0], "trial") if len(set(ns)) == 1 else f"{', '.join(map(str, ns))} trials"
        return f"{', '.join(bs)} ({n})"

    (first, ref), *rest = groups.values()
    said = [f"{head(first)} {'has' if len(first) == 1 else 'have'} {', '.join(ref)}"]
    for bs, ms in rest:
        lacks, adds = [m for m in ref if m not in ms], [m for m in ms if m not in ref]
        said.append(head(bs) + " " + " and ".join(
            x for x in (f"{'lacks' if len(bs) == 1 else 'lack'} {', '.join(lacks)}" if lacks
                        else "", f"{'adds' if len(bs) == 1 else 'add'} {', '.join(adds)}"
                        if adds else "") if x))
    loads = list(models) if loads is None else list(loads)
    how = (" Load one at a time: " + joined(", or ", [mention("benchmark", b) for b in loads])
           ) if loads else " None of them loads alone with these options either."
    return (f"the {what} have different trials per question and different models, so they "
            f"cannot be combined: {'; '.join(said)}." + how)


def _join_parts(
    parts: dict[str, Outcomes], opts: LoadOptions, label: str,
    meta_extra: Mapping[str, Any] | None,
) -> Outcomes:
    """The combined view of benchmarks with different trials: each benchmark's first
    ``N_min`` trials (and ``D_min`` greedy rows), the parts kept for :meth:`select`; each
    benchmark's question attributes (no value on the questions of a benchmark without
    one); what was left out said with counts (:attr:`Outcomes.load_notes`)."""
    first = next(iter(parts.values()))
    models = list(first.models)
    if any(sorted(p.models) != sorted(models) for p in parts.values()):
        have = {b: p.models for b, p in parts.items()}
        trials = {b: p.N for b, p in parts.items()}
        raise PartsDifferError(parts_differ_text(have, trials), have, trials)
    order = {b: [p.models.index(m) for m in models] for b, p in parts.items()}
    parts = {b: _reorder(p, order[b], models) for b, p in parts.items()}
    order = {b: list(range(len(models))) for b in parts}
    n_min = min(p.N for p in parts.values())
    d_min = min(p.D for p in parts.values())
    R = np.concatenate([p.R[order[b]][:, :, :n_min] for b, p in parts.items()], axis=1)
    R0 = None
    if d_min:
        R0 = np.concatenate(
            [np.asarray(p.R0_per_model)[order[b]][:, :, :d_min] for b, p in parts.items()], axis=1
        )
    common = set.intersection(*(set(p.signals) for p in parts.values()))
    signals = {
        k: np.concatenate([p.signals[k][order[b]][:, :, :n_min] for b, p in parts.items()], 1)
        for k in sorted(common)
    }
    keys = list(dict.fromkeys(k for p in parts.values() for k in p.question_attributes))
    attrs = {k: [v for p in parts.values() for v in p.question_attributes.get(k, [""] * p.M)]
             for k in keys if k not in signals}
    trials = {b: p.N for b, p in parts.items()}
    shown = ", ".join(f"{b}: {n}" for b, n in trials.items())
    notes = [Said(
        f"the benchmarks have different trials per question ({shown}): each is loaded as a "
        "benchmark of its own with all its trials (choose one with ", mention("benchmark"),
        f"); the combined view keeps the first {count_text(n_min, 'trial')} of every "
        "benchmark")]
    for k in attrs:
        lack = [b for b, p in parts.items() if k not in p.question_attributes]
        if lack:
            notes.append(f"question attribute {k!r} is not in every benchmark: the questions of "
                         f"{_listed(lack)} have no value in the combined view (left out of "
                         f"its subsets by {k})")
    meta: dict[str, Any] = {"source_file": label, "format": first.metadata.get("format"),
                            "trials_per_benchmark": trials, "combined_trials": n_min}  # fmt: skip
    ids = [p.metadata.get("trial_ids") for p in parts.values()]
    if all(i is not None for i in ids) and all(i[:n_min] == ids[0][:n_min] for i in ids):
        meta["trial_ids"] = ids[0][:n_min]
    meta.update(meta_extra or {})
    rep = meta.get("import_report")
    if isinstance(rep, dict):
        rep = {**rep, "notes": sorted({*rep.get("notes", []), *notes})}
        meta["import_report"] = rep
    else:
        meta["notes"] = notes
    for key in ("on_missing", "dropped_questions", "truncated_to_N"):
        got = {b: p.metadata[key] for b, p in parts.items() if key in p.metadata}
        if got:
            meta[key + "_per_benchmark"] = got
    # what each benchmark's own load left out holds in the combined view too; then what
    # combining them leaves out
    meta[LOAD_NOTES] = [{**n, "benchmarks": [b]} for b, p in parts.items()
                        for n in p.metadata.get(LOAD_NOTES, ())]
    for b, p in parts.items():
        for n, n_kept, what in ((p.N, n_min, "trial"), (p.D, d_min, "greedy row")):
            if n > n_kept:
                with_ = [c for c, q in parts.items() if (q.N if what == "trial" else q.D) == n_kept]
                _note_load(meta, (
                    f"{b}: {n - n_kept:,} of {count_text(n, what)} per question left out to "
                    f"combine it with the tasks of {count_text(n_kept, what)} "
                    f"({_listed(with_)}); analyse it alone, with all its {what}s, with "
                    + mention("benchmark", b)), [b])
    from ..samples import union

    return Outcomes(
        R=frozen(R), R0=R0 if R0 is None else frozen(R0),
        weights=first.weights, category_names=first.category_names,
        samples=union(p.samples for p in parts.values()),
        models=models,
        questions=[q for p in parts.values() for q in p.questions],
        benchmarks=[b for b, p in parts.items() for _ in range(p.M)],
        signals=signals, question_attributes=attrs,
        name=opts.name or Path(label).stem.strip("<>") or "dataset",
        metadata=meta, parts=parts,
    )  # fmt: skip


def _reorder(p: Outcomes, idx: list[int], models: list[str]) -> Outcomes:
    if list(p.models) == models:
        return p
    R0 = p.R0 if p.R0 is None or p.R0.ndim == 2 else p.R0[idx]
    return replace(p, R=frozen(p.R[idx]), R0=R0 if R0 is None else frozen(R0), models=models,
                   signals={k: v[idx] for k, v in p.signals.items()})  # fmt: skip


def _record_trial_ids(
    meta: dict[str, Any],
    trial: np.ndarray,
    mi: np.ndarray,
    qi: np.ndarray,
    ti: np.ndarray,
    shape: tuple[int, int, int],
) -> None:
    """Keep the file's own trial ids (``R`` numbers trials 0..N-1 by their order).

    ``metadata["trial_ids"]``: the N ids when every (model, question) pair uses the same
    ones (the usual case, e.g. Inspect epochs 1..N); otherwise
    ``metadata["trial_ids_per_pair"]``, a nested (L, M, N) list (up to 100,000 cells).
    """
    if trial.dtype.kind in "iu":  # exact integers (every cell is filled: R is complete)
        T = np.zeros(shape, dtype=trial.dtype)
        T[mi, qi, ti] = trial
        ids = T
    else:
        T = np.full(shape, np.nan)
        T[mi, qi, ti] = trial
        whole = bool(np.all(T == np.round(T)))
        ids = T.astype(np.int64) if whole else T
    if (T == T[:1, :1]).all():
        meta["trial_ids"] = ids[0, 0].tolist()
    elif T.size <= 100_000:
        meta["trial_ids_per_pair"] = ids.tolist()


def _refuse_duplicates(
    keys: pl.DataFrame, rows: np.ndarray, models: list[str], questions: list[str], fmt: str
) -> None:
    """Each (model, question, decoding, trial) may appear once."""
    dup = keys.is_duplicated()
    if not dup.any():
        return
    d = (
        keys.with_columns(row=pl.Series(rows))
        .filter(dup)
        .group_by(["m", "q", "g", "t"], maintain_order=True)
        .agg(pl.col("row"))
    )
    shown = [
        f"({models[m]!r}, {questions[q]!r}, trial {_num(t)}{', greedy' if g else ''}) "
        f"at rows {', '.join(map(str, r[:_SHOW]))}"
        for m, q, g, t, r in d.head(_SHOW).iter_rows()
    ]
    raise ValidationError(
        f"{count_text(d.height, '(model, question, trial) combination')} "
        f"{'appears' if d.height == 1 else 'appear'} more than once; each "
        f"completion must have its own trial id: {'; '.join(shown)} ({_row_note(fmt)})"
    )


def _completeness(
    cnt: np.ndarray,
    ti: np.ndarray,
    qi: np.ndarray,
    greedy: np.ndarray,
    on_missing: str,
    models: list[str],
    questions: list[str],
    meta: dict[str, Any],
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Apply ``on_missing`` to the per-(model, question) counts ``cnt`` (2, L, M).

    Returns the rows to keep, the questions to keep, ``N`` and ``D``; records what
    was dropped in ``meta``.
    """
    N, D = int(cnt[0].max()), int(cnt[1].max())
    short = (cnt[0] != N) | (cnt[1] != D)
    keep_q = np.ones(cnt.shape[2], dtype=bool)
    if not short.any():
        return np.ones(len(ti), dtype=bool), keep_q, N, D
    if on_missing == "error":
        raise MissingCellsError(_missing_msg(cnt, N, D, models, questions))
    if on_missing == "drop_questions":
        keep_q = ~short.any(axis=0)
        if not keep_q.any():
            raise MissingCellsError(
                f"on_missing='drop_questions' would drop all {len(questions)} questions: every "
                "question is incomplete for at least one model. "
                + _missing_msg(cnt, N, D, models, questions, tried="drop_questions")
            )
        meta.update(
            on_missing="drop_questions",
            dropped_questions=[questions[q] for q in np.flatnonzero(~keep_q)],
            n_questions_found=len(questions),
        )
        _note_load(meta, _dropped_note(cnt, short, keep_q, models, questions))
        return keep_q[qi], keep_q, N, D
    N_min, D_min = int(cnt[0].min()), int(cnt[1].min())
    if N_min == 0:
        raise MissingCellsError(
            "on_missing='truncate' cannot keep any trial: "
            + _missing_msg(cnt, N, D, models, questions, tried="truncate")
        )
    keep = ti < np.where(greedy, D_min, N_min)
    meta.update(
        on_missing="truncate",
        truncated_to_N=N_min,
        max_N_found=N,
        dropped_completions=int((~keep & ~greedy).sum()),
    )
    if D:
        meta["truncated_to_D"] = D_min
        if D_min == 0:
            meta["R0_dropped"] = "some (model, question) pairs have no greedy rows"
    _note_load(meta, _truncated_note(cnt, (N, D), (N_min, D_min), models))
    return keep, keep_q, N_min, D_min


def _note_load(meta: dict[str, Any], text: str | None, benchmarks: Sequence[str] = ()) -> None:
    """Record what the load did that changes the numbers (:data:`~scorio_core.outcomes.
    LOAD_NOTES`, read by :attr:`Outcomes.load_notes <scorio_core.outcomes.Outcomes.
    load_notes>`): about ``benchmarks``, or the whole load (nothing for no ``text``)."""
    if text:
        meta.setdefault(LOAD_NOTES, []).append({"text": text, "benchmarks": list(benchmarks)})


def _listed(names: Sequence[str], n: int = _SHOW) -> str:
    """``a, b, c`` or ``a, b, c, ... (12 in all)``."""
    head = ", ".join(map(str, names[:n]))
    return head if len(names) <= n else f"{head}, ... ({len(names):,} in all)"


def _dropped_note(cnt: np.ndarray, short: np.ndarray, keep_q: np.ndarray,
                  models: list[str], questions: list[str]) -> str:
    """``on_missing='drop_questions'`` in a sentence: the questions left out, which models
    lacked trials on them, and the completions of the others that went with them.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.io._assemble import _dropped_note
    >>> cnt = np.array([[[2, 2, 2], [2, 1, 2]], [[0, 0, 0], [0, 0, 0]]])  # (2, L, M)
    >>> short = cnt[0] != 2
    >>> note = _dropped_note(cnt, short, ~short.any(0), ["a", "b"], ["q1", "q2", "q3"])
    >>> note.split(" each ")[0], note.split("(b on ")[1][:10], note.split("with them ")[1][:13]
    ("on_missing='drop_questions' left out 1 of 3 questions (q2),", '1 question', '3 completions')
    """
    gone = ~keep_q
    who = short[:, gone].sum(axis=1)
    lacking = ", ".join(f"{models[m]} on {count_text(int(who[m]), 'question')}"
                        for m in np.flatnonzero(who))
    lost = int(cnt[:, :, gone].sum())
    return (f"on_missing='drop_questions' left out {int(gone.sum()):,} of "
            f"{count_text(len(questions), 'question')} "
            f"({_listed([questions[q] for q in np.flatnonzero(gone)])}), each incomplete for "
            f"some model ({lacking}), and with them {count_text(lost, 'completion')} the "
            "models gave on them: every model is scored on the questions all of them answered "
            "in full")


def _truncated_note(cnt: np.ndarray, most: tuple[int, int], kept: tuple[int, int],
                    models: list[str]) -> str | None:
    """``on_missing='truncate'`` in a sentence: the trials kept, the pairs that had fewer
    than the most, and the completions left out in all and per model (with their share);
    ``None`` when nothing was left out.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.io._assemble import _truncated_note
    >>> cnt = np.array([[[4, 4], [4, 3]], [[0, 0], [0, 0]]])  # alpha: 4, 4; beta: 4, 3
    >>> _truncated_note(cnt, (4, 0), (3, 0), ["alpha", "beta"]).split(": ", 2)[2]
    'alpha 2 of 8 (25.0%), beta 1 of 7 (14.3%)'
    """
    said = []
    for k, (most_k, kept_k, what) in enumerate(((most[0], kept[0], "trial"),
                                                (most[1], kept[1], "greedy row"))):
        if most_k <= kept_k:
            continue
        short = (cnt[k] < most_k).sum(axis=1)
        found = cnt[k].sum(axis=1)
        lost = np.clip(cnt[k] - kept_k, 0, None).sum(axis=1)
        fewer = ", ".join(f"{models[m]}: {int(short[m]):,}" for m in np.flatnonzero(short))
        per = ", ".join(f"{models[m]} {int(lost[m]):,} of {int(found[m]):,} "
                        f"({share_percent(lost[m] / found[m])})" for m in np.flatnonzero(lost))
        n_short = int(short.sum())
        said.append(
            f"kept the first {count_text(kept_k, what)} of every (model, question) pair, the "
            f"fewest a pair has ({count_text(n_short, 'pair')} {'has' if n_short == 1 else 'have'}"
            f" fewer than {most_k:,}; {fewer}), so {int(lost.sum()):,} of "
            f"{count_text(int(found.sum()), 'completion' if k == 0 else 'greedy row')} are "
            f"left out: {per}")
    return f"on_missing='truncate' {'; and '.join(said)}" if said else None


def _signal_values(df: pl.DataFrame, col: str, fmt: str) -> np.ndarray | None:
    """A numeric/boolean extra column as floats, or ``None`` if it is to be ignored."""
    s = df.get_column(col)
    if _INDEX_COLUMN.match(col):
        return None
    if s.dtype in (pl.String, pl.Categorical):
        _refuse_almost_numeric(df, col, fmt)
        return None
    if not (s.dtype.is_numeric() or s.dtype == pl.Boolean):
        return None  # dates, lists, structs, all-null ...
    if not _SIGNAL_NAME.match(col):
        raise ValidationError(
            f"numeric column {col!r} would become a signal, but signal names must be "
            "letters, digits and '_' (not starting with a digit, at most 64); rename it"
        )
    return s.cast(pl.Float64).to_numpy()


def _num(t: float) -> str:
    return str(int(t)) if float(t).is_integer() else repr(t)


def missing_advice(works: Sequence[str], fix: str = "Fix the file") -> str:
    """The closing advice of a missing-cells message: only the policies that would keep
    data for these very cells are recommended."""
    if not works:
        return (
            f"{fix}: neither on_missing='drop_questions' (no question is complete for every "
            "model) nor on_missing='truncate' (some model has no trial on some question) "
            "would keep any data."
        )
    return f"{fix} or pass " + " or ".join(f"on_missing={w!r}" for w in works) + "."


def _missing_msg(
    cnt: np.ndarray,
    N: int,
    D: int,
    models: list[str],
    questions: list[str],
    tried: str | None = None,
) -> str:
    L, M = cnt.shape[1:]
    parts = []
    short = np.argwhere(cnt[0] != N)
    if len(short):
        n_missing = int((N - cnt[0]).sum())
        eg = "; ".join(
            f"({models[m]!r}, {questions[q]!r}) has {cnt[0, m, q]} of {N}" for m, q in short[:_SHOW]
        )
        parts.append(
            f"{n_missing} of {L * M * N} (model, question, trial) cells are missing: "
            f"{len(short)} of {L * M} (model, question) pairs have fewer than N={N} trials "
            f"(N = the largest count found), e.g. {eg}"
        )
    short_g = np.argwhere(cnt[1] != D)
    if D and len(short_g):
        eg = "; ".join(
            f"({models[m]!r}, {questions[q]!r}) has {cnt[1, m, q]} of {D}"
            for m, q in short_g[:_SHOW]
        )
        parts.append(
            f"{len(short_g)} (model, question) pairs have fewer than D={D} greedy rows, e.g. {eg}"
        )
    short = (cnt[0] != N) | (cnt[1] != D)
    works = []
    if tried != "drop_questions" and (~short.any(axis=0)).any():
        works.append("drop_questions")
    if tried != "truncate" and cnt[0].min() > 0:
        works.append("truncate")
    return ". ".join(parts) + ". " + missing_advice(works)


def _benchmarks(
    df: pl.DataFrame, col: str, qi: np.ndarray, keep: np.ndarray, questions: list[str]
) -> list[str]:
    """One benchmark label per kept question (blank cells are ignored)."""
    s = _unquote(df.get_column(col).cast(pl.String))
    pairs = (
        pl.DataFrame({"q": qi, "b": s})
        .filter(pl.Series(keep))
        .drop_nulls()
        .unique(maintain_order=True)
    )
    per_q = np.bincount(pairs.get_column("q").to_numpy(), minlength=len(questions))
    if (per_q > 1).any():
        bad = np.flatnonzero(per_q > 1)[:_SHOW]
        labels = pairs.group_by("q", maintain_order=True).agg(pl.col("b"))
        by_q = dict(labels.iter_rows())
        eg = "; ".join(f"{questions[q]!r}: {', '.join(map(repr, by_q[q]))}" for q in bad)
        raise ValidationError(
            f"column {col!r} must give one benchmark per question; "
            f"{count_text((per_q > 1).sum(), 'question')} "
            f"{'has' if (per_q > 1).sum() == 1 else 'have'} several: {eg}"
        )
    if (per_q == 0).any():
        empty = np.flatnonzero(per_q == 0)
        raise ValidationError(
            f"column {col!r} is empty for every row of {noun_text(len(empty), 'question')} "
            f"{_listed([repr(questions[q]) for q in empty])}; expected one benchmark per "
            "question"
        )
    out = np.empty(len(questions), dtype=object)
    out[pairs.get_column("q").to_numpy()] = pairs.get_column("b").to_list()
    return out.tolist()


def non_numbers(s: pl.Series) -> np.ndarray | None:
    """The cells of a text column that are not numbers when at least half of its filled
    cells are numbers and not all (a table's broken signal column,
    :func:`_refuse_almost_numeric`); ``None`` otherwise. Harness metadata of that kind are
    no question attribute (:func:`._logs.metadata_attributes`): a table written from them
    could not be read back."""
    s = s.cast(pl.String)
    num = s.str.strip_chars().cast(pl.Float64, strict=False)
    present = s.is_not_null()
    n_present, n_num = int(present.sum()), int(num.is_not_null().sum())
    if n_present and n_num >= 0.5 * n_present and n_num < n_present:
        return (present & num.is_null()).to_numpy()
    return None


def _refuse_almost_numeric(df: pl.DataFrame, col: str, fmt: str) -> None:
    """A text column whose values are mostly numbers is a broken signal column."""
    s = df.get_column(col).cast(pl.String)
    bad = non_numbers(s)
    if bad is not None:
        rows = df.get_column(_ROW).to_numpy()[bad]
        raise ValidationError(
            f"column {col!r} looks numeric (a signal) but holds non-numbers at "
            f"{_rows_msg(rows, fmt, s.to_numpy()[bad].tolist())}; fix or remove those cells"
        )


