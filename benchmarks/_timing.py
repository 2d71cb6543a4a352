"""Small timing helpers shared by the benchmark scripts (not part of the package)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int = 7, number: int = 1) -> float:
    """Best wall time in seconds of ``number`` calls, over ``repeat`` runs (after a warm-up)."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def row(name: str, ours: float, ref: float) -> str:
    return f"{name:<44} {ours * 1e3:>10.2f} ms {ref * 1e3:>12.2f} ms {ref / ours:>9.1f}x"


HEADER = f"{'what':<44} {'scorio_core':>13} {'scorio (ref)':>15} {'ratio':>10}"
