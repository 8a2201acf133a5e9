/** Deleting encounters over the pg pool under Prisma (the contract: deletions-types.ts). */
import { mapError } from './errors.js';
import type { DeletedEncounterRecord, DeletionsStore } from './deletions-types.js';
import type { PrismaStoreInfo } from './prisma-store-info.js';

interface TombstoneRow {
  id: string;
  account_id: string;
  deleted_at: Date;
}

const toRecord = (r: TombstoneRow): DeletedEncounterRecord => ({ id: r.id, accountId: r.account_id, deletedAt: r.deleted_at });

/**
 * One statement, so one transaction: the invite hashes are read, the encounter deleted (the
 * cascade takes its log, snapshots, invites, replay links and lease), the tombstone and the
 * hashes inserted. Every part of a statement sees the same snapshot, so the hashes are read
 * before the cascade removes them.
 */
const DELETE_ENCOUNTER = `
  WITH inv AS (SELECT token_hash FROM invites WHERE encounter_id = $1),
       gone AS (DELETE FROM encounters WHERE id = $1 RETURNING id, account_id),
       stone AS (INSERT INTO deleted_encounters (id, account_id) SELECT id, account_id FROM gone
                 ON CONFLICT (id) DO UPDATE SET deleted_at = EXCLUDED.deleted_at
                 RETURNING id, account_id, deleted_at),
       hashes AS (INSERT INTO deleted_invites (token_hash, encounter_id) SELECT inv.token_hash, stone.id FROM inv, stone
                  ON CONFLICT (token_hash) DO NOTHING)
  SELECT id, account_id, deleted_at FROM stone`;

export class PrismaDeletions implements DeletionsStore {
  constructor(private readonly pool: PrismaStoreInfo['pool']) {}

  private async run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw mapError(error, what);
    }
  }

  deleteEncounter(id: string): Promise<DeletedEncounterRecord | null> {
    return this.run('deleteEncounter', async () => {
      const { rows } = await this.pool.query<TombstoneRow>(DELETE_ENCOUNTER, [id]);
      return rows[0] ? toRecord(rows[0]) : null;
    });
  }

  deletedEncounter(id: string): Promise<DeletedEncounterRecord | null> {
    return this.run('deletedEncounter', async () => {
      const { rows } = await this.pool.query<TombstoneRow>('SELECT id, account_id, deleted_at FROM deleted_encounters WHERE id = $1', [id]);
      return rows[0] ? toRecord(rows[0]) : null;
    });
  }

  deletedInvite(tokenHash: string): Promise<string | null> {
    return this.run('deletedInvite', async () => {
      const { rows } = await this.pool.query<{ encounter_id: string }>('SELECT encounter_id FROM deleted_invites WHERE token_hash = $1', [
        tokenHash,
      ]);
      return rows[0]?.encounter_id ?? null;
    });
  }
}
