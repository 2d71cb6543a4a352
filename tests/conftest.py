"""Shared fixtures: paths to the bundled data and the optional reference package."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def ref_eval():
    """The reference package's eval module (a test-only oracle, installed by the `test` extra)."""
    return pytest.importorskip("scorio.eval")
