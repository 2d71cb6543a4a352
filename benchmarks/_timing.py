"""Small timing helpers shared by the benchmark scripts (not part of the package)."""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path


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


@contextlib.contextmanager
def previous_tree(root: Path, revision: str) -> Iterator[Path]:
    """A temporary folder holding ``scorio_core`` as it was at git ``revision`` of the
    repository at ``root`` (``git archive``), for timing the previous code side by side."""
    with tempfile.TemporaryDirectory() as tmp:
        arch = subprocess.run(["git", "-C", str(root), "archive", revision, "scorio_core"],
                              capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=arch, check=True)
        yield Path(tmp)
