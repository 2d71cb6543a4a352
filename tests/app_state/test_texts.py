"""Screen texts computed in app_state (issue 24: texts that quoted fixed numbers)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from app_state.texts import stability_prompt
from scorio_core import Outcomes


def test_stability_prompt_names_the_loaded_shape():
    """The Stability box said "20 × 30 × 80" on 20 × 120 × 80 data."""
    o = Outcomes(np.zeros((20, 120, 80), dtype=np.int8))
    text = stability_prompt(77, o)
    assert "77 methods × 80 single-trial slices" in text
    assert "20 × 120 × 80" in text and "30 × 80" not in text
    one = Outcomes(np.zeros((3, 5, 1), dtype=np.int8))
    assert stability_prompt(1, one).startswith("1 method × 1 single-trial slice of these 3 × 5 × 1")


def _sprintf(fmt: str, v: float) -> str:
    """What Streamlit's printf (sprintf-js) draws for the app's number patterns: ``%.Nf``, and
    ``%,.Nf`` with thousands separators (its ``,`` flag; Python's ``%`` has none)."""
    m = re.fullmatch(r"%(,?)\.(\d+)f", fmt)
    assert m, fmt
    return f"{v:{m[1]}.{m[2]}f}"


def test_printf_formats_write_what_the_core_formatter_writes():
    """The app's tables use the core's one format per column: the printf pattern prints
    every finite value as the CLI/report formatter does, thousands separators included (the
    Pair page's df read 7826.2 beside the CLI's 7,826.2)."""
    from app_state.texts import printf_formats
    from scorio_core.formatting import format_column

    t = pd.DataFrame({
        "model": ["a", "b", "c"],
        "diff": [0.023, -0.5, 0.0],  # probabilities / scores: 4 decimals
        "df": [7826.2401, 99.0, 12.5],  # d.o.f. were '7826.2401' beside '99' on the Pair page
        "trials_needed": [466.0, 2368.0, 3.0],  # a count: whole numbers
        "t": [12.25, 1.5, 0.25],
        "p_best": [0.7491, 0.1332, 0.1177],  # a share of draws: 3 decimals, as on the board
        "flip": [True, False, True],  # not a number column
    })
    fmts = printf_formats(t)
    assert set(fmts) == {"diff", "df", "trials_needed", "t", "p_best"}
    assert fmts["diff"] == "%.4f" and fmts["trials_needed"] == "localized"
    assert fmts["p_best"] == "%.3f"  # the per-subset table printed 0.9437 beside 0.749
    assert fmts["df"] == "%,.1f"  # a value of 1,000 or more: separators, as the CLI's
    for c, f in fmts.items():
        core = format_column(t[c].tolist(), c)
        shown = [f"{round(v):,}" if f == "localized" else _sprintf(f, v) for v in t[c]]  # en-US
        assert shown == core, c
    assert printf_formats(pd.DataFrame({"gap": [-1234.5, 3.0]}))["gap"] == "%,.1f"  # |v|
    assert printf_formats(pd.DataFrame({"gap": [999.5, np.inf]}))["gap"] == "%.2f"


def _long(rows):
    return pd.DataFrame(rows, columns=["model", "question", "trial", "outcome", "answer"])


def test_load_notes_read_as_sentences_from_real_loads(tmp_path):
    """The Data page showed what the loader changed as a raw JSON tree; each change is now a
    sentence with its numbers, one per key of LOAD_NOTES."""
    from app_state.texts import LOAD_NOTES, load_notes, load_notes_text
    from scorio_core import io

    rows = [(m, q, t, (m == "a") ^ (t % 2), f"{m}{q}{t}") for m in "ab" for q in ("q0", "q1")
            for t in range(3)]
    rows = [r for r in rows if not (r[0] == "b" and r[1] == "q1" and r[2] == 2)]  # one short
    path = tmp_path / "runs.csv"
    _long(rows).to_csv(path, index=False)
    cut = io.load(path, on_missing="truncate")
    text = load_notes_text(cut)
    assert any("Trials cut to N = 2" in s and "up to 3" in s and "3 completions left out" in s
               for s in text), text
    assert any(s.startswith("Column `answer`") for s in text), text
    dropped = io.load(path, on_missing="drop_questions")
    assert any(s.startswith("1 question dropped") and "`q1`" in s
               for s in load_notes_text(dropped))
    # every key the page looks for has a sentence of its own (no key: value fallback)
    meta = {"on_missing": "truncate", "truncated_to_N": 2, "max_N_found": 3,
            "dropped_completions": 2, "dropped_questions": ["q9"], "truncated_to_D": 1,
            "R0_dropped": "some pairs have no greedy rows", "ignored_columns": ["x"],
            "ignored_why": {"x": "text"}, "where": {"split": ["test"]},
            "rows_kept_by_where": "5 of 9", "model_columns": ["model", "temperature"],
            "decoding_note": "greedy rows are their own models",
            "decoding_spellings": {"T=0": "greedy"}, "missing_signal_values": {"len": 3},
            "extra_arrays_not_loaded": ["big"], "empty_outcomes": 4,
            "rounded_grades": {"levels": 11, "scale": [0, 1]},
            "binarized": {"correct": ["C (correct)"], "wrong": ["I (incorrect)", "P (partial)"]},
            "numbered_trials": True}
    assert set(meta) == set(LOAD_NOTES)
    o = Outcomes(np.zeros((1, 2, 2), dtype=np.int8), metadata=meta)
    assert load_notes(o) == meta
    text = load_notes_text(o)
    assert not [s for s in text if s.split(":")[0] in LOAD_NOTES], text
    assert len(text) == len(LOAD_NOTES) - 6  # paired keys share a sentence
    assert ("Outcomes made binary: `C (correct)` count as correct (1), `I (incorrect)`, "
            "`P (partial)` as wrong (0) (**Correct outcomes** in the sidebar).") in text
    assert "Graded scores rounded to the nearest of 11 levels (**Round grades to** in the " \
           "sidebar)." in text
    assert any(s.startswith("Trials numbered by row order") and s.endswith(
        "(**Number repeats as trials** in the sidebar).") for s in text), text


def test_pair_captions_name_only_what_the_tables_hold(tmp_path):
    """Under scores alone the Pair page promised answers "from the logs" and grouped
    "distinct answers". The flips line is said only over a table without texts (with texts
    the page shows ``by_model``'s own line); it names the file's trial ids where a store with
    only the question's own texts put them beside the scores."""
    from pathlib import Path

    from app_state.texts import flips_caption, repeats_caption
    from scorio_core import Outcomes, io
    from scorio_core.definitions.pair import PAIR, shows_texts
    from scorio_core.engines.pair import flip_table

    R = np.random.default_rng(0).integers(0, 2, (2, 5, 3))
    bare = flip_table(Outcomes(R, models=["a", "b"]), "a", "b", "q0")
    assert flips_caption(bare.trials) == ("One row per trial: each model's category and score "
                                          "(from the outcome tensor); flip = the two scores "
                                          "differ.")
    assert repeats_caption(bare.groups).startswith("The repeats grouped: each model's categories")
    rows = [{"model": m, "question": f"q{q}", "trial": t, "trial_id": f"run-{t}",
             "outcome": (q + t) % 2, "input": f"What is {q}?"}
            for m in "ab" for q in range(2) for t in range(3)]
    pd.DataFrame(rows).to_csv(tmp_path / "ids.csv", index=False)
    with_ids = io.load(tmp_path / "ids.csv")
    r = PAIR.run(with_ids, PAIR.params(a="a", b="b", question="q0"))
    assert not shows_texts(r)  # the input is the question's, said once: no trial texts
    # one trial column, the file's own ids (not the positions 0..2 beside them)
    assert list(r.flips.trials["trial"]) == ["run-0", "run-1", "run-2"]
    assert "trial_id_b" not in r.flips.trials and "trial_b" not in r.flips.trials
    said = flips_caption(r.flips.trials, r.flips.trial_meaning)
    assert said.startswith("One row per trial (trial = the file's trial column): ")
    assert "logs" not in said
    texts = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect" / "texts"
    data = io.load(texts)
    r = PAIR.run(data, PAIR.params(a=data.models[0], b=data.models[1]))
    assert shows_texts(r)  # the page shows by_model's line here, not flips_caption
    assert "each model's distinct answers" in repeats_caption(r.flips.groups)


def _conflict(cls, **kw):
    from scorio_core._validation import SettingsConflict

    try:
        cls(**kw)
    except SettingsConflict as exc:
        return exc
    raise AssertionError(f"{cls.__name__}({kw}) raised nothing")


def test_error_text_calls_each_conflicting_setting_by_its_declared_label():
    """Every params class's settings-valid-alone-but-not-together rule, as a page shows it:
    each setting by the label its declaration gives the widget (``params.widget``), each value
    as typed into that widget; the rule's own words are kept."""
    from app_state.texts import error_text
    from scorio_core._validation import said_of
    from scorio_core.io import LoadOptions
    from scorio_core.params import CurvesParams, PairParams, widget
    from scorio_core.simulate.params import OrderParams

    cases = [
        (OrderParams, {"upper": 0.5, "lower": 0.6}, {"upper": "`0.5`", "lower": "`0.6`"}),
        (LoadOptions, {"score_range": (0, 10), "weights": (0, 0.5, 1)},
         {"score_range": "`0, 10`", "weights": "`0, 0.5, 1`"}),
        (LoadOptions, {"columns": {"model": "llm"}, "model_columns": ("m", "t")},
         {"columns": "`model=llm`", "model_columns": "`m, t`"}),
        (PairParams, {"a": "x*y", "b": "x*y"}, {"a": "`x*y`", "b": "`x*y`"}),
        (CurvesParams, {"kinds": ("g",)}, {"kinds": "`g`", "tau": None}),
    ]
    for cls, kw, values in cases:
        exc = _conflict(cls, **kw)
        text = error_text(exc)  # the message names its settings' class: no caller says it
        assert set(exc.found) == set(values), cls
        for key, shown in values.items():
            label = f"**{widget(cls, key)['label']}**"
            assert (f"no {label}" if shown is None else f"{label} {shown}") in text, text
        assert "=" not in text.replace("model=llm", "") and "{" not in text, text
        head = said_of(exc).parts[0]  # the rule's words before its first setting
        assert text.startswith(head if isinstance(head, str) else "**"), text
    # the labels are the declarations', not a second list: the message follows a label
    assert "**Score range**" in error_text(_conflict(
        LoadOptions, score_range=(0, 10), weights=(0, 1)))
    assert widget(LoadOptions, "score_range")["label"] == "Score range"


def test_the_app_renders_a_conflict_as_any_said_by_the_boxes_of_its_settings():
    """A conflict is the core's Said, rendered as every other advice (``app_text``): each
    setting by its box's declared label, each value found after its box as entered -- with
    no class passed by the page (the Check page's conflict is raised by the run, on
    CheckParams' settings; the loader's on LoadOptions'); an option only the command line
    has (``--rubric``, ``of=None``) is its name as code, never a guessed label."""
    import pytest

    from app_state.texts import app_name, app_text, error_text
    from scorio_core._validation import Mention, SettingsConflict, said_of
    from scorio_core.io import LoadOptions
    from scorio_core.smaller_run import check_smaller_run

    run = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 10, 8)))
    with pytest.raises(SettingsConflict) as info:
        check_smaller_run(run, 1, plan_reps=5)
    runs, trials = "**Planner runs (0 = skip)**", "**Trials per question**"
    assert app_text(said_of(info.value)) == error_text(info.value) == (
        f"{runs}: the Planner plans from at least 2 trials per question; {trials} asks for "
        f"1: set {runs} to 0 or {trials} to 2 or more; got {runs} `5`, {trials} `1`")
    with pytest.raises(SettingsConflict) as info:
        LoadOptions(correct="C,P", correct_from=0.5)
    box, threshold = "**Correct outcomes**", "**Correct from score**"
    assert app_text(said_of(info.value)) == (
        f"{box} and {threshold} were both given, but they are two rules for the same thing: "
        f"which trials count as correct; keep one; got {box} `C, P`, {threshold} `0.5`")
    assert str(info.value).endswith("got correct=('C', 'P'), correct_from=0.5")
    assert app_name(Mention(None, "rubric", "x", role="found")) == "`rubric` `x`"
    assert app_name(Mention(None, "rubric", role="name")) == "`rubric`"


def test_error_text_passes_other_errors_and_names_a_session_files_settings():
    """Any other error is its message; a conflict from a session file or a link names its
    settings by their boxes: the message carries the class whose settings they are (it was
    noted on the exception by ``app_state.session``, and a caller that did not pass the class
    showed Python's keywords), so no caller has to know it."""
    import json

    import pytest

    from app_state import session as sess
    from app_state.texts import error_text
    from scorio_core import ValidationError
    from scorio_core.params import PlanParams

    with pytest.raises(ValidationError) as info:
        PlanParams(assurance=1.0)
    assert error_text(info.value) == str(info.value)
    assert "assurance must be" in str(info.value)
    with pytest.raises(ValidationError) as info:
        sess.from_query("pair", {"pair.a": json.dumps("m"), "pair.b": json.dumps("m")})
    assert error_text(info.value) == ("**Model A** and **Model B** must be two different "
                                      "models; got **Model A** `m`, **Model B** `m`")
    assert str(info.value) == "a and b must be two different models; got a='m', b='m'"


def test_the_app_names_the_loaders_options_by_their_boxes_only():
    """The advice on categorical data named each option three ways ("correct=['C'] /
    --correct C (in the app: C in Correct outcomes, among the upload's options)"). The core
    writes it once (a Said); the app renders it -- refusals, errors, caveats -- with each
    box's declared label and the value as entered, and nothing else: no Python keyword, no
    flag, no notebook line."""
    import pytest

    from app_state.texts import app_text, error_text
    from scorio_core import ValidationError, leaderboard, rank
    from scorio_core.definitions import ANALYSES
    from scorio_core.io import LoadOptions
    from scorio_core.params import LeaderboardParams, widget

    names = ["I (incorrect)", "P (partial)", "C (correct)"]
    o = Outcomes(np.random.default_rng(0).integers(0, 3, (3, 8, 4)), weights=[0, 0.5, 1],
                 category_names=names)
    box, threshold = (f"**{widget(LoadOptions, k)['label']}**" for k in ("correct",
                                                                          "correct_from"))
    assert (box, threshold) == ("**Correct outcomes**", "**Correct from score**")
    advice = (f"`C` in {box}, among the upload's options; `0.5` in {threshold} counts P "
              "(partial) correct too.")
    shown = []
    why = ANALYSES["stability"].refusal(o)
    shown.append(app_text(why))
    assert shown[-1].endswith(f"to run Stability: {advice}") and str(why).endswith(
        "to run Stability: correct=['C']; correct_from=0.5 counts P (partial) correct too.")
    with pytest.raises(ValidationError) as info:  # the same refusal raised by a run
        ANALYSES["compare"](o)
    shown.append(error_text(info.value))
    assert shown[-1].endswith(f"to run Method comparison: {advice}")
    with pytest.raises(ValidationError) as info:  # the Leaderboard's Pass@k box, by label
        leaderboard(o, ks=[2])
    shown.append(error_text(info.value))
    assert (f"Leave out **{widget(LeaderboardParams, 'ks')['label']}** to rank them by "
            "Bayes@N as they are") in shown[-1]
    assert shown[-1].endswith(f"to add the Pass@k columns: {advice}")
    with pytest.raises(ValidationError) as info:  # a notebook's next line: Python's alone
        rank.bradley_terry(o)
    assert "on the data at hand: rank.bradley_terry(data.binarized(" in str(info.value)
    shown.append(error_text(info.value))
    assert shown[-1].endswith(f"to run rank.bradley_terry: {advice}")
    with pytest.raises(ValidationError) as info:  # the box's own refusal of a name
        o.binarized(correct=["X"])
    shown.append(error_text(info.value))
    assert shown[-1].endswith(f"(e.g. `C` in {box})")
    (note,) = o.binarized(correct=["C", "P"]).load_notes  # the caveats' note
    shown.append(app_text(note))
    assert shown[-1].startswith(f"Outcomes made binary (`C, P` in {box}): ")
    for text in shown:
        for other in ("correct=", "correct_from=", "--correct", "in the app", "binarized"):
            assert other not in text, (other, text)


#: What a page must not show of another surface's spelling of an option or a command.
_OTHER_SURFACES = ("round_grades=", "correct_from=", "score_range=", "weights=", "benchmark=",
                   "where=", "scorer=", "plan_reps=", "pair=", "--", "(Python)", "(command line)",
                   "in the app", "sc.stability", "scorio-studio")


def test_the_loaders_advice_and_notes_name_their_boxes_in_the_app_only(tmp_path):
    """The loader's advice named Python, the command line and the app together
    ("round_grades=11 / --round-grades 11 (...; 'Round grades to' in the app)", "score_range=
    (0, 100) (Python) / `--score-range 0,100` (command line) / 'Score range' ... in the app",
    "benchmark='a' / --benchmark a, or the app's Benchmark box", "sc.stability(data) /
    scorio-studio stability"). The core writes each once; a page renders it through its
    render points -- an error (error_text), a caveat or note (app_text), the line under the
    caption (load_changed_line), a table cell (app_cell) -- with each box's declared label
    and the value as entered, and nothing of the other surfaces."""
    import pytest

    from app_state.texts import app_cell, app_text, error_text, load_changed_line
    from scorio_core import io
    from scorio_core._validation import ValidationError
    from scorio_core.definitions import ANALYSES
    from scorio_core.definitions._base import common_caveats
    from scorio_core.io import MissingWeightsError

    def refusal(load, kind=ValidationError) -> str:
        with pytest.raises(kind) as info:
            load()
        return error_text(info.value)  # the sidebar's "Could not load" text

    shown = {}
    rng = np.random.default_rng(0)
    values = rng.random((2, 30)).round(4)
    cont = pd.DataFrame({"model": ["a"] * 30 + ["b"] * 30, "question": [f"q{i}" for i in
                         range(30)] * 2, "trial": 0, "outcome": values.ravel()})
    shown["continuous"] = refusal(lambda: io.load(cont))
    assert ("round them: `11` in **Round grades to** (levels 0, 0.1, ..., 1), or count a score "
            "of at least a threshold correct, e.g. `0.5` in **Correct from score**; or use") in \
        shown["continuous"]
    shown["scale"] = refusal(lambda: io.load(b"model,question,trial,outcome\na,q1,0,0.5\n"
                                             b"a,q1,1,2.5\n", filename="x.csv"))
    assert ("give the scale, e.g. `0, 10` in **Score range** for a 0-10 grade" in shown["scale"]
            and shown["scale"].endswith("e.g. `0, 0.5, 1` in **Category weights**"))
    shown["weights given"] = refusal(lambda: io.load(
        b"model,question,trial,outcome\na,q1,0,0.5\na,q1,1,1\n", filename="x.csv", weights=[0, 1]))
    assert ", but **Category weights** were given, which weight" in shown["weights given"]
    pct = "model,question,trial,outcome\n" + "".join(f"a,q{i},0,{100 * (i % 2)}\n"
                                                     for i in range(6))
    shown["percent"] = refusal(lambda: io.load(pct.encode(), filename="p.csv"),
                               MissingWeightsError)
    assert "give the scale, `0, 100` in **Score range**; each value v" in shown["percent"]
    assert ("one weight per category, 101 of them, with **Category weights**, among the "
            "upload's options.") in shown["percent"]
    shown["weights"] = refusal(lambda: Outcomes(np.array([[[0, 1, 2]]])), MissingWeightsError)
    assert "Give them, e.g. `0, 0.5, 1` in **Category weights**, among the upload's " \
        "options; if" in shown["weights"]
    cats = tmp_path / "cats.npz"
    io.save_npz(Outcomes(rng.integers(0, 3, (2, 4, 2)), weights=[0, 0.3, 1],
                         benchmarks=["aime"] * 2 + ["gpqa"] * 2), cats)
    shown["round"] = refusal(lambda: io.load(cats, round_grades=5))
    assert shown["round"].startswith("`5` in **Round grades to** rounds graded scores")
    assert "drop it (**Correct outcomes** names the categories" in shown["round"]
    shown["npz"] = refusal(lambda: io.load(cats, where={"source": "x"}))
    assert shown["npz"].endswith("so **Row filter** would be ignored: drop it; to analyse "
                                 "part of it, choose a benchmark (`aime` in **Benchmark**; "
                                 "benchmarks: aime, gpqa)")
    shown["where"] = refusal(lambda: io.load(cont, where={"temp": "1"}))
    assert "**Row filter** names column 'temp', which the table does not have" in shown["where"]
    # the notes: a caveat, the line under an analysis page's caption, a table cell
    rounded = io.load(cont, round_grades=3)
    shown["round note"] = app_text(rounded.load_notes[0])
    assert shown["round note"].startswith(
        "Graded scores rounded to the nearest of 3 levels (`3` in **Round grades to**): ")
    assert load_changed_line(rounded) == ("Changed by the load: Graded scores rounded to the "
                                          "nearest of 3 levels (details in Caveats).")
    pooled = Outcomes(np.ones((2, 4, 2), int), benchmarks=["a", "a", "b", "b"],
                      metadata={"pooled_tasks": True})
    shown["pooled"] = app_text(pooled.load_notes[0])
    assert shown["pooled"].endswith("to analyse one task alone, choose it (`a` in **Benchmark**)")
    filters = Outcomes(np.ones((2, 4, 2), int), benchmarks=["gsm8k/strict-match"] * 2
                       + ["gsm8k/flexible-extract"] * 2, metadata={"format": "lm_eval"})
    (twice,) = [c for c in common_caveats(filters) if "once per filter" in c]
    shown["filters"] = app_text(twice)
    assert "Choose one benchmark (`gsm8k/strict-match` in **Benchmark**) to count" in \
        shown["filters"]
    one_trial = Outcomes(rng.integers(0, 2, (3, 10, 1)))
    shown["convergence"] = app_text(ANALYSES["convergence"].refusal(one_trial))
    assert shown["convergence"].endswith(
        "rank single trials with the low-budget stability analysis (the Stability page).")
    logs = io.load(Path(__file__).parents[1] / "fixtures" / "harness" / "inspect" / "dict_scores")
    notes = logs.metadata["import_report"]["notes"]
    shown["scorer"] = app_text(next(n for n in notes if "2 scorers" in n))
    assert shown["scorer"].endswith("(choose another, e.g. `near` in **Scorer (logs)**)")
    shown["prefix"] = app_text(next(n for n in notes if "provider prefix" in n))
    assert shown["prefix"].endswith("; `keep` in **Provider prefixes** keeps them")
    cell = app_cell(next(n for n in notes if "provider prefix" in n))
    assert cell.endswith("; keep in 'Provider prefixes' keeps them") and "*" not in cell
    for what, text in shown.items():
        for other in _OTHER_SURFACES:
            assert other not in text, (what, other, text)


#: Python's and the command line's spellings a page must not show (beyond the loader's).
_NOT_THE_APPS = ("sc.", "scorio-studio", "--", "spread_prior=", "spread_history=",
                 "max_questions=", "in the app", "the app's")


def test_the_spread_prior_advice_names_the_apps_box_and_page_alone():
    """The leaderboard's advice on few models said "(--spread-prior, sc.fit_spread_prior)",
    the check's "(--spread-prior)" and "raise 'Largest question plan drawn'", and the
    leaderboard's p_best caveat "'Check a smaller run' (sc.check_smaller_run, scorio-studio
    check)" on every surface. Each is written once (a Said); a page shows the box by its
    declared label -- the one the page's control shows, "Spread prior", not the declaration's
    old "Spread prior (file)" beside a control labelled otherwise -- and the page, nothing of
    Python's calls or the command line's flags; the Python form keeps the calls."""
    from app_state.texts import app_text
    from scorio_core.definitions import ANALYSES
    from scorio_core.params import CheckParams, LeaderboardParams, PlanParams, widget

    label = widget(LeaderboardParams, "spread_prior")["label"]
    assert label == widget(PlanParams, "spread_prior")["label"] == "Spread prior"
    o = Outcomes(np.random.default_rng(2).integers(0, 2, (3, 20, 16)))
    board = ANALYSES["leaderboard"]
    p = board.params(scope="population")
    notes = board.caveats(o, p, board.run(o, p))
    (few,) = [n for n in notes if n.startswith("With 3 models the data cannot tell")]
    (held,) = [n for n in notes if "How far p_best holds" in n]
    assert str(few).endswith("a prior learned from earlier runs like this one "
                             "(sc.fit_spread_prior(runs), given as spread_prior=) removes the "
                             "guess.")
    assert "is measured by sc.check_smaller_run(data), which draws" in str(held)
    shown = {"few": app_text(few), "held": app_text(held)}
    assert shown["few"].endswith(f"a prior learned from earlier runs like this one (**{label}** "
                                 "on the Leaderboard and Planner pages) removes the guess.")
    assert "is measured by the *Check a smaller run* page, which draws" in shown["held"]
    check = ANALYSES["check"]
    p = check.params(reps=10, spread_history=5, plan_reps=2)
    notes = check.caveats(o, p, check.run(o, p))
    (history,) = [n for n in notes if "learned from 5 other smaller runs" in n]
    (plans,) = [n for n in notes if n.startswith("Planner check: ")]
    assert str(history).endswith("(sc.fit_spread_prior(runs), given as spread_prior=) would, "
                                 "if they were like this one. Run again with spread_history=0 "
                                 "for the flat prior the leaderboard uses by default.")
    assert str(plans).endswith("(raise max_questions= to draw them).")
    shown["history"], shown["plans"] = app_text(history), app_text(plans)
    runs = widget(CheckParams, "spread_history")["label"]
    assert shown["history"].endswith(
        f"(**{label}** on the Leaderboard and Planner pages) would, if they were like this "
        f"one. Run again with `0` in **{runs}** for the flat prior the leaderboard uses by "
        "default.")
    largest = widget(CheckParams, "max_questions")["label"]
    assert shown["plans"].endswith(f"(raise **{largest}** to draw them).")
    for what, text in shown.items():
        for other in _NOT_THE_APPS:
            assert other not in text, (what, other, text)


def test_a_pages_widget_help_names_the_apps_boxes_and_syntax_alone():
    """The settings' help named other surfaces on a page's widget: the spread prior's
    "(scorio-studio spread-prior RUNS -o FILE; sc.fit_spread_prior)", the check's "(sc.
    fit_spread_prior, --spread-prior)", the subset's "(question attributes: `scorio-studio
    info`)", the row filter's "repeat the flag ... --where ... --where" (which the page
    patched with "Here: ..."), and the per-subset table's "(the app's pages show ...)" on the
    command line. A help written per surface is shown on a page in the app's words
    (app_widget); the command line's --help and Python's docstring read their own."""
    from app_state.texts import app_widget
    from scorio_core.io import LoadOptions
    from scorio_core.params import (
        CheckParams,
        CurvesParams,
        LeaderboardParams,
        PlanParams,
        QuestionsParams,
        widget,
    )

    helps = {(c.__name__, k): app_widget(c, k)["help"] for c, k in [
        (LeaderboardParams, "spread_prior"), (PlanParams, "spread_prior"),
        (CheckParams, "spread_history"), (LeaderboardParams, "subset"),
        (CurvesParams, "subset"), (QuestionsParams, "subset"), (LeaderboardParams, "by"),
        (LoadOptions, "where")]}
    assert helps["LeaderboardParams", "spread_prior"].startswith(
        "a prior on how spread fields like this one are, learned from earlier runs (from the "
        "data's other benchmarks, or a prior file uploaded): p_best")
    assert ("what a prior learned from your earlier runs (**Spread prior** on the Leaderboard "
            "and Planner pages) would do") in helps["CheckParams", "spread_history"]
    assert ("has this value (the data's question attributes: the Data page); the same "
            "estimands") in helps["QuestionsParams", "subset"]
    assert helps["LeaderboardParams", "by"].endswith(
        "; a page starts with the data's first attribute")
    assert helps["LoadOptions", "where"].endswith(
        "several columns (all must match): one filter each, separated by `;`, e.g. "
        "`temperature = 0.0, 1.0; source = medmcqa`")
    for what, text in helps.items():
        for other in (*_NOT_THE_APPS, "flag", "ATTRIBUTE=VALUE", "default: no table"):
            assert other not in text, (what, other, text)
    # the declaration's other readers keep theirs: Python's (a str) names the calls
    assert "(sc.fit_spread_prior(runs), or the JSON file its .save(path) writes)" in widget(
        LeaderboardParams, "spread_prior")["help"]
    assert "{'temperature': [0.0, 1.0], 'source': 'medmcqa'}" in widget(LoadOptions,
                                                                        "where")["help"]


def test_the_data_pages_describe_names_the_loaders_options_by_their_boxes():
    """The Data page showed ``describe()`` in Python's form ("Outcomes made binary
    (correct=['cat2'])") under a caption calling it the report ``scorio-studio info`` prints,
    which now names flags: the page shows its notes by the boxes' labels (a JSON tree: no
    Markdown), the rest of the report as it is."""
    import io as pyio

    from app_state.texts import described
    from scorio_core import io

    o = Outcomes(np.random.default_rng(3).integers(0, 3, (2, 6, 3)), weights=[0, 0.5, 1])
    buf = pyio.BytesIO()
    io.save_table(o, buf, format="csv")
    data = io.load(buf.getvalue(), filename="cats.csv", weights=[0, 0.5, 1], correct=["cat2"])
    report, shown = data.describe(), described(data)
    assert report["changed by the load"] == [
        "Outcomes made binary (correct=['cat2']): cat2 counts as correct (1); cat0, cat1 as "
        "wrong (0)"]
    assert shown["changed by the load"] == [
        "Outcomes made binary (cat2 in 'Correct outcomes'): cat2 counts as correct (1); cat0, "
        "cat1 as wrong (0)"]
    assert {k: v for k, v in shown.items() if k != "changed by the load"} == {
        k: v for k, v in report.items() if k != "changed by the load"}
    assert described(o) == o.describe()  # nothing changed by a load: the same report


def test_the_columns_a_page_spells_are_those_the_core_writes_as_no_plain_number():
    """The one rule of every page table: a number column with a cell the core writes as
    "<0.001", "<0.0001", its mirror ">0.999" / ">0.9999", ∞ or "met now" is shown as the
    core's text; the others stay numbers. p_best told an exact 0 from a share that rounds to
    it only in the CLI, and read 1.000 -- certain -- beside <0.001 in one column."""
    from app_state.texts import board_display, core_cells, spelled_columns

    t = pd.DataFrame({"model": ["a", "b", "c"], "p_best": [0.9996, 0.0004, 0.0],
                      "score": [0.5, 0.25, 0.0], "p_value": [0.5, 2e-6, 1.0],
                      "trials_needed_papers": [3.0, 12.0, np.inf], "flip": [True, False, True]})
    assert spelled_columns(t) == ["p_best", "p_value", "trials_needed_papers"]
    assert spelled_columns(t, n_now=4) == ["p_best", "p_value", "trials_needed_papers"]
    met = t.drop(columns="trials_needed_papers").assign(trials_needed_papers=[3.0, 12.0, 40.0])
    assert spelled_columns(met, n_now=4) == ["p_best", "p_value",
                                             "trials_needed_papers"]  # "met now" at 3
    assert spelled_columns(t[["model", "score"]]) == []
    cells = core_cells(t, spelled_columns(t))
    assert cells["p_best"].tolist() == [">0.999", "<0.001", "0.000"]
    assert cells["p_value"].tolist() == ["0.5000", "<0.0001", "1.0000"]  # an exact 1 stays
    board = board_display(t.assign(t_next=[2.5, 0.0, np.nan]))
    assert board["p_best"].tolist() == [">0.999", "<0.001", "0.000"]
    assert board["score"].tolist() == [0.5, 0.25, 0.0]  # a number column stays one
    # the mirror alone spells a column; a score is no probability: 0.99996 stays a number
    near = pd.DataFrame({"p_a_better": [0.99997, 0.8526], "score": [0.99997, 0.5]})
    assert spelled_columns(near) == ["p_a_better"]
    assert core_cells(near, ["p_a_better"])["p_a_better"].tolist() == [">0.9999", "0.8526"]
    # a one-model board's p_best is 1 by construction: an exact 1, a number column
    assert spelled_columns(pd.DataFrame({"model": ["solo"], "p_best": [1.0]})) == []


def test_a_table_wider_than_the_page_is_drawn_in_parts_that_fit():
    """The Leaderboard's main table (a long model name, Pass@1 and Pass@8) ran 100 px past
    the page at 1280 px, cutting t_next and n_needed (now trials_needed_papers). Drawn in
    parts, each within the main
    column, each repeating the model, every column once, a score with its se, lo and hi
    and t_next with trials_needed_papers in one part."""
    from app_state.table_fit import MAIN_PX, column_px, fitted_parts

    cols = ["rank", "rank_lo", "rank_hi", "p_best", "score", "se", "lo", "hi", "pass@1",
            "pass@8", "t_next", "trials_needed_papers"]
    board = pd.DataFrame({"model": ["gemini-1.5-pro-preview-0409", "gpt-4"]}
                         | {c: [0.7948, 0.0024] for c in cols})
    px = column_px(board)
    assert sum(px.values()) > MAIN_PX  # as measured in Chromium: too wide for one table
    parts = fitted_parts(board, budget=MAIN_PX)  # the page at 1280 px
    assert len(parts) == 2 and all(p[0] == "model" for p in parts)
    assert [c for p in parts for c in p[1:]] == cols  # every column once, in order
    assert all(sum(px[c] for c in p) <= MAIN_PX for p in parts)
    assert parts[1][1:] == ["t_next", "trials_needed_papers"]
    assert fitted_parts(board[["model", "rank", "score"]], budget=MAIN_PX) == [
        ["model", "rank", "score"]]
    # a per-subset table repeats its subset and the model
    sub = pd.DataFrame({"attribute": ["source"], "subset": ["agieval-logiqa-en"],
                        "questions": [10], "model": ["gemini-1.5-pro-preview-0409"]}
                       | {c: [0.5] for c in cols[:8]})
    parts = fitted_parts(sub, budget=MAIN_PX)
    assert len(parts) > 1 and all(p[:3] == ["attribute", "subset", "model"] for p in parts)
    assert {"score", "se", "lo", "hi"} <= set(parts[-1])


def test_a_long_model_name_is_measured_capped_and_the_parts_with_it():
    """A 70-character model name: the grid draws a model-name column at most NAME_MAX_PX
    wide (the page sets it), but the parts were measured with the whole name (480 px), so a
    nine-column per-subset table came in four parts, the Planner's pairs in four, the Data
    page's six-column preview in two. Every model-name column is measured capped; a text
    column of another name is not; where names every part repeats would still take a third
    part, they are drawn narrower (at least NAME_MIN_PX) when that saves one."""
    from app_state.table_fit import (
        MAIN_PX,
        NAME_MAX_PX,
        NAME_MIN_PX,
        column_px,
        cut_text,
        fitted_parts,
        name_px,
        narrowed_names,
        text_px,
    )

    long = "Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview-very-long-name"
    assert text_px(long) > 1.5 * NAME_MAX_PX
    names = [long, "alpha-7b", "gpt-4"]
    for col in ("model", "better", "next", "best", "worst", "model_a", "model_b"):
        px = column_px(pd.DataFrame({col: names, "score": [0.5, 0.25, 0.1]}))
        assert px[col] == name_px(names, col) == NAME_MAX_PX, col
    # a name that fits is measured whole, and drawn whole; a longer one is cut to the width
    assert column_px(pd.DataFrame({"model": ["alpha-7b", "gpt-4"]}))["model"] == round(
        text_px("alpha-7b")) + 16
    cut = cut_text(long, NAME_MAX_PX)
    assert cut.endswith("…") and long.startswith(cut[:-1]) and text_px(cut) <= NAME_MAX_PX - 16
    assert cut_text("gemini-1.5-pro-preview-0409", name_px(["gemini-1.5-pro-preview-0409"])) \
        == "gemini-1.5-pro-preview-0409"
    # other text and numbers stay as wide as they are; a number column named "a" is a number
    other = column_px(pd.DataFrame({"question": [long], "a": [0.5]}))
    assert other["question"] > 1.5 * NAME_MAX_PX and other["a"] < NAME_MAX_PX
    # the Leaderboard's per-subset table: two parts, not four
    stats = ["questions", "rank", "rank_lo", "rank_hi", "p_best", "score", "se", "lo", "hi"]
    sub = pd.DataFrame({"attribute": ["topic"] * 3, "subset": ["algebra"] * 3, "model": names}
                       | {c: [0.1234, 11.0, 0.5] for c in stats})
    parts = fitted_parts(sub, budget=MAIN_PX)  # at 1280 px
    assert len(parts) == 2 and all(p[:3] == ["attribute", "subset", "model"] for p in parts)
    px = column_px(sub)
    assert all(sum(px[c] for c in p) <= MAIN_PX for p in parts)
    # the Data page's long preview: one table
    preview = pd.DataFrame({"model": names, "question": ["q00"] * 3, "trial": [0, 1, 2],
                            "outcome": [0, 1, 1], "benchmark": ["MainBench"] * 3,
                            "topic": ["algebra"] * 3})
    assert fitted_parts(preview, budget=MAIN_PX) == [list(preview.columns)]
    # the Planner's pairs: two long names repeated in every part give up width
    values = ["gap", "trials_needed", "trials_gap", "questions_needed", "questions_gap",
              "p_unsettled", "t", "p_better", "p_value", "trials_needed_papers"]
    pairs = pd.DataFrame({"better": [long, "alpha-7b"], "next": ["alpha-7b", long]}
                         | {c: [1472.0583, 0.0] for c in values})
    wide = MAIN_PX  # at 1280 px
    assert len(fitted_parts(pairs, budget=wide)) == 4  # at NAME_MAX_PX each: 320 px per part
    narrow = narrowed_names(pairs, budget=wide)
    assert set(narrow) == {"better", "next"}
    assert all(NAME_MIN_PX <= w < NAME_MAX_PX for w in narrow.values())
    parts = fitted_parts(pairs, widths=narrow, budget=wide)
    assert len(parts) == 2 and [c for p in parts for c in p[2:]] == values
    # the widest width that saves the parts: 20 px more takes a third
    wider = {c: w + 20 for c, w in narrow.items()}
    assert len(fitted_parts(pairs, widths=wider, budget=wide)) > 2
    # short names, or a table already in two parts: as they are
    assert narrowed_names(pairs.assign(better="a", next="b"), budget=wide) == {}
    assert narrowed_names(pairs[["better", "next", *values[:4]]], budget=wide) == {}


def test_the_rubric_rules_editor_fits_the_main_column():
    """The Rubric builder's rules editor, left to size its columns, ran 28 px past the main
    column at 1280 px and cut ``among`` at "is_correct >="; sized for that column, its ten
    columns ran 254 px past a 1024 px window's. It is drawn in two editors one under the
    other (``RULE_PARTS``: every rule column once, the second repeating the rule and its
    signal, read only), each within that window's column for every preset on the bundled
    data's signals: every header whole with its pencil mark (none over the columns read
    only, nor row markers beside fixed rows), every signal name whole; where the budget is
    too small, the columns named to give way shrink, in order, to their headers and no
    further."""
    from app_state.rubric_editor import RULE_PARTS, RULE_READ, editor_state
    from app_state.table_fit import (
        COLUMN_PX,
        EDIT_MARK_PX,
        NARROW_COLUMN_PX,
        ROW_MARKERS_PX,
        editor_px,
        text_px,
    )
    from scorio_core import rubric as rb
    from scorio_core.rubric.table import RULE_COLUMNS

    first, second = RULE_PARTS
    assert sorted({*first, *second}) == sorted(RULE_COLUMNS)
    assert set(first) & set(second) == set(RULE_READ) and second[:2] == RULE_READ
    signals = ["temperature", "attempt", "response_chars", "api_error", "is_correct",
               "repeated_pattern", "completion_bpt", "compass_A", "compass_C"]
    labels = {"category": "cat.", "percentile": "pctl", "negate": "not"}
    choices = {"signal": signals, "other": ["", *signals], "scope": ["", *rb.SCOPES],
               "op": list(rb.OPS)}
    head = {c: round(text_px(labels.get(c, c)) + 16 + EDIT_MARK_PX) for c in RULE_COLUMNS}
    for name in rb.PRESETS:
        rules = editor_state(rb.PRESETS[name])["rules"]
        for i, cols in enumerate(RULE_PARTS):
            read = RULE_READ if i else ()
            px = editor_px(rules[list(cols)], labels, choices, budget=NARROW_COLUMN_PX,
                           shrink=["other", "among", "signal"], disabled=read, markers=not i)
            assert list(px) == list(cols)
            assert sum(px.values()) + (0 if i else ROW_MARKERS_PX) <= NARROW_COLUMN_PX, name
            for c in cols:  # the header whole, with its pencil mark where it is edited
                mark = 0 if c in read else EDIT_MARK_PX
                assert px[c] >= text_px(labels.get(c, c)) + 16 + mark - 0.5, (name, c)
            assert px["signal"] >= round(text_px("repeated_pattern") + 16), name
    # the whole table on the temperature data's signals at 1280 px; a narrow budget: "other"
    # gives way first, then "among", each down to its header
    rules = editor_state(rb.PRESETS["length/concise-correct"])["rules"]
    choices |= {"signal": signals[:5], "other": ["", *signals[:5]]}
    px = editor_px(rules, labels, choices, shrink=["other", "among", "signal"], budget=COLUMN_PX)
    assert sum(px.values()) + ROW_MARKERS_PX <= COLUMN_PX
    assert px["among"] >= round(text_px("is_correct >= 0.5") + 16)
    tight = editor_px(rules, labels, choices, shrink=["other", "among", "signal"], budget=700)
    assert tight["other"] == head["other"] and tight["among"] < px["among"]
    assert all(tight[c] == px[c] for c in rules.columns if c not in ("other", "among", "signal"))
    assert all(tight[c] >= head[c] for c in rules.columns)


def test_a_table_of_texts_comes_numbers_first_and_its_long_texts_after():
    """The Pair view's repeats, fitted to a 1280 px window's column, ran ``mean_score`` 235
    px past a 1024 px window's (their trial lists); shared out there, "(no answer
    recorded)" wrapped. Fitted to that window's column: a text up to a name's width reads
    whole on one line, in every part that shows it; a longer one wraps, at least
    TEXT_MIN_PX wide, beside the numbers where there is room, else in a part after them
    that starts with the columns saying whose row it is; every column once beside those,
    and every part within the budget."""
    from app_state.table_fit import (
        NARROW_PX,
        TEXT_LINE_PX,
        TEXT_MIN_PX,
        WRAP_PAD_PX,
        column_px,
        text_parts,
    )

    trials = ", ".join(str(t) for t in range(11, 111))
    repeats = pd.DataFrame({"model": ["claude-3-opus-20240229", "cohere-command-r-plus"],
                            "answer": ["C", "(no answer recorded)"], "repeats": [99, 55],
                            "trials": [trials, "1, 2, 3"], "mean_score": [1.0, 0.0]})
    px = column_px(repeats)
    keys = ["model", "answer"]
    fit = text_parts(repeats, keys)
    assert fit.parts == [["model", "answer", "repeats", "mean_score"], keys + ["trials"]]
    assert fit.wraps == [False, True]
    for part in fit.parts:
        assert sum(fit.widths.get(c, px[c]) for c in part) <= NARROW_PX, part
    assert fit.widths["answer"] >= px["answer"] and px["answer"] < TEXT_LINE_PX  # whole
    assert TEXT_MIN_PX <= fit.widths["trials"] < px["trials"]  # wraps, at least so wide
    # a text that wraps breaks a name in its row unless it has a few pixels more
    assert fit.widths["model"] == px["model"] + WRAP_PAD_PX
    # one table where the long text has room beside the others, every column in its order
    one = text_parts(repeats.assign(model=["a", "b"]), keys)
    assert one.parts == [list(repeats.columns)] and one.wraps == [True]
    assert one.widths["trials"] >= TEXT_MIN_PX
    assert sum(one.widths.get(c, px[c]) for c in repeats) <= NARROW_PX
    # texts short enough to read whole on one line: one table, nothing wraps
    short = text_parts(repeats.drop(columns="trials"), keys)
    assert short.parts == [["model", "answer", "repeats", "mean_score"]]
    assert short.wraps == [False] and short.widths["answer"] == px["answer"]
    # a trial's two long texts (a judge's reasoning, its annotations) share a part after
    # the scores, each starting with the trial and the model
    flips = pd.DataFrame({"trial": [0, 0], "flip": [True, True],
                          "model": ["gemini-1.5-pro-preview-0409", "claude-3-opus-20240229"],
                          "category": ["correct", "wrong"], "score": [1.0, 0.0],
                          "answer": ["Odd", "Even"],
                          "reasoning": ["The answer is odd because " * 3, ""],
                          "annotations": ['{"judge": [{"score": 0.0, "reasoning": "x"}]}' * 2,
                                          ""]})
    fit = text_parts(flips, ["trial", "model"])
    assert fit.parts[0] == ["trial", "model", "flip", "category", "score", "answer"]
    assert [c for p in fit.parts[1:] for c in p if c not in ("trial", "model")] == [
        "reasoning", "annotations"]
    assert all(p[:2] == ["trial", "model"] for p in fit.parts)
    assert all(fit.widths[c] >= TEXT_MIN_PX for c in ("reasoning", "annotations"))
    flip_px = column_px(flips)
    for part in fit.parts:
        assert sum(fit.widths.get(c, flip_px[c]) for c in part) <= NARROW_PX, part


def test_a_copy_code_cell_imports_each_name_once():
    """The pages' notebook cells held ``import scorio_core as sc`` twice (from the loading
    lines and again from the analysis's to_code): one block of imports, each once."""
    from app_state.texts import analysis_code
    from scorio_core.definitions import ANALYSES

    for aid, a in ANALYSES.items():
        code = analysis_code(a, a.params(), "data/biased_coins.npz")
        lines = code.splitlines()
        imports = [x for x in lines if x.startswith(("import ", "from "))]
        assert len(imports) == len(set(imports)), (aid, imports)
        assert code.count("import scorio_core as sc") == 1, aid
        first = next(i for i, x in enumerate(lines) if x and not x.startswith(("import ", "from "))
                     and not x.startswith("#"))
        assert all(lines.index(x) < first for x in imports), (aid, code)  # one block, on top


def test_texts_that_point_to_the_planner_state_its_declared_chance():
    """"an 80% chance" was typed beside the Planner's pointer in two texts; they read the
    Planner's declared default assurance now."""
    from pathlib import Path

    import app_pages._widgets as widgets
    import app_state.texts as texts
    from app_state.texts import planner_chance
    from scorio_core.formatting import a_chance
    from scorio_core.leaderboard import COLUMN_HELP
    from scorio_core.params import PlanParams, settings_of

    assert planner_chance() == a_chance(settings_of(PlanParams)["assurance"][0])
    # the board's trials_needed_papers, explained by its declaration (the legend)
    assert planner_chance() in COLUMN_HELP["trials_needed_papers"]
    for module in (widgets, texts):
        source = Path(module.__file__).read_text()
        assert "80% chance" not in source.replace("'an 80% chance'", ""), module.__name__


def test_the_questions_pages_medians_take_their_quantitys_decimals():
    """The Questions page's per-subset table printed difficulty_median with 4 decimals beside
    difficulty's 3 in the table above: the app's formats come from the core's rule for a
    quantity and its summaries."""
    from app_state.texts import printf_formats

    t = pd.DataFrame({"subset": ["a", "b"], "difficulty": [-0.7319, 1.2],
                      "difficulty_median": [-0.7319, 1.2], "discrimination_median": [0.74, 3.07],
                      "mean": [0.5934, 0.9124]})
    assert printf_formats(t) == {"difficulty": "%.3f", "difficulty_median": "%.3f",
                                 "discrimination_median": "%.3f", "mean": "%.4f"}


def test_setting_label_is_the_core_label_a_report_reads():
    """The app's notes and errors name a setting by its widget's label; the label rule lived
    in app_state, where a report (core, no app_state import) could not read it and wrote
    ``budget_trials = 12``. The rule is the core's now: the app bolds each of its labels,
    the report's settings line writes them, for every setting of every analysis and study."""
    from app_state.texts import setting_label
    from scorio_core.definitions import SECTIONS
    from scorio_core.params import PlanParams, settings_of, widget_labels
    from scorio_core.simulate.params import RubricLessonParams

    for a in SECTIONS.values():
        for name in settings_of(a.params):
            labels = widget_labels(a.params, name)
            assert labels and all(labels)
            assert setting_label(a.params, name) == " / ".join(f"**{x}**" for x in labels)
    assert setting_label(PlanParams, "pair") == "**Better model** / **Other model**"
    assert setting_label(PlanParams, "pair", 0) == "**Better model**"
    assert setting_label(RubricLessonParams, "weights", 2) == "**weight of category 2**"
    assert setting_label(PlanParams, "nope") == "`nope`" and widget_labels(PlanParams, "x") == []


def test_category_shares_read_with_one_decimal_and_never_as_a_certainty():
    """A categorical upload's shares read 50.67%, 8.5% and 40.83% in one column (Streamlit's
    "percent"): every share has one decimal, as numbers drawn by SHARE_FORMAT; a category
    some completions have never reads 0.0% nor one they do not all have 100.0%."""
    from app_state.texts import SHARE_FORMAT, category_table

    def shares(counts):
        R = np.repeat(np.arange(len(counts)), counts).reshape(1, 1, -1)
        return category_table(Outcomes(R, weights=np.linspace(0, 1, len(counts))))["share"]

    assert shares([608, 102, 490]).tolist() == [50.7, 8.5, 40.8]  # 50.67%, 8.5%, 40.83%
    assert SHARE_FORMAT % 8.5 == "8.5%" and SHARE_FORMAT % 50.7 == "50.7%"
    assert shares([0, 10]).tolist() == [0.0, 100.0]  # exact: numbers
    assert shares([3, 19997]).tolist() == ["<0.1%", ">99.9%"]  # 0.015%: no 0.0% / 100.0%


def test_the_load_line_keeps_each_note_short_and_says_how_many_more():
    """The one line an analysis page says under its caption when the load changed the data
    (``load_changed_line``): each note's headline, within one line's characters, the rest
    counted, Markdown in the notes inert; nothing when the load changed nothing."""
    from app_state.texts import LOAD_LINE_CHARS, load_changed_line

    texts = ["2 tasks pooled into one view (arith: 5 questions, logic: 4): every question "
             "counts once", "logic: 1 of 3 trials per question left out to combine it",
             "Outcomes made binary (correct=['C*']): C* counts as correct",
             "on_missing='drop_questions' left out 1 of 3 questions (q_2)"]
    o = Outcomes(np.ones((1, 2, 1), int),
                 metadata={"load_notes": [{"text": t, "benchmarks": []} for t in texts]})
    line = load_changed_line(o)
    head, tail = "Changed by the load: ", " (details in Caveats)."
    assert line.startswith(head) and line.endswith(tail)
    body = line[len(head):-len(tail)]
    assert body.startswith("2 tasks pooled into one view; logic: 1 of 3 trials")
    assert body.endswith("; and 2 more")
    assert len(body) <= LOAD_LINE_CHARS + len("; and 2 more")
    one = Outcomes(np.ones((1, 2, 1), int),
                   metadata={"load_notes": [{"text": texts[2], "benchmarks": []}]})
    assert load_changed_line(one) == f"{head}Outcomes made binary{tail}"
    odd = Outcomes(np.ones((1, 2, 1), int),
                   metadata={"load_notes": [{"text": texts[3], "benchmarks": []}]})
    assert r"on\_missing='drop\_questions' left out 1 of 3 questions" in load_changed_line(odd)
    assert load_changed_line(Outcomes(np.ones((1, 2, 1), int))) == ""
