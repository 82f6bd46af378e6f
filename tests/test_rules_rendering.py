"""A known pattern as Slack shows it: who reviewed it, from which incidents, what to check and
what did not work — within Slack's limits, pinging no one, never worded as a verdict."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from bot.rules.model import DeadEnd, Decision, Provenance, ReplayResult, RootCause, Rule, RuleMatch
from bot.slack.known_patterns import known_pattern_reply
from tests.test_slack_rendering import PINGS, assert_pings_no_one, assert_within_message_limits

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def rule(**changes: object) -> Rule:
    base = Rule(
        id="R-connection-pool-exhaustion-helper-retry",
        version=2,
        title="payments: connection pool exhaustion — retry helper",
        match=RuleMatch(services=["payments"], concepts=["connection pool exhaustion"]),
        root_cause=RootCause(summary="the retry helper leaked connections", terms=["retry", "helper"]),
        checks=["Count idle in transaction sessions per application_name"],
        fix="release the connection in finally",
        dead_ends=[
            DeadEnd(
                action="Restart the pods",
                why_it_failed="the pool filled again in minutes",
                seen_in=["INC-101", "INC-102"],
            )
        ],
        provenance=Provenance(
            team="T1", incidents=["INC-101", "INC-102", "INC-103"], min_episodes=3, generated_at=NOW, bank="test"
        ),
        content_hash="0" * 64,
        replay=ReplayResult(
            version=2, ran_at=NOW, sources=["bank"], hits=["INC-101", "INC-102", "INC-103"], false_fires=["INC-105"]
        ),
        reviewed_by="maya",
        approved_at=NOW,
        decision=Decision.APPROVED,
    )
    return base.model_copy(update=changes).stamped()


def test_the_reply_names_reviewer_date_and_incidents_then_checks_and_dead_ends() -> None:
    payload = known_pattern_reply(rule())
    shown = json.dumps(payload, ensure_ascii=False)
    assert payload["text"] == (
        "Known pattern R-connection-pool-exhaustion-helper-retry (reviewed by maya on 2026-11-30, "
        "from INC-101, INC-102, INC-103)"
    )
    for expected in (
        "Count idle in transaction sessions", "Known dead ends", "Restart the pods",
        "the pool filled again in minutes", "not what caused this one", "fired correctly 3×, on another cause 1×",
    ):  # fmt: skip
        assert expected in shown, expected
    assert "release the connection in finally" not in shown  # the fix is not offered as today's answer


def test_a_hostile_rule_fits_slack_and_pings_no_one() -> None:
    huge = f"{PINGS} " + "y" * 2900
    hostile = rule(
        title=huge,
        reviewed_by="<!channel>",
        checks=[huge] * 20,
        dead_ends=[DeadEnd(action=huge, why_it_failed=huge, seen_in=["<!here>"] * 20)] * 20,
    )
    payload = known_pattern_reply(hostile)
    assert_within_message_limits(payload)
    assert_pings_no_one(payload)
    assert "+15 more in the rule file" in json.dumps(payload)
