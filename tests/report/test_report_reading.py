"""What a newcomer reads in a report: a true, plain provenance of data read from several
files, how harness logs were read, numbers that never wrap in print, no escaping of one
format leaking into another, a sentence instead of an empty table, one format per column."""

from __future__ import annotations

import hashlib
import re
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.definitions.provenance import (
    attach_sources,
    csv_header,
    export_file,
    provenance,
)
from scorio_core.outcomes import Outcomes
from scorio_core.report import build_report, to_html, to_markdown, to_notebook
from scorio_core.report._build import EMPTY_TABLES, empty_table_text
from scorio_core.report.html import CSS

HARNESS = Path(__file__).resolve().parents[1] / "fixtures" / "harness"
EPOCHS = HARNESS / "inspect" / "epochs"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _cells(page: str, table: str) -> list[list[str]]:
    """The body cells of the HTML table headed ``<h3>table</h3>`` (tags stripped)."""
    body = page.split(f"<h3>{table}</h3>", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>", 1)[1])
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r)]
            for r in rows]


# ------------------------------------------------------------ 1. provenance of several files
@pytest.fixture(scope="module")
def epochs_report():
    data = io.load(EPOCHS)
    rep = build_report(data, ["leaderboard"], title="epochs")
    return data, rep, to_html(rep), to_markdown(rep)


def test_data_read_from_several_files_name_each_file_and_its_sha256(epochs_report):
    data, rep, page, md = epochs_report
    logs = sorted(EPOCHS.glob("*.eval"))
    assert len(logs) == 2
    want = {f"epochs/{p.name}": _sha(p) for p in logs}
    assert data.metadata["source_sha256_per_file"] == want
    assert rep.provenance["input"]["sha256_per_file"] == want
    for text in (page, md):
        assert "not loaded from a file" not in text
        assert "['epochs/" not in text and "[&#x27;epochs/" not in text  # no Python list
        for name, digest in want.items():
            assert f"{digest}  {name}" in text  # as sha256sum prints it
    # the exports' headers too: one line per file
    lb = rep.sections[0]
    header = export_file(lb.analysis, data, lb.params, lb.result, "csv", "leaderboard")
    for name, digest in want.items():
        assert f"# input.sha256_per_file.{name}: {digest}\n" in header
    assert '"sha256_per_file"' in export_file(lb.analysis, data, lb.params, lb.result, "json")


def test_a_list_of_files_and_an_archive_are_hashed_once_each(tmp_path):
    logs = sorted(EPOCHS.glob("*.eval"))
    data = io.load(logs)  # two paths named by the caller
    assert data.metadata["source_sha256_per_file"] == {p.name: _sha(p) for p in logs}
    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for p in logs:
            zf.write(p, p.name)
    upload = io.load({"a.zip": archive.read_bytes()})  # one upload: the app records it
    assert "source_sha256_per_file" not in upload.metadata
    nested = tmp_path / "nested"
    nested.mkdir()
    (nested / "logs.zip").write_bytes(archive.read_bytes())
    from_dir = io.load(nested)  # one archive found in a directory: that file's own record
    assert from_dir.metadata["source_sha256"] == _sha(archive)
    assert from_dir.metadata["source_name"] == "nested/logs.zip"


LM_EVAL = HARNESS / "lm_eval" / "limited"
HELM = HARNESS / "helm" / "simple_mcqa"


def test_files_read_beside_a_log_for_names_are_listed_and_hashed():
    """lm-eval's results_<date>.json (the model's name) and HELM's run_spec.json are read
    beside the samples: they are inputs of the data, listed with their sha256 like the logs
    -- in a directory, and beside one samples file named alone (found on disk)."""
    alpha = LM_EVAL / "alpha"
    samples, results = (next(alpha.glob(g)) for g in ("samples_*.jsonl", "results_*.json"))
    folder = io.load(LM_EVAL)
    assert folder.metadata["source_sha256_per_file"] == {
        f"limited/alpha/{p.name}": _sha(p) for p in (samples, results)}

    alone = io.load(samples)  # the results file is found next to it on disk
    assert list(alone.models) == ["alpha"]  # named by that file
    assert alone.metadata["source_sha256_per_file"] == {p.name: _sha(p)
                                                        for p in (samples, results)}
    assert alone.metadata["source_path"] == str(samples.resolve())  # a notebook loads it
    rep = build_report(alone, ["leaderboard"])
    page = to_html(rep)
    assert "input files (2)" in page
    assert all(f"{_sha(p)}  {p.name}" in page for p in (samples, results))
    load_cell = to_notebook(rep, samples).cells[1].source  # checks the file it loads
    assert f"expected_sha256 = {_sha(samples)!r}" in load_cell

    helm = io.load(HELM).metadata["source_sha256_per_file"]
    runs = sorted(p for p in HELM.iterdir() if p.is_dir())
    assert len(runs) == 2
    for run in runs:
        for name in ("per_instance_stats.json", "run_spec.json"):
            assert helm[f"simple_mcqa/{run.name}/{name}"] == _sha(run / name)
        assert f"simple_mcqa/{run.name}/scenario.json" not in helm  # never read
    for name, digest in helm.items():  # whatever else was read is hashed as it is on disk
        assert digest == _sha(HELM.parent / name), name


def test_several_files_over_the_limit_say_not_hashed_instead_of_a_digest():
    data = Outcomes(np.ones((1, 2, 1), int))
    big = attach_sources(data, [("a.csv", b"12345"), ("b.csv", b"678")], limit=4)
    inp = provenance(big)["input"]
    assert inp["not_hashed"] == "not hashed (2 files, 0.0 GB)"
    assert set(inp["sha256_per_file"].values()) == {None}
    page = to_html(build_report(big, ["leaderboard"]))
    assert "not hashed (2 files, 0.0 GB)" in page and "not loaded from a file" not in page
    assert "# input.not_hashed: not hashed (2 files, 0.0 GB)" in csv_header(provenance(big))


def test_data_made_in_code_still_say_they_came_from_no_file():
    page = to_html(build_report(Outcomes(np.ones((2, 3, 2), int)), ["leaderboard"]))
    assert "not loaded from a file" in page


# ------------------------------------------------------------ 2. how the data were read
def test_report_of_logs_says_how_each_file_was_read(epochs_report):
    data, _, page, md = epochs_report
    assert '<section id="how-read"><h2>How the data were read</h2>' in page
    assert 'href="#how-read"' in page
    rows = _cells(page, "files")
    by_model = {r[2]: r for r in rows}
    assert set(by_model) == {"alpha", "beta"}
    for f in data.metadata["import_report"]["files"]:
        r = by_model[f["model"]]
        # file, harness, model, model_in_log, benchmark, scorer, records, missing, ours,
        # harness value, reducer
        assert r[:2] == [f["file"], "inspect"] and r[4:8] == [
            "arith", f["scorer"], str(f["records"]), "0"]
        assert r[8] == f"{f['mean']:.4f}" and r[9] == f"{f['harness']['value']:.4f}"
    assert "## How the data were read" in md and "| file | harness | model |" in md


def test_report_notes_say_the_outcome_is_the_graders_score():
    data = io.load(HARNESS / "openai_evals" / "modelgraded_partial")
    rep = build_report(data, ["leaderboard"])
    page, md = to_html(rep), to_markdown(rep)
    for text, quote in ((page, "&#x27;"), (md, "'")):
        how = text.split("How the data were read", 2)[-1]
        assert "the outcome is the grader" in how
        assert f"graded by the completion fn {quote}grader{quote}" in how
    assert "How the data were read" not in to_html(build_report(
        Outcomes(np.ones((2, 3, 2), int)), ["leaderboard"]))  # not logs: no such part


def test_the_app_and_the_report_share_one_import_table():
    from app_state.load_form import import_table as app_table
    from scorio_core.io import import_table

    rep = io.load(EPOCHS).metadata["import_report"]
    core, app = import_table(rep), app_table(rep)
    assert list(core.columns) == list(app.columns)
    assert core["records"].tolist() == [15, 15] and app["records"].tolist() == ["15", "15"]


# ------------------------------------------------------------ 3. numbers never wrap in print
def test_print_css_never_wraps_a_number():
    css = CSS.split("@media print", 1)[1]
    rules = dict(re.findall(r"([^{}]+)\{([^}]*)\}", css.split("{", 1)[1]))
    rules = {" ".join(k.split()): v for k, v in rules.items()}
    assert "table-layout: fixed" not in css
    assert "white-space: nowrap" in rules["td"]  # every cell, numbers included ...
    wrapping = [sel for sel, body in rules.items() if "anywhere" in body or "normal" in body
                and "white-space" in body]
    for sel in wrapping:  # ... and only headers and text cells may wrap
        assert all(part.strip() in ("th", "td.t", "td.long") for part in sel.split(",")), sel


# ------------------------------------------------------------ 4. one escaping per format
@pytest.fixture(scope="module")
def coins_report(data_dir):
    data = io.load(data_dir / "biased_coins.npz")
    rep = build_report(data, ["leaderboard", ("stability", {"methods": "bayes,pass_at_k_2"}),
                              ("pair", {"top": 3})])
    return rep, to_html(rep), to_markdown(rep)


def test_html_shows_code_spans_as_code_not_backticks(epochs_report):
    _, _, page, md = epochs_report  # N = 3: the leaderboard's caveat on the prior's pull
    assert "so `bayes_mu` is `score` pulled" in md
    assert "<code>bayes_mu</code> is <code>score</code> pulled" in page
    text = re.sub(r"<pre>.*?</pre>", "", page, flags=re.S)
    assert "`" not in text


def test_markdown_carries_comparisons_as_text_not_html_entities(coins_report):
    rep, _, md = coins_report
    assert "&lt;" not in md and "&gt;" not in md
    assert "needs N >= 2 trials" in md
    assert re.search(r"\| <0\.0001 \|", md)  # the pair's p_value


# ------------------------------------------------------------ 5. empty tables
def test_an_empty_table_is_one_sentence_not_a_bare_header():
    rng = np.random.default_rng(3)  # three far-apart models: every pair decided ...
    R = (rng.random((3, 60, 8)) < np.array([0.95, 0.5, 0.05])[:, None, None]).astype(int)
    R[0, :, 0], R[2, :, 0] = 1, 0  # ... and no question the same for every model
    rep = build_report(Outcomes(R), ["leaderboard", ("plan", {"sims": 100}), "questions"])
    tables = {k: v for s in rep.sections for k, v in s.tables.items()}
    assert tables["unresolved"].empty and tables["pairs"].empty
    assert tables["uninformative"].empty
    page, md = to_html(rep), to_markdown(rep)
    for name in ("unresolved", "pairs", "uninformative"):
        sentence = empty_table_text(name)
        assert sentence == EMPTY_TABLES[name]
        assert f'<h3>{name}</h3><p class="note">{sentence}</p>' in page
        assert f"### {name}\n\n{sentence}\n" in md
    assert "None: every adjacent pair is decided." in page
    assert "<thead><tr><th>better</th>" not in page


def test_disagree_is_left_out_in_one_line_when_it_would_repeat_the_questions():
    """With top >= M the 'disagree' table held every question again, only reordered: the
    report says so in one line instead; with fewer, it is printed (the export has both)."""
    rng = np.random.default_rng(5)
    R = (rng.random((4, 12, 6)) < rng.random((4, 12, 1))).astype(int)
    rep = build_report(Outcomes(R), [("questions", {"top": 20, "irt": False}),
                                     ("questions", {"top": 5, "irt": False})])
    every, few = rep.sections
    assert len(every.tables["disagree"]) == 12  # the export keeps it
    note = ("Not shown: top = 20 covers all 12 questions, so this table would repeat the "
            "'questions' table above, only ordered by disagreement (the CSV/JSON export has "
            "it).")
    assert every.shown["disagree"].table.empty and every.shown["disagree"].note == note
    page, md = to_html(rep), to_markdown(rep)
    assert f'<h3>disagree</h3><p class="note">{note}</p>' in page.replace("&#x27;", "'")
    assert f"### disagree\n\n{note}\n" in md
    assert page.count("<h3>disagree</h3>") == 2
    assert few.shown["disagree"].note is None
    assert len(_cells(page.split('id="s2"', 1)[1], "disagree")) == 5


# ------------------------------------------------------------ 6. one format per column
def test_one_column_name_prints_one_format_in_a_report(data_dir):
    data = io.load(data_dir / "jhu_llm_temperature.parquet")
    rep = build_report(data, [("questions", {"top": 20})])
    page = to_html(rep)
    q = rep.sections[0].tables
    assert "q018" in set(q["disagree"]["question"])
    col = list(q["questions"].columns).index("difficulty")
    shown = {t: next(r[col] for r in _cells(page, t) if r[0] == "q018")
             for t in ("questions", "disagree")}
    assert shown["questions"] == shown["disagree"] == "-0.301", shown
    # every number column of the section: one format, whichever table shows it
    from scorio_core.formatting import table_formats

    seen: dict[str, set] = {}
    for df in q.values():
        for c, f in zip(df.columns, table_formats(df), strict=True):
            if f.numeric and df[c].notna().any():
                seen.setdefault(c, set()).add((f.kind, f.decimals if f.kind == "float" else 0))
    assert {c: v for c, v in seen.items() if len(v) > 1} == {}


def test_named_quantities_keep_their_decimals_whatever_the_rows():
    from scorio_core.formatting import column_format

    few = pd.Series([-0.3005, 1.2, 3.1])
    many = pd.Series([-0.3005, 1.2, 3.1, -24.7])  # a collapsed 2PL fit beyond |b| = 10
    for name in ("difficulty", "discrimination"):
        assert column_format(few, name) == column_format(many, name)
    assert column_format([12.3, 4.5], "df") == column_format([1234.5], "df")
