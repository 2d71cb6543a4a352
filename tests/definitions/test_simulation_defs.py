"""The Simulator's studies as analysis definitions: settings validate, ``run`` ignores the
loaded data, every ``to_code`` cell reproduces the numbers with public calls, exports carry
a provenance without an input file, and a report takes a study as a section when named."""

from __future__ import annotations

import ast

import altair as alt
import numpy as np
import pandas as pd
import pytest

from scorio_core import Outcomes, ValidationError
from scorio_core import simulate as sim
from scorio_core.definitions import ANALYSES, SIMULATIONS
from scorio_core.definitions.provenance import export_result
from scorio_core.definitions.simulate import highlights

SMALL = {
    "coins": {"replicates": 12, "N": 8, "M": 12, "methods": ("bayes", "pass_at_k_2"), "seed": 3},
    "prior-depth": {"replicates": 40, "seed": 1},
    "order": {"sims": 60, "seed": 2},
    "calibration": {"replicates": 50, "M_values": (10,), "seed": 4},
    "rubric-lesson": {"weights": (0.0, 0.25, 1.0), "R0": ((2,), (1,))},
}


@pytest.fixture(scope="module")
def results():
    return {k: a.run(None, a.params(**SMALL[k])) for k, a in SIMULATIONS.items()}


def test_registry_and_contract():
    assert list(SIMULATIONS) == ["coins", "prior-depth", "order", "calibration", "rubric-lesson"]
    assert not set(SIMULATIONS) & set(ANALYSES)  # one namespace of report sections
    for k, a in SIMULATIONS.items():
        assert a.id == k and a.uses_data is False and a.requires(None) is None
        a.params()  # defaults are valid
        assert a.how_to_read.strip()
    assert all(a.uses_data for a in ANALYSES.values())
    # the lazy registries name exactly the module's studies, and SECTIONS is both, in order
    from scorio_core.definitions import SECTIONS
    from scorio_core.definitions import simulate as sim_defs

    assert dict(SIMULATIONS) == sim_defs.SIMULATIONS
    assert list(SECTIONS) == [*ANALYSES, *SIMULATIONS]
    assert all(SECTIONS[k] is ANALYSES.get(k, SIMULATIONS.get(k)) for k in SECTIONS)


def test_run_ignores_the_data(results):
    a = SIMULATIONS["order"]
    other = a.run(Outcomes(np.zeros((2, 3, 4), int)), a.params(**SMALL["order"]))
    pd.testing.assert_frame_equal(other.table, results["order"].table)


def test_runs_equal_core_calls(results):
    r = results["order"]
    core = sim.correct_order(0.6213, 0.608, concentration=3.0, n_sims=60, seed=2)
    pd.testing.assert_frame_equal(r.table, core.table)
    les = sim.rubric_lesson(sim.LESSON_R, (0.0, 0.25, 1.0), [[2], [1]])
    assert results["rubric-lesson"].mu == les.mu and results["rubric-lesson"].sigma == les.sigma


@pytest.mark.parametrize(
    ("sid", "bad", "match"),
    [
        ("coins", {"concentration": 0}, "concentration"),
        ("coins", {"methods": ()}, "at least one metric"),
        ("prior-depth", {"replicates": 0}, "replicates"),
        ("order", {"upper": 0.5, "lower": 0.6}, "upper must exceed lower"),
        ("order", {"upper": 1.2}, "strictly between 0 and 1"),
        ("calibration", {"M_values": ()}, "at least one value"),
        ("rubric-lesson", {"weights": (1.0,)}, "at least two"),
    ],
)
def test_params_refuse_bad_values(sid, bad, match):
    with pytest.raises(ValidationError, match=match):
        SIMULATIONS[sid].params(**bad)


@pytest.mark.parametrize("sid", list(SIMULATIONS))
def test_to_code_reproduces_tables_and_charts(sid, results):
    a = SIMULATIONS[sid]
    code = a.to_code(a.params(**SMALL[sid]), "data")
    assert "data" not in code.replace("dataset", "")  # the cell does not read loaded data
    ns: dict = {}
    exec(compile(code, f"<{sid}>", "exec"), ns)
    last = ast.parse(code).body[-1]
    got = eval(ast.unparse(last), ns).table  # shown as the report prints it (sc.display.show)
    want = next(iter(a.tables(results[sid]).values()))
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True),
                                  atol=1e-12, rtol=0)
    charts = a.charts(results[sid])
    assert len(charts) == len(a.chart_code) >= 1
    for c, expr in zip(charts, a.chart_code, strict=True):
        assert isinstance(eval(expr, ns), alt.TopLevelMixin)
        assert c.caption and "\n" not in c.caption


def test_highlights_and_exports(results):
    h = {x.label: x.value for x in highlights("rubric-lesson", results["rubric-lesson"])}
    assert h["μ"] == f"{results['rubric-lesson'].mu:.5f}"
    assert [x.label for x in highlights("prior-depth", results["prior-depth"])][0].startswith(
        "mean τ")
    a = SIMULATIONS["calibration"]
    files = export_result(a, None, a.params(**SMALL["calibration"]), results["calibration"], "csv")
    (name, text), = files.items()
    assert name == "simulation_calibration_coverage.csv"
    assert "# dataset: simulation (synthetic, known truth)" in text
    assert "# settings.replicates: 50" in text and "# seeds.seed: 4" in text
    back = pd.read_csv(__import__("io").StringIO(text), comment="#")
    assert len(back) == 2 * 2 * 7 and set(back["scope"]) == {"questions", "population"}


def test_rubric_lesson_writes_mu_and_sigma_in_its_table_format():
    """The metrics said μ = 0.562500, the notice 0.5625, beside m_α = 0.56250 in the table:
    one format (the table's declared decimals) for every number of the lesson."""
    from scorio_core.charts.simulate import lesson_notice
    from scorio_core.formatting import format_frame, table_formats
    from scorio_core.simulate.lesson import LESSON_DECIMALS

    a = SIMULATIONS["rubric-lesson"]
    r = a.run(None, a.params())
    tables = a.tables(r)
    lesson, summary = tables["lesson"], tables["summary"]
    formats = dict(zip(lesson.columns, table_formats(lesson), strict=True))
    assert formats["m_α"].decimals == formats["v_α"].decimals == LESSON_DECIMALS == 5
    h = {x.label: x.value for x in highlights("rubric-lesson", r)}
    assert (h["μ"], h["σ"]) == ("0.56250", "0.09200")
    assert format_frame(summary).loc[0, ["mu", "sigma"]].tolist() == ["0.56250", "0.09200"]
    assert format_frame(lesson)["m_α"].tolist() == ["0.56250", "0.56250"]
    assert "μ = 0.56250 and σ = 0.09200" in lesson_notice("rubric")
    tips = a.charts(r)[0].chart.to_dict()["layer"][1]["encoding"]["tooltip"]
    assert {t["field"]: t.get("format") for t in tips}["mu"] == ".5f"


def test_report_takes_a_study_only_when_named():
    from scorio_core.report import build_report, parse_sections, to_html

    data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 4)), name="demo")
    assert parse_sections("leaderboard,rubric-lesson") == ["leaderboard", "rubric-lesson"]
    rep = build_report(data, ["leaderboard", "rubric-lesson"])
    assert [s.analysis.id for s in rep.sections] == ["leaderboard", "rubric-lesson"]
    assert all(s.error is None for s in rep.sections)
    page = to_html(rep)
    assert "Rubric weights (Bayes@N term by term)" in page and "0.5625" in page
    with pytest.raises(ValidationError, match="simulation studies"):
        parse_sections("leaderboard,coinz")
