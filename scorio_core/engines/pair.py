"""Two models, question by question: the paired difference with its calibrated interval in
both scopes, the questions that drive the gap, and one question's completions side by side
("flip table").

The pair's numbers are the leaderboard's for that pair (:mod:`scorio_core.inference`): the
per-model summaries (mean score per question, the empirical-Bayes trial variance, the
question-level covariance) depend on each model alone, so computing them for the two
models gives the same difference, standard error, paired ``t``, two-sided p-value and
``P(a > b)`` as the full leaderboard -- without its multiplicity control across the other
models, which only the leaderboard's rank columns apply. The interval of the difference is
``d ± t_{df} · sd``: it excludes 0 exactly when the pair's p-value is below ``1 −
confidence``.

Example
-------
>>> from scorio_core.engines.pair import compare_pair
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> R = np.array([[[1, 1], [1, 0], [0, 0]], [[1, 0], [0, 0], [0, 0]]])
>>> cmp = compare_pair(Outcomes(R, models=["a", "b"]), "a", "b")
>>> cmp.questions[["question", "diff", "contribution"]].values.tolist()
[['q0', 0.5, 0.16666666666666666], ['q1', 0.5, 0.16666666666666666], ['q2', 0.0, 0.0]]
>>> round(float(cmp.summary.loc[cmp.summary.scope == "population", "diff"].iloc[0]), 4)
0.3333
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy import special

from .. import eval as ev
from .._validation import ValidationError, check_confidence, did_you_mean
from ..display import Displayed
from ..estimands import NOT_IDENTIFIED, SCOPE_HELP, SCOPES
from ..formatting import count_text
from ..inference import infer, scaled_weights, score_stats
from ..outcomes import Outcomes
from ..samples import TEXT_COLUMNS

__all__ = ["PairComparison", "FlipTable", "compare_pair", "flip_table", "model_index",
           "question_benchmarks", "gap_rows", "gap_view", "answer_key", "PER_QUESTION",
           "trial_texts", "TrialPanel", "TextRow", "question_choices", "TRIAL_IDS",
           "trial_meaning"]

#: Text columns of the question, the same for every completion of it: shown once, above
#: the two models' texts (:attr:`FlipTable.context`), not beside each trial.
PER_QUESTION = ("input", "target", "metadata")


def trial_texts(columns) -> tuple[str, ...]:
    """The texts of each completion among a sample store's text ``columns``: every one but
    the question's own (:data:`PER_QUESTION`), in the store's display order
    (:data:`scorio_core.samples.TEXT_COLUMNS`: reasoning, output, answer, choices, explanation,
    annotations, error, prompt), then a table's own text columns in their order -- the
    flip table's text columns, and what the Pair page shows of one trial.

    Example
    -------
    >>> from scorio_core.engines.pair import trial_texts
    >>> trial_texts(["response", "answer", "input", "prompt", "reasoning", "target"])
    ('reasoning', 'answer', 'prompt', 'response')
    """
    cols = [str(c) for c in columns if c not in PER_QUESTION]
    return (*(c for c in TEXT_COLUMNS if c in cols), *(c for c in cols if c not in TEXT_COLUMNS))


def model_index(data: Outcomes, name: str, what: str = "model") -> int:
    """The index of model ``name`` (a clear error listing the models otherwise)."""
    try:
        return data.models.index(str(name))
    except ValueError:
        shown = ", ".join(map(repr, data.models[:20])) + (" ..." if data.L > 20 else "")
        hint = did_you_mean(name, data.models)  # "; did you mean 'Modèle β 7B'?" for Modele
        raise ValidationError(f"unknown {what} {name!r}"
                              + (hint or f"; the models are {shown}")) from None


@dataclass(frozen=True, repr=False)
class PairComparison(Displayed):
    """Result of :func:`compare_pair`; displays as the pair view's report section shows its
    tables (the summary, the questions that drive the gap, each with its "Columns:" legend
    from the pair definition's declaration) and the gap chart.

    Attributes
    ----------
    a, b : str
        The two models (the difference is ``a − b``).
    summary : pandas.DataFrame
        One row per scope: ``score_a``, ``score_b``, ``diff``, ``se``, ``lo``, ``hi`` (the
        interval of the difference at ``confidence``), ``t``, ``p_value`` (two-sided),
        ``p_a_better`` and ``verdict``, with ``df`` and the ``estimand`` in words.
    questions : pandas.DataFrame
        One row per question, the ones that push the difference in the direction of the
        gap first, the largest push first (an exact tie, no gap: the largest differences
        either way first; equal ones in the data's order): ``question``, its ``benchmark``
        when the data pool several (:func:`question_benchmarks`; no column for one),
        ``score_a``, ``score_b`` (mean score over the trials), ``diff``, its contribution to
        the mean difference ``contribution = diff / M`` (the contributions of all questions
        add up to it) and the running total ``cumulative``, and ``se_trials`` (trial noise
        of ``diff``; NaN at N = 1).
    confidence : float
    N, M : int
    """

    a: str
    b: str
    summary: pd.DataFrame
    questions: pd.DataFrame
    confidence: float
    N: int
    M: int
    notes: tuple[str, ...] = field(default=())


def compare_pair(
    data: Outcomes, a: str, b: str, confidence: float = 0.95, w=None
) -> PairComparison:
    """Paired per-question differences of models ``a`` and ``b`` with the calibrated interval
    of their mean difference in both scopes (see the module docstring).

    Parameters
    ----------
    data : Outcomes
    a, b : str
        Model names (different).
    confidence : float
        Level of the intervals; a pair is decided when its interval excludes 0.
    w : array_like, optional
        Category weights (default: the data's).
    """
    confidence = check_confidence(confidence)
    ia, ib = model_index(data, a), model_index(data, b)
    if ia == ib:
        raise ValidationError(f"the pair needs two different models; got {a!r} twice")
    w = data.weights if w is None else w
    n, _, wv = ev.prepare_counts(data.R[[ia, ib]], w)
    st = score_stats(n, wv, (float(wv.min()), float(wv.max())))  # the leaderboard's bounds
    span = st.hi_b - st.lo_b
    rows, notes = [], []
    for scope in SCOPES:
        inf = infer(st, scope, confidence, "none", draws=100, seed=0)
        d = float(inf.score[0] - inf.score[1])
        sd = float(inf.diff_sd[0, 1])
        df = float(inf.df[0, 1])  # the pair difference's d.o.f.
        tq = float(special.stdtrit(max(df, 1.0), 0.5 + confidence / 2))
        lo, hi = max(d - tq * sd, -span), min(d + tq * sd, span)
        p = float(inf.pvalue[0, 1])
        if not inf.identified:
            verdict = "not identified"
            notes.append(f"{scope} scope: {NOT_IDENTIFIED[scope]}")
        elif inf.decided[0, 1]:
            verdict = f"{a} better"
        elif inf.decided[1, 0]:
            verdict = f"{b} better"
        else:
            verdict = "undecided"
        rows.append({
            "scope": scope, "model_a": a, "model_b": b,
            "score_a": float(inf.score[0]), "score_b": float(inf.score[1]), "diff": d,
            "se": sd if inf.identified else np.nan,
            "lo": lo if inf.identified else np.nan, "hi": hi if inf.identified else np.nan,
            "t": float(inf.t[0, 1]), "p_value": p, "p_a_better": float(inf.prob_better[0, 1]),
            "verdict": verdict, "df": df, "estimand": SCOPE_HELP[scope],
        })  # fmt: skip
    summary = pd.DataFrame(rows)
    se = dict(zip(summary["scope"], summary["se"], strict=True))
    if se["population"] < se["questions"]:  # NaN (a scope not identified): never
        notes.append(
            f"The population s.e. ({se['population']:.4f}) came out below the questions "
            f"s.e. ({se['questions']:.4f}), which it contains: the two models answer the "
            "questions alike, so their difference varies little from question to question, "
            f"and that spread is estimated from {count_text(data.M, 'question')} "
            f"({data.M - 1} d.o.f.), whose t quantile allows for such a low draw; the "
            "population interval is calibrated as it stands (a model's own interval is "
            "floored at its trial part; a pair's is not, which would cost the test power).")
    ya, yb = st.unscale(st.ybar[0]), st.unscale(st.ybar[1])
    # each question's difference from its count differences, rounded once: equal differences
    # are equal floats (ya - yb rounded twice: -0.6666666666666667 beside -0.6666666666666666
    # ordered two equal pushes by float noise instead of by question)
    u = scaled_weights(wv, (st.lo_b, st.hi_b))[0]  # score_stats' scale
    diff = span * ev.count_mean(n[0] - n[1], u, st.N)
    with np.errstate(invalid="ignore"):
        se_q = span * np.sqrt((st.within[0] + st.within[1]) / max(st.N, 1))
    # the summary's difference, exactly 0 for an exact tie (a float mean of the per-question
    # differences left -1e-17 there and listed the other model's largest push first)
    gap = float(summary["diff"].iloc[0])
    key = -np.sign(gap) * diff if gap != 0 else -np.abs(diff)
    order = np.lexsort((np.arange(data.M), key))  # stable: question order breaks ties
    # the running total from the count differences: it ends on the summary's difference
    # (exactly 0 for a tie) whatever the order of the rows (eval.count_mean)
    cumulative = span * ev.count_mean(np.cumsum((n[0] - n[1])[order], axis=0), u,
                                      st.N * data.M)
    bench = question_benchmarks(data)
    q = pd.DataFrame({
        "question": np.asarray(data.questions, dtype=object)[order],
        **({"benchmark": np.asarray(bench, dtype=object)[order]} if bench else {}),
        "score_a": ya[order], "score_b": yb[order], "diff": diff[order],
        "contribution": diff[order] / data.M,
        "cumulative": cumulative,
        "se_trials": se_q[order],
    })  # fmt: skip
    return PairComparison(str(a), str(b), summary, q, confidence, data.N, data.M, tuple(notes))


def question_benchmarks(data: Outcomes) -> tuple[str, ...] | None:
    """Each question's benchmark where the data pool several -- which one a question comes
    from, beside its id, in every table of the pair view that lists questions -- else
    ``None``: one benchmark's label on every row says nothing (the data's name says it).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.engines.pair import question_benchmarks
    >>> R = np.zeros((2, 3, 1), int)
    >>> question_benchmarks(Outcomes(R, benchmarks=["x", "x", "y"]))
    ('x', 'x', 'y')
    >>> question_benchmarks(Outcomes(R, benchmarks=["x"] * 3)) is None
    True
    """
    return data.benchmarks if len(data.benchmark_names) > 1 else None


def gap_rows(questions: pd.DataFrame, top: int = 20) -> pd.DataFrame:
    """The ``top`` rows of :attr:`PairComparison.questions` that move the mean difference
    most, **either way** (largest ``|contribution|``; questions where the two models score
    alike are left out), in the table's order: the leader's largest push first, the other
    model's largest last -- the bars of :func:`scorio_core.charts.gap_drivers`.

    The table lists the leader's questions first, so its first ``top`` rows never showed a
    question the other model wins while the leader had ``top`` of its own -- a gap
    carried half-way back by the other side read as a one-sided, broad lead.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.engines.pair import gap_rows
    >>> q = pd.DataFrame({"question": list("abcde"), "diff": [0.5, 0.2, 0.1, 0.0, -0.4]})
    >>> q["contribution"] = q["diff"] / 5
    >>> gap_rows(q, top=3)["question"].tolist()
    ['a', 'b', 'e']
    """
    moved = questions[questions["diff"].to_numpy(dtype=float) != 0]
    keep = moved["contribution"].abs().sort_values(ascending=False, kind="stable").index
    return moved.loc[sorted(keep[: max(int(top), 0)], key=moved.index.get_loc)]


def question_choices(questions: pd.DataFrame) -> dict[str, str]:
    """The Pair page's question picker: ``""`` (the question that drives the gap most, the
    first of :attr:`PairComparison.questions`), then every question in that order, each
    named with its benchmark where the data pool several and its difference.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.engines.pair import question_choices
    >>> q = pd.DataFrame({"question": ["q2", "q1"], "benchmark": ["b", "c"],
    ...                   "diff": [0.5, -0.25]})
    >>> list(question_choices(q).values())
    ['the one that drives the gap most (q2 · b)', 'q2 · b  (difference +0.500)', \
'q1 · c  (difference -0.250)']
    """
    ids = questions["question"].tolist()
    bench = questions["benchmark"].tolist() if "benchmark" in questions else None
    name = [f"{x} · {bn}" for x, bn in zip(ids, bench, strict=True)] if bench else ids
    return {"": f"the one that drives the gap most ({name[0]})"} | {
        x: f"{n}  (difference {d:+.3f})"
        for x, n, d in zip(ids, name, questions["diff"], strict=True)}


def gap_view(questions: pd.DataFrame, top: int = 20) -> tuple[pd.DataFrame, str]:
    """The questions table as a report shows it beside the chart: the chart's rows
    (:func:`gap_rows`, same rows, same order) with ``cumulative`` summed over the rows
    shown, and one line saying what the questions left out add up to -- so the rows
    shown plus that line give the mean difference (the last ``cumulative`` of the whole
    table). A ``benchmark`` column with one value says nothing and is dropped.

    Example
    -------
    >>> from scorio_core.engines.pair import compare_pair, gap_view
    >>> import numpy as np
    >>> R = np.zeros((2, 6, 2), int); R[0, :3] = 1; R[1, 3] = 1; R[0, 4, 0] = 1
    >>> cmp = compare_pair(sc.Outcomes(R, models=["a", "b"]), "a", "b")
    >>> shown, note = gap_view(cmp.questions, top=3)
    >>> shown["question"].tolist(), shown["cumulative"].round(4).tolist()
    (['q0', 'q1', 'q2'], [0.1667, 0.3333, 0.5])
    >>> print(note)  # doctest: +NORMALIZE_WHITESPACE
    These 3 of the 6 questions are the chart's bars, the 3 that move the difference most
    either way; they add up to 0.5000. The 3 left out add -0.0833 (a tie: the two models
    score the same on it; 2 that move it less): together the mean difference, 0.4167. The
    CSV/JSON export lists every question.
    """
    from ..formatting import format_column

    shown = gap_rows(questions, top).copy()
    rest = questions.drop(index=shown.index)
    if "benchmark" in shown and questions["benchmark"].nunique(dropna=False) <= 1:
        shown = shown.drop(columns="benchmark")
    # the table's running total (exact: compare_pair sums count differences) less what the
    # rows left out before each row add: where those are ties (0), the table's own numbers,
    # so an exact tie's bars add up to 0, not to the float noise of their sum
    left_out = questions["contribution"].to_numpy(dtype=float).copy()
    at = [questions.index.get_loc(i) for i in shown.index]
    left_out[at] = 0.0
    before = np.cumsum(left_out)
    full = questions["cumulative"].to_numpy(dtype=float)
    shown["cumulative"] = full[at] - before[at]
    total = float(full[-1]) if len(full) else 0.0
    left = float(before[-1]) if len(full) else 0.0
    kept = total - left
    # as the table prints its contribution column
    kept_s, left_s, total_s = format_column([kept, left, total], "contribution")
    M, n, k = len(questions), len(shown), len(rest)
    ties = int((rest["diff"].to_numpy(dtype=float) == 0).sum())
    tie_s = (f"{'a tie' if ties == 1 else f'{ties:,} ties'}: the two models score the same "
             f"on {'it' if ties == 1 else 'each'}")
    they = "it adds" if n == 1 else "they add up to"
    if not n:
        said = f"No bar: the two models score the same on all {M:,} questions."
    elif not k:
        said = (f"All {M:,} questions are the chart's bars; they add up to the mean difference, "
                f"{total_s}.")
    else:
        these = (f"This 1 of the {M:,} questions is the chart's bar" if n == 1 else
                 f"These {n:,} of the {M:,} questions are the chart's bars")
        if ties == k:
            said = (f"{these}, every question on which the two models differ; {they} the "
                    f"mean difference, {total_s} (the {k:,} left out "
                    + ("is a tie: the two models score the same on it)." if k == 1 else
                       "are ties: the two models score the same on each)."))
        else:
            most = ("the one that moves the difference most" if n == 1 else
                    f"the {n:,} that move the difference most either way")
            less = f"{k - ties:,} that move{'s' if k - ties == 1 else ''} it less"
            said = (f"{these}, {most}; {they} {kept_s}. The {k:,} left out add "
                    f"{left_s} (" + (f"{tie_s}; " if ties else "") + f"{less}): together the "
                    f"mean difference, {total_s}.")
    return shown, said + " The CSV/JSON export lists every question."


@dataclass(frozen=True)
class FlipTable:
    """One question's completions of two models side by side (:func:`flip_table`).

    Attributes
    ----------
    question : str
    a, b : str
    trials : pandas.DataFrame
        One row per trial, in the order of ``R``'s trial axis: ``trial``, the trial as the
        user's files number it (:attr:`trial_meaning`: an Inspect epoch, an lm-eval repeat
        from 1, ...); ``flip``, True where the two scores differ; ``category_a``,
        ``score_a`` (from ``R``) and each per-trial text column ``<col>_a``; the same for
        ``b``. Where the two models' rows are different trials of their files (a model
        with an errored sample, read with ``on_missing="truncate"``: its second completion
        in ``R`` is its third epoch), each model's own number instead: ``trial_a`` and
        ``trial_b``, no ``trial``. The position along the axis (``0..N-1``) is
        :meth:`panel`'s argument, never a column.
    groups : pandas.DataFrame
        Each model's distinct answers (``answer``, else ``output``) with how many trials
        gave them, which ones (``trials``: numbered as ``trial``), and their mean score:
        the repeats grouped.
    context : dict
        The question's own texts (input, target, metadata: :data:`PER_QUESTION`, in that
        order) as the store has them.
    has_text : bool
        Whether the data carry completion texts (``Outcomes.samples``).
    benchmark : str or None
        The question's benchmark where the data pool several
        (:func:`question_benchmarks`), else ``None``.
    texts : tuple of str
        The completion texts ``trials`` holds (``<name>_a``, ``<name>_b``), in display order
        (:func:`trial_texts`): every text the store has for a trial.
    trial_meaning : str
        What the trial numbers are (:func:`trial_meaning`), for the line under a table.
    """

    question: str
    a: str
    b: str
    trials: pd.DataFrame
    groups: pd.DataFrame
    context: dict[str, Any]
    has_text: bool
    benchmark: str | None = None
    texts: tuple[str, ...] = ()
    trial_meaning: str = ""

    def trial_ids(self, position: int) -> tuple[Any, Any]:
        """The number of the trial at ``position`` (``0..N-1``) of model ``a`` and of ``b``,
        as the files number it (the same twice unless the table has ``trial_a``)."""
        row = self.trials.iloc[int(position)]
        ta, tb = (row["trial"], row["trial"]) if "trial" in self.trials else (row["trial_a"],
                                                                             row["trial_b"])
        return tuple(t.item() if isinstance(t, np.generic) else t for t in (ta, tb))

    def trial_label(self, position: int) -> str:
        """The trial at ``position`` as a picker names it: ``"3"``, or each model's number
        where they differ (``"3 (alpha) / 2 (beta)"``).

        Example
        -------
        >>> import pandas as pd
        >>> from scorio_core.engines.pair import FlipTable
        >>> t = pd.DataFrame({"trial_a": [1, 3], "trial_b": [1, 2]})
        >>> f = FlipTable("q", "x", "y", t, pd.DataFrame(), {}, False)
        >>> f.trial_label(0), f.trial_label(1)
        ('1', '3 (x) / 2 (y)')
        """
        ta, tb = self.trial_ids(position)
        return str(ta) if _same(ta, tb) else f"{ta} ({self.a}) / {tb} ({self.b})"

    @property
    def label(self) -> str:
        """The question as a heading names it: its id, and its benchmark where the data pool
        several (``"7 (benchmark gsm8k)"``)."""
        return self.question + (f" (benchmark {self.benchmark})" if self.benchmark else "")

    def panel(self, trial: int) -> TrialPanel:
        """The trial at position ``trial`` (``0..N-1``) of both models as the Pair page reads
        it: each model's category and score, its trial number as the files give it
        (:meth:`trial_ids`), then every text of :attr:`texts` in that order that either
        model has (a text neither has is left out; a model's empty or missing text is
        ``None``).

        Example
        -------
        >>> import pandas as pd
        >>> from scorio_core.engines.pair import FlipTable
        >>> t = pd.DataFrame({"trial": [0], "category_a": ["correct"], "score_a": [1.0],
        ...                   "output_a": ["4"], "error_a": [None], "category_b": ["wrong"],
        ...                   "score_b": [0.0], "output_b": [""], "error_b": [None]})
        >>> p = FlipTable("q1", "x", "y", t, pd.DataFrame(), {}, True,
        ...               texts=("output", "error")).panel(0)
        >>> p.heads, p.ids
        ((('x', 'correct', 1.0), ('y', 'wrong', 0.0)), (0, 0))
        >>> [(r.name, r.a, r.b, r.labels) for r in p.rows]
        [('output', '4', None, ('output', 'output: none'))]
        """
        row = self.trials.iloc[int(trial)]
        heads = tuple((m, row[f"category_{tag}"], float(row[f"score_{tag}"]))
                      for tag, m in (("a", self.a), ("b", self.b)))
        rows = []
        for name in self.texts:
            a, b = (row.get(f"{name}_{tag}") for tag in ("a", "b"))
            a, b = (t if isinstance(t, str) and t else None for t in (a, b))
            if (a, b) != (None, None):
                rows.append(TextRow(name, a, b))
        return TrialPanel(int(trial), heads, tuple(rows), self.trial_ids(trial))


class TextRow(NamedTuple):
    """One text of a trial, both models' (``None``: that model has none)."""

    name: str
    a: str | None
    b: str | None

    @property
    def labels(self) -> tuple[str, str]:
        """The line above each model's text: the text's name, ``"<name>: none"`` where the
        model has none (its box is then left out)."""
        return tuple(self.name if t else f"{self.name}: none" for t in (self.a, self.b))


@dataclass(frozen=True)
class TrialPanel:
    """One trial of both models side by side (:meth:`FlipTable.panel`).

    Attributes
    ----------
    trial : int
        The trial's position ``0..N-1`` along ``R``'s trial axis (internal: what a person
        reads is ``ids``).
    heads : tuple
        ``(model, category, score)`` of model ``a``, then of ``b``.
    rows : tuple of TextRow
        The texts to show, in display order (:func:`trial_texts`).
    ids : tuple
        The trial's number in model ``a``'s and ``b``'s files (:attr:`FlipTable.trials`'
        ``trial``).
    """

    trial: int
    heads: tuple[tuple[str, str, float], tuple[str, str, float]]
    rows: tuple[TextRow, ...]
    ids: tuple[Any, Any] = (None, None)


def flip_table(data: Outcomes, a: str, b: str, question: str) -> FlipTable:
    """Both models' trials on ``question``: each repeat's category and score (from ``R``) and,
    when the data carry texts, every text the sample store has for it (:func:`trial_texts`:
    reasoning, output, answer, explanation, ...; one question read from the store), with
    the question's own texts (input, target, metadata) once in ``context``. Each trial is
    numbered as the user's files number it (:attr:`FlipTable.trials`, :func:`trial_meaning`):
    the store's trial ids, else the data's ``metadata["trial_ids"]``, else 1..N.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.engines.pair import flip_table
    >>> R = np.array([[[1, 0, 1]], [[0, 0, 1]]])
    >>> f = flip_table(Outcomes(R, models=["a", "b"], metadata={"trial_ids": [1, 2, 3]}),
    ...                "a", "b", "q0")
    >>> f.trials[["trial", "flip", "score_a", "score_b"]].values.tolist()
    [[1, True, 1.0, 0.0], [2, False, 0.0, 0.0], [3, False, 1.0, 1.0]]
    >>> f.groups[["model", "category", "trials"]].values.tolist()
    [['a', 'correct', '1, 3'], ['a', 'wrong', '2'], ['b', 'wrong', '1, 2'], ['b', 'correct', '3']]
    """
    ia, ib = model_index(data, a), model_index(data, b)
    try:
        qi = data.questions.index(str(question))
    except ValueError:
        hint = did_you_mean(question, data.questions)
        raise ValidationError(
            f"unknown question {question!r}"
            + (hint or f"; e.g. {', '.join(map(repr, data.questions[:10]))}")
        ) from None
    cats, w = data.category_names, data.weights
    frame: dict[str, Any] = {}
    for tag, i in (("a", ia), ("b", ib)):
        codes = data.R[i, qi]
        frame[f"category_{tag}"] = [cats[c] for c in codes]
        frame[f"score_{tag}"] = w[codes]
    trials = pd.DataFrame(frame)
    trials.insert(0, "flip", trials["score_a"] != trials["score_b"])
    context: dict[str, Any] = {}
    text_cols: tuple[str, ...] = ()
    store = data.samples
    pos = pd.Series(np.arange(data.N))
    stored = {"a": pd.Series([None] * data.N, dtype=object),
              "b": pd.Series([None] * data.N, dtype=object)}
    if store is not None:
        rows = store.for_question(str(question), models=[a, b]).to_pandas()
        rows = rows[rows["trial"].notna() & (rows["trial"] < data.N)]
        for c in PER_QUESTION:
            vals = rows[c].dropna().unique().tolist() if c in rows else []
            if vals:
                context[c] = vals[0] if len(vals) == 1 else " | ".join(map(str, vals))
        text_cols = trial_texts(c for c in store.columns if c in rows)
        for tag, m in (("a", a), ("b", b)):
            mine = rows[rows["model"] == m].set_index("trial")
            if "trial_id" in mine:
                stored[tag] = pos.map(mine["trial_id"]).astype(object)
            for c in text_cols:
                trials[f"{c}_{tag}"] = pos.map(mine[c])
    ids, meaning = _numbering(data, qi, stored)
    for k, v in ids.items():
        trials[k if k == "trial" else f"trial_{k}"] = v
    order = ["trial", "flip"] + [f"{k}_{tag}" for tag in ("a", "b")
                                 for k in ("trial", "category", "score", *text_cols)]
    trials = trials[[c for c in order if c in trials]]
    bench = question_benchmarks(data)
    return FlipTable(str(question), str(a), str(b), trials,
                     _groups(trials, ids, a, b, text_cols), context, store is not None,
                     bench[qi] if bench else None, text_cols, meaning)


#: What the trial numbers of one question's completions are, by the harness that wrote the
#: logs (``Outcomes.metadata["format"]``, a log's ``import_report`` files): the harness's
#: own epoch or repeat id where it has one -- the number a person finds in the log -- else
#: the order it wrote them in, counted from 1.
TRIAL_IDS = {
    "inspect": "the sample's epoch in the Inspect log",
    "lm_eval": "the repeat in the lm-eval samples file, counted from 1: the first of a "
               "document's resps is 1",
    "helm": "HELM's train_trial_index, which counts train trials from 0",
    "openai_evals": "the sample's match or metrics event in the OpenAI evals log, counted "
                    "from 1 in event order",
}
#: A table's trials: the file's own trial column.
TABLE_TRIALS = "the file's trial column"
#: Ids the data carry from elsewhere (an ``.npz`` written from logs, an in-memory dataset).
GIVEN_TRIALS = "the trial ids the data carry (metadata['trial_ids'])"
#: Data without trial ids: the place along the trial axis, counted from 1.
NO_TRIAL_IDS = "the trial's place among the question's trials, counted from 1 (the data name " \
               "no trial ids)"
_TABLES = ("csv", "tsv", "parquet", "jsonl", "json", "ndjson", "xlsx", "table")


def trial_meaning(data: Outcomes, question: int, has_ids: bool = True) -> str:
    """What the trial numbers of question ``question`` (its index) are: the harness's own
    id (:data:`TRIAL_IDS`, by the format of the logs of that question's benchmark), a
    table's trial column, the ids the data carry; :data:`NO_TRIAL_IDS` without ids.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.engines.pair import trial_meaning
    >>> o = Outcomes(np.zeros((1, 1, 2), int), metadata={"format": "inspect"})
    >>> trial_meaning(o, 0)
    "the sample's epoch in the Inspect log"
    >>> trial_meaning(o, 0, has_ids=False)[:40]
    "the trial's place among the question's t"
    """
    if not has_ids:
        return NO_TRIAL_IDS
    bench = data.benchmarks[question] if data.benchmarks else None
    src = data.parts[bench] if data.parts and bench in data.parts else data
    rep = src.metadata.get("import_report")
    files = [f for f in (rep.get("files") or []) if isinstance(f, dict)] \
        if isinstance(rep, dict) else []
    mine = [f for f in files if bench is None or f.get("benchmark") == bench] or files
    fmts = list(dict.fromkeys(str(f.get("format")) for f in mine)) or \
        str(src.metadata.get("format") or "").split("+")
    said = [TRIAL_IDS.get(f, TABLE_TRIALS if f in _TABLES else GIVEN_TRIALS) for f in fmts]
    said = list(dict.fromkeys(said))
    return said[0] if len(said) == 1 else "each log's own: " + "; ".join(said)


def _same(x: Any, y: Any) -> bool:
    return (pd.isna(x) and pd.isna(y)) if pd.isna(x) or pd.isna(y) else x == y


def _numbering(data: Outcomes, qi: int,
               stored: dict[str, pd.Series]) -> tuple[dict[str, pd.Series], str]:
    """Each trial's number as the user's files give it, and what it is: ``{"trial": ids}``
    when both models' trials at each position are the same trial of their files, else
    ``{"a": ids, "b": ids}``. The ids are the store's (``stored``: text, per model and
    position), a position without one taking ``metadata["trial_ids"]``; without any,
    1..N (:data:`NO_TRIAL_IDS`). Whole numbers become an integer column (:func:`_trial_ids`)."""
    n = data.N
    given = data.metadata.get("trial_ids")
    given = ([None if v is None else str(v) for v in given[:n]]
             if isinstance(given, list | tuple) and len(given) >= n else None)
    both = pd.concat([s if given is None else s.where(s.notna(), pd.Series(given, dtype=object))
                      for s in (stored["a"], stored["b"])], ignore_index=True)
    if both.isna().all():
        return {"trial": pd.Series(np.arange(1, n + 1))}, trial_meaning(data, qi, False)
    both = _trial_ids(both)
    a, b = both.iloc[:n].reset_index(drop=True), both.iloc[n:].reset_index(drop=True)
    meaning = trial_meaning(data, qi)
    if all(_same(x, y) or pd.isna(x) or pd.isna(y) for x, y in zip(a, b, strict=True)):
        return {"trial": a.where(a.notna(), b)}, meaning
    return {"a": a, "b": b}, meaning


def _trial_ids(ids: pd.Series) -> pd.Series:
    """The file's own trial ids (text in the sample store) as whole numbers where every one
    reads as one -- an Inspect epoch, an lm-eval repeat, a table's trial column -- so they
    are a number column (right-aligned, sorted 2 before 10) in the app, the report and the
    JSON export; else as the file wrote them (text, like a question id).

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.engines.pair import _trial_ids
    >>> _trial_ids(pd.Series(["1", "2", None])).tolist(), _trial_ids(pd.Series(["1", "a"])).tolist()
    ([1, 2, <NA>], ['1', 'a'])
    """
    present = ids.dropna()
    whole = present.astype(str).str.fullmatch(r"\s*[+-]?\d{1,18}\s*")  # within int64
    if len(present) == 0 or not whole.all():
        return ids
    return pd.Series([None if pd.isna(v) else int(v) for v in ids], index=ids.index,
                     dtype="Int64")


def answer_key(text_cols) -> str | None:
    """The text that tells a model's distinct answers apart among ``text_cols`` (names
    without the ``_a``/``_b`` suffix): its ``answer``, else its ``output``; ``None`` (by
    category) when it has neither -- for the 'repeats' table and the report's flips alike.

    Example
    -------
    >>> from scorio_core.engines.pair import answer_key
    >>> answer_key(["output", "answer"]), answer_key(["error"])
    ('answer', None)
    """
    return next((c for c in ("answer", "output") if c in text_cols), None)


def _groups(trials: pd.DataFrame, ids: dict[str, pd.Series], a: str, b: str,
            text_cols) -> pd.DataFrame:
    """Each model's distinct answers: how many repeats gave each, which (each model's trial
    numbers, ``ids``: :func:`_numbering`), and their mean score; trials the data hold no
    answer for (none parsed from the reply, a failed call) as one "(no answer recorded)"
    group ("(no output recorded)" where outputs tell them apart)."""
    key = answer_key(text_cols)
    out = []
    for tag, m in (("a", a), ("b", b)):
        col = (trials[f"{key}_{tag}"].fillna(f"(no {key} recorded)") if key
               else trials[f"category_{tag}"])
        g = pd.DataFrame({"value": col, "trial": ids.get("trial", ids.get(tag)),
                          "score": trials[f"score_{tag}"]})
        for value, sub in g.groupby("value", sort=False):
            out.append({"model": m, key or "category": value, "repeats": len(sub),
                        "trials": ", ".join(map(str, sub["trial"])),
                        "mean_score": float(sub["score"].mean())})
    df = pd.DataFrame(out)
    return df.sort_values(["model", "repeats"], ascending=[True, False], kind="stable",
                          key=lambda s: s.map({a: 0, b: 1}) if s.name == "model" else s
                          ).reset_index(drop=True)
