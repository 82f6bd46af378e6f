"""Messages the bot posts: each rendered from a template, then checked against Slack's limits.

Every function returns a dict ready for `chat.postMessage(channel=…, thread_ts=…, **payload)`
(`text` for notifications, `blocks`, unfurling off). User text is escaped, so nothing stored can
ping or link when it is shown again.

- `recall_parent(incident_title, matches, conflict_services, *, incident_ref=None)`
- `recall_reply(match, now, conflict=())`     one memory, threaded under the parent
- `conflicting_ids(match, conflict_services) -> list[str]`   the `conflict` for recall_reply
  (conflict_services: service → incident_ids grouped by the root cause they name; a flat list
  of ids counts as one cause each)
- `memory_detail(memory, now=None)`           `/incident show ID`
- `help_message(channel_pattern="^inc-")`     `/incident help`
- `resolution_confirmation(memory, now=None, *, by=None)`
- `resolution_differs(incident_id, fields=())`   resolved again with other content
- `resolution_nudge(incident, reason, *, reminder=False, direct=False)`   "Save what we learned"
- `investigating_placeholder(incident_title=None)`
- `notice(text, *, emoji="")`                 one escaped line (errors, acknowledgements)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.models import IncidentRecord, MemoryRecord, RecallMatch, Source, TruthState, utcnow
from bot.policy import NotAllowed
from bot.recall.judgement import MAX_WEAK, tier_said
from bot.recall.reasons import humanize_age
from bot.recall.truth import ALLOWED_MOVES
from bot.slack import ids
from bot.slack.commands import in_use
from bot.slack.escape import cut, escape_mrkdwn, single_line
from bot.slack.limits import check_message
from bot.slack.templating import render

Json = dict[str, Any]

# a recall reply is read in a thread at 3 a.m.: a few items each, the rest behind /incident show
REPLY_ATTEMPTS_SHOWN = 3
REPLY_CORRECTIONS_SHOWN = 3
DETAIL_ATTEMPTS_SHOWN = 15
DETAIL_CORRECTIONS_SHOWN = 10
DETAIL_HISTORY_SHOWN = 5
ITEM_CHARS = 300

_SOURCE_WORDS = {
    Source.SEED: "imported postmortem",
    Source.ENGINEER_SAVED: "saved at resolution",
    Source.ENGINEER_CORRECTION: "engineer correction",
}


def _age(memory: MemoryRecord, now: datetime) -> str:
    return humanize_age(memory.happened_at, now)


def _facts(memory: MemoryRecord, now: datetime) -> list[str]:
    parts = [f"service {single_line(memory.service)}" if memory.service else "no service recorded"]
    if memory.severity:
        parts.append(single_line(memory.severity))
    parts.append(_age(memory, now))
    parts.append(_SOURCE_WORDS[memory.source])
    return [cut(p, 100) for p in parts]


def truth_line(memory: MemoryRecord, now: datetime) -> str:
    """The truth state in words: who confirmed or verified it, and when."""
    who = f" by {memory.shown_verifier}" if memory.verified_by else ""
    when = f", {humanize_age(memory.verified_at, now)}" if memory.verified_at else ""
    state = memory.truth_state
    if state is TruthState.VERIFICATION_CONFIRMED:
        note = (
            f" Verification: {cut(single_line(memory.verification_note), ITEM_CHARS)}"
            if memory.verification_note
            else ""
        )
        return f":white_check_mark: Verified fix{who}{when}.{note}"
    if memory.self_verified:
        note = cut(single_line(memory.verification_note or ""), ITEM_CHARS)
        return f":ballot_box_with_check: Confirmed{who}{when}; self-verified, not independently verified ({note})."
    if state is TruthState.HUMAN_CONFIRMED:
        return f":ballot_box_with_check: Confirmed{who}{when}; the fix was not independently verified."
    if state is TruthState.REJECTED:
        reasons = [t.reason for t in memory.transitions if t.to_state is TruthState.REJECTED and t.reason]
        why = f" — {cut(single_line(reasons[-1]), ITEM_CHARS)}" if reasons else ""
        return f":no_entry: Rejected{why}. Not a past outcome."
    if state is TruthState.SUPERSEDED:
        return f":arrow_right: Superseded by {memory.superseded_by}."
    return ":grey_question: Unconfirmed hypothesis: nobody has confirmed this; do not reuse it as fact."


def kept_as_hypothesis(memory: MemoryRecord) -> str:
    """Said in the resolution modal when its author may not close the incident (mrkdwn)."""
    return (
        f":grey_question: Kept as an unconfirmed hypothesis, `{escape_mrkdwn(memory.incident_id)}`. The incident"
        " stays open: only a member of its channel, its declarer, a memory reviewer or a workspace admin can"
        " close it. Reviewers see your proposal in their App Home."
    )


def _score_line(match: RecallMatch) -> str:
    parts = [f"{name} {value:.2f}" for name, value in match.score_components.items() if name != "score"]
    # the model's parts first (feature, then its weighted term: with the intercept they sum to the
    # log-odds), then what it read and did not weigh
    weighed = [f"{name} {match.evidence.get(name, 0.0):.2f} ({term:+.2f})"
               for name, term in match.parts.items() if name != "intercept"]  # fmt: skip
    if "intercept" in match.parts:
        weighed.append(f"intercept ({match.parts['intercept']:+.2f})")
    others = ", ".join(f"{name} {value:.2f}" for name, value in match.evidence.items() if name not in match.parts)
    judged = (f"log-odds: {', '.join(weighed)}" + (f"; not weighed: {others}" if others else "")) if weighed else others
    return (
        f"{tier_said(match)}: probability {match.probability:.2f}" + (f" ({judged})" if judged else "")
        + f" · relevance {match.relevance:.2f} · score {match.score:.3f}" + (f" ({', '.join(parts)})" if parts else "")
    )  # fmt: skip


WHY_VALUE_CHARS = 2000  # Slack's limit on a button's value


def _memory_gist(memory: MemoryRecord, now: datetime) -> dict[str, str]:
    """What the weak line's button opens of a memory besides why: its title, cause, fix and truth."""
    fields = {"title": memory.title, "cause": memory.root_cause, "fix": memory.resolution,
              "truth": truth_line(memory, now)}  # fmt: skip
    return {k: cut(single_line(v), 240) for k, v in fields.items() if v}


def why_value(match: RecallMatch, now: datetime | None = None) -> str:
    """The "Why this?" button's value: the reasons and the numbers, for the modal it opens; with
    `now` (the weak line, which shows nothing else of the memory) its gist too."""
    reasons = [cut(single_line(r), 200) for r in match.reasons[:8]]
    gist = {"memory": _memory_gist(match.memory, now)} if now is not None else {}
    while True:
        value = json.dumps({"id": match.memory.incident_id, "reasons": reasons, "numbers": _score_line(match), **gist},
                           ensure_ascii=False, separators=(",", ":"))  # fmt: skip
        if len(value) <= WHY_VALUE_CHARS or not (reasons or gist):
            return value
        if reasons:
            reasons = reasons[:-1]
        else:  # a gist of quotes and backslashes doubles when escaped: the button must still fit
            gist = {}


def _outcome(memory: MemoryRecord, attempts: int, corrections: int, more_hint: str) -> Json:
    """What `_memory_outcome.j2` needs: the first attempts, the latest corrections, counts left out."""
    shown_corrections = memory.corrections[-corrections:] if corrections else []
    return {
        "m": memory,
        "more_hint": more_hint,
        "attempts_shown": memory.failed_attempts[:attempts],
        "attempts_more": max(0, len(memory.failed_attempts) - attempts),
        "corrections_shown": shown_corrections,
        "corrections_more": len(memory.corrections) - len(shown_corrections),
        "item_chars": ITEM_CHARS,
        "can_reject": TruthState.REJECTED in ALLOWED_MOVES[memory.truth_state],
        # a self-verified fix is confirmed again as verified, by someone else (bot/policy.py)
        "can_confirm": TruthState.HUMAN_CONFIRMED in ALLOWED_MOVES[memory.truth_state] or memory.self_verified,
    }


def _show_hint(incident_id: str) -> str:
    return f"`{in_use().incident} show {incident_id}`"


def _message(template: str, *, show_id: str | None = None, **context: Any) -> Json:
    return check_message(render(template, ids=ids, **context), show_id=show_id)


def _headline(count: int) -> str:
    if count == 0:
        return "Nothing in memory looks like this"
    if count == 1:
        return "1 past incident looks like this one"
    return f"{count} past incidents look like this one"


Conflicts = Mapping[str, Sequence[Sequence[str] | str]]


def _groups(found: Sequence[Sequence[str] | str]) -> list[list[str]]:
    return [[item] if isinstance(item, str) else list(item) for item in found]


def recall_parent(
    incident_title: str,
    matches: Sequence[RecallMatch],
    conflict_services: Conflicts,
    *,
    incident_ref: str | None = None,
    recurrence: str | None = None,
) -> Json:
    """The thread's parent: how many memories came back, conflicts, and an Investigate button
    whose value is `incident_ref` (the current incident's id, for the handler); `recurrence`:
    "4th time in 90 days: …" or "new: nothing like it in memory" (bot/recall/alerts.py)."""
    return _message(
        "recall_parent.json.j2",
        headline=_headline(len(matches)),
        recurrence=recurrence,
        count=len(matches),
        incident_title=single_line(incident_title),
        conflicts={service: _groups(found) for service, found in conflict_services.items()},
        incident_ref=incident_ref,
    )


def recall_weak(matches: Sequence[RecallMatch], now: datetime) -> Json:
    """Nothing strong: one line naming the closest few (tier weak) and what each shares."""
    closest = [
        {
            "id": m.memory.incident_id,
            "shares": single_line(m.reasons[0]) if m.reasons else "some of the same words",
            "age": humanize_age(m.memory.happened_at, now) if m.memory.happened_at else "",
            "why": why_value(m, now),
        }
        for m in matches[:MAX_WEAK]
    ]
    return _message("recall_weak.json.j2", closest=closest)


def conflicting_ids(match: RecallMatch, conflict_services: Conflicts) -> list[str]:
    """The other memories that name a different root cause for this match's service (those
    that name the same one, in other words, agree with it)."""
    own = match.memory.incident_id
    for found in conflict_services.values():
        groups = _groups(found)
        if any(own in group for group in groups):
            return [other for group in groups if own not in group for other in group]
    return []


def recall_reply(match: RecallMatch, now: datetime, conflict: Sequence[str] = ()) -> Json:
    """One recalled memory; `conflict` lists the memories whose root cause disagrees with it."""
    memory = match.memory
    successor = match.successor_id or memory.superseded_by
    if memory.truth_state is TruthState.SUPERSEDED and successor:
        return _message("recall_superseded.json.j2", show_id=successor, match=match, successor_id=successor)
    return _message(
        "recall_reply.json.j2",
        show_id=memory.incident_id,
        match=match,
        facts=_facts(memory, now),
        truth=truth_line(memory, now),
        conflict=list(conflict),
        why=why_value(match),
        **_outcome(memory, REPLY_ATTEMPTS_SHOWN, REPLY_CORRECTIONS_SHOWN, _show_hint(memory.incident_id)),
    )


def _history(memory: MemoryRecord) -> list[str]:
    lines = []
    for t in memory.transitions[-DETAIL_HISTORY_SHOWN:]:
        why = f" ({cut(single_line(t.reason), 120)})" if t.reason else ""
        lines.append(f"{t.at:%Y-%m-%d} {t.from_state.value} → {t.to_state.value} by {t.shown_actor}{why}")
    return lines


def memory_detail(memory: MemoryRecord, now: datetime | None = None) -> Json:
    """`/incident show ID`: every part of a memory, as far as one message holds."""
    now = now or utcnow()
    story = [
        (block_id, label, value)
        for block_id, label, value in (
            ("memory_symptoms", "Symptoms", memory.symptoms),
            ("memory_error", "Error", memory.error_message),
            ("memory_diagnosis", "How it was found", memory.diagnosis),
        )
        if value
    ]
    afterword = [
        (block_id, label, value)
        for block_id, label, value in (
            ("memory_lesson", "Lesson", memory.lesson),
            ("memory_verification", "How it was verified", memory.verification_note),
            ("memory_notes", "Notes", memory.notes),
        )
        if value
    ]
    more_hint = "not shown here: Slack has room for only so much (`incident-memory show` prints all)"
    return _message(
        "memory_detail.json.j2",
        facts=_facts(memory, now),
        truth=truth_line(memory, now),
        story=story,
        afterword=afterword,
        history=_history(memory),
        **_outcome(memory, DETAIL_ATTEMPTS_SHOWN, DETAIL_CORRECTIONS_SHOWN, more_hint),
    )


def help_message(channel_pattern: str = "^inc-") -> Json:
    return _message("help.json.j2", channel_pattern=channel_pattern)


def resolution_confirmation(memory: MemoryRecord, now: datetime | None = None, *, by: str | None = None) -> Json:
    """Posted in the channel once the resolution is retained; `by` is who submitted it."""
    return _message(
        "resolution_confirmation.json.j2",
        show_id=memory.incident_id,
        truth=truth_line(memory, now or utcnow()),
        by=by,
        **_outcome(memory, REPLY_ATTEMPTS_SHOWN, REPLY_CORRECTIONS_SHOWN, _show_hint(memory.incident_id)),
    )


def resolution_differs(incident_id: str, fields: Sequence[str] = ()) -> Json:
    """The incident was already resolved with other content: offer a correction instead."""
    return _message("resolution_differs.json.j2", incident_id=incident_id, fields=list(fields))


_NUDGE_WHY = {
    "said_fixed": "Someone said it is over. Before the details fade: what was the root cause, what fixed it, and what did not work?",
    "quiet": "This channel has been quiet for a while. If the incident is over, save what was learned; it takes a minute, drafted from the channel.",
    "archived": "Its channel was archived while the incident was still open, so nothing was saved yet.",
    "alerts_resolved": "Every alert that opened it has resolved. Before the details fade: what was the root cause, "
    "what fixed it, and what did not work?",
}


def resolution_nudge(incident: IncidentRecord, reason: str, *, reminder: bool = False, direct: bool = False) -> Json:
    """Ask for an incident's outcome, with a button that opens the drafted resolution modal."""
    where = f" (#{single_line(incident.channel_name or incident.channel)})" if direct else ""
    # outside its channel, a private channel's incident is named by id and channel only
    shown = "an incident of a private channel" if direct and incident.is_private else single_line(incident.title)
    title = f"`{incident.incident_id}` {shown}{where}"
    if reminder:
        headline = f":hourglass: Reminder: {title} still has no outcome saved."
        why = "This is the last reminder. What fixed it, and what did not, is what the next responder will need."
    else:
        headline = f":memo: Is {title} over?"
        why = _NUDGE_WHY.get(reason, _NUDGE_WHY["said_fixed"])
    return _message("resolution_nudge.json.j2", headline=cut(headline, 600), why=why, incident_id=incident.incident_id)


def investigating_placeholder(incident_title: str | None = None) -> Json:
    return _message("investigating.json.j2", incident_title=incident_title)


def form_offer(form_title: str, form_key: str) -> Json:
    """Slack did not open the form in time: a button that opens it (with a fresh trigger)."""
    text = f"Slack was too busy to open *{form_title}* just now. Press the button to open it."
    return _message("form_offer.json.j2", text=text, form_key=form_key)


def notice(text: str, *, emoji: str = "") -> Json:
    return _message("notice.json.j2", text=text, emoji=emoji, mentions="")


_MENTION = re.compile(r"<@[UW][A-Z0-9]{1,20}>|<!subteam\^S[A-Z0-9]{1,20}>")


def refusal(refused: NotAllowed) -> Json:
    """An act the policy refused, and who can: people as mentions, which Slack shows as their
    names (an ephemeral message pings no one)."""
    people = [
        f"{role}: {', '.join(m for m in mentions if _MENTION.fullmatch(m))}"
        for role, mentions in refused.people()
        if any(_MENTION.fullmatch(m) for m in mentions)
    ]
    return _message("notice.json.j2", text=str(refused), emoji="", mentions="; ".join(people))


ALERTS_SHOWN = 10
_ALERT_EMOJI = {"firing": ":rotating_light:", "resolved": ":white_check_mark:"}


def alert_posted(source: str, alerts: Sequence[Any], *, incident_id: str, opened: bool, truncated: int = 0) -> Json:
    """Alerts (bot.alerts.model.Alert) said in their incident's channel: what fires, what resolved."""
    firing = sum(1 for a in alerts if a.status == "firing")
    resolved = len(alerts) - firing
    states = ", ".join(
        x for x in (f"{firing} firing" if firing else "", f"{resolved} resolved" if resolved else "") if x
    )
    verb = "opened" if opened else "in"
    headline = f"{source.capitalize()}: {states} ({verb} `{incident_id}`)"
    shown = [
        {
            "status": a.status, "name": cut(single_line(a.name), 150),
            "labels": cut(single_line(" ".join(f"{k}={v}" for k, v in sorted(a.labels.items()) if k != "alertname")), 400),
            "words": cut(single_line(a.annotations.get("summary") or a.annotations.get("description") or ""), 500),
        }
        for a in alerts[:ALERTS_SHOWN]
    ]  # fmt: skip
    hidden = len(alerts) - len(shown) + truncated
    more = f"{hidden} more alert{'s' if hidden != 1 else ''} not shown" if hidden else ""
    emoji = _ALERT_EMOJI["firing" if firing else "resolved"]
    return _message("alert_posted.json.j2", headline=headline, emoji=emoji, alerts=shown, more=more)
