"""The alert as recall's evidence, end to end: Alertmanager's documented payload POSTed to the
real app, Slack from the sandbox, a real PostgreSQL. A memory keeps the alerts that fired for its
incident; a later firing of the same alert (same name, same identifying labels) posts that memory
first, saying "same alert: …"."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.memory.files import draft_from_json
from bot.models import MemoryAlert
from bot.sandbox import DEFAULT_SCOPES, SlackSandbox
from bot.sandbox.local_bot import LocalBot, local_bot
from tests.test_alerts_e2e import PROBE_MEMORY, fixture, prepare, settings_for

PROBE_LABELS = {"alertname": "ProbeFailure", "job": "http_checks", "instance": "https://old.example.org"}
# It shares no word with the alert: only the alert says it is the same failure.
SAME_ALERT_MEMORY = {
    "incident_id": "INC-EDGE-3",
    "title": "Renewal cron stopped after the base image upgrade",
    "service": "edge",
    "root_cause": "the cron daemon was missing from the new base image",
    "resolution": "added cron back, and a heartbeat for the renewal job",
    "truth_state": "human_confirmed",
    "verified_by": "maya",
    "alerts": [{"name": "ProbeFailure", "labels": PROBE_LABELS}],
}
# The same alert name for another job: not the same alert (RECALL_ALERT_LABELS=job).
OTHER_JOB_MEMORY = {
    **SAME_ALERT_MEMORY,
    "incident_id": "INC-EDGE-4",
    "title": "Status page unreachable during the DNS migration",
    "alerts": [{"name": "ProbeFailure", "labels": {**PROBE_LABELS, "job": "status_page"}}],
}


@pytest.fixture
async def bot(database_url: str, tmp_path: Path) -> AsyncIterator[LocalBot]:
    settings = settings_for(database_url, tmp_path, recall_alert_labels="job")
    async with SlackSandbox(scopes=(*DEFAULT_SCOPES, "channels:manage")) as sandbox:
        async with local_bot(settings, sandbox=sandbox) as running:
            prepare(running)
            for record in (PROBE_MEMORY, SAME_ALERT_MEMORY, OTHER_JOB_MEMORY):
                await running.runtime.services.memory.retain(draft_from_json(record, team_id=sandbox.team_id))
            yield running


async def fire(bot: LocalBot) -> list:
    """The probe alert fires; the recall thread it opens, parent first."""
    assert (await bot.alerts.send("alertmanager", fixture("alertmanager_firing.json"))).status == 200
    await bot.runtime.settle()
    parent = [m for m in bot.sandbox.messages("C0PROBES1") if "past incident" in m.text]
    assert len(parent) == 1
    return bot.sandbox.thread("C0PROBES1", parent[0].ts)


async def test_a_firing_alert_posts_the_memory_of_the_same_alert_first_saying_so(bot: LocalBot) -> None:
    thread = await fire(bot)
    cards = [json.dumps(m.blocks) for m in thread[1:]]
    assert "INC-EDGE-3" in cards[0]  # before INC-OLD-7, whose words are closer
    assert "same alert: ProbeFailure{job=http_checks}" in cards[0]
    assert not any("same alert" in c for c in cards[1:])
    assert any("INC-OLD-7" in c for c in cards[1:])
    assert not any("INC-EDGE-4" in c and "same alert" in c for c in cards)  # same name, other job


async def test_the_memory_of_a_resolved_alert_incident_keeps_its_alerts(bot: LocalBot) -> None:
    await fire(bot)
    await bot.slack.say("C0PROBES1", "looking: the probe target answers 503", user="U2")
    await bot.runtime.settle()
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.command("/incident", "resolve", user_id="U2", channel_id="C0PROBES1")
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    answers = {"root_cause": "the probe target's certificate expired", "resolution": "renewed the certificate"}
    assert (await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U2", answers=answers)).status == 200
    await bot.runtime.settle()
    incident = await bot.runtime.services.incidents.latest_in(bot.sandbox.team_id, "C0PROBES1")
    assert incident is not None
    memory = await bot.runtime.services.memory.get(bot.sandbox.team_id, incident.incident_id)
    labels = fixture("alertmanager_firing.json")["alerts"][0]["labels"]
    assert memory.alerts == [MemoryAlert(name="ProbeFailure", labels=labels)]


def _days_ago(days: int) -> str:
    return (datetime.now(UTC) - timedelta(days=days)).isoformat()


async def test_the_recurrence_line_counts_only_confirmed_memories_of_the_service_in_the_window(
    database_url: str, tmp_path: Path
) -> None:
    probe = {"name": "ProbeFailure", "labels": {"job": "http_checks"}}
    base = {**SAME_ALERT_MEMORY, "alerts": [probe]}
    records = [
        {**base, "incident_id": "INC-R-1", "occurred_at": _days_ago(10)},
        {**base, "incident_id": "INC-R-2", "occurred_at": _days_ago(40)},
        {**base, "incident_id": "INC-R-3", "occurred_at": _days_ago(80), "truth_state": "verification_confirmed"},
        # not counted: unconfirmed, out of the window, another service, another alert
        {**base, "incident_id": "INC-X-1", "occurred_at": _days_ago(5), "truth_state": "unconfirmed_hypothesis",
         "verified_by": None},
        {**base, "incident_id": "INC-X-2", "occurred_at": _days_ago(120)},
        {**base, "incident_id": "INC-X-3", "occurred_at": _days_ago(3), "service": "billing"},
        {**base, "incident_id": "INC-X-4", "occurred_at": _days_ago(3), "alerts": [{"name": "DiskFull"}]},
    ]  # fmt: skip
    async with SlackSandbox(scopes=(*DEFAULT_SCOPES, "channels:manage")) as sandbox:
        async with local_bot(settings_for(database_url, tmp_path), sandbox=sandbox) as bot:
            prepare(bot)
            for record in records:
                await bot.runtime.services.memory.retain(draft_from_json(record, team_id=sandbox.team_id))
            await fire(bot)
            (parent,) = [m for m in bot.sandbox.messages("C0PROBES1") if "past incident" in m.text]
            assert "4th time in 90 days: INC-R-1, INC-R-2, INC-R-3" in parent.text
            assert "4th time in 90 days: INC-R-1, INC-R-2, INC-R-3" in json.dumps(parent.blocks)
            assert "INC-X" not in parent.text


async def test_an_alert_like_nothing_in_memory_says_new(bot: LocalBot) -> None:
    firing = fixture("alertmanager_firing.json")
    alert = firing["alerts"][0]
    alert["labels"] |= {"alertname": "QuasarDriftDetected"}
    alert["annotations"] = {"summary": "Quasar drift detected on zeta-9", "description": "zeta-9 drifts"}
    alert["fingerprint"], firing["groupKey"] = "ffff0000ffff0000", '{}:{alertname="QuasarDriftDetected"}'
    firing["commonLabels"] = alert["labels"]
    firing["commonAnnotations"] = alert["annotations"]
    assert (await bot.alerts.send("alertmanager", firing)).status == 200
    await bot.runtime.settle()
    (line,) = [m for m in bot.sandbox.messages("C0PROBES1") if "Nothing in memory looks like this" in m.text]
    assert "new: nothing like it in memory" in line.text and "time in 90 days" not in line.text
