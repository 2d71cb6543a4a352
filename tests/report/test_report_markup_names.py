"""A Markdown report on data whose model names hold Markdown's characters shows each name
letter for letter: the could-be-first caveat set ``big*model*`` in italics, the Planner's
chart captions ran ``tick`s`` into a code span, the pair's line under its questions drew
``[beta](x)`` as a link (:func:`scorio_core.export.markup_names`,
:func:`scorio_core.formatting.md_prose`).

The report is rendered with markdown-it (CommonMark, tables, ``$`` math as Streamlit and
GitHub read it) and compared with the same report on the same outcomes with plain names of
the same lengths in the same order: the same elements, and the same text once the plain
names are read as the user's.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

import scorio_core as sc
from scorio_core.report import build_report
from scorio_core.report.markdown import to_markdown

markdown_it = pytest.importorskip("markdown_it")
dollarmath = pytest.importorskip("mdit_py_plugins.dollarmath")

#: Each model's name; the first two lead, close enough that the Planner and the pair view
#: (and the could-be-first line) name them, and the names sort as their plain stand-ins do.
NAMES = ("[beta](x)", "a_b_", "big*model*", "cost $5 $6", "tick`s", "zz")


def plain(names):
    """Names without markup, of the same lengths and in the same sorted order."""
    return [f"m{i}{'x' * (len(n) - 2)}" for i, n in enumerate(names)]


def report_md(names) -> str:
    rng = np.random.default_rng(7)
    p = np.array([0.9, 0.88, 0.6, 0.55, 0.3, 0.1])[:, None, None]
    R = (rng.random((len(names), 40, 4)) < p).astype(int)
    md = to_markdown(build_report(sc.Outcomes(R, models=list(names), name="demo"),
                                  ["leaderboard", "plan", "pair"]))
    # the analyses' sections: the header and the provenance say when the report was made
    return md[md.index("\n## 1. "):md.index("\n## References")]


def render(source: str) -> str:
    md = markdown_it.MarkdownIt("commonmark").enable("table").use(dollarmath.dollarmath_plugin)
    return md.render(source)


def test_a_reports_prose_shows_the_names_from_the_data_as_written():
    names, stand_ins = NAMES, plain(NAMES)
    mine, theirs = report_md(names), report_md(stand_ins)
    assert sum(stand_ins[0] in line for line in theirs.splitlines()
               if not line.startswith("|")) >= 5  # the sentences name the leaders
    shown, plain_shown = render(mine), render(theirs)
    tags = [re.findall(r"</?[a-z0-9]+", x) for x in (shown, plain_shown)]
    assert tags[0] == tags[1]  # no emphasis, link, code span or formula of their own
    as_read = html.unescape(re.sub(r"<[^>]+>", "", plain_shown))
    for stand_in, name in zip(stand_ins, names, strict=True):
        as_read = as_read.replace(stand_in, name)
    assert html.unescape(re.sub(r"<[^>]+>", "", shown)) == as_read
