"""Recurrences (issue 27, eval/first-reports/recurrences.jsonl): a later incident's first report paired with the
earlier incident of the same failure that eval/ already holds. The query the product lives by: today's first
words, and the memory of the last time. Files only: every pair's target exists and keeps its label's organisation
and fold, the later text is not the earlier's, its sameness is said in the later thread's own words, the later
report is dated after the earlier incident, and nothing comes from a reserved source."""

from __future__ import annotations

import functools
import json
import re
from datetime import date

import pytest

from bot.config import PROJECT_ROOT
from tests.test_eval_conversations import linked_in
from tests.test_eval_corpus import _reserved

EVAL = PROJECT_ROOT / "eval"
RECURRENCES = EVAL / "first-reports" / "recurrences.jsonl"
FIELDS = {"id", "org", "fold", "text", "ts", "target", "source", "sameness", "links_earlier"}
OPTIONAL = {"later_replies", "later_in_corpus"}

pytestmark = pytest.mark.skipif(not RECURRENCES.is_file(), reason="eval/first-reports/recurrences.jsonl is absent")


def pairs() -> list[dict]:
    return [json.loads(line) for line in RECURRENCES.read_text(encoding="utf-8").splitlines()]


@functools.cache
def labels(corpus: str) -> dict[str, dict]:
    by_file: dict[str, dict] = {}
    for line in (EVAL / corpus / "truth.jsonl").read_text(encoding="utf-8").splitlines():
        label = json.loads(line)
        by_file.setdefault(label["file"], label)
    return by_file


def label_of(target: str) -> dict:
    corpus, name = target.split("/", 1)
    assert corpus in ("conversations", "postmortems"), target
    return labels(corpus)[name]


def item_text(target: str) -> str:
    path = EVAL / target
    if target.startswith("conversations/"):
        return "\n".join(m["text"] for m in json.loads(path.read_text(encoding="utf-8"))["messages"])
    return path.read_text(encoding="utf-8").replace("\r\n", "\n")


def test_every_pair_has_the_fields_and_keeps_its_targets_organisation_and_fold() -> None:
    found = pairs()
    assert len(found) >= 40 and len({p["org"] for p in found}) >= 20 and {p["fold"] for p in found} == {"A", "B"}
    assert len({p["id"] for p in found}) == len(found)
    for pair in found:
        assert FIELDS <= set(pair) <= FIELDS | OPTIONAL, pair["id"]
        assert (EVAL / pair["target"]).is_file(), pair["id"]
        stem = pair["target"].split("/", 1)[1].rsplit(".", 1)[0]
        assert pair["id"].startswith(f"rec-{stem}-"), pair["id"]
        label = label_of(pair["target"])
        assert pair["org"] == label["org"] and pair["fold"] == (label.get("fold") or "A"), pair["id"]
        assert pair["text"].strip() and isinstance(pair["links_earlier"], bool), pair["id"]
        assert re.fullmatch(r"https://\S+", pair["source"]), pair["id"]


def test_the_later_report_is_dated_after_the_earlier_incident() -> None:
    for pair in pairs():
        later = date.fromisoformat(pair["ts"])  # the later opening's day
        earlier = label_of(pair["target"]).get("date")
        assert earlier and later > date.fromisoformat(earlier), pair["id"]


def test_sameness_is_said_in_the_later_threads_own_words() -> None:
    for pair in pairs():
        said = [pair["text"]] + pair.get("later_replies", [])
        assert pair["sameness"] == pair["sameness"].lower(), pair["id"]
        assert any(pair["sameness"] in s.lower() for s in said), pair["id"]


def test_the_later_text_is_not_the_earlier_incidents() -> None:
    for pair in pairs():
        earlier = item_text(pair["target"])
        assert pair["text"] not in earlier, pair["id"]  # a title may repeat ("Server Error (500)"), a report not
        later = pair.get("later_in_corpus")
        if later:  # the later incident is an item of eval/ too: the text is its own first report, quoted exactly
            assert later != pair["target"] and (EVAL / later).is_file(), pair["id"]
            if later.startswith("conversations/"):
                opening = json.loads((EVAL / later).read_text(encoding="utf-8"))["messages"][0]["text"]
                assert pair["text"] == opening, pair["id"]
            else:
                body = item_text(later)
                assert all(s in body for s in [pair["text"]] + pair.get("later_replies", [])), pair["id"]


def test_no_pair_comes_from_a_reserved_source() -> None:
    assert _reserved("https://github.com/conda-forge/status/issues/1") == "conda-forge"  # the check can fail
    hits = [(p["id"], p["source"]) for p in pairs() if _reserved(p["source"])]
    hits += [(p["id"], r) for p in pairs() for r in linked_in(p["text"])]  # links to them
    assert hits == []
