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


def test_best_and_worst_name_a_model_only_when_it_stands_alone():
    """np.argmax/argmin named the first model in file order among ties: five models at 0
    and the table said worst = the first of them. A shared score says how many share it;
    scores equal but for float noise (0.1 + 0.2 against 0.3) are one score."""
    R = np.zeros((4, 4, 2), int)
    R[0, 0] = 1  # q0: a alone best, the other three tied worst
    R[:3, 1] = 1  # q1: three tied best, d alone worst
    R[:2, 2, 0] = 1  # q2: a and b tied best, c and d tied worst
    R[:, 3, 0] = 1  # q3: every model the same half score (informative to none)
    t = question_stats(Outcomes(R, models=list("abcd")), irt=False).table.set_index("question")
    assert t.loc["q0", ["best", "worst"]].tolist() == ["a", "3 tied"]
    assert t.loc["q1", ["best", "worst"]].tolist() == ["3 tied", "d"]
    assert t.loc["q2", ["best", "worst"]].tolist() == ["2 tied", "2 tied"]
    # every model tied: no information, said by its status (best/worst blank, as for the
    # always right and always wrong questions)
    assert t.loc["q3", ["status", "best", "worst"]].tolist() == ["all tied", "", ""]
    # weighted categories: c and d differ from a only by round-off
    W = np.array([[[1, 2]], [[3, 0]], [[3, 0]], [[0, 0]]])
    data = Outcomes(W, models=list("abcd"), weights=[0, 0.1, 0.2, 0.3])
    score = question_stats(data, irt=False)
    assert len({float(x) for x in score.score[:3, 0]}) == 2  # 0.15 and 0.15000000000000002
    assert score.table.loc[0, ["best", "worst"]].tolist() == ["3 tied", "d"]


def test_tied_names_the_models_a_k_tied_cell_counts():
    """"3 tied" named nobody and nothing said how to find them: ``stats.tied(question)``
    lists them (the legend of best and worst says so), by the table's own tie rule --
    float noise is one score -- the best models first."""
    from scorio_core import ValidationError
    from scorio_core.definitions import ANALYSES

    R = np.zeros((4, 4, 2), int)
    R[0, 0] = 1
    R[:3, 1] = 1
    R[:2, 2, 0] = 1
    st = question_stats(Outcomes(R, models=list("abcd")), irt=False)
    t = st.table.set_index("question")
    for q in ("q0", "q1", "q2"):
        for end in ("best", "worst"):
            names = st.tied(q, end)
            assert t.loc[q, end] == (names[0] if len(names) == 1 else f"{len(names)} tied")
    assert st.tied("q1") == ["a", "b", "c"] and st.tied("q0", "worst") == ["b", "c", "d"]
    W = np.array([[[1, 2]], [[3, 0]], [[3, 0]], [[0, 0]]])  # 0.15 and 0.15000000000000002
    noisy = question_stats(Outcomes(W, models=list("abcd"), weights=[0, 0.1, 0.2, 0.3]),
                           irt=False)
    assert noisy.tied("q0") == ["a", "b", "c"]
    with pytest.raises(ValidationError, match="unknown question 'q9'"):
        st.tied("q9")
    with pytest.raises(ValidationError, match="'best' or 'worst'"):
        st.tied("q0", "top")
    assert ".stats.tied(question)" in ANALYSES["questions"].column_help("questions")["best"]


def _with_an_always_wrong_model(seed: int = 0):
    """Six models of spread ability on 30 questions x 4 trials, plus a seventh wrong on
    everything; q0 splits the six (the three strongest always right, the others always
    wrong), q2 separates only the seventh (the six always right)."""
    rng = np.random.default_rng(seed)
    th, b = np.linspace(-1.5, 1.5, 6), rng.normal(0, 1, 30)
    R = (rng.random((6, 30, 4)) < 1 / (1 + np.exp(-(th[:, None] - b)))[..., None]).astype(int)
    R[:, 0] = 0
    R[3:, 0] = 1
    R[:, 2] = 1
    R = np.concatenate([R, np.zeros((1, 30, 4), int)])
    return Outcomes(R, models=[*(f"m{i}" for i in range(6)), "zero"])


def test_a_question_separating_only_an_always_wrong_model_has_no_2pl_estimate():
    """q34-q39 of the audit's file (five models always right, the all-wrong model always
    wrong) showed 'no 2PL slope' beside discrimination 1.000 and difficulty -13.9. The
    all-wrong model's ability is unbounded, so such a question is fitted perfectly by any
    slope: the fit leaves the slope at the prior's 1 and runs the difficulty off until a
    vague ridge stops it. Neither is estimable: both blank, the status says so. A question
    splitting models of finite ability keeps both (difficulty in the gap, slope pushed
    above the prior's 1 by the data)."""
    from scorio_core.definitions import ANALYSES
    from scorio_core.engines.questions import (
        MAX_DIFFICULTY,
        NO_ESTIMATE,
        unbounded_separation,
    )

    data = _with_an_always_wrong_model()
    reg = 1 / (2 * SLOPE_PRIOR_SD**2)
    _, theta, items = irt.rasch_2pl(data.R, return_item_params=True, reg_discrimination=reg,
                                    max_iter=3000)  # ranks, abilities, item parameters
    # what the fit reports for q2: the prior's slope and a runaway difficulty
    assert abs(items["discrimination"][2] - 1) < 1e-3
    assert items["difficulty"][2] < -MAX_DIFFICULTY and theta[6] < -MAX_DIFFICULTY
    qs = question_stats(data)
    t = qs.table.set_index("question")
    assert qs.irt == "converged" and qs.unbounded == ("zero",)
    assert t.loc["q2", "status"] == NO_ESTIMATE
    assert np.isnan(t.loc["q2", ["difficulty", "discrimination"]].astype(float)).all()
    assert t.loc["q2", ["best", "worst"]].tolist() == ["6 tied", "zero"]
    assert unbounded_separation(data.R.sum(-1), data.N).nonzero()[0].tolist() == [2]
    # the finite split: a difficulty between the two groups' abilities, a slope above 1
    b0, a0 = t.loc["q0", ["difficulty", "discrimination"]].astype(float)
    assert t.loc["q0", "status"] == "" and theta[2] < b0 < theta[3] and a0 > 1.5
    # every rendering says the same: the caveat names the model, the chart leaves it out
    qv = ANALYSES["questions"]
    r = qv.run(data, qv.params())
    caveat = next(c for c in qv.caveats(data, qv.params(), r) if "no 2PL estimate" in c)
    assert caveat.startswith("1 question has no 2PL estimate (q2): it separates only zero ")
    assert "left blank (—)" in caveat
    assert "slope collapsed" not in " ".join(c.caption for c in qv.charts(r))
    assert "q2" in set(r.stats.collapsed["question"])


def test_no_2pl_difficulty_keeps_the_slope_it_estimates(data_dir):
    """On the bundled nine-model run the fit gives some questions a slope near 0 (0.08-0.35)
    and a difficulty -d/a beyond ±10: the slope is the estimate, the difficulty is blank
    and the status says which; no question there separates an unbounded model."""
    from scorio_core.engines.questions import MAX_DIFFICULTY, NO_DIFFICULTY

    data = io.load(data_dir / "jhu_llm_temperature.parquet")
    qs = question_stats(data)
    reg = 1 / (2 * SLOPE_PRIOR_SD**2)
    _, _, items = irt.rasch_2pl(data.R, return_item_params=True, reg_discrimination=reg,
                                max_iter=3000)
    raw = dict(zip(data.questions, items["difficulty"], strict=True))
    flat = qs.collapsed
    assert len(flat) >= 3 and set(flat["status"]) == {NO_DIFFICULTY} and qs.unbounded == ()
    assert flat["difficulty"].isna().all()
    assert ((flat["discrimination"] > 0) & (flat["discrimination"] < 1)).all()
    assert all(abs(raw[q]) > MAX_DIFFICULTY for q in flat["question"])
    shown = qs.table[qs.table["status"] == ""]
    assert np.isfinite(shown["difficulty"]).all() and np.isfinite(shown["discrimination"]).all()


def test_a_question_every_model_ties_on_carries_no_information():
    """The questions view said "none: every question separates some models" beside three
    questions with sd_models 0 and best/worst "all tied". The rule is now one: a question
    on which every model has the same mean score -- always right, always wrong, or tied at a
    score between (graded outcomes: 0.5 + 0.5 and 0 + 1; binary: half the trials each) --
    separates none, and says so in its status, the 'uninformative' table and the caveat."""
    from scorio_core.definitions import ANALYSES

    R = np.array([[[1, 1], [0, 2], [2, 2], [1, 0]],   # a
                  [[0, 2], [1, 1], [2, 2], [2, 0]],   # b
                  [[2, 0], [0, 2], [2, 2], [0, 0]]])  # c
    data = Outcomes(R, models=list("abc"), weights=[0, 0.5, 1])
    qs = question_stats(data, irt=False)
    t = qs.table.set_index("question")
    assert t.loc[["q0", "q1", "q2", "q3"], "status"].tolist() == [
        "all tied", "all tied", "always right", ""]
    assert (t.loc[["q0", "q1"], "sd_models"] == 0).all() and t.loc["q3", "sd_models"] > 0
    assert set(qs.uninformative["question"]) == {"q0", "q1", "q2"}
    assert t.loc["q3", ["best", "worst"]].tolist() == ["b", "c"]
    q = ANALYSES["questions"]
    params = q.params(irt=False)
    said = [c for c in q.caveats(data, params, q.run(data, params)) if "no information" in c]
    assert said and said[0].startswith("3 of 4 questions carry no information: every "
                                       "model has the same mean score on them")
    # binary: tied at half is tied too, and its 2PL difficulty is not shown (nothing to locate)
    B = np.zeros((3, 6, 4), int)
    B[:, 0, :2] = 1  # every model right on half its trials
    B[0, 1:] = 1
    B[1, 1:4] = 1
    binary = question_stats(Outcomes(B)).table.set_index("question")
    assert binary.loc["q0", "status"] == "all tied" and np.isnan(binary.loc["q0", "difficulty"])
    # one model: nothing to separate, but no question is "tied" with another model
    assert "all tied" not in set(question_stats(Outcomes(B[:1]), irt=False).table["status"])


def test_models_tied_in_exact_arithmetic_keep_the_leaderboards_order():
    """The Questions view ordered its models by a float mean of per-question means, so two
    models with the same graded total could swap on float noise (``k/6`` per question, weights
    0, 0.5, 1 and N = 3). It now orders them as the leaderboard does (``ROW_ORDER``: the exact
    mean from the category totals, then Bayes@N, then the data's order): the tied pair in the
    data's order, the same rows as the board's table."""
    from scorio_core import leaderboard
    from scorio_core.eval import category_counts, count_mean

    w = np.array([0, 0.5, 1])
    for seed in range(200):  # a graded tie whose float mean of means is not a tie
        rng = np.random.default_rng(seed)
        a = rng.integers(0, 3, (7, 3))
        b = a[rng.permutation(7)]  # the same grades on other questions: an exact tie
        noisy = ((category_counts(np.stack([a, b]), 2) @ w) / 3).mean(1)  # the old order's key
        if noisy[0] != noisy[1]:
            break
    else:
        pytest.skip("no float noise in a mean of means on this machine")
    # listed so that the old key puts the second tied model first
    first, second = (a, b) if noisy[1] > noisy[0] else (b, a)
    low = np.zeros((7, 3), int)  # a third model, clearly below
    data = Outcomes(np.stack([low, first, second]), models=["low", "first", "second"],
                    weights=w)
    exact = count_mean(category_counts(data.R, 2).sum(1), w, 7 * 3)
    assert exact[1] == exact[2] and exact[0] < exact[1]
    qs = question_stats(data, irt=False)
    assert qs.models == ("first", "second", "low")
    assert list(qs.models) == leaderboard(data).table["model"].tolist()
    # the score matrix follows its rows
    assert np.array_equal(qs.score[0], data.R[1].mean(-1)[[data.questions.index(q)
                                                           for q in qs.questions]] / 2)
