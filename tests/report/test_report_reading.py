"""What a newcomer reads in a report: a true, plain provenance of data read from several
files, how harness logs were read, numbers that never wrap in print, no escaping of one
format leaking into another, a sentence instead of an empty table, one format per column."""

from __future__ import annotations

import hashlib
import html
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


def test_several_sources_given_as_one_name_are_refused_not_read_letter_by_letter():
    """attach_sources takes (name, path or bytes) pairs; one bare name was unpacked letter by
    letter ("not enough values to unpack"): it is refused with what was expected."""
    from scorio_core._validation import ValidationError

    data = Outcomes(np.ones((1, 2, 1), int))
    for bad in ("a.csv", [("a.csv",)]):
        with pytest.raises(ValidationError, match=r"sources must be a list of \(name, path or "
                                                  r"bytes\) pairs"):
            attach_sources(data, bad)
    pairs = iter([("a.csv", b"1")])  # any iterable of pairs, read once
    assert list(attach_sources(data, pairs).metadata["source_sha256_per_file"]) == ["a.csv"]


def test_data_made_in_code_still_say_they_came_from_no_file():
    page = to_html(build_report(Outcomes(np.ones((2, 3, 2), int)), ["leaderboard"]))
    assert "not loaded from a file" in page


def test_the_provenance_lists_the_load_options_the_data_were_read_with(tmp_path, monkeypatch):
    """The provenance named the files and their sha256 but not how they were read: Inspect's
    graded logs read on 0..10 and made binary from a grade of 5 reported as if read with
    the defaults. It lists the options not at their defaults as the ``sc.load`` call writes
    them, from the data's own record (``io.loaded_with``): in the HTML and Markdown
    provenance, the JSON record, a CSV export's header and the notebook's intro -- the
    options its load cell repeats, which read the same data; read with the defaults, it
    says so."""
    import nbformat

    import scorio_core as sc
    from scorio_core.definitions import ANALYSES

    data = io.load(HARNESS / "inspect" / "graded", score_range=(0, 10), correct_from=5)
    assert data.is_binary and io.loaded_with(data) == io.LoadOptions(
        score_range=(0, 10), correct_from=5)
    want = "score_range=(0.0, 10.0), correct_from=5.0"
    rep = build_report(data, ["leaderboard"])
    page, md = to_html(rep), to_markdown(rep)
    assert f"<dt>load options</dt><dd>{html.escape(want)}</dd>" in page
    assert f"- **load options**: {want}\n" in md
    assert _json_block(page)["load_options"] == {"score_range": [0.0, 10.0],
                                                  "correct_from": 5.0}
    lb = ANALYSES["leaderboard"]
    header = export_file(lb, data, lb.params(), lb.run(data, lb.params()), "csv", "leaderboard")
    assert "# load_options.correct_from: 5.0\n" in header
    nb = nbformat.read(sc.report(data, tmp_path / "r.ipynb", sections=["leaderboard"]), 4)
    assert f"Read with the loader options `{want}`" in nb.cells[0].source
    assert f"data = sc.load(path, {want})" in nb.cells[1].source
    monkeypatch.chdir(tmp_path)  # the notebook's folder: its paths are relative to it
    ns: dict = {}
    exec(compile(nb.cells[1].source, "<load cell>", "exec"), ns)  # noqa: S102
    np.testing.assert_array_equal(ns["data"].R, data.R)
    # a table of one row per repeat, numbered as trials; and data read with the defaults
    rows = "".join(f"{m},q{q},{(q + k) % 2}\n" for m in "ab" for q in range(3) for k in range(2))
    numbered = io.load(("model,question,outcome\n" + rows).encode(), filename="rep.csv",
                       number_trials=True)
    from scorio_core.report._build import provenance_rows

    got = {d.name: dict(provenance_rows(provenance(d))).get("load options")
           for d in (numbered, io.load(EPOCHS), Outcomes(np.ones((2, 3, 2), int), name="code"))}
    assert got == {"rep": ["number_trials=True"], "arith": ["none (the loader's defaults)"],
                   "code": None}, got  # made in code: no file, no options to name


# ------------------------------------------------------------ 2. how the data were read
def test_report_of_logs_says_how_each_file_was_read(epochs_report):
    data, _, page, md = epochs_report
    assert '<section id="how-read"><h2>How the data were read</h2>' in page
    assert 'href="#how-read"' in page
    rows = _cells(page, "files")
    by_model = {r[0]: r for r in rows}
    assert set(by_model) == {"alpha", "beta"}
    for f in data.metadata["import_report"]["files"]:
        r = by_model[f["model"]]
        # model, model_in_log, benchmark, ours, harness value (side by side), reducer,
        # records, missing, scorer, harness, file
        assert r[2] == "arith" and r[3] == f"{f['mean']:.4f}"
        assert r[4] == f"{f['harness']['value']:.4f}"
        assert r[6:] == [str(f["records"]), "0", f["scorer"], "inspect", f["file"]]
    assert "## How the data were read" in md
    assert "| model | model_in_log | benchmark | ours (mean) | harness value |" in md


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
            "'questions' table, only ordered by disagreement (the CSV/JSON export has it).")
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
    assert next(r[col] for r in _cells(page, "disagree") if r[0] == "q018") == "-0.301"
    # the questions table prints both ends (q018 is in the middle): 3 decimals there too
    for t in ("questions", "disagree"):
        cells = [r[col] for r in _cells(page, t)]
        assert cells and all(re.fullmatch(r"-?\d+\.\d{3}|∞|−∞|—", c) for c in cells), cells
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


# ------------------------------------------------------------ 7. long tables on paper
def _no_table_cut(page: str, md: str) -> None:
    """No table of a report is cut after its first rows: each prints what its view chose."""
    for text in (page, md):
        assert "First 60 of" not in text and "rows; the CSV/JSON export" not in text


def test_questions_print_both_ends_and_the_odd_ones_between(data_dir):
    """The questions table (120 questions, easiest first) printed its first 60 rows: the
    hardest half, where the unsolved questions are, was missing from print. A report prints
    the 20 easiest and the 20 hardest, and between them the questions that rank models
    against the rest or have a status, with one line on the others; the export has all."""
    from scorio_core.definitions import PRINTED_ROWS
    from scorio_core.definitions.questions import QUESTION_ENDS

    data = io.load(data_dir / "reasoning_synthetic.npz")
    rep = build_report(data, ["questions"])
    s = rep.sections[0]
    every, view = s.tables["questions"], s.shown["questions"]
    assert len(every) == 120 and QUESTION_ENDS == 20
    order, shown = every["question"].tolist(), view.table["question"].tolist()
    # here every question with a status or item_rest_r < 0 is among the 20 hardest
    odd = every[(every["item_rest_r"] < 0) | (every["status"] != "")]
    assert set(odd["question"]) <= set(order[-20:]) and len(odd) == 4
    assert shown == order[:20] + order[-20:] and len(shown) <= PRINTED_ROWS
    assert view.table.equals(  # the table's rows, whole
        pd.concat([every.iloc[:20], every.iloc[-20:]]).reset_index(drop=True))
    middle = every["mean"].iloc[20:-20]
    assert view.note == (
        "Shown: the 20 easiest and the 20 hardest of the 120 questions (none between them "
        "has item_rest_r < 0 or a status); not printed: the other 80 (mean "
        f"{middle.max():.4f} to {middle.min():.4f}). 'disagree' lists the questions where "
        "the models differ most; the CSV/JSON export has every question.")
    page, md = to_html(rep), to_markdown(rep)
    _no_table_cut(page, md)
    assert [html.unescape(r[0]) for r in _cells(page, "questions")] == shown  # the hardest too
    assert "HMMT'25-01" in shown
    # the notebook's cell shows the same rows and line
    from scorio_core.definitions import ANALYSES

    code = ANALYSES["questions"].to_code(s.params, "data").splitlines()
    ns = {"data": data}
    exec("\n".join(code[:-1]), ns)
    shown_nb = eval(code[-1].replace("sc.display.show(", "sc.display.as_table("), ns)
    assert shown_nb.table.equals(view.table) and shown_nb.note == view.note
    assert "more rows" not in repr(shown_nb)
    # few questions: the table is printed whole, no line
    small = build_report(data.select("AIME'25"), [("questions", {"irt": False})])
    assert small.sections[0].shown["questions"].note is None


def test_questions_between_the_ends_are_those_to_look_at():
    """Between the 20 easiest and the 20 hardest, a report prints the questions that rank
    models against the rest (item_rest_r < 0) or have a status, in the table's order; more
    than the rows left: those with a status first, then the lowest item_rest_r."""
    from scorio_core.definitions import PRINTED_ROWS
    from scorio_core.definitions.questions import questions_view

    m = 100
    t = pd.DataFrame({"question": [f"q{i:03d}" for i in range(m)],
                      "mean": np.linspace(1.0, 0.0, m), "item_rest_r": 0.5, "status": ""})
    t.loc[[30, 50, 70], "item_rest_r"] = [-0.2, -0.1, -0.3]
    t.loc[60, "status"] = "no 2PL slope"
    view = questions_view(t)
    names = view.table["question"].tolist()
    assert names == [f"q{i:03d}" for i in [*range(20), 30, 50, 60, 70, *range(80, 100)]]
    assert view.note.startswith("Shown: the 20 easiest and the 20 hardest of the 100 "
                                "questions, and the 4 between them that rank models against "
                                "the rest (item_rest_r < 0) or have a status")
    assert "not printed: the other 56 (mean 0.7980 to 0.2020)" in view.note
    # more than the 20 rows left: the status first, then the lowest item_rest_r
    t.loc[20:79, "item_rest_r"] = np.linspace(-0.01, -0.6, 60)
    view = questions_view(t)
    between = view.table["question"].iloc[20:-20].tolist()
    assert len(view.table) == PRINTED_ROWS and "q060" in between
    assert between == [f"q{i:03d}" for i in [60, *range(61, 80)]]
    assert "and 20 of the 60 between them that rank" in view.note
    assert questions_view(t.iloc[:PRINTED_ROWS]) is None


def test_convergence_pmf_prints_doubling_bins_that_sum_to_one(data_dir):
    """The pmf printed one row per method and n (206 rows with mass on the coins, cut at
    60): p = 0.0001, 0.0002, ... row by row, one method's. A report prints one row per
    method: the mass of convergence@n in bins n = 1, 2, 3–4, 5–8, ..., up to N - 1, and the
    share that never settled; each row sums to 1. The export keeps p for every n."""
    data = io.load(data_dir / "biased_coins.npz")
    rep = build_report(data, [("convergence", {"methods": "bayes,avg,pass_at_k_2",
                                               "replicates": 400, "curve_replicates": 20})])
    s = rep.sections[0]
    pmf, view = s.tables["pmf"], s.shown["pmf"].table
    assert len(pmf) == 3 * 79  # the export: every n of every method
    assert list(view.columns) == ["method", "n=1", "n=2", "n=3–4", "n=5–8", "n=9–16",
                                  "n=17–32", "n=33–64", "n=65–79", "no_convergence"]
    assert view["method"].tolist() == ["bayes", "avg", "pass_at_k_2"]
    bins = {"n=1": (1, 1), "n=2": (2, 2), "n=3–4": (3, 4), "n=5–8": (5, 8), "n=9–16": (9, 16),
            "n=17–32": (17, 32), "n=33–64": (33, 64), "n=65–79": (65, 79)}
    for _, row in view.iterrows():
        mine = pmf[pmf["method"] == row["method"]]
        for col, (lo, hi) in bins.items():
            assert row[col] == pytest.approx(mine.loc[mine["n"].between(lo, hi), "p"].sum(),
                                             abs=1e-12)
        no = s.tables["summary"].set_index("method").loc[row["method"], "no_convergence"]
        assert row["no_convergence"] == pytest.approx(no, abs=1e-12)
        assert row[list(bins) + ["no_convergence"]].sum() == pytest.approx(1.0, abs=1e-9)
    note = s.shown["pmf"].note
    assert note.startswith("Share of replicates whose convergence@n falls in each bin")
    assert "The CSV/JSON export lists p for every n." in note
    page, md = to_html(rep), to_markdown(rep)
    _no_table_cut(page, md)
    assert len(_cells(page, "pmf")) == 3


def test_flips_without_texts_print_one_row_per_pair_of_outcomes(data_dir):
    """With no completion texts the flip table printed every trial (80 rows of scores on
    the coins, cut at 60): which trial it was says nothing there. A report prints each pair
    of outcomes once with how many trials gave it; the export lists each trial."""
    data = io.load(data_dir / "biased_coins.npz")
    rep = build_report(data, ["pair"])
    s = rep.sections[0]
    trials, view = s.tables["flips"], s.shown["flips"]
    assert len(trials) == 80
    grouped = view.table
    assert list(grouped.columns) == ["question", "flip", "category_a", "score_a", "category_b",
                                     "score_b", "repeats"]
    assert grouped["repeats"].sum() == 80 and grouped["repeats"].is_monotonic_decreasing
    want = trials.groupby(["category_a", "category_b"]).size().to_dict()
    assert {(r.category_a, r.category_b): r.repeats for r in grouped.itertuples()} == want
    assert (grouped["flip"] == (grouped["score_a"] != grouped["score_b"])).all()
    assert view.note == ("The 80 trials grouped by the two models' outcomes (no completion "
                         "texts to read side by side): repeats = the trials that gave that "
                         "pair; the CSV/JSON export lists each trial.")
    # the repeats' trial lists (68 numbers in one cell) print their runs as ranges
    repeats, runs = s.tables["repeats"], s.shown["repeats"].table

    def expand(text: str) -> list[int]:
        out = []
        for part in text.split(", "):
            lo, _, hi = part.partition("–")
            out += list(range(int(lo), int(hi or lo) + 1))
        return out

    assert [expand(t) for t in runs["trials"]] == [
        [int(x) for x in t.split(", ")] for t in repeats["trials"]]
    assert runs.drop(columns="trials").equals(repeats.drop(columns="trials"))
    assert max(map(len, runs["trials"])) < max(map(len, repeats["trials"])) / 3
    assert "ranges" in s.shown["repeats"].note
    page, md = to_html(rep), to_markdown(rep)
    _no_table_cut(page, md)
    assert len(_cells(page, "flips")) == len(grouped) <= 4


def test_flips_with_texts_print_each_trial(data_dir):
    """Completion texts are read trial by trial: every trial prints, two rows each (a's above
    b's, one column per text), the texts those of the export's side-by-side table."""
    data = io.load(HARNESS / "inspect" / "texts")
    rep = build_report(data, [("pair", {"question": "2"})])
    s = rep.sections[0]
    wide, view = s.tables["flips"], s.shown["flips"]
    assert view.note.startswith("Question 2: one row per trial and model, alpha's above "
                                "beta's (flip = the two scores differ; trial = the sample's "
                                "epoch in the Inspect log)")
    assert view.table["trial"].tolist()[::2] == [1, 2, 3]  # the log's epochs
    assert len(view.table) == 2 * len(wide) == 2 * data.N
    for tag, rows in (("a", view.table.iloc[::2]), ("b", view.table.iloc[1::2])):
        assert rows["trial"].tolist() == wide["trial"].tolist()
        for col in ("category", "score", "answer", "explanation"):
            assert rows[col].tolist() == wide[f"{col}_{tag}"].tolist()


def test_a_texts_line_breaks_read_as_lines_in_html_and_markdown(tmp_path):
    """A multiple-choice question's input (``Is 70 even or odd?`` / ``A. Even`` / ...) and a
    thinking model's reasoning over two lines ran into one line in the HTML report (a
    browser collapses a newline to a space); the Markdown kept its tables whole only by the
    same space. Both now break their lines (``<br>``, after escaping), and every row of
    every Markdown table is still one line with its header's cells."""
    from fixtures.helm_runs import MCQ_INPUT, THINKING, annotated_run, helm_run, multiline_input

    runs = tmp_path / "helm" / "simple_mcqa"
    multiline_input(annotated_run(runs))
    multiline_input(helm_run(runs, "beta"))
    data = io.load(tmp_path / "helm")
    rep = build_report(data, [("pair", {"question": "id60"})])
    page, md = to_html(rep), to_markdown(rep)
    lines, thought = MCQ_INPUT.split("\n"), THINKING[("id60", 0)].split("\n")
    assert len(lines) == 4 and len(thought) == 2
    for text in (lines, thought):
        assert "<br>".join(html.escape(x) for x in text) in page
        assert "<br>".join(text) in md
    assert [r[1] for r in _cells(page, "question_texts")] == ["".join(lines)]  # one cell
    assert "\n".join(lines) not in page and " ".join(lines) not in page
    # a number cell holds no break, only text cells do
    assert not re.search(r'<td>[^<]*<br>', page)
    tables = re.findall(r"(?m)^(\|.*\|\n\|[-:|]+\|\n(?:\|.*\|\n?)*)", md)
    assert len(tables) >= 4
    for table in tables:
        rows = table.strip("\n").split("\n")
        widths = {len(re.split(r"(?<!\\)\|", r)) for r in rows}
        assert len(widths) == 1, rows  # every row has the header's cells: nothing broke off
    assert f"| id60 | {'<br>'.join(lines)} | Even |" in md


def _answers_table(path: Path, trials: int = 80) -> Path:
    """A long table with text columns: two models, three questions, ``trials`` trials each,
    a few distinct answers per model (right about 70 % and 45 % of the time) and a
    reasoning output per trial."""
    rng = np.random.default_rng(11)
    rows = []
    for model, right in (("m1", 0.7), ("m2", 0.45)):
        for q in ("q0", "q1", "q2"):
            for k in range(trials):
                ok = rng.random() < right
                answer = "x=12" if ok else str(rng.choice(["x=13", "x=24", "none"]))
                rows.append({"model": model, "question": q, "trial": k, "outcome": int(ok),
                             "answer": answer,
                             "output": f"Step by step on {q}, trial {k}: so {answer}."})
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_flips_with_texts_past_a_page_print_each_answer_once(tmp_path):
    """One question's 80 trials with texts printed their first 60 rows with a 'First 60'
    line: the answers given only after trial 60 were missing, and 60 near-identical rows
    said less than a few. A report prints the first trial on which each model gave each of
    its distinct answers, in trial order, with how many trials gave it (two rows per trial,
    one per model, so as many trials as fit half the page); the export lists every trial
    with its texts."""
    from scorio_core.definitions import PRINTED_ROWS

    data = io.load(_answers_table(tmp_path / "answers.csv"))
    assert data.N == 80 > PRINTED_ROWS and data.samples is not None
    rep = build_report(data, [("pair", {"a": "m1", "b": "m2", "question": "q1"})])
    s = rep.sections[0]
    trials, view = s.tables["flips"], s.shown["flips"]
    assert len(trials) == 80 and "output_a" in trials  # the export: every trial, its texts
    shown = view.table  # two rows per trial shown: m1's, then m2's
    side = {"a": shown.iloc[::2].reset_index(drop=True),
            "b": shown.iloc[1::2].reset_index(drop=True)}
    assert side["a"]["model"].eq("m1").all() and side["b"]["model"].eq("m2").all()
    shown_trials = side["a"]["trial"].tolist()
    assert side["b"]["trial"].tolist() == shown_trials
    firsts = {tag: trials.groupby(f"answer_{tag}")["trial"].min() for tag in ("a", "b")}
    assert sorted(shown_trials) == shown_trials == sorted(set(firsts["a"]) | set(firsts["b"]))
    assert 2 * len(shown_trials) <= PRINTED_ROWS
    rows = trials.set_index("trial").loc[shown_trials].reset_index()
    for tag in ("a", "b"):  # every distinct answer once, at its first trial, with its count
        assert set(side[tag]["answer"]) == set(trials[f"answer_{tag}"])
        counts = trials[f"answer_{tag}"].value_counts()
        assert side[tag]["repeats"].tolist() == counts[side[tag]["answer"]].tolist()
        for col in ("category", "score", "answer", "output"):  # the trials' own, texts and all
            assert side[tag][col].tolist() == rows[f"{col}_{tag}"].tolist(), (tag, col)
    k, da, db = len(shown_trials), trials["answer_a"].nunique(), trials["answer_b"].nunique()
    assert view.note == (
        "Question q1: one row per trial and model, m1's above m2's (flip = the two scores "
        "differ; trial = the file's trial column); repeats = on how many trials that model "
        "gave the row's answer. "
        f"Shown: {k} of the 80 trials, the first on which each model gave each of its "
        f"answers ({da} distinct for m1, {db} for m2). Not printed: the other {80 - k} "
        "trials, which repeat these. The 'repeats' table lists the trials of each model's "
        "answers; the CSV/JSON export has every trial with its texts.")
    page, md = to_html(rep), to_markdown(rep)
    _no_table_cut(page, md)
    assert [int(r[0]) for r in _cells(page, "flips")] == shown["trial"].tolist()
    assert all(html.escape(f"trial {t}: so") in page for t in shown_trials)
    # half a page of trials or fewer (two rows each): each trial, as before
    short = io.load(_answers_table(tmp_path / "short.csv", trials=PRINTED_ROWS // 2))
    view = build_report(short, ["pair"]).sections[0].shown["flips"]
    assert "Shown:" not in view.note and len(view.table) == PRINTED_ROWS


def test_per_method_stability_is_one_line_when_longer_than_a_page():
    """per_method (70 methods) printed its first 60 rows: the last 10 methods were missing.
    Each method's mean and sd are its class's in the two class tables, which list every
    method; a report says so in one line, and prints per_method whole when it is short."""
    from scorio_core.definitions import PRINTED_ROWS

    rng = np.random.default_rng(0)
    R = (rng.random((4, 12, 3)) < np.array([.8, .6, .4, .2])[:, None, None]).astype(int)
    rep = build_report(Outcomes(R), ["stability", ("stability", {"methods": "bayes,borda"})])
    every, few = rep.sections
    per = every.tables["per_method"]
    assert len(per) > PRINTED_ROWS and every.shown["per_method"].table.empty
    listed = [m for t in ("classes_gold", "classes_self")
              for m in ", ".join(every.tables[t]["methods"]).split(", ")]
    assert sorted(listed) == sorted(per["method"].tolist() * 2)
    assert every.shown["per_method"].note == (
        f"Not printed: {len(per)} methods, one row each; a method's mean and sd are those of "
        "its class in 'classes_gold' and 'classes_self' above, which list every method. The "
        "CSV/JSON export lists them one row per method, with its family.")
    assert few.shown["per_method"].note is None and len(few.shown["per_method"].table) == 2
    _no_table_cut(to_html(rep), to_markdown(rep))


# ------------------------------------------------------------ 8. the benchmark in words
def _json_block(page: str) -> dict:
    """The provenance record an HTML report prints under its provenance table."""
    import json

    pre = page.split('<section id="provenance">', 1)[1].split("<pre>", 1)[1]
    return json.loads(html.unescape(pre.split("</pre>", 1)[0]))


def test_the_provenance_table_and_its_json_name_one_benchmark(data_dir, tmp_path):
    """The provenance table read 'benchmark: mine' (the dataset's name) and the JSON record
    under it '"benchmark": "combined"' for data whose questions name no benchmark: nothing
    was combined, and the two contradicted each other. The record now says the data's
    benchmark(s) -- the one benchmark, 'combined' with the list it pools, none (null) where
    the questions name none -- and the table, the Markdown and the notebook's intro say that
    record in words (benchmark_words); the notebook's load cell selects what it names."""
    from scorio_core.definitions.provenance import NO_BENCHMARK, benchmark_words
    from scorio_core.report._build import provenance_rows

    rng = np.random.default_rng(3)
    rows = [(m, f"q{q}", t, int(rng.random() < 0.5)) for m in ("a", "b") for q in range(6)
            for t in range(2)]
    csv = tmp_path / "mine.csv"
    pd.DataFrame(rows, columns=["model", "question", "trial", "outcome"]).to_csv(csv, index=False)
    mine = io.load(csv)
    coins = io.load(data_dir / "biased_coins.npz")
    reasoning = io.load(data_dir / "reasoning_synthetic.npz")
    four = ["AIME'24", "AIME'25", "HMMT'25", "BrUMO'25"]
    for data, bench, names, want in [
        (mine, None, [], NO_BENCHMARK),
        (coins, None, [], NO_BENCHMARK),
        (reasoning.select("AIME'25"), "AIME'25", ["AIME'25"], "AIME'25"),
        (reasoning, "combined", four, "combined (AIME'24, AIME'25, HMMT'25, BrUMO'25)"),
    ]:
        rep = build_report(data, [("questions", {"irt": False})])
        prov = rep.provenance
        assert (prov["benchmark"], prov["benchmarks"]) == (bench, names), data.name
        assert benchmark_words(prov) == want
        assert dict(provenance_rows(prov))["benchmark"] == [want]
        page, md = to_html(rep), to_markdown(rep)
        assert f"<dt>benchmark</dt><dd>{html.escape(want)}</dd>" in page
        record = _json_block(page)  # the JSON under the table: the same record
        assert (record["benchmark"], record["benchmarks"]) == (bench, names)
        assert f"- **benchmark**: {want}\n" in md
        assert "combined" not in page.split('<section id="provenance">', 1)[1] or len(names) > 1
        nb = to_notebook(rep, data_dir / "biased_coins.npz")
        intro, load = nb.cells[0].source, nb.cells[1].source
        assert nb.metadata["scorio_provenance"]["benchmark"] == bench
        if bench is None:  # the dataset is named once; nothing to select
            assert "benchmark" not in intro.split("\n")[2] and ".select(" not in load
        else:
            assert f"benchmark `{want}`" in intro
            assert (".select(\"AIME'25\")" in load) == (bench == "AIME'25")
