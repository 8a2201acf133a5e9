import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EncounterMirror, FrayClient } from '@fray/client';
import { connect, expectConverged, startServer, type TestServer } from './helpers.js';

/**
 * "A player's replay never shows what that player could not see live" (issue 36): random command
 * streams (hidden combatants added, removed, revealed and hidden again, secret rolls and stats,
 * GM-only effects, rewinds) through a real server and real socket.io clients (a GM, two players, a
 * spectator). Each client records the view it holds at every version and the events each patch
 * brought; afterwards the replay of each viewer, read in small pages over HTTP, must rebuild
 * exactly that view at every version, with exactly those events.
 */

const gmOps = [
  'secretRoll',
  'roll',
  'addHidden',
  'removeHidden',
  'reveal',
  'hide',
  'secretEffect',
  'openEffect',
  'lore',
  'attack',
  'end',
  'rewind',
] as const;
const playerOps = ['roll', 'attack', 'end'] as const;
const stepArb = fc.oneof(
  { weight: 3, arbitrary: fc.record({ by: fc.constant('gm' as const), op: fc.constantFrom(...gmOps), i: fc.nat(6) }) },
  {
    weight: 1,
    arbitrary: fc.record({ by: fc.constantFrom('p1' as const, 'p2' as const), op: fc.constantFrom(...playerOps), i: fc.nat(6) }),
  },
);
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;
type Viewer = 'gm' | 'p1' | 'p2' | 'spec';

/** What a client held at each version of the live branch, and the events each version's patch brought. */
interface Seen {
  states: Map<number, unknown>;
  events: Map<number, unknown[]>;
}

function record(m: EncounterMirror): Seen {
  const seen: Seen = { states: new Map([[m.version, structuredClone(m.state)]]), events: new Map() };
  m.onChange((mirror, msg) => {
    if (msg?.branch !== undefined) {
      // a rewind: what came after its version belongs to the branch it left
      for (const k of [...seen.states.keys()]) if (k >= mirror.version) seen.states.delete(k);
      for (const k of [...seen.events.keys()]) if (k >= mirror.version) seen.events.delete(k);
    } else if (msg) seen.events.set(msg.to, structuredClone(msg.events));
    seen.states.set(mirror.version, structuredClone(mirror.state));
  });
  return seen;
}

type Page = {
  to: number;
  lastVersion: number;
  state: unknown;
  from: number;
  steps: Array<{ seq: number; ops: jsonpatch.Operation[]; events: unknown[] }>;
};

describe("a viewer's replay is exactly what it saw live (property)", () => {
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
    gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The replay's view at every version, read in pages of 7 versions. */
  async function replayOf(id: string, as: string): Promise<{ states: Map<number, unknown>; events: Map<number, unknown[]> }> {
    const states = new Map<number, unknown>();
    const events = new Map<number, unknown[]>();
    let from = 0;
    for (;;) {
      const r = await s.http('GET', `/encounters/${id}/replay?as=${as}&from=${from}&limit=7`, undefined, gmToken);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const p = r.body as unknown as Page;
      let doc = p.state;
      states.set(p.from, doc);
      for (const st of p.steps) {
        doc = jsonpatch.applyPatch(doc, st.ops, true, false).newDocument;
        states.set(st.seq, doc);
        events.set(st.seq, st.events);
      }
      if (p.to >= p.lastVersion) return { states, events };
      from = p.to;
    }
  }

  async function runOnce(run: number, steps: Step[]): Promise<void> {
    const id = (await s.http('POST', '/encounters', { name: `replay ${run}`, ruleset: 'skirmish', seed: run }, gmToken)).body.id as string;
    const add = (body: unknown) => s.http('POST', `/encounters/${id}/combatants`, body, gmToken);
    await add({ id: 'pc1', name: 'Hero One', side: 'pcs', stats: { hp: 30, init: 5 } });
    await add({ id: 'pc2', name: 'Hero Two', side: 'pcs', secretStats: ['lore'], stats: { hp: 30, init: 4, lore: 'Secret two' } });
    await add({ id: 'sp1', name: 'Spyglass', side: 'npcs', hidden: true, stats: { hp: 30, init: 3 } });
    const invite = async (body: unknown) =>
      (await s.http('POST', `/encounters/${id}/invites`, body, gmToken)).body as { token: string; playerId: string | null };
    const [i1, i2, is] = [
      await invite({ role: 'player', combatantIds: ['pc1'] }),
      await invite({ role: 'player', combatantIds: ['pc2'] }),
      await invite({ role: 'spectator' }),
    ];
    const clients: Record<Viewer, FrayClient> = {
      gm: await connect(s.url, gmToken),
      p1: await connect(s.url, i1.token),
      p2: await connect(s.url, i2.token),
      spec: await connect(s.url, is.token),
    };
    try {
      const mirrors = {
        gm: await clients.gm.join(id),
        p1: await clients.p1.join(id),
        p2: await clients.p2.join(id),
        spec: await clients.spec.join(id),
      };
      const seen = { gm: record(mirrors.gm), p1: record(mirrors.p1), p2: record(mirrors.p2), spec: record(mirrors.spec) };
      await mirrors.gm.command({ type: 'combat.start' });
      let made = 0;
      for (const st of steps) await play(id, mirrors, st, (made += 1));
      await expectConverged(s, id, Object.values(mirrors));
      const as: Record<Viewer, string> = { gm: 'gm', p1: i1.playerId!, p2: i2.playerId!, spec: 'spectator' };
      for (const v of ['gm', 'p1', 'p2', 'spec'] as const) {
        const replay = await replayOf(id, as[v]);
        for (const [version, state] of seen[v].states) expect(replay.states.get(version), `${v} at version ${version}`).toEqual(state);
        for (const [version, events] of seen[v].events)
          expect(replay.events.get(version), `${v}'s events at version ${version}`).toEqual(events);
      }
    } finally {
      for (const c of Object.values(clients)) c.close();
    }
  }

  /** One step of the stream (refusals are fine: they change nothing). */
  async function play(id: string, m: Record<Viewer, EncounterMirror>, st: Step, n: number): Promise<void> {
    const host = s.server.runtime.peek(id)!;
    const ids = Object.keys(host.state.combatants);
    const target = ids[st.i % ids.length]!;
    const current = host.state.clock.current ?? 'pc1';
    if (st.by !== 'gm') {
      const mine = st.by === 'p1' ? 'pc1' : 'pc2';
      const cmd =
        st.op === 'roll'
          ? { type: 'dice.roll', formula: '1d6', purpose: 'luck', combatantId: mine }
          : st.op === 'attack'
            ? { type: 'attack', combatantId: mine, targetId: target }
            : { type: 'turn.end', combatantId: mine };
      await m[st.by].command(cmd);
      return;
    }
    const gm = m.gm;
    const hidden = ids.filter((c) => host.state.combatants[c]!.hidden);
    const shown = ids.filter((c) => !host.state.combatants[c]!.hidden && !c.startsWith('pc'));
    switch (st.op) {
      case 'secretRoll':
        return void (await gm.command({ type: 'dice.roll', formula: '1d100', purpose: `Gm roll ${n}`, secret: true, combatantId: target }));
      case 'roll':
        return void (await gm.command({ type: 'dice.roll', formula: '1d6', purpose: 'open' }));
      case 'addHidden':
        return void (await gm.command({
          type: 'combatant.add',
          combatant: { id: `h${n}`, name: `Hidden ${n}`, side: 'npcs', hidden: true, stats: { hp: 30, init: 1, lore: `Lore ${n}` } },
        }));
      case 'removeHidden':
        return void (hidden.length > 0 && (await gm.command({ type: 'combatant.remove', combatantId: hidden[st.i % hidden.length]! })));
      case 'reveal':
        return void (
          hidden.length > 0 &&
          (await gm.command({ type: 'combatant.update', combatantId: hidden[st.i % hidden.length]!, changes: { hidden: false } }))
        );
      case 'hide':
        return void (
          shown.length > 0 &&
          (await gm.command({ type: 'combatant.update', combatantId: shown[st.i % shown.length]!, changes: { hidden: true } }))
        );
      case 'secretEffect':
        return void (await gm.command({
          type: 'effect.apply',
          targetId: target,
          sourceId: ids[(st.i + 1) % ids.length]!,
          name: `Gm fx ${n}`,
          gmOnly: true,
        }));
      case 'openEffect':
        return void (await gm.command({
          type: 'effect.apply',
          targetId: target,
          sourceId: ids[(st.i + 2) % ids.length]!,
          name: 'Blessing',
          data: { from: ids[(st.i + 2) % ids.length] },
        }));
      case 'lore':
        return void (await gm.command({ type: 'combatant.setStat', combatantId: target, stat: 'lore', value: `New lore ${n}` }));
      case 'attack':
        return void (await gm.command({ type: 'attack', combatantId: current, targetId: target }));
      case 'end':
        return void (await gm.command({ type: 'turn.end', combatantId: current }));
      case 'rewind':
        return void (
          host.version > 1 && (await gm.command({ type: 'timeline.rewind', toVersion: Math.max(1, host.version - 1 - (st.i % 3)) }))
        );
    }
  }

  it('holds for random command streams with rewinds (seeded)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 30 }), async (steps) => {
        run += 1;
        await runOnce(run, steps);
      }),
      { numRuns: 12, seed: 36, endOnFailure: true },
    );
  }, 120_000);
});
