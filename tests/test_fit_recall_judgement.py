"""Refitting the recall judgement (bench/fit_recall_judgement.py), as a team does on its own
history: the thresholds come from cases the model was not fitted on and land inside a gap between
a small fold's false matches rather than on either side of it; a feature's unit does not change
the fit."""

from __future__ import annotations

import math
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench import fit_recall_judgement as fitting
from bench import logistic_fit
from bench.judgement_figures import evaluate_judged, tiers_of
from bench.judgement_replays import with_absent
from bench.logistic_fit import fit_logistic
from bot.models import RecallQuery
from bot.recall.judgement import Judgement
from bot.replay_report import CaseResult, ReplayCase


def absent(head: float, relevance: float = 0.1) -> SimpleNamespace:
    """A target-absent recall whose best wrong candidate carries this much evidence."""
    wrong = SimpleNamespace(evidence={"head": head}, relevance=relevance, score_components={})
    return SimpleNamespace(absent_matches=(wrong,))


def test_strong_and_weak_are_read_where_that_share_of_false_matches_would_post_or_show() -> None:
    model = Judgement({"head": 1.0}, 0.0, 1.0, 1.0)  # probability = sigmoid(head)
    heads = [-3.0 + 0.06 * i for i in range(100)]
    strong, weak = fitting.thresholds([(absent(h), model) for h in heads])
    posted = sum(model.probability({"head": h}) >= strong for h in heads) / len(heads)
    shown = sum(model.probability({"head": h}) >= weak for h in heads) / len(heads)
    assert posted <= fitting.STRONG_ABSENT < posted + 1 / len(heads)
    assert shown <= fitting.SHOWN_ABSENT < shown + 1 / len(heads) and weak < strong


def test_a_gap_among_a_small_folds_false_matches_puts_the_threshold_inside_it_not_past_it() -> None:
    model = Judgement({"head": 1.0}, 0.0, 1.0, 1.0)
    # 17 cold false matches, 3 hot ones far above: at 15 % the threshold falls between the two groups
    heads = [-2.0] * 17 + [3.0] * 3
    strong, _ = fitting.thresholds([(absent(h), model) for h in heads])
    assert model.probability({"head": -2.0}) < strong < model.probability({"head": 3.0})
    # a false match at half the query's evidence posts whatever its probability (the sure rule)
    sure = [(absent(-2.0, relevance=0.6), Judgement({"head": 1.0}, 0.0, 1.0, 1.0, sure_from=0.5))] * 20
    assert fitting.thresholds(sure)[0] == 0.99


def test_the_units_a_feature_is_measured_in_do_not_change_the_fitted_probabilities() -> None:
    # the penalty is on standardised features: the same evidence x 100 is the same model
    rows = [([1.0, 0.2], 1), ([0.9, 0.1], 1), ([0.2, 0.9], 0), ([0.1, 0.3], 0), ([0.3, 0.8], 0), ([0.8, 0.9], 0)]
    w1, b1 = fit_logistic(rows, l2=1.0)
    w2, b2 = fit_logistic([([a * 100, b], y) for (a, b), y in rows], l2=1.0)
    assert w1[0] > 0  # the feature that separates the matches weighs for them
    for (a, b), _ in rows:
        assert math.isclose(w1[0] * a + w1[1] * b + b1, w2[0] * a * 100 + w2[1] * b + b2, abs_tol=1e-6)


def test_the_fit_with_numpy_gives_the_pure_python_fit_coefficients(monkeypatch: pytest.MonkeyPatch) -> None:
    # the bench extra's numpy makes the nested screen fast; a screen's figures must not depend on it
    pytest.importorskip("numpy")
    rng = random.Random(7)
    rows = []
    for _ in range(600):
        y = int(rng.random() < 0.2)
        rows.append(([rng.gauss(0.5 * y, 1.0), rng.gauss(2.0 - y, 0.5) * 40, 3.0, float(rng.random() < 0.1)], y))
    # and a constant that is no round number (its mean off by float noise) weighs nothing either way
    noisy = [([*x, 0.3], y) for x, y in rows]
    fast, fast_noisy = fit_logistic(rows, l2=1.0), fit_logistic(noisy, l2=1.0)
    monkeypatch.setattr(logistic_fit, "np", None)
    slow, slow_noisy = fit_logistic(rows, l2=1.0), fit_logistic(noisy, l2=1.0)
    assert fast[0][0] > 0 and fast[0][2] == 0.0  # evidence for the match weighs for it; a constant weighs nothing
    assert fast_noisy[0][4] == slow_noisy[0][4] == 0.0
    for a, b in zip([*fast[0], fast[1]], [*slow[0], slow[1]], strict=True):
        assert math.isclose(a, b, abs_tol=1e-9)
    for a, b in zip([*fast_noisy[0][:4], fast_noisy[1]], [*fast[0], fast[1]], strict=True):
        assert math.isclose(a, b, abs_tol=1e-9)


def recalled(org: str, number: int, standout: float, wrong_at: float) -> SimpleNamespace:
    """A first report of `org` whose right memory ranks first at this standout, a wrong one behind."""

    def match(incident_id: str, value: float) -> SimpleNamespace:
        return SimpleNamespace(memory=SimpleNamespace(incident_id=incident_id), evidence={"head_standout": value},
                               relevance=0.1, score_components={})  # fmt: skip

    case = SimpleNamespace(id=f"{org}-{number}", flags={"org": org}, relevant=frozenset({f"{org}-{number}"}))
    wrong = match(f"{org}-other-{number}", wrong_at)
    right = match(f"{org}-{number}", standout)
    return SimpleNamespace(case=case, rank=1, matches=(right, wrong), absent_matches=(wrong,))


def test_the_nested_screen_judges_each_organisation_by_a_procedure_that_never_saw_it() -> None:
    # five organisations whose right memories stand out of their wrong ones, one whose do not
    results = [recalled(org, n, 3.0 + 0.1 * n, 0.2 * (n % 3)) for org in "abcde" for n in range(4)]
    results += [recalled("odd", n, 0.0, 0.0) for n in range(4)]
    judged = fitting.nested(results, ("head_standout",), None, 1.0)
    assert sorted(r.case.id for r, _ in judged) == sorted(r.case.id for r in results)
    assert all(model.fitted_on["cases"] == len(results) - 4 for _, model in judged)  # never its own organisation
    # the odd organisation is judged by what the other five teach: its right memories are not shown
    odd = [(r, m) for r, m in judged if r.case.flags["org"] == "odd"]
    assert evaluate_judged(odd)["first_shown"] == 0.0
    assert evaluate_judged([(r, m) for r, m in judged if r.case.flags["org"] != "odd"])["first_strong"] == 1.0


def test_a_team_that_allows_more_false_threads_gets_thresholds_that_let_that_many_through() -> None:
    # --budgets / --short-budgets: the shares of target-absent recalls a threshold may post or show
    results = [recalled(org, n, 3.0 + 0.1 * n, 0.5 * n) for org in "abcdef" for n in range(5)]
    shipped = fitting.fit(results, "team", ("head_standout",), None, 1.0)
    looser = fitting.fit(results, "team", ("head_standout",), None, 1.0, budgets=((0.5, 0.7), fitting.BUDGETS[1]))
    assert shipped.fitted_on["budgets"] == [fitting.STRONG_ABSENT, fitting.SHOWN_ABSENT]
    assert looser.fitted_on["budgets"] == [0.5, 0.7] and looser.coefficients == shipped.coefficients
    assert looser.strong_from < shipped.strong_from and looser.weak_from < shipped.weak_from
    posted = sum(looser.probability(r.absent_matches[0].evidence) >= looser.strong_from for r in results)
    assert posted > fitting.STRONG_ABSENT * len(results)
    # the short-query model keeps its own budgets unless told otherwise
    both = fitting.fit(results, "team", ("head_standout",), None, 1.0, ("head_standout",), 4.0,
                       budgets=(fitting.BUDGETS[0], (0.5, 0.7)))  # fmt: skip
    assert both.short is not None and both.short.strong_from == looser.strong_from
    assert both.strong_from == shipped.strong_from


def test_the_nested_screen_reading_each_case_once_judges_as_a_fresh_fit_of_the_other_organisations() -> None:
    # nested keeps each case's rows for its ~3,300 refits (CaseRows): each organisation must still get exactly
    # the model, thresholds included, that fitting the fold's other organisations from scratch gives
    results = [recalled(org, n, 1.0 + 0.4 * n + 0.3 * i, 0.5 * n) for i, org in enumerate("abcdef") for n in range(4)]
    judged = fitting.nested(results, ("head_standout",), None, 1.0, ("head_standout",), 4.0)
    for group in fitting.groups(results):
        inside = {id(r) for r in group}
        fresh = fitting.fit([r for r in results if id(r) not in inside], "nested", ("head_standout",), None, 1.0,
                            ("head_standout",), 4.0)  # fmt: skip
        assert all(model == fresh for r, model in judged if id(r) in inside)
    assert len({(m.strong_from, m.weak_from, m.intercept) for _, m in judged}) > 1  # the groups do differ


def test_the_budget_grid_judges_each_organisation_as_the_nested_screen_does_at_each_budget() -> None:
    # --budget-grid shares the fits between budgets: each point must give each case the model, thresholds
    # included, that the nested screen gives at that budget alone
    results = [recalled(org, n, 1.0 + 0.4 * n + 0.3 * i, 0.5 * n) for i, org in enumerate("abcdef") for n in range(4)]
    grid = [(0.15, 0.44), (0.5, 0.7)]
    for budgets, judged in zip(grid, fitting.nested_budgets(results, ("head_standout",), None, 1.0, grid), strict=True):
        alone = fitting.nested(results, ("head_standout",), None, 1.0, budgets=(budgets, fitting.BUDGETS[1]))
        assert [r.case.id for r, _ in judged] == [r.case.id for r, _ in alone]
        fitted = [(m.coefficients, m.intercept, m.strong_from, m.weak_from) for _, m in judged]
        assert fitted == [(m.coefficients, m.intercept, m.strong_from, m.weak_from) for _, m in alone]
    first, looser = (evaluate_judged(j) for j in fitting.nested_budgets(results, ("head_standout",), None, 1.0, grid))
    assert looser["absent_shown"] >= first["absent_shown"]


def recalled_closest(org: str, number: int, standout: float, sentence: float, wrong_at: float) -> SimpleNamespace:
    """As `recalled`, each match also carrying its closest sentence's lead (what the weak model reads)."""

    def match(incident_id: str, value: float, lead: float) -> SimpleNamespace:
        return SimpleNamespace(memory=SimpleNamespace(incident_id=incident_id), relevance=0.1, score_components={},
                               evidence={"head_standout": value, "meaning_sentence_lead": lead})  # fmt: skip

    case = SimpleNamespace(id=f"{org}-{number}", flags={"org": org}, relevant=frozenset({f"{org}-{number}"}))
    wrong = match(f"{org}-other-{number}", wrong_at, -sentence / 2)
    return SimpleNamespace(
        case=case, rank=1, matches=(match(case.id, standout, sentence), wrong), absent_matches=(wrong,)
    )


def test_a_second_model_for_the_weak_line_leaves_every_thread_as_the_first_model_alone_posts_it() -> None:
    # --weak-features (bench/weak_line.py): the thread is the first model's (features, strong_from, what it
    # holds); the weak line is read off the second model's probabilities, within the same shown budget
    from bench import weak_line

    results = [recalled_closest(org, n, 0.2 * n + 0.1 * i, 0.3 * ((n + i) % 4), 0.15 * n)
               for i, org in enumerate("abcdefgh") for n in range(5)]  # fmt: skip
    names, weak_names, grid = ("head_standout",), ("head_standout", "meaning_sentence_lead"), [(0.15, 0.44)]
    [paired] = weak_line.nested_pair_budgets(results, names, weak_names, None, 1.0, grid)
    [alone] = fitting.nested_budgets(results, names, None, 1.0, grid)
    assert [r.case.id for r, _ in paired] == [r.case.id for r, _ in alone]
    for (r, both), (_, one) in zip(paired, alone, strict=True):
        assert both.weak is not None and tuple(both.weak.coefficients) == weak_names
        assert (both.coefficients, both.strong_from, both.weak_from) == (
            one.coefficients,
            one.strong_from,
            one.weak_from,
        )
        for matches in (r.matches, r.absent_matches):  # the same threads, the same memories in them
            first, second = tiers_of(both, matches), tiers_of(one, matches)
            assert ("strong" in first) == ("strong" in second) and (first == second or "strong" not in first)
    figures, baseline = evaluate_judged(paired), evaluate_judged(alone)
    assert figures["first_strong"] == baseline["first_strong"] and figures["absent_strong"] == baseline["absent_strong"]
    assert figures["first_shown"] > baseline["first_shown"]  # the sentence's lead tells these right memories apart
    assert figures["absent_shown"] <= 0.44 + 1 / 8  # the budget, within one organisation's share of the fold
    # the swap fits the pair as the nested screen fits it for each organisation
    model = weak_line.fit_pair(results, "A", names, weak_names, None, 1.0)
    assert model.fitted_on["weak_features"] == list(weak_names) and model.weak.weak_from < 1.0
    # the file a refit writes says what the weak model read too, as the thread's model says it
    assert model.weak.fitted_on["features"] == list(weak_names)
    assert {k: v for k, v in model.weak.fitted_on.items() if k != "features"} == {
        k: v for k, v in model.fitted_on.items() if k not in ("features", "weak_features")
    }


def test_the_short_query_model_gets_its_own_weak_model_and_keeps_its_threads() -> None:
    # --short-weak-features: a short query (a first report) is judged by the short model, whose weak model then
    # decides its weak line; its threads stay those the shipped procedure (fit with a short model) posts
    from bench import weak_line

    results = [recalled_closest(org, n, 0.2 * n + 0.1 * i, 0.3 * ((n + i) % 4), 0.15 * n)
               for i, org in enumerate("abcdefgh") for n in range(5)]  # fmt: skip
    names, weak_names = ("head_standout",), ("head_standout", "meaning_sentence_lead")
    [paired] = weak_line.nested_pair_budgets(results, names, (), None, 1.0, [(0.15, 0.44)], names, weak_names, 4.0)
    alone = fitting.nested(results, names, None, 1.0, names, 4.0)
    for (r, both), (_, one) in zip(paired, alone, strict=True):
        assert both.weak is None and tuple(both.short.weak.coefficients) == weak_names
        assert (both.short.coefficients, both.short.strong_from) == (one.short.coefficients, one.short.strong_from)
        for matches in (r.matches, r.absent_matches):
            first, second = tiers_of(both, matches), tiers_of(one, matches)
            assert ("strong" in first) == ("strong" in second) and (first == second or "strong" not in first)
    figures, baseline = evaluate_judged(paired), evaluate_judged(alone)
    assert figures["first_strong"] == baseline["first_strong"] and figures["first_shown"] > baseline["first_shown"]
    assert figures["ece_weak"] >= 0 and weak_line.without_weak(paired, short_only=True)[0][1].short.weak is not None
    model = weak_line.fit_pair(results, "A", names, (), None, 1.0, short=names, short_weak=weak_names, short_until=4.0)
    assert model.weak is None and model.short.weak.fitted_on["features"] == list(weak_names)
    assert model.short.weak.fitted_on["budgets"] == model.short.fitted_on["budgets"]


def test_fold_halves_judge_each_organisation_once_by_the_pair_fitted_on_the_other_half_only() -> None:
    # --halves (bench/weak_line.py): a fit on half the fold's organisations, read on the other half, foretold
    # the swap where the nested screen's fit on all others did not; no case may be judged by a fit that saw it
    from bench import weak_line

    results = [recalled_closest(org, n, 0.2 * n + 0.1 * i, 0.3 * ((n + i) % 4), 0.15 * n)
               for i, org in enumerate("abcdefgh") for n in range(5)]  # fmt: skip
    names, weak_names = ("head_standout",), ("head_standout", "meaning_sentence_lead")
    trained_on: dict[int, set[str]] = {}

    def fitter(train: list) -> Judgement:
        model = weak_line.fit_pair(train, "half", names, weak_names, None, 1.0)
        trained_on[id(model)] = {r.case.flags["org"] for r in train}
        return model

    judged = weak_line.halves(results, 1, fitter)
    assert sorted(r.case.id for r, _ in judged) == sorted(r.case.id for r in results)  # each case once
    first, second = trained_on.values()
    assert first.isdisjoint(second) and len(first) == len(second) == 4
    assert all(r.case.flags["org"] not in trained_on[id(model)] for r, model in judged)
    # a seed deals the same halves every run; another seed, others
    assert [r.case.id for r, _ in weak_line.halves(results, 1, fitter)] == [r.case.id for r, _ in judged]
    assert [r.case.id for r, _ in weak_line.halves(results, 2, fitter)] != [r.case.id for r, _ in judged]


def test_the_target_absent_recalls_can_come_from_the_bank_the_product_keeps() -> None:
    # --absent-corpus: each case's own recall kept, its target-absent recall read off the other bank's replay
    def result(name: str, absent: tuple[float, ...]) -> CaseResult:
        case = ReplayCase(name, RecallQuery(team_id="T", title=name), frozenset({"right"}))
        return CaseResult(case, ("right", "other"), 1.0, relevances=(0.9, 0.2), absent=absent, absent_tiers=("weak",))

    mixed = with_absent([result("a", (0.2,)), result("b", (0.1,))], [result("b", (0.7,)), result("a", (0.6,))])
    assert [(r.case.id, r.relevances, r.absent) for r in mixed] == [
        ("a", (0.9, 0.2), (0.6,)),
        ("b", (0.9, 0.2), (0.7,)),
    ]
    with pytest.raises(ValueError, match="lacks 1 cases"):
        with_absent([result("a", ()), result("c", ())], [result("a", ())])


def test_an_organisation_is_held_out_whole_and_every_case_once_whatever_the_bench() -> None:
    # the first reports' CaseResults and the long-query bench's cases are dealt by one routine (fitting.deal)
    cases = [(f"org{i % 50}", i) for i in range(150)]
    dealt = fitting.deal(cases, lambda c: c[0])
    orgs = [{org for org, _ in group} for group in dealt]
    assert len(dealt) == fitting.MAX_GROUPS and sorted(i for group in dealt for _, i in group) == list(range(150))
    assert all(not (a & b) for n, a in enumerate(orgs) for b in orgs[n + 1 :])
    assert len(fitting.deal(cases[:20], lambda c: c[0])) == 20  # fewer organisations: one group each


@pytest.mark.parametrize("weak", [(), ("--weak-features", "head_standout,meaning_sentence_lead")])
def test_a_screens_refit_is_stored_apart_from_the_shipped_file_and_leaves_the_held_out_reports_out(
    weak: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --screen-file: a candidate recipe's fit on both folds, for jira-dev's check (recall_by_project.py --model),
    # made before any judge: the shipped file is not touched and bench/held_out.tsv's reports stay out
    import sys

    from bot.recall.judgement import JUDGEMENT_PATH, load_judgement

    shipped = tmp_path / "recall_judgement.json"
    shipped.write_bytes(JUDGEMENT_PATH.read_bytes())
    results = [recalled_closest(org, n, 0.2 * n + 0.1 * i, 0.3 * ((n + i) % 4), 0.15 * n)
               for i, org in enumerate("abcdefgh") for n in range(5)]  # fmt: skip
    for r in results:
        r.case.flags["fold"] = "A" if r.case.flags["org"] in "abcd" else "B"
    asked: list[bool] = []
    monkeypatch.setattr(fitting, "JUDGEMENT_PATH", shipped)
    monkeypatch.setattr(fitting, "held_out_targets", lambda eval_dir, include: asked.append(include) or set())
    monkeypatch.setattr(fitting, "build", lambda *args, **kwargs: None)
    monkeypatch.setattr(fitting, "cached_replay", lambda *args: results)
    screen = tmp_path / "candidate.json"
    argv = ["fit_recall_judgement.py", str(tmp_path), "--features", "head_standout", "--short-features", "none",
            "--sure-from", "none", "--screen-file", str(screen), *weak]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    assert fitting.main() == 0
    assert asked == [False]  # a screen: the held-out reports are no case
    assert shipped.read_bytes() == JUDGEMENT_PATH.read_bytes()  # the shipped file as it was
    model = load_judgement(screen)  # as the product (and recall_by_project.py --model) loads it
    assert model.fitted_on["cases"] == len(results) and model.fitted_on["fold"] == "A+B"
    assert tuple(model.coefficients) == ("head_standout",) and (model.weak is not None) == bool(weak)
    monkeypatch.setattr(sys, "argv", [*argv, "--write"])
    with pytest.raises(SystemExit):  # one file or the other, never both from one fit
        fitting.main()


def test_memories_named_near_a_thread_count_as_shown_when_the_weak_models_line_is_read() -> None:
    # --near (bench/weak_line.py): the weak line names what the thread's model puts near a thread too, so the weak
    # model's line is read with those recalls counted as shown, and the shown budget holds
    from bench import weak_line

    results = [recalled_closest(org, n, 0.2 * n + 0.1 * i, 0.3 * ((n + i) % 4), 0.15 * n)
               for i, org in enumerate("abcdefgh") for n in range(5)]  # fmt: skip
    names, weak_names = ("head_standout",), ("head_standout", "meaning_sentence_lead")
    alone = weak_line.fit_pair(results, "A", names, weak_names, None, 1.0)
    near = weak_line.fit_pair(results, "A", names, weak_names, None, 1.0, near=0.5)
    assert alone.near is None and near.near == 0.5 and near.strong_from == alone.strong_from
    assert near.weak.weak_from > alone.weak.weak_from  # the near ones take part of the budget
    for model in (alone, near):
        shown = sum("strong" in (t := tiers_of(model, r.absent_matches)) or "weak" in t for r in results)
        assert shown / len(results) <= 0.44 + 1 / 8  # the budget, within one organisation's share
    nested = weak_line.nested_pair_budgets(results, names, weak_names, None, 1.0, [(0.15, 0.44)] * 2, nears=[None, 0.5])
    assert [m.near for _, m in nested[0]] == [None] * len(results) and {m.near for _, m in nested[1]} == {0.5}
