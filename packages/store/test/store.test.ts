import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, SNAPSHOTS_KEPT } from '../src/index.js';
import { jsonParam } from '../src/prisma-store.js';
import type { PrismaStore } from '../src/index.js';
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
beforeEach(async () => {
  await store.dropAll();
});

describe(`store on ${backend}`, () => {
  it('says which database is in use, without secrets', () => {
    expect(store.kind).toBe(backend);
    expect(store.description).toMatch(backend === 'embedded' ? /^embedded PGlite$/ : /^postgres postgres(ql)?:\/\//);
    expect(store.description).not.toMatch(/password|:[^/@]*@/);
  });

  describe('accounts', () => {
    it('creates an account and finds it by its token hash only', async () => {
      const created = await store.createAccount({ id: 'acc-1', tokenHash: 'sha256:abc', name: 'Ada' });
      expect(created).toMatchObject({ id: 'acc-1', name: 'Ada' });
      expect(created.createdAt).toBeInstanceOf(Date);
      expect(created).not.toHaveProperty('tokenHash');
      expect(await store.findAccountByTokenHash('sha256:abc')).toEqual(created);
      expect(await store.findAccountByTokenHash('sha256:nope')).toBeNull();
    });

    it('stores a null name and refuses a second account with the same token hash', async () => {
      expect((await store.createAccount({ id: 'acc-2', tokenHash: 'h' })).name).toBeNull();
      await expect(store.createAccount({ id: 'acc-3', tokenHash: 'h' })).rejects.toThrow();
    });
  });

  describe('encounters', () => {
    it('creates an encounter with its initial snapshot and reads it back', async () => {
      const enc = await seedEncounter(store, { seed: 4_000_000_000, options: { depth: { a: [1, 2] } } }, { hello: 'world' });
      expect(enc).toMatchObject({
        name: 'Ambush at the ford',
        ruleset: 'fixture',
        seed: 4_000_000_000,
        status: 'setup',
        round: 0,
        version: 0,
      });
      expect(enc.options).toEqual({ depth: { a: [1, 2] } });
      expect(await store.getEncounter(enc.id)).toEqual(enc);
      expect(await store.getEncounter('missing')).toBeNull();
      const snap = await store.latestSnapshot(enc.id);
      expect(snap).toMatchObject({ encounterId: enc.id, version: 0, state: { hello: 'world' } });
    });

    it('lists a GM’s encounters, newest activity first, archived ones only on request', async () => {
      const a = await seedEncounter(store);
      const b = await seedEncounter(store, { accountId: a.accountId, name: 'second' });
      const c = await seedEncounter(store, { accountId: a.accountId, name: 'third' });
      await seedEncounter(store); // another GM's
      await new Promise((r) => setTimeout(r, 5));
      await store.updateEncounterSummary(a.id, { status: 'active', round: 2, version: 7 });
      await new Promise((r) => setTimeout(r, 5));
      await store.updateEncounterSummary(c.id, { status: 'archived' });
      const listed = await store.listEncounters(a.accountId);
      expect(listed.map((e) => e.id)).toEqual([a.id, b.id]);
      expect(listed[0]).toMatchObject({ status: 'active', round: 2, version: 7 });
      const all = await store.listEncounters(a.accountId, { includeArchived: true });
      expect(all.map((e) => e.id)).toEqual([c.id, a.id, b.id]);
    });

    it('renames through the summary, bumps updatedAt, and refuses an unknown encounter', async () => {
      const a = await seedEncounter(store);
      await new Promise((r) => setTimeout(r, 5));
      await store.updateEncounterSummary(a.id, { name: 'Renamed' });
      const after = await store.getEncounter(a.id);
      expect(after?.name).toBe('Renamed');
      expect(after!.updatedAt.getTime()).toBeGreaterThan(a.updatedAt.getTime());
      await expect(store.updateEncounterSummary('nope', { round: 1 })).rejects.toBeInstanceOf(NotFoundError);
    });

    it('refuses an encounter of an unknown account and a status outside the four', async () => {
      await expect(seedEncounter(store, { accountId: 'ghost' })).rejects.toThrow();
      await expect(seedEncounter(store, { status: 'paused' as never })).rejects.toThrow();
    });
  });

  describe('invites', () => {
    it('creates player and spectator invites, finds them by token hash, lists and revokes them', async () => {
      const enc = await seedEncounter(store);
      const expiresAt = new Date(Date.now() + 3_600_000);
      const p = await store.createInvite({
        id: 'inv-p',
        encounterId: enc.id,
        role: 'player',
        playerId: 'pl-1',
        combatantIds: ['c1', 'c2'],
        expiresAt,
        tokenHash: 'th-p',
      });
      expect(p).toMatchObject({ id: 'inv-p', role: 'player', playerId: 'pl-1', combatantIds: ['c1', 'c2'], revoked: false });
      expect(p.expiresAt?.getTime()).toBe(expiresAt.getTime());
      expect(p).not.toHaveProperty('tokenHash');
      const s = await store.createInvite({
        id: 'inv-s',
        encounterId: enc.id,
        role: 'spectator',
        playerId: null,
        combatantIds: [],
        expiresAt: null,
        tokenHash: 'th-s',
      });
      expect(s).toMatchObject({ role: 'spectator', playerId: null, combatantIds: [], expiresAt: null });
      expect(await store.findInviteByTokenHash('th-p')).toEqual(p);
      expect(await store.findInviteByTokenHash('nope')).toBeNull();
      expect((await store.listInvites(enc.id)).map((i) => i.id)).toEqual(['inv-p', 'inv-s']);
      await store.revokeInvite('inv-p');
      expect((await store.findInviteByTokenHash('th-p'))?.revoked).toBe(true);
      expect((await store.findInviteByTokenHash('th-s'))?.revoked).toBe(false);
      await expect(
        store.createInvite({
          id: 'inv-x',
          encounterId: enc.id,
          role: 'gm' as never,
          playerId: null,
          combatantIds: [],
          expiresAt: null,
          tokenHash: 'th-x',
        }),
      ).rejects.toThrow();
    });
  });

  describe('the command log', () => {
    it('appends, reads after a seq with a limit, and finds an entry by command id', async () => {
      const enc = await seedEncounter(store);
      const lease = (await store.acquireLease(enc.id, 'proc-a', 30_000))!;
      const fence = [{ encounterId: enc.id, token: lease.token }];
      await store.appendLog([entry(enc.id, 1)], fence);
      await store.appendLog([entry(enc.id, 2), entry(enc.id, 3), entry(enc.id, 4)], fence);
      const all = await store.readLog(enc.id, 0);
      expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(all[1]).toMatchObject({
        encounterId: enc.id,
        seq: 2,
        commandId: 'cmd-2',
        command: entry(enc.id, 2).command,
        events: entry(enc.id, 2).events,
      });
      expect(all[1]!.createdAt).toBeInstanceOf(Date);
      expect((await store.readLog(enc.id, 2)).map((e) => e.seq)).toEqual([3, 4]);
      expect((await store.readLog(enc.id, 1, 2)).map((e) => e.seq)).toEqual([2, 3]);
      expect(await store.readLog(enc.id, 4)).toEqual([]);
      expect((await store.findLogByCommandId(enc.id, 'cmd-3'))?.seq).toBe(3);
      // the lookup by command id gives the entry exactly as readLog does (JSON, time)
      expect(await store.findLogByCommandId(enc.id, 'cmd-2')).toEqual(all[1]);
      expect(await store.findLogByCommandId(enc.id, 'cmd-9')).toBeNull();
      expect(await store.findLogByCommandId('other', 'cmd-3')).toBeNull();
      // every command id of the encounter, and none of another's (the runtime's filter of accepted ids)
      expect((await store.listCommandIds(enc.id)).sort()).toEqual(['cmd-1', 'cmd-2', 'cmd-3', 'cmd-4']);
      expect(await store.listCommandIds('other')).toEqual([]);
    });

    it('keeps JSON exactly (nested, unicode, null command, empty events)', async () => {
      const enc = await seedEncounter(store);
      const lease = (await store.acquireLease(enc.id, 'proc-a', 30_000))!;
      const command = { type: 'say', text: 'Ünïcødé ⚔️ "quoted" \\ back', deep: { list: [1, 2.5, null, true] } };
      await store.appendLog(
        [
          { encounterId: enc.id, seq: 1, commandId: 'x1', command, events: [] },
          { encounterId: enc.id, seq: 2, commandId: 'x2', command: null, events: [{ a: { b: [] } }] },
        ],
        [{ encounterId: enc.id, token: lease.token }],
      );
      const [first, second] = await store.readLog(enc.id, 0);
      expect(first).toMatchObject({ command, events: [] });
      expect(second).toMatchObject({ command: null, events: [{ a: { b: [] } }] });
    });

    it('sends the batch as JSON text (no Buffer: its memory outside the heap would set off full GCs) and reads back a large, non-ASCII entry unchanged', async () => {
      const param = jsonParam({ text: 'é⚔️', n: [1] });
      expect(typeof param).toBe('string');
      expect(param).toBe(JSON.stringify({ text: 'é⚔️', n: [1] }));
      expect(jsonParam(null)).toBe('null');
      const enc = await seedEncounter(store);
      const lease = (await store.acquireLease(enc.id, 'proc-a', 30_000))!;
      const command = { type: 'say', text: 'ß⚔️'.repeat(40_000) };
      const events = Array.from({ length: 500 }, (_, i) => ({ type: 'dice.rolled', i, purpose: `jet n°${i} — “ok”` }));
      await store.appendLog(
        [{ encounterId: enc.id, seq: 1, commandId: 'big', command, events }],
        [{ encounterId: enc.id, token: lease.token }],
      );
      const [back] = await store.readLog(enc.id, 0);
      expect(back!.command).toEqual(command);
      expect(back!.events).toEqual(events);
    });

    it('appends a batch across several encounters in one transaction', async () => {
      const a = await seedEncounter(store);
      const b = await seedEncounter(store, { accountId: a.accountId });
      const la = (await store.acquireLease(a.id, 'proc', 30_000))!;
      const lb = (await store.acquireLease(b.id, 'proc', 30_000))!;
      await store.appendLog(
        [entry(a.id, 1), entry(b.id, 1), entry(a.id, 2), entry(b.id, 2, 'other-id')],
        [
          { encounterId: a.id, token: la.token },
          { encounterId: b.id, token: lb.token },
        ],
      );
      expect((await store.readLog(a.id, 0)).map((e) => e.commandId)).toEqual(['cmd-1', 'cmd-2']);
      expect((await store.readLog(b.id, 0)).map((e) => e.commandId)).toEqual(['cmd-1', 'other-id']);
    });

    it('writes an entry’s summary (status, round, version = seq) to the encounter in the same transaction; a refused batch writes none; archived stays archived', async () => {
      const a = await seedEncounter(store);
      const b = await seedEncounter(store, { accountId: a.accountId });
      const c = await seedEncounter(store, { accountId: a.accountId });
      const la = (await store.acquireLease(a.id, 'proc', 30_000))!;
      const lb = (await store.acquireLease(b.id, 'proc', 30_000))!;
      const lc = (await store.acquireLease(c.id, 'proc', 30_000))!;
      await store.updateEncounterSummary(c.id, { status: 'archived' });
      await store.appendLog(
        [
          { ...entry(a.id, 1), summary: { status: 'active', round: 1 } },
          entry(b.id, 1),
          { ...entry(c.id, 1), summary: { status: 'active', round: 3 } },
        ],
        [
          { encounterId: a.id, token: la.token },
          { encounterId: b.id, token: lb.token },
          { encounterId: c.id, token: lc.token },
        ],
      );
      expect(await store.getEncounter(a.id)).toMatchObject({ status: 'active', round: 1, version: 1 });
      expect(await store.getEncounter(b.id)).toMatchObject({ status: 'setup', round: 0, version: 0 }); // no summary: untouched
      expect(await store.getEncounter(c.id)).toMatchObject({ status: 'archived' });
      expect((await store.readLog(a.id, 0))[0]).not.toHaveProperty('summary');
      // a stale seq refuses the whole batch: neither entry nor summary is written
      await expect(
        store.appendLog(
          [
            { ...entry(b.id, 2), summary: { status: 'ended', round: 9 } },
            { ...entry(a.id, 1, 'again'), summary: { status: 'ended', round: 9 } },
          ],
          [
            { encounterId: a.id, token: la.token },
            { encounterId: b.id, token: lb.token },
          ],
        ),
      ).rejects.toThrow();
      expect(await store.getEncounter(a.id)).toMatchObject({ status: 'active', round: 1, version: 1 });
      expect(await store.getEncounter(b.id)).toMatchObject({ status: 'setup', round: 0, version: 0 });
      expect(await store.readLog(b.id, 1)).toEqual([]); // b's seq 2 was not written either
    });

    it('an empty append is a no-op', async () => {
      await expect(store.appendLog([], [])).resolves.toBeUndefined();
    });
  });

  describe('snapshots', () => {
    it('returns the newest snapshot, overwrites one saved twice at a version, and prunes old ones', async () => {
      const enc = await seedEncounter(store, {}, { v: 0 });
      for (const v of [5, 10, 15, 20]) await store.saveSnapshot(enc.id, v, { v });
      await store.saveSnapshot(enc.id, 20, { v: 20, again: true });
      const latest = await store.latestSnapshot(enc.id);
      expect(latest).toMatchObject({ encounterId: enc.id, version: 20, state: { v: 20, again: true } });
      expect(latest!.createdAt).toBeInstanceOf(Date);
      expect(await store.latestSnapshot('nope')).toBeNull();
      // the first snapshot (the encounter as created) and the newest SNAPSHOTS_KEPT - 1 remain
      const rows = await (store as unknown as PrismaStore).prisma.snapshot.findMany({
        where: { encounterId: enc.id },
        orderBy: { version: 'asc' },
      });
      expect(rows.map((r) => r.version)).toEqual([0, ...[5, 10, 15, 20].slice(-(SNAPSHOTS_KEPT - 1))]);
      // no summary given: the encounter's row is untouched
      expect(await store.getEncounter(enc.id)).toMatchObject({ status: 'setup', round: 0, version: 0 });
    });

    it('keeps a state’s keys in the order they were written (json, not jsonb: the engine’s order is its fast path)', async () => {
      const state = {
        id: 'e',
        name: 'n',
        version: 3,
        clock: { round: 1, phase: 'a', order: ['c10', 'c2'], current: null },
        combatants: { c10: { id: 'c10', name: 'x', side: 's' }, c2: { id: 'c2', name: 'y', side: 's' } },
        rs: { zz: 1, a: 2 },
      };
      const enc = await seedEncounter(store, {}, state);
      const first = (await store.latestSnapshot(enc.id))!.state as typeof state;
      await store.saveSnapshot(enc.id, 3, state);
      const saved = (await store.latestSnapshot(enc.id))!.state as typeof state;
      for (const got of [first, saved]) {
        expect(got).toEqual(state);
        expect(JSON.stringify(got)).toBe(JSON.stringify(state));
        expect(Object.keys(got.combatants)).toEqual(['c10', 'c2']);
      }
    });

    it('writes the summary given with a snapshot (status, round, version) in the same statement, but never un-archives', async () => {
      const enc = await seedEncounter(store);
      await store.saveSnapshot(enc.id, 40, { v: 40 }, { status: 'active', round: 6 });
      expect(await store.getEncounter(enc.id)).toMatchObject({ status: 'active', round: 6, version: 40 });
      await store.updateEncounterSummary(enc.id, { status: 'archived' });
      await store.saveSnapshot(enc.id, 41, { v: 41 }, { status: 'ended', round: 7 });
      expect(await store.getEncounter(enc.id)).toMatchObject({ status: 'archived', round: 6, version: 40 });
      expect((await store.latestSnapshot(enc.id))?.version).toBe(41);
    });
  });

  describe('dropAll', () => {
    it('empties every table', async () => {
      const enc = await seedEncounter(store);
      await store.dropAll();
      expect(await store.getEncounter(enc.id)).toBeNull();
      expect(await store.listEncounters(enc.accountId, { includeArchived: true })).toEqual([]);
    });
  });

  it('two test stores are isolated from each other', async () => {
    const other = await openTestStore();
    try {
      const enc = await seedEncounter(store);
      expect(await other.getEncounter(enc.id)).toBeNull();
      const id = uid('acc');
      await other.createAccount({ id, tokenHash: id });
      expect(await store.findAccountByTokenHash(id)).toBeNull();
    } finally {
      await other.close();
    }
  });
});
