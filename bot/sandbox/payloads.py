"""What Slack puts in the requests it sends an app: events, and the state of a submitted modal.

Plain builders of dicts, no HTTP: `SignedSender` (signed.py) wraps and signs them, and a test
can build an event itself (e.g. a bot's own message) to send with `SignedSender.event`.
"""

from __future__ import annotations

import copy
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from bot.sandbox.workspace import DEFAULT_TEAM_ID

# How each input element reports its value in view.state.values.
VALUE_ELEMENTS: Final = frozenset(
    {"plain_text_input", "number_input", "email_text_input", "url_text_input", "rich_text_input"}
)
SINGLE_OPTION_ELEMENTS: Final = frozenset({"static_select", "radio_buttons", "external_select"})
MULTI_OPTION_ELEMENTS: Final = frozenset({"multi_static_select", "checkboxes", "multi_external_select"})
SELECTED_KEY: Final = {
    "users_select": ("selected_user", "initial_user"),
    "multi_users_select": ("selected_users", "initial_users"),
    "conversations_select": ("selected_conversation", "initial_conversation"),
    "multi_conversations_select": ("selected_conversations", "initial_conversations"),
    "channels_select": ("selected_channel", "initial_channel"),
    "multi_channels_select": ("selected_channels", "initial_channels"),
    "datepicker": ("selected_date", "initial_date"),
    "timepicker": ("selected_time", "initial_time"),
}


def now_ts(clock: Callable[[], float]) -> str:
    return f"{clock():.6f}"


def message_event(
    channel: str,
    text: str,
    *,
    user: str,
    ts: str | None = None,
    thread_ts: str | None = None,
    channel_type: str = "channel",
    team: str = DEFAULT_TEAM_ID,
    subtype: str | None = None,
    bot_id: str | None = None,
) -> dict[str, Any]:
    """A `message` event as Slack delivers it (`channel_type` "group" for private channels)."""
    ts = ts or now_ts(time.time)
    event: dict[str, Any] = {
        "type": "message",
        "channel": channel,
        "user": user,
        "text": text,
        "ts": ts,
        "event_ts": ts,
        "channel_type": channel_type,
        "team": team,
    }
    if thread_ts is not None:
        event["thread_ts"] = thread_ts
    if subtype is not None:
        event["subtype"] = subtype
    if bot_id is not None:
        event["bot_id"] = bot_id
    return event


def app_mention_event(
    channel: str,
    text: str,
    *,
    user: str,
    ts: str | None = None,
    thread_ts: str | None = None,
    team: str = DEFAULT_TEAM_ID,
) -> dict[str, Any]:
    event = message_event(channel, text, user=user, ts=ts, thread_ts=thread_ts, team=team)
    event["type"] = "app_mention"
    del event["channel_type"]
    return event


def member_joined_channel_event(
    channel: str, *, user: str, channel_type: str = "C", inviter: str | None = None, team: str = DEFAULT_TEAM_ID
) -> dict[str, Any]:
    """Sent when anyone (the bot included) joins; `channel_type` is "C" public, "G" private."""
    event: dict[str, Any] = {
        "type": "member_joined_channel",
        "user": user,
        "channel": channel,
        "channel_type": channel_type,
        "team": team,
        "event_ts": now_ts(time.time),
    }
    if inviter is not None:
        event["inviter"] = inviter
    return event


def app_home_opened_event(user: str, *, tab: str = "home", team: str = DEFAULT_TEAM_ID) -> dict[str, Any]:
    """Sent when a person opens the app's Home (or Messages) tab."""
    return {
        "type": "app_home_opened",
        "user": user,
        "channel": "D" + user[1:],
        "tab": tab,
        "event_ts": now_ts(time.time),
    }


def channel_archive_event(channel: str, *, user: str, team: str = DEFAULT_TEAM_ID) -> dict[str, Any]:
    """Sent to the bot when a channel it is in is archived."""
    return {"type": "channel_archive", "channel": channel, "user": user, "event_ts": now_ts(time.time)}


def _option(element: Mapping[str, Any], value: str) -> dict[str, Any]:
    options = list(element.get("options", []))
    for group in element.get("option_groups", []):
        options += group.get("options", [])
    for option in options:
        if option.get("value") == value:
            return copy.deepcopy(dict(option))
    known = [o.get("value") for o in options]
    raise ValueError(f"{value!r} is not an option of {element.get('action_id')!r}; options: {known}")


def _state_of(element: Mapping[str, Any], answer: Any, answered: bool) -> dict[str, Any]:
    """One element's entry in view.state.values, as Slack reports it."""
    kind = str(element.get("type"))
    state: dict[str, Any] = {"type": kind}
    if kind in VALUE_ELEMENTS:
        state["value"] = answer if answered else element.get("initial_value")
    elif kind in SINGLE_OPTION_ELEMENTS:
        if answered:
            state["selected_option"] = None if answer is None else _option(element, str(answer))
        else:
            state["selected_option"] = copy.deepcopy(element.get("initial_option"))
    elif kind in MULTI_OPTION_ELEMENTS:
        if answered:
            state["selected_options"] = [_option(element, str(v)) for v in answer or []]
        else:
            state["selected_options"] = copy.deepcopy(element.get("initial_options", []))
    elif kind in SELECTED_KEY:
        selected, initial = SELECTED_KEY[kind]
        state[selected] = answer if answered else element.get(initial)
    else:
        state["value"] = answer if answered else None
    return state


def form_values(view: Mapping[str, Any], answers: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """`view.state.values` for a user who typed `answers` into the modal `view`.

    `answers` is keyed by the input block's `block_id`: a string for text inputs, an option's
    value for selects and radio buttons, a list of values for checkboxes and multi-selects, a
    user/channel id or date for pickers. Inputs left unanswered report their initial value or
    null, as Slack does. An answer for a block the view lacks, or an option it does not offer,
    is an error: the test is out of step with the modal.
    """
    values: dict[str, dict[str, Any]] = {}
    unknown = set(answers)
    typed = (view.get("state") or {}).get("values") or {}
    for block in view.get("blocks", []):
        if block.get("type") != "input":
            continue
        block_id, element = block.get("block_id"), block.get("element", {})
        if not isinstance(block_id, str):
            raise ValueError(f"an input block without a block_id cannot be read back: {block}")
        action_id = str(element.get("action_id") or f"{block_id}-action")
        unknown.discard(block_id)
        if block_id not in answers and action_id in typed.get(block_id, {}):
            values[block_id] = {action_id: copy.deepcopy(typed[block_id][action_id])}  # typed before
            continue
        values[block_id] = {action_id: _state_of(element, answers.get(block_id), block_id in answers)}
    if unknown:
        raise KeyError(f"the view has no input blocks {sorted(unknown)}; it has {sorted(values)}")
    return values


def find_element(blocks: Sequence[Mapping[str, Any]], action_id: str) -> tuple[str, Mapping[str, Any]] | None:
    """The (block_id, element) carrying `action_id` in a message's or a modal's blocks."""
    for block in blocks:
        candidates: list[Mapping[str, Any]] = []
        if isinstance(block.get("accessory"), Mapping):
            candidates.append(block["accessory"])
        if isinstance(block.get("element"), Mapping):
            candidates.append(block["element"])
        candidates += [e for e in block.get("elements", []) if isinstance(e, Mapping)]
        for element in candidates:
            if element.get("action_id") == action_id:
                return str(block.get("block_id") or secrets.token_hex(3)), element
    return None


def clicked_action(
    container: Mapping[str, Any] | None,
    action_id: str,
    *,
    in_view: bool,
    block_id: str | None,
    value: str | None,
    action: Mapping[str, Any] | None,
    action_ts: str,
) -> dict[str, Any]:
    """The `actions[0]` of a click on `action_id` in a message or modal (`container`), as Slack
    reports it: block_id, type, text and value are the element's own. Without a container it is
    a bare button; a click on an element the container lacks is an error."""
    found = find_element(list(container.get("blocks") or []), action_id) if container is not None else None
    if found is None and container is not None:
        raise LookupError(f"no element with action_id {action_id!r} in the {'view' if in_view else 'message'}")
    element: Mapping[str, Any] = found[1] if found else {"type": "button"}
    taken: dict[str, Any] = {
        "action_id": action_id,
        "block_id": block_id or (found[0] if found else secrets.token_hex(3)),
        "type": element.get("type", "button"),
        "action_ts": action_ts,
    }
    if "text" in element:
        taken["text"] = copy.deepcopy(element["text"])
    if value is not None or "value" in element:
        taken["value"] = value if value is not None else element["value"]
    return taken | dict(action or {})


def submitted_view(
    view: Mapping[str, Any], values: Mapping[str, Any], *, team_id: str, app_id: str, clock: Callable[[], float]
) -> dict[str, Any]:
    """The `view` of a view_submission or view_closed: the modal with its typed `values`."""
    submitted: dict[str, Any] = {
        "id": "V" + secrets.token_hex(5).upper(),
        "team_id": team_id,
        "type": "modal",
        "blocks": [],
        "private_metadata": "",
        "callback_id": "",
        "hash": f"{int(clock())}.{secrets.token_hex(4)}",
        "clear_on_close": False,
        "notify_on_close": False,
        "root_view_id": None,
        "previous_view_id": None,
        "app_id": app_id,
        "external_id": "",
        "bot_id": None,
    }
    submitted |= copy.deepcopy(dict(view))
    submitted["state"] = {"values": copy.deepcopy(dict(values))}
    return submitted


def message_changed_event(
    channel: str, ts: str, text: str, *, user: str, previous_text: str, edited_ts: str,
    channel_type: str = "channel", team: str = DEFAULT_TEAM_ID,
) -> dict[str, Any]:  # fmt: skip
    """A person edited their message at `ts`: Slack's `message_changed` event, the new message inside."""
    return {
        "type": "message", "subtype": "message_changed", "hidden": True, "channel": channel,
        "ts": edited_ts, "event_ts": edited_ts, "channel_type": channel_type,
        "message": {"type": "message", "user": user, "text": text, "ts": ts, "team": team,
                    "edited": {"user": user, "ts": edited_ts}},
        "previous_message": {"type": "message", "user": user, "text": previous_text, "ts": ts, "team": team},
    }  # fmt: skip


def message_deleted_event(
    channel: str, ts: str, *, user: str, previous_text: str, deleted_at: str, channel_type: str = "channel",
    team: str = DEFAULT_TEAM_ID,
) -> dict[str, Any]:  # fmt: skip
    """A message at `ts` was deleted: Slack's `message_deleted` event (no team or user at its top)."""
    return {
        "type": "message", "subtype": "message_deleted", "hidden": True, "channel": channel,
        "ts": deleted_at, "event_ts": deleted_at, "deleted_ts": ts, "channel_type": channel_type,
        "previous_message": {"type": "message", "user": user, "text": previous_text, "ts": ts, "team": team},
    }  # fmt: skip
