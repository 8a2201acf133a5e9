import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, StoreUnavailableError } from '../src/index.js';
import type { PrismaStore, Store } from '../src/index.js';
import { openTestStore } from '../src/testing.js';
import type { TestStore } from '../src/testing.js';
import { backend, closedPort, CuttableProxy, entry, seedEncounter } from './helpers.js';

let store: TestStore;
let target: URL;
let schema: string | undefined;

beforeAll(async () => {
  store = await openTestStore();
  const { info } = store as unknown as PrismaStore;
  target = new URL(info.url!);
  schema = info.schema;
});
afterAll(async () => {
  await store?.close();
});

const through = (proxy: CuttableProxy, extra: { queryTimeoutMs?: number } = {}): Promise<Store> =>
  openStore({
    databaseUrl: proxy.url(target.toString()),
    ...(schema ? { schema } : {}),
    skipMigrations: true,
    connectTimeoutMs: 2_000,
    queryTimeoutMs: extra.queryTimeoutMs ?? 5_000,
  });

describe(`database down on ${backend}`, () => {
  it('openStore on a closed port rejects quickly with StoreUnavailableError', async () => {
    const port = await closedPort();
    const started = Date.now();
    const error = await openStore({ databaseUrl: `postgresql://postgres@127.0.0.1:${port}/fray`, connectTimeoutMs: 2_000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).code).toBe('STORE_UNAVAILABLE');
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('openStore on a server that never answers gives up after the connect timeout', async () => {
    const silent = net.createServer(() => {}); // accepts, says nothing
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const started = Date.now();
      const error = await openStore({ databaseUrl: `postgresql://postgres@127.0.0.1:${port}/fray`, connectTimeoutMs: 1_000 }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      silent.close();
    }
  });

  it('appendLog is refused (never acknowledged) while the database is down, and works again when it returns', async () => {
    const enc = await seedEncounter(store);
    const lease = (await store.acquireLease(enc.id, 'proc', 600_000))!;
    const fence = [{ encounterId: enc.id, token: lease.token }];
    const proxy = new CuttableProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    const remote = await through(proxy);
    try {
      await remote.appendLog([entry(enc.id, 1)], fence);
      await proxy.cut();
      await expect(remote.appendLog([entry(enc.id, 2)], fence)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(remote.readLog(enc.id, 0)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(remote.getEncounter(enc.id)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect((remote as PrismaStore).ping()).rejects.toBeInstanceOf(StoreUnavailableError);
      // nothing of the refused append reached the database
      expect((await store.readLog(enc.id, 0)).map((e) => e.seq)).toEqual([1]);
      await proxy.start(); // the database is back, on the same address
      await remote.appendLog([entry(enc.id, 2)], fence);
      await (remote as PrismaStore).ping();
      expect((await remote.readLog(enc.id, 0)).map((e) => e.seq)).toEqual([1, 2]);
    } finally {
      await remote.close();
      await proxy.cut();
    }
  });

  it('a database that stops answering mid-query makes appendLog reject after the query timeout, not hang', async () => {
    const enc = await seedEncounter(store);
    const lease = (await store.acquireLease(enc.id, 'proc', 600_000))!;
    const proxy = new CuttableProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    const remote = await through(proxy, { queryTimeoutMs: 1_500 });
    try {
      await remote.getEncounter(enc.id);
      proxy.blackhole();
      const started = Date.now();
      const error = await remote.appendLog([entry(enc.id, 1)], [{ encounterId: enc.id, token: lease.token }]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await proxy.cut();
      await remote.close();
    }
  });
});
