import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from './errors.js';
import { errorsOf } from './openapi.js';
import { prometheusRegistry } from './prometheus.js';
import { watchEventLoopDelay, watchGc } from './process-monitors.js';
import type { ServerContext } from './context.js';

const counts = z.record(z.string(), z.number());
/** GET /metrics/json's body */
const metricsJson = z
  .object({
    pid: z.number(),
    uptimeSeconds: z.number(),
    memory: counts.describe('process.memoryUsage(): rss, heapTotal, heapUsed, external, arrayBuffers (bytes)'),
    cpu: z.object({ user: z.number(), system: z.number() }).describe('process.cpuUsage() since the start, µs'),
    liveEncounters: z.number(),
    sockets: z.number().describe('viewers joined to an encounter'),
    runtime: counts.describe('commands, loads, unloads since the start'),
    logWriter: counts.describe('the group-commit log writer: batches (commits), entries, writeMs, maxWriteMs…'),
    refusals: counts.describe('refused socket messages and commands since the start, by error code'),
    eventLoopDelayMs: z
      .object({ p50: z.number(), p99: z.number(), max: z.number(), windowSeconds: z.number() })
      .nullable()
      .describe('the last completed 10-second window; null before the first'),
    gc: counts.describe('garbage collections since the start: counts, total and longest pauses (ms)'),
  })
  .describe("This process's figures");

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The guard of the metrics routes: `Authorization: Bearer <FRAY_METRICS_TOKEN>`. Without a token
 * configured the routes are off (403 saying how to turn them on): a process's figures are not for
 * anyone who can reach its port.
 */
export function metricsGuard(token: string | undefined): (req: FastifyRequest) => Promise<void> {
  const want = token ? digest(token) : null;
  return async (req) => {
    if (!want)
      throw new ApiError(
        'FORBIDDEN',
        'Metrics are off on this server: set FRAY_METRICS_TOKEN and send it as Authorization: Bearer <token>.',
        403,
      );
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    // compared as digests of equal length, in constant time
    if (!m || !timingSafeEqual(digest(m[1]!), want))
      throw new ApiError('UNAUTHORIZED', 'The metrics need Authorization: Bearer <FRAY_METRICS_TOKEN>.', 401);
  };
}

/**
 * `GET /metrics`: this process's figures in the Prometheus text format (prometheus.ts);
 * `GET /metrics/json`: the resource figures the benchmark reads, as JSON. Both behind
 * `metricsGuard`, read-only, without encounter data (counts and byte sizes only).
 */
export function registerMetrics(app: FastifyInstance, ctx: ServerContext, token: string | undefined): void {
  const guard = metricsGuard(token);
  const registry = prometheusRegistry(ctx);
  const eventLoopDelay = watchEventLoopDelay(app);
  const gc = watchGc(app);
  const prometheusText = { description: 'The Prometheus text format (version 0.0.4)', content: { 'text/plain': { schema: z.string() } } };
  app.get(
    '/metrics',
    {
      onRequest: guard,
      schema: {
        summary: 'Prometheus text format: process, Node and Fray figures (Authorization: Bearer <FRAY_METRICS_TOKEN>)',
        security: [{ bearer: [] }],
        response: { 200: prometheusText, ...errorsOf.guarded },
      },
    },
    async (_req, reply) => {
      const text = await registry.metrics();
      return reply.type(registry.contentType).send(text);
    },
  );
  app.get(
    '/metrics/json',
    {
      onRequest: guard,
      schema: {
        summary: 'Process figures as JSON: memory, CPU, live encounters, command and group-commit counters (no encounter data)',
        security: [{ bearer: [] }],
        response: { 200: metricsJson, ...errorsOf.guarded },
      },
    },
    async () => {
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
        logWriter: { ...w },
        /** refused socket messages and commands since the start, by error code */
        refusals: { ...ctx.refusals.totals },
        /** ms; null until the first window has passed */
        eventLoopDelayMs: eventLoopDelay(),
        /** garbage collections since the start: counts, total and longest pauses (ms) */
        gc: gc(),
      };
    },
  );
}
