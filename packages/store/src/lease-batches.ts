import type { PrismaClient } from './generated/prisma/client.js';
import { toLease, type LeaseRow } from './prisma-rows.js';
import type { Lease } from './types.js';

/**
 * The statements on many leases at once (a process's renewals every sweep, its hand-over at a
 * graceful stop).
 */
type Pool = { query(text: string, values: unknown[]): Promise<unknown> };
const asRecords = (leases: Lease[]) => JSON.stringify(leases.map((l) => ({ e: l.encounterId, o: l.ownerId, t: l.token })));

/**
 * Renews many leases in one statement (one commit for every live encounter of a process, not
 * one each); returns the leases still ours, renewed. The rows are locked FOR NO KEY UPDATE (in
 * the order of their fence's key, as a batched takeover takes them: load-batches.ts); a log append locks no lease row and a renewal takes no fence, so a renewal
 * neither waits for appends nor holds them up (a takeover, which changes the token, takes the
 * fence exclusively: migration 20261126010000_append_advisory_fence).
 */
export async function renewLeasesIn(prisma: PrismaClient, leases: Lease[], ms: number): Promise<Lease[]> {
  const rows = await prisma.$queryRaw<LeaseRow[]>`
    WITH mine AS (
      SELECT l.encounter_id FROM leases l
        JOIN jsonb_to_recordset(${asRecords(leases)}::jsonb) AS x(e text, o text, t bigint)
          ON l.encounter_id = x.e AND l.owner_id = x.o AND l.token = x.t
       ORDER BY hashtext(l.encounter_id), l.encounter_id
         FOR NO KEY UPDATE OF l
    )
    UPDATE leases SET expires_at = now() + ${ms} * interval '1 millisecond'
     WHERE encounter_id IN (SELECT encounter_id FROM mine)
    RETURNING encounter_id, owner_id, token, expires_at`;
  return rows.map(toLease);
}

/** Expires many leases at once if they are still ours (a graceful stop hands every encounter over). */
export async function releaseLeasesIn(pool: Pool, leases: Lease[]): Promise<void> {
  await pool.query(
    `UPDATE leases l SET expires_at = now() - interval '1 millisecond'
       FROM jsonb_to_recordset($1::jsonb) AS x(e text, o text, t bigint)
      WHERE l.encounter_id = x.e AND l.owner_id = x.o AND l.token = x.t`,
    [asRecords(leases)],
  );
}
