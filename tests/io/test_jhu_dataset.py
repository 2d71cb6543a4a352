"""The bundled real dataset data/jhu_llm_temperature.parquet (Renze & Guven 2024,
BSD-2-Clause): a lossless copy of the converter's CSV that loads as it is."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from scorio_core.cli import main
from scorio_core.io import LoadOptions, load

DATA = Path(__file__).resolve().parents[2] / "data"
PARQUET = DATA / "jhu_llm_temperature.parquet"
# the converter's CSV as shipped beside the repository (not part of it)
SHARED_CSV = Path(__file__).resolve().parents[3] / "shared" / "data" / "jhu_llm_temperature.csv"

# jhu_llm_temperature.SOURCE.md, "Mean outcome per model": all 110, greedy (T=0), sampled
PUBLISHED = {
    "gemini-1.5-pro-preview-0409": (0.797, 0.822, 0.795),
    "claude-3-opus-20240229": (0.774, 0.791, 0.772),
    "gpt-4": (0.769, 0.793, 0.767),
    "mistral-large": (0.714, 0.717, 0.713),
    "cohere-command-r-plus": (0.624, 0.632, 0.623),
    "gemini-1.0-pro": (0.604, 0.600, 0.604),
    "gpt-35-turbo": (0.583, 0.580, 0.583),
    "llama-2-70b-chat": (0.323, 0.328, 0.322),
    "llama-2-7b-chat": (0.256, 0.234, 0.258),
}
SOURCES = ["agieval-aqua-rat", "agieval-logiqa-en", "agieval-lsat-ar", "agieval-lsat-lr",
           "agieval-lsat-rc", "agieval-sat-en", "agieval-sat-math", "arc-challenge",
           "hellaswag", "medmcqa"]  # fmt: skip


def _script():
    spec = importlib.util.spec_from_file_location("make_jhu", DATA / "make_jhu_llm_temperature.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def jhu():
    return load(PARQUET)


def test_licence_and_provenance_ship_with_it():
    licence = (DATA / "jhu_llm_temperature.LICENSE").read_text()
    assert "BSD 2-Clause" in licence and "Copyright (c) 2023, Matthew Renze" in licence
    note = (DATA / "jhu_llm_temperature.SOURCE.md").read_text()
    assert "b00cfb652897e8bdc28c63234def9b490fa84cfb" in note and "arXiv:2402.05201" in note


def test_parquet_writes_back_the_converters_csv_exactly():
    mod = _script()
    assert hashlib.sha256(mod.to_csv_bytes(PARQUET)).hexdigest() == mod.CSV_SHA256


def test_loads_as_shipped_with_the_published_numbers(jhu):
    o = jhu
    assert o.shape == (9, 100, 100) and o.R0.shape == (9, 100, 10)
    assert o.metadata["trial_ids"] == list(range(11, 111))  # T=0.1..1.0; trials 1-10 are R0
    for i, m in enumerate(o.models):
        every = (o.R[i].sum() + o.R0[i].sum()) / 11_000
        got = (round(every, 3), round(o.R0[i].mean(), 3), round(o.R[i].mean(), 3))
        assert got == pytest.approx(PUBLISHED[m], abs=1e-9), m
    assert sorted(o.signals) == ["api_error", "attempt", "response_chars", "temperature"]
    # missing lengths are the API failures among the sampled completions
    miss = np.isnan(o.signals["response_chars"])
    assert int(miss.sum()) == 1279 and (o.signals["api_error"][miss] == 1).all()
    assert (o.R[miss] == 0).all()  # an API failure scores 0 (the authors' rule)
    assert o.question_attributes["source"] == tuple(s for s in SOURCES for _ in range(10))
    assert o.metadata["ignored_columns"] == ["answer"]


def test_api_failures_counted_in_the_file_agree():
    df = pl.read_parquet(PARQUET)
    assert df.height == 99_000
    sampled = df.filter(pl.col("decoding") == "sample")
    assert sampled["response_chars"].null_count() == 1279
    assert (sampled["api_error"] == 1).sum() == 1279


@pytest.mark.skipif(not SHARED_CSV.exists(), reason="the shipped CSV is not beside the repo")
@pytest.mark.parametrize(
    "opts",
    [LoadOptions(), LoadOptions(where={"temperature": ["0.0", "1.0"]},
                                model_columns=("model", "temperature"))],  # fmt: skip
    ids=["as shipped", "model x temperature"],
)
def test_bundled_copy_equals_the_shipped_csv(opts):
    a, b = load(PARQUET, opts), load(SHARED_CSV, opts)
    assert (a.models, a.questions) == (b.models, b.questions)
    np.testing.assert_array_equal(a.R, b.R)
    np.testing.assert_array_equal(a.R0 if a.R0 is not None else 0, b.R0 if b.R0 is not None else 0)
    assert a.signals.keys() == b.signals.keys()
    for k in a.signals:
        np.testing.assert_array_equal(a.signals[k], b.signals[k])
    assert a.question_attributes == b.question_attributes


def test_model_by_temperature_variants(jhu):
    o = load(PARQUET, where={"temperature": [0.0, 1.0]}, model_columns=["model", "temperature"])
    assert o.shape == (18, 100, 10) and o.R0 is None
    g = o.models.index("gpt-4@temperature=0.0")
    np.testing.assert_array_equal(o.R[g], jhu.R0[jhu.models.index("gpt-4")])


def test_cli_leaderboard_on_the_bundled_file(capsys):
    assert main(["leaderboard", str(PARQUET), "--format", "csv"]) == 0
    out = capsys.readouterr().out
    rows = [r for r in out.splitlines() if r and not r.startswith("#")]
    assert rows[0].startswith("model,rank") and len(rows) == 10
    assert rows[1].startswith("gemini-1.5-pro-preview-0409,1,")


# Sampled trials (of 10,000 per model) whose completion gave a parseable answer letter: the
# file's non-empty `answer` cells; the others had no letter to parse or no completion.
WITH_ANSWER = {
    "claude-3-opus-20240229": 9981, "cohere-command-r-plus": 9228, "gemini-1.0-pro": 9649,
    "gemini-1.5-pro-preview-0409": 9899, "gpt-35-turbo": 9764, "gpt-4": 9851,
    "llama-2-70b-chat": 5591, "llama-2-7b-chat": 6118, "mistral-large": 9795,
}  # fmt: skip


@pytest.fixture(scope="module")
def sampled():
    """The file's sampled rows, each with its place in R: trials 11..110 are R's 0..99."""
    df = pl.read_parquet(PARQUET).filter(pl.col("decoding") == "sample")
    return df.with_columns(pos=pl.col("trial").cast(pl.Int64) - 11)


def test_every_trial_has_its_own_row_in_the_sample_store(jhu, sampled):
    """One store row per (model, question, trial) of R -- also where the file has no answer
    letter -- carrying that trial's own id and answer (the store once dropped the 10,124
    trials without a letter, so the Pair view showed no trial id for them)."""
    store = jhu.samples.scan().collect()
    assert store.height == len(jhu.samples) == 90_000
    assert store.select("model", "question", "trial").n_unique() == 90_000
    got = store.join(sampled, left_on=["model", "question", "trial"],
                     right_on=["model", "question", "pos"], how="inner", suffix="_file")
    assert got.height == 90_000  # every row is a trial of R, every trial of R has one
    assert (got["trial_id"] == got["trial_file"].cast(pl.String)).all()
    assert got.select(pl.col("answer").eq_missing(pl.col("answer_file")).all()).item()
    # each row's position is the trial's position in R: its outcome is the file's
    mi = {m: i for i, m in enumerate(jhu.models)}
    qi = {q: i for i, q in enumerate(jhu.questions)}
    R = jhu.R[got["model"].replace_strict(mi).to_numpy(), got["question"].replace_strict(qi)
              .to_numpy(), got["trial"].to_numpy()]  # fmt: skip
    np.testing.assert_array_equal(R, got["outcome"].to_numpy())
    with_text = dict(store.group_by("model").agg(pl.col("answer").is_not_null().sum()).rows())
    assert with_text == WITH_ANSWER
    assert with_text == dict(  # the same count read from the file directly
        sampled.group_by("model").agg(pl.col("answer").is_not_null().sum()).rows())


def test_pair_view_shows_each_trials_own_answer_and_id(jhu, sampled):
    """Over every question and every model: the Pair view's row for trial t shows trial t's
    own file id and answer letter (none where the file has none), and the letter is the
    question's correct one exactly where R scores the trial correct."""
    import pandas as pd

    from scorio_core.engines.pair import flip_table

    key = (pl.read_parquet(PARQUET).filter(pl.col("outcome") == 1).group_by("question")
           .agg(pl.col("answer").unique()))  # fmt: skip
    assert (key["answer"].list.len() == 1).all()  # one correct letter per question
    key = {q: a[0] for q, a in key.rows()}
    want = {(m, q): (ids, answers) for m, q, ids, answers in sampled.sort("pos").group_by(
        "model", "question").agg("trial", "answer").rows()}  # fmt: skip
    L = jhu.L
    pairs = [(jhu.models[i], jhu.models[(i + 1) % L]) for i in range(0, L, 2)]  # all models
    shown: dict[str, int] = dict.fromkeys(jhu.models, 0)
    for q in jhu.questions:
        qi = jhu.questions.index(q)
        for a, b in pairs:
            f = flip_table(jhu, a, b, q)
            for tag, m in (("a", a), ("b", b)):
                if tag == "b" and m == jhu.models[0]:
                    continue  # model 0 is counted once, as the first pair's a
                ids, answers = want[(m, q)]
                got = f.trials[f"answer_{tag}"].tolist()
                tid = [None if pd.isna(x) else int(x) for x in f.trials["trial"]]
                assert tid == ids, (m, q)
                assert [x if isinstance(x, str) else None for x in got] == answers, (m, q)
                R = jhu.R[jhu.models.index(m), qi]
                for t, ans in enumerate(answers):
                    if ans is not None:
                        assert (ans == key[q]) == (R[t] == 1), (m, q, t)
                shown[m] += sum(isinstance(x, str) for x in got)
    assert shown == WITH_ANSWER
