-- The fenced append no longer locks the lease rows: it takes a shared advisory lock per encounter
-- instead, and a change of a lease's token takes the same lock exclusively.
--
-- Why: locking a row FOR KEY SHARE writes to it (the locker goes into the row's header, in a WAL
-- record of its own) for every fenced encounter of every append. Measured on the bench's 2-core
-- VM (docs/performance.md, "Session 12"): a batch of 6 entries cost Postgres 850–1,850 µs of CPU
-- with the row locks and 515–550 µs with advisory locks (370–530 µs with no fencing at all); at
-- 1,000 encounters × 5 clients Postgres used about 40 % of a core beside the server.
--
-- The fencing argument is the same, with the lock moved from the row to the lock manager:
--   * an append takes pg_advisory_xact_lock_shared(FRAY, hashtext(encounter)) for each fenced
--     encounter (in key order), then compares the tokens, then inserts; it holds the locks until
--     it commits;
--   * an UPDATE that changes a lease's token (a takeover) takes the same key exclusively, in a
--     trigger, so it waits for the appends in flight to commit; an append that starts meanwhile
--     waits for the takeover to commit, then reads the new token (each statement of the function
--     takes a new snapshot) and is refused.
-- A renewal or a release (expires_at only) takes no lock and waits for nothing, as before. The
-- trigger puts the rule in the database, whoever changes the token. Two encounters whose ids
-- hash alike only share a lock (a takeover of one waits for appends of the other): slower, never
-- wrong. The two-key form of the advisory locks keeps Fray's keys (class 1179795801, "FRAY")
-- apart from an application's one-key advisory locks on the same database.

CREATE FUNCTION fray_lease_token_fence() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(1179795801, hashtext(NEW."encounter_id"));
  RETURN NEW;
END
$fn$;

CREATE TRIGGER "leases_token_fence"
  BEFORE UPDATE OF "token" ON "leases"
  FOR EACH ROW
  WHEN (OLD."token" IS DISTINCT FROM NEW."token")
  EXECUTE FUNCTION fray_lease_token_fence();

CREATE OR REPLACE FUNCTION fray_append_log(entries jsonb, fences jsonb) RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  bad_e text;
  bad_s integer;
  inserted integer;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(1179795801, k.h)
    FROM (SELECT DISTINCT hashtext(f.e) AS h FROM jsonb_to_recordset(fences) AS f(e text, t bigint)) k
    ORDER BY k.h;

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
