"""Where the bundled real data come from: the source and licence the Data page names.

A real dataset's licence travels with every copy (BSD-2-Clause: "Redistributions ... must
retain the above copyright notice"), so the page that shows the data names its paper,
authors, venue and licence, shows the licence file and links the authors' repository.
Synthetic sets say so through their own metadata (``synthetic: true``) instead.

Example
-------
>>> p = provenance("data/jhu_llm_temperature.parquet")
>>> p.licence, p.licence_file
('BSD-2-Clause', 'data/jhu_llm_temperature.LICENSE')
>>> provenance("data/biased_coins.npz") is None
True
>>> print(provenance_markdown(p).splitlines()[0])
**Real data.** Renze & Guven (2024), *The Effect of Sampling Temperature on Problem Solving \
in Large Language Models*, Findings of EMNLP 2024 (arXiv:2402.05201).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["Provenance", "PROVENANCE", "provenance", "provenance_markdown", "licence_text"]

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Provenance:
    """Source and licence of one bundled real dataset (paths relative to the repository)."""

    title: str
    authors: str
    year: int
    venue: str
    url: str
    licence: str
    licence_file: str
    notes_file: str
    summary: str


PROVENANCE = {
    "jhu_llm_temperature.parquet": Provenance(
        title="The Effect of Sampling Temperature on Problem Solving in Large Language Models",
        authors="Renze & Guven",
        year=2024,
        venue="Findings of EMNLP 2024 (arXiv:2402.05201)",
        url="https://github.com/matthewrenze/jhu-llm-temperature/tree/"
        "b00cfb652897e8bdc28c63234def9b490fa84cfb",
        licence="BSD-2-Clause",
        licence_file="data/jhu_llm_temperature.LICENSE",
        notes_file="data/jhu_llm_temperature.SOURCE.md",
        summary=(
            "9 API models × 100 multiple-choice questions from 10 sources, 110 "
            "chain-of-thought completions each: 10 at temperature 0.0 (greedy, `R0`) and "
            "10 at each of 0.1 … 1.0 (the 100 sampled trials, `R`). Outcome 1 = the parsed "
            "answer letter is correct (an unparseable answer or an API failure is wrong)."
        ),
    ),
}


def provenance(source: str | Path) -> Provenance | None:
    """The provenance of the bundled file ``source`` (a path or name), ``None`` for others."""
    return PROVENANCE.get(Path(str(source)).name)


def provenance_markdown(p: Provenance) -> str:
    """Two lines for the page: the citation, then licence, licence file and source notes."""
    return (
        f"**Real data.** {p.authors} ({p.year}), *{p.title}*, {p.venue}.\n\n"
        f"{p.summary}\n\n"
        f"Licence: **{p.licence}** (`{p.licence_file}`, shown below; it must travel with "
        f"every copy) · data and code: [{p.url.split('/tree/')[0].split('github.com/')[1]}]"
        f"({p.url}) · columns, conversion and caveats: `{p.notes_file}`."
    )


def licence_text(p: Provenance) -> str:
    """The licence file's text (the copyright notice the licence asks to keep)."""
    return (ROOT / p.licence_file).read_text(encoding="utf-8")
