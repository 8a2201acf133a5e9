import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '@fray/rulesets';
import type { EncounterMirror, FrayClient } from '@fray/client';
import { connect, expectConverged, startServer, type TestServer } from './helpers.js';

interface Info {
  id: string;
  options: { schema: { properties: Record<string, unknown> }; defaults: Record<string, unknown>; docs: Record<string, string> };
  stats: { schema: { properties: Record<string, unknown> }; docs: Record<string, string> };
  display: {
    vitals: Array<{ key: string }>;
    namedVitals?: { names: string; rising?: string; spec: { key: string; current: unknown; max: unknown; adjustable: boolean } };
    samples?: Array<{ name: string }>;
    events: Record<string, unknown>;
  };
}
type Data = Record<string, unknown>;

/**
 * `freeform` through the server: what GET /rulesets tells a browser about it (the vitals the
 * encounter names included), and the GM's damage and healing on each named vital over socket.io
 * while the players and the spectator converge.
 */
describe.runIf(registry.freeform !== undefined)('freeform through the server', () => {
  let s: TestServer;
  let gmToken: string;
  let encounterId: string;
  const clients: FrayClient[] = [];
  let gm: EncounterMirror, p1: EncounterMirror, spec: EncounterMirror;

  beforeAll(async () => {
    s = await startServer({ rulesets: registry, runtime: { reactionSeconds: 0 } });
    gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
    const options = { vitals: ['Mana', 'Stress'], risingVitals: ['Stress'] };
    const enc = await s.http('POST', '/encounters', { name: 'The inn brawl', ruleset: 'freeform', seed: 3, options }, gmToken);
    expect(enc.status).toBe(201);
    encounterId = enc.body.id as string;
    const add = (body: unknown) => s.http('POST', `/encounters/${encounterId}/combatants`, body, gmToken);
    expect((await add({ id: 'ayla', name: 'Ayla', side: 'heroes', stats: { hp: 12, vitals: { Mana: 6, Stress: 4 } } })).status).toBe(201);
    expect((await add({ id: 'ogre', name: 'Ogre', side: 'monsters', stats: { hp: 45, initiativeBonus: -1 } })).status).toBe(201);
    const tok = async (body: unknown) => (await s.http('POST', `/encounters/${encounterId}/invites`, body, gmToken)).body.token as string;
    const cs = await Promise.all([
      connect(s.url, gmToken),
      connect(s.url, await tok({ role: 'player', combatantIds: ['ayla'] })),
      connect(s.url, await tok({ role: 'spectator' })),
    ]);
    clients.push(...cs);
    [gm, p1, spec] = (await Promise.all(cs.map((c) => c.join(encounterId)))) as [EncounterMirror, EncounterMirror, EncounterMirror];
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await s?.close();
  });

  it('GET /rulesets describes freeform for a browser: its options, its stats, HP and the vitals an encounter names', async () => {
    const r = await s.http('GET', '/rulesets');
    expect(r.status).toBe(200);
    const ff = (r.body.rulesets as Info[]).find((x) => x.id === 'freeform')!;
    expect(ff.options.defaults).toEqual({ initiativeFormula: '1d20', conditionsTick: 'end-of-turn', vitals: [], risingVitals: [] });
    expect(Object.keys(ff.options.docs).sort()).toEqual(Object.keys(ff.options.schema.properties).sort());
    expect(Object.keys(ff.stats.schema.properties).sort()).toEqual(['hp', 'initiative', 'initiativeBonus', 'vitals']);
    expect(ff.display.vitals.map((v) => v.key)).toEqual(['hp']);
    // "The option `vitals` names up to four more": one vital per name, its maximum inside the `vitals` stat
    expect(ff.display.namedVitals).toMatchObject({
      names: 'vitals',
      rising: 'risingVitals',
      spec: { key: '{name}', current: { in: 'data', key: '{name}' }, max: { in: 'stats', key: 'vitals.{name}' }, adjustable: true },
    });
    expect(ff.display.samples?.map((x) => x.name)).toEqual(['Bandit', 'Cultist', 'Ogre']);
    expect(Object.keys(ff.display.events)).toContain('freeform.acted');
  });

  it('"The GM damages or heals any vital": HP, Mana and a rising Stress, seen alike by every client; a player may not', async () => {
    expect((await gm.command({ type: 'combat.start' })).ok).toBe(true);
    const data = () => (gm.state as { combatants: Record<string, { data: Data }> }).combatants.ayla!.data;
    expect(data()).toMatchObject({ hp: 12, Mana: 6, Stress: 0 });
    for (const [vital, amount] of [
      ['hp', 5],
      ['Mana', 4],
      ['Stress', 3],
      ['Mana', -1],
    ] as const) {
      expect((await gm.command({ type: 'combatant.adjust', combatantId: 'ayla', vital, amount })).ok).toBe(true);
    }
    expect(data()).toMatchObject({ hp: 7, Mana: 3, Stress: 3 });
    const refused = await p1.command({ type: 'combatant.adjust', combatantId: 'ayla', vital: 'Mana', amount: -3 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_AUTHORIZED' } });
    const unknown = await gm.command({ type: 'combatant.adjust', combatantId: 'ayla', vital: 'Luck', amount: 1 });
    expect(unknown).toMatchObject({ ok: false, error: { rule: 'freeform.vitals' } });
    await expectConverged(s, encounterId, [gm, p1, spec]);
    expect((spec.state as { combatants: Record<string, { data: Data }> }).combatants.ayla!.data).toMatchObject({
      hp: 7,
      Mana: 3,
      Stress: 3,
    });
  });
});
