import type { Server } from 'socket.io';
import type { Logger } from 'pino';

export type RedisStatus = 'up' | 'down' | 'not configured';

export interface RedisLink {
  status(): RedisStatus;
  close(): Promise<void>;
}

export const noRedis: RedisLink = {
  status: () => 'not configured',
  close: async () => {},
};

/**
 * The adapter does not wait for most of its Redis commands (publish, subscribe); a command that
 * fails (Redis gone, client closed) would be an unhandled rejection, which ends a Node process.
 * This view of the client catches and logs those failures; callers that wait still see them.
 */
function guarded<T extends object>(client: T, logger: Logger): T {
  return new Proxy(client, {
    get(target, prop) {
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        const r: unknown = Reflect.apply(v, target, args);
        if (r instanceof Promise) r.catch((e: unknown) => logger.debug({ command: String(prop), err: String(e) }, 'redis command failed'));
        return r;
      };
    },
  });
}

/**
 * socket.io's Redis adapter (pub/sub) on node-redis: room broadcasts and cluster-wide operations
 * (`disconnectSockets`, `fetchSockets`) reach the sockets of every process. The connection is
 * made in the background and retried forever: a process whose Redis is down keeps serving the
 * encounters it owns (patches go straight to each socket, not through the adapter) and says so
 * in /health. Commands to Redis wait in node-redis's offline queue until it is back.
 */
export async function attachRedis(io: Server, opts: { url: string; prefix: string; logger: Logger }): Promise<RedisLink> {
  const { logger } = opts;
  // loaded only when REDIS_URL is set: node-redis and the adapter took about 0.9 s of a start here
  const [{ createAdapter }, { createClient }] = await Promise.all([import('@socket.io/redis-adapter'), import('redis')]);
  const pub = createClient({
    url: opts.url,
    socket: { reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 3000), connectTimeout: 2000 },
  });
  const sub = pub.duplicate();
  let lastLogged = 0;
  for (const [name, c] of [
    ['pub', pub],
    ['sub', sub],
  ] as const) {
    c.on('error', (e: unknown) => {
      // node-redis reconnects by itself; log at most every 10 s so an outage does not flood the log
      const now = Date.now();
      if (now - lastLogged > 10_000) {
        lastLogged = now;
        logger.warn({ client: name, err: String(e) }, 'redis unavailable; serving owned encounters only');
      }
    });
    c.on('ready', () => logger.info({ client: name }, 'redis connected'));
  }
  io.adapter(createAdapter(guarded(pub, logger), guarded(sub, logger), { key: opts.prefix }));
  void pub.connect().catch((e: unknown) => logger.warn({ err: String(e) }, 'redis connect failed'));
  void sub.connect().catch((e: unknown) => logger.warn({ err: String(e) }, 'redis connect failed'));
  return {
    status: () => (pub.isReady && sub.isReady ? 'up' : 'down'),
    async close() {
      for (const c of [pub, sub]) {
        if (!c.isReady) {
          // down or still connecting: a graceful close would wait for a connection that may never come
          if (c.isOpen) c.destroy();
          continue;
        }
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([c.close(), new Promise((r) => (timer = setTimeout(r, 1000)))]).catch(() => {});
        clearTimeout(timer);
        if (c.isOpen) c.destroy();
      }
    },
  };
}
