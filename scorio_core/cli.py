"""``scorio-studio`` command line: the same tables as the app, for scripts and CI.

Examples
--------
.. code-block:: console

    $ scorio-studio leaderboard data/reasoning_synthetic.npz --benchmark "AIME'25" --k 2,8
    $ scorio-studio leaderboard results.csv --prior greedy --format json
    $ scorio-studio compare data/reasoning_synthetic.npz --benchmark "AIME'24" --methods voting
    $ scorio-studio convergence data/biased_coins.npz --methods bayes,pass_at_k_2 --replicates 10000
    $ scorio-studio stability data/reasoning_synthetic.npz --benchmark "HMMT'25"
    $ scorio-studio greedy data/reasoning_synthetic.npz
    $ scorio-studio info results.parquet
    $ scorio-studio leaderboard logs/ --scorer match        # a directory of Inspect .eval logs
    $ scorio-studio import logs/*.eval --out runs.parquet
    $ scorio-studio simulate prior-depth --seed 1 --format json
    $ scorio-studio app
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ._validation import ValidationError
from .outcomes import COMBINED

# Heavy modules (io -> polars, leaderboard -> scipy, export -> pandas) are imported where a
# subcommand needs them, so `scorio-studio --help` answers at once.
FORMATS = ("csv", "json", "md")  # export.FORMATS, without importing pandas for --help

__all__ = ["main"]


def _ks(text: str) -> list[int]:
    try:
        ks = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--k expects comma-separated whole numbers like 2,4,8; got {text!r}"
        ) from None
    if any(k < 1 for k in ks):
        raise argparse.ArgumentTypeError(f"--k values must be >= 1; got {text!r}")
    return ks


def _confidence(text: str) -> float:
    try:
        c = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--confidence expects a number; got {text!r}") from None
    if not 0 < c < 1:
        raise argparse.ArgumentTypeError(f"--confidence must be strictly between 0 and 1; got {c}")
    return c


def _positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number; got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0; got {v}")
    return v


def _add_data_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path",
        nargs="+",
        help="outcome files or directories (read recursively): .npz, long tables (.csv, "
        ".parquet, .jsonl) or evaluation logs (Inspect .eval/.json, lm-eval samples_*.jsonl, "
        "OpenAI evals .jsonl, HELM per_instance_stats.json)",
    )
    p.add_argument(
        "--scorer",
        help="logs with several scorers/metrics: which one is the outcome (default: the first)",
    )
    p.add_argument(
        "--benchmark",
        default=COMBINED,
        help=f"benchmark to analyse when the file holds several (default: {COMBINED})",
    )
    p.add_argument(
        "--weights",
        help="comma-separated category weights, one per category 0..C, e.g. 0,0.5,1 (default: "
        "the file's; required for categorical tables, which cannot store them)",
    )
    p.add_argument(
        "--on-missing",
        choices=["error", "drop_questions", "truncate"],
        default="error",
        help="what to do with missing (model, question, trial) cells in a long table",
    )


def _add_cluster_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=_positive_int, default=0,
                   help="run the sweep on a local Dask cluster of this many worker processes "
                   "(same results as in one process)")
    p.add_argument("--scheduler", default=None,
                   help="run the sweep on a running Dask scheduler, e.g. tcp://HOST:8786")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorio-studio",
        description="Bayes@N leaderboards with credible intervals and CI-aware ranks.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    lb = sub.add_parser("leaderboard", help="CI-aware Bayes@N leaderboard (same as the page)")
    _add_data_args(lb)
    lb.add_argument("--confidence", type=_confidence, default=0.95,
                    help="credible level and decision level of the pairwise decisions")
    lb.add_argument("--scope", choices=["questions", "population"], default="questions",
                    help="questions: the mean over these questions (Bayes@N); population: the "
                    "mean over the population they were drawn from (paired question bootstrap)")
    lb.add_argument("--adjust", choices=["none", "holm", "bh"], default="none",
                    help="multiplicity control over all pairwise decisions")
    lb.add_argument("--draws", type=_positive_int, default=10_000,
                    help="joint posterior draws (p_best, population P(i > j))")
    lb.add_argument("--seed", type=_positive_int, default=0)
    lb.add_argument(
        "--prior",
        choices=["uniform", "greedy"],
        default="uniform",
        help="greedy: use the file's greedy/R0 outcomes as Dirichlet prior counts",
    )
    lb.add_argument("--k", type=_ks, default=[], help="Pass@k columns, e.g. 2,4,8")
    lb.add_argument("--format", choices=list(FORMATS), default="csv")
    lb.add_argument(
        "--rubric",
        help="score with a rubric: a preset name (see `scorio-studio rubric list`) or a rubric "
        ".json file; maps the file's per-completion signals to categories first",
    )

    pl = sub.add_parser(
        "plan", help="trials and questions needed per undecided pair; budget split (Planner page)"
    )
    _add_data_args(pl)
    pl.add_argument("--budget-trials", type=_positive_int, default=0,
                    help="extra trials per question to split across models (one unit = one "
                    "model answering every question once more); default one per model")
    pl.add_argument("--confidence", type=_confidence, default=0.95)
    pl.add_argument("--scope", choices=["questions", "population"], default="questions",
                    help="scope whose decisions define the undecided pairs")
    pl.add_argument("--adjust", choices=["none", "holm", "bh"], default="none")
    pl.add_argument("--prior", choices=["uniform", "greedy"], default="uniform")
    pl.add_argument("--format", choices=["text", "csv", "json"], default="text")

    cmp = sub.add_parser(
        "compare", help="rank with many methods and measure agreement (Method comparison page)"
    )
    _add_data_args(cmp)
    cmp.add_argument(
        "--methods",
        default="all",
        help="'all', a family name, or comma-separated method ids (see `scorio-studio methods`)",
    )
    cmp.add_argument("--format", choices=["csv", "json"], default="csv")

    conv = sub.add_parser(
        "convergence", help="convergence@n over bootstrap replicates (Convergence page)"
    )
    _add_data_args(conv)
    conv.add_argument("--methods", default="bayes,pass_at_k_2,pass_at_k_4,pass_at_k_8",
                      help="'all', a family name, or comma-separated method ids")
    conv.add_argument("--replicates", type=_positive_int, default=10_000)
    conv.add_argument("--seed", type=_positive_int, default=0)
    conv.add_argument("--scheme", choices=["column", "row", "permutation"], default="column")
    conv.add_argument("--target", choices=["gold", "self", "truth"], default="gold",
                      help="gold: Bayes@N on all trials; self: each method's own full ranking; "
                      "truth: the file's known true means (simulated data, e.g. biased coins)")
    conv.add_argument("--match", choices=["exact", "ci"], default="exact",
                      help="exact: the ranking equals the target (000 App. I.1); ci: pairs the "
                      "full data decide at 95%% follow the target, CI ties may swap")
    conv.add_argument("--format", choices=["text", "csv", "json"], default="text")
    _add_cluster_args(conv)

    stab = sub.add_parser(
        "stability", help="N=1 stability of every method vs gold and itself (Stability page)"
    )
    _add_data_args(stab)
    stab.add_argument("--methods", default="all",
                      help="'all', a family name, or comma-separated method ids")
    stab.add_argument("--format", choices=["text", "csv", "json"], default="text")
    _add_cluster_args(stab)

    gr = sub.add_parser("greedy", help="greedy vs sampling alignment and the greedy prior's effect")
    _add_data_args(gr)
    gr.add_argument("--replicates", type=_positive_int, default=50,
                    help="resampled datasets for the N=1 statistics (paper: 50)")
    gr.add_argument("--seed", type=_positive_int, default=0)
    gr.add_argument("--format", choices=["text", "csv", "json"], default="text")

    rub = sub.add_parser("rubric", help="list and show rubric presets (Rubric builder page)")
    rsub = rub.add_subparsers(dest="rubric_command", required=True)
    rl = rsub.add_parser("list", help="the 20 presets of 000 Table 5 and 002 Table 21")
    rl.add_argument("--format", choices=["text", "csv", "json"], default="text")
    rs = rsub.add_parser("show", help="one rubric's categories, weights and ordered rules")
    rs.add_argument("name", help="preset name (e.g. ranking/conservative) or a rubric .json file")
    rs.add_argument("--format", choices=["text", "json"], default="text",
                    help="json: the rubric file format, ready to edit and load back")

    lst = sub.add_parser("methods", help="list the registered ranking methods")
    lst.add_argument("--markdown", action="store_true", help="the README's Markdown table")

    info = sub.add_parser("info", help="validate a file and print its shape report")
    _add_data_args(info)

    imp = sub.add_parser(
        "import", help="read logs/tables and write them as one .parquet/.csv/.jsonl or .npz"
    )
    _add_data_args(imp)
    imp.add_argument("--out", required=True, help="output file: .npz, .parquet, .csv or .jsonl")

    from ._cli_simulate import add_parser as add_simulate

    add_simulate(sub)

    app = sub.add_parser("app", help="open the Streamlit app (needs the source checkout)")
    app.add_argument("streamlit_args", nargs=argparse.REMAINDER)

    rep = sub.add_parser("report", help="HTML / Markdown report or notebook of chosen analyses")
    _add_data_args(rep)
    rep.add_argument("--sections", default="leaderboard,compare,convergence,stability,greedy,"
                     "rubric", help="comma-separated analyses, in report order")
    rep.add_argument("--title", help="report title (default: names the dataset)")
    rep.add_argument("--out", required=True, help="FILE.html, FILE.md or FILE.ipynb")
    return parser


class StderrProgress:
    """A ``progress(fraction, message)`` callback that reports long runs on stderr.

    On a terminal it redraws one line; otherwise (logs, CI) it prints a line at most
    every ``every`` seconds. Elapsed time and a linear estimate of the time left.
    """

    def __init__(self, label: str, every: float = 10.0) -> None:
        self.label, self.every = label, every
        self.tty = sys.stderr.isatty()
        self.start = self.last = time.monotonic()

    def __call__(self, fraction: float, message: str = "") -> None:
        now = time.monotonic()
        done = fraction >= 1.0
        if not (self.tty or done or now - self.last >= self.every):
            return
        self.last = now
        elapsed = now - self.start
        left = "" if fraction <= 0.02 else f", ~{elapsed * (1 - fraction) / fraction:.0f} s left"
        line = f"{self.label}: {fraction:4.0%} {message} ({elapsed:.0f} s{left})"
        end = "\n" if done or not self.tty else ""
        sys.stderr.write(("\r\x1b[K" if self.tty else "") + line + end)
        sys.stderr.flush()

    def counted(self, i: int, n: int, message: str = "") -> None:
        """The ``(i, n, message)`` form of :func:`scorio_core.analysis.run_methods`."""
        self(i / max(n, 1), f"{message} ({i + 1}/{n})" if i < n else message)


def _check_prior(args, data) -> None:
    if getattr(args, "prior", "uniform") == "greedy" and data.R0 is None:
        raise ValidationError(
            "--prior greedy needs greedy outcomes: rows with decoding=greedy in a long table "
            f"or an R0 array in an .npz; {data.name!r} has none (drop --prior greedy)"
        )


def _load(args):
    from . import io

    paths = [Path(p) for p in args.path]
    data = io.load(
        paths[0] if len(paths) == 1 else paths,
        on_missing=args.on_missing,
        scorer=args.scorer,
        weights=_weights(args.weights),
    )
    return data.select(args.benchmark)


def _with_source(args, data):
    """``data`` carrying its input file's name and sha256 for the exports' provenance."""
    from .analyses.provenance import attach_source

    paths = [Path(p) for p in args.path]
    return attach_source(data, paths[0]) if len(paths) == 1 and paths[0].is_file() else data


def _pick(meta, *keys: str) -> dict:
    return {k: meta[k] for k in keys if k in meta}


def _import(data, out: str) -> str:
    """Write ``data`` to ``out`` (.npz keeps weights and category names; tables do not)."""
    from . import io

    path = Path(out)
    if path.suffix.lower() == ".npz":
        io.save_npz(data, path)
    else:
        io.save_table(data, path)
    report = data.metadata.get("import_report", {})
    lines = [f"wrote {path} ({data.L} models x {data.M} questions x {data.N} trials)"]
    lines += [f"note: {n}" for n in report.get("notes", [])]
    if report.get("missing_samples"):
        lines.append(f"note: {report['missing_samples']} samples had no score (missing cells)")
    if not data.is_binary and path.suffix.lower() != ".npz":
        lines.append(
            f"note: tables do not store category weights ({list(data.weights)}); pass "
            "--weights when analysing, or write .npz"
        )
    return "\n".join(lines) + "\n"


def _weights(text: str | None):
    if text is None:
        return None
    try:
        return [float(t) for t in text.split(",")]
    except ValueError:
        raise ValidationError(f"--weights expects comma-separated numbers; got {text!r}") from None


def _print_methods(markdown: bool = False) -> None:
    from .rank import METHODS
    from .rank.registry import methods_markdown

    if markdown:
        sys.stdout.write(methods_markdown())
        return
    for mid, m in METHODS.items():
        flags = "".join(
            [" [needs R0]" if m.needs_r0 else "", " [stochastic]" if m.stochastic else "",
             " [extra]" if m.extra else ""]
        )
        print(f"{mid:<48} {m.family:<11} {m.description}{flags}")


def _run_app(extra: Sequence[str]) -> int:
    app_py = Path(__file__).resolve().parent.parent / "app.py"
    if not app_py.exists():
        raise ValidationError(
            f"app.py not found next to the package ({app_py}); run from a source checkout "
            "installed with `pip install -e .`"
        )
    cmd = [sys.executable, "-m", "streamlit", "run", str(app_py), *extra]
    return subprocess.call(cmd, cwd=app_py.parent, env=os.environ.copy())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``scorio-studio``; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["app"]:  # everything after `app` goes to streamlit, flags included
        extra = argv[1:]
        return _run_app(extra[1:] if extra[:1] == ["--"] else extra)
    args = _parser().parse_args(argv)
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")  # small matrices: BLAS threads only add overhead
    try:
        if args.command == "methods":
            _print_methods(args.markdown)
            return 0
        if args.command == "rubric":
            from . import _cli_analysis

            sys.stdout.write(_cli_analysis.rubric(args))
            return 0
        if args.command == "simulate":
            from ._cli_simulate import run as simulate

            sys.stdout.write(simulate(args))
            return 0
        if args.command == "report":
            from .report import cli_report

            return cli_report(args)
        data = _load(args)
        _check_prior(args, data)
        if args.command in ("compare", "convergence", "stability", "greedy"):
            from . import _cli_analysis

            run = getattr(_cli_analysis, args.command)
            sys.stdout.write(run(_with_source(args, data), args))
            return 0
        if args.command == "import":
            sys.stderr.write(_import(data, args.out))
            return 0
        if args.command == "plan":
            from .planner import plan

            result = plan(
                data, use_prior=args.prior == "greedy", confidence=args.confidence,
                scope=args.scope, adjust=args.adjust, budget_trials=args.budget_trials,
            )
            fmt = {"text": result.to_text, "csv": result.to_csv, "json": result.to_json}
            sys.stdout.write(fmt[args.format]())
            return 0
        if args.command == "info":
            report = {**data.describe(), **_pick(data.metadata, "import_report", "trial_ids")}
            print(json.dumps(report, indent=2, ensure_ascii=False, default=str))
            return 0
        if args.rubric:
            from . import _cli_analysis

            if args.prior == "greedy":
                raise ValidationError(
                    "--prior greedy cannot be combined with --rubric: the greedy outcomes are "
                    "binary correctness, not rubric categories"
                )
            data = _cli_analysis.apply_rubric(args.rubric, data)
        from . import export
        from .leaderboard import leaderboard

        board = leaderboard(
            data,
            w=_weights(args.weights),
            use_prior=args.prior == "greedy",
            confidence=args.confidence,
            ks=args.k,
            scope=args.scope,
            adjust=args.adjust,
            draws=args.draws,
            seed=args.seed,
        )
        sys.stdout.write(export.export(board, args.format))
        return 0
    except BrokenPipeError:  # `scorio-studio ... | head`: the reader left, not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValidationError, FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"scorio-studio: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
