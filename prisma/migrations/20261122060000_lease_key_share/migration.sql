-- Lease renewals no longer wait for appends in flight, nor appends for renewals.
--
-- An append used to lock its encounters' lease rows FOR SHARE, and a renewal (an UPDATE of
-- expires_at) takes FOR NO KEY UPDATE, which conflicts with it: every few seconds the renewal of
-- all of a process's leases queued behind the appends in flight, and the appends that came next
-- queued behind the renewal (tens of milliseconds at 1,000 live encounters: the latency tail).
--
-- Now the token is part of a unique key, so an UPDATE that changes the token (a takeover) takes
-- FOR UPDATE, while one that leaves it alone (a renewal, a release) takes FOR NO KEY UPDATE; the
-- append locks FOR KEY SHARE, which conflicts with the first and not with the second. The
-- fencing argument is unchanged: a takeover waits for the appends holding the lock to commit,
-- and an append that starts after it sees the new token and is refused.
CREATE UNIQUE INDEX "leases_encounter_id_token_key" ON "leases"("encounter_id", "token");

CREATE OR REPLACE FUNCTION fray_append_log(entries jsonb, fences jsonb) RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  bad_e text;
  bad_s integer;
  inserted integer;
BEGIN
  PERFORM 1 FROM "leases" l
    WHERE l."encounter_id" IN (SELECT f.e FROM jsonb_to_recordset(fences) AS f(e text, t bigint))
    ORDER BY l."encounter_id"
    FOR KEY SHARE;

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
