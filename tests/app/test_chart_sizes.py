"""Charts fit the page column they are shown in (issue 14: the method-agreement heatmap
was 1,251 px wide in a 940 px column, so the page scrolled sideways and labels were cut)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from scorio_core import charts
from scorio_core.rank import METHODS

COLUMN_PX = 940


def _tau(n: int) -> pd.DataFrame:
    ids = list(METHODS)[:n]
    rng = np.random.default_rng(n)
    t = rng.uniform(-0.2, 1, (n, n))
    t = (t + t.T) / 2
    np.fill_diagonal(t, 1.0)
    return pd.DataFrame(t, index=ids, columns=ids)


@pytest.mark.parametrize("n", [3, 20, 40, len(METHODS)])
def test_tau_heatmap_fits_a_page_column(n):
    spec = charts.tau_heatmap(_tau(n)).to_dict()
    cell = spec["width"]["step"]
    assert spec["height"]["step"] == cell and 6 <= cell <= 30
    enc = spec["encoding"]
    label_px = enc["y"]["axis"]["labelLimit"]
    assert enc["y"]["axis"]["labelFontSize"] <= cell  # rows never overprint each other
    assert n * cell + label_px + 70 <= charts.TAU_HEATMAP_WIDTH <= COLUMN_PX


def test_tau_heatmap_renders_within_the_column():
    vlc = pytest.importorskip("vl_convert")
    svg = vlc.vegalite_to_svg(charts.tau_heatmap(_tau(len(METHODS))).to_json())
    width = float(re.search(r'<svg[^>]* width="([\d.]+)"', svg).group(1))
    assert width <= COLUMN_PX, width


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
