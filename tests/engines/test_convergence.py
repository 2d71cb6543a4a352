"""Bootstrap engine, convergence curves and convergence@n (issue 4; 000 §2.7, §3.3, App. I.1).

The vectorized fast paths are checked against a plain loop that re-ranks each
replicate at each step with the registered method, and τ_b against scipy.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from scorio_core import io
from scorio_core import resampling as bs
from scorio_core._ties import rank_scores, rank_scores_batch
from scorio_core._validation import ValidationError
from scorio_core.engines.agreement import tau_b_to
from scorio_core.engines.convergence import (
    convergence_at_n,
    convergence_curves,
    fast_path,
    rank_trajectory,
    subset_convergence,
    target_ranks,
    worst_trajectory,
)
from scorio_core.rank import METHODS

FAST = [
    "bayes",
    "avg",
    "bayes_greedy",
    "pass_at_k_2",
    "pass_hat_k_2",
    "g_pass_at_k_tau_2_0.5",
    "mg_pass_at_k_2",
    "pass_at_k_4",
]


@pytest.fixture(scope="module")
def small():
    rng = np.random.default_rng(7)
    p = rng.beta(2, 2, size=(5, 9, 1))
    R = (rng.random((5, 9, 8)) < p).astype(np.int8)
    R0 = (rng.random((5, 9, 1)) < p).astype(np.int8)
    return R, R0


@pytest.fixture(scope="module")
def coins(data_dir):
    return io.load(data_dir / "biased_coins.npz")


def _tau(a, b) -> float:
    t = kendalltau(a, b, variant="b").statistic
    return float(t)


def _loop_ranks(mid, R, R0, idx):
    """Ranks after every step s of one replicate, re-ranked from scratch (None if undefined)."""
    Rrep = R[:, :, idx] if idx.ndim == 1 else R[:, np.arange(R.shape[1])[:, None], idx]
    m = METHODS[mid]
    return [
        m(Rrep[:, :, :s], R0)[0] if s >= m.min_trials else None for s in range(1, idx.shape[-1] + 1)
    ]


def _loop_s_star(traj, tgt) -> int:
    """000 App. I.1 literally: min s <= N-1 with every ranking from s on equal to the target."""
    N = len(traj)
    for s in range(1, N):
        if all(r is not None and np.array_equal(r, tgt) for r in traj[s - 1 :]):
            return s
    return 0


# ---------------------------------------------------------------------------
# bootstrap engine
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("scheme", bs.SCHEMES)
def test_replicate_indices_do_not_depend_on_batch_or_start(scheme):
    full = bs.resample_indices(10, 1300, scheme, seed=3, M=4)
    parts = np.concatenate([i for _, i in bs.iter_batches(10, 1300, scheme, 3, M=4, batch=301)])
    assert np.array_equal(full, parts)
    assert np.array_equal(bs.resample_indices(10, 5, scheme, seed=3, M=4, start=700), full[700:705])
    assert not np.array_equal(full, bs.resample_indices(10, 1300, scheme, seed=4, M=4))
    assert full.min() >= 0 and full.max() <= 9


def test_schemes_have_their_meaning():
    perm = bs.resample_indices(12, 50, "permutation", seed=0)
    assert (np.sort(perm, axis=1) == np.arange(12)).all()
    col = bs.resample_indices(12, 400, "column", seed=0)
    assert any(len(set(r)) < 12 for r in col)  # with replacement
    row = bs.resample_indices(12, 20, "row", seed=0, M=3)
    assert row.shape == (20, 3, 12) and not (row[:, 0] == row[:, 1]).all()
    R = np.arange(2 * 3 * 12).reshape(2, 3, 12)
    rep = bs.resample(R, row[:2])
    assert rep.shape == (2, 2, 3, 12)
    assert rep[1, 0, 2, 5] == R[0, 2, row[1, 2, 5]]
    rep = bs.resample(R, col[:2])
    assert rep[1, 1, 0, 3] == R[1, 0, col[1, 3]]


def test_model_pools_and_bad_arguments():
    pools = bs.model_pools(20, 5, 30, seed=1)
    assert pools.shape == (30, 5)
    assert all(len(set(p)) == 5 for p in pools) and (np.diff(pools, axis=1) > 0).all()
    with pytest.raises(ValidationError, match="at most the 4 models"):
        bs.model_pools(4, 5, 3)
    with pytest.raises(ValidationError, match="scheme must be one of"):
        bs.resample_indices(5, 2, "bogus")
    with pytest.raises(ValidationError, match="seed"):
        bs.resample_indices(5, 2, seed=-1)
    with pytest.raises(ValidationError, match="M"):
        bs.resample_indices(5, 2, "row")


def test_batch_ranks_equal_rank_scores_with_ties():
    rng = np.random.default_rng(0)
    S = rng.integers(0, 3, size=(500, 7)) / 3.0
    S[::3] += rng.random((167, 7)) * 1e-14  # float noise below the tie tolerance
    got = rank_scores_batch(S)
    assert all(np.array_equal(got[i], rank_scores(S[i])) for i in range(len(S)))
    assert (rank_scores_batch([[1.0, np.nan]]) == 0).all()


def test_tau_b_to_equals_scipy_with_ties():
    rng = np.random.default_rng(1)
    X = rng.integers(1, 4, size=(40, 6))
    t = np.array([1, 2, 2, 4, 5, 5])
    got = tau_b_to(X, t)
    want = [_tau(x, t) for x in X]
    np.testing.assert_allclose(got, want, equal_nan=True)


# ---------------------------------------------------------------------------
# curves and convergence@n vs a plain loop
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("scheme", bs.SCHEMES)
def test_curves_equal_a_plain_rerank_loop(small, scheme):
    R, R0 = small
    methods = FAST + ["borda", "bradley_terry"]
    B = 6
    cur = convergence_curves(R, R0, methods, replicates=B, scheme=scheme, seed=11)
    idx = bs.resample_indices(R.shape[2], B, scheme, seed=11, M=R.shape[1])
    gold = METHODS["bayes"](R)[0]
    for mid in methods:
        want = np.full((B, R.shape[2]), np.nan)
        for b in range(B):
            for s, r in enumerate(_loop_ranks(mid, R, R0, idx[b])):
                if r is not None:
                    want[b, s] = _tau(r, gold)
        np.testing.assert_allclose(cur.tau[mid], want, equal_nan=True, err_msg=mid)


@pytest.mark.parametrize("scheme", ["column", "row"])
@pytest.mark.parametrize("target", ["gold", "self"])
def test_convergence_at_n_equals_the_definition_loop(small, scheme, target):
    R, R0 = small
    methods = FAST + ["borda"]
    B = 12
    run = convergence_at_n(R, R0, methods, replicates=B, scheme=scheme, seed=5, target=target)
    idx = bs.resample_indices(R.shape[2], B, scheme, seed=5, M=R.shape[1])
    for mid in methods:
        tgt = target_ranks(mid, R, R0, target)
        want = [_loop_s_star(_loop_ranks(mid, R, R0, idx[b]), tgt) for b in range(B)]
        assert run.s_star[mid].tolist() == want, mid


def test_results_do_not_depend_on_batch(coins):
    R = coins.R[:, :, :30]
    kw = dict(methods=["bayes", "pass_at_k_2", "borda"], replicates=40, seed=9)
    a = convergence_at_n(R, batch=7, **kw)
    b = convergence_at_n(R, batch=4096, **kw)
    for mid in kw["methods"]:
        assert np.array_equal(a.s_star[mid], b.s_star[mid])
    c1 = convergence_curves(R, batch=3, **kw)
    c2 = convergence_curves(R, batch=1000, **kw)
    for mid in kw["methods"]:
        np.testing.assert_array_equal(c1.tau[mid], c2.tau[mid])


def test_fixed_ranking_converges_at_first_trial():
    # every trial identical: model l solves the first 6 - l questions in every trial
    L, M, N = 5, 8, 10
    R = np.zeros((L, M, N), dtype=np.int8)
    for m in range(L):
        R[m, : 6 - m] = 1
    run = convergence_at_n(R, methods=["bayes", "avg", "pass_at_k_4", "borda"], replicates=50)
    assert (run.s_star["bayes"] == 1).all() and (run.s_star["avg"] == 1).all()
    assert (run.s_star["borda"] == 1).all()
    assert (run.s_star["pass_at_k_4"] == 4).all()  # no Pass@4 ranking before 4 trials
    assert run.summary.set_index("method").loc["bayes", "no_convergence"] == 0.0
    pmf = run.pmf[run.pmf.method == "bayes"]
    assert pmf.loc[pmf.n == 1, "p"].item() == 1.0
    cur = convergence_curves(R, methods=["bayes"], replicates=20)
    assert np.allclose(cur.tau["bayes"], 1.0)


def test_tie_heavy_tensor():
    # models 0/1 and 2/3 are identical: the target ties them and so does every replicate
    rng = np.random.default_rng(3)
    base = (rng.random((3, 12, 10)) < [[[0.8]], [[0.5]], [[0.2]]]).astype(np.int8)
    R = base[[0, 0, 1, 1, 2]]
    gold = METHODS["bayes"](R)[0]
    assert gold[0] == gold[1] and gold[2] == gold[3]
    cur = convergence_curves(R, methods=["bayes", "pass_at_k_2"], replicates=30, seed=2)
    idx = bs.resample_indices(10, 30, "column", seed=2)
    for b in range(30):
        r = METHODS["bayes"](R[:, :, idx[b]][:, :, :3])[0]
        assert cur.tau["bayes"][b, 2] == pytest.approx(_tau(r, gold))
        assert r[0] == r[1] and r[2] == r[3]
    # a constant tensor ties everything: tau_b is undefined (NaN), never a fake 1
    flat = convergence_curves(np.ones((3, 4, 5), int), methods=["bayes"], replicates=3)
    assert np.isnan(flat.tau["bayes"]).all()
    run = convergence_at_n(R, methods=["bayes"], replicates=200, seed=2)
    s = run.s_star["bayes"]
    assert ((s >= 0) & (s <= 9)).all() and (s > 0).any()


def test_biased_coins_bayes_beats_pass8_against_the_true_ranking(coins):
    """000 Fig. 2: vs the known true ranking, Bayes@N rises with N and stays above Pass@8."""
    truth = np.asarray(coins.metadata["true_means"])
    cur = convergence_curves(
        coins.R, methods=["bayes", "pass_at_k_8"], replicates=1000, target=truth, seed=0
    )
    s = cur.summary.pivot(index="n", columns="method", values="mean")
    grid = [1, 2, 4, 8, 16, 32, 64]
    assert np.all(np.diff(s.loc[grid, "bayes"].to_numpy()) > 0)
    assert s.loc[80, "bayes"] > s.loc[1, "bayes"] + 0.1
    n8 = s.index >= 8
    assert (s.loc[n8, "bayes"] > s.loc[n8, "pass_at_k_8"]).all()


def test_worst_trajectory_is_the_latest_changing_replicate(coins):
    R = coins.R
    run = convergence_at_n(R, methods=["bayes"], replicates=300, seed=4)
    b = run.worst("bayes")
    assert run.last_change["bayes"][b] == run.last_change["bayes"].max()
    traj = worst_trajectory(run, "bayes", R)
    idx = bs.resample_indices(R.shape[2], 1, "column", 4, start=b)[0]
    assert traj.shape == (80, 11)
    assert np.array_equal(traj[-1], METHODS["bayes"](R[:, :, idx])[0])
    gold = METHODS["bayes"](R)[0]
    last = run.last_change["bayes"][b]
    assert not np.array_equal(traj[last - 1], gold)
    assert all(np.array_equal(t, gold) for t in traj[last:])
    # the slowest *converging* replicate: its trajectory settles exactly at convergence@n
    bc = run.worst("bayes", converged=True)
    s = run.s_star["bayes"][bc]
    assert s == run.s_star["bayes"].max() > 0
    traj = worst_trajectory(run, "bayes", R, converged=True)
    assert not np.array_equal(traj[s - 2], gold) and all(
        np.array_equal(t, gold) for t in traj[s - 1 :]
    )
    slow = rank_trajectory("borda", R[:, :, :6])
    assert np.array_equal(slow[-1], METHODS["borda"](R[:, :, :6])[0])


def test_subset_convergence_table(coins):
    tab = subset_convergence(
        coins.R,
        methods=["bayes", "pass_at_k_2"],
        sizes=(3, 5, 50),
        subsets=3,
        replicates=50,
        models=coins.models,
    )
    assert tab["size"].tolist() == [3, 3, 3, 5, 5, 5]  # 50 > L is dropped
    assert tab["models"].str.count(", ").tolist() == [2, 2, 2, 4, 4, 4]
    assert tab["bayes"].between(1, 80).all()
    assert tab["bayes no-conv"].between(0, 1).all()


def test_fast_paths_cover_the_count_metrics(small):
    R, R0 = small
    assert all(fast_path(m, R, R0) is not None for m in FAST)
    assert fast_path("bayes_greedy", R, None) is None
    assert fast_path("bayes_ci", R) is None and fast_path("borda", R) is None


def test_bad_input_is_refused(small):
    R, R0 = small
    with pytest.raises(ValidationError, match="unknown method"):
        convergence_curves(R, methods=["nope"], replicates=2)
    with pytest.raises(ValidationError, match="one value per model"):
        convergence_curves(R, methods=["bayes"], replicates=2, target=[1.0, 2.0])
    with pytest.raises(ValidationError, match="at least 2 models"):
        convergence_at_n(R[:1], methods=["bayes"], replicates=2)
    run = convergence_at_n(R, None, ["bayes_greedy", "bayes"], replicates=2)
    assert "bayes_greedy" in run.skipped and "bayes" in run.s_star


def test_convergence_matches_a_reference_package_loop(coins):
    """Differential: re-ranking every prefix with the reference `scorio` gives the same s*."""
    ref = pytest.importorskip("scorio.rank")
    R = coins.R[:, :, :24]
    B = 8
    run = convergence_at_n(R, methods=["bayes", "pass_at_k_2", "pass_at_k_4"], replicates=B,
                           seed=12)
    idx = bs.resample_indices(R.shape[2], B, "column", seed=12)
    gold = ref.bayes(R)
    for mid, fn, kw in (("bayes", ref.bayes, {}), ("pass_at_k_2", ref.pass_at_k, {"k": 2}),
                        ("pass_at_k_4", ref.pass_at_k, {"k": 4})):
        k = kw.get("k", 1)
        want = [_loop_s_star([fn(R[:, :, idx[b]][:, :, :s], **kw) if s >= k else None
                              for s in range(1, 25)], gold) for b in range(B)]
        assert run.s_star[mid].tolist() == want, mid


# --------------------------------------------------------------- issue 10: convergence with CI
def _aime_like():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from test_inference import aime_like

    return aime_like()[0]


def test_convergence_with_ci_is_never_later_than_exact():
    from scorio_core.engines.convergence import convergence_at_n

    R = _aime_like()
    kw = dict(methods=["bayes", "pass_at_k_2"], replicates=400, seed=3)
    exact = convergence_at_n(R, **kw)
    ci = convergence_at_n(R, match="ci", **kw)
    for m in kw["methods"]:
        # an exact match is also a match up to CI ties, so the last mismatch is never later
        assert (ci.last_change[m] <= exact.last_change[m]).all()
    assert ci.summary["no_convergence"].sum() < exact.summary["no_convergence"].sum()
    assert ci.match == "ci" and exact.match == "exact"


def test_ci_requirements_follow_the_decided_pairs():
    from scorio_core.engines.convergence import ci_requirements, convergence_at_n

    R = np.zeros((3, 30, 6), dtype=int)
    R[0] = 1  # model 0 always right: decided above both others at every step
    R[1, :15, :3] = 1
    R[2, :14, :3] = 1  # model 2 just below model 1: a CI tie
    i, j = ci_requirements(R, np.array([1, 2, 3]))
    assert sorted(zip(i.tolist(), j.tolist(), strict=True)) == [(0, 1), (0, 2)]
    kw = dict(methods=["bayes"], replicates=50, scheme="permutation")
    assert (convergence_at_n(R, match="ci", **kw).s_star["bayes"] == 1).all()
    assert (convergence_at_n(R, **kw).s_star["bayes"] > 1).any()


def test_explanations_say_why_and_what_to_change():
    from scorio_core.engines.convergence import convergence_at_n, explain_convergence

    R1 = np.random.default_rng(0).integers(0, 2, (4, 10, 1))
    # N = 1: undefined, refused with the reason (it used to report "never converges")
    with pytest.raises(ValidationError, match="needs at least 2 trials per question"):
        convergence_at_n(R1, methods=["bayes"], replicates=20)
    R = _aime_like()
    run = convergence_at_n(R, methods=["bayes", "pass_at_k_2", "pass_at_k_4"], replicates=300)
    msgs = explain_convergence(run, R)
    assert any("pass_at_k_4" in m and "k = N = 4" in m for m in msgs)
    assert any("never converges" in m and "15 of 15" in m for m in msgs)
    # several methods take the plural verb (it read "pass_at_k_2, pass_hat_k_2 never converges")
    two = convergence_at_n(R, methods=["pass_at_k_2", "pass_hat_k_2"], replicates=300)
    assert explain_convergence(two, R)[0].startswith(
        "pass_at_k_2, pass_hat_k_2 never converge in 300 replicates.")
    assert any(m.startswith("What to change") and "with CI" in m for m in msgs)
    # the trial count quoted is the papers' 50 % point, and says so (it was called the Planner's)
    from scorio_core.leaderboard import leaderboard
    pairs = leaderboard(R, draws=1).unresolved()
    need = pairs["trials_needed_papers"].replace(np.inf, np.nan).max()
    todo = next(m for m in msgs if m.startswith("What to change"))
    assert f"about {int(need):,} per question, a 50% point" in todo and "80% chance" in todo
    ok = convergence_at_n(R, methods=["bayes"], match="ci", scheme="permutation", replicates=100)
    assert explain_convergence(ok, R) == []


def test_truth_target_explains_ties_and_pairs_against_the_truth(coins):
    """Against the coins' true means an exact match is out of reach: the truth ties LLM_4
    and LLM_5, and all 80 trials put LLM_9 above LLM_10 (true 0.608 < 0.6213). The
    explanation said "adjacent gold pairs" and "collect more trials (about 3,070 per
    question)", neither of which is about the truth."""
    from scorio_core.engines.convergence import convergence_at_n, explain_convergence

    truth = np.asarray(coins.metadata["true_means"])
    kw = dict(methods=["bayes"], replicates=300, target=truth, seed=0)
    run = convergence_at_n(coins.R, **kw)
    assert (run.s_star["bayes"] == 0).mean() > 0.95
    msgs = explain_convergence(run, coins.R, truth=truth, models=coins.models)
    text = " ".join(msgs)
    assert "The truth ties LLM_4 and LLM_5 (0.3642 each)" in text
    # the tie caps an untied ranking's tau_b: sqrt(54/55) for one tied pair of 55
    assert f"τ_b = {np.sqrt(54 / 55):.3f}" in text
    assert "bayes puts LLM_9 above LLM_10 (true 0.608 < 0.6213), against the truth" in text
    assert "gold" not in text and "3,070" not in text and "permutation" not in text
    todo = next(m for m in msgs if m.startswith("What to change"))
    assert "with CI" in todo and "new data" in todo
    # with CI the tied pair and the undecided LLM_9/LLM_10 are free: Bayes@N converges
    ci = convergence_at_n(coins.R, match="ci", **kw)
    assert (ci.s_star["bayes"] > 0).all()
    assert explain_convergence(ci, coins.R, truth=truth, models=coins.models) == []
    # a truth the full data agree with, untied: nothing structural, the usual reasons
    fair = truth + 1e-3 * np.arange(truth.size)
    fair[[8, 9]] = fair[[9, 8]]
    ok = convergence_at_n(coins.R, methods=["bayes"], replicates=300, target=fair, seed=0)
    said = " ".join(explain_convergence(ok, coins.R, truth=fair, models=coins.models))
    assert "ties" not in said and "against the truth" not in said


def test_cli_convergence_match_ci(capsys, tmp_path):
    from scorio_core import Outcomes
    from scorio_core.cli import main
    from scorio_core.io import save_table

    path = tmp_path / "small.csv"
    save_table(Outcomes(_aime_like()), path, format="csv")
    assert main(["convergence", str(path), "--replicates", "200", "--match", "ci", "--format",
                 "table"]) == 0
    out = capsys.readouterr().out
    assert "match ci" in out and "pass_at_k_8" in out
    assert main(["convergence", str(path), "--replicates", "200", "--format", "table"]) == 0
    assert "What to change" in capsys.readouterr().out


def test_trial_axes_show_whole_numbers():
    from scorio_core import charts

    pmf = pd.DataFrame({"method": ["bayes"] * 3, "n": [1, 2, 3], "p": [0.2, 0.5, 0.1]})
    spec = charts.convergence_pmf(pmf).to_dict()
    axis = spec["layer"][0]["encoding"]["x"]["axis"]
    # every whole n of a short range once (tickMinStep alone drew 1, 2, 2, 3, 3 on 1..3)
    assert axis["format"] == ",d" and axis["values"] == [1, 2, 3]
    long = pmf.assign(n=[1, 40, 80])
    axis = charts.convergence_pmf(long).to_dict()["layer"][0]["encoding"]["x"]["axis"]
    assert axis["format"] == ",d" and axis["tickMinStep"] == 1


def test_the_summary_reads_the_same_in_the_cli_and_the_app():
    """The app showed mean 29.2 and no_convergence 0.077 where the CLI printed 29.200 and
    0.0770: the summary now declares its decimals once, on the table, for every renderer."""
    from app_state.texts import core_cells, printf_formats
    from scorio_core.engines.convergence import SUMMARY_DECIMALS, convergence_at_n
    from scorio_core.formatting import format_columns

    R = _aime_like()
    s = convergence_at_n(R, methods=["bayes", "pass_at_k_4"], replicates=200).summary
    cells = {name: c for name, _, c in format_columns(s)}
    for col, d in SUMMARY_DECIMALS.items():
        finite = [c for c in cells[col] if c != "—"]
        assert finite and all((len(c.split(".")[1]) if "." in c else 0) == d for c in finite)
    assert (core_cells(s, ["mean_trials", "median_trials"])["mean_trials"].tolist()
            == cells["mean_trials"])
    assert printf_formats(s)["no_convergence"] == "%.3f"
    assert printf_formats(s)["mean_trials_censored"] == "%.1f"


def _browser(v: float, decimals: int) -> str:
    """What the app's table draws for ``v`` under a printf format with ``decimals``
    (JavaScript's toFixed: an exact half rounds up), and — for a missing value."""
    from decimal import ROUND_HALF_UP, Decimal

    if not np.isfinite(v):
        return "—"
    return f"{Decimal(v).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP):,}"


def test_the_apps_summary_is_numbers_that_print_as_the_cli():
    """The page showed mean_trials and median_trials as text so that — could stand where
    nothing converged, and a header click sorted them as text (10 before 2). They are
    numbers now, rounded as the CLI and the reports print them (a browser would round the
    median 2.5 to 3 and the mean 6.25 to 6.3 where the CLI prints 2 and 6.2); the rows
    that never converged stay recognisable."""
    from app_state.texts import printf_formats
    from scorio_core.engines.convergence import SUMMARY_DECIMALS, ConvergenceRun
    from scorio_core.formatting import format_columns, printed_numbers

    s_star = {"halves": np.array([1, 2, 3, 4, 0]), "tie": np.array([6, 6, 6, 7, 0]),
              "never": np.zeros(5, int)}  # fmt: skip
    run = ConvergenceRun(n_max=13, s_star=s_star, last_change={k: v for k, v in s_star.items()},
                         target="gold", scheme="column", seed=0)
    summary = run.summary
    assert summary.set_index("method").loc["halves", "median_trials"] == 2.5  # the case
    shown = printed_numbers(summary)
    cli = {name: cells for name, _, cells in format_columns(summary)}  # CLI and reports
    fmts = printf_formats(shown)
    for col in SUMMARY_DECIMALS:
        assert pd.api.types.is_float_dtype(shown[col]), col  # sorted by number
        d = 0 if fmts[col] == "localized" else int(fmts[col][2:-1])
        assert d == SUMMARY_DECIMALS[col]
        assert [_browser(v, d) for v in shown[col]] == cli[col], col
    assert cli["median_trials"] == ["2", "6", "—"] and cli["mean_trials"][1] == "6.2"
    # before: the unrounded numbers would have drawn otherwise in the browser
    assert _browser(2.5, 0) == "3" and _browser(6.25, 1) == "6.3"
    # censored rows: no mean or median where nothing converged, N in the censored mean
    never = shown.set_index("method").loc["never"]
    assert np.isnan(never["mean_trials"]) and np.isnan(never["median_trials"])
    assert never["no_convergence"] == 1.0 and never["mean_trials_censored"] == 13.0
    assert shown["no_convergence"].tolist() == [0.2, 0.2, 1.0]


def _tied_pair():
    """Four models: two far apart, and c, d with equal totals on every question from
    different trials (d is c with each question's trials shuffled): the gold ranking ties
    c and d, while a re-drawn replicate almost never does."""
    rng = np.random.default_rng(4)
    R = np.zeros((4, 30, 8), dtype=int)
    R[0] = rng.random((30, 8)) < 0.95
    R[1] = rng.random((30, 8)) < 0.75
    R[2] = rng.random((30, 8)) < 0.45
    R[3] = np.stack([rng.permutation(row) for row in R[2]])
    assert R[2].sum() == R[3].sum() and not np.array_equal(R[2], R[3])
    return R, ["a", "b", "c", "d"]


def test_a_tie_in_the_gold_ranking_rules_out_an_exact_match_and_no_trials_are_offered():
    """Audit: on AIME'25 the gold ranking ties OR1-Distill and OR-Nemotron (the Leaderboard's
    trials_needed_papers ∞, the Planner: no amount of data orders them), yet "What to change"
    offered
    "collect more trials (... about 124,320 per question ...)": the ∞ pair was dropped
    before the maximum. An exact match with a tie in the target cannot happen at any N."""
    from scorio_core.engines.convergence import ci_requirements, explain_convergence

    R, names = _tied_pair()
    kw = dict(methods=["bayes"], replicates=300, seed=0)
    run = convergence_at_n(R, **kw)
    assert (run.s_star["bayes"] == 0).mean() > 0.95
    msgs = explain_convergence(run, R, models=names)
    text = " ".join(msgs)
    assert "The gold standard on all N = 8 trials ties c and d (Bayes@N" in text
    assert "more trials make it rarer still" in text
    todo = next(m for m in msgs if m.startswith("What to change"))
    assert "collect more trials" not in todo and "per question" not in todo
    assert "with CI (match 'ci'): tied pairs and pairs" in todo
    # with CI the tied pair is not required (only decided pairs are), and Bayes@N settles
    i, j = ci_requirements(R, target_ranks("bayes", R))
    assert {(2, 3), (3, 2)}.isdisjoint(zip(i.tolist(), j.tolist(), strict=True))
    ci = convergence_at_n(R, match="ci", **kw)
    assert (ci.s_star["bayes"] > 0).mean() > 0.9
    said = " ".join(explain_convergence(ci, R, models=names))
    assert "ties c and d" not in said and "collect more trials" not in said
    # identical outcomes tie at every step of every replicate too: no obstacle, not named
    same = R.copy()
    same[3] = same[2]
    said = " ".join(explain_convergence(convergence_at_n(same, **kw), same, models=names))
    assert "ties c and d" not in said


def test_a_near_tie_is_no_tie_and_keeps_the_trials_advice():
    """One success apart is a near-tie, which more trials do resolve: not named as a tie; where
    a method never converges without a tie in the target (the AIME-like field), the trials
    advice stays (test_explanations_say_why_and_what_to_change reads its number)."""
    from scorio_core.engines.convergence import explain_convergence

    R, names = _tied_pair()
    R[3, 0, np.argmax(R[3, 0] == 0)] = 1  # d one success ahead of c
    run = convergence_at_n(R, methods=["bayes"], replicates=300, seed=0)
    assert "ties" not in " ".join(explain_convergence(run, R, models=names))
    A = _aime_like()
    run = convergence_at_n(A, methods=["bayes", "pass_at_k_2"], replicates=300, seed=0)
    msgs = explain_convergence(run, A)
    assert not any("ties" in m for m in msgs)
    assert "collect more trials" in next(m for m in msgs if m.startswith("What to change"))


def test_with_ci_only_the_decided_pairs_a_method_orders_against_gold_are_named():
    """With CI the near-ties are free: the reasons name the decided pairs a method's full
    ranking puts the other way (not "an exact match with gold can never last"), and offer
    no more trials (more trials decide more pairs, each one then required)."""
    from scorio_core.engines.convergence import ci_requirements, explain_convergence

    R = _aime_like()
    run = convergence_at_n(R, methods=["pass_at_k_2"], replicates=200, match="ci")
    text = " ".join(explain_convergence(run, R))
    assert "exact match" not in text and "collect more trials" not in text
    i, j = ci_requirements(R, target_ranks("bayes", R))
    own = METHODS["pass_at_k_2"](R)[0]
    against = sum(own[a] >= own[b] for a, b in zip(i, j, strict=True))
    assert ("pairs the full data decide the other way" in text) == (against > 0)


def test_the_pmf_and_cdf_leave_out_methods_that_never_converged_and_say_so():
    """Audit: the Distribution chart's legend listed 4 methods while only bayes was drawn --
    the never-converged ones were lines at 0 under the x axis."""
    from scorio_core import Outcomes, charts
    from scorio_core.definitions import ANALYSES

    pmf = pd.DataFrame({"method": ["bayes"] * 3 + ["pass_at_k_2"] * 3, "n": [1, 2, 3] * 2,
                        "p": [0.2, 0.5, 0.1, 0.0, 0.0, 0.0]})
    for chart in (charts.convergence_pmf(pmf),
                  charts.convergence_cdf(pmf.rename(columns={"p": "cdf"}))):
        spec = chart.to_dict()
        data = next(iter(spec["datasets"].values()))
        assert {row["method"] for row in data} == {"bayes"}
    conv = ANALYSES["convergence"]
    R = np.zeros((3, 20, 4), dtype=int)
    R[0] = 1
    R[1, :, :2] = 1  # a fixed order from the first trial: bayes converges at n = 1
    r = conv.run(Outcomes(R), conv.params(methods="bayes,pass_at_k_4", replicates=50,
                                          curve_replicates=None))
    _, dist, cum, _ = conv.charts(r)
    for c in (dist, cum):
        assert c.empty is None and c.caption.endswith(
            "Not drawn: pass_at_k_4 (no replicate converged; see the summary).")


@pytest.mark.parametrize("steps", [[1.5], [2, 2.5], [True], [0], []])
def test_steps_that_are_not_whole_trial_counts_are_refused(steps):
    """A step is a number of trials per question: 1.5 had been cut to 1 (and True read as
    1) without a word; a whole float such as 2.0 is still 2 (the rule order_curve's trial
    counts follow: one helper, ``whole_numbers``)."""
    from scorio_core._validation import check_steps

    with pytest.raises(ValidationError, match="steps must be whole numbers >= 1"):
        check_steps(4, steps)
    assert check_steps(4, [2.0, 4]).tolist() == [2, 4]
