"""Evaluation-harness logs (Inspect AI, lm-eval, OpenAI evals, HELM) load into the same
outcomes as the equivalent long table, through the core and the CLI."""

from __future__ import annotations

import io as _io
import json
import zipfile

import numpy as np
import pandas as pd
import pytest
from fixtures import make_logs as mk

from scorio_core import io
from scorio_core._validation import ValidationError
from scorio_core.cli import main
from scorio_core.leaderboard import leaderboard
from scorio_core.outcomes import check_name

MODELS = ["openai/gpt-x", "anthropic/c-y", "m-z", "local/llama"]
IDS = list(range(1, 7))
FORMATS = ["eval_deflate", "eval_zstd", "json", "lm_eval", "openai", "helm"]


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    rng = np.random.default_rng(11)
    # distinct per-model accuracies so that the ranks are not all tied
    p = np.array([0.85, 0.55, 0.35, 0.15])[:, None, None]
    R = (rng.random((len(MODELS), len(IDS), 4)) < p).astype(int)
    out = tmp_path_factory.mktemp("logs")
    dirs = mk.write_all(out, R, MODELS, IDS)
    return R, out, dirs


def board(o) -> pd.DataFrame:
    return leaderboard(o).table.set_index("model").sort_index()


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_gives_the_long_table_leaderboard(logs, fmt):
    R, out, dirs = logs
    ref = io.load(out / "long.csv")
    o = io.load(dirs[fmt], model_prefix="keep")  # the table's names, provider prefixes too
    assert o.shape == ref.shape == R.shape
    assert sorted(o.models) == sorted(MODELS)
    got, want = board(o), board(ref)
    np.testing.assert_allclose(got["score"], want["score"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got["se"], want["se"], rtol=0, atol=1e-12)
    assert got["rank"].tolist() == want["rank"].tolist()
    assert got["rank_mu"].tolist() == want["rank_mu"].tolist()
    # the same tensor, model by model (question order is the order of first appearance)
    for m, model in enumerate(MODELS):
        np.testing.assert_array_equal(np.sort(o.R[o.models.index(model)].sum(1)),
                                      np.sort(R[m].sum(1)))  # fmt: skip
    rep = o.metadata["import_report"]
    assert rep["n_files"] == len(MODELS) and rep["missing_samples"] == 0


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_leaderboard_on_a_directory_matches_the_csv(logs, fmt, capsys):
    _, out, dirs = logs
    assert main(["leaderboard", str(dirs[fmt]), "--format", "json", "--model-prefix", "keep"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert main(["leaderboard", str(out / "long.csv"), "--format", "json"]) == 0
    want = json.loads(capsys.readouterr().out)
    key = next(k for k in got if isinstance(got[k], list))
    g = {r["model"]: r for r in got[key]}
    w = {r["model"]: r for r in want[key]}
    assert g.keys() == w.keys()
    for m in g:
        assert g[m]["score"] == pytest.approx(w[m]["score"], abs=1e-9)
        assert g[m]["se"] == pytest.approx(w[m]["se"], abs=1e-9)
        assert g[m]["rank"] == w[m]["rank"]


def test_inspect_epochs_are_kept_as_trial_ids(logs):
    _, _, dirs = logs
    o = io.load(dirs["eval_zstd"])
    assert o.metadata["trial_ids"] == [1, 2, 3, 4]
    assert io.to_long_frame(o)["trial"].unique().sort().to_list() == [1, 2, 3, 4]
    assert o.benchmarks == ("arith",) * len(IDS)
    assert o.questions == tuple(str(i) for i in IDS)


def test_table_trial_ids_are_kept(tmp_path):
    csv = b"model,question,trial,outcome\na,q,10,1\na,q,30,0\nb,q,30,1\nb,q,10,1\n"
    o = io.load(csv, filename="t.csv")
    assert o.metadata["trial_ids"] == [10, 30]
    assert o.R.tolist() == [[[1, 0]], [[1, 1]]]
    assert io.to_long_frame(o)["trial"].to_list() == [10, 30, 10, 30]
    io.save_table(o, tmp_path / "t.csv")
    assert io.load(tmp_path / "t.csv").metadata["trial_ids"] == [10, 30]
    ragged = b"model,question,trial,outcome\na,q,1,1\na,q,2,0\nb,q,5,1\nb,q,6,1\n"
    assert io.load(ragged, filename="r.csv").metadata["trial_ids_per_pair"] == [[[1, 2]], [[5, 6]]]


def test_unfinished_run_and_no_summaries_read_the_sample_members(tmp_path):
    rng = np.random.default_rng(3)
    v = rng.integers(0, 2, (4, 3))
    a = mk.write_inspect_eval(tmp_path / "a.eval", "m", "t", v, [1, 2, 3, 4], finished=False,
                              compression="zstd")  # fmt: skip
    b = mk.write_inspect_eval(tmp_path / "b.eval", "m", "t", v, [1, 2, 3, 4], summaries=False)
    oa, ob = io.load(a), io.load(b)
    np.testing.assert_array_equal(oa.R[0], v)
    np.testing.assert_array_equal(ob.R[0], v)
    assert any("unfinished run" in n for n in oa.metadata["import_report"]["notes"])


def test_categorical_letters_get_default_weights(tmp_path):
    v = np.array([["C", "P", "I"], ["N", "C", "C"]], dtype=object)
    o = io.load(mk.write_inspect_eval(tmp_path / "x.eval", "m", "t", v, ["a", "b"]))
    assert o.category_names == ("N (no answer)", "I (incorrect)", "P (partial)", "C (correct)")
    np.testing.assert_array_equal(o.weights, [0, 0, 0.5, 1])
    assert o.R[0].tolist() == [[3, 2, 1], [0, 3, 3]]
    # the same outcomes as a long table with the same weights give the same Bayes@N
    csv = mk.write_long_csv(tmp_path / "x.csv", ["m"], ["a", "b"], o.R)
    ref = io.load(csv, weights=[0, 0, 0.5, 1])
    assert board(o)["score"].tolist() == pytest.approx(board(ref)["score"].tolist(), abs=1e-12)


def test_booleans_and_fractions(tmp_path):
    bools = np.array([[True, False], [True, True]], dtype=object)
    o = io.load(mk.write_inspect_json(tmp_path / "b.json", "m", "t", bools, [1, 2]))
    assert o.is_binary and o.R[0].tolist() == [[1, 0], [1, 1]]
    frac = np.array([[0.25, 1.0], [0.0, 0.5]], dtype=object)
    o = io.load(mk.write_inspect_json(tmp_path / "f.json", "m", "t", frac, [1, 2]))
    assert o.category_names == ("0", "0.25", "0.5", "1")
    np.testing.assert_array_equal(o.weights, [0, 0.25, 0.5, 1])
    assert board(o)["score"].iloc[0] == pytest.approx(
        leaderboard(o.R, w=[0, 0.25, 0.5, 1]).table["score"].iloc[0]
    )


def test_several_scorers_default_to_the_first_with_a_note(tmp_path):
    v = np.array([[1, 0], [1, 1]])
    path = mk.write_inspect_eval(tmp_path / "s.eval", "m", "t", v, [1, 2], extra_scorer=True)
    o = io.load(path)
    assert o.R[0].tolist() == v.tolist()
    rep = o.metadata["import_report"]
    assert rep["files"][0]["scorer"] == "match"
    assert any("2 scorers (match, judge)" in n for n in rep["notes"])
    judged = io.load(path, scorer="judge")
    assert judged.category_names == ("0", "0.5", "1") and (judged.R == 1).all()
    with pytest.raises(ValidationError, match=r"s\.eval: no scorer 'nope'; .*'match', 'judge'"):
        io.load(path, scorer="nope")


def test_errored_samples_are_missing_cells_and_counted(tmp_path):
    v = np.array([[1, 0], [1, 1], [0, 0]])
    err = {(2, 2)}
    a = mk.write_inspect_eval(tmp_path / "a.eval", "a", "t", v, [1, 2, 3], errored=err)
    b = mk.write_inspect_eval(tmp_path / "b.eval", "b", "t", v, [1, 2, 3])
    with pytest.raises(ValidationError, match=r"a\.eval: .*a\.eval: member 'summaries.json' "
                       r"item \d: errored: RuntimeError: model timed out"):  # fmt: skip
        io.load([a, b])
    o = io.load([a, b], on_missing="drop_questions")
    assert o.questions == ("1", "3")
    assert o.metadata["import_report"]["missing_samples"] == 1
    assert o.metadata["dropped_questions"] == ["2"]


def test_lm_eval_repeats_use_the_harness_metric_and_rescore_only_without_it(tmp_path):
    """With repeats, lm-eval's stored per-document value (its filter's answer) is the
    outcome; only a document without a value is re-scored, and the report says so."""
    v = np.array([[1, 0, 1], [0, 0, 1]])
    mk.write_lm_eval(tmp_path / "r", "org/m", "gsm", v, [0, 1], mode="resps")
    o = io.load(tmp_path / "r")
    assert o.models == ("m",) and o.R[0].tolist() == v[:, :1].tolist()  # the first response's
    notes = " ".join(o.metadata["import_report"]["notes"])
    assert "repeats=3" in notes and "re-scored" not in notes
    path = next((tmp_path / "r").rglob("samples_*.jsonl"))
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for r in rows:  # no metric value, every response kept by the filter
        del r["exact_match"]
        r["filtered_resps"] = r["resps"]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    o = io.load(tmp_path / "r")
    assert o.R[0].tolist() == v.tolist()
    assert any("re-scored here by exact match" in n for n in o.metadata["import_report"]["notes"])
    assert o.metadata["import_report"]["files"][0]["scorer"] == "exact_match (re-scored)"
    mk.write_lm_eval(tmp_path / "s", "org/m", "gsm", v, [0, 1], mode="single")
    assert io.load(tmp_path / "s").R[0].tolist() == [[1], [0]]


def test_helm_skips_perturbed_instances_and_reads_the_model(logs):
    R, _, dirs = logs
    o = io.load(dirs["helm"])
    m = o.models.index("m-z")
    np.testing.assert_array_equal(o.R[m], R[MODELS.index("m-z")])
    assert o.benchmarks[0] == "arith:subject=algebra"


def test_zip_of_logs_and_upload_mapping(logs):
    R, _, dirs = logs
    buf = _io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for p in sorted(dirs["eval_zstd"].glob("*.eval")):
            zf.write(p, f"run/{p.name}")
        zf.writestr("run/notes.txt", "ignored")
    o = io.load(buf.getvalue(), filename="logs.zip")
    assert o.shape == R.shape
    uploads = {p.name: p.read_bytes() for p in sorted(dirs["json"].glob("*.json"))}
    assert io.load(uploads).shape == R.shape


def test_mixing_logs_and_a_table_on_the_same_questions(tmp_path):
    v = np.array([[1, 0], [1, 1]])
    a = mk.write_inspect_eval(tmp_path / "a.eval", "a", "arith", v, [1, 2])
    csv = mk.write_long_csv(tmp_path / "b.csv", ["b"], [1, 2], np.array([[[0, 0], [1, 0]]]),
                            first_trial=1, benchmark="arith")  # fmt: skip
    o = io.load([a, csv])
    assert o.models == ("a", "b") and o.R.tolist() == [[[1, 0], [1, 1]], [[0, 0], [1, 0]]]
    other = mk.write_long_csv(tmp_path / "c.csv", ["c"], [7, 8], np.zeros((1, 2, 2), int),
                              first_trial=1, benchmark="arith")  # fmt: skip
    with pytest.raises(ValidationError, match="cells are missing"):
        io.load([a, other])


def test_cli_import_writes_parquet_and_npz(logs, tmp_path, capsys):
    R, _, dirs = logs
    for out in (tmp_path / "x.parquet", tmp_path / "x.npz"):
        assert main(["import", str(dirs["eval_deflate"]), str(dirs["eval_zstd"]), "--out",
                     str(out)]) == 2  # same model and task twice  # fmt: skip
        assert "(model, task) pairs with more than one log: model" in capsys.readouterr().err
        assert main(["import", str(dirs["eval_zstd"]), "--out", str(out)]) == 0
        assert "wrote" in capsys.readouterr().err
        back = io.load(out)
        assert back.shape == R.shape
        assert back.metadata["trial_ids"] == [1, 2, 3, 4]
        np.testing.assert_allclose(board(back)["score"], board(io.load(dirs["eval_zstd"]))["score"])


def test_cli_several_paths(logs, capsys):
    _, _, dirs = logs
    files = sorted(str(p) for p in dirs["openai"].glob("*.jsonl"))
    assert main(["info", *files]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["models (L)"] == len(MODELS) and info["import_report"]["n_files"] == len(MODELS)


def test_differential_inspect_ai_reader(logs):
    """The optional reference reader sees the same scores (skipped without inspect-ai)."""
    log_mod = pytest.importorskip("inspect_ai.log")
    R, _, dirs = logs
    for fmt in ("eval_deflate", "eval_zstd", "json"):
        ours = io.load(dirs[fmt], model_prefix="keep")  # the logs' own names
        for path in sorted(dirs[fmt].iterdir()):
            log = log_mod.read_eval_log(str(path))
            m = ours.models.index(log.eval.model)
            for s in log.samples:
                q = ours.questions.index(str(s.id))
                want = {"C": 1, "I": 0}[s.scores["match"].value]
                assert ours.R[m, q, s.epoch - 1] == want


def test_lm_eval_several_filters_and_metrics(tmp_path):
    """Rows of a second filter (e.g. ``strict-match``) are a benchmark of their own (or a
    choice), not extra trials."""
    v = np.array([[1, 0], [0, 1]])
    path = mk.write_lm_eval(tmp_path, "m", "gsm", v, [0, 1])
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    extra = []
    for r in rows:
        r["metrics"] = ["exact_match", "acc"]
        r["acc"] = [1.0, 1.0]
        strict = dict(r, filter="strict-match", exact_match=[0.0, 0.0])
        extra.append(strict)
    path.write_text("\n".join(json.dumps(r) for r in rows + extra) + "\n")
    o = io.load(path.parent)
    assert o.benchmark_names == ["gsm/none", "gsm/strict-match"]
    assert o.select("gsm/none").R[0].tolist() == v.tolist()
    assert (o.select("gsm/strict-match").R == 0).all()
    notes = " ".join(o.metadata["import_report"]["notes"])
    assert "2 filters (none, strict-match)" in notes and "2 metrics (exact_match, acc)" in notes
    one = io.load(path.parent, scorer="strict-match/exact_match")
    assert (one.R == 0).all() and one.benchmark_names == ["gsm"]
    assert (io.load(path.parent, scorer="acc").R == 1).all()
    assert io.load(path.parent, benchmark="gsm/none").R[0].tolist() == v.tolist()


def test_differential_inspect_ai_unfinished_categorical_and_errored(tmp_path):
    """Unfinished runs, P/N letters and errored samples as the reference reader sees them."""
    log_mod = pytest.importorskip("inspect_ai.log")
    letters = np.array([["C", "P"], ["N", "I"], ["C", "C"]], dtype=object)
    files = [
        mk.write_inspect_eval(tmp_path / "u.eval", "u", "t", letters, [1, 2, 3], finished=False,
                              compression="zstd"),
        mk.write_inspect_eval(tmp_path / "e.eval", "e", "t", letters, [1, 2, 3],
                              errored={(2, 2)}),
    ]  # fmt: skip
    for path in files:
        ours = io.load(path, on_missing="drop_questions")
        names = [c.split()[0] for c in ours.category_names]
        log = log_mod.read_eval_log(str(path))
        errored = [s for s in log.samples if s.error]
        assert ours.metadata["import_report"]["missing_samples"] == len(errored)
        for s in log.samples:
            if str(s.id) in ours.questions:
                q = ours.questions.index(str(s.id))
                assert names[ours.R[0, q, s.epoch - 1]] == s.scores["match"].value


def test_combined_import_report_lists_every_file(tmp_path):
    v = np.array([[1, 0], [1, 1]])
    a = mk.write_inspect_eval(tmp_path / "a.eval", "a", "arith", v, [1, 2])
    csv = mk.write_long_csv(tmp_path / "b.csv", ["b"], [1, 2], np.ones((1, 2, 2), int),
                            first_trial=1, benchmark="arith")  # fmt: skip
    rep = io.load([a, csv]).metadata["import_report"]
    assert [(f["file"], f["format"], f["model"]) for f in rep["files"]] == [
        ("a.eval", "inspect", "a"), ("b.csv", "csv", "b")
    ]
    assert rep["n_files"] == 2 and rep["missing_samples"] == 0


def test_a_model_path_ending_in_a_slash_keeps_its_last_name():
    """lm-eval's pretrained=/ckpts/run1/ (shell completion adds the slash) became the empty
    model name ''; the last path part is the name."""
    from scorio_core.io._logs import LogPart, rename_models
    from scorio_core.io.options import LoadOptions

    parts = [LogPart("a.jsonl", "lm_eval", "/ckpts/run1/", "t"),
             LogPart("b.jsonl", "lm_eval", "org/run2", "t")]
    assert rename_models(parts, LoadOptions()) == {"/ckpts/run1/": "run1", "org/run2": "run2"}


def test_log_question_ids_a_table_cannot_show_are_read_as_stand_ins(tmp_path):
    """Audit 2026-11-30: Inspect allows ids such as '@home', '<b>x</b>', 'a\\tb' or 300
    characters, and a log cannot be renamed, so refusing them lost the run. They load as
    stand-ins (same on every model, texts kept), with the originals in the metadata."""
    ids = ["@home", "<b>x</b>", "a\tb", "x" * 300, "=SUM(A1)", "plain"]
    R = np.array([[1, 0, 1, 1, 0, 1], [0, 0, 1, 0, 1, 1]])[..., None].repeat(2, axis=2)
    for m, model in enumerate(("alpha", "beta")):
        mk.write_inspect_eval(tmp_path / f"{model}.eval", f"mockllm/{model}", "arith", R[m], ids)
    o = io.load(tmp_path)
    back = o.metadata["question_ids"]
    assert sorted(back.values()) == sorted(i for i in ids if i != "plain")
    assert "plain" in o.questions and len(set(o.questions)) == 6
    for q in o.questions:  # every id is now a name any export can show
        assert check_name(q, "question id") == q
    shown = {v: k for k, v in back.items()}
    assert shown["@home"].startswith("id @home ~") and shown["<b>x</b>"].startswith("‹b›x‹/b› ~")
    # the same outcomes as under the original ids
    i = o.questions.index(shown["a\tb"])
    assert o.R[:, i].tolist() == R[:, 2].tolist()


def test_harness_metadata_become_subsets_only_when_they_group_the_questions(tmp_path):
    """Sample metadata are context about the question: never refused, never signals. A
    field is a subset of a task when it has one value per question, groups the questions
    (one value for all, or at most half as many values as questions with at most a quarter
    of them alone in their value: both bounds met exactly here are kept), holds valid names
    and does not mix numbers into text (a table of it could not be read back). The others
    are named, with why, in one note."""
    ids = list(range(1, 9))
    meta = {  # per question 1..8
        "subject": "aabbaabb", "const": "cccccccc",
        "pairs": "ppqqrrss",  # 4 values over 8: 2 per value, kept
        "five": "vwxyzvwx",  # 5 values over 8: left out
        "two_alone": "xxxxxxyz",  # 3 values, 2 of 8 alone (a quarter): kept
        "three_alone": "xxxxxyzw",  # 4 values, 3 of 8 alone: left out
        "few_numbers": "aabb11ab",  # a quarter numbers: text, kept
        "grade": "12n12n12",  # numbers with 'n': left out
    }
    for m, model in enumerate(("alpha", "beta")):
        path = mk.write_inspect_json(tmp_path / f"{model}.json", f"mockllm/{model}", "arith",
                                     np.array([[(q + m) % 2, 1] for q in ids]), ids)
        log = json.loads(path.read_text())
        for s in log["samples"]:
            q = s["id"]
            s["metadata"] = {k: v[q - 1] for k, v in meta.items()} | {
                "by_epoch": f"e{s['epoch']}" if q == 1 else "e",
                "tag": "<b>" if q == 2 else "t"}
        path.write_text(json.dumps(log))
    o = io.load(tmp_path)
    assert o.question_attributes == {k: tuple(meta[k]) for k in (
        "subject", "const", "pairs", "two_alone", "few_numbers")}
    assert o.signals == {} and "ignored_columns" not in o.metadata
    notes = [n for n in o.metadata["import_report"]["notes"] if "question attributes" in n]
    assert notes == [
        "not read as question attributes (subsets), kept in each sample's metadata only: "
        "sample metadata field 'five': 5 different values over 8 questions, per-question "
        "content rather than a grouping; sample metadata field 'three_alone': 3 of its 8 "
        "questions have a value of their own, per-question content rather than a grouping; "
        "sample metadata field 'grade': numbers mixed with text ('n' beside 2 numeric "
        "values); sample metadata field 'by_epoch': differs between the trials or models "
        "of 1 question; sample metadata field 'tag': value '<b>' contains '<' or '>'"]
    # named with attributes=, a field is the user's choice under the strict checks
    forced = io.load(tmp_path, attributes=("five",))
    assert forced.question_attributes["five"] == tuple(meta["five"])
    with pytest.raises(ValidationError, match="'by_epoch' must hold one value per question"):
        io.load(tmp_path, attributes=("by_epoch",))


def test_a_metadata_field_is_a_subset_of_the_tasks_it_groups_only(tmp_path):
    """Two tasks over the same ids: ``topic`` groups the questions of ``logic`` and is
    each question's own text in ``arith``; it is a subset of ``logic`` alone (``arith``'s
    questions have no value), and the note says where each field was left out."""
    ids = list(range(1, 7))
    fields = {"arith": {"topic": "uvwxyz", "uid": "abcdef"},
              "logic": {"topic": "ppqqpp", "uid": "ghijkl"}}
    for task, meta in fields.items():
        for m, model in enumerate(("alpha", "beta")):
            path = mk.write_inspect_json(tmp_path / f"{task}_{model}.json", f"mockllm/{model}",
                                         task, np.array([[(q + m) % 2] for q in ids]), ids)
            log = json.loads(path.read_text())
            for s in log["samples"]:
                s["metadata"] = {k: v[s["id"] - 1] for k, v in meta.items()}
            path.write_text(json.dumps(log))
    o = io.load(tmp_path)
    assert o.benchmark_names == ["arith", "logic"]
    topic = dict(zip(o.questions, o.question_attributes["topic"], strict=True))
    assert topic == {f"arith/{q}": "" for q in ids} | {f"logic/{q}": "ppqqpp"[q - 1]
                                                        for q in ids}
    assert set(o.question_attributes) == {"topic"}
    assert [n for n in o.metadata["import_report"]["notes"] if "question attributes" in n] == [
        "not read as question attributes (subsets), kept in each sample's metadata only: "
        "sample metadata field 'topic' (arith): a different value on every question; "
        "sample metadata field 'uid' (every task): a different value on every question"]
    logic = o.select("logic")
    assert logic.question_attributes == {"topic": tuple("ppqqpp")}
    assert logic.subset("topic", "q").questions == ("logic/3", "logic/4")
