"""``scorio-studio simulate {coins|prior-depth|order|calibration}`` (the Simulator page's studies).

``text`` for people, ``csv`` (one long table) and ``json`` (settings + tables) for scripts.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from .._validation import ValidationError, json_safe

if TYPE_CHECKING:  # the parser is built for every command: keep --help free of pandas/scipy
    import pandas as pd

__all__ = ["add_parser", "run", "render", "STUDIES"]

#: study -> (help, default replicates)
STUDIES = {
    "coins": ("τ_b vs N against the true ranking of the 11 biased coins (000 Fig. 2a)", 1000),
    "prior-depth": ("original/updated models and prior depth D (000 App. C, Fig. 5)", 5000),
    "order": ("P(correct order) and z vs N for LLM10 vs LLM9 (000 App. D, Fig. 6)", 4000),
    "calibration": ("coverage of 95 % Bayes@N intervals vs N and M", 2000),
}


def add_parser(sub) -> None:
    """Register the ``simulate`` subcommand on the CLI's subparsers."""
    p = sub.add_parser("simulate", help="teaching simulations with known truth (Simulator page)")
    p.add_argument(
        "study", choices=list(STUDIES), help="; ".join(f"{k}: {v[0]}" for k, v in STUDIES.items())
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--replicates",
        type=int,
        default=None,
        help="simulated datasets (default: "
        + ", ".join(f"{k} {v[1]}" for k, v in STUDIES.items())
        + ")",
    )
    p.add_argument(
        "--concentration",
        type=float,
        default=None,
        help="Beta spread κ of the per-question probabilities "
        "(default: 3 for coins/order, 2 for calibration)",
    )
    p.add_argument(
        "--fresh-questions",
        action="store_true",
        help="coins: draw new questions for every dataset (default: one fixed set, as the paper)",
    )
    p.add_argument("--format", choices=["text", "csv", "json"], default="text")


def _emit(
    fmt: str, title: str, settings: dict, tables: dict[str, pd.DataFrame], notes: dict | None = None
) -> str:
    if fmt == "json":
        payload = {
            "study": title,
            "settings": settings,
            **(notes or {}),
            **{k: t.to_dict(orient="records") for k, t in tables.items()},
        }
        return json.dumps(json_safe(payload), indent=2, allow_nan=False) + "\n"
    if fmt == "csv":
        from .. import io

        return "".join(io.to_safe_csv(t.round(6)) for t in tables.values())
    out = [f"# {title}", "# " + ", ".join(f"{k}={v}" for k, v in settings.items())]
    out += [f"# {k}: {v}" for k, v in (notes or {}).items()]
    for name, t in tables.items():
        out += ["", f"## {name}", t.to_string(index=False, float_format=lambda v: f"{v:.4f}")]
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    """Print the chosen study."""
    import sys

    sys.stdout.write(render(args))
    return 0


def render(args: argparse.Namespace) -> str:
    """Run the chosen study and return the text to print."""
    from .. import simulate as sim

    study, seed, fmt = args.study, args.seed, args.format
    if seed < 0:
        raise ValidationError(f"--seed must be >= 0; got {seed}")
    reps = args.replicates if args.replicates is not None else STUDIES[study][1]
    if study == "coins":
        kappa = 3.0 if args.concentration is None else args.concentration
        mim = sim.mimics(sim.PAPER_COINS, 30, concentration=kappa, seed=seed)
        curves = sim.truth_convergence(
            mim, N=80, replicates=reps, fresh_questions=args.fresh_questions, seed=seed + 1
        )
        summ = curves.summary
        wide = summ.pivot(index="n", columns="method", values="mean")[list(curves.tau)]
        table = summ if fmt != "text" else wide.loc[[1, 2, 4, 8, 16, 32, 64, 80]].reset_index()
        settings = {
            "models": 11,
            "M": 30,
            "N": 80,
            "concentration": kappa,
            "replicates": reps,
            "questions": curves.scheme,
            "seed": seed,
        }
        return _emit(
            fmt,
            "known-truth convergence (mean Kendall tau_b vs true ranking)",
            settings,
            {"tau": table},
        )
    if study == "prior-depth":
        r = sim.prior_depth(replicates=reps, seed=seed)
        cur = r.curves
        table = cur if fmt != "text" else cur.pivot(index="n", columns="D", values="mean")
        if fmt == "text":
            table.columns = [f"D={d}" for d in table.columns]
            table = table.reset_index()
        return _emit(
            fmt,
            "prior depth (000 App. C)",
            r.settings,
            {"tau": table},
            {
                "update": r.update_summary,
                "original_means": [round(float(m), 4) for m in r.original_means],
            },
        )
    if study == "order":
        kappa = 3.0 if args.concentration is None else args.concentration
        r = sim.correct_order(concentration=kappa, n_sims=reps, seed=seed)
        notes = {"N_at_z": r.n_at, f"predicted_from_N={r.predict_from}": r.predicted_at}
        settings = {
            "upper": r.true_means[0],
            "lower": r.true_means[1],
            "M": 30,
            "concentration": kappa,
            "n_sims": reps,
            "seed": seed,
        }
        return _emit(
            fmt,
            "probability of the correct order (000 App. D)",
            settings,
            {"order": r.table},
            notes,
        )
    kappa = 2.0 if args.concentration is None else args.concentration
    c = sim.interval_coverage(concentration=kappa, replicates=reps, seed=seed)
    settings = {**c.settings, "confidence": c.confidence, "seed": seed}
    title = "interval calibration (questions and population scopes)"
    return _emit(fmt, title, settings, {"coverage": c.table})
