import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrayClient } from '@fray/client';
import { connect, expectConverged, startServer, type TestServer } from './helpers.js';

/**
 * "no GM-only field ever reaches a player's or spectator's message", over the wire: random
 * encounters and command streams through a real server and real socket.io clients. Every message
 * the players and the spectator receive (join and sync replies, patches, acks, the log) is
 * recorded; none may contain a hidden combatant, a secret stat, a secret roll or the RNG state.
 * (The runtime's own property test checks the same per message with reveals and re-hides.)
 */
describe('no GM-only data over the wire (property)', () => {
  let s: TestServer;
  let gmToken: string;
  beforeAll(async () => {
    s = await startServer({ runtime: { reactionSeconds: 0 }, limits: { socketRate: 1000, socketBurst: 1000, principalRate: 1000, principalBurst: 1000, httpRate: 1000, httpBurst: 1000 } });
    gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
  });
  afterAll(async () => {
    await s?.close();
  });

  const npc = fc.record({ hidden: fc.boolean(), secret: fc.boolean() });
  const step = fc.oneof(
    fc.record({ by: fc.constant('gm' as const), op: fc.constantFrom('secretRoll', 'force', 'secretEffect', 'lore', 'attack', 'resolve', 'end', 'roll'), i: fc.nat(4) }),
    fc.record({ by: fc.constantFrom('p1' as const, 'p2' as const), op: fc.constantFrom('attack', 'parry', 'pass', 'end', 'roll', 'peek'), i: fc.nat(4) }),
  );

  it('holds for random encounters and command streams', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(npc, { minLength: 1, maxLength: 3 }), fc.array(step, { minLength: 3, maxLength: 15 }), fc.nat(10_000), async (npcs, steps, seed) => {
        run += 1;
        const id = (await s.http('POST', '/encounters', { name: `prop ${run}`, ruleset: 'skirmish', seed }, gmToken)).body.id as string;
        const add = (body: unknown) => s.http('POST', `/encounters/${id}/combatants`, body, gmToken);
        const sentinels: string[] = [];
        await add({ id: 'pc1', name: 'Hero One', side: 'pcs', stats: { hp: 10, init: 5 } });
        await add({ id: 'pc2', name: 'Hero Two', side: 'pcs', stats: { hp: 10, init: 4 } });
        const ids = ['pc1', 'pc2'];
        for (const [i, n] of npcs.entries()) {
          const lore = `LORE-${run}-${i}-Z`;
          const cid = n.hidden ? `ghost${i}` : `npc${i}`;
          await add({ id: cid, name: n.hidden ? `GHOST-${run}-${i}` : `Npc ${i}`, side: 'npcs', hidden: n.hidden, secretStats: n.secret ? ['lore'] : [], stats: { hp: 10, init: i, lore } });
          if (n.hidden) sentinels.push(`"${cid}"`, `GHOST-${run}-${i}`, lore);
          if (n.secret) sentinels.push(lore);
          ids.push(cid);
        }
        const tok = async (body: unknown) => (await s.http('POST', `/encounters/${id}/invites`, body, gmToken)).body.token as string;
        const clients: Record<string, FrayClient> = {
          gm: await connect(s.url, gmToken),
          p1: await connect(s.url, await tok({ role: 'player', combatantIds: ['pc1'] })),
          p2: await connect(s.url, await tok({ role: 'player', combatantIds: ['pc2'] })),
          spec: await connect(s.url, await tok({ role: 'spectator' })),
        };
        const seen: Record<string, string[]> = { p1: [], p2: [], spec: [] };
        for (const k of ['p1', 'p2', 'spec']) clients[k]!.socket.onAny((_e, ...args) => seen[k]!.push(JSON.stringify(args)));
        try {
          const mirrors = Object.fromEntries(await Promise.all(Object.entries(clients).map(async ([k, c]) => [k, await c.join(id)] as const)));
          for (const k of ['p1', 'p2', 'spec']) seen[k]!.push(JSON.stringify(mirrors[k]!.state));
          expect((await mirrors.gm!.command({ type: 'combat.start' })).ok).toBe(true);
          let loreN = 0;
          for (const st of steps) {
            const host = s.server.runtime.peek(id)!;
            const current = host.state.clock.current ?? 'pc1';
            const target = ids[st.i % ids.length]!;
            const mine = st.by === 'p1' ? 'pc1' : st.by === 'p2' ? 'pc2' : current;
            const commands: Record<string, { type: string; [k: string]: unknown }> = {
              secretRoll: { type: 'dice.roll', formula: '1d100', purpose: 'hidden check', secret: true },
              force: { type: 'dice.force', faces: [6] },
              secretEffect: { type: 'effect.apply', targetId: target, name: `GMFX-${run}`, gmOnly: true },
              lore: { type: 'combatant.setStat', combatantId: target, stat: 'lore', value: `LORE-${run}-x${++loreN}-Z` },
              attack: { type: 'attack', combatantId: mine, targetId: target },
              parry: { type: 'parry', combatantId: mine },
              pass: { type: 'reaction.pass', combatantId: mine },
              resolve: { type: 'reaction.resolve' },
              end: { type: 'turn.end', combatantId: mine },
              roll: { type: 'dice.roll', formula: '1d6', purpose: 'open roll', ...(st.by === 'gm' ? {} : { combatantId: mine }) },
            };
            if (st.op === 'peek') {
              const r = await clients[st.by]!.sync(id, 0);
              seen[st.by]!.push(JSON.stringify(r));
              const l = await clients[st.by]!.log(id);
              seen[st.by]!.push(JSON.stringify(l));
              continue;
            }
            const cmd = commands[st.op]!;
            const secretLore = st.op === 'lore' && (target.startsWith('ghost') || (target.startsWith('npc') && npcs[Number(target.slice(3))]?.secret));
            if (secretLore) sentinels.push(cmd.value as string);
            const ack = await mirrors[st.by]!.command(cmd);
            if (st.by !== 'gm') seen[st.by]!.push(JSON.stringify(ack));
            if (ack.ok && st.by === 'gm' && st.op === 'secretRoll') {
              const rolled = (ack.events as Array<{ type: string; rollId?: string }>).find((e) => e.type === 'dice.rolled');
              if (rolled?.rollId) sentinels.push(`"${rolled.rollId}"`);
            }
          }
          sentinels.push('rngAfter', 'dice.forced', `GMFX-${run}`);
          await expectConverged(s, id, Object.values(mirrors));
          for (const k of ['p1', 'p2', 'spec']) {
            const text = seen[k]!.join('\n');
            for (const x of sentinels) expect(text, `${k} received ${x}`).not.toContain(x);
          }
        } finally {
          for (const c of Object.values(clients)) c.close();
        }
      }),
      { numRuns: 8 },
    );
  }, 180_000);
});
