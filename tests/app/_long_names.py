"""Uploads with two model names of about 70 characters, for the tests of what the pages draw
around long names (``test_long_texts.py``, ``test_long_texts_browser.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

#: Two names of 69 characters, without a space: the Leaderboard's pair button wrapped its
#: label in two lines and its select box clipped the pair at "… vs Another-Ext".
LONG_A = "Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview-very-long-name"
LONG_B = "Another-Extremely-Long-Model-Name-Instruct-v3.1-2026-02-preview-build"


def two_long_leaders(path: Path) -> Path:
    """A CSV of four models over 40 questions, three trials each: the two long names lead,
    close together (the top two, an undecided pair), two short names far behind."""
    rng = np.random.default_rng(3)
    rows = ["model,question,trial,outcome"]
    for m, p in ((LONG_A, 0.72), (LONG_B, 0.70), ("alpha-7b", 0.5), ("beta-13b-chat", 0.3)):
        rows += [f"{m},q{q:02d},{t},{int(rng.random() < p)}" for q in range(40) for t in range(3)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def close_three(path: Path) -> Path:
    """A CSV of the two long names and a short one, each within 0.02 of the others on 30
    questions of spread difficulty, four trials each: close enough that some rankers order
    them against the gold standard -- the Method comparison's lowest τ_b is negative, a
    value of seven characters ("-0.8165")."""
    rng = np.random.default_rng(3)
    rows = ["model,question,trial,outcome"]
    ease = rng.random(30)
    for m, shift in ((LONG_A, 0.0), (LONG_B, 0.02), ("alpha-7b", -0.02)):
        for q in range(30):
            p = min(max(ease[q] + shift, 0.0), 1.0)
            rows += [f"{m},q{q:02d},{t},{int(rng.random() < p)}" for t in range(4)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


#: Names alike but where a cut falls: two that differ in their middle only (a cut that keeps
#: the start and the end reads them alike) and two that differ at their end only (a cut that
#: keeps the start reads them alike).
LOOK_ALIKE = (
    "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo-2026-01-release",
    "meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo-2026-01-release",
    "claude-3-5-sonnet-20240620",
    "claude-3-5-sonnet-20241022",
)


def look_alike(path: Path) -> Path:
    """A CSV of the four :data:`LOOK_ALIKE` names over 40 questions in two topics, three
    trials each, close in pairs: a per-subset table, undecided pairs, and boxes of names."""
    rng = np.random.default_rng(5)
    rows = ["model,question,trial,outcome,topic"]
    for m, p in zip(LOOK_ALIKE, (0.72, 0.70, 0.52, 0.5), strict=True):
        rows += [f"{m},q{q:02d},{t},{int(rng.random() < p)},{'ab'[q % 2]}"
                 for q in range(40) for t in range(3)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path
