"""The CLI for people and scripts (issue 24): every ``--help`` answers, ``--format`` picks a
readable table on a terminal and CSV when piped, ``--columns`` maps other column names, and a
newcomer's inputs (CR-only CSV, a huge ``--k``, an .xlsx renamed .csv) end in a clear message."""

from __future__ import annotations

import argparse
import functools
import io as _io
import json
import re
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.cli import _parser, main

ROWS = [(m, f"q{q}", t, int((3 * m + q + t) % 4 == 0)) for m in range(3) for q in range(6)
        for t in range(3)]


def _help_paths(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()):
    """Every command path of the argparse tree: subcommands and their sub-subcommands."""
    yield prefix
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _help_paths(sub, (*prefix, name))


PATHS = list(_help_paths(_parser()))


def test_the_tree_has_the_nested_commands():
    assert ("simulate",) in PATHS and ("rubric", "list") in PATHS and len(PATHS) > 14


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(p) or "(top)" for p in PATHS])
def test_every_help_answers(path, capsys):
    """`simulate --help` crashed on an unescaped % (issue 24); every level is checked."""
    with pytest.raises(SystemExit) as info:
        _parser().parse_args([*path, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: scorio-studio") and "Traceback" not in out


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(p) or "(top)" for p in PATHS])
def test_help_describes_the_option_not_a_page(path, capsys):
    """``--help`` is read in a terminal: "(Planner page)", "(the page simulates one)" or "same
    as the page" said what the app shows instead of what the command or option does. A page
    is named only as the app's, as a cross-reference ("the app's pages show ...")."""
    import re

    with pytest.raises(SystemExit):
        _parser().parse_args([*path, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for m in re.finditer(r"\bpages?\b", text):
        assert "app's" in text[max(0, m.start() - 40):m.start()], text[m.start() - 80:m.end()]


def test_simulate_study_help(capsys):
    # the second spelling: the positional first, then --help
    with pytest.raises(SystemExit) as info:
        _parser().parse_args(["simulate", "calibration", "--help"])
    out = capsys.readouterr().out  # the study's own flags, from its declared settings
    assert info.value.code == 0 and "--questions QUESTIONS" in out
    # the lesson's main subject first (the audit: it read "coverage of 95% Bayes@N
    # intervals", the papers' interval being the comparison)
    said = " ".join(out.split())
    assert ("coverage of the leaderboard's 95% headline intervals, beside the papers' Bayes@N "
            "interval, vs N and M in both scopes") in said


def test_simulate_order_help_says_the_pair_is_a_setting(capsys):
    """The order study's help said "for LLM10 vs LLM9" while --upper/--lower set the pair:
    it names the flags, the paper's pair as their default."""
    with pytest.raises(SystemExit):
        _parser().parse_args(["simulate", "order", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "for LLM10 vs LLM9" not in out
    assert "for a better and a worse model, --upper and --lower (by default" in out
    with pytest.raises(SystemExit):
        _parser().parse_args(["simulate", "--help"])
    assert "for LLM10 vs LLM9" not in " ".join(capsys.readouterr().out.split())


def _section(out: str, heading: str) -> list[str]:
    """The lines of a text output's table under ``## heading`` (to the next blank line)."""
    lines = out.splitlines()
    start = lines.index(f"## {heading}") + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def test_simulate_text_says_settings_as_typed_and_headlines_as_their_tables():
    """The studies printed raw Python values -- ``update: {'mean_tau': 0.8835742857142858,
    ...}``, ``N_at_z: {1.645: 180.0, 1.96: 270.0}``, ``concentration = 3.0000`` for a κ typed
    as 3, μ as 0.5625 above a table reading 0.56250. Now the settings read as the flags
    that set them, every number goes through the one formatter, and a headline reads as
    the table holding the same quantity prints it."""
    import re

    from scorio_core.cli.simulate import render

    def text(*argv: str) -> str:
        args = _parser().parse_args(["simulate", *argv, "--format", "table"])
        return render(args)

    out = text("order", "--replicates", "60", "--concentration", "3", "--seed", "2")
    lines = out.splitlines()
    assert "Settings: --upper 0.6213 --lower 0.608 --concentration 3 --replicates 60 --seed 2" \
        in lines
    assert not re.search(r"[{}\[\]]|\d\.\d{5,}", out)  # no dict, list or unformatted float
    header, *rows = _section(out, "thresholds")
    assert header.split() == ["z", "N_at_z", "N_at_z_signed", "predicted_from_N=80"]
    cells = [r.split() for r in rows]
    assert [c[0] for c in cells] == ["1.645", "1.96"]  # the thresholds as named everywhere
    paper = {"1.645": 199, "1.96": 285}  # 000 App. D, beside the run's (the paper's pair)
    for z, n, signed, pred in cells:
        assert all(re.fullmatch(r"\d+|—", x) for x in (n, signed, pred))  # whole trials
        assert (f"N where z reaches {z}: {n} (paper: {paper[z]}; predicted from N = 80: "
                f"{pred})") in lines
    p80 = next(r.split() for r in _section(out, "order")[1:] if r.split()[0] == "80")[1]
    assert f"P(correct order) at N = 80: {p80} (paper: 0.837, κ-dependent)" in lines
    assert re.fullmatch(r"\d\.\d{3}", p80)  # a share of 60 datasets: three decimals

    out = text("rubric-lesson", "--weights", "0,0.5,1")
    lines = out.splitlines()
    at = lines.index("Settings: --weights 0,0.5,1")  # under the title and how to read it
    # an unset setting with what unset means (its declared word), not a bare None
    assert lines[at + 1] == ("Without a flag here (set in Python): R0 = None (ν = counts + 1), "
                             "R = ((0, 1, 2, 2, 1), (1, 1, 0, 2, 2))")
    assert {"μ: 0.56250", "σ: 0.09200", "T = 1 + C + D + N: 8"} <= set(lines)
    assert _section(out, "summary")[1].split() == ["0.56250", "0.09200", "8", "2"]

    out = text("prior-depth", "--replicates", "20")
    lines = out.splitlines()
    assert "Settings: --replicates 20 --seed 0" in lines
    assert not re.search(r"[{}\[\]]|\d\.\d{5,}", out)
    tau = next(ln for ln in lines if ln.startswith("mean τ(original, updated): "))
    assert re.fullmatch(r"mean τ\(original, updated\): 0\.\d{4} \(paper: 0\.88\)", tau)
    share = next(ln for ln in lines if ln.startswith("updates that change the ranking: "))
    # a share of the simulated updates: three decimals, as p_correct and coverage
    assert re.fullmatch(r"updates that change the ranking: 0\.\d{3} \(paper: 0\.86\)", share)
    means = next(ln for ln in lines if ln.startswith("Original models' true means: "))
    assert re.fullmatch(r"Original models' true means: (0\.\d{4}, ){7}0\.\d{4}", means)


#: Each study with settings that run in about a second (the checks read its texts, not its
#: numbers)
QUICK_STUDIES = {
    "coins": ("--replicates", "20", "--trials", "8"),
    "prior-depth": ("--replicates", "20"),
    "order": ("--replicates", "60"),
    "calibration": ("--replicates", "20"),
    "rubric-lesson": (),
}


@functools.cache  # a study's output in a format is read by several tests: simulated once
def _simulate(study: str, fmt: str) -> str:
    from scorio_core.cli.simulate import render

    return render(_parser().parse_args(["simulate", study, *QUICK_STUDIES[study],
                                        "--format", fmt]))


def _paragraph(out: str, label: str) -> list[str]:
    """The lines of the paragraph of a text output that opens with ``label``."""
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(label))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def test_simulate_text_says_how_to_read_and_what_to_notice_in_plain_words():
    """The Simulator page and the reports say how to read a lesson and what to notice in it;
    the command printed neither. The rubric lesson's, word for word: under the title, wrapped
    to the leaderboard's 100 columns, and closing the output once its numbers are printed --
    the lesson's opening and the formula it ends on, in Unicode (the page draws it in LaTeX
    after the same colon; the opening had ended on the colon with nothing after it), then
    what its printed tables hold (the page shows a chart there), and what to notice in the
    numbers printed (the page: in its chart)."""
    out = _simulate("rubric-lesson", "table")
    lines = out.splitlines()
    assert lines[:10] == [
        "Rubric weights (Bayes@N term by term)",
        "",
        "How to read this: Two questions, five trials, three categories (wrong / partial / "
        "correct; the",
        "Scorio documentation's worked example). Bayes@N is closed-form (Don't Pass@k (2026), "
        "§2.4, Algorithm",
        "1), with ν = counts + prior + 1 and T = 1 + C + D + N (C + 1 categories, D prior "
        "outcomes and N",
        "trials per question): μ = w_0 + (1/M) Σ_α m_α with m_α = Σ_k (ν_αk/T)(w_k − w_0), and "
        "σ² = Σ_α var_α",
        "/ (M²(T + 1)) with var_α = Σ_k (ν_αk/T)(w_k − w_0)² − m_α². The lesson table has one "
        "row per",
        "question α with ν_0, ν_1, ν_2 (ν_αk of category k), m_α and var_α; μ, σ and T are the "
        "numbers above",
        "the tables, and the summary table repeats them (mu, sigma, T) with the number of "
        "questions M.",
        "",
    ]
    assert lines[10] == "Settings: --weights 0,0.5,1"
    assert lines[-6:] == [
        "",
        "What to notice: With weights 0 / 0.5 / 1 and no prior, μ = 0.56250 and σ = 0.09200 "
        "(Scorio",
        "documentation, worked example). μ is linear in the weights: raising w_k by δ raises μ "
        "by δ times the",
        "mean of ν_k/T over the questions (0.25000 for k = 0, 0.37500 for k = 1 and 0.37500 for "
        "k = 2 here),",
        "so another --weights moves μ by exactly that. σ is smallest when the categories that "
        "occur get",
        "similar weights, because the score then varies least across outcomes.",
    ]
    assert lines.index("## summary") < len(lines) - 6  # after the tables, not before them


@pytest.mark.parametrize("study", list(QUICK_STUDIES))
def test_every_study_reads_its_lesson_without_markup(study):
    """Every study's texts are Markdown (``*LLM mimics*``, ``**true**``, `` `R0` ``): a
    terminal showed the asterisks and backticks raw. The text output carries both texts with
    the markup gone and their words kept; ``--format markdown`` carries them as Markdown, as
    the report does; CSV and JSON carry neither (their readers are scripts)."""
    out = _simulate(study, "table")
    assert "*" not in out and "`" not in out
    paragraphs = [_paragraph(out, "How to read this: "), _paragraph(out, "What to notice: ")]
    for lines in paragraphs:  # wrapped at 100 columns: no line longer, none that could be
        assert all(len(ln) <= 100 for ln in lines)
        assert all(len(ln) + 1 + len(nxt.split()[0]) > 100
                   for ln, nxt in zip(lines[:-1], lines[1:], strict=True))
    how, notice = (" ".join(lines) for lines in paragraphs)
    # the definition's words, each where it belongs: the markup's words stay (not its marks)
    template = {"coins": ("LLM mimics", "the bayes and avg columns are equal"),
                "prior-depth": ("prior R0", "D ≥ 8"),
                "order": ("z-score clear 1.645", "grows only like √N"),
                "calibration": ("in the questions scope", "in the population scope"),
                "rubric-lesson": ("ν = counts + prior + 1", "σ = 0.09200")}[study]
    assert template[0] in how and template[1] in notice
    assert re.fullmatch(r"How to read this: [A-Z].*[.?]", how)  # a sentence, never a colon
    assert re.fullmatch(r"What to notice: [A-Z].*\.", notice)

    md = _simulate(study, "markdown")
    blocks = [ln for ln in md.splitlines() if ln.startswith("**") and ln != "**Columns:**  "]
    assert [b.split(".**")[0] for b in blocks] == ["**How to read this", "**What to notice"]
    assert md.index("**How to read this.**") < md.index("Settings: ") < md.index("## ")
    assert md.rindex("## ") < md.index("**What to notice.**")
    marked = {"coins": "*LLM mimics*", "prior-depth": "`R0`", "calibration": "`questions`"}
    if study in marked:  # the definition's Markdown, kept as Markdown
        assert marked[study] in md and "\\*" not in md and "\\`" not in md
    for fmt in ("csv", "json"):
        machine = _simulate(study, fmt)
        assert "How to read" not in machine and "to notice" not in machine


#: What a chart has and a terminal's tables do not: axes, marks and their keys.
CHART_WORDS = re.compile(
    r"\b(axis|axes|[xy]-axis|dashed|dotted|solid|lines?|colou?rs?|blue|orange|bars?|panels?|"
    r"legend|curves?|charts?|plots?|band|shapes?|histogram|markers?)\b", re.IGNORECASE)


def _printed_tables(out: str) -> dict[str, list[list[str]]]:
    """A text output's tables: heading -> rows of cells (the header first; not the lines
    said under a table, "Not shown, ...")."""
    return {ln[3:]: [r.split() for r in _section(out, ln[3:]) if not r.startswith("Not ")]
            for ln in out.splitlines() if ln.startswith("## ")}


def _lesson_spans(md: str) -> tuple[set[str], set[str]]:
    """The code spans of a Markdown output's "How to read this" and "What to notice"."""
    how, notice = (next(ln for ln in md.splitlines() if ln.startswith(f"**{label}.**"))
                   for label in ("How to read this", "What to notice"))
    return set(re.findall(r"`([^`]+)`", how)), set(re.findall(r"`([^`]+)`", notice))


@pytest.mark.parametrize("study", list(QUICK_STUDIES))
def test_simulate_texts_read_the_printed_tables_not_the_charts(study):
    """The command printed the lesson texts of the Simulator page -- "The y-axis is ...",
    "Solid: the leaderboard's headline; dashed: ...", "moves μ in a straight line" -- under
    tables, with no chart in sight. Its texts now say what it prints: no word of a chart;
    "How to read this" names every column printed; every column or table they name is
    printed. The page and the report keep the texts of the charts they draw."""
    from scorio_core.cli.simulate import params
    from scorio_core.definitions import SIMULATIONS

    out, md = _simulate(study, "table"), _simulate(study, "markdown")
    assert not CHART_WORDS.search(out), CHART_WORDS.search(out)
    printed = _printed_tables(out)
    columns = {c for rows in printed.values() for c in rows[0]}
    how, notice = _lesson_spans(md)
    assert columns <= how  # every printed column is explained
    # what the texts name as a column or a table is printed (the exports' tables included)
    args = _parser().parse_args(["simulate", study, *QUICK_STUDIES[study]])
    a, p = SIMULATIONS[study], params(args)
    r = a.run(None, p)
    known_tables = set(a.tables(r)) | set(printed)
    known_columns = {str(c) for t in a.tables(r).values() for c in t.columns} | columns
    assert (how | notice) & known_tables <= set(printed)
    assert (how | notice) & known_columns <= columns
    if study in ("coins", "calibration"):  # the page and the report still read their charts
        assert CHART_WORDS.search(a.notice_for(p, r))


def _cell(rows: list[list[str]], column: str, first: str) -> str:
    """The printed cell of ``column`` in the row whose first cell is ``first``."""
    return next(r for r in rows[1:] if r[0] == first)[rows[0].index(column)]


def test_simulate_coins_notice_quotes_the_printed_rows():
    """The coins lesson said where Pass@2's line rises above Bayes@N's (n = 17 of every n)
    under a table of n = 1, 2, 4, ..., and dropped the run's last n when it was not a power
    of two. Every n it names now is a printed row, and it reads as the table's cells."""
    out = _simulate_args("coins", "--replicates", "40")
    tau = _printed_tables(out)["tau"]
    ns = [r[0] for r in tau[1:]]
    assert ns == ["1", "2", "4", "8", "16", "32", "64", "80"]
    text = " ".join(_paragraph(out, "What to notice: "))
    values = {c: [float(r[i]) if r[i] != "—" else float("nan") for r in tau[1:]]
              for i, c in enumerate(tau[0])}
    top = re.search(r"the bayes column is the highest (up to n = (\d+)|at every n)", text)
    upto = int(top.group(2) or ns[-1])
    for i, n in enumerate(map(int, ns)):
        if n <= upto:  # no other column above bayes in those rows
            assert all(not values[c][i] > values["bayes"][i] for c in values if c != "n")
    for n0, col, hi, lo, last in re.findall(
            r"from n = (\d+) on (\S+) is higher \(([\d.]+) against ([\d.]+) at n = (\d+)\)",
            text):
        assert n0 in ns and last == ns[-1]
        assert (hi, lo) == (_cell(tau, col, last), _cell(tau, "bayes", last))
        assert all(values[col][i] > values["bayes"][i]
                   for i, n in enumerate(map(int, ns)) if n >= int(n0))
    assert "from n = " in text  # this run has a Pass column above bayes at the end
    short = _printed_tables(_simulate_args("coins", "--replicates", "20", "--trials", "5"))
    assert [r[0] for r in short["tau"][1:]] == ["1", "2", "4", "5"]  # the run's N: printed


def test_simulate_prior_depth_calibration_and_rubric_notices_quote_the_printed_cells():
    """Each number a terminal's "What to notice" quotes is a cell it printed (or its
    headline), in the same digits."""
    out = _simulate("prior-depth", "table")
    tau = _printed_tables(out)["tau"]
    text = " ".join(_paragraph(out, "What to notice: "))
    start, end = text.split("In the table, ")[1].split(". ")[0].split("; at n = ")
    for part, row in ((start, tau[1]), (end, tau[-1])):
        quoted = re.findall(r"(D=\d+) \(([\d.]+)\)", part)
        assert quoted and all(v == row[tau[0].index(d)] for d, v in quoted)
    d0 = float(_cell(tau, "D=0", tau[1][0]))
    assert ("every prior is above no prior" in start) == all(
        float(v) > d0 for v in tau[1][2:])

    out = _simulate("calibration", "table")
    rows = [ln.split() for ln in _section(out, "coverage")[1:]]
    text = " ".join(_paragraph(out, "What to notice: "))

    def order(cell: str) -> float:
        """A printed coverage in order: a bound of all (none) of the datasets, ">0.950" of
        20, lies above (below) the number it names (simulate.coverage: DRAWS_ATTR)."""
        return float(cell.lstrip("<>")) + {">": 1e-9, "<": -1e-9}.get(cell[0], 0.0)

    head = [r[4] for r in rows if r[1] == "headline" and r[4] != "—"]
    lo, hi = re.search(r"headline rows' coverage lies between ([<>]?[\d.]+) and "
                       r"([<>]?[\d.]+)", text).groups()
    assert (lo, hi) == (min(head, key=order), max(head, key=order))
    # "Bayes@N (papers)" is two cells of a split row: its coverage is the sixth
    bayes_q = [r[5] for r in rows if r[0] == "questions" and r[1] == "Bayes@N"]
    lo, hi = re.search(r"Bayes@N \(papers\) rows' between ([<>]?[\d.]+) and ([<>]?[\d.]+) "
                       r"in the questions scope", text).groups()
    assert (lo, hi) == (min(bayes_q, key=order), max(bayes_q, key=order))
    cells = [*head, *bayes_q]  # of 20 datasets: some cover in all of them, printed as bounds
    assert ">0.950" in cells and "1.000" not in cells

    out = _simulate_args("rubric-lesson", "--weights", "0,1,1")
    lines = out.splitlines()
    text = " ".join(_paragraph(out, "What to notice: "))
    mu, sigma = (next(ln for ln in lines if ln.startswith(f"{s}: "))[3:] for s in "μσ")
    assert text.startswith(f"What to notice: With weights 0 / 1 / 1 and no prior, μ = {mu} "
                           f"and σ = {sigma}; with weights 0 / 0.5 / 1")
    lesson = _printed_tables(out)["lesson"]
    T = int(_printed_tables(out)["summary"][1][2])
    shares = [np.mean([int(r[1 + k]) / T for r in lesson[1:]]) for k in range(3)]
    assert float(mu) == pytest.approx(sum(w * x for w, x in zip((0, 1, 1), shares,
                                                                 strict=True)), abs=1e-5)
    assert "0.25000 for k = 0, 0.37500 for k = 1 and 0.37500 for k = 2" in text


def _simulate_args(study: str, *argv: str) -> str:
    from scorio_core.cli.simulate import render

    return render(_parser().parse_args(["simulate", study, *argv, "--format", "table"]))


def test_a_flag_has_one_placeholder_in_every_command():
    """``--help`` names a flag's value after the flag, the same in every command: not
    ``--replicates SIMS`` in one study and ``--replicates REPLICATES`` in the next, nor
    ``--questions M`` beside ``--questions M_VALUES`` (the fields' names)."""
    placeholders: dict[str, set[str]] = {}
    for path in PATHS:
        parser = _parser()
        for name in path:
            parser = next(a for a in parser._actions
                          if isinstance(a, argparse._SubParsersAction)).choices[name]
        for a in parser._actions:
            if a.option_strings and a.nargs != 0 and a.choices is None:
                placeholders.setdefault(a.option_strings[-1], set()).add(
                    a.metavar or a.dest.upper())
    assert {f: m for f, m in placeholders.items() if len(m) > 1} == {}
    assert placeholders["--replicates"] == {"REPLICATES"}
    assert placeholders["--questions"] == {"QUESTIONS"} and placeholders["--k"] == {"K"}


def _long_csv(tmp_path, names=("model", "question", "trial", "outcome"), eol="\n"):
    text = eol.join([",".join(names)] + [",".join(map(str, r)) for r in ROWS]) + eol
    path = tmp_path / "runs.csv"
    path.write_bytes(text.encode())
    return path


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cr_only_line_endings_load_like_lf(tmp_path):
    """Excel's 'CSV (Macintosh)' ends lines with CR alone; it raised a csv traceback."""
    lf = io.load(_long_csv(tmp_path))
    cr_path = tmp_path / "cr.csv"
    cr_path.write_bytes(_long_csv(tmp_path).read_bytes().replace(b"\n", b"\r"))
    cr = io.load(cr_path)
    assert cr.models == lf.models and np.array_equal(cr.R, lf.R)
    assert io.table_columns(cr_path) == ["model", "question", "trial", "outcome"]


def test_huge_k_is_a_clear_error(capsys, data_dir):
    with pytest.raises(SystemExit) as info:
        main(["leaderboard", str(data_dir / "biased_coins.npz"), "--k", "1" + "0" * 30])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "--k values must be at most" in err
    from scorio_core._validation import ValidationError, check_k

    with pytest.raises(ValidationError, match="1 <= k <= N"):  # the core, not a TypeError
        check_k(10**30, 80)


def test_xlsx_renamed_csv_says_excel_and_how_to_convert(tmp_path, capsys):
    path = tmp_path / "book.csv"
    with zipfile.ZipFile(path, "w") as z:  # the members every .xlsx has
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/workbook.xml", "<workbook/>")
    code, _, err = _run(capsys, "leaderboard", str(path))
    assert code == 2 and "Excel workbook (.xlsx)" in err and "CSV UTF-8" in err
    assert ".npz" not in err
    xlsx = tmp_path / "book.xlsx"
    xlsx.write_bytes(path.read_bytes())
    code, _, err = _run(capsys, "leaderboard", str(xlsx))
    assert code == 2 and "Excel workbook" in err and "save it as CSV" in err


def test_columns_flag_maps_roles_and_errors_suggest_the_callers_form(tmp_path, capsys):
    blind = _long_csv(tmp_path, names=("who", "what", "trial", "outcome"))  # nothing to guess
    code, _, err = _run(capsys, "leaderboard", str(blind))
    assert code == 2 and "--columns model=COLUMN,question=COLUMN" in err
    assert "columns={" not in err  # a Python dict the CLI cannot take
    path = _long_csv(tmp_path, names=("system", "item", "trial", "outcome"))
    code, _, err = _run(capsys, "leaderboard", str(path))  # names other tools use: suggested
    assert code == 2 and "did you mean --columns model=system,question=item?" in err
    with pytest.raises(io.MissingColumnsError, match=r"columns=\{'model': 'system'"):
        io.load(path)  # Python callers get the keyword
    code, out, err = _run(capsys, "leaderboard", str(path), "--columns",
                          "model=system,question=item", "--format", "json")
    assert code == 0, err
    want = io.load(path, columns={"model": "system", "question": "item"})
    assert sorted(r["model"] for r in json.loads(out)["rows"]) == sorted(want.models)
    # a case-only mismatch gets a concrete suggestion in the CLI's form
    upper = _long_csv(tmp_path, names=("Model", "question", "trial", "outcome"))
    code, _, err = _run(capsys, "info", str(upper))
    assert code == 2 and "did you mean --columns model=Model?" in err
    with pytest.raises(SystemExit):
        main(["leaderboard", str(path), "--columns", "modl=system"])
    assert "unknown role 'modl'" in capsys.readouterr().err


def _loading_commands():
    for path in PATHS:
        if len(path) != 1:
            continue
        sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
        dests = {a.dest for a in sub.choices[path[0]]._actions}
        if "path" in dests:
            yield path[0]


def test_every_loading_subcommand_takes_columns():
    cmds = list(_loading_commands())
    assert {"leaderboard", "plan", "compare", "report", "info", "import"} <= set(cmds)
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    for c in cmds:
        assert "columns" in {a.dest for a in sub.choices[c]._actions}, c


def test_report_reads_with_columns(tmp_path, capsys):
    path = _long_csv(tmp_path, names=("system", "item", "trial", "outcome"))
    out = tmp_path / "r.md"
    code, _, err = _run(capsys, "report", str(path), "--columns", "model=system,question=item",
                        "--sections", "leaderboard", "--out", str(out))
    assert code == 0, err
    assert "| model |" in out.read_text(encoding="utf-8")


class _Tty(_io.StringIO):
    def isatty(self) -> bool:
        return True


def test_default_format_is_a_table_on_a_terminal_and_csv_when_piped(tmp_path, monkeypatch,
                                                                    capsys):
    path = _long_csv(tmp_path)
    code, piped, _ = _run(capsys, "leaderboard", str(path))
    csv = "\n".join(x for x in piped.splitlines() if not x.startswith("# "))
    # scripts keep their CSV, under the provenance header of every command's CSV
    assert code == 0 and piped.startswith("# dataset: runs") and csv.startswith("model,rank,")
    tty = _Tty()
    monkeypatch.setattr("sys.stdout", tty)
    assert main(["leaderboard", str(path)]) == 0
    table = tty.getvalue()
    assert table.startswith("CI-aware leaderboard: runs")
    cells = _without_legends(table)  # a legend's prose may name inf, as board.table holds it
    assert "e-0" not in cells and "inf" not in cells.replace("Infinity", "")
    header = next(line for line in table.splitlines() if line.startswith("model "))
    assert header.split()[:3] == ["model", "rank", "rank_lo"]


def test_table_spells_infinite_and_missing(tmp_path, capsys):
    # two identical models: their pair can never be ordered (trials_needed_papers = ∞); last row: —
    R = np.random.default_rng(0).integers(0, 2, (3, 12, 4))
    R[1] = R[0]
    from scorio_core import Outcomes

    io.save_npz(Outcomes(R, models=["a", "b", "c"]), tmp_path / "tie.npz")
    code, out, _ = _run(capsys, "leaderboard", str(tmp_path / "tie.npz"), "--format", "table")
    assert code == 0 and "∞" in out and "—" in out
    assert " inf" not in _without_legends(out) and "nan" not in out.lower()


def test_markdown_header_states_the_headline_and_the_prior(capsys, data_dir):
    code, out, _ = _run(capsys, "leaderboard", str(data_dir / "biased_coins.npz"), "--format",
                        "markdown")
    head = out.split("|")[0]
    assert code == 0 and "Prior: none" not in head
    assert "`score` is the mean score (avg@N) with no prior" in head
    assert "uniform Dirichlet prior per question" in head and "the uniform prior's mean 0.5" in head
    assert "Wilson-type t interval" in head
    code, out, _ = _run(capsys, "leaderboard", str(data_dir / "biased_coins.npz"), "--format",
                        "markdown", "--scope", "population")
    assert "clustered (question-level) variance" in out.split("|")[0]


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "json"])
@pytest.mark.parametrize(
    "argv",
    [["plan", "--sims", "100", "--n-max", "8"], ["compare", "--methods", "bayes,avg,borda"],
     ["convergence", "--methods", "bayes", "--replicates", "50"],
     ["stability", "--methods", "bayes,borda"]],
    ids=lambda a: a[0],
)
def test_every_table_command_takes_every_format(tmp_path, capsys, argv, fmt):
    path = _long_csv(tmp_path)
    code, out, err = _run(capsys, argv[0], str(path), *argv[1:], "--format", fmt)
    assert code == 0, err
    if fmt == "json":
        json.loads(out)
    elif fmt == "csv":
        pd.read_csv(_io.StringIO(out), comment="#", nrows=1)
    else:
        cells = _without_legends(out)
        assert "nan" not in cells.lower().replace("nanson", "") and " inf" not in cells
        assert ("|---" in out) == (fmt == "markdown")


def test_old_format_spellings_still_work(capsys, data_dir):
    code, out, _ = _run(capsys, "simulate", "rubric-lesson", "--format", "text")
    assert code == 0 and "## lesson" in out
    code, out, _ = _run(capsys, "rubric", "list", "--format", "md")
    assert code == 0 and out.startswith("# Rubric presets") and "|---" in out


def test_advice_in_notes_names_the_flag_not_the_python_keyword(capsys, tmp_path):
    """One trial per question: the questions scope is not identified and the note advises
    the population scope. A notebook reads ``scope='population'``; the command line reads
    the flag it takes, ``--scope population`` (as the loaders' advice reads
    ``--on-missing``), in the text and Markdown outputs and in error messages."""
    import numpy as np

    from scorio_core import Outcomes
    from scorio_core.cli import main
    from scorio_core.io import save_table

    path = tmp_path / "one_trial.csv"
    save_table(Outcomes(np.random.default_rng(0).integers(0, 2, (3, 12, 1))), path)
    for fmt in ("table", "markdown"):
        assert main(["leaderboard", str(path), "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "--scope population" in out and "scope='population'" not in out
    assert main(["plan", str(path), "--format", "table"]) == 0
    assert "scope='" not in capsys.readouterr().out


def test_plan_with_every_pair_decided_draws_no_pair_curves(capsys):
    """Every adjacent pair decided and no --pair: the text plan says there is nothing to
    plan and prints no pair's curve tables (the report and the app show the reason); with
    --pair the chosen pair's curves are printed."""
    from pathlib import Path

    logs = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect" / "epochs"
    assert main(["plan", str(logs), "--format", "table"]) == 0
    out = capsys.readouterr().out
    assert "Every adjacent pair is decided: nothing to plan." in out
    assert "alpha vs beta vs N" not in out and "smallest lead each plan decides" not in out
    assert main(["plan", str(logs), "--format", "table", "--pair", "alpha,beta"]) == 0
    assert "alpha vs beta vs N" in capsys.readouterr().out


def test_report_help_states_its_default_sections(capsys):
    """--help states the report's one list of default sections (sc.report's and the app's
    too) and the analyses that run only when named, from their declaration."""
    from scorio_core.definitions import DEFAULT_SECTIONS, NAMED_ONLY, SIMULATIONS

    with pytest.raises(SystemExit):
        main(["report", "--help"])
    out = capsys.readouterr().out
    packed = "".join(out.split())  # argparse wraps the list mid-word
    assert f"(default:{','.join(DEFAULT_SECTIONS)}," in packed
    words = " ".join(out.split())
    assert all(f"{k} ({why}, slower)" in words for k, why in NAMED_ONLY.items())
    assert all(k in words for k in SIMULATIONS)


LM_EVAL_MULTI = (Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "lm_eval"
                 / "multi")  # lm-eval's own output: 3 tasks, 1 trial per document
N1_NOTE = "With N = 1 trial per question the trial-to-trial variance is never seen"


@pytest.mark.parametrize("cmd", ["leaderboard", "curves"])
def test_csv_and_json_keep_the_notes_that_say_why_cells_are_blank(capsys, cmd):
    """One trial per question: se, lo and hi are blank and the table for people says why
    (use --scope population); a script's CSV and JSON had dropped that note, leaving blank
    cells unexplained. The CSV closes with '# note:' lines (read_csv(comment='#') skips
    them), the JSON has a 'notes' list; and the advice works on the same data."""
    code, out, err = _run(capsys, cmd, str(LM_EVAL_MULTI), "--format", "csv")
    assert code == 0, err
    notes = [ln for ln in out.splitlines() if ln.startswith("# note: ")]
    assert any(N1_NOTE in n and "(--scope population)" in n for n in notes)
    assert out.endswith("\n".join(notes) + "\n")  # closing the CSV, after every table
    table = pd.read_csv(_io.StringIO(out), comment="#")
    assert len(table) and table["se"].isna().all()
    code, out, _ = _run(capsys, cmd, str(LM_EVAL_MULTI), "--format", "json")
    assert code == 0 and any(N1_NOTE in n for n in json.loads(out)["notes"])
    code, out, _ = _run(capsys, cmd, str(LM_EVAL_MULTI), "--format", "csv",
                        "--scope", "population")
    table = pd.read_csv(_io.StringIO(out), comment="#")
    assert code == 0 and table["se"].notna().all() and table["se"].gt(0).all()
    assert N1_NOTE not in out


def test_questions_and_check_csv_keep_their_notes(capsys, data_dir):
    code, out, _ = _run(capsys, "questions", str(data_dir / "biased_coins.npz"),
                        "--format", "csv")
    assert code == 0 and "# note: Synthetic data" in out
    pd.read_csv(_io.StringIO(out.split("\n\n")[0]), comment="#")
    code, out, _ = _run(capsys, "check", str(data_dir / "biased_coins.npz"), "--reps", "20",
                        "--format", "csv")
    assert code == 0 and "# note: The truth here is this run's own shares" in out
    code, out, _ = _run(capsys, "check", str(data_dir / "biased_coins.npz"), "--reps", "20",
                        "--format", "json")
    assert any("this run's own shares" in n for n in json.loads(out)["notes"])


def test_tables_for_people_leave_out_columns_with_no_value(capsys, data_dir):
    """As the report shows them: compare's 'note' column (no method needs one here) is left
    out and the plan's p_unsettled (questions scope) is named under its table, not printed
    as a column of dashes; the CSV keeps every column."""
    coins = str(data_dir / "biased_coins.npz")
    code, out, _ = _run(capsys, "compare", coins, "--methods", "voting", "--format", "table")
    header = next(ln for ln in out.splitlines() if ln.startswith("method "))
    assert code == 0 and header.split() == ["method", "family", "tau_b", "exact"]
    for fmt in ("table", "markdown"):
        code, out, _ = _run(capsys, "plan", coins, "--sims", "100", "--n-max", "8",
                            "--format", fmt)
        header = next(ln for ln in out.splitlines() if "trials_needed" in ln)
        assert code == 0 and "p_unsettled" not in header
        assert "Not shown, no value in any row: p_unsettled." in out
    code, out, _ = _run(capsys, "plan", coins, "--sims", "100", "--n-max", "8",
                        "--format", "csv")
    assert {"p_unsettled", "note"} <= set(pd.read_csv(_io.StringIO(out), comment="#").columns)


def test_plan_text_lists_the_pair_notes_under_the_table(capsys, data_dir):
    """The text and Markdown plans printed the pairs table with its 'note' column, a column
    of sentences that wrapped each row over several lines; they show the definition's view
    (as the report, the page and the notebook do): no 'note' column, each note listed under
    the table naming its pairs. The CSV keeps the column, with the same notes."""
    from scorio_core.planner import pair_notes

    coins = str(data_dir / "biased_coins.npz")
    argv = ("plan", coins, "--sims", "100", "--n-max", "8", "--format")
    code, out, _ = _run(capsys, *argv, "csv")
    pairs = pd.read_csv(_io.StringIO(out), comment="#", keep_default_na=False)
    said = [f"{who}: {note}" for who, note in pair_notes(pairs)]
    # the LLM_7/LLM_8 row's "met now" is explained by its note
    assert code == 0 and any(s.startswith("LLM_7 vs LLM_8: ") for s in said)
    for fmt in ("table", "markdown"):
        code, out, _ = _run(capsys, *argv, fmt)
        lines = out.split("## Budget split")[0].splitlines()
        at = next(i for i, ln in enumerate(lines) if "trials_needed" in ln)
        cells = [re.split(r"[\s|]+", ln.strip(" |")) for ln in lines]
        assert code == 0 and cells[at][:2] == ["better", "next"] and "note" not in cells[at]
        # one line a pair, in the table's order: no sentence wrapped into a row
        rows = [i for i, c in enumerate(cells) if i > at and c[0] in set(pairs["better"])
                and c[1] in set(pairs["next"])]
        assert [cells[i][:2] for i in rows] == pairs[["better", "next"]].to_numpy().tolist()
        assert rows == list(range(rows[0], rows[0] + len(pairs)))
        below = [ln for ln in lines[rows[-1] + 1:] if ln]
        assert below[:len(said)] == said


def test_import_notes_advise_flags_that_work_on_the_same_data(capsys, tmp_path):
    """lm-eval's task with two filters becomes one benchmark per filter; the note's advice
    names the flag (not scorer='FILTER/...', a Python keyword that, as --scorer, failed on
    the folder's other tasks) and that flag reads the folder."""
    out_file = tmp_path / "runs.csv"
    code, _, err = _run(capsys, "import", str(LM_EVAL_MULTI), "--out", str(out_file))
    note = next(ln for ln in err.splitlines() if "one benchmark per filter" in ln)
    assert code == 0 and "='" not in note
    flag = note.split("read one alone with ")[1].split()
    assert flag == ["--benchmark", "qa_vote/maj@5"]
    code, out, err = _run(capsys, "info", str(LM_EVAL_MULTI), *flag)
    assert code == 0 and json.loads(out)["name"] == "qa_vote/maj@5", err


def test_a_scorer_one_task_lacks_is_not_answered_with_a_task_that_lacks_it_too(capsys):
    """--scorer maj@5/exact_match on a folder of 3 lm-eval tasks: only qa_vote has that
    filter. The error had advised --benchmark qa_rep (the first other task), which fails
    the same way; it names the task that has it, and that works; a scorer no task has is
    said to be in none."""
    code, _, err = _run(capsys, "info", str(LM_EVAL_MULTI), "--scorer", "maj@5/exact_match")
    assert code == 2 and "no metric 'maj@5/exact_match'" in err
    assert err.rstrip().endswith("to read another task alone, pass --benchmark qa_vote")
    code, out, err = _run(capsys, "info", str(LM_EVAL_MULTI), "--scorer", "maj@5/exact_match",
                          "--benchmark", "qa_vote")
    assert code == 0 and json.loads(out)["name"] == "qa_vote", err
    code, _, err = _run(capsys, "info", str(LM_EVAL_MULTI), "--scorer", "nope")
    assert code == 2 and err.rstrip().endswith(
        "none of the 3 tasks of these logs (qa_one, qa_rep, qa_vote) has scorer 'nope'")


def test_weights_that_do_not_fit_an_npz_name_its_categories(capsys, data_dir):
    """--weights 0,0.5,1 on binary data had said 'expected 3 category names; got 2'
    (names the user never gave); the message counts weights against the file's categories."""
    code, _, err = _run(capsys, "leaderboard", str(data_dir / "biased_coins.npz"),
                        "--weights", "0,0.5,1")
    assert code == 2 and "category names" not in err
    assert ("3 weights were given (categories 0..2), but this file's outcomes have 2 "
            "categories (wrong, correct; its weights [0.0, 1.0])") in err
    code, out, _ = _run(capsys, "leaderboard", str(data_dir / "biased_coins.npz"),
                        "--weights", "0,1", "--format", "csv")
    assert code == 0 and "LLM_11,1," in out


def test_missing_cells_advice_names_both_flags_and_several_files(capsys, tmp_path):
    """Two files whose models answered different questions: neither policy keeps data. The
    advice named the first policy as a flag and the second as a bare 'truncate', and said
    'Fix the file' of two files."""
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("model,question,trial,outcome\nx,q1,0,1\nx,q2,0,0\n")
    b.write_text("model,question,trial,outcome\ny,q3,0,1\ny,q4,0,0\n")
    code, _, err = _run(capsys, "info", str(a), str(b))
    assert code == 2 and "Fix the files: neither --on-missing drop_questions" in err
    assert "nor --on-missing truncate (some model has no trial on some question)" in err


def test_rubric_list_help_names_every_family_it_lists(capsys):
    """The help said 'the 20 presets of Table 5 and Table 21'; the list prints 21, one a
    teaching preset (length/...): the help names each family the list holds."""
    from scorio_core import rubric as rb

    with pytest.raises(SystemExit):
        main(["rubric", "--help"])
    words = " ".join(capsys.readouterr().out.split())
    assert all(f"({family}/...)" in words for family in {k.split("/")[0] for k in rb.PRESETS})
    code, out, _ = _run(capsys, "rubric", "list", "--format", "json")
    assert code == 0 and len(json.loads(out)) == len(rb.PRESETS)


# ---------------------------------------------------------------- the columns' legend
_DATA = Path(__file__).resolve().parents[2] / "data"
#: Subcommands whose tables for people have legends (small settings; several tables each,
#: a template's columns -- compare's methods, convergence's n bins -- and a pivot).
LEGEND_COMMANDS = {
    "leaderboard": ["leaderboard", str(_DATA / "jhu_llm_temperature.parquet"), "--by", "source"],
    "compare": ["compare", str(_DATA / "biased_coins.npz"), "--methods", "avg,bayes,borda"],
    "plan": ["plan", str(_DATA / "biased_coins.npz"), "--sims", "100", "--n-max", "8"],
    "pair": ["pair", str(_DATA / "biased_coins.npz"), "LLM_9", "LLM_10"],
    "check": ["check", str(_DATA / "biased_coins.npz"), "--reps", "10"],
    "simulate coins": ["simulate", "coins", "--replicates", "20", "--trials", "8"],
}


def _covering(name: str, column: str) -> bool:
    """A legend's ``name`` is ``column``'s own, or the template of several columns
    (``pass@<k>``) that ``column`` is one of."""
    if name == column:
        return True
    return "<" in name and re.fullmatch(
        re.sub(r"<\w+>", ".+?", re.escape(name)), column) is not None


def _legends(out: str, fmt: str) -> list[tuple[list[str], list[tuple[str, str]]]]:
    """Each legend of ``out`` with the header of the table it is under (Markdown; ``[]`` for
    the aligned text, whose header the Markdown's gives): ``(columns, [(name, meaning)])``,
    a meaning wrapped over lines joined again."""
    lines, found = out.splitlines(), []
    start = "**Columns:**" if fmt == "markdown" else "Columns:"
    for i, line in enumerate(lines):
        if line.rstrip() != start:
            continue
        entries: list[list[str]] = []
        for ln in lines[i + 1:]:
            if fmt == "markdown" and (m := re.match(r"`([^`]+)` (.*?) *$", ln)):
                entries.append([m[1], m[2]])
            elif fmt != "markdown" and (m := re.match(r"  (\S.*?): (.*)$", ln)):
                entries.append([m[1], m[2]])
            elif fmt != "markdown" and ln.startswith("    ") and entries:
                entries[-1][1] += " " + ln.strip()
            else:
                break
        header: list[str] = []
        if fmt == "markdown":  # the pipe table above: its header is the line over |---|
            rule = max(j for j in range(i) if re.fullmatch(r"\|(-+:?\|)+", lines[j]))
            header = _cells(lines[rule - 1])
        found.append((header, [tuple(e) for e in entries]))
    return found


def _without_legends(out: str) -> str:
    """``out`` without its columns' legends (and the blank line above each): what
    ``--no-legend`` prints."""
    lines, kept, skip = out.splitlines(), [], False
    starts = ("Columns:", "**Columns:**  ")
    for i, line in enumerate(lines):
        skip = line in starts or (skip and (line.startswith("  ") or line.startswith("`")))
        if not (skip or (line == "" and lines[i + 1:i + 2] and lines[i + 1] in starts)):
            kept.append(line)
    return "\n".join(kept) + "\n"


def _cells(row: str) -> list[str]:
    """The cells of a Markdown table's row, unescaped."""
    return [re.sub(r"\\(.)", r"\1", c).strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]


@pytest.mark.parametrize("cmd", list(LEGEND_COMMANDS))
def test_tables_for_people_end_with_the_legend_of_the_columns_they_show(capsys, cmd):
    """The notebook's display, the reports and the app print a "Columns:" legend under every
    table, from each definition's one declaration; the CLI printed none. Every table for
    people now has it: one line per column it shows (but those whose name says it: model,
    score, lo, hi, ...), in its order, a template's columns on one line -- no column left
    out, none that is not shown -- the same in the aligned text and in Markdown; and
    --no-legend gives the output without those lines and nothing else changed."""
    from scorio_core.display import PLAIN_COLUMNS

    argv = LEGEND_COMMANDS[cmd]
    code, md, err = _run(capsys, *argv, "--format", "markdown")
    assert code == 0, err
    legends = _legends(md, "markdown")
    lines = md.splitlines()  # every table with a column that needs saying has its legend
    headers = [_cells(lines[i - 1]) for i, ln in enumerate(lines)
               if re.fullmatch(r"\|(-+:?\|)+", ln)]
    assert [h for h, _ in legends] == [h for h in headers if set(h) - PLAIN_COLUMNS]
    for header, entries in legends:
        names = [n for n, _ in entries]
        shown = [c for c in header if c not in PLAIN_COLUMNS]
        covered = [[n for n in names if n == c] or [n for n in names if _covering(n, c)]
                   for c in shown]
        assert all(len(c) == 1 for c in covered), (header, names)
        assert all(any(_covering(n, c) for c in shown) for n in names), (header, names)
        firsts = [next(i for i, c in enumerate(shown) if _covering(n, c)) for n in names]
        assert firsts == sorted(firsts) and len(set(names)) == len(names), (header, names)
        assert all(meaning.strip() for _, meaning in entries)
    code, text, _ = _run(capsys, *argv, "--format", "table")
    table = _legends(text, "table")  # the same legends, each line its column's meaning
    assert code == 0 and [[n for n, _ in e] for _, e in table] == [
        [n for n, _ in e] for _, e in legends]
    code, bare, _ = _run(capsys, *argv, "--format", "table", "--no-legend")
    assert code == 0 and "Columns:" not in bare
    assert _without_legends(text) == bare


def test_the_legend_is_the_definitions_declaration_not_a_copy(capsys):
    """The leaderboard's legend says what the definition declares for its columns (its one
    COLUMN_HELP, which the page's tooltips, the notebook and the reports read), wrapped to
    the terminal's width in the text, as the reports write it in Markdown."""
    from scorio_core.definitions.leaderboard import LEADERBOARD
    from scorio_core.display import legend_markdown
    from scorio_core.formatting import LINE_WIDTH

    declared = LEADERBOARD.column_help("leaderboard")
    argv = ("leaderboard", str(_DATA / "biased_coins.npz"), "--format")
    code, text, _ = _run(capsys, *argv, "table")
    said = dict(_legends(text, "table")[0][1])
    assert code == 0 and said["p_best"] == " ".join(declared["p_best"].split())
    assert said["trials_needed_papers"] == " ".join(declared["trials_needed_papers"].split())
    legend = text[text.index("\nColumns:\n"):].split("\n\n")[0].splitlines()
    assert max(map(len, legend)) <= LINE_WIDTH and len(legend) > len(said) + 1  # wrapped
    code, md, _ = _run(capsys, *argv, "markdown")
    header = _legends(md, "markdown")[0][0]
    assert code == 0 and legend_markdown(header, declared) in md


@pytest.mark.parametrize("argv", [LEGEND_COMMANDS["leaderboard"], LEGEND_COMMANDS["compare"],
                                  ["simulate", "order", "--replicates", "200"]],
                         ids=lambda a: a[0])
def test_csv_and_json_have_no_legend_and_read_the_same_with_no_legend(capsys, argv):
    """The legend is for people: CSV and JSON are what they were -- no "Columns:" line, the
    CSV read by pandas (comments skipped), the JSON strict -- and --no-legend changes
    nothing in them (but the time the provenance records)."""
    for fmt in ("csv", "json"):
        outs = []
        for extra in ((), ("--no-legend",)):
            code, out, err = _run(capsys, *argv, "--format", fmt, *extra)
            assert code == 0, err
            assert "Columns:" not in out and "legend" not in out.lower()
            outs.append(re.sub(r'("created_utc": "|# created_utc: )[^"\n]*', r"\1", out))
        assert outs[0] == outs[1]
        if fmt == "json":
            json.loads(outs[0])
        else:
            assert len(pd.read_csv(_io.StringIO(outs[0].split("\n\n")[0]), comment="#"))


def test_no_legend_is_in_every_table_commands_help(capsys):
    """--no-legend is offered (and said in --help) by every command that prints tables with
    declared columns -- the analyses and each simulation study -- and by no other."""
    tables = {"leaderboard", "plan", "compare", "convergence", "stability", "greedy", "pair",
              "questions", "curves", "check"}
    with_legend = {p for p in PATHS if p[:1] and (p[0] in tables or (
        p[0] == "simulate" and len(p) == 2))}
    for path in PATHS:
        if not path:
            continue
        try:
            _parser().parse_args([*path, "--help"])
        except SystemExit:
            pass
        out = " ".join(capsys.readouterr().out.split())
        has = "--no-legend" in out
        assert has == (path in with_legend), path
        if has:
            assert "leave out the 'Columns:' lines under each table" in out

