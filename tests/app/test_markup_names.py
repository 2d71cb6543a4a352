"""Model names with Markdown's characters read as written on the pages: the Leaderboard's
could-be-first line set ``big*model*`` in italics (its two stars gone), the Planner's chart
titles and captions and the Pair view's line under its questions did the same, ``[beta](x)``
would be a link and ``cost $5 $6`` a formula (Streamlit reads ``$...$`` as math). Every
caption, Markdown, alert and heading that quotes a name from the data goes through
``app_pages._widgets.prose``; plain texts (the table cells, the select boxes) are as they
were.
"""

from __future__ import annotations

import html
import io as pyio
import re
from pathlib import Path

import numpy as np
import pytest
from _apptest import start

from app_pages._common import UPLOAD, UPLOAD_KEY
from scorio_core import Outcomes
from scorio_core.io import save_table

markdown_it = pytest.importorskip("markdown_it")
dollarmath = pytest.importorskip("mdit_py_plugins.dollarmath")

APP = str(Path(__file__).resolve().parents[2] / "app.py")
#: The two leaders (named by the could-be-first line, the Planner's first pair and the Pair
#: view's default pair), then the rest of the field.
NAMES = ["big*model*", "cost $5 $6", "[beta](x)", "a_b_", "tick`s", "zeta-9"]
#: Elements whose text Streamlit renders as Markdown.
MARKDOWN = ("markdown", "caption", "info", "warning", "success", "error", "subheader", "title")


def _upload() -> bytes:
    p = np.array([0.9, 0.88, 0.6, 0.55, 0.3, 0.1])[:, None, None]
    R = (np.random.default_rng(3).random((len(NAMES), 40, 6)) < p).astype(int)
    buf = pyio.BytesIO()
    save_table(Outcomes(R, models=NAMES), buf, format="csv")
    return buf.getvalue()


def _render(source: str) -> str:
    md = markdown_it.MarkdownIt("commonmark").enable("strikethrough")
    return md.use(dollarmath.dollarmath_plugin).render(source)


def test_model_names_in_the_pages_prose_read_as_written():
    at = start(APP, UPLOAD, 120)
    at.session_state[UPLOAD_KEY] = {"filename": "names.csv", "data": _upload()}
    at.run()
    seen = {}
    for page in ("leaderboard", "planner", "pair"):
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, [e.value for e in at.exception]
        seen[page] = [str(e.value) for kind in MARKDOWN for e in getattr(at, kind)]
    for page, sources in seen.items():
        for source in sources:
            page_html = _render(source)
            # as Markdown would have read them: "big*model*" is "big<em>model</em>"
            assert not [n for n in NAMES if n in source], (page, source)
            assert 'class="math' not in page_html and 'href="x"' not in page_html, source
            assert "<em>model</em>" not in page_html, source
        read = [html.unescape(re.sub(r"<[^>]+>", "", _render(s))) for s in sources]
        # the leaders are named, whole, in the page's sentences (a line, a title, a caption)
        assert [s for s in read if NAMES[0] in s and NAMES[1] in s], (page, read)
