"""The command line as a person uses it: exit codes, messages that name the problem, nothing
written on bad input."""

from __future__ import annotations

import asyncio
import io
import json
from datetime import UTC
from pathlib import Path

import pytest

from bot.cli import main
from bot.memory.pool import create_pool
from bot.memory.port import SupersededHandling

OUTCOME = {
    "incident_id": "INC-7",
    "title": "Orders API timeouts: database connection pool exhausted",
    "service": "orders",
    "symptoms": "p99 latency at 30 s, 503s at peak",
    "root_cause": "connections leaked when the payment provider raised",
    "resolution": "release connections in a finally block",
    "failed_attempts": [{"action": "restart pods", "why_it_failed": "bought 25 minutes"}],
    "truth_state": "human_confirmed",
    "verified_by": "maya",
}


@pytest.fixture
def cli(database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("DATABASE_URL", database_url)

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def write(tmp_path: Path, name: str, records: list[dict] | str) -> str:
    path = tmp_path / name
    path.write_text(records if isinstance(records, str) else "\n".join(json.dumps(r) for r in records))
    return str(path)


def test_retain_then_recall_finds_it_with_reasons_and_components(cli, tmp_path: Path) -> None:
    code, out, _ = cli("retain", write(tmp_path, "m.jsonl", [OUTCOME]))
    assert (code, out.split()) == (0, ["created", "INC-7"])
    code, out, _ = cli("recall", "orders", "pool", "checkout", "timed", "out", "--service", "orders")
    assert code == 0
    assert "INC-7" in out and "why: matched terms:" in out and "pool" in out
    assert "why: same service: orders" in out and "did not work: restart pods — bought 25 minutes" in out
    assert "lexical" in out  # score components are shown
    code, out, _ = cli("recall", "pool", "exhausted", "--json")
    match = json.loads(out)[0]
    assert match["memory"]["incident_id"] == "INC-7" and match["reasons"] and match["score_components"]


def test_recall_shows_the_floor_and_with_all_what_fell_under_it(cli, tmp_path: Path) -> None:
    cli("retain", write(tmp_path, "m.jsonl", [OUTCOME]))
    code, out, _ = cli("recall", "orders", "dashboard", "colours", "look", "washed", "in", "dark", "mode")
    assert code == 0 and out.startswith("nothing in memory looks like this")
    assert "1 more below the judgement; --all shows them" in out and "INC-7" not in out
    code, out, _ = cli("recall", "orders", "dashboard", "colours", "look", "washed", "in", "dark", "mode", "--all")
    assert "below the judgement, not shown to responders" in out and "INC-7" in out
    relevance = float(out.split(" relevance ", 1)[1].split()[0])
    assert relevance < 0.25
    query = ("orders", "dashboard", "colours", "look", "washed", "in", "dark", "mode")
    code, out, _ = cli("recall", *query, "--all", "--json")
    found = json.loads(out)
    assert [m["memory"]["incident_id"] for m in found] == ["INC-7"] and found[0]["relevance"] < 0.25
    # every match says which of the three answers it is in; "below" only with --all
    assert found[0]["tier"] == "below" and 0 <= found[0]["probability"] < 1 and "lead" in found[0]["evidence"]
    code, out, _ = cli("recall", *query, "--json")
    assert json.loads(out) == []


def test_recall_json_gives_a_shown_match_its_tier(cli, tmp_path: Path) -> None:
    cli("retain", write(tmp_path, "m.jsonl", [OUTCOME]))
    code, out, _ = cli("recall", OUTCOME["title"], "--json")
    found = json.loads(out)
    assert code == 0 and [m["memory"]["incident_id"] for m in found] == ["INC-7"]
    assert found[0]["tier"] == "strong"


def test_recall_with_only_the_suspected_cause_shows_the_memory_whose_root_cause_says_it(cli, tmp_path: Path) -> None:
    # its title and symptoms say what was seen; the cause a responder suspects is in its root cause only
    found_it = {"incident_id": "INC-8", "title": "Checkout errors return with database timeouts during peak traffic",
                "service": "checkout", "symptoms": "Checkout requests time out at peak; requests queueing.",
                "root_cause": "The new checkout retry loop held its database connection across calls to the "
                              "payment provider; under peak traffic the pool ran dry.",
                "resolution": "Released the connection before calling the provider.", "truth_state": "human_confirmed"}  # fmt: skip
    cli("retain", str(Path(__file__).resolve().parent.parent / "eval" / "incidents" / "memories.jsonl"))
    cli("retain", write(tmp_path, "m.jsonl", [found_it]))
    for cause, tier in (("partner retry loop held a database connection", "weak"),
                        ("retry loop held the connection across provider calls", "strong")):  # fmt: skip
        code, out, _ = cli("recall", *cause.split(), "--json")
        shown = {m["memory"]["incident_id"]: m for m in json.loads(out)}
        assert code == 0 and shown["INC-8"]["tier"] == tier, (cause, shown)
        # the rule made it so, not the probability, and says so
        assert "its root cause and diagnosis hold" in shown["INC-8"]["rule"]
    code, out, _ = cli("recall", *"partner retry loop held a database connection".split())
    assert out.startswith("nothing strong; closest (weak)") and "INC-8" in out.split("more below")[0]
    assert "weak (by rule: its root cause and diagnosis hold" in out.split("INC-8", 1)[1]


def test_retaining_the_same_file_again_reports_it_unchanged(cli, tmp_path: Path) -> None:
    path = write(tmp_path, "m.json", json.dumps([OUTCOME]))
    assert cli("retain", path)[0] == 0
    code, out, _ = cli("retain", path)
    assert (code, out.split()) == (0, ["unchanged", "INC-7"])


def test_changed_content_exits_1_names_the_fields_and_overwrites_nothing(cli, tmp_path: Path) -> None:
    cli("retain", write(tmp_path, "a.jsonl", [OUTCOME]))
    changed = {**OUTCOME, "root_cause": "the database was slow", "lesson": "scale up"}
    code, out, err = cli("retain", write(tmp_path, "b.jsonl", [changed]))
    assert code == 1
    assert "conflict" in out and "lesson, root_cause" in out and "not overwritten" in out
    code, out, _ = cli("show", "INC-7", "--json")
    assert json.loads(out)["root_cause"] == OUTCOME["root_cause"]


@pytest.mark.parametrize(
    ("record", "named"),
    [
        ({k: v for k, v in OUTCOME.items() if k != "title"}, "title"),
        ({**OUTCOME, "truth_state": "probably_true"}, "truth_state"),
        ({**OUTCOME, "symptoms": "x" * 1_000_000}, "symptoms: too long (1000000 characters; at most 100000)"),
        ({**OUTCOME, "severty": "SEV1"}, "severty"),
    ],
    ids=["missing title", "unknown truth state", "1 MB field", "unknown field"],
)
def test_bad_records_are_refused_by_name_and_nothing_is_written(cli, tmp_path: Path, record: dict, named: str) -> None:
    good = {**OUTCOME, "incident_id": "INC-GOOD"}
    code, out, err = cli("retain", write(tmp_path, "bad.jsonl", [good, record]))
    assert code == 1
    assert named in err and "bad.jsonl:2" in err and "nothing was written" in err
    assert cli("show", "INC-GOOD")[0] == 1  # the valid line before it was not written either


def test_broken_json_names_the_line(cli, tmp_path: Path) -> None:
    code, _, err = cli("retain", write(tmp_path, "broken.jsonl", json.dumps(OUTCOME) + '\n{"title": '))
    assert code == 1 and "broken JSON on line 2" in err


def test_truth_moves_from_the_command_line(cli, tmp_path: Path) -> None:
    draft = {**OUTCOME, "truth_state": "unconfirmed_hypothesis", "verified_by": None}
    cli("retain", write(tmp_path, "m.jsonl", [draft, {**draft, "incident_id": "INC-8"}]))
    assert cli("confirm", "INC-7", "--by", "maya", "--verified", "no 503s for a week")[1].strip() == (
        "INC-7 is now verification_confirmed"
    )
    code, _, err = cli("reject", "INC-7", "--by", "sam", "--reason", "wrong")
    assert code == 1 and "verification_confirmed → rejected is not allowed" in err
    assert cli("supersede", "INC-7", "--by", "INC-8")[0] == 0
    code, _, err = cli("confirm", "INC-7", "--by", "sam")
    assert code == 1 and "superseded is final" in err
    code, out, _ = cli("show", "INC-7", "--json")
    shown = json.loads(out)
    assert shown["superseded_by"] == "INC-8"
    assert [(t["from_state"], t["to_state"]) for t in shown["transitions"]] == [
        ("unconfirmed_hypothesis", "verification_confirmed"),
        ("verification_confirmed", "superseded"),
    ]


def test_correct_show_and_purge(cli, tmp_path: Path) -> None:
    cli("retain", write(tmp_path, "m.jsonl", [OUTCOME]))
    assert cli("correct", "INC-7", "the", "leak", "was", "in", "refunds", "--author", "sam")[0] == 0
    code, out, _ = cli("show", "INC-7")
    assert code == 0 and "correction by cli:sam" in out and "the leak was in refunds" in out
    assert cli("purge", "INC-7", "--yes")[0] == 0
    code, _, err = cli("show", "INC-7")
    assert code == 1 and "no memory 'INC-7'" in err


def test_usage_errors_exit_2(cli) -> None:
    with pytest.raises(SystemExit) as exited:
        cli("reject", "INC-7", "--as", "sam")  # --reason is required
    assert exited.value.code == 2


def test_not_found_exits_1_with_a_message(cli) -> None:
    code, _, err = cli("correct", "INC-404", "text", "--author", "sam")
    assert code == 1 and "no memory 'INC-404'" in err


def test_a_database_that_is_down_gets_a_clear_error(monkeypatch: pytest.MonkeyPatch, capsys, tmp_path: Path) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/nowhere")
    code = main(["retain", write(tmp_path, "m.jsonl", [OUTCOME])])
    assert code == 1 and "cannot connect to the database" in capsys.readouterr().err


def test_recall_filters_by_severity_tag_state_and_time(cli, tmp_path: Path) -> None:
    records = [
        {**OUTCOME, "incident_id": "A", "severity": "SEV1", "tags": ["db"], "occurred_at": "2025-01-10T00:00:00Z"},
        {**OUTCOME, "incident_id": "B", "severity": "SEV3", "tags": ["net"], "occurred_at": "2025-06-10T00:00:00Z",
         "truth_state": "unconfirmed_hypothesis", "verified_by": None},
    ]  # fmt: skip
    cli("retain", write(tmp_path, "m.jsonl", records))

    def ids(*flags: str) -> list[str]:
        code, out, _ = cli("recall", "pool", "exhausted", "--json", *flags)
        assert code == 0
        return sorted(m["memory"]["incident_id"] for m in json.loads(out))

    assert ids() == ["A", "B"]
    assert ids("--severity", "sev1") == ["A"]
    assert ids("--tag", "net") == ["B"]
    assert ids("--state", "unconfirmed_hypothesis") == ["B"]
    assert ids("--since", "2025-03-01") == ["B"]
    assert ids("--until", "2025-03-01") == ["A"]
    with pytest.raises(SystemExit) as exited:
        cli("recall", "pool", "--since", "last tuesday")
    assert exited.value.code == 2


async def test_purge_forgets_the_incident_and_its_timeline_too(database_url: str, monkeypatch, capsys) -> None:  # noqa: ANN001
    """A memory saved at resolution shares its id with the incident the bot tracked."""
    from datetime import datetime

    from bot.memory.incidents import PostgresIncidentStore
    from bot.memory.pool import create_pool
    from bot.memory.postgres import PostgresMemoryStore
    from bot.models import Incident
    from bot.services.resolution import draft_for

    pool = await create_pool(database_url)
    try:
        incidents = PostgresIncidentStore(pool)
        incident, _ = await incidents.open_incident(
            "local", "C1", Incident(title="Checkout down"), channel_name="inc-x"
        )
        for ts, text in (("1.1", "pool at 100/100"), ("1.2", "secret customer name in a log line")):
            await incidents.append_message("local", "C1", ts, "alice", text, datetime.now(UTC))
        from bot.models import Resolution

        await PostgresMemoryStore(pool).retain(
            draft_for(incident, Resolution(root_cause="leak", resolution="fix"), resolved_by="alice")
        )
    finally:
        await pool.close()
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert await asyncio.to_thread(main, ["purge", incident.incident_id, "--yes"]) == 0
    out = capsys.readouterr().out
    assert "the memory with its corrections" in out and "the 2 channel messages of its timeline" in out
    pool = await create_pool(database_url)
    try:
        assert await pool.fetchval("SELECT count(*) FROM timeline_entries") == 0
        assert await pool.fetchval("SELECT count(*) FROM incidents") == 0
    finally:
        await pool.close()
    assert await asyncio.to_thread(main, ["purge", incident.incident_id, "--yes"]) == 1


def test_an_empty_cli_team_points_at_the_teams_that_hold_memories(cli, tmp_path: Path) -> None:
    cli("retain", write(tmp_path, "m.jsonl", [OUTCOME]), "--team", "T0WORKSPACE")
    code, out, err = cli("recall", "pool", "exhausted")  # the default team: local
    assert code == 0 and "nothing in memory looks like this" in out
    assert "team 'local' has no memories" in err and "T0WORKSPACE (1 memories)" in err
    code, _, err = cli("show", "INC-7")
    assert code == 1 and "T0WORKSPACE" in err
    code, out, err = cli("recall", "pool", "exhausted", "--team", "T0WORKSPACE")
    assert "INC-7" in out and "note:" not in err


def test_without_database_url_the_embedded_postgres_says_where_the_memory_lives(tmp_path: Path) -> None:
    import os
    import shutil
    import subprocess
    import sys
    import tempfile

    data = Path(tempfile.mkdtemp(prefix="imd-", dir="/tmp"))  # short: the socket lives inside
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | {"INCIDENT_MEMORY_DATA_DIR": str(data)}
    try:
        first = subprocess.run([sys.executable, "-m", "bot.cli", "retain", write(tmp_path, "m.jsonl", [OUTCOME])],
                               env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
        assert first.returncode == 0, first.stderr
        assert first.stderr == ""  # quiet by default
        again = subprocess.run(
            [sys.executable, "-m", "bot.cli", "-v", "show", "INC-7"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert again.returncode == 0 and "Orders API timeouts" in again.stdout  # kept between runs
        assert f"data in {data / 'pg'}" in again.stderr  # -v says where
    finally:
        shutil.rmtree(data, ignore_errors=True)


def test_retag_applies_a_vocabulary_extended_later_to_old_memories(cli, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    old = {**OUTCOME, "incident_id": "OLD", "title": "Orders API: flux capacitor overheated", "symptoms": "orders stall",
           "root_cause": "the flux capacitor overheated", "failed_attempts": []}  # fmt: skip
    cli("retain", write(tmp_path, "m.jsonl", [old]))
    extra = tmp_path / "concepts.json"
    extra.write_text(json.dumps({"concepts": [{"name": "temporal overheating",
                                               "phrases": ["flux capacitor overheated", "chrono drive too hot"]}]}))  # fmt: skip
    monkeypatch.setenv("INCIDENT_MEMORY_CONCEPTS_PATH", str(extra))

    def found() -> list[str]:  # a query sharing no word with the memory, only the mechanism
        _, out, _ = cli("recall", "chrono", "drive", "too", "hot", "--json", "--all")
        return [m["memory"]["incident_id"] for m in json.loads(out)]

    assert found() == []  # retained before the team taught the vocabulary this mechanism
    code, out, _ = cli("retag")
    assert (code, out.strip()) == (0, "1 memories now carry the current vocabulary's concepts and signatures")
    assert found() == ["OLD"]
    assert cli("retag")[1].startswith("0 memories")  # nothing left to change


class _Terminal(io.StringIO):
    """stdin as a person at a terminal: what they will type, and isatty() True."""

    def isatty(self) -> bool:
        return True


async def _purge_records(database_url: str) -> list[tuple[str, str, str, dict]]:
    pool = await create_pool(database_url)
    try:
        rows = await pool.fetch("SELECT incident_id, what, purged_by, detail FROM purge_records ORDER BY id")
    finally:
        await pool.close()
    return [(r["incident_id"], r["what"], r["purged_by"], r["detail"]) for r in rows]


def test_purge_asks_first_and_refuses_without_a_terminal(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database_url: str
) -> None:
    cli("retain", write(tmp_path, "m.jsonl", [OUTCOME]))
    code, _, err = cli("purge", "INC-7")  # pytest's stdin is no terminal
    assert code == 1 and "pass --yes" in err
    monkeypatch.setattr("sys.stdin", _Terminal("INC-8\n"))  # a typo: not confirmed
    code, _, err = cli("purge", "INC-7")
    assert code == 1 and "This deletes for good" in err and "nothing was purged" in err
    assert cli("show", "INC-7")[0] == 0
    assert asyncio.run(_purge_records(database_url)) == []

    monkeypatch.setattr("sys.stdin", _Terminal("INC-7\n"))
    code, out, _ = cli("purge", "INC-7", "--as", "dana")
    assert code == 0 and "recorded as purged by cli:dana" in out
    assert cli("show", "INC-7")[0] == 1
    # who, which id, when — and nothing of what the memory said
    [(incident_id, what, purged_by, detail)] = asyncio.run(_purge_records(database_url))
    assert (incident_id, what, purged_by, detail) == ("INC-7", "memory", "cli:dana", {"corrections": 0})


def test_purge_of_a_successor_says_what_it_superseded_and_does_what_it_is_told(
    cli, tmp_path: Path, database_url: str
) -> None:
    older = {**OUTCOME, "incident_id": "INC-6", "truth_state": "unconfirmed_hypothesis", "verified_by": None}
    cli("retain", write(tmp_path, "m.jsonl", [older, OUTCOME]))
    assert cli("supersede", "INC-6", "--by", "INC-7", "--as", "maya")[0] == 0
    code, _, err = cli("purge", "INC-7", "--yes")
    assert code == 1 and "supersedes INC-6" in err and "--restore-superseded" in err and "--purge-superseded" in err
    assert cli("show", "INC-7")[0] == 0  # nothing purged

    code, out, _ = cli("purge", "INC-7", "--yes", "--restore-superseded", "--as", "dana")
    assert code == 0 and "restored INC-6" in out
    code, out, _ = cli("show", "INC-6", "--json")
    restored = json.loads(out)
    assert restored["truth_state"] == "unconfirmed_hypothesis" and restored["superseded_by"] is None
    assert [(t["to_state"], t["actor"]) for t in restored["transitions"]] == [
        ("superseded", "cli:maya"),
        ("unconfirmed_hypothesis", "cli:dana"),
    ]
    [record] = asyncio.run(_purge_records(database_url))
    assert record[3] == {"corrections": 0, "superseded": ["INC-6"], "superseded_handling": "restore"}

    cli("retain", write(tmp_path, "m2.jsonl", [{**OUTCOME, "incident_id": "INC-9"}]))
    assert cli("supersede", "INC-6", "--by", "INC-9")[0] == 0
    code, out, _ = cli("purge", "INC-9", "--yes", "--purge-superseded")
    assert code == 0 and "the memories it superseded: INC-6" in out
    assert cli("show", "INC-6")[0] == 1
    with pytest.raises(SystemExit):
        cli("purge", "INC-9", "--yes", "--purge-superseded", "--restore-superseded")  # one or the other


def test_the_cli_records_the_operator_it_runs_as(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    draft = {**OUTCOME, "truth_state": "unconfirmed_hypothesis", "verified_by": None}
    cli("retain", write(tmp_path, "m.jsonl", [draft]))
    monkeypatch.setenv("USER", "oncall-robin")
    monkeypatch.setenv("LOGNAME", "oncall-robin")
    cli("correct", "INC-7", "pool", "size", "was", "fine")
    cli("confirm", "INC-7", "--as", "maya")
    code, out, _ = cli("show", "INC-7", "--json")
    shown = json.loads(out)
    assert shown["corrections"][0]["author"] == "cli:oncall-robin"
    assert shown["transitions"][-1]["actor"] == "cli:maya" and shown["verified_by"] == "cli:maya"


async def test_purging_is_for_the_declarer_reviewers_and_admins(database_url: str) -> None:
    from bot.errors import MemoryNotFound
    from bot.memory.incidents import PostgresIncidentStore
    from bot.memory.postgres import PostgresMemoryStore
    from bot.models import Incident
    from bot.policy import Actor, NotAllowed, Reviewers
    from bot.services.purge import PurgeService

    pool = await create_pool(database_url)
    try:
        incidents = PostgresIncidentStore(pool)
        incident, _ = await incidents.open_incident("T1", "C1", Incident(title="Checkout down"), declared_by="U1")
        purges = PurgeService(PostgresMemoryStore(pool), incidents, reviewers=Reviewers.parse("U3"))
        plan = await purges.plan("T1", incident.incident_id)
        with pytest.raises(
            NotAllowed, match="Only the incident's declarer, a memory reviewer or a workspace admin can purge"
        ):
            await purges.purge(plan, by=Actor("U2"), superseded=SupersededHandling.REFUSE)
        assert await incidents.get("T1", incident.incident_id) is not None
        done = await purges.purge(plan, by=Actor("U1"), superseded=SupersededHandling.REFUSE)
        assert (done.purged, done.timeline_messages) == ([], 0)
        with pytest.raises(MemoryNotFound):
            await purges.plan("T1", incident.incident_id)
        assert await pool.fetchval("SELECT purged_by FROM purge_records") == "U1"
    finally:
        await pool.close()


def test_a_memory_keeps_the_alerts_that_fired_for_it(cli, tmp_path: Path) -> None:
    alerts = [{"name": "HighErrorRate", "labels": {"service": "payments", "severity": "page"}}]
    path = write(tmp_path, "m.jsonl", [{**OUTCOME, "alerts": alerts}])
    code, out, err = cli("retain", path)
    assert (code, out.split()) == (0, ["created", "INC-7"]), err  # was refused: "Extra inputs are not permitted"
    code, out, _ = cli("show", "INC-7", "--json")
    assert code == 0 and json.loads(out)["alerts"] == alerts
    assert cli("retain", path)[1].split() == ["unchanged", "INC-7"]
    # other alerts are other content: named, nothing overwritten
    code, out, err = cli("retain", write(tmp_path, "n.jsonl", [{**OUTCOME, "alerts": [{"name": "Other"}]}]))
    assert code == 1 and "alerts" in out + err
    code, out, err = cli("retain", write(tmp_path, "b.jsonl", [{**OUTCOME, "alerts": [{"labels": {}}]}]))
    assert code != 0 and "name" in out + err


def test_a_sigterm_after_a_commands_work_still_exits_through_the_clean_up() -> None:
    """Once a command's work is done, the embedded PostgreSQL's stop at exit is left: a SIGTERM then
    must exit as sys.exit does (atexit runs), not by the signal's default action, which kills the
    process without it and leaves the server running (the demo's interrupt test caught it at 'Done')."""
    import asyncio
    import signal

    from bot.cli.runtime import until_signalled

    def exit_as_run_does(signum: int, frame: object) -> None:
        raise SystemExit(143)

    before = signal.signal(signal.SIGTERM, exit_as_run_does)
    try:

        async def work() -> int:
            return 0

        assert asyncio.run(until_signalled(work())) == 0
        assert signal.getsignal(signal.SIGTERM) is exit_as_run_does
    finally:
        signal.signal(signal.SIGTERM, before)
