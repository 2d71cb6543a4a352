"""Pages read whole in a 1024 px window, in a real browser (Debian's headless Chromium, as
:mod:`test_browser` drives it): every metric's label and value, every table within the main
column, every chart's axis and legend labels and titles within its drawing.

A sweep of every page at 1024 px on the bundled default data found, on the pages below,
metric labels cut in five equal columns ("Mean accuracy" by 8 px, "prior trials (D)" by
3 px), tables fitted to a 1280 px window's column running past a 1024 px window's (the Data
page's preview by 229 px, the Check table by 232, the Greedy ranks by 157), and the Rubric
builder's two charts, side by side in half columns, cutting their legend ("3: correct ∧
concise (w=1)" by 64 px) and axis titles; the Planner's gap curve cut its last tick label
("10,000", 9 px past the drawing).

The sweep walks every page of the sidebar in its order, in one browser session, as a user
clicks through them: it is also the check that every page renders on the default real data
(no exception box, a title, every export label whole), which a walk at 1280 px made apart
(the same pages loaded a second time, a minute of a 2-core CI); a 1024 px window's narrower
column is the stricter test of a label's room. On the Rubric builder the window is then
widened to 1280 px: its τ table is one table there, not parts.
"""

from __future__ import annotations

import pytest
from _browser import (
    CUT_BUTTONS_JS,
    CUT_LABELS_JS,
    CUT_METRICS_JS,
    CUT_SELECTS_JS,
    WIDE_CHARTS_JS,
    WIDE_TABLES_JS,
    act,
    charts_drawn,
    cut_labels_js,
    settle,
    tables_drawn,
)

pytestmark = pytest.mark.timeout(600)

#: Every chart label or title in the main column that runs past its drawing or ends in "…".
CUT_CHART_TEXT_JS = {f"{role} {part}": cut_labels_js(role, part)
                     for role in ("axis", "legend") for part in ("label", "title")}
#: The metrics' labels in the main column, in order.
METRIC_LABELS_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stMetricLabel"]')).map(m => m.innerText.trim())"""

#: The column headers of each table in the main column, table by table, as the grid's
#: accessible copy of the table holds them (filled in once the table is in view).
HEADERS_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stDataFrame"]'))
  .map(d => Array.from(d.querySelectorAll('th')).map(th => th.textContent))"""

#: Every page of the sidebar, in its order, with the metrics it shows (their labels, in order).
PAGES = {
    "": ["models (L)", "questions (M)", "trials (N)", "categories", "prior trials (D)"],
    # fitted by the widgets' one default budget (app_pages._widgets.TABLE_PX), not by hand
    "leaderboard": [],
    "pair": [],
    "questions": ["Questions", "No information", "Mean disagreement", "2PL fit"],
    "planner": [],  # its gap curve's questions panel cut "10,000" by 9 px at the right end
    "check": [],
    "rubric": [],
    "methods": ["mean τ_b", "median τ_b", "min τ_b", "#(τ_b = 1)", "#(τ_b ≥ 0.95)"],
    "convergence": [],
    "stability": [],
    "greedy": ["Mean accuracy", "Greedy accuracy", "τ_G-S", "Δτ at N = 1", "s.d. reduction"],
    "report": [],
    "simulator": [],
}
#: Pages that draw no table before a button is pressed (the Stability page's analysis waits
#: for its Run button, the Report for its Build; the Simulator's study shows a chart).
NO_TABLES = {"stability", "report", "simulator"}
#: Pages that draw no chart before a button is pressed.
NO_CHARTS = {"stability", "report"}


@pytest.fixture(scope="module")
def narrow(browser, server):
    """A browser session 1024 px wide, opened on the Data page (the default dataset: the
    real one, data/jhu_llm_temperature.parquet); the tests go on from page to page through
    the sidebar, as a user does."""
    context = browser.new_context(viewport={"width": 1024, "height": 1000})
    page = context.new_page()
    page.goto(server)
    settle(page)
    yield page
    context.close()


def _nav(page) -> list[tuple[str, str]]:
    """``(href, title)`` of every link of the sidebar's navigation (a link's text ends with
    its title; a Material icon's name may come first)."""
    return [(a.get_attribute("href"), a.inner_text().strip().splitlines()[-1].strip())
            for a in page.query_selector_all('[data-testid="stSidebarNav"] a')]


def test_the_sidebar_lists_every_page_of_the_sweep(narrow, server):
    """The sweep below is every page of the sidebar, in its order: a page added to the app
    is added to it (with the metrics it shows), and no helper module is listed as a page."""
    nav = _nav(narrow)
    assert [href for href, _ in nav] == [f"{server}/{path}" for path in PAGES], nav
    titles = {title.lower() for _, title in nav}
    assert len(titles) == len(PAGES) and not {"common", "_common", "app"} & titles, nav


@pytest.mark.parametrize("path", list(PAGES))
def test_a_page_reads_whole_in_a_1024px_window(narrow, server, path):
    """On the bundled default data at 1024 px, reached through the sidebar: the page renders
    (no exception box, a title); its metrics (in a row that wraps, each as wide as its label
    and value), its buttons and its export buttons' labels read whole (in equal columns the
    Questions page cut "CSV: uninformative" by 10 px at 1280 px); its tables fit the main
    column (in parts fitted to a 1024 px window's column where wider), its charts stay
    within the column and every axis and legend label and title of theirs reads whole. The
    Rubric builder's τ table, at 1280 px too: :func:`_rubric_tau_table_is_one_table`."""
    page = narrow
    href = f"{server}/{path}"
    if page.url.split("?")[0] != href:
        act(page, page.locator(f'[data-testid="stSidebarNav"] a[href="{href}"]').first.click)
    assert page.url.split("?")[0] == href, page.url  # that page's tables, not the last one's
    charts_drawn(page)
    tables_drawn(page, 0 if path in NO_TABLES else 1)
    boxes = page.query_selector_all('[data-testid="stException"]')
    assert not boxes, f"{path}: {boxes[0].inner_text()[:500]}"
    assert page.locator("h1").count() >= 1, f"{path}: no title"
    if path == "":  # the real data's source and licence
        main = page.inner_text('[data-testid="stMain"]')
        assert "Renze & Guven (2024)" in main and "BSD-2-Clause" in main
    assert page.evaluate(METRIC_LABELS_JS) == PAGES[path]
    assert page.evaluate(CUT_METRICS_JS) == []
    # every button's and option's text whole (the Leaderboard's prior "greedy (R0)" was cut)
    assert page.evaluate(CUT_BUTTONS_JS) == []
    assert page.evaluate(CUT_LABELS_JS) == []  # every export label, to the last pixel
    clipped = page.evaluate(CUT_SELECTS_JS)  # every select box's value (no mark when cut)
    assert clipped == [], [value for value, _ in clipped]
    assert page.evaluate(WIDE_TABLES_JS) == []
    if path not in NO_CHARTS:
        assert page.evaluate("() => document.querySelectorAll("
                             "'[data-testid=\"stMain\"] [data-testid=\"stVegaLiteChart\"]')"
                             ".length")
    assert page.evaluate(WIDE_CHARTS_JS) == []
    # a title turned upright (a y axis's) has a box a line high, up to 2 px past its drawing
    # with every letter inside it: past by more, or ended with "…", it is cut
    cut = {what: [(text, px) for text, px in page.evaluate(js)
                  if px > (2 if "title" in what else 1) or text.endswith("…")]
           for what, js in CUT_CHART_TEXT_JS.items()}
    assert cut == {what: [] for what in CUT_CHART_TEXT_JS}, cut
    if path == "rubric":  # the same run in a window widened to 1280 px (no rerun)
        page.set_viewport_size({"width": 1280, "height": 1000})
        try:
            assert page.evaluate("() => window.innerWidth") == 1280
            _rubric_tau_table_is_one_table(page)
        finally:
            page.set_viewport_size({"width": 1024, "height": 1000})


def _rubric_tau_table_is_one_table(page) -> None:
    """The Rubric builder's one-row τ table came in three parts at 1280 px, one holding only
    ``n_slices``, one a ``note`` cut mid-sentence: one table, the note a line under it (the
    means; their s.d. under "More columns", as fits a 1024 px window), within the column."""
    tables_drawn(page)  # every table in view, not the first one drawn
    assert page.evaluate(WIDE_TABLES_JS) == []
    notes = page.locator('[data-testid="stMain"] [data-testid="stCaptionContainer"]',
                         has_text="so tau_greedy equals tau_gs")
    assert notes.count() == 1  # said under the τ table, whole
    notes.scroll_into_view_if_needed()  # the grid fills its cells in when in view
    page.wait_for_function(f"() => ({HEADERS_JS})().some(h => h.includes('tau_gs_mean'))",
                           timeout=60_000)
    tau = [h for h in page.evaluate(HEADERS_JS) if "tau_gs_mean" in h]
    assert len(tau) == 1, tau  # one table, not parts
    # the means, fitted to a 1024 px window's column; their s.d. under "More columns"
    assert "tau_greedy_mean" in tau[0], tau
    assert not {"note", "n_slices", "tau_greedy_sd"} & set(tau[0]), tau
