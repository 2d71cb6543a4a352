"""A pair of long model names on one line of a button or a select box: each cut in the
middle (``app_state.table_fit.middle_cut``, ``fitted_names``), measured without a browser."""

from __future__ import annotations

import numpy as np
import pytest

from app_state.table_fit import (
    BUTTON_PX,
    NARROW_COLUMN_PX,
    SELECT_PX,
    could_be,
    distinct_cuts,
    end_cut,
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


def _reads_as(name: str, shown: str) -> bool:
    """``shown`` is ``name`` or pieces of it in order around "…": its start, its end and
    at most one stretch between them."""
    if shown == name:
        return True
    pieces = shown.split("…")
    if not (2 <= len(pieces) <= 3 and name.startswith(pieces[0]) and name.endswith(pieces[-1])):
        return False
    return len(pieces) == 2 or pieces[1] in name[len(pieces[0]):len(name) - len(pieces[-1])]


def test_names_alike_but_where_they_are_cut_read_apart():
    """Families of names that differ only past a cut's start (dates), only in their middle
    (sizes) or only in one character, cut in their middle or at their end: each name reads as
    its own pieces, none could be another (``could_be``), most within the room."""
    rng = np.random.default_rng(12)
    letters = list("abcdefghijklmnopqrstuvwxyzMW_-.0123456789模δ")
    kept = 0
    for _ in range(300):
        stem = "".join(rng.choice(letters, rng.integers(0, 40)))
        end = "".join(rng.choice(letters, rng.integers(0, 30)))
        names = list({stem + "".join(rng.choice(letters, rng.integers(0, 4))) + end
                      for _ in range(int(rng.integers(2, 7)))})
        px = float(rng.integers(60, 400))
        for cut in (middle_cut, end_cut):
            out = distinct_cuts(names, px, cut)
            assert set(out) == set(names)
            for n in names:  # its own pieces, and none that could be another name
                assert _reads_as(n, out[n]) and could_be(out[n], n), (names, px, out)
                assert not any(could_be(out[n], m) for m in names if m != n), (names, px, out)
            kept += all(text_px(x) <= px for x in out.values())
    assert kept > 540  # most of the 600 fit their room; the rest read apart a little wider
    sonnets = ["claude-3-5-sonnet-20240620", "claude-3-5-sonnet-20241022"]
    assert distinct_cuts(sonnets, 124) == {n: "claude-3-…" + n[-8:] for n in sonnets}
    llamas = [f"meta-llama/Meta-Llama-3.1-{b}-Instruct-Turbo-2026-01" for b in ("8B", "70B")]
    assert middle_cut(llamas[0], SELECT_PX / 2) == middle_cut(llamas[1], SELECT_PX / 2)
    shown = distinct_cuts(llamas, SELECT_PX / 2)  # apart, each where it differs, in the room
    assert "-8B-" in shown[llamas[0]] and "-70B" in shown[llamas[1]], shown
    assert all(text_px(x) <= SELECT_PX / 2 for x in shown.values()), shown


def test_the_widths_are_a_1024px_windows_column_less_the_widgets_own():
    assert BUTTON_PX == NARROW_COLUMN_PX - 50
    assert SELECT_PX < BUTTON_PX  # the box's larger type
