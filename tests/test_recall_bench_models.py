"""The analysis benches that re-judge a kept replay (bench/recall_signature_rule.py,
recall_tier_policy.py, recall_long_queries.py) judge each recall by the model the bot picks for it
(Judgement.for_query: the semantic model with meaning, the short-query model for a first report's
two lines, else the lexical one), so their figures say what the bot would do."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bench import recall_by_project as by_project
from bench import recall_long_queries as long_queries
from bench import recall_signature_rule as signature_rule
from bench import recall_tier_policy as tier_policy
from bench.judgement_figures import calibration_error
from bot.recall.judgement import BELOW, STRONG, WEAK, Judgement

# three models that disagree on the same memory: the lexical one shows nothing, the short-query
# one posts a thread, the semantic one names it in a weak line
SILENT = Judgement({"head": 1.0}, -10.0, 0.5, 0.3, sure_from=None)
SHORT = Judgement({"head": 1.0}, 10.0, 0.5, 0.3, sure_from=None)
SEMANTIC = Judgement({"head": 1.0}, -0.5, 0.9, 0.3, sure_from=None)
JUDGEMENT = replace(SILENT, short=SHORT, short_until=4.0, semantic=SEMANTIC)


def shown(query_phrases: float, right: bool = True) -> signature_rule.Shown:
    return signature_rule.Shown(right, 0.1, {}, {"head": 1.0, "query_phrases": query_phrases})


def product(query_phrases: float, meaning: bool) -> list[str]:
    """The tiers the pipeline gives this one memory (bot/recall/pipeline.py's choice of model)."""
    model = JUDGEMENT.for_query(meaning, query_phrases)
    return model.tiers([model.probability({"head": 1.0, "query_phrases": query_phrases})], [0.1], [BELOW])


def test_each_bench_judges_a_first_report_by_the_short_query_model_as_the_bot_does() -> None:
    assert product(2.0, False) == [STRONG] and product(9.0, False) == [BELOW]  # the models do disagree
    for phrases, meaning in ((2.0, False), (9.0, False), (2.0, True)):
        expected = product(phrases, meaning)
        case = signature_rule.Case(1, None, meaning, [shown(phrases)], [shown(phrases, right=False)])
        keep = signature_rule.VARIANTS[next(iter(signature_rule.VARIANTS))]
        assert signature_rule.tiers(case, case.present, keep, JUDGEMENT) == expected
        policy_case = tier_policy.Case(1, "A", "org", meaning, case.present, case.absent)
        tier_policy.check_shipped([(policy_case, JUDGEMENT)])  # the bench's shipped policy is the product's
        figures = tier_policy.figures(next(iter(tier_policy.POLICIES)), [(policy_case, JUDGEMENT)])
        assert figures["first_strong"] == (expected == [STRONG]) and figures["first_shown"] == (expected != [BELOW])
        candidate = long_queries.Candidate({"head": 1.0, "query_phrases": phrases}, 0.1, BELOW, BELOW, True)
        assert long_queries.ByLength(JUDGEMENT).tiers([candidate], 10, meaning) == expected


def test_the_benches_name_the_weak_line_by_the_weak_model_as_the_bot_does() -> None:
    # the first model alone shows nothing; its weak model (Judgement.weak) names the memory in a weak line
    line = Judgement({"head": 1.0}, 10.0, 1.0, 0.3, sure_from=None)
    model = replace(Judgement({"head": 1.0}, -10.0, 0.5, 0.3, sure_from=None), weak=line)
    bot = model.tiers([model.probability({"head": 1.0})], [0.1], [BELOW], [line.probability({"head": 1.0})])
    assert bot == [WEAK] and model.tiers([model.probability({"head": 1.0})], [0.1], [BELOW]) == [BELOW]
    case = signature_rule.Case(1, None, False, [shown(9.0)], [shown(9.0, right=False)])
    keep = signature_rule.VARIANTS[next(iter(signature_rule.VARIANTS))]
    assert signature_rule.tiers(case, case.present, keep, model) == bot
    kept = by_project.Case(1, "P", False, case.present, case.absent, ((WEAK,), (WEAK,)))
    by_project.check_shipped(model, [kept])  # exits when the bench judges otherwise than the product
    assert by_project.figures(model, [kept], None)["shown_n"] == 1


def test_the_jira_bench_says_a_right_memory_fourth_under_a_weak_line_is_hidden_by_the_cap() -> None:
    # the weak line names the first three; a right memory ranked fourth is not shown, and the bench says where
    line = Judgement({"head": 1.0}, 10.0, 1.0, 0.3, sure_from=None)
    model = replace(Judgement({"head": 1.0}, -10.0, 0.5, 0.3, sure_from=None), weak=line)
    present = [shown(9.0, right=False)] * 3 + [shown(9.0)]
    kept = by_project.Case(4, "P", False, present, present[:3], ((WEAK,) * 3 + (BELOW,), (WEAK,) * 3))
    by_project.check_shipped(model, [kept])
    found = by_project.where(model, [kept])
    assert found["right_in_first_five"] == 1 and found["hidden"] == 1
    assert list(found["hidden_by_place"]) == ["ranks 4-5 under a weak line (the cap), long, half to all of the line"]
    assert found["removed_answers"] == {"long: line": 1}


def test_the_tier_policy_bench_names_the_weak_line_by_the_weak_model_as_the_bot_does() -> None:
    # the first model alone shows nothing; its weak model (Judgement.weak) names the memory in a weak line
    line = Judgement({"head": 1.0}, 10.0, 1.0, 0.3, sure_from=None)
    model = replace(Judgement({"head": 1.0}, -10.0, 0.5, 0.3, sure_from=None), weak=line)
    bot = model.tiers([model.probability({"head": 1.0})], [0.1], [BELOW], [line.probability({"head": 1.0})])
    assert bot == [WEAK]
    case = tier_policy.Case(1, "A", "org", False, [shown(9.0)], [shown(9.0, right=False)])
    tier_policy.check_shipped([(case, model)])  # exits when the bench's shipped policy judges otherwise
    for name in tier_policy.POLICIES:  # every policy's weak line is the weak model's (its names too)
        assert tier_policy.policy_tiers(name, model, case.present) == bot, name
    figures = tier_policy.figures(next(iter(tier_policy.POLICIES)), [(case, model)])
    assert figures["first_shown"] == 1.0 and figures["first_strong"] == 0.0 and figures["absent_shown"] == 1.0
    # the tier curve (what `replay --target-absent` prints) reads the weak model's probabilities too
    curve = tier_policy.tier_curve_of([case], model)
    assert [p["weak_right_shown"] for p in curve] == [1.0] * len(curve)
    alone = tier_policy.tier_curve_of([case], replace(model, weak=None))
    assert [p["weak_right_shown"] for p in alone] == [0.0] * len(curve)


def test_the_tier_policy_bench_fits_a_fold_with_the_weak_models_the_shipped_judgement_has() -> None:
    # a fold's fit (fitted_as_shipped) judges as the product does: with a weak model where the shipped one has one
    def case(org: str, n: int) -> tier_policy.Case:
        def one(right: bool, head: float) -> signature_rule.Shown:
            return signature_rule.Shown(right, 0.1, {}, {"head": head, "head_rare": head / 2, "query_phrases": 9.0})

        return tier_policy.Case(1, "A", org, False, [one(True, 2.0 + 0.3 * n), one(False, 0.4 * n)],
                                [one(False, 0.4 * n)])  # fmt: skip

    cases = [case(org, n) for org in "abcdef" for n in range(4)]
    shipped = Judgement({"head": 1.0}, 0.0, 0.5, 0.3, sure_from=None)
    with_weak = replace(shipped, weak=Judgement({"head_rare": 1.0}, 0.0, 1.0, 0.3, sure_from=None))
    assert tier_policy.fitted_as_shipped(cases, "A", shipped).weak is None
    fitted = tier_policy.fitted_as_shipped(cases, "A", with_weak)
    assert fitted.weak is not None and list(fitted.weak.coefficients) == ["head_rare"]
    assert list(fitted.coefficients) == ["head"]


def test_the_long_queries_thresholds_let_their_rates_share_of_target_absent_recalls_through() -> None:
    # read as the first reports' are (fit_recall_judgement.read_thresholds): each organisation's target-absent
    # recall judged by the model fitted on the others, its best wrong candidate spread from cold to hot; the right
    # memories carry more evidence on the whole, not always (a model that separates them says 0 for every wrong one)
    pytest.importorskip("numpy")

    def case(org: int, head: float, right_head: float) -> long_queries.Case:
        right = long_queries.Candidate({"head": right_head}, 0.1, BELOW, BELOW, True)
        wrong = long_queries.Candidate({"head": head}, 0.1, BELOW, BELOW, False)
        return long_queries.Case("A", f"org{org}", long_queries.LONG_FROM, 1, [right, wrong], [wrong])

    cases = [case(i, -1.0 + 2.0 * i / 39, 2.0 * (i * 7 % 40) / 39) for i in range(40)]
    model = long_queries.fit_long(cases, ("head",))
    found = [model.probability(c.absent[0].x) for c in cases]
    posted = sum(p >= model.strong_from for p in found) / len(cases)
    shown = sum(p >= model.weak_from for p in found) / len(cases)
    strong_rate, shown_rate = long_queries.LONG_RATES
    assert strong_rate - 2 / len(cases) <= posted <= strong_rate + 1 / len(cases)
    assert shown_rate - 2 / len(cases) <= shown <= shown_rate + 1 / len(cases) and model.weak_from < model.strong_from


def test_calibration_error_is_how_far_the_probability_stands_from_how_often_it_is_right() -> None:
    honest = [(0.25, 1), *[(0.25, 0)] * 3, *[(0.75, 1)] * 3, (0.75, 0)]  # says 1 in 4, 3 in 4: so it is
    bold = [(0.95, 1), (0.95, 0)] * 5  # says 0.95 where half are right
    assert calibration_error(honest) == 0.0 and abs(calibration_error(bold) - 0.45) < 1e-9
    assert abs(calibration_error(honest + bold) - 0.45 * 10 / 18) < 1e-9  # each bin weighed by its share
    # the signature bench reads its shown memories the same way (present: the right one and a wrong one; absent:
    # a wrong one), each probability the model's own
    model = Judgement({"head": 1.0}, 0.0, 0.9, 0.5, sure_from=None)

    def shown(head: float, right: bool) -> signature_rule.Shown:
        return signature_rule.Shown(right, 0.1, {}, {"head": head, "query_phrases": 9.0})

    cases = [signature_rule.Case(1, None, False, [shown(2.0, True), shown(-1.0, False)], [shown(0.5, False)])] * 3
    p = [model.probability({"head": h}) for h in (2.0, -1.0, 0.5)]
    assert signature_rule.ece(cases, model) == round(calibration_error([(p[0], 1), (p[1], 0), (p[2], 0)]), 4) > 0


def test_a_kept_replay_is_read_back_as_it_was_kept_not_replayed_again(tmp_path) -> None:  # noqa: ANN001
    import pickle

    cache = tmp_path / "kept.pkl"
    kept = [signature_rule.Case(1, None, False, [shown(2.0)], [])]
    cache.write_bytes(pickle.dumps(kept))
    # no corpus at all: a replay would fail; the signature and by-project benches read the cache through one routine
    assert signature_rule.replay_kept(tmp_path / "no-corpus", cache, signature_rule.packed) == kept
