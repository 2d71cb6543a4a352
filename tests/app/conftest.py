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
    its cache for the next file. A test that needs a fresh server starts its own
    (``streamlit_server()``)."""
    with streamlit_server() as url:
        yield url
