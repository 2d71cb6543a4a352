"""Screenshot the app's pages in headless Chromium (manual tool; not collected by pytest).

Starts ``streamlit run app.py`` on a free port, opens each page, waits for the
charts to render, saves full-page PNGs and stops the server it started.

Usage (from the repository root)::

    python tests/app/screenshot.py                          # Data + Leaderboard, default dataset
    python tests/app/screenshot.py --dataset "Biased coins" --out /tmp/shots/coins
    python tests/app/screenshot.py --pages leaderboard --benchmark "AIME'25"
    python tests/app/screenshot.py --upload runs.csv --out /tmp/shots/upload
    python tests/app/screenshot.py --pages stability --benchmark "AIME'24" \
        --click "Run stability analysis"

Needs ``pip install playwright`` and a Chromium binary (``apt-get install chromium``);
``playwright install`` is not required.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PAGES = {
    "data": "",
    "leaderboard": "leaderboard",
    "planner": "planner",
    "rubric": "rubric",
    "methods": "methods",
    "convergence": "convergence",
    "stability": "stability",
    "greedy": "greedy",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, timeout: float = 60) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"streamlit did not become healthy at {url}")


def _settle(page, wait_s: float) -> None:
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=60_000)
    page.wait_for_timeout(1000)
    # Wait while Streamlit reports it is running the script.
    for _ in range(120):
        if not page.query_selector('[data-testid="stStatusWidget"]'):
            break
        page.wait_for_timeout(500)
    page.wait_for_timeout(wait_s * 1000)


def _pick(page, label: str, wait_s: float) -> None:
    page.get_by_text(label, exact=False).first.click()
    _settle(page, wait_s)


def _full_page(page, path: Path, width: int) -> None:
    # The main area scrolls inside its own container, so grow the viewport to fit it.
    height = page.evaluate(
        """() => {
            const el = document.querySelector('[data-testid="stMain"]') || document.body;
            return Math.max(el.scrollHeight, document.body.scrollHeight);
        }"""
    )
    page.set_viewport_size({"width": width, "height": min(int(height) + 40, 16000)})
    page.wait_for_timeout(1500)
    page.screenshot(path=str(path), full_page=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="/tmp/shots", help="output folder")
    ap.add_argument("--pages", nargs="+", default=list(PAGES), choices=list(PAGES))
    ap.add_argument("--dataset", help="sidebar dataset label to click (substring)")
    ap.add_argument("--benchmark", help="benchmark to pick in the sidebar")
    ap.add_argument("--upload", help="file to upload through the sidebar's file uploader")
    ap.add_argument("--click", action="append", default=[],
                    help="button text to click on each page when present (repeatable)")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--wait", type=float, default=8.0, help="seconds to let charts render")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--port", type=int, default=0, help="0 = pick a free port")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    port = args.port or _free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "app.py",
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]
    server = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_healthy(url)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": args.width, "height": 1000})
            page.goto(url)
            _settle(page, 2)
            if args.dataset:
                _pick(page, args.dataset, 2)
            if args.upload:
                _pick(page, "Upload a file", 2)
                page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
                    args.upload
                )
                _settle(page, 2)
            if args.benchmark:
                page.get_by_role("combobox", name="Benchmark").click()
                page.get_by_role("option", name=args.benchmark).click()
                _settle(page, 2)
            for name in args.pages:
                # Navigate with the sidebar link so the session (and dataset choice) is kept.
                link = page.locator(f'[data-testid="stSidebarNav"] a[href$="/{PAGES[name]}"]')
                if link.count():
                    link.first.click()
                else:
                    page.goto(f"{url}/{PAGES[name]}")
                _settle(page, args.wait)
                for label in args.click:
                    button = page.get_by_role("button", name=label)
                    if button.count():
                        button.first.click()
                        _settle(page, args.wait)
                path = out / f"{name}.png"
                _full_page(page, path, args.width)
                page.set_viewport_size({"width": args.width, "height": 1000})
                print(path)
            browser.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
