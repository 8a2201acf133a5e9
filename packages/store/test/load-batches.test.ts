import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOTS_KEPT } from '../src/prisma-store.js';
import { StaleOwnerError, type LogEntry, type Store } from '../src/index.js';
import { openTestStore, type TestStore } from '../src/testing.js';
import { backend, entry, seedEncounter } from './helpers.js';

/**
 * Batched loads and snapshot saves (load-batches.ts, snapshot-batches.ts): many encounters at once,
 * each exactly as the one-at-a-time statements treat it.
 */
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
/** the store's batch statements (optional in the Store interface; the Prisma store has them) */
function batches(s: Store) {
  const { loadEncounters, saveSnapshots } = s;
  if (!loadEncounters || !saveSnapshots) throw new Error('this store has no batch statements');
  return { load: loadEncounters.bind(s), save: saveSnapshots.bind(s) };
}
const seqs = (tail: LogEntry[] | null | undefined) => tail?.map((e) => e.seq) ?? null;

describe(`batched loads and snapshot saves on ${backend}`, () => {
  it("takes each lease as acquireLease would (free, its own instance's, expired: a new token; another live instance's: none) and reads records, snapshots and log tails", async () => {
    const [free, own, expired, others] = [
      await seedEncounter(store),
      await seedEncounter(store),
      await seedEncounter(store),
      await seedEncounter(store),
    ];
    const mine = (await store.acquireLease(own.id, 'inst-a@http://old', 600_000))!;
    await store.appendLog(
      [1, 2, 3].map((s) => entry(own.id, s)),
      [{ encounterId: own.id, token: mine.token }],
    );
    await store.saveSnapshot(own.id, 2, { v: 2 });
    const lapsed = (await peer.acquireLease(expired.id, 'inst-b', 1))!;
    const theirs = (await peer.acquireLease(others.id, 'inst-b', 600_000))!;
    await sleep(20);

    const got = await batches(store).load(
      [free.id, own.id, expired.id, others.id, 'enc-missing', own.id],
      'inst-a@http://new',
      60_000,
      100,
    );
    expect([...got.keys()].sort()).toEqual([free.id, own.id, expired.id, others.id].sort());
    expect(got.get(free.id)).toMatchObject({
      record: await store.getEncounter(free.id),
      lease: { ownerId: 'inst-a@http://new', token: 1 },
      snapshot: { version: 0, state: { v: 0 } },
    });
    expect(seqs(got.get(free.id)!.tail)).toEqual([]);
    // its own instance's lease: taken over at once with a new token; the tail from the snapshot's version less 256
    const own2 = got.get(own.id)!;
    expect(own2.lease).toMatchObject({ ownerId: 'inst-a@http://new', token: mine.token + 1 });
    expect(own2.record).toEqual(await store.getEncounter(own.id));
    expect(own2.snapshot).toEqual(await store.latestSnapshot(own.id));
    expect(own2.tail).toEqual((await store.readLog(own.id, 0)).map((e) => ({ ...e, createdAt: expect.any(Date) })));
    expect(seqs(own2.tail)).toEqual([1, 2, 3]);
    // whatever the old holder still had in flight is refused by the fence
    await expect(store.appendLog([entry(own.id, 4)], [{ encounterId: own.id, token: mine.token }])).rejects.toBeInstanceOf(StaleOwnerError);
    await store.appendLog([entry(own.id, 4)], [{ encounterId: own.id, token: own2.lease!.token }]);
    expect(got.get(expired.id)!.lease).toMatchObject({ token: lapsed.token + 1 });
    // another live instance's: no lease, no tail, and the lease stays theirs
    expect(got.get(others.id)).toMatchObject({ lease: null, tail: null });
    expect(await store.getLease(others.id)).toEqual(theirs);
  });

  it('leaves out the tail of an encounter with timeline branches or a longer tail than asked (read the long way)', async () => {
    const [branched, long] = [await seedEncounter(store), await seedEncounter(store)];
    const lb = (await store.acquireLease(branched.id, 'inst-c', 600_000))!;
    await store.appendLog([entry(branched.id, 1), entry(branched.id, 2)], [{ encounterId: branched.id, token: lb.token }]);
    const rewind: LogEntry = {
      ...entry(branched.id, 1, 'rw-1'),
      branch: 1,
      command: { type: 'timeline.rewind', toVersion: 1, by: { role: 'gm' } },
      events: [{ type: 'timeline.rewound', fromBranch: 0, fromVersion: 2, toVersion: 1, branch: 1 }],
    };
    await store.appendLog([rewind], [{ encounterId: branched.id, token: lb.token }]);
    const ll = (await store.acquireLease(long.id, 'inst-c', 600_000))!;
    await store.appendLog(
      [1, 2, 3, 4].map((s) => entry(long.id, s)),
      [{ encounterId: long.id, token: ll.token }],
    );
    const got = await batches(store).load([branched.id, long.id], 'inst-c', 60_000, 3);
    expect(got.get(branched.id)).toMatchObject({ lease: { token: lb.token + 1 }, tail: null });
    expect(got.get(long.id)).toMatchObject({ lease: { token: ll.token + 1 }, tail: null });
    expect(seqs((await batches(store).load([long.id], 'inst-c', 60_000, 4)).get(long.id)!.tail)).toEqual([1, 2, 3, 4]);
  });

  it('saves many snapshots as saveSnapshot saves one: the newest state, the summary, the first and newest kept', async () => {
    const [a, b] = [await seedEncounter(store), await seedEncounter(store)];
    for (let v = 1; v <= 4; v++) await store.saveSnapshot(a.id, v, { v });
    await batches(store).save([
      { encounterId: a.id, version: 5, state: { v: 5, nested: { keys: ['kept', 'as sent'] } }, summary: { status: 'active', round: 3 } },
      { encounterId: b.id, version: 1, state: { v: 1 } },
    ]);
    expect(await store.latestSnapshot(a.id)).toMatchObject({ version: 5, state: { v: 5, nested: { keys: ['kept', 'as sent'] } } });
    expect(await store.latestSnapshot(b.id)).toMatchObject({ version: 1, state: { v: 1 } });
    expect(await store.getEncounter(a.id)).toMatchObject({ status: 'active', round: 3, version: 5 });
    expect(await store.getEncounter(b.id)).toMatchObject({ status: 'setup', version: 0 });
    const kept = await batches(store).load([a.id], 'inst-d', 1_000, 10);
    expect(kept.get(a.id)!.snapshot?.version).toBe(5);
    // the first (0) and the newest SNAPSHOTS_KEPT - 1, as saveSnapshot prunes
    expect(SNAPSHOTS_KEPT).toBe(3);
    expect((await store.firstSnapshot(a.id))?.version).toBe(0);
    await batches(store).save([{ encounterId: a.id, version: 5, state: { v: 'again' } }]);
    expect((await store.latestSnapshot(a.id))?.state).toEqual({ v: 'again' });
  });
});
