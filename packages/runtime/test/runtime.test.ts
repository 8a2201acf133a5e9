import jsonpatch, { type Operation } from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { projectState, type Viewer } from '@fray/engine';
import type { PatchMessage } from '@fray/protocol';
import { MemoryStore, Runtime } from '../src/index.js';
import { rulesets, skirmish } from '../src/testing.js';

const gm = { role: 'gm' } as const;

function newRuntime(store = new MemoryStore(), options: Partial<ConstructorParameters<typeof Runtime>[0]['options']> = {}) {
  return new Runtime({ store, rulesets, options: { ownerId: `test-${Math.random()}`, ...options } });
}

async function setup(rt: Runtime, opts: Record<string, unknown> = {}) {
  const rec = await rt.create({ accountId: 'acc', name: 'Bridge', ruleset: 'skirmish', options: opts, seed: 7 });
  const host = await rt.open(rec.id);
  let n = 0;
  const gmCmd = (command: Record<string, unknown>) => host.submit({ commandId: `g${++n}`, command, by: gm }, gm);
  await gmCmd({ type: 'combatant.add', combatant: { id: 'hero', name: 'Hero', side: 'pcs', controller: 'p1', stats: { hp: 10 } } });
  await gmCmd({
    type: 'combatant.add',
    combatant: { id: 'ogre', name: 'Ogre', side: 'npcs', secretStats: ['lore'], stats: { hp: 20, lore: 'SECRET-ogre' } },
  });
  await gmCmd({ type: 'combatant.add', combatant: { id: 'lurker', name: 'LURKER-hidden', side: 'npcs', hidden: true, stats: { hp: 5 } } });
  return { rec, host, gmCmd };
}

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** A client-side mirror: initial state + patches. */
function mirror(host: Awaited<ReturnType<Runtime['open']>>, viewer: Viewer) {
  const msgs: PatchMessage[] = [];
  const sub = host.subscribe(viewer, (m) => msgs.push(JSON.parse(JSON.stringify(m)) as PatchMessage));
  let doc = JSON.parse(JSON.stringify(sub.state)) as unknown;
  let version = sub.version;
  return {
    msgs,
    sub,
    catchUp() {
      for (const m of msgs.splice(0)) {
        expect(m.from).toBe(version);
        doc = jsonpatch.applyPatch(doc, m.ops as Operation[], true, false).newDocument;
        version = m.to;
      }
      return { doc, version };
    },
  };
}

describe('runtime', () => {
  it('applies commands serially, acks after commit, and every viewer converges through patches', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host, gmCmd } = await setup(rt);
    const views: Viewer[] = [gm, { role: 'player', playerId: 'p1' }, { role: 'spectator' }];
    const ms = views.map((v) => mirror(host, v));
    const start = await gmCmd({ type: 'combat.start' });
    expect(start.ok).toBe(true);
    // every acknowledged command is in the log
    expect(store.logs.get(host.id)!.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    views.forEach((v, i) => {
      const { doc, version } = ms[i]!.catchUp();
      expect(version).toBe(host.version);
      expect(doc).toEqual(JSON.parse(JSON.stringify(projectState(skirmish, host.state, v))));
    });
    // the player never sees the hidden combatant nor the secret lore
    const playerText = JSON.stringify(ms[1]!.sub.state) + JSON.stringify(ms[1]!.msgs);
    expect(playerText).not.toContain('LURKER');
    expect(playerText).not.toContain('SECRET-ogre');
    await rt.shutdown();
  });

  it('the GM’s list (status, round, version) changes with the log entry that changes it, not with a commit of its own', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host, gmCmd } = await setup(rt);
    expect(store.logs.get(host.id)!.every((e) => !('summary' in e))).toBe(true);
    const separate: unknown[] = [];
    const update = store.updateEncounterSummary.bind(store);
    store.updateEncounterSummary = (...a) => (separate.push(a), update(...a));
    const appends = store.appendCalls;
    expect((await gmCmd({ type: 'combat.start' })).ok).toBe(true);
    expect(store.appendCalls).toBe(appends + 1); // one commit for the entry and the summary
    expect(await store.getEncounter(host.id)).toMatchObject({ status: 'active', round: 1, version: 4 });
    // a command that changes neither status nor round leaves the summary alone
    expect((await gmCmd({ type: 'dice.roll', formula: '1d4', purpose: 'idle' })).ok).toBe(true);
    expect(await store.getEncounter(host.id)).toMatchObject({ round: 1, version: 4 });
    // a new round: the summary follows
    for (const id of [...host.state.clock.order]) {
      expect(
        (await host.submit({ commandId: `end-${id}`, command: { type: 'turn.end', combatantId: host.state.clock.current }, by: gm }, gm))
          .ok,
      ).toBe(true);
    }
    expect(host.state.clock.round).toBe(2);
    expect(await store.getEncounter(host.id)).toMatchObject({ status: 'active', round: 2, version: host.state.version });
    expect(separate).toEqual([]); // never a write of its own
    await rt.shutdown();
  });

  it('applies a repeated commandId once and returns the first ack', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host } = await setup(rt);
    const input = { commandId: 'same', command: { type: 'dice.roll', formula: '1d20', purpose: 'luck' }, by: gm };
    const [a, b] = await Promise.all([host.submit(input, gm), host.submit(input, gm)]);
    const c = await host.submit(input, gm);
    expect(a).toEqual(b);
    expect(a).toEqual(c);
    expect(store.logs.get(host.id)!.filter((e) => e.commandId === 'same')).toHaveLength(1);
    expect(host.version).toBe(4);
    await rt.shutdown();
  });

  it('refuses a stale expectedVersion without a state change', async () => {
    const rt = newRuntime();
    const { host } = await setup(rt);
    const ack = await host.submit({ commandId: 'x', expectedVersion: 1, command: { type: 'combat.start' }, by: gm }, gm);
    expect(ack).toMatchObject({ ok: false, error: { code: 'STALE_VERSION' } });
    expect(host.version).toBe(3);
    const ok = await host.submit({ commandId: 'y', expectedVersion: 3, command: { type: 'combat.start' }, by: gm }, gm);
    expect(ok.ok).toBe(true);
    await rt.shutdown();
  });

  it('does not acknowledge a command whose log append failed, and changes nothing', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host } = await setup(rt);
    store.failNextAppend = new Error('connection reset');
    const ack = await host.submit({ commandId: 'z', command: { type: 'combat.start' }, by: gm }, gm);
    expect(ack).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(store.logs.get(host.id)).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 20));
    // the host was unloaded; the next open reloads version 3 from the store
    const again = await rt.open(host.id);
    expect(again).not.toBe(host);
    expect(again.version).toBe(3);
    await rt.shutdown();
  });

  it('resumes after a restart from the latest snapshot and the log tail', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store, { snapshotEvery: 4 });
    const { host, gmCmd } = await setup(rt);
    await gmCmd({ type: 'combat.start' });
    for (let i = 0; i < 5; i++) await gmCmd({ type: 'dice.roll', formula: '2d6', purpose: `roll ${i}` });
    const before = JSON.parse(JSON.stringify(host.state)) as unknown;
    // simulate a crash: no shutdown, the lease simply expires
    store.leases.get(host.id)!.expiresAt = new Date(0);
    const rt2 = newRuntime(store);
    const resumed = await rt2.open(host.id);
    expect(JSON.parse(JSON.stringify(resumed.state))).toEqual(before);
    expect(store.snapshots.get(host.id)!.some((s) => s.version >= 4)).toBe(true);
    // the old owner is fenced off: its appends are refused
    const late = await host.submit({ commandId: 'late', command: { type: 'dice.roll', formula: '1d4', purpose: 'late' }, by: gm }, gm);
    expect(late).toMatchObject({ ok: false, error: { code: 'ENCOUNTER_BUSY' } });
    expect(store.logs.get(host.id)!.some((e) => e.commandId === 'late')).toBe(false);
    // a command already logged before the crash is recognised by its id after resume
    const dup = await resumed.submit({ commandId: 'g1', command: { type: 'combat.end' }, by: gm }, gm);
    expect(dup).toMatchObject({ ok: true, version: 1 });
    await rt2.shutdown();
    await rt.shutdown();
  });

  it('resumes in the engine’s key order from a store that sorts keys (jsonb), and goes on to the same states', async () => {
    const sorted = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(sorted);
      if (v && typeof v === 'object')
        return Object.fromEntries(
          Object.keys(v)
            .sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        );
      return v;
    };
    class SortingStore extends MemoryStore {
      override async latestSnapshot(encounterId: string) {
        const s = await super.latestSnapshot(encounterId);
        return s && { ...s, state: sorted(s.state) };
      }
    }
    const store = new SortingStore();
    const rt = newRuntime(store, { snapshotEvery: 4 });
    const { host, gmCmd } = await setup(rt);
    await gmCmd({ type: 'combat.start' });
    for (let i = 0; i < 5; i++) await gmCmd({ type: 'dice.roll', formula: '2d6', purpose: `roll ${i}` });
    const rootKeys = Object.keys(host.state);
    await rt.shutdown();
    const rt2 = newRuntime(store);
    const resumed = await rt2.open(host.id);
    expect(resumed.state).toEqual(host.state);
    expect(Object.keys(resumed.state)).toEqual(rootKeys);
    expect(Object.keys(resumed.state.clock)).toEqual(Object.keys(host.state.clock));
    for (const [id, c] of Object.entries(resumed.state.combatants)) expect(Object.keys(c)).toEqual(Object.keys(host.state.combatants[id]!));
    await rt2.shutdown();
  });

  it('refuses to run an encounter another process owns', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host } = await setup(rt);
    const rt2 = newRuntime(store);
    await expect(rt2.open(host.id)).rejects.toMatchObject({ code: 'ENCOUNTER_BUSY' });
    await rt.shutdown();
    // after a graceful shutdown the lease is released and the other process may take it
    const taken = await rt2.open(host.id);
    expect(taken.version).toBe(3);
    await rt2.shutdown();
  });

  it('closes a reaction window whose deadline passed with a logged system command', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store, { reactionSeconds: 0.15 });
    const { host, gmCmd } = await setup(rt, {});
    await gmCmd({ type: 'combat.start' });
    const current = host.state.clock.current!;
    const target = current === 'hero' ? 'ogre' : 'hero';
    const atk = await gmCmd({ type: 'attack', combatantId: current, targetId: target });
    expect(atk.ok).toBe(true);
    expect(host.state.reaction).not.toBeNull();
    const m = mirror(host, gm);
    expect(m.sub.deadlines.reaction?.windowId).toBe(host.state.reaction!.id);
    await new Promise((r) => setTimeout(r, 400));
    expect(host.state.reaction).toBeNull();
    const last = store.logs.get(host.id)!.at(-1)!;
    expect(last.command).toMatchObject({ type: 'reaction.resolve', by: { role: 'system' } });
    expect(last.commandId).toMatch(/^deadline:reaction:/);
    await rt.shutdown();
  });

  it('ends a turn when the GM turn timer passes, and the log replays to the same state', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host, gmCmd } = await setup(rt, { parry: false });
    await gmCmd({ type: 'combat.start' });
    const first = host.state.clock.current;
    await host.setTurnTimer(0.1);
    await new Promise((r) => setTimeout(r, 250));
    await rt.shutdown();
    const ends = store.logs.get(host.id)!.filter((e) => (e.command as { by: { role: string } }).by.role === 'system');
    expect(ends.length).toBeGreaterThanOrEqual(1);
    expect(ends[0]!.command).toMatchObject({ type: 'turn.end', combatantId: first });
    const rt2 = newRuntime(store);
    const resumed = await rt2.open(host.id);
    expect(JSON.parse(JSON.stringify(resumed.state))).toEqual(JSON.parse(JSON.stringify(host.state)));
    expect(resumed.turnTimerSeconds).toBe(0.1);
    await rt2.shutdown();
  });

  it('batches the appends of many encounters into few transactions (group commit)', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const hosts = [];
    for (let i = 0; i < 20; i++) hosts.push((await setup(rt)).host);
    const before = rt.writer.stats.batches;
    const acks = await Promise.all(hosts.map((h, i) => h.submit({ commandId: `b${i}`, command: { type: 'combat.start' }, by: gm }, gm)));
    expect(acks.every((a) => a.ok)).toBe(true);
    expect(rt.writer.stats.batches - before).toBeLessThan(5);
    await rt.shutdown();
  });

  it('writes at most commitsInFlight batches at once; entries that arrive meanwhile wait and go together', async () => {
    class SlowStore extends MemoryStore {
      writing = 0;
      most = 0;
      sizes: number[] = [];
      override async appendLog(...a: Parameters<MemoryStore['appendLog']>) {
        this.writing += 1;
        this.most = Math.max(this.most, this.writing);
        this.sizes.push(a[0].length);
        await new Promise((r) => setTimeout(r, 15));
        try {
          return await super.appendLog(...a);
        } finally {
          this.writing -= 1;
        }
      }
    }
    for (const inFlight of [1, 3]) {
      const store = new SlowStore();
      const rt = newRuntime(store, { commitsInFlight: inFlight });
      const hosts = [];
      for (let i = 0; i < 12; i++) hosts.push((await setup(rt)).host);
      store.most = 0;
      store.sizes = [];
      // the encounters' commands arrive one after another while earlier batches are written
      const acks = [];
      for (const [i, h] of hosts.entries()) {
        acks.push(h.submit({ commandId: `f${i}`, command: { type: 'combat.start' }, by: gm }, gm));
        await new Promise((r) => setTimeout(r, 2));
      }
      expect((await Promise.all(acks)).every((a) => a.ok)).toBe(true);
      expect(store.most).toBe(inFlight);
      if (inFlight === 1) expect(Math.max(...store.sizes)).toBeGreaterThan(1);
      await rt.shutdown();
    }
  });

  it('logSlowCommitMs: a warn line for each group commit slower than the threshold, none for the fast ones', async () => {
    class SlowOnce extends MemoryStore {
      slow = false;
      override async appendLog(...a: Parameters<MemoryStore['appendLog']>) {
        if (this.slow) await new Promise((r) => setTimeout(r, 40));
        return super.appendLog(...a);
      }
    }
    const store = new SlowOnce();
    const warned: Array<{ o: Record<string, unknown>; msg: string }> = [];
    const quiet = () => {};
    const logger = {
      info: quiet,
      debug: quiet,
      error: quiet,
      warn: (o: object, msg?: string) => void warned.push({ o: o as Record<string, unknown>, msg: msg ?? '' }),
      child: () => logger,
    };
    const rt = new Runtime({ store, rulesets, logger, options: { ownerId: `test-${Math.random()}`, logSlowCommitMs: 25 } });
    const { host, gmCmd } = await setup(rt);
    expect(warned).toEqual([]);
    store.slow = true;
    expect((await gmCmd({ type: 'combat.start' })).ok).toBe(true);
    expect(warned).toHaveLength(1);
    expect(warned[0]!.msg).toBe('slow group commit');
    expect(warned[0]!.o).toMatchObject({ entries: 1 });
    expect(warned[0]!.o.ms as number).toBeGreaterThanOrEqual(25);
    expect(store.logs.get(host.id)!.length).toBe(host.version);
    await rt.shutdown();
  });

  it('periodic snapshots: every snapshotEvery commands, staggered per encounter, at most snapshotsInFlight written at once', async () => {
    class SlowSnapshots extends MemoryStore {
      delay = 0;
      writing = 0;
      most = 0;
      override async saveSnapshot(...a: Parameters<MemoryStore['saveSnapshot']>) {
        this.writing += 1;
        this.most = Math.max(this.most, this.writing);
        if (this.delay) await new Promise((r) => setTimeout(r, this.delay));
        try {
          return await super.saveSnapshot(...a);
        } finally {
          this.writing -= 1;
        }
      }
    }
    const every = 8;
    const lockstep = async (delay: number) => {
      const store = new SlowSnapshots();
      store.delay = delay;
      const rt = newRuntime(store, { snapshotEvery: every, snapshotsInFlight: 2 });
      const hosts = [];
      for (let i = 0; i < 12; i++) hosts.push((await setup(rt)).host);
      const loaded = new Map(hosts.map((h) => [h.id, h.version]));
      store.most = 0;
      // the encounters move in lockstep, as a load test's do
      for (let round = 0; round < 2 * every; round++) {
        await Promise.all(
          hosts.map((h, i) =>
            h.submit({ commandId: `s${round}-${i}`, command: { type: 'dice.roll', formula: '1d6', purpose: 'tick' }, by: gm }, gm),
          ),
        );
      }
      await new Promise((r) => setTimeout(r, 20 * delay + 20)); // let the queue drain
      const periodic = hosts.map((h) =>
        store.snapshots
          .get(h.id)!
          .map((s) => s.version - loaded.get(h.id)!)
          .filter((d) => d > 0),
      );
      await rt.shutdown();
      return { store, periodic };
    };
    // a slow database: never more than 2 snapshots at once, and every encounter still gets one
    const slow = await lockstep(10);
    expect(slow.store.most).toBe(2);
    expect(slow.periodic.every((p) => p.length > 0)).toBe(true);
    // the first periodic snapshot comes within `every` commands of the load (the initial snapshot
    // is at version 0, the setup made 3), at an offset of each encounter's own
    const fast = await lockstep(0);
    const firsts = fast.periodic.map((p) => p[0]!);
    for (const f of firsts) expect(f).toBeLessThanOrEqual(every);
    expect(new Set(firsts).size).toBeGreaterThan(2);
    // then one every `every` commands
    for (const p of fast.periodic) {
      expect(p.length).toBeGreaterThanOrEqual(2);
      for (let k = 1; k < p.length; k++) expect(p[k]! - p[k - 1]!).toBe(every);
    }
  });

  it('sync returns missed patches, or a snapshot when they are too old', async () => {
    const rt = newRuntime(new MemoryStore(), { syncHistory: 3 });
    const { host, gmCmd } = await setup(rt);
    const p1: Viewer = { role: 'player', playerId: 'p1' };
    const m = mirror(host, p1);
    const v0 = host.version;
    await gmCmd({ type: 'combat.start' });
    await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'a' });
    const s1 = host.sync(p1, v0);
    expect(s1).toMatchObject({ ok: true, kind: 'patches' });
    for (let i = 0; i < 4; i++) await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: `b${i}` });
    const s2 = host.sync(p1, v0);
    expect(s2).toMatchObject({ ok: true, kind: 'snapshot', version: host.version });
    m.catchUp();
    await rt.shutdown();
  });

  it('an idle encounter is snapshotted, leaves memory, and comes back on the next open', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store, { idleMs: 0, idleSnapshotMs: 0, sweepMs: 60_000 });
    const { host, gmCmd } = await setup(rt);
    await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'before idle' });
    const sub = host.subscribe(gm, () => {});
    await rt.sweep();
    expect(rt.peek(host.id)).toBe(host); // a viewer keeps it in memory
    sub.unsubscribe();
    await rt.sweep();
    expect(rt.peek(host.id)).toBeUndefined();
    expect((await store.latestSnapshot(host.id))!.version).toBe(4);
    const back = await rt.open(host.id);
    expect(back).not.toBe(host);
    expect(back.state).toEqual(host.state);
    await rt.shutdown();
  });

  it('a graceful shutdown drains every queued command before it stops', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host } = await setup(rt);
    const acks = Array.from({ length: 20 }, (_, i) =>
      host.submit({ commandId: `q${i}`, command: { type: 'dice.roll', formula: '1d6', purpose: `q${i}` }, by: gm }, gm),
    );
    await rt.shutdown();
    const results = await Promise.all(acks);
    expect(results.every((a) => a.ok)).toBe(true);
    expect(store.logs.get(host.id)).toHaveLength(23);
    expect((await store.latestSnapshot(host.id))!.version).toBe(23);
    expect(store.leases.get(host.id)!.expiresAt.getTime()).toBe(0); // released
  });
});

describe('shared views', () => {
  it('viewers who see the same get one message, delivered once to all their sinks; a player with a secret gets its own', async () => {
    const deliveries: Array<{ msg: PatchMessage; sinks: number }> = [];
    const rt = new Runtime({
      store: new MemoryStore(),
      rulesets,
      options: { ownerId: `test-${Math.random()}` },
      deliver: (msg, sinks) => {
        deliveries.push({ msg, sinks: sinks.length });
        for (const s of sinks) s(msg);
      },
    });
    const { host, gmCmd } = await setup(rt);
    // p2 controls a combatant with a secret stat: a view of its own
    await gmCmd({
      type: 'combatant.add',
      combatant: { id: 'spy', name: 'Spy', side: 'pcs', controller: 'p2', secretStats: ['lore'], stats: { hp: 4, lore: 'SECRET-spy' } },
    });
    const views = {
      gm: mirror(host, gm),
      p1: mirror(host, { role: 'player', playerId: 'p1' }),
      p2: mirror(host, { role: 'player', playerId: 'p2' }),
      s1: mirror(host, { role: 'spectator' }),
      s2: mirror(host, { role: 'spectator' }),
    };
    deliveries.length = 0;
    const ack = await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'test' });
    expect(ack.ok).toBe(true);
    // the GM, the public view (p1 and both spectators), p2's own view
    expect(deliveries.map((d) => d.sinks).sort()).toEqual([1, 1, 3]);
    const publicMsg = deliveries.find((d) => d.sinks === 3)!.msg;
    expect(JSON.stringify(publicMsg)).not.toContain('SECRET');
    for (const [name, v] of Object.entries(views)) {
      const viewer: Viewer = name === 'gm' ? gm : name.startsWith('p') ? { role: 'player', playerId: name } : { role: 'spectator' };
      expect(v.catchUp().doc, name).toEqual(JSON.parse(JSON.stringify(projectState(rulesets.skirmish!, host.state, viewer))));
    }
    expect(JSON.stringify(views.p2.catchUp().doc)).toContain('SECRET-spy');
    expect(JSON.stringify(views.p1.catchUp().doc)).not.toContain('SECRET');
    await rt.shutdown();
  });
});

describe('idempotency beyond the memory', () => {
  /** A roll accepted as `the-roll`, then 300 more commands: more than the ids a host remembers. */
  async function rolledThenForgotten(store: MemoryStore) {
    const rt = newRuntime(store);
    const { host, gmCmd } = await setup(rt);
    const first = await host.submit(
      { commandId: 'the-roll', command: { type: 'dice.roll', formula: '1d20', purpose: 'first' }, by: gm },
      gm,
    );
    expect(first.ok).toBe(true);
    for (let i = 0; i < 300; i++) expect((await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'filler' })).ok).toBe(true);
    return { rt, host, gmCmd, first };
  }

  it('"a repeated commandId returns the first ack and is applied once", even 300 commands later, accepted or refused on the way', async () => {
    const store = new MemoryStore();
    const { rt, host, first } = await rolledThenForgotten(store);
    const version = host.version;
    const logged = (await store.readLog(host.id, 0, 10_000)).length;
    // the engine would accept it again: the log's unique command id stops it
    const again = await host.submit(
      { commandId: 'the-roll', command: { type: 'dice.roll', formula: '1d20', purpose: 'first' }, by: gm },
      gm,
    );
    expect(again).toEqual(first);
    // a stale expectedVersion would refuse it: the log is checked before refusing
    const stale = await host.submit(
      { commandId: 'the-roll', expectedVersion: 1, command: { type: 'dice.roll', formula: '1d20', purpose: 'first' }, by: gm },
      gm,
    );
    expect(stale).toEqual(first);
    expect(host.version).toBe(version);
    expect((await store.readLog(host.id, 0, 10_000)).length).toBe(logged);
    // a new command id that is refused is still refused
    const refused = await host.submit(
      { commandId: 'new-one', expectedVersion: 1, command: { type: 'dice.roll', formula: '1d20', purpose: 'x' }, by: gm },
      gm,
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'STALE_VERSION' } });
    await rt.shutdown();
  });

  it("a refused command's read of the log does not hold up the commands behind it; the same id gets the same answer meanwhile", async () => {
    // the log read for an earlier acceptance of a refused command id waits until `open()`
    let open: () => void = () => {};
    let reads = 0;
    class SlowLookups extends MemoryStore {
      override async findLogByCommandId(encounterId: string, commandId: string) {
        reads += 1;
        await new Promise<void>((r) => (open = r));
        return super.findLogByCommandId(encounterId, commandId);
      }
    }
    // past the ids the runtime remembers: a refusal must ask the log
    const { rt, host, gmCmd, first } = await rolledThenForgotten(new SlowLookups());
    const bad = { commandId: 'bad-1', command: { type: 'combatant.remove', combatantId: 'ghost' }, by: gm };
    const refused = host.submit(bad, gm);
    await until(() => reads === 1);
    // the next command is applied while the read is out
    const next = await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'behind the refusal' });
    expect(next.ok).toBe(true);
    // a retry of the refused id during the read waits for the same answer, without a second read
    const retried = host.submit(bad, gm);
    await new Promise((r) => setTimeout(r, 10));
    expect(reads).toBe(1);
    open();
    expect(await refused).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMBATANT' } });
    expect(await retried).toEqual(await refused);
    // remembered now: no read
    expect(await host.submit(bad, gm)).toEqual(await refused);
    expect(reads).toBe(1);
    // an accepted id from beyond the memory, refused by the rules now: the first ack, read off the log
    const again = host.submit(
      { commandId: 'the-roll', expectedVersion: 1, command: { type: 'dice.roll', formula: '1d20', purpose: 'first' }, by: gm },
      gm,
    );
    await until(() => reads === 2);
    open();
    expect(await again).toEqual(first);
    await rt.shutdown();
  });

  it('refusals of ids never accepted stop reading the log once the filter of accepted ids is built; an accepted id still gets its first ack', async () => {
    const store = new MemoryStore();
    const { rt, host, first } = await rolledThenForgotten(store);
    const ghost = (commandId: string) =>
      host.submit({ commandId, command: { type: 'combatant.remove', combatantId: 'ghost' }, by: gm }, gm);
    const reads = store.commandIdLookups;
    // the first refusal reads the log (no filter yet) and has the filter built from the log's ids
    expect(await ghost('bad-0')).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMBATANT' } });
    expect(store.commandIdLookups).toBe(reads + 1);
    expect(store.commandIdLists).toBe(1);
    await new Promise((r) => setTimeout(r, 5));
    // then refusals of new ids are answered without a read (a Bloom filter says "maybe" for fewer
    // than one id in 200 it never held: those few still read the log)
    for (let i = 1; i <= 60; i++) expect(await ghost(`bad-${i}`)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMBATANT' } });
    expect(store.commandIdLookups - (reads + 1)).toBeLessThanOrEqual(2);
    expect(store.commandIdLists).toBe(1);
    // never a false "no": the roll accepted 300 commands ago, refused by the rules now, gets its first ack
    const before = store.commandIdLookups;
    const again = await host.submit(
      { commandId: 'the-roll', expectedVersion: 1, command: { type: 'dice.roll', formula: '1d20', purpose: 'first' }, by: gm },
      gm,
    );
    expect(again).toEqual(first);
    expect(store.commandIdLookups).toBe(before + 1);
    await rt.shutdown();
  });

  it('an id accepted while the filter is read from the log is in it (a retry from beyond the memory gets its first ack)', async () => {
    let open: () => void = () => {};
    class SlowList extends MemoryStore {
      override async listCommandIds(encounterId: string) {
        const ids = await super.listCommandIds(encounterId);
        await new Promise<void>((r) => (open = r));
        return ids;
      }
    }
    const store = new SlowList();
    const { rt, host, gmCmd } = await rolledThenForgotten(store);
    expect(
      await host.submit({ commandId: 'bad-0', command: { type: 'combatant.remove', combatantId: 'ghost' }, by: gm }, gm),
    ).toMatchObject({ ok: false });
    expect(store.commandIdLists).toBe(1);
    // accepted after the read took its ids, before it is back
    const during = await host.submit(
      { commandId: 'during', command: { type: 'dice.roll', formula: '1d8', purpose: 'during the read' }, by: gm },
      gm,
    );
    expect(during.ok).toBe(true);
    open();
    await new Promise((r) => setTimeout(r, 5));
    // 'during' leaves the memory of acks
    for (let i = 0; i < 300; i++) expect((await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'filler' })).ok).toBe(true);
    const reads = store.commandIdLookups;
    // a retry with a stale version: the filter holds the id, so the log is read and the first ack comes back
    const retry = await host.submit(
      { commandId: 'during', expectedVersion: 1, command: { type: 'dice.roll', formula: '1d8', purpose: 'during the read' }, by: gm },
      gm,
    );
    expect(retry).toEqual(during);
    expect(store.commandIdLookups).toBe(reads + 1);
    await rt.shutdown();
  });

  it("when the log's ids cannot be read, refusals read the log one by one (a warning), and the filter is tried again 30 s later", async () => {
    let now = 1_000_000;
    let fail = true;
    class FailingList extends MemoryStore {
      override async listCommandIds(encounterId: string) {
        if (fail) {
          this.commandIdLists += 1;
          throw new Error('connection reset');
        }
        return super.listCommandIds(encounterId);
      }
    }
    const store = new FailingList();
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn: (_o: object, m?: string) => void warnings.push(m ?? ''),
      error() {},
      child() {
        return logger;
      },
    };
    const rt = new Runtime({ store, rulesets, logger, options: { ownerId: `test-${Math.random()}` }, now: () => now });
    const { host, gmCmd } = await setup(rt);
    for (let i = 0; i < 300; i++) expect((await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'filler' })).ok).toBe(true);
    const ghost = (commandId: string) =>
      host.submit({ commandId, command: { type: 'combatant.remove', combatantId: 'ghost' }, by: gm }, gm);
    const reads = store.commandIdLookups;
    expect(await ghost('bad-0')).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMBATANT' } });
    await new Promise((r) => setTimeout(r, 5));
    expect(warnings.some((w) => w.includes('command ids'))).toBe(true);
    for (let i = 1; i <= 5; i++) expect(await ghost(`bad-${i}`)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMBATANT' } });
    expect(store.commandIdLookups).toBe(reads + 6);
    expect(store.commandIdLists).toBe(1);
    // later, the read works: the filter is built and refusals stop reading the log
    fail = false;
    now += 30_001;
    expect(await ghost('bad-6')).toMatchObject({ ok: false });
    await new Promise((r) => setTimeout(r, 5));
    const after = store.commandIdLookups;
    for (let i = 7; i <= 30; i++) expect(await ghost(`bad-${i}`)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMBATANT' } });
    expect(store.commandIdLookups - after).toBeLessThanOrEqual(1);
    await rt.shutdown();
  });

  it("an idle encounter nobody watches lets go of its viewers' channels; a viewer who comes back converges", async () => {
    let now = 1_000_000;
    const rt = new Runtime({
      store: new MemoryStore(),
      rulesets,
      options: { ownerId: `test-${Math.random()}`, idleSnapshotMs: 1000 },
      now: () => now,
    });
    const { host, gmCmd } = await setup(rt);
    const p1: Viewer = { role: 'player', playerId: 'p1' };
    const v = mirror(host, p1);
    for (let i = 0; i < 5; i++) await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'x' });
    v.catchUp();
    v.sub.unsubscribe();
    now += 5000;
    await rt.sweep();
    expect((host as unknown as { channels: Map<string, unknown> }).channels.size).toBe(0);
    await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'after' });
    const back = mirror(host, p1);
    await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'live' });
    expect(back.catchUp().doc).toEqual(JSON.parse(JSON.stringify(projectState(rulesets.skirmish!, host.state, p1))));
    await rt.shutdown();
  });
});
