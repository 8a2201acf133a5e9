-- The GM's timeline (docs/timeline.md, ADR "branches in the log"): a rewind never deletes.
-- Each log entry belongs to a branch (0: the encounter as played first). A rewind to version v
-- starts branch k = (the newest branch) + 1, whose first row is the rewind itself at seq v (a
-- marker: command `timeline.rewind`, event `timeline.rewound` naming the branch it left); the
-- branch continues at v + 1, v + 2... and inherits versions 1..v from the branch it left. The
-- newest branch is the live one; older branches are kept as they were and stay readable.

ALTER TABLE "command_log" ADD COLUMN "branch" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "command_log" ADD CONSTRAINT "command_log_branch_check" CHECK ("branch" >= 0);
ALTER TABLE "command_log" DROP CONSTRAINT "command_log_encounter_seq_key";
ALTER TABLE "command_log" ADD CONSTRAINT "command_log_encounter_seq_key" PRIMARY KEY ("encounter_id", "branch", "seq");

-- The append, per branch: the gap check and the duplicate check look at the entry's branch
-- (`b`, 0 when absent), and an entry on a branch older than the newest one is refused (FY004:
-- a command made before a rewind, from a process that missed it) as is one that skips a branch.
CREATE OR REPLACE FUNCTION fray_append_log(entries jsonb, fences jsonb) RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  bad_e text;
  bad_s integer;
  bad_b integer;
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

  -- the live branch: an entry on an older branch, or one more than a branch ahead, is refused
  SELECT x.e, coalesce(x.b, 0) INTO bad_e, bad_b
    FROM jsonb_to_recordset(entries) AS x(e text, b integer)
    WHERE coalesce(x.b, 0) NOT BETWEEN coalesce((SELECT max(c."branch") FROM "command_log" c WHERE c."encounter_id" = x.e), 0)
                                   AND coalesce((SELECT max(c."branch") FROM "command_log" c WHERE c."encounter_id" = x.e), 0) + 1
    LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'fray: branch % of encounter % is not its live branch', bad_b, bad_e USING ERRCODE = 'FY004';
  END IF;

  -- gap-free: per encounter and branch, the batch continues the log (seq = last + 1, last + 2, ...)
  SELECT n.e, n.s, n.b INTO bad_e, bad_s, bad_b
    FROM (
      SELECT x.e, x.s, coalesce(x.b, 0) AS b,
             row_number() OVER (PARTITION BY x.e, coalesce(x.b, 0) ORDER BY x.s) AS rn,
             min(x.s) OVER (PARTITION BY x.e, coalesce(x.b, 0)) AS first
        FROM jsonb_to_recordset(entries) AS x(e text, s integer, b integer)
    ) n
    WHERE n.s <> coalesce((SELECT max(c."seq") FROM "command_log" c WHERE c."encounter_id" = n.e AND c."branch" = n.b), n.first - 1) + n.rn
    ORDER BY n.s < coalesce((SELECT max(c."seq") FROM "command_log" c WHERE c."encounter_id" = n.e AND c."branch" = n.b), n.first - 1) + n.rn DESC
    LIMIT 1;
  IF FOUND THEN
    IF EXISTS (SELECT 1 FROM "command_log" c WHERE c."encounter_id" = bad_e AND c."branch" = bad_b AND c."seq" = bad_s)
       OR (SELECT count(*) FROM jsonb_to_recordset(entries) AS x(e text, s integer, b integer) WHERE x.e = bad_e AND coalesce(x.b, 0) = bad_b AND x.s = bad_s) > 1 THEN
      RAISE EXCEPTION 'fray: log entry % of encounter % already exists', bad_s, bad_e USING ERRCODE = 'FY002';
    END IF;
    RAISE EXCEPTION 'fray: log entry % of encounter % would leave a gap', bad_s, bad_e USING ERRCODE = 'FY003';
  END IF;

  INSERT INTO "command_log" ("encounter_id", "branch", "seq", "command_id", "command", "events")
    SELECT x.e, coalesce(x.b, 0), x.s, x.c, coalesce(x.cmd, 'null'::jsonb), coalesce(x.ev, '[]'::jsonb)
      FROM jsonb_to_recordset(entries) AS x(e text, s integer, b integer, c text, cmd jsonb, ev jsonb);
  GET DIAGNOSTICS inserted = ROW_COUNT;
  RETURN inserted;
END
$fn$;

-- A rewind to version 0 (before the first command) puts its marker at seq 0 of its branch.
ALTER TABLE "command_log" DROP CONSTRAINT "command_log_seq_check";
ALTER TABLE "command_log" ADD CONSTRAINT "command_log_seq_check" CHECK ("seq" >= 1 OR ("seq" = 0 AND "branch" > 0));
