import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrayClient, EncounterMirror } from '@fray/client';
import { connect, expectConverged, startServer, testMetricsToken, until, type TestServer } from './helpers.js';

/**
 * "A GM creates an encounter, two players and a spectator join, legal and illegal actions flow;
 * after every step each client's state (initial snapshot + applied patches) equals the server's
 * projection for that viewer" — real socket.io clients over loopback, a real server, the store.
 */
describe('a live encounter over socket.io', () => {
  let s: TestServer;
  let gmToken: string;
  let encounterId: string;
  const clients: FrayClient[] = [];
  let gm: EncounterMirror, p1: EncounterMirror, p2: EncounterMirror, spec: EncounterMirror;
  let p1Client: FrayClient, p2Client: FrayClient, specClient: FrayClient, gmClient: FrayClient;
  const received = new Map<string, string[]>();

  beforeAll(async () => {
    s = await startServer({ runtime: { reactionSeconds: 0 } });
    const acc = await s.http('POST', '/accounts', { name: 'Gamemaster' });
    expect(acc.status).toBe(201);
    gmToken = acc.body.token as string;
    const enc = await s.http('POST', '/encounters', { name: 'The bridge', ruleset: 'skirmish', seed: 42 }, gmToken);
    expect(enc.status).toBe(201);
    encounterId = enc.body.id as string;
    const add = (body: unknown) => s.http('POST', `/encounters/${encounterId}/combatants`, body, gmToken);
    expect((await add({ id: 'hero1', name: 'Ayla', side: 'pcs', stats: { hp: 12, init: 3 } })).status).toBe(201);
    expect((await add({ id: 'hero2', name: 'Borin', side: 'pcs', stats: { hp: 14, init: 1 } })).status).toBe(201);
    expect(
      (await add({ id: 'ogre', name: 'Ogre', side: 'npcs', secretStats: ['lore'], stats: { hp: 30, lore: 'SECRET-weak-to-fire' } })).status,
    ).toBe(201);
    expect((await add({ id: 'lurker', name: 'LURKER-in-the-dark', side: 'npcs', hidden: true, stats: { hp: 8 } })).status).toBe(201);
    const i1 = await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'player', combatantIds: ['hero1'] }, gmToken);
    const i2 = await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'player', combatantIds: ['hero2'] }, gmToken);
    const is = await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'spectator' }, gmToken);
    expect([i1.status, i2.status, is.status]).toEqual([201, 201, 201]);
    gmClient = await connect(s.url, gmToken);
    p1Client = await connect(s.url, i1.body.token as string);
    p2Client = await connect(s.url, i2.body.token as string);
    specClient = await connect(s.url, is.body.token as string);
    clients.push(gmClient, p1Client, p2Client, specClient);
    for (const [name, c] of [
      ['gm', gmClient],
      ['p1', p1Client],
      ['p2', p2Client],
      ['spec', specClient],
    ] as const) {
      const list: string[] = [];
      received.set(name, list);
      c.socket.onAny((_e, ...args) => list.push(JSON.stringify(args)));
    }
    gm = await gmClient.join(encounterId);
    p1 = await p1Client.join(encounterId);
    p2 = await p2Client.join(encounterId);
    spec = await specClient.join(encounterId);
    for (const [name, m] of [
      ['p1', p1],
      ['p2', p2],
      ['spec', spec],
    ] as const)
      received.get(name)!.push(JSON.stringify(m.state));
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await s?.close();
  });

  const all = () => [gm, p1, p2, spec];

  it('joins give each viewer its projection; players and spectators never see GM-only data', async () => {
    await expectConverged(s, encounterId, all());
    expect(gm.role).toBe('gm');
    expect(p1.role).toBe('player');
    expect(spec.role).toBe('spectator');
    const gmState = gm.state as { combatants: Record<string, { controller: string | null; stats: Record<string, unknown> }> };
    // the invite bound hero1 to p1 through a logged command
    expect(gmState.combatants.hero1!.controller).toBe(p1.playerId);
    expect(gmState.combatants.lurker).toBeDefined();
    const p1State = p1.state as typeof gmState;
    expect(p1State.combatants.lurker).toBeUndefined();
    expect(p1State.combatants.ogre!.stats.lore).toBeUndefined();
  });

  it('legal and illegal actions flow; every step converges', async () => {
    const start = await gm.command({ type: 'combat.start' });
    expect(start.ok).toBe(true);
    await expectConverged(s, encounterId, all());
    const who: Record<string, EncounterMirror> = { hero1: p1, hero2: p2 };
    for (let step = 0; step < 6; step++) {
      const host = s.server.runtime.peek(encounterId)!;
      const current = host.state.clock.current!;
      const actor = who[current] ?? gm;
      const target = current === 'ogre' || current === 'lurker' ? 'hero1' : 'ogre';
      const atk = await actor.command({ type: 'attack', combatantId: current, targetId: target });
      expect(atk.ok).toBe(true);
      await expectConverged(s, encounterId, all());
      // a second attack in the same turn is illegal: typed error naming the rule, nothing changes
      const v = host.version;
      const again = await actor.command({ type: 'attack', combatantId: current, targetId: target });
      expect(again).toMatchObject({ ok: false });
      expect(host.version).toBe(v);
      // the target answers the parry window (its player, or the GM for an NPC)
      const defender = who[target] ?? gm;
      const parry = await defender.command({ type: step % 2 ? 'parry' : 'reaction.pass', combatantId: target });
      expect(parry.ok).toBe(true);
      await expectConverged(s, encounterId, all());
      const end = await actor.command({ type: 'turn.end', combatantId: current });
      expect(end.ok).toBe(true);
      await expectConverged(s, encounterId, all());
    }
  });

  it('a player cannot act for another player’s combatant, and a spectator cannot act at all', async () => {
    const host = s.server.runtime.peek(encounterId)!;
    const v = host.version;
    const forged = await p1.command({ type: 'turn.end', combatantId: 'hero2' });
    expect(forged).toMatchObject({ ok: false, error: { code: 'NOT_AUTHORIZED' } });
    const viaGmField = await p1Client.command(encounterId, { type: 'combat.end', by: { role: 'gm' } } as never);
    expect(viaGmField).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } });
    const gmOnly = await p1.command({ type: 'combat.end' });
    expect(gmOnly).toMatchObject({ ok: false, error: { code: 'NOT_AUTHORIZED' } });
    const watch = await spec.command({ type: 'dice.roll', formula: '1d6', purpose: 'x' });
    expect(watch).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(host.version).toBe(v);
  });

  it('applies a duplicate commandId once and answers with the first ack', async () => {
    const host = s.server.runtime.peek(encounterId)!;
    const v = host.version;
    const a = await gm.command({ type: 'dice.roll', formula: '1d20', purpose: 'dup' }, { commandId: 'dup-1' });
    const b = await gm.command({ type: 'dice.roll', formula: '1d20', purpose: 'dup' }, { commandId: 'dup-1' });
    expect(a.ok).toBe(true);
    expect(b).toEqual(a);
    expect(host.version).toBe(v + 1);
    await expectConverged(s, encounterId, all());
  });

  it('refuses a stale expectedVersion', async () => {
    const host = s.server.runtime.peek(encounterId)!;
    const v = host.version;
    const stale = await gm.command({ type: 'dice.roll', formula: '1d4', purpose: 'stale' }, { expectedVersion: v - 1 });
    expect(stale).toMatchObject({ ok: false, error: { code: 'STALE_VERSION' } });
    const fresh = await gm.command({ type: 'dice.roll', formula: '1d4', purpose: 'fresh' }, { expectedVersion: v });
    expect(fresh).toMatchObject({ ok: true, version: v + 1 });
    await expectConverged(s, encounterId, all());
  });

  it('a client that drops and reconnects converges with sync to the state of one that never left', async () => {
    p2Client.socket.io.engine.close(); // drop the transport; socket.io reconnects by itself
    await until(() => !p2Client.socket.connected, 2000, 'the drop');
    for (let i = 0; i < 3; i++) expect((await gm.command({ type: 'dice.roll', formula: '1d8', purpose: `while away ${i}` })).ok).toBe(true);
    await until(() => p2Client.socket.connected, 5000, 'the reconnect');
    await expectConverged(s, encounterId, all());
    const viaSync = await p2Client.sync(encounterId, 0);
    expect(viaSync.ok).toBe(true);
  });

  it('lists legal actions for my combatant only, and the log projected for me', async () => {
    const mine = await p1Client.actions(encounterId, 'hero1');
    expect(mine.ok).toBe(true);
    const theirs = await p1Client.actions(encounterId, 'hero2');
    expect(theirs).toMatchObject({ ok: false, error: { code: 'NOT_AUTHORIZED' } });
    const log = await p1Client.log(encounterId);
    expect(log.ok).toBe(true);
    const text = JSON.stringify(log);
    expect(text).not.toContain('LURKER');
    expect(text).not.toContain('SECRET-weak-to-fire');
    expect(text).not.toContain('rngAfter');
  });

  it('the GM sets the turn timer: every viewer gets the new deadline at once, with no change to the state', async () => {
    const version = gm.version;
    const current = s.server.runtime.peek(encounterId)!.state.clock.current;
    expect(current).not.toBeNull();
    const t0 = Date.now();
    expect(await gmClient.setTurnTimer(encounterId, 600)).toEqual({ ok: true });
    const visible = (m: EncounterMirror) => (m.state as { combatants: Record<string, unknown> }).combatants[current!] !== undefined;
    await until(() => all().every((m) => (m.deadlines.turn !== null) === visible(m)), 5000, 'the deadlines notice');
    for (const m of all()) {
      expect(m.version).toBe(version); // no patch: the state did not change
      if (!visible(m)) continue;
      expect(m.deadlines.turn!.combatantId).toBe(current);
      expect(m.deadlines.turn!.at).toBeGreaterThanOrEqual(t0 + 599_000);
    }
    expect(await gmClient.setTurnTimer(encounterId, null)).toEqual({ ok: true });
    await until(() => all().every((m) => m.deadlines.turn === null), 5000, 'the timer cleared');
  });

  it('no GM-only data ever reached a player or the spectator, in any message', () => {
    for (const name of ['p1', 'p2', 'spec']) {
      const text = received.get(name)!.join('\n');
      expect(text.length).toBeGreaterThan(100);
      expect(text).not.toContain('LURKER');
      expect(text).not.toContain('lurker');
      expect(text).not.toContain('SECRET-weak-to-fire');
      expect(text).not.toContain('rngAfter');
    }
    // the GM gets every roll, but not the generator's state after it (docs/dice.md: its reader foresees the dice)
    expect(received.get('gm')!.join('\n')).toContain('dice.rolled');
    expect(received.get('gm')!.join('\n')).not.toContain('rngAfter');
  });

  it('the GM lists, reads and archives encounters over HTTP', async () => {
    const list = await s.http('GET', '/encounters', undefined, gmToken);
    expect(list.status).toBe(200);
    expect((list.body.encounters as Array<{ id: string }>)[0]!.id).toBe(encounterId);
    const one = await s.http('GET', `/encounters/${encounterId}`, undefined, gmToken);
    expect(one.status).toBe(200);
    expect((one.body.invites as unknown[]).length).toBe(3);
    const log = await s.http('GET', `/encounters/${encounterId}/log`, undefined, gmToken);
    expect((log.body.entries as unknown[]).length).toBe(s.server.runtime.peek(encounterId)!.version);
    const rulesets = await s.http('GET', '/rulesets');
    const sk = (
      rulesets.body.rulesets as Array<{ id: string; options: { defaults: unknown }; stats: { schema: { properties: object } } }>
    )[0]!;
    expect(sk.id).toBe('skirmish');
    expect(sk.options.defaults).toEqual({ parry: true, parrySeconds: 0 });
    expect(Object.keys(sk.stats.schema.properties)).toContain('hp');
    const bare = await s.http('POST', '/accounts');
    expect(bare.status).toBe(201);
    expect(bare.body.token).toMatch(/^fray_gm_/);
    const health = await s.http('GET', '/health');
    expect(health.body).toMatchObject({ status: 'ok' });
    // the process figures: counters that moved, and no encounter data
    const metrics = await s.http('GET', '/metrics/json', undefined, testMetricsToken);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatchObject({ pid: process.pid, liveEncounters: 1 });
    // null during the first 10-second window, then the window's figures
    const delay = metrics.body.eventLoopDelayMs as { p50: number; p99: number; max: number; windowSeconds: number } | null;
    expect(delay === null || (delay.windowSeconds === 10 && delay.p50 >= 0 && delay.p99 >= delay.p50 && delay.max >= delay.p99)).toBe(true);
    expect((metrics.body.runtime as { commands: number }).commands).toBe(s.server.runtime.peek(encounterId)!.version);
    expect((metrics.body.logWriter as { entries: number }).entries).toBeGreaterThanOrEqual(s.server.runtime.peek(encounterId)!.version);
    expect(JSON.stringify(metrics.body)).not.toContain(encounterId);
    // garbage collections counted from Node's gc entries: allocate enough for scavenges to run
    let junk: Array<{ i: number }> = [];
    for (let i = 0; i < 2_000_000; i++) junk.push({ i });
    junk = [];
    await new Promise((r) => setTimeout(r, 100));
    const gc = (await s.http('GET', '/metrics/json', undefined, testMetricsToken)).body.gc as {
      scavenges: number;
      scavengeMs: number;
      scavengeMaxMs: number;
      fullGcs: number;
      fullGcMs: number;
      fullGcMaxMs: number;
    };
    expect(junk.length).toBe(0);
    expect(gc.scavenges).toBeGreaterThan(0);
    expect(gc.scavengeMs).toBeGreaterThan(0);
    expect(gc.scavengeMaxMs).toBeLessThanOrEqual(gc.scavengeMs);
    expect(gc.fullGcs).toBeGreaterThanOrEqual(0);
    expect(gc.fullGcMaxMs).toBeLessThanOrEqual(gc.fullGcMs);
    const arch = await s.http('POST', `/encounters/${encounterId}/archive`, undefined, gmToken);
    expect(arch.status).toBe(200);
    const refused = await gm.command({ type: 'dice.roll', formula: '1d4', purpose: 'after archive' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ENCOUNTER_ARCHIVED' } });
    const list2 = await s.http('GET', '/encounters', undefined, gmToken);
    expect((list2.body.encounters as unknown[]).length).toBe(0);
  });
});
