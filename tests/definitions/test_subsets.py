"""Subsets (issue 23, item 4): a subset is the same analysis on the subset's questions, the
per-subset table is one such analysis per attribute value, and the setting is declared once."""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
import pytest

from scorio_core import ValidationError, io
from scorio_core import params as P
from scorio_core.curves import pass_curves
from scorio_core.definitions import ANALYSES
from scorio_core.engines.questions import question_stats
from scorio_core.leaderboard import by_subset, leaderboard


@pytest.fixture(scope="module")
def jhu(data_dir):
    return io.load(data_dir / "jhu_llm_temperature.parquet")


def test_leaderboard_on_a_subset_is_the_leaderboard_of_its_questions(jhu):
    lb = ANALYSES["leaderboard"]
    r = lb.run(jhu, lb.params(subset=("source", ("medmcqa", "hellaswag")), scope="population",
                              by="source"))
    sub = jhu.subset("source", ["medmcqa", "hellaswag"])
    assert sub.M == 20
    pd.testing.assert_frame_equal(r.board.table, leaderboard(sub, scope="population").table)
    assert r.by == "source" and set(r.subsets["subset"]) == {"medmcqa", "hellaswag"}


def test_per_subset_table_is_one_leaderboard_per_value(jhu):
    lb = ANALYSES["leaderboard"]
    assert lb.run(jhu, lb.params(confidence=0.9)).subsets is None  # asked for, not default
    r = lb.run(jhu, lb.params(confidence=0.9, by="source"))
    t = r.subsets
    assert list(dict.fromkeys(t["subset"])) == jhu.attribute_values("source")
    for value in ("medmcqa", "agieval-lsat-ar"):
        want = leaderboard(jhu.subset("source", value), confidence=0.9).table
        got = t[t["subset"] == value].reset_index(drop=True)
        assert (got["questions"] == 10).all()
        pd.testing.assert_frame_equal(got[list(want.columns[:9])], want.iloc[:, :9])
    assert lb.tables(r)["by_subset"] is t
    none = lb.run(jhu, lb.params(by="none"))
    assert none.subsets is None and "by_subset" not in lb.tables(none)
    with pytest.raises(ValidationError, match="unknown question attribute 'topic'"):
        lb.run(jhu, lb.params(by="topic"))


def test_questions_and_curves_take_the_same_subset(jhu):
    s = ("source", ("arc-challenge",))
    sub = jhu.subset(*s)
    qv, cv = ANALYSES["questions"], ANALYSES["curves"]
    rq = qv.run(jhu, qv.params(subset=s, irt=False))
    pd.testing.assert_frame_equal(rq.stats.table, question_stats(sub, irt=False).table)
    rc = cv.run(jhu, cv.params(subset=s))
    pd.testing.assert_frame_equal(rc.curves.table, pass_curves(sub).table)
    assert any("whose source is arc-challenge" in c for c in cv.caveats(jhu, cv.params(subset=s),
                                                                         rc))


def test_to_code_reproduces_subset_and_per_subset_table(jhu):
    lb = ANALYSES["leaderboard"]
    p = lb.params(subset=("source", ("medmcqa", "hellaswag")), scope="population", by="source")
    r = lb.run(jhu, p)
    ns = {"data": jhu}
    exec(lb.to_code(p, "data"), ns)
    pd.testing.assert_frame_equal(ns["board"].table, r.board.table)
    pd.testing.assert_frame_equal(ns["per_subset"], r.subsets)
    ns = {"data": jhu}
    exec(lb.to_code(lb.params(by="source"), "data"), ns)
    pd.testing.assert_frame_equal(ns["per_subset"], by_subset(jhu, "source"))


def test_subset_is_declared_once_and_parses_from_the_cli():
    for cls in (P.LeaderboardParams, P.QuestionsParams, P.CurvesParams):
        default, s = P.settings_of(cls)["subset"]
        assert default is None and s.label == "Subset"
    p = argparse.ArgumentParser()
    P.add_options(p, P.LeaderboardParams)
    args = p.parse_args(["--subset", "source=medmcqa,arc-challenge", "--by", "none"])
    params = P.from_args(P.LeaderboardParams, args)
    assert params.subset == ("source", ("medmcqa", "arc-challenge")) and params.by == "none"
    with pytest.raises(SystemExit):
        p.parse_args(["--subset", "medmcqa"])
    # one string is read as --subset reads it, never letter by letter
    assert P.LeaderboardParams(subset="source=medmcqa, arc").subset == ("source",
                                                                       ("medmcqa", "arc"))
    with pytest.raises(ValidationError, match="subset expects ATTRIBUTE=VALUE"):
        P.LeaderboardParams(subset="medmcqa")


def test_unknown_subset_value_names_the_values(jhu):
    lb = ANALYSES["leaderboard"]
    with pytest.raises(ValidationError, match="has no value 'pubmed'; its values are: "):
        lb.run(jhu, lb.params(subset=("source", ("pubmed",))))


def test_curves_params_validate():
    assert P.CurvesParams(tau=0.5).kinds == ("pass", "hat", "g")
    with pytest.raises(ValidationError, match="needs tau"):
        P.CurvesParams(kinds=("g",))
    with pytest.raises(ValidationError, match="tau must be between 0 and 1"):
        P.CurvesParams(tau=1.5)
    with pytest.raises(ValidationError, match="kinds must name curves"):
        P.CurvesParams(kinds=("pass@k",))
    assert np.isclose(P.QuestionsParams(top=3.0).top, 3)


def test_subsets_below_the_calibrated_size_are_named_in_the_caveats(jhu):
    """The bundled run's 10 sources have 10 questions each: below the 15 questions the
    calibration starts at, which the caveats say (and, in the population scope, that p_best
    runs high there); without a per-subset table there is no such caveat."""
    lb = ANALYSES["leaderboard"]
    pop = lb.params(scope="population", by="source")
    text = " ".join(lb.caveats(jhu, pop, lb.run(jhu, pop)))
    assert "10 of 10 subsets have fewer than 15 questions (as few as 10)" in text
    assert "p_best runs high" in text.split("subsets have fewer")[1].split(".")[0]
    qs = lb.params(scope="questions", by="source")
    text = " ".join(lb.caveats(jhu, qs, lb.run(jhu, qs)))
    assert "fewer than 15 questions" in text and "their p_best runs high" not in text
    assert "fewer than 15 questions" not in " ".join(lb.caveats(jhu, lb.params(), lb.run(
        jhu, lb.params())))
