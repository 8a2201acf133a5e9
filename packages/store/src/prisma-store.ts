import { listBranches, readBranchLog, type BranchRecord } from './timeline.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { PrismaAccounts } from './accounts.js';
import type { AccountsStore } from './accounts-types.js';
import type { PrismaStoreInfo } from './prisma-store-info.js';
import { PrismaReplayLinks } from './replay-links.js';
import { PrismaDeletions } from './deletions.js';
import type { DeletionsStore } from './deletions-types.js';
import type { ReplayLinksStore } from './replay-links-types.js';
import { mapError } from './errors.js';
import { releaseLeasesIn, renewLeasesIn } from './lease-batches.js';
import { loadEncountersIn } from './load-batches.js';
import { saveSnapshotIn, saveSnapshotsIn } from './snapshot-batches.js';
import type {
  AccountRecord,
  EncounterRecord,
  EncounterSummary,
  InviteRecord,
  Lease,
  LoadedEncounter,
  LogEntry,
  SnapshotRecord,
  Store,
} from './types.js';
import { NotFoundError } from './types.js';
import { json, seedToDb, toEncounter, toInvite, toLease, ttl, jsonParam, type LeaseRow } from './prisma-rows.js';

export { jsonParam } from './prisma-rows.js';

/** Snapshots kept per encounter: the first one (the encounter as created) and the newest ones. */
export const SNAPSHOTS_KEPT = 3;
/** besides the first snapshot and the one being saved (saveSnapshot's DELETE needs at least 1) */
const KEPT_OTHERS = SNAPSHOTS_KEPT - 2;

/** The Store over Prisma 7 and @prisma/adapter-pg; serves real Postgres and PGlite alike. */
export class PrismaStore implements Store {
  readonly kind: 'postgres' | 'embedded';
  readonly description: string;
  readonly accounts: AccountsStore;
  readonly replayLinks: ReplayLinksStore;
  readonly deletions: DeletionsStore;
  private closed?: Promise<void>;

  constructor(
    readonly prisma: PrismaClient,
    /** internal details (connection URL, schema): never expose them over HTTP */
    readonly info: PrismaStoreInfo,
  ) {
    this.kind = info.kind;
    this.description = info.description;
    this.accounts = new PrismaAccounts(prisma);
    this.replayLinks = new PrismaReplayLinks(prisma);
    this.deletions = new PrismaDeletions(info.pool);
  }

  private async run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw mapError(error, what);
    }
  }

  // ---- accounts ------------------------------------------------------------------------------

  createAccount(input: { id: string; tokenHash: string; name?: string | null }): Promise<AccountRecord> {
    return this.run('createAccount', async () => {
      const r = await this.prisma.account.create({
        data: { id: input.id, tokenHash: input.tokenHash, name: input.name ?? null },
      });
      return { id: r.id, name: r.name, createdAt: r.createdAt };
    });
  }

  findAccountByTokenHash(tokenHash: string): Promise<AccountRecord | null> {
    return this.run('findAccountByTokenHash', async () => {
      const r = await this.prisma.account.findUnique({ where: { tokenHash } });
      return r ? { id: r.id, name: r.name, createdAt: r.createdAt } : null;
    });
  }

  // ---- encounters ----------------------------------------------------------------------------

  /** Creates the encounter and its first snapshot (the initial state at `input.version`) atomically. */
  createEncounter(input: Omit<EncounterRecord, 'createdAt' | 'updatedAt'>, initialState: unknown): Promise<EncounterRecord> {
    return this.run('createEncounter', async () => {
      const r = await this.prisma.encounter.create({
        data: {
          id: input.id,
          accountId: input.accountId,
          name: input.name,
          ruleset: input.ruleset,
          options: json(input.options ?? {}),
          seed: seedToDb(input.seed),
          status: input.status,
          round: input.round,
          version: input.version,
          snapshots: { create: { version: input.version, state: json(initialState) } },
        },
      });
      return toEncounter(r);
    });
  }

  getEncounter(id: string): Promise<EncounterRecord | null> {
    return this.run('getEncounter', async () => {
      const r = await this.prisma.encounter.findUnique({ where: { id } });
      return r ? toEncounter(r) : null;
    });
  }

  listEncounters(accountId: string, opts: { includeArchived?: boolean } = {}): Promise<EncounterRecord[]> {
    return this.run('listEncounters', async () => {
      const rows = await this.prisma.encounter.findMany({
        where: { accountId, ...(opts.includeArchived ? {} : { status: { not: 'archived' } }) },
        orderBy: [{ updatedAt: 'desc' }, { createdAt: 'desc' }, { id: 'desc' }],
      });
      return rows.map(toEncounter);
    });
  }

  /** One UPDATE through the pool (called when the round or status changes, on the hot path). */
  updateEncounterSummary(id: string, summary: Partial<Pick<EncounterRecord, 'status' | 'round' | 'version' | 'name'>>): Promise<void> {
    return this.run('updateEncounterSummary', async () => {
      const { rowCount } = await this.info.pool.query(
        `UPDATE encounters SET status = COALESCE($2, status), round = COALESCE($3, round),
                version = COALESCE($4, version), name = COALESCE($5, name), updated_at = $6
          WHERE id = $1`,
        [id, summary.status ?? null, summary.round ?? null, summary.version ?? null, summary.name ?? null, new Date()],
      );
      if (!rowCount) throw new NotFoundError(`No encounter ${id}.`);
    });
  }

  // ---- invites -------------------------------------------------------------------------------

  createInvite(input: Omit<InviteRecord, 'createdAt' | 'revoked'> & { tokenHash: string }): Promise<InviteRecord> {
    return this.run('createInvite', async () => {
      const r = await this.prisma.invite.create({
        data: {
          id: input.id,
          encounterId: input.encounterId,
          tokenHash: input.tokenHash,
          role: input.role,
          playerId: input.playerId ?? null,
          combatantIds: input.combatantIds ?? [],
          expiresAt: input.expiresAt ?? null,
        },
      });
      return toInvite(r);
    });
  }

  findInviteByTokenHash(tokenHash: string): Promise<InviteRecord | null> {
    return this.run('findInviteByTokenHash', async () => {
      const r = await this.prisma.invite.findUnique({ where: { tokenHash } });
      return r ? toInvite(r) : null;
    });
  }

  findInvitesByTokenHashes(tokenHashes: string[]): Promise<Map<string, InviteRecord>> {
    return this.run('findInvitesByTokenHashes', async () => {
      const rows = await this.prisma.invite.findMany({ where: { tokenHash: { in: tokenHashes } } });
      return new Map(rows.map((r) => [r.tokenHash, toInvite(r)]));
    });
  }

  listInvites(encounterId: string): Promise<InviteRecord[]> {
    return this.run('listInvites', async () => {
      const rows = await this.prisma.invite.findMany({ where: { encounterId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      return rows.map(toInvite);
    });
  }

  revokeInvite(id: string): Promise<void> {
    return this.run('revokeInvite', async () => {
      await this.prisma.invite.updateMany({ where: { id }, data: { revoked: true } });
    });
  }

  // ---- the command log -----------------------------------------------------------------------

  /**
   * One statement (so one transaction) for the whole batch, whatever the number of encounters:
   * `fray_append_log` takes each fenced encounter's fence (a shared advisory lock, which a token
   * change takes exclusively: migration 20261126010000_append_advisory_fence), refuses a stale
   * token (StaleOwnerError), a taken seq or command id (DuplicateSeqError /
   * DuplicateCommandIdError) or a gap (SeqGapError), and inserts every entry or none.
   */
  appendLog(entries: LogEntry[], fencing: { encounterId: string; token: number }[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    return this.run('appendLog', async () => {
      const rows = entries.map((e) => ({
        e: e.encounterId,
        s: e.seq,
        ...(e.branch ? { b: e.branch } : {}),
        c: e.commandId,
        cmd: e.command === undefined ? null : e.command,
        ev: e.events ?? [],
        ...(e.summary ? { st: e.summary.status, r: e.summary.round } : {}),
      }));
      const fences = fencing.map((f) => ({ e: f.encounterId, t: f.token }));
      // The summaries ride in the same statement (a data-modifying CTE: one transaction, so a
      // refused batch changes no summary either). An archived encounter keeps its status.
      await this.info.pool.query(
        rows.some((r) => r.st !== undefined)
          ? `WITH summary AS (
               UPDATE encounters e SET status = x.st, round = x.r, version = x.s, updated_at = now()
                 FROM jsonb_to_recordset($1::jsonb) AS x(e text, s integer, st text, r integer)
                WHERE e.id = x.e AND x.st IS NOT NULL AND e.status <> 'archived'
             )
             SELECT fray_append_log($1::jsonb, $2::jsonb) AS n`
          : 'SELECT fray_append_log($1::jsonb, $2::jsonb) AS n',
        [jsonParam(rows), jsonParam(fences)],
      );
    });
  }

  readLog(encounterId: string, afterSeq: number, limit?: number, branch?: number): Promise<LogEntry[]> {
    return this.run('readLog', () => readBranchLog(this.info.pool, encounterId, afterSeq, limit, branch));
  }

  listBranches(encounterId: string): Promise<BranchRecord[]> {
    return this.run('listBranches', () => listBranches(this.info.pool, encounterId));
  }

  /** Drop the snapshots after `version` (a rewind: they belong to the branch it leaves; the log keeps that branch). */
  deleteSnapshotsAfter(encounterId: string, version: number): Promise<void> {
    return this.run(
      'deleteSnapshotsAfter',
      async () =>
        void (await this.info.pool.query('DELETE FROM snapshots WHERE encounter_id = $1 AND version > $2', [encounterId, version])),
    );
  }

  /**
   * One indexed SELECT through the pool: the runtime asks this for every refused command of an
   * encounter whose accepted command ids no longer all fit in its memory (a retry must get its
   * first ack), so under bad input it is on the hot path; through Prisma it cost about twice the
   * CPU of the lookup itself (docs/journal/performance-2026-11.md, Session 6).
   */
  findLogByCommandId(encounterId: string, commandId: string): Promise<LogEntry | null> {
    return this.run('findLogByCommandId', async () => {
      const { rows } = await this.info.pool.query<{ seq: number; command: unknown; events: unknown; created_at: Date }>(
        'SELECT seq, command, events, created_at FROM command_log WHERE encounter_id = $1 AND command_id = $2',
        [encounterId, commandId],
      );
      const r = rows[0];
      return r
        ? {
            encounterId,
            seq: r.seq,
            commandId,
            command: r.command,
            events: Array.isArray(r.events) ? r.events : [],
            createdAt: r.created_at,
          }
        : null;
    });
  }

  /** One index-only read of the (encounter, command id) unique index, through the pool. */
  listCommandIds(encounterId: string): Promise<string[]> {
    return this.run('listCommandIds', async () => {
      const { rows } = await this.info.pool.query<{ command_id: string }>('SELECT command_id FROM command_log WHERE encounter_id = $1', [
        encounterId,
      ]);
      return rows.map((r) => r.command_id);
    });
  }

  // ---- snapshots -----------------------------------------------------------------------------

  /**
   * Upserts the snapshot, then prunes all but the first and the newest SNAPSHOTS_KEPT - 1: one
   * statement (so one transaction) through the pool (snapshot-batches.ts). Through Prisma this was
   * an upsert carrying the state twice and a delete in a transaction: Prisma walked the whole state
   * per argument (`nestArgument`, about 5 % of the server's CPU under load with a snapshot every
   * 100 commands).
   */
  saveSnapshot(encounterId: string, version: number, state: unknown, summary?: EncounterSummary): Promise<void> {
    return this.run('saveSnapshot', () => saveSnapshotIn(this.info.pool, KEPT_OTHERS, encounterId, version, state, summary));
  }

  /** saveSnapshot for many encounters in one statement (a graceful stop). */
  saveSnapshots(list: Array<{ encounterId: string; version: number; state: unknown; summary?: EncounterSummary }>): Promise<void> {
    return list.length === 0 ? Promise.resolve() : this.run('saveSnapshots', () => saveSnapshotsIn(this.info.pool, KEPT_OTHERS, list));
  }

  /** The oldest snapshot: the encounter as created (or forked); a rewind and a fork rebuild from it. */
  firstSnapshot(encounterId: string): Promise<SnapshotRecord | null> {
    const select = { encounterId: true, version: true, state: true, createdAt: true } as const;
    return this.run('firstSnapshot', () => this.prisma.snapshot.findFirst({ where: { encounterId }, orderBy: { version: 'asc' }, select }));
  }

  latestSnapshot(encounterId: string): Promise<SnapshotRecord | null> {
    return this.run('latestSnapshot', async () => {
      const r = await this.prisma.snapshot.findFirst({ where: { encounterId }, orderBy: { version: 'desc' } });
      return r ? { encounterId: r.encounterId, version: r.version, state: r.state, createdAt: r.createdAt } : null;
    });
  }

  // ---- leases (the database clock decides expiry, so processes need not agree on time) -------

  /**
   * Takes the lease, with a new token (+1), when it is free or expired or held by the same
   * instance (the owner id's part before `@`: a process restarted with its instance id takes over
   * its own leases at once, and the fence refuses whatever its dead predecessor still had in
   * flight); null when another instance holds an unexpired lease.
   */
  acquireLease(encounterId: string, ownerId: string, ttlMs: number): Promise<Lease | null> {
    return this.run('acquireLease', async () => {
      const ms = ttl(ttlMs);
      const rows = await this.prisma.$queryRaw<LeaseRow[]>`
        INSERT INTO leases (encounter_id, owner_id, token, expires_at)
        VALUES (${encounterId}, ${ownerId}, 1, now() + ${ms} * interval '1 millisecond')
        ON CONFLICT (encounter_id) DO UPDATE
          SET owner_id = EXCLUDED.owner_id,
              token = leases.token + 1,
              expires_at = EXCLUDED.expires_at
          WHERE split_part(leases.owner_id, '@', 1) = split_part(EXCLUDED.owner_id, '@', 1) OR leases.expires_at <= now()
        RETURNING encounter_id, owner_id, token, expires_at`;
      const row = rows[0];
      return row ? toLease(row) : null;
    });
  }

  /** Extends the lease if `lease.token` is still the current token of this owner; else null. */
  renewLease(lease: Lease, ttlMs: number): Promise<Lease | null> {
    return this.run('renewLease', async () => (await renewLeasesIn(this.prisma, [lease], ttl(ttlMs)))[0] ?? null);
  }

  /** Many leases renewed in one statement (lease-batches.ts); those still ours come back. */
  renewLeases(leases: Lease[], ttlMs: number): Promise<Lease[]> {
    if (leases.length === 0) return Promise.resolve([]);
    return this.run('renewLeases', () => renewLeasesIn(this.prisma, leases, ttl(ttlMs)));
  }

  /**
   * Expires the lease at once (planned hand-over) if it is still ours. The row stays so the
   * token keeps increasing: the next owner gets token + 1 and our old token stays refused.
   */
  releaseLease(lease: Lease): Promise<void> {
    return this.run('releaseLease', () => releaseLeasesIn(this.info.pool, [lease]));
  }

  /** Many encounters' leases taken (as acquireLease) and their records, snapshots and log tails read: two statements (load-batches.ts). */
  loadEncounters(ids: string[], ownerId: string, ttlMs: number, tailLimit: number): Promise<Map<string, LoadedEncounter>> {
    return this.run('loadEncounters', () => loadEncountersIn(this.info.pool, ids, ownerId, ttl(ttlMs), tailLimit));
  }

  /** releaseLease for many leases in one statement (lease-batches.ts). */
  releaseLeases(leases: Lease[]): Promise<void> {
    return leases.length === 0 ? Promise.resolve() : this.run('releaseLeases', () => releaseLeasesIn(this.info.pool, leases));
  }

  getLease(encounterId: string): Promise<Lease | null> {
    return this.run('getLease', async () => {
      const rows = await this.prisma.$queryRaw<LeaseRow[]>`
        SELECT encounter_id, owner_id, token, expires_at FROM leases WHERE encounter_id = ${encounterId}`;
      const row = rows[0];
      return row ? toLease(row) : null;
    });
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /** One round trip to the database (for /health); rejects with StoreUnavailableError when down. */
  ping(): Promise<void> {
    return this.run('ping', async () => {
      await this.prisma.$queryRaw`SELECT 1`;
    });
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      try {
        await this.prisma.$disconnect();
      } finally {
        await this.info.onClose?.();
      }
    })();
    return this.closed;
  }
}
