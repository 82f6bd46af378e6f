"""`replay --target-absent` gives the three answers along the judgement's curve: what a team would
get from another strong_from or weak_from, read off the recalls already judged."""

from __future__ import annotations

from dataclasses import replace

from bot.models import RecallQuery
from bot.recall.judgement import BELOW, STRONG, load_judgement
from bot.replay_report import CaseResult, ReplayCase, ReplayReport


def case(name: str, present: list[tuple[str, float]], absent: list[float]) -> CaseResult:
    """A judged case: its ranked memories (id, probability; the right one is "right"), and the
    probabilities of what recall found with the right one removed. No relevance reaches the floor."""
    ids = tuple(i for i, _ in present)
    return CaseResult(
        ReplayCase(name, RecallQuery(team_id="T", title=name), frozenset({"right"})), ids, 1.0,
        relevances=(0.1,) * len(ids), absent=(0.1,) * len(absent), tiers=(BELOW,) * len(ids),
        absent_tiers=(BELOW,) * len(absent), probabilities=tuple(p for _, p in present),
        absent_probabilities=tuple(absent), rules=(BELOW,) * len(ids), absent_rules=(BELOW,) * len(absent),
    )  # fmt: skip


def test_the_tier_curve_says_what_each_threshold_would_show_and_post_with_the_right_memory_gone() -> None:
    judgement = replace(load_judgement(), weak_from=0.15, strong_from=0.5, sure_from=None, short=None)
    report = ReplayReport.of([
        case("found first", [("right", 0.6), ("other", 0.05)], absent=[0.3, 0.05]),
        case("found second", [("near", 0.4), ("right", 0.2)], absent=[0.1]),
    ])  # fmt: skip
    curve = {point["probability"]: point for point in report.tier_curve(judgement)}
    # strong from 0.5: the first is a thread; the second only a weak line naming both (shown, not strong);
    # with the right memories gone the first's 0.3 names a weak line, the second's 0.1 nothing
    assert curve[0.5] | {"weak_right_shown": 0, "weak_absent_shown": 0} == {
        "probability": 0.5, "strong_right_strong": 0.5, "strong_right_shown": 1.0, "strong_absent_strong": 0.0,
        "strong_absent_shown": 0.5, "weak_right_shown": 0, "weak_absent_shown": 0,
    }  # fmt: skip
    # strong from 0.25: the second's 0.4 posts, its right memory (0.2 >= weak_from) joins; the first's 0.3 posts
    assert (curve[0.25]["strong_right_strong"], curve[0.25]["strong_absent_strong"]) == (1.0, 0.5)
    # weak from 0.35 (strong from 0.5): the first's 0.3 no longer shows anything with its memory gone
    assert (curve[0.35]["weak_right_shown"], curve[0.35]["weak_absent_shown"]) == (1.0, 0.0)
    # a higher threshold never posts or shows more
    for key in ("strong_right_strong", "strong_absent_strong", "weak_right_shown", "weak_absent_shown"):
        values = [point[key] for point in curve.values()]
        assert values == sorted(values, reverse=True), key


def test_the_tier_curve_at_the_replay_s_own_thresholds_is_what_the_replay_reported() -> None:
    judgement = replace(load_judgement(), weak_from=0.15, strong_from=0.5, sure_from=None, short=None)
    results = [
        case("found first", [("right", 0.6), ("other", 0.05)], absent=[0.3, 0.05]),
        case("found second", [("near", 0.4), ("right", 0.2)], absent=[0.1]),
    ]
    judged = [replace(r, tiers=tuple(t), absent_tiers=tuple(a)) for r in results for t, a in [r.retiered(judgement)]]
    report = ReplayReport.of(judged)
    point = next(p for p in report.tier_curve(judgement) if p["probability"] == judgement.strong_from)
    figures = report.tier_figures()
    assert (point["strong_right_strong"], point["strong_right_shown"]) == (
        figures["right_strong"],
        figures["right_shown"],
    )
    assert (point["strong_absent_strong"], point["strong_absent_shown"]) == (
        figures["absent_strong"], figures["absent_shown"],
    )  # fmt: skip
    assert [r.right_tier() for r in judged] == [STRONG, "weak"]


def test_with_a_weak_model_the_curve_reads_the_weak_line_off_its_probabilities() -> None:
    # Judgement.weak decides the weak line: a replay keeps its probabilities, and "p as weak_from" moves its line
    first = replace(load_judgement(), weak_from=0.15, strong_from=0.5, sure_from=None, short=None)
    judgement = replace(first, weak=replace(first, weak_from=0.3))
    closest = replace(case("found second", [("near", 0.4), ("right", 0.2)], absent=[0.1]),
                      weak_probabilities=(0.1, 0.1), absent_weak_probabilities=(0.35,))  # fmt: skip
    assert closest.retiered(judgement) == ([BELOW, BELOW], ["weak"])  # the weak model's line, not the first's
    curve = {point["probability"]: point for point in ReplayReport.of([closest]).tier_curve(judgement)}
    assert (curve[0.05]["weak_right_shown"], curve[0.4]["weak_absent_shown"]) == (1.0, 0.0)
