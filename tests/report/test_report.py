"""Reports: the HTML file is complete, self-contained and escaped; Markdown and the CLI write
what they say; the exported notebook runs on a fresh kernel and reproduces the numbers."""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.definitions import ANALYSES
from scorio_core.definitions.provenance import attach_source
from scorio_core.report import build_report, escape, to_html, to_markdown, write_report

XSS = "<img src=x onerror=alert(1)>"
SMALL = [
    ("leaderboard", {"ks": (2,)}),
    ("compare", {"methods": "bayes,avg,borda,bradley_terry"}),
    ("convergence", {"methods": "bayes,pass_at_k_2", "replicates": 200, "curve_replicates": 30,
                     "seed": 5}),
    ("stability", {"methods": "bayes,avg,borda"}),
    ("greedy", {"replicates": 6, "seed": 2}),
    ("rubric", {"schemes": ("ranking/conservative", "dontpass/format-aware")}),
    ("plan", {"budget_trials": 10, "n_max": 32, "sims": 300, "seed": 3}),
    ("pair", {"top": 5}),
    ("questions", {"top": 5}),
    ("curves", {"tau": 0.5}),
    ("check", {"reps": 20, "questions": 15, "draws": 500, "seed": 1}),
    ("rubric-lesson", {"weights": (0.0, 0.25, 1.0), "R0": ((2,), (1,))}),  # a simulation study
]


def _external_refs(page: str) -> list[str]:
    pats = [r"https?://", r"""src\s*=\s*["']?//""", r"""href\s*=\s*["']?//""", r"<script",
            r"<link", r"@import", r"""url\(\s*["']?(?!#)"""]
    return [p for p in pats if re.search(p, page, flags=re.I)]


@pytest.fixture(scope="module")
def bundled(data_dir):
    path = data_dir / "reasoning_synthetic.npz"
    data = attach_source(io.load(path), path).select("AIME'25")
    report = build_report(data, SMALL, title=f"Report {XSS} & co")
    return path, data, report, to_html(report)


@pytest.fixture(scope="module")
def long_csv(tmp_path_factory) -> Path:
    """A long table with greedy rows, two benchmarks and one numeric signal column."""
    rng = np.random.default_rng(12)
    rows = []
    skill = {"alpha-7b": 0.75, "beta 13b": 0.55, "gamma_v2": 0.35, "delta.1": 0.5}
    for m, p in skill.items():
        for q in range(16):
            bench = "setA" if q < 8 else "setB"
            for t in range(6):
                y = int(rng.random() < p)
                rows.append((m, f"q{q}", t, y, "sample", bench, rng.random()))
            rows.append((m, f"q{q}", 0, int(rng.random() < p), "greedy", bench, rng.random()))
    df = pd.DataFrame(rows, columns=["model", "question", "trial", "outcome", "decoding",
                                     "benchmark", "latency"])
    path = tmp_path_factory.mktemp("csv") / "my runs.csv"
    df.to_csv(path, index=False)
    return path


def test_bundled_report_has_every_section_and_model(bundled):
    _, data, report, page = bundled
    for a in ANALYSES.values():
        assert f"{escape(a.title)}</h2>" in page, a.id
        assert escape(a.how_to_read) in page
    for m in data.models:
        assert escape(m) in page, m
    assert all(s.error is None for s in report.sections)
    n_charts = sum(c.empty is None for s in report.sections for c in s.charts)
    assert page.count("<svg") == n_charts >= 10
    # a chart with nothing to show (no replicate converged) is replaced by why, not drawn flat
    for c in (c for s in report.sections for c in s.charts if c.empty is not None):
        assert escape(c.empty) in page
    assert "Synthetic data — not real model outputs." in page
    assert "Scope: " in page and "questions scope" in page and "@media print" in page


def test_every_table_of_a_report_says_what_its_columns_hold(bundled):
    """Only the leaderboard's columns were explained anywhere (the notebook); a report's
    tables came with no word on sd_models, se_trials or tau_gs_mean. Under every table the
    report shows, its "Columns:" legend: each line the definition's one declaration, the
    same text the notebook's display prints (the HTML), and as Markdown in the Markdown
    report and in the notebook, after the cell that shows the section's table."""
    from scorio_core.display import column_legend, legend_markdown, readable
    from scorio_core.report.notebook import to_notebook

    _, data, report, page = bundled
    md = to_markdown(report)
    shown = 0
    for s in report.sections:
        for name, view in s.shown.items():
            df, _ = readable(view)
            lines = column_legend(df.columns, s.analysis.column_help(name))
            if len(df) and lines:
                shown += 1
                legend = "<br>".join(f"<code>{escape(c)}</code> {escape(m)}" for c, m in lines)
                assert f"<strong>Columns:</strong><br>{legend}</p>" in page, (s.analysis.id, name)
                assert legend_markdown(df.columns, s.analysis.column_help(name)) in md
    assert shown >= 20  # every section has at least one table with a legend
    assert "<code>sd_models</code> " + escape("s.d. of the models' mean scores") in page
    cells = [c.source for c in to_notebook(report, "data.npz").cells
             if c.cell_type == "markdown" and c.source.startswith("**Columns:**")]
    pair = next(s for s in report.sections if s.analysis.id == "pair")
    summary, _ = readable(pair.shown["summary"])
    assert legend_markdown(summary.columns, pair.analysis.column_help("summary")) in cells


def test_bundled_report_is_self_contained(bundled):
    page = bundled[3]
    assert _external_refs(page) == []
    assert "default-src 'none'" in page  # the CSP forbids any fetch even if something slipped
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))  # inlined charts do not share gradient/clip ids
    refs = set(re.findall(r"url\(#([^)]+)\)", page))
    assert refs and refs <= set(ids)


def test_titles_and_names_are_escaped(bundled, long_csv):
    page = bundled[3]
    assert XSS not in page and "<img" not in page
    assert html.escape(f"Report {XSS} & co") in page
    # a dataset name (free text, unlike model names) arrives escaped everywhere it is shown
    data = io.load(long_csv, name=f"runs {XSS}")
    rep = build_report(data, ["leaderboard"], title="t")
    out = to_html(rep)
    assert XSS not in out and "&lt;img src=x onerror=alert(1)&gt;" in out
    md = to_markdown(rep)
    assert XSS not in md and "&lt;img" in md
    assert escape('"><script>x</script>') == "&quot;&gt;&lt;script&gt;x&lt;/script&gt;"


def test_provenance_block(bundled):
    path, _, report, page = bundled
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest in page and "reasoning_synthetic.npz" in page
    prov = report.provenance
    assert prov["benchmark"] == "AIME'25" and prov["input"]["sha256"] == digest
    assert prov["settings"]["convergence"]["replicates"] == 200
    assert prov["seeds"] == {"check.seed": 1, "convergence.seed": 5, "greedy.seed": 2,
                             "leaderboard.seed": 0, "plan.seed": 3}


def test_long_csv_report(long_csv):
    data = attach_source(io.load(long_csv), long_csv)
    report = build_report(data, SMALL, title="CSV report")
    page = to_html(report)
    for a in ANALYSES.values():
        assert f"{escape(a.title)}</h2>" in page, a.id
    for m in ("alpha-7b", "beta 13b", "gamma_v2", "delta.1"):
        assert m in page
    errors = {s.analysis.id: s.error for s in report.sections if s.error}
    # the rubric presets read signals this file lacks: the section says why, nothing crashes
    assert list(errors) == ["rubric"]
    assert f"Not computed for these data: {escape(errors['rubric'])}" in page
    assert "my runs.csv" in page
    assert hashlib.sha256(long_csv.read_bytes()).hexdigest() in page
    assert page.count("<svg") == sum(c.empty is None for s in report.sections for c in s.charts)
    assert _external_refs(page) == []


def test_cli_report(long_csv, tmp_path):
    out = tmp_path / "b.html"
    assert main(["report", str(long_csv), "--benchmark", "setB", "--sections", "leaderboard",
                 "--title", "CSV <b>report</b>", "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "8 questions" in page and "CSV &lt;b&gt;report&lt;/b&gt;" in page
    assert "setB" in page and "<b>" not in page


def test_a_report_of_one_benchmark_names_it_once(long_csv, tmp_path, capsys):
    """`scorio-studio report FILE --benchmark B` selected B twice (the loader, then the
    report again), so the title, the subtitle, the chart files and the notebook read
    'my runs [setB] [setB]'; the notebook's load cell did the same and must load data of
    the report's name and shape."""
    nbformat = pytest.importorskip("nbformat")
    out = tmp_path / "one.md"
    assert main(["report", str(long_csv), "--benchmark", "setB", "--sections", "leaderboard",
                 "--out", str(out)]) == 0
    md = out.read_text(encoding="utf-8")
    assert md.splitlines()[0] == "# Scorio Studio report: my runs \\[setB\\]"
    assert "[setB] [" not in md.replace("\\", "") and "setB_setB" not in md
    assert main(["report", str(long_csv), "--benchmark", "setB", "--sections", "leaderboard",
                 "--out", str(tmp_path / "one.ipynb")]) == 0
    capsys.readouterr()
    nb = nbformat.read(tmp_path / "one.ipynb", as_version=4)
    # the title as the Markdown report writes it (a Markdown cell: the name's brackets escaped)
    assert nb.cells[0].source.startswith("# Scorio Studio report: my runs \\[setB\\]\n")
    ns: dict = {}
    cwd = Path.cwd()
    try:
        import os

        os.chdir(tmp_path)  # the notebook reads its data relative to its own folder
        exec(nb.cells[1].source, ns)
    finally:
        os.chdir(cwd)
    assert ns["data"].name == "my runs [setB]" and ns["data"].shape == (4, 8, 6)


def test_a_report_of_one_benchmark_names_it_in_the_greedy_table(bundled, capsys):
    """A one-benchmark report's greedy table read 'data = combined' (nothing was combined):
    the report, its Markdown and the CLI's export name the benchmark (the notebook shows the
    report's table: test_notebook_runs_and_reproduces_numbers)."""
    path, _, report, page = bundled
    greedy = next(s for s in report.sections if s.analysis.id == "greedy")
    assert greedy.tables["table"]["data"].tolist() == ["AIME'25"]
    rows = [r for h, r in _grids(page) if h[:2] == ["data", "mean_accuracy"]]
    assert [[row[0] for row in r] for r in rows] == [["AIME'25"]]
    assert "| AIME'25 | " in to_markdown(report) and "| combined |" not in to_markdown(report)
    assert main(["greedy", str(path), "--benchmark", "AIME'25", "--replicates", "6", "--seed",
                 "2", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["data"] for r in out["table"]] == ["AIME'25"]
    assert out["table"][0]["delta_tau"] == pytest.approx(
        greedy.tables["table"]["delta_tau"].iloc[0], abs=1e-12)


def test_the_pass_at_k_section_prints_every_model_not_sixty_rows_of_one(data_dir):
    """Every k of the Pass@k curves (models × curves × N rows) printed only its first 60
    rows -- one model's first curve. The report prints the one-row-per-model summary and says
    in one line where every k is; the export keeps the long table."""
    data = io.load(data_dir / "biased_coins.npz")  # 11 models × 80 trials: 1,760 rows
    report = build_report(data, ["curves"])
    s = report.sections[0]
    assert len(s.tables["curves"]) == 11 * 2 * 80 and s.shown["curves"].table.empty
    note = s.shown["curves"].note
    assert note.startswith("Not printed: every k (1,760 rows: 11 models × 2 curves × k = 1 … "
                           "80) is drawn in the chart above")
    assert "the CSV/JSON export lists every k" in note
    page, md = to_html(report), to_markdown(report)
    for text in (page, md):
        assert "First 60" not in text
    assert f'<h3>curves</h3><p class="note">{escape(note)}</p>' in page
    assert f"### curves\n\n{note}\n" in md
    parts = [r for h, r in _grids(page) if h[0] == "model" and h[1].startswith("Pass")]
    assert len(parts) >= 2  # 45 value columns: printed in parts, each with every model once
    assert all(sorted(row[0] for row in r) == sorted(data.models) for r in parts)


def test_cli_refuses_bad_requests(long_csv, tmp_path, capsys):
    assert main(["report", str(long_csv), "--out", str(tmp_path / "r.pdf")]) == 2
    assert "must end in .html, .md, .ipynb" in capsys.readouterr().err
    assert main(["report", str(long_csv), "--sections", "leaderboard,plot",
                 "--out", str(tmp_path / "r.html")]) == 2
    assert "sections must be" in capsys.readouterr().err


def test_sections_as_one_comma_separated_string(tmp_path):
    """sc.report(data, "x.html", sections="leaderboard,plan") failed with "unknown analysis
    'l'": the string was iterated letter by letter. A newcomer writes it so because the CLI
    takes a comma list (and sc.compare(methods="a,b") a string): it reads as --sections does
    (parse_sections), the same report as the list; a typo or a stray item is refused with a
    message that names it, never letter by letter."""
    import scorio_core as sc
    from scorio_core._validation import ValidationError

    rng = np.random.default_rng(4)
    R = (rng.random((3, 12, 4)) < np.array([0.8, 0.6, 0.4])[:, None, None]).astype(int)
    data = sc.Outcomes(R, models=["m-a", "m-b", "m-c"], name="toy")
    path = sc.report(data, tmp_path / "x.md", sections="leaderboard, plan")
    as_list = build_report(data, ["leaderboard", "plan"])
    as_text = build_report(data, "leaderboard,plan")
    assert [s.analysis.id for s in as_text.sections] == ["leaderboard", "plan"]
    assert all(s.error is None for s in as_text.sections)
    assert as_text.provenance["settings"] == as_list.provenance["settings"]
    pd.testing.assert_frame_equal(as_text.sections[1].tables["pairs"],
                                  as_list.sections[1].tables["pairs"])
    md = path.read_text(encoding="utf-8")
    assert "## 1. CI-aware leaderboard" in md and "## 2. Planner" in md
    assert build_report(data, "questions").sections[0].analysis.id == "questions"
    with pytest.raises(ValidationError, match=r"unknown: 'leaderbord' \(did you mean "
                                              r"'leaderboard'\?\)") as e:
        sc.report(data, tmp_path / "y.html", sections="leaderbord,plan")
    assert "'l'" not in str(e.value)
    with pytest.raises(ValidationError, match="unknown analysis 'leaderbord'; did you mean"):
        build_report(data, ["leaderbord"])
    # one (id, settings) pair given bare is two items, the second no section: said as such
    with pytest.raises(ValidationError, match="each section is an analysis id or an "
                                              r"\(id, settings\) pair.*got dict"):
        build_report(data, ("plan", {"confidence": 0.9}))
    assert not (tmp_path / "y.html").exists()
    # make_report (a path) refuses the typo before it loads anything
    with pytest.raises(ValidationError, match="leaderbord"):
        sc.make_report(tmp_path / "missing.csv", tmp_path / "z.html", sections="leaderbord")


def test_markdown_writes_chart_files(bundled, tmp_path):
    from dataclasses import replace

    report = replace(bundled[2], sections=bundled[2].sections[:2])  # fewer charts to render
    out = write_report(report, tmp_path / "rep.md")
    text = out.read_text(encoding="utf-8")
    links = re.findall(r"!\[[^\]]*\]\((rep_charts/[^)]+\.svg)\)", text)
    assert len(links) == sum(len(s.charts) for s in report.sections)
    assert all((tmp_path / link).read_text().startswith("<svg") for link in links)
    for sec in report.sections:
        assert f". {sec.analysis.title}" in text
        for name in sec.tables:
            assert f"### {name}" in text
    assert "## Provenance" in text


# ----------------------------------------------------------------------------- notebook
KEY_NUMBERS = """
import json
numbers = {
    "mu": board.table["score"].tolist(),
    "agreement": cmp.agreement["tau_b"].tolist(),
    "conv_mean_trials_censored": summary["mean_trials_censored"].tolist(),
    "curves_mean": curves["mean"].tolist(),
    "stab_gold": stab.table["gold_mean"].tolist(),
    "greedy_delta": greedy_result.tables()["table"]["delta_tau"].tolist(),
    "rubric_tau_self": tau["tau_self_mean"].tolist(),
    "plan_trials_needed": planned.pairs["trials_needed"].tolist(),
    "plan_extra": planned.allocation["extra_trials"].tolist(),
    "plan_p_correct": order.p_correct.tolist(),
    "plan_z_mean": order.z_mean.tolist(),
    "plan_decided": [float(v) for v in decided],
    "lesson": [lesson.mu, lesson.sigma],
    "pair_diff": pair_cmp.summary["diff"].tolist(),
    "pair_se": pair_cmp.summary["se"].tolist(),
    "question_disagreement": stats.table["disagreement"].tolist(),
    "passk_hi": passk.table["hi"].tolist(),
}
with open("numbers.json", "w") as f:
    json.dump(numbers, f)
"""


def test_notebook_runs_and_reproduces_numbers(bundled, tmp_path, kernel_env):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    path, _, report, _ = bundled
    nb_path = write_report(report, tmp_path / "rep.ipynb", data_path=path)
    nb = nbformat.read(nb_path, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    # public calls only: no private module or name of scorio_core is imported
    imports = re.findall(r"^from (scorio_core\S*) import (.+)$", code, flags=re.M)
    assert imports
    for module, names in imports:
        assert not any(p.startswith("_") for p in module.split(".")), module
        assert not any(n.strip().startswith("_") for n in names.split(",")), names
    nb.cells.append(nbformat.v4.new_code_cell(KEY_NUMBERS))
    nbclient.NotebookClient(
        nb, timeout=240, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    got = json.loads((tmp_path / "numbers.json").read_text())
    s = {x.analysis.id: x for x in report.sections}
    want = {
        "mu": s["leaderboard"].result.board.table["score"],
        "agreement": s["compare"].result.comparison.agreement["tau_b"],
        "conv_mean_trials_censored": s["convergence"].result.summary["mean_trials_censored"],
        "curves_mean": s["convergence"].result.curves["mean"],
        "stab_gold": s["stability"].result.stability.table["gold_mean"],
        "greedy_delta": s["greedy"].tables["table"]["delta_tau"],
        "rubric_tau_self": s["rubric"].result.tau["tau_self_mean"],
        "plan_trials_needed": s["plan"].result.plan.pairs["trials_needed"],
        "plan_extra": s["plan"].result.plan.allocation["extra_trials"],
        "plan_p_correct": s["plan"].result.curve.p_correct,
        "plan_z_mean": s["plan"].result.curve.z_mean,
        "plan_decided": s["plan"].result.curve.p_decided,
        "lesson": [s["rubric-lesson"].result.mu, s["rubric-lesson"].result.sigma],
        "pair_diff": s["pair"].result.comparison.summary["diff"],
        "pair_se": s["pair"].result.comparison.summary["se"],
        "question_disagreement": s["questions"].result.stats.table["disagreement"],
        "passk_hi": s["curves"].result.curves.table["hi"],
    }
    for k, v in want.items():
        np.testing.assert_allclose(np.asarray(got[k], float), np.asarray(v, float), rtol=0,
                                   atol=1e-12, err_msg=k)
    # every chart cell produced a chart (a chart with nothing to show is a note instead)
    outs = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("charts.")]
    assert len(outs) == sum(c.empty is None for x in report.sections for c in x.charts)
    assert all(c.outputs for c in outs)
    # each section's cell ends by showing its table as the HTML report prints it: the same
    # columns and, row by row, the same cell texts ("—" for a missing value, counts whole,
    # one format per column) -- not a raw DataFrame's NaN, 425.0 and 0.912345
    printed = _grids(bundled[3])
    shown = [c for c in nb.cells if c.cell_type == "code" and c.source.rsplit("\n", 1)[-1]
             .startswith("sc.display.show(")]
    assert len(shown) == len(report.sections)
    for cell in shown:
        out = [o["data"]["text/html"] for o in cell.outputs
               if o.get("output_type") == "display_data"]  # sc.display.show displays it
        assert out, cell.source
        assert "NaN" not in out[0] and ">nan<" not in out[0].lower()
        for head, rows in _grids(out[0]):  # a wide table: the report's parts, one table each
            assert rows and any(h == head and r[:len(rows)] == rows for h, r in printed), (
                cell.source.rsplit("\n", 1)[-1], head, rows[:2])
    # a table the report prints in parts (the Pass@k summary, a column per curve, k and
    # bound) shows in the same parts on the kernel, each with the report's line above it --
    # not as one table that scrolls sideways
    i = next(i for i, x in enumerate(report.sections, 1) if x.analysis.id == "curves")
    section = bundled[3].split(f'<section id="s{i}">', 1)[1].split("</section>", 1)[0]
    section = section.split("<h3>summary</h3>", 1)[1].split("<h3>", 1)[0]
    out, = [o["data"]["text/html"] for c in shown if "passk" in c.source for o in c.outputs
            if o.get("output_type") == "display_data"]
    lines = re.findall(r'<p class="note">(Part \d+ of \d+: [^<]*)</p>', section)
    assert len(lines) >= 3 and _grids(out) == _grids(section)
    assert re.findall(r"<caption>(Part \d+ of \d+: [^<]*)</caption>", out) == lines


def _grids(page: str) -> list[tuple[list[str], list[list[str]]]]:
    """Every HTML table of ``page`` as (header, body rows) of cell texts, tags stripped (a
    report's header may break after an underscore) and a row that says how many rows were
    left out dropped."""
    out = []
    for table in re.findall(r"<table>(.*?)</table>", page, flags=re.S):
        head = [html.unescape(re.sub(r"<[^>]+>", "", c))
                for c in re.findall(r"<th[^>]*>(.*?)</th>", table, flags=re.S)]
        rows = [[html.unescape(re.sub(r"<[^>]+>", "", c))
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", r, flags=re.S)]
                for r in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[-1], flags=re.S)]
        out.append((head, [r for r in rows if r and not r[0].startswith("… ")]))
    return out


def _section_grids(page: str, name: str) -> list[tuple[list[str], list[list[str]]]]:
    """The report's table ``name`` (after its ``<h3>``, up to the next heading)."""
    return _grids(page.split(f"<h3>{name}</h3>", 1)[1].split("<h3>", 1)[0])


def test_the_pair_section_shows_the_questions_own_texts_once(tmp_path, data_dir):
    """The Pair page and the CLI show the chosen question's input and target once, above its
    repeats; the report's pair section never showed them. The report (HTML and Markdown),
    the notebook's cell and the result's own display print them once, in the 'question'
    table before the flips, a text longer than TEXT_CELL cut with a line that says from how
    many characters; the CSV/JSON export holds them whole. Data without them show none."""
    from scorio_core.definitions.pair import TEXT_CELL
    from scorio_core.definitions.provenance import export_file

    pair = ANALYSES["pair"]
    long_input = "Question 0: " + " ".join(f"term{i} plus" for i in range(400)) + " equals?"
    assert len(long_input) > TEXT_CELL
    rows = [{"model": m, "question": f"q{q}", "trial": t, "outcome": int((q + t + i) % 3 > 0),
             "input": long_input if q == 0 else f"Question {q}: {q} + {q}?",
             "target": f"x={2 * q}", "answer": f"x={(q * t + i) % 3}"}
            for i, m in enumerate(("alpha", "beta")) for q in range(4) for t in range(3)]
    pd.DataFrame(rows).to_csv(tmp_path / "texts.csv", index=False)
    data = io.load(tmp_path / "texts.csv")
    params = pair.params(question="q0")
    report = build_report(data, [("pair", params)])
    page, md = to_html(report), to_markdown(report)
    section = page.split('<section id="s1">', 1)[1].split("</section>", 1)[0]
    assert re.findall(r"<h3>([^<]+)</h3>", section)[-4:] == [
        "questions", "question_texts", "flips", "repeats"]
    cut = long_input[:TEXT_CELL] + " [...]"
    question = [(["question", "input", "target"], [["q0", cut, "x=0"]])]
    assert _section_grids(section, "question_texts") == question
    said = f"input: its first {TEXT_CELL:,} of {len(long_input):,} characters; the CSV/JSON " \
           "export has it whole."
    assert escape(said) in section and said in md
    assert page.count("term399") == md.count("term399") == 0  # past the cut: printed nowhere
    # the notebook's cell ends by showing the report's summary, then the question's texts
    body, last = pair.to_code(params, "data").rsplit("\n", 1)
    ns = {"data": data}
    exec(body, ns)
    cell = eval(last.replace("sc.display.show(", "sc.display.as_table("), ns)._repr_html_()
    assert _grids(cell) == _section_grids(section, "summary") + question
    assert escape(said) in cell
    # the result's own display: the same, in HTML and in its text repr
    result = report.sections[0].result
    shown = _grids(result._repr_html_())
    assert shown[0] == _section_grids(section, "summary")[0] and shown[1:] == question
    assert escape(said) in result._repr_html_() and said in repr(result)
    # the export: whole
    tables = json.loads(export_file(pair, data, params, result, "json"))["tables"]
    assert tables["question_texts"] == [{"question": "q0", "input": long_input, "target": "x=0"}]
    # without texts: no such table, and the cell shows the summary alone
    coins = io.load(data_dir / "biased_coins.npz")
    plain = build_report(coins, ["pair"])
    assert "question_texts" not in plain.sections[0].tables
    assert "<h3>question_texts</h3>" not in to_html(plain)
    ns = {"data": coins}
    body, last = pair.to_code(pair.params(), "data").rsplit("\n", 1)
    exec(body, ns)
    last = last.replace("sc.display.show(", "sc.display.as_table(")  # what it displays
    assert len(_grids(eval(last, ns)._repr_html_())) == 1


def test_notebook_refuses_a_changed_file(data_dir, tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    src = tmp_path / "data" / "coins.npz"
    src.parent.mkdir()
    src.write_bytes((data_dir / "biased_coins.npz").read_bytes())
    data = attach_source(io.load(src), src)
    nb = write_report(build_report(data, ["leaderboard"]), tmp_path / "n.ipynb", data_path=src)
    cell = nbformat.read(nb, as_version=4).cells[1].source
    # the file relative to the notebook (no machine's absolute path: it can be sent along)
    assert "path = Path('data/coins.npz')" in cell and str(tmp_path) not in cell
    monkeypatch.chdir(tmp_path)  # Jupyter runs a notebook in its own folder
    ns: dict = {}
    exec(cell, ns)  # the load cell runs as plain Python and checks the hash
    assert ns["data"].shape == data.shape
    src.write_bytes(src.read_bytes() + b"\0")
    with pytest.raises(ValueError, match="sha256 differs"):
        exec(cell, {})


def test_a_notebook_report_of_a_folder_of_logs_loads_the_folder_again(tmp_path, monkeypatch):
    """``scorio-studio report FOLDER --out r.ipynb`` was refused ("a notebook report loads one
    file"). The notebook loads the folder by its path relative to the notebook, with the same
    loader options (here the Inspect C/P/I logs counted correct from C), and checks the
    sha256 of every log it reads; a folder that no longer holds those logs is refused.
    ``sc.report`` of data loaded from the folder writes the same first cell."""
    import shutil

    nbformat = pytest.importorskip("nbformat")
    logs = tmp_path / "runs" / "cpi"
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect"
                    / "passk_cpi", logs)
    out = tmp_path / "reports" / "r.ipynb"
    out.parent.mkdir()
    assert main(["report", str(logs), "--out", str(out), "--sections", "leaderboard",
                 "--correct", "C"]) == 0
    cell = nbformat.read(out, as_version=4).cells[1].source
    assert "path = Path('../runs/cpi')  # a folder: every file in it" in cell
    assert "data = sc.load(path, correct=('C',))" in cell and str(tmp_path) not in cell
    want = io.load(logs, correct=["C"])
    monkeypatch.chdir(out.parent)  # Jupyter runs a notebook in its own folder
    ns: dict = {}
    exec(cell, ns)  # loads the folder and checks every log's sha256
    assert ns["data"].is_binary and np.array_equal(ns["data"].R, want.R)
    # loaded data remember the folder: sc.report writes the same cell (with their options)
    import scorio_core as sc

    again = tmp_path / "reports" / "again.ipynb"
    sc.report(sc.load(logs, correct=["C"]), again, sections=["leaderboard"],
              options=io.LoadOptions(correct=["C"]))
    assert nbformat.read(again, as_version=4).cells[1].source == cell
    # a folder that no longer holds the same logs: refused, not silently other numbers
    shutil.copy(sorted(logs.glob("*.eval"))[0], logs.parent / "elsewhere.eval")
    sorted(logs.glob("*.eval"))[0].unlink()
    with pytest.raises(ValueError, match="not the files this report was made from"):
        exec(cell, {})


def test_a_notebook_report_loads_the_file_again_with_the_options_the_data_were_loaded_with(
        tmp_path, kernel_env, monkeypatch):
    """Audit 4, finding 2: ``sc.report(sc.load("my3.csv", weights=[0, 0.5, 1]), "r.ipynb")``
    re-read the file without its weights and raised the loader's "give weights=...", which
    sc.report does not take (nor ``on_missing=`` for a table with fewer trials). Loaded data
    remember their loader options, so the notebook loads the file the same way and runs top
    to bottom; where the re-read still fails (options given that lack the weights), the
    advice is in sc.report's own terms (``options=sc.io.LoadOptions(weights=...)``); data
    made in code are told to write a file first (``sc.io.save_npz``), and that works."""
    import scorio_core as sc

    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    rng = np.random.default_rng(5)
    rows = [(m, f"q{j}", t, int(rng.integers(0, 3))) for m in ("a", "b", "c")
            for j in range(12) for t in range(3)]
    graded = pd.DataFrame(rows, columns=["model", "question", "trial", "outcome"])
    (tmp_path / "data").mkdir()
    graded.to_csv(tmp_path / "data" / "graded.csv", index=False)
    fewer = graded.assign(outcome=graded.outcome.clip(upper=1))  # c has 2 of 3 trials
    fewer[~((fewer.model == "c") & (fewer.trial == 2))].to_csv(tmp_path / "data" / "fewer.csv",
                                                               index=False)
    monkeypatch.chdir(tmp_path)
    cases = {"graded": ({"weights": [0, 0.5, 1]}, "weights=(0.0, 0.5, 1.0)"),
             "fewer": ({"on_missing": "truncate"}, "on_missing='truncate'")}
    for stem, (options, written) in cases.items():
        data = sc.load(f"data/{stem}.csv", **options)
        out = sc.report(data, f"reports/{stem}.ipynb", sections="leaderboard")
        nb = nbformat.read(out, as_version=4)
        assert f"data = sc.load(path, {written})" in nb.cells[1].source
        ns: dict = {}
        monkeypatch.chdir(out.parent)  # Jupyter runs a notebook in its own folder
        exec(nb.cells[1].source, ns)
        monkeypatch.chdir(tmp_path)
        assert np.array_equal(ns["data"].R, data.R) and ns["data"].weights.tolist() == \
            data.weights.tolist()
    # the whole notebook runs on a fresh kernel and gives the board's scores
    nb = nbformat.read("reports/graded.ipynb", as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(
        "import json\nboard = sc.leaderboard(data)\njson.dump(dict(zip(board.table['model'], "
        "map(float, board.table['score']))), open('scores.json', 'w'))"))
    nbclient.NotebookClient(nb, timeout=240, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path / "reports")}}).execute()
    board = sc.leaderboard(sc.load("data/graded.csv", weights=[0, 0.5, 1]))
    got = json.loads((tmp_path / "reports" / "scores.json").read_text())
    assert got == pytest.approx(dict(zip(board.table["model"], board.table["score"],
                                         strict=True)))
    # options given that lack the weights: the loader's advice as sc.report takes it
    data = sc.load("data/graded.csv", weights=[0, 0.5, 1])
    with pytest.raises(sc.ValidationError) as caught:
        sc.report(data, "reports/again.ipynb", sections="leaderboard",
                  options=io.LoadOptions(name="graded"))
    msg = str(caught.value)
    assert "e.g. options=sc.io.LoadOptions(weights=[0, 0.5, 1])" in msg and " weights=[" not in msg
    # data made in code: write a file first, as the refusal says, and name it
    made = sc.load(graded, weights=[0, 0.5, 1])
    with pytest.raises(sc.ValidationError, match=r"sc\.io\.save_npz\(data, 'data\.npz'\), then "
                       r"sc\.report\(data, 'made\.ipynb', data_path='data\.npz'\)"):
        sc.report(made, "reports/made.ipynb", sections="leaderboard")
    sc.io.save_npz(made, "reports/data.npz")
    out = sc.report(made, "reports/made.ipynb", sections="leaderboard",
                    data_path="reports/data.npz")
    ns = {}
    cell = nbformat.read(out, as_version=4).cells[1].source
    monkeypatch.chdir(out.parent)
    exec(cell, ns)
    assert np.array_equal(ns["data"].R, made.R) and np.array_equal(ns["data"].weights,
                                                                    made.weights)


def test_a_report_into_a_missing_folder_makes_it_as_the_command_line_does(
        tmp_path, data_dir, capsys):
    """``sc.report(d, "missing_dir/x.html")`` ran every analysis, then raised a bare
    FileNotFoundError (``scorio-studio report --out`` the same). Both make the folder, as
    ``mkdir -p`` would; a folder that cannot be made (a file stands in its place) is refused
    before the analyses run, in words."""
    import scorio_core as sc

    coins = data_dir / "biased_coins.npz"
    out = sc.report(sc.load(coins), tmp_path / "new" / "deeper" / "r.html",
                    sections="leaderboard")
    assert out.is_file() and "LLM_11" in out.read_text()
    assert main(["report", str(coins), "--out", str(tmp_path / "cli" / "r.md"), "--sections",
                 "leaderboard"]) == 0
    assert (tmp_path / "cli" / "r.md").is_file() and (tmp_path / "cli" / "r_charts").is_dir()
    (tmp_path / "taken").write_text("a file")
    ran = []
    with pytest.raises(sc.ValidationError, match=r"goes in the folder .*taken.*sub, which "
                       r"cannot be made: .*taken is a file, not a folder"):
        sc.report(sc.load(coins), tmp_path / "taken" / "sub" / "r.html",
                  sections="leaderboard", progress=lambda *a: ran.append(a))
    assert not ran  # refused before any analysis ran
    assert main(["report", str(coins), "--out", str(tmp_path / "taken" / "r.html")]) == 2
    assert "taken is a file, not a folder" in capsys.readouterr().err


def test_charts_as_files(bundled):
    from scorio_core.report import chart_png, chart_svg

    chart = bundled[2].sections[0].charts[0].chart
    svg = chart_svg(chart)
    assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg  # standalone
    inline = chart_svg(chart, inline=True)
    assert "xmlns" not in inline and inline.count("<path") == svg.count("<path")
    png = chart_png(chart, scale=1)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(png[16:20], "big")
    assert 600 < width < 1200  # container-width charts get DEFAULT_WIDTH (680) + axis labels


def test_one_trial_per_question_reports_the_scope_that_is_identified():
    """A report cannot be switched by its reader: with N = 1 the questions scope (the
    default) is not identified -- no interval, every model rank 1 (1-L), a blank heatmap --
    so the sections with a scope default to the population scope and say why; a scope the
    user chose is kept, and N >= 2 keeps the default."""
    import numpy as np

    from scorio_core import Outcomes
    from scorio_core.report import build_report
    from scorio_core.report._build import SCOPE_SWITCHED

    one = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 12, 1)), name="one")
    rep = build_report(one, ["leaderboard", "plan", ("curves", {"scope": "questions"})])
    lb, plan, curves = rep.sections
    assert lb.params.scope == plan.params.scope == "population"
    assert SCOPE_SWITCHED in lb.caveats and SCOPE_SWITCHED in plan.caveats
    assert lb.tables["leaderboard"]["lo"].notna().all()  # intervals, where there were none
    assert curves.params.scope == "questions" and SCOPE_SWITCHED not in curves.caveats
    (chosen,) = build_report(one, [("leaderboard", {"scope": "population"})]).sections
    assert SCOPE_SWITCHED not in chosen.caveats  # the user's choice, not the report's
    four = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 12, 4)), name="four")
    (lb4,) = build_report(four, ["leaderboard"]).sections
    assert lb4.params.scope == "questions" and SCOPE_SWITCHED not in lb4.caveats


def test_a_report_of_pooled_benchmarks_says_so(data_dir):
    """reasoning_synthetic holds four benchmarks; its combined view pools them (each
    question counted once): the report's opening says so and names them; a report of one
    benchmark does not."""
    from scorio_core import io
    from scorio_core.report import build_report, to_html, to_markdown

    data = io.load(data_dir / "reasoning_synthetic.npz")
    names = list(dict.fromkeys(data.benchmarks))
    assert len(names) == 4
    rep = build_report(data, ["leaderboard"])
    said = f"These data pool the questions of 4 benchmarks ({', '.join(names)})"
    md = to_markdown(rep)
    assert said in md and "--benchmark NAME" in md
    assert said.replace("'", "&#x27;") in to_html(rep) or said in to_html(rep)
    one = build_report(data.select(names[0]), ["leaderboard"])
    assert "These data pool" not in to_markdown(one)


def test_provenance_lists_the_seeds_of_sections_that_ran():
    """A section that could not run (greedy without greedy outcomes) drew no random numbers:
    its seed is not listed among the report's seeds; its settings still are."""
    import numpy as np

    from scorio_core import Outcomes
    from scorio_core.report import build_report

    data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 12, 4)), name="d")
    rep = build_report(data, ["leaderboard", ("greedy", {"replicates": 5})])
    assert rep.sections[1].error is not None
    assert "leaderboard.seed" in rep.provenance["seeds"]
    assert not [k for k in rep.provenance["seeds"] if k.startswith("greedy.")]
    assert "greedy" in rep.provenance["settings"]


# ------------------------------------------------------------------ the default sections
def _section_ids(markdown: str) -> list[str]:
    """The analysis ids of a Markdown report's numbered sections, in order."""
    by_title = {a.title: k for k, a in ANALYSES.items()}
    return [by_title[t] for t in re.findall(r"^## \d+\. (.+)$", markdown, flags=re.M)]


def test_python_and_cli_reports_default_to_the_same_declared_sections(tmp_path, data_dir,
                                                                      capsys, monkeypatch):
    """sc.report / make_report and `scorio-studio report` without sections run one declared
    list (DEFAULT_SECTIONS, those that fit the data); the app's Report page picks the same
    (tests/app/test_report_page.py). The coins have neither greedy rows nor signals: the
    report leaves greedy and rubric out and says why in one line each."""
    import sys

    from scorio_core import report as sc_report
    from scorio_core.definitions import DEFAULT_SECTIONS, NAMED_ONLY, default_sections

    path = data_dir / "biased_coins.npz"
    data = io.load(path)
    want, left_out = default_sections(data)
    assert want == [k for k in DEFAULT_SECTIONS if k not in ("greedy", "rubric")]
    assert set(left_out) == {"greedy", "rubric"} and not set(NAMED_ONLY) & set(DEFAULT_SECTIONS)
    # build_report(data)'s sections, as sc.report builds them (one default build, not two)
    module, built = sys.modules["scorio_core.report"], []
    monkeypatch.setattr(module, "build_report",
                        lambda *a, **kw: built.append(build_report(*a, **kw)) or built[-1])
    api = sc_report(data, tmp_path / "api.md").read_text(encoding="utf-8")
    monkeypatch.undo()
    (rep,) = built
    assert [s.analysis.id for s in rep.sections] == want
    assert main(["report", str(path), "--out", str(tmp_path / "cli.md")]) == 0
    capsys.readouterr()
    cli = (tmp_path / "cli.md").read_text(encoding="utf-8")
    assert _section_ids(api) == _section_ids(cli) == want
    for text in (api, cli):
        assert ("Not in this report — Greedy vs sampling: needs greedy outcomes (R0); this "
                "dataset has none.") in text
        assert "Not in this report — Rubric comparison" in text
    # named sections are what is asked for: no line about the defaults left out
    named = build_report(data, ["leaderboard", ("greedy", {"replicates": 5})])
    assert named.left_out == {} and "Not in this report" not in to_html(named)


def test_default_report_runs_the_rubrics_the_data_have_signals_for():
    # the default rubric section had named the ranking/* presets, whose signals a real table
    # lacks, and printed "Not computed" where the Rubric builder page showed a working preset
    import scorio_core as sc

    rng = np.random.default_rng(0)
    R = rng.integers(0, 2, (3, 12, 4))
    data = sc.Outcomes(R, signals={"response_chars": rng.integers(10, 900, R.shape).astype(float)})
    rep = sc.build_report(data)
    (sec,) = [s for s in rep.sections if s.analysis.id == "rubric"]
    assert sec.error is None and sec.params.schemes == ("length/concise-correct",)
    # a section named with some settings keeps the fitted defaults of the others
    conv = sc.build_report(sc.Outcomes(R[:, :, :2]), [("convergence", {"replicates": 50})])
    assert conv.sections[0].error is None
    assert conv.sections[0].params.methods == "bayes,pass_at_k_2"


def test_notebook_calls_take_the_defaults_the_data_can_run():
    import scorio_core as sc
    from scorio_core.definitions import ANALYSES

    R = np.random.default_rng(1).integers(0, 2, (3, 10, 2))
    res = ANALYSES["convergence"](sc.Outcomes(R), replicates=50)
    assert res._about.params.methods == "bayes,pass_at_k_2"
    named = ANALYSES["convergence"](sc.Outcomes(R), replicates=50, methods="avg")
    assert named._about.params.methods == "avg"
