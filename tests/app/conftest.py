"""Fixtures shared by the AppTest modules."""

from __future__ import annotations

import pytest
from _browser import launch_chromium_or_skip, sync_playwright_or_skip
from streamlit.runtime.pages_manager import PagesManager


@pytest.fixture(autouse=True)
def _router_always_runs(monkeypatch):
    """Make every AppTest run go through app.py, as on a real server.

    Because the repo has a ``pages/`` folder, Streamlit starts in its MPA-v1
    compatibility mode until ``st.navigation`` is first called, after which the
    (class-level) flag stays off for the life of the server. AppTest resets the
    flag before *every* run, so from the second run on it would execute the page
    file alone, skipping app.py and its sidebar. Switch the flag off after
    AppTest's reset, which is the server's steady state.
    """
    init = PagesManager.__init__

    def patched(self, *args, **kwargs):
        init(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", patched)


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium through Playwright (skipped without one, except in CI)."""
    with sync_playwright_or_skip()() as p:
        b = launch_chromium_or_skip(p)
        yield b
        b.close()
