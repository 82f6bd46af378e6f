"""The one reader: statements in, typed findings with their quotes out (bot/reader)."""

from __future__ import annotations

import pytest

from bot.reader import (
    MAX_STATEMENT_CHARS,
    MAX_STATEMENTS,
    Kind,
    Outcome,
    Stance,
    Statement,
    is_metadata,
    read,
)
from bot.reader import sentences as sentence_model
from bot.reader.sentences import word_features
from tests.test_reading_limits import count_patterns


def timeline(*entries: str) -> list[Statement]:
    return [Statement(text, ref=f"timeline entry {i}", section="timeline") for i, text in enumerate(entries)]


def test_an_action_whose_failure_is_said_in_the_next_entry_is_a_failed_attempt_quoting_both() -> None:
    reading = read(
        timeline(
            "12:05 Engineer attempts hub pod restarts.",
            "Still 503 errors on every request.",
            "Hub redeployed, service restored.",
        )
    )
    [attempt] = reading.failed_attempts()
    assert attempt.outcome is Outcome.DID_NOT_WORK
    assert "hub pod restarts" in attempt.text
    assert "Still 503 errors" in attempt.why
    assert [q.statement for q in attempt.quotes] == [0, 1]
    assert [f.quotes[0].statement for f in reading.fixes()] == [2]


def test_a_duration_or_impact_line_is_metadata_never_a_fix_or_a_cause() -> None:
    statements = [
        Statement("Time to resolve: 31 minutes", section="summary"),
        Statement(
            "About 1,200 users were affected. The outage was caused by an expired certificate.", section="summary"
        ),
    ]
    reading = read(statements)
    assert [f.text for f in reading.of(Kind.METADATA)] == [
        "Time to resolve: 31 minutes",
        "About 1,200 users were affected.",
    ]
    assert [f.text for f in reading.causes()] == ["The outage was caused by an expired certificate."]
    assert not reading.fixes()
    assert is_metadata("Duration: 2h") and not is_metadata("We restarted the database")


def test_a_cause_is_asserted_hedged_or_negated() -> None:
    reading = read(
        [
            Statement("The root cause was a misconfigured load balancer.", section="summary"),
            Statement("We suspect the cache eviction was triggered by the deploy.", section="summary"),
            Statement("The database was not the cause of the errors.", section="summary"),
        ]
    )
    assert [f.stance for f in reading.causes()] == [Stance.ASSERTED, Stance.HEDGED, Stance.NEGATED]


def test_a_critique_of_the_response_is_never_an_attempt() -> None:
    reading = read([Statement("It took us 9 hours to notice that the restart did not help.", section="summary")])
    assert not reading.failed_attempts()
    assert reading.of(Kind.CRITIQUE)


def test_channel_messages_give_attempts_causes_and_fixes_with_their_quotes() -> None:
    reading = read(
        [
            Statement("restarted payments pods, errors back after 25 minutes", ref="1.1"),
            Statement("root cause was the connection pool size", ref="1.2"),
            Statement("the fix was raising the pool to 50", ref="1.3"),
        ],
        mode="chat",
    )
    [attempt] = reading.failed_attempts()
    assert attempt.quotes[0].ref == "1.1" and attempt.why.startswith("Errors back")
    assert reading.causes()[0].text == "The connection pool size"
    assert reading.fixes()[0].quotes[0].ref == "1.3"


def test_the_reader_reads_within_its_caps_and_says_what_it_left() -> None:
    many = [Statement("restarted it, still failing", ref=str(i)) for i in range(MAX_STATEMENTS + 5)]
    reading = read(many, mode="chat")
    assert len(reading.failed_attempts()) == MAX_STATEMENTS
    assert "5 statements" in reading.notes[0]
    long = read([Statement("x " * MAX_STATEMENT_CHARS + "root cause was the cache")], mode="chat")
    assert not long.causes() and long.notes  # past the statement's cap: not read


def test_a_postmortem_keeps_its_durations_and_impact_counts_out_of_the_fix_and_the_cause() -> None:
    from bot.reader import without_metadata

    assert without_metadata("Time to resolve: 31 minutes") == ""
    assert (
        without_metadata(
            "A bad deploy broke logins. The site was unusable for about 1h50m. 415 jobs were unable to start."
        )
        == "A bad deploy broke logins."
    )
    # a duration that is part of the cause stays with it
    kept = "The renewal job had been failing silently for 30 days after the token was revoked."
    assert without_metadata(kept) == kept


def test_the_sentence_model_keeps_only_what_it_is_sure_of_and_never_a_quoted_error() -> None:
    from bot.reader.sentences import Candidate, Head, SentenceModel, best, model, use_model

    shipped = model()
    assert {"cause", "fix"} <= set(shipped.heads) and shipped.fitted_on  # the coefficients ship with the package
    assert all(0 < h.threshold < 1 and h.weights for h in shipped.heads.values())
    candidates = [
        Candidate("The transit provider was passing traffic on damaged fiber.", "summary"),
        Candidate("Users saw `fetch timed out` on every page.", "summary"),
        Candidate("We posted an update on the status page.", "summary"),
    ]
    toy = SentenceModel({"cause": Head(-2.0, {"w:fiber": 4.0, "w:fetch": 4.0}, threshold=0.5, keep=1)})
    use_model(toy)
    try:
        assert [c.text for c, _ in best(candidates, "cause")] == [candidates[0].text]
        assert best(candidates[1:], "cause") == []  # the quoted error is never picked, the rest not sure enough
        assert best(candidates, "fix") == []  # no head, no finding
    finally:
        use_model(None)


def test_an_action_two_entries_before_still_failing_is_a_failed_attempt() -> None:
    reading = read(
        timeline(
            "We restarted the ingress controller.",
            "Checked the dashboards for the load balancer.",
            "Still failing for every request.",
        )
    )
    [attempt] = reading.failed_attempts()
    assert attempt.text == "We restarted the ingress controller" and attempt.why == "Still failing for every request"


def test_a_failure_that_names_no_action_or_comes_before_the_incident_is_not_an_attempt() -> None:
    said = [
        Statement("Tried resetting the token, it did not help.", section="resolution"),
        Statement("As said above, it did not work at first try because the MAC was not set.", section="resolution"),
        Statement("The day before, Charles had to reboot the proxy and it did not help.", section="resolution"),
    ]
    assert [a.quotes[0].statement for a in read(said).failed_attempts()] == [0]


def test_an_attempt_tested_or_failing_in_the_next_sentence_is_read_as_one() -> None:
    said = [
        Statement(
            "Latest deploy is attempted. Deploying to master fails due to a bug in the culler.", section="timeline"
        ),
        Statement("I issued a `zfs rollback` to see if it would help, it didn't.", section="resolution"),
        Statement("Deploy of a minor bump fails due to the failure to create ssh tunnels.", section="resolution"),
    ]
    attempts = read(said).failed_attempts()
    assert [a.quotes[0].statement for a in attempts] == [0, 1]
    assert attempts[0].text == "Latest deploy is attempted" and attempts[0].why.startswith("Deploying to master fails")


def test_the_words_read_of_a_sentence_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    tally = count_patterns(monkeypatch, sentence_model)
    flood = "restarted the pool again " * 2_000  # 50,000 characters
    found = word_features(flood)
    assert tally[0] <= sentence_model.MAX_SENTENCE_CHARS
    assert len(found) <= 2 * 60  # the first 60 words and their pairs
