"""The simulation studies on a local Dask cluster give the single-process results exactly
(issue 15): their replicates run in pieces of a fixed size, each with its own stream."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core import simulate as sim
from scorio_core.parallel import Executor

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def cluster():
    pytest.importorskip("distributed")
    with Executor(workers=2) as ex:
        yield ex


def studies(executor=None, progress=None):
    """Each study, small, with more than one piece (BLOCK replicates per piece)."""
    b = sim.BLOCK
    coins = sim.mimics([0.3, 0.45, 0.5, 0.7], M=8, seed=0)
    return {
        "truth": sim.truth_convergence(
            coins, ["bayes", "pass_at_k_2"], N=6, replicates=b + 7, seed=1,
            executor=executor, progress=progress,
        ),
        "fresh": sim.truth_convergence(
            coins, ["bayes"], N=4, replicates=b + 3, fresh_questions=True, seed=2,
            executor=executor,
        ),
        "depth": sim.prior_depth(
            M=6, depths=(0, 2), steps=(1, 3), replicates=2 * b + 1, updates=50, seed=3,
            executor=executor,
        ),
        "order": sim.correct_order(
            0.7, 0.5, n_values=(1, 5, 20, 40), n_sims=60, seed=4, executor=executor
        ),
        "cover": sim.interval_coverage(
            (0.4, 0.6), M_values=(5, 8), N_values=(1, 3), replicates=b + 9, seed=5,
            executor=executor,
        ),
    }


def assert_same(a: dict, b: dict) -> None:
    for mid in a["truth"].tau:
        np.testing.assert_array_equal(a["truth"].tau[mid], b["truth"].tau[mid])
    np.testing.assert_array_equal(a["fresh"].tau["bayes"], b["fresh"].tau["bayes"])
    for f in ("tau", "sd", "tau_update", "original_p"):
        np.testing.assert_array_equal(getattr(a["depth"], f), getattr(b["depth"], f))
    pd.testing.assert_frame_equal(a["order"].table, b["order"].table)
    np.testing.assert_equal(a["order"].n_at, b["order"].n_at)
    np.testing.assert_equal(a["order"].predicted_at, b["order"].predicted_at)
    pd.testing.assert_frame_equal(a["cover"].table, b["cover"].table)


def test_studies_are_identical_on_a_local_cluster(cluster):
    here = studies()
    seen: list[tuple[float, str]] = []
    there = studies(cluster, progress=lambda f, m: seen.append((f, m)))
    assert_same(here, there)
    # progress from the futures: one report per finished piece, ending at all replicates
    b = sim.BLOCK
    assert len(seen) == 2 and seen[-1] == (1.0, f"{b + 7} of {b + 7} replicates")
    assert here["truth"].tau["bayes"].shape == (b + 7, 6)
    assert here["depth"].tau.shape == (2, 2)
    assert np.isfinite(list(here["order"].n_at.values())).all()


def test_same_seed_same_result_and_pieces_are_independent():
    a, b = studies(), studies()
    assert_same(a, b)
    # the pieces draw from different streams: replicates of different pieces differ
    tau = a["fresh"].tau["bayes"]
    first, second = tau[: sim.BLOCK], tau[sim.BLOCK :]
    assert not np.array_equal(first[: len(second)], second)


def test_studies_still_match_their_known_truths():
    # the per-piece streams change nothing the studies promise: Bayes@N's intervals cover
    # under its own prior, and it converges to the true ranking
    c = sim.interval_coverage(
        (0.5,), M_values=(30,), N_values=(4, 16), concentration=2.0, replicates=2000,
        scopes=("questions",), seed=0,
    )
    assert c.table["coverage"].between(0.93, 0.97).all(), c.table
    curves = sim.truth_convergence(
        sim.mimics([0.2, 0.5, 0.8], M=20, seed=0), ["bayes"], N=40, replicates=300, seed=0
    )
    m = curves.summary.set_index("n")["mean"]
    assert m.iloc[-1] > 0.95 and m.iloc[-1] > m.iloc[0]


def test_cli_simulate_with_workers_prints_the_same_table(capsys):
    """``scorio-studio simulate STUDY --workers 2`` runs the study's definition on a local
    cluster and prints exactly the one-process table (more than one piece of replicates)."""
    from scorio_core.cli import main

    argv = ["simulate", "calibration", "--replicates", str(sim.BLOCK + 11), "--format", "csv",
            "--seed", "5"]
    assert main(argv) == 0
    here = capsys.readouterr().out
    assert main([*argv, "--workers", "2"]) == 0
    there = capsys.readouterr().out
    body = [ln for ln in here.splitlines() if not ln.startswith("# created_utc")]
    assert body == [ln for ln in there.splitlines() if not ln.startswith("# created_utc")]
    assert "coverage" in here
    assert main(["simulate", "order", "--scheduler", "nope"]) == 2
    assert "tcp://HOST:8786" in capsys.readouterr().err
