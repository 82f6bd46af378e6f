"""One output layer: text or --json for every command, errors included; nothing hidden in text
that JSON has; the small things a new user trips on."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from bot.cli import build_parser, main

MEMORY = {
    "incident_id": "INC-9",
    "title": "Queue backlog: [bold]workers[/bold] stuck on a poisoned message [human_confirmed]",
    "service": "billing",
    "severity": "SEV2",
    "symptoms": "queue depth climbing",
    "error_message": "DeserializationError: unexpected token",
    "root_cause": "a malformed message was retried forever",
    "diagnosis": "the dead-letter queue was empty while one message id repeated in logs",
    "resolution": "moved the message to the dead-letter queue by hand",
    "failed_attempts": [{"action": "scaled the workers", "why_it_failed": "each new worker took the same message"}],
    "lesson": "cap redeliveries",
    "notes": "see the runbook",
    "tags": ["queue", "poison-message"],
    "channel_id": "C0BILLING",
    "occurred_at": "2025-02-03T04:05:00Z",
    "resolved_at": "2025-02-03T06:00:00Z",
}


@pytest.fixture
def cli(database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("DATABASE_URL", database_url)

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        try:
            code = main(list(argv))
        except SystemExit as exited:  # argparse: usage errors, --help, --version
            code = int(exited.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_version(cli) -> None:
    code, out, _ = cli("--version")
    assert code == 0 and re.fullmatch(r"incident-memory \d+\.\d+\.\S+\n", out)


def test_retain_dash_reads_standard_input(cli) -> None:
    code, out, _ = cli("retain", "-", stdin=json.dumps(MEMORY))
    assert (code, out.split()) == (0, ["created", "INC-9"])
    code, out, err = cli("retain", "-", stdin='{"title": ')
    assert code == 1 and "<stdin>" in err


def test_retaining_an_empty_list_says_nothing_was_retained(cli, tmp_path: Path) -> None:
    empty = tmp_path / "none.json"
    empty.write_text("[]")
    code, out, _ = cli("retain", str(empty))
    assert code == 0 and out.strip() == f"nothing retained: {empty} holds no memories"
    code, out, _ = cli("retain", str(empty), "--json")
    assert code == 0 and json.loads(out) == []


def test_a_failed_attempt_of_the_wrong_shape_names_the_shape_not_a_class(cli) -> None:
    bad = {**MEMORY, "failed_attempts": ["restarted the workers"]}
    code, _, err = cli("retain", "-", stdin=json.dumps(bad))
    assert code == 1
    assert 'failed_attempts.0: expected an object like {"action": ' in err and '"why_it_failed"' in err
    assert "FailedAttempt" not in err and "instance of" not in err


def test_import_names_the_shape_of_a_failed_attempt_too(cli, tmp_path: Path) -> None:
    export = tmp_path / "export.jsonl"
    export.write_text(json.dumps({**MEMORY, "failed_attempts": ["restarted the workers"]}))
    code, out, _ = cli("import", str(export))
    assert code == 1 and 'expected an object like {"action": ' in out and "FailedAttempt" not in out


def test_show_as_text_has_every_field_json_has(cli) -> None:
    cli("retain", "-", stdin=json.dumps({**MEMORY, "truth_state": "unconfirmed_hypothesis"}))
    cli("correct", "INC-9", "it was two messages", "--author", "sam")
    cli("reject", "INC-9", "--by", "maya", "--reason", "the queue was healthy; the consumer was the bug")
    _, out, _ = cli("show", "INC-9", "--json")
    shown = json.loads(out)
    code, text, _ = cli("show", "INC-9")
    assert code == 0
    # who rejected it and why: only --json had it before
    assert "unconfirmed_hypothesis → rejected by cli:maya" in text and "the consumer was the bug" in text

    def leaves(value: object) -> list[str]:
        if isinstance(value, dict):
            return [leaf for v in value.values() for leaf in leaves(v)]
        if isinstance(value, list):
            return [leaf for v in value for leaf in leaves(v)]
        return [] if value in (None, "", False) else [str(value)]

    missing = []
    for field, value in shown.items():
        for leaf in leaves(value):
            # times are shown to the minute, in UTC
            expected = re.sub(r"^(\d{4}-\d\d-\d\d)T(\d\d:\d\d).*$", r"\1 \2 UTC", leaf)
            if expected not in text:
                missing.append(f"{field}: {leaf}")
    assert missing == [], text
    assert "[bold]workers[/bold]" in text and "[human_confirmed]" in text  # printed as typed


def test_list_refuses_a_limit_of_zero(cli) -> None:
    code, _, err = cli("list", "--limit", "0")
    assert code == 2 and "--limit: 0 is below 1" in err
    code, out, _ = cli("list", "--limit", "0", "--json")
    assert code == 2 and "--limit: 0 is below 1" in json.loads(out)["error"]


def test_errors_under_json_are_json_with_the_same_exit_codes(cli) -> None:
    code, out, err = cli("show", "INC-404", "--json")
    assert code == 1 and err == "" and json.loads(out) == {"error": "no memory 'INC-404' in team 'local'"}
    code, out, _ = cli("reject", "INC-404", "--json")  # --reason missing: a usage error
    assert code == 2 and "--reason" in json.loads(out)["error"]


def test_migrate_answers_in_json_too(cli) -> None:
    code, out, _ = cli("migrate", "--json")
    assert code == 0 and json.loads(out) == {"applied": []}  # the test database is migrated already
    code, out, _ = cli("migrate")
    assert out.strip() == "database is up to date"


@pytest.mark.parametrize("option", [["--team", "T1"], ["--json"]], ids=["--team", "--json"])
def test_serve_refuses_options_it_would_ignore(cli, option: list[str]) -> None:
    code, out, err = cli("serve", *option)
    assert code == 2 and f"{option[0]} is not an option of serve" in out + err


def test_no_help_shows_literal_backticks() -> None:
    parser = build_parser()
    texts = [parser.format_help()]
    subparsers = next(a for a in parser._actions if a.dest == "command")  # noqa: SLF001 - argparse keeps them here
    texts += [p.format_help() for p in subparsers.choices.values()]
    assert len(texts) > 15
    assert [t.splitlines()[0] for t in texts if "`" in t] == []


def test_json_is_taken_before_the_command_as_after_it(cli) -> None:
    code, out, err = cli("--json", "show", "INC-404")
    assert code == 1 and err == "" and json.loads(out) == {"error": "no memory 'INC-404' in team 'local'"}
    code, out, _ = cli("--json", "migrate")
    assert code == 0 and json.loads(out) == {"applied": []}


@pytest.mark.parametrize("argv", [["worker", "--json"], ["--json", "worker"], ["--json", "serve"]])
def test_commands_that_write_logs_refuse_json_on_either_side_saying_why(cli, argv: list[str]) -> None:
    code, out, _ = cli(*argv)
    command = next(a for a in argv if a != "--json")
    assert code == 2 and f"--json is not an option of {command}" in out and "LOG_FORMAT=json" in out


def test_recall_of_nothing_is_a_usage_error(cli) -> None:
    code, out, err = cli("recall", "")
    assert code == 2 and "text is empty" in out + err


def test_replay_of_a_missing_folder_says_it_is_missing(cli, tmp_path: Path) -> None:
    code, _, err = cli("replay", str(tmp_path / "nowhere"))
    assert code == 1 and "nowhere: no such folder" in err
