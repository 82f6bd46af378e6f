-- Which tokenizer derived each memory's stored terms (doc_terms, doc_len, search, and from them
-- term_stats, team_stats and recall_postings). When bot/recall/tokens.py changes how text
-- becomes terms, TERMS_VERSION (bot/recall/document.py) goes up, and the store re-derives
-- older memories from their retained content when it opens (PostgresMemoryStore.reindex_terms).
-- Version 1: the tokenizer before Snowball stems and status/error codes as terms.

ALTER TABLE memories ADD COLUMN terms_version int NOT NULL DEFAULT 1;

-- the version every memory of the bank has reached: one read at startup, no scan
CREATE TABLE recall_terms_state (
    id       boolean PRIMARY KEY DEFAULT true CHECK (id),
    version  int     NOT NULL DEFAULT 1
);
INSERT INTO recall_terms_state DEFAULT VALUES;
