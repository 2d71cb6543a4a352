"""Long model names and long values read whole in a real browser at 1024 and 1280 px
(Debian's headless Chromium, as ``test_browser.py``; the AppTest side of the same pages:
``test_long_texts.py``).

Two 70-character model names: the Leaderboard's select box clipped the pair at its arrow
without a mark ("… vs Another-Ext") and its Pair-view button wrapped them over two lines
(four for names without a hyphen, one broken mid-word); the Method comparison's five
metrics, in equal columns of a 1024 px window's main column, cut a lowest τ_b of "-0.8165"
by 10 px.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _browser import CUT_BUTTONS_JS, CUT_METRICS_JS, CUT_SELECTS_JS, act, settle
from _long_names import close_three, two_long_leaders

pytestmark = pytest.mark.timeout(600)

#: ``[label, lines]`` of every Pair-view button drawn in the main column: the lines its label
#: takes.
PAIR_BUTTON_LINES_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] button')).filter(b => b.innerText.includes('Pair view:')
                                             && b.getBoundingClientRect().height > 0).map(b => {
  const p = b.querySelector('[data-testid="stMarkdownContainer"] p');
  return [p.innerText, Math.round(p.getBoundingClientRect().height
                                  / parseFloat(getComputedStyle(p).lineHeight))];
})"""


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1024, "height": 1000})
    pg = context.new_page()
    yield pg
    context.close()


def _upload_and_open(page, server: str, file: Path, title: str) -> None:
    """Upload ``file`` through the sidebar, then open the page titled ``title``."""
    page.goto(server)
    settle(page)
    page.get_by_role("combobox", name="Dataset").click()
    act(page, page.get_by_role("option", name="Upload a file").click)
    dropzone = page.locator('[data-testid="stFileUploaderDropzoneInput"][multiple]')
    act(page, lambda: dropzone.set_input_files(str(file)))
    act(page, page.locator('[data-testid="stSidebarNav"] a', has_text=title).first.click)
    assert not page.query_selector_all('[data-testid="stException"]'), title


def test_the_leaderboards_pair_controls_read_whole_at_1024_px(page, server, tmp_path):
    """The top two models named in 69 characters each: the select box shows the pair and
    the Pair-view button its label on one line, the names cut in the middle, nothing
    clipped or ended by the browser."""
    _upload_and_open(page, server, two_long_leaders(tmp_path / "two_long.csv"), "Leaderboard")
    assert page.evaluate(CUT_BUTTONS_JS) == []
    assert page.evaluate(CUT_SELECTS_JS) == []
    lines = page.evaluate(PAIR_BUTTON_LINES_JS)
    assert len(lines) == 1 and lines[0][1] == 1, lines
    assert lines[0][0].count("…") == 2, lines  # each long name cut in its middle


@pytest.mark.parametrize("width", [1024, 1280])
@pytest.mark.parametrize("data", ["bundled", "long names"])
def test_the_method_comparisons_metrics_read_whole(page, server, tmp_path, width, data):
    """The five metrics, on the bundled default data and on an upload of two 70-character
    names whose lowest τ_b is negative ("-0.8165", cut by 10 px at 1024 px in five equal
    columns): every label and value reads whole."""
    page.set_viewport_size({"width": width, "height": 1000})
    if data == "bundled":
        page.goto(f"{server}/methods")
        settle(page)
    else:
        _upload_and_open(page, server, close_three(tmp_path / "close.csv"), "Method comparison")
    page.wait_for_selector('[data-testid="stMain"] [data-testid="stMetric"]', timeout=120_000)
    metrics = page.locator('[data-testid="stMain"] [data-testid="stMetric"]').all_inner_texts()
    assert len(metrics) == 5, metrics
    if data == "long names":  # the value this test is about
        assert any(m.split()[-1].startswith("-") for m in metrics), metrics
    assert page.evaluate(CUT_METRICS_JS) == [], (width, data)
    if data == "bundled":  # short values: the five in one row, as in the equal columns
        tops = page.evaluate("""() => Array.from(document.querySelectorAll(
            '[data-testid="stMain"] [data-testid="stMetric"]'))
          .map(m => Math.round(m.getBoundingClientRect().top))""")
        assert len(set(tops)) == 1, tops
