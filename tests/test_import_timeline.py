"""Timelines written in the shapes real postmortems use are read as entries, not one block of
prose: times without a colon, `### 10:11 AM ###` headings after a code block, two time zones side
by side, a weekday or a month and day before the time (issue 23)."""

from __future__ import annotations

from pathlib import Path

from bot.importer.markdown import parse_markdown
from bot.importer.timeline import read_timeline
from bot.memory.postgres import PostgresMemoryStore
from tests.test_import import cli  # noqa: F401 - the `cli` fixture, shared


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


def test_rows_whose_time_is_approximate_are_entries_with_the_mark_kept_in_their_time() -> None:
    entries, prose = timeline(
        "| Time | Event |\n|---|---|\n"
        "| **~20:56** | a survey of the mounts confirms two read-only volumes on k8s02 |\n"
        "| ~12:46–22:58 AEST | replica pods cycle with a five-minute backoff |\n"
        "| ≈ 21:05 | the storage controller is restarted on k8s03 |\n"
        "- ~14:57 UTC — the daemon attempts to start and writes the disabled marker\n"
        "- approx. 15:02 - restarted the daemon by hand, it did not help\n"
        "- 15:10 (approx) - rolled the daemon back to the previous release\n"
        "- around 15:20: the service is restored and writes go through again\n"
        "* **~23:00** - a user reports that commits to the shared mount fail\n"
    )
    assert [when for when, _ in entries] == [
        "~20:56", "~12:46–22:58 AEST", "≈ 21:05", "~14:57 UTC", "approx. 15:02", "15:10 (approx)", "around 15:20", "~23:00",
    ]  # fmt: skip
    assert entries[4] == ("approx. 15:02", "restarted the daemon by hand, it did not help")
    assert prose == ""
    # a word of approximation before a figure that is no time stays prose
    rows, prose = timeline("About 40 pods were pending across the cluster at the time.\n")
    assert rows == [] and prose.startswith("About 40 pods")


APPROXIMATE_TIMELINE = """\
# Radarr volume read-only after a kubelet restart

- Date: 2026-07-13
- Service: radarr

## Summary

Radarr could not write to its volume for an hour: the volume was mounted read-only on k8s02.

## Timeline

| Time (UTC) | Event |
|---|---|
| **~20:28** | kubelet restart reschedules the storage controller pods from k8s03 to k8s02 |
| **~20:40** | Radarr reports that its database is read-only |
| **~20:58** | Deleted the radarr pod with `kubectl delete pod`; the replacement landed on k8s02 again and reused the \
read-only mount, still broken |
| **~21:20** | Unmounted the stale global mount on k8s02 and restarted the pod; radarr writes again |

## Root cause

The node kept a stale read-only global mount of the volume after the storage controller moved.
"""


async def test_an_imported_report_whose_timeline_times_are_approximate_keeps_its_attempt_and_fix(
    cli, store: PostgresMemoryStore, tmp_path: Path
) -> None:
    (tmp_path / "radarr-ro.md").write_text(APPROXIMATE_TIMELINE)
    code, out, err = await cli("import", str(tmp_path))
    assert code == 0, out + err
    memory = await store.get("local", "pm-radarr-ro")
    assert [a.why_it_failed for a in memory.failed_attempts] == ["still broken"]
    assert "reused the read-only mount" in memory.failed_attempts[0].action
    assert "Unmounted the stale global mount" in memory.resolution
    assert memory.provenance.fields["failed_attempts"] == "timeline entry '~20:58'"
    assert (memory.resolved_at.hour, memory.resolved_at.minute) == (21, 20)


def test_short_rows_with_words_are_entries_and_headings_of_times_keep_their_paragraph() -> None:
    entries, prose = timeline(
        "- 15:10 - restarted the pods\n- 15:14 - still failing\n- 15:30 - rolled back\n"
        "- 15:35 - errors gone, all green\n"
    )
    assert entries == [
        ("15:10", "restarted the pods"),
        ("15:14", "still failing"),
        ("15:30", "rolled back"),
        ("15:35", "errors gone, all green"),
    ]
    assert prose == ""
    # a heading of times (the date's and the zone's words, or none) keeps the paragraph under it as its text
    for heading, time in [
        ("14:29:", "14:29"),
        ("~13:30-13:45", "13:30-13:45"),
        ("08:52 PM:", "08:52 PM"),
        ("4:10 AM, July 23", "4:10 AM, July 23"),
        ("July 23 4:10 AM", "July 23 4:10 AM"),
        ("2021-07-16 at 3:50PM CDT", "2021-07-16 at 3:50PM CDT"),
        ("1:03", "1:03"),
        ("2017-05-09 10:45a", "2017-05-09 10:45a"),
        ("19. April, 11:00", "19. April, 11:00"),
    ]:
        rows, _ = timeline(f"{heading}\n\nThe load balancer drops every second request.\n")
        assert rows == [(time, "The load balancer drops every second request.")], heading
    # a short row heading paragraphs: they join it, after a full stop when its words end without one
    rows, _ = timeline("21:00 - Team alerted:\n\nA user reported the site down.\n\nThe on-call was paged.\n")
    assert rows == [("21:00", "Team alerted. A user reported the site down. The on-call was paged.")]


def test_a_two_letter_zone_right_after_a_time_is_the_times_and_nowhere_else() -> None:
    entries, _ = timeline(
        "- 11:15PM CT - Services Restored\n"
        "- 9:02 AM ET: paged the on-call, the primary database is failing over to the replica\n"
        "- 10:40 PT - the CT scanner uploads fail again\n"
        "- 10:52 - IT rolled the proxy back\n"
    )
    assert entries == [
        ("11:15PM CT", "Services Restored"),
        ("9:02 AM ET", "paged the on-call, the primary database is failing over to the replica"),
        ("10:40 PT", "the CT scanner uploads fail again"),
        ("10:52", "IT rolled the proxy back"),
    ]


SHORT_ROWS = """\
# Checkout errors after the v2.5.0 deploy

- Date: 2026-11-03
- Service: checkout

## Summary

Checkout returned errors for twenty-five minutes after the v2.5.0 deploy.

## Timeline

- 3:05PM CT - v2.5.0 deployed
- 3:10PM CT - restarted the pods
- 3:14PM CT - still failing
- 3:30PM CT - rolled back to v2.4.0
- 3:35PM CT - errors gone

## Root cause

The v2.5.0 release read a configuration key the production environment does not set.
"""


async def test_an_imported_report_whose_timeline_rows_are_short_keeps_its_attempt_fix_and_resolved_time(
    cli, store: PostgresMemoryStore, tmp_path: Path
) -> None:
    (tmp_path / "checkout-errors.md").write_text(SHORT_ROWS)
    code, out, err = await cli("import", str(tmp_path))
    assert code == 0, out + err
    memory = await store.get("local", "pm-checkout-errors")
    assert [(a.action, a.why_it_failed) for a in memory.failed_attempts] == [("restarted the pods", "still failing")]
    assert memory.provenance.fields["failed_attempts"] == "timeline entry '3:10PM CT'"
    assert "rolled back to v2.4.0" in memory.resolution
    assert "3:30PM CT — rolled back to v2.4.0" in memory.resolution  # the zone is the time's, not the fix's
    assert (memory.resolved_at.hour, memory.resolved_at.minute) == (15, 35)
