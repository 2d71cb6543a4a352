"""Shared pieces of the real-browser tests and the screenshot tool: a Streamlit server
on a free loopback port and Debian's headless Chromium driven by Playwright (no
``playwright install``: the browser comes from ``apt-get install chromium``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, timeout: float = 90, server: subprocess.Popen | None = None) -> None:
    """Wait until the Streamlit server at ``url`` answers its health check; raise
    ``TimeoutError`` after ``timeout`` seconds, or at once if ``server`` (its process) exits."""
    end = time.time() + timeout
    while time.time() < end:
        if server is not None and server.poll() is not None:
            raise RuntimeError(f"the server exited (code {server.returncode}) before it "
                               f"answered at {url}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"streamlit did not become healthy at {url} in {timeout:.0f} s")


def log_tail(path: Path, lines: int = 40) -> str:
    """The last ``lines`` lines of the text file at ``path`` (a server's log)."""
    text = path.read_text(errors="replace") if path.exists() else ""
    return "\n".join(text.splitlines()[-lines:]) or "(empty)"


@contextlib.contextmanager
def server_process(cmd: list[str], url: str, env: dict[str, str] | None = None,
                   timeout: float = 90) -> Iterator[subprocess.Popen]:
    """Run the server ``cmd`` from the repository root until it answers at ``url``
    (:func:`wait_healthy`, ``timeout`` seconds at most), yield its process, and stop it
    afterwards. Its output (stdout and stderr) goes to a log file in a temporary folder --
    not to a pipe that nobody reads, which a chatty server fills (64 KiB) and then blocks on
    its next line, hanging the test that waits for it. A server that exits or never answers
    raises with the log's tail."""
    with tempfile.TemporaryDirectory(prefix="scorio-server-") as tmp:
        log = Path(tmp) / "server.log"
        with log.open("ab") as out:  # the child keeps its own descriptor
            server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out,
                                      stderr=subprocess.STDOUT)
        try:
            try:
                wait_healthy(url, timeout, server)
            except (TimeoutError, RuntimeError) as exc:
                raise RuntimeError(f"{exc}; its log ends:\n{log_tail(log)}") from None
            yield server
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def server_env(charts_at_once: bool = True) -> dict[str, str]:
    """This process's environment for a test server: ``app_state.CHARTS_AT_ONCE`` set to
    ``1`` (``charts_at_once``) or removed. The name comes from ``app_state``, which is free of
    Streamlit: imported from the pages, it made Streamlit log "No runtime found" twice in
    every screenshot run (the pages' cached functions made outside a running server)."""
    if str(ROOT) not in sys.path:  # the screenshot tool and the benchmarks run from tests/app
        sys.path.insert(0, str(ROOT))
    from app_state import CHARTS_AT_ONCE

    env = {k: v for k, v in os.environ.items() if k != CHARTS_AT_ONCE}
    if charts_at_once:
        env[CHARTS_AT_ONCE] = "1"
    return env


@contextlib.contextmanager
def streamlit_server(port: int = 0, app: str = "app.py", serve: bool = True,
                     charts_at_once: bool = True) -> Iterator[str]:
    """Run the app as the README does (``serve.py``: ``streamlit run app.py`` with the first
    page's imports done at start-up), or ``streamlit run`` on ``app`` (``serve=False`` or
    another script), on loopback; yield its URL; stop it afterwards. ``charts_at_once``: a
    session's first run draws its charts itself (``app_state.CHARTS_AT_ONCE``), so
    a test's new session does not wait for the rerun that draws them a moment later for a
    user; ``False`` serves the first visit as users get it."""
    env = server_env(charts_at_once)
    port = port or free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, *(["serve.py"] if serve and app == "app.py" else
                          ["-m", "streamlit", "run", app]),
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    with server_process(cmd, url, env):
        yield url


#: The page is idle: a script run has rendered to its end (the run marker), Streamlit shows
#: no running script, no element waits to be replaced or for its code (Streamlit draws a grey
#: skeleton in an element's place until the browser has loaded the code that draws it: the
#: Method comparison's first metrics were still skeletons after the run, so a test counted
#: three of its five), and no "Drawing the charts…" placeholder waits for the charts' rerun.
IDLE_JS = """() => !!document.querySelector('[data-scorio-run]')
  && !document.querySelector('[data-testid="stStatusWidget"]')
  && !document.querySelector('[data-stale="true"]')
  && !document.querySelector('[data-testid="stSkeleton"]')
  && !document.body.innerText.includes('Drawing the chart')"""
RUN_JS = """() => +(document.querySelector('[data-scorio-run]')?.dataset.scorioRun ?? 0)"""
#: ``[label, pixels cut]`` of every download button in the main column whose label is cut
#: (Streamlit ends a label that does not fit its button with "…": its text box then scrolls).
CUT_LABELS_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stDownloadButton"] [data-testid="stMarkdownContainer"]'))
  .map(m => [m.innerText, m.scrollWidth - m.clientWidth]).filter(([, cut]) => cut > 0)"""

#: ``[label, pixels cut]`` of every page link in the main column whose label is cut: a page
#: link's label is one line, ended with "…" where it does not fit (the Planner's sentence
#: to the Check page read "… draws r" at 1024 px).
CUT_LINKS_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stPageLink"] [data-testid="stMarkdownContainer"]'))
  .map(m => [m.innerText, m.scrollWidth - m.clientWidth]).filter(([, cut]) => cut > 0)"""

#: ``[longest line, pixels cut]`` of every code box in the main column with a line past its
#: right edge (a box scrolls such a line without a mark that it goes on).
CUT_CODE_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stCode"] pre'))
  .map(p => [p.innerText.split('\\n').reduce((a, l) => l.length > a.length ? l : a, ''),
             p.scrollWidth - p.clientWidth]).filter(([, cut]) => cut > 0)"""
#: ``[text, pixels cut]`` of every metric in the main column whose label or value does not
#: fit its box (Streamlit ends it with "…": four metrics in equal columns of a 1024 px
#: window's main column read "Mean disagree…" and "conve…").
CUT_METRICS_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stMetric"]')).map(m => [m.innerText,
    Math.max(...[m, ...m.querySelectorAll('*')].map(e => e.scrollWidth - e.clientWidth))])
  .filter(([, cut]) => cut > 0)"""
#: ``[text, pixels cut]`` of every button in the main column (a plain button, a segmented
#: control's or pills' option) whose text does not read whole: ended with "…" in its box
#: (a button's label scrolls), or drawn past the right edge of a column that holds it (the
#: Leaderboard's "greedy (R0)" ran 40 px past 4/15 of a 1024 px window's column).
CUT_BUTTONS_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] button')).map(b => {
  let right = Infinity;
  for (let e = b.parentElement; e; e = e.parentElement) {
    if (getComputedStyle(e).overflowX !== 'visible' || e.matches('[data-testid="stColumn"]')) {
      right = Math.min(right, e.getBoundingClientRect().right);
    }
  }
  const label = b.querySelector('[data-testid="stMarkdownContainer"]') || b;
  const inside = Math.max(...[b, ...b.querySelectorAll('*')].map(
    e => e.scrollWidth - e.clientWidth));
  return [label.innerText.trim(), Math.round(Math.max(inside,
                                                      b.getBoundingClientRect().right - right))];
}).filter(([text, cut]) => text && cut > 1)"""
#: ``[label, pixels cut]`` of every widget label in the main column that does not fit its
#: widget (Streamlit ends a label's one line with "…" where it cannot break it).
CUT_WIDGET_LABELS_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stWidgetLabel"]')).map(l => [l.innerText,
    Math.max(...[l, ...l.querySelectorAll('*')].map(e => e.scrollWidth - e.clientWidth))])
  .filter(([, cut]) => cut > 0)"""
#: The number of code boxes in the main column.
CODE_BOXES_JS = """() => document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stCode"] pre').length"""
#: ``[index, pixels past the edge]`` of every table in the main column wider than its box
#: (the grid then scrolls sideways and cuts its last columns at the edge without a mark).
WIDE_TABLES_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stDataFrame"] .dvn-scroller'))
  .map((s, i) => [i, s.scrollWidth - s.clientWidth]).filter(([, cut]) => cut > 1)"""
#: ``[index, pixels past the edge]`` of every chart in the main column drawn past the
#: column's right edge (its content box: a chart of fixed width ran on under the page's
#: margin, its last axis labels cut).
WIDE_CHARTS_JS = """() => {
  const box = document.querySelector('[data-testid="stMainBlockContainer"]');
  const right = box.getBoundingClientRect().right - parseFloat(getComputedStyle(box).paddingRight);
  return Array.from(document.querySelectorAll(
      '[data-testid="stMain"] [data-testid="stVegaLiteChart"] :is(canvas, svg)'))
    .map((c, i) => [i, Math.round(c.getBoundingClientRect().right - right)])
    .filter(([, past]) => past > 1);
}"""
def cut_labels_js(role: str, part: str = "label") -> str:
    """JavaScript giving ``[label, pixels past]`` of every ``role`` label (``"legend"``,
    ``"axis"``) of a chart in the main column that runs past its chart's drawing (the SVG's
    box, which the page clips) or that Vega ended with "…": a label a reader cannot read
    whole. ``part="title"``: the titles of its axes or legends instead."""
    return """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stVegaLiteChart"] svg')).flatMap(svg => {
  const box = svg.getBoundingClientRect();
  return Array.from(svg.querySelectorAll('.role-ROLE-PART text')).map(t => {
    const r = t.getBoundingClientRect();
    return [t.textContent, Math.round(Math.max(r.right - box.right, box.left - r.left))];
  }).filter(([text, past]) => past > 1 || text.endsWith('\u2026'));
})""".replace("ROLE", role).replace("PART", part)


#: Legend labels cut (a one-row legend under a half-column panel cut "simulated mean" at
#: 1024 px) or longer than their ``labelLimit``.
CUT_LEGENDS_JS = cut_labels_js("legend")
#: The legend labels of the charts in the main column, chart by chart.
LEGEND_LABELS_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stVegaLiteChart"] svg')).map(svg =>
  Array.from(svg.querySelectorAll('.role-legend-label text')).map(t => t.textContent))"""
#: The number of charts drawn (canvas or SVG) in the main column.
CHARTS_JS = """() => document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stVegaLiteChart"] :is(canvas, svg)').length"""
#: The number of tables drawn in the main column.
TABLES_JS = """() => document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stDataFrame"] .dvn-scroller').length"""
#: ``[drawn, shown]``: the tables in the main column in view (not in a closed expander, which
#: keeps its tables' boxes but draws no grid in them) and those of them whose grid is drawn.
#: Streamlit puts a table's box on the page with the run (an element container of print
#: class ``stPrintFixedWidth``; ``st.table``'s too, left out) and its grid a moment later --
#: later still on a busy machine, after the page's charts.
TABLES_DRAWN_JS = """() => {
  const boxes = Array.from(document.querySelectorAll(
      '[data-testid="stMain"] .stElementContainer.stPrintFixedWidth'))
    .filter(e => e.getClientRects().length > 0 && !e.closest('details:not([open])')
                 && !e.querySelector('[data-testid="stTable"]'));
  const drawn = boxes.filter(e => {
    const s = e.querySelector('[data-testid="stDataFrame"] .dvn-scroller');
    return s && s.clientWidth > 0;
  });
  return [drawn.length, boxes.length];
}"""


def run_number(page) -> int:
    """The number of the session's last script run that has rendered (0: none yet)."""
    return page.evaluate(RUN_JS)


def settle(page, timeout_s: float = 120) -> None:
    """Wait for a state, not for seconds: the app is idle (:data:`IDLE_JS`) -- after a page
    load, a session's first run and the rerun that draws its charts."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=timeout_s * 1000)
    page.wait_for_function(IDLE_JS, timeout=timeout_s * 1000)


def charts_drawn(page, timeout_s: float = 120) -> None:
    """Wait until every chart on the page has drawn its canvas or SVG."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
                  .every(c => c.querySelector('canvas, svg'))""", timeout=timeout_s * 1000)


def tables_drawn(page, n: int = 1, timeout_s: float = 120) -> int:
    """Wait until at least ``n`` tables are in view in the main column and every one has
    drawn its grid (:data:`TABLES_DRAWN_JS`), and return how many there are: what a test
    that measures the tables waits for (waiting for the charts, or for a first table, a test
    measured tables whose grids were not drawn yet)."""
    want = f"shown === drawn && shown >= {int(n)}"
    page.wait_for_function(f"() => {{ const [drawn, shown] = ({TABLES_DRAWN_JS})(); "
                           f"return {want}; }}", timeout=timeout_s * 1000)
    return page.evaluate(TABLES_DRAWN_JS)[1]


def act(page, action: Callable[[], object], timeout_s: float = 120) -> None:
    """Do ``action`` (a click or an upload that makes the app rerun), then wait until a
    later run than the one on screen has rendered and the app is idle."""
    before = run_number(page)
    action()
    page.wait_for_function(f"() => ({RUN_JS})() > {before}", timeout=timeout_s * 1000)
    settle(page, timeout_s)


def launch_chromium_or_skip(playwright):
    """Debian's Chromium through ``playwright``; skip the test without one, except in CI
    (``CI=true``), where a missing browser is a failure (`.ci/run` installs it)."""
    import pytest

    reason = None if Path(CHROMIUM).exists() else f"no Chromium at {CHROMIUM}"
    if reason is None:
        try:
            return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except Exception as exc:  # noqa: BLE001 - said below, as a skip or a CI failure
            reason = f"Chromium did not start: {exc}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests must run in CI: {reason} (apt-get install chromium)")
    pytest.skip(reason)


def sync_playwright_or_skip():
    """``playwright.sync_api.sync_playwright``; skip without it, fail in CI."""
    import pytest

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("browser tests must run in CI: playwright is not installed (test extra)")
        pytest.skip("playwright is not installed (test extra)")
    return sync_playwright

#: ``[value, pixels cut]`` of every select box in the main column whose value runs past its
#: box (a select box's input clips its text at the arrow, without a mark).
CUT_SELECTS_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stSelectbox"] input'))
  .map(i => [i.value, i.scrollWidth - i.clientWidth]).filter(([, cut]) => cut > 0)"""

#: The number of parts of each table drawn in parts, as its first part's line states.
PARTS_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stCaptionContainer"]'))
  .map(c => c.innerText.match(/^Part 1 of (\\d+):/)).filter(m => m).map(m => +m[1])"""


def no_exception(page, where: str) -> None:
    """No exception box on ``page``; else the first one's text, said of ``where``."""
    boxes = page.query_selector_all('[data-testid="stException"]')
    assert not boxes, f"{where}: {boxes[0].inner_text()[:500]}"
