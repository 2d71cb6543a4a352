"""Cold start: ``scorio-studio --help``, ``import scorio_core`` pieces, and the app's first
leaderboard in a real browser.

Run: ``python benchmarks/cold_start.py`` (needs the ``test`` extra for Playwright and
Debian's ``chromium``). Targets (issue 15): ``--help`` under 0.5 s; the first
leaderboard under 3 s after the server is up, on a warm disk.

Each timing is a fresh process, so module imports are paid every time (the disk cache
is warm after the first run). Targets are judged on the median of the repeats (the best
is printed next to it): on a shared 2-core machine one page load varies by ±0.5 s.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "app"))

HELP_TARGET_S = 0.5
FIRST_BOARD_TARGET_S = 3.0
REPEATS = 7  # odd: the median is one of the runs


def _time(cmd: list[str]) -> list[float]:
    out = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
        out.append(time.perf_counter() - t0)
    return out


def _row(what: str, times: list[float], target: float | None = None) -> None:
    verdict = "" if target is None else (  # the median: a target met on a lucky run is not met
        "  OK" if statistics.median(times) < target else "  TOO SLOW")
    print(f"{what:<48} best {min(times):6.2f} s  median {statistics.median(times):6.2f} s"
          + (f"  (target < {target:g} s){verdict}" if target else ""))


#: What the Leaderboard page imports from the core (app_pages/leaderboard.py, _common, _render).
PAGE_IMPORTS = (
    "from scorio_core import export, io; "
    "from scorio_core.definitions import CLUSTER_ANALYSES, LeaderboardParams; "
    "from scorio_core.definitions.leaderboard import LEADERBOARD; "
    "from scorio_core.definitions.provenance import attach_source, export_filename; "
    "from scorio_core.leaderboard import COLUMN_HELP, Leaderboard, prior_note; "
    "from scorio_core.report import chart_png, chart_svg, load_code"
)


def import_breakdown(code: str, top: int = 10) -> None:
    """``python -X importtime``: the time ``code`` spends importing, summed by top-level
    package (each module's own time, so nothing is counted twice); one run."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=ROOT,
                         check=True, capture_output=True, text=True).stderr
    by_pkg: dict[str, float] = {}
    for line in out.splitlines():
        if line.startswith("import time:") and "|" in line:
            own, _, name = line[len("import time:"):].split("|")
            if own.strip().isdigit():
                pkg = name.strip().split(".")[0]
                by_pkg[pkg] = by_pkg.get(pkg, 0.0) + int(own) / 1e6
    total = sum(by_pkg.values())
    rest = sorted(by_pkg.items(), key=lambda kv: -kv[1])
    print(f"  -X importtime: {total:.2f} s in all; by package: " + ", ".join(
        f"{k} {v:.2f}" for k, v in rest[:top]) + f", {len(rest) - top} others")


#: The floor: a Streamlit app that shows one 20-row table and nothing else.
FLOOR_APP = (
    "import pandas as pd\nimport streamlit as st\n\nst.title('floor')\n"
    "st.dataframe(pd.DataFrame({'a': range(20), 'b': range(20)}))\n"
)


#: In the page: when the first table enters the DOM, on the browser's clock (ms since the
#: navigation started): the time a user sees, without Playwright's own round trips.
_TABLE_CLOCK = (
    "window.__table = null; new MutationObserver(() => { if (window.__table === null && "
    "document.querySelector('[data-testid=\"stDataFrame\"]')) window.__table = "
    "performance.now(); }).observe(document, {subtree: true, childList: true});"
)


def first_table_rounds(floor_app: str, rounds: int = REPEATS) -> dict[str, dict[str, list]]:
    """Server start excluded: time from opening a page on a new server (and a new browser
    context: nothing cached) to its table on screen, for Streamlit's floor (``floor_app``),
    the app's ``/leaderboard`` started with a bare ``streamlit run app.py`` and started as
    the README does (``serve.py``). The three alternate in each round, so a busy spell
    of the machine hits all of them. Returns, per setup, ``wall`` (Playwright: goto until
    the table is found) and ``browser`` (the page's own clock) times in seconds."""
    from _browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server
    from playwright.sync_api import sync_playwright

    setups = {
        "Streamlit floor: a one-table app": (floor_app, "/", False),
        "app: first leaderboard, bare `streamlit run app.py`": ("app.py", "/leaderboard", False),
        "app: first leaderboard (README command, serve.py)": ("app.py", "/leaderboard", True),
    }
    out = {k: {"wall": [], "browser": []} for k in setups}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(rounds):
            for name, (app, path, serve) in setups.items():
                # a first visit as users get it: the charts a moment after the table
                with streamlit_server(app=app, serve=serve, charts_at_once=False) as url:
                    ctx = browser.new_context()
                    page = ctx.new_page()
                    page.add_init_script(_TABLE_CLOCK)
                    t0 = time.perf_counter()
                    page.goto(f"{url}{path}")
                    page.wait_for_selector('[data-testid="stDataFrame"]', timeout=120_000)
                    out[name]["wall"].append(time.perf_counter() - t0)
                    out[name]["browser"].append(page.evaluate("window.__table") / 1000)
                    ctx.close()
        browser.close()
    return out


def main() -> None:
    py = sys.executable
    _row("python -c pass (interpreter alone)", _time([py, "-c", "pass"]))
    _row("scorio-studio --help", _time([py, "-m", "scorio_core.cli", "--help"]), HELP_TARGET_S)
    for mod in ("scorio_core", "scorio_core.eval", "scorio_core.leaderboard", "scorio_core.io"):
        _row(f"import {mod}", _time([py, "-c", f"import {mod}"]))
    _row("the Leaderboard page's core imports", _time([py, "-c", PAGE_IMPORTS]))
    import_breakdown(PAGE_IMPORTS)
    try:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            floor = Path(tmp) / "floor_app.py"
            floor.write_text(FLOOR_APP)
            rounds = first_table_rounds(str(floor))
    except Exception as exc:  # noqa: BLE001 - no browser here: say so, keep the rest
        print(f"app: first leaderboard: not measured ({type(exc).__name__}: {exc})")
        return
    print(f"Opening a page on a new server, {REPEATS} alternating rounds "
          "(wall: Playwright's goto to table found; browser: the page's own clock):")
    floor_wall = statistics.median(next(iter(rounds.values()))["wall"])
    for name, t in rounds.items():
        target = FIRST_BOARD_TARGET_S if "README" in name else None
        _row(name, t["wall"], target)
        extra = "" if name.startswith("Streamlit floor") else (
            f"; median above the floor {statistics.median(t['wall']) - floor_wall:+.2f} s")
        print(f"{'':<48} browser clock: median {statistics.median(t['browser']):.2f} s, "
              f"best {min(t['browser']):.2f} s{extra}")


if __name__ == "__main__":
    main()
