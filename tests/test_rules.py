"""From confirmed memories to reviewed rules, through the command line a team would use:
patterns, rules propose, rules replay, rules approve, rules check."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

import pytest
import yaml

from bot.cli import main
from tests.rules_bank import BANK, LEAK_IDS, REJECTED

RULE_ID = "R-connection-pool-exhaustion-helper-retry"


@pytest.fixture
def cli(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("RULES_DIR", str(tmp_path / "rules"))

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def bank(cli, tmp_path: Path):
    path = tmp_path / "bank.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in BANK))
    assert cli("retain", str(path))[0] == 0
    assert cli("reject", REJECTED, "--by", "maya", "--reason", "the deploy drained the pool, not a leak")[0] == 0
    return cli


def rule_file(tmp_path: Path, rule_id: str = RULE_ID) -> Path:
    return tmp_path / "rules" / f"{rule_id}.yaml"


def read(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def test_patterns_finds_one_candidate_of_exactly_the_four_confirmed_leaks(bank) -> None:
    code, out, _ = bank("patterns", "--json")
    found = json.loads(out)
    assert code == 0 and len(found) == 1
    assert found[0]["incidents"] == LEAK_IDS  # not the unconfirmed, rejected or other-cause ones
    assert found[0]["mechanism"] == ["connection pool exhaustion"]
    assert {"retry", "helper"} <= set(found[0]["terms"])
    code, out, _ = bank("patterns")
    assert "4 confirmed episodes" in out and "INC-101, INC-102, INC-103, INC-104" in out


def test_a_higher_threshold_finds_no_pattern(bank) -> None:
    code, out, _ = bank("patterns", "--min-episodes", "5", "--json")
    assert (code, json.loads(out)) == (0, [])
    code, out, _ = bank("rules", "propose", "--min-episodes", "5")
    assert code == 0 and "no rule proposed" in out


def test_propose_writes_an_inert_rule_file_with_provenance(bank, tmp_path: Path) -> None:
    code, out, _ = bank("rules", "propose")
    assert code == 0 and f"wrote {rule_file(tmp_path)}" in out
    rule = read(rule_file(tmp_path))
    assert rule["version"] == 1 and rule["replay"] is None
    assert (rule["reviewed_by"], rule["approved_at"], rule["decision"]) == ("", None, "")
    assert rule["provenance"]["incidents"] == LEAK_IDS and rule["provenance"]["min_episodes"] == 3
    assert rule["provenance"]["team"] == "local" and "postgresql://" in rule["provenance"]["bank"]
    assert rule["match"]["services"] == ["payments"] and rule["match"]["concepts"] == ["connection pool exhaustion"]
    assert len(rule["match"]["error_signatures"]) == 3  # two Hikari timeouts normalise to one
    assert "retry helper" in rule["root_cause"]["summary"]
    dead = {d["action"].lower(): d for d in rule["dead_ends"]}
    assert sorted(dead["restart the payments pods"]["seen_in"]) == ["INC-101", "INC-102", "INC-103"]
    assert "idle in transaction" in " ".join(rule["checks"])
    code, out, _ = bank("rules", "check")
    assert code == 0 and "inert: not replayed at version 1" in out
    # proposing again never overwrites a file the team may have reviewed
    before = rule_file(tmp_path).read_text()
    assert "exists, left as it is" in bank("rules", "propose")[1]
    assert rule_file(tmp_path).read_text() == before


def test_replay_writes_hits_false_fires_and_misses_into_the_file(bank, tmp_path: Path) -> None:
    bank("rules", "propose")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "memories.jsonl").write_text(json.dumps({
        "id": "C-1", "title": "Orders API: pool exhausted", "service": "orders",
        "root_cause": "the shared retry helper leaked connections", "resolution": "release in the retry helper",
    }))  # fmt: skip
    (corpus / "cases.jsonl").write_text(json.dumps({
        "id": "case-1", "relevant": ["INC-X"],
        "incident": {"title": "payments pool checkout timed out", "service": "payments"},
    }))  # fmt: skip
    code, out, _ = bank("rules", "replay", "--corpus", str(corpus))
    assert code == 0 and f"{RULE_ID} v1: hits 4 · false fires 1 · misses 1" in out
    replay = read(rule_file(tmp_path))["replay"]
    assert replay["version"] == 1
    assert replay["hits"] == LEAK_IDS
    assert replay["false_fires"] == ["INC-105"]  # same pool exhaustion, another root cause (traffic)
    assert replay["misses"] == ["corpus:C-1"]  # the same leak on a service the rule does not name
    # fired where nobody confirmed a cause: the unconfirmed and the rejected one, and a case with no known memory
    assert sorted(replay["unjudged"]) == ["INC-106", "INC-107", "INC-108", "corpus:case-1"]
    assert replay["sources"][0].startswith("bank: team local on postgresql://")


def test_an_edit_to_what_a_rule_matches_makes_it_inert_until_replayed_at_a_new_version(bank, tmp_path: Path) -> None:
    bank("rules", "propose")
    bank("rules", "replay")
    assert bank("rules", "approve", RULE_ID, "--by", "maya")[0] == 0
    assert f"{RULE_ID} v1: in use" in bank("rules", "check")[1]
    path = rule_file(tmp_path)
    rule = read(path)
    rule["match"]["services"] = ["payments", "orders"]
    path.write_text(yaml.safe_dump(rule, sort_keys=False))
    code, out, _ = bank("rules", "check")
    assert code == 0 and "inert: edited since version 1 was stamped" in out
    # approving an unstamped edit is refused; replay bumps it and clears the approval
    code, _, err = bank("rules", "approve", RULE_ID, "--by", "maya")
    assert code == 1 and "edited since version 1" in err
    code, out, _ = bank("rules", "replay", RULE_ID)
    assert code == 0 and "edited: version 1 → 2, approval cleared" in out
    rule = read(path)
    assert (rule["version"], rule["replay"]["version"], rule["decision"], rule["reviewed_by"]) == (2, 2, "", "")
    assert "inert: version 2 is not reviewed and approved" in bank("rules", "check")[1]
    # an edit outside what it matches or recommends (the title) needs no new review
    bank("rules", "approve", RULE_ID, "--by", "li")
    rule = read(path)
    rule["title"] = "payments pool leak in the retry helper"
    path.write_text(yaml.safe_dump(rule, sort_keys=False))
    assert f"{RULE_ID} v2: in use" in bank("rules", "check")[1]


def test_a_rule_kept_as_yml_is_used_and_other_files_are_named(bank, tmp_path: Path) -> None:
    bank("rules", "propose")
    kept = rule_file(tmp_path).rename(rule_file(tmp_path).with_suffix(".yml"))
    (tmp_path / "rules" / "notes.txt").write_text("why we keep these rules")
    assert bank("rules", "replay")[0] == 0
    assert bank("rules", "approve", RULE_ID, "--by", "maya")[0] == 0
    code, out, _ = bank("rules", "check")
    assert code == 0 and f"{RULE_ID} v1: in use" in out
    assert "skipped: " in out and "notes.txt (not a rule file: rule files end in .yaml or .yml)" in out
    assert read(kept)["reviewed_by"] == "maya" and not rule_file(tmp_path).exists()  # written back where it is


def test_approval_needs_a_replay_at_the_current_version(bank) -> None:
    bank("rules", "propose")
    code, _, err = bank("rules", "approve", RULE_ID, "--by", "maya")
    assert code == 1 and f"replay version 1 first: `incident-memory rules replay {RULE_ID}`" in err


def test_bad_rule_files_are_refused_with_the_field_named(bank, tmp_path: Path) -> None:
    bank("rules", "propose")
    bank("rules", "replay")
    good = read(rule_file(tmp_path))
    folder = tmp_path / "rules"

    def bad(rule_id: str, change) -> None:  # noqa: ANN001
        data = json.loads(json.dumps(good, default=str))
        data["id"] = rule_id
        change(data)
        (folder / f"{rule_id}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))

    bad("R-unknown-field", lambda d: d["match"].update(severity=["sev1"]))
    bad("R-no-provenance", lambda d: d.pop("provenance"))
    bad("R-cites-rejected", lambda d: d["provenance"]["incidents"].append(REJECTED))
    bad("R-cites-nothing", lambda d: d["provenance"].update(incidents=["INC-999"], min_episodes=1))
    code, out, _ = bank("rules", "check")
    assert code == 1
    refused = [line for line in out.splitlines() if line.startswith("refused:")]
    assert len(refused) == 4
    text = "\n".join(refused)
    assert "R-unknown-field.yaml: match.severity: unknown field" in text
    assert "R-no-provenance.yaml: provenance: missing" in text
    assert f"R-cites-rejected.yaml: provenance.incidents: {REJECTED} is rejected" in text
    assert "R-cites-nothing.yaml: provenance.incidents: INC-999 is not in team local's memory bank" in text
    assert f"{RULE_ID} v1: inert" in out  # the good file is still listed
    # replaying a refused file stops with the same message and writes nothing
    before = (folder / "R-cites-rejected.yaml").read_text()
    code, _, err = bank("rules", "replay", "R-cites-rejected")
    assert code == 1 and f"{REJECTED} is rejected" in err
    assert (folder / "R-cites-rejected.yaml").read_text() == before


def test_a_file_that_is_not_yaml_or_is_misnamed_is_refused(bank, tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "R-broken.yaml").write_text("id: [unclosed\n")
    code, out, _ = bank("rules", "check")
    assert code == 1 and "R-broken.yaml: not valid YAML at line" in out


# ---- grouping, without a database ------------------------------------------------------------


def records(rows: list[dict]) -> list:
    from datetime import datetime

    from bot.models import MemoryRecord

    now = datetime(2026, 11, 30, tzinfo=UTC)
    return [MemoryRecord(team_id="T", created_at=now, updated_at=now, **row) for row in rows]


def test_one_mechanism_with_different_fixes_is_no_pattern() -> None:
    from bot.recall.concepts import load_vocabulary
    from bot.rules.patterns import find_candidates
    from tests.rules_bank import leak

    org = (
        "platform team runbook kubernetes cluster grafana dashboard pagerduty escalation"  # words every write-up shares
    )
    causes = [
        ("INC-1", "the retry helper leaked connections", "released the connection in the retry helper"),
        ("INC-2", "traffic tripled for a sale", "raised the pool size and added a replica"),
        ("INC-3", "a migration held locks and every request waited for a connection", "ran the migration off peak"),
    ]
    rows = [
        leak(
            i, "2026-01-01T00:00:00Z", title="pool exhausted", root_cause=f"{cause}; {org}", resolution=f"{fix}; {org}"
        )
        for i, cause, fix in causes
    ]
    # the rest of the bank: other mechanisms, written up the same way
    others = [
        leak(
            f"INC-{9 + n}",
            "2026-01-01T00:00:00Z",
            title=title,
            root_cause=f"{title}; {org}",
            resolution=f"fixed it; {org}",
        )
        for n, title in enumerate(
            ["disk full on the log volume", "dns resolution failed", "certificate expired", "deadlock detected"]
        )
    ]
    assert find_candidates(records(rows + others), load_vocabulary(), min_episodes=3) == []
    # the same three as one recurring fix do make a pattern (the check above can fail)
    same = [{**row, "root_cause": f"the retry helper leaked connections; {org}",
             "resolution": f"released the connection in the retry helper; {org}"} for row in rows]  # fmt: skip
    found = find_candidates(records(same + others), load_vocabulary())
    assert [c.incident_ids for c in found] == [["INC-1", "INC-2", "INC-3"]]
    assert not set(found[0].core_terms) & set(org.split())  # boilerplate says nothing about the fix


def test_private_channel_memories_are_no_evidence() -> None:
    from bot.recall.concepts import load_vocabulary
    from bot.rules.patterns import find_candidates
    from tests.rules_bank import CONFIRMED_LEAKS

    rows = [{**m, "is_private": m["incident_id"] in ("INC-101", "INC-102")} for m in CONFIRMED_LEAKS]
    assert find_candidates(records(rows), load_vocabulary(), min_episodes=3) == []
    assert find_candidates(records(rows), load_vocabulary(), min_episodes=2)[0].incident_ids == ["INC-103", "INC-104"]


def test_a_reviewer_may_approve_by_hand_with_a_plain_date(bank, tmp_path: Path) -> None:
    bank("rules", "propose")
    bank("rules", "replay")
    path = rule_file(tmp_path)
    text = (
        path.read_text()
        .replace("reviewed_by: ''", "reviewed_by: maya")
        .replace("approved_at: null", "approved_at: 2026-11-30")
    )
    path.write_text(text.replace("decision: ''", "decision: approved"))
    assert f"{RULE_ID} v1: in use" in bank("rules", "check")[1]
    path.write_text(text.replace("decision: ''", "decision: Approved"))
    code, out, _ = bank("rules", "check")
    assert code == 1 and "decision: Input should be '', 'approved' or 'rejected'" in out
