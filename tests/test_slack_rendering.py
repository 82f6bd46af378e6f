"""Rendering for Slack: what people see, within Slack's limits, pinging no one.

No database and no Slack: every payload is rendered from its template and checked here against
Slack's limits independently of `bot.slack.limits`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.models import Correction, FailedAttempt, MemoryRecord, RecallMatch, Source, TruthState, TruthTransition
from bot.recall.conflicts import find_conflicts
from bot.slack import ids, messages, modals
from bot.slack.escape import cut, escape_mrkdwn
from bot.slack.templating import environment
from bot.slack.terminal import message_to_text
from tests.block_kit import Json, text_objects

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
PINGS = "<!channel> <@U123> <!here> <https://evil.example|click me> <#C999>"

# ---- helpers ----------------------------------------------------------------------------------


def memory(incident_id: str = "INC-1", **fields: Any) -> MemoryRecord:
    base: dict[str, Any] = {
        "incident_id": incident_id,
        "team_id": "T1",
        "title": "Payments API 5xx: connection pool exhausted",
        "service": "payments",
        "severity": "SEV1",
        "root_cause": "The refund worker never released its connection when the provider call raised.",
        "resolution": "Released the connection in a finally block.",
        "failed_attempts": [
            FailedAttempt(
                action="Restarted the payments pods", why_it_failed="Bought 25 minutes, then the pool filled again."
            ),
            FailedAttempt(action="Raised max_connections to 400", why_it_failed="Database memory pressure rose."),
        ],
        "truth_state": TruthState.VERIFICATION_CONFIRMED,
        "verified_by": "alice",
        "verified_at": NOW - timedelta(days=61),
        "verification_note": "pool usage flat for a week",
        "occurred_at": NOW - timedelta(days=92),
        "corrections": [
            Correction(author="bob", text="The retry deploy started it.", created_at=NOW - timedelta(days=10))
        ],
        "created_at": NOW - timedelta(days=92),
        "updated_at": NOW,
    }
    base.update(fields)
    return MemoryRecord(**base)


def match_of(record: MemoryRecord, reasons: list[str] | None = None) -> RecallMatch:
    return RecallMatch.model_construct(
        memory=record,
        score=0.8123,
        score_components={"lexical": 0.61, "same_service": 1.0, "score": 0.8123},
        reasons=reasons if reasons is not None else ["matched terms: pool, timeout", "same service: payments"],
        successor_id=record.superseded_by,
    )


def hostile_memory() -> MemoryRecord:
    """Older data or corrections may exceed today's bounds: built without validation."""
    huge = ("x" * 50 + " ") * 200  # about 10,000 characters
    attempts = [
        FailedAttempt.model_construct(action=f"attempt {i} {PINGS} " + huge, why_it_failed=f"{PINGS} " + huge)
        for i in range(100)
    ]
    corrections = [
        Correction.model_construct(author=f"<@U{i}>", text=f"{PINGS} " + huge, created_at=NOW) for i in range(40)
    ]
    return MemoryRecord.model_construct(
        incident_id="INC-HOSTILE",
        team_id="T1",
        title=f"{PINGS} " + huge,
        service=f"payments {PINGS}",
        severity="SEV1",
        symptoms=PINGS + huge,
        error_message=PINGS + huge,
        root_cause=f"{PINGS} & " + "<" * 10_000,
        diagnosis=PINGS + huge,
        resolution=PINGS + huge,
        failed_attempts=attempts,
        lesson=PINGS + huge,
        notes=PINGS + huge,
        source=Source.SEED,
        truth_state=TruthState.HUMAN_CONFIRMED,
        verified_by="<!channel>",
        verified_at=NOW,
        verification_note=None,
        tags=[],
        channel_id=None,
        is_private=False,
        occurred_at=NOW - timedelta(days=3),
        resolved_at=None,
        superseded_by=None,
        corrections=corrections,
        transitions=[
            TruthTransition.model_construct(
                from_state=TruthState.UNCONFIRMED_HYPOTHESIS,
                to_state=TruthState.HUMAN_CONFIRMED,
                actor="<!here>",
                reason=PINGS + huge,
                at=NOW,
                successor_id=None,
            )
        ],
        created_at=NOW,
        updated_at=NOW,
    )


def shown_strings(message: Json) -> Iterator[str]:
    """Every string Slack would display or parse: `text` and every text object's text."""
    if isinstance(message.get("text"), str):
        yield message["text"]
    for obj in text_objects(message.get("blocks", [])):
        yield obj["text"]


def assert_within_message_limits(message: Json) -> None:
    blocks = message.get("blocks", [])
    assert len(blocks) <= 50
    assert len(message["text"]) <= 4000
    assert sum(len(t["text"]) for t in text_objects(blocks)) <= 12_000
    for block in blocks:
        assert len(block.get("block_id", "")) <= 255
        if block["type"] == "section":
            assert "text" not in block or len(block["text"]["text"]) <= 3000
            assert len(block.get("fields", [])) <= 10
            assert all(len(f["text"]) <= 2000 for f in block.get("fields", []))
        if block["type"] == "header":
            assert len(block["text"]["text"]) <= 150
        if block["type"] == "context":
            assert len(block["elements"]) <= 10
        if block["type"] == "actions":
            assert len(block["elements"]) <= 25
            for el in block["elements"]:
                assert len(el["action_id"]) <= 255
                assert len(el["text"]["text"]) <= 75
                assert len(el.get("value", "")) <= 2000
    for obj in text_objects(blocks):
        assert obj["text"].strip(), "Slack rejects empty text"


def assert_pings_no_one(message: Json) -> None:
    for text in shown_strings(message):
        assert not re.search(r"<[!@#]|<https?:", text), f"would ping or link: {text[:200]!r}"
        # a cut never leaves half an entity behind
        assert not re.search(r"&(?!amp;|lt;|gt;)", text), f"broken entity in {text[-80:]!r}"


def reply_text(message: Json) -> str:
    return message_to_text(message)


def buttons(message: Json) -> dict[str, str]:
    return {
        el["action_id"]: el.get("value", "")
        for block in message["blocks"]
        if block["type"] == "actions"
        for el in block["elements"]
    }


# ---- escaping and cutting ---------------------------------------------------------------------


def test_escape_turns_mentions_and_links_into_text() -> None:
    assert (
        escape_mrkdwn("<!channel> & <@U123> <https://x|y>")
        == "&lt;!channel&gt; &amp; &lt;@U123&gt; &lt;`https://x`|y&gt;"
    )


def test_a_bare_url_is_shown_as_code_and_code_is_left_alone() -> None:
    assert escape_mrkdwn("run https://evil.example/fix.sh.") == "run `https://evil.example/fix.sh`."
    assert escape_mrkdwn("see www.evil.example/x, then `curl https://a.b`") == (
        "see `www.evil.example/x`, then `curl https://a.b`"
    )


@pytest.mark.parametrize("limit", range(10, 40))
def test_a_cut_never_splits_an_entity(limit: int) -> None:
    text = escape_mrkdwn("a<b&c>" * 20)
    shortened = cut(text, limit)
    assert len(shortened) <= limit and shortened.endswith("…")
    assert not re.search(r"&(?!amp;|lt;|gt;)", shortened)


def test_json_syntax_in_user_text_survives_the_template() -> None:
    tricky = 'quote " backslash \\ comma-bracket ,] ,} {{ jinja }} {% raw %}'
    assert message_to_text(messages.notice(tricky)) == tricky


def test_templates_refuse_unencoded_values() -> None:
    template = environment().from_string('{"text": "{{ value }}"}')
    with pytest.raises(TypeError, match="unencoded"):
        template.render(value="<!channel>")


# ---- recall thread ----------------------------------------------------------------------------


def test_hostile_memory_renders_within_limits_and_pings_no_one() -> None:
    hostile = hostile_memory()
    payloads = {
        "reply": messages.recall_reply(match_of(hostile, reasons=[PINGS] * 12), NOW, ["<!channel>"]),
        "detail": messages.memory_detail(hostile, NOW),
        "confirmation": messages.resolution_confirmation(hostile, NOW, by="<@U123>"),
        "parent": messages.recall_parent(hostile.title, [match_of(hostile)] * 50, {PINGS: ["<!here>"] * 40}),
        "notice": messages.notice(PINGS * 500),
    }
    for name, payload in payloads.items():
        assert_within_message_limits(payload)
        assert_pings_no_one(payload)
        json.dumps(payload)  # sendable as is
        assert payload["blocks"], name
    reply = reply_text(payloads["reply"])
    # cut visibly, pointing at where the whole memory is
    assert "truncated — `/incident show INC-HOSTILE`" in reply
    assert "+97 more — `/incident show INC-HOSTILE`" in reply
    assert buttons(payloads["reply"])[ids.MEMORY_HELPFUL] == "INC-HOSTILE"


def test_reply_shows_what_a_responder_needs() -> None:
    reply = messages.recall_reply(match_of(memory()), NOW)
    text = reply_text(reply)
    assert "Payments API 5xx: connection pool exhausted" in text
    assert "service payments" in text and "3 months ago" in text
    assert "Verified fix by alice, 2 months ago" in text and "pool usage flat for a week" in text
    assert "The refund worker never released its connection" in text
    assert "Released the connection in a finally block." in text
    assert "Restarted the payments pods — _Bought 25 minutes, then the pool filled again._" in text
    assert "Raised max_connections to 400 — _Database memory pressure rose._" in text
    assert "*bob* (2025-05-22): The retry deploy started it." in text
    assert "matched terms: pool, timeout · same service: payments" in text
    # the numbers a responder cannot use stay off the card (CLI --json and `recall` print them)
    assert "0.812" not in text and "lexical" not in text
    assert "CONFLICT" not in text
    assert "Past incident INC-1" in reply["text"]
    # a verified memory cannot be rejected by the truth machine: no button that always fails
    why = buttons(reply).pop(ids.MEMORY_WHY)
    assert buttons(reply).keys() - {ids.MEMORY_WHY} == {
        ids.MEMORY_HELPFUL,
        ids.MEMORY_NOT_RELEVANT,
        ids.MEMORY_ADD_CORRECTION,
    }
    assert {buttons(reply)[k] for k in buttons(reply).keys() - {ids.MEMORY_WHY}} == {"INC-1"}
    # "Why this?" keeps the numbers the card leaves out, for a modal that shows them
    detail = json.dumps(modals.why_modal(why))
    assert "score 0.812" in detail and "lexical 0.61" in detail and "matched terms: pool, timeout" in detail
    assert "could not be read" in json.dumps(modals.why_modal("not ours"))


def test_unconfirmed_memory_says_so_and_can_be_rejected() -> None:
    record = memory(
        truth_state=TruthState.UNCONFIRMED_HYPOTHESIS, verified_by=None, verified_at=None, verification_note=None
    )
    reply = messages.recall_reply(match_of(record), NOW)
    assert "Unconfirmed hypothesis" in reply_text(reply)
    assert buttons(reply)[ids.MEMORY_REJECT] == "INC-1"


def test_many_failed_attempts_show_the_first_few_and_how_many_more() -> None:
    attempts = [FailedAttempt(action=f"try {i}", why_it_failed=f"because {i}") for i in range(100)]
    text = reply_text(messages.recall_reply(match_of(memory(failed_attempts=attempts)), NOW))
    assert "try 0 — _because 0_" in text and "try 2 — _because 2_" in text
    assert "try 3 —" not in text
    assert "+97 more — `/incident show INC-1`" in text


def test_attempt_without_why_says_it_was_not_recorded() -> None:
    record = memory(failed_attempts=[FailedAttempt(action="Flushed the cache")])
    assert "Flushed the cache — _why it failed was not recorded_" in reply_text(
        messages.recall_reply(match_of(record), NOW)
    )


def test_superseded_memory_is_only_a_pointer_to_its_successor() -> None:
    record = memory("INC-OLD", truth_state=TruthState.SUPERSEDED, superseded_by="INC-NEW")
    reply = messages.recall_reply(match_of(record), NOW)
    text = reply_text(reply)
    assert "`INC-OLD`" in text and "superseded by `INC-NEW`" in text and "`/incident show INC-NEW`" in text
    assert "refund worker" not in text and "finally block" not in text
    assert buttons(reply) == {}


def test_conflicting_memories_are_marked_in_parent_and_replies() -> None:
    first = match_of(memory("INC-1"))
    second = match_of(memory("INC-2", root_cause="A failover left stale DNS entries in the pool."))
    other = match_of(memory("INC-3", service="search"))
    conflicts = find_conflicts([first, second, other])
    parent = reply_text(messages.recall_parent("Checkout timeouts", [first, second, other], conflicts))
    assert "3 past incidents look like this one" in parent
    assert "CONFLICT" in parent and "payments" in parent and "`INC-1` vs `INC-2`" in parent
    marked = reply_text(messages.recall_reply(first, NOW, messages.conflicting_ids(first, conflicts)))
    assert "CONFLICT" in marked and "INC-2" in marked
    unmarked = reply_text(messages.recall_reply(other, NOW, messages.conflicting_ids(other, conflicts)))
    assert "CONFLICT" not in unmarked


def test_parent_with_no_matches_is_one_line_that_offers_investigation() -> None:
    parent = messages.recall_parent("Checkout <!here> timeouts", [], {}, incident_ref="OPEN-7")
    [line] = parent["blocks"]  # one line, no thread to read
    assert "Nothing in memory looks like this" in line["text"]["text"]
    assert "Checkout <!here> timeouts" in reply_text(parent)  # shown as typed, escaped on the wire
    assert_pings_no_one(parent)
    assert (line["accessory"]["action_id"], line["accessory"]["value"]) == (ids.INCIDENT_INVESTIGATE, "OPEN-7")
    single = reply_text(messages.recall_parent("x", [match_of(memory())], {}))
    assert "1 past incident looks like this one" in single


def test_detail_shows_everything_a_memory_holds() -> None:
    record = memory(
        symptoms="503s at peak",
        error_message="TooManyConnectionsError",
        diagnosis="pg_stat_activity",
        lesson="Look for leaks first",
        notes="see runbook",
        transitions=[
            TruthTransition(
                from_state=TruthState.UNCONFIRMED_HYPOTHESIS,
                to_state=TruthState.VERIFICATION_CONFIRMED,
                actor="alice",
                at=NOW,
            )
        ],
    )
    text = reply_text(messages.memory_detail(record, NOW))
    for expected in (
        "503s at peak",
        "TooManyConnectionsError",
        "pg_stat_activity",
        "Look for leaks first",
        "see runbook",
        "Restarted the payments pods",
        "The retry deploy started it.",
        "unconfirmed_hypothesis → verification_confirmed by alice",
    ):
        assert expected in text


def test_small_messages_render() -> None:
    assert "/incident resolve" in reply_text(messages.help_message())
    assert "Investigating…" in reply_text(messages.investigating_placeholder("Checkout <!channel>"))
    confirmation = messages.resolution_confirmation(memory(), NOW, by="carol")
    assert "Resolved and remembered" in reply_text(confirmation) and "Recorded by carol" in reply_text(confirmation)
    differs = messages.resolution_differs("INC-1", ["root_cause", "resolution"])
    assert "differs in root_cause, resolution" in reply_text(differs)
    assert buttons(differs) == {ids.MEMORY_ADD_CORRECTION: "INC-1"}


# ---- the investigation's answer ---------------------------------------------------------------


def test_investigation_keeps_current_and_past_apart_and_pings_no_one() -> None:
    pytest.importorskip("bot.investigation.models")  # built alongside, in another change
    from bot.investigation.models import (
        Check,
        Conflict,
        FailedPreviousAction,
        Hypothesis,
        HypothesisStatus,
        Investigation,
        InvestigatorKind,
        PreviousAction,
    )
    from bot.slack.investigation import investigation_message

    answer = Investigation(
        investigator=InvestigatorKind.OFFLINE,
        current_summary=f"Checkout returns 503 {PINGS}",
        checks_to_run=[
            Check(action=f"check {i} {PINGS}", why="the pool leaked before", memory_ids=["INC-1"]) for i in range(20)
        ],
        hypotheses=[
            Hypothesis(
                statement="Connections leak",
                current_evidence=["pool checkout timed out"],
                status=HypothesisStatus.SUPPORTED,
            ),
            Hypothesis(statement="Stale DNS after failover"),
        ],
        successful_previous_actions=[PreviousAction(action="Release connections in finally", memory_id="INC-1")],
        failed_previous_actions=[
            FailedPreviousAction(action="Restart pods", why_it_failed="bought 25 minutes", memory_id="INC-1")
        ],
        conflicts=[
            Conflict(memory_ids=["INC-1", "INC-2"], description="leak vs DNS", evidence_needed="pg_stat_activity")
        ],
        open_questions=["x" * 3000] * 20,
        guard_flags=["removed a claim that INC-1 is the cause"],
    )
    message = investigation_message(answer, "Checkout <!here>")
    assert_within_message_limits(message)
    assert_pings_no_one(message)
    text = message_to_text(message)
    assert text.index("What is happening now") < text.index("Worked in past incidents")
    assert "+15 more" in text  # 20 checks, the first five shown
    assert "Restart pods — _bought 25 minutes_ (`INC-1`)" in text
    assert "CONFLICT" in text and "leak vs DNS" in text and "pg_stat_activity" in text
    assert "Stale DNS after failover — _needs current evidence_" in text
    assert "offline investigator" in text and "removed a claim" in text
