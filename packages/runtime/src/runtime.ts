import { encounterLoader, replay } from './loader.js';
import { releaseEveryLease, saveEverySnapshot } from './handover.js';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createEncounter, type EncounterState, type Ruleset } from '@fray/engine';
import type { DeadlinesMessage, PatchMessage } from '@fray/protocol';
import { EncounterHost } from './host.js';
import { RuntimeError, type Sink, type SnapshotTarget } from './host-types.js';
import { defaultRuntimeOptions, unknownRulesetMessage, type RuntimeInit, type RuntimeOptions } from './options.js';
import { LogWriter } from './log-writer.js';
import { silentLogger, type EncounterRecordLike, type Logger, type RuntimeStore } from './store.js';

/**
 * The live encounters of one process. Loads an encounter on demand (latest snapshot + the log
 * tail through the engine), takes its lease so no other process runs it, and lets it go when idle.
 */
export class Runtime {
  readonly store: RuntimeStore;
  readonly rulesets: Record<string, Ruleset>;
  readonly logger: Logger;
  readonly options: RuntimeOptions;
  readonly writer: LogWriter;
  readonly now: () => number;
  readonly metrics = { commands: 0, loads: 0, unloads: 0 };
  private readonly hosts = new Map<string, EncounterHost>();
  private readonly loading = new Map<string, Promise<EncounterHost>>();
  private readonly closedHandler: (encounterId: string, sink: Sink, reason: string) => void;
  readonly deliver: (msg: PatchMessage, sinks: readonly Sink[]) => void;
  readonly onDeadlines: (sink: Sink, msg: DeadlinesMessage) => void;
  private readonly loader: ReturnType<typeof encounterLoader>;
  private sweeper: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(init: RuntimeInit) {
    this.store = init.store;
    this.rulesets = init.rulesets;
    this.logger = init.logger ?? silentLogger;
    this.options = { ...defaultRuntimeOptions, ownerId: `fray-${randomUUID()}`, ...init.options };
    this.writer = new LogWriter(this.store, this.logger, this.options.maxBatch, this.options.commitsInFlight, this.options.logSlowCommitMs);
    this.now = init.now ?? Date.now;
    this.closedHandler = init.onClosed ?? (() => {});
    this.onDeadlines = init.onDeadlines ?? (() => {});
    this.deliver =
      init.deliver ??
      ((msg, sinks) => {
        for (const s of sinks) s(msg);
      });
    const o = this.options;
    this.loader = encounterLoader(this.store, {
      ownerId: o.ownerId,
      leaseTtlMs: o.leaseTtlMs,
      windowMs: o.loadBatchMs,
      maxBatch: o.loadBatchSize,
      inFlight: o.loadBatchesInFlight,
      logger: this.logger,
    });
    this.sweeper = setInterval(() => void this.sweep(), this.options.sweepMs);
    this.sweeper.unref();
  }

  get liveCount(): number {
    return this.hosts.size;
  }

  liveIds(): string[] {
    return [...this.hosts.keys()];
  }

  ruleset(id: string): Ruleset | undefined {
    return Object.prototype.hasOwnProperty.call(this.rulesets, id) ? this.rulesets[id] : undefined;
  }

  onClosed(encounterId: string, sink: Sink, reason: string): void {
    this.closedHandler(encounterId, sink, reason);
  }

  /** Create an encounter (state version 0) and save it. */
  async create(input: {
    id?: string;
    accountId: string;
    name: string;
    ruleset: string;
    options?: unknown;
    seed?: number;
  }): Promise<EncounterRecordLike> {
    const ruleset = this.ruleset(input.ruleset);
    if (!ruleset) throw new RuntimeError('INVALID_REQUEST', unknownRulesetMessage(input.ruleset, Object.keys(this.rulesets)));
    const id = input.id ?? `enc_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const seed = input.seed ?? randomInt(0, 2 ** 31 - 1);
    // committed dice (docs/dice.md) unless the caller chose the seed: the secret from node:crypto, here at the edge
    const dice = input.seed === undefined ? { seed: randomBytes(32).toString('hex'), salt: randomBytes(16).toString('hex') } : undefined;
    let state: EncounterState;
    try {
      state = createEncounter(ruleset, { id, name: input.name, options: input.options ?? {}, seed, ...(dice ? { dice } : {}) });
    } catch (e) {
      const code = fieldOf(e, 'code');
      const message = fieldOf(e, 'message');
      throw new RuntimeError(typeof code === 'string' ? code : 'INVALID_OPTIONS', typeof message === 'string' ? message : String(e));
    }
    return this.store.createEncounter(
      {
        id,
        accountId: input.accountId,
        name: input.name,
        ruleset: ruleset.id,
        options: state.options,
        seed,
        status: 'setup',
        round: 0,
        version: 0,
      },
      state,
    );
  }

  /** The live host of an encounter, loading it (snapshot + log tail) if needed. */
  async open(encounterId: string): Promise<EncounterHost> {
    if (this.stopping) throw new RuntimeError('UNAVAILABLE', 'The server is shutting down.');
    const live = this.hosts.get(encounterId);
    if (live && !live.closed) return live;
    let p = this.loading.get(encounterId);
    if (!p) {
      p = this.load(encounterId)
        .catch((e: unknown) => {
          // the database is down or unreachable: a typed refusal, not an internal error
          if (isStoreUnavailable(e)) {
            throw new RuntimeError('UNAVAILABLE', 'The database is unavailable; try again shortly.');
          }
          throw e;
        })
        .finally(() => this.loading.delete(encounterId));
      this.loading.set(encounterId, p);
    }
    return p;
  }

  peek(encounterId: string): EncounterHost | undefined {
    return this.hosts.get(encounterId);
  }

  /**
   * Load an encounter: its lease taken, then its snapshot and log tail through the engine. Through
   * the batched loader when the store has one (loader.ts); the long way otherwise, and for an
   * encounter the batch could not read whole (timeline branches, a long tail).
   */
  private async load(encounterId: string): Promise<EncounterHost> {
    const got = this.loader ? await this.loader.load(encounterId) : undefined;
    const record = got === undefined ? await this.store.getEncounter(encounterId) : (got?.record ?? null);
    if (!record) throw new RuntimeError('NOT_FOUND', `No encounter "${encounterId}".`);
    const ruleset = this.ruleset(record.ruleset);
    if (!ruleset) {
      if (got?.lease) await this.store.releaseLease(got.lease).catch(() => {});
      throw new RuntimeError('UNAVAILABLE', `This server does not know the ruleset "${record.ruleset}".`);
    }
    const lease = got ? got.lease : await this.store.acquireLease(encounterId, this.options.ownerId, this.options.leaseTtlMs);
    if (!lease) throw new RuntimeError('ENCOUNTER_BUSY', 'Another server process runs this encounter.');
    const log = this.logger.child({ encounterId });
    try {
      const preloaded = got?.tail ? { snapshot: got.snapshot, tail: got.tail } : undefined;
      const { state, snapshotVersion, turnTimerSeconds, recent, hiddenGone } = await replay(
        this.store,
        encounterId,
        record,
        ruleset,
        log,
        preloaded,
      );
      // a batch reads the tail only of an encounter without timeline branches (branch 0)
      const branch = preloaded || !this.store.listBranches ? 0 : ((await this.store.listBranches(encounterId)).at(-1)?.branch ?? 0);
      const host = new EncounterHost(this, ruleset, record.accountId, state, lease, log, {
        snapshotVersion,
        turnTimerSeconds,
        hiddenGone,
        archived: record.status === 'archived',
        recentCommands: recent,
        branch,
      });
      this.hosts.set(encounterId, host);
      this.metrics.loads += 1;
      host.evaluateDeadlines();
      log.info(
        {
          version: state.version,
          fromSnapshot: snapshotVersion,
          replayed: state.version - snapshotVersion,
          leaseToken: lease.token,
          batched: got !== undefined,
        },
        'encounter loaded',
      );
      return host;
    } catch (e) {
      await this.store.releaseLease(lease).catch(() => {});
      throw e;
    }
  }

  /**
   * Read-only: the current state of an encounter as the database has it (every acknowledged
   * command is committed there), without taking its lease. For reads on a process that does not
   * run the encounter (another process may). null when there is no such encounter.
   */
  async readState(
    encounterId: string,
  ): Promise<{ record: EncounterRecordLike; state: EncounterState; turnTimerSeconds: number | null } | null> {
    try {
      const record = await this.store.getEncounter(encounterId);
      if (!record) return null;
      const ruleset = this.ruleset(record.ruleset);
      if (!ruleset) throw new RuntimeError('UNAVAILABLE', `This server does not know the ruleset "${record.ruleset}".`);
      const { state, turnTimerSeconds } = await replay(this.store, encounterId, record, ruleset, this.logger.child({ encounterId }));
      return { record, state, turnTimerSeconds };
    } catch (e) {
      if (isStoreUnavailable(e)) throw new RuntimeError('UNAVAILABLE', 'The database is unavailable; try again shortly.');
      throw e;
    }
  }

  /**
   * Let an encounter leave memory: drain its queue, snapshot, release its lease. Subscribers are
   * told (`closed`) at once, or with `notifyAfterRelease` only once the lease is free, so that a
   * client told to go can be served by another process straight away (planned hand-over).
   */
  async unload(
    encounterId: string,
    reason: string,
    opts: { release?: boolean; snapshot?: boolean; notifyAfterRelease?: boolean } = {},
  ): Promise<void> {
    const host = this.hosts.get(encounterId);
    if (!host) return;
    this.hosts.delete(encounterId);
    host.close();
    if (!opts.notifyAfterRelease) host.notifyClosed(reason);
    try {
      if (opts.snapshot !== false) {
        await host.drain();
        await this.writer.drain();
        await host.snapshot();
      }
      if (opts.release !== false)
        await this.store.releaseLease(host.lease).catch((e) => host.logger.warn({ err: String(e) }, 'lease release failed'));
    } finally {
      if (opts.notifyAfterRelease) host.notifyClosed(reason);
    }
    this.metrics.unloads += 1;
    host.logger.info({ reason, version: host.version }, 'encounter left memory');
  }

  /** Deleted: no more commands, queue and log drained, `erase` run, then `closed` `reason` (a failed erase: as a database error). */
  async discard(encounterId: string, reason: string, erase: () => Promise<void>): Promise<void> {
    const host = this.hosts.get(encounterId);
    if (!host) return erase();
    host.close();
    await host
      .drain()
      .then(() => this.writer.drain())
      .then(erase)
      .catch(async (e: unknown) => {
        await this.unload(encounterId, 'database error', { snapshot: false });
        throw e;
      });
    this.hosts.delete(encounterId);
    host.notifyClosed(reason);
    this.metrics.unloads += 1;
    host.logger.info({ reason, version: host.version }, 'encounter left memory');
  }

  async archive(encounterId: string): Promise<void> {
    await this.store.updateEncounterSummary(encounterId, { status: 'archived' });
    const host = this.hosts.get(encounterId);
    if (host) host.archived = true;
  }

  /** Renew leases, snapshot quiet encounters, let idle ones go. */
  async sweep(): Promise<void> {
    if (this.stopping) return;
    const now = this.now();
    // renew when a third of the lease is left or less; all due leases in one statement when the
    // store can (one commit per sweep instead of one per encounter)
    const due = (h: EncounterHost) => !h.closed && h.lease.expiresAt.getTime() - now < (this.options.leaseTtlMs * 2) / 3;
    const batched = new Set<EncounterHost>();
    if (this.store.renewLeases) {
      const hosts = [...this.hosts.values()].filter(due);
      for (let i = 0; i < hosts.length; i += 500) {
        const chunk = hosts.slice(i, i + 500);
        try {
          const renewed = new Map(
            (
              await this.store.renewLeases(
                chunk.map((h) => h.lease),
                this.options.leaseTtlMs,
              )
            ).map((l) => [`${l.encounterId}:${l.token}`, l]),
          );
          for (const host of chunk) {
            batched.add(host);
            const l = renewed.get(`${host.id}:${host.lease.token}`);
            if (l) host.lease = l;
            else if (!host.closed) {
              host.logger.warn({}, 'lease lost to another process');
              await this.unload(host.id, 'lease lost', { release: false, snapshot: false });
            }
          }
        } catch (e) {
          for (const host of chunk) batched.add(host);
          this.logger.warn({ err: String(e), leases: chunk.length }, 'lease renewal failed');
        }
      }
    }
    for (const host of [...this.hosts.values()]) {
      if (host.closed) continue;
      if (!batched.has(host) && due(host)) {
        try {
          const renewed = await this.store.renewLease(host.lease, this.options.leaseTtlMs);
          if (!renewed) {
            host.logger.warn({}, 'lease lost to another process');
            await this.unload(host.id, 'lease lost', { release: false, snapshot: false });
            continue;
          }
          host.lease = renewed;
        } catch (e) {
          host.logger.warn({ err: String(e) }, 'lease renewal failed');
        }
      }
      const quiet = now - host.lastActivity;
      if (!host.busy && quiet >= this.options.idleSnapshotMs && host.version > host.snapshotVersion) await host.snapshot();
      if (!host.busy && quiet >= this.options.idleSnapshotMs && host.subscriberCount === 0) host.compact();
      if (!host.busy && host.subscriberCount === 0 && quiet >= this.options.idleMs) await this.unload(host.id, 'idle');
    }
  }

  /**
   * Graceful stop (planned hand-over): refuse new work, drain every queue, flush the log,
   * snapshot, release the leases (another process may take them at once), and only then tell
   * each subscriber `closed` with reason `shutdown`, so a client that goes elsewhere is served.
   */
  private readonly snapshotQueue: SnapshotTarget[] = [];
  private snapshotsRunning = 0;

  /** A periodic snapshot of this host, in the background queue (once, however often it is asked). */
  queueSnapshot(host: SnapshotTarget): void {
    if (host.snapshotQueued) return;
    host.snapshotQueued = true;
    this.snapshotQueue.push(host);
    this.pumpSnapshots();
  }

  private pumpSnapshots(): void {
    while (this.snapshotsRunning < Math.max(1, this.options.snapshotsInFlight) && this.snapshotQueue.length > 0) {
      const host = this.snapshotQueue.shift()!;
      host.snapshotQueued = false;
      if (host.closed) continue; // unloading snapshots it anyway
      this.snapshotsRunning += 1;
      void host.snapshot().finally(() => {
        this.snapshotsRunning -= 1;
        this.pumpSnapshots();
      });
    }
  }

  async shutdown(): Promise<void> {
    this.stopping = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    await Promise.allSettled([...this.loading.values()]);
    const t0 = this.now();
    const hosts = [...this.hosts.values()];
    // every queued command runs first (a closed host refuses what is still queued)
    await Promise.all(hosts.map((h) => h.drain()));
    await this.writer.drain();
    this.hosts.clear();
    for (const h of hosts) h.close();
    await Promise.all(hosts.map((h) => h.drain()));
    await this.writer.drain();
    const drained = this.now();
    // every snapshot (a few statements), then every lease, and only then the `closed` notices
    await saveEverySnapshot(this.store, hosts, this.logger);
    const saved = this.now();
    try {
      await releaseEveryLease(this.store, hosts);
    } catch (e) {
      this.logger.warn({ err: String(e), leases: hosts.length }, 'lease release failed (the leases expire on their own)');
    } finally {
      for (const h of hosts) h.notifyClosed('shutdown');
      this.metrics.unloads += hosts.length;
    }
    const ms = { drainMs: drained - t0, snapshotsMs: saved - drained, leasesMs: this.now() - saved };
    this.logger.info({ encounters: hosts.length, ...ms }, 'encounters handed over');
  }
}

/** A field of a thrown value, when it is an object that has it. */
function fieldOf(e: unknown, key: string): unknown {
  return typeof e === 'object' && e !== null ? Reflect.get(e, key) : undefined;
}

/** The store's refusal when the database is down or unreachable (its StoreUnavailableError). */
function isStoreUnavailable(e: unknown): boolean {
  return e instanceof Error && fieldOf(e, 'code') === 'STORE_UNAVAILABLE';
}
