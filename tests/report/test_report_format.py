"""The report's numbers and settings read as a person expects (issue 24): one format per
table column (integers as integers), settings in words with the values a run resolved, and no
flat chart with duplicated ticks where nothing converged."""

from __future__ import annotations

import re

import numpy as np
import pytest

from scorio_core import Outcomes
from scorio_core.formatting import column_format
from scorio_core.report import build_report, chart_svg, to_html, to_markdown


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


def test_settings_line_in_words_with_resolved_values(small_report):
    report, page = small_report
    notes = re.findall(r'<p class="note">Settings: (.*?)\.</p>', page)
    assert len(notes) == 3
    assert not any("null" in n or "None" in n for n in notes)
    plan = next(s for s in report.sections if s.analysis.id == "plan")
    budget = plan.result.plan.settings["budget_trials"]
    spent = int(plan.result.plan.allocation["extra_trials"].sum())
    assert budget == spent == 16 * 4  # 0 means L x N; the chart spends all of it
    assert f"budget_trials = {budget} (0 = L × N)" in notes[2]
    assert "budget_trials = 0" not in page.split("<h2>Provenance")[0]
    assert "weights = 0, 1 (the data&#x27;s)" in notes[0]
    md = to_markdown(report)
    assert "Settings: " in md and "null" not in md.split("## Provenance")[0]


def test_no_flat_convergence_charts_and_whole_ticks(small_report):
    report, page = small_report
    conv = next(s for s in report.sections if s.analysis.id == "convergence")
    assert not (conv.result.pmf["p"] > 0).any()  # nothing converges on N = 4 with these ties
    empty = [c for c in conv.charts if c.empty is not None]
    assert [c.title for c in empty] == ["Distribution of convergence@n",
                                        "Cumulative convergence@n"]
    assert page.count("No replicate converged within the trials") == 2
    # the charts that are drawn have each whole-number tick once (was 1, 2, 2, 3, 3)
    drawn = [c for c in conv.charts if c.empty is None]
    for c in [*drawn, *empty]:
        svg = chart_svg(c.chart)
        texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
        ticks = texts[: next(i for i, t in enumerate(texts) if not t.isdigit())]  # x labels
        assert ticks == [str(n) for n in range(1, len(ticks) + 1)], (c.title, ticks)
