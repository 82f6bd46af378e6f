-- One draft per incident at a time across every process and machine (issue 25): the process
-- drafting an incident holds its row until `until`; others wait for it and show its draft
-- (`draft_id`, set when it finishes) instead of drafting again. A process that died leaves a
-- row that expires, and the next request drafts.

CREATE TABLE drafting_leases (
    incident_pk  bigint      PRIMARY KEY REFERENCES incidents (pk) ON DELETE CASCADE,
    holder       text        NOT NULL,
    until        timestamptz NOT NULL,
    draft_id     bigint      REFERENCES resolution_drafts (id) ON DELETE SET NULL
);
