"""Timelines written in the shapes real postmortems use are read as entries, not one block of
prose: times without a colon, `### 10:11 AM ###` headings after a code block, two time zones side
by side, a weekday or a month and day before the time (issue 23)."""

from __future__ import annotations

from bot.importer.markdown import parse_markdown
from bot.importer.timeline import read_timeline


def timeline(body: str) -> tuple[list[tuple[str, str]], str]:
    entries, prose = read_timeline(body.split("\n"))
    return [(e.when, e.text) for e in entries], prose


def test_times_written_without_a_colon_are_entries_and_the_fix_comes_from_them() -> None:
    text = (
        "# Annotations service down\n\n## Summary\n\nThe annotations instance locked up.\n\n## Timeline\n\n"
        "1436 - alert that the CDN check has failed\n"
        "1438 - attempted ssh\n"
        "        - eventually timed out\n"
        "1441 - stopping the instance\n"
        "1443 - rolled back the proxy config and the service is restored\n"
    )
    draft = parse_markdown(text, team_id="T", incident_id="pm-x")
    assert "rolled back the proxy config" in draft.resolution
    assert "timeline entry '1443'" in draft.provenance.fields["resolution"]
    entries, prose = timeline(text.split("## Timeline\n\n")[1])
    assert [when for when, _ in entries] == ["1436", "1438", "1441", "1443"]
    assert entries[1] == ("1438", "attempted ssh eventually timed out")
    assert prose == ""


def test_a_colonless_time_after_a_date_or_a_bullet_is_part_of_the_entrys_time() -> None:
    entries, _ = timeline(
        "- 2022-02-02 1625: an e-mail reports a critical bug\n"
        "- 2022-02-02 X: a message on Discord to make sure we read it\n"
        "* 0717: Routine cluster upgrade merged\n"
    )
    assert entries == [
        ("2022-02-02 1625", "an e-mail reports a critical bug"),
        ("2022-02-02", "X: a message on Discord to make sure we read it"),
        ("0717", "Routine cluster upgrade merged"),
    ]


def test_years_are_not_read_as_times_without_a_colon() -> None:
    entries, prose = timeline("- 2019: we moved the cluster to Kubernetes\n- 2021: we added a second region\n")
    assert entries == []
    assert "moved the cluster" in prose
    entries, _ = timeline("1436 - alert fired\n")  # one such line alone is no timeline's shape
    assert entries == []


def test_time_headings_after_a_code_block_whose_fences_do_not_pair_by_name_are_entries() -> None:
    # "```" opens a block that "```bash" cannot close (CommonMark): read as open/close, the rest of the
    # timeline was code and nothing after it was read
    body = (
        "### 00:25 AM ###\n\nTried to set the base_url.\n\n```\n```bash\nsqlite3\n```\n\n"
        "### 1:12 AM ###\n\nA user notices all his notebooks are gone.\n\n"
        "### 10:11 AM ###\n\nAttempt to log everyone out by changing the cookie secret.\n"
    )
    text = f"# Hub database overwritten\n\n## Summary\n\nThe hub database was replaced.\n\n## Timeline ##\n{body}"
    draft = parse_markdown(text, team_id="T", incident_id="pm-x")
    assert "A user notices all his notebooks are gone" in draft.diagnosis
    doc_entries, _ = timeline(body.replace("### ", "").replace(" ###", ":"))
    assert [when for when, _ in doc_entries] == ["00:25 AM", "1:12 AM", "10:11 AM"]


def test_inline_code_written_with_three_backticks_does_not_open_a_code_block() -> None:
    entries, _ = timeline(
        "16:51 - attempting to reach the provisioner over ssh fails with:\n```ERROR: no external IP address yet```\n17:01 - the project is moved to another account\n"
    )
    assert [when for when, _ in entries] == ["16:51", "17:01"]


def test_two_zones_a_weekday_or_a_month_and_day_before_the_time_are_entries() -> None:
    entries, prose = timeline(
        "UTC/ACDT\n"
        "03:16/13:46 - New Relic reports the error percentage high\n"
        "- Thurs 07:06 PDT: The team was paged because of a backlog growing.\n"
        "- [12-05 16:21] Crashloop bug preventing Boskos from updating is introduced\n"
    )
    assert [when for when, _ in entries] == ["03:16/13:46", "Thurs 07:06 PDT", "12-05 16:21"]
    assert prose == "UTC/ACDT"


def test_a_status_pages_entry_is_imported_however_its_updates_are_worded() -> None:
    # front matter that makes the file an incident record (a status page's entry), updates that name no failure
    text = (
        "---\ntitle: Website issues\ndate: 2024-11-14 09:15:00\nresolved: yes\nseverity: notice\n"
        "affected:\n  - Website\n---\n\n09:30 UTC\n\nWe are seeing improvement in the responsiveness of the site.\n"
    )
    draft = parse_markdown(text, team_id="T", incident_id="pm-x", name="2024-11-14-website-issues.md")
    assert draft.title == "Website issues"
    assert draft.occurred_at.date().isoformat() == "2024-11-14"


def test_a_table_timeline_told_as_offsets_from_the_start_is_read_entry_by_entry() -> None:
    text = (
        "# Testnet upgrade halted\n\n## Summary\n\nThe upgrade halted the chain.\n\n## Timeline\n\n"
        "| Time | Event |\n| --- | --- |\n"
        "| +0 minutes | Upgrade height reached; block production stops |\n"
        "| \\[+6 hrs] | First patched binary prepared and deployed internally |\n"
        "| +130 minutes | Upgrade re-attempted; the node fails again |\n"
        "| +145 minutes | Full server reboot performed; the node recovers |\n"
    )
    entries, _ = timeline(text.split("## Timeline\n\n")[1])
    assert [when for when, _ in entries] == ["+0 minutes", "\\[+6 hrs]", "+130 minutes", "+145 minutes"]
    draft = parse_markdown(text, team_id="T", incident_id="pm-offsets")
    assert [a.action for a in draft.failed_attempts] == ["Upgrade re-attempted"]
    # a count or a duration alone in a cell is no time
    rows, _ = timeline("| 3 | nodes restarted |\n| 1 hour | of downtime |")
    assert rows == []
