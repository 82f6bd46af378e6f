-- Authority and audit: who did what is a Slack user id (or `cli:<operator>`), with the name they
-- had at the time beside it (names change; ids do not). Purges leave a content-free record.

ALTER TABLE memory_corrections ADD COLUMN author_name text;
ALTER TABLE truth_transitions ADD COLUMN actor_name text;
ALTER TABLE memories ADD COLUMN verified_by_name text;

-- who purged which incident id, when, and what went with it (counts and ids, never content)
CREATE TABLE purge_records (
    id           bigserial   PRIMARY KEY,
    team_id      text        NOT NULL,
    incident_id  text        NOT NULL,
    what         text        NOT NULL CHECK (what IN ('memory', 'incident')),
    purged_by    text        NOT NULL,
    purged_at    timestamptz NOT NULL DEFAULT now(),
    detail       jsonb       NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX purge_records_team ON purge_records (team_id, purged_at);
