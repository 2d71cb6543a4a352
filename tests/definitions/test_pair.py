"""The pair view: its numbers are the leaderboard's for the pair, its per-question numbers the
tensor's, and its flip table shows the right completions (logs written by the harnesses'
own writers, read back by the harness itself in reading.json)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import pytest

from scorio_core import Outcomes, ValidationError, io
from scorio_core.cli import main
from scorio_core.definitions import ANALYSES
from scorio_core.definitions.pair import default_pair
from scorio_core.definitions.provenance import export_file
from scorio_core.engines.pair import compare_pair, flip_table
from scorio_core.leaderboard import leaderboard

HARNESS = Path(__file__).resolve().parents[1] / "fixtures" / "harness"
PAIR = ANALYSES["pair"]


@pytest.fixture(scope="module")
def categorical() -> Outcomes:
    rng = np.random.default_rng(7)
    p = rng.dirichlet([2, 1, 2], size=(4, 40))
    R = np.array([[rng.choice(3, size=6, p=p[m, q]) for q in range(40)] for m in range(4)])
    return Outcomes(R, weights=[0.0, 0.3, 1.0], models=["w", "x", "y", "z"])


@pytest.fixture(scope="module")
def texts() -> Outcomes:
    return io.load(HARNESS / "inspect" / "texts")


@pytest.fixture(scope="module")
def pooled() -> Outcomes:
    """An Inspect eval set: benchmarks arith and logic, with completion texts."""
    return io.load(HARNESS / "inspect" / "eval_set")


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_pair_numbers_equal_the_leaderboards(categorical, scope):
    board = leaderboard(categorical, scope=scope, confidence=0.9)
    inf = board.inference
    for a, b in [("z", "w"), ("x", "y")]:
        i, j = categorical.models.index(a), categorical.models.index(b)
        row = compare_pair(categorical, a, b, confidence=0.9).summary.set_index("scope").loc[scope]
        assert row["diff"] == pytest.approx(inf.score[i] - inf.score[j], abs=1e-12)
        assert row["se"] == pytest.approx(inf.diff_sd[i, j], rel=1e-10)
        assert row["t"] == pytest.approx(inf.t[i, j], rel=1e-10)
        assert row["p_value"] == pytest.approx(inf.pvalue[i, j], rel=1e-10)
        assert row["p_a_better"] == pytest.approx(inf.prob_better[i, j], rel=1e-10)
        # the interval inverts the same test: it excludes 0 exactly when p < 1 - confidence
        assert (row["lo"] > 0 or row["hi"] < 0) == (row["p_value"] < 0.1)


def test_a_population_se_below_the_questions_se_is_explained():
    # two models that share every question's chance: the spread of their differences has
    # no between part, and half the time its sample estimate comes out below the trial part
    rng = np.random.default_rng(5)
    said = 0
    for _ in range(20):
        p = rng.beta(2, 2, 30)
        R = (rng.random((2, 30, 4)) < p[None, :, None]).astype(int)
        cmp = compare_pair(Outcomes(R, models=["a", "b"]), "a", "b")
        se = cmp.summary.set_index("scope")["se"]
        low = se["population"] < se["questions"]
        note = [n for n in cmp.notes if n.startswith("The population s.e.")]
        assert bool(note) == low
        said += low
        if low:
            assert f"({se['population']:.4f})" in note[0] and "29 d.o.f." in note[0]
    assert 3 <= said <= 17


def test_per_question_numbers_are_the_tensors(categorical):
    cmp = compare_pair(categorical, "y", "x")
    w, R = categorical.weights, categorical.R
    per_q = w[R[2]].mean(-1) - w[R[1]].mean(-1)
    q = cmp.questions.set_index("question")
    idx = [categorical.questions.index(x) for x in q.index]
    np.testing.assert_allclose(q["diff"].to_numpy(), per_q[idx], atol=1e-12)
    np.testing.assert_allclose(q["score_a"].to_numpy(), w[R[2]].mean(-1)[idx], atol=1e-12)
    assert q["cumulative"].iloc[-1] == pytest.approx(per_q.mean())
    gap = np.sign(per_q.mean())
    assert np.all(np.diff(gap * q["diff"].to_numpy()) <= 1e-12)  # driving questions first


def test_flip_table_shows_the_right_completions(texts):
    """For each question and model: each trial's score is R's, and its texts are those
    inspect_ai's own reader gives for that (sample, epoch)."""
    reading = json.loads((HARNESS / "inspect" / "texts" / "reading.json").read_text())
    want = {(log["model"].split("/")[1], str(t["id"]), int(t["epoch"])): t
            for log in reading["logs"] for t in log["texts"]}
    for q in texts.questions:
        f = flip_table(texts, "beta", "alpha", q)
        assert f.context["input"] == f"What is {q} + {q}?"
        assert f.context["target"] == str(2 * int(q))
        qi = texts.questions.index(q)
        for tag, m in (("a", "beta"), ("b", "alpha")):
            R = texts.R[texts.models.index(m), qi]
            np.testing.assert_array_equal(f.trials[f"score_{tag}"], R)
            for _, row in f.trials.iterrows():
                t = want[(m, q, row["trial"])]  # the trial is the log's epoch
                assert row[f"output_{tag}"] == t["output"]
                assert row[f"explanation_{tag}"] == t["explanation"]
        assert list(f.trials["flip"]) == list(f.trials["score_a"] != f.trials["score_b"])
        groups = f.groups[f.groups["model"] == "beta"]
        assert groups["repeats"].sum() == texts.N  # every repeat grouped once


def test_trial_panel_shows_each_text_either_model_has_in_the_stores_order(texts):
    """The Pair page's full-text panel (``FlipTable.panel``): each model's category and score
    of that trial, then every text of ``texts`` (the store's order) that either model has,
    a model's missing or empty text as ``None`` with the line "<name>: none"."""
    import pandas as pd

    from scorio_core.engines.pair import FlipTable

    f = flip_table(texts, "beta", "alpha", "2")
    for trial in range(texts.N):
        p = f.panel(trial)
        row = f.trials.iloc[trial]
        assert p.trial == trial and p.heads == (
            ("beta", row["category_a"], row["score_a"]), ("alpha", row["category_b"],
                                                          row["score_b"]))
        assert [r.name for r in p.rows] == [n for n in f.texts if n in ("output", "answer",
                                                                         "explanation")]
        assert [(r.a, r.b) for r in p.rows] == [(row[f"{r.name}_a"], row[f"{r.name}_b"])
                                               for r in p.rows]
    t = pd.DataFrame({"trial": [0, 1], "category_a": ["right", "wrong"], "score_a": [1.0, 0.0],
                      "category_b": ["wrong", "wrong"], "score_b": [0.0, 0.0],
                      "reasoning_a": ["think", None], "reasoning_b": [None, None],
                      "output_a": ["4", ""], "output_b": ["5", "6"],
                      "error_a": [None, None], "error_b": ["", "timeout"]})
    f = FlipTable("q", "m1", "m2", t, pd.DataFrame(), {}, True,
                  texts=("reasoning", "output", "error"))
    first, second = f.panel(0), f.panel(1)
    assert [(r.name, r.a, r.b, r.labels) for r in first.rows] == [
        ("reasoning", "think", None, ("reasoning", "reasoning: none")),
        ("output", "4", "5", ("output", "output"))]  # no error on either side: no row
    assert [(r.name, r.a, r.b) for r in second.rows] == [("output", None, "6"),
                                                          ("error", None, "timeout")]
    assert second.heads == (("m1", "wrong", 0.0), ("m2", "wrong", 0.0))


def test_question_picker_lists_the_questions_in_the_gaps_order(pooled, categorical):
    """The Pair page's question choices: "" for the question that drives the gap most, then
    every question as ``questions`` orders them, with its benchmark where the data pool
    several and its difference."""
    from scorio_core.engines.pair import question_choices

    q = compare_pair(pooled, "alpha", "beta").questions
    choices = question_choices(q)
    assert list(choices) == ["", *q["question"]]
    top = q.iloc[0]
    assert choices[""] == f"the one that drives the gap most ({top.question} · {top.benchmark})"
    for r in q.itertuples():
        assert choices[r.question] == f"{r.question} · {r.benchmark}  (difference {r.diff:+.3f})"
    one = compare_pair(categorical, "y", "x").questions  # one benchmark: ids alone
    x = one.iloc[-1]
    assert question_choices(one)[x["question"]] == f"{x['question']}  (difference {x['diff']:+.3f})"


def test_flip_table_on_lm_eval_logs():
    o = io.load(HARNESS / "lm_eval" / "multi", benchmark="qa_one")
    f = flip_table(o, "alpha", "beta", o.questions[0])
    assert f.has_text and f.context["target"] == "Paris"
    assert list(f.trials["score_a"]) == list(o.weights[o.R[0, 0]])
    line = json.loads(next((HARNESS / "lm_eval" / "multi" / "alpha").glob(
        "samples_qa_one_*.jsonl")).read_text().splitlines()[0])
    assert f.trials["answer_a"][0] == line["filtered_resps"][0]


def test_run_defaults_and_exports(texts, tmp_path):
    r = PAIR.run(texts, PAIR.params())
    assert (r.comparison.a, r.comparison.b) == ("alpha", "beta")  # the two best by score
    assert r.flips.question == r.comparison.questions["question"].iloc[0]
    tables = PAIR.tables(r)
    # question_texts: the chosen question's own texts (input, target), once
    assert list(tables) == ["summary", "questions", "question_texts", "flips", "repeats"]
    csv = export_file(PAIR, texts, PAIR.params(question="2"), PAIR.run(
        texts, PAIR.params(question="2")), "csv", "flips")
    assert csv.startswith("# ") and "'=HYPERLINK" in csv and '"=HYPERLINK' not in csv
    ns = {"data": texts}
    exec(PAIR.to_code(PAIR.params(confidence=0.9), "data"), ns)
    again = PAIR.run(texts, PAIR.params(confidence=0.9))
    assert ns["pair_cmp"].summary.equals(again.comparison.summary)
    resolved = PAIR.resolved(PAIR.params(), r)
    assert resolved == {"a": "alpha", "b": "beta", "question": r.flips.question}


def test_without_texts_the_flip_table_has_scores_only(categorical):
    r = PAIR.run(categorical, PAIR.params(a="w", b="x", question="q3"))
    assert not r.flips.has_text and list(r.flips.trials.columns) == [
        "trial", "flip", "category_a", "score_a", "category_b", "score_b"]
    assert any("no completion texts" in c for c in PAIR.caveats(categorical, PAIR.params(), r))


def test_bad_settings_are_refused(categorical):
    with pytest.raises(ValidationError, match="two different models"):
        PAIR.params(a="w", b="w")
    with pytest.raises(ValidationError, match="unknown model 'v'"):
        PAIR.run(categorical, PAIR.params(a="v"))
    with pytest.raises(ValidationError, match="unknown question"):
        PAIR.run(categorical, PAIR.params(question="nope"))
    assert PAIR.requires(Outcomes(np.zeros((1, 2, 2), int))) is not None
    mean = categorical.weights[categorical.R].mean(axis=(1, 2))
    best_other = max((m for m in categorical.models if m != "y"),
                     key=lambda m: mean[categorical.models.index(m)])
    assert default_pair(categorical, b="y") == (best_other, "y")


def test_cli_pair(capsys):
    path = str(HARNESS / "inspect" / "texts")
    assert main(["pair", path, "beta", "alpha", "--question", "3", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["provenance"]["settings"]["a"] == "beta"
    flips = out["flips"]
    assert {r["question"] for r in flips} == {"3"} and len(flips) == 3
    assert main(["pair", path, "alpha", "beta", "--format", "table"]) == 0
    text = capsys.readouterr().out
    assert "## Question 2: both models' repeats" in text and "\x1b" not in text
    assert main(["pair", path, "alpha", "gamma"]) == 2
    assert "unknown model 'gamma'" in capsys.readouterr().err


def test_report_section_escapes_log_text(texts):
    from scorio_core.report import build_report, to_html, to_markdown

    rep = build_report(texts, [("pair", {"question": "2"})])
    page, md = to_html(rep), to_markdown(rep)
    assert "&lt;b&gt;4&lt;/b&gt;" in page and "<b>4</b>" not in page
    assert "&lt;b>4&lt;/b>" in md and "<b>" not in md and "</b>" not in md


# ------------------------------------------- the report's questions table is the chart's
def _lopsided() -> Outcomes:
    """30 questions: the leader wins 18 of them (largest first), the other model wins back 6
    with wide margins and 6 are ties -- so the leader's first 20 rows never show the 6."""
    rng = np.random.default_rng(11)
    R = np.zeros((2, 30, 8), int)
    for q in range(18):  # the leader's: a smaller margin the further down
        R[0, q, : 8 - q // 3] = 1
        R[1, q, : 1 + q % 2] = 1
    for q in range(18, 24):  # the other model's wins: large
        R[1, q, : 6 + q % 2] = 1
    R[:, 24:, :4] = 1  # ties
    return Outcomes(R[:, rng.permutation(30)], models=["lead", "other"])


def test_report_questions_table_is_the_charts_rows_and_reconciles():
    """The report's 'questions' table shows what the chart draws -- the questions that move
    the gap most either way (gap_rows), same rows, same order -- not the leader's first
    `top` rows; its cumulative sums the rows shown and one line says what the rest add, so
    shown + left out = the mean difference. The export keeps every question."""
    from scorio_core.charts import gap_drivers
    from scorio_core.report import build_report, to_html, to_markdown

    data = _lopsided()
    r = PAIR.run(data, PAIR.params(top=20))
    c = r.comparison
    q = c.questions
    drawn = gap_drivers(q, c.a, c.b, 20).to_dict()
    drawn_questions = [row["question"] for row in next(iter(drawn["datasets"].values()))]
    view = PAIR.shown_tables(r)["questions"]
    assert view.table["question"].tolist() == drawn_questions
    assert len(drawn_questions) == 20 and (view.table["diff"] < 0).sum() == 6  # both sides
    np.testing.assert_allclose(view.table["cumulative"], view.table["contribution"].cumsum())
    diff = float(c.summary.set_index("scope").loc["questions", "diff"])
    shown = view.table["contribution"].sum()
    left = q.loc[~q["question"].isin(drawn_questions), "contribution"].sum()
    assert shown + left == pytest.approx(diff, abs=1e-12)
    note = view.note
    assert f"add up to {shown:.4f}" in note and f"left out add {left:.4f}" in note
    assert f"mean difference, {diff:.4f}" in note and "export lists every question" in note
    # the export (and tables()) keeps every question, in the leader-first order
    assert PAIR.tables(r)["questions"]["question"].tolist() == q["question"].tolist()
    assert len(q) == data.M
    csv = export_file(PAIR, data, PAIR.params(), r, "csv", "questions")
    assert sum(1 for ln in csv.splitlines() if re.match(r"q\d+,", ln)) == data.M
    # the report shows those rows and that line, in HTML and Markdown
    rep = build_report(data, [("pair", {"top": 20})])
    page, md = to_html(rep), to_markdown(rep)
    section = page.split("<h3>questions</h3>", 1)[1].split("<h3>", 1)[0]
    assert re.findall(r"<tr><td class=\"t\">(q\d+)</td>", section) == drawn_questions
    assert html.escape(note) in page and note in md


def test_pair_chart_axis_labels_do_not_collide():
    """Three questions each worth 1/60 of the mean: the x axis once printed 19 labels
    0.000 ... 0.018 about 38 px apart, the first flush left, so '0.0000.001' ran together."""
    from scorio_core.charts import gap_drivers
    from scorio_core.report import chart_svg

    R = np.ones((2, 15, 4), int)
    R[1, :3, 3] = 0
    for R_ in (R, _lopsided().R):
        data = Outcomes(R_, models=["a", "b"])
        c = compare_pair(data, "a", "b")
        svg = chart_svg(gap_drivers(c.questions, "a", "b"))
        axis = re.findall(r'<g class="mark-text role-axis-label"[^>]*>(.*?)</g>', svg,
                          flags=re.S)[0]  # the x axis
        labels = [(float(x), t) for x, t in
                  re.findall(r'translate\(([-\d.]+),[-\d.]+\)[^>]*>([^<]*)<', axis)]
        # extents at ~0.65 em per character of the 10 px labels; the end labels are flush
        boxes = []
        for i, (x, t) in enumerate(labels):
            w = 6.5 * len(t)
            lo = x if i == 0 else x - w if i == len(labels) - 1 else x - w / 2
            boxes.append((lo, lo + w))
        assert all(a[1] <= b[0] for a, b in zip(boxes, boxes[1:], strict=False)), labels


def test_gap_caption_calls_broad_what_is_broad():
    """The caption said 'a lead with few [bars of the other colour] is a broad one': beside
    three bars of the leader and none back (a gap that rests on 3 of 15 questions) it called
    that gap broad, against its own first clause. Broad is a gap spread over many bars; bars
    of the other colour say how one-sided it is."""
    from scorio_core.charts import GAP_DRIVERS_CAPTION as cap

    assert "a lead with few of them is a broad one" not in cap
    assert "rests on a few questions" in cap and "many bars is broad" in cap
    assert "one-sided" in cap and "either way" in cap and "ties left out" in cap


def test_flips_with_more_distinct_answers_than_a_page_print_the_commonest():
    """Free-form outputs (each trial its own): a report has room for 60 trials, so it
    prints the first of each model's commonest outputs and says how many outputs, and how
    many completions, it leaves out."""
    import pandas as pd

    from scorio_core.definitions.pair import first_answers

    n = 80
    same = ["the same"] * 50 + [f"b{k}" for k in range(50, n)]  # b repeats itself 50 times
    t = pd.DataFrame({"question": "q", "trial": range(n), "flip": False,
                      "score_a": 1.0, "output_a": [f"a{k}" for k in range(n)],
                      "score_b": 1.0, "output_b": same})
    view = first_answers(t, "m1", "m2")
    assert view.table["trial"].tolist() == list(range(60))
    assert view.table.loc[0, "repeats_b"] == 50 and view.table["repeats_a"].eq(1).all()
    assert view.note.startswith("Shown: 60 of the 80 trials, the first on which each model "
                                "gave each of its outputs, the commonest first, as many as "
                                "fit (80 distinct for m1, 31 for m2)")
    assert "Not printed: 20 of m1's and 20 of m2's outputs, given on 40 of the 160 " \
           "completions." in view.note
    # the commonest first: a room of 3 rows holds b's repeated output and the first two
    few = first_answers(t.iloc[::-1].reset_index(drop=True), rows=3)
    assert few.table["trial"].tolist() == [79, 78, 49]  # in the table's order
    assert few.table["output_b"].tolist().count("the same") == 1


# ------------------------------------------------ pooled benchmarks: which one, everywhere
def test_pooled_benchmarks_stand_beside_every_question_listed(pooled, capsys):
    """On data that pool benchmarks, every table of the pair view that lists questions says
    which benchmark each comes from (an id alone does not): the questions table (page,
    export, report, CLI, notebook), the flips export, the flips view's line, the chart's
    tooltip and the CLI's heading."""
    from scorio_core.charts import gap_drivers

    bench = dict(zip(pooled.questions, pooled.benchmarks, strict=True))
    r = PAIR.run(pooled, PAIR.params(a="alpha", b="beta", question="logic/3"))
    q = r.comparison.questions
    assert q["benchmark"].tolist() == [bench[x] for x in q["question"]]
    assert set(q["benchmark"]) == {"arith", "logic"}
    assert r.flips.benchmark == "logic" and r.flips.label == "logic/3 (benchmark logic)"
    tables, shown = PAIR.tables(r), PAIR.shown_tables(r)
    assert list(tables["flips"].columns[:3]) == ["question", "benchmark", "trial"]
    assert set(tables["flips"]["benchmark"]) == {"logic"}
    view = shown["questions"].table
    assert view["benchmark"].tolist() == [bench[x] for x in view["question"]]
    assert shown["flips"].note.startswith("Question logic/3 (benchmark logic): ")
    tips = gap_drivers(q, "alpha", "beta").to_dict()["encoding"]["tooltip"]
    assert [t["field"] for t in tips][:2] == ["question", "benchmark"]
    assert re.search(r"<th[^>]*>benchmark</th>", r.comparison._repr_html_())
    path = str(HARNESS / "inspect" / "eval_set")
    assert main(["pair", path, "alpha", "beta", "--question", "logic/3",
                 "--format", "table"]) == 0
    text = capsys.readouterr().out
    assert "## Question logic/3 (benchmark logic): both models' repeats" in text
    assert re.search(r"^logic/3 +logic +1\.0000", text, flags=re.M)  # a questions row
    # one benchmark: no column that holds one value, no label to read
    one = PAIR.run(pooled.select("arith"), PAIR.params(a="alpha", b="beta"))
    assert "benchmark" not in one.comparison.questions and one.flips.benchmark is None
    assert "benchmark" not in PAIR.tables(one)["flips"]
    assert not re.search(r"<th[^>]*>benchmark</th>", one.comparison._repr_html_())
    assert one.flips.label == one.flips.question


def test_pooled_scores_without_texts_keep_the_benchmark(data_dir):
    """The bundled reasoning data (4 benchmarks, scores only): the report's flips, grouped by
    outcome, list the question with its benchmark."""
    data = io.load(data_dir / "reasoning_synthetic.npz")
    r = PAIR.run(data, PAIR.params(question="HMMT'25-06"))
    flips = PAIR.shown_tables(r)["flips"].table
    assert list(flips.columns[:2]) == ["question", "benchmark"]
    assert set(flips["benchmark"]) == {"HMMT'25"} and flips["repeats"].sum() == data.N
    q = r.comparison.questions
    assert q["benchmark"].nunique() == 4
    assert q["benchmark"].tolist() == [data.benchmarks[data.questions.index(x)]
                                       for x in q["question"]]


# ----------------------------------------- the report's flips: texts that read at 1280 px
def test_report_flips_with_texts_are_one_row_per_trial_and_model(texts):
    """Side by side, the texts of two models made 15 columns (the question on every row,
    six narrow text columns) that ran past a 1280 px screen: the report now gives each trial
    two rows, a's above b's, one column per text, and leaves out what repeats (the question,
    said in the line under it; output, where it is the answer on every row). Every text stays
    in the export, side by side."""
    r = PAIR.run(texts, PAIR.params(a="alpha", b="beta", question="2"))
    wide = PAIR.tables(r)["flips"]
    view = PAIR.shown_tables(r)["flips"]
    t = view.table
    assert list(t.columns) == ["trial", "flip", "model", "category", "score", "answer",
                               "explanation"]
    assert len(t) == 2 * texts.N and t["model"].tolist() == ["alpha", "beta"] * texts.N
    for tag, rows in (("a", t.iloc[::2]), ("b", t.iloc[1::2])):
        for col in ("category", "score", "answer", "explanation"):
            assert rows[col].tolist() == wide[f"{col}_{tag}"].tolist(), (tag, col)
        assert rows["trial"].tolist() == wide["trial"].tolist()
    assert wide["output_a"].equals(wide["answer_a"]) and wide["output_b"].equals(wide["answer_b"])
    assert "output is left out, the same as answer on every row" in view.note
    # the export keeps the side-by-side table with every text
    assert {f"{c}_{tag}" for c in ("answer", "output", "explanation")
            for tag in "ab"} <= set(wide.columns)


def test_flips_output_is_kept_where_it_is_not_the_answer():
    import pandas as pd

    from scorio_core.definitions.pair import by_model

    t = pd.DataFrame({"question": "q", "trial": [0, 1], "flip": [True, False],
                      "score_a": 1.0, "answer_a": ["4", "4"], "output_a": ["so 4", "4"],
                      "score_b": 0.0, "answer_b": ["5", "5"], "output_b": ["5", "5"]})
    view = by_model(t, "m1", "m2")
    assert view.table["output"].tolist() == ["so 4", "5", "4", "5"]
    assert "output" not in view.note and view.note.startswith("Question q: ")


def test_flips_with_many_trials_print_two_rows_per_chosen_trial(tmp_path):
    """More trials than fit the printed rows two by two (40 > 60 / 2): the first trial of each
    distinct answer, two rows each, repeats = on how many trials that model gave the row's
    answer; the export keeps all 40 trials."""
    import pandas as pd

    from scorio_core.display import PRINTED_ROWS

    n = 40
    answers = {"m1": ["4"] * 30 + ["5"] * 10, "m2": ["4"] * 10 + ["6"] * 30}
    rows = [{"model": m, "question": "q", "trial": k, "outcome": int(ans[k] == "4"),
             "answer": f"x={ans[k]}"} for m, ans in answers.items() for k in range(n)]
    pd.DataFrame(rows).to_csv(tmp_path / "runs.csv", index=False)
    data = io.load(tmp_path / "runs.csv")
    r = PAIR.run(data, PAIR.params(a="m1", b="m2"))
    assert 2 * n > PRINTED_ROWS and len(PAIR.tables(r)["flips"]) == n
    view = PAIR.shown_tables(r)["flips"]
    t = view.table
    assert t["trial"].tolist() == [0, 0, 10, 10, 30, 30]
    assert t["answer"].tolist() == ["x=4", "x=4", "x=4", "x=6", "x=5", "x=6"]
    assert t["repeats"].tolist() == [30, 10, 30, 30, 10, 30]
    assert "repeats = on how many trials that model gave the row's answer" in view.note
    assert "Shown: 3 of the 40 trials" in view.note


# ------------------------------------------- every text of a trial, the question's once
def test_flip_table_holds_every_text_of_a_trial_in_the_stores_order(tmp_path):
    """A HELM run with thinking, annotations and the prompt sent: the flip table and the
    Pair page showed answer, output, explanation and error only (a list of four); now every
    text the store has for a trial (trial_texts: TEXT_COLUMNS order, the question's own
    texts left out), the question's input and target once in ``context``."""
    from fixtures.helm_runs import ANNOTATIONS, THINKING, annotated_run, helm_run

    from scorio_core.engines.pair import PER_QUESTION, trial_texts
    from scorio_core.samples import TEXT_COLUMNS

    annotated_run(tmp_path)
    helm_run(tmp_path, "beta")
    data = io.load(tmp_path)
    f = flip_table(data, "alpha", "beta", "id60")
    assert f.texts == ("reasoning", "output", "answer", "annotations", "prompt")
    assert f.texts == trial_texts(data.samples.columns)
    assert f.context == {"input": "Is 70 even or odd?", "target": "Even",
                         "metadata": '{"split": "test"}'}
    assert [c for c in f.trials if c.endswith("_a")] == [
        "category_a", "score_a", *(f"{c}_a" for c in f.texts)]
    assert f.trials["trial"].tolist() == [0, 1]  # HELM's own train_trial_index
    assert f.trials["reasoning_a"].tolist() == [THINKING[("id60", 0)], THINKING[("id60", 1)]]
    assert json.loads(f.trials["annotations_a"][0]) == ANNOTATIONS[("id60", 0)]
    # the one rule: every store text but the question's, whatever the store holds
    assert set(PER_QUESTION) <= set(TEXT_COLUMNS)
    assert trial_texts(reversed(TEXT_COLUMNS)) == tuple(c for c in TEXT_COLUMNS
                                                        if c not in PER_QUESTION)
    # the report's view: one column per text, two rows per trial, no question text
    r = PAIR.run(data, PAIR.params(a="alpha", b="beta", question="id60"))
    view = PAIR.shown_tables(r)["flips"]
    t = view.table
    # ... but not the whole prompt sent (in-context examples: thousands of characters a row),
    # said in the line; the export keeps it
    assert list(t.columns) == ["trial", "flip", "model", "category", "score",
                               *(c for c in f.texts if c != "prompt")]
    assert "prompt (the full prompt sent) is left out" in view.note
    assert t["reasoning"].tolist()[::2] == f.trials["reasoning_a"].tolist()
    assert PAIR.tables(r)["flips"]["prompt_b"].tolist() == f.trials["prompt_b"].tolist()


def test_summary_view_says_the_two_names_once_in_report_page_and_notebook(texts):
    """The summary carried model_a and model_b on every row: two long names ran the report's
    table past a 1280 px screen. The report, the notebook's cell and the result's own display
    show it without them, the names said once under it; the export keeps them."""
    from scorio_core.definitions.pair import summary_view
    from scorio_core.display import readable

    r = PAIR.run(texts, PAIR.params(a="beta", b="alpha"))
    view = PAIR.shown_tables(r)["summary"]
    assert {"model_a", "model_b"}.isdisjoint(view.table.columns)
    assert view.note == "diff = a − b, a = beta, b = alpha."
    assert list(view.table.columns) == [c for c in r.comparison.summary
                                        if c not in ("model_a", "model_b")]
    assert PAIR.tables(r)["summary"][["model_a", "model_b"]].values.tolist() == [
        ["beta", "alpha"]] * 2  # the export
    # the notebook cell ends by showing the report's table and line
    code = PAIR.to_code(PAIR.params(a="beta", b="alpha"), "data")
    ns = {"data": texts}
    *body, last = code.splitlines()
    exec("\n".join(body), ns)
    shown = eval(last.replace("sc.display.show(", "sc.display.as_table("), ns)  # displayed
    got, want = shown._shown(), readable(view)
    assert got[0].equals(want[0]) and got[1] == want[1]
    assert readable(summary_view(r.comparison.summary))[0].equals(r._main()[1])  # its display


@pytest.mark.parametrize("key", ["answer", "output"])
def test_repeats_without_an_answer_say_none_was_recorded(tmp_path, key):
    """The 'repeats' table grouped the trials the data hold no answer (or output) for -- on
    the bundled temperature data, no answer letter parsed or the call failed -- as
    "(no text)"; it says what is missing."""
    import pandas as pd

    rows = [{"model": m, "question": "q0", "trial": t, "outcome": int(t < 2),
             key: ["B", "B", "", "", "", "C"][t]} for m in "ab" for t in range(6)]
    pd.DataFrame(rows).to_csv(tmp_path / "long.csv", index=False)
    g = flip_table(io.load(tmp_path / "long.csv"), "a", "b", "q0").groups
    mine = g[g["model"] == "a"].set_index(key)
    assert mine.loc[f"(no {key} recorded)", "repeats"] == 3
    assert mine.loc[f"(no {key} recorded)", "trials"] == "2, 3, 4"
    assert mine.loc["B", "mean_score"] == 1.0 and mine.loc["C", "repeats"] == 1
    assert not g[key].str.contains("no text").any()


# ------------------------------------ one numbering of trials: the one the logs write
def test_trials_are_the_logs_epochs_in_the_flips_the_repeats_and_the_report(texts):
    """The Pair view numbered trials 0..N-1 beside the Inspect epochs 1..N, and the repeats
    grouped listed the first ("trials 1, 2" meaning epochs 2 and 3): one numbering now, the
    log's epoch, in the flips, the repeats grouped, the report's view and the CLI, said in
    the note under the table."""
    reading = json.loads((HARNESS / "inspect" / "texts" / "reading.json").read_text())
    epochs = {}
    for log in reading["logs"]:
        for t in log["texts"]:
            epochs.setdefault((log["model"].split("/")[1], str(t["id"]), t["answer"]),
                              set()).add(int(t["epoch"]))
    for q in texts.questions:
        r = PAIR.run(texts, PAIR.params(a="alpha", b="beta", question=q))
        f = r.flips
        assert f.trials["trial"].tolist() == list(range(1, texts.N + 1))
        assert not [c for c in f.trials if c.startswith("trial_")]
        assert f.trial_meaning == "the sample's epoch in the Inspect log"
        for g in f.groups.itertuples():  # each answer's trials: the epochs that gave it
            listed = {int(x) for x in g.trials.split(", ")}
            assert listed == epochs[(g.model, q, g.answer)], (q, g)
        shown = PAIR.shown_tables(r)
        assert shown["flips"].table["trial"].tolist() == [t for t in f.trials["trial"]
                                                          for _ in "ab"]
        assert "trial = the sample's epoch in the Inspect log" in shown["flips"].note
        assert "the sample's epoch in the Inspect log" in shown["repeats"].note
        assert [f.trial_label(i) for i in range(texts.N)] == ["1", "2", "3"]
        assert f.panel(2).ids == (3, 3) and f.panel(2).trial == 2
    out = PAIR.tables(PAIR.run(texts, PAIR.params(a="alpha", b="beta", question="3")))
    assert out["flips"]["trial"].tolist() == [1, 2, 3] and "trial_id_a" not in out["flips"]


def test_trials_of_two_models_that_differ_are_each_models_own(tmp_path):
    """One model's errored epoch, read with on_missing="truncate": its second completion in
    R is its third epoch, the other model's the second. Each model's trials then keep their
    own epochs (trial_a, trial_b), in the flips, the repeats grouped and the report's two
    rows per trial; where they agree, one trial column."""
    from fixtures import make_logs as mk

    from scorio_core.definitions.pair import by_model

    v = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]])
    logs = [mk.write_inspect_eval(tmp_path / f"{m}.eval", m, "t", v, [1, 2, 3],
                                  errored={(2, 2)} if m == "b" else ()) for m in ("a", "b")]
    data = io.load(logs, on_missing="truncate")
    assert data.N == 2
    f = flip_table(data, "a", "b", "2")
    assert "trial" not in f.trials
    assert f.trials["trial_a"].tolist() == [1, 2] and f.trials["trial_b"].tolist() == [1, 3]
    assert f.trials["score_b"].tolist() == [v[1, 0], v[1, 2]]  # b's epochs 1 and 3
    assert f.groups.set_index("model")["trials"].str.split(", ").map(len).sum() == 4
    assert set(f.groups[f.groups.model == "b"]["trials"].str.split(", ").sum()) == {"1", "3"}
    assert f.trial_label(1) == "2 (a) / 3 (b)" and f.panel(1).ids == (2, 3)
    view = by_model(f.trials, "a", "b", f.trial_meaning)
    assert view.table["trial"].tolist() == [1, 1, 2, 3] and list(view.table)[0] == "trial"
    assert view.table["model"].tolist() == ["a", "b", "a", "b"]
    assert "each row's trial is its own model's" in view.note
    same = flip_table(data, "a", "b", "1")
    assert same.trials["trial"].tolist() == [1, 2] and "trial_a" not in same.trials


def test_trials_without_ids_count_from_one_and_say_so():
    from scorio_core.engines.pair import NO_TRIAL_IDS

    R = np.random.default_rng(3).integers(0, 2, (2, 4, 3))
    f = flip_table(Outcomes(R, models=["a", "b"]), "a", "b", "q1")
    assert f.trials["trial"].tolist() == [1, 2, 3] and f.trial_meaning == NO_TRIAL_IDS
    by_trial = {t: set() for t in (1, 2, 3)}
    for g in f.groups[f.groups.model == "a"].itertuples():
        for t in g.trials.split(", "):
            by_trial[int(t)].add(g.category)
    assert [by_trial[t] for t in (1, 2, 3)] == [{f.trials["category_a"][k]} for k in range(3)]


def test_lm_eval_repeats_are_numbered_from_one_by_their_place_in_resps():
    """lm-eval names no repeat: trial k is the k-th response of a document's resps (1 = the
    first), as the one-trial output's "[repeat k]" labels say -- not 0..k-1 beside them."""
    d = HARNESS / "lm_eval" / "repeats_kept"
    data = io.load(d)
    lines = {json.loads(x)["doc_id"]: json.loads(x) for x in next(
        (d / "alpha").glob("samples_gen_nofirst_*.jsonl")).read_text().splitlines()}
    for q in data.questions:
        f = flip_table(data, "alpha", "beta", q)
        assert f.trials["trial"].tolist() == [1, 2, 3, 4]
        assert f.trial_meaning.startswith("the repeat in the lm-eval samples file, counted "
                                          "from 1")
        resps = lines[int(q)]["filtered_resps"][0]
        assert [f.trials["answer_a"][k - 1] for k in (1, 2, 3, 4)] == resps


def test_openai_evals_events_are_numbered_from_one():
    data = io.load(HARNESS / "openai_evals" / "modelgraded_repeated")
    f = flip_table(data, data.models[0], data.models[-1], data.questions[0])
    assert f.trials["trial"].tolist() == list(range(1, data.N + 1))
    assert "OpenAI evals log, counted from 1" in f.trial_meaning


def test_lm_eval_multiple_choice_question_shows_options_not_repeats(capsys):
    """lm-eval's four answer options (one loglikelihood request each) were shown as
    "[repeat 1] ... [repeat 4]", the answer as the first option's loglikelihood and the
    target as the label index: the drill-down now shows the option lm-eval picked, the
    target's text and the options' loglikelihoods as one 'choices' text; one trial, one
    group per model in the repeats grouped."""
    d = HARNESS / "lm_eval" / "fewshot"
    data = io.load(d)
    r = PAIR.run(data, PAIR.params(a="alpha", b="beta", question="1"))
    f = r.flips
    assert f.trials["trial"].tolist() == [1] and f.texts == ("answer", "choices")
    assert f.context["target"] == "blue sky above"  # choices[label 2], not "2"
    assert f.groups["repeats"].tolist() == [1, 1]
    rec = {m: json.loads(next((d / m).glob("samples_mc_a_*.jsonl")).read_text()
                         .splitlines()[1]) for m in ("alpha", "beta")}
    for tag, m in (("a", "alpha"), ("b", "beta")):
        lls = [float(x[0]) for x in rec[m]["filtered_resps"]]
        options = rec[m]["doc"]["choices"]
        assert f.trials[f"answer_{tag}"][0] == options[int(np.argmax(lls))]
        lines = f.trials[f"choices_{tag}"][0].splitlines()
        assert [x.split(" (loglikelihood ")[0] for x in lines] == [
            f"choice {i}: {o}" for i, o in enumerate(options)]
        assert "<- target" in lines[2] and "[repeat" not in f.trials[f"choices_{tag}"][0]
    assert main(["pair", str(d), "alpha", "beta", "--question", "1", "--format",
                 "table"]) == 0
    out = capsys.readouterr().out
    assert "[repeat" not in out and "choice 2: blue sky above" in out


def _bernoulli(*counts: list[int], N: int = 3) -> Outcomes:
    """Binary outcomes: each model's correct trials per question (``counts[m][q]`` of ``N``)."""
    R = np.array([[[1] * k + [0] * (N - k) for k in row] for row in counts])
    return Outcomes(R, models=[f"m{i}" for i in range(len(counts))])


def test_an_exact_tie_has_no_gap_and_shows_the_largest_difference_first():
    """The audit: an exact tie (B and D of its run) showed the other model's largest push,
    q22 (contribution -0.0167), as the default question, above q34 (+0.025): the mean of the
    per-question differences came out -1.9e-17 and ordered the questions as if the second
    model led. The pair's difference is now the leaderboard's exact 0, the questions listed
    first are the largest differences either way (the default question, as its docstring
    says), and the running total ends on 0."""
    data = _bernoulli([2, 2, 1, 0, 0, 2], [0, 3, 1, 0, 0, 3])  # equal totals: 7 of 18 each
    cmp = compare_pair(data, "m0", "m1")
    assert cmp.summary["diff"].tolist() == [0.0, 0.0]
    assert cmp.summary["t"].tolist() == [0.0, 0.0]
    assert cmp.summary["p_value"].tolist() == [1.0, 1.0]
    assert cmp.questions["question"].iloc[0] == "q0"  # +2/3, the largest either way
    assert cmp.questions["cumulative"].iloc[-1] == 0.0
    result = PAIR.run(data, PAIR.params(a="m0", b="m1"))
    assert result.flips.question == "q0"
    from scorio_core.engines.pair import gap_view

    _, said = gap_view(cmp.questions, top=20)
    assert "the mean difference, 0.0000" in said and "−0.0001" not in said


def test_a_graded_tie_reads_zero_in_the_pair_view_as_on_the_board():
    """The graded tie of the audit: ``sc.pair`` printed diff <0.0001, t <0.01, p_value
    >0.9999 (1.1e-16 of summation noise) where the board's numbers for the pair are 0."""
    from scorio_core.formatting import format_frame

    R = np.array([[[2, 0, 0], [2, 0, 0], [2, 0, 2], [2, 0, 1], [0, 1, 1]],
                  [[2, 2, 0], [0, 2, 0], [0, 1, 0], [2, 2, 0], [1, 1, 0]]])
    data = Outcomes(R, weights=[0, 0.5, 1], models=["a", "b"])
    cmp = compare_pair(data, "a", "b")
    shown = format_frame(cmp.summary)
    assert shown["diff"].tolist() == ["0.0000"] * 2 and shown["t"].tolist() == ["0.00"] * 2
    assert shown["p_value"].tolist() == ["1.0000"] * 2
    board = leaderboard(data, draws=200)
    assert board.score[0] - board.score[1] == 0.0 == cmp.summary["diff"].iloc[0]


def test_the_gap_chart_names_what_it_plots():
    """Its axis said "share of the mean difference" for ``diff / M``, a contribution (and on a
    tie, a share of 0 means nothing): it says contribution, and the formula."""
    from scorio_core.charts import GAP_DRIVERS_CAPTION, gap_drivers

    cmp = compare_pair(_bernoulli([3, 0, 1], [0, 2, 0]), "m0", "m1")
    title = gap_drivers(cmp.questions, "m0", "m1").to_dict()["encoding"]["x"]["title"]
    text = "".join(title) if isinstance(title, list) else title
    assert text.startswith("contribution to the mean difference") and "/ M" in text
    assert "share" not in text and "share" not in GAP_DRIVERS_CAPTION
    assert "add up to the mean difference" in GAP_DRIVERS_CAPTION


def test_the_comparisons_display_explains_its_columns_as_the_pair_view_does(categorical):
    """``pair_view.comparison`` displayed its summary and questions without the "Columns:"
    legend every other result shows. It now shows the tables the pair view's report section
    shows (the summary without the two names on each row, the chart's questions), each with
    the legend of the pair definition's own declaration, in the notebook and as text."""
    from scorio_core import display

    r = PAIR.run(categorical, PAIR.params(a="y", b="w"))
    c = r.comparison
    shown = PAIR.shown_tables(r)
    html, text = c._repr_html_(), repr(c)
    assert not text.startswith("PairComparison(")  # not a dataclass's dump
    for name in ("summary", "questions"):
        table = display.readable(shown[name])[0]
        declared = PAIR.column_help(name)
        legend = display.legend_html(table.columns, declared)
        assert legend and legend in html, name
        lines = display.legend_text(table.columns, declared)
        assert "\n".join(lines) in text, name
    # the lines name the declaration's meanings: the summary's and the questions' own
    assert "<code>p_a_better</code> P(a &gt; b)" in html
    assert "<code>contribution</code> diff / M" in html
    assert html.count('class="note legend"') == 2
    # the same rows as the view's (its default top): the chart's questions, in its order
    rows = display.readable(shown["questions"])[0]["question"].tolist()
    cells = re.findall(r'<td class="txt">([^<]+)</td>', html)
    assert len(rows) == PAIR.params().top
    assert [q for q in cells if q in set(categorical.questions)] == rows
