import { connectLike } from './backup.js';
import { readBranchLog } from './timeline.js';
import type { Store } from './types.js';

/**
 * Reading one encounter whole (for an export) and writing encounters whole (for an import), each
 * in one transaction: an export is one instant of the encounter, an import all or nothing.
 */

export interface EncounterBundle {
  record: {
    id: string;
    accountId: string;
    name: string;
    ruleset: string;
    options: unknown;
    seed: number;
    status: string;
    round: number;
    version: number;
    createdAt: Date;
    updatedAt: Date;
  };
  /** the encounter as created (the first snapshot) */
  initial: { version: number; state: unknown };
  /** the newest snapshot (the runtime's wrapper included, when it has one) */
  latest: { version: number; state: unknown };
  /** the live branch's log (its path, docs/timeline.md) */
  log: Array<{ seq: number; commandId: string; command: unknown; events: unknown; createdAt: Date }>;
}

interface EncounterRow {
  id: string;
  account_id: string;
  name: string;
  ruleset: string;
  options: unknown;
  seed: string;
  status: string;
  round: number;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** One encounter's row, first and newest snapshots and whole log, in one snapshot of the database. */
export async function readEncounterBundle(store: Store, encounterId: string): Promise<EncounterBundle | null> {
  const client = await connectLike(store);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<EncounterRow>('SELECT * FROM encounters WHERE id = $1', [encounterId]);
    const r = rows[0];
    if (!r) return null;
    const snaps = await client.query<{ version: number; state: unknown }>(
      `(SELECT version, state FROM snapshots WHERE encounter_id = $1 ORDER BY version ASC LIMIT 1)
       UNION ALL (SELECT version, state FROM snapshots WHERE encounter_id = $1 ORDER BY version DESC LIMIT 1)`,
      [encounterId],
    );
    // the live branch's log (docs/timeline.md): the encounter as it is played now; a backup keeps every branch
    const log = await readBranchLog(client, encounterId, 0);
    await client.query('COMMIT');
    const [initial, latest] = snaps.rows;
    if (!initial || !latest) throw new Error(`Encounter ${encounterId} has no snapshot.`);
    return {
      record: {
        id: r.id,
        accountId: r.account_id,
        name: r.name,
        ruleset: r.ruleset,
        options: r.options,
        seed: Number(r.seed),
        status: r.status,
        round: r.round,
        version: r.version,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
      },
      initial,
      latest,
      log: log.map((e) => ({ seq: e.seq, commandId: e.commandId, command: e.command, events: e.events, createdAt: e.createdAt })),
    };
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    await client.end().catch(() => {});
  }
}

/** Every encounter id of an account, oldest first. */
export async function accountEncounterIds(store: Store, accountId: string): Promise<string[]> {
  const client = await connectLike(store);
  try {
    const { rows } = await client.query<{ id: string }>('SELECT id FROM encounters WHERE account_id = $1 ORDER BY created_at, id', [
      accountId,
    ]);
    return rows.map((r) => r.id);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Writes whole encounters (row, both snapshots, log) in one transaction: all of them or none. */
export async function writeEncounterBundles(store: Store, bundles: EncounterBundle[]): Promise<void> {
  const client = await connectLike(store);
  try {
    await client.query('BEGIN');
    for (const b of bundles) {
      const r = b.record;
      await client.query(
        `INSERT INTO encounters (id, account_id, name, ruleset, options, seed, status, round, version, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11)`,
        [r.id, r.accountId, r.name, r.ruleset, JSON.stringify(r.options), r.seed, r.status, r.round, r.version, r.createdAt, r.updatedAt],
      );
      const snaps = b.initial.version === b.latest.version ? [b.latest] : [b.initial, b.latest];
      for (const s of snaps) {
        await client.query('INSERT INTO snapshots (encounter_id, version, state) VALUES ($1, $2, $3::json)', [
          r.id,
          s.version,
          JSON.stringify(s.state),
        ]);
      }
      for (let i = 0; i < b.log.length; i += 500) {
        const page = b.log.slice(i, i + 500).map((e) => ({
          encounter_id: r.id,
          seq: e.seq,
          command_id: e.commandId,
          command: e.command,
          events: e.events,
          created_at: e.createdAt,
        }));
        await client.query(
          `INSERT INTO command_log (encounter_id, seq, command_id, command, events, created_at)
           SELECT encounter_id, seq, command_id, command, events, created_at FROM json_populate_recordset(NULL::command_log, $1::json)`,
          [JSON.stringify(page)],
        );
      }
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}
