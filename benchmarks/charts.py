"""Chart building speed: every chart of the fast analyses (leaderboard, Pass@k curves,
Planner, questions, pair) on the bundled data, built as the app, the reports and a notebook
build them (the Altair object, then its Vega-Lite spec), this tree against a previous
revision.

Run: ``python benchmarks/charts.py [--previous REV]`` (``--previous`` defaults to bd10259,
the last commit whose charts' inline data were copied record by record each time Altair
layered or stacked them; read with ``git archive`` into a temporary folder). The analyses
run once; each side then builds every chart in a fresh interpreter, three times taking turns
with the other, and reports the best of 5 builds (after a warm-up); both sides must give the
same specs (checked: a digest of each chart's ``to_dict(validate=False)``). A ratio above 1
means this tree is faster. No target: a page builds its charts on every run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import fresh_cases, side_by_side  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: The last commit whose charts' inline data were deep-copied by every layer and panel.
PREVIOUS = "bd10259"
#: The analyses whose charts are built (those that run in a second on the bundled data).
ANALYSES = ("leaderboard", "curves", "plan", "questions", "pair")
_TIMING = """
import hashlib, json, sys, time
sys.path.insert(0, {src!r})
from scorio_core import io
from scorio_core.definitions import ANALYSES
for name in ("reasoning_synthetic.npz", "jhu_llm_temperature.parquet"):
    data = io.load({data!r} + "/" + name)
    for key in {analyses!r}:
        a = ANALYSES[key]
        result = a.run(data, a.default_params(data))
        def build():
            return [c.chart.to_dict(validate=False) for c in a.charts(result)]
        specs = build()
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            build()
            best = min(best, time.perf_counter() - t0)
        digest = hashlib.sha256(json.dumps(specs, sort_keys=True, default=str).encode())
        print(f"{{name}}: {{key}} ({{len(specs)}} charts)", best, digest.hexdigest()[:12],
              sep="\\t")
"""


def timing(src: Path) -> dict[str, tuple[float, str]]:
    """Best-of-5 seconds and the specs' digest of each analysis's charts, for the package at
    ``src``."""
    return fresh_cases(_TIMING.format(src=str(src), data=str(ROOT / "data"), analyses=ANALYSES))


def main(previous: str = PREVIOUS) -> None:
    side_by_side(timing, ROOT, previous, "charts built (Altair + spec)", "same specs")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--previous", default=PREVIOUS, help="git revision to compare with")
    main(ap.parse_args().previous)
