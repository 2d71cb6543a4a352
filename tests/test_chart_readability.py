"""Charts stay readable as the app draws them (the visual audit at 1280 px): a colour (and
beyond 20 a dash) per model, rank axes on their lines, a tick per trial and a visible last
step at small N, τ_b within its bounds, nothing cut in a half-width column, the Pass curves
within the page column.

Rendered checks use vl-convert with the parts of Streamlit's chart theme that move or size
things (:data:`STREAMLIT_THEME`), since the app's charts are drawn under it.
"""

from __future__ import annotations

import copy
import html
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scorio_core import Outcomes, charts
from scorio_core.curves import pass_curves
from scorio_core.leaderboard import leaderboard

#: Streamlit 1.67's theme for Vega-Lite charts (``CustomTheme``), the entries that place or
#: size labels: larger type, end labels flush with the axis ends, padding.
STREAMLIT_THEME = {
    "axis": {"labelFontSize": 12, "titleFontSize": 14, "labelFlush": True, "labelOverlap": True,
             "labelLimit": 100, "labelPadding": 16, "titlePadding": 16, "ticks": False,
             "domain": False},
    "legend": {"labelFontSize": 14, "titleFontSize": 14, "labelPadding": 16, "padding": 8,
               "columnPadding": 8},
}
#: The app's page column at a 1280 px window (wide layout, sidebar open).
PAGE_COLUMN_PX = 820
#: The plot area of a chart in half of that column (the Rubric builder's row of two).
HALF_COLUMN_PLOT_PX = 220


def _svg(spec: dict, width: int | None = None, pad: bool = False) -> str:
    vlc = pytest.importorskip("vl_convert")
    d = copy.deepcopy(spec)
    if width is not None:
        d["width"] = width
    if pad:  # the drawing's full extent, not clipped to the width
        d["autosize"] = {"type": "pad"}
    cfg = d.setdefault("config", {})
    for key, values in STREAMLIT_THEME.items():
        cfg[key] = {**cfg.get(key, {}), **values}
    return vlc.vegalite_to_svg(d)


def _svg_width(svg: str) -> float:
    return float(re.search(r'<svg[^>]* width="([\d.]+)"', svg).group(1))


def _outcomes(L: int, seed: int = 0, prefix: str = "LLM_") -> Outcomes:
    R = np.random.default_rng(seed).integers(0, 2, (L, 12, 6))
    return Outcomes(R, models=[f"{prefix}{i + 1}" for i in range(L)])


def _styles(enc: dict) -> dict[str, tuple[str, tuple]]:
    """Series name -> (colour, dash) from a layer's ``color`` and ``strokeDash`` scales."""
    color = enc["color"]["scale"]
    # a named scheme (tableau10, category20) cycles through its colours after 10 or 20
    assert "range" in color and "domain" in color, f"colours from a cycling scheme: {color}"
    dash = enc.get("strokeDash", {}).get("scale")
    out = {}
    for i, name in enumerate(color["domain"]):
        d = tuple(dash["range"][dash["domain"].index(name)]) if dash else (1, 0)
        out[name] = (color["range"][i], d)
    return out


def _line_layer(spec: dict) -> dict:
    """The first line layer of a (possibly concatenated) layered chart."""
    for key in ("concat", "hconcat", "vconcat"):
        if key in spec:
            spec = spec[key][0]
    for layer in spec["layer"]:
        mark = layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"]
        if mark == "line":
            return layer
    raise AssertionError("no line layer")


def _model_charts(L: int) -> dict[str, dict]:
    """Every chart that draws one line per model, for ``L`` models."""
    o = _outcomes(L)
    ranks = pd.DataFrame({"gold": np.arange(1, L + 1), "rubric": np.arange(L, 0, -1)},
                         index=o.models)
    traj = np.tile(np.arange(1, L + 1), (5, 1))
    return {  # the Pass curves colour only their best models (test_pass_curves_with_many_...)
        "rank bump": charts.rank_bump_chart(ranks).to_dict(),
        "rank trajectory": charts.rank_trajectory_chart(traj, o.models).to_dict(),
    }


# 1. colours ---------------------------------------------------------------------------


@pytest.mark.parametrize("L", [11, 20, 26, 45])
def test_every_model_line_has_its_own_colour_or_dash(L):
    """The audit: at 11 models LLM_11 and LLM_1 were both dark blue; at 20 every colour was
    used twice. Now 20 distinct colours, then a dash per block of 20, in one legend."""
    for name, spec in _model_charts(L).items():
        enc = _line_layer(spec)["encoding"]
        styles = _styles(enc)
        assert len(styles) == L, name
        assert len(set(styles.values())) == L, name  # no two lines alike
        colours = {c for c, _ in styles.values()}
        assert len(colours) == min(L, 20), name
        if L > 20:  # the dash is in the colour's legend, so each line is found from it
            assert enc["strokeDash"]["legend"] == enc["color"]["legend"], name
            assert enc["strokeDash"]["field"] == enc["color"]["field"] == "model", name
        else:
            assert "strokeDash" not in enc, name  # solid lines while colour suffices


def test_eleven_models_llm_1_and_llm_11_differ():
    o = _outcomes(11)
    traj = np.tile(np.arange(1, 12), (5, 1))
    spec = charts.rank_trajectory_chart(traj, o.models).to_dict()
    styles = _styles(_line_layer(spec)["encoding"])
    assert styles["LLM_1"] != styles["LLM_11"]
    # ten strong hues first, their light partners after: the 1st and 11th share a hue
    assert len(charts.SERIES_COLOURS) == len(set(charts.SERIES_COLOURS)) == 20


def test_methods_get_the_same_rule():
    methods = [f"method_{i}" for i in range(23)]
    pmf = pd.DataFrame({"method": np.repeat(methods, 3), "n": np.tile([1, 2, 3], 23),
                        "p": 0.1})
    summary = pmf.rename(columns={"p": "mean"}).assign(sd=0.05)
    for spec in (charts.convergence_pmf(pmf).to_dict(), charts.tau_curves(summary).to_dict(),
                 charts.convergence_cdf(pmf.rename(columns={"p": "cdf"})).to_dict()):
        layer = spec if "layer" not in spec else _line_layer(spec)
        styles = _styles(layer["encoding"])
        assert len(set(styles.values())) == 23


def test_no_chart_module_colours_models_by_itself():
    """One rule for every chart that colours by model: :func:`charts.series_encodings`."""
    folder = Path(charts.__file__).parent
    for path in folder.glob("*.py"):
        if path.name == "_common.py":
            continue
        src = path.read_text()
        assert not re.search(r'Color\(\s*"model', src), path.name
        assert "category20" not in src, path.name


# 2. rank bump chart -------------------------------------------------------------------


def _bump9() -> pd.DataFrame:
    names = ["gemini-1.5-pro-preview-0409", "gpt-4", "mistral-large", "claude-3-opus-20240229",
             "cohere-command-r-plus", "gemini-1.0-pro", "gpt-35-turbo", "llama-2-70b-chat",
             "llama-2-7b-chat"]
    return pd.DataFrame({"Binary Bayes@N": range(1, 10), "Concise correct":
                         [1, 4, 2, 3, 5, 6, 7, 8, 9]}, index=names)


def test_bump_chart_rank_axis_is_every_rank_on_its_row():
    spec = charts.rank_bump_chart(_bump9()).to_dict()
    for layer in spec["layer"]:
        y = layer["encoding"]["y"]
        assert y["scale"]["domain"] == [1, 9] and y["scale"]["reverse"] is True
        axis = y["axis"]
        assert axis["values"] == list(range(1, 10)) and axis["format"] == "d"
        # not flush-shifted off their lines (Streamlit's theme), never thinned
        assert axis["labelFlush"] is False and axis["labelOverlap"] is False
    # a row of ROW_PX per rank in the plot: "fit" in y squeezed 9 ranks into ~100 px
    assert spec["height"] == charts.ROW_PX * 9
    assert spec["autosize"] == {"type": "fit-x", "contains": "padding"}
    # the names right of the plot are marks, which "fit" leaves out: room kept for them
    assert spec["padding"]["right"] >= 6 * len("gemini-1.5-pro-preview-0409")


def test_bump_chart_rank_labels_sit_on_their_lines():
    svg = _svg(charts.rank_bump_chart(_bump9()).to_dict(), width=500)
    axis = svg[svg.find("Y-axis"):]
    axis = axis[axis.find("role-axis-label"):]
    axis = axis[: axis.find("</g>")]
    labels = {int(t): float(y) for y, t in re.findall(
        r'<text[^>]*transform="translate\([-\d.]+,([-\d.]+)\)"[^>]*>(\d+)</text>', axis)}
    lines = {}  # each line's first point: the rank under the first scheme
    for label, y in re.findall(r'<path aria-label="([^"]*)"[^>]*aria-roledescription="line mark"'
                               r' d="M[\d.]+,([\d.]+)', svg):
        fields = dict(f.split(": ", 1) for f in label.split("; "))
        rank = next(v for k, v in fields.items() if k.startswith("rank"))
        lines[int(rank)] = float(y)
    assert sorted(labels) == sorted(lines) == list(range(1, 10))
    offsets = [labels[r] - lines[r] for r in range(1, 10)]  # the text baseline's offset
    assert max(offsets) - min(offsets) < 1, offsets
    gaps = np.diff([labels[r] for r in range(1, 10)])
    assert gaps.min() >= 14  # 12 px type: "8" and "9" no longer overlap


def _end_label_texts(svg: str) -> list[tuple[tuple[str, str], str]]:
    """``((x, y), text)`` of every text mark of the chart (not the axes' labels)."""
    marks = svg[svg.find('aria-roledescription="text mark container"'):]
    return [((x, y), t) for x, y, t in re.findall(
        r'<text[^>]*transform="translate\(([-\d.]+),([-\d.]+)\)"[^>]*>([^<]*)</text>', marks)]


def test_bump_chart_tied_models_share_one_end_label():
    """Two models tied at the last rank had their names drawn over each other."""
    ranks = _bump9()
    ranks["Concise correct"] = [1, 4, 2, 3, 5, 5, 7, 8, 8]  # competition ranks, two ties
    svg = _svg(charts.rank_bump_chart(ranks).to_dict(), width=500)
    texts = _end_label_texts(svg)
    positions = [xy for xy, _ in texts]
    assert len(positions) == len(set(positions)) == 7  # one label per rank held
    labels = [t for _, t in texts]
    assert "cohere-command-r-plus, gemini-1.0-pro" in labels
    assert "llama-2-70b-chat, llama-2-7b-chat" in labels
    named = [n for t in labels for n in t.split(", ")]
    assert sorted(named) == sorted(ranks.index)  # every model named once
    spec = charts.rank_bump_chart(ranks).to_dict()
    assert spec["padding"]["right"] >= 6 * len("cohere-command-r-plus, gemini-1.0-pro")
    # many models tied: as many names as fit, the rest counted (the tooltip lists them all)
    many = pd.DataFrame({"a": range(1, 9), "b": [1] + [2] * 7},
                        index=["first"] + [f"tied-model-{i}" for i in range(7)])
    ends = [t for _, t in _end_label_texts(_svg(charts.rank_bump_chart(many).to_dict(), 500))]
    assert ends[0] == "first" and ends[1].endswith(" more") and len(ends[1]) <= 46


def test_bump_chart_model_names_are_legible():
    """Pale pink and grey names (tableau20's light colours) were hard to read on white."""
    L = 20
    ranks = pd.DataFrame({"a": range(1, L + 1)}, index=[f"m{i}" for i in range(L)])
    labels = charts.rank_bump_chart(ranks).to_dict()["layer"][2]
    assert labels["mark"]["type"] == "text"
    fills = labels["encoding"]["fill"]["scale"]["range"]

    def contrast(hex_colour: str) -> float:
        rgb = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255
        lin = np.where(rgb <= 0.03928, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        return 1.05 / (float(lin @ [0.2126, 0.7152, 0.0722]) + 0.05)

    assert len(fills) == L and min(map(contrast, fills)) >= 4.5
    from scorio_core.charts import readable_colour

    assert readable_colour("#4c78a8") == "#4c78a8"  # a legible colour stays as it is


def _text_boxes(svg: str) -> dict[str, tuple[float, float, float, float]]:
    """Every text mark's ``(left, right, top, bottom)`` in the plot's pixels, its width
    bounded above by 0.65 em a character (wider than any sans-serif's digits and '=')."""
    marks = svg[svg.find('aria-roledescription="text mark container"'):]
    out = {}
    for tag, text in re.findall(r'(<text[^>]*aria-roledescription="text mark"[^>]*>)([^<]*)<',
                                marks):
        x, y = map(float, re.search(r"translate\(([-\d.]+),([-\d.]+)\)", tag).groups())
        size = float(re.search(r'font-size="([\d.]+)px"', tag).group(1))
        width = 0.65 * size * len(text)
        anchor = re.search(r'text-anchor="(\w+)"', tag).group(1)
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        out[text] = (left, left + width, y - size, y)
    return out


@pytest.mark.parametrize(("upper", "lower"), [(0.6213, 0.608), (0.7, 0.6), (0.9, 0.5)])
def test_correct_order_threshold_labels_never_overlap(upper, lower):
    """The Simulator's order chart labelled both z lines at the left edge: with a pair far
    apart (z runs to tens) 1.645 and 1.96 lie a pixel apart and "z = 1.645" and "z = 1.96"
    were drawn over each other. Each label now sits at its own end of the panel. The
    P(correct order) axis runs from a coin flip (0.50) to certainty (1.00)."""
    from scorio_core.simulate import correct_order

    r = correct_order(upper, lower, n_values=(10, 100, 400), n_sims=40, seed=0)
    svg = _svg(charts.correct_order_chart(r).to_dict())
    boxes = _text_boxes(svg)
    assert sorted(boxes) == ["z = 1.645", "z = 1.96"]
    (l1, r1, t1, b1), (l2, r2, t2, b2) = boxes["z = 1.645"], boxes["z = 1.96"]
    assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, boxes
    panel = 330  # the z panel's width: both labels inside it
    assert all(0 <= left and right <= panel for left, right, _, _ in boxes.values()), boxes
    # a pair ordered right in every dataset drew an axis of one tick, "100.000000%"
    ticks = _axis_labels(svg)["Y-axis titled 'P(correct order)'"]
    assert len(ticks) >= 3 and all(re.fullmatch(r"[01]\.\d\d", t) for t in ticks), ticks
    assert ticks[-1] == "1.00" and float(ticks[0]) <= 0.5


# 3. convergence at small N ------------------------------------------------------------


def _pmf(N: int) -> pd.DataFrame:
    n = np.arange(1, N)
    return pd.DataFrame({"method": np.repeat(["bayes", "pass_at_k_2"], N - 1),
                         "n": np.tile(n, 2), "p": np.tile(np.linspace(0.3, 0.1, N - 1), 2)})


@pytest.mark.parametrize("N", [3, 4, 8, 21])
def test_convergence_steps_have_a_tick_per_n_and_a_visible_last_step(N):
    pmf = _pmf(N)
    cdf = pmf.assign(cdf=pmf.groupby("method")["p"].cumsum()).drop(columns="p")
    for chart, col in ((charts.convergence_pmf(pmf), "p"), (charts.convergence_cdf(cdf), "cdf")):
        spec = chart.to_dict()
        layer = spec["layer"][0] if "layer" in spec else spec
        x = layer["encoding"]["x"]
        # every trial count has its tick; tickMinStep 0 as Vega-Lite's 1 for format "d" made
        # the app's Vega thin the three ticks of N = 4 to 1 and 3
        assert x["axis"]["values"] == list(range(1, N)) and x["axis"]["tickMinStep"] == 0
        assert x["scale"]["domain"] == [0.5, N - 0.5]
        (values,) = spec["datasets"].values()
        d = pd.DataFrame(values)
        for _, g in d.groupby("method"):
            # each step from n - 0.5 to n + 0.5: the last one is a trial wide, not a point
            assert g["x"].tolist() == [k - 0.5 for k in range(1, N + 1)]
            assert g[col].iloc[-1] == g[col].iloc[-2]


def test_rank_trajectory_has_whole_ranks_and_a_visible_last_trial():
    traj = np.array([[1, 3, 2, 4], [1, 3, 2, 4], [1, 2, 3, 4], [1, 2, 3, 4]])
    spec = charts.rank_trajectory_chart(traj, list("abcd"), 3).to_dict()
    y = spec["layer"][0]["encoding"]["y"]
    assert y["axis"]["values"] == [1, 2, 3, 4] and y["scale"]["reverse"] is True  # no 1.5
    x = spec["layer"][0]["encoding"]["x"]
    assert x["axis"]["values"] == [1, 2, 3, 4] and x["scale"]["domain"] == [0.5, 4.5]


# 4. stability -------------------------------------------------------------------------


def test_stability_bars_and_axis_stay_within_tau_bounds():
    """A mean of 0.865 ± 0.187 drew a bar to 1.05 on an axis to 1.20; τ_b ≤ 1."""
    cls = pd.DataFrame({"methods": ["avg, bayes", "borda", "elo"], "mean": [0.865, 0.6, -0.7],
                        "sd": [0.187, 0.5, 0.6]})
    spec = charts.stability_chart({"vs gold": cls, "vs itself": cls}).to_dict()
    (values,) = spec["datasets"].values()
    d = pd.DataFrame(values)
    assert d["hi"].max() == 1.0 and d["lo"].min() == -1.0
    assert (d["lo"] <= d["mean"]).all() and (d["mean"] <= d["hi"]).all()
    assert d.set_index("class").loc["avg, bayes", "sd"].tolist() == [0.187, 0.187]  # as given
    for layer in spec["layer"]:
        domain = layer["encoding"]["x"]["scale"]["domain"]
        assert domain[1] == 1.0 and domain[0] >= -1.0
    assert "±1" in charts.STABILITY_CAPTION and "\n" not in charts.STABILITY_CAPTION


# 5. half-width columns ----------------------------------------------------------------


def _half_column_pair() -> tuple[dict, dict]:
    names = ("no response", "wrong", "correct ∧ long", "correct")
    R = np.random.default_rng(2).integers(0, 4, (9, 40, 8))
    models = [f"{m}-model" for m in ("gemini-1.5-pro-preview", "gpt-4", "mistral-large",
                                     "claude-3-opus", "cohere-command-r", "gemini-1.0-pro",
                                     "gpt-35-turbo", "llama-2-70b-chat", "llama-2-7b-chat")]
    o = Outcomes(R, models=models, weights=[0, 0, 0.8, 1], category_names=names)
    return charts.category_bars(o).to_dict(), charts.forest_plot(leaderboard(o)).to_dict()


def test_side_by_side_legend_and_axis_title_are_no_wider_than_the_chart():
    """The Rubric builder's row of two cut "(questions scop" and "3: correc…": the legend
    and the axis title ran past the plot's right edge. Neither may widen the chart."""
    bars, forest = _half_column_pair()
    without_legend = copy.deepcopy(bars)
    without_legend["encoding"]["color"]["legend"] = None
    full = _svg(bars, HALF_COLUMN_PLOT_PX, pad=True)
    assert _svg_width(full) <= _svg_width(_svg(without_legend, HALF_COLUMN_PLOT_PX, pad=True))
    assert "3: correct (w=1)" in full and "…" not in full
    untitled = copy.deepcopy(forest)
    for layer in untitled["layer"]:
        layer["encoding"].get("x", {}).pop("title", None)
    titled = _svg(forest, HALF_COLUMN_PLOT_PX, pad=True)
    assert _svg_width(titled) <= _svg_width(_svg(untitled, HALF_COLUMN_PLOT_PX, pad=True))
    assert ">(questions scope)<" in titled


# 6. the Pass curves within the page column --------------------------------------------


#: The app's page column in an 800 px window (sidebar open): the audit's narrow window.
NARROW_COLUMN_PX = 450


def _stretched(spec: dict, column_px: int) -> dict:
    """``spec`` as Streamlit 1.67 draws it with ``width="stretch"`` in a ``column_px`` column:
    the server adds an ``autosize`` only where the spec has none (``pad`` for a vertical
    concatenation of layers, ``fit`` otherwise); the browser sets the width, and that of each
    panel of a vertical concatenation."""
    d = copy.deepcopy(spec)
    if "autosize" not in d:
        nested = any(k in p for p in d.get("vconcat", []) for k in ("layer", "hconcat", "concat"))
        d["autosize"] = {"type": "pad" if nested else "fit", "contains": "padding"}
    d["width"] = column_px
    for panel in d.get("vconcat", []):
        if not any(k in panel for k in ("hconcat", "vconcat", "concat", "facet", "repeat")):
            panel["width"] = column_px
    return d


@pytest.mark.parametrize("column_px", [PAGE_COLUMN_PX, NARROW_COLUMN_PX])
@pytest.mark.parametrize("kinds", [("pass", "hat"), ("pass", "hat", "g")])
def test_pass_curves_fit_the_page_column(kinds, column_px):
    """At an 800 px window the two 300 px panels side by side (~760 px) ran past the ~450 px
    column and cut the Pass^k panel. Now the panels are stacked, each the column's width,
    with axes and legend fitted inside it."""
    curves = pass_curves(_outcomes(20), kinds=kinds, tau=0.5 if "g" in kinds else None)
    spec = charts.pass_curve_chart(curves).to_dict()
    assert len(spec["vconcat"]) == len(kinds)
    assert spec["autosize"] == {"type": "fit-x", "contains": "padding"}
    svg = _svg(_stretched(spec, column_px))
    assert _svg_width(svg) <= column_px
    for name in ("LLM_1", "LLM_20"):  # every legend entry in full
        assert f">{name}<" in svg
    assert "…" not in svg
    # a file (report, SVG download) has no container: the panels' own width
    assert _svg_width(_svg(spec, pad=True)) <= PAGE_COLUMN_PX


def test_pass_curve_legend_fits_a_narrow_column_with_long_names():
    names = ["gemini-1.5-pro-preview-0409", "claude-3-opus-20240229", "gpt-4", "llama-2-7b"]
    o = _outcomes(4)
    o = Outcomes(o.R, models=names)
    spec = charts.pass_curve_chart(pass_curves(o)).to_dict()
    legend = _line_layer(spec)["encoding"]["color"]["legend"]
    assert legend["orient"] == "bottom" and legend["columns"] == 1
    svg = _svg(_stretched(spec, NARROW_COLUMN_PX))
    assert _svg_width(svg) <= NARROW_COLUMN_PX
    assert all(f">{n}<" in svg for n in names)
    short = charts.pass_curve_chart(pass_curves(_outcomes(11))).to_dict()
    legend = _line_layer(short)["encoding"]["color"]["legend"]
    assert legend["columns"] == 3  # "LLM_11": three to a row fit 450 px


def test_one_pass_curve_follows_its_container():
    spec = charts.pass_curve_chart(pass_curves(_outcomes(4), kinds=("pass",))).to_dict()
    assert spec.get("width") == "container" and "concat" not in spec


def _drawn_curves(svg: str, mark: str) -> list[list[dict]]:
    """Per panel of a Pass-curve SVG, each ``mark`` ("area" or "line") path drawn: its model,
    colour and opacity (and stroke width), in drawing order."""
    panels: dict[str, list[dict]] = {}
    groups = re.findall(rf'<g class="mark-{mark} role-mark (\S*marks)"', svg)  # one a panel
    blocks = re.split(rf'(?=<g class="mark-{mark} role-mark )', svg)[1:]
    assert len(groups) == len(blocks)
    for panel, block in zip(groups, blocks, strict=True):
        for attrs in re.findall(r"<path ([^>]*)/>", block[:block.find("</g>")]):
            get = dict(re.findall(r'([\w-]+)="([^"]*)"', attrs))
            model = re.search(r"model: ([^;\"]+)", get.get("aria-label", "")).group(1)
            panels.setdefault(panel, []).append({
                "model": model, "colour": get.get("fill", get.get("stroke")),
                "opacity": float(get.get("opacity", get.get("stroke-opacity", 1))),
                "width": float(get.get("stroke-width", 0))})
    return list(panels.values())


@pytest.mark.parametrize("L", [16, 30])
def test_pass_curves_with_many_models_stay_readable(L):
    """The audit's 16 × 15 × 4 upload drew 16 overlapping bands (one grey mass) in 16 colours
    no reader could match to the legend. As drawn in a file (report, SVG) -- the view no
    click changes -- only the models among the best five at some k have a colour and a
    band (at most eight); the others are thin grey lines without one, each still in the
    legend."""
    from scorio_core.charts import OTHER_COLOUR
    from scorio_core.charts.questions import HIGHLIGHTED, MOST_HIGHLIGHTED

    rng = np.random.default_rng(3)
    correct = rng.choice(np.arange(3, 58), L, replace=False)  # of 60: no two models tie
    R = np.stack([rng.permutation(np.arange(60) < c).reshape(15, 4) for c in correct])
    o = Outcomes(R.astype(int), models=[f"model_{i:02d}" for i in range(L)])
    curves = pass_curves(o)
    ranked = [o.models[i] for i in np.argsort(-correct)]
    assert charts.ranked_models(curves) == ranked
    best = set(charts.highlighted_models(curves))
    assert set(ranked[:HIGHLIGHTED]) <= best and len(best) <= MOST_HIGHLIGHTED
    svg = _svg(charts.pass_curve_chart(curves).to_dict(), pad=True)
    bands, lines = _drawn_curves(svg, "area"), _drawn_curves(svg, "line")
    assert len(bands) == len(lines) == 2  # Pass@k, Pass^k
    for band, line in zip(bands, lines, strict=True):
        assert {b["model"] for b in band if b["opacity"] > 0} == best
        assert len({ln["model"] for ln in line}) == L  # every model still drawn
        top = {ln["colour"] for ln in line if ln["model"] in best}
        assert len(top) == len(best) and OTHER_COLOUR not in top  # told apart
        rest = [ln for ln in line if ln["model"] not in best]
        assert {ln["colour"] for ln in rest} == {OTHER_COLOUR}
        assert max(ln["width"] for ln in rest) < min(
            ln["width"] for ln in line if ln["model"] in best)
        # the coloured lines are drawn last, over the grey ones
        assert {ln["model"] for ln in line[-len(best):]} == best
    assert all(f">{m}<" in svg for m in o.models)  # the legend names every line
    assert "…" not in svg


def _crossing(late: list[int], steady: list[int], Q: int = 15, N: int = 4) -> Outcomes:
    """Models whose order at k = 1 is not their order at k = N: a "steady" model solves its
    first ``c`` questions in every trial (the same value at every k); a "late" one solves its
    first ``c`` questions once in N trials (c / (Q N) at k = 1, c / Q at k = N)."""
    q = np.arange(Q)[:, None]
    rows = [np.repeat(q < c, N, axis=1) for c in steady]
    rows += [(q < c) & (np.arange(N)[None, :] == q % N) for c in late]
    names = [f"steady_{i}" for i in range(len(steady))] + [f"late_{j}" for j in range(len(late))]
    return Outcomes(np.stack(rows).astype(int), models=names)


def _top_places(curves, n: int) -> dict[tuple, set[str]]:
    """The ``n`` models with the highest values at each (curve, k)."""
    out = {}
    for key, g in curves.table.groupby(["curve", "k"]):
        v = g.sort_values("value", ascending=False)["value"].to_numpy()
        assert v[n - 1] > v[n] + 1e-9, key  # the construction has no tie at the boundary
        out[key] = set(g.nlargest(n, "value")["model"].astype(str))
    return out


def test_pass_curves_colour_the_top_of_the_chart_at_every_k():
    """The best five at k = 1 alone were coloured: on the bundled data two grey models
    crossed above the fifth coloured one from k = 4, so grey lines ran along the top of the
    Pass@k panel. 16 models × 15 questions × 4 trials where the best five at k = 1 (steady
    ones) are not the best five at k = 4 (three late ones rise above): every model among
    the five highest at some k is drawn in colour with its band, and nothing else."""
    from scorio_core.charts import OTHER_COLOUR
    from scorio_core.definitions import ANALYSES

    o = _crossing(late=[15, 14, 13, 2, 1, 0], steady=list(range(12, 2, -1)))
    curves = pass_curves(o)
    top = _top_places(curves, 5)
    assert top[("Pass@k", 1)] != top[("Pass@k", 4)]  # the leaders change with k
    assert top[("Pass@k", 4)] - top[("Pass@k", 1)] == {"late_0", "late_1", "late_2"}
    shown = set().union(*top.values())
    assert charts.highlighted_models(curves) == [m for m in charts.ranked_models(curves)
                                                 if m in shown]
    assert len(shown) == 8
    svg = _svg(charts.pass_curve_chart(curves).to_dict(), pad=True)
    for band, line in zip(_drawn_curves(svg, "area"), _drawn_curves(svg, "line"), strict=True):
        colour = {ln["model"]: ln["colour"] for ln in line}
        assert {m for m, c in colour.items() if c != OTHER_COLOUR} == shown
        assert len({colour[m] for m in shown}) == len(shown)  # told apart
        assert {b["model"] for b in band if b["opacity"] > 0} == shown
    caption = ANALYSES["curves"].charts(
        ANALYSES["curves"].run(o, ANALYSES["curves"].params()))[0].caption
    assert "in colour the 8 models that are among the 5 best at some k, in grey the other 8" \
        in caption


def test_pass_curves_colour_at_most_eight_the_highest_places_first():
    """Ten models reach the best five at some k (five steady ones at k = 1, five late ones
    at k = 4): eight are coloured, those that reach the highest places, so the four highest
    lines are coloured at every k; the caption says the cap."""
    from scorio_core.charts import OTHER_COLOUR
    from scorio_core.charts.questions import MOST_HIGHLIGHTED

    o = _crossing(late=[16, 15, 14, 13, 12], steady=[11, 9, 6, 6, 5, 4, 2, 2], Q=16)
    curves = pass_curves(o)
    assert len(set().union(*_top_places(curves, 5).values())) == 10
    shown = charts.highlighted_models(curves)
    assert len(shown) == MOST_HIGHLIGHTED == 8
    assert set(shown) == {f"steady_{i}" for i in range(4)} | {f"late_{j}" for j in range(4)}
    assert all(t <= set(shown) for t in _top_places(curves, 4).values())
    svg = _svg(charts.pass_curve_chart(curves).to_dict(), pad=True)
    for line in _drawn_curves(svg, "line"):
        assert {ln["model"] for ln in line if ln["colour"] != OTHER_COLOUR} == set(shown)
    assert charts.highlight_note(curves) == (
        "in colour the 8 models that reach the highest places at some k (of the 10 among "
        "the 5 best at some k; at most 8 in colour), in grey the other 5")


def test_pass_curves_of_a_few_models_colour_and_band_each():
    svg = _svg(charts.pass_curve_chart(pass_curves(_outcomes(4))).to_dict(), pad=True)
    for band, line in zip(_drawn_curves(svg, "area"), _drawn_curves(svg, "line"), strict=True):
        assert len(band) == 4 and all(b["opacity"] > 0 for b in band)
        assert len({ln["colour"] for ln in line}) == 4


@pytest.mark.parametrize("kinds", [("pass",), ("pass", "hat", "g")])
def test_pass_curves_click_or_legend_shows_any_model(kinds):
    """Where the chart is interactive (app, notebook), a click on a legend entry or on a line
    chooses models for the lines of every panel, which gives the chosen models a band and
    fades the others. Two selections: one bound to the legend as well as to clicks on the
    lines stopped answering legend clicks in stacked panels (seen in the app's browser)."""
    from scorio_core.charts.questions import CHOSEN_GREY, FOCUS, FOCUS_CLICK

    curves = pass_curves(_outcomes(12), kinds=kinds, tau=0.5 if "g" in kinds else None)
    spec = charts.pass_curve_chart(curves).to_dict()
    legend, click = spec["params"]
    assert legend["name"] == FOCUS and legend["bind"] == "legend"
    assert "on" not in legend["select"]  # legend clicks only
    assert click["name"] == FOCUS_CLICK and "bind" not in click
    assert click["select"]["on"] == "click" and click["select"]["clear"] == "dblclick"
    assert legend["select"]["fields"] == click["select"]["fields"] == ["model"]
    panels = spec.get("vconcat", [spec])
    assert len(panels) == len(kinds)
    names = [next(layer["name"] for layer in p["layer"] if "name" in layer) for p in panels]
    assert sorted(legend["views"]) == sorted(click["views"]) == sorted(names)
    assert len(set(names)) == len(kinds)
    # as drawn once a grey model (the 12th) is chosen in the legend and a coloured one (the
    # 2nd) by a click on its line: those two alone have bands and full lines, the grey one
    # in dark grey; nothing else stands out
    ranked = charts.ranked_models(curves)
    assert ranked[-1] not in charts.highlighted_models(curves)
    chosen = {ranked[-1], ranked[1]}
    legend["value"], click["value"] = [{"model": ranked[-1]}], [{"model": ranked[1]}]
    svg = _svg(spec, pad=True)
    for band, line in zip(_drawn_curves(svg, "area"), _drawn_curves(svg, "line"), strict=True):
        assert {b["model"] for b in band if b["opacity"] > 0} == chosen
        full = {ln["model"]: ln for ln in line if ln["opacity"] == 1}
        assert set(full) == chosen
        assert full[ranked[-1]]["colour"] == CHOSEN_GREY != full[ranked[1]]["colour"]
        assert all(ln["width"] < full[ranked[-1]]["width"] for ln in line
                   if ln["model"] not in chosen)


def _heatmap_drawn(svg: str) -> tuple[float, list[tuple[float, float, float]], list[float]]:
    """A pairwise heatmap as drawn: the left edge of its plot in the SVG, its cells' ``(x,
    width, height)`` (x from the plot's left) and the type size of each number in a cell."""
    left = float(re.search(r'<g fill="none"[^>]*transform="translate\(([-\d.]+),', svg)[1])
    cells = [(float(x), float(w), float(h)) for x, w, h in re.findall(
        r'aria-roledescription="rect mark" d="M([\d.]+),[\d.]+h([\d.]+)v([\d.]+)', svg)]
    fonts = [float(f) for f in re.findall(  # ">.9999" is "&gt;.9999" in SVG
        r'font-size="([\d.]+)px"[^>]*>(?:(?:&[gl]t;)?\.\d{4}|1\.0000)<', svg)]
    return left, cells, fonts


@pytest.mark.parametrize("column_px", [PAGE_COLUMN_PX, NARROW_COLUMN_PX])
@pytest.mark.parametrize("L", [3, 8, 11, 12])
def test_pairwise_heatmap_fits_the_column_it_is_drawn_in(L, column_px):
    """The pairwise-probability heatmap had 44 px cells for up to 12 models and its legend
    beside the grid: 11 models drew 729 px, cut off in the ~450 px page column of an 800 px
    window. Then its cells were sized in Python for that column whatever the window, so the
    9-model data's cells were 22 px without numbers at 1280 px. It is now as wide as its
    column, its square cells (14-44 px) sharing the width the chart is drawn at, and its
    legend sits below the grid."""
    from scorio_core.charts.leaderboard import HEATMAP_MAX_CELL

    o = _outcomes(L)
    spec = charts.confidence_heatmap(leaderboard(o)).to_dict()
    assert spec["width"] == "container" and spec["autosize"]["type"] == "fit-x"
    svg = _svg(spec, column_px)
    assert _svg_width(svg) <= column_px
    assert all(f">{m}<" in svg for m in o.models) and "…" not in svg
    left, cells, _ = _heatmap_drawn(svg)
    decided = sum(r["decided"] for r in spec["datasets"][spec["data"]["name"]])
    assert len(cells) == L * (L - 1) + decided  # the grid's cells and the decided' outlines
    side = {round(w, 6) for _, w, _ in cells} | {round(h, 6) for _, _, h in cells}
    (cell,) = side  # every cell square, one size
    assert 18 <= cell <= HEATMAP_MAX_CELL
    assert left + max(x + w for x, w, _ in cells) <= column_px + 0.5  # the grid within it
    if L <= 3 or column_px == PAGE_COLUMN_PX:
        assert cell == HEATMAP_MAX_CELL  # room to spare: the largest cells, not wider ones
    # a cell's side and the grid's height follow the width (a narrower column: smaller)
    height = float(re.search(r'<svg[^>]* height="([\d.]+)"', svg)[1])
    wide = _svg(spec, PAGE_COLUMN_PX)
    if column_px == NARROW_COLUMN_PX and L > 8:
        assert float(re.search(r'<svg[^>]* height="([\d.]+)"', wide)[1]) > height


def test_pairwise_heatmap_cells_read_in_one_format_and_its_caption_says_how_pairs_are_decided():
    """The heatmap mixed ".59" and ".997" in its cells, and a cell near 1 could read "1.000"
    undecided while a lower model's cell against the same opponent was decided (Holm over
    120 pairs): every number has the four decimals the tables give the same P (``p_better``,
    ">.9999" where it would round to 1; a cell's ".944" had sat beside the undecided-pairs
    table's 0.9438), and the caption says the decisions are the multiplicity-controlled ones,
    not a threshold on P."""
    from scorio_core.charts.leaderboard import heatmap_label
    from scorio_core.definitions.leaderboard import chart_captions
    from scorio_core.formatting import column_texts

    rng = np.random.default_rng(0)
    R = (rng.random((16, 15, 4)) < np.linspace(0.8, 0.2, 16)[:, None, None]).astype(int)
    board = leaderboard(R)
    spec = charts.confidence_heatmap(board).to_dict()
    cells = [r["label"] for r in spec["datasets"][spec["data"]["name"]]
             if r["label"]]
    assert cells and all(re.fullmatch(r"[<>]?\.\d{4}|1\.0000", c) for c in cells), cells
    P, D = np.asarray(board.prob_better), np.asarray(board.decided)
    undecided = P[~(D | D.T) & ~np.eye(16, dtype=bool)]
    assert ((undecided > 0.9985) & (undecided < 1)).any()  # a P near 1 left undecided...
    assert any(c.startswith(".999") for c in cells)  # ...reads apart from an even pair
    assert ((undecided > 0.005) & (undecided < 0.995)).any()
    assert [heatmap_label(p) for p in (0.59, 0.997, 0.99997, 2e-5)] == [
        ".5900", ".9970", ">.9999", "<.0001"]
    # each cell as the tables print that pair's P, the leading 0 left out to fit the cell
    unresolved = board.unresolved()
    assert len(unresolved)
    for row, text in zip(unresolved.itertuples(), column_texts(unresolved, "p_better"),
                         strict=True):
        i, j = board.models.index(row.better), board.models.index(row.next)
        assert heatmap_label(board.prob_better[i, j]) == text.replace("0.", ".", 1)
    caption = chart_captions(board)[1]
    assert "multiplicity control holm over all 120 pairs" in caption
    assert "not a threshold on P" in caption and "can stay undecided" in caption
    none = chart_captions(leaderboard(R, adjust="none"))[1]
    assert "each pair on its own" in none and "multiplicity" not in none



@pytest.mark.parametrize("column_px", [PAGE_COLUMN_PX, 564, NARROW_COLUMN_PX])
def test_the_heatmap_offers_its_tooltip_only_where_its_cells_carry_no_numbers(column_px):
    """In an 800 px window the bundled data's heatmap has 26 px cells, too small for the
    tables' four decimals (".9438"), and draws no numbers; but its caption said at every
    width "... where the chart leaves a cell room for a readable number (a narrow chart or
    many models leave none) ... Hover a cell for its P.", numbers in the cells or not. The
    caption now says what holds at any width; the chart, which alone knows the width it is
    drawn at, writes under its legend that its cells are too small for their numbers -- and,
    drawn live, to hover a cell -- only where it draws none, the numbers it draws in the
    tables' four decimals. A picture of it (the reports, the SVG and PNG files) never says
    hover. With every pair decided no cell has a number: live, the tooltip alone."""
    from scorio_core import io
    from scorio_core.charts.leaderboard import heatmap_label
    from scorio_core.definitions.leaderboard import LEADERBOARD, LeaderboardResult
    from scorio_core.report import chart_svg

    o = io.load(Path(__file__).resolve().parents[1] / "data" / "jhu_llm_temperature.parquet")
    board = leaderboard(o)
    heat = LEADERBOARD.charts(LeaderboardResult(board, o.N))[1]
    assert heat.interactive is None and "hover" not in heat.live_caption.lower()
    assert "leave none" not in heat.caption and "numbered with their P" in heat.caption
    spec = heat.chart.to_dict()
    drawn = html.unescape(_svg(spec, column_px))
    _, cells, fonts = _heatmap_drawn(drawn)
    numbered = column_px != NARROW_COLUMN_PX  # 44 and ~39 px cells; 26 px at 800 px
    assert bool(fonts) == numbered, (column_px, cells[0], fonts)
    said = "Too small here for the cells' numbers"
    if numbered:  # each number as the pairs table prints that P, the leading 0 left out
        texts = re.findall(r'font-size="[\d.]+px"[^>]*>([^<]*\.\d{4})<', drawn)
        i, j = board.models.index("claude-3-opus-20240229"), board.models.index("gpt-4")
        assert heatmap_label(board.prob_better[i, j]) == ".9438" and ".9438" in texts, texts
        assert said not in drawn and "hover" not in drawn.lower()
    else:
        assert f"{said}: hover a cell for its P." in drawn
    # a picture says why its cells carry no numbers where they carry none, never "hover"
    # (without the app's theme, smaller labels leave its cells more of the width)
    for width in (column_px, 300):
        picture = html.unescape(chart_svg(heat.chart, width=width))
        _, _, fonts = _heatmap_drawn(picture)
        assert "hover" not in picture.lower()
        assert (f"{said}." in picture) == (not fonts), width
    assert not fonts  # at 300 px: none fit
    # every pair decided: no numbers to show at any width; live, the tooltip alone
    R = (np.random.default_rng(1).random((3, 200, 8)) < np.array([0.9, 0.5, 0.1])[:, None,
                                                                  None]).astype(int)
    decided = leaderboard(R)
    spec = charts.confidence_heatmap(decided).to_dict()
    assert not any(r["label"] for r in spec["datasets"][spec["data"]["name"]])
    drawn = html.unescape(_svg(spec, column_px))
    assert "Hover a cell for its P." in drawn and said not in drawn
    picture = html.unescape(chart_svg(charts.confidence_heatmap(decided), width=column_px))
    assert "hover" not in picture.lower() and said not in picture

def _svg_height(svg: str) -> float:
    return float(re.search(r'<svg[^>]* height="([\d.]+)"', svg).group(1))


def test_the_heatmap_keeps_no_blank_line_under_its_legend():
    """The heatmap's line under its legend ("Too small here for the cells' numbers ...") is
    empty where its cells carry their numbers, and Vega kept the line and its offset for
    the empty text: a blank strip under the legend (23 px, on the Leaderboard page too)
    before the caption. Empty, it takes no room: the chart is as tall as without the line;
    where the line says something, it is drawn whole below the legend."""
    from scorio_core import io
    from scorio_core.charts.leaderboard import HEATMAP_NOTE

    o = io.load(Path(__file__).resolve().parents[1] / "data" / "jhu_llm_temperature.parquet")
    spec = charts.confidence_heatmap(leaderboard(o)).to_dict()
    assert spec["title"]["text"] == {"expr": HEATMAP_NOTE}
    bare = copy.deepcopy(spec)
    del bare["title"]
    said = "Too small here for the cells' numbers: hover a cell for its P."
    for width, numbered in ((PAGE_COLUMN_PX, True), (NARROW_COLUMN_PX, False)):
        drawn, without = _svg(spec, width), _svg(bare, width)
        assert bool(_heatmap_drawn(drawn)[2]) == numbered, width
        note = re.findall(r'role-title-text.*?<text[^>]*>([^<]*)<', drawn, re.S)
        if numbered:  # no line: no room for one
            assert [html.unescape(t) for t in note] in ([], [""]), note
            assert _svg_height(drawn) == _svg_height(without), width
        else:  # the line, below everything else: one line of 12 px type, offset by 12 px
            assert [html.unescape(t) for t in note] == [said]
            extra = _svg_height(drawn) - _svg_height(without)
            assert 12 < extra < 2 * (12 + 12), extra


_LONG_NAMES = ["alpha-7b", "Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview-very-long-name",
               "模型-中文-大", "beta-13b-chat", "gamma-all-wrong", "δ-Ω-unicode-mini"]


def _text_layers(spec: dict) -> list[dict]:
    return [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]


@pytest.mark.parametrize("column_px", [PAGE_COLUMN_PX, NARROW_COLUMN_PX])
@pytest.mark.parametrize("models", [_LONG_NAMES, [f"LLM_{i + 1}" for i in range(20)],
                                    ["a", "bb", "ccc", "dddd"]],
                         ids=["long name", "20 models", "4 short"])
def test_pairwise_heatmap_numbers_are_readable_or_absent_and_the_caption_says_which(
        models, column_px):
    """With 20 models the undecided cells' numbers were 8 px type in 18 px cells, and a long
    model name put the "row model" title through the row labels (Vega-Lite's 200 px reach of
    an axis). A cell's number is drawn at 11 px or more where it fits the cell drawn, else
    the cells carry none and the chart says so under its legend; the caption reads right
    either way; both axis titles stand beyond labels drawn to their longest (LABEL_LIMIT)."""
    from scorio_core.charts._common import LABEL_LIMIT, MIN_CELL_FONT
    from scorio_core.charts.leaderboard import _CELL_EM, _DIGIT_EM, heatmap_font
    from scorio_core.definitions.leaderboard import LEADERBOARD, LeaderboardResult, chart_captions

    R = (np.random.default_rng(0).random((len(models), 30, 4))
         < np.linspace(0.8, 0.3, len(models))[:, None, None]).astype(int)
    board = leaderboard(Outcomes(R, models=models))
    spec = charts.confidence_heatmap(board).to_dict()
    rows = spec["datasets"][spec["data"]["name"]]
    labels = [r["label"] for r in rows if r["label"]]
    assert labels and _text_layers(spec)  # undecided pairs to number, where they fit
    caption = chart_captions(board)[1]
    # the width decides, where the chart is drawn: the caption reads right either way
    assert "numbered with their P" in caption and "cells without an outline" in caption
    # the tooltip said by the chart itself, where its cells carry no numbers
    assert "hover" not in caption.lower() and "window" not in caption
    heat = LEADERBOARD.charts(LeaderboardResult(board, 4))[1]
    assert heat.caption == heat.live_caption == caption and heat.interactive is None
    svg = _svg(spec, column_px)
    assert _svg_width(svg) <= column_px
    _, cells, fonts = _heatmap_drawn(svg)
    cell = cells[0][1]
    widest = max(sum(_CELL_EM.get(c, _DIGIT_EM) for c in t) for t in labels)
    font = heatmap_font(int(cell), labels)  # the rule, at the cell as drawn
    note = html.unescape(svg)
    if font is None:
        assert fonts == [] and widest * MIN_CELL_FONT + 4 > int(cell)  # none would fit
        assert "Too small here for the cells' numbers: hover a cell for its P." in note
    else:
        assert len(fonts) == len(labels) and set(fonts) == {font}
        assert font >= MIN_CELL_FONT and widest * font + 4 <= cell, (font, cell)
        assert "Too small" not in note and "hover" not in note.lower()
    # a wide column numbers them all, and a narrow one the short names' 4 x 4, not 20 models'
    if column_px == PAGE_COLUMN_PX or len(models) == 4:
        assert fonts, cell
    if len(models) == 20 and column_px == NARROW_COLUMN_PX:
        assert not fonts, cell
    # the titles beyond the labels: the row title left of, the column title above, labels
    # up to LABEL_LIMIT px from their axis (STREAMLIT_THEME's 16 px padding before them)
    reach = STREAMLIT_THEME["axis"]["labelPadding"] + LABEL_LIMIT
    row_title = re.search(r'translate\(([-\d.]+),[-\d.]+\) rotate\(-90\)[^>]*>row model<', svg)
    column_title = re.search(r'translate\(([-\d.]+),([-\d.]+)\)"[^>]*>column model<', svg)
    assert float(row_title[1]) < -reach if len(models[1]) > 40 else float(row_title[1]) < 0
    assert float(column_title[2]) < -reach if len(models[1]) > 40 else True
    # the column title over the grid (not over the width it leaves), the legend's colour
    # bar no longer than the grid less its padding (its 200 px ran past a narrow column)
    grid = len(models) * cell
    assert float(column_title[1]) == pytest.approx(grid / 2, abs=1)
    bar = float(re.search(r'role-legend-gradient"[^>]*><path d="M0,0h([\d.]+)v', svg)[1])
    assert bar == pytest.approx(min(max(grid - 16, 100), 200), abs=0.5) and bar <= grid


def test_pairwise_heatmap_of_the_bundled_data_numbers_its_cells_at_1280_px():
    """The audit: at 1280 px the bundled 9-model real data's heatmap had 22 px cells and no
    numbers (its caption said hover), sized for an 800 px window's column. As wide as its
    column, its two undecided pairs are numbered in the 820 px column of a 1280 px window
    (and of a 1024 px one, 564 px), in 44 px (and ~39 px) cells. An 800 px window's column
    (450 px) gives 26 px cells, too narrow for the tables' four decimals at 11 px: no
    numbers there, and the chart says so under its legend (drawn live: hover a cell)."""
    from scorio_core import io
    from scorio_core.charts._common import MIN_CELL_FONT
    from scorio_core.charts.leaderboard import HEATMAP_MAX_CELL
    from scorio_core.definitions.leaderboard import chart_captions

    o = io.load(Path(__file__).resolve().parents[1] / "data" / "jhu_llm_temperature.parquet")
    assert o.L == 9
    board = leaderboard(o)
    spec = charts.confidence_heatmap(board).to_dict()
    labels = [r["label"] for r in spec["datasets"][spec["data"]["name"]] if r["label"]]
    assert len(labels) == 2  # gemini-1.5 vs claude-3-opus: undecided both ways
    for column_px in (PAGE_COLUMN_PX, 564, NARROW_COLUMN_PX):
        left, cells, fonts = _heatmap_drawn(_svg(spec, column_px))
        cell = cells[0][1]
        if column_px == NARROW_COLUMN_PX:
            assert fonts == [] and "hover a cell" in _svg(spec, column_px), (cell, fonts)
            assert "hover" not in chart_captions(board)[1]
        else:
            assert len(fonts) == 2 and min(fonts) >= MIN_CELL_FONT, (column_px, cell, fonts)
        assert left + 9 * cell <= column_px
        if column_px == PAGE_COLUMN_PX:
            assert cell == HEATMAP_MAX_CELL and min(fonts) > MIN_CELL_FONT


# 7. whole-number axes and legends that list what is drawn -----------------------------


def _axis_labels(svg: str) -> dict[str, list[str]]:
    """Each axis' title (or ``X``/``Y``) -> its tick labels as drawn, left to right."""
    out: dict[str, list[str]] = {}
    for part in svg.split('aria-roledescription="axis" aria-label="')[1:]:
        name = part[:part.find('"')].split(" for ")[0]
        start = part.find("role-axis-label")
        labels = [] if start < 0 else re.findall(r">([^<]*)</text>",
                                                 part[start:part.find("</g>", start)])
        out.setdefault(name, labels)
    return out


def _legend_labels(svg: str) -> list[str]:
    """The legend's labels as drawn (one group per entry of a symbol legend), a label on
    several lines (``<tspan>`` each) joined."""
    return [html.unescape(re.sub(r"<[^>]+>", "", t))
            for part in re.split(r'class="mark-text role-legend-label[^"]*"', svg)[1:]
            for t in re.findall(r"<text[^>]*>(.*?)</text>", part[:part.find("</g>")])]


#: The audit's upload: 60-70 character model names with letters beyond ASCII.
LONG_NAMES = ["Überlange-Modellbezeichnung-für-Tests-mit-Umlauten-äöü-und-ß-Version2",
              "模型名称非常长的测试模型-deepseek-reasoner-distill-qwen-32b-preview-2025",
              "café-résumé-naïve-long-model-name-with-accents-and-dashes-v3.1-chat",
              "Ωmega-λambda-μu-very-long-greek-model-name-experimental-checkpoint-7b"]


@pytest.mark.parametrize("column_px", [PAGE_COLUMN_PX, NARROW_COLUMN_PX])
def test_model_legends_show_long_unicode_names_whole(column_px):
    """The Pass curves' legend cut 60-70 character names to "Überlange-Modellbezeichnung-…"
    at 1280 px (``labelLimit`` 200), the rank trajectory's and the gap drivers' too: every
    legend that lists models shows each name whole, a long one on two lines, within the
    page column."""
    assert all(60 <= len(n) <= 70 for n in LONG_NAMES)
    o = Outcomes(_outcomes(4).R, models=LONG_NAMES)
    traj = np.array([[1, 2, 3, 4], [2, 1, 3, 4], [1, 2, 4, 3]])
    q = pd.DataFrame({"question": ["q1", "q2"], "diff": [0.5, -0.2]})
    q["contribution"] = q["diff"] / 2
    for chart, names in ((charts.pass_curve_chart(pass_curves(o)), LONG_NAMES),
                         (charts.rank_trajectory_chart(traj, LONG_NAMES, 2), LONG_NAMES),
                         (charts.gap_drivers(q, *LONG_NAMES[:2]), LONG_NAMES[:2])):
        spec = chart.to_dict()
        svg = _svg(_stretched(spec, column_px))
        assert _svg_width(svg) <= column_px
        if isinstance(spec.get("height"), int):  # the plot keeps its height, the legend below
            # (fitted to its height as well, the rank trajectory's plot was a 60 px strip)
            drawn = float(re.search(r'<svg[^>]* height="([\d.]+)"', svg).group(1))
            assert drawn >= spec["height"] + 100, (drawn, spec["height"])
        labels = _legend_labels(svg)
        assert sorted(labels) == sorted(names), labels
        assert "…" not in "".join(labels)
        assert svg.count("<tspan") >= 2 * len(names)  # each name on (at least) two lines
    # the gap drivers' axis title names both models: on lines, whole (one line ran past both
    # edges of the column and squeezed the bars into its middle)
    title = charts.gap_drivers(q, *LONG_NAMES[:2]).to_dict()["encoding"]["x"]["title"]
    assert isinstance(title, list) and len(title) > 1
    assert "".join(title) == (f"contribution to the mean difference ({LONG_NAMES[0]} − "
                              f"{LONG_NAMES[1]}): score difference / M")


def test_name_lines_give_the_name_back_within_the_line_width():
    from scorio_core.charts._common import _NAME_CHAR_PX
    from scorio_core.formatting import display_width

    for name in [*LONG_NAMES, "x" * 150, "a", "", "模" * 40, "a-" * 50]:
        lines = charts.name_lines(name)
        assert "".join(lines) == name
        assert all(display_width(t) * _NAME_CHAR_PX <= charts.NAME_LINE_PX
                   for t in lines), lines
    # broken after a separator where one fits, not inside a word
    assert charts.name_lines(LONG_NAMES[0])[0].endswith("-")


def _count_charts():
    """``(name, chart, axis title)`` of every chart with a count on an axis, at counts of a
    few: extra trials per question, N, plan sizes."""
    from scorio_core.planner import order_curve
    from scorio_core.simulate import correct_order

    for budget in (1, 2, 3):
        alloc = pd.DataFrame({"model": ["a", "b", "c"], "greedy_trials": [0, budget, 0],
                              "uniform_trials": [budget, 0, 0]})
        yield (f"allocation {budget}", charts.allocation_chart(alloc),
               "X-axis titled 'extra trials per question'")
    for ns in ([1, 2], [1, 2, 3], [2, 3, 4]):
        c = order_curve([0.7] * 5, [0.6] * 5, ns, sims=20)
        yield f"order {ns}", charts.order_curve_chart(c, 1.645), "X-axis titled 'trials per " \
            "question N'"
    for ns in ([2, 3], [2, 3, 4], [5, 8, 16, 32, 64], [21, 30, 42, 60, 85]):
        g = pd.DataFrame({"plan": ["trials"] * len(ns), "n": ns, "gap_now": 0.05,
                          "smallest_lead": np.linspace(0.3, 0.1, len(ns))})
        yield (f"gap {ns}", charts.gap_curve_chart(g),
               "X-axis titled 'trials per question (every model)'")
    r = correct_order(n_values=(1, 2, 3), n_sims=20, seed=0)
    yield "correct order 1-3", charts.correct_order_chart(r), "X-axis titled 'trials N'"


@pytest.mark.parametrize("name, chart, axis", list(_count_charts()),
                         ids=[c[0] for c in _count_charts()])
def test_count_axes_read_whole_numbers_each_once(name, chart, axis):
    """A budget of one extra trial read "0, 1, 1" on the Planner's split (ticks at 0, 0.5, 1
    printed as whole numbers); the order curve's N and the gap curve's log axis of plan
    sizes did the same at a few trials ("2, 2, 2, 3, 3")."""
    labels = _axis_labels(_svg(chart.to_dict()))[axis]
    counts = [int(v.replace(",", "")) for v in labels]  # whole numbers only
    assert len(counts) >= 2 and counts == sorted(set(counts)), (name, labels)


def test_gap_drivers_legend_lists_only_the_sides_drawn():
    """Only questions where ``a`` is ahead: the legend listed ``a``, ``b`` and "tie"."""
    q = pd.DataFrame({"question": [f"q{i}" for i in range(5)], "score_a": 0.9,
                      "score_b": [0.1, 0.2, 0.3, 0.4, 0.5]})
    q["diff"] = q["score_a"] - q["score_b"]
    q["contribution"] = q["diff"] / 5
    one = charts.gap_drivers(q, "strong", "weak")
    assert _legend_labels(_svg(one.to_dict())) == ["strong"]
    q.loc[4, ["score_b", "diff", "contribution"]] = [0.95, -0.05, -0.01]
    q.loc[3, ["score_b", "diff", "contribution"]] = [0.9, 0.0, 0.0]
    both = charts.gap_drivers(q, "strong", "weak")
    # a tie moves nothing: no empty bar, no "tie" in the legend
    assert _legend_labels(_svg(both.to_dict())) == ["strong", "weak"]
    # each side keeps its colour whatever else is drawn
    scale = {n: c.to_dict()["encoding"]["color"]["scale"] for n, c in (("one", one),
                                                                         ("both", both))}
    assert scale["one"]["range"] == scale["both"]["range"][:1]
    behind = q[q["diff"] != 0].assign(diff=lambda d: -d["diff"].abs(),
                                       contribution=lambda d: -d["contribution"].abs())
    weak = charts.gap_drivers(behind, "strong", "weak")
    assert _legend_labels(_svg(weak.to_dict())) == ["weak"]
    assert weak.to_dict()["encoding"]["color"]["scale"]["range"] == scale["both"]["range"][1:2]


def test_item_map_colour_legend_is_a_scale_when_every_question_agrees_alike():
    """Two models, one half right and one never right on every question: every point's
    disagreement is 0.5 and the legend read a single value. The scale runs from 0 (models
    agree) to the largest disagreement drawn."""
    from scorio_core.engines.questions import question_stats

    R = np.zeros((2, 12, 4), int)
    R[0, :, :2] = 1
    stats = question_stats(Outcomes(R))
    spec = charts.item_map(stats).to_dict()
    (values,) = spec["datasets"].values()
    assert len(values) == 12 and {v["disagreement"] for v in values} == {0.5}
    labels = [float(v) for v in _legend_labels(_svg(spec))]
    assert labels[0] == 0.0 and labels[-1] == 0.5 and len(labels) >= 3
    # no point left to draw (every question always wrong): the largest disagreement possible
    spec = charts.item_map(question_stats(Outcomes(np.zeros((2, 12, 4), int)))).to_dict()
    assert spec["encoding"]["color"]["scale"]["domain"] == [0.0, 1.0]


def _gap_questions(a_wins: int, b_wins: int, ties: int) -> pd.DataFrame:
    """A pair's questions table as the core orders it (the leader's largest push first):
    ``a`` wins ``a_wins`` questions by 0.1, ``b`` wins ``b_wins`` by 0.6, the rest tie."""
    from scorio_core import Outcomes
    from scorio_core.engines.pair import compare_pair

    M = a_wins + b_wins + ties
    R = np.zeros((2, M, 10), int)
    R[0, :a_wins, :6], R[1, :a_wins, :5] = 1, 1  # a ahead by 0.1
    R[0, a_wins:a_wins + b_wins, :2], R[1, a_wins:a_wins + b_wins, :8] = 1, 1  # b by 0.6
    R[:, a_wins + b_wins:, :5] = 1  # tied
    return compare_pair(Outcomes(R, models=["a", "b"]), "a", "b").questions


def test_gap_drivers_show_the_questions_the_other_model_wins_back():
    """The chart drew the first ``top`` rows of the table, which lists the leader's
    questions first: with 25 small wins of ``a`` and 3 large ones of ``b`` (the gap more
    than half won back) every bar was ``a``'s and the caption read it as a broad lead; at
    15 questions, 3 wins and 12 ties it drew 12 empty bars of "tie"."""
    q = _gap_questions(25, 3, 4)
    assert q["diff"].mean() > 0 and list(q["diff"][:20].unique()) == [pytest.approx(0.1)]
    spec = charts.gap_drivers(q, "a", "b", top=20).to_dict()
    (rows,) = spec["datasets"].values()
    drawn = {r["question"]: r["diff"] for r in rows}
    assert len(drawn) == 20 and 0.0 not in drawn.values()
    # b's three wins move the gap most: all drawn, last (the table's order is kept)
    assert [round(d, 6) for d in list(drawn.values())[-3:]] == [-0.6] * 3
    assert _legend_labels(_svg(spec)) == ["a", "b"]
    assert "either way" in charts.GAP_DRIVERS_CAPTION and "ties left out" in \
        charts.GAP_DRIVERS_CAPTION
    few = charts.gap_drivers(_gap_questions(3, 0, 12), "a", "b").to_dict()
    assert len(next(iter(few["datasets"].values()))) == 3  # the wins only, no tie bars
    # the two models alike on every question: a sentence, not an empty frame of axes
    same = charts.gap_drivers(_gap_questions(0, 0, 5), "a", "b").to_dict()
    assert same["mark"]["type"] == "text" and "score the same" in str(same)


def test_gap_drivers_legend_shows_long_model_names_whole():
    """The legend cut "gemini-1.5-pro-preview-0409" to "gemini-1.5-pro-preview-…"."""
    name = "gemini-1.5-pro-preview-0409"
    q = pd.DataFrame({"question": ["q1", "q2"], "diff": [0.5, -0.2]})
    q["contribution"] = q["diff"] / 2
    assert _legend_labels(_svg(charts.gap_drivers(q, name, "claude-3-opus").to_dict())) == [
        name, "claude-3-opus"]


def _tick_labels(chart, axis_start: str) -> list[str]:
    return next(v for k, v in _axis_labels(_svg(chart.to_dict())).items()
                if k.startswith(axis_start))


def _round_log_tick(label: str) -> bool:
    """1, 2, 3 or 5 times a power of ten (or any of 1-9 within one decade: whole numbers)."""
    v = float(label.replace(",", ""))
    mantissa = v / 10 ** np.floor(np.log10(v))
    return any(np.isclose(mantissa, m) for m in range(1, 10))


def test_log_axes_carry_round_evenly_spread_ticks():
    """Vega's own log ticks, thinned: the item map's discrimination axis read 0.1, 0.3,
    0.5, 2, 4, 10 over slopes near 1 (no "1"), the Planner's lead axis 0.001, 0.003, 0.02,
    0.1, 0.3 (uneven steps)."""
    from scorio_core.engines.questions import question_stats

    rng = np.random.default_rng(5)
    p = np.clip(rng.uniform(0.15, 0.95, (16, 1)) - rng.uniform(-0.3, 0.3, (1, 15)), 0.02, 0.98)
    stats = question_stats(Outcomes((rng.random((16, 15, 4)) < p[..., None]).astype(int)))
    a = stats.table["discrimination"]
    assert a.between(0.2, 10).all()  # slopes around 1, as on a real AIME-like run
    labels = _tick_labels(charts.item_map(stats), "Y-axis titled '2PL discrimination")
    assert "1" in labels and all(_round_log_tick(v) for v in labels), labels
    steps = np.diff(np.log10([float(v) for v in labels]))
    assert steps.max() <= 2.5 * steps.min(), labels  # evenly spread: 1-2-5, not 0.3 → 2
    g = pd.DataFrame({"plan": ["trials"] * 4 + ["questions"] * 4, "n": [8, 30, 120, 531,
                      20, 100, 900, 5000], "gap_now": 0.05,
                      "smallest_lead": [0.4, 0.2, 0.08, 0.025, 0.9, 0.3, 0.06, 0.02]})
    labels = _tick_labels(charts.gap_curve_chart(g), "Y-axis titled 'true lead")
    values = [float(v) for v in labels]
    assert {0.01, 0.1, 1.0} <= set(values) and all(_round_log_tick(v) for v in labels), labels
    assert np.ptp(np.diff(np.log10(values))) < 0.2, labels  # one step, decade by decade


def test_p_best_reliability_legends_list_what_is_drawn():
    """The questions scope at 1 trial per question has no p_best bin: the legend still
    listed "questions" (no dot of that colour anywhere), and the size legend a dot for
    "0" model-runs."""
    t = pd.DataFrame({"scope": ["questions"] * 2 + ["population"] * 2,
                      "bin": ["0.0–0.5", "0.5–1.0"] * 2, "count": [0, 0, 1200, 300],
                      "predicted": [np.nan, np.nan, 0.1, 0.8],
                      "observed": [np.nan, np.nan, 0.11, 0.75], "se": [np.nan, np.nan, 0.01,
                                                                      0.03]})
    labels = _legend_labels(_svg(charts.p_best_reliability(t).to_dict()))
    assert "population" in labels and "questions" not in labels, labels
    counts = [float(v.replace(",", "")) for v in labels if v[0].isdigit()]
    assert counts and min(counts) > 0, labels
    both = charts.p_best_reliability(t.assign(count=[50, 60, 1200, 300],
                                              predicted=[0.1, 0.7, 0.1, 0.8],
                                              observed=[0.1, 0.7, 0.11, 0.75],
                                              se=[0.02] * 4)).to_dict()
    scale = both["layer"][1]["encoding"]["color"]["scale"]
    assert scale["domain"] == ["questions", "population"]


def test_p_best_reliability_size_legend_reaches_the_largest_bin():
    """Audit: the size legend stopped at 1,200 model-runs while a bin held 1,520 (Vega-Lite's
    own picks are round values inside the scale): its entries now run from the fewest to the
    most model-runs of any bin."""
    t = pd.DataFrame({"scope": ["population"] * 5,
                      "bin": ["0.0–0.2", "0.2–0.4", "0.4–0.6", "0.6–0.8", "0.8–1.0"],
                      "count": [1520, 146, 105, 78, 30],
                      "predicted": [0.04, 0.3, 0.49, 0.7, 0.88],
                      "observed": [0.12, 0.29, 0.36, 0.37, 0.5], "se": [0.01, 0.04, 0.05,
                                                                      0.05, 0.09]})
    labels = _legend_labels(_svg(charts.p_best_reliability(t).to_dict()))
    counts = [int(v.replace(",", "")) for v in labels if v[0].isdigit()]
    assert counts[0] == 30 and counts[-1] == 1520 and "1,520" in labels, labels
    assert counts == sorted(counts) and len(counts) <= 4, labels


@pytest.mark.parametrize("width", [PAGE_COLUMN_PX, NARROW_COLUMN_PX])
def test_p_best_reliability_axes_read_alike(width):
    """Predicted and observed p_best are one quantity: the x axis (wider) read 0.00, 0.10,
    ..., 1.00 and the y axis 0.0, 0.2, ..., 1.0 on the Check page."""
    t = pd.DataFrame({"scope": ["population"] * 3, "bin": ["0.0–0.2", "0.4–0.6", "0.8–1.0"],
                      "count": [2833, 94, 11], "predicted": [0.0176, 0.4847, 0.8615],
                      "observed": [0.0191, 0.5, 0.8182], "se": [0.0026, 0.0516, 0.1163]})
    labels = _axis_labels(_svg(charts.p_best_reliability(t).to_dict(), width=width))
    x = next(v for k, v in labels.items() if k.startswith("X-axis titled 'predicted p_best"))
    y = next(v for k, v in labels.items() if k.startswith("Y-axis titled 'share truly first"))
    assert x == y, (x, y)
    assert x[0] == "0.0" and x[-1] == "1.0" and len(x) == 11, x
    assert {len(v) for v in x} == {3}, x  # one format: one decimal each


def test_greedy_scatter_legend_reads_whole_rank_shifts():
    """A displacement is a whole number of ranks: the colour legend read −1.0, −0.5, 0.0,
    0.5, 1.0."""
    ranks = pd.DataFrame({"model": list("abcd"), "sampling_rank": [1, 2, 3, 4],
                          "greedy_rank": [1, 3, 2, 4], "displacement": [0, 1, -1, 0],
                          "sampling_accuracy": [0.9, 0.8, 0.7, 0.6],
                          "greedy_accuracy": [0.9, 0.7, 0.8, 0.6]})
    labels = _legend_labels(_svg(charts.greedy_scatter(ranks).to_dict()))
    assert labels and all(re.fullmatch(r"[−-]?\d+", v) for v in labels), labels
    assert {"1", "0"} <= set(labels)


def test_pass_curves_label_the_last_k():
    """At N = 100 the log k axis stopped at 64: the curves' last point had no label."""
    R = np.random.default_rng(2).integers(0, 2, (3, 10, 100))
    labels = _tick_labels(charts.pass_curve_chart(pass_curves(Outcomes(R))), "X-axis titled 'k")
    assert labels[-1] == "100" and labels[:2] == ["1", "2"], labels


def test_gap_curve_panels_read_a_lead_at_one_height():
    """The page draws the two panels of the smallest-lead chart separately (each fits its
    column), so a shared y scale must be explicit: it had read 0.001-0.1 beside 0.001-1."""
    g = pd.DataFrame({"plan": ["trials"] * 2 + ["questions"] * 2, "n": [8, 64, 60, 240],
                      "smallest_lead": [0.2, 0.05, 0.4, 0.07], "gap_now": 0.05})
    spec = charts.gap_curve_chart(g, lead=0.03).to_dict()
    domains = {tuple(layer["encoding"]["y"]["scale"]["domain"])
               for panel in spec["hconcat"] for layer in panel["layer"]}
    assert len(domains) == 1
    lo, hi = domains.pop()
    assert lo < 0.03 and hi > 0.4  # every value and reference line inside it


# 8. the Simulator's coverage chart ------------------------------------------------------
#: The app's page column at a 1024 px window.
PAGE_COLUMN_1024_PX = 564


def _coverage(Ms=(10, 30, 100, 300), means=(0.5,), low=0.27):
    """A coverage result shaped as ``interval_coverage``'s: the headline near 95% (93.5% to
    99%), the papers' Bayes@N in the questions scope too, in the population scope falling
    from 99.9% at N = 1 to ``low`` at N = 64 (mean 0.5's 27%)."""
    from types import SimpleNamespace

    Ns = [1, 2, 4, 8, 16, 32, 64]
    fall = np.geomspace(0.999, low, len(Ns)) if low > 0 else np.linspace(0.999, 0, len(Ns))
    rows = []
    for mean in means:
        for M in Ms:
            for i, N in enumerate(Ns):
                for scope in ("questions", "population"):
                    head = 0.935 + 0.055 * ((i + M) % 5) / 4 if (scope, N) != ("questions", 1) \
                        else np.nan
                    papers = 0.94 + 0.01 * (i % 2) if scope == "questions" else fall[i]
                    for interval, cov in (("headline", head), ("Bayes@N (papers)", papers)):
                        rows.append({"mean": mean, "scope": scope, "interval": interval, "M": M,
                                     "N": N, "coverage": cov, "se": 0.005, "width": 0.1})
    t = pd.DataFrame(rows)
    return SimpleNamespace(table=t if len(means) > 1 else t.drop(columns="mean"),
                           confidence=0.95)


def _percent_labels(svg: str) -> dict[str, float]:
    """The y-axis labels of a coverage chart (0.93, …) by text: their y positions (px)."""
    return {m[2]: float(m[1]) for m in re.finditer(
        r'<text text-anchor="end" transform="translate\(-?[\d.]+,([-\d.]+)\)"[^>]*>(\d\.\d\d)<',
        svg)}


@pytest.mark.parametrize("column_px", [PAGE_COLUMN_PX, PAGE_COLUMN_1024_PX])
@pytest.mark.parametrize("low", [0.27, 0.0], ids=["mean 0.5", "mean 0.9"])
def test_coverage_chart_reads_93_to_97_apart_keeps_points_inside_and_lists_every_M(
        low, column_px):
    """The audit: at mean 0.5 the y-axis ran from 20% to 100%, so the headline lines, the
    dotted 95% line and the dashed blue ones were squeezed into ~20 px near the top (94% and
    97% could not be told apart), points at N = 1 were drawn above the 100% gridline, and
    the 300 px chart cut its "questions" legend after M = 100. Now the axis is stretched
    above 0.90 (said in its title), 0.93 and 0.97 lie at least 40 px apart with the SPEC's
    band shaded between them and the nominal 0.95 dotted, every point is drawn inside the plot,
    labels sit level with their values, and the legend lists M = 300, the chart growing
    to hold it (fit-x: the width is the column's, the height the chart's own)."""
    from scorio_core.charts.simulate import COVERAGE_HEIGHT

    r = _coverage(low=low)
    spec = charts.coverage_chart(r).to_dict()
    assert spec["autosize"]["type"] == "fit-x" and spec["height"] == COVERAGE_HEIGHT
    y = next(layer["encoding"]["y"] for layer in spec["layer"] if layer["mark"] == "rect"
             or layer["mark"].get("type") == "rect")
    assert y["title"] == "coverage (stretched above 0.90)" and len(y["scale"]["domain"]) == 3
    band = spec["datasets"][next(layer["data"]["name"] for layer in spec["layer"]
                                 if layer["mark"].get("type") == "rect")]
    assert band == [{"y": 0.93, "y2": 0.97}]
    svg = _svg(spec, column_px)
    labels = _percent_labels(svg)
    assert {"0.93", "0.95", "0.97", "1.00"} <= set(labels)  # as the table writes a share
    assert labels["0.93"] - labels["0.97"] >= 40, labels
    assert labels["0.93"] - labels["0.95"] == pytest.approx(labels["0.95"] - labels["0.97"])
    ys = sorted(labels.values())
    assert min(b - a for a, b in zip(ys, ys[1:], strict=False)) >= 14  # none touching
    # every point's centre at least its radius inside the plot (0..COVERAGE_HEIGHT)
    marks = re.search(r'<g class="mark-symbol role-mark layer_3_marks"[^>]*>(.*?)</g>', svg)
    points = [tuple(map(float, m)) for m in re.findall(
        r'translate\(([-\d.]+),([-\d.]+)\)', marks[1])]
    t = r.table.dropna(subset=["coverage"])
    assert len(points) == len(t)
    radius = np.sqrt(45 / np.pi)
    assert all(radius <= py <= COVERAGE_HEIGHT - radius for _, py in points), points
    assert all(px >= radius for px, _ in points)
    # the legend lists every M, within the drawing
    height = float(re.search(r'<svg[^>]* height="([\d.]+)"', svg)[1])
    for M in (10, 30, 100, 300):
        assert f">M = {M}</text>" in svg
    assert _svg_width(svg) <= column_px and height >= COVERAGE_HEIGHT


@pytest.mark.parametrize("low", [0.27, 0.95], ids=["stretched", "linear"])
def test_coverage_chart_shades_the_wider_band_of_m15_where_it_shows_m15(low):
    """The tool promises 93–97% from M = 30 but 90–98% at M = 15 (calibration.target_band):
    where the chart shows M = 15, that band is shaded too, lighter and under the 93–97% one,
    its edges labelled apart from the others, and the caption's one line names it; without
    M = 15 one band and the caption as before."""
    from scorio_core.charts.simulate import COVERAGE_CAPTION, coverage_caption

    def bands(spec):
        rect = next(layer for layer in spec["layer"] if layer["mark"].get("type") == "rect")
        return rect, spec["datasets"][rect["data"]["name"]]

    r = _coverage(Ms=(15, 30, 100), low=low)
    spec = charts.coverage_chart(r).to_dict()
    rect, rows = bands(spec)
    assert [(b["y"], b["y2"]) for b in rows] == [(0.9, 0.98), (0.93, 0.97)]  # wide drawn first
    assert rows[0]["opacity"] < rows[1]["opacity"]  # lighter
    assert rect["encoding"]["opacity"] == {"field": "opacity", "type": "quantitative",
                                           "scale": None}
    # where both lie, the two shades add up to about the one band's 0.16
    assert 1 - (1 - rows[0]["opacity"]) * (1 - rows[1]["opacity"]) == pytest.approx(0.16, 0.1)
    labels = _percent_labels(_svg(spec, PAGE_COLUMN_PX))
    assert {"0.90", "0.93", "0.95", "0.97", "0.98", "1.00"} <= set(labels)
    ys = sorted(labels.values())
    assert min(b - a for a, b in zip(ys, ys[1:], strict=False)) >= 14  # none touching
    caption = coverage_caption(r)
    assert "(0.93–0.97, and for M = 15 the lighter 0.90–0.98; dotted: nominal 0.95)" in caption
    assert "\n" not in caption and caption.count(". ") == 0  # one line, one sentence
    without = _coverage(Ms=(30, 100), low=low)
    _, rows = bands(charts.coverage_chart(without).to_dict())
    assert rows == [{"y": 0.93, "y2": 0.97}]
    assert coverage_caption(without) == COVERAGE_CAPTION and "M = 15" not in COVERAGE_CAPTION
    # the study's chart says it: the lesson's default M (15, 30, 100) include 15
    from scorio_core.definitions import SIMULATIONS

    a = SIMULATIONS["calibration"]
    p = a.params(replicates=200)
    assert 15 in p.M_values
    res = a.run(None, p)
    assert a.charts(res)[0].caption == coverage_caption(res) != COVERAGE_CAPTION


def test_coverage_chart_near_the_nominal_level_is_one_linear_axis_and_panels_share_it():
    """Without a point far below 95% there is nothing to stretch: one linear axis from 90%;
    a headline at 89.9% (mean 0.9, M = 10) is read in the stretched part, which then starts
    at 85%; several means' panels keep one scale."""
    from scorio_core.charts.simulate import coverage_scale

    near = coverage_scale([0.935, 0.99])
    assert near.zoom is None and near.domain == [0.9, 1.0]
    assert {0.93, 0.95, 0.97, 1.0} <= set(near.ticks)
    assert coverage_scale([0.0, 0.8985, 0.99]).domain == [0.0, 0.85, 1.0]
    s = coverage_scale([0.27, 0.999])
    assert s.domain == [0.2, 0.9, 1.0] and s.band == (0.93, 0.97) and s.nominal == 0.95
    lo, split, hi = s.range  # bottom to top, inside the plot
    assert lo > split > hi > 0 and (lo - split) < (split - hi)  # 90-100% the larger part
    spec = charts.coverage_chart(_coverage(Ms=(30,), means=(0.5, 0.9))).to_dict()
    domains = {tuple(layer["encoding"]["y"]["scale"]["domain"])
               for panel in spec["vconcat"] for layer in panel["layer"]}
    assert domains == {(0.2, 0.9, 1.0)}


# 9. the Simulator's other charts -------------------------------------------------------
def _x_labels(svg: str) -> list[str]:
    """The x-axis tick labels of a one-panel chart, as drawn (``text-anchor="middle"``
    numbers: not its title)."""
    return re.findall(
        r'<text text-anchor="middle" transform="translate\([-\d.]+,[-\d.]+\)"[^>]*>'
        r'(−?-?[\d.]+)<', svg)


def test_update_histogram_stays_within_tau_bounds_with_readable_ticks_and_names_its_mean():
    """The audit: the prior depth histogram's axis ran to 1.04 (τ_b ≤ 1) with a tick every
    0.02, and its dashed red line (the mean) was named nowhere. The axis now ends at 1.0
    (a bar there drawn whole), ticks every 0.1, the caption names the mean line, and the
    tooltips read τ_b and the share of updates as the `update` table prints them."""
    from types import SimpleNamespace

    from scorio_core.charts.simulate import UPDATE_HISTOGRAM_CAPTION
    from scorio_core.formatting import format_number, named_decimals

    q = np.random.default_rng(0).binomial(6, 0.2, 5000)  # discordant pairs of 8 models
    tau = 1 - 4 * q / 56
    spec = charts.update_histogram(SimpleNamespace(tau_update=tau)).to_dict()
    x = spec["layer"][0]["encoding"]["x"]
    lo = float(np.floor(10 * tau.min()) / 10)
    assert x["scale"]["domain"] == [lo, 1.0]
    assert x["axis"]["values"] == [round(v, 1) for v in np.arange(lo, 1.01, 0.1)]
    svg = _svg(spec, PAGE_COLUMN_PX)
    labels = _x_labels(svg)
    assert labels[-1] == "1.0" and not any(float(t) > 1 for t in labels), labels
    assert "dashed red line: their mean" in UPDATE_HISTOGRAM_CAPTION
    bars = spec["datasets"][spec["layer"][0]["data"]["name"]]
    decimals = named_decimals("share_changed")
    assert decimals == 3  # a share of simulated updates, as p_correct and coverage
    for row in bars:
        assert row["share_text"] == format_number(row["share"], decimals, probability=True)
        assert row["tau_text"] == format_number(row["tau"])  # τ: the tables' four decimals
    mean = spec["datasets"][spec["layer"][1]["data"]["name"]][0]
    assert mean["mean_text"] == format_number(tau.mean())


def test_order_z_panel_draws_line_and_points_in_one_colour():
    """The Correct order lesson's z panel drew an orange line through blue points."""
    from scorio_core import simulate as sim
    from scorio_core.charts.simulate import Z_COLOUR

    r = sim.correct_order(n_values=(20, 80), n_sims=100, seed=0)
    spec = charts.correct_order_chart(r).to_dict()
    z = spec["hconcat"][1]["layer"][0]["mark"]
    assert z["type"] == "line" and z["color"] == Z_COLOUR == z["point"]["color"]


def test_rubric_weight_chart_draws_its_current_weight_whole_and_names_it():
    """The rubric lesson's red dot (the current weight) was cut in half at a weight of 1 and
    not named in the caption; its axis had a tick every 0.05."""
    from scorio_core import simulate as sim
    from scorio_core.charts.simulate import RUBRIC_DOT_SIZE, RUBRIC_WEIGHT_CAPTION

    assert "red dot: the weights set above" in RUBRIC_WEIGHT_CAPTION
    spec = charts.rubric_weight_chart(sim.LESSON_R, (0.0, 1.0, 1.0), R0=[[2], [1]]).to_dict()
    svg = _svg(spec, PAGE_COLUMN_PX)
    plot = float(re.search(r'<svg[^>]* width="([\d.]+)"', svg)[1])
    left = float(re.search(r'<g fill="none"[^>]*transform="translate\(([-\d.]+),', svg)[1])
    dot = re.search(r'<g class="mark-symbol role-mark layer_2_marks"[^>]*>.*?'
                    r'translate\(([-\d.]+),([-\d.]+)\)', svg)
    radius = np.sqrt(RUBRIC_DOT_SIZE / np.pi)
    assert left + float(dot[1]) + radius <= plot  # whole, inside the drawing
    assert _x_labels(svg) == [f"{i / 10:.1f}" for i in range(11)]


def test_forest_plot_draws_an_interval_narrower_than_its_dot_across_it_and_says_so():
    """The audit: on the bundled real run (s.e. 0.002) the Leaderboard's 95% bars were
    hidden under the dots though the caption said "bar = its 95% interval". The bars are
    drawn over the dots in a darker shade of their colour, and the caption says that an
    interval narrower than the dot is the dark line across it -- only where one is."""
    from scorio_core import io
    from scorio_core.charts.leaderboard import FOREST_COLOURS, narrow_intervals
    from scorio_core.definitions.leaderboard import chart_captions

    o = io.load(Path(__file__).resolve().parents[1] / "data" / "jhu_llm_temperature.parquet")
    board = leaderboard(o)
    assert len(narrow_intervals(board)) >= 5  # the questions scope's narrow intervals
    spec = charts.forest_plot(board).to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks.index("rule") > marks.index("circle")  # over the dot
    dot = next(la for la in spec["layer"] if la["mark"]["type"] == "circle")
    bar = next(la for la in spec["layer"] if la["mark"]["type"] == "rule")
    dots = dot.get("encoding", spec.get("encoding", {}))
    colour = (dots.get("color") or spec["encoding"]["color"])["scale"]["range"]
    assert colour == [c for c, _ in FOREST_COLOURS.values()]
    assert bar["encoding"]["color"]["scale"]["range"] == [c for _, c in FOREST_COLOURS.values()]
    assert set(colour).isdisjoint(bar["encoding"]["color"]["scale"]["range"])
    said = "a dark line across the dot where narrower than it"
    assert said in chart_captions(board)[0]
    wide = leaderboard(o, scope="population")  # question sampling: wide bars, nothing hidden
    assert narrow_intervals(wide) == [] and said not in chart_captions(wide)[0]


def test_layered_and_stacked_charts_share_their_records_and_say_the_same():
    """Altair copies every layer and panel, data included, whenever charts are layered or
    stacked; a chart's inline records (``charts._common.inline``) are shared by those
    copies instead of copied record by record (a third of building the Pass@k curves), and
    the spec is the one plain ``alt.InlineData`` of the same records gives."""
    import altair as alt

    from scorio_core.charts._common import inline

    frame = pd.DataFrame({"k": [1, 2, 3, 4], "value": [0.2, 0.4, 0.5, 0.55],
                          "model": ["a", "a", "b", "b"]})

    def build(data):
        line = alt.Chart(data).mark_line().encode(x="k:Q", y="value:Q", color="model:N")
        layered = alt.layer(line, line.mark_point())
        return layered, alt.vconcat(layered, layered.properties(title="again"))

    def datas(chart):  # the data of a chart and of its layers and panels
        found = [] if chart.data is alt.Undefined else [chart.data]
        for part in ("layer", "vconcat", "hconcat"):
            for sub in getattr(chart, part, None) or []:
                found += datas(sub)
        return found

    data = inline(frame)
    layered, stacked = build(data)
    for chart in (layered.copy(), stacked.copy()):
        held = datas(chart)
        assert held and all(d.values is data.values for d in held)  # not copies of them
    plain = alt.InlineData(values=frame.to_dict(orient="records"))
    assert stacked.to_dict() == build(plain)[1].to_dict()  # validated, and the same spec
