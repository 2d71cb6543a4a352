"""AppTest helpers: open a lazy expander as a user does (its contents run only while it
is open, see ``app_pages._widgets.lazy_expander``) and read what it shows."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from app_pages._widgets import CODE_KEY


def open_box(at: AppTest, key: str) -> AppTest:
    """Open the stateful expander ``key`` (e.g. ``"workers_box"``) and rerun."""
    at.session_state[key] = True
    return at.run()


def code_cell(at: AppTest, needle: str) -> str:
    """Open the page's "Copy code" expander and return the cell that contains ``needle``."""
    assert not [c for c in at.code if needle in c.value], "a closed Copy code box sent its code"
    open_box(at, CODE_KEY)
    return next(c.value for c in at.code if needle in c.value)


def start(app: str, dataset: str, timeout: float = 60) -> AppTest:
    """The app at ``app`` run once on ``dataset`` (a sidebar label, e.g.
    ``app_pages._loading.REASONING``), chosen before the first run: a test names the data it
    needs instead of relying on the default dataset (and loads nothing else first). Run
    twice: a session's first run leaves its charts for the next, which the browser's timer
    starts a moment later (``app_pages._render.draw_deferred``)."""
    at = AppTest.from_file(app, default_timeout=timeout)
    at.session_state["dataset"] = dataset
    return at.run().run()
