import { isStaleOwner, type LogEntryLike, type Logger, type RuntimeStore } from './store.js';

interface Pending {
  entry: LogEntryLike;
  token: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: appends from every encounter of this process are batched into one database
 * statement; up to `maxInFlight` batches are written at once (each encounter has at most one
 * entry waiting, since its host waits for the commit before its next command, so batches never
 * reorder an encounter's entries). A promise resolves only once its entry is committed.
 */
const RESOLVE_SLICE = 16;

export class LogWriter {
  private pending: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private idle: Array<() => void> = [];
  /** encounters with an entry in a batch being written */
  private readonly writing = new Set<string>();
  /** batches written, entries written, time spent writing (for /health and the benchmark) */
  readonly stats = { batches: 0, entries: 0, writeMs: 0, maxWriteMs: 0, over10ms: 0, over25ms: 0, over100ms: 0 };

  constructor(
    private readonly store: RuntimeStore,
    private readonly logger: Logger,
    private readonly maxBatch = 128,
    private readonly maxInFlight = 6,
    private readonly logSlowMs = 0,
  ) {}

  append(entry: LogEntryLike, token: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ entry, token, resolve, reject });
      this.kick();
    });
  }

  /** Resolves when everything appended so far is written (or refused). */
  drain(): Promise<void> {
    if (this.pending.length === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private kick(): void {
    if (this.scheduled || this.pending.length === 0 || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    // let the current tick's appends join the batch
    setImmediate(() => {
      this.scheduled = false;
      if (this.pending.length === 0 || this.inFlight >= this.maxInFlight) return;
      const batch = this.takeBatch();
      if (batch.length === 0) return; // what is left waits for a batch in flight
      this.inFlight += 1;
      void this.flush(batch).finally(() => {
        for (const p of batch) this.writing.delete(p.entry.encounterId);
        this.inFlight -= 1;
        this.kick();
        if (this.pending.length === 0 && this.inFlight === 0) for (const r of this.idle.splice(0)) r();
      });
      this.kick();
    });
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      await this.write(batch);
    } catch (e) {
      await this.retryOneByOne(batch, e);
      return;
    }
    // Each resolve lets a host broadcast its patches (~0.1-0.5 ms of work). Resolving a whole
    // batch at once would run all of it in one go and hold back every other socket and commit for
    // as long; in slices, with a turn of the event loop between them, the rest interleaves.
    for (let i = 0; i < batch.length; i += RESOLVE_SLICE) {
      if (i > 0) await new Promise<void>((r) => setImmediate(r));
      for (const p of batch.slice(i, i + RESOLVE_SLICE)) {
        this.writing.delete(p.entry.encounterId); // its next entry may join the next batch
        p.resolve();
      }
      this.kick();
    }
  }

  /** One stale owner (or bad entry) must not fail the others: retry one by one. */
  private async retryOneByOne(batch: Pending[], e: unknown): Promise<void> {
    if (batch.length === 1) {
      batch[0]!.reject(e);
      return;
    }
    this.logger.warn({ err: String(e), size: batch.length }, 'group commit failed; retrying entries one by one');
    for (const p of batch) {
      try {
        await this.write([p]);
        p.resolve();
      } catch (e2) {
        if (!isStaleOwner(e2) && !(e2 instanceof Error && e2.name === 'DuplicateCommandIdError'))
          this.logger.error({ err: String(e2), encounterId: p.entry.encounterId }, 'log append failed');
        p.reject(e2);
      }
    }
  }

  /** At most one entry per encounter per batch (keeps each encounter's entries in order). */
  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const seen = new Set<string>();
    const rest: Pending[] = [];
    for (const p of this.pending) {
      if (batch.length < this.maxBatch && !seen.has(p.entry.encounterId) && !this.writing.has(p.entry.encounterId)) {
        seen.add(p.entry.encounterId);
        batch.push(p);
      } else rest.push(p);
    }
    this.pending = rest;
    for (const p of batch) this.writing.add(p.entry.encounterId);
    return batch;
  }

  private async write(batch: Pending[]): Promise<void> {
    const fencing = batch.map((p) => ({ encounterId: p.entry.encounterId, token: p.token }));
    const t0 = performance.now();
    await this.store.appendLog(
      batch.map((p) => p.entry),
      fencing,
    );
    const ms = performance.now() - t0;
    this.stats.batches += 1;
    this.stats.entries += batch.length;
    this.stats.writeMs += ms;
    if (ms > this.stats.maxWriteMs) this.stats.maxWriteMs = ms;
    if (this.logSlowMs > 0 && ms > this.logSlowMs) {
      // the time includes any wait of this process's event loop before it read the reply
      this.logger.warn(
        {
          startedAt: new Date(Date.now() - ms).toISOString(),
          ms: Math.round(ms),
          entries: batch.length,
          inFlight: this.inFlight,
          waiting: this.pending.length,
        },
        'slow group commit',
      );
    }
    if (ms > 10) {
      this.stats.over10ms += 1;
      if (ms > 25) this.stats.over25ms += 1;
      if (ms > 100) this.stats.over100ms += 1;
    }
  }
}
