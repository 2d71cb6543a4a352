"""Low-budget stability (002 §3.2-3.3) and greedy vs sampling (002 §3.4)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import kendalltau

from scorio_core import io
from scorio_core._validation import ValidationError
from scorio_core.engines.greedy import greedy_vs_sampling
from scorio_core.engines.stability import low_budget_stability, pool_robustness, single_trial_ranks
from scorio_core.rank import METHODS


@pytest.fixture(scope="module")
def synth(data_dir):
    return io.load(data_dir / "reasoning_synthetic.npz")


@pytest.fixture(scope="module")
def aime(synth):
    d = synth.select("AIME'24")
    return d.R[:12], d.R0[:12]


def _tau(a, b):
    return kendalltau(a, b, variant="b").statistic


def test_single_trial_ranks_fast_equal_per_slice_ranker(aime):
    R, R0 = aime
    for mid in ["bayes", "avg", "bayes_greedy", "borda"]:
        got = single_trial_ranks(mid, R, R0)
        want = np.stack([METHODS[mid](R[:, :, n : n + 1], R0)[0] for n in range(R.shape[2])])
        assert np.array_equal(got, want), mid


def test_stability_values_and_classes(aime):
    R, R0 = aime
    methods = ["bayes", "avg", "bayes_greedy", "borda", "elo_tie_draw", "pass_at_k_2"]
    st = low_budget_stability(R, R0, methods)
    assert "pass_at_k_2" in st.skipped and "N = 1" in st.skipped["pass_at_k_2"]
    gold = METHODS["bayes"](R)[0]
    own = METHODS["elo_tie_draw"](R)[0]
    want_gold = [
        _tau(METHODS["elo_tie_draw"](R[:, :, n : n + 1])[0], gold) for n in range(R.shape[2])
    ]
    want_self = [
        _tau(METHODS["elo_tie_draw"](R[:, :, n : n + 1])[0], own) for n in range(R.shape[2])
    ]
    np.testing.assert_allclose(st.tau["gold"]["elo_tie_draw"], want_gold)
    np.testing.assert_allclose(st.tau["self"]["elo_tie_draw"], want_self)
    tab = st.table.set_index("method")
    assert tab.loc["elo_tie_draw", "gold_mean"] == pytest.approx(np.mean(want_gold))
    assert tab.loc["elo_tie_draw", "self_sd"] == pytest.approx(np.std(want_self))
    # bayes and avg order models identically on every slice: one class
    cls = st.classes("gold")
    row = cls[cls.methods.str.contains("bayes, avg|avg, bayes")]
    assert len(row) == 1 and row["size"].item() >= 2
    assert cls["mean"].is_monotonic_decreasing
    assert st.best("gold")["mean"] == cls["mean"].max()
    assert st.classes("self")["mean"].iloc[0] == max(
        np.mean(st.tau["self"][m]) for m in st.tau["self"]
    )
    # bayes is the gold standard: at N = 80 its self-consistency target equals gold
    np.testing.assert_allclose(st.tau["gold"]["bayes"], st.tau["self"]["bayes"])
    with pytest.raises(ValidationError, match="target"):
        st.classes("nope")


def test_greedy_prior_narrows_the_n1_distribution_on_bundled_data(synth):
    """002 Table 4: the greedy prior lowers the s.d. of tau_b at N = 1 on every benchmark,
    and the synthetic data reproduce the paper's greedy-sampling alignment tau_G-S."""
    paper_tau_gs = {"AIME'24": 0.739, "AIME'25": 0.660, "HMMT'25": 0.635, "BrUMO'25": 0.768}
    for bench, t in paper_tau_gs.items():
        d = synth.select(bench)
        g = greedy_vs_sampling(d.R, d.R0, models=d.models, replicates=50)
        assert g.tau_gs == pytest.approx(t, abs=0.02), bench
        assert g.sd_reduction > 0.1, bench
        assert g.sd_reduction_gap.separated and g.sd_reduction_gap.lo > 0, bench
    assert g.n1["n"].tolist() == [1, 1]


def test_greedy_definitions(aime):
    R, R0 = aime
    g = greedy_vs_sampling(R, R0, replicates=8, seed=1)
    greedy = METHODS["avg"](R0)[0]
    sampling = METHODS["bayes"](R)[0]
    assert g.tau_gs == pytest.approx(_tau(greedy, sampling))
    r = g.ranks
    assert (r.displacement == r.greedy_rank - r.sampling_rank).all()
    assert r.sampling_rank.is_monotonic_increasing
    t_u, t_g = g.curves.tau["bayes"][:, 0], g.curves.tau["bayes_greedy"][:, 0]
    assert g.delta_tau == pytest.approx(t_g.mean() - t_u.mean())
    assert g.sd_reduction == pytest.approx(1 - t_g.std() / t_u.std())
    assert len(g.distributions) == 16
    assert g.difficulty == pytest.approx(R.mean())
    with pytest.raises(ValidationError, match="needs greedy outcomes"):
        greedy_vs_sampling(R, None)
    with pytest.raises(ValidationError, match="R0 must have shape"):
        greedy_vs_sampling(R, R0[:3])


def test_sd_reduction_interval_from_known_spreads():
    """The s.d. reduction's interval (paired_sd_reduction, the paired construction of
    paired_gap on the log of the s.d. ratio) against known truth: a spread truly half as
    wide is called narrower on every seed; equal spreads are called different about as
    often as the 95% level allows; the interval always holds its point."""
    from scorio_core.engines.agreement import paired_sd_reduction

    n, seeds = 50, range(200)
    false_claims = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        b = rng.normal(0.6, 0.1, n)
        # the same datasets scored twice: correlated, one truly half as spread out
        narrow = 0.6 + 0.5 * (b - 0.6) + rng.normal(0, 0.01, n)
        same = 0.6 + 0.7 * (b - 0.6) + rng.normal(0, 0.1 * np.sqrt(1 - 0.7**2), n)
        g = paired_sd_reduction(narrow, b)
        assert g.separated and 0 < g.lo <= g.mean <= g.hi < 1, (seed, g)
        assert g.mean == pytest.approx(1 - narrow.std() / b.std())
        g = paired_sd_reduction(same, b)
        assert g.lo <= g.mean <= g.hi < 1, (seed, g)
        false_claims += g.separated
    assert false_claims <= 0.1 * len(seeds), false_claims  # 95%: about 10 of 200 expected
    # replicates that re-draw 12 slices: no narrower than those 12 allow
    rng = np.random.default_rng(0)
    a, b = rng.normal(0, 0.5, 12), rng.normal(0, 1.0, 12)
    idx = rng.integers(0, 12, 400)
    many, drawn = paired_sd_reduction(a[idx], b[idx]), paired_sd_reduction(
        a[idx], b[idx], draws_from=12)
    assert drawn.mean == many.mean and drawn.hi - drawn.lo > 2 * (many.hi - many.lo)
    # nothing to state: one side does not vary, or one pair
    assert np.isnan(paired_sd_reduction(np.ones(8), b[:8]).lo)
    assert np.isnan(paired_sd_reduction(b[:8], np.ones(8)).mean)
    assert paired_sd_reduction([0.1, np.nan], [0.2, 0.3]).n == 1


def test_greedy_sd_reduction_interval_on_known_truth():
    """A greedy record of two more trials from the same models truly narrows τ_b at N = 1
    (it adds information): the interval excludes 0 and the verdict says so. A greedy record
    the same for every model (no information on them) leaves each replicate's ranking, and
    so the spread, unchanged: no claim, with an interval around 0."""
    from scorio_core import Outcomes
    from scorio_core.definitions import ANALYSES

    greedy = ANALYSES["greedy"]
    rng = np.random.default_rng(0)
    p_true = np.linspace(0.3, 0.8, 8)[:, None, None]
    R = (rng.random((8, 40, 16)) < p_true).astype(int)
    informative = (rng.random((8, 40, 2)) < p_true).astype(int)
    p = greedy.params(replicates=50, seed=1)
    r = greedy.run(Outcomes(R, R0=informative), p)
    g = r.detail.sd_reduction_gap
    assert g.separated and 0 < g.lo <= g.mean <= g.hi < 1, g
    sd = r.detail.n1["sd"].to_numpy()
    assert g.mean == pytest.approx(1 - sd[1] / sd[0])
    assert "it narrows the spread by" in greedy.notice_for(p, r)
    r = greedy.run(Outcomes(R, R0=np.zeros((8, 40, 2), int)), p)
    t = r.detail.curves.tau
    np.testing.assert_array_equal(t["bayes_greedy"][:, 0], t["bayes"][:, 0])
    g = r.detail.sd_reduction_gap
    assert g.mean == 0 and g.lo < 0 < g.hi and not g.separated
    assert "it makes no clear difference in spread" in greedy.notice_for(p, r)
    row = greedy.tables(r)["table"].iloc[0]
    assert (row["sd_reduction_lo"], row["sd_reduction_hi"]) == pytest.approx((g.lo, g.hi))


def test_pool_robustness(aime):
    R, R0 = aime
    tab = pool_robustness(R, R0, ["bayes", "bayes_greedy", "borda"], sizes=(4, 8), pools=3)
    assert set(tab.pool_size) == {4, 8} and len(tab) == 6
    assert tab[["gold_mean", "self_mean"]].abs().le(1).all().all()
    # every pool has at least one best method
    assert (tab.groupby("pool_size").top_fraction.sum() >= 1.0 - 1e-12).all()
    with pytest.raises(ValidationError, match="no pool size"):
        pool_robustness(R, R0, ["bayes"], sizes=(40,), pools=2)


def _stability(gold: dict, own: dict | None = None):
    from scorio_core.engines.stability import Stability

    own = gold if own is None else own
    tau = {"gold": {m: np.asarray(v, float) for m, v in gold.items()},
           "self": {m: np.asarray(v, float) for m, v in own.items()}}
    return Stability(tau, {m: "metrics" for m in gold})


def test_a_best_is_named_only_when_the_slices_separate_it():
    """Audit: "Best vs gold 0.8077 ± 0.0482 — bayes_greedy" beside 0.8018 and 0.7974 (the ±
    an s.d. over slices, the slices never counted), and "Best vs gold 1.0000 ± 0.0000" from
    3 slices. A best now needs the paired gap to every other class to exclude 0."""
    rng = np.random.default_rng(5)
    base = rng.uniform(0.6, 0.9, 40)
    clear = _stability({"a": base + 0.05, "b": base, "c": base - 0.01 * rng.random(40)})
    s = clear.standing("gold")
    assert s.resolved and s.slices == 40 and s.within_noise == []
    text = clear.claim("gold")
    assert text.startswith(f"Best vs gold: a, mean τ_b {np.mean(base + 0.05):.4f} (s.d. ")
    assert "over 40 single-trial slices); the runner-up, b, is 0.0500 lower (95% interval " in text
    # a runner-up within noise: no best, and the classes near the top named
    noisy = base + np.resize([0.05, -0.05], 40)  # level with a on average, 0.05 either way
    close = _stability({"a": base + 0.004, "b": noisy, "c": base - 0.3})
    s = close.standing("gold")
    assert not s.resolved and s.within_noise == ["b"]
    gap = s.gaps["b"]
    assert gap.lo < 0 < gap.hi and not gap.separated
    text = close.claim("gold")
    assert text.startswith("No single best vs gold: a has the highest mean τ_b")
    assert f"but b is within noise of it: {gap.mean:.4f} below (95% interval " in text
    # the self-consistency target reads its own τ_b
    assert close.claim("self").startswith("No single best self-consistency:")


def test_three_slices_never_name_a_best():
    few = _stability({"a": [1.0, 1.0, 1.0], "b": [0.8, 0.8, 0.8], "c": [0.5, 0.6, 0.4]})
    s = few.standing("gold")
    assert not s.resolved and s.within_noise == ["b", "c"]
    assert few.claim("gold") == (
        "No single best vs gold: a has the highest mean τ_b, 1.0000 (s.d. 0.0000 over 3 "
        "single-trial slices), but b and c are within noise of it: 3 slices cannot separate "
        "methods at 95% (that takes at least 6).")
    # one class only: nothing to compare with
    one = _stability({"a": [0.9, 0.8], "b": [0.9, 0.8]})
    assert one.claim("gold").startswith("No best vs gold: every method has the same τ_b")


def test_stability_says_one_claim_on_the_page_in_the_cli_and_in_the_report(aime, capsys,
                                                                            tmp_path):
    from scorio_core import Outcomes
    from scorio_core.cli import main
    from scorio_core.definitions import ANALYSES
    from scorio_core.io import save_table

    R, _ = aime
    data = Outcomes(R)
    stab = ANALYSES["stability"]
    p = stab.params(methods="bayes,borda,rasch_2pl")
    r = stab.run(data, p)
    claims = [r.stability.claim(t) for t in ("gold", "self")]
    assert stab.notice_for(p, r) == " ".join(claims)  # the report's "What to notice"
    path = tmp_path / "aime.csv"
    save_table(data, path, format="csv")
    assert main(["stability", str(path), "--methods", "bayes,borda,rasch_2pl",
                 "--format", "table"]) == 0
    out = capsys.readouterr().out
    assert all(c in out for c in claims)
    assert f"mean and sd over the {R.shape[2]} single-trial slices" in out
