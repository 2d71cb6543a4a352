"""Input validation shared by every public function.

All checks raise :class:`ValidationError` (a ``ValueError``) whose message says
what was expected and what was received, so the app and the CLI can show it
verbatim.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import unicodedata
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "ValidationError",
    "SettingsConflict",
    "as_outcome_array",
    "as_weights",
    "as_prior",
    "check_k",
    "check_confidence",
    "check_weight_vector",
    "check_bounds",
    "parse_json",
    "json_safe",
    "renamed_keyword",
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


class SettingsConflict(ValidationError):
    """Settings that are each valid but inconsistent together.

    ``text`` names each setting as ``{name}`` (its keyword); ``found`` holds the values
    found. The message fills in the keywords and ends with what was found; a caller that
    calls the settings otherwise (the command line's flags) phrases the same rule with
    :meth:`say`, so the rule is written once.

    Example
    -------
    >>> from scorio_core._validation import SettingsConflict
    >>> e = SettingsConflict("{upper} must exceed {lower}", upper=0.5, lower=0.6)
    >>> str(e)
    'upper must exceed lower; got upper=0.5, lower=0.6'
    >>> e.say(lambda k: "--" + k, lambda k, v: f"--{k} {v}")
    '--upper must exceed --lower; got --upper 0.5, --lower 0.6'
    """

    def __init__(self, text: str, **found: Any) -> None:
        self.text, self.found = text, found
        super().__init__(self.say())

    def say(self, name: Callable[[str], str] = str,
            found: Callable[[str, Any], str] = lambda k, v: f"{k}={v!r}") -> str:
        """The message with each setting called ``name(keyword)`` and each value found
        written ``found(keyword, value)``."""
        text = re.sub(r"\{(\w+)\}", lambda m: name(m[1]) if m[1] in self.found else m[0],
                      self.text)
        return f"{text}; got {', '.join(found(k, v) for k, v in self.found.items())}"


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


def as_outcome_array(
    R, *, name: str = "R", min_ndim: int = 2, max_ndim: int | None = None
) -> np.ndarray:
    """Return ``R`` as a non-negative integer array, or raise.

    Accepts integer arrays, boolean arrays and float arrays whose values are
    whole numbers. NaN, infinities, fractional and negative values are refused
    with the position of the first offending cell. Signed integer input is
    returned as is (no copy: an int8 tensor stays int8), boolean input as an
    int8 view, unsigned input as the smallest signed type that holds it (so
    differences cannot wrap around); float input becomes int64. A path or a table
    is refused with the call that loads it.
    """
    refuse_path(R, name)
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
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise ValidationError(
                f"{name} must hold finite integer categories; found {a[idx]} at index {idx} "
                f"({int(bad.sum())} non-finite cell(s) in all)"
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
    """A finite 1-D float vector of at least two category weights, each ``|w| <= MAX_WEIGHT``."""
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
    """``None`` or an interval ``(lo, hi)`` with ``lo < hi`` (infinite ends allowed, NaN not)."""
    if bounds is None:
        return None
    try:
        lo, hi = (float(b) for b in bounds)
    except (TypeError, ValueError):
        raise ValidationError(
            f"bounds must be a pair (lo, hi) of numbers; got {bounds!r}"
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


def check_choice(name: str, value, allowed) -> str:
    """``value`` if it is one of ``allowed``, else a :class:`ValidationError` listing them."""
    if value not in allowed:
        raise ValidationError(
            f"{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}"
        )
    return value


def check_steps(N: int, steps) -> np.ndarray:
    """The trials-per-question grid of a convergence study: ``1..N`` when ``steps`` is
    None, else the sorted unique whole numbers of ``steps``, each in ``1..N``.

    Example
    -------
    >>> from scorio_core._validation import check_steps
    >>> check_steps(4, None).tolist(), check_steps(8, [8, 2, 2]).tolist()
    ([1, 2, 3, 4], [2, 8])
    """
    if steps is None:
        return np.arange(1, int(N) + 1)
    s = np.unique(np.asarray(list(steps), dtype=int))
    if s.size == 0 or s.min() < 1 or s.max() > N:
        raise ValidationError(f"steps must lie in 1..{N}; got {s.tolist()}")
    return s


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
