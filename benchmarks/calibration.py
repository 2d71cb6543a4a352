"""Calibration of the headline (SPEC §4): interval coverage over the full grid beside the
papers' Bayes@N and the plain t interval, false decisions under exact ties, simultaneous
rank-interval coverage and the reliability of p_best, all with known truth.

Run: ``python benchmarks/calibration.py [--reps 2000] [--field-reps 1000] [--tie-reps 10000]
[--workers 2] [--seed 0] [--quick] [--curves | --pairs | --real | --ties | --p-best]``

Coverage (:func:`scorio_core.calibration.calibration_table`): 4 benchmarks (U-shaped,
easy, hard, logit with shared difficulty) × M ∈ {15, 30, 100, 500} × N ∈ {1, 2, 4, 8, 32}
× both scopes × binary and categorical (weights 0, 0.5, 1) outcomes, ``--reps`` replicates
per cell. Target for the headline: 93–97 % (90–98 % at M = 15); cells outside are bold
and listed with their Monte-Carlo standard error. Fields of models (ties, ranks, p_best)
call :func:`scorio_core.inference.infer` once per replicate (5–15 ms), ``--field-reps``
replicates per rank / p_best cell.

Exact ties (:func:`scorio_core.calibration.tie_errors`): 8 tied models, (M, N) ∈ {(15, 8),
(30, 4), (100, 2)}, questions scope on permuted U-shaped / easy / hard question sets,
population scope on the logit design and on i.i.d. U-shaped / easy / hard questions
(:data:`~scorio_core.calibration.TIE_DESIGNS`); ``--tie-reps`` fields per cell (10,000: a
5 % rate's standard error is 0.22 points; 40 min on 2 workers). ``--ties`` runs only
this study. ``--quick``: 300 / 150 replicates (a smoke run, not a measurement).

p_best (:func:`scorio_core.calibration.p_best_calibration`): reliability of ``p_best`` and of
the rank distribution on fields of 5 logit models with known truth, (M, N) ∈ {(30, 8),
(100, 4)} × both scopes × binary and categorical outcomes, and binary outcomes on an easy
and a hard benchmark (shared difficulty shifted, :data:`PBEST_SKEWED`), ``--field-reps``
fields per cell; ``--p-best`` runs only this study (each cell has its own seed, so its
tables are those of the full run).
The cells run on a local Dask cluster of ``--workers`` processes (0: this process); the
numbers do not depend on where they run.

Pass@k curves (:func:`scorio_core.calibration.curve_calibration_table`): coverage of the
Pass@k and Pass^k intervals (:mod:`scorio_core.curves`) at k = 1, 2, N/2, N on the quick grid
:data:`~scorio_core.calibration.CURVE_GRID` (4 benchmarks × (M, N) ∈ {(15, 4), (30, 8),
(100, 16), (500, 4), (500, 32)} × both scopes), ``--curve-reps`` replicates per cell (300 with
``--quick``). ``--curves`` runs only this grid.

Pair view (:func:`scorio_core.calibration.pair_coverages`): coverage of ``compare_pair``'s
interval for the difference of two models, 4 benchmarks ×
:data:`~scorio_core.calibration.PAIR_GRID` × both scopes, ``--pair-reps`` replicates per
cell; ``--pairs`` runs only this grid.

Real fields (:func:`scorio_core.calibration.resample_check`): the bundled real run
(``data/jhu_llm_temperature.parquet``: 9 API models × 100 questions, each model's share of
correct completions over its 100 sampled trials taken as the truth) and one of its models
at its 11 temperatures (near-ties, 10 trials each), resampled: ``M`` of the 100 questions
with replacement, ``N`` fresh trials, the leaderboard's Holm decisions; coverage, the least
covered model, false decisions and power, ``--real-reps`` replicates per cell (M ∈ {15, 30,
100} × N ∈ {1, 2, 4, 8, 32} × both scopes); and the reliability of ``p_best``
(:func:`scorio_core.calibration.resample_p_best`) on sub-fields of L ∈ {3, 5, 8} of the 9
models (:data:`REAL_PBEST_CELLS`, both scopes). ``--real`` runs only these fields.

README: ``python benchmarks/calibration.py --readme docs/calibration.md`` prints the README's
calibration summary (ranges per outcomes × benchmark × scope) from a saved run's coverage
tables, without simulating; ``tests/test_readme.py`` checks the README against it.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this tree's scorio_core, installed or not

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from scorio_core import calibration as cal  # noqa: E402
from scorio_core.estimands import ADJUSTMENTS, SCOPES  # noqa: E402
from scorio_core.parallel import Executor  # noqa: E402

#: (M, N) cells of the tie, rank and p_best studies; (scope, design) cases of the tie study.
TIE_CELLS = ((15, 8), (30, 4), (100, 2))
TIE_CASES = (
    ("questions", "permuted"), ("questions", "permuted-easy"), ("questions", "permuted-hard"),
    ("population", "logit"), ("population", "iid"), ("population", "iid-easy"),
    ("population", "iid-hard"),
)
RANK_CELLS = ((100, 8), (500, 4), (500, 32))
PBEST_CELLS = ((30, 8), (100, 4))
#: Skewed benchmarks of the p_best study (binary outcomes): mean shared difficulty (logit).
PBEST_SKEWED = {"easy": -2.5, "hard": 3.5}


def _study(name: str, kwargs: dict):
    """One field-study cell on a worker: ``scorio_core.calibration.<name>(**kwargs)``."""
    return getattr(cal, name)(**kwargs)


def _pct(x: float) -> str:
    return "n/i" if pd.isna(x) else f"{100 * x:.1f}"


def _cell(row: pd.Series, name: str, band: bool = False) -> str:
    """``coverage (width)``; the headline bold when outside its band."""
    cov, width = row[name], row[f"{name}_width"]
    if pd.isna(cov):
        return "n/i" if name == "headline" else "–"
    text = f"{100 * cov:.1f} ({width:.3f})"
    return f"**{text}**" if band and row["in_band"] is False else text


def coverage_tables(table: pd.DataFrame) -> None:
    for outcomes in ("binary", "categorical"):
        sub = table[table["outcomes"] == outcomes]
        print(f"\n### Coverage, {outcomes} outcomes: % (mean width)\n")
        head = ["benchmark", "M", "N"]
        for scope in SCOPES:
            head += [f"{scope}: headline", "Bayes@N", "plain t"]
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join(["---"] * 3 + ["---:"] * (len(head) - 3)) + "|")
        for (bench, M, N), g in sub.groupby(["benchmark", "M", "N"], sort=False):
            cells = [bench, str(M), str(N)]
            for scope in SCOPES:
                r = g[g["scope"] == scope].iloc[0]
                cells += [_cell(r, "headline", True), _cell(r, "bayes"), _cell(r, "plain_t")]
            print("| " + " | ".join(cells) + " |")


def band_summary(table: pd.DataFrame) -> None:
    ident = table[table["identified"]]
    print("\n### Headline in its band\n")
    print("| outcomes | scope | in band | cells | not identified |")
    print("|---|---|---:|---:|---:|")
    for (outcomes, scope), g in table.groupby(["outcomes", "scope"], sort=False):
        gi = g[g["identified"]]
        print(
            f"| {outcomes} | {scope} | {int(gi['in_band'].sum())} | {len(gi)} | "
            f"{int((~g['identified']).sum())} |"
        )
    out = ident[~ident["in_band"].astype(bool)]
    print(
        f"\nOut of band: {len(out)} of {len(ident)} identified cells "
        f"(a cell whose true coverage sits on the band's edge is outside half the time; "
        f"'edge ± 2 se' says whether the miss is within Monte-Carlo noise).\n"
    )
    if len(out):
        print("| benchmark | outcomes | scope | M | N | headline % | se | band | within 2 se |")
        print("|---|---|---|---:|---:|---:|---:|---|---|")
        for _, r in out.iterrows():
            near = (
                r["band_lo"] - 2 * r["headline_se"]
                <= r["headline"]
                <= r["band_hi"] + 2 * r["headline_se"]
            )
            print(
                f"| {r['benchmark']} | {r['outcomes']} | {r['scope']} | {r['M']} | {r['N']} "
                f"| {_pct(r['headline'])} | {100 * r['headline_se']:.1f} "
                f"| {100 * r['band_lo']:.0f}–{100 * r['band_hi']:.0f} | "
                f"{'yes' if near else 'no'} |"
            )


def tie_table(ties: list[dict]) -> None:
    reps = next(iter(ties[0].values())).reps if ties else 0
    se = 100 * (0.05 * 0.95 / max(reps, 1)) ** 0.5
    print(
        "\n### Exact ties (L = 8 models): family-wise false-decision rate %, "
        "target ≤ 5 for simultaneous and Holm\n"
    )
    print(f"Standard error of a 5 % rate on {reps} fields: {se:.2f} points. Designs: "
          + "; ".join(f"{d}: {cal.TIE_DESIGNS[d]}" for d in dict.fromkeys(
              d for _, d in TIE_CASES)) + ".\n")
    print("| scope | design | M | N | reps | " + " | ".join(ADJUSTMENTS) + " | per pair, none |")
    print("|---|---|---:|---:|---:|" + "---:|" * (len(ADJUSTMENTS) + 1))
    for res in ties:
        any_ = next(iter(res.values()))
        rates = " | ".join(_pct(res[a].fwer) for a in ADJUSTMENTS)
        print(
            f"| {any_.scope} | {any_.design} | {any_.M} | {any_.N} | {any_.reps} | {rates} "
            f"| {_pct(res['none'].per_pair)} |"
        )


def rank_table(ranks: list[dict]) -> None:
    print(
        "\n### Simultaneous rank intervals: 8 models, θ = (0.3 × 4, 0 × 4), shared "
        "difficulty; % of replicates with no false decision (target ≥ 95), power = % of "
        "between-group pairs decided\n"
    )
    print("| scope | M | N | reps | simultaneous | power | holm | power |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for res in ranks:
        s, h = res["simultaneous"], res["holm"]
        print(
            f"| {s.scope} | {s.M} | {s.N} | {s.reps} | {_pct(s.coverage)} | {_pct(s.power)} "
            f"| {_pct(h.coverage)} | {_pct(h.power)} |"
        )


def p_best_tables(results: list) -> None:
    print(
        "\n### p_best and rank-distribution reliability: 5 models, θ_i = τ z_i with "
        "τ ~ U(0, 0.5), shared difficulty, model × question interaction s.d. 1\n"
    )
    for r in results:
        outcomes = "categorical (weights 0, 0.5, 1)" if r.categorical else "binary"
        if r.difficulty:
            name = next((k for k, v in PBEST_SKEWED.items() if v == r.difficulty), "shifted")
            outcomes += (f", {name} benchmark (difficulty {r.difficulty:+.1f}: mean success "
                         f"{cal.p_best_success(r.difficulty):.2f} at θ = 0)")
        print(
            f"{r.scope} scope, {outcomes}, M = {r.M}, N = {r.N}, {r.reps} fields: "
            f"max |observed − predicted| = {r.max_deviation:.3f} (bins with ≥ {r.min_count}), "
            f"Brier {r.brier:.4f}; the could-be-first set (comparison with the best, 95 %) "
            "held the best model "
            f"{_pct(r.first_coverage)} % ± {_pct(r.first_se())} (mean size {r.first_size:.2f} of "
            f"{r.L}; the 95 % credible set of p_best {_pct(r.credible_coverage)} %, size "
            f"{r.credible_size:.2f})\n"
        )
        _reliability_rows(r.table, "p_best bin")
        print(
            f"\nRank distribution, same fields (every P(model i has rank r) against the true "
            f"rank): max |observed − predicted| = {r.rank_max_deviation:.3f}, Brier "
            f"{r.rank_brier:.4f}\n"
        )
        _reliability_rows(r.rank_table, "P(rank = r) bin")
        print()


def _reliability_rows(table: pd.DataFrame, label: str) -> None:
    """One reliability table (``calibration._reliability``) as Markdown."""
    print(f"| {label} | count | predicted | observed | se |")
    print("|---|---:|---:|---:|---:|")
    for _, b in table.iterrows():
        se = "—" if np.isnan(b["se"]) else f"{b['se']:.3f}"  # none or all came true: no s.e.
        print(
            f"| {b['bin']} | {b['count']} | {b['predicted']:.3f} | {b['observed']:.3f} "
            f"| {se} |"
        )


def pair_tables(results: list) -> None:
    """The Pair view's interval for the difference of two models (both scopes)."""
    print("\n## Pair view: interval of the mean difference (nominal 95 %)\n")
    print("Model a from the benchmark, model b on the same questions with logit p_b = "
          "logit p_a − 0.5 + 0.5 z (a real gap plus a model × question interaction); truth: "
          "the mean of p_a − p_b over the drawn questions (questions) or over the "
          "benchmark's population (population). Interval: `compare_pair`'s own. % (mean "
          "width); bold: outside 93–97 % (90–98 % at M = 15).\n")
    print("| benchmark | M | N | questions | population |")
    print("|---|---:|---:|---:|---:|")
    inside = total = 0
    for res in results:
        cells = []
        for scope in SCOPES:
            c = res[scope]
            if pd.isna(c.coverage):
                cells.append("n/i")
                continue
            ok = c.band[0] <= c.coverage <= c.band[1]
            inside, total = inside + ok, total + 1
            txt = f"{100 * c.coverage:.1f} ({c.width:.3f})"
            cells.append(txt if ok else f"**{txt}**")
        c = res[SCOPES[0]]
        print(f"| {c.benchmark} | {c.M} | {c.N} | " + " | ".join(cells) + " |")
    print(f"\nin band: {inside} of {total} cells")


#: (M, N) of the real-field check.
REAL_CELLS = [(M, N) for M in (15, 30, 100) for N in (1, 2, 4, 8, 32)]
#: (L, M, N) of the real-field p_best check (sub-fields of the 9 models).
REAL_PBEST_CELLS = [(L, M, N) for L in (3, 5, 8) for M in (15, 30, 100) for N in (4, 16)]
_JHU = Path(__file__).resolve().parents[1] / "data" / "jhu_llm_temperature.parquet"


def real_fields() -> dict[str, tuple[np.ndarray, tuple[str, ...]]]:
    """The real truths: ``name -> (p (L, Q), model names)`` from the bundled JHU run."""
    from scorio_core import io

    o = io.load(_JHU)
    t = io.load(_JHU, model_columns=["model", "temperature"])
    keep = [k for k, m in enumerate(t.models) if m.startswith("claude-3-opus")]
    return {
        "JHU, 9 models (100 trials each)": (o.R.mean(-1), o.models),
        "JHU, claude-3-opus at 11 temperatures (10 trials each)": (
            t.R[keep].mean(-1), tuple(t.models[k].split("@")[1] for k in keep)),
    }


def real_jobs(fields: dict, reps: int, seed: int) -> list:
    """One :func:`~scorio_core.calibration.resample_check` job per field × cell × scope,
    then one :func:`~scorio_core.calibration.resample_p_best` job per p_best cell × scope on
    the first field (the 9 models)."""
    out = []
    for p, models in fields.values():
        for M, N in REAL_CELLS:
            for scope in SCOPES:
                out.append(("resample_check", dict(p=p, M=M, N=N, scope=scope, models=models,
                                                   reps=reps, seed=seed)))
    p = next(iter(fields.values()))[0]
    for L, M, N in REAL_PBEST_CELLS:
        for scope in SCOPES:
            out.append(("resample_p_best", dict(p=p, M=M, N=N, L=L, scope=scope, reps=reps,
                                                seed=seed)))
    return out


def real_tables(results: list, names: list[str]) -> None:
    """Coverage and decisions on fields resampled from the bundled real run, then the
    reliability of p_best on its sub-fields."""
    per = len(REAL_CELLS) * len(SCOPES)
    results, p_best = results[: per * len(names)], results[per * len(names) :]
    print("\n## Real fields: the bundled run resampled (nominal 95 %, Holm)\n")
    print("Truth: each model's share of correct completions in the bundled run; a replicate "
          "draws M of its 100 questions with replacement and N fresh trials per model and "
          "question. Coverage % ± s.e. (bold: outside 93–97 %, 90–98 % at M = 15); the least "
          "covered model; mean width; false: % of replicates with a pair decided the wrong "
          "way round; power: % of the ordered pairs decided.\n")
    inside = total = 0
    for f, name in enumerate(names):
        print(f"\n### {name}\n")
        print("| scope | M | N | coverage % | least covered | width | false % | power % |")
        print("|---|---:|---:|---:|---|---:|---:|---:|")
        for r in sorted(results[f * per : (f + 1) * per], key=lambda r: (r.scope, r.M, r.N)):
            if not r.identified:
                print(f"| {r.scope} | {r.M} | {r.N} | n/i | | | | |")
                continue
            lo, hi = cal.target_band(r.M)
            ok = lo <= r.coverage <= hi
            inside, total = inside + ok, total + 1
            cov = f"{100 * r.coverage:.1f} ± {100 * r.coverage_se:.1f}"
            print(f"| {r.scope} | {r.M} | {r.N} | {cov if ok else f'**{cov}**'} | "
                  f"{r.worst_model} {100 * r.worst_coverage:.1f} | {r.width:.3f} | "
                  f"{100 * r.false_decisions:.1f} | {100 * r.power:.1f} |")
    print(f"\nin band: {inside} of {total} identified cells")
    if p_best:
        real_p_best_table(p_best, names[0])


def _bin(table: pd.DataFrame, k: int) -> str:
    """``predicted → observed (count)`` of reliability bin ``k``."""
    b = table.iloc[k]
    return "–" if not b["count"] else f"{b['predicted']:.2f} → {b['observed']:.2f} ({b['count']})"


def real_p_best_table(results: list, name: str) -> None:
    """Reliability of p_best on sub-fields of the real run, one row per cell."""
    print(f"\n### p_best on sub-fields of {name}\n")
    print("A replicate picks L of the models at random, M questions with replacement and N "
          "fresh trials; truly best: the highest truth in the scope. Per bin of predicted "
          "p_best: mean predicted → share truly best (count); max |observed − predicted| over "
          f"bins with ≥ {results[0].min_count} entries.\n")
    print("Could be first: share of replicates whose could-be-first set (comparison with the "
          "best, 95 %) held the truly best model, and its mean size; credible: the smallest "
          "set whose p_best adds up to 95 % (for comparison).\n")
    print("| scope | L | M | N | 0.4–0.6 | 0.6–0.8 | 0.8–1.0 | max dev | Brier | could be first "
          "(size) | credible (size) |")
    print("|---|---:|---:|---:|---|---|---|---:|---:|---|---|")
    for r in sorted(results, key=lambda r: (r.scope, r.L, r.M, r.N)):
        if not r.identified:
            print(f"| {r.scope} | {r.L} | {r.M} | {r.N} | n/i | | | | | | |")
            continue
        print(f"| {r.scope} | {r.L} | {r.M} | {r.N} | {_bin(r.table, 2)} | {_bin(r.table, 3)} | "
              f"{_bin(r.table, 4)} | {r.max_deviation:.3f} | {r.brier:.4f} | "
              f"{_pct(r.first_coverage)} ({r.first_size:.2f}) | {_pct(r.credible_coverage)} "
              f"({r.credible_size:.2f}) |")


def curve_tables(table: pd.DataFrame) -> None:
    """Coverage (%) of the curve intervals, one row per cell and k, both scopes side by side."""
    print("\n## Pass@k / Pass^k curve intervals (nominal 95 %, pointwise)\n")
    print("Estimands: questions = (1/M) Σ f_k(p_α) on the drawn questions; population = "
          "E[f_k(p)] of the benchmark. % (mean width); bold: outside 93–97 % (90–98 % at "
          "M = 15).\n")
    head = ["benchmark", "M", "N", "curve", "k", *SCOPES]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(["---"] * 5 + ["---:"] * len(SCOPES)) + "|")
    for (bench, M, N, curve, k), g in table.groupby(["benchmark", "M", "N", "curve", "k"],
                                                    sort=False):
        cells = [bench, str(M), str(N), "Pass@k" if curve == "pass" else "Pass^k", str(k)]
        for scope in SCOPES:
            r = g[g["scope"] == scope].iloc[0]
            text = "n/i" if not r["identified"] else f"{100 * r['coverage']:.1f} ({r['width']:.3f})"
            out = pd.notna(r["in_band"]) and not bool(r["in_band"])
            cells.append(f"**{text}**" if out else text)
        print("| " + " | ".join(cells) + " |")
    ident = table[table["identified"]]
    for scope in SCOPES:
        s = ident[ident["scope"] == scope]
        print(f"\n{scope}: {int(s['in_band'].sum())} of {len(s)} cells in band; coverage "
              f"{100 * s['coverage'].min():.1f}–{100 * s['coverage'].max():.1f} %, median "
              f"{100 * s['coverage'].median():.1f} %")


def _parse_cell(text: str):
    """``(coverage %, width)`` of one coverage-table entry such as ``**92.8 (0.141)**``;
    ``None`` for ``n/i`` and ``–``."""
    m = re.fullmatch(r"\**([\d.]+) \(([\d.]+)\)\**", text.strip())
    return (float(m.group(1)), float(m.group(2))) if m else None


def readme_table(doc: str) -> str:
    """The README's calibration summary from the coverage tables of a saved run
    (``docs/calibration.md``): per outcomes × benchmark × scope, the range over the M × N
    grid of the headline's, the papers' Bayes@N's and plain t's coverage and of the
    headline's width over plain t's (questions scope without its not-identified N = 1)."""
    rows, outcomes = {}, None
    for line in doc.splitlines():
        m = re.match(r"#+ Coverage, (\w+) outcomes", line)
        if m or line.startswith("#"):
            outcomes = m.group(1) if m else None
            continue
        f = [x.strip() for x in line.strip().strip("|").split("|")]
        if outcomes is None or not line.startswith("| ") or len(f) != 9 or f[0] == "benchmark":
            continue
        for scope, at in (("questions", 3), ("population", 6)):
            h, b, t = (_parse_cell(v) for v in f[at : at + 3])
            if h is not None:
                rows.setdefault((outcomes, f[0], scope), []).append((h[0], b[0], t[0],
                                                                      h[1] / t[1]))
    out = ["| outcomes | benchmark | scope | headline % | papers' Bayes@N % | plain t % | "
           "width vs plain t |", "|---|---|---|---:|---:|---:|---:|"]
    order = dict.fromkeys((o, b) for o, b, _ in rows)  # as the tables list them
    for (outcomes, bench), scope in ((k, s) for k in order for s in ("questions", "population")):
        h, b, t, r = zip(*rows[outcomes, bench, scope], strict=True)
        out.append(f"| {outcomes} | {bench} | {scope} | {min(h):.1f}–{max(h):.1f} | "
                   f"{min(b):.1f}–{max(b):.1f} | {min(t):.1f}–{max(t):.1f} | "
                   f"{min(r):.2f}–{max(r):.2f} |")
    return "\n".join(out) + "\n"


def _only(jobs: list, tables, reps: int, workers: int) -> int:
    """One field study alone (``--pairs``, ``--real``, ``--ties``, ``--p-best``): its cells
    on the executor, its tables, the elapsed time."""
    t0 = time.perf_counter()
    with Executor(workers=workers or None) as ex:
        tables(ex.map(_study, jobs))
    print(f"elapsed: {time.perf_counter() - t0:.0f} s ({reps} replicates per cell)")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=2000, help="replicates per coverage cell")
    ap.add_argument(
        "--field-reps", type=int, default=1000, help="replicates per rank / p_best cell"
    )
    ap.add_argument("--tie-reps", type=int, default=10_000,
                    help="fields per exact-tie cell (s.e. of a 5 %% rate: 0.22 points)")
    ap.add_argument("--ties", action="store_true", help="only the exact-tie study")
    ap.add_argument("--p-best", action="store_true",
                    help="only the p_best / rank-distribution reliability study")
    ap.add_argument("--workers", type=int, default=2, help="local Dask workers (0: here)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="300 / 150 replicates (smoke run)")
    ap.add_argument("--curve-reps", type=int, default=2000,
                    help="replicates per Pass@k curve cell")
    ap.add_argument("--curves", action="store_true", help="only the Pass@k curve grid")
    ap.add_argument("--pairs", action="store_true",
                    help="only the Pair view's difference interval grid")
    ap.add_argument("--pair-reps", type=int, default=1000,
                    help="replicates per Pair view cell")
    ap.add_argument("--real", action="store_true",
                    help="only the real fields (the bundled run resampled)")
    ap.add_argument("--real-reps", type=int, default=1000,
                    help="replicates per real-field cell")
    ap.add_argument("--readme", metavar="MD",
                    help="print the README summary table from a saved run (no simulation)")
    args = ap.parse_args(argv)
    if args.readme:
        print(readme_table(Path(args.readme).read_text(encoding="utf-8")), end="")
        return 0
    if args.quick:
        args.reps, args.field_reps, args.curve_reps, args.pair_reps = 300, 150, 300, 150
        args.real_reps, args.tie_reps = 150, 150
    cmd = "python benchmarks/calibration.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"command: {cmd.strip()}")
    print(
        f"replicates: {args.reps} per coverage cell, {args.field_reps} per field cell, "
        f"{args.tie_reps} per tie cell, {args.pair_reps} per pair cell, "
        f"{args.real_reps} per real-field cell; "
        f"seed {args.seed}; nominal 95 %; workers {args.workers}"
    )

    fr, seed = args.field_reps, args.seed
    pair_jobs = [("pair_coverages", dict(benchmark=b, M=M, N=N, reps=args.pair_reps, seed=seed))
                 for b in cal.BENCHMARKS for M, N in cal.PAIR_GRID]
    if args.pairs:
        return _only(pair_jobs, pair_tables, args.pair_reps, args.workers)
    if args.curves:
        t0 = time.perf_counter()
        with Executor(workers=args.workers or None) as ex:
            curves = cal.curve_calibration_table(args.curve_reps, seed=seed, executor=ex)
        curve_tables(curves)
        print(f"elapsed: {time.perf_counter() - t0:.0f} s ({args.curve_reps} replicates per cell)")
        return 0
    real = real_fields()  # the bundled run, read once
    real_names = list(real)
    real_jobs_ = real_jobs(real, args.real_reps, seed)
    if args.real:
        return _only(real_jobs_, lambda res: real_tables(res, real_names), args.real_reps,
                     args.workers)
    jobs = [("tie_errors", dict(M=M, N=N, scope=scope, design=design, reps=args.tie_reps,
                                seed=seed))
            for M, N in TIE_CELLS for scope, design in TIE_CASES]
    if args.ties:
        return _only(jobs, tie_table, args.tie_reps, args.workers)
    for M, N in RANK_CELLS:
        for scope in SCOPES:
            jobs.append(("rank_coverages", dict(M=M, N=N, scope=scope, reps=fr, seed=seed)))
    p_best_jobs = [("p_best_calibration", dict(M=M, N=N, scope=scope, reps=fr,
                                              categorical=cat, seed=seed))
                   for M, N in PBEST_CELLS for cat in (False, True) for scope in SCOPES]
    p_best_jobs += [("p_best_calibration", dict(M=M, N=N, scope=scope, reps=fr,
                                               difficulty=d, seed=seed))
                    for d in PBEST_SKEWED.values() for M, N in PBEST_CELLS for scope in SCOPES]
    if args.p_best:
        return _only(p_best_jobs, p_best_tables, fr, args.workers)
    jobs += p_best_jobs

    shown = {}

    def progress(frac: float, label: str) -> None:  # on stderr, every 10 %
        step = int(10 * frac)
        if shown.get(label) != step:
            shown[label] = step
            print(f"{label}: {10 * step} %", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    with Executor(workers=args.workers or None) as ex:
        table = cal.calibration_table(args.reps, seed=seed, executor=ex, progress=progress)
        t_grid = time.perf_counter() - t0
        fields = ex.map(_study, jobs, progress=progress, label="field studies")
        pairs = ex.map(_study, pair_jobs, progress=progress, label="pair view")
        real_res = ex.map(_study, real_jobs_, progress=progress, label="real fields")
        curves = cal.curve_calibration_table(args.curve_reps, seed=seed, executor=ex)
    elapsed = time.perf_counter() - t0
    nt, nr = len(TIE_CELLS) * len(TIE_CASES), len(RANK_CELLS) * len(SCOPES)

    print("\n## Calibration of the headline (nominal 95 %)")
    print(
        "\nBayes@N: the papers' interval μ ± 1.96 σ (uniform prior per question); plain t: "
        "mean ± t·s.e. (population: clustered by question, M − 1 d.o.f.; questions: "
        "unbiased within-question variances, M(N − 1) d.o.f.). n/i: not identified "
        "(questions scope at N = 1: the headline prints no number). Bold: headline outside "
        "93–97 % (90–98 % at M = 15)."
    )
    coverage_tables(table)
    band_summary(table)
    tie_table(fields[:nt])
    rank_table(fields[nt : nt + nr])
    p_best_tables(fields[nt + nr :])
    pair_tables(pairs)
    real_tables(real_res, real_names)
    curve_tables(curves)
    print(
        f"elapsed: {elapsed:.0f} s (coverage grid {t_grid:.0f} s, {len(table)} rows; "
        f"field studies {elapsed - t_grid:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
