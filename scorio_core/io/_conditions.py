"""What a real long table says besides the four roles (private): row filters (``where``),
model identities built from several columns (``model_columns``), the spellings of
``decoding``, and question attributes (text columns constant within each question).

Every function works on the polars frame :func:`._assemble._from_frame` reads, whose
``__scorio_row__`` column numbers the rows as the user sees them, so messages name the
file's rows even after a filter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import ValidationError
from ..formatting import count_text, noun_text
from ..outcomes import check_name
from .options import mention

if TYPE_CHECKING:
    import polars as pl
else:
    pl = lazy_module("polars")

_ROW = "__scorio_row__"
_SHOW_VALUES = 20
_ATTR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")

#: Accepted spellings of the ``decoding`` column (lower case, spaces removed).
SAMPLE_SPELLINGS = ("sample", "samples", "sampled", "sampling", "stochastic")
GREEDY_SPELLINGS = ("greedy", "argmax")


def _strings(df: pl.DataFrame, col: str, fmt: str) -> pl.Series:
    """A column as text (numbers in polars' own form, e.g. 0.7 -> '0.7'), CSV formula
    apostrophes removed."""
    s = df.get_column(col)
    if s.dtype.is_nested():
        raise ValidationError(f"column {col!r} must hold plain values; got type {s.dtype}")
    s = s.cast(pl.String)
    if fmt == "csv":
        s = s.str.replace(r"^'([=+\-@\t\r])", "$1")
    return s


def _distinct(s: pl.Series) -> str:
    vals = s.drop_nulls().unique(maintain_order=True)
    shown = ", ".join(repr(v) for v in vals.head(_SHOW_VALUES).to_list())
    more = f" and {vals.len() - _SHOW_VALUES} more" if vals.len() > _SHOW_VALUES else ""
    return f"{shown}{more}" if shown else "none (the column is empty)"


def filter_rows(
    df: pl.DataFrame,
    where: Sequence[tuple[str, Sequence[str]]] | None,
    fmt: str,
    meta: dict[str, Any],
) -> pl.DataFrame:
    """The rows that match every ``(column, values)`` of ``where`` (a row matches a column
    when its value is any of the values). Numeric columns compare numbers (``0.70``
    matches ``0.7``); text columns compare the text with surrounding spaces removed.

    Raises
    ------
    ValidationError
        For a column the table does not have (listing its columns), a value the column
        never takes (listing the values it does), or a filter that keeps no row.
    """
    if not where:
        return df
    present = [c for c in df.columns if c != _ROW]
    mask = pl.Series([True] * df.height)
    for col, values in where:
        if col not in present:
            raise ValidationError(
                mention("where") + f" names column {col!r}, which the table does not have; its "
                f"columns are {', '.join(map(repr, present))}"
            )
        s = df.get_column(col)
        if s.dtype.is_numeric():
            nums = []
            for v in values:
                try:
                    nums.append(float(v))
                except ValueError:
                    raise ValidationError(
                        mention("where") + f": column {col!r} holds numbers, and {v!r} is not "
                        f"a number; its values are {_distinct(s)}"
                    ) from None
            col_f = s.cast(pl.Float64)
            hits = [col_f.is_in([x]).fill_null(False) for x in nums]
        else:
            text = _strings(df, col, fmt).str.strip_chars()
            if s.dtype == pl.Boolean:
                text = text.str.to_lowercase()
                values = [v.lower() for v in values]
            hits = [(text == v).fill_null(False) for v in values]
        missing = [v for v, h in zip(values, hits, strict=True) if not h.any()]
        if missing:
            raise ValidationError(
                mention("where") + f": column {col!r} never takes the "
                f"{noun_text(len(missing), 'value')} "
                f"{', '.join(map(repr, missing))}; its values are {_distinct(s)}"
            )
        any_hit = hits[0]
        for h in hits[1:]:
            any_hit = any_hit | h
        mask = mask & any_hit
    if not mask.any():
        said = " and ".join(f"{c} in {list(v)}" for c, v in where)
        raise ValidationError(mention("where") + f": no row has {said} at once")
    meta["where"] = {c: list(v) for c, v in where}
    meta["rows_kept_by_where"] = f"{int(mask.sum()):,} of {df.height:,}"
    return df.filter(mask)


def model_identity(
    df: pl.DataFrame, model_col: str, model_columns: Sequence[str] | None, fmt: str
) -> pl.Series | None:
    """``model@col=value@...`` per row from ``model_columns`` (``None`` when unset)."""
    if not model_columns:
        return None
    present = [c for c in df.columns if c != _ROW]
    unknown = [c for c in model_columns if c not in present]
    if unknown:
        raise ValidationError(
            mention("model_columns") + f" names {noun_text(len(unknown), 'column')} "
            f"{', '.join(map(repr, unknown))}, "
            f"which the table does not have; its columns are {', '.join(map(repr, present))}"
        )
    ident = _strings(df, model_col, fmt)
    for col in model_columns[1:]:
        s = _strings(df, col, fmt).str.strip_chars()
        blank = (s.is_null() | (s == "")).to_numpy()
        if blank.any():
            rows = df.get_column(_ROW).to_numpy()[blank][:5].tolist()
            raise ValidationError(
                f"column {col!r} names part of the model (model_columns) but is empty at "
                f"{count_text(blank.sum(), 'row')}, e.g. {noun_text(len(rows), 'row')} "
                f"{', '.join(map(str, rows))}"
            )
        ident = ident + f"@{col}=" + s
    return ident


def decoding_mask(
    df: pl.DataFrame, col: str | None, fmt: str, meta: dict[str, Any]
) -> np.ndarray:
    """Boolean mask of greedy rows. Spellings: ``sample``, ``sampled``, ``sampling``,
    ``samples``, ``stochastic``, ``temperature>0`` (``temp``/``t``, any spacing) for
    sampling; ``greedy``, ``argmax``, ``temperature=0`` for greedy. Case and spaces
    are ignored; spellings other than ``sample``/``greedy`` are noted in
    ``meta["decoding_spellings"]``."""
    if col is None:
        return np.zeros(df.height, dtype=bool)
    raw = _strings(df, col, fmt)
    key = raw.str.replace_all(r"\s+", "").str.to_lowercase()
    greedy_t = key.str.contains(r"^(?:t|temp|temperature)(?:=|==)0(?:\.0*)?$").fill_null(False)
    sample_t = key.str.contains(r"^(?:t|temp|temperature)>0(?:\.0*)?$").fill_null(False)
    greedy = key.is_in(list(GREEDY_SPELLINGS)).fill_null(False) | greedy_t
    sample = key.is_in(list(SAMPLE_SPELLINGS)).fill_null(False) | sample_t
    bad = ~(greedy | sample).to_numpy()
    if bad.any():
        from ._assemble import _rows_msg  # one row formatter for every message

        vals = raw.to_numpy()[bad].tolist()
        raise ValidationError(
            f"column {col!r} must say how each completion was decoded: 'sample' (also "
            f"{', '.join(map(repr, SAMPLE_SPELLINGS[1:]))}, 'temperature>0') or 'greedy' "
            f"(also 'argmax', 'temperature=0'); found "
            f"{_rows_msg(df.get_column(_ROW).to_numpy()[bad], fmt, vals)}"
        )
    seen = (
        pl.DataFrame({"raw": raw.str.strip_chars(), "greedy": greedy})
        .unique(maintain_order=True)
        .iter_rows()
    )
    canonical = ("sample", "greedy")
    notes = {r: "greedy" if g else "sample" for r, g in seen if r.lower() not in canonical}
    if notes:
        meta["decoding_spellings"] = notes
    return greedy.to_numpy()


def question_attributes(
    df: pl.DataFrame,
    candidates: Sequence[str],
    explicit: Sequence[str],
    qi: np.ndarray,
    keep: np.ndarray,
    questions: Sequence[str],
    fmt: str,
    ignored: dict[str, str],
) -> dict[str, list[str]]:
    """One value per question for each column of ``explicit`` (an error when it varies
    within a question) and for each text column of ``candidates`` that is constant within
    every question (empty cells do not count; a question without a value gets ``""``),
    takes fewer distinct values than there are questions (a column with a different value
    on every question, e.g. the prompt, is text, not a subset) and holds valid names;
    other candidates go to ``ignored`` with the reason."""
    out: dict[str, list[str]] = {}
    M = len(questions)
    for col in list(explicit) + [c for c in candidates if c not in explicit]:
        must = col in explicit
        s = _strings(df, col, fmt).str.strip_chars()
        pairs = (
            pl.DataFrame({"q": qi, "v": s})
            .filter(pl.Series(keep))
            .drop_nulls()  # an empty cell gives no value; it does not contradict the others
            .unique(maintain_order=True)
        )
        per_q = np.bincount(pairs.get_column("q").to_numpy(), minlength=M)
        if (per_q > 1).any():
            if must:
                bad = np.flatnonzero(per_q > 1)[:5]
                by_q = dict(pairs.group_by("q", maintain_order=True).agg(pl.col("v")).iter_rows())
                eg = "; ".join(f"{questions[q]!r}: {', '.join(map(repr, by_q[q]))}" for q in bad)
                raise ValidationError(
                    mention("attributes") + f": column {col!r} must hold one value per "
                    f"question, but {count_text((per_q > 1).sum(), 'question')} "
                    f"{'has' if (per_q > 1).sum() == 1 else 'have'} several: {eg}"
                )
            ignored[col] = "text that varies within a question"
            continue
        values = np.full(M, "", dtype=object)
        q, v = pairs.get_column("q").to_numpy(), pairs.get_column("v").to_list()
        values[q] = v
        distinct = {x for x in values if x}
        why = None
        if not distinct:
            why = "empty on every row"
        elif not must and len(distinct) >= M > 1:
            why = "a different value on every question (per-question text, not a subset)"
        elif not _ATTR_NAME.match(col):
            why = "its name is not letters, digits and '_' (at most 64)"
        else:
            for x in distinct:
                try:
                    check_name(x, f"value of column {col!r}")
                except ValidationError as exc:
                    why = str(exc)
                    break
        if why is not None:
            if must:
                raise ValidationError(
                    mention("attributes") + f": column {col!r} cannot be a question "
                    f"attribute: {why}"
                )
            ignored[col] = why
            continue
        out[col] = values.tolist()
    return out
