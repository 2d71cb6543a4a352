"""Logs written by the harnesses themselves (inspect-ai 0.3.285, lm_eval 0.4.13; see
``tests/fixtures/harness/generate.py``) load into what each harness itself reads from
them: the same models, questions, trials and mean, compared with the harness's own
reading stored beside each fixture (``reading.json``). The harnesses are not needed; the
last tests re-read the fixtures with the live harness when it is installed."""

from __future__ import annotations

import json
import re
import shutil
from io import BytesIO
from pathlib import Path

import numpy as np
import pytest
from fixtures.helm_runs import ANNOTATIONS, MEDIA_OUTPUTS, THINKING
from fixtures.helm_runs import annotated_run as _annotated_run
from fixtures.helm_runs import helm_run as _helm_run
from fixtures.helm_runs import multimodal_outputs as _multimodal_outputs

from scorio_core import io
from scorio_core._validation import ValidationError, said_of
from scorio_core.cli import main
from scorio_core.cli._common import cli_text
from scorio_core.eval import pass_at_k
from scorio_core.io import MissingCellsError

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "harness"
INSPECT = HERE / "inspect"
LM_EVAL = HERE / "lm_eval"
LETTER = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}


def reading(d: Path) -> dict:
    return json.loads((d / "reading.json").read_text())


def short(model: str) -> str:
    return model.rsplit("/", 1)[-1]


def weights_of(o) -> np.ndarray:
    """Each cell's score (its category's weight): shape (L, M, N)."""
    return np.asarray(o.weights)[o.R]


def json_logs() -> list[Path]:
    return sorted(p for p in (INSPECT / "json_log").glob("*.json") if p.name != "reading.json")


def value(v) -> float:
    return LETTER[v] if isinstance(v, str) else float(v)


def check_against_inspect(o, logs: list[dict], scorer: str | None = None, scale: float = 1.0):
    """Every (model, question, epoch) cell equals the harness's sample score, and each
    model's mean equals Inspect's headline metric (mean reducer)."""
    assert sorted(o.models) == sorted(short(log["model"]) for log in logs)
    for log in logs:
        m = o.models.index(short(log["model"]))
        ids = sorted({str(s["id"]) for s in log["samples"]})
        assert sorted(q.rsplit("/", 1)[-1] for q in o.questions) == ids
        assert o.N == log["epochs"]
        w = weights_of(o)[m] * scale
        for s in log["samples"]:
            q = next(i for i, x in enumerate(o.questions) if x.rsplit("/", 1)[-1] == str(s["id"]))
            got = next(iter(s["scores"].values()))  # one scorer per log here
            if isinstance(got, dict):  # a dict-valued score: the key is the scorer
                got = got[scorer]
            assert w[q, s["epoch"] - 1] == pytest.approx(value(got))
        head = next(sc for sc in log["scores"] if sc["name"] == (scorer or sc["name"]))
        assert w.mean() == pytest.approx(next(iter(head["metrics"].values())), abs=1e-12)


# --------------------------------------------------------------------------- Inspect
@pytest.mark.parametrize("name", ["epochs", "json_log", "reasoning"])
def test_inspect_ordinary_logs_agree_with_inspect(name):
    d = INSPECT / name
    o = io.load(d)
    check_against_inspect(o, reading(d)["logs"])
    rep = o.metadata["import_report"]
    assert rep["model_names"] == {"mockllm/alpha": "alpha", "mockllm/beta": "beta"}
    for f in rep["files"]:
        assert f["mean"] == pytest.approx(f["harness"]["value"], abs=1e-6)


def test_inspect_errored_samples_scored_anyway_count():
    d = INSPECT / "errored"
    logs = reading(d)["logs"]
    assert sum(s["error"] for log in logs for s in log["samples"]) == 4  # as written
    o = io.load(d)
    check_against_inspect(o, logs)  # the errored samples are counted, with their scores
    rep = o.metadata["import_report"]
    assert rep["missing_samples"] == 0
    assert any("samples errored but were scored anyway (score_on_error)" in n
               for n in rep["notes"])


def test_errored_samples_are_counted_in_every_log_that_has_them(tmp_path):
    """Two logs written by Inspect (mockllm) with 2 samples each that errored but were
    scored: the import report's note counts both logs -- it names each file, 2 in each --
    where it had read "2 samples errored" once for 4; a note of the whole load (the
    provider prefixes) stays one line. Beside a log without errors, the note names its
    own file only; a load of one log says it without a file."""
    d = INSPECT / "errored"
    per_log = {log["file"]: sum(s["error"] for s in log["samples"])
               for log in reading(d)["logs"]}
    assert sorted(per_log.values()) == [2, 2]  # as Inspect wrote them
    rep = io.load(d).metadata["import_report"]
    said = [n for n in rep["notes"] if "errored but were scored anyway" in n]
    assert len(said) == 1, rep["notes"]
    head, count = re.fullmatch(r"each of 2 files \((.+)\): (\d+) samples errored but were "
                               r"scored anyway \(score_on_error\).*", said[0]).groups()
    assert sorted(Path(f).name for f in head.split(", ")) == sorted(per_log)
    assert int(count) * len(per_log) == sum(per_log.values()) == 4
    assert [n for n in rep["notes"] if "provider prefix" in n] == [
        "model names without their provider prefix (mockllm/alpha -> alpha, mockllm/beta -> "
        "beta); model_prefix='keep' keeps them"]
    for f in rep["files"]:  # and each file's row its own count
        assert f"{per_log[Path(f['file']).name]} samples errored but were scored" in " ".join(
            f["notes"])
    # one errored log beside a log of the same task without errors (eval_set's arith)
    def log_of(d: Path, model: str, task: str = "arith") -> Path:
        return d / next(x["file"] for x in reading(d)["logs"]
                        if (x["model"], x["task"]) == (model, task))

    errored, clean = log_of(d, "mockllm/alpha"), log_of(INSPECT / "eval_set", "mockllm/beta")
    for p in (errored, clean):
        shutil.copy(p, tmp_path)
    mixed = io.load(tmp_path).metadata["import_report"]
    assert [n.split(": 2 samples")[0] for n in mixed["notes"] if "errored but" in n] == [
        f"{tmp_path.name}/{errored.name}"]
    alone = io.load(errored).metadata["import_report"]["notes"]
    assert [n for n in alone if "errored but" in n][0].startswith("2 samples errored but")


def test_inspect_failed_run_is_refused_saying_how_it_ended(tmp_path):
    # a run whose model API could not be reached: Inspect ends it with status 'error' and
    # every sample errored, none scored. It had been refused as "no scorer found; expected
    # at least one", which names nothing the user can act on.
    d = INSPECT / "failed"
    logs = {log["model"]: log for log in reading(d)["logs"]}
    down, up = logs["mockllm/down"], logs["mockllm/up"]
    assert down["status"] == "error" and up["status"] == "success"  # Inspect's own reading
    assert all(s["error"] and not s["scores"] for s in down["samples"])
    n = len(down["samples"])
    with pytest.raises(ValidationError) as err:
        io.load(d)
    text = str(err.value)
    assert down["file"] in text and "nothing in this log was scored" in text
    assert f"run status 'error'; {n} of {n} samples errored" in text
    assert "inspect eval-retry" in text and "leave the file out" in text
    assert "ConnectionError" in text and "api.example.com" in text
    assert "no scorer found" not in text
    shutil.copy(d / up["file"], tmp_path / up["file"])  # the run that finished reads alone
    check_against_inspect(io.load(tmp_path), [up])


def test_inspect_dict_scores_expose_each_key_as_a_scorer(capsys):
    d = INSPECT / "dict_scores"
    logs = reading(d)["logs"]
    for key in ("exact", "near"):
        check_against_inspect(io.load(d, scorer=key), logs, scorer=key)
    o = io.load(d)  # default: the first key, noted
    assert any("2 scorers (exact, near)" in n for n in o.metadata["import_report"]["notes"])
    assert main(["info", str(d), "--scorer", "near"]) == 0
    files = json.loads(capsys.readouterr().out)["import_report"]["files"]
    assert {f["scorer"] for f in files} == {"near"}
    assert io.load(d, scorer="two_way/near").R.tolist() == io.load(d, scorer="near").R.tolist()
    with pytest.raises(ValidationError, match=r"no scorer 'nope'; this log has 'exact', 'near'"):
        io.load(d, scorer="nope")


def test_inspect_grades_need_their_scale_never_a_guess():
    d = INSPECT / "graded"
    with pytest.raises(ValidationError, match=r"outside \[0, 1\]: a numeric grade needs its "
                       r"scale.*give it, e.g. score_range=\[0, 10\] for a 0-10 grade") as err:
        io.load(d)
    cli = cli_text(said_of(err.value))  # the command line names its flags, as typed
    assert "give it, e.g. --score-range 0,10 for a 0-10 grade" in cli
    assert cli.endswith("one weight per category with --weights") and "=[" not in cli
    # what it recommends works on the same data
    o = io.load(d, score_range=(0, 10))
    check_against_inspect(o, reading(d)["logs"], scale=10.0)
    for row in o.metadata["import_report"]["files"]:  # Inspect's mean grade, on our scale
        v = row["harness"]["value"]
        assert v == pytest.approx(10 * row["mean"], abs=1e-5)
        assert any(n.endswith(f"is on the scores' scale 0..10; ours (mean) weights each score "
                              f"(score - 0) / (10 - 0), on which it is {v / 10:.6g}")
                   for n in row["notes"])
    assert str(err.value).endswith("one weight per category with weights=")
    cats = io.load(d, weights=[k / 10 for k in range(11)])
    assert cats.C == 10 and cats.category_names[7] == "7"
    np.testing.assert_allclose(weights_of(cats), weights_of(o))
    with pytest.raises(ValidationError, match=r"outside the score range \[0, 5\]"):
        io.load(d, score_range=(0, 5))


def test_inspect_reducer_is_reported_beside_our_numbers():
    d = INSPECT / "reducer"
    logs = reading(d)["logs"]
    o = io.load(d)
    for log in logs:
        m = o.models.index(short(log["model"]))
        assert o.N == log["epochs"] == 4
        head = log["scores"][0]
        assert head["reducer"] == "pass_at_2"
        inspect_value = head["metrics"]["accuracy"]
        # Inspect's per-question pass_at_2 is the unbiased pass@2 of the 4 epochs: ours
        assert float(pass_at_k(o.R[m], 2)) == pytest.approx(inspect_value, abs=1e-12)
        reduced = log["reductions"]["pseudo_match"]["values"]
        per_q = [1 - (o.R[m, q] == 0).sum() * ((o.R[m, q] == 0).sum() - 1) / 12
                 for q in range(o.M)]  # fmt: skip
        assert per_q == pytest.approx([reduced[q] for q in o.questions])
        row = next(f for f in o.metadata["import_report"]["files"]
                   if f["model"] == short(log["model"]))  # fmt: skip
        assert row["harness"]["reducer"] == "pass_at_2"
        assert row["harness"]["value"] == pytest.approx(inspect_value)
        assert row["mean"] == pytest.approx(weights_of(o)[m].mean())
        assert any("'pass_at_2'" in n for n in row["notes"])
        assert "avg@N" in o.metadata["import_report"]["mean_meaning"]
    assert any(r["mean"] != pytest.approx(r["harness"]["value"])
               for r in o.metadata["import_report"]["files"])  # the two numbers differ here



def test_the_import_report_sets_ours_as_the_log_scores_it_beside_the_harness_and_as_loaded(
        capsys):
    """The import report's "ours (mean)" was read after correct_from / round_grades had
    changed the graded scores but before correct= mapped the categories: with
    correct_from=0.75 Inspect's own mean 0.833333 sat beside ours 0.666667, with correct=['1']
    ours 0.833333 beside a leaderboard that read 0.666667 -- neither the harness's number nor
    the board's. Now "ours (mean)" scores each record as the log does, so it equals the
    harness's mean reducer whatever the options, and where an option changed the outcomes
    "ours (as loaded)" beside it is the mean the leaderboard shows; the report says which is
    which, naming the options as each surface does."""
    from scorio_core.leaderboard import leaderboard

    d = INSPECT / "task_args"  # grades 0, 0.5, 1; Inspect's mean reducer per task variant
    plain = io.load(d).metadata["import_report"]
    assert all(f["mean"] == pytest.approx(f["harness"]["value"], abs=1e-6)
               for f in plain["files"])
    assert not any("mean_loaded" in f for f in plain["files"])
    assert io.LOADED_COLUMN not in io.import_table(plain)  # nothing changed them: one mean
    for given, flag in (({"correct_from": 0.75}, "--correct-from 0.75"),
                        ({"correct": ["1"]}, "--correct 1"),
                        ({"round_grades": 2}, "--round-grades 2")):
        o = io.load(d, **given)
        rep = o.metadata["import_report"]
        table = io.import_table(rep)
        assert len(table) == len(rep["files"]) == 4
        for f, row in zip(rep["files"], table.itertuples(index=False), strict=True):
            # ours as the log scores it: the harness's own number, options or not
            assert f["mean"] == pytest.approx(f["harness"]["value"], abs=1e-6), given
            view = o.select(f["benchmark"])
            board = leaderboard(view).table.set_index("model")
            i = view.models.index(f["model"])
            assert f["mean_loaded"] == pytest.approx(weights_of(view)[i].mean(), abs=1e-6)
            assert f["mean_loaded"] == pytest.approx(board.loc[f["model"], "score"], abs=1e-6)
            assert row[list(table.columns).index(io.LOADED_COLUMN)] == f["mean_loaded"]
        assert any(abs(f["mean_loaded"] - f["mean"]) > 0.05 for f in rep["files"]), given
        meaning = rep["mean_meaning"]
        assert "as the log scores it" in meaning and "avg@N the leaderboard shows" in meaning
        assert f"after {next(iter(given))}=" in meaning, meaning
        assert flag in cli_text(meaning) and "=" not in cli_text(meaning).split("mean_loaded")[1]
        # the report's sentence names the columns as its table does
        from scorio_core.report._build import how_read

        said = " ".join(how_read(o).sentences)
        assert "ours (mean): our average score" in said and "ours (as loaded): the same" in said
    # the command line's JSON: the keys' meaning with its flags
    assert main(["info", str(d), "--correct-from", "0.75"]) == 0
    rep = json.loads(capsys.readouterr().out)["import_report"]
    assert "--correct-from 0.75 changed the outcomes" in rep["mean_meaning"]
    assert [f["mean"] for f in rep["files"]] == [f["harness"]["value"] for f in rep["files"]]
    # a scale of its own: ours (mean) is the harness's 1..5 mean on 0..1, as its note says
    likert = io.load(OPENAI_EVALS / "modelgraded_likert", correct_from=3)
    for f in likert.metadata["import_report"]["files"]:
        on_ours = (f["harness"]["value"] - 1) / 4
        assert f["mean"] == pytest.approx(on_ours, abs=1e-6)
        assert any(n.endswith(f"on which it is {on_ours:.6g}") for n in f["notes"])

def test_inspect_log_without_samples_reads_the_reductions():
    d = INSPECT / "nosamples"
    logs = reading(d)["logs"]
    assert all(not log["samples"] for log in logs)
    o = io.load(d)
    assert o.N == 1
    for log in logs:
        m = o.models.index(short(log["model"]))
        red = log["reductions"]["pseudo_match"]["values"]
        assert weights_of(o)[m, :, 0].tolist() == [red[q] for q in o.questions]
        assert weights_of(o)[m].mean() == pytest.approx(log["scores"][0]["metrics"]["accuracy"])
    notes = " ".join(o.metadata["import_report"]["notes"])
    assert "log_samples=False" in notes and "'mean'" in notes


def test_inspect_eval_set_with_tasks_of_different_epochs():
    d = INSPECT / "eval_set"
    logs = reading(d)["logs"]
    o = io.load(d)  # used to fail: "10 of 54 ... cells are missing"
    assert o.benchmark_names == ["arith", "logic"]
    assert o.describe()["trials per benchmark"] == {"arith": 2, "logic": 3}
    assert o.N == 2 and any("the combined view keeps the first 2" in n
                            for n in o.metadata["import_report"]["notes"])  # fmt: skip
    for task in ("arith", "logic"):
        mine = [log for log in logs if log["task"] == task]
        check_against_inspect(o.select(task), mine)
        check_against_inspect(io.load(d, benchmark=task), mine)  # chosen before assembly
    # a table keeps every trial of every benchmark and reads back the same parts
    frame = io.to_long_frame(o)
    again = io.load(frame)
    assert again.describe()["trials per benchmark"] == {"arith": 2, "logic": 3}
    assert again.select("logic").R.tolist() == o.select("logic").R.tolist()
    with pytest.raises(ValidationError, match=r"different trials per question .*\.parquet"):
        io.save_npz(o, Path("/dev/null"))


def test_cli_benchmark_on_a_folder_of_tasks_with_different_epochs(capsys):
    d = INSPECT / "eval_set"
    assert main(["leaderboard", str(d), "--benchmark", "logic", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = next(v for v in out.values() if isinstance(v, list))
    want = {short(log["model"]): log["scores"][0]["metrics"]["accuracy"]
            for log in reading(d)["logs"] if log["task"] == "logic"}  # fmt: skip
    assert {r["model"] for r in rows} == set(want)
    assert main(["info", str(d), "--benchmark", "logic"]) == 0
    assert json.loads(capsys.readouterr().out)["trials (N)"] == 3
    assert main(["info", str(d), "--benchmark", "nope"]) == 2
    assert "unknown benchmark 'nope'; these logs hold the benchmarks (tasks): arith, logic" in (
        capsys.readouterr().err
    )


def test_drop_questions_on_a_multi_task_folder_keeps_every_task():
    d = INSPECT / "eval_set"
    o = io.load(d, on_missing="drop_questions")
    assert o.benchmark_names == ["arith", "logic"]
    assert o.M == 9 and o.select("logic").N == 3


# --------------------------------------------------------------------------- lm-eval
def test_lm_eval_multi_task_folder_agrees_with_lm_eval():
    d = LM_EVAL / "multi"
    ref = reading(d)["models"]
    o = io.load(d)
    assert sorted(o.models) == sorted(ref)
    assert o.benchmark_names == ["qa_one", "qa_rep", "qa_vote/maj@5", "qa_vote/score-first"]
    assert o.N == 1
    for model, r in ref.items():
        m = o.models.index(model)
        for bench in o.benchmark_names:
            task, _, filt = bench.partition("/")
            filt = filt or "none"
            sub = o.select(bench)
            assert sub.M == r["n-samples"][task]["effective"] == 6
            want = r["results"][task][f"exact_match,{filt}"]
            assert weights_of(sub)[m].mean() == pytest.approx(want, abs=1e-12), (model, bench)
    rep = o.metadata["import_report"]
    for f in rep["files"]:
        assert f["mean"] == pytest.approx(f["harness"]["value"], abs=1e-6)
    notes = " ".join(rep["notes"])
    assert "repeats=3" in notes and "'maj@5' (regex -> majority_vote -> take_first)" in notes
    assert "re-scored" not in notes


def test_lm_eval_exact_match_options_are_the_tasks():
    """lm-eval's value, not a plain string comparison of the responses: 'BLUE.' matches
    'blue' under ignore_case + ignore_punctuation (the 0.5-vs-0.1 bug of the issue)."""
    d = LM_EVAL / "multi"
    rows = [json.loads(x) for x in next(d.glob("alpha/samples_qa_rep_*.jsonl")).open()]
    opts = {"ignore_case": True, "ignore_punctuation": True}
    from scorio_core.io.lm_eval import exact_match

    for r in rows:
        assert float(exact_match(r["filtered_resps"][0], r["target"], opts)) == r["exact_match"]
    assert any(r["exact_match"] == 1.0 and r["filtered_resps"][0] != r["target"] for r in rows)


def test_lm_eval_filter_and_task_choice(capsys):
    d = LM_EVAL / "multi"
    one = io.load(d, scorer="maj@5/exact_match", benchmark="qa_vote")
    assert one.benchmark_names == ["qa_vote"] and one.M == 6
    ref = reading(d)["models"]
    for model in ref:
        assert weights_of(one)[one.models.index(model)].mean() == pytest.approx(
            ref[model]["results"]["qa_vote"]["exact_match,maj@5"]
        )
    assert main(["info", str(d), "--benchmark", "qa_rep"]) == 0
    assert json.loads(capsys.readouterr().out)["questions (M)"] == 6


def test_a_samples_file_read_once_per_filter_is_listed_once():
    """qa_vote has two filters (maj@5, score-first): lm-eval's samples file is read as one
    part per filter, yet the provenance names each file once, in read order, and the
    import report counts it once (it listed each qa_vote file twice)."""
    from scorio_core.definitions.provenance import provenance
    from scorio_core.report import build_report, to_html

    d = LM_EVAL / "multi"
    o = io.load(d)
    rep = o.metadata["import_report"]
    votes = [f["file"] for f in rep["files"] if f["benchmark"].startswith("qa_vote/")]
    assert len(votes) == 4 and len(set(votes)) == 2  # a row per filter: the case at hand
    files = provenance(o)["input"]["file"]
    samples = sorted(d.glob("*/samples_*.jsonl"))  # read in the folder's sorted order
    assert files == [f"multi/{p.parent.name}/{p.name}" for p in samples]
    assert rep["n_files"] == len(samples) == 6
    assert "6 files read" in to_html(build_report(o, ["leaderboard"]))

    beta, alpha = (next(d.glob(f"{m}/samples_qa_vote_*.jsonl")) for m in ("beta", "alpha"))
    both = io.load([beta, alpha])  # named by the caller: in the caller's order
    assert provenance(both)["input"]["file"] == [beta.name, alpha.name]
    assert both.metadata["import_report"]["n_files"] == 2
    one = io.load(alpha)  # one file, two filters: the file, not a list of it
    assert provenance(one)["input"]["file"] == alpha.name
    assert one.benchmark_names == ["qa_vote/maj@5", "qa_vote/score-first"]


def test_lm_eval_limit_is_reported():
    d = LM_EVAL / "limited"
    r = reading(d)
    o = io.load(d)
    assert o.M == r["n-samples"]["qa_one"]["effective"] == 4
    assert weights_of(o).mean() == pytest.approx(r["results"]["qa_one"]["exact_match,none"])
    assert any("evaluated 4 of the task's 6 documents" in n
               for n in o.metadata["import_report"]["notes"])  # fmt: skip


def test_lm_eval_predict_only_cannot_be_scored():
    with pytest.raises(ValidationError, match=r"no metric: cannot score\. lm-eval wrote this "
                       r"log with --predict_only"):  # fmt: skip
        io.load(LM_EVAL / "predict_only")


def test_lm_eval_samples_file_named_alone_keeps_its_model(tmp_path):
    path = next((LM_EVAL / "multi").glob("alpha/samples_qa_rep_*.jsonl"))
    o = io.load(path)
    assert o.models == ("alpha",)
    assert not any("directory name" in n for n in o.metadata["import_report"].get("notes", []))
    alone = tmp_path / "my-model" / path.name
    alone.parent.mkdir()
    shutil.copy(path, alone)
    o = io.load(alone)  # no results json: the folder's name, said so
    assert o.models == ("my-model",)
    assert any("model name from the directory name" in n
               for n in o.metadata["import_report"]["notes"])  # fmt: skip


# ----------------------------------------------------------------- model identity
def test_model_map_joins_one_model_across_harnesses(tmp_path):
    """An Inspect log and a table name the same model differently: a mapping file makes
    them one model; the prefix rule keeps names distinct or keeps them all."""
    d = INSPECT / "epochs"
    table = tmp_path / "other.csv"
    table.write_text("model,question,trial,outcome,benchmark\n" + "".join(
        f"{m},{q + 1},{t},{(q + t) % 2},extra\n" for m in ("the-alpha", "beta") for q in range(3)
        for t in range(3)))  # fmt: skip
    mapping = tmp_path / "names.json"
    mapping.write_text(json.dumps({"the-alpha": "alpha"}))
    o = io.load([d, table], model_map=str(mapping))
    assert sorted(o.models) == ["alpha", "beta"]
    assert o.benchmark_names == ["arith", "extra"]
    assert o.M == 8 and "extra/1" in o.questions and "arith/1" in o.questions
    csv_map = tmp_path / "names.csv"
    csv_map.write_text("from,to\nmockllm/alpha,the-alpha\nmockllm/beta,beta\n")
    code = main(["info", str(d), "--model-map", str(csv_map)])
    assert code == 0
    keep = io.load(d, model_prefix="keep")
    assert sorted(keep.models) == ["mockllm/alpha", "mockllm/beta"]


def test_provider_prefix_kept_when_stripping_would_merge_models(tmp_path):
    src = json_logs()[0]
    log = json.loads(src.read_text())
    for name, model in (("a.json", "mockllm/alpha"), ("b.json", "openai/alpha")):
        log["eval"]["model"] = model
        (tmp_path / name).write_text(json.dumps(log))
    o = io.load(tmp_path)
    assert sorted(o.models) == ["mockllm/alpha", "openai/alpha"]
    assert any("kept the provider prefixes" in n for n in o.metadata["import_report"]["notes"])
    with pytest.raises(ValidationError, match=r"two logs for the same model 'alpha' \(named "
                       r"mockllm/alpha and openai/alpha in the logs"):  # fmt: skip
        io.load(tmp_path, model_map={"mockllm/alpha": "alpha", "openai/alpha": "alpha"})


# ------------------------------------------------------------- messages and report
def test_messages_never_recommend_what_fails_on_the_same_data(tmp_path):
    """drop_questions that would drop every question does not recommend itself."""
    rows = ["model,question,trial,outcome"]
    rows += [f"A,q{q},{t},1" for q in range(3) for t in range(2)]
    rows += [f"B,q{q},0,1" for q in range(3)]  # B has one trial everywhere
    path = tmp_path / "t.csv"
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(MissingCellsError) as err:
        io.load(path, on_missing="drop_questions")
    msg = str(err.value)
    assert "would drop all 3 questions" in msg
    assert "on_missing='drop_questions'" not in msg.split("would drop all")[1]
    assert "'truncate'" in msg
    assert io.load(path, on_missing="truncate").N == 1  # and what it recommends works


def test_import_prints_plain_numbers(tmp_path, capsys):
    d = INSPECT / "graded"
    out = tmp_path / "g.csv"
    assert main(["import", str(d), "--score-range", "0,10", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "np.float64" not in err and "[0, 0.2, 0.3" in err
    assert "(2 models × 5 questions × 1 trial)" in err
    single = json_logs()[0]
    assert main(["import", str(single), "--out", str(tmp_path / "one.npz")]) == 0
    assert "(1 model × 3 questions × 1 trial)" in capsys.readouterr().err


# ------------------------------------------------- the stored readings are the harness's
def test_stored_inspect_readings_are_inspects_own():
    log_mod = pytest.importorskip("inspect_ai.log")
    for d in sorted(p for p in INSPECT.iterdir() if p.is_dir()):
        for log in reading(d)["logs"]:
            live = log_mod.read_eval_log(str(d / log["file"]))
            assert live.eval.model == log["model"] and live.eval.config.epochs == log["epochs"]
            assert [(s.id, s.epoch) for s in live.samples or []] == [
                (s["id"], s["epoch"]) for s in log["samples"]
            ]
            if d.name != "reasoning":
                continue
            for s, want in zip(live.samples, log["texts"], strict=True):  # output's blocks
                content = s.output.message.content
                assert [(c.reasoning, c.summary, c.redacted) for c in content
                        if not isinstance(content, str) and c.type == "reasoning"] == [
                    (b["reasoning"], b["summary"], b["redacted"]) for b in want["reasoning"]
                ]
                assert (s.id, s.epoch, s.output.completion) == (
                    want["id"], want["epoch"], want["output"])


def test_stored_lm_eval_readings_match_the_results_files():
    for d in (LM_EVAL / "multi", LM_EVAL / "doc_fields", LM_EVAL / "thinking"):
        for model, r in reading(d)["models"].items():
            res = json.loads(next(d.glob(f"{model}/results_*.json")).read_text())
            assert res["results"] == r["results"] and res["n-samples"] == r["n-samples"]


# ------------------------------------------------------------- a second upload
def test_second_upload_of_the_same_results_asks_instead_of_merging(tmp_path):
    """The issue's case: the same results as a CSV and as the harness's logs (named with
    the provider prefix) must not become twice as many models."""
    from scorio_core.io.upload import apply_upload, check_upload

    d = INSPECT / "epochs"
    csv = tmp_path / "same.csv"
    io.save_table(io.load(d), csv)  # the CSV names the models 'alpha', 'beta'
    current = io.load(csv)
    chk = check_upload(current, d, model_prefix="keep")  # 'mockllm/alpha', 'mockllm/beta'
    assert set(chk.near_duplicates) == {("alpha", "mockllm/alpha"), ("beta", "mockllm/beta")}
    assert chk.duplicate_cells == 2 * 5 and chk.conflict  # the same cells under other names
    assert chk.choices == ("replace", "add_benchmark", "cancel")
    assert "2 model names of the new files look like current ones" in chk.message
    with pytest.raises(ValidationError, match="choice must be one of"):
        apply_upload(chk, "add")  # merging is not offered
    assert apply_upload(chk, "cancel") is current
    assert apply_upload(chk, "replace") is chk.new
    both = apply_upload(chk, "add_benchmark", benchmark="again")
    assert sorted(both.models) == ["alpha", "beta"] and both.L == 2
    assert both.benchmark_names == ["arith", "again"] and both.M == 10
    np.testing.assert_array_equal(both.select("again").R, both.select("arith").R)
    same = check_upload(current, d)  # default names: the very same cells
    assert same.duplicate_cells == 2 * 5 and same.same_models == ("beta", "alpha")
    other = tmp_path / "gamma.csv"
    other.write_text("model,question,trial,outcome\n" + "".join(
        f"gamma,{q},{t},1\n" for q in range(1, 6) for t in range(3)))  # fmt: skip
    chk = check_upload(current, other)
    assert not chk.conflict and chk.choices[0] == "add"
    assert sorted(apply_upload(chk, "add").models) == ["alpha", "beta", "gamma"]


def test_parts_are_dropped_when_the_combined_data_is_replaced():
    """A rubric (or any replace) that changes R must not leave stale per-benchmark parts
    behind for select() to return."""
    import dataclasses

    o = io.load(INSPECT / "eval_set")
    assert o.parts is not None
    flipped = dataclasses.replace(o, R=1 - o.R)  # same weights, other outcomes
    assert flipped.parts is None
    assert flipped.select("logic").N == 2  # the combined view's questions, no stale part
    assert dataclasses.replace(o, name="x").parts is not None
    assert o.with_weights([0, 0.5]).select("logic").weights.tolist() == [0, 0.5]


def test_logs_of_different_questions_under_the_same_ids_are_refused():
    """Audit 2026-11-30: two models' logs of one task run on different datasets (ids 1..6
    reused) were paired question by question without a word. Each log alone loads; together
    they are refused with both questions shown. The same documents with other few-shot
    prompts are the same questions and load."""
    inspect_dir = INSPECT / "drift"
    for f in sorted(inspect_dir.glob("*.eval")):
        assert io.load(f).shape == (1, 6, 2)
    with pytest.raises(ValidationError, match=r"question '1' of task 'arith' is not the same "
                       r"question as in .*'What is 1 \+ 1\?'.*'What is 1 \* 17\?'"):
        io.load(inspect_dir)
    with pytest.raises(ValidationError, match="task 'mc_a' is not the same question"):
        io.load(LM_EVAL / "drift")
    assert io.load(LM_EVAL / "fewshot").shape == (2, 12, 1)


def test_unscored_samples_are_missing_cells_as_inspect_leaves_them_out():
    d = INSPECT / "unscored"
    with pytest.raises(ValidationError, match="unscored by 'model_graded_qa', which Inspect "
                       "leaves out of its metrics"):
        io.load(d)
    o = io.load(d, on_missing="drop_questions")
    assert o.shape == (2, 7, 2)
    for log in reading(d)["logs"]:  # Inspect's accuracy over the samples it scored
        acc = next(s["metrics"]["accuracy"] for s in log["scores"])
        model = log["model"].split("/")[-1]
        i = o.models.index(model)
        assert float(np.mean(o.weights[o.R[i]])) == pytest.approx(acc, abs=1e-9)


def test_a_stray_jsonl_beside_logs_is_skipped_not_read_as_a_table(tmp_path):
    d = tmp_path / "out"
    shutil.copytree(LM_EVAL / "multi", d)
    (d / "finetune_data.jsonl").write_text('{"prompt": "hi", "completion": "there"}\n')
    o = io.load(d)
    assert o.shape == io.load(LM_EVAL / "multi").shape
    assert any(f.endswith("finetune_data.jsonl")
               for f in o.metadata["import_report"]["skipped_files"])
    with pytest.raises(ValidationError, match="expected columns"):  # named alone: a table
        io.load(d / "finetune_data.jsonl")


def test_repeats_kept_by_the_filter_are_trials_not_a_partial_credit():
    """lm-eval with repeats and no take_first writes each document's exact_match as the
    share of its responses that match (0.75): read as one graded trial before (a false note
    said one answer was scored); now one binary trial per response, same mean."""
    d = LM_EVAL / "repeats_kept"
    o = io.load(d)
    assert o.is_binary and o.N == 4 and o.shape == (2, 9, 4)
    for i, m in enumerate(o.models):
        res = json.loads(next((d / m).glob("results_*.json")).read_text())["results"]
        value = next(v for k, v in res["gen_nofirst"].items() if k.startswith("exact_match,"))
        assert float(o.R[i].mean()) == pytest.approx(value, abs=1e-9)
    notes = " ".join(o.metadata["import_report"].get("notes", []))
    assert "share of its 4 filtered responses" in notes and "not scored" not in notes


def test_one_task_with_other_arguments_is_another_benchmark():
    """arith(level=1) and arith(level=2) were refused as re-runs of one task ('keep the
    latest run' would have thrown half the data away)."""
    d = INSPECT / "task_args"
    o = io.load(d)
    assert sorted(o.benchmark_names) == ["arith[level=1]", "arith[level=2]"]
    assert o.shape == (2, 12, 2)
    one = io.load(d, benchmark="arith[level=2]")
    assert one.shape == (2, 6, 2) and one.R.tolist() == o.select("arith[level=2]").R.tolist()
    # each benchmark's rows are that argument set's logs, read alone
    for log in reading(d)["logs"]:
        alone = io.load(d / log["file"])
        level = json.loads(zipfile_header(d / log["file"]))["eval"]["task_args"]["level"]
        sub = o.select(f"arith[level={level}]")
        row = sub.R[sub.models.index(alone.models[0])]
        assert float(sub.weights[row].mean()) == pytest.approx(
            float(alone.weights[alone.R[0]].mean()), abs=1e-12)


def zipfile_header(path: Path) -> bytes:
    """An ``.eval`` log's ``header.json`` (its members may be zstd: our reader)."""
    from scorio_core.io._base import _Src, open_zip, read_member

    src = _Src(path.name, path=path)
    with open_zip(src, "Inspect .eval log") as zf:
        return read_member(zf, "header.json", src.label, 10**8)


def test_a_limited_run_is_named_in_the_missing_cells_refusal():
    d = LM_EVAL / "limit_one"
    with pytest.raises(ValidationError, match=r"beta on mc_a: lm-eval evaluated 6 of the "
                       r"task's 12 documents"):
        io.load(d)
    assert io.load(d, on_missing="drop_questions").shape == (2, 6, 1)


def test_a_rerun_beside_an_unfinished_run_says_which_did_not_finish(tmp_path):
    from fixtures import make_logs as mk

    R = np.array([[1, 0, 1], [0, 1, 1]])
    mk.write_inspect_eval(tmp_path / "a.eval", "mockllm/alpha", "arith", R, ["1", "2"])
    mk.write_inspect_eval(tmp_path / "b.eval", "mockllm/alpha", "arith", R, ["1", "2"],
                          finished=False)
    with pytest.raises(ValidationError, match=r"a.eval \(finished\) and .*b.eval \(unfinished "
                       r"run.*the one that did not finish is probably the one to drop"):
        io.load(tmp_path)


def test_a_task_with_several_filters_is_flagged_where_it_counts_twice():
    from scorio_core.definitions._base import common_caveats

    o = io.load(LM_EVAL / "multi")
    said = [c for c in common_caveats(o) if "once per filter" in c]
    assert len(said) == 1 and "'qa_vote'" in said[0] and "count 2 times" in said[0]
    assert not [c for c in common_caveats(o.select("qa_vote/maj@5")) if "once per filter" in c]


# ------------------------------------------- several reducers, killed runs, mixed folders
def _reduction(log: dict, reducer: str) -> dict:
    return next(r for r in log["reductions_all"] if r["reducer"] == reducer)["values"]


def test_with_several_reducers_the_mean_headline_is_shown_and_the_others_named():
    d = INSPECT / "two_reducers"  # Epochs(4, ["pass_at_2", "mean"])
    o = io.load(d)
    for log in reading(d)["logs"]:
        m = o.models.index(short(log["model"]))
        heads = {sc["reducer"]: sc["metrics"]["accuracy"] for sc in log["scores"]}
        assert set(heads) == {"pass_at_2", "mean"}
        row = next(f for f in o.metadata["import_report"]["files"]
                   if f["model"] == short(log["model"]))  # fmt: skip
        # the mean reducer's headline is the one our mean reproduces (was: the first, pass@2)
        assert row["harness"]["reducer"] == "mean"
        assert row["harness"]["value"] == pytest.approx(heads["mean"], abs=1e-12)
        assert row["mean"] == pytest.approx(heads["mean"], abs=1e-6)
        assert row["harness"]["other_reducers"] == {"pass_at_2": pytest.approx(heads["pass_at_2"])}
        # the note's promise: the leaderboard's Pass@2 is Inspect's pass_at_2 headline
        assert float(pass_at_k(o.R[m], 2)) == pytest.approx(heads["pass_at_2"], abs=1e-12)
        note = next(n for n in row["notes"] if "'pass_at_2'" in n)
        assert "also reduces" in note and "Pass@2 column (ks=[2]) is the same" in note
        # the command line names the flag the leaderboard takes (it read "--ks 2", no flag)
        assert "Pass@2 column (--k 2) is the same" in cli_text(note) and "ks" not in cli_text(
            note).split("'accuracy'")[1]


def test_the_reducers_note_names_the_pass_at_k_flag_that_gives_its_column(capsys):
    """The note on Inspect's pass_at_2 reducer told the command line "--ks 2", a flag the
    leaderboard does not have (it takes --k). It names the leaderboard's setting as each
    surface gives it, and the flag it names adds the Pass@2 column."""
    d = INSPECT / "two_reducers"
    assert main(["info", str(d)]) == 0
    notes = json.loads(capsys.readouterr().out)["import_report"]["notes"]
    (note,) = [n for n in notes if "'pass_at_2'" in n]
    flag = note.split("Pass@2 column (")[1].split(")")[0]
    assert flag == "--k 2"
    assert main(["leaderboard", str(d), *flag.split(), "--format", "json", "--draws", "200"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert all(0 <= r["pass@2"] <= 1 for r in rows) and len(rows) == 2


def test_a_log_without_samples_reads_the_mean_reduction_not_the_first():
    d = INSPECT / "two_reducers_nosamples"
    o = io.load(d)
    assert o.N == 1
    for log in reading(d)["logs"]:
        assert not log["samples"]
        m = o.models.index(short(log["model"]))
        mean = _reduction(log, "mean")
        assert weights_of(o)[m, :, 0].tolist() == pytest.approx([mean[q] for q in o.questions])
        assert any(v < 1 for v in mean.values())  # pass_at_2 would have read 1.0 everywhere
    notes = " ".join(o.metadata["import_report"]["notes"])
    assert "('mean' over the epochs)" in notes and "'pass_at_2', are not read" in notes


def test_a_pass_at_k_reducer_on_graded_scores_promises_no_pass_at_k_column():
    from scorio_core.leaderboard import leaderboard

    d = INSPECT / "passk_cpi"  # C / P / I scores, Epochs(4, "pass_at_2")
    o = io.load(d)
    assert not o.is_binary
    notes = " ".join(o.metadata["import_report"]["notes"])
    assert "only full credit as a pass" in notes and "no Pass@k column" in notes
    assert "Pass@2 column" not in notes
    with pytest.raises(ValidationError, match="Pass@k columns need binary outcomes"):
        leaderboard(o, ks=(2,))


def test_a_killed_run_says_how_much_of_it_was_written():
    d = INSPECT / "killed"  # beta's process was killed during epoch 2 of 3
    logs = {short(log["model"]): log for log in reading(d)["logs"]}
    assert logs["beta"]["status"] == "started" and logs["alpha"]["status"] == "success"
    written = len(logs["beta"]["samples"])
    per_epoch = [sum(s["epoch"] == e for s in logs["beta"]["samples"]) for e in (1, 2, 3)]
    declared = logs["beta"]["dataset_samples"] * logs["beta"]["epochs"]
    with pytest.raises(MissingCellsError) as exc:
        io.load(d)
    said = str(exc.value)
    assert "beta on arith: unfinished run" in said
    assert f"{written} of {declared} samples written (3 epochs × 5 samples declared" in said
    shown = ", ".join(f"epoch {e}: {n} of 5" if n else f"epoch {e}: none"
                      for e, n in zip((1, 2, 3), per_epoch, strict=True))
    assert shown in said
    assert "on_missing='truncate'" in said  # the advice works on the same data:
    assert io.load(d, on_missing="truncate").shape == (2, 5, min(1 + (n > 0) for n in per_epoch))
    unfinished = logs["beta"]["file"]  # ... and so does the other: without that log
    assert f"or load the logs without the run that did not finish (killed/{unfinished})" \
        in said
    finished = [f for f in d.glob("*.eval") if f.name != unfinished]
    assert io.load(finished[0]).shape == (1, 5, 3)


def test_one_tasks_unreadable_log_in_a_mixed_folder_suggests_another_task(tmp_path, capsys):
    for name in ("epochs", "graded"):  # arith (C/I) and essay (a 0-10 grade)
        for f in (INSPECT / name).glob("*.eval"):
            shutil.copy(f, tmp_path / f.name)
    with pytest.raises(ValidationError, match=r"no scorer 'pseudo_match'; this log has 'grade'"
                       r"; the logs hold 2 tasks \(arith, essay\): to read another task alone, "
                       r"pass benchmark='arith'$"):
        io.load(tmp_path, scorer="pseudo_match")
    with pytest.raises(ValidationError, match=r"outside \[0, 1\].*pass benchmark='arith'"):
        io.load(tmp_path)
    assert io.load(tmp_path, scorer="pseudo_match", benchmark="arith").shape == (2, 5, 3)
    assert io.load(tmp_path, benchmark="essay", score_range=(0, 10)).M == 5
    rc = main(["info", str(tmp_path), "--scorer", "pseudo_match"])
    assert rc == 2  # the command line's advice names the flag (it named keyword and flag)
    assert capsys.readouterr().err.rstrip().endswith(
        "to read another task alone, pass --benchmark arith")


def test_logs_that_fail_together_advise_only_a_task_that_loads_alone(tmp_path):
    """weights=(0, 1) on arith (C/P/I: 3 categories) beside logic (C/I): the error comes from
    assembling both, names no log, and the hint had named the first task, arith, which fails
    alone the same way; it names logic, the task that loads alone with these weights, and
    says nothing when no task does."""
    for f in (*(INSPECT / "passk_cpi").glob("*.eval"), *(INSPECT / "eval_set").glob("*logic*")):
        shutil.copy(f, tmp_path / f.name)
    with pytest.raises(ValidationError, match=r"category 2 .* the 2 weights") as exc:
        io.load(tmp_path, weights=(0, 1), benchmark="arith")
    assert "benchmark=" not in str(exc.value)
    with pytest.raises(ValidationError) as exc:
        io.load(tmp_path, weights=(0, 1))
    said = str(exc.value)
    assert said.endswith("; the logs hold 2 tasks (arith, logic): to read another task alone, "
                         "pass benchmark='logic'")
    assert cli_text(said_of(exc.value)).endswith("pass --benchmark logic")
    assert io.load(tmp_path, weights=(0, 1), benchmark="logic").shape == (2, 4, 3)
    for kw in ({"weights": (0, 0.2, 0.5, 1)}, {"attributes": ("nope",)}):  # fit no task
        with pytest.raises(ValidationError) as exc:
            io.load(tmp_path, **kw)
        assert "benchmark=" not in str(exc.value) and "alone" not in str(exc.value)
        for task in ("arith", "logic"):
            with pytest.raises(ValidationError):
                io.load(tmp_path, benchmark=task, **kw)



def _advised(exc: BaseException) -> str | None:
    """The task an error advises reading alone (benchmark='TASK'), if any; the command
    line's rendering names it by its flag."""
    said = said_of(exc)
    if "to read another task alone" not in said:
        return None
    task = said.split("pass benchmark=")[1].split("'")[1]
    assert f"pass --benchmark {task}" in cli_text(said) and "--" not in str(said).split(
        "alone, pass")[1]
    return task


def test_a_failing_logs_hint_names_only_a_task_that_loads_alone(tmp_path):
    """A log that cannot be read (lm-eval --predict_only: no scores) in a folder of several
    tasks: the hint named the first other task without trying it. In predict_only_tasks
    (generate.py: --tasks qa_one,qa_rep --predict_only) that task holds no scores either;
    beside a task of several filters (qa_vote) or one run with two arguments (arith), the
    task was named but benchmark='TASK' was refused ('unknown benchmark'). Now a task is
    named only when loading it alone works, and what is named loads."""
    d = LM_EVAL / "predict_only_tasks"
    assert reading(d)["results"].keys() == {"qa_one", "qa_rep"}
    with pytest.raises(ValidationError, match="--predict_only") as exc:
        io.load(d)
    assert _advised(exc.value) is None
    for task in ("qa_one", "qa_rep"):  # what it had advised fails the same way
        with pytest.raises(ValidationError, match="no metric: cannot score"):
            io.load(d, benchmark=task)
    # beside a task of two filters, and beside a task run with two arguments
    shutil.copytree(LM_EVAL / "predict_only" / "alpha", tmp_path / "a" / "alpha")
    beta = LM_EVAL / "multi" / "beta"
    (tmp_path / "a" / "beta").mkdir()
    for f in (*beta.glob("results_*.json"), *beta.glob("samples_qa_vote_*.jsonl")):
        shutil.copy(f, tmp_path / "a" / "beta" / f.name)
    shutil.copytree(LM_EVAL / "predict_only" / "alpha", tmp_path / "b" / "alpha")
    shutil.copytree(INSPECT / "task_args", tmp_path / "b" / "arith")
    want = {"a": ("qa_vote", ["qa_vote/maj@5", "qa_vote/score-first"]),
            "b": ("arith", ["arith[level=2]", "arith[level=1]"])}
    for folder, (task, benchmarks) in want.items():
        with pytest.raises(ValidationError, match="--predict_only") as exc:
            io.load(tmp_path / folder)
        assert _advised(exc.value) == task
        o = io.load(tmp_path / folder, benchmark=task)  # the advice, run
        assert o.benchmark_names == benchmarks
    ref = reading(LM_EVAL / "multi")["models"]["beta"]["results"]["qa_vote"]
    o = io.load(tmp_path / "a", benchmark="qa_vote")
    for b in o.benchmark_names:  # lm-eval's values, filter by filter
        assert weights_of(o.select(b)).mean() == pytest.approx(
            ref[f"exact_match,{b.split('/')[1]}"], abs=1e-12)


def _log_of(d: Path, model: str) -> Path:
    """The log of ``model`` among a fixture folder's (its reading.json names them)."""
    return d / next(g["file"] for g in reading(d)["logs"] if short(g["model"]) == model)


def test_a_scorer_hint_tries_every_log_of_the_task_it_names(tmp_path):
    """scorer='pseudo_match' on essay (no such scorer) beside arith, whose alpha log has it
    and whose beta log (another run, scorer 'cpi') does not: the hint had named arith after
    reading its first log alone, and benchmark='arith' fails on beta's log. Nothing is
    advised now, and arith is not said to lack the scorer (its first log has it); with a
    beta log that has it, arith is named and loads."""
    logs = [*(INSPECT / "graded").glob("*.eval"), _log_of(INSPECT / "epochs", "alpha"),
            _log_of(INSPECT / "passk_cpi", "beta")]
    for f in logs:
        shutil.copy(f, tmp_path / f.name)
    with pytest.raises(ValidationError, match=r"_essay_.*no scorer 'pseudo_match'; this log "
                       r"has 'grade'") as exc:
        io.load(tmp_path, scorer="pseudo_match")
    said = str(exc.value)
    assert _advised(exc.value) is None and "none of the" not in said
    with pytest.raises(ValidationError, match=r"no scorer 'pseudo_match'; this log has 'cpi'"):
        io.load(tmp_path, scorer="pseudo_match", benchmark="arith")  # what it had advised
    (tmp_path / logs[-1].name).unlink()
    shutil.copy(_log_of(INSPECT / "epochs", "beta"), tmp_path)
    with pytest.raises(ValidationError) as exc:
        io.load(tmp_path, scorer="pseudo_match")
    assert _advised(exc.value) == "arith"
    assert io.load(tmp_path, scorer="pseudo_match", benchmark="arith").shape == (2, 5, 3)


def _json_log_of(task: str, src: Path, dest: Path, samples: str | None = None) -> Path:
    """``src`` (an Inspect .json log) as the log of ``task``, written to ``dest``; with
    ``samples``, that text in place of its samples (e.g. not JSON)."""
    log = json.loads(src.read_text())
    log["eval"]["task"] = task
    text = json.dumps(log, indent=2)
    if samples is not None:  # the top-level member (eval.dataset has one too)
        head, key, tail = text.partition('\n  "samples": ')
        text = head + key + samples + tail[tail.index('\n  "reductions"') - 1:]
    dest.write_text(text)
    return dest


def test_a_json_log_is_listed_from_its_header(tmp_path, monkeypatch):
    """Listing a folder of Inspect .json logs reads each one's header (the members before
    its samples), never the whole log (each had been parsed whole to list it, all held
    until read, and again for advice): a log of another task whose samples are not JSON
    no longer stops benchmark= from loading the others, and the load that reads it says
    what it holds and which task loads alone. Each log read is parsed whole once."""
    from scorio_core.io import _base, _dispatch, inspect

    alpha, beta = json_logs()
    for f in (alpha, beta):
        shutil.copy(f, tmp_path / f.name)
    broken = _json_log_of("logic", alpha, tmp_path / "logic_run.json",
                          samples="[" + "{not JSON}, " * 50_000 + "]")
    header = inspect.json_header(_base._Src(broken.name, path=broken))
    assert header["eval"]["task"] == "logic" and "samples" not in header
    assert list(header) == list(json.loads(alpha.read_text()))[:list(header).__len__()]
    read_to: list[int] = []

    def counted(self):  # the bytes a header read takes from the file
        fh = _Counted(self.path.read_bytes())
        read_to.append(fh)
        return fh

    monkeypatch.setattr(_base._Src, "open", counted)
    assert inspect.json_header(_base._Src(broken.name, path=broken)) == header
    assert read_to[0].n_read < 2**17 < broken.stat().st_size  # up to its samples' start
    monkeypatch.undo()
    want = io.load([alpha, beta])
    whole: list[str] = []
    parse = inspect._whole
    monkeypatch.setattr(inspect, "_whole", lambda src: whole.append(src.label) or parse(src))
    monkeypatch.setattr(_dispatch, "_json_or_none", lambda src: pytest.fail(src.label))
    o = io.load(tmp_path, benchmark="arith")  # had failed: logic_run.json is not JSON
    assert o.models == want.models and np.array_equal(o.R, want.R)
    assert sorted(whole) == sorted(f"{tmp_path.name}/{f.name}" for f in (alpha, beta))
    with pytest.raises(ValidationError, match=r"logic_run\.json: not JSON \(") as exc:
        io.load(tmp_path)
    assert _advised(exc.value) == "arith"


def test_a_json_logs_header_is_what_inspect_reads_as_its_header(tmp_path):
    """json_header reads what inspect_ai's read_eval_log(header_only=True) reads of a .json
    log -- the members before its samples -- with the samples not JSON (Inspect's own
    reader stops at them too), for the fixture logs written by Inspect."""
    log_mod = pytest.importorskip("inspect_ai.log")
    from scorio_core.io import inspect
    from scorio_core.io._base import _Src

    for log in [*json_logs(), *(INSPECT / "reasoning").glob("*_arith_*.json")]:
        broken = _json_log_of("logic", log, tmp_path / log.name, samples="[{not JSON}]")
        for path in (log, broken):
            live = log_mod.read_eval_log(str(path), header_only=True)
            head = inspect.json_header(_Src(path.name, path=path))
            assert live.samples is None and "samples" not in head
            assert (head["eval"]["task"], head["eval"]["model"], head["status"]) == (
                live.eval.task, live.eval.model, live.status)
            assert head["results"]["total_samples"] == live.results.total_samples


def test_a_failed_loads_advice_reads_a_bounded_part_of_the_folder(tmp_path, monkeypatch):
    """Advice after one task's log fails, in a folder of many tasks: each log's task is
    read once from its header, at most _ALONE_TRIES tasks are tried, the first that loads
    ends the search, and a try reads its own task's logs, not the folder again (each try
    had listed every file anew, parsing every .json log whole: 13 tasks x 2 logs, 9
    listings). Counted: the logs parsed whole."""
    from fixtures import make_logs as mk

    from scorio_core.io import _dispatch, inspect

    ones = np.ones((3, 1), int)
    for t in range(13):
        for model in ("org/alpha", "org/beta"):
            mk.write_inspect_json(tmp_path / f"{model[4:]}_t{t:02d}.json", model, f"t{t:02d}",
                                  ones, [1, 2, 3])
    whole: list[str] = []
    parse = inspect._whole
    monkeypatch.setattr(inspect, "_whole", lambda src: whole.append(src.label) or parse(src))
    monkeypatch.setattr(_dispatch, "_json_or_none", lambda src: pytest.fail(src.label))
    # no log has the scorer: 8 other tasks tried, each stopped at its first log
    with pytest.raises(ValidationError, match=r"alpha_t00\.json: no scorer 'nope'") as exc:
        io.load(tmp_path, scorer="nope")
    assert _advised(exc.value) is None and "none of the" not in str(exc.value)
    tried = range(1, _dispatch._ALONE_TRIES + 1)
    assert [w.rsplit("/")[-1] for w in whole] == [
        "alpha_t00.json", *(f"alpha_t{t:02d}.json" for t in tried)]
    # one log that holds nothing scored: the first other task loads and is advised
    mk.write_inspect_json(tmp_path / "alpha_t00.json", "org/alpha", "t00", ones, [1, 2, 3],
                          errored={(1, 1), (2, 1), (3, 1)})
    whole.clear()
    with pytest.raises(ValidationError, match="nothing in this log was scored") as exc:
        io.load(tmp_path)
    assert _advised(exc.value) == "t01"
    assert [w.rsplit("/")[-1] for w in whole] == ["alpha_t00.json", "alpha_t01.json",
                                                   "beta_t01.json"]
    # few tasks, none with the scorer: every one tried, and said
    mk.write_inspect_json(tmp_path / "alpha_t00.json", "org/alpha", "t00", ones, [1, 2, 3])
    for f in [*tmp_path.glob("*_t0[3-9].json"), *tmp_path.glob("*_t1?.json")]:
        f.unlink()
    with pytest.raises(ValidationError, match=r"none of the 3 tasks of these logs "
                       r"\(t00, t01, t02\) has scorer 'nope'"):
        io.load(tmp_path, scorer="nope")


def test_missing_cells_advice_is_tried_on_the_same_logs(tmp_path):
    """A missing-cells refusal of logs recommends an on_missing policy, or loading without
    an unfinished run, only when that loads the same logs: counted log by log, truncate
    had been advised when another model lacked a question altogether, and dropping the
    unfinished run when the finished ones fail too."""
    from fixtures import make_logs as mk

    def log(name: str, ids: list, epochs: int = 2, **kw) -> Path:
        values = np.ones((len(ids), epochs), int)
        return mk.write_inspect_eval(tmp_path / f"{name}{len(ids)}{epochs}.eval", name, "t",
                                     values, ids, **kw)

    a, b = log("a", [1, 2, 3]), log("b", [1, 2, 3])
    a_err = log("a_err", [1, 2, 3], 3, errored={(1, 1)})
    b_short, b_short3 = log("b", [1, 2]), log("b", [1, 2], 3)  # never asked question 3
    # an errored sample of a beside b without question 3: only drop_questions keeps data
    with pytest.raises(MissingCellsError) as exc:
        io.load([a_err, b_short3])
    assert str(exc.value).endswith("Re-run them or pass on_missing='drop_questions'.")
    assert io.load([a_err, b_short3], on_missing="drop_questions").questions == ("2",)
    with pytest.raises(MissingCellsError, match="cannot keep any trial"):
        io.load([a_err, b_short3], on_missing="truncate")
    # other epochs: truncate is advised when it loads, not when b lacks a question too
    c = log("c", [1, 2, 3], 1)
    with pytest.raises(MissingCellsError, match=r"the same trials \(pass on_missing='truncate'"):
        io.load([a, c])
    assert io.load([a, c], on_missing="truncate").shape == (2, 3, 1)
    a3 = log("a", [1, 2, 3], 3)
    with pytest.raises(MissingCellsError) as exc:
        io.load([a3, b_short])
    assert str(exc.value).endswith(
        "every model needs the same trials (re-run them: neither on_missing='drop_questions' "
        "nor on_missing='truncate' loads these logs either)")
    for policy in ("drop_questions", "truncate"):
        with pytest.raises(MissingCellsError):
            io.load([a3, b_short], on_missing=policy)
    # an unfinished run (k) beside finished runs: dropping it is advised when that loads
    k = log("k", [1], finished=False)
    with pytest.raises(MissingCellsError, match="unfinished run") as exc:
        io.load([a, k, b_short])
    assert "without the run that did not finish" not in str(exc.value)
    with pytest.raises(MissingCellsError):
        io.load([a, b_short])
    with pytest.raises(MissingCellsError, match="unfinished run") as exc:
        io.load([a, k, b])
    assert str(exc.value).endswith(f"without the run that did not finish ({k.name})")
    assert io.load([a, b]).shape == (2, 3, 2)

def test_a_score_above_the_weights_is_blamed_on_the_log_that_holds_it(tmp_path):
    """Five weights on lm-eval's 0/1 tasks beside essay's 0-10 grades: the grade 7 is in an
    essay log, and that log is named (it had been the first log read, an lm-eval one)."""
    shutil.copytree(LM_EVAL / "multi" / "alpha", tmp_path / "alpha")
    (tmp_path / "zz").mkdir()
    for f in (INSPECT / "graded").glob("*.eval"):
        shutil.copy(f, tmp_path / "zz" / f.name)
    with pytest.raises(ValidationError) as exc:
        io.load(tmp_path, weights=(0, 0.25, 0.5, 0.75, 1))
    said = str(exc.value)
    assert said.startswith(f"{tmp_path.name}/zz/") and "_essay_" in said.split(":")[0]
    assert "read as categories 0..4 (one per weight given), but one is " in said
    assert "benchmark=" not in said  # no task loads alone with these weights


def test_every_rerun_is_named_in_one_refusal(tmp_path):
    from fixtures import make_logs as mk

    R = np.array([[1, 0, 1], [0, 1, 1]])
    for task in ("arith", "logic"):
        for k in (1, 2):
            mk.write_inspect_eval(tmp_path / f"{task}{k}.eval", "mockllm/alpha", task, R,
                                  ["1", "2"])
    with pytest.raises(ValidationError, match=r"2 \(model, task\) pairs with more than one "
                       r"log: model 'alpha' and task 'arith': .*; model 'alpha' and task "
                       r"'logic': "):
        io.load(tmp_path)


def test_models_prompted_differently_on_one_task_load_with_a_note():
    o = io.load(LM_EVAL / "fewshot")  # alpha 0-shot, beta 3-shot: the same documents
    shots = {m: json.loads(next((LM_EVAL / "fewshot" / m).glob("results_*.json")).read_text())
             ["n-shot"]["mc_a"] for m in ("alpha", "beta")}  # fmt: skip
    assert shots == {"alpha": 0, "beta": 3}
    note = next(n for n in o.metadata["import_report"]["notes"] if "other prompts" in n)
    assert "alpha: n-shot 0; beta: n-shot 3" in note
    same = io.load(LM_EVAL / "multi")  # one model's runs, one prompt per task: no note
    assert not [n for n in same.metadata["import_report"].get("notes", []) if "other prompts" in n]


def test_an_lm_eval_group_is_read_by_its_name_and_agrees_with_lm_eval():
    from scorio_core.leaderboard import leaderboard

    d = LM_EVAL / "group"  # lm_eval --tasks qa_suite,qa_vote; qa_suite = qa_one + qa_rep
    ref = reading(d)["models"]
    assert ref["alpha"]["group_subtasks"] == {"qa_suite": ["qa_one", "qa_rep"]}
    o = io.load(d, benchmark="qa_suite")
    assert sorted(set(o.benchmarks)) == ["qa_one", "qa_rep"]
    table = leaderboard(o).table.set_index("model")
    for model, r in ref.items():  # lm-eval's group score (weighted by size): every document
        assert table.loc[model, "score"] == pytest.approx(
            r["groups"]["qa_suite"]["exact_match,none"], abs=1e-12)
    assert io.load(d, benchmark="qa_one").M == 6  # a task alone, as before
    whole = io.load(d)  # every task, the group a question attribute (a slice in the app)
    part = whole.subset("group", "qa_suite")
    assert sorted(set(part.benchmarks)) == ["qa_one", "qa_rep"] and part.M == 12
    assert whole.attribute_values("group") == ["qa_suite"]  # qa_vote belongs to no group
    with pytest.raises(ValidationError, match=r"unknown benchmark 'qa'; .*qa_one, qa_rep, "
                       r"qa_vote; and the group: qa_suite"):
        io.load(d, benchmark="qa")



def test_lm_eval_thinking_is_shown_as_reasoning_and_the_scores_stay_lm_evals():
    """A reasoning model run without think_end_token (lm_eval/thinking, generate.py): each
    response holds its <think> block, which lm-eval scored with it. The scores are
    lm-eval's, document by document; the texts split each response where lm-eval splits it
    when the run sets think_end_token=</think> (reading.json: lm-eval's responses of the
    same generations with the token set), the thinking as the reasoning."""
    d = LM_EVAL / "thinking"
    ref = reading(d)["models"]
    o = io.load(d)
    assert o.benchmark_names == ["qa_think/raw", "qa_think/answer"] and o.N == 1
    split = 0
    for model, r in ref.items():
        m = o.models.index(model)
        for bench in o.benchmark_names:
            filt = bench.split("/")[1]
            sub = o.select(bench)
            assert weights_of(sub)[m].mean() == pytest.approx(
                r["results"]["qa_think"][f"exact_match,{filt}"], abs=1e-12)
        for line in next((d / model).glob("samples_*.jsonl")).open():
            rec = json.loads(line)
            q = f"qa_think/{rec['filter']}/{rec['doc_id']}"
            assert o.R[m, o.questions.index(q), 0] == rec["exact_match"]
            row = o.samples.for_question(q).filter(model=model).row(0, named=True)
            resp = rec["resps"][0][0]
            assert row["answer"] == rec["filtered_resps"][0]  # what lm-eval scored, as is
            if "</think>" in resp:  # lm-eval's own answer with think_end_token set
                assert row["output"] == r["think_end_token"]["resps"][str(rec["doc_id"])]
                assert row["reasoning"] and row["reasoning"] in resp
                split += 1
            elif resp.startswith("<think>"):  # the stop sequence cut it inside the block
                assert (row["reasoning"], row["output"]) == ("Let me restate it.", "")
            else:
                assert (row["reasoning"], row["output"]) == (None, resp)
    assert split == 2 * 5  # alpha 3 + beta 2 responses, under both filters
    texts = o.samples.for_question("qa_think/answer/3")  # a whole block and a template's
    got = {m: (t["reasoning"], t["output"], t["answer"]) for m, t in zip(
        texts["model"], texts.iter_rows(named=True), strict=True)}
    assert got == {
        "alpha": ("The question: Opposite of hot? Maybe the answer is no, it is cold.",
                  "The answer is cold.", "cold"),
        "beta": ("Opposite of hot? Let me recall: it is unknown.", "The answer is unknown.",
                 "unknown")}
    notes = o.metadata["import_report"]["notes"]
    # each model's note in the import report names its log (several logs are read)
    files = {m: f"thinking/{m}/{next((d / m).glob('samples_*.jsonl')).name}"
             for m in ("alpha", "beta")}
    assert [n for n in notes if "hold its thinking" in n] == [
        f"{files[m]}: model {m!r}: {k} of its 6 responses hold its thinking (<think> ... "
        "</think>; the run set no think_end_token), which lm-eval scored with the response; "
        "the scores are lm-eval's, the texts show the thinking as the reasoning and the rest "
        "as the output; 2 end inside the thinking (no </think>: cut by max_gen_toks or a "
        "stop sequence), with no output after it" for m, k in (("alpha", 5), ("beta", 4))]
    bare = io.load(d, samples="skip", benchmark="qa_think/answer")  # the same scores, said
    assert np.array_equal(bare.R, o.select("qa_think/answer").R) and bare.samples is None
    assert [n for n in bare.metadata["import_report"]["notes"] if "hold its thinking" in n] == [
        n for n in notes if "hold its thinking" in n]



def test_lm_eval_thinking_never_closed_under_a_think_end_token_is_said_so(tmp_path):
    """With think_end_token set (model_args of results_<date>.json) lm-eval strips every
    closed block: a response that still opens <think> never closed it (max_gen_toks), and
    the note says the token was set, not that it was missing."""
    src = LM_EVAL / "thinking" / "alpha"
    res = json.loads(next(src.glob("results_*.json")).read_text())
    res["config"]["model_args"] += ",think_end_token=</think>"
    (tmp_path / next(src.glob("results_*.json")).name).write_text(json.dumps(res))
    f = next(src.glob("samples_*.jsonl"))
    cut = [x for x in f.open() if "</think>" not in x]  # what that run could have logged
    (tmp_path / f.name).write_text("".join(cut))
    o = io.load(tmp_path)
    notes = [n for n in o.metadata["import_report"]["notes"] if "hold its thinking" in n]
    assert notes == [
        "model 'alpha': 2 of its 3 responses hold its thinking (<think> ... </think>; the run "
        "set think_end_token='</think>', which lm-eval found in none of them), which lm-eval "
        "scored with the response; the scores are lm-eval's, the texts show the thinking as "
        "the reasoning and the rest as the output; 2 end inside the thinking (no </think>: "
        "cut by max_gen_toks or a stop sequence), with no output after it"]

#: Responses and their (thinking, rest) by lm-eval's rule; None: no thinking block.
THINKING_CASES = {
    "<think>\n2 + 2\n</think>\n\n 4 ": ("2 + 2", "4 "),
    "  <think>a</think>b</think>\nc": ("a</think>b", "c"),  # the last </think>
    "counted</think>4": ("counted", "4"),  # the chat template opened the block
    "<think>\n\n</think>\n\n4": ("", "4"),  # thinking switched off: an empty block
    "<think>\ncut here": ("cut here", ""),  # a truncated generation
    "I think <think> is a tag": None, "4": None, "": None, None: None, 4: None,
    # other models' own markers (no think_end_token set: lm-eval kept them in the text)
    "\u25c1think\u25b7plan\u25c1/think\u25b7 7": ("plan", "7"),  # Kimi
    "<|begin_of_thought|>\nx\n<|end_of_thought|>\n\n<|begin_of_solution|>5": (
        "x", "<|begin_of_solution|>5"),  # OpenThoughts / Bespoke-Stratos
    "<seed:think>a</seed:think>b": ("a", "b"),  # Seed-OSS
    "<reasoning>r</reasoning>\nans": ("r", "ans"),
    "<thinking>cut": ("cut", ""),  # opened, never closed
    "The <thinking> tag": None,
}


def test_lm_eval_thinking_is_split_where_lm_eval_splits_it():
    """lm-eval's think_end_token rule (postprocess_generated_text: the text after the last
    </think>, leading white space dropped), the opening <think> taken off the thinking; a
    block never closed is all thinking."""
    from scorio_core.io.lm_eval import thinking

    assert {k: thinking(k) for k in THINKING_CASES} == THINKING_CASES


def test_lm_eval_thinking_split_is_lm_evals_own():
    """The rest of every closed block is the answer lm-eval's own post-processing keeps
    with think_end_token="</think>" (lm_eval 0.4.13, when installed)."""
    utils = pytest.importorskip("lm_eval.models.utils")
    from scorio_core.io.lm_eval import thinking_markers

    closed = {k: (v, thinking_markers(k)[1]) for k, v in THINKING_CASES.items()
              if v is not None and thinking_markers(k)[1] in k}
    assert len(closed) == 8
    for text, ((_, rest), end) in closed.items():
        assert utils.postprocess_generated_text(text, None, end) == rest


def test_lm_eval_thinking_in_other_markers_is_said_with_them(tmp_path):
    """Kimi's ``◁think▷ ... ◁/think▷`` block (no think_end_token set) is the reasoning, the
    rest the output, and the import report names the markers it found; the scores stay
    lm-eval's."""
    src = LM_EVAL / "thinking" / "alpha"
    for f in src.iterdir():
        if f.name.startswith("samples_"):
            text = f.read_text().replace("<think>", "\u25c1think\u25b7").replace(
                "</think>", "\u25c1/think\u25b7")
            (tmp_path / f.name).write_text(text)
        else:
            shutil.copy(f, tmp_path)
    theirs, ours = io.load(src), io.load(tmp_path)
    assert np.array_equal(theirs.R, ours.R)
    notes = [n for n in ours.metadata["import_report"]["notes"] if "thinking" in n]
    assert len(notes) == 1 and "(\u25c1think\u25b7 ... \u25c1/think\u25b7;" in notes[0]
    assert "no \u25c1/think\u25b7: cut by max_gen_toks" in notes[0]
    q = ours.questions[0]
    a = theirs.samples.for_question(q).select("reasoning", "output").rows()
    b = ours.samples.for_question(q).select("reasoning", "output").rows()
    assert a == b and any(r[0] for r in a)


def test_lm_eval_repeats_with_thinking_show_each_repeats_reasoning(tmp_path):
    """A document's repeats read as one trial (take_first) show every response: each
    repeat's thinking in the reasoning, its rest in the output, numbered alike."""
    src = LM_EVAL / "multi" / "alpha"
    shutil.copy(next(src.glob("results_*.json")), tmp_path)
    f = next(src.glob("samples_qa_rep_*.jsonl"))
    rows = [json.loads(x) for x in f.open()]
    for r in rows:  # the first response is the one lm-eval scored (take_first): kept
        r["resps"] = [["<think>try 1</think>\n\nparis", "PARIS.", "<think>try 3"]]
    (tmp_path / f.name).write_text("".join(json.dumps(r) + "\n" for r in rows))
    o = io.load(tmp_path)
    t = o.samples.for_question(str(rows[0]["doc_id"])).row(0, named=True)
    assert t["reasoning"] == "[repeat 1] try 1\n[repeat 3] try 3"
    assert t["output"] == "[repeat 1] paris\n[repeat 2] PARIS.\n[repeat 3] "
    assert t["answer"] == rows[0]["filtered_resps"][0]
    assert o.R[0, :, 0].tolist() == [int(x["exact_match"]) for x in rows]  # lm-eval's values


# ------------------------------------------------------------------- OpenAI evals
def test_lm_eval_doc_fields_never_refuse_a_log_and_only_groupings_become_subsets(
        capsys, tmp_path):
    """lm-eval's ``doc`` is context the user cannot edit. Its answer ``a`` ('lol' or a
    number) made the folder unreadable ("column 'a' looks numeric (a signal) but holds
    non-numbers ... fix or remove those cells", with advice naming the failing task), and
    an answer string of 9 values over 12 documents would have split the leaderboard by
    answer. Now the groupings (``kind``, ``points``) are subsets, every other field is
    named with why in one note, and the scores are lm-eval's own."""
    d = LM_EVAL / "doc_fields"  # lm_eval --tasks qa_fields,qa_fields_one (generate.py)
    ref = reading(d)["models"]
    o = io.load(d)
    assert o.benchmark_names == ["qa_fields", "qa_fields_one"]
    for bench, filt, n in (("qa_fields", "all", 4), ("qa_fields_one", "none", 1)):
        sub = o.select(bench)
        assert sub.shape == (2, ref["alpha"]["n-samples"][bench]["effective"], n) == (2, 12, n)
        for model, r in ref.items():
            want = r["results"][bench][f"exact_match,{filt}"]
            assert weights_of(sub)[sub.models.index(model)].mean() == pytest.approx(
                want, abs=1e-12), (model, bench)
        doc = [int(q.rsplit("/", 1)[1]) for q in sub.questions]  # doc_id i: DOC_FIELDS[i]
        assert sub.question_attributes == {"kind": tuple("easy" if i < 6 else "hard"
                                                         for i in doc),
                                           "points": tuple(str(1 + i % 2) for i in doc)}
        assert sub.signals == {}
    notes = [n for n in o.metadata["import_report"]["notes"] if "question attributes" in n]
    assert notes == [
        "not read as question attributes (subsets) in every task, kept in each sample's "
        "metadata only: doc field 'q': a different value on every question; doc field 'a': "
        "9 different values over 12 questions, per-question content rather than a grouping; "
        "doc field 'level': numbers mixed with text ('unknown' beside 3 numeric values); "
        "doc field 'origin': 4 of its 12 questions have a value of their own, per-question "
        "content rather than a grouping"]
    meta = json.loads(o.samples.for_question("qa_fields/3")["metadata"][0])
    assert meta["a"] == "lol" and meta["level"] == "3"  # kept as the sample's text
    assert "ignored_columns" not in o.select("qa_fields").metadata  # said once, in the note
    # one task alone, through the CLI: the same subsets, the note without the task names
    assert main(["info", str(d), "--benchmark", "qa_fields"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["question attributes"] == {"kind": {"easy": 6, "hard": 6},
                                          "points": {"1": 6, "2": 6}}
    assert "doc field 'a': 9 different values over 12 questions" in " ".join(
        got["import_report"]["notes"])
    # what the import writes reads back (a field of numbers mixed with text would not)
    one = o.select("qa_fields")
    io.save_table(one, tmp_path / "one.parquet")
    back = io.load(tmp_path / "one.parquet")
    assert back.question_attributes == one.question_attributes
    assert np.array_equal(back.R, one.R)


OPENAI_EVALS = HERE / "openai_evals"
HELM = HERE / "helm"


@pytest.mark.parametrize("case", ["match", "fuzzy_match", "repeated"])
def test_openai_evals_logs_agree_with_oaieval(case):
    """oaieval's own LocalRecorder logs (evals 3.0.1.post1): one model per run (the
    completion fn), one question per sample_id, one trial per match event of the sample
    (in event_id order); our mean is the final_report accuracy."""
    d = OPENAI_EVALS / case
    logs = reading(d)["logs"]
    o = io.load(d)
    assert sorted(o.models) == sorted(",".join(log["spec"]["completion_fns"]) for log in logs)
    assert o.benchmark_names == [logs[0]["spec"]["base_eval"]]
    rows = {f["model"]: f for f in o.metadata["import_report"]["files"]}
    for log in logs:
        m = o.models.index(",".join(log["spec"]["completion_fns"]))
        per_q: dict[str, list[bool]] = {}
        for ev in sorted(log["matches"], key=lambda e: e["event_id"]):
            per_q.setdefault(ev["sample_id"], []).append(ev["correct"])
        assert sorted(o.questions) == sorted(per_q)
        assert o.N == max(len(v) for v in per_q.values()) == (3 if case == "repeated" else 1)
        for sid, outcomes in per_q.items():
            assert o.R[m, o.questions.index(sid)].tolist() == [int(c) for c in outcomes]
        acc = log["final_report"]["accuracy"]
        assert o.R[m].mean() == pytest.approx(acc, abs=1e-12)
        assert rows[o.models[m]]["harness"]["value"] == pytest.approx(acc)
        assert rows[o.models[m]]["mean"] == pytest.approx(acc, abs=1e-6)
        # as written: oaieval's final_report line may come before the buffered events
        lines = [json.loads(x) for x in (d / log["file"]).read_text().splitlines()]
        assert "spec" in lines[0] and any("final_report" in x for x in lines)


def test_openai_evals_log_without_match_events_says_what_it_found(tmp_path):
    """A log with no 'match' event that is not model-graded (here FuzzyMatch's log without
    its match events: only its per-sample accuracy/f1 'metrics'): refused, naming what the
    log holds."""
    src = (OPENAI_EVALS / "fuzzy_match" / "alpha.jsonl").read_text().splitlines()
    kept = [x for x in src if json.loads(x).get("type") != "match"]
    (tmp_path / "graded.jsonl").write_text("\n".join(kept) + "\n")
    with pytest.raises(ValidationError, match=r"no 'match' events; nothing to score \(expected "
                       r"one 'match' event.*found events: .*6 'sampling', 6 'metrics'"):
        io.load(tmp_path)


# --------------------------------------------------------------------------- HELM
def test_helm_run_agrees_with_helm():
    """helm-run's own outputs (crfm-helm 0.5.16, simple_mcqa, 2 train trials): one model
    per run directory, instance_id = question, train_trial_index = trial, exact_match =
    outcome; our mean is stats.json's exact_match (the mean of the per-trial means)."""
    d = HELM / "simple_mcqa"
    runs = reading(d)["runs"]
    o = io.load(d)
    assert sorted(o.models) == sorted(short(r["model"]) for r in runs)
    assert o.benchmark_names == ["simple_mcqa"]
    rows = {f["model"]: f for f in o.metadata["import_report"]["files"]}
    for r in runs:
        m = o.models.index(short(r["model"]))
        kept = [i for i in r["instances"] if not i["perturbation"]]
        assert sorted(o.questions) == sorted({i["instance_id"] for i in kept})
        trials = next(s["mean"] for s in r["stats"] if s["name"] == "num_train_trials")
        assert o.N == trials == 2
        for i in kept:
            q = o.questions.index(i["instance_id"])
            assert o.R[m, q, i["train_trial_index"]] == i["exact_match"]
        head = next(s for s in r["stats"] if s["name"] == "exact_match" and s["split"] == "test")
        assert head["count"] == 2  # HELM: one mean per train trial, then their mean
        assert o.R[m].mean() == pytest.approx(head["mean"], abs=1e-12)
        assert rows[short(r["model"])]["mean"] == pytest.approx(head["mean"], abs=1e-6)
        # HELM's own headline, read from its stats.json, beside our mean
        row = rows[short(r["model"])]
        assert row["harness"]["name"] == "HELM stats.json exact_match (test)"
        assert row["harness"]["value"] == head["mean"]  # as HELM wrote it
        assert row["harness"]["value"] == pytest.approx(o.R[m].mean(), abs=1e-12)
    assert not any("stats.json" in n for n in o.metadata["import_report"].get("notes", []))
    shown = io.import_table(o.metadata["import_report"]).set_index("model")
    for r in runs:
        head = next(s for s in r["stats"] if s["name"] == "exact_match")
        assert shown.loc[short(r["model"]), "harness value"] == head["mean"]


def test_helm_stats_json_is_read_within_a_size_limit(tmp_path, monkeypatch):
    """stats.json's size is checked before it is read: over STATS_MAX_BYTES it is not
    opened (here a file of garbage: read, it would be 'not HELM's list of stats') and a note
    says why; at the limit it is read. Without stats.json a note says there is none."""
    from scorio_core.io import helm

    run = _helm_run(tmp_path)
    size = (run / "stats.json").stat().st_size
    monkeypatch.setattr(helm, "STATS_MAX_BYTES", size)
    row = io.load(run).metadata["import_report"]["files"][0]
    assert row["harness"]["value"] == pytest.approx(row["mean"], abs=1e-6)
    (run / "stats.json").write_bytes(b"x" * (size + 1))
    row = io.load(run).metadata["import_report"]["files"][0]
    assert "harness" not in row
    note = next(n for n in row["notes"] if n.startswith("stats.json"))
    assert "over the" in note and "STATS_MAX_BYTES): not read" in note
    monkeypatch.setattr(helm, "STATS_MAX_BYTES", size + 1)  # now read: not a list of stats
    row = io.load(run).metadata["import_report"]["files"][0]
    assert any("is not HELM's list of stats" in n for n in row["notes"]) and "harness" not in row
    (run / "stats.json").unlink()
    o = io.load(run)
    assert o.M == 5 and any(n.startswith("no stats.json beside it")
                            for n in o.metadata["import_report"]["notes"])


def test_helm_stats_json_in_an_archive_and_in_uploads(tmp_path, monkeypatch):
    """The same headline from a zip of the run directories and from the run's files
    uploaded together; a zip member over the limit is not extracted."""
    import zipfile

    from scorio_core.io import helm

    runs = reading(HELM / "simple_mcqa")["runs"]
    want = {short(r["model"]): next(s["mean"] for s in r["stats"] if s["name"] == "exact_match")
            for r in runs}
    archive = tmp_path / "runs.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for f in sorted((HELM / "simple_mcqa").rglob("*")):
            if f.is_file():
                zf.write(f, f.relative_to(HELM).as_posix())
    rows = io.load(archive).metadata["import_report"]["files"]
    assert {f["model"]: f["harness"]["value"] for f in rows} == want
    run = HELM / "simple_mcqa" / "simple_mcqa__model=scripted_beta"
    files = {n: (run / n).read_bytes()
             for n in ("per_instance_stats.json", "run_spec.json", "stats.json")}
    row = io.load(files).metadata["import_report"]["files"][0]
    assert row["harness"]["value"] == want["beta"]
    monkeypatch.setattr(helm, "STATS_MAX_BYTES", 1000)
    rows = io.load(archive).metadata["import_report"]["files"]
    assert not any("harness" in f for f in rows)
    assert all(any(n.startswith("no stats.json beside it") and "not extracted" in n
                   for n in f["notes"]) for f in rows)


def test_helm_headline_is_the_stat_read_on_its_split():
    """find_stat returns the entry HELM's list holds for (stat, split) without
    perturbation or sub-split -- the same as a full parse -- whatever comes before it; the
    headline follows the stat chosen with scorer=, and format='helm' reads a run folder."""
    from scorio_core.io.helm import find_stat

    def find(text: str, name: str, split: str) -> dict | None:
        return find_stat(BytesIO(text.encode()), name, split)

    text = (HELM / "simple_mcqa" / "simple_mcqa__model=scripted_alpha" / "stats.json").read_text()
    entries = json.loads(text)
    for name, split in {(e["name"]["name"], e["name"]["split"]) for e in entries}:
        plain = [e for e in entries if e["name"]["name"] == name and e["name"]["split"] == split
                 and not e["name"].get("perturbation") and not e["name"].get("sub_split")]
        assert find(text, name, split) == (plain[0] if plain else None)
    assert find(text, "exact_match", "valid") is None
    tricky = json.dumps([
        {"name": {"name": "exact_match", "split": "test", "perturbation": {"name": "typos"}},
         "mean": 0.1},
        {"name": {"name": "exact_match", "split": "test", "sub_split": "hard"}, "mean": 0.2},
        {"name": {"name": "exact_match", "split": "valid"}, "mean": 0.3},
        {"name": {"name": "exact_match", "split": "test", "perturbation": None}, "mean": 0.4},
    ], indent=2)
    assert find(tricky, "exact_match", "test")["mean"] == 0.4
    with pytest.raises(ValueError, match="expected '\\['"):
        find('{"name": 1}', "exact_match", "test")
    o = io.load(HELM / "simple_mcqa", scorer="quasi_exact_match")
    for row in o.metadata["import_report"]["files"]:
        run = row["file"].split("/")[-2]
        entries = json.loads((HELM / "simple_mcqa" / run / "stats.json").read_text())
        head = next(e for e in entries if e["name"] == {"name": "quasi_exact_match",
                                                          "split": "test"})
        assert row["harness"]["name"] == "HELM stats.json quasi_exact_match (test)"
        assert row["harness"]["value"] == head["mean"]
    helm_fmt = io.load(HELM / "simple_mcqa", format="helm")  # run_spec/stats.json: siblings
    assert helm_fmt.R.tolist() == io.load(HELM / "simple_mcqa").R.tolist()


def test_helm_instances_of_several_splits_show_no_headline(tmp_path):
    """Instances of two splits (here the same run with half its stats relabelled 'valid'):
    stats.json has one value per split and our mean pools them, so none is shown."""
    run = _helm_run(tmp_path)
    per = json.loads((run / "per_instance_stats.json").read_text())
    for k, item in enumerate(per):
        for st in item["stats"]:
            st["name"]["split"] = "valid" if k % 2 else "test"
    (run / "per_instance_stats.json").write_text(json.dumps(per))
    row = io.load(run).metadata["import_report"]["files"][0]
    assert "harness" not in row
    assert any("come from 2 splits (test, valid)" in n for n in row["notes"])


def _texts(o) -> dict[tuple, dict]:
    """The sample store of ``o`` by (model, question, HELM's train trial): its position in R
    and its text fields ({} when it has none)."""
    if o.samples is None:
        return {}
    cols = ("trial", "input", "target", "reasoning", "output", "answer", "annotations",
            "metadata", "error", "prompt")
    return {(r["model"], r["question"], int(r["trial_id"])): {c: r.get(c) for c in cols}
            for r in o.samples.scan().collect().iter_rows(named=True)}


def test_helm_texts_are_helms_own_reading_of_scenario_state():
    """Each (model, instance, train trial): the question and completion texts kept from
    the run's scenario_state.json are what HELM reads in it (``from_json`` to its
    ScenarioState) and shows (helm-summarize's display_predictions.json: the predicted
    text and the letter mapped to its choice), at the cell of R that holds its score --
    whose exact_match is 1 exactly when the mapped answer is the correct reference. The
    prompt is the one sent (request.prompt: the in-context examples of its train trial,
    then the question)."""
    d = HELM / "simple_mcqa"
    o = io.load(d)
    texts = _texts(o)
    assert len(texts) == 2 * 5 * 2 and o.samples.columns == (
        "input", "target", "output", "answer", "metadata", "prompt")
    for r in reading(d)["runs"]:
        model = short(r["model"])
        m = o.models.index(model)
        states = {(s["instance_id"], s["train_trial_index"]): s for s in r["request_states"]
                  if not s["perturbation"]}
        sent = {(s["instance"]["id"], s["train_trial_index"]): s["request"]["prompt"]
                for s in json.loads((d / r["dir"].replace(":", "__") / "scenario_state.json")
                                    .read_text())["request_states"]}
        shown = [p for p in r["display_predictions"] if not p["perturbation"]]
        assert len(shown) == len(states) == 10
        for p in shown:
            key = (p["instance_id"], p["train_trial_index"])
            got, state = texts[(model, *key)], states[key]
            assert got["input"] == state["input"]
            assert got["target"] == "\n".join(x["text"] for x in state["references"]
                                              if "correct" in x["tags"])
            assert got["output"] == p["predicted_text"] == state["completions"][0]
            assert got["answer"] == p["mapped_output"]
            assert json.loads(got["metadata"]) == {"split": state["split"]}
            assert got["prompt"] == sent[key] and got["prompt"].endswith(
                f"Question: {state['input']}\nA. Even\nB. Odd\nAnswer:")
            assert got["reasoning"] is got["annotations"] is got["error"] is None
            q = o.questions.index(p["instance_id"])
            assert got["trial"] == p["train_trial_index"]
            assert o.R[m, q, got["trial"]] == (got["answer"] == got["target"])
    assert o.question_attributes == {"split": ("test",) * 5}


def test_helm_texts_literally():
    """The fixture's texts as helm-run wrote them (simple_mcqa: 'Is N even or odd?', the
    model answering a letter), for one instance and both models and trials."""
    o = io.load(HELM / "simple_mcqa")
    rows = o.samples.for_question("id60").sort("model", "trial")
    assert rows.select("model", "trial", "input", "target", "output", "answer").rows() == [
        ("alpha", 0, "Is 70 even or odd?", "Even", "B", "Odd"),
        ("alpha", 1, "Is 70 even or odd?", "Even", "A", "Even"),
        ("beta", 0, "Is 70 even or odd?", "Even", "B", "Odd"),
        ("beta", 1, "Is 70 even or odd?", "Even", "B", "Odd"),
    ]
    q = o.questions.index("id60")
    assert o.R[:, q].tolist() == [[0, 1], [0, 0]]
    assert o.samples.for_question("id38")["input"].unique().to_list() == ["Is 48 even or odd?"]
    assert rows["source"].to_list()[0] == (
        "simple_mcqa/simple_mcqa__model=scripted_alpha/per_instance_stats.json: item 0 "
        "(instance_id id60)")
    # the prompt sent: five in-context examples, sampled once per train trial, then the question
    shots = {0: [(16, "A"), (17, "B"), (10, "A"), (15, "B"), (20, "A")],
             1: [(12, "A"), (19, "B"), (10, "A")]}
    for t, prompt in zip(rows["trial"], rows["prompt"], strict=True):
        assert prompt.startswith("Answer the following questions with a single letter only."
                                 "\n\n" + "".join(f"Question: Is {n} even or odd?\nA. Even\n"
                                                   f"B. Odd\nAnswer: {a}\n\n"
                                                   for n, a in shots[t]))
        assert prompt.endswith("Question: Is 70 even or odd?\nA. Even\nB. Odd\nAnswer:")
        assert prompt.count("Question:") == 6


def test_helm_texts_size_checked_absent_unreadable_or_skipped(tmp_path, monkeypatch):
    """scenario_state.json's size is checked before it is opened: over
    SCENARIO_STATE_MAX_BYTES it is not read (here garbage, which read would say 'not
    HELM's'), with a note; at the limit its texts are kept and it is listed and hashed
    among the files read. Absent or not HELM's: the outcomes load as before, with a note
    saying why there are no texts. samples='skip' never opens it."""
    import hashlib

    from scorio_core.io import helm

    run = _helm_run(tmp_path)
    state = run / "scenario_state.json"
    size = state.stat().st_size
    want = io.load(run)
    assert len(_texts(want)) == 10
    listed = f"{run.name}/scenario_state.json"
    assert want.metadata["source_sha256_per_file"][listed] == hashlib.sha256(
        state.read_bytes()).hexdigest()
    monkeypatch.setattr(helm, "SCENARIO_STATE_MAX_BYTES", size)
    assert _texts(io.load(run)) == _texts(want)
    monkeypatch.setattr(helm, "SCENARIO_STATE_MAX_BYTES", size - 1)
    state.write_bytes(b"x" * size)
    o = io.load(run)
    assert o.samples is None and o.R.tolist() == want.R.tolist()
    note = next(n for n in o.metadata["import_report"]["files"][0]["notes"]
                if n.startswith("scenario_state.json is"))
    assert "SCENARIO_STATE_MAX_BYTES): not read, so the question and completion texts are " \
           "not kept" in note
    assert listed not in o.metadata["source_sha256_per_file"]
    monkeypatch.setattr(helm, "SCENARIO_STATE_MAX_BYTES", size)  # read now: garbage
    o = io.load(run)
    assert o.samples is None and o.R.tolist() == want.R.tolist()
    assert any(n.startswith("scenario_state.json beside it is not HELM's scenario state")
               for n in o.metadata["import_report"]["files"][0]["notes"])
    skipped = io.load(run, samples="skip")  # not opened: no note, not listed
    assert skipped.samples is None and skipped.R.tolist() == want.R.tolist()
    assert not any("scenario_state" in n for n in skipped.metadata["import_report"]["notes"])
    assert listed not in skipped.metadata["source_sha256_per_file"]
    state.unlink()
    o = io.load(run)
    assert o.samples is None and o.R.tolist() == want.R.tolist()
    assert any(n.startswith("no scenario_state.json beside it (HELM's prompts and "
                            "completions): the question and completion texts are not kept")
               for n in o.metadata["import_report"]["notes"])


def test_helm_texts_of_odd_request_states_never_fail_the_load(tmp_path):
    """Request states of other shapes than HELM's (an instance that is a string, a result
    that is a list, references that are not a list, a train trial that is a list, an
    invalid output_mapping_pattern, a failed request, one nested 100,000 deep): the
    outcomes load as before; what can be read is kept, the rest has no texts, with a note."""
    run = _helm_run(tmp_path)
    want = io.load(run)
    state = json.loads((run / "scenario_state.json").read_text())
    rs = state["request_states"]
    rs[0]["instance"] = "id60"
    rs[1]["result"] = ["A"]
    rs[2]["instance"]["references"] = "Even"
    rs[3]["train_trial_index"] = [0]
    rs[4]["result"] = {"success": False, "error": "rate limited", "completions": []}
    state["adapter_spec"]["output_mapping_pattern"] = "(["
    (run / "scenario_state.json").write_text(json.dumps(state))
    o = io.load(run)
    texts = _texts(o)
    assert o.R.tolist() == want.R.tolist() and len(texts) == 8
    # neither an instance that is not an object nor a trial that is not a number is matched
    assert ("alpha", "id60", 0) not in texts and ("alpha", "id74", 0) not in texts
    assert texts[("alpha", "id38", 0)]["error"] == "no result: HELM did not run this request"
    assert texts[("alpha", "id41", 0)]["target"] is None
    assert texts[("alpha", "id41", 0)]["input"] == "Is 51 even or odd?"
    assert texts[("alpha", "id56", 0)]["error"] == "rate limited"
    assert texts[("alpha", "id56", 0)]["output"] == ""  # no completion: HELM shows ''
    assert all(t["answer"] is None for t in texts.values())  # the pattern does not compile
    assert any(n.startswith("2 of the 10 (instance, train trial) records have no request "
                            "state in scenario_state.json: no texts for them")
               for n in o.metadata["import_report"]["notes"])
    deep = '{"adapter_spec": {}, "request_states": [' + "[" * 100_000 + "]" * 100_000 + "]}"
    (run / "scenario_state.json").write_text(deep)
    o = io.load(run)
    assert o.samples is None and o.R.tolist() == want.R.tolist()
    assert any(n.startswith("scenario_state.json beside it is not HELM's scenario state")
               for n in o.metadata["import_report"]["notes"])


def test_helm_texts_from_a_zip_and_from_uploads(tmp_path, monkeypatch):
    """A zip of the run directories keeps the same texts (scenario_state.json extracted
    when small enough; over the limit, or with samples='skip', it is left in the
    archive); so do a run's files uploaded together."""
    import zipfile

    from scorio_core.io import helm

    want = _texts(io.load(HELM / "simple_mcqa"))
    archive = tmp_path / "runs.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for f in sorted((HELM / "simple_mcqa").rglob("*")):
            if f.is_file():
                zf.write(f, f.relative_to(HELM).as_posix())
    assert _texts(io.load(archive)) == want
    assert io.load(archive, samples="skip").samples is None
    monkeypatch.setattr(helm, "SCENARIO_STATE_MAX_BYTES", 1000)
    o = io.load(archive)
    assert o.samples is None
    assert all(any(n.startswith("no scenario_state.json beside it") and "zip archive" in n
                   for n in f["notes"]) for f in o.metadata["import_report"]["files"])
    monkeypatch.undo()
    run = HELM / "simple_mcqa" / "simple_mcqa__model=scripted_beta"
    files = {n: (run / n).read_bytes() for n in (*NEEDED, "scenario_state.json")}
    assert _texts(io.load(files)) == {k: v for k, v in want.items() if k[0] == "beta"}


class _Counted(BytesIO):
    """A binary file that counts the bytes read from it."""

    n_read = 0

    def read(self, n=-1):
        out = super().read(n)
        self.n_read += len(out)
        return out


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64, 2**16])
def test_helm_files_are_decoded_one_value_at_a_time(monkeypatch, chunk):
    """One reader serves scenario_state.json and stats.json: it reads the file in chunks of
    any size (a character of several UTF-8 bytes cut between two) into the same request
    states and stat entries as json.loads, refuses a truncated file or one value over
    VALUE_MAX_CHARS (a request state, a stat entry alike), and reads no further than the
    value sought (find_stat, first_entry: bytes read counted)."""
    from scorio_core.io import helm

    monkeypatch.setattr(helm, "_CHUNK", chunk)
    run = HELM / "simple_mcqa" / "simple_mcqa__model=scripted_alpha"
    raw = (run / "scenario_state.json").read_bytes()
    doc = json.loads(raw)
    doc["request_states"][0]["result"]["completions"][0]["text"] = "Œ — 漢字 \U0001f600 \\ \""
    doc["annotator_specs"] = [{"class_name": "x", "args": {"n": 12345}}]
    for text in (raw, json.dumps(doc, indent=2, ensure_ascii=False).encode(), json.dumps(doc)
                 .encode()):
        want = json.loads(text)
        events = list(helm.scenario_state_events(_Counted(text)))
        assert events == [("adapter_spec", want["adapter_spec"]), ("request_states", None),
                          *[("request_state", r) for r in want["request_states"]],
                          *([("annotator_specs", want["annotator_specs"])]
                            if "annotator_specs" in want else [])]
    assert list(helm.scenario_state_events(_Counted(b' { "request_states" : [ ] } '))) == [
        ("request_states", None)]
    with pytest.raises(ValueError):
        list(helm.scenario_state_events(_Counted(raw[: len(raw) // 2])))
    with pytest.raises(ValueError, match="expected '{'"):
        list(helm.scenario_state_events(_Counted(b"[1, 2]")))
    stats = (run / "stats.json").read_bytes()
    entries = json.loads(stats)
    entries[1]["name"]["name"] = "Œ — 漢字 \U0001f600"
    for text in (stats, json.dumps(entries, indent=2, ensure_ascii=False).encode()):
        assert list(helm.json_list(_Counted(text))) == json.loads(text)
        fh = _Counted(text)
        last = json.loads(text)[-1]
        assert helm.find_stat(fh, last["name"]["name"], last["name"]["split"]) == last
        assert fh.n_read == len(text) or text[fh.n_read:].strip() == b"]"
        # the first entry sought or recognised: the bytes up to its end, at most doubled
        # (a value cut at a chunk's end is read again with twice the bytes), and one chunk
        chars = text.decode()
        end = len(chars[: json.JSONDecoder().raw_decode(chars, chars.index("{"))[1]].encode())
        fh = _Counted(text)
        first = helm.find_stat(fh, entries[0]["name"]["name"], entries[0]["name"]["split"])
        assert first == entries[0] and fh.n_read <= 2 * end + chunk
        fh = _Counted(text + b"not JSON" * 20_000)  # the rest is neither read nor decoded
        assert helm.first_entry(fh) == entries[0] and fh.n_read <= 2 * end + chunk
    assert list(helm.json_list(_Counted(b" [ ] "))) == []
    assert helm.first_entry(_Counted(b" [ ] ")) is helm.first_entry(_Counted(b"{}")) is None
    assert helm.first_entry(_Counted(stats[: len(stats) // 2])) == entries[0]
    assert helm.first_entry(_Counted(stats[:100])) is None
    with pytest.raises(ValueError):
        list(helm.json_list(_Counted(stats[: len(stats) // 2])))
    monkeypatch.setattr(helm, "VALUE_MAX_CHARS", 100)
    for read in (lambda: list(helm.scenario_state_events(_Counted(raw))),
                 lambda: list(helm.json_list(_Counted(json.dumps([{"x": "y" * 200}]).encode())))):
        with pytest.raises(ValueError, match="one value is over 100 characters"):
            read()
    assert helm.first_entry(_Counted(json.dumps([{"x": "y" * 200}]).encode())) is None


def _per_choice_run(tmp_path: Path) -> Path:
    """The alpha run as a multiple-choice-separate method sends it (an edit of helm-run's
    files, not written by HELM): one request per choice (reference_index, its completion
    the instance's input then the choice, no output_mapping) and the predicted_index stat
    of each record, the choice scored -- here the one the joint run's letter named."""
    run = _helm_run(tmp_path)
    spec = json.loads((run / "run_spec.json").read_text())
    spec["adapter_spec"]["method"] = "multiple_choice_separate_original"
    (run / "run_spec.json").write_text(json.dumps(spec))
    state = json.loads((run / "scenario_state.json").read_text())
    state["adapter_spec"]["method"] = "multiple_choice_separate_original"
    picked, states = {}, []
    for rs in state["request_states"]:
        choices = [ref["output"]["text"] for ref in rs["instance"]["references"]]
        letter = rs["result"]["completions"][0]["text"].strip()
        picked[(rs["instance"]["id"], rs["train_trial_index"])] = choices.index(
            rs["output_mapping"][letter])
        for k, choice in enumerate(choices):
            one = json.loads(json.dumps(rs))
            del one["output_mapping"]
            one["reference_index"] = k
            text = f"{rs['instance']['input']['text']} {choice}"
            one["result"]["completions"] = [{"text": text, "logprob": -1.0 - k,
                                             "tokens": [{"text": text, "logprob": -1.0 - k}]}]
            states.append(one)
    state["request_states"] = states
    (run / "scenario_state.json").write_text(json.dumps(state, indent=2))
    per = json.loads((run / "per_instance_stats.json").read_text())
    for r in per:
        k = picked[(r["instance_id"], r["train_trial_index"])]
        r["stats"].append({"name": {"name": "predicted_index", "split": "test"}, "count": 1,
                           "sum": k, "sum_squared": k * k, "min": k, "max": k, "mean": k,
                           "variance": 0.0, "stdev": 0.0})
    (run / "per_instance_stats.json").write_text(json.dumps(per))
    return run


def test_helm_texts_of_a_method_with_one_request_per_choice(tmp_path):
    """Multiple-choice-separate methods: of the requests of a (instance, trial), the one of
    the choice in its predicted_index stat is shown (HELM's run page does the same), its
    completion without the input it repeats, answer = that choice; a record without the
    stat has no texts, with a note."""
    run = _per_choice_run(tmp_path)
    joint = _texts(io.load(_helm_run(tmp_path / "joint")))
    texts = _texts(io.load(run))
    assert len(texts) == 10
    for key, got in texts.items():
        assert got["answer"] == joint[key]["answer"]  # the choice the letter named
        assert got["output"] == " " + got["answer"]
        assert got["input"] == joint[key]["input"] and got["target"] == joint[key]["target"]
    assert texts[("alpha", "id60", 0)]["output"] == " Odd"
    per = json.loads((run / "per_instance_stats.json").read_text())
    per[0]["stats"] = [s for s in per[0]["stats"] if s["name"]["name"] != "predicted_index"]
    (run / "per_instance_stats.json").write_text(json.dumps(per))
    o = io.load(run)
    assert len(_texts(o)) == 9 and ("alpha", "id60", 0) not in _texts(o)
    assert any(n.startswith("1 of the 10 (instance, train trial) records have no request "
                            "state in scenario_state.json for the choice of their "
                            "predicted_index stat") for n in o.metadata["import_report"]["notes"])


def test_helm_texts_keep_thinking_annotations_and_the_prompt_sent(tmp_path, monkeypatch):
    """A thinking model's text is kept as 'reasoning' (HELM's page: "Thinking"), a request
    state's annotations (a judge's verdict) as 'annotations' (their JSON), and the prompt
    sent as 'prompt' -- its chat messages ('role: content' lines) or the text of a
    multimodal prompt (an image as its type and location) when it has no prompt text. Each
    is cut at the sample store's MAX_TEXT as it is read, once (the store does not cut it
    again), and the Pair view's flip table shows them beside each trial's answer."""
    from scorio_core import samples
    from scorio_core.engines.pair import flip_table

    run = _annotated_run(tmp_path)
    _helm_run(tmp_path, "beta")  # as helm-run wrote it
    o = io.load(tmp_path)
    texts = _texts(o)
    assert o.samples.columns == ("input", "target", "reasoning", "output", "answer",
                                 "annotations", "metadata", "prompt")
    for (model, q, t), got in texts.items():
        assert got["reasoning"] == (THINKING.get((q, t)) if model == "alpha" else None)
        assert (json.loads(got["annotations"]) if got["annotations"] else None) == (
            ANNOTATIONS.get((q, t)) if model == "alpha" else None)
    assert texts[("alpha", "id38", 0)]["prompt"] == (
        "system: Answer with a single letter.\nuser: Is 48 even or odd?\nA. Even\nB. Odd")
    assert texts[("alpha", "id41", 0)]["prompt"] == (
        "Which number is shown? Even or odd?\n[image/png: https://example.org/51.png]")
    assert texts[("alpha", "id60", 0)]["output"] == "B"  # the answer, not the thinking
    flips = flip_table(o, "alpha", "beta", "id60").trials
    assert flips[["trial", "reasoning_a", "answer_a", "answer_b"]].values.tolist() == [
        [0, THINKING[("id60", 0)], "Odd", "Odd"], [1, THINKING[("id60", 1)], "Even", "Odd"]]
    assert json.loads(flips["annotations_a"][0]) == ANNOTATIONS[("id60", 0)]
    assert flips["reasoning_b"].isna().all() and flips["prompt_b"].str.endswith(
        "Question: Is 70 even or odd?\nA. Even\nB. Odd\nAnswer:").all()
    monkeypatch.setattr(samples, "MAX_TEXT", 60)
    sent = {(rs["instance"]["id"], rs["train_trial_index"]): rs["request"]["prompt"]
            for rs in json.loads((run / "scenario_state.json").read_text())["request_states"]}
    cut = _texts(io.load(run))
    assert cut[("alpha", "id60", 0)]["reasoning"] == THINKING[("id60", 0)]  # under 60
    for (_, q, t), got in cut.items():
        if sent[(q, t)]:  # over 60 characters: cut once, saying how much is left out
            assert got["prompt"] == sent[(q, t)][:60] + (
                f"\n[... cut: {len(sent[(q, t)]) - 60:,} more characters not kept by the "
                "sample store]")


def test_helm_texts_of_completions_with_multimodal_content(tmp_path):
    """A completion with multimodal_content (HELM 0.5.16, run_display): the predicted text
    is the text of its text parts (joined with nothing between, MultimediaObject.text),
    a space, then the completion's text; each other medium (a generated image, which
    HELM's page shows in place of the text when it is the first) follows as its type and
    location. The answer maps the completion's own text (HELM maps it before adding the
    media's text). Other completions are as helm-run wrote them; a request with several
    completions, each with its image, says that HELM's page shows the image of each."""
    image = str(tmp_path / "generated" / "id38_0.png")
    run = _multimodal_outputs(_helm_run(tmp_path), image)
    texts = _texts(io.load(run))
    plain = _texts(io.load(_helm_run(tmp_path / "plain")))
    got = {k[1:]: (v["output"], v["answer"]) for k, v in texts.items() if k[1:] in MEDIA_OUTPUTS}
    assert got == {
        ("id60", 1): ("Heard: is 70 even or odd? A", "Even"),
        ("id38", 1): (f"[image/png: {image}]", None),  # no text: the image alone
        ("id41", 1): (f"Drawn: **41** A\n[image/png: {image}]", "Even"),
    }
    assert {k: v for k, v in texts.items() if k[1:] not in MEDIA_OUTPUTS} == {
        k: v for k, v in plain.items() if k[1:] not in MEDIA_OUTPUTS}
    # an image request with two completions, each with its image: the first is kept, said
    state = json.loads((run / "scenario_state.json").read_text())
    rs = next(r for r in state["request_states"]
              if (r["instance"]["id"], r["train_trial_index"]) == ("id38", 1))
    rs["result"]["completions"].append(json.loads(json.dumps(rs["result"]["completions"][0])))
    (run / "scenario_state.json").write_text(json.dumps(state))
    o = io.load(run)
    assert _texts(o)[("alpha", "id38", 1)]["output"] == f"[image/png: {image}]"
    (note,) = [n for n in o.metadata["import_report"]["files"][0]["notes"]
               if "several completions" in n]
    assert note == (
        "1 request in scenario_state.json has several completions: the first is shown, as "
        "HELM's run page does (1 with a generated image in every completion, which HELM's "
        "page shows for each completion: the first completion's is kept)")


NEEDED = ("per_instance_stats.json", "run_spec.json")


def _helm_part_files(run: Path) -> dict[str, bytes]:
    """The files of a HELM run other than its outcomes, as helm-run 0.5.16 writes them (the
    fixture's own; a display file with HELM's keys and one row)."""
    files = {n: (run / n).read_bytes()
             for n in ("scenario.json", "run_spec.json", "stats.json", "scenario_state.json")}
    files["display_predictions.json"] = json.dumps([
        {"instance_id": "id60", "train_trial_index": 0, "predicted_text": "B",
         "stats": {"exact_match": 0.0}}]).encode()  # fmt: skip
    return files


@pytest.mark.parametrize("name", ["scenario.json", "run_spec.json", "stats.json",
                                  "scenario_state.json", "display_predictions.json"])
def test_a_helm_run_file_alone_says_what_the_importer_needs(tmp_path, name):
    """One file of a HELM run without its per_instance_stats.json -- loaded from disk,
    uploaded (bytes with their name), uploaded renamed, or checked against current data
    (io.upload) -- is recognised by its keys as that file of a HELM run and refused with
    what the importer needs; the run's directory on disk is named when it holds them."""
    from scorio_core.io.upload import check_upload

    run = HELM / "simple_mcqa" / "simple_mcqa__model=scripted_alpha"
    data = _helm_part_files(run)[name]
    missing = [n for n in NEEDED if n != name]
    said = (rf"{name}: a file of a HELM run \({name}: .*\), not its outcomes\. HELM's outcomes "
            r"are read from the run's per_instance_stats\.json with the run_spec\.json beside "
            r"it.*Not among the files given: " + ", ".join(missing).replace(".", r"\.") + "$")
    (tmp_path / name).write_bytes(data)
    with pytest.raises(ValidationError, match=said) as exc:
        io.load(tmp_path / name)
    assert "Load the run directory (benchmark_output/runs/<suite>/<run>/) or a zip" in str(
        exc.value)
    with pytest.raises(ValidationError, match=said):
        io.load(data, filename=name)
    with pytest.raises(ValidationError, match=rf"^upload\.json \(HELM's {name}\): a file of a "
                       r"HELM run"):
        io.load(data, filename="upload.json")
    with pytest.raises(ValidationError, match=said):
        check_upload(io.load(run), data, filename=name)
    if (run / name).is_file():  # beside its outcomes on disk: load that directory
        with pytest.raises(ValidationError, match=r"Load its directory \(.*scripted_alpha\), "
                           r"which holds per_instance_stats\.json and run_spec\.json\."):
            io.load(run / name)


def test_helm_run_files_without_outcomes_together_and_in_a_folder(tmp_path):
    """All of a run's files but per_instance_stats.json, uploaded together or in a folder
    (where HELM's other files are not opened): one message naming each file found; a file
    called stats.json that is not HELM's list is an unknown JSON file, not a HELM file."""
    run = HELM / "simple_mcqa" / "simple_mcqa__model=scripted_alpha"
    files = _helm_part_files(run)
    with pytest.raises(ValidationError, match=r"^scenario\.json, run_spec\.json, stats\.json, "
                       r"scenario_state\.json, display_predictions\.json: files of a HELM run "
                       r"\(scenario\.json: .*; run_spec\.json: the run's settings, which name "
                       r"the model; .*Not among the files given: per_instance_stats\.json$"):
        io.load(files)
    folder = tmp_path / "run"
    folder.mkdir()
    for n in ("scenario.json", "stats.json"):
        (folder / n).write_bytes(files[n])
    with pytest.raises(ValidationError, match=r"^run/scenario\.json, run/stats\.json: files of a "
                       r"HELM run .*Not among the files given: per_instance_stats\.json, "
                       r"run_spec\.json$"):
        io.load(folder)
    (folder / "run_spec.json").write_bytes(files["run_spec.json"])  # read: no outcomes
    with pytest.raises(ValidationError, match=r"^run/run_spec\.json: a file of a HELM run .*Not "
                       r"among the files given: per_instance_stats\.json$"):
        io.load(folder)
    with pytest.raises(ValidationError, match=r"^stats\.json: a JSON file that is neither an "
                       r"Inspect log .* nor a file of a HELM run"):
        io.load(b'{"hello": 1}', filename="stats.json")


def test_a_lone_helm_stats_json_is_recognised_from_its_first_entry(tmp_path, monkeypatch):
    """A file called stats.json named alone is recognised as HELM's from its first entry,
    read only that far: followed by megabytes that are not JSON it is still HELM's stats.json
    (refused with what the importer needs), and the file is read up to a chunk past that
    entry; a first entry over VALUE_MAX_CHARS, or not a list, is an unknown JSON file."""
    from scorio_core.io import helm

    entries = json.loads((HELM / "simple_mcqa" / "simple_mcqa__model=scripted_alpha" /
                          "stats.json").read_text())
    head = ("[" + json.dumps(entries[0]) + ",").encode()
    (tmp_path / "stats.json").write_bytes(head + b"not JSON " * 2**18)  # 2.3 MB
    read_to = []
    first_entry = helm.first_entry

    def counted(fh):
        out = first_entry(fh)
        read_to.append(fh.tell())
        return out

    monkeypatch.setattr(helm, "first_entry", counted)
    with pytest.raises(ValidationError, match=r"^stats\.json: a file of a HELM run \(stats\.json: "
                       r"HELM's aggregate stats of the run\), not its outcomes"):
        io.load(tmp_path / "stats.json")
    assert read_to and read_to[0] <= 2 * len(head) + helm._CHUNK < 2**18
    monkeypatch.setattr(helm, "VALUE_MAX_CHARS", len(head) - 5)
    for data in (head + b"]", b'{"name": {"name": "exact_match"}, "count": 2}'):
        (tmp_path / "stats.json").write_bytes(data)
        with pytest.raises(ValidationError, match=r"^stats\.json: a JSON file that is neither "
                           r"an Inspect log"):
            io.load(tmp_path / "stats.json")


def test_helm_runs_of_a_suite_are_never_parsed_whole(tmp_path, monkeypatch):
    """A folder of HELM runs: each per_instance_stats.json is recognised from its first
    entry and decoded one record at a time when its run is read, never parsed whole (they
    had all been parsed when the folder was listed and held to the end of the load, then
    each parsed whole when read: 56 MB of stats took 315 MiB); a stats file that is not
    JSON past its first entry is still refused as not JSON, naming it."""
    from scorio_core.io import _dispatch, helm

    for model in ("alpha", "beta"):
        _helm_run(tmp_path, model)
    whole = io.load(tmp_path)
    done: list[str] = []
    json_or_none, read_stats = _dispatch._json_or_none, helm.read_stats

    def parse(src):
        if src.label.endswith("per_instance_stats.json"):
            done.append("parse " + src.label.split("scripted_")[1].split("/")[0])
        return json_or_none(src)

    def read(src, *args):
        done.append("read " + src.label.split("scripted_")[1].split("/")[0])
        return read_stats(src, *args)

    monkeypatch.setattr(_dispatch, "_json_or_none", parse)
    monkeypatch.setattr(helm, "read_stats", read)
    again = io.load(tmp_path)
    assert done == ["read alpha", "read beta"]
    assert again.models == whole.models and np.array_equal(again.R, whole.R)
    stats = tmp_path / "simple_mcqa__model=scripted_beta" / "per_instance_stats.json"
    entries = json.loads(stats.read_text())
    stats.write_text("[" + json.dumps(entries[0]) + ", not JSON]")
    with pytest.raises(ValidationError, match=r"simple_mcqa__model=scripted_beta/"
                       r"per_instance_stats\.json: not JSON \("):
        io.load(tmp_path)


@pytest.mark.parametrize("scorer", [None, "exact_match", "num_output_tokens", "no_such"])
@pytest.mark.parametrize("edit", ["as_written", "no_exact_match", "perturbed", "no_id"])
def test_helm_stats_decoded_a_record_at_a_time_read_as_the_parsed_list(tmp_path, scorer,
                                                                       edit):
    """per_instance_stats.json decoded one record at a time (what a load does) gives the
    part its parsed list gives -- every record, value, place, error, text, note and HELM's
    headline -- for the default stat, one asked for, one read in a second pass (no
    exact_match: the first stat, told in a note) and a stat it lacks (the same refusal);
    perturbed copies are skipped and an item without an instance_id refused as before."""
    from scorio_core.io import helm
    from scorio_core.io._base import _Src

    run = _annotated_run(tmp_path)
    path = run / "per_instance_stats.json"
    records = json.loads(path.read_text())
    if edit == "no_exact_match":
        for r in records:
            r["stats"] = [s for s in r["stats"] if s["name"]["name"] != "exact_match"]
    elif edit == "perturbed":  # HELM's perturbed copies: skipped, their stats unread
        records[3:3] = [records[0] | {"perturbation": {"name": "typos"}, "stats": [
            {"name": {"name": "only_perturbed", "split": "test"}, "count": 1, "mean": 1}]}]
    elif edit == "no_id":
        records[4] = {k: v for k, v in records[4].items() if k != "instance_id"}
    path.write_text(json.dumps(records))
    siblings = {f"run/{p.name}": _Src(f"run/{p.name}", path=p) for p in run.iterdir()}
    src = siblings["run/per_instance_stats.json"]

    def read(obj):
        try:
            return helm.read_stats(src, obj, scorer, siblings)
        except ValidationError as exc:
            return type(exc), str(exc)

    streamed, parsed = read(None), read(json.loads(path.read_text()))
    assert streamed == parsed
    lacks = scorer == "no_such" or (edit == "no_exact_match" and scorer == "exact_match")
    assert isinstance(parsed, tuple) == (lacks or edit == "no_id")
    if isinstance(parsed, tuple):  # refused alike: a stat the run lacks, then an item
        assert (f"no stat {scorer!r}" if lacks else "item 4 has no 'instance_id'") in parsed[1]
        return
    assert len(streamed.values) == 10 and streamed.harness is not None
    assert streamed.scorer == (scorer or ("num_references" if edit == "no_exact_match"
                                          else "exact_match"))
    assert sum(t is not None and t["input"] is not None for t in streamed.texts) == 10
    path.write_text(json.dumps(records) + " not JSON")  # json.loads refuses it: so do we
    with pytest.raises(ValidationError, match=r"per_instance_stats\.json: not JSON \(extra"):
        helm.read_stats(src, None, scorer, siblings)


def test_a_helm_run_uploaded_file_by_file_loads_as_its_folder(tmp_path):
    """A run's files selected together in the uploader (its scenario.json and
    scenario_state.json among them) load as the run directory does -- they had been
    refused as 'unknown JSON' -- texts included, and so does its per_instance_stats.json
    named alone on disk (its run_spec.json, stats.json and scenario_state.json read beside
    it, and listed among the files read)."""
    from scorio_core.io.upload import check_upload

    run = HELM / "simple_mcqa" / "simple_mcqa__model=scripted_alpha"
    want = io.load(run)
    files = _helm_part_files(run) | {"per_instance_stats.json":
                                     (run / "per_instance_stats.json").read_bytes()}
    got = io.load(files)
    assert (got.models, got.questions, got.R.tolist()) == (want.models, want.questions,
                                                           want.R.tolist())
    row = got.metadata["import_report"]["files"][0]
    assert row["harness"]["value"] == pytest.approx(float(want.R.mean()), abs=1e-12)
    assert _texts(got) == _texts(want) and len(_texts(want)) == 10
    beta = HELM / "simple_mcqa" / "simple_mcqa__model=scripted_beta"
    chk = check_upload(want, _helm_part_files(beta) | {
        "per_instance_stats.json": (beta / "per_instance_stats.json").read_bytes()})
    assert chk.new.models == ("beta",) and "add" in chk.choices
    alone = io.load(run / "per_instance_stats.json")
    assert (alone.models, alone.R.tolist()) == (want.models, want.R.tolist())
    assert set(alone.metadata["source_sha256_per_file"]) == {
        "per_instance_stats.json", "run_spec.json", "stats.json", "scenario_state.json"}
    assert _texts(alone) == _texts(want)


# ----------------------------------------- the stored readings are the harness's (live)
def test_stored_openai_evals_readings_are_evals_own(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-none")  # evals builds a client at import
    log_utils = pytest.importorskip("evals.utils.log_utils")
    for d in sorted(p for p in OPENAI_EVALS.iterdir() if p.is_dir()):
        for log in reading(d)["logs"]:
            path = d / log["file"]
            assert log_utils.extract_spec(path) == log["spec"]
            assert log_utils.extract_final_results(path) == log["final_report"]
            assert log_utils.extract_individual_results(path, "match") == log["match_data"]
            if "metrics_data" in log:
                got = log_utils.extract_individual_results(path, "metrics")
                assert got == log["metrics_data"]
            if "modelgraded_spec" in log:  # evals' own registry, as generate.py wrote it
                from evals.elsuite.modelgraded.classify_utils import get_choice_score

                spec = log["modelgraded_spec"]
                for e in log["metrics"]:
                    assert get_choice_score(e["choice"], spec["choice_strings"],
                                            spec["choice_scores"]) == e["score"]


def test_stored_helm_readings_are_helms_own():
    pytest.importorskip("helm.benchmark.metrics.metric")
    from helm.benchmark.metrics.metric import PerInstanceStats
    from helm.benchmark.metrics.statistic import Stat
    from helm.common.codec import from_json

    for r in reading(HELM / "simple_mcqa")["runs"]:
        d = HELM / "simple_mcqa" / r["dir"].replace(":", "__")
        per = from_json((d / "per_instance_stats.json").read_text(), list[PerInstanceStats])
        assert [(p.instance_id, p.train_trial_index) for p in per] == [
            (i["instance_id"], i["train_trial_index"]) for i in r["instances"]
        ]
        stats = from_json((d / "stats.json").read_text(), list[Stat])
        assert [{"name": s.name.name, "split": s.name.split, "sub_split": s.name.sub_split,
                 "count": s.count, "mean": s.mean} for s in stats
                if s.name.name in ("exact_match", "num_train_trials")
                and s.name.perturbation is None] == r["stats"]


def test_helm_texts_are_what_helm_reads_and_shows(tmp_path):
    """Live (HELM installed): each run's scenario_state.json read by HELM itself
    (``from_json`` to ScenarioState) and HELM's own display predictions made from it
    (``write_run_display_json``, as helm-summarize does) equal the stored reading and every
    text we keep -- for the runs as helm-run wrote them and for the one-request-per-choice
    edit of a run."""
    pytest.importorskip("helm.benchmark.presentation.run_display")
    from helm.benchmark.adaptation.scenario_state import ScenarioState
    from helm.benchmark.presentation.run_display import (
        DisplayPrediction,
        write_run_display_json,
    )
    from helm.benchmark.presentation.schema import Schema
    from helm.benchmark.run_spec import RunSpec
    from helm.common.codec import from_json

    def helms(run: Path) -> tuple[ScenarioState, list]:
        out = tmp_path / "display" / f"{run.parent.name}-{run.name}"
        shutil.copytree(run, out)
        spec = from_json((run / "run_spec.json").read_text(), RunSpec)
        write_run_display_json(str(out), spec, Schema(), skip_completed=False)
        return (from_json((run / "scenario_state.json").read_text(), ScenarioState),
                from_json((out / "display_predictions.json").read_text(),
                          list[DisplayPrediction]))

    def compare(state: ScenarioState, shown: list, model: str, texts: dict) -> int:
        inst = {(r.instance.id, r.train_trial_index): r.instance for r in state.request_states
                if r.instance.perturbation is None}
        picked = {(p.instance_id, p.train_trial_index): p.reference_index for p in shown}
        sent = {(r.instance.id, r.train_trial_index): r.request for r in state.request_states
                if r.instance.perturbation is None
                and r.reference_index == picked[(r.instance.id, r.train_trial_index)]}
        for p in shown:
            got = texts[(model, p.instance_id, p.train_trial_index)]
            i = inst[(p.instance_id, p.train_trial_index)]
            assert got["input"] == i.input.text
            assert got["target"] == "\n".join(r.output.text for r in i.references if r.is_correct)
            assert got["output"] == (p.truncated_predicted_text or p.predicted_text)
            chosen = (p.mapped_output if p.reference_index is None
                      else i.references[p.reference_index].output.text)
            assert got["answer"] == chosen
            assert got["reasoning"] == p.thinking_text  # HELM's page: "Thinking"
            assert (json.loads(got["annotations"]) if got["annotations"] else None) == \
                p.annotations
            req = sent[(p.instance_id, p.train_trial_index)]
            media = req.multimodal_prompt.media_objects if req.multimodal_prompt else []
            assert got["prompt"] == (  # HELM's page: the prompt, else the media, else chat
                req.prompt or "\n".join(m.text if m.text is not None
                                        else f"[{m.content_type}: {m.location}]"
                                        for m in media)
                or "\n".join(f"{m['role']}: {m['content']}" for m in req.messages or []))
        return len(shown)

    d = HELM / "simple_mcqa"
    texts = _texts(io.load(d))
    for r in reading(d)["runs"]:
        run = d / r["dir"].replace(":", "__")
        state, shown = helms(run)
        assert [{"instance_id": x.instance.id, "train_trial_index": x.train_trial_index,
                 "perturbation": x.instance.perturbation is not None, "split": x.instance.split,
                 "input": x.instance.input.text,
                 "references": [{"text": ref.output.text, "tags": ref.tags}
                                for ref in x.instance.references],
                 "output_mapping": x.output_mapping,
                 "completions": [c.text for c in x.result.completions]}
                for x in state.request_states] == r["request_states"]
        assert [{"instance_id": p.instance_id, "train_trial_index": p.train_trial_index,
                 "perturbation": p.perturbation is not None, "predicted_text": p.predicted_text,
                 "mapped_output": p.mapped_output} for p in shown] == r["display_predictions"]
        assert compare(state, shown, short(r["model"]), texts) == 10
    run = _per_choice_run(tmp_path / "separate")
    assert compare(*helms(run), "alpha", _texts(io.load(run))) == 10
    run = _annotated_run(tmp_path / "annotated")  # thinking, annotations, chat, multimodal
    state, shown = helms(run)
    assert {(p.instance_id, p.train_trial_index): p.thinking_text for p in shown
            if p.thinking_text} == THINKING
    assert {(p.instance_id, p.train_trial_index): p.annotations for p in shown
            if p.annotations} == ANNOTATIONS
    assert compare(state, shown, "alpha", _texts(io.load(run))) == 10


def test_helm_multimodal_predictions_are_what_helm_shows(tmp_path):
    """Live (HELM installed): completions with multimodal_content (a transcript in two text
    parts; a generated image alone; text, an image and text) read by HELM itself, and
    HELM's own display predictions made from them (write_run_display_json): our output is
    HELM's predicted text, then each other medium of the completion as its type and
    location -- the image HELM's page shows (a completion's first medium) is the file at
    a location we name -- and our answer is HELM's mapped output."""
    pytest.importorskip("helm.benchmark.presentation.run_display")
    image_mod = pytest.importorskip("PIL.Image")
    from helm.benchmark.adaptation.scenario_state import ScenarioState
    from helm.benchmark.presentation.run_display import (
        DisplayPrediction,
        write_run_display_json,
    )
    from helm.benchmark.presentation.schema import Schema
    from helm.benchmark.run_spec import RunSpec
    from helm.common.codec import from_json
    from helm.common.images_utils import encode_base64

    image = tmp_path / "generated.png"  # HELM requires a local image to exist
    image_mod.new("RGB", (6, 4), (200, 30, 30)).save(image)
    run = _multimodal_outputs(_helm_run(tmp_path / "runs"), str(image))
    out = tmp_path / "display"
    shutil.copytree(run, out)
    write_run_display_json(str(out), from_json((run / "run_spec.json").read_text(), RunSpec),
                           Schema(), skip_completed=False)
    shown = from_json((out / "display_predictions.json").read_text(), list[DisplayPrediction])
    state = from_json((run / "scenario_state.json").read_text(), ScenarioState)
    first = {(r.instance.id, r.train_trial_index): r.result.completions[0]
             for r in state.request_states}
    texts = _texts(io.load(run))
    images = 0
    for p in shown:
        key = (p.instance_id, p.train_trial_index)
        got, media = texts[("alpha", *key)], first[key].multimodal_content
        others = [m for m in (media.media_objects if media else []) if not m.is_type("text")]
        assert got["output"] == "\n".join(
            ([p.predicted_text] if p.predicted_text or not others else [])
            + [f"[{m.content_type}: {m.location}]" for m in others])
        assert got["answer"] == p.mapped_output
        # the image HELM's page shows is the file at a location our output names
        named = [m.location for m in others if f"[{m.content_type}: {m.location}]" in
                 got["output"]]
        assert p.base64_images == [encode_base64(loc) for loc in named
                                   if loc == media.media_objects[0].location]
        images += len(p.base64_images)
        if key in MEDIA_OUTPUTS and media.text:
            assert p.predicted_text == f"{media.text} {first[key].text}"
    assert images == 1 and len(shown) == 10  # id38's: id41's image is not its first medium


# ------------------------------------------------- OpenAI evals: model-graded (metrics)
GRADED = ["modelgraded", "modelgraded_partial", "modelgraded_repeated"]


@pytest.mark.parametrize("case", GRADED)
def test_openai_evals_model_graded_logs_agree_with_oaieval(case):
    """oaieval's own logs of ModelBasedClassify (`oaieval MODEL,grader EVAL`): no match
    events; each metrics event holds the grader's choice and score. Model = the
    completion fns before the grader (the last one); one trial per metrics event of a
    sample_id (event_id order); every cell is evals' score (Y/N: 1/0, an unparsable reply
    '__invalid__' the lowest; A/B/C: 1/0.5/0) and our mean is final_report's score."""
    d = OPENAI_EVALS / case
    logs = reading(d)["logs"]
    o = io.load(d)
    assert sorted(o.models) == sorted(log["spec"]["completion_fns"][0] for log in logs)
    assert all(log["spec"]["completion_fns"][-1] == "grader" for log in logs)
    assert o.benchmark_names == [logs[0]["spec"]["base_eval"]]
    rows = {f["model"]: f for f in o.metadata["import_report"]["files"]}
    w = weights_of(o)
    for log in logs:
        m = o.models.index(log["spec"]["completion_fns"][0])
        assert not log["matches"] and len(log["metrics"]) == len(log["metrics_data"])
        per_q: dict[str, list[float]] = {}
        for ev in sorted(log["metrics"], key=lambda e: e["event_id"]):
            per_q.setdefault(ev["sample_id"], []).append(ev["score"])
        assert sorted(o.questions) == sorted(per_q)
        assert o.N == max(len(v) for v in per_q.values()) == (3 if "repeated" in case else 1)
        for sid, scores in per_q.items():
            assert w[m, o.questions.index(sid)].tolist() == pytest.approx(scores)
        score = log["final_report"]["score"]  # ModelBasedClassify: the mean of the scores
        assert score == pytest.approx(np.mean([e["score"] for e in log["metrics"]]))
        assert w[m].mean() == pytest.approx(score, abs=1e-12)
        row = rows[o.models[m]]
        assert row["harness"]["name"] == "OpenAI evals final_report score"
        assert row["harness"]["value"] == pytest.approx(score)
        assert row["mean"] == pytest.approx(score, abs=1e-6)
        assert row["scorer"] == "grader score"
        note = next(n for n in row["notes"] if n.startswith("model-graded eval"))
        assert "the outcome is the grader's score" in note and "'grader'" in note
        invalid = sum(e["choice"] == "__invalid__" for e in log["metrics"])
        assert any("`__invalid__`" in n for n in row["notes"]) == bool(invalid)
    if case == "modelgraded_partial":  # A/B/C: three categories weighted 0, 0.5, 1
        assert list(o.weights) == [0.0, 0.5, 1.0]
        assert {e["choice"] for log in logs for e in log["metrics"]} == {"A", "B", "C"}


def test_openai_evals_model_graded_texts_are_the_answer_and_the_verdict():
    """With the texts kept, each graded answer shows the model's prompt and answer (its
    first sampling event) and the grader's choice and reply (the last one)."""
    from scorio_core.io import openai_evals
    from scorio_core.io._base import _Src

    path = OPENAI_EVALS / "modelgraded_repeated" / "alpha.jsonl"
    part = openai_evals.read_events(_Src(path.name, path))
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    events = sorted((r for r in rows if "type" in r), key=lambda r: r["event_id"])
    got = dict(zip(zip(part.questions, part.trials, strict=True), part.texts, strict=True))
    seen: dict[str, int] = {}
    sampled: dict[str, list[dict]] = {}
    for ev in events:
        sid = ev["sample_id"]
        if ev["type"] == "sampling":
            sampled.setdefault(sid, []).append(ev["data"])
            continue
        trial = seen.get(sid, 1)  # a sample's events numbered from 1, in event order
        seen[sid] = trial + 1
        model_ev, grader_ev = sampled.pop(sid)
        assert model_ev["model"] == "alpha" and grader_ev["model"] == "grader"
        text = got[(sid, trial)]
        assert text["input"] == model_ev["prompt"] and text["output"] == model_ev["sampled"]
        assert text["answer"] == ev["data"]["choice"]
        assert text["explanation"] == grader_ev["sampled"]


def test_openai_evals_model_graded_without_choice_scores_is_refused():
    """A modelgraded spec without choice_scores: evals records the choice and score None
    for every sample (its final_report holds only counts): refused, saying why."""
    d = OPENAI_EVALS / "modelgraded_unscored"
    log = reading(d)["logs"][0]
    assert all(e["score"] is None for e in log["metrics"]) and "score" not in log["final_report"]
    with pytest.raises(ValidationError, match=r"a model-graded eval \(modelgraded_spec "
                       r"'arith_unscored', grader 'grader'\) whose 6 'metrics' events have no "
                       r"data.score.*no choice_scores"):
        io.load(d)


def test_openai_evals_from_strings_scores_get_their_range_from_the_log():
    """A 1-5 modelgraded spec (choice_strings "12345", choice_scores from_strings, as evals'
    Registry reads it) run by oaieval with eval_type in the eval's args: the grader's
    prompt lists the choices, so the range 1..5 is inferred (not the 1..4 the grader
    happened to use), noted, and every cell is evals' data.score on it; final_report's
    score is our mean on the 1..5 scale, and a note says so."""
    d = OPENAI_EVALS / "modelgraded_likert"
    logs = reading(d)["logs"]
    spec = logs[0]["modelgraded_spec"]
    assert spec["choice_scores"] == "from_strings"
    lo, hi = min(map(float, spec["choice_strings"])), max(map(float, spec["choice_strings"]))
    o = io.load(d)
    assert o.metadata["score_range"] == [lo, hi] == [1.0, 5.0]
    assert max(e["score"] for log in logs for e in log["metrics"]) == 4.0  # 5 never given
    rows = {f["model"]: f for f in o.metadata["import_report"]["files"]}
    w = weights_of(o)
    for log in logs:
        m = o.models.index(log["spec"]["completion_fns"][0])
        for ev in log["metrics"]:  # one answer per sample: trial 0
            cell = w[m, o.questions.index(ev["sample_id"]), 0]
            assert lo + (hi - lo) * cell == pytest.approx(ev["score"], abs=1e-12)
        invalid = [e for e in log["metrics"] if e["choice"] == "__invalid__"]
        assert invalid and all(e["score"] == lo for e in invalid)  # evals: the lowest
        score = log["final_report"]["score"]
        assert lo + (hi - lo) * w[m].mean() == pytest.approx(score, abs=1e-12)
        row = rows[o.models[m]]
        assert row["harness"]["value"] == score
        inferred = next(n for n in row["notes"] if n.startswith("score range 1..5 inferred"))
        assert "from_strings" in inferred and '"1" or "2" or "3" or "4" or "5"' in inferred
        assert any(n.startswith(f"{o.models[m]} on arith_likert: the harness value "
                                f"{score:.6g} is on the scores' scale 1..5")
                   and n.endswith(f"{(score - lo) / (hi - lo):.6g}") for n in row["notes"])
    # a range given wins, with a note; weights= reads whole-number categories instead
    o2 = io.load(d, score_range=(0, 5))
    assert o2.metadata["score_range"] == [0.0, 5.0]
    assert any("score_range=[0, 5] given: used instead of the score range 1..5" in n
               for n in o2.metadata["import_report"]["notes"])
    o3 = io.load(d, weights=[0, 0, 0.25, 0.5, 0.75, 1])
    np.testing.assert_allclose(weights_of(o3), w)


def test_openai_evals_from_strings_without_listed_choices_is_refused():
    """The same eval without eval_type in its args (the spec's own eval_type): evals does
    not list the choices in the grader's prompt and the log does not hold the spec, so the
    range cannot be known: refused, saying why; what it recommends works and agrees with
    the run whose prompt listed them."""
    d = OPENAI_EVALS / "modelgraded_likert_unlisted"
    log = reading(d)["logs"][0]
    assert "eval_type" not in log["spec"]["run_config"]["eval_spec"]["args"]
    with pytest.raises(ValidationError, match=r"outside \[0, 1\].*the modelgraded_spec "
                       r"'arith_likert' is not in the log and the grader's prompts list no "
                       r"choices: evals lists them only when the eval's args set eval_type.*"
                       r"give it, e.g. score_range=\[0, 10\]"):
        io.load(d)
    o = io.load(d, score_range=(1, 5))
    listed = io.load(OPENAI_EVALS / "modelgraded_likert" / "alpha.jsonl")
    assert o.R.tolist() == listed.R.tolist()
    assert [e["score"] for e in log["metrics"]] == [
        e["score"] for e in reading(OPENAI_EVALS / "modelgraded_likert")["logs"][0]["metrics"]]


def test_openai_evals_inferred_range_is_not_mixed_with_other_scores(tmp_path):
    """A 1..5 log loaded with a Y/N model-graded log (scores 0/1): one range would weight
    both, so the load is refused; a score that is not its choice's number means the spec's
    choice_scores are not from_strings: no range is inferred."""
    for case in ("modelgraded_likert", "modelgraded"):
        shutil.copy(OPENAI_EVALS / case / "alpha.jsonl", tmp_path / f"{case}.jsonl")
    with pytest.raises(ValidationError, match=r"modelgraded_likert.jsonl's scores lie on 1..5 "
                       r"\(.*modelgraded.jsonl's numeric scores have no stated range"):
        io.load(tmp_path)
    rows = _graded_lines("modelgraded_likert")
    ev = next(r for r in rows if r.get("type") == "metrics" and r["data"]["choice"] == "4")
    ev["data"]["score"] = 3.5
    with pytest.raises(ValidationError, match=r"the grader's choice '4' scored 3.5, not its "
                       r"number: the modelgraded_spec 'arith_likert''s choice_scores are not "
                       r"from_strings"):
        io.load(_write(tmp_path / "edited.jsonl", rows))


def test_listed_choices_reads_evals_answer_prompts():
    """The choices as evals' own answer prompts list them (classify_utils.ANSWER_PROMPTS,
    formatted by choice_to_str), the Japanese one too; other prompts list none."""
    from scorio_core.io.openai_evals import listed_choices

    path = OPENAI_EVALS / "modelgraded_likert" / "alpha.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    prompts = [r["data"]["prompt"] for r in rows if r.get("type") == "sampling"]
    assert {listed_choices(p) for p in prompts} == {("1", "2", "3", "4", "5"), None}
    jp = ('まず、一歩一歩あなたの推論を書き出してください。次に、"Yes" or "No" or "Unsure"'
          '（引用符や句読点なし）から正しい答えに対応する1つの選択肢を単独の行に書きだしてください。')
    assert listed_choices([{"role": "user", "content": jp}]) == ("Yes", "No", "Unsure")
    assert listed_choices('print "Y" or "N" on its own line') is None


def _graded_lines(case: str = "modelgraded", fn: str = "alpha") -> list[dict]:
    return [json.loads(x) for x in (OPENAI_EVALS / case / f"{fn}.jsonl").read_text().splitlines()]


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_openai_evals_match_events_win_over_metrics_with_a_note(tmp_path):
    """A model-graded log that also holds match events is read from the match events, as
    before, and the report says the metrics events were not read."""
    rows = _graded_lines()
    top = max(r["event_id"] for r in rows if "event_id" in r)
    sids = sorted({r["sample_id"] for r in rows if r.get("type") == "metrics"})
    rows += [{"run_id": "x", "event_id": top + 1 + k, "sample_id": sid, "type": "match",
              "data": {"correct": k % 2 == 0}} for k, sid in enumerate(sids)]  # fmt: skip
    o = io.load(_write(tmp_path / "both.jsonl", rows))
    assert o.models == ("alpha",)  # the grader is still not the model
    assert [int(o.R[0, o.questions.index(s), 0]) for s in sids] == [
        int(k % 2 == 0) for k in range(len(sids))
    ]
    row = o.metadata["import_report"]["files"][0]
    assert row["scorer"] == "match"
    assert any("6 'metrics' events (data: choice, score), not read" in n for n in row["notes"])
    # FuzzyMatch's own log (match and per-sample metrics events) says the same
    o = io.load(OPENAI_EVALS / "fuzzy_match")
    assert any("'metrics' events (data: accuracy, f1_score), not read" in n
               for n in o.metadata["import_report"]["notes"])


def test_openai_evals_model_graded_comparison_of_several_models_is_refused(tmp_path):
    """Several completion fns before the grader (multicomp_n: the grader compares their
    answers): one verdict per sample, no one model's score: refused."""
    rows = _graded_lines()
    rows[0]["spec"]["completion_fns"] = ["alpha", "beta", "grader"]
    with pytest.raises(ValidationError, match=r"of 2 models graded by 'grader' \(alpha, "
                       r"beta\).*run oaieval once per model"):
        io.load(_write(tmp_path / "battle.jsonl", rows))


def test_openai_evals_model_graded_by_its_own_model_keeps_the_name(tmp_path):
    """One completion fn: ModelBasedClassify grades with the model itself; the model is
    that fn and the note says it graded itself."""
    rows = _graded_lines()
    rows[0]["spec"]["completion_fns"] = ["alpha"]
    o = io.load(_write(tmp_path / "self.jsonl", rows))
    assert o.models == ("alpha",)
    assert any("its own grader" in n for n in o.metadata["import_report"]["notes"])


def test_an_lm_eval_group_is_a_benchmark_choice_everywhere(tmp_path):
    """The group loaded with the rest is selected by its name (Outcomes.select, the app's
    Benchmark box, the report); loaded alone by --benchmark GROUP, the report could not
    select it again ('unknown benchmark')."""
    from scorio_core.report import make_report

    d = LM_EVAL / "group"
    whole = io.load(d)
    part = whole.select("qa_suite")
    assert part.name.endswith("[qa_suite]") and sorted(set(part.benchmarks)) == ["qa_one",
                                                                                 "qa_rep"]
    assert part.M == 12 and whole.select("qa_one").M == 6
    out = make_report(d, tmp_path / "r.md", benchmark="qa_suite", sections=["leaderboard"],
                      options=io.LoadOptions(benchmark="qa_suite"))
    assert "qa_suite" in Path(out).read_text()
    with pytest.raises(ValidationError, match="unknown benchmark 'qa'"):
        whole.select("qa")


# ------------------------------------------------- what a load leaves out, said on results
def test_tasks_combined_at_the_fewest_trials_say_so_on_every_result(capsys, tmp_path):
    """Audit 2026-12-01: a folder of tasks run with 4 and 1 repeats was combined at 1 trial
    per question -- 3 of every 4 completions of the repeated task left out -- and only
    ``info`` and the report's "How the data were read" said so: the leaderboard's text, CSV
    and JSON notes and ``result.caveats`` did not, and the dataset was called 'logs'. The
    combined view had also lost the question attributes both tasks have. Now the count
    travels with the data: load notes, caveats, provenance, the CLI's header and notes;
    the folder names the data; the attributes are kept and survive a table round trip."""
    from scorio_core.definitions.provenance import provenance
    from scorio_core.leaderboard import leaderboard

    d = LM_EVAL / "doc_fields"  # qa_fields: 4 repeats; qa_fields_one: 1 (lm-eval's own logs)
    o = io.load(d)
    rep, one = o.select("qa_fields"), o.select("qa_fields_one")
    assert (rep.N, one.N, o.N) == (4, 1, 1)
    assert o.name == "doc_fields"  # the folder, not 'logs'
    left = (f"qa_fields: {rep.N - o.N} of {rep.N} trials per question left out to combine it "
            f"with the tasks of 1 trial (qa_fields_one); analyse it alone, with all its "
            "trials, with benchmark='qa_fields'")
    pooled = (f"2 tasks pooled into one view (qa_fields: {rep.M} questions, qa_fields_one: "
              f"{one.M}): every question counts once")
    assert len(o.load_notes) == 2
    assert o.load_notes[0].startswith(pooled) and o.load_notes[1].startswith(left)
    # a task on its own has all its trials: nothing left out, nothing pooled
    assert rep.load_notes == () == io.load(d, benchmark="qa_fields").load_notes
    caveats = leaderboard(o, draws=200).caveats
    assert [c for c in caveats if c.startswith((pooled, left))] == [f"{n}." for n in o.load_notes]
    assert not any("left out" in c for c in leaderboard(rep, draws=200).caveats)
    assert provenance(o, "leaderboard")["load_notes"] == list(o.load_notes)
    assert "load_notes" not in provenance(rep, "leaderboard")
    assert o.describe()["changed by the load"] == list(o.load_notes)

    # every question keeps its own task's attributes, as each task alone reads them
    alone = {q: (k, p) for b in o.benchmark_names for p in [o.select(b)]
             for q, k in zip(p.questions, p.question_attributes["kind"], strict=True)}
    assert set(o.question_attributes) == {"kind", "points"}
    assert o.question_attributes["kind"] == tuple(alone[q][0] for q in o.questions)
    back_file = tmp_path / "doc_fields.parquet"
    io.save_table(o, back_file)
    back = io.load(back_file)
    assert back.question_attributes == o.question_attributes
    assert np.array_equal(back.R, o.R) and back.load_notes == (o.load_notes[1],)

    # the command line: the header, the CSV's provenance and notes, the JSON's notes
    assert main(["leaderboard", str(d), "--format", "table", "--draws", "200"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "CI-aware leaderboard: doc_fields (2 models × 24 questions × 1 trial)"
    assert lines[1].startswith("Loaded: 2 tasks pooled") and any(
        x.startswith("Loaded: qa_fields: 3 of 4 trials") for x in lines[1:8])
    header = " ".join(lines[1:lines.index("", 1)])  # the Loaded lines, wrapped: the flags
    assert header.count("--benchmark qa_fields") == 2 and "benchmark=" not in header
    assert main(["leaderboard", str(d), "--format", "csv", "--draws", "200"]) == 0
    csv = capsys.readouterr().out
    assert "# dataset: doc_fields\n" in csv and "# load_notes: [" in csv
    # the notes name the flag here (the provenance's load_notes keep Python's keyword)
    flag = left.replace("benchmark='qa_fields'", "--benchmark qa_fields")
    assert f"# note: {flag}" in csv and f"# note: {left}" not in csv
    assert main(["leaderboard", str(d), "--format", "json", "--draws", "200"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["notes"][:2] == [cli_text(n) for n in o.load_notes]
    assert got["notes"][1] == flag and got["notes"][0].endswith("(--benchmark qa_fields)")
    assert main(["leaderboard", str(d), "--by", "kind", "--format", "json", "--draws", "200"]) == 0
    rows = json.loads(capsys.readouterr().out)["by_subset"]["rows"]
    assert {(r["subset"], r["questions"]) for r in rows} == {("easy", 12), ("hard", 12)}


def test_an_attribute_of_one_benchmark_has_no_value_on_the_others_questions():
    """Benchmarks of different trials combined: an attribute only one of them has is kept,
    empty on the other's questions, and a note says so."""
    import polars as pl

    rows = [("m1" if m else "m0", f"{b}{q}", t, (q + t + m) % 2, b, "hard" if q else "easy")
            for m in (0, 1) for b, n in (("a", 3), ("b", 1)) for q in range(3)
            for t in range(n)]
    df = pl.DataFrame(rows, schema=["model", "question", "trial", "outcome", "benchmark",
                                    "level"], orient="row")
    df = df.with_columns(level=pl.when(pl.col("benchmark") == "a").then(pl.col("level")))
    o = io.load(df)
    assert o.N == 1 and o.select("a").N == 3
    assert o.question_attributes == {"level": ("easy", "hard", "hard", "", "", "")}
    assert any("question attribute 'level' is not in every benchmark: the questions of b have "
               "no value" in n for n in o.metadata["notes"])
    assert o.subset("level", "hard").questions == ("a1", "a2")
    assert o.load_notes == ("a: 2 of 3 trials per question left out to combine it with the "
                            "tasks of 1 trial (b); analyse it alone, with all its trials, with "
                            "benchmark='a'",)
    assert cli_text(o.load_notes[0]).endswith("with all its trials, with --benchmark a")


def _flaky_logs(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    """Two models' Inspect logs of 5 questions × 4 epochs; b's samples of questions 2 and 4
    at epoch 4 errored (unscored). Returns the folder and each model's scored samples."""
    from fixtures import make_logs as mk

    ids, values = [1, 2, 3, 4, 5], np.ones((5, 4), int)
    mk.write_inspect_eval(tmp_path / "a.eval", "a", "t", values, ids)
    errored = {(2, 4), (4, 4)}
    mk.write_inspect_eval(tmp_path / "b.eval", "b", "t", values, ids, errored=errored)
    return tmp_path, {"a": values.size, "b": values.size - len(errored)}


def test_truncate_and_drop_questions_say_how_much_they_leave_out(tmp_path, capsys):
    """Audit 2026-12-01: --on-missing truncate on logs where one model had 2 errored samples
    kept 3 trials of every pair -- a quarter of the other model's data gone -- and said
    nothing on the result. Now the counts are said, per model, wherever the data go."""
    from scorio_core.leaderboard import leaderboard

    d, scored = _flaky_logs(tmp_path)
    o = io.load(d, on_missing="truncate")
    assert o.shape == (2, 5, 3)
    found = sum(scored.values())
    lost = {m: n - o.M * o.N for m, n in scored.items()}  # each model keeps M × N cells
    assert lost == {"a": 5, "b": 3}
    (note,) = o.load_notes
    assert note == (
        "on_missing='truncate' kept the first 3 trials of every (model, question) pair, the "
        "fewest a pair has (2 pairs have fewer than 4; b: 2), so "
        f"{found - o.R.size} of {found} completions are left out: a 5 of 20 (25.0%), b 3 of "
        "18 (16.7%)")
    assert f"{note}." in leaderboard(o, draws=200).caveats

    d2 = io.load(d, on_missing="drop_questions")
    assert d2.questions == ("1", "3", "5")
    assert d2.load_notes == (
        "on_missing='drop_questions' left out 2 of 5 questions (2, 4), each incomplete for "
        "some model (b on 2 questions), and with them 14 completions the models gave on them: "
        "every model is scored on the questions all of them answered in full",)
    assert 14 == 2 * 4 + 2 * 3  # a's 4 trials and b's 3 scored ones on each dropped question
    assert main(["leaderboard", str(d), "--on-missing", "truncate", "--format", "json",
                 "--draws", "200"]) == 0
    assert json.loads(capsys.readouterr().out)["notes"][0] == note.replace(
        "on_missing='truncate'", "--on-missing truncate")


def _mixed_folder(tmp_path: Path) -> Path:
    """Inspect logs of task t1 (2 epochs; mockllm/alpha, beta, gamma) beside lm-eval logs of
    task t2 (1 trial; alpha, beta, delta): other models, other trials."""
    from fixtures import make_logs as mk

    ids = [1, 2, 3, 4]
    rng = np.random.default_rng(0)
    (tmp_path / "insp").mkdir()
    for m in ("alpha", "beta", "gamma"):
        mk.write_inspect_eval(tmp_path / "insp" / f"{m}.eval", f"mockllm/{m}", "t1",
                              rng.integers(0, 2, (4, 2)), ids)
    for m in ("alpha", "beta", "delta"):
        mk.write_lm_eval(tmp_path / "lm", m, "t2", rng.integers(0, 2, (4, 1)), ids, "single")
    return tmp_path


def test_a_folder_of_tasks_on_other_models_says_what_each_lacks_and_info_lists_it(
        tmp_path, capsys):
    """Audit 2026-12-01: a folder of Inspect and lm-eval logs of other models and trials was
    refused with "'t2' lacks or adds 'alpha', 'beta', ... 'mockllm/alpha', ..." -- not which
    were lacking and which added, prefixed names shown nowhere else, some names cut -- and
    ``info`` gave the same refusal, no inventory. Now each part says what it lacks and adds
    in the names each task shows alone, the loads that work (each tried), and ``info``
    lists the parts."""
    d = _mixed_folder(tmp_path)
    with pytest.raises(MissingCellsError) as exc:
        io.load(d)
    said = str(exc.value)
    assert ("cannot be combined: t1 (2 trials) has alpha, beta, gamma; t2 (1 trial) lacks "
            "gamma and adds delta. Load one at a time: benchmark='t1', or benchmark='t2'") in said
    assert "mockllm/" not in said
    for task, models, n in (("t1", ("alpha", "beta", "gamma"), 2),
                            ("t2", ("alpha", "beta", "delta"), 1)):
        alone = io.load(d, benchmark=task)  # what the message recommends loads
        assert sorted(alone.models) == list(models) and alone.shape[1:] == (4, n)
    assert main(["info", str(d)]) == 2
    out, err = capsys.readouterr()
    assert "lacks gamma and adds delta" in err  # the loads that work, by their flag
    assert "Load one at a time: --benchmark t1, or --benchmark t2" in err
    parts = {r["task"]: r for r in json.loads(out)["parts"]}
    assert {t: (r["harness"], sorted(r["models"]), r["questions (M)"], r["trials (N)"])
            for t, r in parts.items()} == {"t1": ("inspect", ["alpha", "beta", "gamma"], 4, 2),
                                           "t2": ("lm_eval", ["alpha", "beta", "delta"], 4, 1)}
    assert parts["t1"]["files"] == 3 and parts["t1"]["loads"] == "--benchmark t1"
    assert main(["info", str(LM_EVAL / "doc_fields"), "--benchmark", "nope"]) == 2  # unread
    assert capsys.readouterr().out == ""


def test_the_files_hashed_are_the_files_read():
    """Audit 2026-12-01: with --benchmark one task of an lm-eval folder, the provenance
    named that task's 3 samples files but hashed all 12 files of the folder. Now the files
    hashed are the samples read and the files read beside them (lm-eval's results, for the
    model names); another task's logs -- Inspect headers read to find their task -- are
    neither listed nor hashed."""
    from scorio_core.definitions.provenance import provenance

    d = LM_EVAL / "doc_fields"
    inp = provenance(io.load(d, benchmark="qa_fields_one"))["input"]
    samples = [f"doc_fields/{p.parent.name}/{p.name}"
               for p in sorted(d.glob("*/samples_qa_fields_one_*.jsonl"))]
    results = [f"doc_fields/{p.parent.name}/{p.name}" for p in sorted(d.glob("*/results_*.json"))]
    assert inp["file"] == samples
    assert sorted(inp["sha256_per_file"]) == sorted(samples + results)
    e = INSPECT / "eval_set"
    inp = provenance(io.load(e, benchmark="logic"))["input"]
    logic = [f"eval_set/{p.name}" for p in sorted(e.glob("*_logic_*.eval"))]
    assert inp["file"] == logic == list(inp["sha256_per_file"])


@pytest.mark.parametrize("metric", ["acc", "acc_norm"])
@pytest.mark.parametrize("name", ["fewshot", "limit_one"])
def test_lm_eval_multiple_choice_answer_is_the_option_lm_eval_picked(name, metric):
    """A multiple-choice document has one loglikelihood request per option and no response:
    its text showed the options' loglikelihoods as repeats, the first one as the answer and
    the label index as the target. The answer is now the option lm-eval's metric picks (acc:
    the highest loglikelihood; acc_norm: per character of the option, as lm-eval divides),
    so it equals the target exactly when lm-eval's own per-document value is 1 -- on every
    document of both models, where acc and acc_norm pick differently on some."""
    d = LM_EVAL / name
    o = io.load(d, scorer=metric, benchmark="mc_a", on_missing="drop_questions")
    seen = differ = 0
    for path in sorted(d.glob("*/samples_mc_a_*.jsonl")):
        model = path.parent.name
        for line in path.read_text().splitlines():
            r = json.loads(line)
            q = next((x for x in o.questions if x.rsplit("/", 1)[-1] == str(r["doc_id"])), None)
            if q is None:  # a document not every model has (drop_questions)
                continue
            row = o.samples.for_question(q, models=[model]).row(0, named=True)
            options = r["doc"]["choices"]
            lls = np.array([float(x[0]) for x in r["filtered_resps"]])
            acc = options[int(np.argmax(lls))]
            norm = options[int(np.argmax(lls / [len(c) for c in options]))]
            assert row["answer"] == (acc if metric == "acc" else norm), (model, r["doc_id"])
            assert row["target"] == options[int(r["target"])]
            assert (row["answer"] == row["target"]) == (r[metric] == 1.0), (model, r["doc_id"])
            assert weights_of(o)[o.models.index(model), o.questions.index(q), 0] == r[metric]
            lines = row["choices"].splitlines()  # one line per option, numbered as the label
            assert [x.split(" <- ")[0] for x in lines] == [
                f"choice {i}: {c} (loglikelihood {x[0]})"
                for i, (c, x) in enumerate(zip(options, r["filtered_resps"], strict=True))]
            assert [i for i, x in enumerate(lines) if "target" in x] == [int(r["target"])]
            picked = [i for i, x in enumerate(lines) if "<- picked" in x or ", picked" in x]
            assert [options[i] for i in picked] == [row["answer"]]
            assert "per character" in lines[picked[0]] if metric == "acc_norm" else True
            assert row.get("output") is None and row["trial_id"] == "1"  # no response
            seen += 1
            differ += acc != norm
    assert seen == o.L * o.M and differ > 0  # every document of both models read


def _ll_rows(task: str):
    """``(model, record)`` of every line of the loglikelihood fixture's ``task`` samples
    (generate.py: --tasks ll_next,ll_roll, written by lm-eval 0.4.13)."""
    for path in sorted((LM_EVAL / "loglikelihood").glob(f"*/samples_{task}_*.jsonl")):
        for line in path.read_text().splitlines():
            yield path.parent.name, json.loads(line)


def test_lm_eval_loglikelihood_task_shows_the_continuation_its_loglikelihood_and_greedy():
    """A single-request loglikelihood task (lambada-style: is the target the model's greedy
    continuation?) showed the raw ``["-2.6684", "True"]`` pair as its output and the
    loglikelihood as its answer, and its first metric, ``perplexity`` (a loglikelihood per
    document), was read as the outcome and refused as a grade out of [0, 1]. Now the
    outcome is lm-eval's ``acc`` (``is_greedy``), the target is the continuation lm-eval
    scored and the answer says whether it is the greedy one, with its loglikelihood."""
    d = LM_EVAL / "loglikelihood"
    o = io.load(d, benchmark="ll_next")
    ref = reading(d)["models"]
    assert sorted(o.models) == ["alpha", "beta"] and o.shape == (2, 6, 1)
    greedy = {True: 0, False: 0}
    for model, r in _ll_rows("ll_next"):
        q = o.questions.index(str(r["doc_id"]))
        row = o.samples.for_question(str(r["doc_id"]), models=[model]).row(0, named=True)
        ll, flag = r["filtered_resps"][0]
        assert r["arguments"]["gen_args_0"]["arg_1"] == " " + r["doc"]["a"]  # doc_to_target
        assert row["target"] == " " + r["doc"]["a"]
        assert row["input"] == f"Q: {r['doc']['q']}\nA:"
        assert row["answer"] == (f"target is greedy: {'yes' if flag == 'True' else 'no'} "
                                 f"(loglikelihood {ll})")
        assert weights_of(o)[o.models.index(model), q, 0] == r["acc"] == (flag == "True")
        assert row.get("output") is None and row.get("choices") is None
        greedy[flag == "True"] += 1
    assert greedy[True] > 0 and greedy[False] > 0  # both kinds of document are checked
    for m in o.models:  # lm-eval's own aggregate
        assert weights_of(o)[o.models.index(m)].mean() == pytest.approx(
            ref[m]["results"]["ll_next"]["acc,none"], abs=1e-12)
    (f, *_) = o.metadata["import_report"]["files"]
    assert f["scorer"] == "acc" and f["notes"][0].startswith(
        "perplexity not read as outcomes: each document's value is a loglikelihood")


def test_lm_eval_perplexities_are_not_outcomes_and_the_folder_advice_loads(capsys):
    """lm-eval's corpus perplexities (a loglikelihood_rolling task's word_perplexity, ...,
    a loglikelihood task's perplexity) hold a loglikelihood per document -- a rolling
    task's a ``[loglikelihood, words]`` pair, which had been read as two repeats. They are
    refused as outcomes with what they are, and the folder's advice loads."""
    d = LM_EVAL / "loglikelihood"
    with pytest.raises(ValidationError, match=r"task 'll_roll' \(loglikelihood_rolling\) "
                       r"scores no document right or wrong") as exc:
        io.load(d, benchmark="ll_roll")
    assert "word_perplexity: a (loglikelihood, words) pair" in str(exc.value)
    with pytest.raises(ValidationError, match=r"metric 'perplexity': task 'll_next' "
                       r"\(loglikelihood\).*; read a per-document metric instead, e.g. "
                       r"scorer='acc'$") as exc:
        io.load(d, benchmark="ll_next", scorer="perplexity")
    assert cli_text(said_of(exc.value)).endswith("instead, e.g. --scorer acc")
    with pytest.raises(ValidationError) as exc:
        io.load(d)
    assert _advised(exc.value) == "ll_next"
    assert io.load(d, benchmark="ll_next").shape == (2, 6, 1)
    assert main(["leaderboard", str(d), "--benchmark", "ll_roll"]) == 2
    assert "no per-document metric" in capsys.readouterr().err


def test_lm_eval_loglikelihood_rolling_texts_are_the_text_and_its_loglikelihood():
    """A loglikelihood_rolling document (one text scored whole, no continuation, no greedy
    flag): its input is the text, its answer the loglikelihood lm-eval logged."""
    from scorio_core.io.lm_eval import choice_texts, loglikelihood_texts

    config = {"output_type": "loglikelihood_rolling"}
    n = 0
    for _, r in _ll_rows("ll_roll"):
        t = loglikelihood_texts(r, config)
        assert t["input"] == r["target"] == f"{r['doc']['q']} {r['doc']['a']}"
        assert t["answer"] == (f"loglikelihood {r['filtered_resps'][0]} (of the whole text, "
                               "scored rolling)")
        assert t["target"] is None and choice_texts(r, config) is None
        n += 1
    assert n == 12
    for _, r in _ll_rows("ll_next"):  # the shapes are told apart without a config too
        assert loglikelihood_texts(r, {})["answer"].startswith("target is greedy: ")
        assert loglikelihood_texts(r, {"output_type": "multiple_choice"}) is None


def test_lm_eval_loglikelihood_outcomes_are_lm_evals_process_results():
    """Each outcome read equals lm-eval's own ``process_results`` of the response it
    logged (lm_eval 0.4.13, when installed): ``acc`` is ``int(is_greedy)``."""
    task_mod = pytest.importorskip("lm_eval.api.task")
    from types import SimpleNamespace

    stub = SimpleNamespace(config=SimpleNamespace(process_results=None),
                           _metric_fn_list={"acc": None, "perplexity": None},
                           OUTPUT_TYPE="loglikelihood")
    o = io.load(LM_EVAL / "loglikelihood", benchmark="ll_next")
    for model, r in _ll_rows("ll_next"):
        ll, flag = r["filtered_resps"][0]
        got = task_mod.ConfigurableTask.process_results(stub, r["doc"],
                                                        [(float(ll), flag == "True")])
        assert got == {"perplexity": float(ll), "acc": r["acc"]}
        q = o.questions.index(str(r["doc_id"]))
        assert weights_of(o)[o.models.index(model), q, 0] == got["acc"]


def _task_folder(root: Path) -> Path:
    """The lm-eval task definitions the fixtures were made with (generate.py's YAMLs) and
    the documents they read, as ``lm_eval --include_path`` takes them."""
    from fixtures.harness import generate

    root.mkdir(parents=True)
    docs = root / "docs.jsonl"
    docs.write_text("".join(json.dumps(x) + "\n" for x in generate.DOCS))
    for name, text in {**generate.TASKS, **generate.LL_TASKS}.items():
        (root / f"{name}.yaml").write_text(text.format(data=docs))
    return root


def test_a_folder_of_lm_eval_task_definitions_says_it_is_not_logs(tmp_path, capsys):
    """A folder of lm-eval task definitions (YAMLs and the documents they read) was read as
    a long table with missing columns ("did you mean --columns outcome=...?"). Now it is
    recognised and the message says what to run and load; its documents named alone and a
    definition named alone say so too; a long table named .jsonl beside definitions still
    loads, and definitions beside logs are passed over."""
    d = _task_folder(tmp_path / "tasks")
    defs = "ll_next.yaml, ll_roll.yaml, qa_one.yaml, qa_rep.yaml, qa_vote.yaml"
    run = ("not logs; run lm-eval with --log_samples --output_path DIR and load DIR (e.g. "
           f"lm_eval --model hf --model_args pretrained=MODEL --include_path {d} --tasks ")
    with pytest.raises(ValidationError) as exc:
        io.load(d)
    assert str(exc.value) == (f"tasks: this folder holds lm-eval task definitions ({defs}), "
                              f"{run}ll_next,ll_roll,qa_one,qa_rep,qa_vote --log_samples "
                              "--output_path DIR)")
    assert "--columns" not in str(exc.value)
    assert main(["leaderboard", str(d)]) == 2
    assert "this folder holds lm-eval task definitions" in capsys.readouterr().err
    with pytest.raises(ValidationError) as exc:
        io.load(d / "docs.jsonl")
    assert str(exc.value).startswith(
        f"docs.jsonl: the documents of the lm-eval task definitions beside it ({defs}), {run}")
    with pytest.raises(ValidationError, match=r"^ll_next.yaml: this file is an lm-eval task "
                       r"definition \(ll_next.yaml\), not logs;.* --tasks ll_next "):
        io.load(d / "ll_next.yaml")
    (d / "other.yaml").write_text("model: gpt\ntemperature: 0.7\n")
    with pytest.raises(ValidationError, match="unsupported file type"):
        io.load(d / "other.yaml")
    # a real long table named .jsonl beside the definitions is data
    rows = [{"model": m, "question": q, "trial": 1, "outcome": int(m == "a" or q == 2)}
            for m in ("a", "b") for q in range(3)]
    (d / "runs.jsonl").write_text("".join(json.dumps(x) + "\n" for x in rows))
    o = io.load(d / "runs.jsonl")
    assert o.shape == (2, 3, 1) and weights_of(o).sum() == 4
    assert io.load(d).shape == (2, 3, 1)  # the folder: the table read, the documents passed
    (d / "runs.jsonl").unlink()
    # definitions beside lm-eval's logs: the logs are read
    shutil.copytree(LM_EVAL / "loglikelihood", tmp_path / "out")
    o = io.load(tmp_path, benchmark="ll_next")
    assert sorted(o.models) == ["alpha", "beta"] and o.shape == (2, 6, 1)
