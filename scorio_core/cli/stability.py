"""``scorio-studio stability``: N = 1 stability of every method (the Stability page's
definition, :data:`scorio_core.analyses.STABILITY`)."""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING

from ._common import (
    _add_cluster_args,
    _add_data_args,
    _csv,
    _header,
    _json,
    _run,
    _skipped,
    _with_source,
    load,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["add_parser", "run", "stability"]


def add_parser(sub) -> None:
    stab = sub.add_parser(
        "stability", help="N=1 stability of every method vs gold and itself (Stability page)"
    )
    _add_data_args(stab)
    from ..params import StabilityParams, add_options

    add_options(stab, StabilityParams)  # as declared in scorio_core/params.py
    stab.add_argument("--format", choices=["text", "csv", "json"], default="text")
    _add_cluster_args(stab)


def run(args) -> int:
    """Print the stability tables of the data the flags name."""
    sys.stdout.write(stability(_with_source(args, load(args)), args))
    return 0


def stability(data, args) -> str:
    from ..params import StabilityParams, from_args

    result, t, prov = _run("stability", data, from_args(StabilityParams, args), args)
    st = result.stability
    gold, own = t["classes_gold"], t["classes_self"]
    if args.format == "json":
        return _json(
            {
                "dataset": data.name,
                "shape": list(data.R.shape),
                "methods": st.table.to_dict(orient="records"),
                "classes_gold": gold.to_dict(orient="records"),
                "classes_self": own.to_dict(orient="records"),
                "skipped": st.skipped,
            },
            prov,
        )
    if args.format == "csv":
        return _csv(prov, st.table) + _skipped(st.skipped)
    return "".join(
        [
            _header(data, "N = 1 stability"),
            "# tau_b of each single-trial ranking; methods with equal tau_b on every slice "
            "share a row\n\n## vs the gold standard (Bayes_U@N, all trials)\n",
            _classes_text(gold),
            "\n## vs each method's own full-trial ranking (self-consistency)\n",
            _classes_text(own),
            _skipped(st.skipped),
        ]
    )


def _classes_text(cls: pd.DataFrame) -> str:
    out = [f"{'rank':>4}  {'mean':>6}  {'sd':>6}  methods\n"]
    for r in cls.itertuples(index=False):
        note = getattr(r, "note", "")
        if math.isnan(r.mean):  # every slice: all models tie
            out.append(f"{r.rank:>4}  {'—':>6}  {'—':>6}  {r.methods}  [{note}]\n")
            continue
        tail = f"  [{note}]" if note else ""
        out.append(f"{r.rank:>4}  {r.mean:6.4f}  {r.sd:6.4f}  {r.methods}{tail}\n")
    return "".join(out)

