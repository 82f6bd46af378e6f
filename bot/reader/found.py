"""How an incident was found, from a postmortem: an alert that fired, a user report, a graph or a
log line, someone noticing ("At 13:00 @dma noticed the ingress queue was backing up", "This was
detected by project members noticing failures of Prow", "We got an alert email from letsencrypt").

Precision first: a sentence counts only when it says so in the reader's words (cues.FOUND_BY) and
is not a critique ("no alert fired", "it took us hours to notice"), a risk ("users may see
warnings"), a quoted message (a line starting ">") or a recovery ("Chris notices the pod is
working again"). The caller gives the sentences in the order to prefer (a "Detection" section's,
then the summary's, then the timeline's first entries, then the rest); the first few found are
the answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.reader.cues import CRITIQUE, DID_NOT_WORK, RESOLVED
from bot.reader.cues_found import FOUND_BY, NOT_FOUND_BY, NOT_HOW_FOUND

MAX_FOUND_SENTENCES = 3
_CHARS_BEFORE = 40  # a negation or hedge this close before the cue undoes it ("no process was set up to alert")
MAX_SENTENCE_CHARS = 1_000


# after the cue, a failure is what was found ("users report all launches are failing", "the hub log
# shows that it failed"); only a failure said to go on ("still failing", "errors persist") makes it
# a later word, not the first sign
LATER_STATE = re.compile(
    r"\b(?:still|again|persist\w*|continu\w*|remain\w*|recurr?\w*|came back|reappear\w*|yet another)\b", re.I
)


# where one clause ends and the next begins: a recovery told after it is the story going on ("was
# discovered and reported internally by 22:50 GMT and resolved at 23:01 GMT"); a dash set off by spaces too
# ("According to the Travis logs the decryption … seems to fail - unfortunately I cannot fix this issue")
_NEXT_CLAUSE = re.compile(r"[,;:]|\.\s|\s[-–—]{1,2}\s|\band\b|\bthen\b")


def _recovery_is_what_was_seen(sentence: str, cue_at: int) -> bool:
    """A recovery before the cue, or in the cue's own clause, is what this sentence tells ("Chris
    notices the pod is working again", "once it was restored, users reported …"); one in a later
    clause is the story going on ("After being alerted … through our monitoring, we began rolling back")."""
    for recovery in RESOLVED.finditer(sentence):
        if recovery.start() < cue_at or not _NEXT_CLAUSE.search(sentence, cue_at, recovery.start()):
            return True
    return False


def says_how_found(sentence: str) -> bool:
    return how_found_cue(sentence) is not None


def how_found_cue(sentence: str) -> str | None:
    """The words that say how it was found ("alerts started firing", "checked the logs"), when the
    sentence says so; None when it does not."""
    sentence = sentence[:MAX_SENTENCE_CHARS]
    cue = FOUND_BY.search(sentence)
    if cue is None or sentence.lstrip().startswith(">") or _recovery_is_what_was_seen(sentence, cue.start()):
        return None
    if NOT_HOW_FOUND.search(sentence.lstrip(" -*_#>")):  # a pointer, a call to act, a check, a habit
        return None
    # a critique or a failed step told before the cue or in it undoes it ("it took us hours to
    # notice"); told after it, a failure is what was seen
    head, tail = sentence[: cue.end()], sentence[cue.end() :]
    if CRITIQUE.search(head) or DID_NOT_WORK.search(head):
        return None
    if any(LATER_STATE.search(m.group(0)) for m in DID_NOT_WORK.finditer(tail)):
        return None
    if NOT_FOUND_BY.search(sentence[max(0, cue.start() - _CHARS_BEFORE) : cue.end()]):
        return None
    return cue.group(0)


def how_found(sentences: Iterable[str], *, limit: int = MAX_FOUND_SENTENCES) -> list[str]:
    """The first `limit` sentences that say how it was found, in the order given (each once)."""
    found: list[str] = []
    for sentence in sentences:
        if says_how_found(sentence) and sentence not in found:
            found.append(sentence)
            if len(found) >= limit:
                break
    return found
