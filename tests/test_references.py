"""Papers are cited by title and section wherever a user reads them (issue 24: "000 App. D"
and "002 Table 21" were unexplained to a reader who has not got the papers)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from scorio_core.references import BARE_KEY, PAPERS, bibliography, cite, expand

ROOT = Path(__file__).resolve().parents[1]
TITLE_000 = "Don't Pass@k (2026)"
TITLE_002 = "Ranking Reasoning LLMs under Test-Time Scaling (2026)"


def _bare(text: str) -> list[str]:
    return [text[max(0, m.start() - 40):m.end() + 20] for m in BARE_KEY.finditer(text or "")]


def test_titles_come_from_the_seed_papers():
    assert PAPERS["000"].title == (
        "Don't Pass@k: A Bayesian Framework for Large Language Model Evaluation")
    assert PAPERS["002"].title == "Ranking Reasoning LLMs under Test-Time Scaling"
    assert cite("000", "App. D") == f"{TITLE_000}, App. D"
    assert cite("002") == TITLE_002
    assert all(p.url.startswith("https://") for p in PAPERS.values())
    assert any("arXiv:2603.10960" in line for line in bibliography())


@pytest.mark.parametrize(("text", "want"), [
    ("(000 App. D; now N = 4)", f"({TITLE_000}, App. D; now N = 4)"),
    ("002 §3.2-3.3, Tables 2, 3", f"{TITLE_002}, §3.2-3.3, Tables 2, 3"),
    ("(002 eqs. 43-44)", f"({TITLE_002}, eqs. 43-44)"),
    ("(002 I.1.7, Alg. 4)", f"({TITLE_002}, I.1.7, Alg. 4)"),
    ("001's worked example", "the Scorio documentation's worked example"),
    ("σ = 0.091998 (001)", "σ = 0.091998 (Scorio documentation, worked example)"),
    ("accuracies reported in paper 002 Tables 6-9.", f"accuracies reported in {TITLE_002}, "
     "Tables 6-9."),
    ("Paper 002, Appendix B, Tables 6-9", f"{TITLE_002}, Appendix B, Tables 6-9"),
    # numbers are not keys
    ("p < 0.001)", "p < 0.001)"),
    ("1,000 Tables", "1,000 Tables"),
    ("seed 2000 Fig. 1", "seed 2000 Fig. 1"),
])
def test_expand_spells_out_keys_and_leaves_numbers(text, want):
    assert expand(text) == want
    assert expand(expand(text)) == want  # idempotent: renderers may meet a text twice


def test_core_texts_users_read_cite_by_title():
    from scorio_core.charts import lesson_intro, lesson_notice
    from scorio_core.definitions import ANALYSES, SIMULATIONS
    from scorio_core.definitions._base import Chart
    from scorio_core.leaderboard import COLUMN_HELP
    from scorio_core.params import settings_of
    from scorio_core.rank import FAMILIES, METHODS
    from scorio_core.rubric.presets import PRESETS

    texts = {f"column {k}": v for k, v in COLUMN_HELP.items()}
    for a in [*ANALYSES.values(), *SIMULATIONS.values()]:
        texts[f"{a.id} how_to_read"] = a.how_to_read
        for name, (_, s) in settings_of(a.params).items():
            texts[f"{a.id}.{name} help"] = s.help + " ".join((s.choice_help or {}).values())
    texts |= {f"method {m}": meta.description for m, meta in METHODS.items()}
    texts |= {f"family {f}": d for f, d in FAMILIES.items()}
    for k, r in PRESETS.items():
        texts[f"preset {k}"] = " ".join((r.name, r.intent, r.description, r.source))
    for lesson in ("coins", "depth", "order", "calibration", "rubric"):
        texts[f"lesson {lesson}"] = lesson_intro(lesson) + lesson_notice(lesson)
    bad = {k: _bare(v) for k, v in texts.items() if _bare(v)}
    assert not bad, bad
    rule = COLUMN_HELP["trials_needed_papers"]
    assert "App. D" in rule and TITLE_000 in rule
    assert TITLE_002 in PRESETS["ranking/conservative"].source
    chart = Chart("t (000 Fig. 2a)", None, "c (002 Table 4)", "e (000 App. D)", "i (000 §2)")
    assert chart == (f"t ({TITLE_000}, Fig. 2a)", None, f"c ({TITLE_002}, Table 4)",
                     f"e ({TITLE_000}, App. D)", f"i ({TITLE_000}, §2)")
    depth = SIMULATIONS["prior-depth"]  # its caveat cites "(000 App. C)" in the source
    caveats = depth.caveats(None, depth.params(), None)
    assert any(f"({TITLE_000}, App. C)" in c for c in caveats), caveats


#: A paper key as a reader would meet it anywhere in prose, with or without a section after
#: it ("002 reduces it", "(002: ties are ignored)"), but not inside a number or a name.
ANY_KEY = re.compile(r"(?<![\d.,\w])00[0-2](?![\d\w])")


def _keys(text: str) -> list[str]:
    return [text[max(0, m.start() - 40):m.end() + 20] for m in ANY_KEY.finditer(text or "")]


def test_public_docstrings_cite_by_title():
    """help(sc.leaderboard) showed "000 §2.7.1" and help(sc.compare) "002 Table 1": 107 raw
    keys in the help of 23 public names. Everything ``sc`` names -- with the functions,
    classes and methods its modules list, as ``help()`` prints them -- and every ranking
    method's function cite by title."""
    import inspect
    import pydoc

    import scorio_core as sc
    from scorio_core.rank import METHODS

    helps = {}
    for name in sc.__all__:
        obj = getattr(sc, name)
        if callable(obj) or inspect.ismodule(obj):
            helps[name] = pydoc.render_doc(obj, renderer=pydoc.plaintext)
    for mid, meth in METHODS.items():
        helps[f"rank.METHODS[{mid!r}]"] = inspect.getdoc(meth.func) or ""
    said = {k: " ".join(v.split()) for k, v in helps.items()}  # titles wrap across lines
    assert len(helps) > 100 and "Don't Pass@k (2026), §2.7.1" in said["leaderboard"]
    assert "Ranking Reasoning LLMs under Test-Time Scaling (2026), Table 1" in said["compare"]
    bad = {k: _keys(v) for k, v in helps.items() if _keys(v)}
    assert not bad, bad


def test_notebooks_cite_by_title():
    """teaching.ipynb said "(000 Fig. 2a)", "001's worked example" and "# 001's numbers"."""
    nbformat = pytest.importorskip("nbformat")
    books = sorted((ROOT / "docs" / "notebooks").glob("*.ipynb"))
    assert len(books) >= 2
    bad = {f"{nb.name}[{i}]": _keys(c.source)
           for nb in books for i, c in enumerate(nbformat.read(nb, as_version=4).cells)
           if _keys(c.source)}
    assert not bad, bad
    # what the check matches: the keys the notebooks had, not numbers such as 0.001
    assert _keys("(000 Fig. 2a); 001's numbers; 002 reduces it") and not _keys(
        "p < 0.001, 1,000 questions, seed 2000, run_002")


def test_cli_help_cites_by_title():
    from scorio_core.cli import _parser

    def walk(p: argparse.ArgumentParser, path=("scorio-studio",)):
        yield " ".join(path), p.format_help()
        for a in p._actions:
            if isinstance(a.choices, dict):
                for name, sub in a.choices.items():
                    if isinstance(sub, argparse.ArgumentParser):
                        yield from walk(sub, (*path, name))

    helps = dict(walk(_parser()))
    assert len(helps) > 10
    bad = {k: _bare(v) for k, v in helps.items() if _bare(v)}
    assert not bad, bad
    assert TITLE_000 in re.sub(r"\s+", " ", helps["scorio-studio simulate"])


def test_readme_cites_by_title():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not _bare(text), _bare(text)[:5]
    for p in PAPERS.values():
        assert p.title in text


def test_reports_cite_by_title_and_list_the_references():
    import numpy as np

    from scorio_core import Outcomes
    from scorio_core.report import build_report
    from scorio_core.report.html import to_html
    from scorio_core.report.markdown import to_markdown

    data = Outcomes(np.random.default_rng(1).integers(0, 2, (4, 20, 4)), name="demo")
    report = build_report(data, ["leaderboard", "plan"], title="refs")
    md, page = to_markdown(report), to_html(report)
    from html import escape

    for text, esc in ((md, str), (page, escape)):
        assert not _bare(text), _bare(text)[:3]
        assert esc(f"{TITLE_000}, App. D") in text  # the plan's order curve caption
    assert "## References" in md and PAPERS["002"].title in md
    assert f"<em>{escape(PAPERS['000'].title)}</em>" in page
    assert 'href="#references"' in page and "://" not in page  # offline: no links out
