"""Sweeps on a local Dask cluster give the single-process results exactly (issue 15)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core._validation import ValidationError
from scorio_core.engines import convergence_at_n, convergence_curves
from scorio_core.engines.stability import low_budget_stability, pool_robustness
from scorio_core.parallel import Executor

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def cluster():
    pytest.importorskip("distributed")
    with Executor(workers=2) as ex:
        yield ex


@pytest.fixture(scope="module")
def R():
    rng = np.random.default_rng(7)
    p = rng.beta(2, 2, (6, 12))[..., None] * np.linspace(0.6, 1.0, 6)[:, None, None]
    return (rng.random((6, 12, 6)) < p).astype(np.int8)


def test_serial_executor_maps_in_order():
    with Executor() as ex:
        assert not ex.distributed
        assert ex.map(pow, [(2, 3), (3, 2), (5, 0)]) == [8, 9, 1]
        assert ex.map(divmod, [(7,), (9,)], shared=(4,)) == [(1, 3), (2, 1)]


def test_bad_settings_are_refused():
    with pytest.raises(ValidationError, match="workers must be an integer >= 1"):
        Executor(workers=-2)
    with pytest.raises(ValidationError, match="tcp://HOST:8786"):
        Executor(scheduler="localhost:8786")


def test_convergence_of_a_re_ranked_method_is_identical_on_the_cluster(cluster, R):
    kw = dict(methods=["bradley_terry", "bayes"], replicates=70, seed=3)
    here = convergence_at_n(R, **kw)
    there = convergence_at_n(R, **kw, executor=cluster)
    for mid in kw["methods"]:
        np.testing.assert_array_equal(here.s_star[mid], there.s_star[mid])
        np.testing.assert_array_equal(here.last_change[mid], there.last_change[mid])
    assert here.s_star["bradley_terry"].shape == (70,)
    cu_here = convergence_curves(R, methods=["borda"], replicates=40, seed=1)
    cu_there = convergence_curves(R, methods=["borda"], replicates=40, seed=1, executor=cluster)
    np.testing.assert_array_equal(cu_here.tau["borda"], cu_there.tau["borda"])


def test_stability_sweeps_are_identical_on_the_cluster(cluster, R):
    ids = ["bayes", "borda", "bradley_terry", "elo_tie_draw"]
    a = low_budget_stability(R, None, ids)
    b = low_budget_stability(R, None, ids, executor=cluster)
    pd.testing.assert_frame_equal(a.table, b.table)
    seen = []
    pa = pool_robustness(R, None, ids, sizes=(3, 4), pools=4, seed=2)
    pb = pool_robustness(R, None, ids, sizes=(3, 4), pools=4, seed=2, executor=cluster,
                         progress=lambda f, m: seen.append(f))
    pd.testing.assert_frame_equal(pa, pb)
    assert seen and seen[-1] == 1.0


def test_cli_convergence_on_a_local_cluster_prints_the_same_table(capsys):
    from pathlib import Path

    from scorio_core.cli import main

    data = str(Path(__file__).resolve().parents[1] / "data" / "biased_coins.npz")
    argv = ["convergence", data, "--methods", "bayes,borda", "--replicates", "30",
            "--format", "csv", "--seed", "4"]
    assert main(argv) == 0
    here = capsys.readouterr().out
    assert main([*argv, "--workers", "2"]) == 0
    there = capsys.readouterr().out
    body = [ln for ln in here.splitlines() if not ln.startswith("# created_utc")]
    assert body == [ln for ln in there.splitlines() if not ln.startswith("# created_utc")]
    assert main(["stability", data, "--methods", "bayes", "--scheduler", "nope"]) == 2
    assert "tcp://HOST:8786" in capsys.readouterr().err
