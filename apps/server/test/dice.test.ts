import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDice, type FrayClient } from '@fray/client';
import { connect, startServer, until, type TestServer } from './helpers.js';

/**
 * Committed dice over the wire (docs/dice.md): the commitment is seen from the first join, the
 * clients contribute by themselves, the secret (seed, salt) and the generator's state reach no
 * client — the GM's neither — over socket.io or HTTP (GET /encounters/:id, its log, its export)
 * until the reveal; after a restart the encounter goes on with the same secret, and every viewer's
 * log verifies once revealed.
 */

const VIEWERS = ['gm', 'p1', 'spec'] as const;
type V = (typeof VIEWERS)[number];
const opArb = fc.record({
  by: fc.constantFrom('gm' as const, 'p1' as const),
  secret: fc.boolean(),
  formula: fc.constantFrom('1d20', '2d6+1', '4d6kh3'),
});

describe('committed dice through a real server (GM, player, spectator)', () => {
  let store: TestServer['store'];
  let s: TestServer;
  let gmToken: string;
  beforeAll(async () => {
    s = await startServer({
      limits: {
        socketRate: 10_000,
        socketBurst: 10_000,
        principalRate: 10_000,
        principalBurst: 10_000,
        httpRate: 10_000,
        httpBurst: 10_000,
      },
    });
    store = s.store;
    gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
  });
  afterAll(async () => {
    await s?.close();
  });

  async function secretOf(id: string): Promise<{ seed: string; salt: string; commitment: string }> {
    const snap = (await store.latestSnapshot(id))!.state as { state?: unknown };
    const state = ('fraySnapshot' in (snap as object) ? snap.state : snap) as {
      dice: { secret: { seed: string; salt: string }; commitment: string };
    };
    return { ...state.dice.secret, commitment: state.dice.commitment };
  }

  it('"the secret stays out of every projection (GM too) and out of every log a client can read until reveal"; a restart keeps it; every log verifies', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), async (ops) => {
        run += 1;
        const id = (await s.http('POST', '/encounters', { name: `Dice ${run}`, ruleset: 'skirmish' }, gmToken)).body.id as string;
        const secret = await secretOf(id);
        expect(secret.seed).toMatch(/^[0-9a-f]{64}$/);
        await s.http('POST', `/encounters/${id}/combatants`, { id: 'pc1', name: 'Hero', side: 'pcs', stats: { hp: 10, init: 3 } }, gmToken);
        await s.http('POST', `/encounters/${id}/combatants`, { id: 'orc', name: 'Orc', side: 'npcs', stats: { hp: 10, init: 1 } }, gmToken);
        const tok = async (body: unknown) => (await s.http('POST', `/encounters/${id}/invites`, body, gmToken)).body.token as string;
        const clients: Record<V, FrayClient> = {
          gm: await connect(s.url, gmToken),
          p1: await connect(s.url, await tok({ role: 'player', combatantIds: ['pc1'] })),
          spec: await connect(s.url, await tok({ role: 'spectator' })),
        };
        const received: Record<V, string[]> = { gm: [], p1: [], spec: [] };
        for (const k of VIEWERS) {
          const engine = (clients[k].socket.io as unknown as { engine: { on(e: 'message', f: (d: unknown) => void): void } }).engine;
          engine.on('message', (d) => received[k].push(typeof d === 'string' ? d : String(d)));
        }
        const mirrors = { gm: await clients.gm.join(id), p1: await clients.p1.join(id), spec: await clients.spec.join(id) };
        // "every viewer sees [the commitment] from the first join"
        for (const k of VIEWERS) expect((mirrors[k].state as { dice: { commitment: string } }).dice.commitment).toBe(secret.commitment);
        // the GM's and the player's clients contribute by themselves; the spectator does not
        await until(
          () => (mirrors.spec.state as { dice: { contributions: unknown[] } }).dice.contributions.length === 2,
          10_000,
          'two contributions',
        );
        expect(
          (mirrors.spec.state as { dice: { contributions: Array<{ by: string }> } }).dice.contributions.map((c) => c.by).sort(),
        ).toEqual(['gm', `player:${mirrors.p1.playerId}`]);
        expect((await mirrors.gm.command({ type: 'combat.start' })).ok).toBe(true);
        for (const op of ops) {
          const ack = await mirrors[op.by].command({
            type: 'dice.roll',
            formula: op.formula,
            purpose: 'test',
            ...(op.by === 'gm' ? { secret: op.secret } : {}),
          });
          expect(ack.ok, JSON.stringify(ack)).toBe(true);
        }
        const http = [
          JSON.stringify((await s.http('GET', `/encounters/${id}`, undefined, gmToken)).body),
          JSON.stringify((await s.http('GET', `/encounters/${id}/log`, undefined, gmToken)).body),
          JSON.stringify((await s.http('GET', `/encounters/${id}/export`, undefined, gmToken)).body),
        ];
        const logs = await Promise.all(VIEWERS.map((k) => clients[k].log(id)));
        // "contribute after combat start": a typed error, nothing changed
        const late = await mirrors.p1.command({ type: 'dice.contribute', value: 'ab'.repeat(32) });
        expect(late.ok ? null : late.error.code).toBe('DICE_SEALED');
        const leaks: string[] = [];
        for (const [who, texts] of [
          ...VIEWERS.map((k) => [k, received[k]] as const),
          ['http', http] as const,
          ['logs', logs.map((l) => JSON.stringify(l))] as const,
        ]) {
          for (const text of texts) {
            for (const mark of [secret.seed, secret.salt, 'rngAfter'])
              if (text.includes(mark)) leaks.push(`${who}: ${mark} in ${text.slice(0, 160)}`);
            if (/"rng":\[-?\d/.test(text)) leaks.push(`${who}: the generator's state in ${text.slice(0, 160)}`);
          }
        }
        expect(leaks).toEqual([]);
        // an export made before the reveal has no secret: importing it is refused, typed
        const early = await s.http('POST', '/encounters/import', JSON.parse(http[2]!), gmToken);
        expect(early.body.error?.code).toBe('DICE_NOT_REVEALED');
        // the reveal comes with the end of combat; reveal twice is refused
        expect((await mirrors.gm.command({ type: 'combat.end' })).ok).toBe(true);
        const twice = await mirrors.gm.command({ type: 'dice.reveal' });
        expect(twice.ok ? null : twice.error.code).toBe('DICE_ALREADY_REVEALED');
        const reveal = { seed: secret.seed, salt: secret.salt, commitment: secret.commitment };
        for (const k of VIEWERS) {
          const log = await clients[k].log(id);
          if (!log.ok) throw new Error(log.error.message);
          const report = verifyDice(log.entries, reveal);
          expect(report.ok, JSON.stringify(report.rolls.filter((r) => r.status === 'mismatch'))).toBe(true);
          expect(report.counts.verified).toBe(k === 'gm' ? ops.length + 2 : ops.filter((o) => !(o.by === 'gm' && o.secret)).length + 2);
        }
        const gmReport = verifyDice((await s.http('GET', `/encounters/${id}/log`, undefined, gmToken)).body as never, reveal);
        expect(gmReport.unseenDraws).toBe(0);
        for (const c of Object.values(clients)) c.close();
      }),
      { numRuns: 4, seed: 36, endOnFailure: true },
    );
  });

  it('"it must persist so a restart keeps it": a server started on the same database rolls the same committed dice, which verify', async () => {
    const id = (await s.http('POST', '/encounters', { name: 'Restart', ruleset: 'skirmish' }, gmToken)).body.id as string;
    const secret = await secretOf(id);
    await s.http('POST', `/encounters/${id}/combatants`, { id: 'orc', name: 'Orc', side: 'npcs', stats: { hp: 10, init: 1 } }, gmToken);
    const gm = await connect(s.url, gmToken);
    const m = await gm.join(id);
    await until(() => (m.state as { dice: { contributions: unknown[] } }).dice.contributions.length === 1, 10_000, 'the GM contribution');
    expect((await m.command({ type: 'combat.start' })).ok).toBe(true);
    gm.close();
    await s.close();
    s = await startServer({ store });
    const again = await connect(s.url, gmToken);
    const m2 = await again.join(id);
    expect((await m2.command({ type: 'dice.roll', formula: '3d6', purpose: 'after the restart' })).ok).toBe(true);
    expect((await m2.command({ type: 'combat.end' })).ok).toBe(true);
    const log = (await s.http('GET', `/encounters/${id}/log`, undefined, gmToken)).body;
    const revealed = (log.entries as Array<{ events: Array<{ type: string; seed?: string }> }>)
      .flatMap((e) => e.events)
      .find((e) => e.type === 'dice.revealed');
    expect(revealed?.seed).toBe(secret.seed);
    const report = verifyDice(log as never, { seed: secret.seed, salt: secret.salt, commitment: secret.commitment });
    expect(report.ok).toBe(true);
    expect(report.counts.verified).toBe(2);
    again.close();
  });
});
