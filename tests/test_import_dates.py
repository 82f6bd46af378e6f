"""Which day an imported postmortem says its incident began (issue 23): a report is often dated
when it was written, and states the incident's day elsewhere. Small texts written by us: a
behaviour check, not a measure (bench/reading_eval.py is the measure, on real documents)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.importer.markdown import parse_markdown


def _day(text: str, name: str = "postmortem.md") -> str:
    draft = parse_markdown(text, team_id="T", incident_id="INC-1", name=name)
    assert draft.occurred_at is not None
    return draft.occurred_at.date().isoformat()


def test_a_report_dated_after_the_incident_takes_the_day_its_text_says_it_began() -> None:
    text = (
        "# Testnet upgrade post-mortem\n\nAuthor: Sam\n\nDate: Mar 12, 2025, 18:00 UTC\n\n## Overview\n\n"
        "On March 5, 2025, at 7:29 UTC, the upgrade was activated and validators began producing empty blocks.\n\n"
        "## Root cause\n\nA bug in the deposit contract handling.\n"
    )
    assert _day(text) == "2025-03-05"


def test_a_day_the_text_names_for_something_else_is_not_the_incident_s() -> None:
    text = (
        "# Disk usage on the git host\n\nDate: 2020-10-08\n\n"
        "On September 18th, we were tracking the growth of disk usage ahead of a planned migration.\n\n"
        "## Root cause\n\nThe snapshot retention policy kept every snapshot, so the disk filled up.\n"
    )
    assert _day(text) == "2020-10-08"


def test_a_status_page_entry_s_front_matter_date_is_the_incident_s_not_a_post_s() -> None:
    text = (
        "---\ntitle: Our upstream network provider is experiencing issues\ndate: 2021-12-20 20:03:00\n"
        "resolved: yes\nresolvedWhen: 2021-12-20 20:22:00\nseverity: disrupted\n---\n\n"
        "The issue has been resolved: the upstream network outage is over. On November 16th, 2021 an outage began.\n"
    )
    assert _day(text) == "2021-12-20"


def test_a_title_and_a_file_name_a_year_apart_give_the_one_the_timeline_agrees_with() -> None:
    text = (
        "# 2012-06-08 Stalled sync of the products volume\n\n## Timeline\n\n"
        "- 2023-06-07 10:00 sync found stalled\n- 2023-06-08 09:00 sync relaunched manually, it worked\n"
    )
    assert _day(text, name="2023-06-08-stalled-sync.md") == "2023-06-08"


def test_a_title_s_month_and_day_take_the_year_of_the_file_name() -> None:
    text = "---\ntitle: Post-Mortem of Connectivity Issues on August 10th\n---\n\nS3 had an outage in one region.\n"
    assert _day(text, name="2015-08-13-postmortem.md") == "2015-08-10"


def test_a_timeline_entry_with_a_footnote_mark_is_still_an_entry() -> None:
    text = (
        "---\ntitle: Leaked token\ndate: 2024-07-08\n---\n\nA token was leaked in a published image.\n\n"
        "## Timeline\n\n- 2023-03-03[^1]:\n    image pushed with the token in a .pyc file\n"
        "- 2024-06-21:\n    the image is removed from the registry\n"
        "- 2024-06-28[^2]:\n    the token is reported and revoked\n\n[^1]: from the registry's logs\n"
    )
    assert _day(text) == "2023-03-03"


def test_a_report_titled_on_the_day_it_was_handled_takes_the_timeline_s_first_day_of_trouble() -> None:
    text = (
        "# 2024-04-11: Uploads not processed\n\n## Summary\n\nNew uploads did not appear in the catalogue.\n\n"
        "## Timeline\n\n- 2024-04-09 @ 18:56, Dana posts on GitHub that uploads are broken\n"
        "- 2024-04-10 @ 09:00, investigation by Lee\n- 2024-04-11 @ 14:00, the queue worker is restarted, uploads appear\n"
    )
    assert _day(text) == "2024-04-09"


def test_a_timeline_that_opens_with_a_change_or_a_report_of_a_bug_keeps_the_report_s_day() -> None:
    change = (
        "# 2024-04-11: Uploads not processed\n\n## Timeline\n\n"
        "**2024-04-02**\n\n- 10:00 the worker's memory limit is lowered to 1G. Everything seems fine.\n\n"
        "**2024-04-11**\n\n- 08:00 uploads fail with out-of-memory errors\n"
    )
    bounty = (
        "# Chain split 2024-04-11 post mortem\n\n## Timeline\n\n"
        "- 2024-04-02: a researcher submitted a bounty report. Investigation started, root cause identified.\n"
        "- 2024-04-11: the bug is exploited and a minority of nodes split off\n"
    )
    assert _day(change) == "2024-04-11"
    assert _day(bounty) == "2024-04-11"


def test_a_date_in_a_log_quoted_in_the_timeline_is_not_the_day_it_began() -> None:
    text = (
        "# 2024-04-11: Uploads not processed\n\n## Timeline\n\n"
        '```\nApr 02 20:55:30 worker-3 uploader[12]: level=error msg="upload failed"\n```\n\n'
        "- 2024-04-11 08:00 uploads fail with out-of-memory errors\n"
    )
    assert _day(text) == "2024-04-11"


def test_a_numeric_date_written_day_first_is_read_the_way_the_file_name_dates_it() -> None:
    text = "# Preprod down\n\n**Date**: 03/10/2021\n\n**Summary**: the preprod containers crashed after a storage change.\n"
    assert _day(text, name="2021-10-03-preprod-down.md") == "2021-10-03"
    assert _day(text, name="preprod-down.md") == "2021-03-10"  # nothing says which: month first, as before


def test_a_report_that_names_no_day_of_its_own_is_not_dated_by_an_edit_a_deadline_or_a_log_line() -> None:
    edited = (
        "# Database outage\n\n_Last edited 2024-06-20_\n\n## Summary\n\n"
        "The database was down for two hours on 2024-06-03 after its disk filled.\n"
    )
    logged = (
        "# Database outage\n\n## Summary\n\nThe database was down.\n\n"
        "```\n2019-01-01 00:00:00 ERROR disk full\n```\n\nOn 2024-06-03 the disk filled.\n"
    )
    deadline = "# Database outage\n\n## Summary\n\nThe database was down. We will add a disk alert by 2024-07-01.\n"
    published = (
        "# Database outage\n\nPublished 2024-06-20 by Sam\n\n## Summary\n\nThe database was down for two hours.\n"
    )
    assert _day(edited) == "2024-06-03"
    assert _day(logged) == "2024-06-03"
    assert parse_markdown(deadline, team_id="T", incident_id="INC-1", name="pm.md").occurred_at is None
    assert _day(published) == "2024-06-20"  # the only day it names: written that day or soon after


def _counted_dateparser(monkeypatch) -> list[str]:
    import dateparser

    from bot.importer import dates

    calls: list[str] = []
    real_parse = dateparser.parse

    def counted(text: str, *args, **kwargs):
        calls.append(text)
        return real_parse(text, *args, **kwargs)

    monkeypatch.setattr(dateparser, "parse", counted)
    dates._parse.cache_clear()
    return calls


def test_a_timeline_of_thousands_of_dated_entries_reads_a_bounded_number_of_dates(monkeypatch) -> None:
    """Review F71: each dated entry's time went to dateparser (~3 ms each), the timeline's uncapped, so a 2 MB
    document, or a status page's front matter repeating one update by alias, took minutes. The first DATES_READ
    dates of a text are read, the same text once, an ISO date with its time without dateparser: the work is counted
    here, not timed."""
    from bot.importer import dates

    calls = _counted_dateparser(monkeypatch)
    entries = 10 * dates.DATES_READ
    # distinct times of day: no two entries alike, so no memo helps
    timeline = "".join(
        f"- 2024-03-{1 + i % 28:02d} {i // 60 % 24:02d}:{i % 60:02d} UTC: the API returned 502\n"
        for i in range(entries)
    )
    text = "# API outage\n\n## Timeline\n\n" + timeline + "\n## Root cause\n\nA bad deploy of the gateway.\n"
    assert _day(text) == "2024-03-01"  # the first day told is still the one taken
    assert len(calls) <= 2 * dates.DATES_READ  # 2,001 before
    # dates dateparser must read (month first, by number): a text's first DATES_READ of them, in order, each once
    calls.clear()
    numeric = " ".join(f"{1 + i % 12:02d}/{1 + i % 28:02d}/{2000 + i % 25}" for i in range(5 * dates.DATES_READ))
    found = dates.find_dates(numeric)
    assert len(found) == dates.DATES_READ and found[0] == datetime(2000, 1, 1, tzinfo=UTC)
    assert len(calls) <= dates.DATES_READ
    calls.clear()
    dates.find_dates("03/01/2024 was the day. " * 50)
    assert len(calls) == 1


@pytest.mark.parametrize(
    "written",
    [
        "2024-03-18 14:05 UTC",
        "2024 03 18 14:05 UTC",  # as dated_spans hands a date written with letters near it
        "2024-3-8T9:05:07Z",
        "2024-03-18 14:05",
        "2019-12-31 23:59:59 gmt",
        "2024-02-30 10:00",  # no such day
        "2024-03-18 24:00",  # no such hour
    ],
)
def test_an_iso_date_with_its_time_is_read_as_dateparser_reads_it(written: str) -> None:
    import dateparser

    from bot.importer import dates

    dates._parse.cache_clear()
    assert dates._parse(written) == dateparser.parse(written, languages=["en"], settings=dates._SETTINGS)
