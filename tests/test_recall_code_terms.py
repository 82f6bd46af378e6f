"""The error signature a responder types (issue 27, r27): the query's code-shaped terms (status and error codes,
hosts, exception and service names) and the features that read where a memory holds them. No shipped model reads
them (docs/BENCHMARKS.md, issue 27, r27); a team's refit may."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.models import MemoryRecord, RecallQuery
from bot.recall.candidates import Candidate
from bot.recall.features import features_of
from bot.recall.signals import measure
from bot.recall.tokens import code_terms, tokenize


def test_codes_hosts_and_exception_names_are_code_terms_and_plain_words_are_not() -> None:
    report = "Checkout returns 502 from api.shop.example, NullPointerException in PaymentService; errno 28. DOWN"
    assert code_terms(report) == {"502", "api.shop.example", "nullpointerexception", "paymentservice", "errno:28"}
    assert code_terms("The site is DOWN again, checkout slow, e.g. for @u2", None) == frozenset()


def test_the_memory_whose_opening_says_the_reports_codes_leads_its_neighbours_on_them() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    query = RecallQuery(team_id="T1", text="checkout 502 from api.shop.example, customers see errors")
    idf = {term: 2.0 for term in tokenize(query.text)} | {"502": 3.0, "api.shop.example": 4.0}

    def candidate(incident_id: str, lexical: float, symptoms: str, *matched: str) -> Candidate:
        record = MemoryRecord(incident_id=incident_id, team_id="T1", created_at=at, updated_at=at,
                              title="Checkout errors", symptoms=symptoms)  # fmt: skip
        return Candidate(record, lexical, ("checkout", "error", *matched), query_idf=idf, rarest_idf=4.0)

    same = candidate("INC-1", 1.0, "api.shop.example answered 502 to checkout", "502", "api.shop.example")
    words = candidate("INC-2", 0.9, "Customers saw errors at checkout")
    body = candidate("INC-3", 0.8, "Customers saw errors at checkout", "502")  # the code in its body only
    signals = measure(query, [same, words, body], at)
    assert [s.code_rarity for s in signals] == [7.0 / 4.0, 0.0, 0.0]
    assert [s.code_anywhere for s in signals] == [7.0 / 4.0, 0.0, 3.0 / 4.0]
    features = features_of(signals, [1.0, 0.9, 0.8])
    assert [f["code_rare"] for f in features] == [1.75, 0.0, 0.0]
    assert [f["code_lead"] for f in features] == [1.75, -1.75, -1.75]  # the gap to the best other of the five
    assert features[0]["code_standout"] == features[0]["score_z"] > 0 and features[1]["code_standout"] == 0.0
    assert features[2]["code_body"] == 0.75
