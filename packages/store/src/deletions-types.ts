/** Deleted encounters' tombstones (migration 20261203090000_deleted_encounters; docs/persistence.md). */
export interface DeletedEncounterRecord {
  id: string;
  accountId: string;
  deletedAt: Date;
}

/** Deleting encounters, and recognising what was deleted. */
export interface DeletionsStore {
  /**
   * Delete an encounter in one statement: its row and everything under it (log, snapshots,
   * invites, replay links, lease: ON DELETE CASCADE), leaving a tombstone (its id, its GM, when,
   * and its invite tokens' hashes). null when there was no such encounter.
   */
  deleteEncounter(id: string): Promise<DeletedEncounterRecord | null>;
  /** The tombstone of a deleted encounter, or null. */
  deletedEncounter(id: string): Promise<DeletedEncounterRecord | null>;
  /** The id of the deleted encounter an invite token (its SHA-256) was for, or null. */
  deletedInvite(tokenHash: string): Promise<string | null>;
}
