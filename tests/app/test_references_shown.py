"""Every page cites the papers by title and section, never by the code's keys (issue 24:
"000 App. D", "002 Table 21" were unexplained to a reader who has not got the papers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from scorio_core.references import BARE_KEY

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGES = ["data", "leaderboard", "planner", "rubric", "methods", "convergence", "stability",
         "greedy", "report", "simulator"]


def _texts(at: AppTest) -> list[str]:
    out = []
    for kind in ("markdown", "caption", "info", "warning", "success", "error", "subheader",
                 "title", "header"):
        out += [str(e.value) for e in at.get(kind)]
    out += [e.label for e in at.expander] + [t.label for t in at.tabs]
    for w in [*at.selectbox, *at.multiselect]:
        out += [w.label, str(w.help or "")] + [str(o) for o in w.options]
    return out


@pytest.mark.parametrize("page", PAGES)
def test_page_cites_papers_by_title(page):
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    bare = [t[max(0, m.start() - 40):m.end() + 20] for t in _texts(at)
            for m in BARE_KEY.finditer(t)]
    assert not bare, bare
