"""The question view's statistics (scorio_core.engines.questions) against direct computation."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from scorio_core import Outcomes, io
from scorio_core.engines.questions import (
    SLOPE_PRIOR_SD,
    by_attribute,
    gini_mean_difference,
    question_stats,
)
from scorio_core.rank import irt


def _small() -> Outcomes:
    R = np.zeros((3, 5, 4), int)
    R[:, 0] = 1  # every model always right
    R[0, 1] = 1  # only the first model
    R[:2, 2, :2] = 1  # two models half the time
    R[1, 4, 0] = 1
    return Outcomes(R, models=["a", "b", "c"], question_attributes={"src": list("xxyyz")})


def test_scores_status_and_order_from_the_tensor():
    data = _small()
    qs = question_stats(data, irt=False)
    t = qs.table.set_index("question")
    assert list(qs.table["question"]) == ["q0", "q1", "q2", "q4", "q3"]  # easiest first
    assert t.loc["q0", "status"] == "always right" and t.loc["q3", "status"] == "always wrong"
    assert set(qs.uninformative["question"]) == {"q0", "q3"}
    assert t.loc["q1", "best"] == "a" and t.loc["q0", "best"] == ""
    want = data.R.mean(-1)  # binary: the success rate
    for j, q in enumerate(qs.questions):
        for i, m in enumerate(qs.models):
            assert qs.score[i, j] == want[data.models.index(m), data.questions.index(q)]
    np.testing.assert_allclose(t["mean"], want.mean(0)[[int(q[1]) for q in t.index]])
    assert qs.disagree(1)["question"].tolist() == ["q1"]
    assert t["src"].tolist() == list("xxyzy")


def test_gini_mean_difference_is_the_mean_pairwise_gap():
    x = np.random.default_rng(0).random((7, 4))
    brute = np.mean([np.abs(x[i] - x[j]) for i, j in itertools.combinations(range(7), 2)], 0)
    np.testing.assert_allclose(gini_mean_difference(x), brute, rtol=1e-12)


def test_weighted_scores_and_no_irt_on_categories():
    R = np.random.default_rng(1).integers(0, 3, (4, 6, 5))
    data = Outcomes(R, weights=[0, 0.5, 1])
    qs = question_stats(data)
    assert "binary" in qs.irt and qs.table["difficulty"].isna().all()
    w = np.array([0, 0.5, 1])
    direct = w[R].mean(-1)
    got = qs.table.set_index("question")["mean"]
    np.testing.assert_allclose(got.loc[list(data.questions)], direct.mean(0), rtol=1e-12)


def test_2pl_parameters_are_the_rankers_and_recover_the_truth():
    rng = np.random.default_rng(2)
    th, b = rng.normal(size=40), rng.normal(0, 1.2, 150)
    a = np.exp(rng.normal(0, 0.4, 150))
    p = 1 / (1 + np.exp(-a * (th[:, None] - b)))
    R = (rng.random((40, 150, 16)) < p[..., None]).astype(np.int8)
    qs = question_stats(Outcomes(R))
    reg = 1 / (2 * SLOPE_PRIOR_SD**2)
    _, _, items = irt.rasch_2pl(R, return_item_params=True, reg_discrimination=reg,
                                max_iter=3000)
    t = qs.table.set_index("question").loc[[f"q{i}" for i in range(150)]]
    np.testing.assert_array_equal(t["difficulty"], items["difficulty"])
    assert qs.irt == "converged"
    ok = np.isfinite(items["difficulty"])
    assert np.corrcoef(t["difficulty"][ok], b[ok])[0, 1] > 0.95
    assert np.corrcoef(np.log(t["discrimination"][ok]), np.log(a[ok]))[0, 1] > 0.6
    assert np.corrcoef(t["item_rest_r"][ok], a[ok])[0, 1] > 0.3


@pytest.mark.parametrize("slope_sd", [0.4, 1.0])
def test_the_slope_prior_recovers_a_known_2pl_better_with_few_models(slope_sd):
    """12 models: without the prior several slopes run off (the ML slope of a question that
    splits the models is infinite) and the difficulties with them; with it the fit converges
    and recovers the known difficulties much better, the slopes no worse. Known truth, both
    for slopes as spread as the prior and for twice as spread."""
    rng = np.random.default_rng(11)
    wins = 0
    for _ in range(3):
        th, b = rng.normal(size=12), rng.normal(0, 1.2, 100)
        a = np.exp(rng.normal(0, slope_sd, 100))
        p = 1 / (1 + np.exp(-a * (th[:, None] - b)))
        R = (rng.random((12, 100, 8)) < p[..., None]).astype(np.int8)
        qs = question_stats(Outcomes(R))
        t = qs.table.set_index("question").loc[[f"q{i}" for i in range(100)]]
        _, _, ml = irt.rasch_2pl(R, return_item_params=True)  # no prior to speak of
        ok = np.isfinite(t["difficulty"].to_numpy()) & np.isfinite(ml["difficulty"])
        r_prior = np.corrcoef(t["difficulty"][ok], b[ok])[0, 1]
        r_ml = np.corrcoef(ml["difficulty"][ok], b[ok])[0, 1]
        rmse_prior = np.sqrt(np.mean((np.log(t["discrimination"][ok]) - np.log(a[ok])) ** 2))
        rmse_ml = np.sqrt(np.mean((np.log(np.maximum(ml["discrimination"][ok], 1e-9))
                                   - np.log(a[ok])) ** 2))
        assert qs.irt == "converged" and r_prior > 0.85
        assert rmse_prior < 1.1 * rmse_ml
        wins += r_prior > r_ml
    assert wins == 3


def test_the_2pl_converges_on_the_bundled_nine_model_run(data_dir):
    data = io.load(data_dir / "jhu_llm_temperature.parquet")
    qs = question_stats(data)
    assert qs.irt == "converged"
    a = qs.table["discrimination"].to_numpy()
    assert np.isfinite(a[np.isfinite(qs.table["difficulty"])]).all() and np.nanmax(a) < 100


def test_heatmap_bins_keep_the_mean():
    R = np.random.default_rng(3).integers(0, 2, (3, 23, 4))
    qs = question_stats(Outcomes(R), irt=False)
    frame, width = qs.heatmap_frame(columns=10)
    assert width == 3 and frame["position"].max() == 7  # ceil(23 / 3) = 8 bins
    whole, _ = qs.heatmap_frame(columns=100)
    assert len(whole) == 3 * 23
    np.testing.assert_allclose(frame.groupby("model")["score"].apply(
        lambda s: s.iloc[:7].mean()).sort_index(),
        whole.groupby("model")["score"].apply(lambda s: s.iloc[:21].mean()).sort_index())


def test_per_subset_summary_on_the_real_dataset(data_dir):
    data = io.load(data_dir / "jhu_llm_temperature.parquet")
    qs = question_stats(data, irt=False)
    t = by_attribute(qs, "source")
    assert len(t) == 10 and t["questions"].sum() == data.M
    for _, row in t.iterrows():
        sub = data.subset("source", row["subset"])
        assert row["mean"] == pytest.approx(sub.R.mean())


def test_pooled_benchmarks_name_each_questions_benchmark(data_dir):
    """The pooled reasoning data (AIME'24, AIME'25, HMMT'25, BrUMO'25) listed 120 questions
    with nothing saying which benchmark each comes from: the table has a benchmark column
    beside the question wherever the data pool several, and none for one benchmark."""
    from scorio_core.definitions import ANALYSES
    from scorio_core.report import build_report, to_html

    data = io.load(data_dir / "reasoning_synthetic.npz")
    t = question_stats(data, irt=False).table
    assert list(t.columns[:3]) == ["question", "benchmark", "mean"]
    truth = dict(zip(data.questions, data.benchmarks, strict=True))
    assert t["benchmark"].tolist() == [truth[q] for q in t["question"]]
    assert set(t["benchmark"]) == set(data.benchmark_names) and len(data.benchmark_names) == 4
    # every table of the question view, as the report prints it
    qv = ANALYSES["questions"]
    result = qv.run(data, qv.params(irt=False, top=5))
    for name, view in qv.shown_tables(result).items():
        assert view.table.empty or "benchmark" in view.table, name
    page = to_html(build_report(data, [("questions", {"irt": False})]))
    head = page.split("<h3>questions</h3>", 1)[1].split("</thead>", 1)[0]
    assert ">benchmark</th>" in head
    # one benchmark (a selection, or data without labels): no column
    assert "benchmark" not in question_stats(data.select("HMMT'25"), irt=False).table
    assert "benchmark" not in question_stats(Outcomes(data.R[:, :10]), irt=False).table
