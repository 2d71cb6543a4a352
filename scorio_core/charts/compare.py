"""Method-comparison chart: Kendall τ_b between the rankings of every pair of methods."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .._validation import as_names, checked_keywords
from ._common import cell_font_size, inline, text_colour_on, viridis

__all__ = ["tau_heatmap", "family_tau", "TAU_NARROW_PX", "TAU_MAX_CELL", "TAU_MAX_METHODS",
           "FAMILY_ROW"]

#: The narrowest column the τ_b heatmap of one row per method is laid out for (px): the app's
#: main column at a 1024 px window. It is as wide as its container (the page's column, a
#: notebook's output), its square cells sharing what the row labels leave; laid out for a
#: 900 px column, its grid and the column labels slanted beyond its last cell ran up to
#: 346 px past the column at 1024 px and its legend 90 px past at 1280 px.
TAU_NARROW_PX = 564
#: Largest τ_b heatmap cell (px): a few methods' grid stays compact in a wide column.
TAU_MAX_CELL = 30
_TAU_LABEL_LIMIT = 240  # px of a row label: the longest id, in 10 px type; the tooltip has it
#: What a row's label takes beside its limit (px): the tick, the label's padding and the
#: chart's padding either side.
_TAU_AXIS_PAD = 20
#: Most methods drawn one row each: at 30 a cell is 10 px and a label 9 px type in the
#: 564 px column; with more (all 77: 4 px rows, unreadable) :func:`tau_heatmap` draws families.
TAU_MAX_METHODS = 30
#: Height of a family heatmap's row (its columns share the container's width): at 1024 px
#: (a ~560 px column) the 11 families' columns are ~40 px wide, so the rows stay near square
#: and "0.93" fits in :func:`~._common.cell_font_size` type either way.
FAMILY_ROW = 36


def _method_order(order) -> tuple[str, ...]:
    """``order`` of method ids: a list, or one string split at its commas (as ``--methods``)."""
    return as_names(order, "order", noun="method ids", example="bayes,avg")


@checked_keywords
def family_tau(tau: pd.DataFrame, families: dict[str, str],
               order: list[str] | None = None) -> pd.DataFrame:
    """Mean Kendall τ_b between the methods of each pair of families (long form).

    Off the diagonal: the mean over every method of one family against every method of
    the other; on it, the mean over the family's distinct pairs (1 for a single method).
    Families come in the order of their first method in ``order`` (e.g. by consensus).

    Returns
    -------
    pandas.DataFrame
        ``row, column, tau, methods`` (``methods``: "a × b" method counts), one row per
        family pair.

    Example
    -------
    >>> import pandas as pd
    >>> t = pd.DataFrame([[1, .8, .2], [.8, 1, .4], [.2, .4, 1]], index=list("abc"),
    ...                  columns=list("abc"))
    >>> fam = sc.charts.family_tau(t, {"a": "F", "b": "F", "c": "G"})
    >>> fam[["row", "column", "tau"]].values.tolist()
    [['F', 'F', 0.8], ['F', 'G', 0.3...], ['G', 'F', 0.3...], ['G', 'G', 1.0]]
    """
    order = list(tau.index) if order is None else list(_method_order(order))
    fams = list(dict.fromkeys(families.get(m, "other") for m in order))
    members = {f: [m for m in order if families.get(m, "other") == f] for f in fams}
    rows = []
    for a in fams:
        for b in fams:
            block = tau.loc[members[a], members[b]].to_numpy(dtype=float)
            if a == b and block.shape[0] > 1:  # distinct pairs only: no τ of a method with itself
                block = block[~np.eye(block.shape[0], dtype=bool)]
            elif a == b:
                block = np.array([1.0])
            seen = block[~np.isnan(block)]  # all NaN when every ranking is one tie
            rows.append({"row": a, "column": b,
                         "tau": float(seen.mean()) if seen.size else np.nan,
                         "methods": f"{len(members[a])} × {len(members[b])}"})
    return pd.DataFrame(rows)


@checked_keywords
def tau_heatmap(
    tau: pd.DataFrame, order: list[str] | None = None, families: dict[str, str] | None = None,
    max_methods: int = TAU_MAX_METHODS,
) -> alt.Chart:
    """Kendall τ_b between the rankings of every pair of methods.

    ``tau`` is the square method × method frame of
    :attr:`scorio_core.engines.Comparison.tau`; ``order`` (default: as given)
    sorts both axes, e.g. by consensus rank so that agreeing methods cluster.

    What to read from it: yellow (τ_b near 1) blocks are methods that rank the
    models the same way; a darker row or column is a method that disagrees with
    most others.

    With ``families`` (method -> family) and more than ``max_methods`` methods, one
    row per *family* instead (:func:`family_tau`: mean τ_b between their methods,
    written in each cell): 77 labels do not fit a page column legibly.

    Returns
    -------
    altair.Chart
    """
    order = list(tau.index) if order is None else list(_method_order(order))
    if families is not None and len(order) > max_methods:
        return _family_heatmap(family_tau(tau, families, order))
    long = tau.loc[order, order].rename_axis(index="row", columns="column").stack()
    df = long.rename("tau").reset_index()
    n = max(len(order), 1)
    # the labels' type: one size for every width, that of the cell the narrowest column
    # leaves (a cell drawn wider keeps it); at least its type plus 1 px a row, so rows
    # never overprint each other
    font = int(np.clip((TAU_NARROW_PX - _TAU_LABEL_LIMIT - _TAU_AXIS_PAD) // n - 1, 6, 10))
    # one label per cell: never let Vega thin them out, or rows cannot be identified.
    # Upright column labels are parallel, one cell apart: they cannot collide, read whole
    # (no limit: they take height, not width) and take no width beside the grid -- slanted
    # at -60°, the last ones reached past it, and past the page's column.
    axis_x = alt.Axis(orient="top", labelAngle=-90, labelLimit=0, title=None,
                      labelFontSize=font, labelOverlap=False, labelFlush=False)
    axis_y = alt.Axis(labelLimit=_TAU_LABEL_LIMIT, title=None, labelFontSize=font,
                      labelOverlap=False, labelFlush=False)
    # square cells of the width the chart is drawn at (known only there): both axes span n
    # cells of ``cell_px``, left of any width to spare (as the pairwise heatmap's)
    grid = alt.Scale(range=[0, {"expr": f"cell_px * {n}"}])
    chart = (
        alt.Chart(inline(df))
        .mark_rect()
        .encode(
            x=alt.X("column:N", sort=order, axis=axis_x, scale=grid),
            y=alt.Y("row:N", sort=order, axis=axis_y, scale=grid),
            color=alt.Color(
                "tau:Q",
                scale=alt.Scale(scheme="viridis", domain=[min(0.0, float(df["tau"].min())), 1]),
                # below the grid, not beside it: its width goes to the cells; within the
                # grid's width, 100-200 px
                legend=alt.Legend(title="Kendall τ_b", orient="bottom", gradientLength={
                    "expr": f"clamp(cell_px * {n} - 16, 100, 200)"}),
            ),
            tooltip=[
                alt.Tooltip("row:N", title="method"),
                alt.Tooltip("column:N", title="vs method"),
                alt.Tooltip("tau:Q", title="τ_b", format=".3f"),
            ],
        )
        .properties(
            width="container", height=TAU_MAX_CELL * n,
            view=alt.ViewBackground(stroke=None),  # no frame round the width the grid leaves
            # fit the width only: the height is the grid's, with the legend below it
            autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
    )
    # the grid's height follows its cells (Vega merges a signal named "height" into its own
    # height): the fixed number above is only where it starts
    chart.params = [
        alt.VariableParameter(name="cell_px",
                              expr=f"clamp(width / {n}, {font + 1}, {TAU_MAX_CELL})"),
        alt.VariableParameter(name="height", expr=f"cell_px * {n}")]
    return chart


def _family_heatmap(df: pd.DataFrame) -> alt.LayerChart:
    """One row per family, as wide as its container: 52 px square cells made it 749 px
    wide, past the main column of a window narrower than ~1,130 px. The rows keep a fixed
    step (:data:`FAMILY_ROW`) and the columns share what the labels and legend leave."""
    # "paired (8)": how many methods each row averages
    size = {r: m.split(" × ")[0] for r, m in zip(df["row"], df["methods"], strict=True)}
    df = df.assign(row=[f"{r} ({size[r]})" for r in df["row"]],
                   column=[f"{c} ({size[c]})" for c in df["column"]])
    # each number in the colour that contrasts most with its own cell (a fixed τ > 0.6 cut
    # put black on mid-green cells, and white on pale ones when the scale starts below 0)
    lo = min(0.0, float(df["tau"].min()))
    df["ink"] = [text_colour_on(f) for f in viridis((df["tau"].to_numpy(float) - lo) / (1 - lo))]
    fams = list(dict.fromkeys(df["row"]))
    # labelOverlap=False: every family named (Vega thinned every other label); upright, the
    # last column's label stays over its column (at -45° "pointwise (1)" reached past the
    # chart's right edge, at 1024 px and 1280 px alike)
    axis_x = alt.Axis(orient="top", labelAngle=-90, title=None, labelFontSize=12,
                      labelLimit=_TAU_LABEL_LIMIT, labelOverlap=False, labelFlush=False)
    axis_y = alt.Axis(title=None, labelFontSize=12, labelLimit=_TAU_LABEL_LIMIT,
                      labelOverlap=False)
    base = alt.Chart(inline(df)).encode(
        x=alt.X("column:N", sort=fams, axis=axis_x), y=alt.Y("row:N", sort=fams, axis=axis_y),
        tooltip=[alt.Tooltip("row:N", title="family"), alt.Tooltip("column:N", title="vs family"),
                 alt.Tooltip("tau:Q", title="mean τ_b", format=".3f"),
                 alt.Tooltip("methods:N", title="methods")],
    )
    # the legend below the grid, not beside it: its 70 px go to the columns
    rect = base.mark_rect().encode(color=alt.Color(
        "tau:Q", scale=alt.Scale(scheme="viridis", domain=[lo, 1]),
        legend=alt.Legend(title="mean τ_b", orient="bottom")))
    text = base.mark_text(fontSize=cell_font_size(FAMILY_ROW)).encode(
        text=alt.Text("tau:Q", format=".2f"), fill=alt.Fill("ink:N", scale=None, legend=None))
    return (rect + text).properties(width="container", height=alt.Step(FAMILY_ROW))
