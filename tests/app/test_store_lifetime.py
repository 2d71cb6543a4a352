"""The app's loaders keep an upload's sample-store files exactly while a cache entry (or a
session) holds the data: many uploads leave at most the cache's worth of stores behind."""

from __future__ import annotations

import gc
from pathlib import Path

from app_pages import _loading
from scorio_core import io

LOG = next((Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect"
            / "texts").glob("*.eval"))


def test_uploads_beyond_the_cache_leave_no_store_files_behind():
    _loading._load_bytes.clear()
    data = LOG.read_bytes()
    dirs = []
    for i in range(12):  # twelve uploads (different names: different cache entries)
        o = _loading._load_bytes(((f"run{i}.eval", data),), io.LoadOptions())
        assert o.samples is not None
        dirs.append({Path(f).parent for f in o.samples.files})
        del o
        gc.collect()
    alive = [all(d.is_dir() for d in ds) for ds in dirs]
    assert sum(alive) <= 8  # the loader's cache size; the evicted uploads' files are gone
    assert alive[-1]  # the latest upload is still cached: its files are there
    again = _loading._load_bytes((("run11.eval", data),), io.LoadOptions())
    assert again.samples.for_question(again.questions[0]).height > 0
    _loading._load_bytes.clear()
    del again
    gc.collect()
    assert not any(d.exists() for ds in dirs for d in ds)
