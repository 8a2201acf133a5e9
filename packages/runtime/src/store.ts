/**
 * The part of the persistence contract (`@fray/store`'s `Store`) the runtime uses. The runtime
 * takes any object of this shape, so the real store and a test double both fit.
 */

export interface EncounterRecordLike {
  id: string;
  accountId: string;
  name: string;
  ruleset: string;
  options: unknown;
  seed: number;
  status: 'setup' | 'active' | 'ended' | 'archived';
  round: number;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface LogEntryLike {
  encounterId: string;
  seq: number;
  /** the timeline branch (docs/timeline.md); absent: 0 */
  branch?: number;
  commandId: string;
  command: unknown;
  events: unknown[];
  createdAt?: Date;
  /** the encounter's status and round after this entry, when it changed them (see @fray/store) */
  summary?: SummaryLike;
}

export interface BranchLike {
  branch: number;
  parent: number | null;
  fromVersion: number | null;
  baseVersion: number;
  lastVersion: number;
  commandId: string | null;
  command: unknown;
  createdAt: Date | null;
  live: boolean;
}

export interface SummaryLike {
  status: EncounterRecordLike['status'];
  round: number;
}

export interface LeaseLike {
  encounterId: string;
  ownerId: string;
  token: number;
  expiresAt: Date;
}

/** One encounter of a batched load (`RuntimeStore.loadEncounters`). */
export interface LoadedEncounterLike {
  record: EncounterRecordLike;
  /** taken with a new token (as `acquireLease`); null when another instance holds it */
  lease: LeaseLike | null;
  snapshot: { encounterId: string; version: number; state: unknown; createdAt: Date } | null;
  /** the live log after the snapshot's version less 256, oldest first; null: not read (read it with `readLog`) */
  tail: LogEntryLike[] | null;
}

export interface RuntimeStore {
  createEncounter(input: Omit<EncounterRecordLike, 'createdAt' | 'updatedAt'>, initialState: unknown): Promise<EncounterRecordLike>;
  getEncounter(id: string): Promise<EncounterRecordLike | null>;
  updateEncounterSummary(id: string, summary: Partial<Pick<EncounterRecordLike, 'status' | 'round' | 'version' | 'name'>>): Promise<void>;
  appendLog(entries: LogEntryLike[], fencing: { encounterId: string; token: number }[]): Promise<void>;
  /** a branch's log (default: the live branch; docs/timeline.md) */
  readLog(encounterId: string, afterSeq: number, limit?: number, branch?: number): Promise<LogEntryLike[]>;
  /** the branches of the log, oldest first, the live one last (absent: a store without rewinds) */
  listBranches?(encounterId: string): Promise<BranchLike[]>;
  /** drop the snapshots after a version (a rewind); required for rewinds */
  deleteSnapshotsAfter?(encounterId: string, version: number): Promise<void>;
  /** the oldest snapshot (the encounter as created, or as forked); required for rewinds and forks */
  firstSnapshot?(encounterId: string): Promise<{ encounterId: string; version: number; state: unknown; createdAt: Date } | null>;
  findLogByCommandId(encounterId: string, commandId: string): Promise<LogEntryLike | null>;
  /**
   * Every command id in an encounter's log (optional): the host builds its filter of accepted ids
   * from it, so that most refused commands need no `findLogByCommandId` (EncounterHost.refuse)
   */
  listCommandIds?(encounterId: string): Promise<string[]>;
  saveSnapshot(encounterId: string, version: number, state: unknown, summary?: SummaryLike): Promise<void>;
  latestSnapshot(encounterId: string): Promise<{ encounterId: string; version: number; state: unknown; createdAt: Date } | null>;
  acquireLease(encounterId: string, ownerId: string, ttlMs: number): Promise<LeaseLike | null>;
  renewLease(lease: LeaseLike, ttlMs: number): Promise<LeaseLike | null>;
  /** renew many leases in one round trip (optional); returns those still held, renewed */
  renewLeases?(leases: LeaseLike[], ttlMs: number): Promise<LeaseLike[]>;
  releaseLease(lease: LeaseLike): Promise<void>;
  /**
   * Many encounters loaded at once (optional; the runtime batches concurrent loads through it):
   * each one's lease taken exactly as `acquireLease` takes it, then its record, newest snapshot
   * and log tail (at most `tailLimit` entries, else null) read; an id missing from the answer has
   * no encounter.
   */
  loadEncounters?(ids: string[], ownerId: string, ttlMs: number, tailLimit: number): Promise<Map<string, LoadedEncounterLike>>;
  /** many snapshots saved at once (optional; a graceful stop saves every live encounter's) */
  saveSnapshots?(snapshots: Array<{ encounterId: string; version: number; state: unknown; summary?: SummaryLike }>): Promise<void>;
  /** release many leases in one round trip (optional; a graceful stop hands every encounter over at once) */
  releaseLeases?(leases: LeaseLike[]): Promise<void>;
}

/** The store's StaleOwnerError, recognised by name so that the runtime needs no import of it. */
export function isStaleOwner(e: unknown): boolean {
  return e instanceof Error && e.name === 'StaleOwnerError';
}

export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};
