"""Links and session files in a real browser (Debian Chromium through Playwright): a URL
with query parameters opens that view in a new browser session, and a saved session file
restores the settings in another one."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlparse

import pytest
from _browser import act, run_number, settle

pytestmark = pytest.mark.timeout(600)
COINS = "Biased coins (11 LLM mimics)"


def _context(browser):
    return browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)


def _main(page) -> str:
    return page.inner_text('[data-testid="stMain"]')


def test_a_link_restores_dataset_and_settings(browser, server):
    ctx = _context(browser)
    page = ctx.new_page()
    page.goto(f"{server}/leaderboard?dataset=biased_coins&leaderboard.confidence=0.9"
              "&leaderboard.scope=%22population%22&leaderboard.adjust=%22holm%22")
    settle(page)
    page.get_by_text("Population scope — mean score over the population").first.wait_for(
        timeout=60_000)
    assert page.get_by_role("combobox", name="Dataset").input_value() == COINS
    assert "90% intervals, adjustment: holm" in _main(page)
    assert "Biased coins" in _main(page)
    assert not page.query_selector_all('[data-testid="stException"]')
    # the page keeps its view in the URL, ready to be copied
    q = parse_qs(urlparse(page.url).query)
    assert q["dataset"] == ["biased_coins"] and q["leaderboard.confidence"] == ["0.9"]
    ctx.close()


def _after_redraw(page) -> None:
    """Wait until a link's first run has drawn its charts by the automatic rerun (on the
    app as users get it, ``first_visit_server``: the shared server draws them at once)."""
    settle(page)
    page.wait_for_function("() => document.querySelectorAll('[data-testid=\"stVegaLiteChart\"]'"
                           ").length > 0", timeout=60_000)  # the redraw has run
    assert run_number(page) >= 2


def test_a_links_conflict_stays_said_after_the_charts_are_drawn(browser, first_visit_server):
    """A link whose settings do not fit together (the order study's worse model first): the
    sidebar says so with the Simulator's box labels, and still does once the first run's
    charts are drawn by the rerun a moment later -- it said it for about a second, then
    that rerun dropped it; the user's next action does."""
    ctx = _context(browser)
    page = ctx.new_page()
    page.goto(f"{first_visit_server}/simulator?study=order&order.upper=0.5&order.lower=0.6")
    _after_redraw(page)
    side = page.inner_text('[data-testid="stSidebar"]')
    assert ("This link's settings could not be used: Better model π̄ must exceed Worse model "
            "π̄ (the better model first); got Better model π̄ 0.5, Worse model π̄ 0.6") in side
    act(page, page.get_by_text("Prior depth", exact=True).first.click)
    assert "This link's settings" not in page.inner_text('[data-testid="stSidebar"]')
    assert not page.query_selector_all('[data-testid="stException"]')
    ctx.close()


def test_a_links_restored_with_changes_note_stays_after_the_charts_are_drawn(
        browser, first_visit_server):
    """A link whose setting the page cannot show as it is (the order study's datasets per N
    below the box's range): the page says what it changed, and still does once the first
    run's charts are drawn by the rerun a moment later -- the note was said only while the
    link's settings were being applied, so that rerun dropped it after about a second; the
    user's next action does."""
    ctx = _context(browser)
    page = ctx.new_page()
    page.goto(f"{first_visit_server}/simulator?study=order&order.sims=100")
    _after_redraw(page)
    assert page.get_by_role("spinbutton", name="Datasets per N").input_value() == "200"
    # the box's own label, as an error names a setting (shown in bold: innerText is plain)
    note = ("Restored with changes (what these data or this page cannot show): Datasets per N "
            "100 is outside the page's range 200 to 20,000; showing 200.")
    assert note in _main(page), _main(page)
    act(page, page.get_by_text("Prior depth", exact=True).first.click)
    assert "Restored with changes" not in _main(page)
    assert not page.query_selector_all('[data-testid="stException"]')
    ctx.close()


def test_save_then_restore_a_session_in_a_new_browser_session(browser, server, tmp_path):
    ctx = _context(browser)
    page = ctx.new_page()
    page.goto(f"{server}/greedy?dataset=reasoning_synthetic&greedy.replicates=9&greedy.seed=4")
    settle(page)
    act(page, page.get_by_text("Session", exact=True).first.click)
    with page.expect_download() as info:
        page.get_by_role("button", name="Save session", exact=True).click()
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    ctx.close()
    body = json.loads(saved.read_text(encoding="utf-8"))
    assert body["settings"]["greedy"] == {"replicates": 9, "seed": 4}
    assert body["data"]["input"]["file"] == "reasoning_synthetic.npz"

    ctx = _context(browser)  # a new browser session on the default view
    page = ctx.new_page()
    page.goto(server)
    settle(page)
    act(page, page.get_by_text("Session", exact=True).first.click)
    uploader = page.locator('[data-testid="stSidebar"] [data-testid="stFileUploaderDropzoneInput"]')
    act(page, lambda: uploader.last.set_input_files(str(saved)))
    assert "Restored session" in page.inner_text('[data-testid="stSidebar"]')
    act(page, page.locator('[data-testid="stSidebarNav"] a', has_text="Greedy vs sampling")
        .first.click)
    reps = page.get_by_role("spinbutton", name="Resampled datasets")
    reps.wait_for(timeout=60_000)
    assert reps.input_value() == "9"
    assert page.get_by_role("spinbutton", name="Seed").input_value() == "4"
    assert not page.query_selector_all('[data-testid="stException"]')
    ctx.close()


def test_the_session_box_stays_open_across_pages(browser, server):
    """The sidebar's Session box closed on every page switch: a user who opened it to
    restore a session and went to another page found it closed. It keeps its state now,
    open or closed."""
    ctx = _context(browser)
    page = ctx.new_page()
    page.goto(server)
    settle(page)
    side = page.locator('[data-testid="stSidebar"]')
    uploader = side.locator('[data-testid="stFileUploader"]')
    box = side.locator('[data-testid="stExpander"] summary', has_text="Session")
    assert uploader.count() == 0
    act(page, box.click)
    assert uploader.count() == 1
    for name in ("Leaderboard", "Planner"):
        act(page, side.locator('[data-testid="stSidebarNav"] a', has_text=name).first.click)
        assert uploader.count() == 1, name
    act(page, box.click)  # closed: closed on the next page
    assert uploader.count() == 0
    act(page, side.locator('[data-testid="stSidebarNav"] a', has_text="Data").first.click)
    assert uploader.count() == 0
    assert not page.query_selector_all('[data-testid="stException"]')
    ctx.close()
