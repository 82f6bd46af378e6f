-- Retention at closure: drafted resolutions, messages marked for the draft, and the nudges that
-- ask for an outcome before an incident closes silently.

-- which fields of a saved memory were drafted from the channel, and which the person changed
-- (bot.models.DraftingTrace); kept beside the retained content, never part of it
ALTER TABLE memories ADD COLUMN drafting jsonb;

-- when a person last spoke in the incident's channel ("quiet for N hours"), and whether the
-- channel was archived (then the declarer is asked by direct message)
ALTER TABLE incidents ADD COLUMN last_message_at timestamptz;
ALTER TABLE incidents ADD COLUMN channel_archived_at timestamptz;

-- a draft as shown in a resolution modal: the submission is compared with it to know which
-- fields the person accepted, changed or cleared
CREATE TABLE resolution_drafts (
    id           bigserial   PRIMARY KEY,
    incident_pk  bigint      NOT NULL REFERENCES incidents (pk) ON DELETE CASCADE,
    draft        jsonb       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX resolution_drafts_incident ON resolution_drafts (incident_pk, id);

-- "Add to incident memory" on a channel message: a failed attempt (with why), the fix or the
-- root cause; the drafter uses these before its own reading of the channel
CREATE TABLE incident_marks (
    id           bigserial   PRIMARY KEY,
    incident_pk  bigint      NOT NULL REFERENCES incidents (pk) ON DELETE CASCADE,
    message_ts   text        NOT NULL,
    author       text        NOT NULL,
    text         text        NOT NULL,
    kind         text        NOT NULL CHECK (kind IN ('failed_attempt', 'fix', 'root_cause')),
    why          text,
    marked_by    text        NOT NULL,
    marked_at    timestamptz NOT NULL DEFAULT now(),
    -- marking the same message the same way again replaces the earlier mark (its why)
    CONSTRAINT incident_marks_once UNIQUE (incident_pk, message_ts, kind)
);

-- At most one ask and one reminder per incident, whatever triggers them and however many bot
-- instances run: the primary key makes the second insert a no-op; `claimed_until` is the lease
-- of the instance sending it; `sent_at` is set once.
CREATE TABLE resolution_nudges (
    incident_pk    bigint      NOT NULL REFERENCES incidents (pk) ON DELETE CASCADE,
    step           text        NOT NULL CHECK (step IN ('ask', 'reminder')),
    reason         text        NOT NULL CHECK (reason IN ('said_fixed', 'quiet', 'archived', 'reminder')),
    due_at         timestamptz NOT NULL DEFAULT now(),
    claimed_until  timestamptz,
    sent_at        timestamptz,
    skipped        text,
    sent_to        text,
    message_ts     text,
    PRIMARY KEY (incident_pk, step)
);
CREATE INDEX resolution_nudges_due ON resolution_nudges (due_at) WHERE sent_at IS NULL AND skipped IS NULL;
