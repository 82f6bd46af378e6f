"""Slack, locally: a stand-in for the Web API and a sender of signed requests.

The tests and `incident-memory demo` drive the REAL Bolt app over HTTP with these two halves:
the app calls `SlackSandbox` as it would call slack.com, and `SignedSender` sends the app what
Slack would send it. Nothing in the app knows it is in a sandbox.

    async with SlackSandbox() as sandbox:
        sandbox.add_channel("C1", "inc-db-latency")
        sandbox.add_user("U1", "alice")
        client = AsyncWebClient(token=sandbox.token, base_url=sandbox.base_url)
        app = AsyncApp(client=client, signing_secret=SECRET)          # the real app
        ...serve app.web_app() on 127.0.0.1:0 → events_url ".../slack/events"
        async with SignedSender(events_url, SECRET, sandbox=sandbox) as slack:
            assert (await slack.command("/incident", user_id="U1", channel_id="C1")).status == 200
            modal = sandbox.last_view()
            await slack.view_submission(modal, user_id="U1", answers={"title": "DB slow"})
            reply = await sandbox.wait_for_message("C1", lambda m: "DB slow" in m.text)

The modules, by responsibility:
    slack_api.py   SlackSandbox: the HTTP server, the call record, waiting for calls/messages
    workspace.py   the workspace's state and Slack's rules for it (posting, threads, triggers)
    model.py       Channel, User, Message, Ephemeral, as the Web API returns them
    methods.py     the Web API methods and what a response_url does; Slack's limits applied
    checks.py      Slack's Block Kit and modal limits, worded as Slack words its refusals
    calls.py       Call, SlackError, and how a request's arguments are decoded
    scripting.py   scripted faults: fail_next, rate_limit_next, delay, hold
    signed.py      SignedSender: Slack's requests to the app, signed
    signing.py     Signing (valid, forged, stale), SentRequest, SignedResponse: one signed exchange
    payloads.py    what those requests carry: events, clicked actions, submitted modals
    local_bot.py   the real app wired to a sandbox (the demo's and the e2e tests' harness)
    alerts.py      AlertSender: what Alertmanager, Grafana, PagerDuty and Opsgenie POST to
                   /alerts/… (bearer token or PagerDuty's signature); `LocalBot.alerts` is one

SlackSandbox: an aiohttp server on 127.0.0.1, port 0.
    SlackSandbox(*, token="xoxb-sandbox-token", team_id="T0SANDBOX", team="Sandbox",
                 bot_user_id="U0SANDBOXBOT", bot_id="B0SANDBOX", app_id="A0SANDBOX",
                 scopes=DEFAULT_SCOPES, trigger_ttl=3.0, clock=time.time)
    await start() / await stop() / `async with`;  .url;  .base_url (ends "/api/");  reset()
    Workspace:  add_channel(id, name, *, is_private, topic, purpose, is_member=True, is_archived,
                            is_ext_shared=False)   (is_ext_shared: a Slack Connect channel)
                add_user(id, name, *, real_name, is_bot, tz, is_admin, is_owner, is_restricted,
                         is_ultra_restricted)   (a multi- / single-channel guest);  channel(id);  channels()
                add_usergroup(id, users)   (what usergroups.users.list answers)
                add_message(channel, text, *, user, thread_ts=None, blocks=None) -> Message
                new_trigger_id();  response_url(channel, *, user=None, message_ts=None)
    Methods:    auth.test, chat.postMessage, chat.update, chat.postEphemeral, views.open,
                views.push, views.update, conversations.info, conversations.join,
                conversations.history, conversations.replies, conversations.members, users.info,
                usergroups.users.list, chat.delete, chat.getPermalink, conversations.list,
                conversations.create, conversations.invite (these two need "channels:manage" in
                `scopes`), views.publish (App Home:
                home(user)); handle(method, handler(params) -> body) adds one; any other
                method answers unknown_method.
    Scripting:  fail_next(method, error, *, times=1, status=200, messages=())
                rate_limit_next(method, *, retry_after=1, times=1)   → HTTP 429 + Retry-After
                delay(method, seconds)   (0 clears);   hold(method) -> Hold (.arrived(), .release())
    Reading:    calls(method=None) -> list[Call]   (method, params, http_method, encoding, at,
                token, status, response, .ok, .error); messages(channel) -> list[Message]
                (top-level and replies, oldest first); message(channel, ts); thread(channel, ts)
                (parent first); ephemerals(channel=None, user=None); views(); view(id);
                last_view() -> dict; await wait_for(method | predicate(Call), *, count=1,
                timeout=5.0) -> Call; await wait_for_message(channel, predicate(Message)) -> Message

SignedSender: POSTs to the app's `/slack/events`, signed like Slack.
    SignedSender(url, signing_secret, *, sandbox=None, team_id=..., team_domain="sandbox",
                 api_app_id=..., bot_user_id=..., session=None, clock=time.time)
    command(command, text="", *, user_id, channel_id, channel_name="", trigger_id=None,
            response_url=None, signing=VALID)
    event(event, *, event_id=None, event_time=None, retry_num=None, retry_reason="http_timeout",
          signing=VALID);  say(channel, text, *, user, thread_ts=None) (stores it, then sends it)
    block_action(action_id, *, user_id, message=None | view=None, channel_id=None, value=None,
                 block_id=None, action=None, trigger_id=None, response_url=None, signing=VALID)
    view_submission(view, *, user_id, answers=None | values=None, trigger_id=None, signing=VALID)
    view_closed(view, *, user_id, is_cleared=False);  url_verification(challenge)
    message_shortcut(callback_id, message, *, user_id, channel_id=None)   a message's "⋮" menu
    edit(channel, ts, text) / delete(channel, ts)   the author edits or deletes a stored message:
          its history changes, then Slack's `message_changed` / `message_deleted` event is sent
    post(body: str | bytes, *, content_type, signing=VALID, headers=None) for anything else;
    resend(response.request) replays a request byte for byte (same timestamp and signature).
    Each returns SignedResponse(status, body: JSON → dict, else text ("" for a bare ack),
    headers, sent: the payload as sent, request: the bytes and headers sent).  Signing.forged() / Signing.stale(age=600) break the
    signature.  Builders: message_event, app_mention_event, member_joined_channel_event,
    form_values(view, answers) → state.values.

What the app must know, because the sandbox behaves like Slack:
- Refused calls answer HTTP 200 `{"ok": false, "error": ...}`: slack_sdk raises SlackApiError
  with `e.response["error"]`; `response_metadata.messages` says which block was wrong.
- 429 is retried by slack_sdk only with `AsyncRateLimitErrorRetryHandler` in `retry_handlers`;
  otherwise it is SlackApiError "ratelimited". Bolt copies the client's retry handlers onto
  the per-request client, so give them to the client passed to AsyncApp.
- Bolt's per-request client adds `team_id` to every call's arguments: expect it in `Call.params`.
- Limits enforced: >50 blocks in a message or >100 in a modal → invalid_blocks; message text
  >40,000 → msg_too_long; blocks' text over 12,000 in all → msg_blocks_too_long; no text and
  no blocks → no_text; modal title/submit/close >24, private_metadata >3,000, input blocks
  without submit → invalid_arguments; plus the per-block limits of docs/SLACK.md (checks.py),
  duplicate block_ids, empty text objects and input blocks in messages → invalid_blocks.
- Channels must be added first (unknown → channel_not_found; private and not a member →
  channel_not_found; public and not a member → not_in_channel, unless "chat:write.public" is
  in `scopes`). A reply whose thread_ts is not a message in that channel → thread_not_found
  (stricter than Slack, to catch a wrong ts). A user id as channel opens a DM ("D...").
- Trigger ids from `new_trigger_id()` (the sender's, when given the sandbox) open one view
  within `trigger_ttl` seconds: then expired_trigger_id; a second use → exchanged_trigger_id.
- views.update with a `hash` that is not the current one → hash_conflict. What a person typed
  (`type_into(view_id, answers)`) survives a views.update that keeps the input's block_id and
  action_id, as in Slack; a later submission carries it.
- A channel's members are the people added with it (`members=`) and whoever spoke in it.
"""

from bot.sandbox.calls import Call, SlackError
from bot.sandbox.model import Channel, Ephemeral, Message, User
from bot.sandbox.payloads import (
    app_home_opened_event,
    app_mention_event,
    channel_archive_event,
    form_values,
    member_joined_channel_event,
    message_event,
)
from bot.sandbox.scripting import Hold
from bot.sandbox.signed import SignedSender
from bot.sandbox.signing import VALID, SignedResponse, Signing
from bot.sandbox.slack_api import SlackSandbox
from bot.sandbox.workspace import DEFAULT_SCOPES

__all__ = [
    "DEFAULT_SCOPES",
    "VALID",
    "Call",
    "Channel",
    "Ephemeral",
    "Hold",
    "Message",
    "SignedResponse",
    "SignedSender",
    "Signing",
    "SlackError",
    "SlackSandbox",
    "User",
    "app_home_opened_event",
    "app_mention_event",
    "channel_archive_event",
    "form_values",
    "member_joined_channel_event",
    "message_event",
]
