"""Method-comparison chart: Kendall τ_b between the rankings of every pair of methods."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from ._common import inline

__all__ = ["tau_heatmap", "TAU_HEATMAP_WIDTH"]

#: Widest the τ_b heatmap may be (labels, cells and legend), to fit a page column.
TAU_HEATMAP_WIDTH = 900
_TAU_LABEL_LIMIT = 200  # px of a row label (longer ids end in "…"; the tooltip has them)
_TAU_LEGEND = 70
_TAU_PLOT_WIDTH = TAU_HEATMAP_WIDTH - _TAU_LABEL_LIMIT - _TAU_LEGEND


def tau_heatmap(tau: pd.DataFrame, order: list[str] | None = None) -> alt.Chart:
    """Kendall τ_b between the rankings of every pair of methods.

    ``tau`` is the square method × method frame of
    :attr:`scorio_core.engines.Comparison.tau`; ``order`` (default: as given)
    sorts both axes, e.g. by consensus rank so that agreeing methods cluster.

    What to read from it: yellow (τ_b near 1) blocks are methods that rank the
    models the same way; a darker row or column is a method that disagrees with
    most others.

    Returns
    -------
    altair.Chart
    """
    order = list(tau.index) if order is None else list(order)
    long = tau.loc[order, order].rename_axis(index="row", columns="column").stack()
    df = long.rename("tau").reset_index()
    # Fit a ~940 px page column: row labels + cells + legend within TAU_HEATMAP_WIDTH.
    cell = int(np.clip(_TAU_PLOT_WIDTH / max(len(order), 1), 6, 30))
    font = int(np.clip(cell - 1, 6, 10))
    # one label per cell: never let Vega thin them out, or rows cannot be identified
    axis_x = alt.Axis(orient="top", labelAngle=-60, labelLimit=_TAU_LABEL_LIMIT, title=None,
                      labelFontSize=font, labelOverlap=False)
    axis_y = alt.Axis(labelLimit=_TAU_LABEL_LIMIT, title=None, labelFontSize=font,
                      labelOverlap=False)
    return (
        alt.Chart(inline(df))
        .mark_rect()
        .encode(
            x=alt.X("column:N", sort=order, axis=axis_x),
            y=alt.Y("row:N", sort=order, axis=axis_y),
            color=alt.Color(
                "tau:Q",
                scale=alt.Scale(scheme="viridis", domain=[min(0.0, float(df["tau"].min())), 1]),
                legend=alt.Legend(title="Kendall τ_b", orient="right"),
            ),
            tooltip=[
                alt.Tooltip("row:N", title="method"),
                alt.Tooltip("column:N", title="vs method"),
                alt.Tooltip("tau:Q", title="τ_b", format=".3f"),
            ],
        )
        .properties(width=alt.Step(cell), height=alt.Step(cell))
    )
