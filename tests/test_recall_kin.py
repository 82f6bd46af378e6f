"""kin_rare (issue 27, r27-orgwords): what a memory's opening says of the query's rare words, each word weighed by
how few of the memory's kin (the other candidates written in its own vocabulary: one team's product, hosts and
people) say it too. A product name every memory of a team says is no evidence of the same failure."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.models import MemoryRecord, RecallQuery
from bot.recall.candidates import Candidate
from bot.recall.features import features_of
from bot.recall.kin import KIN_FROM, kin_shares, vocabulary
from bot.recall.signals import measure, opening_terms
from bot.recall.tokens import tokenize

AT = datetime(2026, 1, 1, tzinfo=UTC)
RAREST = 5.0
TEAM = "Zephyr checkout on zephyr-db-2, paged by Aurelio and Mirabel from the orca rota."
"""What every memory of one team says: its product, its host, its people, its rota."""
QUERY = "Zephyr checkout page blank after the coupon deploy"
IDF = {"zephyr": 4.5, "checkout": 2.5, "page": 1.0, "blank": 3.0, "coupon": 4.0, "deploy": 1.5}


def _memory(incident_id: str, title: str, body: str) -> MemoryRecord:
    return MemoryRecord(incident_id=incident_id, team_id="T1", title=title, symptoms=body, created_at=AT,
                        updated_at=AT)  # fmt: skip


def _recall(memories: list[MemoryRecord]) -> tuple[list[MemoryRecord], list[dict[str, float]]]:
    query = RecallQuery(team_id="T1", text=QUERY)
    idf = {tokenize(w)[0]: v for w, v in IDF.items()}
    candidates = []
    for m in memories:
        said = vocabulary(m)
        matched = tuple(t for t in idf if t in said)
        candidates.append(Candidate(m, sum(idf[t] for t in matched), matched, query_idf=idf, rarest_idf=RAREST))
    signals = measure(query, candidates, AT)
    features = features_of(signals, [c.lexical for c in candidates], [opening_terms(m) for m in memories],
                           [vocabulary(m) for m in memories])  # fmt: skip
    return memories, features


def _bank() -> list[MemoryRecord]:
    # three other incidents of the team, each another failure; and other teams' incidents sharing common words
    siblings = [
        _memory(f"ZEP-{n}", f"Zephyr {what}", f"{TEAM} {what} for an hour; {why}.")
        for n, (what, why) in enumerate(
            [("search timeouts", "the index shard filled up"), ("login loop", "a cookie domain changed"),
             ("emails delayed", "the mail relay throttled us")], 1)
    ]  # fmt: skip
    others = [
        _memory(f"OTH-{n}", f"{noun} page slow", f"The {noun} page was slow after a deploy at {place}; {why}.")
        for n, (noun, place, why) in enumerate(
            [("billing", "Umbra", "a missing index"), ("profile", "Kestrel", "a cold cache"),
             ("search", "Lattice", "a noisy neighbour"), ("admin", "Quill", "a long migration"),
             ("status", "Brisk", "an expired token"), ("export", "Fathom", "a full queue")], 1)
    ]  # fmt: skip
    return siblings + others


def test_a_teams_product_name_is_discounted_by_its_other_incidents_and_the_failures_own_words_are_not() -> None:
    right = _memory("ZEP-9", "Zephyr checkout page blank", f"{TEAM} The checkout page went blank after the coupon "
                    "deploy; the coupon bundle failed to load.")  # fmt: skip
    memories, features = _recall([right, *_bank()])
    by_id = {m.incident_id: f for m, f in zip(memories, features, strict=True)}
    sibling = by_id["ZEP-1"]
    # the sibling's opening says the team's words (zephyr, checkout, "paged"): head_rare counts them whole,
    # kin_rare not at all, since each of its kin (the team's other incidents) says them too
    assert sibling["head_rare"] == round((4.5 + 2.5 + 1.0) / RAREST, 4) and sibling["kin_rare_15"] == 0.0
    # the right memory keeps the words only it says (blank, coupon, checkout's page): the product name goes
    assert 0 < by_id["ZEP-9"]["kin_rare_15"] < by_id["ZEP-9"]["head_rare"]
    assert by_id["ZEP-9"]["kin_rare_15"] >= round((3.0 + 4.0) / RAREST, 4)
    # another team's memory has no kin here: its words count as head_rare counts them
    assert by_id["OTH-1"]["kin_rare_15"] == by_id["OTH-1"]["head_rare"]


def test_kin_are_the_candidates_that_share_the_memorys_own_rarer_words_not_a_copy_of_it() -> None:
    memories = _bank()
    said = [vocabulary(m) for m in memories]
    query = frozenset(tokenize(QUERY))
    shares = kin_shares(said, query, range(len(memories)), lambda i, j: False, KIN_FROM[1])
    # each sibling's kin are the two other siblings (both say the team's words); another team's memory has none
    team = {tokenize(w)[0]: 1.0 for w in ("zephyr", "checkout", "paged")}
    assert shares[0] == team and shares[3] == {}
    # a near-duplicate (one incident written twice) is no kin: it would say every word the memory says
    twins = kin_shares(said, query, [0], lambda i, j: {i, j} <= {0, 1}, KIN_FROM[1])
    assert twins[0] == team
    alone = kin_shares(said[:1] + said[3:], query, [0], lambda i, j: False, KIN_FROM[1])
    assert alone[0] == {}


def test_the_thread_model_reads_a_memory_among_its_teams_incidents_apart_from_one_alone() -> None:
    # the team's memories have kin (each other), another team's lone memory has none at 0.15: each reads its
    # features in one half of the split model only, so a model naming both halves weighs the two cases apart
    memories, features = _recall(_bank())
    by_id = {m.incident_id: f for m, f in zip(memories, features, strict=True)}
    sibling, alone = by_id["ZEP-1"], by_id["OTH-2"]
    assert sibling["has_kin_15"] == 1.0 and alone["has_kin_15"] == 0.0
    assert sibling["head_rare_if_kin_15"] == sibling["head_rare"] > 0 and sibling["head_rare_if_lone_15"] == 0.0
    assert alone["head_rare_if_lone_15"] == alone["head_rare"] > 0 and alone["head_rare_if_kin_15"] == 0.0
    # the discounted reading exists on the kin side only: the team's name is no evidence there
    assert sibling["kin_rare_15_if_kin_15"] == sibling["kin_rare_15"] == 0.0


def test_a_memory_is_picked_out_of_its_teams_incidents_by_the_query_words_its_kins_openings_do_not_hold() -> None:
    # kin_exclusive (r27-open): the query's words in the memory's opening that none of its kin's openings hold
    right = _memory("ZEP-9", "Zephyr checkout page blank", f"{TEAM} The checkout page went blank after the coupon "
                    "deploy; the coupon bundle failed to load.")  # fmt: skip
    memories, features = _recall([right, *_bank()])
    by_id = {m.incident_id: f for m, f in zip(memories, features, strict=True)}
    # a sibling's opening says only the team's name, which its kin's openings say too: nothing picks it out
    assert by_id["ZEP-1"]["head_rare"] > 0 and by_id["ZEP-1"]["kin_exclusive_15"] == 0.0
    # the right memory's opening (title and symptoms) says blank, coupon, deploy besides the team's words (zephyr,
    # checkout, "paged"): those pick it out of its team's incidents
    assert by_id["ZEP-9"]["kin_exclusive_15"] == round((3.0 + 4.0 + 1.5) / RAREST, 4)
    # a memory without kin reads 0 (head_rare keeps its words): the feature moves only a team's own memories
    assert by_id["OTH-1"]["head_rare"] > 0 and by_id["OTH-1"]["kin_exclusive_15"] == 0.0
