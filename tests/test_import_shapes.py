"""Postmortems as real teams write them (issue 12): every shape that was refused or misread is a
small file in tests/fixtures/postmortems/, read here as `import` reads it, then end to end through
the command line into a real PostgreSQL.

These fixtures are written by us: a behaviour check, not a quality measure (that is
bench/import_postmortems.py on eval/postmortems, real documents).
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path, PurePath

import pytest

from bot.importer.drafts import NotAnIncident
from bot.importer.formats import FoundFile, parse_file
from bot.importer.markdown import parse_markdown
from bot.memory.postgres import PostgresMemoryStore
from bot.models import MemoryDraft, MemoryRecord, RecallMatch, Source, TruthState
from bot.slack.messages import memory_detail, recall_reply
from tests.test_import import cli, statuses  # noqa: F401 - the `cli` fixture, shared

FIXTURES = Path(__file__).parent / "fixtures" / "postmortems"
EXAMPLES = Path(__file__).parent.parent / "examples"


def read(name: str) -> MemoryDraft:
    parsed = parse_file(FoundFile(FIXTURES / name, PurePath(name)), team_id="T")
    assert parsed.error is None, parsed.error
    [draft] = parsed.drafts
    return draft


# ---- nothing that reports an incident is refused ----------------------------------------------------


def test_toml_front_matter_gives_title_date_service_and_tags() -> None:
    draft = read("toml-front-matter.md")
    assert draft.title == "Login outage after the identity provider rotated its signing keys"
    assert (draft.service, draft.tags) == ("auth", ["sso", "jwt"])
    assert draft.occurred_at == datetime(2021, 3, 9, tzinfo=UTC)
    assert draft.resolution.startswith("We flushed the JWKS cache")


def test_without_a_heading_the_first_line_is_the_title_and_question_headings_are_sections() -> None:
    draft = read("no-title-heading.md")
    assert draft.title == "Payments webhook backlog"
    assert (draft.service, draft.occurred_at.date().isoformat()) == ("payments", "2022-11-02")
    assert draft.symptoms == "Webhooks from the payment provider queued for three hours."
    assert "typo in the Helm values" in draft.root_cause
    assert draft.resolution == "Restored the worker count to 8 and drained the queue."


def test_a_section_longer_than_a_modal_allows_is_kept_whole() -> None:
    draft = read("long-section.md")
    assert len(draft.root_cause) > 3000
    assert draft.root_cause.endswith("held back WAL replay on the standby.")


def test_what_was_impacted_and_what_were_doing_about_it() -> None:
    draft = read("impacted-headings.md")
    assert draft.symptoms == "Impact: Search returned partial results for 2 hours."
    assert draft.root_cause.startswith("Disk watermarks were crossed")
    assert draft.resolution.startswith("Deleted old indices")
    assert draft.lesson == "Action items:\n- Alert on disk usage at 75%"


def test_a_plain_text_export_gets_its_sections_from_line_shape() -> None:
    draft = read("plain-text-export.txt")
    assert draft.title == "Certificate expiry took down the public API"
    assert (draft.service, draft.occurred_at.date().isoformat()) == ("public-api", "2023-04-17")
    assert draft.symptoms.startswith("The TLS certificate of api.example.com expired")
    assert draft.root_cause.startswith("The renewal job had been failing silently")
    assert draft.resolution.startswith("Issued a new certificate by hand")
    assert [(a.action, a.why_it_failed) for a in draft.failed_attempts] == [
        ("Restarted the API pods", "still failing the TLS handshake")
    ]


def test_subsections_stay_in_their_parent_and_a_second_top_heading_ends_it() -> None:
    draft = read("nested-subsections.md")
    assert draft.resolution == "Upgraded the client library on all consumers and redeployed them."
    for said in ("What went well", "Alerts fired", "It took us 30 minutes", "Where we got lucky", "Prevention",
                 "Pin the broker protocol version", "Detection", "Alert on consumer lag"):  # fmt: skip
        assert said in draft.lesson
    assert "Time to detect" not in draft.lesson  # "# Stats" is a section of its own
    assert draft.failed_attempts == []  # "it took us 30 minutes" is a critique, not an attempt


def test_what_did_not_work_beside_what_worked_is_a_critique_and_what_we_tried_stays_attempts() -> None:
    """A retrospective's "What worked / What didn't work" pair judges the response: its gaps are no failed step."""
    body = (
        "# Preview disk full\n\n## Summary\n\nThe deploy failed: the disk was full.\n\n"
        "## Resolution\n\nPruned old images with docker image prune and redeployed.\n\n"
        "## Detection & Response\n\n### What Worked\n\n- The deploy script's disk gate failed fast\n\n"
        "### {heading}\n\n- No proactive alerting for disk approaching capacity\n"
        "- Restarting the deploy job did not help: the disk stayed at 100%\n"
    )
    pair = parse_markdown(body.format(heading="What Didn't Work"), team_id="T", incident_id="INC-1")
    assert pair.failed_attempts == []
    assert "No proactive alerting" in pair.lesson
    tried = parse_markdown(
        body.format(heading="What we tried that didn't work").replace("### What Worked", "### Alerts"),
        team_id="T",
        incident_id="INC-1",
    )
    assert [a.action for a in tried.failed_attempts if "Restarting" in a.action]


def test_html_tags_and_entities_are_cleaned() -> None:
    draft = read("html-entities.md")
    assert draft.title == "Cache & session store evicted keys"
    assert (
        draft.root_cause == "Both the cache & the session store shared one Redis. Its maxmemory policy was allkeys-lru."
    )
    assert "&nbsp;" not in draft.resolution and "Redis" in draft.resolution


def test_a_timeline_gives_the_fix_and_the_attempts_that_failed_never_a_critique() -> None:
    draft = read("timeline-only.md")
    assert draft.occurred_at.date().isoformat() == "2019-05-14"
    assert draft.resolved_at == datetime(2019, 5, 14, 12, 5, tzinfo=UTC)
    assert "Rolled back the builder image to v41" in draft.resolution
    assert "timeline entry '11:30'" in draft.provenance.fields["resolution"]
    assert [(a.action, a.why_it_failed) for a in draft.failed_attempts] == [
        ("Restarted the scheduler", "builds still pending"),
        ("Changed the health-check path on the builders", "still 404"),
    ]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ((FIXTURES / "incident-template.md").read_text(), "template"),
        ("# Incident Title\n\n## Summary\n\n<describe>\n", "template"),
        ("   \n", "empty"),
        (
            "Offsite planning\n\nBook the venue, order lunch for twelve and bring the projector.\n",
            "no word of an incident",
        ),
    ],
)
def test_a_template_or_an_empty_file_is_not_an_incident(text: str, reason: str) -> None:
    with pytest.raises(NotAnIncident, match=reason):
        parse_markdown(text, team_id="T", incident_id="pm-x")


SEARCH_OUTAGE = (
    "# Search outage, 2023-05-14\n\n"
    "On May 14 the product search returned no results for 40 minutes. The Elasticsearch index was rebuilt\n"
    "by a nightly job that ran out of disk halfway, and the alias pointed at the empty index. Pointing the\n"
    "alias back at the previous index restored results at 10:42 UTC.\n"
)
POSTMORTEMS_LIST = "# Postmortems\n\n- [2023-05-14 Search outage](2023-05-index-outage.md)\n- [CDN errors](cdn.md)\n"


@pytest.mark.parametrize("name", ["2023-05-index-outage.md", "broken-elasticsearch-index.md"])
def test_an_incident_about_an_index_is_imported_whatever_its_name_says(name: str) -> None:
    # "index" in a file's name once refused any report told without root cause, fix or timeline sections
    draft = parse_markdown(SEARCH_OUTAGE, team_id="T", incident_id="pm-x", name=name)
    assert draft.title == "Search outage, 2023-05-14"


@pytest.mark.parametrize(
    "name", ["2023-05-14-github-readme-stats-outage.md", "readme-badges-broken-badge-server-restarted.md"]
)
def test_an_incident_of_a_service_named_readme_is_imported(name: str) -> None:
    # "readme" anywhere in a name once refused the outage of a README-card service as a folder's index
    draft = parse_markdown(SEARCH_OUTAGE, team_id="T", incident_id="pm-x", name=name)
    assert draft.title == "Search outage, 2023-05-14"


@pytest.mark.parametrize(
    "name",
    ["index.md", "postmortems-index.md", "ops-README.md", "Incidents_Index.md", "kubernetes-test-infra-readme.md"],
)
def test_a_folders_index_is_still_skipped_by_its_name(name: str) -> None:
    with pytest.raises(NotAnIncident, match="is an index"):
        parse_markdown(POSTMORTEMS_LIST, team_id="T", incident_id="pm-x", name=name)


def test_times_written_into_a_templates_braces_are_filled_in_not_blanks() -> None:
    # a real postmortem (UC Berkeley DataHub, 2022-01-20) kept its template's "{{ }}" around each time
    entries = "".join(f"### {{{{ {t} }}}}\n\n{what}\n\n" for t, what in [
        ("06:10", "An instructor reported the R hub throwing 505 errors."),
        ("07:45", "Restarted the hub pod; still 505."),
        ("09:30", "Rolled back the image to the previous tag and the hub came back."),
    ])  # fmt: skip
    text = f"# Hubs throwing 505 errors\n\n## Summary\n\nAn image rebuild broke the R hub.\n\n## Timeline\n\n{entries}"
    draft = parse_markdown(text, team_id="T", incident_id="pm-x")
    assert draft.title == "Hubs throwing 505 errors"
    with pytest.raises(NotAnIncident, match="template"):  # blanks left as they were still make a template
        parse_markdown(
            text.replace("06:10", "HH:MM").replace("07:45", "time").replace("09:30", "time"),
            team_id="T",
            incident_id="pm-x",
        )


def test_a_service_tag_names_the_service() -> None:
    text = "---\ntitle: Checkout errors\ntags: [payments, 'service:checkout']\n---\n\n## Root cause\n\nA bad deploy of the pricing client.\n"
    draft = parse_markdown(text, team_id="T", incident_id="pm-x")
    assert (draft.service, draft.tags) == ("checkout", ["payments", "service:checkout"])


def test_a_date_alone_in_a_blogs_front_matter_is_when_it_was_published() -> None:
    text = "---\ntitle: DNS outage\ndate: 2023-03-10\n---\n\nOn March 3, 2023 our resolvers failed.\n\n## Root cause\n\nA bad zone push.\n"
    draft = parse_markdown(text, team_id="T", incident_id="pm-x")
    assert draft.occurred_at.date().isoformat() == "2023-03-03"
    assert draft.provenance.fields["occurred_at"] == "the first date in the text"


# ---- end to end ---------------------------------------------------------------------------------------


async def test_the_fixtures_import_and_the_template_is_skipped_with_its_reason(cli, store: PostgresMemoryStore) -> None:  # noqa: F811
    code, out, err = await cli("import", str(FIXTURES))
    assert code == 0, out + err
    found = statuses(out)
    assert found.pop("incident-template.md") == "skipped"
    assert set(found.values()) == {"imported"} and len(found) == 8
    assert "a postmortem template, not an incident report" in out
    assert "1 not incident reports" in out


async def test_the_same_files_from_another_folder_create_nothing(cli, store, tmp_path: Path) -> None:  # noqa: F811
    archive = tmp_path / "archive"
    shutil.copytree(FIXTURES, archive / "2021")
    assert (await cli("import", str(archive)))[0] == 0
    before = (await store.list("local", limit=50)).total
    code, out, _ = await cli("import", str(archive / "2021"))
    assert code == 0
    assert set(statuses(out).values()) == {"unchanged", "skipped"}
    assert (await store.list("local", limit=50)).total == before == 8


async def test_update_supersedes_an_edited_postmortem_and_without_it_the_conflict_says_so(
    cli, store, tmp_path: Path
) -> None:  # noqa: F811
    path = tmp_path / "builds-pending.md"
    shutil.copy(FIXTURES / "timeline-only.md", path)
    assert (await cli("import", str(path)))[0] == 0
    path.write_text(path.read_text().replace("Builds stayed pending", "Builds stayed queued"))

    code, out, err = await cli("import", str(path))
    assert code == 1 and "conflict" in out and "import with --update to supersede it" in out
    assert (await store.get("local", "pm-builds-pending")).symptoms.startswith("Builds stayed pending")

    code, out, _ = await cli("import", "--update", str(path))
    assert code == 0 and "updated" in out and "pm-builds-pending~r2 (supersedes pm-builds-pending)" in out
    old, new = await store.get("local", "pm-builds-pending"), await store.get("local", "pm-builds-pending~r2")
    assert (old.truth_state, old.superseded_by) == (TruthState.SUPERSEDED, "pm-builds-pending~r2")
    assert old.transitions[-1].actor == "import --update"
    assert new.symptoms.startswith("Builds stayed queued") and new.truth_state is TruthState.UNCONFIRMED_HYPOTHESIS

    for argv in (("import", str(path)), ("import", "--update", str(path))):  # the latest revision: nothing to do
        code, out, _ = await cli(*argv)
        assert code == 0 and statuses(out) == {"builds-pending.md": "unchanged"}
    assert (await store.list("local")).total == 2


async def test_dry_run_says_what_was_found_and_writes_nothing(cli, store) -> None:  # noqa: F811
    code, out, err = await cli(
        "import", "--dry-run", str(FIXTURES / "timeline-only.md"), str(FIXTURES / "incident-template.md")
    )
    assert code == 0, err
    assert "checked    " in out and "dry run: nothing written" in out
    assert "found: title, occurred_at, resolved_at, symptoms, resolution, failed_attempts, lesson" in out
    assert "missing: service, severity, root_cause, diagnosis" in out
    assert "skipped" in out and "template" in out
    assert (await store.list("local")).total == 0


async def test_show_says_where_each_field_came_from(cli) -> None:  # noqa: F811
    assert (await cli("import", str(FIXTURES / "plain-text-export.txt")))[0] == 0
    code, out, _ = await cli("show", "pm-plain-text-export")
    assert code == 0
    assert "imported from plain-text-export.txt by markdown-sections/2" in out
    assert "root_cause: section 'Root cause'" in out
    assert "failed_attempts: timeline entry '00:20'" in out
    assert "occurred_at: line 'Date:'" in out
    code, out, _ = await cli("show", "--json", "pm-plain-text-export")
    assert json.loads(out)["provenance"]["fields"]["resolution"] == "section 'Resolution'"

    assert (await cli("import", str(EXAMPLES / "incident-log.csv")))[0] == 0
    code, out, _ = await cli("show", "pm-b6f2b0aef8ce")  # the id-less row's id: its title, date and service
    assert "imported from incident-log.csv by csv" in out and "root_cause: column 'root_cause'" in out


# ---- the memory format: `retain` and `import` read it alike -------------------------------------------------


async def test_retain_and_import_give_a_record_the_same_id_and_truth(cli, store, tmp_path: Path) -> None:  # noqa: F811
    path = tmp_path / "export.jsonl"
    path.write_text(json.dumps({"title": "Disk full", "root_cause": "logs", "verified_by": "maya"}) + "\n")
    assert (await cli("retain", str(path)))[0] == 0
    assert (await cli("import", "--team", "other", str(path)))[0] == 0
    [imported_id] = [m.incident_id for m in (await store.list("other")).memories]
    assert imported_id.startswith("pm-") and imported_id != "pm-export-1"  # from its content, not its line
    retained, imported = await store.get("local", imported_id), await store.get("other", imported_id)
    assert retained.truth_state is imported.truth_state is TruthState.HUMAN_CONFIRMED
    assert retained.verified_by == imported.verified_by == "maya"


async def test_json_lines_with_u2028_inside_a_string_are_read_by_both(cli, store, tmp_path: Path) -> None:  # noqa: F811
    path = tmp_path / "pasted.jsonl"
    record = {"incident_id": "INC-9", "title": "Pasted\u2028from a web page", "root_cause": "a\u2029b\x85c"}
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    assert "\u2028" in path.read_text(encoding="utf-8")
    code, out, err = await cli("retain", str(path))
    assert code == 0, err
    assert (await cli("import", "--team", "other", str(path)))[0] == 0
    for team in ("local", "other"):
        assert (await store.get(team, "INC-9")).root_cause == "a\u2029b\x85c"


# ---- the age of an undated postmortem -----------------------------------------------------------------------


def test_an_imported_postmortem_without_a_date_shows_its_age_as_unknown_not_today() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    undated = MemoryRecord(
        incident_id="pm-x", team_id="T", title="Old outage", source=Source.SEED, created_at=now, updated_at=now
    )
    saved = undated.model_copy(update={"source": Source.ENGINEER_SAVED})
    reply = json.dumps(recall_reply(RecallMatch(memory=undated, score=1, score_components={}, reasons=[]), now))
    assert "age unknown" in reply and "today" not in reply
    assert "age unknown" in json.dumps(memory_detail(undated, now))
    assert "today" in json.dumps(recall_reply(RecallMatch(memory=saved, score=1, score_components={}, reasons=[]), now))


@pytest.mark.parametrize(
    ("written", "day"),
    [
        ("On September 29, 2025, flags went down", "2025-09-29"),
        ("29th of May 2021", "2021-05-29"),
        ("May-9-2021", "2021-05-09"),
        ("Website Outage 10-31-2021", "2021-10-31"),
        ("see https://example.com/2020-01-01/post, it began 2024-03-18 14:05 UTC", "2024-03-18"),
        ("Feb 30, 2021 then March 1, 2021", "2021-03-01"),
    ],
)
def test_dates_as_people_write_them(written: str, day: str) -> None:
    from bot.importer.dates import find_date

    assert find_date(written).date().isoformat() == day


def test_a_long_imported_field_is_cut_in_slack_with_a_pointer_and_kept_whole_in_memory() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    cause = "The replica fell behind because a long query held back WAL replay. " * 700  # ~47,000 characters
    memory = MemoryRecord(
        incident_id="pm-long", team_id="T", title="Replica lag", root_cause=cause, source=Source.SEED,
        created_at=now, updated_at=now,
    )  # fmt: skip
    assert memory.root_cause == cause.strip()
    reply = json.dumps(recall_reply(RecallMatch(memory=memory, score=1, score_components={}, reasons=[]), now))
    detail = json.dumps(memory_detail(memory, now))  # /incident show itself: as much as one message holds
    assert len(reply) < 20_000 and len(detail) < 20_000  # within Slack's limits (the renderer checks them)
    assert "/incident show pm-long" in reply and "truncated" in detail


async def test_an_update_interrupted_between_its_two_steps_completes_on_the_next_run(
    cli, store, tmp_path: Path
) -> None:  # noqa: F811
    path = tmp_path / "builds-pending.md"
    shutil.copy(FIXTURES / "timeline-only.md", path)
    assert (await cli("import", str(path)))[0] == 0
    path.write_text(path.read_text().replace("Builds stayed pending", "Builds stayed queued"))
    [edited] = parse_file(FoundFile(path, PurePath(path.name)), team_id="local").drafts
    await store.retain(edited.model_copy(update={"incident_id": "pm-builds-pending~r2"}))  # the run stopped here

    code, out, _ = await cli("import", "--update", str(path))
    assert code == 0 and "pm-builds-pending~r2 (supersedes pm-builds-pending)" in out
    assert (await store.get("local", "pm-builds-pending")).superseded_by == "pm-builds-pending~r2"
    assert (await store.list("local")).total == 2


def test_a_key_value_line_a_command_printed_is_not_the_postmortems_metadata() -> None:
    text = """# Prow flakiness

## Chat log

The pod said:

```
State:          Terminated
  Started:      Mon, 01 Jan 0001 00:00:00 +0000
  Service:      kubelet-internal
```

## Root cause

Disks too small for the I/O the nodes needed on 2019-05-30.
"""
    draft = parse_markdown(text, team_id="T", incident_id="x", name="prow.md")
    assert draft.occurred_at.date().isoformat() == "2019-05-30"  # not the year 1 the command printed
    assert draft.service is None
