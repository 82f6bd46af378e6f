"""The ids Slack sends back to the bot: handlers route on them, submissions parse by them.

Templates receive these through `ids` in their context, so a template and its handler can never
disagree on a spelling.
"""

from __future__ import annotations

from typing import Final

# ---- buttons (action_id); a memory button's value is the memory's incident_id -----------------
MEMORY_HELPFUL: Final = "memory_helpful"
MEMORY_NOT_RELEVANT: Final = "memory_not_relevant"
MEMORY_ADD_CORRECTION: Final = "memory_add_correction"
MEMORY_REJECT: Final = "memory_reject"
MEMORY_CONFIRM: Final = "memory_confirm"  # opens the note modal; on recall cards and in App Home
# value: JSON {"id", "reasons", "numbers"} of one recalled memory (messages.why_value); opens
# a modal with the numbers behind it, which the card itself leaves out
MEMORY_WHY: Final = "memory_why"
# value: the current incident's reference (given to recall_parent), or absent
INCIDENT_INVESTIGATE: Final = "incident_investigate"
# value: the current incident's reference; opens the resolution modal
INCIDENT_RESOLVE: Final = "incident_resolve"
# "Save what we learned" on a nudge or in App Home; value: the incident's id
NUDGE_SAVE: Final = "nudge_save"
# App Home: the recall search box (an input that dispatches on enter)
HOME_SEARCH: Final = "home_search"
HOME_SEARCH_BLOCK: Final = "home_search_block"

# ---- shortcuts (callback_id) --------------------------------------------------------------------
ADD_TO_MEMORY_SHORTCUT: Final = "add_to_incident_memory"

# value: the key under which a form Slack could not open in time is kept; opens it
OPEN_FORM: Final = "open_form"

# ---- modals (callback_id) -----------------------------------------------------------------------
DECLARE_MODAL: Final = "incident_declare"
RESOLUTION_MODAL: Final = "incident_resolution"
CORRECTION_MODAL: Final = "memory_correction"
REJECT_MODAL: Final = "memory_reject_reason"
CONFIRM_MODAL: Final = "memory_confirm_note"
MARK_MODAL: Final = "incident_mark_message"

# ---- modal inputs: block_id (= the submission model's field name); every input's action_id ------
INPUT_ACTION: Final = "value"
ERROR_BANNER_BLOCK: Final = "error_banner"

DECLARE_BLOCKS = ("title", "service", "severity", "symptoms", "error_message")
MAX_FAILED_ATTEMPT_ROWS: Final = 5


def failed_action_block(slot: int) -> str:
    """block_id of failed attempt `slot` (1-based): what was tried."""
    return f"failed_{slot}_action"


def failed_why_block(slot: int) -> str:
    """block_id of failed attempt `slot` (1-based): why it did not work."""
    return f"failed_{slot}_why"


def source_block(block_id: str) -> str:
    """block_id of the line under a drafted input that quotes where its draft came from."""
    return f"{block_id}_source"


RESOLUTION_BLOCKS = (
    "symptoms",
    "root_cause",
    "diagnosis",
    "resolution",
    *(b for slot in range(1, MAX_FAILED_ATTEMPT_ROWS + 1) for b in (failed_action_block(slot), failed_why_block(slot))),
    "lesson",
    "verified",
    "verification_note",
    "notes",
)
VERIFIED_OPTION: Final = "verified"
CORRECTION_BLOCKS = ("text",)
CONFIRM_BLOCKS = ("note",)
MARK_BLOCKS = ("kind", "why")
REJECT_BLOCKS = ("reason",)

SEVERITIES = ("SEV1", "SEV2", "SEV3", "SEV4")
