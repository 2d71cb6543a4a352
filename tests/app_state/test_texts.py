"""Screen texts computed in app_state (issue 24: texts that quoted fixed numbers)."""

from __future__ import annotations

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


def test_printf_formats_write_what_the_core_formatter_writes():
    """The app's tables use the core's one format per column: the printf pattern prints
    every finite value as the CLI/report formatter does (less its thousands separators)."""
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
    assert fmts["diff"] == "%.4f" and fmts["trials_needed"] == "%d"
    assert fmts["p_best"] == "%.3f"  # the per-subset table printed 0.9437 beside 0.749
    for c, f in fmts.items():
        core = format_column(t[c].tolist(), c)
        assert [f % v for v in t[c]] == [s.replace(",", "") for s in core], c
