"""Planner: trials / questions needed, order curves, budget allocation (issue 10)."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from scorio_core import decision
from scorio_core.cli import main
from scorio_core.eval import prepare_counts
from scorio_core.leaderboard import leaderboard
from scorio_core.planner import (
    CANNOT_SETTLE,
    allocate_trials,
    order_curve,
    pair_curve,
    pair_needs,
    plan,
    simulate_allocation,
)
from scorio_core.posterior import question_moments


def _table(seed=0, L=5, M=40, N=6):
    rng = np.random.default_rng(seed)
    p = np.clip(np.linspace(0.7, 0.5, L)[:, None] + rng.normal(0, 0.15, (L, M)), 0.02, 0.98)
    return (rng.random((L, M, N)) < p[..., None]).astype(int)


def test_needs_reproduce_today_and_cross_the_threshold():
    R = _table()
    board = leaderboard(R)
    t = pair_needs(board, pairs="all")
    # today's z: the board's adjacent z in the questions scope
    np.testing.assert_allclose(t["z_questions"], board.table["z_next"].iloc[:-1], rtol=1e-9)
    zp = leaderboard(R, scope="population").table.set_index("model")["z_next"]
    np.testing.assert_allclose(t["z_population"], zp.loc[t["better"]].to_numpy(), rtol=1e-9)
    zs = board.settings["z_threshold"]
    N, M = R.shape[2], R.shape[1]
    T = 2 + N
    und = t[t["z_questions"] < zs]
    assert len(und) > 0
    for _, r in und.iterrows():  # the projected z crosses the threshold exactly at trials_needed
        n = r["trials_needed"]
        def z_at(k, r=r):
            return r["z_questions"] * np.sqrt((T + 1 + k - N) / (T + 1))
        assert z_at(n) >= zs > z_at(n - 1)
        m = r["questions_needed"]
        def zq_at(k, r=r):
            return r["z_population"] * np.sqrt((k + 1) / (M + 1))
        assert zq_at(m) >= zs > zq_at(m - 1)


def test_more_trials_cannot_settle_a_gap_that_the_questions_spread_hides():
    # A wins the first half of the questions outright, B the second half: a small
    # overall gap with a huge question-to-question spread of the paired difference.
    M, N = 20, 40
    R = np.zeros((2, M, N), dtype=int)
    R[0, :10] = 1
    R[0, 10, :30] = 1  # A slightly ahead overall
    R[1, 10:] = 1
    board = leaderboard(R, scope="population")
    t = pair_needs(board)
    assert len(t) == 1
    assert leaderboard(R).decided[0, 1]  # decided for these 20 questions
    row = t.iloc[0]
    assert row["trials_needed"] == N  # questions scope: already enough trials
    assert np.isinf(row["trials_needed_population"]) and CANNOT_SETTLE in row["note"]
    assert row["z_limit"] < board.settings["z_threshold"]
    assert np.isfinite(row["questions_needed"]) and row["questions_needed"] > M


def test_order_curve_agrees_with_the_simple_simulation():
    rng = np.random.default_rng(3)
    pu, pl = rng.uniform(0.3, 0.9, 12), rng.uniform(0.2, 0.8, 12)
    pl = pl - (pl.mean() - pu.mean() + 0.05)
    pl = np.clip(pl, 0, 1)
    ns = [1, 4, 16, 64]
    c = order_curve(pu, pl, ns, sims=4000, seed=1)
    ref = decision.prob_correct_order(pu, pl, ns, n_sims=4000, rng=2)
    np.testing.assert_allclose(c.p_correct, ref, atol=0.03)
    assert np.all(np.diff(c.p_correct) > 0) and np.all(np.diff(c.z_mean) > 0)
    # z grows like sqrt(N) (000 App. D): the mean simulated z at 64 vs 16 trials
    assert c.z_mean[3] / c.z_mean[2] == pytest.approx(2.0, rel=0.15)


def test_pair_curve_projection_matches_today_at_n():
    R = _table(1, L=2, M=30, N=8)
    c = pair_curve(R, 0, 1, [8, 32])
    b = leaderboard(R)
    z_now = float(b.z[0, 1]) * np.sign(b.mu[0] - b.mu[1])
    assert c.z_projected[0] == pytest.approx(z_now, rel=1e-9)


def test_allocation_spends_exactly_the_budget():
    R = _table(2, L=6)
    n, n0, w = prepare_counts(R)
    q = question_moments(n, w, n0)
    a = allocate_trials(q, 0)
    assert a.extra.sum() == 0 and a.resolved_greedy == a.resolved_now
    a = allocate_trials(q, 17)
    assert a.extra.sum() == 17 and a.uniform.sum() == 17 and a.uniform.max() - a.uniform.min() <= 1
    assert a.expected_greedy >= a.expected_uniform - 1e-12  # greedy maximises this objective
    with pytest.raises(Exception, match="budget"):
        allocate_trials(q, -1)


def test_greedy_allocation_beats_uniform_in_simulation():
    """Known truth: a cluster of close models among clearly separated ones.

    The greedy split resolves more pairs than the uniform split of the same
    budget, both counted by simulation against the true order.
    """
    rng = np.random.default_rng(0)
    means = np.array([0.97, 0.95, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.05, 0.03])
    p = np.clip(means[:, None] + rng.normal(0, 0.05, (10, 30)), 0.01, 0.99)
    chk = simulate_allocation(p, N=4, budget=30, sims=100, seed=1)
    print(f"greedy {chk.greedy:.2f} vs uniform {chk.uniform:.2f} pairs (ratio {chk.ratio:.3f}); "
          f"resolved by the budget: gain ratio {chk.gain_ratio:.2f}")
    assert chk.greedy > chk.uniform > chk.before
    assert chk.gain_ratio > 1.3
    assert chk.wrong_greedy <= 0.1 and chk.wrong_uniform <= 0.1


@pytest.mark.parametrize("fmt", ["text", "csv", "json"])
def test_cli_plan(capsys, data_dir, fmt):
    code = main(["plan", str(data_dir / "biased_coins.npz"), "--budget-trials", "22",
                 "--format", fmt])
    out, err = capsys.readouterr()
    assert code == 0, err
    p = plan(__import__("scorio_core.io", fromlist=["load"]).load(data_dir / "biased_coins.npz"),
             budget_trials=22)
    if fmt == "json":
        payload = json.loads(out)
        assert payload["settings"]["budget_trials"] == 22
        assert sum(r["extra_trials"] for r in payload["allocation"]) == 22
        assert [r["better"] for r in payload["pairs"]] == p.pairs["better"].tolist()
    elif fmt == "csv":
        assert out.startswith("# ") and "# input.sha256: " in out  # provenance header
        got = pd.read_csv(io.StringIO(out), comment="#")
        assert got["better"].tolist() == p.pairs["better"].tolist()
        assert "questions_needed" in got
    else:
        assert "undecided adjacent pair" in out and "greedy" in out
