"""The HTML report in a real browser (headless Debian Chromium via Playwright), offline.

Every non-``file://`` request is aborted and recorded: the report must render its
charts without one. Skips when Playwright or Chromium is missing, except in CI
(``CI=true``), where that is a failure (``.ci/run`` installs Debian's chromium).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scorio_core import io
from scorio_core.definitions.provenance import attach_source
from scorio_core.report import build_report, to_html


def test_report_renders_offline_with_its_charts(browser, data_dir, tmp_path):
    path = data_dir / "biased_coins.npz"
    data = attach_source(io.load(path), path)
    sections = [
        ("leaderboard", {}),
        ("convergence", {"replicates": 300, "curve_replicates": 40}),
        ("stability", {"methods": "bayes,avg,borda"}),
    ]
    report = build_report(data, sections, title="Coins")
    out = tmp_path / "report.html"
    out.write_text(to_html(report), encoding="utf-8")
    n_charts = sum(len(s.charts) for s in report.sections)

    page = browser.new_page(viewport={"width": 1200, "height": 900})
    requested: list[str] = []

    def offline(route):
        url = route.request.url
        if url.startswith("file://"):
            route.continue_()
        else:
            requested.append(url)
            route.abort()

    page.route("**/*", offline)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(out.as_uri())
    page.wait_for_load_state("load")
    assert requested == []
    assert errors == []
    svgs = page.locator("figure svg")
    assert svgs.count() == n_charts == 7
    for i in range(n_charts):
        box = svgs.nth(i).bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 40
    # the charts drew marks (vl-convert output: one <path>/<line>/<text> per mark)
    assert page.locator("figure svg path").count() > 100
    assert page.locator("figure svg text", has_text="LLM_4").count() >= 1
    assert page.title() == "Coins"
    # print layout: navigation hidden, sections start on a new page
    page.emulate_media(media="print")
    assert not page.locator("nav").is_visible()
    brk = page.evaluate("getComputedStyle(document.querySelector('h2')).breakBefore")
    assert brk == "page"
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") > 3
    page.close()


def test_wide_tables_fit_the_printed_page_and_the_screen(browser, data_dir, tmp_path):
    """The ranks of every registered method (a column each) come in parts that fit an A4
    page in print layout (numbers never wrap there) and the report's column on screen; the
    leaderboard's 18 columns fit the printed page whole."""
    data = io.load(data_dir / "reasoning_synthetic.npz").select("AIME'25")
    report = build_report(data, ["leaderboard", "compare"], title="Wide")
    assert report.sections[1].tables["ranks"].shape[1] > 60
    out = tmp_path / "wide.html"
    out.write_text(to_html(report), encoding="utf-8")
    # overflow of each table past its container, in px (0: it fits)
    overflow = """() => Array.from(document.querySelectorAll('table')).map(
        t => t.scrollWidth - t.parentElement.clientWidth)"""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(out.as_uri())
    parts = page.locator(".part table")
    assert parts.count() >= 7
    widths = page.evaluate("""() => Array.from(document.querySelectorAll('.part table')).map(
        t => t.scrollWidth - document.querySelector('main').clientWidth)""")
    assert max(widths) <= 0, widths
    # print layout at an A4 page's width (210 mm less the 2 x 14 mm margins, 96 px/in)
    page.set_viewport_size({"width": round((210 - 28) / 25.4 * 96), "height": 1100})
    page.emulate_media(media="print")
    assert max(page.evaluate(overflow)) <= 0
    page.close()


def test_every_table_fits_the_screen_column(browser, data_dir, tmp_path):
    """At 1280 px every table fits the report's column without a scroll bar: the
    leaderboard's 18 columns beside long model names (FuseO1-DS-QwQ-SkyT1), the Planner's
    pairs and the pair summary with its estimand in words once ran 90-300 px past it and
    hid their last columns (trials_needed_papers, the estimand) behind a scroll bar."""
    data = io.load(data_dir / "reasoning_synthetic.npz", benchmark="AIME'25")
    report = build_report(data, ["leaderboard", ("plan", {"sims": 200, "n_max": 256}),
                                 "pair"], title="Screen")
    out = tmp_path / "screen.html"
    out.write_text(to_html(report), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(out.as_uri())
    over = page.evaluate("""() => Array.from(document.querySelectorAll('div.scroll')).map(
        d => [d.previousElementSibling ? d.previousElementSibling.textContent : '',
              d.scrollWidth - d.clientWidth]).filter(x => x[1] > 0)""")
    assert over == [], over
    # a number never wraps on screen either (only names and text cells may)
    wrapped = page.evaluate("""() => Array.from(document.querySelectorAll('td:not(.t)')).filter(
        td => { const r = document.createRange(); r.selectNodeContents(td);
                return r.getClientRects().length > 1; }).map(td => td.textContent)""")
    assert wrapped == []
    page.close()


def test_pair_flips_with_texts_fit_the_screen_column(browser, tmp_path):
    """The pair section's flips with completion texts: side by side (15 columns, 17 with a
    reasoning text) they ran 200-680 px past the 1280 px screen's column and hid model b's
    texts behind a scroll bar; one row per trial and model, they fit. On the harness's
    short texts and on long ones (reasoning, output, explanation of LLM length, two
    benchmarks pooled) beside long model names, whose text cells wrap while no number
    does. The summary, the two long names on each row, ran 111 px past it: every table of
    the section fits (the names are said once under it)."""
    import pandas as pd

    harness = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect"
    words = ("the model considers each step carefully and then writes a final answer "
             "after checking its arithmetic twice").split()

    def text(n: int, k: int) -> str:
        return " ".join(words[(k * 7 + i) % len(words)] for i in range(n))

    rows = [{"model": m, "question": f"{b}-{q}", "trial": t, "benchmark": b,
             "outcome": int((q + t + i) % 3 == 0), "input": f"Question {q}: " + text(30, q),
             "reasoning": text(120, q + t), "output": text(80, q * t + i) + f" ANSWER: {t}",
             "answer": f"x={t + i}", "explanation": f"graded x={t + i}: " + text(25, t)}
            for b in ("gsm8k", "math") for q in range(4)
            for i, m in enumerate(("meta-llama/Meta-Llama-3.1-405B-Instruct-Turbo",
                                   "anthropic/claude-3-5-sonnet-20241022"))
            for t in range(4)]
    pd.DataFrame(rows).to_csv(tmp_path / "long.csv", index=False)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    for name, data in (("short", io.load(harness / "texts")),
                       ("long", io.load(tmp_path / "long.csv"))):
        report = build_report(data, ["pair"], title=name)
        out = tmp_path / f"{name}.html"
        out.write_text(to_html(report), encoding="utf-8")
        page.goto(out.as_uri())
        over = page.evaluate("""() => Array.from(document.querySelectorAll('#s1 div.scroll'))
            .map(d => [d.previousElementSibling ? d.previousElementSibling.textContent : '',
                       d.scrollWidth - d.clientWidth])""")
        assert [h for h, _ in over] == ["summary", "questions", "question_texts", "flips",
                                        "repeats"], over
        assert all(px <= 0 for _, px in over), (name, over)
        heads = page.evaluate("""() => { const h = Array.from(document.querySelectorAll('h3'))
            .find(e => e.textContent === 'flips');
            return Array.from(h.nextElementSibling.querySelectorAll('th'))
                .map(th => th.textContent); }""")
        assert "model" in heads and "answer" in heads and "answer_b" not in heads, heads
        wrapped = page.evaluate("""() => Array.from(document.querySelectorAll('td:not(.t)'))
            .filter(td => { const r = document.createRange(); r.selectNodeContents(td);
                            return r.getClientRects().length > 1; }).map(td => td.textContent)""")
        assert wrapped == [], (name, wrapped)
    page.close()


#: Model names as their providers write them: beside the leaderboard's 18 columns they held
#: it 34 px past the report's column at 1280 px (a name broke only at its hyphens, and one
#: longer than 40 characters kept a 14em minimum width)
LONG_NAMES = ("gpt-4o", "gemini-2.0-flash-thinking-exp-01-21",
              "anthropic/claude-3-5-sonnet-20241022",
              "meta-llama/Meta-Llama-3.1-405B-Instruct-Turbo")

#: Every table of the page: where it is (section id and the line above it), how far its
#: right edge runs past the report's column and how far its box scrolls sideways, in px
TABLES = """() => Array.from(document.querySelectorAll('table')).map(t => {
    const box = t.closest('div.scroll'), sec = t.closest('section');
    const head = box && box.previousElementSibling ? box.previousElementSibling.textContent : '';
    return [(sec ? sec.id : '') + ': ' + head,
            t.getBoundingClientRect().right - document.querySelector('main')
                .getBoundingClientRect().right,
            box ? box.scrollWidth - box.clientWidth : 0]; })"""
WRAPPED = """() => Array.from(document.querySelectorAll('td:not(.t)')).filter(
    td => { const r = document.createRange(); r.selectNodeContents(td);
            return r.getClientRects().length > 1; }).map(td => td.textContent)"""


def _long_names(tmp_path: Path):
    """Four long model names on 12 questions x 4 trials, with the texts of a log: each
    question's input (longer than the report prints) and target, each trial's answer."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(3)
    rows = [{"model": m, "question": f"q{q}", "trial": t,
             "outcome": int(rng.random() < 0.3 + 0.15 * i),
             "input": f"Question {q}: " + "what is the sum of the digits of 2^100? " * 60,
             "target": f"x={q}", "answer": f"x={(q * t + i) % 4}"}
            for i, m in enumerate(LONG_NAMES) for q in range(12) for t in range(4)]
    pd.DataFrame(rows).to_csv(tmp_path / "long_names.csv", index=False)
    return io.load(tmp_path / "long_names.csv")


def _helm(tmp_path: Path):
    """The HELM fixture's two runs as helm-run writes them (alpha's with a thinking model's
    texts and annotations: fixtures.helm_runs) under helm/simple_mcqa/: the "How the data
    were read" table lists each file by that path, and held the table 164 px past. Question
    id60's input is a multiple-choice prompt's four lines (fixtures.helm_runs.MCQ_INPUT)."""
    from fixtures.helm_runs import annotated_run, helm_run, multiline_input

    runs = tmp_path / "helm" / "simple_mcqa"
    multiline_input(annotated_run(runs))
    multiline_input(helm_run(runs, "beta"))
    return io.load(tmp_path / "helm")


@pytest.mark.parametrize("make", [_long_names, _helm], ids=["long names", "helm"])
def test_every_table_of_a_default_report_fits_the_screen(browser, tmp_path, make):
    """A default report at 1280 px: every table -- the sections' and "How the data were
    read" -- inside the report's column, none scrolling sideways; long names and file paths
    wrap (after a '/', a '-', or inside a long word), a number never does."""
    data = make(tmp_path)
    report = build_report(data, title="Fit")
    out = tmp_path / "fit.html"
    out.write_text(to_html(report), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(out.as_uri())
    tables = page.evaluate(TABLES)
    heads = [h for h, _, _ in tables]
    assert "s1: leaderboard" in heads and len(tables) >= 20, heads
    assert any(h.endswith(": question_texts") for h in heads), heads  # the pair's question
    if data.metadata.get("import_report"):
        assert "how-read: files" in heads
    past = [(h, round(right), scroll) for h, right, scroll in tables
            if right > 0.5 or scroll > 0]
    assert past == [], past
    assert page.evaluate(WRAPPED) == []
    page.close()


def test_cells_sit_at_the_top_of_their_row_in_the_report_and_a_notebook(browser, tmp_path):
    """The report's cells and a notebook display's (``display.CELL_STYLE``, one rule) sit at
    the top of a tall row; the display's style stays inside its own output (a notebook's
    other tables keep the browser's middle)."""
    from scorio_core.definitions import ANALYSES

    data = io.load(Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect"
                   / "texts")
    result = ANALYSES["pair"](data)
    align = """() => Array.from(document.querySelectorAll('td')).map(
        td => [!!td.closest('.scorio-result'), getComputedStyle(td).verticalAlign])"""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_content("<table><tr><td>another output</td></tr></table>" + result._repr_html_())
    cells = page.evaluate(align)
    assert {a for inside, a in cells if inside} == {"top"} and len(cells) > 10
    assert [a for inside, a in cells if not inside] == ["middle"]
    out = tmp_path / "pair.html"
    out.write_text(to_html(build_report(data, ["pair"])), encoding="utf-8")
    page.goto(out.as_uri())
    assert {a for _, a in page.evaluate(align)} == {"top"}
    page.close()


#: The text cells of the page that hold a line break, each with the text it shows and the
#: number of lines it is drawn on (distinct tops of its line boxes)
LINES = """() => Array.from(document.querySelectorAll('td')).filter(
    td => td.querySelector('br')).map(td => { const r = document.createRange();
    r.selectNodeContents(td); return [td.innerText, new Set(Array.from(r.getClientRects())
        .map(x => Math.round(x.top))).size]; })"""


def test_a_texts_lines_show_as_lines_in_the_report_and_a_notebook(browser, tmp_path):
    """The pair section of a HELM report at 1280 px: the question's input (a multiple-choice
    prompt's four lines) and the thinking model's reasoning (two) ran into one line each
    (a newline collapsed to a space); they show on their lines, in the report and in a
    notebook's display of the same result, while every table of the section stays inside
    the column and no number wraps."""
    from fixtures.helm_runs import MCQ_INPUT, THINKING

    from scorio_core.definitions import ANALYSES

    data = _helm(tmp_path)
    thought = THINKING[("id60", 0)]
    out = tmp_path / "pair.html"
    out.write_text(to_html(build_report(data, [("pair", {"question": "id60"})])),
                   encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(out.as_uri())
    assert page.evaluate(LINES) == [[MCQ_INPUT, 4], [thought, 2]]
    past = [(h, round(right), scroll) for h, right, scroll in page.evaluate(TABLES)
            if right > 0.5 or scroll > 0]
    assert past == [], past
    assert page.evaluate(WRAPPED) == []
    page.set_content(ANALYSES["pair"](data, question="id60")._repr_html_())
    shown = page.evaluate(LINES)
    assert [MCQ_INPUT, 4] in shown, shown
    page.close()


def test_a_plans_display_fits_a_classic_notebooks_output_area(browser):
    """A classic notebook's output area is about 860 px wide, in Helvetica/Arial 14 px: the
    pairs table of ``sc.plan(data)._repr_html_()`` ran 61 px past it on the bundled coins
    (a pair whose note explains its "met now", wrapped in its own column). The notes are
    listed under the table; every table of the display fits, headers broken where needed."""
    import scorio_core as sc

    planned = sc.plan(io.load(Path(__file__).resolve().parents[2] / "data" / "biased_coins.npz"),
                      budget_trials=40, draws=2000)
    assert planned.pairs["note"].str.len().max() > 150  # the long note is there to place
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    page.set_content('<div id="out" style="width:860px;font-family:\'Helvetica Neue\','
                     f'Helvetica,Arial,sans-serif;font-size:14px">{planned._repr_html_()}</div>')
    past = page.evaluate("""() => { const out = document.querySelector('#out');
        const edge = out.getBoundingClientRect().right;
        return Array.from(out.querySelectorAll('table')).map(
            t => Math.round(t.getBoundingClientRect().right - edge)); }""")
    assert len(past) == 2 and max(past) <= 0, past
    row = planned.pairs.loc[planned.pairs["note"].str.len().idxmax()]
    said = page.inner_text("#out")
    assert f"{row['better']} vs {row['next']}: {row['note'][:40]}" in said
    page.close()
