"""The method registry: every ranker is a function plus metadata.

Family modules decorate a *score function* ``f(R, **params) -> scores`` (higher
is better) with :func:`ranker`. The decorator returns the public function with
the shared contract ``f(R, *, <params>, method="competition",
return_scores=False)`` and registers one :class:`Method` per configured
variant (the identifiers of Ranking Reasoning LLMs under Test-Time Scaling (2026), App. I.2) in
:data:`METHODS`. ``R`` may be an :class:`~scorio_core.Outcomes` (``sc.load(...)``): the ranker reads
its ``R``, a method that weighs categories its weights, and a method that needs ``R0``
(``bayes_greedy``) its ``R0``.

Example
-------
>>> import numpy as np
>>> from scorio_core.rank import METHODS
>>> ranks, scores = METHODS["avg"](np.array([[[1, 1]], [[0, 1]]]))
>>> ranks.tolist()
[1, 2]
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._ties import NOISE_FLOOR, rank_scores
from .._validation import ValidationError, checked_keywords, split_names
from ..references import expand

__all__ = ["FAMILIES", "METHODS", "Method", "methods_markdown", "ranker"]

#: One-line meaning of each family, in the order of 002 App. I.2 (also the order of METHODS).
FAMILIES: dict[str, str] = {
    "metrics": "evaluation metrics: avg, Pass@k family, Bayes@N",
    "pointwise": "per-model averages of per-question accuracy",
    "sequential": "online ratings over the match stream: Elo, Glicko, TrueSkill",
    "paired": "paired-comparison likelihoods: Bradley-Terry, Davidson, Rao-Kupper",
    "bayesian": "posterior sampling: Thompson, Bayesian Bradley-Terry (MCMC)",
    "luce": "setwise/listwise choice models: Plackett-Luce, Davidson-Luce, BTL",
    "voting": "questions as voters ranking models by solve counts",
    "irt": "item response theory: Rasch, 2PL, 3PL, MML, dynamic",
    "graph": "graph and game methods: PageRank, spectral, Rank Centrality, alpha-Rank, Nash",
    "seriation": "SerialRank spectral seriation",
    "hodge": "HodgeRank least squares on the comparison graph",
}


@dataclass(frozen=True)
class Method:
    """A registered ranking configuration, callable as ``method(R, R0=None)``."""

    id: str
    family: str
    func: Callable[..., Any]
    params: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    needs_r0: bool = False
    stochastic: bool = False
    extra: bool = False  # not one of the 72 identifiers of 002 App. I.2
    tie_floor: float = NOISE_FLOOR  # absolute noise floor of the tie rule (0: masses)

    @property
    def min_trials(self) -> int:
        """Smallest N the method is defined for (Pass@k-type methods need N >= k)."""
        return int(self.params.get("k", 1))

    def __call__(self, R, R0=None) -> tuple[np.ndarray, np.ndarray]:
        """``(ranks, scores)`` of ``R``: an array or an :class:`~scorio_core.Outcomes`, whose
        ``R0`` a method that needs one takes when ``R0`` is not given."""
        kwargs = dict(self.params)
        if self.needs_r0:
            if R0 is None and _is_outcomes(R):
                R0 = R.R0
                if R0 is None:
                    raise ValidationError(
                        f"method {self.id!r} needs prior outcomes R0 (greedy); the dataset "
                        f"{R.name!r} has none"
                    )
            if R0 is None:
                raise ValidationError(f"method {self.id!r} needs prior outcomes R0 (greedy)")
            kwargs["R0"] = R0
        return self.func(R, return_scores=True, **kwargs)


#: id -> Method, in registration order.
METHODS: dict[str, Method] = {}


def _is_outcomes(data: Any) -> bool:
    from ..outcomes import Outcomes

    return isinstance(data, Outcomes)


def _outcomes_input(data: Any, name: str, sig: inspect.Signature, args: tuple,
                    kwargs: dict) -> np.ndarray:
    """``R`` of an :class:`~scorio_core.Outcomes` given to the ranker ``name``: a method
    that weighs categories (``w``) takes the dataset's weights unless given; a binary-only
    method refuses data whose categories are not wrong/correct (a rubric's ``partial``
    read as correct, or weights that do not rank category 1 above 0, would rank by
    something the data do not say). Its ``R0`` is not taken implicitly: ``bayes`` is the
    uniform-prior method; pass ``R0=data.R0`` or call ``METHODS["bayes_greedy"](data)``."""
    if "w" in sig.parameters:
        if "w" not in sig.bind_partial(data, *args, **kwargs).arguments:
            kwargs["w"] = data.weights
        return data.R
    w = data.weights
    if not (data.is_binary and w[1] > w[0]):
        from ..outcomes import binary_next

        cats = ", ".join(f"{c}={x:g}" for c, x in zip(data.category_names, w, strict=True))
        raise ValidationError(
            f"rank.{name} ranks binary outcomes (0 wrong, 1 correct); the dataset "
            f"{data.name!r} has {w.size} categories weighted {cats}. "
            + binary_next(data, f"rank.{name}",
                          instead="Rank it by these weights with rank.bayes(data) (Bayes@N)",
                          at_hand=f"rank.{name}({{data}})"))
    return data.R


@checked_keywords
def ranker(
    family: str,
    description: str,
    *,
    variants: Mapping[str, Mapping[str, Any]] | None = None,
    needs_r0: bool | Mapping[str, bool] = False,
    stochastic: bool = False,
    extra: str | Iterable[str] = frozenset(),
    extra_output: str | None = None,
    extra_with_scores: bool = True,
    tie_floor: float = NOISE_FLOOR,
):
    """Wrap a score function into a public ranker and register its variants.

    Parameters
    ----------
    family : str
        A key of :data:`FAMILIES`.
    description : str
        One line: what the method does.
    variants : mapping id -> params, optional
        Registered configurations; default: one entry, the function's name with
        no parameters.
    needs_r0 : bool or mapping id -> bool
        Whether a variant must be given ``R0``.
    extra : set of ids, or one comma-separated string
        Variants that are ours, not among the 72 identifiers of Ranking Reasoning LLMs under
        Test-Time Scaling (2026), App. I.2 (``"a,b"`` is ``{"a", "b"}``; a string had been
        read by substring, marking ``"bt"`` ours where ``extra="bt_map"``).
    extra_output : str, optional
        Name of a boolean keyword (e.g. ``"return_item_params"``) that asks for
        a second result. The score function then returns ``(scores, extra)``
        and the public function ``(ranks, scores, extra)``, or ``(ranks,
        extra)`` when ``extra_with_scores`` is false and ``return_scores`` is
        not set.
    tie_floor : float
        Absolute noise floor of the tie rule (:func:`~._ties.rank_scores`):
        the default for scores on a unit scale, ``0.0`` for masses and
        probabilities that may legitimately be tiny (ties then relative only).
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}")
    extra = frozenset(split_names(extra) if isinstance(extra, str) else extra)

    def decorate(score_fn: Callable[..., np.ndarray]):
        sig = inspect.signature(score_fn)

        @functools.wraps(score_fn)
        def public(R, *args, method="competition", return_scores=False, **kwargs):
            if _is_outcomes(R):  # sc.load(...) as it is: its R (and weights, where used)
                R = _outcomes_input(R, score_fn.__name__, sig, args, kwargs)
            if extra_output is not None and kwargs.get(extra_output, False):
                scores, more = score_fn(R, *args, **kwargs)
                scores = np.asarray(scores, dtype=float)
                ranks = rank_scores(scores, method, floor=tie_floor)
                if return_scores or extra_with_scores:
                    return ranks, scores, more
                return ranks, more
            scores = np.asarray(score_fn(R, *args, **kwargs), dtype=float)
            ranks = rank_scores(scores, method, floor=tie_floor)
            return (ranks, scores) if return_scores else ranks

        extra_params = [
            inspect.Parameter("method", inspect.Parameter.KEYWORD_ONLY, default="competition"),
            inspect.Parameter("return_scores", inspect.Parameter.KEYWORD_ONLY, default=False),
        ]
        if extra_output is not None and extra_output not in sig.parameters:  # passed on
            extra_params.append(  # through **kwargs (the IRT base's score functions)
                inspect.Parameter(extra_output, inspect.Parameter.KEYWORD_ONLY, default=False))
        public.__signature__ = sig.replace(parameters=[*sig.parameters.values(), *extra_params])
        public = checked_keywords(public)  # a misspelt keyword: the method's settings named
        public.score = score_fn  # the raw score function, for batched analyses
        public.tie_floor = tie_floor

        for vid, params in (variants or {score_fn.__name__: {}}).items():
            if vid in METHODS:
                raise ValueError(f"method id {vid!r} registered twice")
            r0 = needs_r0.get(vid, False) if isinstance(needs_r0, Mapping) else needs_r0
            METHODS[vid] = Method(
                id=vid,
                family=family,
                func=public,
                params=dict(params),
                description=expand(description),  # papers by title wherever it is shown
                needs_r0=r0,
                stochastic=stochastic,
                extra=vid in extra,
                tie_floor=tie_floor,
            )
        return public

    return decorate


def sort_registry() -> None:
    """Order :data:`METHODS` by family (as in :data:`FAMILIES`), keeping registration order
    within a family, so listings follow Ranking Reasoning LLMs under Test-Time Scaling (2026),
    App. I.2 whatever the import order."""
    order = {f: i for i, f in enumerate(FAMILIES)}
    items = sorted(METHODS.items(), key=lambda kv: order[kv[1].family])
    METHODS.clear()
    METHODS.update(items)


def methods_markdown() -> str:
    """The README's method table, generated from :data:`METHODS` (kept in sync by a test)."""
    lines = ["| id | family | parameters | notes | what it does |", "|---|---|---|---|---|"]
    for mid, m in METHODS.items():
        params = ", ".join(f"{k}={v!r}" for k, v in m.params.items()) or "—"
        notes = (
            ", ".join(
                n
                for n, flag in [
                    ("needs R0", m.needs_r0),
                    ("seeded", m.stochastic),
                    ("extra", m.extra),
                ]
                if flag
            )
            or ""
        )
        lines.append(f"| `{mid}` | {m.family} | {params} | {notes} | {m.description} |")
    return "\n".join(lines) + "\n"
