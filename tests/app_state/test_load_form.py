"""The upload's loading options as one LoadOptions, the import report in plain numbers,
and the bundled real data's provenance -- without Streamlit."""

from __future__ import annotations

from pathlib import Path

import pytest

from app_state.datasets import PROVENANCE, licence_text, provenance, provenance_markdown
from app_state.load_form import (
    code_options,
    form_options,
    import_table,
    model_map_pairs,
    parse_range,
    parse_where,
)
from scorio_core import ValidationError, io

ROOT = Path(__file__).resolve().parents[2]


def test_blank_form_is_the_default_load_options():
    assert form_options({}) == io.LoadOptions()
    assert code_options(form_options({})) == {}


def test_where_box_reads_several_filters_and_refuses_what_it_cannot_read():
    assert parse_where("temperature = 0.0, 1.0\nsource=medmcqa;") == (
        ("temperature", ("0.0", "1.0")), ("source", ("medmcqa",)))
    assert parse_where("  ") is None
    for bad in ("temperature", "= 0.7", "temperature ="):
        with pytest.raises(ValidationError, match="expected COLUMN = VALUE"):
            parse_where(bad)


def test_score_range_box():
    assert parse_range("0, 10") == (0.0, 10.0) and parse_range("") is None
    with pytest.raises(ValidationError, match="two numbers LO, HI"):
        parse_range("0 5 10")
    with pytest.raises(ValidationError, match="LO < HI"):
        form_options({"score_range": "10, 0"})


def test_model_map_rows_skip_blank_sides_and_refuse_a_name_mapped_twice():
    rows = [{"from": "mockllm/alpha", "to": "alpha"}, {"from": "openai/alpha", "to": "alpha"},
            {"from": "x", "to": None}, ("", "")]
    assert model_map_pairs(rows) == (("mockllm/alpha", "alpha"), ("openai/alpha", "alpha"))
    assert model_map_pairs([]) is None
    with pytest.raises(ValidationError, match="'a' is mapped twice"):
        model_map_pairs([("a", "b"), ("a", "c")])


def test_model_identity_starts_with_the_mapped_model_column():
    opts = form_options({"columns": [("model", "llm")], "model_columns": ["temp", "seed"]})
    assert opts.model_columns == ("llm", "temp", "seed") and opts.column_map()["model"] == "llm"
    assert form_options({"model_columns": ["temperature"]}).model_columns == (
        "model", "temperature")


def test_the_form_reads_the_real_table_as_the_cli_options_do():
    path = ROOT / "data" / "jhu_llm_temperature.parquet"
    opts = form_options({"where": "temperature=0.7", "model_map": [("gpt-4", "GPT-4")]})
    o = io.load(path, opts)
    same = io.load(path, where={"temperature": 0.7}, model_map={"gpt-4": "GPT-4"})
    assert o.shape == same.shape == (9, 100, 10) and "GPT-4" in o.models
    assert (o.R == same.R).all()
    assert code_options(opts) == {"where": {"temperature": ("0.7",)},
                                  "model_map": {"gpt-4": "GPT-4"}}


def test_import_table_is_plain_numbers_with_the_harness_value_beside_ours():
    report = {"files": [
        {"file": "a.eval", "format": "inspect", "model": "alpha", "model_in_log": "mock/alpha",
         "benchmark": "t", "scorer": "match", "records": 1200, "missing": 0, "notes": ["n1"],
         "mean": 0.75, "harness": {"value": 0.95, "reducer": "pass_at_2"}},
        {"file": "b.eval", "format": "inspect", "model": "beta", "benchmark": "t",
         "scorer": "match", "records": 40, "missing": 2, "notes": [], "mean": 0.5},
    ]}
    t = import_table(report)
    assert t["records"].tolist() == ["1,200", "40"]
    assert t["ours (mean)"].tolist() == ["0.7500", "0.5000"]
    assert t["harness value"].tolist()[1] == "" and t["harness reducer"].tolist() == [
        "pass_at_2", ""]
    assert t["model_in_log"].tolist() == ["mock/alpha", "beta"] and t["notes"][0] == "n1"
    # no model renamed: no model_in_log column
    report["files"][0].pop("model_in_log")
    assert "model_in_log" not in import_table(report).columns


def test_bundled_real_data_carry_their_licence():
    p = provenance(ROOT / "data" / "jhu_llm_temperature.parquet")
    assert p is PROVENANCE["jhu_llm_temperature.parquet"]
    assert "BSD 2-Clause" in licence_text(p) and "Matthew Renze" in licence_text(p)
    text = provenance_markdown(p)
    assert "Renze & Guven (2024)" in text and "Findings of EMNLP 2024" in text
    assert p.licence_file in text and (ROOT / p.notes_file).is_file()
    assert provenance("data/reasoning_synthetic.npz") is None
