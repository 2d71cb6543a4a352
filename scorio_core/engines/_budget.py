"""Bounds on replicate counts: refuse a run that would exhaust memory or run for hours,
with a message that says the estimate and the largest count that fits.

Memory is estimated from what the analysis keeps per replicate (its result arrays);
work, for methods without a fast path (each replicate re-ranks the data at every step),
from the declared sizes and each method's declared cost class -- never from a timing on
the current machine, so the same call is accepted or refused everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._validation import ValidationError

__all__ = [
    "MAX_RESULT_BYTES",
    "MAX_ESTIMATED_SECONDS",
    "check_result_memory",
    "COST_CLASSES",
    "FAMILY_COST",
    "METHOD_COST",
    "cost_class",
    "check_rerank_work",
]

#: Largest result an analysis may keep (e.g. the replicates x steps τ array of curves).
MAX_RESULT_BYTES = 2 * 2**30
#: Longest declared work accepted for methods that are re-ranked on every replicate.
MAX_ESTIMATED_SECONDS = 2 * 3600.0


def _gib(n: float) -> str:
    return f"{n / 2**30:.1f} GiB"


def check_result_memory(count: int, bytes_each: float, what: str, name: str = "replicates") -> None:
    """Refuse ``count`` units of ``bytes_each`` result bytes above :data:`MAX_RESULT_BYTES`."""
    need = float(count) * float(bytes_each)
    if need > MAX_RESULT_BYTES:
        fits = int(MAX_RESULT_BYTES // max(bytes_each, 1))
        raise ValidationError(
            f"{what} with {name}={count:,} would keep about {_gib(need)} of results (limit "
            f"{_gib(MAX_RESULT_BYTES)}); use {name} <= {fits:,}"
        )


#: Declared cost of one ranking by cost class: ``(seconds per ranking, seconds per
#: model-question-trial cell)``. Measured once per method on 4 × 6 × 2 outcomes (the fixed
#: part) and on 20 × 120 × 8 (the per-cell part) and rounded up to the class bound; a
#: *declared* constant, so the same call is accepted or refused on every machine.
COST_CLASSES = {
    "light": (100e-6, 10e-9),
    "medium": (1.5e-3, 100e-9),
    "heavy": (6e-3, 1e-6),
    "very heavy": (15e-3, 5e-6),
}
#: Each family's class, and the methods measured above their family's bound.
FAMILY_COST = {
    "pointwise": "light", "metrics": "light", "voting": "medium", "hodge": "medium",
    "graph": "medium", "seriation": "medium", "paired": "medium", "sequential": "medium",
    "luce": "medium", "irt": "medium", "bayesian": "heavy",
}
METHOD_COST = {
    **dict.fromkeys(("glicko_tie_skip", "glicko_tie_draw", "glicko_tie_correct_draw_only",
                     "trueskill", "davidson_luce", "davidson_luce_map", "bradley_terry_luce",
                     "bradley_terry_luce_map", "rasch_2pl", "rasch_2pl_map", "rasch_mml",
                     "rasch_mml_credible"), "heavy"),
    **dict.fromkeys(("rasch_3pl", "rasch_3pl_map"), "very heavy"),
}


def cost_class(method: str) -> str:
    """Declared cost class of a registered method (:data:`COST_CLASSES`).

    Example
    -------
    >>> from scorio_core.engines._budget import cost_class
    >>> cost_class("avg"), cost_class("rasch_3pl")
    ('light', 'very heavy')
    """
    from ..rank import METHODS

    if method in METHOD_COST:
        return METHOD_COST[method]
    return FAMILY_COST.get(METHODS[method].family, "heavy")


def check_rerank_work(
    methods: Iterable[str], rankings: float, cells: float, what: str,
    name: str = "replicates", count: int | None = None,
) -> None:
    """Refuse a run whose declared work passes :data:`MAX_ESTIMATED_SECONDS`.

    ``rankings`` is how many rankings the run does per method and ``cells`` the total
    number of model-question-trial cells they rank; each method costs its class's
    seconds per ranking and per cell (:func:`cost_class`, :data:`COST_CLASSES`). Nothing is
    timed: the answer depends on the declared sizes only. ``count`` is the value of
    ``name`` in the message.

    Example
    -------
    >>> from scorio_core.engines._budget import check_rerank_work
    >>> check_rerank_work(["avg"], 1e3, 1e9, "a run")  # about 10 s of declared work
    >>> try:
    ...     check_rerank_work(["rasch_3pl"], 1e6, 1e12, "a run", count=10**6)
    ... except ValueError as e:
    ...     print(str(e).split("that is ")[1].split(", fewer")[0])
    about 1393.1 h of work (limit 2 h). Use replicates <= 1,435
    """
    from ..rank import METHODS

    ids = [m for m in methods if m in METHODS]
    if not ids or (rankings <= 0 and cells <= 0):
        return
    per = {}
    for m in ids:
        fixed, cell = COST_CLASSES[cost_class(m)]
        per[m] = float(rankings) * fixed + float(cells) * cell
    est = sum(per.values())
    if est > MAX_ESTIMATED_SECONDS:
        worst = max(per, key=per.get)
        shown = f"{name}={count:,}" if count is not None else f"{rankings:,.0f} rankings"
        fits = int(count * MAX_ESTIMATED_SECONDS / est) if count else 0
        raise ValidationError(
            f"{what} with {shown} does {rankings:,.0f} rankings of {cells:,.0f} "
            f"model-question-trial cells in all per method; at the declared costs ({worst}: "
            f"{cost_class(worst)}) that is about {est / 3600:.1f} h of work (limit "
            f"{MAX_ESTIMATED_SECONDS / 3600:g} h). Use {name} <= {max(fits, 1):,}, fewer "
            "methods, or methods with a fast path (Bayes@N, avg, the Pass@k family)"
        )
