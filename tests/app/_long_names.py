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
