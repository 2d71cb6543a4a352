"""CLI defects of issue 14: slow --help, app flags, the --prior greedy message, progress."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorio_core import cli

ROOT = Path(__file__).resolve().parents[2]


def test_help_imports_no_heavy_module():
    """--help took 2-4 s because the parser module imported polars, pandas and scipy."""
    code = (
        "import sys\n"
        "from scorio_core.cli import _parser\n"
        "_parser().format_help()\n"
        "heavy = [m for m in ('pandas', 'polars', 'scipy', 'altair', 'streamlit') "
        "if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize(
    ("argv", "extra"),
    [
        (["app", "--server.port", "8601", "--server.headless", "true"],
         ["--server.port", "8601", "--server.headless", "true"]),
        (["app", "--", "--theme.base", "dark"], ["--theme.base", "dark"]),
        (["app"], []),
    ],
)
def test_app_passes_streamlit_flags_through(monkeypatch, argv, extra):
    seen = {}

    def fake_call(cmd, cwd=None, env=None):
        seen["cmd"] = cmd
        return 0

    monkeypatch.setattr(cli.subprocess, "call", fake_call)
    assert cli.main(argv) == 0
    cmd = seen["cmd"]
    assert cmd[1].endswith("serve.py") and Path(cmd[1]).is_file()
    assert cmd[2:] == extra


def test_serve_runs_streamlit_on_app_py_with_the_flags(monkeypatch, capsys):
    """serve.py hands ``run app.py FLAGS`` to Streamlit's own CLI after its imports and
    its warm-up (which must not fail: it would be skipped with a note on stderr)."""
    import importlib.util

    from streamlit.web import cli as stcli

    spec = importlib.util.spec_from_file_location("serve", ROOT / "serve.py")
    serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve)
    seen = {}
    monkeypatch.setattr(stcli, "main", lambda: seen.setdefault("argv", list(sys.argv)) and 0)
    monkeypatch.setattr(sys, "argv", ["serve.py"])
    assert serve.main(["--server.port", "8601"]) == 0
    assert seen["argv"] == ["streamlit", "run", str(ROOT / "app.py"), "--server.port", "8601"]
    assert all(m in sys.modules for m in (*serve.PRELOAD, *serve.PRELOAD_MORE))
    assert "warm-up skipped" not in capsys.readouterr().err


def test_prior_greedy_without_greedy_outcomes_names_the_flag(capsys):
    code = cli.main(["leaderboard", str(ROOT / "data" / "biased_coins.npz"), "--prior", "greedy"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--prior greedy needs greedy outcomes" in err and "use_prior" not in err


def test_long_runs_report_progress_on_stderr(capsys):
    code = cli.main(["convergence", str(ROOT / "data" / "biased_coins.npz"), "--methods",
                     "bayes", "--replicates", "300", "--format", "csv"])
    out, err = capsys.readouterr()
    body = "".join(ln for ln in out.splitlines(keepends=True) if not ln.startswith("# "))
    assert code == 0 and body.startswith("method,")  # stdout stays the table (+ provenance)
    assert re.fullmatch(r"convergence: 100% done \(\d+ s\)\n", err)


def test_stderr_progress_throttles_when_not_a_terminal(capsys):
    bar = cli.StderrProgress("x", every=3600)
    for i in range(50):
        bar(i / 50, "step")
    bar(1.0, "done")
    err = capsys.readouterr().err.splitlines()
    assert err == [err[-1]] and err[-1].startswith("x: 100% done")


def test_stderr_progress_says_time_left_until_done_and_done_once(capsys, monkeypatch):
    """A line under way says the time left; the end says done once, with no time left: a
    run whose last part reports 100% ('combined: done') before the run does had printed
    two 100% lines, each with '~0 s left'."""
    clock = iter([0.0, 10.0, 20.0, 30.0, 31.0])
    monkeypatch.setattr(cli._common.time, "monotonic", lambda: next(clock))
    bar = cli.StderrProgress("greedy", every=5)
    bar(0.5, "AIME'24")
    bar(1.0, "combined: done")
    bar(1.0, "done")
    assert capsys.readouterr().err.splitlines() == [
        "greedy:  50% AIME'24 (10 s, ~10 s left)", "greedy: 100% done (20 s)"]


def test_stability_text_says_undefined_when_every_model_ties(tmp_path, capsys):
    import numpy as np

    from scorio_core import Outcomes, io

    R = np.repeat(np.random.default_rng(0).integers(0, 2, (1, 6, 4)), 3, axis=0)
    io.save_npz(Outcomes(R, models=["a", "b", "c"]), tmp_path / "tie.npz")
    assert cli.main(["stability", str(tmp_path / "tie.npz"), "--methods", "bayes,borda"]) == 0
    out = capsys.readouterr().out
    assert "undefined (all models tie)" in out and "nan" not in out
    assert cli.main(["compare", str(tmp_path / "tie.npz"), "--methods", "bayes,borda",
                     "--format", "json"]) == 0  # NaN τ_b is null, not a crash
    assert "NaN" not in capsys.readouterr().out
