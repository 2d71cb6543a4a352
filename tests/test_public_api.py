"""``import scorio_core as sc`` (issue 24): the user-facing calls by name, loaded lazily, each
documented with an example; the analyses' wrappers are calls of their one definition."""

from __future__ import annotations

import inspect
import pydoc
import subprocess
import sys
import types
from dataclasses import fields
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import scorio_core as sc
from scorio_core import ValidationError
from scorio_core.definitions import ANALYSES

ROOT = Path(__file__).resolve().parents[1]
WRAPPERS = ("compare", "convergence", "stability", "greedy", "pair", "questions")


@pytest.mark.parametrize("name", sc.__all__)
def test_every_exported_name_resolves_and_documents_itself(name):
    value = getattr(sc, name)
    assert value is not None
    assert name in dir(sc)
    if isinstance(value, str):  # COMBINED, a constant
        return
    doc = inspect.getdoc(value) or ""
    assert doc.strip(), f"sc.{name} has no docstring for help()"
    assert "Example" in doc and ">>>" in doc, f"sc.{name}'s docstring has no Example"


def test_help_of_the_leaderboard_is_enough_to_use_it():
    text = pydoc.render_doc(sc.leaderboard, renderer=pydoc.plaintext)
    for word in ("Parameters", "scope", "confidence", "Returns", "Example", "sc.load("):
        assert word in text, word


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_the_issue_one_liner_works():
    r = _python("import scorio_core as sc; "
                "b = sc.leaderboard(sc.load('data/biased_coins.npz')); print(len(b.table))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "11"


def test_leaderboard_stays_callable_after_its_module_is_imported():
    # importing scorio_core.leaderboard rebinds the package attribute to the module
    r = _python("import scorio_core as sc, scorio_core.export, numpy as np; "
                "b = sc.leaderboard(np.ones((2, 5, 3), dtype=int)); "
                "print(type(b).__name__, sc.leaderboard.Leaderboard is type(b))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["Leaderboard", "True"]


def test_report_is_callable_before_and_after_its_package_is_imported(tmp_path):
    for pre in ("", "import scorio_core.report; "):
        out = tmp_path / f"r{len(pre)}.html"
        r = _python(f"{pre}import scorio_core as sc; d = sc.load('data/biased_coins.npz'); "
                    f"print(sc.report(d, {str(out)!r}, sections=['leaderboard']).name)")
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == out.name
        assert "LLM_11" in out.read_text(encoding="utf-8")


def test_dir_lists_the_public_names_only():
    """``dir(sc)`` (tab completion) listed ``Any`` and ``import_module``, the helpers of the
    package's own code, and the submodules that loading a name binds on it (``outcomes``,
    ``_validation``): it lists ``__all__`` (and ``__version__``), however many names were
    loaded."""
    _ = sc.pair, sc.questions, sc.leaderboard, sc.load  # names loaded: their modules bound
    import scorio_core.outcomes  # noqa: F401

    assert dir(sc) == sorted({*sc.__all__, "__version__"})
    assert not {"Any", "import_module", "outcomes", "_validation", "_LAZY"} & set(dir(sc))


def test_every_analysis_the_app_shows_is_one_public_call():
    """The Pair and Questions pages had no ``sc.`` call (the notebook cell imported engine
    functions): every analysis a page shows is one ``scorio_core`` call, the definition's
    own, and its notebook cell makes it."""
    for aid in ("compare", "convergence", "stability", "greedy", "pair", "questions"):
        fn = getattr(sc, aid)
        assert fn.analysis_id == aid and aid in sc.__all__
        assert f"sc.{aid}(data, " in ANALYSES[aid].to_code(ANALYSES[aid].params(), "data"), aid
    # the others by their one call: the leaderboard and planner (their own wrappers), the
    # Pass@k curves, the check of a smaller run and the rubrics' comparison
    for aid, call in (("leaderboard", "sc.leaderboard("), ("plan", "sc.plan("),
                      ("curves", "pass_curves("), ("check", "check_smaller_run("),
                      ("rubric", "sc.rubric.categorical_ranking(")):
        assert call in ANALYSES[aid].to_code(ANALYSES[aid].params(), "data"), aid


def test_unknown_names_raise_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        sc.nope  # noqa: B018


# ------------------------------------------------------------- the analyses by name
@pytest.fixture(scope="module")
def aime():
    return sc.load(ROOT / "data" / "reasoning_synthetic.npz").select("AIME'25")


SMALL = {
    "compare": {"methods": "bayes,avg,borda"},
    "convergence": {"methods": "bayes,borda", "replicates": 60, "curve_replicates": 10,
                    "slow_replicates": 3, "seed": 2},
    "stability": {"methods": "bayes,avg,borda"},
    "greedy": {"replicates": 6, "seed": 1},
    "pair": {"a": "OpenThinker3", "b": "LIMO-v2", "confidence": 0.9},
    "questions": {"top": 5, "irt": False},
}


@pytest.mark.parametrize("name", WRAPPERS)
def test_wrapper_signature_is_the_definitions_settings(name):
    a = ANALYSES[name]
    sig = inspect.signature(getattr(sc, name))
    declared = {f.name: f.default for f in fields(a.params)}
    got = {k: p.default for k, p in sig.parameters.items() if k not in ("data", "progress")}
    assert got == declared  # the one declaration, not a copy
    doc = inspect.getdoc(getattr(sc, name))
    for setting in declared:
        assert f"\n{setting} : " in doc, setting  # every setting documented


@pytest.mark.parametrize("name", WRAPPERS)
def test_wrapper_equals_its_definition(name, aime):
    a = ANALYSES[name]
    got = getattr(sc, name)(aime, **SMALL[name])
    want = a.run(aime, a.params(**SMALL[name]))
    assert type(got) is type(want)
    for key, table in a.tables(want).items():
        pd.testing.assert_frame_equal(got.tables()[key], table, check_exact=False, atol=1e-12)
    # the result remembers how it was made: its display names the settings and the data
    assert got._about.params == a.params(**SMALL[name])
    assert "AIME'25" in got._about.data


def test_methods_may_be_a_list(aime):
    got = sc.compare(aime, methods=["bayes", "avg"])
    assert got._about.params.methods == "bayes,avg"
    assert sorted(got.comparison.agreement["method"]) == ["avg", "bayes"]


def test_wrappers_refuse_bad_input_clearly(aime, tmp_path):
    with pytest.raises(ValidationError, match="unknown setting.*replicate.*its settings are"):
        sc.greedy(aime, replicate=5)
    with pytest.raises(ValidationError, match=r"load it first with sc\.load"):
        sc.stability("data/biased_coins.npz")
    with pytest.raises(ValidationError, match="R0"):
        sc.greedy(sc.load(ROOT / "data" / "biased_coins.npz"))
    with pytest.raises(ValidationError, match="unknown method"):
        sc.compare(aime, methods="bayes,nope")
    with pytest.raises(ValidationError, match="data_path"):  # data that name no file
        sc.report(sc.Outcomes(aime.R), tmp_path / "r.ipynb", sections=["leaderboard"])
    # loaded from a file: the notebook loads it again and selects the same benchmark
    nb = sc.report(aime, tmp_path / "r.ipynb", sections=["leaderboard"]).read_text()
    assert "biased_coins" not in nb and ".select(" in nb


def test_wrappers_take_an_array():
    R = np.random.default_rng(0).integers(0, 2, (3, 20, 4))
    got = sc.stability(R, methods="bayes")
    assert got.stability.table["slices"].tolist() == [4]


def test_submodules_of_the_api_are_loaded_lazily():
    r = _python("import sys, scorio_core as sc; "
                "print(any(m in sys.modules for m in ('scorio_core.api', 'scorio_core.display', "
                "'scorio_core.definitions', 'pandas')))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"
    assert isinstance(sc.display, types.ModuleType)
