"""AppTest for the Convergence, Stability and Greedy-vs-sampling pages (small replicate counts)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _apptest import code_cell, open_box, start
from streamlit.testing.v1 import AppTest

from app_pages._loading import COINS, REASONING
from scorio_core.engines.greedy import greedy_table
from scorio_core.formatting import format_column

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _open(page: str, dataset: str = REASONING, benchmark: str | None = None) -> AppTest:
    at = start(APP, dataset, 180)
    if benchmark:
        at.selectbox(key="benchmark").set_value(benchmark).run()
    at.switch_page(page).run()
    _ok(at)
    return at


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _frame(at: AppTest, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_convergence_page_on_biased_coins():
    from scorio_core.definitions import convergence as cv

    at = start(APP, COINS, 180)
    at.switch_page("app_pages/convergence.py")
    at.session_state["conv_b_curves"] = 20
    at.session_state["conv_b_conv"] = 50
    at.run()
    _ok(at)
    summ = _frame(at, "no_convergence")
    assert summ["method"].tolist() == ["bayes", "pass_at_k_2", "pass_at_k_4", "pass_at_k_8"]
    assert (summ["replicates"] == 50).all()
    assert len(at.get("vega_lite_chart")) == 4  # curves, PMF, CDF, one replicate's ranks
    assert len(at.caption) >= 4  # a line under every chart
    # the trajectory's title says which replicate it draws (it read "Worst-case replicate",
    # beside a caption saying most replicates never settle): the slowest to settle, or, on
    # request, the one whose ranking changed last -- here one that never settles
    heads = [s.value for s in at.subheader]
    assert "Ranks after each trial: the slowest replicate to settle (bayes)" in heads
    assert not any("Worst" in h for h in heads)
    at.radio(key="conv_worst_kind").set_value("latest to change (may never settle)").run()
    _ok(at)
    assert ("Ranks after each trial: a replicate that never settles (bayes)"
            in [s.value for s in at.subheader])
    # the Copy code cell reproduces the page's convergence@n table
    cell = code_cell(at, "sc.convergence(")
    ns: dict = {}
    exec(compile(cell, "<copy code>", "exec"), ns)
    got = ns["summary"]
    assert got["method"].tolist() == summ["method"].tolist()
    assert got["replicates"].tolist() == summ["replicates"].tolist()
    # every summary column is a number column (a header click sorts 10 after 2), holding
    # what the CLI and the reports print (format_columns) under the page's printf decimals;
    # where no replicate converged the mean and median are missing (drawn as —)
    from scorio_core.formatting import format_columns

    shown = next(d for d in at.dataframe if "no_convergence" in d.value.columns)
    config = json.loads(shown.proto.columns)
    assert shown.proto.placeholder == "—"
    printed = {name: cells for name, _, cells in format_columns(got)}
    for col, fmt in (("mean_trials", "%.1f"), ("mean_trials_censored", "%.1f"),
                     ("median_trials", "localized"), ("no_convergence", "%.3f")):
        assert pd.api.types.is_float_dtype(summ[col]), col
        assert config[col]["type_config"] == {"type": "number", "format": fmt}, col
        d = 0 if fmt == "localized" else int(fmt[2])
        assert [f"{v:,.{d}f}" if np.isfinite(v) else "—" for v in summ[col]] == printed[col]
    # the rows that never converged (all of pass_at_k_8 on N = 80) are told apart: no mean
    # or median, N in the censored mean, said in the caption and the columns' help
    never = summ["no_convergence"] == 1.0
    assert never.any() and (never == summ["mean_trials"].isna()).all()
    assert (summ.loc[never, "mean_trials_censored"] == 80.0).all()
    assert (summ["no_convergence"] > 0).all()  # every row counts some replicates as N
    assert "censored at N" in config["mean_trials_censored"]["help"]
    assert any(c.value == cv.SUMMARY_CAPTION for c in at.caption)
    # the known truth of the simulated coins is offered as a target
    assert "known true means (simulated data)" in at.selectbox(key="conv_target").options
    at.selectbox(key="conv_target").set_value("truth")
    at.multiselect(key="conv_methods").set_value(["bayes", "borda"])
    at.session_state["conv_b_slow"] = 2
    at.button[0].click().run()
    _ok(at)
    summ = _frame(at, "no_convergence")
    assert dict(zip(summ.method, summ.replicates, strict=True)) == {"bayes": 50, "borda": 2}
    # model subsets: run on demand
    at.multiselect(key="conv_sizes").set_value([5])
    at.number_input(key="conv_n_subsets").set_value(2)
    at.number_input(key="conv_b_subsets").set_value(20)
    next(b for b in at.button if "subsets" in b.label.lower()).click().run()
    _ok(at)
    sub = _frame(at, "models")
    assert sub["size"].tolist() == [5, 5]


def test_stability_page_runs_on_demand():
    at = _open("app_pages/stability.py", benchmark="AIME'24")
    assert not at.dataframe  # nothing computed until asked
    at.multiselect(key="stab_families").set_value([]).run()
    _ok(at)
    assert any("at least one family" in i.value for i in at.info)
    at.multiselect(key="stab_families").set_value(["metrics", "pointwise", "voting"]).run()
    at.button(key="stab_run").click().run()
    _ok(at)
    gold = _frame(at, "methods")
    assert gold["mean"].is_monotonic_decreasing
    assert any("bayes_greedy" in m for m in gold["methods"])
    assert len(at.get("vega_lite_chart")) == 1
    # the Copy code cell reproduces the page's class table
    cell = code_cell(at, "sc.stability(")
    ns: dict = {}
    exec(compile(cell, "<copy code>", "exec"), ns)
    got = ns["stab"].classes("gold")
    assert got["methods"].tolist() == gold["methods"].tolist()
    np.testing.assert_allclose(got["mean"], gold["mean"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got["sd"], gold["sd"], rtol=1e-12, atol=1e-15)
    at.multiselect(key="pool_methods").set_value(["bayes", "borda"])
    at.multiselect(key="pool_sizes").set_value([5])
    at.number_input(key="pool_n").set_value(2)
    next(b for b in at.button if "pools" in b.label.lower()).click().run()
    _ok(at)
    pools = _frame(at, "top_fraction")
    assert pools["method"].tolist() and set(pools["pool_size"]) == {5}


def test_greedy_page_and_missing_r0():
    at = start(APP, REASONING, 180)
    at.switch_page("app_pages/greedy.py")
    at.session_state["greedy_reps"] = 8
    at.run()
    _ok(at)
    labels = [m.label for m in at.metric]
    assert "τ_G-S" in labels
    ranks = _frame(at, "displacement")
    assert len(ranks) == 20
    t4 = _frame(at, "tau_gs")  # every benchmark of the combined view, then all questions
    assert t4["data"].tolist()[-1] == "combined" and len(t4) == 5
    assert len(at.get("vega_lite_chart")) == 3
    assert len(at.caption) >= 3  # one line under every chart
    # the Copy code cell reproduces the page's Table 4 and ranks
    cell = code_cell(at, "sc.greedy(")
    ns: dict = {}
    exec(compile(cell, "<copy code>", "exec"), ns)
    got = greedy_table(ns["greedy"])
    assert got["benchmark"].tolist() == t4["data"].tolist()
    # the page shows the core's numbers (a column with a "<0.0001" as the CLI's text)
    for col in ("mean_accuracy", "tau_gs", "delta_tau", "sd_reduction"):
        if pd.api.types.is_numeric_dtype(t4[col]):
            np.testing.assert_allclose(got[col], t4[col], rtol=1e-12, atol=1e-15)
        else:
            assert t4[col].tolist() == format_column(got[col].tolist(), col), col
    assert ns["detail"].ranks["model"].tolist() == ranks["model"].tolist()
    # one benchmark: one row, and a pointer to the combined view
    at.selectbox(key="benchmark").set_value("BrUMO'25").run()
    _ok(at)
    assert not any("tau_gs" in d.value.columns for d in at.dataframe)
    assert any("Table 4" in c.value for c in at.caption)
    assert len(_frame(at, "displacement")) == 20
    # the biased coins have no greedy outcomes: a clear note, no traceback
    at.selectbox(key="dataset").set_value(COINS).run()
    _ok(at)
    assert any("no greedy outcomes" in i.value for i in at.info)


def test_adding_a_slow_method_keeps_the_fast_results(monkeypatch):
    """Each speed group is cached on its own: adding a re-ranked method to the Convergence
    page used to recompute every fast method too."""
    from scorio_core.definitions import convergence as cv

    calls = []
    real = cv.run_part

    def counting(data, p, ids, *a, **k):
        calls.append(tuple(ids))
        return real(data, p, ids, *a, **k)

    monkeypatch.setattr(cv, "run_part", counting)
    at = start(APP, COINS, 180)
    at.switch_page("app_pages/convergence.py")
    at.session_state["conv_b_curves"] = 20
    at.session_state["conv_b_conv"] = 40
    at.session_state["conv_seed"] = 11  # a key no other test has computed
    at.run()
    at.multiselect(key="conv_methods").set_value(["bayes", "avg"])
    at.button[0].click().run()
    _ok(at)
    assert calls[-1] == ("bayes", "avg")
    before = len(calls)
    at.multiselect(key="conv_methods").set_value(["bayes", "avg", "borda"])
    at.session_state["conv_b_slow"] = 2
    at.button[0].click().run()
    _ok(at)
    assert calls[before:] == [("borda",)]  # the fast part came from the cache
    summ = _frame(at, "no_convergence")
    assert summ["method"].tolist() == ["bayes", "avg", "borda"]


def test_sidebar_workers_run_the_stability_sweep_on_dask_with_the_same_result(monkeypatch):
    pytest.importorskip("distributed")
    from app_pages import _common
    from scorio_core.parallel import Executor

    used, mains = [], []
    real_enter = Executor.__enter__

    def enter(self):
        used.append(self.workers)
        out = real_enter(self)
        if self._client is not None:  # what each worker process ran as its main module
            mains.extend(self._client.run(lambda: getattr(
                __import__("sys").modules.get("__mp_main__"), "__file__", None)).values())
        return out

    monkeypatch.setattr(Executor, "__enter__", enter)
    frames = []
    for workers in (0, 2):
        _common.clear_results()  # results are cached by data and settings only
        at = _open("app_pages/stability.py", benchmark="BrUMO'25")
        assert not at.sidebar.number_input  # the Workers box renders its widgets when open
        open_box(at, "workers_box").number_input(key="workers").set_value(workers).run()
        at.multiselect(key="stab_families").set_value(["pointwise", "voting"]).run()
        at.button(key="stab_run").click().run()
        _ok(at)
        frames.append(_frame(at, "methods"))
    pd.testing.assert_frame_equal(frames[0], frames[1])
    assert used == [0, 2]  # in the app's process, then on a 2-worker local cluster
    # the workers did not run the app's script again (Streamlit's __main__ is app.py: each
    # spawned worker ran it, imports and the sidebar's data load, before its first piece)
    assert mains == [None, None], mains
