-- Incidents that start from alerts (Alertmanager, Grafana, PagerDuty, Opsgenie webhooks).

-- One row per accepted delivery, stored before the webhook is answered 2xx. The unique key is
-- the vendor's event id (PagerDuty), alertId + action (Opsgenie), or, for an Alertmanager or
-- Grafana group, a digest of groupKey + status + each alert's (fingerprint, startsAt, endsAt):
-- a retry or a repeat_interval resend is the same row, so it adds nothing.
CREATE TABLE alert_deliveries (
    id             bigserial   PRIMARY KEY,
    source         text        NOT NULL CHECK (source IN ('alertmanager', 'grafana', 'pagerduty', 'opsgenie')),
    dedupe_key     text        NOT NULL,
    status         text        NOT NULL CHECK (status IN ('firing', 'resolved')),
    common_labels  jsonb       NOT NULL DEFAULT '{}',
    truncated      integer     NOT NULL DEFAULT 0,
    received_at    timestamptz NOT NULL DEFAULT now(),
    -- set by the job once done: posted | joined | unrouted | not_in_channel | no_incident
    processed_at   timestamptz,
    outcome        text,
    channel_id     text,
    incident_pk    bigint      REFERENCES incidents (pk) ON DELETE SET NULL,
    CONSTRAINT alert_deliveries_once UNIQUE (source, dedupe_key)
);

-- Each alert of a delivery, by name and labels (queryable: a later recall signal). `applied`:
-- it joined its incident's timeline (the same alert in the same state is applied once).
CREATE TABLE alerts (
    id           bigserial   PRIMARY KEY,
    delivery_id  bigint      NOT NULL REFERENCES alert_deliveries (id) ON DELETE CASCADE,
    source       text        NOT NULL,
    alert_key    text        NOT NULL,
    status       text        NOT NULL CHECK (status IN ('firing', 'resolved')),
    name         text        NOT NULL,
    labels       jsonb       NOT NULL DEFAULT '{}',
    annotations  jsonb       NOT NULL DEFAULT '{}',
    starts_at    timestamptz,
    ends_at      timestamptz,
    url          text,
    incident_pk  bigint      REFERENCES incidents (pk) ON DELETE SET NULL,
    applied      boolean     NOT NULL DEFAULT false
);
CREATE INDEX alerts_identity ON alerts (source, alert_key, status);
CREATE INDEX alerts_incident ON alerts (incident_pk) WHERE incident_pk IS NOT NULL;
CREATE INDEX alerts_name ON alerts (name);
CREATE INDEX alerts_labels ON alerts USING gin (labels jsonb_path_ops);

-- every alert of an incident resolved: the closure nudge asks for the outcome
ALTER TABLE resolution_nudges DROP CONSTRAINT resolution_nudges_reason_check;
ALTER TABLE resolution_nudges ADD CONSTRAINT resolution_nudges_reason_check
    CHECK (reason IN ('said_fixed', 'quiet', 'archived', 'reminder', 'alerts_resolved'));
