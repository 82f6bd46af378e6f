-- Recall signals stored on retain: the incident vocabulary concepts a memory talks about
-- (error_signature already exists since 0001). Both also pick candidates, so a memory that
-- shares no word with the query but names the same mechanism or failure can still come back.

ALTER TABLE memories ADD COLUMN concepts text[] NOT NULL DEFAULT '{}';
CREATE INDEX memories_concepts ON memories USING gin (concepts);
