"""Charts fit the page column they are shown in (issue 14: the method-agreement heatmap
was 1,251 px wide in a 940 px column, so the page scrolled sideways and labels were cut)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from scorio_core import charts
from scorio_core.rank import METHODS

#: The main column of a 1024 px window, with the sidebar open.
NARROW_COLUMN_PX = 560


def _tau(n: int) -> pd.DataFrame:
    ids = list(METHODS)[:n]
    rng = np.random.default_rng(n)
    t = rng.uniform(-0.2, 1, (n, n))
    t = (t + t.T) / 2
    np.fill_diagonal(t, 1.0)
    return pd.DataFrame(t, index=ids, columns=ids)


#: The main column at a 1280 px window, with the sidebar open.
WIDE_COLUMN_PX = 820


def _longest_ids(n: int) -> pd.DataFrame:
    """A τ table of the ``n`` longest method ids (the voting family's 46 characters first)."""
    ids = sorted(METHODS, key=len, reverse=True)[:n]
    return _tau(n).set_axis(ids, axis=0).set_axis(ids, axis=1)


@pytest.mark.parametrize("n", [3, 20, charts.TAU_MAX_METHODS])
def test_tau_heatmap_fits_a_page_column(n):
    """Laid out for a 900 px column, the heatmap of one row per method ran past the main
    column at 1024 px (up to 346 px) and 1280 px (its legend, 90 px). It is as wide as its
    container: square cells of what the row labels leave, at least one more pixel than its
    labels' type, so ``TAU_MAX_METHODS`` rows fit the narrowest column it is laid out for."""
    from app_state.table_fit import NARROW_COLUMN_PX as APP_NARROW_PX

    assert charts.TAU_NARROW_PX == APP_NARROW_PX  # laid out for the app's narrowest column
    spec = charts.tau_heatmap(_tau(n)).to_dict()
    assert spec["width"] == "container" and spec["autosize"]["type"] == "fit-x"
    params = {p["name"]: p["expr"] for p in spec["params"]}
    font = spec["encoding"]["y"]["axis"]["labelFontSize"]
    low = int(re.fullmatch(rf"clamp\(width / {n}, (\d+), 30\)", params["cell_px"]).group(1))
    assert spec["encoding"]["x"]["axis"]["labelFontSize"] == font < low  # no overprinting
    assert 9 <= font <= 10 and params["height"] == f"cell_px * {n}"
    label_px = spec["encoding"]["y"]["axis"]["labelLimit"]
    assert n * low + label_px <= charts.TAU_NARROW_PX - 20  # the ticks and the padding
    x = spec["encoding"]["x"]["axis"]  # upright: whole, and no width beside the grid
    assert x["labelAngle"] == -90 and x["labelLimit"] == 0 and x["orient"] == "top"
    assert spec["encoding"]["color"]["legend"]["orient"] == "bottom"


@pytest.mark.parametrize("width", [charts.TAU_NARROW_PX, WIDE_COLUMN_PX])
@pytest.mark.parametrize("n", [3, 20, charts.TAU_MAX_METHODS])
def test_tau_heatmap_renders_within_the_column(n, width):
    """Drawn at a 1024 px or a 1280 px window's main column, the heatmap of the longest
    method ids is that wide, its grid within it and every id read whole, over its column and
    beside its row (the column labels, slanted at -60°, were cut with "…" at 200 px and
    ran past the column)."""
    vlc = pytest.importorskip("vl_convert")
    spec = charts.tau_heatmap(_longest_ids(n)).to_dict()
    spec["width"] = width
    svg = vlc.vegalite_to_svg(spec)
    assert float(re.search(r'<svg[^>]* width="([\d.]+)"', svg).group(1)) == width
    left = float(re.search(r'class="marks"[^>]*>.*?<g [^>]*transform="translate\(([\d.]+),',
                           svg).group(1))
    cells = [(float(x), float(w), float(h)) for x, w, h in re.findall(
        r'aria-roledescription="rect mark" d="M([\d.]+),[\d.]+h([\d.]+)v([\d.]+)', svg)]
    assert len(cells) == n * n and left + max(x + w for x, w, _ in cells) <= width
    ((w, h),) = {(w, h) for _, w, h in cells}  # cells of one size
    assert w == h and 10 <= w <= 30
    ids = list(_longest_ids(n).index)
    assert all(svg.count(f">{m}<") == 2 for m in ids), [m for m in ids if
                                                         svg.count(f">{m}<") != 2]
    assert "…" not in svg


def test_category_legend_shows_every_label_in_full():
    from scorio_core import Outcomes

    names = ("invalid", "wrong ∧ high_conf", "wrong ∧ low_conf", "correct")
    o = Outcomes(np.array([[[0, 1, 2, 3]], [[3, 3, 2, 1]]]), weights=[0, -0.1, 0.05, 1],
                 category_names=names)
    legend = charts.category_bars(o).to_dict()["encoding"]["color"]["legend"]
    assert legend["labelLimit"] == 0 and legend["orient"] == "bottom"  # no truncation
    assert legend["columns"] == 1  # long labels: one per row
    vlc = pytest.importorskip("vl_convert")
    svg = vlc.vegalite_to_svg(charts.category_bars(o).properties(width=400).to_json())
    for k, (n, w) in enumerate(zip(names, o.weights, strict=True)):
        assert f"{k}: {n} (w={w:g})" in svg.replace("&amp;", "&")


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_forest_plot_axis_title_is_not_cut_in_a_half_column(scope):
    """Issue 24: the Rubric builder's forest plot (half a page column, ~420 px) cut its
    axis title ("... tick = papers' Bayes" + nothing)."""
    vlc = pytest.importorskip("vl_convert")
    from scorio_core import Outcomes
    from scorio_core.leaderboard import leaderboard

    R = np.random.default_rng(5).integers(0, 2, (6, 30, 8))
    names = ["Qwen3-Thinking", "FuseO1-DS-QwQ-SkyT1", "gpt-oss-medium", "b", "c", "d"]
    board = leaderboard(Outcomes(R, models=names), scope=scope)
    chart = charts.forest_plot(board).properties(width=260)  # the plot area of ~420 px
    svg = vlc.vegalite_to_svg(chart.to_json()).replace("&apos;", "'")
    for line in ("mean score with 95% interval", f"({scope} scope)", "tick = papers' Bayes@N"):
        assert f">{line}<" in svg, line
    assert "…" not in svg


def test_tau_heatmap_of_every_method_draws_legible_families():
    """Issue 24: 77 method labels in 8 px rows were unreadable; above TAU_MAX_METHODS the
    heatmap shows one row per family (mean τ_b between their methods, written in each
    cell), with labels in 12 px type."""
    from scorio_core.charts import family_tau

    n = len(METHODS)
    tau = _tau(n)
    families = {m: METHODS[m].family for m in tau.index}
    spec = charts.tau_heatmap(tau, families=families).to_dict()
    fams = list(dict.fromkeys(families.values()))
    rect = spec["layer"][0]
    # as wide as the column (52 px square cells made it 749 px, past the main column of a
    # window below ~1,130 px), rows of a fixed step
    assert spec["width"] == "container" and spec["height"]["step"] == charts.FAMILY_ROW >= 24
    assert rect["encoding"]["y"]["axis"]["labelFontSize"] >= 12
    rows = rect["encoding"]["y"]["sort"]  # "paired (6)": each family with its method count
    assert [r.rsplit(" (", 1)[0] for r in rows] == fams and len(fams) < charts.TAU_MAX_METHODS
    # each cell is the mean of its block (the diagonal without a method against itself)
    long = family_tau(tau, families).set_index(["row", "column"])["tau"]
    a, b = "paired", "voting"
    ma = [m for m in tau.index if families[m] == a]
    mb = [m for m in tau.index if families[m] == b]
    assert long[(a, b)] == pytest.approx(tau.loc[ma, mb].to_numpy().mean())
    block = tau.loc[ma, ma].to_numpy()
    assert long[(a, a)] == pytest.approx(block[~np.eye(len(ma), dtype=bool)].mean())
    # few methods: one row each, as before
    few = _tau(12)
    small = charts.tau_heatmap(few, families={m: METHODS[m].family for m in few.index})
    assert small.to_dict()["encoding"]["y"]["axis"]["labelFontSize"] >= 10
    vlc = pytest.importorskip("vl_convert")
    # in the main column of a 1024 px window: within it, every column wide enough for "0.93"
    spec["width"], spec["autosize"] = NARROW_COLUMN_PX, {"type": "fit", "contains": "padding"}
    svg = vlc.vegalite_to_svg(spec)
    assert float(re.search(r'<svg[^>]* width="([\d.]+)"', svg).group(1)) <= NARROW_COLUMN_PX
    cells = [float(w) for w in re.findall(
        r'aria-roledescription="rect mark" d="M[\d.]+,[\d.]+h([\d.]+)v', svg)]
    size = spec["layer"][1]["mark"]["fontSize"]
    assert len(cells) == len(fams) ** 2 and min(cells) >= 4 * 0.6 * size, cells


@pytest.mark.parametrize("lo", [0.0, -0.4])
def test_family_heatmap_numbers_are_legible(lo):
    """The audit: the in-cell mean τ_b were 10 px type in 52 px cells, black or white by a
    fixed τ > 0.6 cut. Now the type follows the cell (at least 11 px) and each number takes
    the ink that contrasts most with its own cell's colour."""
    from scorio_core.charts import contrast_ratio, viridis

    n = len(METHODS)
    tau = _tau(n)
    tau.iloc[0, 1] = tau.iloc[1, 0] = lo  # the scale's low end: the darkest cell
    families = {m: METHODS[m].family for m in tau.index}
    spec = charts.tau_heatmap(tau, families=families).to_dict()
    cell = spec["height"]["step"]  # its rows; its columns share the container's width
    text = spec["layer"][1]
    assert text["mark"]["type"] == "text"
    size = text["mark"]["fontSize"]
    assert size >= charts.MIN_CELL_FONT and size >= 0.28 * cell  # 10 px in 52 px cells before
    assert 4 * 0.6 * size <= cell  # "0.93" stays inside its cell
    assert text["encoding"]["fill"] == {"field": "ink", "type": "nominal", "scale": None,
                                        "legend": None}
    (values,) = spec["datasets"].values()
    d = pd.DataFrame(values)
    low = min(0.0, float(d["tau"].min()))
    fills = viridis((d["tau"] - low) / (1 - low))
    ratios = [contrast_ratio(f, ink) for f, ink in zip(fills, d["ink"], strict=True)]
    assert min(ratios) >= 4.5, min(ratios)  # WCAG AA for every number on its cell
    assert d.loc[d["tau"].idxmin(), "ink"] == "#ffffff"  # light on the dark end
    assert d.loc[d["tau"].idxmax(), "ink"] == "#000000"  # dark on the yellow end
    vlc = pytest.importorskip("vl_convert")
    svg = vlc.vegalite_to_svg(charts.tau_heatmap(tau, families=families).to_json())
    assert f'font-size="{size}px"' in svg
