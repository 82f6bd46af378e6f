-- What a job already did outside the database (a Slack message posted, a placeholder replaced),
-- so a job that runs again (retry, a second worker, a restart) does not do it twice.
CREATE TABLE job_effects (
    key        text PRIMARY KEY,
    value      text NOT NULL DEFAULT '',
    done_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_effects_done_at ON job_effects (done_at);
