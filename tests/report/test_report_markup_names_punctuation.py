"""Names without a letter or digit read letter for letter too: a model named ``*``, ``**``,
a backtick, ``$`` or a backslash was left as it was in our prose (it would have matched our
own ``**`` and code spans), so ``*`` at a line's start drew a list, a backtick opened a code
span that ran into our ``p_best``, a backslash escaped the comma after it
(:func:`scorio_core.formatting.md_prose`, :func:`scorio_core.report.html.prose`).

As test_formatting_markup_names.py and test_report_markup_names*.py do for names with
letters: each rendering (markdown-it with ``$`` math for Markdown; the HTML as written) is
compared with the same text quoting plain stand-in names -- the same elements, and the same
text once the stand-ins are read as the names.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

import scorio_core as sc
from scorio_core.formatting import md_prose
from scorio_core.report import build_report, to_html, to_markdown, to_notebook
from scorio_core.report.html import prose

markdown_it = pytest.importorskip("markdown_it")
dollarmath = pytest.importorskip("mdit_py_plugins.dollarmath")

#: Names with no letter or digit, each of them Markdown's (or math's) own characters.
NAMES = ("*", "**", "`", "$", "_", "\\", "~~")
#: Our sentences as the core writes them: a name alone, after a colon, in our emphasis, by
#: our code spans.
SENTENCES = (
    "{0} leads {1}.",
    "Could be first at 95%: {0}, {1} — 2 of 6 models; `p_best` = P(first).",
    "**{0}** and {1} have identical scores; `rank` orders them by `bayes_mu`.",
    "*Left: the chance that {0} vs {1} is decided at 95%*",
    "*{0} vs {1}* (`t_next` = {1}'s next trial)",
)


def render(source: str) -> str:
    """Markdown as Streamlit, Jupyter and GitHub read it: CommonMark, tables, strikethrough,
    ``$...$`` math."""
    md = markdown_it.MarkdownIt("commonmark").enable(["table", "strikethrough"])
    return md.use(dollarmath.dollarmath_plugin).render(source)


def read(page: str) -> tuple[list[str], str]:
    """The elements and the text a browser shows of a page (Markdown rendered, or HTML),
    an SVG chart left out (it draws its labels in its own layout)."""
    page = re.sub(r"<svg.*?</svg>", "", page, flags=re.S)
    return re.findall(r"</?[a-z0-9]+", page), html.unescape(re.sub(r"<[^>]+>", "", page))


def _as_named(text: str, stand_ins, names) -> str:
    for stand_in, name in sorted(zip(stand_ins, names, strict=True), key=lambda p: -len(p[0])):
        text = text.replace(stand_in, name)
    return text


#: Each sentence with each two neighbouring names -- but a name of asterisks beside our
#: emphasis on one side only (``*** vs``): which asterisk is whose cannot be told there
CASES = [(s, pair) for s in SENTENCES for pair in zip(NAMES, NAMES[1:] + NAMES[:1], strict=True)
         if not (s.startswith("*{0}") and any(set(n) == {"*"} for n in pair))]


@pytest.mark.parametrize(("sentence", "pair"), CASES)
def test_a_name_without_a_letter_renders_letter_for_letter(sentence, pair):
    plain = sentence.format("NAME0", "NAME1")
    said = sentence.format(*pair)
    for shown, stand_in in ((render(md_prose(said, NAMES)), render(plain)),
                            (prose(said, NAMES), prose(plain))):
        tags, text = read(shown)
        plain_tags, plain_text = read(stand_in)
        assert tags == plain_tags, (said, shown)  # no emphasis, list, code or formula of its own
        assert text == _as_named(plain_text, ("NAME0", "NAME1"), pair), (said, shown)


def test_our_markup_beside_such_names_is_ours():
    from scorio_core.formatting import _prose_parts  # the one reading md_prose and prose render

    names = ["*", "**", "`", "_"]
    assert md_prose("**x** and *y* in `a_b`; 2 * 3", names) == \
        "**x** and *y* in `a_b`; 2 \\* 3"  # a lone * is the name's (and reads the same)
    assert md_prose("***** leads", names) == "**\\*** leads"  # ours either side of the name
    assert md_prose("* leads `p_best`", names) == "\\* leads `p_best`"  # no list
    assert [k for k, _ in _prose_parts("` leads `p_best`", names)] == ["name", "text", "code"]


# ------------------------------------------------------------------ the report, rendered
#: The models (sorted as their stand-ins are); the first two lead, close enough that the
#: could-be-first line, the Planner and the pair view name them.
MODELS = ("`", "*", "$", "**", "\\", "zz")
CHANCE = (0.9, 0.88, 0.6, 0.55, 0.3, 0.1)
STAND_INS = tuple(f"m{i}q" for i in range(len(MODELS)))


def make_report(models):
    rng = np.random.default_rng(7)
    R = (rng.random((6, 40, 4)) < np.array(CHANCE)[:, None, None]).astype(int)
    data = sc.Outcomes(R, models=list(models), name="demo")
    return build_report(data, ["leaderboard", "plan", ("pair", {"a": models[0], "b": models[1]})])


@pytest.fixture(scope="module")
def reports():
    return make_report(MODELS), make_report(STAND_INS)


def _sections(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end)]  # the header says when it was made


def test_the_markdown_reports_prose_shows_such_names_as_written(reports, tmp_path):
    mine, theirs = (_sections(to_markdown(r, tmp_path / str(i)), "\n## 1. ", "\n## References")
                    for i, r in enumerate(reports))
    assert sum(STAND_INS[0] in line for line in theirs.splitlines()
               if not line.startswith("|")) >= 5  # the sentences name the leaders
    (tags, text), (plain_tags, plain_text) = read(render(mine)), read(render(theirs))
    assert tags == plain_tags
    assert text == _as_named(plain_text, STAND_INS, MODELS)


def test_the_html_reports_prose_shows_such_names_as_written(reports):
    mine, theirs = (read(_sections(to_html(r), "<main>", '<section id="references">'))
                    for r in reports)
    assert theirs[1].count(f"Could be first at 95%: {STAND_INS[1]}, {STAND_INS[0]} —") == 1
    assert mine[0] == theirs[0]  # no code span of its own (nor any other element)
    assert mine[1] == _as_named(theirs[1], STAND_INS, MODELS)


def test_the_notebooks_markdown_cells_show_such_names_as_written(reports):
    mine, theirs = (to_notebook(r, "data.npz").cells for r in reports)
    when = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")  # when it was made
    pairs = [(when.sub("WHEN", a.source), when.sub("WHEN", b.source))
             for a, b in zip(mine, theirs, strict=True) if a.cell_type == "markdown"]
    assert sum(STAND_INS[0] in b for _, b in pairs) >= 3
    for a, b in pairs:
        (tags, text), (plain_tags, plain_text) = read(render(a)), read(render(b))
        assert tags == plain_tags, a
        assert text == _as_named(plain_text, STAND_INS, MODELS), a


# ------------------------------------------------- names that open a block at a line's start
#: Names that Markdown reads as a block's opening where they start a line: a heading, a list
#: item (a dash, a plus, a number).
BLOCK_NAMES = ("# data", "### deep", "1. x", "12) y", "- y", "+ z")


@pytest.mark.parametrize("name", BLOCK_NAMES)
def test_a_name_that_starts_a_line_opens_no_block(name, tmp_path):
    """The Markdown report's second line starts with the data's name: data named "# data"
    had it set as a heading. Our sentence that starts with a model's name ("1. x leads")
    drew a list. Each now renders as the same text quoting a plain name does, with the
    same elements; a name inside a line is left as it is."""
    R = (np.random.default_rng(3).random((2, 12, 4)) < 0.6).astype(int)
    heads = []
    for i, n in enumerate((name, "NAMEQ")):
        report = build_report(sc.Outcomes(R, name=n), ["leaderboard"])
        md = to_markdown(report, tmp_path / str(i))
        heads.append(re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "WHEN",
                            md[:md.index("\n## 1. ")]))
    (tags, text), (plain_tags, plain_text) = read(render(heads[0])), read(render(heads[1]))
    assert tags == plain_tags, heads[0]
    assert text == plain_text.replace("NAMEQ", name), heads[0]
    for sentence in ("{0} leads {1}.", "Could be first:\n{0} and {1}"):
        said, plain = sentence.format(name, "m1"), sentence.format("NAMEQ", "m1")
        (tags, text), (plain_tags, plain_text) = (read(render(md_prose(said, [name, "m1"]))),
                                                  read(render(plain)))
        assert tags == plain_tags, md_prose(said, [name, "m1"])
        assert text == plain_text.replace("NAMEQ", name)
    assert md_prose(f"a {name} b", [name]) == f"a {name} b"  # within a line: as it is
