import { encounterStatus, toLease, type LeaseRow } from './prisma-rows.js';
import { releaseLeasesIn } from './lease-batches.js';
import type { EncounterRecord, Lease, LoadedEncounter } from './types.js';

/**
 * Many encounters loaded at once (a process's clients all joining again after a restart): two
 * statements for a whole batch instead of five round trips per encounter, so that a thousand
 * loads do not queue on the connection pool.
 */
type Pool = { query<R extends object = object>(text: string, values: unknown[]): Promise<{ rows: R[] }> };

/**
 * Takes the leases of many encounters at once, each exactly as `acquireLease` takes one (a new
 * token when free, expired, or held by the same instance), in one statement. The rows are taken in
 * the order of their fence's key (hashtext, then id): the order in which an append takes its shared
 * fence locks (fray_append_log) and a lease renewal its row locks (renewLeasesIn), so that a batch
 * waits for them but never deadlocks with them. Only existing encounters get a lease.
 */
export async function acquireLeasesIn(pool: Pool, ids: string[], ownerId: string, ms: number): Promise<Lease[]> {
  const { rows } = await pool.query<LeaseRow>(
    `INSERT INTO leases (encounter_id, owner_id, token, expires_at)
     SELECT e.id, $2, 1, now() + $3 * interval '1 millisecond'
       FROM encounters e WHERE e.id = ANY($1::text[])
      ORDER BY hashtext(e.id), e.id
     ON CONFLICT (encounter_id) DO UPDATE
       SET owner_id = EXCLUDED.owner_id,
           token = leases.token + 1,
           expires_at = EXCLUDED.expires_at
       WHERE split_part(leases.owner_id, '@', 1) = split_part(EXCLUDED.owner_id, '@', 1) OR leases.expires_at <= now()
     RETURNING encounter_id, owner_id, token, expires_at`,
    [ids, ownerId, ms],
  );
  return rows.map(toLease);
}

interface LoadRow {
  id: string;
  account_id: string;
  name: string;
  ruleset: string;
  options: unknown;
  seed: string | number;
  status: string;
  round: number;
  version: number;
  created_at: Date;
  updated_at: Date;
  snap_version: number | null;
  snap_state: unknown;
  snap_at: Date | null;
  branched: boolean;
  tail: Array<{ seq: number; command_id: string; command: unknown; events: unknown; created_at: string }> | null;
}

/**
 * The records, newest snapshots and log tails of many encounters in one statement (read after
 * their leases were taken: nothing a previous owner appended is missed, its later appends are
 * refused by the fence). `tailLimit` caps each tail; one that reaches it is not returned (null).
 */
export async function readEncountersIn(
  pool: Pool,
  ids: string[],
  leased: Set<string>,
  tailLimit: number,
): Promise<Map<string, LoadedEncounter>> {
  const { rows } = await pool.query<LoadRow>(
    `SELECT e.id, e.account_id, e.name, e.ruleset, e.options, e.seed, e.status, e.round, e.version, e.created_at, e.updated_at,
            s.version AS snap_version, s.state AS snap_state, s.created_at AS snap_at,
            EXISTS (SELECT 1 FROM command_log b WHERE b.encounter_id = e.id AND b.branch > 0) AS branched,
            CASE WHEN e.id = ANY($2::text[]) THEN
              (SELECT coalesce(json_agg(t ORDER BY t.seq), '[]'::json) FROM (
                 SELECT c.seq, c.command_id, c.command, c.events, c.created_at FROM command_log c
                  WHERE c.encounter_id = e.id AND c.branch = 0 AND c.seq > greatest(0, coalesce(s.version, 0) - 256)
                  ORDER BY c.seq LIMIT $3) t)
            END AS tail
       FROM encounters e
       LEFT JOIN LATERAL (SELECT version, state, created_at FROM snapshots WHERE encounter_id = e.id ORDER BY version DESC LIMIT 1) s ON true
      WHERE e.id = ANY($1::text[])`,
    [ids, [...leased], tailLimit + 1],
  );
  const out = new Map<string, LoadedEncounter>();
  for (const r of rows) {
    const record: EncounterRecord = {
      id: r.id,
      accountId: r.account_id,
      name: r.name,
      ruleset: r.ruleset,
      options: r.options,
      seed: Number(r.seed),
      status: encounterStatus(r.status),
      round: r.round,
      version: r.version,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
    const snapshot =
      r.snap_version === null
        ? null
        : { encounterId: r.id, version: r.snap_version, state: r.snap_state, createdAt: r.snap_at ?? new Date(0) };
    const tail =
      r.tail === null || r.branched || r.tail.length > tailLimit
        ? null
        : r.tail.map((e) => ({
            encounterId: r.id,
            seq: e.seq,
            commandId: e.command_id,
            command: e.command,
            events: Array.isArray(e.events) ? e.events : [],
            createdAt: new Date(e.created_at),
          }));
    out.set(r.id, { record, lease: null, snapshot, tail });
  }
  return out;
}

/**
 * Many encounters loaded for `ownerId`: each one's lease taken (null: another instance holds it),
 * then its record, newest snapshot and log tail read. An id missing from the answer has no
 * encounter.
 */
export async function loadEncountersIn(
  pool: Pool,
  ids: string[],
  ownerId: string,
  ms: number,
  tailLimit: number,
): Promise<Map<string, LoadedEncounter>> {
  const unique = [...new Set(ids)];
  const leases = await acquireLeasesIn(pool, unique, ownerId, ms);
  let loaded: Map<string, LoadedEncounter>;
  try {
    loaded = await readEncountersIn(pool, unique, new Set(leases.map((l) => l.encounterId)), tailLimit);
  } catch (e) {
    // not loaded after all: the leases go back at once (the fence keeps the new tokens)
    await releaseLeasesIn(pool, leases).catch(() => {});
    throw e;
  }
  for (const l of leases) {
    const e = loaded.get(l.encounterId);
    if (e) e.lease = l;
  }
  return loaded;
}
