"""Block Kit in a terminal, for the demo and for logs: roughly what a person sees in Slack.

- `message_to_text(message) -> str`    plain text, entities decoded, buttons as `[ Helpful ]`
- `view_to_text(view) -> str`          a modal: title, inputs with what is filled in
- `print_message(message, *, console=None, title=None)`   the same, styled with rich
- `print_view(view, *, console=None)`

User text is never read as rich markup: a stored `[bold]` prints as typed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.emoji import Emoji
from rich.panel import Panel
from rich.text import Text

from bot.slack.escape import unescape_mrkdwn

Json = Mapping[str, Any]
# Slack mrkdwn spans shown with a terminal style: *bold*, _italic_, `code`
_SPANS = re.compile(r"\*(?P<bold>[^*\n]+)\*|(?<!\w)_(?P<italic>[^_\n]+)_(?!\w)|`(?P<code>[^`\n]+)`")
_STYLES = {"bold": "bold", "italic": "italic", "code": "cyan"}


def _text_of(obj: Any) -> str:
    if isinstance(obj, Mapping) and isinstance(obj.get("text"), str):
        text = obj["text"]
        return unescape_mrkdwn(text) if obj.get("type") == "mrkdwn" else text
    return ""


def _element_text(el: Json) -> str:
    kind = el.get("type")
    if kind == "button":
        return f"[ {_text_of(el.get('text'))} ]"
    if kind in ("mrkdwn", "plain_text"):
        return _text_of(el)
    if kind == "image":
        return f"(image: {el.get('alt_text', '')})"
    return f"({kind})"


def _block_lines(block: Json) -> list[str]:
    kind = block.get("type")
    if kind in ("section", "header"):
        lines = [_text_of(block.get("text"))] if "text" in block else []
        lines += [_text_of(f) for f in block.get("fields", [])]
        if "accessory" in block:
            lines.append(_element_text(block["accessory"]))
        return lines
    if kind == "context":
        return [" | ".join(_element_text(el) for el in block.get("elements", []))]
    if kind == "actions":
        return [" ".join(_element_text(el) for el in block.get("elements", []))]
    if kind == "divider":
        return ["─" * 40]
    if kind == "input":
        return [_input_line(block)]
    return [f"({kind} block)"]


def _input_line(block: Json) -> str:
    el = block.get("element", {})
    label = _text_of(block.get("label"))
    if el.get("type") == "checkboxes":
        ticked = {o.get("value") for o in el.get("initial_options", [])}
        shown = ", ".join(
            ("[x] " if o.get("value") in ticked else "[ ] ") + _text_of(o.get("text")) for o in el.get("options", [])
        )
    elif el.get("type") == "static_select":
        shown = _text_of((el.get("initial_option") or {}).get("text")) or "(choose)"
    else:
        shown = el.get("initial_value") or ""
    required = "" if block.get("optional") else " *"
    return f"{label}{required}: {shown}"


def message_to_text(message: Json) -> str:
    blocks = message.get("blocks") or []
    if not blocks:
        return unescape_mrkdwn(str(message.get("text", "")))
    return "\n".join(line for block in blocks for line in _block_lines(block))


def view_to_text(view: Json) -> str:
    head = f"== {_text_of(view.get('title'))} =="
    body = [line for block in view.get("blocks", []) for line in _block_lines(block)]
    buttons = " ".join(f"[ {_text_of(view[k])} ]" for k in ("close", "submit") if k in view)
    return "\n".join([head, *body, buttons])


def _styled(plain: str) -> Text:
    text = Text()
    position = 0
    for span in _SPANS.finditer(plain):
        text.append(Emoji.replace(plain[position : span.start()]))
        kind = span.lastgroup or "bold"
        text.append(Emoji.replace(span.group(kind)), style=_STYLES[kind])
        position = span.end()
    text.append(Emoji.replace(plain[position:]))
    return text


def print_message(message: Json, *, console: Console | None = None, title: str | None = None) -> None:
    (console or Console()).print(
        Panel(_styled(message_to_text(message)), title=title, title_align="left", expand=False)
    )


def print_view(view: Json, *, console: Console | None = None) -> None:
    (console or Console()).print(Panel(_styled(view_to_text(view)), expand=False))
