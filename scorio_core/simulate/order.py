"""Probability of the correct order of two close models vs ``N`` (Don't Pass@k (2026), App. D,
Fig. 6).

The simulated P(correct order) and mean z-score per ``N``, and what the papers'
expected-z rule (:func:`scorio_core.decision.trials_needed_from`) predicts from one
dataset.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from scipy import special

from .. import eval as ev
from .._validation import ValidationError, as_numbers, check_int
from ..decision import _correct_share, trials_needed_from
from ..display import Shown, recorded
from ..formatting import DRAWS_ATTR
from ..resampling import stream
from .params import OrderParams
from .simulator import Progress, _entropy, _map, _rng, mimics, sample_counts

if TYPE_CHECKING:
    from ..parallel import Executor

#: ``paper_reading`` (the measurement behind :data:`PAPER_READING`) is importable from this
#: module for a check; not part of the notebook API.
__all__ = ["PAPER_ORDER", "PAPER_READING", "CorrectOrder", "correct_order"]

#: What Don't Pass@k (2026), App. D (Fig. 6) reports for LLM_10 and LLM_9 (π̄ = 0.6213 and 0.608,
#: 30 questions): P(correct order) and the mean |z| at N = 80, and the N where |z| reaches
#: each threshold. The paper does not give the spread of its questions, which moves all of
#: them (a narrower spread, larger κ, needs more trials): the order study's default spread
#: is the one that reproduces them (:data:`PAPER_READING`).
PAPER_ORDER = {"p_correct_80": 0.837, "z_80": 1.14, "N_at": {1.645: 199, 1.96: 285}}

#: The order study read as App. D reads its Fig. 6 (:func:`paper_reading` at its defaults):
#: every N from 60 to 400 with ``sims`` simulated datasets each (the paper does not say how
#: many; its Fig. 2a draws 1,000), the first N where the noisy mean |z| reaches each line,
#: averaged over ``seeds`` sets of questions (``sd``: the s.d. over them), at the study's
#: default spread κ = ``concentration``. Each of :data:`PAPER_ORDER`'s numbers lies within
#: two s.d. of it; at κ = 3 (the coins lesson's) the same reading gives 0.865, 1.21, 170 and
#: 248, its N 3.4 to 4.2 s.d. early. The study's own grid (every 10 trials, 4,000 datasets per
#: N) reads a smoother curve, which reaches the lines later (N 220 and 310 at κ = 8, seed
#: 0). tests/simulate/test_lesson_claims.py measures it again.
PAPER_READING = {"concentration": 8.0, "seeds": 20, "sims": 1000, "p_correct_80": 0.840,
                 "z_80": 1.16, "N_at": {1.645: 196, 1.96: 290},
                 "sd": {"p_correct_80": 0.012, "z_80": 0.020, 1.645: 6, 1.96: 8}}


@dataclass(frozen=True, repr=False)
class CorrectOrder(Shown):
    """Result of :func:`correct_order`.

    ``table``: per ``N``: ``p_correct`` (simulated probability that Bayes@N ranks the
    truly better model first), ``z_mean`` (mean |z| over simulated datasets), ``rho`` =
    Φ(z_mean) (the papers' ranking confidence ρ = Φ(z), Don't Pass@k (2026), §2.5, read at
    the mean |z| as App. D does), ``z_signed`` (the mean of z signed by the true order:
    negative where a dataset puts the worse model first) and ``rho_signed`` =
    Φ(z_signed). |z| folds the datasets of the wrong order onto positive values, so
    ``z_mean`` and ``rho`` run above ``z_signed`` and the simulated ``p_correct`` while the
    pair is close; ``rho_signed`` follows ``p_correct``. ``n_at`` maps a z threshold to the
    first ``N`` of the grid where ``z_mean`` reaches it (NaN if none), ``n_at_signed`` where
    ``z_signed`` does; ``predicted_at`` to the median
    trials-needed prediction (:func:`scorio_core.decision.trials_needed_from`) made
    from datasets of ``N = predict_from`` trials; ``M`` is the number of questions of each
    simulated dataset; ``sims`` the number of datasets simulated per ``N``, of which
    ``p_correct`` is a share (the table's ``attrs[DRAWS_ATTR]``: its 0 reads "in none of
    them", ``<0.001``, not impossible).
    """

    analysis_id = "order"  # its display: the Simulator's tables and chart

    table: pd.DataFrame
    n_at: dict[float, float]
    predicted_at: dict[float, float]
    true_means: tuple[float, float]
    concentration: float
    predict_from: int
    M: int = 30  # questions per simulated dataset
    sims: int | None = None  # datasets simulated per N (None: a result saved before it was kept)
    n_at_signed: dict[float, float] | None = None  # None: a result saved before it was kept


@recorded("order", params={"sims": "n_sims"})
def correct_order(
    upper: float = OrderParams.upper,
    lower: float = OrderParams.lower,
    *,
    M: int = 30,
    concentration: float = OrderParams.concentration,
    n_values: Sequence[int] = tuple(range(10, 401, 10)),
    n_sims: int = OrderParams.sims,
    thresholds: Sequence[float] = (1.645, 1.96),
    predict_from: int = 80,
    seed=0,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> CorrectOrder:
    """How many trials separate two close models? (Don't Pass@k (2026), App. D, Fig. 6; LLM10 vs
    LLM9).

    Two mimics with exact means ``upper > lower`` over ``M`` fixed questions
    (``Beta`` spread ``κ`` = ``concentration``). Over ``n_sims`` fresh datasets per ``N``:
    the probability of the correct order is the share that Bayes@N orders correctly (as
    :func:`scorio_core.decision.prob_correct_order` counts it), and the z-score
    ``|mu - mu'| / sqrt(σ² + σ'²)`` is averaged over the same datasets.

    The answer depends on the spread: Bayes@N's error on the mean over fixed questions
    has variance ``≈ Σ_α p_α (1 - p_α) / (M² N)``, and ``mean p(1-p) = m(1-m) - Var(p)``,
    so a wider spread of question difficulty (smaller ``κ``) means less trial noise, a
    larger z and a higher probability of the correct order at the same ``N``.

    Each ``N`` of the grid (and the prediction from ``predict_from`` trials) is one piece
    with its own stream, run on ``executor``'s Dask cluster if given
    (:class:`scorio_core.parallel.Executor`); the result is the same either way.

    Example
    -------
    >>> r = sc.correct_order(n_values=(20, 80), n_sims=300, seed=0)
    >>> r.table["N"].tolist(), bool(r.table["p_correct"].iloc[1] > 0.6)
    ([20, 80], True)
    """
    if not 0 < lower < upper < 1:
        raise ValidationError(f"need 0 < lower < upper < 1; got lower={lower}, upper={upper}")
    n_values = as_numbers(n_values, "n_values", example="20,80")
    ns = np.unique(np.asarray(n_values, dtype=int))
    if ns.size == 0 or ns.min() < 1:
        raise ValidationError(f"n_values must be positive whole numbers; got {list(n_values)}")
    sims = check_int("n_sims", n_sims)
    rng = _rng(seed)
    sim = mimics([upper, lower], M, concentration=concentration, seed=rng)
    n80 = check_int("predict_from", predict_from)
    ts = tuple(float(t) for t in as_numbers(thresholds, "thresholds", kind=float,
                                            example="1.645,1.96"))
    entropy = _entropy(rng)
    items = [("order", int(n), entropy, j) for j, n in enumerate(ns)]
    items.append(("predict", n80, entropy, ns.size))
    parts = _map(executor, _order_piece, items, (sim.p, sims, ts), progress, len(items),
                 "trial counts")
    p_correct, z_mean, z_signed = (np.array(col) for col in zip(*parts[:-1], strict=True))
    table = pd.DataFrame(
        {"N": ns, "p_correct": p_correct, "z_mean": z_mean, "rho": special.ndtr(z_mean),
         "z_signed": z_signed, "rho_signed": special.ndtr(z_signed)}
    )
    # a share of simulated datasets (s.e. up to 0.5/√sims: 0.008 at the default 4,000): its
    # decimals are p_correct's (formatting.MONTE_CARLO_NAMES), and its 0 and 1 are bounds --
    # in every table, the chart's tooltip, the headline
    table.attrs[DRAWS_ATTR] = {"p_correct": sims}
    def first_at(z: np.ndarray) -> dict[float, float]:
        hits = {t: np.nonzero(z >= t)[0] for t in ts}
        return {t: float(ns[hit[0]]) if hit.size else float("nan") for t, hit in hits.items()}

    predicted = parts[-1]
    return CorrectOrder(
        table, first_at(z_mean), predicted, (float(upper), float(lower)), float(concentration),
        n80, int(M), sims, first_at(z_signed),
    )


def _order_piece(
    kind: str, n: int, entropy: int, index: int, p: np.ndarray, sims: int, thresholds
):
    """One piece of :func:`correct_order`: ``"order"``: ``(p_correct, z_mean, z_signed)`` at
    ``N = n``; ``"predict"``: the median trials-needed prediction per threshold from
    datasets of ``n`` trials."""
    rng = stream(entropy, index)
    w = np.array([0.0, 1.0])
    many = np.broadcast_to(p, (sims,) + p.shape)
    if kind == "predict":
        # What a practitioner holding n trials would predict: decision.trials_needed_from
        # (the papers' expected-z rule, z grows like sqrt(T + 1)) on every dataset at once.
        post = ev.bayes_from_counts(sample_counts(many, n, rng).astype(float), w)
        return {
            t: float(np.median(trials_needed_from(post.mu, post.sigma, n, post.T, z_star=t)
                               .n_needed[:, 0]))
            for t in thresholds
        }
    counts = sample_counts(many, n, rng)
    # P(correct order) from the datasets z reads (decision.prob_correct_order's statistic):
    # drawing another set for it doubled the study's cost
    p_correct = _correct_share(*(counts @ w).sum(-1).T)
    post = ev.bayes_from_counts(counts, w)
    # z signed by the true order (the better model is column 0): its mean unfolds |z|
    z = (post.mu[:, 0] - post.mu[:, 1]) / np.sqrt(post.sigma[:, 0] ** 2 + post.sigma[:, 1] ** 2)
    return p_correct, float(np.mean(np.abs(z))), float(np.mean(z))


def paper_reading(
    concentration: float = OrderParams.concentration,
    *,
    seeds: Sequence[int] = range(20),
    sims: int = 1000,
    n_values: Sequence[int] = range(60, 401),
    upper: float = OrderParams.upper,
    lower: float = OrderParams.lower,
) -> dict:
    """The order study read as App. D (Don't Pass@k (2026), Fig. 6) reads its own: at every N of
    ``n_values`` (step 1) with ``sims`` datasets each, P(correct order) and the mean |z| at
    N = 80 and the first N where the noisy mean |z| reaches 1.645 and 1.96 -- each averaged
    over the sets of questions of ``seeds`` (:func:`correct_order` with ``seed``), with
    their s.d. over the sets (``sd``). A noisy curve scanned at every N first touches a line
    before its mean does, so these N come earlier than the study's grid of every 10 trials on
    4,000 datasets gives. :data:`PAPER_READING` is this at the study's default spread.

    Example
    -------
    >>> from scorio_core.simulate.order import paper_reading
    >>> r = paper_reading(8.0, seeds=[0], sims=300, n_values=range(150, 331, 5))
    >>> sorted(r), sorted(r["N_at"])
    (['N_at', 'p_correct_80', 'sd', 'z_80'], [1.645, 1.96])
    """
    ns = sorted({80, *(int(n) for n in n_values)})
    rows = []
    for seed in seeds:
        r = correct_order(upper, lower, concentration=concentration, n_values=ns, n_sims=sims,
                          seed=int(seed))
        t = r.table.set_index("N")
        rows.append((t.at[80, "p_correct"], t.at[80, "z_mean"], r.n_at[1.645], r.n_at[1.96]))
    a = np.array(rows, dtype=float)
    mean, sd = a.mean(0), (a.std(0, ddof=1) if len(a) > 1 else np.full(4, np.nan))
    return {"p_correct_80": float(mean[0]), "z_80": float(mean[1]),
            "N_at": {1.645: float(mean[2]), 1.96: float(mean[3])},
            "sd": {"p_correct_80": float(sd[0]), "z_80": float(sd[1]), 1.645: float(sd[2]),
                   1.96: float(sd[3])}}
