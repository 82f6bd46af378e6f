"""Recurring alerts at a glance, end to end: App Home (the sandbox's views.publish) and
`incident-memory report` count an alert that fired for two or more confirmed incidents of one
service within RECURRENCE_WINDOW_DAYS, newest first; older, unconfirmed, other-service and
private-elsewhere memories are not counted."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.config import Settings
from bot.models import MemoryAlert, MemoryDraft, TruthState, utcnow
from bot.sandbox.local_bot import LocalBot, local_bot
from tests.test_review_e2e import home_of, text

TEAM = "T0SANDBOX"
ERRORS = [MemoryAlert(name="HighErrorRate", labels={"service": "payments"})]


def memory(incident_id: str, days_ago: int, **fields: Any) -> MemoryDraft:
    base = dict(
        incident_id=incident_id, team_id=TEAM, title=f"Payments 500s ({incident_id})", service="payments",
        root_cause="connection leak", resolution="released connections", alerts=ERRORS,
        occurred_at=utcnow() - timedelta(days=days_ago), truth_state=TruthState.HUMAN_CONFIRMED, verified_by="maya",
    )  # fmt: skip
    return MemoryDraft(**(base | fields))


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    async with local_bot(Settings(database_url=database_url, recurrence_window_days=90)) as running:
        running.sandbox.add_user("U1", "maya")
        running.sandbox.add_channel("C2", "inc-secret", is_private=True, members=())
        store = running.runtime.services.memory
        for draft in (
            memory("INC-A", 40),
            memory("INC-B", 3),
            memory("INC-C", 60, truth_state=TruthState.VERIFICATION_CONFIRMED),
            memory("INC-OLD", 200),  # outside the window
            memory("INC-UNCONF", 1, truth_state=TruthState.UNCONFIRMED_HYPOTHESIS, verified_by=None),
            memory("INC-PRIV", 2, is_private=True, channel_id="C2"),  # maya is not in C2
            memory("INC-DISK", 5, alerts=[MemoryAlert(name="DiskFull")]),  # fired once
            memory("INC-CHK", 5, service="checkout"),  # the same alert for another service
        ):
            await store.retain(draft)
        yield running


async def test_app_home_names_the_alert_that_recurs_and_counts_only_confirmed_visible_incidents(bot: LocalBot) -> None:
    home = text(await home_of(bot, "U1"))
    assert "Recurring alerts" in home
    assert "HighErrorRate on payments: 3 times in 90 days: INC-B, INC-A, INC-C" in home
    for left_out in ("INC-OLD", "INC-UNCONF", "INC-PRIV", "DiskFull on", "HighErrorRate on checkout"):
        assert left_out not in home.split("Recurring alerts")[1].split('"block_id"')[0], left_out


async def test_the_report_lists_recurring_alerts(
    bot: LocalBot, database_url: str, tmp_path: Path, monkeypatch, capsys
) -> None:  # noqa: ANN001
    monkeypatch.setenv("DATABASE_URL", database_url)
    page = tmp_path / "report.html"
    assert await asyncio.to_thread(main, ["report", "--team", TEAM, "-o", str(page), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    # the report sees every memory, the private one too (it is the operator's page, as before)
    assert figures["recurring_alerts"] == [
        {
            "alert": "HighErrorRate",
            "service": "payments",
            "times": 4,
            "incidents": ["INC-PRIV", "INC-B", "INC-A", "INC-C"],
        }
    ]
    assert figures["recurring_alerts_window_days"] == 90
    html = page.read_text()
    assert "Recurring alerts" in html and "<code>HighErrorRate</code>" in html and "INC-B, INC-A" in html
