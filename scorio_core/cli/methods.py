"""``scorio-studio methods``: the registered ranking methods (or the README's table)."""

from __future__ import annotations

import sys

__all__ = ["add_parser", "run"]


def add_parser(sub) -> None:
    lst = sub.add_parser("methods", help="list the registered ranking methods")
    lst.add_argument("--markdown", action="store_true", help="the README's Markdown table")


def run(args) -> int:
    _print_methods(args.markdown)
    return 0


def _print_methods(markdown: bool = False) -> None:
    from ..rank import METHODS
    from ..rank.registry import methods_markdown

    if markdown:
        sys.stdout.write(methods_markdown())
        return
    for mid, m in METHODS.items():
        flags = "".join(
            [" [needs R0]" if m.needs_r0 else "", " [stochastic]" if m.stochastic else "",
             " [extra]" if m.extra else ""]
        )
        print(f"{mid:<48} {m.family:<11} {m.description}{flags}")

