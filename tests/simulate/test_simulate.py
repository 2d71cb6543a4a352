"""scorio_core.simulate: LLM mimics with known truth and the papers' teaching studies.

The paper-setting tests (000 App. C, App. D, §2.7) assert the published numbers within
stated tolerances; each runs in a few seconds with a fixed seed.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import optimize, special

from scorio_core import ValidationError
from scorio_core import eval as ev
from scorio_core import simulate as sim
from scorio_core.engines import kendall_tau_b


# --------------------------------------------------------------------------- package
def _simulate_modules_after(code: str) -> list[str]:
    """The modules of ``scorio_core.simulate`` that ``code`` loads, in a fresh interpreter."""
    probe = (f"{code}\nimport json, sys\nprint(json.dumps(sorted(\n"
             "    m for m in sys.modules if m.startswith('scorio_core.simulate'))))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=Path(__file__).resolve().parents[2],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_public_name_loads_only_its_study_and_the_shared_simulator():
    pkg = "scorio_core.simulate"
    assert _simulate_modules_after(f"import {pkg}") == [pkg]
    assert _simulate_modules_after(f"from {pkg} import CorrectOrder") == [
        pkg, f"{pkg}.order", f"{pkg}.params", f"{pkg}.simulator"]  # its defaults: the study's
    assert _simulate_modules_after(f"from {pkg} import rubric_lesson") == [
        pkg, f"{pkg}.lesson", f"{pkg}.params"]  # the settings: a light module


def test_every_public_name_reads_from_the_package():
    modules = {"simulator", "coins", "depth", "order", "coverage", "lesson", "params"}
    for name in [*sim.__all__, "BLOCK", "Progress", "Curves"]:
        value = getattr(sim, name)
        assert name in dir(sim)
        home = getattr(value, "__module__", None)  # functions and classes say where they live
        if callable(value) and name not in ("Curves", "Progress"):
            assert home.rsplit(".", 1) == ["scorio_core.simulate", sim._LAZY[name]], name
    assert set(sim._LAZY.values()) == modules
    # a name added to a study's module but not to the package's map fails here
    for m in modules:
        own = importlib.import_module(f"scorio_core.simulate.{m}").__all__
        assert set(own) == {n for n, home in sim._LAZY.items() if home == m} - {
            "Progress", "Curves"}, m
    assert set(sim.__all__) == {n for m in modules for n in importlib.import_module(
        f"scorio_core.simulate.{m}").__all__}
    with pytest.raises(AttributeError, match="no attribute 'NOPE'"):
        sim.NOPE  # noqa: B018


# --------------------------------------------------------------------------- mimics
def test_exact_means_and_truth():
    s = sim.mimics(seed=0)
    assert s.p.shape == (11, 30, 2)
    np.testing.assert_allclose(s.truth, sim.PAPER_COINS, rtol=0, atol=1e-12)
    np.testing.assert_allclose(s.p.sum(-1), 1.0)
    # LLM_4 and LLM_5 share a mean but not their questions; the true ranking ties them
    assert not np.allclose(s.p[3], s.p[4])
    assert s.true_ranks[3] == s.true_ranks[4]
    assert s.true_ranks.tolist() == [11, 10, 9, 7, 7, 6, 4, 5, 3, 2, 1]


def test_shift_to_means_matches_scalar_root_finding():
    rng = np.random.default_rng(1)
    raw = rng.beta(0.9, 2.1, size=(5, 40))
    target = np.array([0.1, 0.3, 0.5, 0.7, 0.95])
    got = sim.shift_to_means(raw, target)
    z = special.logit(np.clip(raw, 1e-6, 1 - 1e-6))
    for i, m in enumerate(target):
        d = optimize.brentq(
            lambda d, i=i, m=m: special.expit(z[i] + d).mean() - m, -60, 60, xtol=1e-15
        )
        np.testing.assert_allclose(got[i], special.expit(z[i] + d), rtol=0, atol=1e-12)
    np.testing.assert_allclose(got.mean(-1), target, rtol=0, atol=1e-14)


def test_spread_follows_concentration():
    # Beta(κm, κ(1-m)) has variance m(1-m)/(κ+1)
    for kappa in (1.0, 3.0, 20.0):
        p = sim.question_probs([0.4], 20000, concentration=kappa, seed=2)[0, :, 1]
        assert abs(p.mean() - 0.4) < 0.01
        assert abs(p.var() - 0.24 / (kappa + 1)) < 0.1 * 0.24 / (kappa + 1)


def test_categorical_dirichlet_and_weights():
    shares = [[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]]
    s = sim.mimics(shares, M=20000, weights=[0, 0.25, 1], concentration=4.0, seed=3)
    np.testing.assert_allclose(s.p.mean(1), shares, atol=0.01)
    np.testing.assert_allclose(s.truth, np.array(shares) @ [0, 0.25, 1], atol=0.01)
    # outcomes are drawn from p: observed category shares match over many trials
    R = s.sample(N=50, seed=4)
    freq = np.stack([(R == k).mean((1, 2)) for k in range(3)], -1)
    np.testing.assert_allclose(freq, s.p.mean(1), atol=0.005)


def test_replicate_axis_equals_a_loop_and_is_seeded():
    a = sim.question_probs([0.3, 0.6], 7, size=(4,), seed=5)
    rng = np.random.default_rng(5)
    b = np.stack([sim.question_probs([0.3, 0.6], 7, seed=rng) for _ in range(4)])
    np.testing.assert_array_equal(a, b)
    s = sim.mimics([0.3, 0.6], M=7, seed=5)
    np.testing.assert_array_equal(s.sample(9, replicates=3, seed=6), s.sample(9, 3, seed=6))


def test_counts_have_the_distribution_of_counted_outcomes():
    p = sim.question_probs([[0.2, 0.5, 0.3]], 6, seed=7)
    direct = sim.sample_counts(np.broadcast_to(p, (20000,) + p.shape), 12, seed=8)
    R = sim.sample_outcomes(np.broadcast_to(p, (20000,) + p.shape), 12, seed=9)
    counted = np.stack([(R == k).sum(-1) for k in range(3)], -1)
    np.testing.assert_allclose(direct.mean(0), counted.mean(0), atol=0.06)
    np.testing.assert_allclose(direct.mean(0), 12 * p, atol=0.06)
    np.testing.assert_allclose(direct.var(0), counted.var(0), rtol=0.08, atol=0.01)


def test_greedy_outcomes_correlate_with_samples():
    s = sim.mimics([0.5], M=4000, concentration=2.0, seed=10)
    p1 = s.p[0, :, 1]
    g = sim.greedy_outcomes(s.p, D=1, sharpness=1e6, seed=11)[0, :, 0]
    np.testing.assert_array_equal(g, (p1 > 0.5).astype(int))  # argmax decoding
    g4 = sim.greedy_outcomes(s.p, D=1, sharpness=4.0, seed=11)[0, :, 0]
    assert g4[p1 > 0.7].mean() > 0.95 and g4[p1 < 0.3].mean() < 0.05
    o = s.outcomes(N=5, greedy=2, seed=12)
    assert o.R0.shape == (1, 4000, 2) and o.R.shape == (1, 4000, 5)
    assert o.metadata["true_means"] == pytest.approx([0.5], abs=1e-12)
    assert np.asarray(o.metadata["true_p"]).shape == (1, 4000)


@pytest.mark.parametrize(
    ("means", "match"),
    [
        ([0.2, 1.0], "strictly between 0 and 1"),
        ([[0.2, 0.3, 0.4]], "summing to 1"),
        (np.zeros((2, 2, 2)), "shape"),
    ],
)
def test_bad_means_say_what_was_expected(means, match):
    with pytest.raises(ValidationError, match=match):
        sim.mimics(means)


def test_bad_settings_are_refused():
    with pytest.raises(ValidationError, match="binary means only"):
        sim.question_probs([[0.2, 0.3, 0.5]], 5, exact_means=True)
    with pytest.raises(ValidationError, match="concentration"):
        sim.mimics([0.5], concentration=0)
    with pytest.raises(ValidationError, match="count-based"):
        sim.truth_convergence(sim.mimics([0.3, 0.6], M=5), ["borda"], N=3, replicates=2)
    with pytest.raises(ValidationError, match="scopes"):
        sim.interval_coverage(scopes=("nope",))


# --------------------------------------------------------------- 000 §2.7, Fig. 2a
def test_truth_convergence_bayes_beats_pass_at_k():
    s = sim.mimics(seed=0)
    c = sim.truth_convergence(
        s, ["bayes", "avg", "pass_at_k_8", "pass_hat_k_2"], N=24, replicates=300, seed=1
    )
    m = c.summary.pivot(index="n", columns="method", values="mean")
    # Bayes@N and avg@N rank identically under the uniform prior (000 §2.6, App. B)
    np.testing.assert_array_equal(c.tau["bayes"], c.tau["avg"])
    assert np.isnan(m.loc[7, "pass_at_k_8"]) and np.isfinite(m.loc[8, "pass_at_k_8"])
    assert (m.loc[8:, "bayes"] > m.loc[8:, "pass_at_k_8"] + 0.05).all()
    assert (m.loc[2:, "bayes"] > m.loc[2:, "pass_hat_k_2"]).all()
    assert m["bayes"].iloc[0] < m["bayes"].iloc[-1]  # more trials, closer to the truth
    # the true tie (LLM_4 = LLM_5) caps τ_b below 1 for untied estimates
    assert m["bayes"].max() < kendall_tau_b(s.true_ranks, np.arange(11, 0, -1)) + 1e-12


def test_truth_convergence_fresh_questions():
    # averaged over question draws, Bayes@N beats Pass@2 at every n (one draw of questions
    # can favour Pass@2 on close pairs: it ranks by 2m - m² - Var(p), not by m)
    s = sim.mimics(concentration=3.0, seed=0)
    c = sim.truth_convergence(
        s,
        ["bayes", "pass_at_k_2"],
        N=40,
        steps=(2, 10, 40),
        replicates=400,
        fresh_questions=True,
        seed=2,
    )
    assert c.scheme == "fresh questions"
    m = c.summary.pivot(index="n", columns="method", values="mean")
    assert (m["bayes"] > m["pass_at_k_2"] + 0.005).all(), m
    fp = s.fresh_p(3, seed=1)
    assert fp.shape == (3,) + s.p.shape
    np.testing.assert_allclose(fp[..., 1].mean(-1), np.broadcast_to(sim.PAPER_COINS, (3, 11)))


# --------------------------------------------------------------- 000 App. C, Fig. 5
@pytest.fixture(scope="module")
def depth():
    return sim.prior_depth(steps=(1, 20, 40), replicates=2000, updates=50_000, seed=0)


def test_prior_depth_update_tau_matches_paper(depth):
    np.testing.assert_allclose(depth.original_means, sim.PAPER_ORIGINAL_MEANS, atol=1e-12)
    s = depth.update_summary
    assert 0.86 <= s["mean_tau"] <= 0.90  # paper: 0.88
    assert 0.83 <= s["share_changed"] <= 0.89  # paper: about 86 %


def test_prior_depth_curves_match_paper(depth):
    tau = dict(zip(depth.depths, depth.tau, strict=True))
    j1, j20 = 0, 1
    for d in (1, 2, 4):  # a shallow prior helps at N = 1
        assert tau[d][j1] > tau[0][j1] + 0.02, d
    for d in (8, 16):  # a deep prior helps at N = 1 but falls below uniform later
        assert tau[d][j1] > tau[0][j1]
        assert tau[d][j20] < tau[0][j20] - 0.005, d
    assert all(np.all(np.diff(t) > 0) for t in depth.tau)  # more trials, better
    cur = depth.curves
    assert set(cur.D) == {0, 1, 2, 4, 8, 16} and (cur[cur.D == 0].delta == 0).all()


# --------------------------------------------------------------- 000 App. D, Fig. 6
def test_correct_order_llm10_vs_llm9_at_80_trials():
    # κ = 3: the spread of the bundled biased coins (data/make_datasets.py)
    r = sim.correct_order(
        0.6213, 0.608, M=30, concentration=3.0, n_values=(80,), n_sims=20_000, seed=0
    )
    row = r.table.iloc[0]
    assert abs(row.p_correct - 0.837) < 0.04  # paper: 83.7 %
    assert abs(row.z_mean - 1.14) < 0.12  # paper: z ~ 1.14


def test_correct_order_depends_on_the_spread():
    # Var of Bayes@N's error ~ Σ p(1-p) / (M² N), and mean p(1-p) = m(1-m) - Var(p):
    # a wider spread of question difficulty (small κ) makes the order easier to see.
    p = {
        k: sim.correct_order(
            n_values=(80,), concentration=k, n_sims=20_000, seed=1
        ).table.p_correct.iloc[0]
        for k in (1.0, 1e4)
    }
    assert p[1.0] > p[1e4] + 0.05
    # no spread: every question has p = m, so P = Φ(Δ / sqrt((m(1-m) + m'(1-m')) / (M N)))
    sd = np.sqrt((0.6213 * 0.3787 + 0.608 * 0.392) / (30 * 80))
    assert abs(p[1e4] - special.ndtr(0.0133 / sd)) < 0.015


# ------------------------------------------------------------- interval calibration
def _cov(c, interval="headline"):
    t = c.table[c.table["interval"] == interval]
    return t.set_index(["scope", "M", "N"])["coverage"]


def test_headline_covers_where_the_papers_interval_fails():
    """The lesson's two intervals with known truth: mean 0.8, κ = 2 (questions spread
    Beta(1.6, 0.4), U-shaped and skewed). The headline sits near 95 % in both scopes; the
    papers' Bayes@N interval (uniform prior) misses almost always at M = 100, small N."""
    c = sim.interval_coverage((0.8,), M_values=(100,), N_values=(1, 2, 8), concentration=2.0,
                              replicates=1500, seed=0)
    head, paper = _cov(c), _cov(c, "Bayes@N (papers)")
    assert np.isnan(head[("questions", 100, 1)])  # not identified: no number
    for key, v in head.items():
        if key != ("questions", 100, 1):
            assert 0.92 <= v <= 0.975, (key, v)
    assert paper[("questions", 100, 2)] < 0.05 and paper[("population", 100, 1)] < 0.05
    # categorical, Dirichlet(1, 1, 1) questions, rubric weights: both scopes in band
    c3 = sim.interval_coverage([[1 / 3] * 3], weights=[0, 0.3, 1], M_values=(30,),
                               N_values=(2, 8), concentration=3.0, replicates=1500, seed=1)
    assert _cov(c3).between(0.92, 0.975).all(), c3.table


def test_population_interval_is_wider_and_covers_the_population_mean():
    c = sim.interval_coverage((0.5,), M_values=(30,), N_values=(1, 16), concentration=2.0,
                              replicates=1500, scopes=("population",), seed=3)
    assert _cov(c).between(0.92, 0.975).all(), c.table  # trial noise counted once
    both = sim.interval_coverage((0.5,), M_values=(30,), N_values=(4,), replicates=500, seed=4)
    assert set(both.table.scope) == {"questions", "population"}
    w = both.table[both.table["interval"] == "headline"].set_index("scope")["width"]
    assert w["population"] > w["questions"]  # question sampling widens the interval


def test_coverage_keeps_one_row_per_mean():
    """Means 0.5 and 0.9 cover differently: pooled, the papers' interval read 0.485 and 0.60
    (a number neither benchmark has) and the lesson's "drifts when the prior does not fit"
    could not be seen. Each mean has its rows; one mean keeps the table it had."""
    kw = dict(M_values=(30,), N_values=(2, 32), concentration=4.0, replicates=300, seed=0)
    c = sim.interval_coverage((0.5, 0.9), **kw)
    t = c.table
    assert list(t.columns) == ["mean", "scope", "interval", "M", "N", "coverage", "se", "width"]
    assert list(dict.fromkeys(t["mean"])) == [0.5, 0.9] and len(t) == 2 * 2 * 2 * 2
    paper = t[(t["interval"] == "Bayes@N (papers)") & (t["scope"] == "questions")]
    paper = paper.set_index(["mean", "N"])["coverage"]
    assert paper[(0.5, 2)] > 0.9 and paper[(0.5, 32)] > 0.9  # the prior fits: calibrated
    assert paper[(0.9, 2)] < 0.05 and paper[(0.9, 32)] < 0.5  # pulled toward 1/2: misses
    head = t[t["interval"] == "headline"]
    assert head["coverage"].between(0.9, 0.99).all(), head
    # the same draws as before, only not pooled: equal model counts average to the pool
    pooled = t.groupby(["scope", "interval", "M", "N"], sort=False)["coverage"].mean()
    assert pooled[("questions", "Bayes@N (papers)", 30, 2)] == pytest.approx(
        (paper[(0.5, 2)] + paper[(0.9, 2)]) / 2)
    # one mean (or models of one mean): no mean column, the rows as they were
    one = sim.interval_coverage((0.5,), **kw).table
    assert list(one.columns) == ["scope", "interval", "M", "N", "coverage", "se", "width"]
    same = sim.interval_coverage((0.5, 0.5), **kw).table
    assert "mean" not in same and len(same) == len(one)


def test_coverage_where_every_interval_covered_prints_as_a_bound():
    """A coverage is a share of simulated intervals: a cell where all of them covered prints
    ">0.980" (of 50), "in all of them", as p_best's all-draws cell does, not a certain
    "1.000" -- in the printed tables, the chart's tooltip and the lesson's sentences; the
    exports keep the number. The draws are the fewest intervals of a row: datasets times the
    models of a mean (two models of one mean pooled: twice the datasets)."""
    from scorio_core.charts.simulate import lesson_notice
    from scorio_core.formatting import DRAWS_ATTR, column_texts, format_frame

    c = sim.interval_coverage(M_values=(30,), N_values=(1, 16), replicates=50, seed=0,
                              confidence=0.999)
    t = c.table
    assert t.attrs[DRAWS_ATTR] == {"coverage": 50}
    full = t.index[t["coverage"] == 1.0]
    assert len(full) >= 3  # at 99.9% nearly every cell covers in all 50 datasets
    cells = format_frame(t)["coverage"]
    assert (cells[full] == ">0.980").all() and "1.000" not in cells.tolist()
    other = t.index[t["coverage"].between(0.0, 1.0, inclusive="neither")]
    assert all(cells[i] == f"{t.at[i, 'coverage']:.3f}" for i in other)
    tooltip = dict(zip(t.index, column_texts(t, "coverage"), strict=True))
    assert all(tooltip[i] == ">0.980" for i in full)
    assert ">98.0%" in lesson_notice("calibration", None, c)  # a sentence: share_percent's bound
    assert "100.0%" not in lesson_notice("calibration", None, c)
    two = sim.interval_coverage((0.5, 0.5), M_values=(30,), N_values=(4,), replicates=40, seed=1)
    assert two.table.attrs[DRAWS_ATTR] == {"coverage": 80}


def test_coverage_of_none_or_all_gives_no_standard_error_of_zero():
    """A coverage of 0 of 400 printed "<0.003" beside a standard error "0.0000": the plug-in
    binomial s.e. sqrt(c(1 - c)/n) is 0 there and claims a certainty that 400 intervals do
    not give. It is missing (—) where none or all of the intervals held the truth, as the
    column's declared meaning says; in between it is that formula."""
    from scorio_core.definitions import SIMULATIONS
    from scorio_core.formatting import format_frame

    c = sim.interval_coverage((0.95,), M_values=(100,), N_values=(4,), replicates=200,
                              concentration=50.0, seed=0)
    t = c.table
    edge = t["coverage"].isin([0.0, 1.0])
    papers = t["interval"] == "Bayes@N (papers)"
    assert (t.loc[papers, "coverage"] == 0).all()  # pulled towards 1/2, it misses every time
    assert edge.any() and t.loc[edge, "se"].isna().all()
    inner = t[~edge & t["coverage"].notna()]
    assert len(inner) and np.allclose(inner["se"], np.sqrt(
        inner["coverage"] * (1 - inner["coverage"]) / 200))
    cells = format_frame(t)
    assert (cells.loc[edge, "se"] == "—").all()
    assert (cells.loc[papers, "coverage"] == "<0.005").all()  # none of 200: its bound
    said = SIMULATIONS["calibration"].column_help("coverage")["se"]
    assert "— where none or all held it" in said


# ------------------------------------------------------------------- rubric lesson
def test_rubric_lesson_reproduces_reference_values():
    les = sim.rubric_lesson()
    assert (round(les.mu, 6), round(les.sigma, 6)) == (0.5625, 0.091998)
    les0 = sim.rubric_lesson(w=(0, 0.5, 1), R0=[[2], [1]])
    assert (round(les0.mu, 6), round(les0.sigma, 6)) == (0.583333, 0.085165)
    les2 = sim.rubric_lesson(R=[[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]], R0=[[0, 2], [1, 2]])
    assert (round(les2.mu, 6), round(les2.sigma, 6)) == (0.575, 0.084275)
    t = les.table
    assert les.T == 8 and t[["ν_0", "ν_1", "ν_2"]].sum(axis=1).tolist() == [8, 8]
    assert les.mu == pytest.approx(les.weights[0] + t["m_α"].mean(), abs=1e-15)
    # moving the partial-credit weight moves mu linearly, by the share of category 1
    share1 = t["ν_1"].sum() / (les.M * les.T)
    hi = sim.rubric_lesson(w=(0, 0.9, 1))
    assert hi.mu - les.mu == pytest.approx(0.4 * share1, abs=1e-12)
    assert hi.mu == pytest.approx(ev.bayes(sim.LESSON_R, [0, 0.9, 1]).mu, abs=1e-12)


def test_pass_family_identities_and_any_k():
    # G-Pass@2 with tau = 0.5 needs ceil(1) = 1 success (= Pass@2); mG-Pass@2 = P(X = 2) = Pass^2
    s = sim.mimics([0.3, 0.5, 0.7], M=10, seed=3)
    ids = ["pass_at_k_2", "g_pass_at_k_tau_2_0.5", "mg_pass_at_k_2", "pass_hat_k_2", "pass_hat_k_5"]
    c = sim.truth_convergence(s, ids, N=8, replicates=40, seed=4)
    np.testing.assert_array_equal(c.tau["pass_at_k_2"], c.tau["g_pass_at_k_tau_2_0.5"])
    np.testing.assert_array_equal(c.tau["mg_pass_at_k_2"], c.tau["pass_hat_k_2"])
    hat5 = c.tau["pass_hat_k_5"]
    assert np.isnan(hat5[:, :4]).all()  # Pass^5 needs 5 trials
    # from n = 5 on it ranks; τ_b is undefined (NaN) only in the rare replicate where no
    # model has any question with 5 of 5 correct, so all three tie at 0
    assert np.isfinite(hat5[:, 4:]).mean(0).min() > 0.9


# ------------------------------------------------------------------------------ CLI
def _cli(capsys, *argv):
    """Exit code, stdout and stderr of ``scorio-studio simulate ARGV`` (a flag refused by
    its declaration exits from argparse)."""
    from scorio_core.cli import main

    try:
        code = main(["simulate", *argv])
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_simulate_json_and_csv(capsys):
    import json

    code, out, _ = _cli(capsys, "prior-depth", "--replicates", "300", "--format", "json")
    assert code == 0
    payload = json.loads(out)
    assert 0.86 <= payload["update"]["mean_tau"] <= 0.90
    assert {r["D"] for r in payload["tau"]} == {0, 1, 2, 4, 8, 16}
    prov = payload["provenance"]
    assert prov["analysis"] == "prior-depth" and prov["input"] is None
    code, out, _ = _cli(capsys, "calibration", "--replicates", "200", "--format", "csv")
    rows = [r for r in out.splitlines() if not r.startswith("#")]  # under the provenance header
    assert code == 0 and rows[0] == "scope,interval,M,N,coverage,se,width"
    assert "# seeds.seed: 0" in out and "# synthetic: true" in out
    assert len(rows) == 1 + 2 * 2 * 3 * 7  # both scopes x M x N
    code, out, _ = _cli(capsys, "order", "--replicates", "200", "--seed", "3")
    assert code == 0 and "N_at_z" in out and "p_correct" in out
    code, out, _ = _cli(capsys, "coins", "--replicates", "50", "--format", "text")
    assert code == 0 and "bayes" in out and "pass_at_k_8" in out
    code, out, _ = _cli(capsys, "rubric-lesson", "--weights", "0,0.5,1", "--format", "json")
    payload = json.loads(out)
    assert code == 0 and round(payload["mu"], 6) == 0.5625
    assert round(payload["sigma"], 6) == 0.091998


def test_cli_simulate_studies_share_flag_names_and_saved_commands_still_parse(capsys):
    """Every study calls its simulated datasets ``--replicates REPLICATES`` and its questions
    ``--questions QUESTIONS`` (order's field is ``sims``, calibration's ``M_values``); the
    commands written with those flags before keep their meaning."""
    from scorio_core.cli import _parser
    from scorio_core.params import from_args
    from scorio_core.simulate.params import STUDY_PARAMS

    for study in ("coins", "prior-depth", "order", "calibration"):
        with pytest.raises(SystemExit):
            _parser().parse_args(["simulate", study, "--help"])
        out = capsys.readouterr().out
        assert "--replicates REPLICATES" in out and "SIMS" not in out, study
        assert "M_VALUES" not in out and "--questions M " not in out, study
        if study in ("coins", "calibration"):
            assert "--questions QUESTIONS" in out, study
    cases = {
        "order": (["--replicates", "500"], {"sims": 500}),
        "calibration": (["--questions", "15,30", "--replicates", "300"],
                        {"M_values": (15, 30), "replicates": 300}),
        "coins": (["--questions", "12", "--trials", "16"], {"M": 12, "N": 16}),
        "prior-depth": (["--replicates", "250"], {"replicates": 250}),
    }
    for study, (argv, fields) in cases.items():
        cls = STUDY_PARAMS[study]
        args = _parser().parse_args(["simulate", study, *argv])
        assert from_args(cls, args) == cls(**fields), study
    # a refused value is named by the flag that was typed, not by the field behind it
    code, _, err = _cli(capsys, "order", "--replicates", "0")
    assert code == 2 and "--replicates: replicates must be between 1 and 200,000; got 0" in err
    assert "sims" not in err
    code, _, err = _cli(capsys, "coins", "--questions", "1")
    assert code == 2 and "--questions: questions must be between 2 and 10,000; got 1" in err


def test_cli_simulate_bad_input(capsys):
    code, _, err = _cli(capsys, "order", "--concentration", "-1")
    assert code == 2 and "concentration must be above 0; got -1.0" in err  # the declaration's
    code, _, err = _cli(capsys, "calibration", "--replicates", "0")
    assert code == 2 and "replicates must be between 1 and 100,000; got 0" in err
    code, _, err = _cli(capsys, "rubric-lesson", "--seed", "1")  # the lesson draws nothing
    assert code == 2 and "--seed" in err
    code, _, err = _cli(capsys, "coins", "--seed", "-1")
    assert code == 2 and "seed" in err
    code, _, err = _cli(capsys, "rubric-lesson", "--weights", "0,x")
    assert code == 2 and "--weights expects comma-separated numbers" in err


@pytest.mark.parametrize(("upper", "lower"), [("0.5", "0.6"), ("0.6", "0.6")])
def test_cli_simulate_order_inconsistent_means_are_a_usage_error(capsys, upper, lower):
    """``--upper 0.5 --lower 0.6`` (each in range, the worse model first) was a plain
    ``scorio-studio: error:`` line; it is argparse's usage error, as an out-of-range value
    is, naming both flags and the values typed."""
    code, out, err = _cli(capsys, "order", "--upper", upper, "--lower", lower,
                          "--replicates", "200")
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith("usage: scorio-studio simulate order "), err
    assert err.splitlines()[-1] == (
        "scorio-studio simulate order: error: --upper must exceed --lower (the better model "
        f"first); got --upper {upper}, --lower {lower}")
    code, out, _ = _cli(capsys, "order", "--upper", "0.61", "--lower", "0.6",
                        "--replicates", "200", "--format", "json")
    assert code == 0 and '"upper": 0.61' in out  # the consistent pair runs


def _out_of_range() -> list[tuple[str, str, str]]:
    """(study, flag, a value below its declared minimum) for every bounded flag of every
    study, from the declarations."""
    from scorio_core.params import _flag, settings_of
    from scorio_core.simulate.params import STUDY_PARAMS

    cases = []
    for study, cls in STUDY_PARAMS.items():
        for name, (default, s) in settings_of(cls).items():
            if s.cli is None or s.minimum is None:
                continue
            low = s.minimum if s.open_min else s.minimum - 1
            bad = str(int(low) if s.integer else low)
            if isinstance(default, tuple):  # several numbers: one of them out of range
                bad = f"{default[0]},{bad}"
            cases.append((study, _flag(name, s), bad))
    return cases


@pytest.mark.parametrize(("study", "flag", "bad"), _out_of_range())
def test_cli_simulate_range_errors_name_the_flag(capsys, study, flag, bad):
    """A value out of a study's range is argparse's usage error naming the flag typed, as in
    every other command: ``simulate calibration --questions 0`` was a plain error about
    "M_values" (the Python field)."""
    code, _, err = _cli(capsys, study, flag, bad)
    word = flag.lstrip("-").replace("-", "_")
    assert code == 2 and err.startswith("usage: scorio-studio simulate " + study), err
    assert f"error: argument {flag}: {word} must be " in err, err


def test_cli_simulate_lists_of_numbers_are_refused_in_the_flags_name(capsys):
    """The settings that hold several numbers are checked number by number at the flag."""
    for study, flag, bad, say in (
        ("calibration", "--questions", "0", "questions must be between 1 and 100,000; got 0"),
        ("calibration", "--means", "0.5,1", "means must be strictly between 0 and 1; got 1.0"),
        ("rubric-lesson", "--weights", "1", "--weights expects at least 2 comma-separated "
         "numbers"),
        ("rubric-lesson", "--weights", "0,inf", "--weights expects finite numbers"),
    ):
        code, _, err = _cli(capsys, study, flag, bad)
        assert code == 2 and f"error: argument {flag}: {say}" in err, err
        assert "M_values" not in err


# --------------------------------------------------------------------------- charts
def test_every_chart_builds_and_has_a_one_line_caption():
    from scorio_core.charts import simulate as cs

    depth = sim.prior_depth(steps=(1, 4), depths=(0, 2), replicates=100, updates=500, seed=0)
    order = sim.correct_order(n_values=(20, 200), n_sims=100, seed=0)
    cover = sim.interval_coverage(M_values=(10,), N_values=(1, 4), replicates=100, seed=0)
    curves = sim.truth_convergence(sim.mimics([0.3, 0.6], M=5), ["bayes"], N=4, replicates=5)
    charts = [
        cs.truth_convergence_chart(curves.summary),
        cs.update_histogram(depth),
        cs.prior_depth_chart(depth),
        cs.prior_depth_chart(depth, delta=True),
        cs.correct_order_chart(order),
        cs.coverage_chart(cover),
        cs.rubric_weight_chart(sim.LESSON_R, (0, 0.5, 1)),
    ]
    for c in charts:
        spec = c.to_dict()
        assert "layer" in spec or "hconcat" in spec
    # the histogram has one bar per attained τ value and shares summing to 1
    hist = cs.update_histogram(depth).to_dict()
    data = next(iter(hist["datasets"].values()))
    assert abs(sum(r["share"] for r in data) - 1) < 1e-12
    captions = [getattr(cs, n) for n in cs.__all__ if n.endswith("_CAPTION")]
    assert len(captions) == 7 and all("\n" not in c and len(c) < 260 for c in captions)
    assert set(cs.LESSON_TEXT) == {"coins", "depth", "order", "calibration", "rubric"}


def test_batched_trials_needed_equals_decision():
    """The order study predicts with decision.trials_needed_from over a batch of datasets
    (sweeping z*): the same numbers as one call per dataset at that confidence, the same
    tie rule (a gap at rounding level needs infinitely many trials) and the same order."""
    from scorio_core.decision import trials_needed_from

    rng = np.random.default_rng(5)
    mu, sigma = rng.uniform(0.4, 0.7, (20, 3)), rng.uniform(0.005, 0.03, (20, 3))
    mu[3, 1] = mu[3, 0] + 4e-16  # identical counts summed in another order: no gap
    mu[4, 2] = mu[4, 0]
    got = trials_needed_from(mu, sigma, 80, 82, z_star=float(special.ndtri(0.99)))
    assert got.n_needed.shape == got.upper.shape == (20, 2)
    for i, (m, sd) in enumerate(zip(mu, sigma, strict=True)):
        want = trials_needed_from(m, sd, 80, 82, 0.99)
        for field in ("upper", "lower", "gap", "z_now", "n_needed"):
            np.testing.assert_array_equal(getattr(got, field)[i], getattr(want, field))
    assert 0 < got.gap[3].min() < 1e-15 and got.gap[4].min() == 0
    assert np.isinf(got.n_needed[3]).sum() == 1 and np.isinf(got.n_needed[4]).sum() == 1
    assert np.isfinite(np.delete(got.n_needed, [3, 4], 0)).all()
    with pytest.raises(ValidationError, match="equal shape"):
        trials_needed_from(mu, sigma[:, :2], 80, 82)


def test_correct_order_marks_p_correct_a_share_of_its_simulated_datasets():
    """A pair ordered right in every one of 300 simulated datasets read P(correct order)
    ``1.000`` in the table, the chart's tooltip and the page's headline, a certainty the
    simulation does not show: the result keeps its number of datasets and marks the column a
    share of them, so its 1 reads ``>0.996`` (one dataset's share) everywhere."""
    from scorio_core.charts.simulate import correct_order_chart
    from scorio_core.definitions.simulate import SIMULATIONS
    from scorio_core.formatting import DRAWS_ATTR, format_frame

    r = sim.correct_order(0.9, 0.1, n_values=(20, 40), n_sims=300, seed=0)
    assert r.sims == 300 and r.table["p_correct"].tolist() == [1.0, 1.0]
    assert r.table.attrs[DRAWS_ATTR] == {"p_correct": 300}
    order = SIMULATIONS["order"].tables(r)["order"]
    assert format_frame(order)["p_correct"].tolist() == [">0.996", ">0.996"]
    spec = correct_order_chart(r).to_dict()
    (shown,) = [v for v in spec["datasets"].values() if "p_correct_text" in v[0]]
    assert [row["p_correct_text"] for row in shown] == [">0.996", ">0.996"]
    # a share that is not 0 or 1 keeps the table's three decimals
    close = sim.correct_order(0.62, 0.60, n_values=(20,), n_sims=300, seed=0)
    p = close.table["p_correct"].iloc[0]
    assert 0 < p < 1 and format_frame(close.table)["p_correct"].tolist() == [f"{p:.3f}"]


def test_binary_only_simulations_name_the_settings_that_run():
    with pytest.raises(ValidationError, match=r"exact_means=False") as info:
        sim.question_probs([[0.2, 0.3, 0.5]], M=4, exact_means=True)
    assert "3 categories" in str(info.value)
    # both named ways run
    assert sim.question_probs([[0.2, 0.3, 0.5]], M=4, exact_means=False).shape == (1, 4, 3)
    assert sim.question_probs([0.3, 0.7], M=4, exact_means=True).shape == (2, 4, 2)
    graded = sim.mimics([[0.2, 0.3, 0.5], [0.1, 0.4, 0.5]], M=5)
    with pytest.raises(ValidationError, match=r"mimics\(\[0\.3, 0\.5, 0\.7\], M=30\)"):
        sim.truth_convergence(graded, ["bayes"], N=4, replicates=3)
    c = sim.truth_convergence(sim.mimics([0.3, 0.5, 0.7], M=30), ["bayes"], N=4, replicates=3)
    assert c.tau["bayes"].shape == (3, 4)


def test_mimics_display_their_truth_not_their_probability_array():
    """The audit: ``sim = sc.simulate.mimics([...], M=40)`` in a cell printed a 10,552-character
    dump of its probability array, with no rich display unlike every other result. It now
    shows one row per model -- true mean, true rank, spread over questions -- with a legend
    and how to draw data from it, in a short repr and in HTML."""
    means = [0.3, 0.55, 0.55, 0.7]
    mim = sim.mimics(means, M=40, seed=1)
    text = repr(mim)
    assert len(text) < 1500 and "array(" not in text
    rows = [ln.split() for ln in text.splitlines() if ln.startswith("LLM_")]
    assert [r[0] for r in rows] == list(mim.models)
    assert [float(r[1]) for r in rows] == pytest.approx(means, abs=1e-4)  # exact means
    assert [int(r[2]) for r in rows] == mim.true_ranks.tolist() == [4, 2, 2, 1]
    assert "true_mean:" in text and "sim.outcomes(" in text
    page = mim._repr_html_()
    assert "<table" in page and "LLM_4" in page and "0.7000" in page and len(page) < 6000
    assert "text/html" in mim._repr_mimebundle_()
    graded = sim.mimics([[0.2, 0.3, 0.5], [0.5, 0.3, 0.2]], M=20, weights=[0, 0.5, 1], seed=0)
    assert "cat1 0.5" in repr(graded) and graded.outcomes(4).R.shape == (2, 20, 4)
