"""Modal submissions: Slack's `view.state.values` → validated pydantic models.

Each model's fields are named after its modal's block_ids (see `bot.slack.ids`), so a
validation error maps straight back to the input that caused it:

    try:
        sub = ResolutionSubmission.from_view_state(view["state"]["values"])
    except ValidationError as exc:
        await ack(response_action="errors", errors=ResolutionSubmission.block_errors(exc))

- `DeclareSubmission`     title*, service, severity (SEV1–SEV4), symptoms, error_message; `.to_incident()`
- `ResolutionSubmission`  symptoms, root_cause*, diagnosis, resolution*, attempt rows (action + why, both or
                          neither), lesson, verified (+ verification_note, then required), notes;
                          `.failed_attempts`, `.to_resolution()`
- `CorrectionSubmission`  text*
- `RejectSubmission`      reason*
- `ConfirmSubmission`     note*
- `MarkSubmission`        kind* (failed_attempt | fix | root_cause), why (required for a failed attempt)
- `values_from_state(state_values) -> dict[block_id, str]`   the raw typed values
(* required). Blank optional inputs become None; text is bounded at 3,000 characters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from bot.models import FailedAttempt, Incident, RequiredText, Resolution, Text
from bot.slack import ids

StateValues = Mapping[str, Mapping[str, Mapping[str, Any]]]


def values_from_state(state_values: StateValues) -> dict[str, str]:
    """block_id → what the user entered: input text, the selected option's value, or the ticked
    checkbox values joined by commas ("" when nothing)."""
    values: dict[str, str] = {}
    for block_id, actions in state_values.items():
        for action in actions.values():
            kind = action.get("type")
            if kind in ("static_select", "radio_buttons"):
                values[block_id] = (action.get("selected_option") or {}).get("value", "")
            elif kind == "checkboxes":
                values[block_id] = ",".join(o.get("value", "") for o in action.get("selected_options") or [])
            else:
                values[block_id] = action.get("value") or ""
    return values


def _blank_to_none(value: object) -> object:
    return None if isinstance(value, str) and not value.strip() else value


OptionalText = Annotated[Text | None, BeforeValidator(_blank_to_none)]
Severity = Literal["SEV1", "SEV2", "SEV3", "SEV4"]


def _friendly(error: Mapping[str, Any]) -> str:
    ctx = error.get("ctx") or {}
    kind = error["type"]
    if kind in ("missing", "string_too_short"):
        return "This is required."
    if kind == "string_too_long":
        return f"Keep this under {ctx['max_length']:,} characters (it has {len(str(error['input'])):,})."
    if kind == "literal_error":
        expected = ctx.get("expected", "")
        if "failed_attempt" in expected:
            return "Choose what this message is."
        return f"Choose one of {', '.join(ids.SEVERITIES)}."
    return str(error["msg"])


class Submission(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    @classmethod
    def _fields_from(cls, values: Mapping[str, str]) -> dict[str, Any]:
        return {name: values.get(name, "") for name in cls.model_fields}

    @classmethod
    def from_view_state(cls, state_values: StateValues) -> Self:
        """Parse `view.state.values`; raises pydantic's ValidationError (see `block_errors`)."""
        return cls.model_validate(cls._fields_from(values_from_state(state_values)))

    @classmethod
    def _block_of(cls, error: Mapping[str, Any]) -> str:
        """The input an error belongs to: fields are named after their block_ids."""
        loc = tuple(error["loc"])
        return str(loc[0]) if loc else ""

    @classmethod
    def block_errors(cls, exc: ValidationError) -> dict[str, str]:
        """`{block_id: message}` for `response_action: errors`, the first problem per input."""
        errors: dict[str, str] = {}
        for error in exc.errors():
            errors.setdefault(cls._block_of(error) or ids.ERROR_BANNER_BLOCK, _friendly(error))
        return errors


class DeclareSubmission(Submission):
    title: RequiredText
    service: OptionalText = None
    severity: Annotated[Severity | None, BeforeValidator(_blank_to_none)] = None
    symptoms: OptionalText = None
    error_message: OptionalText = None

    def to_incident(self, *, channel: str | None = None, team: str | None = None) -> Incident:
        return Incident(**self.model_dump(), channel=channel, team=team)


class AttemptRow(BaseModel):
    """One failed-attempt row of the resolution modal; blank rows are allowed and skipped."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    action: Text = ""
    why_it_failed: Text = ""

    @model_validator(mode="after")
    def _both_or_neither(self) -> Self:
        if self.action and not self.why_it_failed:
            raise PydanticCustomError("attempt_missing_why", "Say why it failed, so nobody tries it blind again.")
        if self.why_it_failed and not self.action:
            raise PydanticCustomError("attempt_missing_action", "Say what was tried.")
        return self


class ResolutionSubmission(Submission):
    symptoms: OptionalText = None
    root_cause: RequiredText
    diagnosis: OptionalText = None
    resolution: RequiredText
    attempt_rows: list[AttemptRow] = Field(default_factory=list, max_length=ids.MAX_FAILED_ATTEMPT_ROWS)
    lesson: OptionalText = None
    verified: bool = False
    # validated even when absent, and as a field so its error shows with the others at once
    verification_note: OptionalText = Field(default=None, validate_default=True)
    notes: OptionalText = None

    @field_validator("verification_note")
    @classmethod
    def _verified_needs_note(cls, note: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("verified") and not note:
            raise PydanticCustomError(
                "verification_note_missing", "Say how the fix was verified, or untick 'Verified fix'."
            )
        return note

    @property
    def failed_attempts(self) -> list[FailedAttempt]:
        return [FailedAttempt(action=r.action, why_it_failed=r.why_it_failed) for r in self.attempt_rows if r.action]

    def to_resolution(self) -> Resolution:
        data = self.model_dump(exclude={"attempt_rows"})
        return Resolution(**data, failed_attempts=self.failed_attempts)

    @classmethod
    def _fields_from(cls, values: Mapping[str, str]) -> dict[str, Any]:
        fields = {name: values.get(name, "") for name in cls.model_fields if name not in ("attempt_rows", "verified")}
        fields["verified"] = ids.VERIFIED_OPTION in values.get("verified", "").split(",")
        fields["attempt_rows"] = [
            {
                "action": values.get(ids.failed_action_block(slot), ""),
                "why_it_failed": values.get(ids.failed_why_block(slot), ""),
            }
            for slot in range(1, ids.MAX_FAILED_ATTEMPT_ROWS + 1)
        ]
        return fields

    @classmethod
    def _block_of(cls, error: Mapping[str, Any]) -> str:
        loc = tuple(error["loc"])
        if len(loc) >= 2 and loc[0] == "attempt_rows" and isinstance(loc[1], int):
            slot = loc[1] + 1
            about_why = loc[2:] == ("why_it_failed",) or error["type"] == "attempt_missing_why"
            return ids.failed_why_block(slot) if about_why else ids.failed_action_block(slot)
        return super()._block_of(error)


class CorrectionSubmission(Submission):
    text: RequiredText


class RejectSubmission(Submission):
    reason: RequiredText


class ConfirmSubmission(Submission):
    note: RequiredText


class MarkSubmission(Submission):
    """ "Add to incident memory": what the message is, and why it failed (for a failed attempt)."""

    kind: Literal["failed_attempt", "fix", "root_cause"]
    # validated even when absent, so a missing why shows with the other errors at once
    why: OptionalText = Field(default=None, validate_default=True)

    @field_validator("why")
    @classmethod
    def _failed_attempt_needs_why(cls, why: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("kind") == "failed_attempt" and not why:
            raise PydanticCustomError("mark_missing_why", "Say why it failed, so nobody tries it blind again.")
        return why
