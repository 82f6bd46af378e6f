"""The incident conversations and first reports under eval/ (issue 22): every label phrase is in
its item's own text, nothing comes from a source reserved for the independent check, and the two
folds split by organisation. Offline: files only."""

from __future__ import annotations

import json
import re
from datetime import date, datetime

import pytest

from bot.config import PROJECT_ROOT
from tests.test_eval_corpus import RESERVED_ORGS, RESERVED_POSTS, RESERVED_REPOS, _reserved

EVAL = PROJECT_ROOT / "eval"
CONVERSATIONS = EVAL / "conversations"
FIRST_REPORTS = EVAL / "first-reports" / "reports.jsonl"

FIELDS = {"file", "source", "org", "license", "fold", "date", "service", "not_an_incident", "root_cause_keywords",
          "fix_keywords", "found_keywords", "failed_attempts", "not_attempts"}  # fmt: skip
KINDS = {"plan", "follow_up", "critique", "recovery", "metadata"}


def truths() -> list[dict]:
    return [json.loads(line) for line in (CONVERSATIONS / "truth.jsonl").read_text(encoding="utf-8").splitlines()]


def conversation(name: str) -> dict:
    return json.loads((CONVERSATIONS / name).read_text(encoding="utf-8"))


def phrases(truth: dict) -> list[str]:
    return (
        truth["root_cause_keywords"]
        + truth["fix_keywords"]
        + truth["found_keywords"]
        + [k for attempt in truth["failed_attempts"] for k in attempt["action_keywords"]]
        + [k for other in truth["not_attempts"] for k in other["keywords"]]
    )


def reserved_in(truth_or_report: dict, *sources: str) -> list[str]:
    """The reservations (issue 22, eval/README.md "Reserved") a label's or a first report's source addresses, or its
    organisation names as a word of its own: tests/test_eval_corpus.py's one list and matcher."""
    words = set(re.findall(r"[a-z0-9][a-z0-9.-]*", truth_or_report["org"].lower()))
    return [r for r in map(_reserved, sources) if r] + [org for org in RESERVED_ORGS if org in words]


def linked_in(text: str) -> list[str]:
    """The reserved repositories and posts a text (a conversation's messages) links to: an organisation's own site,
    e.g. a project's docs on readthedocs.io, is no link to its trackers, so organisations are matched in sources only."""
    lowered = text.lower()
    return [r for r in (*RESERVED_REPOS, *RESERVED_POSTS) if r in lowered]


pytestmark = pytest.mark.skipif(not CONVERSATIONS.is_dir(), reason="eval/conversations is not in this checkout")


def test_every_conversation_is_labelled_once_and_has_the_channel_shape() -> None:
    labelled = [t["file"] for t in truths()]
    assert sorted(labelled) == sorted(p.name for p in CONVERSATIONS.glob("*.json"))
    assert len(labelled) == len(set(labelled)) >= 40
    for truth in truths():
        assert set(truth) == FIELDS, truth["file"]
        conv = conversation(truth["file"])
        assert conv["id"] + ".json" == truth["file"] and conv["org"] == truth["org"] and conv["fold"] == truth["fold"]
        assert conv["source"] == truth["source"] and conv["source"].startswith("https://") and conv["license"]
        assert len(conv["messages"]) >= 2, truth["file"]
        for message in conv["messages"]:
            ts = message["ts"]
            (date.fromisoformat(ts) if len(ts) == 10 else datetime.fromisoformat(ts))  # ISO 8601, day or instant
            assert message["author"].startswith("u") and message["author"][1:].isdigit()  # pseudonymised
            assert message["text"].strip()
        assert all(k["kind"] in KINDS for k in truth["not_attempts"])


def test_every_label_phrase_occurs_in_its_conversation() -> None:
    missing = []
    for truth in truths():
        text = "\n".join(m["text"] for m in conversation(truth["file"])["messages"]).lower()
        missing += [(truth["file"], p) for p in phrases(truth) if p != p.lower() or p not in text]
    assert missing == []


# The anonymiser rewrites user names to u1, u2... even inside a link (`https://u3.pythonanywhere.com`), so a label
# phrase holding one scores a reader only if it copies the rewritten link: the phrase stops measuring reading.
LINKISH = re.compile(r"\S*(?:https?://|www\.|/)\S*|\S+\.(?:com|org|net|io|dev|app|me)\b\S*")
PSEUDONYM = re.compile(r"(?<![a-z0-9])u\d+(?![a-z0-9])")


def pseudonyms_in_links(phrase: str) -> list[str]:
    return [link for link in LINKISH.findall(phrase) if PSEUDONYM.search(link)]


def test_no_label_phrase_holds_a_rewritten_name_inside_a_link() -> None:
    assert pseudonyms_in_links("that page is actually https://u3.pythonanywhere.com") != []  # the check can fail
    assert pseudonyms_in_links("restarted u3's worker, see https://status.example.com") == []
    hits = [(t["file"], p) for t in truths() for p in phrases(t) if pseudonyms_in_links(p)]
    assert hits == []


def test_no_reserved_source_is_used() -> None:
    hits = []
    for truth in truths():
        conv = conversation(truth["file"])
        hits += [(truth["file"], r) for r in reserved_in(truth, truth["source"], conv["source"])]
        hits += [(truth["file"], r) for r in linked_in(json.dumps(conv["messages"]))]
    if FIRST_REPORTS.is_file():
        for line in FIRST_REPORTS.read_text(encoding="utf-8").splitlines():
            report = json.loads(line)
            hits += [(report["id"], r) for r in reserved_in(report, report["source"])]
    assert hits == []
    # the check can fail, and reads an address, not a word in it: a person's own repository named after a reserved
    # project is not that project's tracker (pm28's nixos-config, 2026-12-07, review F63)
    assert reserved_in({"org": "NixOS"}, "https://discourse.nixos.org/t/1") == ["nixos", "nixos"]
    assert reserved_in({"org": "x"}, "https://github.com/Homebrew/brew.sh/issues/1") == ["homebrew/brew.sh"]
    assert linked_in("see https://github.com/flutter/flutter/issues/2") == ["flutter/flutter"]
    assert reserved_in({"org": "Wikimedia Foundation"}, "https://example.org/postmortem") == ["wikimedia"]
    assert reserved_in({"org": "ananjiani (nixos-config)"}, "https://github.com/ananjiani/nixos-config/x.md") == []


def test_the_folds_split_by_organisation_with_enough_conversations_without_a_real_attempt() -> None:
    fold_of: dict[str, set[str]] = {}
    for truth in truths():
        fold_of.setdefault(truth["org"], set()).add(truth["fold"])
    assert all(len(folds) == 1 for folds in fold_of.values()), fold_of
    postmortems = EVAL / "postmortems" / "truth.jsonl"
    for line in postmortems.read_text(encoding="utf-8").splitlines() if postmortems.is_file() else []:
        label = json.loads(line)  # an organisation with postmortems too keeps their fold (eval/README.md)
        fold = label.get("fold") or "A"  # the labels from before issue 22 have no fold: all fold A
        assert fold_of.get(label["org"], {fold}) == {fold}, label["org"]
    by_fold = {f: [t for t in truths() if t["fold"] == f] for f in "AB"}
    assert min(len(by_fold["A"]), len(by_fold["B"])) * 3 >= max(len(by_fold["A"]), len(by_fold["B"])) * 2
    assert len({t["org"] for t in by_fold["B"]}) >= 5
    assert sum(not t["failed_attempts"] for t in truths()) >= 10
