import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrayClient } from '@fray/client';
import { connect, expectConverged, startServer, until, type TestServer } from './helpers.js';

/**
 * "A hidden combatant's id never reaches a player or a spectator" (issue 29), and no secret stat,
 * GM (secret) roll or GM-only effect either, over the wire: random encounters and command streams
 * through a real server and real socket.io clients (a GM, two players, a spectator). Every hidden
 * combatant, secret stat, GM roll and GM-only effect carries a canary (a unique id, name or value);
 * every byte each non-GM client receives (engine.io messages: join, patch, sync, actions, log,
 * acks, errors, deadlines, closed) is recorded and scanned for the canaries that viewer may not see.
 *
 * A player may still guess a hidden id: `probe` steps send it (actions, a command naming it as a
 * target, a command acting as it) from a separate connection of player 1, next to the same request
 * with an id that never existed; the two answers must be the same but for the id.
 */

const NON_GM = ['p1', 'p2', 'spec'] as const;
type Who = 'gm' | 'p1' | 'p2';
type NonGm = (typeof NON_GM)[number];

const npcArb = fc.record({ hidden: fc.boolean(), secret: fc.boolean(), mine: fc.boolean() });
const gmOps = [
  'secretRoll',
  'force',
  'secretEffect',
  'openEffect',
  'lore',
  'attack',
  'resolve',
  'end',
  'roll',
  'timer',
  'addHidden',
  'removeHidden',
  'hiddenActs',
] as const;
const playerOps = ['attack', 'parry', 'pass', 'end', 'roll', 'peek', 'actions', 'probe'] as const;
const stepArb = fc.oneof(
  fc.record({ by: fc.constant('gm' as const), op: fc.constantFrom(...gmOps), i: fc.nat(6), j: fc.nat(6) }),
  fc.record({ by: fc.constantFrom('p1' as const, 'p2' as const), op: fc.constantFrom(...playerOps), i: fc.nat(6), j: fc.nat(6) }),
);
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

interface Combatant {
  id: string;
  hidden: boolean;
  /** the player who controls it (who may see it, hidden or not) */
  owner: 'p1' | 'p2' | null;
}

/** The message's kind (socket.io packet prefix and event name) and the text around the canary. */
function excerpt(msg: string, x: string): string {
  const at = msg.indexOf(x);
  const head = msg.slice(0, Math.min(msg.indexOf(',') + 1 || 24, 24));
  return `${head}… ${msg.slice(Math.max(0, at - 120), at + x.length + 40)}`;
}

describe('no hidden combatant, secret stat, GM roll or GM-only effect reaches a player or spectator (property)', () => {
  let s: TestServer;
  let gmToken: string;
  beforeAll(async () => {
    s = await startServer({
      // reaction windows and turns get deadlines (600 s: they never pass during a run)
      runtime: { reactionSeconds: 600 },
      limits: {
        socketRate: 10_000,
        socketBurst: 10_000,
        principalRate: 10_000,
        principalBurst: 10_000,
        httpRate: 10_000,
        httpBurst: 10_000,
      },
    });
    gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
  });
  afterAll(async () => {
    await s?.close();
  });

  async function runOnce(
    run: number,
    npcs: Array<{ hidden: boolean; secret: boolean; mine: boolean }>,
    steps: Step[],
    seed: number,
  ): Promise<void> {
    const tag = `q${run}k`;
    const id = (await s.http('POST', '/encounters', { name: `leak ${run}`, ruleset: 'skirmish', seed }, gmToken)).body.id as string;
    const add = async (body: unknown) => {
      const r = await s.http('POST', `/encounters/${id}/combatants`, body, gmToken);
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    };
    // canaries per viewer: what p1, p2 and the spectator may never receive
    const canaries: Record<NonGm, Set<string>> = { p1: new Set(), p2: new Set(), spec: new Set() };
    const secretFrom = (owner: Combatant['owner'], ...xs: string[]) => {
      for (const k of NON_GM) if (k !== owner) for (const x of xs) canaries[k].add(x);
    };
    const all: Combatant[] = [
      { id: 'pc1', hidden: false, owner: 'p1' },
      { id: 'pc2', hidden: false, owner: 'p2' },
    ];
    await add({ id: 'pc1', name: 'Hero One', side: 'pcs', stats: { hp: 10, init: 5 } });
    await add({ id: 'pc2', name: 'Hero Two', side: 'pcs', stats: { hp: 10, init: 4 } });
    let made = 0;
    const newHidden = (owner: Combatant['owner']) => {
      made += 1;
      const c = { cid: `zh${tag}${made}x`, name: `Hidname${tag}${made}x`, lore: `Hidlore${tag}${made}x` };
      secretFrom(owner, c.cid, c.name, c.lore);
      return c;
    };
    for (const [i, n] of npcs.entries()) {
      const owner = n.mine ? ('p1' as const) : null;
      if (n.hidden) {
        const h = newHidden(owner);
        await add({
          id: h.cid,
          name: h.name,
          side: n.mine ? 'pcs' : 'npcs',
          hidden: true,
          secretStats: n.secret ? ['lore'] : [],
          stats: { hp: 10, init: 3 - i, lore: h.lore },
        });
        all.push({ id: h.cid, hidden: true, owner });
      } else {
        const lore = `Seclore${tag}${i}x`;
        await add({
          id: `npc${i}`,
          name: `Npc ${i}`,
          side: 'npcs',
          secretStats: n.secret ? ['lore'] : [],
          stats: { hp: 10, init: 3 - i, lore },
        });
        if (n.secret) secretFrom(owner, lore);
        all.push({ id: `npc${i}`, hidden: false, owner });
      }
    }
    const tok = async (body: unknown) => (await s.http('POST', `/encounters/${id}/invites`, body, gmToken)).body.token as string;
    const p1Token = await tok({
      role: 'player',
      combatantIds: ['pc1', ...all.filter((c) => c.owner === 'p1' && c.id !== 'pc1').map((c) => c.id)],
    });
    const clients: Record<Who | 'spec' | 'probe', FrayClient> = {
      gm: await connect(s.url, gmToken),
      p1: await connect(s.url, p1Token),
      p2: await connect(s.url, await tok({ role: 'player', combatantIds: ['pc2'] })),
      spec: await connect(s.url, await tok({ role: 'spectator' })),
      // player 1 again: its answers to guessed ids are compared, not scanned
      probe: await connect(s.url, p1Token),
    };
    const received: Record<NonGm, string[]> = { p1: [], p2: [], spec: [] };
    const leaks: string[] = [];
    const closedSeen = new Set<NonGm>();
    for (const k of NON_GM) {
      // every engine.io message the client gets: events, acks and errors alike
      const engine = (clients[k].socket.io as unknown as { engine: { on(e: 'message', f: (d: unknown) => void): void } }).engine;
      engine.on('message', (d) => received[k].push(typeof d === 'string' ? d : String(d)));
      clients[k].socket.on('closed' as never, (() => closedSeen.add(k)) as never);
    }
    try {
      const mirrors = Object.fromEntries(
        await Promise.all((['gm', 'p1', 'p2', 'spec', 'probe'] as const).map(async (k) => [k, await clients[k].join(id)] as const)),
      );
      expect((await mirrors.gm!.command({ type: 'combat.start' })).ok).toBe(true);
      let n = 0;
      for (const st of steps) {
        n += 1;
        const host = s.server.runtime.peek(id)!;
        const live = all.filter((c) => host.state.combatants[c.id]);
        const current = host.state.clock.current ?? 'pc1';
        const target = live[st.i % live.length]!.id;
        const other = live[st.j % live.length]!.id;
        const visibleTo = (who: 'p1' | 'p2') => live.filter((c) => !c.hidden || c.owner === who);
        if (st.by === 'gm') {
          const gm = mirrors.gm!;
          switch (st.op) {
            case 'secretRoll': {
              const purpose = `Gmroll${tag}${n}x`;
              secretFrom(null, purpose);
              const ack = await gm.command({
                type: 'dice.roll',
                formula: '1d100',
                purpose,
                secret: true,
                ...(st.i % 2 ? { combatantId: target } : {}),
              });
              const rolled = ack.ok
                ? (ack.events as Array<{ type: string; rollId?: string }>).find((e) => e.type === 'dice.rolled')
                : undefined;
              if (rolled?.rollId) secretFrom(null, `"${rolled.rollId}"`);
              break;
            }
            case 'force':
              await gm.command({ type: 'dice.force', faces: [6] });
              break;
            case 'secretEffect': {
              const name = `Gmfx${tag}${n}x`;
              secretFrom(null, name);
              const ack = await gm.command({
                type: 'effect.apply',
                targetId: st.j % 3 === 0 ? null : target,
                sourceId: other,
                name,
                gmOnly: true,
              });
              const applied = ack.ok
                ? (ack.events as Array<{ type: string; effect?: { id: string } }>).find((e) => e.type === 'effect.applied')
                : undefined;
              if (applied?.effect) secretFrom(null, `"${applied.effect.id}"`);
              break;
            }
            case 'openEffect': {
              // seen by everyone who sees its target: applied on whoever's turn it is, from anyone
              const seenTarget = visibleTo('p2').filter((c) => !c.hidden);
              await gm.command({
                type: 'effect.apply',
                targetId: st.j % 3 === 0 ? null : seenTarget[st.i % seenTarget.length]!.id,
                sourceId: other,
                name: 'Blessing',
                data: { watcher: other, note: `from ${other}` },
              });
              break;
            }
            case 'lore': {
              const value = `Newlore${tag}${n}x`;
              const c = live.find((x) => x.id === target)!;
              const secret = c.hidden || host.state.combatants[target]!.secretStats.includes('lore');
              if (secret) secretFrom(c.owner, value);
              await gm.command({ type: 'combatant.setStat', combatantId: target, stat: 'lore', value });
              break;
            }
            case 'attack':
              await gm.command({ type: 'attack', combatantId: current, targetId: target });
              break;
            case 'hiddenActs': {
              // a hidden combatant acts (out of turn too: refused, the error goes to the GM only)
              const h = live.filter((c) => c.hidden);
              if (h.length > 0) await gm.command({ type: 'attack', combatantId: h[st.i % h.length]!.id, targetId: other });
              break;
            }
            case 'resolve':
              await gm.command({ type: 'reaction.resolve' });
              break;
            case 'end':
              await gm.command({ type: 'turn.end', combatantId: current });
              break;
            case 'roll':
              await gm.command({ type: 'dice.roll', formula: '1d6', purpose: 'open roll' });
              break;
            case 'timer':
              expect((await clients.gm.setTurnTimer(id, st.i % 2 ? 600 : null)).ok).toBe(true);
              break;
            case 'addHidden': {
              const h = newHidden(null);
              await gm.command({
                type: 'combatant.add',
                combatant: { id: h.cid, name: h.name, side: 'npcs', hidden: true, stats: { hp: 10, init: 1, lore: h.lore } },
              });
              all.push({ id: h.cid, hidden: true, owner: null });
              break;
            }
            case 'removeHidden': {
              const h = live.filter((c) => c.hidden && c.owner === null);
              if (h.length > 0) await gm.command({ type: 'combatant.remove', combatantId: h[st.i % h.length]!.id });
              break;
            }
          }
          continue;
        }
        const me = mirrors[st.by]!;
        const mine = st.by === 'p1' ? 'pc1' : 'pc2';
        const seen = visibleTo(st.by);
        const seenTarget = seen[st.i % seen.length]!.id;
        switch (st.op) {
          case 'attack':
            await me.command({ type: 'attack', combatantId: mine, targetId: seenTarget });
            break;
          case 'parry':
            await me.command({ type: 'parry', combatantId: mine });
            break;
          case 'pass':
            await me.command({ type: 'reaction.pass', combatantId: mine });
            break;
          case 'end':
            await me.command({ type: 'turn.end', combatantId: mine });
            break;
          case 'roll':
            await me.command({ type: 'dice.roll', formula: '1d6', purpose: 'open roll', combatantId: mine });
            break;
          case 'peek':
            await clients[st.by].sync(id, st.i % 2 ? 0 : Math.max(0, host.version - 1 - st.j));
            await clients[st.by].log(id);
            break;
          case 'actions':
            await clients[st.by].actions(id, mine);
            break;
          case 'probe': {
            // player 1 guesses an id it cannot see: the same answers as for an id that never existed
            const unseen = all.filter((c) => c.hidden && c.owner !== 'p1');
            if (unseen.length === 0) break;
            const guess = unseen[st.i % unseen.length]!.id;
            const nobody = `zn${tag}${n}x`;
            const probe = mirrors.probe!;
            const pairs: Array<(x: string) => Promise<unknown>> = [
              (x) => clients.probe.actions(id, x),
              (x) => probe.command({ type: 'attack', combatantId: 'pc1', targetId: x }),
              (x) => probe.command({ type: 'reaction.pass', combatantId: x }),
              (x) => probe.command({ type: 'turn.end', combatantId: x }),
            ];
            const ask = pairs[st.j % pairs.length]!;
            const a = JSON.stringify(await ask(nobody)).replaceAll(nobody, '<id>');
            const b = JSON.stringify(await ask(guess)).replaceAll(guess, '<id>');
            if (a !== b) leaks.push(`p1 guessing a hidden id got ${b.slice(0, 300)} where an unknown id gets ${a.slice(0, 300)}`);
            break;
          }
        }
      }
      await expectConverged(s, id, Object.values(mirrors));
      await s.server.runtime.unload(id, 'moved');
      await until(() => NON_GM.every((k) => closedSeen.has(k)), 5000, 'closed to reach every viewer');
      for (const k of NON_GM) {
        expect(received[k].length).toBeGreaterThan(0);
        const marks = ['rngAfter', 'forcedIndex', 'dice.forced', ...canaries[k]];
        for (const msg of received[k]) for (const x of marks) if (msg.includes(x)) leaks.push(`${k} received ${x} in ${excerpt(msg, x)}`);
      }
      expect(leaks).toEqual([]);
    } finally {
      for (const c of Object.values(clients)) c.close();
    }
  }

  it('holds for random encounters and command streams (seeded)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(npcArb, { minLength: 1, maxLength: 4 }),
        fc.array(stepArb, { minLength: 5, maxLength: 40 }),
        fc.nat(10_000),
        async (npcs, steps, seed) => {
          run += 1;
          await runOnce(run, npcs, steps, seed);
        },
      ),
      { numRuns: 25, seed: 29, endOnFailure: true },
    );
  }, 120_000);
});
