"""AppTest for the Rubric builder page: preset -> weights -> leaderboard."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _apptest import code_cell, start
from streamlit.testing.v1 import AppTest

from app_pages._loading import COINS, REASONING, TEMPERATURE  # noqa: F401
from scorio_core import rubric as rb
from scorio_core.formatting import WEIGHT_PRINTF

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "app_pages/rubric.py"


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _board(at: AppTest):
    return next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)


def test_preset_then_weight_change_moves_the_leaderboard():
    at = start(APP, REASONING, 180)
    at.selectbox(key="benchmark").set_value("AIME'24").run()
    at.switch_page(PAGE).run()
    _ok(at)
    at.selectbox(key="rubric_preset").set_value("ranking/format-aware").run()
    _ok(at)
    before = _board(at).set_index("model")["score"]
    # the page shows the preset's weights; category 1 (wrong, unboxed) is worth 0.10
    w = [n for n in at.number_input if n.label.startswith("1:")][0]
    assert w.value == rb.PRESETS["ranking/format-aware"].weights[1]
    # drawn as every text writes a weight (0.1, not %.3f's 0.100)
    assert w.proto.format == WEIGHT_PRINTF
    w.set_value(0.8).run()
    _ok(at)
    after = _board(at).set_index("model")["score"]
    assert (after.loc[before.index] > before + 1e-6).any()  # rewarding unboxed wrong raises mus
    assert not after.equals(before)
    # comparison section: bump chart over the chosen rubrics plus the edited one
    at.multiselect(key="rubric_compare").set_value(["current (edited)", "ranking/conservative"])
    at.run()
    _ok(at)
    tau = next(d.value for d in at.dataframe if "tau_gs_mean" in d.value.columns)
    assert tau["scheme"].tolist() == ["Format-aware (edited)", "Conservative"]
    labels = [b.proto.label for b in at.main.get("download_button")]
    assert labels == ["SVG", "PNG", "SVG", "PNG", "Save rubric (JSON)", "SVG", "PNG", "CSV: tau",
                      "CSV: ranks",
                      "JSON (all tables)"], labels
    assert all(b.proto.ignore_rerun for b in at.main.get("download_button"))  # no rerun
    # the Copy code cell (the edited rubric as JSON) reproduces the page's τ table
    cell = code_cell(at, "categorical_ranking(")
    ns: dict = {}
    exec(compile(cell, "<copy code>", "exec"), ns)
    got = ns["tau"]
    assert got["scheme"].tolist() == tau["scheme"].tolist()
    for col in (c for c in tau.columns if c.startswith("tau_")):
        np.testing.assert_allclose(got[col], tau[col], rtol=1e-12, atol=1e-15)


def test_dataset_without_signals_explains_itself():
    at = start(APP, COINS, 180, page=PAGE)
    _ok(at)
    assert any("no per-completion signals" in i.value for i in at.info)


def test_rules_editor_shows_empty_cells_blank():
    """Issue 24: the rules grid printed "None" in every empty threshold/scope/other cell
    (Streamlit's default text for a missing value)."""
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.switch_page(PAGE).run()
    _ok(at)
    grids = {d.proto.id.rsplit("-", 1)[-1]: d for d in at.dataframe if "-" in d.proto.id}
    rules = next(d for k, d in grids.items() if k.startswith("rules_"))
    assert rules.value[["value", "percentile"]].isna().any().any()  # there are empty cells
    for k, d in grids.items():
        if k.startswith(("rules_", "cats_")):
            assert d.proto.HasField("placeholder") and d.proto.placeholder == "", k


def test_the_live_leaderboards_caption_says_once_what_its_legend_does_not():
    """The line under the rubric's leaderboard repeated its "Columns:" legend (rank = 1 + the
    models that decidedly beat this one; rank_lo-rank_hi; bayes_*). It now says only what the
    legend cannot: what ``score`` is under a rubric, with the board's scope and confidence;
    each column is explained once, in the legend of the definition's declaration."""
    at = start(APP, TEMPERATURE, 180, page=PAGE)
    _ok(at)
    said = [c.value for c in at.caption]
    legends = [c for c in said if c.startswith("**Columns:**")]
    for phrase in ("decidedly beat this one", "Bayes@N posterior"):  # rank's; bayes_mu's
        assert sum(phrase in c for c in said) == 1, (phrase, [c for c in said if phrase in c])
        assert any(phrase in c for c in legends), phrase
    others = [c for c in said if c not in legends and not c.startswith("Part ")]  # ... columns
    assert not [c for c in others if "rank_lo" in c or "bayes_" in c], others
    line = next(c for c in said if c.startswith("Each completion scores its category's weight"))
    assert "95% intervals, questions scope — mean score over the questions asked" in line, line


def test_the_second_rule_part_keeps_its_thresholds_by_row_when_the_first_changes_rows():
    """The rules editor's second part is drawn anew (its rows are fixed) when the first adds
    or deletes a row, from :func:`~app_state.rubric_editor.more_rows`: each row that stays
    keeps the thresholds edited for it in the second part, by the row's index (a deleted
    row's gone, an added row's blank), its rule and signal as the first part has them now;
    :func:`~app_state.rubric_editor.joined_rules` makes one table of the two parts again,
    which gives back the rubric when nothing was edited."""
    import pandas as pd

    from app_state.rubric_editor import (
        EDITOR_FIELDS,
        RULE_MORE,
        RULE_PARTS,
        editor_state,
        joined_rules,
        more_rows,
    )
    from scorio_core.rubric.table import from_tables

    state = editor_state(rb.PRESETS["ranking/conservative"])
    rules = state["rules"]
    assert set(RULE_MORE) == set(RULE_PARTS[1]) - set(RULE_PARTS[0])
    # nothing edited: the two parts join back into the rules, and into their rubric
    assert joined_rules(rules, more_rows(rules)).equals(rules)
    meta = {k: state[k] for k in EDITOR_FIELDS}
    back = from_tables(joined_rules(rules, more_rows(rules)), state["cats"], **meta)
    assert back.to_json() == from_tables(rules, state["cats"], **meta).to_json()
    # the second part's edits: row 1's percentile 80 (75 before), row 4's scope
    edited = more_rows(rules)[list(RULE_MORE)]
    edited.loc[1, "percentile"], edited.loc[4, "scope"] = 80.0, "model"
    # then the first part deletes row 0 and adds a row (the editor numbers it 6), and
    # edits row 1's signal
    added = pd.DataFrame([{"rule": 4, "category": 1, "signal": "is_correct", "op": ">=",
                           "value": 0.5}], index=[6])
    first = pd.concat([rules.drop(index=0), added])
    first.loc[1, "signal"] = "is_correct"
    rows = more_rows(first, edited)
    assert rows.index.tolist() == [1, 2, 3, 4, 5, 6]
    assert (rows.loc[1, "signal"], rows.loc[1, "percentile"]) == ("is_correct", 80.0)
    assert rows.loc[4, "scope"] == "model"
    assert rows.loc[[2, 3, 5], list(RULE_MORE)].equals(edited.loc[[2, 3, 5]])
    assert pd.isna(rows.loc[6, "percentile"]) and not rows.loc[6, ["scope", "among"]].any()
    whole = joined_rules(first, rows)
    assert whole.index.tolist() == list(range(6)) and list(whole.columns) == list(rules.columns)
    assert whole["percentile"].iloc[0] == 80.0 and whole["rule"].iloc[-1] == 4


#: Each row of the table in the element of key ``key`` (its class ``st-key-<key>``), its
#: cells joined by "|" (the grid's own table for screen readers: what its canvas draws).
ROWS_JS = """(key) => Array.from(document.querySelectorAll(
    `.st-key-${key} [data-testid="stDataFrame"] tr`)).map(tr => Array.from(
    tr.querySelectorAll('th, td')).map(td => td.textContent).join('|'))"""
#: ``[row, column]`` of the cell selected in the table of key ``key`` (its header is row 0),
#: ``[row, -1]`` for a row selected by its marker, or null.
SELECTED_JS = """(key) => {
  const rows = Array.from(document.querySelectorAll(
      `.st-key-${key} [data-testid="stDataFrame"] tr`));
  for (const [r, tr] of rows.entries()) {
    const c = Array.from(tr.querySelectorAll('td'))
      .findIndex(td => td.getAttribute('aria-selected') === 'true');
    if (c >= 0) return [r, c];
    if (tr.getAttribute('aria-selected') === 'true') return [r, -1];
  }
  return null;
}"""


def _rows(page, key: str, n: int) -> list[str]:
    """The rows of the editor of key ``key``, once it has drawn its header and ``n`` rows."""
    page.wait_for_function(f"() => ({ROWS_JS})({key!r}).length === {n + 1}", timeout=60_000)
    return page.evaluate(ROWS_JS, key)


def _selected(page, key: str, want: list[int], timeout: int = 30_000) -> None:
    """Wait until the cell (or row) ``want`` of the editor of key ``key`` is selected: the
    grid takes a key only once it has drawn the last one's selection."""
    page.wait_for_function(f"() => JSON.stringify(({SELECTED_JS})({key!r})) === "
                           f"{str(want).replace(' ', '')!r}", timeout=timeout)


def _click(page, key: str, x: float, y: float) -> None:
    """Click the grid of key ``key`` at ``(x, y)`` from its top left corner, scrolled to the
    window's middle, the pointer moved there first as a hand moves it (the grid marks the
    cell under the pointer on a move: a click with no move before it, made while another
    grid had the focus, selected nothing)."""
    grid = page.locator(f'.st-key-{key} [data-testid="stDataFrame"]')
    grid.evaluate("e => e.scrollIntoView({block: 'center'})")
    at = grid.bounding_box()
    page.mouse.move(at["x"] + x, at["y"] + y)
    page.mouse.click(at["x"] + x, at["y"] + y)


def _pick(page, key: str, x: float, y: float, want: list[int], tries: int = 3) -> None:
    """:func:`_click` the grid of key ``key`` at ``(x, y)`` until the cell (or row) ``want``
    is selected, as a user clicks again: on a loaded 2-core machine a click made while the
    page was still settling after the last edit selected nothing (a fresh-clone CI run;
    the same click passed alone every time)."""
    from playwright.sync_api import TimeoutError as Late

    for _ in range(tries - 1):
        _click(page, key, x, y)
        try:
            _selected(page, key, want, timeout=15_000)
            return
        except Late:
            continue
    _click(page, key, x, y)
    _selected(page, key, want)


#: Marks the grid of the editor of key ``key`` (a property on its DOM node): a grid that
#: Streamlit draws anew -- a new element, its selection and scroll lost -- comes without it.
MARK_JS = """(key) => { document.querySelector(
    `.st-key-${key} [data-testid="stDataFrame"]`).scorioMark = true; }"""
#: Whether the grid of the editor of key ``key`` is the one :data:`MARK_JS` marked.
MARKED_JS = """(key) => !!document.querySelector(
    `.st-key-${key} [data-testid="stDataFrame"]`)?.scorioMark"""


def _edit(page, value: str) -> None:
    """Type ``value`` into the selected cell (Enter opens its editor) and commit it: the
    page reruns."""
    from _browser import act

    page.keyboard.press("Enter")
    page.locator("#portal input.gdg-input").fill(value)
    act(page, lambda: page.keyboard.press("Enter"))


@pytest.mark.timeout(600)
def test_the_rubric_builder_fits_a_1024px_window_and_its_rule_parts_edit_one_table(
        browser, server):
    """At 1024 px the rules editor ran 254 px past the main column, the categories editor
    82 px and the τ table 211 px (sized for a 1280 px window's column); with eight
    categories the weight boxes, in eight equal columns of 56 px, broke their labels over
    four or five lines ("high_con" / "f") and hid their − and + buttons. Every grid now
    fits the column: the rules in two editors one under the other, the second repeating
    each row's rule and signal (read only); the τ means in the table and their s.d. under
    "More columns"; the weight boxes in a row that wraps, each label whole.

    An edit in either rules editor keeps the user's place: the edited grid is the same
    element, its cell still selected, and the other grid is untouched (both were drawn
    afresh under new keys after every edit, the selected cell lost); a rule's signal edited
    in the first shows in the second's read-only copy. A percentile edited in the second
    stays with its row when a row is deleted in the first (the second then drawn anew)."""
    from _browser import (
        CUT_WIDGET_LABELS_JS,
        WIDE_TABLES_JS,
        act,
        settle,
        tables_drawn,
    )

    page = browser.new_page(viewport={"width": 1024, "height": 1000})
    page.goto(f"{server}/rubric")
    settle(page)
    tables_drawn(page)
    assert page.evaluate(WIDE_TABLES_JS) == []
    # the editors' keys: rules_<rubric loaded>, rules_more_<rubric loaded>_<its rows drawn>
    rules, more = _rows(page, "rules_1", 6), _rows(page, "rules_more_1_0", 6)
    assert rules[0] == "rule|cat.|signal|op|value|not", rules
    assert more[0] == "rule|signal|pctl|scope|among|other", more
    assert more[2] == "1|response_chars|75|dataset|is_correct >= 0.5|", more
    for key in ("rules_1", "rules_more_1_0"):
        page.evaluate(MARK_JS, key)
    # a percentile edited in the second part: its row's cell (the first column is read only)
    _pick(page, "rules_more_1_0", 12, 35 + 17, [1, 0])  # rule 1, its first row
    for key, cell in (("ArrowDown", [2, 0]), ("ArrowRight", [2, 1]), ("ArrowRight", [2, 2])):
        page.keyboard.press(key)
        _selected(page, "rules_more_1_0", cell)  # pctl of the second row
    _edit(page, "80")  # its editor held 75
    assert _rows(page, "rules_more_1_0", 6)[2].startswith("1|response_chars|80|")
    # the user's place kept in the same grid: the cell under the edited one, as a
    # spreadsheet moves on Enter (drawn afresh, neither grid had a cell selected)
    _selected(page, "rules_more_1_0", [3, 2])
    assert page.evaluate(MARKED_JS, "rules_more_1_0") and page.evaluate(MARKED_JS, "rules_1")
    page.keyboard.press("ArrowRight")  # and the keys go on from there: to its scope
    _selected(page, "rules_more_1_0", [3, 3])
    # a value edited in the first part: its place kept, the second part untouched
    _pick(page, "rules_1", 50, 35 * 3 + 17, [3, 0])  # row 3, beside its marker
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    _selected(page, "rules_1", [3, 4])  # its value
    before = _rows(page, "rules_1", 6)[3]
    _edit(page, "0.25")
    rules = _rows(page, "rules_1", 6)
    assert rules[3] != before and rules[3].split("|")[4] == "0.25", (before, rules)
    _selected(page, "rules_1", [4, 4])
    assert page.evaluate(MARKED_JS, "rules_1") and page.evaluate(MARKED_JS, "rules_more_1_0")
    assert _rows(page, "rules_more_1_0", 6)[2].startswith("1|response_chars|80|")
    # the last row deleted in the first part: the edit above stays with its row
    _pick(page, "rules_1", 16, 35 + 35 * 5 + 17, [6, -1])  # row 6's marker
    act(page, lambda: page.keyboard.press("Delete"))
    rules, more = _rows(page, "rules_1", 5), _rows(page, "rules_more_1_1", 5)
    assert more[2] == "1|response_chars|80|dataset|is_correct >= 0.5|", more
    assert rules[-1] == "3|1|is_correct|<|0.5|false", rules
    assert page.evaluate(MARKED_JS, "rules_1")  # the first part: the same grid
    tables_drawn(page)
    assert page.evaluate(WIDE_TABLES_JS) == []
    box = page.locator('[data-testid="stMain"] summary', has_text="s.d. over the slices")
    assert box.count() == 1 and "tau_gs_sd" in box.inner_text()  # the τ table's
    shown = tables_drawn(page)
    box.click()
    tables_drawn(page, shown + 1)
    assert page.evaluate(WIDE_TABLES_JS) == []
    page.close()
    # eight categories: every weight's label whole, every grid within the column
    page = browser.new_page(viewport={"width": 1024, "height": 1000})
    page.goto(f"{server}/rubric?dataset=reasoning_synthetic")
    settle(page)
    page.get_by_role("combobox", name="Start from").click()
    act(page, page.get_by_role("option").filter(has_text="Balanced comp.").first.click)
    tables_drawn(page)
    # each weight's label on one line (as high as the first's) and its − and + buttons shown
    boxes = page.evaluate("""() => Array.from(document.querySelectorAll(
        '[data-testid="stMain"] [data-testid="stNumberInput"]')).map(n => [
        n.querySelector('[data-testid="stWidgetLabel"]').innerText,
        Math.round(n.querySelector('[data-testid="stWidgetLabel"]').getBoundingClientRect()
                   .height),
        Array.from(n.querySelectorAll('button')).filter(b => b.getClientRects().length).length
    ])""")
    assert len(boxes) == 8 and boxes[7][0] == "7: correct ∧ boxed ∧ high_conf", boxes
    assert all(h == boxes[0][1] and buttons == 2 for _, h, buttons in boxes), boxes
    assert page.evaluate(CUT_WIDGET_LABELS_JS) == []
    assert page.evaluate(WIDE_TABLES_JS) == []
    page.close()
