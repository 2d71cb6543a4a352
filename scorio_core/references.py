"""The papers behind the methods, cited by title and section wherever a reader meets them.

The code's comments and the texts it builds refer to the papers by short keys
(``000 App. D``, ``002 Table 21``); a reader who has not got the papers cannot follow
those. Every text a user reads -- page texts, chart captions, definitions' "how to read"
and caveats, reports, CLI help, rubric presets -- goes through :func:`expand`, which turns
a key followed by a section into *title (year), section*; :func:`cite` writes one citation
and :func:`bibliography` the full list (README, report). Docstrings, which ``help()``
shows as they are written, and the tutorial notebooks cite in that expanded form
(``tests/test_references.py`` checks both).

Example
-------
>>> from scorio_core.references import cite, expand
>>> cite("000", "App. D")
"Don't Pass@k (2026), App. D"
>>> expand("the expected-z rule (000 App. D; now N = 4)")
"the expected-z rule (Don't Pass@k (2026), App. D; now N = 4)"
>>> expand("002 Tables 18-19")
'Ranking Reasoning LLMs under Test-Time Scaling (2026), Tables 18-19'
>>> expand("μ = 0.5625 (001)")
'μ = 0.5625 (Scorio documentation, worked example)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._validation import Said

__all__ = ["Paper", "PAPERS", "cite", "expand", "bibliography", "BARE_KEY"]


@dataclass(frozen=True)
class Paper:
    """One source: its key in the code, the short title used inline and the full entry."""

    key: str
    short: str
    title: str
    authors: str
    year: int | None
    venue: str
    url: str

    def entry(self, url: bool = True) -> str:
        """The full reference: authors, title, venue, year, address (those known)."""
        venue = f"{self.venue}, {self.year}" if self.year else self.venue
        parts = [self.authors, f"*{self.title}*", venue]
        return ". ".join(p for p in parts if p) + (f". {self.url}" if url else ".")


#: The sources cited by key in the code (the papers' own numbering of sections, tables,
#: figures and appendices is used after the key).
PAPERS: dict[str, Paper] = {
    "000": Paper(
        "000", "Don't Pass@k",
        "Don't Pass@k: A Bayesian Framework for Large Language Model Evaluation",
        "M. Hariri, A. Samandar, M. Hinczewski, V. Chaudhary", 2026,
        "ICLR (arXiv:2510.04265)", "https://arxiv.org/abs/2510.04265",
    ),
    "001": Paper(
        "001", "Scorio documentation",
        "Scorio documentation: the Bayes@N API and its worked example", "", None,
        "Documentation of the scorio Python package", "https://pypi.org/project/scorio/",
    ),
    "002": Paper(
        "002", "Ranking Reasoning LLMs under Test-Time Scaling",
        "Ranking Reasoning LLMs under Test-Time Scaling",
        "M. Hariri, M. Hinczewski, J. Ma, V. Chaudhary", 2026, "arXiv:2603.10960",
        "https://arxiv.org/abs/2603.10960",
    ),
}

#: What may follow a key: a section, appendix, table, figure, algorithm or equation.
_PART = r"(?:§|App\.|Appendix|Tables?|Tab\.|Figs?\.|Algorithm|Alg\.|[Ee]qs?\.|[A-J]\.\d)"
#: A key where a reader would meet it: before a section, or as "001's" / "(001)"; never
#: inside a number ("p < 0.001)", "1,000 Tables").
BARE_KEY = re.compile(
    rf"(?:[Pp]aper\s+)?(?<![\d.,])\b(00[0-2])"
    rf"(?:(?P<sec>\s+)(?={_PART})|(?P<pos>'s)\b|(?=\))|(?P<comma>(?=,)))"
)


def cite(key: str, where: str = "") -> str:
    """``"Title (year), where"`` for the source ``key`` (``"000"``, ``"002"``, ...)."""
    p = PAPERS[key]
    head = f"{p.short} ({p.year})" if p.year else p.short
    return f"{head}, {where}" if where else head


def _sub(m: re.Match) -> str:
    key = m.group(1)
    if m.group("sec") is not None:  # "000 App. D" -> "Don't Pass@k (2026), App. D"
        return f"{cite(key)}, "
    if m.group("pos") is not None:  # "001's worked example"
        return f"the {cite(key)}'s" if key == "001" else f"{cite(key)}'s"
    if m.group("comma") is not None:  # "Paper 002, Appendix B"
        return cite(key)
    return f"{cite(key)}, worked example" if key == "001" else cite(key)  # "(001)"


def expand(text: str) -> str:
    """``text`` with every ``000 App. D``-style key spelled out as *title (year), App. D*.

    Idempotent: a text already expanded has no bare key left. A
    :class:`~scorio_core._validation.Said` stays one (its text expanded).
    """
    if not isinstance(text, str) or "00" not in text:
        return text
    if isinstance(text, Said):  # the settings it names stay parts
        return text.map(expand)
    return BARE_KEY.sub(_sub, text)


def bibliography(markdown: bool = True, urls: bool = True) -> list[str]:
    """One line per source, in key order (Markdown emphasis on the titles when asked;
    ``urls=False`` for documents that must not link out, such as the offline report)."""
    lines = []
    for p in PAPERS.values():
        entry = p.entry(url=urls)
        lines.append(entry if markdown else entry.replace("*", ""))
    return lines
