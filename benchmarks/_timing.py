"""Small timing helpers shared by the benchmark scripts (not part of the package)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
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


def fresh_cases(code: str) -> dict[str, tuple[float, str]]:
    """Run ``code`` in a fresh interpreter; it prints one line per case, ``case<TAB>seconds
    <TAB>digest``; return ``{case: (seconds, digest)}`` (what :func:`side_by_side` reads)."""
    out = subprocess.run([sys.executable, "-c", code],
                         capture_output=True, text=True, check=True).stdout
    rows = (line.split("\t") for line in out.splitlines() if line)
    return {r[0]: (float(r[1]), r[2]) for r in rows}


def side_by_side(timing: Callable[[Path], dict[str, tuple[float, str]]], root: Path,
                 revision: str, what: str, same: str, rounds: int = 3) -> None:
    """Print ``timing(tree)`` -- ``{case: (seconds, digest of its output)}`` -- for the tree
    at ``root`` and for git ``revision`` side by side: both times, their ratio (above 1:
    this tree is faster) and whether the digests agree (column ``same``). The two trees
    take turns, ``rounds`` times each, and each case keeps its best time: a busy spell of
    the machine then slows one round, not one side."""
    def best(runs):
        return {c: (min(r[c][0] for r in runs), runs[0][c][1]) for c in runs[0]}

    with previous_tree(root, revision) as tree:
        pairs = [(timing(root), timing(tree)) for _ in range(rounds)]
    now, before = best([p[0] for p in pairs]), best([p[1] for p in pairs])
    print(f"{what:<56} {'now':>10} {'previous':>12} {'ratio':>8}  {same}")
    for case, (t, digest) in now.items():
        b, was = before[case]
        print(f"{case:<56} {t * 1e3:>7.2f} ms {b * 1e3:>9.2f} ms {b / t:>7.2f}x  "
              f"{'yes' if digest == was else 'NO'}")
    print(f"[previous = {revision}]")
