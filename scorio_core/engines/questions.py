"""The question view: per-question success of every model, difficulty, discrimination, the
questions that carry no information and those where models disagree most.

* ``score[l, α]`` -- model ``l``'s mean weighted score over its ``N`` trials on question ``α``
  (the success rate for binary data): the cells of the models × questions heatmap.
* ``mean`` -- the question's mean score over models and trials; questions are ordered from
  easiest (highest mean) to hardest.
* ``difficulty``, ``discrimination`` -- the 2PL IRT item parameters ``b_α``, ``a_α`` of
  ``p_lα = σ(a_α (θ_l − b_α))`` fitted jointly with the model abilities
  (:func:`scorio_core.rank.irt.rasch_2pl`, 002 eq. 55; binary outcomes) under a weakly
  informative log-normal prior on the slopes, ``log a ~ N(0, SLOPE_PRIOR_SD²)``: a higher
  ``b`` is harder, a higher ``a`` separates stronger from weaker models more sharply.
  Constant questions have ``b = ±inf``. Why the prior: with few models a question often
  splits them into always right and always wrong but for one model in between, and there
  the maximum-likelihood slope is infinite (the fit never converges and reports whatever
  iterate it stopped at: slopes of 25–500 on the bundled 9-model run). With the prior the
  fit converges, and on data drawn from a 2PL model with known parameters it recovers the
  difficulties better (correlation with the truth, 12 models × 100 questions × 8 trials:
  0.72 → 0.95; 9 × 100 × 100 with widely spread slopes: 0.82 → 0.96) and the slopes no
  worse (``tests/engines/test_questions.py``); with many models and trials the data
  dominate and nothing changes.
* ``item_rest_r`` -- the classical discrimination: correlation across models between the
  question's score and the model's mean on the other questions (any weights).
* ``uninformative`` -- every model has the same mean score on the question: always right,
  always wrong, or tied at one score in between (``all tied``: each of two models right on
  half its trials). Such a question cannot tell models apart -- every paired difference on
  it is 0 -- and no 2PL difficulty is estimable (:data:`NO_INFORMATION_TEXT`).
* ``status`` of an informative question whose 2PL item has no estimate, and those parameters
  left blank (NaN) instead of the fit's meaningless number:

  - ``no 2PL estimate`` -- the question separates only models whose 2PL ability is
    unbounded: a model wrong (right) on every informative question has ability −∞ (+∞), and
    a question every other model answers alike is fitted perfectly by any slope with a
    difficulty running off towards that model (to −∞ when only always-wrong models miss it).
    The likelihood is then flat in the slope, which stays at the prior's value 1, and has no
    finite difficulty (the fit reports where a vague ridge stopped it, e.g. −13.9): neither
    parameter is estimable. Found from the data (:func:`unbounded_separation`), peeling
    such models and questions off until none is left.
  - ``no 2PL difficulty`` -- the fitted slope is small (below :data:`MIN_SLOPE`, or the
    difficulty ``−d/a`` lies beyond ±:data:`MAX_DIFFICULTY`): the question hardly orders
    models or orders them against the rest (``item_rest_r < 0``; the 2PL cannot fit a
    negative slope). The slope is its estimate; the difficulty is not meaningful.

  A question that splits models of finite ability perfectly (always right above a gap,
  always wrong below it) keeps both: its difficulty lies in the gap, its slope is the
  compromise of the data (which push it up) and the prior.
* ``best``/``worst`` -- the model with the highest/lowest score on the question, or
  ``"k tied"`` when ``k`` models share that score; blank for questions that carry no
  information (every model tied: the ``status`` says which way).
* ``disagreement`` -- Gini mean difference of the per-model scores,
  ``mean_{i<j} |score_i − score_j|``: the expected gap between two models picked at random.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> R = np.zeros((3, 4, 2), int); R[0, 1] = 1; R[:, 2] = 1; R[:2, 3] = 1
>>> qs = sc.question_stats(Outcomes(R), irt=False)
>>> qs.table[["question", "status", "disagreement"]].values.tolist()
[['q2', 'always right', 0.0], ['q3', '', 0.6666666666666666], ['q1', '', 0.6666666666666666], \
['q0', 'always wrong', 0.0]]
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._ties import NOISE_FLOOR
from .._validation import ValidationError, checked_keywords, did_you_mean
from ..display import Displayed
from ..eval import category_counts, count_mean
from ..outcomes import Outcomes, as_outcomes

__all__ = ["QuestionStats", "question_stats", "gini_mean_difference", "by_attribute",
           "unbounded_separation", "MIN_SLOPE", "MAX_DIFFICULTY", "SLOPE_PRIOR_SD",
           "STATUS_HELP", "ALL_TIED", "NO_INFORMATION", "NO_INFORMATION_TEXT"]

#: ``status`` of a question on which every model has the same mean score but not all
#: right or all wrong (more than one model): it separates none of them.
ALL_TIED = "all tied"
#: ``status`` of the questions that cannot separate models.
NO_INFORMATION = ("always right", "always wrong", ALL_TIED)
#: What a question that carries no information is, in the words every rendering uses (the
#: CLI, the report, the Questions page, the caveats): the rule of :data:`NO_INFORMATION`.
NO_INFORMATION_TEXT = ("every model has the same mean score on them (always right, always "
                       "wrong, or all tied at one score), so they cannot separate models")
#: ``status`` of an informative question none of whose 2PL parameters is estimable (module
#: docstring): it separates only models of unbounded ability.
NO_ESTIMATE = "no 2PL estimate"
#: ``status`` of an informative question whose 2PL difficulty is not meaningful: its slope
#: is (near) zero.
NO_DIFFICULTY = "no 2PL difficulty"
#: The statuses of informative questions without a usable 2PL item (left off the item map).
NO_2PL = (NO_ESTIMATE, NO_DIFFICULTY)
#: What a ``status`` says, for a column's help (the Questions page) and readers.
STATUS_HELP = (
    "always right / always wrong / all tied: every model the same mean score, no information "
    "(no 2PL difficulty); no 2PL estimate: "
    "the question separates only models wrong (or right) on every question, so neither 2PL "
    "parameter is estimable (both left blank); no 2PL difficulty: its 2PL slope is near 0, "
    "so the difficulty is not meaningful (left blank); blank: informative, with both 2PL "
    "parameters")
#: A 2PL slope below this has collapsed: the question orders models against the rest (2PL
#: cannot fit a negative slope), so its difficulty runs off to a meaningless extreme.
MIN_SLOPE = 0.05
#: Largest |difficulty| (logit units) taken as an estimate: beyond it a fitted difficulty is
#: a slope near 0 dividing the intercept (``b = −d/a``), not a location among the models.
MAX_DIFFICULTY = 10.0
#: s.d. of the log-normal prior on the 2PL slopes of the question view (module docstring):
#: ``a`` within [0.61, 1.65] at one s.d. and [0.37, 2.7] at two.
SLOPE_PRIOR_SD = 0.5


def gini_mean_difference(x: np.ndarray) -> np.ndarray:
    """``mean_{i<j} |x_i − x_j|`` over the first axis of ``x (L, ...)`` (0 for one row).

    Sorting gives it in ``O(L log L)``: ``Σ_{i<j} |x_i − x_j| = Σ_i (2i − L + 1) x_(i)``.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.engines.questions import gini_mean_difference
    >>> gini_mean_difference(np.array([[0.0], [1.0], [1.0]])).tolist()
    [0.6666666666666666]
    """
    x = np.sort(np.asarray(x, dtype=float), axis=0)
    L = x.shape[0]
    if L < 2:
        return np.zeros(x.shape[1:])
    coef = (2 * np.arange(L) - L + 1).reshape((L,) + (1,) * (x.ndim - 1))
    return (coef * x).sum(0) / (L * (L - 1) / 2)


def unbounded_separation(k: np.ndarray, N: int) -> np.ndarray:
    """Informative questions that separate only models of unbounded 2PL ability.

    ``k (L, M)``: each model's correct count of ``N`` trials. A model that got every
    informative question wrong (right) has joint-ML ability −∞ (+∞) whatever the item
    parameters; a question that the remaining models all answer alike is then informative
    only through those models, so its difficulty runs off and its slope is not determined.
    Leaving those questions out can make another model always wrong (right) on the rest:
    the models and questions are peeled off until none is left. Returns a boolean ``(M,)``:
    informative over all models, constant over the models of bounded ability.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.engines.questions import unbounded_separation
    >>> k = np.array([[3, 2, 0], [3, 1, 3], [0, 0, 0]])  # the last model: always wrong
    >>> unbounded_separation(k, 3).tolist()  # q0: the other two always right
    [True, False, False]
    """
    return _peel(np.asarray(k), N)[1]


def _peel(k: np.ndarray, N: int) -> tuple[np.ndarray, np.ndarray]:
    """``(bounded models (L,), questions separating only unbounded ones (M,))``
    (:func:`unbounded_separation`)."""
    L = k.shape[0]

    def informative(rows: np.ndarray) -> np.ndarray:
        t = k[rows].sum(0)
        return (t > 0) & (t < rows.sum() * N)

    bounded = np.ones(L, dtype=bool)
    while bounded.any():
        q = informative(bounded)
        off = bounded & ((k[:, q] == 0).all(1) | (k[:, q] == N).all(1))
        if not off.any():
            break
        bounded &= ~off
    inside = informative(bounded) if bounded.any() else np.zeros(k.shape[1], dtype=bool)
    return bounded, informative(np.ones(L, dtype=bool)) & ~inside


def _tied_name(score: np.ndarray, models: np.ndarray, lowest: bool) -> np.ndarray:
    """Per question (column of ``score (L, M)``), the model with the highest (``lowest``:
    lowest) score, or ``"k tied"`` when ``k`` models share it (``"all tied"``). Scores that
    differ by float noise only are one value (the rankers' tolerance, ``_ties``)."""
    s = -score if lowest else score
    top = s.max(0)
    tol = NOISE_FLOOR + 1e-9 * np.abs(top)
    at = s >= top - tol
    n = at.sum(0)
    L = score.shape[0]
    names = models[np.argmax(at, axis=0)].astype(object)
    return np.where(n == 1, names, np.where(n == L, "all tied", [f"{int(x)} tied" for x in n]))


def _item_rest(score: np.ndarray) -> np.ndarray:
    """Correlation across models of each question's score with the mean of the others."""
    L, M = score.shape
    if L < 3 or M < 2:
        return np.full(M, np.nan)
    rest = (score.sum(1, keepdims=True) - score) / (M - 1)  # (L, M)
    a = score - score.mean(0)
    b = rest - rest.mean(0)
    den = np.sqrt((a * a).sum(0) * (b * b).sum(0))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (a * b).sum(0) / np.where(den > 0, den, 1.0), np.nan)


@dataclass(frozen=True, repr=False)  # displays itself (scorio_core.display.VIEWS)
class QuestionStats(Displayed):
    """Result of :func:`question_stats`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per question, easiest first: ``question``, its ``benchmark`` when the data
        pool several (:attr:`~scorio_core.Outcomes.benchmark_names`; none for one), the
        question attributes, ``mean``,
        ``sd_models``, ``disagreement``, ``difficulty``, ``discrimination``, ``item_rest_r``,
        ``status`` (``always right`` / ``always wrong``: no information; ``no 2PL
        estimate``: informative, but neither 2PL parameter is estimable; ``no 2PL
        difficulty``: informative, its slope near 0 and its difficulty not meaningful; the
        parameters that are not estimable are NaN; empty otherwise: :data:`STATUS_HELP`) and
        ``best``/``worst`` (the model with the highest/lowest score, ``"k tied"`` when
        ``k`` models share it).
    score : numpy.ndarray, shape (L, M)
        Per model–question mean weighted score, rows in ``models`` order (best first, as
        the leaderboard orders its rows: :data:`~scorio_core.leaderboard.ROW_ORDER`, so an
        exact tie keeps the data's order) and columns in ``table`` order (easiest first).
    models, questions : tuple of str
        The rows and columns of ``score``.
    irt : str
        How the 2PL fit went (``"converged"``, ``"not converged"``) or why it was not run.
    weights : tuple of float
    unbounded : tuple of str
        The models whose 2PL ability is unbounded (wrong, or right, on every informative
        question; :func:`unbounded_separation`), in the data's order; empty without the fit.
    """

    table: pd.DataFrame
    score: np.ndarray
    models: tuple[str, ...]
    questions: tuple[str, ...]
    irt: str
    weights: tuple[float, ...] = field(default=(0.0, 1.0))
    unbounded: tuple[str, ...] = ()

    @property
    def collapsed(self) -> pd.DataFrame:
        """Informative questions without a usable 2PL item (``status`` in :data:`NO_2PL`):
        those that separate only models of unbounded ability (no estimate) and those whose
        slope is near 0 (no difficulty; typically ranking models against the rest,
        ``item_rest_r < 0``)."""
        t = self.table
        return t[t["status"].isin(NO_2PL)].reset_index(drop=True)

    @property
    def uninformative(self) -> pd.DataFrame:
        """The questions on which every model has the same mean score (:data:`NO_INFORMATION`:
        always right, always wrong or all tied)."""
        t = self.table
        return t[t["status"].isin(NO_INFORMATION)].reset_index(drop=True)

    def tied(self, question: str, end: str = "best") -> list[str]:
        """The models at ``end`` (``"best"``: the highest mean score, ``"worst"``: the
        lowest) on ``question``, best models first: whom the table's ``"k tied"`` counts.

        Example
        -------
        >>> import numpy as np
        >>> from scorio_core import Outcomes
        >>> R = np.array([[[1, 1]], [[1, 1]], [[0, 1]]])
        >>> st = sc.question_stats(Outcomes(R, models=["a", "b", "c"]), irt=False)
        >>> st.table.loc[0, ["best", "worst"]].tolist(), st.tied("q0"), st.tied("q0", "worst")
        (['2 tied', 'c'], ['a', 'b'], ['c'])
        """
        if end not in ("best", "worst"):
            raise ValidationError(f"end must be 'best' or 'worst'; got {end!r}")
        if str(question) not in self.questions:
            raise ValidationError(f"unknown question {question!r}"
                                  + (did_you_mean(str(question), self.questions) or ""))
        col = self.score[:, self.questions.index(str(question))]
        s = -col if end == "worst" else col
        top = s.max()
        at = s >= top - (NOISE_FLOOR + 1e-9 * abs(top))  # the table's tie rule (_tied_name)
        return [m for m, hit in zip(self.models, at, strict=True) if hit]

    def disagree(self, top: int = 20) -> pd.DataFrame:
        """The ``top`` questions with the largest disagreement between models."""
        return self.table.sort_values("disagreement", ascending=False, kind="stable").head(
            int(top)).reset_index(drop=True)

    def heatmap_frame(self, columns: int = 200) -> tuple[pd.DataFrame, int]:
        """Long ``model, question, position, score`` for the heatmap and the bin width: with
        more than ``columns`` questions, adjacent questions (in difficulty order) are averaged
        into ``⌈M / columns⌉``-wide bins so the chart stays light; the tables keep all."""
        L, M = self.score.shape
        width = max(1, -(-M // int(columns)))
        nb = -(-M // width)
        pad = np.full((L, nb * width), np.nan)
        pad[:, :M] = self.score
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            binned = np.nanmean(pad.reshape(L, nb, width), axis=2)
        if width == 1:
            labels = list(self.questions)
        else:
            labels = [f"{self.questions[i * width]} … ({min(width, M - i * width)})"
                      for i in range(nb)]
        frame = pd.DataFrame({
            "model": np.repeat(np.asarray(self.models, dtype=object), nb),
            "question": np.tile(np.asarray(labels, dtype=object), L),
            "position": np.tile(np.arange(nb), L),
            "score": binned.ravel(),
        })
        return frame, width


@checked_keywords
def question_stats(data: Outcomes, *, irt: bool = True, max_iter: int = 3000) -> QuestionStats:
    """Per-question statistics of ``data`` (module docstring).

    Parameters
    ----------
    data : Outcomes or array_like (L, M, N)
        A 2-D array is refused with its two readings (:func:`~scorio_core.outcomes.as_outcomes`).
    irt : bool
        Fit the 2PL model for ``difficulty`` and ``discrimination`` (binary data with at least
        two models; otherwise those columns are NaN and :attr:`QuestionStats.irt` says why),
        with the slope prior of :data:`SLOPE_PRIOR_SD`.
    max_iter : int
        Most L-BFGS iterations of the 2PL fit.

    Returns
    -------
    QuestionStats

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> R = np.array([[[1, 1], [0, 0], [1, 0]], [[1, 1], [1, 1], [0, 0]]])
    >>> st = sc.question_stats(Outcomes(R, models=["a", "b"]), irt=False)
    >>> st.table["question"].tolist(), st.table["mean"].tolist()
    (['q0', 'q1', 'q2'], [1.0, 0.5, 0.25])
    """
    data = as_outcomes(data, "question_stats")
    L, M, N = data.shape
    w = np.asarray(data.weights, dtype=float)
    n = category_counts(data.R, data.C)  # (L, M, C+1): one pass over R
    score = (n @ w) / N
    mean = score.mean(0)
    lowest, highest = int(np.argmin(w)), int(np.argmax(w))
    all_low = (n[..., lowest] == N).all(0)
    all_high = (n[..., highest] == N).all(0)
    models = np.asarray(data.models, dtype=object)
    top = _tied_name(score, models, lowest=False)
    bottom = _tied_name(score, models, lowest=True)
    tied = (top == "all tied") & (L > 1)  # every model the same mean score: no pair differs
    status = np.where(all_high, "always right", np.where(
        all_low, "always wrong", np.where(tied, ALL_TIED, "")))
    difficulty = np.full(M, np.nan)
    discrimination = np.full(M, np.nan)
    unbounded: tuple[str, ...] = ()
    note = "not run"
    if irt and not data.is_binary:
        note = "not run: the 2PL model needs binary outcomes"
    elif irt and L < 2:
        note = "not run: the 2PL model needs at least 2 models"
    elif irt:
        from ..rank import irt as irt_models

        _, _, items = irt_models.rasch_2pl(
            data.R, max_iter=max_iter, return_item_params=True,
            reg_discrimination=1.0 / (2.0 * SLOPE_PRIOR_SD**2))
        difficulty = np.asarray(items["difficulty"], dtype=float)
        discrimination = np.where(np.isfinite(difficulty),
                                  np.asarray(items["discrimination"], dtype=float), np.nan)
        note = "converged" if items["converged"] else "not converged"
        informative = status == ""
        bounded, separated = _peel(n[..., highest], N)
        separated &= informative
        unbounded = tuple(np.asarray(data.models, dtype=object)[~bounded])
        flat = (informative & ~separated
                & ((discrimination < MIN_SLOPE) | (np.abs(difficulty) > MAX_DIFFICULTY)))
        status = np.where(separated, NO_ESTIMATE, np.where(flat, NO_DIFFICULTY, status))
        # what is not estimable is not shown: no number the status then contradicts
        difficulty = np.where(separated | flat, np.nan, difficulty)
        discrimination = np.where(separated, np.nan, discrimination)
    # a tied question's slope is the prior's compromise and its difficulty -d/a has nothing
    # to locate: not shown (its status says why), as a constant question's ±inf is
    difficulty = np.where(status == ALL_TIED, np.nan, difficulty)
    # the leaderboard's row order (leaderboard.ROW_ORDER): by the exact mean score from the
    # category totals, so models tied in exact arithmetic stay tied whatever float noise a
    # mean of per-question means carries (eval.count_mean), then by the papers' Bayes@N
    # (uniform prior, as the board's default), then in the data's order
    from ..leaderboard import row_order
    from ..posterior import question_moments

    model_order = row_order(count_mean(n.sum(1), w, M * N), question_moments(n, w).mu)
    q_order = np.lexsort((np.arange(M), -mean))  # easiest first, ties in file order
    spread = score.std(0, ddof=1) if L > 1 else np.zeros(M)
    cols = {"question": np.asarray(data.questions, dtype=object)}
    from .pair import question_benchmarks  # the pair view's rule: pooled benchmarks only

    bench = question_benchmarks(data)
    if bench is not None and "benchmark" not in data.question_attributes:
        cols["benchmark"] = np.asarray(bench, dtype=object)  # which one a question comes from
    for k, v in data.question_attributes.items():
        cols[k] = np.asarray(v, dtype=object)
    cols |= {
        "mean": mean,
        "sd_models": spread,
        "disagreement": gini_mean_difference(score),
        "difficulty": difficulty,
        "discrimination": discrimination,
        "item_rest_r": _item_rest(score),
        "status": status,
        "best": np.where(np.isin(status, NO_INFORMATION), "", top),
        "worst": np.where(np.isin(status, NO_INFORMATION), "", bottom),
    }
    table = pd.DataFrame(cols).iloc[q_order].reset_index(drop=True)
    return QuestionStats(
        table,
        score[np.ix_(model_order, q_order)],
        tuple(models[model_order]),
        tuple(np.asarray(data.questions, dtype=object)[q_order]),
        note,
        tuple(float(x) for x in w),
        unbounded,
    )


def by_attribute(stats: QuestionStats, attribute: str) -> pd.DataFrame:
    """One row per value of a question attribute: questions, mean score, uninformative
    questions, mean disagreement and median 2PL difficulty/discrimination."""
    t = stats.table
    g = t.groupby(attribute, sort=False)
    out = pd.DataFrame({
        "questions": g.size(),
        "mean": g["mean"].mean(),
        "uninformative": g["status"].apply(lambda s: int(s.isin(NO_INFORMATION).sum())),
        "disagreement": g["disagreement"].mean(),
        "difficulty_median": g["difficulty"].apply(
            lambda s: float(np.median(s[np.isfinite(s)])) if np.isfinite(s).any() else np.nan),
        "discrimination_median": g["discrimination"].median(),
    }).reset_index()
    return out.rename(columns={attribute: "subset"}).assign(attribute=attribute)[
        ["attribute", "subset", "questions", "mean", "uninformative", "disagreement",
         "difficulty_median", "discrimination_median"]]
