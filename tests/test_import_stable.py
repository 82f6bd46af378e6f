"""Imports never duplicate nor half-write: an id-less row is named by its content (title, date,
service), so reordering a CSV, renaming it or importing the folder from elsewhere creates nothing;
rows stored under the old positional ids are matched; a file is written whole or not at all; and
`--dry-run` reports the conflicts the real import meets."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from bot.memory.postgres import PostgresMemoryStore
from bot.models import MemoryDraft, Source
from tests.test_import import cli, statuses  # noqa: F401 - the fixture, shared

HEADER = "title,service,occurred_at,root_cause\n"
ROWS = [
    "Disk full on the log volume,logging,2025-01-07,debug logging left on\n",
    "Checkout pool exhausted,checkout,2025-02-11,connection leak in the retry path\n",
    "Search heap exhausted,search,2025-03-02,leading wildcard queries\n",
]


def write(path: Path, rows: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + "".join(rows))
    return path


async def count(store: PostgresMemoryStore) -> int:
    return (await store.list("local", limit=100)).total


async def test_reordering_renaming_or_moving_a_csv_creates_nothing(
    cli, store: PostgresMemoryStore, tmp_path: Path
) -> None:
    first = write(tmp_path / "archive" / "log.csv", ROWS)
    code, out, _ = await cli("import", str(tmp_path / "archive"))
    assert code == 0 and "3 new memories" in out
    ids = {m.incident_id for m in (await store.list("local")).memories}
    assert all(i.startswith("pm-") and not i.startswith("pm-log-") for i in ids)

    write(first, [ROWS[2], ROWS[0], ROWS[1]])  # reordered
    renamed = first.rename(tmp_path / "archive" / "incidents-2025.csv")
    elsewhere = tmp_path / "copied" / "deeper"
    shutil.copytree(tmp_path / "archive", elsewhere)
    for argv in (str(renamed), str(tmp_path / "archive"), str(elsewhere), str(tmp_path / "copied")):
        code, out, _ = await cli("import", argv)
        assert code == 0 and set(statuses(out).values()) == {"unchanged"}, out
    assert await count(store) == 3
    assert {m.incident_id for m in (await store.list("local")).memories} == ids


async def test_two_rows_with_one_title_date_and_service_are_refused_naming_both_lines(
    cli, store: PostgresMemoryStore, tmp_path: Path
) -> None:
    clash = ROWS[1].replace("connection leak in the retry path", "a slow query")
    path = write(tmp_path / "log.csv", [ROWS[0], ROWS[1], clash])
    code, out, _ = await cli("import", str(path))
    assert code == 1 and statuses(out) == {"log.csv": "rejected"}
    assert "line 4:" in out and "also line 3's" in out and "give one of them an incident_id" in out
    assert await count(store) == 0


async def test_rows_stored_under_their_old_positional_ids_are_matched_not_duplicated(
    cli, store: PostgresMemoryStore, tmp_path: Path
) -> None:
    """What an earlier version stored: `pm-<file>-<row>`. The same rows, even reordered, are
    those memories; only a new row is new."""
    path = write(tmp_path / "log.csv", ROWS[:2])
    for row, line in enumerate(ROWS[:2], start=1):
        title, service, occurred_at, root_cause = line.strip().split(",")
        await store.retain(MemoryDraft(
            team_id="local", incident_id=f"pm-log-{row}", title=title, service=service,
            occurred_at=f"{occurred_at}T00:00:00Z", root_cause=root_cause, source=Source.SEED,
        ))  # fmt: skip
    write(path, [ROWS[2], ROWS[1], ROWS[0]])
    code, out, _ = await cli("import", str(path), "--json")
    assert code == 0
    [outcome] = json.loads(out)["files"]
    assert outcome["status"] == "imported" and outcome["created"] == 1
    assert {"pm-log-1", "pm-log-2"} <= set(outcome["incident_ids"])
    assert await count(store) == 3


async def test_dry_run_reports_the_conflict_the_import_meets_and_the_import_writes_none_of_the_file(
    cli, store: PostgresMemoryStore, tmp_path: Path
) -> None:
    path = write(tmp_path / "log.csv", ROWS[:2])
    assert (await cli("import", str(path)))[0] == 0
    changed = "INC-1,New outage,api,2025-04-01,bad deploy\n"
    path.write_text("incident_id," + HEADER + changed + "," + ROWS[0].replace("debug logging", "a core dump"))

    checked = await cli("import", "--dry-run", str(path))
    real = await cli("import", str(path))
    assert checked[0] == real[0] == 1
    conflict = [line for line in real[1].splitlines() if line.startswith("conflict")]
    assert conflict and "differs from the stored memory in root_cause" in conflict[0]
    assert [line for line in checked[1].splitlines() if line.startswith("conflict")] == [
        conflict[0].replace("; nothing of this file was written", "")
    ]
    assert "nothing of this file was written" in real[1] and "whole or not at all" in real[1]
    assert "0 imported (0 new memories)" in real[1]
    assert await count(store) == 2  # INC-1, new, was not written beside the conflict


def test_dry_run_without_a_database_says_conflicts_were_not_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/none")
    assert main(["import", "--dry-run", str(write(tmp_path / "log.csv", ROWS))]) == 0
    out = capsys.readouterr().out
    assert "conflicts not checked" in out and "1 checked" in out


async def test_two_unrelated_records_piped_to_retain_do_not_collide(
    cli, store: PostgresMemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = [{"title": "Disk full", "root_cause": "logs"}, {"title": "Pool exhausted", "root_cause": "a leak"}]
    for record in records:
        monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record) + "\n"))
        code, out, _ = await cli("retain", "-")
        assert code == 0 and out.startswith("created"), out
    assert await count(store) == 2


async def test_a_record_retained_before_under_its_positional_id_is_matched_not_duplicated(
    cli, store: PostgresMemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = {"title": "Disk full", "root_cause": "logs"}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record | {"incident_id": "pm-stdin-1"}) + "\n"))
    assert (await cli("retain", "-"))[0] == 0  # what an earlier version stored for an id-less record
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record) + "\n"))
    code, out, _ = await cli("retain", "-")
    assert code == 0 and out.split() == ["unchanged", "pm-stdin-1"]
    assert await count(store) == 1
