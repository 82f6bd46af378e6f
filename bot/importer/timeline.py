"""Timelines read as (time, text) entries, and what they tell: the fix and the attempts that failed.

    | 17:40 | Rollback fails due to ArgoCD permissions |     table rows whose first cells hold a time
    - **18:46 UTC** - Service fully restored                 bullets or lines that start with one
    ### May 10 (a heading inside the timeline)               the day of the entries that follow

An entry that restored, mitigated, resolved or rolled back is the fix when the postmortem has no
resolution section. A failed attempt is an action tried during the incident that did not work
("changed the health-check path — still 404"); a critique of the response ("it took us 9 hours",
"we should have used bigint") is never one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.importer.document import plain

_TIME = (
    r"(?:\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?"  # 2024-03-04 10:02
    r"|\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?"  # 10:02, 3:15 pm
    r"|\d{1,2}\s*[ap]\.?m\.?"  # 3pm
    r"|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+\S+\s+\d{1,2}"  # Tue, May 10
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+\d{4})?"
    r"|[tT]\s*[+-]\s*\d+\s*(?:min|m|h|hours?|minutes?))"
)
_ZONE = r"(?:\s*(?:UTC|GMT|Z|[A-Z]{2,4}T|[+-]\d{2}:?\d{2}))?"
_TIME_SPAN = _TIME + _ZONE + r"(?:\s*(?:-|–|to)\s*" + _TIME + _ZONE + r")?"
_ENTRY = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*|__|`)?\[?\(?(?P<time>(?:" + _TIME_SPAN + r")(?:,?\s+" + _TIME_SPAN + r")?)"
    r"\)?\]?(?:\*\*|__|`)?\s*(?:[-–—:|]\s*|\s+)(?:\*\*|__)?(?P<text>\S.*)$",
    re.I,
)
_DAY_LINE = re.compile(
    r"^(?:\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|(?:[a-z]+,?\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
    r"\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?)\s*:?$",
    re.I,
)
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")
_HAS_TIME = re.compile(_TIME, re.I)
_HH_MM_ANY = re.compile(r"\d{1,2}:\d{2}")

_RESOLVED = re.compile(
    r"\b(?:resolv\w*|mitigat\w*|restor\w*|recover\w*|roll(?:ed|ing)?[ -]?back|revert\w*|fix(?:ed|es)?|hotfix\w*|"
    r"back to normal|returned to normal|back online|back up|fully operational|operational again|stabili[sz]\w*|"
    r"(?:error|failure)s? (?:rate )?(?:drop|return|subside|stop)\w*|incident (?:is )?(?:closed|over|ended|ends|resolved)|"
    r"all clear|resum\w*|(?:it|that|which|this) worked|did the trick|succeeded|working again|up again)\b",
    re.I,
)
# "it did not help": says by itself that something was tried and failed
_FAILED_ATTEMPT = (
    r"(?:did|does|do) ?n[o']t (?:seem to )?(?:help|work|fix|resolve|improve|solve|stop|recover|succeed|do anything|"
    r"make (?:a|any) difference|have (?:any|an|the intended) effect|release)\w*|"
    r"(?:is|was|are|were) not having (?:any|an|the intended) effect|no (?:effect|improvement|luck|difference|results?|success)|"
    r"not (?:help|helping|effective|enough|sufficient)\b|unsuccessful\w*|ineffective|insufficient|"
    r"to no avail|without (?:success|effect)|made no difference|had no (?:effect|impact)|false (?:re)?mediation|"
    r"(?:just |only )made (?:it |things |the \w+ )?(?:worse|more)|"
    r"(?:it|this|that|which) (?:also )?(?:did|does) ?n[o']t\s*(?:\)|$|[.;,])|"
    r"(?:rollback|roll back|revert|restart|retry|attempt|fix|workaround|failover|redeploy|re-deploy|upgrade|deploy|restore|command)\w* "
    r"(?:also |again |then |still |itself )?fail(?:s|ed)\b|failed to (?:help|fix|resolve|solve|work|recover|restore|stop)|"
    r"(?:but|and) (?:it |this |that |then |also )*(?:immediately )?(?:fail(?:s|ed)|errored)"
)
_DID_NOT_WORK = re.compile(
    r"\b(?:" + _FAILED_ATTEMPT + r"|"
    r"still (?:fail\w*|broken|down|erroring|error\w*|not\b|no\b|stuck|full|pending|hang\w*|unavailable|inaccessible|"
    r"unresponsive|crash\w*|timing out|times? out|slow|high|4\d\d|5\d\d|there|listed|claimed|present|occurring|"
    r"happening|seeing|see|saw|getting|returning|met with|degraded|lagging|backed up|broke\w*|missing|wrong)|"
    r"not (?:resolve|fix|solve|work)\w*|nothing changed|no change|"
    r"(?:it|which|this|that) (?:also )?failed|(?:immediately )?errored out|refused to|"
    r"could ?n[o']t be|instead,? (?:the|it)|yet another|"
    r"(?:error|issue|problem|failure|symptom|alert|crash|timeout|outage|pod|it|they)s? (?:persist\w*|continu\w*|remain\w*|recur\w*|came back|reappear\w*)|"
    r"(?:was|were|is|are) (?:not|n't) (?:the (?:cause|issue|problem)|enough|sufficient|responsible)|"
    r"ruled out|red herring|dead end|wrong (?:direction|track|path)|was rejected|got rejected|as invalid|"
    r"back again|again (?:failed|down|broke)|broke again|recurred)\b",
    re.I,
)
_SAYS_IT_FAILED = re.compile(r"\b(?:" + _FAILED_ATTEMPT + r")", re.I)
_EXPLICIT_TRY = re.compile(r"\b(?:attempt\w*|tried|tries|trying)\b", re.I)
_TRIED = re.compile(
    r"\b(?:tried|try(?:ing)?|attempt\w*|restart\w*|reboot\w*|roll(?:ed|ing|s)?[ -]?back|rollback|revert\w*|"
    r"scal(?:ed|ing)\b|increas\w*|rais(?:ed|ing)\b|bump\w*|add(?:ed|ing)\b|redeploy\w*|re-deploy\w*|deploy\w*|disabl\w*|"
    r"enabl\w*|chang(?:ed|es|ing)\b|clear\w*|flush\w*|kill\w*|failover|fail(?:ed|ing) over|switch\w*|appl(?:ied|y)\w*|"
    r"ran|re-?ran|run(?:ning)?\b|mov(?:ed|ing)\b|purg\w*|reset\w*|patch\w*|recycl\w*|drain\w*|cordon\w*|uncordon\w*|"
    r"re-?index\w*|vacuum\w*|replac\w*|upgrad\w*|downgrad\w*|rebuil\w*|re-?creat\w*|block\w*|throttl\w*|"
    r"rate[- ]limit\w*|manual(?:ly)?|workaround|hotfix\w*|fix\b|pushed|merged|updat(?:ed|ing)\b|delet\w*|remov\w*|"
    r"evict\w*|clean\w*|stop(?:ped|s|ping)?\b|relaunch\w*|re-?start\w*|rewrit\w*|audit\w*|debug\w*|refresh\w*|"
    r"restor(?:e|ing)\b|promot\w*|resiz\w*|submit\w*|restart)\b",
    re.I,
)
_CRITIQUE = re.compile(
    r"\b(?:failed to (?:see|notice|detect|catch|alert|realize|recognize|communicate|update|escalate)|took (?:us|too|a long|longer|over|\d)|it took|should(?: have|'ve)?|could(?: have|'ve)|would(?: have|'ve)|"
    r"need(?:ed)? to|we need|lack(?:ed)? (?:of)?|too (?:slow|long|late)|slow to|were not aware|weren't aware|"
    r"no (?:alert|alerting|monitoring|runbook|documentation|process|one)|not (?:alerted|notified|documented|monitored)|"
    r"in the future|next time|going forward|action item|we will|we'll|will be)\b",
    re.I,
)
_PENDING = re.compile(
    r"\b(?:attempt\w*|tried|trying|try to|plan\w*|will|began|begins|start(?:ed|s)? to|investigat\w*|believ\w*|assum\w*|"
    r"thought|suspect\w*|hop(?:e|ed|ing))\b",
    re.I,
)
_WE_TRIED = re.compile(
    r"\b(?:we|i|our team|the team|on-?call|engineers?|responders?|admins?|sres?|ops)\b|@\w+|\b(?:tried|attempt\w*|initially)\b",
    re.I,
)
_CLAUSE = re.compile(r"(?:,\s*so\s+|;\s+)")
_FOLLOW_UP = re.compile(
    r"^(?:this|that|it|which|these|those|but|however|unfortunately|sadly|still|again|the (?:issue|problem|error|errors|"
    r"outage|symptoms?|site|service|hub|page|pods?)|no\b|nothing|neither|even)",
    re.I,
)
_ADDRESSED = re.compile(r"\byou\b", re.I)  # an FAQ's "No, you didn't do anything wrong": not what responders did
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])")
_WHY = re.compile(
    r"^(?P<action>.+?)\s*(?:[—–]|\s-\s|;|,\s*but\b|\bbut\b|\bhowever\b|\.\s|,\s*(?=still\b)|(?=\b(?:due to|because|as)\b))\s*(?P<why>.+)$",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Entry:
    time: str
    text: str
    day: str = ""  # a date heading inside the timeline the entry sits under

    @property
    def when(self) -> str:
        return f"{self.day} {self.time}".strip()


def _table_cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _dated_heading(line: str) -> bool:
    """'2025-07-26 Saturday:' (a day's heading inside the timeline): a date, no time of day."""
    text = plain(line)
    return not _HH_MM_ANY.search(text) and bool(re.match(r"^\d{4}-\d{2}-\d{2}\b", text)) and len(text.split()) <= 3


def _bare_time(line: str) -> bool:
    """A line that is only a time: '### 14:29' (as a subsection line '14:29:'), '~13:30-13:45',
    '19. April, 11:00', or a PagerDuty export's '1:03' with the text on the next line."""
    text = plain(line).strip("_*~≈ ")
    return (
        len(text) <= 32
        and bool(_HH_MM_ANY.search(text))
        and len(re.findall(r"[A-Za-z]{3,}", text)) <= 3
        and not text.endswith(".")
    )


def read_timeline(lines: list[str]) -> tuple[list[Entry], str]:
    """(time, text) entries from a timeline's bullets, lines, time headings and table rows
    (continuation lines join their entry; code blocks and images are left out), and the prose
    between them ("Shortly after starting the stream we discovered ...")."""
    entries: list[Entry] = []
    prose: list[str] = []
    day = ""
    in_fence = False
    previous_blank = False
    under_time_line = False  # the entry began with a line that is only a time: paragraphs follow
    for line in lines:
        stripped = line.strip()
        blank, previous_blank = previous_blank, not stripped
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence or not stripped or stripped.startswith("!["):
            continue
        if len(stripped) < 40 and (_DAY_LINE.match(plain(stripped).strip("_*")) or _dated_heading(stripped)):
            day = plain(stripped).strip("_*")  # a subheading ("May 10:", "_4/21/23_") inside the timeline
            continue
        if stripped.startswith("|"):
            under_time_line = False
            if _TABLE_RULE.match(stripped):
                continue
            cells = [plain(c) for c in _table_cells(stripped)]
            times = [c for c in cells[:2] if _time_cell(c)]
            text = " — ".join(c for c in cells if c and c not in times)
            if times and text:
                entries.append(Entry(" ".join(times), text, day))
            continue
        if _bare_time(stripped):
            entries.append(Entry(plain(stripped).strip("_*~≈ "), "", day))
            under_time_line = True
            continue
        match = _ENTRY.match(stripped)
        if match and _HAS_TIME.search(match.group("time")):
            entries.append(Entry(plain(match.group("time")), _tidy(match.group("text")), day))
            under_time_line = False
        elif entries and (
            under_time_line or (not blank and (line.startswith((" ", "\t")) or not _is_new_block(stripped)))
        ):
            last = entries[-1]
            entries[-1] = Entry(last.time, f"{last.text} {_tidy(stripped.lstrip('-*+ '))}".strip(), last.day)
        else:
            prose.append(("\n" if blank else " ") + _tidy(stripped))
    return [e for e in entries if e.text], "".join(prose).strip()


def _time_cell(cell: str) -> bool:
    return (
        bool(cell) and len(cell) <= 40 and bool(_HAS_TIME.match(cell)) and not re.search(r"[a-z]{4,}\s+[a-z]{4,}", cell)
    )


def _is_new_block(line: str) -> bool:
    return bool(re.match(r"^(?:[-*+]|\d+[.)])\s", line)) or line.startswith(("#", ">"))


def _tidy(text: str) -> str:
    return " ".join(plain(text).split())


def resolving(entries: list[Entry]) -> list[Entry]:
    """Entries that restored, mitigated, resolved or rolled back (and did not fail doing it); when
    such an entry only reports the state ("Service is restored"), the action just before it too."""
    chosen: dict[int, None] = {}
    for i, entry in enumerate(entries):
        if any(
            _RESOLVED.search(c) and not _DID_NOT_WORK.search(c) and not _PENDING.search(c) for c in _clauses(entry.text)
        ):
            before = entries[i - 1] if i else None
            if (
                before is not None
                and not _TRIED.search(entry.text)
                and _TRIED.search(before.text)
                and not _DID_NOT_WORK.search(before.text)
            ):
                chosen[i - 1] = None
            chosen[i] = None
    return [entries[i] for i in chosen]


def _attempt(text: str) -> dict[str, str] | None:
    """An action tried that did not work, said in one sentence, as {action, why_it_failed}."""
    text = " ".join(plain(text).split())
    if len(text) < 8 or _CRITIQUE.search(text) or not _DID_NOT_WORK.search(text) or _ADDRESSED.search(text):
        return None
    if not _TRIED.search(text) and not _SAYS_IT_FAILED.search(text):
        return None
    split = _WHY.match(text)
    if split and _TRIED.search(split.group("action")) and len(split.group("action")) >= 6:
        return {"action": split.group("action").rstrip(" ,;:.—–-"), "why_it_failed": split.group("why").strip()}
    return {"action": text.rstrip(" ."), "why_it_failed": ""}


def _clauses(text: str) -> list[str]:
    """Sentences, and the clauses of "This did not help, so the pods were restarted."."""
    parts = []
    for sentence in _SENTENCE.split(" ".join(text.split())):
        parts += [p.strip() for p in _CLAUSE.split(sentence) if p.strip()]
    return parts


def attempts_in(text: str, *, said_by_someone: bool = False) -> list[dict[str, str]]:
    """Attempts that did not work, in one sentence ("Restarted the pods — still 404") or in two
    ("The proxy pod is restarted. This does not resolve the issue."). With `said_by_someone`, a
    sentence must say who tried (narrative prose, where most sentences describe the system)."""
    found = []
    clauses = _clauses(text)
    for i, clause in enumerate(clauses):
        previous = clauses[i - 1] if i else ""
        if (
            previous
            and (_FOLLOW_UP.match(clause) or re.search(r"\battempt(?:ed|s)?\b", previous, re.I))
            and _DID_NOT_WORK.search(clause)
            and _TRIED.search(previous)
            and not _DID_NOT_WORK.search(previous)
            and not _CRITIQUE.search(previous + " " + clause)
            and (not said_by_someone or _WE_TRIED.search(previous))
        ):
            found.append({"action": plain(previous).rstrip(" ,;:."), "why_it_failed": plain(clause).rstrip(" .")})
            continue
        if said_by_someone and not _WE_TRIED.search(clause):
            continue
        attempt = _attempt(clause)
        if attempt is not None:
            found.append(attempt)
    return found


def failed_in_timeline(entries: list[Entry]) -> list[tuple[Entry, dict[str, str]]]:
    """Attempts within an entry, and across two: "12:05 Engineer attempts hub pod restarts." then
    "12:20 Still 503s." (an attempt said in one entry, its failure in the next one's first words)."""
    found = []
    for i, entry in enumerate(entries):
        within = attempts_in(entry.text)
        found += [(entry, attempt) for attempt in within]
        following = entries[i + 1] if i + 1 < len(entries) else None
        if within or following is None or _DID_NOT_WORK.search(entry.text) or _CRITIQUE.search(entry.text):
            continue
        first = " ".join(_clauses(following.text)[:2])
        tried = _EXPLICIT_TRY.search(entry.text) or (_TRIED.search(entry.text) and _SAYS_IT_FAILED.search(first))
        if tried and _DID_NOT_WORK.search(first) and not _TRIED.search(_clauses(following.text)[0]):
            found.append(
                (entry, {"action": plain(entry.text).rstrip(" ."), "why_it_failed": plain(first).rstrip(" .")})
            )
    return found


def failed_in_prose(text: str) -> list[dict[str, str]]:
    """Sentences of narrative prose that say someone tried something and it did not work ("We
    first restarted the pods, but errors continued")."""
    return attempts_in(text, said_by_someone=True)


def is_critique(text: str) -> bool:
    return bool(_CRITIQUE.search(text))
