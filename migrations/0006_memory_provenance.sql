-- Imported memories say where each field came from: the file, the extractor that read it, and
-- per field the section, line or timeline entry (bot.models.Provenance). Not part of the
-- retained content: re-reading the same fields with a better extractor is not a change.
ALTER TABLE memories ADD COLUMN provenance jsonb;
