-- A memory keeps the alerts that fired for its incident (name + labels, bot.models.MemoryAlert):
-- a later alert with the same name and identifying labels recalls it, and recurrence is counted
-- by alert name. Part of the retained content; memories from before hold none.
ALTER TABLE memories ADD COLUMN alerts jsonb NOT NULL DEFAULT '[]';
CREATE INDEX memories_alert_names ON memories USING gin (alerts jsonb_path_ops);
