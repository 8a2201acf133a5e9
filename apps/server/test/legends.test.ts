import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '@fray/rulesets';
import type { EncounterMirror, FrayClient } from '@fray/client';
import { connect, expectConverged, startServer, type TestServer } from './helpers.js';

interface Option {
  command: string;
  allowed: boolean;
  template?: Record<string, unknown>;
  params?: Array<{ optional?: boolean }>;
}
interface View {
  clock: { round: number; current: string | null; phase: string | null };
  reaction: { eligible: string[]; responses: Record<string, string> } | null;
}

/**
 * The real `legends` ruleset end to end: players pick their moves from the server's legal actions
 * (as the web client does), a full round is played, every client converges after every step.
 */
describe.runIf(registry.legends !== undefined)('legends over socket.io', () => {
  let s: TestServer;
  let gmToken: string;
  let encounterId: string;
  const clients: FrayClient[] = [];
  let gm: EncounterMirror, p1: EncounterMirror, p2: EncounterMirror, spec: EncounterMirror;
  const owner = new Map<string, EncounterMirror>();

  beforeAll(async () => {
    s = await startServer({ rulesets: registry, runtime: { reactionSeconds: 0 } });
    gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
    const enc = await s.http('POST', '/encounters', { name: 'Skirmish at the ford', ruleset: 'legends', seed: 11 }, gmToken);
    expect(enc.status).toBe(201);
    encounterId = enc.body.id as string;
    const add = (body: unknown) => s.http('POST', `/encounters/${encounterId}/combatants`, body, gmToken);
    expect((await add({ id: 'ayla', name: 'Ayla', side: 'heroes', stats: { DEX: 12, SPD: 10, STR: 9 } })).status).toBe(201);
    expect((await add({ id: 'borin', name: 'Borin', side: 'heroes', stats: { DEX: 10, SPD: 9, STR: 12 } })).status).toBe(201);
    expect((await add({ id: 'bandit', name: 'Bandit', side: 'bandits', stats: { DEX: 9, SPD: 9, STR: 11 } })).status).toBe(201);
    const tok = async (body: unknown) => (await s.http('POST', `/encounters/${encounterId}/invites`, body, gmToken)).body.token as string;
    const [t1, t2, ts] = [
      await tok({ role: 'player', combatantIds: ['ayla'] }),
      await tok({ role: 'player', combatantIds: ['borin'] }),
      await tok({ role: 'spectator' }),
    ];
    const cs = await Promise.all([connect(s.url, gmToken), connect(s.url, t1), connect(s.url, t2), connect(s.url, ts)]);
    clients.push(...cs);
    [gm, p1, p2, spec] = (await Promise.all(cs.map((c) => c.join(encounterId)))) as [
      EncounterMirror,
      EncounterMirror,
      EncounterMirror,
      EncounterMirror,
    ];
    owner.set('ayla', p1).set('borin', p2).set('bandit', gm);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await s?.close();
  });

  it('plays a full round from the legal actions; every client converges after every step', async () => {
    expect((await gm.command({ type: 'combat.start' })).ok).toBe(true);
    await expectConverged(s, encounterId, [gm, p1, p2, spec]);
    const client = (m: EncounterMirror) => clients[[gm, p1, p2, spec].indexOf(m)]!;
    let steps = 0;
    while ((gm.state as View).clock.round < 2 && steps++ < 60) {
      const view = gm.state as View;
      if (view.reaction) {
        const who = view.reaction.eligible.find((id) => view.reaction!.responses[id] === 'pending')!;
        expect((await owner.get(who)!.command({ type: 'reaction.pass', combatantId: who })).ok).toBe(true);
      } else if (!view.clock.current) {
        expect((await gm.command({ type: 'advancePhase' })).ok).toBe(true);
      } else {
        const cur = view.clock.current;
        const me = owner.get(cur)!;
        const legal = await client(me).actions(encounterId, cur);
        expect(legal.ok).toBe(true);
        const options = (legal as { actions: Option[] }).actions.filter((a) => a.allowed && (a.params ?? []).every((p) => p.optional));
        const pick = options[0];
        const ack = await me.command(pick ? { type: pick.command, ...(pick.template ?? {}) } : { type: 'turn.end', combatantId: cur });
        expect(ack.ok).toBe(true);
        // the other player may not act for this combatant
        if (cur !== 'bandit') {
          const other = cur === 'ayla' ? p2 : p1;
          const forged = await other.command({ type: 'turn.end', combatantId: cur });
          expect(forged).toMatchObject({ ok: false, error: { code: 'NOT_AUTHORIZED' } });
        }
      }
      await expectConverged(s, encounterId, [gm, p1, p2, spec]);
    }
    expect((gm.state as View).clock.round).toBeGreaterThanOrEqual(2);
    // the log replays to the live state
    const log = await s.http('GET', `/encounters/${encounterId}/log`, undefined, gmToken);
    expect((log.body.entries as unknown[]).length).toBe(s.server.runtime.peek(encounterId)!.version);
  });

  it('GET /rulesets describes legends for a browser', async () => {
    const r = await s.http('GET', '/rulesets');
    const legends = (
      r.body.rulesets as Array<{
        id: string;
        options: { schema: unknown; defaults: unknown; docs: object };
        stats: { schema: { properties: object } };
        catalogue: unknown[];
      }>
    ).find((x) => x.id === 'legends')!;
    expect(Object.keys(legends.stats.schema.properties)).toEqual(expect.arrayContaining(['DEX', 'SPD', 'STR']));
    expect(legends.catalogue.length).toBeGreaterThan(0);
    expect(Object.keys(legends.options.docs).length).toBeGreaterThan(0);
  });
});
