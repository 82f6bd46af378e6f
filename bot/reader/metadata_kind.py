"""What kind of metadata a line is (issue 23: "no duration or metadata line ever stored as fix or cause"), named by
the reader's own detectors (bot/reader/cues_metadata*.py, bot/reader/read.py), so that the reading eval can count a
fold's metadata stored as a fix or a cause by kind (bot/importer/scoring.py) without anyone reading its items. What
is metadata stays `is_metadata` / `without_metadata`, but the kind does decide one stored field: a "status" or "impact"
line is never the sentence model's cause pick (bot/reader/fix.py `tells_trouble_not_why`, bot/importer/cause_fix.py),
so a shape added to those kinds below changes stored causes too.
"""

from __future__ import annotations

from bot.reader.cues_metadata import (
    ALERT_LINE,
    BARE_VALUE,
    EDITOR_NOTE,
    FIELD_WITH_BARE_VALUE,
    FIGURES_ASIDE,
    METADATA_ESTIMATE,
    METADATA_FIGURE,
    METADATA_IMPACT,
    METADATA_SAID,
    METADATA_SHARE,
    METADATA_SPAN,
    PHASE_ONLY,
    RECURRENCE,
    STATE_ONLY,
    TIME_NOTE,
)
from bot.reader.cues_metadata_field import FIELD, FIELD_KEY_IS_PROSE, FIELD_VALUE_IS_A_REFERENCE, KEY_OF_KIND
from bot.reader.cues_metadata_shape import (
    AFFECTED_ONLY,
    CAUSE_FOUND_UNTOLD,
    COUNT_OF_HARM,
    DOWNTIME_TALLY,
    DURATION_SAID,
    HARM_IN_THE_SPAN,
    IMPACT_FORECAST,
    PHASE_AT_TIME,
    REPORT_NOTE,
    STATE_THEN_ASK,
    STATE_WORD_ONLY,
    SYMPTOM_SEEN,
    TALK_ONLY,
    TELLING_USERS,
    TICKED_ITEM,
    VOLUME_TOLD,
    WHEN_SAID,
)
from bot.reader.cues_metadata_state import (
    CONSEQUENCE_ONLY,
    READING_MOVED,
    REFERENCE_ONLY,
    STATE_FORECAST,
    STATE_OF_A_PART,
)

# read.py's own measures of a line (a field's length, a state's, a figure's window) and its line shapes: public,
# because this module names a line's kind by the same measures the reader decides by
from bot.reader.read import (
    FIELD_CHARS,
    FIGURE_CHARS,
    SHARE_OF_THINGS,
    STATE_ONLY_CHARS,
    field_key,
    is_table_header_or_figures_row,
    mostly_figures,
    says_status_boilerplate,
)

_STATE_SHAPES = (STATE_ONLY, STATE_WORD_ONLY, STATE_OF_A_PART, STATE_FORECAST)
# a metadata line's kind by what the reader's own detectors see in it, the first that fires (metadata_kind)
_KIND_SHAPES = (
    ("severity or alert", lambda line: ALERT_LINE.match(line)),
    (
        "status",
        lambda line: (
            (len(line) <= STATE_ONLY_CHARS and any(p.match(line) for p in _STATE_SHAPES))
            or says_status_boilerplate(line)
            or TALK_ONLY.match(line)
            or TELLING_USERS.match(line)
            or PHASE_ONLY.match(line)
            or CAUSE_FOUND_UNTOLD.match(line)
            or STATE_THEN_ASK.match(line)
            or TICKED_ITEM.match(line)
        ),
    ),
    ("duration", lambda line: DURATION_SAID.search(line) or DOWNTIME_TALLY.search(line)),
    (
        "impact",
        lambda line: (
            METADATA_IMPACT.search(line)
            or METADATA_SHARE.search(line)
            or SHARE_OF_THINGS.search(line)
            or COUNT_OF_HARM.match(line)
            or HARM_IN_THE_SPAN.match(line)
            or AFFECTED_ONLY.match(line)
            or SYMPTOM_SEEN.match(line)
            or CONSEQUENCE_ONLY.match(line)
            or READING_MOVED.match(line)
            or METADATA_SAID.search(line)
            or IMPACT_FORECAST.match(line)
            or VOLUME_TOLD.search(line)
        ),
    ),
    ("date or time", lambda line: WHEN_SAID.search(line) or TIME_NOTE.match(line) or PHASE_AT_TIME.search(line)),
    (
        "impact",
        lambda line: METADATA_FIGURE.search(line) or METADATA_SPAN.search(line) or METADATA_ESTIMATE.search(line),
    ),
    ("people or roles", lambda line: REFERENCE_ONLY.match(line)),
    ("ticket or link", lambda line: FIELD_VALUE_IS_A_REFERENCE.match(line)),
    (
        "figures, blank or note",
        lambda line: (
            BARE_VALUE.match(line)
            or FIELD_WITH_BARE_VALUE.match(line)
            or EDITOR_NOTE.match(line)
            or REPORT_NOTE.match(line)
            or RECURRENCE.match(line)
            or FIGURES_ASIDE.search(line)
            or mostly_figures(line)
            or is_table_header_or_figures_row(line)
        ),
    ),
)
METADATA_KINDS = tuple(dict.fromkeys([*KEY_OF_KIND, *(kind for kind, _ in _KIND_SHAPES), "other"]))


def metadata_kind(line: str) -> str:
    """What a metadata line tells (one of METADATA_KINDS), by the reader's own detectors: the first of its shapes that
    fires (an alert, a status page's word, a figure with a unit of time, who or what it hit, a date or a time, a
    handle, a reference, a bare value); a `Key: value` line by its value's shape, else by the group of its key
    (bot/reader/cues_metadata_field.py: "Severity: critical", "Reported by: Sam", "Region: LON2"). "other": nothing
    fires, a kind the reader has no shape for. For counting what was stored where it should not be (the reading eval), not
    for deciding what is metadata (`is_metadata`)."""
    line = line.strip()[:FIGURE_CHARS]
    field = FIELD.match(line) if len(line) <= FIELD_CHARS else None
    key = field_key(field) if field is not None else ""
    if not key or FIELD_KEY_IS_PROSE.search(key) or ALERT_LINE.match(line):  # "CRITICALs: /rpool is 99.51" an alert
        return _kind_by_shape(line)
    told = _kind_by_shape(field.group("value").strip(" *_"))
    if told in _KINDS_A_VALUE_TELLS:
        return told
    return next((kind for kind, words in KEY_OF_KIND.items() if words.search(key)), told)


# a value that says how long, who it hit, when or the state is that ("Time to resolve: 31 minutes", "Reported: 2021-03-18");
# otherwise the key says what the value is ("Severity: SEV-2", "Reported by: Sam", "Region: LON2")
_KINDS_A_VALUE_TELLS = ("duration", "impact", "date or time", "status")


def _kind_by_shape(line: str) -> str:
    return next((kind for kind, told in _KIND_SHAPES if told(line)), "other")
