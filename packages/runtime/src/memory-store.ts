import { branchLog, branchesOf } from './memory-timeline.js';
import type { EncounterRecordLike, LeaseLike, LogEntryLike, RuntimeStore, SummaryLike } from './store.js';

class StaleOwner extends Error {
  constructor() {
    super('This process no longer owns the encounter (stale fencing token).');
    this.name = 'StaleOwnerError';
  }
}

interface MemoryInvite {
  id: string;
  encounterId: string;
  role: 'player' | 'spectator';
  playerId: string | null;
  combatantIds: string[];
  revoked: boolean;
  expiresAt: Date | null;
  createdAt: Date;
}

/**
 * An in-memory store with the contract's semantics (fencing tokens, unique sequence numbers,
 * leases). For the runtime's own unit tests, and for the server with FRAY_STORE=memory (measuring
 * the server alone: nothing persisted, no accounts); the server otherwise runs on `@fray/store`.
 */
export class MemoryStore implements RuntimeStore {
  readonly kind = 'memory' as const;
  readonly description = 'in-memory (tests)';
  encounters = new Map<string, EncounterRecordLike>();
  logs = new Map<string, LogEntryLike[]>();
  snapshots = new Map<string, Array<{ encounterId: string; version: number; state: unknown; createdAt: Date }>>();
  leases = new Map<string, LeaseLike>();
  /** the accounts' rows (an account token's, no more: this store keeps no sign-in names, sessions or passkeys) */
  private readonly accountRows = new Map<string, { id: string; name: string | null; createdAt: Date; tokenHash: string }>();
  invites = new Map<string, MemoryInvite & { tokenHash: string }>();
  appendCalls = 0;
  failNextAppend: Error | null = null;

  async createAccount(input: { id: string; tokenHash: string; name?: string | null }) {
    const rec = { id: input.id, name: input.name ?? null, createdAt: new Date(), tokenHash: input.tokenHash };
    this.accountRows.set(input.id, rec);
    return { id: rec.id, name: rec.name, createdAt: rec.createdAt };
  }
  async findAccountByTokenHash(tokenHash: string) {
    for (const a of this.accountRows.values()) if (a.tokenHash === tokenHash) return { id: a.id, name: a.name, createdAt: a.createdAt };
    return null;
  }
  async listEncounters(accountId: string, opts: { includeArchived?: boolean } = {}) {
    return [...this.encounters.values()]
      .filter((e) => e.accountId === accountId && (opts.includeArchived || e.status !== 'archived'))
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
      .map((e) => ({ ...e }));
  }
  async createInvite(input: Omit<MemoryInvite, 'createdAt' | 'revoked'> & { tokenHash: string }) {
    const rec = { ...input, revoked: false, createdAt: new Date() };
    this.invites.set(input.id, rec);
    const { tokenHash: _t, ...out } = rec;
    return out;
  }
  async findInviteByTokenHash(tokenHash: string) {
    for (const i of this.invites.values())
      if (i.tokenHash === tokenHash) {
        const { tokenHash: _t, ...out } = i;
        return out;
      }
    return null;
  }
  async listInvites(encounterId: string) {
    return [...this.invites.values()].filter((i) => i.encounterId === encounterId).map(({ tokenHash: _t, ...out }) => out);
  }
  async revokeInvite(id: string) {
    const i = this.invites.get(id);
    if (i) i.revoked = true;
  }
  async ping() {}
  async close() {}

  async createEncounter(input: Omit<EncounterRecordLike, 'createdAt' | 'updatedAt'>, initialState: unknown): Promise<EncounterRecordLike> {
    const now = new Date();
    const rec = { ...input, createdAt: now, updatedAt: now };
    this.encounters.set(input.id, rec);
    this.snapshots.set(input.id, [{ encounterId: input.id, version: input.version, state: structuredClone(initialState), createdAt: now }]);
    return { ...rec };
  }
  async getEncounter(id: string) {
    const r = this.encounters.get(id);
    return r ? { ...r } : null;
  }
  async updateEncounterSummary(id: string, summary: Partial<Pick<EncounterRecordLike, 'status' | 'round' | 'version' | 'name'>>) {
    const r = this.encounters.get(id);
    if (r) Object.assign(r, summary, { updatedAt: new Date() });
  }
  async appendLog(entries: LogEntryLike[], fencing: { encounterId: string; token: number }[]) {
    this.appendCalls += 1;
    if (this.failNextAppend) {
      const e = this.failNextAppend;
      this.failNextAppend = null;
      throw e;
    }
    for (const f of fencing) if (this.leases.get(f.encounterId)?.token !== f.token) throw new StaleOwner();
    for (const e of entries) {
      const log = this.logs.get(e.encounterId) ?? [];
      if (log.some((x) => x.commandId === e.commandId))
        throw Object.assign(new Error('duplicate command id'), { name: 'DuplicateCommandIdError' });
      const live = branchesOf(log).at(-1)!.branch;
      if ((e.branch ?? 0) < live || (e.branch ?? 0) > live + 1)
        throw Object.assign(new Error('stale branch'), { name: 'StaleBranchError' });
      if (log.some((x) => x.seq === e.seq && (x.branch ?? 0) === (e.branch ?? 0)))
        throw Object.assign(new Error('duplicate seq'), { name: 'DuplicateSeqError' });
    }
    for (const { summary, ...e } of entries) {
      const log = this.logs.get(e.encounterId) ?? [];
      log.push(structuredClone({ ...e, createdAt: new Date() }));
      this.logs.set(e.encounterId, log);
      if (summary) this.summarize(e.encounterId, e.seq, summary);
    }
  }
  private summarize(encounterId: string, version: number, summary: SummaryLike): void {
    const r = this.encounters.get(encounterId);
    if (r && r.status !== 'archived') Object.assign(r, summary, { version, updatedAt: new Date() });
  }
  /** without a limit, every entry after `afterSeq` (as the Postgres store reads it) */
  async readLog(encounterId: string, afterSeq: number, limit?: number, branch?: number) {
    return branchLog(this.logs.get(encounterId) ?? [], branch)
      .filter((e) => e.seq > afterSeq)
      .slice(0, limit ?? Number.MAX_SAFE_INTEGER)
      .map((e) => structuredClone(e));
  }
  /** calls of findLogByCommandId and listCommandIds (for tests of what the runtime reads) */
  commandIdLookups = 0;
  commandIdLists = 0;
  async findLogByCommandId(encounterId: string, commandId: string) {
    this.commandIdLookups += 1;
    return (this.logs.get(encounterId) ?? []).find((e) => e.commandId === commandId) ?? null;
  }
  async listCommandIds(encounterId: string) {
    this.commandIdLists += 1;
    return (this.logs.get(encounterId) ?? []).map((e) => e.commandId);
  }
  async saveSnapshot(encounterId: string, version: number, state: unknown, summary?: SummaryLike) {
    if (summary) this.summarize(encounterId, version, summary);
    const list = this.snapshots.get(encounterId) ?? [];
    list.push({ encounterId, version, state: structuredClone(state), createdAt: new Date() });
    this.snapshots.set(encounterId, list);
  }
  async listBranches(encounterId: string) {
    return branchesOf(this.logs.get(encounterId) ?? []);
  }
  async deleteSnapshotsAfter(encounterId: string, version: number) {
    this.snapshots.set(
      encounterId,
      (this.snapshots.get(encounterId) ?? []).filter((s) => s.version <= version),
    );
  }
  async firstSnapshot(encounterId: string) {
    const best = [...(this.snapshots.get(encounterId) ?? [])].sort((a, b) => a.version - b.version)[0];
    return best ? structuredClone(best) : null;
  }
  async latestSnapshot(encounterId: string) {
    const list = this.snapshots.get(encounterId) ?? [];
    const best = [...list].sort((a, b) => b.version - a.version)[0];
    return best ? structuredClone(best) : null;
  }
  async acquireLease(encounterId: string, ownerId: string, ttlMs: number) {
    const cur = this.leases.get(encounterId);
    const now = Date.now();
    if (cur && cur.ownerId.split('@')[0] !== ownerId.split('@')[0] && cur.expiresAt.getTime() > now) return null;
    const lease = { encounterId, ownerId, token: (cur?.token ?? 0) + 1, expiresAt: new Date(now + ttlMs) };
    this.leases.set(encounterId, lease);
    return { ...lease };
  }
  async renewLease(lease: LeaseLike, ttlMs: number) {
    const cur = this.leases.get(lease.encounterId);
    if (!cur || cur.token !== lease.token || cur.ownerId !== lease.ownerId) return null;
    cur.expiresAt = new Date(Date.now() + ttlMs);
    return { ...cur };
  }
  async renewLeases(leases: LeaseLike[], ttlMs: number) {
    const out: LeaseLike[] = [];
    for (const l of leases) {
      const r = await this.renewLease(l, ttlMs);
      if (r) out.push(r);
    }
    return out;
  }
  async releaseLease(lease: LeaseLike) {
    const cur = this.leases.get(lease.encounterId);
    if (cur && cur.token === lease.token) cur.expiresAt = new Date(0);
  }

  async releaseLeases(leases: LeaseLike[]) {
    for (const l of leases) await this.releaseLease(l);
  }
  async getLease(encounterId: string) {
    const cur = this.leases.get(encounterId);
    return cur ? { ...cur } : null;
  }
}
