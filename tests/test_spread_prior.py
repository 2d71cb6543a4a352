"""A prior on the field's spread learned from earlier fields (scorio_core.spread_prior)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

import scorio_core as sc
from scorio_core import ValidationError
from scorio_core.calibration import p_best_calibration
from scorio_core.inference import field_draws, flat_spread_grid
from scorio_core.spread_prior import (
    MIN_FIELDS,
    SpreadPrior,
    fit_spread_prior,
    load_spread_prior,
)


def _runs(taus, L=4, M=200, N=4, seed=0):
    """Binary runs whose models' true success rates spread with s.d. ``tau`` (per run)."""
    rng = np.random.default_rng(seed)
    out = []
    for tau in taus:
        theta = 0.5 + tau * rng.standard_normal(L)
        p = np.clip(theta[:, None] + 0.0 * rng.random((L, M)), 0.01, 0.99)
        out.append(rng.binomial(1, p[..., None], (L, M, N)))
    return out


@pytest.fixture(scope="module")
def two_kinds():
    """40 earlier fields whose spreads are drawn from U(0, 0.1)."""
    return fit_spread_prior(_runs(np.random.default_rng(8).uniform(0, 0.1, 40)))


def test_the_learned_prior_recovers_a_known_law_of_the_spread(two_kinds):
    # tau ~ U(0, 0.1) per field; each field's four means are noisy (s.e. about 0.018)
    for scope in ("population", "questions"):
        assert 0.03 < two_kinds.quantile(0.5, scope) < 0.07, scope
        assert 0.07 < two_kinds.quantile(0.95, scope) < 0.14, scope
        assert two_kinds.tail(0.2, scope) < 0.01, scope  # nothing like 0.2 was seen
    assert two_kinds.fields == 40 and set(two_kinds.models) == {4}


def test_a_prior_at_no_spread_makes_every_model_equally_likely_best():
    x, cov = np.array([0.50, 0.53, 0.56]), np.diag([4e-4] * 3)
    S = field_draws(x, cov, 20_000, seed=3, prior=(np.array([0.0, 1e-6]), np.array([1.0, 0.0])))
    p = np.bincount(S.argmax(1), minlength=3) / S.shape[0]
    assert np.allclose(p, 1 / 3, atol=0.02), p


def test_a_prior_at_a_wide_spread_takes_the_lead_at_face_value():
    # tau huge: no shrinkage, P(b best) is the normal probability of the observed gap
    x, cov = np.array([0.50, 0.54]), np.diag([4e-4, 4e-4])
    S = field_draws(x, cov, 40_000, seed=4, prior=(np.array([0.0, 50.0]), np.array([0.0, 1.0])))
    p = np.mean(S[:, 1] > S[:, 0])
    assert abs(p - stats.norm.cdf(0.04 / np.sqrt(8e-4))) < 0.01, p


def test_a_uniform_prior_on_the_flat_grid_is_the_flat_prior():
    x, cov = np.array([0.40, 0.45, 0.52, 0.60]), np.diag([9e-4] * 4)
    g = flat_spread_grid(x, cov)
    a = field_draws(x, cov, 20_000, seed=5)
    b = field_draws(x, cov, 20_000, seed=6, prior=(g, np.full(g.size, 1 / g.size)))
    pa, pb = (np.bincount(s.argmax(1), minlength=4) / s.shape[0] for s in (a, b))
    assert np.allclose(pa, pb, atol=0.02), (pa, pb)


def test_p_best_is_calibrated_with_the_true_law_of_the_spread_and_not_without():
    """Known truth in the model itself: close fields (tau ~ U(0, 0.02)) of three models with
    mean errors s.d. 0.02. With the spread's true law as the prior the leader is best as
    often as p_best says; with the flat prior (three means cannot show the spread) it is
    over-confident."""
    rng = np.random.default_rng(11)
    L, F, se = 3, 600, 0.02
    grid = np.linspace(0.0, 0.02, 41)
    true_law = (grid, np.full(grid.size, 1 / grid.size))
    pred = {"flat": [], "true": []}
    hit = []
    for f in range(F):
        theta = rng.uniform(0, 0.02) * rng.standard_normal(L)
        x = theta + se * rng.standard_normal(L)
        lead = int(np.argmax(x))
        hit.append(lead == int(np.argmax(theta)))
        for name, prior in (("flat", None), ("true", true_law)):
            S = field_draws(x, np.diag([se**2] * L), 1000, seed=f, prior=prior)
            pred[name].append(np.mean(S.argmax(1) == lead))
    hit = np.asarray(hit, dtype=float)
    err = {k: float(np.mean(v) - hit.mean()) for k, v in pred.items()}
    s = float(np.sqrt(hit.mean() * (1 - hit.mean()) / F))
    assert abs(err["true"]) < 4 * s, err  # calibrated on average (s ~ 0.02)
    assert err["flat"] > 2 * s and err["flat"] > err["true"] + 0.03, err


def test_p_best_calibration_with_a_history_of_earlier_fields():
    """The stylised close three-model fields at 15 questions x 4 trials (population scope):
    the flat prior's predictions of 0.6 or more come true far less often than predicted; a
    prior learned from 5 earlier fields of the same design is close."""
    kw = dict(L=3, scope="population", reps=900, draws=1000, seed=3)
    flat = p_best_calibration(15, 4, **kw)
    learned = p_best_calibration(15, 4, history=MIN_FIELDS, **kw)
    assert learned.history == MIN_FIELDS and flat.history == 0

    def high(r):
        t = r.table[r.table["predicted"] >= 0.6]
        n = t["count"].sum()
        return (t["predicted"] * t["count"]).sum() / n, (t["observed"] * t["count"]).sum() / n, n

    fp, fo, fn = high(flat)
    lp, lo, ln = high(learned)
    assert fp - fo > 0.06, (fp, fo, fn)  # over-confident by about 0.12 (s.e. ~0.025)
    assert abs(lp - lo) < 3.5 * np.sqrt(lo * (1 - lo) / ln) + 0.02, (lp, lo, ln)


def test_leaderboard_and_planner_read_the_prior_and_nothing_else_moves(tmp_path, two_kinds):
    data = _runs([0.03], L=3, M=30, N=4, seed=9)[0]
    path = two_kinds.save(tmp_path / "prior.json")
    for scope in ("questions", "population"):
        flat = sc.leaderboard(data, scope=scope)
        with_prior = sc.leaderboard(data, scope=scope, spread_prior=str(path))
        for col in ("model", "score", "lo", "hi", "rank_lo", "rank_hi", "bayes_mu"):
            assert flat.table[col].tolist() == with_prior.table[col].tolist(), col
        assert not np.allclose(flat.table["p_best"], with_prior.table["p_best"])
        assert with_prior.settings["spread_prior"].startswith("learned from 40 earlier fields")
        assert flat.settings["spread_prior"] == "flat"
    plan = sc.plan(data, scope="population", spread_prior=two_kinds)
    assert plan.board.spread_prior == two_kinds


def test_a_saved_prior_reads_back_and_bad_files_are_refused(tmp_path, two_kinds):
    path = two_kinds.save(tmp_path / "p.json")
    assert load_spread_prior(path) == two_kinds
    d = json.loads(path.read_text())
    cases = {
        "format": ({**d, "format": "other"}, "not a spread prior"),
        "version": ({**d, "version": 9}, "version 9"),
        "weights": ({**d, "scopes": {"population": {"tau": [0, 1], "weight": [0.5, 0.7]}}},
                    "summing to 1.2"),
        "grid": ({**d, "scopes": {"population": {"tau": [1, 0], "weight": [0.5, 0.5]}}},
                 "must increase"),
        "scope": ({**d, "scopes": {"everywhere": {"tau": [0, 1], "weight": [0.5, 0.5]}}},
                  "scopes"),
    }
    for bad, msg in cases.values():
        with pytest.raises(ValidationError, match=msg):
            SpreadPrior.from_dict(bad)
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(ValidationError, match="not valid JSON"):
        load_spread_prior(tmp_path / "x.json")
    with pytest.raises(ValidationError, match="not found"):
        load_spread_prior(tmp_path / "missing.json")
    only_pop = SpreadPrior.from_dict({**d, "scopes": {"population": d["scopes"]["population"]}})
    with pytest.raises(ValidationError, match="population scope only"):
        only_pop.on("questions")


def test_fitting_refuses_too_few_or_unusable_fields():
    with pytest.raises(ValidationError, match=f"at least {MIN_FIELDS} earlier fields"):
        fit_spread_prior(_runs([0.1] * (MIN_FIELDS - 1)))
    with pytest.raises(ValidationError, match="one run is one field"):
        fit_spread_prior(sc.Outcomes(_runs([0.1])[0]))
    with pytest.raises(ValidationError, match="at least 2 models"):
        fit_spread_prior([r[:1] for r in _runs([0.1] * MIN_FIELDS)])
    with pytest.raises(ValidationError, match="list of earlier runs"):
        fit_spread_prior(_runs([0.1])[0])


def test_one_run_s_benchmarks_are_its_earlier_fields():
    runs = _runs([0.05] * 6, L=3, M=40, N=2, seed=2)
    R = np.concatenate(runs, axis=1)
    data = sc.Outcomes(R, benchmarks=[f"b{k}" for k in range(6) for _ in range(40)])
    prior = fit_spread_prior(data)
    assert prior.fields == 6 and prior.sources == tuple(f"b{k}" for k in range(6))
    other = fit_spread_prior(runs)  # the same fields as separate runs
    assert all(np.allclose(prior.weights[s], other.weights[s]) for s in prior.weights)


def test_a_field_unlike_the_earlier_ones_is_named(two_kinds):
    from scorio_core.definitions.leaderboard import spread_surprise

    close = sc.leaderboard(_runs([0.03], L=3, M=100, N=4, seed=5)[0], scope="population",
                           spread_prior=two_kinds)
    far = sc.leaderboard(_runs([0.3], L=3, M=100, N=4, seed=5)[0], scope="population",
                         spread_prior=two_kinds)
    assert spread_surprise(close) == []
    (line,) = spread_surprise(far)
    assert "more spread than the earlier runs" in line
    assert sc.leaderboard(_runs([0.3], L=3, M=100, N=4, seed=5)[0], scope="population"
                          ).spread_prior is None


def test_a_prior_shows_itself_in_a_notebook(two_kinds):
    t = two_kinds.table()
    assert list(t["scope"]) == ["questions", "population"]
    assert (t["tau_q10"] <= t["tau_q50"]).all() and (t["tau_q50"] <= t["tau_q90"]).all()
    html = two_kinds._repr_html_()
    assert "learned from 40 earlier fields" in html and "4 x 200 x 4" in html


def test_the_planner_checks_learn_the_prior_from_earlier_fields_of_their_design():
    from scorio_core import plan_calibration as pc

    kw = dict(scope="population", reps=50, multiples=(), seed=2)
    flat = pc.assurance_check(30, 4, **kw)
    learned = pc.assurance_check(30, 4, history=MIN_FIELDS, **kw)
    assert (flat.history, learned.history) == (0, MIN_FIELDS)
    # the same fields and decisions; only the gap draws behind the plans differ
    assert not flat.plans.equals(learned.plans)
    alloc = pc.allocation_check(30, 4, scope="population", reps=5, L=4, history=MIN_FIELDS)
    assert alloc.history == MIN_FIELDS
    with pytest.raises(ValidationError, match="history must be 0"):
        pc.assurance_check(30, 4, history=MIN_FIELDS - 1, **kw)
