"""The rubric data model: predicates over signals, ordered rules, weights, JSON (SPEC §7).

A :class:`Rubric` maps each completion's signals to one category ``0..C`` with
ordered rules -- the first rule whose condition holds gives the category -- and
scores category ``k`` with ``weights[k]``. Conditions are small frozen trees:

* :class:`Compare` -- ``signal op threshold`` where the threshold is a fixed
  ``value``, a ``percentile`` of the signal (computed per ``model``, per
  ``dataset`` = benchmark, or ``global``\\ly, optionally only ``among`` the
  completions satisfying another condition), or an ``other`` signal;
* :class:`AllOf`, :class:`AnyOf`, :class:`Not` -- Boolean combinations
  (also written ``a & b``, ``a | b``, ``~a``).

Everything round-trips through plain JSON dicts (:meth:`Rubric.to_json`,
:meth:`Rubric.from_json`); the JSON's shape is checked by the schema of
:mod:`scorio_core.rubric.schema` (pydantic, imported on the first parse), what ties fields
together by the constructors here, and every message names its JSON path. Evaluation
lives in :mod:`scorio_core.rubric.evaluate`.

Example
-------
>>> from scorio_core.rubric.model import Compare, Rubric, Rule
>>> correct = Compare("is_correct", ">=", value=0.5)
>>> r = Rubric("Binary", categories=("wrong", "correct"), weights=(0.0, 1.0),
...            rules=(Rule(1, correct),), default=0)
>>> Rubric.from_json(r.to_json()) == r
True
>>> print(Compare("completion_bpt", "<=", percentile=40, scope="model"))
completion_bpt <= P40[model]
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pandas as pd

from .._validation import (
    ValidationError,
    as_names,
    as_numbers,
    checked_keywords,
    checked_methods,
    parse_json,
)
from ..formatting import noun_text, weight_text
from ..outcomes import check_name

__all__ = [
    "OPS",
    "SCOPES",
    "Condition",
    "Compare",
    "AllOf",
    "AnyOf",
    "Not",
    "Rule",
    "Rubric",
    "to_json",
    "from_json",
    "save",
    "load",
]

#: Comparison operators a :class:`Compare` accepts.
OPS: tuple[str, ...] = ("<", "<=", ">", ">=", "==", "!=")
#: Where a percentile threshold is computed: per model (over its questions x trials),
#: per dataset (per benchmark when the data have benchmark labels, else over all
#: questions; all models pooled) or over every completion.
SCOPES: tuple[str, ...] = ("model", "dataset", "global")
#: ``"format"`` tag of rubric JSON and the version written by :meth:`Rubric.to_json`.
FORMAT = "scorio-rubric"
VERSION = 1
_MAX_TEXT = 2000
_MAX_DEPTH = 32
#: Bounds on a rubric's size (the papers' rubrics have 2-8 rules of a few conditions):
#: each condition costs one pass over the (L, M, N) signals.
MAX_RULES = 200
MAX_CONDITIONS = 2000


def _spend(c: Condition, budget: list[int]) -> bool:
    """Count the nodes of ``c`` against ``budget[0]``; False once it runs out."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if isinstance(c, _Junction):
        return all(_spend(t, budget) for t in c.terms)
    if isinstance(c, Not):
        return _spend(c.term, budget)
    among = getattr(c, "among", None)
    return among is None or _spend(among, budget)


def _number(x: Any, what: str) -> float:
    """A finite real number (booleans and strings refused)."""
    if isinstance(x, bool) or not isinstance(x, int | float | np.integer | np.floating):
        raise ValidationError(f"{what} must be a number; got {type(x).__name__} {x!r}")
    v = float(x)
    if not math.isfinite(v):
        raise ValidationError(f"{what} must be finite; got {x!r}")
    return v


def _text(x: Any, what: str) -> str:
    if not isinstance(x, str):
        raise ValidationError(f"{what} must be a string; got {type(x).__name__} {x!r}")
    if len(x) > _MAX_TEXT:
        raise ValidationError(f"{what} is {len(x)} characters long; at most {_MAX_TEXT}")
    return x


_SIGNAL = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")  # as Outcomes accepts them


def _signal_name(x: Any, what: str) -> str:
    if not isinstance(x, str) or not _SIGNAL.match(x):
        raise ValidationError(
            f"{what} must be a signal name (letters, digits and '_', not starting with a "
            f"digit); got {x!r}"
        )
    return x


def _fmt(x: float) -> str:
    return f"{x:g}"


# ------------------------------------------------------------------ conditions
@checked_methods  # named(), describe(); the subclasses' own: @checked_keywords
class Condition:
    """Base of the condition tree; ``&``, ``|`` and ``~`` build :class:`AllOf`,
    :class:`AnyOf` and :class:`Not`."""

    __slots__ = ()
    label: str

    def __and__(self, other: Condition) -> AllOf:
        return AllOf(_flat(AllOf, self) + _flat(AllOf, other))

    def __or__(self, other: Condition) -> AnyOf:
        return AnyOf(_flat(AnyOf, self) + _flat(AnyOf, other))

    def __invert__(self) -> Not:
        return Not(self)

    def named(self, label: str) -> Condition:
        """The same condition with a display ``label`` (e.g. ``"wrong_high_conf"``)."""
        return dataclasses.replace(self, label=label)  # type: ignore[type-var]

    @property
    def signals(self) -> frozenset[str]:
        """Every signal the condition reads."""
        raise NotImplementedError

    def describe(self, expand: bool = False) -> str:
        """Readable formula; labelled sub-conditions show their label unless ``expand``
        (which spells out every level)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.describe(expand=True)


def _flat(kind: type, c: Condition) -> tuple[Condition, ...]:
    """Operands of ``c`` when it is an unlabelled ``kind`` node, else ``(c,)``."""
    return c.terms if isinstance(c, kind) and not c.label else (c,)  # type: ignore[attr-defined]


def _as_condition(c: Any, what: str) -> Condition:
    if not isinstance(c, Condition):
        raise ValidationError(f"{what} must be a condition; got {type(c).__name__} {c!r}")
    return c


@checked_keywords
@dataclass(frozen=True)
class Compare(Condition):
    """``signal op threshold`` for every completion.

    Exactly one threshold kind: a fixed ``value``; a ``percentile`` in [0, 100]
    with a ``scope`` (``model``, ``dataset`` or ``global``) and optionally
    ``among`` (the percentile is taken over the completions satisfying that
    condition, e.g. only wrong answers); or ``other`` (another signal, compared
    completion by completion).
    """

    signal: str
    op: str
    value: float | None = None
    percentile: float | None = None
    scope: str | None = None
    among: Condition | None = None
    other: str | None = None
    label: str = ""

    def __post_init__(self) -> None:
        _signal_name(self.signal, "signal")
        if self.op not in OPS:
            raise ValidationError(
                f"comparison on {self.signal!r}: op must be one of {', '.join(OPS)}; "
                f"got {self.op!r}"
            )
        kinds = [k for k in ("value", "percentile", "other") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValidationError(
                f"comparison on {self.signal!r} needs exactly one threshold — a fixed "
                "'value', a 'percentile' (with 'scope') or an 'other' signal; got "
                + (", ".join(repr(k) for k in kinds) if kinds else "none")
            )
        if self.value is not None:
            object.__setattr__(self, "value", _number(self.value, f"value of {self.signal!r}"))
        if self.percentile is not None:
            q = _number(self.percentile, f"percentile of {self.signal!r}")
            if not 0.0 <= q <= 100.0:
                raise ValidationError(
                    f"percentile of {self.signal!r} must lie in [0, 100]; got {self.percentile!r}"
                )
            object.__setattr__(self, "percentile", q)
            if self.scope not in SCOPES:
                raise ValidationError(
                    f"percentile threshold on {self.signal!r} needs scope one of "
                    f"{', '.join(SCOPES)}; got {self.scope!r}"
                )
            if self.among is not None:
                _as_condition(self.among, f"'among' of the percentile on {self.signal!r}")
        else:
            for k in ("scope", "among"):
                if getattr(self, k) is not None:
                    raise ValidationError(
                        f"comparison on {self.signal!r}: {k!r} only goes with a 'percentile' "
                        "threshold"
                    )
        if self.other is not None:
            _signal_name(self.other, f"'other' signal compared with {self.signal!r}")
        _text(self.label, "label")

    @property
    def signals(self) -> frozenset[str]:
        out = {self.signal} | ({self.other} if self.other else set())
        return frozenset(out | (self.among.signals if self.among is not None else set()))

    def threshold_text(self, expand: bool = False) -> str:
        if self.value is not None:
            return _fmt(self.value)
        if self.other is not None:
            return self.other
        among = "" if self.among is None else f" | {self.among.describe(expand)}"
        return f"P{_fmt(self.percentile)}[{self.scope}{among}]"

    def describe(self, expand: bool = False) -> str:
        if self.label and not expand:
            return self.label
        return f"{self.signal} {self.op} {self.threshold_text(expand)}"


@dataclass(frozen=True)
class _Junction(Condition):
    """AND / OR of ``terms``: the shared body of :class:`AllOf` and :class:`AnyOf`."""

    terms: tuple[Condition, ...]
    label: str = ""
    _key = ""  # JSON key and error-message name ("all" / "any")
    _symbol = ""

    def __post_init__(self) -> None:
        _terms(self, self._key)

    @property
    def signals(self) -> frozenset[str]:
        return frozenset().union(*(t.signals for t in self.terms))

    def describe(self, expand: bool = False) -> str:
        if self.label and not expand:
            return self.label
        return f" {self._symbol} ".join(_paren(t, expand) for t in self.terms)


@checked_keywords
@dataclass(frozen=True)
class AllOf(_Junction):
    """True where every term holds."""

    _key = "all"
    _symbol = "∧"


@checked_keywords
@dataclass(frozen=True)
class AnyOf(_Junction):
    """True where at least one term holds."""

    _key = "any"
    _symbol = "∨"


@checked_keywords
@dataclass(frozen=True)
class Not(Condition):
    """True where ``term`` does not hold."""

    term: Condition
    label: str = ""

    def __post_init__(self) -> None:
        _as_condition(self.term, "'not' operand")
        _text(self.label, "label")

    @property
    def signals(self) -> frozenset[str]:
        return self.term.signals

    def describe(self, expand: bool = False) -> str:
        if self.label and not expand:
            return self.label
        return f"¬{_paren(self.term, expand)}"


def _terms(node: _Junction, key: str) -> None:
    terms = node.terms
    if isinstance(terms, Condition) or not isinstance(terms, Iterable) or isinstance(terms, str):
        raise ValidationError(f"{key!r} takes a list of conditions; got {terms!r}")
    terms = tuple(terms)
    if not terms:
        raise ValidationError(f"{key!r} needs at least one condition; got an empty list")
    for i, t in enumerate(terms):
        _as_condition(t, f"{key!r} term {i}")
    object.__setattr__(node, "terms", terms)
    _text(node.label, "label")


def _paren(c: Condition, expand: bool) -> str:
    s = c.describe(expand)
    return f"({s})" if isinstance(c, _Junction) and (expand or not c.label) else s


# ----------------------------------------------------------------------- rules
@checked_keywords
@dataclass(frozen=True)
class Rule:
    """``when`` holds -> ``category`` (unless an earlier rule matched)."""

    category: int
    when: Condition
    label: str = ""

    def __post_init__(self) -> None:
        c = self.category
        if isinstance(c, bool) or not isinstance(c, int | np.integer) or c < 0:
            raise ValidationError(f"rule category must be an integer >= 0; got {c!r}")
        object.__setattr__(self, "category", int(c))
        _as_condition(self.when, "rule condition ('when')")
        _text(self.label, "rule label")


@checked_keywords
@dataclass(frozen=True)
class Rubric:
    """Signals -> categories -> weights.

    Parameters
    ----------
    name : str
        Display name (also the scheme label in comparisons).
    categories : sequence of str
        Category names, index ``0..C``. By convention category 0 holds invalid
        outputs (degenerate repetition, off-task answers).
    weights : sequence of float
        Value of each category (one per category, finite).
    rules : sequence of Rule
        Ordered: the first rule that matches a completion gives its category.
    default : int, optional
        Category for completions no rule matches. Without it such completions are
        an error (never silently assigned).
    category_descriptions : sequence of str, optional
        One per category (empty strings when omitted).
    description, intent, source : str
        What the rubric does, what it is for, and where it comes from.
    """

    name: str
    categories: tuple[str, ...]
    weights: tuple[float, ...]
    rules: tuple[Rule, ...]
    default: int | None = None
    category_descriptions: tuple[str, ...] = ()
    description: str = ""
    intent: str = ""
    source: str = ""
    _signals: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_name(_text(self.name, "rubric name"), "rubric name")
        cats = _seq(self.categories, "categories", lambda t: as_names(
            t, "categories", noun="category names", example="wrong,correct"))
        if len(cats) < 2:
            raise ValidationError(
                f"a rubric needs at least 2 categories (0..C with C >= 1); got {len(cats)}"
            )
        cats = tuple(
            check_name(_text(c, f"category {i} name"), "category name") for i, c in enumerate(cats)
        )
        dup = sorted({c for c in cats if cats.count(c) > 1})
        if dup:
            raise ValidationError(f"category names must be unique; duplicated: {dup}")
        w = _seq(self.weights, "weights",
                 lambda t: as_numbers(t, "weights", kind=float, example="0,1"))
        if len(w) != len(cats):
            raise ValidationError(
                f"weights must have one entry per category: {len(cats)} categories "
                f"({', '.join(cats)}) but {len(w)} weights"
            )
        w = tuple(_number(x, f"weight of category {i} ({cats[i]})") for i, x in enumerate(w))
        rules = _seq(self.rules, "rules")
        if not rules:
            raise ValidationError(
                "a rubric needs at least one rule (ordered: the first matching rule gives the "
                "category); got none"
            )
        if len(rules) > MAX_RULES:
            raise ValidationError(
                f"a rubric may have at most {MAX_RULES} rules; got {len(rules)}"
            )
        C = len(cats) - 1
        budget = [MAX_CONDITIONS]
        for i, r in enumerate(rules):
            if not isinstance(r, Rule):
                raise ValidationError(f"rule {i} must be a Rule; got {type(r).__name__}")
            if r.category > C:
                raise ValidationError(
                    f"rule {i} assigns category {r.category}, but the rubric defines categories "
                    f"0..{C} ({', '.join(cats)})"
                )
            if not _spend(r.when, budget):
                raise ValidationError(
                    f"a rubric may hold at most {MAX_CONDITIONS} conditions in all (every "
                    f"comparison, and/or/not and 'among' counts); rule {i} goes past it"
                )
        d = self.default
        if d is not None:
            if isinstance(d, bool) or not isinstance(d, int | np.integer) or not 0 <= d <= C:
                raise ValidationError(
                    f"default must be a category 0..{C} or None (no default); got {d!r}"
                )
            d = int(d)
        desc = _seq(self.category_descriptions, "category_descriptions")
        if not desc:
            desc = ("",) * len(cats)
        if len(desc) != len(cats):
            raise ValidationError(
                f"category_descriptions must have one entry per category ({len(cats)}); "
                f"got {len(desc)}"
            )
        desc = tuple(_text(x, f"description of category {i}") for i, x in enumerate(desc))
        for key in ("description", "intent", "source"):
            _text(getattr(self, key), key)
        for key, val in [
            ("categories", cats),
            ("weights", w),
            ("rules", rules),
            ("default", d),
            ("category_descriptions", desc),
            ("_signals", frozenset().union(*(r.when.signals for r in rules))),
        ]:
            object.__setattr__(self, key, val)

    # ------------------------------------------------------------- properties
    @property
    def C(self) -> int:
        """Highest category index."""
        return len(self.categories) - 1

    @property
    def signals(self) -> tuple[str, ...]:
        """Signals the rules read, sorted."""
        return tuple(sorted(self._signals))

    @property
    def weight_vector(self) -> np.ndarray:
        """``weights`` as a float array ``(C+1,)``."""
        return np.asarray(self.weights, dtype=float)

    def with_weights(self, weights: Sequence[float]) -> Rubric:
        """The same rules scored with other weights (validated)."""
        return _replace(self, weights=weights)  # read as the constructor reads it ("0,1")

    def check_signals(self, available: Iterable[str]) -> None:
        """Raise if the rubric reads a signal that is not ``available``."""
        have = sorted(as_names(available, "signals", noun="signal names")  # "a,b": not letters
                      if isinstance(available, str) else available)
        missing = [s for s in self.signals if s not in have]
        if not missing:
            return
        hints = []
        for s in missing:
            close = difflib.get_close_matches(s, have, n=1)
            if close:
                hints.append(f"{s!r} -> did you mean {close[0]!r}?")
        raise ValidationError(
            f"rubric {self.name!r} uses {noun_text(len(missing), 'signal')} "
            f"{', '.join(map(repr, missing))} that the data "
            "do not have; available signals: "
            + (", ".join(have) if have else "none (the dataset carries no per-completion signals)")
            + (f" ({'; '.join(hints)})" if hints else "")
        )

    # --------------------------------------------------------------- display
    def rules_table(self) -> pd.DataFrame:
        """One row per rule in evaluation order (plus the default, if any):
        ``order, category, name, weight, condition`` (named sub-conditions shown by
        name) and ``formula`` (everything spelled out)."""
        rows = [
            {
                "order": i + 1,
                "category": r.category,
                "name": self.categories[r.category],
                "weight": self.weights[r.category],
                "condition": r.label or r.when.describe(),
                "formula": r.when.describe(expand=True),
            }
            for i, r in enumerate(self.rules)
        ]
        if self.default is not None:
            rows.append(
                {
                    "order": len(rows) + 1,
                    "category": self.default,
                    "name": self.categories[self.default],
                    "weight": self.weights[self.default],
                    "condition": "(default: no rule matched)",
                    "formula": "",
                }
            )
        return pd.DataFrame(rows)

    def categories_table(self) -> pd.DataFrame:
        """One row per category: ``category, name, weight, description``."""
        return pd.DataFrame(
            {
                "category": np.arange(self.C + 1),
                "name": list(self.categories),
                "weight": list(self.weights),
                "description": list(self.category_descriptions),
            }
        )

    def summary(self) -> str:
        """Multi-line text: name, intent, categories with weights, rules in order."""
        lines = [self.name]
        for key in ("intent", "description", "source"):
            if getattr(self, key):
                lines.append(f"{key}: {getattr(self, key)}")
        lines.append("categories (weight):")
        for k, (c, w, d) in enumerate(
            zip(self.categories, self.weights, self.category_descriptions, strict=True)
        ):
            lines.append(f"  {k}: {c} ({weight_text(w)})" + (f" — {d}" if d else ""))
        lines.append("rules (first match wins):")
        for i, r in enumerate(self.rules):
            name = r.label or r.when.label
            formula = r.when.describe(expand=True)
            lines.append(f"  {i + 1}. {name + ' = ' if name else ''}{formula} -> {r.category}")
        if self.default is not None:
            lines.append(f"  otherwise -> {self.default}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """Plain JSON-serialisable dict (``json.dumps`` works on it)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "description": self.description,
            "intent": self.intent,
            "source": self.source,
            "categories": [
                {"name": c, "description": d}
                for c, d in zip(self.categories, self.category_descriptions, strict=True)
            ],
            "weights": list(self.weights),
            "rules": [
                {"category": r.category, "when": _cond_to_json(r.when)}
                | ({"label": r.label} if r.label else {})
                for r in self.rules
            ],
            "default": self.default,
        }

    @classmethod
    def from_json(
        cls, obj: Mapping[str, Any] | str | bytes, *, signals: Iterable[str] | None = None
    ) -> Rubric:
        """Build and validate a rubric from :meth:`to_json` output (a dict or JSON text).

        ``signals``, when given, also checks that every signal the rules read exists.
        """
        from .schema import parse_rubric  # pydantic: imported on the first parse

        if isinstance(obj, str | bytes | bytearray):
            obj = parse_json(obj, "rubric")
        rubric = parse_rubric(obj)
        if signals is not None:
            rubric.check_signals(signals)
        return rubric


def _seq(x: Any, what: str, text: Callable[[str], tuple] | None = None) -> tuple:
    """``x`` as a tuple: a list, or -- where ``text`` reads one, as the command line reads a
    list (``categories="wrong,correct"``, ``weights="0,1"``) -- a string; any other string
    refused, never read letter by letter, and so is a set (no order: its weights would land
    on other categories)."""
    if isinstance(x, str) and text is not None:
        return tuple(text(x))
    if isinstance(x, str | bytes | Mapping | Set) or not isinstance(x, Iterable):
        forms = "a list or a comma-separated string" if text is not None else "a list"
        order = ", which has no order" if isinstance(x, Set) else ""
        raise ValidationError(
            f"{what} must be {forms}; got {type(x).__name__} {x!r}"[:300] + order)
    return tuple(x)


def _replace(r: Rubric, **changes: Any) -> Rubric:
    kw = {
        k: getattr(r, k)
        for k in (
            "name",
            "categories",
            "weights",
            "rules",
            "default",
            "category_descriptions",
            "description",
            "intent",
            "source",
        )
    }
    return Rubric(**(kw | changes))


# ------------------------------------------------------------ JSON (internals)
def _cond_to_json(c: Condition) -> dict[str, Any]:
    if isinstance(c, Compare):
        out: dict[str, Any] = {"signal": c.signal, "op": c.op}
        if c.value is not None:
            out["value"] = c.value
        elif c.other is not None:
            out["other"] = c.other
        else:
            out["percentile"] = c.percentile
            out["scope"] = c.scope
            if c.among is not None:
                out["among"] = _cond_to_json(c.among)
    elif isinstance(c, AllOf):
        out = {"all": [_cond_to_json(t) for t in c.terms]}
    elif isinstance(c, AnyOf):
        out = {"any": [_cond_to_json(t) for t in c.terms]}
    elif isinstance(c, Not):
        out = {"not": _cond_to_json(c.term)}
    else:  # pragma: no cover - the constructors refuse anything else
        raise TypeError(type(c))
    if c.label:
        out["label"] = c.label
    return out


# ---------------------------------------------------------------- module API
@checked_keywords
def to_json(rubric: Rubric) -> dict[str, Any]:
    """:meth:`Rubric.to_json` as a function."""
    return rubric.to_json()


@checked_keywords
def from_json(obj: Mapping[str, Any] | str | bytes, *, signals: Iterable[str] | None = None):
    """:meth:`Rubric.from_json` as a function."""
    return Rubric.from_json(obj, signals=signals)


@checked_keywords
def save(rubric: Rubric, path: str | os.PathLike | BinaryIO) -> None:
    """Write ``rubric`` as indented UTF-8 JSON to a path or binary file object."""
    text = json.dumps(rubric.to_json(), indent=2, ensure_ascii=False) + "\n"
    if hasattr(path, "write"):
        path.write(text.encode("utf-8"))
    else:
        Path(path).write_text(text, encoding="utf-8")


#: Rubric files larger than this are refused (a rubric is a few KB).
MAX_RUBRIC_BYTES = 1 << 20


@checked_keywords
def load(source: str | os.PathLike | bytes | BinaryIO, *, signals: Iterable[str] | None = None):
    """Read a rubric written by :func:`save` from a path, bytes or a binary file object."""
    if isinstance(source, bytes | bytearray):
        raw = bytes(source)
    elif hasattr(source, "read"):
        raw = source.read(MAX_RUBRIC_BYTES + 1)
    else:
        p = Path(source)
        if not p.is_file():
            raise ValidationError(f"rubric file {str(p)!r} does not exist")
        with open(p, "rb") as fh:
            raw = fh.read(MAX_RUBRIC_BYTES + 1)
    if len(raw) > MAX_RUBRIC_BYTES:
        raise ValidationError(f"rubric file is larger than {MAX_RUBRIC_BYTES} bytes; refusing it")
    return Rubric.from_json(raw, signals=signals)
