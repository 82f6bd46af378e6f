"""Signed requests to the app's HTTP endpoint, shaped and signed exactly as Slack sends them.

Slash commands go as a form; events as JSON; block actions, view submissions and view closes
as a form with one `payload` field holding JSON. Every request carries `X-Slack-Request-Timestamp`
and `X-Slack-Signature` (`v0=` + HMAC-SHA256 over `v0:{timestamp}:{body}`, made by slack_sdk's
own `SignatureVerifier.generate_signature`); `Signing.forged()` and `Signing.stale()` (bot/sandbox/signing.py) break
them on purpose.

Given the sandbox (`SignedSender(url, secret, sandbox=sandbox)`), trigger ids and response URLs
are ones the sandbox issued and checks, team and bot ids match its `auth.test`, `say()` puts the
human's message into the sandbox's history before sending its event, and a click on a sandbox
message or modal finds the real button by its `action_id`.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, Final
from urllib.parse import urlencode

import aiohttp
from slack_sdk.signature import SignatureVerifier

from bot.sandbox.model import Message
from bot.sandbox.payloads import (
    clicked_action,
    form_values,
    message_changed_event,
    message_deleted_event,
    message_event,
    now_ts,
    submitted_view,
)
from bot.sandbox.signing import VALID, SentRequest, SignedResponse, Signing
from bot.sandbox.slack_api import SlackSandbox
from bot.sandbox.workspace import DEFAULT_APP_ID, DEFAULT_BOT_USER_ID, DEFAULT_TEAM_ID

VERIFICATION_TOKEN: Final = "sandbox-verification-token"  # legacy field Slack still sends


class SignedSender:
    """Sends Slack's requests to the app at `url` (its `/slack/events` endpoint), signed."""

    def __init__(
        self,
        url: str,
        signing_secret: str,
        *,
        sandbox: SlackSandbox | None = None,
        team_id: str = DEFAULT_TEAM_ID,
        team_domain: str = "sandbox",
        api_app_id: str = DEFAULT_APP_ID,
        bot_user_id: str = DEFAULT_BOT_USER_ID,
        session: aiohttp.ClientSession | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.url = url
        self.sandbox = sandbox
        self.team_id = sandbox.team_id if sandbox else team_id
        self.team_domain = team_domain
        self.api_app_id = sandbox.app_id if sandbox else api_app_id
        self.bot_user_id = sandbox.bot_user_id if sandbox else bot_user_id
        self._secret = signing_secret
        self._session = session
        self._owns_session = session is None
        self._clock = clock

    async def close(self) -> None:
        if self._owns_session and self._session is not None:
            await self._session.close()
        self._session = None

    async def __aenter__(self) -> SignedSender:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    # ---- the wire --------------------------------------------------------------------------

    def signed_headers(self, body: str | bytes, signing: Signing = VALID) -> dict[str, str]:
        timestamp = str(int(self._clock()) - signing.age)
        secret = self._secret + "-forged" if signing.forge else self._secret
        if isinstance(body, bytes) or not secret:
            # any bytes, UTF-8 or not, and any key, the empty one included, as a hostile sender may sign them
            raw = body if isinstance(body, bytes) else body.encode()
            digest = hmac.new(secret.encode(), b"v0:" + timestamp.encode() + b":" + raw, hashlib.sha256).hexdigest()
            signature: str | None = "v0=" + digest
        else:
            signature = SignatureVerifier(secret).generate_signature(timestamp=timestamp, body=body)
        assert signature is not None  # only None without a timestamp
        return {"X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": signature}

    async def post(
        self,
        body: str | bytes,
        *,
        content_type: str,
        signing: Signing = VALID,
        headers: Mapping[str, str] | None = None,
        sent: dict[str, Any] | None = None,
    ) -> SignedResponse:
        """POST a raw body, signed; the building block of every other method."""
        all_headers = {"Content-Type": content_type, **self.signed_headers(body, signing), **(headers or {})}
        raw = body.encode() if isinstance(body, str) else body
        return await self.resend(SentRequest(raw, all_headers), sent=sent)

    async def resend(self, request: SentRequest, *, sent: dict[str, Any] | None = None) -> SignedResponse:
        """POST exactly these bytes with exactly these headers (a replay, when sent before)."""
        if self._session is None:
            self._session = aiohttp.ClientSession()
        async with self._session.post(self.url, data=request.body, headers=dict(request.headers)) as response:
            text = await response.text()
            parsed: Any = text
            if response.content_type == "application/json" and text:
                parsed = json.loads(text)
            return SignedResponse(response.status, parsed, dict(response.headers), sent or {}, request)

    async def _form(self, fields: dict[str, Any], signing: Signing) -> SignedResponse:
        return await self.post(
            urlencode(fields), content_type="application/x-www-form-urlencoded", signing=signing, sent=fields
        )

    async def _payload(self, payload: dict[str, Any], signing: Signing) -> SignedResponse:
        response = await self.post(
            urlencode({"payload": json.dumps(payload)}),
            content_type="application/x-www-form-urlencoded",
            signing=signing,
        )
        return SignedResponse(response.status, response.body, response.headers, payload, response.request)

    def _trigger_id(self) -> str:
        if self.sandbox is not None:
            return self.sandbox.new_trigger_id()
        return f"{int(self._clock())}.{secrets.randbelow(10**12)}.{secrets.token_hex(16)}"

    def _response_url(self, channel: str, user: str, message_ts: str | None = None) -> str:
        if self.sandbox is not None:
            return self.sandbox.response_url(channel, user=user, message_ts=message_ts)
        # .invalid never resolves: respond() without a sandbox fails loudly, not at a real host
        return f"https://hooks.slack.invalid/commands/{self.team_id}/{secrets.token_hex(8)}"

    def _user(self, user_id: str) -> dict[str, Any]:
        return {"id": user_id, "username": user_id.lower(), "name": user_id.lower(), "team_id": self.team_id}

    def _team(self) -> dict[str, Any]:
        return {"id": self.team_id, "domain": self.team_domain}

    # ---- what Slack sends ------------------------------------------------------------------

    async def command(
        self,
        command: str,
        text: str = "",
        *,
        user_id: str,
        channel_id: str,
        channel_name: str = "",
        trigger_id: str | None = None,
        response_url: str | None = None,
        signing: Signing = VALID,
    ) -> SignedResponse:
        """A slash command, e.g. `command("/incident", "resolve", user_id=..., channel_id=...)`."""
        if not channel_name and self.sandbox is not None:
            known = self.sandbox.channels().get(channel_id)
            channel_name = known.name if known else ""
        fields = {
            "token": VERIFICATION_TOKEN,
            "team_id": self.team_id,
            "team_domain": self.team_domain,
            "channel_id": channel_id,
            "channel_name": channel_name,
            "user_id": user_id,
            "user_name": user_id.lower(),
            "command": command,
            "text": text,
            "api_app_id": self.api_app_id,
            "is_enterprise_install": "false",
            "response_url": response_url or self._response_url(channel_id, user_id),
            "trigger_id": trigger_id or self._trigger_id(),
        }
        return await self._form(fields, signing)

    async def event(
        self,
        event: Mapping[str, Any],
        *,
        event_id: str | None = None,
        event_time: int | None = None,
        retry_num: int | None = None,
        retry_reason: str = "http_timeout",
        signing: Signing = VALID,
    ) -> SignedResponse:
        """An Events API callback; pass the same `event_id` (and a `retry_num`) to redeliver."""
        envelope = {
            "token": VERIFICATION_TOKEN,
            "team_id": self.team_id,
            "api_app_id": self.api_app_id,
            "event": dict(event),
            "type": "event_callback",
            "event_id": event_id or "Ev" + secrets.token_hex(5).upper(),
            "event_time": event_time if event_time is not None else int(self._clock()),
            "authorizations": [
                {
                    "enterprise_id": None,
                    "team_id": self.team_id,
                    "user_id": self.bot_user_id,
                    "is_bot": True,
                    "is_enterprise_install": False,
                }
            ],
            "is_ext_shared_channel": False,
            "event_context": "4-" + secrets.token_hex(12),
        }
        headers: dict[str, str] = {}
        if retry_num is not None:
            headers = {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": retry_reason}
        return await self.post(
            json.dumps(envelope), content_type="application/json", signing=signing, headers=headers, sent=envelope
        )

    async def say(
        self,
        channel: str,
        text: str,
        *,
        user: str,
        thread_ts: str | None = None,
        channel_type: str | None = None,
        signing: Signing = VALID,
    ) -> SignedResponse:
        """A human posts `text`: stored in the sandbox's history (if any), then sent as its event."""
        ts: str | None = None
        if self.sandbox is not None:
            message = self.sandbox.add_message(channel, text, user=user, thread_ts=thread_ts)
            ts, thread_ts = message.ts, message.thread_ts
            if channel_type is None:
                channel_type = "group" if self.sandbox.channel(channel).is_private else "channel"
        event = message_event(
            channel,
            text,
            user=user,
            ts=ts,
            thread_ts=thread_ts,
            channel_type=channel_type or "channel",
            team=self.team_id,
        )
        return await self.event(event, signing=signing)

    async def edit(self, channel: str, ts: str, text: str, *, signing: Signing = VALID) -> SignedResponse:
        """The author edits the message at `ts` (in the sandbox's history too): `message_changed`."""
        assert self.sandbox is not None, "edit needs the sandbox that holds the message"
        message = self.sandbox.find(channel, ts)
        previous, message.text = message.text, text
        message.edited_ts = self.sandbox.next_ts()
        event = message_changed_event(
            channel, ts, text, user=message.user, previous_text=previous, edited_ts=message.edited_ts,
            channel_type=self._channel_type(channel), team=self.team_id,
        )  # fmt: skip
        return await self.event(event, signing=signing)

    async def delete(self, channel: str, ts: str, *, signing: Signing = VALID) -> SignedResponse:
        """The message at `ts` is deleted (from the sandbox's history too): `message_deleted`."""
        assert self.sandbox is not None, "delete needs the sandbox that holds the message"
        message = self.sandbox.find(channel, ts)
        self.sandbox.remove(message)
        event = message_deleted_event(
            channel, ts, user=message.user, previous_text=message.text, deleted_at=self.sandbox.next_ts(),
            channel_type=self._channel_type(channel), team=self.team_id,
        )  # fmt: skip
        return await self.event(event, signing=signing)

    def _channel_type(self, channel: str) -> str:
        return "group" if self.sandbox is not None and self.sandbox.channel(channel).is_private else "channel"

    async def block_action(
        self,
        action_id: str,
        *,
        user_id: str,
        message: Message | Mapping[str, Any] | None = None,
        channel_id: str | None = None,
        view: Mapping[str, Any] | None = None,
        value: str | None = None,
        block_id: str | None = None,
        action: Mapping[str, Any] | None = None,
        trigger_id: str | None = None,
        response_url: str | None = None,
        signing: Signing = VALID,
    ) -> SignedResponse:
        """A click on the element `action_id` in a message (sandbox Message or dict) or a modal.

        The element is looked up in the blocks so its block_id, type, text and value are the
        real ones; a click on an element that is not there is an error. `action` adds or
        overrides fields of the action (e.g. `selected_option` for a select).
        """
        if isinstance(message, Message):
            channel_id = channel_id or message.channel
            message = message.as_slack()
        container = message if message is not None else view
        taken = clicked_action(
            container,
            action_id,
            in_view=message is None,
            block_id=block_id,
            value=value,
            action=action,
            action_ts=now_ts(self._clock),
        )

        payload: dict[str, Any] = {
            "type": "block_actions",
            "user": self._user(user_id),
            "api_app_id": self.api_app_id,
            "token": VERIFICATION_TOKEN,
            "trigger_id": trigger_id or self._trigger_id(),
            "team": self._team(),
            "enterprise": None,
            "is_enterprise_install": False,
            "state": {"values": {}},
            "actions": [taken],
        }
        if view is not None:
            payload["container"] = {"type": "view", "view_id": view.get("id")}
            payload["view"] = copy.deepcopy(dict(view))
        elif channel_id is not None:
            message_ts = str(message["ts"]) if message is not None else None
            payload["container"] = {
                "type": "message",
                "message_ts": message_ts,
                "channel_id": channel_id,
                "is_ephemeral": False,
            }
            if message is not None and message.get("thread_ts"):
                payload["container"]["thread_ts"] = message["thread_ts"]
            payload["channel"] = {"id": channel_id, "name": self._channel_name(channel_id)}
            if message is not None:
                payload["message"] = copy.deepcopy(dict(message))
            payload["response_url"] = response_url or self._response_url(channel_id, user_id, message_ts)
        return await self._payload(payload, signing)

    def _channel_name(self, channel_id: str) -> str:
        if self.sandbox is not None and channel_id in self.sandbox.channels():
            return self.sandbox.channel(channel_id).name
        return ""

    async def view_submission(
        self,
        view: Mapping[str, Any],
        *,
        user_id: str,
        answers: Mapping[str, Any] | None = None,
        values: Mapping[str, Any] | None = None,
        trigger_id: str | None = None,
        signing: Signing = VALID,
    ) -> SignedResponse:
        """The user submits the modal `view` (e.g. `sandbox.last_view()`).

        Give `answers` (block_id → what the user entered; see `form_values`) or the raw
        `state.values` as `values`. The app's `ack(response_action=...)` comes back as JSON.
        """
        if values is None:
            values = form_values(view, answers or {})
        payload: dict[str, Any] = {
            "type": "view_submission",
            "team": self._team(),
            "user": self._user(user_id),
            "api_app_id": self.api_app_id,
            "token": VERIFICATION_TOKEN,
            "trigger_id": trigger_id or self._trigger_id(),
            "view": submitted_view(view, values, team_id=self.team_id, app_id=self.api_app_id, clock=self._clock),
            "response_urls": [],
            "enterprise": None,
            "is_enterprise_install": False,
        }
        response = await self._payload(payload, signing)
        if self.sandbox is not None and response.status == 200 and _closes_the_modal(response.body):
            self.sandbox.close_view(str(view.get("id", "")))
        return response

    async def message_shortcut(
        self,
        callback_id: str,
        message: Message | Mapping[str, Any],
        *,
        user_id: str,
        channel_id: str | None = None,
        trigger_id: str | None = None,
        signing: Signing = VALID,
    ) -> SignedResponse:
        """A person picks the app's message shortcut `callback_id` on `message` (its "⋮" menu)."""
        if isinstance(message, Message):
            channel_id = channel_id or message.channel
            message = message.as_slack()
        assert channel_id is not None, "channel_id is needed with a message given as a dict"
        payload: dict[str, Any] = {
            "type": "message_action",
            "token": VERIFICATION_TOKEN,
            "action_ts": now_ts(self._clock),
            "team": self._team(),
            "user": self._user(user_id),
            "channel": {"id": channel_id, "name": self._channel_name(channel_id)},
            "is_enterprise_install": False,
            "enterprise": None,
            "callback_id": callback_id,
            "trigger_id": trigger_id or self._trigger_id(),
            "response_url": self._response_url(channel_id, user_id),
            "message_ts": str(message["ts"]),
            "message": copy.deepcopy(dict(message)),
        }
        return await self._payload(payload, signing)

    async def view_closed(
        self, view: Mapping[str, Any], *, user_id: str, is_cleared: bool = False, signing: Signing = VALID
    ) -> SignedResponse:
        """The user closes the modal (sent only when it was opened with `notify_on_close`)."""
        payload: dict[str, Any] = {
            "type": "view_closed",
            "team": self._team(),
            "user": self._user(user_id),
            "api_app_id": self.api_app_id,
            "token": VERIFICATION_TOKEN,
            "view": submitted_view(view, {}, team_id=self.team_id, app_id=self.api_app_id, clock=self._clock),
            "is_cleared": is_cleared,
            "enterprise": None,
            "is_enterprise_install": False,
        }
        return await self._payload(payload, signing)

    async def url_verification(self, challenge: str, *, signing: Signing = VALID) -> SignedResponse:
        body = {"token": VERIFICATION_TOKEN, "challenge": challenge, "type": "url_verification"}
        return await self.post(json.dumps(body), content_type="application/json", signing=signing, sent=body)


def _closes_the_modal(body: Any) -> bool:
    """A 200 ack closes the submitted modal unless it answers update, push or errors (as Slack does)."""
    return not (isinstance(body, Mapping) and body.get("response_action") in ("update", "push", "errors"))
