import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { apply, createEncounter, rebuild, replay, type EngineEvent } from '@fray/engine';
import { actionPoints, ACTIONS } from '../../src/action-points/index.js';
import { gm, legal, type St } from './helpers.js';

const dagger = { id: 'dg', name: 'Dagger', category: 'light', damage: '1d4' };
const sword = { id: 'sw', name: 'Longsword', category: 'one-handed', damage: '1d8' };
const bow = { id: 'bow', name: 'Shortbow', kind: 'bow', category: 'ranged', damage: '1d6' };

function setupCommands(n: number, unaware: boolean) {
  const cmds: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    cmds.push({
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: `c${i}`,
        name: `C${i}`,
        side: i % 2 ? 'b' : 'a',
        stats: {
          dexterity: 8 + ((i * 5) % 11),
          hp: 30,
          speed: i === 3 ? 50 : 30,
          size: i === 5 ? 'large' : 'medium',
          weapons: [i % 3 === 0 ? dagger : sword, bow],
          extraAttacksOfOpportunity: i % 4 === 0 ? 1 : 0,
        },
        position: { x: i % 3, y: Math.floor(i / 3) },
      },
    });
  }
  if (unaware) cmds.push({ type: 'setAware', by: gm, combatantId: 'c1', aware: false });
  cmds.push({ type: 'combat.start', by: gm });
  return cmds;
}

/** Picks a command from the legal options (and sometimes an illegal one) driven by the random stream. */
function pick(s: St, r: () => number): Record<string, unknown> {
  const w = s.reaction;
  if (w) {
    const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
    if (r() % 3 === 0) return { type: 'reaction.pass', by: gm, combatantId: who };
    return { type: w.allowed[0]!, by: gm, combatantId: who };
  }
  const cur = s.clock.current;
  const ids = Object.keys(s.combatants);
  if (!cur) return { type: 'advancePhase', by: gm };
  const roll = r() % 10;
  if (roll === 0) return { type: 'turn.end', by: gm, combatantId: cur };
  if (roll === 1) {
    const def = ACTIONS[r() % ACTIONS.length]!; // anything, legal or not
    return { type: 'act', by: gm, combatantId: ids[r() % ids.length]!, action: def.id, targetId: ids[r() % ids.length]! };
  }
  const opts = legal(s, cur).filter(
    (o) => o.allowed && (o.command === 'act' || o.command === 'continue' || o.command === 'stop' || o.command === 'turn.end'),
  );
  if (opts.length === 0) return { type: 'turn.end', by: gm, combatantId: cur };
  const o = opts[r() % opts.length]!;
  const cmd: Record<string, unknown> = { type: o.command, by: gm, ...o.template };
  if (o.command === 'act') {
    const c = s.combatants[cur]!;
    const pos = c.position as { x: number; y: number };
    const names = (o.params ?? []).map((p) => p.name);
    if (names.includes('targetId')) cmd.targetId = ids[r() % ids.length];
    if (names.includes('path')) cmd.path = [{ x: pos.x + ((r() % 3) - 1), y: pos.y + ((r() % 3) - 1) }];
    if (o.action === 'ready') {
      cmd.readied = { action: 'attack', targetId: ids[r() % ids.length] };
      cmd.trigger = { kind: ['attacked', 'moves-adjacent', 'acts', 'casts'][r() % 4], description: 'when it happens' };
    }
  }
  return cmd;
}

function stream(xs: number[]) {
  let i = 0;
  return () => xs[i++ % xs.length]!;
}

describe('property tests', () => {
  it('AP never go negative nor carry over; every invariant holds after every command; refused commands change nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.nat({ max: 10_000 }), { minLength: 50, maxLength: 60 }),
        fc.integer({ min: 2, max: 8 }),
        fc.boolean(),
        (seed, xs, n, unaware) => {
          let s = createEncounter(actionPoints, { id: 'p', seed }) as unknown as St;
          for (const c of setupCommands(n, unaware)) {
            const r = apply(actionPoints as never, s as never, c);
            if (!r.ok) throw new Error(r.error.message);
            s = r.state as unknown as St;
          }
          const r = stream(xs);
          let lastRound = s.clock.round;
          for (let step = 0; step < 120; step++) {
            const cmd = pick(s, r);
            const before = JSON.stringify(s);
            const res = apply(actionPoints as never, s as never, cmd);
            if (!res.ok) {
              expect(JSON.stringify(s)).toBe(before);
              continue;
            }
            s = res.state as unknown as St;
            expect(actionPoints.invariants!(s as never)).toEqual([]);
            for (const c of Object.values(s.combatants)) expect(c.data.ap).toBeGreaterThanOrEqual(0);
            if (s.clock.round !== lastRound) {
              // a new round: everybody holds exactly the round's allotment, nothing carried over
              for (const c of Object.values(s.combatants)) {
                if (s.clock.current === c.id || c.data.apSpentThisRound > 0) continue;
                expect(c.data.ap).toBe(s.rs.surprise ? (c.data.aware ? 2 : 0) : 3);
              }
              lastRound = s.clock.round;
            }
          }
        },
      ),
      { numRuns: 25, endOnFailure: true },
    );
  }, 120_000);

  it('replay and rebuild give a byte-identical state', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.nat({ max: 10_000 }), { minLength: 30, maxLength: 40 }),
        (seed, xs) => {
          const initial = createEncounter(actionPoints, { id: 'p', seed }) as unknown as St;
          let s = initial;
          const log: unknown[] = [];
          const batches: EngineEvent[][] = [];
          const run = (c: Record<string, unknown>) => {
            const res = apply(actionPoints as never, s as never, c);
            if (!res.ok) return;
            s = res.state as unknown as St;
            log.push(c);
            batches.push(JSON.parse(JSON.stringify(res.events)) as EngineEvent[]);
          };
          for (const c of setupCommands(6, seed % 2 === 0)) run(c);
          const r = stream(xs);
          for (let i = 0; i < 100; i++) run(pick(s, r));
          const live = JSON.stringify(s);
          expect(JSON.stringify(replay(actionPoints as never, initial as never, JSON.parse(JSON.stringify(log)) as unknown[]))).toBe(live);
          expect(JSON.stringify(rebuild(actionPoints as never, initial as never, batches))).toBe(live);
        },
      ),
      { numRuns: 20, endOnFailure: true },
    );
  }, 120_000);
});
