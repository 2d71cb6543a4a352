"""The examples in the docstrings of scorio_core, app_state and the app's helper modules
(``app_pages._*``; the pages themselves run when imported) run and print what they claim.

scorio_core's examples run as pasted into a notebook after ``import scorio_core as sc``:
in a namespace holding only ``sc``, not the module's own names, so an example that calls
``leaderboard(R)`` without importing it fails here (use ``sc.leaderboard`` or an import
line in the example).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import app_pages
import app_state
import scorio_core

MODULES = sorted(
    [name
     for pkg in (scorio_core, app_state)
     for name in (
         pkg.__name__,  # the package's own docstring (walk_packages lists only what is below it)
         *(m.name for m in pkgutil.walk_packages(pkg.__path__, prefix=pkg.__name__ + ".")),
     )]
    + [f"app_pages.{m.name}" for m in pkgutil.iter_modules(app_pages.__path__)
       if m.name.startswith("_")]  # helpers only: a page draws itself when imported
)


def _as_pasted(name: str) -> bool:
    """Every scorio_core module's examples run in a notebook's namespace (only ``sc``);
    app_state's (the app's own state, not a notebook API) with their module's names."""
    return name.split(".")[0] == "scorio_core"


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, monkeypatch, data_dir):
    monkeypatch.chdir(data_dir.parent)  # examples load data/... relative to the repo root
    module = importlib.import_module(name)
    globs = {"sc": scorio_core} if _as_pasted(name) else None
    result = doctest.testmod(module, globs=globs,
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"


def test_every_package_docstring_is_collected():
    assert {"scorio_core", "app_state", "scorio_core.rank", "scorio_core.planner",
            "app_pages._render", "app_pages._widgets"} <= set(MODULES)
