-- Impact-ordered postings: for each term, the memories that contain it, ordered by the BM25
-- term-frequency part (the "impact"; the query multiplies it by the term's current idf).
-- Recall reads only the first rows of each term's list (deeper for rarer terms) and rescores
-- the few hundred memories found with exact BM25, instead of scoring every GIN match.
--
-- Derived in batches (bot/memory/postings.py), never in the retain transaction: memories newer
-- than the watermark are found through the GIN index until the next derivation. No foreign key
-- (one check per posting would slow loading); purge deletes a memory's postings by its terms,
-- and rescoring joins memories, so a stray posting can never surface anything.

CREATE TABLE recall_postings (
    team_id      text        NOT NULL,
    term         text        NOT NULL,
    impact       real        NOT NULL,
    memory_pk    bigint      NOT NULL,
    occurred_at  timestamptz
);
CREATE INDEX recall_postings_by_impact
    ON recall_postings (team_id, term, impact DESC) INCLUDE (memory_pk, occurred_at);

-- memories with pk <= max_pk have their postings
CREATE TABLE recall_postings_state (
    id      boolean PRIMARY KEY DEFAULT true CHECK (id),
    max_pk  bigint  NOT NULL DEFAULT 0
);
INSERT INTO recall_postings_state DEFAULT VALUES;
