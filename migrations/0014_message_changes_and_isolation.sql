-- What members write stays what it is (issue 26).

-- A message deleted in Slack: its id only (never its text), so that a delivery of the message
-- itself arriving after its deletion (a retried job, a slow worker) does not bring it back.
-- Forgotten after a week, with the jobs' effects: nothing reruns after that.
CREATE TABLE deleted_messages (
    team_id     text        NOT NULL,
    channel_id  text        NOT NULL,
    message_ts  text        NOT NULL,
    deleted_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, channel_id, message_ts)
);
CREATE INDEX deleted_messages_deleted_at ON deleted_messages (deleted_at);

-- An incident of a channel kept to itself: shared with another organisation (Slack Connect), or
-- with guests under GUEST_CHANNELS=isolated. Recall there shows only memories kept from it, and
-- what is kept from it is kept private to it (memories.is_private).
ALTER TABLE incidents ADD COLUMN is_isolated boolean NOT NULL DEFAULT false;
