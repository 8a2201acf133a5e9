/**
 * The persistence contract the runtime and the server use. One implementation (Prisma over
 * `@prisma/adapter-pg`) serves both a real Postgres (`DATABASE_URL`) and the embedded PGlite.
 *
 * Log entries are the durable truth: a command is acknowledged only after `appendLog` resolved.
 * `(encounterId, seq)` is unique, and every append carries the writer's fencing token: the
 * database refuses an append whose token is not the encounter's current owner token.
 */

import type { AccountsStore } from './accounts-types.js';
import type { BranchRecord } from './timeline.js';
import type { ReplayLinksStore } from './replay-links-types.js';
import type { DeletionsStore } from './deletions-types.js';

export interface AccountRecord {
  id: string;
  name: string | null;
  createdAt: Date;
}

export type EncounterStatus = 'setup' | 'active' | 'ended' | 'archived';

export interface EncounterRecord {
  id: string;
  accountId: string;
  name: string;
  ruleset: string;
  options: unknown;
  seed: number;
  status: EncounterStatus;
  round: number;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface InviteRecord {
  id: string;
  encounterId: string;
  role: 'player' | 'spectator';
  /** the player id commands are issued as (role player) */
  playerId: string | null;
  combatantIds: string[];
  revoked: boolean;
  expiresAt: Date | null;
  createdAt: Date;
}

export interface LogEntry {
  encounterId: string;
  /** = the state version after this command (1, 2, 3...) */
  seq: number;
  /** the timeline branch (docs/timeline.md): 0 or absent for the encounter as first played */
  branch?: number;
  /** the client's idempotency key (unique per encounter) */
  commandId: string;
  command: unknown;
  events: unknown[];
  createdAt?: Date;
  /**
   * The encounter's status and round after this entry, when the entry changed them: written to
   * the encounter's row (with version = seq) in the same transaction as the entry, so the GM's
   * list never runs ahead of the log and a change costs no commit of its own. Not read back.
   */
  summary?: EncounterSummary;
}

/** What the GM's encounter list shows of a live encounter, besides its version. */
export interface EncounterSummary {
  status: EncounterRecord['status'];
  round: number;
}

export interface SnapshotRecord {
  encounterId: string;
  version: number;
  state: unknown;
  createdAt: Date;
}

export interface Lease {
  encounterId: string;
  ownerId: string;
  /** fencing token: strictly increasing per encounter */
  token: number;
  expiresAt: Date;
}

/** One encounter of a batch, as the runtime builds its host from it. */
export interface LoadedEncounter {
  record: EncounterRecord;
  /** ours now, with a new token; null when another instance holds an unexpired lease */
  lease: Lease | null;
  snapshot: SnapshotRecord | null;
  /**
   * the live log after the snapshot's version less 256 (the idempotency window), oldest first;
   * null when it was not read (the lease is not ours, the encounter has timeline branches, or
   * the tail is longer than the batch reads): then the caller reads the log the long way
   */
  tail: LogEntry[] | null;
}

export class StaleOwnerError extends Error {
  constructor(message = 'This process no longer owns the encounter (stale fencing token).') {
    super(message);
    this.name = 'StaleOwnerError';
  }
}

export class DuplicateSeqError extends Error {
  constructor(message = 'A log entry with this sequence number already exists.') {
    super(message);
    this.name = 'DuplicateSeqError';
  }
}

/**
 * A command id already used in this encounter (unique (encounterId, commandId)). Extends
 * DuplicateSeqError so callers that only know DuplicateSeqError still treat it as a refusal.
 */
export class DuplicateCommandIdError extends DuplicateSeqError {
  constructor(message = 'A log entry with this command id already exists in the encounter.') {
    super(message);
    this.name = 'DuplicateCommandIdError';
  }
}

/** The appended entries do not continue the encounter's log (seq must be last + 1, last + 2...). */
/** An append to a branch that a rewind left (docs/timeline.md): the entry was made before the rewind. */
export class StaleBranchError extends Error {
  constructor(message = 'The log entry is on a branch that is no longer live (the encounter was rewound).') {
    super(message);
    this.name = 'StaleBranchError';
  }
}

export class SeqGapError extends Error {
  constructor(message = 'The log entries would leave a gap in the sequence.') {
    super(message);
    this.name = 'SeqGapError';
  }
}

/**
 * The database cannot be reached (down, refusing connections, timing out). Nothing was written
 * by the failed call; the store recovers by itself when the database comes back.
 */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  constructor(message = 'The database is unavailable.', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** updateEncounterSummary on an encounter that does not exist. */
export class NotFoundError extends Error {
  constructor(message = 'Not found.') {
    super(message);
    this.name = 'NotFoundError';
  }
}

export interface Store {
  /** 'memory': the runtime's MemoryStore, which the server runs on with FRAY_STORE=memory (nothing persisted, no accounts) */
  readonly kind: 'postgres' | 'embedded' | 'memory';
  /** a human description for /health: no secrets and no filesystem path (the data directory's is in the log only) */
  readonly description: string;
  /** sign-in names, passwords, sessions, API tokens, passkeys, device codes (absent: a store that keeps none) */
  readonly accounts?: AccountsStore;
  /** read-only replay links (absent: a store that keeps none) */
  readonly replayLinks?: ReplayLinksStore;
  /** deleting encounters, leaving tombstones (absent: a store that cannot delete) */
  readonly deletions?: DeletionsStore;

  createAccount(input: { id: string; tokenHash: string; name?: string | null }): Promise<AccountRecord>;
  findAccountByTokenHash(tokenHash: string): Promise<AccountRecord | null>;

  createEncounter(input: Omit<EncounterRecord, 'createdAt' | 'updatedAt'>, initialState: unknown): Promise<EncounterRecord>;
  getEncounter(id: string): Promise<EncounterRecord | null>;
  /** newest activity first */
  listEncounters(accountId: string, opts?: { includeArchived?: boolean }): Promise<EncounterRecord[]>;
  updateEncounterSummary(id: string, summary: Partial<Pick<EncounterRecord, 'status' | 'round' | 'version' | 'name'>>): Promise<void>;

  createInvite(input: Omit<InviteRecord, 'createdAt' | 'revoked'> & { tokenHash: string }): Promise<InviteRecord>;
  findInviteByTokenHash(tokenHash: string): Promise<InviteRecord | null>;
  /** findInviteByTokenHash for many hashes in one query (optional): a restart's reconnecting players, by their token hashes */
  findInvitesByTokenHashes?(tokenHashes: string[]): Promise<Map<string, InviteRecord>>;
  listInvites(encounterId: string): Promise<InviteRecord[]>;
  revokeInvite(id: string): Promise<void>;

  /**
   * Append entries atomically (all or none), refusing with StaleOwnerError when `fencingToken`
   * is not the current lease token of the encounter, and DuplicateSeqError on a taken seq.
   * Entries of several encounters may be batched in one transaction by the caller's choice.
   */
  appendLog(entries: LogEntry[], fencing: { encounterId: string; token: number }[]): Promise<void>;
  /** a branch's log (default: the live branch), see docs/timeline.md */
  readLog(encounterId: string, afterSeq: number, limit?: number, branch?: number): Promise<LogEntry[]>;
  /** every branch of the encounter's log, oldest first (the last is the live one) */
  listBranches(encounterId: string): Promise<BranchRecord[]>;
  /** drop the snapshots after `version` (a rewind leaves them to the branch it abandons) */
  deleteSnapshotsAfter(encounterId: string, version: number): Promise<void>;
  findLogByCommandId(encounterId: string, commandId: string): Promise<LogEntry | null>;
  /** Every command id in the encounter's log, in no particular order. */
  listCommandIds(encounterId: string): Promise<string[]>;

  /** `summary`, when given, is written to the encounter's row (with `version`) in the same transaction. */
  saveSnapshot(encounterId: string, version: number, state: unknown, summary?: EncounterSummary): Promise<void>;
  /** saveSnapshot for many encounters in one statement (a graceful stop saves every live one's) */
  saveSnapshots?(list: Array<{ encounterId: string; version: number; state: unknown; summary?: EncounterSummary }>): Promise<void>;
  latestSnapshot(encounterId: string): Promise<SnapshotRecord | null>;
  /** the oldest snapshot: the encounter as created (or as forked) */
  firstSnapshot(encounterId: string): Promise<SnapshotRecord | null>;

  /**
   * Take the lease with a new fencing token (token + 1) when it is free, expired, or held by the
   * same instance (the part of the owner id before `@`: a restarted process taking over its own
   * leases at once); null when another owner holds an unexpired one.
   */
  acquireLease(encounterId: string, ownerId: string, ttlMs: number): Promise<Lease | null>;
  renewLease(lease: Lease, ttlMs: number): Promise<Lease | null>;
  /** renew many leases at once; returns those still held (renewed) */
  renewLeases(leases: Lease[], ttlMs: number): Promise<Lease[]>;
  releaseLease(lease: Lease): Promise<void>;
  /** releaseLease for many leases in one statement (a graceful stop) */
  releaseLeases(leases: Lease[]): Promise<void>;
  /**
   * Many encounters loaded at once (a rejoin storm after a restart; optional: the runtime loads
   * one at a time without it): each one's lease taken as
   * `acquireLease` takes it, then its record, newest snapshot and log tail (at most `tailLimit`
   * entries) read; an id missing from the answer has no encounter.
   */
  loadEncounters?(ids: string[], ownerId: string, ttlMs: number, tailLimit: number): Promise<Map<string, LoadedEncounter>>;
  getLease(encounterId: string): Promise<Lease | null>;

  /** One round trip to the database (readiness); rejects with StoreUnavailableError when down. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
