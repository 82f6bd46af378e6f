"""The incident conversations and first reports under eval/ (issue 22): every label phrase is in
its item's own text, nothing comes from a source reserved for the independent check, and the two
folds split by organisation. Offline: files only."""

from __future__ import annotations

import json
import re
from datetime import date, datetime

import pytest

from bot.config import PROJECT_ROOT

EVAL = PROJECT_ROOT / "eval"
CONVERSATIONS = EVAL / "conversations"
FIRST_REPORTS = EVAL / "first-reports" / "reports.jsonl"

# The sources the issue keeps aside for an independent check (issue 22, "Reserved"): repositories,
# and organisations whose trackers and incident wikis are off limits.
RESERVED = (
    "dfds/postmortems", "usdigitalresponse/univaf", "rust-lang/blog.rust-lang.org", "flutter/flutter",
    "homebrew/brew.sh", "felvin-search/docs", "about.gitlab.com/blog/2017/02/10", "gitlab.com/gitlab-com/www-gitlab-com",
    "adoptium", "conda-forge", "rust-lang/docs.rs", "jenkins-infra", "kata-containers", "hholzgra/maposmatic",
    "nixos", "ocaml", "openstreetmap", "drolbr/overpass-api", "readthedocs", "wikimedia", "miraheze", "orain",
)  # fmt: skip
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


def is_reserved(text: str) -> list[str]:
    lowered = text.lower()
    return [r for r in RESERVED if r in lowered]


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
        hits += [(truth["file"], r) for r in is_reserved(" ".join([truth["source"], truth["org"], conv["source"]]))]
        hits += [(truth["file"], r) for r in is_reserved(json.dumps(conv["messages"])) if "/" in r]  # links to them
    if FIRST_REPORTS.is_file():
        for line in FIRST_REPORTS.read_text(encoding="utf-8").splitlines():
            report = json.loads(line)
            hits += [(report["id"], r) for r in is_reserved(" ".join([report["source"], report["org"]]))]
    assert hits == []


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
