"""How one request to the app is signed (validly, with a wrong secret, or too long ago), exactly what went over
the wire, and the app's answer: the values bot/sandbox/signed.py's `SignedSender` takes and gives back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

STALE_AGE: Final = 10 * 60  # Bolt refuses timestamps more than 5 minutes off


@dataclass(frozen=True)
class Signing:
    """How to sign one request: validly (the default), with a wrong secret, or too long ago."""

    forge: bool = False
    age: int = 0

    @classmethod
    def forged(cls) -> Signing:
        return cls(forge=True)

    @classmethod
    def stale(cls, age: int = STALE_AGE) -> Signing:
        return cls(age=age)


VALID: Final = Signing()


@dataclass(frozen=True)
class SentRequest:
    """Exactly what went over the wire: `SignedSender.resend` replays it byte for byte, as an
    attacker who captured it would (same timestamp, same signature)."""

    body: bytes
    headers: Mapping[str, str]


@dataclass(frozen=True)
class SignedResponse:
    """The app's answer, and what was sent (to read back a generated event_id or trigger_id)."""

    status: int
    body: Any  # the parsed JSON when the app answered JSON, else the text ("" for a bare ack)
    headers: Mapping[str, str]
    sent: dict[str, Any] = field(default_factory=dict)
    request: SentRequest | None = None

    @property
    def json(self) -> dict[str, Any]:
        if not isinstance(self.body, dict):
            raise TypeError(f"the app answered {self.body!r}, not a JSON object")
        return self.body
