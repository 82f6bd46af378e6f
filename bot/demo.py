"""`incident-memory demo`: the whole product on the embedded defaults — no Slack, no API key.

It drives the real app over HTTP through the Slack sandbox, exactly as the end-to-end tests do,
in a throwaway database on the configured server (the embedded one by default), so your own
memory is never touched. It prints what a person would see in Slack (or, with --json, the same
as JSON). Whatever ends it — the last step, an error, Ctrl-C, SIGTERM — the throwaway database is
dropped and the embedded PostgreSQL stopped (unless another process still uses it).
"""

from __future__ import annotations

import json
import secrets
import tempfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from rich.console import Console

from bot.config import Settings
from bot.memory.database import database_url, throwaway_database
from bot.memory.files import draft_from_json
from bot.models import MemoryDraft
from bot.sandbox.local_bot import LocalBot, local_bot
from bot.sandbox.model import Message
from bot.slack import ids
from bot.slack.terminal import message_to_text, print_message, print_view, view_to_text

CHANNEL, CHANNEL_NAME = "C0DEMO1", "inc-checkout-timeouts"
FOLLOW_UP, FOLLOW_UP_NAME = "C0DEMO2", "inc-checkout-latency"
RESPONDER, ONCALL = "U0DEMOSRE", "U0DEMOLEAD"
TITLE = "Checkout errors return with database timeouts during peak traffic"

# What the responder adds to the drafted modal: the draft already holds the failed attempts
# (and their why) from what was said in the channel; these are what the channel did not say.
RESOLUTION = {
    "root_cause": "The new checkout retry loop held its database connection across calls to the payment "
    "provider; under peak traffic the pool ran dry.",
    "resolution": "Released the connection before calling the provider (finally block), redeployed checkout.",
    "lesson": "A pool that empties under load is usually holding connections too long: look before adding capacity.",
    "verified": ["verified"],
    "verification_note": "No pool timeouts through the next two evening peaks.",
}
# Step 8: Alertmanager's webhook (payload version 4) opens an incident in the routed channel.
ALERT_CHANNEL, ALERT_CHANNEL_NAME = "C0DEMO3", "inc-auth-gateway"
ALERT_ROUTES = 'routes:\n  - match: {service: auth}\n    channel: "#inc-auth-gateway"\n    severity: SEV2\n'
_ALERT_LABELS = {"alertname": "TLSCertificateExpiring", "service": "auth", "instance": "auth-gateway:443",
                 "severity": "critical"}  # fmt: skip
ALERT = {
    "version": "4", "status": "firing", "receiver": "incident-memory", "truncatedAlerts": 0,
    "groupKey": '{}:{alertname="TLSCertificateExpiring"}', "groupLabels": {"alertname": "TLSCertificateExpiring"},
    "commonLabels": _ALERT_LABELS, "commonAnnotations": {}, "externalURL": "http://alertmanager.example:9093",
    "alerts": [{
        "status": "firing", "labels": _ALERT_LABELS, "fingerprint": "4f1c2a9e7b3d5c11",
        "annotations": {"summary": "TLS certificate on the auth gateway expires in 2 days",
                        "description": "Mobile logins will fail with certificate errors once it expires."},
        "startsAt": "2026-03-02T09:00:00Z", "endsAt": "0001-01-01T00:00:00Z",
        "generatorURL": "http://prometheus.example:9090/graph?g0.expr=probe_ssl_earliest_cert_expiry",
    }],
}  # fmt: skip
CHANNEL_TALK = (
    (ONCALL, "pool at 20/20 on every checkout pod, requests queueing"),
    (RESPONDER, "restarted the checkout pods, pool filled again after 20 minutes"),
    (ONCALL, "raised the pool size from 20 to 50, still timing out"),
    (
        RESPONDER,
        "found it in pg_stat_activity: idle in transaction sessions from checkout, all waiting on the provider",
    ),
)


class Transcript:
    """What the demo shows: printed as it happens, or kept and printed as JSON at the end."""

    def __init__(self, *, json_mode: bool) -> None:
        self.json_mode = json_mode
        self.console = Console(highlight=False)
        self.steps: list[dict[str, Any]] = []

    def step(self, title: str) -> None:
        self.steps.append({"step": title, "shown": []})
        if not self.json_mode:
            self.console.rule(title, style="bold")

    def line(self, text: str) -> None:
        self.steps[-1]["shown"].append({"line": text})
        if not self.json_mode:
            self.console.print(text, markup=False)  # user text: `[human_confirmed]` prints as typed

    def message(self, message: dict[str, Any], title: str) -> None:
        self.steps[-1]["shown"].append({"from": title, "message": message_to_text(message)})
        if not self.json_mode:
            print_message(message, console=self.console, title=title)

    def view(self, view: dict[str, Any]) -> None:
        self.steps[-1]["shown"].append({"modal": view_to_text(view)})
        if not self.json_mode:
            print_view(view, console=self.console)

    def finish(self, ok: bool) -> None:
        if self.json_mode:
            print(json.dumps({"ok": ok, "steps": self.steps}, indent=2, ensure_ascii=False))


def seed_drafts(team_id: str) -> list[MemoryDraft]:
    raw = json.loads(resources.files("bot").joinpath("data/seed_memories.json").read_text(encoding="utf-8"))
    return [draft_from_json(item, team_id=team_id) for item in raw]


def _thread(bot: LocalBot, channel: str, parent: Message) -> Iterator[Message]:
    yield from bot.sandbox.thread(channel, parent.ts)


def _as_message(m: Message) -> dict[str, Any]:
    return {"text": m.text, "blocks": m.blocks or []}


async def _recall_thread(bot: LocalBot, channel: str) -> Message:
    parent = await bot.sandbox.wait_for_message(
        channel, lambda m: " like this" in m.text and m.thread_ts in (None, m.ts)
    )
    await bot.runtime.settle()
    return bot.sandbox.message(channel, parent.ts)


async def _declare(bot: LocalBot, channel: str, answers: dict[str, Any]) -> None:
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.command("/incident", "declare", user_id=RESPONDER, channel_id=channel)
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    await bot.slack.view_submission(bot.sandbox.last_view(), user_id=RESPONDER, answers=answers)


async def run_demo(settings: Settings, *, json_mode: bool = False) -> int:
    shown = Transcript(json_mode=json_mode)
    admin_dsn = await database_url(settings)
    with tempfile.TemporaryDirectory(prefix="im-demo-") as folder:
        routes = Path(folder) / "alert-routes.yml"
        routes.write_text(ALERT_ROUTES)
        alerting = {"alert_routes": routes, "alerts_token": secrets.token_hex(16)}
        async with throwaway_database(admin_dsn, settings.migrations_dir, prefix="im_demo") as dsn:
            async with local_bot(settings.model_copy(update={"database_url": dsn, **alerting})) as bot:
                ok = await _steps(bot, shown)
    shown.finish(ok)
    return 0 if ok else 1


async def _steps(bot: LocalBot, shown: Transcript) -> bool:
    sandbox = bot.sandbox
    sandbox.add_user(RESPONDER, "sam.sre")
    sandbox.add_user(ONCALL, "maya.oncall")
    sandbox.add_channel(CHANNEL, CHANNEL_NAME)
    sandbox.add_channel(FOLLOW_UP, FOLLOW_UP_NAME)
    sandbox.add_channel(ALERT_CHANNEL, ALERT_CHANNEL_NAME)

    shown.step("1. Past incidents in memory")
    for draft in seed_drafts(sandbox.team_id):
        outcome = await bot.runtime.services.memory.retain(draft)
        shown.line(f"  {outcome.status.value:<9} {draft.incident_id}  [{draft.truth_state.value}]  {draft.title}")

    shown.step(f"2. /incident declare in #{CHANNEL_NAME}")
    await _declare(bot, CHANNEL, {"title": TITLE, "service": "payments", "severity": "SEV2",
                                  "symptoms": "Checkout requests fail with database timeouts; p99 at 30 s."})  # fmt: skip
    parent = await _recall_thread(bot, CHANNEL)
    for i, message in enumerate(_thread(bot, CHANNEL, parent)):
        shown.message(_as_message(message), "incident-memory" if i == 0 else "  ↳ in thread")

    shown.step("3. People talk in the channel (the CURRENT evidence)")
    for user, text in CHANNEL_TALK:
        await bot.slack.say(CHANNEL, text, user=user)
        shown.line(f"  <{user}> {text}")
    await bot.runtime.settle()

    shown.step("4. Investigate (offline investigator: no API key)")
    await bot.slack.block_action("incident_investigate", user_id=RESPONDER, message=parent)
    update = await sandbox.wait_for("chat.update", timeout=30)
    shown.message(update.params, "incident-memory · investigation")

    shown.step('5. "all clear" — the bot asks, once, for what was learned')
    await bot.slack.say(CHANNEL, "deploy is out, all clear: no pool timeouts for 30 minutes", user=ONCALL)
    nudge = await sandbox.wait_for_message(CHANNEL, lambda m: ids.NUDGE_SAVE in json.dumps(m.blocks or []))
    shown.message(_as_message(nudge), "incident-memory")

    shown.step("6. Save what we learned: the modal opens at once, then drafts itself from the channel")
    opened = len(sandbox.calls("views.open"))
    await bot.slack.block_action(ids.NUDGE_SAVE, user_id=RESPONDER, message=nudge)
    view_id = (await sandbox.wait_for("views.open", count=opened + 1)).response["view"]["id"]
    await sandbox.wait_for(lambda c: c.method == "views.update" and c.params.get("view_id") == view_id, timeout=30)
    shown.view(sandbox.view(view_id))
    answer = await bot.slack.view_submission(sandbox.view(view_id), user_id=RESPONDER, answers=RESOLUTION)
    if answer.body:
        shown.line(f"the modal stayed open: {answer.body}")
        return False
    confirmation = await sandbox.wait_for_message(CHANNEL, lambda m: "retry loop held" in json.dumps(m.blocks or []))
    shown.message(_as_message(confirmation), "incident-memory")
    saved = (await bot.runtime.services.memory.list(sandbox.team_id, limit=1)).memories[0]
    if saved.drafting is not None:
        origins = ", ".join(f"{field} {origin.value}" for field, origin in saved.drafting.fields.items())
        shown.line(f"  kept with the memory: {origins}")

    shown.step(f"7. A week later, a similar incident in #{FOLLOW_UP_NAME}")
    await _declare(bot, FOLLOW_UP, {"title": "Checkout latency: database connections held during provider calls",
                                    "service": "payments"})  # fmt: skip
    parent2 = await _recall_thread(bot, FOLLOW_UP)
    thread = list(_thread(bot, FOLLOW_UP, parent2))
    for i, message in enumerate(thread[:2]):  # the parent and the first memory: the one saved in step 6
        shown.message(_as_message(message), "incident-memory" if i == 0 else "  ↳ in thread")
    if len(thread) > 2:
        rest = len(thread) - 2
        shown.line(f"  … and {rest} more past incident{'s' if rest != 1 else ''} in the thread, as in step 2")

    shown.step(f"8. An Alertmanager alert opens an incident in #{ALERT_CHANNEL_NAME}, with recall")
    answer = await bot.alerts.send("alertmanager", ALERT)
    shown.line(f"  POST /alerts/alertmanager → {answer.status}")
    parent3 = await _recall_thread(bot, ALERT_CHANNEL)
    alert_post = next(m for m in sandbox.messages(ALERT_CHANNEL) if m.text.startswith("Alertmanager:"))
    shown.message(_as_message(alert_post), "incident-memory")
    for i, message in enumerate(list(_thread(bot, ALERT_CHANNEL, parent3))[:2]):
        shown.message(_as_message(message), "incident-memory" if i == 0 else "  ↳ in thread")

    shown.step("Done")
    shown.line(f"{len(sandbox.calls())} Slack API calls went through the sandbox; nothing left this machine.")
    return True
