-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "name" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "encounters" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "ruleset" TEXT NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "seed" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'setup',
    "round" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "encounters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invites" (
    "id" TEXT NOT NULL,
    "encounter_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "player_id" TEXT,
    "combatant_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "command_log" (
    "encounter_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "command_id" TEXT NOT NULL,
    "command" JSONB NOT NULL,
    "events" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "command_log_encounter_seq_key" PRIMARY KEY ("encounter_id","seq")
);

-- CreateTable
CREATE TABLE "snapshots" (
    "encounter_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "state" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "snapshots_pkey" PRIMARY KEY ("encounter_id","version")
);

-- CreateTable
CREATE TABLE "leases" (
    "encounter_id" TEXT NOT NULL,
    "owner_id" TEXT NOT NULL,
    "token" BIGINT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "leases_pkey" PRIMARY KEY ("encounter_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_token_hash_key" ON "accounts"("token_hash");

-- CreateIndex
CREATE INDEX "encounters_account_id_updated_at_idx" ON "encounters"("account_id", "updated_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "invites_token_hash_key" ON "invites"("token_hash");

-- CreateIndex
CREATE INDEX "invites_encounter_id_idx" ON "invites"("encounter_id");

-- CreateIndex
CREATE UNIQUE INDEX "command_log_encounter_command_key" ON "command_log"("encounter_id", "command_id");

-- AddForeignKey
ALTER TABLE "encounters" ADD CONSTRAINT "encounters_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invites" ADD CONSTRAINT "invites_encounter_id_fkey" FOREIGN KEY ("encounter_id") REFERENCES "encounters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "command_log" ADD CONSTRAINT "command_log_encounter_id_fkey" FOREIGN KEY ("encounter_id") REFERENCES "encounters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_encounter_id_fkey" FOREIGN KEY ("encounter_id") REFERENCES "encounters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leases" ADD CONSTRAINT "leases_encounter_id_fkey" FOREIGN KEY ("encounter_id") REFERENCES "encounters"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written below: integrity checks Prisma's schema language cannot express, and the fenced
-- append (see docs/persistence.md).

ALTER TABLE "encounters" ADD CONSTRAINT "encounters_status_check" CHECK ("status" IN ('setup', 'active', 'ended', 'archived'));
ALTER TABLE "invites" ADD CONSTRAINT "invites_role_check" CHECK ("role" IN ('player', 'spectator'));
ALTER TABLE "command_log" ADD CONSTRAINT "command_log_seq_check" CHECK ("seq" >= 1);
ALTER TABLE "leases" ADD CONSTRAINT "leases_token_check" CHECK ("token" >= 1);

-- Append log entries in one statement (so one transaction), fenced by lease tokens.
--   entries: [{ "e": encounter id, "s": seq, "c": command id, "cmd": command, "ev": events }]
--   fences:  [{ "e": encounter id, "t": fencing token }]
-- The lease rows of every fenced encounter are locked FOR SHARE (in id order, so batches never
-- deadlock) before the tokens are compared: a concurrent takeover (which UPDATEs the lease row)
-- waits for this append to commit, or this append sees the new token and is refused. A refused
-- append inserts nothing. SQLSTATE FY001 = stale owner, FY002 = seq already taken,
-- FY003 = gap in the sequence; unique violations (23505) on the log's keys mean a duplicate.
CREATE FUNCTION fray_append_log(entries jsonb, fences jsonb) RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  bad_e text;
  bad_s integer;
  inserted integer;
BEGIN
  PERFORM 1 FROM "leases" l
    WHERE l."encounter_id" IN (SELECT f.e FROM jsonb_to_recordset(fences) AS f(e text, t bigint))
    ORDER BY l."encounter_id"
    FOR SHARE;

  SELECT f.e INTO bad_e
    FROM jsonb_to_recordset(fences) AS f(e text, t bigint)
    LEFT JOIN "leases" l ON l."encounter_id" = f.e AND l."token" = f.t
    WHERE l."encounter_id" IS NULL
    LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'fray: stale fencing token for encounter %', bad_e USING ERRCODE = 'FY001';
  END IF;

  SELECT x.e INTO bad_e
    FROM jsonb_to_recordset(entries) AS x(e text)
    WHERE x.e NOT IN (SELECT f.e FROM jsonb_to_recordset(fences) AS f(e text, t bigint))
    LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'fray: no fencing token given for encounter %', bad_e USING ERRCODE = 'FY001';
  END IF;

  -- gap-free: per encounter, the batch continues the log (seq = last + 1, last + 2, ...)
  SELECT n.e, n.s INTO bad_e, bad_s
    FROM (
      SELECT x.e, x.s,
             row_number() OVER (PARTITION BY x.e ORDER BY x.s) AS rn,
             min(x.s) OVER (PARTITION BY x.e) AS first
        FROM jsonb_to_recordset(entries) AS x(e text, s integer)
    ) n
    WHERE n.s <> coalesce((SELECT max(c."seq") FROM "command_log" c WHERE c."encounter_id" = n.e), n.first - 1) + n.rn
    ORDER BY n.s < coalesce((SELECT max(c."seq") FROM "command_log" c WHERE c."encounter_id" = n.e), n.first - 1) + n.rn DESC
    LIMIT 1;
  IF FOUND THEN
    IF EXISTS (SELECT 1 FROM "command_log" c WHERE c."encounter_id" = bad_e AND c."seq" = bad_s)
       OR (SELECT count(*) FROM jsonb_to_recordset(entries) AS x(e text, s integer) WHERE x.e = bad_e AND x.s = bad_s) > 1 THEN
      RAISE EXCEPTION 'fray: log entry % of encounter % already exists', bad_s, bad_e USING ERRCODE = 'FY002';
    END IF;
    RAISE EXCEPTION 'fray: log entry % of encounter % would leave a gap', bad_s, bad_e USING ERRCODE = 'FY003';
  END IF;

  INSERT INTO "command_log" ("encounter_id", "seq", "command_id", "command", "events")
    SELECT x.e, x.s, x.c, coalesce(x.cmd, 'null'::jsonb), coalesce(x.ev, '[]'::jsonb)
      FROM jsonb_to_recordset(entries) AS x(e text, s integer, c text, cmd jsonb, ev jsonb);
  GET DIAGNOSTICS inserted = ROW_COUNT;
  RETURN inserted;
END
$fn$;
