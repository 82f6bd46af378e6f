"""What real Slack refuses in a message or a modal, checked the way Slack answers.

The sandbox runs these on every payload so that a rendering bug fails a test here instead of
in a customer's workspace. Each check returns problems as Slack words them in
`response_metadata.messages` ("[ERROR] ... [json-pointer:/blocks/3/text]"); an empty list means
Slack would accept it. The bounds are Slack's documented ones (docs/SLACK.md); where Slack's is
fuzzy ("about 12,000" characters across a message's blocks) the sandbox takes that number as
exact and says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

MAX_MESSAGE_BLOCKS: Final = 50
MAX_VIEW_BLOCKS: Final = 100
MAX_MESSAGE_TEXT: Final = 40_000
# Slack refuses with msg_blocks_too_long somewhere "about" here; the sandbox is exact.
MAX_BLOCKS_TEXT: Final = 12_000
MAX_VIEW_TITLE: Final = 24
MAX_PRIVATE_METADATA: Final = 3_000
MAX_ID: Final = 255
MAX_SECTION_TEXT: Final = 3_000
MAX_FIELDS: Final = 10
MAX_FIELD_TEXT: Final = 2_000
MAX_HEADER_TEXT: Final = 150
MAX_CONTEXT_ELEMENTS: Final = 10
MAX_ACTIONS_ELEMENTS: Final = 25
MAX_BUTTON_TEXT: Final = 75
MAX_BUTTON_VALUE: Final = 2_000
MAX_PLACEHOLDER: Final = 150
MAX_INPUT_LENGTH: Final = 3_000
MAX_OPTIONS: Final = 100
MAX_OPTION_TEXT: Final = 75
MAX_OPTION_VALUE: Final = 150
MAX_LABEL: Final = 2_000

TEXT_TYPES: Final = frozenset({"plain_text", "mrkdwn"})
# Elements whose options Slack bounds at 100 entries of 75/150 characters.
OPTION_ELEMENTS: Final = frozenset({"static_select", "multi_static_select", "radio_buttons", "checkboxes", "overflow"})


def _error(detail: str, pointer: str) -> str:
    return f"[ERROR] {detail} [json-pointer:{pointer}]"


def _text_object(obj: Any, pointer: str, *, limit: int, plain_only: bool = False) -> list[str]:
    if not isinstance(obj, Mapping):
        return [_error("must be a text object", pointer)]
    kind = obj.get("type")
    if kind not in TEXT_TYPES or (plain_only and kind != "plain_text"):
        allowed = "plain_text" if plain_only else "plain_text or mrkdwn"
        return [_error(f"must be {allowed}", pointer + "/type")]
    text = obj.get("text")
    if not isinstance(text, str) or not text:
        return [_error("must be more than 0 characters", pointer + "/text")]
    if len(text) > limit:
        return [_error(f"must be less than {limit + 1} characters", pointer + "/text")]
    return []


def _options(options: Any, pointer: str) -> list[str]:
    if not isinstance(options, list):
        return [_error("must be an array", pointer)]
    problems: list[str] = []
    if len(options) > MAX_OPTIONS:
        problems.append(_error(f"must be less than {MAX_OPTIONS + 1} items", pointer))
    for i, option in enumerate(options):
        where = f"{pointer}/{i}"
        if not isinstance(option, Mapping):
            problems.append(_error("must be an option object", where))
            continue
        problems += _text_object(option.get("text"), where + "/text", limit=MAX_OPTION_TEXT)
        value = option.get("value")
        if not isinstance(value, str) or len(value) > MAX_OPTION_VALUE:
            problems.append(_error(f"must be a string of at most {MAX_OPTION_VALUE} characters", where + "/value"))
    return problems


def _element(element: Any, pointer: str) -> list[str]:
    """An interactive or input element (button, select, plain_text_input...)."""
    if not isinstance(element, Mapping) or not isinstance(element.get("type"), str):
        return [_error("must be an element with a type", pointer)]
    problems: list[str] = []
    kind = element["type"]
    action_id = element.get("action_id")
    if action_id is not None and (not isinstance(action_id, str) or len(action_id) > MAX_ID):
        problems.append(_error(f"must be less than {MAX_ID + 1} characters", pointer + "/action_id"))
    if kind == "button":
        problems += _text_object(element.get("text"), pointer + "/text", limit=MAX_BUTTON_TEXT, plain_only=True)
        value = element.get("value")
        if value is not None and (not isinstance(value, str) or len(value) > MAX_BUTTON_VALUE):
            problems.append(_error(f"must be less than {MAX_BUTTON_VALUE + 1} characters", pointer + "/value"))
    if "placeholder" in element:
        problems += _text_object(element["placeholder"], pointer + "/placeholder", limit=MAX_PLACEHOLDER)
    if kind in OPTION_ELEMENTS and "option_groups" not in element:
        problems += _options(element.get("options"), pointer + "/options")
    if kind == "plain_text_input":
        max_length = element.get("max_length")
        if max_length is not None and (not isinstance(max_length, int) or not 0 < max_length <= MAX_INPUT_LENGTH):
            problems.append(_error(f"must be between 1 and {MAX_INPUT_LENGTH}", pointer + "/max_length"))
    return problems


def _unique_action_ids(elements: list[Any], pointer: str) -> list[str]:
    seen: set[str] = set()
    problems: list[str] = []
    for i, element in enumerate(elements):
        action_id = element.get("action_id") if isinstance(element, Mapping) else None
        if isinstance(action_id, str):
            if action_id in seen:
                problems.append(_error("action_id must be unique in the block", f"{pointer}/{i}/action_id"))
            seen.add(action_id)
    return problems


def _block(block: Any, pointer: str, *, in_view: bool) -> list[str]:
    if not isinstance(block, Mapping) or not isinstance(block.get("type"), str):
        return [_error("must be a block with a type", pointer)]
    problems: list[str] = []
    kind = block["type"]
    block_id = block.get("block_id")
    if block_id is not None and (not isinstance(block_id, str) or not block_id or len(block_id) > MAX_ID):
        problems.append(_error(f"must be 1 to {MAX_ID} characters", pointer + "/block_id"))
    if kind == "section":
        if "text" not in block and "fields" not in block:
            problems.append(_error("must provide text or fields", pointer))
        if "text" in block:
            problems += _text_object(block["text"], pointer + "/text", limit=MAX_SECTION_TEXT)
        if "fields" in block:
            fields = block["fields"]
            if not isinstance(fields, list) or len(fields) > MAX_FIELDS:
                problems.append(_error(f"must be an array of at most {MAX_FIELDS} items", pointer + "/fields"))
            else:
                for i, field in enumerate(fields):
                    problems += _text_object(field, f"{pointer}/fields/{i}", limit=MAX_FIELD_TEXT)
        if "accessory" in block:
            problems += _element(block["accessory"], pointer + "/accessory")
    elif kind == "header":
        problems += _text_object(block.get("text"), pointer + "/text", limit=MAX_HEADER_TEXT, plain_only=True)
    elif kind == "context":
        elements = block.get("elements")
        if not isinstance(elements, list) or not 0 < len(elements) <= MAX_CONTEXT_ELEMENTS:
            problems.append(_error(f"must be an array of 1 to {MAX_CONTEXT_ELEMENTS} items", pointer + "/elements"))
        else:
            for i, element in enumerate(elements):
                where = f"{pointer}/elements/{i}"
                if isinstance(element, Mapping) and element.get("type") in TEXT_TYPES:
                    problems += _text_object(element, where, limit=MAX_SECTION_TEXT)
    elif kind == "actions":
        elements = block.get("elements")
        if not isinstance(elements, list) or not 0 < len(elements) <= MAX_ACTIONS_ELEMENTS:
            problems.append(_error(f"must be an array of 1 to {MAX_ACTIONS_ELEMENTS} items", pointer + "/elements"))
        else:
            for i, element in enumerate(elements):
                problems += _element(element, f"{pointer}/elements/{i}")
            problems += _unique_action_ids(elements, pointer + "/elements")
    elif kind == "input":
        if not in_view:
            problems.append(_error("input blocks are only allowed in modals", pointer))
        problems += _text_object(block.get("label"), pointer + "/label", limit=MAX_LABEL, plain_only=True)
        if "hint" in block:
            problems += _text_object(block["hint"], pointer + "/hint", limit=MAX_LABEL, plain_only=True)
        problems += _element(block.get("element"), pointer + "/element")
    return problems


def _text_length(value: Any) -> int:
    """All the `text` strings inside a block structure, counted as Slack counts its budget."""
    if isinstance(value, Mapping):
        return sum(len(v) if k == "text" and isinstance(v, str) else _text_length(v) for k, v in value.items())
    if isinstance(value, list):
        return sum(_text_length(v) for v in value)
    return 0


def check_blocks(blocks: Any, *, limit: int, in_view: bool = False) -> list[str]:
    """Problems with a `blocks` array; the caller answers `invalid_blocks` if there are any."""
    if not isinstance(blocks, list):
        return [_error("must be an array", "/blocks")]
    problems: list[str] = []
    if len(blocks) > limit:
        problems.append(_error(f"must be less than {limit + 1} items", "/blocks"))
    seen: set[str] = set()
    for i, block in enumerate(blocks):
        problems += _block(block, f"/blocks/{i}", in_view=in_view)
        block_id = block.get("block_id") if isinstance(block, Mapping) else None
        if isinstance(block_id, str):
            if block_id in seen:
                problems.append(_error("block_id must be unique", f"/blocks/{i}/block_id"))
            seen.add(block_id)
    return problems


def blocks_text_too_long(blocks: list[Any]) -> bool:
    """True when the blocks together carry more text than Slack takes (msg_blocks_too_long)."""
    return _text_length(blocks) > MAX_BLOCKS_TEXT


def check_view_arguments(view: Mapping[str, Any]) -> list[str]:
    """Problems Slack answers with `invalid_arguments`: title, buttons, metadata, shape."""
    problems: list[str] = []
    kind = view.get("type")
    if kind not in ("modal", "home"):
        problems.append(_error("must be modal or home", "/view/type"))
    if kind == "modal":
        problems += _text_object(view.get("title"), "/view/title", limit=MAX_VIEW_TITLE, plain_only=True)
    for button in ("submit", "close"):
        if button in view:
            problems += _text_object(view[button], f"/view/{button}", limit=MAX_VIEW_TITLE, plain_only=True)
    blocks = view.get("blocks")
    has_input = isinstance(blocks, list) and any(isinstance(b, Mapping) and b.get("type") == "input" for b in blocks)
    if kind == "modal" and has_input and "submit" not in view:
        problems.append(_error("submit is required when an input block is within the view", "/view/submit"))
    metadata = view.get("private_metadata")
    if metadata is not None and (not isinstance(metadata, str) or len(metadata) > MAX_PRIVATE_METADATA):
        problems.append(_error(f"must be less than {MAX_PRIVATE_METADATA + 1} characters", "/view/private_metadata"))
    callback_id = view.get("callback_id")
    if callback_id is not None and (not isinstance(callback_id, str) or len(callback_id) > MAX_ID):
        problems.append(_error(f"must be less than {MAX_ID + 1} characters", "/view/callback_id"))
    return problems
