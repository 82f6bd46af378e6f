"""The weak line in a new incident's channel, end to end through the Slack sandbox: nothing in
memory is strong, a few memories are close, so the bot posts one line naming them (no thread),
each with a button; the button opens "Why this?" with the judgement's numbers. The investigation
reads the strong memories only: a weak one is the responder's to open, not the model's to cite.

Which memories are weak depends on the fitted model (bot/data/recall_judgement.json), refitted
whenever the material changes: the test judges with the shipped coefficients under thresholds
that make the closest memories weak and nothing strong, so it checks what a weak answer looks like."""

from __future__ import annotations

import dataclasses
import json
import math
import re

import pytest

from bot.config import PROJECT_ROOT, Settings
from bot.demo import seed_drafts
from bot.memory.files import draft_from_json
from bot.recall import judgement, pipeline
from bot.replay import load_memories
from bot.sandbox.local_bot import local_bot
from bot.slack import ids
from tests.fakes.anthropic_api import FakeMessagesAPI, ToolAnswer
from tests.test_review_e2e import home_of
from tests.test_slack_e2e import SEED, declare
from tests.test_slack_investigation import ANSWER, investigate


def judge_nothing_strong(monkeypatch: pytest.MonkeyPatch) -> judgement.Judgement:
    """Every recall judged by the shipped lexical model with its cut-offs moved: nothing is strong,
    whatever is close is weak (one model for every query: no semantic, no short-query model)."""
    shipped = judgement.load_judgement()
    weak_only = dataclasses.replace(
        shipped, strong_from=1.0, sure_from=None, weak_from=0.01, semantic=None, short=None, weak=None
    )
    monkeypatch.setattr(pipeline, "load_judgement", lambda: weak_only)
    return weak_only


async def test_close_but_not_strong_memories_get_one_line_whose_buttons_open_why(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    weak_only = judge_nothing_strong(monkeypatch)
    async with local_bot(Settings(database_url=database_url)) as bot:
        bot.sandbox.add_user("U1", "alice")
        bot.sandbox.add_channel("C1", "inc-users-cannot-log-in")  # the incident's title: the same words
        team = bot.sandbox.team_id
        for draft in load_memories(PROJECT_ROOT / "eval" / "incidents", team_id=team) + seed_drafts(team):
            await bot.runtime.services.memory.retain(draft)
        await bot.slack.say("C1", "users cannot log in", user="U1")  # opens the incident
        await bot.runtime.settle()
        posted = [m for m in bot.sandbox.messages("C1") if m.user != "U1"]
        [line] = [m for m in posted if m.text.startswith("Nothing strong in memory")]
        assert not any(m.is_reply for m in posted)  # no thread: the responder decides
        sections = [b for b in line.blocks if b["type"] == "section"]
        assert len(sections) == 1 and "\n" not in sections[0]["text"]["text"]
        buttons = [e for b in line.blocks if b["type"] == "actions" for e in b["elements"]]
        assert 1 <= len(buttons) <= 3 and all(b["action_id"] == ids.MEMORY_WHY for b in buttons)
        named = json.loads(buttons[0]["value"])["id"]
        assert named in sections[0]["text"]["text"] and named in buttons[0]["text"]["text"]
        # "Why this?" shows the judgement's parts: each feature the model weighs with its weighted
        # term, and the intercept, summing to the log-odds of the probability it shows
        numbers = json.loads(buttons[0]["value"])["numbers"]
        terms = {name: float(term) for name, term in re.findall(r"(\w+) -?\d+\.\d+ \(([+-]\d+\.\d+)\)", numbers)}
        intercept = float(re.search(r"intercept \(([+-]\d+\.\d+)\)", numbers).group(1))
        probability = float(re.search(r"probability (\d\.\d+)", numbers).group(1))
        assert set(terms) == set(weak_only.coefficients)
        assert abs(1 / (1 + math.exp(-(sum(terms.values()) + intercept))) - probability) < 0.02

        opened = len(bot.sandbox.calls("views.open"))
        await bot.slack.block_action(ids.MEMORY_WHY, user_id="U1", message=line)
        view = json.dumps((await bot.sandbox.wait_for("views.open", count=opened + 1)).params, ensure_ascii=False)
        assert named in view and "weak: probability" in view
        # the button opens the memory as well as why: the line shows nothing else of it
        memory = await bot.runtime.services.memory.get(team, named)
        assert memory.root_cause and memory.resolution
        assert memory.title.split()[0] in view and "Root cause:" in view and "Fix:" in view
        assert " ".join(memory.root_cause.split()[:3]) in view and " ".join(memory.resolution.split()[:3]) in view


async def test_the_investigation_reads_the_strong_memories_only(
    database_url: str, model_api: FakeMessagesAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same memory, judged weak: named in the one line, never handed to the investigation
    judge_nothing_strong(monkeypatch)
    settings = Settings(database_url=database_url, anthropic_api_key="test-key",
                        anthropic_base_url=model_api.base_url, investigation_timeout_s=30.0)  # fmt: skip
    async with local_bot(settings) as bot:
        bot.sandbox.add_user("U1", "alice")
        bot.sandbox.add_channel("C1", "inc-checkout-timeouts")
        await bot.runtime.services.memory.retain(draft_from_json(SEED, team_id=bot.sandbox.team_id))
        model_api.script(ToolAnswer(ANSWER))
        await declare(bot)
        line = await bot.sandbox.wait_for_message("C1", lambda m: m.text.startswith("Nothing strong in memory"))
        assert "INC-OLD-1" in line.text
        await investigate(bot)
        [request] = model_api.requests
        assert "CURRENT INCIDENT" in request.prompt and "INC-OLD-1" not in request.prompt


async def test_app_home_search_says_a_weak_answer_is_weak_as_recall_does(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same judgement as the thread and /recall: nothing strong, so App Home names the closest
    # memories as closest, each with what it shares, not as memories that look like the query
    judge_nothing_strong(monkeypatch)
    async with local_bot(Settings(database_url=database_url)) as bot:
        bot.sandbox.add_user("U1", "alice")
        await bot.runtime.services.memory.retain(draft_from_json(SEED, team_id=bot.sandbox.team_id))
        home = await home_of(bot, "U1")
        await bot.slack.block_action(ids.HOME_SEARCH, user_id="U1", view=home, value="checkout timeouts")
        await bot.sandbox.wait_for(
            lambda c: c.method == "views.publish" and "Recalled for" in json.dumps(c.params["view"], ensure_ascii=False)
        )
        shown = json.dumps(bot.sandbox.home("U1")["blocks"], ensure_ascii=False)
        assert "INC-OLD-1" in shown and "nothing strong in memory" in shown.lower()
        [found] = [b["text"]["text"] for b in bot.sandbox.home("U1")["blocks"] if b.get("block_id") == "found_1"]
        # what it shares with the query, as the weak line says it (its title names neither word)
        assert "timeouts" in found and "checkout" in found
