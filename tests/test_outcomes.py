"""The Outcomes data model: normalisation, selection and validation messages."""

from __future__ import annotations

import numpy as np
import pytest

from scorio_core import COMBINED, Outcomes, ValidationError
from scorio_core._validation import said_of
from scorio_core.outcomes import MissingWeightsError


def _R(L=2, M=4, N=3, seed=0):
    return np.random.default_rng(seed).integers(0, 2, (L, M, N))


def test_defaults_and_shape():
    o = Outcomes(_R())
    assert o.shape == (2, 4, 3) and (o.L, o.M, o.N, o.C, o.D) == (2, 4, 3, 1, 0)
    assert o.weights.tolist() == [0.0, 1.0] and o.category_names == ("wrong", "correct")
    assert o.models == ("model_0", "model_1") and o.is_binary
    with pytest.raises(ValueError):
        o.R[0, 0, 0] = 1  # read-only: a dataset never changes under the app's cache


def test_two_dimensional_R_is_one_model():
    assert Outcomes([[1, 0], [0, 0]]).shape == (1, 2, 2)


def test_categorical_without_weights_is_refused_naming_the_first_cell():
    # one stray '2' must not silently turn binary data into partial credit (issue 14)
    R = np.array([[[0, 1, 1, 1], [1, 1, 1, 1]], [[1, 0, 1, 0], [1, 1, 2, 3]]])
    with pytest.raises(MissingWeightsError) as err:
        Outcomes(R, models=["a", "b"], questions=["q1", "q2"])
    msg = str(err.value)
    assert "R holds category 2 at index (model, question, trial) = (1, 1, 2)" in msg
    assert "model 'b', question 'q2'" in msg
    # each surface names the option its own way (it read all three everywhere): Python's
    # keyword here, the flag on the command line
    assert "Give them, e.g. weights=[0, 0.333, 0.667, 1]; if" in msg and "\n" not in msg
    assert not any(o in msg for o in ("--weights", "Category weights", "in the app"))
    from scorio_core.cli._common import cli_text

    assert "Give them, e.g. --weights 0,0.333,0.667,1; if" in cli_text(said_of(err.value))
    assert isinstance(err.value, ValidationError)
    with pytest.raises(MissingWeightsError, match="3 category names were given"):
        Outcomes(np.array([[[0, 1]]]), category_names=["wrong", "partial", "right"])
    # with weights the same data load, and binary data still need none
    o = Outcomes(R, weights=[0, 0.2, 0.5, 1])
    assert o.C == 3 and "weights_note" not in o.metadata
    assert Outcomes(R.clip(0, 1)).weights.tolist() == [0.0, 1.0]


def test_shared_and_per_model_prior():
    R = _R()
    shared = Outcomes(R, R0=np.ones((4, 2), dtype=int))
    assert shared.D == 2 and shared.R0_per_model.shape == (2, 4, 2)
    per = Outcomes(R, R0=np.ones((2, 4, 1), dtype=int))
    assert per.R0_per_model.shape == (2, 4, 1)


def test_select_benchmark_keeps_everything_aligned():
    R = _R(M=4)
    o = Outcomes(
        R,
        R0=R[..., :1],
        questions=["a1", "a2", "b1", "b2"],
        benchmarks=["A", "A", "B", "B"],
        signals={"len": R.astype(float) * 2},
    )
    assert o.benchmark_names == ["A", "B"]
    b = o.select("B")
    assert b.questions == ("b1", "b2") and b.R.shape == (2, 2, 3)
    np.testing.assert_array_equal(b.R, R[:, 2:])
    np.testing.assert_array_equal(b.R0, R[:, 2:, :1])
    np.testing.assert_array_equal(b.signals["len"], R[:, 2:] * 2.0)
    assert o.select(COMBINED) is o and o.select(None) is o
    with pytest.raises(ValidationError, match="unknown benchmark 'C'.*combined, A, B"):
        o.select("C")


def test_with_weights_rescoring():
    o = Outcomes(np.array([[[0, 1, 2]]]), weights=[0, 0.5, 1])
    assert o.with_weights([0, 1, 1]).weights.tolist() == [0, 1, 1]


def test_describe_counts_categories():
    d = Outcomes(np.array([[[0, 1, 1]]]), models=["m"]).describe()
    assert d["trials (N)"] == 3 and d["categories"]["1: correct (w=1)"] == 2


def test_describe_names_the_benchmark_as_the_report_provenance_does():
    from scorio_core.definitions.provenance import NO_BENCHMARK, benchmark_words, provenance

    bare = Outcomes(np.ones((2, 4, 2), int))  # no label: was "benchmarks: ['combined']"
    assert bare.describe()["benchmarks"] == benchmark_words(provenance(bare)) == NO_BENCHMARK
    assert "combined" not in bare._repr_html_()
    two = Outcomes(np.ones((2, 4, 2), int), benchmarks=["a", "a", "b", "b"])
    assert two.describe()["benchmarks"] == ["a", "b"]
    assert benchmark_words(provenance(two)) == "combined (a, b)"


def test_load_notes_are_said_only_for_the_benchmarks_in_view():
    """A note about one benchmark is said while the view holds it (the combined view, a
    subset with some of its questions), not for another benchmark alone; 'pooled' only
    while the view holds several; what a file's metadata holds otherwise is not a note."""
    from scorio_core.outcomes import LOAD_NOTES, POOLED

    notes = [{"text": "b: 1 of 2 trials left out", "benchmarks": ["b"]},
             {"text": "on the whole load", "benchmarks": []}, {"text": 3}, "stray", None]
    o = Outcomes(np.ones((2, 4, 1), int), benchmarks=["a", "a", "b", "b"],
                 question_attributes={"level": ["x", "y", "x", "y"]},
                 metadata={LOAD_NOTES: notes, POOLED: True})
    pooled, b_note, whole = o.load_notes
    assert pooled.startswith("2 tasks pooled into one view (a: 2 questions, b: 2)")
    assert (b_note, whole) == ("b: 1 of 2 trials left out", "on the whole load")
    assert o.select("a").load_notes == ("on the whole load",)
    sub = o.subset("level", "y")  # the counts of the view: 1 question of each task
    assert sub.load_notes[0].startswith("2 tasks pooled into one view (a: 1 question, b: 1)")
    assert sub.load_notes[1:] == o.load_notes[1:]
    assert Outcomes(np.ones((1, 2, 1), int)).load_notes == ()
    assert "changed by the load" not in Outcomes(np.ones((1, 2, 1), int)).describe()


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"R": np.zeros(3)}, "must have 2 to 3 dimensions; got shape (3,)"),
        ({"R": np.zeros((1, 2, 3, 4))}, "got shape (1, 2, 3, 4)"),
        ({"R": [[0, 1], [1]]}, "ragged"),
        ({"R": np.array([[[0.0, np.nan]]])}, "non-finite"),
        ({"R": np.array([[[0, -1]]])}, "found -1 at index (0, 0, 1)"),
        ({"R": np.array([[[0, 3]]]), "weights": [0, 1]}, "category 3 at index"),
        ({"R": np.array([[["a", "b"]]])}, "must be numeric"),
        ({"R": np.zeros((2, 0, 3))}, "must not be empty"),
        ({"R": _R(), "weights": [[0, 1]]}, "1-D vector"),
        ({"R": _R(), "models": ["a", "a"]}, "duplicated: 'a'"),
        ({"R": _R(), "models": ["a"]}, "expected 2 model names"),
        ({"R": _R(), "R0": np.zeros((2, 5, 1))}, "R0 must have shape (2, 4, D) or (4, D)"),
        ({"R": _R(), "R0": np.full((4, 1), 2)}, "outside categories 0..1"),
        ({"R": _R(), "models": ["=cmd|' /C calc'!A0", "b"]}, "formula"),
        ({"R": _R(), "models": ["<script>alert(1)</script>", "b"]}, "markup"),
        ({"R": _R(), "models": ["ok", "tab\there"]}, "control characters"),
        ({"R": _R(), "benchmarks": ["A"] * 3}, "one benchmark label per question (4)"),
        ({"R": _R(), "benchmarks": ["combined"] * 4}, "reserved"),
        ({"R": _R(), "signals": {"bad name": np.zeros((2, 4, 3))}}, "signal name"),
        ({"R": _R(), "signals": {"s": np.zeros((2, 4))}}, "shape (2, 4, 3)"),
        ({"R": _R(), "signals": {"s": np.full((2, 4, 3), np.nan)}}, "no value at all"),
        ({"R": _R(), "signals": {"s": np.full((2, 4, 3), np.inf)}}, "24 infinite values"),
        ({"R": _R(), "category_names": ["x"]}, "expected 2 category names"),
    ],
)
def test_invalid_inputs_name_expected_and_found(kwargs, fragment):
    with pytest.raises(ValidationError) as info:
        Outcomes(**kwargs)
    assert fragment in str(info.value)


def test_huge_category_is_refused_before_allocating_weights():
    with pytest.raises(ValidationError, match="C <= 1000"):
        Outcomes(np.array([[[0, 10**9]]]))


def test_the_callers_array_stays_writeable_and_the_dataset_does_not_follow_it():
    # Outcomes is immutable, but freezing the caller's own array in place (np.asarray hands
    # it back as it is) broke the notebook user's later writes to it; it is copied instead
    R = np.zeros((2, 3, 4), dtype=np.int8)
    R0 = np.ones((2, 3, 1), dtype=np.int8)
    data = Outcomes(R, R0)
    assert R.flags.writeable and R0.flags.writeable
    assert not data.R.flags.writeable and not data.R0.flags.writeable
    R[0, 0, 0], R0[0, 0, 0] = 1, 0
    assert data.R[0, 0, 0] == 0 and data.R0[0, 0, 0] == 1
    # a view of the caller's array is theirs too
    base = np.zeros((2, 3, 8), dtype=np.int8)
    Outcomes(base[:, :, :4])
    assert base.flags.writeable
    # a dataset built from another's (read-only) arrays shares them: no copy per selection
    again = Outcomes(data.R, data.R0)
    assert np.shares_memory(again.R, data.R)


def test_select_models_keeps_every_part_aligned_in_the_order_given():
    R = np.random.default_rng(4).integers(0, 3, (3, 4, 2))
    sig = np.random.default_rng(5).random((3, 4, 2))
    o = Outcomes(R, R0=R[..., :1], weights=[0, 0.5, 1], category_names=["w", "p", "r"],
                 models=["gpt-4", "llama", "qwen"], questions=["a1", "a2", "b1", "b2"],
                 benchmarks=["A", "A", "B", "B"], signals={"len": sig},
                 question_attributes={"source": ["x", "y", "x", "y"]}, name="runs",
                 metadata={"source": "test"})
    two = o.select(models=["qwen", "gpt-4"])
    assert two.models == ("qwen", "gpt-4") and two.shape == (2, 4, 2)
    np.testing.assert_array_equal(two.R, R[[2, 0]])
    np.testing.assert_array_equal(two.R0, R[[2, 0], :, :1])
    np.testing.assert_array_equal(two.signals["len"], sig[[2, 0]])
    assert two.weights.tolist() == [0, 0.5, 1] and two.category_names == ("w", "p", "r")
    assert two.questions == o.questions and two.benchmarks == o.benchmarks
    assert two.question_attributes == o.question_attributes
    assert two.metadata == o.metadata and two.name == "runs [models=qwen|gpt-4]"
    assert not two.R.flags.writeable
    assert o.select(models="llama").models == ("llama",)  # one name as a string
    assert o.select(models=list(o.models)) is o  # all, in order: the same data
    # a shared prior (M, D) is every model's: kept as it is
    shared = Outcomes(R.clip(0, 1), R0=np.ones((4, 1), int), models=["a", "b", "c"])
    assert shared.select(models=["c"]).R0.shape == (4, 1)
    # questions and models together: the benchmark's questions of the chosen models
    both = o.select("B", models=["llama"])
    np.testing.assert_array_equal(both.R, R[1:2, 2:])
    assert both.questions == ("b1", "b2") and both.models == ("llama",)
    # many models: the name says how many rather than every name
    many = Outcomes(np.zeros((40, 2, 1), int), models=[f"model-with-a-long-name-{i}"
                                                       for i in range(40)])
    assert many.select(models=list(many.models[:30])).name == "dataset [30 of 40 models]"


def test_select_models_refuses_unknown_empty_and_repeated_names_with_the_models_it_has():
    o = Outcomes(_R(L=3), models=["gpt-4", "llama", "qwen"])
    with pytest.raises(ValidationError, match=r"^unknown model 'gpt4' \(did you mean 'gpt-4'\?\); "
                       r"this dataset's models: gpt-4, llama, qwen$"):
        o.select(models=["gpt4", "qwen"])
    with pytest.raises(ValidationError, match=r"^unknown models 'gpt4' \(did you mean 'gpt-4'\?\), "
                       r"'Qwen' \(did you mean 'qwen'\?\); this dataset's models"):
        o.select(models=["gpt4", "Qwen"])
    with pytest.raises(ValidationError, match=r"^unknown model 'mistral'; this dataset's "
                       r"models: gpt-4, llama, qwen$"):
        o.select(models=["mistral"])
    with pytest.raises(ValidationError, match="names no model"):
        o.select(models=[])
    with pytest.raises(ValidationError, match="names 'qwen' more than once"):
        o.select(models=["qwen", "llama", "qwen"])


def test_select_models_keeps_the_benchmark_parts_and_the_texts():
    from pathlib import Path

    from scorio_core import io

    o = io.load(Path(__file__).parent / "fixtures" / "harness" / "inspect" / "eval_set")
    assert o.parts and o.models == ("beta", "alpha")  # benchmarks run with 2 and 3 epochs
    alpha = o.select(models=["alpha"])
    assert alpha.parts is not None and set(alpha.parts) == set(o.parts)
    for b, part in alpha.parts.items():  # each benchmark keeps all its own trials
        assert part.models == ("alpha",) and part.N == o.parts[b].N
        np.testing.assert_array_equal(part.R, o.parts[b].R[1:])
    assert alpha.select("logic").N == o.select("logic").N == 3
    assert o.select("logic", models=["alpha"]).R.tolist() == alpha.select("logic").R.tolist()
    assert alpha.samples is o.samples
    rows = alpha.samples.for_question(alpha.questions[0], models=list(alpha.models))
    assert set(rows["model"].to_list()) == {"alpha"} and len(rows) == alpha.N


def test_as_outcomes_wraps_a_3d_array_and_refuses_a_2d_one_with_both_readings():
    from scorio_core.outcomes import as_outcomes

    o = Outcomes(_R())
    assert as_outcomes(o) is o
    R = np.zeros((2, 3, 4), dtype=np.int8)
    wrapped = as_outcomes(R)
    assert wrapped.shape == (2, 3, 4) and R.flags.writeable  # the caller's array stays theirs
    R[0, 0, 0] = 1
    assert wrapped.R[0, 0, 0] == 0
    assert as_outcomes([[[1, 0], [1, 1]]]).shape == (1, 2, 2)
    with pytest.raises(ValidationError) as caught:
        as_outcomes(np.ones((3, 4), int), "Leaderboard")
    assert str(caught.value) == (
        "Leaderboard: data is a 2-D array A of shape (3, 4), which reads two ways, so say "
        "which: pass `A[:, :, None]` for 3 models × 4 questions with one trial each (as the "
        "rankers read it), or `A[None]` (or `sc.Outcomes(A)`) for one model's 3 questions × "
        "4 trials (as sc.Outcomes reads it)")
    assert Outcomes(np.ones((3, 4), int)).shape == (1, 3, 4)  # Outcomes keeps its reading
    with pytest.raises(ValidationError, match="needs data"):
        as_outcomes(None, "Leaderboard")


def test_describe_counts_the_texts_of_the_models_questions_and_trials_in_view():
    """describe() (the Data page's and `info`'s validation report) said "30 completions"
    after select(models=[...]) kept one model's 15, and counted the store's texts of every
    question after subset(...): it counts those of the view, read from the store's keys."""
    from dataclasses import replace
    from pathlib import Path

    from scorio_core import io

    root = Path(__file__).parent / "fixtures" / "harness" / "inspect"
    o = io.load(root / "texts")  # 2 models x 5 questions x 3 epochs, every sample with text
    kinds = replace(o, question_attributes={"kind": ["x", "x", "y", "y", "y"]})
    cases = {  # view -> its completions, counted by hand
        o: 30, o.select(models=["alpha"]): 15, kinds.subset("kind", "x"): 12,
        kinds.subset("kind", "y").select(models=["beta"]): 9,
    }
    for view, n in cases.items():
        assert view.samples is o.samples and view.texts_in_view == in_view_of(view) == n
        assert view.describe()["samples"] == (
            f"{n} completions (text columns: input, target, output, answer, explanation, "
            "metadata)")
        assert f"{n} completions" in view._repr_html_()
    # benchmarks run with 2 and 3 epochs: the combined view holds their first 2 trials
    sets = io.load(root / "eval_set")
    assert len(sets.samples) == 44 and sets.N == 2
    assert sets.texts_in_view == in_view_of(sets) == 2 * 9 * 2
    assert sets.select("logic").texts_in_view == 2 * 4 * 3  # its own 3 trials
    assert sets.select("logic", models=["alpha"]).texts_in_view == 4 * 3
    assert Outcomes(_R()).texts_in_view == 0 and "samples" not in Outcomes(_R()).describe()


def in_view_of(data) -> int:
    """The completions of ``data``'s models, questions and trials in its sample store."""
    keys = data.samples.scan().select("model", "question", "trial").collect().rows()
    return sum(m in data.models and q in data.questions and (t is None or t < data.N)
               for m, q, t in keys)


# ------------------------------------------------------- categorical data made binary
def _cpi(seed: int = 0) -> Outcomes:
    """Three models' Inspect-style C/P/I outcomes with a shared greedy R0 and two
    benchmarks of different trials (parts)."""
    rng = np.random.default_rng(seed)
    names = ["I (incorrect)", "P (partial)", "C (correct)"]
    a, b = rng.integers(0, 3, (3, 4, 2)), rng.integers(0, 3, (3, 3, 3))
    qs = [f"q{j}" for j in range(7)]
    kw = {"weights": [0, 0.5, 1], "category_names": names, "models": list("abc")}
    parts = {"x": Outcomes(a, questions=qs[:4], **kw), "y": Outcomes(b, questions=qs[4:], **kw)}
    o = Outcomes(np.concatenate([a, b[:, :, :2]], axis=1), R0=rng.integers(0, 3, (7, 1)),
                 questions=qs, benchmarks=["x"] * 4 + ["y"] * 3, parts=parts, **kw)
    assert o.parts is not None  # benchmarks of 2 and 3 trials, each kept whole
    return o


def test_binarized_counts_the_named_categories_or_scores_correct_everywhere():
    """``correct=`` names categories as the data name them (the first word, any case) or a
    grade by its value; ``correct_from=`` compares each category's score on the data's own
    scale. R, R0 and every benchmark part are mapped alike; the note says what was mapped."""
    o = _cpi()
    for b, right in ((o.binarized(correct=["C"]), [2]), (o.binarized(correct="c, P"), [1, 2]),
                     (o.binarized(correct_from=0.5), [1, 2]), (o.binarized(correct_from=1), [2])):
        assert b.is_binary and b.weights.tolist() == [0.0, 1.0]
        assert np.array_equal(b.R, np.isin(o.R, right).astype(int))
        assert np.array_equal(b.R0, np.isin(o.R0, right).astype(int))
        assert set(b.parts) == {"x", "y"} and b.parts["y"].N == 3  # all of y's trials kept
        assert np.array_equal(b.parts["y"].R, np.isin(o.parts["y"].R, right).astype(int))
        assert b.metadata["binarized"]["correct"] == [o.category_names[k] for k in right]
    assert o.binarized(correct=["C"]).load_notes == (
        "Outcomes made binary (correct=['C']): C (correct) counts as correct (1); "
        "I (incorrect), P (partial) as wrong (0)",)
    # a 0-10 grade: the threshold is on the grades' own scale, its name is its value
    g = Outcomes(np.array([[[0, 1, 2, 3]], [[3, 3, 0, 2]]]), weights=[0, 0.3, 0.7, 1],
                 category_names=["0", "3", "7", "10"], metadata={"score_range": [0, 10]})
    assert g.binarized(correct_from=7).R.tolist() == [[[0, 0, 1, 1]], [[1, 1, 0, 1]]]
    assert g.binarized(correct=["10.0"]).R.tolist() == [[[0, 0, 0, 1]], [[1, 1, 0, 0]]]
    assert "score_range" not in g.binarized(correct_from=7).metadata  # no longer graded


def test_binarized_refuses_what_cannot_be_counted():
    o = _cpi()
    with pytest.raises(ValidationError, match=r"correct names 'X', which is no category of these "
                       r"data; their categories are I \(incorrect\), P \(partial\), C \(correct\) "
                       r"\(e\.g\. correct=\['C'\]\)$"):
        o.binarized(correct=["X"])
    with pytest.raises(ValidationError, match=r"^correct_from=0 counts every "
                       r"category correct \(categories and scores: I \(incorrect\) = 0, "):
        o.binarized(correct_from=0)
    with pytest.raises(ValidationError, match="counts every category wrong"):
        o.binarized(correct_from=1.5)
    with pytest.raises(ValidationError, match="give one of correct="):
        o.binarized()


def test_the_advice_on_categorical_data_names_options_that_were_tried_on_them():
    """Every option a refusal names makes the same data binary: parsed back from the text
    and applied, it gives binary data on which the analysis runs."""
    import re

    from scorio_core.definitions import ANALYSES
    from scorio_core.outcomes import binary_next

    grades = Outcomes(np.random.default_rng(2).integers(0, 4, (3, 6, 2)),
                      weights=[0, 0.3, 0.7, 1], category_names=["0", "3", "7", "10"],
                      metadata={"score_range": [0, 10]})
    cats = Outcomes(np.random.default_rng(3).integers(0, 3, (3, 6, 2)), weights=[0, 0.6, 1])
    for data, first in ((_cpi(), "correct=['C']"), (grades, "correct=['10']"),
                        (cats, "correct=['cat2']")):
        text = binary_next(data, "Stability")
        options = re.findall(r"(correct=\[[^\]]*\]|correct_from=[\d.]+)", text)
        assert options[0] == first and len(options) == 2, text
        for option in options:
            key, value = option.split("=", 1)
            made = data.binarized(**{key: eval(value)})  # noqa: S307 - our own message
            assert made.is_binary and ANALYSES["stability"].requires(made) is None
    # the threshold that counts the same categories as the first option is not offered again
    two_levels = Outcomes(np.array([[[0, 2]], [[2, 0]]]), weights=[0, 0.2, 1])
    assert re.findall(r"correct(?:_from)?=", binary_next(two_levels)) == ["correct="]


def test_the_advice_names_each_option_once_as_python_writes_it_and_the_cli_as_it_types_it():
    """The advice named each option in two syntaxes and the app's box ("correct=['C'] /
    --correct C (in the app: C in Correct outcomes, ...)"): a notebook reader got the flags, a
    command-line reader Python. The core writes it once (a Said of Mentions); as a str -- a
    traceback, ``str(exc)`` -- it is Python's alone, with the notebook's next line, and the
    command line's rendering (cli_text, which every message the CLI prints goes through)
    names only flags. It stays one through what carries it: an exception, a pickled result."""
    import pickle

    from scorio_core._validation import Said, said_of
    from scorio_core.cli._common import cli_text
    from scorio_core.outcomes import binary_next

    data = _cpi()
    said = binary_next(data, "rank.avg", at_hand="rank.avg({data})")
    assert isinstance(said, Said)
    python = str(said)
    assert python.endswith(": correct=['C']; correct_from=0.5 counts P (partial) correct too; "
                           "on the data at hand: rank.avg(data.binarized(correct=['C'])).")
    cli = cli_text(said)
    assert cli.endswith(": --correct C; --correct-from 0.5 counts P (partial) correct too.")
    for text, other in ((python, ("--correct", "Correct outcomes", "in the app", "upload")),
                        (cli, ("correct=", "correct_from=", "Correct outcomes", "upload",
                               "data at hand", "binarized"))):
        assert not any(o in text for o in other), text
    assert python.split(": correct=")[0] == cli.split(": --correct")[0]  # the same words
    with pytest.raises(ValidationError) as info:
        raise ValidationError("rank.avg needs binary outcomes. " + said)
    assert str(info.value) == "rank.avg needs binary outcomes. " + python  # the traceback
    assert cli_text(said_of(info.value)) == "rank.avg needs binary outcomes. " + cli
    assert cli_text(pickle.loads(pickle.dumps(said))) == cli  # a result cached by the app
    # the loader's refusals and its note name the option alike
    with pytest.raises(ValidationError) as info:
        data.binarized(correct=["X"])
    assert cli_text(said_of(info.value)).endswith("(e.g. --correct C)")
    with pytest.raises(ValidationError) as info:
        data.binarized(correct_from=0)
    assert cli_text(said_of(info.value)).startswith("--correct-from 0 counts every category")
    (note,) = data.binarized(correct_from=0.5).load_notes
    assert str(note).startswith("Outcomes made binary (correct_from=0.5): ")
    assert cli_text(note).startswith("Outcomes made binary (--correct-from 0.5): ")


def test_data_from_a_frame_say_once_how_to_name_them():
    """The audit: data loaded from a DataFrame are titled "DataFrame" everywhere (every
    caption, "Scorio Studio report: DataFrame") and nothing suggested ``name=``. Their display
    says how to name them; named data, or data from a file, say nothing of it."""
    import pandas as pd

    import scorio_core as sc
    from scorio_core.outcomes import UNNAMED_FRAME

    df = pd.DataFrame({"model": ["a", "a", "b", "b"], "question": ["q1", "q2"] * 2,
                       "trial": [0] * 4, "outcome": [1, 0, 0, 1]})
    data = sc.load(df)
    assert data.name == UNNAMED_FRAME and data.unnamed
    assert "sc.load(df, name='my run')" in repr(data) and len(repr(data).splitlines()) == 1
    assert data._repr_html_().count("sc.load(df, name=") == 1
    named = sc.load(df, name="my run")
    assert named.name == "my run" and not named.unnamed
    assert "name=" not in repr(named) and "name=" not in named._repr_html_()
    assert not sc.load("data/biased_coins.npz").unnamed
