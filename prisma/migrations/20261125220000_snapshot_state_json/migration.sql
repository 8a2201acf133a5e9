-- Snapshots keep the state as the server wrote it: `json` (the text, validated) instead of
-- `jsonb`, which sorts every object's keys (shorter keys first). A state read back from jsonb had
-- none of the engine's key order, so every loaded encounter took the engine's slow copy path for
-- the rest of its life: 8–13 % of the engine's throughput (docs/performance.md,
-- "Session 11"). `json` is also cheaper to write and to read back (no conversion either way);
-- nothing queries inside a snapshot. Existing snapshots keep the order jsonb gave them; the
-- runtime puts the engine's order back when it loads one (`inEngineOrder`).
ALTER TABLE "snapshots" ALTER COLUMN "state" TYPE JSON USING "state"::json;
