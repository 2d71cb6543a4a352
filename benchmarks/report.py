"""Report speed: each section's analysis, its SVG charts, and the HTML/notebook writers.

Run: ``python benchmarks/report.py``.

On the bundled reasoning data (one benchmark, 20 models x 30 questions x 80 trials)
with the report's default settings except ``compare`` and ``stability``, which use
the voting family (the full registry is timed by ``benchmarks/rankers.py``), this
prints the time of each analysis, of rendering its charts to inline SVG with
vl-convert, and of writing the HTML and notebook. The first SVG conversion also
starts vl-convert's JavaScript engine (shown separately). Target: the whole
report in well under a minute.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scorio_core import io  # noqa: E402
from scorio_core.report import build_report, chart_svg, to_html, to_notebook  # noqa: E402

TARGET_S = 60.0
SECTIONS = [
    "leaderboard",
    ("compare", {"methods": "voting"}),
    "convergence",
    ("stability", {"methods": "voting"}),
    "greedy",
    "rubric",
    "plan",
]


def main() -> None:
    path = Path(__file__).resolve().parent.parent / "data" / "reasoning_synthetic.npz"
    data = io.load(path).select("AIME'25")
    L, M, N = data.shape
    print(f"report on {data.name}: {L} x {M} x {N}")
    t0 = time.perf_counter()
    report = build_report(data, SECTIONS)
    t_run = time.perf_counter() - t0
    print(f"{'section':<14} {'analysis s':>10} {'charts':>6} {'SVG s':>8}")
    warm = time.perf_counter()
    chart_svg(report.sections[0].charts[0].chart)
    print(f"(vl-convert engine start + first chart: {time.perf_counter() - warm:.2f} s)")
    for s in report.sections:
        t = time.perf_counter()
        for c in s.charts:
            chart_svg(c.chart, inline=True)
        print(f"{s.analysis.id:<14} {s.seconds:>10.2f} {len(s.charts):>6} "
              f"{time.perf_counter() - t:>8.2f}")
    t = time.perf_counter()
    page = to_html(report)
    t_html = time.perf_counter() - t
    t = time.perf_counter()
    to_notebook(report, path)
    t_nb = time.perf_counter() - t
    total = t_run + t_html + t_nb
    print(f"all analyses {t_run:.2f} s; HTML {t_html:.2f} s ({len(page) / 1e6:.2f} MB); "
          f"notebook {t_nb:.3f} s; total {total:.2f} s (target < {TARGET_S:.0f} s: "
          f"{'ok' if total < TARGET_S else 'MISSED'})")


if __name__ == "__main__":
    main()
