"""The spread prior the Leaderboard and Planner pages offer, without Streamlit.

The setting (``spread_prior`` on :class:`~scorio_core.params.LeaderboardParams` and
:class:`~scorio_core.params.PlanParams`) names a JSON file, as on the command line. The
pages make that file from what the user has at hand -- a prior file they upload, or the
other benchmarks of the loaded file -- and keep it under :data:`PRIOR_DIR`, named by its
content, so the same prior is one file and a saved session or the page's code names it.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> rng = np.random.default_rng(0)
>>> R = rng.integers(0, 2, (3, 60, 2))
>>> o = Outcomes(R, benchmarks=[f"b{k}" for k in range(6) for _ in range(10)])
>>> other_benchmarks(o, "b0")
['b1', 'b2', 'b3', 'b4', 'b5']
>>> path = learned_from_benchmarks(o, "b0")
>>> load_spread_prior(path).sources
('dataset [b1]', 'dataset [b2]', 'dataset [b3]', 'dataset [b4]', 'dataset [b5]')
>>> other_benchmarks(o, "combined")  # the combined view is not one of the fields
[]
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from scorio_core._validation import ValidationError
from scorio_core.formatting import count_text
from scorio_core.outcomes import Outcomes
from scorio_core.spread_prior import (
    MIN_FIELDS,
    SpreadPrior,
    fit_spread_prior,
    load_spread_prior,
)

__all__ = ["PRIOR_DIR", "CHOICES", "store", "from_upload", "other_benchmarks",
           "learned_from_benchmarks", "load_spread_prior"]

#: Where the pages keep the prior files they make (one per content).
PRIOR_DIR = Path(tempfile.gettempdir()) / "scorio_spread_priors"
#: The pages' choices: the flat prior, one learned from the file's other benchmarks, a file.
CHOICES = ("flat", "benchmarks", "file")


def store(prior: SpreadPrior) -> str:
    """Write ``prior`` under :data:`PRIOR_DIR` named by its content; its path."""
    text = prior.to_json()
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    PRIOR_DIR.mkdir(parents=True, exist_ok=True)
    path = PRIOR_DIR / f"spread_prior_{digest}.json"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return str(path)


def from_upload(data: bytes, name: str = "upload") -> str:
    """An uploaded prior file checked (:meth:`SpreadPrior.from_bytes`) and stored; its path."""
    return store(SpreadPrior.from_bytes(data, name))


def other_benchmarks(full: Outcomes, benchmark: str) -> list[str]:
    """The benchmarks of ``full`` other than the one viewed, when there are at least
    :data:`~scorio_core.spread_prior.MIN_FIELDS` of them (else ``[]``): the earlier fields a
    prior for the viewed benchmark can be learned from. The combined view has none (it is
    not a field like its benchmarks)."""
    names = full.benchmark_names
    if benchmark not in names:
        return []
    others = [b for b in names if b != benchmark]
    return others if len(others) >= MIN_FIELDS else []


def learned_from_benchmarks(full: Outcomes, benchmark: str) -> str:
    """A prior learned from the other benchmarks of ``full`` (:func:`other_benchmarks`),
    stored; its path."""
    others = other_benchmarks(full, benchmark)
    if not others:
        raise ValidationError(
            f"learning a spread prior from the other benchmarks needs one benchmark viewed and "
            f"at least {MIN_FIELDS} others; this file has "
            f"{count_text(len(full.benchmark_names), 'benchmark')} and the view is {benchmark!r}")
    return store(fit_spread_prior([full.select(b) for b in others]))
