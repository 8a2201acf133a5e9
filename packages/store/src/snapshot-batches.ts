import { jsonParam } from './prisma-rows.js';
import type { EncounterSummary } from './types.js';

/**
 * Saving snapshots: one, or many at once (a graceful stop saves every live encounter's), each
 * with the prune of the older ones in the same statement.
 */
type Pool = { query(text: string, values: unknown[]): Promise<unknown> };

/**
 * The prune: all but the first snapshot and the newest `keptOthers` other versions beside the one
 * being saved (the DELETE sees the rows as they were before the statement: a data-modifying CTE).
 */
const prune = (e: string, v: string, keptOthers: number) => `
  s.encounter_id = ${e} AND s.version <> ${v}
  AND s.version > (SELECT min(version) FROM snapshots WHERE encounter_id = ${e})
  AND s.version < (SELECT version FROM snapshots WHERE encounter_id = ${e} AND version <> ${v}
                    ORDER BY version DESC OFFSET ${keptOthers - 1} LIMIT 1)`;

/** One snapshot upserted, the summary written (when given), the older ones pruned: one statement. */
export async function saveSnapshotIn(
  pool: Pool,
  keptOthers: number,
  encounterId: string,
  version: number,
  state: unknown,
  summary?: EncounterSummary,
): Promise<void> {
  await pool.query(
    `WITH summary AS (
       UPDATE encounters SET status = $5, round = $6, version = $2, updated_at = now()
        WHERE id = $1 AND $5::text IS NOT NULL AND status <> 'archived'
     ), up AS (
       INSERT INTO snapshots (encounter_id, version, state, created_at) VALUES ($1, $2, $3::json, $4)
       ON CONFLICT (encounter_id, version) DO UPDATE SET state = EXCLUDED.state, created_at = EXCLUDED.created_at
     )
     DELETE FROM snapshots s WHERE ${prune('$1', '$2', keptOthers)}`,
    [encounterId, version, jsonParam(state ?? null), new Date(), summary?.status ?? null, summary?.round ?? null],
  );
}

/**
 * Many snapshots (of distinct encounters) saved as `saveSnapshotIn` saves one, in one statement.
 * The states travel as one json array (json, not jsonb: each state is stored as the text it was
 * sent as, as a single save stores it, without being parsed into jsonb and printed back).
 */
export async function saveSnapshotsIn(
  pool: Pool,
  keptOthers: number,
  list: Array<{ encounterId: string; version: number; state: unknown; summary?: EncounterSummary }>,
): Promise<void> {
  const rows = list.map((x) => ({
    e: x.encounterId,
    v: x.version,
    s: x.state ?? null,
    st: x.summary?.status ?? null,
    r: x.summary?.round ?? null,
  }));
  await pool.query(
    `WITH x AS (
       SELECT j->>'e' AS e, (j->>'v')::integer AS v, j->'s' AS s, j->>'st' AS st, (j->>'r')::integer AS r
         FROM json_array_elements($1::json) AS j
     ), summary AS (
       UPDATE encounters en SET status = x.st, round = x.r, version = x.v, updated_at = now()
         FROM x WHERE en.id = x.e AND x.st IS NOT NULL AND en.status <> 'archived'
     ), up AS (
       INSERT INTO snapshots (encounter_id, version, state, created_at) SELECT x.e, x.v, x.s, now() FROM x
       ON CONFLICT (encounter_id, version) DO UPDATE SET state = EXCLUDED.state, created_at = EXCLUDED.created_at
     )
     DELETE FROM snapshots s USING x WHERE ${prune('x.e', 'x.v', keptOthers)}`,
    [jsonParam(rows)],
  );
}
