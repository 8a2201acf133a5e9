import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimInstance, InstanceInUseError, INSTANCE_LOCK_CLASS, type Store } from '../src/index.js';
import type { PrismaStore } from '../src/prisma-store.js';
import { openTestStore, type TestStore } from '../src/testing.js';
import { backend } from './helpers.js';

/**
 * "two live processes must never share one [instance id] (refuse to start, clearly)": a session
 * advisory lock on Postgres, let go the moment its connection closes (a killed process's does).
 */
describe.runIf(backend === 'postgres')('instance ids on Postgres', () => {
  let store: TestStore;
  let peer: Store;
  beforeAll(async () => {
    store = await openTestStore();
    peer = await store.openPeer();
  });
  afterAll(async () => {
    await peer?.close();
    await store?.close();
  });

  it('a second claim of a held id is refused, naming the holder; once the holder lets go, it succeeds', async () => {
    const id = `inst-${randomUUID()}`;
    const first = await claimInstance(store, id);
    const refused = await claimInstance(peer, id, { waitMs: 300 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InstanceInUseError);
    expect((refused as InstanceInUseError).code).toBe('INSTANCE_IN_USE');
    expect((refused as Error).message).toContain(id);
    expect((refused as Error).message).toContain('FRAY_INSTANCE_ID');
    expect((refused as InstanceInUseError).holder).toContain(`pid ${process.pid}`);
    // another id is free meanwhile
    const other = await claimInstance(peer, `inst-${randomUUID()}`);
    await other.release();
    await first.release();
    const second = await claimInstance(peer, id, { waitMs: 300 });
    await second.release();
  });

  it("the holder's connection ending (its process killed) frees the id at once", async () => {
    const id = `inst-${randomUUID()}`;
    const first = await claimInstance(store, id);
    await first.ping(); // readiness's round trip, on the claim's own connection
    // the server ends the holder's session, as it does when a killed process's socket closes
    const admin = new pg.Client({ connectionString: (store as unknown as PrismaStore).info.url });
    await admin.connect();
    try {
      const r = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::oid AND objid = (hashtext($2) & 4294967295)::oid AND granted`,
        [INSTANCE_LOCK_CLASS, id],
      );
      expect(r.rows.length).toBe(1);
      await admin.query('SELECT pg_terminate_backend($1)', [r.rows[0]!.pid]);
    } finally {
      await admin.end();
    }
    const second = await claimInstance(peer, id, { waitMs: 3_000 });
    // the first one's connection is gone: its readiness says so (it is taking the id back meanwhile, and will not get it)
    await expect(first.ping()).rejects.toThrow();
    await second.release();
    await first.release();
  });
});

describe.runIf(backend === 'embedded')('instance ids on the embedded database', () => {
  it('need no lock of their own: the data directory allows one process per database', async () => {
    const store = await openTestStore();
    try {
      const a = await claimInstance(store, 'same');
      const b = await claimInstance(store, 'same');
      await a.release();
      await b.release();
    } finally {
      await store.close();
    }
  });
});
