-- Deleted encounters (DELETE /encounters/:id, docs/persistence.md "Deleting an encounter"): the
-- encounter's rows are deleted (its log, snapshots, invites, replay links and lease go with it,
-- ON DELETE CASCADE); what is kept is a tombstone without any game content: the id, its GM, when,
-- and the SHA-256 of each of its invite tokens, so that a player who comes back with an invite is
-- told the GM deleted the encounter instead of "unknown token".
CREATE TABLE "deleted_encounters" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "deleted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deleted_encounters_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "deleted_invites" (
    "token_hash" TEXT NOT NULL,
    "encounter_id" TEXT NOT NULL,

    CONSTRAINT "deleted_invites_pkey" PRIMARY KEY ("token_hash")
);

CREATE INDEX "deleted_encounters_account_id_idx" ON "deleted_encounters"("account_id");
CREATE INDEX "deleted_invites_encounter_id_idx" ON "deleted_invites"("encounter_id");

ALTER TABLE "deleted_encounters" ADD CONSTRAINT "deleted_encounters_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "deleted_invites" ADD CONSTRAINT "deleted_invites_encounter_id_fkey" FOREIGN KEY ("encounter_id") REFERENCES "deleted_encounters"("id") ON DELETE CASCADE ON UPDATE CASCADE;
