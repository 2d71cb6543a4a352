"""Names from the data in our Markdown sentences read letter for letter
(:func:`scorio_core.formatting.md_prose`): a model named ``big*model*`` was set in italics,
``[beta](x)`` drawn as a link, ``cost $5 $6`` as a formula (Streamlit, Jupyter and GitHub
read ``$...$`` as math), ``tick`s`` opened a code span that ran into our own ``p_best``.

Rendered with markdown-it (CommonMark, with the strikethrough and ``$`` math that Streamlit
reads too): a sentence quoting such names renders with the same elements as the sentence
quoting plain names, and its text holds each name as written.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

from scorio_core import Outcomes
from scorio_core.export import markup_names
from scorio_core.formatting import md_name, md_prose

markdown_it = pytest.importorskip("markdown_it")

#: Names a user's files may hold, each with characters Markdown reads as markup.
NAMES = ("big*model*", "a_b_", "[beta](x)", "tick`s", "cost $5 $6", "x~y~", "_lead",
         "<b>bold</b>", "back\\slash*")
#: Our sentences as the core writes them: plain, in our emphasis, beside our code spans.
SENTENCES = (
    "{0} leads {1}.",
    "Could be first at 95%: {0}, {1} — 2 of 6 models; `p_best` = P(first).",
    "**{0}** and {1} have identical scores; `rank` orders them by `bayes_mu`.",
    "*Left: the chance that {0} vs {1} is decided at 95%*",
)


def render(source: str) -> str:
    """``source`` as HTML, read as Streamlit reads Markdown (CommonMark, GFM strikethrough,
    ``$...$`` math)."""
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = markdown_it.MarkdownIt("commonmark").enable("strikethrough").use(dollarmath_plugin)
    return md.render(source)


def tags(page: str) -> list[str]:
    return re.findall(r"</?[a-z]+[^>]*>", page)


def text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.mark.parametrize("sentence", SENTENCES)
@pytest.mark.parametrize("pair", list(zip(NAMES, NAMES[1:] + NAMES[:1], strict=True)))
def test_a_name_from_the_data_renders_letter_for_letter(sentence, pair):
    pytest.importorskip("mdit_py_plugins")
    plain = render(sentence.format("NAME0", "NAME1"))  # what the sentence's markup makes
    shown = render(md_prose(sentence.format(*pair), NAMES))
    assert tags(shown) == tags(plain)  # no emphasis, link, code span or formula of its own
    assert text(shown) == text(plain).replace("NAME0", pair[0]).replace("NAME1", pair[1])


def test_our_code_spans_and_emphasis_stay_and_plain_names_are_left_alone():
    assert md_prose("`a_b_` for a_b_", ["a_b_"]) == "`a_b_` for a_b\\_"  # code shows as written
    assert md_prose("**x** and *y*", ["*", "**"]) == "**x** and *y*"  # our emphasis, not names
    names = ["gpt-4o_mini", "LLM_4", "claude 3.5"]  # nothing Markdown would read
    assert markup_names(Outcomes(np.ones((3, 2, 1), dtype=int), models=names)) == ()
    assert md_prose("gpt-4o_mini beats LLM_4", names) == "gpt-4o_mini beats LLM_4"
    assert md_prose("a_b leads a_b_", ["a_b", "a_b_"]) == "a_b leads a_b\\_"  # longest first


def test_raw_html_is_made_inert_in_a_file_and_left_to_the_app():
    said = "&lt;b> big*model* <img>"
    assert md_prose(said, ["big*model*"]) == "&amp;lt;b> big\\*model\\* &lt;img>"
    assert md_prose(said, ["big*model*"], html=False) == "&lt;b> big\\*model\\* <img>"
    assert md_name("<b>") == "&lt;b>" and md_name("a & b") == "a & b"


def test_the_names_a_dataset_brings_are_those_markdown_would_read():
    o = Outcomes(np.ones((2, 3, 2), dtype=int), models=["big*model*", "plain"],
                 questions=["q_1", "[q2]", "q3"], benchmarks=["math_", "math_", "gsm"],
                 name="my_*data*")
    assert set(markup_names(o)) == {"big*model*", "[q2]", "math_", "my_*data*"}


def test_plain_text_keeps_the_names_as_they_are():
    from scorio_core.export import describe, to_markdown, to_text
    from scorio_core.leaderboard import leaderboard

    R = np.stack([np.ones((20, 4)), np.zeros((20, 4))]).astype(int)
    board = leaderboard(R, models=["big*model*", "a_b_"])
    line = next(t for t in describe(board) if "big*model*" in t)  # the could-be-first line
    assert "big*model*" in to_text(board) and "\\" not in to_text(board).split("\n", 1)[0]
    assert md_prose(line, ["big*model*"]).replace("big\\*model\\*", "big*model*") == \
        md_prose(line)  # the names alone are escaped
    header = to_markdown(board).split("\n")[2]  # the sentences above the table
    assert "big\\*model\\*" in header and "big*model*" not in header


def test_plain_text_drops_our_backticks_and_keeps_a_names():
    from scorio_core.export import to_text
    from scorio_core.leaderboard import leaderboard

    R = np.stack([np.ones((20, 4)), np.zeros((20, 4))]).astype(int)
    text = to_text(leaderboard(R, models=["tick`s", "a_b_"]))
    head = " ".join(text.split("\n\n")[1].split())  # the sentences above the table
    assert "First at 95%: tick`s — every other model" in head  # was "ticks"
    assert "; p_best = P(first)." in head and "`p_best`" not in head
