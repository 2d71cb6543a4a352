"""The rubric lesson: Bayes@N's closed form term by term for a categorical example
(Don't Pass@k (2026), §2.3-2.4, Algorithm 1)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import eval as ev
from .._validation import ValidationError
from ..display import Shown, recorded
from ..formatting import DECIMALS_ATTR
from .params import LESSON_R

__all__ = ["RubricLesson", "rubric_lesson", "LESSON_DECIMALS"]

#: Decimals of every number the rubric lesson shows (its table's ``m_α``, ``var_α``, and
#: ``μ``, ``σ`` in the page's metrics, the text and the chart's tooltip): the worked
#: example's ``var_α`` are a few thousandths. Declared once, for the page, CLI and report.
LESSON_DECIMALS = 5


@dataclass(frozen=True, repr=False)
class RubricLesson(Shown):
    """Bayes@N for one model, term by term (Algorithm 1).

    ``table``: per question ``α``: counts ``ν_αk`` (data + prior + 1), the question's
    posterior mean score ``m_α = Σ_k (ν_αk/T)(w_k - w0)`` and variance term
    ``var_α = Σ_k (ν_αk/T)(w_k - w0)² - m_α²`` (the bracketed term of σ² in the formula the
    Simulator shows; named ``var`` so it is not read as the counts ``ν``). Then
    ``mu = w0 + (1/M) Σ m_α`` and ``sigma² = Σ var_α / (M² (T + 1))``; ``mu, sigma`` agree
    with :func:`scorio_core.eval.bayes`. ``R`` and ``R0`` are the outcomes it was given (its
    display draws μ as the partial-credit weight moves from them: the Simulator's lesson).
    """

    analysis_id = "rubric-lesson"  # its display: the Simulator's tables and chart

    table: pd.DataFrame
    weights: tuple[float, ...]
    T: int
    M: int
    mu: float
    sigma: float
    R: tuple[tuple[int, ...], ...] = ()
    R0: tuple[tuple[int, ...], ...] | None = None


def _rows(R) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(x) for x in row) for row in np.asarray(R).reshape(len(R), -1))


@recorded("rubric-lesson", params={"weights": "w"})
def rubric_lesson(R=LESSON_R, w=(0.0, 0.5, 1.0), R0=None) -> RubricLesson:
    """The closed form of Bayes@N for a small categorical ``R (M, N)`` and weights ``w``.

    Example
    -------
    >>> les = sc.rubric_lesson()
    >>> round(les.mu, 6), round(les.sigma, 6)
    (0.5625, 0.091998)
    """
    n, n0, wv = ev.prepare_counts(R, w, R0)
    if n.ndim != 2:
        raise ValidationError(f"the lesson takes one model's R (M, N); got shape {np.shape(R)}")
    nu = n + 1 + (0 if n0 is None else n0)
    T = int(nu[0].sum())
    M = n.shape[0]
    dw = wv - wv[0]
    m_a = (nu / T) @ dw
    v_a = (nu / T) @ (dw * dw) - m_a**2
    mu = float(wv[0] + m_a.mean())
    sigma = float(np.sqrt(max(v_a.sum(), 0.0) / (M * M * (T + 1))))
    ref = ev.bayes(R, wv, R0)
    assert abs(ref.mu - mu) < 1e-12 and abs(ref.sigma - sigma) < 1e-12
    table = pd.DataFrame({"question": [f"Q{a + 1}" for a in range(M)]})
    for k in range(nu.shape[1]):
        table[f"ν_{k}"] = nu[:, k]
    table["m_α"] = m_a
    table["var_α"] = v_a
    table.attrs[DECIMALS_ATTR] = {"m_α": LESSON_DECIMALS, "var_α": LESSON_DECIMALS}
    return RubricLesson(table, tuple(float(x) for x in wv), T, M, mu, sigma, _rows(R),
                        None if R0 is None else _rows(R0))
