"""The examples in the docstrings of scorio_core and app_state run and print what they claim."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import app_state
import scorio_core

MODULES = sorted(
    m.name
    for pkg in (scorio_core, app_state)
    for m in pkgutil.walk_packages(pkg.__path__, prefix=pkg.__name__ + ".")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, monkeypatch, data_dir):
    monkeypatch.chdir(data_dir.parent)  # examples load data/... relative to the repo root
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
