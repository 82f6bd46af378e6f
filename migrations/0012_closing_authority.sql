-- Closing authority (issue 24): a message in an incident's channel after the incident was closed
-- is kept in its timeline as a late note, never dropped; the timeline says which messages came late.
ALTER TABLE timeline_entries ADD COLUMN late boolean NOT NULL DEFAULT false;
