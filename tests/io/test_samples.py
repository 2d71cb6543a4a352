"""The sample store: completion texts read from logs written by the harnesses' own writers
equal the harness's own reading, keyed like the outcome tensor; tables keep their text
columns; the store survives what Outcomes does (select, subset, pickling) and an .npz has none."""

from __future__ import annotations

import io as _io
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from scorio_core import Outcomes, ValidationError, io
from scorio_core.samples import MAX_TEXT, SampleStore, SampleWriter, as_text, one_line
from scorio_core.samples import union as samples_union

HARNESS = Path(__file__).resolve().parents[1] / "fixtures" / "harness"
TEXTS = HARNESS / "inspect" / "texts"


@pytest.fixture(scope="module")
def texts() -> Outcomes:
    return io.load(TEXTS)


def _reading() -> dict:
    return json.loads((TEXTS / "reading.json").read_text())


def test_inspect_texts_equal_inspects_own_reading(texts):
    """Every (model, sample, epoch): our store holds what inspect_ai.read_eval_log reads, in
    the row of R that holds its score."""
    store = texts.samples
    assert store is not None and len(store) == 2 * 5 * 3
    assert store.columns == ("input", "target", "output", "answer", "explanation", "metadata")
    seen = 0
    for log in _reading()["logs"]:
        model = log["model"].split("/")[1]  # the provider prefix is stripped
        m = texts.models.index(model)
        scores = {(s["id"], s["epoch"]): s["scores"]["contains_target"] for s in log["samples"]}
        for want in log["texts"]:
            q = texts.questions.index(str(want["id"]))
            rows = store.for_question(str(want["id"]), models=[model])
            row = rows.filter(pl.col("trial_id") == str(want["epoch"])).row(0, named=True)
            for key in ("input", "target", "output", "answer", "explanation"):
                assert row[key] == want[key], (model, want["id"], want["epoch"], key)
            assert json.loads(row["metadata"]) == want["metadata"]
            # the text sits at the tensor's cell of the same completion
            assert texts.R[m, q, row["trial"]] == (scores[(want["id"], want["epoch"])] == "C")
            seen += 1
    assert seen == 30


def test_hostile_text_is_kept_verbatim_and_exports_defused(texts):
    rows = texts.samples.for_question("3", models=["alpha"])
    assert '=HYPERLINK("x") 6' in rows["output"].to_list()
    csv = io.to_safe_csv(rows.select("output"))
    assert '\n"\'=HYPERLINK' in csv  # the spreadsheet formula is quoted in CSV


def test_lm_eval_texts_per_trial_and_repeats():
    """lm-eval: the prompt, the target, the filtered answer, the doc as metadata; a
    one-trial document keeps every repeat's response in its output."""
    o = io.load(HARNESS / "lm_eval" / "multi")
    lines = {}
    for path in sorted((HARNESS / "lm_eval" / "multi" / "alpha").glob("samples_qa_rep_*.jsonl")):
        for line in path.read_text().splitlines():
            r = json.loads(line)
            lines[r["doc_id"]] = r
    rows = o.samples.for_question("qa_rep/1", models=["alpha"]).row(0, named=True)
    r = lines[1]
    assert rows["input"] == r["arguments"]["gen_args_0"]["arg_0"]
    assert rows["target"] == r["target"]
    assert rows["answer"] == r["filtered_resps"][0]
    assert all(x in rows["output"] for x in r["resps"][0])  # the 3 repeats, one trial
    # numbered from 1 as the trials are: repeat 1 is the first of resps, the trial id 1
    assert [x.split("] ")[0] for x in rows["output"].splitlines()] == [
        "[repeat 1", "[repeat 2", "[repeat 3"]
    assert json.loads(rows["metadata"]) == r["doc"]
    assert rows["trial"] == 0 and rows["trial_id"] == "1" and o.N == 1


def test_errored_samples_carry_their_error_and_position():
    """Inspect's own errored-but-scored samples are in R (as Inspect counts them) with the
    error text; a sample that errored without a score has text but no position in R."""
    o = io.load(HARNESS / "inspect" / "errored")
    rows = o.samples.for_question("2").to_dicts()
    crashed = [r for r in rows if r["error"]]
    assert [(r["model"], r["trial"]) for r in crashed] == [("alpha", 0), ("beta", 0)]
    assert "tool crashed on sample 2" in crashed[0]["error"]
    log = {"eval": {"task": "t", "model": "m", "config": {"epochs": 2}}, "samples": [
        {"id": 1, "epoch": 1, "input": "q?", "output": {"completion": "a"},
         "scores": {"s": {"value": "C"}}},
        {"id": 1, "epoch": 2, "input": "q?", "error": {"message": "boom"}, "scores": {}},
        {"id": 2, "epoch": 1, "input": "r?", "scores": {"s": {"value": "I"}}},
        {"id": 2, "epoch": 2, "input": "r?", "scores": {"s": {"value": "C"}}}]}
    o = io.load(json.dumps(log).encode(), filename="run.json", on_missing="truncate")
    got = o.samples.for_question("1").select("trial", "trial_id", "output", "error").rows()
    assert got == [(0, "1", "a", None), (None, "2", None, "boom")]


REASONING = HARNESS / "inspect" / "reasoning"


def _inspect_shows(block: dict) -> str | None:
    """How Inspect's own log viewer shows a ContentReasoning block (its reasoning; an
    encrypted one's summary, or that it is encrypted; a summary alone, labelled)."""
    if block["redacted"]:
        return ("[reasoning encrypted by the model provider; its summary:]\n" + block["summary"]
                if block["summary"] else "[reasoning encrypted by the model provider]")
    if block["reasoning"]:
        return block["reasoning"]
    return "[reasoning summary:]\n" + block["summary"] if block["summary"] else None


def test_inspect_reasoning_equals_inspects_own_reading():
    """A reasoning model's log (inspect's own writer, mockllm with ContentReasoning blocks):
    every (model, sample, epoch) keeps, as ``reasoning``, the reasoning blocks of the first
    choice that inspect_ai.read_eval_log reads, in order, an encrypted one said as such and
    never its ciphertext; the output is ``output.completion`` (no reasoning in it). alpha is
    an .eval with summaries.json (texts from the samples/ members), beta a .json log (texts
    from the samples in the log): both paths read the same blocks the same way."""
    o = io.load(REASONING)
    store = o.samples
    assert store.columns == ("input", "target", "reasoning", "output", "answer")
    logs = {log["model"].split("/")[1]: log
            for log in json.loads((REASONING / "reading.json").read_text())["logs"]}
    alpha = REASONING / logs["alpha"]["file"]
    assert alpha.suffix == ".eval" and "summaries.json" in zipfile.ZipFile(alpha).namelist()
    assert logs["beta"]["file"].endswith(".json")
    seen, kinds = 0, set()
    for model, log in logs.items():
        for want in log["texts"]:
            rows = store.for_question(str(want["id"]), models=[model])
            row = rows.filter(pl.col("trial_id") == str(want["epoch"])).row(0, named=True)
            blocks = want["reasoning"]
            shown = [t for t in map(_inspect_shows, blocks) if t]
            assert row["reasoning"] == ("\n\n".join(shown) if shown else None), (model, want)
            assert row["output"] == want["output"]
            for b in blocks:
                kinds.add((b["redacted"], bool(b["reasoning"]), bool(b["summary"])))
                if b["redacted"]:  # the ciphertext is in no text of the store
                    assert all(b["reasoning"] not in str(v) for v in row.values())
                elif b["reasoning"]:
                    assert b["reasoning"] not in row["output"]
            seen += 1
    assert seen == 2 * 3 * 2
    # the fixture covers each kind of block: plain, encrypted with and without a summary,
    # a summary alone (and a sample with none, above: reasoning None)
    assert kinds == {(False, True, False), (True, True, True), (True, True, False),
                     (False, False, True)}


def test_inspect_reasoning_literally():
    """The fixture's reasoning as the store keeps it: two blocks interleaved with text, an
    encrypted block with and without its summary, a summary alone, none."""
    o = io.load(REASONING)

    def cell(model, q, epoch):
        rows = o.samples.for_question(q, models=[model])
        return rows.filter(pl.col("trial_id") == str(epoch))["reasoning"][0]

    assert cell("alpha", "2", 1) == "First, 2 + 2.\n\nSo it is 5."
    assert cell("alpha", "2", 2) == ("[reasoning encrypted by the model provider; its "
                                     "summary:]\nDoubled 2.")
    assert cell("alpha", "3", 1) == "[reasoning encrypted by the model provider]"
    assert cell("alpha", "3", 2) is None  # a plain-string message: no reasoning
    assert cell("beta", "3", 2) == "[reasoning summary:]\nSummary: 3 doubled is 6."
    assert cell("beta", "1", 1).startswith("Let me think.\n\n<b>1 + 1</b> means")
    assert io.load(REASONING, samples="skip").samples is None


def test_inspect_reasoning_is_in_the_pair_view():
    """The Pair view's flip table shows each trial's reasoning beside its output, before
    it (the store's order), for both models, at the trial of R that holds its score."""
    from scorio_core.engines.pair import flip_table

    o = io.load(REASONING)
    f = flip_table(o, "alpha", "beta", "2")
    cols = list(f.trials.columns)
    assert cols.index("reasoning_a") < cols.index("output_a")
    assert f.trials["reasoning_a"].tolist() == [
        "First, 2 + 2.\n\nSo it is 5.",
        "[reasoning encrypted by the model provider; its summary:]\nDoubled 2."]
    assert f.trials["reasoning_b"].tolist() == [
        "[reasoning encrypted by the model provider; its summary:]\nDoubled 2.",
        "[reasoning encrypted by the model provider]"]
    assert f.trials["output_a"].tolist() == ["Partial:\n5", "4"]
    # each trial's texts sit beside its own score: alpha's wrong '5' then right '4', beta's
    # right '4' then wrong '5' (contains_target), so both trials flip
    assert f.trials["score_a"].tolist() == [0.0, 1.0]
    assert f.trials["score_b"].tolist() == [1.0, 0.0]
    assert f.trials["output_b"].tolist() == ["4", "5"] and f.trials["flip"].all()


def _reasoning_log(reasoning: str, fmt: str) -> bytes:
    """A one-sample Inspect log whose output holds ``reasoning`` in a ContentReasoning block:
    an .eval with summaries.json (the text read from its samples/ member) or a .json log."""
    spec = {"task": "t", "model": "m", "config": {"epochs": 1}}
    sample = {"id": 1, "epoch": 1, "input": "q?", "scores": {"s": {"value": "C"}},
              "output": {"completion": "4", "choices": [{"message": {"role": "assistant",
                         "content": [{"type": "reasoning", "reasoning": reasoning},
                                     {"type": "text", "text": "4"}]}}]}}
    if fmt == "json":
        return json.dumps({"eval": spec, "status": "success", "samples": [sample]}).encode()
    buf = _io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("header.json", json.dumps({"eval": spec, "status": "success"}))
        zf.writestr("summaries.json", json.dumps([{k: sample[k] for k in
                                                   ("id", "epoch", "input", "scores")}]))
        zf.writestr("samples/1_epoch_1.json", json.dumps(sample))
    return buf.getvalue()


@pytest.mark.parametrize("fmt", ["eval", "json"])
def test_inspect_reasoning_is_cut_at_max_text(fmt):
    """Reasoning longer than MAX_TEXT is cut with the note, as every text is, on both paths;
    a member's reasoning is cut when it is read (what is held until the store is written)."""
    from scorio_core.io import _logs
    from scorio_core.io import inspect as inspect_io

    long = "why " * (MAX_TEXT // 4) + "tail"
    o = io.load(_reasoning_log(long, fmt), filename=f"run.{fmt}")
    got = o.samples.for_question("1")["reasoning"][0]
    assert got == as_text(long) and got.startswith(long[:MAX_TEXT])
    assert got.endswith("[... cut: 4 more characters not kept by the sample store]")
    assert o.samples.for_question("1")["output"][0] == "4"
    if fmt == "eval":
        zf = zipfile.ZipFile(_io.BytesIO(_reasoning_log(long, fmt)))
        part = _logs.LogPart(file="run.eval", format="inspect", model="m", benchmark="t")
        kept = inspect_io._outputs(zf, zf.namelist(), [("", {"id": 1, "epoch": 1})], part,
                                   10**9)
        assert kept[(1, 1)]["reasoning"] == got  # the blocks themselves are not kept
        assert "choices" not in kept[(1, 1)]["output"]


def test_table_text_columns_become_samples_keyed_like_R():
    csv = (b"model,question,trial,outcome,answer,source\n"
           b"A,q1,0,1,four,arith\nA,q1,1,0,=1+1,arith\nB,q1,0,0,five,arith\nB,q1,1,1,4,arith\n"
           b"A,q2,0,1,x,logic\nA,q2,1,1,y,logic\nB,q2,0,0,z,logic\nB,q2,1,0,w,logic\n"
           b"A,q3,0,1,,arith\nA,q3,1,1,,arith\nB,q3,0,0,,arith\nB,q3,1,0,,arith\n")
    o = io.load(csv, filename="runs.csv")
    assert o.question_attributes == {"source": ("arith", "logic", "arith")}  # an attribute
    assert o.samples.columns == ("answer",) and o.metadata["sample_columns"] == ["answer"]
    rows = o.samples.for_question("q1", models=["B", "A"])
    assert rows["model"].to_list() == ["B", "B", "A", "A"]
    assert rows["answer"].to_list() == ["five", "4", "four", "=1+1"]
    assert rows["trial"].to_list() == [0, 1, 0, 1]
    # a trial without text keeps its row: its own trial id and place in the file, no text
    assert o.samples.for_question("q3").select("model", "trial", "trial_id", "answer").rows() \
        == [("A", 0, "0", None), ("A", 1, "1", None), ("B", 0, "0", None), ("B", 1, "1", None)]
    assert len(o.samples) == o.L * o.M * o.N == 12
    # the subset keeps the store; a question it left out is simply not asked for
    assert o.subset("source", "logic").samples is o.samples
    assert io.load(csv, filename="runs.csv", samples="skip").samples is None


def test_rows_without_text_are_kept_only_when_asked():
    """A log's store drops records without text; a table's keeps every trial (keep_keys);
    with no text anywhere there is no store either way."""
    df = pl.DataFrame({"model": ["a", "a", "b"], "question": ["q", "q", "q"], "trial": [0, 1, 0],
                       "trial_id": ["7", "8", "7"], "answer": ["x", None, None]})
    assert SampleStore.from_frame(df).for_question("q")["trial_id"].to_list() == ["7"]
    kept = SampleStore.from_frame(df, keep_keys=True)
    assert len(kept) == 3 and kept.columns == ("answer",)
    assert kept.for_question("q").select("model", "trial_id", "answer").rows() == [
        ("a", "7", "x"), ("a", "8", None), ("b", "7", None)]
    empty = df.with_columns(answer=pl.lit(None, pl.String))
    assert SampleStore.from_frame(empty, keep_keys=True) is None


def test_npz_and_plain_tables_have_no_samples(tmp_path, data_dir):
    assert io.load(data_dir / "biased_coins.npz").samples is None
    o = io.load(b"model,question,trial,outcome\nA,q,0,1\n", filename="x.csv")
    assert o.samples is None and "samples" not in o.describe()


def test_store_survives_pickle_and_select(texts):
    again = pickle.loads(pickle.dumps(texts))
    assert again.samples.files == texts.samples.files
    assert again.samples.for_question("1").equals(texts.samples.for_question("1"))
    assert texts.select("arith").samples is texts.samples
    assert texts.with_weights([0.0, 1.0]).samples is texts.samples
    assert "samples" in texts.describe()


def test_eval_set_parts_share_the_store():
    o = io.load(HARNESS / "inspect" / "eval_set")
    assert o.parts and all(p.samples is o.samples for p in o.parts.values())
    logic = o.select("logic")
    rows = logic.samples.for_question(logic.questions[0], models=[logic.models[0]])
    assert rows["trial"].to_list() == list(range(logic.N))  # all 3 epochs of that task


def test_write_and_open_round_trip(tmp_path, texts):
    path = texts.samples.write_parquet(tmp_path / "samples.parquet")
    back = SampleStore.open(path)
    assert len(back) == len(texts.samples) and back.columns == texts.samples.columns
    assert back.for_question("2").equals(texts.samples.for_question("2"))
    bad = tmp_path / "bad.parquet"
    pl.DataFrame({"model": ["a"], "q": ["1"]}).write_parquet(bad)
    with pytest.raises(ValidationError, match="needs the columns"):
        SampleStore.open(bad)


def test_outcomes_refuses_a_non_store():
    with pytest.raises(ValidationError, match="SampleStore"):
        Outcomes(np.zeros((1, 1, 1), int), samples={"q": "text"})


def test_text_helpers():
    cut = as_text("x" * (MAX_TEXT + 5))
    assert cut == "x" * MAX_TEXT + "\n[... cut: 5 more characters not kept by the sample store]"
    # a text it cut is kept as it is (an importer cuts as it reads, the store again): the
    # note is not cut into a second one; a longer text that merely ends like one is cut
    assert as_text(cut) == cut and as_text(as_text({"k": "v" * MAX_TEXT})) == as_text(
        {"k": "v" * MAX_TEXT})
    assert as_text("y" + cut).endswith(f"{len(cut) + 1 - MAX_TEXT:,} more characters not kept "
                                       "by the sample store]")
    assert one_line("a\n\x1b[2Jb\u0085") == "a\\n\\x1b[2Jb\\x85"


def test_inspect_sample_metadata_names_question_subsets(texts):
    """Inspect's sample metadata: a field constant within each question becomes a question
    attribute (so subsets work on logs); one that cannot be a name stays text only."""
    assert texts.question_attributes == {"subset": ("easy", "easy", "hard", "hard", "hard")}
    notes = texts.metadata["import_report"]["notes"]  # '<arith>': not a name, one note
    assert [n for n in notes if "'source'" in n] == [
        "not read as question attributes (subsets), kept in each sample's metadata only: "
        "sample metadata field 'source': value '<arith>' contains '<' or '>'"]
    assert "source" not in texts.metadata.get("ignored_columns", [])  # said once, there
    assert json.loads(texts.samples.for_question("1")["metadata"][0])["source"] == "<arith>"
    hard = texts.subset("subset", "hard")
    assert hard.questions == ("3", "4", "5") and hard.samples is texts.samples
    skip = io.load(TEXTS, samples="skip")  # scores only: the subsets are still read
    assert skip.samples is None and skip.question_attributes == texts.question_attributes


def test_lm_eval_document_text_is_not_a_subset():
    """lm-eval doc fields that differ on every document of a task (its question and answer)
    are per-question text, even when several tasks repeat the same documents."""
    o = io.load(HARNESS / "lm_eval" / "multi")
    assert o.question_attributes == {}
    meta = o.samples.for_question("qa_vote/maj@5/0")["metadata"][0]
    assert json.loads(meta)["q"] == "Capital of France?"  # kept as the sample's text


def test_import_writes_the_store_beside_the_dataset_and_load_attaches_it(tmp_path, capsys):
    from scorio_core.cli import main

    out = tmp_path / "out" / "runs.parquet"
    out.parent.mkdir()
    assert main(["import", str(TEXTS), "--out", str(out)]) == 0
    assert (tmp_path / "out" / "runs.samples.parquet").is_file()
    for source in (out, out.parent):  # the file, or its folder (the store is not data)
        o = io.load(source)
        assert o.shape == (2, 5, 3) and len(o.samples) == 30
        f = o.samples.for_question("3", models=["beta"])
        assert f["output"].to_list() == ["6\n\nbecause | pipes |", "7", "**6**"]
    assert io.load(out, samples="skip").samples is None
    assert main(["info", str(out.parent / "runs.samples.parquet")]) == 2
    assert "a sample store" in capsys.readouterr().err


def test_the_store_beside_a_dataset_is_listed_and_hashed_in_the_provenance(tmp_path,
                                                                           monkeypatch):
    """The texts shown with an .npz come from the store `scorio-studio import` wrote beside
    it: the provenance lists both files, in read order, with the digests sha256sum prints,
    each file hashed once; the report names both; a notebook still loads (and checks) the
    .npz. Their total is held to the one hash limit; without the texts only the .npz counts."""
    import hashlib

    from scorio_core.cli import main
    from scorio_core.definitions import provenance as prov_mod
    from scorio_core.definitions.provenance import provenance
    from scorio_core.report import build_report, to_html, to_notebook

    out = tmp_path / "out" / "runs.npz"
    out.parent.mkdir()
    assert main(["import", str(TEXTS), "--out", str(out)]) == 0
    store = out.parent / "runs.samples.parquet"

    def sha(p: Path) -> str:
        return hashlib.sha256(p.read_bytes()).hexdigest()

    hashed: list[str] = []
    real = prov_mod.file_sha256
    monkeypatch.setattr(prov_mod, "file_sha256",
                        lambda s: hashed.append(Path(s).name) or real(s))  # fmt: skip
    o = io.load(out)
    assert len(o.samples) == 30  # the store's texts are attached ...
    inp = provenance(o)["input"]
    assert list(inp["sha256_per_file"].items()) == [("runs.npz", sha(out)),  # ... and listed
                                                    ("runs.samples.parquet", sha(store))]
    assert sorted(hashed) == ["runs.npz", "runs.samples.parquet"]  # each once
    assert inp["file"] == "runs.npz"
    assert inp["bytes"] == out.stat().st_size + store.stat().st_size
    assert o.metadata["source_path"] == str(out.resolve())
    page = to_html(build_report(o, ["leaderboard"]))
    assert "input files (2)" in page
    assert f"{sha(out)}  runs.npz" in page and f"{sha(store)}  runs.samples.parquet" in page

    folder = io.load(out.parent)  # found in a folder: the same two files, named by folder
    assert provenance(folder)["input"]["sha256_per_file"] == {
        "out/runs.npz": sha(out), "out/runs.samples.parquet": sha(store)}
    assert folder.metadata["source_path"] == str(out.resolve())
    load_cell = to_notebook(build_report(folder, ["leaderboard"]), out).cells[1].source
    assert f"expected_sha256 = {sha(out)!r}" in load_cell

    # the total (store included) against the limit: one byte short, neither is hashed
    monkeypatch.setattr(prov_mod, "HASH_LIMIT_BYTES", inp["bytes"] - 1)
    over = provenance(io.load(out))["input"]
    assert over["sha256_per_file"] == {"runs.npz": None, "runs.samples.parquet": None}
    assert over["not_hashed"].startswith("not hashed (2 files,")

    hashed.clear()
    bare = io.load(out, samples="skip")  # no texts shown: the store is not an input
    assert bare.samples is None and hashed == ["runs.npz"]
    assert bare.metadata["source_sha256"] == sha(out)
    assert "source_sha256_per_file" not in bare.metadata


def _store_dirs(o: Outcomes) -> set[Path]:
    return {Path(f).parent for f in o.samples.files}


def test_store_files_go_with_the_last_handle_and_not_before():
    import copy
    import gc

    o = io.load(TEXTS)  # its own load: the module fixture keeps its files
    dirs = _store_dirs(o)
    assert dirs and all(d.is_dir() for d in dirs)
    kept = [copy.copy(o), pickle.loads(pickle.dumps(o)), o.with_weights([0.0, 1.0])]
    q = o.questions[0]
    want = o.samples.for_question(q)
    del o
    gc.collect()
    for k in kept:  # every surviving copy (pickled ones too) keeps the files and reads them
        assert all(d.is_dir() for d in dirs)
        assert k.samples.for_question(q).equals(want)
    del k, kept
    gc.collect()
    assert not any(d.exists() for d in dirs)  # nothing holds them: removed, not at exit


def test_replacing_a_dataset_many_times_leaves_one_store():
    import gc

    o = io.load(TEXTS)
    seen = set(_store_dirs(o))
    for _ in range(5):  # a server session loading one upload after another
        o = io.load(TEXTS)
        seen |= _store_dirs(o)
        gc.collect()
    assert len(seen) == 6 and sum(d.exists() for d in seen) == 1


def test_a_users_store_file_is_never_removed(tmp_path):
    import gc

    path = tmp_path / "s.samples.parquet"
    SampleStore.from_frame(pl.DataFrame({"model": ["a"], "question": ["1"], "trial": [0],
                                         "output": ["x"]})).write_parquet(path)
    s = SampleStore.open(path)
    del s
    gc.collect()
    assert path.is_file()


# ---------------------------------------------------------------- how long the files live
def _fresh_store() -> SampleStore:
    return SampleStore.from_frame(pl.DataFrame({
        "model": ["a", "a", "b"], "question": ["q1", "q2", "q1"], "trial": [0, 0, 0],
        "output": ["four", "x", "=1+1"]}))


def _copies(store: SampleStore) -> dict:
    """Every way a handle is copied: copy/deepcopy, pickle in this process, an Outcomes
    carrying it and its dataclasses.replace / pickled copies, a union with another store."""
    import copy
    import dataclasses

    o = Outcomes(np.ones((2, 2, 1), int), models=["a", "b"], questions=["q1", "q2"],
                 samples=store)
    return {
        "copy": copy.copy(store),
        "deepcopy": copy.deepcopy(store),
        "pickled": pickle.loads(pickle.dumps(store)),
        "outcomes_replace": dataclasses.replace(o, name="renamed"),
        "outcomes_pickled": pickle.loads(pickle.dumps(o)),
        "union": samples_union([store, SampleStore.from_frame(pl.DataFrame(
            {"model": ["c"], "question": ["q9"], "trial": [0], "output": ["y"]}))]),
    }


@pytest.mark.parametrize("kind", ["copy", "deepcopy", "pickled", "outcomes_replace",
                                  "outcomes_pickled", "union"])
def test_store_files_live_while_any_copy_lives(kind):
    import gc

    store = _fresh_store()
    folder = Path(store.files[0]).parent
    survivor = _copies(store)[kind]  # the other copies are dropped right away
    del store
    gc.collect()
    assert folder.is_dir()  # the original is gone, a copy still reads the files
    handle = survivor.samples if isinstance(survivor, Outcomes) else survivor
    assert handle.for_question("q1", models=["b"])["output"].to_list() == ["=1+1"]
    del survivor, handle
    gc.collect()
    assert not folder.exists()  # nothing can read them any more: removed


def test_loaded_logs_store_is_removed_with_the_data():
    import gc

    o = io.load(TEXTS)
    folder = Path(o.samples.files[0]).parent
    view = o.subset("subset", "hard")  # shares the store
    del o
    gc.collect()
    assert view.samples.for_question("3", models=["alpha"]).height == 3
    del view
    gc.collect()
    assert not folder.exists()


def test_copy_unpickled_after_its_owner_died_says_the_files_are_gone():
    import gc

    store = _fresh_store()
    blob = pickle.dumps(store)
    del store
    gc.collect()
    late = pickle.loads(blob)
    with pytest.raises(ValidationError, match="is gone: .*no handle on them is left"):
        late.for_question("q1")


def test_copy_in_another_process_never_deletes():
    """A Dask worker's copy: read in another process, dropped there, files kept here."""
    import subprocess
    import sys

    store = _fresh_store()
    folder = Path(store.files[0]).parent
    code = ("import pickle, sys, gc; s = pickle.loads(sys.stdin.buffer.read()); "
            "print(s.for_question('q2')['output'].to_list()); del s; gc.collect()")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(store), cwd=root,
                         capture_output=True, check=True, timeout=120)
    assert out.stdout.decode().strip() == "['x']"
    assert folder.is_dir() and store.for_question("q2").height == 1


@pytest.mark.parametrize("rows", [1, 3])
def test_texts_spilled_in_chunks_are_the_texts_spilled_at_once(monkeypatch, texts, rows):
    """A log's texts go to scratch files SPILL_ROWS records at a time; the store is the same
    whatever the chunk size (positions in R included), and a chunk whose records carry no
    text still holds their rows, so the positions after it do not shift."""
    from scorio_core.io import _logs

    def store_rows(o):
        return sorted(map(str, (r for q in o.questions
                                for r in o.samples.for_question(q).drop("source").rows())))

    whole = {"texts": texts, "errored": io.load(HARNESS / "inspect" / "errored")}
    monkeypatch.setattr(_logs, "SPILL_ROWS", rows)
    for name, o in whole.items():
        again = io.load(TEXTS if name == "texts" else HARNESS / "inspect" / "errored")
        assert store_rows(again) == store_rows(o)

    writer = SampleWriter()
    part = _logs.LogPart(file="f", format="inspect", model="m", benchmark="b",
                         questions=["q1", "q1", "q1", "q1"], trials=[1, 2, 3, 4],
                         values=[1, 0, 1, 1], where=["1", "2", "3", "4"],
                         errors=[None] * 4,
                         texts=[None, None, None, {"output": "x"}])
    monkeypatch.setattr(_logs, "SPILL_ROWS", 2)
    _logs.spill_texts(part, writer)
    assert part.texts == [] and len(part.text_file) == 2
    frame = pl.concat([pl.read_parquet(f) for f in part.text_file])
    assert frame["trial_raw"].to_list() == [1, 2, 3, 4]  # the text-less chunk kept its rows
    assert frame["output"].to_list() == [None, None, None, "x"]


def test_trim_heap_is_a_no_op_where_the_c_library_has_no_malloc_trim(monkeypatch):
    """The memory a log's freed strings took is given back with glibc's malloc_trim where
    it exists; elsewhere (macOS, Windows, musl, a C library that cannot be loaded) the
    helper does nothing and says so, and logs load with their texts all the same."""
    import ctypes
    import platform
    import sys

    from scorio_core.io import _logs

    _logs._malloc_trim.cache_clear()
    monkeypatch.setattr(sys, "platform", "linux")

    class Musl:  # malloc and free, no glibc symbols
        def __getattr__(self, name):
            raise AttributeError(name)

    def unloadable(_name):
        raise OSError("no C library")

    for fake in (lambda _name: Musl(), unloadable):
        monkeypatch.setattr(ctypes, "CDLL", fake)
        _logs._malloc_trim.cache_clear()
        assert _logs.trim_heap() is False
    monkeypatch.undo()
    for other in ("darwin", "win32"):
        monkeypatch.setattr(sys, "platform", other)
        _logs._malloc_trim.cache_clear()
        assert _logs.trim_heap() is False
    whole = io.load(TEXTS)  # without a trim: the same store
    monkeypatch.undo()
    _logs._malloc_trim.cache_clear()
    assert _logs.trim_heap() is (sys.platform.startswith("linux")
                                 and platform.libc_ver()[0] == "glibc")
    again = io.load(TEXTS)
    assert _file_rows(again.samples) == _file_rows(whole.samples)
    assert len(whole.samples) == 30


def _file_rows(store: SampleStore) -> list[tuple]:
    """Every row of the store, file by file in the files' own order."""
    return [r for f in store.files for r in pl.read_parquet(f).rows()]


def _check_file(path: str, row_group: int) -> None:
    """Row groups of ``row_group`` rows (the last one at most), question min/max statistics,
    and rows sorted by (question, model, trial) with nulls first, as the file is written."""
    pq = pytest.importorskip("pyarrow.parquet")
    meta = pq.ParquetFile(path).metadata
    sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
    assert sizes[:-1] == [row_group] * (len(sizes) - 1) and 0 < sizes[-1] <= row_group
    q = meta.schema.names.index("question")
    assert all(meta.row_group(i).column(q).statistics.has_min_max for i in range(len(sizes)))
    keys = pl.read_parquet(path, columns=["question", "model", "trial"])
    assert keys.equals(keys.sort("question", "model", "trial", maintain_order=True))


@pytest.mark.parametrize("source", ["inspect/texts", "inspect/errored", "lm_eval/repeats_kept",
                                    "helm/simple_mcqa", "openai_evals/modelgraded_repeated",
                                    "inspect/eval_set", "table"])
def test_store_assembled_band_by_band_is_the_store_sorted_at_once(monkeypatch, source):
    """The store file is written a band of row groups at a time from the keys' order: with a
    band of one byte (each row group its own band), groups of 4 rows and the logs' texts
    spilled 3 records a time (so they come from scratch runs, not memory), every fixture's
    store holds the same rows in the same order as when assembled in one piece."""
    from scorio_core import samples
    from scorio_core.io import _logs

    csv = (b"model,question,trial,outcome,answer\n"
           + b"".join(f"m{m},q{q},{t},{(m + q + t) % 2},{'' if q == 3 else f'a{m}{q}{t}'}\n"
                      .encode() for m in (2, 1) for q in (9, 3, 10, 1) for t in range(3)))

    def load():
        if source == "table":
            return io.load(csv, filename="runs.csv")
        return io.load(HARNESS / source)

    whole = load()
    assert len(whole.samples.files) >= 1
    used = []
    runs = samples._runs
    monkeypatch.setattr(samples, "_runs", lambda *a: used.append(1) or runs(*a))
    monkeypatch.setattr(samples, "ROW_GROUP", 4)
    monkeypatch.setattr(samples, "BAND_BYTES", 1)
    monkeypatch.setattr(_logs, "SPILL_ROWS", 3)
    banded = load()
    assert _file_rows(banded.samples) == _file_rows(whole.samples)
    assert (banded.samples.columns, len(banded.samples)) == (whole.samples.columns,
                                                              len(whole.samples))
    assert bool(used) == (source != "table")  # a frame in memory is gathered from memory
    for f in banded.samples.files:
        _check_file(f, 4)
        # the scratch files of the logs' texts and the runs are gone once the store is built
        assert {p.name.split("-")[0] for p in Path(f).parent.iterdir()} == {"samples"}


@pytest.mark.parametrize("keep_keys", [False, True])
def test_pieces_and_bands_give_the_file_sorted_at_once(monkeypatch, keep_keys):
    """SampleWriter.add in pieces (the runs path) or whole (gathered from memory), in bands
    of whatever size, writes what one stable sort of every row by (question, model, trial)
    gives -- rows without text dropped unless keep_keys, a column without any text left
    out -- in row groups of ROW_GROUP rows with statistics."""
    from scorio_core import samples

    rng = np.random.default_rng(7)
    n = 2 * samples.ROW_GROUP + 611
    text = rng.choice(["", "x", "yy" * 40, None], n).tolist()
    df = pl.DataFrame({
        "model": rng.choice(["b", "a", "c"], n).tolist(),
        "question": [f"q{i}" for i in rng.integers(0, 300, n)],
        "trial": [None if t < 0 else int(t) for t in rng.integers(-1, 4, n)],
        "trial_id": [str(t) for t in rng.integers(0, 9, n)],
        "output": text,
        "answer": [None if t is None else t[:1] for t in rng.permutation(text).tolist()],
        "empty": pl.Series([None] * n, dtype=pl.String),
    }, schema_overrides={"trial": pl.Int64})
    has = pl.any_horizontal(pl.col("output", "answer").is_not_null())
    expected = (df.filter(has | keep_keys)
                .sort("question", "model", "trial", maintain_order=True)
                .drop("empty").rows())

    def written(pieces, band):
        monkeypatch.setattr(samples, "BAND_BYTES", band)
        w = SampleWriter()
        w.add(pieces, keep_keys=keep_keys)
        store = w.store()
        assert store.columns == ("output", "answer") and len(store) == len(expected)
        for f in store.files:
            _check_file(f, samples.ROW_GROUP)
        return _file_rows(store)

    slices = [df.slice(a, 1000).lazy() for a in range(0, n, 1000)]
    for band in (1, 40_000, 2**40):  # a row group per band, a few, everything at once
        assert written(df, band) == expected
        assert written(slices, band) == expected


def test_export_is_the_store_sorted_at_once(monkeypatch, tmp_path):
    """write_parquet merges the store's files (one per log here) through the same banded
    assembly: the rows of one stable sort of them all, in sorted row groups."""
    from scorio_core import samples

    store = io.load(HARNESS / "inspect" / "eval_set").samples
    assert len(store.files) > 1
    expected = store.scan().collect().sort("question", "model", "trial", maintain_order=True)
    monkeypatch.setattr(samples, "ROW_GROUP", 4)
    monkeypatch.setattr(samples, "BAND_BYTES", 1)
    path = store.write_parquet(tmp_path / "runs.samples.parquet")
    assert pl.read_parquet(path).equals(expected)
    _check_file(str(path), 4)
    assert len(SampleStore.open(path)) == len(store)


# ------------------------------------------ pieces of the store with different columns
def _uneven_store(error_first: bool) -> SampleStore:
    """A store of two files with different text columns, as two models' logs give one
    when only one model has errored samples: model ``a`` with output and answer, ``b`` with
    output, reasoning and an ``error`` (one errored completion, not in R)."""
    a = pl.DataFrame({"model": ["a", "a", "a"], "question": ["q1", "q1", "q2"],
                      "trial": [0, 1, 0], "trial_id": ["1", "2", "1"],
                      "output": ["4", "5", "9"], "answer": ["4", "5", "9"]})
    b = pl.DataFrame({"model": ["b", "b", "b"], "question": ["q1", "q1", "q2"],
                      "trial": [0, None, 0], "trial_id": ["1", "2", "1"],
                      "output": ["4", None, "8"], "reasoning": ["2 + 2", None, None],
                      "error": [None, "timeout", None]}, schema_overrides={"trial": pl.Int64})
    w = SampleWriter()
    for piece in ((b, a) if error_first else (a, b)):
        w.add(piece)
    store = w.store()
    assert len(store.files) == 2
    assert pl.read_parquet_schema(store.files[0]) != pl.read_parquet_schema(store.files[1])
    return store


@pytest.mark.parametrize("error_first", [False, True])
def test_store_files_with_different_columns_read_through_every_reader(tmp_path, error_first):
    """polars took the store's schema from its first file: a text column only a later file
    had (one model's ``error``) stopped every read with a SchemaError (or a
    ColumnNotFoundError when asked for). Every reader now sees every column of any file,
    null in the rows of a file without it, whichever file comes first."""
    store = _uneven_store(error_first)
    assert store.columns == ("reasoning", "output", "answer", "error")
    whole = store.scan().collect()
    assert whole.columns == ["model", "question", "trial", "trial_id", "reasoning", "output",
                             "answer", "error"]
    assert whole.sort("model", "question", "trial_id").select(
        "model", "trial", "answer", "error").rows() == [
        ("a", 0, "4", None), ("a", 1, "5", None), ("a", 0, "9", None),
        ("b", 0, None, None), ("b", None, None, "timeout"), ("b", 0, None, None)]
    q1 = store.for_question("q1", models=["a", "b"])
    assert q1.select("model", "trial", "output", "error").rows() == [
        ("a", 0, "4", None), ("a", 1, "5", None), ("b", 0, "4", None), ("b", None, None,
                                                                       "timeout")]
    assert store.for_question("q2", models=["b"], columns=["error", "answer"]).select(
        "model", "answer", "error").rows() == [("b", None, None)]
    assert store.for_question("q1", columns=["reasoning"])["reasoning"].to_list() == [
        None, None, "2 + 2", None]
    assert (store.count(), store.count(models=["b"]), store.count(questions=["q2"]),
            store.count(trials=1)) == (6, 3, 2, 5)
    assert store.questions() == ["q1", "q2"]
    # the export merges both files into one with every column; open() reads it back
    path = store.write_parquet(tmp_path / "runs.samples.parquet")
    back = SampleStore.open(path)
    assert back.columns == store.columns and len(back) == 6
    assert back.for_question("q1", models=["b"])["error"].to_list() == [None, "timeout"]
    # a store over both, and a copy: the same reads
    for other in (samples_union([store, _uneven_store(not error_first)]),
                  pickle.loads(pickle.dumps(store))):
        assert set(other.for_question("q1")["error"].to_list()) == {None, "timeout"}


def _one_model_errored(tmp_path: Path, errored: str) -> list[Path]:
    """Inspect .eval logs in Inspect's on-disk shape (fixtures.make_logs) of models ``a``
    and ``b``: model ``errored`` with one errored sample (question 2, epoch 2), the other
    without any -- so one model's store file has an ``error`` column and the other's none."""
    from fixtures import make_logs as mk

    v = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]])
    return [mk.write_inspect_eval(tmp_path / f"{m}.eval", m, "t", v, [1, 2, 3],
                                  errored={(2, 2)} if m == errored else ())
            for m in ("a", "b")]


@pytest.mark.parametrize(("on_missing", "errored"), [("truncate", "b"), ("drop_questions", "b"),
                                                     ("truncate", "a")])
def test_logs_where_one_model_errored_read_in_python_and_the_cli(tmp_path, capsys, on_missing,
                                                                 errored):
    """An audit's crash: logs where only one model had errored samples stopped
    ``info``, ``pair``, ``report`` and ``import`` and, in Python, the dataset's display and
    ``samples.for_question`` (polars: extra column ``error``)."""
    from scorio_core.cli import main

    logs = _one_model_errored(tmp_path, errored)
    d = io.load(logs, on_missing=on_missing)
    assert d.samples.columns[-1] == "error" and len(d.samples) == 2 * 3 * 3
    rows = d.samples.for_question("2").select("model", "trial_id", "error").rows()
    assert (errored, "2", "RuntimeError: model timed out") in rows
    assert all(e is None for m, t, e in rows if (m, t) != (errored, "2"))
    assert "completions" in d._repr_html_()
    for q in d.questions:
        assert len(d.samples.for_question(q, models=["b", "a"])) == 6
    args = [*map(str, logs), "--on-missing", on_missing]
    assert main(["info", *args]) == 0
    assert main(["pair", *args[:2], "a", "b", *args[2:], "--format", "table"]) == 0
    assert main(["report", *args, "--out", str(tmp_path / "x.html")]) == 0
    assert main(["import", *args, "--out", str(tmp_path / "x.parquet")]) == 0
    capsys.readouterr()
    back = SampleStore.open(tmp_path / "x.samples.parquet")
    assert back.columns == d.samples.columns and len(back) == len(d.samples)
