"""The README stays true: two set-up commands, CI runs the test one, method table in sync."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pandas as pd

import scorio_core as sc
from scorio_core.rank.registry import methods_markdown

ROOT = Path(__file__).resolve().parent.parent


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_method_table_matches_registry():
    text = _readme()
    block = re.search(r"<!-- methods-table -->\n(.*?)<!-- /methods-table -->", text, re.S)
    assert block, "README lost its methods-table markers"
    assert block.group(1) == methods_markdown(), (
        "README method table is stale: run `scorio-studio methods --markdown` and paste it"
    )


def test_report_default_sections_match_their_declaration():
    """The README states the report's default sections where the CLI synopsis and the
    Reports section name them: the one list of scorio_core.definitions.DEFAULT_SECTIONS."""
    from scorio_core.definitions import DEFAULT_SECTIONS, NAMED_ONLY

    text = _readme()
    assert f"[--sections {','.join(DEFAULT_SECTIONS)}]" in text
    said = text.split("`scorio_core.definitions.DEFAULT_SECTIONS` --", 1)[1]
    said, after = said.split("those that fit the data", 1)
    assert re.findall(r"`([a-z-]+)`", said) == list(DEFAULT_SECTIONS)
    after = after.split("\n\n", 1)[0]
    assert all(f"`{k}`" in after for k in NAMED_ONLY)


def test_two_setup_commands_and_ci_runs_the_test_one():
    text = _readme()
    section = text.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    commands = [ln for ln in section.splitlines() if ln.startswith("python -m pip install")]
    assert len(commands) == 2
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1] in ci


def _bench():
    import importlib.util

    spec = importlib.util.spec_from_file_location("calibration_bench",
                                                  ROOT / "benchmarks" / "calibration.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_calibration_printer_and_readme_parser_agree(capsys):
    """The benchmark prints its coverage tables and reads them back for the README; a
    parser helper once took the printer's name and the full run crashed after simulating."""
    from scorio_core import calibration as cal

    bench = _bench()
    table = cal.calibration_table(20, [("hard", 15, 4, False), ("hard", 15, 4, True)])
    bench.coverage_tables(table)
    rows = bench.readme_table(capsys.readouterr().out).splitlines()[2:]
    assert [r.split(" | ")[:3] for r in rows] == [
        ["| binary", "hard", "questions"], ["| binary", "hard", "population"],
        ["| categorical", "hard", "questions"], ["| categorical", "hard", "population"],
    ]


def test_real_field_printer_names_each_field_and_prints_the_p_best_rows(capsys):
    """The real-field section: one heading per field, the band count over its cells, then the
    p_best rows of the sub-fields (results in ``real_jobs`` order)."""
    import numpy as np

    from scorio_core import calibration as cal

    bench = _bench()
    names = ["field A", "field B"]
    checks = [cal.ResampleCheck(0.95, 0.01, "m", 0.9, 0.2, 0.0, 0.5, M, N, 3, 10, scope,
                                "holm", 0.95, True)
              for _ in names for M, N in bench.REAL_CELLS for scope in ("questions", "population")]
    p = np.clip(np.linspace(0.1, 0.9, 50)[None, :] + [[0.0], [0.1], [0.2]], 0, 1)
    pb = cal.resample_p_best(p, 15, 4, L=2, scope="population", reps=20, draws=500)
    bench.real_tables(checks + [pb], names)
    out = capsys.readouterr().out
    assert "### field A" in out and "### field B" in out and out.count("\n### ") == 3
    assert f"in band: {len(checks)} of {len(checks)}" in out
    assert "### p_best on sub-fields of field A" in out
    assert "| population | 2 | 15 | 4 |" in out


def test_calibration_table_matches_the_saved_run():
    bench = _bench()
    block = re.search(r"<!-- calibration-table -->\n(.*?\n)\n", _readme(), re.S)
    assert block, "README lost its calibration-table marker"
    doc = (ROOT / "docs" / "calibration.md").read_text(encoding="utf-8")
    expected = bench.readme_table(doc)
    assert expected.count("\n") == 2 + 16  # 2 outcomes x 4 benchmarks x 2 scopes
    assert block.group(1) == expected, (
        "README calibration table is stale: run "
        "`python benchmarks/calibration.py --readme docs/calibration.md` and paste it"
    )


def test_own_data_check_snippet_runs():
    """The README's calibration check on one's own data runs as printed (on fewer
    replicates) and says what it claims."""
    import contextlib
    import io
    import os

    block = re.search(r"<!-- own-data-check -->\n```python\n(.*?)```\n<!-- /own-data-check -->",
                      _readme(), re.S)
    assert block, "README lost its own-data-check block"
    code = block.group(1).replace("reps=300", "reps=30")
    assert code.count("reps=30") == 1
    ns, out = {}, io.StringIO()
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)
        with contextlib.redirect_stdout(out):
            exec(code, ns)
    finally:
        os.chdir(cwd)
    check = ns["check"]
    assert (check.M, check.N, check.L, check.reps) == (30, 4, 9, 30)
    assert list(check.intervals["scope"]) == ["questions", "population"]
    assert ((0.8 < check.intervals["coverage"]) & (check.intervals["coverage"] <= 1.0)).all()
    assert check.p_best.groupby("scope")["count"].sum().tolist() == [30 * 9] * 2
    printed = out.getvalue().strip()
    assert printed == check.verdict() and printed.startswith(("On runs like this", "Off target"))


def test_notebook_tour_runs_and_says_what_it_shows(tmp_path, monkeypatch):
    """The README's notebook tour runs as printed (the report written to a scratch folder)
    and its comments on the convergence call are what the call returns."""
    block = re.search(r"<!-- notebook-tour -->\n```python\n(.*?)```\n<!-- /notebook-tour -->",
                      _readme(), re.S)
    assert block, "README lost its notebook-tour block"
    code = block.group(1).replace('"data/', f'"{ROOT.as_posix()}/data/')
    code = code.replace('replicates=10_000', 'replicates=2_000')
    assert code.count("replicates=2_000") == 1
    monkeypatch.chdir(tmp_path)
    displayed = []  # what sc.show displays, wherever in a cell it is called
    monkeypatch.setattr(sc.display, "_output", displayed.append)
    ns: dict = {}
    shown = []  # what each line that ends a notebook cell's way would display
    for stmt in ast.parse(code).body:  # one statement at a time, as a notebook runs them
        if isinstance(stmt, ast.Expr):
            before = len(displayed)
            value = eval(compile(ast.Expression(stmt.value), "<tour>", "eval"), ns)
            line = ast.unparse(stmt)
            if line.startswith("sc.show("):  # displays itself mid-cell, returns nothing
                assert value is None and len(displayed) == before + 1, line
                value = displayed[-1]
            shown.append((line, value))
        else:
            exec(compile(ast.Module([stmt], []), "<tour>", "exec"), ns)
    assert (tmp_path / "report.html").is_file()
    # a newcomer copying the tour sees the reports' formats, never a raw pandas frame
    # (10647.0 questions, 0.008333): a table of a result is shown through sc.show
    raw = [line for line, value in shown if isinstance(value, pd.DataFrame | pd.Series)]
    assert not raw, raw
    assert sum(isinstance(v, sc.display.Table) for _, v in shown) >= 6
    assert any(line == "conv" and v.caveats for line, v in shown)
    s = ns["conv"].summary.set_index("method")
    # "Bayes@N settles after a median 16 trials, Pass@2 after 64 (71 % never within 80)"
    assert s.loc["bayes", "no_convergence"] < 0.01 and 12 <= s.loc["bayes", "median_trials"] <= 20
    assert 0.6 < s.loc["pass_at_k_2", "no_convergence"] < 0.8
    assert 55 <= s.loc["pass_at_k_2", "median_trials"] <= 72
