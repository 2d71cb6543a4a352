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
