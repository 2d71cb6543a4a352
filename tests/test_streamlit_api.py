"""The app uses supported Streamlit APIs within the versions pyproject allows (issue 24:
``st.components.v1.html`` is deprecated; ``streamlit>=1.40`` had no upper bound)."""

from __future__ import annotations

import ast
import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def _streamlit_requirement() -> Requirement:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return next(Requirement(d) for d in deps if Requirement(d).name == "streamlit")


def test_streamlit_has_an_upper_bound_and_the_installed_version_satisfies_it():
    spec = _streamlit_requirement().specifier
    uppers = [s for s in spec if s.operator in ("<", "<=")]
    assert uppers, f"streamlit needs an upper bound (the next major); got {spec}"
    assert Version(version("streamlit")) in spec, (version("streamlit"), str(spec))


def test_the_lower_bound_has_the_apis_the_pages_call():
    import streamlit as st

    lower = min(Version(s.version) for s in _streamlit_requirement().specifier
                if s.operator == ">=")
    assert lower >= Version("1.56")  # st.iframe came with 1.56
    assert callable(st.iframe)


def test_no_page_uses_the_deprecated_components_html():
    for path in [ROOT / "app.py", *(ROOT / "app_pages").glob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = [getattr(node, "module", None) or ""] + [a.name for a in node.names]
                assert not any("components.v1" in n for n in names), path.name
            if isinstance(node, ast.Attribute) and node.attr == "components":
                raise AssertionError(f"{path.name}: st.components is deprecated; use st.iframe")
