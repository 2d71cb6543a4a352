"""A pair of long model names on one line of a button or a select box: each cut in the
middle (``app_state.table_fit.middle_cut``, ``fitted_names``), measured without a browser."""

from __future__ import annotations

import numpy as np
import pytest

from app_state.table_fit import (
    BUTTON_PX,
    NARROW_COLUMN_PX,
    SELECT_PX,
    fitted_names,
    middle_cut,
    text_px,
)

LONG = "Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview-very-long-name"


def test_a_text_that_fits_is_left_whole():
    assert middle_cut("gpt-4", text_px("gpt-4")) == "gpt-4"
    assert fitted_names(["gpt-4", "claude-3-opus-20240229"], BUTTON_PX) == [
        "gpt-4", "claude-3-opus-20240229"]


@pytest.mark.parametrize("px", [40, 120, 240, 400])
def test_a_long_text_keeps_its_start_and_end_within_the_pixels(px):
    cut = middle_cut(LONG, px)
    assert text_px(cut) <= px and cut.count("…") == 1
    head, tail = cut.split("…")
    assert LONG.startswith(head) and LONG.endswith(tail)
    assert head and tail  # both ends: a family and a version
    # the start takes about half: it is not kept at the end's cost
    assert abs(text_px(head) - text_px(tail)) <= 2 * max(text_px(c) for c in LONG)


def test_a_pair_shares_the_room_the_shorter_name_kept_whole():
    names = ["gpt-4", LONG]
    short = fitted_names(names, 260)
    assert short[0] == "gpt-4" and short[1] == middle_cut(LONG, 260 - text_px("gpt-4"))
    assert sum(map(text_px, short)) <= 260
    b = "Another-Extremely-Long-Model-Name-Instruct-v3.1-2026-02-preview-build"
    both = fitted_names([LONG, b], 300)  # two long names: each about half, in their order
    assert all("…" in x for x in both) and sum(map(text_px, both)) <= 300
    assert both[0].startswith("Modèle") and both[1].endswith("build")


def test_random_names_always_fit():
    rng = np.random.default_rng(11)
    letters = list("abcdefghijklmnopqrstuvwxyzMW_-.0123456789模型δΩ")
    for _ in range(200):
        names = ["".join(rng.choice(letters, rng.integers(1, 90))) for _ in range(2)]
        px = float(rng.integers(60, 600))
        out = fitted_names(names, px)
        assert sum(map(text_px, out)) <= px + 1e-9, (names, px, out)
        for name, shown in zip(names, out, strict=True):
            assert shown == name or "…" in shown


def test_the_widths_are_a_1024px_windows_column_less_the_widgets_own():
    assert BUTTON_PX == NARROW_COLUMN_PX - 50
    assert SELECT_PX < BUTTON_PX  # the box's larger type
