-- Read-only replay links (docs/timeline.md, "Replay"): a token (only its SHA-256 is kept) that
-- shows an encounter's replay as one viewer (`spectator`, `gm` or `player:<playerId>`), on a
-- branch (NULL: the live one). Revocable; never a way into the live encounter.
CREATE TABLE "replay_links" (
    "id" TEXT NOT NULL,
    "encounter_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "viewer" TEXT NOT NULL,
    "branch" INTEGER,
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "replay_links_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "replay_links_viewer_check" CHECK ("viewer" IN ('gm', 'spectator') OR "viewer" LIKE 'player:%'),
    CONSTRAINT "replay_links_branch_check" CHECK ("branch" IS NULL OR "branch" >= 0)
);

CREATE UNIQUE INDEX "replay_links_token_hash_key" ON "replay_links"("token_hash");
CREATE INDEX "replay_links_encounter_id_idx" ON "replay_links"("encounter_id");

ALTER TABLE "replay_links" ADD CONSTRAINT "replay_links_encounter_id_fkey" FOREIGN KEY ("encounter_id") REFERENCES "encounters"("id") ON DELETE CASCADE ON UPDATE CASCADE;
