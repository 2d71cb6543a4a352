"""Screenshot the app's pages in headless Chromium (manual tool; not collected by pytest).

Starts ``streamlit run app.py`` on a free port, opens each page, waits for the
charts to render, saves full-page PNGs and stops the server it started.

Usage (from the repository root)::

    python tests/app/screenshot.py                          # Data + Leaderboard, default dataset
    python tests/app/screenshot.py --dataset "Biased coins" --out /tmp/shots/coins
    python tests/app/screenshot.py --pages leaderboard --benchmark "AIME'25"
    python tests/app/screenshot.py --upload runs.csv --out /tmp/shots/upload
    python tests/app/screenshot.py --pages pair --upload tests/fixtures/harness/inspect/texts/*.eval
    python tests/app/screenshot.py --upload data/jhu_llm_temperature.parquet \
        --pages questions leaderboard --out /tmp/shots/jhu
    python tests/app/screenshot.py --pages stability --benchmark "AIME'24" \
        --click "Run stability analysis"
    python tests/app/screenshot.py --pages leaderboard --width 1280 --top 1300 \
        --query 'dataset=jhu_llm_temperature&leaderboard.scope="population"' --out docs/img

Needs ``pip install playwright`` and a Chromium binary (``apt-get install chromium``);
``playwright install`` is not required.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    act,
    charts_drawn,
    settle,
    streamlit_server,
)

PAGES = {
    "data": "",
    "leaderboard": "leaderboard",
    "pair": "pair",
    "questions": "questions",
    "planner": "planner",
    "check": "check",
    "rubric": "rubric",
    "methods": "methods",
    "convergence": "convergence",
    "stability": "stability",
    "greedy": "greedy",
    "simulator": "simulator",
    "report": "report",
}


def _pick(page, box: str, option: str) -> None:
    """Choose the option containing ``option`` in the sidebar select box labelled ``box``."""
    page.get_by_role("combobox", name=box).click()
    act(page, page.get_by_role("option").filter(has_text=option).first.click)


def _full_page(page, path: Path, width: int) -> None:
    # The main area scrolls inside its own container, so grow the viewport to fit it.
    height = page.evaluate(
        """() => {
            const el = document.querySelector('[data-testid="stMain"]') || document.body;
            return Math.max(el.scrollHeight, document.body.scrollHeight);
        }"""
    )
    page.set_viewport_size({"width": width, "height": min(int(height) + 40, 16000)})
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    charts_drawn(page)  # charts redraw at the new size
    page.screenshot(path=str(path), full_page=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="/tmp/shots", help="output folder")
    ap.add_argument("--pages", nargs="+", default=list(PAGES), choices=list(PAGES))
    ap.add_argument("--dataset", help="sidebar dataset to choose (part of its label)")
    ap.add_argument("--benchmark", help="benchmark to pick in the sidebar")
    ap.add_argument("--upload", nargs="+",
                    help="file(s) to upload through the sidebar's file uploader")
    ap.add_argument("--click", action="append", default=[],
                    help="text of a button or of a segmented-control option (e.g. population) to "
                         "click on each page when present (repeatable)")
    ap.add_argument("--query", help="a link's query (dataset, benchmark, page settings), e.g. "
                    "'leaderboard.scope=\"population\"'; pages are then opened by URL")
    ap.add_argument("--top", type=int, default=0,
                    help="keep only the top TOP pixels of each page (0 = the full page)")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--chromium", default=CHROMIUM)
    ap.add_argument("--port", type=int, default=0, help="0 = pick a free port")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with streamlit_server(args.port) as url:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": args.width, "height": 1000})
            page.goto(url)
            settle(page)
            if args.dataset:
                _pick(page, "Dataset", args.dataset)
            if args.upload:
                _pick(page, "Dataset", "Upload a file")
                drop = page.locator('[data-testid="stFileUploaderDropzoneInput"][multiple]')
                act(page, lambda: drop.set_input_files(args.upload))
            if args.benchmark:
                _pick(page, "Benchmark", args.benchmark)
            for name in args.pages:
                # Navigate with the sidebar link so the session (and dataset choice) is kept.
                link = page.locator(f'[data-testid="stSidebarNav"] a[href$="/{PAGES[name]}"]')
                if args.query:  # a link's view: the settings come with the URL
                    page.goto(f"{url}/{PAGES[name]}?{args.query}")
                    settle(page)
                elif link.count():
                    act(page, link.first.click)
                else:
                    page.goto(f"{url}/{PAGES[name]}")
                    settle(page)
                for label in args.click:
                    # a button, or an option of a segmented control / radio (e.g. the scope)
                    for target in (page.get_by_role("button", name=label, exact=True),
                                   page.get_by_role("radio", name=label, exact=True),
                                   page.get_by_role("button", name=label),
                                   page.get_by_text(label, exact=True)):
                        if target.count():
                            act(page, target.first.click)
                            break
                charts_drawn(page)
                path = out / f"{name}.png"
                if args.top:
                    page.set_viewport_size({"width": args.width, "height": args.top})
                    charts_drawn(page)
                    page.screenshot(path=str(path))
                else:
                    _full_page(page, path, args.width)
                page.set_viewport_size({"width": args.width, "height": 1000})
                print(path)
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
