"""The vectorized leaderboard against per-model calls of the reference package."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from scorio_core import Outcomes, ValidationError, decision, export
from scorio_core.leaderboard import NO_PAIRS, ONE_MODEL, leaderboard

TRUE_MEANS = [0.2332, 0.2545, 0.3604, 0.3642, 0.3642, 0.4466, 0.5418, 0.5276, 0.608, 0.6213, 0.7327]


def _coins(seed=0, N=80):
    rng = np.random.default_rng(seed)
    p = np.array(TRUE_MEANS)
    R = (rng.random((11, 30, N)) < p[:, None, None]).astype(np.int8)
    return Outcomes(R, models=[f"LLM_{i + 1}" for i in range(11)])


def test_table_matches_reference_per_model(ref_eval):
    rng = np.random.default_rng(4)
    R = rng.integers(0, 2, (7, 25, 16))
    R0 = rng.integers(0, 2, (7, 25, 1))
    board = leaderboard(R, R0=R0, ks=(2, 8), confidence=0.9)
    t = board.table.set_index("model")
    for i in range(7):
        row = t.loc[f"model_{i}"]
        ref = ref_eval.bayes_ci(R[i], None, R0[i], confidence=0.9, bounds=(0, 1))
        cols = ["bayes_mu", "bayes_sigma", "bayes_lo", "bayes_hi"]  # the papers' columns
        np.testing.assert_allclose(row[cols].to_numpy(float), ref, atol=1e-12)
        assert row["score"] == pytest.approx(ref_eval.avg(R[i])[0], abs=1e-12)
        assert row["pass@2"] == pytest.approx(ref_eval.pass_at_k(R[i], 2), abs=1e-9)
        assert row["pass@8"] == pytest.approx(ref_eval.pass_at_k(R[i], 8), abs=1e-9)


def test_table_is_sorted_and_ranks_are_consistent():
    board = leaderboard(_coins(), ks=(4,))
    t = board.table
    assert t["score"].is_monotonic_decreasing
    assert t["rank_chain"].is_monotonic_increasing and t["rank_chain"].iloc[0] == 1
    # the CI-aware rank never separates more than the strict rank does
    assert (t["rank_chain"] <= t["rank_mu"]).all()
    np.testing.assert_allclose(board.prob_better + board.prob_better.T - np.eye(11), 1 - np.eye(11))


def test_confidence_changes_ci_aware_ranks():
    data = _coins()
    low = leaderboard(data, confidence=0.6).table["rank_chain"].tolist()
    high = leaderboard(data, confidence=0.999).table["rank_chain"].tolist()
    assert low != high and max(high) < max(low)


def test_greedy_prior_changes_estimates_and_needs_r0():
    rng = np.random.default_rng(2)
    R = rng.integers(0, 2, (3, 10, 4))
    data = Outcomes(R, R0=np.ones((3, 10, 2), dtype=int))
    with_prior = leaderboard(data, use_prior=True).table.set_index("model")
    without = leaderboard(data).table.set_index("model")
    assert (with_prior["bayes_mu"] > without["bayes_mu"]).all()
    # the headline estimates the sampling score: the greedy prior does not move it
    np.testing.assert_array_equal(with_prior["score"], without["score"])
    np.testing.assert_array_equal(with_prior["lo"], without["lo"])
    with pytest.raises(ValueError, match="no R0"):
        leaderboard(Outcomes(R), use_prior=True)


def test_categorical_weights_drive_the_score():
    R = np.array([[[2, 2, 1]], [[1, 1, 1]]])
    data = Outcomes(R, weights=[0, 0.5, 1], models=["a", "b"])
    assert leaderboard(data).table["model"].tolist() == ["a", "b"]
    assert leaderboard(data, w=[0, 1, 0]).table["model"].tolist() == ["b", "a"]
    with pytest.raises(ValueError, match="binary"):
        leaderboard(data, ks=(2,))


def test_exports_are_consistent_and_safe():
    data = Outcomes(np.random.default_rng(0).integers(0, 2, (2, 5, 4)), models=["-1+2", "b|c"])
    board = leaderboard(data, ks=(2,))
    csv = export.to_csv(board)
    assert "'-1+2" in csv  # a leading '-' would run as a formula in a spreadsheet
    payload = json.loads(export.to_json(board))
    assert [r["model"] for r in payload["rows"]] == board.table["model"].tolist()
    assert payload["settings"]["confidence"] == 0.95 and "rank_chain" in payload["columns"]
    md = export.to_markdown(board)
    assert "b\\|c" in md and md.count("\n|") == 2 + 2
    with pytest.raises(ValueError, match="format"):
        export.export(board, "xlsx")


def test_json_rank_distribution_never_reads_certain_where_it_is_not(monkeypatch):
    """to_json rounded the rank distribution with a plain .round(6): a model first in all but
    one of ten million draws was written P(rank = 1) = 1.0 and P(rank = 2) = 0.0, a certainty,
    beside the rows' p_best, which the exports' one rule (round_floats) keeps below 1. The
    rank distribution now goes through the same rule; exact ones and zeros stay."""
    from scorio_core.leaderboard import Leaderboard

    board = leaderboard(np.random.default_rng(0).integers(0, 2, (3, 12, 4)), draws=500)
    names = board.table["model"].tolist()
    near = pd.DataFrame([[1 - 1e-7, 1e-7, 0.0], [1e-7, 0.6, 0.4 - 1e-7], [0.0, 0.4, 0.6]],
                        index=names, columns=[1, 2, 3])
    monkeypatch.setattr(Leaderboard, "rank_distribution", lambda self: near)
    rd = json.loads(export.to_json(board))["rank_distribution"]
    first, second, third = (rd[m] for m in names)
    assert first[0] < 1 and first[1] > 0 and first[2] == 0.0
    assert first == pytest.approx([1, 0, 0], abs=1e-6)  # still the six decimals' values
    # where no certainty is at stake, the six decimals as before (0.4 - 1e-7 is 0.4)
    assert second == [1e-7, 0.6, 0.4] and third == [0.0, 0.4, 0.6]
    # the rule is the rows' (p_best): the same cells written the same way
    from scorio_core.formatting import round_floats

    assert round_floats(pd.DataFrame({"p_best": near[1]}))["p_best"].tolist() == [
        r[0] for r in (first, second, third)]


def _csv_rows(text: str) -> pd.DataFrame:
    """The CSV's cells as written (text, empty cells as '')."""
    return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)


def test_the_plans_csv_is_the_cli_plan_csvs_table(tmp_path, capsys):
    """``Plan.to_csv`` writes the pairs table by the one CSV path of every export: a model name
    a spreadsheet would run as a formula is defused, counts are integers and floats carry the
    exports' six decimals -- the same text as ``scorio-studio plan --format csv`` prints under
    its provenance header (it was plain pandas: '-1+2' raw, 184.0, 17 digits)."""
    from scorio_core.cli import main
    from scorio_core.io import save_npz
    from scorio_core.planner import plan

    rng = np.random.default_rng(0)
    p = np.array([0.7, 0.68, 0.5])
    data = Outcomes((rng.random((3, 30, 4)) < p[:, None, None]).astype(int),
                    models=["-1+2", "b", "c"], name="formula names")
    text = plan(data).to_csv()
    cells = _csv_rows(text)
    assert len(cells) >= 1 and "'-1+2" in set(cells["better"]) | set(cells["next"])
    assert all(v.isdigit() for v in cells["trials_needed"]), cells["trials_needed"].tolist()
    assert all(len(v.split(".")[-1]) <= 6 for v in cells["gap"])
    save_npz(data, tmp_path / "runs.npz")
    assert main(["plan", str(tmp_path / "runs.npz"), "--format", "csv", "--n-max", "8",
                 "--sims", "100"]) == 0
    body = "".join(line + "\n" for line in capsys.readouterr().out.splitlines()
                   if not line.startswith("#"))
    assert body == text


def test_csv_writes_counts_as_integers_and_reads_back_the_same_numbers():
    # a twin ties its model (trials_needed_papers ∞: no number of trials separates them), the twin's
    # gap to the last model needs a finite count, the last model has none (missing)
    rng = np.random.default_rng(1)
    a = (rng.random((40, 8)) < 0.7).astype(int)
    c = (rng.random((40, 8)) < 0.5).astype(int)
    board = leaderboard(np.stack([a, a, c]), models=["a", "twin", "c"])
    need = board.table["trials_needed_papers"].to_numpy()
    assert np.isinf(need[0]) and np.isfinite(need[1]) and np.isnan(need[2])
    text = export.to_csv(board)
    cells = _csv_rows(text)
    # the count the tables print as 8 is written 8, not 8.0; ∞ stays 'inf', missing stays empty
    assert cells["trials_needed_papers"].tolist() == ["inf", str(int(need[1])), ""]
    for col in ("rank", "rank_lo", "rank_hi", "rank_chain", "rank_overlap", "rank_mu"):
        assert all(v.isdigit() for v in cells[col]), col
    # a share is not a count: p_best keeps its decimals (0.0 for a model never first)
    assert cells["p_best"].iloc[2] == "0.0" and "." in cells["p_best"].iloc[0]
    back = pd.read_csv(io.StringIO(text))
    for col in board.table.columns.drop("model"):
        np.testing.assert_allclose(back[col].to_numpy(float),
                                   board.table[col].to_numpy(float), rtol=0, atol=5e-7,
                                   err_msg=col)  # the exports' six decimals, nothing more
    assert np.isinf(back["trials_needed_papers"].iloc[0])
    assert np.isnan(back["trials_needed_papers"].iloc[2])


def test_csv_trials_needed_papers_of_the_coins_is_one_integer_format():
    # the 11 coins (two share a true mean): whole counts, ∞ for a tie, the last one empty
    board = leaderboard(_coins())
    need = board.table["trials_needed_papers"].tolist()
    cells = _csv_rows(export.to_csv(board))["trials_needed_papers"].tolist()
    assert cells == ["" if np.isnan(v) else "inf" if np.isinf(v) else f"{v:.0f}" for v in need]
    assert not any(c.endswith(".0") for c in cells)


def test_csv_frame_keeps_every_digit_a_user_computes_with():
    from scorio_core.formatting import DECIMALS_ATTR

    t = pd.DataFrame({
        "trials_needed_papers": [12.5, 3.0],  # a count by name, not whole: kept as written
        "trials": [4.0, np.nan],           # whole counts, one missing
        "mean": [29.0, 31.0],              # declared whole by its table
        "score": [1.0, 0.0],               # whole by chance below 2: a number, not a count
        "rank_change": [-1.0, np.inf],     # ∞ beside a negative: floats (no '-' cell text)
        "big_n": [2.0**60, 1.0],           # beyond exact integers: floats
    })
    t.attrs[DECIMALS_ATTR] = {"mean": 0}
    out = export.csv_frame(t).to_csv(index=False, lineterminator="\n").splitlines()
    assert out[1:] == ["12.5,4,29,1.0,-1.0,1.152921504606847e+18",
                       "3.0,,31,0.0,inf,1.0"]
    back = pd.read_csv(io.StringIO("\n".join(out)))
    np.testing.assert_array_equal(back.to_numpy(float), t.to_numpy(float))


def test_single_model_board():
    board = leaderboard(np.ones((1, 3, 2), dtype=int))
    assert board.table["rank_chain"].tolist() == [1] and "trials_needed_papers" not in board.table
    assert decision.ci_aware_ranks([0.5], [0.1]).tolist() == [1]


def test_unresolved_pairs_are_the_undecided_neighbours():
    board = leaderboard(_coins(), confidence=0.95, adjust="none")
    pairs = board.unresolved()
    idx = {m: i for i, m in enumerate(board.models)}
    names = board.table["model"].tolist()
    undecided = [(a, b) for a, b in zip(names, names[1:], strict=False)
                 if not board.decided[idx[a], idx[b]]]
    assert list(zip(pairs["better"], pairs["next"], strict=True)) == undecided and undecided
    assert (pairs["p_value"] > 0.05).all()  # per pair: undecided exactly when p > 1 - c
    assert (pairs["trials_needed_papers"] > 80).all()


def test_papers_trials_needed_reads_n_when_the_rule_is_already_met():
    # a gap far beyond the papers' threshold: the formula gives 1 trial; the column says
    # "met with today's N" instead of suggesting fewer trials than were run
    rng = np.random.default_rng(3)
    R = np.stack([rng.random((20, 4)) < 0.9, rng.random((20, 4)) < 0.1]).astype(int)
    t = leaderboard(R).table
    assert t["trials_needed_papers"].iloc[0] == 4


def test_first_line_names_the_set_whose_promise_it_states():
    """The banner said "Such a set holds the truly best model…" without naming the set:
    its promise now names the could-be-first set it is about -- the model, the models (up
    to three), their number, or all of them."""
    rng = np.random.default_rng(8)
    R = (rng.random((4, 60, 8)) < np.array([0.9, 0.6, 0.6, 0.2])[:, None, None]).astype(int)
    names = ["lead", "b", "c", "tail"]
    one = leaderboard(R, draws=1000, models=names)
    assert "Such a set" not in one.first_line()
    assert ". The could-be-first set (lead) holds the truly best model" in one.first_line()
    two = leaderboard(R[1:], draws=1000, models=names[1:], scope="population")
    assert f"The could-be-first set ({', '.join(two.could_be_first())}) holds" in \
        two.first_line()
    same = leaderboard(np.tile(R[:1], (3, 1, 1)), draws=1000)
    assert "The could-be-first set (all 3 models) holds" in same.first_line()
    # four near-tied leaders of six: named in the head, counted in the promise
    R6 = (np.random.default_rng(3).random((6, 30, 2))
          < np.array([0.7, 0.69, 0.68, 0.67, 0.4, 0.1])[:, None, None]).astype(int)
    wide = leaderboard(R6, draws=1000, scope="population")
    assert len(wide.could_be_first()) == 4
    assert "The could-be-first set (these 4 models) holds" in wide.first_line()


def test_could_be_first_compares_each_model_with_the_best_and_states_its_promise():
    rng = np.random.default_rng(8)
    # a clear leader, two near-tied runners-up, one far behind
    R = (rng.random((4, 60, 8)) < np.array([0.9, 0.6, 0.6, 0.2])[:, None, None]).astype(int)
    names = ["lead", "b", "c", "tail"]
    board = leaderboard(R, draws=1000, models=names)
    assert board.could_be_first() == ["lead"]
    assert board.first_line().startswith("First at 95%: lead — every other model is shown "
                                         "not to be the best")
    assert "at least 95% chance whatever the field" in board.first_line()
    # without the leader: the two near-tied models could each be first, the tail cannot
    sub = leaderboard(R[1:], draws=1000, models=names[1:], scope="population")
    first = sub.could_be_first()
    assert set(first) == {"b", "c"}
    assert sub.first_line().startswith("Could be first at 95%: ")
    assert "2 of 3 models" in sub.first_line()
    assert "highest mean score over the population the questions were drawn from" in \
        sub.first_line()
    # its own test: the same set under every multiplicity adjustment
    for adjust in ("none", "bh", "simultaneous"):
        other = leaderboard(R[1:], draws=1000, models=names[1:], scope="population",
                            adjust=adjust)
        assert other.could_be_first() == first
    # sharper than reading rank 1 off the rank intervals, and the line says why they differ:
    # eight models with near-tied leaders (a fixed table; the set leaves out models 3 and 4,
    # whose Holm rank intervals start at 1)
    R8 = (np.random.default_rng(19).random((8, 40, 4))
          < np.array([0.8, 0.77, 0.75, 0.7, 0.66, 0.6, 0.3, 0.25])[:, None, None]).astype(int)
    wide = leaderboard(R8, draws=4000, scope="population")
    inf = wide.inference
    assert inf.could_be_first.sum() < (inf.rank_lo == 1).sum()
    assert not (inf.could_be_first & (inf.rank_lo > 1)).any()
    # the models left out although their rank interval starts at 1 are named
    out = [m for m, r, f in zip(wide.models, inf.rank_lo == 1, inf.could_be_first, strict=True)
           if r and not f]
    assert out and f"{', '.join(out)} {'is' if len(out) == 1 else 'are'} left out although " \
        f"{'its' if len(out) == 1 else 'their'} rank interval starts at 1" in wide.first_line()
    # the rare other way round (measured in at most 0.5 % of fields: a late Holm step decides
    # a gap the one-step set does not): the line names the model. Forced here by putting a
    # model that Holm ranks below another into the set.
    below = int(np.flatnonzero(inf.rank_lo > 1)[0])
    forced = inf.could_be_first.copy()
    forced[below] = True
    wide.inference.__dict__["could_be_first"] = forced  # the cached property's slot
    line = wide.first_line()
    assert f"{wide.models[below]} also has a rank interval without rank 1" in line
    assert "each statement holds at its own confidence" in line
    assert "step-down procedure decides smaller gaps" in line
    # under a per-pair control the rank intervals decide more, and the line says why
    loose = leaderboard(R8, draws=4000, scope="population", adjust="none")
    below = int(np.flatnonzero(loose.inference.rank_lo > 1)[0])
    forced = loose.inference.could_be_first.copy()
    forced[below] = True
    loose.inference.__dict__["could_be_first"] = forced
    assert ("under none the rank intervals decide each pair at a level that does not hold "
            "for the whole field, this set does") in loose.first_line()
    # identical models: every model could be first, and the line does not speak of "others"
    same = leaderboard(np.tile(R[:1], (3, 1, 1)), draws=1000)
    assert same.first_line().startswith("Could be first at 95%: all 3 models — none is shown "
                                        "not to be the best.")
    # not identified (questions scope, N = 1): no decision, no set stated
    one = leaderboard(R[:, :, :1], draws=500, models=names)
    assert one.could_be_first() == names
    assert one.first_line().startswith("Could be first: not stated")
    # one model: its interval stands; rank 1 and p_best 1 are said to be by construction
    alone = leaderboard(R[:1], draws=500)
    assert alone.first_line() == ONE_MODEL
    assert ONE_MODEL.startswith("Could be first: one model, nothing to compare it with")
    assert "rank 1 and p_best 1 hold by construction" in ONE_MODEL
    assert ONE_MODEL in " ".join(export.export(alone, "text").split())  # wrapped in lines
    assert ONE_MODEL in alone._repr_html_()
    # every export carries it
    payload = json.loads(export.export(board, "json"))
    assert payload["could_be_first"] == {"models": ["lead"], "statement": board.first_line()}
    assert board.first_line() in export.export(board, "md")
    assert "First at 95%: lead" in export.export(board, "text")


def test_one_model_has_no_pairs_in_every_export_and_the_report():
    """With one model the exports' header said "0 of 0 pairs decided", the report's
    unresolved table "every adjacent pair is decided" and its heatmap caption "over all 0
    pairs" beside a 1 x 1 grid: there are no pairs, and every rendering says so alike."""
    from scorio_core.report import build_report, to_html, to_markdown

    R = np.random.default_rng(0).integers(0, 2, (1, 15, 4))
    alone = leaderboard(R, draws=300)
    assert alone.decided_text() == NO_PAIRS == "one model, so no pairs to decide"
    for fmt in ("text", "md"):
        out = " ".join(export.export(alone, fmt).replace("`", "").split())
        assert "0 of 0" not in out, fmt
        assert f"multiplicity control: holm; {NO_PAIRS}); rank_hi" in out, fmt
    # with two models or more, the count of the pairs the rank columns decide
    two = leaderboard(np.concatenate([np.ones((1, 15, 4), int), np.zeros((1, 15, 4), int)]),
                      draws=300)
    assert two.decided_text() == "1 of 1 pairs decided"
    assert "holm; 1 of 1 pairs decided)" in export.export(two, "md")
    four = leaderboard(_coins().R[[0, 1, 9, 10]], draws=300)  # 2 near-tied pairs, 4 decided
    d = four.decided
    assert four.decided_text() == f"{int((d | d.T).sum()) // 2} of 6 pairs decided"
    # the report: the empty unresolved table and the heatmap say why, in both renderings
    rep = build_report(Outcomes(R, models=["solo"], name="one"), ["leaderboard"])
    for page in (to_markdown(rep), to_html(rep)):
        assert f"None: {NO_PAIRS}." in page and f"Nothing to draw: {NO_PAIRS}." in page
        assert "every adjacent pair is decided" not in page and "all 0 pairs" not in page
    assert rep.sections[0].charts[1].empty == f"Nothing to draw: {NO_PAIRS}."


def test_prior_note_counts_trials_in_the_singular_at_one():
    from scorio_core.leaderboard import prior_note

    one = prior_note(leaderboard(np.ones((1, 15, 1), dtype=int)))
    assert one.startswith("With N = 1 trial per question") and "1 trials" not in one
    assert prior_note(leaderboard(np.ones((1, 15, 4), dtype=int))).startswith(
        "With N = 4 trials per question")


def _one_trial_pair() -> np.ndarray:
    """Two models, 24 questions, one trial each (16 vs 6 correct): the audit's one-trial
    upload. The papers' rule reads 'met now'; the population scope decides the pair."""
    a = np.array([1] * 16 + [0] * 8)
    b = np.array([1] * 4 + [0] * 12 + [1] * 2 + [0] * 6)
    return np.stack([a, b])[..., None]


def _met_but_open(board, N: int) -> list[str]:
    u = board.unresolved()
    met = u[u["trials_needed_papers"] <= N]
    return [f"{a} vs {b}" for a, b in zip(met["better"], met["next"], strict=True)]


def test_one_trial_met_now_beside_an_empty_t_next_says_why():
    """The CLI audit: at N = 1 (questions scope) the row read trials_needed_papers 'met now'
    beside an empty t_next and rank 1-2 for both, with only the 'not identified' note -- the papers'
    rule calling a pair the table cannot decide. The board's note (which the CLI, the
    exports and the notebook print, not only the page's caveats) says what 'met now' rests on
    there and points to no Planner trials, which cannot be planned from one trial."""
    board = leaderboard(_one_trial_pair(), models=["a", "b"])
    assert not board.identified and board.table["trials_needed_papers"].iloc[0] == 1
    assert np.isnan(board.table["t_next"].iloc[0])
    said = [n for n in board.notes if "'met now'" in n]
    assert len(said) == 1 and "a vs b" in said[0]
    assert "decides no pair at N = 1" in said[0] and "uniform prior stands in" in said[0]
    assert "trials_needed says what would" not in said[0]
    assert "decides no pair at N = 1" in " ".join(export.export(board, "text").split())


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_every_undecided_pair_reading_met_now_is_named_in_one_note(scope):
    """Binary coins (N = 1, 2, 4, 80), a weighted three-category field (N = 1, 2, 4) and the
    one-trial pair (questions scope: not identified): the note names exactly the undecided
    adjacent pairs whose papers' rule reads 'met now' (none: no note), and says what would
    decide them in this scope."""
    rng = np.random.default_rng(7)
    p = np.clip(rng.beta(0.6, 0.6, 30) + np.array([0.25, 0.2, 0.0, -0.05])[:, None], 0, 1)
    u = rng.random((4, 30, 4))
    graded = np.where(u < 0.7 * p[..., None], 2, np.where(u < p[..., None], 1, 0))
    cases = [(_coins(N=80).R[..., :n], None) for n in (1, 2, 4, 80)]
    cases += [(graded[..., :n], [0.0, 0.5, 1.0]) for n in (1, 2, 4)]
    cases += [(_one_trial_pair(), None)]
    named = 0
    for R, w in cases:
        board = leaderboard(R, w=w, scope=scope, draws=2000)
        N = R.shape[-1]
        want = _met_but_open(board, N)
        said = [n for n in board.notes if "'met now'" in n]
        if not want:
            assert not said
            continue
        named += len(want)
        assert len(said) == 1 and said[0].count(" vs ") == len(want)
        assert all(pair in said[0] for pair in want)
        if not board.identified:
            assert "decides no pair" in said[0]
        elif scope == "questions":
            assert said[0].endswith("the Planner's trials_needed says what would.")
        else:
            assert "the Planner's questions_needed" in said[0]
    # measured: the coins' 10th vs 8th model at N = 4 in both scopes, and the one-trial pair
    assert named >= (2 if scope == "questions" else 1)


def test_models_renames_and_its_length_error_points_at_the_model_picker():
    R = np.random.default_rng(2).integers(0, 2, (3, 10, 4))
    data = Outcomes(R, models=["a", "b", "c"])
    with pytest.raises(ValidationError) as caught:
        leaderboard(data, models=["a", "b"], draws=200)  # meant: rank a and b
    msg = str(caught.value)
    assert msg.startswith("expected 3 model names; got 2; models= names the models")
    assert "data.select(models=[...])" in msg and "this dataset's models: a, b, c" in msg
    picked = leaderboard(data.select(models=["a", "b"]), draws=200)  # the picker it names
    assert picked.models == ("a", "b")
    np.testing.assert_allclose(picked.score, R[:2].mean(axis=(1, 2)))
    # an array: the same hint, in array terms
    with pytest.raises(ValidationError, match=r"R\[\[i, j\]\]"):
        leaderboard(R, models=["a"], draws=200)
    assert leaderboard(R, models=["x", "y", "z"], draws=200).models == ("x", "y", "z")
    doc = leaderboard.__doc__
    assert "data.select(models=" in doc and "select with ``data.subset``" not in doc


def test_every_text_names_the_prior_mean_bayes_mu_is_pulled_to():
    """Weights 0, 0, 1: the caveat said "towards the prior mean (0.5 for a uniform binary
    prior)" while the header said 0.3333 and bayes_mu was pulled to 1/3. One function gives
    the prior's mean; bayes_mu is exactly score pulled that share of the way to it, and the
    caveat, the header and the definition's how-to-read all name it."""
    from scorio_core.definitions import LEADERBOARD
    from scorio_core.leaderboard import prior_mean, prior_note

    R = np.random.default_rng(3).integers(0, 3, (3, 20, 4))
    board = leaderboard(R, w=[0, 0, 1])
    share = board.settings["prior_weight"]
    assert share == pytest.approx(3 / 7) and prior_mean([0, 0, 1]) == pytest.approx(1 / 3)
    t = board.table
    np.testing.assert_allclose(t["bayes_mu"], (1 - share) * t["score"] + share / 3,
                               atol=1e-12)  # the pull's target is the prior's mean
    note = prior_note(board)
    assert "towards the uniform prior's mean 0.3333" in note and "0.5" not in note
    assert note in board.caveats
    assert "the uniform prior's mean 0.3333." in " ".join(export.describe(board))
    assert "0.5" not in LEADERBOARD.how_to_read.split("Bayes@N columns")[1].split(")")[0]
    assert "0.5" not in LEADERBOARD.column_help("leaderboard")["bayes_mu"]
    greedy = prior_note(leaderboard(R % 2, R0=np.ones((3, 20, 1), int)))
    assert "the uniform prior (mean 0.5) plus each question's greedy outcomes" in greedy


def test_p_best_of_no_draw_is_not_printed_as_a_certain_zero(capsys):
    """beta first in 0 of the 10,000 draws printed 0.000 while 0.0002 printed <0.001: every
    table for people (text, Markdown, the report's, a notebook's) now says <0.001, the
    rank distribution too; the CSV keeps 0; a one-model board's p_best of 1 is exact."""
    from scorio_core.display import show
    from scorio_core.formatting import format_frame

    p = np.array([0.9, 0.5, 0.1])[:, None, None]
    R = (np.random.default_rng(0).random((3, 40, 8)) < p).astype(int)
    board = leaderboard(R, models=["alpha", "beta", "gamma"])
    assert board.table["p_best"].tolist()[1:] == [0.0, 0.0]  # first in none of the draws
    row = {ln.split()[0]: ln.split() for ln in export.to_text(board).splitlines()
           if ln.startswith(("beta ", "gamma "))}
    assert row["beta"][4] == row["gamma"][4] == "<0.001"
    assert "| beta | 2 | 2 | 2 | <0.001 |" in export.to_markdown(board)
    show(board.table)  # a notebook's display, printed outside IPython
    shown = capsys.readouterr().out
    assert "<0.001" in shown and "0.000 " not in shown
    got = pd.read_csv(io.StringIO(export.to_csv(board)))
    assert got["p_best"].tolist()[1:] == [0.0, 0.0]
    rd = format_frame(board.rank_distribution())
    assert rd.loc["gamma", 1] == "<0.0001" and rd.loc["alpha", 3] == "<0.0001"
    one = leaderboard(R[:1])
    assert one.table["p_best"].tolist() == [1.0]
    assert export.to_text(one).splitlines()[-1].split()[4] == "1.000"  # by construction


def test_tables_for_people_leave_out_columns_with_no_value():
    """At N = 1 (questions scope) p_best, se, lo, hi and t_next are blank in every row: the
    text and Markdown tables leave them out and say so in one line, as the report does."""
    R = np.random.default_rng(1).integers(0, 2, (3, 30, 1))
    board = leaderboard(R)
    line = "Not shown, no value in any row: p_best, se, lo, hi, t_next."
    for text in (export.to_text(board), export.to_markdown(board)):
        header = next(ln for ln in text.splitlines() if "bayes_mu" in ln and "rank" in ln)
        assert not {"p_best", "se", "lo", "hi", "t_next"} & set(header.replace("|", " ").split())
        assert line in text
    assert "Not shown, no value in any row: p_best, lo, hi." in repr(board)  # a terminal's
    assert "p_best" in pd.read_csv(io.StringIO(export.to_csv(board))).columns  # CSV: all


#: Two models whose weighted totals are equal (an exact tie at weights 0, 0.5, 1) while their
#: per-question means (k/6) differ -- a float mean of those means put 1.1e-16 between them --
#: and a clearly weaker third model.
_TIED = ([[2, 0, 0], [2, 0, 0], [2, 0, 2], [2, 0, 1], [0, 1, 1]],
         [[2, 2, 0], [0, 2, 0], [0, 1, 0], [2, 2, 0], [1, 1, 0]],
         [[0, 0, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 0, 0]])


def _tied(order=(0, 1, 2), names=("a", "b", "c")):
    return Outcomes(np.array([_TIED[i] for i in order]), weights=[0, 0.5, 1],
                    models=[names[i] for i in order])


def test_an_exact_categorical_tie_reads_zero_on_the_board():
    """The audit: two graded models with identical mean scores showed gap <0.0001, t <0.01,
    p_value >0.9999 (float noise, 1.1e-16) in ``board.unresolved()`` while the Planner said
    "identical scores" and a binary tie printed 0.0000. The means now come from each
    model's category totals: the gap, t and p-value of an exact tie are exactly 0, 0, 1, and
    print as a binary tie does."""
    from scorio_core.formatting import format_frame

    for scope in ("questions", "population"):
        board = leaderboard(_tied(), scope=scope, draws=500)
        s = board.table.set_index("model")["score"]
        assert s["a"] == s["b"] and s["a"] != s["c"]
        assert board.table["t_next"].iloc[0] == 0.0
        pair = board.unresolved().iloc[0]
        assert (pair["gap"], pair["t"], pair["p_value"], pair["p_better"]) == (0.0, 0.0, 1.0, 0.5)
        cells = format_frame(board.unresolved()).iloc[0]
        assert (cells["gap"], cells["t"], cells["p_value"]) == ("0.0000", "0.00", "1.0000")
        assert np.isinf(pair["trials_needed_papers"])
    binary = leaderboard(np.array([[[1, 0, 0]] * 4, [[0, 0, 1]] * 4]), draws=200)
    assert format_frame(binary.unresolved())["gap"].tolist() == ["0.0000"]  # the same reading


def test_exact_ties_keep_the_datas_order_of_models_on_every_table():
    """The audit saw B above C at equal scores while C had the higher p_best; the order of
    an exact tie was float noise. The rule (``ROW_ORDER``, in the score column's legend):
    score, then bayes_mu, then the data's order of the models -- never p_best -- on the
    board, its undecided pairs and the Planner's tables."""
    from scorio_core.leaderboard import COLUMN_HELP, ROW_ORDER
    from scorio_core.planner import plan

    for order in ((0, 1, 2), (1, 0, 2)):
        data = _tied(order)
        board = leaderboard(data, draws=500)
        tied = [m for m in data.models if m != "c"]
        assert board.table["model"].tolist() == [*tied, "c"]
        assert board.unresolved()[["better", "next"]].values.tolist()[0] == tied
        said = [c for c in board.caveats if "identical scores" in c]  # the rule, where it acts
        assert len(said) == 1 and said[0].startswith(f"{tied[0]} and {tied[1]} have identical")
        assert ROW_ORDER in said[0]
        planned = plan(data, draws=300)
        assert planned.allocation["model"].tolist() == [*tied, "c"]
        assert planned.pairs[["better", "next"]].values.tolist()[0] == tied
    assert "data's order of the models" in ROW_ORDER and "not by p_best" in ROW_ORDER
    assert ROW_ORDER in COLUMN_HELP["score"]


def test_the_papers_trials_rule_has_one_name_on_board_and_pairs():
    """The audit: the board called the papers' rule ``n_needed``, the undecided pairs under it
    ``trials_needed_papers`` (the Planner's name). One name now, the same numbers; the raw
    table keeps today's N where the tables for people read "met now", as its legend says."""
    from scorio_core.formatting import RULE_MET, format_frame
    from scorio_core.leaderboard import COLUMN_HELP

    board = leaderboard(_coins(), draws=500)
    t, pairs = board.table, board.unresolved()
    assert "n_needed" not in t and "n_needed" not in COLUMN_HELP
    rule = t.set_index("model")["trials_needed_papers"]
    for _, row in pairs.iterrows():
        assert row["trials_needed_papers"] == rule[row["better"]]
    met = t["trials_needed_papers"] == 80  # N: the rule already met
    assert met.any() and set(format_frame(t)["trials_needed_papers"][met]) == {RULE_MET}
    legend = COLUMN_HELP["trials_needed_papers"]
    assert "today's N" in legend and "'met now'" in legend and "board.table" in legend
    assert "n_needed" not in repr(board) and "n_needed" not in export.to_text(board)
