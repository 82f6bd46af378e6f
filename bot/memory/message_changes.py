"""The Postgres adapter for messages people delete or edit after the bot stored them.

Every table that holds a channel message's words follows Slack: the timeline (the CURRENT
evidence), the marks made with "Add to incident memory", and the drafts kept to compare a
submission with (a drafted field that quotes the message is left out). A deletion also leaves a
tombstone (ids only), so a late delivery of the message does not bring it back. A saved memory
keeps what a person confirmed: it stores the ts of the messages it was drafted from, never their
words. Retention (`prune`) covers the marks and drafts as the timeline's does.
"""

from __future__ import annotations

import asyncpg

from bot.drafting.models import ResolutionDraft
from bot.memory.pool import acquire

TOMBSTONES_KEPT_HOURS = 7 * 24.0


class PostgresMessageChanges:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def deleted(self, team_id: str, channel_id: str, message_ts: str) -> int:
        """Forget the message everywhere it is stored; the number of rows it was in."""
        async with acquire(self._pool) as conn, conn.transaction():
            await conn.execute(
                """INSERT INTO deleted_messages (team_id, channel_id, message_ts) VALUES ($1, $2, $3)
                   ON CONFLICT DO NOTHING""",
                team_id, channel_id, message_ts,
            )  # fmt: skip
            gone = await conn.fetchval(
                """WITH gone AS (DELETE FROM timeline_entries WHERE team_id = $1 AND channel_id = $2
                                 AND message_ts = $3 RETURNING 1) SELECT count(*) FROM gone""",
                team_id, channel_id, message_ts,
            )  # fmt: skip
            gone += await conn.fetchval(
                """WITH gone AS (DELETE FROM incident_marks m USING incidents i
                                 WHERE m.incident_pk = i.pk AND i.team_id = $1 AND i.channel_id = $2
                                   AND m.message_ts = $3 RETURNING 1) SELECT count(*) FROM gone""",
                team_id, channel_id, message_ts,
            )  # fmt: skip
            return gone + await self._drafts_without(conn, team_id, channel_id, message_ts)

    async def edited(self, team_id: str, channel_id: str, message_ts: str, text: str) -> int:
        """Replace the message's words by its new text; drafted fields quoting the old words go."""
        async with acquire(self._pool) as conn, conn.transaction():
            changed = await conn.fetchval(
                """WITH changed AS (UPDATE timeline_entries SET text = $4 WHERE team_id = $1 AND channel_id = $2
                                    AND message_ts = $3 RETURNING 1) SELECT count(*) FROM changed""",
                team_id, channel_id, message_ts, text,
            )  # fmt: skip
            changed += await conn.fetchval(
                """WITH changed AS (UPDATE incident_marks m SET text = $4 FROM incidents i
                                    WHERE m.incident_pk = i.pk AND i.team_id = $1 AND i.channel_id = $2
                                      AND m.message_ts = $3 RETURNING 1) SELECT count(*) FROM changed""",
                team_id, channel_id, message_ts, text,
            )  # fmt: skip
            return changed + await self._drafts_without(conn, team_id, channel_id, message_ts)

    async def _drafts_without(self, conn: asyncpg.Connection, team_id: str, channel_id: str, message_ts: str) -> int:
        rows = await conn.fetch(
            """SELECT d.id, d.draft FROM resolution_drafts d JOIN incidents i ON i.pk = d.incident_pk
               WHERE i.team_id = $1 AND i.channel_id = $2
                 AND jsonb_path_exists(d.draft, '$.**.message_ts ? (@ == $ts)', jsonb_build_object('ts', $3::text))
               FOR UPDATE OF d""",
            team_id, channel_id, message_ts,
        )  # fmt: skip
        for row in rows:
            draft = ResolutionDraft.model_validate(row["draft"]).without_message(message_ts)
            await conn.execute(
                "UPDATE resolution_drafts SET draft = $2 WHERE id = $1", row["id"], draft.model_dump(mode="json")
            )
        return len(rows)

    async def prune(self, resolved_days_ago: float) -> int:
        """Marks and drafts of incidents resolved over `resolved_days_ago` days ago (they hold
        message text, as the timeline does), and tombstones past every job's rerun."""
        async with acquire(self._pool) as conn, conn.transaction():
            pruned = 0
            for table in ("incident_marks", "resolution_drafts"):
                pruned += await conn.fetchval(
                    f"""WITH gone AS (DELETE FROM {table} x USING incidents i
                                      WHERE x.incident_pk = i.pk AND i.status = 'resolved'
                                        AND i.resolved_at < now() - make_interval(secs => $1)
                                      RETURNING 1) SELECT count(*) FROM gone""",
                    resolved_days_ago * 86400.0,
                )  # fmt: skip
            await conn.execute(
                "DELETE FROM deleted_messages WHERE deleted_at < now() - make_interval(secs => $1)",
                TOMBSTONES_KEPT_HOURS * 3600.0,
            )
            return pruned
