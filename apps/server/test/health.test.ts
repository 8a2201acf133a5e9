import { createConnection, createServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type PrismaStore } from '@fray/store';
import { openTestStore } from '@fray/store/testing';
import type { ServerStore } from '../src/index.js';
import { startServer, testStore, type TestServer } from './helpers.js';
import { tcpProxy, untilAsync } from './procs.js';

/**
 * "Health that tells the truth": liveness (the process answers) and readiness (the database
 * answers within a short timeout, and Redis when configured; 503 naming which part is down), with
 * real parts: a database closed, cut off, or holding its answers, and a Redis nobody listens for.
 */

/** A TCP relay that can hold every byte (a database that accepts and never answers) and let them go again. */
async function holdingRelay(host: string, port: number) {
  let holding = false;
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const relay = (from: Socket, to: Socket) =>
    from.on('data', (d: Buffer) => {
      if (holding) held.push(() => to.write(d));
      else to.write(d);
    });
  const server = createServer((client) => {
    const upstream = createConnection({ host, port });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      s.on('close', () => sockets.delete(s));
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    hold: () => void (holding = true),
    release() {
      holding = false;
      for (const f of held.splice(0)) f();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A second store on the test store's database, reached through 127.0.0.1:`port`. */
async function storeVia(base: ServerStore, port: number): Promise<ServerStore> {
  const { info } = base as unknown as PrismaStore;
  const u = new URL(info.url!);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return (await openStore({
    databaseUrl: u.toString(),
    ...(info.schema ? { schema: info.schema } : {}),
    skipMigrations: true,
    poolSize: 1,
    connectTimeoutMs: 2_000,
  })) as unknown as ServerStore;
}

describe('health', () => {
  const servers: TestServer[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const s of servers.reverse()) await s.close().catch(() => {});
    for (const c of closers.reverse()) await c().catch(() => {});
  });

  it('/health/live and /health/ready answer 200 while the database answers; /health is readiness', async () => {
    const s = await startServer();
    servers.push(s);
    expect(await s.http('GET', '/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
    for (const path of ['/health/ready', '/health']) {
      const r = await s.http('GET', path);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        status: 'ok',
        down: [],
        checks: { database: 'up', redis: 'not configured' },
        redis: 'not configured',
        database: s.store.kind,
      });
    }
  });

  it('"a database that is closed": readiness 503 naming the database; liveness still 200', async () => {
    const store = await testStore();
    const s = await startServer({ store });
    servers.push(s);
    expect((await s.http('GET', '/health/ready')).status).toBe(200);
    await store.close();
    for (const path of ['/health/ready', '/health']) {
      const r = await s.http('GET', path);
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ status: 'unavailable', down: ['database'], checks: { database: 'down' } });
      expect(typeof r.body.databaseError).toBe('string');
    }
    expect((await s.http('GET', '/health/live')).status).toBe(200);
  });

  it('a database cut off (connections reset, new ones refused) is down until it is back', async () => {
    const base = await testStore();
    closers.push(() => base.close());
    const { info } = base as unknown as PrismaStore;
    const u = new URL(info.url!);
    const proxy = await tcpProxy(u.hostname, Number(u.port || 5432));
    closers.push(() => proxy.close());
    const store = await storeVia(base, proxy.port);
    closers.push(() => store.close());
    const s = await startServer({ store });
    servers.push(s);
    expect((await s.http('GET', '/health/ready')).status).toBe(200);
    proxy.cut();
    const down = await s.http('GET', '/health/ready');
    expect(down).toMatchObject({ status: 503, body: { status: 'unavailable', down: ['database'] } });
    proxy.restore();
    await untilAsync(async () => (await s.http('GET', '/health/ready')).status === 200, 15_000, 'readiness back with the database');
  });

  it('a database that accepts and never answers is down after the short timeout, not after the query timeout', async () => {
    const base = await testStore();
    closers.push(() => base.close());
    const { info } = base as unknown as PrismaStore;
    const u = new URL(info.url!);
    const relay = await holdingRelay(u.hostname, Number(u.port || 5432));
    closers.push(() => relay.close());
    const store = await storeVia(base, relay.port);
    closers.push(() => store.close());
    const s = await startServer({ store, readyTimeoutMs: 500 });
    servers.push(s);
    expect((await s.http('GET', '/health/ready')).status).toBe(200);
    relay.hold();
    const r = await s.http('GET', '/health/ready');
    expect(r).toMatchObject({ status: 503, body: { status: 'unavailable', down: ['database'], databaseError: 'no answer within 500 ms' } });
    relay.release();
    await untilAsync(async () => (await s.http('GET', '/health/ready')).status === 200, 15_000, 'readiness back');
  });

  it('a configured Redis nobody listens for: readiness 503 naming redis, the database still up', async () => {
    // nothing listens on port 1: every connection attempt is refused
    const s = await startServer({ redisUrl: 'redis://127.0.0.1:1', redisPrefix: 'fray-health' });
    servers.push(s);
    const r = await s.http('GET', '/health/ready');
    expect(r).toMatchObject({
      status: 503,
      body: { status: 'unavailable', down: ['redis'], checks: { database: 'up', redis: 'down' }, redis: 'down' },
    });
    expect((await s.http('GET', '/health/live')).status).toBe(200);
  });

  it('readiness names no filesystem path (the data directory), up or down', async () => {
    const store = await openTestStore({ embedded: true });
    const dataDir = store.location;
    const s = await startServer({ store });
    servers.push(s);
    // any absolute path of two or more parts, as JSON text has it (`/tmp/x`, `C:\\x\\y`)
    const anyPath = /(^|[^\w.:@/\\-])(\/|[A-Za-z]:\\\\)[^\s"/\\]+[/\\]/;
    const bodies: string[] = [];
    for (const path of ['/health/ready', '/health']) {
      const r = await fetch(s.url + path);
      expect(r.status).toBe(200);
      bodies.push(await r.text());
    }
    expect(JSON.parse(bodies[0]!)).toMatchObject({ status: 'ok', database: 'embedded', description: 'embedded PGlite' });
    // down: the database's error, as the driver words it, is not handed out with its paths either
    await store.close();
    const r = await fetch(s.url + '/health/ready');
    expect(r.status).toBe(503);
    bodies.push(await r.text());
    expect(JSON.parse(bodies[2]!)).toMatchObject({ status: 'unavailable', down: ['database'] });
    for (const body of bodies) {
      expect(body).not.toContain(dataDir);
      expect(body).not.toContain(dataDir.split(/[/\\]/).at(-1));
      expect(body).not.toMatch(anyPath);
    }
  });

  it('during a graceful stop readiness says "stopping" (503) and liveness still answers', async () => {
    const s = await startServer();
    // the stop's first step, as close() takes it, before the port closes
    s.server.context.stopping = true;
    expect(await s.http('GET', '/health/ready')).toMatchObject({ status: 503, body: { status: 'stopping' } });
    expect((await s.http('GET', '/health/live')).status).toBe(200);
    s.server.context.stopping = false;
    await s.close();
  });
});
