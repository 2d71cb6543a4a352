"""The HTML report and the notebook show the names from the data letter for letter, as the
Markdown report does (test_report_markup_names.py): the HTML report's prose turned a model
named ``tick`s`` and the next of our backticks into a ``<code>`` span across the sentence,
and the notebook's Markdown cells set ``big*model*`` in italics and ``cost $5 $6`` as a
formula in Jupyter.

Each is compared with the same report on the same outcomes with plain names of the same
lengths in the same order (models, the dataset's name, its benchmarks): the same elements,
and the same text once the plain names are read as the user's.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import numpy as np
import pytest

import scorio_core as sc
from scorio_core.report import build_report, to_html, to_notebook
from scorio_core.report.html import prose
from scorio_core.report.notebook import _code

#: Each model's name, sorted as their plain stand-ins are; ``tick`s`` and ``big*model*``
#: lead, close enough that the could-be-first line, the Planner and the pair view name them.
MODELS = ("[beta](x)", "a_b_", "big*model*", "cost $5 $6", "tick`s", "zz_top")
CHANCE = (0.55, 0.3, 0.88, 0.6, 0.9, 0.1)
DATASET = "my_*data*"
BENCHMARKS = ("q`a", "b_*")  # half the questions each: the report pools them


def plain(names):
    """Names without markup, of the same lengths (the index across all names: none is a
    part of another)."""
    return [f"m{i}{'x' * (len(n) - 2)}" for i, n in enumerate(names)]


ALL = (*MODELS, DATASET, *BENCHMARKS)
STAND_INS = plain(ALL)


def make_report(names):
    models, dataset, benchmarks = list(names[:6]), names[6], list(names[7:])
    rng = np.random.default_rng(7)
    R = (rng.random((6, 40, 4)) < np.array(CHANCE)[:, None, None]).astype(int)
    data = sc.Outcomes(R, models=models, name=dataset,
                       benchmarks=[benchmarks[q % 2] for q in range(40)])
    pair = ("pair", {"a": models[4], "b": models[2]})  # its code cell names them
    return build_report(data, ["leaderboard", "plan", pair], title=f"Report on {dataset}")


@pytest.fixture(scope="module")
def reports():
    """The report on the names, and on their plain stand-ins."""
    return make_report(ALL), make_report(STAND_INS)


def as_named(text: str) -> str:
    """A text on the stand-ins, read with the user's names (the longest stand-in first)."""
    for stand_in, name in sorted(zip(STAND_INS, ALL, strict=True), key=lambda p: -len(p[0])):
        text = text.replace(stand_in, name)
    return text


# ----------------------------------------------------------------------------- HTML
class _Read(HTMLParser):
    """The elements (by tag) and the text a browser shows of a report's analyses, charts
    left out (an SVG chart draws its labels in its own layout)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: list[str] = []
        self.svg = 0

    def handle_starttag(self, tag, attrs):
        self.svg += tag == "svg"
        if not self.svg:
            self.tags.append(tag)

    def handle_endtag(self, tag):
        if not self.svg:
            self.tags.append("/" + tag)
        self.svg -= tag == "svg"

    def handle_data(self, data):
        if not self.svg:
            self.text.append(data)


def read_html(report) -> _Read:
    page = to_html(report)
    # the analyses' sections: the header and the provenance say when the report was made
    r = _Read()
    r.feed(page[page.index("<main>"):page.index('<section id="references">')])
    return r


def test_the_html_reports_prose_shows_the_names_from_the_data_as_written(reports):
    mine, theirs = map(read_html, reports)
    said = "".join(theirs.text)
    assert said.count(f"Could be first at 95%: {STAND_INS[4]}, {STAND_INS[2]}") == 1
    assert said.count(STAND_INS[4]) >= 8  # the leaders are named in many sentences
    assert mine.tags == theirs.tags  # no code span of its own (nor any other element)
    assert "".join(mine.text) == as_named(said)


def test_prose_keeps_our_code_spans_and_a_names_backtick():
    assert prose("tick`s leads a`b on `p_best`", ["tick`s", "a`b"]) == \
        "tick`s leads a`b on <code>p_best</code>"
    assert prose("`a<b` for <x>", ["a<b"]) == "<code>a&lt;b</code> for &lt;x&gt;"
    assert prose("tick`s leads on `p_best`") == "tick<code>s leads on </code>p_best`"  # unsaid


# ----------------------------------------------------------------------------- notebook
markdown_it = pytest.importorskip("markdown_it")


def render(source: str) -> str:
    """A Markdown cell as Jupyter reads it: CommonMark, tables and ``$`` math."""
    md = markdown_it.MarkdownIt("commonmark").enable("table")
    try:
        from mdit_py_plugins.dollarmath import dollarmath_plugin
    except ImportError:  # no math: the escapes of "$" are checked by the text alone
        return md.render(source)
    return md.use(dollarmath_plugin).render(source)


def _when(text: str) -> str:
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "WHEN", text)  # when it was made


def test_the_notebooks_markdown_cells_show_the_names_as_written(reports):
    mine, theirs = (to_notebook(r, "data.npz").cells for r in reports)
    assert [c.cell_type for c in mine] == [c.cell_type for c in theirs]
    pairs = [(_when(a.source), _when(b.source)) for a, b in zip(mine, theirs, strict=True)
             if a.cell_type == "markdown"]
    named = [b for _, b in pairs if any(s in b for s in STAND_INS)]
    assert len(named) >= 5 and any(STAND_INS[6] in b and STAND_INS[7] in b for b in named)
    for a, b in pairs:
        shown, plain_shown = render(a), render(b)
        tags = [re.findall(r"</?[a-z0-9]+", x) for x in (shown, plain_shown)]
        assert tags[0] == tags[1], a  # no emphasis, link, code span or formula of their own
        as_read = as_named(html.unescape(re.sub(r"<[^>]+>", "", plain_shown)))
        assert html.unescape(re.sub(r"<[^>]+>", "", shown)) == as_read, a
    # the code cells are Python: the names in them as the plain ones, no escape
    code = [(a.source, b.source) for a, b in zip(mine, theirs, strict=True)
            if a.cell_type == "code"]
    assert any(repr(STAND_INS[4]) in b for _, b in code)
    assert all(a == as_named(b) for a, b in code)


def test_a_code_span_holds_any_backticks():
    assert [_code(t) for t in ("math", "tick`s", "`q`", "a``b")] == \
        ["`math`", "``tick`s``", "`` `q` ``", "```a``b```"]
    shown = [re.findall(r"<code>(.*?)</code>", render(f"x {_code(t)} y"))
             for t in ("tick`s", "`q`", "a``b")]
    assert shown == [["tick`s"], ["`q`"], ["a``b"]]
