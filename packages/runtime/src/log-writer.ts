import { isStaleOwner, type LogEntryLike, type Logger, type RuntimeStore } from './store.js';

interface Pending {
  entry: LogEntryLike;
  token: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: appends from every encounter of this process are batched into one transaction
 * while the previous one is in flight, so many encounters share one database round trip.
 * A promise resolves only once its entry is committed.
 */
export class LogWriter {
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  /** batches written, entries written (for metrics and tests) */
  readonly stats = { batches: 0, entries: 0 };

  constructor(
    private readonly store: RuntimeStore,
    private readonly logger: Logger,
    private readonly maxBatch = 500,
  ) {}

  append(entry: LogEntryLike, token: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ entry, token, resolve, reject });
      if (!this.flushing) this.flushing = this.flush();
    });
  }

  /** Resolves when everything appended so far is written (or refused). */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    // Let the current tick's appends join this batch.
    await new Promise<void>((r) => setImmediate(r));
    try {
      while (this.pending.length > 0) {
        const batch = this.takeBatch();
        try {
          await this.write(batch);
          for (const p of batch) p.resolve();
        } catch (e) {
          if (batch.length === 1) {
            batch[0]!.reject(e);
            continue;
          }
          // One stale owner (or bad entry) must not fail the others: retry one by one.
          this.logger.warn({ err: String(e), size: batch.length }, 'group commit failed; retrying entries one by one');
          for (const p of batch) {
            try {
              await this.write([p]);
              p.resolve();
            } catch (e2) {
              if (!isStaleOwner(e2)) this.logger.error({ err: String(e2), encounterId: p.entry.encounterId }, 'log append failed');
              p.reject(e2);
            }
          }
        }
      }
    } finally {
      this.flushing = null;
    }
  }

  /** At most one entry per encounter per batch (keeps each encounter's entries in order). */
  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const seen = new Set<string>();
    const rest: Pending[] = [];
    for (const p of this.pending) {
      if (batch.length < this.maxBatch && !seen.has(p.entry.encounterId)) {
        seen.add(p.entry.encounterId);
        batch.push(p);
      } else rest.push(p);
    }
    this.pending = rest;
    return batch;
  }

  private async write(batch: Pending[]): Promise<void> {
    const fencing = batch.map((p) => ({ encounterId: p.entry.encounterId, token: p.token }));
    await this.store.appendLog(
      batch.map((p) => p.entry),
      fencing,
    );
    this.stats.batches += 1;
    this.stats.entries += batch.length;
  }
}
