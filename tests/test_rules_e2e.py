"""A rule end to end: proposed and replayed from the command line, ignored by the bot until a
reviewer approves it, then shown first in the recall thread of a matching incident (and in its
investigation), and ignored again after an unapproved edit. Signed requests over HTTP into the
real app, Slack's Web API replaced by the sandbox, memory in a real PostgreSQL."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import yaml

from bot.cli import main
from bot.config import Settings
from bot.memory.files import draft_from_json
from bot.models import TruthState
from bot.recall import judgement, pipeline
from bot.sandbox.local_bot import LocalBot, local_bot
from tests.rules_bank import BANK, REJECTED
from tests.test_rules import RULE_ID
from tests.test_slack_e2e import settle

HEADLINE = f"Known pattern {RULE_ID} (reviewed by maya on "
FROM = "from INC-101, INC-102, INC-103, INC-104)"


@pytest.fixture
async def bot(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LocalBot]:
    rules = tmp_path / "rules"
    async with local_bot(Settings(database_url=database_url, rules_dir=rules)) as running:
        team = running.sandbox.team_id
        running.sandbox.add_user("U1", "alice")
        for n in range(1, 5):
            running.sandbox.add_channel(f"C{n}", f"inc-payments-{n}")
        memory = running.runtime.services.memory
        for record in BANK:
            await memory.retain(draft_from_json(record, team_id=team))
        await memory.transition(team, REJECTED, TruthState.REJECTED, actor="maya", reason="not a leak")
        # the team's CLI, on the same bank and rules folder (its own event loop, as a shell would run it)
        monkeypatch.setenv("DATABASE_URL", database_url)
        monkeypatch.setenv("RULES_DIR", str(rules))
        monkeypatch.setenv("INCIDENT_MEMORY_TEAM", team)
        yield running


async def cli(*argv: str) -> None:
    assert await asyncio.to_thread(main, list(argv)) == 0, argv


async def declare_and_read_thread(bot: LocalBot, channel: str) -> list[dict]:
    """Declare a payments pool incident in `channel`; the thread's replies once they are all in."""
    opened = len(bot.sandbox.calls("views.open"))
    assert (await bot.slack.command("/incident", "declare", user_id="U1", channel_id=channel)).status == 200
    await bot.sandbox.wait_for("views.open", count=opened + 1, timeout=10)
    answers = {
        "title": "Payments: connection pool exhausted, checkout failing",
        "service": "payments",
        "severity": "SEV2",
        "error_message": "HikariPool-1 - Connection is not available, request timed out after 30001ms.",
    }
    submitted = await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers=answers)
    assert submitted.status == 200 and await settle(bot, submitted) == ""
    parent = await bot.sandbox.wait_for_message(
        channel, lambda m: "past incident" in m.text and m.thread_ts in (None, m.ts)
    )
    shown = int(parent.text.split()[0])  # "5 past incidents look like this one"
    await bot.sandbox.wait_for(
        lambda c: len([m for m in bot.sandbox.thread(channel, parent.ts) if "Past incident" in m.text]) >= shown,
        timeout=10,
    )
    return [json.dumps({"text": m.text, "blocks": m.blocks}, ensure_ascii=False)
            for m in bot.sandbox.thread(channel, parent.ts) if m.ts != parent.ts]  # fmt: skip


async def test_the_bot_shows_a_rule_only_while_it_is_approved(bot: LocalBot, tmp_path: Path) -> None:
    await cli("rules", "propose")
    await cli("rules", "replay")
    rule_file = tmp_path / "rules" / f"{RULE_ID}.yaml"
    assert read_replay(rule_file)["hits"] == ["INC-101", "INC-102", "INC-103", "INC-104"]

    # proposed and replayed, not reviewed: the bot ignores it
    replies = await declare_and_read_thread(bot, "C1")
    assert replies and not any("Known pattern" in r for r in replies)

    # approved: the first reply of a matching incident's thread, with its checks and dead ends
    await cli("rules", "approve", RULE_ID, "--by", "maya")
    replies = await declare_and_read_thread(bot, "C2")
    first = replies[0]
    assert HEADLINE in first and FROM in first
    assert "idle in transaction sessions" in first and "Restart the payments pods" in first
    assert "the pool drained again in minutes" in first and "not what caused this one" in first
    assert all("Known pattern" not in r for r in replies[1:])  # once, then the memories

    # the investigation of that incident shows it too, as context
    assert (await bot.slack.command("/investigate", user_id="U1", channel_id="C2")).status == 200
    update = await bot.sandbox.wait_for("chat.update", timeout=15)
    answer = json.dumps(update.params, ensure_ascii=False)
    assert HEADLINE in answer and "not a verdict about this incident" in answer and f"`{RULE_ID}`" in answer

    # an edit to what it matches, not reviewed again: ignored at once
    rule = yaml.safe_load(rule_file.read_text())
    rule["match"]["services"] = ["payments", "orders"]
    rule_file.write_text(yaml.safe_dump(rule, sort_keys=False))
    replies = await declare_and_read_thread(bot, "C3")
    assert replies and not any("Known pattern" in r for r in replies)

    # replayed at version 2 (approval cleared): still ignored until approved again
    await cli("rules", "replay", RULE_ID)
    replies = await declare_and_read_thread(bot, "C4")
    assert not any("Known pattern" in r for r in replies)


async def test_a_known_pattern_beside_memories_that_are_only_close_keeps_the_weak_line(
    bot: LocalBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    # nothing strong (thresholds and rules that make the closest memories weak), an approved rule
    # that fires: the channel gets the weak line naming the closest, as /recall and App Home name
    # them, with the pattern in its thread; never "Nothing in memory looks like this" over them
    await cli("rules", "propose")
    await cli("rules", "replay")
    await cli("rules", "approve", RULE_ID, "--by", "maya")
    weak_only = dataclasses.replace(judgement.load_judgement(), strong_from=1.0, sure_from=None, weak_from=0.01)
    monkeypatch.setattr(pipeline, "load_judgement", lambda: dataclasses.replace(weak_only, semantic=None, short=None))
    monkeypatch.setattr(pipeline, "rule_of", lambda *_: (judgement.BELOW, None))
    assert (await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C1")).status == 200
    await bot.sandbox.wait_for("views.open", timeout=10)
    answers = {"title": "Payments: connection pool exhausted, checkout failing", "service": "payments",
               "error_message": "HikariPool-1 - Connection is not available, request timed out after 30001ms."}  # fmt: skip
    submitted = await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers=answers)
    assert submitted.status == 200 and await settle(bot, submitted) == ""
    line = await bot.sandbox.wait_for_message("C1", lambda m: m.text.startswith("Nothing strong in memory"))
    assert "INC-10" in line.text
    await bot.sandbox.wait_for(lambda c: any(HEADLINE in m.text for m in bot.sandbox.thread("C1", line.ts)))
    assert not any("Nothing in memory looks like this" in m.text for m in bot.sandbox.messages("C1"))


def read_replay(path: Path) -> dict:
    return yaml.safe_load(path.read_text())["replay"]
