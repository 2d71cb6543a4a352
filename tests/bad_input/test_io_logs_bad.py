"""Malformed evaluation logs: one clear error each, naming the file and the member or line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from fixtures import make_logs as mk

from scorio_core import io
from scorio_core._validation import ValidationError, said_of
from scorio_core.cli import main
from scorio_core.cli._common import cli_text

V = np.array([[1, 0, 1], [0, 1, 1]])


def _eval(tmp_path, name="a.eval", model="a", **kw):
    return mk.write_inspect_eval(tmp_path / name, model, "t", kw.pop("values", V), [1, 2], **kw)


@pytest.mark.parametrize("compression", ["deflate", "zstd"])
def test_truncated_eval_zip(tmp_path, compression):
    path = _eval(tmp_path, compression=compression)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValidationError, match=r"^a\.eval: not a readable Inspect \.eval log "
                       r"\(corrupt or truncated zip"):
        io.load(path)


@pytest.mark.parametrize("compression", ["deflate", "zstd"])
def test_corrupt_member_names_the_member(tmp_path, compression):
    path = _eval(tmp_path, compression=compression)
    data = bytearray(path.read_bytes())
    start = data.index(b"summaries.json") + len(b"summaries.json") + 8  # inside its data
    data[start : start + 12] = b"\x00" * 12
    path.write_bytes(bytes(data))
    with pytest.raises(ValidationError, match=r"^a\.eval: member 'summaries\.json' is corrupt"):
        io.load(path)


def test_member_that_is_not_json(tmp_path):
    path = tmp_path / "a.eval"
    mk.write_zip(path, [("header.json", b'{"eval": {"task": "t", "model": "m"'),
                        ("samples/1_epoch_1.json", b"{}")], "zstd")  # fmt: skip
    with pytest.raises(ValidationError, match=r"^a\.eval: member 'header\.json' is not JSON"):
        io.load(path)


def test_sample_member_that_is_not_json(tmp_path):
    path = tmp_path / "a.eval"
    header = {"eval": {"task": "t", "model": "m", "config": {"epochs": 1}}}
    mk.write_zip(path, [("header.json", json.dumps(header).encode()),
                        ("samples/1_epoch_1.json", b"<html>")])  # fmt: skip
    with pytest.raises(ValidationError, match=r"a\.eval: member 'samples/1_epoch_1\.json' is not"):
        io.load(path)


def test_unmappable_score_type(tmp_path):
    v = np.empty((2, 3), dtype=object)
    v[:] = "C"
    v[1, 2] = {"accuracy": 1, "f1": 0.5}  # a dict-valued score
    path = _eval(tmp_path, values=v, summaries=False)
    with pytest.raises(ValidationError, match=r"^a\.eval: member 'samples/2_epoch_3\.json': score "
                       r"'match' has the value \{.*\} \(dict\): a dict of several scores; "
                       r"choose one of its keys \(accuracy, f1\), e\.g\. "
                       r"scorer='accuracy'$") as err:
        io.load(path)
    assert cli_text(said_of(err.value)).endswith(  # the command line: its flag
        "choose one of its keys (accuracy, f1), e.g. --scorer accuracy")
    v[1, 2] = "maybe"
    with pytest.raises(ValidationError, match=r"'maybe' \(str\), which cannot be mapped"):
        io.load(_eval(tmp_path, name="b.eval", values=v))


def test_two_logs_for_the_same_model_and_task(tmp_path):
    a = _eval(tmp_path, "run1.eval", model="m")
    b = _eval(tmp_path, "run2.eval", model="m", compression="zstd")
    with pytest.raises(ValidationError, match=r"run2\.eval: two logs for the same model 'm' and "
                       r"task 't': \S*run1\.eval \(finished\) and \S*run2\.eval"):
        io.load(tmp_path)
    assert main(["leaderboard", str(a), str(b)]) == 2


def test_epochs_that_differ_between_models(tmp_path):
    _eval(tmp_path, "a.eval", model="a")
    _eval(tmp_path, "b.eval", model="b", values=V[:, :2])
    with pytest.raises(ValidationError, match=r"b\.eval: member 'header\.json' \(eval\.config\."
                       r"epochs = 2\): the models have different trials \(epochs\) on 't': 'a' "
                       r"in .*a\.eval has 1\.\.3 \(3\), 'b' in .*b\.eval has 1, 2 \(2\)"):
        io.load(tmp_path)
    o = io.load(tmp_path, on_missing="truncate")
    assert o.shape == (2, 2, 2) and o.metadata["truncated_to_N"] == 2


def test_not_an_inspect_zip_and_bad_header(tmp_path):
    path = tmp_path / "a.eval"
    mk.write_zip(path, [("readme.txt", b"hi")])
    with pytest.raises(ValidationError, match=r"a\.eval: not an Inspect \.eval log: no member "
                       r"'header\.json' or '_journal/start\.json' \(members: readme\.txt\)"):
        io.load(path)
    mk.write_zip(path, [("header.json", b'{"eval": {"task": "t"}}')])
    with pytest.raises(ValidationError, match=r"member 'header\.json': eval\.model is missing"):
        io.load(path)


def test_bad_lm_eval_openai_and_helm_files(tmp_path):
    p = mk.write_lm_eval(tmp_path / "lm", "m", "task", V, [0, 1])
    p.write_text(p.read_text() + "{broken\n")
    with pytest.raises(ValidationError, match=r"samples_task_.*\.jsonl: line 3 is not JSON"):
        io.load(p)
    q = mk.write_openai_evals(tmp_path / "o.jsonl", "m", "arith", V, [1, 2])
    lines = q.read_text().splitlines()
    bad = json.loads(lines[2])
    del bad["data"]["correct"]
    lines[2] = json.dumps(bad)
    q.write_text("\n".join(lines))
    with pytest.raises(ValidationError, match=r"o\.jsonl: line 3: the match event has no data"):
        io.load(q)
    h = mk.write_helm(tmp_path / "helm", "m", "arith", V, [1, 2])
    (h.parent / "run_spec.json").unlink()
    with pytest.raises(ValidationError, match=r"per_instance_stats\.json: no run_spec\.json next"):
        io.load(h)


def test_unknown_json_is_refused_when_named_and_skipped_in_a_directory(tmp_path):
    (tmp_path / "x.json").write_text('{"hello": 1}')
    with pytest.raises(ValidationError, match=r"x\.json: a JSON file that is neither"):
        io.load(tmp_path / "x.json")
    _eval(tmp_path)
    o = io.load(tmp_path)
    assert o.metadata["import_report"]["skipped_files"] == [f"{tmp_path.name}/x.json"]


def test_a_run_description_alone_points_to_the_outcomes(tmp_path):
    mk.write_lm_eval(tmp_path, "m", "task", V, [0, 1])
    results = next(tmp_path.rglob("results_*.json"))
    with pytest.raises(ValidationError, match=r"results_.*\.json: this file only describes a run"):
        io.load(results)
    assert io.load(results.parent).shape == (1, 2, 3)


def test_errored_samples_message_recommends_only_what_keeps_data(tmp_path):
    """Every epoch of question 2 errored for model a: truncating cannot keep a trial for
    (a, 2), so only drop_questions is recommended -- and it works."""
    v = np.array([[1, 0], [1, 1], [0, 1]])
    a = mk.write_inspect_eval(tmp_path / "a.eval", "a", "t", v, [1, 2, 3],
                              errored={(2, 1), (2, 2)})  # fmt: skip
    b = mk.write_inspect_eval(tmp_path / "b.eval", "b", "t", v, [1, 2, 3])
    with pytest.raises(ValidationError, match=r"Re-run them or pass on_missing='drop_questions'"
                       r"\.$"):  # fmt: skip
        io.load([a, b])
    assert io.load([a, b], on_missing="drop_questions").questions == ("1", "3")
    with pytest.raises(ValidationError, match="cannot keep any trial"):
        io.load([a, b], on_missing="truncate")
