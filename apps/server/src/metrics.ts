import type { FastifyInstance } from 'fastify';
import type { ServerContext } from './server.js';

/**
 * `GET /metrics`: this process's resource figures for benchmarks and monitoring, as JSON.
 * Read-only, unauthenticated, and without encounter data (counts and byte sizes only).
 */
export function registerMetrics(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/metrics', { schema: { summary: 'Process figures: memory, CPU, live encounters, command and group-commit counters (no encounter data)' } }, async () => {
    const w = ctx.runtime.writer.stats;
    return {
      pid: process.pid,
      uptimeSeconds: process.uptime(),
      memory: process.memoryUsage(),
      cpu: process.cpuUsage(),
      liveEncounters: ctx.runtime.liveCount,
      sockets: ctx.sinks.size,
      runtime: { ...ctx.runtime.metrics },
      /** the group-commit log writer: one batch is one database commit */
      logWriter: { batches: w.batches, entries: w.entries, writeMs: w.writeMs, maxWriteMs: w.maxWriteMs },
    };
  });
}
