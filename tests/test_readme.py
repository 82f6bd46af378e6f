"""The README's configuration table lists exactly the settings the code reads; it keeps its first
two commands, then its contents, set-up and Slack; its command-line examples run."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bot.config import PROJECT_ROOT, Settings

README = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
DERIVED = {"incident_memory_data_dir"}


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert match, f"README has no '## {title}' section"
    return match.group(1)


def configuration_rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in section("Configuration").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        name = re.fullmatch(r"`([A-Z][A-Z0-9_]*)`", cells[0]) if line.startswith("|") else None
        if name:
            assert name.group(1) not in rows, f"{name.group(1)} is listed twice"
            rows[name.group(1)] = cells[1:]
    return rows


def test_the_configuration_table_lists_exactly_the_settings() -> None:
    listed = set(configuration_rows())
    settings = {name.upper() for name in Settings.model_fields}
    assert listed - settings == set(), "in the README but not in bot.config.Settings"
    assert settings - listed == set(), "in bot.config.Settings but not in the README"


def test_every_setting_has_a_default_and_a_description() -> None:
    for name, (default, description, *_rest) in configuration_rows().items():
        assert default and len(description) > 20, name


def test_the_simple_defaults_in_the_table_are_the_codes() -> None:
    rows = configuration_rows()
    for name, field in Settings.model_fields.items():
        default = field.default
        shown = rows[name.upper()][0]
        if default is None:
            # unset, or a default the code derives at run time (the data folder)
            assert shown.startswith("unset") or name in DERIVED, name
        elif isinstance(default, bool):
            assert shown == f"`{str(default).lower()}`", name
        elif isinstance(default, (int, float, str)):
            assert shown == f"`{default:g}`" if isinstance(default, float) else shown == f"`{default}`", name


def test_the_first_two_commands_are_still_first() -> None:
    first_block = README.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert first_block == [
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/incident-memory demo",
        ".venv/bin/pytest",
    ]


def test_the_deploy_section_agrees_with_the_code() -> None:
    from bot.app import METRICS_PATH, SLACK_EVENTS_PATH

    deploy = section("Connect it to Slack")
    assert f"https://<app>.fly.dev{SLACK_EVENTS_PATH}" in deploy
    assert "GET /healthz" in deploy and "incident-memory migrate" in deploy
    operate = section("Operate: logs and metrics")
    assert f"GET {METRICS_PATH}" in operate


def user_facing_texts() -> dict[str, str]:
    """What a user of the project reads: the README, docs/, the corpora's READMEs, every --help."""
    import argparse

    import bot.replay
    from bot.cli import build_parser

    files = [PROJECT_ROOT / "README.md", *sorted((PROJECT_ROOT / "docs").glob("*.md"))]
    files += sorted((PROJECT_ROOT / "eval").glob("*/README.md"))
    texts = {str(path.relative_to(PROJECT_ROOT)): path.read_text(encoding="utf-8") for path in files}
    parser = build_parser()
    texts["incident-memory --help"] = parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                texts[f"incident-memory {name} --help"] = command.format_help()
    texts["bot/replay.py"] = bot.replay.__doc__ or ""
    return texts


def test_no_user_facing_text_points_outside_the_repository() -> None:
    texts = user_facing_texts()
    assert {"docs/REPLAY.md", "docs/SLACK.md", "incident-memory replay --help"} <= set(texts)
    outside = {name for name, text in texts.items() if "../shared" in text or "shared/docs" in text}
    assert outside == set(), "these point to files a user of the project does not have"


def test_the_documents_they_name_are_in_the_repository() -> None:
    # A path inside a longer one (another repository's `mkdocs-project-dir/docs/Status_page.md`, quoted as a
    # corpus item's source) is not one of ours.
    named = {
        (name, path)
        for name, text in user_facing_texts().items()
        for path in re.findall(r"(?<![\w/.-])docs/[\w.-]+\.md\b", text)
    }
    assert ("incident-memory replay --help", "docs/REPLAY.md") in named
    missing = {(name, path) for name, path in named if not (PROJECT_ROOT / path).is_file()}
    assert missing == set()


def test_the_contents_list_every_section_in_order_set_up_and_slack_first() -> None:
    """A section added to the README is added to its contents too (a link to its heading)."""
    titles = re.findall(r"^## (.+)$", README, re.M)
    assert titles[:3] == ["Contents", "Set-up", "Connect it to Slack"]
    listed = re.findall(r"^- \[(.+?)\]\(#([\w-]+)\)$", section("Contents"), re.M)
    assert [title for title, _ in listed] == titles[1:]
    for title, anchor in listed:  # GitHub's anchors: lower case, punctuation out, spaces to hyphens
        assert anchor == re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-"), title


def example_commands() -> list[list[str]]:
    """The command-line block that starts with `incident-memory import examples/`, as argv lists."""
    blocks = re.findall(r"```sh\n(.*?)```", README, re.S)
    (block,) = [b for b in blocks if b.startswith("incident-memory import examples/")]
    return [shlex.split(line, comments=True)[1:] for line in block.splitlines() if line.strip()]


def test_the_command_line_examples_run_on_what_import_examples_stored(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(PROJECT_ROOT / "examples")
    commands = example_commands()
    assert len(commands) >= 10 and commands[0] == ["import", "examples/"]
    for argv in commands:
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 0, f"incident-memory {shlex.join(argv)}: {out}{err}"
        if argv[0] == "recall" and "--all" not in argv:
            assert out.startswith("1. "), f"incident-memory {shlex.join(argv)} recalled nothing"
    assert (tmp_path / "memory.html").is_file()


def test_the_headline_recall_figures_are_the_benchmarks_ones() -> None:
    benchmarks = (PROJECT_ROOT / "docs" / "BENCHMARKS.md").read_text(encoding="utf-8")
    headline: dict[str, str] = {}  # the first table's (the ones after it are other comparisons)
    for name, value in re.findall(r"^\| (Recall@5|MRR@10) \| [\d.]+ \| \*\*([\d.]+)\*\* \|", benchmarks, re.M):
        headline.setdefault(name, value)
    said = " ".join(section("Measuring recall").split())
    assert f"Recall@5 {headline['Recall@5']} and MRR@10 {headline['MRR@10']}" in said
    semantic = " ".join(section("Semantic recall (optional)").split())
    assert f"Recall@5 {headline['Recall@5']} →" in semantic and f"MRR@10 {headline['MRR@10']} →" in semantic
