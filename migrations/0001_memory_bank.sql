-- The memory bank: memories, their corrections and truth transitions, and the term statistics
-- that lexical recall needs (PostgreSQL's own ranking has no inverse document frequency).

CREATE TABLE memories (
    pk                bigserial PRIMARY KEY,
    team_id           text        NOT NULL,
    incident_id       text        NOT NULL,
    title             text        NOT NULL,
    service           text,
    severity          text,
    symptoms          text,
    error_message     text,
    root_cause        text,
    diagnosis         text,
    resolution        text,
    failed_attempts   jsonb       NOT NULL DEFAULT '[]'::jsonb,
    lesson            text,
    source            text        NOT NULL,
    truth_state       text        NOT NULL,
    verified_by       text,
    verified_at       timestamptz,
    verification_note text,
    tags              text[]      NOT NULL DEFAULT '{}',
    channel_id        text,
    is_private        boolean     NOT NULL DEFAULT false,
    occurred_at       timestamptz,
    resolved_at       timestamptz,
    superseded_by     text,
    -- the draft exactly as first retained: idempotency compares against it, so a later
    -- truth move or correction never turns a re-import into a conflict
    retained_content  jsonb       NOT NULL,
    -- recall's document: term -> weighted frequency, its length, and a tsvector of its terms
    doc_terms         jsonb       NOT NULL DEFAULT '{}'::jsonb,
    doc_len           integer     NOT NULL DEFAULT 0,
    search            tsvector    NOT NULL DEFAULT ''::tsvector,
    error_signature   text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT memories_team_incident UNIQUE (team_id, incident_id),
    CONSTRAINT memories_truth_state CHECK (truth_state IN (
        'unconfirmed_hypothesis', 'human_confirmed', 'verification_confirmed', 'rejected', 'superseded')),
    CONSTRAINT memories_source CHECK (source IN ('seed', 'engineer_saved', 'engineer_correction')),
    CONSTRAINT memories_superseded_names_successor CHECK ((truth_state = 'superseded') = (superseded_by IS NOT NULL))
);

CREATE INDEX memories_team ON memories (team_id);
CREATE INDEX memories_team_service ON memories (team_id, lower(service));
CREATE INDEX memories_search ON memories USING gin (search);
CREATE INDEX memories_team_signature ON memories (team_id, error_signature) WHERE error_signature IS NOT NULL;

CREATE TABLE memory_corrections (
    id          bigserial PRIMARY KEY,
    memory_pk   bigint      NOT NULL REFERENCES memories (pk) ON DELETE CASCADE,
    team_id     text        NOT NULL,
    author      text        NOT NULL,
    text        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX memory_corrections_memory ON memory_corrections (memory_pk);

CREATE TABLE truth_transitions (
    id            bigserial PRIMARY KEY,
    memory_pk     bigint      NOT NULL REFERENCES memories (pk) ON DELETE CASCADE,
    team_id       text        NOT NULL,
    from_state    text        NOT NULL,
    to_state      text        NOT NULL,
    actor         text        NOT NULL,
    reason        text        NOT NULL DEFAULT '',
    successor_id  text,
    at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX truth_transitions_memory ON truth_transitions (memory_pk);

-- document frequencies per team, kept in step with memories on retain and purge
CREATE TABLE term_stats (
    team_id  text    NOT NULL,
    term     text    NOT NULL,
    df       integer NOT NULL,
    PRIMARY KEY (team_id, term)
);

CREATE TABLE team_stats (
    team_id    text   PRIMARY KEY,
    doc_count  bigint NOT NULL DEFAULT 0,
    total_len  bigint NOT NULL DEFAULT 0
);

-- engineer feedback on a recalled memory: one vote per user, the latest wins
CREATE TABLE memory_feedback (
    memory_pk   bigint      NOT NULL REFERENCES memories (pk) ON DELETE CASCADE,
    team_id     text        NOT NULL,
    user_id     text        NOT NULL,
    kind        text        NOT NULL CHECK (kind IN ('helpful', 'not_relevant')),
    at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (memory_pk, user_id)
);
