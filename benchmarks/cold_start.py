"""Cold start: ``scorio-studio --help``, ``import scorio_core`` pieces, and the app's first
leaderboard in a real browser.

Run: ``python benchmarks/cold_start.py`` (needs the ``test`` extra for Playwright and
Debian's ``chromium``). Targets (issue 15): ``--help`` under 0.5 s; the first
leaderboard under 3 s after the server is up, on a warm disk.

Each timing is a fresh process, so module imports are paid every time (the disk cache
is warm after the first run; the best of the repeats is printed next to the median).
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
REPEATS = 5


def _time(cmd: list[str]) -> list[float]:
    out = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
        out.append(time.perf_counter() - t0)
    return out


def _row(what: str, times: list[float], target: float | None = None) -> None:
    verdict = "" if target is None else ("  OK" if min(times) < target else "  TOO SLOW")
    print(f"{what:<48} best {min(times):6.2f} s  median {statistics.median(times):6.2f} s"
          + (f"  (target < {target:g} s){verdict}" if target else ""))


#: What the Leaderboard page imports from the core (app_pages/leaderboard.py, _common, _render).
PAGE_IMPORTS = (
    "from scorio_core import export, io; "
    "from scorio_core.analyses import CLUSTER_ANALYSES, LeaderboardParams; "
    "from scorio_core.analyses.leaderboard import LEADERBOARD; "
    "from scorio_core.analyses.provenance import attach_source, export_filename; "
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


def first_table_seconds(
    app: str = "app.py", path: str = "/leaderboard", serve: bool = True
) -> list[float]:
    """Server start excluded: time from opening ``path`` on a new server to its table on
    screen (the app's Leaderboard page, or ``app``; ``serve``: started as the README does,
    through serve.py, else with a bare ``streamlit run``)."""
    from _browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server
    from playwright.sync_api import sync_playwright

    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(3):
            with streamlit_server(app=app, serve=serve) as url:  # a new server each time
                page = browser.new_page()
                t0 = time.perf_counter()
                page.goto(f"{url}{path}")
                page.wait_for_selector('[data-testid="stDataFrame"]', timeout=120_000)
                out.append(time.perf_counter() - t0)
                page.close()
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
            _row("Streamlit floor: a one-table app (new server)",
                 first_table_seconds(str(floor), "/"))
        _row("app: first leaderboard, bare `streamlit run app.py`",
             first_table_seconds(serve=False))
        _row("app: first leaderboard (new server, README command)", first_table_seconds(),
             FIRST_BOARD_TARGET_S)
    except Exception as exc:  # noqa: BLE001 - no browser here: say so, keep the rest
        print(f"app: first leaderboard: not measured ({type(exc).__name__}: {exc})")


if __name__ == "__main__":
    main()
