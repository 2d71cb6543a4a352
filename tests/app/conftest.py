"""Fixtures shared by the AppTest modules."""

from __future__ import annotations

import pytest
from _browser import launch_chromium_or_skip, sync_playwright_or_skip


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium through Playwright (skipped without one, except in CI)."""
    with sync_playwright_or_skip()() as p:
        b = launch_chromium_or_skip(p)
        yield b
        b.close()
