"""Input validation shared by every public function.

All checks raise :class:`ValidationError` (a ``ValueError``) whose message says
what was expected and what was received, so the app and the CLI can show it
verbatim -- except the settings it tells the reader to set: a message that names them
is a :class:`Said`, which each surface renders its own way (Python's keywords, the
command line's flags, the app's boxes).
"""

from __future__ import annotations

import functools
import json
import math
import numbers
import os
import re
import unicodedata
import warnings
from collections.abc import (
    Callable,
    Iterator,
    KeysView,
    Mapping,
    Sequence,
    Set,
    ValuesView,
)
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "ValidationError",
    "SettingsConflict",
    "Mention",
    "Only",
    "Said",
    "said_of",
    "joined",
    "python_name",
    "capitalized",
    "as_outcome_array",
    "two_readings",
    "binary_array_next",
    "did_you_mean",
    "as_weights",
    "as_prior",
    "check_k",
    "check_confidence",
    "check_weight_vector",
    "check_bounds",
    "parse_json",
    "json_safe",
    "renamed_keyword",
    "split_names",
    "comma_splits",
    "as_names",
    "as_numbers",
    "UnknownSettingError",
    "unknown_settings",
    "checked_keywords",
    "checked_methods",
]


#: Largest category index accepted. Larger "categories" are scores or ids, and would
#: need weight vectors and count tables of that length.
MAX_CATEGORY = 1000


class ValidationError(ValueError):
    """Bad input: the message names what was expected and what was found.

    Example
    -------
    >>> import scorio_core as sc
    >>> try:
    ...     sc.leaderboard([[[0, 1], [1, 1]]], scope="world")
    ... except sc.ValidationError as exc:
    ...     print(exc)
    scope must be one of ('questions', 'population'); got 'world'
    """


#: The surfaces a message is read on: a notebook (and a traceback), the command line, the app.
SURFACES = ("python", "cli", "app")


#: How a :class:`Mention` names its setting: ``set``, the value to give it (advice: "set
#: correct=['C']"; without a value the setting alone, "leave out ks="); ``name``, the setting
#: as a rule names it ("upper must exceed lower"); ``found``, the value a refusal found ("got
#: upper=0.5"; ``None`` an unset one: "no --tau" on the command line).
ROLES = ("set", "name", "found")


@dataclass(frozen=True)
class Mention:
    """A setting a message names: ``key`` of the settings class ``of`` (whose declaration
    says what the command line and the app call it), the ``value`` to give it or found
    (``None``: the setting alone, as in "leave out ks="), and its ``role`` (one of
    :data:`ROLES`: advice, the setting's name in a rule, a value found). :class:`Said` holds
    these; each surface writes them its own way (:func:`python_name`; the command line's
    flag in ``scorio_core.cli._common.cli_text``; the app's box in
    ``app_state.texts.app_text``). ``of`` is ``None`` for an option no settings class
    declares -- one the command line's parser declares itself (``leaderboard --rubric``),
    which the command line names from that parser."""

    of: type | None
    key: str
    value: Any = None
    role: str = "set"

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}; got {self.role!r}")


@dataclass(frozen=True)
class Only:
    """Words of a :class:`Said` that one surface shows and the others leave out
    (``surface``: one of :data:`SURFACES`): the notebook's next line, where the app's box
    is."""

    surface: str
    text: str

    def __post_init__(self) -> None:
        if self.surface not in SURFACES:
            raise ValueError(f"surface must be one of {SURFACES}; got {self.surface!r}")


def python_name(m: Mention) -> str:
    """A :class:`Mention` as Python writes it: the keyword and the value (``correct=['C']``,
    ``correct_from=0.5``, ``weights=[0, 0.5, 1]``: a sequence as a list, each number as
    the messages write numbers; the keyword alone, ``ks=``, without a value); a setting a
    rule names, its keyword (``upper``); a value found, as Python shows it
    (``kinds=('g',)``, ``tau=None``).

    Example
    -------
    >>> from scorio_core._validation import Mention, python_name
    >>> from scorio_core.io import LoadOptions
    >>> python_name(Mention(LoadOptions, "correct", ("C",))), python_name(
    ...     Mention(LoadOptions, "correct_from", 7.0))
    ("correct=['C']", 'correct_from=7')
    >>> python_name(Mention(LoadOptions, "weights", (0.0, 0.5, 1.0)))
    'weights=[0, 0.5, 1]'
    >>> python_name(Mention(LoadOptions, "weights", role="name")), python_name(
    ...     Mention(LoadOptions, "weights", (0.0, 1.0), role="found"))
    ('weights', 'weights=(0.0, 1.0)')
    """
    if m.role == "name":
        return m.key
    if m.role == "found":
        return f"{m.key}={m.value!r}"
    return f"{m.key}=" if m.value is None else f"{m.key}={_python_value(m.value)}"


def _python_value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, tuple | list):
        return "[" + ", ".join(map(_python_value, v)) + "]"
    return repr(v)


class Said(str):
    """A message that names settings (:class:`Mention`), each surface its own way: the
    core writes the advice once, as parts -- text, mentions, and words for one surface
    only (:class:`Only`) -- and each surface renders it with :meth:`say` (the command
    line: ``scorio_core.cli._common.cli_text``; the app: ``app_state.texts.app_text``) --
    advice, and the rules of :class:`SettingsConflict` alike. As a ``str``
    it is the Python form: what a notebook prints, a traceback and a report show. ``+`` with
    text keeps the parts (an f-string does not: it makes the Python form); a ``Said`` of
    text alone is that ``str``.

    Example
    -------
    >>> from scorio_core._validation import Mention, Only, Said
    >>> from scorio_core.io import LoadOptions
    >>> s = Said("count C correct: ", Mention(LoadOptions, "correct", ("C",)),
    ...          Only("app", ", among the upload's options"))
    >>> s + "."
    "count C correct: correct=['C']."
    >>> (s + ".").say("cli", lambda m: f"--{m.key} {','.join(m.value)}")
    'count C correct: --correct C.'
    >>> type(Said("no ", "setting")).__name__
    'str'
    """

    parts: tuple

    def __new__(cls, *parts: Any) -> str:
        flat: list = []
        for part in parts:
            for p in part.parts if isinstance(part, Said) else (part,):
                if isinstance(p, str):
                    p = str(p)  # plain text
                    if flat and isinstance(flat[-1], str):
                        flat[-1] += p
                    elif p:
                        flat.append(p)
                elif isinstance(p, Mention | Only):
                    flat.append(p)
                else:
                    raise TypeError(f"a Said holds text, Mention and Only; got {p!r}")
        if all(isinstance(p, str) for p in flat):
            return "".join(flat)
        self = super().__new__(cls, cls._render(flat, "python", python_name))
        self.parts = tuple(flat)
        return self

    def __getnewargs__(self) -> tuple:  # pickle and copy rebuild it from its parts
        return self.parts

    @staticmethod
    def _render(parts: Sequence, surface: str, name: Callable[[Mention], str]) -> str:
        return "".join(p if isinstance(p, str) else name(p) if isinstance(p, Mention)
                       else p.text if p.surface == surface else "" for p in parts)

    def say(self, surface: str, name: Callable[[Mention], str]) -> str:
        """The message as ``surface`` (one of :data:`SURFACES`) reads it: each mention
        written ``name(mention)``, the words of other surfaces left out."""
        if surface not in SURFACES:
            raise ValueError(f"surface must be one of {SURFACES}; got {surface!r}")
        return self._render(self.parts, surface, name)

    def __add__(self, other: Any) -> str:
        return Said(*self.parts, other) if isinstance(other, str) else NotImplemented

    def __radd__(self, other: Any) -> str:
        return Said(other, *self.parts) if isinstance(other, str) else NotImplemented

    def map(self, fn: Callable[[str], str]) -> str:
        """``fn`` applied to each run of text between the mentions (papers' keys spelled
        out: :func:`scorio_core.references.expand`)."""
        return Said(*(fn(p) if isinstance(p, str) else p for p in self.parts))

    def strip(self, chars: str | None = None) -> str:
        return self.lstrip(chars).rstrip(chars)

    def lstrip(self, chars: str | None = None) -> str:
        head, *rest = self.parts
        return Said(head.lstrip(chars), *rest) if isinstance(head, str) else self

    def rstrip(self, chars: str | None = None) -> str:
        *rest, tail = self.parts
        return Said(*rest, tail.rstrip(chars)) if isinstance(tail, str) else self


def said_of(exc: BaseException) -> str:
    """The message ``exc`` was raised with, a :class:`Said` kept as one (``str(exc)`` is
    its Python form), for a surface that renders it its own way.

    Example
    -------
    >>> from scorio_core._validation import Mention, Said, said_of
    >>> from scorio_core.io import LoadOptions
    >>> exc = sc.ValidationError(Said("set ", Mention(LoadOptions, "correct", ("C",))))
    >>> str(exc), type(said_of(exc)).__name__
    ("set correct=['C']", 'Said')
    """
    args = getattr(exc, "args", ())
    if len(args) == 1 and isinstance(args[0], Said):
        return args[0]
    return str(exc)


class SettingsConflict(ValidationError):
    """Settings that are each valid but inconsistent together (the command line: a usage
    error, as a value out of range is).

    ``text`` states the rule once, each setting in it written ``{key}``; ``found`` holds
    the values found, by key; ``of`` is the settings class that declares the keys (a
    mapping key -> class where they are several classes'; ``None`` for an option no
    settings class declares, which the command line's parser declares itself). The message
    is a :class:`Said`: each ``{key}`` a :class:`Mention` of the setting (role ``name``),
    then ``; got`` and each value found (role ``found``) -- so every surface renders it as
    it renders any other advice: ``str(exc)`` the Python keywords,
    ``scorio_core.cli._common.cli_text`` the flags, ``app_state.texts.app_text`` the boxes.

    Example
    -------
    >>> from scorio_core._validation import SettingsConflict, said_of
    >>> from scorio_core.cli._common import cli_text
    >>> from scorio_core.simulate.params import OrderParams
    >>> e = SettingsConflict(OrderParams, "{upper} must exceed {lower}", upper=0.5, lower=0.6)
    >>> str(e)
    'upper must exceed lower; got upper=0.5, lower=0.6'
    >>> cli_text(said_of(e))
    '--upper must exceed --lower; got --upper 0.5, --lower 0.6'
    """

    def __init__(self, of: type | Mapping[str, type | None] | None, text: str, /,
                 **found: Any) -> None:
        def mention(key: str, **kw: Any) -> Mention:
            return Mention(of[key] if isinstance(of, Mapping) else of, key, **kw)

        pieces = re.split(r"\{(\w+)\}", text)  # text, key, text, ...
        rule = [p if i % 2 == 0 else mention(p, role="name") if p in found else f"{{{p}}}"
                for i, p in enumerate(pieces)]
        got = joined(", ", [Said(mention(k, value=v, role="found")) for k, v in found.items()])
        super().__init__(Said(*rule, "; got ", got))
        self.found = found


def joined(sep: str, items: Sequence[str]) -> str:
    """``sep.join(items)`` that keeps the parts of each :class:`Said` among ``items`` (the
    ``str`` method makes them the Python form).

    Example
    -------
    >>> from scorio_core._validation import Mention, Said, joined
    >>> from scorio_core.cli._common import cli_text
    >>> from scorio_core.io import LoadOptions
    >>> said = joined(", or ", [Said(Mention(LoadOptions, "benchmark", b)) for b in "ab"])
    >>> said, cli_text(said)
    ("benchmark='a', or benchmark='b'", '--benchmark a, or --benchmark b')
    """
    return Said(*(p for i, item in enumerate(items) for p in ((sep, item) if i else (item,))))


def capitalized(text: str) -> str:
    """``text`` with its first letter upper-case, a :class:`Said` keeping its parts.

    Example
    -------
    >>> from scorio_core._validation import capitalized
    >>> capitalized("needs 2 models"), capitalized("")
    ('Needs 2 models', '')
    """
    if isinstance(text, Said):
        head, *rest = text.parts
        return Said(head[:1].upper() + head[1:], *rest) if isinstance(head, str) else text
    return text[:1].upper() + text[1:]


def renamed_keyword(old: str, new: str) -> Callable[[Callable], Callable]:
    """Decorate a function whose keyword ``new`` was once called ``old``: ``old=`` still
    works, with a ``FutureWarning`` naming ``new``, so notebooks written before the rename
    keep running; passing both is a ``TypeError``.

    Example
    -------
    >>> import warnings
    >>> from scorio_core._validation import renamed_keyword
    >>> @renamed_keyword("assurance_level", "assurance")
    ... def f(*, assurance=0.8):
    ...     return assurance
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     f(assurance_level=0.9), str(caught[0].message)
    (0.9, 'f(assurance_level=...) is now f(assurance=...)')
    """

    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"{fn.__name__}() got both {new}= and its old name "
                                    f"{old}=; pass only {new}=")
                warnings.warn(f"{fn.__name__}({old}=...) is now {fn.__name__}({new}=...)",
                              FutureWarning, stacklevel=2)
                kwargs[new] = kwargs.pop(old)
            return fn(*args, **kwargs)

        return wrapper

    return decorate


def _describe(a: np.ndarray) -> str:
    return f"shape {tuple(a.shape)} and dtype {a.dtype}"


def refuse_path(data: Any, what: str) -> None:
    """Raise when ``data`` is a path: ``what`` takes loaded data, and the message says the
    call that loads it."""
    if isinstance(data, str | os.PathLike):
        p = str(os.fspath(data))
        raise ValidationError(
            f"{what} takes loaded data (Outcomes) or an array (models, questions, trials); "
            f"got the path {p!r}: load it first with sc.load({p!r})"
        )


def binary_array_next(R: np.ndarray, instead: str | None, name: str = "R") -> str:
    """What to do with an outcome array ``R`` of categories ``0..C`` (``C >= 2``) where binary
    outcomes (0 wrong, 1 correct) are needed -- the array-level side of
    :func:`~scorio_core.outcomes.binary_next`, for callers that see an array, not loaded data:
    ``instead`` (what runs on the categories as they are, if anything; ``{w}`` in it becomes
    evenly spaced weights, one per category), or the expression that makes ``R`` binary: only
    the top category correct, and, where ``R`` holds a category between, every category from
    1 up; then the loader's options for data read from a file. Each expression gives a 0/1 array of
    ``R``'s shape, which the binary callers take. Only Python holds an array, so the text is
    Python's alone (loaded data get :func:`~scorio_core.outcomes.binary_next`, which each
    surface renders its own way).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core._validation import binary_array_next
    >>> print(binary_array_next(np.array([[[0, 1, 2]]]), "Score them with sc.bayes(R, w={w})"))
    Score them with sc.bayes(R, w=[0, 0.5, 1]), or make R binary first: (R == 2).astype(int) \
counts only category 2 correct, (R >= 1).astype(int) every category from 1 up (data loaded \
from a file: sc.load(path, correct=[...]) or sc.load(path, correct_from=...)).
    """
    a = np.asarray(R)
    top = int(a.max())
    w = "[" + ", ".join(f"{k / top:.6g}" for k in range(top + 1)) + "]"
    ways = [f"({name} == {top}).astype(int) counts only category {top} correct"]
    if np.any((a > 0) & (a < top)):  # a category between: counting it correct differs
        ways.append(f"({name} >= 1).astype(int) every category from 1 up")
    make = f"make {name} binary first: {', '.join(ways)}"
    return (f"{instead.format(w=w) + ', or ' + make if instead else make[0].upper() + make[1:]}"
            " (data loaded from a file: sc.load(path, correct=[...]) or "
            "sc.load(path, correct_from=...)).")


def two_readings(shape: tuple[int, ...], name: str = "R", given: Any = None, *,
                 outcomes: bool = True) -> str:
    """Why a 2-D outcome array is refused where models are compared, and the two fixes.

    A ``(a, b)`` array reads two ways in this package: the rankers (SPEC §5, as the
    reference package) promote ``(L, M)`` to one trial per question, while
    :class:`~scorio_core.outcomes.Outcomes` (and the papers' Bayes@N) take it as one
    model's ``(M, N)``. Guessing silently compares the wrong things, so analyses that
    compare models ask; the message gives the exact expression of each reading
    (``sc.Outcomes(A)`` too where the caller takes :class:`Outcomes`: ``outcomes``).

    Example
    -------
    >>> from scorio_core._validation import two_readings
    >>> print(two_readings((3, 4), "data"))  # doctest: +NORMALIZE_WHITESPACE
    data is a 2-D array A of shape (3, 4), which reads two ways, so say which: pass
    `A[:, :, None]` for 3 models × 4 questions with one trial each (as the rankers read it),
    or `A[None]` (or `sc.Outcomes(A)`) for one model's 3 questions × 4 trials (as
    sc.Outcomes reads it)
    """
    from .formatting import count_text  # here, not at the top: formatting imports this module

    a, b = int(shape[0]), int(shape[1])
    lists = "" if given is None or isinstance(given, np.ndarray) else (
        " (nested lists: A = np.asarray(...) first)")
    also = "(or `sc.Outcomes(A)`) " if outcomes else ""
    return (f"{name} is a 2-D array A of shape ({a}, {b}), which reads two ways, so say "
            f"which: pass `A[:, :, None]` for {count_text(a, 'model')} × "
            f"{count_text(b, 'question')} with one trial each (as the rankers read it), or "
            f"`A[None]` {also}for one model's {count_text(a, 'question')} × "
            f"{count_text(b, 'trial')} (as sc.Outcomes reads it){lists}")


def as_outcome_array(
    R, *, name: str = "R", min_ndim: int = 2, max_ndim: int | None = None,
    takes_outcomes: bool = False,
) -> np.ndarray:
    """Return ``R`` as a non-negative integer array, or raise.

    Accepts integer arrays, boolean arrays and float arrays whose values are
    whole numbers. NaN, infinities, fractional and negative values are refused
    with the position of the first offending cell. Signed integer input is
    returned as is (no copy: an int8 tensor stays int8), boolean input as an
    int8 view, unsigned input as the smallest signed type that holds it (so
    differences cannot wrap around); float input becomes int64. A path or a table
    is refused with the call that loads it. Where ``(models, questions, trials)``
    are required (``min_ndim=3``), a 2-D array is refused with its two readings and
    the expression of each (:func:`two_readings`; ``takes_outcomes``: the caller takes
    :class:`~scorio_core.outcomes.Outcomes` too, so ``sc.Outcomes(A)`` is one of them); prior
    outcomes (``name`` ``R0...``) keep the plain message, their ``(M, D)`` being one
    reading. An :class:`~scorio_core.outcomes.Outcomes` here (a caller that takes arrays
    only) is refused with the arrays to pass.
    """
    refuse_path(R, name)
    from .outcomes import Outcomes  # here, not at the top: outcomes imports this module

    if isinstance(R, Outcomes):
        raise ValidationError(
            f"{name} must be an array (models, questions, trials); got loaded data (Outcomes): "
            "pass data.R (and data.R0, its greedy outcomes, where they are asked for)"
        )
    if hasattr(R, "columns") and hasattr(R, "shape"):  # a pandas / polars DataFrame
        raise ValidationError(
            f"{name} must be loaded data (Outcomes) or an array (models, questions, trials); "
            f"got a {type(R).__name__} — a long table (model, question, trial, outcome) "
            "loads with data = sc.load(frame)"
        )
    try:
        a = np.asarray(R)
    except ValueError as exc:  # ragged nested lists
        raise ValidationError(
            f"{name} must be a rectangular array of integer categories; got ragged input ({exc})"
        ) from None
    if a.dtype == object:
        raise ValidationError(
            f"{name} must be a rectangular array of integer categories; got an object array "
            "(ragged rows or mixed types)"
        )
    if a.ndim == 2 and min_ndim == 3 and not name.startswith("R0"):
        raise ValidationError(two_readings(a.shape, name, given=R, outcomes=takes_outcomes))
    if a.ndim < min_ndim or (max_ndim is not None and a.ndim > max_ndim):
        want = f"{min_ndim}" if max_ndim == min_ndim else f"at least {min_ndim}"
        if max_ndim is not None and max_ndim != min_ndim:
            want = f"{min_ndim} to {max_ndim}"
        raise ValidationError(f"{name} must have {want} dimensions; got {_describe(a)}")
    if a.size == 0 or 0 in a.shape:
        raise ValidationError(f"{name} must not be empty; got {_describe(a)}")
    if a.dtype == bool:
        return a.view(np.int8)
    if np.issubdtype(a.dtype, np.number) and np.isfinite(a).all() and a.max() > MAX_CATEGORY:
        idx = tuple(int(i) for i in np.argwhere(a > MAX_CATEGORY)[0])
        raise ValidationError(
            f"{name} must hold categories 0..C with C <= {MAX_CATEGORY}; found {a[idx]} at index "
            f"{idx} (scores or ids are not categories)"
        )
    if np.issubdtype(a.dtype, np.integer):
        if a.min() < 0:
            idx = tuple(int(i) for i in np.argwhere(a < 0)[0])
            raise ValidationError(
                f"{name} must hold categories 0..C (non-negative integers); found {a[idx]} at "
                f"index {idx}"
            )
        if np.issubdtype(a.dtype, np.unsignedinteger):
            return a.astype(np.int16 if a.max() <= np.iinfo(np.int16).max else np.int64)
        return a
    if np.issubdtype(a.dtype, np.floating):
        bad = ~np.isfinite(a)
        if bad.any():
            from .formatting import count_text

            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise ValidationError(
                f"{name} must hold finite integer categories; found {a[idx]} at index {idx} "
                f"({count_text(bad.sum(), 'non-finite cell')} in all)"
            )
        frac = a != np.round(a)
        if frac.any():
            idx = tuple(int(i) for i in np.argwhere(frac)[0])
            raise ValidationError(
                f"{name} must hold integer categories; found the fractional value {a[idx]} at "
                f"index {idx}"
            )
        if a.min() < 0:
            idx = tuple(int(i) for i in np.argwhere(a < 0)[0])
            raise ValidationError(
                f"{name} must hold categories 0..C (non-negative integers); found {a[idx]} at "
                f"index {idx}"
            )
        return a.astype(np.int64)
    raise ValidationError(f"{name} must be numeric (integer categories); got {_describe(a)}")


def as_weights(w, n_categories_seen: int) -> np.ndarray:
    """Weights ``w`` of length ``C+1`` covering every observed category.

    ``n_categories_seen`` is ``max(R) + 1``. ``None`` gives ``[0, 1]`` for binary
    data and is refused for categorical data (a rubric must say what each
    category is worth).
    """
    if w is None:
        if n_categories_seen <= 2:
            return np.array([0.0, 1.0])
        raise ValidationError(
            f"weights are required for categorical outcomes: the data hold categories "
            f"0..{n_categories_seen - 1}, so pass w with {n_categories_seen} entries"
        )
    a = check_weight_vector(w, "w")
    if a.size < n_categories_seen:
        raise ValidationError(
            f"w has {a.size} entries (categories 0..{a.size - 1}) but the outcomes contain "
            f"category {n_categories_seen - 1}; expected at least {n_categories_seen} weights"
        )
    return a


#: Largest accepted |weight|. Weights are squared in the posterior variance; beyond this
#: the sums overflow or lose every digit of the smaller weights. Only ratios matter for
#: rankings, so rescale larger values.
MAX_WEIGHT = 1e12


def check_weight_vector(w, name: str = "weights") -> np.ndarray:
    """A finite 1-D float vector of at least two category weights, each ``|w| <= MAX_WEIGHT``
    (a comma-separated string is read as ``--weights 0,0.5,1`` is)."""
    if isinstance(w, str):
        w = as_numbers(w, name, kind=float, example="0,0.5,1")
    try:
        a = np.asarray(w, dtype=float)
    except (TypeError, ValueError):
        raise ValidationError(f"{name} must be numbers, one per category; got {w!r}") from None
    if a.ndim != 1 or a.size < 2:
        raise ValidationError(
            f"{name} must be a 1-D vector of at least 2 category weights; got {_describe(a)}"
        )
    if not np.all(np.isfinite(a)):
        raise ValidationError(f"{name} must be finite; got {a.tolist()}")
    if np.abs(a).max() > MAX_WEIGHT:
        raise ValidationError(
            f"{name} must lie within ±{MAX_WEIGHT:g} (rescale them: only their ratios matter "
            f"for rankings); got {a.tolist()}"
        )
    return a


def check_bounds(bounds) -> tuple[float, float] | None:
    """``None`` or an interval ``(lo, hi)`` with ``lo < hi`` (infinite ends allowed, NaN not);
    a string ``"0,1"`` is read as comma-separated numbers, never one number per character."""
    if bounds is None:
        return None
    given = bounds
    if isinstance(bounds, str):
        bounds = as_numbers(bounds, "bounds", kind=float, example="0,1")
    try:
        lo, hi = (float(b) for b in bounds)
    except (TypeError, ValueError):
        raise ValidationError(
            f"bounds must be a pair (lo, hi) of numbers; got {given!r}"
        ) from None
    if np.isnan(lo) or np.isnan(hi) or not lo < hi:
        raise ValidationError(f"bounds must satisfy lo < hi; got {bounds!r}")
    return lo, hi


def as_prior(R0, R: np.ndarray, C: int) -> np.ndarray | None:
    """Validate prior outcomes against ``R`` of shape ``(..., M, N)``.

    ``R0`` may be ``(M, D)`` (shared) or carry the same leading axes as ``R``.
    Returns an integer array broadcastable to ``R.shape[:-1] + (D,)``.
    """
    if R0 is None:
        return None
    a = as_outcome_array(R0, name="R0", min_ndim=1)
    if a.ndim == 1:  # one prior outcome per question
        a = a[:, None]
    M = R.shape[-2]
    if a.shape[-2] != M:
        raise ValidationError(
            f"R0 must have one row per question: expected shape (..., {M}, D) to match R of "
            f"shape {tuple(R.shape)}; got {tuple(a.shape)}"
        )
    lead_r, lead_0 = R.shape[:-2], a.shape[:-2]
    if lead_0 and lead_0 != lead_r[len(lead_r) - len(lead_0) :]:
        raise ValidationError(
            f"R0 leading axes {lead_0} do not match R's {lead_r}: pass R0 as (M, D) to share "
            f"it across models or as {lead_r + (M, 'D')}"
        )
    if a.max() > C:
        idx = tuple(int(i) for i in np.argwhere(a > C)[0])
        raise ValidationError(
            f"R0 holds category {a[idx]} at index {idx}, outside the weights' categories 0..{C}"
        )
    return a


#: Deepest JSON nesting accepted from any file (rubrics, ``.npz`` metadata, logs).
MAX_JSON_DEPTH = 64
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def parse_json(text: str | bytes, what: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads(text)`` with a nesting limit, raising :class:`ValidationError`.

    The standard decoder recurses once per level, so ``[[[[...]]]]`` nested a
    hundred thousand deep raises ``RecursionError`` (or worse) from deep inside
    the parser. The depth is measured first, on the text with its string literals
    removed, in one vectorized pass.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValidationError(f"{what} is not UTF-8 text ({exc})") from None
    bare = np.frombuffer(_JSON_STRING.sub("", text).encode("utf-8"), dtype=np.uint8)
    step = np.isin(bare, (ord("["), ord("{"))).astype(np.int64)
    step -= np.isin(bare, (ord("]"), ord("}")))
    depth = int(np.cumsum(step).max()) if step.size else 0
    if depth > max_depth:
        raise ValidationError(f"{what} is nested {depth} levels deep; at most {max_depth}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{what} is not valid JSON: {exc}") from None
    except RecursionError:  # pragma: no cover - the depth check above comes first
        raise ValidationError(f"{what} is nested too deeply") from None


def json_safe(x: Any) -> Any:
    """``x`` as strict-JSON values: NaN/inf become ``null``, numpy scalars and arrays
    Python numbers and lists, tuples lists, dict keys strings."""
    if isinstance(x, dict):
        return {str(k): json_safe(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [json_safe(v) for v in x]
    if isinstance(x, np.ndarray):
        return json_safe(x.tolist())
    if hasattr(x, "item") and not isinstance(x, str):
        x = x.item()
    if isinstance(x, float) and not np.isfinite(x):
        return None
    return x


def check_k(k, N: int) -> int:
    """``k`` as an int in ``1..N``; anything else (None, NaN, inf, 2.5, True) is refused."""
    number = not isinstance(k, bool) and isinstance(k, int | float | np.number)
    # math.isfinite, not np.isfinite: a Python int beyond 64 bits is a valid (too large) k
    if not number or (isinstance(k, float | np.floating) and not math.isfinite(k)) \
            or int(k) != k:
        raise ValidationError(f"k must be a whole number; got {k!r}")
    k = int(k)
    if not 1 <= k <= N:
        raise ValidationError(f"k must satisfy 1 <= k <= N (N={N}); got k={k}")
    return k


def check_confidence(confidence: float) -> float:
    c = float(confidence)
    if not 0.0 < c < 1.0:
        raise ValidationError(f"confidence must be strictly between 0 and 1; got {confidence!r}")
    return c


def unique_names(names: Sequence[str], what: str) -> tuple[str, ...]:
    """``names`` as strings, refused if two are equal once Unicode-normalised (NFC).

    ``"café"`` typed as one code point and as ``e`` + combining accent look identical
    and would become two rows that no reader can tell apart.
    """
    out = tuple(str(n) for n in names)
    seen: dict[str, list[str]] = {}
    for n in out:
        seen.setdefault(unicodedata.normalize("NFC", n), []).append(n)
    dups = [v for v in seen.values() if len(v) > 1]
    if dups:
        shown = ", ".join(
            repr(v[0]) + ("" if len(set(v)) == 1 else " (as different Unicode encodings)")
            for v in dups
        )
        raise ValidationError(f"{what} must be unique; duplicated: {shown}")
    return out


def _folded(text: str) -> str:
    """``text`` as a typed name is compared: accents dropped, case folded (``Modèle`` and
    ``modele`` are one word)."""
    import unicodedata

    return "".join(ch for ch in unicodedata.normalize("NFKD", str(text))
                   if not unicodedata.combining(ch)).casefold().strip()


def did_you_mean(name: str, have: Sequence[str]) -> str:
    """``"; did you mean 'x'?"`` naming the entries of ``have`` closest to ``name`` (up to
    three), or ``""`` when none is close: first those that ``name`` spells with other
    accents, case or separators, or of which it is a whole word (``5`` for ``item-5``,
    ``Modele`` for ``Modèle β 7B``), then those :func:`difflib.get_close_matches` ranks close.

    Example
    -------
    >>> from scorio_core._validation import did_you_mean
    >>> did_you_mean("gpt4", ["gpt-4", "claude", "gpt-4o"]), did_you_mean("x", ["claude"])
    ("; did you mean 'gpt-4', 'gpt-4o'?", '')
    >>> did_you_mean("Modele", ["alpha", "Modèle β 7B"]), did_you_mean("5", ["item-5", "item-15"])
    ("; did you mean 'Modèle β 7B'?", "; did you mean 'item-5'?")
    """
    import difflib
    import re

    names = [str(h) for h in have]
    typed = _folded(name)
    words = re.findall(r"\w+", typed)

    def spelled(h: str) -> bool:  # the same words, or one of its words
        theirs = re.findall(r"\w+", _folded(h))
        return bool(words) and (theirs == words or (len(words) == 1 and words[0] in theirs))

    folded = {_folded(h): h for h in reversed(names)}
    close = [h for h in names if spelled(h)]
    close += [folded[c] for c in difflib.get_close_matches(typed, list(folded), n=3, cutoff=0.6)]
    close = list(dict.fromkeys(close))[:3]
    return f"; did you mean {', '.join(map(repr, close))}?" if close else ""


# ------------------------------------------------------------------ lists given as one string
def split_names(text: str) -> tuple[str, ...]:
    """Names typed as one string, read as the command line reads them (``--methods``,
    ``--sections``, ``--model-columns``, ``--attributes``, a ``--subset``'s values): split at
    every comma, each name stripped of the spaces around it, empty ones dropped.

    Example
    -------
    >>> from scorio_core._validation import split_names
    >>> split_names(" bayes, avg,,")
    ('bayes', 'avg')
    """
    return tuple(t.strip() for t in str(text).split(",") if t.strip())


#: Most commas :func:`comma_splits` reads against a list of names (beyond: no name holds one).
MAX_NAME_COMMAS = 200


def comma_splits(text: str, among: Sequence[str], parts: int | None = None,
                 limit: int = 2) -> list[tuple[str, ...]]:
    """The ways (at most ``limit``) ``text`` splits at its commas into names that are all in
    ``among`` -- into ``parts`` names where given --, each stripped of the spaces around it:
    how a comma-separated string of names is read where the names are known and one may
    itself hold a comma (``--pair``, ``Outcomes.select(models=...)``).

    Example
    -------
    >>> from scorio_core._validation import comma_splits
    >>> comma_splits("m,comma, b", ["m,comma", "b", "c"])
    [('m,comma', 'b')]
    >>> comma_splits("a,b,c", ["a", "b", "c", "a,b"])
    [('a', 'b', 'c'), ('a,b', 'c')]
    """
    pieces = str(text).split(",")
    if len(pieces) > MAX_NAME_COMMAS + 1:
        return []
    have, n = {str(m) for m in among}, len(pieces)
    memo: dict[tuple[int, int | None], list[tuple[str, ...]]] = {}

    def ways(i: int, left: int | None) -> list[tuple[str, ...]]:
        """The splits of ``pieces[i:]`` into ``left`` names (None: any number)."""
        if i == n:
            return [()] if left in (None, 0) else []
        if left == 0:
            return []
        if (i, left) not in memo:
            found: list[tuple[str, ...]] = []
            for j in range(i + 1, n + 1):
                name = ",".join(pieces[i:j]).strip()
                if name in have:
                    found += [(name, *rest)
                              for rest in ways(j, None if left is None else left - 1)]
                if len(found) >= limit:
                    break
            memo[i, left] = found[:limit]
        return memo[i, left]

    return ways(0, parts)


def _shown(value: Any) -> str:
    """``value`` as a refusal names it: short, and why a set will not do."""
    import reprlib

    text = reprlib.repr(value)
    if isinstance(value, Set) and not isinstance(value, KeysView):
        return f"the set {text}, which has no order: pass a list"
    return text if isinstance(value, numbers.Number | type(None)) else (
        f"{type(value).__name__} {text}")


def _entries(value: Any, what: str, noun: str, example: str) -> list:
    """The entries of a list-valued argument given as a list, tuple, range, 1-D array,
    pandas Series or Index, a dict's keys or values, or an iterator; anything else (a set,
    a dict, a number where names are wanted, bytes) is refused with the two forms."""
    if isinstance(value, np.ndarray):
        if value.ndim == 1:
            return value.tolist()
    elif isinstance(value, Sequence | Iterator | KeysView | ValuesView) and not isinstance(
            value, bytes | bytearray | memoryview):
        return list(value)
    elif getattr(value, "ndim", None) == 1 and hasattr(value, "tolist"):  # pandas, polars
        return list(value.tolist())
    raise ValidationError(f"{what}: expected a list of {noun} or a comma-separated string, "
                          f"e.g. {example!r}; got {_shown(value)}")


def _parsed(parse: Callable[[str], Any], text: str) -> tuple:
    """``parse(text)`` (a command-line option's own parser), its refusal a
    :class:`ValidationError`."""
    import argparse

    try:
        return tuple(parse(text))
    except argparse.ArgumentTypeError as exc:
        raise ValidationError(str(exc)) from None


def as_names(value: Any, what: str, *, noun: str = "names", example: str = "a,b",
             parse: Callable[[str], Any] | None = None, count: int | None = None,
             among: Sequence[str] | None = None) -> tuple[str, ...]:
    """A list-valued argument of names or ids (models, methods, curves, scopes ...) as a
    tuple of strings: from a list, tuple, array or other ordered collection as given, or
    from one string read as the command line reads the same option -- ``parse``, the
    option's own parser, else :func:`split_names` -- so a string is never taken letter by
    letter. Anything else is refused: "expected a list of ``noun`` or a comma-separated
    string".

    A model name may hold a comma, so where the names are known, a string with commas is
    split only where the command line's ``--pair`` splits it:

    * ``among`` (names to pick from, e.g. the data's models): a string that is one of them
      is that one; else the split at its commas into names that all are
      (:func:`comma_splits`), refused when two splits fit; else :func:`split_names` (the
      caller then names the unknown ones);
    * ``count`` (names to give, e.g. one per model of an array): a string is split at its
      commas when one name is not enough, and is the one name when one is wanted -- the
      two readings never fit the same count. The caller checks the number of names.

    Example
    -------
    >>> from scorio_core._validation import as_names
    >>> as_names("bayes, avg", "methods"), as_names(["a,b", "c"], "models")
    (('bayes', 'avg'), ('a,b', 'c'))
    >>> as_names("gpt-4, 0613", "models", count=1), as_names("x,y", "models", count=2)
    (('gpt-4, 0613',), ('x', 'y'))
    >>> as_names("m,comma,b", "models", among=["m,comma", "b"])
    ('m,comma', 'b')
    >>> as_names(3, "models", noun="model names")
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: models: expected a list of model names or a \
comma-separated string, e.g. 'a,b'; got 3
    """
    if isinstance(value, str):
        if among is not None:
            if value in among:
                return (value,)
            fits = comma_splits(value, among)
            if len(fits) > 1:
                shown = " or ".join(" + ".join(map(repr, f)) for f in fits)
                raise ValidationError(
                    f"{what} {value!r} splits at its commas into {noun} of these data in more "
                    f"than one way ({shown}): pass them as a list")
            if fits:
                return fits[0]
        names = _parsed(parse, value) if parse is not None else split_names(value)
        if count == 1 and len(names) != 1:
            return (value,)
        return tuple(str(n) for n in names)
    out = []
    for x in _entries(value, what, noun, example):
        if isinstance(x, bool) or not isinstance(x, str | numbers.Number):
            raise ValidationError(f"{what} must be {noun}, each a string; got {x!r} in "
                                  f"{_shown(value)}")
        out.append(str(x))
    return tuple(out)


def no_text(value: Any, what: str, expected: str) -> Any:
    """``value`` as given, unless it is one string (or bytes): where ``what`` takes a list
    that no typed text spells (``expected``: tables, a column's values), a string is refused
    as one, never read letter by letter (``Table(df, more="0,1")`` had shown the tables
    ``'0'``, ``','`` and ``'1'``).

    Example
    -------
    >>> from scorio_core._validation import no_text
    >>> no_text([1, 2], "values", "a column's values (a list, array or Series)")
    [1, 2]
    >>> no_text("0,1", "more", "a list of tables")
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: more: expected a list of tables; got the string '0,1'
    """
    import reprlib

    if isinstance(value, str | bytes):
        raise ValidationError(f"{what}: expected {expected}; got the string "
                              f"{reprlib.repr(value)}")
    return value


def model_names(models: Any, count: int, of: str = "model of R",
                default: str = "model_") -> tuple[str, ...]:
    """One name per model (``count`` of them, each for one ``of`` in order): ``models`` read
    by :func:`as_names` (a string is split at its commas unless one name is wanted), else
    ``default`` numbered from 0; refused unless there are exactly ``count``.

    Example
    -------
    >>> from scorio_core._validation import model_names
    >>> model_names("a,b", 2), model_names(None, 2)
    (('a', 'b'), ('model_0', 'model_1'))
    >>> model_names(["a"], 2)
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: expected 2 model names, one per model of R; got 1
    """
    if models is None:
        return tuple(f"{default}{i}" for i in range(count))
    names = as_names(models, "models", noun="model names", count=count)
    if len(names) != count:
        raise ValidationError(f"expected {count} model names, one per {of}; got {len(names)}")
    return names


def as_numbers(value: Any, what: str, *, kind: type = int, example: str = "1,2",
               parse: Callable[[str], Any] | None = None) -> tuple:
    """A list-valued argument of numbers (``ks``, ``steps``, ``thresholds``, weights ...)
    as a tuple: from a list, tuple, 1-D array or other ordered collection as given (each
    entry checked by the caller), a single number as a list of one (``ks=4``), or one
    string read as the command line reads the same option -- ``parse``, the option's own
    parser, else :func:`scorio_core.params.numbers_parse` (comma-separated ``kind``
    numbers) -- so ``"2,4"`` is ``(2, 4)``, never ``'2', ',', '4'``. Anything else is
    refused: "expected a list of numbers or a comma-separated string".

    Example
    -------
    >>> from scorio_core._validation import as_numbers
    >>> as_numbers("2, 4", "ks"), as_numbers(4, "ks"), as_numbers([1.645, 1.96], "t", kind=float)
    ((2, 4), (4,), (1.645, 1.96))
    >>> as_numbers("2,x", "steps")
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: steps expects comma-separated whole numbers, e.g. \
1,2; got '2,x'
    """
    if isinstance(value, str):
        if parse is None:
            from .params import numbers_parse  # params imports this module

            parse = numbers_parse(what, example, kind)
        return _parsed(parse, value)
    if isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_):
        return (value,)
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        return (value.item(),)
    noun = "whole numbers" if kind is int else "numbers"
    return tuple(_entries(value, what, noun, example))


def check_choice(name: str, value, allowed) -> str:
    """``value`` if it is one of ``allowed``, else a :class:`ValidationError` listing them."""
    if value not in allowed:
        raise ValidationError(
            f"{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}"
        )
    return value


def check_steps(N: int, steps) -> np.ndarray:
    """The trials-per-question grid of a convergence study: ``1..N`` when ``steps`` is
    None, else the sorted unique whole numbers of ``steps`` (a list, one number, or a
    comma-separated string: :func:`as_numbers`), each in ``1..N``.

    Example
    -------
    >>> from scorio_core._validation import check_steps
    >>> check_steps(4, None).tolist(), check_steps(8, [8, 2, 2]).tolist()
    ([1, 2, 3, 4], [2, 8])
    """
    if steps is None:
        return np.arange(1, int(N) + 1)
    s = np.unique(whole_numbers(steps, "steps", example="1,2,4"))
    if s.max() > N:
        raise ValidationError(f"steps must lie in 1..{N}; got {s.tolist()}")
    return s


def whole_numbers(value: Any, what: str, *, example: str = "1,2", minimum: int = 1
                  ) -> np.ndarray:
    """At least one whole number ``>= minimum`` (trial counts, steps): a list, one number
    or a comma-separated string (:func:`as_numbers`), as an int array; ``4.0`` is 4, but
    ``1.5``, ``True``, NaN or a text is refused, never cut to a whole number without a word.

    Example
    -------
    >>> from scorio_core._validation import whole_numbers
    >>> whole_numbers("1,16", "n_values").tolist(), whole_numbers([4.0], "n").tolist()
    ([1, 16], [4])
    >>> whole_numbers([1.5], "n_values")
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: n_values must be whole numbers >= 1; got [1.5]
    """
    given = as_numbers(value, what, example=example)
    try:
        nums = [float(n) for n in given if not isinstance(n, bool | np.bool_)]
    except (TypeError, ValueError):
        nums = []
    if (not nums or len(nums) != len(given)
            or not all(math.isfinite(n) and n.is_integer() and n >= minimum for n in nums)):
        raise ValidationError(f"{what} must be whole numbers >= {minimum}; got {list(given)}")
    return np.asarray([int(n) for n in nums])


def check_int(name: str, value, minimum: int = 1) -> int:
    """A whole number ``>= minimum`` (booleans refused)."""
    ok = not isinstance(value, bool) and isinstance(value, int | np.integer)
    if not ok or value < minimum:
        raise ValidationError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def check_number(name: str, value, *, positive: bool = True) -> float:
    """A finite number, strictly positive (default) or non-negative."""
    ok = not isinstance(value, bool) and isinstance(value, int | float | np.number)
    v = float(value) if ok else float("nan")
    if not np.isfinite(v) or (v <= 0 if positive else v < 0):
        kind = "positive" if positive else "non-negative"
        raise ValidationError(f"{name} must be a finite {kind} number; got {value!r}")
    return v


# ------------------------------------------------------------------ keywords a call does not take
class UnknownSettingError(ValidationError, TypeError):
    """A keyword that a public call does not take (``sc.leaderboard(data, k=2)``): a
    :class:`ValidationError` whose message suggests the closest setting and lists them all,
    and a ``TypeError`` too, as Python's own "unexpected keyword argument" is, so code
    written ``except TypeError`` for a misspelt keyword keeps working."""


def unknown_settings(owner: str, given: Sequence[str], known: Sequence[str], advice: str = ""
                     ) -> UnknownSettingError:
    """The refusal of the keywords ``given`` that ``owner`` does not take: each with the
    closest of ``known`` (:func:`did_you_mean`), then every one of ``known`` (and
    ``advice``, where the caller knows where such a keyword belongs) -- one message for every
    public call (:func:`checked_keywords`) and every analysis's settings.

    Example
    -------
    >>> from scorio_core._validation import unknown_settings
    >>> print(unknown_settings("plan()", ["budget", "zz"], ["data", "scope", "budget_trials"]))
    plan(): unknown settings budget (did you mean 'budget_trials'?), zz; its settings are \
data, scope, budget_trials
    """
    items = []
    for name in given:
        guess = did_you_mean(str(name), known)
        items.append(f"{name} ({guess[2:]})" if guess else str(name))
    noun = "setting" if len(items) == 1 else "settings"
    listed = f"its settings are {', '.join(known)}" if known else "it takes no settings"
    return UnknownSettingError(f"{owner}: unknown {noun} {', '.join(items)}; {listed}{advice}")


def checked_keywords(fn: Callable | type | None = None, *,
                     also: Callable[[], Sequence[str]] | Sequence[str] | None = None,
                     advice: Callable[[Sequence[str]], str] | None = None) -> Callable:
    """Decorate a public call (every function of ``sc`` and of its public modules:
    ``sc.io``, ``sc.rank``, ``sc.charts``, ``sc.formatting``, ``sc.report`` ...) or a
    public class a notebook constructs (``sc.Outcomes``, ``sc.io.LoadOptions``, the priors,
    rubrics and settings classes) so that a keyword it does not take is refused by
    :func:`unknown_settings` -- the closest setting suggested (``k`` -> ``ks``), every setting
    listed -- as :class:`UnknownSettingError`, before the call runs.
    The keywords are those of the signature (a ``__signature__`` set before decorating, as
    the analyses' declared settings are, counts); a call that passes ``**kwargs`` on names
    the keywords it passes on in ``also`` (a callable is asked when first needed, so the
    module that declares them loads late). ``advice(unknown)`` adds where such keywords
    belong (``sc.report``: the loader's options go in ``options=``).

    The check is for a caller's calls: where the package calls a checked function once per
    cell, pair or step of its own loops, it calls the function undecorated
    (``fn.__wrapped__``, kept under a private name: ``formatting._format_value``), as the
    check costs a small function a tenth of its time.

    A class is checked in place and returned, the class itself: the ``__init__`` it defines
    (a dataclass's generated one -- so the decorator goes above ``@dataclass``, which makes
    it; equality, ``repr``, ``fields`` and ``replace`` are the dataclass's, frozen or not) is
    wrapped, and its signature read without ``self``.

    Example
    -------
    >>> from scorio_core._validation import checked_keywords
    >>> @checked_keywords
    ... def board(data, *, ks=(), scope="questions"):
    ...     return scope
    >>> board(None, scope="population")
    'population'
    >>> board(None, k=2)
    Traceback (most recent call last):
    ...
    scorio_core._validation.UnknownSettingError: board(): unknown setting k (did you mean \
'ks'?); its settings are data, ks, scope
    >>> from dataclasses import dataclass
    >>> @checked_keywords
    ... @dataclass(frozen=True)
    ... class Prior:
    ...     mean: float = 0.0
    ...     var: float = 1.0
    >>> Prior(var=2.0) == Prior(0.0, 2.0), Prior(var=2.0)
    (True, Prior(mean=0.0, var=2.0))
    >>> Prior(vars=2.0)
    Traceback (most recent call last):
    ...
    scorio_core._validation.UnknownSettingError: Prior(): unknown setting vars (did you mean \
'var'?); its settings are mean, var
    """
    import inspect

    def decorate(target: Callable | type) -> Callable | type:
        if inspect.isclass(target):  # the class's own __init__, its keywords without self
            fn = vars(target).get("__init__")
            if fn is None:
                raise TypeError(f"{target.__name__} defines no __init__ of its own: put "
                                "@checked_keywords above @dataclass, which makes it")
        else:
            fn = target
        params = inspect.signature(target).parameters.values()
        named = [p.name for p in params
                 if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        if any(p.kind == p.VAR_KEYWORD for p in params) and also is None:
            raise TypeError(f"{target.__name__} takes **kwargs: name what it passes on in "
                            "also=")
        call = _checking(fn, f"{target.__name__}()", named, also, advice,
                         _positional(list(params)), int(fn is not target))
        if fn is target:
            return call
        target.__init__ = call
        return checked_methods(target)  # and its methods' keywords

    return decorate if fn is None else decorate(fn)


def _positional(params: Sequence[Any]) -> tuple[list[str], list[str]] | None:
    """``(positional names, keyword-only names)`` of a signature's ``params`` (``self``
    already dropped), or ``None`` where it takes ``*args`` (any count is taken)."""
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return None
    return ([p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)],
            [p.name for p in params if p.kind == p.KEYWORD_ONLY])


def too_many_positional(owner: str, args: Sequence[Any], positional: Sequence[str],
                        keyword_only: Sequence[str]) -> UnknownSettingError:
    """The refusal of a call that passes ``args`` (its own, ``self`` not counted) where
    ``owner`` takes only ``positional`` by position: the values that need a name, and the
    settings that take them by name, so ``sc.pair(data, "a", "b")`` says how to write the
    call, not only Python's bare count.

    Example
    -------
    >>> from scorio_core._validation import too_many_positional
    >>> print(too_many_positional("pair()", ["<data>", "LLM_9", "LLM_10"], ["data"],
    ...                           ["a", "b", "confidence"]))
    pair() takes 1 positional argument (data) but 3 were given: pass 'LLM_9', 'LLM_10' by \
name; its settings are a, b, confidence
    """
    import reprlib

    short = reprlib.Repr()
    short.maxstring, short.maxother, short.maxlist = 40, 40, 4
    n, extra = len(positional), list(args)[len(positional):]
    took = (f"{n} positional argument{'s' if n != 1 else ''} ({', '.join(positional)})"
            if n else "no positional arguments")
    head = f"{owner} takes {took} but {len(args)} were given"
    if not keyword_only:
        return UnknownSettingError(head)
    def said(v: Any) -> str:
        shape = getattr(v, "shape", None)
        if isinstance(shape, tuple) and shape:  # an array: its shape, not its cells
            return f"an array of shape {shape}"
        return short.repr(v)

    values = ", ".join(said(v) for v in extra[:4]) + (", …" if len(extra) > 4 else "")
    return UnknownSettingError(f"{head}: pass {values} by name; its settings are "
                               f"{', '.join(keyword_only)}")


def _checking(fn: Callable, owner: str, named: Sequence[str],
              also: Callable[[], Sequence[str]] | Sequence[str] | None = None,
              advice: Callable[[Sequence[str]], str] | None = None,
              positional: tuple[list[str], list[str]] | None = None,
              bound: int = 0) -> Callable:
    """``fn`` refusing a keyword not among ``named`` (and ``also``) as ``owner`` (e.g.
    ``"plan()"``) by :func:`unknown_settings`, and more positional values than
    ``positional`` (:func:`_positional`; ``bound`` = 1 where ``args`` start with ``self``)
    by :func:`too_many_positional`, before it runs: :func:`checked_keywords`'s wrapper."""
    most = None if positional is None else len(positional[0]) + bound
    known: list[tuple[tuple[str, ...], frozenset[str]]] = []  # on the first keywords

    def names() -> tuple[tuple[str, ...], frozenset[str]]:
        if not known:
            extra = also() if callable(also) else (also or ())
            listed = tuple(dict.fromkeys([*named, *extra]))
            known.append((listed, frozenset(listed)))
        return known[0]

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        if most is not None and len(args) > most:
            raise too_many_positional(owner, args[bound:], *positional)
        if kwargs:
            listed, have = names()
            if not have.issuperset(kwargs):
                unknown = [k for k in kwargs if k not in have]
                raise unknown_settings(owner, unknown, listed,
                                       advice(unknown) if advice is not None else "")
        return fn(*args, **kwargs)

    call.__checked__ = True
    return call


def checked_methods(cls: type) -> type:
    """Check the keywords of every public method ``cls`` defines -- functions, class and
    static methods, not properties -- as :func:`checked_keywords` checks a call's: a
    misspelt keyword (``data.select(model="a")``, ``board.caption(wide=1)``) is refused
    before the method runs, naming ``Outcomes.select()`` and its settings, as a
    :class:`UnknownSettingError` (a ``TypeError`` too), not Python's bare "unexpected keyword
    argument". The class is changed in place and returned. :func:`checked_keywords` does this
    for every class it checks; a base class (no ``__init__`` of its own) or a result that a
    notebook does not construct takes this decorator alone.

    Example
    -------
    >>> from scorio_core._validation import checked_methods
    >>> @checked_methods
    ... class Board:
    ...     def caption(self, wide=False):
    ...         return "wide" if wide else "narrow"
    >>> Board().caption(wide=True)
    'wide'
    >>> Board().caption(wdie=True)
    Traceback (most recent call last):
    ...
    scorio_core._validation.UnknownSettingError: Board.caption(): unknown setting wdie (did \
you mean 'wide'?); its settings are wide
    """
    import inspect

    # its own methods, then those of private bases (``_Junction.describe`` is
    # ``AllOf.describe``), each checked under this class's name
    private = [b for b in cls.__mro__[1:] if b.__name__.startswith("_") and b is not object]
    done: set[str] = set()
    for name, member in [(n, m) for k in (cls, *private) for n, m in vars(k).items()]:
        wrap = type(member) if isinstance(member, classmethod | staticmethod) else None
        fn = member.__func__ if wrap is not None else member
        if (name.startswith("_") or name in done or not inspect.isfunction(fn)
                or getattr(fn, "__checked__", False)):
            continue
        done.add(name)
        params = list(inspect.signature(fn).parameters.values())
        if wrap is not staticmethod:
            params = params[1:]  # self, or a class method's cls
        if any(p.kind == p.VAR_KEYWORD for p in params):
            raise TypeError(f"{cls.__name__}.{name} takes **kwargs: check it with "
                            "@checked_keywords(also=...) instead")
        named = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        call = _checking(fn, f"{cls.__name__}.{name}()", named, None, None,
                         _positional(params), int(wrap is not staticmethod))
        setattr(cls, name, wrap(call) if wrap is not None else call)
    return cls
