"""Shared pieces of the real-browser tests and the screenshot tool: a Streamlit server
on a free loopback port and Debian's headless Chromium driven by Playwright (no
``playwright install``: the browser comes from ``apt-get install chromium``)."""

from __future__ import annotations

import contextlib
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
def streamlit_server(port: int = 0) -> Iterator[str]:
    """Run ``streamlit run app.py`` on loopback; yield its URL; stop it afterwards."""
    port = port or free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, "-m", "streamlit", "run", "app.py",
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
    """Wait until the app view exists and Streamlit no longer reports a running script."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=timeout_s * 1000)
    page.wait_for_timeout(700)
    for _ in range(int(timeout_s / 0.25)):
        if not page.query_selector('[data-testid="stStatusWidget"]'):
            break
        page.wait_for_timeout(250)
    if wait_s:
        page.wait_for_timeout(wait_s * 1000)
