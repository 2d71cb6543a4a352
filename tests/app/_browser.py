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


def wait_healthy(url: str, timeout: float = 90) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"streamlit did not become healthy at {url}")


@contextlib.contextmanager
def streamlit_server(port: int = 0, app: str = "app.py", serve: bool = True,
                     charts_at_once: bool = True) -> Iterator[str]:
    """Run the app as the README does (``serve.py``: ``streamlit run app.py`` with the first
    page's imports done at start-up), or ``streamlit run`` on ``app`` (``serve=False`` or
    another script), on loopback; yield its URL; stop it afterwards. ``charts_at_once``: a
    session's first run draws its charts itself (``app_pages._render.CHARTS_AT_ONCE``), so
    a test's new session does not wait for the rerun that draws them a moment later for a
    user; ``False`` serves the first visit as users get it."""
    if str(ROOT) not in sys.path:  # the screenshot tool and the benchmarks run from tests/app
        sys.path.insert(0, str(ROOT))
    from app_pages._render import CHARTS_AT_ONCE

    env = {k: v for k, v in os.environ.items() if k != CHARTS_AT_ONCE}
    if charts_at_once:
        env[CHARTS_AT_ONCE] = "1"
    port = port or free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, *(["serve.py"] if serve and app == "app.py" else
                          ["-m", "streamlit", "run", app]),
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
    try:
        wait_healthy(url)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


#: The page is idle: a script run has rendered to its end (the run marker), Streamlit shows
#: no running script, no element waits to be replaced, and no "Drawing the charts…"
#: placeholder waits for the charts' rerun.
IDLE_JS = """() => !!document.querySelector('[data-scorio-run]')
  && !document.querySelector('[data-testid="stStatusWidget"]')
  && !document.querySelector('[data-stale="true"]')
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
#: ``[label, pixels past]`` of every legend label of a chart in the main column that runs
#: past its chart's drawing (the SVG's box, which the page clips: a one-row legend under a
#: half-column panel cut "simulated mean" at 1024 px) or that Vega ended with "…" (longer
#: than its ``labelLimit``): a label a reader cannot read whole.
CUT_LEGENDS_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stVegaLiteChart"] svg')).flatMap(svg => {
  const box = svg.getBoundingClientRect();
  return Array.from(svg.querySelectorAll('.role-legend-label text')).map(t => {
    const r = t.getBoundingClientRect();
    return [t.textContent, Math.round(Math.max(r.right - box.right, box.left - r.left))];
  }).filter(([text, past]) => past > 1 || text.endsWith('\u2026'));
})"""
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
