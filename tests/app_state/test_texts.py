"""Screen texts computed in app_state (issue 24: texts that quoted fixed numbers)."""

from __future__ import annotations

import numpy as np

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
