"""Bounds on replicate counts: refuse a run that would exhaust memory or run for hours,
with a message that says the estimate and the largest count that fits.

Memory is estimated from what the analysis keeps per replicate (its result arrays);
time only for methods without a fast path (each replicate re-ranks the data at every
step), from one timed ranking of the full data -- an estimate, so the refusal says so.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import numpy as np

from .._validation import ValidationError

__all__ = [
    "MAX_RESULT_BYTES",
    "MAX_ESTIMATED_SECONDS",
    "check_result_memory",
    "check_rerank_time",
    "check_projected_time",
]

#: Largest result an analysis may keep (e.g. the replicates x steps τ array of curves).
MAX_RESULT_BYTES = 2 * 2**30
#: Longest estimated run accepted for methods that are re-ranked on every replicate.
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


def check_rerank_time(
    methods: Iterable[str], R: np.ndarray, R0, rankings: float, what: str,
    name: str = "replicates", count: int | None = None,
) -> None:
    """Refuse when ``rankings`` re-rankings by the slowest of ``methods`` (timed once on
    ``R``) would take longer than :data:`MAX_ESTIMATED_SECONDS`.

    ``rankings`` is the total number of rankings the run would do (e.g. replicates × N
    per method); ``count`` is the value of ``name`` shown in the message.
    """
    from ..rank import METHODS

    slow = [m for m in methods if m in METHODS]
    if not slow or rankings <= 0:
        return
    worst, per = "", 0.0
    for mid in slow:
        t0 = time.perf_counter()
        METHODS[mid](R, R0 if METHODS[mid].needs_r0 else None)
        dt = time.perf_counter() - t0
        if dt > per:
            worst, per = mid, dt
    est = rankings * per * len(slow)
    if est > MAX_ESTIMATED_SECONDS:
        shown = f"{name}={count:,}" if count is not None else f"{rankings:,.0f} rankings"
        fits = int(count * MAX_ESTIMATED_SECONDS / est) if count else 0
        raise ValidationError(
            f"{what} with {shown} re-ranks the data {rankings * len(slow):,.0f} times; at "
            f"{per * 1e3:.1f} ms per ranking ({worst}, measured now) that is about "
            f"{est / 3600:.1f} h (limit {MAX_ESTIMATED_SECONDS / 3600:g} h). Use "
            f"{name} <= {max(fits, 1):,}, fewer methods, or methods with a fast path "
            "(Bayes@N, avg, the Pass@k family)"
        )


def check_projected_time(
    seconds_each: float, count: int, what: str, *, measured: int, parallel: int = 1,
    name: str = "replicates",
) -> None:
    """Refuse when ``count`` units at ``seconds_each`` (timed now on the first ``measured``
    of them), spread over ``parallel`` workers, would pass :data:`MAX_ESTIMATED_SECONDS`."""
    est = seconds_each * count / max(parallel, 1)
    if est > MAX_ESTIMATED_SECONDS:
        fits = int(MAX_ESTIMATED_SECONDS * max(parallel, 1) / max(seconds_each, 1e-12))
        where = "" if parallel <= 1 else f" on {parallel} workers"
        raise ValidationError(
            f"{what} with {name}={count:,} would take about {est / 3600:.1f} h{where} at "
            f"{seconds_each * 1e3:.1f} ms per replicate (timed on the first {measured} now; "
            f"limit {MAX_ESTIMATED_SECONDS / 3600:g} h). Use {name} <= {max(fits, 1):,}, more "
            "workers, fewer methods, or methods with a fast path (Bayes@N, avg, the Pass@k family)"
        )
