"""Every app table is fitted to the main column of a 1024 px window unless a page says
otherwise: one declaration (``app_pages._widgets.TABLE_PX``, an expander's ``BOX_PX``), the
default of every table widget -- some 25 calls had passed ``budget=NARROW_PX`` by hand, and a
table that did not was fitted to a 1280 px window's column and ran past a 1024 px one's.
"""

from __future__ import annotations

from pathlib import Path

from _apptest import parts_px, start
from streamlit.testing.v1 import AppTest

from app_pages import _widgets
from app_pages._common import UPLOAD, UPLOAD_KEY
from app_state.table_fit import MAIN_PX, NARROW_PX, column_px

PAGES = Path(__file__).resolve().parents[2] / "app_pages"
APP = str(PAGES.parent / "app.py")
LOG = next((PAGES.parent / "tests" / "fixtures" / "harness" / "inspect" / "texts").glob("*.eval"))


def _wide():
    """A table wider than a 1024 px window's column and narrower than a 1280 px one's."""
    import pandas as pd

    return pd.DataFrame({"model": ["model-a", "model-b"]}
                        | {f"col_{i}": [0.1234, 0.5678] for i in range(12)})


def _script() -> None:
    import pandas as pd
    import streamlit as st

    from app_pages import _widgets

    t = pd.DataFrame({"model": ["model-a", "model-b"]}  # _wide(): the script runs alone
                     | {f"col_{i}": [0.1234, 0.5678] for i in range(12)})
    _widgets.show_core(st, t, hide_index=True)  # no budget given: the default
    _widgets.show_split(t, {}, list(t.columns))


def test_a_table_is_fitted_to_a_1024px_window_by_default():
    assert NARROW_PX < sum(column_px(_wide()).values()) < MAIN_PX
    at = AppTest.from_function(_script, default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    # each of the two tables in two parts, each repeating model: fitted to 1280 px, one each
    assert len(at.dataframe) == 4
    parts = [c.value.split(":")[0] for c in at.caption if c.value.startswith("Part ")]
    assert parts == ["Part 1 of 2", "Part 2 of 2"] * 2
    assert _widgets.TABLE_PX == NARROW_PX and _widgets.BOX_PX == NARROW_PX - _widgets.BOX_PAD_PX


def test_the_budget_is_declared_once():
    """No page passes the budget by hand or names the window widths: the widgets' default
    (and ``BOX_PX`` in an expander) is the one declaration."""
    for page in sorted(PAGES.glob("*.py")):
        if page.name == "_widgets.py":
            continue
        text = page.read_text(encoding="utf-8")
        assert "NARROW_PX" not in text and "MAIN_PX" not in text, page.name
        assert "BOX_PAD_PX" not in text.replace("import BOX_PAD_PX", ""), page.name


def test_the_data_pages_import_report_fits_a_1024px_window():
    """The import report's table of an Inspect log (model, benchmark, our mean beside the
    harness's, records, scorer, file, notes) was drawn as the grid sized it: 1182 px past a
    1024 px window's column. It is a core table like the others: in parts within the
    budget, each repeating whose row it is, every column shown."""
    at = start(APP, UPLOAD, 120)
    at.session_state[UPLOAD_KEY] = {"filename": LOG.name, "data": LOG.read_bytes()}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    parts = [d for d in at.dataframe if "harness value" in d.value.columns]
    assert len(parts) > 1 and max(parts_px(parts)) <= _widgets.TABLE_PX, parts_px(parts)
    shown = [list(d.proto.column_order) for d in parts]
    assert set().union(*shown) == set(parts[0].value.columns)
    assert all(cols[0] == "model" for cols in shown)
