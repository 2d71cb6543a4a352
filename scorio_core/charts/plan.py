"""Planner charts: P(correct order) and z vs N for a pair; the smallest lead a plan decides;
the budget split."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from .._validation import as_numbers, checked_keywords
from ..formatting import column_texts
from ._common import _model_axis, _rows, log_axis, whole_axis, whole_log_axis

__all__ = ["order_curve_chart", "gap_curve_chart", "allocation_chart", "PANEL_LABEL_PX"]

#: The room of a legend label in a panel of the Planner's side-by-side charts as the page
#: draws them (``app_pages/_render.panels``): half the main column of a 1024 px window
#: (274 px), less the y axis the legend starts beside (87-99 px). Labels are written to fit
#: it -- the caption says the rest ("papers' Bayes@N", "on any field") -- and one that does
#: not (a lead of many digits) ends in "…" inside the panel, not cut at its edge; each
#: legend lists its entries one a line, as a row of two ran past a panel.
PANEL_LABEL_PX = 170
#: Pixels the gap curve's log x scale extends past its first and last plan, so the end
#: ticks' labels (up to "10,000") lie inside the panel's drawing.
END_PAD = 20


def _panel_legend(**kw) -> alt.Legend:
    """A panel's legend: below the plot, one entry a line, labels within the panel."""
    return alt.Legend(orient="bottom", columns=1, labelLimit=PANEL_LABEL_PX, **kw)


@checked_keywords
def order_curve_chart(
    curve, z_threshold: float, title: str = "",
    p_decided: Sequence[float] | np.ndarray | str | None = None,
) -> alt.HConcatChart:
    """Chance of a decision and P(correct order) versus trials per question for one pair.

    Left: the chance that the pair is decided with every model at N trials (the
    Planner's assurance, averaged over the field's posterior of the gap, when given; and,
    with a lead that matters, the chance if the first model truly leads by it -- no prior
    on the lead) and the simulated probability that the papers' Bayes@N orders the pair as
    today's estimates do. Right: the papers'
    mean simulated z and closed-form projection, with their threshold as a dashed
    rule (Bayes@N paper, App. D, Fig. 6).

    What to read from it: where the "decided" line crosses the target chance is
    trials_needed; the papers' z crosses its threshold near the 50% point.

    Parameters
    ----------
    curve : scorio_core.planner.OrderCurve
    z_threshold : float
    title : str
    p_decided : array_like, optional
        Chance of a decision per ``curve.n`` (default ``curve.p_decided``); or one
        comma-separated string (``"0.2,0.9"``).

    Returns
    -------
    altair.HConcatChart

    Example
    -------
    >>> from scorio_core.planner import order_curve
    >>> c = order_curve([0.7] * 5, [0.6] * 5, [1, 2, 4], sims=200)
    >>> len(sc.charts.order_curve_chart(c, 1.645).to_dict()["hconcat"])
    2
    """
    df = curve.frame()
    if p_decided is not None:
        df["p_decided"] = np.asarray(as_numbers(p_decided, "p_decided", kind=float,
                                              example="0.2,0.9"), dtype=float)
    x = alt.X("N:Q", title="trials per question N", axis=whole_axis(df["N"]))
    # short enough for a panel at 1024 px (PANEL_LABEL_PX); the caption says whose
    # Bayes@N and that the chance at a lead holds on any field
    names = {"p_correct": "correct order (papers)", "p_decided": "decided (ours)"}
    if getattr(curve, "lead", None):
        names["p_decided_at_lead"] = f"decided if lead is {curve.lead:g}"
    shown = [c for c in names if c in df]
    probs = df.melt(id_vars="N", value_vars=shown, var_name="curve", value_name="probability")
    # each chance in the tooltip as the table prints it: p_correct a share of the simulated
    # tables (none of them: '<0.0001', not a certain 0), every chance below 1 never '1.0000'
    probs["text"] = [x for c in shown for x in column_texts(df, c)]  # melt's order
    probs = probs.dropna(subset=["probability"])
    probs["curve"] = probs["curve"].map(names)
    left = (
        alt.Chart(probs)
        .mark_line(point=True)
        .encode(
            x=x,
            y=alt.Y("probability:Q", title="probability", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("curve:N", title=None, legend=_panel_legend()),
            tooltip=["N:Q", "curve:N", alt.Tooltip("text:N", title="probability")],
        )
        .properties(width=300, height=220, title=title)
    )
    zcols = ["z_mean"] + (["z_projected"] if "z_projected" in df else [])
    long = df.melt(id_vars="N", value_vars=zcols, var_name="z", value_name="value")
    long["z"] = long["z"].map({"z_mean": "simulated mean", "z_projected": "projection (App. D)"})
    lines = (
        alt.Chart(long)
        .mark_line(point=True)
        .encode(
            x=x,
            y=alt.Y("value:Q", title="z"),
            color=alt.Color("z:N", title=None, legend=_panel_legend()),
            tooltip=["N:Q", "z:N", alt.Tooltip("value:Q", format=".2f")],
        )
    )
    rule = (
        alt.Chart(pd.DataFrame({"z": [z_threshold]}))
        .mark_rule(strokeDash=[4, 3], color="#c92a2a")
        .encode(y="z:Q")
    )
    return alt.hconcat(left, (lines + rule).properties(width=300, height=220)).resolve_scale(
        color="independent"
    )


#: The gap curve's series, in legend order.
_GAP_SERIES = ("smallest lead decided", "today's estimate", "lead that matters")


@checked_keywords
def gap_curve_chart(gaps: pd.DataFrame, lead: float | None = None) -> alt.HConcatChart:
    """The smallest true lead a plan decides with the target chance, against the plan's size:
    trials per question (left, every model) and questions (right), for one pair.

    What to read from it: where the line falls below a lead you care about, a plan of that
    size decides the pair with the target chance whenever the better model truly leads by at
    least that much -- on any field, no prior on the lead (the Planner's ``trials_gap`` /
    ``questions_gap`` are its values at ``trials_needed`` / ``questions_needed``). A line
    that levels off (trials, population scope) shows what trials alone can never decide.

    Parameters
    ----------
    gaps : pandas.DataFrame
        :func:`scorio_core.planner.gap_curve` (columns ``plan, n, smallest_lead, gap_now``).
    lead : float, optional
        The lead that matters, drawn as a dashed rule.

    Returns
    -------
    altair.HConcatChart
        One panel per plan kind with a finite point (none: an empty chart).

    Example
    -------
    >>> import pandas as pd
    >>> g = pd.DataFrame({"plan": ["trials"] * 2 + ["questions"] * 2, "n": [8, 64, 60, 240],
    ...                   "smallest_lead": [0.2, 0.05, 0.2, 0.07], "gap_now": 0.05})
    >>> len(sc.charts.gap_curve_chart(g, lead=0.03).to_dict()["hconcat"])
    2
    """
    shown = gaps[np.isfinite(gaps["smallest_lead"].to_numpy(dtype=float))]
    titles = {"trials": "trials per question (every model)", "questions": "questions"}
    now = float(gaps["gap_now"].iloc[0]) if len(gaps) else 0.0
    refs = [(_GAP_SERIES[1], now)] + ([(_GAP_SERIES[2], float(lead))] if lead else [])
    values = np.r_[shown["smallest_lead"].to_numpy(dtype=float), [v for _, v in refs]]
    # leads fall like 1/sqrt(plan): a log axis shows where a line crosses a small lead,
    # unless a value is zero or negative (any lead will do; today's estimate reversed)
    log = bool(values.size) and bool(np.all(values > 0))
    # an explicit domain: the panels share their y scale whether drawn as one chart (the
    # files) or as the page's separate panels, so a lead reads the same height in both
    decades = ([10.0 ** np.floor(np.log10(values.min())), 10.0 ** np.ceil(np.log10(values.max()))]
               if log else None)  # whole decades, as the log axis' ticks are laid out
    y_scale = (alt.Scale(type="log", domain=decades) if log else
               alt.Scale(domain=[min(0.0, float(values.min(initial=0.0))),
                                 float(values.max(initial=1.0)) * 1.05]))
    domain = [_GAP_SERIES[0], *(name for name, _ in refs)]
    color = alt.Color("series:N", title=None,
                      scale=alt.Scale(domain=domain,
                                      range=["#1c7ed6", "#868e96", "#c92a2a"][:len(domain)]),
                      legend=_panel_legend(symbolType="stroke"))
    y = alt.Y("value:Q", title="true lead (score)", scale=y_scale,
              **({"axis": log_axis(values)} if log else {}))
    panels = []
    for kind, x_title in titles.items():
        part = shown[shown["plan"] == kind]
        if part.empty:
            continue
        # padding: room at both ends for the end ticks' labels ("10,000" ran 9 px past the
        # drawing of a 1024 px window's panel, cut by the page)
        x = alt.X("n:Q", title=x_title, scale=alt.Scale(type="log", nice=False, padding=END_PAD),
                  axis=whole_log_axis(part["n"]))
        tip = [alt.Tooltip("n:Q", title=x_title, format=",d"), "series:N",
               alt.Tooltip("value:Q", title="lead", format=".4f")]
        line = part.assign(series=_GAP_SERIES[0], value=part["smallest_lead"])
        n = part["n"].to_numpy()
        ref = pd.DataFrame([{"n": v, "series": name, "value": val}
                            for name, val in refs for v in (n.min(), n.max())])
        curve = (alt.Chart(line[["n", "series", "value"]])
                 .mark_line(point=alt.OverlayMarkDef(size=25))
                 .encode(x=x, y=y, color=color, tooltip=tip))
        rules = (alt.Chart(ref).mark_line()
                 .encode(x=x, y=y, color=color, tooltip=tip,
                         strokeDash=alt.StrokeDash(
                             "series:N", legend=None,
                             scale=alt.Scale(domain=domain[1:],
                                             range=[[2, 3], [6, 3]][:len(domain) - 1]))))
        panels.append((curve + rules).properties(width=300, height=220))
    if not panels:
        return alt.hconcat(alt.Chart(pd.DataFrame({"n": []})).mark_point())
    return alt.hconcat(*panels).resolve_scale(y="shared")


@checked_keywords
def allocation_chart(allocation: pd.DataFrame) -> alt.Chart:
    """Extra trials per question per model: greedy vs even split of the same budget.

    What to read from it: the greedy split spends trials on the models whose
    pairs more data can still decide; models with no bar are already separated
    from their rivals or tied with them beyond what the budget can change.

    Parameters
    ----------
    allocation : pandas.DataFrame
        ``Plan.allocation`` (columns ``model, greedy_trials, uniform_trials``).

    Returns
    -------
    altair.Chart
    """
    order = allocation["model"].astype(str).tolist()
    greedy = "greedy_trials" if "greedy_trials" in allocation else "extra_trials"
    long = allocation.melt(
        id_vars="model", value_vars=[greedy, "uniform_trials"], var_name="split",
        value_name="trials",
    )
    long["split"] = long["split"].map({greedy: "greedy", "uniform_trials": "uniform"})
    return (
        alt.Chart(long)
        .mark_bar()
        .encode(
            y=alt.Y("model:N", sort=order, title=None, axis=_model_axis()),
            x=alt.X("trials:Q", title="extra trials per question",
                    axis=whole_axis(long["trials"], lo=0)),
            yOffset="split:N",
            color=alt.Color(
                "split:N",
                scale=alt.Scale(domain=["greedy", "uniform"], range=["#3b5bdb", "#adb5bd"]),
                legend=alt.Legend(orient="bottom", title=None),
            ),
            tooltip=["model:N", "split:N", "trials:Q"],
        )
        .properties(width="container", height=_rows(len(order)))
    )
