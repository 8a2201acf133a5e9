import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { ServerContext } from './context.js';

/**
 * This process's figures for Prometheus (prom-client): Node's own (CPU, memory, heap spaces, event
 * loop delay, GC pauses, file descriptors: `process_*`, `nodejs_*`) and Fray's (`fray_*`), read from
 * the runtime when scraped. One registry per server, so that several servers in one process (tests)
 * keep theirs apart. No encounter data: counts, sizes and times only.
 */
export function prometheusRegistry(ctx: ServerContext): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const { runtime } = ctx;
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  /** a counter kept elsewhere (the runtime's own totals), copied in when scraped */
  const counter = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });

  gauge('fray_live_encounters', 'Encounters live in this process (in memory, holding their lease).', () => runtime.liveCount);
  gauge('fray_viewers', 'Viewers joined to an encounter on this process (a socket joined to two counts twice).', () => ctx.sinks.size);
  counter('fray_commands_total', 'Commands applied by this process.', () => runtime.metrics.commands);
  counter('fray_encounter_loads_total', 'Encounters loaded into memory (from snapshot and log).', () => runtime.metrics.loads);
  counter('fray_encounter_unloads_total', 'Encounters that left memory (idle, closed, handed over).', () => runtime.metrics.unloads);
  counter(
    'fray_log_commits_total',
    'Group commits of the command log (one database transaction each).',
    () => runtime.writer.stats.batches,
  );
  counter('fray_log_entries_total', 'Command log entries written.', () => runtime.writer.stats.entries);
  counter('fray_log_write_seconds_total', 'Time spent in group commits, seconds.', () => runtime.writer.stats.writeMs / 1000);
  gauge('fray_log_write_max_seconds', 'The longest group commit since the start, seconds.', () => runtime.writer.stats.maxWriteMs / 1000);
  new Counter({
    name: 'fray_refusals_total',
    help: 'Socket messages and commands refused, by error code (bad input, rate limits, rules).',
    labelNames: ['code'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [code, n] of Object.entries(ctx.refusals.totals)) this.inc({ code }, n);
    },
  });
  new Gauge({
    name: 'fray_info',
    help: 'Always 1; the labels say which database and whether Redis is configured.',
    labelNames: ['database', 'redis'],
    registers: [registry],
    collect() {
      this.reset();
      this.set({ database: ctx.store.kind, redis: ctx.redis.status() }, 1);
    },
  });
  return registry;
}
