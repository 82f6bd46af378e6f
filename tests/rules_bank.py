"""A seeded memory bank for the rules tests: one recurring, confirmed pool leak (four episodes,
each worded its own way), the same story unconfirmed (two) and rejected (one), and confirmed
incidents of other causes, one of them the same symptom with another root cause."""

from __future__ import annotations

HIKARI = "HikariPool-1 - Connection is not available, request timed out after {ms}ms."


def leak(incident_id: str, when: str, **fields: object) -> dict:
    return {"incident_id": incident_id, "service": "payments", "occurred_at": when, "verified_by": "maya",
            "truth_state": "human_confirmed", **fields}  # fmt: skip


CONFIRMED_LEAKS = [
    leak(
        "INC-101",
        "2026-03-02T10:00:00Z",
        title="Payments API 503s: connection pool exhausted",
        symptoms="checkout latency at 30 s, 503s from payments",
        error_message=HIKARI.format(ms=30000),
        root_cause="The retry helper leaked a connection on every timed-out retry until the pool was exhausted",
        diagnosis="pg_stat_activity showed hundreds of idle in transaction sessions from the payments retry path",
        resolution="Released the connection in the retry helper's finally block",
        failed_attempts=[
            {"action": "Restart the payments pods", "why_it_failed": "the pool filled again within 20 minutes"},
            {"action": "Raise the pool size to 50", "why_it_failed": "only delayed the exhaustion"},
        ],
    ),
    leak(
        "INC-102",
        "2026-04-14T09:30:00Z",
        title="Card payments failing: could not get connection",
        symptoms="card payments time out",
        error_message=HIKARI.format(ms=30004),
        root_cause="Timeouts in the retry helper skipped releasing the connection",
        diagnosis="Pool metrics: active connections at limit while database CPU idle; traced to the retry helper",
        resolution="Patched the retry helper to release connections when a retry times out",
        failed_attempts=[{"action": "restart the payments pods", "why_it_failed": "bought 15 minutes"}],
    ),
    leak(
        "INC-103",
        "2026-06-09T18:05:00Z",
        title="payments timeouts at peak",
        symptoms="pool checkout timed out in payments workers",
        error_message="psycopg_pool.PoolTimeout: couldn't get a connection after 30.00 sec",
        root_cause="Retry helper leak: connections held by abandoned retries",
        diagnosis="Counted idle in transaction sessions per application_name: all from the retry helper",
        resolution="The retry helper now releases its connection before retrying",
        failed_attempts=[{"action": "Restart the payments pods", "why_it_failed": "the pool drained again in minutes"}],
    ),
    leak(
        "INC-104",
        "2026-08-21T03:12:00Z",
        title="Payments down: too many clients",
        symptoms="every payment fails",
        error_message="FATAL: remaining connection slots are reserved for non-replication superuser connections",
        root_cause="A new code path in the retry helper did not release its connection (release not in finally)",
        diagnosis="pg_stat_activity: idle in transaction sessions from the retry helper's new path",
        resolution="Moved the release in the retry helper into finally and added a leak test",
        failed_attempts=[{"action": "Fail over to the replica", "why_it_failed": "the replica's pool filled too"}],
        truth_state="verification_confirmed",
        verification_note="no idle in transaction sessions for seven days",
    ),
]

NOT_EVIDENCE = [
    leak(
        "INC-106",
        "2026-05-01T12:00:00Z",
        truth_state="unconfirmed_hypothesis",
        verified_by=None,
        title="Payments pool exhausted again?",
        error_message=HIKARI.format(ms=30001),
        root_cause="Probably the retry helper leaking connections",
        resolution="Restarted pods; fixed the retry helper",
    ),
    leak(
        "INC-107",
        "2026-07-03T12:00:00Z",
        truth_state="unconfirmed_hypothesis",
        verified_by=None,
        title="Payments 503s, pool checkout timeout",
        root_cause="Retry helper leak suspected",
        resolution="Released connections in the retry helper",
    ),
    leak(
        "INC-108",
        "2026-07-20T12:00:00Z",
        truth_state="unconfirmed_hypothesis",
        verified_by=None,
        title="Payments connection pool exhausted during deploy",
        error_message=HIKARI.format(ms=30002),
        root_cause="The retry helper leaked connections",
        resolution="Released the connection in the retry helper",
    ),
]
REJECTED = "INC-108"  # rejected by the test after retaining: the truth machine records the move

OTHER_CAUSES = [
    leak(
        "INC-105",
        "2026-11-27T20:00:00Z",
        title="Payments pool exhausted on Black Friday",
        symptoms="payments slow under triple traffic",
        error_message=HIKARI.format(ms=30000),
        root_cause="Traffic tripled and 20 connections were too few for the worker count",
        diagnosis="Request rate 3x the usual; no idle in transaction sessions",
        resolution="Raised the pool size to 60 and added a read replica",
    ),
    leak(
        "INC-201",
        "2026-02-01T08:00:00Z",
        service="search",
        title="Search indexer stopped: no space left on device",
        error_message="OSError: [Errno 28] No space left on device: '/var/lib/search/segments'",
        root_cause="Old index segments were never pruned and the disk filled",
        resolution="Pruned old segments and added a retention job",
    ),
    leak(
        "INC-202",
        "2026-09-01T08:00:00Z",
        service="search",
        title="Search disk full again",
        error_message="OSError: [Errno 28] No space left on device: '/var/lib/search/tmp'",
        root_cause="Merge temp files kept after a crash filled the disk",
        resolution="Deleted the temp files; the merge now cleans up on start",
    ),
]

BANK = CONFIRMED_LEAKS + NOT_EVIDENCE + OTHER_CAUSES
LEAK_IDS = sorted(m["incident_id"] for m in CONFIRMED_LEAKS)
