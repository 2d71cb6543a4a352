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


def pytest_configure(config) -> None:
    _quicker_apptest()


@pytest.fixture(autouse=True)
def _main_module_restored():
    """``sys.modules["__main__"]`` as it was before the test. An ``AppTest`` leaves
    Streamlit's stand-in for its script there, and a later test in the same process that
    starts Dask workers (spawned, so each runs the main module again) had them run that
    script: ``AppTest.from_function``'s ended in ``NameError: name '__args'`` and the
    workers never started ("Nanny failed to start"), depending on which tests a CI worker
    ran before."""
    import sys

    main = sys.modules.get("__main__")
    yield
    if main is not None and sys.modules.get("__main__") is not main:
        sys.modules["__main__"] = main


#: How often a test waits to see whether an AppTest run has finished (s).
_APPTEST_POLL_S = 0.005


def _quicker_apptest() -> None:
    """Take out two costs of Streamlit's ``AppTest`` that are the harness's, not the app's
    (the app's own runs are unchanged), once per test process:

    - every new ``AppTest`` scanned every installed distribution for component manifests
      (0.3 s alone, over 1 s under load, at each of the suite's hundreds of ``AppTest`` objects;
      a server scans once, at its start). The result depends only on what is installed, so
      the first scan's is kept.
    - ``AppTest.run`` looked every millisecond for the script's end in a list that grows
      with every message the script sends: the waiting thread took about a tenth of the
      CPU from the thread running the page. It looks every :data:`_APPTEST_POLL_S` seconds,
      with the same time limit and the same error.

    Either is left as it is where Streamlit no longer has the function replaced."""
    import functools
    import time

    try:
        from streamlit.components.v2 import manifest_scanner
        from streamlit.testing.v1 import local_script_runner
    except ImportError:  # an older or newer Streamlit: nothing to speed up
        return
    if callable(scan := getattr(manifest_scanner, "scan_component_manifests", None)):
        kept = functools.cache(scan)
        manifest_scanner.scan_component_manifests = lambda *a, **k: list(kept(*a, **k))
    if not callable(getattr(local_script_runner, "require_widgets_deltas", None)):
        return

    def require_widgets_deltas(runner, timeout: float = 3) -> None:
        end = time.monotonic() + timeout
        while not runner.script_stopped():
            if time.monotonic() > end:
                runner.request_stop()
                runner.join()
                raise RuntimeError(f"AppTest script run timed out after {timeout}(s)")
            time.sleep(_APPTEST_POLL_S)

    local_script_runner.require_widgets_deltas = require_widgets_deltas


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
