import { hostname } from 'node:os';
import pg from 'pg';
import { poolConfig } from './open.js';
import { PrismaStore } from './prisma-store.js';
import type { Store } from './types.js';

/**
 * The advisory-lock class of instance ids: "FRAI" (the fence of the log appends uses "FRAY",
 * 1179795801; a different class keeps an instance's session lock apart from every fence even
 * when two hashes meet).
 */
export const INSTANCE_LOCK_CLASS = 1179795785;

/** Another live process already runs with this instance id: this one must not start. */
export class InstanceInUseError extends Error {
  readonly code = 'INSTANCE_IN_USE';
  constructor(
    readonly instanceId: string,
    /** what the holder said of itself (its application_name: pid and host), when visible */
    readonly holder: string | null,
  ) {
    super(
      `Another live Fray process already runs as instance "${instanceId}"${holder ? ` (${holder})` : ''} on this database. ` +
        'Two processes must not share an instance id: give each its own FRAY_INSTANCE_ID (or, on the embedded database, its own FRAY_DATA_DIR), or stop the other one first.',
    );
    this.name = 'InstanceInUseError';
  }
}

export interface InstanceClaim {
  readonly instanceId: string;
  /**
   * One round trip on the claim's own connection (Postgres): readiness that does not queue behind
   * the pool's work (a restart's thundering herd of token lookups and encounter loads kept a ping
   * through the pool waiting for seconds). Without a connection of its own: the store's ping.
   */
  ping(): Promise<void>;
  /** let the id go (a graceful stop); a killed process lets it go with its connection */
  release(): Promise<void>;
}

export interface ClaimOptions {
  /** how long to keep trying while the id is held (a predecessor's connection may take a moment to close) */
  waitMs?: number;
  logger?: { warn(o: object, msg: string): void; error(o: object, msg: string): void };
  /** the claim was lost and could not be taken back (another process has the id now) */
  onLost?: (error: Error) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Who holds the lock, from pg_locks and pg_stat_activity (the holder's application_name). */
async function holderOf(client: pg.Client, instanceId: string): Promise<string | null> {
  const r = await client
    .query<{ application_name: string; since: Date }>(
      `SELECT a.application_name, a.backend_start AS since FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.classid = $1::oid AND l.objid = (hashtext($2) & 4294967295)::oid AND l.granted
        LIMIT 1`,
      [INSTANCE_LOCK_CLASS, instanceId],
    )
    .catch(() => null);
  const row = r?.rows[0];
  return row?.application_name ? `${row.application_name}, connected since ${row.since.toISOString()}` : null;
}

/** One connection of its own holding the session advisory lock of the id; null when another session holds it. */
async function tryLock(url: string, schema: string | undefined, instanceId: string): Promise<pg.Client | { heldBy: string | null }> {
  const client = new pg.Client({
    ...poolConfig(url, { poolSize: 1, connectTimeoutMs: 5_000, queryTimeoutMs: 10_000, ...(schema ? { schema } : {}) }),
    application_name: `fray pid ${process.pid} on ${hostname()}`.slice(0, 63),
  });
  await client.connect();
  try {
    // the server notices a silently vanished client (its host lost power) within about 20 s
    await client.query('SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 2').catch(() => {});
    const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS ok', [
      INSTANCE_LOCK_CLASS,
      instanceId,
    ]);
    if (r.rows[0]?.ok) return client;
    const heldBy = await holderOf(client, instanceId);
    await client.end().catch(() => {});
    return { heldBy };
  } catch (e) {
    await client.end().catch(() => {});
    throw e;
  }
}

/**
 * Claims an instance id for this process, so that two live processes never share one (they would
 * take each other's leases). On Postgres: a session advisory lock on a connection of its own,
 * held for the process's life; Postgres lets it go the moment that connection closes, so a
 * process restarted after kill -9 takes its id back at once, and a second live process with the
 * same id is refused (InstanceInUseError). If the connection drops (a database outage), the claim
 * is taken again when the database is back; if another process took the id meanwhile, `onLost`.
 * On the embedded database the data directory's lock already allows one process per database.
 */
export async function claimInstance(store: Store, instanceId: string, opts: ClaimOptions = {}): Promise<InstanceClaim> {
  if (!(store instanceof PrismaStore) || store.kind !== 'postgres' || !store.info.url) {
    return { instanceId, ping: () => store.ping(), release: async () => {} };
  }
  const { url, schema } = store.info;
  const deadline = Date.now() + (opts.waitMs ?? 3_000);
  let client: pg.Client | undefined;
  for (;;) {
    const got = await tryLock(url, schema, instanceId);
    if (got instanceof pg.Client) {
      client = got;
      break;
    }
    if (Date.now() >= deadline) throw new InstanceInUseError(instanceId, got.heldBy);
    await sleep(250);
  }
  let released = false;
  const watch = (c: pg.Client) => {
    c.on('error', (e) => opts.logger?.warn({ err: e.message }, 'instance lock connection error'));
    c.once('end', () => {
      if (client === c) client = undefined;
      if (released) return;
      opts.logger?.warn({ instanceId }, 'instance lock connection lost; taking the instance id again when the database answers');
      void retake();
    });
  };
  const retake = async () => {
    while (!released) {
      await sleep(1_000);
      try {
        const got = await tryLock(url, schema, instanceId);
        if (got instanceof pg.Client) {
          if (released) return void got.end().catch(() => {});
          client = got;
          watch(got);
          return;
        }
        const error = new InstanceInUseError(instanceId, got.heldBy);
        opts.logger?.error({ instanceId, holder: got.heldBy }, error.message);
        opts.onLost?.(error);
        return;
      } catch {
        // the database is still down: try again
      }
    }
  };
  watch(client);
  return {
    instanceId,
    async ping() {
      if (!client || released) throw new Error('the instance lock connection is down');
      await client.query('SELECT 1');
    },
    async release() {
      released = true;
      await client?.end().catch(() => {});
    },
  };
}
