"""The examples in scorio_core's docstrings run and print what they claim."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import scorio_core

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(scorio_core.__path__, prefix="scorio_core.")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, monkeypatch, data_dir):
    monkeypatch.chdir(data_dir.parent)  # examples load data/... relative to the repo root
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
