"""The progress bars of long runs say how long is left (issue 14: the Stability page
promised "about a minute" and took over three)."""

from __future__ import annotations

from app_pages._common import eta_text


def test_eta_is_a_linear_estimate_from_the_share_done():
    assert eta_text(30.0, 0.25) == "0:30 elapsed, about 1:30 left"
    assert eta_text(65.0, 0.5) == "1:05 elapsed, about 1:05 left"
    assert eta_text(3600.0, 0.5) == "1:00:00 elapsed, about 1:00:00 left"
    assert eta_text(10.0, 1.0) == "0:10 elapsed, about 0:00 left"


def test_no_estimate_before_there_is_anything_to_extrapolate():
    assert eta_text(0.4, 0.5) == "0:00 elapsed"
    assert eta_text(12.0, 0.0) == "0:12 elapsed"


def test_board_display_spells_infinite_and_missing_values():
    """A tie no number of trials separates shows ∞, the last model (no next one) —;
    st.dataframe used to show 'Infinity' and 'None'."""
    import numpy as np
    import pandas as pd

    from app_pages._common import board_display, column_config

    t = pd.DataFrame({"model": ["a", "b", "c"], "score": [0.5, 0.5, 0.2],
                      "t_next": [0.0, 3.1234, np.nan],
                      "trials_needed_papers": [np.inf, 1234.4, np.nan]})
    d = board_display(t)
    assert d["trials_needed_papers"].tolist() == ["∞", "1,234", "—"]
    assert d["t_next"].tolist() == ["0.00", "3.12", "—"]
    assert d["score"].tolist() == [0.5, 0.5, 0.2]
    assert t["trials_needed_papers"].iloc[0] == np.inf  # a copy
    cfg = column_config(d)
    assert cfg["trials_needed_papers"]["type_config"]["type"] == "text"
