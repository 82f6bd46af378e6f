"""`import --with-model`: the real Anthropic client against a local fake of the Messages API.
What the model says is kept only where a quote from the document backs it; nothing is sent
without the flag."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.models import TruthState
from tests.fakes.anthropic_api import FakeMessagesAPI, Status, TextAnswer, ToolAnswer
from tests.test_import import cli, statuses  # noqa: F401 - the `cli` fixture, shared

FIXTURES = Path(__file__).parent / "fixtures" / "postmortems"


@pytest.fixture
async def fake_api(monkeypatch: pytest.MonkeyPatch):
    async with FakeMessagesAPI() as api:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.base_url)
        monkeypatch.setenv("INVESTIGATION_TIMEOUT_S", "5")
        yield api


@pytest.fixture
def postmortem(tmp_path: Path) -> Path:
    path = tmp_path / "cert-expiry.txt"
    shutil.copy(FIXTURES / "plain-text-export.txt", path)
    return path


MODEL_ANSWER = {
    "root_cause": {
        "value": "The certificate renewal job failed for 30 days because its DNS API token was revoked.",
        "quote": "The renewal job had been failing silently for 30 days after a DNS provider API token was revoked.",
    },
    "service": {"value": "api-gateway", "quote": "Service: api-gateway"},  # not what the document says
    "occurred_at": {"value": "2023-04-17", "quote": "Date: 2023-04-17"},
    "failed_attempts": [
        {
            "action": "Restarted the API pods",
            "why_it_failed": "still failing",
            "quote": "Restarted the API pods - still failing",
        },
        {"action": "Rolled back the last deploy", "why_it_failed": "", "quote": "00:30 Rolled back the last deploy"},
    ],
}


async def test_fields_backed_by_a_quote_are_kept_and_the_rest_dropped(cli, store, fake_api, postmortem) -> None:  # noqa: F811
    fake_api.script(ToolAnswer(MODEL_ANSWER, tool_name="record_postmortem"))
    code, out, err = await cli("import", "--with-model", str(postmortem))
    assert code == 0, out + err
    assert "model-extracted: root_cause, occurred_at, failed_attempts" in out
    assert "dropped without a quote from the document: service, failed_attempts (1 of 2)" in out

    [request] = fake_api.requests
    assert "The renewal job had been failing silently" in request.prompt
    assert request.body["tool_choice"] == {"type": "tool", "name": "record_postmortem"}

    memory = await store.get("local", "pm-cert-expiry")
    assert memory.root_cause == MODEL_ANSWER["root_cause"]["value"]
    assert memory.service == "public-api"  # the offline reading: the model's invented one was dropped
    assert [a.action for a in memory.failed_attempts] == ["Restarted the API pods"]
    assert memory.truth_state is TruthState.UNCONFIRMED_HYPOTHESIS
    assert memory.provenance.extractor.startswith("model:") and "markdown-sections/2" in memory.provenance.extractor
    assert memory.provenance.fields["root_cause"].endswith(
        "quoting 'The renewal job had been failing silently for 30 days after a DNS provider API token was revoked.'"
    )
    assert memory.provenance.fields["resolution"] == "section 'Resolution'"  # the offline reader's

    code, out, _ = await cli("show", "pm-cert-expiry")
    assert "by model:" in out and "root_cause: claude" in out


async def test_without_the_flag_nothing_is_sent(cli, store, fake_api, postmortem) -> None:  # noqa: F811
    code, out, _ = await cli("import", str(postmortem))
    assert code == 0 and statuses(out) == {"cert-expiry.txt": "imported"}
    assert fake_api.requests == []
    assert (await store.get("local", "pm-cert-expiry")).provenance.extractor == "markdown-sections/2"


@pytest.mark.parametrize(
    "reply",
    [
        TextAnswer("It was DNS."),
        Status(400),
        ToolAnswer({"root_cause": {"value": "DNS", "quote": "it was always DNS"}}, tool_name="record_postmortem"),
    ],
)
async def test_a_model_that_fails_or_says_nothing_backed_leaves_the_offline_reading(
    cli, store, fake_api, postmortem, reply
) -> None:  # noqa: F811
    fake_api.script(reply)
    code, out, err = await cli("import", "--with-model", str(postmortem))
    assert code == 0, out + err
    assert "offline reading only:" in out
    memory = await store.get("local", "pm-cert-expiry")
    assert memory.root_cause.startswith("The renewal job had been failing silently")
    assert memory.provenance.extractor == "markdown-sections/2"


async def test_with_model_but_no_key_is_refused_before_anything_is_written(cli, store, monkeypatch, postmortem) -> None:  # noqa: F811
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    code, _, err = await cli("import", "--with-model", str(postmortem))
    assert code == 1 and "--with-model needs ANTHROPIC_API_KEY" in err
    assert (await store.list("local")).total == 0


async def test_a_csv_is_imported_row_by_row_and_never_sent_to_the_model(cli, store, fake_api, tmp_path) -> None:  # noqa: F811
    table = tmp_path / "incidents.csv"
    table.write_text(
        "title,service,root_cause\n"
        "Checkout timeouts,checkout,pool exhausted by a retry loop\n"
        "Search stopped indexing,search,disk full on the data node\n",
        encoding="utf-8",
    )
    code, out, err = await cli("import", "--with-model", str(table))
    assert code == 0, out + err
    assert fake_api.requests == []
    page = await store.list("local", limit=10)
    assert sorted(m.title for m in page.memories) == ["Checkout timeouts", "Search stopped indexing"]
