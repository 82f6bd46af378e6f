"""Status-page posts that tell their incident only in the front matter (issue 23): a Jekyll or Hugo status
site (LiveAgent's la-status-v2, Statuspage's and Stactus's update lists) keeps each update as
{status, content, date} under `incident_states` (or `incident_updates`, `updates`, `timeline`) and leaves the
body empty. `import` reads the updates as the post's timeline (bot/importer/status_updates.py); it used to refuse
such a post as "nothing but a title".
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.importer.drafts import NotAnIncident
from bot.importer.markdown import parse_markdown
from bot.importer.status_updates import MAX_UPDATES, front_matter_updates
from bot.importer.timeline import read_timeline
from bot.memory.postgres import PostgresMemoryStore
from bot.reader.narrative import resolving
from tests.test_import import cli  # noqa: F401 - the `cli` fixture, shared

EVAL = Path(__file__).parent.parent / "eval" / "postmortems"
# a real post (fold A tuning material, eval/postmortems/truth.jsonl): three updates, the first and the last with no
# time of their own (the page shows the post's `date` and `resolvedDate` beside them)
TEXAS = EVAL / "liveagent-2024-07-26-System-degradation-in-US---Texas.md"


async def test_a_post_told_only_in_its_front_matter_is_imported_with_its_updates_as_the_timeline_and_its_fix_holds_no_cause(
    cli,  # noqa: F811
    store: PostgresMemoryStore,
) -> None:
    code, out, err = await cli("import", "--json", str(TEXAS))
    assert code == 0, out + err
    (report,) = json.loads(out)["files"]
    assert report["status"] == "imported", report
    (incident_id,) = report["incident_ids"]
    memory = await store.get("local", incident_id)
    assert memory.title == "System degradation in US - Texas"
    # the first update is what was seen; each update's time is the one its page shows
    assert memory.symptoms.startswith("We are currently experiencing an unexpected service degradation")
    assert memory.occurred_at == datetime(2024, 7, 26, 13, 30, tzinfo=UTC)
    assert memory.resolved_at == datetime(2024, 7, 26, 22, 30, tzinfo=UTC)
    # the resolved update's step is the fix, read from the timeline entry of its time
    assert "We successfully recovered all primary shards" in memory.resolution
    assert "timeline entry '2024-07-26 22:30 UTC'" in memory.provenance.fields["resolution"]
    # review F64: the 17:30 update tells the cause (with an impact count), then a shard restored; the fix held the cause
    # sentence (the step "just before" a state-only restored entry, and the sentence model's fix head)
    for said in ("switching Elasticsearch", "afecting 2 shards", "3% of tickets were not visible"):
        assert said not in memory.resolution
    assert "one of the two primary shards was restored" in memory.resolution


def test_the_sentence_before_a_restore_in_the_same_update_is_not_the_step_but_one_told_in_the_update_before_is() -> (
    None
):
    one_update = [
        "- 17:30: We were switching the index to new hosts when tickets vanished.",
        "- 17:30: Search is restored.",
    ]
    two_updates = [one_update[0], "", "- 18:10: Search is restored."]
    taken = [e.text for e in resolving(read_timeline(one_update, status_updates=True)[0])]
    assert taken == ["Search is restored."]
    # a page's updates are separate tellings: the step told in the update before a state-only one is still its step
    taken = [e.text for e in resolving(read_timeline(two_updates, status_updates=True)[0])]
    assert taken == [one_update[0].removeprefix("- 17:30: "), "Search is restored."]
    # a postmortem's own timeline is read as before: each line an entry of its own
    assert len(resolving(read_timeline(one_update)[0])) == 2


def test_each_update_is_a_timestamped_timeline_line_and_a_statuspage_list_is_read_oldest_first() -> None:
    # Statuspage's export lists `incident_updates` newest first, each {status, body, created_at}
    text = (
        "---\ntitle: Elevated API errors\nincident_updates:\n"
        "- status: resolved\n  body: We rolled back the 14:02 deploy. Error rates are normal.\n"
        "  created_at: 2025-03-04T15:10:00Z\n"
        "- status: investigating\n  body: API requests fail with 502 for some customers.\n"
        "  created_at: 2025-03-04T14:20:00Z\n---\n"
    )
    draft = parse_markdown(text, team_id="T", incident_id="pm-x", name="api.md")
    assert draft.symptoms == "API requests fail with 502 for some customers."
    assert draft.occurred_at == datetime(2025, 3, 4, 14, 20, tzinfo=UTC)
    assert "We rolled back the 14:02 deploy." in draft.resolution
    assert draft.provenance.fields["resolution"].startswith("timeline entry '2025-03-04 15:10:00+00:00'")
    updates = front_matter_updates(
        {"timeline": [{"ts": "2024-08-12 14:03", "description": "Queue stalled. Paging."}]}, 99
    )
    assert updates is not None and updates.lines == [
        "- 2024-08-12 14:03: Queue stalled.",
        "- 2024-08-12 14:03: Paging.",
    ]


@pytest.mark.parametrize(
    "listed", ["updates: [api, db]", "updates:\n- status: resolved", "timeline:\n- date: 2024-01-01"]
)
def test_a_front_matter_list_that_holds_no_update_text_is_not_a_timeline(listed: str) -> None:
    # a list of tags, or updates without their text, tells nothing: the post stays a bare title, refused as before
    with pytest.raises(NotAnIncident, match="nothing but a title"):
        parse_markdown(f"---\ntitle: Something\n{listed}\n---\n", team_id="T", incident_id="pm-x", name="x.md")


def test_updates_are_bounded_by_count_and_by_the_document_s_own_length() -> None:
    # a YAML alias repeats a long string for a few characters: the updates never hold more text than the file
    long = "Database unreachable from the API. " * 100
    aliases = "".join("- content: *a\n" for _ in range(3 * MAX_UPDATES))
    text = f'---\ntitle: Outage\nnote: &a "{long}"\nupdates:\n{aliases}---\n'
    draft = parse_markdown(text, team_id="T", incident_id="pm-x", name="x.md")
    assert draft.symptoms.startswith("Database unreachable from the API.")
    updates = front_matter_updates({"updates": [{"content": long}] * (3 * MAX_UPDATES)}, len(text))
    assert updates is not None and sum(len(line) - len("- ") for line in updates.lines) <= len(text)
    many = front_matter_updates({"updates": [{"content": "Still down."}] * (3 * MAX_UPDATES)}, 10**9)
    assert many is not None and len(many.lines) == MAX_UPDATES
    # a nested value (a tree of aliases) is never walked: only an update's strings are read
    bomb = '---\ntitle: Outage\na: &a ["x", "x"]\nb: &b [*a, *a]\nc: &c [*b, *b]\nupdates:\n- content: [*c, *c]\n---\n'
    with pytest.raises(NotAnIncident, match="nothing but a title"):
        parse_markdown(bomb, team_id="T", incident_id="pm-x", name="x.md")


def test_a_status_page_s_resolved_time_in_the_front_matter_is_when_it_was_resolved() -> None:
    # cState writes `resolved: true` (a flag, no time) and `resolvedWhen`; LiveAgent writes `resolvedDate`
    for front in ("resolved: true\nresolvedWhen: 2020-06-28 12:53:00", "resolvedDate: 2020-06-28 12:53 UTC"):
        text = f"---\ntitle: Web outage\ndate: 2020-06-28 12:07:00\n{front}\n---\n\nRedis errors made pages fail.\n"
        draft = parse_markdown(text, team_id="T", incident_id="pm-x", name="x.md")
        assert draft.resolved_at == datetime(2020, 6, 28, 12, 53, tzinfo=UTC), front
    # a resolved time before the start is a slip in the source (a year typed wrong): no resolved time, not a wrong one
    text = "---\ntitle: Web outage\ndate: 2020-06-28 12:07:00\nresolvedWhen: 2019-06-28 12:53:00\n---\n\nRedis errors made pages fail.\n"
    assert parse_markdown(text, team_id="T", incident_id="pm-x", name="x.md").resolved_at is None
