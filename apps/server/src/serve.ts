import { availableParallelism } from 'node:os';
import { registry } from '@fray/rulesets';
import { webPlugin } from '@fray/web';
import { MemoryStore, type RuntimeOptions } from '@fray/runtime';
import { claimInstance, InstanceInUseError } from '@fray/store';
import type { Logger } from 'pino';
import { configFromEnv, type Config } from './config.js';
import { resolveInstanceId } from './instance.js';
import { scheduleBackups } from './data/scheduled-backups.js';
import { advisedV8PoolSize, damonMonitors, damonWarning, memoryReducerOn, tuneMemory, v8PoolSize } from './memory.js';
import { trimWhenQuiet } from './idle-trim.js';
import { openStore } from './open-store.js';
import { buildServer, makeLogger } from './server.js';
import type { ServerStore } from './store.js';

/** FRAY_DIAG=1: warn lines for what makes a command slow (for reading a latency tail, not for play) */
const DIAG_COMMIT_MS = 25;
const DIAG_STALL_MS = 30;

/** Every time the event loop was held longer than DIAG_STALL_MS (GC, a long task, or no CPU to run on). */
function logStalls(logger: { warn: (o: object, m: string) => void }): void {
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > DIAG_STALL_MS)
      logger.warn({ startedAt: new Date(Date.now() - (now - last)).toISOString(), ms: Math.round(now - last) }, 'event loop stalled');
    last = now;
  }, 5).unref();
}

/** Runtime tuning from the environment (optional; the defaults suit a single machine). */
function runtimeFromEnv(env: NodeJS.ProcessEnv): Partial<RuntimeOptions> {
  const out: Partial<RuntimeOptions> = {};
  const num = (k: string) => (env[k] !== undefined && env[k] !== '' && Number.isFinite(Number(env[k])) ? Number(env[k]) : undefined);
  const reaction = num('FRAY_REACTION_SECONDS');
  if (reaction !== undefined) out.reactionSeconds = reaction;
  const snap = num('FRAY_SNAPSHOT_EVERY');
  if (snap !== undefined) out.snapshotEvery = snap;
  const lease = num('FRAY_LEASE_SECONDS');
  if (lease !== undefined) {
    out.leaseTtlMs = lease * 1000;
    out.sweepMs = Math.max(200, (lease * 1000) / 4);
  }
  const idle = num('FRAY_IDLE_SECONDS');
  if (idle !== undefined) out.idleMs = idle * 1000;
  const inFlight = num('FRAY_COMMITS_IN_FLIGHT');
  if (inFlight !== undefined) out.commitsInFlight = Math.max(1, Math.floor(inFlight));
  const history = num('FRAY_SYNC_HISTORY');
  if (history !== undefined) out.syncHistory = Math.max(0, Math.floor(history));
  if (env.FRAY_DIAG === '1') out.logSlowCommitMs = DIAG_COMMIT_MS;
  return out;
}

/**
 * This process's instance id (FRAY_INSTANCE_ID or its default, instance.ts), claimed so that no
 * other live process runs with it: a second one refuses to start (InstanceInUseError, exit 1).
 */
async function claimInstanceId(config: Config, store: ServerStore, logger: Logger) {
  const kind = store.kind;
  const resolved = await resolveInstanceId({ explicit: config.instanceId, database: kind, dataDir: config.dataDir, port: config.port });
  if (resolved.source === 'random' && kind !== 'memory') {
    logger.warn(
      { instanceId: resolved.id },
      "no stable instance id (set FRAY_INSTANCE_ID): after a crash, this process's encounters wait for their leases to expire (FRAY_LEASE_SECONDS)",
    );
  }
  let lose: (e: Error) => void = () => {};
  const lost = new Promise<Error>((resolve) => (lose = resolve));
  try {
    const claim =
      kind === 'memory'
        ? { instanceId: resolved.id, ping: () => store.ping(), release: async () => {} }
        : await claimInstance(store, resolved.id, { logger, onLost: lose });
    return { ...resolved, claim, lost };
  } catch (e) {
    if (e instanceof InstanceInUseError) {
      logger.fatal({ instanceId: resolved.id, source: resolved.source, holder: e.holder }, e.message);
      await store.close().catch(() => {});
      process.exit(1);
    }
    throw e;
  }
}

type Instance = Awaited<ReturnType<typeof claimInstanceId>>;

async function main(): Promise<void> {
  const config = configFromEnv();
  tuneMemory(config.memory);
  const logger = makeLogger(config.logLevel, config.pretty);
  const store = await openServerStore(config, logger);
  const instance = await claimInstanceId(config, store, logger);
  const server = await buildServer({
    store,
    rulesets: registry,
    logger,
    runtime: runtimeFromEnv(process.env),
    instanceId: instance.id,
    // readiness on the instance lock's own connection (Postgres): it does not queue behind the pool
    ping: () => instance.claim.ping(),
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    publicUrl: config.publicUrl,
    secureCookies: config.secureCookies,
    cookieDomain: config.cookieDomain,
    trustProxy: config.trustProxy,
    metricsToken: config.metricsToken,
  });
  // the browser client at / (apps/web), as built by `npm run build` (which `npm start` runs first)
  await server.app.register(webPlugin);
  const { url } = await server.listen(config.port, config.host).catch(async (e: unknown) => {
    await server.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw listenError(e, config.port, config.host);
  });
  const v8Pool = v8PoolSize();
  const memoryReducer = memoryReducerOn();
  logger.info(
    {
      url,
      database: store.kind,
      redis: config.redisUrl ? 'configured' : 'not configured',
      ownerId: server.runtime.options.ownerId,
      instance: instance.source,
      memory: { ...config.memory, v8PoolSize: v8Pool, memoryReducer },
      rulesets: Object.keys(registry),
    },
    `Fray listening on ${url} (docs at ${url}/docs)`,
  );
  warnOfMemorySettings(logger, v8Pool, memoryReducer);
  const stopping = stopOnSignals(logger, instance, () => server.close(), store);
  // never while stopping: a graceful stop empties the process, and a trim then only delays its exit
  trimWhenQuiet(
    config,
    server.runtime.metrics,
    () => stopping() || server.runtime.liveCount > 0 || server.io.engine.clientsCount > 0,
    logger,
  );
  if (process.env.FRAY_DIAG === '1') logStalls(logger);
  if (config.backups && store.kind !== 'memory') {
    scheduleBackups(store, config.backups, logger);
    logger.info(config.backups, 'backups scheduled (FRAY_BACKUP_DIR)');
  }
}

/**
 * The store: `@fray/store`'s (Postgres, or the embedded PGlite), or with FRAY_STORE=memory the
 * runtime's MemoryStore: nothing is persisted (for measuring the server alone), never for play.
 */
async function openServerStore(config: Config, logger: Logger): Promise<ServerStore> {
  if (process.env.FRAY_STORE !== 'memory') return openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
  logger.warn({}, 'FRAY_STORE=memory: nothing will be persisted');
  return new MemoryStore();
}

/** Warnings about V8's and the kernel's memory settings that cost a loaded server its latency (memory.ts). */
function warnOfMemorySettings(logger: Logger, v8Pool: number, memoryReducer: boolean): void {
  const cores = availableParallelism();
  const advised = advisedV8PoolSize(cores);
  if (v8Pool > advised) {
    logger.warn(
      { v8PoolSize: v8Pool, cores, advised },
      `V8 runs ${v8Pool} background threads on ${cores} cores: its full GCs will take cores from the event loop; start node with --v8-pool-size=${advised} (docs/performance.md)`,
    );
  }

  if (memoryReducer) {
    logger.warn(
      { memoryReducer },
      "V8's memory reducer is on: under load it starts a full GC about every 100 s that shrinks the young generation; start node with --no-memory-reducer as npm start and the Dockerfile do (docs/journal/performance-2026-11.md, Session 17)",
    );
  }

  const damon = damonMonitors();
  const damonSays = damonWarning(damon, cores);
  if (damonSays) logger.warn({ damon, cores }, damonSays);
}

/**
 * A graceful stop on SIGTERM or SIGINT, or when another process takes this one's instance id: the
 * server closed (its encounters handed over), the instance id released, the store closed, exit 0.
 * Returns whether it has begun.
 */
function stopOnSignals(logger: Logger, instance: Instance, closeServer: () => Promise<void>, store: ServerStore): () => boolean {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    closeServer()
      .then(() => instance.claim.release())
      .then(() => store.close())
      .then(() => process.exit(0))
      .catch((e: unknown) => {
        logger.error({ err: String(e) }, 'shutdown failed');
        process.exit(1);
      });
  };
  instance.lost.then(
    (e) => {
      logger.error({ instanceId: instance.id }, e.message);
      stop('instance id taken');
    },
    () => {},
  );
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return () => stopping;
}

/** Why the server could not listen, in words a newcomer can act on (a port in use names PORT). */
function listenError(e: unknown, port: number, host: string): Error {
  const code = typeof e === 'object' && e !== null && 'code' in e ? e.code : undefined;
  if (code === 'EADDRINUSE')
    return new StartError(
      `Port ${port} is already in use on ${host}: another Fray or another program listens on it. Stop it, or start Fray on another port, e.g. PORT=${port === 3000 ? 3001 : port + 1} npm start.`,
    );
  if (code === 'EACCES')
    return new StartError(
      `Port ${port} needs privileges this process does not have (ports below 1024 do). Set PORT to 1024 or above, e.g. PORT=3000.`,
    );
  if (code === 'EADDRNOTAVAIL')
    return new StartError(`HOST ${host} is not an address of this machine. Set HOST to one of its addresses, or 0.0.0.0 for all of them.`);
  return e instanceof Error ? e : new Error(String(e));
}

/** A start-up failure whose message says it all (printed without a stack trace). */
class StartError extends Error {}

main().catch((e: unknown) => {
  if (e instanceof StartError) console.error(`Fray did not start: ${e.message}`);
  else console.error(e);
  process.exit(1);
});
