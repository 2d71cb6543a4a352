"""``scorio-studio spread-prior``: learn how spread fields of models are from earlier runs,
for ``--spread-prior`` of ``leaderboard`` and ``plan``."""

from __future__ import annotations

import sys
from pathlib import Path

from ..formatting import shape_text

__all__ = ["add_parser", "run"]


def add_parser(sub) -> None:
    p = sub.add_parser(
        "spread-prior",
        help="learn a prior on the field's spread from earlier runs (for --spread-prior)")
    p.add_argument("runs", nargs="+", metavar="RUN",
                   help="earlier runs, one field each (any file `scorio-studio info` reads); "
                   "or one run with several benchmarks, each benchmark a field")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="where to write the prior (JSON)")


def run(args) -> int:
    """Fit the prior (:func:`scorio_core.spread_prior.fit_spread_prior`), save it, and
    print what it was learned from."""
    from .. import io
    from ..spread_prior import fit_spread_prior

    runs = [io.load(Path(p)) for p in args.runs]
    prior = fit_spread_prior(runs[0] if len(runs) == 1 else runs)
    path = prior.save(args.output)
    lines = [f"Spread prior written to {path}", ""]
    for scope in ("population", "questions"):
        if prior.has(scope):
            lines.append(f"- {prior.describe(scope)}")
    lines += ["", "Fields:"]
    lines += [f"- {s}: {shape_text(m, q, n)}"
              for s, m, q, n in zip(prior.sources, prior.models, prior.questions, prior.trials,
                                    strict=True)]
    lines += ["", f"Use it: scorio-studio leaderboard DATA --scope population --spread-prior "
              f"{path}"]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
