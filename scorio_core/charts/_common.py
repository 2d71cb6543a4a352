"""Helpers every chart module shares: row heights, model axes, inline data, palette."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from ..outcomes import Outcomes

__all__ = ["ROW_PX", "LABEL_LIMIT", "PALETTE", "inline", "whole_axis"]

#: Pixels per model row; 20 models give a ~460 px tall chart.
ROW_PX = 22
#: Longest model name shown in full on an axis (longer ones are truncated with "…").
LABEL_LIMIT = 260

#: Trial counts are whole numbers: integer ticks only, never 1.5 trials.
_WHOLE = alt.Axis(tickMinStep=1, format="d")
#: Longest range of whole numbers whose every value gets its own tick.
MAX_WHOLE_TICKS = 16


def whole_axis(values, lo: int | None = None, **kw) -> alt.Axis:
    """An axis of whole numbers with each tick once: every integer of a short range
    (``lo`` or the smallest of ``values`` to the largest), else steps of at least 1.

    ``tickMinStep`` alone is not enough: on a range of 1..3 the renderer still places ticks
    at 1.5 and 2.5, which ``format="d"`` prints as 1, 2, 2, 3, 3.
    """
    v = pd.to_numeric(pd.Series(list(values)), errors="coerce")
    v = v[np.isfinite(v)]
    if len(v):
        first = int(np.floor(v.min())) if lo is None else int(lo)
        last = int(np.ceil(v.max()))
        if last - first + 1 <= MAX_WHOLE_TICKS:
            return alt.Axis(values=list(range(first, last + 1)), format="d", **kw)
    return alt.Axis(tickMinStep=1, format="d", **kw)

#: Categorical palette with clearly distinct hues (the default theme's blues look alike).
PALETTE = "tableau10"


def inline(df: pd.DataFrame) -> alt.InlineData:
    """``df`` as inline chart data that Altair's 5,000-row guard does not refuse.

    Grids such as the 77 × 77 method heatmap or the L × L pairwise matrix of 100
    models are legitimately larger; outside Streamlit (notebooks, reports) Altair
    would raise ``MaxRowsError`` on them.

    Built without Altair's construction-time schema check, which walks every record (3.5 s
    for the 20,000 cells of a 100-model question heatmap); the spec is still validated
    where it is written out (``to_dict()``, the report's SVG), at a fraction of that.
    """
    from altair.utils.schemapi import debug_mode

    with debug_mode(False):
        return alt.InlineData(values=df.to_dict(orient="records"))


def _model_axis(**kw) -> alt.Axis:
    """Axis for model names: every label shown, centred on its row (no flush-shifting of
    the first/last label, which Streamlit's theme turns on)."""
    return alt.Axis(labelLimit=LABEL_LIMIT, labelFlush=False, labelOverlap=False, **kw)


def _rows(n_rows: int) -> alt.Step:
    """Height as a per-row step, so the plot area (not the whole figure) grows with
    the number of models and axis labels never get thinned out."""
    return alt.Step(ROW_PX if n_rows > 3 else 2 * ROW_PX)


def _per_question_scores(outcomes: Outcomes) -> np.ndarray:
    """Mean weighted score of each (model, question) over its trials: shape (L, M)."""
    return outcomes.weights[outcomes.R].mean(axis=-1)
