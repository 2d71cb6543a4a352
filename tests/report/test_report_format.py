"""The report's numbers and settings read as a person expects (issue 24): one format per
table column (integers as integers), settings in words with the values a run resolved, and no
flat chart with duplicated ticks where nothing converged."""

from __future__ import annotations

import re

import numpy as np
import pytest

from scorio_core import Outcomes
from scorio_core.formatting import column_format, format_columns, table_formats
from scorio_core.report import build_report, chart_svg, to_html, to_markdown
from scorio_core.report._build import PART_COLUMNS, WIDE_COLUMNS, column_parts


@pytest.fixture(scope="module")
def small_report():
    """16 models x 15 questions x 4 trials with exact ties: the issue's upload."""
    rng = np.random.default_rng(0)
    p = rng.beta(2, 2, (16, 15, 1)) * np.linspace(0.3, 1, 16)[:, None, None]
    R = (rng.random((16, 15, 4)) < p).astype(int)
    data = Outcomes(R, models=[f"model-{i:02d}" for i in range(16)], name="upload")
    sections = ["leaderboard", ("convergence", {"replicates": 300, "curve_replicates": 50}),
                ("plan", {"sims": 200})]
    report = build_report(data, sections)
    return report, to_html(report)


def _html_tables(page: str) -> list[list[list[str]]]:
    out = []
    for body in re.findall(r"<tbody>(.*?)</tbody>", page, flags=re.S):
        rows = re.findall(r"<tr>(.*?)</tr>", body, flags=re.S)
        out.append([re.findall(r"<td[^>]*>(.*?)</td>", r, flags=re.S) for r in rows])
    return out


def test_every_html_column_has_one_number_format(small_report):
    _, page = small_report
    tables = _html_tables(page)
    assert len(tables) >= 6
    for rows in tables:
        for col in zip(*rows, strict=True):
            nums = [c for c in col if re.fullmatch(r"[<>−-]?[\d,]+(\.\d+)?", c)]
            decimals = {len(c.split(".")[1]) if "." in c else 0 for c in nums}
            assert len(decimals) <= 1, col


def test_counts_print_as_integers(small_report):
    report, page = small_report
    plan = next(s for s in report.sections if s.analysis.id == "plan")
    needed = plan.tables["pairs"]["trials_needed"]
    finite = needed[np.isfinite(needed)].astype(int)
    assert len(finite) and all(f"<td>{n:,}</td>" in page for n in finite)
    assert not any(f"<td>{n:,}.0000</td>" in page for n in finite)  # was '466.0000'

    assert column_format(plan.tables["allocation"]["extra_trials"], "extra_trials").kind == "int"


def _html_settings(page: str) -> list[list[str]]:
    """Each section's settings in an HTML report: the items of its list."""
    return [re.findall(r"<li>(.*?)</li>", block) for block in re.findall(
        r'<div class="note settings">Settings<ul[^>]*>(.*?)</ul></div>', page)]


def test_settings_line_in_words_with_resolved_values(small_report):
    report, page = small_report
    notes = _html_settings(page)
    assert len(notes) == 3
    assert not any("null" in n or "None" in n for items in notes for n in items)
    plan = next(s for s in report.sections if s.analysis.id == "plan")
    budget = plan.result.plan.settings["budget_trials"]
    spent = int(plan.result.plan.allocation["extra_trials"].sum())
    assert budget == spent == 16 * 4  # 0 means L x N; the chart spends all of it
    assert f"Extra trials (budget) (<code>budget_trials</code>): {budget} (0 = L × N)" in notes[2]
    assert "(<code>budget_trials</code>): 0" not in page.split("<h2>Provenance")[0]
    assert "Weights (<code>weights</code>): 0, 1 (the data&#x27;s)" in notes[0]
    md = to_markdown(report)
    assert "Settings: " in md and "null" not in md.split("## Provenance")[0]
    assert f"; Extra trials (budget) (`budget_trials`): {budget} (0 = L × N); " in md


def test_settings_name_each_setting_by_its_label_then_its_notebook_name(small_report):
    """The settings line read ``budget_trials = 64 (0 = L × N), lead = 0, ...``: code names a
    reader of the report need not know, commas both inside values and between settings. Each
    setting is now said by the label its page widget shows (the declaration's; a setting with
    several widgets by all of them), then the name a notebook call takes, then its value: in
    HTML one a line, in Markdown and the notebook one line, separated by semicolons."""
    from scorio_core.params import settings_of, widget
    from scorio_core.report import to_notebook

    report, page = small_report
    md = to_markdown(report).splitlines()
    cells = [c.source for c in to_notebook(report, "upload.npz").cells
             if c.cell_type == "markdown"]
    for section, items in zip(report.sections, _html_settings(page), strict=True):
        cls = type(section.params)
        names = [re.search(r"<code>(\w+)</code>", i).group(1) for i in items]
        assert names == list(settings_of(cls))  # every declared setting, in its order
        said = []
        for name, item in zip(names, items, strict=True):
            w = widget(cls, name)
            label = " / ".join(w["parts"] or [w["label"]])
            assert item.startswith(f"{label} (<code>{name}</code>): "), item
            said.append(f"{label} (`{name}`): {item.split('</code>): ', 1)[1]}")
        line = "Settings: " + "; ".join(said).replace("&#x27;", "'") + "."
        assert line in md  # the Markdown report's line ...
        assert any(line in c for c in cells)  # ... and the notebook's: the same settings
    plan = _html_settings(page)[2]
    assert any(i.startswith("Better model / Other model (<code>pair</code>): model-")
               for i in plan)


def test_settings_print_counts_as_the_caveats_and_tables_do():
    """The settings line printed "Draws (`draws`): 10000" and "Replicates ...: 10000" under
    caveats and tables that print "10,000 replicates": counts now take the thousands
    separator of every other number in the report; a seed stays as typed (an id, not a
    quantity), and a table of values (the rubric lesson's R) keeps its rows."""
    from scorio_core.report._build import settings_text

    R = (np.random.default_rng(1).random((3, 10, 4)) < 0.5).astype(int)
    report = build_report(Outcomes(R), [("leaderboard", {"draws": 12000, "seed": 12345}),
                                        "rubric-lesson"])
    board, lesson = (settings_text(s) for s in report.sections)
    assert "Draws (`draws`): 12,000; Seed (`seed`): 12345;" in board
    assert "R (`R`): [0, 1, 2, 2, 1], [1, 1, 0, 2, 2]" in lesson  # was 0, 1, 2, 2, 1, 1, ...
    page = to_html(report)
    assert "(<code>draws</code>): 12,000</li>" in page and ": 12000" not in page.split(
        "<h2>Provenance")[0]


def test_no_flat_convergence_charts_and_whole_ticks(small_report):
    report, page = small_report
    conv = next(s for s in report.sections if s.analysis.id == "convergence")
    assert not (conv.result.pmf["p"] > 0).any()  # nothing converges on N = 4 with these ties
    empty = [c for c in conv.charts if c.empty is not None]
    assert [c.title for c in empty] == ["Distribution of convergence@n",
                                        "Cumulative convergence@n"]
    assert page.count("No replicate converged within the trials, so there is no") == 2
    # ... and the pmf table is that sentence, not a column of p = 0.0000 (the export has them)
    pmf = page.split("<h3>pmf</h3>", 1)[1].split("</section>", 1)[0]
    assert "<table>" not in pmf and "No replicate converged within the trials:" in pmf
    # the charts that are drawn have each whole-number tick once (was 1, 2, 2, 3, 3)
    drawn = [c for c in conv.charts if c.empty is None]
    for c in [*drawn, *empty]:
        svg = chart_svg(c.chart)
        texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
        ticks = texts[: next(i for i, t in enumerate(texts) if not t.isdigit())]  # x labels
        assert ticks == [str(n) for n in range(1, len(ticks) + 1)], (c.title, ticks)


# ------------------------------------------- one name, one format; wide tables in parts
@pytest.fixture(scope="module")
def compare_report():
    """Every registered ranking method on 6 models (the compare section's ``ranks`` has a
    column per method) beside convergence and stability: the sections whose ``mean`` and
    ``median`` columns once meant Kendall τ_b (4 decimals) and trial counts (1 decimal)."""
    rng = np.random.default_rng(3)
    p = np.linspace(0.85, 0.3, 6)[:, None, None] * rng.beta(4, 2, (1, 20, 1))
    R = (rng.random((6, 20, 8)) < p).astype(int)
    data = Outcomes(R, models=[f"model_{i}" for i in range(6)], name="wide")
    sections = ["compare", ("convergence", {"methods": "bayes,avg", "replicates": 200,
                                            "curve_replicates": 20}),
                ("stability", {"methods": "bayes,avg,borda"}), ("questions", {"top": 5})]
    report = build_report(data, sections)
    return report, to_html(report), to_markdown(report)


def test_every_column_name_has_one_format_across_a_report(compare_report):
    """A column name keeps one meaning and one number format in every table of a report:
    convergence@n counts its trials in ``mean_trials``/``median_trials``, so ``mean`` and
    ``median`` are Kendall τ_b wherever a section shows them."""
    report, page, _ = compare_report
    assert all(s.error is None for s in report.sections)
    seen: dict[str, set] = {}
    for s in report.sections:
        for df in s.tables.values():
            if df.empty:
                continue
            for col, fmt in zip(df.columns, table_formats(df), strict=True):
                decimals = fmt.decimals if fmt.kind == "float" else None
                seen.setdefault(str(col), set()).add((fmt.kind, decimals))
    assert {c: f for c, f in seen.items() if len(f) > 1} == {}
    conv = next(s for s in report.sections if s.analysis.id == "convergence")
    assert {"mean_trials", "median_trials", "mean_trials_censored"} <= set(
        conv.tables["summary"].columns)
    assert not {"mean", "median"} & set(conv.tables["summary"].columns)
    assert seen["mean"] == seen["median"] == {("float", 4)}  # τ_b: compare, curves, stability
    assert seen["mean_trials"] == {("float", 1)} and seen["median_trials"] == {("int", None)}
    # the page prints them so: the compare summary's τ_b with four decimals
    summary = report.sections[0].tables["summary"]
    assert f"<td>{summary['mean'].iloc[0]:.4f}</td>" in page


def test_a_wide_table_comes_in_parts_that_repeat_its_key_column(compare_report):
    """The ranks of every method (a column each) would run off a printed page: the HTML and
    the Markdown show it in parts of at most PART_COLUMNS method columns, each part led by
    the model column, every method once and in order, each column in its one format."""
    report, page, md = compare_report
    ranks = report.sections[0].tables["ranks"]
    assert ranks.shape[1] > WIDE_COLUMNS
    parts = column_parts(ranks)
    assert len(parts) == -(-(ranks.shape[1] - 1) // PART_COLUMNS)
    assert all(list(p.columns[:1]) == ["model"] for p in parts)
    assert all(2 <= p.shape[1] <= PART_COLUMNS + 1 for p in parts)
    assert [c for p in parts for c in p.columns[1:]] == list(ranks.columns[1:])
    assert all(p["model"].tolist() == ranks["model"].tolist() for p in parts)
    whole = {c: cells for c, _, cells in format_columns(ranks)}
    for p in parts:
        for c, _, cells in format_columns(p):
            assert cells == whole[c], c

    section = page.split("<h3>ranks</h3>", 1)[1].split("</section>", 1)[0]
    heads = re.findall(r"<thead><tr>(.*?)</tr></thead>", section)
    assert len(heads) == len(parts)
    for head, part in zip(heads, parts, strict=True):
        names = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", head)]
        assert names == [str(c) for c in part.columns]
    assert f"Part 1 of {len(parts)}: columns " in section and "each part repeating model" in section
    assert "pass_<wbr>at_<wbr>k_<wbr>2" in section  # a header breaks after an underscore
    # every table of the page and of the Markdown fits: none wider than WIDE_COLUMNS
    assert max(len(re.findall(r"<th", h)) for h in re.findall(r"<thead>.*?</thead>", page)) \
        <= WIDE_COLUMNS
    rows = [ln for ln in md.splitlines() if ln.startswith("| ")]
    assert max(ln.count(" | ") + 1 for ln in rows) <= WIDE_COLUMNS
    assert md.count("each part repeating model.") == len(parts)


def test_long_method_tables_show_what_differs_not_sixty_rows_of_ones(compare_report):
    """With the whole registry most methods rank exactly as the gold standard: the report's
    'agreement' printed its first 60 of ~77 rows -- τ_b = 1.0000 each -- and cut the methods
    that differ; 'consensus' printed 60 rows of one tied mean. The report lists the methods
    that differ and names the exact ones in one line; tied consensus rows share one row. The
    export keeps one row per method."""
    from scorio_core.definitions import ANALYSES

    report, page, md = compare_report
    sec = report.sections[0]
    agreement, consensus = sec.tables["agreement"], sec.tables["consensus"]
    exact = agreement.loc[agreement["exact"], "method"].tolist()
    assert len(agreement) > 60 and len(exact) > 10  # the export: every method
    shown = ANALYSES["compare"].shown_tables(sec.result)
    view = shown["agreement"]
    assert view.table["method"].tolist() == agreement.loc[~agreement["exact"], "method"].tolist()
    counted = [m for m in exact if m != "bayes"]  # the gold itself: not in n_tau_1
    assert f"The other {len(counted)} methods rank the models exactly as the gold standard" \
        in view.note and all(m in view.note for m in exact)
    assert len(counted) == sec.result.comparison.summary["n_tau_1"]
    part = page.split("<h3>agreement</h3>", 1)[1].split("<h3>", 1)[0]
    assert "<td>1.0000</td>" not in part and "First 60" not in part
    # consensus: one row per run of methods with the same numbers, every method named once
    cview = shown["consensus"].table
    assert len(cview) < len(consensus)
    named = [m for cell in cview["method"] for m in cell.split(": ", 1)[-1].split(", ")]
    assert sorted(named) == sorted(consensus["method"])
    for _, row in cview.iterrows():  # each row's numbers are those of every method in it
        members = row["method"].split(": ", 1)[-1].split(", ")
        rows = consensus[consensus["method"].isin(members)]
        np.testing.assert_allclose(rows["mean_tau_b"], row["mean_tau_b"], rtol=0, atol=1e-6)
        assert (rows["consensus_rank"] == row["consensus_rank"]).all()
    # no two neighbouring rows print the same numbers (a tie summed in another order once
    # split one run of tied methods into two rows)
    printed = [tuple(r) for r in cview[["consensus_rank", "mean_tau_b", "std_tau_b"]]
               .round(4).itertuples(index=False)]
    assert all(x != y for x, y in zip(printed, printed[1:], strict=False))
    assert "exact" not in shown["agreement"].table  # 'no' in every row it shows
    assert "export lists every method" in md


def test_a_column_with_no_value_in_any_row_is_named_not_printed(small_report):
    """In the questions scope the Planner's p_unsettled (a population-scope number) is blank
    in every row: the report printed a column of dashes. It names it in one line instead;
    the export keeps it."""
    report, page = small_report
    plan = next(s for s in report.sections if s.analysis.id == "plan")
    pairs = plan.tables["pairs"]
    assert pairs["p_unsettled"].isna().all() and "p_unsettled" in pairs
    part = page.split("<h3>pairs</h3>", 1)[1].split("<h3>", 1)[0]
    heads = re.findall(r"<th[^>]*>(.*?)</th>", part)
    assert "p_<wbr>unsettled" not in heads
    assert "Not shown, no value in any row: p_unsettled." in part
    md = to_markdown(report)
    assert "| p_unsettled |" not in md and "no value in any row: p_unsettled." in md


def test_our_sentences_write_a_column_as_code(small_report):
    """The could-be-first line's ``p_best`` and the leaderboard's caveat on
    ``trials_needed_papers`` were plain or quoted text beside sentences that write each
    column as code; the report shows them as code too, the terminal without the backticks."""
    from scorio_core.export import to_text

    report, page = small_report
    md = to_markdown(report)
    for said in ("; {} can run high there.", "({} is the papers"):
        column = "p_best" if "high" in said else "trials_needed_papers"
        assert said.format(f"<code>{column}</code>") in page
        assert said.format(f"`{column}`") in md
    board = report.sections[0].result.board
    head = " ".join(to_text(board).split("\n\n")[1].split())  # the sentences, unwrapped
    assert "; p_best can run high there." in head and "`" not in head


def test_the_plan_lists_its_pair_notes_under_the_pairs_table(small_report):
    """The report's pairs table had a ``note`` column of sentences (one row's ran the table
    past its page); as on the Planner page and in a plan's display, each note is said under
    the table, naming its pairs (``planner.pair_notes``), in the HTML, Markdown and notebook
    alike. The exports keep the column."""
    from scorio_core.formatting import md_prose
    from scorio_core.planner import pair_notes
    from scorio_core.report import to_notebook
    from scorio_core.report.html import prose

    report, page = small_report
    plan = next(s for s in report.sections if s.analysis.id == "plan")
    pairs = plan.tables["pairs"]  # what the CSV/JSON exports write
    assert "note" in pairs and (pairs["note"] != "").any()
    notes = pair_notes(pairs)
    # the pairs that share a note named together, each pair with a note named once
    named = [p for who, _ in notes for p in who.split(", ")]
    with_note = pairs[pairs["note"] != ""]
    assert sorted(named) == sorted(f"{b} vs {n}" for b, n in
                                   zip(with_note["better"], with_note["next"], strict=True))
    assert len(notes) == pairs.loc[pairs["note"] != "", "note"].nunique()
    part = page.split("<h3>pairs</h3>", 1)[1].split("<h3>", 1)[0]
    heads = re.findall(r"<th[^>]*>(.*?)</th>", part)
    assert "note" not in heads and "next" in heads
    said = re.findall(r'<p class="note">(.*?)</p>', part, flags=re.S)
    md = to_markdown(report)
    pairs_md = md.split("### pairs", 1)[1].split("###", 1)[0]
    assert "| note |" not in pairs_md and "| next |" in pairs_md
    for who, note in notes:  # each note once, under the table, in each rendering's escaping
        assert said.count(prose(f"{who}: {note}")) == 1, who
        assert pairs_md.split("\n").count(md_prose(f"{who}: {note}")) == 1, who
    # the notebook's cell ends on the same table and lines
    nb = to_notebook(report, "data.npz")
    cell = next(c for c in nb.cells if c.cell_type == "code" and "sc.plan(" in c.source)
    assert cell.source.endswith('sc.display.show(planned.pairs.drop(columns="note"), '
                                "note=notes)")
    assert "sc.planner.pair_notes(planned.pairs)" in cell.source



def test_the_rubric_section_says_its_note_and_slices_under_the_tau_table(data_dir):
    """The report's τ table carried a ``note`` column (one sentence, the same in every row)
    and an ``n_slices`` column of N in every row, while the Rubric page said both under the
    table. The definition's view (``tau_view``) now shapes it once: the HTML, the Markdown
    and the notebook's cell show the page's columns and its lines; the exports keep both
    columns."""
    from scorio_core import io
    from scorio_core.definitions import ANALYSES
    from scorio_core.display import legend_markdown
    from scorio_core.formatting import md_prose
    from scorio_core.report import to_notebook
    from scorio_core.report.html import prose

    data = io.load(data_dir / "reasoning_synthetic.npz").select("AIME'24")
    report = build_report(data, [("rubric", {"schemes": ("ranking/conservative",
                                                         "dontpass/format-aware")})])
    (sec,) = report.sections
    tau = sec.tables["tau"]  # what the CSV/JSON exports write
    assert {"note", "n_slices"} <= set(tau) and (tau["n_slices"] == data.N).all()
    view = sec.shown["tau"]
    page = ANALYSES["rubric"].shown_tables(sec.result)["tau"]  # what the page renders
    assert page.note == view.note and page.table.equals(view.table)
    lines = list(view.note)
    assert lines[0].startswith(f"Columns ending in _mean: Kendall τ_b averaged over the {data.N} "
                               "single-trial")
    assert lines[1:] == [f"Note: {tau['note'].iloc[0]}."]  # said once, not per row
    part = to_html(report).split("<h3>tau</h3>", 1)[1].split("<h3>", 1)[0]
    heads = [h.replace("<wbr>", "") for h in re.findall(r"<th(?: [^>]*)?>(.*?)</th>", part)]
    assert heads == [c for c in tau if c not in ("note", "n_slices")]
    assert re.findall(r'<p class="note">(.*?)</p>', part, flags=re.S) == [prose(n)
                                                                          for n in lines]
    md = to_markdown(report).split("### tau", 1)[1].split("###", 1)[0]
    assert md.split("\n")[2].startswith("| scheme | categories | tau_gs_mean")
    assert "| note" not in md and "| n_slices" not in md
    legend = legend_markdown(view.table.columns, ANALYSES["rubric"].column_help("tau"))
    assert [x for x in md.split("\n") if x and not x.startswith("|")] == [
        md_prose(n) for n in lines] + legend.split("\n")  # then what columns hold
    # the notebook's cell ends on the same view
    cell = next(c for c in to_notebook(report, "data.npz").cells
                if c.cell_type == "code" and "categorical_ranking(" in c.source)
    assert cell.source.endswith("sc.display.show(tau_view(tau, data.N))")


def test_a_value_and_its_interval_stay_in_one_part():
    # a wide Pass@k summary (value, lo, hi per curve and k) was split every ~10 columns,
    # which could put a value in one part and its lo/hi in the next
    import pandas as pd

    from scorio_core.report._build import PART_COLUMNS, column_parts

    cols = {f"Pass@{k}{s}": [0.5] for k in (1, 2, 4, 8, 16, 32, 64) for s in ("", " lo", " hi")}
    wide = pd.DataFrame({"model": ["a"]} | cols)
    parts = column_parts(wide)
    assert len(parts) > 1 and all(p.shape[1] - 1 <= PART_COLUMNS for p in parts)
    for p in parts:
        names = list(p.columns[1:])
        assert all(f"{n} lo" in names and f"{n} hi" in names for n in names if " " not in n)
    assert [c for p in parts for c in p.columns[1:]] == list(cols)


#: Every section, with settings that keep a report on a bundled dataset to seconds; none of
#: them sets a setting that may be left unset, so each section's unset ones stay unset.
FAST = {"leaderboard": {"draws": 500}, "compare": {"methods": "bayes,avg,bradley_terry"},
        "convergence": {"replicates": 200, "curve_replicates": 50},
        "stability": {"methods": "bayes,avg"}, "greedy": {"replicates": 5},
        "plan": {"sims": 200, "draws": 500}, "check": {"reps": 10, "draws": 100},
        "coins": {"replicates": 50, "N": 16}, "prior-depth": {"replicates": 200},
        "order": {"sims": 200}, "calibration": {"replicates": 200, "M_values": (10,)}}


@pytest.mark.parametrize("name", ["biased_coins.npz", "jhu_llm_temperature.parquet",
                                  "reasoning_synthetic.npz"])
def test_no_settings_line_of_a_bundled_report_says_a_bare_default(data_dir, name):
    """"Prior outcomes (`R0`): default" (the rubric lesson: no prior outcomes), "G-Pass τ
    (`tau`): default" (no G-Pass curve), "Largest N (`n_max`): 4,096 (default)": every setting
    left unset now says what unset means -- its declared word, or what the run took -- in
    every section and every simulation study of a report on each bundled dataset, and the
    Markdown report and its notebook print the same line."""
    from scorio_core import io
    from scorio_core.definitions import SECTIONS
    from scorio_core.params import is_unset, settings_of
    from scorio_core.report import to_notebook
    from scorio_core.report._build import settings_items, settings_text
    from scorio_core.report.markdown import _md_cell

    data = io.load(data_dir / name)
    ids = [i for i in SECTIONS if name == "biased_coins.npz" or SECTIONS[i].uses_data]
    report = build_report(data, [(i, FAST.get(i, {})) for i in ids])
    md = to_markdown(report)
    cells = "\n".join(c.source for c in to_notebook(report, data_dir / name).cells)
    ran, unset = 0, 0
    for s in report.sections:
        ran += s.error is None
        declared = settings_of(type(s.params))
        for item in settings_items(s):
            where = (name, s.analysis.id, item.name, item.value)
            assert item.value.strip() and "default" not in item.value, where
            assert "None" not in item.value and item.value != "not set", where
            if item.name in declared and is_unset(getattr(s.params, item.name)):
                unset += 1
                assert item.value != "none" or declared[item.name][1].unset == "none", where
        line = f"Settings: {settings_text(s, _md_cell)}."  # as both print a section that ran
        assert "default" not in line and (s.error is not None or line in md and line in cells)
    assert ran >= len(ids) - 3 and unset >= 8


def test_what_a_click_or_a_hover_shows_is_said_where_the_chart_answers_it():
    """The Pass@k caption said "(in the app, click a line or its legend entry to see its
    band)" and the heatmap's "hover a cell" in every rendering, a static report's too, where
    nothing answers a click. A chart says it where it is drawn live -- a page, a notebook
    report's chart cell -- and the HTML and Markdown reports, whose charts are pictures, do
    not. The heatmap says it itself, under its legend, only where its cells carry no
    numbers (the width it is drawn at decides); its pictures never."""
    from scorio_core.report import to_notebook

    rng = np.random.default_rng(0)
    R = (rng.random((8, 30, 4)) < np.linspace(0.8, 0.3, 8)[:, None, None]).astype(int)
    report = build_report(Outcomes(R), ["leaderboard", "curves"])
    charts = {c.title: c for s in report.sections for c in s.charts}
    curve, heat = charts["Every k, with intervals"], charts["Pairwise probabilities"]
    assert "in grey the other 2, without a band:" in curve.caption  # 8 models, 6 in colour
    assert curve.interactive.startswith("Click a line or its legend entry")
    assert heat.interactive is None  # the chart's own line, live and where it has no numbers
    for c in (curve, heat):
        assert not re.search(r"(?i)click|hover|in the app", c.caption), c.caption
    for text in (to_html(report), to_markdown(report)):
        assert "in grey the other 2, without a band" in text
        assert not re.search(r"(?i)\bclick|\bhover|in the app", text)
    cells = [c.source for c in to_notebook(report, "data.npz").cells]
    for c in (curve, heat):  # said above the cell that draws the chart live
        i = next(i for i, src in enumerate(cells) if src.startswith(f"**{c.title}.**"))
        assert cells[i].endswith(c.live_caption)
        assert cells[i + 1].startswith("charts.")
    # the heatmap drawn live (the notebook's cell) is the chart that says "hover" itself
    spec = heat.chart.to_dict()
    note = next(q["expr"] for q in spec["params"] if q["name"] == spec["title"]["text"]["expr"])
    assert "Too small here for the cells" in note
