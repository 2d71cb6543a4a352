"""Charts as SVG and PNG without a browser (``vl-convert-python``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .._validation import checked_keywords

if TYPE_CHECKING:  # altair loads with the first chart drawn, not with the app's first page
    import altair as alt

__all__ = ["chart_svg", "chart_png", "DEFAULT_WIDTH"]

#: Width in pixels given to charts that follow their container's width in the app.
DEFAULT_WIDTH = 680

_XMLNS = re.compile(r'\s+xmlns(?::xlink)?="[^"]*"')


def _spec(chart: alt.TopLevelMixin, width: int) -> dict:
    """The chart's Vega-Lite dict as a picture draws it: ``width`` for a chart as wide as its
    container, its :data:`~scorio_core.charts._common.LIVE` parameter false."""
    import altair as alt

    from ..charts._common import LIVE

    # a τ heatmap of all 72+ methods has > 5000 cells, Altair's default guard for browsers;
    # rendered to SVG here, the data never reach a browser
    with alt.data_transformers.disable_max_rows():
        spec = chart.to_dict()
    if spec.get("width") == "container":
        spec["width"] = width
    spec.pop("$schema", None)
    for param in spec.get("params", ()):  # a picture: nothing answers a pointer here
        if param.get("name") == LIVE:
            param["value"] = False
    return spec


def _vl_version() -> str:
    import altair as alt
    import vl_convert as vlc

    want = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    have = list(vlc.get_vegalite_versions())
    return want if want in have else have[-1]


@checked_keywords
def chart_svg(chart: alt.TopLevelMixin, *, width: int = DEFAULT_WIDTH, inline: bool = False) -> str:
    """The chart rendered to SVG text.

    ``inline=True`` drops the XML namespace declarations, which HTML5 does not
    need for an inline ``<svg>`` element (and which are the only URLs in the file).
    """
    import vl_convert as vlc

    svg = vlc.vegalite_to_svg(_spec(chart, width), vl_version=_vl_version())
    return _XMLNS.sub("", svg, count=2) if inline else svg


@checked_keywords
def chart_png(chart: alt.TopLevelMixin, *, width: int = DEFAULT_WIDTH, scale: float = 2.0) -> bytes:
    """The chart rendered to PNG bytes (``scale`` 2 for sharp prints)."""
    import vl_convert as vlc

    return vlc.vegalite_to_png(_spec(chart, width), vl_version=_vl_version(), scale=scale)
