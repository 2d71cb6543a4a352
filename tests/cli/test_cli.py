"""`scorio-studio` command line: same numbers as the core, clear one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.leaderboard import leaderboard


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_leaderboard_json_matches_core(capsys, data_dir):
    path = data_dir / "reasoning_synthetic.npz"
    code, out, err = _run(
        capsys, "leaderboard", str(path), "--benchmark", "AIME'25", "--prior", "greedy",
        "--k", "2,8", "--confidence", "0.9", "--format", "json",
    )
    assert code == 0, err
    rows = json.loads(out)["rows"]
    board = leaderboard(io.load(path).select("AIME'25"), use_prior=True, ks=(2, 8), confidence=0.9)
    assert [r["model"] for r in rows] == board.table["model"].tolist()
    np.testing.assert_allclose([r["score"] for r in rows], board.table["score"], atol=1e-6)
    assert [r["rank_chain"] for r in rows] == board.table["rank_chain"].tolist()
    assert "pass@8" in rows[0]


def test_leaderboard_prints_the_caveats_the_page_and_report_list(capsys, data_dir):
    """The command printed the board's own notes only: the scope, the multiplicity control
    and where p_best runs high (the leaderboard definition's caveats, which the page and the
    report list) never reached a terminal or a script's CSV/JSON. Now every format carries
    them, once each, after the board's notes."""
    from scorio_core.definitions import ANALYSES
    from scorio_core.params import LeaderboardParams

    path = data_dir / "biased_coins.npz"
    data = io.load(path)
    params = LeaderboardParams(scope="population")
    result = ANALYSES["leaderboard"].run(data, params)
    caveats = ANALYSES["leaderboard"].caveats(data, params, result)
    scope = next(c for c in caveats if c.startswith("Scope:"))
    code, out, err = _run(capsys, "leaderboard", str(path), "--scope", "population",
                          "--format", "table")
    assert code == 0, err
    flat = " ".join(out.split())
    assert " ".join(f"Note: {scope}".split()) in flat
    assert flat.count("Multiplicity (holm)") == 1
    for note in result.board.notes:  # the board's notes once, not again among the caveats
        assert flat.count(" ".join(note.split()[:8])) == 1
    code, out, err = _run(capsys, "leaderboard", str(path), "--scope", "population",
                          "--format", "json")
    notes = json.loads(out)["notes"]
    assert scope in notes and len(notes) == len(set(notes))
    code, out, err = _run(capsys, "leaderboard", str(path), "--scope", "population",
                          "--format", "markdown")
    assert f"> {scope.split(':')[0]}:" in out


def test_one_model_leaderboard_says_it_has_no_pairs(capsys, tmp_path):
    """`scorio-studio leaderboard` on one model's CSV (15 questions x 4 trials) headed its
    text and Markdown with "0 of 0 pairs decided"."""
    from scorio_core.leaderboard import NO_PAIRS

    rng = np.random.default_rng(0)
    rows = [f"solo,q{q},{t},{int(rng.random() < 0.6)}" for q in range(15) for t in range(4)]
    path = tmp_path / "one.csv"
    path.write_text("model,question,trial,outcome\n" + "\n".join(rows) + "\n")
    for fmt in ("text", "markdown"):
        code, out, err = _run(capsys, "leaderboard", str(path), "--format", fmt)
        assert code == 0, err
        said = " ".join(out.replace("`", "").split())
        assert "0 of 0" not in said and f"multiplicity control: holm; {NO_PAIRS})" in said


def test_default_is_combined_csv(capsys, data_dir):
    code, out, _ = _run(capsys, "leaderboard", str(data_dir / "reasoning_synthetic.npz"))
    assert code == 0
    head = [x for x in out.splitlines() if x.startswith("# ")]  # provenance, as every export
    assert "# input.file: reasoning_synthetic.npz" in head and "# analysis: leaderboard" in head
    lines = [x for x in out.strip().splitlines() if not x.startswith("# ")]
    assert lines[0].startswith(
        "model,rank,rank_lo,rank_hi,p_best,score,se,lo,hi,bayes_mu,bayes_sigma,bayes_lo,bayes_hi,"
        "rank_chain,rank_overlap"
    ) and len(lines) == 21
    assert lines[0].endswith(",scope") and lines[1].endswith(",questions")
    code, out, _ = _run(capsys, "info", str(data_dir / "reasoning_synthetic.npz"))
    assert json.loads(out)["questions (M)"] == 120


def test_markdown_and_long_table_input(capsys, tmp_path, data_dir):
    data = io.load(data_dir / "biased_coins.npz")
    csv = tmp_path / "coins.csv"
    io.save_table(data, csv)
    code, out, _ = _run(capsys, "leaderboard", str(csv), "--format", "md", "--k", "4")
    assert code == 0 and out.startswith("# ") and out.count("| LLM_") == 11


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["leaderboard", "does/not/exist.npz"], "error"),
        (["leaderboard", "{coins}", "--benchmark", "AIME'24"], "unknown benchmark"),
        (["leaderboard", "{coins}", "--k", "81"], "1 <= k <= N"),
        (["leaderboard", "{coins}", "--prior", "greedy"], "--prior greedy needs greedy outcomes"),
        (["leaderboard", "{bad}"], "error"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, data_dir, argv, fragment):
    bad = tmp_path / "bad.csv"
    bad.write_text("model,question,trial,outcome\na,q,0,nan\n")
    argv = [a.format(coins=data_dir / "biased_coins.npz", bad=bad) for a in argv]
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("scorio-studio: error:") and fragment in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("flags", "fragment"),
    [
        (["--confidence", "1.5"], "strictly between 0 and 1"),
        (["--weights", "0,x"], "--weights expects comma-separated numbers"),
        (["--columns", "model"], "--columns expects ROLE=COLUMN pairs"),
        (["--on-missing", "skip"], "invalid choice: 'skip'"),
    ],
)
def test_argument_errors_exit_nonzero(capsys, flags, fragment):
    with pytest.raises(SystemExit) as info:
        main(["leaderboard", "x.npz", *flags])
    assert info.value.code == 2
    assert fragment in capsys.readouterr().err


def test_compare_json_agrees_with_core(capsys, data_dir):
    from scorio_core.engines import compare, run_methods

    path = data_dir / "reasoning_synthetic.npz"
    code, out, err = _run(capsys, "compare", str(path), "--benchmark", "HMMT'25",
                          "--methods", "metrics", "--format", "json")
    assert code == 0, err
    payload = json.loads(out)
    data = io.load(path).select("HMMT'25")
    ids = [m for m in payload["ranks"]]
    cmp = compare(run_methods(data.R, data.R0, ids, data.models), R=data.R)
    assert payload["summary"] == pytest.approx(cmp.summary)
    # each model's ranks as the core's, the models in gold order (as every rendering)
    got = dict(zip(payload["models"], payload["ranks"]["bayes"], strict=True))
    assert got == cmp.run.ranks["bayes"].to_dict()
    assert payload["models"] == cmp.run.ranks.index[cmp.gold.argsort(kind="stable")].tolist()
    assert "avg" in payload["exact"] and payload["skipped"] == {}


def test_compare_ranks_read_in_gold_order_in_every_rendering(capsys, tmp_path, data_dir):
    """``compare --format table`` listed the Ranks table's models in the data's order
    (LLM_1 first, the worst) while the app's page says "in gold order (best first)": one
    order, the definition's, in the table, CSV, JSON, Markdown, the report and a notebook's
    display, with the line that says it."""
    import pandas as _pd

    from scorio_core.definitions import ANALYSES
    from scorio_core.definitions.compare import RANKS_CAPTION
    from scorio_core.display import readable
    from scorio_core.report import build_report, to_markdown

    path = data_dir / "biased_coins.npz"
    data = io.load(path)
    gold = [f"LLM_{i}" for i in (11, 9, 10, 7, 8, 6, 5, 4, 3, 2, 1)]  # Bayes@N, best first
    argv = ["compare", str(path), "--methods", "bayes,avg,borda"]
    code, out, _ = _run(capsys, *argv, "--format", "table")
    lines = out.splitlines()
    at = lines.index("## Ranks")
    assert code == 0 and lines[at + 1] == RANKS_CAPTION
    assert [ln.split()[0] for ln in lines[at + 3:at + 14]] == gold
    code, out, _ = _run(capsys, *argv, "--format", "markdown")
    rows = out.split("## Ranks")[1].splitlines()
    assert [r.split("|")[1].strip() for r in rows if r.startswith("| LLM_")] == gold
    code, out, _ = _run(capsys, *argv, "--format", "csv")
    ranks = _pd.read_csv(__import__("io").StringIO(out.split("\n\n")[0]), comment="#")
    assert ranks["model"].tolist() == gold and ranks["bayes"].tolist() == list(range(1, 12))
    code, out, _ = _run(capsys, *argv, "--format", "json")
    assert json.loads(out)["models"] == gold
    # the definition's table, as the page and a report show it
    r = ANALYSES["compare"](data, methods="bayes,avg,borda")
    view = ANALYSES["compare"].shown_tables(r)["ranks"]
    assert view.table["model"].tolist() == gold and view.note == RANKS_CAPTION
    assert readable(view)[0]["model"].tolist() == gold
    md = to_markdown(build_report(data, [("compare", {"methods": "bayes,avg,borda"})]))
    part = md.split("### ranks")[1]
    assert [r.split("|")[1].strip() for r in part.splitlines() if r.startswith("| LLM_")][
        :11] == gold
    assert RANKS_CAPTION in part


def test_compare_csv_lists_skips_and_methods_listing(capsys, data_dir):
    code, out, _ = _run(capsys, "compare", str(data_dir / "biased_coins.npz"),
                        "--methods", "bayes,bayes_greedy,avg")
    assert code == 0
    body = [ln for ln in out.splitlines() if not ln.startswith("#")]
    assert body[0] == "model,bayes,avg"
    # the CSV carries its provenance as a commented header (pandas: comment="#")
    assert out.startswith("# dataset: ") and "# analysis: compare\n" in out
    assert "# settings.methods: bayes,bayes_greedy,avg\n" in out
    assert "# skipped bayes_greedy: needs prior outcomes R0" in out
    code, out, _ = _run(capsys, "methods")
    assert code == 0 and out.splitlines()[0].startswith("avg")
    code, _, err = _run(capsys, "compare", str(data_dir / "biased_coins.npz"), "--methods", "x")
    assert code == 2 and "unknown method id: x" in err


def test_convergence_command_matches_core(capsys, data_dir):
    from scorio_core.engines.convergence import convergence_at_n

    path = data_dir / "biased_coins.npz"
    code, out, err = _run(capsys, "convergence", str(path), "--methods", "bayes,pass_at_k_2",
                          "--replicates", "300", "--seed", "3", "--format", "json")
    assert code == 0, err
    got = json.loads(out)
    run = convergence_at_n(io.load(path).R, methods=["bayes", "pass_at_k_2"], replicates=300,
                           seed=3)
    for mid in ("bayes", "pass_at_k_2"):
        s = run.s_star[mid]
        assert got["methods"][mid]["no_convergence"] == pytest.approx(np.mean(s == 0))
        pmf = {int(k): v for k, v in got["methods"][mid]["pmf"].items()}
        assert pmf == {int(n): float(np.mean(s == n)) for n in np.unique(s[s > 0])}
    code, out, _ = _run(capsys, "convergence", str(path), "--replicates", "100", "--format",
                        "table")
    assert code == 0
    assert "## Distribution of convergence@n" in out and "\npass_at_k_8 " in out
    code, _, err = _run(capsys, "convergence", str(path), "--methods", "nope", "--replicates", "5")
    assert code == 2 and "unknown method" in err
    # the coins' known truth ties two models: exact agreement with it is (almost) never reached
    code, out, _ = _run(capsys, "convergence", str(path), "--target", "truth", "--methods",
                        "bayes", "--replicates", "50", "--format", "json")
    assert code == 0 and json.loads(out)["methods"]["bayes"]["no_convergence"] == 1.0
    code, _, err = _run(capsys, "convergence", str(data_dir / "reasoning_synthetic.npz"),
                        "--target", "truth", "--replicates", "5")
    assert code == 2 and "known true means" in err


def test_stability_and_greedy_commands(capsys, data_dir):
    path = data_dir / "reasoning_synthetic.npz"
    code, out, err = _run(capsys, "stability", str(path), "--benchmark", "AIME'24",
                          "--methods", "bayes,avg,bayes_greedy,borda,pass_at_k_2", "--format",
                          "table")
    assert code == 0, err
    assert "## vs the gold standard" in out and "bayes_greedy" in out
    assert "Note: skipped pass_at_k_2" in out
    code, out, err = _run(capsys, "greedy", str(path), "--replicates", "10", "--format", "json")
    assert code == 0, err
    table = json.loads(out)["table"]  # the rows named as the report and the page name them
    assert [r["data"] for r in table] == ["AIME'24", "AIME'25", "HMMT'25", "BrUMO'25",
                                          "combined"]
    assert table[0]["tau_gs"] == pytest.approx(0.739, abs=0.02)
    code, _, err = _run(capsys, "greedy", str(data_dir / "biased_coins.npz"))
    assert code == 2 and "needs greedy outcomes" in err


def test_rubric_commands_and_leaderboard_with_a_rubric(capsys, tmp_path, data_dir):
    from scorio_core import rubric as rb

    code, out, _ = _run(capsys, "rubric", "list", "--format", "json")
    assert code == 0 and len(json.loads(out)) == len(rb.PRESETS) == 21
    code, out, _ = _run(capsys, "rubric", "show", "ranking/conservative")
    assert code == 0 and "rules (first match wins)" in out and "(-0.1)" in out
    code, out, _ = _run(capsys, "rubric", "show", "ranking/format-aware", "--format", "json")
    path = tmp_path / "fa.json"
    path.write_text(out)
    assert rb.load(path) == rb.PRESETS["ranking/format-aware"]
    data = data_dir / "reasoning_synthetic.npz"
    code, out, err = _run(capsys, "leaderboard", str(data), "--benchmark", "AIME'24",
                          "--rubric", str(path), "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    board = leaderboard(rb.apply(rb.PRESETS["ranking/format-aware"],
                                 io.load(data).select("AIME'24")))
    np.testing.assert_allclose([r["score"] for r in rows], board.table["score"], atol=1e-6)
    code, _, err = _run(capsys, "leaderboard", str(data), "--rubric", "ranking/nope")
    assert code == 2 and "ranking/" in err
    code, _, err = _run(capsys, "leaderboard", str(data_dir / "biased_coins.npz"), "--rubric",
                        "ranking/conservative")
    assert code == 2 and "do not have" in err


DATA_COMMANDS = [
    ["leaderboard"],
    ["info"],
    ["import", "--out", "{out}"],
    ["compare", "--methods", "bayes"],
    ["convergence", "--methods", "bayes", "--replicates", "5"],
    ["stability", "--methods", "bayes"],
    ["greedy", "--replicates", "2"],
]


@pytest.mark.parametrize("cmd", DATA_COMMANDS, ids=lambda c: c[0])
def test_weights_reach_the_loader_for_every_data_command(capsys, tmp_path, cmd):
    rng = np.random.default_rng(5)
    R = rng.integers(0, 3, (3, 4, 3))
    lines = ["model,question,trial,outcome"] + [
        f"m{i},q{j},{t},{R[i, j, t]}" for i, j, t in np.ndindex(R.shape)
    ]
    path = tmp_path / "cat.csv"
    path.write_text("\n".join(lines) + "\n")
    argv = [cmd[0], str(path), *(a.format(out=tmp_path / "o.npz") for a in cmd[1:])]
    code, _, err = _run(capsys, *argv)
    assert code == 2 and "no category weights were given" in err and "--weights" in err
    code, out, err = _run(capsys, *argv, "--weights", "0,0.5,1")
    assert "category weights" not in err  # loaded; what follows is the command's own work
    if cmd[0] == "info":
        assert code == 0 and "w=0.5" in out
    if cmd[0] == "leaderboard":
        head, *rows = (r.split(",") for r in out.strip().splitlines() if not r.startswith("# "))
        mu = {r[0]: float(r[head.index("score")]) for r in rows}
        board = leaderboard(io.load(path, weights=[0, 0.5, 1]))
        np.testing.assert_allclose([mu[m] for m in board.table["model"]], board.table["score"],
                                   atol=1e-6)
    if cmd[0] == "import":
        assert code == 0 and io.load(tmp_path / "o.npz").weights.tolist() == [0, 0.5, 1]


def _usage_error(capsys, argv):
    """Exit code, stdout and stderr of a command that argparse refuses."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    return info.value.code, out, err


_GREEDY_RUBRIC = ("--prior greedy cannot be combined with --rubric: the greedy outcomes are "
                  "binary correctness, not rubric categories")
_NO_TAU = ("the G-Pass@k_τ curve (g in --curves) needs --tau, the share of the k draws that "
           "must succeed, e.g. 0.5")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["curves", "{x}", "--curves", "g"], f"{_NO_TAU}; got --curves g, no --tau"),
        (["curves", "{x}", "--curves", "Pass@k,g"], f"{_NO_TAU}; got --curves pass,g, no --tau"),
        (["pair", "{x}", "gpt 4", "gpt 4"],
         "A and B must be two different models; got A 'gpt 4', B 'gpt 4'"),
        (["info", "{x}", "--columns", "model=llm", "--model-columns", "model,temperature"],
         "--columns maps the model to 'llm' but --model-columns starts with 'model'; "
         "--model-columns names the model column first; got --columns model=llm, "
         "--model-columns model,temperature"),
        (["leaderboard", "{x}", "--rubric", "ranking/conservative", "--prior", "greedy"],
         f"{_GREEDY_RUBRIC}; got --prior greedy, --rubric ranking/conservative"),
        (["compare", "{x}", "--correct", "C", "--correct-from", "0.5"],
         "--correct and --correct-from were both given, but they are two rules for the same "
         "thing: which trials count as correct; keep one; got --correct C, --correct-from 0.5"),
        (["leaderboard", "{x}", "--round-grades", "11", "--weights", "0,1"],
         "--round-grades and --weights were both given, but they are two readings of the "
         "scores: --round-grades makes each rounded grade a category weighted by its value; "
         "--weights weight whole-number categories 0..C; keep one; got --round-grades 11, "
         "--weights 0,1"),
    ],
    ids=["curves-g", "curves-alias", "pair", "model-columns", "rubric-greedy", "correct",
         "round-weights"],
)
def test_inconsistent_settings_are_a_usage_error_naming_both_flags(capsys, tmp_path, argv,
                                                                    said):
    """Settings each valid but inconsistent together were a plain ``scorio-studio: error:``
    line (the curves' after the data were read); like a value out of range they are argparse's
    usage error: the command's usage line, exit 2, both flags by their CLI names and what was
    found. The data path does not exist: the settings are refused before any file is read."""
    x = str(tmp_path / "missing")
    code, out, err = _usage_error(capsys, [a.format(x=x) for a in argv])
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith(f"usage: scorio-studio {argv[0]} "), err
    assert err.splitlines()[-1] == f"scorio-studio {argv[0]}: error: {said.format(x=x)}"


def _pair_conflict():
    from scorio_core.params import PairParams

    PairParams(a="gpt 4", b="gpt 4")


def _check_conflict(path):
    from scorio_core.smaller_run import check_smaller_run

    check_smaller_run(io.load(path), 1, plan_reps=5)


@pytest.mark.parametrize(
    ("argv", "raise_it", "said"),
    [
        (["pair", "{x}", "gpt 4", "gpt 4"], _pair_conflict,
         "A and B must be two different models; got A 'gpt 4', B 'gpt 4'"),
        (["check", "{x}", "--trials", "1", "--plan-replicates", "5"], _check_conflict,
         "--plan-replicates: the Planner plans from at least 2 trials per question; --trials "
         "asks for 1: set --plan-replicates to 0 or --trials to 2 or more; got "
         "--plan-replicates 5, --trials 1"),
    ],
    ids=["pair-positionals", "check-in-the-run"],
)
def test_the_cli_prints_a_conflict_as_the_cores_own_message_in_its_words(capsys, data_dir,
                                                                         argv, raise_it, said):
    """The command line printed a conflict through a path of its own (``conflict_text``,
    filling the rule's placeholders from the parser's actions); it is the message the core
    raises -- the same Said a notebook reads as keywords -- rendered by ``cli_text`` with
    the command's parser: the flags, a positional argument by its name in the usage line
    (pair's A and B, which no flag names), values as typed. A conflict found in the run
    (the check's, after the data are read) is the same usage error as one found in the
    flags."""
    from scorio_core._validation import SettingsConflict, said_of
    from scorio_core.cli import _parser
    from scorio_core.cli._common import cli_text, command_parser

    x = str(data_dir / "biased_coins.npz")
    argv = [a.format(x=x) for a in argv]
    code, out, err = _usage_error(capsys, argv)
    assert code == 2 and out == "" and err.startswith(f"usage: scorio-studio {argv[0]} "), err
    assert err.splitlines()[-1] == f"scorio-studio {argv[0]}: error: {said}"
    with pytest.raises(SettingsConflict) as info:  # the core's own refusal, in Python
        raise_it(*([x] if argv[0] == "check" else []))
    parser = _parser()
    command = command_parser(parser, parser.parse_args(argv))
    assert cli_text(said_of(info.value), command) == said
    word = {"pair": "a='gpt 4'", "check": "plan_reps=5"}[argv[0]]  # the Python form's
    assert word in str(info.value) and word not in said


def _commands_with(flag: str) -> list[str]:
    from scorio_core.cli import _parser

    sub = next(a for a in _parser()._actions if a.choices and "leaderboard" in a.choices)
    return [name for name, p in sub.choices.items()
            if any(flag in a.option_strings for a in p._actions)]


#: Arguments a command needs besides its data path.
_REQUIRED = {"pair": ["a", "b"], "import": ["--out", "o.npz"], "report": ["--out", "r.html"]}


@pytest.mark.parametrize("cmd", _commands_with("--score-range"))
def test_a_loader_conflict_is_a_usage_error_in_every_command_that_reads_data(capsys, cmd):
    """``--score-range`` with ``--weights`` (two readings of the scores): every command with
    the loader's flags refuses it as a usage error, before reading the (missing) file."""
    code, out, err = _usage_error(capsys, [cmd, "missing.csv", *_REQUIRED.get(cmd, ()),
                                           "--score-range", "0,10", "--weights", "0,0.5,1"])
    last = err.splitlines()[-1]
    assert code == 2 and out == "" and err.startswith(f"usage: scorio-studio {cmd} "), err
    assert last.startswith(f"scorio-studio {cmd}: error: --score-range and --weights were "
                           "both given, but they are two readings of the scores"), last
    assert last.endswith("; got --score-range 0,10, --weights 0,0.5,1"), last


def test_every_data_command_has_the_loader_flags():
    assert {"leaderboard", "plan", "curves", "pair", "info", "import", "report",
            "check"} <= set(_commands_with("--score-range"))


def test_consistent_settings_still_run(capsys, data_dir):
    """The check before the run refuses only the inconsistent: ``--curves g`` with ``--tau``
    runs, and ``--pair`` naming a model with a comma is read against the data's models."""
    coins = str(data_dir / "biased_coins.npz")
    code, out, err = _run(capsys, "curves", coins, "--curves", "g", "--tau", "0.5",
                          "--format", "csv")
    assert code == 0 and "G-Pass" in out, err
    code, out, err = _run(capsys, "pair", coins, "LLM_11", "LLM_10", "--format", "json")
    assert code == 0, err


def test_analysis_commands_carry_provenance(capsys, data_dir):
    """compare/convergence/stability/greedy: JSON has a provenance object naming the input file,
    its sha256, every setting and seed; CSV reads back with comment="#"."""
    import hashlib
    from io import StringIO

    import pandas as pd

    path = data_dir / "reasoning_synthetic.npz"
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    runs = {
        "compare": ["--methods", "bayes,avg"],
        "convergence": ["--methods", "bayes", "--replicates", "20", "--seed", "4"],
        "stability": ["--methods", "bayes,avg"],
        "greedy": ["--replicates", "5", "--seed", "2"],
    }
    for cmd, flags in runs.items():
        code, out, err = _run(capsys, cmd, str(path), "--benchmark", "AIME'24", *flags,
                              "--format", "json")
        assert code == 0, err
        prov = json.loads(out)["provenance"]
        assert prov["analysis"] == cmd and prov["input"]["file"] == path.name
        assert prov["input"]["sha256"] == sha and prov["benchmark"] == "AIME'24"
        assert prov["shape"]["models"] == 20
        code, out, err = _run(capsys, cmd, str(path), "--benchmark", "AIME'24", *flags,
                              "--format", "csv")
        assert code == 0, err
        assert f"# input.sha256: {sha}\n" in out
        first = pd.read_csv(StringIO(out.split("\n\n")[0]), comment="#")
        assert len(first) >= 1
    prov = json.loads(_run(capsys, "convergence", str(path), *runs["convergence"],
                           "--format", "json")[1])["provenance"]
    assert prov["seeds"] == {"seed": 4} and prov["settings"]["replicates"] == 20


def test_columns_option_maps_a_table_with_other_names(capsys, tmp_path, data_dir):
    data = io.load(data_dir / "biased_coins.npz")
    frame = io.to_long_frame(data).rename({"model": "llm", "question": "item"})
    path = tmp_path / "renamed.csv"
    frame.write_csv(path)
    code, _, err = _run(capsys, "leaderboard", str(path), "--format", "csv")
    assert code == 2 and "model" in err
    code, out, err = _run(capsys, "leaderboard", str(path), "--format", "csv",
                          "--columns", "model=llm,question=item")
    assert code == 0, err
    _, ref, _ = _run(capsys, "leaderboard", str(data_dir / "biased_coins.npz"), "--format", "csv")
    body = [line for line in out.splitlines() if not line.startswith("#")]
    assert body == [line for line in ref.splitlines() if not line.startswith("#")]


def test_convergence_text_prints_the_reports_pmf(capsys, data_dir):
    """The text printed each method's pmf as one cell of every n with mass ("30: 0.0033,
    32: 0.0033, ..." -- hundreds of characters): it prints the report's view, one row per
    method with its mass in doubling bins of n and the share that never settled, each row
    summing to 1, and the line under it; the JSON keeps p for every n."""
    path = str(data_dir / "biased_coins.npz")
    code, out, err = _run(capsys, "convergence", path, "--methods", "bayes,pass_at_k_2",
                          "--replicates", "200", "--format", "table")
    assert code == 0, err
    part = out.split("## Distribution of convergence@n\n", 1)[1].split("\n\n", 1)[0]
    lines = part.splitlines()
    assert lines[0].split() == ["method", "n=1", "n=2", "n=3–4", "n=5–8", "n=9–16", "n=17–32",
                                "n=33–64", "n=65–79", "no_convergence"]
    rows = {ln.split()[0]: [float(x) for x in ln.split()[1:]] for ln in lines[1:3]}
    assert list(rows) == ["bayes", "pass_at_k_2"]
    assert all(sum(v) == pytest.approx(1.0, abs=2e-3) for v in rows.values())
    assert lines[3].startswith("Share of replicates whose convergence@n falls in each bin")
    assert max(map(len, lines[:3])) < 100


def test_info_writes_our_mean_and_the_harness_value_with_the_same_digits(capsys):
    """``scorio-studio info`` on lm-eval logs printed ``"mean": 0.166667`` beside the
    harness's ``"value": 0.16666666666666666`` for the same file: every float of the report
    now has the exports' digits, so equal numbers read equal."""
    import re
    from pathlib import Path

    logs = Path(__file__).parents[1] / "fixtures" / "harness" / "lm_eval" / "multi"
    code, out, err = _run(capsys, "info", str(logs))
    assert code == 0, err
    files = json.loads(out)["import_report"]["files"]
    pairs = [(f["mean"], f["harness"]["value"]) for f in files if "harness" in f]
    assert pairs and all(m == v for m, v in pairs), pairs
    assert any(m != round(m, 3) for m, _ in pairs)  # a third or a twelfth: many digits
    assert not re.search(r"\d\.\d{7,}", out), re.findall(r"\d\.\d{7,}", out)


def test_a_misspelt_question_or_model_gets_a_did_you_mean(capsys, tmp_path):
    """`pair --question "item 5"` (or `5`) and `plan --pair "alpha,Modele"` listed ten
    questions or every model where `--sections` says "did you mean": the same helper now
    names the question or model meant -- the one it spells with other separators, accents
    or case, or of which the typed text is a whole word."""
    from scorio_core import Outcomes

    R = np.random.default_rng(0).integers(0, 2, (3, 12, 4))
    path = tmp_path / "run.npz"
    io.save_npz(Outcomes(R, models=["alpha", "Modèle β 7B", "beta"],
                         questions=[f"item-{i}" for i in range(12)]), path)
    for typed in ("item 5", "5", "ITEM-5"):
        code, _, err = _run(capsys, "pair", str(path), "alpha", "beta", "--question", typed)
        assert code == 2 and f"unknown question {typed!r}; did you mean 'item-5'" in err, err
    code, _, err = _run(capsys, "pair", str(path), "alpha", "Modele")
    assert code == 2 and "unknown model 'Modele'; did you mean 'Modèle β 7B'?" in err, err
    code, _, err = _run(capsys, "plan", str(path), "--pair", "alpha,Modele")
    assert code == 2 and "unknown model 'Modele' in pair; did you mean 'Modèle β 7B'?" in err
    code, _, err = _run(capsys, "pair", str(path), "alpha", "zzz")  # nothing close: the list
    assert code == 2 and "the models are 'alpha', 'Modèle β 7B', 'beta'" in err, err


def test_info_says_a_note_of_the_whole_load_once(capsys):
    """`info` on Inspect logs repeated "model names without their provider prefix ..." once
    per file and once more for the load: it is said once, for the load."""
    from pathlib import Path

    logs = Path(__file__).parents[1] / "fixtures" / "harness" / "inspect" / "epochs"
    code, out, err = _run(capsys, "info", str(logs))
    assert code == 0, err
    report = json.loads(out)["import_report"]
    assert any("provider prefix" in n for n in report["notes"])
    assert out.count("provider prefix") == 1
    assert len(report["files"]) >= 2 and all("notes" not in f for f in report["files"])


def test_info_says_a_note_of_some_files_once_naming_them(capsys):
    """Two Inspect logs with 2 errored samples each: the report's line names both files
    (``each of 2 files (...)``), and their rows do not repeat it (JSON said it three times)."""
    from pathlib import Path

    logs = Path(__file__).parents[1] / "fixtures" / "harness" / "inspect" / "errored"
    code, out, err = _run(capsys, "info", str(logs))
    assert code == 0, err
    report = json.loads(out)["import_report"]
    said = [n for n in report["notes"] if "errored but were scored" in n]
    assert len(said) == 1 and said[0].startswith("each of 2 files (")
    assert out.count("errored but were scored") == 1
    assert all("notes" not in f for f in report["files"])


# ------------------------------------------------- graded logs: advice that can be followed
HARNESS = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect"
#: Each command that ranks binary correctness, with settings that keep it quick.
_BINARY_COMMANDS = {
    "compare": ["--methods", "bayes,avg"],
    "convergence": ["--methods", "bayes", "--replicates", "20"],
    "stability": ["--methods", "bayes,avg"],
    "curves": [],
    "leaderboard": ["--k", "2"],
}


#: Each command's analysis as its refusal names it.
_TITLES = {"compare": "Method comparison", "convergence": "Convergence",
           "stability": "Stability"}


@pytest.mark.parametrize("cmd", list(_BINARY_COMMANDS))
def test_a_refusal_of_graded_logs_names_an_option_that_runs_on_them(capsys, cmd):
    """On Inspect's C/P/I logs (written by Inspect itself) these commands said "load them
    again with each outcome mapped to 0 or 1", and no flag did that. The refusal names the
    flag with a value (--correct C, and --correct-from 0.5 for partial credit), and each runs
    the command on the same logs, C -- or C and P -- counted correct, said in a note. The
    command line names the flags alone: not Python's keywords, not the app's boxes (the
    refusal named all three)."""
    cpi = str(HARNESS / "passk_cpi")
    code, out, err = _run(capsys, cmd, cpi, *_BINARY_COMMANDS[cmd], "--format", "csv")
    assert code == 2 and out == "" and "mapped to 0 or 1" not in err
    assert err.rstrip().endswith(
        "every other outcome wrong, to "
        + {"curves": "draw the Pass@k curves", "leaderboard": "add the Pass@k columns"}.get(
            cmd, f"run {_TITLES.get(cmd)}")
        + ": --correct C; --correct-from 0.5 counts P (partial) correct too."), err
    for other in ("correct=", "correct_from=", "Correct outcomes", "in the app", "upload",
                  "ks=", "Pass@k columns**"):
        assert other not in err, (other, err)
    if cmd == "leaderboard":  # the Pass@k setting by its flag too
        assert "Leave out --k to rank them by Bayes@N as they are" in err, err
    graded = io.load(cpi)
    for flags, right in ((["--correct", "C"], [2]), (["--correct-from", "0.5"], [1, 2])):
        code, out, err = _run(capsys, cmd, cpi, *_BINARY_COMMANDS[cmd], *flags,
                              "--format", "csv")
        assert code == 0, err
        assert "Outcomes made binary" in out + err and "as correct (1)" in out + err
        notes = [line for line in (out + err).splitlines() if "# note: Outcomes made" in line]
        assert all(f"Outcomes made binary ({' '.join(flags)}): " in n for n in notes), notes
        # the analysis read the logs as the flag says: C (and P) correct, I wrong
        binary = io.load(cpi, correct=flags[1].split(",")) if flags[0] == "--correct" else \
            io.load(cpi, correct_from=float(flags[1]))
        assert np.array_equal(binary.R, np.isin(graded.R, right).astype(int))


def test_a_continuous_score_is_refused_with_the_rounding_that_loads_it(capsys, tmp_path):
    """Continuous scores (Inspect's model-graded 0..1 values) were refused with "round the
    grades to a few levels" and no option did. The refusal names --round-grades 11 and
    --correct-from 0.5 -- the flags alone, not Python's keywords beside them -- and both load
    the same logs: rounded to 0, 0.1, ..., 1 or thresholded."""
    from fixtures import make_logs as mk

    rng = np.random.default_rng(7)
    scores = rng.random((2, 30, 3)).round(4)
    for i, m in enumerate(("alpha", "beta")):
        mk.write_inspect_eval(tmp_path / f"{m}.eval", f"mockllm/{m}", "cont", scores[i],
                              [f"q{j}" for j in range(30)])
    code, out, err = _run(capsys, "leaderboard", str(tmp_path))
    assert code == 2 and "continuous score cannot be an outcome category" in err
    assert "round them: --round-grades 11 (levels 0, 0.1, ..., 1), or" in err
    assert "e.g. --correct-from 0.5;" in err and "round_grades=" not in err
    assert "correct_from=" not in err and "Round grades to" not in err
    code, out, err = _run(capsys, "leaderboard", str(tmp_path), "--round-grades", "11",
                          "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    want = np.floor(scores * 10 + 0.5) / 10  # each score to its nearest tenth
    np.testing.assert_allclose(sorted(r["score"] for r in doc["rows"]),
                               sorted(want.mean(axis=(1, 2))), atol=5e-7)  # JSON: 6 digits
    assert any("rounded to the nearest of 11 levels" in n for n in doc["notes"])
    code, out, err = _run(capsys, "compare", str(tmp_path), "--correct-from", "0.5",
                          "--methods", "bayes,avg", "--format", "csv")
    assert code == 0, err
    o = io.load(tmp_path, correct_from=0.5)
    assert o.is_binary and np.array_equal(o.R, (scores >= 0.5).astype(int))


def test_the_cores_advice_names_flags_and_commands_alone(capsys, tmp_path):
    """Advice that named every surface's form together ("benchmark='x' / --benchmark x, or
    the app's Benchmark box", "sc.stability(data) / scorio-studio stability", "round_grades=5
    / --round-grades 5", "where= / --where", "set plan_reps= (--plan-replicates)") reads, on
    the command line, the flags and commands alone -- in errors and in every note; what the
    flag it names says loads. The CSV's provenance records keep Python's form."""
    from scorio_core import Outcomes
    from scorio_core.io import save_npz, save_table

    multi = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "lm_eval" / "multi"
    code, out, err = _run(capsys, "curves", str(multi), "--benchmark", "qa_vote", "--format",
                          "csv")
    assert code == 0, err
    notes = [ln for ln in out.splitlines() if ln.startswith("# note: ")]
    assert any(n.endswith("to analyse one task alone, choose it (--benchmark qa_vote/maj@5).")
               for n in notes), notes
    assert any("Choose one benchmark (--benchmark qa_vote/maj@5) to count each document once."
               in n for n in notes), notes
    for other in ("benchmark='", " / --", "the app"):
        assert not any(other in n for n in notes), (other, notes)
    assert "# load_notes: [" in out and "choose it (benchmark='qa_vote/maj@5')" in out
    code, out, err = _run(capsys, "curves", str(multi), "--benchmark", "qa_vote/maj@5",
                          "--format", "csv")  # the flag as the note typed it
    assert code == 0 and "once per filter" not in out and "pooled" not in out, err

    one = tmp_path / "one.csv"
    save_table(Outcomes(np.random.default_rng(0).integers(0, 2, (3, 10, 1))), one)
    code, _, err = _run(capsys, "convergence", str(one))
    assert code == 2 and err.rstrip().endswith(
        "rank single trials with the low-budget stability analysis (scorio-studio stability)")
    assert "sc.stability" not in err
    code, _, err = _run(capsys, "stability", str(one), "--methods", "bayes,avg", "--format",
                        "csv")  # the command it names runs on the same data
    assert code == 0, err

    code, _, err = _run(capsys, "info", str(one), "--where", "temp=1")
    assert code == 2 and "one.csv: --where names column 'temp', which the table does not " \
        "have" in err and "where=" not in err
    cats = tmp_path / "cats.npz"
    save_npz(Outcomes(np.random.default_rng(1).integers(0, 3, (2, 4, 2)), weights=[0, 0.3, 1]),
             cats)
    code, _, err = _run(capsys, "info", str(cats), "--round-grades", "5")
    assert code == 2 and "error: --round-grades 5 rounds graded scores (numbers on a scale)" \
        in err and "drop it (--correct names the categories" in err, err
    assert "round_grades=" not in err and "correct=" not in err

    four = tmp_path / "four.csv"
    save_table(Outcomes(np.random.default_rng(2).integers(0, 2, (3, 20, 4))), four)
    code, out, err = _run(capsys, "check", str(four), "--replicates", "10", "--format", "csv")
    assert code == 0, err
    assert "# note: The Planner's plans were not checked (none asked for): ask for some, e.g. " \
        "--plan-replicates 20, to plan" in out and "plan_reps=" not in out


def test_the_spread_prior_advice_and_help_name_the_commands_and_flags_alone(capsys, tmp_path):
    """The few-models note said "(--spread-prior, sc.fit_spread_prior)", the p_best note
    "'Check a smaller run' (sc.check_smaller_run, scorio-studio check)", the check's "raise
    'Largest question plan drawn'" (the page's box), and --help "(scorio-studio spread-prior
    RUNS -o FILE; sc.fit_spread_prior)", "(sc.fit_spread_prior, --spread-prior)" and "(the
    app's pages show ...)". The command line reads the commands and flags alone -- and the
    flags it names run."""
    from scorio_core import Outcomes
    from scorio_core.cli._common import cli_text
    from scorio_core.definitions import ANALYSES
    from scorio_core.io import save_table

    data = Outcomes(np.random.default_rng(2).integers(0, 2, (3, 20, 16)))
    three = tmp_path / "three.csv"
    save_table(data, three)
    # the leaderboard's caveats (the page's, the report's) as the command line words them;
    # `leaderboard` itself prints the board's notes, not these
    board = ANALYSES["leaderboard"]
    p = board.params(scope="population")
    notes = [cli_text(n) for n in board.caveats(data, p, board.run(data, p))]
    learned = ("a prior learned from earlier runs like this one (scorio-studio spread-prior "
               "RUNS -o FILE, given as --spread-prior FILE) removes the guess.")
    assert any(n.endswith(learned) for n in notes), notes
    assert any("How far p_best holds on runs like this one is measured by scorio-studio "
               "check, which draws" in n for n in notes), notes
    code, out, err = _run(capsys, "check", str(three), "--replicates", "10", "--spread-history",
                          "5", "--plan-replicates", "2", "--format", "csv")
    assert code == 0, err
    notes += [ln for ln in out.splitlines() if ln.startswith("# note: ")]
    assert any(n.endswith("(scorio-studio spread-prior RUNS -o FILE, given as --spread-prior "
                          "FILE) would, if they were like this one. Run again with "
                          "--spread-history 0 for the flat prior the leaderboard uses by "
                          "default.") for n in notes), notes
    assert any(n.endswith("which are not drawn (raise --max-questions to draw them).")
               for n in notes), notes
    for n in notes:
        for other in ("sc.", "spread_prior=", "spread_history=", "max_questions=", "**",
                      "Largest question plan drawn", "page", "in the app"):
            assert other not in n, (other, n)
    # what the notes name runs: a prior learned by the command, given as the flag
    runs = []
    for seed in range(5):
        runs.append(tmp_path / f"run{seed}.csv")
        save_table(Outcomes(np.random.default_rng(10 + seed).integers(0, 2, (3, 20, 4))),
                   runs[-1])
    prior = tmp_path / "prior.json"
    code, _, err = _run(capsys, "spread-prior", *map(str, runs), "-o", str(prior))
    assert code == 0 and prior.is_file(), err
    code, out, err = _run(capsys, "leaderboard", str(three), "--scope", "population",
                          "--spread-prior", str(prior), "--format", "csv")
    assert code == 0, err  # the board's p_best reads it (its settings line names the file)
    assert f"# settings.spread_prior: {prior}" in out
    # --help: each setting in the command line's words (the text argparse wraps)
    import argparse

    from scorio_core.cli import _parser

    commands = next(a for a in _parser()._actions
                    if isinstance(a, argparse._SubParsersAction)).choices
    for command, flag, own in [
            ("leaderboard", "--spread-prior", "(the JSON file scorio-studio spread-prior RUNS "
             "-o FILE writes)"),
            ("plan", "--spread-prior", "(the JSON file scorio-studio spread-prior RUNS -o "
             "FILE writes)"),
            ("leaderboard", "--subset", "(question attributes: `scorio-studio info`)"),
            ("leaderboard", "--by", "default: no table"),
            ("check", "--spread-history", "(scorio-studio spread-prior RUNS -o FILE, given as "
             "--spread-prior FILE)"),
            ("info", "--where", "repeat the flag to filter on several columns")]:
        said = next(a.help for a in commands[command]._actions if flag in a.option_strings)
        assert own in said, (flag, said)
        for other in ("sc.", "spread_prior=", "the app", "page", "**", "data.question", "`;`"):
            assert other not in said, (flag, other, said)


def test_leaderboard_caveats_keep_our_code_spans_and_the_datas_names(capsys, tmp_path):
    """The command's caveats were escaped as plain notes: a terminal printed our code spans'
    backticks (`` `trials_needed_papers` ``) while the header above dropped them, and the
    Markdown printed them as visible, escaped backticks (``\\`bayes_mu\\```). The could-be-first
    line was printed twice, in the header and again among the caveats. Now the caveats are
    read as the header is: code spans lose their backticks in a terminal and stay code in
    Markdown, and a model named ``tick`s`` keeps its backtick, escaped in Markdown."""
    from scorio_core.formatting import md_name

    rng = np.random.default_rng(0)
    shares = {"tick`s": 0.55, "b*c*": 0.5, "plain": 0.3}
    rows = ["model,question,trial,outcome"] + [
        f"{m},q{q},{t},{int(rng.random() < p)}"
        for m, p in shares.items() for q in range(30) for t in range(4)]
    path = tmp_path / "names.csv"
    path.write_text("\n".join(rows) + "\n")

    code, out, err = _run(capsys, "leaderboard", str(path), "--format", "table")
    assert code == 0, err
    flat = " ".join(out.split())
    assert "(trials_needed_papers is the papers' expected-z rule" in flat
    assert out.replace("tick`s", "").count("`") == 0  # only the model's own backtick
    assert flat.count("The could-be-first set (tick`s, b*c*) holds") == 1

    code, out, err = _run(capsys, "leaderboard", str(path), "--format", "markdown")
    assert code == 0, err
    quotes = [line for line in out.splitlines() if line.startswith("> ")]
    said = " ".join(quotes)
    assert "(`trials_needed_papers` is the papers' expected-z rule" in said
    assert "so `bayes_mu` is `score` pulled" in said and "\\`" not in said
    assert out.count("The could-be-first set") == 1
    assert f"({md_name('tick`s')}, {md_name('b*c*')}) holds" in out
