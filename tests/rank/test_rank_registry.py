"""The registry holds exactly the 72 identifiers of 002 App. I.2 (plus marked extras),
and every method honours the contract on the bundled data and degenerate inputs."""

from __future__ import annotations

import os

import numpy as np
import pytest
from _cases import degenerate_cases

from scorio_core import Outcomes, ValidationError, io, rank
from scorio_core.rank import METHODS

APP_I2 = """
avg pass_at_k_2 pass_hat_k_2 mg_pass_at_k_2 bayes bayes_greedy bayes_ci inverse_difficulty
elo_tie_skip elo_tie_draw elo_tie_correct_draw_only glicko_tie_skip glicko_tie_draw
glicko_tie_correct_draw_only trueskill
bradley_terry bradley_terry_map bradley_terry_davidson bradley_terry_davidson_map rao_kupper
rao_kupper_map thompson bayesian_mcmc plackett_luce plackett_luce_map bradley_terry_luce
bradley_terry_luce_map
borda copeland win_rate minimax_variant_margin_tie_ignore minimax_variant_margin_tie_half
minimax_variant_winning_votes_tie_ignore minimax_variant_winning_votes_tie_half
schulze_tie_ignore schulze_tie_half ranked_pairs_strength_margin_tie_ignore
ranked_pairs_strength_margin_tie_half ranked_pairs_strength_winning_votes_tie_ignore
ranked_pairs_strength_winning_votes_tie_half kemeny_young_tie_ignore kemeny_young_tie_half
nanson_rank_ties_average nanson_rank_ties_max baldwin_rank_ties_average baldwin_rank_ties_max
majority_judgment
rasch rasch_map rasch_2pl rasch_2pl_map rasch_3pl rasch_3pl_map rasch_mml rasch_mml_credible
dynamic_irt_linear dynamic_irt_growth
pagerank spectral alpharank nash_vs_equilibrium nash_advantage_vs_equilibrium
rank_centrality_tie_ignore rank_centrality_tie_half serial_rank_prob_diff serial_rank_sign
hodge_rank_binary_total hodge_rank_binary_decisive hodge_rank_binary_uniform
hodge_rank_log_odds_total hodge_rank_log_odds_decisive hodge_rank_log_odds_uniform
""".split()


def test_exactly_the_72_paper_ids_plus_marked_extras():
    assert len(APP_I2) == len(set(APP_I2)) == 72
    paper = {m for m, v in METHODS.items() if not v.extra}
    assert paper == set(APP_I2)
    assert all(METHODS[m].extra for m in set(METHODS) - set(APP_I2))


@pytest.mark.parametrize("case", list(degenerate_cases()))
def test_every_method_is_finite_and_tie_respecting_on_degenerate_inputs(case):
    R, all_tied = degenerate_cases()[case]
    R = R if R.ndim == 3 else R[:, :, None]
    R0 = np.ones(R.shape[:2] + (1,), dtype=int)
    for mid, m in METHODS.items():
        if R.shape[2] < m.min_trials:
            continue
        ranks, scores = m(R, R0)
        assert ranks.shape == (R.shape[0],) and np.all(np.isfinite(scores)), mid
        assert ranks.min() == 1, mid
        if all_tied:
            # indistinguishable models must tie (seeded samplers may break ties by noise)
            assert m.stochastic or np.all(ranks == 1), (mid, ranks)


@pytest.fixture(scope="module")
def reasoning(data_dir):
    return io.load(data_dir / "reasoning_synthetic.npz")


#: Single-trial slices checked per benchmark. All 80 x 5 x 77 methods take ~4 minutes on
#: 2 cores, so the default suite samples three; SCORIO_FULL_SWEEP=1 checks every slice.
SLICES = range(80) if os.environ.get("SCORIO_FULL_SWEEP") else (0, 41, 79)


@pytest.mark.parametrize("bench", ["combined", "AIME'24", "AIME'25", "HMMT'25", "BrUMO'25"])
def test_every_method_is_finite_on_bundled_data_full_and_single_trial(reasoning, bench):
    d = reasoning.select(bench)
    slices = [d.R] + [d.R[:, :, n : n + 1] for n in SLICES]
    for R in slices:
        for mid, m in METHODS.items():
            if R.shape[2] < m.min_trials:
                continue
            ranks, scores = m(R, d.R0)
            assert np.all(np.isfinite(scores)), (bench, R.shape, mid)
            assert sorted(ranks.tolist())[0] == 1, mid


def _rotations(P: np.ndarray, L: int, shift: int) -> np.ndarray:
    """Model l solves question j iff model 0 solves question j - l·shift (cyclically)."""
    return np.stack([np.roll(P, shift * i, axis=0) for i in range(L)])


def symmetric_cases() -> dict[str, tuple[np.ndarray, list[int]]]:
    """name -> (R, models that a symmetry of R exchanges, which must therefore tie).

    Rotations: relabelling the questions maps each model's outcomes onto the next
    model's, so any method that treats questions as exchangeable must tie them all.
    Twins: two identical models among distinct ones.
    """
    rng = np.random.default_rng(7)
    out = {}
    for L, shift, N in [(3, 1, 1), (3, 2, 3), (4, 3, 5), (3, 4, 8), (5, 2, 4), (2, 3, 2)]:
        P = rng.integers(0, 2, (L * shift, N))
        out[f"rotation_L{L}_M{L * shift}_N{N}"] = (_rotations(P, L, shift), list(range(L)))
    out["latin_3x3"] = (_rotations(np.array([[1, 1], [1, 0], [0, 0]]), 3, 1), [0, 1, 2])
    base = rng.integers(0, 2, (3, 8, 5))
    out["twins"] = (np.concatenate([base[:1], base]), [0, 1])
    return out


@pytest.mark.parametrize("case", list(symmetric_cases()))
def test_symmetric_models_tie_in_every_method_whose_math_implies_it(case):
    # Sequential ratings read questions in order (a rotation is not a symmetry of the
    # match stream) and seeded samplers may split ties by noise; every other method is
    # invariant to relabelling questions and models, so exchanged models must tie.
    # Issue 14: rasch_3pl / rasch_3pl_map ranked three cyclic models [3, 2, 1].
    R, tied = symmetric_cases()[case]
    R0 = np.ones(R.shape[:2] + (1,), dtype=int)
    for mid, m in METHODS.items():
        if R.shape[2] < m.min_trials or m.stochastic:
            continue
        if m.family == "sequential" and case != "twins":
            continue
        ranks, scores = m(R, R0)
        assert len(set(ranks[tied].tolist())) == 1, (mid, ranks.tolist(), scores.tolist())


@pytest.fixture(scope="module")
def loaded():
    """Loaded data (an Outcomes, as sc.load gives) with greedy outcomes R0."""
    rng = np.random.default_rng(11)
    p = np.array([0.8, 0.6, 0.5, 0.3])[:, None, None]
    R = (rng.random((4, 12, 8)) < p).astype(int)  # N = 8: every Pass@k is defined
    R0 = (rng.random((4, 12, 1)) < p).astype(int)
    return Outcomes(R, R0=R0, models=["a", "b", "c", "d"])


@pytest.mark.parametrize("mid", list(METHODS))
def test_every_method_ranks_loaded_data_as_its_arrays(mid, loaded):
    # sc.rank.bradley_terry(data) failed with "got an object array" on an Outcomes
    m = METHODS[mid]
    ranks, scores = m(loaded)  # the method's R0, when it needs one, is the data's
    want_ranks, want_scores = m(loaded.R, loaded.R0 if m.needs_r0 else None)
    assert ranks.tolist() == want_ranks.tolist()
    np.testing.assert_allclose(scores, want_scores, rtol=1e-12, atol=1e-12)
    if not m.needs_r0:  # the public function too (what sc.rank.<name>(data) calls)
        public = m.func(loaded, return_scores=True, **m.params)
        assert public[0].tolist() == want_ranks.tolist()


def test_loaded_data_bring_their_weights_and_categorical_data_are_refused_by_binary_methods():
    rng = np.random.default_rng(3)
    R = rng.integers(0, 3, (3, 10, 4))
    graded = Outcomes(R, weights=[0, 0.5, 1], category_names=["wrong", "partial", "right"])
    # Bayes@N weighs categories: the data's weights, unless others are given
    assert np.allclose(rank.bayes(graded, return_scores=True)[1],
                       rank.bayes(R, w=[0, 0.5, 1], return_scores=True)[1])
    assert np.allclose(rank.bayes(graded, [0, 1, 1], return_scores=True)[1],
                       rank.bayes(R, w=[0, 1, 1], return_scores=True)[1])
    # a binary-only method would read 'partial' as a category it does not know
    for f in (rank.bradley_terry, rank.avg, METHODS["borda"]):
        with pytest.raises(ValidationError, match=r"ranks binary outcomes .* 3 categories "
                           r"weighted wrong=0, partial=0\.5, right=1\. Rank it by these "
                           r"weights with rank\.bayes\(data\)"):
            f(graded)
    # categories declared but only 0/1 present: still not wrong/correct, still refused
    declared = Outcomes(R.clip(0, 1), weights=[0, 0.5, 1], category_names=["w", "p", "r"])
    with pytest.raises(ValidationError, match="ranks binary outcomes"):
        rank.avg(declared)
    # so are binary weights that do not put correct above wrong
    with pytest.raises(ValidationError, match="weighted wrong=1, correct=0"):
        rank.avg(Outcomes(R.clip(0, 1), weights=[1, 0]))
    # a method that needs R0 says when the data have none
    with pytest.raises(ValidationError, match="needs prior outcomes R0 .* 'dataset' has none"):
        METHODS["bayes_greedy"](Outcomes(R.clip(0, 1)))



def test_binary_data_whose_weights_do_not_rank_correct_first_are_told_a_fix_that_ranks():
    """Binary data weighted wrong=1, correct=0 (a table loaded with ``weights=[1, 0]``) or
    alike were refused with "load them again with each trial counted correct when its outcome
    is wrong, every other outcome wrong: correct=['wrong']" -- the category ranked first by
    weight, here the loader's name for outcome 0. Binary outcomes mean 0 wrong, 1 correct: the
    setting at fault is the weights, so the refusal names the weights of 0/1 outcomes and the
    call on the data at hand, and both rank the very data refused as their 0/1 outcomes rank.
    Categories named by the user keep the option that counts the one weighted first correct
    (``pass``, weighted 1 above ``fail``); names weighted alike get category 1's."""
    import re

    from scorio_core._validation import said_of
    from scorio_core.cli._common import cli_text

    rng = np.random.default_rng(4)
    R = (rng.random((3, 12, 4)) < np.array([0.8, 0.5, 0.3])[:, None, None]).astype(int)
    want = rank.borda(R)
    assert len(set(want.tolist())) == 3
    csv = "model,question,trial,outcome\n" + "".join(
        f"{m},q{q},{t},{R[i, q, t]}\n" for i, m in enumerate("abc") for q in range(12)
        for t in range(4))
    for w in ([1, 0], [0.5, 0.5], [0.2, 0.2]):
        loaded = io.load(csv.encode(), filename="runs.csv", weights=w)
        assert loaded.category_names == ("wrong", "correct")
        for data in (loaded, Outcomes(R, weights=w, models=list("abc"))):
            with pytest.raises(ValidationError) as info:
                rank.borda(data)
            said = str(info.value)
            assert "when its outcome is wrong" not in said and "correct=['wrong']" not in said
            # the weights of 0/1 outcomes, as each surface names the setting
            assert "(wrong 0, correct 1) to run rank.borda: weights=[0, 1]; " in said, said
            cli = cli_text(said_of(info.value))
            assert "(wrong 0, correct 1) to run rank.borda: --weights 0,1." in cli, cli
            assert "with_weights" not in cli and "weights=" not in cli
            # ... which ranks these data: the call on the data at hand, and the load again
            (call,) = re.findall(r"rank\.borda\(data\.with_weights\(\[0, 1\]\)\)", said)
            ranks = eval(call, {"rank": rank, "data": data})  # noqa: S307 -- its own text
            assert ranks.tolist() == want.tolist()
        again = io.load(csv.encode(), filename="runs.csv", weights=[0, 1])
        assert rank.borda(again).tolist() == want.tolist()
    # names of the user's own that the weights agree with: count the first-weighted correct
    named = Outcomes(1 - R, weights=[1, 0], category_names=["pass", "fail"])
    with pytest.raises(ValidationError) as info:
        rank.borda(named)
    (call,) = re.findall(r"rank\.borda\(data\.binarized\(correct=\['pass'\]\)\)",
                         str(info.value))
    assert eval(call, {"rank": rank, "data": named}).tolist() == want.tolist()  # noqa: S307
    # names weighted alike: nothing says which is correct but the codes (1 correct)
    alike = Outcomes(R, weights=[0.5, 0.5], category_names=["no", "yes"])
    with pytest.raises(ValidationError) as info:
        rank.borda(alike)
    said = str(info.value)
    assert "correct=['no']" not in said, said
    (call,) = re.findall(r"rank\.borda\(data\.binarized\(correct=\['yes'\]\)\)", said)
    assert eval(call, {"rank": rank, "data": alike}).tolist() == want.tolist()  # noqa: S307

def test_the_rankers_keep_reading_a_2d_array_as_models_by_questions():
    # SPEC §5: (L, M) is promoted to N = 1 (the analyses refuse it; the rankers do not)
    A = np.array([[1, 1, 0, 1], [0, 0, 1, 0], [1, 0, 0, 0]])
    for mid in ("avg", "bradley_terry", "borda"):
        assert METHODS[mid](A)[0].tolist() == METHODS[mid](A[:, :, None])[0].tolist()


def test_a_binary_only_ranker_names_the_option_that_runs_it_and_it_runs():
    """The refusal of categorical data said "map the categories to wrong/correct with a
    rubric first", which names nothing to call. Loaded data (Outcomes) get the loader's option
    tried on them and the call on the data at hand; an array gets the expression that makes
    it binary -- and each named step ranks the very data refused."""
    import re

    rng = np.random.default_rng(3)
    R = rng.integers(0, 3, (3, 10, 4))
    graded = Outcomes(R, weights=[0, 0.5, 1], category_names=["wrong", "partial", "right"])
    with pytest.raises(ValidationError) as info:
        rank.bradley_terry(graded)
    said = str(info.value)  # a notebook's traceback: Python's keywords only
    assert "correct=['right']; correct_from=0.5 counts partial correct too" in said
    assert "--correct" not in said and "in the app" not in said
    (call,) = re.findall(r"rank\.bradley_terry\(data\.binarized\([^)]*\)\)", said)
    ranks = eval(call, {"rank": rank, "data": graded})  # noqa: S307 -- the refusal's own text
    want = rank.bradley_terry((R == 2).astype(int))
    assert ranks.tolist() == want.tolist()
    assert rank.bradley_terry(graded.binarized(correct_from=0.5)).shape == (3,)
    # an array: the expressions that make it binary, each accepted by the same ranker
    with pytest.raises(ValidationError) as info:
        rank.avg(R)
    steps = re.findall(r"\(R [=>]= \d+\)\.astype\(int\)|rank\.bayes\(R, w=\[[^]]*\]\)",
                       str(info.value))
    assert steps == ["rank.bayes(R, w=[0, 0.5, 1])", "(R == 2).astype(int)",
                     "(R >= 1).astype(int)"]
    for step in steps:
        out = eval(step, {"rank": rank, "R": R})  # noqa: S307
        assert (rank.avg(out) if out.ndim == 3 else out).shape == (3,)


def test_an_empirical_prior_of_categories_names_the_binary_r0_that_runs():
    from scorio_core.rank import irt
    from scorio_core.rank.priors import EmpiricalPrior

    R0 = np.random.default_rng(0).integers(0, 3, (3, 10))
    with pytest.raises(ValidationError, match=r"categories up to 2\. Make R0 binary first: "
                       r"\(R0 == 2\)\.astype\(int\)") as info:
        EmpiricalPrior(R0)
    assert "(R0 >= 1).astype(int)" in str(info.value)
    R = np.random.default_rng(1).integers(0, 2, (3, 10, 2))
    for fixed in ((R0 == 2).astype(int), (R0 >= 1).astype(int)):
        assert irt.rasch_map(R, prior=EmpiricalPrior(fixed)).shape == (3,)
    with pytest.raises(ValidationError) as info:  # not categories: no expression offered
        EmpiricalPrior(np.full((3, 10), 0.5))
    assert "astype" not in str(info.value)
