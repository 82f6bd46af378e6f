"""Incidents kept in trackers and workspaces (issue 30): Jira / JSM (CSV export, REST search
JSON), PagerDuty (REST incidents with notes, analytics CSV), a Notion export, and any other CSV
through a column map. Fixtures under tests/fixtures/trackers/ follow the vendors' documented
shapes; each incident becomes a postmortem document the Markdown reader reads, so comments and
notes are timeline entries from which the attempts that failed and the fix are read.
"""

from __future__ import annotations

import shutil
from pathlib import Path, PurePath

from bot.importer.formats import FoundFile, parse_file
from bot.memory.postgres import PostgresMemoryStore
from tests.test_import import cli, statuses  # noqa: F401 - the `cli` fixture, shared

FIXTURES = Path(__file__).parent / "fixtures" / "trackers"


def read(name: str, column_map: dict[str, str] | None = None):  # noqa: ANN201 - ParsedFile
    return parse_file(FoundFile(FIXTURES / name, PurePath(name)), team_id="T", column_map=column_map)


def test_a_jira_csv_export_with_repeated_columns_gives_one_memory_per_issue() -> None:
    parsed = read("jira-export.csv")
    assert parsed.error is None and parsed.format == "Jira CSV export"
    ops42, ops51 = parsed.drafts
    assert (ops42.incident_id, ops42.title) == ("OPS-42", "Checkout returns HTTP 500 for card payments")
    assert ops42.service == "checkout, payments-api" and ops42.severity == "Highest"  # both Component/s
    assert ops42.occurred_at.isoformat().startswith("2024-03-02T10:02")
    assert ops42.resolved_at.isoformat().startswith("2024-03-02T11:05")
    assert ops42.root_cause == "The card processor's TLS certificate bundle on our side had expired."
    assert "Card payments failed at checkout" in ops42.symptoms and "30% of orders failed" in ops42.symptoms
    # three Comment columns → three timeline entries: two that failed, one that fixed it
    attempts = [a.action for a in ops42.failed_attempts]
    assert any(a.startswith("Restarted the payments pods") for a in attempts), attempts
    assert any(a.startswith("Rolled back the 1.42 deploy") for a in attempts), attempts
    assert "Installed the renewed processor certificate bundle" in ops42.resolution
    assert "(alice)" in ops42.resolution  # the comment's author
    assert ops51.incident_id == "OPS-51" and "Disabled leading wildcards" in ops51.resolution
    assert [a.action.split(",")[0] for a in ops51.failed_attempts] == ["Added two data nodes"]


def test_jira_rest_json_reads_adf_descriptions_comments_and_a_mapped_service_field() -> None:
    parsed = read("jira-search.json", {"customfield_10050": "service"})
    assert parsed.format == "Jira REST search JSON"
    [draft] = parsed.drafts
    assert draft.incident_id == "INC-7" and draft.severity == "High"
    assert draft.service == "auth, sessions-redis"  # Component/s and the named field
    assert draft.root_cause.startswith("The session Redis hit maxmemory")  # an ADF heading is a section
    assert draft.provenance.fields["root_cause"] == "section 'Root cause'"
    assert [a.action.split(",")[0] for a in draft.failed_attempts] == ["Failed over to the Redis replica"]
    assert "Set a 24h TTL on session keys" in draft.resolution and "(Dan Wu)" in draft.resolution


def test_pagerduty_incidents_with_notes_read_the_attempt_and_the_fix() -> None:
    parsed = read("pagerduty-incidents.json")
    assert parsed.format == "PagerDuty incidents JSON"
    [draft] = parsed.drafts
    assert draft.incident_id == "PD-1234" and draft.service == "orders-worker" and draft.severity == "P1"
    assert draft.resolved_at.isoformat().startswith("2024-04-09T14:30")
    assert [a.action.split(",")[0] for a in draft.failed_attempts] == ["Scaled the consumers from 4 to 12"]
    assert "Moved it to the dead-letter queue" in draft.resolution and "(Ravi Patel)" in draft.resolution


def test_the_pagerduty_analytics_csv_gives_the_incidents_without_notes() -> None:
    parsed = read("pagerduty-analytics.csv")
    assert parsed.format == "PagerDuty analytics CSV"
    assert [(d.incident_id, d.service) for d in parsed.drafts] == [
        ("PD-1234", "orders-worker"),
        ("PD-1240", "metrics-db"),
    ]
    assert all(not d.failed_attempts and not d.resolution for d in parsed.drafts)


def test_a_notion_page_is_a_memory_with_its_page_id_and_the_database_table_is_skipped() -> None:
    page = read("notion/Postmortems/Checkout outage 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d.md")
    assert page.format == "Notion page"
    [draft] = page.drafts
    assert draft.incident_id == "notion-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d" and draft.title == "Checkout outage"
    assert draft.service == "checkout" and draft.occurred_at.date().isoformat() == "2024-03-02"
    assert "capped at 20" in draft.root_cause
    assert [a.action.split(",")[0] for a in draft.failed_attempts] == ["Restarted the checkout pods"]
    table = read("notion/Postmortems 8f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e.csv")
    assert table.skipped and "the Notion database 'Postmortems'" in table.error


def test_any_csv_reads_through_a_column_map_and_an_unmapped_column_still_refuses_it() -> None:
    refused = read("incidents-sheet.csv")
    assert refused.error and "unknown column 'Key'" in refused.error and "--map" in refused.error
    half = read("incidents-sheet.csv", {"key": "incident_id", "summary": "title"})
    assert half.error and "'When'" in half.error and "'Owner'" in half.error  # mapped ones are not named
    full = {"key": "incident_id", "summary": "title", "when": "occurred_at", "area": "service",
            "what broke": "root_cause", "how we fixed it": "resolution", "owner": "-"}  # fmt: skip
    parsed = read("incidents-sheet.csv", full)
    assert parsed.error is None and parsed.format == "CSV with a column map"
    assert [(d.incident_id, d.service) for d in parsed.drafts] == [("SHEET-1", "backups"), ("SHEET-2", "gateway")]
    assert parsed.drafts[1].resolution == "Pointed the health check at the new path"


async def test_import_names_each_export_and_its_fields_and_takes_a_yaml_map(
    cli,
    store: PostgresMemoryStore,
    tmp_path: Path,  # noqa: F811
) -> None:
    for name in ("jira-export.csv", "pagerduty-incidents.json", "incidents-sheet.csv", "incidents-sheet-map.yml"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    (tmp_path / "incidents-sheet-map.yml").rename(tmp_path.parent / f"{tmp_path.name}-map.yml")
    mapping = tmp_path.parent / f"{tmp_path.name}-map.yml"
    code, out, err = await cli("import", "--dry-run", "--map", str(mapping), str(tmp_path))
    assert code == 0, err + out
    assert "read as: Jira CSV export" in out and "read as: PagerDuty incidents JSON" in out
    assert "read as: CSV with a column map" in out
    assert "jira-export.csv  OPS-42, OPS-51\n           found: title, occurred_at, resolved_at, service" in out
    assert (await store.list("local")).total == 0

    code, out, err = await cli("import", "--map", str(mapping), str(tmp_path))
    assert code == 0, err + out
    assert statuses(out) == {"jira-export.csv": "imported", "pagerduty-incidents.json": "imported",
                             "incidents-sheet.csv": "imported"}  # fmt: skip
    memory = await store.get("local", "OPS-42")
    assert memory is not None and memory.provenance.file == "jira-export.csv#OPS-42"
    code, out, err = await cli("import", "--map", "Summary", str(tmp_path))
    assert code != 0 and "'Summary' is not COLUMN=field" in (out + err)


async def test_a_large_exports_progress_moves_per_row(store: PostgresMemoryStore) -> None:
    from bot.importer import find_postmortems, import_postmortems

    rows: list[tuple[int, int]] = []
    found = find_postmortems([str(FIXTURES / "jira-export.csv"), str(FIXTURES / "pagerduty-incidents.json")])
    report = await import_postmortems(store, found, team_id="local", on_row=lambda n, total: rows.append((n, total)))
    assert not report.failed
    assert rows == [(1, 2), (2, 2), (1, 1)]  # the Jira export's two issues, then PagerDuty's one incident
    rows.clear()
    await import_postmortems(
        None, found, team_id="local", dry_run=True, on_row=lambda n, total: rows.append((n, total))
    )
    assert rows == [(1, 2), (2, 2), (1, 1)]
