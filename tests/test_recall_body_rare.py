"""body_rare (issue 27, r27-feat): how much of the query's rare vocabulary a memory holds anywhere, in its
three rarest words. A neighbour shares a first report's common incident words; the same failure also says
the words few memories say (a product, a host, a code-name), in its opening or deep in its body."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.models import MemoryRecord, RecallQuery
from bot.recall.candidates import Candidate
from bot.recall.features import features_of
from bot.recall.signals import RARE_COUNTED, measure
from bot.recall.tokens import tokenize

AT = datetime(2026, 1, 1, tzinfo=UTC)
RAREST = 4.6


def _memory(incident_id: str, **fields: str) -> MemoryRecord:
    return MemoryRecord(incident_id=incident_id, team_id="T1", created_at=AT, updated_at=AT, **fields)


def _term(word: str) -> str:
    return tokenize(word)[0]


def test_the_same_failure_holds_more_of_the_querys_rare_words_than_a_neighbour_sharing_its_common_ones() -> None:
    query = RecallQuery(team_id="T1", text="Kestrel ingest stalled on shard rebalance, dashboards slow, errors")
    idf = {_term(w): v for w, v in (("Kestrel", 4.0), ("ingest", 3.0), ("rebalance", 3.5), ("shard", 2.5),
                                    ("stalled", 2.0), ("dashboards", 1.2), ("slow", 0.8), ("errors", 0.6))}  # fmt: skip

    def candidate(record: MemoryRecord, lexical: float, *words: str) -> Candidate:
        return Candidate(record, lexical, tuple(_term(w) for w in words), query_idf=idf, rarest_idf=RAREST)

    # the right memory says the rare words in its body (its opening is the responder's "dashboards slow")
    right = _memory("INC-1", title="Dashboards slow", symptoms="Dashboards were slow.",
                    root_cause="The Kestrel ingest stalled while a shard rebalance ran.")  # fmt: skip
    neighbour = _memory("INC-2", title="Slow dashboards and errors", symptoms="Dashboards slow, errors everywhere.")
    found = measure(query, [candidate(neighbour, 1.0, "dashboards", "slow", "errors"),
                            candidate(right, 0.9, "Kestrel", "ingest", "rebalance", "shard", "dashboards", "slow")],
                    AT)  # fmt: skip
    # the three rarest each holds, summed, in terms no memory holds
    assert found[0].body_rarity == (1.2 + 0.8 + 0.6) / RAREST
    assert found[1].body_rarity == (4.0 + 3.5 + 3.0) / RAREST  # only RARE_COUNTED count: not shard's 2.5
    assert RARE_COUNTED == 3
    # the opening alone does not tell them apart: the neighbour's holds as much of the query there
    assert found[0].head >= found[1].head
    features = features_of(found, [1.0, 0.9])
    assert [f["body_rare"] for f in features] == [round((1.2 + 0.8 + 0.6) / RAREST, 4), round(10.5 / RAREST, 4)]
    assert features[1]["body_rare"] > features[0]["body_rare"]


def test_a_memory_matching_nothing_or_a_bank_without_idf_holds_no_rare_words() -> None:
    query = RecallQuery(team_id="T1", text="Kestrel ingest stalled")
    record = _memory("INC-1", title="Kestrel ingest stalled")
    idf = {_term("Kestrel"): 4.0}
    assert measure(query, [Candidate(record, 1.0, (), query_idf=idf, rarest_idf=RAREST)], AT)[0].body_rarity == 0.0
    assert measure(query, [Candidate(record, 1.0, (_term("Kestrel"),), query_idf=idf)], AT)[0].body_rarity == 0.0
