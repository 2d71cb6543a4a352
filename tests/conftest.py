"""Shared fixtures: paths to the bundled data and the optional reference package."""

from __future__ import annotations

import platform
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"

#: Printed in the test header so that a failure report says what it ran on.
KEY_PACKAGES = (
    "numpy", "scipy", "pandas", "polars", "altair", "streamlit", "pytest-timeout", "scorio",
)  # fmt: skip


def pytest_report_header(config) -> list[str]:
    versions = []
    for name in KEY_PACKAGES:
        try:
            versions.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name} (not installed)")
    return [
        f"python {platform.python_version()} ({platform.machine()}, {platform.system()})",
        "packages: " + ", ".join(versions),
    ]


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def ref_eval():
    """The reference package's eval module (a test-only oracle, installed by the `test` extra)."""
    return pytest.importorskip("scorio.eval")


@pytest.fixture
def kernel_env(monkeypatch) -> Path:
    """Notebook kernels started by the test import THIS checkout's ``scorio_core`` (its root
    first on ``PYTHONPATH``), not whichever checkout the environment has installed: a
    kernel runs in another directory, where the cwd-first rule does not reach the repo."""
    import os

    old = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + (os.pathsep + old if old else ""))
    return ROOT
