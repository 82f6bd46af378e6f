"""The Web API methods the sandbox answers, each a function of the workspace and the call's
arguments that returns Slack's body without "ok" (or raises SlackError to refuse).

Every message and modal passes Slack's limits (checks.py) before it is stored, so a rendering
bug is refused here as Slack would refuse it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from bot.sandbox import checks
from bot.sandbox.calls import Params, SlackError, flag
from bot.sandbox.model import Ephemeral, Message
from bot.sandbox.workspace import ResponseTarget, Workspace

Method = Callable[[Workspace, Params], dict[str, Any]]


def auth_test(ws: Workspace, _params: Params) -> dict[str, Any]:
    return {
        "url": f"https://{ws.team.lower()}.slack.com/",
        "team": ws.team,
        "user": "incident-memory",
        "team_id": ws.team_id,
        "user_id": ws.bot_user_id,
        "bot_id": ws.bot_id,
        "is_enterprise_install": False,
    }


def chat_post_message(ws: Workspace, params: Params) -> dict[str, Any]:
    channel = ws.postable(params)
    check_message(params)
    message = Message(
        channel.id,
        ws.next_ts(),
        str(params.get("text") or ""),
        ws.bot_user_id,
        ws.team_id,
        params.get("blocks"),
        bot_id=ws.bot_id,
        attachments=params.get("attachments"),
        metadata=params.get("metadata"),
        reply_broadcast=flag(params.get("reply_broadcast", False)),
    )
    ws.store(message, params.get("thread_ts"))
    return {"channel": channel.id, "ts": message.ts, "message": message.as_slack()}


def chat_update(ws: Workspace, params: Params) -> dict[str, Any]:
    channel = ws.channel_for(params)
    message = ws.find(channel.id, str(params.get("ts", "")))
    if message.bot_id != ws.bot_id:
        raise SlackError("cant_update_message")
    check_message(params)
    if "text" in params:
        message.text = str(params["text"])
    if "blocks" in params:
        message.blocks = params["blocks"]
    if "attachments" in params:
        message.attachments = params["attachments"]
    message.edited_ts = ws.next_ts()
    return {"channel": channel.id, "ts": message.ts, "text": message.text, "message": message.as_slack()}


def chat_delete(ws: Workspace, params: Params) -> dict[str, Any]:
    channel = ws.channel_for(params)
    message = ws.find(channel.id, str(params.get("ts", "")))
    if message.bot_id != ws.bot_id:
        raise SlackError("cant_delete_message")
    ws.remove(message)
    return {"channel": channel.id, "ts": message.ts}


def chat_get_permalink(ws: Workspace, params: Params) -> dict[str, Any]:
    channel = ws.channel_for(params)
    message = ws.find(channel.id, str(params.get("message_ts", "")))
    link = f"https://{ws.team.lower()}.slack.com/archives/{channel.id}/p{message.ts.replace('.', '')}"
    return {"channel": channel.id, "permalink": link}


def chat_post_ephemeral(ws: Workspace, params: Params) -> dict[str, Any]:
    channel = ws.postable(params)
    user = params.get("user")
    if ws.user(user) is None:
        raise SlackError("user_not_found")
    check_message(params)
    ephemeral = Ephemeral(
        channel.id,
        str(user),
        ws.next_ts(),
        str(params.get("text") or ""),
        params.get("blocks"),
        params.get("thread_ts"),
    )
    ws.add_ephemeral(ephemeral)
    return {"message_ts": ephemeral.ts}


def views_open(ws: Workspace, params: Params) -> dict[str, Any]:
    view = checked_view(params)
    ws.exchange_trigger(params)
    view_id = ws.new_view_id(root=True)
    return {"view": ws.save_view(view, view_id=view_id, root=view_id, previous=None)}


def views_push(ws: Workspace, params: Params) -> dict[str, Any]:
    view = checked_view(params)
    ws.exchange_trigger(params)
    previous = ws.latest_view_id
    view_id = ws.new_view_id(root=False)
    root = ws.root_view_id or view_id
    return {"view": ws.save_view(view, view_id=view_id, root=root, previous=previous)}


def views_update(ws: Workspace, params: Params) -> dict[str, Any]:
    view = checked_view(params)
    view_id, external_id = params.get("view_id"), params.get("external_id")
    if not view_id and not external_id:
        raise SlackError("invalid_arguments", messages=["[ERROR] view_id or external_id is required"])
    current = ws.find_view(view_id=str(view_id) if view_id else None, external_id=external_id)
    if current is None or ws.is_closed(current["id"]):  # a submitted or closed modal is gone
        raise SlackError("not_found")
    wanted_hash = params.get("hash")
    if wanted_hash and wanted_hash != current["hash"]:
        raise SlackError("hash_conflict")
    updated = ws.save_view(
        view, view_id=current["id"], root=current["root_view_id"], previous=current["previous_view_id"]
    )
    return {"view": updated}


def views_publish(ws: Workspace, params: Params) -> dict[str, Any]:
    view = checked_view(params)
    if view.get("type") != "home":
        raise SlackError("invalid_arguments", messages=["[ERROR] must be home [json-pointer:/view/type]"])
    user = params.get("user_id")
    if ws.user(user) is None:
        raise SlackError("user_not_found")
    return {"view": ws.publish_home(str(user), view)}


def conversations_members(ws: Workspace, params: Params) -> dict[str, Any]:
    channel = ws.channel_for(params, to_read=True)
    members = list(channel.members) + ([ws.bot_user_id] if channel.is_member else [])
    page = _page(members, params)
    return {"members": page["messages"], "response_metadata": page["response_metadata"]}


def conversations_info(ws: Workspace, params: Params) -> dict[str, Any]:
    return {"channel": ws.channel_for(params).as_slack()}


def conversations_join(ws: Workspace, params: Params) -> dict[str, Any]:
    channel = ws.channel_for(params)
    if channel.is_private or channel.is_im:
        raise SlackError("method_not_supported_for_channel_type")
    if channel.is_archived:
        raise SlackError("is_archived")
    already = channel.is_member
    channel.is_member = True
    body: dict[str, Any] = {"channel": channel.as_slack()}
    if already:
        body["warning"] = "already_in_channel"
        body["response_metadata"] = {"warnings": ["already_in_channel"]}
    return body


def conversations_history(ws: Workspace, params: Params) -> dict[str, Any]:
    channel = ws.channel_for(params, to_read=True)
    inclusive = flag(params.get("inclusive", False))
    oldest, latest = float(params.get("oldest") or 0), float(params.get("latest") or "inf")

    def within(ts: float) -> bool:
        if inclusive:
            return oldest <= ts <= latest
        return oldest < ts < latest

    top_level = [
        m.as_slack()
        for m in reversed(ws.messages(channel.id))
        if (not m.is_reply or m.reply_broadcast) and within(float(m.ts))
    ]
    return _page(top_level, params) | {"pin_count": 0}


def conversations_replies(ws: Workspace, params: Params) -> dict[str, Any]:
    channel = ws.channel_for(params, to_read=True)
    parent = ws.find(channel.id, str(params.get("ts", "")), error="thread_not_found")
    if parent.is_reply:
        return _page([parent.as_slack()], params)
    replies = ws.replies(channel.id, parent.ts)
    return _page([parent.as_slack()] + [m.as_slack() for m in replies], params)


def conversations_list(ws: Workspace, params: Params) -> dict[str, Any]:
    """Channels the token can see: public ones, and private ones the bot is in."""
    types = str(params.get("types") or "public_channel").split(",")
    archived_too = not flag(params.get("exclude_archived", False))
    listed = [
        c.as_slack()
        for c in ws.channels().values()
        if not c.is_im and (archived_too or not c.is_archived)
        and (("private_channel" in types and c.is_private and c.is_member) or ("public_channel" in types and not c.is_private))
    ]  # fmt: skip
    page = _page(listed, params)
    return {"channels": page["messages"], "response_metadata": page["response_metadata"]}


_CHANNEL_NAME = re.compile(r"^[a-z0-9_-]{1,80}$")


def conversations_create(ws: Workspace, params: Params) -> dict[str, Any]:
    """A new channel with the bot in it (channels:manage; Slack's naming rules)."""
    if "channels:manage" not in ws.scopes:
        raise SlackError("missing_scope")
    name = str(params.get("name") or "")
    if not _CHANNEL_NAME.match(name):
        raise SlackError("invalid_name_specials" if name else "invalid_name_required")
    if any(c.name == name for c in ws.channels().values()):
        raise SlackError("name_taken")
    channel_id = f"C0NEW{len(ws.channels()) + 1:05d}"
    private = flag(params.get("is_private", False))
    return {"channel": ws.add_channel(channel_id, name, is_private=private).as_slack()}


def conversations_invite(ws: Workspace, params: Params) -> dict[str, Any]:
    if "channels:manage" not in ws.scopes:
        raise SlackError("missing_scope")
    channel = ws.channel_for(params)
    if not channel.is_member:
        raise SlackError("not_in_channel")
    users = [u for u in str(params.get("users") or "").split(",") if u]
    if not users:
        raise SlackError("no_user")
    for user in users:
        if ws.user(user) is None:
            raise SlackError("user_not_found")
    if all(u in channel.members for u in users):
        raise SlackError("already_in_channel")
    channel.members.extend(u for u in users if u not in channel.members)
    return {"channel": channel.as_slack()}


def users_info(ws: Workspace, params: Params) -> dict[str, Any]:
    user = ws.user(str(params.get("user", "")))
    if user is None:
        raise SlackError("user_not_found")
    return {"user": user.as_slack()}


def usergroups_users_list(ws: Workspace, params: Params) -> dict[str, Any]:
    if "usergroups:read" not in ws.scopes:
        raise SlackError("missing_scope")
    members = ws.usergroup(params.get("usergroup"))
    if members is None:
        raise SlackError("no_such_subteam")
    return {"users": members}


METHODS: Final[Mapping[str, Method]] = {
    "auth.test": auth_test,
    "chat.postMessage": chat_post_message,
    "chat.update": chat_update,
    "chat.postEphemeral": chat_post_ephemeral,
    "views.open": views_open,
    "views.push": views_push,
    "views.update": views_update,
    "views.publish": views_publish,
    "conversations.members": conversations_members,
    "conversations.info": conversations_info,
    "conversations.join": conversations_join,
    "conversations.history": conversations_history,
    "conversations.replies": conversations_replies,
    "conversations.list": conversations_list,
    "conversations.create": conversations_create,
    "conversations.invite": conversations_invite,
    "users.info": users_info,
    "usergroups.users.list": usergroups_users_list,
    "chat.delete": chat_delete,
    "chat.getPermalink": chat_get_permalink,
}


def respond(ws: Workspace, target: ResponseTarget, payload: Params) -> None:
    """What a POST to a response_url does: replace or delete the original, post, or whisper."""
    if flag(payload.get("delete_original")):
        if target.message_ts is None:
            raise SlackError("no_original_message")
        ws.remove(ws.find(target.channel, target.message_ts))
        return
    check_message(payload)
    text, blocks = str(payload.get("text") or ""), payload.get("blocks")
    if flag(payload.get("replace_original")):
        if target.message_ts is None:
            raise SlackError("no_original_message")
        original = ws.find(target.channel, target.message_ts)
        original.text, original.blocks, original.edited_ts = text, blocks, ws.next_ts()
    elif payload.get("response_type") == "in_channel":
        message = Message(target.channel, ws.next_ts(), text, ws.bot_user_id, ws.team_id, blocks, bot_id=ws.bot_id)
        ws.store(message, payload.get("thread_ts"))
    else:
        user = target.user or ""
        ws.add_ephemeral(Ephemeral(target.channel, user, ws.next_ts(), text, blocks, payload.get("thread_ts")))


def _page(items: list[dict[str, Any]], params: Params) -> dict[str, Any]:
    """Cursor pagination as Slack does it: `limit` (default 100, at most 999) and an opaque cursor."""
    try:
        limit = min(max(int(params.get("limit") or 100), 1), 999)
        start = int(params.get("cursor") or 0)
    except ValueError as error:
        raise SlackError("invalid_cursor") from error
    page = items[start : start + limit]
    more = start + limit < len(items)
    return {
        "messages": page,
        "has_more": more,
        "response_metadata": {"next_cursor": str(start + limit) if more else ""},
    }


def check_message(params: Params) -> None:
    """What Slack refuses in a message's text and blocks."""
    text, blocks, attachments = params.get("text"), params.get("blocks"), params.get("attachments")
    if isinstance(blocks, str):
        raise SlackError("invalid_blocks_format")
    if blocks is not None:
        problems = checks.check_blocks(blocks, limit=checks.MAX_MESSAGE_BLOCKS)
        if problems:
            raise SlackError("invalid_blocks", messages=problems)
        if checks.blocks_text_too_long(blocks):
            raise SlackError("msg_blocks_too_long")
    if not text and not blocks and not attachments:
        raise SlackError("no_text")
    if text is not None and len(str(text)) > checks.MAX_MESSAGE_TEXT:
        raise SlackError("msg_too_long")


def checked_view(params: Params) -> Mapping[str, Any]:
    """The `view` argument, or the refusal Slack gives it."""
    view = params.get("view")
    if not isinstance(view, Mapping):
        raise SlackError("invalid_arguments", messages=["[ERROR] view must be a JSON object [json-pointer:/view]"])
    problems = checks.check_view_arguments(view)
    if problems:
        raise SlackError("invalid_arguments", messages=problems)
    problems = checks.check_blocks(view.get("blocks", []), limit=checks.MAX_VIEW_BLOCKS, in_view=True)
    if problems:
        raise SlackError("invalid_blocks", messages=problems)
    return view
