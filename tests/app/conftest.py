"""Fixtures shared by the AppTest modules and the real-browser tests."""

from __future__ import annotations

import pytest
from _browser import launch_chromium_or_skip, streamlit_server, sync_playwright_or_skip


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium through Playwright (skipped without one, except in CI)."""
    with sync_playwright_or_skip()() as p:
        b = launch_chromium_or_skip(p)
        yield b
        b.close()


@pytest.fixture(scope="session")
def server():
    """The app served as the README serves it, one server per test process (per xdist
    worker): the browser test files share it -- each browser session is a new Streamlit
    session, and starting a server costs a few seconds -- and its finished analyses stay in
    its cache for the next file. A session's first run draws its charts at once
    (``app_state.CHARTS_AT_ONCE``): no test waits a second for the rerun that draws
    them for a user (:func:`first_visit_server` keeps that rerun). A test that needs a fresh
    server starts its own (``streamlit_server()``)."""
    with streamlit_server() as url:
        yield url


@pytest.fixture(scope="session")
def first_visit_server():
    """The app served exactly as users get it: a session's first run leaves its charts for
    the rerun a moment later (``app_pages._render.draw_deferred``). Started only for the
    tests of that rerun, once per test process."""
    with streamlit_server(charts_at_once=False) as url:
        yield url
