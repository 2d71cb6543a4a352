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
