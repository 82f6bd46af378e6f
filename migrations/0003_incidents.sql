-- Incidents as they happen: one open incident per channel, its timeline (the CURRENT evidence),
-- and the Slack events already handled (Slack retries; several bot instances may share a database).

CREATE TABLE incidents (
    pk                 bigserial PRIMARY KEY,
    team_id            text        NOT NULL,
    incident_id        text        NOT NULL,
    channel_id         text        NOT NULL,
    channel_name       text,
    is_private         boolean     NOT NULL DEFAULT false,
    title              text        NOT NULL,
    service            text,
    severity           text,
    symptoms           text,
    error_message      text,
    declared_by        text,
    status             text        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
    recall_thread_ts   text,
    started_at         timestamptz NOT NULL DEFAULT now(),
    resolved_at        timestamptz,
    CONSTRAINT incidents_team_incident UNIQUE (team_id, incident_id)
);
-- at most one open incident per channel, even with several bot instances racing
CREATE UNIQUE INDEX incidents_one_open_per_channel ON incidents (team_id, channel_id) WHERE status = 'open';

CREATE TABLE timeline_entries (
    id           bigserial PRIMARY KEY,
    incident_pk  bigint      NOT NULL REFERENCES incidents (pk) ON DELETE CASCADE,
    team_id      text        NOT NULL,
    channel_id   text        NOT NULL,
    message_ts   text        NOT NULL,
    author       text        NOT NULL,
    text         text        NOT NULL,
    at           timestamptz NOT NULL,
    CONSTRAINT timeline_entries_message UNIQUE (team_id, channel_id, message_ts)
);
CREATE INDEX timeline_entries_incident ON timeline_entries (incident_pk, at);

CREATE TABLE slack_events (
    team_id      text        NOT NULL,
    event_id     text        NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, event_id)
);

-- free notes from the resolution modal, kept with the memory
ALTER TABLE memories ADD COLUMN notes text;
