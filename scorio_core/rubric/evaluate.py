"""Applying a rubric: signals ``(L, M, N)`` -> categorical ``R`` -> a new :class:`Outcomes`.

Every condition is evaluated on whole ``(L, M, N)`` arrays (one NumPy
expression per comparison, a few masks alive at once whatever the rubric's size;
rubrics are bounded by ``MAX_RULES`` and ``MAX_CONDITIONS``); the only Python
loops run over rules and over the
groups of a percentile threshold (models or benchmarks), never over
completions. Percentiles use NumPy's default linear interpolation; a group
whose reference population is empty (e.g. a model with no wrong answers when
the threshold is taken ``among`` wrong answers) gets an undefined threshold and
every comparison against it is false.

Missing signal values (NaN, e.g. a completion the API never returned) follow
:data:`~scorio_core.outcomes.MISSING_SIGNAL_RULE`: a comparison that reads one is
*unknown*, and conditions combine with Kleene's three-valued logic -- ``~c`` of an
unknown ``c`` is unknown, ``a & b`` is false as soon as one term is false, ``a | b``
true as soon as one term is true. A rule matches only where its condition is *true*,
so a completion whose signal is missing falls through to the next rule or the
rubric's default (and a rubric without a default reports it). Each evaluator keeps a
"definitely true" mask per condition; the "definitely false" mask of ``c`` is the mask
of ``Not(c)``, built by De Morgan's laws, so data without missing values cost what
they did.

Rubrics read signals only. Binary data carry their correctness as the outcome, so a
rubric may also read :data:`DERIVED_SIGNALS` -- ``is_correct``, the outcome ``R`` as a
signal (1 correct, 0 wrong) -- when the data store no signal of that name: the presets
that combine correctness with other signals then apply to any binary table (e.g. a
length rubric over ``response_chars``). :func:`signal_names` lists what a rubric can read.

Example
-------
>>> import numpy as np
>>> from scorio_core.outcomes import Outcomes
>>> from scorio_core.rubric import Compare, Rubric, Rule, apply
>>> R = np.array([[[1, 0, 1, 1]]])
>>> o = Outcomes(R, signals={"is_correct": R, "has_box": [[[1, 1, 0, 1]]]})
>>> boxed_correct = Compare("is_correct", ">=", value=0.5) & Compare("has_box", ">=", value=0.5)
>>> r = Rubric("Boxed", ("other", "boxed correct"), (0.0, 1.0),
...            rules=(Rule(1, boxed_correct),), default=0)
>>> apply(r, o).R.tolist()
[[[1, 0, 0, 1]]]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from .._validation import ValidationError, checked_keywords
from ..outcomes import Outcomes, frozen
from .model import AllOf, AnyOf, Compare, Condition, Not, Rubric

__all__ = [
    "categorize", "apply", "category_distribution", "R0_NOTE", "DERIVED_SIGNALS",
    "signal_names", "readable_signals",
]  # fmt: skip

_OPS = {
    "<": np.less,
    "<=": np.less_equal,
    ">": np.greater,
    ">=": np.greater_equal,
    "==": np.equal,
    "!=": np.not_equal,
}

#: Why :func:`apply` keeps ``R0`` untouched.
R0_NOTE = (
    "R0 kept as the dataset's binary greedy outcomes (0 wrong, 1 correct); greedy decodes "
    "carry no signals, so they are not rubric categories — do not use them as a prior for "
    "the rubric's categorical R"
)


#: Signals a rubric can read that binary data need not store (name -> what it is).
DERIVED_SIGNALS = {
    "is_correct": "the outcome of binary data as a signal: 1 if correct, 0 if wrong (R); "
    "offered when the data store no signal of that name",
}


@checked_keywords
def signal_names(data: Outcomes) -> tuple[str, ...]:
    """The signals a rubric can read on ``data``: its own and, for binary data,
    ``is_correct`` (:data:`DERIVED_SIGNALS`), sorted.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.rubric.evaluate import signal_names
    >>> signal_names(sc.Outcomes(np.array([[[0, 1]]]), signals={"len": [[[3.0, 4.0]]]}))
    ('is_correct', 'len')
    """
    names = set(data.signals)
    if data.is_binary:
        names.add("is_correct")
    return tuple(sorted(names))


def readable_signals(data: Outcomes, names: Iterable[str] | None = None) -> dict[str, np.ndarray]:
    """The ``(L, M, N)`` arrays of the signals ``names`` (default: all of
    :func:`signal_names`), ``is_correct`` made from ``R`` when the data do not store it."""
    out = {}
    for n in signal_names(data) if names is None else names:
        if n in data.signals:
            out[n] = data.signals[n]
        elif n == "is_correct" and data.is_binary:
            out[n] = (data.R >= 1).astype(np.float64)
    return out


#: Most condition masks kept for reuse at once (conditions that several rules share).
MAX_CACHED_MASKS = 16


class _Evaluator:
    """Boolean masks of conditions on one dataset.

    Memory stays a few ``(L, M, N)`` masks whatever the rubric's size: a rule's mask
    is built, used and dropped; AND/OR fold their terms into one accumulator instead
    of stacking every term's mask. Masks of conditions that occur more than once in
    the rubric (``shared``) are kept for reuse, at most :data:`MAX_CACHED_MASKS` of
    them; percentile thresholds (small) are always cached, so conditions that differ
    only in ``op`` (``<= P40`` and ``> P40``) share one.
    """

    def __init__(
        self, data: Outcomes, signals: dict[str, np.ndarray],
        shared: frozenset[Condition] = frozenset(),
    ) -> None:
        self.data = data
        self.signals = signals  # readable_signals: the data's own and the derived ones
        self.shared = shared
        self.masks: dict[Condition, np.ndarray] = {}
        self.thresholds: dict[tuple, np.ndarray] = {}
        self.missing: dict[str, np.ndarray | None] = {}  # NaN mask of each signal read

    def mask(self, c: Condition) -> np.ndarray:
        """The mask of ``c``; callers may modify it unless ``c`` is in ``self.masks``."""
        hit = self.masks.get(c)
        if hit is not None:
            return hit
        m = self._mask(c)
        if c in self.shared and len(self.masks) < MAX_CACHED_MASKS:
            self.masks[c] = m
        return m

    def _owned(self, c: Condition) -> np.ndarray:
        m = self.mask(c)
        return m.copy() if c in self.masks else m

    def _mask(self, c: Condition) -> np.ndarray:
        if isinstance(c, Compare):
            x = self.signals[c.signal]
            if c.value is not None:
                m = _OPS[c.op](x, c.value)
            elif c.other is not None:
                m = _OPS[c.op](x, self.signals[c.other])
            else:
                thr = self.percentile(c)
                with np.errstate(invalid="ignore"):
                    m = _OPS[c.op](x, thr) & np.isfinite(thr)
            known = self._known(c)
            if known is not None:  # NaN != v is True in NumPy; a missing value is unknown
                m &= known
            return m
        if isinstance(c, AllOf | AnyOf):
            fold = np.logical_and if isinstance(c, AllOf) else np.logical_or
            acc = self._owned(c.terms[0])
            for t in c.terms[1:]:
                fold(acc, self.mask(t), out=acc)
            return acc
        if isinstance(c, Not):
            return self._false(c.term)
        raise TypeError(f"not a condition: {c!r}")  # pragma: no cover

    def _known(self, c: Compare) -> np.ndarray | None:
        """Where every signal ``c`` compares has a value (``None``: everywhere)."""
        names = [c.signal] + ([c.other] if c.other is not None else [])
        known = None
        for n in names:
            if n not in self.missing:
                self.missing[n] = np.isnan(self.signals[n])
                if not self.missing[n].any():
                    self.missing[n] = None
            miss = self.missing[n]
            if miss is not None:
                known = ~miss if known is None else known & ~miss
        return known

    def _false(self, c: Condition) -> np.ndarray:
        """Where ``c`` is definitely false (the mask of ``Not(c)``): unknown completions
        (a missing signal value) are neither in :meth:`mask` nor here."""
        if isinstance(c, Compare):
            m = ~self.mask(c)
            known = self._known(c)
            if known is not None:
                m &= known
            return m
        if isinstance(c, AllOf | AnyOf):  # De Morgan, on definite truth values
            fold = np.logical_or if isinstance(c, AllOf) else np.logical_and
            acc = self._owned(Not(c.terms[0]))
            for t in c.terms[1:]:
                fold(acc, self.mask(Not(t)), out=acc)
            return acc
        if isinstance(c, Not):
            return self._owned(c.term)
        raise TypeError(f"not a condition: {c!r}")  # pragma: no cover

    def percentile(self, c: Compare) -> np.ndarray:
        """Threshold broadcastable to ``(L, M, N)``; shared by conditions that only
        differ in ``op`` (e.g. ``<= P40`` and ``> P40``)."""
        key = (c.signal, c.percentile, c.scope, c.among)
        hit = self.thresholds.get(key)
        if hit is not None:
            return hit
        x = self.signals[c.signal]
        pop = None if c.among is None else self.mask(c.among)
        q = c.percentile
        if c.scope == "model":
            thr = np.array(
                [_pct(x[i], None if pop is None else pop[i], q) for i in range(x.shape[0])]
            )
            thr = thr[:, None, None]
        elif c.scope == "dataset" and self.data.benchmarks is not None:
            bench = np.asarray(self.data.benchmarks)
            thr = np.empty(x.shape[1])
            for b in self.data.benchmark_names:
                cols = bench == b
                thr[cols] = _pct(x[:, cols], None if pop is None else pop[:, cols], q)
            thr = thr[None, :, None]
        else:  # global, or a dataset without benchmark labels
            thr = np.asarray(_pct(x, pop, q))
        self.thresholds[key] = thr
        return thr


def _pct(x: np.ndarray, pop: np.ndarray | None, q: float) -> float:
    vals = x if pop is None else x[pop]
    vals = vals[~np.isnan(vals)]  # over the values present (missing signal values)
    return float(np.percentile(vals, q)) if vals.size else np.nan


def _repeated_conditions(rubric: Rubric) -> frozenset[Condition]:
    """Conditions that occur more than once in the rubric (worth keeping a mask for)."""
    seen: dict[Condition, int] = {}
    stack: list[Condition] = [r.when for r in rubric.rules]
    while stack:
        c = stack.pop()
        seen[c] = seen.get(c, 0) + 1
        if isinstance(c, AllOf | AnyOf):
            stack.extend(c.terms)
        elif isinstance(c, Not):
            stack.append(c.term)
        elif isinstance(c, Compare) and c.among is not None:
            stack.append(c.among)
    return frozenset(c for c, n in seen.items() if n > 1)


@checked_keywords
def categorize(rubric: Rubric, data: Outcomes) -> np.ndarray:
    """The category of every completion: integer array ``(L, M, N)``.

    Rules are tried in order and the first match wins; completions no rule
    matches get ``rubric.default``. Raises :class:`ValidationError` when the
    rubric reads a signal the data lack, or when completions are left without a
    category and the rubric has no default (naming how many and one example).
    """
    if not isinstance(rubric, Rubric):
        raise ValidationError(f"expected a Rubric; got {type(rubric).__name__}")
    if not isinstance(data, Outcomes):
        raise ValidationError(f"expected an Outcomes dataset; got {type(data).__name__}")
    rubric.check_signals(signal_names(data))
    signals = readable_signals(data, rubric.signals)
    ev = _Evaluator(data, signals, _repeated_conditions(rubric))
    cat = np.full(data.shape, -1, dtype=np.int16)
    for rule in rubric.rules:
        m = ev.mask(rule.when)
        cat[m & (cat < 0)] = rule.category
    left = cat < 0
    if left.any():
        if rubric.default is None:
            n = int(left.sum())
            m, q, t = (int(i) for i in np.argwhere(left)[0])
            values = ", ".join(f"{s}={signals[s][m, q, t]:g}" for s in rubric.signals)
            raise ValidationError(
                f"{n} of {left.size} completions match no rule of rubric {rubric.name!r}, which "
                f"has no default category; e.g. model {data.models[m]!r}, question "
                f"{data.questions[q]!r}, trial {t} ({values}). Add a rule that covers them or "
                "set 'default'"
            )
        cat[left] = rubric.default
    return cat.astype(np.int64)


@checked_keywords
def apply(rubric: Rubric, data: Outcomes) -> Outcomes:
    """``data`` re-scored by ``rubric``: categorical ``R``, the rubric's weights and
    category names; models, questions, benchmarks, signals and ``R0`` are kept.

    ``R0`` (greedy decodes) stays the dataset's binary outcome: greedy decodes
    have no signals, so they cannot be categorised (see :data:`R0_NOTE`, also
    stored in ``metadata["R0_note"]``). Use the result with
    :func:`scorio_core.leaderboard.leaderboard` without ``use_prior``.

    Examples
    --------
    >>> from scorio_core import io
    >>> from scorio_core.rubric import apply, get_preset
    >>> o = io.load("data/reasoning_synthetic.npz")  # doctest: +SKIP
    >>> apply(get_preset("dontpass/format-aware"), o).C  # doctest: +SKIP
    4
    """
    R = frozen(categorize(rubric, data))
    meta: dict[str, Any] = dict(data.metadata)
    meta["rubric"] = rubric.name
    if data.R0 is not None:
        meta["R0_note"] = R0_NOTE
    return dataclasses.replace(
        data,
        R=R,
        weights=rubric.weight_vector,
        category_names=rubric.categories,
        name=f"{data.name} · {rubric.name}",
        metadata=meta,
    )


@checked_keywords
def category_distribution(data: Outcomes) -> pd.DataFrame:
    """Share of each model's completions in each category (long format, for stacked bars).

    Columns ``model, category, name, weight, count, fraction``; one row per
    (model, category) in model order then category order, zeros included. Pass
    the output of :func:`apply` to see a rubric's distribution.

    Examples
    --------
    >>> from scorio_core.rubric.evaluate import category_distribution
    >>> import numpy as np
    >>> d = category_distribution(sc.Outcomes(np.array([[[0, 1, 1, 1]]]), models=["m"]))
    >>> d[["name", "fraction"]].values.tolist()
    [['wrong', 0.25], ['correct', 0.75]]
    """
    L, C1 = data.L, data.C + 1
    idx = data.R.reshape(L, -1) + C1 * np.arange(L)[:, None]
    counts = np.bincount(idx.ravel(), minlength=L * C1).reshape(L, C1)
    frac = counts / counts.sum(axis=1, keepdims=True)
    return pd.DataFrame(
        {
            "model": np.repeat(np.asarray(data.models, dtype=object), C1),
            "category": np.tile(np.arange(C1), L),
            "name": np.tile(np.asarray(data.category_names, dtype=object), L),
            "weight": np.tile(data.weights, L),
            "count": counts.ravel(),
            "fraction": frac.ravel(),
        }
    )
