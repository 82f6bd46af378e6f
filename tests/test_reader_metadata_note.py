"""A field whose value is only a figure stays metadata with a note in brackets after it (issue 23, pmfix): a downtime
log's "- Total Time: 2 hours and 55 minutes. (I was asleep when it went down)" is how long it lasted, never the fix a
team is shown; the step told beside it, and a step told with a note of its own, are still read."""

from __future__ import annotations

import pytest

from bot.reader import is_metadata
from bot.reader.read import strip_metadata
from tests.test_reader_metadata import imported

DOWNTIME_LOG = """# Downtime report

#### Downtime on May 4th

- **Time**:
  - Down: 10:32 UTC (~ 5 minutes)
  - Up: 13:28 UTC (Manual Check). Reported back at 13:29 UTC by the uptime monitor.
  - Total Time: 2 hours and 55 minutes. (I was asleep when it went down)
- **Affected Services**: blog, mail relay.
- **Reason/Cause**: The backup job filled the root disk, so the mail relay could not write its queue.
- **Actions Taken**: I deleted the old backup archives and restarted the mail relay.
"""


@pytest.mark.parametrize(
    "line",
    [
        "- Total Time: 2 hours and 55 minutes. (I was asleep when it went down)",
        "Duration: 3h (approx.)",
        "- Up: 13:28 UTC (Manual Check).",
    ],
)
def test_a_figure_field_with_a_note_after_it_is_metadata(line: str) -> None:
    assert is_metadata(line), line
    assert strip_metadata(line) == "", line  # a list item, as the importer reads one


@pytest.mark.parametrize(
    "line",
    [
        "- Fix: restarted the mail relay (the second time)",
        "I deleted the old backup archives (about 40 GB).",
        "Cause: the nightly backup job (a cron entry) filled the root disk.",
    ],
)
def test_a_step_or_a_sentence_with_a_note_is_not_metadata(line: str) -> None:
    assert not is_metadata(line), line


def test_a_downtime_log_stores_the_step_and_not_how_long_it_lasted() -> None:
    draft = imported(DOWNTIME_LOG)
    assert "deleted the old backup archives" in draft.resolution
    assert "2 hours and 55 minutes" not in draft.resolution
    assert "2 hours and 55 minutes" not in draft.root_cause
