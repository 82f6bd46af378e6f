"""bench/recall_second_views.py: the second views of a pasted ticket's recall (issue 27), read as the bench reads
them: a query cut in halves, each view's rank and lead among the five, a rule counted only where it would act."""

from __future__ import annotations

from bench import recall_second_views as views
from bench.recall_signature_rule import Shown
from bot.models import RecallQuery
from bot.recall.judgement import BELOW, STRONG


def test_a_query_cut_in_halves_keeps_each_half_of_its_body_and_drops_the_title() -> None:
    query = RecallQuery(team_id="t", title="namenode down", text="one two three four", error_message="five six")
    first, second, title = (views.QUERY_VIEWS[name](query) for name in ("H1", "H2", "T"))
    assert (first.title, first.text, first.error_message) == (None, "one two three", None)
    assert (second.title, second.text) == (None, "four five six")
    assert (title.title, title.text, title.error_message) == ("namenode down", "", None)


def test_each_view_ranks_the_five_with_ties_sharing_a_rank_and_leads_over_the_best_other() -> None:
    rows = views.ranked([{"title": 0.9}, {"title": 0.4}, {"title": 0.9}, {"title": 0.1}])
    assert [r["title_rank"] for r in rows] == [1, 3, 1, 4]
    assert [round(r["title_lead"], 3) for r in rows] == [0.0, -0.5, 0.0, -0.8]


def _case(first_agrees: bool, query_phrases: float, tiers: tuple[str, ...] = (BELOW, BELOW)) -> views.Case:
    def side(right: bool) -> list[views.Viewed]:
        agree = {"title": 1.0, "title_rank": 1.0 if first_agrees else 2.0}
        return [views.Viewed(Shown(right, 0.1, {}, {"query_phrases": query_phrases}), agree),
                views.Viewed(Shown(False, 0.1, {}, {"query_phrases": query_phrases}), {"title": 0.5, "title_rank": 2.0})]  # fmt: skip

    return views.Case("P", side(True), side(False), (tiers, tiers))


def test_a_rule_counts_a_right_memory_shown_and_a_false_line_only_where_a_long_query_answers_nothing() -> None:
    agree = views.AGREE["first by title"]
    assert views.rule_counts([_case(True, 40.0)], agree, 0.0) == (1, 1)  # shown with it, a false line without it
    assert views.rule_counts([_case(False, 40.0)], agree, 0.0) == (0, 0)  # the title ranks another memory first
    assert views.rule_counts([_case(True, 1.0)], agree, 0.0) == (0, 0)  # a first report's two lines: the short model
    assert views.rule_counts([_case(True, 40.0, (STRONG, BELOW))], agree, 0.0) == (0, 0)  # a thread answers already
