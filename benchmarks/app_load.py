"""The app under load (issue 21, item 6): many browser sessions at once against one server.

Run: ``python benchmarks/app_load.py [--sessions 10] [--pages leaderboard planner report]``

Starts the app as the README does (``serve.py``) on loopback, then drives headless
Chromium (Debian's ``chromium`` through Playwright; one browser, one context per session):

1. one session alone -- the reference page-ready times;
2. ``--sessions`` sessions at once, each uploading its *own* long CSV (its model names
   carry the session's number) and visiting the pages in turn.

A page is ready when Streamlit reports no running script and the page's charts are drawn
(the same wait as the browser tests). Printed: p50 / p95 page-ready seconds for one
session and for all of them together (and the ratio; target p95 ≤ 3×), the server's peak
resident memory (its ``/proc`` status, polled every 0.2 s), whether any session saw
another session's models (a cross-session leak) and any exception box. The browser and
the server share this machine's cores, so the load includes the browser's own work: the
CPU seconds of every process (``/proc/stat``) and of the server alone (``/proc/<pid>/stat``)
are printed, with the lower bound on the time ratio that the work alone sets.
Stops by itself (``--timeout`` seconds per page).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "app"))
from _browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    IDLE_JS,
    RUN_JS,
    free_port,
    server_process,
)

PAGES = {"leaderboard": "leaderboard", "planner": "planner", "report": "report"}
TITLES = {"leaderboard": "Leaderboard", "planner": "Planner", "report": "Report"}


def _csv(path: Path, session: int, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    rows = ["model,question,trial,outcome"]
    for m, p in enumerate((0.8, 0.6, 0.5, 0.3)):
        for q in range(30):
            for t in range(4):
                rows.append(f"s{session:02d}-model{m},q{q},{t},{int(rng.random() < p)}")
    path.write_text("\n".join(rows) + "\n")
    return path


async def _settle(page, timeout_s: float) -> None:
    """As ``tests/app/_browser.settle``: a state, not a time -- the app is idle."""
    await page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=timeout_s * 1000)
    await page.wait_for_function(IDLE_JS, timeout=timeout_s * 1000)


async def _act(page, action, timeout_s: float) -> None:
    """As ``tests/app/_browser.act``: do ``action``, wait for a later run, then idle."""
    before = await page.evaluate(RUN_JS)
    await action()
    await page.wait_for_function(f"() => ({RUN_JS})() > {before}", timeout=timeout_s * 1000)
    await _settle(page, timeout_s)


async def _session(browser, url, file: Path, session: int, n: int, pages, timeout_s, out):
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await ctx.new_page()
    times, leaks, errors = [], [], []
    try:
        t0 = time.perf_counter()
        await page.goto(url)
        await _settle(page, timeout_s)
        await page.get_by_role("combobox", name="Dataset").click()
        await _act(page, page.get_by_role("option").filter(has_text="Upload a file").first.click,
                   timeout_s)
        drop = page.locator('[data-testid="stFileUploaderDropzoneInput"][multiple]')
        await _act(page, lambda: drop.set_input_files(str(file)), timeout_s)
        times.append(("upload", time.perf_counter() - t0))
        own = f"session{session:02d}"  # the page caption names the uploaded file
        others = [x for j in range(n) if j != session
                  for x in (f"s{j:02d}-model", f"session{j:02d}")]
        for name in pages:
            t0 = time.perf_counter()
            link = page.locator(f'[data-testid="stSidebarNav"] a[href$="/{PAGES[name]}"]')
            # a state, not a time: a later run has rendered and the app is idle
            await _act(page, link.first.click, timeout_s)
            await page.locator("h1").filter(has_text=TITLES[name]).first.wait_for(
                timeout=timeout_s * 1000)
            await page.get_by_text(own).first.wait_for(timeout=timeout_s * 1000)
            times.append((name, time.perf_counter() - t0))
            text = await page.inner_text('[data-testid="stMain"]')
            if own not in text:
                shown = " ".join(text.split())[:160]
                errors.append(f"{name}: own data not shown (page: {shown!r})")
            leaks += [f"{name}: {o}" for o in others if o in text]
            if await page.query_selector('[data-testid="stException"]'):
                errors.append(f"{name}: exception box")
    except Exception as exc:  # noqa: BLE001 - reported in the table
        errors.append(f"{type(exc).__name__}: {str(exc)[:120]}")
    finally:
        await ctx.close()
    out[session] = (times, leaks, errors)


async def _run(url, files, pages, timeout_s):
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        out: dict = {}
        await asyncio.gather(*(
            _session(browser, url, f, i, len(files), pages, timeout_s, out)
            for i, f in enumerate(files)
        ))
        await browser.close()
    return out


def _rss_poller(pid: int, peak: list, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    peak[0] = max(peak[0], int(line.split()[1]) / 1024)
        except OSError:
            pass
        stop.wait(0.2)


def _busy_seconds() -> float:
    """CPU seconds spent busy by every process on this machine so far (``/proc/stat``)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(x) for x in fields]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _proc_seconds(pid: int) -> float:
    """CPU seconds of one process and its waited-for children (``/proc/<pid>/stat``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _pct(xs, q) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] if xs else float("nan")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--pages", nargs="+", default=list(PAGES), choices=list(PAGES))
    ap.add_argument("--timeout", type=float, default=180, help="seconds per page at most")
    args = ap.parse_args(argv)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "serve.py", "--server.port", str(port), "--server.address",
           "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
           "--server.fileWatcherType", "none"]
    peak, stop = [0.0], threading.Event()
    # its output to a log file, not a pipe that fills (server_process)
    with server_process(cmd, url) as server, tempfile.TemporaryDirectory() as tmp:
        poller = threading.Thread(target=_rss_poller, args=(server.pid, peak, stop),
                                  daemon=True)
        poller.start()
        try:
            files = [_csv(Path(tmp) / f"session{i:02d}.csv", i, i) for i in range(args.sessions)]
            b0, s0, t0 = _busy_seconds(), _proc_seconds(server.pid), time.perf_counter()
            single = asyncio.run(_run(url, files[:1], args.pages, args.timeout))
            busy1, wall1 = _busy_seconds() - b0, time.perf_counter() - t0
            srv1 = _proc_seconds(server.pid) - s0
            rss_single = peak[0]
            b0, s0, t0 = _busy_seconds(), _proc_seconds(server.pid), time.perf_counter()
            many = asyncio.run(_run(url, files, args.pages, args.timeout))
            busy, wall = _busy_seconds() - b0, time.perf_counter() - t0
            srv = _proc_seconds(server.pid) - s0
        finally:
            stop.set()

    def page_times(res, name=None):
        return [t for times, _, _ in res.values() for n, t in times if name in (None, n)]

    print(f"command: python benchmarks/app_load.py --sessions {args.sessions} --pages "
          f"{' '.join(args.pages)}")
    print(f"\n| what | 1 session p50 / p95 (s) | {args.sessions} sessions p50 / p95 (s) | "
          "p95 ratio |")
    print("|---|---:|---:|---:|")
    for name in ["upload", *args.pages, None]:
        a, b = page_times(single, name), page_times(many, name)
        label = name or "every page"
        ratio = _pct(b, 0.95) / _pct(a, 0.95) if a and b else float("nan")
        print(f"| {label} | {_pct(a, .5):.1f} / {_pct(a, .95):.1f} | {_pct(b, .5):.1f} / "
              f"{_pct(b, .95):.1f} | {ratio:.1f}x |")
    leaks = [x for _, lk, _ in many.values() for x in lk]
    errors = [x for _, _, er in many.values() for x in er] + \
             [x for _, _, er in single.values() for x in er]
    print(f"\nserver peak RSS: {rss_single:.0f} MB after one session, {peak[0]:.0f} MB with "
          f"{args.sessions} sessions; {args.sessions} sessions took {wall:.0f} s in all")
    print(f"cross-session leaks: {len(leaks)}" + (f" ({'; '.join(leaks[:5])})" if leaks else ""))
    print(f"errors: {len(errors)}" + (f" ({'; '.join(errors[:5])})" if errors else ""))
    med = statistics.median(page_times(many)) if page_times(many) else float("nan")
    print(f"median page-ready under load: {med:.1f} s")
    # Work conservation: n sessions need about n times one session's CPU work (server and
    # browser alike, both on this machine); on `cores` cores their pages cannot take less
    # than that work / cores, so the ratio of page times is at least this bound whatever
    # the server does.
    cores = os.cpu_count() or 1
    bound = args.sessions * busy1 / cores / wall1 if wall1 > 0 else float("nan")
    print(f"CPU (every process on this machine, /proc/stat): one session {busy1:.0f} s busy "
          f"in {wall1:.0f} s; {args.sessions} sessions {busy:.0f} s busy in {wall:.0f} s on "
          f"{cores} cores. Lower bound on the time ratio from the work alone: "
          f"{args.sessions} x {busy1:.0f} s / {cores} cores / {wall1:.0f} s = {bound:.1f}x")
    print(f"of which the app server (its /proc/<pid>/stat): {srv1:.1f} CPU-s for one session, "
          f"{srv:.1f} CPU-s for {args.sessions}; the rest is the browser and this driver")
    return 0 if not leaks and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
