"""Planner speed: ``plan()`` (the Planner page's and ``scorio-studio plan``'s call) on the
bundled data in both scopes, this tree against a previous revision.

Run: ``python benchmarks/planner.py [--previous REV]`` (``--previous`` defaults to the last
commit whose plan search evaluated a 48-point grid before its bisection, e1ccef9 (1.2-1.5x
since, 2026-12-02); cd45f8a, the last whose budget split rescored every model at each greedy
step; read with ``git archive`` into a temporary folder). Each side runs in a fresh
interpreter and reports the best of 5 calls (after a warm-up) with the default settings
(10^4 draws, budget L × N, Holm), so the two columns time the same work; a ratio above 1
means this tree is faster. No target: the page calls it once per change of a setting.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import previous_tree  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: The last commit whose plan search evaluated a 48-point grid of trials or questions before
#: its bisection (a 4-point grid since: planner._search).
PREVIOUS = "e1ccef9"
DATASETS = ("jhu_llm_temperature.parquet", "reasoning_synthetic.npz", "biased_coins.npz")
_TIMING = """
import sys, time
sys.path.insert(0, {src!r})
from scorio_core import io
from scorio_core.planner import plan
for name in {datasets!r}:
    data = io.load({data!r} + "/" + name)
    for scope in ("questions", "population"):
        plan(data, scope=scope)
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            plan(data, scope=scope)
            best = min(best, time.perf_counter() - t0)
        print(name, scope, best)
"""


def timing(src: Path) -> dict[tuple[str, str], float]:
    """Best-of-5 seconds of ``plan(data, scope=...)`` of the package at ``src``."""
    code = _TIMING.format(src=str(src), datasets=DATASETS, data=str(ROOT / "data"))
    out = subprocess.run([sys.executable, "-c", code],
                         capture_output=True, text=True, check=True).stdout
    return {(p[0], p[1]): float(p[2]) for p in (line.split() for line in out.splitlines()) if p}


def main(previous: str = PREVIOUS) -> None:
    now = timing(ROOT)
    with previous_tree(ROOT, previous) as tree:
        before = timing(tree)
    print(f"{'plan(), default settings':<48} {'now':>11} {'previous':>13} {'ratio':>8}")
    for (name, scope), t in now.items():
        b = before[(name, scope)]
        print(f"{name + ', ' + scope:<48} {t * 1e3:>8.0f} ms {b * 1e3:>10.0f} ms {b / t:>7.2f}x")
    print(f"[previous = {previous}]")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--previous", default=PREVIOUS, help="git revision to compare with")
    main(ap.parse_args().previous)
