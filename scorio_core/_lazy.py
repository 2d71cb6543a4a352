"""Modules imported where they are first used, so ``import scorio_core.<x>`` stays fast.

``pl = lazy_module("polars")`` binds a stand-in whose first attribute access imports
polars; afterwards it is a dictionary lookup. Nothing is placed in ``sys.modules``
before the real import, so libraries that check whether polars is loaded see the truth.

>>> from scorio_core._lazy import lazy_module
>>> np_ = lazy_module("numpy")
>>> int(np_.add(1, 2))
3
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["lazy_module"]


class _LazyModule:
    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        module: ModuleType = importlib.import_module(self._name)  # cached after the first call
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def lazy_module(name: str) -> Any:
    """A stand-in for module ``name`` that imports it on first attribute access."""
    return _LazyModule(name)
