import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from '../src/testing.js';
import type { TestStore } from '../src/testing.js';
import { backend, entry, seedEncounter, uid } from './helpers.js';

let store: TestStore;

beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store?.close();
});

describe(`deleting an encounter on ${backend}`, () => {
  it('removes every row under the encounter in one statement and keeps a tombstone with its invite hashes only', async () => {
    const enc = await seedEncounter(store);
    const keep = await seedEncounter(store, { accountId: enc.accountId });
    const lease = (await store.acquireLease(enc.id, 'fray-test', 30_000))!;
    await store.appendLog([entry(enc.id, 1), entry(enc.id, 2)], [{ encounterId: enc.id, token: lease.token }]);
    await store.saveSnapshot(enc.id, 2, { v: 2 });
    const hashes = [uid('inv-hash'), uid('inv-hash')];
    for (const [n, tokenHash] of hashes.entries())
      await store.createInvite({
        id: uid(`inv${n}`),
        encounterId: enc.id,
        role: 'spectator',
        playerId: null,
        combatantIds: [],
        expiresAt: null,
        tokenHash,
      });
    await store.replayLinks!.create({
      id: uid('rpl'),
      encounterId: enc.id,
      viewer: 'gm',
      branch: null,
      expiresAt: null,
      tokenHash: uid('rpl-hash'),
    });

    const stone = await store.deletions!.deleteEncounter(enc.id);
    expect(stone).toMatchObject({ id: enc.id, accountId: enc.accountId });
    expect(stone!.deletedAt).toBeInstanceOf(Date);
    expect(await store.getEncounter(enc.id)).toBeNull();
    expect(await store.readLog(enc.id, 0)).toEqual([]);
    expect(await store.latestSnapshot(enc.id)).toBeNull();
    expect(await store.firstSnapshot(enc.id)).toBeNull();
    expect(await store.listInvites(enc.id)).toEqual([]);
    expect(await store.replayLinks!.list(enc.id)).toEqual([]);
    expect(await store.getLease(enc.id)).toBeNull();
    for (const h of hashes) expect(await store.deletions!.deletedInvite(h)).toBe(enc.id);
    expect(await store.deletions!.deletedInvite('not-a-hash')).toBeNull();
    expect(await store.deletions!.deletedEncounter(enc.id)).toEqual(stone);
    // the GM's other encounter is untouched
    expect(await store.getEncounter(keep.id)).not.toBeNull();
    expect((await store.listEncounters(enc.accountId)).map((e) => e.id)).toEqual([keep.id]);
    // a stale owner's append after the deletion is refused, nothing written
    await expect(store.appendLog([entry(enc.id, 3)], [{ encounterId: enc.id, token: lease.token }])).rejects.toMatchObject({
      name: 'StaleOwnerError',
    });
    expect(await store.readLog(enc.id, 0)).toEqual([]);
  });

  it('deleting an unknown or already deleted encounter returns null and changes nothing', async () => {
    const enc = await seedEncounter(store);
    expect(await store.deletions!.deleteEncounter('enc-unknown')).toBeNull();
    expect(await store.deletions!.deletedEncounter('enc-unknown')).toBeNull();
    const first = await store.deletions!.deleteEncounter(enc.id);
    expect(await store.deletions!.deleteEncounter(enc.id)).toBeNull();
    expect(await store.deletions!.deletedEncounter(enc.id)).toEqual(first);
  });
});
