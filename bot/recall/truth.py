"""The truth machine: which truth-state moves are allowed. Pure, one-way, audited by the store."""

from __future__ import annotations

from bot.models import TruthState

_CONFIRMED = (TruthState.HUMAN_CONFIRMED, TruthState.VERIFICATION_CONFIRMED)

ALLOWED_MOVES: dict[TruthState, frozenset[TruthState]] = {
    TruthState.UNCONFIRMED_HYPOTHESIS: frozenset({*_CONFIRMED, TruthState.REJECTED, TruthState.SUPERSEDED}),
    # verified later by someone other than its author (bot/policy.py Act.VERIFY)
    TruthState.HUMAN_CONFIRMED: frozenset({TruthState.VERIFICATION_CONFIRMED, TruthState.SUPERSEDED}),
    TruthState.VERIFICATION_CONFIRMED: frozenset({TruthState.SUPERSEDED}),
    TruthState.REJECTED: frozenset({TruthState.SUPERSEDED}),
    TruthState.SUPERSEDED: frozenset(),
}


def refusal(from_state: TruthState, to_state: TruthState) -> str | None:
    """Why a move is refused, or None when it is allowed."""
    if to_state in ALLOWED_MOVES[from_state]:
        return None
    if from_state is TruthState.SUPERSEDED:
        return "superseded is final"
    if from_state == to_state:
        return f"the memory is already {to_state.value}"
    if from_state is TruthState.HUMAN_CONFIRMED:
        return "a human_confirmed memory can only be verified, or superseded by a newer one"
    if from_state in _CONFIRMED or from_state is TruthState.REJECTED:
        return f"a {from_state.value} memory can only be superseded by a newer one"
    return "unconfirmed hypotheses can only move to a confirmed, rejected or superseded state"
