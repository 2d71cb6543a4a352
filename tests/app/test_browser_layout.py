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
"""

from __future__ import annotations

import pytest
from _browser import (
    CUT_BUTTONS_JS,
    CUT_METRICS_JS,
    WIDE_CHARTS_JS,
    WIDE_TABLES_JS,
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

#: Each page of the sweep with the metrics it shows (their labels, in order).
PAGES = {
    "": ["models (L)", "questions (M)", "trials (N)", "categories", "prior trials (D)"],
    "greedy": ["Mean accuracy", "Greedy accuracy", "τ_G-S", "Δτ at N = 1", "s.d. reduction"],
    "check": [],
    "methods": ["mean τ_b", "median τ_b", "min τ_b", "#(τ_b = 1)", "#(τ_b ≥ 0.95)"],
    "convergence": [],
    "rubric": [],
    "planner": [],  # its gap curve's questions panel cut "10,000" by 9 px at the right end
    # fitted by the widgets' one default budget (app_pages._widgets.TABLE_PX), not by hand
    "leaderboard": [],
    "questions": ["Questions", "No information", "Mean disagreement", "2PL fit"],
    "pair": [],
}


@pytest.fixture(scope="module")
def narrow(browser):
    """A browser page 1024 px wide, for one page load after another."""
    context = browser.new_context(viewport={"width": 1024, "height": 1000})
    page = context.new_page()
    yield page
    context.close()


@pytest.mark.parametrize("path", list(PAGES))
def test_a_page_reads_whole_in_a_1024px_window(narrow, server, path):
    """On the bundled default data at 1024 px: the page's metrics (in a row that wraps,
    each as wide as its label and value) and its buttons read whole, its tables fit the
    main column (in parts fitted to a 1024 px window's column where wider), its charts stay
    within the column and every axis and legend label and title of theirs reads whole."""
    page = narrow
    page.goto(f"{server}/{path}")
    settle(page)
    charts_drawn(page)
    tables_drawn(page)
    assert not page.query_selector_all('[data-testid="stException"]'), path
    assert page.evaluate(METRIC_LABELS_JS) == PAGES[path]
    assert page.evaluate(CUT_METRICS_JS) == []
    # every button's and option's text whole (the Leaderboard's prior "greedy (R0)" was cut)
    assert page.evaluate(CUT_BUTTONS_JS) == []
    assert page.evaluate(WIDE_TABLES_JS) == []
    assert page.evaluate("() => document.querySelectorAll("
                         "'[data-testid=\"stMain\"] [data-testid=\"stVegaLiteChart\"]').length")
    assert page.evaluate(WIDE_CHARTS_JS) == []
    # a title turned upright (a y axis's) has a box a line high, up to 2 px past its drawing
    # with every letter inside it: past by more, or ended with "…", it is cut
    cut = {what: [(text, px) for text, px in page.evaluate(js)
                  if px > (2 if "title" in what else 1) or text.endswith("…")]
           for what, js in CUT_CHART_TEXT_JS.items()}
    assert cut == {what: [] for what in CUT_CHART_TEXT_JS}, cut
