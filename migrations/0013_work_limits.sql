-- Limits on cost (issue 25): who asked for what costly work, when, for the hourly limits per
-- person and per channel; and how many of an incident's oldest messages were dropped to keep it
-- within TIMELINE_MAX_MESSAGES (investigations say how many messages they did not read).

CREATE TABLE work_requests (
    id          bigserial   PRIMARY KEY,
    team_id     text        NOT NULL,
    kind        text        NOT NULL,  -- 'investigation' or 'draft'
    user_id     text        NOT NULL,
    channel_id  text        NOT NULL,
    at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX work_requests_by_person ON work_requests (team_id, kind, user_id, at);
CREATE INDEX work_requests_by_channel ON work_requests (team_id, kind, channel_id, at);

ALTER TABLE incidents ADD COLUMN timeline_dropped integer NOT NULL DEFAULT 0;
