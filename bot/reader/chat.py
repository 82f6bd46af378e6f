"""Channel messages, read: a sentence that says an action was taken and did not work, split into
what was tried and why it failed. The cue words are bot/reader/cues.py's; the offline drafter
(bot/drafting/rules.py) reads a channel with them.
"""

from __future__ import annotations

import re

from bot.models import MAX_TEXT
from bot.reader.cues import CHAT_ACTION, CHAT_FAILED, CHAT_SPLIT


def clip(text: str, limit: int = MAX_TEXT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def tidy(text: str) -> str:
    """A clause as a field's text: trimmed of joining words and punctuation, first letter up."""
    text = re.sub(r"^(?:and|so|then|we|i|just|also)\s+", "", text.strip(" ,;:-—–.…"), flags=re.IGNORECASE)
    text = text.strip(" ,;:-—–.…")
    return clip(text[:1].upper() + text[1:]) if text else ""


def split_attempt(sentence: str) -> tuple[str, str] | None:
    """("restarted payments pods", "errors back after 25 minutes"), or None when the sentence
    does not say an action failed."""
    failed = CHAT_FAILED.search(sentence)
    action = CHAT_ACTION.search(sentence)
    if failed is None or action is None or action.start() > failed.start():
        return None
    before = sentence[: failed.start()]
    cuts = [m for m in CHAT_SPLIT.finditer(before) if m.start() > action.end()]
    if cuts:
        tried, why = sentence[: cuts[-1].start()], sentence[cuts[-1].end() :]
    else:
        tried, why = before, sentence[failed.start() :]
    tried, why = tidy(tried[action.start() :] if action.start() < 12 else tried), tidy(why)
    return (tried, why) if tried and why else None
