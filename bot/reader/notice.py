"""A notice of planned work ("Scheduled Maintenance: the servers will be rebooted on Thursday
between 08:30 and 10:30") is not an incident: it announces work ahead and reports no failure.

The importer skips such a file with the reason, as it skips a template or an index. The
announcement must open the notice (its title or first sentences): a report that ends "we will
change this during our next maintenance window" is an incident. A report of maintenance that went
wrong ("during the scheduled maintenance the database failed to start") is an incident too: one
sentence that says something failed or caused something, not as a risk or ahead of time, is enough.
"""

from __future__ import annotations

from bot.reader.cues import AHEAD_OR_RISK, CAUSE, FAILURE_WORDS, PLANNED_WORK
from bot.reader.text import SENTENCE_BREAK

MAX_NOTICE_CHARS = 20_000  # a notice is short; a longer text is read up to this
_OPENING_SENTENCES = 2


def reports_a_failure(sentence: str) -> bool:
    """A sentence that says something went wrong or caused it, not as a risk or ahead of time."""
    return bool(FAILURE_WORDS.search(sentence) or CAUSE.search(sentence)) and not AHEAD_OR_RISK.search(sentence)


def is_planned_work_notice(title: str, text: str) -> bool:
    """True when the title or the opening sentences announce planned work and no sentence reports
    a failure."""
    said = [s for s in SENTENCE_BREAK.split(text[:MAX_NOTICE_CHARS]) if s.strip()]
    title = title[:1_000]
    if not any(PLANNED_WORK.search(s) for s in (title, *said[:_OPENING_SENTENCES])):
        return False
    return not any(reports_a_failure(s) for s in (title, *said))
