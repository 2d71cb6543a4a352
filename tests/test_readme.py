"""The README stays true: two set-up commands, CI runs the test one, method table in sync."""

from __future__ import annotations

import re
from pathlib import Path

from scorio_core.rank.registry import methods_markdown

ROOT = Path(__file__).resolve().parent.parent


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_method_table_matches_registry():
    text = _readme()
    block = re.search(r"<!-- methods-table -->\n(.*?)<!-- /methods-table -->", text, re.S)
    assert block, "README lost its methods-table markers"
    assert block.group(1) == methods_markdown(), (
        "README method table is stale: run `scorio-studio methods --markdown` and paste it"
    )


def test_two_setup_commands_and_ci_runs_the_test_one():
    text = _readme()
    section = text.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    commands = [ln for ln in section.splitlines() if ln.startswith("python -m pip install")]
    assert len(commands) == 2
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1] in ci
