"""A prior on how spread a field of models is, learned from earlier fields like it.

``p_best``, the rank distribution and the Planner's chances draw the models' true scores
from a hierarchical posterior (:func:`scorio_core.inference.field_draws`): the true scores
spread normally around their mean with a spread ``τ`` that the field's own means must
reveal. With two or three models, or few questions, they cannot: the same observed gaps
mean a clear leader on a field that is usually spread out and a near-tie on one that is
usually close (docs/calibration_gaps.md), and the default flat prior on ``τ`` is
over-confident on close fields. Earlier runs of the same kind (the benchmark's previous
runs, the other benchmarks of a suite) show how spread such fields are: this module learns
that and hands it to the draws.

Model: every earlier field ``k`` has its own ``τ_k``, drawn from ``U(0, u)`` -- the flat
prior the leaderboard uses by default, with its upper end ``u`` learned instead of set
from the field's own means. ``u`` gets a flat prior on a grid up to 1.5 times the widest
earlier field's flat-prior range, and its posterior from every earlier field's restricted
likelihood of ``τ`` (:func:`scorio_core.inference.spread_loglik`); the prior on a new
field's ``τ`` is the mixture of ``U(0, u)`` over that posterior, so few earlier fields
give a wide prior (the uncertainty of ``u`` is carried, not plugged in). Measured against
the alternatives on the same fields (docs/calibration_gaps.md): a nonparametric estimate
of the distribution of ``τ`` (EM on the grid) shrinks too hard from 5-20 fields (p_best
under-confident below 0.6, higher Brier score than the flat prior), a log-normal family
is under-confident, the average of the fields' own posteriors leaves most of the gap.
``τ`` is kept as a share of the score range, so a prior learned on one weighting applies to
another. One prior per scope (the scopes' true scores differ): both are fitted where the
runs identify them.

Measured with known truth (``p_best_calibration(..., history=K)``, README *How to read the
numbers*; ``benchmarks/spread_prior.py``): three models, 15 questions, 4 trials, population
scope -- the flat prior's 0.6–0.8 range (predicted 0.69) came true 0.57 of the time, with a
prior learned from 5 or 20 earlier fields (predicted 0.68) 0.67 and 0.71; with more trials
or questions the learned prior errs on the safe side (up to 0.06 under-confident).

Example
-------
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> runs = [rng.binomial(1, rng.uniform(0.3, 0.7, (3, 1, 1)), (3, 40, 4)) for _ in range(8)]
>>> prior = sc.fit_spread_prior(runs)
>>> prior.fields, sorted(prior.weights)
(8, ['population', 'questions'])
>>> sc.SpreadPrior.from_json(prior.to_json()) == prior
True
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ._validation import (
    ValidationError,
    as_names,
    as_numbers,
    as_outcome_array,
    checked_keywords,
)
from .estimands import SCOPES
from .outcomes import Outcomes

__all__ = ["SpreadPrior", "fit_spread_prior", "prior_from_stats", "load_spread_prior",
           "field_spread", "history_priors", "MIN_FIELDS", "SURPRISE", "HISTORY_BLOCK"]

#: Fewest earlier fields a prior is learned from (measured: from 5, p_best on the stylised
#: three-model fields is no longer over-confident; benchmarks/spread_prior.py).
MIN_FIELDS = 5
#: Points of the common grid of ``τ`` (shares of the score range).
GRID_POINTS = 129
#: How far beyond the most spread earlier field the grid reaches (its flat part).
GRID_REACH = 1.5
_FORMAT = "scorio-spread-prior"
_VERSION = 1
#: Largest JSON file read (a prior is a few kB).
MAX_BYTES = 1_000_000


def _array_eq(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@checked_keywords
@dataclass(frozen=True, eq=False)
class SpreadPrior:
    """A distribution of the field's spread ``τ`` (s.d. of the models' true scores, as a
    share of the score range) per scope, learned from earlier fields (:func:`fit_spread_prior`).

    Attributes
    ----------
    grid : dict scope -> numpy.ndarray
        Values of ``τ`` (shares of the score range), increasing from 0.
    weights : dict scope -> numpy.ndarray
        Their probabilities (sum 1).
    fields : int
        Earlier fields it was learned from.
    sources : tuple of str
        Their names.
    models, questions, trials : tuple of int
        Each earlier field's size.

    Example
    -------
    >>> import numpy as np
    >>> prior = sc.SpreadPrior({"population": np.array([0.0, 0.1])},
    ...                     {"population": np.array([0.25, 0.75])}, fields=5)
    >>> prior.tail(0.05), prior.quantile(0.5)
    (0.75, 0.1)
    >>> taus, w = prior.on("population", span=10.0)  # in score units of range 10
    >>> taus.tolist()
    [0.0, 1.0]
    """

    grid: dict
    weights: dict
    fields: int
    sources: tuple = ()
    models: tuple = ()
    questions: tuple = ()
    trials: tuple = ()

    def __post_init__(self) -> None:
        # a string is read as the command line reads a list ("arc,gsm"; "30,60"), not by letter
        if isinstance(self.sources, str):
            object.__setattr__(self, "sources", as_names(self.sources, "sources"))
        for key in ("models", "questions", "trials"):
            if isinstance(getattr(self, key), str):
                object.__setattr__(self, key, as_numbers(getattr(self, key), key, example="30,60"))

    def __eq__(self, other) -> bool:
        if not isinstance(other, SpreadPrior):
            return NotImplemented
        return (_array_eq(self.grid, other.grid) and _array_eq(self.weights, other.weights)
                and (self.fields, self.sources, self.models, self.questions, self.trials)
                == (other.fields, other.sources, other.models, other.questions, other.trials))

    __hash__ = None  # type: ignore[assignment]

    def has(self, scope: str) -> bool:
        return scope in self.weights

    def on(self, scope: str, span: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """``(taus, weights)`` for :func:`~scorio_core.inference.field_draws` in score units
        of range ``span``; raises when the prior has no distribution for ``scope``."""
        if scope not in self.weights:
            raise ValidationError(
                f"this spread prior was learned in the {', '.join(sorted(self.weights))} "
                f"scope only (its earlier runs had one trial per question, so the questions "
                f"scope was not identified there); got scope={scope!r}: use the population "
                "scope, or learn the prior from runs with at least two trials per question"
            )
        return self.grid[scope] * float(span), self.weights[scope]

    def quantile(self, q: float, scope: str = "population") -> float:
        """The ``q`` quantile of ``τ`` (share of the score range) in ``scope``."""
        g, w = self.on(scope)
        return float(g[min(int(np.searchsorted(np.cumsum(w), q)), g.size - 1)])

    def tail(self, tau: float, scope: str = "population") -> float:
        """Prior probability that ``τ`` is at least ``tau`` (share of the score range)."""
        g, w = self.on(scope)
        return float(w[g >= tau].sum())

    def describe(self, scope: str = "population") -> str:
        """One line: what the prior was learned from and where its ``τ`` lies."""
        lo, med, hi = (self.quantile(q, scope) for q in (0.1, 0.5, 0.9))
        return (f"learned from {self.fields} earlier fields: the models' true scores spread "
                f"with s.d. {med:.3f} of the score range (80% between {lo:.3f} and {hi:.3f}; "
                f"{scope} scope)")

    def __repr__(self) -> str:
        scope = "population" if self.has("population") else next(iter(self.weights))
        return f"<SpreadPrior: {self.describe(scope)}>"

    def table(self):
        """Per scope: quantiles of ``τ`` (share of the score range) and the fields behind
        them, as a DataFrame (the notebook display)."""
        import pandas as pd

        qs = (0.1, 0.25, 0.5, 0.75, 0.9)
        return pd.DataFrame([
            {"scope": s, "fields": self.fields, **{f"tau_q{int(q * 100)}": self.quantile(q, s)
                                                   for q in qs}}
            for s in SCOPES if self.has(s)])

    def _repr_html_(self) -> str:
        from .display import result_html

        sizes = sorted(set(zip(self.models, self.questions, self.trials, strict=True)))
        shown = ", ".join(f"{m} x {q} x {n}" for m, q, n in sizes[:4])
        more = f" and {len(sizes) - 4} more sizes" if len(sizes) > 4 else ""
        return result_html(
            "Spread prior", f"learned from {self.fields} earlier fields (models x questions x "
            f"trials: {shown}{more})", [("quantiles of the spread (share of the score range)",
                                         self.table())],
            notes=["Pass it as sc.leaderboard(..., spread_prior=prior) or save it with "
                   "prior.save('prior.json') for --spread-prior."])

    def to_dict(self) -> dict:
        return {
            "format": _FORMAT, "version": _VERSION, "fields": self.fields,
            "sources": list(self.sources), "models": list(self.models),
            "questions": list(self.questions), "trials": list(self.trials),
            "scopes": {s: {"tau": self.grid[s].tolist(), "weight": self.weights[s].tolist()}
                       for s in self.weights},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def save(self, path) -> Path:
        """Write the prior as JSON (``scorio-studio leaderboard --spread-prior PATH`` reads it)."""
        path = Path(path)
        path.write_text(self.to_json(), encoding="utf-8")
        return path

    @classmethod
    def from_dict(cls, d) -> SpreadPrior:
        if not isinstance(d, dict) or d.get("format") != _FORMAT:
            found = (f"format {d.get('format')!r}" if isinstance(d, dict)
                     else f"a JSON {type(d).__name__}")
            raise ValidationError(
                f"not a spread prior: expected a JSON object with \"format\": \"{_FORMAT}\" "
                f"(written by SpreadPrior.save / scorio-studio spread-prior); got {found}")
        if d.get("version") != _VERSION:
            raise ValidationError(f"spread prior version {d.get('version')!r}; this version "
                                  f"reads {_VERSION}")
        scopes = d.get("scopes")
        if not isinstance(scopes, dict) or not scopes or not set(scopes) <= set(SCOPES):
            raise ValidationError(f"spread prior: 'scopes' must map some of {SCOPES} to a "
                                  f"grid; got {scopes!r:.80}")
        grid, weights = {}, {}
        for s, v in scopes.items():
            try:
                g = np.asarray(v["tau"], dtype=float)
                w = np.asarray(v["weight"], dtype=float)
            except (KeyError, TypeError, ValueError) as e:
                raise ValidationError(f"spread prior, scope {s!r}: expected lists 'tau' and "
                                      f"'weight' of numbers ({e})") from None
            if (g.ndim != 1 or g.shape != w.shape or g.size < 2 or not np.all(np.isfinite(g))
                    or not np.all(np.isfinite(w)) or g[0] < 0 or np.any(np.diff(g) <= 0)
                    or np.any(w < 0) or not math.isclose(float(w.sum()), 1.0, abs_tol=1e-6)):
                raise ValidationError(
                    f"spread prior, scope {s!r}: 'tau' must increase from >= 0 and 'weight' be "
                    f"as many probabilities summing to 1; got {g.size} tau, {w.size} weights "
                    f"summing to {float(np.sum(w)) if w.size else 0:.4g}")
            grid[s], weights[s] = g, w
        try:
            fields = int(d["fields"])
        except (KeyError, TypeError, ValueError):
            raise ValidationError("spread prior: 'fields' (earlier fields) missing") from None
        return cls(grid, weights, fields, tuple(map(str, d.get("sources", ()))),
                   tuple(map(int, d.get("models", ()))), tuple(map(int, d.get("questions", ()))),
                   tuple(map(int, d.get("trials", ()))))

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "spread prior") -> SpreadPrior:
        """A prior from a file's bytes (at most :data:`MAX_BYTES`, UTF-8 JSON); ``name``
        says which file in an error."""
        if len(data) > MAX_BYTES:
            raise ValidationError(f"{name}: {len(data):,} bytes; a spread prior is a few kB "
                                  f"(at most {MAX_BYTES:,} read)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ValidationError(f"{name}: not a text (JSON) file") from None
        return cls.from_json(text)

    @classmethod
    def from_json(cls, text: str) -> SpreadPrior:
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValidationError(f"spread prior: not valid JSON ({e})") from None
        return cls.from_dict(d)


@checked_keywords
def load_spread_prior(path) -> SpreadPrior:
    """Read a prior written by :meth:`SpreadPrior.save` (JSON; at most 1 MB).

    Example
    -------
    >>> from scorio_core.spread_prior import Path
    >>> import tempfile, numpy as np
    >>> rng = np.random.default_rng(2)
    >>> prior = sc.fit_spread_prior([rng.binomial(1, 0.5, (3, 20, 2)) for _ in range(5)])
    >>> path = prior.save(Path(tempfile.mkdtemp()) / "prior.json")
    >>> sc.load_spread_prior(path) == prior
    True
    """
    path = Path(path)
    if not path.is_file():
        raise ValidationError(f"spread prior file {str(path)!r} not found")
    name = f"spread prior file {str(path)!r}"
    size = path.stat().st_size
    if size > MAX_BYTES:  # before reading it
        raise ValidationError(f"{name}: {size:,} bytes; a spread prior is a few kB (at most "
                              f"{MAX_BYTES:,} read)")
    return SpreadPrior.from_bytes(path.read_bytes(), name)


def field_spread(st, scope: str) -> float:
    """The field's own estimate of its spread ``τ`` (share of the score range): the maximum
    of its restricted likelihood on the flat prior's grid; NaN where ``scope`` is not
    identified. Set beside :meth:`SpreadPrior.tail` it says whether the earlier runs look
    like this one.

    Example
    -------
    >>> from scorio_core.spread_prior import field_spread
    >>> import numpy as np
    >>> from scorio_core.eval import prepare_counts
    >>> from scorio_core.inference import score_stats
    >>> R = np.random.default_rng(0).binomial(1, [[[0.2]], [[0.5]], [[0.8]]], (3, 200, 4))
    >>> round(field_spread(score_stats(*prepare_counts(R)[::2]), "population"), 1)  # s.d. 0.3
    0.3
    """
    from .inference import field_inputs, flat_spread_grid, spread_loglik

    got = field_inputs(st, scope)
    if got is None:
        return float("nan")
    x, cov = got
    taus = flat_spread_grid(x, cov)
    return float(taus[int(np.argmax(spread_loglik(x, cov, taus)[0]))])


#: Fields that share one learned prior in the calibration studies' ``history`` runs.
HISTORY_BLOCK = 50


def history_priors(history: int, past):
    """``prior_for(r)`` for a calibration study's replicate ``r``: the prior learned
    (:func:`prior_from_stats`) from ``past(b)`` -- the :class:`~scorio_core.inference.ScoreStats`
    of ``history`` earlier fields of the study's design, fresh for every
    :data:`HISTORY_BLOCK` replicates (block ``b``) -- or ``None`` (the flat prior) at
    ``history = 0``. One definition for :func:`scorio_core.calibration.p_best_calibration`,
    the Planner's checks (:mod:`scorio_core.plan_calibration`) and their resampled versions.

    Example
    -------
    >>> from scorio_core.spread_prior import history_priors
    >>> import numpy as np
    >>> from scorio_core.eval import prepare_counts
    >>> from scorio_core.inference import score_stats
    >>> rng = np.random.default_rng(0)
    >>> def past(b):
    ...     return [score_stats(*prepare_counts(rng.binomial(1, 0.5, (3, 20, 2)))[::2])
    ...             for _ in range(5)]
    >>> prior_for = history_priors(5, past)
    >>> prior_for(0) is prior_for(49), prior_for(0) is prior_for(50)
    (True, False)
    >>> history_priors(0, past)(0) is None
    True
    """
    from ._validation import check_int

    history = check_int("history", history, 0)
    if not history:
        return lambda r: None
    if history < MIN_FIELDS:
        raise ValidationError(f"history must be 0 (flat prior) or at least {MIN_FIELDS} "
                              f"earlier fields; got {history}")
    cache: dict[int, SpreadPrior] = {}

    def prior_for(r: int) -> SpreadPrior:
        b = int(r) // HISTORY_BLOCK
        if b not in cache:
            cache.clear()  # replicates run in order: one block's prior at a time
            cache[b] = prior_from_stats(past(b))
        return cache[b]

    return prior_for


#: A field whose own spread estimate lies beyond this much of the prior's mass is named.
SURPRISE = 0.01


def _fields_of(runs) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """``(name, R, weights)`` per earlier field: a list of runs, or one run's benchmarks."""
    if isinstance(runs, Outcomes):
        names = runs.benchmark_names
        if len(names) < 2:
            raise ValidationError(
                "one run is one field: give a list of earlier runs, or a run with several "
                f"benchmarks (this one has {len(names) or 1})")
        runs = [runs.select(b) for b in names]
        labels = names
    else:
        if isinstance(runs, str | bytes | os.PathLike):  # a path, never one run per letter
            raise ValidationError(
                "runs must be a list of earlier runs (Outcomes or arrays (L, M, N)) or one "
                f"Outcomes with several benchmarks; got the path {os.fspath(runs)!r}: load "
                "each run first (sc.load(path))")
        if isinstance(runs, np.ndarray) or not isinstance(runs, Sequence):
            raise ValidationError(
                "runs must be a list of earlier runs (Outcomes or arrays (L, M, N)) or one "
                f"Outcomes with several benchmarks; got {type(runs).__name__}")
        labels = [getattr(r, "name", None) or f"run {k + 1}" for k, r in enumerate(runs)]
    out = []
    for name, r in zip(labels, runs, strict=True):
        if isinstance(r, Outcomes):
            R, w = r.R, r.weights
        else:  # the leaderboard's default weights
            R, w = as_outcome_array(r, name=f"runs[{name!r}]", min_ndim=3, max_ndim=3,
                                    takes_outcomes=True), None
        if R.shape[0] < 2 or R.shape[1] < 2:
            raise ValidationError(f"{name}: a field needs at least 2 models and 2 questions; "
                                  f"got {R.shape[0]} models × {R.shape[1]} questions")
        out.append((str(name), R, w))
    return out


@checked_keywords
def fit_spread_prior(runs: Outcomes | Sequence[Outcomes | np.ndarray], *,
                     grid_points: int = GRID_POINTS) -> SpreadPrior:
    """Learn how spread fields of models are from earlier runs (:class:`SpreadPrior`).

    Parameters
    ----------
    runs : list of Outcomes or arrays (L, M, N), or one Outcomes with several benchmarks
        Each is one earlier field (a benchmark's earlier runs, a suite's other benchmarks),
        at least :data:`MIN_FIELDS` of them. The models need not be the same ones.
    grid_points : int
        Points of the grid of ``τ``.

    Returns
    -------
    SpreadPrior
        Pass it as ``spread_prior=`` to :func:`scorio_core.leaderboard` or
        :func:`scorio_core.plan`, or save it (``prior.save("prior.json")``).

    Example
    -------
    >>> import numpy as np
    >>> import scorio_core as sc
    >>> rng = np.random.default_rng(1)  # ten earlier runs of three close models
    >>> runs = [rng.binomial(1, 0.5 + 0.02 * rng.standard_normal((3, 1, 1)), (3, 30, 4))
    ...         for _ in range(10)]
    >>> prior = sc.fit_spread_prior(runs)
    >>> prior.fields, prior.has("population")
    (10, True)
    >>> board = sc.leaderboard(runs[0], scope="population", spread_prior=prior)
    >>> board.settings["spread_prior"][:35]
    'learned from 10 earlier fields: the'
    """
    from .eval import prepare_counts
    from .inference import score_stats

    fields = _fields_of(runs)
    stats = []
    for _, R, w in fields:
        n, _, wv = prepare_counts(R, w)
        stats.append(score_stats(n, wv))
    return prior_from_stats(stats, [f[0] for f in fields], grid_points=grid_points)


def prior_from_stats(stats, sources=None, *, grid_points: int = GRID_POINTS) -> SpreadPrior:
    """:func:`fit_spread_prior` from each earlier field's
    :class:`~scorio_core.inference.ScoreStats` (the calibration studies' entry)."""
    from .inference import field_inputs, flat_spread_grid, spread_loglik

    stats = list(stats)
    if len(stats) < MIN_FIELDS:
        raise ValidationError(
            f"a spread prior needs at least {MIN_FIELDS} earlier fields; got {len(stats)}")
    G = int(grid_points)
    if not 16 <= G <= 4096:
        raise ValidationError(f"grid_points must be between 16 and 4096; got {grid_points}")
    grid, weights = {}, {}
    for s in SCOPES:
        got = [f for f in (field_inputs(st, s) for st in stats) if f is not None]
        if len(got) < MIN_FIELDS:
            continue
        top = GRID_REACH * max(float(flat_spread_grid(x, c)[-1]) for x, c in got)
        taus = np.linspace(0.0, top, G)
        LL = np.array([spread_loglik(x, c, taus)[0] for x, c in got])  # (fields, grid)
        Lk = np.exp(LL - LL.max(1, keepdims=True))
        # tau ~ U(0, u) on the grid, u unknown: flat over the grid's points, its posterior
        # from the earlier fields' likelihoods; the prior is the mixture over that posterior
        shape = (taus[None, :] <= taus[1:, None]).astype(float)  # (u, grid)
        shape /= shape.sum(1, keepdims=True)
        ll_u = np.log(Lk @ shape.T + 1e-300).sum(0)
        post_u = np.exp(ll_u - ll_u.max())
        post_u /= post_u.sum()
        wts = post_u @ shape
        grid[s], weights[s] = taus, wts / wts.sum()
    if not weights:
        raise ValidationError("no scope is identified on enough of these runs")
    names = [f"field {k + 1}" for k in range(len(stats))] if sources is None else sources
    return SpreadPrior(grid, weights, len(stats), tuple(map(str, names)),
                       tuple(int(st.ybar.shape[0]) for st in stats),
                       tuple(int(st.M) for st in stats), tuple(int(st.N) for st in stats))
