"""``scorio-studio simulate {coins|prior-depth|order|calibration|rubric-lesson}``: the
Simulator page's studies, each rendered from its one definition in
:data:`scorio_core.definitions.SIMULATIONS`.

``text`` for people, ``csv`` (the study's tables under a provenance header) and ``json``
(provenance, settings, tables and the headline numbers) for scripts.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["add_parser", "run", "render", "STUDIES"]

#: study -> its one-line help; its flags come from its declared settings
#: (:data:`scorio_core.simulate.params.STUDY_PARAMS`, a light module: ``--help`` does not
#: import the studies)
STUDIES = {
    "coins": "τ_b vs N against the true ranking of the 11 biased coins (000 Fig. 2a)",
    "prior-depth": "original/updated models and prior depth D (000 App. C, Fig. 5)",
    "order": "P(correct order) and z vs N for LLM10 vs LLM9 (000 App. D, Fig. 6)",
    "calibration": "coverage of 95% Bayes@N intervals vs N and M",
    "rubric-lesson": "Bayes@N term by term for 001's worked example (Algorithm 1)",
}


def add_parser(sub) -> None:
    """Register the ``simulate`` subcommand and one sub-subcommand per study, each with
    the flags of its declared settings, the output format and the Dask options."""
    from ..params import add_options
    from ..simulate.params import STUDY_PARAMS
    from ._common import _add_cluster_args, add_format

    p = sub.add_parser("simulate", help="teaching simulations with known truth: the "
                       "papers' figures, interval coverage and a worked example")
    studies = p.add_subparsers(
        dest="study", required=True, metavar="STUDY",
        help="the study; its settings: scorio-studio simulate STUDY --help")
    for study, text in STUDIES.items():
        sp = studies.add_parser(study, help=text.replace("%", "%%"),
                                description=text)  # help is %-formatted, this is not
        add_options(sp, STUDY_PARAMS[study])
        add_format(sp)
        if study != "rubric-lesson":
            _add_cluster_args(sp)  # the studies' replicates on Dask (the lesson has none)


def params(args: argparse.Namespace):
    """The study's ``Params`` from the flags (unset flags keep the declared defaults)."""
    from ..params import from_args
    from ..simulate.params import STUDY_PARAMS

    return from_args(STUDY_PARAMS[args.study], args)


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
    with Executor(getattr(args, "workers", None), getattr(args, "scheduler", None)) as ex:
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
        return _csv(prov, *tables.values())
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
