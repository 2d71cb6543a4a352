"""The :class:`Outcomes` data model (SPEC §2).

An outcome tensor ``R`` of shape ``(L, M, N)`` -- ``L`` models, ``M`` questions,
``N`` i.i.d. trials -- holding integer categories ``0..C`` (binary: 0 wrong,
1 correct), plus optional prior outcomes ``R0`` (e.g. greedy decodes), category
names and weights, model names, question ids, a per-question benchmark label,
per-question attributes (e.g. the source a question comes from: subsets and tags),
per-completion signals (NaN where a completion has no value) and free metadata.

Example
-------
>>> import numpy as np
>>> from scorio_core.outcomes import Outcomes
>>> o = Outcomes(np.array([[[1, 0, 1], [0, 0, 1]]]), models=["m"])
>>> o.shape, o.weights.tolist()
((1, 2, 3), [0.0, 1.0])
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from ._validation import (
    Only,
    Said,
    ValidationError,
    as_names,
    as_outcome_array,
    check_weight_vector,
    checked_keywords,
    did_you_mean,
    refuse_path,
    unique_names,
)
from .formatting import count_text, shape_text, weight_text

if TYPE_CHECKING:
    from .samples import SampleStore

__all__ = ["Outcomes", "as_outcomes", "COMBINED", "NO_BENCHMARK", "ONE_MODEL_NEXT",
           "MissingWeightsError", "check_name", "MISSING_SIGNAL_RULE", "binary_next",
           "correct_rule", "BINARY_NAMES", "UNNAMED_FRAME", "UNNAMED_HINT"]

#: Label of the "all benchmarks concatenated" selection.
COMBINED = "combined"
#: The names of binary outcomes' two categories where none are given: what the codes mean
#: (0 wrong, 1 correct), not a user's choice of names.
BINARY_NAMES = ("wrong", "correct")
#: What the data's benchmark is called where the questions carry no benchmark label: in
#: :meth:`Outcomes.describe` and a report's provenance (``definitions.provenance``).
NO_BENCHMARK = "(none: the questions carry no benchmark label)"
#: The name of data loaded from an in-memory table without ``name=`` (``sc.load(df)``): the
#: table has no file name to take one from. Their display says once how to name them
#: (:data:`UNNAMED_HINT`); every title, report and export file name carries the name.
UNNAMED_FRAME = "DataFrame"
#: What the display of such data says (:meth:`Outcomes.unnamed`).
UNNAMED_HINT = ("named 'DataFrame' for want of a file name: sc.load(df, name='my run') names "
                "it in every title, report and export file name")
#: What to do with one model where an analysis compares several (every refusal says it).
ONE_MODEL_NEXT = ("Load data with 2 or more models; the Leaderboard shows this model's score "
                  "and its interval.")
#: Question attribute naming each question's harness group of benchmarks (lm-eval
#: ``group_subtasks``): :meth:`Outcomes.select` takes a group's name too.
GROUP = "group"
#: ``metadata`` key of what loading did that changes the numbers -- trials left out to
#: combine tasks, ``on_missing`` dropping questions or trials: a list of ``{"text": sentence,
#: "benchmarks": [the benchmarks it concerns; none: the whole load]}``, written by the
#: loader (:mod:`scorio_core.io`) and read through :attr:`Outcomes.load_notes`.
LOAD_NOTES = "load_notes"
#: ``metadata`` key set by the loader when it pooled the logs (or files) of several tasks
#: into one view: :attr:`Outcomes.load_notes` then says so while the view holds several.
POOLED = "pooled_tasks"

_MAX_NAME = 200
_FORMULA_START = ("=", "+", "@", "\t", "\r")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: Unicode categories refused in names: controls (incl. U+0085), format characters
#: (bidi overrides, zero-width spaces and joiners, BOM), line/paragraph separators
#: (U+2028/9), surrogates, private use and unassigned code points.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
_SIGNAL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
#: Most distinct values a question attribute may take (more means per-question text).
MAX_ATTRIBUTE_VALUES = 1000

#: What a missing (NaN) signal value means, for the validation report and the docs; the
#: rubric evaluator (:mod:`scorio_core.rubric.evaluate`) implements it.
MISSING_SIGNAL_RULE = (
    "a comparison that reads a missing signal value is unknown (neither true nor false): "
    "'not' keeps it unknown, 'and' is false if any term is false, 'or' is true if any term "
    "is true (Kleene logic, as SQL treats NULL); a rule matches only where its condition is "
    "true, so an unknown completion falls through to the next rule or the default "
    "category; percentile thresholds are taken over the values present"
)


class MissingWeightsError(ValidationError):
    """Categorical outcomes (a category above 1) were given without category weights."""


def frozen(a: np.ndarray) -> np.ndarray:
    """``a`` made read-only and returned: for code that builds an array and hands it to
    :class:`Outcomes` without keeping it, so the dataset takes it without a copy."""
    a.setflags(write=False)
    return a


def _private(a: np.ndarray, given: Any) -> np.ndarray:
    """``a``, or a copy of it when it is the caller's writeable array (or a view of it):
    the dataset is immutable, and freezing the caller's own array would break their
    later writes to it (``np.asarray`` returns the caller's array itself)."""
    if isinstance(given, np.ndarray) and given.flags.writeable and np.shares_memory(a, given):
        return a.copy()
    return a


def check_name(name: Any, what: str) -> str:
    """Return ``name`` as a safe display string or raise :class:`ValidationError`.

    Names end up in HTML, Markdown and spreadsheets, so markup characters,
    control characters and leading spreadsheet-formula characters are refused
    rather than silently rewritten (which would lose the user's data).
    """
    s = str(name)
    if not s.strip():
        raise ValidationError(f"{what} must be a non-empty name; got {name!r}")
    if len(s) > _MAX_NAME:
        raise ValidationError(f"{what} {s[:40]!r}... is {len(s)} characters; at most {_MAX_NAME}")
    if _CONTROL.search(s):
        raise ValidationError(f"{what} {s!r} contains control characters")
    hidden = [c for c in s if unicodedata.category(c) in _HIDDEN_CATEGORIES]
    if hidden:
        codes = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, '')}".strip() for c in hidden[:3])
        raise ValidationError(
            f"{what} {s!r} contains invisible or line-breaking characters ({codes}): they make "
            "different names look the same or reorder the text around them"
        )
    if "<" in s or ">" in s:
        raise ValidationError(f"{what} {s!r} contains '<' or '>'; markup is not allowed in names")
    if s.startswith(_FORMULA_START):
        raise ValidationError(
            f"{what} {s!r} starts with {s[0]!r}, which spreadsheets execute as a formula; "
            "rename it"
        )
    return s


def _names(values: Sequence[Any] | None, n: int, what: str, prefix: str,
           keyword: str) -> tuple[str, ...]:
    """``n`` names given as ``keyword`` (a list; one string is split at its commas, but
    where one name is wanted, whose name it is whole), or ``prefix0, prefix1, ...``."""
    if values is None:
        return tuple(f"{prefix}{i}" for i in range(n))
    vals = [check_name(v, what) for v in as_names(values, keyword, noun=f"{what}s", count=n)]
    if len(vals) != n:
        raise ValidationError(f"expected {n} {what}s to match R; got {len(vals)}")
    return unique_names(vals, f"{what}s")


def _attributes(
    given: Mapping[str, Sequence[Any]] | None, M: int, signals: Mapping[str, np.ndarray]
) -> dict[str, tuple[str, ...]]:
    """Validated question attributes: one safe string per question (``""`` = no value)."""
    out: dict[str, tuple[str, ...]] = {}
    for key, values in dict(given or {}).items():
        key = str(key)
        if not _SIGNAL_NAME.match(key):
            raise ValidationError(
                f"question attribute name {key[:40]!r} must be letters, digits and '_' (at most "
                "64, not starting with a digit)"
            )
        if key in signals:
            raise ValidationError(
                f"{key!r} is both a signal and a question attribute; one name, one meaning"
            )
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence | np.ndarray):
            raise ValidationError(
                f"question attribute {key!r} must be a sequence of {M} strings (one per "
                f"question); got {type(values).__name__}"
            )
        vals = tuple("" if v is None else str(v) for v in values)
        if len(vals) != M:
            raise ValidationError(
                f"question attribute {key!r} must give one value per question ({M}); got "
                f"{len(vals)}"
            )
        distinct = set(vals) - {""}
        for v in distinct:
            check_name(v, f"value of question attribute {key!r}")
        if not distinct:
            raise ValidationError(f"question attribute {key!r} has no value on any question")
        if len(distinct) > MAX_ATTRIBUTE_VALUES:
            raise ValidationError(
                f"question attribute {key!r} takes {len(distinct):,} distinct values, more than "
                f"{MAX_ATTRIBUTE_VALUES:,}; attributes name subsets of questions (source, tag), "
                "not per-question text"
            )
        out[key] = vals
    return out


@checked_keywords
@dataclass(frozen=True, eq=False, repr=False)
class Outcomes:
    """A validated outcome tensor and everything that describes it.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (M, N)
        Integer categories ``0..C``; a 2-D array is one model.
    R0 : array_like, shape (L, M, D) or (M, D), optional
        Prior outcomes (e.g. greedy decodes); ``(M, D)`` is shared by all models.
    weights : array_like, shape (C+1,), optional
        Value of each category. Defaults to ``[0, 1]`` for binary data; categorical
        data (any category above 1, or more than two ``category_names``) without
        weights raise :class:`MissingWeightsError` naming the first such cell --
        weights are never invented.
    category_names, models, questions : sequences of str, optional
    benchmarks : sequence of str, optional
        One benchmark label per question; enables :meth:`select`.
    signals : mapping name -> array (L, M, N), optional
        Per-completion numeric signals for rubric building. ``NaN`` marks a completion
        without a value (e.g. an API failure that returned no text); how rubric predicates
        treat it is :data:`MISSING_SIGNAL_RULE`. Infinite values are refused, and so is a
        signal without a single value.
    name : str
        Dataset name shown in the app.
    metadata : mapping
        Free-form JSON-serialisable description (source, synthetic flag, ...).
    question_attributes : mapping name -> sequence of str, optional
        Per-question labels (subset, tag, source ...): one string per question, ``""``
        where a question has no value. Names follow the signal-name rule and must differ
        from the signal names. Kept by :meth:`select` and :meth:`subset`.
    parts : mapping benchmark -> Outcomes, optional
        Benchmarks whose trials differ (e.g. an Inspect ``eval_set`` of tasks run with 2
        and 3 epochs): each benchmark's own data with all its trials, returned by
        :meth:`select`. ``R`` then holds the first trials common to every benchmark
        (the combined view; the loader says so in its import report). Parts must have
        the same models, categories and weights as the combined view; a part that no
        longer agrees (e.g. after a rubric replaced ``R`` and the weights) is dropped.
    samples : SampleStore, optional
        Each completion's text (input, target, output, answer, explanation, metadata)
        keyed by (model, question, trial position), on disk and read one question at a
        time (:class:`scorio_core.samples.SampleStore`); ``None`` for data without text
        (an ``.npz``, a table without text columns). Kept by :meth:`select`,
        :meth:`subset` and :meth:`with_weights` (the keys stay valid); not part of
        ``R`` and never read by an analysis of the scores.

    Example
    -------
    >>> import numpy as np
    >>> o = sc.Outcomes(np.random.default_rng(0).integers(0, 2, (2, 5, 3)), models=["a", "b"])
    >>> o.L, o.M, o.N, o.models
    (2, 5, 3, ('a', 'b'))
    >>> o  # a short summary; a notebook shows describe() as a table
    Outcomes('dataset': 2 models × 5 questions × 3 trials; categories wrong=0, correct=1; R0 none)
    """

    R: np.ndarray
    R0: np.ndarray | None = None
    weights: np.ndarray | None = None
    category_names: tuple[str, ...] | None = None
    models: tuple[str, ...] | None = None
    questions: tuple[str, ...] | None = None
    benchmarks: tuple[str, ...] | None = None
    signals: Mapping[str, np.ndarray] = field(default_factory=dict)
    name: str = "dataset"
    metadata: Mapping[str, Any] = field(default_factory=dict)
    question_attributes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    parts: Mapping[str, Outcomes] | None = None
    samples: SampleStore | None = None

    def __post_init__(self) -> None:
        R = _private(as_outcome_array(self.R, name="R", min_ndim=2, max_ndim=3), self.R)
        if R.ndim == 2:
            R = R[None]
        L, M, N = R.shape
        meta = dict(self.metadata)

        C_seen = int(R.max())
        if self.weights is None:
            self._refuse_categorical_without_weights(R, C_seen)
            w, C = np.array([0.0, 1.0]), 1
        else:
            w = check_weight_vector(self.weights, "weights")
            C = w.size - 1
            if C_seen > C:
                idx = tuple(int(i) for i in np.argwhere(R > C)[0])
                raise ValidationError(
                    f"R holds category {R[idx]} at index (model, question, trial) = {idx}, but "
                    f"the {w.size} weights define categories 0..{C}"
                )
            if C > max(C_seen, 1) and self.category_names is None:
                # e.g. `--weights 0,1,0` on binary data: a phantom category that never
                # occurs still takes prior mass, so an all-correct model scores lower
                raise ValidationError(
                    f"the {w.size} weights define categories 0..{C}, but the outcomes hold "
                    f"only 0..{max(C_seen, 1)}; give one weight per category of the data, or "
                    "name every category (category_names) if some of them never occur"
                )

        if self.category_names is None:
            cats = BINARY_NAMES if C == 1 else tuple(f"cat{k}" for k in range(C + 1))
        else:
            cats = tuple(check_name(c, "category name") for c in as_names(
                self.category_names, "category_names", noun="category names", count=C + 1))
            if len(cats) != C + 1:
                raise ValidationError(
                    f"expected {C + 1} category names (categories 0..{C}); got {len(cats)}"
                )

        R0 = self.R0
        if R0 is not None:
            R0 = _private(as_outcome_array(R0, name="R0", min_ndim=2, max_ndim=3), self.R0)
            ok = (R0.ndim == 2 and R0.shape[0] == M) or (R0.ndim == 3 and R0.shape[:2] == (L, M))
            if not ok:
                raise ValidationError(
                    f"R0 must have shape ({L}, {M}, D) or ({M}, D) to match R of shape "
                    f"{(L, M, N)}; got {tuple(R0.shape)}"
                )
            if R0.max() > C:
                idx = tuple(int(i) for i in np.argwhere(R0 > C)[0])
                raise ValidationError(
                    f"R0 holds category {R0[idx]} at index {idx}, outside categories 0..{C}"
                )

        models = _names(self.models, L, "model name", "model_", "models")
        questions = _names(self.questions, M, "question id", "q", "questions")
        benchmarks = None
        if self.benchmarks is not None:
            benchmarks = tuple(check_name(b, "benchmark name") for b in as_names(
                self.benchmarks, "benchmarks", noun="benchmark names", count=M))
            if len(benchmarks) != M:
                raise ValidationError(
                    f"expected one benchmark label per question ({M}); got {len(benchmarks)}"
                )
            if COMBINED in benchmarks:
                raise ValidationError(f"{COMBINED!r} is reserved and cannot be a benchmark name")

        signals: dict[str, np.ndarray] = {}
        for key, arr in dict(self.signals).items():
            if not _SIGNAL_NAME.match(str(key)):
                raise ValidationError(
                    f"signal name {str(key)[:40]!r} must be letters, digits and '_' (at most 64, "
                    "not starting with a digit)"
                )
            a = np.asarray(arr)
            if a.dtype == bool:
                a = a.astype(float)
            if not np.issubdtype(a.dtype, np.number) or a.shape != (L, M, N):
                raise ValidationError(
                    f"signal {key!r} must be a numeric array of shape {(L, M, N)} like R; got "
                    f"shape {tuple(a.shape)} and dtype {a.dtype}"
                )
            a = a.astype(float)
            if np.isinf(a).any():
                raise ValidationError(
                    f"signal {key!r} holds {count_text(np.isinf(a).sum(), 'infinite value')}; "
                    "signals must be finite numbers (NaN marks a completion without a value)"
                )
            if a.size and np.isnan(a).all():
                raise ValidationError(
                    f"signal {key!r} has no value at all (every completion is NaN); leave it out"
                )
            signals[str(key)] = a
        attributes = _attributes(self.question_attributes, M, signals)
        if self.samples is not None:
            from .samples import SampleStore

            if not isinstance(self.samples, SampleStore):
                raise ValidationError(
                    f"samples must be a SampleStore (scorio_core.samples); got "
                    f"{type(self.samples).__name__}"
                )

        name = str(self.name)[:_MAX_NAME]
        for attr, val in [
            ("R", R),
            ("R0", R0),
            ("weights", w),
            ("category_names", cats),
            ("models", models),
            ("questions", questions),
            ("benchmarks", benchmarks),
            ("signals", signals),
            ("question_attributes", attributes),
            ("name", name),
            ("metadata", meta),
            ("parts", self._check_parts(R, models, questions, w, benchmarks)),
        ]:
            object.__setattr__(self, attr, val)
        R.setflags(write=False)
        if R0 is not None:
            R0.setflags(write=False)

    def _check_parts(self, R, models, questions, w, benchmarks) -> dict[str, Outcomes] | None:
        """The parts, or ``None`` when any no longer agrees with ``R`` (e.g. a rubric
        replaced ``R``): each part's first N trials must be ``R`` on its questions."""
        if not self.parts:
            return None
        have = set(benchmarks or ())
        out = {}
        for b, part in dict(self.parts).items():
            if not isinstance(part, Outcomes):
                raise ValidationError(
                    f"parts[{b!r}] must be an Outcomes; got {type(part).__name__}"
                )
            if b not in have:
                raise ValidationError(
                    f"parts has benchmark {b!r}, which no question is labelled with"
                )
            if part.models != models:
                raise ValidationError(
                    f"parts[{b!r}] has models {part.models}; expected the same as R: {models}"
                )
            mask = np.array([x == b for x in benchmarks])
            same = (
                part.weights.shape == w.shape and np.array_equal(part.weights, w)
                and part.N >= R.shape[2]
                and tuple(q for q, k in zip(questions, mask, strict=True) if k) == part.questions
                and np.array_equal(part.R[:, :, : R.shape[2]], R[:, mask])
            )  # fmt: skip
            if same:
                out[str(b)] = part
        return out if len(out) == len(self.parts) else None

    def _refuse_categorical_without_weights(self, R: np.ndarray, C_seen: int) -> None:
        # Inventing weights (e.g. a linear ramp) would silently turn one stray '2' in a
        # binary file into partial credit and reorder the models.
        n_names = len(self.category_names) if self.category_names is not None else 2
        if C_seen <= 1 and n_names <= 2:
            return
        if C_seen > 1:
            idx = tuple(int(i) for i in np.argwhere(R > 1)[0])
            where = [f"index (model, question, trial) = {idx}"]
            for k, (labels, what) in enumerate([(self.models, "model"),
                                                (self.questions, "question")]):  # fmt: skip
                if labels is not None and len(labels) == R.shape[k]:
                    where.append(f"{what} {str(labels[idx[k]])[:60]!r}")
            found = f"R holds category {R[idx]} at {', '.join(where)}"
            example = tuple(float(f"{k / C_seen:.3g}") for k in range(C_seen + 1))
        else:
            found = f"{n_names} category names were given"
            example = tuple(float(f"{k / (n_names - 1):.3g}") for k in range(n_names))
        from .io.options import mention

        # the option as each surface names it (a Said): weights=[...], --weights, the box
        raise MissingWeightsError(Said(
            f"{found}, but no category weights: categorical outcomes (categories above 1) "
            "need one weight per category. Give them, e.g. ", mention("weights", example),
            Only("app", ", among the upload's options"),
            "; if the data are binary (0 wrong, 1 correct), that value is a mistake in the file"))

    # ------------------------------------------------------------------ shape
    @property
    def shape(self) -> tuple[int, int, int]:
        return tuple(self.R.shape)  # type: ignore[return-value]

    @property
    def L(self) -> int:
        return self.R.shape[0]

    @property
    def M(self) -> int:
        return self.R.shape[1]

    @property
    def N(self) -> int:
        return self.R.shape[2]

    @property
    def C(self) -> int:
        return self.weights.size - 1

    @property
    def D(self) -> int:
        return 0 if self.R0 is None else self.R0.shape[-1]

    @property
    def is_binary(self) -> bool:
        return self.C == 1

    @property
    def R0_per_model(self) -> np.ndarray | None:
        """``R0`` broadcast to ``(L, M, D)``."""
        if self.R0 is None:
            return None
        if self.R0.ndim == 2:
            return np.broadcast_to(self.R0, (self.L,) + self.R0.shape)
        return self.R0

    # -------------------------------------------------------------- selection
    @property
    def benchmark_names(self) -> list[str]:
        """Distinct benchmark labels in order of first appearance."""
        if self.benchmarks is None:
            return []
        return list(dict.fromkeys(self.benchmarks))

    def select(self, benchmark: str | None = None, *,
               models: str | Sequence[str] | None = None) -> Outcomes:
        """The questions of one benchmark and/or some of the models.

        Parameters
        ----------
        benchmark : str, optional
            A benchmark's questions; ``None`` or ``"combined"`` keeps all. A harness group
            of benchmarks (lm-eval ``group_subtasks``, read as the question attribute
            ``group``) selects the questions of all its benchmarks.
        models : str or sequence of str, optional
            The models to keep, in the order given (``None`` keeps all): ``R``, a
            per-model ``R0``, the signals and each benchmark's part are sliced alike;
            weights, categories, questions, attributes and the completion texts are kept.
            One string is one model, or several separated by commas where every part is a
            model of these data (``"qwen, gpt-4"``; a name may hold a comma, as ``--pair``
            reads it). An unknown name is refused with the closest names and the dataset's
            models.

        Examples
        --------
        >>> import numpy as np
        >>> o = sc.Outcomes(np.arange(24).reshape(3, 4, 2) % 2, models=["gpt-4", "llama", "qwen"])
        >>> two = o.select(models=["qwen", "gpt-4"])
        >>> two.models, two.shape, two.name
        (('qwen', 'gpt-4'), (2, 4, 2), 'dataset [models=qwen|gpt-4]')
        >>> o.select(models=["gpt4"])
        Traceback (most recent call last):
        ...
        scorio_core._validation.ValidationError: unknown model 'gpt4' (did you mean \
'gpt-4'?); this dataset's models: gpt-4, llama, qwen
        """
        data = self._select_benchmark(benchmark)
        return data if models is None else data._take_models(models)

    def _take_models(self, models: str | Sequence[str]) -> Outcomes:
        # a string with commas splits only into names of these models (a name may hold one)
        wanted = list(as_names(models, "models", noun="model names", among=self.models))
        have = ", ".join(self.models[:30]) + (f", … ({self.L} in all)" if self.L > 30 else "")
        if not wanted:
            raise ValidationError(f"models= names no model; this dataset's models: {have}")
        unknown = [m for m in dict.fromkeys(wanted) if m not in self.models]
        if unknown:
            def named(m: str) -> str:
                hint = did_you_mean(m, self.models)  # "; did you mean 'x'?" or ""
                return f"{m!r} ({hint[2:]})" if hint else repr(m)

            raise ValidationError(
                f"unknown model{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(map(named, unknown))}; this dataset's models: {have}"
            )
        twice = [m for m in dict.fromkeys(wanted) if wanted.count(m) > 1]
        if twice:
            raise ValidationError(f"models= names {', '.join(map(repr, twice))} more than once")
        idx = [self.models.index(m) for m in wanted]
        if idx == list(range(self.L)):
            return self
        label = "|".join(wanted)
        label = f"models={label}" if len(label) <= 80 else f"{len(idx)} of {self.L} models"
        return self._models_at(np.array(idx), f"{self.name} [{label}]")

    def _models_at(self, idx: np.ndarray, name: str) -> Outcomes:
        """The models at ``idx`` (every part that has a model axis sliced alike)."""
        R0 = self.R0 if self.R0 is None or self.R0.ndim == 2 else frozen(self.R0[idx])
        parts = None if not self.parts else {
            b: p._models_at(idx, p.name) for b, p in self.parts.items()}
        return Outcomes(
            R=frozen(self.R[idx]),
            R0=R0,
            weights=self.weights,
            category_names=self.category_names,
            models=[self.models[i] for i in idx],
            questions=self.questions,
            benchmarks=self.benchmarks,
            signals={k: v[idx] for k, v in self.signals.items()},
            question_attributes=self.question_attributes,
            name=name,
            metadata=self.metadata,
            parts=parts,
            samples=self.samples,  # keyed by model name: the kept models' rows still fit
        )

    def _select_benchmark(self, benchmark: str | None) -> Outcomes:
        if benchmark in (None, COMBINED):
            return self
        if benchmark not in self.benchmark_names and benchmark in self.question_attributes.get(
                GROUP, ()):
            keep = np.array([g == benchmark for g in self.question_attributes[GROUP]])
            return self._take_questions(keep, f"{self.name} [{benchmark}]")
        if benchmark not in self.benchmark_names:
            have = ", ".join([COMBINED, *self.benchmark_names]) if self.benchmarks else COMBINED
            raise ValidationError(f"unknown benchmark {benchmark!r}; this dataset has: {have}")
        if self.parts and benchmark in self.parts:  # its own trials, not the common ones
            return self.parts[benchmark]
        keep = np.array([b == benchmark for b in self.benchmarks])
        return self._take_questions(keep, f"{self.name} [{benchmark}]")

    def attribute_values(self, attribute: str) -> list[str]:
        """Distinct values of a question attribute in order of first appearance
        (``""``, no value, left out)."""
        self._check_attribute(attribute)
        return [v for v in dict.fromkeys(self.question_attributes[attribute]) if v]

    def _check_attribute(self, attribute: str) -> None:
        if attribute not in self.question_attributes:
            have = ", ".join(map(repr, self.question_attributes)) or "none"
            raise ValidationError(
                f"unknown question attribute {attribute!r}; this dataset has: {have}"
            )

    def subset(self, attribute: str, values: str | Sequence[str]) -> Outcomes:
        """The questions whose ``attribute`` is one of ``values`` (every part that has a
        question axis is sliced: ``R``, ``R0``, signals, benchmarks, attributes). One string
        is one value, or several separated by commas where every part is a value (as
        ``--subset ATTRIBUTE=V1,V2`` reads them).

        Examples
        --------
        >>> import numpy as np
        >>> o = sc.Outcomes(np.array([[[1, 0], [1, 1], [0, 0]]]),
        ...              question_attributes={"source": ["arc", "gsm", "arc"]})
        >>> s = o.subset("source", "arc")
        >>> s.questions, s.question_attributes["source"], s.name
        (('q0', 'q2'), ('arc', 'arc'), 'dataset [source=arc]')
        """
        self._check_attribute(attribute)
        have = self.attribute_values(attribute)
        # as --subset ATTRIBUTE=V1,V2 reads them, a comma splitting only between values
        wanted = list(as_names(values, "values", noun="attribute values", among=have))
        unknown = [v for v in wanted if v not in have]
        if unknown or not wanted:
            raise ValidationError(
                f"question attribute {attribute!r} has no value "
                f"{', '.join(map(repr, unknown)) or '(none given)'}; its values are: "
                + ", ".join(map(repr, have))
            )
        keep = np.isin(np.array(self.question_attributes[attribute], dtype=object), wanted)
        return self._take_questions(keep, f"{self.name} [{attribute}={'|'.join(wanted)}]")

    def _take_questions(self, keep: np.ndarray, name: str) -> Outcomes:
        R0 = None if self.R0 is None else frozen(self.R0[..., keep, :])
        return Outcomes(
            R=frozen(self.R[:, keep]),
            R0=R0,
            weights=self.weights,
            category_names=self.category_names,
            models=self.models,
            questions=[q for q, k in zip(self.questions, keep, strict=True) if k],
            benchmarks=None
            if self.benchmarks is None
            else [b for b, k in zip(self.benchmarks, keep, strict=True) if k],
            signals={k: v[:, keep] for k, v in self.signals.items()},
            question_attributes={
                k: [a for a, k2 in zip(v, keep, strict=True) if k2]
                for k, v in self.question_attributes.items()
                # an attribute left without a value on the kept questions is dropped
                if any(a for a, k2 in zip(v, keep, strict=True) if k2)
            },
            name=name,
            metadata=self.metadata,
            samples=self.samples,  # keyed by question id: the kept questions' rows still fit
        )

    def with_samples(self, samples: SampleStore | None) -> Outcomes:
        """The same data with ``samples`` as the completion texts (every part too);
        ``self`` when ``samples`` is ``None``."""
        if samples is None:
            return self
        parts = None if not self.parts else {
            b: replace(p, samples=samples) for b, p in self.parts.items()}
        return replace(self, samples=samples, parts=parts)

    def with_weights(self, weights: Sequence[float]) -> Outcomes:
        """The same data scored with other category weights."""
        w = check_weight_vector(weights, "weights")
        parts = None if not self.parts else {b: p.with_weights(w) for b, p in self.parts.items()}
        return replace(self, weights=w, parts=parts)

    def category_scores(self) -> np.ndarray:
        """Each category's score on the data's own scale: a graded score's value (on the
        scale the loader read it on, ``metadata["score_range"]``, e.g. 7 on 0-10), else its
        weight (Inspect's C = 1, P = 0.5, I = 0): what ``correct_from`` compares.

        Example
        -------
        >>> import numpy as np
        >>> o = sc.Outcomes(np.array([[[0, 2, 3]]]), weights=[0, 0.3, 0.7, 1],
        ...                 category_names=["0", "3", "7", "10"], metadata={"score_range": [0, 10]})
        >>> o.category_scores().tolist()
        [0.0, 3.0, 7.0, 10.0]
        """
        scale = self.metadata.get("score_range")
        lo, hi = (0.0, 1.0) if scale is None else (float(scale[0]), float(scale[1]))
        return lo + np.asarray(self.weights, float) * (hi - lo)

    def correct_categories(self, correct: str | Sequence[Any] | None = None,
                           correct_from: float | None = None) -> np.ndarray:
        """Which categories count as correct (one bool per category): those named in
        ``correct`` (a category's name, or its first word: ``C`` for ``C (correct)``; a
        grade's value, e.g. ``1`` or ``0.5``), or those whose score
        (:meth:`category_scores`) is at least ``correct_from``. Refused when both or neither
        is given, a name is no category, or every category lands on one side."""
        if (correct is None) == (correct_from is None):
            raise ValidationError(
                "give one of correct= (the categories that count as correct, e.g. ['C']) or "
                f"correct_from= (the score from which a trial counts as correct); got "
                f"correct={correct!r}, correct_from={correct_from!r}")
        names = list(self.category_names)
        if correct is not None:
            given = as_names(correct, "correct", noun="category names", example="C,P",
                             among=names)
            mask = np.zeros(len(names), bool)
            for value in given:
                hit = [k for k, n in enumerate(names) if _names_category(value, n)]
                if not hit:
                    raise ValidationError(Said(
                        f"correct names {value!r}, which is no category of these data; their "
                        f"categories are {', '.join(names)} (e.g. ",
                        correct_rule([_word(names[-1])]), ")"))
                mask[hit] = True
        else:
            mask = self.category_scores() >= float(correct_from) - 1e-12
        if mask.all() or not mask.any():
            side = "correct" if mask.all() else "wrong"
            scores = ", ".join(f"{n} = {s:g}" for n, s in zip(names, self.category_scores(),
                                                              strict=True))
            raise ValidationError(
                correct_rule(correct, correct_from) + f" counts every category {side} "
                f"(categories and scores: {scores}); choose some of them as correct")
        return mask

    def binarized(self, correct: str | Sequence[Any] | None = None,
                  correct_from: float | None = None) -> Outcomes:
        """The same data with each trial correct (1) or wrong (0): correct when its category
        is one of ``correct`` or its score is at least ``correct_from``
        (:meth:`correct_categories`), for the analyses that rank binary correctness. What was
        mapped is said in :attr:`load_notes` (and ``metadata["binarized"]``). The loader
        does this when given the same options (``sc.load(path, correct=["C"])``,
        ``--correct C``).

        Example
        -------
        >>> import numpy as np
        >>> o = sc.Outcomes(np.array([[[0, 1, 2]], [[2, 2, 1]]]), weights=[0, 0.5, 1],
        ...                 category_names=["I (incorrect)", "P (partial)", "C (correct)"])
        >>> b = o.binarized(correct="C")
        >>> b.R.tolist(), b.is_binary
        ([[[0, 0, 1]], [[1, 1, 0]]], True)
        >>> o.binarized(correct_from=0.5).R.tolist()
        [[[0, 1, 1]], [[1, 1, 1]]]
        >>> print(b.load_notes[0])
        Outcomes made binary (correct=['C']): C (correct) counts as correct (1); I (incorrect), \
P (partial) as wrong (0)
        """
        mask = self.correct_categories(correct, correct_from)
        names = list(self.category_names)
        right = [n for n, m in zip(names, mask, strict=True) if m]
        wrong = [n for n, m in zip(names, mask, strict=True) if not m]
        said = (f"{', '.join(right)} count{'s' if len(right) == 1 else ''} as correct (1); "
                f"{', '.join(wrong)} as wrong (0)")
        if correct_from is not None:
            at_least = f"a score of at least {float(correct_from):g} counts as correct"
            said = (f"{at_least} (1), a lower one as wrong (0)"  # scores made 0/1 when read
                    if tuple(names) == BINARY_NAMES else
                    f"{at_least}: {', '.join(right)} as correct (1); {', '.join(wrong)} as "
                    "wrong (0)")
        # the option as each surface names it (a Said: the app's caveats say its box)
        text = "Outcomes made binary (" + correct_rule(correct, correct_from) + f"): {said}"
        meta = {k: v for k, v in self.metadata.items() if k != "score_range"}  # not graded now
        meta["binarized"] = {"correct": right, "wrong": wrong}
        meta[LOAD_NOTES] = [*(meta.get(LOAD_NOTES) or ()), {"text": text, "benchmarks": []}]
        return self._as_binary(mask.astype(np.int64), meta)

    def _as_binary(self, code: np.ndarray, meta: Mapping[str, Any]) -> Outcomes:
        parts = None if not self.parts else {
            b: p._as_binary(code, p.metadata) for b, p in self.parts.items()}
        return replace(self, R=code[self.R], R0=None if self.R0 is None else code[self.R0],
                       weights=None, category_names=None, metadata=meta, parts=parts)

    @cached_property
    def texts_in_view(self) -> int:
        """Completions with text of these models on these questions (:attr:`samples`, which
        :meth:`select` and :meth:`subset` keep whole: its keys stay valid), at the trial
        positions of ``R`` or outside it (an errored sample): what :meth:`describe` counts.
        Reads the store's key columns once, never a text; ``0`` without texts.

        Example
        -------
        >>> data = sc.load("tests/fixtures/harness/inspect/texts")  # 2 models' logs
        >>> len(data.samples), data.texts_in_view, data.select(models=["alpha"]).texts_in_view
        (30, 30, 15)
        """
        if self.samples is None:
            return 0
        return self.samples.count(self.models, self.questions, self.N)

    @property
    def load_notes(self) -> tuple[str, ...]:
        """What loading did to these data that changes their numbers, in sentences with
        counts: the logs of several tasks pooled into one view, trials left out to combine
        tasks run with different trials, questions or trials dropped by ``on_missing``. Only
        the notes about the benchmarks in this view (a task selected alone has all its
        trials: no note on the others); every analysis lists them among its caveats
        (:func:`scorio_core.definitions._base.common_caveats`) and every export in its
        provenance. A note that names a loader option (the pooled view's ``benchmark=``) is a
        :class:`~scorio_core._validation.Said`: the command line and the app name the option
        their own way.

        Example
        -------
        >>> import numpy as np
        >>> o = sc.Outcomes(np.ones((2, 4, 1), int), benchmarks=["a", "a", "b", "b"],
        ...                 metadata={"load_notes": [{"text": "b: 3 of 4 trials left out",
        ...                                           "benchmarks": ["b"]}]})
        >>> o.load_notes, o.select("a").load_notes
        (('b: 3 of 4 trials left out',), ())
        """
        view = set(self.benchmark_names)
        out = []
        if self.metadata.get(POOLED) and len(view) > 1:
            per = Counter(self.benchmarks)
            shown = [f"{b}: {count_text(per[b], 'question')}" if i == 0 else f"{b}: {per[b]:,}"
                     for i, b in enumerate(self.benchmark_names[:6])]
            more = f", and {len(view) - 6:,} more" if len(view) > 6 else ""
            from .io.options import mention

            first = self.benchmark_names[0]
            out.append(Said(  # the option as each surface names it: keyword, flag, box
                f"{len(view)} tasks pooled into one view ({', '.join(shown)}{more}): every "
                "question counts once, so each task weighs by its number of questions; to "
                "analyse one task alone, choose it (", mention("benchmark", first), ")"))
        for note in self.metadata.get(LOAD_NOTES) or ():
            if not isinstance(note, Mapping) or not isinstance(note.get("text"), str):
                continue  # metadata read from a file: only the loader's own notes
            about = note.get("benchmarks") or ()
            if not about or view.intersection(about):
                out.append(note["text"])
        return tuple(dict.fromkeys(out))

    # ---------------------------------------------------------------- reports
    def describe(self) -> dict[str, Any]:
        """A JSON-friendly validation/shape report used by the Data page and CLI."""
        counts = np.bincount(self.R.ravel(), minlength=self.C + 1)
        return {
            "name": self.name,
            "models (L)": self.L,
            "questions (M)": self.M,
            "trials (N)": self.N,
            "categories": {
                f"{k}: {self.category_names[k]} (w={weight_text(self.weights[k])})": int(counts[k])
                for k in range(self.C + 1)
            },
            "prior R0": "none"
            if self.R0 is None
            else f"{count_text(self.D, 'outcome')} per question"
            + (" (shared)" if self.R0.ndim == 2 else " per model"),
            # as a report's provenance says it (definitions.provenance.benchmark_words)
            "benchmarks": self.benchmark_names or NO_BENCHMARK,
            **(
                {"trials per benchmark": {b: p.N for b, p in self.parts.items()}}
                if self.parts else {}
            ),
            "signals": sorted(self.signals),
            **(
                {"samples": f"{self.texts_in_view:,} completions (text columns: "
                            f"{', '.join(self.samples.columns)})"}
                if self.samples is not None else {}
            ),
            **self._missing_report(),
            **self._attribute_report(),
            **({"changed by the load": list(self.load_notes)} if self.load_notes else {}),
        }

    # ---------------------------------------------------------------- display
    def summary(self) -> str:
        """One line: name, shape, categories with weights, R0, benchmarks, signals and
        question attributes (the terminal repr).

        Example
        -------
        >>> import numpy as np
        >>> sc.Outcomes(np.zeros((2, 3, 4), int), name="toy").summary()
        "'toy': 2 models × 3 questions × 4 trials; categories wrong=0, correct=1; R0 none"
        """
        cats = ", ".join(f"{n}={weight_text(w)}" for n, w in zip(self.category_names,
                                                                  self.weights, strict=True))
        parts = [f"{self.name!r}: {shape_text(self.L, self.M, self.N)}",
                 f"categories {cats}",
                 "R0 none" if self.R0 is None else f"R0 {self.D} per question"]
        if self.benchmark_names:
            parts.append("benchmarks " + ", ".join(self.benchmark_names))
        if self.signals:
            parts.append("signals " + ", ".join(sorted(self.signals)))
        if self.question_attributes:
            parts.append("attributes " + ", ".join(self.question_attributes))
        return "; ".join(parts)

    @property
    def unnamed(self) -> bool:
        """Whether these data were loaded from an in-memory table without ``name=`` (named
        :data:`UNNAMED_FRAME`): their display then says how to name them.

        Example
        -------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"model": ["a", "b"], "question": ["q", "q"], "trial": [0, 0],
        ...                    "outcome": [1, 0]})
        >>> sc.load(df).unnamed, sc.load(df, name="my run").unnamed
        (True, False)
        """
        return self.name == UNNAMED_FRAME and self.metadata.get("format") == "frame"

    def __repr__(self) -> str:
        return f"Outcomes({self.summary()}" + (f"; {UNNAMED_HINT})" if self.unnamed else ")")

    def _repr_html_(self) -> str:
        """The shape, categories, benchmarks, attributes and validation report
        (:meth:`describe`) as a table, and the models."""
        import pandas as pd

        from .display import result_html

        def text(v: Any) -> str:
            if isinstance(v, dict):
                return "; ".join(f"{k}: {text(x)}" for k, x in v.items()) or "none"
            if isinstance(v, list | tuple):
                return ", ".join(map(str, v)) or "none"
            return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)

        rows = [(k, text(v)) for k, v in self.describe().items() if k != "name"]
        notes = [f"{k}: {text(self.metadata[k])}" for k in (
            "ignored_columns", "ignored_why", "dropped_questions", "truncated_to_N", "notes")
            if self.metadata.get(k)]
        if self.unnamed:  # said once, where the loaded data are first looked at
            notes.append(UNNAMED_HINT[0].upper() + UNNAMED_HINT[1:] + ".")
        models = ", ".join(self.models[:30]) + (f", … ({self.L} in all)" if self.L > 30 else "")
        return result_html(
            f"Outcomes: {self.name}",
            f"{shape_text(self.L, self.M, self.N)} · models: {models}",
            [("", pd.DataFrame(rows, columns=["", "value"]))], notes=notes,
        )

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/html": self._repr_html_(), "text/plain": repr(self)}

    def _attribute_report(self) -> dict[str, Any]:
        """Questions per value of each question attribute (only when there are any)."""
        if not self.question_attributes:
            return {}
        return {
            "question attributes": {
                k: {str(v) or "(no value)": int(n)
                    for v, n in zip(*np.unique(np.array(vals), return_counts=True), strict=True)}
                for k, vals in self.question_attributes.items()
            }
        }

    def _missing_report(self) -> dict[str, Any]:
        """Missing signal values per signal (only when some are missing)."""
        missing = {k: int(np.isnan(v).sum()) for k, v in sorted(self.signals.items())}
        missing = {k: n for k, n in missing.items() if n}
        if not missing:
            return {}
        return {
            "missing signal values": {
                k: f"{n:,} of {self.L * self.M * self.N:,} completions" for k, n in missing.items()
            },
            "missing signal rule": MISSING_SIGNAL_RULE,
        }


def as_outcomes(data: Any, what: str = "this analysis") -> Outcomes:
    """``data`` as :class:`Outcomes`: an ``Outcomes`` as it is, an array ``(L, M, N)`` of
    categories wrapped; a path is refused with the call that loads it, and so is a 2-D
    array, which reads two ways (``(L, M)`` with one trial for the rankers, one model's
    ``(M, N)`` for :class:`Outcomes`): the message gives the expression of each
    (:func:`~scorio_core._validation.two_readings`). The analyses convert their input
    here (``ANALYSES[id](...)`` and so ``sc.compare``, ``sc.convergence``, ``sc.stability``,
    ``sc.greedy``; ``sc.question_stats``, ``sc.check_smaller_run``); those that take an
    array with weights of its own (``sc.leaderboard``, ``sc.plan``, ``sc.pass_curves``)
    read it with :func:`~scorio_core._validation.as_outcome_array`, which refuses a 2-D
    array by the same rule.

    Example
    -------
    >>> from scorio_core.outcomes import as_outcomes
    >>> as_outcomes([[[1, 0], [1, 1]]]).R.shape
    (1, 2, 2)
    >>> as_outcomes([[1, 0], [1, 1]], "Leaderboard")
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: Leaderboard: data is a 2-D array A of shape \
(2, 2), which reads two ways, so say which: pass `A[:, :, None]` for 2 models × 2 questions \
with one trial each (as the rankers read it), or `A[None]` (or `sc.Outcomes(A)`) for one \
model's 2 questions × 2 trials (as sc.Outcomes reads it) (nested lists: A = np.asarray(...) \
first)
    """
    if isinstance(data, Outcomes):
        return data
    refuse_path(data, what)
    if data is None:
        raise ValidationError(f"{what} needs data: Outcomes (sc.load(path)) or an array (L, M, N)")
    try:
        R = as_outcome_array(data, name="data", min_ndim=3, max_ndim=3, takes_outcomes=True)
    except ValidationError as exc:
        raise ValidationError(f"{what}: {exc}") from None
    # the caller's own array (or a view of it) is copied by Outcomes; a new one is not
    mine = not (isinstance(data, np.ndarray) and np.shares_memory(R, data))
    return Outcomes(frozen(R) if mine else R)


def _word(name: str) -> str:
    """A category's first word: ``C`` of ``C (correct)``, what ``correct=`` may name."""
    return name.split(" (", 1)[0].strip()


def _names_category(value: str, name: str) -> bool:
    """Whether ``value`` of ``correct=`` names the category ``name``: the name or its first
    word (any case), or the same number (``1`` names the grade ``1.0``)."""
    v = str(value).strip().casefold()
    if v in (name.casefold(), _word(name).casefold()):
        return True
    try:
        return float(v) == float(name)
    except ValueError:
        return False


def correct_rule(correct: str | Sequence[Any] | None = None,
                 correct_from: float | None = None) -> Said:
    """The loader option that makes outcomes binary, as a :class:`~scorio_core._validation.
    Mention` of :class:`~scorio_core.io.LoadOptions` that each surface names its own way:
    as a ``str``, Python's keyword (``correct=['C']``); the command line's flag
    (``--correct C``) and the app's box (*Correct outcomes*) where they render it.

    Example
    -------
    >>> from scorio_core.outcomes import correct_rule
    >>> correct_rule(["C", "P"]), correct_rule(correct_from=7.0)
    ("correct=['C', 'P']", 'correct_from=7')
    """
    from .io.options import mention

    if correct is not None:
        given = tuple(as_names(correct, "correct", noun="category names", example="C,P"))
        return mention("correct", given)
    return mention("correct_from", float(f"{float(correct_from):g}"))


#: What runs on categorical or graded data as they are, where an analysis needs them binary.
ON_THE_LEADERBOARD = "Rank them on the Leaderboard (Bayes@N scores each category by its weight)"


def binary_next(data: Outcomes, what: str = "this analysis",
                instead: str = ON_THE_LEADERBOARD, to: str | None = None,
                at_hand: str | None = None) -> str:
    """How to run ``what``, which needs binary outcomes, on categorical or graded ``data``: the
    loader option that counts a trial correct, named with values tried on these data (each
    offered only when it makes them binary with both outcomes possible), after ``instead``,
    what runs on them as they are (alone where no option does); ``to``: what the option does
    (default ``"to run <what>"``); ``at_hand``: the call that runs ``what`` on the data a
    caller holds, ``{data}`` in it becoming ``data.binarized(<the first option>)`` (a
    notebook's next line, which only Python shows).

    Binary data reach here when their weights do not rank category 1 above 0 (a binary-only
    ranker refuses them). Under the loader's names for 0/1 outcomes (:data:`BINARY_NAMES`)
    the names say which outcome is correct and the weights are at fault: the option named
    is the weights of 0/1 outcomes, ``{data}`` becoming ``data.with_weights([0, 1])`` -- the
    category weighted first was "wrong", and counting it correct read "each trial counted
    correct when its outcome is wrong". Names of one's own weighted alike leave only the
    codes to say which is correct: category 1 is counted correct, not the first one.

    The options are :class:`~scorio_core._validation.Mention` parts of a
    :class:`~scorio_core._validation.Said`: each surface names them its own way -- as a
    ``str`` (a notebook, a traceback) Python's keywords, the command line its flags
    (``--correct C``), the app its boxes among the upload's options.

    Example
    -------
    >>> import numpy as np
    >>> o = sc.Outcomes(np.array([[[0, 1, 2]], [[2, 2, 1]]]), weights=[0, 0.5, 1],
    ...                 category_names=["I (incorrect)", "P (partial)", "C (correct)"])
    >>> from scorio_core.outcomes import binary_next
    >>> print(binary_next(o, "Stability"))
    Rank them on the Leaderboard (Bayes@N scores each category by its weight), or load them \
again with each trial counted correct when its outcome is C (correct), every other outcome \
wrong, to run Stability: correct=['C']; correct_from=0.5 counts P (partial) correct too.
    >>> from scorio_core.cli._common import cli_text
    >>> print(cli_text(binary_next(o, "Stability")).split(": ", 1)[1])
    --correct C; --correct-from 0.5 counts P (partial) correct too.
    >>> reversed_ = sc.Outcomes(np.array([[[0, 1, 1]], [[1, 0, 0]]]), weights=[1, 0])
    >>> print(binary_next(reversed_, "rank.avg", at_hand="rank.avg({data})").split(", or ")[1])
    load them again weighted as 0/1 outcomes are (wrong 0, correct 1) to run rank.avg: \
weights=[0, 1]; on the data at hand: rank.avg(data.with_weights([0, 1])).
    """
    names, scores = list(data.category_names), data.category_scores()
    if data.is_binary and tuple(names) == BINARY_NAMES:
        return _binary_weights_next(data, what, instead, to, at_hand)
    # binary names of one's own weighted alike: the codes say which is correct (1), not argmax
    alike = data.is_binary and scores[0] == scores[1]
    top = names[1] if alike else names[int(np.argmax(scores))]
    tries: list[tuple[str, dict[str, Any]]] = [(f"its outcome is {top}",
                                                {"correct": [_word(top)]})]
    lo, hi = float(scores.min()), float(scores.max())
    tries.append(("", {"correct_from": float(f"{lo + (hi - lo) / 2:.6g}")}))
    works = []
    for words, option in tries:
        try:
            mask = data.correct_categories(**option)
            data.binarized(**option)
        except ValidationError:
            continue  # advice that fails on these data is not given
        if not any(np.array_equal(mask, m) for _, _, m in works):
            works.append((words, option, mask))
    if not works:
        return instead + "."
    words, option, mask = works[0]
    words = words or f"its score is at least {option['correct_from']:g}"
    out = Said(instead, f", or load them again with each trial counted correct when {words}, "
               f"every other outcome wrong, {to or 'to run ' + what}: ", correct_rule(**option),
               Only("app", ", among the upload's options"))
    if len(works) > 1:
        _, more, more_mask = works[1]
        extra = [n for n, m, m0 in zip(names, more_mask, mask, strict=True) if m and not m0]
        fewer = [n for n, m, m0 in zip(names, more_mask, mask, strict=True) if m0 and not m]
        right = [n for n, m in zip(names, more_mask, strict=True) if m]
        said = (f"counts {', '.join(extra)} correct too" if extra and not fewer
                else f"counts only {', '.join(right)} correct")
        out += "; " + correct_rule(**more) + f" {said}"
    if at_hand:  # a notebook's next line: the call on the data held, as Python writes it
        call = at_hand.format(data=f"data.binarized({correct_rule(**option)})")
        out += Said(Only("python", f"; on the data at hand: {call}"))
    return out + "."


def _binary_weights_next(data: Outcomes, what: str, instead: str, to: str | None,
                         at_hand: str | None) -> str:
    """:func:`binary_next` for binary data under the loader's names (:data:`BINARY_NAMES`)
    whose weights do not rank ``correct`` above ``wrong``: the weights of 0/1 outcomes (a
    :class:`~scorio_core._validation.Mention` of the loader's ``weights``), and the call
    on the data at hand with them (:meth:`Outcomes.with_weights`)."""
    from .io.options import mention

    out = Said(instead, ", or load them again weighted as 0/1 outcomes are (wrong 0, correct "
               f"1) {to or 'to run ' + what}: ", mention("weights", (0.0, 1.0)),
               Only("app", ", among the upload's options"))
    if at_hand:
        call = at_hand.format(data="data.with_weights([0, 1])")
        out += Said(Only("python", f"; on the data at hand: {call}"))
    return out + "."
