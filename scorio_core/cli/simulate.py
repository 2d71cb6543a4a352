"""``scorio-studio simulate {coins|prior-depth|order|calibration|rubric-lesson}``: the
Simulator page's studies, each rendered from its one definition in
:data:`scorio_core.definitions.SIMULATIONS`.

``text`` for people, ``csv`` (the study's tables under a provenance header) and ``json``
(provenance, settings, tables and the headline numbers) for scripts.
"""

from __future__ import annotations

import argparse
import sys

from .._validation import ValidationError

__all__ = ["add_parser", "run", "render", "STUDIES"]

#: study -> (help, flag that sets its simulated datasets, default count); kept here so that
#: ``--help`` does not import the definitions (pandas, scipy)
STUDIES = {
    "coins": ("τ_b vs N against the true ranking of the 11 biased coins (000 Fig. 2a)",
              "replicates", 1000),
    "prior-depth": ("original/updated models and prior depth D (000 App. C, Fig. 5)",
                    "replicates", 5000),
    "order": ("P(correct order) and z vs N for LLM10 vs LLM9 (000 App. D, Fig. 6)", "sims", 4000),
    "calibration": ("coverage of 95 % Bayes@N intervals vs N and M", "replicates", 2000),
    "rubric-lesson": ("Bayes@N term by term for 001's worked example (Algorithm 1)", None, 0),
}


def add_parser(sub) -> None:
    """Register the ``simulate`` subcommand on the CLI's subparsers."""
    p = sub.add_parser("simulate", help="teaching simulations with known truth (Simulator page)")
    p.add_argument(
        "study", choices=list(STUDIES),
        # argparse %-formats help texts: a literal % must be doubled
        help="; ".join(f"{k}: {v[0]}" for k, v in STUDIES.items()).replace("%", "%%"),
    )
    p.add_argument("--seed", type=int, default=None, help="seed (default 0)")
    p.add_argument(
        "--replicates",
        type=int,
        default=None,
        help="simulated datasets (default: "
        + ", ".join(f"{k} {v[2]}" for k, v in STUDIES.items() if v[1])
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
    p.add_argument("--weights", default=None,
                   help="rubric-lesson: comma-separated category weights (default 0,0.5,1)")
    from ._common import _add_cluster_args, add_format

    add_format(p)
    _add_cluster_args(p)  # the studies' replicates on Dask (rubric-lesson has none)


def params(args: argparse.Namespace):
    """The study's ``Params`` from the flags (unset flags keep the definition's defaults)."""
    from ..definitions import SIMULATIONS

    study = args.study
    a = SIMULATIONS[study]
    count = STUDIES[study][1]
    kw: dict = {}
    if args.seed is not None and study != "rubric-lesson":
        if args.seed < 0:
            raise ValidationError(f"--seed must be >= 0; got {args.seed}")
        kw["seed"] = args.seed
    if args.replicates is not None and count:
        kw[count] = args.replicates
    if args.concentration is not None and study in ("coins", "order", "calibration"):
        kw["concentration"] = args.concentration
    if args.fresh_questions and study == "coins":
        kw["fresh_questions"] = True
    if args.weights is not None and study == "rubric-lesson":
        try:
            kw["weights"] = tuple(float(t) for t in args.weights.split(","))
        except ValueError:
            raise ValidationError(
                f"--weights expects comma-separated numbers; got {args.weights!r}"
            ) from None
    return a.params(**kw)


def _notes(study: str, r) -> dict:
    if study == "prior-depth":
        return {"update": r.update_summary,
                "original_means": [round(float(m), 4) for m in r.original_means]}
    if study == "order":
        return {"N_at_z": r.n_at, f"predicted_from_N={r.predict_from}": r.predicted_at}
    if study == "rubric-lesson":
        return {"mu": r.mu, "sigma": r.sigma, "T": r.T}
    return {}


def _text_tables(study: str, tables: dict) -> dict:
    """Wide tables for people: τ per method (coins) or per depth (prior-depth) at a few N."""
    if study == "coins":
        summ = tables["tau"]
        wide = summ.pivot(index="n", columns="method", values="mean")
        wide = wide[list(dict.fromkeys(summ["method"]))]
        keep = [n for n in (1, 2, 4, 8, 16, 32, 64, 80) if n in wide.index] or list(wide.index)
        return {"tau": wide.loc[keep].reset_index()}
    if study == "prior-depth":
        wide = tables["tau"].pivot(index="n", columns="D", values="mean")
        wide.columns = [f"D={d}" for d in wide.columns]
        return {"tau": wide.reset_index()}
    return tables


def render(args: argparse.Namespace) -> str:
    """Run the chosen study and return the text to print."""
    from ..definitions import CLUSTER_ANALYSES, SIMULATIONS, params_dict
    from ..definitions.provenance import provenance
    from ..parallel import Executor
    from ._common import _csv, _json, _progress, output_format, render

    study, fmt = args.study, output_format(args)
    a = SIMULATIONS[study]
    p = params(args)
    extra = {}
    with Executor(args.workers, args.scheduler) as ex:
        if study in CLUSTER_ANALYSES:
            extra["executor"] = ex
        result = a.run(None, p, progress=_progress(study), **extra)
    tables, notes = a.tables(result), _notes(study, result)
    prov = provenance(None, study, p)
    settings = params_dict(p)
    if fmt == "json":
        payload = {
            "study": a.title,
            "settings": settings,
            **{k: t.to_dict(orient="records") for k, t in tables.items()},
            **notes,
        }
        return _json(payload, prov)
    if fmt == "csv":
        return _csv(prov, *(t.round(6) for t in tables.values()))
    from ..formatting import format_number

    def word(v) -> str:  # settings in words: no 'None', floats in the one number format
        if v is None:
            return "none"
        return format_number(v) if isinstance(v, float) else str(v)

    intro = ["Settings: " + ", ".join(f"{k} = {word(v)}" for k, v in settings.items())]
    intro += [f"{k}: {word(v)}" for k, v in notes.items()]
    return render(fmt, a.title, intro,
                  [(name, "", t) for name, t in _text_tables(study, tables).items()])


def run(args: argparse.Namespace) -> int:
    """Print the chosen study."""
    sys.stdout.write(render(args))
    return 0
