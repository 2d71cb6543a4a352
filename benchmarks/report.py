"""Report speed: each section's analysis, its SVG charts, and the HTML/notebook writers.

Run: ``python benchmarks/report.py`` (``--previous REV``: the git revision the default
report on the smallest bundled file is timed against, side by side; default
:data:`PREVIOUS`).

On the bundled reasoning data (one benchmark, 20 models x 30 questions x 80 trials)
with the report's default settings except ``compare`` and ``stability``, which use
the voting family (the full registry is timed by ``benchmarks/rankers.py``), this
prints the time of each analysis, of rendering its charts to inline SVG with
vl-convert, and of writing the HTML and notebook. The first SVG conversion also
starts vl-convert's JavaScript engine (shown separately). Target: the whole
report in well under a minute.

Then the report of every analysis at its default settings on the smallest bundled file,
per section, now and at ``PREVIOUS`` (the code before the stacked ``spread_loglik``, which
the Check and every ``p_best`` read).

``--sections``: instead, ``make_report`` to HTML on every bundled file with the default
sections (:data:`scorio_core.definitions.DEFAULT_SECTIONS`), with each of the sections it
leaves out (:data:`~scorio_core.definitions.NAMED_ONLY`) added, and with every analysis --
the measurement the default was chosen by (a first report in seconds).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import previous_tree  # noqa: E402

from scorio_core import io  # noqa: E402
from scorio_core.report import build_report, chart_svg, to_html, to_notebook  # noqa: E402

TARGET_S = 60.0
ROOT = Path(__file__).resolve().parent.parent
#: The revision before spread_loglik inverted its grid in stacks.
PREVIOUS = "89e9315"
SMALLEST = ROOT / "data" / "biased_coins.npz"
_DEFAULT_REPORT = """
import json, sys, time
sys.path.insert(0, {src!r})
from scorio_core import io
from scorio_core.report import build_report
data = io.load({data!r})
from scorio_core.definitions import ANALYSES
every = list(ANALYSES)
build_report(data, every)  # warm-up: a fresh tree compiles its numba kernels on first use
out = {{}}
for _ in range(2):  # the best of two runs per section: a loaded machine is noisy
    t0 = time.perf_counter()
    rep = build_report(data, every)
    run = {{s.analysis.id: s.seconds for s in rep.sections}}
    run["all analyses"] = time.perf_counter() - t0
    out = {{k: min(v, out.get(k, v)) for k, v in run.items()}}
print(json.dumps(out))
"""


def default_report_seconds(src: Path) -> dict[str, float]:
    """Seconds per section of a report of every analysis on :data:`SMALLEST`, with ``scorio_core``
    imported from ``src`` (a fresh process; after a warm-up, the best of two runs)."""
    code = _DEFAULT_REPORT.format(src=str(src), data=str(SMALLEST))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       cwd=ROOT)
    return json.loads(r.stdout.strip().splitlines()[-1])


def side_by_side(previous: str = PREVIOUS) -> None:
    now = default_report_seconds(ROOT)
    with previous_tree(ROOT, previous) as tree:
        before = default_report_seconds(tree)
    print(f"\nevery analysis on {SMALLEST.name}: {'now':>10} {'previous':>10} {'ratio':>8}"
          f"  [previous = {previous}]")
    for k, t in now.items():
        b = before.get(k, float("nan"))
        print(f"{k:<34} {t:>8.2f} s {b:>8.2f} s {b / max(t, 1e-9):>7.2f}x")


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


#: The bundled files the default sections are timed on: ``(file, benchmark)``.
BUNDLED = [("biased_coins.npz", "combined"), ("reasoning_synthetic.npz", "AIME'25"),
           ("jhu_llm_temperature.parquet", "combined"), ("reasoning_synthetic.npz", "combined")]


def default_sections_seconds() -> None:
    """Wall time of ``make_report`` (analyses, SVG charts, HTML) on each bundled file: the
    default sections, the default with each left-out section added, and every analysis."""
    import tempfile

    from scorio_core.definitions import ANALYSES, DEFAULT_SECTIONS, NAMED_ONLY
    from scorio_core.report import make_report

    runs = {"default": list(DEFAULT_SECTIONS)}
    runs |= {f"default + {k}": [a for a in ANALYSES if a in DEFAULT_SECTIONS or a == k]
             for k in NAMED_ONLY}
    runs["every analysis"] = list(ANALYSES)
    print(f"{'make_report -> HTML':<34}" + "".join(f"{f[:18]:>20}" for f, _ in BUNDLED))
    print(f"{'':<34}" + "".join(f"{b[:18]:>20}" for _, b in BUNDLED))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.html"
        make_report(SMALLEST, out, sections=list(ANALYSES))  # warm-up: numba, vl-convert
        for name, sections in runs.items():
            cells = []
            for f, bench in BUNDLED:
                t0 = time.perf_counter()
                make_report(ROOT / "data" / f, out, sections=sections, benchmark=bench)
                cells.append(f"{time.perf_counter() - t0:>18.1f} s")
            print(f"{name:<34}" + "".join(cells), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--previous", default=PREVIOUS)
    parser.add_argument("--sections", action="store_true",
                        help="time the default sections against the sections it leaves out")
    args = parser.parse_args()
    if args.sections:
        default_sections_seconds()
    else:
        main()
        side_by_side(args.previous)
