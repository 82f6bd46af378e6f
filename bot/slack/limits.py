"""Slack's limits, applied to every payload before it is sent (see docs/SLACK.md).

What can be fixed without losing meaning is fixed visibly: long text is cut and says so
("… truncated — `/incident show ID`"), too many blocks are cut and say how many were left out.
What cannot (an id, a button value, private_metadata, a modal's inputs) raises
`SlackLimitError` naming where and which limit: truncating those would silently break a flow.

- `check_message(message, *, show_id=None) -> dict`   chat.postMessage / chat.update payloads
- `check_modal(view) -> dict`                          views.open / views.update / response views
- `truncation_marker(show_id) -> str`

Both return a fixed copy and never change their argument. Text limits count characters, as
Slack does; cuts never split an `&amp;`-style entity.
"""

from __future__ import annotations

import copy
from typing import Any

from bot.slack.commands import in_use
from bot.slack.escape import ELLIPSIS, cut, escape_mrkdwn

MESSAGE_BLOCKS = 50
MODAL_BLOCKS = 100
SECTION_TEXT = 3000
FIELDS = 10
FIELD_TEXT = 2000
HEADER_TEXT = 150
CONTEXT_ELEMENTS = 10
ACTIONS_ELEMENTS = 25
ID_LENGTH = 255
BUTTON_TEXT = 75
BUTTON_VALUE = 2000
PLACEHOLDER = 150
INPUT_MAX_LENGTH = 3000
LABEL_TEXT = 2000
OPTIONS = 100
OPTION_TEXT = 75
OPTION_VALUE = 150
MODAL_TITLE = 24
PRIVATE_METADATA = 3000
MESSAGE_TEXT = 4000
MESSAGE_BLOCKS_TEXT = 12000
# a text cut to fit the message's total is never cut below this, so it still says something
MIN_KEPT_TEXT = 200

Json = dict[str, Any]


class SlackLimitError(ValueError):
    """A payload breaks a Slack limit that cannot be fixed without changing what it means."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


def truncation_marker(show_id: str | None) -> str:
    if show_id:
        return f"\n{ELLIPSIS} truncated — `{in_use().incident} show {escape_mrkdwn(show_id)}`"
    return f"\n{ELLIPSIS} truncated"


class _Checker:
    def __init__(self, marker: str) -> None:
        self.marker = marker
        # text objects that may be shortened to fit a message's total, with their own limit
        self.shrinkable: list[Json] = []

    # ---- text --------------------------------------------------------------------------------
    def text(self, obj: Any, where: str, limit: int, *, long_form: bool = False, shrinkable: bool = False) -> None:
        if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
            raise SlackLimitError(where, "a text object needs a string `text`")
        if not obj["text"].strip():
            raise SlackLimitError(where, "text must not be empty")
        obj["text"] = cut(obj["text"], limit, self.marker if long_form else ELLIPSIS)
        if shrinkable and obj.get("type") == "mrkdwn":
            self.shrinkable.append(obj)

    @staticmethod
    def length(where: str, value: Any, limit: int, what: str) -> None:
        if value is not None and len(str(value)) > limit:
            raise SlackLimitError(where, f"{what} is {len(str(value))} characters, the limit is {limit}")

    # ---- elements ----------------------------------------------------------------------------
    def element(self, el: Json, where: str) -> None:
        self.length(where, el.get("action_id"), ID_LENGTH, "action_id")
        kind = el.get("type")
        if "placeholder" in el:
            self.text(el["placeholder"], f"{where}.placeholder", PLACEHOLDER)
        if kind == "button":
            self.text(el.get("text"), f"{where}.text", BUTTON_TEXT)
            self.length(where, el.get("value"), BUTTON_VALUE, "button value")
        elif kind == "plain_text_input":
            max_length = int(el.get("max_length", INPUT_MAX_LENGTH))
            if max_length > INPUT_MAX_LENGTH:
                raise SlackLimitError(where, f"max_length is {max_length}, the limit is {INPUT_MAX_LENGTH}")
            self.length(where, el.get("initial_value"), max_length, "initial_value")
        options = el.get("options")
        if options is not None:
            if len(options) > OPTIONS:
                raise SlackLimitError(where, f"{len(options)} options, the limit is {OPTIONS}")
            for i, option in enumerate(options):
                self.text(option.get("text"), f"{where}.options[{i}].text", OPTION_TEXT)
                self.length(f"{where}.options[{i}]", option.get("value"), OPTION_VALUE, "option value")

    # ---- blocks ------------------------------------------------------------------------------
    def block(self, block: Json, where: str) -> None:
        self.length(where, block.get("block_id"), ID_LENGTH, "block_id")
        kind = block.get("type")
        if kind == "section":
            if "text" in block:
                self.text(block["text"], f"{where}.text", SECTION_TEXT, long_form=True, shrinkable=True)
            fields = block.get("fields", [])
            if len(fields) > FIELDS:
                raise SlackLimitError(where, f"{len(fields)} fields, the limit is {FIELDS}")
            for i, field in enumerate(fields):
                self.text(field, f"{where}.fields[{i}]", FIELD_TEXT, long_form=True, shrinkable=True)
            if "accessory" in block:
                self.element(block["accessory"], f"{where}.accessory")
        elif kind == "header":
            self.text(block.get("text"), f"{where}.text", HEADER_TEXT)
        elif kind == "context":
            elements = block.get("elements", [])
            if len(elements) > CONTEXT_ELEMENTS:
                raise SlackLimitError(where, f"{len(elements)} context elements, the limit is {CONTEXT_ELEMENTS}")
            for i, el in enumerate(elements):
                if el.get("type") in ("mrkdwn", "plain_text"):
                    self.text(el, f"{where}.elements[{i}]", SECTION_TEXT, long_form=True, shrinkable=True)
        elif kind == "actions":
            elements = block.get("elements", [])
            if len(elements) > ACTIONS_ELEMENTS:
                raise SlackLimitError(where, f"{len(elements)} actions elements, the limit is {ACTIONS_ELEMENTS}")
            for i, el in enumerate(elements):
                self.element(el, f"{where}.elements[{i}]")
        elif kind == "input":
            self.text(block.get("label"), f"{where}.label", LABEL_TEXT)
            if "hint" in block:
                self.text(block["hint"], f"{where}.hint", LABEL_TEXT)
            self.element(block.get("element", {}), f"{where}.element")

    def fit_total(self, blocks: list[Json]) -> None:
        """Shorten the longest texts until the blocks' text fits Slack's per-message total."""
        while (excess := _block_text_length(blocks) - MESSAGE_BLOCKS_TEXT) > 0:
            longest = max(self.shrinkable, key=lambda obj: len(obj["text"]), default=None)
            if longest is None or len(longest["text"]) <= MIN_KEPT_TEXT:
                raise SlackLimitError("blocks", f"text is {excess} characters over the {MESSAGE_BLOCKS_TEXT} total")
            target = max(MIN_KEPT_TEXT, len(longest["text"]) - excess)
            longest["text"] = cut(longest["text"], target, self.marker)


def _block_text_length(value: Any) -> int:
    if isinstance(value, dict):
        text = value.get("text")
        own = len(text) if value.get("type") in ("mrkdwn", "plain_text") and isinstance(text, str) else 0
        return own + sum(_block_text_length(v) for v in value.values())
    if isinstance(value, list):
        return sum(_block_text_length(v) for v in value)
    return 0


def _fit_block_count(blocks: list[Json], limit: int, marker: str) -> list[Json]:
    """Keep the buttons (actions blocks) and as much content as fits, and say what was left out."""
    if len(blocks) <= limit:
        return blocks
    actions = [b for b in blocks if b.get("type") == "actions"]
    content = [b for b in blocks if b.get("type") != "actions"]
    keep = limit - len(actions) - 1
    if keep < 1:
        raise SlackLimitError("blocks", f"{len(actions)} actions blocks leave no room for content")
    left_out = len(content) - keep
    notice = {
        "type": "context",
        "elements": [{"type": "mrkdwn", "text": f"{left_out} more blocks not shown{marker.replace(chr(10), ' ')}"}],
    }
    return [*content[:keep], notice, *actions]


def check_message(message: Json, *, show_id: str | None = None) -> Json:
    """A copy of `message` that fits Slack's limits; `show_id` names the memory a cut points to."""
    fixed = copy.deepcopy(message)
    marker = truncation_marker(show_id)
    blocks = fixed.get("blocks", [])
    text = fixed.get("text")
    if not blocks and not (isinstance(text, str) and text.strip()):
        raise SlackLimitError("message", "needs `text` or `blocks`")
    if isinstance(text, str):
        fixed["text"] = cut(text, MESSAGE_TEXT, marker)
    blocks = _fit_block_count(blocks, MESSAGE_BLOCKS, marker)
    checker = _Checker(marker)
    for i, block in enumerate(blocks):
        checker.block(block, f"blocks[{i}]")
    checker.fit_total(blocks)
    _require_unique_block_ids(blocks)
    if blocks:
        fixed["blocks"] = blocks
    return fixed


def check_modal(view: Json) -> Json:
    """A copy of `view` that fits Slack's limits for a modal."""
    fixed = copy.deepcopy(view)
    checker = _Checker(truncation_marker(None))
    if fixed.get("type") != "modal":
        raise SlackLimitError("view", "type must be 'modal'")
    for key in ("title", "submit", "close"):
        if key in fixed:
            checker.text(fixed[key], f"view.{key}", MODAL_TITLE)
    if "title" not in fixed:
        raise SlackLimitError("view", "a modal needs a title")
    blocks = fixed.get("blocks", [])
    if len(blocks) > MODAL_BLOCKS:
        raise SlackLimitError("view", f"{len(blocks)} blocks, the limit is {MODAL_BLOCKS}")
    if any(b.get("type") == "input" for b in blocks) and "submit" not in fixed:
        raise SlackLimitError("view", "a modal with inputs needs a submit button")
    checker.length("view", fixed.get("callback_id"), ID_LENGTH, "callback_id")
    checker.length("view", fixed.get("private_metadata"), PRIVATE_METADATA, "private_metadata")
    for i, block in enumerate(blocks):
        checker.block(block, f"blocks[{i}]")
    _require_unique_block_ids(blocks)
    return fixed


def check_home(view: Json) -> Json:
    """A copy of an App Home `view` that fits Slack's limits (100 blocks, as a modal)."""
    fixed = copy.deepcopy(view)
    if fixed.get("type") != "home":
        raise SlackLimitError("view", "type must be 'home'")
    blocks = fixed.get("blocks", [])
    if len(blocks) > MODAL_BLOCKS:
        raise SlackLimitError("view", f"{len(blocks)} blocks, the limit is {MODAL_BLOCKS}")
    checker = _Checker(truncation_marker(None))
    checker.length("view", fixed.get("private_metadata"), PRIVATE_METADATA, "private_metadata")
    for i, block in enumerate(blocks):
        checker.block(block, f"blocks[{i}]")
    _require_unique_block_ids(blocks)
    return fixed


def _require_unique_block_ids(blocks: list[Json]) -> None:
    block_ids = [b["block_id"] for b in blocks if "block_id" in b]
    duplicates = sorted({b for b in block_ids if block_ids.count(b) > 1})
    if duplicates:
        raise SlackLimitError("blocks", f"block_ids must be unique, repeated: {', '.join(duplicates)}")
