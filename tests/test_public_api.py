"""``import scorio_core as sc`` (issue 24): the user-facing calls by name, loaded lazily."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import scorio_core as sc

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", sc.__all__)
def test_every_exported_name_resolves(name):
    value = getattr(sc, name)
    assert value is not None
    assert name in dir(sc)
    if callable(value) and not isinstance(value, type):
        assert (value.__doc__ or "").strip(), f"sc.{name} has no docstring for help()"


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_the_issue_one_liner_works():
    r = _python("import scorio_core as sc; "
                "b = sc.leaderboard(sc.load('data/biased_coins.npz')); print(len(b.table))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "11"


def test_leaderboard_stays_callable_after_its_module_is_imported():
    # importing scorio_core.leaderboard rebinds the package attribute to the module
    r = _python("import scorio_core as sc, scorio_core.export, numpy as np; "
                "b = sc.leaderboard(np.ones((2, 5, 3), dtype=int)); "
                "print(type(b).__name__, sc.leaderboard.Leaderboard is type(b))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["Leaderboard", "True"]


def test_unknown_names_raise_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        sc.nope  # noqa: B018
