"""With semantic recall on, every place a responder meets recall gives a memory the same tier, the
semantic model's (issue 27, item 4): the thread a new incident gets, /recall, App Home's search,
the memories the investigation reads (the strong ones only) and `incident-memory recall --json`.

Through the Slack sandbox, a database with pgvector and the fake embeddings endpoint on the
loopback (tests/fakes/embeddings_api.py: "sessions starved" means what "connection slots
saturated" means, sharing no word). The memory shares no word with the query, so the lexical
model would show nothing: whatever tier a surface gives it is the semantic model's."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re

import pytest

from bot.cli import main
from bot.config import Settings
from bot.memory.files import draft_from_json
from bot.recall import judgement, pipeline
from bot.sandbox.local_bot import LocalBot, local_bot
from bot.slack import ids
from tests.fakes.anthropic_api import FakeMessagesAPI, ToolAnswer
from tests.fakes.embeddings_api import FakeEmbeddingsApi
from tests.test_review_e2e import home_of
from tests.test_semantic_slack import SEED
from tests.test_slack_e2e import declare
from tests.test_slack_investigation import ANSWER, investigate

QUERY = "Sessions starved"


async def recall_in(bot: LocalBot, text: str) -> str:
    """What /recall answers in the incident's channel (the parent and every reply)."""
    answered = len(bot.sandbox.calls("response_url"))
    assert (await bot.slack.command("/recall", text, user_id="U1", channel_id="C1")).status == 200
    parent = (await bot.sandbox.wait_for("response_url", count=answered + 1)).params
    shown = re.search(r"(\d+) past incidents? looks?", json.dumps(parent))  # then one message per memory
    await bot.sandbox.wait_for("response_url", count=answered + 1 + (int(shown[1]) if shown else 0))
    return json.dumps([c.params for c in bot.sandbox.calls("response_url")[answered:]], ensure_ascii=False)


async def searched_in_home(bot: LocalBot, text: str) -> str:
    home = await home_of(bot, "U1")
    await bot.slack.block_action(ids.HOME_SEARCH, user_id="U1", view=home, value=text)
    await bot.sandbox.wait_for(
        lambda c: c.method == "views.publish" and "Recalled for" in json.dumps(c.params["view"], ensure_ascii=False)
    )
    return json.dumps(bot.sandbox.home("U1")["blocks"], ensure_ascii=False)


async def cli_recall(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], team: str,
                     url: str | None) -> list[dict]:  # fmt: skip
    """`incident-memory recall Sessions starved --json --all`, with EMBEDDINGS_URL set or not."""
    if url is None:
        monkeypatch.delenv("EMBEDDINGS_URL", raising=False)
    else:
        monkeypatch.setenv("EMBEDDINGS_URL", url)
        monkeypatch.setenv("EMBEDDINGS_MODEL", "fake-a")
    capsys.readouterr()
    code = await asyncio.to_thread(main, ["recall", *QUERY.split(), "--team", team, "--json", "--all"])
    assert code == 0
    return json.loads(capsys.readouterr().out)


async def every_surface(
    database_url: str, embeddings_api: FakeEmbeddingsApi, model_api: FakeMessagesAPI,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> dict[str, object]:  # fmt: skip
    """The memory as each surface shows it for the same words, semantic recall on."""
    settings = Settings(database_url=database_url, embeddings_url=embeddings_api.url, embeddings_model="fake-a",
                        embeddings_timeout_s=5.0, anthropic_api_key="test-key", anthropic_base_url=model_api.base_url,
                        investigation_timeout_s=30.0)  # fmt: skip
    seen: dict[str, object] = {}
    async with local_bot(settings) as bot:
        bot.sandbox.add_user("U1", "alice")
        bot.sandbox.add_channel("C1", "inc-orders")
        team = bot.sandbox.team_id
        await bot.runtime.services.memory.retain(draft_from_json(SEED, team_id=team))
        await bot.runtime.services.semantic.embed_pending()
        await declare(bot, title=QUERY)
        # the answer the incident's channel gets when it opens: a thread, one line, or nothing
        first = await bot.sandbox.wait_for_message(
            "C1", lambda m: m.user != "U1" and ("past incident" in m.text or m.text.startswith("Nothing strong"))
        )
        seen["thread"] = "strong" if "past incident" in first.text else "weak"
        answer = await recall_in(bot, QUERY)
        seen["/recall"] = (
            "weak" if "Nothing strong in memory" in answer else "strong" if "past incident" in answer else "-"
        )
        assert "INC-OLD-1" in answer
        home = await searched_in_home(bot, QUERY)
        assert "INC-OLD-1" in home
        seen["App Home"] = "weak" if "nothing strong in memory" in home.lower() else "strong"
        model_api.script(ToolAnswer(ANSWER))
        await investigate(bot)
        [request] = model_api.requests
        seen["investigation reads it"] = "INC-OLD-1" in request.prompt
    [match] = [m for m in await cli_recall(monkeypatch, capsys, team, embeddings_api.url)
               if m["memory"]["incident_id"] == "INC-OLD-1"]  # fmt: skip
    seen["recall --json"] = match["tier"]
    # without meaning, the lexical model: the words are not the memory's, nothing to show
    seen["lexical recall --json"] = [m["tier"] for m in await cli_recall(monkeypatch, capsys, team, None)]
    return seen


async def test_a_memory_found_by_meaning_is_strong_on_every_surface(
    vector_database_url: str, embeddings_api: FakeEmbeddingsApi, model_api: FakeMessagesAPI,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("DATABASE_URL", vector_database_url)
    seen = await every_surface(vector_database_url, embeddings_api, model_api, monkeypatch, capsys)
    assert seen == {"thread": "strong", "/recall": "strong", "App Home": "strong", "investigation reads it": True,
                    "recall --json": "strong", "lexical recall --json": []}  # fmt: skip


async def test_a_memory_the_semantic_model_finds_only_close_is_weak_on_every_surface(
    vector_database_url: str, embeddings_api: FakeEmbeddingsApi, model_api: FakeMessagesAPI,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    # the semantic model's cut-offs moved so that nothing is strong and whatever is close is weak;
    # the lexical models as shipped: a surface recalling without meaning would show nothing
    shipped = judgement.load_judgement()
    assert shipped.semantic is not None
    weak_only = dataclasses.replace(shipped.semantic, strong_from=1.0, weak_from=0.01)
    monkeypatch.setattr(pipeline, "load_judgement", lambda: dataclasses.replace(shipped, semantic=weak_only))
    monkeypatch.setenv("DATABASE_URL", vector_database_url)
    seen = await every_surface(vector_database_url, embeddings_api, model_api, monkeypatch, capsys)
    assert seen == {"thread": "weak", "/recall": "weak", "App Home": "weak", "investigation reads it": False,
                    "recall --json": "weak", "lexical recall --json": []}  # fmt: skip


async def test_a_line_the_weak_model_raises_is_the_same_weak_line_on_every_surface(
    vector_database_url: str, embeddings_api: FakeEmbeddingsApi, model_api: FakeMessagesAPI,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    # the semantic model alone would show nothing; its weak model (Judgement.weak, a model file's "weak")
    # names the memory in the weak line: every surface must read the line off the weak model
    shipped = judgement.load_judgement()
    assert shipped.semantic is not None
    silent = dataclasses.replace(shipped.semantic, strong_from=1.0, weak_from=1.0)
    paired = dataclasses.replace(silent, weak=dataclasses.replace(shipped.semantic, strong_from=1.0, weak_from=0.01))
    monkeypatch.setattr(pipeline, "load_judgement", lambda: dataclasses.replace(shipped, semantic=paired))
    monkeypatch.setenv("DATABASE_URL", vector_database_url)
    seen = await every_surface(vector_database_url, embeddings_api, model_api, monkeypatch, capsys)
    assert seen == {"thread": "weak", "/recall": "weak", "App Home": "weak", "investigation reads it": False,
                    "recall --json": "weak", "lexical recall --json": []}  # fmt: skip
