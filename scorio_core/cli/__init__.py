"""``scorio-studio`` command line: the same tables as the app, for scripts and CI.

One module per subcommand (``leaderboard``, ``plan``, ``compare``, ``convergence``,
``stability``, ``greedy``, ``pair``, ``questions``, ``curves``, ``check``, ``rubric``, ``simulate``,
``report``, ``methods``, and ``data`` for ``info``/``import``), each with
``add_parser(sub)`` and ``run(args) -> int``; a module is light at import time (heavy
imports live inside ``run``), so ``--help`` answers at once.

Examples
--------
.. code-block:: console

    $ scorio-studio leaderboard data/reasoning_synthetic.npz --benchmark "AIME'25" --k 2,8
    $ scorio-studio leaderboard results.csv --prior greedy --format json
    $ scorio-studio compare data/reasoning_synthetic.npz --benchmark "AIME'24" --methods voting
    $ scorio-studio convergence data/biased_coins.npz --methods bayes,pass_at_k_2 --replicates 10000
    $ scorio-studio stability data/reasoning_synthetic.npz --benchmark "HMMT'25"
    $ scorio-studio greedy data/reasoning_synthetic.npz
    $ scorio-studio pair logs/ alpha beta --question 2   # two models, question by question
    $ scorio-studio questions data/jhu_llm_temperature.parquet --subset source=medmcqa
    $ scorio-studio curves data/jhu_llm_temperature.parquet --scope population --tau 0.5
    $ scorio-studio leaderboard data/jhu_llm_temperature.parquet --by source
    $ scorio-studio check data/jhu_llm_temperature.parquet --trials 4 --questions 30
    $ scorio-studio info results.parquet
    $ scorio-studio leaderboard logs/ --scorer match        # a directory of Inspect .eval logs
    $ scorio-studio import logs/*.eval --out runs.parquet
    $ scorio-studio simulate prior-depth --seed 1 --format json
    $ scorio-studio app
"""


from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path

from .._validation import SettingsConflict, ValidationError, said_of
from ._common import StderrProgress

__all__ = ["main", "StderrProgress"]

#: Subcommand -> module of this package that defines it, in ``--help`` order.
COMMANDS = {
    "leaderboard": "leaderboard",
    "plan": "plan",
    "compare": "compare",
    "convergence": "convergence",
    "stability": "stability",
    "greedy": "greedy",
    "pair": "pair",
    "questions": "questions",
    "curves": "curves",
    "check": "check",
    "spread-prior": "spread_prior",
    "rubric": "rubric",
    "methods": "methods",
    "info": "data",
    "import": "data",
    "simulate": "simulate",
    "app": None,
    "report": "report",
}


def _module(name: str):
    return import_module(f".{name}", __name__)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorio-studio",
        description="Calibrated leaderboards of LLM evaluations (intervals that hold their "
        "confidence, rank intervals, p_best) beside the papers' Bayes@N; planning, "
        "diagnostics, rankers and reports.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    done = set()
    for module in COMMANDS.values():
        if module is None:  # `app`: main() hands its arguments to streamlit before parsing
            app = sub.add_parser("app", help="open the Streamlit app (needs the source checkout)")
            app.add_argument("streamlit_args", nargs=argparse.REMAINDER)
        elif module not in done:
            done.add(module)
            _module(module).add_parser(sub)
    _cite(parser)
    return parser


def _cite(parser: argparse.ArgumentParser) -> None:
    """Every help text of ``parser`` and its subcommands with the papers spelled out by
    title (:func:`scorio_core.references.expand`): ``--help`` is read without the papers."""
    from ..references import expand

    parser.description, parser.epilog = expand(parser.description), expand(parser.epilog)
    for action in parser._actions:
        action.help = expand(action.help)
        for choice in getattr(action, "_choices_actions", ()):  # the subcommand list
            choice.help = expand(choice.help)
        for sub in (action.choices or {}).values() if isinstance(action.choices, dict) else ():
            _cite(sub)


def _run_app(extra: Sequence[str]) -> int:
    """``python serve.py FLAGS``: ``streamlit run app.py FLAGS`` with the first page's
    imports done while the server starts (see serve.py)."""
    root = Path(__file__).resolve().parents[2]
    serve, app_py = root / "serve.py", root / "app.py"
    if not (serve.exists() and app_py.exists()):
        raise ValidationError(
            f"app.py and serve.py not found next to the package ({root}); run from a source "
            "checkout installed with `pip install -e .`"
        )
    cmd = [sys.executable, str(serve), *extra]
    return subprocess.call(cmd, cwd=root, env=os.environ.copy())



def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``scorio-studio``; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["app"]:  # everything after `app` goes to streamlit, flags included
        extra = argv[1:]
        return _run_app(extra[1:] if extra[:1] == ["--"] else extra)
    parser = _parser()
    args = parser.parse_args(argv)
    from threadpoolctl import threadpool_limits

    from ._common import check_settings, cli_text, command_parser

    threadpool_limits(1, user_api="blas")  # small matrices: BLAS threads only add overhead
    command = command_parser(parser, args)  # names the settings as this command takes them
    try:
        check_settings(parser, args)  # before any work, as a value out of range is
        return _module(COMMANDS[args.command]).run(args)
    except SettingsConflict as exc:  # settings valid alone, not together: a usage error
        command.error(cli_text(said_of(exc), command))
    except BrokenPipeError:  # `scorio-studio ... | head`: the reader left, not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValidationError, FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        # a missing-column error suggests --columns here, not the Python columns= keyword
        text = exc.cli_message() if hasattr(exc, "cli_message") else said_of(exc)
        # a loader's advice names its flag here, not the Python keyword
        text = cli_text(text, command)
        msg = text.splitlines()[0] if text else type(exc).__name__
        print(f"scorio-studio: error: {msg}", file=sys.stderr)
        return 2
