-- Optional semantic recall (EMBEDDINGS_URL): each memory's meaning as vectors, with pgvector.
--
-- Only where the server has the `vector` extension (the embedded PostgreSQL and Fly's ship it;
-- Debian's PostgreSQL 15 does not): elsewhere this migration creates nothing, the bot says so at
-- start and recalls lexically. Every statement is idempotent, so the same text is run again by
-- `incident-memory embed` once the extension has been installed after this migration ran.
--
-- The vectors are derived data: computed after retain in the background (never on the Slack
-- request path) and by `incident-memory embed`; a row made by another model than the configured
-- one is stale and is re-embedded. The column has no fixed dimension, since the model decides it.
DO $migration$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
        RAISE NOTICE 'pgvector is not available on this server: semantic recall stays off';
        RETURN;
    END IF;
    BEGIN
        CREATE EXTENSION IF NOT EXISTS vector;
    EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'not allowed to create the vector extension: semantic recall stays off';
        RETURN;
    END;
    -- EXECUTE: the type `vector` must not be parsed where the extension is missing
    EXECUTE $sql$
        CREATE TABLE IF NOT EXISTS memory_vectors (
            memory_pk   bigint      PRIMARY KEY REFERENCES memories (pk) ON DELETE CASCADE,
            team_id     text        NOT NULL,
            occurred_at timestamptz,           -- a memory's own, copied: recall's time filter runs here
            model       text        NOT NULL,
            dims        int         NOT NULL,
            embedding   vector      NOT NULL,  -- the memory's text as one vector
            embedded_at timestamptz NOT NULL DEFAULT now()
        )$sql$;
    EXECUTE 'CREATE INDEX IF NOT EXISTS memory_vectors_team_model ON memory_vectors (team_id, model, dims)';
    -- its sentences, each with its vector: the card names the one closest to the query
    EXECUTE $sql$
        CREATE TABLE IF NOT EXISTS memory_sentence_vectors (
            memory_pk   bigint  NOT NULL REFERENCES memories (pk) ON DELETE CASCADE,
            ord         int     NOT NULL,
            sentence    text    NOT NULL,
            embedding   vector  NOT NULL,
            PRIMARY KEY (memory_pk, ord)
        )$sql$;
END
$migration$;
