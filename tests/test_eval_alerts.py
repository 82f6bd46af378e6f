"""The alert corpus (eval/alerts): real write-ups that name the alerts that fired, each case
verbatim from its write-up, folds by organisation as in eval/postmortems, nothing reserved; and the
replay corpus bench/alert_replay.py builds from it carries the alerts to recall."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from bench import alert_replay
from bot.config import PROJECT_ROOT
from bot.replay import load_cases, load_memories
from tests.test_eval_corpus import _reserved

EVAL = PROJECT_ROOT / "eval"
CASES = EVAL / "alerts" / "cases.jsonl"

pytestmark = pytest.mark.skipif(not CASES.is_file(), reason="eval/alerts is not in this checkout")


def bench() -> ModuleType:
    return alert_replay


def cases() -> list[dict]:
    return bench().load_cases(CASES)


def test_forty_cases_from_eight_organisations_each_verbatim_from_its_write_up() -> None:
    found = cases()
    assert len(found) >= 40 and len({c["org"] for c in found}) >= 8
    assert len({c["id"] for c in found}) == len(found) and {c["fold"] for c in found} == {"A", "B"}
    for case in found:
        body = (EVAL / case["target"]).read_text(encoding="utf-8").replace("\r\n", "\n")
        assert case["text"] in body, case["id"]
        assert all(a["name"].strip() and all(a["labels"].values()) for a in case["alerts"]), case["id"]
        assert case["source"].startswith("https://github.com/") and not _reserved(case["source"]), case["id"]


def test_an_organisation_keeps_its_postmortem_fold_and_one_fold() -> None:
    truth = [json.loads(line) for line in (EVAL / "postmortems" / "truth.jsonl").read_text().splitlines()]
    fold_of = {label["org"]: label["fold"] for label in truth}
    folds: dict[str, set[str]] = {}
    for case in cases():
        folds.setdefault(case["org"], set()).add(case["fold"])
        assert fold_of.get(case["org"], case["fold"]) == case["fold"], case["id"]
    assert all(len(f) == 1 for f in folds.values()), folds


def test_every_stored_write_up_is_a_cases_target_or_the_pdf_it_was_read_from() -> None:
    stored = {p.name for p in (EVAL / "alerts" / "writeups").iterdir()}
    targets = {Path(c["target"]).name for c in cases() if c["target"].startswith("alerts/")}
    pdfs = {name for name in stored if name.endswith(".pdf")}
    assert stored == targets | pdfs
    assert {Path(p).stem + ".txt" for p in pdfs} <= targets


def fewer_distractors(tmp_path: Path, kept: int = 6) -> Path:
    """eval/ as `memories` reads it, its postmortems' truth.jsonl cut to the first `kept` incident
    reports: every other postmortem is a distractor memory, and importing all ~430 of them was
    nearly all of the test below (what it checks is the cases' own write-ups and alerts)."""
    copy = tmp_path / "eval"
    (copy / "postmortems").mkdir(parents=True)
    (copy / "alerts").symlink_to(EVAL / "alerts")
    lines = (EVAL / "postmortems" / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    incidents = [line for line in lines if not json.loads(line)["not_an_incident"]][:kept]
    (copy / "postmortems" / "truth.jsonl").write_text("\n".join(incidents) + "\n", encoding="utf-8")
    for line in incidents:
        name = json.loads(line)["file"]
        (copy / "postmortems" / name).symlink_to(EVAL / "postmortems" / name)
    return copy


def test_the_replay_corpus_carries_the_alerts_with_the_signal_and_none_without(tmp_path: Path) -> None:
    module, found = bench(), cases()
    few = [c for c in found if c["org"] == "2i2c"][:3]
    assert all(c["target"].startswith("alerts/") for c in few)  # in the copy whatever its postmortems
    memories, lost = module.memories(fewer_distractors(tmp_path), few)
    assert len(memories) + len(lost) == len({c["target"] for c in few}) + 6  # the distractors were read too
    assert not set(lost) & {c["target"] for c in few}  # a few distractors import keeps nothing of
    keys = sorted({k for c in found for a in c["alerts"] for k in a["labels"]})
    module.write_corpus(tmp_path / "with", memories, [module.case_line(c, keys, True) for c in few])
    module.write_corpus(tmp_path / "without", memories, [module.case_line(c, keys, False) for c in few])
    loaded = load_memories(tmp_path / "with")
    assert sum(1 for m in loaded if m.alerts) == len({c["target"] for c in few})
    with_alerts, without = load_cases(tmp_path / "with"), load_cases(tmp_path / "without")
    assert [c.query.alerts[0].name for c in with_alerts] == [c["alerts"][0]["name"] for c in few]
    assert "cluster" in with_alerts[0].query.alert_labels
    assert all(not c.query.alerts for c in without)
