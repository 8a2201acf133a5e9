import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPatch, type Operation } from 'fast-json-patch';
import { gmView, projectState, type Viewer } from '@fray/engine';
import type { PatchMessage } from '@fray/protocol';
import { MemoryStore, Runtime, forkEncounter, stateAt, type EncounterHost } from '../src/index.js';
import { rulesets, skirmish } from '../src/testing.js';

/**
 * The GM's timeline (docs/timeline.md): "the encounter continues on a new branch from the state at
 * that version (rebuilt exactly from the log)", "the abandoned branch is kept and readable",
 * "commands in flight on the old branch are refused with a typed error", and issue 36's property
 * tests: replay to any version then continuing gives the live run's state; a rewind then the same
 * commands again gives byte-identical state.
 */

const gm = { role: 'gm' } as const;
const p1: Viewer = { role: 'player', playerId: 'p1' };
type Step = {
  op: 'hide' | 'reveal' | 'lore' | 'roll' | 'secretRoll' | 'effect' | 'start' | 'attack' | 'pass' | 'resolve' | 'end';
  who: number;
  target: number;
};
const stepArb: fc.Arbitrary<Step> = fc.record({
  op: fc.constantFrom('hide', 'reveal', 'lore', 'roll', 'secretRoll', 'effect', 'start', 'attack', 'pass', 'resolve', 'end'),
  who: fc.nat(3),
  target: fc.nat(3),
});
const ids = ['k0', 'k1', 'k2', 'k3'];

function commandsOf(steps: Step[], current: () => string | null): Array<() => Record<string, unknown>> {
  const adds = ids.map((id, i) => () => ({
    type: 'combatant.add',
    combatant: {
      id,
      name: `N${i}`,
      side: i % 2 ? 'npcs' : 'pcs',
      controller: i === 0 ? 'p1' : null,
      hidden: i === 3,
      secretStats: i === 2 ? ['lore'] : [],
      stats: { hp: 10, init: i, lore: `L${i}` },
    },
  }));
  return [
    ...adds,
    ...steps.map((s, k) => () => {
      const id = ids[s.target]!;
      const who = ids[s.who]!;
      const all: Record<Step['op'], Record<string, unknown>> = {
        hide: { type: 'combatant.update', combatantId: id, changes: { hidden: true } },
        reveal: { type: 'combatant.update', combatantId: id, changes: { hidden: false } },
        lore: { type: 'combatant.setStat', combatantId: id, stat: 'lore', value: `L${k}` },
        roll: { type: 'dice.roll', formula: '1d6', purpose: 'flavour', combatantId: who },
        secretRoll: { type: 'dice.roll', formula: '1d20', purpose: 'secret', secret: true },
        effect: { type: 'effect.apply', targetId: id, name: 'Dazed' },
        start: { type: 'combat.start' },
        attack: { type: 'attack', combatantId: who, targetId: id },
        pass: { type: 'reaction.pass', combatantId: who },
        resolve: { type: 'reaction.resolve' },
        end: { type: 'turn.end', combatantId: current() ?? who },
      };
      return all[s.op];
    }),
  ];
}

async function fight(steps: Step[], seed: number) {
  const store = new MemoryStore();
  const rt = new Runtime({ store, rulesets, options: { ownerId: 'tl', reactionSeconds: 0 } });
  const host = await rt.open((await rt.create({ accountId: 'a', name: 'Timeline', ruleset: 'skirmish', seed })).id);
  let n = 0;
  const run = (command: Record<string, unknown>, extra: { branch?: number } = {}) =>
    host.submit({ commandId: `c${++n}`, command, by: gm, ...extra }, gm);
  const commands = commandsOf(steps, () => host.state.clock.current);
  const states = [JSON.stringify(host.state)];
  const accepted: Array<Record<string, unknown>> = [];
  for (const make of commands) {
    const c = make();
    const ack = await run(c);
    if (ack.ok) {
      accepted.push(c);
      states.push(JSON.stringify(host.state));
    }
  }
  return { store, rt, host, run, states, accepted };
}

describe('timeline: the state at any version, rebuilt from the log', () => {
  it('replay to any version then continuing gives the live state (random logs)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 1e6 }),
        fc.nat(),
        async (steps, seed, pick) => {
          const { store, rt, host, states, accepted } = await fight(steps, seed);
          try {
            const v = pick % states.length;
            const at = await stateAt(store, skirmish, host.id, v);
            if ('error' in at) throw new Error(at.error.message);
            expect(JSON.stringify(at.state)).toBe(states[v]);
            // continuing from there with the live run's commands reaches the live state, byte for byte
            const rt2 = new Runtime({ store: new MemoryStore(), rulesets, options: { ownerId: 'tl2', reactionSeconds: 0 } });
            const { apply } = await import('@fray/engine');
            let s = at.state;
            for (const c of accepted.slice(v)) {
              const r = apply(skirmish, s, { ...c, by: gm });
              if (!r.ok) throw new Error(r.error.message);
              s = r.state;
            }
            expect(JSON.stringify(s)).toBe(states[states.length - 1]);
            await rt2.shutdown();
          } finally {
            await rt.shutdown();
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);

  it('a rewind then the same commands again gives byte-identical state; the abandoned branch is kept', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 1e6 }),
        fc.nat(),
        async (steps, seed, pick) => {
          const { store, rt, host, run, states, accepted } = await fight(steps, seed);
          try {
            const last = states.length - 1;
            const v = pick % last; // an earlier version
            const before = await store.readLog(host.id, 0);
            const ack = await run({ type: 'timeline.rewind', toVersion: v }, { branch: 0 });
            expect(ack).toMatchObject({
              ok: true,
              version: v,
              events: [{ type: 'timeline.rewound', fromBranch: 0, fromVersion: last, toVersion: v, branch: 1 }],
            });
            expect(JSON.stringify(host.state)).toBe(states[v]);
            for (const c of accepted.slice(v)) expect(await run(c, { branch: 1 })).toMatchObject({ ok: true });
            expect(JSON.stringify(host.state)).toBe(states[last]);
            // the abandoned branch, as it was; the live one is its path: branch 0 to v, then its own
            expect(await store.readLog(host.id, 0, undefined, 0)).toEqual(before);
            expect((await store.readLog(host.id, 0)).map((e) => e.seq)).toEqual(before.map((e) => e.seq));
            expect((await store.listBranches(host.id)).map((b) => [b.branch, b.parent, b.baseVersion, b.lastVersion, b.live])).toEqual([
              [0, null, 0, last, false],
              [1, 0, v, last, true],
            ]);
          } finally {
            await rt.shutdown();
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});

describe('timeline.rewind', () => {
  const steps: Step[] = [
    { op: 'start', who: 0, target: 0 },
    { op: 'roll', who: 0, target: 0 },
    { op: 'hide', who: 0, target: 0 },
    { op: 'lore', who: 0, target: 2 },
  ];

  it('every viewer converges at once: one patch that replaces the view, as the player may see it', async () => {
    const { rt, host, run } = await fight(steps, 7);
    try {
      const got: Record<string, PatchMessage[]> = { gm: [], p1: [] };
      const views: Record<string, unknown> = {};
      for (const [k, v] of [
        ['gm', gm],
        ['p1', p1],
      ] as const) {
        const sub = host.subscribe(v, (m) => got[k]!.push(JSON.parse(JSON.stringify(m)) as PatchMessage));
        views[k] = JSON.parse(JSON.stringify(sub.state));
      }
      const from = host.version;
      expect((await run({ type: 'timeline.rewind', toVersion: 4 })).ok).toBe(true);
      for (const [k, v] of [
        ['gm', gm],
        ['p1', p1],
      ] as const) {
        const [m] = got[k]!;
        expect(m).toMatchObject({ from, to: 4, branch: 1, events: [{ type: 'timeline.rewound', toVersion: 4 }] });
        const after = applyPatch(views[k], m!.ops as Operation[], false, false).newDocument;
        const expected = v.role === 'gm' ? gmView(host.state) : projectState(skirmish, host.state, v);
        expect(after).toEqual(JSON.parse(JSON.stringify(expected)));
      }
      // the hidden combatant (k3) never reaches the player by the rewind's patch
      expect(JSON.stringify(got.p1)).not.toContain('"N3"');
    } finally {
      await rt.shutdown();
    }
  });

  it('a command in flight on the old branch is refused with STALE_BRANCH naming the rewind; nothing changes', async () => {
    const { store, rt, host, run } = await fight(steps, 7);
    try {
      const rewind = run({ type: 'timeline.rewind', toVersion: 2 }, { branch: 0 });
      const late = run({ type: 'dice.roll', formula: '1d6', purpose: 'late' }, { branch: 0 });
      expect((await rewind).ok).toBe(true);
      const ack = await late;
      expect(ack).toMatchObject({ ok: false, error: { code: 'STALE_BRANCH', rule: 'timeline.rewind' } });
      expect(!ack.ok && ack.error.message).toMatch(/rewound the encounter from version \d+ to version 2 \(command "c\d+"\)/);
      expect(host.version).toBe(2);
      expect((await store.readLog(host.id, 0)).map((e) => e.seq)).toEqual([1, 2]);
    } finally {
      await rt.shutdown();
    }
  });

  it('bad input: a version that does not exist, not the GM, a malformed command: typed errors, nothing changed', async () => {
    const { store, rt, host, run } = await fight(steps, 7);
    try {
      const before = JSON.stringify(host.state);
      const log = JSON.stringify(await store.readLog(host.id, 0, undefined, 0));
      for (const toVersion of [host.version, host.version + 5]) {
        expect(await run({ type: 'timeline.rewind', toVersion })).toMatchObject({
          ok: false,
          error: { code: 'UNKNOWN_VERSION', rule: 'timeline.rewind' },
        });
      }
      expect(await run({ type: 'timeline.rewind', toVersion: -1 })).toMatchObject({ ok: false, error: { code: 'INVALID_COMMAND' } });
      expect(
        await host.submit(
          { commandId: 'p1-rw', command: { type: 'timeline.rewind', toVersion: 1 }, by: { role: 'player', playerId: 'p1' } },
          p1,
        ),
      ).toMatchObject({
        ok: false,
        error: { code: 'NOT_AUTHORIZED', rule: 'timeline.rewind' },
      });
      expect(JSON.stringify(host.state)).toBe(before);
      expect(JSON.stringify(await store.readLog(host.id, 0, undefined, 0))).toBe(log);
      expect(await store.listBranches(host.id)).toHaveLength(1);
    } finally {
      await rt.shutdown();
    }
  });

  it('a process that loads the encounter after a rewind (and two) resumes on the live branch', async () => {
    const { store, rt, host, run } = await fight(steps, 7);
    const id = host.id;
    await run({ type: 'timeline.rewind', toVersion: 3 });
    await run({ type: 'dice.roll', formula: '1d6', purpose: 'b1' });
    await run({ type: 'timeline.rewind', toVersion: 0 });
    await run({ type: 'dice.roll', formula: '1d8', purpose: 'b2' });
    const live = JSON.stringify(host.state);
    await rt.shutdown();
    const rt2 = new Runtime({ store, rulesets, options: { ownerId: 'tl', reactionSeconds: 0 } });
    try {
      const h2: EncounterHost = await rt2.open(id);
      expect(JSON.parse(JSON.stringify(h2.state))).toEqual(JSON.parse(live));
      expect(JSON.stringify(h2.state)).toBe(live);
      expect(h2.branch).toBe(2);
      expect((await store.listBranches(id)).map((b) => [b.branch, b.parent, b.fromVersion, b.baseVersion])).toEqual([
        [0, null, null, 0],
        [1, 0, 8, 3],
        [2, 1, 4, 0],
      ]);
      expect(
        await h2.submit({ commandId: 'old', command: { type: 'dice.roll', formula: '1d4', purpose: 'x' }, by: gm, branch: 1 }, gm),
      ).toMatchObject({ ok: false, error: { code: 'STALE_BRANCH' } });
    } finally {
      await rt2.shutdown();
    }
  });

  it('fork: a new encounter whose state equals the original at that version (same ruleset, options, combatants)', async () => {
    const { store, rt, host, states } = await fight(steps, 7);
    try {
      const rec = (await store.getEncounter(host.id))!;
      const made = await forkEncounter(rt, rec, 5, { accountId: 'a' });
      if ('error' in made) throw new Error(made.error.message);
      expect(made).toMatchObject({ ruleset: 'skirmish', version: 5, accountId: 'a' });
      const forked = await rt.open(made.id);
      expect({ ...forked.state, id: host.id, name: 'Timeline' }).toEqual(JSON.parse(states[5]!));
      expect(
        await forked.submit({ commandId: 'f1', command: { type: 'dice.roll', formula: '1d6', purpose: 'what if' }, by: gm }, gm),
      ).toMatchObject({ ok: true, version: 6 });
      expect(await forkEncounter(rt, rec, 99, { accountId: 'a' })).toMatchObject({ error: { code: 'UNKNOWN_VERSION' } });
    } finally {
      await rt.shutdown();
    }
  });
});
