import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorsOf } from './openapi.js';
import type { ServerContext } from './context.js';

/** How long readiness waits for the database's `SELECT 1` before it calls the database down. */
export const DEFAULT_READY_TIMEOUT_MS = 1_000;

export type PartStatus = 'up' | 'down';
export type Readiness = {
  status: 'ok' | 'stopping' | 'unavailable';
  /** the parts that do not answer, by name (`database`, `redis`); empty when ready */
  down: Array<'database' | 'redis'>;
  checks: { database: PartStatus; redis: PartStatus | 'not configured' };
  /** why the database check failed (its error, or the timeout), when it did */
  databaseError?: string;
};

/**
 * An error's words without the filesystem paths in them (a driver's message may name a socket or a
 * data directory): readiness is answered to anyone who asks, and a path tells an attacker where
 * the data lives.
 */
export function withoutPaths(text: string): string {
  // an absolute path of two or more parts (`/var/lib/fray/data`, `C:\fray\data`), not a URL's
  // path (`…:5432/fray`) nor a lone `/health`
  return text
    .replace(/\bfile:\/\/\S+/g, '<path>')
    .replace(/(?<![\w.:@/\\-])(?:[A-Za-z]:\\|\/)(?:[^\s/\\'"(),;]+[/\\])+[^\s/\\'"(),;]*/g, '<path>');
}

/** The database answers a round trip within `timeoutMs`: up; an error or no answer in time: down. */
async function checkDatabase(ping: () => Promise<void>, timeoutMs: number): Promise<{ status: PartStatus; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([ping(), timeout]);
    return { status: 'up' };
  } catch (e) {
    return { status: 'down', error: withoutPaths(e instanceof Error ? e.message : String(e)) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness: this process can serve play. The database answers (within the timeout), Redis is
 * connected when it is configured (REDIS_URL), and no graceful stop has begun.
 */
export async function readiness(
  ctx: ServerContext,
  timeoutMs: number,
  ping: () => Promise<void> = () => ctx.store.ping(),
): Promise<Readiness> {
  const db = await checkDatabase(ping, timeoutMs);
  const redis = ctx.redis.status();
  const down: Readiness['down'] = [];
  if (db.status === 'down') down.push('database');
  if (redis === 'down') down.push('redis');
  const status = ctx.stopping ? 'stopping' : down.length ? 'unavailable' : 'ok';
  return { status, down, checks: { database: db.status, redis }, ...(db.error ? { databaseError: db.error } : {}) };
}

const liveReply = z.object({ status: z.literal('ok') });
const readyReply = z.object({
  /** 'ok'; 'unavailable' (503) when a part is down; 'stopping' (503) during a graceful stop */
  status: z.enum(['ok', 'stopping', 'unavailable']),
  down: z.array(z.enum(['database', 'redis'])),
  checks: z.object({ database: z.enum(['up', 'down']), redis: z.enum(['up', 'down', 'not configured']) }),
  databaseError: z.string().optional(),
  /** which database is in use: 'postgres' or 'embedded' */
  database: z.string(),
  description: z.string(),
  liveEncounters: z.number(),
  /** this process's lease owner id (its instance id, FRAY_INSTANCE_ID, and its public URL) */
  ownerId: z.string(),
  instanceId: z.string(),
  /** socket.io's Redis adapter: 'not configured' (single process), 'up' or 'down' */
  redis: z.enum(['up', 'down', 'not configured']),
  commands: z.number(),
  logBatches: z.number(),
  logEntries: z.number(),
  logWriteMsAvg: z.number(),
  logWriteMsMax: z.number(),
});

/**
 * `GET /health/live`: the process answers (200 while it runs, even during a graceful stop, so
 * that an orchestrator does not kill it mid-drain). `GET /health/ready` and `GET /health`: 200
 * when the database answers within the timeout and Redis (when configured) is connected; 503
 * naming the parts that are down, or `stopping` during a graceful stop.
 */
export function registerHealth(
  app: FastifyInstance,
  ctx: ServerContext,
  opts: { readyTimeoutMs: number; instanceId: string; ping: () => Promise<void> },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/health/live',
    {
      schema: {
        summary: 'Liveness: the process answers (200 even while it stops)',
        response: { 200: liveReply.describe('The process answers'), ...errorsOf.open },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  const ready = async (_req: unknown, reply: { status(code: number): unknown }) => {
    const { runtime, store } = ctx;
    const w = runtime.writer.stats;
    const state = await readiness(ctx, opts.readyTimeoutMs, opts.ping);
    if (state.status !== 'ok') reply.status(503);
    return {
      ...state,
      database: store.kind,
      description: withoutPaths(store.description),
      liveEncounters: runtime.liveCount,
      ownerId: runtime.options.ownerId,
      instanceId: opts.instanceId,
      redis: state.checks.redis,
      commands: runtime.metrics.commands,
      logBatches: w.batches,
      logEntries: w.entries,
      logWriteMsAvg: w.batches ? Number((w.writeMs / w.batches).toFixed(2)) : 0,
      logWriteMsMax: Number(w.maxWriteMs.toFixed(2)),
    };
  };
  const schema = (summary: string) => ({
    schema: {
      summary,
      response: {
        ...errorsOf.open,
        200: readyReply.describe('Ready: the database answers and Redis, when configured, is connected'),
        503: readyReply.describe('Not ready: `down` names the parts that do not answer, or `stopping` during a graceful stop'),
      },
    },
  });
  r.get(
    '/health/ready',
    schema(
      'Readiness: the database answers within a short timeout and Redis (when configured) is connected; 503 names the parts that are down',
    ),
    ready,
  );
  r.get('/health', schema('Readiness (the same as /health/ready), with which database is in use and counters'), ready);
}
