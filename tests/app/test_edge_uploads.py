"""Every page on the smallest and most degenerate uploads a newcomer can make: one
question, one trial, two questions, constant outcomes, identical models, one model.
No page may raise; an error box is allowed only where the data cannot answer the page's
question, and then it must say why (the Planner on one question crashed in an
eigensolver before)."""

from __future__ import annotations

import io as pyio
from pathlib import Path

import numpy as np
import pytest
from _apptest import start

from app_pages._common import UPLOAD, UPLOAD_KEY
from scorio_core import Outcomes
from scorio_core.io import save_table

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGES = ("leaderboard", "pair", "questions", "planner", "rubric", "methods", "convergence",
         "stability", "greedy", "report", "simulator")

_rng = np.random.default_rng(0)
CASES = {
    "one question": _rng.integers(0, 2, (3, 1, 8)),
    "one question, one trial": _rng.integers(0, 2, (3, 1, 1)),
    "one trial": _rng.integers(0, 2, (2, 3, 1)),
    "two questions, two trials": _rng.integers(0, 2, (2, 2, 2)),
    "all correct": np.ones((3, 5, 3), dtype=int),
    "all wrong": np.zeros((3, 5, 3), dtype=int),
    "identical models": np.tile(_rng.integers(0, 2, (1, 6, 4)), (3, 1, 1)),
    "opposite on one question": np.array([[[1, 1]], [[0, 0]]]),
    "one model": _rng.integers(0, 2, (1, 5, 4)),
}


def _csv(R: np.ndarray) -> bytes:
    buf = pyio.BytesIO()
    save_table(Outcomes(R), buf, format="csv")
    return buf.getvalue()


@pytest.mark.parametrize("case", list(CASES))
def test_every_page_survives_a_degenerate_upload(case):
    R = CASES[case]
    at = start(APP, UPLOAD, 120)
    at.session_state[UPLOAD_KEY] = {"filename": "edge.csv", "data": _csv(R)}
    at.run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert at.session_state["scorio_dataset"].full.shape == R.shape
    for page in PAGES:
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, (page, [e.value for e in at.exception])
        for box in at.error:  # only where the data cannot answer, and saying why
            assert R.shape[0] == 1 and "models" in box.value, (page, box.value)


#: The analysis each page refuses data through (its definition's ``refusal``).
REFUSED_BY = {"planner": "plan", "pair": "pair", "methods": "compare",
              "convergence": "convergence", "stability": "stability", "check": "check"}


def _npz(o: Outcomes) -> bytes:
    from scorio_core.io.npz import save_npz

    buf = pyio.BytesIO()
    save_npz(o, buf)
    return buf.getvalue()


@pytest.mark.parametrize("case", ["one model", "categorical"])
def test_a_refusal_is_a_warning_sentence_that_says_what_to_do(case):
    """Audit: "Convergence needs binary outcomes; these data have 3 categories" said no next
    step (nor ended its sentence); Method comparison on one binary model sent the reader to
    "the Leaderboard (Bayes@N with weights)"; "the check needs ..." and "the pair view
    needs ..." started lower-case; the Planner refused one model in a red error box under
    its settings while the other pages warned with no settings. On categorical data the
    warning names the upload's boxes only -- it named Python's keyword and the command line's
    flag too ("correct=['cat2'] / --correct cat2 (in the app: ...)")."""
    from app_state.texts import app_text
    from scorio_core.definitions import ANALYSES

    rng = np.random.default_rng(1)
    o = (Outcomes(rng.integers(0, 2, (1, 6, 8))) if case == "one model" else
         Outcomes(rng.integers(0, 3, (3, 6, 8)), weights=[0, 0.5, 1]))
    at = start(APP, UPLOAD, 120)
    at.session_state[UPLOAD_KEY] = {"filename": "edge.npz", "data": _npz(o)}
    at.run()
    assert at.session_state["scorio_dataset"].full.shape == o.shape
    refused = 0
    for page, aid in REFUSED_BY.items():
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception and not at.error, (page, [e.value for e in at.error])
        why = ANALYSES[aid].refusal(o)
        if why is None:
            continue
        refused += 1
        assert why[0].isupper() and why.endswith("."), why
        shown = app_text(why)  # the core's one text, as the app reads it
        assert shown in [w.value for w in at.warning], (page, [w.value for w in at.warning])
        # nothing to set where nothing can run (the Planner drew its settings first)
        assert not at.number_input and not at.segmented_control and not at.button, page
        if case == "one model":
            assert "weights" not in why and "2 or more models" in why or aid in (
                "plan", "pair", "check"), why
        else:
            # the next step the app can take: the Leaderboard, or the Correct outcomes box
            assert "Leaderboard" in shown and shown.endswith(
                ": `cat2` in **Correct outcomes**, among the upload's options; `0.5` in "
                "**Correct from score** counts cat1 correct too."), shown
            for other in ("correct=", "correct_from=", "--correct", "in the app"):
                assert other not in shown, (other, shown)
    assert refused == (6 if case == "one model" else 3)


def test_one_trial_on_the_convergence_page_points_to_the_stability_page():
    """Convergence on one trial per question said "(sc.stability(data) / scorio-studio
    stability)": a call and a command, neither of which the app runs. The page names the
    Stability page, the rest of the core's one text as it is; that page runs on the data."""
    from app_state.texts import app_text
    from scorio_core.definitions import ANALYSES

    R = CASES["one trial"]
    at = start(APP, UPLOAD, 120)
    at.session_state[UPLOAD_KEY] = {"filename": "edge.csv", "data": _csv(R)}
    at.run()
    at.switch_page("app_pages/convergence.py").run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    why = ANALYSES["convergence"].refusal(at.session_state["scorio_dataset"].view)
    (shown,) = [w.value for w in at.warning if "convergence@n" in w.value]
    assert shown == app_text(why) and shown.endswith(
        "rank single trials with the low-budget stability analysis (the Stability page).")
    assert "sc.stability" not in shown and "scorio-studio" not in shown
    at.switch_page("app_pages/stability.py").run()
    assert not at.exception and not at.error and not at.warning, [w.value for w in at.warning]
