-- Semantic recall (optional, issue 27): each memory's opening — its title, symptoms and error — as
-- a vector of its own beside the whole text's. A responder's first report says symptoms in two
-- lines; a whole postmortem's vector is its body's. The recall judgement reads the query's cosine
-- with the opening (judgement.FEATURES: meaning_head, meaning_head_lead) as `head` is read lexically.
--
-- Only where 0009 created memory_vectors (pgvector present); like 0009 it is idempotent and run
-- again by `incident-memory embed` once the extension appears (memory.vectors.VECTOR_MIGRATIONS).
-- A vector saved before this column existed has no opening: the next embedding pass redoes it.
DO $migration$
BEGIN
    IF to_regclass('memory_vectors') IS NULL THEN
        RETURN;
    END IF;
    EXECUTE 'ALTER TABLE memory_vectors ADD COLUMN IF NOT EXISTS opening vector';
END
$migration$;
