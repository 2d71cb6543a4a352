"""Ranking under rubrics: categorical ranking at N = 1 (Ranking Reasoning LLMs under Test-Time
Scaling (2026), §3.5, App. F.5) and model ranks per scheme for a bump chart (Don't Pass@k (2026),
Fig. 7).

For every scheme, each single-trial slice ``R[:, :, n]`` is scored with
Bayes@1 (uniform Dirichlet prior, the scheme's weights) and its ranking is
compared by Kendall's τ_b with three references:

* τ_GS -- the gold standard, Bayes_U@N_max of the dataset's own (binary) outcomes;
* τ_Self -- the scheme's own ranking on all ``N`` trials (Scheme@N_max);
* τ_Greedy -- Bayes_R0@N_max, the dataset's outcomes with the greedy ``R0`` prior.

All ``N`` slices are scored at once: the slice axis becomes a leading batch
axis of the count tables fed to :func:`scorio_core.eval.bayes_from_counts`.
Means and standard deviations (``ddof=0``) are over the ``N`` slices, ignoring
slices whose ranking ties every model (τ_b undefined).

Example
-------
>>> import numpy as np
>>> from scorio_core.outcomes import Outcomes
>>> from scorio_core.rubric import categorical_ranking
>>> R = np.random.default_rng(0).integers(0, 2, (4, 30, 6))
>>> o = Outcomes(R, signals={"is_correct": R, "has_box": np.ones(R.shape),
...                          "repeated_pattern": np.zeros(R.shape),
...                          "compass_C": np.zeros(R.shape)})
>>> t = categorical_ranking(o, ["dontpass/format-aware"])
>>> t.loc[0, "note"]
'no greedy outcomes (R0) in this dataset: tau_greedy undefined'
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .. import eval as ev
from .._ties import rank_scores_batch as _ranks
from .._validation import ValidationError, checked_keywords
from ..engines.agreement import tau_b_matrix
from ..formatting import count_text
from ..outcomes import Outcomes
from . import presets
from .evaluate import categorize
from .model import Rubric
from .presets import get_preset

__all__ = ["Schemes", "resolve_schemes", "categorical_ranking", "scheme_ranks", "GOLD_LABEL"]

#: Column label of the binary reference ranking in :func:`scheme_ranks`.
GOLD_LABEL = "Binary Bayes@N"

Schemes = Rubric | str | Sequence[Rubric | str] | Mapping[str, Rubric | str] | None


@checked_keywords
def resolve_schemes(schemes: Schemes = None) -> list[tuple[str, Rubric]]:
    """``(label, rubric)`` pairs from rubrics, preset names or a ``{label: rubric}`` mapping.

    ``None`` gives the eight representative schemes of Ranking Reasoning LLMs under Test-Time
    Scaling (2026), Table 21 (``ranking/*``). Labels default to the rubrics' names and must be
    unique.
    """
    if schemes is None:
        schemes = [k for k in presets.PRESETS if k.startswith("ranking/")]
    if isinstance(schemes, Rubric | str):
        schemes = [schemes]
    if isinstance(schemes, Mapping):
        items = [(str(k), v) for k, v in schemes.items()]
    else:
        items = [(None, v) for v in schemes]
    out = []
    for label, s in items:
        if isinstance(s, str):
            s = get_preset(s)
        if not isinstance(s, Rubric):
            raise ValidationError(
                f"schemes must be Rubric objects or preset names; got {type(s).__name__}"
            )
        out.append((label or s.name, s))
    if not out:
        raise ValidationError("no schemes given; pass rubrics or preset names")
    labels = [lab for lab, _ in out]
    dup = sorted({lab for lab in labels if labels.count(lab) > 1})
    if dup:
        raise ValidationError(
            f"scheme labels must be unique; duplicated: {dup} (pass a {{label: rubric}} mapping)"
        )
    return out


def _full_scores(R: np.ndarray, w: np.ndarray, R0: np.ndarray | None = None) -> np.ndarray:
    n, n0, w = ev.prepare_counts(R, w, R0)
    return np.atleast_1d(ev.bayes_from_counts(n, w, n0).mu)


def _slice_scores(R: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Bayes@1 means of every single-trial slice: ``(N, L)``."""
    # slice axis first: counts (N, L, M, C+1) of one trial each, a batch for the kernel
    counts = (np.moveaxis(R, 2, 0)[..., None] == np.arange(w.size)).astype(np.int8)
    return ev.bayes_from_counts(counts, np.asarray(w, dtype=float)).mu


def _check(data: Outcomes) -> None:
    if not isinstance(data, Outcomes):
        raise ValidationError(f"expected an Outcomes dataset; got {type(data).__name__}")
    if data.L < 2:
        raise ValidationError(f"ranking needs at least 2 models; the data have {data.L}")


@checked_keywords
def scheme_ranks(data: Outcomes, schemes: Schemes = None, *, gold: bool = False) -> pd.DataFrame:
    """Competition ranks (1 = best) of every model under each scheme, on all trials.

    Bayes@N with a uniform prior and the scheme's weights. Rows are models (data
    order), columns schemes in the order given; ``gold=True`` prepends the binary
    reference ranking (:data:`GOLD_LABEL`, Bayes_U@N of the dataset's outcomes).
    Feed the frame to :func:`scorio_core.charts.rank_bump_chart` (Don't Pass@k (2026), Fig. 7).
    """
    _check(data)
    cols: dict[str, np.ndarray] = {}
    if gold:
        cols[GOLD_LABEL] = _ranks(_full_scores(data.R, data.weights))
    for label, rubric in resolve_schemes(schemes):
        R = categorize(rubric, data)
        cols[label] = _ranks(_full_scores(R, rubric.weight_vector))
    return pd.DataFrame(cols, index=pd.Index(list(data.models), name="model"))


@checked_keywords
def categorical_ranking(data: Outcomes, schemes: Schemes = None) -> pd.DataFrame:
    """τ_GS, τ_Self and τ_Greedy of each scheme at N = 1 (Ranking Reasoning LLMs under Test-Time
    Scaling (2026), Table 5 / Table 22).

    Parameters
    ----------
    data : Outcomes
        Binary outcomes with the signals the schemes read; ``R0`` (greedy) enables τ_Greedy.
    schemes : rubrics, preset names or {label: rubric}, optional
        Default: the eight ``ranking/*`` presets of Ranking Reasoning LLMs under Test-Time
        Scaling (2026), Table 21.

    Returns
    -------
    pandas.DataFrame
        One row per scheme, in the order given: ``scheme, categories, tau_gs_mean,
        tau_gs_sd, tau_self_mean, tau_self_sd, tau_greedy_mean, tau_greedy_sd,
        n_slices, note``. Without ``R0`` the τ_Greedy columns are NaN and ``note``
        says why.
    """
    _check(data)
    pairs = resolve_schemes(schemes)
    gold = _ranks(_full_scores(data.R, data.weights))
    note = ""
    if data.R0 is None:
        greedy = np.full(data.L, np.nan)
        note = "no greedy outcomes (R0) in this dataset: tau_greedy undefined"
    else:
        greedy = _ranks(_full_scores(data.R, data.weights, data.R0))
        if np.array_equal(greedy, gold):  # the paper's reference, but nothing new here
            # the counts of these data: a bundled run has 10 greedy trials per question
            note = (f"Bayes_R0@{data.N} ranks the models exactly as the gold standard "
                    f"Bayes_U@{data.N} on these data ({count_text(data.D, 'greedy trial')} "
                    f"beside {data.N:,} sampled ones per question), so tau_greedy equals "
                    "tau_gs")
    rows = []
    for label, rubric in pairs:
        R = categorize(rubric, data)
        w = rubric.weight_vector
        own = _ranks(_full_scores(R, w))
        slices = _ranks(_slice_scores(R, w))  # (N, L)
        refs = [gold, own] if data.R0 is None else [gold, own, greedy]
        tau = tau_b_matrix(np.vstack([*refs, slices]))[: len(refs), len(refs) :]
        if data.R0 is None:
            tau = np.vstack([tau, np.full(data.N, np.nan)])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN row when R0 is missing
            mean, sd = np.nanmean(tau, axis=1), np.nanstd(tau, axis=1)
        rows.append(
            {
                "scheme": label,
                "categories": rubric.C + 1,
                "tau_gs_mean": mean[0],
                "tau_gs_sd": sd[0],
                "tau_self_mean": mean[1],
                "tau_self_sd": sd[1],
                "tau_greedy_mean": mean[2],
                "tau_greedy_sd": sd[2],
                "n_slices": int(np.isfinite(tau[0]).sum()),
                "note": note,
            }
        )
    return pd.DataFrame(rows)
