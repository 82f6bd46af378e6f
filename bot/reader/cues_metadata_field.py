r"""The one vocabulary's metadata section, continued (bot/reader/cues_metadata.py, split for length only): a
`Key: value` line about the incident ("Time to resolve: 31 minutes") and a field or a table's row told by its
shape (its key's words, its value's first figure, a row of column names). Never a fix or a cause (bot.reader.read
`is_metadata`, `_is_field_about_the_incident`). Bounded repeats only, as there. The keys about the incident are
grouped by what they tell (how long, who or what it hit, when, …): the reader reads their union, the reading eval
names a metadata line stored as a fix or a cause by its group (bot.reader.metadata_kind). One list of words.
"""

from __future__ import annotations

import re

from bot.reader.cues_metadata import _DAY, MONTH

# a `Key: value` line about the incident ("Time to resolve: 31 minutes", "Impact: 1,200 users")
METADATA_LINE = re.compile(
    r"^\W{0,20}(?:total )?(?:time to (?:resolve|resolution|detect\w{0,30}|recover\w{0,30}|mitigat\w{0,30}|acknowledge\w{0,30}|repair)|"
    r"tt[rdam]|mtt[rdam]|duration|downtime|outage (?:length|duration|window)|length|impact(?:ed)?(?: \w{1,30})?|"
    r"(?:users?|customers?|requests?) (?:affected|impacted)|affected (?:users?|customers?)|severity|sev|priority|"
    r"start(?:ed)?(?: at| time)?|end(?:ed)?(?: at| time)?|detected(?: at)?|resolved(?: at| in)?|resolution (?:time|date)|"
    r"time of (?:resolution|detection)|date|status|"
    r"author\w{0,30}|owner|participants?|responders?|(?:rca|incident|response|post-?mortem) team|written by|prepared by|reviewers?|(?:total |user |funds? )?loss(?:es)?|funds? (?:at risk|lost)|"
    r"amount (?:lost|stolen|at risk)|reported by|reporter|detected by|incident (?:id|number|date|start|end|lead)|"
    r"(?:users?|customers?|systems?|services?|components?) affected|symptoms?)[*_]{0,40}\s{0,40}[:|=]",
    re.I,
)
# one word of a line that is mostly figures: a number, an amount, a share, a duration, a clock time, a
# date, a block height or a hash ("| 02-13 11:56 | 1674 | 485 |", "2h 32m / 3h 42m", "$1.2M, 340 ETH")
FIGURE_WORD = re.compile(
    r"^[\W_]{0,3}(?:[~≈<>±+-]?[$€£]?\d[\d,.:/%-]{0,200}(?:[a-z]{1,4}|[a-z]{1,3}/s)?|0x[0-9a-f]{6,256}|[0-9a-f]{12,256}|n/a|utc|gmt|[ap]m|"
    + MONTH
    + r")[\W_]{0,3}$",
    re.I,
)
# A `Key: value` line by its shape (bot.reader.read `_is_field_about_the_incident`): a label of one to
# five words, or a machine key as front matter writes it (`resolved_on`, `resolvedDate`), then its value.
# The key is told from prose before a colon ("We found the following:", "Resilver is launched: `zpool
# replace …`") by having no verb or pronoun of its own (FIELD_KEY_IS_PROSE).
FIELD = re.compile(
    # a colon between digits is a clock ("Around 17:55 I restarted …", "Thurs 07:28 PDT: …"), not a field's
    r"^[\W_]{0,6}(?P<key>[A-Za-z][\w'’/()&.-]{0,30}(?: [\w'’/()&.-]{1,30}){0,4}?)[*_]{0,40}\s{0,40}(?:(?<!\d):(?!//|\d)|=)"
    r"[\s*_]{0,40}(?P<value>.*)$"
)
FIELD_KEY_IS_PROSE = re.compile(
    r"\b(?:is|are|was|were|be|been|being|has|have|had|will|would|can|could|should|did|does|do|we|i|our|they|their|you|"
    r"it|this|that|these|those|following|below|above|follows|here|there)\b",
    re.I,
)
# a key that names a finding, an account or a title: what follows may be the cause or the fix ("Root cause:
# …", "Resolution: …", "What happened: …", "Update: …", "Incident: Disk full on db-1"), never a field of this kind
FIELD_KEY_NAMES_A_FINDING = re.compile(
    r"\b(?:root|causes?|caused|why|reasons?|triggers?|trigger(?:ed)|fix(?:es|ed)?|resol\w{0,30}|solutions?|solv\w{0,30}|mitigat\w{0,30}|"
    r"remedia\w{0,30}|workarounds?|work-arounds?|recover\w{0,30}|restor\w{0,30}|repair\w{0,30}|actions?|steps?|what|how|summary|tl;?dr|"
    r"description|details?|happened|explanation|background|context|problems?|issues?|errors?|diagnos\w{0,30}|investigat\w{0,30}|"
    r"findings?|analysis|lessons?|learn\w{0,30}|notes?|updates?|outcomes?|results?|changes?|timeline|follow\w{0,30}|next|plans?|"
    r"todo|conclusion|report|post-?mortem|rca|retro\w{0,30}|title|subject|day|phase|stage|attempts?|tried|symptoms?|"
    r"identified|investigating|monitoring|resolved|verified|done|decision|question|answer|comment|message|quote|"
    # the other kinds of section a postmortem has (bot/data/postmortem_sections.json): their `Key:` lines are read as such
    r"alert\w{0,30}|detection|discovery|response|troubleshooting|debugging|prevent\w{0,30}|improvements?|takeaways?|"
    r"reflections?|observations?|whys|vulnerability|technical|contributing|factors?|overview|introduction|abstract|"
    r"went|lucky|stack trace)\b|"
    r"^(?:incident|outage|event|failure|bug|q|a)$",
    re.I,
)
# each group's keys, in the words FIELD_KEY_ABOUT_THE_INCIDENT always had (bounded repeats only); the first part of a
# group is also a key about the harm (FIELD_KEY_ABOUT_THE_HARM: its value may be a phrase or a clause)
_KEYS = {
    "duration": (r"duration|downtime|period|window", r"length|mtt\w|tt[rdam]|sla|slo"),
    "impact": (
        r"impact\w{0,30}|affected|affecting|scope|blast radius|loss(?:es)?|profit|cost|damage",
        r"lost|refunds?|compensation|amount|total|count|number|users?|customers?|accounts?|contracts?|pools?",
    ),
    "date or time": (
        "",
        r"dates?|times?|when|start\w{0,30}|began|end|ended|published|updated|written|created|posted",
    ),
    "status": (r"status", r"state"),
    "severity or alert": (r"severity|sev|priority|urgency", ""),
    "people or roles": (
        "",
        r"detected|reported|reporter|authors?|owners?|reviewers?|editors?|commander|lead|responders?|on-?call|participants?|attendees?|team|contacts?",
    ),
    "ticket or link": (
        "",
        r"ticket|jira|id|links?|urls?|refs?|references?|sources?|tags?|categor\w{0,30}|labels?|type|kind|version|releases?",
    ),
    "place or system": (
        "",
        r"region|zone|datacenter|data center|location|cluster|environment|env|hosts?|network|chain|services?|components?|"
        r"products?|systems?",
    ),
}


def _words(*parts: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(p for p in parts if p) + r")\b", re.I)


KEY_OF_KIND = {kind: _words(*parts) for kind, parts in _KEYS.items()}
# a key that says the line is about the incident, whatever its value says ("Additional Impact: significant
# frontend latency", "Affected contract: LiquidCore pool", "Attacker profit: 146,577 USDC", "Incident
# commander: Sam", "Region: LON2", "Ref: https://status.example.com/incident/911580")
FIELD_KEY_ABOUT_THE_INCIDENT = _words(*(p for parts in _KEYS.values() for p in parts))
# of those, the keys whose value may be a phrase or a clause: who or what it hit and how badly, how long
FIELD_KEY_ABOUT_THE_HARM = _words(*(harm for harm, _ in _KEYS.values()))
FIELD_ABOUT_MAX_WORDS = 16  # an impact or status field's value is a phrase; longer, it may tell the fix
FIELD_SHORT_VALUE_WORDS = 4  # any other key: a value of at most this many words is a name or a label
# a value that is only a figure, a date or a time at its start ("146,577.47 USDC (net)", "~$155,000 (…)",
# "March 12th 2014 18:50 UTC to 19:20") or only a reference (a link, a ticket, a list of names in brackets)
FIELD_VALUE_LEADS_WITH_A_FIGURE = re.compile(
    r"^[~≈<>]?\s{0,40}(?:[$€£]\s?\d[\d,.]{0,40}|\d[\d,.:/-]{0,40}(?:\s{0,40}(?:%|[a-z]{1,4}))?|"
    + _DAY
    + r")(?=[\s,;()\]]|$)",
    re.I,
)
FIELD_VALUE_IS_A_REFERENCE = re.compile(
    r"^(?:<?https?://\S{1,2000}>?|\[[^\]]{0,200}\]\([^)]{0,300}\)|\[[^\[\]]{0,200}\]|#\d{1,12}|[A-Z][A-Z0-9]{1,40}-\d{1,12}|\"[^\"]{0,60}\"|"
    r"'[^']{0,60}'|true|false)[\s,.;]{0,40}$",
    re.I,
)
# a table's row of column names ("| Time | Block | Event |", "| Holder | Share | USDC shortfall |"): no
# figure and no sentence in any cell
TABLE_HEADER_CELL = re.compile(r"^[\W_]{0,3}[A-Za-z][\w'’/()&.-]{0,30}(?: [\w'’/()&.-]{1,30}){0,3}[\W_]{0,3}$")
