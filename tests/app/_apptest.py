"""AppTest helpers: open a lazy expander as a user does (its contents run only while it
is open, see ``app_pages._widgets.lazy_expander``) and read what it shows."""

from __future__ import annotations

import os
from unittest import mock

from streamlit.testing.v1 import AppTest

from app_pages._widgets import CODE_KEY
from app_state import CHARTS_AT_ONCE


def open_box(at: AppTest, key: str) -> AppTest:
    """Open the stateful expander ``key`` (e.g. ``"workers_box"``) and rerun."""
    at.session_state[key] = True
    return at.run()


def code_cell(at: AppTest, needle: str) -> str:
    """Open the page's "Copy code" expander and return the cell that contains ``needle``."""
    assert not [c for c in at.code if needle in c.value], "a closed Copy code box sent its code"
    open_box(at, CODE_KEY)
    return next(c.value for c in at.code if needle in c.value)


def start(app: str, dataset: str, timeout: float = 60, page: str | None = None) -> AppTest:
    """The app at ``app`` run on ``dataset`` (a sidebar label, e.g.
    ``app_pages._loading.REASONING``), chosen before the first run: a test names the data it
    needs instead of relying on the default dataset (and loads nothing else first). Run
    twice: a session's first run leaves its charts for the next, which the browser's timer
    starts a moment later (``app_pages._render.draw_deferred``).

    ``page`` (``"app_pages/planner.py"``): the session opens on that page, as a link to it
    does, instead of on the Data page -- whose two runs a test that switches pages at once
    spent for nothing (a quarter of the AppTests' time went to the Data page) -- in one run
    that draws its charts itself (``app_state.CHARTS_AT_ONCE``, as the browser tests'
    server has it)."""
    at = AppTest.from_file(app, default_timeout=timeout)
    at.session_state["dataset"] = dataset
    if page is None:
        return at.run().run()
    at.switch_page(page)
    # read by the run (app_pages._render.charts_at_once); as it was again after it
    with mock.patch.dict(os.environ, {CHARTS_AT_ONCE: "1"}):
        return at.run()


def parts_px(frames) -> list[int]:
    """Each drawn part's width as the pages measure it (``app_state.table_fit.column_px``
    of the columns it shows, with the widths and labels the page set), one per table."""
    import json

    from app_state.table_fit import column_px

    out = []
    for d in frames:
        cfg = json.loads(d.proto.columns or "{}")
        cols = list(d.proto.column_order) or list(d.value.columns)
        widths = {c: v["width"] for c, v in cfg.items() if isinstance(v.get("width"), int)}
        labels = {c: v["label"] for c, v in cfg.items() if v.get("label")}
        out.append(sum(column_px(d.value[cols], labels, widths).values()))
    return out
