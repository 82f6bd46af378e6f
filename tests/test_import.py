"""`incident-memory import`: postmortems a team already wrote become seed memories, once.

Runs the command in-process against a real PostgreSQL, as a person would run it, then looks at
what the store holds.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path, PurePath

import pytest

from bot.cli import main
from bot.config import PROJECT_ROOT
from bot.importer.csv_ import parse_csv
from bot.importer.drafts import NotAnIncident, Rejected
from bot.importer.identity import derived_incident_id
from bot.importer.jsonl import parse_memory_records
from bot.importer.markdown import parse_markdown
from bot.memory.postgres import PostgresMemoryStore
from bot.models import RecallQuery, Source, TruthState
from bot.services.recall import RecallService


async def recall(store, query: RecallQuery):  # noqa: ANN001, ANN201 - list[RecallMatch]
    """Recall as the bot runs it: the store's candidates ranked by the pure pipeline."""
    return await RecallService(store).recall(query)


EXAMPLES = PROJECT_ROOT / "examples"
EXAMPLE_FILES = sorted(p.name for p in EXAMPLES.iterdir() if p.suffix in (".md", ".csv", ".jsonl"))
EXAMPLE_IDS = [
    "INC-2024-0318",
    "INC-2024-0611",
    "INC-2024-0822",
    "INC-2025-0107",
    "INC-2025-0415",
    "INC-2024-0902",
    "INC-2024-1119",
    "pm-b6f2b0aef8ce",
    "INC-2025-0228",
    "pm-3ff77f313799",
]  # fmt: skip  (the pm- ids: the hash of an id-less row's title, date and service)

POSTMORTEM = """\
# Search API timeouts: Elasticsearch heap exhausted by a wildcard query

- Service: search
- Severity: SEV2
- Date: 2025-03-02

## Summary

Search requests timed out for 25 minutes; the Elasticsearch data nodes spent most of their time
in garbage collection.

## Root cause

A new autocomplete feature sent leading-wildcard queries that loaded huge term sets onto the heap.

## Resolution

Disabled leading wildcards and switched autocomplete to an edge n-gram field.

## What didn't work

- Restarted the data nodes -- heap filled again as soon as autocomplete traffic came back
- Doubled the heap — longer GC pauses, same timeouts

## Lessons learned

Reject leading-wildcard queries at the API.
"""


@pytest.fixture
def cli(database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("DATABASE_URL", database_url)

    async def run(*argv: str) -> tuple[int, str, str]:
        # in a thread: the command runs its own event loop, as it does from a shell
        code = await asyncio.to_thread(main, list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def statuses(out: str) -> dict[str, str]:
    """File name → status, from the per-file lines of the report."""
    found = {}
    for line in out.splitlines():
        status, _, rest = line.partition(" ")
        if (
            status in ("imported", "updated", "unchanged", "checked", "skipped", "conflict", "rejected")
            and rest.strip()
        ):
            found[Path(rest.strip().split(":")[0].split("  ")[0]).name] = status
    return found


# ---- the examples, end to end -------------------------------------------------------------------


async def test_importing_the_examples_stores_them_all_as_seeds(cli, store: PostgresMemoryStore) -> None:
    code, out, err = await cli("import", str(EXAMPLES))
    assert code == 0, out + err
    assert statuses(out) == dict.fromkeys(EXAMPLE_FILES, "imported")
    assert f"files: {len(EXAMPLE_FILES)} imported ({len(EXAMPLE_IDS)} new memories), 0 unchanged" in out
    page = await store.list("local", limit=50)
    assert sorted(m.incident_id for m in page.memories) == sorted(EXAMPLE_IDS)
    assert {m.source for m in page.memories} == {Source.SEED}


@pytest.mark.parametrize(
    ("paraphrase", "incident_id"),
    [
        ("users signed out of the site, redis evicting session keys at maxmemory", "INC-2024-0318"),
        ("pods cannot resolve hostnames, coredns lookups time out", "INC-2024-0611"),
        ("orders consumer group keeps rebalancing and kafka lag grows", "INC-2024-0822"),
        ("No space left on device: the log partition is at 100%", "INC-2025-0107"),
        ("customers were charged without VAT after a feature flag went to everyone", "INC-2025-0415"),
        ("x509 certificate has expired on internal service calls through the gateway", "INC-2024-0902"),
        ("stale balances read from a lagging postgres replica", "INC-2025-0228"),
    ],
)
async def test_recall_finds_an_imported_postmortem_from_a_paraphrase(
    cli, store: PostgresMemoryStore, paraphrase: str, incident_id: str
) -> None:
    assert (await cli("import", str(EXAMPLES)))[0] == 0
    matches = await recall(store, RecallQuery(team_id="local", title=paraphrase))
    assert matches and matches[0].memory.incident_id == incident_id


async def test_the_recall_command_finds_an_imported_postmortem_first(cli) -> None:
    assert (await cli("import", str(EXAMPLES)))[0] == 0
    code, out, _ = await cli("recall", "people", "logged", "out,", "redis", "evicting", "keys", "--json")
    assert code == 0
    top = json.loads(out)[0]
    assert top["memory"]["incident_id"] == "INC-2024-0318"
    assert top["memory"]["truth_state"] == "human_confirmed" and top["memory"]["verified_by"] == "Priya Raman"


async def test_a_second_import_reports_every_file_unchanged(cli) -> None:
    assert (await cli("import", str(EXAMPLES)))[0] == 0
    code, out, _ = await cli("import", str(EXAMPLES))
    assert code == 0
    assert statuses(out) == dict.fromkeys(EXAMPLE_FILES, "unchanged")
    assert "files: 0 imported (0 new memories), 7 unchanged, 0 in conflict, 0 rejected" in out


async def test_a_file_named_directly_gets_the_same_ids_as_through_its_folder(cli) -> None:
    assert (await cli("import", str(EXAMPLES)))[0] == 0
    code, out, _ = await cli("import", str(EXAMPLES / "incident-log.csv"), str(EXAMPLES / "memory-export.jsonl"))
    assert code == 0 and set(statuses(out).values()) == {"unchanged"}


async def test_the_json_report_is_on_stdout_and_the_progress_bar_is_not(cli) -> None:
    code, out, _ = await cli("import", str(EXAMPLES), "--json")
    report = json.loads(out)
    assert code == 0 and {f["status"] for f in report["files"]} == {"imported"}
    assert sorted(i for f in report["files"] for i in f["incident_ids"]) == sorted(EXAMPLE_IDS)


# ---- never overwritten ------------------------------------------------------------------------------


async def test_a_changed_file_is_a_conflict_naming_fields_and_the_memory_is_unchanged(
    cli, store: PostgresMemoryStore, tmp_path: Path
) -> None:
    path = tmp_path / "search-heap.md"
    path.write_text(POSTMORTEM)
    assert (await cli("import", str(tmp_path)))[0] == 0
    before = await store.get("local", "pm-search-heap")

    path.write_text(POSTMORTEM.replace("Disabled leading wildcards", "Blocked wildcard queries"))
    code, out, err = await cli("import", str(tmp_path))
    assert code == 1
    assert statuses(out) == {"search-heap.md": "conflict"}
    assert "pm-search-heap differs from the stored memory in resolution" in out
    assert "1 in conflict" in out and "error:" in err
    after = await store.get("local", "pm-search-heap")
    assert after.resolution == before.resolution and after.resolution.startswith("Disabled leading wildcards")


async def test_one_incident_id_in_two_files_rejects_the_second(cli, store: PostgresMemoryStore, tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(POSTMORTEM.replace("- Service: search", "- Incident ID: INC-9\n- Service: search"))
    (tmp_path / "b.md").write_text(
        POSTMORTEM.replace("- Service: search", "- Incident ID: INC-9\n- Service: search").replace(
            "25 minutes", "an hour"
        )
    )
    code, out, _ = await cli("import", str(tmp_path))
    assert code == 1
    assert statuses(out) == {"a.md": "imported", "b.md": "rejected"}
    assert "incident id 'INC-9' also comes from" in out and "a.md" in out
    assert "25 minutes" in (await store.get("local", "INC-9")).symptoms


# ---- malformed files ----------------------------------------------------------------------------------


async def test_malformed_files_are_reported_by_name_with_the_reason_and_the_rest_imported(
    cli, store: PostgresMemoryStore, tmp_path: Path
) -> None:
    (tmp_path / "good.md").write_text(POSTMORTEM)
    (tmp_path / "broken.json").write_text('{"title": "half an object", ')
    (tmp_path / "no-title.md").write_text("Some notes.\n\n## Root cause\n\nThe disk filled up.\n")
    (tmp_path / "unknown-column.csv").write_text("title,root_cause,blast_radius\nDisk full,logs,one host\n")
    (tmp_path / "huge-field.md").write_text(POSTMORTEM.replace("Reject leading-wildcard", "x" * 1_000_000))
    (tmp_path / "huge-cell.csv").write_text('title,root_cause\nDisk full,"' + "y" * 1_000_000 + '"\n')
    (tmp_path / "huge-record.jsonl").write_text(json.dumps({"title": "Disk full", "lesson": "z" * 1_000_000}) + "\n")
    (tmp_path / "notes.txt").write_text("not a postmortem")
    (tmp_path / "diagram.png").write_bytes(b"\x89PNG")

    code, out, err = await cli("import", str(tmp_path))
    assert code == 1 and "error:" in err
    assert statuses(out) == {
        "good.md": "imported",
        "broken.json": "rejected",
        "no-title.md": "imported",
        "notes.txt": "skipped",
        "unknown-column.csv": "rejected",
        "huge-field.md": "rejected",
        "huge-cell.csv": "rejected",
        "huge-record.jsonl": "rejected",
    }
    rejected = [line for line in out.splitlines() if line.startswith("rejected ")]
    reasons = {Path(line.split()[1].rstrip(":")).name: line for line in rejected}
    assert "broken JSON" in reasons["broken.json"]
    assert "unknown column 'blast_radius'" in reasons["unknown-column.csv"]
    assert (
        "section 'Lessons learned': too long (1,000,0" in reasons["huge-field.md"]
        and "at most 100,000" in reasons["huge-field.md"]
    )
    assert "line 2" in reasons["huge-cell.csv"] and "field larger than field limit" in reasons["huge-cell.csv"]
    assert "line 1: lesson: too long (1,000,000 characters; at most 100,000)" in reasons["huge-record.jsonl"]
    assert "nothing but a title" in out  # notes.txt: not an incident report, not an error
    assert "1 skipped" in out and "1 not incident reports" in out  # diagram.png: not a postmortem format
    page = await store.list("local")
    assert sorted(m.incident_id for m in page.memories) == ["pm-good", "pm-no-title"]
    untitled = await store.get("local", "pm-no-title")
    assert (untitled.title, untitled.root_cause) == ("No title", "The disk filled up.")  # from the file name


async def test_a_path_that_does_not_exist_is_rejected_by_name(cli, tmp_path: Path) -> None:
    code, out, _ = await cli("import", str(tmp_path / "missing.md"), str(EXAMPLES / "2024-03-redis-eviction-storm.md"))
    assert code == 1
    assert statuses(out) == {"missing.md": "rejected", "2024-03-redis-eviction-storm.md": "imported"}
    assert "no such file or folder" in out


# ---- truth and provenance -----------------------------------------------------------------------------


async def test_confirmed_by_makes_a_human_confirmed_memory_and_its_absence_a_hypothesis(
    cli, store: PostgresMemoryStore, tmp_path: Path
) -> None:
    (tmp_path / "confirmed.md").write_text(POSTMORTEM.replace("- Severity: SEV2", "- **Confirmed by:** Maya Chen"))
    (tmp_path / "unconfirmed.md").write_text(POSTMORTEM)
    assert (await cli("import", str(tmp_path)))[0] == 0
    confirmed = await store.get("local", "pm-confirmed")
    assert (confirmed.truth_state, confirmed.verified_by, confirmed.source) == (
        TruthState.HUMAN_CONFIRMED, "Maya Chen", Source.SEED
    )  # fmt: skip
    assert confirmed.transitions[-1].actor == "Maya Chen"
    unconfirmed = await store.get("local", "pm-unconfirmed")
    assert (unconfirmed.truth_state, unconfirmed.verified_by) == (TruthState.UNCONFIRMED_HYPOTHESIS, None)


def test_a_record_may_not_claim_confirmation_without_saying_who_nor_another_source() -> None:
    def ids(line: int, _draft: object) -> str:
        return f"row-{line}"

    with pytest.raises(Rejected, match="needs verified_by"):
        parse_memory_records('{"title": "x", "truth_state": "human_confirmed"}', team_id="T", incident_id_for=ids)
    with pytest.raises(Rejected, match="source: 'engineer_saved' cannot be imported"):
        parse_memory_records('{"title": "x", "source": "engineer_saved"}', team_id="T", incident_id_for=ids)
    with pytest.raises(Rejected, match="team_id: 'T2' is not the team"):
        parse_memory_records('{"title": "x", "team_id": "T2"}', team_id="T", incident_id_for=ids)
    [draft] = parse_memory_records('{"title": "x", "verified_by": "sam"}', team_id="T", incident_id_for=ids)
    assert (draft.incident_id, draft.truth_state, draft.source) == ("row-1", TruthState.HUMAN_CONFIRMED, Source.SEED)


# ---- the parsers, on their own ---------------------------------------------------------------------------


def test_markdown_reads_front_matter_sections_and_failed_attempts() -> None:
    text = "---\nincident_id: INC-77\nseverity: SEV1\ntags:\n  - search\n  - jvm\nauthor: sam\n---\n" + POSTMORTEM
    draft = parse_markdown(text, team_id="T", incident_id="pm-fallback")
    assert draft.incident_id == "INC-77" and draft.severity == "SEV1" and draft.service == "search"
    assert draft.tags == ["search", "jvm"]
    assert draft.title == "Search API timeouts: Elasticsearch heap exhausted by a wildcard query"
    assert draft.occurred_at is not None and draft.occurred_at.isoformat() == "2025-03-02T00:00:00+00:00"
    # hard-wrapped lines are one paragraph, as Markdown reads them
    assert draft.symptoms == (
        "Search requests timed out for 25 minutes; the Elasticsearch data nodes spent most of their time in"
        " garbage collection."
    )
    assert [(a.action, a.why_it_failed) for a in draft.failed_attempts] == [
        ("Restarted the data nodes", "heap filled again as soon as autocomplete traffic came back"),
        ("Doubled the heap", "longer GC pauses, same timeouts"),
    ]


def test_markdown_joins_impact_and_action_items_and_ignores_other_sections() -> None:
    text = POSTMORTEM + (
        "\n## Impact\n\n2% of searches failed.\n\n## Timeline\n\n- 10:00 paged\n"
        "\n## Action items\n\n- Add a query linter\n"
    )
    draft = parse_markdown(text, team_id="T", incident_id="pm-x")
    assert draft.symptoms.endswith("Impact: 2% of searches failed.")
    assert draft.lesson == "Reject leading-wildcard queries at the API.\n\nAction items:\n- Add a query linter"
    assert "paged" not in draft.model_dump_json()


@pytest.mark.parametrize("blank", ["TBD", "_TBD_", "<name>", "[Name of the confirmer]", "n/a"])
def test_a_templates_blank_confirms_nothing(blank: str) -> None:
    text = POSTMORTEM.replace("- Severity: SEV2", f"- Confirmed by: {blank}")
    draft = parse_markdown(text, team_id="T", incident_id="x")
    assert (draft.truth_state, draft.verified_by) == (TruthState.UNCONFIRMED_HYPOTHESIS, None)


def test_notes_that_report_no_incident_are_skipped_and_an_unreadable_date_is_not_taken() -> None:
    with pytest.raises(NotAnIncident, match="nothing but a title"):
        parse_markdown("# Team offsite notes\n\n## Agenda\n", team_id="T", incident_id="pm-x")
    draft = parse_markdown(POSTMORTEM.replace("2025-03-02", "last tuesday"), team_id="T", incident_id="pm-x")
    assert draft.occurred_at is None and draft.root_cause is not None


def test_a_scheduled_maintenance_notice_is_skipped_with_its_reason_and_maintenance_gone_wrong_is_not() -> None:
    notice = (
        "# Reboot of the hosting servers - Scheduled Maintenance\n\n"
        "Our hosting servers will be rebooted on Thursday between 08:30 and 10:30 to install critical updates. "
        "These updates patch a flaw that could crash the entire operating system.\n\n"
        "A three-hour window is allocated. However, the actual downtime is typically less than 30 minutes.\n\n"
        "***Complete*** This work is complete and all systems have returned to normal.\n"
    )
    with pytest.raises(NotAnIncident, match="notice of planned work"):
        parse_markdown(notice, team_id="T", incident_id="pm-x")
    gone_wrong = notice.replace(
        "This work is complete", "After the reboot the database failed to start and sites were down for an hour"
    )
    assert parse_markdown(gone_wrong, team_id="T", incident_id="pm-x").title.startswith("Reboot")
    # a real report that only plans a fix for the next maintenance window is an incident
    report = (
        "# Slow sites on the hosting servers\n\nAt 19:24 we were notified that sites were running slowly.\n\n"
        "A partner's scanner was causing very high load. We blocked it and sites were back to normal. "
        "We will be changing this setup during our next maintenance window.\n"
    )
    assert parse_markdown(report, team_id="T", incident_id="pm-y").title == "Slow sites on the hosting servers"


def test_a_status_pages_notice_of_work_we_will_be_conducting_is_skipped_with_its_reason() -> None:
    # a status entry's front matter ("severity", "affected") makes it a record; its one paragraph, then the `---`
    # status pages put after an update, announces work ahead and reports no failure
    notice = (
        "---\ntitle: Emergency maintenance in LON2\nseverity: notice\nresolved: true\naffected:\n  - Network/LON2\n---\n"
        "We'll be conducting emergency network maintenance in the region on Monday at 22:00 BST to improve network "
        "resiliency. No impact to customers is expected.\n---\n"
    )
    with pytest.raises(NotAnIncident, match="notice of planned work"):
        parse_markdown(notice, team_id="T", incident_id="pm-x")


def test_csv_failed_attempts_as_text_or_json_and_ids_per_row() -> None:
    text = (
        "Title,Root cause,failed_attempts,confirmed_by\n"
        '"Disk full","debug logs","rm the log — file still open; ran logrotate -- no space to compress",\n'
        '"Pool exhausted","leak",'
        '"[{""action"": ""restart"", ""why_it_failed"": ""came back""}, ""add capacity""]",maya\n'
    )
    first, second = parse_csv(text, team_id="T", incident_id_for=lambda row, _: f"pm-log-{row}")
    assert (first.incident_id, first.root_cause) == ("pm-log-1", "debug logs")
    assert first.truth_state is TruthState.UNCONFIRMED_HYPOTHESIS
    assert [(a.action, a.why_it_failed) for a in first.failed_attempts] == [
        ("rm the log", "file still open"),
        ("ran logrotate", "no space to compress"),
    ]
    assert [(a.action, a.why_it_failed) for a in second.failed_attempts] == [
        ("restart", "came back"),
        ("add capacity", ""),
    ]
    assert (second.truth_state, second.verified_by) == (TruthState.HUMAN_CONFIRMED, "maya")


def test_csv_names_the_line_of_every_bad_row() -> None:
    text = "title,occurred_at\nok,2025-01-01\n,2025-01-02\nbad date,someday\n"
    with pytest.raises(Rejected) as caught:
        parse_csv(text, team_id="T", incident_id_for=lambda row, _: str(row))
    assert "line 3: title:" in str(caught.value) and "line 4: occurred_at:" in str(caught.value)


def test_examples_folder_holds_only_postmortems() -> None:
    """Anything else in examples/ would be imported (or rejected) by `import examples/`."""
    assert sorted(p.name for p in EXAMPLES.iterdir()) == EXAMPLE_FILES


def test_derived_ids_read_well_are_stable_and_fit() -> None:
    assert derived_incident_id(PurePath("2024/Redis Eviction (sessions).md")) == "pm-2024-redis-eviction-sessions"
    assert derived_incident_id(PurePath("log.csv"), 3) == "pm-log-3"
    long_a, long_b = PurePath("a" * 300 + "1.md"), PurePath("a" * 300 + "2.md")
    assert len(derived_incident_id(long_a, 12)) <= 200
    assert derived_incident_id(long_a, 12) != derived_incident_id(long_b, 12)
    assert derived_incident_id(long_a, 12) == derived_incident_id(long_a, 12)


def test_windows_line_endings_read_the_same() -> None:
    unix = parse_markdown(POSTMORTEM, team_id="T", incident_id="x")
    assert parse_markdown(POSTMORTEM.replace("\n", "\r\n"), team_id="T", incident_id="x") == unix


def test_a_postmortem_s_front_matter_names_the_alerts_that_fired() -> None:
    text = """---
title: Payments API errors after the deploy
alerts:
  - name: HighErrorRate
    labels: {service: payments, severity: page}
  - "PaymentsLatencyHigh{service=payments,quantile=\\"0.99\\"}"
  - PagerDuty paged the on-call at 10:02
---
# Payments API errors after the deploy

## Root cause
The deploy shipped a config without the provider's new endpoint.

Alerts: these lines are prose, not alerts
"""
    draft = parse_markdown(text, team_id="T1", incident_id="PM-1")
    assert [(a.name, a.labels) for a in draft.alerts] == [
        ("HighErrorRate", {"service": "payments", "severity": "page"}),
        ("PaymentsLatencyHigh", {"service": "payments", "quantile": "0.99"}),
    ]  # the sentence is no alert: left out, not guessed at
    assert draft.provenance is not None and draft.provenance.fields["alerts"] == "front matter 'alerts'"
    one_line = parse_markdown(text.replace(text[text.index("alerts:") : text.index("---\n#")], "alerts: A, B{x=1}\n"),
                              team_id="T1", incident_id="PM-1")  # fmt: skip
    assert [(a.name, a.labels) for a in one_line.alerts] == [("A", {}), ("B", {"x": "1"})]
    plain = parse_markdown(text.replace("alerts:", "others:"), team_id="T1", incident_id="PM-1")
    assert plain.alerts == []


def test_a_postmortem_s_alerts_section_names_the_alerts_that_fired_and_its_prose_names_none() -> None:
    text = """# Payments API errors after the deploy

## Alerts fired
- `HighErrorRate{service=payments}` fired at 14:02, paged the on-call
- KubePodCrashLooping{namespace=prod,service=payments}
- We got an alert email from letsencrypt on certificate expiration
- Resolved.

| Alert | Fired |
|---|---|
| TargetDown | 14:05 |

## Root cause
The deploy shipped a config without the provider's new endpoint.
"""
    draft = parse_markdown(text, team_id="T1", incident_id="PM-1")
    assert [a.shown() for a in draft.alerts] == [
        "HighErrorRate{service=payments}", "KubePodCrashLooping{namespace=prod,service=payments}", "TargetDown",
    ]  # fmt: skip
    assert draft.provenance is not None and draft.provenance.fields["alerts"] == "section 'Alerts fired'"
    assert draft.root_cause == "The deploy shipped a config without the provider's new endpoint."
    prose = parse_markdown(text.replace("## Alerts fired", "## Alert").split("| Alert")[0].replace("`", "")
                           .replace("{", " (").replace("}", ")"), team_id="T1", incident_id="PM-1")  # fmt: skip
    assert prose.alerts == []  # sentences and bare words in an Alert section are not guessed into alerts
    front = parse_markdown("---\nalerts: [DiskFull]\n---\n" + text, team_id="T1", incident_id="PM-1")
    assert [a.name for a in front.alerts] == ["DiskFull"]  # front matter, when it names them, is what counts
    line = parse_markdown("# Disk full on db-1\n\nAlerts: DiskFull{service=db}, NodeDown\n\n## Root cause\nLogs.\n",
                          team_id="T1", incident_id="PM-2")  # fmt: skip
    assert [a.shown() for a in line.alerts] == ["DiskFull{service=db}", "NodeDown"]


def test_json_lines_records_carry_their_alerts() -> None:
    record = {"title": "Disk full on db-1", "alerts": [{"name": "DiskFull", "labels": {"service": "db"}}]}
    (draft,) = parse_memory_records(json.dumps(record), team_id="T1", incident_id_for=lambda _i, _r: "PM-2")
    assert draft.alerts[0].shown() == "DiskFull{service=db}"
