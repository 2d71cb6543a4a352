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
from collections.abc import Iterator
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
def streamlit_server(port: int = 0, app: str = "app.py", serve: bool = True) -> Iterator[str]:
    """Run the app as the README does (``serve.py``: ``streamlit run app.py`` with the first
    page's imports done at start-up), or ``streamlit run`` on ``app`` (``serve=False`` or
    another script), on loopback; yield its URL; stop it afterwards."""
    port = port or free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, *(["serve.py"] if serve and app == "app.py" else
                          ["-m", "streamlit", "run", app]),
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    server = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_healthy(url)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def settle(page, wait_s: float = 0.0, timeout_s: float = 120) -> None:
    """Wait until the app view exists, Streamlit no longer reports a running script and a
    session's first run has had its charts drawn (the rerun that draws them replaces the
    page's elements: a button found before it would be detached)."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=timeout_s * 1000)
    for _ in range(3):  # the first run; the charts' rerun (about 1 s later); spare
        page.wait_for_timeout(700)
        for _ in range(int(timeout_s / 0.25)):
            if not page.query_selector('[data-testid="stStatusWidget"]'):
                break
            page.wait_for_timeout(250)
        if not page.get_by_text("Drawing the chart").count():
            break
        page.wait_for_timeout(600)
    if wait_s:
        page.wait_for_timeout(wait_s * 1000)


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
