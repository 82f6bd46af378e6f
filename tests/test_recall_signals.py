"""The error signature and the incident vocabulary, alone: the same failure with other ids is
the same signature; the same mechanism in other words is the same concept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.recall.concepts import VocabularyError, load_vocabulary
from bot.recall.signature import error_signature, normalize_error


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("2024-03-01T10:22:33.123Z ERROR HikariPool-1 - Connection is not available, request timed out after 30000ms.",
         "2025-11-20 08:01:02,555 ERROR HikariPool-4 - Connection is not available, request timed out after 5000ms."),
        ("dial tcp 10.0.3.17:5432: connect: connection refused", "dial tcp 192.168.1.9:6432: connect: connection refused"),
        ("request 3f2a1b9c-1d2e-4f5a-9b8c-7d6e5f4a3b2c failed: object 0xdeadbeef gone",
         "request 0e8f2b10-aaaa-4bbb-8ccc-123456789abc failed: object 0x1f2e3d gone"),
        ("write /var/lib/shipper/chunk-8812.log: no space left on device",
         "write /data/other/buffer/chunk-1.log: no space left on device"),
        ("commit a3f9c21b7e failed", "commit 77be01c9d2 failed"),
    ],
)  # fmt: skip
def test_the_same_failure_with_other_ids_has_one_signature(first: str, second: str) -> None:
    assert error_signature(first) == error_signature(second) is not None


def test_different_failures_have_different_signatures() -> None:
    assert error_signature("connection refused") != error_signature("connection reset by peer")


def test_the_signature_is_the_telling_line_not_the_log_noise() -> None:
    trace = "INFO starting worker 7\njava.lang.IllegalStateException: queue closed\n  at a.b.C.run(C.java:12)"
    assert error_signature(trace) == "java.lang.illegalstateexception: queue closed"
    assert error_signature(None) is None and error_signature("12345 0xff") is None
    assert normalize_error("Took 12.5s at 10:22:01") == "took s at"


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        ("pool checkout timed out", "connection pool exhaustion"),
        ("FATAL: remaining connection slots are reserved", "connection pool exhaustion"),
        ("pod OOMKilled", "out of memory kill"),
        ("java.lang.OutOfMemoryError: Java heap space", "out of memory kill"),
        ("no space left on device", "disk full"),
        ("x509: certificate has expired", "certificate expiry"),
        ("Temporary failure in name resolution", "dns failure"),
        ("429 Too Many Requests", "rate limiting"),
        ("ERROR: deadlock detected", "deadlock"),
    ],
)
def test_words_for_one_mechanism_name_one_concept(text: str, concept: str) -> None:
    assert concept in load_vocabulary().detect(text)


def test_a_word_alone_is_not_a_mechanism() -> None:
    vocabulary = load_vocabulary()
    assert vocabulary.detect("memory usage is fine, disk is fine, HTTP 200") == ()
    assert vocabulary.detect("the query planner picks a bad plan") == ()


def test_a_team_extends_the_vocabulary_with_its_own_file(tmp_path: Path) -> None:
    own = tmp_path / "concepts.json"
    own.write_text(json.dumps({"concepts": [
        {"name": "connection pool exhaustion", "phrases": ["pgbouncer cl_waiting"]},
        {"name": "feature flag storm", "phrases": ["flag service overloaded"]},
    ]}))  # fmt: skip
    vocabulary = load_vocabulary(own)
    assert vocabulary.detect("pgbouncer cl_waiting climbing") == ("connection pool exhaustion",)
    assert vocabulary.detect("the flag service was overloaded") == ("feature flag storm",)
    own.write_text('{"concepts": [{"name": "x"}]}')
    with pytest.raises(VocabularyError, match="phrases"):
        load_vocabulary.__wrapped__(own)
