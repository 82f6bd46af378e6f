"""An incident channel read as a conversation: which sentence says the cause, which the fix, which
an attempt that did not work.

Real responders rarely write "root cause was …"; they write "There was an outage of Service Bus
on June 5th", "Disk filled up so we moved files to a much larger partition", "I tried to cancel
previous and start new one, but nothing happened". Each sentence of each message is described by
named features (bot/reader/conversation_features.py: the cue groups it matches, who says it, where
it stands, what the sentence after it says). A logistic head per kind of finding (bot/reader/sentences.py's `Head`, the one
sentence model of the reader; coefficients in bot/data/reader_chat.json, fitted by
bench/fit_reader.py on one fold of eval/conversations) scores it.

Precision first: a sentence is read as a kind only when it says something of that kind at all
(`SAYS`: a cause cue, a done-or-back cue, an action; an attempt also a failure in or after it,
`FAILED`), and never a cause, fix or attempt when it is a question, a "me too", an
issue template's heading, or (per kind) says the cause is unknown, plans rather than reports,
recovers "again", confesses the cause, or names an earlier fix that has not taken effect (the fix's
and the attempt's vetoes: bot/reader/conversation_vetoes.py). Of
the rest, the best-scoring sentence over its kind's threshold is the cause (hedged when it says
"I think", "looks like"…) and the fix (one said only as a state, "that worked", gives way to the
action said just before it; a step the same message then says did not work, what "caused this", or
what someone "tried" without saying it worked is no fix); every attempt over its threshold is an attempt, never a part that did not do its job nor
work done before the incident (bot/reader/cues_conversation.py). The thread's structure tells
attempts too: a suggestion ("could you try restarting them now?") answered in the next message, by
someone else, with a failure ("hm, still doesnt work") is a failed attempt; a step told, then said not
to work later in its message or at the next one's opening ("I restarted it." … "Still seeing the same
error"), carries `reply_failed` (bot/reader/conversation_replies.py): it opens the attempt gate and the step is no fix.
Whichever sentence says the failure, its words must tell how the step went (the trouble still there, the step
did not help), not ongoing work, an event or the trouble beginning after the step ("still investigating",
"didn't take long", "Now it doesn't start"): conversation_vetoes.py `outcome_told`, `came_after`. Only what a cue word
opens for is scored: a gate learned from words (trained on fold A's sentence labels too) drafted
more wrong than right one organisation out and was removed (docs/BENCHMARKS.md, issue 23).

Bounded: what is read is bounded by bot/reader/conversation_features.py (per message, per sentence,
`MAX_SENTENCES` in all, shared between the authors); a sentence's verdict is asked once per distinct
sentence, so the work grows linearly with what is read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from bot.reader.conversation_features import ACTED, MAX_SENTENCES, Message, Sentence, cues_of, sentences
from bot.reader.conversation_told import told_attempts
from bot.reader.conversation_vetoes import DONE, OUTCOME_VERB, came_after, no_attempt, no_fix, outcome_told
from bot.reader.cues_conversation import CHAT_STATE, POINTS_BACK
from bot.reader.cues_conversation import CONVERSATION_CUES as CUES
from bot.reader.sentences import Head, SentenceModel, word_features
from bot.text_limits import SENTENCE_CHARS

KINDS = ("cause", "fix", "attempt")
NEVER = Head(threshold=2.0)  # a kind the coefficients lack: nothing passes
MODEL_FILE = Path(__file__).resolve().parent.parent / "data" / "reader_chat.json"
# what a sentence must say at all to be read as a kind (precision first): an attempt is something
# someone did (and, below, that failed); a cause names a cause or a broken part ("I think so", "the backlog seems to clear
# now" name none); a fix says something was done or is back
SAYS = {
    "attempt": ACTED,
    "cause": frozenset({"cause_marker", "outage_noun", "broken_state", "consequence", "might_be"}),
    "fix": frozenset({"did", "how_fixed", "fix_noun", "action", "said_action", "resolved_now", "imperative_advice"}),
}
# and a failed attempt is one the talk says did not work, in its sentence or after it ("we rebooted the server
# and took it offline", "it restarted at 5:34pm" say no such thing). An outcome follows its step: a failure said
# in the sentence before ("…it's still failing." "I removed the `node` call") is the trouble the step answers or
# comes from, not how the step went (`prev_failed` stays a feature the heads weigh; it no longer opens the gate).
# A step the opening report says was taken before it was written did not fix it (`reported_step`)
FAILED = frozenset({"failed_outcome", "said_failed", "next_failed", "reply_failed", "reported_step", "next_still"})
# the next sentence of the step's message says it failed: a failure word (`next_failed`), or, for the attempt only, a
# bare "still" that opens it (`next_still`, bot/reader/conversation_features.py `_still_after`)
NEXT_FAILED = frozenset({"next_failed", "next_still"})
# what a fix must name beyond "it works now": something done or to do
CONTENT = frozenset({"did", "action", "said_action", "imperative_advice", "fix_noun"})
# the heads that also weigh a sentence's words (bot/reader/sentences.py `word_features`, the postmortem reader's): the
# fix's and the cause's ship word weights, each fitted over its cue weights (bench/fix_head_words.py, `--kind`); "I pushed
# the wrong connection token" and "I pushed the corrected token" open the same cues. The attempt's file head holds no
# word weight (r23-attwords' failed its judge), and a head with no word weights scores as before
WORDED = frozenset({"fix", "attempt", "cause"})
STATE_LOOKS_BACK = 6  # sentences, within the two messages before: where "that worked" finds what worked

_BARE_STATE = re.compile(r"^\W{0,20}(?:(?:it'?s|all|now) )?(?:fixed|done|resolved|solved)(?: now)?\W*$", re.IGNORECASE)


@dataclass(slots=True)
class Picked:
    """A sentence read as a cause, a fix or an attempt; `follow` is the sentence after it that says
    why an attempt failed, when the attempt's own sentence does not."""

    sentence: int
    score: float
    hedged: bool = False
    follow: int | None = None
    suggested: bool = False  # an attempt asked or proposed ("could you try restarting them?") that a reply says failed
    words: tuple[str, str] | None = None  # an attempt told in so many words: (what was tried, why it did not work)


@dataclass(slots=True)
class ConversationReading:
    sentences: list[Sentence]
    cause: Picked | None = None
    fix: Picked | None = None
    attempts: list[Picked] = field(default_factory=list)


@lru_cache(maxsize=MAX_SENTENCES)
def never(kind: str, text: str) -> bool:
    """`vetoed` for a sentence read by itself: what other rules' finds are checked against too."""
    return vetoed(kind, Sentence(text, 0, "", cues_of(text)))


def vetoed(kind: str, sentence: Sentence) -> bool:
    """What a sentence can never be, whatever its score (precision first)."""
    f = sentence.features
    if f & {"question", "template", "me_too"}:
        return True
    if kind == "cause":
        return "negated_cause" in f or (bool(f & {"resolved_now", "status_update"}) and "cause_marker" not in f)
    if kind == "fix":
        return no_fix(f, sentence.text)
    return no_attempt(f, sentence.text)


_override: list[SentenceModel] = []


def use_models(models: SentenceModel | None) -> None:
    """Read with `models` instead of the shipped ones (None: the shipped ones again): for the
    benches, which read one fold with the heads fitted on the other."""
    _override[:] = [models] if models is not None else []


@cache
def shipped_models() -> SentenceModel:
    return SentenceModel.from_json(json.loads(MODEL_FILE.read_text(encoding="utf-8")))


def read_conversation(messages: Sequence[Message]) -> ConversationReading:
    """The cause, the fix and the failed attempts a conversation states (see the module's docstring),
    by the shipped heads or those `use_models` set."""
    models = _override[0] if _override else shipped_models()
    found = sentences(messages)
    reading = ConversationReading(found)
    # a sentence's verdict depends on its features and text only: asked once for each distinct one
    # (5,000 "- x" lines are a handful, not 15,000 vetoes and scores)
    verdicts: dict[tuple[str, frozenset[str], str], tuple[float, float] | None] = {}
    found_sentences = found

    def candidate(kind: str, s: Sentence) -> tuple[float, float] | None:
        """(score, the threshold it must reach), or None: never this kind."""
        key = (kind, s.features, s.text)
        if key not in verdicts:
            verdicts[key] = _candidate(models, kind, s)
        return verdicts[key]

    def verdict(kind: str, s: Sentence) -> float | None:
        found = candidate(kind, s)
        return None if found is None else found[0]

    def sure(kind: str, i: int) -> Picked | None:
        found = candidate(kind, found_sentences[i])
        if found is None or found[0] < found[1]:
            return None
        return Picked(i, found[0])

    for kind in ("cause", "fix"):
        best: Picked | None = None
        for i in range(len(found)):
            picked = sure(kind, i)
            if (
                kind == "fix"
                and picked is not None
                and (_told_failing(found, i) or "reply_failed" in found[i].features)
            ):
                continue
            if picked is not None and (best is None or picked.score >= best.score):
                best = picked  # the later of equals
        if best is not None and kind == "cause":
            best = _pointed_at(found, best)
        if kind == "fix" and best is not None and _only_a_state(found[best.sentence]):
            best = _what_worked(found, best, verdict)
        elif kind == "fix" and best is not None:
            best.follow = _said_to_work(found, best.sentence)
        setattr(reading, kind, best)
    # the attempts told in so many words first (bot/reader/conversation_told.py), then the scored ones
    # from messages those do not quote (up to the head's `keep`, counted before that)
    told = told_attempts(found, [messages[s.message].at for s in found], lambda text: never("attempt", text))
    reading.attempts = [Picked(t.sentence, 1.0, follow=t.follow, words=t.words) for t in told]
    quoted = {found[i].message for t in told for i in (t.sentence, t.follow) if i is not None}
    keep = models.heads.get("attempt", NEVER).keep
    replies = next_message_starts(found)
    scored: list[Picked] = []
    for i, s in enumerate(found):
        if len(scored) >= keep:
            break
        # an attempt is something someone did: "the build fails to start", no action said, is a symptom
        picked = sure("attempt", i) if how_it_went(found, i) else None
        picked = picked or suggested_then_failed(found, i, replies[i])
        if picked is not None:
            if picked.follow is None:
                picked.follow = i + 1 if s.features & NEXT_FAILED and "failed_outcome" not in s.features else None
            if picked.follow is None and not s.features & {"failed_outcome", "said_failed"}:
                picked.follow = s.reply  # "still seeing it", the next message's
            scored.append(picked)
    reading.attempts += [p for p in scored if found[p.sentence].message not in quoted]
    return reading


def how_it_went(found: list[Sentence], i: int) -> bool:
    """ "I upgraded the package." "Now it doesn't start at all.": when only a sentence after a step says it failed
    (the next one, `next_failed`, or the thread's answer, `reply_failed`), that sentence must tell how the step went
    (the trouble still there, the step did not help), not a failure word of something else nor the trouble beginning
    after the step (bot/reader/conversation_vetoes.py `outcome_told`, `came_after`)."""
    s = found[i]
    if s.features & {"failed_outcome", "said_failed", "reported_step"}:
        return True
    after = [found[j].text for j in (s.reply, i + 1 if s.features & NEXT_FAILED else None) if j is not None]
    return not after or any(outcome_told(text) and not came_after(text) for text in after)


def _pointed_at(found: list[Sentence], cause: Picked) -> Picked | None:
    """ "We're rolling back some recently deployed code. It may be the cause.": a cause said by pointing
    back names the sentence just before it in its message, quoted with it (`follow`; hedged if either
    doubts); with none there, or one that can be no cause, no cause (precision first)."""
    said = found[cause.sentence]
    if not POINTS_BACK.match(said.text):
        cause.hedged = "hedge" in said.features
        return cause
    before = cause.sentence - 1
    if before < 0 or found[before].message != said.message or vetoed("cause", found[before]):
        return None
    hedged = "hedge" in said.features or "hedge" in found[before].features
    return Picked(before, cause.score, hedged=hedged, follow=cause.sentence)


def _told_failing(found: list[Sentence], i: int) -> bool:
    """ "disabled CI integration, enabled back. Closed-Opened PR: new one is stuck": a step the same
    message says did not work in the sentence after it, one that names no step of its own (not "Simply
    restarting the builds would not work", another step's failure), is no fix. An outcome follows its
    step: in "Didn't help! Also restarting web server." the failure before is the earlier step's. A bare "still"
    bound to the step ("We restarted our webserver. The Cloud is still unavailable.", `next_still`) says so too."""
    after = i + 1
    return (
        bool(found[i].features & NEXT_FAILED)
        and found[after].message == found[i].message
        and not found[after].features & ACTED
    )


def next_message_starts(found: list[Sentence]) -> list[int]:
    """For each sentence, where the next message's first sentence is (len(found) when none): found
    in one pass from the end, so reading replies stays linear in the thread (a search from each
    sentence was quadratic: 2,000 crafted suggestions, 0.9 s)."""
    starts = [len(found)] * len(found)
    for j in range(len(found) - 2, -1, -1):
        starts[j] = j + 1 if found[j + 1].message != found[j].message else starts[j + 1]
    return starts


def suggested_then_failed(found: list[Sentence], i: int, reply_at: int) -> Picked | None:
    """ "Could you try restarting them now?" answered, in the next message by someone else, "hm, still
    doesnt work": the step was taken and did not work, told by the thread (who said what after which
    suggestion), not by the suggestion's words. The reply must open with the failure and name no
    step of its own; the suggestion passes every attempt veto but the one for plans and questions.
    `reply_at`: where the next message begins (`next_message_starts`)."""
    s = found[i]
    if not s.features & {"question", "plan", "imperative_advice"} or not s.features & (ACTED | {"imperative_advice"}):
        return None
    if s.features & {"me_too", "template", "negated_cause"} or vetoed("attempt", _as_said(s)):
        return None
    if reply_at >= len(found):
        return None
    reply = found[reply_at]
    if reply.message != s.message + 1 or reply.author == s.author:
        return None
    f = reply.features
    if "failed_outcome" not in f or f & (
        ACTED | {"recovered_again", "resolved_now", "question", "cause_marker", "hedge"}
    ):
        return None
    # the reply's failure words must tell how the step went, as any answer's must (`how_it_went`): "Aw, I didn't see
    # that one coming" tells none
    if not outcome_told(reply.text) or came_after(reply.text):
        return None
    return Picked(i, 1.0, follow=reply_at, suggested=True)


def _as_said(s: Sentence) -> Sentence:
    """The sentence as if it were told, not asked or proposed: the other vetoes still apply."""
    return Sentence(s.text, s.message, s.author, s.features - {"question", "plan"})


def _candidate(models: SentenceModel, kind: str, s: Sentence) -> tuple[float, float] | None:
    """A sentence the cue gate opens for (`SAYS`, and for an attempt `FAILED`) and no veto rules
    out, scored by its kind's head: (score, threshold)."""
    if kind == "attempt" and "next_still" in s.features:
        answered = {"next_failed", "action*next_failed"} if "action" in s.features else {"next_failed"}
        s = Sentence(s.text, s.message, s.author, s.features | answered)  # read as the step answered next
    if vetoed(kind, s) or not cue_gated(kind, s):
        return None
    head = models.heads.get(kind, NEVER)
    return head.probability((*s.features, *words_of(s.text)) if kind in WORDED else s.features), head.threshold


@lru_cache(maxsize=MAX_SENTENCES)
def words_of(text: str) -> tuple[str, ...]:
    """A sentence's words and word pairs as a `WORDED` head weighs them (each once), after its cues."""
    return tuple(dict.fromkeys(word_features(text)))


def cue_gated(kind: str, s: Sentence) -> bool:
    """The sentence says something of its kind in cue words (`SAYS`; an attempt also `FAILED`)."""
    return bool(s.features & SAYS[kind]) and (kind != "attempt" or bool(s.features & FAILED))


def _only_a_state(sentence: Sentence) -> bool:
    """ "That worked", "works now, thanks", "the capacity is coming back online": says it is fixed,
    names nothing that was done."""
    if _BARE_STATE.match(sentence.text):  # "Fixed!": done, but nothing named
        return True
    content = sentence.features & CONTENT
    if content == {"did"} and _done_is_the_state(sentence.text):
        content = frozenset()  # "problems …, which have been fixed now": the state, told in the passive
    if content:
        return False
    return "how_fixed" not in sentence.features or bool(CHAT_STATE.search(sentence.text))


def _done_is_the_state(text: str) -> bool:
    """The only thing said done is the trouble itself: "has been fixed", "have been resolved" (the passive
    of bot/reader/cues.py's `passive_did` names no step when its verb is the outcome)."""
    if cues_of(text) & DONE != {"passive_did"}:
        return False
    return all(OUTCOME_VERB.search(m.group()) for m in CUES["passive_did"].finditer(text[:SENTENCE_CHARS]))


def _said_to_work(found: list[Sentence], i: int) -> int | None:
    """ "Also restarting the web server." then "That worked.": the state said right after a step (in
    its message or the next) is the words that say the step fixed it, quoted with it, as when the
    state is what was picked (`_what_worked`)."""
    after = i + 1
    if after >= len(found) or found[after].message - found[i].message > 1:
        return None
    state = found[after]
    says_fixed = state.features & {"how_fixed", "resolved_now"} or CHAT_STATE.search(state.text)
    return after if says_fixed and _only_a_state(state) and not vetoed("fix", state) else None


def _what_worked(
    found: list[Sentence], state: Picked, verdict: Callable[[str, Sentence], float | None]
) -> Picked | None:
    """A fix said as a state is the fix said just before it (within `STATE_LOOKS_BACK` sentences of
    the two messages before), quoted with the state (`follow`); with none, no fix (precision first)."""
    said = found[state.sentence]
    for j in range(state.sentence - 1, max(-1, state.sentence - 1 - STATE_LOOKS_BACK), -1):
        before = found[j]
        if said.message - before.message > 2:
            break
        if before.features & CONTENT and verdict("fix", before) is not None:
            return Picked(j, state.score, follow=state.sentence)
    return None
