import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolConfig } from '../src/open.js';
import type { PrismaStore } from '../src/prisma-store.js';
import { DuplicateCommandIdError, DuplicateSeqError, SeqGapError, StaleOwnerError } from '../src/index.js';
import type { Store } from '../src/index.js';
import { openTestStore } from '../src/testing.js';
import type { TestStore } from '../src/testing.js';
import { backend, entry, seedEncounter } from './helpers.js';

let store: TestStore;
let peer: Store; // a second "process" on the same database

beforeAll(async () => {
  store = await openTestStore();
  peer = await store.openPeer();
});
afterAll(async () => {
  await peer?.close();
  await store?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A connection of its own to the store's database (and schema), for a transaction held open beside the store's. */
async function sideConnection(): Promise<pg.Client> {
  const info = (store as unknown as PrismaStore).info;
  const tx = new pg.Client(
    poolConfig(info.url!, {
      poolSize: 1,
      connectTimeoutMs: 5_000,
      queryTimeoutMs: 30_000,
      ...(info.schema ? { schema: info.schema } : {}),
    }),
  );
  await tx.connect();
  return tx;
}

describe(`leases and fencing on ${backend}`, () => {
  it('one owner at a time: a second owner gets null until the lease expires, then a higher token', async () => {
    const enc = await seedEncounter(store);
    const a = await store.acquireLease(enc.id, 'proc-a', 30_000);
    expect(a).toMatchObject({ encounterId: enc.id, ownerId: 'proc-a', token: 1 });
    expect(a!.expiresAt.getTime()).toBeGreaterThan(Date.now() - 5_000);
    expect(await peer.acquireLease(enc.id, 'proc-b', 30_000)).toBeNull();
    // the same instance taking it again (a restarted process) gets it with a new token
    const again = await store.acquireLease(enc.id, 'proc-a', 60_000);
    expect(again?.token).toBe(2);
    expect(again!.expiresAt.getTime()).toBeGreaterThan(a!.expiresAt.getTime());
    // shorten it to 1 ms (as a process that stops heartbeating would see it lapse)
    const short = (await store.acquireLease(enc.id, 'proc-a', 1))!;
    await sleep(50);
    const b = await peer.acquireLease(enc.id, 'proc-b', 30_000);
    expect(b).toMatchObject({ ownerId: 'proc-b', token: short.token + 1 });
    expect(await store.getLease(enc.id)).toEqual(b);
    expect(await store.getLease('missing')).toBeNull();
  });

  it('"a restarted instance takes over its own leases at once, with a new fencing token": the instance is the owner id before "@"', async () => {
    const enc = await seedEncounter(store);
    const old = (await store.acquireLease(enc.id, 'inst-1@http://10.0.0.1:3000', 600_000))!;
    await store.appendLog([entry(enc.id, 1)], [{ encounterId: enc.id, token: old.token }]);
    // another instance waits for the unexpired lease; the same instance (even at a new URL) takes it now
    expect(await peer.acquireLease(enc.id, 'inst-2@http://10.0.0.2:3000', 600_000)).toBeNull();
    expect(await peer.acquireLease(enc.id, 'inst-10', 600_000)).toBeNull();
    const back = (await peer.acquireLease(enc.id, 'inst-1@http://10.0.0.9:3000', 600_000))!;
    expect(back).toMatchObject({ ownerId: 'inst-1@http://10.0.0.9:3000', token: old.token + 1 });
    // whatever the dead predecessor still had in flight is refused; the new holder appends
    await expect(store.appendLog([entry(enc.id, 2)], [{ encounterId: enc.id, token: old.token }])).rejects.toBeInstanceOf(StaleOwnerError);
    expect(await store.renewLease(old, 600_000)).toBeNull();
    await peer.appendLog([entry(enc.id, 2)], [{ encounterId: enc.id, token: back.token }]);
    expect((await store.readLog(enc.id, 0)).map((e) => e.seq)).toEqual([1, 2]);
  });

  it('a stale fencing token cannot append, and the newer owner can', async () => {
    const enc = await seedEncounter(store);
    const a = (await store.acquireLease(enc.id, 'proc-a', 200))!;
    await store.appendLog([entry(enc.id, 1)], [{ encounterId: enc.id, token: a.token }]);
    await sleep(300);
    const b = (await peer.acquireLease(enc.id, 'proc-b', 30_000))!;
    expect(b.token).toBe(a.token + 1);
    // the old owner wakes up and tries to write: refused by the database, nothing written
    await expect(store.appendLog([entry(enc.id, 2, 'from-a')], [{ encounterId: enc.id, token: a.token }])).rejects.toBeInstanceOf(
      StaleOwnerError,
    );
    await peer.appendLog([entry(enc.id, 2, 'from-b')], [{ encounterId: enc.id, token: b.token }]);
    expect((await store.readLog(enc.id, 0)).map((e) => e.commandId)).toEqual(['cmd-1', 'from-b']);
    // and it cannot renew or release the lease it lost
    expect(await store.renewLease(a, 30_000)).toBeNull();
    await store.releaseLease(a);
    expect(await store.getLease(enc.id)).toMatchObject({ ownerId: 'proc-b', token: b.token });
  });

  it('the current owner renews; a released lease is taken at once with token + 1', async () => {
    const enc = await seedEncounter(store);
    const a = (await store.acquireLease(enc.id, 'proc-a', 1_000))!;
    const renewed = await store.renewLease(a, 60_000);
    expect(renewed).toMatchObject({ ownerId: 'proc-a', token: a.token });
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(a.expiresAt.getTime());
    expect(await peer.acquireLease(enc.id, 'proc-b', 1_000)).toBeNull();
    await store.releaseLease(renewed!);
    const b = await peer.acquireLease(enc.id, 'proc-b', 1_000);
    expect(b?.token).toBe(a.token + 1);
    // the released token stays refused even though the row lives on
    await expect(store.appendLog([entry(enc.id, 1)], [{ encounterId: enc.id, token: a.token }])).rejects.toBeInstanceOf(StaleOwnerError);
  });

  it('releases many leases in one statement: ours are taken at once with token + 1, one lost to another owner stays theirs', async () => {
    const [e1, e2, e3] = [await seedEncounter(store), await seedEncounter(store), await seedEncounter(store)];
    const l1 = (await store.acquireLease(e1.id, 'proc-a', 60_000))!;
    const l2 = (await store.acquireLease(e2.id, 'proc-a', 60_000))!;
    const l3 = (await store.acquireLease(e3.id, 'proc-a', 1))!;
    await sleep(20);
    const b3 = (await peer.acquireLease(e3.id, 'proc-b', 60_000))!;
    await store.releaseLeases([l1, l2, l3]);
    expect((await peer.acquireLease(e1.id, 'proc-b', 1_000))?.token).toBe(l1.token + 1);
    expect((await peer.acquireLease(e2.id, 'proc-b', 1_000))?.token).toBe(l2.token + 1);
    // the lease proc-b had taken over is not released by proc-a's stale token
    expect(await store.acquireLease(e3.id, 'proc-c', 1_000)).toBeNull();
    expect(await store.getLease(e3.id)).toMatchObject({ ownerId: 'proc-b', token: b3.token });
  });

  it('renews many leases in one statement: those still ours come back renewed, a lost one does not', async () => {
    const [e1, e2, e3] = [await seedEncounter(store), await seedEncounter(store), await seedEncounter(store)];
    const l1 = (await store.acquireLease(e1.id, 'proc-a', 1_000))!;
    const l2 = (await store.acquireLease(e2.id, 'proc-a', 200))!;
    const l3 = (await store.acquireLease(e3.id, 'proc-a', 1_000))!;
    await sleep(300);
    const taken = (await peer.acquireLease(e2.id, 'proc-b', 30_000))!; // l2 expired: proc-b has it now
    const renewed = await store.renewLeases([l1, l2, l3], 60_000);
    expect(renewed.map((l) => l.encounterId).sort()).toEqual([e1.id, e3.id].sort());
    for (const l of renewed) expect(l.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(await store.getLease(e2.id)).toMatchObject({ ownerId: 'proc-b', token: taken.token });
    expect(await store.renewLeases([], 60_000)).toEqual([]);
  });

  it('an append without a lease, or for an encounter it carries no token for, is refused', async () => {
    const enc = await seedEncounter(store);
    await expect(store.appendLog([entry(enc.id, 1)], [{ encounterId: enc.id, token: 1 }])).rejects.toBeInstanceOf(StaleOwnerError);
    const other = await seedEncounter(store);
    const lease = (await store.acquireLease(other.id, 'p', 30_000))!;
    await store.acquireLease(enc.id, 'p', 30_000);
    await expect(store.appendLog([entry(enc.id, 1)], [{ encounterId: other.id, token: lease.token }])).rejects.toBeInstanceOf(
      StaleOwnerError,
    );
    expect(await store.readLog(enc.id, 0)).toEqual([]);
  });

  it('a batch is all or none: one stale encounter refuses the whole batch', async () => {
    const a = await seedEncounter(store);
    const b = await seedEncounter(store, { accountId: a.accountId });
    const la = (await store.acquireLease(a.id, 'p', 30_000))!;
    const lb = (await store.acquireLease(b.id, 'p', 30_000))!;
    await expect(
      store.appendLog(
        [entry(a.id, 1), entry(b.id, 1)],
        [
          { encounterId: a.id, token: la.token },
          { encounterId: b.id, token: lb.token + 1 },
        ],
      ),
    ).rejects.toBeInstanceOf(StaleOwnerError);
    expect(await store.readLog(a.id, 0)).toEqual([]);
    expect(await store.readLog(b.id, 0)).toEqual([]);
  });

  it('a taken seq is refused (DuplicateSeqError), also inside one batch, and nothing of the batch is written', async () => {
    const enc = await seedEncounter(store);
    const fence = [{ encounterId: enc.id, token: (await store.acquireLease(enc.id, 'p', 30_000))!.token }];
    await store.appendLog([entry(enc.id, 1), entry(enc.id, 2)], fence);
    await expect(store.appendLog([entry(enc.id, 2, 'again')], fence)).rejects.toBeInstanceOf(DuplicateSeqError);
    await expect(store.appendLog([entry(enc.id, 3, 'x'), entry(enc.id, 3, 'y')], fence)).rejects.toBeInstanceOf(DuplicateSeqError);
    await expect(store.appendLog([entry(enc.id, 3, 'z'), entry(enc.id, 1, 'w')], fence)).rejects.toBeInstanceOf(DuplicateSeqError);
    expect((await store.readLog(enc.id, 0)).map((e) => e.seq)).toEqual([1, 2]);
  });

  it('a used command id is refused (DuplicateCommandIdError, a DuplicateSeqError)', async () => {
    const enc = await seedEncounter(store);
    const fence = [{ encounterId: enc.id, token: (await store.acquireLease(enc.id, 'p', 30_000))!.token }];
    await store.appendLog([entry(enc.id, 1, 'same')], fence);
    const error = await store.appendLog([entry(enc.id, 2, 'same')], fence).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateCommandIdError);
    expect(error).toBeInstanceOf(DuplicateSeqError);
    expect(await store.readLog(enc.id, 1)).toEqual([]);
  });

  it('the log stays gap-free: a seq that skips ahead is refused (SeqGapError)', async () => {
    const enc = await seedEncounter(store);
    const fence = [{ encounterId: enc.id, token: (await store.acquireLease(enc.id, 'p', 30_000))!.token }];
    await store.appendLog([entry(enc.id, 1)], fence);
    await expect(store.appendLog([entry(enc.id, 3)], fence)).rejects.toBeInstanceOf(SeqGapError);
    await expect(store.appendLog([entry(enc.id, 2), entry(enc.id, 4)], fence)).rejects.toBeInstanceOf(SeqGapError);
    await store.appendLog([entry(enc.id, 2), entry(enc.id, 3)], fence);
    expect((await store.readLog(enc.id, 0)).map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  // Two transactions at once on one lease row: PGlite runs one connection at a time, so this runs on Postgres.
  it.runIf(backend === 'postgres')(
    'a renewal does not wait for an append in flight (nor holds it up); a takeover does wait, then the append is in the log',
    async () => {
      const enc = await seedEncounter(store);
      const a = (await store.acquireLease(enc.id, 'proc-a', 30_000))!;
      const tx = await sideConnection();
      try {
        // an append whose transaction is still open: it holds its encounter's fence (a shared
        // advisory lock, migration 20261126010000_append_advisory_fence) until it commits
        await tx.query('BEGIN');
        await tx.query('SELECT fray_append_log($1::jsonb, $2::jsonb)', [
          JSON.stringify([{ e: enc.id, s: 1, c: 'held', cmd: { type: 'x' }, ev: [] }]),
          JSON.stringify([{ e: enc.id, t: a.token }]),
        ]);
        const timeout = (ms: number) => new Promise<'blocked'>((r) => setTimeout(() => r('blocked'), ms));
        // renewals, batched or single, and the summary's own append path, go through at once
        const renewed = await Promise.race([store.renewLeases([a], 30_000), timeout(3_000)]);
        expect(renewed).not.toBe('blocked');
        expect((renewed as Awaited<ReturnType<typeof store.renewLeases>>)[0]?.token).toBe(a.token);
        expect(await Promise.race([store.renewLease(a, 30_000), timeout(3_000)])).not.toBe('blocked');
        // nor does a release (expires_at only); a takeover (token + 1) must wait for the append to commit
        expect(await Promise.race([store.releaseLease(a), timeout(3_000)])).not.toBe('blocked');
        let took: Awaited<ReturnType<typeof peer.acquireLease>> | undefined;
        const takeover = peer.acquireLease(enc.id, 'proc-b', 30_000).then((l) => (took = l));
        await sleep(300);
        expect(took).toBeUndefined();
        await tx.query('COMMIT');
        await takeover;
        expect(took).toMatchObject({ ownerId: 'proc-b', token: a.token + 1 });
        // the new owner sees the append the old one committed, and the old token is refused
        expect((await peer.readLog(enc.id, 0)).map((e) => e.commandId)).toEqual(['held']);
        await expect(store.appendLog([entry(enc.id, 2)], [{ encounterId: enc.id, token: a.token }])).rejects.toBeInstanceOf(
          StaleOwnerError,
        );
      } finally {
        await tx.query('ROLLBACK').catch(() => {});
        await tx.end();
      }
    },
  );

  it.runIf(backend === 'postgres')(
    'an append that comes while a token change is uncommitted waits for it, then is refused (the fence is in the database, whoever changes the token)',
    async () => {
      const enc = await seedEncounter(store);
      const other = await seedEncounter(store);
      const a = (await store.acquireLease(enc.id, 'proc-a', 30_000))!;
      const o = (await store.acquireLease(other.id, 'proc-a', 30_000))!;
      const tx = await sideConnection();
      try {
        // a takeover by hand: a plain UPDATE of the token, its transaction still open
        await tx.query('BEGIN');
        await tx.query('UPDATE leases SET token = token + 1, owner_id = $2 WHERE encounter_id = $1', [enc.id, 'proc-b']);
        let outcome: unknown;
        const append = store.appendLog([entry(enc.id, 1)], [{ encounterId: enc.id, token: a.token }]).then(
          () => (outcome = 'appended'),
          (e: unknown) => (outcome = e),
        );
        // another encounter's append is not held up by it
        await store.appendLog([entry(other.id, 1)], [{ encounterId: other.id, token: o.token }]);
        await sleep(300);
        expect(outcome).toBeUndefined();
        await tx.query('COMMIT');
        await append;
        expect(outcome).toBeInstanceOf(StaleOwnerError);
        expect(await store.readLog(enc.id, 0)).toEqual([]);
        expect((await store.readLog(other.id, 0)).map((e) => e.seq)).toEqual([1]);
      } finally {
        await tx.query('ROLLBACK').catch(() => {});
        await tx.end();
      }
    },
  );

  it('a takeover never loses an acknowledged append of the old owner', async () => {
    const enc = await seedEncounter(store);
    const a = (await store.acquireLease(enc.id, 'proc-a', 250))!;
    const acked: number[] = [];
    let refused = false;
    const writer = (async () => {
      for (let seq = 1; seq < 10_000 && !refused; seq++) {
        try {
          await store.appendLog([entry(enc.id, seq)], [{ encounterId: enc.id, token: a.token }]);
          acked.push(seq);
        } catch (error) {
          expect(error).toBeInstanceOf(StaleOwnerError);
          refused = true;
        }
      }
    })();
    let b = null;
    while (!b) {
      await sleep(50);
      b = await peer.acquireLease(enc.id, 'proc-b', 30_000);
    }
    // what the new owner reads right after taking over is the whole acknowledged history
    const seen = (await peer.readLog(enc.id, 0)).map((e) => e.seq);
    await writer;
    expect(refused).toBe(true);
    expect(acked.length).toBeGreaterThan(0);
    expect(seen).toEqual(acked);
    const next = acked.length + 1;
    await peer.appendLog([entry(enc.id, next, 'b-first')], [{ encounterId: enc.id, token: b.token }]);
    expect((await store.readLog(enc.id, acked.length)).map((e) => e.commandId)).toEqual(['b-first']);
  });
});
