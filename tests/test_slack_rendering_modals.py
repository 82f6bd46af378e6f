"""Modals and submissions for Slack, and the limits checker: every modal fits Slack, every
submission round-trips its modal's block ids, errors point at the input to fix.

No database and no Slack: every view is rendered from its template and checked here.
"""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from bot.slack import ids, modals
from bot.slack.limits import SlackLimitError, check_message, check_modal
from bot.slack.submissions import (
    CorrectionSubmission,
    DeclareSubmission,
    RejectSubmission,
    ResolutionSubmission,
    values_from_state,
)
from bot.slack.terminal import message_to_text, view_to_text
from tests.block_kit import Json, text_objects


def state_for(view: Json, typed: dict[str, str]) -> dict[str, dict[str, Json]]:
    """view.state.values as Slack would send it, built from the modal's own block/action ids."""
    state: dict[str, dict[str, Json]] = {}
    for block in view["blocks"]:
        if block["type"] != "input":
            continue
        el, block_id = block["element"], block["block_id"]
        value = typed.get(block_id, "")
        if el["type"] == "static_select":
            chosen = [o for o in el["options"] if o["value"] == value]
            state[block_id] = {
                el["action_id"]: {"type": "static_select", "selected_option": chosen[0] if chosen else None}
            }
        elif el["type"] == "checkboxes":
            ticked = [o for o in el["options"] if value and o["value"] in value.split(",")]
            state[block_id] = {el["action_id"]: {"type": "checkboxes", "selected_options": ticked}}
        else:
            state[block_id] = {el["action_id"]: {"type": "plain_text_input", "value": value or None}}
    return state


def input_block_ids(view: Json) -> list[str]:
    return [b["block_id"] for b in view["blocks"] if b["type"] == "input"]


# ---- the limits checker -----------------------------------------------------------------------


def test_checker_keeps_buttons_when_there_are_too_many_blocks() -> None:
    blocks: list[Json] = [{"type": "section", "text": {"type": "mrkdwn", "text": f"line {i}"}} for i in range(60)]
    blocks.append(
        {
            "type": "actions",
            "elements": [{"type": "button", "action_id": "a", "text": {"type": "plain_text", "text": "Go"}}],
        }
    )
    fixed = check_message({"text": "t", "blocks": blocks}, show_id="INC-9")
    assert len(fixed["blocks"]) == 50 and fixed["blocks"][-1]["type"] == "actions"
    assert "12 more blocks not shown" in message_to_text(fixed)
    assert len(blocks) == 61  # the argument is not changed


@pytest.mark.parametrize(
    "block",
    [
        {
            "type": "actions",
            "elements": [{"type": "button", "action_id": "a" * 256, "text": {"type": "plain_text", "text": "x"}}],
        },
        {
            "type": "actions",
            "elements": [
                {"type": "button", "action_id": "a", "value": "v" * 2001, "text": {"type": "plain_text", "text": "x"}}
            ],
        },
        {"type": "section", "block_id": "b" * 256, "text": {"type": "mrkdwn", "text": "x"}},
        {"type": "section", "fields": [{"type": "mrkdwn", "text": "x"}] * 11},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": "x"}] * 11},
        {"type": "section", "text": {"type": "mrkdwn", "text": " "}},
    ],
)
def test_checker_refuses_what_it_cannot_fix(block: Json) -> None:
    with pytest.raises(SlackLimitError):
        check_message({"text": "t", "blocks": [block]})


def test_checker_refuses_oversized_private_metadata() -> None:
    with pytest.raises(SlackLimitError, match="private_metadata"):
        modals.declare_modal(context={"blob": "x" * 3000})


def test_checker_cuts_a_long_modal_title_visibly() -> None:
    view = {
        "type": "modal",
        "title": {"type": "plain_text", "text": "A title far longer than Slack allows"},
        "blocks": [],
    }
    title = check_modal(view)["title"]["text"]
    assert len(title) <= 24 and title.endswith("…")


# ---- modals and submissions -------------------------------------------------------------------

ALL_MODALS = {
    ids.DECLARE_MODAL: lambda **kw: modals.declare_modal(**kw),
    ids.RESOLUTION_MODAL: lambda **kw: modals.resolution_modal("Checkout <!channel> timeouts " * 200, **kw),
    ids.CORRECTION_MODAL: lambda **kw: modals.correction_modal("INC-1", "Payments <@U123> down", **kw),
    ids.REJECT_MODAL: lambda **kw: modals.reject_modal("INC-1", "Payments down", **kw),
}


@pytest.mark.parametrize("callback_id", ALL_MODALS)
def test_modals_fit_slack(callback_id: str) -> None:
    view = ALL_MODALS[callback_id](context={"channel_id": "C1"})
    assert view["callback_id"] == callback_id
    for key in ("title", "submit", "close"):
        assert 0 < len(view[key]["text"]) <= 24
    assert len(view["blocks"]) <= 100 and len(view["private_metadata"]) <= 3000
    assert modals.read_metadata(view)["channel_id"] == "C1"
    for block in view["blocks"]:
        if block["type"] == "input" and block["element"]["type"] == "plain_text_input":
            assert block["element"]["max_length"] == 3000
    for obj in text_objects(view["blocks"]):
        if obj["type"] == "mrkdwn":
            assert not re.search(r"<[!@#]", obj["text"])


RESOLUTION_TYPED = {
    "root_cause": "Leaked connections <!channel>",
    "diagnosis": "pg_stat_activity",
    "resolution": "finally block",
    **{ids.failed_action_block(n): f"attempt {n}" for n in range(1, 6)},
    **{ids.failed_why_block(n): f"why {n}" for n in range(1, 6)},
    "lesson": "look for leaks",
    "verified": ids.VERIFIED_OPTION,
    "verification_note": "flat for a week",
    "notes": "runbook updated",
}


def test_resolution_submission_round_trips_the_modal_block_ids() -> None:
    view = modals.resolution_modal("Checkout timeouts")
    assert set(input_block_ids(view)) == set(ids.RESOLUTION_BLOCKS)
    sub = ResolutionSubmission.from_view_state(state_for(view, RESOLUTION_TYPED))
    assert sub.root_cause == "Leaked connections <!channel>"  # stored as typed; escaped only when shown
    assert [(a.action, a.why_it_failed) for a in sub.failed_attempts] == [
        (f"attempt {n}", f"why {n}") for n in range(1, 6)
    ]
    resolution = sub.to_resolution()
    assert (
        resolution.verified
        and resolution.verification_note == "flat for a week"
        and resolution.notes == "runbook updated"
    )


@pytest.mark.parametrize(
    ("modal", "declared"),
    [
        (lambda: modals.correction_modal("INC-1", "Checkout timeouts"), ids.CORRECTION_BLOCKS),
        (lambda: modals.confirm_modal("INC-1", "Checkout timeouts"), ids.CONFIRM_BLOCKS),
        (lambda: modals.reject_modal("INC-1", "Checkout timeouts"), ids.REJECT_BLOCKS),
        (lambda: modals.mark_modal("restarted the pods, errors back after 25 minutes"), ids.MARK_BLOCKS),
    ],
)
def test_each_memory_modal_has_exactly_the_inputs_ids_declares(modal, declared) -> None:  # noqa: ANN001
    assert set(input_block_ids(modal())) == set(declared)


def test_other_submissions_round_trip_their_modals() -> None:
    declare = modals.declare_modal()
    typed = {
        "title": "Checkout down",
        "service": "payments",
        "severity": "SEV2",
        "symptoms": "503s",
        "error_message": "timeout",
    }
    assert set(input_block_ids(declare)) == set(ids.DECLARE_BLOCKS)
    incident = DeclareSubmission.from_view_state(state_for(declare, typed)).to_incident(channel="C1", team="T1")
    assert (incident.title, incident.service, incident.severity, incident.symptoms, incident.error_message) == (
        "Checkout down",
        "payments",
        "SEV2",
        "503s",
        "timeout",
    )
    sparse = DeclareSubmission.from_view_state(state_for(declare, {"title": "Only a title"}))
    assert sparse.service is None and sparse.severity is None
    correction = modals.correction_modal("INC-1", "t")
    assert CorrectionSubmission.from_view_state(state_for(correction, {"text": "It was DNS"})).text == "It was DNS"
    reject = modals.reject_modal("INC-1", "t")
    assert RejectSubmission.from_view_state(state_for(reject, {"reason": "Wrong service"})).reason == "Wrong service"


def test_resolution_errors_point_at_the_input_to_fix() -> None:
    view = modals.resolution_modal("t")
    typed = {
        "root_cause": "",
        "resolution": "x" * 3001,
        ids.failed_action_block(2): "restarted pods",
        ids.failed_why_block(4): "it did not help",
        "verified": ids.VERIFIED_OPTION,
    }
    with pytest.raises(ValidationError) as caught:
        ResolutionSubmission.from_view_state(state_for(view, typed))
    errors = ResolutionSubmission.block_errors(caught.value)
    assert set(errors) == {
        "root_cause",
        "resolution",
        ids.failed_why_block(2),
        ids.failed_action_block(4),
        "verification_note",
    }
    assert errors["root_cause"] == "This is required."
    assert "3,000" in errors["resolution"]
    assert "why it failed" in errors[ids.failed_why_block(2)]
    assert set(errors) <= set(input_block_ids(view))


def test_declare_errors_name_their_blocks() -> None:
    state = {"title": {ids.INPUT_ACTION: {"type": "plain_text_input", "value": None}}}
    with pytest.raises(ValidationError) as caught:
        DeclareSubmission.from_view_state(state)
    assert DeclareSubmission.block_errors(caught.value) == {"title": "This is required."}


@pytest.mark.parametrize("callback_id", ALL_MODALS)
def test_prefilled_modal_keeps_every_typed_value(callback_id: str) -> None:
    view = ALL_MODALS[callback_id](context={"channel_id": "C1"})
    typed = {
        block_id: RESOLUTION_TYPED.get(block_id, f"typed <!channel> & {block_id}") for block_id in input_block_ids(view)
    }
    typed.pop("severity", None)
    if callback_id == ids.DECLARE_MODAL:
        typed["severity"] = "SEV3"
    submitted = {**view, "id": "V1", "hash": "h", "state": {"values": state_for(view, typed)}}
    again = modals.prefilled_modal(submitted, "Could not save: the database did not answer")
    assert again["callback_id"] == callback_id
    assert modals.read_metadata(again) == modals.read_metadata(view)
    assert "Could not save: the database did not answer" in view_to_text(again)
    assert again["blocks"][0]["block_id"] == ids.ERROR_BANNER_BLOCK
    # what the modal would send back now is exactly what was typed
    shown = {b["block_id"]: b["element"] for b in again["blocks"] if b["type"] == "input"}
    for block_id, value in typed.items():
        element = shown[block_id]
        if element["type"] == "static_select":
            assert element["initial_option"]["value"] == value
        elif element["type"] == "checkboxes":
            assert [o["value"] for o in element["initial_options"]] == [value]
        else:
            assert element["initial_value"] == value
    assert values_from_state(state_for(again, typed)) == values_from_state(submitted["state"]["values"])
